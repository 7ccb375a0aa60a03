/* vm_helpers.h — small helpers of the dispatch loop (vm.c) kept out of its file: the checked
 * integer division of DIV and MOD and the step of a loop over a set (inline: they run on the
 * hot path), and the slow paths that must not cost the loop its registers (out of line:
 * vm_helpers.c): a deep comparison charged to the step budget, the call-depth error.
 */
#ifndef HON_VM_HELPERS_H
#define HON_VM_HELPERS_H

#include <stdbool.h>
#include <stdint.h>

#include "state.h"

/* Floored division of a by b: *q and *r, the remainder taking b's sign (`//` and `%` of the
 * language). False, nothing written, when b is 0 or the quotient overflows (INT64_MIN / -1). */
static inline bool checked_div(int64_t a, int64_t b, int64_t *q, int64_t *r)
{
    if (b == 0 || (a == INT64_MIN && b == -1))
        return false;
    int64_t qq = a / b, rr = a % b;
    if (rr != 0 && ((rr < 0) != (b < 0))) {
        qq -= 1;
        rr += b;
    }
    *q = qq;
    *r = rr;
    return true;
}

/* A step of a loop over a set (FOR_NEXT_SET, FOR_BACK_SET): the next member of coll at or
 * after the index in *idx into *item (a member of the set's enum) and *idx past it; false when
 * none is left. */
static inline bool next_member(const res_program *p, const val *coll, val *idx, val *item)
{
    int64_t m = idx->u.i;
    uint64_t rest = m >= 0 && m < 64 ? coll->u.bits >> m : 0;
    if (!rest)
        return false;
    m += __builtin_ctzll(rest); /* the next member present */
    *item = (val){ .type = p->types[coll->type].arg, .u.i = m };
    idx->u.i = m + 1;
    return true;
}

/* *eq = whether a and b are deeply equal, the values visited charged to x's step budget.
 * Returns 0, or 1 when the budget runs out (the caller reports E207), or 2 after E201 (in
 * x->err) when a `?` cell takes part. */
int vm_equal_charged(vm_ctx *x, val a, val b, bool *eq);

/* E206 into x->err for a call of fn `fn` (as declared: the edition's version is named) at the
 * depth limit. */
void vm_fail_depth(vm_ctx *x, uint32_t fn);

#endif
