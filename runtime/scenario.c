/* runtime/scenario.c — the scenario loader (scenario.h) and the ready-made name table.
 *
 * Two passes. Pass 1 reads the file line by line: the directives that shape the board (size,
 * topology, legend, map, elevation, title, cites) are read at once; the others (element,
 * side, interspace, square, unit) are remembered and applied in pass 2, in that order, once
 * the board exists, so lines may come in any order. Errors are collected, then sorted by
 * position. The format and the E3xx codes are in docs/spec/board.md.
 */
#include "scenario.h"

#include <stdarg.h>
#include <string.h>

#include "mem.h"

#define MAX_ERRORS 50
#define MAX_TOKS 256
#define MAX_NAME 127
#define MAX_LEGEND_FEATURES 8

/* ---- errors ---- */

void scn_errors_free(scn_errors *e) {
    if (!e) return;
    hon_free(e->items);
    e->items = NULL;
    e->len = e->cap = 0;
}

/* ---- text helpers ---- */

typedef enum tkind { T_WORD, T_STR, T_PUNCT } tkind;

/* A token or a whitespace-separated field of one line; s points into the scenario text. */
typedef struct tok {
    tkind k;
    const char *s;
    int len;
    int col;
} tok;

typedef struct line_ref {
    size_t off, len;    /* the line without its newline */
    int no;
} line_ref;

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
static bool is_word(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Length of the line before its comment ('#' outside a string). */
static size_t code_len(const char *s, size_t len) {
    bool in_str = false;
    for (size_t i = 0; i < len; i++) {
        if (in_str) {
            if (s[i] == '\\') i++;
            else if (s[i] == '"') in_str = false;
        } else if (s[i] == '"') in_str = true;
        else if (s[i] == '#') return i;
    }
    return len;
}

static bool tok_is(const tok *t, const char *w) {
    size_t n = strlen(w);
    return (size_t)t->len == n && memcmp(t->s, w, n) == 0;
}

/* Case-insensitive tok_is, for compass directions. */
static bool tok_is_ci(const tok *t, const char *w) {
    size_t n = strlen(w);
    if ((size_t)t->len != n) return false;
    for (size_t i = 0; i < n; i++) {
        char c = t->s[i];
        if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        if (c != w[i]) return false;
    }
    return true;
}

/* ---- the loader ---- */

typedef struct legend_entry {
    bool set;
    int line, col;
    int terrain;                      /* -1: no terrain */
    const char *name;                 /* in the text */
    int name_len;
    int nfeat;
    int feat[MAX_LEGEND_FEATURES];
    int fval[MAX_LEGEND_FEATURES];
    const char *fname[MAX_LEGEND_FEATURES];
    int fname_len[MAX_LEGEND_FEATURES];
} legend_entry;

typedef struct ename {
    char *name;
    int elem;
    int line;
} ename;

typedef enum block { B_NONE, B_LEGEND, B_MAP, B_ELEV, B_SKIP_GRID } block;

typedef struct loader {
    const char *text;
    size_t len;
    const scn_resolver *r;
    scn_errors *errs;
    size_t first_err;
    int nerr;
    bool stopped, oom;
    scenario *s;
    board *b;
    /* size */
    bool have_size, have_topo;
    int w, h, size_line;
    geo_topology topo;
    /* legend, map, elevation */
    legend_entry legend[128];
    bool have_map, have_elev;
    int map_line, map_col, map_rows;
    int elev_line, elev_col, elev_rows;
    unsigned char *cells;             /* w*h symbols, 0 = not given */
    int *cell_line, *cell_col;
    int *elev;
    int *terr;                        /* w*h terrain from the map, -1 */
    /* deferred lines and explicit elements */
    line_ref *deferred;
    size_t n_def, cap_def;
    ename *enames;
    size_t n_en, cap_en;
    bool *explicit_sq;                /* w*h: square in an explicit element */
    char **army_colours;              /* by army id, from `colour army` lines */
    size_t n_army_colours;
    /* scratch tokens */
    tok toks[MAX_TOKS];
    int ntok;
} loader;

static void add_error(loader *l, int code, int line, int col, int len, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void push_error(loader *l, int code, int line, int col, int len, const char *msg) {
    scn_errors *e = l->errs;
    if (e->len == e->cap) {
        size_t ncap = e->cap ? e->cap * 2 : 16;
        scn_error *p = hon_realloc(e->items, ncap * sizeof *p);
        if (!p) { l->oom = true; return; }
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

static void add_error(loader *l, int code, int line, int col, int len, const char *fmt, ...) {
    if (l->stopped) return;
    char msg[sizeof ((scn_error *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (l->nerr == MAX_ERRORS) {
        push_error(l, 314, line, col, 1, "too many errors; stopping here");
        l->stopped = true;
        return;
    }
    l->nerr++;
    push_error(l, code, line, col, len, msg);
}

static void tok_error(loader *l, int code, int line, const tok *t, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void tok_error(loader *l, int code, int line, const tok *t, const char *fmt, ...) {
    char msg[sizeof ((scn_error *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    add_error(l, code, line, t->col, t->len, "%s", msg);
}

static void oom(loader *l) { l->oom = true; }

static const char *KIND_TEXT[BOARD_NKINDS] = {
    "terrain", "square feature", "side feature", "interspace item", "marker", "counter", "army",
};

/* Splits line `lr` (comment removed) into whitespace-separated fields in l->toks. */
static void split_fields(loader *l, const line_ref *lr) {
    const char *s = l->text + lr->off;
    size_t n = code_len(s, lr->len);
    l->ntok = 0;
    for (size_t i = 0; i < n;) {
        if (is_space(s[i])) { i++; continue; }
        size_t j = i;
        while (j < n && !is_space(s[j])) j++;
        if (l->ntok == MAX_TOKS) {
            add_error(l, 301, lr->no, (int)i + 1, 1, "line too long (more than %d items)", MAX_TOKS);
            return;
        }
        l->toks[l->ntok++] = (tok){T_WORD, s + i, (int)(j - i), (int)i + 1};
        i = j;
    }
}

/* Splits line `lr` into tokens: words [A-Za-z0-9_]+ (with a leading '-' before a digit),
 * "strings", "..", and single punctuation characters. Returns false after a lexical error. */
static bool tokenize(loader *l, const line_ref *lr) {
    const char *s = l->text + lr->off;
    size_t n = code_len(s, lr->len);
    l->ntok = 0;
    for (size_t i = 0; i < n;) {
        char c = s[i];
        if (is_space(c)) { i++; continue; }
        if (l->ntok == MAX_TOKS) {
            add_error(l, 301, lr->no, (int)i + 1, 1, "line too long (more than %d items)", MAX_TOKS);
            return false;
        }
        tok *t = &l->toks[l->ntok];
        t->col = (int)i + 1;
        if (c == '"') {
            size_t j = i + 1;
            while (j < n && s[j] != '"') j += s[j] == '\\' ? 2 : 1;
            if (j >= n) {
                add_error(l, 301, lr->no, (int)i + 1, 1, "unterminated string");
                return false;
            }
            *t = (tok){T_STR, s + i + 1, (int)(j - i - 1), (int)i + 1};
            i = j + 1;
        } else if (is_word(c) || (c == '-' && i + 1 < n && is_digit(s[i + 1]))) {
            size_t j = i + 1;
            while (j < n && is_word(s[j])) j++;
            *t = (tok){T_WORD, s + i, (int)(j - i), (int)i + 1};
            i = j;
        } else if (c == '.' && i + 1 < n && s[i + 1] == '.') {
            *t = (tok){T_PUNCT, s + i, 2, (int)i + 1};
            i += 2;
        } else {
            *t = (tok){T_PUNCT, s + i, 1, (int)i + 1};
            i++;
        }
        l->ntok++;
    }
    return true;
}

/* Copies a name token into buf (NUL-terminated). False (with E301) when too long. */
static bool name_of(loader *l, int line, const tok *t, char *buf) {
    if (t->len > MAX_NAME) {
        tok_error(l, 301, line, t, "name too long (at most %d characters)", MAX_NAME);
        return false;
    }
    memcpy(buf, t->s, (size_t)t->len);
    buf[t->len] = '\0';
    return true;
}

/* True when t is an identifier: letters, digits, underscores, not starting with a digit. */
static bool is_ident(const tok *t) {
    if (t->k != T_WORD || t->len == 0 || is_digit(t->s[0]) || t->s[0] == '-') return false;
    for (int i = 0; i < t->len; i++)
        if (!is_word(t->s[i])) return false;
    return true;
}

/* Resolves a name token of kind k; reports E303 and returns -1 when unknown. */
static int resolve(loader *l, int line, board_name_kind k, const tok *t) {
    char buf[MAX_NAME + 1];
    if (!name_of(l, line, t, buf)) return -1;
    if (!is_ident(t)) {
        tok_error(l, 301, line, t, "expected a %s name, found '%s'", KIND_TEXT[k], buf);
        return -1;
    }
    int id = l->r && l->r->resolve ? l->r->resolve(l->r->ud, k, buf) : -1;
    if (id < 0 || id >= BOARD_MAX_ID) {
        tok_error(l, 303, line, t, "unknown %s '%s'", KIND_TEXT[k], buf);
        return -1;
    }
    if (l->b && !board_name(l->b, k, id)) {
        char sym = 0;
        if (board_set_name(l->b, k, id, buf, sym) != GEO_OK) oom(l);
    }
    return id;
}

/* Parses an integer token in [lo, hi]; E301 when not a number, E315 when out of range. */
static bool int_of(loader *l, int line, const tok *t, long lo, long hi, long *out) {
    int i = 0;
    bool neg = false;
    if (t->len > 0 && t->s[0] == '-') { neg = true; i = 1; }
    if (i == t->len) goto bad;
    long v = 0;
    for (; i < t->len; i++) {
        if (!is_digit(t->s[i])) goto bad;
        if (v > 100000000L) {
            tok_error(l, 315, line, t, "number %.*s is out of range (%ld to %ld)", t->len, t->s, lo, hi);
            return false;
        }
        v = v * 10 + (t->s[i] - '0');
    }
    if (neg) v = -v;
    if (v < lo || v > hi) {
        tok_error(l, 315, line, t, "number %.*s is out of range (%ld to %ld)", t->len, t->s, lo, hi);
        return false;
    }
    *out = v;
    return true;
bad:
    tok_error(l, 301, line, t, "expected a number, found '%.*s'", t->len, t->s);
    return false;
}

/* The square named by token t: -2 when t is not a coordinate at all, -1 (with E304) when it
 * is one but off the board, else the square. */
static int square_of(loader *l, int line, const tok *t) {
    int x, y;
    if (t->k != T_WORD || geo_parse_xy(t->s, (size_t)t->len, &x, &y) != GEO_OK) return -2;
    int sq = geo_square(board_grid(l->b), x, y);
    if (sq < 0) {
        char last[16];
        geo_format_xy(l->w - 1, l->h - 1, last, sizeof last);
        tok_error(l, 304, line, t, "square %.*s is outside the board (A1 to %s)", t->len, t->s, last);
        return -1;
    }
    return sq;
}

/* A compass direction token; -1 when not one. */
static int dir_of(const tok *t) {
    static const char *D[GEO_NDIRS] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
    for (int d = 0; d < GEO_NDIRS; d++)
        if (t->k == T_WORD && tok_is_ci(t, D[d])) return d;
    return -1;
}

static const char *dir_name(int d) {
    static const char *D[GEO_NDIRS] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
    return d >= 0 && d < GEO_NDIRS ? D[d] : "?";
}

static bool dir_ok_for(geo_topology topo, int d) {
    return d >= 0 && !(topo == GEO_HEX && (d == GEO_E || d == GEO_W));
}

/* ---- pass 1: size, legend, map, elevation ---- */

static void defer(loader *l, const line_ref *lr) {
    if (l->n_def == l->cap_def) {
        size_t ncap = l->cap_def ? l->cap_def * 2 : 32;
        line_ref *p = hon_realloc(l->deferred, ncap * sizeof *p);
        if (!p) { oom(l); return; }
        l->deferred = p;
        l->cap_def = ncap;
    }
    l->deferred[l->n_def++] = *lr;
}

static bool alloc_grids(loader *l) {
    size_t n = (size_t)l->w * (size_t)l->h;
    l->cells = hon_malloc(n);
    l->cell_line = hon_malloc(n * sizeof(int));
    l->cell_col = hon_malloc(n * sizeof(int));
    l->elev = hon_malloc(n * sizeof(int));
    l->terr = hon_malloc(n * sizeof(int));
    l->explicit_sq = hon_malloc(n * sizeof(bool));
    if (!l->cells || !l->cell_line || !l->cell_col || !l->elev || !l->terr || !l->explicit_sq) {
        oom(l);
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
static void do_size(loader *l, const line_ref *lr) {
    long w = 0, h = 0;
    bool ok = false;
    if (l->have_size) {
        tok_error(l, 307, lr->no, &l->toks[0], "'size' given twice (first on line %d)", l->size_line);
        return;
    }
    if (l->ntok == 4 && tok_is(&l->toks[2], "x")) {
        ok = int_of(l, lr->no, &l->toks[1], 1, GEO_MAX_DIM, &w) &&
             int_of(l, lr->no, &l->toks[3], 1, GEO_MAX_DIM, &h);
        if (!ok) return;
    } else if (l->ntok == 2 && l->toks[1].k == T_WORD) {
        /* "8x6" is one word */
        const tok *t = &l->toks[1];
        int xi = -1;
        for (int i = 0; i < t->len; i++)
            if (t->s[i] == 'x' || t->s[i] == 'X') { xi = i; break; }
        if (xi > 0 && xi < t->len - 1) {
            tok a = {T_WORD, t->s, xi, t->col}, b = {T_WORD, t->s + xi + 1, t->len - xi - 1,
                                                     t->col + xi + 1};
            ok = int_of(l, lr->no, &a, 1, GEO_MAX_DIM, &w) && int_of(l, lr->no, &b, 1, GEO_MAX_DIM, &h);
            if (!ok) return;
        }
    }
    if (!ok) {
        tok_error(l, 307, lr->no, &l->toks[0], "expected 'size W x H' (columns x rows, 1 to %d)",
                  GEO_MAX_DIM);
        return;
    }
    l->have_size = true;
    l->w = (int)w;
    l->h = (int)h;
    l->size_line = lr->no;
    alloc_grids(l);
}

/* One legend line's fields from index i: `S = name [+ feature[=N]]...` repeated. */
static void do_legend_fields(loader *l, const line_ref *lr, int i) {
    while (i < l->ntok) {
        const tok *sym = &l->toks[i];
        if (i + 2 >= l->ntok || !tok_is(&l->toks[i + 1], "=")) {
            tok_error(l, 301, lr->no, sym, "expected a legend entry 'S = name' (symbol, '=', name, "
                      "separated by spaces)");
            return;
        }
        unsigned char c = (unsigned char)sym->s[0];
        if (sym->len != 1 || c < 0x21 || c > 0x7e) {
            tok_error(l, 301, lr->no, sym, "a legend symbol is one printable character, found '%.*s'",
                      sym->len, sym->s);
            return;
        }
        legend_entry *e = &l->legend[c];
        const tok *name = &l->toks[i + 2];
        if (e->set) {
            tok_error(l, 310, lr->no, sym, "legend symbol '%c' defined twice (first on line %d)", c,
                      e->line);
            /* keep reading the entry for its other errors, into a scratch entry */
        }
        legend_entry ne = {.set = true, .line = lr->no, .col = sym->col, .terrain = -1,
                           .name = name->s, .name_len = name->len};
        if (!tok_is(name, "none")) ne.terrain = resolve(l, lr->no, BOARD_TERRAIN, name);
        i += 3;
        while (i < l->ntok && tok_is(&l->toks[i], "+")) {
            if (i + 1 >= l->ntok) {
                tok_error(l, 301, lr->no, &l->toks[i], "expected a square feature after '+'");
                return;
            }
            tok f = l->toks[i + 1];
            long v = 0;
            const char *eq = memchr(f.s, '=', (size_t)f.len);
            if (eq) {
                tok num = {T_WORD, eq + 1, f.len - (int)(eq + 1 - f.s), f.col + (int)(eq + 1 - f.s)};
                f.len = (int)(eq - f.s);
                if (!int_of(l, lr->no, &num, -1000000000L, 1000000000L, &v)) v = 0;
            }
            if (ne.nfeat == MAX_LEGEND_FEATURES) {
                tok_error(l, 301, lr->no, &f, "at most %d features per legend symbol", MAX_LEGEND_FEATURES);
                return;
            }
            int id = resolve(l, lr->no, BOARD_SQUARE_FEATURE, &f);
            ne.feat[ne.nfeat] = id;
            ne.fval[ne.nfeat] = (int)v;
            ne.fname[ne.nfeat] = f.s;
            ne.fname_len[ne.nfeat] = f.len;
            ne.nfeat++;
            i += 2;
        }
        if (!e->set) *e = ne;
    }
}

/* A grid header line "A B C ...": every field 1 to 3 letters, the first one "A". */
static bool is_header(const loader *l) {
    if (l->ntok == 0 || !tok_is_ci(&l->toks[0], "A")) return false;
    for (int i = 0; i < l->ntok; i++) {
        if (l->toks[i].len > 3) return false;
        for (int k = 0; k < l->toks[i].len; k++) {
            char c = l->toks[i].s[k];
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return false;
        }
    }
    return true;
}

static void check_header(loader *l, const line_ref *lr) {
    char want[8];
    for (int i = 0; i < l->ntok; i++) {
        if (i >= l->w) {
            tok_error(l, 305, lr->no, &l->toks[i], "column header names more columns than the "
                      "board's %d", l->w);
            return;
        }
        geo_format_xy(i, 0, want, sizeof want);
        want[strlen(want) - 1] = '\0'; /* drop the row digit */
        if (!tok_is_ci(&l->toks[i], want)) {
            tok_error(l, 305, lr->no, &l->toks[i], "column header: expected '%s', found '%.*s'", want,
                      l->toks[i].len, l->toks[i].s);
            return;
        }
    }
    if (l->ntok < l->w) {
        const tok *t = &l->toks[l->ntok - 1];
        add_error(l, 305, lr->no, t->col + t->len, 1, "column header names %d columns; the board "
                  "has %d", l->ntok, l->w);
    }
}

/* The row number of a grid line and the check of its order. Returns the row (0-based) to fill,
 * or -1 to skip the line. */
static int grid_row(loader *l, const line_ref *lr, int *rows_seen, const char *what) {
    const tok *t = &l->toks[0];
    long n;
    if (t->len > 6) {
        tok_error(l, 306, lr->no, t, "row %.*s is beyond the board (%d rows)", t->len, t->s, l->h);
        return -1;
    }
    if (!int_of(l, lr->no, t, 0, 999999, &n)) return -1;
    if (n < 1 || n > l->h) {
        tok_error(l, 306, lr->no, t, "row %ld is beyond the board (%d rows)", n, l->h);
        return -1;
    }
    if (n <= *rows_seen) {
        tok_error(l, 306, lr->no, t, "%s row %ld given twice or out of order (after row %d)", what, n,
                  *rows_seen);
        return -1;
    }
    if (n > *rows_seen + 1) {
        if (n == *rows_seen + 2)
            tok_error(l, 306, lr->no, t, "%s row %d is missing before row %ld", what, *rows_seen + 1, n);
        else
            tok_error(l, 306, lr->no, t, "%s rows %d to %ld are missing before row %ld", what,
                      *rows_seen + 1, n - 1, n);
    }
    *rows_seen = (int)n;
    return (int)n - 1;
}

/* Cells of a grid line as tokens (one per square), expanding a compact row "1 ..hh..". */
static int row_cells(loader *l, tok *cells, bool digits_only) {
    int n = l->ntok - 1;
    if (n == 1 && l->w > 1 && l->toks[1].len == l->w) {
        bool ok = true;
        for (int i = 0; digits_only && i < l->w; i++) ok = ok && is_digit(l->toks[1].s[i]);
        if (ok) {
            for (int i = 0; i < l->w; i++)
                cells[i] = (tok){T_WORD, l->toks[1].s + i, 1, l->toks[1].col + i};
            return l->w;
        }
    }
    for (int i = 0; i < n; i++) cells[i] = l->toks[i + 1];
    return n;
}

static void width_error(loader *l, const line_ref *lr, int n, const tok *cells, const char *what) {
    if (n > l->w)
        tok_error(l, 305, lr->no, &cells[l->w], "%s row %.*s has %d squares; the board is %d wide",
                  what, l->toks[0].len, l->toks[0].s, n, l->w);
    else {
        const tok *last = n > 0 ? &cells[n - 1] : &l->toks[0];
        add_error(l, 305, lr->no, last->col + last->len, 1, "%s row %.*s has %d squares; the board "
                  "is %d wide", what, l->toks[0].len, l->toks[0].s, n, l->w);
    }
}

static void do_map_row(loader *l, const line_ref *lr) {
    int y = grid_row(l, lr, &l->map_rows, "map");
    if (y < 0) return;
    tok cells[MAX_TOKS];
    int n = row_cells(l, cells, false);
    for (int x = 0; x < n && x < l->w; x++) {
        const tok *c = &cells[x];
        if (c->len != 1) {
            tok_error(l, 301, lr->no, c, "a map square is one symbol, found '%.*s' (separate squares "
                      "with spaces)", c->len, c->s);
            continue;
        }
        int sq = y * l->w + x;
        l->cells[sq] = (unsigned char)c->s[0];
        l->cell_line[sq] = lr->no;
        l->cell_col[sq] = c->col;
    }
    if (n != l->w) width_error(l, lr, n, cells, "map");
}

static void do_elev_row(loader *l, const line_ref *lr) {
    int y = grid_row(l, lr, &l->elev_rows, "elevation");
    if (y < 0) return;
    tok cells[MAX_TOKS];
    int n = row_cells(l, cells, true);
    for (int x = 0; x < n && x < l->w; x++) {
        long v;
        if (int_of(l, lr->no, &cells[x], -99, 999, &v)) l->elev[y * l->w + x] = (int)v;
    }
    if (n != l->w) width_error(l, lr, n, cells, "elevation");
}

static char *unescape(const tok *t) {
    char *d = hon_malloc((size_t)t->len + 1);
    if (!d) return NULL;
    size_t n = 0;
    for (int i = 0; i < t->len; i++) {
        char c = t->s[i];
        if (c == '\\' && i + 1 < t->len) {
            c = t->s[++i];
            if (c == 'n') c = '\n';
        }
        d[n++] = c;
    }
    d[n] = '\0';
    return d;
}

static void do_title(loader *l, const line_ref *lr) {
    if (l->ntok != 2 || l->toks[1].k != T_STR) {
        tok_error(l, 301, lr->no, &l->toks[0], "expected 'scenario \"title\"'");
        return;
    }
    char *t = unescape(&l->toks[1]);
    if (!t) { oom(l); return; }
    hon_free(l->s->title);
    l->s->title = t;
}

static void do_cite(loader *l, const line_ref *lr) {
    bool ok = l->ntok == 2 && l->toks[1].k == T_STR;
    ok = ok || (l->ntok == 4 && l->toks[1].k == T_STR && tok_is(&l->toks[2], "example") &&
                l->toks[3].k == T_STR);
    if (!ok) {
        tok_error(l, 301, lr->no, &l->toks[0], "expected 'cite \"ID\"' or 'cite \"ID\" example \"A\"'");
        return;
    }
    scenario *s = l->s;
    scn_cite *p = hon_realloc(s->cites, (s->n_cites + 1) * sizeof *p);
    if (!p) { oom(l); return; }
    s->cites = p;
    scn_cite *c = &p[s->n_cites];
    c->id = unescape(&l->toks[1]);
    c->example = l->ntok == 4 ? unescape(&l->toks[3]) : NULL;
    s->n_cites++;
    if (!c->id || (l->ntok == 4 && !c->example)) oom(l);
}

static void do_topology(loader *l, const line_ref *lr) {
    if (l->have_size) {
        tok_error(l, 307, lr->no, &l->toks[0], "'topology' must come before 'size'");
        return;
    }
    if (l->ntok == 2 && tok_is(&l->toks[1], "square")) l->topo = GEO_SQUARE;
    else if (l->ntok == 2 && tok_is(&l->toks[1], "hex")) l->topo = GEO_HEX;
    else {
        tok_error(l, 301, lr->no, &l->toks[0], "expected 'topology square' or 'topology hex'");
        return;
    }
    l->have_topo = true;
}

/* Sets (*arr)[id] = copy of colour, growing the array. */
static void set_colour(loader *l, char ***arr, size_t *n, int id, const tok *c) {
    if (id < 0) return;
    if ((size_t)id >= *n) {
        char **p = hon_realloc(*arr, ((size_t)id + 1) * sizeof *p);
        if (!p) { oom(l); return; }
        for (size_t i = *n; i <= (size_t)id; i++) p[i] = NULL;
        *arr = p;
        *n = (size_t)id + 1;
    }
    char *copy = unescape(c);
    if (!copy) { oom(l); return; }
    hon_free((*arr)[id]);
    (*arr)[id] = copy;
}

/* colour (terrain | side | army) NAME "COLOUR" */
static void do_colour(loader *l, const line_ref *lr) {
    static const char *KINDS[3] = {"terrain", "side", "army"};
    static const board_name_kind BK[3] = {BOARD_TERRAIN, BOARD_SIDE_FEATURE, BOARD_ARMY};
    int k = -1;
    for (int j = 0; j < 3 && l->ntok > 1; j++)
        if (tok_is(&l->toks[1], KINDS[j])) k = j;
    if (l->ntok != 4 || k < 0 || l->toks[3].k != T_STR) {
        tok_error(l, 301, lr->no, &l->toks[0], "expected 'colour terrain|side|army NAME \"#rrggbb\"'");
        return;
    }
    const tok *c = &l->toks[3];
    bool ok = c->len > 0 && c->len <= 32;
    for (int i = 0; i < c->len; i++) ok = ok && (is_word(c->s[i]) || c->s[i] == '#');
    if (!ok) {
        tok_error(l, 301, lr->no, c, "a colour is a name or #rrggbb (letters, digits, '#')");
        return;
    }
    int id = resolve(l, lr->no, BK[k], &l->toks[2]);
    if (id < 0) return;
    if (k == 0) set_colour(l, &l->s->terrain_colours, &l->s->n_terrain_colours, id, c);
    else if (k == 1) set_colour(l, &l->s->side_colours, &l->s->n_side_colours, id, c);
    else set_colour(l, &l->army_colours, &l->n_army_colours, id, c);
}

/* Starts a map or elevation block. */
static block do_grid_start(loader *l, const line_ref *lr, bool map) {
    const tok *kw = &l->toks[0];
    if (l->ntok > 1) {
        tok_error(l, 301, lr->no, &l->toks[1], "nothing may follow '%s' on its line; the rows come "
                  "on the next lines", map ? "map" : "elevation");
    }
    if (!l->have_size) {
        tok_error(l, 307, lr->no, kw, "'%s' needs the board size first ('size W x H')",
                  map ? "map" : "elevation");
        return B_SKIP_GRID;
    }
    bool *have = map ? &l->have_map : &l->have_elev;
    if (*have) {
        tok_error(l, 306, lr->no, kw, "a second '%s' (the first is on line %d)", map ? "map" : "elevation",
                  map ? l->map_line : l->elev_line);
        return B_SKIP_GRID;
    }
    *have = true;
    if (map) { l->map_line = lr->no; l->map_col = kw->col; }
    else { l->elev_line = lr->no; l->elev_col = kw->col; }
    return map ? B_MAP : B_ELEV;
}

static bool all_digits(const tok *t) {
    if (t->len == 0) return false;
    for (int i = 0; i < t->len; i++)
        if (!is_digit(t->s[i])) return false;
    return true;
}

static void pass1(loader *l) {
    block blk = B_NONE;
    size_t off = 0;
    int no = 0;
    while (off <= l->len && !l->stopped && !l->oom) {
        size_t end = off;
        while (end < l->len && l->text[end] != '\n') end++;
        line_ref lr = {off, end - off, ++no};
        off = end + 1;
        split_fields(l, &lr);
        if (l->ntok == 0) {
            if (end >= l->len) break;
            continue;
        }
        /* Inside a block, a line that fits the block belongs to it. */
        if (blk == B_LEGEND && l->ntok >= 2 && l->toks[0].len == 1 && tok_is(&l->toks[1], "=")) {
            do_legend_fields(l, &lr, 0);
            continue;
        }
        if (blk == B_MAP || blk == B_ELEV || blk == B_SKIP_GRID) {
            if (all_digits(&l->toks[0])) {
                if (blk == B_MAP) do_map_row(l, &lr);
                else if (blk == B_ELEV) do_elev_row(l, &lr);
                continue;
            }
            if (is_header(l)) {
                if (blk != B_SKIP_GRID) check_header(l, &lr);
                continue;
            }
        }
        blk = B_NONE;
        const tok kw = l->toks[0];
        if (tok_is(&kw, "legend")) {
            do_legend_fields(l, &lr, 1);
            blk = B_LEGEND;
            continue;
        }
        if (!tokenize(l, &lr) || l->ntok == 0) continue;
        if (tok_is(&l->toks[0], "scenario")) do_title(l, &lr);
        else if (tok_is(&l->toks[0], "cite")) do_cite(l, &lr);
        else if (tok_is(&l->toks[0], "topology")) do_topology(l, &lr);
        else if (tok_is(&l->toks[0], "colour")) do_colour(l, &lr);
        else if (tok_is(&l->toks[0], "size")) do_size(l, &lr);
        else if (tok_is(&l->toks[0], "map")) blk = do_grid_start(l, &lr, true);
        else if (tok_is(&l->toks[0], "elevation")) blk = do_grid_start(l, &lr, false);
        else if (tok_is(&l->toks[0], "side") || tok_is(&l->toks[0], "interspace") ||
                 tok_is(&l->toks[0], "square") || tok_is(&l->toks[0], "element") ||
                 tok_is(&l->toks[0], "unit")) {
            if (!l->have_size)
                tok_error(l, 307, lr.no, &l->toks[0], "'%.*s' needs the board size first "
                          "('size W x H')", l->toks[0].len, l->toks[0].s);
            else defer(l, &lr);
        } else if (all_digits(&l->toks[0]))
            tok_error(l, 306, lr.no, &l->toks[0], "a grid row outside a 'map' or 'elevation' block");
        else
            tok_error(l, 301, lr.no, &l->toks[0], "unknown directive '%.*s' (expected scenario, cite, "
                      "topology, size, legend, map, elevation, element, side, interspace, square, "
                      "unit or colour)", l->toks[0].len, l->toks[0].s);
    }
}

/* ---- pass 2: the board ---- */

static void end_grids(loader *l) {
    if (l->have_map && l->map_rows < l->h)
        add_error(l, 306, l->map_line, l->map_col, 3, "the map stops at row %d; the board has %d "
                  "rows", l->map_rows, l->h);
    if (l->have_elev && l->elev_rows < l->h)
        add_error(l, 306, l->elev_line, l->elev_col, 9, "the elevation grid stops at row %d; the "
                  "board has %d rows", l->elev_rows, l->h);
}

/* Names and symbols of the legend's ids on the board; terrain of each map square. */
static void apply_map(loader *l) {
    for (int c = 0; c < 128; c++) {
        legend_entry *e = &l->legend[c];
        if (!e->set) continue;
        char buf[MAX_NAME + 1];
        int n = e->name_len > MAX_NAME ? MAX_NAME : e->name_len;
        memcpy(buf, e->name, (size_t)n);
        buf[n] = '\0';
        if (e->terrain >= 0 && !board_name(l->b, BOARD_TERRAIN, e->terrain))
            if (board_set_name(l->b, BOARD_TERRAIN, e->terrain, buf, (char)c) != GEO_OK) oom(l);
        for (int k = 0; k < e->nfeat; k++) {
            if (e->feat[k] < 0 || board_name(l->b, BOARD_SQUARE_FEATURE, e->feat[k])) continue;
            n = e->fname_len[k] > MAX_NAME ? MAX_NAME : e->fname_len[k];
            memcpy(buf, e->fname[k], (size_t)n);
            buf[n] = '\0';
            if (board_set_name(l->b, BOARD_SQUARE_FEATURE, e->feat[k], buf, 0) != GEO_OK) oom(l);
        }
    }
    bool reported[128] = {false};
    int n = l->w * l->h;
    for (int sq = 0; sq < n; sq++) {
        unsigned char c = l->cells[sq];
        l->s->symbols[sq] = c ? (char)c : ' ';
        if (!c) continue;
        legend_entry *e = c < 128 ? &l->legend[c] : NULL;
        if (!e || !e->set) {
            if (c < 128 && !reported[c]) {
                add_error(l, 302, l->cell_line[sq], l->cell_col[sq], 1, "unknown map symbol '%c' (not "
                          "in the legend)", c);
                reported[c] = true;
            } else if (c >= 128 && !reported[0]) {
                add_error(l, 302, l->cell_line[sq], l->cell_col[sq], 1, "unknown map symbol (byte "
                          "0x%02x; symbols are printable ASCII characters)", c);
                reported[0] = true;
            }
            continue;
        }
        l->terr[sq] = e->terrain;
        for (int k = 0; k < e->nfeat; k++)
            if (e->feat[k] >= 0 &&
                board_put(l->b, BOARD_AT_SQUARE, sq,
                          (board_feature){.id = e->feat[k], .value = e->fval[k], .facing = -1}) == GEO_ENOMEM)
                oom(l);
    }
    for (int sq = 0; sq < n; sq++) board_set_elevation(l->b, sq, l->elev[sq]);
}

/* Integer vector for collected squares/sides. */
typedef struct ivec {
    int *v;
    size_t n, cap;
} ivec;

static bool ivec_push(loader *l, ivec *a, int x) {
    if (a->n == a->cap) {
        size_t ncap = a->cap ? a->cap * 2 : 16;
        int *p = hon_realloc(a->v, ncap * sizeof *p);
        if (!p) { oom(l); return false; }
        a->v = p;
        a->cap = ncap;
    }
    a->v[a->n++] = x;
    return true;
}

/* Squares from a list of `SQ` and `SQ..SQ` (rectangles) starting at token *i; stops at the
 * first token that is not a coordinate. Returns false after an error. */
static bool parse_squares(loader *l, int line, int *i, ivec *out) {
    while (*i < l->ntok) {
        int a = square_of(l, line, &l->toks[*i]);
        if (a == -2) break;
        if (a < 0) return false;
        (*i)++;
        if (*i < l->ntok && tok_is(&l->toks[*i], "..")) {
            if (*i + 1 >= l->ntok) {
                tok_error(l, 301, line, &l->toks[*i], "expected a square after '..'");
                return false;
            }
            int b = square_of(l, line, &l->toks[*i + 1]);
            if (b == -2) tok_error(l, 301, line, &l->toks[*i + 1], "expected a square after '..'");
            if (b < 0) return false;
            *i += 2;
            int ax = a % l->w, ay = a / l->w, bx = b % l->w, by = b / l->w;
            for (int y = ay < by ? ay : by; y <= (ay < by ? by : ay); y++)
                for (int x = ax < bx ? ax : bx; x <= (ax < bx ? bx : ax); x++)
                    if (!ivec_push(l, out, y * l->w + x)) return false;
        } else if (!ivec_push(l, out, a)) return false;
    }
    return true;
}

static int find_element(const loader *l, const tok *t) {
    for (size_t i = 0; i < l->n_en; i++)
        if (strlen(l->enames[i].name) == (size_t)t->len && memcmp(l->enames[i].name, t->s, (size_t)t->len) == 0)
            return (int)i;
    return -1;
}

/* element NAME = SQUARES [facing DIR] [value N] */
static void do_element(loader *l, const line_ref *lr) {
    int line = lr->no;
    if (l->ntok < 4 || !is_ident(&l->toks[1]) || !tok_is(&l->toks[2], "=")) {
        tok_error(l, 301, line, &l->toks[0], "expected 'element NAME = SQUARES'");
        return;
    }
    const tok *nm = &l->toks[1];
    char name[MAX_NAME + 1];
    if (!name_of(l, line, nm, name)) return;
    int prev = find_element(l, nm);
    if (prev >= 0) {
        tok_error(l, 310, line, nm, "element '%s' defined twice (first on line %d)", name,
                  l->enames[prev].line);
        return;
    }
    int i = 3;
    ivec sq = {0};
    if (!parse_squares(l, line, &i, &sq)) goto out;
    if (sq.n == 0) {
        tok_error(l, 301, line, &l->toks[3], "expected the element's squares (C2, or C2..E4)");
        goto out;
    }
    int facing = -1;
    long value = 0;
    while (i < l->ntok) {
        const tok *t = &l->toks[i];
        if (tok_is(t, "facing") && i + 1 < l->ntok) {
            facing = dir_of(&l->toks[i + 1]);
            if (!dir_ok_for(l->topo, facing)) {
                tok_error(l, 313, line, &l->toks[i + 1], "expected a direction (N, NE, E, SE, S, SW, W, "
                          "NW), found '%.*s'", l->toks[i + 1].len, l->toks[i + 1].s);
                goto out;
            }
            i += 2;
        } else if (tok_is(t, "value") && i + 1 < l->ntok) {
            if (!int_of(l, line, &l->toks[i + 1], -1000000000L, 1000000000L, &value)) goto out;
            i += 2;
        } else {
            tok_error(l, 301, line, t, "expected a square, 'facing DIR' or 'value N', found '%.*s'",
                      t->len, t->s);
            goto out;
        }
    }
    char sqname[16], sqname2[16];
    int type = l->terr[sq.v[0]];
    for (size_t k = 0; k < sq.n; k++) {
        int q = sq.v[k];
        geo_format_square(board_grid(l->b), q, sqname, sizeof sqname);
        if (l->explicit_sq[q]) {
            tok_error(l, 312, line, nm, "square %s of element '%s' is already in element '%s'", sqname,
                      name, board_element_name(l->b, board_element_at(l->b, q)));
            goto out;
        }
        if (l->terr[q] < 0) {
            tok_error(l, 312, line, nm, "square %s of element '%s' has no terrain on the map", sqname,
                      name);
            goto out;
        }
        if (l->terr[q] != type) {
            geo_format_square(board_grid(l->b), sq.v[0], sqname2, sizeof sqname2);
            tok_error(l, 312, line, nm, "element '%s' covers %s (%s) and %s (%s): an element has one "
                      "terrain", name, sqname2, board_name(l->b, BOARD_TERRAIN, type), sqname,
                      board_name(l->b, BOARD_TERRAIN, l->terr[q]));
            goto out;
        }
    }
    int e = board_element_new(l->b, type, name);
    if (e < 0) { oom(l); goto out; }
    board_element_set_attr(l->b, e, (int)value, facing);
    for (size_t k = 0; k < sq.n; k++) {
        board_element_add(l->b, e, sq.v[k]);
        l->explicit_sq[sq.v[k]] = true;
    }
    if (l->n_en == l->cap_en) {
        size_t ncap = l->cap_en ? l->cap_en * 2 : 8;
        ename *p = hon_realloc(l->enames, ncap * sizeof *p);
        if (!p) { oom(l); goto out; }
        l->enames = p;
        l->cap_en = ncap;
    }
    char *copy = hon_malloc(strlen(name) + 1);
    if (!copy) { oom(l); goto out; }
    strcpy(copy, name);
    l->enames[l->n_en++] = (ename){copy, e, line};
out:
    hon_free(sq.v);
}

/* Every map square with terrain outside an explicit element joins the element formed by the
 * squares of the same terrain connected to it through shared sides. */
static void auto_elements(loader *l) {
    int n = l->w * l->h;
    int *stack = hon_malloc((size_t)n * sizeof *stack);
    if (!stack) { oom(l); return; }
    const geo_grid *g = board_grid(l->b);
    for (int sq = 0; sq < n; sq++) {
        int t = l->terr[sq];
        if (t < 0 || board_element_at(l->b, sq) >= 0) continue;
        char name[MAX_NAME + 24], at[16];
        geo_format_square(g, sq, at, sizeof at);
        const char *tn = board_name(l->b, BOARD_TERRAIN, t);
        snprintf(name, sizeof name, "%s@%s", tn ? tn : "terrain", at);
        int e = board_element_new(l->b, t, name);
        if (e < 0) { oom(l); break; }
        int top = 0;
        stack[top++] = sq;
        board_element_add(l->b, e, sq);
        while (top > 0) {
            int p = stack[--top];
            for (int d = 0; d < GEO_NDIRS; d++) {
                if (g->topo == GEO_SQUARE && (d & 1)) continue;
                int q = geo_neighbour(g, p, (geo_dir)d);
                if (q < 0 || l->terr[q] != t || board_element_at(l->b, q) >= 0) continue;
                board_element_add(l->b, e, q);
                stack[top++] = q;
            }
        }
    }
    hon_free(stack);
}

/* One side spec at token *i: SQ/SQ or SQ:DIR. Returns the side, -2 when the tokens do not
 * start a side spec, -1 after an error. */
static int side_spec(loader *l, int line, int *i, bool *was_pair) {
    const geo_grid *g = board_grid(l->b);
    if (*i + 2 >= l->ntok) return -2;
    const tok *ta = &l->toks[*i], *op = &l->toks[*i + 1], *tb = &l->toks[*i + 2];
    if (!tok_is(op, "/") && !tok_is(op, ":")) return -2;
    int a = square_of(l, line, ta);
    if (a == -2) return -2;
    if (a < 0) return -1;
    if (tok_is(op, ":")) {
        int d = dir_of(tb);
        int s = d >= 0 ? geo_side_of(g, a, (geo_dir)d) : -1;
        if (s < 0) {
            tok_error(l, 309, line, tb, "a square's side is %s, found '%.*s' (obstacles go between two "
                      "squares, never diagonally: BRO.1.3.placement)",
                      g->topo == GEO_HEX ? "N, NE, SE, S, SW or NW" : "N, E, S or W", tb->len, tb->s);
            return -1;
        }
        *i += 3;
        *was_pair = false;
        return s;
    }
    int b = square_of(l, line, tb);
    if (b == -2) {
        tok_error(l, 301, line, tb, "expected a square after '/', found '%.*s'", tb->len, tb->s);
        return -1;
    }
    if (b < 0) return -1;
    int s = geo_side_between(g, a, b);
    if (s < 0) {
        int dist = geo_distance(g, a, b);
        tok_error(l, 309, line, ta, "%.*s and %.*s %s: obstacles and lines go between two squares that "
                  "share a side, never diagonally (BRO.1.3.placement)", ta->len, ta->s, tb->len, tb->s,
                  dist == 1 ? "meet only at a corner" : dist == 0 ? "are the same square"
                                                      : "are not next to each other");
        return -1;
    }
    *i += 3;
    *was_pair = true;
    return s;
}

/* Sides from `SPEC`, `SPEC..SPEC` (a straight run along one grid line), `around ELEMENT` (its
 * outline) and `steps` (every side between squares of different elevation). */
static bool parse_sides(loader *l, int line, int *i, ivec *out) {
    const geo_grid *g = board_grid(l->b);
    while (*i < l->ntok) {
        if (tok_is(&l->toks[*i], "around")) {
            if (*i + 1 >= l->ntok) {
                tok_error(l, 301, line, &l->toks[*i], "expected an element name after 'around'");
                return false;
            }
            const tok *nm = &l->toks[*i + 1];
            int k = find_element(l, nm);
            if (k < 0) {
                tok_error(l, 311, line, nm, "unknown element '%.*s' (declare it with 'element %.*s = "
                          "...')", nm->len, nm->s, nm->len, nm->s);
                return false;
            }
            /* the element's outline, without the sides along the board's edge */
            int e = l->enames[k].elem;
            size_t n = board_element_outline(l->b, e, NULL, 0);
            size_t base = out->n;
            for (size_t j = 0; j < n; j++)
                if (!ivec_push(l, out, -1)) return false;
            board_element_outline(l->b, e, out->v + base, n);
            size_t kept = base;
            for (size_t j = base; j < base + n; j++) {
                int a, c;
                if (geo_side_squares(g, out->v[j], &a, &c) && a >= 0 && c >= 0) out->v[kept++] = out->v[j];
            }
            out->n = kept;
            *i += 2;
            continue;
        }
        if (tok_is(&l->toks[*i], "steps")) {
            /* every side between two squares of different elevation */
            int ns = geo_side_count(g);
            for (int s = 0; s < ns; s++) {
                int a, c;
                if (geo_side_squares(g, s, &a, &c) && a >= 0 && c >= 0 &&
                    board_elevation(l->b, a) != board_elevation(l->b, c) && !ivec_push(l, out, s))
                    return false;
            }
            (*i)++;
            continue;
        }
        bool pair1, pair2;
        int start = *i;
        int s = side_spec(l, line, i, &pair1);
        if (s == -2) break;
        if (s < 0) return false;
        if (*i < l->ntok && tok_is(&l->toks[*i], "..")) {
            const tok *dots = &l->toks[*i];
            (*i)++;
            int s2 = side_spec(l, line, i, &pair2);
            if (s2 == -2) {
                tok_error(l, 301, line, dots, "expected a side (C2/C3 or C2:S) after '..'");
                return false;
            }
            if (s2 < 0) return false;
            int ax0, ay0, ax1, ay1, bx0, by0, bx1, by1;
            if (g->topo != GEO_SQUARE || !geo_side_ends(g, s, &ax0, &ay0, &ax1, &ay1) ||
                !geo_side_ends(g, s2, &bx0, &by0, &bx1, &by1) ||
                geo_side_horizontal(g, s) != geo_side_horizontal(g, s2) ||
                (geo_side_horizontal(g, s) ? ay0 != by0 : ax0 != bx0)) {
                tok_error(l, 309, line, &l->toks[start], "a run of sides 'A..B' must lie along one grid "
                          "line (both sides horizontal in the same row gap, or vertical in the same "
                          "column gap)");
                return false;
            }
            bool horiz = geo_side_horizontal(g, s);
            int from = horiz ? (ax0 < bx0 ? ax0 : bx0) : (ay0 < by0 ? ay0 : by0);
            int to = horiz ? (ax0 < bx0 ? bx0 : ax0) : (ay0 < by0 ? by0 : ay0);
            for (int k = from; k <= to; k++) {
                int side = horiz ? ay0 * l->w + k : l->w * (l->h + 1) + k * (l->w + 1) + ax0;
                if (!ivec_push(l, out, side)) return false;
            }
        } else if (!ivec_push(l, out, s)) return false;
    }
    return true;
}

/* Items `name[=N]` from token *i up to the end or to `facing`. */
typedef struct item {
    int id;
    long value;
} item;

static bool parse_items(loader *l, int line, int *i, board_name_kind k, item *out, int *n, int cap) {
    *n = 0;
    bool ok = true;
    while (*i < l->ntok && !tok_is(&l->toks[*i], "facing")) {
        const tok *t = &l->toks[*i];
        if (*n == cap) {
            tok_error(l, 301, line, t, "too many items on one line");
            return false;
        }
        item it = {-1, 0};
        it.id = resolve(l, line, k, t);
        (*i)++;
        if (*i < l->ntok && tok_is(&l->toks[*i], "=")) {
            if (*i + 1 >= l->ntok) {
                tok_error(l, 301, line, &l->toks[*i], "expected a number after '='");
                return false;
            }
            if (!int_of(l, line, &l->toks[*i + 1], -1000000000L, 1000000000L, &it.value)) ok = false;
            *i += 2;
        }
        if (it.id < 0) ok = false;
        out[(*n)++] = it;
    }
    return ok;
}

/* side SIDES ITEMS [facing DIR] */
static void do_side(loader *l, const line_ref *lr) {
    int line = lr->no, i = 1;
    ivec sides = {0};
    item items[64];
    int nitems = 0;
    if (!parse_sides(l, line, &i, &sides)) goto out;
    if (sides.n == 0) {
        const tok *t = l->ntok > 1 ? &l->toks[1] : &l->toks[0];
        tok_error(l, 301, line, t, "expected a side: C2/C3 (between two squares), C2:S (a square and "
                  "a direction), a run C2/C3..F2/F3, or 'around ELEMENT'");
        goto out;
    }
    if (i >= l->ntok || tok_is(&l->toks[i], "facing")) {
        const tok *t = &l->toks[i < l->ntok ? i : l->ntok - 1];
        tok_error(l, 301, line, t, "expected a side feature name after the sides");
        goto out;
    }
    if (!parse_items(l, line, &i, BOARD_SIDE_FEATURE, items, &nitems, 64)) goto out;
    int facing = -1;
    const tok *ftok = NULL;
    if (i < l->ntok) {
        if (i + 2 != l->ntok || (facing = dir_of(&l->toks[i + 1])) < 0 || !dir_ok_for(l->topo, facing)) {
            tok_error(l, 313, line, &l->toks[i], "expected 'facing DIR' (N, E, S or W) at the end of "
                      "the line");
            goto out;
        }
        ftok = &l->toks[i + 1];
    }
    const geo_grid *g = board_grid(l->b);
    for (size_t k = 0; k < sides.n; k++) {
        int fsq = -1;
        if (facing >= 0) {
            int a, b;
            geo_side_squares(g, sides.v[k], &a, &b);
            if (a >= 0 && b >= 0 && geo_direction(g, a, b) == facing) fsq = b;
            else if (a >= 0 && b >= 0 && geo_direction(g, b, a) == facing) fsq = a;
            else if (a < 0 && b >= 0 && geo_side_of(g, b, (geo_dir)((facing + 4) % 8)) == sides.v[k])
                fsq = b; /* border side facing into the board */
            else if (b < 0 && a >= 0 && geo_side_of(g, a, (geo_dir)((facing + 4) % 8)) == sides.v[k])
                fsq = a;
            if (fsq < 0) {
                tok_error(l, 313, line, ftok, "'facing %s' does not fit a %s side: a side faces one of "
                          "its two squares", dir_name(facing),
                          geo_side_horizontal(g, sides.v[k]) ? "horizontal" : "vertical");
                goto out;
            }
        }
        for (int j = 0; j < nitems; j++) {
            board_feature f = {.id = items[j].id, .value = (int)items[j].value, .facing = fsq};
            if (board_put(l->b, BOARD_AT_SIDE, sides.v[k], f) == GEO_ENOMEM) { oom(l); goto out; }
        }
    }
out:
    hon_free(sides.v);
}

/* interspace SQ[:CORNER]... ITEMS   |   square SQUARES ITEMS */
static void do_place(loader *l, const line_ref *lr, bool interspace) {
    int line = lr->no, i = 1;
    const geo_grid *g = board_grid(l->b);
    ivec at = {0};
    item items[64];
    int nitems = 0;
    if (interspace && g->topo != GEO_SQUARE) {
        tok_error(l, 301, line, &l->toks[0], "hex boards have no interspaces");
        goto out;
    }
    if (interspace) {
        while (i < l->ntok) {
            int sq = square_of(l, line, &l->toks[i]);
            if (sq == -2) break;
            if (sq < 0) goto out;
            int corner = GEO_NW;
            i++;
            if (i < l->ntok && tok_is(&l->toks[i], ":")) {
                int d = i + 1 < l->ntok ? dir_of(&l->toks[i + 1]) : -1;
                if (d < 0 || !(d & 1)) {
                    tok_error(l, 301, line, &l->toks[i + 1 < l->ntok ? i + 1 : i], "an interspace is the "
                              "NW, NE, SE or SW corner of a square");
                    goto out;
                }
                corner = d;
                i += 2;
            }
            if (!ivec_push(l, &at, geo_interspace_of(g, sq, (geo_dir)corner))) goto out;
        }
    } else if (!parse_squares(l, line, &i, &at)) goto out;
    if (at.n == 0) {
        const tok *t = l->ntok > 1 ? &l->toks[1] : &l->toks[0];
        tok_error(l, 301, line, t, interspace ? "expected an interspace: a square (its NW corner) or "
                  "SQ:NE, SQ:SE, SQ:SW" : "expected squares (C2, or C2..E4)");
        goto out;
    }
    if (i >= l->ntok) {
        tok_error(l, 301, line, &l->toks[l->ntok - 1], "expected %s name after the %s",
                  interspace ? "an interspace item" : "a square feature",
                  interspace ? "interspaces" : "squares");
        goto out;
    }
    if (!parse_items(l, line, &i, interspace ? BOARD_INTERSPACE_ITEM : BOARD_SQUARE_FEATURE, items,
                     &nitems, 64))
        goto out;
    if (i < l->ntok) {
        tok_error(l, 301, line, &l->toks[i], "'facing' applies to sides and elements only");
        goto out;
    }
    for (size_t k = 0; k < at.n; k++)
        for (int j = 0; j < nitems; j++) {
            board_feature f = {.id = items[j].id, .value = (int)items[j].value, .facing = -1};
            if (board_put(l->b, interspace ? BOARD_AT_INTERSPACE : BOARD_AT_SQUARE, at.v[k], f) ==
                GEO_ENOMEM) { oom(l); goto out; }
        }
out:
    hon_free(at.v);
}

static bool push_unit(loader *l, scn_unit *u) {
    scenario *s = l->s;
    scn_unit *p = hon_realloc(s->units, (s->n_units + 1) * sizeof *p);
    if (!p) { oom(l); return false; }
    s->units = p;
    s->units[s->n_units++] = *u;
    return true;
}

/* unit NAME = COUNTER ARMY (at SQ [SQ] | in UNIT) [with MARKER...] */
static void do_unit(loader *l, const line_ref *lr) {
    int line = lr->no;
    const geo_grid *g = board_grid(l->b);
    if (l->ntok < 6 || !tok_is(&l->toks[2], "=") ||
        !(tok_is(&l->toks[5], "at") || tok_is(&l->toks[5], "in"))) {
        tok_error(l, 301, line, &l->toks[0], "expected 'unit NAME = COUNTER ARMY at SQUARE [SQUARE]' "
                  "or 'unit NAME = COUNTER ARMY in TRANSPORT'");
        return;
    }
    const tok *nm = &l->toks[1];
    char name[MAX_NAME + 1];
    if (!name_of(l, line, nm, name)) return;
    if (!is_ident(nm)) {
        tok_error(l, 301, line, nm, "a unit name is letters, digits and '_', found '%s'", name);
        return;
    }
    int prev = scn_unit_find(l->s, name);
    if (prev >= 0) {
        tok_error(l, 310, line, nm, "unit '%s' defined twice (first on line %d)", name,
                  l->s->units[prev].line);
        return;
    }
    int counter = resolve(l, line, BOARD_COUNTER, &l->toks[3]);
    int army = resolve(l, line, BOARD_ARMY, &l->toks[4]);
    int sq[2] = {-1, -1}, nsq = 0, in = -1, i = 6;
    bool bad = counter < 0 || army < 0;
    if (tok_is(&l->toks[5], "at")) {
        while (i < l->ntok && !tok_is(&l->toks[i], "with")) {
            int q = square_of(l, line, &l->toks[i]);
            if (q == -2) {
                tok_error(l, 301, line, &l->toks[i], "expected a square or 'with', found '%.*s'",
                          l->toks[i].len, l->toks[i].s);
                return;
            }
            if (q < 0) return;
            if (nsq == 2) {
                tok_error(l, 308, line, &l->toks[i], "a unit stands on one or two squares");
                return;
            }
            sq[nsq++] = q;
            i++;
        }
        if (nsq == 0) {
            tok_error(l, 301, line, &l->toks[5], "expected the unit's square after 'at'");
            return;
        }
        if (nsq == 2 && geo_side_between(g, sq[0], sq[1]) < 0) {
            tok_error(l, 308, line, &l->toks[7], "the two squares of unit '%s' (%.*s and %.*s) must share "
                      "a side", name, l->toks[6].len, l->toks[6].s, l->toks[7].len, l->toks[7].s);
            return;
        }
        if (counter >= 0 && l->r->counter_size) {
            int size = l->r->counter_size(l->r->ud, counter);
            if (size == 2 && nsq == 1) {
                tok_error(l, 308, line, &l->toks[6], "unit '%s' is a 2-square counter: give both of its "
                          "squares (front then rear), one is missing", name);
                return;
            }
            if (size == 1 && nsq == 2) {
                tok_error(l, 308, line, &l->toks[7], "unit '%s' is a 1-square counter but two squares "
                          "are given", name);
                return;
            }
        }
    } else {
        if (i >= l->ntok) {
            tok_error(l, 301, line, &l->toks[5], "expected the transport's name after 'in'");
            return;
        }
        const tok *tt = &l->toks[i];
        char tname[MAX_NAME + 1];
        if (!name_of(l, line, tt, tname)) return;
        in = scn_unit_find(l->s, tname);
        if (in < 0) {
            tok_error(l, 311, line, tt, "unknown transport '%s' (declare a transport before the units "
                      "it carries)", tname);
            return;
        }
        i++;
    }
    int markers[64], nm_ = 0;
    if (i < l->ntok) {
        if (!tok_is(&l->toks[i], "with") || i + 1 >= l->ntok) {
            tok_error(l, 301, line, &l->toks[i], "expected 'with MARKER...' after the squares");
            return;
        }
        for (i++; i < l->ntok; i++) {
            if (nm_ == 64) {
                tok_error(l, 301, line, &l->toks[i], "too many markers");
                return;
            }
            int m = resolve(l, line, BOARD_MARKER, &l->toks[i]);
            if (m < 0) bad = true;
            markers[nm_++] = m;
        }
    }
    if (bad) return;
    int id = (int)l->s->n_units;
    if (l->r->new_unit) id = l->r->new_unit(l->r->ud, name, counter, army);
    if (id < 0 || id >= BOARD_MAX_UNITS || board_unit_present(l->b, id)) {
        tok_error(l, 316, line, nm, "the unit pool refused unit '%s'%s", name,
                  id >= 0 && id < BOARD_MAX_UNITS ? " (its id is already used)" : "");
        return;
    }
    geo_status st = in >= 0 ? board_embark(l->b, id, l->s->units[in].id)
                            : board_place_unit(l->b, id, sq[0], sq[1]);
    if (st == GEO_OK) st = board_set_unit_label(l->b, id, name);
    if (st != GEO_OK) {
        if (st == GEO_ENOMEM) oom(l);
        else tok_error(l, 311, line, nm, "unit '%s' cannot be placed", name);
        return;
    }
    scn_unit u = {.id = id, .counter = counter, .army = army, .sq0 = sq[0], .sq1 = sq[1],
                  .in = in, .line = line};
    u.name = hon_malloc(strlen(name) + 1);
    if (nm_ > 0) u.markers = hon_malloc((size_t)nm_ * sizeof *u.markers);
    if (!u.name || (nm_ > 0 && !u.markers)) {
        hon_free(u.name);
        hon_free(u.markers);
        oom(l);
        return;
    }
    strcpy(u.name, name);
    if (nm_ > 0) memcpy(u.markers, markers, (size_t)nm_ * sizeof *markers);
    u.n_markers = (size_t)nm_;
    if (!push_unit(l, &u)) {
        hon_free(u.name);
        hon_free(u.markers);
    }
}

static void pass2(loader *l) {
    end_grids(l);
    l->b = l->s->board = board_new(l->topo, l->w, l->h);
    size_t n = (size_t)l->w * (size_t)l->h;
    l->s->symbols = hon_malloc(n + 1);
    if (!l->b || !l->s->symbols) { oom(l); return; }
    l->s->symbols[n] = '\0';
    apply_map(l);
    static const char *ORDER[3][3] = {{"element", NULL, NULL}, {"side", "interspace", "square"},
                                      {"unit", NULL, NULL}};
    for (int phase = 0; phase < 3 && !l->oom && !l->stopped; phase++) {
        if (phase == 1) auto_elements(l);
        for (size_t k = 0; k < l->n_def && !l->oom && !l->stopped; k++) {
            const line_ref *lr = &l->deferred[k];
            if (!tokenize(l, lr) || l->ntok == 0) continue;
            const tok *kw = &l->toks[0];
            bool mine = false;
            for (int j = 0; j < 3; j++) mine = mine || (ORDER[phase][j] && tok_is(kw, ORDER[phase][j]));
            if (!mine) continue;
            if (tok_is(kw, "element")) do_element(l, lr);
            else if (tok_is(kw, "side")) do_side(l, lr);
            else if (tok_is(kw, "interspace")) do_place(l, lr, true);
            else if (tok_is(kw, "square")) do_place(l, lr, false);
            else do_unit(l, lr);
        }
    }
    /* Counter colours follow their army's colour. */
    for (size_t i = 0; i < l->s->n_units && !l->oom; i++) {
        const scn_unit *u = &l->s->units[i];
        if (u->army < 0 || (size_t)u->army >= l->n_army_colours || !l->army_colours[u->army]) continue;
        const char *c = l->army_colours[u->army];
        tok t = {T_STR, c, (int)strlen(c), 0};
        set_colour(l, &l->s->unit_colours, &l->s->n_unit_colours, u->id, &t);
    }
}

/* Sorts the errors added by this load by position (insertion sort: at most 51), keeping a
 * trailing E314 last. */
static void sort_errors(loader *l) {
    scn_error *a = l->errs->items + l->first_err;
    size_t n = l->errs->len - l->first_err;
    if (n > 0 && a[n - 1].code == 314) n--;
    for (size_t i = 1; i < n; i++) {
        scn_error x = a[i];
        size_t j = i;
        while (j > 0 && (a[j - 1].line > x.line || (a[j - 1].line == x.line && a[j - 1].col > x.col))) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

static void loader_free(loader *l) {
    hon_free(l->cells);
    hon_free(l->cell_line);
    hon_free(l->cell_col);
    hon_free(l->elev);
    hon_free(l->terr);
    hon_free(l->explicit_sq);
    hon_free(l->deferred);
    for (size_t i = 0; i < l->n_en; i++) hon_free(l->enames[i].name);
    hon_free(l->enames);
    for (size_t i = 0; i < l->n_army_colours; i++) hon_free(l->army_colours[i]);
    hon_free(l->army_colours);
}

scenario *scn_load(const char *text, size_t len, const scn_resolver *r, scn_errors *errs) {
    loader *l = hon_malloc(sizeof *l);
    scenario *s = hon_malloc(sizeof *s);
    if (!l || !s) {
        hon_free(l);
        hon_free(s);
        if (errs) {
            loader tmp = {.errs = errs};
            push_error(&tmp, 399, 1, 1, 1, "out of memory");
        }
        return NULL;
    }
    memset(l, 0, sizeof *l);
    memset(s, 0, sizeof *s);
    scn_errors scratch = {0};
    l->text = text ? text : "";
    l->len = text ? len : 0;
    l->r = r;
    l->errs = errs ? errs : &scratch;
    l->first_err = l->errs->len;
    l->s = s;
    l->topo = GEO_SQUARE;
    static const scn_resolver none = {0};
    if (!l->r) l->r = &none;
    pass1(l);
    if (!l->have_size && !l->stopped && !l->oom)
        add_error(l, 307, 1, 1, 1, "no 'size' line: a scenario needs 'size W x H' (columns x rows)");
    if (l->have_size && !l->oom) pass2(l);
    if (l->oom) push_error(l, 399, 1, 1, 1, "out of memory");
    sort_errors(l);
    bool failed = l->errs->len > l->first_err || l->oom;
    loader_free(l);
    hon_free(l);
    scn_errors_free(&scratch);
    if (!s->title && !failed) {
        s->title = hon_malloc(1);
        if (s->title) s->title[0] = '\0';
        else failed = true;
    }
    if (failed) {
        scn_free(s);
        return NULL;
    }
    return s;
}

void scn_free(scenario *s) {
    if (!s) return;
    hon_free(s->title);
    for (size_t i = 0; i < s->n_cites; i++) {
        hon_free(s->cites[i].id);
        hon_free(s->cites[i].example);
    }
    hon_free(s->cites);
    board_free(s->board);
    hon_free(s->symbols);
    for (size_t i = 0; i < s->n_units; i++) {
        hon_free(s->units[i].name);
        hon_free(s->units[i].markers);
    }
    hon_free(s->units);
    char **lists[3] = {s->terrain_colours, s->side_colours, s->unit_colours};
    size_t ns[3] = {s->n_terrain_colours, s->n_side_colours, s->n_unit_colours};
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < ns[k]; i++) hon_free(lists[k][i]);
        hon_free(lists[k]);
    }
    hon_free(s);
}

int scn_unit_find(const scenario *s, const char *name) {
    for (size_t i = 0; s && i < s->n_units; i++)
        if (strcmp(s->units[i].name, name) == 0) return (int)i;
    return -1;
}
