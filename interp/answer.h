/* answer.h — how the VM makes a query call's answer outside its rules' code (vm.md §4, §5,
 * §5a): from the query's table of answers (memo.h), by folding its rules' answers by the
 * query's mode (language.md §3.5), or from its default. The dispatch loop (vm.c) calls these
 * out of line, so that its registers stay its own; vm_call_query folds its rules' answers by the
 * same answer_decides.
 */
#ifndef HON_ANSWER_H
#define HON_ANSWER_H

#include <stdbool.h>
#include <stdint.h>

#include "state.h"

/* A call of tabled query q (memo.h) with the arguments args (q's arity, borrowed) answered
 * from its table, as vm_call_query would answer it (the steps its rules took charged to x):
 * true with *out set; false when the driver must run (traced, at the depth limit, not tabled,
 * no answer yet, too few steps or depth left). */
bool answer_tabled(vm_ctx *x, uint32_t q, const val *args, val *out);

/* Whether v, a firing rule's answer to a query of mode `mode` (AST_COMBINE_*), decides it:
 * `min` at the least member of an enum and `max` at the greatest, which no later rule can
 * better (language.md §3.5); the other modes are decided elsewhere. */
bool answer_decides(const res_program *p, uint32_t mode, val v);

/* RULE_ACC's work in a query's combined chunk ch (combine.h): folds the answer v of a rule
 * into the accumulator acc[0] (acc[1]: whether a rule fed it; for `permission`, whether one
 * forbade) by the chunk's mode, as vm_call_query does. 1 when v decides the query (*out set), 0
 * when the rules go on, -1 after E205 (reported at the call: the frame below ch's). */
int answer_fold(vm_ctx *x, const chunk *ch, val *acc, val v, val *out);

/* The combined answer once the last rule of combined chunk ch ran (RULE_ACC_LAST, RULE_END),
 * from its accumulator acc: *answered false when no rule fed it (the driver then answers as
 * after the rules one by one), else *out set. */
void answer_end(const vm_ctx *x, const chunk *ch, const val *acc, val *out, bool *answered);

/* What a call of query q answers when no rule fed its combined chunk's accumulator, as
 * vm_call_query answers it: 1 with *v the constant of the mode (all: true, any: false,
 * permission: permit), 2 when the default's chunk is to run, 0 when there is none (E203). */
int answer_unanswered(const vm_ctx *x, uint32_t q, val *v);

/* The chunk that answers a call of query q by itself when q has no rule under x's edition: its
 * default's (borrowed from the program), when the mode answers with the default then (first,
 * min, max, sum: all, any and permission answer a constant); else NULL (vm_call_query answers). */
const chunk *answer_default_alone(const vm_ctx *x, uint32_t q);

/* A traced evaluation that runs the rules' plain chunks (state_trace_guards false) runs a
 * query's combined chunk too (vm.md §6), and records in x->trace the same entries as running
 * the rules one by one: before the chunk runs, answer_trace_begin opens the entry of its first
 * part (the default's under `sum`, else the first rule's, of rs: q's rules under the edition,
 * borrowed); each rule's exit that goes on or decides (RULE_NEXT, RULE_ACC, RULE_ACC_LAST)
 * calls answer_trace_rule, which closes the part's entry (fired: with v, the rule's own answer;
 * else unfired, what its guard asked dropped) and, when `more`, opens the next part's; after
 * the chunk returned (answered: it gave the answer v), answer_trace_end closes the part still
 * open (under `first`, its RETURN fired it; else it did not fire; when the chunk failed, !ok,
 * its entry stays open as an error leaves a rule run alone) and says whether a rule fired. The caller keeps x->tcomb around the run (a rule's calls run chunks of their own). */
void answer_trace_begin(vm_ctx *x, uint32_t q, const res_ruleset *rs);
void answer_trace_rule(vm_ctx *x, bool fired, val v, bool more);
bool answer_trace_end(vm_ctx *x, bool ok, bool answered, val v);

#endif
