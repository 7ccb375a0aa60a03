/* runtime/scenario_place.c — pass 2 of the scenario loader: builds the board once pass 1
 * (scenario.c) has read its size, legend, map and elevation; applies the map, then the lines
 * pass 1 deferred, in this order: elements, then sides, interspaces, squares and what the
 * numbered mine counters are (values kept by board.h's BOARD_AT_NUMBERED), then units
 * (so a unit may stand in an element declared anywhere in the file).
 */
#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "scenario_text.h"

static void end_grids(loader *l)
{
    if (l->have_map && l->map_rows < l->h)
        text_error(l, E_SCN_ROWS, l->map_line, l->map_col, 3,
                   "the map stops at row %d; the board has %d rows", l->map_rows, l->h);
    if (l->have_elev && l->elev_rows < l->h)
        text_error(l, E_SCN_ROWS, l->elev_line, l->elev_col, 9,
                   "the elevation grid stops at row %d; the board has %d rows", l->elev_rows, l->h);
}

/* Names and symbols of the legend's ids on the board; terrain of each map square. */
static void apply_map(loader *l)
{
    for (int c = 0; c < 128; c++) {
        legend_entry *e = &l->legend[c];
        if (!e->set)
            continue;
        char buf[MAX_NAME + 1];
        int n = e->name_len > MAX_NAME ? MAX_NAME : e->name_len;
        memcpy(buf, e->name, (size_t)n);
        buf[n] = '\0';
        if (e->terrain >= 0 && !board_name(l->b, BOARD_TERRAIN, e->terrain))
            if (board_set_name(l->b, BOARD_TERRAIN, e->terrain, buf, (char)c) != GEO_OK)
                text_oom(l);
        for (int k = 0; k < e->nfeat; k++) {
            if (e->feat[k] < 0 || board_name(l->b, BOARD_SQUARE_FEATURE, e->feat[k]))
                continue;
            n = e->fname_len[k] > MAX_NAME ? MAX_NAME : e->fname_len[k];
            memcpy(buf, e->fname[k], (size_t)n);
            buf[n] = '\0';
            if (board_set_name(l->b, BOARD_SQUARE_FEATURE, e->feat[k], buf, 0) != GEO_OK)
                text_oom(l);
        }
    }
    bool reported[128] = { false };
    int n = l->w * l->h;
    for (int sq = 0; sq < n; sq++) {
        unsigned char c = l->cells[sq];
        l->s->symbols[sq] = c ? (char)c : ' ';
        if (!c)
            continue;
        legend_entry *e = c < 128 ? &l->legend[c] : NULL;
        if (!e || !e->set) {
            if (c < 128 && !reported[c]) {
                text_error(l, E_SCN_SYMBOL, l->cell_line[sq], l->cell_col[sq], 1,
                           "unknown map symbol '%c' (not in the legend)", c);
                reported[c] = true;
            } else if (c >= 128 && !reported[0]) {
                text_error(l, E_SCN_SYMBOL, l->cell_line[sq], l->cell_col[sq], 1,
                           "unknown map symbol (byte "
                           "0x%02x; symbols are printable ASCII characters)",
                           c);
                reported[0] = true;
            }
            continue;
        }
        l->terr[sq] = e->terrain;
        for (int k = 0; k < e->nfeat; k++)
            if (e->feat[k] >= 0 &&
                board_put(l->b, BOARD_AT_SQUARE, sq,
                          (board_feature){ .id = e->feat[k], .value = e->fval[k], .facing = -1 }) ==
                    GEO_ENOMEM)
                text_oom(l);
    }
    for (int sq = 0; sq < n; sq++)
        board_set_elevation(l->b, sq, l->elev[sq]);
}

/* Integer vector for collected squares/sides. */
typedef struct ivec {
    int *v;
    size_t n, cap;
} ivec;

static bool ivec_push(loader *l, ivec *a, int x)
{
    if (a->n == a->cap) {
        size_t ncap = a->cap ? a->cap * 2 : 16;
        int *p = mem_realloc(a->v, ncap * sizeof *p);
        if (!p) {
            text_oom(l);
            return false;
        }
        a->v = p;
        a->cap = ncap;
    }
    a->v[a->n++] = x;
    return true;
}

/* Squares from a list of `SQ` and `SQ..SQ` (rectangles) starting at token *i; stops at the
 * first token that is not a coordinate. Returns false after an error. */
static bool parse_squares(loader *l, int line, int *i, ivec *out)
{
    while (*i < l->ntok) {
        int a = text_square(l, line, &l->toks[*i]);
        if (a == -2)
            break;
        if (a < 0)
            return false;
        (*i)++;
        if (*i < l->ntok && text_tok_is(&l->toks[*i], "..")) {
            if (*i + 1 >= l->ntok) {
                text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[*i], "expected a square after '..'");
                return false;
            }
            int b = text_square(l, line, &l->toks[*i + 1]);
            if (b == -2)
                text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[*i + 1],
                               "expected a square after '..'");
            if (b < 0)
                return false;
            *i += 2;
            int ax = a % l->w, ay = a / l->w, bx = b % l->w, by = b / l->w;
            for (int y = ay < by ? ay : by; y <= (ay < by ? by : ay); y++)
                for (int x = ax < bx ? ax : bx; x <= (ax < bx ? bx : ax); x++)
                    if (!ivec_push(l, out, y * l->w + x))
                        return false;
        } else if (!ivec_push(l, out, a))
            return false;
    }
    return true;
}

static int find_element(const loader *l, const tok *t)
{
    for (size_t i = 0; i < l->n_en; i++)
        if (strlen(l->enames[i].name) == (size_t)t->len &&
            memcmp(l->enames[i].name, t->s, (size_t)t->len) == 0)
            return (int)i;
    return -1;
}

/* Items `name[=N]` from token *i up to the end or to one of the words `stops` (NULL-ended);
 * an item without `=N` has the value dflt. */
typedef struct item {
    int id;
    long value;
    int tok; /* the index of its name's token on the line */
} item;

static const char *const NO_STOP[] = { NULL };
static const char *const FACING_STOP[] = { "facing", NULL };
static const char *const ELEMENT_STOPS[] = { "facing", "value", "values", "with", NULL };

static bool stop_word(const tok *t, const char *const *stops)
{
    for (; *stops; stops++)
        if (text_tok_is(t, *stops))
            return true;
    return false;
}

static bool parse_items(loader *l, int line, int *i, board_name_kind k, item *out, int *n, int cap,
                        const char *const *stops, long dflt)
{
    *n = 0;
    bool ok = true;
    while (*i < l->ntok && !stop_word(&l->toks[*i], stops)) {
        const tok *t = &l->toks[*i];
        if (*n == cap) {
            text_tok_error(l, E_SCN_SYNTAX, line, t, "too many items on one line");
            return false;
        }
        item it = { -1, dflt, *i };
        it.id = text_resolve(l, line, k, t);
        (*i)++;
        if (*i < l->ntok && text_tok_is(&l->toks[*i], "=")) {
            if (*i + 1 >= l->ntok) {
                text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[*i], "expected a number after '='");
                return false;
            }
            if (!text_int(l, line, &l->toks[*i + 1], -1000000000L, 1000000000L, &it.value))
                ok = false;
            *i += 2;
        }
        if (it.id < 0)
            ok = false;
        out[(*n)++] = it;
    }
    return ok;
}

/* element NAME = SQUARES [facing DIR] [value N] [values NAME=N...] [with MARKER[=N]...] */
static void do_element(loader *l, const line_ref *lr)
{
    int line = lr->no;
    if (l->ntok < 4 || !text_is_ident(&l->toks[1]) || !text_tok_is(&l->toks[2], "=")) {
        text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[0], "expected 'element NAME = SQUARES'");
        return;
    }
    const tok *nm = &l->toks[1];
    char name[MAX_NAME + 1];
    if (!text_name(l, line, nm, name))
        return;
    int prev = find_element(l, nm);
    if (prev >= 0) {
        text_tok_error(l, E_SCN_DUPLICATE, line, nm,
                       "element '%s' defined twice (first on line %d)", name, l->enames[prev].line);
        return;
    }
    int i = 3;
    ivec sq = { 0 };
    if (!parse_squares(l, line, &i, &sq))
        goto out;
    if (sq.n == 0) {
        text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[3],
                       "expected the element's squares (C2, or C2..E4)");
        goto out;
    }
    int facing = -1;
    long value = BOARD_NO_VALUE;
    item vals[32], marks[32];
    int nvals = 0, nmarks = 0;
    while (i < l->ntok) {
        const tok *t = &l->toks[i];
        bool is_vals = text_tok_is(t, "values");
        if ((is_vals || text_tok_is(t, "with")) && i + 1 < l->ntok) {
            /* named values (value names of .hon) or markers with their counts (1 when no =N) */
            int more = 0;
            i++;
            if (!parse_items(l, line, &i, is_vals ? BOARD_VALUE_NAME : BOARD_MARKER,
                             is_vals ? vals + nvals : marks + nmarks, &more,
                             32 - (is_vals ? nvals : nmarks), ELEMENT_STOPS, is_vals ? 0 : 1))
                goto out;
            for (int k = 0; !is_vals && k < more; k++)
                if (marks[nmarks + k].value < 1) {
                    text_tok_error(l, E_SCN_RANGE, line, t,
                                   "an element carries at least 1 of each marker it names");
                    goto out;
                }
            *(is_vals ? &nvals : &nmarks) += more;
        } else if (text_tok_is(t, "facing") && i + 1 < l->ntok) {
            facing = text_dir(&l->toks[i + 1]);
            if (!text_dir_ok(l->topo, facing)) {
                text_tok_error(l, E_SCN_FACING, line, &l->toks[i + 1],
                               "expected a direction (N, NE, E, SE, S, SW, W, NW), found '%.*s'",
                               l->toks[i + 1].len, l->toks[i + 1].s);
                goto out;
            }
            i += 2;
        } else if (text_tok_is(t, "value") && i + 1 < l->ntok) {
            if (!text_int(l, line, &l->toks[i + 1], -1000000000L, 1000000000L, &value))
                goto out;
            i += 2;
        } else {
            text_tok_error(l, E_SCN_SYNTAX, line, t,
                           "expected a square, 'facing DIR', 'value N', 'values NAME=N...' or "
                           "'with MARKER[=N]...', found '%.*s'",
                           t->len, t->s);
            goto out;
        }
    }
    char sqname[16], sqname2[16];
    int type = l->terr[sq.v[0]];
    for (size_t k = 0; k < sq.n; k++) {
        int q = sq.v[k];
        geo_format_square(board_grid(l->b), q, sqname, sizeof sqname);
        for (size_t j = 0; j < k; j++)
            if (sq.v[j] == q) {
                text_tok_error(l, E_SCN_ELEMENT, line, nm,
                               "square %s is listed twice in element '%s'", sqname, name);
                goto out;
            }
        if (l->explicit_sq[q]) {
            text_tok_error(l, E_SCN_ELEMENT, line, nm,
                           "square %s of element '%s' is already in element '%s'", sqname, name,
                           board_element_name(l->b, board_element_at(l->b, q)));
            goto out;
        }
        if (l->terr[q] < 0) {
            text_tok_error(l, E_SCN_ELEMENT, line, nm,
                           "square %s of element '%s' has no terrain on the map", sqname, name);
            goto out;
        }
        if (l->terr[q] != type) {
            geo_format_square(board_grid(l->b), sq.v[0], sqname2, sizeof sqname2);
            text_tok_error(l, E_SCN_ELEMENT, line, nm,
                           "element '%s' covers %s (%s) and %s (%s): an element has one terrain",
                           name, sqname2, board_name(l->b, BOARD_TERRAIN, type), sqname,
                           board_name(l->b, BOARD_TERRAIN, l->terr[q]));
            goto out;
        }
    }
    int e = board_element_new(l->b, type, name);
    if (e < 0) {
        text_oom(l);
        goto out;
    }
    board_element_set_attr(l->b, e, (int)value, facing);
    for (int k = 0; k < nvals + nmarks; k++) {
        const item *it = k < nvals ? &vals[k] : &marks[k - nvals];
        board_feature f = { it->id, (int)it->value, -1 };
        if (board_put(l->b, k < nvals ? BOARD_AT_ELEMENT_VALUE : BOARD_AT_ELEMENT_MARKER, e, f) !=
            GEO_OK) {
            text_oom(l);
            goto out;
        }
    }
    for (size_t k = 0; k < sq.n; k++) {
        board_element_add(l->b, e, sq.v[k]);
        l->explicit_sq[sq.v[k]] = true;
    }
    if (l->n_en == l->cap_en) {
        size_t ncap = l->cap_en ? l->cap_en * 2 : 8;
        ename *p = mem_realloc(l->enames, ncap * sizeof *p);
        if (!p) {
            text_oom(l);
            goto out;
        }
        l->enames = p;
        l->cap_en = ncap;
    }
    char *copy = mem_malloc(strlen(name) + 1);
    if (!copy) {
        text_oom(l);
        goto out;
    }
    strcpy(copy, name);
    l->enames[l->n_en++] = (ename){ copy, e, line };
out:
    mem_free(sq.v);
}

/* Every map square with terrain outside an explicit element joins the element formed by the
 * squares of the same terrain connected to it through shared sides. */
static void auto_elements(loader *l)
{
    int n = l->w * l->h;
    int *stack = mem_malloc((size_t)n * sizeof *stack);
    if (!stack) {
        text_oom(l);
        return;
    }
    const geo_grid *g = board_grid(l->b);
    for (int sq = 0; sq < n; sq++) {
        int t = l->terr[sq];
        if (t < 0 || board_element_at(l->b, sq) >= 0)
            continue;
        char name[MAX_NAME + 24], at[16];
        geo_format_square(g, sq, at, sizeof at);
        const char *tn = board_name(l->b, BOARD_TERRAIN, t);
        snprintf(name, sizeof name, "%s@%s", tn ? tn : "terrain", at);
        int e = board_element_new(l->b, t, name);
        if (e < 0) {
            text_oom(l);
            break;
        }
        int top = 0;
        stack[top++] = sq;
        board_element_add(l->b, e, sq);
        while (top > 0) {
            int p = stack[--top];
            for (int d = 0; d < GEO_NDIRS; d++) {
                if (g->topo == GEO_SQUARE && (d & 1))
                    continue;
                int q = geo_neighbour(g, p, (geo_dir)d);
                if (q < 0 || l->terr[q] != t || board_element_at(l->b, q) >= 0)
                    continue;
                board_element_add(l->b, e, q);
                stack[top++] = q;
            }
        }
    }
    mem_free(stack);
}

/* One side spec at token *i: SQ/SQ or SQ:DIR. Returns the side, -2 when the tokens do not
 * start a side spec, -1 after an error. */
static int side_spec(loader *l, int line, int *i, bool *was_pair)
{
    const geo_grid *g = board_grid(l->b);
    if (*i + 2 >= l->ntok)
        return -2;
    const tok *ta = &l->toks[*i], *op = &l->toks[*i + 1], *tb = &l->toks[*i + 2];
    if (!text_tok_is(op, "/") && !text_tok_is(op, ":"))
        return -2;
    int a = text_square(l, line, ta);
    if (a == -2)
        return -2;
    if (a < 0)
        return -1;
    if (text_tok_is(op, ":")) {
        int d = text_dir(tb);
        int s = d >= 0 ? geo_side_of(g, a, (geo_dir)d) : -1;
        if (s < 0) {
            text_tok_error(l, E_SCN_SIDE, line, tb,
                           "a square's side is %s, found '%.*s' (obstacles go between two "
                           "squares, never diagonally: BRO.1.3.placement)",
                           g->topo == GEO_HEX ? "N, NE, SE, S, SW or NW" : "N, E, S or W", tb->len,
                           tb->s);
            return -1;
        }
        *i += 3;
        *was_pair = false;
        return s;
    }
    int b = text_square(l, line, tb);
    if (b == -2) {
        text_tok_error(l, E_SCN_SYNTAX, line, tb, "expected a square after '/', found '%.*s'",
                       tb->len, tb->s);
        return -1;
    }
    if (b < 0)
        return -1;
    int s = geo_side_between(g, a, b);
    if (s < 0) {
        int dist = geo_distance(g, a, b);
        text_tok_error(l, E_SCN_SIDE, line, ta,
                       "%.*s and %.*s %s: obstacles and lines go between two squares that "
                       "share a side, never diagonally (BRO.1.3.placement)",
                       ta->len, ta->s, tb->len, tb->s,
                       dist == 1   ? "meet only at a corner"
                       : dist == 0 ? "are the same square"
                                   : "are not next to each other");
        return -1;
    }
    *i += 3;
    *was_pair = true;
    return s;
}

/* Sides from `SPEC`, `SPEC..SPEC` (a straight run along one grid line), `around ELEMENT` (its
 * outline) and `steps` (every side between squares of different elevation). */
static bool parse_sides(loader *l, int line, int *i, ivec *out)
{
    const geo_grid *g = board_grid(l->b);
    while (*i < l->ntok) {
        if (text_tok_is(&l->toks[*i], "around")) {
            if (*i + 1 >= l->ntok) {
                text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[*i],
                               "expected an element name after 'around'");
                return false;
            }
            const tok *nm = &l->toks[*i + 1];
            int k = find_element(l, nm);
            if (k < 0) {
                text_tok_error(l, E_SCN_REFERENCE, line, nm,
                               "unknown element '%.*s' (declare it with 'element %.*s = ...')",
                               nm->len, nm->s, nm->len, nm->s);
                return false;
            }
            /* the element's outline, without the sides along the board's edge */
            int e = l->enames[k].elem;
            size_t n = board_element_outline(l->b, e, NULL, 0);
            size_t base = out->n;
            for (size_t j = 0; j < n; j++)
                if (!ivec_push(l, out, -1))
                    return false;
            board_element_outline(l->b, e, out->v + base, n);
            size_t kept = base;
            for (size_t j = base; j < base + n; j++) {
                int a, c;
                if (geo_side_squares(g, out->v[j], &a, &c) && a >= 0 && c >= 0)
                    out->v[kept++] = out->v[j];
            }
            out->n = kept;
            *i += 2;
            continue;
        }
        if (text_tok_is(&l->toks[*i], "steps")) {
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
        if (s == -2)
            break;
        if (s < 0)
            return false;
        if (*i < l->ntok && text_tok_is(&l->toks[*i], "..")) {
            const tok *dots = &l->toks[*i];
            (*i)++;
            int s2 = side_spec(l, line, i, &pair2);
            if (s2 == -2) {
                text_tok_error(l, E_SCN_SYNTAX, line, dots,
                               "expected a side (C2/C3 or C2:S) after '..'");
                return false;
            }
            if (s2 < 0)
                return false;
            int ax0, ay0, ax1, ay1, bx0, by0, bx1, by1;
            if (g->topo != GEO_SQUARE || !geo_side_ends(g, s, &ax0, &ay0, &ax1, &ay1) ||
                !geo_side_ends(g, s2, &bx0, &by0, &bx1, &by1) ||
                geo_side_horizontal(g, s) != geo_side_horizontal(g, s2) ||
                (geo_side_horizontal(g, s) ? ay0 != by0 : ax0 != bx0)) {
                text_tok_error(
                    l, E_SCN_SIDE, line, &l->toks[start],
                    "a run of sides 'A..B' must lie along one grid "
                    "line (both sides horizontal in the same row gap, or vertical in the same "
                    "column gap)");
                return false;
            }
            bool horiz = geo_side_horizontal(g, s);
            int from = horiz ? (ax0 < bx0 ? ax0 : bx0) : (ay0 < by0 ? ay0 : by0);
            int to = horiz ? (ax0 < bx0 ? bx0 : ax0) : (ay0 < by0 ? by0 : ay0);
            for (int k = from; k <= to; k++) {
                int side = horiz ? ay0 * l->w + k : l->w * (l->h + 1) + k * (l->w + 1) + ax0;
                if (!ivec_push(l, out, side))
                    return false;
            }
        } else if (!ivec_push(l, out, s))
            return false;
    }
    return true;
}

/* side SIDES ITEMS [facing DIR] */
static void do_side(loader *l, const line_ref *lr)
{
    int line = lr->no, i = 1;
    ivec sides = { 0 };
    item items[64];
    int nitems = 0;
    if (!parse_sides(l, line, &i, &sides))
        goto out;
    if (sides.n == 0) {
        const tok *t = l->ntok > 1 ? &l->toks[1] : &l->toks[0];
        text_tok_error(l, E_SCN_SYNTAX, line, t,
                       "expected a side: C2/C3 (between two squares), C2:S (a square and "
                       "a direction), a run C2/C3..F2/F3, or 'around ELEMENT'");
        goto out;
    }
    if (i >= l->ntok || text_tok_is(&l->toks[i], "facing")) {
        const tok *t = &l->toks[i < l->ntok ? i : l->ntok - 1];
        text_tok_error(l, E_SCN_SYNTAX, line, t, "expected a side feature name after the sides");
        goto out;
    }
    if (!parse_items(l, line, &i, BOARD_SIDE_FEATURE, items, &nitems, 64, FACING_STOP, 0))
        goto out;
    int facing = -1;
    const tok *ftok = NULL;
    if (i < l->ntok) {
        if (i + 2 != l->ntok || (facing = text_dir(&l->toks[i + 1])) < 0 ||
            !text_dir_ok(l->topo, facing)) {
            text_tok_error(l, E_SCN_FACING, line, &l->toks[i],
                           "expected 'facing DIR' (N, E, S or W) at the end of the line");
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
            if (a >= 0 && b >= 0 && geo_direction(g, a, b) == facing)
                fsq = b;
            else if (a >= 0 && b >= 0 && geo_direction(g, b, a) == facing)
                fsq = a;
            else if (a < 0 && b >= 0 &&
                     geo_side_of(g, b, (geo_dir)((facing + 4) % 8)) == sides.v[k])
                fsq = b; /* border side facing into the board */
            else if (b < 0 && a >= 0 &&
                     geo_side_of(g, a, (geo_dir)((facing + 4) % 8)) == sides.v[k])
                fsq = a;
            if (fsq < 0) {
                text_tok_error(l, E_SCN_FACING, line, ftok,
                               "'facing %s' does not fit a %s side: a side faces one of "
                               "its two squares",
                               text_dir_name(facing),
                               geo_side_horizontal(g, sides.v[k]) ? "horizontal" : "vertical");
                goto out;
            }
        }
        for (int j = 0; j < nitems; j++) {
            board_feature f = { .id = items[j].id, .value = (int)items[j].value, .facing = fsq };
            if (board_put(l->b, BOARD_AT_SIDE, sides.v[k], f) == GEO_ENOMEM) {
                text_oom(l);
                goto out;
            }
        }
    }
out:
    mem_free(sides.v);
}

/* interspace SQ[:CORNER]... ITEMS   |   square SQUARES ITEMS */
/* An interspace item's value is the number of the counter it stands for (a mine counter: `mine=2`,
 * what `mine_counter 2` says it is): the rules read the sum of the numbers on a square's four
 * corners (item_value_near) and split it into its powers of two, so a number must be one of
 * them, 1 to BOARD_MAX_NUMBER / 2 (`mine=3` would read as counters 1 and 2). A bare item (`mine`,
 * value 0) names no counter and adds nothing to the sum. E315 otherwise. */
static bool counter_number(loader *l, int line, const item *it)
{
    long v = it->value;
    if (v == 0 || (v >= 1 && v < BOARD_MAX_NUMBER && (v & (v - 1)) == 0))
        return true;
    text_tok_error(l, E_SCN_RANGE, line, &l->toks[it->tok],
                   "%s=%ld: an interspace item's value numbers a counter, a power of two (1, 2, 4, "
                   "... %d), so the sum around a square tells its counters apart",
                   board_name(l->b, BOARD_INTERSPACE_ITEM, it->id), v, BOARD_MAX_NUMBER / 2);
    return false;
}

/* The same counter number (of the same item) twice on the corners of one square would add up
 * to another number (two `mine=2` by square B2 read as counter 4): E310 when an interspace
 * meeting one of the squares around interspace `is` (or `is` itself) holds it already. */
static bool number_apart(loader *l, int line, const item *it, int is)
{
    if (it->value == 0) /* a bare item: no number to tell apart */
        return true;
    const geo_grid *g = board_grid(l->b);
    int around[4];
    geo_interspace_squares(g, is, around);
    for (int a = 0; a < 4; a++) {
        if (around[a] < 0)
            continue;
        for (int c = GEO_NE; c <= GEO_NW; c += 2) {
            board_feature fs[64];
            int corner = geo_interspace_of(g, around[a], (geo_dir)c);
            size_t n = board_features(l->b, BOARD_AT_INTERSPACE, corner, fs, 64);
            for (size_t k = 0; k < n && k < 64; k++) {
                if (fs[k].id != it->id || fs[k].value != (int)it->value)
                    continue;
                char sq[16];
                geo_format_square(g, around[a], sq, sizeof sq);
                text_tok_error(l, E_SCN_DUPLICATE, line, &l->toks[it->tok],
                               "%s=%ld is already on a corner of square %s: two counters of one "
                               "number by a square add up to another (give each its own power of "
                               "two)",
                               board_name(l->b, BOARD_INTERSPACE_ITEM, it->id), it->value, sq);
                return false;
            }
        }
    }
    return true;
}

static void do_place(loader *l, const line_ref *lr, bool interspace)
{
    int line = lr->no, i = 1;
    const geo_grid *g = board_grid(l->b);
    ivec at = { 0 };
    item items[64];
    int nitems = 0;
    if (interspace && g->topo != GEO_SQUARE) {
        text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[0], "hex boards have no interspaces");
        goto out;
    }
    if (interspace) {
        while (i < l->ntok) {
            int sq = text_square(l, line, &l->toks[i]);
            if (sq == -2)
                break;
            if (sq < 0)
                goto out;
            int corner = GEO_NW;
            i++;
            if (i < l->ntok && text_tok_is(&l->toks[i], ":")) {
                int d = i + 1 < l->ntok ? text_dir(&l->toks[i + 1]) : -1;
                if (d < 0 || !(d & 1)) {
                    text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[i + 1 < l->ntok ? i + 1 : i],
                                   "an interspace is the NW, NE, SE or SW corner of a square");
                    goto out;
                }
                corner = d;
                i += 2;
            }
            if (!ivec_push(l, &at, geo_interspace_of(g, sq, (geo_dir)corner)))
                goto out;
        }
    } else if (!parse_squares(l, line, &i, &at))
        goto out;
    if (at.n == 0) {
        const tok *t = l->ntok > 1 ? &l->toks[1] : &l->toks[0];
        text_tok_error(l, E_SCN_SYNTAX, line, t,
                       interspace ? "expected an interspace: a square (its NW corner) or "
                                    "SQ:NE, SQ:SE, SQ:SW"
                                  : "expected squares (C2, or C2..E4)");
        goto out;
    }
    if (i >= l->ntok) {
        text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[l->ntok - 1],
                       "expected %s name after the %s",
                       interspace ? "an interspace item" : "a square feature",
                       interspace ? "interspaces" : "squares");
        goto out;
    }
    if (!parse_items(l, line, &i, interspace ? BOARD_INTERSPACE_ITEM : BOARD_SQUARE_FEATURE, items,
                     &nitems, 64, FACING_STOP, 0))
        goto out;
    if (i < l->ntok) {
        text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[i],
                       "'facing' applies to sides and elements only");
        goto out;
    }
    for (int j = 0; interspace && j < nitems; j++)
        if (!counter_number(l, line, &items[j]))
            goto out;
    for (size_t k = 0; k < at.n; k++)
        for (int j = 0; j < nitems; j++) {
            if (interspace && !number_apart(l, line, &items[j], at.v[k]))
                goto out;
            board_feature f = { .id = items[j].id, .value = (int)items[j].value, .facing = -1 };
            if (board_put(l->b, interspace ? BOARD_AT_INTERSPACE : BOARD_AT_SQUARE, at.v[k], f) ==
                GEO_ENOMEM) {
                text_oom(l);
                goto out;
            }
        }
out:
    mem_free(at.v);
}

/* mine_counter N VALUE[=INT]... : what the counter numbered N (`interspace SQ mine=N`) is on
 * this board, as named values of .hon (a name without `=INT` is 1: the counter's kind). */
static void do_mine_counter(loader *l, const line_ref *lr)
{
    int line = lr->no, i = 2;
    long n = 0;
    item vals[32];
    int nvals = 0;
    if (l->ntok < 3) {
        text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[l->ntok - 1],
                       "expected 'mine_counter N NAME[=INT]...'");
        return;
    }
    if (!text_int(l, line, &l->toks[1], 1, BOARD_MAX_NUMBER - 1, &n))
        return;
    if ((n & (n - 1)) != 0) { /* what `interspace SQ mine=N` may name: counter_number */
        text_tok_error(l, E_SCN_RANGE, line, &l->toks[1],
                       "mine counter %ld: a counter's number is a power of two (1, 2, 4, ... %d), "
                       "so the sum around a square tells its counters apart",
                       n, BOARD_MAX_NUMBER / 2);
        return;
    }
    if (board_features(l->b, BOARD_AT_NUMBERED, (int)n, NULL, 0) > 0) {
        text_tok_error(l, E_SCN_DUPLICATE, line, &l->toks[1], "mine counter %ld declared twice", n);
        return;
    }
    if (!parse_items(l, line, &i, BOARD_VALUE_NAME, vals, &nvals, 32, NO_STOP, 1))
        return;
    for (int k = 0; k < nvals; k++) {
        board_feature f = { .id = vals[k].id, .value = (int)vals[k].value, .facing = -1 };
        if (board_put(l->b, BOARD_AT_NUMBERED, (int)n, f) != GEO_OK) {
            text_oom(l);
            return;
        }
    }
}

static bool push_unit(loader *l, scn_unit *u)
{
    scenario *s = l->s;
    if (!MEM_GROW(s->units, s->n_units, s->units_cap)) {
        text_oom(l);
        return false;
    }
    s->units[s->n_units++] = *u;
    if (!scn_unit_index(s, (int)s->n_units - 1)) {
        s->n_units--; /* not kept: the caller frees what u owns */
        text_oom(l);
        return false;
    }
    return true;
}

/* The number (from 1) of a `unit NAME = ...` line of l before line `before` naming the unit
 * `name`: a unit declared there whose line was refused (an error of its own), so that no unit
 * of the scenario has that name; 0 when no earlier line declares it. */
static int unit_line_named(const loader *l, const char *name, int before)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i < l->n_def && l->deferred[i].no < before; i++) {
        const char *p = l->text + l->deferred[i].off, *end = p + l->deferred[i].len;
        while (p < end && text_is_space(*p))
            p++;
        if (end - p < 5 || memcmp(p, "unit", 4) != 0 || !text_is_space(p[4]))
            continue;
        for (p += 4; p < end && text_is_space(*p); p++)
            ;
        if ((size_t)(end - p) >= nl && memcmp(p, name, nl) == 0 &&
            (p + nl == end || text_is_space(p[nl]) || p[nl] == '='))
            return l->deferred[i].no;
    }
    return 0;
}

/* unit NAME = COUNTER ARMY (at SQ [SQ] | in UNIT | off) [face FACE] [with MARKER...]; `off`: in
 * the unit pool, not on the board (a late unit waiting to enter) */
static void do_unit(loader *l, const line_ref *lr)
{
    int line = lr->no;
    const geo_grid *g = board_grid(l->b);
    if (l->ntok < 6 || !text_tok_is(&l->toks[2], "=") ||
        !(text_tok_is(&l->toks[5], "at") || text_tok_is(&l->toks[5], "in") ||
          text_tok_is(&l->toks[5], "off"))) {
        text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[0],
                       "expected 'unit NAME = COUNTER ARMY at SQUARE [SQUARE]', "
                       "'unit NAME = COUNTER ARMY in TRANSPORT' or 'unit NAME = COUNTER ARMY off'");
        return;
    }
    bool off = text_tok_is(&l->toks[5], "off");
    const tok *nm = &l->toks[1];
    char name[MAX_NAME + 1];
    if (!text_name(l, line, nm, name))
        return;
    if (!text_is_ident(nm)) {
        text_tok_error(l, E_SCN_SYNTAX, line, nm,
                       "a unit name is letters, digits and '_', found '%s'", name);
        return;
    }
    int prev = scn_unit_find(l->s, name);
    if (prev >= 0) {
        text_tok_error(l, E_SCN_DUPLICATE, line, nm, "unit '%s' defined twice (first on line %d)",
                       name, l->s->units[prev].line);
        return;
    }
    int counter = text_resolve(l, line, BOARD_COUNTER, &l->toks[3]);
    int army = text_resolve(l, line, BOARD_ARMY, &l->toks[4]);
    int sq[2] = { -1, -1 }, nsq = 0, in = -1, i = 6;
    const tok *in_tok = nm; /* the carrier's name after `in` */
    bool bad = counter < 0 || army < 0;
    if (text_tok_is(&l->toks[5], "at")) {
        while (i < l->ntok && !text_tok_is(&l->toks[i], "with") &&
               !text_tok_is(&l->toks[i], "face")) {
            int q = text_square(l, line, &l->toks[i]);
            if (q == -2) {
                text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[i],
                               "expected a square, 'face' or 'with', found '%.*s'", l->toks[i].len,
                               l->toks[i].s);
                return;
            }
            if (q < 0)
                return;
            if (nsq == 2) {
                text_tok_error(l, E_SCN_UNIT_SQUARES, line, &l->toks[i],
                               "a unit stands on one or two squares");
                return;
            }
            sq[nsq++] = q;
            i++;
        }
        if (nsq == 0) {
            text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[5],
                           "expected the unit's square after 'at'");
            return;
        }
        if (nsq == 2 && geo_side_between(g, sq[0], sq[1]) < 0) {
            text_tok_error(l, E_SCN_UNIT_SQUARES, line, &l->toks[7],
                           "the two squares of unit '%s' (%.*s and %.*s) must share a side", name,
                           l->toks[6].len, l->toks[6].s, l->toks[7].len, l->toks[7].s);
            return;
        }
        if (counter >= 0 && l->r->counter_size) {
            int size = l->r->counter_size(l->r->ud, counter);
            if (size == 2 && nsq == 1) {
                text_tok_error(l, E_SCN_UNIT_SQUARES, line, &l->toks[6],
                               "unit '%s' is a 2-square counter: give both of its "
                               "squares (front then rear), one is missing",
                               name);
                return;
            }
            if (size == 1 && nsq == 2) {
                text_tok_error(l, E_SCN_UNIT_SQUARES, line, &l->toks[7],
                               "unit '%s' is a 1-square counter but two squares are given", name);
                return;
            }
        }
    } else if (!off) {
        if (i >= l->ntok) {
            text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[5],
                           "expected the transport's name after 'in'");
            return;
        }
        const tok *tt = &l->toks[i];
        char tname[MAX_NAME + 1];
        if (!text_name(l, line, tt, tname))
            return;
        in = scn_unit_find(l->s, tname);
        in_tok = tt;
        int declared = in < 0 ? unit_line_named(l, tname, line) : 0;
        if (in < 0 && declared > 0) {
            /* s20 D2: the carrier is declared, but its own line was refused; "unknown" would
             * send the author looking for a missing declaration */
            text_tok_error(l, E_SCN_REFERENCE, line, tt,
                           "unit '%s' cannot start in '%s': '%s' is declared on line %d but was "
                           "not set up (that line has an error of its own)",
                           name, tname, tname, declared);
            return;
        }
        if (in < 0) {
            text_tok_error(l, E_SCN_REFERENCE, line, tt,
                           "unknown transport '%s' (declare a transport before the units "
                           "it carries)",
                           tname);
            return;
        }
        i++;
    }
    int face = -1;
    if (i + 1 < l->ntok && text_tok_is(&l->toks[i], "face")) {
        /* the face the counter shows at the start (a wreck already on the board) */
        face = text_resolve(l, line, BOARD_FACE, &l->toks[i + 1]);
        bad = bad || face < 0;
        i += 2;
    }
    int markers[64], nm_ = 0;
    if (i < l->ntok) {
        if (!text_tok_is(&l->toks[i], "with") || i + 1 >= l->ntok) {
            text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[i],
                           "expected 'face FACE' or 'with MARKER...' after the squares");
            return;
        }
        for (i++; i < l->ntok; i++) {
            if (nm_ == 64) {
                text_tok_error(l, E_SCN_SYNTAX, line, &l->toks[i], "too many markers");
                return;
            }
            int m = text_resolve(l, line, BOARD_MARKER, &l->toks[i]);
            if (m < 0)
                bad = true;
            markers[nm_++] = m;
        }
    }
    if (bad)
        return;
    int id = (int)l->s->n_units;
    if (l->r->new_unit)
        id = l->r->new_unit(l->r->ud, name, counter, army);
    if (id < 0 || id >= BOARD_MAX_UNITS || board_unit_present(l->b, id)) {
        text_tok_error(l, E_SCN_POOL, line, nm, "the unit pool refused unit '%s'%s", name,
                       id >= 0 && id < BOARD_MAX_UNITS ? " (its id is already used)" : "");
        return;
    }
    geo_status st = off       ? GEO_OK
                    : in >= 0 ? board_embark(l->b, id, l->s->units[in].id)
                              : board_place_unit(l->b, id, sq[0], sq[1]);
    if (st == GEO_OK)
        st = board_set_unit_label(l->b, id, name);
    if (st != GEO_OK) {
        if (st == GEO_ENOMEM)
            text_oom(l);
        else if (in >= 0 && !board_unit_present(l->b, l->s->units[in].id))
            /* the carrier was set up `off` (a late unit, a craft waiting to come back): nobody
             * starts aboard a counter that is not on the board */
            text_tok_error(l, E_SCN_REFERENCE, line, in_tok,
                           "unit '%s' cannot start in '%s': '%s' is not on the board (set up "
                           "`off`), and a unit starts aboard a counter on the board only",
                           name, l->s->units[in].name, l->s->units[in].name);
        else if (in >= 0)
            /* the board's own refusal (board_embark: a unit aboard itself or its own rider),
             * not the rules': those are asked once the board is built (E318) */
            text_tok_error(l, E_SCN_REFERENCE, line, in_tok,
                           "unit '%s' cannot start in '%s': the board cannot put it aboard "
                           "(a unit is never aboard itself or its own rider)",
                           name, l->s->units[in].name);
        else
            text_tok_error(l, E_SCN_REFERENCE, line, nm, "unit '%s' cannot be placed", name);
        return;
    }
    scn_unit u = { .id = id,
                   .counter = counter,
                   .army = army,
                   .sq0 = sq[0],
                   .sq1 = sq[1],
                   .in = in,
                   .face = face,
                   .line = line };
    u.name = mem_malloc(strlen(name) + 1);
    if (nm_ > 0)
        u.markers = mem_malloc((size_t)nm_ * sizeof *u.markers);
    if (!u.name || (nm_ > 0 && !u.markers)) {
        mem_free(u.name);
        mem_free(u.markers);
        text_oom(l);
        return;
    }
    strcpy(u.name, name);
    if (nm_ > 0)
        memcpy(u.markers, markers, (size_t)nm_ * sizeof *markers);
    u.n_markers = (size_t)nm_;
    if (!push_unit(l, &u)) {
        mem_free(u.name);
        mem_free(u.markers);
    }
}

void place_board(loader *l)
{
    end_grids(l);
    l->b = l->s->board = board_new(l->topo, l->w, l->h);
    size_t n = (size_t)l->w * (size_t)l->h;
    l->s->symbols = mem_malloc(n + 1);
    if (!l->b || !l->s->symbols) {
        text_oom(l);
        return;
    }
    l->s->symbols[n] = '\0';
    apply_map(l);
    static const char *ORDER[3][4] = { { "element", NULL, NULL, NULL },
                                       { "side", "interspace", "square", "mine_counter" },
                                       { "unit", NULL, NULL, NULL } };
    for (int phase = 0; phase < 3 && !l->oom && !l->stopped; phase++) {
        if (phase == 1)
            auto_elements(l);
        for (size_t k = 0; k < l->n_def && !l->oom && !l->stopped; k++) {
            const line_ref *lr = &l->deferred[k];
            if (!text_tokenize(l, lr) || l->ntok == 0)
                continue;
            const tok *kw = &l->toks[0];
            bool mine = false;
            for (int j = 0; j < 4; j++)
                mine = mine || (ORDER[phase][j] && text_tok_is(kw, ORDER[phase][j]));
            if (!mine)
                continue;
            if (text_tok_is(kw, "element"))
                do_element(l, lr);
            else if (text_tok_is(kw, "side"))
                do_side(l, lr);
            else if (text_tok_is(kw, "interspace"))
                do_place(l, lr, true);
            else if (text_tok_is(kw, "square"))
                do_place(l, lr, false);
            else if (text_tok_is(kw, "mine_counter"))
                do_mine_counter(l, lr);
            else
                do_unit(l, lr);
        }
    }
    /* What each written symbol stands for, once the elements are built: a picture of the board
     * in play draws a square whose terrain has changed since (draw.h, symbol_terrain) by its
     * terrain, not by the symbol. */
    l->s->symbol_terrain = mem_malloc(n * sizeof *l->s->symbol_terrain);
    if (!l->s->symbol_terrain) {
        text_oom(l);
        return;
    }
    for (size_t sq = 0; sq < n; sq++)
        l->s->symbol_terrain[sq] = board_terrain(l->b, (int)sq);
    /* Counter colours follow their army's colour. */
    for (size_t i = 0; i < l->s->n_units && !l->oom; i++) {
        const scn_unit *u = &l->s->units[i];
        if (u->army < 0 || (size_t)u->army >= l->s->n_army_colours || !l->s->army_colours[u->army])
            continue;
        const char *c = l->s->army_colours[u->army];
        tok t = { T_STR, c, (int)strlen(c), 0 };
        text_set_colour(l, &l->s->unit_colours, &l->s->n_unit_colours, u->id, &t);
    }
}
