/* outcome.h — what a procedure changed, in sum, as text: the outcomes of `odds do` (odds.c
 * groups a procedure's paths by it) and the items they share. Read from the effect log
 * (play.h) before the records are reverted: the records grouped by what they change, each group
 * compared from its first record's state before to the state now. vm.md §11.
 */
#ifndef HON_OUTCOME_H
#define HON_OUTCOME_H

#include "play.h"
#include "value.h"

/* Appends to out what the records g->log[from ..) changed, in sum: one item per thing changed
 * ("give $a suppressed 2", "move $a to C4", "flip $e to wreck", "set $e.speed = 3", "destroy
 * $a", "place wreck at C4", "clock: turn 2, command phase"...), in the order they were first
 * changed, joined by "; ", leaving out changes undone by later ones; "no change" when nothing
 * is left. env names the values (its scene is g's). Call before reverting them. */
void outcome_text(const val_env *env, const play *g, size_t from, strbuf *out);
/* Appends to out the items (of "; "-separated outcome texts) that each of the n texts has, in
 * the order of the first, joined by "; "; nothing when n < 2. */
void outcome_common(const char *const *texts, size_t n, strbuf *out);
/* Appends to out the items of text that are not among the items of common; "nothing more"
 * when none is left. */
void outcome_rest(const char *text, const char *common, strbuf *out);

#endif
