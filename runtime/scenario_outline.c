/* runtime/scenario_outline.c — the outline of a scenario file (scenario.h: scn_outline): its
 * directives one by one, each named and placed, for an editor's list of symbols. It reads the
 * lines as pass 1 of the loader does (scenario.c: the same fields and tokens, legend lines
 * continued, map and elevation blocks running to their last row), resolves no name and builds
 * no board, so that a file with errors has an outline too.
 */
#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "scenario_text.h"

/* The outline being written: where each symbol goes, and the name and detail of the one
 * being handed over. */
typedef struct outline {
    loader *l;
    void (*fn)(void *ud, const scn_symbol *s);
    void *ud;
    size_t n;
    char name[512], detail[512];
} outline;

/* Copies the text from token a to the end of token b (inclusive) of the current line into buf
 * (cap bytes, cut short when longer), each run of blanks one space: "size 10 x 8",
 * "terrain grass "#b5d48c"". */
static void span_text(const tok *a, const tok *b, char *buf, size_t cap)
{
    size_t o = 0;
    for (const char *p = a->s; p < b->s + b->len && o + 1 < cap; p++) {
        if (text_is_space(*p) && (o == 0 || buf[o - 1] == ' '))
            continue;
        buf[o++] = text_is_space(*p) ? ' ' : *p;
    }
    buf[o] = '\0';
}

/* Hands one symbol: its directive keyword, its name's span (tokens a..b of line `no`, or the
 * name given in o->name when it is not their text), its detail (o->detail, "" for none) and
 * the line its directive ends on. */
static void give(outline *o, const char *directive, int no, const tok *a, const tok *b,
                 int end_line, int end_col)
{
    scn_symbol s = { .directive = directive,
                     .name = o->name,
                     .detail = o->detail[0] ? o->detail : NULL,
                     .line = no,
                     .col = a->col,
                     .end_col = b->col + b->len - 1,
                     .last_line = end_line,
                     .last_col = end_col };
    o->fn(o->ud, &s);
    o->n++;
    o->name[0] = o->detail[0] = '\0';
}

/* A line's directive, whole: its name the line's text after the keyword (`side C2/C3 contour`:
 * "C2/C3 contour"), or the keyword itself when nothing follows it. */
static void give_line(outline *o, const char *directive, int no)
{
    loader *l = o->l;
    const tok *first = l->ntok > 1 ? &l->toks[1] : &l->toks[0], *last = &l->toks[l->ntok - 1];
    span_text(first, last, o->name, sizeof o->name);
    give(o, directive, no, first, last, no, last->col + last->len - 1);
}

/* `unit NAME = ...`, `element NAME = ...`: the NAME, the rest after `=` as the detail. */
static void give_named(outline *o, const char *directive, int no)
{
    loader *l = o->l;
    if (l->ntok < 2) {
        give_line(o, directive, no);
        return;
    }
    const tok *name = &l->toks[1], *last = &l->toks[l->ntok - 1];
    span_text(name, name, o->name, sizeof o->name);
    int from = l->ntok > 3 && l->toks[2].len == 1 && l->toks[2].s[0] == '=' ? 3 : 2;
    if (from < l->ntok)
        span_text(&l->toks[from], last, o->detail, sizeof o->detail);
    give(o, directive, no, name, name, no, last->col + last->len - 1);
}

/* The legend entries of the current line from field i: `S = name [+ feature[=N]]...`, each a
 * symbol named by its text. */
static void give_legend(outline *o, int no, int i)
{
    loader *l = o->l;
    while (i + 2 < l->ntok && l->toks[i + 1].len == 1 && l->toks[i + 1].s[0] == '=') {
        int j = i + 3;
        while (j + 1 < l->ntok && l->toks[j].len == 1 && l->toks[j].s[0] == '+')
            j += 2;
        const tok *last = &l->toks[j - 1];
        span_text(&l->toks[i], last, o->name, sizeof o->name);
        give(o, "legend", no, &l->toks[i], last, no, last->col + last->len - 1);
        i = j;
    }
}

/* `scenario "TITLE"`, `cite "ID" [example "A"]`: the string (the title, the ID), tokenized as
 * the loader reads these lines; the whole line when it is not so written. */
static void give_string(outline *o, const char *directive, const line_ref *lr)
{
    loader *l = o->l;
    if (!text_tokenize(l, lr) || l->ntok < 2 || l->toks[1].k != T_STR) {
        text_split_fields(l, lr);
        give_line(o, directive, lr->no);
        return;
    }
    const tok *s = &l->toks[1], *last = &l->toks[l->ntok - 1];
    span_text(s, s, o->name, sizeof o->name);
    if (l->ntok == 4 && l->toks[3].k == T_STR)
        snprintf(o->detail, sizeof o->detail, "example %.*s", l->toks[3].len, l->toks[3].s);
    tok quoted = { T_STR, s->s - 1, s->len + 2, s->col }; /* the span with its quotes */
    /* a string token's col is its opening quote's, its len the text's: the closing quote is
     * at col + len + 1 */
    int end = last->col + last->len - 1 + 2 * (last->k == T_STR);
    give(o, directive, lr->no, &quoted, &quoted, lr->no, end);
}

static bool digits(const tok *t)
{
    for (int i = 0; i < t->len; i++)
        if (!text_is_digit(t->s[i]))
            return false;
    return t->len > 0;
}

/* Whether the fields are a grid header "A B C ...": letters only, the first one A. */
static bool header(const loader *l)
{
    if (l->ntok == 0 || l->toks[0].len != 1 || (l->toks[0].s[0] | 0x20) != 'a')
        return false;
    for (int i = 0; i < l->ntok; i++)
        for (int k = 0; k < l->toks[i].len; k++)
            if (((l->toks[i].s[k] | 0x20) < 'a') || ((l->toks[i].s[k] | 0x20) > 'z'))
                return false;
    return true;
}

size_t scn_outline(const char *text, size_t len, void (*fn)(void *ud, const scn_symbol *s),
                   void *ud)
{
    if (!text || !fn)
        return 0;
    loader *l = mem_calloc(1, sizeof *l);
    if (!l)
        return 0;
    scn_errors errs = { 0 }; /* the lines' errors are the loader's to report, not ours */
    l->text = text;
    l->len = len;
    l->errs = &errs;
    outline o = { .l = l, .fn = fn, .ud = ud };
    /* an open map or elevation block: its keyword's line and column, its last line so far */
    const char *grid = NULL;
    bool legend = false;
    int block_line = 0, block_col = 0, block_last = 0, block_end = 0;
    size_t off = 0;
    int no = 0;
    while (off <= len) {
        size_t end = off;
        while (end < len && text[end] != '\n')
            end++;
        line_ref lr = { off, end - off, ++no };
        off = end + 1;
        if (!text_split_fields(l, &lr) || l->ntok == 0)
            continue;
        if (legend && l->ntok >= 2 && l->toks[0].len == 1 && l->toks[1].len == 1 &&
            l->toks[1].s[0] == '=') {
            give_legend(&o, no, 0);
            continue;
        }
        legend = false;
        if (grid && (digits(&l->toks[0]) || header(l))) {
            block_last = no;
            block_end = l->toks[l->ntok - 1].col + l->toks[l->ntok - 1].len - 1;
            continue;
        }
        if (grid) {
            tok kw = { T_WORD, text, (int)strlen(grid), block_col };
            snprintf(o.name, sizeof o.name, "%s", grid);
            give(&o, grid, block_line, &kw, &kw, block_last, block_end);
            grid = NULL;
        }
        const tok *kw = &l->toks[0];
        if (text_tok_is(kw, "legend")) {
            give_legend(&o, no, 1);
            legend = true;
        } else if (text_tok_is(kw, "map") || text_tok_is(kw, "elevation")) {
            grid = text_tok_is(kw, "map") ? "map" : "elevation";
            block_line = block_last = no;
            block_col = kw->col;
            block_end = l->toks[l->ntok - 1].col + l->toks[l->ntok - 1].len - 1;
        } else if (text_tok_is(kw, "scenario") || text_tok_is(kw, "cite")) {
            give_string(&o, text_tok_is(kw, "scenario") ? "scenario" : "cite", &lr);
        } else if (text_tok_is(kw, "unit") || text_tok_is(kw, "element")) {
            give_named(&o, text_tok_is(kw, "unit") ? "unit" : "element", no);
        } else {
            static const char *const LINES[] = { "topology", "size",         "side",  "interspace",
                                                 "square",   "mine_counter", "colour" };
            for (size_t k = 0; k < sizeof LINES / sizeof *LINES; k++)
                if (text_tok_is(kw, LINES[k])) {
                    /* a setting is named with its keyword: "size 10 x 8" */
                    bool setting = k < 2;
                    if (setting) {
                        const tok *last = &l->toks[l->ntok - 1];
                        span_text(kw, last, o.name, sizeof o.name);
                        give(&o, LINES[k], no, kw, last, no, last->col + last->len - 1);
                    } else {
                        give_line(&o, LINES[k], no);
                    }
                }
        }
    }
    if (grid) {
        tok kw = { T_WORD, text, (int)strlen(grid), block_col };
        snprintf(o.name, sizeof o.name, "%s", grid);
        give(&o, grid, block_line, &kw, &kw, block_last, block_end);
    }
    scn_errors_free(&errs);
    mem_free(l);
    return o.n;
}
