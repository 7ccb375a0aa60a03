/* strbuf.h — the one growable string of hon.
 *
 * Every piece of text hon builds (printed values, traces, JSON, effect lines, listings) is
 * appended to a strbuf. Appends never fail visibly: running out of memory or past the limit
 * sets a flag and makes every later append a no-op. strbuf.c holds the code.
 */
#ifndef HON_STRBUF_H
#define HON_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* A zeroed struct is an empty buffer with no limit. */
typedef struct strbuf {
    char *s; /* NUL-terminated once anything was appended; owned */
    size_t len, cap;
    bool oom;       /* memory ran out: the text is lost, len is 0 (sb_take gives NULL) */
    size_t limit;   /* refuse to grow past this many bytes (0: no limit) */
    bool truncated; /* something was refused because of the limit */
} strbuf;

/* Append a byte, a NUL-terminated string (NULL appends nothing), n bytes of s, or a
 * printf-formatted text. */
void sb_putc(strbuf *b, char c);
void sb_puts(strbuf *b, const char *s);
void sb_putn(strbuf *b, const char *s, size_t n);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with a va_list (ap is consumed). */
void sb_vprintf(strbuf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Appends s as a JSON string literal (quoted; quotes, backslashes and control bytes escaped).
 * NULL appends null. */
void sb_json_str(strbuf *b, const char *s);
/* Marks the buffer out of memory: its text is lost (len 0, sb_str gives "", sb_take NULL) and
 * every later append is refused. What a writer calls when something it needed for the text
 * could not be allocated. */
void sb_fail(strbuf *b);
/* The text so far ("" when empty or after OOM); borrowed until the next append. */
const char *sb_str(strbuf *b);
/* Hands the text to the caller (a new string, "" when empty; NULL after OOM); the buffer is
 * empty after. */
char *sb_take(strbuf *b);
/* Frees the text; the buffer is empty (and reusable) after. */
void sb_free(strbuf *b);

#endif
