/* runtime/draw_svg_line.c — the traced line's verdict in the SVG picture (draw_svg.h):
 * where the part past its deciding place begins, the deciding square's outline or the deciding
 * side's bars, that part drawn over the labels, and the squares' labels placed clear of the
 * line's strokes and of the counters, or left out when they would read as a neighbour's
 * (docs/spec/board.md §5). Split from draw_svg.c, which calls these in its layers. Output is a
 * pure function of the board and the options.
 */
#include <stdlib.h>
#include <string.h>

#include "draw_svg.h"

/* Where along the line from (ax, ay) to (bx, by) (square units, centres) the part past the
 * deciding place begins, from 0 to 1: where the line leaves the deciding square or crosses the
 * deciding side; 1 (no such part) when nothing was decided at a place. */
double svg_split_at(const geo_grid *g, const draw_options *op, double ax, double ay, double bx,
                    double by)
{
    double dx = bx - ax, dy = by - ay, t = 1.0;
    if (op->decided_at == DRAW_AT_SQUARE && op->decided >= 0 && op->decided < geo_square_count(g)) {
        double X = op->decided % g->w, Y = op->decided / g->w;
        double tx = dx > 0 ? (X + 1 - ax) / dx : dx < 0 ? (X - ax) / dx : 1.0;
        double ty = dy > 0 ? (Y + 1 - ay) / dy : dy < 0 ? (Y - ay) / dy : 1.0;
        t = tx < ty ? tx : ty;
    } else if (op->decided_at == DRAW_AT_SIDE) {
        int x0, y0, x1, y1;
        if (!geo_side_ends(g, op->decided, &x0, &y0, &x1, &y1))
            return 1.0;
        if (x0 == x1 && dx != 0)
            t = (x0 - ax) / dx;
        else if (y0 == y1 && dy != 0)
            t = (y0 - ay) / dy;
    }
    return t < 0 ? 0 : t > 1 ? 1 : t;
}

/* How far from the deciding side its two bars run (pixels): clear of the side's features,
 * 5-pixel lines 6 pixels apart around it (draw_svg's sides). */
static int decided_offset(const picture *p)
{
    size_t n = board_features(p->b, BOARD_AT_SIDE, p->o->decided, NULL, 0);
    return 3 * (n > 1 ? (int)(n > 8 ? 8 : n) - 1 : 0) + 6;
}

/* The deciding square outlined in DECIDED_COLOUR, when the picture has a line decided at a
 * square: on its grid lines, so that the outline crosses none of the labels in its corners (the
 * last review of issue 12 found I4's `+1 m mound` all left out under an outline drawn 2 pixels
 * inside), and drawn before the side features, so that a wall or a contour on one of its sides
 * stays visible over it. */
void svg_decided_square(const picture *p, int c, int L, int T, FILE *out)
{
    const geo_grid *g = p->g;
    const draw_options *op = p->o;
    const geo_trace *tr = op->trace;
    if (!tr || tr->n == 0 || tr->from < 0 || tr->to < 0 || tr->from >= geo_square_count(g) ||
        tr->to >= geo_square_count(g))
        return;
    if (op->decided_at == DRAW_AT_SQUARE && op->decided >= 0 && op->decided < geo_square_count(g))
        fprintf(out,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                "stroke=\"" DECIDED_COLOUR "\" stroke-width=\"3\"/>\n",
                L + (op->decided % g->w) * c, T + (op->decided / g->w) * c, c, c);
}

/* The deciding side framed by two lines along it (clear of the side's own features, so that
 * they stay visible), in DECIDED_COLOUR (the deciding square's outline: svg_decided_square). */
void svg_decided_mark(const picture *p, int c, int L, int T, FILE *out)
{
    const geo_grid *g = p->g;
    const draw_options *op = p->o;
    int x0, y0, x1, y1;
    if (op->decided_at == DRAW_AT_SIDE && geo_side_ends(g, op->decided, &x0, &y0, &x1, &y1)) {
        int off = decided_offset(p);
        bool horiz = geo_side_horizontal(g, op->decided);
        for (int side = -1; side <= 1; side += 2) {
            int dx = horiz ? 0 : side * off, dy = horiz ? side * off : 0;
            fprintf(out,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"" DECIDED_COLOUR
                    "\" stroke-width=\"3\"/>\n",
                    L + x0 * c + dx, T + y0 * c + dy, L + x1 * c + dx, T + y1 * c + dy);
        }
    }
}

/* Whether the segment from o to o + d (pixels) meets the box with corners a and z (a below z on
 * both axes), clipped Liang-Barsky style; *enter is then the fraction of the segment, 0 to 1,
 * where it first comes into the box. */
static bool segment_enters(const double o[2], const double d[2], const double a[2],
                           const double z[2], double *enter)
{
    double lo = 0, hi = 1;
    for (int j = 0; j < 2; j++) {
        if (d[j] == 0) {
            if (o[j] < a[j] || o[j] > z[j])
                return false;
            continue;
        }
        double t0 = (a[j] - o[j]) / d[j], t1 = (z[j] - o[j]) / d[j];
        if (t0 > t1) {
            double sw = t0;
            t0 = t1;
            t1 = sw;
        }
        lo = t0 > lo ? t0 : lo;
        hi = t1 < hi ? t1 : hi;
    }
    *enter = lo;
    return lo <= hi;
}

/* The part of the traced line past its deciding place (dashed, PAST_COLOUR), drawn over the
 * labels: it is short (a square or two) and the picture's point, so a square's label or a
 * counter's name must not hide it (the fresh review of issue 12: on hill_contour.scn `$rifle2`
 * to `$pak` it was all under I4's `mound` and pak's name). It stops at the edge of the target's
 * counter, whose name stays readable (the whole part, to the target's centre, is drawn under
 * the labels too), 3 pixels wide on a white halo of 5, so that it reads over a contour's red
 * and the deciding mark; the squares' labels give way to it (svg_square_labels). */
void svg_past_part(const picture *p, int c, int fs, int L, int T, FILE *out)
{
    const geo_grid *g = p->g;
    const geo_trace *tr = p->o->trace;
    int fx = tr->from % g->w, fy = tr->from / g->w, tx = tr->to % g->w, ty = tr->to / g->w;
    double ax = L + fx * c + c / 2, ay = T + fy * c + c / 2, bx = L + tx * c + c / 2,
           by = T + ty * c + c / 2;
    double t = svg_split_at(g, p->o, fx + 0.5, fy + 0.5, tx + 0.5, ty + 0.5);
    int mx = (int)ax + (int)((bx - ax) * t), my = (int)ay + (int)((by - ay) * t);
    fputs("<g id=\"past\">\n", out);
    if (t < 1.0) {
        /* where the segment from (mx, my) to (bx, by) enters a counter on the target's square */
        double enter = 1.0, dx = bx - mx, dy = by - my;
        for (size_t i = 0; i < p->n_units; i++) {
            counter k;
            if (!svg_shown_unit(p, p->units[i]) ||
                !svg_counter_box(p, c, fs, L, T, p->units[i], &k) || bx < k.x || bx > k.x + k.w ||
                by < k.y || by > k.y + k.h)
                continue;
            const double o[2] = { mx, my }, d[2] = { dx, dy }, a[2] = { k.x, k.y },
                         z[2] = { k.x + k.w, k.y + k.h };
            double lo;
            if (segment_enters(o, d, a, z, &lo) && lo < enter)
                enter = lo;
        }
        /* on a white halo, so that it reads over a contour's red and the deciding bars */
        int ex = mx + (int)(dx * enter), ey = my + (int)(dy * enter);
        fprintf(out,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"5\" "
                "stroke=\"#ffffff\"/>\n"
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"3\" "
                "stroke-dasharray=\"6 4\" stroke=\"" PAST_COLOUR "\"/>\n",
                mx, my, ex, ey, mx, my, ex, ey);
    }
    fputs("</g>\n", out);
}

/* ---- labels that give way to the traced line ---- */

/* The traced line's points in pixels: a, the centre of its `from` square; b, of its `to`
 * square; m, where the part past its deciding place begins (b when there is none). False when
 * the picture has no line. */
static bool line_points(const picture *p, int c, int L, int T, double pt[6])
{
    const geo_grid *g = p->g;
    const geo_trace *tr = p->o->trace;
    if (!tr || tr->n == 0 || tr->from < 0 || tr->to < 0 || tr->from >= geo_square_count(g) ||
        tr->to >= geo_square_count(g))
        return false;
    int fx = tr->from % g->w, fy = tr->from / g->w, tx = tr->to % g->w, ty = tr->to / g->w;
    double t = svg_split_at(g, p->o, fx + 0.5, fy + 0.5, tx + 0.5, ty + 0.5);
    pt[0] = L + fx * c + c / 2;
    pt[1] = T + fy * c + c / 2;
    pt[2] = L + tx * c + c / 2;
    pt[3] = T + ty * c + c / 2;
    pt[4] = pt[0] + (int)((pt[2] - pt[0]) * t);
    pt[5] = pt[1] + (int)((pt[3] - pt[1]) * t);
    return true;
}

/* Writes into s (room for 2 * trace.n + 8) the strokes the line's picture draws: its solid
 * part (2 pixels wide), the part past its deciding place (3, on a white halo of 5), the
 * deciding square's outline or the deciding side's two bars (3), its squares' dots (radius 3)
 * and its corner touches' circles (radius 7, 2 wide). Returns how many. */
size_t svg_line_strokes(const picture *p, int c, int L, int T, stroke *s)
{
    const geo_grid *g = p->g;
    const draw_options *op = p->o;
    const geo_trace *tr = op->trace;
    double pt[6];
    size_t n = 0;
    if (!line_points(p, c, L, T, pt))
        return 0;
    s[n++] = (stroke){ pt[0], pt[1], pt[4], pt[5], 1 };
    if (pt[4] != pt[2] || pt[5] != pt[3])
        s[n++] = (stroke){ pt[4], pt[5], pt[2], pt[3], 2.5 };
    int x0, y0, x1, y1;
    if (op->decided_at == DRAW_AT_SQUARE && op->decided >= 0 && op->decided < geo_square_count(g)) {
        /* on the grid line, 1.5 pixels either side of it: a label 3 pixels in from its
         * square's edge, with its halo of 1.5, only touches it (hence 1.4), so that neither the
         * square's own labels nor its neighbours' give way to it */
        double X = L + (op->decided % g->w) * c, Y = T + (op->decided / g->w) * c, w = c;
        s[n++] = (stroke){ X, Y, X + w, Y, 1.4 };
        s[n++] = (stroke){ X, Y + w, X + w, Y + w, 1.4 };
        s[n++] = (stroke){ X, Y, X, Y + w, 1.4 };
        s[n++] = (stroke){ X + w, Y, X + w, Y + w, 1.4 };
    } else if (op->decided_at == DRAW_AT_SIDE &&
               geo_side_ends(g, op->decided, &x0, &y0, &x1, &y1)) {
        int off = decided_offset(p);
        bool horiz = geo_side_horizontal(g, op->decided);
        for (int side = -1; side <= 1; side += 2) {
            int dx = horiz ? 0 : side * off, dy = horiz ? side * off : 0;
            s[n++] =
                (stroke){ L + x0 * c + dx, T + y0 * c + dy, L + x1 * c + dx, T + y1 * c + dy, 1.5 };
        }
    }
    for (size_t i = 0; i < tr->n; i++) {
        int q = tr->squares[i];
        double X = L + (q % g->w) * c + c / 2, Y = T + (q / g->w) * c + c / 2;
        s[n++] = (stroke){ X, Y, X, Y, 3 };
    }
    for (size_t i = 0; i + 1 < tr->n; i++) {
        int X, Y;
        if (tr->cross[i].corner >= 0 && geo_interspace_xy(g, tr->cross[i].corner, &X, &Y))
            s[n++] = (stroke){ L + X * c, T + Y * c, L + X * c, T + Y * c, 8 };
    }
    return n;
}

/* A box of pixels: from (x0, y0) to (x1, y1). */
typedef struct box {
    double x0, y0, x1, y1;
} box;

/* Whether stroke k comes into box b: the segment, widened by k.r, meets it (the segment
 * clipped to b grown by k.r, Liang-Barsky). */
static bool stroke_meets(const stroke *k, box b)
{
    const double o[2] = { k->x0, k->y0 }, d[2] = { k->x1 - k->x0, k->y1 - k->y0 };
    const double a[2] = { b.x0 - k->r, b.y0 - k->r }, z[2] = { b.x1 + k->r, b.y1 + k->r };
    double lo;
    return segment_enters(o, d, a, z, &lo);
}

/* Where a square's label slot is, for a square at (qx, qy) of c pixels with fs-pixel labels:
 * slot 0 the top left corner, 1 the top right, then 2 + 2j and 3 + 2j the left and right ends
 * of the j-th row up from the bottom (rows fs * 3 / 4 + 3 pixels apart). x is the start of a
 * label of size-pixel type (its end for a right slot, *end true) and y its baseline: size
 * pixels down in the top row, so that a small label's descenders stay above the counters. */
static void label_at(int qx, int qy, int c, int fs, int size, int slot, int *x, int *y, bool *end)
{
    *end = slot % 2 == 1;
    *x = *end ? qx + c - 3 : qx + 3;
    *y = slot < 2 ? qy + size : qy + c - 4 - (fs * 3 / 4 + 3) * ((slot - 2) / 2);
}

/* The pixels label l covers at (x, y) (end: x is its right end), with its white halo (1.5
 * pixels) when halo is true: about 0.56 em a character, 0.9 for m, w, M and W, 0.7 for other
 * capitals and 0.3 for narrow letters (sans-serif); from 0.75 em above the baseline to 0.22 em
 * below it when a letter reaches under the line (g, j, p, q, y, a comma), else 0.05 em. */
static box label_box(const sqlabel *l, int x, int y, bool end, bool halo)
{
    double below = strpbrk(l->text, "gjpqy,;_") ? 0.22 : 0.05;
    double w = 0;
    for (const char *s = l->text; *s; s++)
        w += strchr("mwMW", *s)             ? 0.9
             : *s >= 'A' && *s <= 'Z'       ? 0.7
             : strchr("ijlftrI.,:;'|!", *s) ? 0.3
                                            : 0.56;
    w *= l->size;
    box b = { end ? x - w : x, y - 0.75 * l->size, end ? x : x + w, y + below * l->size };
    double h = halo ? 1.5 : 0;
    return (box){ b.x0 - h, b.y0 - h, b.x1 + h, b.y1 + h };
}

static bool boxes_meet(box a, box b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* Whether any of the n strokes s comes into box b. */
static bool crossed(const stroke *s, size_t n, box b)
{
    for (size_t i = 0; i < n; i++)
        if (stroke_meets(&s[i], b))
            return true;
    return false;
}

/* Whether any of the n boxes k meets box b. */
static bool covered(const box *k, size_t n, box b)
{
    for (size_t i = 0; i < n; i++)
        if (boxes_meet(k[i], b))
            return true;
    return false;
}

/* Places the labels of square sq (its elevation, mark, terrain symbol and features, in their
 * corners: board.md §5), each where the line's strokes s[0..n) and the counters on the square
 * leave it clear: in its own place when they do, else in the first free place of the square
 * they leave clear and where it meets no label already placed (the other end of its row, then the top corners, then the bottom
 * rows), else not at all (the legend still names every terrain, feature and level shown).
 * rows: the bottom rows of labels the squares have room for; top_free: whether the square's
 * top row is free for a label that moves (no element's face or markers are written there).
 * Each label placed is added to pl (one that finds no memory is left out). */
void svg_square_labels(const picture *p, int c, int fs, int L, int T, int sq, const stroke *s,
                       size_t n, int rows, bool top_free, put_labels *pl)
{
    const board *b = p->b;
    const draw_options *op = p->o;
    const geo_grid *g = p->g;
    sqlabel lab[7];
    size_t nl = 0;
    int e = board_elevation(b, sq);
    if (e != 0) {
        lab[nl] = (sqlabel){ "", fs, "#3a2a1a", 0 };
        snprintf(lab[nl++].text, sizeof lab[0].text, "%s%d", e > 0 ? "+" : "", e);
    }
    char sym = draw_terrain_char(p, sq);
    if (sym != ' ' && sym != '.')
        lab[nl++] = (sqlabel){ { sym, 0 }, fs, "#555555", 2 };
    board_feature f[4];
    size_t nf = board_features(b, BOARD_AT_SQUARE, sq, f, 4);
    for (size_t j = 0; j < nf && j < 4; j++) {
        const char *name = board_name(b, BOARD_SQUARE_FEATURE, f[j].id);
        lab[nl] = (sqlabel){ "", fs * 3 / 4 + 1, FEATURE_COLOUR, 3 + 2 * (int)j };
        if (name)
            snprintf(lab[nl].text, sizeof lab[0].text, "%.6s", name);
        else
            snprintf(lab[nl].text, sizeof lab[0].text, "#%d", f[j].id);
        nl++;
    }
    if (op->marks && op->marks[sq] != ' ') {
        char m = op->marks[sq] == '<' || op->marks[sq] == '&' ? '?' : op->marks[sq];
        lab[nl++] = (sqlabel){ { m, 0 }, fs, "#603000", 1 };
    }
    /* the counters standing on sq: a 2-square unit's covers the row of labels between its
     * squares, a unit stacked on another reaches 4 pixels further down for each under it */
    box under[8];
    int units[8];
    size_t nu = board_units_at(b, sq, units, 8), nc = 0;
    for (size_t j = 0; j < nu && j < 8; j++) {
        counter k;
        if (svg_shown_unit(p, units[j]) && svg_counter_box(p, c, fs, L, T, units[j], &k))
            under[nc++] = (box){ k.x, k.y, k.x + k.w, k.y + k.h };
    }
    int qx = L + (sq % g->w) * c, qy = T + (sq / g->w) * c, slots = 2 + 2 * rows;
    int at[7];
    bool used[2 + 2 * 4] = { false };
    box placed[7];
    size_t np = 0;
    int x, y;
    bool end;
    /* first every label that nothing crosses in its own place, then the others */
    for (size_t i = 0; i < nl; i++) {
        label_at(qx, qy, c, fs, lab[i].size, lab[i].slot, &x, &y, &end);
        box bx = label_box(&lab[i], x, y, end, true);
        at[i] = crossed(s, n, bx) || covered(under, nc, label_box(&lab[i], x, y, end, false))
                    ? -1
                    : lab[i].slot;
        if (at[i] >= 0) {
            used[at[i]] = true;
            placed[np++] = bx;
        }
    }
    for (size_t i = 0; i < nl; i++) {
        for (int k = -1; at[i] < 0 && k < slots; k++) {
            int slot = k < 0 ? lab[i].slot ^ 1 : k;
            if (slot >= slots || used[slot] || (slot < 2 && !top_free))
                continue;
            label_at(qx, qy, c, fs, lab[i].size, slot, &x, &y, &end);
            box bx = label_box(&lab[i], x, y, end, true);
            bool clear =
                !crossed(s, n, bx) && !covered(under, nc, label_box(&lab[i], x, y, end, false));
            for (size_t j = 0; clear && j < np; j++)
                clear = !boxes_meet(bx, placed[j]);
            if (clear) {
                at[i] = slot;
                used[slot] = true;
                placed[np++] = bx;
            }
        }
    }
    for (size_t i = 0; i < nl; i++) {
        if (at[i] < 0)
            continue;
        if (pl->n == pl->cap) {
            size_t cap = pl->cap ? 2 * pl->cap : 64;
            put_label *v = realloc(pl->v, cap * sizeof *v);
            if (!v)
                return;
            pl->v = v;
            pl->cap = cap;
        }
        label_at(qx, qy, c, fs, lab[i].size, at[i], &x, &y, &end);
        pl->v[pl->n++] = (put_label){ lab[i], sq, x, y, end, at[i] != lab[i].slot };
    }
}

/* The square of the distance in pixels between boxes a and b (0 when they meet). */
static double apart2(box a, box b)
{
    double dx = a.x0 > b.x1 ? a.x0 - b.x1 : b.x0 > a.x1 ? b.x0 - a.x1 : 0;
    double dy = a.y0 > b.y1 ? a.y0 - b.y1 : b.y0 > a.y1 ? b.y0 - a.y1 : 0;
    return dx * dx + dy * dy;
}

/* Writes the squares' labels pl placed (c: a square's pixels), but for a moved label that
 * would read as a neighbour's (board.md §5; the last review of issue 12 found E2's `h` moved
 * beside F2's `h`, H4's `+1` beside I4's `m`): one that stands within a quarter of a square of
 * another square's label and nearer to it than to every label of its own square is left out
 * (the legend still names it). */
void svg_write_labels(const put_labels *pl, int c, FILE *out)
{
    for (size_t i = 0; i < pl->n; i++) {
        const put_label *a = &pl->v[i];
        box ba = label_box(&a->l, a->x, a->y, a->end, false);
        double own = 1e18, other = (c / 4.0) * (c / 4.0);
        for (size_t j = 0; a->moved && j < pl->n; j++) {
            const put_label *b = &pl->v[j];
            double d = j == i ? 1e18 : apart2(ba, label_box(&b->l, b->x, b->y, b->end, false));
            if (b->sq == a->sq && d < own)
                own = d;
            else if (b->sq != a->sq && d < other)
                other = d;
        }
        if (a->moved && other < (c / 4.0) * (c / 4.0) && other < own)
            continue;
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\"%s fill=\"%s\">", a->x, a->y,
                a->l.size, a->end ? " text-anchor=\"end\"" : "", a->l.fill);
        svg_xml_text(out, a->l.text, strlen(a->l.text));
        fputs("</text>\n", out);
    }
}

/* Sets the part of the board the SVG shows (draw_options.window, centred and around) in p:
 * columns x0..x1 and rows y0..y1. */
