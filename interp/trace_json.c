/* trace_json.c — the evaluation trace rendered as JSON (trace_json, vm.md §6): each call with
 * its query, mode, arguments and result, each rule checked with its answer, citations,
 * provenance and what its guard found (trace_why.c's trace_reason_json), the default when it
 * was used, each table lookup with its citations, and each event of a traced procedure with
 * the lines its rules wrote. Split from trace.c, whose memo (trace_render.h) it writes
 * through. Tests: test_why.c, test_api.c, tests/golden.
 */
#include <inttypes.h>
#include <string.h>

#include "mem.h"
#include "trace.h"
#include "trace_render.h"

/* `, "module": M, "edition": E` (null when unnamed, or as declared). */
static void provenance_json(const res_program *p, int32_t module, int32_t edition, strbuf *out)
{
    sb_puts(out, ", \"module\": ");
    sb_json_str(out, res_module_name(p, module));
    sb_puts(out, ", \"edition\": ");
    sb_json_str(out,
                edition >= 0 && (size_t)edition < p->neditions ? p->editions[edition].name : NULL);
}

static size_t json_call(const val_env *env, const trace_log *t, size_t i, strbuf *out);
static size_t json_event(const val_env *env, const trace_log *t, size_t i, strbuf *out);

static void json_cites(const res_program *p, const ast_vec *cites, strbuf *out)
{
    sb_putc(out, '[');
    for (uint32_t i = 0; cites && i < cites->len; i++) {
        const ast_node *c = cites->items[i];
        sb_puts(out, i ? ", {\"id\": " : "{\"id\": ");
        sb_json_str(out, model_cite_id(c));
        sb_puts(out, ", \"source\": ");
        sb_json_str(out, model_cite_source(p, c));
        sb_puts(out, ", \"example\": ");
        sb_json_str(out, model_cite_example(c));
        sb_putc(out, '}');
    }
    sb_putc(out, ']');
}

static void json_lookup(const val_env *env, const trace_ent *e, strbuf *out)
{
    const res_table *t = &env->p->tables[e->id];
    sb_puts(out, "{\"table\": ");
    sb_json_str(out, t->name);
    sb_puts(out, ", \"keys\": [");
    for (uint32_t k = 0; k < e->nargs; k++) {
        if (k)
            sb_puts(out, ", ");
        trace_put_val(env, e->args[k], out, true);
    }
    sb_puts(out, "], \"column\": ");
    sb_json_str(out, !t->single && e->col < t->ncols ? t->cols[e->col].name : NULL);
    sb_puts(out, ", \"value\": ");
    trace_put_val(env, e->result, out, true);
    sb_puts(out, ", \"cites\": ");
    json_cites(env->p, &t->decl->cites, out);
    sb_puts(out, ", \"row_cites\": ");
    const ast_node *rn = trace_row_node(t, e);
    json_cites(env->p, rn ? &rn->cites : NULL, out);
    const ast_node *rev = e->row < t->nrows ? t->rows[e->row].revision : NULL;
    sb_puts(out, ", \"revised_cites\": ");
    json_cites(env->p, rev ? &rev->cites : NULL, out);
    int32_t module, edition;
    trace_row_provenance(env->p, t, e->row, &module, &edition);
    provenance_json(env->p, module, edition, out);
    sb_putc(out, '}');
}

/* `, "cites": [...], "module": M, "edition": E` of rule r, through env->memo when there is
 * one (a rule checked on every step of a line is written once). */
static void rule_cites_json(const val_env *env, uint32_t r, strbuf *out)
{
    const res_program *p = env->p;
    trace_memo *m = env->memo;
    if (m && !m->rule_json && p->nrules) {
        m->rule_json = mem_calloc(p->nrules, sizeof *m->rule_json);
        m->rule_json_len = mem_calloc(p->nrules, sizeof *m->rule_json_len);
        m->nrules = m->rule_json && m->rule_json_len ? p->nrules : 0;
    }
    if (m && r < m->nrules && m->rule_json[r]) {
        sb_putn(out, m->rule_json[r], m->rule_json_len[r]);
        return;
    }
    size_t from = out->len;
    bool truncated = out->truncated;
    sb_puts(out, ", \"cites\": ");
    json_cites(p, &p->rules[r].decl->cites, out);
    provenance_json(p, p->rules[r].module, p->rules[r].edition, out);
    if (!m || r >= m->nrules || out->oom || out->truncated != truncated)
        return;
    if (out->len > from && MEM_GROW(m->kept, m->nkept, m->kept_cap) &&
        (m->rule_json[r] = mem_malloc(out->len - from + 1)) != NULL) {
        memcpy(m->rule_json[r], out->s + from, out->len - from);
        m->rule_json[r][out->len - from] = '\0';
        m->rule_json_len[r] = out->len - from;
        m->kept[m->nkept++] = r;
    }
}

/* Writes the calls and lookups at depth `depth` from i on (the children of one entry); returns
 * the index after them. */
static size_t json_calls(const val_env *env, const trace_log *t, size_t i, uint32_t depth,
                         strbuf *out)
{
    bool first = true;
    sb_putc(out, '[');
    while (i < t->len && t->e[i].depth >= depth) {
        if (t->e[i].depth == depth && t->e[i].kind == TR_CALL) {
            if (!first)
                sb_puts(out, ", ");
            first = false;
            i = json_call(env, t, i, out);
        } else if (t->e[i].depth == depth && t->e[i].kind == TR_EVENT) {
            if (!first)
                sb_puts(out, ", ");
            first = false;
            i = json_event(env, t, i, out);
        } else if (t->e[i].depth == depth && t->e[i].kind == TR_TABLE) {
            if (!first)
                sb_puts(out, ", ");
            first = false;
            json_lookup(env, &t->e[i], out);
            i++;
        } else {
            i++; /* not expected: skip */
        }
    }
    sb_putc(out, ']');
    return i;
}

static size_t json_call(const val_env *env, const trace_log *t, size_t i, strbuf *out)
{
    const res_program *p = env->p;
    const trace_ent *e = &t->e[i];
    const res_query *q = &p->queries[e->id];
    uint32_t d = e->depth;
    sb_puts(out, "{\"query\": ");
    sb_json_str(out, q->name);
    sb_puts(out, ", \"mode\": ");
    sb_json_str(out, trace_mode_name(q->mode));
    sb_puts(out, ", \"args\": [");
    for (uint32_t a = 0; a < e->nargs; a++) {
        if (a)
            sb_puts(out, ", ");
        trace_put_val(env, e->args[a], out, true);
    }
    sb_puts(out, "], \"result\": ");
    if (e->done)
        trace_put_val(env, e->result, out, true);
    else
        sb_puts(out, "null");
    sb_puts(out, e->no_rule ? ", \"no_rule_fired\": true" : ", \"no_rule_fired\": false");
    sb_puts(out, ", \"rules\": [");
    i++;
    bool first = true;
    const trace_ent *dflt = NULL;
    size_t dflt_at = 0;
    while (i < t->len && t->e[i].depth > d) {
        const trace_ent *r = &t->e[i];
        if (r->depth != d + 1) {
            i++;
            continue;
        }
        if (r->kind == TR_DEFAULT) {
            dflt = r;
            dflt_at = i;
            i++;
            while (i < t->len && t->e[i].depth > d + 1)
                i++;
            continue;
        }
        if (r->kind != TR_RULE) {
            i++;
            continue;
        }
        const res_rule *rule = &p->rules[r->id];
        sb_puts(out, first ? "{\"rule\": " : ", {\"rule\": ");
        first = false;
        sb_json_str(out, rule->name);
        sb_puts(out, r->unfired ? ", \"fired\": false" : ", \"fired\": true");
        sb_puts(out, ", \"answer\": ");
        if (r->unfired)
            sb_puts(out, "null");
        else
            trace_put_val(env, r->result, out, true);
        rule_cites_json(env, r->id, out);
        trace_reason_json(env, r, out);
        sb_puts(out, ", \"calls\": ");
        i = json_calls(env, t, i + 1, d + 2, out);
        sb_putc(out, '}');
    }
    sb_putc(out, ']');
    if (dflt) {
        sb_puts(out, ", \"default\": {\"answer\": ");
        trace_put_val(env, dflt->result, out, true);
        sb_puts(out, ", \"calls\": ");
        json_calls(env, t, dflt_at + 1, d + 2, out);
        sb_putc(out, '}');
    }
    sb_putc(out, '}');
    return i;
}

/* The lines an event's rule wrote, as a JSON array of strings. */
static void json_lines(const trace_ent *e, strbuf *out)
{
    const char *l = e->out, *end = e->out ? e->out + e->out_len : NULL;
    bool first = true;
    sb_putc(out, '[');
    while (l && l < end) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        size_t n = nl ? (size_t)(nl - l) : (size_t)(end - l);
        char *one = mem_strndup(l, n);
        if (!one)
            sb_fail(out);
        sb_puts(out, first ? "" : ", ");
        sb_json_str(out, one ? one : "");
        mem_free(one);
        first = false;
        l += n + 1;
    }
    sb_putc(out, ']');
}

static size_t json_event(const val_env *env, const trace_log *t, size_t i, strbuf *out)
{
    const res_program *p = env->p;
    const trace_ent *e = &t->e[i];
    uint32_t d = e->depth;
    sb_puts(out, "{\"event\": ");
    sb_json_str(out, p->queries[e->id].name);
    sb_puts(out, ", \"args\": [");
    for (uint32_t a = 0; a < e->nargs; a++) {
        if (a)
            sb_puts(out, ", ");
        trace_put_val(env, e->args[a], out, true);
    }
    sb_puts(out, e->no_rule ? "], \"no_rule_fired\": true" : "], \"no_rule_fired\": false");
    sb_puts(out, ", \"rules\": [");
    bool first = true;
    i++;
    while (i < t->len && t->e[i].depth > d) {
        const trace_ent *r = &t->e[i];
        if (r->depth != d + 1 || r->kind != TR_RULE) {
            i++;
            continue;
        }
        const res_rule *rule = &p->rules[r->id];
        sb_puts(out, first ? "{\"rule\": " : ", {\"rule\": ");
        first = false;
        sb_json_str(out, rule->name);
        sb_puts(out, r->unfired ? ", \"fired\": false" : ", \"fired\": true");
        sb_printf(out, ", \"effects\": %" PRIu32 ", \"lines\": ", r->effects);
        json_lines(r, out);
        rule_cites_json(env, r->id, out);
        trace_reason_json(env, r, out);
        sb_puts(out, ", \"calls\": ");
        i = json_calls(env, t, i + 1, d + 2, out);
        sb_putc(out, '}');
    }
    sb_puts(out, "]}");
    return i;
}

void trace_json(const val_env *env, const trace_log *t, strbuf *out)
{
    val_env menv;
    trace_memo *memo = trace_memo_new(env, &menv);
    json_calls(&menv, t, 0, 0, out);
    trace_memo_free(memo);
}
