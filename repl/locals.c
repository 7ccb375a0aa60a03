/* locals.c — the type of a local name read from the text around it, for completion after
 * `m.` (cli_local_type, cli.h): the REPL's Tab (complete.c) and `hon lsp` (lsp_complete.c),
 * where the text being typed does not build, so the resolver cannot say what `m` is bound to.
 * The declaration the cursor is in is scanned as written: its `let m = ...;`, `for m in ...`,
 * `m in ...:` and parameters (a rule's are its query's, from hon_each_decl's signature). Only
 * include/hon.h is used.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One token of the text: a name (letters, digits, '_'), a string, or one other byte. Comments
 * and blanks are skipped. */
typedef struct ltok {
    const char *s;
    size_t n;
} ltok;

enum {
    MAX_TOKS = 4096
};

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Splits text[0, len) into *n tokens of t (at most MAX_TOKS, the last ones kept). */
static void tokens(const char *text, size_t len, ltok *t, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < len;) {
        size_t j = i + 1;
        if (text[i] == '#') {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        if (isspace((unsigned char)text[i])) {
            i++;
            continue;
        }
        if (text[i] == '"') {
            while (j < len && text[j] != '"' && text[j] != '\n')
                j += text[j] == '\\' && j + 1 < len ? 2 : 1;
            j += j < len && text[j] == '"';
        } else if (name_char(text[i])) {
            while (j < len && name_char(text[j]))
                j++;
        } else if (j < len && text[i] == '-' && text[j] == '>') {
            j++;
        }
        if (*n == MAX_TOKS) { /* keep the nearest: the cursor's end of the text */
            memmove(t, t + 1, (MAX_TOKS - 1) * sizeof *t);
            (*n)--;
        }
        t[(*n)++] = (ltok){ text + i, j - i };
        i = j;
    }
}

static bool is(const ltok *t, const char *w)
{
    return strlen(w) == t->n && memcmp(t->s, w, t->n) == 0;
}

/* Copies token span [a, b) of t as text (one blank between tokens) into buf of cap; false
 * when it does not fit or is empty. */
static bool span_text(const ltok *t, size_t a, size_t b, char *buf, size_t cap)
{
    size_t k = 0;
    if (a >= b)
        return false;
    for (size_t i = a; i < b; i++) {
        if (k + t[i].n + 2 > cap)
            return false;
        if (i > a)
            buf[k++] = ' ';
        memcpy(buf + k, t[i].s, t[i].n);
        k += t[i].n;
    }
    buf[k] = '\0';
    return true;
}

/* The index past the bracket that opens at t[i] and closes in [i, n), or n. */
static size_t past_brackets(const ltok *t, size_t i, size_t n)
{
    int depth = 0;
    for (; i < n; i++) {
        char c = t[i].n == 1 ? t[i].s[0] : 0;
        depth += c == '(' || c == '[' || c == '{';
        depth -= c == ')' || c == ']' || c == '}';
        if (depth <= 0)
            return i + 1;
    }
    return n;
}

/* Looks up a query's or fn's signature (hon_each_decl). */
typedef struct sig_of {
    const char *name;
    char sig[512];
    bool found;
} sig_of;

static void match_sig(void *ud, const hon_decl *d)
{
    sig_of *w = ud;
    if (!w->found && d->signature && strcmp(d->name, w->name) == 0 &&
        (d->kind == HON_DECL_QUERY || d->kind == HON_DECL_EVENT || d->kind == HON_DECL_FN)) {
        snprintf(w->sig, sizeof w->sig, "%s", d->signature);
        w->found = true;
    }
}

/* The type of parameter `name` in a signature "(a: T, b: list<U>) -> R" (or, name NULL, its
 * result R), into buf; false when it has none. */
static bool sig_type(const char *sig, const char *name, char *buf, size_t cap)
{
    const char *p = sig;
    if (!name) {
        const char *arrow = strstr(sig, "-> ");
        return arrow && snprintf(buf, cap, "%s", arrow + 3) < (int)cap;
    }
    size_t n = strlen(name);
    while ((p = strstr(p, name)) != NULL) {
        bool start = p == sig || p[-1] == '(' || p[-1] == ' ';
        if (start && p[n] == ':' && p[n + 1] == ' ') {
            const char *ty = p + n + 2, *end = ty;
            int depth = 0;
            while (*end && (depth > 0 || (*end != ',' && *end != ')'))) {
                depth += *end == '<';
                depth -= *end == '>';
                end++;
            }
            if ((size_t)(end - ty) >= cap)
                return false;
            memcpy(buf, ty, (size_t)(end - ty));
            buf[end - ty] = '\0';
            return end > ty;
        }
        p += n;
    }
    return false;
}

/* The element type of a list or set type ("list<pos>" -> "pos") in place; false otherwise. */
static bool element_type(char *type)
{
    size_t n = strlen(type);
    const char *open = strchr(type, '<');
    if (!open || n < 2 || type[n - 1] != '>' ||
        !((open - type == 4 && strncmp(type, "list", 4) == 0) ||
          (open - type == 3 && strncmp(type, "set", 3) == 0)))
        return false;
    memmove(type, open + 1, (size_t)(type + n - 1 - open - 1));
    type[type + n - 1 - open - 1] = '\0';
    return true;
}

/* The type of the expression t[a, b) (a let's value, a loop's collection): a record value
 * `R{...}`, a call of a query or fn (its result), else what hon_type_of says of its text
 * (which knows only the program's names, not the declaration's locals). */
static bool expr_type(hon_vm *vm, const ltok *t, size_t a, size_t b, char *buf, size_t cap)
{
    char text[1024];
    if (a >= b)
        return false;
    if (b - a >= 2 && name_char(t[a].s[0]) && is(&t[a + 1], "{") &&
        past_brackets(t, a + 1, b) == b) {
        if (t[a].n >= cap)
            return false;
        memcpy(buf, t[a].s, t[a].n);
        buf[t[a].n] = '\0';
        return true;
    }
    if (b - a >= 2 && name_char(t[a].s[0]) && is(&t[a + 1], "(") &&
        past_brackets(t, a + 1, b) == b) {
        sig_of w = { .name = NULL };
        char name[128];
        if (t[a].n >= sizeof name)
            return false;
        memcpy(name, t[a].s, t[a].n);
        name[t[a].n] = '\0';
        w.name = name;
        hon_each_decl(vm, match_sig, &w);
        if (w.found)
            return sig_type(w.sig, NULL, buf, cap);
    }
    hon_type_kind kind;
    return span_text(t, a, b, text, sizeof text) &&
           hon_type_of(vm, text, &kind, buf, cap) == HON_OK;
}

/* Where the declaration holding byte `at` of text starts: the last line at or before it that
 * starts with a name in its first column (declarations start there; their clauses are
 * indented), else the start of the text. */
static size_t decl_start(const char *text, size_t at)
{
    for (size_t i = at; i-- > 0;)
        if (text[i] == '\n' && i + 1 < at && name_char(text[i + 1]))
            return i + 1;
    return 0;
}

static bool local_type(hon_vm *vm, const ltok *t, size_t n, const char *name, char *type,
                       size_t cap);

bool cli_local_type(hon_vm *vm, const char *text, size_t at, const char *name, char *type,
                    size_t cap)
{
    if (!vm || !text || !name || !*name)
        return false;
    size_t n, from = decl_start(text, at);
    ltok *t = malloc(MAX_TOKS * sizeof *t);
    if (!t)
        return false;
    tokens(text + from, at - from, t, &n);
    bool found = local_type(vm, t, n, name, type, cap);
    free(t);
    return found;
}

/* cli_local_type over the tokens t[0, n) of the declaration, up to the cursor. */
static bool local_type(hon_vm *vm, const ltok *t, size_t n, const char *name, char *type,
                       size_t cap)
{
    /* the nearest binding before the cursor: `let NAME = E;`, `for NAME in E {`, `NAME in E:` */
    for (size_t i = n; i-- > 0;) {
        if (!is(&t[i], name))
            continue;
        if (i > 0 && is(&t[i - 1], "let") && i + 1 < n && is(&t[i + 1], "=")) {
            size_t e = i + 2;
            while (e < n && !is(&t[e], ";"))
                e = t[e].n == 1 && strchr("([{", t[e].s[0]) ? past_brackets(t, e, n) : e + 1;
            if (e < n && expr_type(vm, t, i + 2, e, type, cap))
                return true;
        } else if (i + 1 < n && is(&t[i + 1], "in") &&
                   (i == 0 || is(&t[i - 1], "for") || is(&t[i - 1], "(") || is(&t[i - 1], "[") ||
                    is(&t[i - 1], ","))) {
            /* a `for`'s collection ends at the '{' after an operand (it holds no record at its
               top, parser.y); a comprehension's at its ':' */
            bool loop = i > 0 && is(&t[i - 1], "for");
            size_t e = i + 2;
            while (e < n) {
                bool operand_before =
                    e > i + 2 && (name_char(t[e - 1].s[0]) || is(&t[e - 1], ")") ||
                                  is(&t[e - 1], "]") || is(&t[e - 1], "}"));
                if (loop ? is(&t[e], "{") && operand_before : is(&t[e], ":"))
                    break;
                e = is(&t[e], "(") || is(&t[e], "[") || is(&t[e], "{") ? past_brackets(t, e, n)
                                                                       : e + 1;
            }
            if (e < n && expr_type(vm, t, i + 2, e, type, cap) && element_type(type))
                return true;
        }
    }
    /* a parameter: of the fn, query or event declared, or of a rule's query */
    if (n >= 3 && (is(&t[0], "fn") || is(&t[0], "query") || is(&t[0], "event")) && is(&t[2], "(")) {
        size_t end = past_brackets(t, 2, n);
        for (size_t i = 3; i + 2 < end; i++)
            if (is(&t[i], name) && is(&t[i + 1], ":") &&
                (is(&t[i - 1], "(") || is(&t[i - 1], ","))) {
                size_t e = i + 2;
                int depth = 0;
                while (e < end - 1 && (depth > 0 || !is(&t[e], ","))) {
                    depth += is(&t[e], "<");
                    depth -= is(&t[e], ">");
                    e++;
                }
                char buf[256];
                size_t k = 0;
                for (size_t j = i + 2; j < e && k + t[j].n < sizeof buf; j++) {
                    memcpy(buf + k, t[j].s, t[j].n); /* types are written without blanks */
                    k += t[j].n;
                }
                buf[k] = '\0';
                return k > 0 && snprintf(type, cap, "%s", buf) < (int)cap;
            }
    }
    if (n >= 2 && is(&t[0], "rule") && name_char(t[1].s[0])) {
        char query[128];
        sig_of w = { .name = query };
        if (t[1].n >= sizeof query)
            return false;
        memcpy(query, t[1].s, t[1].n);
        query[t[1].n] = '\0';
        hon_each_decl(vm, match_sig, &w);
        return w.found && sig_type(w.sig, name, type, cap);
    }
    return false;
}
