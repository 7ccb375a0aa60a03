/* search.h — what variants.c uses of search.c: a search for a witness run without printing,
 * and what it found (docs/spec/repl.md §5, `diff --search` and `diff --variants`).
 */
#ifndef HON_SEARCH_H
#define HON_SEARCH_H

#include "questions.h"

/* What a quiet search found. */
typedef struct search_found {
    bool found;       /* a witness */
    bool none_can;    /* no query the search would ask can answer differently: none asked */
    int w, h;         /* the witness's size */
    char *call;       /* new: the witness's call, "line_of_sight($u1, $u2)" */
    char *answer[2];  /* new: its answers under the two settings */
    bool swept;       /* the boards allowed were made, none showing one, within the time */
    size_t boards;    /* boards made */
    size_t questions; /* calls asked */
    double seconds;   /* spent looking */
} search_found;

/* hon_diff_search of sessions a and b under o, printing nothing (o->witness is not written),
 * making at most `boards` boards (0: as many as o->seconds allows; the first search_sweep
 * boards are the same whatever the machine's speed): what it found into *res
 * (search_found_free it, whatever the status). Errors as hon_diff_search's. Both sessions'
 * boards are dropped. */
hon_status search_quiet(hon_vm *a, hon_vm *b, const hon_search_options *o, size_t boards,
                        search_found *res);
/* How many boards a search up to max_size x max_size (0: 6; at most 12) makes of the sizes in
 * order before it takes sizes at random: every size up to it, the smallest area first, 8
 * boards each (192 up to 5 x 5). */
size_t search_sweep(unsigned max_size);
void search_found_free(search_found *f);

#endif
