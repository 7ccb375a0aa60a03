/* walk.h — a loop whose collection is a call of `bresenham(a, b)` walks the squares as it goes
 * (vm.md §3, "a loop over a traced line"): the compiler lowers it to WALK_START, WALK_NEXT and
 * WALK_BACK (compile.c, walk_call) instead of BOARD and FOR_NEXT, so that a loop that stops at
 * its first blocking step (`any`, `all`, a decided `min`) never traces the squares beyond it,
 * and no list of the whole walk is built for it.
 *
 * The walk's state lives in the loop's two hidden locals, so that a fork of the odds (which
 * copies the stack) copies it too: the first points at a plan in the evaluation's arena (what
 * does not change: the end, the board, room for every step's record), the second holds the
 * square reached, the steps made and the error term. Each step's record is made when reached,
 * in the plan's room, always at the same place: a step that escapes into a list or an answer
 * stays valid until the arena is reset. Steps are charged as the list's loop charged them
 * (WALK_START the four instructions it stands for, WALK_NEXT one, WALK_BACK two).
 *
 * `line(a, b)` is not walked so (bench.md §8, "The walks"): the rules trace one shot's line
 * many times an evaluation and the list kept for the evaluation (builtin.c) is cheaper than
 * walking it again each time.
 */
#ifndef HON_WALK_H
#define HON_WALK_H

#include "builtin.h"
#include "state.h"

/* One step of a traced line into the step record at f (STEP_NFIELDS values); squares are
 * square values; index counts from 1. */
static inline void walk_put_step(val *f, int64_t from, int64_t to, int corner, int side,
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
static inline void walk_line_record(const geo_grid *g, val *f, int64_t from, int64_t to,
                                    const geo_cross *c, int64_t index)
{
    if (c->corner >= 0)
        walk_put_step(f, from, to, 1, c->sides[0], RES_SQUARE(c->left % g->w, c->left / g->w),
                      RES_SQUARE(c->right % g->w, c->right / g->w), index);
    else
        walk_put_step(f, from, to, 0, c->side, to, to, index);
}

/* The record at f of step `index` (from 1) of the Bresenham walk on board g, a move from
 * (fx, fy) to (tx, ty). A diagonal move is a corner touch whose left and right are the two
 * squares beside it: (tx, fy) is on the right of the move when the cross product of the move
 * with it is positive (rows grow downward); its side is the one towards the left square. */
static inline void walk_bres_record(const geo_grid *g, val *f, int fx, int fy, int tx, int ty,
                                    int64_t index)
{
    int64_t from = RES_SQUARE(fx, fy), to = RES_SQUARE(tx, ty);
    if (tx != fx && ty != fy) {
        bool p_right = -(long)(ty - fy) * (tx - fx) > 0;
        int lx = p_right ? fx : tx, ly = p_right ? ty : fy;
        int64_t p = RES_SQUARE(tx, fy), q = RES_SQUARE(fx, ty);
        walk_put_step(f, from, to, 1, builtin_side_xy(g, fx, fy, lx, ly), p_right ? q : p,
                      p_right ? p : q, index);
    } else {
        walk_put_step(f, from, to, 0, builtin_side_xy(g, fx, fy, tx, ty), to, to, index);
    }
}

/* WALK_START: starts the walk of board built-in bi (RES_BI_BRESENHAM) from args[0] to args[1]
 * (square values, borrowed) into the loop's locals *plan and *state. Errors are the
 * built-in's own, at the same place (no board E212, a hex board E218, a square off the board
 * E217: builtin_board reports them); E209 when the arena is exhausted. */
bool walk_start(vm_ctx *x, uint32_t bi, const val *args, val *plan, val *state);

/* WALK_NEXT's and WALK_BACK's work: the next step of the walk in locals plan and state, its
 * record made now, into *var and true; false when the walk has reached its end. Never fails. */
bool walk_next(vm_ctx *x, const val *plan, val *state, val *var);

#endif
