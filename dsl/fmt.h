/* fmt.h — the canonical layout of .hon text (`hon fmt`, docs/spec/format.md).
 *
 * fmt.c re-lays a file's tokens and comments: spacing, indentation, blank lines, table columns
 * and trailing-comment columns, keeping every line break and every comment of the author. Its
 * token kinds mirror grammar/lexer.l; interp/format.c checks the output against the input.
 */
#ifndef HON_FMT_H
#define HON_FMT_H

#include <stdbool.h>
#include <stddef.h>

/* A layout may take at most FMT_MAX_GROWTH times the input's bytes plus FMT_MAX_EXTRA: the
 * author's lines are kept, but indentation and table columns could otherwise grow a hostile
 * text quadratically (every line indented under a long run of brackets). */
enum {
    FMT_MAX_GROWTH = 16,
    FMT_MAX_EXTRA = 4096
};

/* Lays out the .hon text (len bytes, need not be NUL-terminated) in the canonical layout.
 * Returns a new string (owned by the caller, mem_free) of *out_len bytes, ending with one
 * newline unless it is empty; NULL on OOM, or with *too_long set when the layout would pass
 * the limit above. The text should parse (front_parse_file): for text that does not, the
 * result is defined but not meaningful. */
char *fmt_layout(const char *text, size_t len, size_t *out_len, bool *too_long);

/* Whether two .hon texts hold the same tokens and comments in the same order (a comment's
 * trailing blanks aside): what fmt_layout must keep, so the program and its comments are those
 * of the input. */
bool fmt_same_tokens(const char *a, size_t alen, const char *b, size_t blen);

#endif
