/* near.h — "did you mean": the candidate nearest a misspelt name, by edit distance.
 *
 * A caller offers every name of the kind it looked for; the nearest one close enough to be a
 * slip of the keyboard is the suggestion. Used by the resolver's unknown-name errors
 * (dsl/expr.c, dsl/cite.c) and by the CLI's lookups of editions, variants and rules.
 */
#ifndef HON_NEAR_H
#define HON_NEAR_H

#include <stddef.h>

/* One search: what was written and the best candidate so far. Fill with near_begin. */
typedef struct near_search {
    const char *want;  /* borrowed */
    size_t want_len;   /* strlen(want) */
    size_t limit;      /* the most edits a suggestion may be away */
    size_t best;       /* the distance of found */
    const char *found; /* borrowed from the candidate offered; NULL: none close enough */
} near_search;

/* The edit distance of a and b (insertions, deletions, substitutions); SIZE_MAX when either is
 * longer than 128 bytes (too long to be a slip worth correcting). */
size_t near_distance(const char *a, const char *b);
/* Starts a search for names near `want` (borrowed until near_result). A name of up to 3 bytes
 * may be 1 edit away, a longer one 2, or a fifth of its length when that is more; a name of 1
 * or 2 bytes is never suggested one of its own length (a substitution there is no slip). */
void near_begin(near_search *s, const char *want);
/* Offers a candidate (borrowed; NULL and want itself are ignored). Ties go to the first. */
void near_offer(near_search *s, const char *candidate);
/* The nearest candidate offered that is close enough, or NULL. */
const char *near_result(const near_search *s);

#endif
