/* progress.c — the REPL's progress line (progress.h): a thread that wakes every fifth of a
 * second while a line runs and, past half a second, rewrites one line of the terminal (file
 * descriptor 2, written directly) with the time and the VM steps so far ("\r…\033[K"), erasing
 * it at the end. stdout and stderr go through stand-ins (fopencookie) that erase it first.
 */
#define _GNU_SOURCE /* fopencookie */
#include "progress.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hon.h"

#define SHOW_AFTER 0.5  /* seconds of work before a line appears */
#define TICK_NS    2e8L /* nanoseconds between two redraws */

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Writes the n bytes of buf to file descriptor fd, whole; false on an error. */
static bool write_all(int fd, const char *buf, size_t n)
{
    while (n) {
        ssize_t k = write(fd, buf, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        buf += k;
        n -= (size_t)k;
    }
    return true;
}

/* Erases the line shown, if any (the lock held). */
static void erase(progress *p)
{
    if (p->shown) {
        write_all(STDERR_FILENO, "\r\033[K", 4);
        p->shown = false;
    }
}

/* Draws the line: the seconds t since the work began and the steps it ran (the lock held). */
static void draw(progress *p, double t)
{
    static const char units[] = " KMG";
    uint64_t n = hon_steps_run() - p->steps0;
    int u = 0;
    while (n >= 10000 && u < 3) {
        n /= 1000;
        u++;
    }
    char line[96];
    int len = snprintf(line, sizeof line, "\r\033[Kworking: %.1f s, %llu%.*s steps (^C stops)", t,
                       (unsigned long long)n, u ? 1 : 0, &units[u]);
    if (len > 0 && (size_t)len < sizeof line)
        p->shown = write_all(STDERR_FILENO, line, (size_t)len);
}

static void *watch(void *arg)
{
    progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stopping) {
        struct timespec now, until;
        clock_gettime(CLOCK_REALTIME, &until);
        long long ns = until.tv_nsec + (long long)TICK_NS;
        until.tv_sec += (time_t)(ns / 1000000000LL);
        until.tv_nsec = (long)(ns % 1000000000LL);
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
        if (p->stopping || p->hushed)
            continue;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double t = seconds_between(&p->t0, &now);
        if (t < SHOW_AFTER)
            continue;
        draw(p, t);
    }
    erase(p);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

void progress_start(progress *p, bool quiet)
{
    *p = (progress){ 0 };
    if (quiet || !isatty(STDERR_FILENO))
        return;
    p->steps0 = hon_steps_run();
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    if (pthread_mutex_init(&p->lock, NULL) != 0)
        return;
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        return;
    }
    if (pthread_create(&p->thread, NULL, watch, p) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        return;
    }
    p->on = true;
}

void progress_stop(progress *p)
{
    if (!p->on)
        return;
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    p->on = false;
}

void progress_hush(progress *p)
{
    if (!p || !p->on)
        return;
    pthread_mutex_lock(&p->lock);
    p->hushed = true;
    erase(p);
    pthread_mutex_unlock(&p->lock);
}

/* The stand-ins' write: hushes the line watched, then writes to descriptor fd[i]. */
static ssize_t write_through(progress_streams *w, int i, const char *buf, size_t n)
{
    progress_hush(*w->current);
    return write_all(w->fd[i], buf, n) ? (ssize_t)n : -1;
}

static ssize_t write_out(void *c, const char *buf, size_t n)
{
    return write_through(c, 0, buf, n);
}

static ssize_t write_err(void *c, const char *buf, size_t n)
{
    return write_through(c, 1, buf, n);
}

bool progress_wrap(progress_streams *w, progress *const *current)
{
    *w = (progress_streams){
        .out = stdout, .err = stderr, .current = current, .fd = { STDOUT_FILENO, STDERR_FILENO }
    };
    FILE *out = fopencookie(w, "w", (cookie_io_functions_t){ .write = write_out });
    FILE *err = fopencookie(w, "w", (cookie_io_functions_t){ .write = write_err });
    if (!out || !err) {
        if (out)
            fclose(out);
        if (err)
            fclose(err);
        w->out = w->err = NULL;
        return false;
    }
    setvbuf(out, NULL, _IOLBF, 0); /* as a terminal's stdout */
    setvbuf(err, NULL, _IONBF, 0);
    fflush(stdout);
    fflush(stderr);
    stdout = out;
    stderr = err;
    return true;
}

void progress_unwrap(progress_streams *w)
{
    if (!w->out)
        return;
    fclose(stdout);
    fclose(stderr);
    stdout = w->out;
    stderr = w->err;
    w->out = w->err = NULL;
}
