/* builtin.h — the built-ins of the language that read the board (language.md §5.3): one entry
 * point, called by the VM's BOARD instruction (vm.c), and the fast paths of the lookups the
 * compiler gives instructions of their own (SIDE_BETWEEN, SIDE_HAS, TERRAIN, IN_ELEMENT,
 * SQUARE_OF, DISTANCE: vm.md §4a), which must answer as builtin.c's bodies do. Geometry and storage only;
 * the rules that give them meaning are .hon. builtin.c implements them on the scene (scene.h),
 * one C body per BUILTIN_BOARD entry of their list, dsl/builtins.h.
 */
#ifndef HON_BUILTIN_H
#define HON_BUILTIN_H

#include "state.h"

/* The empty list that every empty list of board ids a built-in answers shares (units_at,
 * units(), squares_of...): read-only, in the program's constant data. Nothing writes to a list
 * it did not make (LIST_PUSH grows only its loop's own list; fork_load restores only a length
 * that changed). */
extern const vlist builtin_empty_list;

/* Runs board built-in b (a RES_BI_* of a BUILTIN_BOARD entry, dsl/builtins.h) on its n
 * arguments (borrowed); out->type holds the result type on entry (a list's type for list
 * results), and out's payload is set on success (lists in the evaluation's arena, or
 * builtin_empty_list). False with
 * an E212-E218 error (state_fail) otherwise; E299 for an id with no body. */
bool builtin_board(vm_ctx *x, uint32_t b, const val *args, uint32_t n, val *out);

/* The side between square (x0, y0) and its orthogonal neighbour (x1, y1) on a square board g
 * (the side numbering of geo.h: horizontal sides first, row by row, then vertical ones). */
static inline int builtin_side_xy(const geo_grid *g, int x0, int y0, int x1, int y1)
{
    if (x0 == x1)
        return (y0 > y1 ? y0 : y1) * g->w + x0;
    return g->w * (g->h + 1) + y0 * (g->w + 1) + (x0 > x1 ? x0 : x1);
}

/* Square value v as board square *sq when x has a board and v is on it; false otherwise (the
 * caller then lets builtin_board report the error). The bounds are x's own copy of the
 * board's (vm_ctx.sq_w, sq_h: 0 with no board, so that no square is on it). */
static inline bool builtin_square_at(const vm_ctx *x, val v, int *sq)
{
    uint64_t sx = (uint64_t)RES_SQUARE_X(v.u.i), sy = (uint64_t)RES_SQUARE_Y(v.u.i);
    if (sx >= x->sq_w || sy >= x->sq_h)
        return false;
    *sq = (int)(sy * x->sq_w + sx);
    return true;
}

/* The columns and rows of squares a and b into *ax, *ay, *bx, *by (from 0) when x has a square
 * board and both are on it; false otherwise (no board, a hex board, a square off it). */
static inline bool builtin_square_pair(const vm_ctx *x, val a, val b, uint64_t *ax, uint64_t *ay,
                                       uint64_t *bx, uint64_t *by)
{
    if (!x->sc || x->sc->g->topo != GEO_SQUARE)
        return false;
    const geo_grid *g = x->sc->g;
    *ax = (uint64_t)RES_SQUARE_X(a.u.i), *ay = (uint64_t)RES_SQUARE_Y(a.u.i);
    *bx = (uint64_t)RES_SQUARE_X(b.u.i), *by = (uint64_t)RES_SQUARE_Y(b.u.i);
    return *ax < (uint64_t)g->w && *ay < (uint64_t)g->h && *bx < (uint64_t)g->w &&
           *by < (uint64_t)g->h;
}

/* side_between(a, b) on square values, by arithmetic: the side into *side when there is a
 * square board and a and b are orthogonal neighbours on it; false for anything else (a hex
 * board, or an error builtin_board reports). */
static inline bool builtin_fast_side_between(const vm_ctx *x, val a, val b, int *side)
{
    uint64_t ax, ay, bx, by, dx, dy;
    if (!builtin_square_pair(x, a, b, &ax, &ay, &bx, &by))
        return false;
    dx = ax > bx ? ax - bx : bx - ax;
    dy = ay > by ? ay - by : by - ay;
    if (dx + dy != 1)
        return false;
    *side = builtin_side_xy(x->sc->g, (int)ax, (int)ay, (int)bx, (int)by);
    return true;
}

/* distance(a, b) on square values, by arithmetic as geo_distance on a square board (the larger
 * of the two offsets: a diagonal step is one square) into *d, when x has a square board and both
 * squares are on it; false otherwise (a hex board, or an error builtin_board reports). */
static inline bool builtin_fast_distance(const vm_ctx *x, val a, val b, int64_t *d)
{
    uint64_t ax, ay, bx, by, dx, dy;
    if (!builtin_square_pair(x, a, b, &ax, &ay, &bx, &by))
        return false;
    dx = ax > bx ? ax - bx : bx - ax;
    dy = ay > by ? ay - by : by - ay;
    *d = (int64_t)(dx > dy ? dx : dy);
    return true;
}

/* square_of(u) as a square value into *sqv, as builtin_square_of answers it (the front square,
 * the transport's for an embarked unit), when x has a board and unit u is on it; false
 * otherwise, and builtin_board reports the error. */
static inline bool builtin_fast_square_of(const vm_ctx *x, val u, int64_t *sqv)
{
    if (!x->sc || (uint64_t)u.u.i >= BOARD_MAX_UNITS)
        return false;
    int s0, s1;
    if (!board_unit_squares(x->sc->b, (int)u.u.i, &s0, &s1))
        return false;
    int w = x->sc->g->w;
    *sqv = RES_SQUARE(s0 % w, s0 / w);
    return true;
}

/* One step of a traced line into the step record at f (STEP_NFIELDS values); squares are
 * square values; index counts from 1. */
static inline void builtin_put_step(val *f, int64_t from, int64_t to, int corner, int side,
                                    int64_t left, int64_t right, int64_t index)
{
    f[STEP_SQUARE] = (val){ .type = T_SQUARE, .u.i = to };
    f[STEP_FROM] = (val){ .type = T_SQUARE, .u.i = from };
    f[STEP_CORNER] = (val){ .type = T_BOOL, .u.i = corner };
    f[STEP_SIDE] = (val){ .type = T_SIDE, .u.i = side };
    f[STEP_LEFT] = (val){ .type = T_SQUARE, .u.i = left };
    f[STEP_RIGHT] = (val){ .type = T_SQUARE, .u.i = right };
    f[STEP_INDEX] = (val){ .type = T_INT, .u.i = index };
}

/* The record at f of step `index` (from 1) of the supercover line on board g (w columns) from
 * square value `from` into square value `to` through crossing c (geo_walk_next): a corner
 * touch gives its first side and the squares left and right of it. */
static inline void builtin_line_record(const geo_grid *g, val *f, int64_t from, int64_t to,
                                       const geo_cross *c, int64_t index)
{
    if (c->corner >= 0)
        builtin_put_step(f, from, to, 1, c->sides[0], RES_SQUARE(c->left % g->w, c->left / g->w),
                         RES_SQUARE(c->right % g->w, c->right / g->w), index);
    else
        builtin_put_step(f, from, to, 0, c->side, to, to, index);
}

/* The record at f of step `index` (from 1) of the Bresenham walk on board g, a move from
 * (fx, fy) to (tx, ty). A diagonal move is a corner touch whose left and right are the two
 * squares beside it: (tx, fy) is on the right of the move when the cross product of the move
 * with it is positive (rows grow downward); its side is the one towards the left square. */
static inline void builtin_bres_record(const geo_grid *g, val *f, int fx, int fy, int tx, int ty,
                                       int64_t index)
{
    int64_t from = RES_SQUARE(fx, fy), to = RES_SQUARE(tx, ty);
    if (tx != fx && ty != fy) {
        bool p_right = -(long)(ty - fy) * (tx - fx) > 0;
        int lx = p_right ? fx : tx, ly = p_right ? ty : fy;
        int64_t p = RES_SQUARE(tx, fy), q = RES_SQUARE(fx, ty);
        builtin_put_step(f, from, to, 1, builtin_side_xy(g, fx, fy, lx, ly), p_right ? q : p,
                         p_right ? p : q, index);
    } else {
        builtin_put_step(f, from, to, 0, builtin_side_xy(g, fx, fy, tx, ty), to, to, index);
    }
}

#endif
