/* variants.h — hon_diff_variants (variants.c) with a count of the work it did, for the tests
 * that bound it (tests/interp/test_diff.c): how many questions were asked under the setting
 * and under the readings, beside the lines it prints. docs/spec/repl.md §5.
 */
#ifndef HON_VARIANTS_H
#define HON_VARIANTS_H

#include "session.h"

/* The questions asked by one `diff --variants` before its searches (not counting the first
 * difference of a reading, asked again to print it): under the setting (once watched, to learn
 * which variants it reads, when a reading first comes to it, and again for each later reading
 * of a variant it read), and under the readings, all of them together. */
typedef struct variants_work {
    size_t setting, reading;
} variants_work;

/* hon_diff_variants, and its work into *work (when not NULL; zeroed first). */
hon_status variants_compare(hon_vm *a, hon_vm *b, const char *setting, const hon_question_set *qs,
                            const hon_search_options *o, FILE *out, size_t *changing,
                            variants_work *work);

#endif
