/* strbuf.c — the growable string of strbuf.h.
 *
 * The buffer doubles as it grows (from 64 bytes) through the mem_realloc funnel. Once memory
 * runs out or the limit is reached, every later append is refused, so a writer need not check
 * each call: it looks at `oom` or `truncated` once, at the end.
 */
#include "strbuf.h"

#include <stdarg.h>
#include <stdbool.h>
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

/* Whether one of the eight bytes of w may need escaping in a JSON string: a byte below 0x20,
 * '"' or '\\' (the "has a zero byte" test of w ^ the byte repeated, and the "has a byte below
 * n" test for n = 0x20; neither misses a byte; bytes from 0x80 up go as they are). */
static inline bool word_may_escape(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t q = w ^ (ones * '"'), bs = w ^ (ones * '\\');
    return (((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((bs - ones) & ~bs)) & highs;
}

void sb_json_str(strbuf *b, const char *s)
{
    if (!s) {
        sb_puts(b, "null");
        return;
    }
    sb_putc(b, '"');
    /* runs of plain characters copied whole, found eight bytes at a time: a JSON trace
     * escapes some 20,000 characters of names, texts and citations (bench.md §11) */
    const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
    const unsigned char *run = p; /* characters copied as they are */
    while (p < end) {
        if (end - p >= 8) {
            uint64_t w;
            memcpy(&w, p, sizeof w);
            if (!word_may_escape(w)) {
                p += 8;
                continue;
            }
        }
        for (const unsigned char *stop = end - p >= 8 ? p + 8 : end; p < stop; p++) {
            if (*p >= 0x20 && *p != '"' && *p != '\\')
                continue;
            sb_putn(b, (const char *)run, (size_t)(p - run));
            run = p + 1;
            switch (*p) {
            case '"': sb_puts(b, "\\\""); break;
            case '\\': sb_puts(b, "\\\\"); break;
            case '\n': sb_puts(b, "\\n"); break;
            case '\r': sb_puts(b, "\\r"); break;
            case '\t': sb_puts(b, "\\t"); break;
            default: sb_printf(b, "\\u%04x", *p);
            }
        }
    }
    sb_putn(b, (const char *)run, (size_t)(end - run));
    sb_putc(b, '"');
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
