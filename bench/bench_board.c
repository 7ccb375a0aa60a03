/* bench_board.c — loads a workload board file (the format bench/gen.c writes) into a
 * bench_board, refusing anything out of range so no input can make a reader index outside
 * its arrays. Shares its layout and limits with bench_board.h; ref_c.c is the user.
 */
#include "bench_board.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct reader {
    FILE *f;
    const char *path;
    int line; /* from 1, for messages */
    char *err;
    size_t errlen;
} reader;

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* Formats "path:line: message" into the caller's buffer; always returns -1. */
PRINTF_LIKE(2, 3) static int fail(reader *r, const char *fmt, ...)
{
    va_list ap;
    int used = snprintf(r->err, r->errlen, "%s:%d: ", r->path, r->line);

    if (used >= 0 && (size_t)used < r->errlen) {
        va_start(ap, fmt);
        vsnprintf(r->err + used, r->errlen - (size_t)used, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Skips white space, counting lines; returns the next character (EOF at the end). */
static int skip_space(reader *r)
{
    int c;
    while ((c = getc(r->f)) != EOF && isspace(c))
        r->line += c == '\n';
    return c;
}

/* Reads one decimal integer in lo..hi into *out; `what` names it in the message. */
static int read_int(reader *r, long lo, long hi, const char *what, int *out)
{
    int c = skip_space(r), neg = 0, digits = 0;
    long v = 0;

    if (c == '-') {
        neg = 1;
        c = getc(r->f);
    }
    while (c != EOF && isdigit(c)) {
        if (v <= 1000000) /* past that it is out of range anyway; stop growing */
            v = v * 10 + (c - '0');
        digits++;
        c = getc(r->f);
    }
    if (c != EOF)
        ungetc(c, r->f);
    if (!digits)
        return fail(r, "expected %s (an integer)", what);
    if (neg)
        v = -v;
    if (v > 1000000 || v < -1000000)
        return fail(r, "%s out of range %ld..%ld", what, lo, hi);
    if (v < lo || v > hi)
        return fail(r, "%s %ld out of range %ld..%ld", what, v, lo, hi);
    *out = (int)v;
    return 0;
}

static int read_board(reader *r, bench_board *b)
{
    int v, cells;

    if (read_int(r, 1, BENCH_MAX_SIDE, "width", &b->w) ||
        read_int(r, 1, BENCH_MAX_SIDE, "height", &b->h))
        return -1;
    cells = b->w * b->h;
    for (int i = 0; i < cells; i++) {
        if (read_int(r, 0, BENCH_MAX_ELEV, "elevation", &v))
            return -1;
        b->elev[i] = (unsigned char)v;
    }
    for (int i = 0; i < cells; i++) {
        if (read_int(r, 0, BENCH_TERRAIN_CODES - 1, "terrain code", &v))
            return -1;
        b->terr[i] = (unsigned char)v;
    }
    if (read_int(r, 0, BENCH_MAX_UNITS, "unit count", &b->n))
        return -1;
    for (int u = 0; u < b->n; u++) {
        if (read_int(r, 0, b->w - 1, "unit x", &b->ux[u]) ||
            read_int(r, 0, b->h - 1, "unit y", &b->uy[u]) ||
            read_int(r, 0, BENCH_KIND_CODES - 1, "unit kind", &b->kind[u]) ||
            read_int(r, 0, BENCH_MAX_BASE, "base defense", &b->base[u]))
            return -1;
        unsigned short *o = &b->occ[b->uy[u] * b->w + b->ux[u]];
        if (*o)
            return fail(r, "unit %d stands on the square of unit %d", u, *o - 1);
        *o = (unsigned short)(u + 1);
    }
    if (skip_space(r) != EOF)
        return fail(r, "unexpected text after the last unit");
    return 0;
}

int bench_board_load(bench_board *b, const char *path, char *err, size_t errlen)
{
    reader r = { NULL, path, 1, err, errlen };
    int rc;

    memset(b, 0, sizeof *b);
    if (errlen)
        err[0] = '\0';
    r.f = fopen(path, "r");
    if (!r.f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    rc = read_board(&r, b);
    if (!rc && ferror(r.f))
        rc = fail(&r, "read error");
    fclose(r.f);
    return rc;
}

long bench_parse_count(const char *prog, const char *what, const char *arg, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (errno || end == arg || *end || v < lo || v > hi) {
        fprintf(stderr, "%s: bad %s '%s'\n", prog, what, arg);
        return -1;
    }
    return v;
}

long bench_parse_iterations(const char *prog, const char *arg)
{
    return bench_parse_count(prog, "iteration count", arg, 0, 100000000L);
}

void bench_tally_add(bench_tally *c, int s, int t, int n, int sight, int bonus)
{
    const long long mod = 1000000007LL, p = (long long)s * n + t + 1;
    if (sight == 0) {
        c->blocked++;
        return;
    }
    if (sight == 1)
        c->obscured++;
    else
        c->clear++;
    c->sumbonus += bonus;
    c->h = (c->h + p * p % mod * (bonus + 1 + sight)) % mod;
}

void bench_tally_print(const bench_tally *c)
{
    printf("real checksum blocked=%lld obscured=%lld clear=%lld sumbonus=%lld h=%lld\n", c->blocked,
           c->obscured, c->clear, c->sumbonus, c->h);
}

int bench_start(int argc, char **argv, const char *usage, bench_board *b, long *iters)
{
    int want = 2; /* the program's name and usage's first word */
    for (const char *u = usage; *u; u++)
        want += *u == ' '; /* and one more for each further word */
    if (argc != want) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return 2;
    }
    *iters = bench_parse_iterations(argv[0], argv[1]);
    if (*iters < 0)
        return 2;
    char err[256];
    if (bench_board_load(b, argv[2], err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        return 1;
    }
    return 0;
}

int bench_start_sampled(int argc, char **argv, const char *usage, bench_board *b, long *iters,
                        long *stride)
{
    int rc = bench_start(argc, argv, usage, b, iters);
    if (rc == 0 && (*stride = bench_parse_count(argv[0], "stride", argv[3], 1, 1000000)) < 0)
        rc = 2;
    return rc;
}

double bench_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
