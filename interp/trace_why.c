/* trace_why.c — what a rule's guard found, recorded while tracing and put in words (see
 * trace.h). While the VM traces, a rule runs its explained chunk (compile.c
 * comp_rule_explained; chunk.h chunk_conj describes each operand of its guard), whose
 * GUARD_SIDES and GUARD_FAILED instructions (vm.c) land here, in the rule's trace entry;
 * trace_reason and trace_reason_json word them for the complete trace, `why not` (trace.c's
 * trace_why_not) and JSON; trace_refusal finds the call that refused. Tests: test_why.c.
 */
#include <inttypes.h>
#include <string.h>

#include "trace.h"

/* The entry of the rule of chunk ch that is running: the entry open one level up, when it is
 * that rule's; else NULL (it was not recorded). */
static trace_ent *running_rule(trace_log *t, const chunk *ch)
{
    if (!t->depth || t->open_lost || t->depth - 1 >= t->open_cap)
        return NULL;
    size_t i = t->open[t->depth - 1];
    if (i >= t->len)
        return NULL;
    trace_ent *e = &t->e[i];
    return e->kind == TR_RULE && e->why == ch && e->depth + 1 == t->depth ? e : NULL;
}

void trace_guard_sides(trace_log *t, val_arena *a, const chunk *ch, uint32_t k, val left, val right)
{
    trace_ent *e = running_rule(t, ch);
    if (!e || k >= ch->nconj)
        return;
    if (!e->sides) {
        e->sides = arena_alloc(a, ch->nconj * sizeof *e->sides);
        if (!e->sides)
            return; /* the arena's limit: the trace says less, the answer is the same */
        memset(e->sides, 0, ch->nconj * sizeof *e->sides);
    }
    e->sides[k] = (trace_sides){ left, right, true };
}

void trace_guard_failed(trace_log *t, const chunk *ch, uint32_t k)
{
    trace_ent *e = running_rule(t, ch);
    if (e && k < ch->nconj)
        e->failed = k;
}

/* ` (L = 1, R = 2)`: the sides of guard operand k of e that are not literals, as compared;
 * nothing when its text says them: an `==` with a literal side that held. */
static void sides_text(const val_env *env, const trace_ent *e, uint32_t k, bool brief, strbuf *out)
{
    const chunk *ch = e->why;
    const chunk_conj *c = &ch->conj[k];
    bool operand_held = !e->unfired || k != e->failed;
    if (!c->compare || !e->sides || !e->sides[k].set ||
        (c->eq_literal && operand_held != c->negated))
        return;
    const char *names[2] = { chunk_conj_text(ch, c->left), chunk_conj_text(ch, c->right) };
    const val vals[2] = { e->sides[k].left, e->sides[k].right };
    const char *sep = " (";
    for (int s = 0; s < 2; s++) {
        if (!names[s])
            continue;
        sb_puts(out, sep);
        sb_puts(out, names[s]);
        sb_puts(out, " = ");
        trace_value(env, vals[s], brief ? TRACE_BRIEF : TRACE_WHOLE, out);
        sep = ", ";
    }
    if (sep[0] == ',')
        sb_putc(out, ')');
}

void trace_reason(const val_env *env, const trace_ent *e, bool brief, bool since, strbuf *out)
{
    const chunk *ch = e->why;
    if (e->kind != TR_RULE || !ch || !ch->nconj)
        return;
    if (e->unfired) {
        if (e->failed >= ch->nconj)
            return;
        const chunk_conj *c = &ch->conj[e->failed];
        const char *text = chunk_conj_text(ch, c->text);
        if (c->unless)
            sb_printf(out, ": unless %s held", text ? text : "its exception");
        else
            sb_printf(out, ": %s was false", text ? text : "its guard");
        sides_text(env, e, e->failed, brief, out);
        return;
    }
    if (!since)
        return;
    /* it fired: every operand held; an exception (`unless`) that did not hold goes unsaid */
    const char *sep = ", since ";
    for (uint32_t k = 0; k < ch->nconj; k++) {
        const char *text = chunk_conj_text(ch, ch->conj[k].text);
        if (ch->conj[k].unless || !text)
            continue;
        sb_puts(out, sep);
        sb_puts(out, text);
        sides_text(env, e, k, brief, out);
        sep = " and ";
    }
}

/* `{"text": T, "unless": b, "passed": b, "sides": [{"text": S, "value": V}...]}` of guard
 * operand k of e; passed: the guard went on past it (it held; `unless E`: E did not). */
static void operand_json(const val_env *env, const trace_ent *e, uint32_t k, strbuf *out)
{
    const chunk *ch = e->why;
    const chunk_conj *c = &ch->conj[k];
    sb_puts(out, "{\"text\": ");
    sb_json_str(out, chunk_conj_text(ch, c->text));
    sb_puts(out, c->unless ? ", \"unless\": true" : ", \"unless\": false");
    sb_puts(out, !e->unfired || k != e->failed ? ", \"passed\": true" : ", \"passed\": false");
    sb_puts(out, ", \"sides\": [");
    if (c->compare && e->sides && e->sides[k].set) {
        const uint32_t names[2] = { c->left, c->right };
        const val vals[2] = { e->sides[k].left, e->sides[k].right };
        const char *sep = "";
        for (int s = 0; s < 2; s++) {
            if (!chunk_conj_text(ch, names[s]))
                continue;
            sb_puts(out, sep);
            sb_puts(out, "{\"text\": ");
            sb_json_str(out, chunk_conj_text(ch, names[s]));
            sb_puts(out, ", \"value\": ");
            trace_value(env, vals[s], TRACE_JSON, out);
            sb_putc(out, '}');
            sep = ", ";
        }
    }
    sb_puts(out, "]}");
}

void trace_reason_json(const val_env *env, const trace_ent *e, strbuf *out)
{
    const chunk *ch = e->why;
    sb_puts(out, ", \"guard\": ");
    if (e->kind != TR_RULE || !ch || !ch->nconj || (e->unfired && e->failed >= ch->nconj)) {
        sb_puts(out, "null");
        return;
    }
    if (e->unfired)
        sb_printf(out, "{\"failed\": %" PRIu32, e->failed);
    else
        sb_puts(out, "{\"failed\": null");
    sb_puts(out, ", \"operands\": [");
    uint32_t n = e->unfired ? e->failed + 1 : (uint32_t)ch->nconj;
    for (uint32_t k = 0; k < n; k++) {
        if (k)
            sb_puts(out, ", ");
        operand_json(env, e, k, out);
    }
    sb_puts(out, "]}");
}

size_t trace_refusal(const val_env *env, const trace_log *t)
{
    /* the shallowest such call, the last of those: the one the asker checked, not a forbid
     * that a rule of it asked on its way */
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < t->len; i++) {
        const trace_ent *e = &t->e[i];
        if (e->kind == TR_CALL && e->done && e->result.u.i == 0 &&
            env->p->queries[e->id].mode == AST_COMBINE_PERMISSION &&
            (best == SIZE_MAX || e->depth <= t->e[best].depth))
            best = i;
    }
    return best;
}
