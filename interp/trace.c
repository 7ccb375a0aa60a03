/* trace.c — the evaluation trace (see trace.h): recording and rendering as text and JSON. */
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

/* A new entry at the current depth (not going deeper); NULL past the cap or on OOM. */
static trace_ent *new_entry(trace_log *t, trace_kind k, uint32_t id)
{
    if (t->len >= TRACE_MAX_ENTRIES || !HON_GROW(t->e, t->len, t->cap)) {
        t->truncated = true;
        return NULL;
    }
    trace_ent *e = &t->e[t->len++];
    *e = (trace_ent){ .kind = k, .depth = t->depth, .id = id };
    return e;
}

static void copy_args(trace_ent *e, val_arena *a, const val *args, uint32_t nargs)
{
    if (!nargs)
        return;
    e->args = arena_alloc(a, nargs * sizeof *e->args);
    if (e->args) {
        memcpy(e->args, args, nargs * sizeof *e->args);
        e->nargs = nargs;
    }
}

size_t trace_open(trace_log *t, val_arena *a, trace_kind k, uint32_t id, const val *args,
                  uint32_t nargs)
{
    trace_ent *e = new_entry(t, k, id);
    t->depth++;
    if (!e)
        return SIZE_MAX;
    copy_args(e, a, args, nargs);
    return t->len - 1;
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

void trace_unfired(trace_log *t, size_t i, size_t mark)
{
    if (i >= t->len) {
        trace_drop(t, mark);
        return;
    }
    if (t->depth)
        t->depth--;
    t->len = i + 1;
    t->e[i].unfired = true;
}

void trace_lookup(trace_log *t, val_arena *a, uint32_t table, const val *keys, uint32_t nkeys,
                  uint32_t row, uint32_t col, val value)
{
    trace_ent *e = new_entry(t, TR_TABLE, table);
    if (!e)
        return;
    copy_args(e, a, keys, nkeys);
    e->row = row;
    e->col = col;
    e->result = value;
    e->done = true;
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
static void put_val(const val_env *env, val v, strbuf *out, bool json)
{
    bool cut;
    char *t = val_text(env, v, json, TRACE_VALUE_MAX, &cut);
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

bool trace_source_ends_with_example(const char *s)
{
    static const char *const words[] = { "examples", "example" };
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        n--;
    for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
        size_t k = strlen(words[w]), i = 0;
        if (n < k || (n > k && (unsigned char)s[n - k - 1] > ' '))
            continue;                           /* too short, or only the end of a word */
        while (i < k && (s[n - k + i] | 0x20) == words[w][i])
            i++;
        if (i == k)
            return true;
    }
    return false;
}

/* `ID: source, example "X"`, or `ID: source "X"` when the source already ends with "example". */
static void put_cite(const ast_node *c, strbuf *out)
{
    const char *source = res_cite_source(c);
    sb_puts(out, res_cite_id(c) ? res_cite_id(c) : "?");
    if (source)
        sb_printf(out, ": %s", source);
    if (res_cite_example(c))
        sb_printf(out, source && trace_source_ends_with_example(source) ? " \"%s\""
                                                                        : ", example \"%s\"",
                  res_cite_example(c));
}

static void cites_text(const ast_vec *cites, strbuf *out)
{
    for (uint32_t i = 0; i < cites->len; i++) {
        sb_puts(out, i ? "; " : "   (");
        put_cite(cites->items[i], out);
    }
    if (cites->len)
        sb_putc(out, ')');
}

static void indent(strbuf *out, uint32_t depth)
{
    for (uint32_t i = 0; i < depth; i++)
        sb_puts(out, "  ");
}

/* The row node of a lookup entry, or NULL. */
static const ast_node *row_node(const res_table *t, const trace_ent *e)
{
    return e->row < t->nrows ? t->rows[e->row].node : NULL;
}

/* `table t[k1, k2].col = v   (table cites; row: row cites)` */
static void table_text(const val_env *env, const trace_ent *e, strbuf *out)
{
    const res_program *p = env->p;
    const res_table *t = &p->tables[e->id];
    sb_printf(out, "table %s[", t->name);
    for (uint32_t k = 0; k < e->nargs; k++) {
        if (k)
            sb_puts(out, ", ");
        put_val(env, e->args[k], out, false);
    }
    sb_putc(out, ']');
    if (!t->single && e->col < t->ncols)
        sb_printf(out, ".%s", t->cols[e->col].name);
    sb_puts(out, " = ");
    put_val(env, e->result, out, false);
    const ast_vec *tc = &t->decl->cites;
    const ast_node *rn = row_node(t, e);
    const ast_vec *rc = rn ? &rn->cites : NULL;
    if (tc->len || (rc && rc->len)) {
        sb_puts(out, "   (");
        for (uint32_t i = 0; i < tc->len; i++) {
            sb_puts(out, i ? "; " : "");
            put_cite(tc->items[i], out);
        }
        for (uint32_t i = 0; rc && i < rc->len; i++) {
            sb_puts(out, i ? "; " : tc->len ? "; row: " : "row: ");
            put_cite(rc->items[i], out);
        }
        sb_putc(out, ')');
    }
    sb_putc(out, '\n');
}

/* After the children of a call whose answer no rule gave: where the answer came from, and the
 * rules that were checked. `end` is the index after the call's children. */
static void no_rule_text(const val_env *env, const trace_log *t, size_t call, size_t end,
                         strbuf *out)
{
    const res_program *p = env->p;
    const trace_ent *e = &t->e[call];
    const res_query *q = &p->queries[e->id];
    bool has_default = false;
    for (size_t i = call + 1; i < end; i++)
        if (t->e[i].depth == e->depth + 1 && t->e[i].kind == TR_DEFAULT)
            has_default = true;
    if (has_default && q->mode != AST_COMBINE_SUM)
        return;     /* the default's own line says it (see below) */
    indent(out, e->depth + 1);
    switch (q->mode) {
    case AST_COMBINE_PERMISSION: sb_puts(out, "no rule forbids: permit"); break;
    case AST_COMBINE_ALL: sb_puts(out, "no rule answered false: true"); break;
    case AST_COMBINE_ANY: sb_puts(out, "no rule answered true: false"); break;
    case AST_COMBINE_SUM: sb_puts(out, "no rule fired: the default alone"); break;
    default: sb_puts(out, "no rule fired"); break;
    }
    bool first = true;
    for (size_t i = call + 1; i < end; i++) {
        const trace_ent *r = &t->e[i];
        if (r->depth != e->depth + 1 || r->kind != TR_RULE)
            continue;
        sb_puts(out, first ? " (checked " : ", ");
        sb_puts(out, p->rules[r->id].short_name);
        first = false;
    }
    sb_puts(out, first ? " (no rule to check)\n" : ")\n");
}

/* The index after entry i's descendants. */
static size_t subtree_end(const trace_log *t, size_t i)
{
    size_t j = i + 1;
    while (j < t->len && t->e[j].depth > t->e[i].depth)
        j++;
    return j;
}

void trace_text(const val_env *env, const trace_log *t, strbuf *out)
{
    const res_program *p = env->p;
    if (t->len == 0) {
        sb_puts(out, "(no query was asked and no table was read)\n");
        return;
    }
    /* Closing lines of calls answered by no rule, emitted when their subtree ends. */
    size_t pending[64];
    size_t npending = 0;
    for (size_t i = 0; i <= t->len; i++) {
        while (npending && (i == t->len || t->e[i].depth <= t->e[pending[npending - 1]].depth)) {
            size_t c = pending[--npending];
            no_rule_text(env, t, c, i, out);
        }
        if (i == t->len)
            break;
        const trace_ent *e = &t->e[i];
        indent(out, e->depth);
        switch (e->kind) {
        case TR_CALL: {
            const res_query *q = &p->queries[e->id];
            sb_printf(out, "%s(", q->name);
            for (uint32_t a = 0; a < e->nargs; a++) {
                if (a)
                    sb_puts(out, ", ");
                put_val(env, e->args[a], out, false);
            }
            sb_puts(out, ")");
            if (e->done) {
                sb_puts(out, " = ");
                put_val(env, e->result, out, false);
            }
            sb_printf(out, "   [%s]\n", mode_name(q->mode));
            if (e->done && e->no_rule) {
                if (npending < sizeof pending / sizeof pending[0])
                    pending[npending++] = i;
                else
                    no_rule_text(env, t, i, subtree_end(t, i), out);
            }
            break;
        }
        case TR_RULE: {
            const res_rule *r = &p->rules[e->id];
            sb_printf(out, "rule %s: ", r->name);
            if (e->unfired)
                sb_puts(out, "did not fire");
            else
                put_val(env, e->result, out, false);
            cites_text(&r->decl->cites, out);
            sb_putc(out, '\n');
            break;
        }
        case TR_DEFAULT: {
            sb_puts(out, "default: ");
            put_val(env, e->result, out, false);
            /* the default of a first/min/max query answers when no rule fired */
            const res_query *q = &p->queries[e->id];
            if (q->mode != AST_COMBINE_SUM) {
                bool first = true;
                size_t parent = i;
                while (parent > 0 && t->e[parent].depth >= e->depth)
                    parent--;
                for (size_t j = parent + 1; j < i; j++) {
                    const trace_ent *r = &t->e[j];
                    if (r->depth != e->depth || r->kind != TR_RULE)
                        continue;
                    sb_puts(out, first ? " (no rule fired; checked " : ", ");
                    sb_puts(out, p->rules[r->id].short_name);
                    first = false;
                }
                sb_puts(out, first ? " (no rule fired)" : ")");
            }
            sb_putc(out, '\n');
            break;
        }
        case TR_TABLE:
            table_text(env, e, out);
            break;
        }
    }
    if (t->truncated)
        sb_printf(out, "(trace truncated after %d entries)\n", TRACE_MAX_ENTRIES);
}

static size_t json_call(const val_env *env, const trace_log *t, size_t i, strbuf *out);

static void json_cites(const ast_vec *cites, strbuf *out)
{
    sb_putc(out, '[');
    for (uint32_t i = 0; cites && i < cites->len; i++) {
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

static void json_lookup(const val_env *env, const trace_ent *e, strbuf *out)
{
    const res_table *t = &env->p->tables[e->id];
    sb_puts(out, "{\"table\": ");
    sb_json_str(out, t->name);
    sb_puts(out, ", \"keys\": [");
    for (uint32_t k = 0; k < e->nargs; k++) {
        if (k)
            sb_puts(out, ", ");
        put_val(env, e->args[k], out, true);
    }
    sb_puts(out, "], \"column\": ");
    sb_json_str(out, !t->single && e->col < t->ncols ? t->cols[e->col].name : NULL);
    sb_puts(out, ", \"value\": ");
    put_val(env, e->result, out, true);
    sb_puts(out, ", \"cites\": ");
    json_cites(&t->decl->cites, out);
    sb_puts(out, ", \"row_cites\": ");
    const ast_node *rn = row_node(t, e);
    json_cites(rn ? &rn->cites : NULL, out);
    sb_putc(out, '}');
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
        } else if (t->e[i].depth == depth && t->e[i].kind == TR_TABLE) {
            if (!first)
                sb_puts(out, ", ");
            first = false;
            json_lookup(env, &t->e[i], out);
            i++;
        } else {
            i++;    /* not expected: skip */
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
    sb_json_str(out, mode_name(q->mode));
    sb_puts(out, ", \"args\": [");
    for (uint32_t a = 0; a < e->nargs; a++) {
        if (a)
            sb_puts(out, ", ");
        put_val(env, e->args[a], out, true);
    }
    sb_puts(out, "], \"result\": ");
    if (e->done)
        put_val(env, e->result, out, true);
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
            put_val(env, r->result, out, true);
        sb_puts(out, ", \"cites\": ");
        json_cites(&rule->decl->cites, out);
        sb_puts(out, ", \"calls\": ");
        i = json_calls(env, t, i + 1, d + 2, out);
        sb_putc(out, '}');
    }
    sb_putc(out, ']');
    if (dflt) {
        sb_puts(out, ", \"default\": {\"answer\": ");
        put_val(env, dflt->result, out, true);
        sb_puts(out, ", \"calls\": ");
        json_calls(env, t, dflt_at + 1, d + 2, out);
        sb_putc(out, '}');
    }
    sb_putc(out, '}');
    return i;
}

void trace_json(const val_env *env, const trace_log *t, strbuf *out)
{
    json_calls(env, t, 0, 0, out);
}
