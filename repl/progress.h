/* progress.h — the REPL's progress line: on a terminal, a line of work that has run for over
 * half a second says so on stderr (time, VM steps: hon_steps_run), rewritten in place and erased
 * when the work ends, or as soon as the work writes anything itself. A thread of its own draws
 * it, as the work runs in the library. Used by repl.c around each line it runs on a terminal;
 * docs/spec/repl.md §2 describes what the person sees.
 */
#ifndef HON_PROGRESS_H
#define HON_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

typedef struct progress {
    bool on;       /* the thread runs */
    bool stopping; /* progress_stop asked it to end */
    bool hushed;   /* the work wrote something: nothing more is drawn */
    bool shown;    /* a progress line is on the screen */
    uint64_t steps0;
    struct timespec t0; /* when the work (or the last hold) began */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
} progress;

/* The streams standing in for stdout and stderr while a terminal session runs (progress_wrap):
 * each write first hushes the progress line of *current, so that the line and the work's own
 * output (answers, diagnostics, questions to the person) never mix, wherever it comes from. */
typedef struct progress_streams {
    FILE *out, *err;          /* the originals */
    progress *const *current; /* the line now watched, or NULL */
    int fd[2];                /* what each stand-in writes to: 1 and 2 */
} progress_streams;

/* Puts the stand-ins in place of stdout and stderr (w and *current are the caller's and must
 * outlive progress_unwrap). False, with nothing changed, when they cannot be made. */
bool progress_wrap(progress_streams *w, progress *const *current);
/* Flushes and closes the stand-ins and puts the originals back. Accepts an unwrapped w. */
void progress_unwrap(progress_streams *w);

/* Starts watching work that begins now, when stderr is a terminal and `quiet` is false (JSON
 * answers): after half a second a line appears. p is the caller's, zeroed or stopped; with
 * nothing to watch, or when no thread can start, p stays off and progress_stop does nothing. */
void progress_start(progress *p, bool quiet);
/* Ends the watch: erases the line if one is shown and joins the thread. Accepts an off p. */
void progress_stop(progress *p);
/* Erases the line and draws no more until progress_stop: the work writes something of its
 * own. Accepts NULL and an off p. */
void progress_hush(progress *p);

#endif
