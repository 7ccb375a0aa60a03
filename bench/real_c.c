/* real_c.c — a plain-C port of the bundled line_of_sight (rules/line_of_sight.hon, terrain.hon)
 * and defensive_bonus (rules/defense.hon) under the default edition and readings, restricted to
 * what the real-rules board holds (docs/spec/bench.md §8): open, woods, building, trench and
 * rough squares, hedge side features, red contour lines wherever the elevation changes, rifle
 * squads, jeeps and officers. Same checksum line as real_hon.c and ref_lua/real.lua; when the
 * rules change, this port must follow them or run_bench.py reports the difference.
 * Usage: bench_real_c ITERATIONS BOARD STRIDE.
 */
#include <stdio.h>
#include <string.h>

#include "bench_board.h"

enum {
    BLOCKED,
    OBSCURED,
    CLEAR
}; /* enum sight, worst first */
enum {
    OPEN,
    WOODS,
    BUILDING,
    HEDGE,
    TRENCH,
    ROUGH
}; /* the board's terrain codes */
enum {
    NSQ = BENCH_MAX_SIDE * BENCH_MAX_SIDE,
    NSIDE = 2 * NSQ,
    NO_LIMIT = 999
};

static int W, H, N;
static unsigned char code[NSQ], elev[NSQ];
static unsigned char tsight[NSQ]; /* terrain_sight of the square (no obstacle_to_infantry here) */
static int elem[NSQ];             /* the square's element (connected squares of one valued
                                   * terrain: woods, building, trench), -1 for none */
static int evalue[NSQ];           /* value of element e */
static unsigned char hedge[NSIDE], contour[NSIDE];
static int redline[NSIDE]; /* the red line (component of contour sides meeting end to end) */
static int crossed[NSIDE]; /* red line r crossed by the current shot iff crossed[r] == shot */
static int shot_no;
static int usq[BENCH_MAX_UNITS], infantry[BENCH_MAX_UNITS], vehicle[BENCH_MAX_UNITS];
static int occ[NSQ]; /* unit index + 1 on the square, 0 for none */

static inline int imin(int a, int b)
{
    return a < b ? a : b;
}
static inline int imax(int a, int b)
{
    return a > b ? a : b;
}
static inline int iabs(int a)
{
    return a < 0 ? -a : a;
}
static inline int distance(int a, int b)
{
    return imax(iabs(a % W - b % W), iabs(a / W - b / W));
}

/* The side between orthogonal neighbours a and b: vertical sides first (between (x, y) and
 * (x+1, y): y*W + x), then horizontal ones (between (x, y) and (x, y+1): NSQ + y*W + x). */
static inline int side_between(int a, int b)
{
    int lo = imin(a, b);
    return iabs(a - b) == 1 ? lo : NSQ + lo;
}
static inline int same_element(int a, int b)
{
    return elem[a] >= 0 && elem[a] == elem[b];
}
static inline int is_hole(int q)
{
    return code[q] == TRENCH;
}
static inline int side_sight(int a, int b)
{
    return hedge[side_between(a, b)] ? OBSCURED : CLEAR;
}
static inline int has_contour(int a, int b)
{
    return contour[side_between(a, b)];
}

/* One step of the traced line (runtime/geo.c, geo_walk_next): from square `from` into `sq`;
 * at a corner touch, `left` and `right` are the two squares beside the corner. */
typedef struct step {
    int from, sq, corner, left, right;
} step;

/* line(a, b): the centre-to-centre supercover line; returns the steps written to out. */
static int trace_line(int a, int b, step *out)
{
    int x = a % W, y = a / W, bx = b % W, by = b / W;
    int sx = (bx > x) - (bx < x), sy = (by > y) - (by < y);
    int nx = iabs(bx - x), ny = iabs(by - y), ix = 0, iy = 0, n = 0;
    while (x != bx || y != by) {
        /* which grid line the line meets next: the vertical one at (2ix+1)/(2nx) of the way,
         * the horizontal one at (2iy+1)/(2ny); both at once is a corner touch */
        long l = (long)(2 * ix + 1) * ny, r = (long)(2 * iy + 1) * nx;
        int cmp = nx == 0 ? 1 : ny == 0 ? -1 : (l > r) - (l < r);
        step *s = &out[n++];
        s->from = y * W + x;
        s->corner = cmp == 0;
        if (cmp == 0) {
            s->left = y * W + x + sx; /* beside the corner: left and right play alike here */
            s->right = (y + sy) * W + x;
        }
        if (cmp <= 0)
            x += sx, ix++;
        if (cmp >= 0)
            y += sy, iy++;
        s->sq = y * W + x;
    }
    return n;
}

/* crosses(st, contour) under corner_touch both_sides; marks the red lines of the contour sides
 * the step crosses (contour_sides_crossed) as crossed by the current shot. */
static int cross_contour(const step *st)
{
    if (!st->corner) {
        int sd = side_between(st->from, st->sq);
        if (!contour[sd])
            return 0;
        crossed[redline[sd]] = shot_no;
        return 1;
    }
    int sd[4] = { side_between(st->from, st->left), side_between(st->left, st->sq),
                  side_between(st->from, st->right), side_between(st->right, st->sq) };
    if (!((contour[sd[0]] || contour[sd[1]]) && (contour[sd[2]] || contour[sd[3]])))
        return 0;
    for (int i = 0; i < 4; i++)
        if (contour[sd[i]])
            crossed[redline[sd[i]]] = shot_no;
    return 1;
}

/* next_to_crossed_contour under contour_adjacency whole_line: one of q's own contour sides
 * belongs to a red line the shot crosses. */
static int next_to_crossed(int q)
{
    int x = q % W, y = q / W;
    int sd[4] = { x > 0 ? side_between(q, q - 1) : -1, x + 1 < W ? side_between(q, q + 1) : -1,
                  y > 0 ? side_between(q, q - W) : -1, y + 1 < H ? side_between(q, q + W) : -1 };
    for (int i = 0; i < 4; i++)
        if (sd[i] >= 0 && contour[sd[i]] && crossed[redline[sd[i]]] == shot_no)
            return 1;
    return 0;
}

/* screens: whether the unit on q (if any, and not an end of the shot) blocks it. */
static int screened(int q, int s, int t, int both_infantry)
{
    int u = occ[q] - 1;
    if (u < 0 || u == s || u == t)
        return 0;
    if (infantry[u]) {
        int A = usq[s], B = usq[t];
        if (is_hole(q) && !(same_element(q, A) && same_element(q, B)))
            return 0;         /* hole_outside */
        return both_infantry; /* hole_same_element, infantry */
    }
    return vehicle[u]; /* vehicles (presumed) */
}

/* outside_hole, for a shot inside a Hole element from square A */
static inline int hole_blocks(int q, int A)
{
    return !same_element(q, A);
}

/* line_of_sight(s, t): sight_along the one line between the units' squares, the worst of the
 * rules of sight_along; stops as soon as the line is blocked. */
static int line_of_sight(int s, int t)
{
    static step st[4 * BENCH_MAX_SIDE];
    int A = usq[s], B = usq[t], both_inf = infantry[s] && infantry[t];
    int hole_shot = is_hole(A) && same_element(A, B);
    int n = trace_line(A, B, st), best = CLEAR, limit = NO_LIMIT;
    shot_no++;
    for (int i = 0; i < n; i++) {
        const step *p = &st[i];
        /* terrain_between */
        int ts = p->sq == B ? CLEAR : tsight[p->sq];
        if (p->corner)
            ts = imin(ts, imax(tsight[p->left], tsight[p->right]));
        /* sides_crossed */
        int ss = p->corner ? imax(imin(side_sight(p->from, p->left), side_sight(p->left, p->sq)),
                                  imin(side_sight(p->from, p->right), side_sight(p->right, p->sq)))
                           : side_sight(p->from, p->sq);
        best = imin(best, imin(ts, ss));
        /* units_between */
        if ((p->sq != B && screened(p->sq, s, t, both_inf)) ||
            (p->corner && screened(p->left, s, t, both_inf) && screened(p->right, s, t, both_inf)))
            best = BLOCKED;
        /* hole_corners */
        if (hole_shot && ((p->sq != B && hole_blocks(p->sq, A)) ||
                          (p->corner && (hole_blocks(p->left, A) || hole_blocks(p->right, A)))))
            best = BLOCKED;
        if (best == BLOCKED)
            return BLOCKED;
        /* range_limit_along.contour_line (the limit is applied once the whole line is known) */
        if (cross_contour(p))
            limit = imin(limit, distance(A, p->sq));
    }
    /* contour_exemption whole_shot: an end next to a crossed red line frees the whole shot */
    if (limit != NO_LIMIT && distance(A, B) > limit && !next_to_crossed(A) && !next_to_crossed(B))
        return BLOCKED;
    return best;
}

/* defensive_bonus(t, s): universal (woods, building) and infantry_in_trench, both lost against
 * a shooter inside the same Defensive Element (the trench). The expansions' rules of the
 * default edition (under_higher_position, additional_shielding) give 0 on this board. */
static int defensive_bonus(int t, int s)
{
    int B = usq[t], lost = code[B] == TRENCH && same_element(usq[s], B), d = 0;
    if ((code[B] == WOODS || code[B] == BUILDING) && !lost)
        d += evalue[elem[B]];
    if (infantry[t] && code[B] == TRENCH && !lost)
        d += evalue[elem[B]];
    return d;
}

/* union-find over sides, for the red lines */
static int root(int *up, int a)
{
    while (up[a] != a)
        a = up[a] = up[up[a]];
    return a;
}

/* The board in the rules' terms: elements and their corner squares, hedge and contour sides,
 * red lines (contour sides joined through the interior grid points where they meet), units. */
static void setup(const bench_board *b)
{
    static const int value[6] = { 0, 1, 3, 0, 2, 0 };
    static int stack[NSQ], up[NSIDE];
    W = b->w, H = b->h, N = b->n;
    int ne = 0;
    for (int q = 0; q < W * H; q++) {
        code[q] = b->terr[q], elev[q] = b->elev[q], elem[q] = -1, occ[q] = 0;
        tsight[q] = code[q] == BUILDING                     ? BLOCKED
                    : code[q] == WOODS || code[q] == TRENCH ? OBSCURED
                                                            : CLEAR;
    }
    for (int q0 = 0; q0 < W * H; q0++) {
        if (!value[code[q0]] || elem[q0] >= 0)
            continue;
        int sp = 0;
        stack[sp++] = q0, elem[q0] = ne, evalue[ne] = value[code[q0]];
        while (sp) {
            int q = stack[--sp], x = q % W, y = q / W;
            int nb[4] = { x > 0 ? q - 1 : -1, x + 1 < W ? q + 1 : -1, y > 0 ? q - W : -1,
                          y + 1 < H ? q + W : -1 };
            for (int k = 0; k < 4; k++)
                if (nb[k] >= 0 && elem[nb[k]] < 0 && code[nb[k]] == code[q0])
                    elem[nb[k]] = ne, stack[sp++] = nb[k];
        }
        ne++;
    }
    for (int i = 0; i < NSIDE; i++)
        up[i] = i, hedge[i] = contour[i] = 0, redline[i] = crossed[i] = 0;
    shot_no = 0;
    for (int q = 0; q < W * H; q++) {
        int nb[2] = { q % W + 1 < W ? q + 1 : -1, q / W + 1 < H ? q + W : -1 };
        for (int k = 0; k < 2; k++) {
            if (nb[k] < 0)
                continue;
            int sd = side_between(q, nb[k]);
            contour[sd] = elev[q] != elev[nb[k]];
            hedge[sd] = code[q] == HEDGE || code[nb[k]] == HEDGE;
        }
    }
    /* the interior grid point below-right of square (x, y) joins the contour sides meeting there */
    for (int y = 0; y + 1 < H; y++)
        for (int x = 0; x + 1 < W; x++) {
            int nw = y * W + x, ne_ = nw + 1, sw = nw + W, se = sw + 1, first = -1;
            int sd[4] = { side_between(nw, ne_), side_between(sw, se), side_between(nw, sw),
                          side_between(ne_, se) };
            for (int i = 0; i < 4; i++)
                if (contour[sd[i]]) {
                    if (first < 0)
                        first = sd[i];
                    else
                        up[root(up, sd[i])] = root(up, first);
                }
        }
    for (int i = 0; i < NSIDE; i++)
        redline[i] = root(up, i);
    for (int i = 0; i < N; i++) {
        usq[i] = b->uy[i] * W + b->ux[i];
        occ[usq[i]] = i + 1;
        infantry[i] = b->kind[i] == 0 || b->kind[i] == 2; /* rifle squad; officer, a character */
        vehicle[i] = b->kind[i] == 1;                     /* jeep, a light vehicle */
    }
}

int main(int argc, char **argv)
{
    static bench_board b;
    long iters, stride;
    int rc = bench_start_sampled(argc, argv, "ITERATIONS BOARD STRIDE", &b, &iters, &stride);
    if (rc)
        return rc;
    setup(&b);
    bench_tally c = { 0 };
    long asked = 0;
    double t0 = bench_wall_seconds();
    for (long i = 0; i < iters; i++) {
        __asm__ volatile("" ::: "memory"); /* one evaluation per iteration, not hoisted */
        c = (bench_tally){ 0 };
        long k = 0;
        for (int s = 0; s < N; s++)
            for (int t = 0; t < N; t++) {
                if (s == t || k++ % stride)
                    continue;
                int v = line_of_sight(s, t);
                bench_tally_add(&c, s, t, N, v, v == BLOCKED ? 0 : defensive_bonus(t, s));
                asked++;
            }
    }
    double dt = bench_wall_seconds() - t0;
    bench_tally_print(&c);
    if (asked)
        fprintf(stderr, "real_c: %ld pairs, %.4f s, %.1f ns/pair\n", asked, dt, dt * 1e9 / asked);
    return 0;
}
