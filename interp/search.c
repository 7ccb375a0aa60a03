/* search.c — the smallest board where two settings part (hon.h: hon_diff_search). Boards are
 * generated from the loaded rules' own vocabulary (their terrain, square and side features,
 * interspace items, armies, one 1-square counter of each unit kind, elevations 0 to 2): the
 * smallest sizes first, then sizes and boards at random, all from one seed. Each board is asked
 * the calls of the queries over its units, squares and finite types (questions.c); the first
 * call whose answers differ is kept, and the board is shrunk — units, sides, interspace items,
 * square features, terrain, elevation, rows and columns taken away one at a time while that
 * call still differs — to a minimal witness, written as a scenario file and an SVG picture with
 * the line between the call's places drawn. docs/spec/repl.md §5.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff.h"
#include "mem.h"

#define SEARCH_MAX   12  /* the largest board side */
#define SEARCH_UNITS 3   /* units on a board at most */
#define SEARCH_SIDES 4   /* sides given a feature one by one */
#define SEARCH_CAP   400 /* calls per query and board */

/* The names a board may use, from the rules (owned strings). */
typedef struct vocab {
    char **names[5]; /* terrain, square features, side features, interspace items, armies */
    size_t n[5];
    char **counters; /* one 1-square counter per unit kind */
    size_t ncounters;
} vocab;

enum {
    V_TERRAIN,
    V_SQUARE,
    V_SIDE,
    V_ITEM,
    V_ARMY
};

/* A generated board: every name is an index into the vocabulary (-1: none). */
typedef struct gboard {
    int w, h;
    int terrain[SEARCH_MAX * SEARCH_MAX], feature[SEARCH_MAX * SEARCH_MAX];
    int elev[SEARCH_MAX * SEARCH_MAX];
    int steps; /* the side feature on every side between two elevations, or -1 */
    struct {
        int x, y, south, feature; /* the side east (or south) of square (x, y) */
    } sides[SEARCH_SIDES];
    int nsides;
    int item, item_x, item_y; /* an interspace item at a square's NW corner, or item -1 */
    struct {
        int counter, army, x, y;
    } units[SEARCH_UNITS];
    int nunits;
} gboard;

/* One argument of the witness call: a unit of the board (by its index on the board), a square
 * (x, y), or a value that does not depend on the board. */
typedef struct warg {
    enum {
        W_UNIT,
        W_SQUARE,
        W_VALUE
    } kind;
    int unit, x, y;
    hon_value v;
    char name[64];
} warg;

/* The search: its sessions, the question set asked of each board, its random stream. */
typedef struct search {
    qs_set s;
    size_t board; /* the set's board the generated text goes to */
    vocab vc;
    uint64_t rng;
    const hon_search_options *o;
    const char *label[2];
    strbuf text;      /* the last board's scenario text */
    size_t boards;    /* boards asked */
    size_t questions; /* calls asked (in both sessions) */
} search;

/* ---- the vocabulary ---- */

/* Where the members of one enum go: the vocabulary and which of its lists. */
typedef struct name_list {
    vocab *v;
    int which;
} name_list;

static void add_name(void *ud, int32_t index, const char *name)
{
    name_list *l = ud;
    vocab *v = l->v;
    (void)index;
    char **grown = mem_realloc(v->names[l->which], (v->n[l->which] + 1) * sizeof *grown);
    if (grown)
        v->names[l->which] = grown;
    if (grown && (grown[v->n[l->which]] = mem_strdup(name)))
        v->n[l->which]++;
}

/* The kinds already given a counter, and where the counters go. */
typedef struct counter_pick {
    vocab *v;
    char kinds[64][64];
    size_t nkinds;
} counter_pick;

static void add_counter(void *ud, const char *name, const char *kind, unsigned size)
{
    counter_pick *c = ud;
    if (size != 1 || !kind || c->nkinds == 64)
        return;
    for (size_t i = 0; i < c->nkinds; i++)
        if (strcmp(c->kinds[i], kind) == 0)
            return;
    char **grown = mem_realloc(c->v->counters, (c->v->ncounters + 1) * sizeof *grown);
    if (!grown)
        return;
    c->v->counters = grown;
    if ((grown[c->v->ncounters] = mem_strdup(name))) {
        c->v->ncounters++;
        snprintf(c->kinds[c->nkinds++], sizeof c->kinds[0], "%s", kind);
    }
}

static bool vocab_read(hon_vm *vm, vocab *v)
{
    static const char *const enums[5] = { "terrain", "square_feature", "side_feature",
                                          "interspace_item", "side" };
    memset(v, 0, sizeof *v);
    for (int k = 0; k < 5; k++) {
        name_list l = { v, k };
        if (hon_each_member(vm, enums[k], add_name, &l) != v->n[k])
            return false;
    }
    counter_pick c = { .v = v };
    hon_each_counter(vm, add_counter, &c);
    return v->n[V_TERRAIN] && v->n[V_ARMY] && v->ncounters >= 1;
}

static void vocab_free(vocab *v)
{
    for (int k = 0; k < 5; k++) {
        for (size_t i = 0; i < v->n[k]; i++)
            mem_free(v->names[k][i]);
        mem_free(v->names[k]);
    }
    for (size_t i = 0; i < v->ncounters; i++)
        mem_free(v->counters[i]);
    mem_free(v->counters);
}

/* ---- generating boards ---- */

/* The next number of the search's stream (splitmix64), below n (n > 0). */
static int rnd(search *r, int n)
{
    uint64_t z = (r->rng += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return (int)((z ^ (z >> 31)) % (uint64_t)n);
}

/* A random board of w x h squares from the vocabulary. */
static void generate(search *r, gboard *g, int w, int h)
{
    const vocab *v = &r->vc;
    memset(g, 0, sizeof *g);
    g->w = w;
    g->h = h;
    int palette[3], np = 1 + rnd(r, 3);
    for (int i = 0; i < np; i++)
        palette[i] = rnd(r, (int)v->n[V_TERRAIN]);
    for (int i = 0; i < w * h; i++) {
        g->terrain[i] = palette[rnd(r, 4) ? 0 : rnd(r, np)];
        g->feature[i] = v->n[V_SQUARE] && !rnd(r, 6) ? rnd(r, (int)v->n[V_SQUARE]) : -1;
        g->elev[i] = rnd(r, 2) ? 0 : 1 + rnd(r, 2);
    }
    g->steps = v->n[V_SIDE] && rnd(r, 3) ? rnd(r, (int)v->n[V_SIDE]) : -1;
    g->nsides = v->n[V_SIDE] ? rnd(r, 3) : 0;
    for (int i = 0; i < g->nsides; i++) {
        g->sides[i].south = w == 1 || (h > 1 && rnd(r, 2));
        g->sides[i].x = rnd(r, g->sides[i].south ? w : w - 1);
        g->sides[i].y = rnd(r, g->sides[i].south ? h - 1 : h);
        g->sides[i].feature = rnd(r, (int)v->n[V_SIDE]);
    }
    g->item = v->n[V_ITEM] && !rnd(r, 3) ? rnd(r, (int)v->n[V_ITEM]) : -1;
    g->item_x = rnd(r, w);
    g->item_y = rnd(r, h);
    g->nunits = w * h >= 3 && !rnd(r, 3) ? 3 : 2;
    if (w * h < g->nunits)
        g->nunits = w * h;
    for (int i = 0; i < g->nunits; i++) {
        bool taken;
        do { /* a square of its own */
            g->units[i].x = rnd(r, w);
            g->units[i].y = rnd(r, h);
            taken = false;
            for (int k = 0; k < i; k++)
                taken |= g->units[k].x == g->units[i].x && g->units[k].y == g->units[i].y;
        } while (taken);
        g->units[i].counter = rnd(r, (int)v->ncounters);
        g->units[i].army = i % (int)v->n[V_ARMY];
    }
}

/* Writes square (x, y) as the scenario names it ("C4"). */
static void put_square(strbuf *b, int x, int y)
{
    char col[4];
    int n = 0;
    char tmp[4];
    for (int c = x + 1; c > 0 && n < 3; c = (c - 1) / 26)
        tmp[n++] = (char)('A' + (c - 1) % 26);
    for (int i = 0; i < n; i++)
        col[i] = tmp[n - 1 - i];
    col[n] = '\0';
    sb_printf(b, "%s%d", col, y + 1);
}

/* Whether two squares of g sharing a side differ in elevation. */
static bool has_steps(const gboard *g)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int e = g->elev[y * g->w + x];
            if ((x + 1 < g->w && g->elev[y * g->w + x + 1] != e) ||
                (y + 1 < g->h && g->elev[(y + 1) * g->w + x] != e))
                return true;
        }
    return false;
}

/* The legend symbol of each (terrain, feature) pair a board uses. */
static const char SYMBOLS[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* Writes board g as a scenario (board.md §4), with `comment` lines first. */
static void scenario_text(const search *r, const gboard *g, const char *comment, strbuf *b)
{
    const vocab *v = &r->vc;
    int pair_t[sizeof SYMBOLS], pair_f[sizeof SYMBOLS], npairs = 0, sym[SEARCH_MAX * SEARCH_MAX];
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
    sb_puts(b, comment);
    sb_printf(b, "size %d x %d\nlegend", g->w, g->h);
    for (int i = 0; i < g->w * g->h; i++) {
        int k = 0;
        while (k < npairs && (pair_t[k] != g->terrain[i] || pair_f[k] != g->feature[i]))
            k++;
        if (k == npairs && npairs < (int)sizeof SYMBOLS - 1) {
            pair_t[npairs] = g->terrain[i];
            pair_f[npairs++] = g->feature[i];
            sb_printf(b, " %c = %s", SYMBOLS[k], v->names[V_TERRAIN][g->terrain[i]]);
            if (g->feature[i] >= 0)
                sb_printf(b, " + %s", v->names[V_SQUARE][g->feature[i]]);
        }
        sym[i] = k;
    }
    for (int part = 0; part < 2; part++) {
        sb_puts(b, part ? "elevation\n" : "\nmap\n");
        for (int y = 0; y < g->h; y++) {
            sb_printf(b, "%3d", y + 1);
            for (int x = 0; x < g->w; x++) {
                int i = y * g->w + x;
                if (part)
                    sb_printf(b, " %d", g->elev[i]);
                else
                    sb_printf(b, " %c", SYMBOLS[sym[i]]);
            }
            sb_putc(b, '\n');
        }
    }
    if (g->steps >= 0 && has_steps(g)) /* `side steps` names no side on a flat board */
        sb_printf(b, "side steps %s\n", v->names[V_SIDE][g->steps]);
    for (int i = 0; i < g->nsides; i++) {
        sb_puts(b, "side ");
        put_square(b, g->sides[i].x, g->sides[i].y);
        sb_putc(b, '/');
        put_square(b, g->sides[i].x + !g->sides[i].south, g->sides[i].y + g->sides[i].south);
        sb_printf(b, " %s\n", v->names[V_SIDE][g->sides[i].feature]);
    }
    if (g->item >= 0) {
        sb_puts(b, "interspace ");
        put_square(b, g->item_x, g->item_y);
        sb_printf(b, " %s\n", v->names[V_ITEM][g->item]);
    }
    for (int i = 0; i < g->nunits; i++) {
        sb_printf(b, "unit u%d = %s %s at ", i + 1, v->counters[g->units[i].counter],
                  v->names[V_ARMY][g->units[i].army]);
        put_square(b, g->units[i].x, g->units[i].y);
        sb_putc(b, '\n');
    }
}

/* ---- asking a board ---- */

/* Makes board g the set's board: HON_OK, or its load's error. */
static hon_status enter(search *r, const gboard *g)
{
    scenario_text(r, g, "", &r->text);
    if (r->text.oom)
        return HON_ERR_MEMORY;
    size_t b = qs_board_text(&r->s, r->board, "<search>", sb_str(&r->text), r->text.len);
    if (b == SIZE_MAX)
        return HON_ERR_MEMORY;
    r->board = b;
    r->boards++;
    return qs_enter(&r->s, b);
}

/* The witness call q of board g as arguments that survive shrinking. */
static void witness_of(const search *r, const gboard *g, const qs_q *q, warg *w)
{
    const qs_stat *st = &r->s.stats[q->stat];
    for (size_t i = 0; i < q->nargs; i++) {
        const qs_dom *d = &r->s.doms[q->plan->dom[i]];
        w[i] = (warg){ .kind = W_VALUE, .v = q->args[i] };
        snprintf(w[i].name, sizeof w[i].name, "%s", d->names[q->at[i]]);
        if (st->kinds[i] == HON_T_SQUARE) {
            w[i].kind = W_SQUARE;
            w[i].x = (int)(q->args[i].i & 0xffffffff);
            w[i].y = (int)((uint64_t)q->args[i].i >> 32);
        }
        for (int u = 0; st->kinds[i] == HON_T_UNIT && u < g->nunits; u++) {
            char name[16];
            snprintf(name, sizeof name, "$u%d", u + 1);
            if (strcmp(name, w[i].name) == 0)
                w[i] = (warg){ .kind = W_UNIT, .unit = u };
        }
    }
}

/* The call of the witness's arguments on the board loaded, as q (its stat and nargs set by
 * the caller). */
static void call_of(search *r, const warg *w, qs_q *q)
{
    for (size_t i = 0; i < q->nargs; i++) {
        char name[16];
        switch (w[i].kind) {
        case W_UNIT:
            snprintf(name, sizeof name, "$u%d", w[i].unit + 1);
            q->args[i] = (hon_value){ HON_V_UNIT, hon_unit_id(r->s.vm[0], name) };
            break;
        case W_SQUARE: q->args[i] = (hon_value){ HON_V_SQUARE, HON_SQUARE(w[i].x, w[i].y) }; break;
        default: q->args[i] = w[i].v;
        }
    }
}

/* Whether the witness call differs on board g (loaded first). *st: an error (then false). */
static bool still_differs(search *r, const gboard *g, uint32_t stat, size_t nargs, const warg *w,
                          hon_status *st)
{
    if ((*st = enter(r, g)) != HON_OK)
        return false;
    qs_q q = { .stat = stat, .nargs = nargs };
    call_of(r, w, &q);
    qs_ans x, y;
    r->questions++;
    if (!qs_ask(&r->s, 0, &q, &x, false) || !qs_ask(&r->s, 1, &q, &y, false)) {
        *st = HON_ERR_MEMORY;
        return false;
    }
    return !qs_same(&x, &y);
}

/* Asks every call of the current board; the first that differs into *q (true). */
static bool first_difference(search *r, qs_q *q, hon_status *st)
{
    qs_iter it = { 0 };
    while (qs_next(&r->s, &it, q)) {
        qs_ans x, y;
        r->questions++;
        if (!qs_ask(&r->s, 0, q, &x, false) || !qs_ask(&r->s, 1, q, &y, false)) {
            *st = HON_ERR_MEMORY;
            return false;
        }
        if (!qs_same(&x, &y))
            return true;
    }
    return false;
}

/* ---- shrinking ---- */

/* Board g without unit u (the witness's units renumbered). */
static void drop_unit(gboard *g, warg *w, size_t n, int u)
{
    memmove(&g->units[u], &g->units[u + 1], (size_t)(g->nunits - u - 1) * sizeof g->units[0]);
    g->nunits--;
    for (size_t i = 0; i < n; i++)
        if (w[i].kind == W_UNIT && w[i].unit > u)
            w[i].unit--;
}

/* Board g without column x (col) or row y (!col), everything beyond moved one back; false when
 * a place of the witness, a unit, a side or the item stands there (then nothing changed). */
static bool drop_line(gboard *g, warg *w, size_t n, bool col, int at)
{
    if ((col ? g->w : g->h) < 2)
        return false;
    for (int i = 0; i < g->nunits; i++)
        if ((col ? g->units[i].x : g->units[i].y) == at)
            return false;
    for (int i = 0; i < g->nsides; i++)
        if ((col ? g->sides[i].x : g->sides[i].y) >= at - 1 &&
            (col ? g->sides[i].x : g->sides[i].y) <= at)
            return false;
    if (g->item >= 0 && (col ? g->item_x : g->item_y) == at)
        return false;
    for (size_t i = 0; i < n; i++)
        if (w[i].kind == W_SQUARE && (col ? w[i].x : w[i].y) == at)
            return false;
    gboard t = *g;
    t.w -= col;
    t.h -= !col;
    for (int y = 0, k = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            if ((col ? x : y) == at)
                continue;
            t.terrain[k] = g->terrain[y * g->w + x];
            t.feature[k] = g->feature[y * g->w + x];
            t.elev[k++] = g->elev[y * g->w + x];
        }
    for (int i = 0; i < t.nunits; i++)
        *(col ? &t.units[i].x : &t.units[i].y) -= (col ? t.units[i].x : t.units[i].y) > at;
    for (int i = 0; i < t.nsides; i++)
        *(col ? &t.sides[i].x : &t.sides[i].y) -= (col ? t.sides[i].x : t.sides[i].y) > at;
    *(col ? &t.item_x : &t.item_y) -= (col ? t.item_x : t.item_y) > at;
    for (size_t i = 0; i < n; i++)
        if (w[i].kind == W_SQUARE)
            *(col ? &w[i].x : &w[i].y) -= (col ? w[i].x : w[i].y) > at;
    *g = t;
    return true;
}

/* Change number k (0, 1, ...) of the shrinking of g into *t (the witness's arguments moved
 * with the board into tw): a unit the witness does not name, a side, the steps' feature, the
 * interspace item, a column or a row, a square's feature, terrain (the first square's) or
 * elevation taken away. *applies: whether it changes anything. False when k is past the last
 * change. */
static bool change(const gboard *g, const warg *w, size_t n, int k, gboard *t, warg *tw,
                   bool *applies)
{
    *t = *g;
    memcpy(tw, w, n * sizeof *w);
    *applies = false;
    int sq = g->w * g->h;
    if (k < g->nunits) { /* a unit the witness does not name */
        bool named = false;
        for (size_t i = 0; i < n; i++)
            named |= w[i].kind == W_UNIT && w[i].unit == k;
        if ((*applies = !named))
            drop_unit(t, tw, n, k);
        return true;
    }
    k -= g->nunits;
    if (k < g->nsides) {
        memmove(&t->sides[k], &t->sides[k + 1], (size_t)(t->nsides - k - 1) * sizeof t->sides[0]);
        t->nsides--;
        return *applies = true;
    }
    k -= g->nsides;
    if (k == 0) {
        *applies = g->steps >= 0;
        t->steps = -1;
        return true;
    }
    if (k == 1) {
        *applies = g->item >= 0;
        t->item = -1;
        return true;
    }
    k -= 2;
    if (k < g->w + g->h) { /* a column, then a row */
        *applies = drop_line(t, tw, n, k < g->w, k < g->w ? k : k - g->w);
        return true;
    }
    k -= g->w + g->h;
    if (k < 3 * sq) { /* a square's feature, terrain (the first square's), elevation */
        int i = k % sq, what = k / sq;
        if (what == 0) {
            *applies = g->feature[i] >= 0;
            t->feature[i] = -1;
        } else if (what == 1) {
            *applies = g->terrain[i] != g->terrain[0];
            t->terrain[i] = g->terrain[0];
        } else {
            *applies = g->elev[i] != 0;
            t->elev[i] = 0;
        }
        return true;
    }
    return false;
}

/* Shrinks g while the witness call (stat, its n arguments w) still differs. */
static hon_status shrink(search *r, gboard *g, uint32_t stat, warg *w, size_t n, int *steps)
{
    hon_status st = HON_OK;
    bool progress = true;
    while (progress && st == HON_OK) {
        progress = false;
        gboard t;
        warg tw[16];
        bool applies;
        for (int k = 0; st == HON_OK && change(g, w, n, k, &t, tw, &applies); k++)
            if (applies && still_differs(r, &t, stat, n, tw, &st)) {
                *g = t;
                memcpy(w, tw, n * sizeof *w);
                (*steps)++;
                progress = true;
            }
    }
    return st;
}

/* ---- reporting the witness ---- */

/* Writes the witness's call as its text into b. */
static void put_call(const search *r, uint32_t stat, const warg *w, size_t n, strbuf *b)
{
    sb_printf(b, "%s(", r->s.stats[stat].query);
    for (size_t i = 0; i < n; i++) {
        sb_puts(b, i ? ", " : "");
        if (w[i].kind == W_UNIT)
            sb_printf(b, "$u%d", w[i].unit + 1);
        else if (w[i].kind == W_SQUARE) {
            sb_putc(b, '@');
            put_square(b, w[i].x, w[i].y);
        } else
            sb_puts(b, w[i].name);
    }
    sb_putc(b, ')');
}

/* The places between which the witness's line is drawn: its first two units or squares
 * ("$u1", "@C4") into a and b; false when it has fewer. */
static bool line_ends(const warg *w, size_t n, char *a, char *b, size_t cap)
{
    char *ends[2] = { a, b };
    int k = 0;
    for (size_t i = 0; i < n && k < 2; i++) {
        strbuf t = { 0 };
        if (w[i].kind == W_UNIT)
            sb_printf(&t, "$u%d", w[i].unit + 1);
        else if (w[i].kind == W_SQUARE) {
            sb_putc(&t, '@');
            put_square(&t, w[i].x, w[i].y);
        }
        if (t.len)
            snprintf(ends[k++], cap, "%s", sb_str(&t));
        sb_free(&t);
    }
    return k == 2;
}

/* Writes the witness: the scenario file at o->witness, its picture next to it (.svg). */
static hon_status write_witness(search *r, const gboard *g, const char *comment, const warg *w,
                                size_t n, strbuf *out)
{
    const char *path = r->o->witness;
    if (!path)
        return HON_OK;
    scenario_text(r, g, comment, &r->text);
    FILE *f = fopen(path, "w");
    if (!f || fwrite(sb_str(&r->text), 1, r->text.len, f) != r->text.len) {
        if (f)
            fclose(f);
        session_report(r->s.vm[0], E_NONE, path, "cannot write '%s'", path);
        return HON_ERR_IO;
    }
    fclose(f);
    char svg[4096], a[32], b[32];
    size_t len = strlen(path);
    bool scn = len > 4 && strcmp(path + len - 4, ".scn") == 0;
    snprintf(svg, sizeof svg, "%.*s.svg", (int)(scn ? len - 4 : len), path);
    f = fopen(svg, "w");
    bool ends = line_ends(w, n, a, b, sizeof a);
    hon_status st = f ? hon_board_svg(r->s.vm[0], f, ends ? a : NULL, ends ? b : NULL) : HON_ERR_IO;
    if (f && fclose(f) != 0 && st == HON_OK)
        st = HON_ERR_IO;
    if (st != HON_OK)
        session_report(r->s.vm[0], E_NONE, svg, "cannot write '%s'", svg);
    else
        sb_printf(out, "wrote %s and %s\n", path, svg);
    return st;
}

/* Prints and writes the witness: board g, the call, both answers and traces. */
static hon_status report(search *r, gboard *g, uint32_t stat, const warg *w, size_t n, strbuf *out)
{
    hon_status st;
    if (!still_differs(r, g, stat, n, w, &st))
        return st == HON_OK ? HON_ERR_RUNTIME : st;
    qs_q q = { .stat = stat, .nargs = n };
    call_of(r, w, &q);
    hon_answer *a[2] = { qs_ask_traced(&r->s, 0, &q), qs_ask_traced(&r->s, 1, &q) };
    strbuf call = { 0 }, comment = { 0 };
    put_call(r, stat, w, n, &call);
    const char *ans[2] = { a[0] ? hon_answer_text(a[0]) : "?", a[1] ? hon_answer_text(a[1]) : "?" };
    const char *why[2] = { a[0] ? hon_answer_why(a[0]) : "", a[1] ? hon_answer_why(a[1]) : "" };
    char *rules = diff_rules_that_differ(a[0], a[1]);
    sb_printf(out, "witness (%d x %d): %s\n-- rules that differ: %s\n", g->w, g->h, sb_str(&call),
              rules && rules[0] ? rules : "none (the same rules fired)");
    sb_printf(&comment,
              "# A witness found by `hon diff --search` (seed %llu): on this board\n"
              "# %s is %s under %s and %s under %s.\n",
              (unsigned long long)r->o->seed, sb_str(&call), ans[0], r->label[0], ans[1],
              r->label[1]);
    char a_end[32], b_end[32];
    bool ends = line_ends(w, n, a_end, b_end, sizeof a_end);
    char *pic = NULL;
    size_t plen = 0;
    FILE *mem = open_memstream(&pic, &plen);
    if (mem) {
        hon_draw_board(r->s.vm[0], mem, ends ? a_end : NULL, ends ? b_end : NULL);
        fclose(mem);
        sb_puts(out, pic);
    }
    free(pic); /* open_memstream's buffer comes from malloc */
    diff_show(out, r->label, ans, why, r->o->width ? r->o->width : DIFF_WIDTH);
    st = !rules || call.oom ? HON_ERR_MEMORY : write_witness(r, g, sb_str(&comment), w, n, out);
    mem_free(rules);
    sb_free(&call);
    sb_free(&comment);
    hon_answer_free(a[0]);
    hon_answer_free(a[1]);
    return st;
}

/* ---- the search ---- */

/* Keeps only the queries the search asks: those of o->queries (all when none), whose
 * parameters are units, squares and finite types (a side or an element has no place that
 * shrinking could keep). */
static void choose_queries(search *r)
{
    for (size_t k = 0; k < r->s.nstats; k++) {
        qs_stat *st = &r->s.stats[k];
        bool wanted = !r->o->nqueries;
        for (size_t i = 0; i < r->o->nqueries; i++)
            wanted |= strcmp(r->o->queries[i], st->query) == 0;
        for (size_t i = 0; i < st->nparams; i++)
            wanted &= st->kinds[i] != HON_T_SIDE && st->kinds[i] != HON_T_ELEMENT;
        if (!wanted && !st->skip)
            st->skip = "not searched";
    }
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The size of the i-th board of the search: the sizes up to max x max in order of area
 * (then width), each tried `per` times; past them, sizes at random. */
static void size_of(search *r, size_t i, int max, int per, int *w, int *h)
{
    size_t k = 0;
    for (int area = 2; area <= max * max; area++)
        for (int x = 1; x <= max; x++)
            if (area % x == 0 && area / x <= max && k++ * (size_t)per + (size_t)per > i) {
                *w = x;
                *h = area / x;
                return;
            }
    *w = 1 + rnd(r, max);
    *h = 1 + rnd(r, max);
    if (*w * *h < 2)
        *w = 2;
}

hon_status hon_diff_search(hon_vm *a, const char *label_a, hon_vm *b, const char *label_b,
                           const hon_search_options *o, FILE *out, bool *found)
{
    if (found)
        *found = false;
    if (!a || !b || !o || !out)
        return HON_ERR_NOT_FOUND;
    search r = { .board = SIZE_MAX, .o = o, .label = { label_a, label_b }, .rng = o->seed };
    int max = o->max_size ? (int)o->max_size : 6;
    double budget = o->seconds > 0 ? o->seconds : 60;
    if (max > SEARCH_MAX)
        max = SEARCH_MAX;
    hon_question_set qs = { .cap = SEARCH_CAP, .int_lo = 0, .int_hi = 6 };
    hon_vm *vms[2] = { a, b };
    hon_status st = qs_build(&r.s, vms, 2, &qs);
    if (st == HON_OK && !vocab_read(a, &r.vc)) {
        session_report(a, E_NONE, "<search>",
                       "the rules declare no terrain, army or 1-square counter to make boards of");
        st = HON_ERR_NOT_FOUND;
    }
    if (st == HON_OK)
        choose_queries(&r);
    strbuf text = { 0 };
    sb_printf(&text, "search %s | %s: boards up to %d x %d, seed %llu, %g s\n", label_a, label_b,
              max, max, (unsigned long long)o->seed, budget);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gboard g;
    qs_q q;
    bool hit = false;
    for (size_t i = 0; st == HON_OK && !hit && seconds_since(&t0) < budget; i++) {
        int w, h;
        size_of(&r, i, max, 8, &w, &h);
        generate(&r, &g, w, h);
        if ((st = enter(&r, &g)) == HON_OK)
            hit = first_difference(&r, &q, &st);
    }
    if (st == HON_OK && hit) {
        warg wa[16];
        int steps = 0;
        size_t n = q.nargs;
        uint32_t stat = q.stat;
        sb_printf(&text, "found on board %zu (%d x %d) after %zu questions", r.boards, g.w, g.h,
                  r.questions);
        witness_of(&r, &g, &q, wa);
        st = shrink(&r, &g, stat, wa, n, &steps);
        sb_printf(&text, ", shrunk in %d step%s\n", steps, steps == 1 ? "" : "s");
        if (st == HON_OK)
            st = report(&r, &g, stat, wa, n, &text);
    } else if (st == HON_OK) {
        sb_printf(&text,
                  "no difference found up to %d x %d (%zu boards, %zu questions in %.1f s)\n", max,
                  max, r.boards, r.questions, seconds_since(&t0));
    }
    hon_drop_board(a);
    hon_drop_board(b);
    if (st == HON_OK && text.oom)
        st = HON_ERR_MEMORY;
    if (st == HON_OK && fwrite(sb_str(&text), 1, text.len, out) != text.len)
        st = HON_ERR_IO;
    if (found)
        *found = st == HON_OK && hit;
    sb_free(&text);
    sb_free(&r.text);
    vocab_free(&r.vc);
    qs_free(&r.s);
    return st;
}
