/* fmt.c — the canonical layout of .hon text (fmt.h; the rules are docs/spec/format.md).
 *
 * A printer over the token stream, comments included: the tokens are those of grammar/lexer.l
 * (scanned again here, by the same rules, so comments and line breaks are kept), the line
 * breaks are the author's, and everything between tokens is decided here: one space or none
 * between tokens, the indentation of each line from the brackets and statements around it, at
 * most one blank line, table rows in columns, trailing comments in a column. The layout never
 * adds, drops or reorders a token; interp/format.c checks that with fmt_same_tokens.
 */
#include "fmt.h"

#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "front.h"
#include "mem.h"
#include "strbuf.h"

enum {
    K_WORD,
    K_INT,
    K_MARK,
    K_STRING,
    K_OP,
    K_OPEN,
    K_CLOSE,
    K_COMMENT,
    K_BAD
};

typedef struct tok {
    const char *s;
    uint32_t n;
    uint32_t nl;  /* newlines between the previous token and this one */
    uint32_t col; /* the column it starts at in the input, from 0 */
    uint8_t kind;
    bool kw;  /* a word that is a keyword */
    bool gap; /* the input had blanks just before it (on the same line) */
} tok;

typedef struct toks {
    tok *t;
    size_t n, cap;
} toks;

static bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The length of the string token at s[0] == '"' (n bytes left), as lexer.l's two string rules
 * match it: up to the closing quote, or up to the end of the line when there is none. */
static size_t string_len(const char *s, size_t n)
{
    size_t i = 1;
    while (i < n) {
        char c = s[i];
        if (c == '"')
            return i + 1;
        if (c == '\n' || c == '\0')
            return i;
        if (c == '\\') {
            if (i + 1 < n && s[i + 1] != '\n' && s[i + 1] != '\0')
                i += 2;
            else
                return i + 1;
        } else {
            i++;
        }
    }
    return i;
}

/* The length and kind of the token at s (n > 0 bytes left, not a blank). */
static size_t token_at(const char *s, size_t n, uint8_t *kind)
{
    static const char *const two[] = { "->", "++", "=>", "==", "!=", "<=", ">=" };
    size_t i = 1;
    char c = s[0];
    if (c == '#') {
        while (i < n && s[i] != '\n')
            i++;
        *kind = K_COMMENT;
    } else if (alpha(c) || c == '_') {
        while (i < n && word_char(s[i]))
            i++;
        *kind = K_WORD;
    } else if (c >= '0' && c <= '9') {
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        *kind = K_INT;
    } else if (c == '"') {
        i = string_len(s, n);
        *kind = K_STRING;
    } else if (c == '@' && i < n && alpha(s[i])) {
        size_t j = i;
        while (j < n && alpha(s[j]))
            j++;
        size_t k = j;
        while (k < n && s[k] >= '0' && s[k] <= '9')
            k++;
        *kind = k > j ? K_MARK : K_BAD;
        i = k > j ? k : 1;
    } else if (c == '$' && i < n && (alpha(s[i]) || s[i] == '_')) {
        while (i < n && word_char(s[i]))
            i++;
        *kind = K_MARK;
    } else if (strchr("({[", c)) {
        *kind = K_OPEN;
    } else if (strchr(")}]", c)) {
        *kind = K_CLOSE;
    } else {
        *kind = strchr(",:;.=<>+-*/%?", c) ? K_OP : K_BAD;
        for (size_t k = 0; n > 1 && k < sizeof two / sizeof *two; k++)
            if (c == two[k][0] && s[1] == two[k][1]) {
                *kind = K_OP;
                i = 2;
            }
    }
    return i;
}

/* Scans text into ts; false on OOM. A NUL byte is scanned as a bad token, as flex does. */
static bool scan(const char *text, size_t len, toks *ts)
{
    uint32_t nl = 0, col = 0;
    bool gap = false;
    /* a byte-order mark starting the text is no token (language.md §1); hon_format puts it back */
    size_t bom = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (size_t i = bom; i < len;) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            gap = true;
            if (c == '\n') {
                nl++;
                col = 0;
                gap = false;
            } else {
                col++;
            }
            i++;
            continue;
        }
        if (!MEM_GROW(ts->t, ts->n, ts->cap))
            return false;
        tok *t = &ts->t[ts->n++];
        size_t k = token_at(text + i, len - i, &t->kind);
        *t = (tok){ text + i, (uint32_t)k, nl, col, t->kind, false, gap };
        t->kw = t->kind == K_WORD && front_is_keyword(t->s, k);
        col += diag_text_width(text + i, k); /* display columns: a comment's, for its column */
        i += k;
        nl = 0;
        gap = false;
    }
    return true;
}

static bool is(const tok *t, const char *s)
{
    return t && strlen(s) == t->n && memcmp(t->s, s, t->n) == 0;
}

/* A comment's text without its trailing blanks (a CR of a CRLF file included). */
static uint32_t comment_len(const tok *t)
{
    uint32_t n = t->n;
    while (n > 1 && (t->s[n - 1] == ' ' || t->s[n - 1] == '\t' || t->s[n - 1] == '\r'))
        n--;
    return n;
}

bool fmt_same_tokens(const char *a, size_t alen, const char *b, size_t blen)
{
    toks x = { 0 }, y = { 0 };
    bool same = scan(a, alen, &x) && scan(b, blen, &y) && x.n == y.n;
    for (size_t i = 0; same && i < x.n; i++) {
        const tok *p = &x.t[i], *q = &y.t[i];
        uint32_t pn = p->kind == K_COMMENT ? comment_len(p) : p->n;
        uint32_t qn = q->kind == K_COMMENT ? comment_len(q) : q->n;
        same = p->kind == q->kind && pn == qn && memcmp(p->s, q->s, pn) == 0;
    }
    mem_free(x.t);
    mem_free(y.t);
    return same;
}

/* ---- spacing within a line ---- */

/* Whether a token ends an operand, so that a '-' after it is the binary one. */
static bool ends_operand(const tok *t, const tok *before)
{
    if (t->kind == K_CLOSE || t->kind == K_INT || t->kind == K_MARK || t->kind == K_STRING ||
        is(t, "?"))
        return true;
    if (t->kind != K_WORD)
        return false;
    return !t->kw || is(t, "true") || is(t, "false") || (before && is(before, "."));
}

/* Fills sp[i] (0 or 1): the spaces between code token i and the code token before it when
 * both stand on one line. `<` and `>` of `set<T>`/`list<T>` take none. */
static void spacing(const toks *ts, uint8_t *sp)
{
    const tok *p = NULL, *pp = NULL;
    int generic = 0; /* `set<` and `list<` open */
    bool p_unary = false, p_generic = false;
    for (size_t i = 0; i < ts->n; i++) {
        const tok *t = &ts->t[i];
        if (t->kind == K_COMMENT)
            continue;
        bool t_generic = false, t_unary = false, closes_generic = false;
        if (is(t, "<") && p && p->kw && (is(p, "set") || is(p, "list"))) {
            generic++;
            t_generic = true;
        } else if (is(t, ">") && generic > 0) {
            generic--;
            closes_generic = true;
        } else if (is(t, "-")) {
            t_unary = !p || !ends_operand(p, pp);
        }
        int s = 1;
        if (!p)
            s = 0;
        else if (t_generic || closes_generic || p_generic || p_unary || is(p, ".") || is(t, "."))
            s = 0;
        else if (t->kind == K_CLOSE && t->s[0] == '}')
            s = t->gap;
        else if (p->kind == K_OPEN && p->s[0] == '{')
            s = t->gap;
        else if (t->kind == K_CLOSE || p->kind == K_OPEN)
            s = 0;
        else if (is(t, ",") || is(t, ";") || (is(t, ":") && p->kind != K_STRING))
            s = 0;
        else if (t->kind == K_OPEN && t->s[0] != '{')
            s = p->kind == K_CLOSE || (p->kind == K_WORD && !p->kw) ? 0
                : p->kind == K_WORD                                 ? t->gap
                                                                    : 1;
        /* a '{' after a name (`R{f: 1}`, `enum e {`) is settled in lay_lines (opens_body) */
        sp[i] = (uint8_t)s;
        pp = p;
        p = t;
        p_unary = t_unary;
        p_generic = t_generic;
    }
}

/* ---- lines, indentation, statements ---- */

/* An open bracket, or the file itself (levels[0]). A block is a '{' that ends its line: what
 * it holds are statements (or items, separated by ','), one indentation step in. */
typedef struct level {
    char ch;
    bool block, items, table;
    bool ends;        /* a declaration's or statement's '{': its '}' ends the statement */
    bool per_line;    /* a counter's items: each line is one */
    bool counter;     /* a counter's or a `revise counter`'s items (`abilities { ... }`) */
    bool body;        /* a '{' opening a body (opens_body), not a value */
    size_t sfirst;    /* 1 + the first token of the statement in progress (0: none), at any
                         level: what opens_body asks, inline blocks included */
    size_t line;      /* the line of its opener */
    bool compr;       /* `[x in xs: ...]`, `any(x in xs: ...)`: continued under what follows ':' */
    int inner, close; /* the indentation of a line inside, of a line starting with its closer */
    /* the statement in progress in a block */
    bool started;
    size_t first;     /* its first token */
    int indent, cont; /* the indentation of its first line, of a continuation line */
    int lets;         /* `let x = e;` seen in it whose ';' does not end it */
    int let_indent;   /* the indentation of the line of the last such let (-1: none yet) */
    int let_col;      /* that indentation while a let is open */
} level;

typedef struct pending_if {
    int col;
    size_t depth;
} pending_if;

/* One line of the output. */
typedef struct line {
    size_t a, b;        /* its code tokens [a, b) */
    const tok *comment; /* its trailing comment, or its only token */
    int indent;
    bool blank_before;
    bool cont_comment; /* a comment-only line continuing the trailing comment above */
    bool row;          /* a table row, laid out in columns with the rows around it */
    bool decl;         /* a one-name declaration `KEYWORD NAME "text"...`: its texts line up
                          with those of the declarations of the same keyword around it */
    size_t of_decl;    /* a continuation line of such a declaration: 1 + the index of its line
                          (0: not one) */
    int comment_col;   /* the column of its comment */
    int shift;         /* the blanks lining up a declaration's text added */
    strbuf code;       /* the code, without indentation */
} line;

/* The display columns of a line's code (diag_text_width: a string's non-ASCII text counts
 * its characters, not their bytes). */
static int code_width(const line *ln)
{
    return (int)diag_text_width(ln->code.len ? ln->code.s : "", ln->code.len);
}

typedef struct layout {
    const toks *ts;
    uint8_t *sp; /* spacing's; lay_lines settles a '{' after a name (opens_body) */
    level *lev;
    size_t nlev, lev_cap;
    pending_if *ifs;
    size_t nifs, ifs_cap;
    int else_col; /* the column of the `if` the last `else` belongs to */
    int bump;     /* after a line ending in `then`/`else`: the indentation of the next */
    size_t bump_depth;
    size_t limit;  /* bytes the layout may take (fmt.h: FMT_MAX_GROWTH) */
    bool too_long; /* it would take more: the layout is refused */
    bool oom;
} layout;

/* Whether t is one of the NULL-terminated words. */
static bool is_any(const tok *t, const char *const *words)
{
    for (; t && *words; words++)
        if (is(t, *words))
            return true;
    return false;
}

/* Keywords that start a clause of a declaration on a line of their own (rule, query, fn). */
static bool clause_keyword(const tok *t)
{
    static const char *const kws[] = { "cite",     "doc",     "when",    "unless", "answer", "do",
                                       "priority", "combine", "default", "let",    NULL };
    return t->kw && is_any(t, kws);
}

/* Whether a line continuing a declaration starts a clause: a clause keyword, or the `=` of a
 * `source` declaration's text. */
static bool starts_clause(const tok *t)
{
    return clause_keyword(t) || is(t, "=");
}

static level *top(layout *L)
{
    return &L->lev[L->nlev - 1];
}

/* The statement of the innermost level ends: its pending `if`s (statement ifs with no else)
 * go with it. */
static void end_statement(layout *L)
{
    level *lv = top(L);
    lv->started = false;
    lv->lets = 0;
    while (L->nifs && L->ifs[L->nifs - 1].depth >= L->nlev)
        L->nifs--;
}

/* The indentation of a code line whose first token is f. */
static int line_indent(layout *L, const tok *f, const tok *first_of_stmt)
{
    level *lv = top(L);
    int ind;
    if (f->kind == K_CLOSE)
        return L->nlev > 1 ? lv->close : 0;
    if (is(f, "else") && L->nifs && L->ifs[L->nifs - 1].depth == L->nlev)
        return L->ifs[L->nifs - 1].col;
    if (is(f, ";") && lv->block && lv->started)
        return lv->indent + 2; /* it ends the statement: no clause's words to line up after */
    if (L->bump >= 0 && L->bump_depth == L->nlev) {
        if (lv->block)
            lv->cont = L->bump;
        return L->bump;
    }
    if (!lv->block)
        return lv->inner;
    if (!lv->started)
        return lv->inner;
    if (is(f, "let") && lv->let_indent >= 0)
        ind = lv->let_indent;
    else if (starts_clause(f) && f != first_of_stmt)
        ind = lv->indent + 2;
    else if (f->kind == K_OPEN && f->s[0] == '{')
        ind = lv->indent;
    else
        ind = lv->cont;
    return ind;
}

/* What a '{' opens, from the first token of the statement it stands in (NULL: none, it is in
 * an expression's brackets) and the token before it. */
typedef enum brace {
    BRACE_EXPR,
    BRACE_DECL,
    BRACE_STMT
} brace;

static brace brace_kind(const tok *first, const tok *before)
{
    static const char *const decls[] = { "enum",    "record",  "variant", "table", "test",
                                         "edition", "counter", "revise",  NULL };
    static const char *const stmts[] = { "if", "for", "else", "cite", NULL };
    if (before && is(before, "do"))
        return BRACE_STMT;
    if (first && first->kw && is_any(first, decls))
        return BRACE_DECL;
    if (first && first->kw && is_any(first, stmts))
        return BRACE_STMT;
    return BRACE_EXPR;
}

/* The code token before token k (comments skipped), or NULL. */
static const tok *code_before(const toks *ts, size_t k)
{
    while (k-- > 0)
        if (ts->t[k].kind != K_COMMENT)
            return &ts->t[k];
    return NULL;
}

/* Whether t is keyword w. */
static bool is_kw(const tok *t, const char *w)
{
    return t->kw && is(t, w);
}

/* Whether the '{' at code token k opens a body rather than a value (a set `{a, b}` or a
 * record `R{f: 1}`), from the statement it stands in at the innermost level (sfirst) and the
 * token before it: a block after `do`, `then` or `else`; the items of a declaration whose head
 * holds no expression (`enum`, `record`, `variant`, `table`, `edition`, `test`, `counter`,
 * `revise counter`); a `for`'s block, the first '{' after an operand at the `for`'s level (its
 * collection holds no record at its top, parser.y); a counter's list (`abilities { ... }`). */
static bool opens_body(const layout *L, size_t k)
{
    static const char *const heads[] = { "enum",    "record", "variant", "table",
                                         "edition", "test",   "counter", NULL };
    static const char *const blocks[] = { "do", "then", "else", NULL };
    const tok *t = L->ts->t, *before = code_before(L->ts, k);
    const tok *before2 = before ? code_before(L->ts, (size_t)(before - t)) : NULL;
    const level *lv = &L->lev[L->nlev - 1];
    if (before && before->kw && is_any(before, blocks))
        return true;
    if (lv->counter)
        return true;
    if (lv->ch == '(' || lv->ch == '[' || !lv->sfirst)
        return false;
    const tok *first = &t[lv->sfirst - 1];
    if (first->kw && is_any(first, heads))
        return true;
    if (is_kw(first, "revise"))
        return before2 && is_kw(before2, "counter");
    return is_kw(first, "for") && before && ends_operand(before, before2);
}

static bool push_level(layout *L, level lv)
{
    if (!MEM_GROW(L->lev, L->nlev, L->lev_cap)) {
        L->oom = true;
        return false;
    }
    L->lev[L->nlev++] = lv;
    return true;
}

/* Takes code token i (at output column col, on a line indented `indent`, whose last code
 * token is last) into the state: brackets, statements, lets and ifs. */
static void take(layout *L, size_t i, int col, int indent, size_t last, size_t line_no)
{
    const tok *t = &L->ts->t[i];
    level *lv = top(L);
    if (!lv->sfirst && !is(t, ";") && t->kind != K_CLOSE)
        lv->sfirst = i + 1;
    else if (is(t, ";"))
        lv->sfirst = 0;
    if (lv->block && !lv->started && !is(t, ";") && t->kind != K_CLOSE) {
        lv->started = true;
        lv->first = i;
        lv->indent = indent;
        lv->cont = indent + 2;
        lv->lets = 0;
        lv->let_indent = -1;
    }
    if (lv->block && is(t, "let") && lv->first != i) {
        lv->lets++;
        lv->let_col = indent;
    }
    if (lv->block && is(t, ";")) {
        if (lv->lets > 0) {
            lv->lets--;
            lv->cont = lv->let_indent = lv->let_col; /* what follows a let lines up with it */
        } else
            end_statement(L);
    }
    if (lv->block && lv->items && is(t, ","))
        end_statement(L);
    if (is(t, "if")) {
        bool after_else = i > 0 && is(&L->ts->t[i - 1], "else");
        if (MEM_GROW(L->ifs, L->nifs, L->ifs_cap))
            L->ifs[L->nifs++] = (pending_if){ after_else ? L->else_col : col, L->nlev };
        else
            L->oom = true;
    } else if (is(t, "else") && L->nifs && L->ifs[L->nifs - 1].depth == L->nlev) {
        L->else_col = L->ifs[--L->nifs].col;
    }
    if (is(t, ":") && lv->compr && lv->line == line_no && i < last)
        lv->inner = col + 1 + L->sp[i + 1]; /* `[x in xs: cond`: continued under cond */
    if (t->kind == K_OPEN) {
        const tok *first = lv->block && lv->started ? &L->ts->t[lv->first] : NULL;
        const tok *before = i > 0 ? &L->ts->t[i - 1] : NULL;
        brace kind = t->s[0] == '{' ? brace_kind(first, before) : BRACE_EXPR;
        level in = { .ch = t->s[0], .line = line_no };
        in.compr = t->s[0] != '{' && i + 2 <= last && L->ts->t[i + 1].kind == K_WORD &&
                   is(&L->ts->t[i + 2], "in");
        if (i == last) { /* the opener ends its line: one step in from the statement or line */
            int base = kind == BRACE_EXPR || is(before, "do") ? indent : lv->indent;
            in.block = t->s[0] == '{';
            in.inner = base + 2;
            in.close = base;
        } else { /* else lined up with what follows it */
            in.inner = col + 1 + L->sp[i + 1];
            in.close = indent;
        }
        in.items =
            t->s[0] == '{' && (kind == BRACE_EXPR || is(first, "enum") || is(first, "record"));
        in.ends = kind != BRACE_EXPR;
        in.table = first && is(first, "table");
        in.per_line = kind == BRACE_DECL && is(first, "counter");
        in.body = t->s[0] == '{' && opens_body(L, i);
        const tok *b1 = code_before(L->ts, i);
        const tok *before2 = b1 ? code_before(L->ts, (size_t)(b1 - L->ts->t)) : NULL;
        in.counter = in.body && ((lv->sfirst && is_kw(&L->ts->t[lv->sfirst - 1], "counter")) ||
                                 (before2 && is_kw(before2, "counter")));
        push_level(L, in);
    } else if (t->kind == K_CLOSE && L->nlev > 1) {
        bool ends = lv->ends, body = lv->body;
        L->nlev--;
        if (body) /* a body's '}' ends its statement: what follows starts another */
            top(L)->sfirst = 0;
        while (L->nifs && L->ifs[L->nifs - 1].depth > L->nlev)
            L->nifs--;
        if (ends && top(L)->block)
            end_statement(L);
    }
}

/* The layout of the code tokens [a, b) with the spacing sp, appended to out. */
static void render(const layout *L, size_t a, size_t b, strbuf *out)
{
    for (size_t i = a; i < b; i++) {
        if (i > a && L->sp[i])
            sb_putc(out, ' ');
        sb_putn(out, L->ts->t[i].s, L->ts->t[i].n);
    }
}

/* Whether the code tokens [a, b) are one table row on one line: `K, ... => V, ...
 * [cite ...];` with its brackets closed on the line. */
static bool table_row(const layout *L, size_t a, size_t b)
{
    int depth = 0;
    bool arrow = false;
    if (b - a < 4 || !is(&L->ts->t[b - 1], ";"))
        return false;
    for (size_t i = a; i < b; i++) {
        const tok *t = &L->ts->t[i];
        depth += t->kind == K_OPEN ? 1 : t->kind == K_CLOSE ? -1 : 0;
        if (depth < 0 || (is(t, ";") && i + 1 < b))
            return false;
        arrow |= depth == 0 && is(t, "=>");
    }
    return arrow && depth == 0;
}

/* The cells of a table row [a, b): cut after each ',' at its top level, around '=>', and before
 * a `cite` (the cites and the ';' are the last cell). Stores the start of each cell in cut[]
 * (at most max) and returns how many cells. */
static size_t row_cells(const layout *L, size_t a, size_t b, size_t *cut, size_t max)
{
    size_t n = 0;
    int depth = 0;
    cut[n++] = a;
    for (size_t i = a; i < b && n < max; i++) {
        const tok *t = &L->ts->t[i];
        if (depth == 0 && i > a && (is(t, "=>") || (t->kw && is(t, "cite")))) {
            cut[n++] = i;
            if (t->kw && is(t, "cite"))
                break;
        }
        if (depth == 0 && n < max && i + 1 < b && (is(t, "=>") || is(t, ",")) &&
            !is(&L->ts->t[i + 1], "cite"))
            cut[n++] = i + 1;
        depth += t->kind == K_OPEN ? 1 : t->kind == K_CLOSE ? -1 : 0;
    }
    return n;
}

/* MAX_CELLS: a table row's columns lined up at most; WIDTH: the width the bundled files keep
 * to, which lining up never pushes a line past. */
enum {
    MAX_CELLS = 64,
    WIDTH = 100
};

/* Whether `rows` rows padded to the column widths (MAX_CELLS of them) fit in the layout's
 * limit; marks it too_long when they do not. */
static bool rows_fit(layout *L, const size_t *width, size_t rows)
{
    size_t row = 1;
    for (size_t c = 0; c < MAX_CELLS; c++)
        row += width[c] + 1;
    if (row > L->limit / rows)
        L->too_long = true;
    return !L->too_long;
}

/* Lays out the rows lines[from, to) in columns: each cell but a row's last is padded to the
 * widest of its column. Rows that could take more than the layout's limit in columns (a
 * hostile table: long cells in many columns of many rows) are left unpadded, too_long. */
static void align_rows(layout *L, line *lines, size_t from, size_t to)
{
    size_t width[MAX_CELLS] = { 0 };
    size_t cut[MAX_CELLS + 1];
    strbuf cell = { 0 };
    for (int pass = 0; pass < 2 && (!pass || rows_fit(L, width, to - from)); pass++) {
        for (size_t r = from; r < to; r++) {
            line *ln = &lines[r];
            size_t n = row_cells(L, ln->a, ln->b, cut, MAX_CELLS);
            cut[n] = ln->b;
            if (pass)
                sb_free(&ln->code);
            for (size_t c = 0; c < n; c++) {
                sb_free(&cell);
                render(L, cut[c], cut[c + 1], &cell);
                size_t cw = diag_text_width(sb_str(&cell), cell.len);
                if (!pass) {
                    if (c + 1 < n && cw > width[c])
                        width[c] = cw;
                    continue;
                }
                if (c)
                    sb_putc(&ln->code, ' ');
                sb_puts(&ln->code, sb_str(&cell));
                for (size_t k = cw; c + 1 < n && k < width[c]; k++)
                    sb_putc(&ln->code, ' ');
            }
        }
    }
    sb_free(&cell);
}

/* Whether the code tokens [a, b) start a declaration of one name with a text: a vocabulary
 * word, a value or a variant's reading. */
static bool decl_row(const layout *L, size_t a, size_t b)
{
    static const char *const kws[] = { "kind",
                                       "side",
                                       "ability",
                                       "marker",
                                       "token",
                                       "terrain",
                                       "square_feature",
                                       "side_feature",
                                       "interspace_item",
                                       "phase",
                                       "face",
                                       "value",
                                       "reading",
                                       NULL };
    const tok *t = &L->ts->t[a];
    return b - a >= 3 && t->kw && is_any(t, kws) && L->ts->t[a + 1].kind == K_WORD &&
           L->ts->t[a + 2].kind == K_STRING;
}

/* Lines up the texts of the run of declarations of one keyword starting at lines[i] (their
 * continuation lines move with them). Returns the index past the run (i when lines[i] starts
 * none). */
static size_t align_decls(const layout *L, line *lines, size_t n, size_t i)
{
    if (!lines[i].decl)
        return i;
    const tok *kw = &L->ts->t[lines[i].a];
    size_t j = i, width = 0;
    for (; j < n && (j == i || !lines[j].blank_before); j++) {
        const line *ln = &lines[j];
        if (ln->of_decl > i && ln->of_decl <= j)
            continue;
        const tok *k = &L->ts->t[ln->a];
        if (!ln->decl || k->n != kw->n || memcmp(k->s, kw->s, k->n) != 0)
            break;
        size_t w = k->n + 1 + L->ts->t[ln->a + 1].n;
        width = w > width ? w : width;
    }
    for (size_t r = i; r < j; r++) {
        line *ln = &lines[r];
        line *row = ln->decl ? ln : &lines[ln->of_decl - 1];
        size_t w = L->ts->t[row->a].n + 1 + L->ts->t[row->a + 1].n;
        if (!ln->decl) {
            ln->indent += row->shift; /* under its declaration's text */
            continue;
        }
        strbuf code = { 0 };
        render(L, ln->a, ln->a + 2, &code);
        for (size_t k = w; k <= width; k++)
            sb_putc(&code, ' ');
        render(L, ln->a + 2, ln->b, &code);
        ln->shift = (int)(width - w);
        size_t widest = (size_t)ln->indent + diag_text_width(sb_str(&code), code.len);
        for (size_t k = r + 1; k < j && lines[k].of_decl == r + 1; k++)
            if ((size_t)(lines[k].indent + ln->shift + code_width(&lines[k])) > widest)
                widest = (size_t)(lines[k].indent + ln->shift + code_width(&lines[k]));
        if (widest > WIDTH) { /* lined up, it would be too long */
            sb_free(&code);
            render(L, ln->a, ln->b, &code);
            ln->shift = 0;
        }
        sb_free(&ln->code);
        ln->code = code;
    }
    return j;
}

/* Whether code token k is a '{' straight after a name (not a keyword). */
static bool after_name(const toks *ts, size_t k)
{
    const tok *t = &ts->t[k], *p = k > 0 ? &ts->t[k - 1] : NULL;
    return t->kind == K_OPEN && t->s[0] == '{' && p && p->kind == K_WORD && !p->kw;
}

/* Splits the tokens into lines and lays out each line's code. */
static line *lay_lines(layout *L, size_t *nlines)
{
    const toks *ts = L->ts;
    line *lines = NULL;
    size_t n = 0, cap = 0, decl_line = 0; /* 1 + the index of the last declaration line */
    L->bump = -1;
    for (size_t i = 0; i < ts->n && !L->oom;) {
        size_t j = i + 1;
        while (j < ts->n && ts->t[j].nl == 0)
            j++;
        if (!MEM_GROW(lines, n, cap)) {
            L->oom = true;
            break;
        }
        line *ln = &lines[n++];
        *ln = (line){ .a = i, .b = j, .blank_before = i > 0 && ts->t[i].nl >= 2 };
        if (ts->t[j - 1].kind == K_COMMENT) {
            ln->comment = &ts->t[j - 1];
            ln->b = j - 1;
        }
        i = j;
        if (ln->a == ln->b) {
            const line *up = n > 1 ? &lines[n - 2] : NULL;
            ln->cont_comment = up && !ln->blank_before && up->comment &&
                               (up->a < up->b || up->cont_comment) &&
                               up->comment->col == ln->comment->col;
            continue; /* indented as the next code line, below */
        }
        const tok *f = &ts->t[ln->a];
        level *lv = top(L);
        if (lv->per_line && f->kind != K_CLOSE)
            end_statement(L);
        const tok *stmt_first = lv->block && lv->started ? &ts->t[lv->first] : NULL;
        bool clause = lv->block && lv->started && starts_clause(f) && f != stmt_first;
        ln->indent = line_indent(L, f, stmt_first);
        if (clause)
            lv->cont = ln->a + 1 < ln->b ? ln->indent + (int)f->n + 1 : ln->indent + 2;
        int pend_indent = f->kind == K_CLOSE && L->nlev > 1 ? lv->inner : ln->indent;
        for (size_t k = n - 1; k-- > 0 && lines[k].a == lines[k].b;)
            if (!lines[k].cont_comment)
                lines[k].indent = pend_indent;
        ln->row = lv->block && lv->table && !lv->started && table_row(L, ln->a, ln->b);
        ln->decl = lv->block && !lv->started && decl_row(L, ln->a, ln->b);
        if (lv->block && lv->started && decl_line && lv->first == lines[decl_line - 1].a)
            ln->of_decl = decl_line;
        int col = ln->indent;
        for (size_t k = ln->a; k < ln->b; k++) {
            if (k > ln->a && after_name(ts, k)) /* `R{f: 1}`, `enum e {` (format.md §2) */
                L->sp[k] = opens_body(L, k) ? 1 : 0;
            col += k > ln->a ? L->sp[k] : 0;
            take(L, k, col, ln->indent, ln->b - 1, n);
            col += (int)ts->t[k].n;
        }
        render(L, ln->a, ln->b, &ln->code);
        if (ln->decl) { /* its continuation lines start under its text */
            decl_line = n;
            lv->cont = ln->indent + (int)(ts->t[ln->a].n + 1 + ts->t[ln->a + 1].n + 1);
        }
        const tok *end = &ts->t[ln->b - 1];
        L->bump = -1;
        if (L->nifs && is(end, "then"))
            L->bump = L->ifs[L->nifs - 1].col + 2;
        else if (is(end, "else"))
            L->bump = L->else_col + 2;
        L->bump_depth = L->nlev;
    }
    *nlines = n;
    return lines;
}

/* Puts the trailing comments of each run of lines in one column: the column the first of them
 * had, or two past the longest code of the run when that is further right. */
static void align_comments(line *lines, size_t n)
{
    for (size_t i = 0; i < n;) {
        if (!lines[i].comment || lines[i].a == lines[i].b) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < n && lines[j].comment && !lines[j].blank_before &&
               (lines[j].a < lines[j].b || lines[j].cont_comment))
            j++;
        int col = (int)lines[i].comment->col;
        for (size_t k = i; k < j; k++)
            if (lines[k].a < lines[k].b && lines[k].indent + code_width(&lines[k]) + 2 > col)
                col = lines[k].indent + code_width(&lines[k]) + 2;
        for (size_t k = i; k < j; k++)
            lines[k].comment_col = col;
        i = j;
    }
}

static void pad(strbuf *out, int n)
{
    for (int i = 0; i < n; i++)
        sb_putc(out, ' ');
}

char *fmt_layout(const char *text, size_t len, size_t *out_len, bool *too_long)
{
    toks ts = { 0 };
    layout L = { .ts = &ts, .limit = FMT_MAX_GROWTH * len + FMT_MAX_EXTRA };
    level file = { .block = true };
    uint8_t *sp = NULL;
    line *lines = NULL;
    size_t n = 0;
    strbuf out = { 0 };
    if (!scan(text, len, &ts) || !(sp = mem_calloc(ts.n + 1, 1)) || !push_level(&L, file))
        goto done;
    spacing(&ts, sp);
    L.sp = sp;
    lines = lay_lines(&L, &n);
    if (L.oom)
        goto done;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && lines[j].row && (j == i || !lines[j].blank_before))
            j++;
        if (j > i)
            align_rows(&L, lines, i, j);
        else
            j = align_decls(&L, lines, n, i);
        i = j > i ? j : i + 1;
    }
    align_comments(lines, n);
    for (size_t i = 0; i < n; i++) {
        line *ln = &lines[i];
        if (ln->blank_before)
            sb_putc(&out, '\n');
        bool code = ln->a < ln->b;
        pad(&out, code || !ln->cont_comment ? ln->indent : ln->comment_col);
        sb_putn(&out, sb_str(&ln->code), ln->code.len);
        if (ln->comment) {
            if (code)
                pad(&out, ln->comment_col - ln->indent - code_width(ln));
            sb_putn(&out, ln->comment->s, comment_len(ln->comment));
        }
        sb_putc(&out, '\n');
        if (out.len > L.limit) { /* indentation growing with the lines: a hostile text */
            L.too_long = true;
            break;
        }
    }
done:
    for (size_t i = 0; i < n; i++)
        sb_free(&lines[i].code);
    mem_free(lines);
    mem_free(sp);
    mem_free(ts.t);
    mem_free(L.lev);
    mem_free(L.ifs);
    if (L.oom || L.too_long)
        sb_fail(&out);
    *too_long = L.too_long;
    *out_len = out.len;
    return sb_take(&out);
}
