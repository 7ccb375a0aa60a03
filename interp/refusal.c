/* refusal.c — a `require` that refused (see refusal.h): what it asked, the rule that forbade,
 * and the rules that fired inside that rule (asking the query again, traced), as the E228
 * message and as vm_ctx.refusal. Reads the trace log of trace.h; runs queries through vm.h.
 */
#include "refusal.h"

#include <stdio.h>
#include <string.h>

#include "mem.h"

#define INSIDE_MAX 6  /* rules named after "through" */
#define FIRED_MAX  64 /* rules inside whose citations narrow the deciding rule's (deciding_cites) */

/* The rules that fired toward the refusal below the deciding rule: every one, not only the
 * INSIDE_MAX named, up to FIRED_MAX. */
typedef struct fired_rules {
    uint32_t id[FIRED_MAX];
    bool leaf[FIRED_MAX]; /* no rule fired toward the refusal below it (where it fired once) */
    size_t n;
} fired_rules;

void refusal_cites(const res_program *p, const bool *in_play, uint32_t rule, strbuf *b)
{
    if (rule >= p->nrules)
        return;
    const ast_vec *cites = &p->rules[rule].decl->cites;
    bool all = model_cites_none_in_play(p, in_play, cites); /* then all, and said so */
    for (uint32_t i = 0, shown = 0; i < cites->len; i++)
        if (all || model_cite_in_play(p, in_play, cites->items[i]))
            sb_printf(b, "%s%s", shown++ ? ", " : "",
                      model_cite_id(cites->items[i]) ? model_cite_id(cites->items[i]) : "?");
    if (all)
        sb_puts(b, "; " MODEL_NOT_IN_PLAY);
}

/* Whether trace entry e is a rule that fired with the answer that decides its query when it
 * is the asked-for refusal's way: `true` in an `any` query, `forbid` in a `permission` one. */
static bool fired_toward(const res_program *p, const trace_ent *e)
{
    if (e->kind != TR_RULE || !e->done || e->unfired || e->id >= p->nrules)
        return false;
    const res_query *q = &p->queries[p->rules[e->id].query];
    return (q->mode == AST_COMBINE_ANY && e->result.u.i) ||
           (q->mode == AST_COMBINE_PERMISSION && !e->result.u.i);
}

/* Whether rule r of p cites the inventory ID id. */
static bool rule_cites(const res_program *p, uint32_t r, const char *id)
{
    const ast_vec *cites = &p->rules[r].decl->cites;
    for (uint32_t i = 0; i < cites->len; i++) {
        const char *c = model_cite_id(cites->items[i]);
        if (c && strcmp(c, id) == 0)
            return true;
    }
    return false;
}

/* Appends to b, ", "-joined, the citations of rule `rule` that a rule of f cites too (only
 * its leaves when leaves); returns how many. */
static size_t shared_cites(const res_program *p, const bool *in_play, uint32_t rule,
                           const fired_rules *f, bool leaves, strbuf *b)
{
    const ast_vec *cites = &p->rules[rule].decl->cites;
    size_t shown = 0;
    for (uint32_t i = 0; i < cites->len; i++) {
        if (!model_cite_in_play(p, in_play, cites->items[i]))
            continue;
        const char *c = model_cite_id(cites->items[i]);
        bool used = false;
        for (size_t k = 0; c && k < f->n && !used; k++)
            used = f->id[k] != rule && (!leaves || f->leaf[k]) && rule_cites(p, f->id[k], c);
        if (used)
            sb_printf(b, "%s%s", shown++ ? ", " : "", c);
    }
    return shown;
}

/* Appends to b, ", "-joined, the citations of the deciding rule `rule` that apply to this
 * refusal: a rule that stands for several clauses (step_allowed.after_a_stop: a trench, a
 * Difficult Passage, a Zone of Control) cites them all, and the rules that fired inside it say
 * which branch decided, by citing the same clause (must_stop.difficult_passage:
 * PRESUMED.difficult_passage_stops). So its citations that the innermost rules of f (its
 * leaves: side_impassable.wall under can_cross.impassable_side) cite too; else those any rule
 * of f cites; else all of them (rev16a D3). */
static void deciding_cites(const res_program *p, const bool *in_play, uint32_t rule,
                           const fired_rules *f, strbuf *b)
{
    if (rule >= p->nrules)
        return;
    if (shared_cites(p, in_play, rule, f, true, b) == 0 &&
        shared_cites(p, in_play, rule, f, false, b) == 0)
        refusal_cites(p, in_play, rule, b);
}

/* Appends to cond what the guard of the deciding rule `rule` found, in the call traced at
 * entry `top` ("A and B (B = 2)": trace_reason without its leading ", since "), and to b,
 * "name (cites)" joined by ", ", the rules that fired toward the refusal below that rule's
 * entry: each once, at most INSIDE_MAX; f gets them all (up to FIRED_MAX). */
static void inside_rules(const vm_ctx *x, size_t top, uint32_t rule, strbuf *b, strbuf *cond,
                         fired_rules *f)
{
    const trace_log *t = &x->trace;
    const res_program *p = x->p;
    if (top >= t->len)
        return;
    uint32_t d = t->e[top].depth;
    size_t at = t->len;
    for (size_t i = top + 1; i < t->len && t->e[i].depth > d; i++)
        if (t->e[i].depth == d + 1 && t->e[i].kind == TR_RULE && t->e[i].id == rule)
            at = i;
    if (at < t->len) {
        const val_env env = { p, x->sc, NULL, NULL };
        strbuf why = { 0 };
        trace_reason(&env, &t->e[at], true, true, &why);
        const char *w = sb_str(&why);
        sb_puts(cond, strncmp(w, ", since ", 8) == 0 ? w + 8 : w);
        sb_free(&why);
    }
    size_t n = 0;
    for (size_t i = at + 1; i < t->len && t->e[i].depth > d + 1 && f->n < FIRED_MAX; i++) {
        const trace_ent *e = &t->e[i];
        if (!fired_toward(p, e))
            continue;
        bool leaf = true; /* no rule fired toward the refusal inside this one */
        for (size_t j = i + 1; j < t->len && t->e[j].depth > e->depth && leaf; j++)
            leaf = !fired_toward(p, &t->e[j]);
        bool dup = false;
        for (size_t k = 0; k < f->n; k++)
            if (f->id[k] == e->id) {
                f->leaf[k] = f->leaf[k] || leaf;
                dup = true;
            }
        if (dup)
            continue;
        f->leaf[f->n] = leaf;
        f->id[f->n++] = e->id;
        if (n == INSIDE_MAX)
            continue;
        n++;
        sb_printf(b, "%s%s (", n > 1 ? ", " : "", p->rules[e->id].name);
        refusal_cites(p, model_edition_modules(p, x->edition), e->id, b);
        sb_putc(b, ')');
    }
}

/* Asks q again on args, traced, with no driver (no lines written) and the dice put back
 * after, and writes into b the rules that fired inside `rule`, into cond what its guard found
 * and into f every rule that fired inside (inside_rules); the trace is left as it was. */
static void ask_again(vm_ctx *x, uint32_t q, const val *args, uint32_t n, uint32_t rule, strbuf *b,
                      strbuf *cond, fired_rules *f)
{
    const vm_driver *driver = x->driver;
    bool tracing = x->tracing;
    size_t mark = x->trace.len;
    uint32_t depth = x->trace.depth;
    dice_src dice = x->dice ? *x->dice : (dice_src){ 0 };
    size_t dice_pos = x->dice_pos;
    vm_error err = x->err;
    uint64_t steps = state_steps(x);
    chunk *const *rules = x->rules;
    x->driver = NULL;
    x->tracing = true;
    state_inline_update(x);
    x->rules = x->pg->explained; /* the guards that say what they found (state.h) */
    val v;
    uint32_t again;
    if (vm_ask(x, q, args, n, &v, &again))
        inside_rules(x, mark, rule, b, cond, f);
    x->trace.len = mark;
    x->trace.depth = depth;
    x->tracing = tracing;
    state_inline_update(x);
    x->rules = rules;
    x->driver = driver;
    if (x->dice)
        *x->dice = dice;
    x->dice_pos = dice_pos;
    x->err = err;
    state_set_steps(x, steps);
}

void refusal_explain(vm_ctx *x, uint32_t q, const val *args, uint32_t n, uint32_t rule,
                     strbuf *cites, strbuf *inside)
{
    strbuf cond = { 0 };
    fired_rules fired = { .n = 0 };
    if (rule < x->p->nrules)
        ask_again(x, q, args, n, rule, inside, &cond, &fired);
    deciding_cites(x->p, model_edition_modules(x->p, x->edition), rule, &fired, cites);
    sb_free(&cond);
}

/* Writes into dst (cap bytes) the refusal in plain words: the first sentence (up to the first
 * ". ", or the whole text) of the doc of the rule at the bottom of the refusal, the first rule
 * of f that fired toward it with none below it (a leaf), else `rule`: what a player reads
 * (rev20 X5: "no Order Token", not the names of the rules). "" when that rule has no doc. */
static void refusal_plain(const res_program *p, uint32_t rule, const fired_rules *f, char *dst,
                          size_t cap)
{
    uint32_t bottom = rule;
    for (size_t k = 0; k < f->n; k++)
        if (f->leaf[k]) {
            bottom = f->id[k];
            break;
        }
    const char *doc =
        bottom < p->nrules && p->rules[bottom].decl ? p->rules[bottom].decl->doc : NULL;
    if (!doc || !cap) {
        if (cap)
            dst[0] = '\0';
        return;
    }
    const char *end = strstr(doc, ". ");
    size_t n = end ? (size_t)(end - doc) + 1 : strlen(doc);
    snprintf(dst, cap, "%.*s", (int)(n < cap ? n : cap - 1), doc);
}

/* Copies text into a fixed buffer, cut to fit. */
static void put_field(char *dst, size_t cap, const char *text)
{
    snprintf(dst, cap, "%s", text ? text : "");
}

bool refusal_fail(vm_ctx *x, uint32_t q, const val *args, uint32_t n, uint32_t rule,
                  const char *what)
{
    const res_program *p = x->p;
    const val_env env = { p, x->sc, NULL, NULL };
    val *copy = n ? state_alloc(x, n * sizeof *copy) : NULL;
    if (n && !copy)
        return false;
    if (n)
        memcpy(copy, args, n * sizeof *copy);
    strbuf call = { 0 }, cites = { 0 }, inside = { 0 }, cond = { 0 };
    sb_printf(&call, "%s(", p->queries[q].name);
    for (uint32_t i = 0; i < n; i++) {
        sb_puts(&call, i ? ", " : "");
        val_print(&env, copy[i], &call);
    }
    sb_putc(&call, ')');
    fired_rules fired = { .n = 0 };
    if (rule < p->nrules)
        ask_again(x, q, copy, n, rule, &inside, &cond, &fired);
    deciding_cites(p, model_edition_modules(p, x->edition), rule, &fired, &cites);
    vm_refusal *r = &x->refusal;
    r->set = true;
    put_field(r->call, sizeof r->call, sb_str(&call));
    put_field(r->what, sizeof r->what, what);
    put_field(r->rule, sizeof r->rule, rule < p->nrules ? p->rules[rule].name : "");
    put_field(r->cites, sizeof r->cites, sb_str(&cites));
    put_field(r->inside, sizeof r->inside, sb_str(&inside));
    put_field(r->condition, sizeof r->condition, sb_str(&cond));
    refusal_plain(p, rule, &fired, r->plain, sizeof r->plain);
    state_fail(x, E_REFUSED, "refused%s%s: %s forbids %s%s%s%s%s%s%s%s%s%s", what ? ": " : "",
               what ? what : "", rule < p->nrules ? p->rules[rule].name : "a rule", r->call,
               r->cites[0] ? " (" : "", r->cites, r->cites[0] ? ")" : "",
               r->condition[0] ? ", since " : "", r->condition, r->inside[0] ? "; through " : "",
               r->inside, r->plain[0] ? "; in plain words: " : "", r->plain);
    sb_free(&call);
    sb_free(&cites);
    sb_free(&inside);
    sb_free(&cond);
    return false;
}
