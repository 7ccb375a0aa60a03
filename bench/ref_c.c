/* ref_c.c — the plain-C reference of the line-of-sight workload (docs/spec/bench.md): every
 * ordered pair of distinct units, a Bresenham walk with the blocking and contour rules, the
 * defense of each visible target, and the checksum line. It is the practical floor the other
 * implementations (ref_lua/, the hon VM) are measured against; built with -O2 explicitly.
 * Shares the rules and the checksum with ref_lua/los.lua and los.hon, the board with bench_board.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_board.h"

/* Workload codes (the definition's, not the game's: the game's rules live in .hon files). */
enum {
    TERR_BUILDING = 2,
    TERR_HEDGE = 3,
    TERR_TRENCH = 4
};
static const int terrain_bonus[BENCH_TERRAIN_CODES] = { 0, 1, 3, 2, 2, 1 };
#define CHECK_MOD 1000000007LL

typedef struct checksum {
    long long visible, sumdef, h;
} checksum;

static int dist_abs(int v)
{
    return v < 0 ? -v : v;
}

/* Chebyshev distance: the larger of the two coordinate differences, in squares. */
static int chebyshev(int ax, int ay, int bx, int by)
{
    int dx = dist_abs(ax - bx), dy = dist_abs(ay - by);
    return dx > dy ? dx : dy;
}

/* Walks the line from the shooter's square to the target's with the integer-error Bresenham
 * (a step moves x when 2*err >= -|dy|, y when 2*err <= |dx|, both for a diagonal step) and
 * returns 1 at the first square that blocks, 0 if the walk reaches the target. */
static int blocked(const bench_board *b, int s, int t)
{
    const int w = b->w;
    const int sx = b->ux[s], sy = b->uy[s], tx = b->ux[t], ty = b->uy[t];
    const int adx = dist_abs(tx - sx), ady = dist_abs(ty - sy);
    const int stepx = sx < tx ? 1 : -1, stepy = sy < ty ? 1 : -1;
    const int infantry_pair = b->kind[s] == BENCH_INFANTRY && b->kind[t] == BENCH_INFANTRY;
    int x = sx, y = sy, err = adx - ady;
    int from_elev = b->elev[sy * w + sx];

    while (x != tx || y != ty) {
        int twice = 2 * err;
        if (twice >= -ady) {
            err -= ady;
            x += stepx;
        }
        if (twice <= adx) {
            err += adx;
            y += stepy;
        }
        int q = y * w + x;
        if (x != tx || y != ty) {
            /* a square on the way: solid terrain, or infantry screening infantry */
            int tr = b->terr[q];
            if (tr == TERR_BUILDING || tr == TERR_HEDGE)
                return 1;
            int o = b->occ[q];
            if (o && infantry_pair && b->kind[o - 1] == BENCH_INFANTRY)
                return 1;
        }
        /* climbing a contour at q: only the squares next to the climb see past it */
        int e = b->elev[q];
        if (e > from_elev && chebyshev(x, y, tx, ty) > 1 && chebyshev(x, y, sx, sy) > 1)
            return 1;
        from_elev = e;
    }
    return 0;
}

/* Defense of target t shot at by s: base + terrain bonus + 1 for infantry in a trench
 * unless the shooter is in a trench too. */
static int defense(const bench_board *b, int s, int t)
{
    int tt = b->terr[b->uy[t] * b->w + b->ux[t]];
    int st = b->terr[b->uy[s] * b->w + b->ux[s]];
    int d = b->base[t] + terrain_bonus[tt];
    if (b->kind[t] == BENCH_INFANTRY && tt == TERR_TRENCH && st != TERR_TRENCH)
        d++;
    return d;
}

/* One evaluation: all n*(n-1) ordered pairs, s then t, into a fresh checksum. */
static checksum evaluate(const bench_board *b)
{
    checksum c = { 0, 0, 0 };

    for (int s = 0; s < b->n; s++) {
        for (int t = 0; t < b->n; t++) {
            if (s == t || blocked(b, s, t))
                continue;
            long long d = defense(b, s, t);
            long long p = (long long)s * 50 + t + 1;
            c.visible++;
            c.sumdef += d;
            c.h = (c.h + p * p * (d + 1)) % CHECK_MOD;
        }
    }
    return c;
}

/* Usage: bench_ref_c ITERATIONS BOARD. Prints the checksum of the last evaluation (zeros for
 * 0 iterations) on stdout and the time per pair on stderr. */
int main(int argc, char **argv)
{
    static bench_board board;
    long iters;
    int rc = bench_start(argc, argv, "ITERATIONS BOARD", &board, &iters);
    if (rc)
        return rc;

    /* Reading the board through a volatile pointer each time keeps the compiler from
     * computing the (pure) evaluation once and reusing it. */
    const bench_board *volatile board_ptr = &board;
    checksum c = { 0, 0, 0 };
    double t0 = bench_wall_seconds();
    for (long i = 0; i < iters; i++)
        c = evaluate(board_ptr);
    double dt = bench_wall_seconds() - t0;

    printf("checksum visible=%lld sumdef=%lld h=%lld\n", c.visible, c.sumdef, c.h);
    double pairs = (double)iters * board.n * (board.n - 1);
    if (pairs > 0)
        fprintf(stderr, "c: %ld iterations, %.4f s, %.1f ns/pair\n", iters, dt, dt * 1e9 / pairs);
    return 0;
}
