/* near.c — edit distance and the nearest-candidate search of near.h ("did you mean"). */
#include "near.h"

#include <stdint.h>
#include <string.h>

/* Longer names are never suggested nor corrected (the distance is not computed). */
enum {
    NEAR_MAX = 128
};

size_t near_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na > NEAR_MAX || nb > NEAR_MAX)
        return SIZE_MAX;
    size_t row[NEAR_MAX + 1];
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t corner = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j];
            size_t best = corner + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            corner = up;
        }
    }
    return row[nb];
}

void near_begin(near_search *s, const char *want)
{
    size_t n = want ? strlen(want) : 0;
    s->want = want ? want : "";
    s->want_len = n;
    s->limit = n <= 3 ? 1 : (n / 5 > 2 ? n / 5 : 2);
    s->best = SIZE_MAX;
    s->found = NULL;
}

void near_offer(near_search *s, const char *candidate)
{
    if (!candidate)
        return;
    /* The distance is at least the difference of the lengths: a candidate whose length is too
     * far off is passed over without the quadratic comparison (most are, in a long list). */
    size_t nw = s->want_len, nc = strlen(candidate);
    if ((nw > nc ? nw - nc : nc - nw) > s->limit || strcmp(candidate, s->want) == 0)
        return;
    /* a name of one or two letters is one substitution from any other of its length: such a
     * "slip" says nothing (`x` is no slip for `A`); a letter dropped or doubled still is */
    if (nw <= 2 && nc == nw)
        return;
    size_t k = near_distance(s->want, candidate);
    if (k <= s->limit && k < s->best) {
        s->best = k;
        s->found = candidate;
    }
}

const char *near_result(const near_search *s)
{
    return s->found;
}
