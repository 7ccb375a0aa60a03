/* runtime/draw_svg.c — the SVG picture of a board (draw.h: draw_svg): layers of squares, sides,
 * corner items, marks, counters, the traced line with its verdict's marks, then every label
 * (the squares' giving way to the line and the counters), the line's dots on counters' squares
 * and the part past its deciding place over them, the captions and a legend of every glyph
 * (docs/spec/board.md §5). Over draw_pic.h's picture, shared with the text picture; the traced
 * line's verdict and the squares' labels are draw_svg_line.c's (draw_svg.h). Output is a
 * pure function of the board and the options.
 */
#include "draw_svg.h"

#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "draw_pic.h"

static const char *const TERRAIN_PALETTE[] = {
    "#e8e2c8", "#9cc48a", "#c9a77c", "#8fb3d9", "#d9c27a", "#b7b7b7",
    "#c3d99a", "#e0b4a4", "#a8c8c0", "#d4c4e0", "#f0d8a8", "#9fb0a0",
};
static const char *const SIDE_PALETTE[] = {
    "#c0392b", "#6d4c2f", "#2c3e50", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#27ae60",
};
/* counters by army id: pale blue, pale red, pale green, pale yellow */
static const char *const ARMY_PALETTE[] = { "#d8e4f4", "#ecc8bc", "#e4ecc8", "#f4e8c0" };
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
/* SVG: where a legend row's entries start, right of its title (the longest, "elevation:") */
#define LEGEND_INDENT 88

/* ---- SVG ---- */

void svg_xml_text(FILE *out, const char *s, size_t max)
{
    size_t n = 0;
    for (; s && *s && n < max; s++, n++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default:
            if ((unsigned char)*s >= 0x20)
                fputc(*s, out);
        }
    }
}

static const char *colour(const char *const *draw_given, size_t n, int id,
                          const char *const *palette, size_t np)
{
    if (draw_given && id >= 0 && (size_t)id < n && draw_given[id])
        return draw_given[id];
    return palette[(size_t)(id < 0 ? 0 : id) % np];
}

/* The army unit u fights for (draw_options.unit_armies), or -1. */
static int army_of(const draw_options *op, int u)
{
    return op->unit_armies && u >= 0 && (size_t)u < op->n_unit_armies ? op->unit_armies[u] : -1;
}

/* The colour of an army's counters: the caller's, else the palette's by army id. */
static const char *army_colour(const draw_options *op, int army)
{
    return colour(op->army_colours, op->n_army_colours, army, ARMY_PALETTE, NELEM(ARMY_PALETTE));
}

/* The colour of unit u's counter: its own (unit_colours), else its army's, else a pale blue. */
static const char *unit_colour(const draw_options *op, int u)
{
    if (op->unit_colours && u >= 0 && (size_t)u < op->n_unit_colours && op->unit_colours[u])
        return op->unit_colours[u];
    int a = army_of(op, u);
    return a >= 0 ? army_colour(op, a) : ARMY_PALETTE[0];
}

/* How many bytes the first n characters of UTF-8 text s take (all of s when it is shorter). */
static size_t utf8_prefix(const char *s, size_t n)
{
    size_t i = 0;
    for (; s[i] && n > 0; n--)
        for (i++; ((unsigned char)s[i] & 0xc0) == 0x80; i++)
            ;
    return i;
}

/* How many characters UTF-8 text s holds. */
static size_t utf8_length(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* Writes a counter's name line: its unit key in bold (the text picture's key, which the legend's
 * units row lists with the full name and square), a space, then the name (label, or "#id" for a
 * unit without one) in what is left of maxc characters: whole when it fits, else its first
 * characters and an ellipsis, so that two names alike at first (company_alpha, company_bravo)
 * never read the same; the key alone when there is no room for a name (issue 12). */
static void counter_name(FILE *out, char key, const char *label, int u, size_t maxc)
{
    char idname[16], k[2] = { key, 0 };
    if (!label) {
        snprintf(idname, sizeof idname, "#%d", u);
        label = idname;
    }
    fputs("<tspan font-weight=\"bold\">", out);
    svg_xml_text(out, k, 1);
    fputs("</tspan>", out);
    size_t room = maxc > 2 ? maxc - 2 : 0, len = utf8_length(label);
    if (room == 0 || (len > room && room < 2))
        return;
    fputc(' ', out);
    if (len <= room) {
        svg_xml_text(out, label, strlen(label));
        return;
    }
    svg_xml_text(out, label, utf8_prefix(label, room - 1));
    fputs("\xe2\x80\xa6", out); /* U+2026 HORIZONTAL ELLIPSIS */
}

/* The counter of unit u, on a picture of c-pixel squares with fs-pixel labels from (L, T):
 * the band between a square's top row of labels (elevation, element face) and its bottom row
 * (terrain symbol, features; p->extra pixels more where the squares grew for stacked feature
 * labels), fs + 2 pixels from either, c/12 from the sides, across both
 * squares of a 2-square unit, shifted 4 pixels for each unit before it on its square. False
 * for a unit that is embarked or not on the board. */
bool svg_counter_box(const picture *p, int c, int fs, int L, int T, int u, counter *k)
{
    const geo_grid *g = p->g;
    int s0, s1;
    if (board_unit_embarked_in(p->b, u) >= 0 || !board_unit_squares(p->b, u, &s0, &s1))
        return false;
    int ax = s0 % g->w, ay = s0 / g->w, bx = ax, by = ay;
    if (s1 >= 0) {
        bx = s1 % g->w;
        by = s1 / g->w;
    }
    int minx = ax < bx ? ax : bx, miny = ay < by ? ay : by;
    int wsq = (ax > bx ? ax - bx : bx - ax) + 1, hsq = (ay > by ? ay - by : by - ay) + 1;
    int at[8], stack = 0;
    size_t n = board_units_at(p->b, s0, at, 8);
    for (size_t j = 0; j < n && j < 8; j++)
        if (at[j] == u)
            stack = (int)j;
    int side = c / 12, pad = fs + 2;
    if (c - 2 * pad < c / 3)
        side = pad = c / 7; /* squares too small for a band: the counter fills the square */
    k->x = L + minx * c + side + stack * 4;
    k->y = T + miny * c + pad + stack * 4;
    k->w = wsq * c - 2 * side;
    k->h = hsq * c - 2 * pad - p->extra;
    return true;
}

/* The legend under the board: rows of 18 pixels, an entry (a sample, then a name in 12-pixel
 * type, about 7 pixels a character) going to the next row when it would pass `right`. With
 * out NULL it only measures: y ends below the last row. */
typedef struct legend {
    FILE *out;
    int x0, x, y, right;
} legend;

/* Starts a row titled `title` ("terrain:"). */
static void legend_row(legend *lg, const char *title)
{
    if (lg->x > lg->x0)
        lg->y += 18;
    lg->x = lg->x0;
    if (lg->out)
        fprintf(lg->out,
                "<text x=\"%d\" y=\"%d\" font-size=\"12\" font-weight=\"bold\">%s</text>\n", lg->x,
                lg->y + 12, title);
    lg->x += LEGEND_INDENT;
}

/* One entry: a sample of shape `kind`, then `name` (NULL: "#id"). Samples: 't' a square of
 * terrain colour `col` with symbol sym (none for 0 or '.'), 'e' a square shaded as elevation
 * `id` with its "+N", 'f' a square's bottom right corner with a square feature's label as the
 * board shows it (the name follows only when the label cuts it), 's' a thick line of colour col, 'i' a dark dot with sym, 'u' a
 * counter of colour col, 'l' a thin line of colour col, 'd' the same dashed, 'o' a small dot
 * of colour col, 'c' a circle of colour col, 'r' a square outlined in col ('q' dashed), 'm'
 * the dark red "[ ] ( )" of a unit's markers and face, 'M' the same in italics (an element's). */
static void legend_entry(legend *lg, char kind, const char *col, char sym, const char *name, int id)
{
    char idname[16];
    if (!name) {
        snprintf(idname, sizeof idname, "#%d", id);
        name = idname;
    }
    size_t len = strlen(name) < 40 ? strlen(name) : 40;
    /* a feature's sample is its label (6 characters); its name follows when longer */
    size_t cut = kind == 'f' ? (len < 6 ? len : 6) : 0;
    int sample = kind == 'f' ? 6 * (int)cut + 12 : kind == 'm' || kind == 'M' ? 40 : 22;
    if (kind == 'f' && len <= 6)
        len = 0;
    int w = sample + 7 * (int)len + (kind == 'f' && len ? 14 : 0) + 12;
    if (lg->x + w > lg->right && lg->x > lg->x0 + LEGEND_INDENT) {
        lg->y += 18;
        lg->x = lg->x0 + LEGEND_INDENT;
    }
    FILE *out = lg->out;
    if (out) {
        int x = lg->x, y = lg->y;
        if (kind == 's' || kind == 'l' || kind == 'd') {
            fprintf(out,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"%s\"%s stroke=\"",
                    x, y + 8, x + 16, y + 8, kind == 's' ? "5" : "2",
                    kind == 'd' ? " stroke-dasharray=\"4 3\"" : "");
            svg_xml_text(out, col, 64);
            fputs("\"/>\n", out);
        } else if (kind == 'b') {
            fprintf(out,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"5\" "
                    "stroke=\"#8a8a8a\"/>\n",
                    x, y + 8, x + 16, y + 8);
            for (int side = -1; side <= 1; side += 2)
                fprintf(out,
                        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"2\" "
                        "stroke=\"%s\"/>\n",
                        x, y + 8 + 6 * side, x + 16, y + 8 + 6 * side, col);
        } else if (kind == 'r' || kind == 'q') {
            fprintf(out,
                    "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"14\" fill=\"none\" "
                    "stroke-width=\"3\"%s stroke=\"%s\"/>\n",
                    x + 1, y + 2, kind == 'q' ? " stroke-dasharray=\"4 2\"" : "", col);
        } else if (kind == 'i') {
            fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"#202020\"/>\n", x + 8, y + 8);
        } else if (kind == 'o' || kind == 'c') {
            fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"%s\" %s=\"%s\"%s/>\n", x + 8, y + 8,
                    kind == 'o' ? "3" : "6", kind == 'o' ? "fill" : "stroke", col,
                    kind == 'c' ? " fill=\"none\" stroke-width=\"2\"" : "");
        } else if (kind == 'e') {
            int a = (id > 0 ? id : -id) * 12;
            fprintf(out,
                    "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"14\" stroke=\"#8a8a8a\" "
                    "fill=\"#ffffff\"/>\n<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"14\" "
                    "fill=\"%s\" fill-opacity=\"0.%02d\"/>\n"
                    "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\" "
                    "fill=\"#3a2a1a\">%s%d</text>\n",
                    x, y + 1, x, y + 1, id > 0 ? "#4a2a0a" : "#0a2a6a", a > 60 ? 60 : a, x + 8,
                    y + 12, id > 0 ? "+" : "", id);
        } else if (kind == 'm' || kind == 'M') {
            fprintf(out,
                    "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#8b0000\"%s>[ ] ( )</text>\n",
                    x, y + 12, kind == 'M' ? " font-style=\"italic\"" : "");
        } else if (kind == 'f') {
            /* the bottom right corner of a square, with the label as the squares write it */
            fprintf(out,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"14\" stroke=\"#8a8a8a\" "
                    "fill=\"" NO_TERRAIN_COLOUR "\"/>\n"
                    "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\" "
                    "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\" "
                    "fill=\"" FEATURE_COLOUR "\">",
                    x, y + 1, 6 * (int)cut + 6, x + 6 * (int)cut + 3, y + 12);
            svg_xml_text(out, name, cut);
            fputs("</text>\n", out);
        } else {
            fprintf(out,
                    "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"14\"%s stroke=\"%s\" "
                    "fill=\"",
                    x, y + 1, kind == 'u' ? " rx=\"3\"" : "", kind == 'u' ? "#111111" : "#8a8a8a");
            svg_xml_text(out, col, 64);
            fputs("\"/>\n", out);
        }
        if (sym && sym != '.' && strchr("tiu", kind)) {
            char sy[2] = { sym, 0 };
            fprintf(out,
                    "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" fill=\"%s\">",
                    x + 8, y + 12, kind == 'i' ? "#ffffff" : "#333333");
            svg_xml_text(out, sy, 1);
            fputs("</text>\n", out);
        }
        if (len > 0) {
            fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s", x + sample, y + 12,
                    kind == 'f' ? "= " : "");
            if (strlen(name) > len) { /* cut: said with an ellipsis */
                svg_xml_text(out, name, utf8_prefix(name, len - 1));
                fputs("\xe2\x80\xa6", out);
            } else {
                svg_xml_text(out, name, len);
            }
            fputs("</text>\n", out);
        }
    }
    lg->x += w;
}

/* Whether square sq is in the part of the board the SVG shows. */
static bool shown_square(const picture *p, int sq)
{
    int x = sq % p->g->w, y = sq / p->g->w;
    return sq >= 0 && sq < geo_square_count(p->g) && x >= p->x0 && x <= p->x1 && y >= p->y0 &&
           y <= p->y1;
}

/* Whether the side or interspace with grid ends (x0, y0)-(x1, y1) (a corner: both the same)
 * lies on the part of the board shown, its edges included. */
static bool shown_grid(const picture *p, int x0, int y0, int x1, int y1)
{
    return x0 >= p->x0 && x1 <= p->x1 + 1 && y0 >= p->y0 && y1 <= p->y1 + 1 && x1 >= p->x0 &&
           x0 <= p->x1 + 1 && y1 >= p->y0 && y0 <= p->y1 + 1;
}

/* Whether side s is on the part of the board shown. */
static bool shown_side(const picture *p, int s)
{
    int x0, y0, x1, y1;
    return geo_side_ends(p->g, s, &x0, &y0, &x1, &y1) &&
           shown_grid(p, x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1, x0 < x1 ? x1 : x0,
                      y0 < y1 ? y1 : y0);
}

/* Whether unit u stands on a square shown (either of a 2-square unit's). */
bool svg_shown_unit(const picture *p, int u)
{
    int s0, s1;
    return board_unit_embarked_in(p->b, u) < 0 && board_unit_squares(p->b, u, &s0, &s1) &&
           (shown_square(p, s0) || (s1 >= 0 && shown_square(p, s1)));
}

/* The dot of square q, crossed by the traced line, when a counter stands on q (false, nothing
 * written, otherwise): the counters on q (their boxes, within q) hide its centre under their
 * names, so the dot stands where a ray from q's centre along the line (from `from` toward `to`;
 * the other way for q = `to`, so that an end's dot stays on the line) leaves them; at q's
 * centre when both ends are q.
 * With out NULL it only says whether q holds a counter shown. */
static bool crossed_dot(const picture *p, int c, int fs, int L, int T, int q, FILE *out)
{
    const geo_grid *g = p->g;
    const geo_trace *tr = p->o->trace;
    int at[8], qx = L + (q % g->w) * c, qy = T + (q / g->w) * c;
    size_t n = board_units_at(p->b, q, at, 8);
    double x0 = qx + c, y0 = qy + c, x1 = qx, y1 = qy;
    bool any = false;
    for (size_t j = 0; j < n && j < 8; j++) {
        counter k;
        if (!svg_shown_unit(p, at[j]) || !svg_counter_box(p, c, fs, L, T, at[j], &k))
            continue;
        any = true;
        x0 = k.x < x0 ? k.x : x0;
        y0 = k.y < y0 ? k.y : y0;
        x1 = k.x + k.w > x1 ? k.x + k.w : x1;
        y1 = k.y + k.h > y1 ? k.y + k.h : y1;
    }
    if (!any || !out)
        return any;
    /* the boxes' union within q, and the ray from q's centre toward the other end */
    x0 = x0 < qx ? qx : x0;
    y0 = y0 < qy ? qy : y0;
    x1 = x1 > qx + c ? qx + c : x1;
    y1 = y1 > qy + c ? qy + c : y1;
    int a = q == tr->to ? tr->to : tr->from, z = q == tr->to ? tr->from : tr->to;
    double cx = qx + c / 2, cy = qy + c / 2;
    double dx = (double)(z % g->w - a % g->w), dy = (double)(z / g->w - a / g->w);
    double t = 0;
    if (dx != 0 || dy != 0) {
        double tx = dx > 0 ? (x1 - cx) / dx : dx < 0 ? (x0 - cx) / dx : 1e9;
        double ty = dy > 0 ? (y1 - cy) / dy : dy < 0 ? (y0 - cy) / dy : 1e9;
        t = tx < ty ? tx : ty;
        t = t < 0 ? 0 : t;
    }
    fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill-opacity=\"0.7\" stroke=\"none\"/>\n",
            (int)(cx + dx * t + 0.5), (int)(cy + dy * t + 0.5));
    return true;
}

/* The ids of the side features (sides true) or interspace items on the part shown, marked in
 * here (BOARD_MAX_ID entries). */
static void shown_features(const picture *p, bool sides, bool *here)
{
    board_feature f[16];
    int count = sides ? geo_side_count(p->g) : geo_interspace_count(p->g);
    for (int i = 0; i < count; i++) {
        int X, Y;
        if (sides ? !shown_side(p, i)
                  : !geo_interspace_xy(p->g, i, &X, &Y) || !shown_grid(p, X, Y, X, Y))
            continue;
        size_t k = board_features(p->b, sides ? BOARD_AT_SIDE : BOARD_AT_INTERSPACE, i, f, 16);
        for (size_t j = 0; j < k && j < 16; j++)
            here[f[j].id] = true;
    }
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Lays out (lg->out NULL) or writes the legend of what picture p shows, each glyph and colour
 * of the board with what it stands for: the terrain under each map symbol (its colour, the
 * symbol, the terrain's name and the features the symbol adds), the elevations (their shading
 * and "+N"), the square features' labels, the side features' lines, the interspace items'
 * dots, the traced line's parts, the armies' colours and the units' counters. */
static void svg_legend(const picture *p, legend *lg)
{
    const draw_options *op = p->o;
    const board *b = p->b;
    const geo_grid *g = p->g;
    int n = geo_square_count(g);
    if (lg->out)
        fputs("<g id=\"legend\">\n", lg->out);
    /* terrain: one entry a symbol the map shows, in the order the squares first show it */
    bool seen[256] = { false }, any = false;
    for (int sq = 0; sq < n; sq++) {
        unsigned char ch = (unsigned char)draw_terrain_char(p, sq);
        if (seen[ch] || ch == ' ' || !shown_square(p, sq))
            continue;
        seen[ch] = true;
        if (!any)
            legend_row(lg, "terrain:");
        any = true;
        int t = board_terrain(b, sq);
        const char *tn = t >= 0 ? board_name(b, BOARD_TERRAIN, t) : "no terrain";
        char name[96];
        int at = snprintf(name, sizeof name, "%s", tn ? tn : "?");
        board_feature f[4];
        size_t nf = op->symbols ? board_features(b, BOARD_AT_SQUARE, sq, f, 4) : 0;
        for (size_t j = 0; j < nf && j < 4 && at > 0 && (size_t)at < sizeof name; j++) {
            const char *fname = board_name(b, BOARD_SQUARE_FEATURE, f[j].id);
            at += snprintf(name + at, sizeof name - (size_t)at, " + %s", fname ? fname : "?");
        }
        legend_entry(lg, 't',
                     t >= 0 ? colour(op->terrain_colours, op->n_terrain_colours, t, TERRAIN_PALETTE,
                                     NELEM(TERRAIN_PALETTE))
                            : NO_TERRAIN_COLOUR,
                     (char)ch, name, 0);
    }
    /* elevation: each level the board has, lowest first */
    int levels[32], nl = 0;
    for (int sq = 0; sq < n && nl < 32; sq++) {
        if (!shown_square(p, sq))
            continue;
        int e = board_elevation(b, sq), j = 0;
        while (j < nl && levels[j] != e)
            j++;
        if (e != 0 && j == nl)
            levels[nl++] = e;
    }
    qsort(levels, (size_t)nl, sizeof *levels, compare_ints);
    for (int j = 0; j < nl; j++) {
        char name[32];
        snprintf(name, sizeof name, "level %d", levels[j]);
        if (j == 0)
            legend_row(lg, "elevation:");
        legend_entry(lg, 'e', NULL, 0, name, levels[j]);
    }
    /* square features, by their labels */
    bool used[BOARD_MAX_ID] = { false };
    for (int sq = 0; sq < n; sq++) {
        if (!shown_square(p, sq))
            continue;
        board_feature f[4];
        size_t nf = board_features(b, BOARD_AT_SQUARE, sq, f, 4);
        for (size_t j = 0; j < nf && j < 4; j++)
            used[f[j].id] = true;
    }
    any = false;
    for (int id = 0; id < BOARD_MAX_ID; id++) {
        if (!used[id])
            continue;
        if (!any)
            legend_row(lg, "features:");
        any = true;
        legend_entry(lg, 'f', NULL, 0, board_name(b, BOARD_SQUARE_FEATURE, id), id);
    }
    const struct {
        const symtab *t;
        board_name_kind k;
        char kind;
        const char *title;
    } rows[] = { { p->side, BOARD_SIDE_FEATURE, 's', "sides:" },
                 { p->item, BOARD_INTERSPACE_ITEM, 'i', "corners:" } };
    for (size_t r = 0; r < NELEM(rows); r++) {
        bool here[BOARD_MAX_ID] = { false };
        shown_features(p, r == 0, here);
        any = false;
        for (int id = 0; id < BOARD_MAX_ID; id++) {
            if (!rows[r].t->used[id] || !here[id])
                continue;
            if (!any)
                legend_row(lg, rows[r].title);
            any = true;
            const char *col = rows[r].kind == 's' ? colour(op->side_colours, op->n_side_colours, id,
                                                           SIDE_PALETTE, NELEM(SIDE_PALETTE))
                                                  : NULL;
            legend_entry(lg, rows[r].kind, col, rows[r].t->sym[id], board_name(b, rows[r].k, id),
                         id);
        }
    }
    const geo_trace *tr = op->trace;
    if (tr && tr->n > 0) {
        char a[16], z[16], name[48];
        geo_format_square(g, tr->from, a, sizeof a);
        geo_format_square(g, tr->to, z, sizeof z);
        snprintf(name, sizeof name, "line %s to %s", a, z);
        legend_row(lg, "line:");
        legend_entry(lg, 'l', LINE_COLOUR, 0, name, 0);
        legend_entry(lg, 'o', LINE_COLOUR, 0, "square crossed", 0);
        if (tr->corners > 0)
            legend_entry(lg, 'c', LINE_COLOUR, 0, "corner touch", 0);
        if (op->decided_at != DRAW_AT_NONE) {
            legend_entry(lg, 'd', PAST_COLOUR, 0, op->past ? op->past : "past it", 0);
            /* the mark as the picture draws it, when its place is shown: a square's outline, or
             * a side between two lines */
            if (op->decided_at == DRAW_AT_SIDE ? shown_side(p, op->decided)
                                               : shown_square(p, op->decided))
                legend_entry(lg, op->decided_at == DRAW_AT_SIDE ? 'b' : 'r', DECIDED_COLOUR, 0,
                             "where decided", 0);
        }
    }
    /* the marked squares (a unit's reach): as the board outlines them (s20 F12: the picture
     * said what they were in its caption only) */
    if (op->marks) {
        bool reached = false, start = false;
        for (int sq = 0; sq < n; sq++)
            if (shown_square(p, sq) && op->marks[sq] != ' ') {
                if (op->marks[sq] == MARK_START)
                    start = true;
                else
                    reached = true;
            }
        if (reached || start)
            legend_row(lg, "reach:");
        if (start)
            legend_entry(lg, 'q', MARK_START_COLOUR, 0, "where it starts (@)", 0);
        if (reached)
            legend_entry(lg, 'r', MARK_COLOUR, 0, "reached (its digit: squares spent)", 0);
    }
    /* the markers and faces the units and elements show, when any does */
    bool unit_states = false, element_states = false;
    for (size_t i = 0; i < p->n_units; i++) {
        int u = p->units[i];
        if (svg_shown_unit(p, u) && (draw_given(op->unit_markers, op->n_unit_markers, u) ||
                                     draw_given(op->unit_faces, op->n_unit_faces, u)))
            unit_states = true;
    }
    for (int sq = 0; sq < n; sq++) {
        int e = shown_square(p, sq) ? board_element_at(b, sq) : -1;
        if (e >= 0 && (draw_given(op->element_faces, op->n_element_faces, e) ||
                       draw_given(op->element_markers, op->n_element_markers, e)))
            element_states = true;
    }
    if (unit_states || element_states)
        legend_row(lg, "markers:");
    if (unit_states)
        legend_entry(lg, 'm', NULL, 0, "a unit's markers (face)", 0);
    if (element_states)
        legend_entry(lg, 'M', NULL, 0, "an element's markers (face)", 0);
    /* armies, then units: the counters shown */
    bool army[BOARD_MAX_ID] = { false };
    for (size_t i = 0; i < p->n_units; i++) {
        int a = army_of(op, p->units[i]);
        if (a >= 0 && a < BOARD_MAX_ID && svg_shown_unit(p, p->units[i]))
            army[a] = true;
    }
    any = false;
    for (int a = 0; a < BOARD_MAX_ID; a++) {
        if (!army[a])
            continue;
        if (!any)
            legend_row(lg, "armies:");
        any = true;
        legend_entry(lg, 'u', army_colour(op, a), 0, board_name(b, BOARD_ARMY, a), a);
    }
    any = false;
    for (size_t i = 0; i < p->n_units; i++) {
        int u = p->units[i];
        if (!svg_shown_unit(p, u))
            continue;
        if (!any)
            legend_row(lg, "units:");
        any = true;
        /* as the text picture's key reads: the counter's key on its swatch, the full name and
         * the squares it stands on */
        char name[96], sq[16];
        const char *label = board_unit_label(b, u);
        int s0, s1,
            at = label ? snprintf(name, sizeof name, "%s", label)
                       : snprintf(name, sizeof name, "#%d", u);
        at = at < (int)sizeof name ? at : (int)sizeof name - 1;
        if (board_unit_squares(b, u, &s0, &s1)) {
            geo_format_square(g, s0, sq, sizeof sq);
            at += snprintf(name + at, sizeof name - (size_t)at, " %s", sq);
            if (s1 >= 0 && at < (int)sizeof name) {
                geo_format_square(g, s1, sq, sizeof sq);
                snprintf(name + at, sizeof name - (size_t)at, " %s", sq);
            }
        }
        legend_entry(lg, 'u', unit_colour(op, u), p->keys[i], name, u);
    }
    if (lg->x > lg->x0)
        lg->y += 18;
    if (lg->out)
        fputs("</g>\n", lg->out);
}
/* Where caption_lines writes: the left edge and the baseline of the first line. */
typedef struct caption {
    FILE *out;
    int x, y;
} caption;

/* Breaks text into lines of at most cols characters at spaces (a longer word is cut) and,
 * when at is not NULL, writes each as an SVG <text> 16 pixels under the one before. Returns
 * how many lines it takes. */
static int caption_lines(const char *text, int cols, caption *at)
{
    int n = 0;
    size_t len = strlen(text);
    if (cols < 10)
        cols = 10;
    for (size_t i = 0; i < len; n++) {
        size_t take = len - i;
        if (take > (size_t)cols) {
            take = (size_t)cols;
            while (take > 0 && text[i + take] != ' ')
                take--;
            if (take == 0)
                take = (size_t)cols;
        }
        if (at) {
            fprintf(at->out, "<text x=\"%d\" y=\"%d\">", at->x, at->y + 16 * n);
            svg_xml_text(at->out, text + i, take);
            fputs("</text>\n", at->out);
        }
        i += take;
        while (i < len && text[i] == ' ')
            i++;
    }
    return n;
}
static void svg_window(picture *p)
{
    const geo_grid *g = p->g;
    const draw_options *op = p->o;
    int n = geo_square_count(g);
    p->x0 = p->y0 = 0;
    p->x1 = g->w - 1;
    p->y1 = g->h - 1;
    if (op->window && op->corner[0] >= 0 && op->corner[0] < n && op->corner[1] >= 0 &&
        op->corner[1] < n) {
        int ax = op->corner[0] % g->w, ay = op->corner[0] / g->w;
        int bx = op->corner[1] % g->w, by = op->corner[1] / g->w;
        p->x0 = ax < bx ? ax : bx;
        p->x1 = ax < bx ? bx : ax;
        p->y0 = ay < by ? ay : by;
        p->y1 = ay < by ? by : ay;
    } else if (op->centred && op->centre >= 0 && op->centre < n) {
        int r = op->around > 0 ? op->around : DRAW_SVG_AROUND;
        int cx = op->centre % g->w, cy = op->centre / g->w;
        p->x0 = cx - r < 0 ? 0 : cx - r;
        p->y0 = cy - r < 0 ? 0 : cy - r;
        p->x1 = cx + r >= g->w ? g->w - 1 : cx + r;
        p->y1 = cy + r >= g->h ? g->h - 1 : cy + r;
    }
}

/* The line under a part of the board: "(squares C2-H6 of A1-L20, around E4)" (around the
 * centre square, when centred), into buf. */
static void window_caption(const picture *p, char *buf, size_t cap)
{
    const geo_grid *g = p->g;
    char a[16], z[16], last[16], centre[16] = "";
    geo_format_xy(p->x0, p->y0, a, sizeof a);
    geo_format_xy(p->x1, p->y1, z, sizeof z);
    geo_format_xy(g->w - 1, g->h - 1, last, sizeof last);
    if (!p->o->window && p->o->centred)
        geo_format_square(g, p->o->centre, centre, sizeof centre);
    snprintf(buf, cap, "(squares %s-%s of A1-%s%s%s)", a, z, last, centre[0] ? ", around " : "",
             centre);
}

/* How many square features the most crowded square shown holds (at most 4, as many as its
 * labels show). */
static int most_features(const picture *p)
{
    int most = 0;
    for (int sq = 0; sq < geo_square_count(p->g); sq++) {
        if (!shown_square(p, sq))
            continue;
        size_t n = board_features(p->b, BOARD_AT_SQUARE, sq, NULL, 0);
        if ((int)n > most)
            most = n > 4 ? 4 : (int)n;
    }
    return most;
}

geo_status draw_svg(const board *b, const draw_options *o, FILE *out)
{
    picture p;
    geo_status st = draw_picture_init(&p, b, o);
    if (st != GEO_OK)
        return st;
    const geo_grid *g = p.g;
    const draw_options *op = p.o;
    int c = op->cell > 0 ? op->cell : 48;
    if (c < 16)
        c = 16;
    if (c > 400)
        c = 400;
    /* labels are sized for the square asked; a square holding several features' labels, which
     * stack up from its bottom edge, grows by a row for each beyond the first, so that none
     * reaches into the counters' band */
    int fs = c / 4 < 9 ? 9 : c / 4;
    svg_window(&p);
    int most = most_features(&p);
    p.extra = most > 1 ? (most - 1) * (fs * 3 / 4 + 3) : 0;
    c += p.extra;
    bool part = p.x0 > 0 || p.y0 > 0 || p.x1 < g->w - 1 || p.y1 < g->h - 1;
    int cols_shown = p.x1 - p.x0 + 1, rows_shown = p.y1 - p.y0 + 1;
    /* the margins (ML, MT), and (L, T) where square A1 would stand: the part shown starts at
     * the margins */
    int ML = 32, MT = op->title ? 48 : 24;
    int L = ML - p.x0 * c, T = MT - p.y0 * c, bottom = MT + rows_shown * c;
    /* what the traced line draws, for the squares' labels to give way to */
    size_t n_strokes = 0;
    stroke *strokes = NULL;
    if (op->trace && op->trace->n > 0) {
        strokes = malloc((2 * op->trace->n + 8) * sizeof *strokes);
        if (!strokes) {
            draw_picture_free(&p);
            return GEO_ENOMEM;
        }
        n_strokes = svg_line_strokes(&p, c, L, T, strokes);
    }
    int W = ML + cols_shown * c + 12;
    if (W < 360)
        W = 360; /* room for the legend's rows */
    /* room for the window's line, the marks' caption and the verdict's lines (12-pixel type,
     * about 7 pixels a character) */
    bool verdict = op->verdict && op->trace && op->trace->n > 0;
    int cols = (W - ML - 8) / 7;
    char window[96];
    window_caption(&p, window, sizeof window);
    int K0 = part ? 24 : 0;
    /* the marks' caption wraps as the verdict does (s20 F12: one line, it ran off the right
     * edge: the reach key is 130 characters, a narrow board's picture 50 wide) */
    int KM = op->marks_key ? 16 * caption_lines(op->marks_key, cols, NULL) + 8 : 0;
    int K = K0 + KM + (verdict ? 16 * caption_lines(op->verdict, cols, NULL) + 8 : 0);
    legend lg = { NULL, ML, ML, bottom + 12 + K + 6, W - 8 };
    svg_legend(&p, &lg);
    int H = lg.y + 6;
    lg = (legend){ out, ML, ML, bottom + 12 + K + 6, W - 8 };
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d "
            "%d\" font-family=\"sans-serif\">\n",
            W, H, W, H);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, H);
    if (op->title) {
        fputs("<title>", out);
        svg_xml_text(out, op->title, 200);
        fputs("</title>\n", out);
        fprintf(out, "<text x=\"%d\" y=\"22\" font-size=\"16\" font-weight=\"bold\">", ML);
        svg_xml_text(out, op->title, 200);
        fputs("</text>\n", out);
    }
    char name[16];
    /* coordinates */
    for (int x = p.x0; x <= p.x1; x++) {
        geo_format_xy(x, 0, name, sizeof name);
        name[strlen(name) - 1] = '\0';
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
                L + x * c + c / 2, MT - 6, name);
    }
    for (int y = p.y0; y <= p.y1; y++)
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">%d</text>\n",
                ML - 6, T + y * c + c / 2 + 4, y + 1);
    /* a part of the board: what stands across its edges (counters, the line) is cut there */
    if (part)
        fprintf(out,
                "<clipPath id=\"part\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
                "</clipPath>\n<g clip-path=\"url(#part)\">\n",
                ML, MT, cols_shown * c, rows_shown * c);
    /* squares: terrain, elevation */
    fputs("<g id=\"squares\" stroke=\"#8a8a8a\" stroke-width=\"0.5\">\n", out);
    for (int sq = 0; sq < geo_square_count(g); sq++) {
        if (!shown_square(&p, sq))
            continue;
        int x = sq % g->w, y = sq / g->w, t = board_terrain(b, sq), e = board_elevation(b, sq);
        const char *fill = t >= 0 ? colour(op->terrain_colours, op->n_terrain_colours, t,
                                           TERRAIN_PALETTE, NELEM(TERRAIN_PALETTE))
                                  : NO_TERRAIN_COLOUR;
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"", L + x * c,
                T + y * c, c, c);
        svg_xml_text(out, fill, 64);
        fputs("\"/>\n", out);
        if (e != 0) {
            int a = (e > 0 ? e : -e) * 12;
            if (a > 60)
                a = 60;
            fprintf(out,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                    "fill-opacity=\"0.%02d\" stroke=\"none\"/>\n",
                    L + x * c, T + y * c, c, c, e > 0 ? "#4a2a0a" : "#0a2a6a", a);
        }
    }
    fputs("</g>\n", out);
    /* the deciding square's outline, under the side features */
    svg_decided_square(&p, c, L, T, out);
    /* side features */
    fputs("<g id=\"sides\" stroke-linecap=\"round\">\n", out);
    for (int s = 0; s < geo_side_count(g); s++) {
        board_feature f[8];
        size_t n = board_features(b, BOARD_AT_SIDE, s, f, 8);
        if (n > 8)
            n = 8;
        int x0, y0, x1, y1;
        if (n == 0 || !shown_side(&p, s) || !geo_side_ends(g, s, &x0, &y0, &x1, &y1))
            continue;
        bool horiz = geo_side_horizontal(g, s);
        for (size_t j = 0; j < n; j++) {
            int off = (int)j * 6 - ((int)n - 1) * 3;
            int dx = horiz ? 0 : off, dy = horiz ? off : 0;
            const char *col = colour(op->side_colours, op->n_side_colours, f[j].id, SIDE_PALETTE,
                                     NELEM(SIDE_PALETTE));
            fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"", L + x0 * c + dx,
                    T + y0 * c + dy, L + x1 * c + dx, T + y1 * c + dy);
            svg_xml_text(out, col, 64);
            fputs("\" stroke-width=\"5\"/>\n", out);
            if (f[j].facing >= 0) {
                int mx = L + (x0 + x1) * c / 2 + dx, my = T + (y0 + y1) * c / 2 + dy;
                int fx = f[j].facing % g->w, fy = f[j].facing / g->w;
                int cx = L + fx * c + c / 2, cy = T + fy * c + c / 2;
                int tx = mx + (cx - mx) / 4, ty = my + (cy - my) / 4;
                fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"", mx, my, tx,
                        ty);
                svg_xml_text(out, col, 64);
                fputs("\" stroke-width=\"3\"/>\n", out);
            }
        }
    }
    fputs("</g>\n", out);
    /* interspace items */
    for (int is = 0; is < geo_interspace_count(g); is++) {
        board_feature f[4];
        size_t n = board_features(b, BOARD_AT_INTERSPACE, is, f, 4);
        if (n == 0)
            continue;
        int X, Y;
        if (!geo_interspace_xy(g, is, &X, &Y) || !shown_grid(&p, X, Y, X, Y))
            continue;
        fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"#202020\"/>\n", L + X * c,
                T + Y * c, c / 7 + 2);
        char sym[2] = { p.item->sym[f[0].id], 0 };
        fprintf(out,
                "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" fill=\"#ffffff\">",
                L + X * c, T + Y * c + fs / 3, fs * 3 / 4 + 1);
        svg_xml_text(out, sym, 1);
        fputs("</text>\n", out);
    }
    /* the marked squares, tinted under the counters and outlined in lime, thick, a thin dark
     * line inside so that the outline shows on light terrain too; the start square `@` outlined
     * dashed and dark (their characters are labels, below). s20 F12: a pale yellow tint with a
     * thin outline, hard to see on the terrain's colours. */
    if (op->marks) {
        fputs("<g id=\"marks\">\n", out);
        for (int q = 0; q < geo_square_count(g); q++) {
            if (op->marks[q] == ' ' || !shown_square(&p, q))
                continue;
            int x = L + (q % g->w) * c, y = T + (q / g->w) * c;
            if (op->marks[q] == MARK_START) {
                fprintf(out,
                        "<rect class=\"start\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                        "fill=\"none\" stroke=\"" MARK_START_COLOUR "\" stroke-width=\"3\" "
                        "stroke-dasharray=\"6 3\"/>\n",
                        x + 2, y + 2, c - 4, c - 4);
                continue;
            }
            fprintf(out,
                    "<rect class=\"reached\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                    "fill=\"" MARK_COLOUR "\" fill-opacity=\"0.2\" stroke=\"" MARK_COLOUR
                    "\" stroke-width=\"4\"/>\n"
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                    "stroke=\"" MARK_EDGE_COLOUR "\" stroke-width=\"1\"/>\n",
                    x + 3, y + 3, c - 6, c - 6, x + 5, y + 5, c - 10, c - 10);
        }
        fputs("</g>\n", out);
    }
    /* units: the counters, in the band between a square's top and bottom rows of labels */
    fputs("<g id=\"units\">\n", out);
    for (size_t i = 0; i < p.n_units; i++) {
        counter k;
        if (!svg_shown_unit(&p, p.units[i]) || !svg_counter_box(&p, c, fs, L, T, p.units[i], &k))
            continue;
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"4\" fill=\"", k.x,
                k.y, k.w, k.h);
        svg_xml_text(out, unit_colour(op, p.units[i]), 64);
        fputs("\" stroke=\"#111111\" stroke-width=\"1.5\"/>\n", out);
    }
    fputs("</g>\n", out);
    /* the traced line, over the counters and under every label */
    const geo_trace *tr = op->trace;
    if (tr && tr->n > 0 && tr->from >= 0 && tr->to >= 0 && tr->from < geo_square_count(g) &&
        tr->to < geo_square_count(g)) {
        fputs("<g id=\"line\" stroke=\"" LINE_COLOUR "\" fill=\"" LINE_COLOUR "\">\n", out);
        int fx = tr->from % g->w, fy = tr->from / g->w, tx = tr->to % g->w, ty = tr->to / g->w;
        int ax = L + fx * c + c / 2, ay = T + fy * c + c / 2, bx = L + tx * c + c / 2,
            by = T + ty * c + c / 2;
        double t = svg_split_at(g, op, fx + 0.5, fy + 0.5, tx + 0.5, ty + 0.5);
        int mx = ax + (int)((bx - ax) * t), my = ay + (int)((by - ay) * t);
        fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"2\"/>\n", ax, ay,
                mx, my);
        /* the part past the deciding place, to the target's centre over its counter; its part
         * short of the counter again over the labels (svg_past_part, below) */
        if (t < 1.0)
            fprintf(out,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"2\" "
                    "stroke-dasharray=\"6 4\" stroke=\"" PAST_COLOUR "\"/>\n",
                    mx, my, bx, by);
        svg_decided_mark(&p, c, L, T, out);
        for (size_t i = 0; i < tr->n; i++) {
            int q = tr->squares[i];
            if (!shown_square(&p, q) || crossed_dot(&p, c, fs, L, T, q, NULL))
                continue; /* a counter's square: its dot goes over the labels (below) */
            fprintf(out,
                    "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill-opacity=\"0.7\" stroke=\"none\"/>\n",
                    L + (q % g->w) * c + c / 2, T + (q / g->w) * c + c / 2);
        }
        for (size_t i = 0; i + 1 < tr->n; i++) {
            int X, Y;
            if (tr->cross[i].corner < 0 || !geo_interspace_xy(g, tr->cross[i].corner, &X, &Y))
                continue;
            fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"none\" stroke-width=\"2\"/>\n",
                    L + X * c, T + Y * c);
        }
        fputs("</g>\n", out);
    }
    /* every label last, haloed in white, so that neither a counter nor the line hides one:
     * each square's elevation (top left) and terrain symbol (bottom left), its features
     * (bottom right), a mark's character (top right), each moved out of the way of the line
     * and the counters (svg_square_labels); an element's face and markers (along the top), then
     * each counter's name and its markers, face and passengers */
    fputs("<g id=\"labels\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">\n", out);
    put_labels pl = { 0 };
    for (int sq = 0; sq < geo_square_count(g); sq++) {
        if (!shown_square(&p, sq))
            continue;
        int e = board_element_at(b, sq);
        bool top_free = e < 0 || (!draw_given(op->element_faces, op->n_element_faces, e) &&
                                  !draw_given(op->element_markers, op->n_element_markers, e));
        svg_square_labels(&p, c, fs, L, T, sq, strokes, n_strokes, most > 1 ? most : 1, top_free,
                          &pl);
    }
    svg_write_labels(&pl, c, out);
    free(pl.v);
    /* element faces, markers and values: along the top of the element's first square shown and
     * the squares of the element shown right of it in its row, right of the elevation's "+N"
     * (fs + 6 pixels from the left edge) when the square has one */
    for (int e = 0; e < board_element_count(b); e++) {
        const char *face = draw_given(op->element_faces, op->n_element_faces, e);
        const char *mk = draw_given(op->element_markers, op->n_element_markers, e);
        char label[256];
        const char *fc = face;
        if (mk) {
            /* the face first (board.md: "an element's face and markers"), so that a label cut
             * to its element's width keeps it: "(rubble) [destruction x3, structure_points=3]" */
            if (face)
                snprintf(label, sizeof label, "(%s) [%s]", face, mk);
            else
                snprintf(label, sizeof label, "[%s]", mk);
            fc = label;
        }
        int sq = 0, n = geo_square_count(g);
        while (fc && sq < n && (board_element_at(b, sq) != e || !shown_square(&p, sq)))
            sq++;
        if (!fc || sq >= n)
            continue;
        int run = 1, left = board_elevation(b, sq) != 0 ? fs + 6 : 3;
        while (sq % g->w + run <= p.x1 && board_element_at(b, sq + run) == e)
            run++;
        fprintf(out,
                "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"#8b0000\" "
                "font-style=\"italic\">",
                L + (sq % g->w) * c + left, T + (sq / g->w) * c + fs * 3 / 4 + 1, fs * 3 / 4 + 1);
        svg_xml_text(out, fc, (size_t)((run * c - left - 3) / (fs * 3 / 8 + 1)));
        fputs("</text>\n", out);
    }
    for (size_t i = 0; i < p.n_units; i++) {
        int u = p.units[i];
        counter k;
        if (!svg_shown_unit(&p, u) || !svg_counter_box(&p, c, fs, L, T, u, &k))
            continue;
        const char *label = board_unit_label(b, u);
        const char *m = draw_given(op->unit_markers, op->n_unit_markers, u);
        const char *fc = draw_given(op->unit_faces, op->n_unit_faces, u);
        size_t carried = p.aboard[u];
        int big = fs * 3 / 4 + 1, small = fs * 3 / 5 + 1;
        bool second = m || fc || carried > 0;
        /* the name and, under it, the small line, centred in the counter together */
        int top = k.y + (k.h - big - (second ? small + 1 : 0)) / 2;
        int base = top + big - 2;
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\">",
                k.x + k.w / 2, base, big);
        /* characters of about 0.55 em, so that the name stays inside its counter (the fresh
         * review of issue 12: 5 pixels a character let `c group_b…` stick out of it) */
        counter_name(out, p.keys[i], label, u, (size_t)(k.w * 20 / (11 * big)));
        fputs("</text>\n", out);
        if (!second)
            continue;
        /* markers, face and passengers in small type, centred on the counter and short of
         * the counters beside it (the counter, its margins and theirs, c/12 each: k.w + c/3
         * pixels), in characters of about 0.55 em (20 / (11 * small) a pixel); a longer line
         * is cut and ends with an ellipsis (the fresh review of issue 12: big_river.scn's
         * `[order_allowance, group_b]` ran over the next square's counter). The legend's
         * units row names every unit; `hon draw` lists the markers whole. */
        size_t room = (size_t)((k.w + 4 * (c / 12)) * 20 / (11 * small));
        char line[512];
        int at = 0;
        if (m)
            at += snprintf(line + at, sizeof line - (size_t)at, "[%s]", m);
        if (fc && at >= 0 && (size_t)at < sizeof line)
            at += snprintf(line + at, sizeof line - (size_t)at, "%s(%s)", m ? " " : "", fc);
        if (carried > 0 && at >= 0 && (size_t)at < sizeof line)
            snprintf(line + at, sizeof line - (size_t)at, "%s+%zu aboard", at ? " " : "", carried);
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" fill=\"%s\">",
                k.x + k.w / 2, base + small + 1, small, m || fc ? "#8b0000" : "#111111");
        if (utf8_length(line) <= room) {
            svg_xml_text(out, line, strlen(line));
        } else if (room > 1) {
            svg_xml_text(out, line, utf8_prefix(line, room - 1));
            fputs("\xe2\x80\xa6", out);
        }
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);
    /* the dots of the traced line's squares that hold a counter, over its name (issue 12: the
     * name's halo hid them), on the line at the counter's edge (crossed_dot) */
    if (tr && tr->n > 0 && tr->from >= 0 && tr->to >= 0 && tr->from < geo_square_count(g) &&
        tr->to < geo_square_count(g)) {
        fputs("<g id=\"crossed\" fill=\"" LINE_COLOUR "\">\n", out);
        for (size_t i = 0; i < tr->n; i++)
            if (shown_square(&p, tr->squares[i]))
                crossed_dot(&p, c, fs, L, T, tr->squares[i], out);
        fputs("</g>\n", out);
        svg_past_part(&p, c, fs, L, T, out);
    }
    if (part) {
        fputs("</g>\n", out); /* the part's clip */
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\">", ML, bottom + 12 + 16);
        svg_xml_text(out, window, sizeof window);
        fputs("</text>\n", out);
    }
    if (op->marks_key) {
        caption at = { out, ML, bottom + 12 + 16 + K0 };
        fputs("<g id=\"marks-key\" font-size=\"12\">\n", out);
        caption_lines(op->marks_key, cols, &at);
        fputs("</g>\n", out);
    }
    if (verdict) {
        caption at = { out, ML, bottom + 12 + 16 + K0 + KM };
        fputs("<g id=\"verdict\" font-size=\"12\" font-weight=\"bold\">\n", out);
        caption_lines(op->verdict, cols, &at);
        fputs("</g>\n", out);
    }
    svg_legend(&p, &lg);
    fputs("</svg>\n", out);
    free(strokes);
    draw_picture_free(&p);
    return ferror(out) ? GEO_EIO : GEO_OK;
}
