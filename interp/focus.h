/* focus.h — where two settings of the same rules can part, read from the compiled program
 * without asking anything: the rules, fns, tables and variant readings that differ between
 * them, the queries whose answers can depend on those (through the calls between rules, fns
 * and queries), and the vocabulary (terrain, square and side features, interspace items, unit
 * kinds) that the rules where they part read. search.c asks only those queries and makes its
 * boards mostly of that vocabulary; variants.c asks only those queries. docs/spec/repl.md §5.
 */
#ifndef HON_FOCUS_H
#define HON_FOCUS_H

#include "session.h"

/* The vocabulary lists a focus names members of, in the order of search.c's vocabulary. */
enum {
    FOCUS_TERRAIN,
    FOCUS_SQUARE,
    FOCUS_SIDE,
    FOCUS_ITEM,
    FOCUS_KIND,
    FOCUS_LISTS
};

typedef struct focus {
    const prog *pg; /* borrowed: the program of the first session */
    const res_program *p;
    int32_t ed[2]; /* the two settings' editions */
    size_t nq;
    bool *query; /* per query: whether its answers can differ (and, with rules named, whether it
                    can run one of them) */
    bool *reads[FOCUS_LISTS]; /* per member of each list's enum: read by the rules targeted */
    size_t nreads[FOCUS_LISTS];
    /* what differs between the settings, and what calls it (focus_chunk) */
    bool *variant, *table, *fn, *differs;
    bool every; /* the counters differ: anything can */
} focus;

/* Works out where the settings of sessions a and b (the same rules: hon_vm_copy, each with its
 * setting applied; borrowed until focus_free) can part. The rules *targeted* are those named
 * in rules[0..nrules) (full names, "query.rule"; every version of each), or with none named
 * every rule that differs between the settings or calls, at any depth, something that does;
 * with rules named, only the queries that can run one of them (at any depth) count as able to
 * differ. HON_OK or HON_ERR_MEMORY; f is always initialised (focus_free it). */
hon_status focus_build(focus *f, hon_vm *a, hon_vm *b, const char *const *rules, size_t nrules);
void focus_free(focus *f);
/* Whether query q (an id of f->p) can answer differently under the two settings. */
bool focus_query(const focus *f, uint32_t q);
/* Whether compiled text ch (a written question, compiled in the first session) can give
 * another value under the other setting: it calls something that differs or a query that can.
 * NULL: false. */
bool focus_chunk(const focus *f, const chunk *ch);
/* Marks, in query[] (one per query of f->p, the seeds marked) and fn[] (one per fn, none
 * marked), every query and fn that calls a seed, at any depth, in either setting's edition. */
void focus_callers(const focus *f, bool *query, bool *fn);
/* Whether chunk ch calls a query or fn marked in query[] and fn[] (as focus_callers leaves
 * them). NULL: false. */
bool focus_chunk_calls(const focus *f, const bool *query, const bool *fn, const chunk *ch);
/* Marks, in query[] and fn[] (as focus_callers takes them, none marked), the queries and fns
 * whose answers may read what differs unseen by vm_ctx.variants_read: those that can call, at
 * any depth, or be, a query that can answer differently and may answer from its table
 * (memo.h: not an event, every parameter a bool or an enum), whose rules then do not run. */
void focus_unseen(const focus *f, bool *query, bool *fn);
/* The variant whose reading alone differs between f's settings (the same edition, one
 * variant's reading), or -1. */
int32_t focus_one_variant(const focus *f);
/* Whether the targeted rules read the member `name` of vocabulary list `list` (FOCUS_*). */
bool focus_reads(const focus *f, int list, const char *name);

#endif
