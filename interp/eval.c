/* eval.c — evaluating (hon.h: hon_eval, hon_odds, hon_query_info_of, hon_each_member,
 * hon_lookup_query, hon_call_query, hon_call_query_text, hon_ask_query, hon_unit_id,
 * hon_unit_set_value, hon_each_counter, hon_member_id, hon_type_of), over eval.h. Typed text is
 * compiled, run under the session's setup and answered with its value and trace (eval_answer);
 * calls from C skip the text: a handle names a query once, each call checks its arguments.
 */
#include "eval.h"

#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "odds.h"
#include "vm.h"

/* The rules that a call of a `min` or `max` query in log t never reached, the call being
 * decided before them by an enum's bound (language.md §3.5), under edition ed: "q.rule", one a
 * line. diff.c does not name a rule that one answer fired and the other never reached (nor
 * what ran inside it): it would have run on both sides before that decision. */
static void unreached_rules(const res_program *p, const trace_log *t, int32_t ed, strbuf *out)
{
    for (size_t i = 0; i < t->len; i++) {
        const trace_ent *c = &t->e[i];
        if (c->kind != TR_CALL || (p->queries[c->id].mode != AST_COMBINE_MIN &&
                                   p->queries[c->id].mode != AST_COMBINE_MAX))
            continue;
        const res_ruleset *rs = model_rules_of(p, ed, c->id);
        size_t checked = 0;
        for (size_t j = i + 1; j < t->len && t->e[j].depth > c->depth; j++)
            checked += t->e[j].kind == TR_RULE && t->e[j].depth == c->depth + 1;
        for (size_t k = checked; k < rs->len; k++) /* the rules run in order: the rest */
            sb_printf(out, "%s\n", p->rules[rs->rules[k]].name);
    }
}

/* The answer made from the trace of vm->x and the beginning of its JSON object (json: the
 * value's members, or the error's), text being the answer's text, with the renderings of the
 * trace that `want` (HON_WANT_* of hon.h) asks for; the others stay empty (the complete trace
 * its setting line, the JSON's "trace" null). Takes text and json. */
static hon_answer *traced_answer(hon_vm *vm, strbuf *text, strbuf *json, unsigned want)
{
    const val_env env = { vm->pg->res, vm->x.sc, NULL,
                          model_edition_modules(vm->pg->res, vm->x.edition) };
    const trace_log *log = &vm->x.trace;
    strbuf trace = { 0 }, brief = { 0 }, fired = { 0 }, tree = { 0 }, unreached = { 0 };
    char *reasons = NULL, *refusal = NULL;
    bool oom = (want & HON_WANT_WHY_NOT) && !session_reasons(vm, &reasons, &refusal);
    sb_puts(json, ", \"text\": ");
    sb_json_str(json, sb_str(text));
    sb_puts(json, ", \"trace\": ");
    if (want & HON_WANT_JSON)
        trace_json(&env, log, json);
    else
        sb_puts(json, "null");
    sb_puts(json, "}");
    session_trace_header(vm, vm->x.edition, vm->x.readings, &trace);
    if (want & HON_WANT_TRACE)
        trace_text(&env, log, &trace);
    if (want & HON_WANT_WHY) {
        session_trace_header(vm, vm->x.edition, vm->x.readings, &brief);
        trace_brief(&env, log, &brief);
    }
    if (want & HON_WANT_FIRED) {
        trace_fired(&env, log, false, &fired);
        trace_fired(&env, log, true, &tree);
        unreached_rules(vm->pg->res, log, vm->x.edition, &unreached);
    }
    hon_answer *a = session_answer(vm, vm->x.edition, vm->x.readings, sb_take(text), sb_take(json),
                                   sb_take(&trace));
    if (a) {
        a->why_not = reasons;
        a->refusal = refusal;
    } else {
        mem_free(reasons);
        mem_free(refusal);
    }
    if (a && (oom || !(a->why = sb_take(&brief)) || !(a->fired = sb_take(&fired)) ||
              !(a->fired_tree = sb_take(&tree)) || !(a->unreached = sb_take(&unreached)))) {
        hon_answer_free(a);
        a = NULL;
    }
    sb_free(&brief);
    sb_free(&fired);
    sb_free(&tree);
    sb_free(&unreached);
    return a;
}

hon_answer *eval_answer(hon_vm *vm, val v, uint32_t type, unsigned want)
{
    const res_program *p = vm->pg->res;
    const val_env env = { p, vm->x.sc, NULL, NULL };
    strbuf text = { 0 }, json = { 0 };
    char tname[160];
    bool cut_text, cut_json;
    char *vt = val_text(&env, v, false, SESSION_ANSWER_MAX, &cut_text);
    char *vj = val_text(&env, v, true, SESSION_ANSWER_MAX, &cut_json);
    if (!vt || !vj)
        sb_fail(&text);
    sb_puts(&text, vt);
    if (cut_text)
        sb_puts(&text, "... (cut: the value is too long to print)");
    sb_puts(&json, "{\"value\": ");
    sb_puts(&json, cut_json ? "null, \"truncated\": true" : vj);
    mem_free(vt);
    mem_free(vj);
    sb_puts(&json, ", \"type\": ");
    sb_json_str(&json, type_name(p, type, tname, sizeof tname));
    return traced_answer(vm, &text, &json, want);
}

void eval_error_text(const vm_ctx *x, char *buf, size_t cap)
{
    snprintf(buf, cap, "error E%03d: %s", x->err.code, x->err.msg);
}

hon_answer *eval_error_answer(hon_vm *vm, unsigned want)
{
    char msg[sizeof vm->x.err.msg + 32];
    eval_error_text(&vm->x, msg, sizeof msg);
    strbuf text = { 0 }, json = { 0 };
    sb_puts(&text, msg);
    sb_printf(&json, "{\"value\": null, \"error\": %d", vm->x.err.code);
    return traced_answer(vm, &text, &json, want);
}

/* Runs expression ch (of type `type`) under the session's setup, traced when *(unsigned *)ud
 * (the HON_WANT_* asked) needs the trace: its answer. */
static hon_status answer(hon_vm *vm, const chunk *ch, uint32_t type, void *ud, hon_answer **out)
{
    unsigned want = *(const unsigned *)ud;
    hon_status st = eval_begin(vm, want);
    if (st != HON_OK)
        return st;
    val v;
    if (!vm_eval(&vm->x, ch, &v))
        st = session_error(vm, false);
    else if (out && !(*out = eval_answer(vm, v, type, want)))
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
    return hon_eval_as(vm, expr, where, HON_WANT_ALL, out);
}

hon_status hon_eval_as(hon_vm *vm, const char *expr, const char *where, unsigned want,
                       hon_answer **out)
{
    return session_run_text(vm, expr, where, false, answer, &want, out);
}

bool eval_traces(unsigned want)
{
    return (want & HON_WANT_ALL) != 0;
}

/* Whether a form `want` asks words the guards (trace_reason): the complete trace, the reasons
 * and the JSON do; the others trace with the plain chunks (vm.md §6a). */
static bool words_guards(unsigned want)
{
    return (want & (HON_WANT_TRACE | HON_WANT_WHY_NOT | HON_WANT_JSON)) != 0;
}

hon_status eval_begin(hon_vm *vm, unsigned want)
{
    hon_status st = session_begin(vm, NULL, eval_traces(want));
    if (st == HON_OK)
        state_trace_guards(&vm->x, words_guards(want));
    return st;
}

hon_status hon_odds(hon_vm *vm, const char *expr, const char *where, hon_answer **out)
{
    return session_run_text(vm, expr, where, false, distribution, NULL, out);
}

/* ---- calling queries and fns from C ---- */

/* The kind of type t, as hon.h names it. */
static hon_type_kind type_kind(const res_program *p, uint32_t t)
{
    switch (t < p->ntypes ? p->types[t].kind : RT_NONE) {
    case RT_INT: return HON_T_INT;
    case RT_BOOL: return HON_T_BOOL;
    case RT_VERDICT: return HON_T_VERDICT;
    case RT_UNIT: return HON_T_UNIT;
    case RT_SQUARE: return HON_T_SQUARE;
    case RT_SIDE: return HON_T_SIDE;
    case RT_ELEMENT: return HON_T_ELEMENT;
    case RT_ENUM: return HON_T_ENUM;
    case RT_SET: return HON_T_SET;
    case RT_LIST: return HON_T_LIST;
    case RT_RECORD: return HON_T_RECORD;
    default: return HON_T_OTHER;
    }
}

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
        out->param_kinds[i] = type_kind(p, params[i].type);
    }
    uint32_t result = q >= 0 ? p->queries[q].result : p->fns[f].result;
    out->result_type = type_name(p, result, vm->info_types[16], sizeof vm->info_types[16]);
    out->result_kind = type_kind(p, result);
    return HON_OK;
}

hon_status hon_type_of(hon_vm *vm, const char *expr, hon_type_kind *kind, char *buf, size_t cap)
{
    if (!vm || !expr || !kind || !buf || !cap)
        return HON_ERR_NOT_FOUND;
    size_t len = strlen(expr);
    uint32_t id = diag_sources_add(&vm->sources, "<type>", expr, len);
    if (id == UINT32_MAX)
        return HON_ERR_MEMORY;
    chunk *ch = NULL;
    ast_file *f = NULL;
    uint32_t type = T_ERROR;
    hon_status st = session_compile_at(vm, expr, len, id, 1, false, true, &ch, &f, &type);
    if (st == HON_OK) {
        *kind = type_kind(vm->pg->res, type);
        type_name(vm->pg->res, type, buf, cap);
    }
    chunk_free(ch);
    ast_file_free(f);
    session_forget_source(vm, id);
    return st;
}

size_t hon_each_member(const hon_vm *vm, const char *enum_name,
                       void (*fn)(void *ud, int32_t index, const char *name), void *ud)
{
    if (!vm || !enum_name)
        return 0;
    const res_program *p = vm->pg->res;
    for (size_t e = 0; e < p->nenums; e++)
        if (strcmp(p->enums[e].name, enum_name) == 0) {
            for (size_t m = 0; fn && m < p->enums[e].len; m++)
                fn(ud, (int32_t)m, p->enums[e].members[m].name);
            return p->enums[e].len;
        }
    return 0;
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
    const res_field *params = h->is_fn ? p->fns[h->id].params : p->queries[h->id].params;
    h->nparams = h->is_fn ? p->fns[h->id].nparams : p->queries[h->id].nparams;
    for (uint32_t i = 0; i < h->nparams && i < HANDLE_MAX_PARAMS; i++) {
        uint32_t t = params[i].type;
        h->ptype[i] = t;
        h->pkind[i] = (uint8_t)(t < p->ntypes ? p->types[t].kind : RT_NONE);
    }
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

/* Converts argument a for a parameter of type t (of kind k, the program's res_tkind of t);
 * false when it does not fit. nunits: the units a unit argument may name (the board's, else
 * the program's), read once a call, not once an argument. Inline: checked at every call. */
static inline bool arg_val(const hon_vm *vm, size_t nunits, uint32_t t, res_tkind k,
                           const hon_value *a, val *out)
{
    *out = (val){ .type = t, .u.i = a->i };
    switch (k) {
    case RT_INT: return a->kind == HON_V_INT;
    case RT_BOOL: return a->kind == HON_V_BOOL && (a->i == 0 || a->i == 1);
    case RT_VERDICT: return a->kind == HON_V_VERDICT && (a->i == 0 || a->i == 1);
    case RT_UNIT: return a->kind == HON_V_UNIT && (uint64_t)a->i < nunits; /* i >= 0 too */
    case RT_SQUARE: return a->kind == HON_V_SQUARE;
    case RT_SIDE:
        return a->kind == HON_V_SIDE && vm->sc && a->i >= 0 && a->i < geo_side_count(vm->sc->g);
    case RT_ELEMENT:
        return a->kind == HON_V_ELEMENT && vm->sc && a->i >= 0 &&
               a->i < board_element_count(vm->sc->b);
    case RT_ENUM: {
        const res_program *p = vm->pg->res;
        return a->kind == HON_V_MEMBER && a->i >= 0 && (size_t)a->i < p->enums[p->types[t].arg].len;
    }
    default: return false;
    }
}

/* The public kind of a value of each type kind (res_tkind); HON_V_OTHER for the rest. */
static const hon_value_kind public_kind[] = {
    [RT_NONE] = HON_V_OTHER,      [RT_INT] = HON_V_INT,   [RT_BOOL] = HON_V_BOOL,
    [RT_VERDICT] = HON_V_VERDICT, [RT_UNIT] = HON_V_UNIT, [RT_ERROR] = HON_V_OTHER,
    [RT_SQUARE] = HON_V_SQUARE,   [RT_SIDE] = HON_V_SIDE, [RT_ELEMENT] = HON_V_ELEMENT,
    [RT_ENUM] = HON_V_MEMBER,     [RT_SET] = HON_V_OTHER, [RT_LIST] = HON_V_OTHER,
    [RT_RECORD] = HON_V_OTHER,
};

/* v as a public value. Inline: every call from C converts its answer. */
static inline hon_value out_val(const res_program *p, val v)
{
    res_tkind k = v.type < p->ntypes ? p->types[v.type].kind : RT_NONE;
    hon_value_kind c =
        (size_t)k < sizeof public_kind / sizeof *public_kind ? public_kind[k] : HON_V_OTHER;
    /* a list, set, record or `?` cell is no number: i 0 */
    return c == HON_V_OTHER || (v.flags & VAL_ABSENT) ? (hon_value){ HON_V_OTHER, 0 }
                                                      : (hon_value){ c, v.u.i };
}

/* call_args' refusals, each reported (E210 or E211) with HON_ERR_NOT_FOUND returned; out of
 * the way of the calls that fit (cold, never inline). h's query or fn is gone: */
static __attribute__((noinline, cold)) hon_status call_gone(hon_vm *vm, const hon_query_handle *h)
{
    session_report(vm, E_NO_SUCH_QUERY, "<call>", "no query or fn named '%s'", h->name);
    return HON_ERR_NOT_FOUND;
}

/* ... the call gives n arguments where h takes another number (or more than it keeps): */
static __attribute__((noinline, cold)) hon_status call_count(hon_vm *vm, const hon_query_handle *h,
                                                             size_t n)
{
    uint32_t np = h->nparams;
    session_report(vm, E_BAD_REQUEST, "<call>", "%s takes %u argument%s, not %zu", h->name, np,
                   np == 1 ? "" : "s", n);
    return HON_ERR_NOT_FOUND;
}

/* ... its argument i does not fit its parameter's type: */
static __attribute__((noinline, cold)) hon_status call_misfit(hon_vm *vm, const hon_query_handle *h,
                                                              size_t i)
{
    char tname[128];
    session_report(vm, E_BAD_REQUEST, "<call>", "argument %zu of %s does not fit its type %s",
                   i + 1, h->name, type_name(vm->pg->res, h->ptype[i], tname, sizeof tname));
    return HON_ERR_NOT_FOUND;
}

/* Checks a call of h with the n arguments args and converts them into argv (16 slots), with
 * the parameters h keeps (handle_lookup): HON_OK, or HON_ERR_NOT_FOUND reported. Inline into
 * each caller: the calls from C check two arguments or so each (bench.md §8). */
static inline __attribute__((always_inline)) hon_status call_args(hon_vm *vm, hon_query_handle *h,
                                                                  const hon_value *args, size_t n,
                                                                  val *argv)
{
    if (!vm || !h || (n && !args))
        return HON_ERR_NOT_FOUND;
    if (h->gen != vm->prog_gen && !handle_lookup(vm, h)) /* eval_handle_current, inline */
        return call_gone(vm, h);
    if (n != h->nparams || n > HANDLE_MAX_PARAMS)
        return call_count(vm, h, n);
    const unit_pool *units = vm->sc ? vm->sc->units : vm->pg->res->units;
    for (size_t i = 0; i < n; i++) {
        res_tkind k = (res_tkind)h->pkind[i];
        if (!arg_val(vm, k == RT_UNIT ? units->len : 0, h->ptype[i], k, &args[i], &argv[i]))
            return call_misfit(vm, h, i);
    }
    return HON_OK;
}

/* Checks a call of h (call_args) and starts its evaluation, traced or not: HON_OK (then
 * state_end it), or the error, nothing started. */
static inline __attribute__((always_inline)) hon_status call_begin(hon_vm *vm, hon_query_handle *h,
                                                                   const hon_value *args, size_t n,
                                                                   val *argv, bool traced)
{
    hon_status st = call_args(vm, h, args, n, argv);
    return st == HON_OK ? session_begin(vm, NULL, traced) : st;
}

hon_status hon_call_query(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                          hon_value *out)
{
    val argv[HANDLE_MAX_PARAMS];
    /* the arguments converted straight into the VM's stack when it has room for them (no
     * evaluation runs between calls: nothing there is alive), else into argv and copied */
    val *to = vm && n < vm->x.stack_cap ? vm->x.stack : argv;
    hon_status st = call_args(vm, h, args, n, to);
    if (st != HON_OK)
        return st;
    val v;
    if (to != argv && session_restartable(vm)) {
        /* the common case: the session's setup still holds, the arguments are in place, and
         * the evaluation starts, runs and ends in one call (vm_call_fresh) */
        session_cap_begin(vm);
        if (vm_call_fresh(&vm->x, h->is_fn, h->id, (uint32_t)n, &v)) {
            if (out)
                *out = out_val(vm->pg->res, v);
            return HON_OK;
        }
        st = session_error(vm, false);
        state_end(&vm->x);
        return st;
    }
    if ((st = session_begin(vm, NULL, false)) != HON_OK)
        return st;
    if (!(to == argv ? vm_call(&vm->x, h->is_fn, h->id, argv, (uint32_t)n, &v)
                     : vm_call_placed(&vm->x, h->is_fn, h->id, (uint32_t)n, &v)))
        st = session_error(vm, false);
    else if (out)
        *out = out_val(vm->pg->res, v);
    state_end(&vm->x);
    return st;
}

hon_status hon_call_query_text(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                               hon_value *out, char *buf, size_t cap)
{
    val argv[HANDLE_MAX_PARAMS];
    hon_status st = call_begin(vm, h, args, n, argv, false);
    if (st != HON_OK)
        return st;
    val v;
    hon_value r;
    if (!vm_call(&vm->x, h->is_fn, h->id, argv, (uint32_t)n, &v)) {
        st = vm->x.err.code == E_MEMORY ? HON_ERR_MEMORY : HON_ERR_RUNTIME;
        r = (hon_value){ HON_V_OTHER, vm->x.err.code };
        if (buf && cap)
            eval_error_text(&vm->x, buf, cap);
    } else {
        r = out_val(vm->pg->res, v);
        if (buf && cap && !eval_value_text(vm, v, buf, cap))
            st = HON_ERR_MEMORY;
    }
    if (out)
        *out = r;
    state_end(&vm->x);
    return st;
}

bool eval_value_text(const hon_vm *vm, val v, char *buf, size_t cap)
{
    const val_env env = { vm->pg->res, vm->x.sc, NULL, NULL };
    bool cut;
    char *t = val_text(&env, v, false, cap, &cut);
    if (!t)
        return false;
    snprintf(buf, cap, "%s", t);
    mem_free(t);
    return true;
}

hon_status eval_ask_query(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                          unsigned want, hon_answer **out)
{
    if (out)
        *out = NULL;
    val argv[HANDLE_MAX_PARAMS];
    hon_status st = call_begin(vm, h, args, n, argv, true);
    if (st != HON_OK)
        return st;
    state_trace_guards(&vm->x, words_guards(want)); /* hon diff's traces word none */
    val v;
    bool ok = vm_call(&vm->x, h->is_fn, h->id, argv, (uint32_t)n, &v);
    hon_answer *a = NULL;
    if (ok)
        a = eval_answer(
            vm, v, h->is_fn ? vm->pg->res->fns[h->id].result : vm->pg->res->queries[h->id].result,
            want);
    else if (vm->x.err.code != E_MEMORY)
        a = eval_error_answer(vm, want);
    st = !a ? HON_ERR_MEMORY : ok ? HON_OK : HON_ERR_RUNTIME;
    state_end(&vm->x);
    if (out)
        *out = a;
    else
        hon_answer_free(a);
    return st;
}

hon_status hon_ask_query(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                         hon_answer **out)
{
    return eval_ask_query(vm, h, args, n, HON_WANT_ALL, out);
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

size_t hon_each_counter(const hon_vm *vm,
                        void (*fn)(void *ud, const char *name, const char *kind, unsigned size),
                        void *ud)
{
    if (!vm)
        return 0;
    const res_program *p = vm->pg->res;
    const res_enum *kinds = &p->enums[E_KIND];
    for (size_t c = 0; fn && c < p->ncounters; c++) {
        const unit *u = unit_get(p->units, p->counters[c].unit);
        if (u)
            fn(ud, p->counters[c].name,
               u->kind >= 0 && (size_t)u->kind < kinds->len ? kinds->members[u->kind].name : NULL,
               u->size);
    }
    return p->ncounters;
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
