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

/* The combined chunk of query q over the rule set rs (the rule ids' chunks in `rules`, the
 * query's default chunk or NULL), new and owned by the caller; NULL when the query cannot be
 * combined (an event, no rule and no default to run alone, a rule that runs a procedure's
 * instruction, rolls dice or names a board unit, a chunk not in the compiler's shape) or memory
 * ran out: the driver then runs the rules one by one. A `sum` query's default is copied first
 * (the driver starts from it); a `first`, `min` or `max` query's last (RULE_ELSE or RULE_NEXT
 * goes on into it when no rule answered); an `all`, `any` or `permission` query's never runs
 * (its mode's constant answers when no rule does). */
chunk *comb_query(const res_program *p, chunk *const *rules, chunk *const *fns, int32_t ed,
                  const chunk *dflt, uint32_t q, const res_ruleset *rs);

#endif
