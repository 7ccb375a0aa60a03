/* vm_helpers.c — the dispatch loop's slow paths, out of line so that vm_execute (vm.c) keeps
 * its registers: a deep comparison charged to the step budget, the call-depth error (see
 * vm_helpers.h). */
#include "vm_helpers.h"

#include "lookup.h"

__attribute__((noinline)) int vm_equal_charged(vm_ctx *x, val a, val b, bool *eq)
{
    val absent = { 0 };
    uint64_t work = state_steps(x);
    *eq = val_equal_bounded(x->p, a, b, &absent, &work);
    if (work == 0)
        return 1;
    state_set_steps(x, work);
    if (absent.flags & VAL_ABSENT) {
        uint32_t t, r, c;
        val_absent_where(absent, &t, &r, &c);
        lookup_fail_absent(x, t, r, c);
        return 2;
    }
    return 0;
}

__attribute__((noinline)) void vm_fail_depth(vm_ctx *x, uint32_t fn)
{
    if (fn < x->nfn_of)
        fn = (uint32_t)x->fn_of[fn];
    state_fail(x, E_DEPTH, "call depth limit (%u) reached calling fn %s", x->max_depth,
               x->p->fns[fn].name);
}
