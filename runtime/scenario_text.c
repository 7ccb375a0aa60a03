/* runtime/scenario_text.c — reading a scenario file's text for the loader: lines split into
 * fields and tokens, names resolved, numbers, squares and compass directions parsed, strings
 * unescaped, and the loader's error list (at most 50 errors, then E314). Shared by pass 1
 * (scenario.c) and pass 2 (scenario_place.c) through scenario_text.h.
 */
#include "scenario_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"

/* Length of the line before its comment ('#' outside a string). */
static size_t code_len(const char *s, size_t len)
{
    bool in_str = false;
    for (size_t i = 0; i < len; i++) {
        if (in_str) {
            if (s[i] == '\\')
                i++;
            else if (s[i] == '"')
                in_str = false;
        } else if (s[i] == '"')
            in_str = true;
        else if (s[i] == '#')
            return i;
    }
    return len;
}

bool text_tok_is(const tok *t, const char *w)
{
    size_t n = strlen(w);
    return (size_t)t->len == n && memcmp(t->s, w, n) == 0;
}

/* Case-insensitive tok_is, for compass directions. */
bool text_tok_is_ci(const tok *t, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)t->len != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = t->s[i];
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        if (c != w[i])
            return false;
    }
    return true;
}

void text_push_error(loader *l, int code, int line, int col, int len, const char *msg)
{
    scn_errors *e = l->errs;
    if (e->len == e->cap) {
        size_t ncap = e->cap ? e->cap * 2 : 16;
        scn_error *p = mem_realloc(e->items, ncap * sizeof *p);
        if (!p) {
            l->oom = true;
            return;
        }
        e->items = p;
        e->cap = ncap;
    }
    scn_error *x = &e->items[e->len++];
    x->code = code;
    x->line = line;
    x->col = col < 1 ? 1 : col;
    x->len = len < 1 ? 1 : len;
    snprintf(x->message, sizeof x->message, "%s", msg);
}

void text_error(loader *l, int code, int line, int col, int len, const char *fmt, ...)
{
    if (l->stopped)
        return;
    char msg[sizeof((scn_error *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (l->nerr == MAX_ERRORS) {
        text_push_error(l, E_SCN_TOO_MANY, line, col, 1, "too many errors; stopping here");
        l->stopped = true;
        return;
    }
    l->nerr++;
    text_push_error(l, code, line, col, len, msg);
}

void text_tok_error(loader *l, int code, int line, const tok *t, const char *fmt, ...)
{
    char msg[sizeof((scn_error *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    text_error(l, code, line, t->col, t->len, "%s", msg);
}

void text_oom(loader *l)
{
    l->oom = true;
}

/* Compass directions as scenario files write them, in geo_dir order. */
static const char *const DIR_NAMES[GEO_NDIRS] = { "N", "NE", "E", "SE", "S", "SW", "W", "NW" };

static const char *KIND_TEXT[BOARD_NKINDS] = {
    "terrain", "square feature", "side feature", "interspace item", "marker", "counter",
    "army",    "value",          "face",
};

/* The bytes of a UTF-8 byte-order mark (EF BB BF) that start line lr, when it is the file's
 * first line: blanks, read as no token (board.md); 0 on any other line. */
static size_t bom_len(const loader *l, const line_ref *lr)
{
    return lr->off == 0 && lr->len >= 3 && memcmp(l->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* Splits line `lr` (comment removed) into whitespace-separated fields in l->toks. */
bool text_split_fields(loader *l, const line_ref *lr)
{
    const char *s = l->text + lr->off;
    size_t n = code_len(s, lr->len);
    l->ntok = 0;
    for (size_t i = bom_len(l, lr); i < n;) {
        if (text_is_space(s[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && !text_is_space(s[j]))
            j++;
        if (l->ntok == MAX_TOKS) {
            text_error(l, E_SCN_SYNTAX, lr->no, (int)i + 1, 1, "line too long (more than %d items)",
                       MAX_TOKS);
            return false;
        }
        l->toks[l->ntok++] = (tok){ T_WORD, s + i, (int)(j - i), (int)i + 1 };
        i = j;
    }
    return true;
}

/* Splits line `lr` into tokens: words [A-Za-z0-9_]+ (with a leading '-' before a digit),
 * "strings", "..", and single punctuation characters. Returns false after a lexical error (an
 * unterminated string; a non-ASCII character outside a string, E301 at it). */
bool text_tokenize(loader *l, const line_ref *lr)
{
    const char *s = l->text + lr->off;
    size_t n = code_len(s, lr->len);
    l->ntok = 0;
    for (size_t i = bom_len(l, lr); i < n;) {
        char c = s[i];
        if (text_is_space(c)) {
            i++;
            continue;
        }
        if (l->ntok == MAX_TOKS) {
            text_error(l, E_SCN_SYNTAX, lr->no, (int)i + 1, 1, "line too long (more than %d items)",
                       MAX_TOKS);
            return false;
        }
        tok *t = &l->toks[l->ntok];
        t->col = (int)i + 1;
        if (c == '"') {
            size_t j = i + 1;
            while (j < n && s[j] != '"')
                j += s[j] == '\\' ? 2 : 1;
            if (j >= n) {
                text_error(l, E_SCN_SYNTAX, lr->no, (int)i + 1, 1, "unterminated string");
                return false;
            }
            for (size_t k = i + 1; k < j; k++) {
                unsigned char b = (unsigned char)s[k];
                if ((b < 0x20 && b != '\t' && b != '\r') || b == 0x7f) {
                    /* it would reach the terminal as it is, when the string is printed */
                    text_error(l, E_SCN_SYNTAX, lr->no, (int)k + 1, 1,
                               "control character 0x%02X in a string: a string holds printable "
                               "text",
                               b);
                    return false;
                }
            }
            *t = (tok){ T_STR, s + i + 1, (int)(j - i - 1), (int)i + 1 };
            i = j + 1;
        } else if (text_is_word(c) || (c == '-' && i + 1 < n && text_is_digit(s[i + 1]))) {
            size_t j = i + 1;
            while (j < n && text_is_word(s[j]))
                j++;
            *t = (tok){ T_WORD, s + i, (int)(j - i), (int)i + 1 };
            i = j;
        } else if (c == '.' && i + 1 < n && s[i + 1] == '.') {
            *t = (tok){ T_PUNCT, s + i, 2, (int)i + 1 };
            i += 2;
        } else if ((unsigned char)c >= 0x80) {
            /* outside a string a scenario is ASCII: a name with `é` is no two tokens but an
             * error at the character (its whole UTF-8 sequence), as a .hon file's E001 */
            size_t j = i + 1;
            while (j < n && ((unsigned char)s[j] & 0xc0) == 0x80)
                j++;
            text_error(l, E_SCN_SYNTAX, lr->no, (int)i + 1, (int)(j - i),
                       "'%.*s' is no ASCII character: a scenario's names are ASCII letters, "
                       "digits and '_' (other text goes in a \"string\" or a # comment)",
                       (int)(j - i), s + i);
            return false;
        } else {
            *t = (tok){ T_PUNCT, s + i, 1, (int)i + 1 };
            i++;
        }
        l->ntok++;
    }
    return true;
}

/* Copies a name token into buf (NUL-terminated). False (with E301) when too long. */
bool text_name(loader *l, int line, const tok *t, char *buf)
{
    if (t->len > MAX_NAME) {
        text_tok_error(l, E_SCN_SYNTAX, line, t, "name too long (at most %d characters)", MAX_NAME);
        return false;
    }
    memcpy(buf, t->s, (size_t)t->len);
    buf[t->len] = '\0';
    return true;
}

/* True when t is an identifier: letters, digits, underscores, not starting with a digit. */
bool text_is_ident(const tok *t)
{
    if (t->k != T_WORD || t->len == 0 || text_is_digit(t->s[0]) || t->s[0] == '-')
        return false;
    for (int i = 0; i < t->len; i++)
        if (!text_is_word(t->s[i]))
            return false;
    return true;
}

/* Resolves a name token of kind k; reports E303 and returns -1 when unknown. */
int text_resolve(loader *l, int line, board_name_kind k, const tok *t)
{
    char buf[MAX_NAME + 1];
    if (!text_name(l, line, t, buf))
        return -1;
    if (!text_is_ident(t)) {
        text_tok_error(l, E_SCN_SYNTAX, line, t, "expected a %s name, found '%s'", KIND_TEXT[k],
                       buf);
        return -1;
    }
    int id = l->r && l->r->resolve ? l->r->resolve(l->r->ud, k, buf) : -1;
    if (id < 0 || id >= BOARD_MAX_ID) {
        const char *near = l->r && l->r->near ? l->r->near(l->r->ud, k, buf) : NULL;
        text_tok_error(l, E_SCN_UNKNOWN_NAME, line, t, "unknown %s '%s'%s%s%s", KIND_TEXT[k], buf,
                       near ? " (did you mean `" : "", near ? near : "", near ? "`?)" : "");
        return -1;
    }
    if (l->b && !board_name(l->b, k, id)) {
        char sym = 0;
        if (board_set_name(l->b, k, id, buf, sym) != GEO_OK)
            text_oom(l);
    }
    return id;
}

/* Parses an integer token in [lo, hi]; E301 when not a number, E315 when out of range. */
bool text_int(loader *l, int line, const tok *t, long lo, long hi, long *out)
{
    int i = 0;
    bool neg = false;
    if (t->len > 0 && t->s[0] == '-') {
        neg = true;
        i = 1;
    }
    if (i == t->len)
        goto bad;
    long v = 0;
    for (; i < t->len; i++) {
        if (!text_is_digit(t->s[i]))
            goto bad;
        if (v > 100000000L) {
            text_tok_error(l, E_SCN_RANGE, line, t, "number %.*s is out of range (%ld to %ld)",
                           t->len, t->s, lo, hi);
            return false;
        }
        v = v * 10 + (t->s[i] - '0');
    }
    if (neg)
        v = -v;
    if (v < lo || v > hi) {
        text_tok_error(l, E_SCN_RANGE, line, t, "number %.*s is out of range (%ld to %ld)", t->len,
                       t->s, lo, hi);
        return false;
    }
    *out = v;
    return true;
bad:
    text_tok_error(l, E_SCN_SYNTAX, line, t, "expected a number, found '%.*s'", t->len, t->s);
    return false;
}

/* The square named by token t: -2 when t is not a coordinate at all, -1 (with E304) when it
 * is one but off the board, else the square. */
int text_square(loader *l, int line, const tok *t)
{
    int x, y;
    if (t->k != T_WORD || geo_parse_xy(t->s, (size_t)t->len, &x, &y) != GEO_OK)
        return -2;
    int sq = geo_square(board_grid(l->b), x, y);
    if (sq < 0) {
        char last[16];
        geo_format_xy(l->w - 1, l->h - 1, last, sizeof last);
        text_tok_error(l, E_SCN_OFF_BOARD, line, t, "square %.*s is outside the board (A1 to %s)",
                       t->len, t->s, last);
        return -1;
    }
    return sq;
}

/* A compass direction token; -1 when not one. */
int text_dir(const tok *t)
{
    for (int d = 0; d < GEO_NDIRS; d++)
        if (t->k == T_WORD && text_tok_is_ci(t, DIR_NAMES[d]))
            return d;
    return -1;
}

const char *text_dir_name(int d)
{
    return d >= 0 && d < GEO_NDIRS ? DIR_NAMES[d] : "?";
}

bool text_dir_ok(geo_topology topo, int d)
{
    return d >= 0 && !(topo == GEO_HEX && (d == GEO_E || d == GEO_W));
}

char *text_unescape(const tok *t)
{
    char *d = mem_malloc((size_t)t->len + 1);
    if (!d)
        return NULL;
    size_t n = 0;
    for (int i = 0; i < t->len; i++) {
        char c = t->s[i];
        if (c == '\\' && i + 1 < t->len) {
            c = t->s[++i];
            if (c == 'n')
                c = '\n';
        }
        d[n++] = c;
    }
    d[n] = '\0';
    return d;
}

/* Sets (*arr)[id] = copy of colour, growing the array. */
void text_set_colour(loader *l, char ***arr, size_t *n, int id, const tok *c)
{
    if (id < 0)
        return;
    if ((size_t)id >= *n) {
        char **p = mem_realloc(*arr, ((size_t)id + 1) * sizeof *p);
        if (!p) {
            text_oom(l);
            return;
        }
        for (size_t i = *n; i <= (size_t)id; i++)
            p[i] = NULL;
        *arr = p;
        *n = (size_t)id + 1;
    }
    char *copy = text_unescape(c);
    if (!copy) {
        text_oom(l);
        return;
    }
    mem_free((*arr)[id]);
    (*arr)[id] = copy;
}
