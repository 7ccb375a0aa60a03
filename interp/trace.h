/* trace.h — what an evaluation did: every query call (nested), each rule that was checked
 * (with its answer and citations when it fired), the default when it was used, each call's
 * combined answer, and every table lookup with the table's and the row's citations; in a
 * traced procedure, every event that ran, its rules and the lines their blocks wrote.
 *
 * The query driver (vm.c) and the event driver (proc.c) append entries in pre-order with a
 * depth; a rule that did not fire stays as one entry marked unfired, and everything its guard
 * and lets asked is rolled back. trace.c renders the log as indented text, complete (`why full`) or
 * brief (`why`: repl.md §2b), and as JSON. Values are borrowed from the evaluation's arena:
 * render before the arena is reset.
 */
#ifndef HON_TRACE_H
#define HON_TRACE_H

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

typedef struct trace_ent {
    trace_kind kind;
    uint32_t depth;
    uint32_t id; /* query id (TR_CALL, TR_DEFAULT), rule id (TR_RULE), table id */
    val *args;   /* TR_CALL: the arguments; TR_TABLE: the keys (arena) */
    uint32_t nargs;
    val result;
    bool done;         /* result is set */
    bool unfired;      /* TR_RULE: checked, its `when` was false (no result) */
    bool no_rule;      /* TR_CALL, TR_EVENT: no rule fired (a call's answer is then the
                               default or the mode's) */
    uint32_t row, col; /* TR_TABLE: the row read, the column (UINT32_MAX: whole row) */
    const char *out;   /* TR_RULE of an event: the lines its block wrote (arena), or NULL */
    uint32_t out_len;  /* bytes of out */
    uint32_t effects;  /* how many of those lines are effects (the others are dice
                               rolls and notes) */
} trace_ent;

typedef struct trace_log {
    trace_ent *e;
    size_t len, cap;
    uint32_t depth;
    bool truncated; /* entries were dropped past TRACE_MAX_ENTRIES */
} trace_log;

/* Forgets every entry (keeps the memory). */
void trace_reset(trace_log *t);
void trace_free(trace_log *t);
/* Opens an entry at the current depth and goes one level deeper. Copies the nargs arguments
 * into the arena. Returns the entry's index, or SIZE_MAX when it was not recorded (cap, OOM). */
size_t trace_open(trace_log *t, val_arena *a, trace_kind k, uint32_t id, const val *args,
                  uint32_t nargs);
/* Sets the result of entry i (SIZE_MAX: ignored) and comes back one level. */
void trace_close(trace_log *t, size_t i, val result);
/* Drops every entry from `mark` (the log length before the trace_open) and comes back. */
void trace_drop(trace_log *t, size_t mark);
/* A rule opened at entry i (SIZE_MAX: not recorded; mark: the log length before it) did not
 * fire: keeps its entry marked unfired, drops what it asked, and comes back. */
void trace_unfired(trace_log *t, size_t i, size_t mark);
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
/* A JSON array of call and lookup objects:
 *   {"query": q, "mode": m, "args": [...], "result": v, "no_rule_fired": b,
 *    "rules": [{"rule": r, "fired": b, "answer": v, "cites": [{"id","source","example"}],
 *               "calls": [...]}],
 *    "default": {"answer": v, "calls": [...]}}   (default only when it was used)
 *   {"table": t, "keys": [...], "column": c or null, "value": v, "cites": [...],
 *    "row_cites": [...]}
 *   {"event": e, "args": [...], "no_rule_fired": b,
 *    "rules": [{"rule": r, "fired": b, "effects": n, "lines": [...], "cites": [...],
 *               "calls": [...]}]}   (calls: the queries, lookups and events of its block) */
void trace_json(const val_env *env, const trace_log *t, strbuf *out);

/* Whether a citation's source text ends with the word "example" or "examples" (`Bloody Omaha
 * 2, Special Deployment, example`): the example's name then follows it directly, instead of
 * after a second "example". Borrows s. */
bool trace_source_ends_with_example(const char *s);

#endif
