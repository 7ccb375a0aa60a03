/* vm.c — the dispatch loop (see vm.h, frame.h).
 *
 * vm_execute() is the one dispatch loop: each opcode body once behind VM_CASE / VM_NEXT (a
 * switch or computed goto: HON_THREADED_DISPATCH, config.h), the macros in vm_dispatch.h and the
 * bodies, by group, in vm_ops_*.h, each included here in its place in the loop.
 * Fn calls push frames in the loop (vm_enter_frame, frame.h), and so do untraced query calls
 * (the query's combined chunk, combine.h, or its default alone); the others go through the query
 * driver (vm_call_query, calls.c), which runs each active rule's chunk and combines the answers.
 * Answers from tables and folded by the mode are answer.c's; table reads lookup.c's. Whatever
 * can fail saves the pc and leaves through the one `error:` exit (E2xx). No longjmp. The board
 * built-ins are builtin.c's; what only a procedure runs goes to its driver (proc.c) through
 * vm_ctx.driver. */
#include "vm.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "answer.h"
#include "builtin.h"
#include "combine.h"
#include "config.h"
#include "fork.h"
#include "frame.h"
#include "lookup.h"
#include "mem.h"
#include "vm_helpers.h"
#include "walk.h"

/* last: its macros name vm_execute's locals (OPA, POP, VM_CASE...) */
#include "vm_dispatch.h"

VM_NO_CROSSJUMPING bool vm_execute(vm_ctx *x, val *out, bool *answered, const vm_fork *resume)
{
    const res_program *p = x->p;
    const size_t entry = resume ? 0 : x->nframes - 1;
    vm_frame *f = &x->frames[x->nframes - 1];
    const chunk *ch = f->ch;
    const val *K = ch->k;
    const uint32_t *pc = resume ? f->pc : ch->code;
    val *base = x->stack + f->base;
    val *sp = resume ? x->stack + resume->sp : base + ch->nlocals;

#if HON_THREADED_DISPATCH
    static const void *const labels[OP__COUNT] = {
#define OP(name, ...) &&L_##name,
#include "opcodes.h"
    };
#endif

    VM_LOOP_BEGIN

    /* the stack, arithmetic and comparisons */
#include "vm_ops_values.h"
    /* jumps, loops, kept reads and walks */
#include "vm_ops_flow.h"
    /* lists, sets, records and tables */
#include "vm_ops_data.h"
    /* units, the board, dice and variants */
#include "vm_ops_board.h"
    /* calls, returns and combined chunks */
#include "vm_ops_calls.h"
    /* lists read and grown */
#include "vm_ops_lists.h"
    /* what procedures do, the turn and the phase */
#include "vm_ops_proc.h"
    /* pairs in one (peephole.c) */
#include "vm_ops_pairs.h"

    VM_LOOP_END

budget:
    /* a block of steps is used up: the next comes out of the reserve (state.h) */
    f->pc = pc + 1;
    if (state_refill(x, 0))
        VM_DISPATCH();
    if (x->err.code == E_INTERRUPTED)
        return false;
over_budget:
    return state_fail(x, E_BUDGET, "step budget exhausted (%" PRIu64 " steps) in %s" VM_BUDGET_HINT,
                      x->budget, chunk_name_at(ch, (size_t)(pc - ch->code)));
error:
    return false;
}
