/* colour.h — the colours a picture may be asked to paint in: the one test that the language's
 * `colour "…"` (dsl/front.c, E017) and a scenario's `colour` line (runtime/scenario.c, E301)
 * share, so that both accept the same forms and draw never writes a fill SVG does not know.
 */
#ifndef HON_COLOUR_H
#define HON_COLOUR_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the n bytes at s (borrowed, not NUL-terminated necessarily) are a colour: `#rrggbb`
 * (exactly six hexadecimal digits) or one of SVG 1.1's 147 colour keywords ("olive",
 * "darkseagreen"; ASCII case ignored, as CSS does). Anything else, "#fff" and "none" included,
 * is not. No rule: pictures only (board.md §5). */
bool colour_valid(const char *s, size_t n);

/* The keyword nearest the n bytes at s by edit distance, close enough to be a slip ("olivee":
 * "olive"), or NULL. The string returned is static. */
const char *colour_near(const char *s, size_t n);

#endif
