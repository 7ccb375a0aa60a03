/* strbuf.c — the growable string of strbuf.h.
 *
 * The buffer doubles as it grows (from 64 bytes) through the mem_realloc funnel. Once memory
 * runs out or the limit is reached, every later append is refused, so a writer need not check
 * each call: it looks at `oom` or `truncated` once, at the end.
 */
#include "strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"

void sb_fail(strbuf *b)
{
    b->oom = true;
    b->len = 0; /* so no reader pairs sb_str's "" with the old length */
}

static bool sb_reserve(strbuf *b, size_t more)
{
    if (b->oom || b->truncated)
        return false;
    if (b->limit && (more > b->limit || b->len > b->limit - more)) {
        b->truncated = true;
        return false;
    }
    if (b->len + more + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + more + 1) {
        if (cap > SIZE_MAX / 2) {
            sb_fail(b);
            return false;
        }
        cap *= 2;
    }
    char *s = mem_realloc(b->s, cap);
    if (!s) {
        sb_fail(b);
        return false;
    }
    b->s = s;
    b->cap = cap;
    return true;
}

/* Whether n more bytes (and the NUL) fit without growing, nothing was refused and there is no
 * limit to check: the common case of an append, decided without calling sb_reserve. len <= cap
 * always holds (both 0 before the first append), so the subtraction cannot wrap. */
static inline bool sb_room(const strbuf *b, size_t n)
{
    return b->cap - b->len > n && !b->oom && !b->truncated && !b->limit;
}

void sb_putn(strbuf *b, const char *s, size_t n)
{
    if (!sb_room(b, n) && !sb_reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_putc(strbuf *b, char c)
{
    if (!sb_room(b, 1) && !sb_reserve(b, 1))
        return;
    b->s[b->len++] = c;
    b->s[b->len] = '\0';
}
void sb_puts(strbuf *b, const char *s)
{
    if (s)
        sb_putn(b, s, strlen(s));
}

void sb_vprintf(strbuf *b, const char *fmt, va_list ap)
{
    char small[256];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= 0 && (size_t)n < sizeof small)
        sb_putn(b, small, (size_t)n);
    else if (n >= 0 && sb_reserve(b, (size_t)n)) {
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    }
    va_end(again);
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

void sb_json_str(strbuf *b, const char *s)
{
    if (!s) {
        sb_puts(b, "null");
        return;
    }
    sb_putc(b, '"');
    const unsigned char *run = (const unsigned char *)s; /* characters copied as they are */
    for (const unsigned char *c = run;; c++) {
        if (*c >= 0x20 && *c != '"' && *c != '\\')
            continue;
        sb_putn(b, (const char *)run, (size_t)(c - run));
        run = c + 1;
        switch (*c) {
        case '\0': sb_putc(b, '"'); return;
        case '"': sb_puts(b, "\\\""); break;
        case '\\': sb_puts(b, "\\\\"); break;
        case '\n': sb_puts(b, "\\n"); break;
        case '\r': sb_puts(b, "\\r"); break;
        case '\t': sb_puts(b, "\\t"); break;
        default: sb_printf(b, "\\u%04x", *c);
        }
    }
}

const char *sb_str(strbuf *b)
{
    return b->s && !b->oom ? b->s : "";
}

char *sb_take(strbuf *b)
{
    char *s = b->oom ? NULL : b->s;
    if (!s && !b->oom)
        s = mem_strdup("");
    if (b->oom)
        mem_free(b->s);
    *b = (strbuf){ 0 };
    return s;
}

void sb_free(strbuf *b)
{
    mem_free(b->s);
    *b = (strbuf){ 0 };
}
