/* search.c — the smallest board where two settings part (hon.h: hon_diff_search; quietly, for
 * variants.c: search.h). Boards are generated from the loaded rules' own vocabulary (their
 * terrain, square and side features, interspace items, armies, one 1-square counter of each
 * unit kind, elevations 0 to 2), the part of it that the rules where the settings part read
 * (focus.h) more often: the smallest sizes first, then sizes and boards at random, all from
 * one seed. Each board is asked the calls of the queries over its units, squares and finite
 * types (questions.c) that can answer differently; the first call whose answers differ (and,
 * with rules named, whose rules that differ include one of them: diff.h) is kept, and the
 * board is shrunk — units, sides, interspace items, square features, terrain, elevation, rows
 * and columns taken away one at a time while that call still differs — to a minimal witness,
 * written as a scenario file and an SVG picture with the line between the call's places drawn.
 * docs/spec/repl.md §5.
 */
#include "search.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff.h"
#include "file.h"
#include "focus.h"
#include "mem.h"
#include "view.h"
#include "vm.h"

#define SEARCH_MAX      12  /* the largest board side */
#define SEARCH_UNITS    3   /* units on a board at most */
#define SEARCH_SIDES    4   /* sides given a feature one by one */
#define SEARCH_CAP      400 /* calls per query and board */
#define SEARCH_PER_SIZE 8   /* boards of each size before the sizes at random */

/* The names a board may use, from the rules (owned strings), and those the rules where the
 * settings part read (focus.h): a board takes them more often. */
typedef struct vocab {
    char **names[5]; /* terrain, square features, side features, interspace items, armies */
    size_t n[5];
    char **counters; /* one 1-square counter per unit kind */
    size_t ncounters;
    unsigned char *where; /* [counter * n[V_TERRAIN] + terrain]: may start 0 not there, 1 along
                             the edge, 2 anywhere (placeable) */
    int *hot[5];          /* indexes into names[k] of those read (none for the armies) */
    size_t nhot[5];
    int *hot_counters; /* indexes into counters of those whose kind is read */
    size_t nhot_counters;
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
    focus fc;         /* where the settings can part */
    size_t boards;    /* boards asked */
    size_t questions; /* calls asked (in both sessions) */
    double seconds;   /* the time spent looking */
    /* when the settings differ in one variant's reading alone (focus_one_variant): that
     * variant, and per query stat whether an answer under the first that did not read it
     * (vm_ctx.variants_read) is sure to be the same under the second (not focus_unseen) */
    int32_t variant;
    bool *watched;
    uint64_t *reads;
    size_t max_boards; /* boards made at most (0: as many as the time allows) */
    bool swept;        /* max_boards were made, none showing a difference, within the time */
    /* the clock of the looking: when it began and its budget in seconds; out_of_time once the
     * budget is spent (checked between boards and between the questions of one board) */
    struct timespec t0;
    double budget;
    bool out_of_time;
    /* the board where a difference was first found: its number, size, the calls asked by then */
    size_t found_at, found_after;
    int found_w, found_h;
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

/* Appends i to the list *at (*n long); false on OOM. */
static bool add_index(int **at, size_t *n, int i)
{
    int *grown = mem_realloc(*at, (*n + 1) * sizeof *grown);
    if (!grown)
        return false;
    *at = grown;
    grown[(*n)++] = i;
    return true;
}

/* on_diag while square features are tried (unmarkable): their refusals are not the user's. */
static void drop_diag(void *userdata, const hon_diag *d)
{
    (void)userdata;
    (void)d;
}

/* Leaves out of v the square features that no board may carry as the search writes them, bare
 * (`+ NAME`, value 0): the rules refuse such a board when it loads (E319, may_mark_square: a
 * bare scenario_played names no scenario). Each is tried alone on a board of one square of the
 * first terrain, quietly; vm's board is dropped after (the search's sessions are copies, and
 * each board it makes is loaded anew). HON_OK or HON_ERR_MEMORY. */
static hon_status unmarkable(hon_vm *vm, vocab *v)
{
    void (*on_diag)(void *, const hon_diag *) = vm->cfg.on_diag;
    vm->cfg.on_diag = drop_diag;
    strbuf b = { 0 };
    hon_status st = HON_OK;
    size_t kept = 0;
    for (size_t i = 0; i < v->n[V_SQUARE]; i++) {
        b.len = 0;
        sb_printf(&b, "size 1 x 1\nlegend a = %s + %s\nmap\n  1 a\n", v->names[V_TERRAIN][0],
                  v->names[V_SQUARE][i]);
        hon_status one =
            b.oom ? HON_ERR_MEMORY : hon_load_board_source(vm, "<search>", sb_str(&b), b.len);
        if (one == HON_ERR_MEMORY)
            st = one;
        if (one == HON_OK || st != HON_OK)
            v->names[V_SQUARE][kept++] = v->names[V_SQUARE][i];
        else
            mem_free(v->names[V_SQUARE][i]);
    }
    v->n[V_SQUARE] = kept;
    sb_free(&b);
    hon_drop_board(vm);
    vm->cfg.on_diag = on_diag;
    return st;
}

/* Whether the one-unit board `text` (its last line a unit without its square) loads in vms a, b
 * with the unit on square sq ("B2"), quietly. HON_OK, HON_ERR_COMPILE when the rules refuse it
 * (or it is not a board), HON_ERR_MEMORY. */
static hon_status loads_at(hon_vm *a, hon_vm *b, strbuf *text, const char *sq)
{
    size_t len = text->len;
    sb_printf(text, "%s\n", sq);
    hon_status st = HON_OK;
    hon_vm *vms[2] = { a, b };
    for (int i = 0; i < 2 && st == HON_OK; i++) {
        void (*on_diag)(void *, const hon_diag *) = vms[i]->cfg.on_diag;
        vms[i]->cfg.on_diag = drop_diag;
        st = text->oom ? HON_ERR_MEMORY
                       : hon_load_board_source(vms[i], "<search>", sb_str(text), text->len);
        vms[i]->cfg.on_diag = on_diag;
        hon_drop_board(vms[i]);
    }
    text->len = len;
    return st == HON_OK || st == HON_ERR_MEMORY ? st : HON_ERR_COMPILE;
}

/* Asks the rules of vms a and b where each counter of v may be set up on each terrain (the
 * verdict query may_start_at, E320: a landing craft only with its back against the edge,
 * BRO.2.landing-craft.placement; no infantry in open water, expansions/water_setup.hon): alone
 * in the middle of a 3 x 3 board of that terrain, anywhere (2 in v->where); else on the middle of
 * its north edge, only along the edge (1); else not there (0). A terrain whose bare board does not
 * load refuses nothing. A counter set up nowhere is left out of v with its kind (kinds, parallel
 * to v->counters). HON_OK or HON_ERR_MEMORY. */
static hon_status placeable(hon_vm *a, hon_vm *b, vocab *v, char (*kinds)[64])
{
    size_t nt = v->n[V_TERRAIN];
    v->where = mem_calloc(v->ncounters ? v->ncounters * nt : 1, 1);
    if (!v->where)
        return HON_ERR_MEMORY;
    strbuf t = { 0 };
    hon_status st = HON_OK;
    size_t kept = 0;
    for (size_t i = 0; i < v->ncounters; i++) {
        unsigned char *w = &v->where[kept * nt], any = 0;
        for (size_t k = 0; k < nt && st == HON_OK; k++) {
            t.len = 0;
            sb_printf(&t, "size 3 x 3\nlegend a = %s\nmap\n  1 a a a\n  2 a a a\n  3 a a a\n",
                      v->names[V_TERRAIN][k]);
            size_t bare = t.len;
            sb_printf(&t, "unit u = %s %s at ", v->counters[i], v->names[V_ARMY][0]);
            hon_status mid = loads_at(a, b, &t, "B2");
            hon_status edge = mid == HON_ERR_COMPILE ? loads_at(a, b, &t, "B1") : mid;
            t.len = bare;
            hon_status none = edge == HON_ERR_COMPILE ? loads_at(a, b, &t, "") : edge;
            if (mid == HON_ERR_MEMORY || edge == HON_ERR_MEMORY || none == HON_ERR_MEMORY)
                st = HON_ERR_MEMORY;
            w[k] = mid == HON_OK || none != HON_OK ? 2 : edge == HON_OK ? 1 : 0;
            any |= w[k];
        }
        if (st != HON_OK || any) {
            memmove(kinds[kept], kinds[i], sizeof kinds[0]);
            v->counters[kept++] = v->counters[i];
        } else {
            mem_free(v->counters[i]);
        }
    }
    v->ncounters = kept;
    sb_free(&t);
    return st;
}

/* Reads the vocabulary of vm's rules into v, and which of it the focus f reads. HON_OK;
 * HON_ERR_NOT_FOUND when there is nothing to make boards of, HON_ERR_MEMORY. */
static hon_status vocab_read(hon_vm *vm, hon_vm *other, const focus *f, vocab *v)
{
    static const char *const enums[5] = { "terrain", "square_feature", "side_feature",
                                          "interspace_item", "side" };
    memset(v, 0, sizeof *v);
    bool ok = true;
    for (int k = 0; k < 5; k++) {
        name_list l = { v, k };
        ok &= hon_each_member(vm, enums[k], add_name, &l) == v->n[k];
    }
    counter_pick c = { .v = v };
    hon_each_counter(vm, add_counter, &c);
    if (ok && v->n[V_TERRAIN] && unmarkable(vm, v) != HON_OK)
        ok = false;
    if (ok && v->n[V_TERRAIN] && v->n[V_ARMY] && placeable(vm, other, v, c.kinds) != HON_OK)
        ok = false;
    for (int k = 0; k < V_ARMY; k++)
        for (size_t i = 0; ok && i < v->n[k]; i++)
            if (focus_reads(f, k, v->names[k][i]))
                ok = add_index(&v->hot[k], &v->nhot[k], (int)i);
    for (size_t i = 0; ok && i < v->ncounters; i++)
        if (focus_reads(f, FOCUS_KIND, c.kinds[i]))
            ok = add_index(&v->hot_counters, &v->nhot_counters, (int)i);
    if (!ok)
        return HON_ERR_MEMORY;
    return v->n[V_TERRAIN] && v->n[V_ARMY] && v->ncounters >= 1 ? HON_OK : HON_ERR_NOT_FOUND;
}

static void vocab_free(vocab *v)
{
    for (int k = 0; k < 5; k++) {
        for (size_t i = 0; i < v->n[k]; i++)
            mem_free(v->names[k][i]);
        mem_free(v->names[k]);
        mem_free(v->hot[k]);
    }
    for (size_t i = 0; i < v->ncounters; i++)
        mem_free(v->counters[i]);
    mem_free(v->counters);
    mem_free(v->where);
    mem_free(v->hot_counters);
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

/* A member of list k of the vocabulary: half the time (when the focus reads any) one the focus
 * reads, else any. */
static int pick(search *r, int k)
{
    const vocab *v = &r->vc;
    if (v->nhot[k] && rnd(r, 2))
        return v->hot[k][rnd(r, (int)v->nhot[k])];
    return rnd(r, (int)v->n[k]);
}

/* Whether member i of list k is one the focus reads. */
static bool hot(const vocab *v, int k, int i)
{
    for (size_t j = 0; i >= 0 && j < v->nhot[k]; j++)
        if (v->hot[k][j] == i)
            return true;
    return false;
}

/* Whether a unit of g before unit n stands on square (x, y). */
static bool taken(const gboard *g, int n, int x, int y)
{
    for (int k = 0; k < n; k++)
        if (g->units[k].x == x && g->units[k].y == y)
            return true;
    return false;
}

/* A square of its own for unit i of g: for a third unit, half the time the one halfway between
 * the first two (a unit between two others); else half the time (when the focus reads square
 * features) a square with one it reads; else any. */
static void place(search *r, gboard *g, int i)
{
    int *x = &g->units[i].x, *y = &g->units[i].y;
    if (i == 2 && rnd(r, 2)) {
        *x = (g->units[0].x + g->units[1].x) / 2;
        *y = (g->units[0].y + g->units[1].y) / 2;
        if (!taken(g, i, *x, *y))
            return;
    }
    if (r->vc.nhot[V_SQUARE] && rnd(r, 2)) {
        int spots[SEARCH_MAX * SEARCH_MAX], n = 0;
        for (int k = 0; k < g->w * g->h; k++)
            if (hot(&r->vc, V_SQUARE, g->feature[k]) && !taken(g, i, k % g->w, k / g->w))
                spots[n++] = k;
        if (n) {
            int k = spots[rnd(r, n)];
            *x = k % g->w;
            *y = k / g->w;
            return;
        }
    }
    do {
        *x = rnd(r, g->w);
        *y = rnd(r, g->h);
    } while (taken(g, i, *x, *y));
}

/* Whether the counter of unit i of g may start on square k of g (vocab where). */
static bool may_start(const vocab *v, const gboard *g, int i, int k)
{
    int x = k % g->w, y = k / g->w;
    unsigned char w =
        v->where[(size_t)g->units[i].counter * v->n[V_TERRAIN] + (size_t)g->terrain[k]];
    return w == 2 || (w == 1 && (x == 0 || y == 0 || x == g->w - 1 || y == g->h - 1));
}

/* Puts unit i of g where its counter may start (vocab where, may_start_at): where it stands if
 * it may, else on the nearest free square where it may (the first in row order of those as
 * near), else on the nearest free square made of the first terrain that takes it there. Draws
 * no number from the stream: a board whose units may all start where they stand is unchanged. */
static void settle(const vocab *v, gboard *g, int i)
{
    int at = g->units[i].y * g->w + g->units[i].x;
    if (may_start(v, g, i, at))
        return;
    for (int pass = 0; pass < 2; pass++) {
        int best = -1, bestd = INT_MAX;
        for (int k = 0; k < g->w * g->h; k++) {
            int x = k % g->w, y = k / g->w;
            int d = abs(x - g->units[i].x) + abs(y - g->units[i].y);
            if (d < bestd && (k == at || !taken(g, i, x, y))) {
                int keep = g->terrain[k];
                for (size_t t = 0; pass && t < v->n[V_TERRAIN] && !may_start(v, g, i, k); t++)
                    g->terrain[k] = (int)t;
                if (may_start(v, g, i, k)) {
                    best = k;
                    bestd = d;
                }
                g->terrain[k] = keep;
            }
        }
        if (best >= 0) {
            for (size_t t = 0; pass && t < v->n[V_TERRAIN] && !may_start(v, g, i, best); t++)
                g->terrain[best] = (int)t;
            g->units[i].x = best % g->w;
            g->units[i].y = best / g->w;
            return;
        }
    }
}

/* A random board of w x h squares from the vocabulary, the focus's names taken more often. */
static void generate(search *r, gboard *g, int w, int h)
{
    const vocab *v = &r->vc;
    memset(g, 0, sizeof *g);
    g->w = w;
    g->h = h;
    int palette[3], np = 1 + rnd(r, 3);
    for (int i = 0; i < np; i++)
        palette[i] = pick(r, V_TERRAIN);
    int one_in = v->nhot[V_SQUARE] ? 3 : 6; /* squares with a feature: one in one_in */
    for (int i = 0; i < w * h; i++) {
        g->terrain[i] = palette[rnd(r, 4) ? 0 : rnd(r, np)];
        g->feature[i] = v->n[V_SQUARE] && !rnd(r, one_in) ? pick(r, V_SQUARE) : -1;
        g->elev[i] = rnd(r, 2) ? 0 : 1 + rnd(r, 2);
    }
    g->steps = v->n[V_SIDE] && rnd(r, 3) ? pick(r, V_SIDE) : -1;
    g->nsides = v->n[V_SIDE] ? rnd(r, 3) : 0;
    for (int i = 0; i < g->nsides; i++) {
        g->sides[i].south = w == 1 || (h > 1 && rnd(r, 2));
        g->sides[i].x = rnd(r, g->sides[i].south ? w : w - 1);
        g->sides[i].y = rnd(r, g->sides[i].south ? h - 1 : h);
        g->sides[i].feature = pick(r, V_SIDE);
    }
    g->item = v->n[V_ITEM] && !rnd(r, v->nhot[V_ITEM] ? 2 : 3) ? pick(r, V_ITEM) : -1;
    g->item_x = rnd(r, w);
    g->item_y = rnd(r, h);
    g->nunits = w * h >= 3 && rnd(r, 2) ? 3 : 2;
    if (w * h < g->nunits)
        g->nunits = w * h;
    for (int i = 0; i < g->nunits; i++) {
        place(r, g, i);
        g->units[i].counter = v->nhot_counters && rnd(r, 2)
                                  ? v->hot_counters[rnd(r, (int)v->nhot_counters)]
                                  : rnd(r, (int)v->ncounters);
        g->units[i].army = i % (int)v->n[V_ARMY];
        if (v->where)
            settle(v, g, i);
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

/* Whether call q, whose answers differ, counts: with rules named (o->rules), when the rules
 * that differ between its traced answers include one of them. *st: an error. */
static bool counts(search *r, const qs_q *q, hon_status *st)
{
    if (!r->o->nrules)
        return true;
    hon_answer *a[2] = { qs_ask_traced(&r->s, 0, q), qs_ask_traced(&r->s, 1, q) };
    char *names = diff_rules_that_differ(a[0], a[1]);
    bool hit = names && diff_rules_include(names, r->o->rules, r->o->nrules);
    if (!names)
        *st = HON_ERR_MEMORY;
    mem_free(names);
    hon_answer_free(a[0]);
    hon_answer_free(a[1]);
    return hit;
}

/* Whether q's answers differ (and the difference counts); *st: an error (then false). When
 * the answer under the first setting did not read the one variant that differs, and could
 * not have read it unseen, it is not asked under the second: it is the same. */
static bool differs(search *r, const qs_q *q, hon_status *st)
{
    qs_ans x, y;
    r->questions++;
    vm_ctx *vx = &r->s.vm[0]->x;
    bool watch = r->watched && !q->text && r->watched[q->stat];
    if (watch) {
        int32_t v = r->variant;
        memset(r->reads, 0, ((size_t)v / 64 + 1) * sizeof *r->reads);
        vx->variants_read = r->reads;
    }
    bool ok = qs_ask(&r->s, 0, q, &x, false);
    vx->variants_read = NULL;
    if (ok && watch && !(r->reads[r->variant / 64] >> (r->variant % 64) & 1)) {
        *st = qs_interrupted(&r->s);
        return false;
    }
    if (!ok || !qs_ask(&r->s, 1, q, &y, false)) {
        *st = HON_ERR_MEMORY;
        return false;
    }
    if ((*st = qs_interrupted(&r->s)) != HON_OK) /* the answers may be E231s */
        return false;
    return !qs_same(&x, &y) && counts(r, q, st);
}

/* Whether the witness call differs on board g (loaded first). *st: an error (then false). */
static bool still_differs(search *r, const gboard *g, uint32_t stat, size_t nargs, const warg *w,
                          hon_status *st)
{
    if ((*st = enter(r, g)) != HON_OK)
        return false;
    qs_q q = { .stat = stat, .nargs = nargs };
    call_of(r, w, &q);
    return differs(r, &q, st);
}

/* Asks every call of the current board; the first that differs into *q (true). */
static double seconds_since(const struct timespec *t0);

/* Whether r's budget is spent (and then r->out_of_time). */
static bool time_is_up(search *r)
{
    if (!r->out_of_time && seconds_since(&r->t0) >= r->budget)
        r->out_of_time = true;
    return r->out_of_time;
}

/* The first call of board r->board whose answers differ, into *q; false when none does or the
 * time is up before the board's calls are all asked (a board's calls can take long: the
 * budget bounds them too). */
static bool first_difference(search *r, qs_q *q, hon_status *st)
{
    qs_iter it = { 0 };
    while (*st == HON_OK && !time_is_up(r) && qs_next(&r->s, &it, q))
        if (differs(r, q, st))
            return true;
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

static int write_text(FILE *f, void *ud)
{
    strbuf *b = ud;
    return fwrite(sb_str(b), 1, b->len, f) == b->len ? 0 : (int)HON_ERR_IO;
}

/* The witness's picture, for hon_write_file: the board with the line between the call's ends,
 * without a verdict (one reading's would mislead: the two readings disagree on it). */
typedef struct witness_picture {
    hon_vm *vm;
    const char *from, *to;
} witness_picture;

static hon_status draw_witness(FILE *f, void *ud)
{
    const witness_picture *p = ud;
    return view_draw(p->vm, f, p->from, p->to, true, NULL, NULL, NULL);
}

/* Writes the witness, each file whole or not at all: the scenario file at o->witness, its
 * picture next to it (.svg). */
static hon_status write_witness(search *r, const gboard *g, const char *comment, const warg *w,
                                size_t n, strbuf *out)
{
    const char *path = r->o->witness;
    if (!path)
        return HON_OK;
    scenario_text(r, g, comment, &r->text);
    int status = 0;
    int err = file_write_whole(path, write_text, &r->text, &status);
    if (err || status) {
        session_report(r->s.vm[0], E_PROGRAM_WRITE, path, "cannot write '%s': %s", path,
                       err ? strerror(err) : "output error");
        return HON_ERR_IO;
    }
    char svg[4096], a[32], b[32];
    size_t len = strlen(path);
    bool scn = len > 4 && strcmp(path + len - 4, ".scn") == 0;
    snprintf(svg, sizeof svg, "%.*s.svg", (int)(scn ? len - 4 : len), path);
    bool ends = line_ends(w, n, a, b, sizeof a);
    witness_picture pic = { r->s.vm[0], ends ? a : NULL, ends ? b : NULL };
    hon_status st = hon_write_file(svg, draw_witness, &pic, &err);
    if (st != HON_OK) {
        session_report(r->s.vm[0], E_PROGRAM_WRITE, svg, "cannot write '%s': %s", svg,
                       err ? strerror(err) : hon_status_text(st));
        return st;
    }
    sb_printf(out, "wrote %s and %s\n", path, svg);
    return HON_OK;
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
    const char *why[2] = { a[0] ? diff_without_setting(hon_answer_why(a[0])) : "",
                           a[1] ? diff_without_setting(hon_answer_why(a[1])) : "" };
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
        view_draw(r->s.vm[0], mem, ends ? a_end : NULL, ends ? b_end : NULL, false, NULL, NULL,
                  NULL);
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

/* Keeps only the queries the search asks: those of o->queries (all when none) that can answer
 * differently under the two settings (focus.h), whose parameters are units, squares and finite
 * types, one at least a unit or a square (a side or an element has no place that shrinking
 * could keep). How many are left. */
static size_t choose_queries(search *r)
{
    size_t left = 0;
    const res_program *p = r->s.vm[0]->pg->res;
    for (size_t k = 0; k < r->s.nstats; k++) {
        qs_stat *st = &r->s.stats[k];
        int32_t id = model_find_query(p, st->query);
        bool wanted = !r->o->nqueries;
        for (size_t i = 0; i < r->o->nqueries; i++)
            wanted |= strcmp(r->o->queries[i], st->query) == 0;
        wanted &= id < 0 || focus_query(&r->fc, (uint32_t)id);
        for (size_t i = 0; i < st->nparams; i++)
            wanted &= st->kinds[i] != HON_T_SIDE && st->kinds[i] != HON_T_ELEMENT;
        wanted &= st->board; /* a query with no place of the board is the same on every one */
        if (!wanted && !st->skip)
            st->skip = "not searched";
        left += !st->skip;
    }
    return left;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The size of the i-th board of the search: the sizes up to max x max in order of area
 * (then the wider first), each tried `per` times; past them, sizes at random. */
static void size_of(search *r, size_t i, int max, int per, int *w, int *h)
{
    size_t k = 0;
    for (int area = 2; area <= max * max; area++)
        for (int x = max; x >= 1; x--)
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

size_t search_sweep(unsigned max_size)
{
    int max = max_size ? (int)max_size : 6, sizes = 0;
    if (max > SEARCH_MAX)
        max = SEARCH_MAX;
    for (int area = 2; area <= max * max; area++) /* as size_of counts them */
        for (int x = max; x >= 1; x--)
            sizes += area % x == 0 && area / x <= max;
    return (size_t)sizes * SEARCH_PER_SIZE;
}

/* A search's witness: its board and call (the query's stat and the arguments). */
typedef struct witness {
    gboard g;
    uint32_t stat;
    warg w[16];
    size_t n;
    int steps; /* of the shrinking */
} witness;

/* When r's settings differ in one variant's reading alone: which query stats' answers under
 * the first show whether they read it (search.watched). */
static hon_status watch_variant(search *r)
{
    const res_program *p = r->s.vm[0]->pg->res;
    r->variant = focus_one_variant(&r->fc);
    if (r->variant < 0)
        return HON_OK;
    bool *unseen = mem_calloc(p->nqueries + 1, sizeof *unseen),
         *unseen_fn = mem_calloc(p->nfns + 1, sizeof *unseen_fn);
    r->watched = mem_calloc(r->s.nstats + 1, sizeof *r->watched);
    r->reads = mem_calloc((size_t)r->variant / 64 + 1, sizeof *r->reads);
    bool ok = unseen && unseen_fn && r->watched && r->reads;
    if (ok)
        focus_unseen(&r->fc, unseen, unseen_fn);
    for (size_t k = 0; ok && k < r->s.nstats; k++) {
        int32_t id = model_find_query(p, r->s.stats[k].query);
        r->watched[k] = id >= 0 && !unseen[id];
    }
    mem_free(unseen);
    mem_free(unseen_fn);
    return ok ? HON_OK : HON_ERR_MEMORY;
}

/* Starts search r of sessions a and b under options o: the question set, the focus, the
 * vocabulary, the queries asked. *left: how many queries are asked. */
static hon_status start(search *r, hon_vm *a, hon_vm *b, const hon_search_options *o, size_t *left)
{
    *r = (search){ .board = SIZE_MAX, .o = o, .rng = o->seed, .variant = -1 };
    hon_question_set qs = { .cap = SEARCH_CAP, .int_lo = 0, .int_hi = 6 };
    hon_vm *vms[2] = { a, b };
    hon_status st = qs_build(&r->s, vms, 2, &qs);
    if (st == HON_OK)
        st = focus_build(&r->fc, a, b, o->rules, o->nrules);
    if (st == HON_OK)
        st = vocab_read(a, b, &r->fc, &r->vc);
    if (st == HON_OK)
        st = watch_variant(r);
    if (st == HON_ERR_NOT_FOUND)
        session_report(a, E_NONE, "<search>",
                       "the rules declare no terrain, army or 1-square counter to make boards of");
    *left = st == HON_OK ? choose_queries(r) : 0;
    return st;
}

static void finish(search *r)
{
    hon_drop_board(r->s.vm[0]);
    hon_drop_board(r->s.vm[1]);
    sb_free(&r->text);
    vocab_free(&r->vc);
    focus_free(&r->fc);
    mem_free(r->watched);
    mem_free(r->reads);
    qs_free(&r->s);
}

/* Makes boards until one shows a difference or the budget runs out (at once when no query is
 * asked); the difference found shrunk into *wt (true), or false. */
static bool look(search *r, size_t left, witness *wt, hon_status *st)
{
    const hon_search_options *o = r->o;
    int max = o->max_size ? (int)o->max_size : 6;
    r->budget = o->seconds > 0 ? o->seconds : 60;
    if (max > SEARCH_MAX)
        max = SEARCH_MAX;
    clock_gettime(CLOCK_MONOTONIC, &r->t0);
    qs_q q;
    bool hit = false;
    size_t i = 0;
    for (; left && *st == HON_OK && !hit && (!r->max_boards || i < r->max_boards) && !time_is_up(r);
         i++) {
        int w, h;
        size_of(r, i, max, SEARCH_PER_SIZE, &w, &h);
        generate(r, &wt->g, w, h);
        if ((*st = enter(r, &wt->g)) == HON_OK)
            hit = first_difference(r, &q, st);
    }
    r->seconds = seconds_since(&r->t0);
    r->swept = *st == HON_OK && !hit && r->max_boards && i >= r->max_boards && !r->out_of_time;
    if (*st != HON_OK || !hit)
        return false;
    r->found_at = r->boards;
    r->found_w = wt->g.w;
    r->found_h = wt->g.h;
    r->found_after = r->questions;
    wt->n = q.nargs;
    wt->stat = q.stat;
    wt->steps = 0;
    witness_of(r, &wt->g, &q, wt->w);
    *st = shrink(r, &wt->g, wt->stat, wt->w, wt->n, &wt->steps);
    return *st == HON_OK;
}

hon_status hon_diff_search(hon_vm *a, const char *label_a, hon_vm *b, const char *label_b,
                           const hon_search_options *o, FILE *out, bool *found)
{
    if (found)
        *found = false;
    if (!a || !b || !o || !out)
        return HON_ERR_NOT_FOUND;
    search r;
    size_t left;
    hon_status st = start(&r, a, b, o, &left);
    r.label[0] = label_a;
    r.label[1] = label_b;
    int max = o->max_size ? (int)o->max_size : 6;
    if (max > SEARCH_MAX)
        max = SEARCH_MAX;
    strbuf text = { 0 };
    sb_printf(&text, "search %s | %s", label_a, label_b);
    for (size_t i = 0; i < o->nrules; i++)
        sb_printf(&text, "%s%s", i ? ", " : ", rules that differ include ", o->rules[i]);
    sb_printf(&text, ": boards up to %d x %d, seed %llu, %g s\n", max, max,
              (unsigned long long)o->seed, o->seconds > 0 ? o->seconds : 60);
    witness wt;
    bool hit = st == HON_OK && look(&r, left, &wt, &st);
    if (hit) {
        sb_printf(&text, "found on board %zu (%d x %d) after %zu questions, shrunk in %d step%s\n",
                  r.found_at, r.found_w, r.found_h, r.found_after, wt.steps,
                  wt.steps == 1 ? "" : "s");
        st = report(&r, &wt.g, wt.stat, wt.w, wt.n, &text);
    } else if (st == HON_OK) {
        sb_printf(&text,
                  "no difference found up to %d x %d (%zu boards, %zu questions in %.1f s%s)\n",
                  max, max, r.boards, r.questions, r.seconds,
                  left ? "" : ": no query the search asks can answer differently");
    }
    if (st == HON_OK && text.oom)
        st = HON_ERR_MEMORY;
    if (st == HON_OK && fwrite(sb_str(&text), 1, text.len, out) != text.len)
        st = HON_ERR_IO;
    if (found)
        *found = st == HON_OK && hit;
    sb_free(&text);
    finish(&r);
    return st;
}

hon_status search_quiet(hon_vm *a, hon_vm *b, const hon_search_options *o, size_t boards,
                        search_found *res)
{
    *res = (search_found){ 0 };
    search r;
    size_t left;
    hon_status st = start(&r, a, b, o, &left);
    r.max_boards = boards;
    witness wt;
    res->found = st == HON_OK && look(&r, left, &wt, &st);
    res->none_can = st == HON_OK && !left;
    res->swept = st == HON_OK && r.swept;
    res->boards = r.boards;
    res->questions = r.questions;
    res->seconds = r.seconds;
    if (res->found && (st = enter(&r, &wt.g)) == HON_OK) {
        qs_q q = { .stat = wt.stat, .nargs = wt.n };
        call_of(&r, wt.w, &q);
        strbuf call = { 0 };
        put_call(&r, wt.stat, wt.w, wt.n, &call);
        res->call = sb_take(&call);
        for (size_t i = 0; i < 2; i++) {
            qs_ans x;
            if (qs_ask(&r.s, i, &q, &x, true))
                res->answer[i] = mem_strdup(x.text ? x.text : "?");
        }
        res->w = wt.g.w;
        res->h = wt.g.h;
        if (!res->call || !res->answer[0] || !res->answer[1])
            st = HON_ERR_MEMORY;
    }
    finish(&r);
    return st;
}

void search_found_free(search_found *f)
{
    if (!f)
        return;
    mem_free(f->call);
    mem_free(f->answer[0]);
    mem_free(f->answer[1]);
    memset(f, 0, sizeof *f);
}
