/* trace.c — the evaluation trace (see trace.h): recording and rendering. */
#include "trace.h"

#include <string.h>
#include "mem.h"

void trace_reset(trace_log *t)
{
    t->len = 0;
    t->depth = 0;
    t->truncated = false;
}

void trace_free(trace_log *t)
{
    hon_free(t->e);
    *t = (trace_log){ 0 };
}

size_t trace_open(trace_log *t, val_arena *a, trace_kind k, uint32_t id, const val *args,
                  uint32_t nargs)
{
    uint32_t depth = t->depth++;
    if (t->len >= TRACE_MAX_ENTRIES || !HON_GROW(t->e, t->len, t->cap)) {
        t->truncated = true;
        return SIZE_MAX;
    }
    trace_ent *e = &t->e[t->len];
    *e = (trace_ent){ .kind = k, .depth = depth, .id = id };
    if (nargs) {
        e->args = arena_alloc(a, nargs * sizeof *e->args);
        if (e->args) {
            memcpy(e->args, args, nargs * sizeof *e->args);
            e->nargs = nargs;
        }
    }
    return t->len++;
}

void trace_close(trace_log *t, size_t i, val result)
{
    if (t->depth)
        t->depth--;
    if (i < t->len) {
        t->e[i].result = result;
        t->e[i].done = true;
    }
}

void trace_drop(trace_log *t, size_t mark)
{
    if (t->depth)
        t->depth--;
    if (mark < t->len)
        t->len = mark;
}

static const char *mode_name(ast_op m)
{
    switch (m) {
    case AST_COMBINE_SUM: return "sum";
    case AST_COMBINE_MIN: return "min";
    case AST_COMBINE_MAX: return "max";
    case AST_COMBINE_ALL: return "all";
    case AST_COMBINE_ANY: return "any";
    case AST_COMBINE_PERMISSION: return "permission";
    default: return "first";
    }
}

#define TRACE_VALUE_MAX 4096   /* bytes of one printed value in a trace */

/* Prints one value of the trace, cut (text: "...", JSON: null) past TRACE_VALUE_MAX. */
static void put_val(const res_program *p, val v, strbuf *out, bool json)
{
    bool cut;
    char *t = val_text(p, v, json, TRACE_VALUE_MAX, &cut);
    if (!t) {
        out->oom = true;
        return;
    }
    if (json && cut)
        sb_puts(out, "null");
    else
        sb_puts(out, t);
    if (!json && cut)
        sb_puts(out, "...");
    hon_free(t);
}

static void cites_text(const ast_vec *cites, strbuf *out)
{
    for (uint32_t i = 0; i < cites->len; i++) {
        const ast_node *c = cites->items[i];
        sb_puts(out, i ? "; " : "   (");
        sb_puts(out, res_cite_id(c) ? res_cite_id(c) : "?");
        if (res_cite_source(c))
            sb_printf(out, ": %s", res_cite_source(c));
        if (res_cite_example(c))
            sb_printf(out, ", example \"%s\"", res_cite_example(c));
    }
    if (cites->len)
        sb_putc(out, ')');
}

static void indent(strbuf *out, uint32_t depth)
{
    for (uint32_t i = 0; i < depth; i++)
        sb_puts(out, "  ");
}

void trace_text(const res_program *p, const trace_log *t, strbuf *out)
{
    if (t->len == 0) {
        sb_puts(out, "(no query was asked)\n");
        return;
    }
    for (size_t i = 0; i < t->len; i++) {
        const trace_ent *e = &t->e[i];
        indent(out, e->depth);
        switch (e->kind) {
        case TR_CALL: {
            const res_query *q = &p->queries[e->id];
            sb_printf(out, "%s(", q->name);
            for (uint32_t a = 0; a < e->nargs; a++) {
                if (a)
                    sb_puts(out, ", ");
                put_val(p, e->args[a], out, false);
            }
            sb_puts(out, ")");
            if (e->done) {
                sb_puts(out, " = ");
                put_val(p, e->result, out, false);
            }
            sb_printf(out, "   [%s]\n", mode_name(q->mode));
            break;
        }
        case TR_RULE: {
            const res_rule *r = &p->rules[e->id];
            sb_printf(out, "rule %s: ", r->name);
            put_val(p, e->result, out, false);
            cites_text(&r->decl->cites, out);
            sb_putc(out, '\n');
            break;
        }
        case TR_DEFAULT:
            sb_puts(out, "default: ");
            put_val(p, e->result, out, false);
            sb_putc(out, '\n');
            break;
        }
    }
    if (t->truncated)
        sb_printf(out, "(trace truncated after %d entries)\n", TRACE_MAX_ENTRIES);
}

static size_t json_call(const res_program *p, const trace_log *t, size_t i, strbuf *out);

/* Writes the calls directly under entry `parent` (at depth d+1), starting at i; returns the
 * index after them. */
static size_t json_calls(const res_program *p, const trace_log *t, size_t i, uint32_t depth,
                         strbuf *out)
{
    bool first = true;
    sb_putc(out, '[');
    while (i < t->len && t->e[i].depth >= depth) {
        if (t->e[i].depth == depth && t->e[i].kind == TR_CALL) {
            if (!first)
                sb_puts(out, ", ");
            first = false;
            i = json_call(p, t, i, out);
        } else {
            i++;    /* not expected: skip */
        }
    }
    sb_putc(out, ']');
    return i;
}

static void json_cites(const ast_vec *cites, strbuf *out)
{
    sb_putc(out, '[');
    for (uint32_t i = 0; i < cites->len; i++) {
        const ast_node *c = cites->items[i];
        sb_puts(out, i ? ", {\"id\": " : "{\"id\": ");
        sb_json_str(out, res_cite_id(c));
        sb_puts(out, ", \"source\": ");
        sb_json_str(out, res_cite_source(c));
        sb_puts(out, ", \"example\": ");
        sb_json_str(out, res_cite_example(c));
        sb_putc(out, '}');
    }
    sb_putc(out, ']');
}

static size_t json_call(const res_program *p, const trace_log *t, size_t i, strbuf *out)
{
    const trace_ent *e = &t->e[i];
    const res_query *q = &p->queries[e->id];
    uint32_t d = e->depth;
    sb_puts(out, "{\"query\": ");
    sb_json_str(out, q->name);
    sb_puts(out, ", \"mode\": ");
    sb_json_str(out, mode_name(q->mode));
    sb_puts(out, ", \"args\": [");
    for (uint32_t a = 0; a < e->nargs; a++) {
        if (a)
            sb_puts(out, ", ");
        put_val(p, e->args[a], out, true);
    }
    sb_puts(out, "], \"result\": ");
    if (e->done)
        put_val(p, e->result, out, true);
    else
        sb_puts(out, "null");
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
        sb_puts(out, ", \"answer\": ");
        put_val(p, r->result, out, true);
        sb_puts(out, ", \"cites\": ");
        json_cites(&rule->decl->cites, out);
        sb_puts(out, ", \"calls\": ");
        i = json_calls(p, t, i + 1, d + 2, out);
        sb_putc(out, '}');
    }
    sb_putc(out, ']');
    if (dflt) {
        sb_puts(out, ", \"default\": {\"answer\": ");
        put_val(p, dflt->result, out, true);
        sb_puts(out, ", \"calls\": ");
        json_calls(p, t, dflt_at + 1, d + 2, out);
        sb_putc(out, '}');
    }
    sb_putc(out, '}');
    return i;
}

void trace_json(const res_program *p, const trace_log *t, strbuf *out)
{
    json_calls(p, t, 0, 0, out);
}
