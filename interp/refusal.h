/* refusal.h — a `require` that refused (language.md §6.3, E228): the message naming the query
 * asked, the rule whose forbid decided with its citations, and the rules of the queries it
 * asked that fired toward the refusal and what the deciding rule's guard found (why-not
 * traces, trace_reason), found by asking the query again traced; kept in
 * vm_ctx.refusal for hon_last_refusal. Called by proc.c (the vm_driver's refuse), over vm.h.
 */
#ifndef HON_REFUSAL_H
#define HON_REFUSAL_H

#include "vm.h"

/* Fails the evaluation with E228 for a `require` whose verdict query q answered forbid on the
 * n args (borrowed; they may lie on the VM's stack): rule is the rule whose forbid decided
 * (UINT32_MAX: none fired, which a forbid never is), what the require's text or NULL. Fills
 * x->refusal. The query is asked again, traced, without a driver and on the same dice, to find
 * the rules inside; nothing it does is kept. Always returns false. */
bool refusal_fail(vm_ctx *x, uint32_t q, const val *args, uint32_t n, uint32_t rule,
                  const char *what);
/* Explains why verdict query q forbade the n args (borrowed) by rule `rule` (the rule whose
 * forbid decided), for a refusal that is reported, not failed (a board's set-up: interp/view.c,
 * E318-E320): appends to cites the deciding rule's citations that apply (those the rules inside
 * it cite too, else all of them, as for E228) and to inside "name (cites)", ", "-joined, the
 * rules of the queries it asked that fired toward the forbid (at most 6; nothing when none
 * did). The query is asked again, traced, in x's running session, with no driver and on the
 * same dice; nothing it does is kept, and an error while asking again is dropped (inside stays
 * empty). The caller frees both buffers. */
void refusal_explain(vm_ctx *x, uint32_t q, const val *args, uint32_t n, uint32_t rule,
                     strbuf *cites, strbuf *inside);
/* Appends the citations of rule `rule` of p to b, ", "-joined (nothing for an unknown rule):
 * those of books in play (model_cite_in_play, in_play: model_edition_modules of the edition the
 * refusal was made under; NULL: all). */
void refusal_cites(const res_program *p, const bool *in_play, uint32_t rule, strbuf *b);

#endif
