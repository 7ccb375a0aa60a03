/* trace.h — what an evaluation did: every query call (nested), each rule that fired with its
 * answer and citations, the default when it was used, and each call's combined answer.
 *
 * The VM's query driver (vm.c) appends entries in pre-order with a depth; a rule that did not
 * fire is rolled back with everything it called. trace.c renders the log as indented text
 * (`why` in the REPL) and as JSON. Values are borrowed from the evaluation's arena: render
 * before the arena is reset.
 */
#ifndef HON_TRACE_H
#define HON_TRACE_H

#include "value.h"

#define TRACE_MAX_ENTRIES 100000

typedef enum trace_kind { TR_CALL, TR_RULE, TR_DEFAULT } trace_kind;

typedef struct trace_ent {
    trace_kind kind;
    uint32_t depth;
    uint32_t id;            /* query id (TR_CALL, TR_DEFAULT) or rule id (TR_RULE) */
    val *args;              /* TR_CALL: the arguments (arena) */
    uint32_t nargs;
    val result;
    bool done;              /* result is set */
} trace_ent;

typedef struct trace_log {
    trace_ent *e;
    size_t len, cap;
    uint32_t depth;
    bool truncated;         /* entries were dropped past TRACE_MAX_ENTRIES */
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

/* Indented text, one line per entry:
 *   speed_penalty(order{...}, 0) = 1   [first]
 *     rule speed_penalty.numbered: 1   (BRO.5.speed-penalty: BRO 5, Speed Penalty, "4th case")
 */
void trace_text(const res_program *p, const trace_log *t, strbuf *out);
/* A JSON array of call objects:
 *   {"query": q, "mode": m, "args": [...], "result": v,
 *    "rules": [{"rule": r, "answer": v, "cites": [{"id","source","example"}], "calls": [...]}],
 *    "default": {"answer": v, "calls": [...]}}   (default only when it was used) */
void trace_json(const res_program *p, const trace_log *t, strbuf *out);

#endif
