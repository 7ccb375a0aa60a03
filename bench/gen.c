/* gen.c — the board generator of the line-of-sight workloads (docs/spec/bench.md,
 * ../shared/bench/README.md). Writes a 30x30 board (five round hills of elevation, six terrain
 * codes) and 50 units drawn from a splitmix64 stream; seed 12345 is the reference board. Larger
 * boards (W H UNITS on the command line) draw one hill per 180 squares, in the same order.
 * The text format it writes is read by bench_board.c (C) and ref_lua/los.lua (Lua); the order
 * of the random draws below IS the workload definition: change nothing without changing both.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    DEFAULT_SIDE = 30,
    DEFAULT_UNITS = 50,
    MAX_SIDE = 128, /* bench_board.h's BENCH_MAX_SIDE */
    MAX_UNITS = 256,
    SQUARES_PER_HILL = 180, /* five hills on the 30x30 reference board */
    ELEV_CAP = 3
};

/* The board's dimensions: every loop below reads these, the reference board's by default. */
static int SIDE_W = DEFAULT_SIDE, SIDE_H = DEFAULT_SIDE, UNIT_COUNT = DEFAULT_UNITS;

/* splitmix64: a 64-bit counter advanced by the golden-ratio increment, then mixed.
 * The generator uses the upper 32 bits of each mixed value. */
typedef struct splitmix {
    uint64_t counter;
} splitmix;

static uint32_t draw(splitmix *g)
{
    uint64_t v;

    g->counter += UINT64_C(0x9E3779B97F4A7C15);
    v = g->counter;
    v = (v ^ (v >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    v = (v ^ (v >> 27)) * UINT64_C(0x94D049BB133111EB);
    v ^= v >> 31;
    return (uint32_t)(v >> 32);
}

/* A draw reduced to 0..n-1 by remainder (the definition uses plain modulo, bias included). */
static int draw_below(splitmix *g, uint32_t n)
{
    return (int)(draw(g) % n);
}

typedef struct gen_board {
    int elev[MAX_SIDE * MAX_SIDE];
    int terr[MAX_SIDE * MAX_SIDE];
    int taken[MAX_SIDE * MAX_SIDE];
    int ux[MAX_UNITS], uy[MAX_UNITS], kind[MAX_UNITS], base[MAX_UNITS];
} gen_board;

/* Each hill is a disc (centre x, centre y, radius 3..7 drawn in that order); every square
 * inside or on the circle rises by one, never above ELEV_CAP. */
static void raise_hills(gen_board *b, splitmix *g)
{
    int hills = SIDE_W * SIDE_H / SQUARES_PER_HILL;
    for (int hill = 0; hill < hills; hill++) {
        int cx = draw_below(g, SIDE_W);
        int cy = draw_below(g, SIDE_H);
        int radius = 3 + draw_below(g, 5);

        for (int y = 0; y < SIDE_H; y++) {
            for (int x = 0; x < SIDE_W; x++) {
                int ddx = x - cx, ddy = y - cy;
                int *e = &b->elev[y * SIDE_W + x];
                if (ddx * ddx + ddy * ddy <= radius * radius && *e < ELEV_CAP)
                    (*e)++;
            }
        }
    }
}

/* One percentile draw per square in row order; the codes take consecutive slices of 100:
 * open 62, woods 12, building 4, hedge 4, trench 8, rough 10. */
static void lay_terrain(gen_board *b, splitmix *g)
{
    static const int slice[] = { 62, 12, 4, 4, 8, 10 };

    for (int sq = 0; sq < SIDE_W * SIDE_H; sq++) {
        int roll = draw_below(g, 100), code = 0, upper = slice[0];
        while (roll >= upper) {
            code++;
            upper += slice[code];
        }
        b->terr[sq] = code;
    }
}

/* Per unit: a square (redrawn while taken), a kind draw (infantry 6 in 10, vehicle 2,
 * artillery 2), then one more draw adding 0 or 1 to the kind's base defense 3/5/2. */
static void place_units(gen_board *b, splitmix *g)
{
    static const int kind_base[] = { 3, 5, 2 };

    for (int u = 0; u < UNIT_COUNT; u++) {
        int sq;
        do
            sq = draw_below(g, SIDE_W * SIDE_H);
        while (b->taken[sq]);
        b->taken[sq] = 1;
        b->ux[u] = sq % SIDE_W;
        b->uy[u] = sq / SIDE_W;

        int k = draw_below(g, 10);
        b->kind[u] = k < 6 ? 0 : k < 8 ? 1 : 2;
        b->base[u] = kind_base[b->kind[u]] + draw_below(g, 2);
    }
}

/* Writes a grid of SIDE_W x SIDE_H values, one board row per line, single spaces between. */
static void write_grid(FILE *f, const int *cells)
{
    for (int y = 0; y < SIDE_H; y++)
        for (int x = 0; x < SIDE_W; x++)
            fprintf(f, "%d%s", cells[y * SIDE_W + x], x + 1 < SIDE_W ? " " : "\n");
}

/* A decimal integer in lo..hi from text s, or -1. */
static long number_in(const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno || end == s || *end || v < lo || v > hi ? -1 : v;
}

/* Usage: bench_gen [SEED] [OUT] [W H UNITS]; SEED defaults to 12345, OUT to board.txt ("-":
 * stdout), the board to 30 x 30 with 50 units (sides 2..128, units 2..256 and at most half the
 * squares). */
int main(int argc, char **argv)
{
    const char *out = argc > 2 ? argv[2] : "board.txt";
    uint64_t seed = 12345;
    static gen_board b; /* zeroed: flat ground, no square taken */

    if (argc > 3 && argc != 6) {
        fprintf(stderr, "usage: %s [SEED] [OUT] [W H UNITS]\n", argv[0]);
        return 2;
    }
    if (argc > 3) {
        long w = number_in(argv[3], 2, MAX_SIDE), h = number_in(argv[4], 2, MAX_SIDE);
        long n = number_in(argv[5], 2, MAX_UNITS);
        if (w < 0 || h < 0 || n < 0 || n > w * h / 2) {
            fprintf(stderr, "%s: bad board size '%s %s %s'\n", argv[0], argv[3], argv[4], argv[5]);
            return 2;
        }
        SIDE_W = (int)w;
        SIDE_H = (int)h;
        UNIT_COUNT = (int)n;
    }
    if (argc > 1) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(argv[1], &end, 10);
        if (errno || end == argv[1] || *end || argv[1][0] == '-') {
            fprintf(stderr, "%s: bad seed '%s' (want a decimal integer 0..2^64-1)\n", argv[0],
                    argv[1]);
            return 2;
        }
        seed = v;
    }

    splitmix g = { seed };
    raise_hills(&b, &g);
    lay_terrain(&b, &g);
    place_units(&b, &g);

    FILE *f = strcmp(out, "-") ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "%s: %s: %s\n", argv[0], out, strerror(errno));
        return 1;
    }
    fprintf(f, "%d %d\n", SIDE_W, SIDE_H);
    write_grid(f, b.elev);
    write_grid(f, b.terr);
    fprintf(f, "%d\n", UNIT_COUNT);
    for (int u = 0; u < UNIT_COUNT; u++)
        fprintf(f, "%d %d %d %d\n", b.ux[u], b.uy[u], b.kind[u], b.base[u]);
    if (ferror(f) | (f != stdout ? fclose(f) : fflush(f))) {
        fprintf(stderr, "%s: %s: write failed\n", argv[0], out);
        return 1;
    }

    int blocking = 0, infantry = 0;
    for (int sq = 0; sq < SIDE_W * SIDE_H; sq++)
        blocking += b.terr[sq] == 2 || b.terr[sq] == 3;
    for (int u = 0; u < UNIT_COUNT; u++)
        infantry += b.kind[u] == 0;
    fprintf(stderr,
            "seed %" PRIu64 ": %dx%d board, %d building/hedge squares, %d units (%d infantry)\n",
            seed, SIDE_W, SIDE_H, blocking, UNIT_COUNT, infantry);
    return 0;
}
