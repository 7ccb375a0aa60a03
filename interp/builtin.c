/* builtin.c — the built-ins of the language that read the board (language.md §5.3), run by the
 * VM's BOARD instruction (vm.c): squares, units on the board, elevation, terrain elements,
 * features of squares, sides and interspaces, distance, neighbours, directions, the squares
 * within a distance, and traced lines. One C body per BUILTIN_BOARD entry of dsl/builtins.h,
 * which also builds the dispatch table; the other built-ins (min, max, len, nth...) are
 * instructions of vm.c.
 *
 * Everything here is geometry and storage read from the scene (scene.h) through runtime/board.h
 * and geo.h; what any of it means is written in .hon. Errors are E212-E218 (state_fail). Lists
 * are allocated in the evaluation's arena in one block each, lines included.
 */
#include "builtin.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_LIST 4096   /* enough room for any list read from one square (units, items) */

/* ---- errors: out of the way of the built-ins' frames (no buffers there) ---- */

#define COLD static __attribute__((cold, noinline))

/* "$rifle1" or the counter's name, for messages. */
static void unit_text(vm_ctx *x, int64_t id, char *buf, size_t cap)
{
    const char *name = scene_unit_name(x->sc, id);
    const unit *u = unit_get(x->units, (int32_t)id);
    if (name)
        snprintf(buf, cap, "$%s", name);
    else
        snprintf(buf, cap, "%s", u ? u->counter : "?");
}

COLD bool fail_off_board(vm_ctx *x, int64_t sqv)
{
    char b[32];
    scene_square_text(sqv, b, sizeof b);
    return state_fail(x, E_OFF_BOARD, "square %s is off the board (%d columns, %d rows)", b,
                   x->sc->g->w, x->sc->g->h);
}

COLD bool fail_unit(vm_ctx *x, int code, int64_t u)
{
    char b[96];
    unit_text(x, u, b, sizeof b);
    if (code == E_NOT_EMBARKED)
        return state_fail(x, code, "%s is not embarked in a transport", b);
    return state_fail(x, code, "%s is not on the board", b);
}

/* E215 at a square: it has no `what` (terrain, terrain element, a feature). */
COLD bool fail_square(vm_ctx *x, int64_t sqv, const char *what)
{
    char b[32];
    scene_square_text(sqv, b, sizeof b);
    return state_fail(x, E_NOTHING, "square %s has no %s", b, what);
}

COLD bool fail_no_side(vm_ctx *x, int64_t a, int64_t b)
{
    char na[32], nb[32];
    scene_square_text(a, na, sizeof na);
    scene_square_text(b, nb, sizeof nb);
    return state_fail(x, E_NO_SIDE, "squares %s and %s do not share a side", na, nb);
}

COLD bool fail_side(vm_ctx *x, int side, const char *feature, bool has)
{
    char b[64];
    scene_side_text(x->sc, side, b, sizeof b);
    return state_fail(x, E_NOTHING, "side %s has no %s%s", b, feature,
                   has ? " facing a square" : "");
}

COLD bool fail_no_facing(vm_ctx *x, int e)
{
    char b[96];
    scene_element_text(x->sc, e, b, sizeof b);
    return state_fail(x, E_NOTHING, "element %s has no facing", b);
}

/* Square value v as a board square in *sq; E217 when it is off the board. */
static inline bool square_arg(vm_ctx *x, val v, int *sq)
{
    const geo_grid *g = x->sc->g;
    uint64_t sx = (uint64_t)RES_SQUARE_X(v.u.i), sy = (uint64_t)RES_SQUARE_Y(v.u.i);
    if (sx < (uint64_t)g->w && sy < (uint64_t)g->h) {
        *sq = (int)sy * g->w + (int)sx;
        return true;
    }
    return fail_off_board(x, v.u.i);
}

/* A unit id that the board can hold, else -1 (counters beyond the board's range stand
 * nowhere). */
static int board_id(int64_t u)
{
    return u >= 0 && u < BOARD_MAX_UNITS ? (int)u : -1;
}

static vlist *new_list(vm_ctx *x, size_t n)
{
    vlist *l = state_alloc(x, sizeof *l + n * sizeof(val));
    if (l)
        l->len = n;
    return l;
}

/* The n board ids as a new list (E209 when the arena is exhausted) of `type`: T_SQUARE (the
 * squares as square values) or T_UNIT. */
static bool list_of(vm_ctx *x, const int *ids, size_t n, uint32_t type, val *out)
{
    vlist *l = new_list(x, n);
    if (!l)
        return false;
    for (size_t i = 0; i < n; i++)
        l->items[i] = (val){ .type = type,
                             .u.i = type == T_SQUARE ? scene_square_value(x->sc, ids[i]) : ids[i] };
    out->u.list = l;
    return true;
}

static bool element_arg(vm_ctx *x, val v, int *e)
{
    if (v.u.i >= 0 && v.u.i < board_element_count(x->sc->b)) {
        *e = (int)v.u.i;
        return true;
    }
    return state_fail(x, E_NOTHING, "element #%" PRId64 " is not on this board", v.u.i);
}

/* The side value of a side index, checked. */
static bool side_arg(vm_ctx *x, val v, int *side)
{
    if (v.u.i >= 0 && v.u.i < geo_side_count(x->sc->g)) {
        *side = (int)v.u.i;
        return true;
    }
    return state_fail(x, E_OFF_BOARD, "side #%" PRId64 " is not a side of this board", v.u.i);
}

/* The square value of board square sq of a w-wide board. */
static inline int64_t sqv(int w, int sq)
{
    return RES_SQUARE(sq % w, sq / w);
}

/* One step of a traced line into the step record at f (STEP_NFIELDS values); squares are
 * square values. */
static inline void put_step(val *f, int64_t from, int64_t to, int corner, int side, int64_t left,
                            int64_t right, int64_t index)
{
    f[STEP_SQUARE] = (val){ .type = T_SQUARE, .u.i = to };
    f[STEP_FROM] = (val){ .type = T_SQUARE, .u.i = from };
    f[STEP_CORNER] = (val){ .type = T_BOOL, .u.i = corner };
    f[STEP_SIDE] = (val){ .type = T_SIDE, .u.i = side };
    f[STEP_LEFT] = (val){ .type = T_SQUARE, .u.i = left };
    f[STEP_RIGHT] = (val){ .type = T_SQUARE, .u.i = right };
    f[STEP_INDEX] = (val){ .type = T_INT, .u.i = index };
}

/* The side between (x0, y0) and its orthogonal neighbour (x1, y1) on a square board (the
 * indexes of geo.h: horizontal sides first, then vertical ones). */
static inline int side_xy(const geo_grid *g, int x0, int y0, int x1, int y1)
{
    if (x0 == x1)
        return (y0 > y1 ? y0 : y1) * g->w + x0;
    return g->w * (g->h + 1) + y0 * (g->w + 1) + (x0 > x1 ? x0 : x1);
}

/* A list of `cap` steps (its length set to n later) whose records follow it in one block. */
static vlist *new_steps(vm_ctx *x, size_t cap, val **records)
{
    vlist *l = state_alloc(x, sizeof *l + cap * sizeof(val) + cap * STEP_NFIELDS * sizeof(val));
    if (!l)
        return NULL;
    l->len = 0;
    *records = l->items + cap;
    return l;
}

/* line(a, b): the supercover trace (geo_walk), a excluded, b included. */
static bool line_steps(vm_ctx *x, int a, int b, val *out)
{
    const geo_grid *g = x->sc->g;
    geo_walk w;
    geo_status st = geo_walk_init(&w, g, a, b);
    if (st == GEO_ETOPO)
        return state_fail(x, E_TOPOLOGY, "lines are traced on square boards only");
    if (st != GEO_OK)
        return state_fail(x, E_INTERNAL, "cannot trace a line");
    int ax, ay, bx, by;
    geo_xy(g, a, &ax, &ay);
    geo_xy(g, b, &bx, &by);
    size_t cap = (size_t)(ax > bx ? ax - bx : bx - ax) + (size_t)(ay > by ? ay - by : by - ay);
    val *rec;
    vlist *l = new_steps(x, cap, &rec);
    if (!l)
        return false;
    const uint32_t step_type = x->p->records[R_STEP].type;
    geo_cross c;
    int sq;
    int64_t from = RES_SQUARE(ax, ay);
    while (l->len < cap && geo_walk_next(&w, &c, &sq)) {
        val *f = rec + l->len * STEP_NFIELDS;
        int64_t to = sqv(g->w, sq);
        if (c.corner >= 0)
            put_step(f, from, to, 1, c.sides[0], sqv(g->w, c.left), sqv(g->w, c.right),
                     (int64_t)l->len + 1);
        else
            put_step(f, from, to, 0, c.side, to, to, (int64_t)l->len + 1);
        l->items[l->len] = (val){ .type = step_type, .u.rec = f };
        l->len++;
        from = to;
    }
    out->u.list = l;
    return true;
}

/* bresenham(a, b): the classic walk (geo_bres), one square per move. A diagonal move is
 * reported as a corner touch whose left and right are the two squares beside it. */
static bool bresenham_steps(vm_ctx *x, int a, int b, val *out)
{
    const geo_grid *g = x->sc->g;
    if (g->topo != GEO_SQUARE)
        return state_fail(x, E_TOPOLOGY, "lines are traced on square boards only");
    int ax, ay, bx, by;
    geo_xy(g, a, &ax, &ay);
    geo_xy(g, b, &bx, &by);
    int dx = bx > ax ? bx - ax : ax - bx, dy = by > ay ? by - ay : ay - by;
    size_t cap = (size_t)(dx > dy ? dx : dy);
    val *rec;
    vlist *l = new_steps(x, cap, &rec);
    if (!l)
        return false;
    const uint32_t step_type = x->p->records[R_STEP].type;
    /* the walk of geo_bres (runtime/geo.h), inlined: err = dx - dy; a move steps x when
     * 2 err >= -dy and y when 2 err <= dx */
    int sx = ax < bx ? 1 : -1, sy = ay < by ? 1 : -1, err = dx - dy, fx = ax, fy = ay;
    while (l->len < cap && (fx != bx || fy != by)) {
        int e2 = 2 * err, tx = fx, ty = fy;
        if (e2 >= -dy) {
            err -= dy;
            tx += sx;
        }
        if (e2 <= dx) {
            err += dx;
            ty += sy;
        }
        val *f = rec + l->len * STEP_NFIELDS;
        int64_t from = RES_SQUARE(fx, fy), to = RES_SQUARE(tx, ty);
        if (tx != fx && ty != fy) {
            /* the squares beside the diagonal move: (tx, fy) and (fx, ty); (tx, fy) is on
             * the right of the move when the cross product of the move with it is positive
             * (rows grow downward) */
            bool p_right = -(long)(ty - fy) * (tx - fx) > 0;
            int lx = p_right ? fx : tx, ly = p_right ? ty : fy;
            int64_t p = RES_SQUARE(tx, fy), q = RES_SQUARE(fx, ty);
            put_step(f, from, to, 1, side_xy(g, fx, fy, lx, ly), p_right ? q : p,
                     p_right ? p : q, (int64_t)l->len + 1);
        } else {
            put_step(f, from, to, 0, side_xy(g, fx, fy, tx, ty), to, to, (int64_t)l->len + 1);
        }
        l->items[l->len] = (val){ .type = step_type, .u.rec = f };
        l->len++;
        fx = tx;
        fy = ty;
    }
    out->u.list = l;
    return true;
}

/* units() (carrier < 0: every unit on the board, placed or embarked, in id order) or
 * passengers(carrier) (the units embarked in it, in id order). */
static bool unit_list(vm_ctx *x, int carrier, val *out)
{
    const board *bd = x->sc->b;
    size_t k = carrier < 0 ? board_units(bd, NULL, 0) : board_units_in(bd, carrier, NULL, 0);
    int *ids = k ? state_alloc(x, k * sizeof *ids) : NULL;
    if (k && !ids)
        return false;
    if (k)
        k = carrier < 0 ? board_units(bd, ids, k) : board_units_in(bd, carrier, ids, k);
    return list_of(x, ids, k, T_UNIT, out);
}

/* items_near(sq), or when `sum` item_value_near(sq, item): the items on the four corners of sq
 * (NW, NE, SE, SW), repeats included. */
static bool items_near(vm_ctx *x, int sq, bool sum, int64_t item, val *out)
{
    static const geo_dir corners[4] = { GEO_NW, GEO_NE, GEO_SE, GEO_SW };
    board_feature fs[4][64];
    size_t nf[4], total = 0;
    int64_t value = 0;
    for (int i = 0; i < 4; i++) {
        int is = geo_interspace_of(x->sc->g, sq, corners[i]);
        nf[i] = is < 0 ? 0 : board_features(x->sc->b, BOARD_AT_INTERSPACE, is, fs[i], 64);
        if (nf[i] > 64)
            nf[i] = 64;
        total += nf[i];
        for (size_t k = 0; k < nf[i]; k++)
            if (fs[i][k].id == item)
                value += fs[i][k].value;
    }
    if (sum) {
        out->u.i = value;
        return true;
    }
    vlist *l = new_list(x, total);
    if (!l)
        return false;
    const uint32_t t = x->p->enums[E_INTERSPACE_ITEM].type;
    size_t at = 0;
    for (int i = 0; i < 4; i++)
        for (size_t k = 0; k < nf[i]; k++)
            l->items[at++] = (val){ .type = t, .u.i = fs[i][k].id };
    out->u.list = l;
    return true;
}

/* direction(a, b) (language.md §5.3): the neighbour's direction when b is next to a, else the
 * compass direction nearest to the straight line from a's centre to b's: diagonal when the
 * smaller of |dx|, |dy| is more than (sqrt 2 - 1) times the larger, i.e. when the line is
 * nearer 45 degrees than the axis (an exact integer test: (lo + hi)^2 > 2 hi^2; no whole
 * vector lies on the 22.5 degree boundary, so there is never a tie). Hexes: neighbours only
 * (E218 otherwise). a == b is E215. */
static bool direction_of(vm_ctx *x, val va, int a, int b, val *out)
{
    const geo_grid *g = x->sc->g;
    if (a == b) {
        char name[32];
        scene_square_text(va.u.i, name, sizeof name);
        return state_fail(x, E_NOTHING, "there is no direction from square %s to itself", name);
    }
    int d = geo_direction(g, a, b);
    if (d >= 0) {
        out->u.i = d;
        return true;
    }
    if (g->topo != GEO_SQUARE)
        return state_fail(x, E_TOPOLOGY, "direction() between hexes that are not neighbours "
                       "is not defined");
    int ax, ay, bx, by;
    geo_xy(g, a, &ax, &ay);
    geo_xy(g, b, &bx, &by);
    long dx = bx - ax, dn = ay - by;    /* east and north (rows grow southward) */
    long adx = dx < 0 ? -dx : dx, adn = dn < 0 ? -dn : dn;
    long lo = adx < adn ? adx : adn, hi = adx < adn ? adn : adx;
    geo_dir dir;
    if ((lo + hi) * (lo + hi) > 2 * hi * hi)
        dir = dn > 0 ? (dx > 0 ? GEO_NE : GEO_NW) : (dx > 0 ? GEO_SE : GEO_SW);
    else if (adx > adn)
        dir = dx > 0 ? GEO_E : GEO_W;
    else
        dir = dn > 0 ? GEO_N : GEO_S;
    out->u.i = dir;
    return true;
}

/* squares_within(sq, n): every square of the board at distance <= n, in square order (row by
 * row); n < 0 gives []. */
static bool squares_within(vm_ctx *x, int sq, int64_t n, val *out)
{
    const geo_grid *g = x->sc->g;
    if (n < 0)
        return list_of(x, NULL, 0, T_SQUARE, out);
    /* no two squares of the board are farther apart than w + h: a larger n changes nothing */
    int r = n > g->w + g->h ? g->w + g->h : (int)n;
    size_t k = geo_squares_within(g, sq, r, NULL, 0);
    int *sqs = state_alloc(x, (k ? k : 1) * sizeof *sqs);
    if (!sqs)
        return false;
    k = geo_squares_within(g, sq, r, sqs, k);
    return list_of(x, sqs, k, T_SQUARE, out);
}

/* ---- the bodies, one per BUILTIN_BOARD of dsl/builtins.h: the arguments are checked for type
 * by the resolver, not for range; out->type holds the result type ---- */

static bool builtin_square_of(vm_ctx *x, const val *args, val *out)
{
    int s0 = -1, s1 = -1;
    if (!board_unit_squares(x->sc->b, board_id(args[0].u.i), &s0, &s1))
        return fail_unit(x, E_OFF_BOARD, args[0].u.i);
    out->u.i = sqv(x->sc->g->w, s0);
    return true;
}

static bool builtin_squares_of(vm_ctx *x, const val *args, val *out)
{
    int sqs[2], s0 = -1, s1 = -1;
    size_t k = 0;
    if (board_unit_squares(x->sc->b, board_id(args[0].u.i), &s0, &s1)) {
        sqs[k++] = s0;
        if (s1 >= 0)
            sqs[k++] = s1;
    }
    return list_of(x, sqs, k, T_SQUARE, out);
}

static bool builtin_on_board(vm_ctx *x, const val *args, val *out)
{
    out->u.i = board_unit_present(x->sc->b, board_id(args[0].u.i));
    return true;
}

static bool builtin_embarked(vm_ctx *x, const val *args, val *out)
{
    out->u.i = board_unit_embarked_in(x->sc->b, board_id(args[0].u.i)) >= 0;
    return true;
}

static bool builtin_carrier(vm_ctx *x, const val *args, val *out)
{
    int t = board_unit_embarked_in(x->sc->b, board_id(args[0].u.i));
    if (t < 0)
        return fail_unit(x, E_NOT_EMBARKED, args[0].u.i);
    out->u.i = t;
    return true;
}

static bool builtin_units_at(vm_ctx *x, const val *args, val *out)
{
    int sq = -1, ids[MAX_LIST];
    if (!square_arg(x, args[0], &sq))
        return false;
    size_t k = board_units_at(x->sc->b, sq, ids, MAX_LIST);
    return list_of(x, ids, k > MAX_LIST ? MAX_LIST : k, T_UNIT, out);
}

static bool builtin_elevation(vm_ctx *x, const val *args, val *out)
{
    int sq = -1;
    if (!square_arg(x, args[0], &sq))
        return false;
    out->u.i = board_elevation(x->sc->b, sq);
    return true;
}

static bool builtin_terrain(vm_ctx *x, const val *args, val *out)
{
    int sq = -1;
    if (!square_arg(x, args[0], &sq))
        return false;
    out->u.i = board_terrain(x->sc->b, sq);
    if (out->u.i < 0 || (size_t)out->u.i >= x->p->enums[E_TERRAIN].len)
        return fail_square(x, args[0].u.i, "terrain");
    return true;
}

static bool builtin_element_at(vm_ctx *x, const val *args, val *out)
{
    int sq = -1;
    if (!square_arg(x, args[0], &sq))
        return false;
    out->u.i = board_element_at(x->sc->b, sq);
    if (out->u.i < 0)
        return fail_square(x, args[0].u.i, "terrain element");
    return true;
}

static bool builtin_in_element(vm_ctx *x, const val *args, val *out)
{
    int sq = -1;
    if (!square_arg(x, args[0], &sq))
        return false;
    out->u.i = board_element_at(x->sc->b, sq) >= 0;
    return true;
}

static bool builtin_element_terrain(vm_ctx *x, const val *args, val *out)
{
    int e = -1;
    if (!element_arg(x, args[0], &e))
        return false;
    out->u.i = board_element_type(x->sc->b, e);
    return true;
}

static bool builtin_element_value(vm_ctx *x, const val *args, val *out)
{
    int e = -1, v, f;
    if (!element_arg(x, args[0], &e))
        return false;
    board_element_attr(x->sc->b, e, &v, &f);
    out->u.i = v;
    return true;
}

static bool builtin_element_facing(vm_ctx *x, const val *args, val *out)
{
    int e = -1, v, f;
    if (!element_arg(x, args[0], &e))
        return false;
    board_element_attr(x->sc->b, e, &v, &f);
    if (f < 0 || f >= GEO_NDIRS)
        return fail_no_facing(x, e);
    out->u.i = f;
    return true;
}

static bool builtin_element_squares(vm_ctx *x, const val *args, val *out)
{
    int e = -1;
    if (!element_arg(x, args[0], &e))
        return false;
    size_t k = board_element_squares(x->sc->b, e, NULL, 0);
    int *sqs = state_alloc(x, (k ? k : 1) * sizeof *sqs);
    if (!sqs)
        return false;
    board_element_squares(x->sc->b, e, sqs, k);
    return list_of(x, sqs, k, T_SQUARE, out);
}

static bool builtin_corner_square(vm_ctx *x, const val *args, val *out)
{
    int sq = -1;
    if (!square_arg(x, args[0], &sq))
        return false;
    int e = board_element_at(x->sc->b, sq);
    out->u.i = e >= 0 && board_element_corner(x->sc->b, e, sq);
    return true;
}

static bool builtin_has_feature(vm_ctx *x, const val *args, val *out)
{
    int sq = -1;
    if (!square_arg(x, args[0], &sq))
        return false;
    out->u.i = board_has(x->sc->b, BOARD_AT_SQUARE, sq, (int)args[1].u.i, NULL);
    return true;
}

static bool builtin_feature_value(vm_ctx *x, const val *args, val *out)
{
    int sq = -1;
    board_feature f;
    if (!square_arg(x, args[0], &sq))
        return false;
    if (!board_has(x->sc->b, BOARD_AT_SQUARE, sq, (int)args[1].u.i, &f))
        return fail_square(x, args[0].u.i,
                           x->p->enums[E_SQUARE_FEATURE].members[args[1].u.i].name);
    out->u.i = f.value;
    return true;
}

static bool builtin_side_between(vm_ctx *x, const val *args, val *out)
{
    int s0 = -1, s1 = -1;
    if (!square_arg(x, args[0], &s0) || !square_arg(x, args[1], &s1))
        return false;
    int side = geo_side_between(x->sc->g, s0, s1);
    if (side < 0)
        return fail_no_side(x, args[0].u.i, args[1].u.i);
    out->u.i = side;
    return true;
}

static bool builtin_side_has(vm_ctx *x, const val *args, val *out)
{
    int side = -1;
    if (!side_arg(x, args[0], &side))
        return false;
    out->u.i = board_side_has(x->sc->b, side, (int)args[1].u.i, NULL);
    return true;
}

/* side_value(s, f) or, when `facing`, side_facing(s, f). */
static bool side_feature(vm_ctx *x, const val *args, bool facing, val *out)
{
    int side = -1;
    board_feature f;
    if (!side_arg(x, args[0], &side))
        return false;
    bool has = board_side_has(x->sc->b, side, (int)args[1].u.i, &f);
    if (!has || (facing && f.facing < 0))
        return fail_side(x, side, x->p->enums[E_SIDE_FEATURE].members[args[1].u.i].name, has);
    out->u.i = facing ? scene_square_value(x->sc, f.facing) : f.value;
    return true;
}

static bool builtin_side_value(vm_ctx *x, const val *args, val *out)
{
    return side_feature(x, args, false, out);
}

static bool builtin_side_facing(vm_ctx *x, const val *args, val *out)
{
    return side_feature(x, args, true, out);
}

static bool builtin_sides_of(vm_ctx *x, const val *args, val *out)
{
    static const geo_dir nesw[4] = { GEO_N, GEO_E, GEO_S, GEO_W };
    const geo_grid *g = x->sc->g;
    int sq = -1;
    if (!square_arg(x, args[0], &sq))
        return false;
    if (g->topo != GEO_SQUARE)
        return state_fail(x, E_TOPOLOGY, "sides_of() is for square boards");
    vlist *l = new_list(x, 4);
    if (!l)
        return false;
    for (int i = 0; i < 4; i++)
        l->items[i] = (val){ .type = T_SIDE, .u.i = geo_side_of(g, sq, nesw[i]) };
    out->u.list = l;
    return true;
}

static bool builtin_side_squares(vm_ctx *x, const val *args, val *out)
{
    int side = -1, s0, s1, sqs[2];
    size_t k = 0;
    if (!side_arg(x, args[0], &side))
        return false;
    geo_side_squares(x->sc->g, side, &s0, &s1);
    if (s0 >= 0)
        sqs[k++] = s0;
    if (s1 >= 0)
        sqs[k++] = s1;
    return list_of(x, sqs, k, T_SQUARE, out);
}

/* The square of args[0] for items_near and item_value_near: on the board, and a square board
 * (interspaces). */
static bool interspace_square(vm_ctx *x, const val *args, int *sq)
{
    if (!square_arg(x, args[0], sq))
        return false;
    if (x->sc->g->topo != GEO_SQUARE)
        return state_fail(x, E_TOPOLOGY, "interspaces exist on square boards only");
    return true;
}

static bool builtin_items_near(vm_ctx *x, const val *args, val *out)
{
    int sq = -1;
    return interspace_square(x, args, &sq) && items_near(x, sq, false, 0, out);
}

static bool builtin_item_value_near(vm_ctx *x, const val *args, val *out)
{
    int sq = -1;
    return interspace_square(x, args, &sq) && items_near(x, sq, true, args[1].u.i, out);
}

static bool builtin_distance(vm_ctx *x, const val *args, val *out)
{
    int s0 = -1, s1 = -1;
    if (!square_arg(x, args[0], &s0) || !square_arg(x, args[1], &s1))
        return false;
    out->u.i = geo_distance(x->sc->g, s0, s1);
    return true;
}

static bool builtin_adjacent(vm_ctx *x, const val *args, val *out)
{
    int s0 = -1, s1 = -1;
    if (!square_arg(x, args[0], &s0) || !square_arg(x, args[1], &s1))
        return false;
    out->u.i = geo_distance(x->sc->g, s0, s1) == 1;
    return true;
}

static bool builtin_neighbours(vm_ctx *x, const val *args, val *out)
{
    int sq = -1, sqs[8];
    if (!square_arg(x, args[0], &sq))
        return false;
    size_t k = geo_neighbours(x->sc->g, sq, true, sqs);
    return list_of(x, sqs, k, T_SQUARE, out);
}

static bool builtin_line(vm_ctx *x, const val *args, val *out)
{
    int s0 = -1, s1 = -1;
    if (!square_arg(x, args[0], &s0) || !square_arg(x, args[1], &s1))
        return false;
    return line_steps(x, s0, s1, out);
}

static bool builtin_bresenham(vm_ctx *x, const val *args, val *out)
{
    int s0 = -1, s1 = -1;
    if (!square_arg(x, args[0], &s0) || !square_arg(x, args[1], &s1))
        return false;
    return bresenham_steps(x, s0, s1, out);
}

static bool builtin_side_of_line(vm_ctx *x, const val *args, val *out)
{
    int s0 = -1, s1 = -1, s2 = -1;
    if (!square_arg(x, args[0], &s0) || !square_arg(x, args[1], &s1) ||
        !square_arg(x, args[2], &s2))
        return false;
    out->u.i = geo_side_of_line(x->sc->g, s0, s1, s2);
    return true;
}

static bool builtin_face(vm_ctx *x, const val *args, val *out)
{
    const scene *sc = x->sc;
    out->u.i = args[0].u.i >= 0 && (size_t)args[0].u.i < sc->nunit_faces
                   ? sc->unit_faces[args[0].u.i] : RES_FACE_NONE;
    return true;
}

static bool builtin_element_face(vm_ctx *x, const val *args, val *out)
{
    int e = -1;
    if (!element_arg(x, args[0], &e))
        return false;
    out->u.i = (size_t)e < x->sc->nelement_faces ? x->sc->element_faces[e] : RES_FACE_NONE;
    return true;
}

static bool builtin_units(vm_ctx *x, const val *args, val *out)
{
    return unit_list(x, -1, out);
}

static bool builtin_passengers(vm_ctx *x, const val *args, val *out)
{
    return unit_list(x, board_id(args[0].u.i), out);
}

static bool builtin_direction(vm_ctx *x, const val *args, val *out)
{
    int s0 = -1, s1 = -1;
    if (!square_arg(x, args[0], &s0) || !square_arg(x, args[1], &s1))
        return false;
    return direction_of(x, args[0], s0, s1, out);
}

static bool builtin_squares_within(vm_ctx *x, const val *args, val *out)
{
    int sq = -1;
    if (!square_arg(x, args[0], &sq))
        return false;
    return squares_within(x, sq, args[1].u.i, out);
}

/* ---- dispatch ---- */

/* The body of each board built-in, by id (NULL for the built-ins compiled to instructions). */
static bool (*const bodies[RES_BI_COUNT])(vm_ctx *x, const val *args, val *out) = {
#define BUILTIN_BOARD(id, name, body, ...) [RES_BI_##id] = body,
#include "builtins.h"
};

bool builtin_board(vm_ctx *x, uint32_t b, const val *args, uint32_t n, val *out)
{
    (void)n;
    if (!x->sc)
        return state_fail(x, E_NO_BOARD, "no board is loaded: %s() reads the board "
                       "(load a scenario first)", res_builtin_name(b));
    if (b >= RES_BI_COUNT || !bodies[b])
        return state_fail(x, E_INTERNAL, "unknown board built-in %" PRIu32, b);
    return bodies[b](x, args, out);
}
