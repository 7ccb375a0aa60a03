/* diff.h — what search.c uses of diff.c: the rules where two answers part, and two answers
 * with their brief traces side by side (docs/spec/repl.md §5).
 */
#ifndef HON_DIFF_H
#define HON_DIFF_H

#include "questions.h"

#define DIFF_WIDTH 160 /* the default width of the text */

/* The names of the rules that differ between traced answers a and b (either may be NULL):
 * those that fired in one and not the other, or with another answer — but not a rule that,
 * in either trace, encloses another such rule: its answer differs because of that one.
 * Sorted, each once, ", "-separated. A new string, NULL on OOM. */
char *diff_rules_that_differ(const hon_answer *a, const hon_answer *b);
/* Whether the ", "-separated rule names `list` (diff_rules_that_differ's) include one of
 * names[0..n). */
bool diff_rules_include(const char *list, const char *const *names, size_t n);
/* A brief trace without its first line when that line is the setting it was given under
 * ("(under edition strict)"): the columns of a difference already say which setting each side
 * is. Borrowed from why. */
const char *diff_without_setting(const char *why);
/* Writes the two answers (label: answer) on one row and the two brief traces `why` side by
 * side below, in a text `width` characters wide: lines the traces share face each other
 * unmarked, a line replaced by another is marked `|`, one only on the left `<`, only on the
 * right `>`; a long line goes on below, indented. */
void diff_show(strbuf *out, const char *const *label, const char *const *answer,
               const char *const *why, size_t width);

#endif
