/* calls.c — the call and return machinery around the dispatch loop (see vm.h, frame.h): a
 * chunk run as a new frame from C (run_chunk), the query driver (vm_call_query: a query's
 * active rules run one by one, or its combined chunk, and their answers combined by the
 * query's mode, language.md §3.5), and the evaluations' entry points (vm_eval, vm_call,
 * vm_run, vm_resume, vm_ask). The loop itself is vm.c's; the frame a call pushes is built by
 * vm_enter_frame, the one place that does it. */
#include <inttypes.h>
#include <string.h>

#include "answer.h"
#include "fork.h"
#include "frame.h"
#include "stack.h"
#include "vm.h"

/* ---- a chunk run from C ---- */

/* Runs ch as a new frame whose nargs arguments are x->stack[argi...]. When they are the top of
 * the stack (x->sp == argi + nargs: a query's rules, a call from C) the frame is built on them
 * in place, as CALL_FN does: no chunk ever writes its parameter slots, so one query's rules
 * can run one after the other on the same arguments. Otherwise they are copied above x->sp. */
static inline __attribute__((always_inline)) bool run_chunk_inline(vm_ctx *x, const chunk *ch,
                                                                   size_t argi, uint32_t nargs,
                                                                   val *out, bool *answered)
{
    const size_t sp0 = x->sp;
    const size_t frames = x->nframes;
    const unsigned depth = x->depth;
    if (!ch)
        return state_fail(x, E_INTERNAL, "missing chunk");
    /* every nested run from C recurses in C (vm_execute, here): the depth cap (at most 1,000)
       fits the usual 8 MiB stack, not every stack (`ulimit -s 256`), so the stack left is
       checked too (stack.h), E206 rather than a crash */
    if (stack_short())
        return state_fail(x, E_DEPTH,
                          "call depth limit: the native stack (%zu KiB) runs short at call depth "
                          "%u (a smaller `limit depth`, or a larger `ulimit -s`)",
                          stack_size() >> 10, x->depth);
    size_t nb = argi + nargs == sp0 ? argi : sp0;
    if (!vm_enter_frame(x, ch, nb, vm_zero_from(ch, nargs)))
        return false;
    x->chunk_runs++;
    /* copied after: the frame's zeroed locals start past its arguments, and the arguments
     * lie below sp0 */
    if (nb != argi)
        for (uint32_t i = 0; i < nargs; i++)
            x->stack[nb + i] = x->stack[argi + i];
    *answered = false;
    bool ok = vm_execute(x, out, answered, NULL);
    x->nframes = frames;
    x->depth = depth;
    x->sp = sp0;
    return ok;
}

/* run_chunk_inline, called: where a chunk runs from C less often than once a call from C
 * (the rules one by one, a default, an expression, vm_run's callers). The two that run at
 * every call from C, a fn's chunk (vm_call_placed) and a query's combined chunk untraced
 * (vm_call_query), have it inline: a call's registers saved and restored less. */
static bool run_chunk(vm_ctx *x, const chunk *ch, size_t argi, uint32_t nargs, val *out,
                      bool *answered)
{
    return run_chunk_inline(x, ch, argi, nargs, out, answered);
}

/* ---- the query driver ---- */

static bool run_default(vm_ctx *x, uint32_t q, size_t argi, uint32_t nargs, val *out)
{
    size_t node = SIZE_MAX;
    if (x->tracing)
        node = trace_open(&x->trace, &x->arena, TR_DEFAULT, q, NULL, 0);
    bool answered;
    if (!run_chunk(x, x->pg->defaults[q], argi, nargs, out, &answered))
        return false;
    if (x->tracing)
        trace_close(&x->trace, node, *out);
    return true;
}

/* What query q answers on the nargs arguments at x->stack[argi...] when none of its rules did
 * (language.md §3.5), into *acc: `all` true, `any` false, `permission` forbid when a rule
 * forbade (forbidden), else permit; any other mode its default's answer (run_default), or
 * E203 when it has none. True, or false with x->err set. */
static bool unanswered(vm_ctx *x, uint32_t q, size_t argi, uint32_t nargs, bool forbidden, val *acc)
{
    switch (x->p->queries[q].mode) {
    case AST_COMBINE_ALL: *acc = (val){ .type = T_BOOL, .u.i = 1 }; return true;
    case AST_COMBINE_ANY: *acc = (val){ .type = T_BOOL, .u.i = 0 }; return true;
    case AST_COMBINE_PERMISSION:
        *acc = (val){ .type = T_VERDICT, .u.i = forbidden ? 0 : 1 };
        return true;
    default:
        if (!x->pg->defaults[q])
            return state_fail(x, E_NO_ANSWER, "no rule of query %s answered, and it has no default",
                              x->p->queries[q].name);
        return run_default(x, q, argi, nargs, acc);
    }
}

/* vm_call_query's case of an untraced call that asks no deciding rule, of a query whose rules
 * run in one chunk (cc, combine.h): the chunk, then unanswered when no rule answered, then
 * the table's slot filled when there is one (slot, with the steps left before the call,
 * steps0): what the calls from C (and the dispatch loop's past the depth where it runs them
 * itself) do, apart from the trace's bookkeeping (the compiler inlines it; made a called
 * function of its own, the general path after it cost more: bench.md §8, "Sitting 18"). */
static bool call_combined(vm_ctx *x, uint32_t q, const chunk *cc, size_t argi, uint32_t nargs,
                          val *out, memo_answer *slot, uint64_t steps0)
{
    x->depth++;
    val acc = { .type = x->p->queries[q].result };
    bool answered;
    if (!run_chunk_inline(x, cc, argi, nargs, &acc, &answered)) {
        x->depth--;
        return false;
    }
    if (!answered) {
        acc = (val){ .type = x->p->queries[q].result };
        if (!unanswered(x, q, argi, nargs, false, &acc)) {
            x->depth--;
            return false;
        }
    }
    x->depth--;
    if (slot)
        *slot = (memo_answer){ acc, steps0 - state_steps(x) };
    *out = acc;
    return true;
}

bool vm_call_query(vm_ctx *x, uint32_t q, size_t argi, uint32_t nargs, val *out, uint32_t *decider)
{
    const res_program *p = x->p;
    const res_query *qq = &p->queries[q];
    if (x->depth >= x->max_depth)
        return state_fail(x, E_DEPTH, "call depth limit (%u) reached asking query %s", x->max_depth,
                          qq->name);
    if (!prog_ready(x->pg, q)) /* a lazy program's rules, compiled on the first call */
        return state_fail(x, E_MEMORY, "out of memory compiling the rules of query %s", qq->name);
    /* A pure query over a small finite domain answers from its table (memo.h), charged the
     * steps its rules took, unless the call is traced, the caller wants the deciding rule, or
     * the steps or the depth left would not have sufficed: those run the rules. */
    memo_answer *slot = NULL;
    const uint64_t steps0 = state_steps(x);
    if (!x->tracing && !decider) {
        if (memo_may_table(&x->memo, q)) {
            slot = memo_slot_quick(&x->memo, x->pg, x->fn_of, x->nfn_of, q, x->stack + argi);
            if (slot && slot->v.type != T_NONE && slot->steps < steps0 &&
                x->depth + memo_depth(&x->memo, q) <= x->max_depth) {
                state_set_steps(x, steps0 - slot->steps);
                *out = slot->v;
                return true;
            }
        }
        /* the rules in one chunk (combine.h), when they can be */
        const chunk *cc = prog_combined(x->pg, x->edition, q);
        if (cc)
            return call_combined(x, q, cc, argi, nargs, out, slot, steps0);
    }
    x->depth++;
    size_t node = SIZE_MAX;
    if (x->tracing)
        node = trace_open(&x->trace, &x->arena, TR_CALL, q, x->stack + argi, nargs);
    val acc = { .type = qq->result };
    bool have = false, forbidden = false, fired = false;
    uint32_t by = UINT32_MAX, first_forbid = UINT32_MAX;
    /* When no one asks which rule decided, traced with the plain chunks: the rules in one
     * chunk (combine.h), whose exits then record each rule (answer_trace_begin); untraced,
     * call_combined ran it (this is a query whose rules cannot be combined) */
    const bool plain = x->tracing && x->rules == (chunk *const *)x->pg->rules;
    const chunk *cc = decider || !plain ? NULL : prog_combined(x->pg, x->edition, q);
    if (cc) {
        bool answered;
        vm_traced_rules outer = x->tcomb;
        answer_trace_begin(x, q, model_rules_of(p, x->edition, q));
        bool ok = run_chunk(x, cc, argi, nargs, &acc, &answered);
        fired = answer_trace_end(x, ok, answered, acc);
        x->tcomb = outer;
        if (!ok)
            goto fail;
        have = answered;
        if (!have)
            acc = (val){ .type = qq->result };
        goto combined;
    }
    /* the rules one by one (asked after the combined chunk, which needs them only traced) */
    const res_ruleset *rs = model_rules_of(p, x->edition, q);
    if (qq->mode == AST_COMBINE_SUM) {
        if (x->pg->defaults[q] && !run_default(x, q, argi, nargs, &acc))
            goto fail;
        have = true;
    }
    for (size_t i = 0; i < rs->len; i++) {
        uint32_t r = rs->rules[i];
        size_t mark = x->trace.len, rn = SIZE_MAX;
        const chunk *ch = x->rules[r];
        if (x->tracing) { /* the explained chunk, compiled on its first traced run */
            ch = ch ? ch : prog_explained(x->pg, r);
            rn = trace_open_rule(&x->trace, ch);
        }
        val v;
        bool answered;
        if (!run_chunk(x, ch, argi, nargs, &v, &answered))
            goto fail;
        if (!answered) {
            if (x->tracing)
                trace_unfired(&x->trace, rn, mark);
            continue;
        }
        fired = true;
        if (x->tracing)
            trace_close(&x->trace, rn, v);
        switch (qq->mode) {
        case AST_COMBINE_SUM:
            if (__builtin_add_overflow(acc.u.i, v.u.i, &acc.u.i)) {
                state_fail(x, E_ARITH, "integer overflow adding up the rules of query %s",
                           qq->name);
                goto fail;
            }
            break;
        case AST_COMBINE_MIN:
        case AST_COMBINE_MAX:
            if (!have || (qq->mode == AST_COMBINE_MIN ? v.u.i < acc.u.i : v.u.i > acc.u.i))
                acc = v;
            have = true;
            if (answer_decides(p, qq->mode, v)) { /* the enum's least (greatest) member */
                by = r;
                goto done;
            }
            break;
        case AST_COMBINE_ALL:
        case AST_COMBINE_ANY:
            if (!v.u.i == (qq->mode == AST_COMBINE_ALL)) {
                acc = v;
                have = true;
                by = r;
                goto done;
            }
            break;
        case AST_COMBINE_PERMISSION:
            if (v.u.i) { /* an explicit permit is an exception that decides */
                acc = v;
                have = true;
                by = r;
                goto done;
            }
            if (!forbidden)
                first_forbid = r;
            forbidden = true;
            break;
        default: /* first */
            acc = v;
            have = true;
            by = r;
            goto done;
        }
    }
combined:
    if (x->tracing && !fired && node < x->trace.len)
        x->trace.e[node].no_rule = true;
    if (!have) {
        if (!unanswered(x, q, argi, nargs, forbidden, &acc))
            goto fail;
        if (qq->mode == AST_COMBINE_PERMISSION)
            by = first_forbid;
    }
done:
    if (x->tracing)
        trace_close(&x->trace, node, acc);
    x->depth--;
    if (slot)
        *slot = (memo_answer){ acc, steps0 - state_steps(x) };
    *out = acc;
    if (decider)
        *decider = by;
    return true;
fail:
    x->depth--;
    return false;
}

/* ---- evaluations ---- */

bool vm_eval(vm_ctx *x, const chunk *ch, val *out)
{
    bool answered;
    x->err.code = E_NONE;
    if (state_interrupted()) /* a loop of evaluations stops at its next one */
        return state_fail_interrupted(x);
    x->sp = 0;
    x->nframes = 0;
    x->depth = 0;
    if (!run_chunk(x, ch, 0, 0, out, &answered))
        return false;
    if (!answered)
        return state_fail(x, E_INTERNAL, "the expression gave no value");
    return true;
}

bool vm_call(vm_ctx *x, bool is_fn, uint32_t q, const val *args, uint32_t nargs, val *out)
{
    x->err.code = E_NONE;
    if (state_interrupted()) /* a loop of evaluations stops at its next one */
        return state_fail_interrupted(x);
    x->sp = 0;
    x->nframes = 0;
    x->depth = 0;
    if (!state_ensure_stack(x, nargs + 1))
        return false;
    if (nargs) /* args may be NULL when there are none: memcpy's arguments must not be */
        memcpy(x->stack, args, nargs * sizeof *args);
    return vm_call_placed(x, is_fn, q, nargs, out);
}

bool vm_call_placed(vm_ctx *x, bool is_fn, uint32_t q, uint32_t nargs, val *out)
{
    x->err.code = E_NONE;
    if (state_interrupted())
        return state_fail_interrupted(x);
    if (is_fn) {
        if (q < x->nfn_of)
            q = (uint32_t)x->fn_of[q];
        if (!prog_fn_ready(x->pg, q)) { /* a lazy program's fn, compiled on its first call */
            x->nframes = 0;
            return state_fail(x, E_MEMORY, "out of memory compiling fn %s", x->p->fns[q].name);
        }
    }
    /* set after the call prog_fn_ready may make: what run_chunk saves of them and puts back
     * is then known to be these */
    x->nframes = 0;
    x->depth = 0;
    x->sp = nargs;
    if (!is_fn)
        return vm_call_query(x, q, 0, nargs, out, NULL);
    bool answered;
    if (!run_chunk_inline(x, x->pg->fns[q], 0, nargs, out, &answered))
        return false;
    return answered || state_fail(x, E_INTERNAL, "the function gave no value");
}

bool vm_call_fresh(vm_ctx *x, bool is_fn, uint32_t q, uint32_t nargs, val *out)
{
    /* state_restart's stores and vm_call_placed's in one place: err, frames, depth and the
     * stack top are set once, and the evaluation begins and ends (state_end) in this frame */
    state_restart(x, false);
    if (state_interrupted())
        return state_fail_interrupted(x);
    x->sp = nargs;
    bool ok;
    if (!is_fn)
        ok = vm_call_query(x, q, 0, nargs, out, NULL);
    else {
        if (q < x->nfn_of)
            q = (uint32_t)x->fn_of[q];
        if (!prog_fn_ready(x->pg, q)) /* a lazy program's fn, compiled on its first call */
            return state_fail(x, E_MEMORY, "out of memory compiling fn %s", x->p->fns[q].name);
        bool answered;
        ok = run_chunk_inline(x, x->pg->fns[q], 0, nargs, out, &answered) &&
             (answered || state_fail(x, E_INTERNAL, "the function gave no value"));
    }
    if (ok)
        state_end(x);
    return ok;
}

/* Copies the nargs arguments to the top of the stack (above the running frames): their index
 * into *argi, x->sp past them; false (E209) when the stack cannot grow. */
static bool push_args(vm_ctx *x, const val *args, uint32_t nargs, size_t *argi)
{
    *argi = x->sp;
    if (!state_ensure_stack(x, *argi + nargs + 1))
        return false;
    if (nargs) /* args may be NULL when there are none: memcpy's arguments must not be */
        memcpy(x->stack + *argi, args, nargs * sizeof *args);
    x->sp = *argi + nargs;
    return true;
}

bool vm_run(vm_ctx *x, const chunk *ch, const val *args, uint32_t nargs, val *out, bool *answered)
{
    size_t argi;
    if (state_interrupted())
        return state_fail_interrupted(x);
    if (!push_args(x, args, nargs, &argi))
        return false;
    bool ok = run_chunk(x, ch, argi, nargs, out, answered);
    x->sp = argi;
    return ok;
}

bool vm_resume(vm_ctx *x, const vm_fork *fk, val *out, bool *answered)
{
    const unsigned depth = x->depth;
    if (!fk->nframes)
        return state_fail(x, E_INTERNAL, "nothing to resume");
    /* the deepest frame needs its room above the saved top, as when it was pushed */
    const vm_frame *top = &fk->frames[fk->nframes - 1];
    size_t need = top->base + top->ch->nlocals + top->ch->max_stack + 1;
    if ((need > x->stack_cap && !state_ensure_stack(x, need)) || !fork_load(x, fk))
        return false;
    *answered = false;
    bool ok = vm_execute(x, out, answered, fk);
    x->fork_resumed = false;
    x->nframes = 0;
    x->depth = depth;
    x->sp = fk->frames[0].base;
    return ok;
}

bool vm_ask(vm_ctx *x, uint32_t q, const val *args, uint32_t nargs, val *out, uint32_t *decider)
{
    size_t argi;
    if (state_interrupted())
        return state_fail_interrupted(x);
    if (!push_args(x, args, nargs, &argi))
        return false;
    bool ok = vm_call_query(x, q, argi, nargs, out, decider);
    x->sp = argi;
    return ok;
}
