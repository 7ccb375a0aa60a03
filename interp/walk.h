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

/* WALK_START: starts the walk of board built-in bi (RES_BI_BRESENHAM) from args[0] to args[1]
 * (square values, borrowed) into the loop's locals *plan and *state. Errors are the
 * built-in's own, at the same place (no board E212, a hex board E218, a square off the board
 * E217: builtin_board reports them); E209 when the arena is exhausted. */
bool walk_start(vm_ctx *x, uint32_t bi, const val *args, val *plan, val *state);

/* WALK_NEXT's and WALK_BACK's work: the next step of the walk in locals plan and state, its
 * record made now, into *var and true; false when the walk has reached its end. Never fails. */
bool walk_next(vm_ctx *x, const val *plan, val *state, val *var);

#endif
