/* eval.c — evaluating (hon.h: hon_eval, hon_odds, hon_query_info_of, hon_lookup_query,
 * hon_call_query, hon_unit_id, hon_unit_set_value, hon_member_id), over eval.h. Typed text is
 * compiled, run under the session's setup and answered with its value and trace (eval_answer);
 * calls from C skip the text: a handle names a query once, each call checks its arguments.
 */
#include "eval.h"

#include <string.h>

#include "mem.h"
#include "odds.h"
#include "vm.h"

hon_answer *eval_answer(hon_vm *vm, val v, uint32_t type)
{
    const res_program *p = vm->pg->res;
    const val_env env = { p, vm->x.sc };
    strbuf text = { 0 }, json = { 0 }, trace = { 0 }, brief = { 0 };
    char tname[160];
    bool cut_text, cut_json;
    char *vt = val_text(&env, v, false, SESSION_ANSWER_MAX, &cut_text);
    char *vj = val_text(&env, v, true, SESSION_ANSWER_MAX, &cut_json);
    if (!vt || !vj)
        text.oom = true;
    sb_puts(&text, vt);
    if (cut_text)
        sb_puts(&text, "... (cut: the value is too long to print)");
    sb_puts(&json, "{\"value\": ");
    sb_puts(&json, cut_json ? "null, \"truncated\": true" : vj);
    mem_free(vt);
    mem_free(vj);
    sb_puts(&json, ", \"type\": ");
    sb_json_str(&json, type_name(p, type, tname, sizeof tname));
    sb_puts(&json, ", \"text\": ");
    sb_json_str(&json, sb_str(&text));
    sb_puts(&json, ", \"trace\": ");
    trace_json(&env, &vm->x.trace, &json);
    sb_puts(&json, "}");
    session_trace_header(vm, vm->x.edition, vm->x.readings, &trace);
    session_trace_header(vm, vm->x.edition, vm->x.readings, &brief);
    trace_text(&env, &vm->x.trace, &trace);
    trace_brief(&env, &vm->x.trace, &brief);
    hon_answer *a = session_answer(vm, vm->x.edition, vm->x.readings, sb_take(&text),
                                   sb_take(&json), sb_take(&trace));
    if (a && !(a->why = sb_take(&brief))) {
        hon_answer_free(a);
        a = NULL;
    }
    sb_free(&brief);
    return a;
}

/* Runs expression ch (of type `type`) under the session's setup, traced: its answer. */
static hon_status answer(hon_vm *vm, const chunk *ch, uint32_t type, void *ud, hon_answer **out)
{
    (void)ud;
    hon_status st = session_begin(vm, NULL, true);
    if (st != HON_OK)
        return st;
    val v;
    if (!vm_eval(&vm->x, ch, &v))
        st = session_error(vm, false);
    else if (out && !(*out = eval_answer(vm, v, type)))
        st = HON_ERR_MEMORY;
    state_end(&vm->x);
    return st;
}

/* Runs expression ch (of type `type`) under every outcome of its dice: its distribution. */
static hon_status distribution(hon_vm *vm, const chunk *ch, uint32_t type, void *ud,
                               hon_answer **out)
{
    (void)ud;
    const state_setup *s = session_setup(vm);
    if (!s)
        return HON_ERR_MEMORY;
    hon_status st = HON_OK;
    strbuf text = { 0 }, json = { 0 };
    if (!odds_enumerate(&vm->x, s, ch, type, &text, &json))
        st = session_error(vm, false);
    else if (out && !(*out = session_answer(vm, s->edition, s->readings, sb_take(&text),
                                            sb_take(&json), mem_strdup("(odds have no trace)\n"))))
        st = HON_ERR_MEMORY;
    sb_free(&text);
    sb_free(&json);
    return st;
}

hon_status hon_eval(hon_vm *vm, const char *expr, const char *where, hon_answer **out)
{
    return session_run_text(vm, expr, where, false, answer, NULL, out);
}

hon_status hon_odds(hon_vm *vm, const char *expr, const char *where, hon_answer **out)
{
    return session_run_text(vm, expr, where, false, distribution, NULL, out);
}

/* ---- calling queries and fns from C ---- */

hon_status hon_query_info_of(hon_vm *vm, const char *name, hon_query_info *out)
{
    if (!vm || !name || !out)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    int32_t q = model_find_query(p, name);
    int32_t f = q < 0 ? model_find_fn(p, name) : -1;
    if (q < 0 && f < 0)
        return HON_ERR_NOT_FOUND;
    const res_field *params = q >= 0 ? p->queries[q].params : p->fns[f].params;
    uint32_t np = q >= 0 ? p->queries[q].nparams : p->fns[f].nparams;
    *out = (hon_query_info){ .name = q >= 0 ? p->queries[q].name : p->fns[f].name,
                             .is_fn = q < 0,
                             .nparams = np };
    for (uint32_t i = 0; i < np && i < 16; i++) {
        out->param_names[i] = params[i].name;
        out->param_types[i] =
            type_name(p, params[i].type, vm->info_types[i], sizeof vm->info_types[i]);
    }
    out->result_type = type_name(p, q >= 0 ? p->queries[q].result : p->fns[f].result,
                                 vm->info_types[16], sizeof vm->info_types[16]);
    return HON_OK;
}

/* Finds h's query or fn in the current program; false when it is gone. */
static bool handle_lookup(hon_vm *vm, hon_query_handle *h)
{
    const res_program *p = vm->pg->res;
    int32_t q = model_find_query(p, h->name);
    int32_t f = q < 0 ? model_find_fn(p, h->name) : -1;
    if (q < 0 && f < 0)
        return false;
    h->is_fn = q < 0;
    h->id = (uint32_t)(q >= 0 ? q : f);
    h->gen = vm->prog_gen;
    return true;
}

bool eval_handle_current(hon_vm *vm, hon_query_handle *h)
{
    return h->gen == vm->prog_gen || handle_lookup(vm, h);
}

hon_query_handle *hon_lookup_query(hon_vm *vm, const char *name)
{
    if (!vm || !name)
        return NULL;
    hon_query_handle *h = mem_calloc(1, sizeof *h);
    if (!h || !(h->name = mem_strdup(name)) || !handle_lookup(vm, h)) {
        hon_query_handle_free(h);
        return NULL;
    }
    return h;
}

void hon_query_handle_free(hon_query_handle *h)
{
    if (!h)
        return;
    mem_free(h->name);
    mem_free(h);
}

/* Converts argument a for a parameter of type t; false when it does not fit. */
static bool arg_val(const hon_vm *vm, uint32_t t, const hon_value *a, val *out)
{
    const res_program *p = vm->pg->res;
    const unit_pool *pool = vm->sc ? vm->sc->units : p->units;
    res_tkind k = t < p->ntypes ? p->types[t].kind : RT_NONE;
    *out = (val){ .type = t, .u.i = a->i };
    switch (k) {
    case RT_INT: return a->kind == HON_V_INT;
    case RT_BOOL: return a->kind == HON_V_BOOL && (a->i == 0 || a->i == 1);
    case RT_VERDICT: return a->kind == HON_V_VERDICT && (a->i == 0 || a->i == 1);
    case RT_UNIT: return a->kind == HON_V_UNIT && a->i >= 0 && (size_t)a->i < pool->len;
    case RT_SQUARE: return a->kind == HON_V_SQUARE;
    case RT_ENUM:
        return a->kind == HON_V_MEMBER && a->i >= 0 && (size_t)a->i < p->enums[p->types[t].arg].len;
    default: return false;
    }
}

static hon_value out_val(const res_program *p, val v)
{
    res_tkind k = v.type < p->ntypes ? p->types[v.type].kind : RT_NONE;
    hon_value r = { HON_V_OTHER, v.u.i };
    switch (k) {
    case RT_INT: r.kind = HON_V_INT; break;
    case RT_BOOL: r.kind = HON_V_BOOL; break;
    case RT_VERDICT: r.kind = HON_V_VERDICT; break;
    case RT_UNIT: r.kind = HON_V_UNIT; break;
    case RT_SQUARE: r.kind = HON_V_SQUARE; break;
    case RT_ENUM: r.kind = HON_V_MEMBER; break;
    default: r.i = 0; break;
    }
    if (v.flags & VAL_ABSENT)
        r = (hon_value){ HON_V_OTHER, 0 };
    return r;
}

hon_status hon_call_query(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                          hon_value *out)
{
    if (!vm || !h || (n && !args))
        return HON_ERR_NOT_FOUND;
    if (!eval_handle_current(vm, h)) {
        session_report(vm, E_NO_SUCH_QUERY, "<call>", "no query or fn named '%s'", h->name);
        return HON_ERR_NOT_FOUND;
    }
    const res_program *p = vm->pg->res;
    const res_field *params = h->is_fn ? p->fns[h->id].params : p->queries[h->id].params;
    uint32_t np = h->is_fn ? p->fns[h->id].nparams : p->queries[h->id].nparams;
    val argv[16];
    if (n != np || n > 16) {
        session_report(vm, E_BAD_REQUEST, "<call>", "%s takes %u argument%s, not %zu", h->name, np,
                       np == 1 ? "" : "s", n);
        return HON_ERR_NOT_FOUND;
    }
    for (size_t i = 0; i < n; i++)
        if (!arg_val(vm, params[i].type, &args[i], &argv[i])) {
            char tname[128];
            session_report(vm, E_BAD_REQUEST, "<call>",
                           "argument %zu of %s does not fit its type %s", i + 1, h->name,
                           type_name(p, params[i].type, tname, sizeof tname));
            return HON_ERR_NOT_FOUND;
        }
    hon_status st = session_begin(vm, NULL, false);
    if (st != HON_OK)
        return st;
    val v;
    if (!vm_call(&vm->x, h->is_fn, h->id, argv, (uint32_t)n, &v))
        st = session_error(vm, false);
    else if (out)
        *out = out_val(p, v);
    state_end(&vm->x);
    return st;
}

/* ---- units and members ---- */

int32_t hon_unit_id(const hon_vm *vm, const char *name)
{
    if (!vm || !name)
        return -1;
    if (name[0] == '$')
        return scene_unit(vm->sc, name + 1);
    int32_t c = model_find_counter(vm->pg->res, name);
    return c >= 0 ? c : scene_unit(vm->sc, name);
}

hon_status hon_unit_set_value(hon_vm *vm, int32_t id, const char *value, int64_t v)
{
    if (!vm || !value)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    unit_pool *pool = vm->sc ? vm->sc->units : p->units;
    if (!unit_get(pool, id))
        return HON_ERR_NOT_FOUND;
    for (size_t i = 0; i < p->nslots; i++)
        if (strcmp(p->slots[i].name, value) == 0) {
            unit_set_value(pool, id, (uint32_t)i, v);
            return HON_OK;
        }
    return HON_ERR_NOT_FOUND;
}

int32_t hon_member_id(const hon_vm *vm, const char *enum_name, const char *member)
{
    if (!vm || !enum_name || !member)
        return -1;
    const res_program *p = vm->pg->res;
    for (size_t e = 0; e < p->nenums; e++)
        if (strcmp(p->enums[e].name, enum_name) == 0)
            return model_find_member(&p->enums[e], member);
    return -1;
}
