/* bench_board.h — the board of the reference line-of-sight workload, as the C programs of
 * bench/ hold it in memory, and its loader (bench_board.c). The file format is the one
 * bench/gen.c writes: "W H", W*H elevations, W*H terrain codes, "N", N lines "x y kind base".
 * Every C program of bench/ reads it; the checksum of the real-rules workload (bench_tally)
 * is kept here too, so real_c.c and real_hon.c count alike.
 */
#ifndef BENCH_BOARD_H
#define BENCH_BOARD_H

#include <stddef.h>

enum {
    BENCH_MAX_SIDE = 128,   /* largest accepted width or height */
    BENCH_MAX_UNITS = 256,  /* largest accepted unit count */
    BENCH_MAX_ELEV = 99,    /* largest accepted elevation */
    BENCH_MAX_BASE = 99,    /* largest accepted base defense */
    BENCH_TERRAIN_CODES = 6 /* 0 open, 1 woods, 2 building, 3 hedge, 4 trench, 5 rough */
};

/* Kind codes of the workload: 0 infantry, 1 vehicle, 2 artillery. */
enum {
    BENCH_INFANTRY = 0,
    BENCH_KIND_CODES = 3
};

typedef struct bench_board {
    int w, h; /* squares; square (x, y) is index y*w + x */
    int n;    /* units */
    unsigned char elev[BENCH_MAX_SIDE * BENCH_MAX_SIDE];
    unsigned char terr[BENCH_MAX_SIDE * BENCH_MAX_SIDE];
    unsigned short occ[BENCH_MAX_SIDE * BENCH_MAX_SIDE]; /* unit index + 1 on the square, 0: none */
    int ux[BENCH_MAX_UNITS], uy[BENCH_MAX_UNITS];
    int kind[BENCH_MAX_UNITS], base[BENCH_MAX_UNITS];
} bench_board;

/* Reads the board file at `path` into *b (borrowed, fully overwritten). Every number is
 * range-checked (sides 1..BENCH_MAX_SIDE, elevation 0..BENCH_MAX_ELEV, terrain and kind codes,
 * units inside the board on distinct squares, base 0..BENCH_MAX_BASE) and trailing text is an
 * error. Returns 0 on success; -1 on any error, with a one-line message in err[errlen]. */
int bench_board_load(bench_board *b, const char *path, char *err, size_t errlen);

/* A count argument `arg` of program `prog`: a decimal integer in lo..hi. Returns it, or -1
 * after printing "PROG: bad WHAT 'ARG'" on stderr. */
long bench_parse_count(const char *prog, const char *what, const char *arg, long lo, long hi);

/* The checksum of the real-rules workload (docs/spec/bench.md §8) over the pairs asked: the
 * count of each sight (0 blocked, 1 obscured, 2 clear), the sum of the defensive bonuses of the
 * pairs not blocked, and h = sum of (p*p mod M)*(bonus + 1 + sight) mod M over them, with
 * p = s*N + t + 1 (0-based unit indexes, N units) and M = 1,000,000,007. */
typedef struct bench_tally {
    long long blocked, obscured, clear, sumbonus, h;
} bench_tally;

/* Counts pair (s, t) of a board of n units into *c: its sight (0..2) and, unless blocked, the
 * target's defensive bonus against the shooter (ignored when blocked). */
void bench_tally_add(bench_tally *c, int s, int t, int n, int sight, int bonus);

/* Prints the checksum line "real checksum blocked=B obscured=O clear=C sumbonus=S h=H" on
 * stdout: the line run_bench.py compares between hon, C and Lua. */
void bench_tally_print(const bench_tally *c);

/* The ITERATIONS argument of the bench programs: a decimal count in 0..100,000,000. Returns it,
 * or -1 after printing "PROG: bad iteration count 'ARG'" on stderr. */
long bench_parse_iterations(const char *prog, const char *arg);

/* The start of a bench program's main: checks that argv holds `ITERATIONS BOARD` and the
 * further words of usage (usage is the whole `ITERATIONS BOARD ...` text, shown on a wrong
 * count), parses the iteration count into *iters and loads the board file into *b. Returns 0,
 * or the exit status after a message on stderr: 2 for a usage error, 1 for a bad board. */
int bench_start(int argc, char **argv, const char *usage, bench_board *b, long *iters);

/* bench_start for the real-rules programs, whose usage is `ITERATIONS BOARD STRIDE ...`: also
 * parses STRIDE (1..1,000,000: every STRIDE-th ordered pair is asked) into *stride. Returns 0
 * or the exit status after a message on stderr, as bench_start. */
int bench_start_sampled(int argc, char **argv, const char *usage, bench_board *b, long *iters,
                        long *stride);

/* Seconds on the monotonic clock (for time per pair; differences only). */
double bench_wall_seconds(void);

#endif
