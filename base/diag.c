/* diag.c — the diagnostics list, its source table and the compiler-style renderer.
 *
 * Reports are collected in a diag_list (never printed-and-exited); diag_render quotes the
 * source line from the diag_sources table and underlines the span. The rendered layout is
 * pinned by tests/dsl/test_diag.c and every file of tests/golden/; codes are registered in
 * docs/spec/errors.md.
 */
/* wcwidth (the display width of a character) is XSI: glibc declares it with _XOPEN_SOURCE */
#define _XOPEN_SOURCE 700
#include "diag.h"

#include <locale.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "mem.h"

/* Tabs in quoted lines are expanded to this stop so the caret line lines up with them. */
enum {
    TAB_STOP = 8,
    GUTTER_MIN = 5,
    QUOTE_MAX = 200,   /* a longer line is quoted in part (bytes) */
    QUOTE_BEFORE = 60, /* context kept before the span in such a part (bytes) */
    WORD_MAX = 120,    /* a longer word of a message (a name, a path) is cut (bytes)... */
    WORD_HEAD = 80,    /* ...to its first bytes, an ellipsis... */
    WORD_TAIL = 24,    /* ...and its last bytes, so that a closing quote stays */
    MESSAGE_MAX = 4000 /* a longer message is cut there, an ellipsis ending it (bytes) */
};

/* The ellipsis that marks what a message leaves out (UTF-8 U+2026). */
static const char ellipsis[] = "\xE2\x80\xA6";

/* Stands in for a message when memory runs out; never freed. */
static const char oom_text[] = "(out of memory while reporting this diagnostic)";

static void free_msg(char *m)
{
    if (m != oom_text)
        mem_free(m);
}

/* ---------------------------------------------------------------- sources */

/* Registers path and text (copied unless borrow) as a new entry. */
static uint32_t sources_put(diag_sources *s, const char *path, const char *text, size_t len,
                            bool borrow)
{
    if (s->len == UINT32_MAX - 1)
        return UINT32_MAX;
    if (s->len == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 8;
        if (cap > UINT32_MAX / 2 || cap < s->cap)
            return UINT32_MAX;
        void *files = mem_realloc(s->files, (size_t)cap * sizeof *s->files);
        if (!files)
            return UINT32_MAX;
        s->files = files;
        s->cap = cap;
    }
    if (!text)
        len = 0;
    char *p = mem_strdup(path ? path : "");
    char *t = borrow && text ? (char *)text : mem_strndup(text ? text : "", len);
    if (!p || !t) {
        mem_free(p);
        if (t != text)
            mem_free(t);
        return UINT32_MAX;
    }
    s->files[s->len].path = p;
    s->files[s->len].text = t;
    s->files[s->len].len = len;
    s->files[s->len].borrowed = t == text;
    s->files[s->len].seen_line = 0;
    s->files[s->len].seen_off = 0;
    return s->len++;
}

uint32_t diag_sources_add(diag_sources *s, const char *path, const char *text, size_t len)
{
    return sources_put(s, path, text, len, false);
}

uint32_t diag_sources_borrow(diag_sources *s, const char *path, const char *text, size_t len)
{
    return sources_put(s, path, text, len, true);
}

bool diag_sources_own(diag_sources *s, uint32_t id)
{
    if (!s || id >= s->len || !s->files[id].borrowed)
        return true;
    char *t = mem_strndup(s->files[id].text, s->files[id].len);
    if (!t)
        return false;
    s->files[id].text = t;
    s->files[id].borrowed = false;
    return true;
}

/* Frees what entry i owns. */
static void entry_free(diag_sources *s, uint32_t i)
{
    mem_free(s->files[i].path);
    if (!s->files[i].borrowed)
        mem_free(s->files[i].text);
}

void diag_sources_trim(diag_sources *s, uint32_t len)
{
    while (s->len > len) {
        s->len--;
        entry_free(s, s->len);
    }
}

void diag_sources_free(diag_sources *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->len; i++)
        entry_free(s, i);
    mem_free(s->files);
    s->files = NULL;
    s->len = s->cap = 0;
}

/* ---------------------------------------------------------------- list */

void diag_list_init(diag_list *l, diag_sources *sources)
{
    memset(l, 0, sizeof *l);
    l->sources = sources;
}

void diag_list_clear(diag_list *l)
{
    for (size_t i = 0; i < l->len; i++) {
        free_msg(l->items[i].message);
        free_msg(l->items[i].related_message);
    }
    mem_free(l->items);
    l->items = NULL;
    l->len = l->cap = 0;
    l->errors = 0;
    l->full = false;
}

bool diag_list_keeps(const diag_list *l)
{
    return !l->full && l->len < DIAG_LIST_MAX;
}

/* Where a UTF-8 character starts at or before byte i of s (never before `floor`), looking back
 * at most three bytes (a character's longest run of continuation bytes): in bytes that are no
 * UTF-8, a run of continuation bytes, i itself. Unbounded, a word of such bytes went back to its
 * first byte, so that its "shortened" form (head, ellipsis, tail) outgrew the word and
 * diag_shorten wrote past the message (fuzz_scenario, sitting 16). */
static size_t char_start(const char *s, size_t i, size_t floor)
{
    for (size_t k = 0; k < 3 && i > floor && ((unsigned char)s[i] & 0xC0) == 0x80; k++)
        i--;
    return i;
}

size_t diag_shorten(char *s)
{
    size_t n = strlen(s), w = 0;
    for (size_t r = 0; r < n;) {
        size_t len = strcspn(s + r, " \t\n");
        if (len > WORD_MAX) {
            size_t head = char_start(s + r, WORD_HEAD, 0);
            size_t tail = char_start(s + r, len - WORD_TAIL, head);
            memmove(s + w, s + r, head);
            w += head;
            memcpy(s + w, ellipsis, sizeof ellipsis - 1);
            w += sizeof ellipsis - 1;
            memmove(s + w, s + r + tail, len - tail);
            w += len - tail;
        } else {
            memmove(s + w, s + r, len);
            w += len;
        }
        r += len;
        size_t gap = strspn(s + r, " \t\n");
        memmove(s + w, s + r, gap);
        w += gap;
        r += gap;
    }
    if (w > MESSAGE_MAX) {
        w = char_start(s, MESSAGE_MAX - (sizeof ellipsis - 1), 0);
        memcpy(s + w, ellipsis, sizeof ellipsis - 1);
        w += sizeof ellipsis - 1;
    }
    s[w] = '\0';
    return w;
}

/* A new formatted string, shortened (diag_shorten), or oom_text. */
static char *vformat(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return (char *)oom_text; /* shared and never written: see free_msg */
    char *m = mem_malloc((size_t)n + 1);
    if (!m)
        return (char *)oom_text;
    vsnprintf(m, (size_t)n + 1, fmt, ap);
    diag_shorten(m);
    return m;
}

/* The message of the diagnostic that ends a full list. */
static char *format_cap(void)
{
    char buf[80];
    snprintf(buf, sizeof buf, "too many diagnostics (%d): the rest are not shown", DIAG_LIST_MAX);
    char *m = mem_strdup(buf);
    return m ? m : (char *)oom_text;
}

diag *diag_vreport(diag_list *l, int code, diag_severity sev, src_loc loc, const char *fmt,
                   va_list ap)
{
    /* The error is counted even if it cannot be stored: callers rely on `errors`. */
    if (sev == DIAG_ERROR)
        l->errors++;
    if (l->full)
        return NULL;
    if (l->len == DIAG_LIST_MAX) {
        l->full = true;
        if (MEM_GROW(l->items, l->len, l->cap)) {
            diag *d = &l->items[l->len++];
            *d = (diag){ .code = E_TOO_MANY_ERRORS, .severity = DIAG_ERROR, .loc = loc };
            d->message = format_cap();
        }
        return NULL;
    }
    if (!MEM_GROW(l->items, l->len, l->cap))
        return NULL;
    diag *d = &l->items[l->len++];
    memset(d, 0, sizeof *d);
    d->code = code;
    d->severity = sev;
    d->loc = loc;
    d->message = vformat(fmt, ap);
    return d;
}

diag *diag_report(diag_list *l, int code, diag_severity sev, src_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag *d = diag_vreport(l, code, sev, loc, fmt, ap);
    va_end(ap);
    return d;
}

void diag_relate(diag *d, src_loc loc, const char *fmt, ...)
{
    if (!d)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *m = vformat(fmt, ap);
    va_end(ap);
    free_msg(d->related_message);
    d->has_related = true;
    d->related = loc;
    d->related_message = m;
}

/* ---------------------------------------------------------------- rendering */

const char *diag_code_label(int code, char *buf, size_t cap)
{
    if (code > DIAG_LINT_BASE)
        snprintf(buf, cap, "W%03d", code - DIAG_LINT_BASE);
    else
        snprintf(buf, cap, "E%03d", code);
    return buf;
}

static const char *sev_word(diag_severity s)
{
    switch (s) {
    case DIAG_WARNING: return "warning";
    case DIAG_NOTE: return "note";
    case DIAG_ERROR:
    default: return "error";
    }
}

/* Finds line `line` (from 1) of file f; returns false when the text has no such line. The line
 * excludes its '\n' and a '\r' before it. The scan starts where the last one ended when that
 * was an earlier line (diagnostics come mostly in order): quoting a file's diagnostics is
 * linear in the file, not in the file times their number. */
static bool find_line(diag_sources *src, uint32_t file, uint32_t line, const char **start,
                      size_t *n)
{
    const char *text = src->files[file].text;
    size_t len = src->files[file].len;
    if (line == 0)
        return false;
    uint32_t l = 1;
    size_t i = 0;
    if (src->files[file].seen_line && src->files[file].seen_line <= line) {
        l = src->files[file].seen_line;
        i = src->files[file].seen_off;
    }
    for (; l < line; l++) {
        const char *nl = memchr(text + i, '\n', len - i);
        if (!nl)
            return false;
        i = (size_t)(nl - text) + 1;
    }
    src->files[file].seen_line = line;
    src->files[file].seen_off = i;
    if (i == len && line > 1)
        return false; /* the empty "line" after a final newline is not quoted */
    const char *nl = memchr(text + i, '\n', len - i);
    size_t e = nl ? (size_t)(nl - text) : len;
    if (e > i && text[e - 1] == '\r')
        e--;
    *start = text + i;
    *n = e - i;
    return true;
}

/* The C library's UTF-8 locale, made once (newlocale; NULL when the system has none), for
 * wcwidth: the caret under a line holding wide characters (a CJK ideograph, most emoji take two
 * columns of a terminal, a combining accent none) must count the columns they take. The
 * process's own locale is left as it is: the width is asked under this one (uselocale). */
static locale_t utf8_locale(void)
{
    static _Atomic(locale_t) made;
    static atomic_bool failed;
    locale_t l = atomic_load(&made);
    if (l || atomic_load(&failed))
        return l;
    locale_t mine = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (!mine) {
        atomic_store(&failed, true);
        return NULL;
    }
    locale_t none = (locale_t)0;
    if (!atomic_compare_exchange_strong(&made, &none, mine)) { /* another thread made it */
        freelocale(mine);
        return none;
    }
    return mine;
}

/* The display width of the UTF-8 character whose lead byte is s[0] (n bytes from s): wcwidth's
 * (0, 1 or 2) in the UTF-8 locale; 1 when it is not a valid character, not printable, or the
 * system has no UTF-8 locale. */
static unsigned char_width(const char *s, size_t n)
{
    locale_t l = utf8_locale();
    if (!l)
        return 1;
    locale_t old = uselocale(l);
    wchar_t wc;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t k = mbrtowc(&wc, s, n, &st);
    int w = k > 0 && k <= n ? wcwidth(wc) : -1;
    uselocale(old);
    return w < 0 ? 1 : (unsigned)w;
}

/* How many display columns byte s[0] (n bytes from s) takes at display column v: tabs reach
 * the next stop, a UTF-8 character its width (char_width) at its lead byte and none at its
 * continuation bytes, everything else one. */
static unsigned width_at(const char *s, size_t n, unsigned v)
{
    unsigned char c = (unsigned char)s[0];
    if (c == '\t')
        return TAB_STOP - v % TAB_STOP;
    if (c >= 0x80 && c < 0xC0)
        return 0;
    if (c >= 0xC0)
        return char_width(s, n);
    return 1;
}

unsigned diag_text_width(const char *s, size_t n)
{
    unsigned v = 0;
    for (size_t i = 0; i < n; i++)
        v += s[i] == '\t' ? 1 : width_at(s + i, n - i, v);
    return v;
}

/* Writes one quoted line with tabs expanded and control bytes shown as '?'. */
static void put_line(const char *s, size_t n, FILE *out)
{
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        unsigned w = width_at(s + i, n - i, v);
        if (c == '\t')
            fprintf(out, "%*s", (int)w, "");
        else if (c < 0x20 || c == 0x7F)
            fputc('?', out);
        else
            fputc(c, out);
        v += w;
    }
}

/* Display column where byte offset `off` of the line starts (off may pass the end). */
static unsigned display_col(const char *s, size_t n, size_t off)
{
    unsigned v = 0;
    for (size_t i = 0; i < off; i++)
        v += i < n ? width_at(s + i, n - i, v) : 1;
    return v;
}

static unsigned digits(uint32_t x)
{
    unsigned d = 1;
    while (x >= 10) {
        x /= 10;
        d++;
    }
    return d;
}

/* The part of a long line that is quoted: a window of about QUOTE_MAX bytes that shows the
 * span's start with some context before it, on UTF-8 character boundaries. */
static void quote_window(const char *s, size_t n, size_t first, size_t *from, size_t *to)
{
    *from = 0;
    *to = n;
    if (n <= QUOTE_MAX)
        return;
    size_t a = first > QUOTE_BEFORE ? first - QUOTE_BEFORE : 0;
    if (a > n)
        a = n > QUOTE_MAX ? n - QUOTE_MAX : 0;
    while (a > 0 && ((unsigned char)s[a] & 0xC0) == 0x80)
        a--;
    size_t b = a + QUOTE_MAX < n ? a + QUOTE_MAX : n;
    while (b < n && ((unsigned char)s[b] & 0xC0) == 0x80)
        b++;
    *from = a;
    *to = b;
}

/* One block: the header line, then the quoted line and the caret line when available. A line
 * longer than QUOTE_MAX bytes is quoted in part, "..." marking what is left out. */
static void render_block(diag_sources *src, src_loc loc, diag_severity sev, int code,
                         const char *msg, FILE *out)
{
    const char *path = "<unknown>";
    bool have_text = false;
    if (src && loc.file < src->len) {
        path = src->files[loc.file].path;
        have_text = src->files[loc.file].text != NULL;
    }
    /* No position (a file that cannot be read, memory running out): no made-up 0:0 and no
     * quoted line; the message says what it is about (repl.md §3). */
    if (loc.line == 0)
        fprintf(out, "hon: %s", sev_word(sev));
    else
        fprintf(out, "%s:%u:%u: %s", path, (unsigned)loc.line, (unsigned)loc.col, sev_word(sev));
    char label[16];
    if (code > 0)
        fprintf(out, "[%s]", diag_code_label(code, label, sizeof label));
    fprintf(out, ": %s\n", msg ? msg : "");

    const char *ls;
    size_t ln;
    if (!have_text || loc.col == 0 || !find_line(src, loc.file, loc.line, &ls, &ln))
        return;
    /* The span on this line: from col to end_col (inclusive) or to the end of the line when
     * it continues below; an empty span (end before start) gets a lone caret. */
    size_t first = (size_t)loc.col - 1;
    size_t last = first;
    if (loc.end_line > loc.line)
        last = ln > first ? ln - 1 : first;
    else if (loc.end_line == loc.line && loc.end_col > loc.col)
        last = (size_t)loc.end_col - 1;
    diag_quote(out, loc.line, ls, ln, first, last);
}

void diag_quote(FILE *out, uint32_t lineno, const char *ls, size_t ln, size_t first, size_t last)
{
    size_t from, to;
    if (last < first)
        last = first;
    quote_window(ls, ln, first, &from, &to);
    const char *cut = from > 0 ? "..." : "";
    int gw = (int)(digits(lineno) > GUTTER_MIN ? digits(lineno) : GUTTER_MIN);
    fprintf(out, "%*u |", gw, (unsigned)lineno);
    if (ln) {
        fprintf(out, " %s", cut);
        put_line(ls + from, to - from, out);
        if (to < ln)
            fputs("...", out);
    }
    fputc('\n', out);
    if (last >= to && to < ln)
        last = to > first ? to - 1 : first;
    unsigned v0 = (unsigned)strlen(cut) + display_col(ls + from, to - from, first - from);
    unsigned v1 = (unsigned)strlen(cut) + display_col(ls + from, to - from, last + 1 - from);
    fprintf(out, "%*s | %*s^", gw, "", (int)v0, "");
    for (unsigned v = v0 + 1; v < v1; v++)
        fputc('~', out);
    fputc('\n', out);
}

void diag_render(const diag_list *l, const diag *d, FILE *out)
{
    diag_sources *src = l ? l->sources : NULL;
    render_block(src, d->loc, d->severity, d->code, d->message, out);
    if (d->has_related)
        render_block(src, d->related, DIAG_NOTE, 0, d->related_message, out);
}

void diag_render_all(const diag_list *l, FILE *out)
{
    for (size_t i = 0; i < l->len; i++)
        diag_render(l, &l->items[i], out);
}
