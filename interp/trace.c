/* trace.c — the evaluation trace (see trace.h): recording, and rendering as complete text
 * (`why full`), as brief text (`why`: only what fired, repeated calls counted, long values cut),
 * as the reasons of what did not fire (`why not`: the brief renderer showing every rule) and as
 * the list of the rules that fired (hon_answer_fired); the memo every rendering writes through
 * (trace_render.h), which trace_json.c's JSON rendering shares. The entries come from calls.c's
 * query driver and proc.c's event driver; what a rule's guard found is recorded and worded by
 * trace_why.c; eval.c and game.c render them before the arena is reset. Tests: test_why.c,
 * test_vm.c, test_board.c.
 */
#include "trace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "trace_render.h"

void trace_free(trace_log *t)
{
    mem_free(t->e);
    mem_free(t->open);
    *t = (trace_log){ 0 };
}

/* A new entry at the current depth (not going deeper); NULL past the cap or on OOM. */
static trace_ent *new_entry(trace_log *t, trace_kind k, uint32_t id)
{
    if (t->len >= TRACE_MAX_ENTRIES || !MEM_GROW(t->e, t->len, t->cap)) {
        t->truncated = true;
        return NULL;
    }
    trace_ent *e = &t->e[t->len++];
    *e = (trace_ent){ .kind = k, .depth = t->depth, .id = id, .failed = UINT32_MAX };
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
    if (MEM_GROW(t->open, t->depth, t->open_cap))
        t->open[t->depth] = e ? t->len - 1 : SIZE_MAX;
    else
        t->open_lost = true;
    t->depth++;
    if (!e)
        return SIZE_MAX;
    copy_args(e, a, args, nargs);
    return t->len - 1;
}

size_t trace_open_rule(trace_log *t, const chunk *ch)
{
    size_t i = trace_open(t, NULL, TR_RULE, ch ? ch->id : 0, NULL, 0);
    if (i < t->len)
        t->e[i].why = ch;
    return i;
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

void trace_enter(trace_log *t)
{
    t->depth++;
}

/* Puts a new entry (kind k, id, chunk ch, at `depth`) at index mark, before what its part
 * asked: its index, or SIZE_MAX past the cap or on OOM (what the part asked is dropped then). */
static size_t insert_part(trace_log *t, size_t mark, trace_kind k, uint32_t id, const chunk *ch,
                          uint32_t depth)
{
    if (mark > t->len)
        mark = t->len;
    if (t->len >= TRACE_MAX_ENTRIES || !MEM_GROW(t->e, t->len, t->cap)) {
        t->truncated = true;
        t->len = mark; /* not what it asked without the entry above it */
        return SIZE_MAX;
    }
    memmove(&t->e[mark + 1], &t->e[mark], (t->len - mark) * sizeof *t->e);
    t->len++;
    t->e[mark] =
        (trace_ent){ .kind = k, .depth = depth, .id = id, .why = ch, .failed = UINT32_MAX };
    return mark;
}

void trace_leave_fired(trace_log *t, size_t mark, trace_kind k, uint32_t id, const chunk *ch,
                       val result)
{
    if (t->depth)
        t->depth--;
    size_t i = insert_part(t, mark, k, id, ch, t->depth);
    if (i != SIZE_MAX) {
        t->e[i].result = result;
        t->e[i].done = true;
    }
}

void trace_leave_failed(trace_log *t, size_t mark, uint32_t depth, trace_kind k, uint32_t id,
                        const chunk *ch)
{
    insert_part(t, mark, k, id, ch, depth);
}

void trace_leave_unfired(trace_log *t, size_t mark, const chunk *ch)
{
    if (t->depth)
        t->depth--;
    if (mark < t->len)
        t->len = mark;
    trace_ent *e = new_entry(t, TR_RULE, ch ? ch->id : 0);
    if (e) {
        e->why = ch;
        e->unfired = true;
    }
}

void trace_output(trace_log *t, val_arena *a, size_t i, const char *lines, size_t n,
                  uint32_t effects)
{
    if (i >= t->len)
        return;
    trace_ent *e = &t->e[i];
    e->effects = effects;
    if (!n || n > UINT32_MAX)
        return;
    char *copy = arena_alloc(a, n);
    if (copy) {
        memcpy(copy, lines, n);
        e->out = copy;
        e->out_len = (uint32_t)n;
    }
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

/* The name of the query's mode; `first` for an event, which has none. */
const char *trace_mode_name(ast_op m)
{
    return ast_combine_name(m) ? ast_combine_name(m) : "first";
}

void trace_memo_free(trace_memo *m)
{
    for (size_t i = 0; m && i < MEMO_SLOTS; i++)
        mem_free(m->e[i].text);
    for (size_t k = 0; m && k < m->nkept; k++)
        mem_free(m->rule_json[m->kept[k]]);
    if (m) {
        mem_free(m->rule_json);
        mem_free(m->rule_json_len);
        mem_free(m->kept);
    }
    mem_free(m);
}

/* A new memo for one rendering under env (*menv: env with it); NULL when memory ran out (the
 * rendering then goes without: *menv is env). */
trace_memo *trace_memo_new(const val_env *env, val_env *menv)
{
    trace_memo *m = mem_calloc(1, sizeof *m);
    *menv = (val_env){ env->p, env->sc, m, env->in_play };
    return m;
}

static size_t memo_slot(val v, size_t width, int level)
{
    uint64_t h = (uint64_t)v.u.i * 0x9e3779b97f4a7c15u ^ ((uint64_t)v.type << 32 | v.flags);
    h ^= (uint64_t)width * 31 + (uint64_t)(int64_t)level;
    h *= 0xff51afd7ed558ccdu;
    return (size_t)(h >> 58) % MEMO_SLOTS;
}

/* Appends what the memo keeps for (v, width, level) to out: true, or false when it has none. */
static bool memo_put(const trace_memo *m, val v, size_t width, int level, strbuf *out)
{
    size_t i = memo_slot(v, width, level);
    if (!m->e[i].text || m->e[i].v.type != v.type || m->e[i].v.flags != v.flags ||
        m->e[i].v.u.i != v.u.i || m->e[i].width != width || m->e[i].level != level)
        return false;
    sb_putn(out, m->e[i].text, m->e[i].len);
    return true;
}

/* Keeps what out got from `from` on as the text of (v, width, level), unless the writing was
 * cut short (out->truncated became set: `truncated` is what it was before) or memory ran out. */
static void memo_keep(trace_memo *m, val v, size_t width, int level, const strbuf *out, size_t from,
                      bool truncated)
{
    if (out->oom || out->truncated != truncated)
        return; /* not all of it was written */
    char *text = mem_malloc(out->len - from + 1);
    if (!text)
        return; /* not kept: the next rendering prints it again */
    if (out->len > from)
        memcpy(text, out->s + from, out->len - from);
    text[out->len - from] = '\0';
    size_t i = memo_slot(v, width, level);
    mem_free(m->e[i].text);
    m->e[i].v = v;
    m->e[i].width = width;
    m->e[i].level = level;
    m->e[i].text = text;
    m->e[i].len = out->len - from;
}

static void put_short_whole(const val_env *env, val v, strbuf *out, size_t width, int level);
static res_tkind kind_of(const res_program *p, val v);

/* A value that is not a list, a record or a set, as put_short_whole writes it (whole, or `...`
 * alone when its text is longer than TRACE_VALUE_MAX bytes, which a limited buffer refuses
 * whole), printed into out in place: its text is one append of a name or a number, cheaper
 * to write again than to copy into a buffer of its own and keep in the memo. */
static void put_scalar(const val_env *env, val v, strbuf *out)
{
    size_t from = out->len;
    val_print(env, v, out);
    if (!out->oom && out->len - from > TRACE_VALUE_MAX) {
        out->len = from;
        out->s[from] = '\0';
        sb_puts(out, "...");
    }
}

/* put_short_whole, through env->memo when there is one; a value neither a list, a record nor
 * a set, in place (put_scalar). */
static void put_short(const val_env *env, val v, strbuf *out, size_t width, int level)
{
    res_tkind k = kind_of(env->p, v);
    if (k != RT_LIST && k != RT_RECORD && k != RT_SET) {
        put_scalar(env, v, out);
        return;
    }
    trace_memo *m = env->memo;
    if (m && memo_put(m, v, width, level, out))
        return;
    size_t from = out->len;
    bool truncated = out->truncated;
    put_short_whole(env, v, out, width, level);
    if (m)
        memo_keep(m, v, width, level, out, from, truncated);
}

static void put_val_whole(const val_env *env, val v, strbuf *out, bool json)
{
    bool cut;
    char *t = val_text(env, v, json, TRACE_VALUE_MAX, &cut);
    if (!t) {
        sb_fail(out);
        return;
    }
    if (json && cut)
        sb_puts(out, "null");
    else
        sb_puts(out, t);
    if (!json && cut)
        sb_puts(out, "...");
    mem_free(t);
}

/* put_val_whole, through env->memo when there is one. */
void trace_put_val(const val_env *env, val v, strbuf *out, bool json)
{
    trace_memo *m = env->memo;
    int form = json ? MEMO_JSON : MEMO_WHOLE;
    if (m && memo_put(m, v, 0, form, out))
        return;
    size_t from = out->len;
    bool truncated = out->truncated;
    put_val_whole(env, v, out, json);
    if (m)
        memo_keep(m, v, 0, form, out, from, truncated);
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
            continue; /* too short, or only the end of a word */
        while (i < k && (s[n - k + i] | 0x20) == words[w][i])
            i++;
        if (i == k)
            return true;
    }
    return false;
}

/* `ID: source, example "X"`, or `ID: source "X"` when the source already ends with "example". */
static void put_cite(const res_program *p, const ast_node *c, strbuf *out)
{
    const char *source = model_cite_source(p, c);
    sb_puts(out, model_cite_id(c) ? model_cite_id(c) : "?");
    if (source) {
        sb_puts(out, ": ");
        sb_puts(out, source);
    }
    if (model_cite_example(c)) {
        sb_puts(out, source && trace_source_ends_with_example(source) ? " \"" : ", example \"");
        sb_puts(out, model_cite_example(c));
        sb_putc(out, '"');
    }
}

/* `   (CITE; CITE)`: the citations of cites that are of books in play (model_cite_in_play,
 * env->in_play); when none is, all of them and `; no book in play says it` (MODEL_NOT_IN_PLAY),
 * or nothing for a rule that did not fire (`unfired`: nothing it says is taken). */
static void cites_text(const val_env *env, const ast_vec *cites, bool unfired, strbuf *out)
{
    bool all = model_cites_none_in_play(env->p, env->in_play, cites);
    if (all && unfired)
        return;
    uint32_t shown = 0;
    for (uint32_t i = 0; i < cites->len; i++)
        if (all || model_cite_in_play(env->p, env->in_play, cites->items[i])) {
            sb_puts(out, shown++ ? "; " : "   (");
            put_cite(env->p, cites->items[i], out);
        }
    if (all)
        sb_puts(out, "; " MODEL_NOT_IN_PLAY);
    if (shown)
        sb_putc(out, ')');
}

/* `   (module M, edition E)`: where a rule (or a table row an edition revised) comes from —
 * its module when it is neither the unnamed module nor the base module (the one the first
 * file loaded belongs to), and the edition that made this version, if any. Nothing when
 * neither is said. */
static void provenance_text(const res_program *p, int32_t module, int32_t edition, strbuf *out)
{
    const char *m = module != p->base_module ? res_module_name(p, module) : NULL;
    const char *e =
        edition >= 0 && (size_t)edition < p->neditions ? p->editions[edition].name : NULL;
    if (m || e)
        sb_printf(out, "   (%s%s%s%s%s)", m ? "module " : "", m ? m : "", m && e ? ", " : "",
                  e ? "edition " : "", e ? e : "");
}

/* The module and edition of the revision of row `row` of table t, or (0, -1) as declared. */
void trace_row_provenance(const res_program *p, const res_table *t, uint32_t row, int32_t *module,
                          int32_t *edition)
{
    const res_row *r = row < t->nrows ? &t->rows[row] : NULL;
    *module = r && r->revision ? res_module_of(p, r->revision->loc.file) : 0;
    *edition = r && r->revision ? r->edition : -1;
}

static void indent(strbuf *out, uint32_t depth)
{
    static const char spaces[] = "                                "; /* 16 levels */
    for (; depth > 16; depth -= 16)
        sb_putn(out, spaces, 32);
    sb_putn(out, spaces, 2 * (size_t)depth);
}

/* The row node of a lookup entry, or NULL. */
const ast_node *trace_row_node(const res_table *t, const trace_ent *e)
{
    return e->row < t->nrows ? t->rows[e->row].node : NULL;
}

static void put_arg(const val_env *env, val v, strbuf *out, bool brief);

/* `table t[k1, k2].col = v   (table cites; row: row cites)`, values cut short when `brief` */
static void table_text(const val_env *env, const trace_ent *e, bool brief, strbuf *out)
{
    const res_program *p = env->p;
    const res_table *t = &p->tables[e->id];
    sb_puts(out, "table ");
    sb_puts(out, t->name);
    sb_putc(out, '[');
    for (uint32_t k = 0; k < e->nargs; k++) {
        if (k)
            sb_puts(out, ", ");
        put_arg(env, e->args[k], out, brief);
    }
    sb_putc(out, ']');
    if (!t->single && e->col < t->ncols)
        sb_printf(out, ".%s", t->cols[e->col].name);
    sb_puts(out, " = ");
    put_arg(env, e->result, out, brief);
    int32_t module, edition;
    trace_row_provenance(p, t, e->row, &module, &edition);
    provenance_text(p, module, edition, out);
    const ast_vec *tc = &t->decl->cites;
    const ast_node *rn = trace_row_node(t, e);
    const ast_vec *rc = rn ? &rn->cites : NULL;
    const ast_node *rev = e->row < t->nrows ? t->rows[e->row].revision : NULL;
    const ast_vec *vc = rev ? &rev->cites : NULL;
    /* the table's, the row's and the revision's citations, those of books in play (all of
     * them when none is, as cites_text) */
    const ast_vec *groups[3] = { tc, rc, vc };
    static const char *const heads[3] = { "", "row: ", "revised: " };
    bool all = true;
    for (int g = 0; g < 3; g++)
        all = all && (!groups[g] || !groups[g]->len ||
                      model_cites_none_in_play(p, env->in_play, groups[g]));
    all = all && env->in_play && (tc->len || (rc && rc->len) || (vc && vc->len));
    uint32_t shown = 0;
    for (int g = 0; g < 3; g++) {
        uint32_t in_group = 0;
        for (uint32_t i = 0; groups[g] && i < groups[g]->len; i++) {
            if (!all && !model_cite_in_play(p, env->in_play, groups[g]->items[i]))
                continue;
            sb_puts(out, shown ? "; " : "   (");
            if (!in_group++)
                sb_puts(out, heads[g]);
            put_cite(p, groups[g]->items[i], out);
            shown++;
        }
    }
    if (all)
        sb_puts(out, "; " MODEL_NOT_IN_PLAY);
    if (shown)
        sb_putc(out, ')');
    sb_putc(out, '\n');
}

/* After the children of a call whose answer no rule gave: where the answer came from, and the
 * rules that were checked. `end` is the index after the call's children. */
static void no_rule_text(const val_env *env, const trace_log *t, size_t call, size_t end,
                         uint32_t level, strbuf *out)
{
    const res_program *p = env->p;
    const trace_ent *e = &t->e[call];
    const res_query *q = &p->queries[e->id];
    bool has_default = false;
    for (size_t i = call + 1; i < end; i++)
        if (t->e[i].depth == e->depth + 1 && t->e[i].kind == TR_DEFAULT)
            has_default = true;
    if (has_default && q->mode != AST_COMBINE_SUM)
        return; /* the default's own line says it (see below) */
    bool checked = false;
    for (size_t i = call + 1; i < end && !checked; i++)
        checked = t->e[i].depth == e->depth + 1 && t->e[i].kind == TR_RULE;
    indent(out, level);
    /* no rule checked: none applies to the call (the query has none in this edition), which
     * is not the same as rules that were checked and did not fire */
    const char *head = "no rule fired", *answer = "";
    switch (q->is_event ? AST_COMBINE_FIRST : q->mode) {
    case AST_COMBINE_PERMISSION: head = "no rule forbids", answer = ": permit"; break;
    case AST_COMBINE_ALL: head = "no rule answered false", answer = ": true"; break;
    case AST_COMBINE_ANY: head = "no rule answered true", answer = ": false"; break;
    case AST_COMBINE_SUM: answer = ": the default alone"; break;
    default: break;
    }
    sb_puts(out, checked ? head : "no rule applies");
    sb_puts(out, answer);
    if (!checked) {
        sb_putc(out, '\n');
        return;
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
    sb_puts(out, ")\n");
}

/* What an event's rule that fired did: `2 effects`, `1 effect, 1 roll, 1 note`, `no effect`.
 * Its lines other than effects are the dice it rolled (play.c writes them `roll …`) and its
 * notes (`note: …`). */
static void event_rule_what(const trace_ent *e, strbuf *out)
{
    uint32_t lines = 0, rolls = 0;
    for (const char *l = e->out, *end = e->out ? e->out + e->out_len : NULL; l && l < end;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        lines++;
        rolls += (size_t)(end - l) > 5 && memcmp(l, "roll ", 5) == 0;
        l = nl ? nl + 1 : end;
    }
    uint32_t other = lines > e->effects ? lines - e->effects : 0;
    uint32_t notes = other > rolls ? other - rolls : 0;
    const char *sep = "";
    if (e->effects) {
        sb_printf(out, "%" PRIu32 " effect%s", e->effects, e->effects == 1 ? "" : "s");
        sep = ", ";
    }
    if (rolls) {
        sb_printf(out, "%s%" PRIu32 " roll%s", sep, rolls, rolls == 1 ? "" : "s");
        sep = ", ";
    }
    if (notes)
        sb_printf(out, "%s%" PRIu32 " note%s", sep, notes, notes == 1 ? "" : "s");
    if (!e->effects && !rolls && !notes)
        sb_puts(out, "no effect");
}

/* What a rule's line says of its guard: nothing (the brief trace), why it did not fire (the
 * complete trace), or that too and what held when it fired (`why not`). */
typedef enum guard_words {
    GUARD_SILENT,
    GUARD_UNFIRED,
    GUARD_ALL
} guard_words;

/* The line of a rule's entry e, without its newline: `rule q.r: ANSWER   (citations)`, or
 * `did not fire`, or what an event's rule did, with what its guard found as `words` says;
 * brief: values cut as in trace_brief. */
static void rule_line(const val_env *env, const trace_ent *e, bool brief, guard_words words,
                      strbuf *out)
{
    const res_program *p = env->p;
    const res_rule *r = &p->rules[e->id];
    sb_puts(out, "rule ");
    sb_puts(out, r->name);
    sb_puts(out, ": ");
    if (e->unfired)
        sb_puts(out, "did not fire");
    else if (p->queries[r->query].is_event)
        event_rule_what(e, out);
    else
        put_arg(env, e->result, out, brief);
    if (words != GUARD_SILENT)
        trace_reason(env, e, brief, words == GUARD_ALL, out);
    provenance_text(p, r->module, r->edition, out);
    cites_text(env, &r->decl->cites, e->unfired, out);
}

/* The lines an event's rule wrote, one per line at `depth`, after an arrow. */
static void output_lines(const trace_ent *e, uint32_t depth, strbuf *out)
{
    const char *l = e->out, *end = e->out ? e->out + e->out_len : NULL;
    while (l && l < end) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        size_t n = nl ? (size_t)(nl - l) : (size_t)(end - l);
        indent(out, depth);
        sb_puts(out, "\xe2\x86\x92"
                     " "); /* an arrow */
        sb_putn(out, l, n);
        sb_putc(out, '\n');
        l += n + 1;
    }
}

/* `event name(args)`; values cut short when `brief`. */
static void event_head(const val_env *env, const trace_ent *e, bool brief, strbuf *out)
{
    sb_puts(out, "event ");
    sb_puts(out, env->p->queries[e->id].name);
    sb_putc(out, '(');
    for (uint32_t a = 0; a < e->nargs; a++) {
        if (a)
            sb_puts(out, ", ");
        put_arg(env, e->args[a], out, brief);
    }
    sb_putc(out, ')');
}

/* `query(args) = result` of a call entry (no newline); values cut short when `brief`. */
static void call_text(const val_env *env, const trace_ent *e, bool brief, strbuf *out)
{
    sb_puts(out, env->p->queries[e->id].name);
    sb_putc(out, '(');
    for (uint32_t a = 0; a < e->nargs; a++) {
        if (a)
            sb_puts(out, ", ");
        put_arg(env, e->args[a], out, brief);
    }
    sb_putc(out, ')');
    if (e->done) {
        sb_puts(out, " = ");
        put_arg(env, e->result, out, brief);
    }
}

/* call_text, then the query's mode: `query(args) = result   [mode]`. */
static void call_head(const val_env *env, const trace_ent *e, bool brief, strbuf *out)
{
    call_text(env, e, brief, out);
    sb_puts(out, "   [");
    sb_puts(out, trace_mode_name(env->p->queries[e->id].mode));
    sb_putc(out, ']');
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
            no_rule_text(env, t, c, i, t->e[c].depth + 1, out);
        }
        if (i == t->len)
            break;
        const trace_ent *e = &t->e[i];
        indent(out, e->depth);
        switch (e->kind) {
        case TR_CALL:
        case TR_EVENT:
            if (e->kind == TR_CALL)
                call_head(env, e, false, out);
            else
                event_head(env, e, false, out);
            sb_putc(out, '\n');
            /* where the answer came from when no rule fired: after the entry's subtree */
            if (e->done && e->no_rule) {
                if (npending < sizeof pending / sizeof pending[0])
                    pending[npending++] = i;
                else
                    no_rule_text(env, t, i, subtree_end(t, i), e->depth + 1, out);
            }
            break;
        case TR_RULE: {
            rule_line(env, e, false, GUARD_UNFIRED, out);
            sb_putc(out, '\n');
            if (!e->unfired)
                output_lines(e, e->depth + 1, out);
            break;
        }
        case TR_DEFAULT: {
            sb_puts(out, "default: ");
            trace_put_val(env, e->result, out, false);
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
                sb_puts(out, first ? " (no rule applies)" : ")");
            }
            sb_putc(out, '\n');
            break;
        }
        case TR_TABLE: table_text(env, e, false, out); break;
        }
    }
    if (t->truncated)
        sb_printf(out, "(trace truncated after %d entries)\n", TRACE_MAX_ENTRIES);
}

/* ---- the brief trace (trace_brief) ---- */

#define ELLIPSIS    "\xe2\x80\xa6" /* … */
#define TIMES       "\xc3\x97"     /* × */
#define SHORT_DEPTH 2              /* nested values cut item by item this deep, no deeper */

/* Characters (UTF-8 code points) of s[0..n). */
static size_t chars(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}

static res_tkind kind_of(const res_program *p, val v)
{
    if (v.flags & VAL_ABSENT || v.type >= p->ntypes)
        return RT_NONE;
    return p->types[v.type].kind;
}

/* Writes v at most about `width` characters long: a record, list or set whose text is longer
 * shows its first items that fit, then `…` (`shot{from: B6, to: D2, …}`, `[$a, $b, …]`); the
 * items themselves are cut the same way down to SHORT_DEPTH levels. Other values print whole. */
static void put_short_whole(const val_env *env, val v, strbuf *out, size_t width, int level)
{
    const res_program *p = env->p;
    res_tkind k = kind_of(p, v);
    bool cut;
    char *full = val_text(
        env, v, false,
        k == RT_LIST || k == RT_RECORD || k == RT_SET ? 4 * width + 4 : TRACE_VALUE_MAX, &cut);
    if (!full) {
        sb_fail(out);
        return;
    }
    size_t n = strlen(full);
    bool fits = !cut && chars(full, n) <= width;
    if (fits || (k != RT_LIST && k != RT_RECORD && k != RT_SET)) {
        sb_puts(out, full);
        if (cut)
            sb_puts(out, "...");
        mem_free(full);
        return;
    }
    mem_free(full);
    const res_type *t = &p->types[v.type];
    size_t nitems = 0;
    if (k == RT_LIST)
        nitems = v.u.list ? v.u.list->len : 0;
    else if (k == RT_RECORD)
        nitems = p->records[t->arg].nfields;
    else
        nitems = 64;
    strbuf b = { 0 };
    if (k == RT_RECORD) {
        sb_puts(&b, p->records[t->arg].name);
        sb_putc(&b, '{');
    } else
        sb_putc(&b, k == RT_LIST ? '[' : '{');
    const char close = k == RT_LIST ? ']' : '}';
    size_t have = chars(sb_str(&b), b.len), shown = 0;
    bool all = true;
    for (size_t i = 0; i < nitems; i++) {
        strbuf item = { 0 };
        if (k == RT_SET) {
            if (!(v.u.bits >> i & 1))
                continue;
            uint32_t e = p->types[t->arg].arg;
            sb_puts(&item,
                    e < p->nenums && i < p->enums[e].len ? p->enums[e].members[i].name : "?");
        } else {
            val it = k == RT_LIST ? v.u.list->items[i] : v.u.rec[i];
            if (k == RT_RECORD) {
                sb_puts(&item, p->records[t->arg].fields[i].name);
                sb_puts(&item, ": ");
            }
            if (level < SHORT_DEPTH)
                put_short(env, it, &item, width, level + 1);
            else
                trace_put_val(env, it, &item, false);
        }
        bool last = true; /* is this the last item? */
        for (size_t j = i + 1; j < nitems && last; j++)
            last = k == RT_SET ? !(v.u.bits >> j & 1) : false;
        size_t need = have + (shown ? 2 : 0) + chars(sb_str(&item), item.len) + (last ? 1 : 4);
        if (item.oom)
            sb_fail(&b);
        if (need > width || item.oom) {
            sb_free(&item);
            all = false;
            break;
        }
        sb_puts(&b, shown ? ", " : "");
        sb_puts(&b, sb_str(&item));
        have = chars(sb_str(&b), b.len);
        shown++;
        sb_free(&item);
    }
    if (!all)
        sb_puts(&b, shown ? ", " ELLIPSIS : ELLIPSIS);
    sb_putc(&b, close);
    if (b.oom)
        sb_fail(out);
    sb_puts(out, sb_str(&b));
    sb_free(&b);
}

static void put_arg(const val_env *env, val v, strbuf *out, bool brief)
{
    if (brief)
        put_short(env, v, out, TRACE_BRIEF_WIDTH, 0);
    else
        trace_put_val(env, v, out, false);
}

void trace_value(const val_env *env, val v, trace_form form, strbuf *out)
{
    if (form == TRACE_JSON)
        trace_put_val(env, v, out, true);
    else
        put_arg(env, v, out, form == TRACE_BRIEF);
}

/* ---- hashing and comparing subtrees, to count identical siblings ---- */

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdu;
}

/* A hash of v that visits at most *work values (equal values hash alike when both were
 * visited whole; a hash is only a hint: equality is checked). */
static uint64_t hash_val(const res_program *p, val v, uint64_t h, uint32_t *work)
{
    if (!*work)
        return h;
    (*work)--;
    h = mix(h, v.type);
    if (v.flags & VAL_ABSENT)
        return mix(h, (uint64_t)v.u.i ^ 0xabad1dea);
    switch (kind_of(p, v)) {
    case RT_LIST:
        if (v.u.list) {
            h = mix(h, v.u.list->len);
            for (size_t i = 0; i < v.u.list->len && *work; i++)
                h = hash_val(p, v.u.list->items[i], h, work);
        }
        return h;
    case RT_RECORD: {
        const res_record *r = &p->records[p->types[v.type].arg];
        for (size_t i = 0; i < r->nfields && *work; i++)
            h = hash_val(p, v.u.rec[i], h, work);
        return h;
    }
    default: return mix(h, (uint64_t)v.u.i);
    }
}

/* The hashes of the records and lists an index_tree has hashed, by address (a value is not
 * changed once made): the same shot is an argument of every step of a line. */
#define HASH_SLOTS 64
typedef struct hash_memo {
    struct {
        uint32_t type;
        uint64_t bits; /* the value's address; 0: the slot is free */
        uint64_t h;
    } e[HASH_SLOTS];
} hash_memo;

/* A hash of v on its own (at most 256 values visited), through m for a record or a list. */
static uint64_t hash_one(const res_program *p, val v, hash_memo *m)
{
    uint32_t work = 256;
    res_tkind k = v.flags & VAL_ABSENT ? RT_NONE : kind_of(p, v);
    if ((k != RT_RECORD && k != RT_LIST) || !v.u.bits)
        return hash_val(p, v, 0, &work);
    size_t i = (size_t)((v.u.bits >> 4) * 0x9e3779b97f4a7c15u >> 58) % HASH_SLOTS;
    if (m->e[i].bits == v.u.bits && m->e[i].type == v.type)
        return m->e[i].h;
    uint64_t h = hash_val(p, v, 0, &work);
    m->e[i].type = v.type;
    m->e[i].bits = v.u.bits;
    m->e[i].h = h;
    return h;
}

/* The fields of one entry that make it what it is (not its depth, not its children). */
static uint64_t hash_entry(const res_program *p, const trace_ent *e, hash_memo *m)
{
    uint64_t h =
        mix(mix(e->kind, e->id), (uint64_t)e->unfired << 2 | (uint64_t)e->no_rule << 1 | e->done);
    h = mix(mix(h, e->row), e->col);
    for (uint32_t a = 0; a < e->nargs; a++)
        h = mix(h, hash_one(p, e->args[a], m));
    if (e->done)
        h = mix(h, hash_one(p, e->result, m));
    h = mix(h, e->effects);
    for (uint32_t k = 0; k < e->out_len && k < 64; k++)
        h = mix(h, (unsigned char)e->out[k]);
    return h;
}

static bool same_val(const res_program *p, val a, val b)
{
    uint64_t work = 100000;
    return a.type == b.type && a.flags == b.flags &&
           (a.flags & VAL_ABSENT ? a.u.i == b.u.i : val_equal_bounded(p, a, b, NULL, &work));
}

static bool same_entry(const res_program *p, const trace_ent *a, const trace_ent *b)
{
    if (a->kind != b->kind || a->id != b->id || a->unfired != b->unfired ||
        a->no_rule != b->no_rule || a->done != b->done || a->nargs != b->nargs ||
        a->row != b->row || a->col != b->col || a->effects != b->effects ||
        a->out_len != b->out_len || (a->out_len && memcmp(a->out, b->out, a->out_len) != 0))
        return false;
    for (uint32_t k = 0; k < a->nargs; k++)
        if (!same_val(p, a->args[k], b->args[k]))
            return false;
    return !a->done || same_val(p, a->result, b->result);
}

typedef struct brief {
    const val_env *env;
    const trace_log *t;
    strbuf *out;
    size_t *end;    /* per entry: the index after its subtree */
    uint64_t *hash; /* per entry: a hash of its subtree */
    bool why_not;   /* trace_why_not: every rule at every depth, with its guard; no lookups */
    uint32_t last;  /* the deepest level written */
    struct checked_memo *checked; /* checked_rules' texts, or NULL */
} brief;

/* The last `checked a, b, c` checked_rules wrote for a call of each query (a slot per query id
 * modulo CHECKED_SLOTS), with the rules it names: a line's calls that no rule answered (each
 * square's terrain_sight) check the same rules, and writing their names is an append each. */
#define CHECKED_SLOTS 16
typedef struct checked_memo {
    struct {
        uint32_t q;
        uint32_t *rules; /* owned: the rule ids named, in order */
        size_t nrules;
        char *text; /* owned; NULL: the slot is free */
        size_t len;
    } e[CHECKED_SLOTS];
} checked_memo;

static void checked_memo_free(checked_memo *m)
{
    for (size_t i = 0; m && i < CHECKED_SLOTS; i++) {
        mem_free(m->e[i].rules);
        mem_free(m->e[i].text);
    }
    mem_free(m);
}

/* Whether rule entries a and b found the same in their guards (why_not's repeats). */
static bool same_guard(const res_program *p, const trace_ent *a, const trace_ent *b)
{
    if (a->why != b->why || a->failed != b->failed || !a->sides != !b->sides)
        return false;
    for (size_t k = 0; a->sides && a->why && k < a->why->nconj; k++) {
        const trace_sides *x = &a->sides[k], *y = &b->sides[k];
        if (x->set != y->set ||
            (x->set && (!same_val(p, x->left, y->left) || !same_val(p, x->right, y->right))))
            return false;
    }
    return true;
}

/* Whether the subtrees at i and j are the same: entry by entry, with the same shape. */
static bool same_subtree(const brief *br, size_t i, size_t j)
{
    const trace_log *t = br->t;
    size_t n = br->end[i] - i;
    if (br->hash[i] != br->hash[j] || br->end[j] - j != n)
        return false;
    for (size_t k = 0; k < n; k++) {
        const trace_ent *a = &t->e[i + k], *b = &t->e[j + k];
        if (a->depth - t->e[i].depth != b->depth - t->e[j].depth || !same_entry(br->env->p, a, b) ||
            (br->why_not && !same_guard(br->env->p, a, b)))
            return false;
    }
    return true;
}

/* Fills br->end and br->hash for every entry; false on OOM. */
static bool index_tree(brief *br)
{
    const trace_log *t = br->t;
    size_t n = t->len;
    br->end = mem_malloc(n * sizeof *br->end);
    br->hash = mem_malloc(n * sizeof *br->hash);
    size_t *stack = mem_malloc(n * sizeof *stack);
    if (!br->end || !br->hash || !stack) {
        mem_free(stack);
        return false;
    }
    size_t sp = 0;
    for (size_t i = 0; i < n; i++) {
        while (sp && t->e[stack[sp - 1]].depth >= t->e[i].depth)
            br->end[stack[--sp]] = i;
        stack[sp++] = i;
    }
    while (sp)
        br->end[stack[--sp]] = n;
    mem_free(stack);
    hash_memo hm = { 0 };
    for (size_t i = n; i-- > 0;) { /* children before their parent */
        const trace_ent *e = &t->e[i];
        /* a rule that did not fire (most entries) is a leaf: same_subtree compares it whole */
        if (e->kind == TR_RULE && e->unfired) {
            br->hash[i] = mix(mix(TR_RULE, e->id), 0x5u);
            continue;
        }
        uint64_t h = hash_entry(br->env->p, e, &hm);
        for (size_t j = i + 1; j < br->end[i]; j = br->end[j])
            h = mix(h, br->hash[j]);
        br->hash[i] = h;
    }
    return true;
}

/* The children of entry `parent` (SIZE_MAX: the top-level entries), grouped: each distinct
 * subtree once, at its first place, with how many times it occurs. *n gets the number of
 * groups; the arrays are new (free both), NULL on OOM. */
static size_t *group_children(const brief *br, size_t parent, size_t **counts, size_t *n)
{
    const trace_log *t = br->t;
    size_t from = parent == SIZE_MAX ? 0 : parent + 1;
    size_t to = parent == SIZE_MAX ? t->len : br->end[parent];
    size_t nkids = 0;
    for (size_t j = from; j < to; j = br->end[j])
        nkids++;
    *n = 0;
    *counts = NULL;
    size_t *first = mem_malloc((nkids ? nkids : 1) * sizeof *first);
    size_t *count = mem_malloc((nkids ? nkids : 1) * sizeof *count);
    size_t cap = 16;
    while (cap < 2 * nkids)
        cap *= 2;
    size_t *slot = mem_malloc(cap * sizeof *slot); /* open addressing: group + 1, 0 empty */
    if (!first || !count || !slot) {
        mem_free(first);
        mem_free(count);
        mem_free(slot);
        return NULL;
    }
    memset(slot, 0, cap * sizeof *slot);
    for (size_t j = from; j < to; j = br->end[j]) {
        size_t s = (size_t)br->hash[j] & (cap - 1);
        bool found = false;
        for (; slot[s]; s = (s + 1) & (cap - 1))
            if (same_subtree(br, first[slot[s] - 1], j)) {
                count[slot[s] - 1]++;
                found = true;
                break;
            }
        if (!found) {
            first[*n] = j;
            count[*n] = 1;
            slot[s] = ++*n;
        }
    }
    mem_free(slot);
    *counts = count;
    return first;
}

static void brief_entry(const brief *br, size_t i, size_t count, uint32_t level, bool top);

/* Writes the children of `parent` (SIZE_MAX: the top level) at `level`, identical ones once
 * with their count; below a call that is not at the top, only the rules that fired (why_not:
 * every rule, no lookups). */
static void brief_children(const brief *br, size_t parent, uint32_t level, bool top)
{
    if (level > br->last)
        return;
    size_t *counts, n;
    size_t *first = group_children(br, parent, &counts, &n);
    if (!first) {
        sb_fail(br->out);
        return;
    }
    for (size_t g = 0; g < n && !br->out->oom; g++) {
        const trace_ent *e = &br->t->e[first[g]];
        if ((!top && !br->why_not && e->kind == TR_RULE && e->unfired) ||
            (br->why_not && e->kind == TR_TABLE))
            continue;
        brief_entry(br, first[g], counts[g], level, top);
    }
    mem_free(first);
    mem_free(counts);
}

/* `   ×N` after a line that stands for N identical ones. */
static void put_count(strbuf *out, size_t count)
{
    if (count > 1)
        sb_printf(out, "   " TIMES "%zu", count);
}

/* Whether the rules below entry i are, in order, those slot `slot` of br->checked names. */
static bool checked_same(const brief *br, size_t i, size_t slot)
{
    const trace_log *t = br->t;
    const uint32_t *rules = br->checked->e[slot].rules;
    size_t k = 0, n = br->checked->e[slot].nrules;
    for (size_t j = i + 1; j < br->end[i]; j = br->end[j])
        if (t->e[j].kind == TR_RULE && (k >= n || rules[k++] != t->e[j].id))
            return false;
    return k == n;
}

/* Keeps what out got from `from` on as the checked text of slot `slot` for the call at entry i
 * (query q), unless the writing was cut short or memory ran out. */
static void checked_keep(const brief *br, size_t i, size_t slot, uint32_t q, const strbuf *out,
                         size_t from, bool truncated)
{
    checked_memo *m = br->checked;
    if (out->oom || out->truncated != truncated)
        return;
    size_t n = 0;
    for (size_t j = i + 1; j < br->end[i]; j = br->end[j])
        n += br->t->e[j].kind == TR_RULE;
    uint32_t *rules = mem_malloc((n ? n : 1) * sizeof *rules);
    char *text = mem_malloc(out->len - from + 1);
    if (!rules || !text) {
        mem_free(rules);
        mem_free(text);
        return;
    }
    n = 0;
    for (size_t j = i + 1; j < br->end[i]; j = br->end[j])
        if (br->t->e[j].kind == TR_RULE)
            rules[n++] = br->t->e[j].id;
    memcpy(text, out->s + from, out->len - from);
    text[out->len - from] = '\0';
    mem_free(m->e[slot].rules);
    mem_free(m->e[slot].text);
    m->e[slot].q = q;
    m->e[slot].rules = rules;
    m->e[slot].nrules = n;
    m->e[slot].text = text;
    m->e[slot].len = out->len - from;
}

/* Whether a rule was checked below call i (one of its children is a rule): when none was, no
 * rule applies to the call, and its answer is the query's default (or, for a permission, all
 * or any query, what it answers when no rule fires). */
static bool any_rule_checked(const brief *br, size_t i)
{
    for (size_t j = i + 1; j < br->end[i]; j = br->end[j])
        if (br->t->e[j].kind == TR_RULE)
            return true;
    return false;
}

/* The short names of the rules checked below call i, `checked a, b, c` (the caller makes sure
 * there is one: any_rule_checked); through br->checked when there is one. */
static void checked_rules(const brief *br, size_t i, strbuf *out)
{
    const trace_log *t = br->t;
    const uint32_t q = t->e[i].id;
    const size_t slot = q % CHECKED_SLOTS;
    checked_memo *m = br->checked;
    if (m && m->e[slot].text && m->e[slot].q == q && checked_same(br, i, slot)) {
        sb_putn(out, m->e[slot].text, m->e[slot].len);
        return;
    }
    size_t from = out->len;
    bool truncated = out->truncated, first = true;
    for (size_t j = i + 1; j < br->end[i]; j = br->end[j]) {
        if (t->e[j].kind != TR_RULE)
            continue;
        sb_puts(out, first ? "checked " : ", ");
        sb_puts(out, br->env->p->rules[t->e[j].id].short_name);
        first = false;
    }
    if (m)
        checked_keep(br, i, slot, q, out, from, truncated);
}

/* Whether the default of call i (answered by no rule) asked something that a rule answered:
 * a default that sums other queries (fire_defensive_bonus over defensive_bonus) holds terms the
 * reader must see, so the call is not folded to one line. Rules that fired while a guard of an
 * unfired rule was checked do not count: only the default's own subtree is looked at. */
static bool default_has_fired(const brief *br, size_t i)
{
    const trace_log *t = br->t;
    for (size_t j = i + 1; j < br->end[i]; j = br->end[j]) {
        if (t->e[j].kind != TR_DEFAULT)
            continue;
        for (size_t k = j + 1; k < br->end[j]; k++)
            if (t->e[k].kind == TR_RULE && !t->e[k].unfired)
                return true;
    }
    return false;
}

/* A call (or event) below the top that no rule answered, on one line. */
static void brief_unanswered(const brief *br, size_t i, size_t count)
{
    const val_env *env = br->env;
    const trace_ent *e = &br->t->e[i];
    strbuf *out = br->out;
    if (e->kind == TR_EVENT) {
        event_head(env, e, true, out);
    } else {
        call_text(env, e, true, out);
    }
    if (any_rule_checked(br, i)) {
        sb_puts(out, "   (no rule fired: ");
        checked_rules(br, i, out);
        sb_putc(out, ')');
    } else if (e->kind == TR_EVENT || env->p->queries[e->id].mode == AST_COMBINE_PERMISSION ||
               env->p->queries[e->id].mode == AST_COMBINE_ALL ||
               env->p->queries[e->id].mode == AST_COMBINE_ANY) {
        sb_puts(out, "   (no rule applies)"); /* the answer when no rule fires: no default */
    } else {
        sb_puts(out, "   (no rule applies: the query's default)");
    }
    put_count(out, count);
    sb_putc(out, '\n');
}

static void brief_entry(const brief *br, size_t i, size_t count, uint32_t level, bool top)
{
    const val_env *env = br->env;
    const res_program *p = env->p;
    const trace_ent *e = &br->t->e[i];
    strbuf *out = br->out;
    indent(out, level);
    switch (e->kind) {
    case TR_CALL:
    case TR_EVENT: {
        top = top || br->why_not;
        const bool unfolded = !top && e->no_rule && e->done && default_has_fired(br, i);
        if (!top && e->no_rule && e->done && !unfolded) {
            brief_unanswered(br, i, count);
            return;
        }
        if (e->kind == TR_EVENT) {
            event_head(env, e, true, out);
        } else {
            call_head(env, e, true, out);
        }
        put_count(out, count);
        sb_putc(out, '\n');
        brief_children(br, i, level + 1, top);
        if ((top || unfolded) && e->done && e->no_rule && level + 1 <= br->last)
            no_rule_text(env, br->t, i, br->end[i], level + 1, out);
        return;
    }
    case TR_RULE: {
        rule_line(env, e, true, br->why_not ? GUARD_ALL : GUARD_SILENT, out);
        put_count(out, count);
        sb_putc(out, '\n');
        if (!e->unfired)
            brief_children(br, i, level + 1, false);
        return;
    }
    case TR_DEFAULT: {
        sb_puts(out, "default: ");
        put_arg(env, e->result, out, true);
        if (p->queries[e->id].mode != AST_COMBINE_SUM) {
            /* the rules checked are the default's siblings before it */
            size_t parent = i;
            while (parent > 0 && br->t->e[parent].depth >= e->depth)
                parent--;
            if (any_rule_checked(br, parent)) {
                sb_puts(out, " (no rule fired; ");
                checked_rules(br, parent, out);
                sb_putc(out, ')');
            } else {
                sb_puts(out, " (no rule applies)");
            }
        }
        put_count(out, count);
        sb_putc(out, '\n');
        brief_children(br, i, level + 1, false);
        return;
    }
    case TR_TABLE: {
        /* table_text writes its own newline: put the count before it */
        strbuf line = { 0 };
        table_text(env, e, true, &line);
        if (line.len && line.s[line.len - 1] == '\n')
            line.s[--line.len] = '\0';
        sb_puts(out, sb_str(&line));
        if (line.oom)
            sb_fail(out);
        sb_free(&line);
        put_count(out, count);
        sb_putc(out, '\n');
        return;
    }
    }
}

/* The whole log as trace_brief (why_not false) or trace_why_not (true) write it. */
static void brief_log(const val_env *env, const trace_log *t, bool why_not, strbuf *out)
{
    if (t->len == 0) {
        sb_puts(out, "(no query was asked and no table was read)\n");
        return;
    }
    val_env menv;
    trace_memo *memo = trace_memo_new(env, &menv);
    brief br = {
        &menv, t, out, NULL, NULL, why_not, UINT32_MAX, mem_calloc(1, sizeof(checked_memo))
    };
    if (!index_tree(&br))
        sb_fail(out);
    else
        brief_children(&br, SIZE_MAX, 0, true);
    mem_free(br.end);
    mem_free(br.hash);
    checked_memo_free(br.checked);
    trace_memo_free(memo);
    if (t->truncated)
        sb_printf(out, "(trace truncated after %d entries)\n", TRACE_MAX_ENTRIES);
}

void trace_brief(const val_env *env, const trace_log *t, strbuf *out)
{
    brief_log(env, t, false, out);
}

void trace_why_not(const val_env *env, const trace_log *t, strbuf *out)
{
    brief_log(env, t, true, out);
}

void trace_why_not_at(const val_env *env, const trace_log *t, size_t i, uint32_t levels,
                      strbuf *out)
{
    if (i >= t->len || (t->e[i].kind != TR_CALL && t->e[i].kind != TR_EVENT))
        return;
    val_env menv;
    trace_memo *memo = trace_memo_new(env, &menv);
    brief br = { &menv, t, out, NULL, NULL, true, levels, mem_calloc(1, sizeof(checked_memo)) };
    if (!index_tree(&br))
        out->oom = true;
    else
        brief_entry(&br, i, 1, 0, true);
    mem_free(br.end);
    mem_free(br.hash);
    checked_memo_free(br.checked);
    trace_memo_free(memo);
}

/* ---- the rules that fired ---- */

static int cmp_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void trace_fired(const val_env *env, const trace_log *t, bool tree, strbuf *out)
{
    const res_program *p = env->p;
    char **lines = mem_calloc(t->len ? t->len : 1, sizeof *lines);
    size_t n = 0;
    if (!lines) {
        sb_fail(out);
        return;
    }
    for (size_t i = 0; i < t->len; i++) {
        const trace_ent *e = &t->e[i];
        if (e->kind != TR_RULE || e->unfired || p->queries[p->rules[e->id].query].is_event)
            continue;
        strbuf line = { 0 };
        if (tree)
            sb_printf(&line, "%" PRIu32 " ", e->depth);
        sb_puts(&line, p->rules[e->id].name);
        sb_puts(&line, " = ");
        put_arg(env, e->result, &line, true);
        if (!(lines[n++] = sb_take(&line)))
            sb_fail(out);
    }
    if (!out->oom && !tree)
        qsort(lines, n, sizeof *lines, cmp_lines);
    for (size_t i = 0; i < n; i++) {
        if (!out->oom && (tree || i == 0 || strcmp(lines[i], lines[i - 1]) != 0)) {
            sb_puts(out, lines[i]);
            sb_putc(out, '\n');
        }
    }
    for (size_t i = 0; i < n; i++)
        mem_free(lines[i]);
    mem_free(lines);
}
