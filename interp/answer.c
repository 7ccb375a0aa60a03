/* answer.c — a query call's answer outside its rules' code: from its table, folded from its
 * rules' answers by the query's mode, or from its default (see answer.h). */
#include "answer.h"

#include "model.h"

bool answer_tabled(vm_ctx *x, uint32_t q, const val *args, val *out)
{
    if (x->tracing || x->depth >= x->max_depth)
        return false;
    memo_answer *slot = memo_slot_quick(&x->memo, x->pg, x->fn_of, x->nfn_of, q, args);
    const uint64_t steps0 = state_steps(x);
    if (!slot || slot->v.type == T_NONE || slot->steps >= steps0 ||
        x->depth + memo_depth(&x->memo, q) > x->max_depth)
        return false;
    state_set_steps(x, steps0 - slot->steps);
    *out = slot->v;
    return true;
}

bool answer_decides(const res_program *p, uint32_t mode, val v)
{
    if (v.type >= p->ntypes || p->types[v.type].kind != RT_ENUM)
        return false;
    if (mode == AST_COMBINE_MIN)
        return v.u.i == 0;
    return mode == AST_COMBINE_MAX && v.u.i == (int64_t)p->enums[p->types[v.type].arg].len - 1;
}

int answer_fold(vm_ctx *x, const chunk *ch, val *acc, val v, val *out)
{
    switch (ch->combine) {
    case AST_COMBINE_SUM:
        if (__builtin_add_overflow(acc[0].u.i, v.u.i, &acc[0].u.i)) {
            x->nframes--; /* the driver's error: at the call, as vm_call_query reports it */
            state_fail(x, E_ARITH, "integer overflow adding up the rules of query %s",
                       x->p->queries[ch->id].name);
            x->nframes++;
            return -1;
        }
        return 0;
    case AST_COMBINE_MIN:
    case AST_COMBINE_MAX:
        if (answer_decides(x->p, ch->combine, v)) /* no later rule can better it */
            break;
        if (!acc[1].u.i ||
            (ch->combine == AST_COMBINE_MIN ? v.u.i < acc[0].u.i : v.u.i > acc[0].u.i))
            acc[0] = v;
        acc[1].u.i = 1;
        return 0;
    case AST_COMBINE_ALL:
    case AST_COMBINE_ANY:
        if (!v.u.i == (ch->combine == AST_COMBINE_ALL))
            break;
        return 0;
    case AST_COMBINE_PERMISSION:
        if (v.u.i) /* an explicit permit is an exception that decides */
            break;
        acc[1].u.i = 1;
        return 0;
    default: break; /* first */
    }
    *out = v;
    return 1;
}

void answer_end(const vm_ctx *x, const chunk *ch, const val *acc, val *out, bool *answered)
{
    const res_query *qq = &x->p->queries[ch->id];
    *answered = true;
    if (ch->combine == AST_COMBINE_SUM)
        *out = (val){ .type = qq->result, .u.i = acc[0].u.i };
    else if (ch->combine == AST_COMBINE_PERMISSION && acc[1].u.i)
        *out = (val){ .type = T_VERDICT, .u.i = 0 };
    else if ((ch->combine == AST_COMBINE_MIN || ch->combine == AST_COMBINE_MAX) && acc[1].u.i)
        *out = acc[0];
    else
        *answered = false;
}

int answer_unanswered(const vm_ctx *x, uint32_t q, val *v)
{
    switch (x->p->queries[q].mode) {
    case AST_COMBINE_ALL: *v = (val){ .type = T_BOOL, .u.i = 1 }; return 1;
    case AST_COMBINE_ANY: *v = (val){ .type = T_BOOL, .u.i = 0 }; return 1;
    case AST_COMBINE_PERMISSION: *v = (val){ .type = T_VERDICT, .u.i = 1 }; return 1;
    default: return x->pg->defaults[q] ? 2 : 0;
    }
}

const chunk *answer_default_alone(const vm_ctx *x, uint32_t q)
{
    const res_program *p = x->p;
    const chunk *dc = q < p->nqueries ? x->pg->defaults[q] : NULL;
    if (!dc || p->queries[q].mode == AST_COMBINE_ALL || p->queries[q].mode == AST_COMBINE_ANY ||
        p->queries[q].mode == AST_COMBINE_PERMISSION || p->queries[q].is_event ||
        model_rules_of(p, x->edition, q)->len)
        return NULL;
    return dc;
}

/* ---- a combined chunk run traced ---- */

/* Starts x->tcomb's next part: the default, or the next rule; its entry is made when it ends. */
static void trace_next_part(vm_ctx *x)
{
    vm_traced_rules *t = &x->tcomb;
    t->mark = x->trace.len;
    t->depth = x->trace.depth;
    /* a sum's default runs first; a `first`, `min` or `max` query's after its last rule */
    t->is_default = t->default_next || t->next >= t->rs->len;
    t->default_next = false;
    t->rule = t->is_default || t->next >= t->rs->len ? 0 : t->rs->rules[t->next++];
    trace_enter(&x->trace);
    t->open = true;
}

void answer_trace_begin(vm_ctx *x, uint32_t q, const res_ruleset *rs)
{
    x->tcomb = (vm_traced_rules){
        .rs = rs,
        .q = q,
        .default_next = x->p->queries[q].mode == AST_COMBINE_SUM && x->pg->defaults[q],
    };
    trace_next_part(x);
}

void answer_trace_rule(vm_ctx *x, bool fired, val v, bool more)
{
    vm_traced_rules *t = &x->tcomb;
    if (!t->rs || !t->open)
        return;
    if (t->is_default)
        trace_leave_fired(&x->trace, t->mark, TR_DEFAULT, t->q, NULL, v);
    else if (fired)
        trace_leave_fired(&x->trace, t->mark, TR_RULE, t->rule, x->rules[t->rule], v);
    else
        trace_leave_unfired(&x->trace, t->mark, x->rules[t->rule]);
    t->fired |= fired && !t->is_default;
    t->open = false;
    if (more)
        trace_next_part(x);
}

bool answer_trace_end(vm_ctx *x, bool ok, bool answered, val v)
{
    vm_traced_rules *t = &x->tcomb;
    if (!ok && t->rs && t->open) { /* an error in the part running: its entry stays open */
        trace_leave_failed(&x->trace, t->mark, t->depth, t->is_default ? TR_DEFAULT : TR_RULE,
                           t->is_default ? t->q : t->rule,
                           t->is_default ? NULL : x->rules[t->rule]);
        t->open = false;
    }
    if (ok && t->rs && t->open) {
        const bool first = x->p->queries[t->q].mode == AST_COMBINE_FIRST;
        answer_trace_rule(x, answered && first, v, false);
    }
    return t->fired;
}
