/* trace.h — what an evaluation did: every query call (nested), each rule that was checked
 * (with its answer and citations when it fired, and what its guard found: which operand was
 * false when it did not, the values its comparisons compared), the default when it was used,
 * each call's combined answer, and every table lookup with the table's and the row's
 * citations; in a traced procedure, every event that ran, its rules and the lines their
 * blocks wrote.
 *
 * The query driver (vm.c) and the event driver (proc.c) append entries in pre-order with a
 * depth; a rule that did not fire stays as one entry marked unfired, and everything its guard
 * and lets asked is rolled back. While tracing for a form that words guards (the complete
 * trace, the reasons, the JSON: state_trace_guards), rules run their explained chunks (chunk.h
 * chunk_conj, compile.c), whose GUARD_SIDES and GUARD_FAILED instructions record into the
 * rule's entry. A rendering keeps a memo of the values, hashes and rule citations it has
 * written (trace_render.h trace_memo): a line's shot and rules recur on each of its steps.
 * trace.c renders the log as indented text, complete (`why full`), brief (`why`: repl.md §2b)
 * or as the reasons of what did not fire (`why not`: repl.md §2c); trace_json.c as JSON;
 * trace_why.c records and words the guards. Values are borrowed from the evaluation's arena:
 * render before the arena is reset.
 */
#ifndef HON_TRACE_H
#define HON_TRACE_H

#include "chunk.h"
#include "value.h"

#define TRACE_MAX_ENTRIES 100000
#define TRACE_BRIEF_WIDTH 40 /* characters of a value in a brief trace */

/* TR_EVENT: an event run by a procedure (id: its query id, args: its arguments); its rules
 * are TR_RULE entries one level deeper, and what a rule's block asked and raised (queries,
 * lookups, events) one level deeper still. */
typedef enum trace_kind {
    TR_CALL,
    TR_RULE,
    TR_DEFAULT,
    TR_TABLE,
    TR_EVENT
} trace_kind;

/* The two values a comparison operand of a guard compared (GUARD_SIDES). */
typedef struct trace_sides {
    val left, right;
    bool set; /* the operand was evaluated */
} trace_sides;

typedef struct trace_ent {
    trace_kind kind;
    uint32_t depth;
    uint32_t id; /* query id (TR_CALL, TR_DEFAULT), rule id (TR_RULE), table id */
    val *args;   /* TR_CALL: the arguments; TR_TABLE: the keys (arena) */
    uint32_t nargs;
    val result;
    bool done;          /* result is set */
    bool unfired;       /* TR_RULE: checked, its `when` was false (no result) */
    bool no_rule;       /* TR_CALL, TR_EVENT: no rule fired (a call's answer is then the
                               default or the mode's) */
    uint32_t row, col;  /* TR_TABLE: the row read, the column (UINT32_MAX: whole row) */
    const char *out;    /* TR_RULE of an event: the lines its block wrote (arena), or NULL */
    uint32_t out_len;   /* bytes of out */
    uint32_t effects;   /* how many of those lines are effects (the others are dice
                               rolls and notes) */
    const chunk *why;   /* TR_RULE: the chunk the rule ran (borrowed from the program): while
                           tracing its explained one, whose conj describe its guard */
    uint32_t failed;    /* TR_RULE that did not fire: the operand of why->conj that was false,
                           UINT32_MAX when not known (no explained chunk ran) */
    trace_sides *sides; /* TR_RULE: per operand of why->conj, what a comparison compared
                           (arena), or NULL when no comparison of the guard was evaluated */
} trace_ent;

typedef struct trace_log {
    trace_ent *e;
    size_t len, cap;
    uint32_t depth;
    bool truncated; /* entries were dropped past TRACE_MAX_ENTRIES */
    size_t *open;   /* open[d]: the entry opened at depth d and not closed yet, SIZE_MAX when it
                       was not recorded; valid below depth */
    size_t open_cap;
    bool open_lost; /* memory ran out for `open`: guards are no longer recorded */
} trace_log;

/* Forgets every entry (keeps the memory). Inline: every evaluation starts with it. */
static inline void trace_reset(trace_log *t)
{
    t->len = 0;
    t->depth = 0;
    t->truncated = false;
    t->open_lost = false;
}
void trace_free(trace_log *t);
/* Opens an entry at the current depth and goes one level deeper. Copies the nargs arguments
 * into the arena. Returns the entry's index, or SIZE_MAX when it was not recorded (cap, OOM). */
size_t trace_open(trace_log *t, val_arena *a, trace_kind k, uint32_t id, const val *args,
                  uint32_t nargs);
/* trace_open of a TR_RULE entry for the rule of chunk ch (borrowed: the chunk it runs), whose
 * guard operations then record into that entry (trace_guard_sides, trace_guard_failed). */
size_t trace_open_rule(trace_log *t, const chunk *ch);
/* GUARD_SIDES: the rule of chunk ch, running now (its entry is the one open one level up),
 * compared left and right in guard operand k; kept in its entry (an array of the arena).
 * Nothing is recorded when that entry is not ch's (not recorded: past the cap, OOM). */
void trace_guard_sides(trace_log *t, val_arena *a, const chunk *ch, uint32_t k, val left,
                       val right);
/* GUARD_FAILED: guard operand k of the running rule of chunk ch was false. */
void trace_guard_failed(trace_log *t, const chunk *ch, uint32_t k);
/* Sets the result of entry i (SIZE_MAX: ignored) and comes back one level. */
void trace_close(trace_log *t, size_t i, val result);
/* Drops every entry from `mark` (the log length before the trace_open) and comes back. */
void trace_drop(trace_log *t, size_t mark);
/* A rule opened at entry i (SIZE_MAX: not recorded; mark: the log length before it) did not
 * fire: keeps its entry marked unfired, drops what it asked, and comes back. */
void trace_unfired(trace_log *t, size_t i, size_t mark);
/* A part of a combined chunk run traced (a rule, or a `sum` query's default: answer.h) has its
 * entry made when it ends, so that a rule that did not fire costs one entry and no frame:
 * trace_enter goes one level deeper for what the part asks (the log's length before it is its
 * mark). trace_leave_fired comes back and puts the part's entry before what it asked, at mark:
 * kind TR_RULE (id: ch's rule, why: ch) or TR_DEFAULT (id: the query, ch NULL), answering
 * result, as trace_open and trace_close record it; past the cap (or on OOM) what the part asked
 * is dropped too. trace_leave_unfired comes back, drops what the rule asked and records it as
 * trace_unfired does. trace_leave_failed, when the part failed (an error), puts its entry at
 * mark, at `depth` (the log's depth before trace_enter), as trace_open left it (no result),
 * and leaves the log's depth as the error left it, as the rules one by one leave the log. */
void trace_enter(trace_log *t);
void trace_leave_fired(trace_log *t, size_t mark, trace_kind k, uint32_t id, const chunk *ch,
                       val result);
void trace_leave_unfired(trace_log *t, size_t mark, const chunk *ch);
void trace_leave_failed(trace_log *t, size_t mark, uint32_t depth, trace_kind k, uint32_t id,
                        const chunk *ch);
/* Entry i (SIZE_MAX: ignored), an event's rule that fired, wrote the n bytes of lines (one
 * per effect or note, each ending in '\n'; copied into the arena), `effects` of them effects. */
void trace_output(trace_log *t, val_arena *a, size_t i, const char *lines, size_t n,
                  uint32_t effects);
/* Records a table lookup at the current depth: the keys (copied into the arena), the row, the
 * column (UINT32_MAX: the whole row) and the value read. */
void trace_lookup(trace_log *t, val_arena *a, uint32_t table, const val *keys, uint32_t nkeys,
                  uint32_t row, uint32_t col, val value);

/* The complete trace as indented text, one line per entry (docs/spec/vm.md §6):
 *   speed_penalty(order{...}, 0) = 1   [first]
 *     rule speed_penalty.fast: did not fire   (BRO.5.speed-penalty.fast)
 *     rule speed_penalty.numbered: 1   (BRO.5.speed-penalty: BRO 5, Speed Penalty, "4th case")
 *       table penalty[2] = 1   (BRO.5.table; row: EX.BRO.5)
 * and, when no rule fired, a closing line saying where the answer came from ("no rule
 * forbids: permit (checked a, b)", "default: 0 (no rule fired; checked a)").
 */
void trace_text(const val_env *env, const trace_log *t, strbuf *out);
/* The brief trace (repl.md §2b, what `why` prints): a top-level call with every rule checked
 * and its closing line, as trace_text; below it only the rules that fired, recursively, each
 * with its answer and citations; a nested call (or event) that no rule answered is one line
 * (`f(x) = 2   (no rule fired: checked a, b)`); identical siblings (same entry, same arguments
 * and answer, the same subtree) are printed once with a count (`   ×5`); records, lists and
 * sets printed longer than TRACE_BRIEF_WIDTH characters are cut to their first items
 * (`shot{from: B6, to: D2, …}`). Events print as `event e(args)`, their rules with the number
 * of effects their blocks made. Sets out->oom when memory runs out. */
void trace_brief(const val_env *env, const trace_log *t, strbuf *out);
/* The rules of the queries that fired anywhere in the log, each with its answer as the brief
 * trace prints it: "q.rule = ANSWER", one per line; each once and sorted (hon_answer_fired),
 * or with `tree` every time it fired, in the log's order, after its depth in the log ("3
 * q.rule = ANSWER"), so that what fired inside a rule follows it, deeper. Sets out->oom when
 * memory runs out. */
void trace_fired(const val_env *env, const trace_log *t, bool tree, strbuf *out);
/* The reasons (repl.md §2c, what `why not` prints): each call and event of the log with
 * every rule it checked, at every depth — a rule that did not fire with the guard operand
 * that was false and the values it compared (`rule q.r: did not fire: x > 0 was false (x =
 * 0)   (cites)`, `did not fire: unless has(u, engineer) held`), a rule that fired with its
 * answer and the guard that held (`rule q.r: forbid, since has(sq, wreck)   (cites)`) — and
 * each call's closing line when no rule answered it; no table lookups, no event lines.
 * Identical siblings are counted and values cut as in trace_brief. Sets out->oom when memory
 * runs out. */
void trace_why_not(const val_env *env, const trace_log *t, strbuf *out);
/* The reasons of entry i alone (a TR_CALL or TR_EVENT: trace_why_not's lines for it, from
 * its own line down to `levels` levels below it; 1: its rules only) at indent 0. This is how
 * a refusal is told: the call that answered `forbid` (trace_refusal) with the rule that
 * forbade, its citations and its guard that held, and the exceptions that did not fire with
 * the operand that was false. */
void trace_why_not_at(const val_env *env, const trace_log *t, size_t i, uint32_t levels,
                      strbuf *out);
/* The refusal in the log: the shallowest call entry of a `permission` query that answered
 * forbid (the last of those in the log's order), or SIZE_MAX when there is none. A move
 * checked by permission queries (may it leave, cross, enter) is refused where one answers
 * forbid: trace_why_not_at(env, t, trace_refusal(env, t), 1, out) tells which rule forbade it
 * and why. What a rule that did not fire asked is not in the log: when the forbid decided
 * another rule's guard (`when can_enter(u, sq) == permit`), that rule's entry says only the
 * value compared (`can_enter(u, sq) = forbid`); ask the permission query itself, traced, to
 * tell its rules. */
size_t trace_refusal(const val_env *env, const trace_log *t);
/* After `rule q.r: ` and its answer or `did not fire` (the rule entry e): what its guard found,
 * in words — `: X was false (X = 1)` or `: unless E held` for a rule that did not fire,
 * `, since A and B (B = 2)` for one that fired (with `since`: else nothing) — values cut as in
 * trace_brief when `brief`. Nothing when the entry has no explained guard. Used by the
 * complete trace (not fired) and trace_why_not (both). */
void trace_reason(const val_env *env, const trace_ent *e, bool brief, bool since, strbuf *out);
/* `, "guard": G` of a rule entry's JSON object: G is null when the rule ran no explained
 * guard, else `{"failed": OPERAND or null, "operands": [OPERAND...]}` over the operands that
 * were evaluated, in order (all of them when it fired; up to the false one when it did not),
 * each `{"text": "x > 0", "unless": false, "held": false, "sides": [{"text": "x", "value":
 * 0}]}` (sides: the comparison's sides that are not literals; [] for another operand). */
void trace_reason_json(const val_env *env, const trace_ent *e, strbuf *out);
/* How trace_value prints a value. */
typedef enum trace_form {
    TRACE_WHOLE, /* as the complete trace: whole, "..." past 4 KiB */
    TRACE_BRIEF, /* cut to about TRACE_BRIEF_WIDTH characters, as trace_brief */
    TRACE_JSON   /* as JSON, null when too long */
} trace_form;
/* Appends v to out as traces print it, in the given form; sets out->oom when memory runs
 * out. Values are borrowed. */
void trace_value(const val_env *env, val v, trace_form form, strbuf *out);
/* A JSON array of call and lookup objects:
 *   {"query": q, "mode": m, "args": [...], "result": v, "no_rule_fired": b,
 *    "rules": [{"rule": r, "fired": b, "answer": v, "cites": [{"id","source","example"}],
 *               "guard": {...} (trace_reason_json), "calls": [...]}],
 *    "default": {"answer": v, "calls": [...]}}   (default only when it was used)
 *   {"table": t, "keys": [...], "column": c or null, "value": v, "cites": [...],
 *    "row_cites": [...]}
 *   {"event": e, "args": [...], "no_rule_fired": b,
 *    "rules": [{"rule": r, "fired": b, "effects": n, "lines": [...], "cites": [...],
 *               "guard": {...}, "calls": [...]}]}   (calls: the queries, lookups and events
 *               of its block) */
void trace_json(const val_env *env, const trace_log *t, strbuf *out);

/* Whether a citation's source text ends with the word "example" or "examples" (`Bloody Omaha
 * 2, Special Deployment, example`): the example's name then follows it directly, instead of
 * after a second "example". Borrows s. */
bool trace_source_ends_with_example(const char *s);

#endif
