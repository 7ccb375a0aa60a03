/* runtime/scenario.c — the scenario loader's public API (scenario.h) and its pass 1.
 *
 * Two passes. Pass 1 (here) reads the file line by line: the directives that shape the board
 * (size, topology, legend, map, elevation, title, cites, colours) are read at once; the others
 * (element, side, interspace, square, mine_counter, unit) are remembered and applied in pass 2
 * (scenario_place.c), in that order, once the board exists, so lines may come in any order.
 * Errors are collected, then sorted by position. Format and E3xx codes: docs/spec/board.md.
 */
#include <string.h>

#include "colour.h"
#include "hash.h"
#include "mem.h"
#include "scenario_text.h"

/* An entry of a scenario's index of units by name: loading and finding are linear in the
 * number of units, not quadratic (issue 13: 65,000 units took 14.7 s). */
struct scn_unit_name {
    const char *name; /* the unit's own name (borrowed from scenario.units) */
    int i;
    UT_hash_handle hh;
};

/* ---- errors ---- */

void scn_errors_free(scn_errors *e)
{
    if (!e)
        return;
    mem_free(e->items);
    e->items = NULL;
    e->len = e->cap = 0;
}

/* ---- pass 1: size, legend, map, elevation ---- */

static void defer(loader *l, const line_ref *lr)
{
    if (l->n_def == l->cap_def) {
        size_t ncap = l->cap_def ? l->cap_def * 2 : 32;
        line_ref *p = mem_realloc(l->deferred, ncap * sizeof *p);
        if (!p) {
            text_oom(l);
            return;
        }
        l->deferred = p;
        l->cap_def = ncap;
    }
    l->deferred[l->n_def++] = *lr;
}

static bool alloc_grids(loader *l)
{
    size_t n = (size_t)l->w * (size_t)l->h;
    l->cells = mem_malloc(n);
    l->cell_line = mem_malloc(n * sizeof(int));
    l->cell_col = mem_malloc(n * sizeof(int));
    l->elev = mem_malloc(n * sizeof(int));
    l->terr = mem_malloc(n * sizeof(int));
    l->explicit_sq = mem_malloc(n * sizeof(bool));
    if (!l->cells || !l->cell_line || !l->cell_col || !l->elev || !l->terr || !l->explicit_sq) {
        text_oom(l);
        return false;
    }
    memset(l->cells, 0, n);
    for (size_t i = 0; i < n; i++) {
        l->elev[i] = 0;
        l->terr[i] = -1;
        l->explicit_sq[i] = false;
        l->cell_line[i] = l->cell_col[i] = 0;
    }
    return true;
}

/* size W x H  |  size WxH */
static void do_size(loader *l, const line_ref *lr)
{
    long w = 0, h = 0;
    bool ok = false;
    if (l->have_size) {
        text_tok_error(l, E_SCN_SIZE, lr->no, &l->toks[0], "'size' given twice (first on line %d)",
                       l->size_line);
        return;
    }
    l->size_line_seen = true; /* its own error says what is wrong: no "no 'size' line" too */
    if (l->ntok == 4 && text_tok_is(&l->toks[2], "x")) {
        ok = text_int(l, lr->no, &l->toks[1], 1, GEO_MAX_DIM, &w) &&
             text_int(l, lr->no, &l->toks[3], 1, GEO_MAX_DIM, &h);
        if (!ok)
            return;
    } else if (l->ntok == 2 && l->toks[1].k == T_WORD) {
        /* "8x6" is one word */
        const tok *t = &l->toks[1];
        int xi = -1;
        for (int i = 0; i < t->len; i++)
            if (t->s[i] == 'x' || t->s[i] == 'X') {
                xi = i;
                break;
            }
        if (xi > 0 && xi < t->len - 1) {
            tok a = { T_WORD, t->s, xi, t->col },
                b = { T_WORD, t->s + xi + 1, t->len - xi - 1, t->col + xi + 1 };
            ok = text_int(l, lr->no, &a, 1, GEO_MAX_DIM, &w) &&
                 text_int(l, lr->no, &b, 1, GEO_MAX_DIM, &h);
            if (!ok)
                return;
        }
    }
    if (!ok) {
        text_tok_error(l, E_SCN_SIZE, lr->no, &l->toks[0],
                       "expected 'size W x H' (columns x rows, 1 to %d)", GEO_MAX_DIM);
        return;
    }
    l->have_size = true;
    l->w = (int)w;
    l->h = (int)h;
    l->size_line = lr->no;
    alloc_grids(l);
}

/* One legend line's fields from index i: `S = name [+ feature[=N]]...` repeated. */
static void do_legend_fields(loader *l, const line_ref *lr, int i)
{
    while (i < l->ntok) {
        const tok *sym = &l->toks[i];
        if (i + 2 >= l->ntok || !text_tok_is(&l->toks[i + 1], "=")) {
            text_tok_error(l, E_SCN_SYNTAX, lr->no, sym,
                           "expected a legend entry 'S = name' (symbol, '=', name, "
                           "separated by spaces)");
            return;
        }
        unsigned char c = (unsigned char)sym->s[0];
        if (sym->len != 1 || c < 0x21 || c > 0x7e) {
            text_tok_error(l, E_SCN_SYNTAX, lr->no, sym,
                           "a legend symbol is one printable ASCII character, found '%.*s'",
                           sym->len, sym->s);
            return;
        }
        legend_entry *e = &l->legend[c];
        const tok *name = &l->toks[i + 2];
        if (e->set) {
            text_tok_error(l, E_SCN_DUPLICATE, lr->no, sym,
                           "legend symbol '%c' defined twice (first on line %d)", c, e->line);
            /* keep reading the entry for its other errors, into a scratch entry */
        }
        legend_entry ne = { .set = true,
                            .line = lr->no,
                            .col = sym->col,
                            .terrain = -1,
                            .name = name->s,
                            .name_len = name->len };
        if (!text_tok_is(name, "none"))
            ne.terrain = text_resolve(l, lr->no, BOARD_TERRAIN, name);
        i += 3;
        while (i < l->ntok && text_tok_is(&l->toks[i], "+")) {
            if (i + 1 >= l->ntok) {
                text_tok_error(l, E_SCN_SYNTAX, lr->no, &l->toks[i],
                               "expected a square feature after '+'");
                return;
            }
            tok f = l->toks[i + 1];
            long v = 0;
            const char *eq = memchr(f.s, '=', (size_t)f.len);
            if (eq) {
                tok num = { T_WORD, eq + 1, f.len - (int)(eq + 1 - f.s),
                            f.col + (int)(eq + 1 - f.s) };
                f.len = (int)(eq - f.s);
                if (!text_int(l, lr->no, &num, -1000000000L, 1000000000L, &v))
                    v = 0;
            }
            if (ne.nfeat == MAX_LEGEND_FEATURES) {
                text_tok_error(l, E_SCN_SYNTAX, lr->no, &f, "at most %d features per legend symbol",
                               MAX_LEGEND_FEATURES);
                return;
            }
            int id = text_resolve(l, lr->no, BOARD_SQUARE_FEATURE, &f);
            ne.feat[ne.nfeat] = id;
            ne.fval[ne.nfeat] = (int)v;
            ne.fname[ne.nfeat] = f.s;
            ne.fname_len[ne.nfeat] = f.len;
            ne.nfeat++;
            i += 2;
        }
        if (!e->set)
            *e = ne;
    }
}

/* A grid header line "A B C ...": every field 1 to 3 letters, the first one "A". */
static bool is_header(const loader *l)
{
    if (l->ntok == 0 || !text_tok_is_ci(&l->toks[0], "A"))
        return false;
    for (int i = 0; i < l->ntok; i++) {
        if (l->toks[i].len > 3)
            return false;
        for (int k = 0; k < l->toks[i].len; k++) {
            char c = l->toks[i].s[k];
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')))
                return false;
        }
    }
    return true;
}

static void check_header(loader *l, const line_ref *lr)
{
    char want[8];
    for (int i = 0; i < l->ntok; i++) {
        if (i >= l->w) {
            text_tok_error(l, E_SCN_WIDTH, lr->no, &l->toks[i],
                           "column header names more columns than the board's %d", l->w);
            return;
        }
        geo_format_xy(i, 0, want, sizeof want);
        want[strlen(want) - 1] = '\0'; /* drop the row digit */
        if (!text_tok_is_ci(&l->toks[i], want)) {
            text_tok_error(l, E_SCN_WIDTH, lr->no, &l->toks[i],
                           "column header: expected '%s', found '%.*s'", want, l->toks[i].len,
                           l->toks[i].s);
            return;
        }
    }
    if (l->ntok < l->w) {
        const tok *t = &l->toks[l->ntok - 1];
        text_error(l, E_SCN_WIDTH, lr->no, t->col + t->len, 1,
                   "column header names %d columns; the board has %d", l->ntok, l->w);
    }
}

/* The row number of a grid line and the check of its order. Returns the row (0-based) to fill,
 * or -1 to skip the line. */
static int grid_row(loader *l, const line_ref *lr, int *rows_seen, const char *what)
{
    const tok *t = &l->toks[0];
    long n;
    if (t->len > 6) {
        text_tok_error(l, E_SCN_ROWS, lr->no, t, "row %.*s is beyond the board (%d rows)", t->len,
                       t->s, l->h);
        return -1;
    }
    if (!text_int(l, lr->no, t, 0, 999999, &n))
        return -1;
    if (n < 1 || n > l->h) {
        text_tok_error(l, E_SCN_ROWS, lr->no, t, "row %ld is beyond the board (%d rows)", n, l->h);
        return -1;
    }
    if (n <= *rows_seen) {
        text_tok_error(l, E_SCN_ROWS, lr->no, t,
                       "%s row %ld given twice or out of order (after row %d)", what, n,
                       *rows_seen);
        return -1;
    }
    if (n > *rows_seen + 1) {
        if (n == *rows_seen + 2)
            text_tok_error(l, E_SCN_ROWS, lr->no, t, "%s row %d is missing before row %ld", what,
                           *rows_seen + 1, n);
        else
            text_tok_error(l, E_SCN_ROWS, lr->no, t, "%s rows %d to %ld are missing before row %ld",
                           what, *rows_seen + 1, n - 1, n);
    }
    *rows_seen = (int)n;
    return (int)n - 1;
}

/* Cells of a grid line as tokens (one per square), expanding a compact row "1 ..hh..". */
static int row_cells(loader *l, tok *cells, bool digits_only)
{
    int n = l->ntok - 1;
    if (n == 1 && l->w > 1 && l->toks[1].len == l->w) {
        bool ok = true;
        for (int i = 0; digits_only && i < l->w; i++)
            ok = ok && text_is_digit(l->toks[1].s[i]);
        if (ok) {
            for (int i = 0; i < l->w; i++)
                cells[i] = (tok){ T_WORD, l->toks[1].s + i, 1, l->toks[1].col + i };
            return l->w;
        }
    }
    for (int i = 0; i < n; i++)
        cells[i] = l->toks[i + 1];
    return n;
}

static void width_error(loader *l, const line_ref *lr, int n, const tok *cells, const char *what)
{
    if (n > l->w)
        text_tok_error(l, E_SCN_WIDTH, lr->no, &cells[l->w],
                       "%s row %.*s has %d squares; the board is %d wide", what, l->toks[0].len,
                       l->toks[0].s, n, l->w);
    else {
        const tok *last = n > 0 ? &cells[n - 1] : &l->toks[0];
        text_error(l, E_SCN_WIDTH, lr->no, last->col + last->len, 1,
                   "%s row %.*s has %d squares; the board is %d wide", what, l->toks[0].len,
                   l->toks[0].s, n, l->w);
    }
}

static void do_map_row(loader *l, const line_ref *lr)
{
    int y = grid_row(l, lr, &l->map_rows, "map");
    if (y < 0)
        return;
    tok cells[MAX_TOKS];
    int n = row_cells(l, cells, false);
    for (int x = 0; x < n && x < l->w; x++) {
        const tok *c = &cells[x];
        if (c->len != 1) {
            text_tok_error(l, E_SCN_SYNTAX, lr->no, c,
                           "a map square is one symbol, found '%.*s' (separate squares "
                           "with spaces)",
                           c->len, c->s);
            continue;
        }
        int sq = y * l->w + x;
        l->cells[sq] = (unsigned char)c->s[0];
        l->cell_line[sq] = lr->no;
        l->cell_col[sq] = c->col;
    }
    if (n != l->w)
        width_error(l, lr, n, cells, "map");
}

static void do_elev_row(loader *l, const line_ref *lr)
{
    int y = grid_row(l, lr, &l->elev_rows, "elevation");
    if (y < 0)
        return;
    tok cells[MAX_TOKS];
    int n = row_cells(l, cells, true);
    for (int x = 0; x < n && x < l->w; x++) {
        long v;
        if (text_int(l, lr->no, &cells[x], -99, 999, &v))
            l->elev[y * l->w + x] = (int)v;
    }
    if (n != l->w)
        width_error(l, lr, n, cells, "elevation");
}

static void do_title(loader *l, const line_ref *lr)
{
    if (l->ntok != 2 || l->toks[1].k != T_STR) {
        text_tok_error(l, E_SCN_SYNTAX, lr->no, &l->toks[0], "expected 'scenario \"title\"'");
        return;
    }
    char *t = text_unescape(&l->toks[1]);
    if (!t) {
        text_oom(l);
        return;
    }
    mem_free(l->s->title);
    l->s->title = t;
}

static void do_cite(loader *l, const line_ref *lr)
{
    bool ok = l->ntok == 2 && l->toks[1].k == T_STR;
    ok = ok || (l->ntok == 4 && l->toks[1].k == T_STR && text_tok_is(&l->toks[2], "example") &&
                l->toks[3].k == T_STR);
    if (!ok) {
        text_tok_error(l, E_SCN_SYNTAX, lr->no, &l->toks[0],
                       "expected 'cite \"ID\"' or 'cite \"ID\" example \"A\"'");
        return;
    }
    scenario *s = l->s;
    scn_cite *p = mem_realloc(s->cites, (s->n_cites + 1) * sizeof *p);
    if (!p) {
        text_oom(l);
        return;
    }
    s->cites = p;
    scn_cite *c = &p[s->n_cites];
    c->id = text_unescape(&l->toks[1]);
    c->example = l->ntok == 4 ? text_unescape(&l->toks[3]) : NULL;
    s->n_cites++;
    if (!c->id || (l->ntok == 4 && !c->example))
        text_oom(l);
}

static void do_topology(loader *l, const line_ref *lr)
{
    if (l->have_size) {
        text_tok_error(l, E_SCN_SIZE, lr->no, &l->toks[0], "'topology' must come before 'size'");
        return;
    }
    if (l->ntok == 2 && text_tok_is(&l->toks[1], "square"))
        l->topo = GEO_SQUARE;
    else if (l->ntok == 2 && text_tok_is(&l->toks[1], "hex"))
        l->topo = GEO_HEX;
    else {
        text_tok_error(l, E_SCN_SYNTAX, lr->no, &l->toks[0],
                       "expected 'topology square' or 'topology hex'");
        return;
    }
    l->have_topo = true;
}

/* colour (terrain | side | army) NAME "COLOUR" */
static void do_colour(loader *l, const line_ref *lr)
{
    static const char *KINDS[3] = { "terrain", "side", "army" };
    static const board_name_kind BK[3] = { BOARD_TERRAIN, BOARD_SIDE_FEATURE, BOARD_ARMY };
    int k = -1;
    for (int j = 0; j < 3 && l->ntok > 1; j++)
        if (text_tok_is(&l->toks[1], KINDS[j]))
            k = j;
    if (l->ntok != 4 || k < 0 || l->toks[3].k != T_STR) {
        text_tok_error(l, E_SCN_SYNTAX, lr->no, &l->toks[0],
                       "expected 'colour terrain|side|army NAME \"#rrggbb\"'");
        return;
    }
    const tok *c = &l->toks[3];
    if (c->len <= 0 || !colour_valid(c->s, (size_t)c->len)) {
        const char *near = colour_near(c->s, c->len > 0 ? (size_t)c->len : 0);
        text_tok_error(
            l, E_SCN_SYNTAX, lr->no, c,
            "a colour is \"#rrggbb\" or an SVG colour name (\"olive\"), not \"%.*s\"%s%s%s",
            c->len > 40 ? 40 : c->len, c->s, near ? " (did you mean `" : "", near ? near : "",
            near ? "`?)" : "");
        return;
    }
    int id = text_resolve(l, lr->no, BK[k], &l->toks[2]);
    if (id < 0)
        return;
    if (k == 0)
        text_set_colour(l, &l->s->terrain_colours, &l->s->n_terrain_colours, id, c);
    else if (k == 1)
        text_set_colour(l, &l->s->side_colours, &l->s->n_side_colours, id, c);
    else
        text_set_colour(l, &l->s->army_colours, &l->s->n_army_colours, id, c);
}

/* Starts a map or elevation block. */
static block do_grid_start(loader *l, const line_ref *lr, bool map)
{
    const tok *kw = &l->toks[0];
    if (l->ntok > 1) {
        text_tok_error(l, E_SCN_SYNTAX, lr->no, &l->toks[1],
                       "nothing may follow '%s' on its line; the rows come on the next lines",
                       map ? "map" : "elevation");
    }
    if (!l->have_size) {
        text_tok_error(l, E_SCN_SIZE, lr->no, kw, "'%s' needs the board size first ('size W x H')",
                       map ? "map" : "elevation");
        return B_SKIP_GRID;
    }
    bool *have = map ? &l->have_map : &l->have_elev;
    if (*have) {
        text_tok_error(l, E_SCN_ROWS, lr->no, kw, "a second '%s' (the first is on line %d)",
                       map ? "map" : "elevation", map ? l->map_line : l->elev_line);
        return B_SKIP_GRID;
    }
    *have = true;
    if (map) {
        l->map_line = lr->no;
        l->map_col = kw->col;
    } else {
        l->elev_line = lr->no;
        l->elev_col = kw->col;
    }
    return map ? B_MAP : B_ELEV;
}

static bool all_digits(const tok *t)
{
    if (t->len == 0)
        return false;
    for (int i = 0; i < t->len; i++)
        if (!text_is_digit(t->s[i]))
            return false;
    return true;
}

static void pass1(loader *l)
{
    block blk = B_NONE;
    size_t off = 0;
    int no = 0;
    while (off <= l->len && !l->stopped && !l->oom) {
        /* a file with an error before any directive is clearly no scenario (a rule file,
           /etc/passwd named by mistake or by a hostile test): its first error alone is said
           (the line quoted once), not fifty lines of it */
        if (!l->directive && l->nerr > 0) {
            l->stopped = true;
            break;
        }
        size_t end = off;
        while (end < l->len && l->text[end] != '\n')
            end++;
        line_ref lr = { off, end - off, ++no };
        off = end + 1;
        if (!text_split_fields(l, &lr))
            continue; /* its E301 says the line is too long; nothing else of it is read */
        if (l->ntok == 0) {
            if (end >= l->len)
                break;
            continue;
        }
        /* Inside a block, a line that fits the block belongs to it. */
        if (blk == B_LEGEND && l->ntok >= 2 && l->toks[0].len == 1 &&
            text_tok_is(&l->toks[1], "=")) {
            do_legend_fields(l, &lr, 0);
            continue;
        }
        if (blk == B_MAP || blk == B_ELEV || blk == B_SKIP_GRID) {
            if (all_digits(&l->toks[0])) {
                if (blk == B_MAP)
                    do_map_row(l, &lr);
                else if (blk == B_ELEV)
                    do_elev_row(l, &lr);
                continue;
            }
            if (is_header(l)) {
                if (blk != B_SKIP_GRID)
                    check_header(l, &lr);
                continue;
            }
        }
        blk = B_NONE;
        const tok kw = l->toks[0];
        if (text_tok_is(&kw, "legend")) {
            l->directive = true;
            do_legend_fields(l, &lr, 1);
            blk = B_LEGEND;
            continue;
        }
        if (!text_tokenize(l, &lr) || l->ntok == 0)
            continue;
        static const char *const directives[] = {
            "scenario", "cite",   "topology", "colour", "size",       "map",         "elevation",
            "side",     "square", "element",  "unit",   "interspace", "mine_counter"
        };
        for (size_t d = 0; d < sizeof directives / sizeof *directives; d++)
            l->directive |= text_tok_is(&l->toks[0], directives[d]);
        if (text_tok_is(&l->toks[0], "scenario"))
            do_title(l, &lr);
        else if (text_tok_is(&l->toks[0], "cite"))
            do_cite(l, &lr);
        else if (text_tok_is(&l->toks[0], "topology"))
            do_topology(l, &lr);
        else if (text_tok_is(&l->toks[0], "colour"))
            do_colour(l, &lr);
        else if (text_tok_is(&l->toks[0], "size"))
            do_size(l, &lr);
        else if (text_tok_is(&l->toks[0], "map"))
            blk = do_grid_start(l, &lr, true);
        else if (text_tok_is(&l->toks[0], "elevation"))
            blk = do_grid_start(l, &lr, false);
        else if (text_tok_is(&l->toks[0], "side") || text_tok_is(&l->toks[0], "interspace") ||
                 text_tok_is(&l->toks[0], "square") || text_tok_is(&l->toks[0], "element") ||
                 text_tok_is(&l->toks[0], "unit") || text_tok_is(&l->toks[0], "mine_counter")) {
            if (!l->have_size)
                text_tok_error(l, E_SCN_SIZE, lr.no, &l->toks[0],
                               "'%.*s' needs the board size first ('size W x H')", l->toks[0].len,
                               l->toks[0].s);
            else
                defer(l, &lr);
        } else if (all_digits(&l->toks[0]))
            text_tok_error(l, E_SCN_ROWS, lr.no, &l->toks[0],
                           "a grid row outside a 'map' or 'elevation' block");
        else
            text_tok_error(
                l, E_SCN_SYNTAX, lr.no, &l->toks[0],
                "unknown directive '%.*s' (expected scenario, cite, "
                "topology, size, legend, map, elevation, element, side, interspace, square, "
                "mine_counter, unit or colour)",
                l->toks[0].len, l->toks[0].s);
    }
}

/* Sorts the errors added by this load by position (insertion sort: at most 51), keeping a
 * trailing E314 last. */
static void sort_errors(loader *l)
{
    if (!l->errs->items) /* no error at all: the list was never allocated */
        return;
    scn_error *a = l->errs->items + l->first_err;
    size_t n = l->errs->len - l->first_err;
    if (n > 0 && a[n - 1].code == E_SCN_TOO_MANY)
        n--;
    for (size_t i = 1; i < n; i++) {
        scn_error x = a[i];
        size_t j = i;
        while (j > 0 &&
               (a[j - 1].line > x.line || (a[j - 1].line == x.line && a[j - 1].col > x.col))) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

static void loader_free(loader *l)
{
    mem_free(l->cells);
    mem_free(l->cell_line);
    mem_free(l->cell_col);
    mem_free(l->elev);
    mem_free(l->terr);
    mem_free(l->explicit_sq);
    mem_free(l->deferred);
    for (size_t i = 0; i < l->n_en; i++)
        mem_free(l->enames[i].name);
    mem_free(l->enames);
}

scenario *scn_load(const char *text, size_t len, const scn_resolver *r, scn_errors *errs)
{
    loader *l = mem_malloc(sizeof *l);
    scenario *s = mem_malloc(sizeof *s);
    if (!l || !s) {
        mem_free(l);
        mem_free(s);
        if (errs) {
            loader tmp = { .errs = errs };
            text_push_error(&tmp, E_SCN_MEMORY, 1, 1, 1, "out of memory");
        }
        return NULL;
    }
    memset(l, 0, sizeof *l);
    memset(s, 0, sizeof *s);
    scn_errors scratch = { 0 };
    l->text = text ? text : "";
    l->len = text ? len : 0;
    l->r = r;
    l->errs = errs ? errs : &scratch;
    l->first_err = l->errs->len;
    l->s = s;
    l->topo = GEO_SQUARE;
    static const scn_resolver none = { 0 };
    if (!l->r)
        l->r = &none;
    pass1(l);
    if (!l->have_size && !l->size_line_seen && !l->stopped && !l->oom)
        text_error(l, E_SCN_SIZE, 1, 1, 1,
                   "no 'size' line: a scenario needs 'size W x H' (columns x rows)");
    if (l->have_size && !l->oom)
        place_board(l);
    if (l->oom)
        text_push_error(l, E_SCN_MEMORY, 1, 1, 1, "out of memory");
    sort_errors(l);
    bool failed = l->errs->len > l->first_err || l->oom;
    loader_free(l);
    mem_free(l);
    scn_errors_free(&scratch);
    if (!s->title && !failed) {
        s->title = mem_malloc(1);
        if (s->title)
            s->title[0] = '\0';
        else
            failed = true;
    }
    if (failed) {
        scn_free(s);
        return NULL;
    }
    return s;
}

void scn_free(scenario *s)
{
    if (!s)
        return;
    mem_free(s->title);
    for (size_t i = 0; i < s->n_cites; i++) {
        mem_free(s->cites[i].id);
        mem_free(s->cites[i].example);
    }
    mem_free(s->cites);
    board_free(s->board);
    mem_free(s->symbols);
    mem_free(s->symbol_terrain);
    struct scn_unit_name *e, *next;
    HASH_ITER(hh, s->unit_names, e, next)
    {
        HASH_DEL(s->unit_names, e);
        mem_free(e);
    }
    for (size_t i = 0; i < s->n_units; i++) {
        mem_free(s->units[i].name);
        mem_free(s->units[i].markers);
    }
    mem_free(s->units);
    char **lists[4] = { s->terrain_colours, s->side_colours, s->unit_colours, s->army_colours };
    size_t ns[4] = { s->n_terrain_colours, s->n_side_colours, s->n_unit_colours,
                     s->n_army_colours };
    for (int k = 0; k < 4; k++) {
        for (size_t i = 0; i < ns[k]; i++)
            mem_free(lists[k][i]);
        mem_free(lists[k]);
    }
    mem_free(s);
}

bool scn_unit_index(scenario *s, int i)
{
    struct scn_unit_name *e = mem_malloc(sizeof *e);
    if (!e)
        return false;
    e->name = s->units[i].name;
    e->i = i;
    HASH_ADD_KEYPTR(hh, s->unit_names, e->name, strlen(e->name), e);
    if (HON_HASH_ADDED(e))
        return true;
    mem_free(e);
    return false;
}

int scn_unit_find(const scenario *s, const char *name)
{
    struct scn_unit_name *e = NULL;
    if (s && name)
        HASH_FIND_STR(s->unit_names, name, e);
    return e ? e->i : -1;
}
