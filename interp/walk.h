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
 * A loop that reads its step only field by field (`st.square`, `st.from`) needs no other field:
 * peephole.c's peep_walk_fields finds, in a finished combined chunk, the fields each walk's loop reads, and
 * WALK_START's last operand says them; the step's record is then made of those fields alone,
 * or of the square and the from both when it reads no other (one test a step: walk_next; the
 * others are never read: nothing else sees the record). Where the record can be seen
 * whole (a traced run, a fork of the odds, or so deep a call that a copied query's call of the
 * loop body may go through its driver, which reads its arguments whole: a walk started within
 * COMB_MAX_DEPTH of the depth limit) every field is made.
 *
 * `line(a, b)` is not walked so (bench.md §8, "The walks"): the rules trace one shot's line
 * many times an evaluation and the list kept for the evaluation (builtin.c) is cheaper than
 * walking it again each time.
 */
#ifndef HON_WALK_H
#define HON_WALK_H

#include <stdint.h>

#include "builtin.h"
#include "state.h"

/* Every field of a step record, as WALK_START's last operand (bit i: field i, model.h STEP_*). */
#define WALK_ALL_FIELDS ((1u << STEP_NFIELDS) - 1)
/* The square and the from (walk_next makes both when the loop reads no other field). */
#define WALK_SQUARE_FROM (1u << STEP_SQUARE | 1u << STEP_FROM)

/* WALK_START: starts the walk of board built-in bi (RES_BI_BRESENHAM) from args[0] to args[1]
 * (square values, borrowed) into the loop's locals *plan and *state; `fields` the step
 * record's fields its loop reads (WALK_START's last operand), the only ones made when the run
 * is untraced, not forked and COMB_MAX_DEPTH or more calls from the depth limit (above). Errors are the built-in's own, at the
 * same place (no board E212, a hex board E218, a square off the board E217: builtin_board
 * reports them); E209 when the arena is exhausted. */
bool walk_start(vm_ctx *x, uint32_t bi, uint32_t fields, const val *args, val *plan, val *state);

/* What a walk keeps fixed from its start to its end (the loop's first hidden local points at
 * it, in the evaluation's arena): its end and the room for its steps' records. */
typedef struct walk_plan {
    const geo_grid *g;
    uint32_t step_type; /* the type of a `step` record */
    uint32_t fields;    /* the fields made of each record (WALK_ALL_FIELDS: all) */
    int64_t end;        /* the end square, RES_SQUARE(x, y): the state's WALK_SQUARE bits */
    int64_t xmove;      /* added to the state by a move that steps x (walk_pack's fields) */
    int64_t ymove;      /* added by a move that steps y */
    int dx, dy;         /* the offsets (their absolute values) */
    /* a move steps x when the state's biased error term (bits 16-31) is at least xfrom, y
     * when it is at most yto (walk_move: 2 err >= -dy and 2 err <= dx, the bias and the
     * halving done once, here) */
    uint32_t xfrom, yto;
    val rec[]; /* room for every step's record, STEP_NFIELDS values each */
} walk_plan;

/* The second local, packed in 64 bits: column x (bits 0-7) and row y (bits 32-39) of the
 * square reached (the next step's `from`), so that the state's WALK_SQUARE bits are that
 * square as a value (RES_SQUARE); the steps made n (bits 8-15) and the error term err plus
 * WALK_ERR_BIAS (bits 16-31). Columns, rows and n are below 256 (GEO_MAX_DIM), |err| at most
 * dx + dy, so a move is one addition of the plan's xmove or ymove and WALK_ONE_STEP: a column
 * or row stepped stays on the board (a walk never passes its end), so no carry or borrow
 * crosses a field. */
#define WALK_SQUARE   ((int64_t)0xff000000ff)
#define WALK_ONE_STEP ((int64_t)1 << 8)
#define WALK_ERR_BIAS 0x8000
static inline int64_t walk_pack(int px, int py, int n, int err)
{
    return (int64_t)px | (int64_t)n << 8 | (int64_t)(err + WALK_ERR_BIAS) << 16 | (int64_t)py << 32;
}
/* The steps made before state s. */
static inline int walk_made(uint64_t s)
{
    return (int)(s >> 8 & 0xff);
}

/* The state after the move from state s (not at the walk's end), *both whether it stepped x
 * and y. err = dx - dy at the start; a move steps x when 2 err >= -dy and y when 2 err <= dx
 * (geo_bres, as builtin.c's bresenham_steps inlines it): err >= -floor(dy / 2) and err <=
 * floor(dx / 2), the plan's xfrom and yto with the bias added. */
static inline uint64_t walk_move(const walk_plan *w, uint64_t s, bool *both)
{
    const uint32_t e = (uint32_t)(s >> 16 & 0xffff);
    uint64_t t = s + (uint64_t)WALK_ONE_STEP;
    bool mx = e >= w->xfrom, my = e <= w->yto;
    if (mx)
        t += (uint64_t)w->xmove;
    if (my)
        t += (uint64_t)w->ymove;
    *both = mx && my;
    return t;
}

/* walk_next's move when the record is made whole (builtin_bres_record): w the plan, s the
 * state, not at the end. True. */
bool walk_next_whole(vm_ctx *x, walk_plan *w, uint64_t s, val *state, val *var);

/* *v = (val){ .type = type, .u.i = i }, its fields stored one by one: no zeroing of the whole
 * value first (two stores where the compound literal takes four). */
static inline void walk_put(val *v, uint32_t type, int64_t i)
{
    v->type = type;
    v->flags = 0;
    v->u.i = i;
}

/* WALK_NEXT's and WALK_BACK's work: the next step of the walk in locals plan and state, its
 * record made now (the fields walk_start keeps, or all), into *var and true; false when the
 * walk has reached its end. Never fails. Inline in the dispatch loop, once a step (without
 * always_inline the compiler calls it: some 15 machine instructions a step more). */
static inline __attribute__((always_inline)) bool walk_next(vm_ctx *x, const val *plan, val *state,
                                                            val *var)
{
    walk_plan *w = (walk_plan *)(intptr_t)plan->u.i;
    const uint64_t s = (uint64_t)state->u.i;
    if ((int64_t)(s & WALK_SQUARE) == w->end)
        return false;
    const uint32_t fields = w->fields;
    bool both;
    uint64_t t;
    val *f = w->rec + (size_t)walk_made(s) * STEP_NFIELDS;
    if (!(fields & ~WALK_SQUARE_FROM)) {
        /* the loop reads the square, the from, or both (the common case: one test, not one a
         * field): both are made, as builtin_bres_record makes them; a field made that the
         * loop does not read is never read */
        t = walk_move(w, s, &both);
        walk_put(&f[STEP_SQUARE], T_SQUARE, (int64_t)(t & WALK_SQUARE));
        walk_put(&f[STEP_FROM], T_SQUARE, (int64_t)(s & WALK_SQUARE));
    } else {
        if (fields & (1u << STEP_SIDE | 1u << STEP_LEFT | 1u << STEP_RIGHT))
            return walk_next_whole(x, w, s, state, var);
        t = walk_move(w, s, &both);
        /* the fields the loop reads, as builtin_bres_record makes them */
        if (fields & 1u << STEP_SQUARE)
            walk_put(&f[STEP_SQUARE], T_SQUARE, (int64_t)(t & WALK_SQUARE));
        if (fields & 1u << STEP_FROM)
            walk_put(&f[STEP_FROM], T_SQUARE, (int64_t)(s & WALK_SQUARE));
        if (fields & 1u << STEP_CORNER)
            walk_put(&f[STEP_CORNER], T_BOOL, both);
        if (fields & 1u << STEP_INDEX)
            walk_put(&f[STEP_INDEX], T_INT, walk_made(t));
    }
    x->steps_made++;
    var->type = w->step_type;
    var->flags = 0;
    var->u.rec = f;
    state->u.i = (int64_t)t; /* its type and flags: WALK_START's */
    return true;
}

#endif
