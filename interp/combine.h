/* combine.h — a query's rules in one chunk, the combination done inline (vm.md §5a).
 *
 * The query driver (calls.c vm_call_query) runs a query's active rules one by one, each in a frame of
 * its own, and combines their answers in C. Untraced, when no one asks which rule decided, it
 * runs instead the query's *combined* chunk: the code of every rule, in order, copied into one
 * chunk (each rule's lets and hidden slots in locals of their own, the parameters shared), with
 * each rule's RETURN turned into RULE_ACC (the answer combined into an accumulator, or returned
 * when it decides) and its NO_ANSWER into RULE_NEXT (on to the next rule). One frame for the
 * whole query; the same instructions run, one for one, so the steps charged, the answers and
 * the errors (their spans, and E207's chunk name: chunk_name_at) are the per-rule run's. A
 * traced run keeps the per-rule driver, so the trace sees every rule as before.
 */
#ifndef HON_COMBINE_H
#define HON_COMBINE_H

#include "chunk.h"
#include "model.h"

/* How deep the copies of fns and queries nest in one combined chunk (inlining, vm.md §5a): a
 * copy is made inside at most COMB_MAX_DEPTH - 1 others, so code of the chunk runs at most
 * COMB_MAX_DEPTH calls deeper than the chunk's frame. */
#define COMB_MAX_DEPTH 4

/* What combining reads of the program it builds for (program.c fills it in; kept apart from
 * prog so that this file needs nothing of program.h): the resolved program; the chunk of each
 * rule, fn and query default by index (NULL: none, or not compiled yet under a lazy build),
 * arrays whose entries may be filled in while combining but which never move; and `ready`,
 * which compiles query q's rules and default when they are not yet (ctx passed back; false:
 * memory ran out, the query is then called, not copied). All borrowed for the call. */
typedef struct comb_source {
    const res_program *res;
    chunk *const *rules;
    chunk *const *fns;
    chunk *const *defaults;
    bool (*ready)(const void *ctx, uint32_t q);
    const void *ctx;
} comb_source;

/* The combined chunk of query q of program pg over the rule set rs (the rules' chunks, the
 * query's default and the fns' are pg's), new and owned by the caller; NULL when the query
 * cannot be combined (an event, no rule and no default to run alone, a rule that runs a
 * procedure's instruction, rolls dice or names a board unit, a chunk not in the compiler's
 * shape) or memory ran out: the driver then runs the rules one by one. A `sum` query's default
 * is copied first (the driver starts from it); a `first`, `min` or `max` query's last (RULE_ELSE
 * or RULE_NEXT goes on into it when no rule answered); an `all`, `any` or `permission` query's
 * never runs (its mode's constant answers when no rule does). Small fns its rules call (under
 * edition ed: -1 the top-level rules) are copied at their calls, and so are the rules of small
 * `any`, `all` and `first` queries they call (vm.md §5a); a query they call whose rules are not
 * compiled yet (pg built lazily) is made ready first (src->ready). */
chunk *comb_query(const comb_source *src, int32_t ed, uint32_t q, const res_ruleset *rs);

#endif
