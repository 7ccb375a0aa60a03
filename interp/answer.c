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
