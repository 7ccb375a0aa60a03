/* runtime/draw_svg.h — what the two files of the SVG picture share (draw.h: draw_svg):
 * draw_svg.c lays out the picture, its layers, captions and legend; draw_svg_line.c draws the
 * traced line's verdict (where the part past its deciding place begins, the deciding square's
 * outline or side's bars, that part itself) and places the squares' labels clear of the line
 * and the counters. Private to runtime/draw_svg*.c, over draw_pic.h's picture.
 */
#ifndef HON_DRAW_SVG_H
#define HON_DRAW_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "draw.h"
#include "draw_pic.h"

/* SVG: the traced line, the part of it past the place that decided its verdict, and the mark
 * on that place. Each is far (CIE76 colour difference 30 or more) from the others and from every
 * colour the bundled rules give terrain, side features and armies, and from draw_svg.c's palettes:
 * the mark on a side must not read as a red contour line (test legend_colours_apart). */
#define LINE_COLOUR    "#e000c0"
#define PAST_COLOUR    "#ff0000"
#define DECIDED_COLOUR "#0000ff"
/* The marked squares (draw_options.marks: a unit's reach): lime outlines, a thin dark green line
 * inside them; the start square, marked MARK_START, outlined dashed in near black. */
#define MARK_COLOUR       "#00ff00"
#define MARK_EDGE_COLOUR  "#006400"
#define MARK_START_COLOUR "#111111"
#define MARK_START        '@'
/* SVG: square features' labels, and the fill of a square without terrain */
#define FEATURE_COLOUR    "#7a4a00"
#define NO_TERRAIN_COLOUR "#f7f4ea"

/* Where a unit's counter stands in the SVG (pixels). */
typedef struct counter {
    int x, y, w, h;
} counter;

/* A stroke of the traced line's picture that the squares' labels keep clear of (the fresh
 * review of issue 12: on hill_contour.scn `$rifle2` to `$pak`, I4's `mound` hid the part past
 * the deciding side and the blue bars ran through it and I5's `+1`): the segment from (x0, y0)
 * to (x1, y1), a point for a dot or a circle, and r, the pixels it covers either side. */
typedef struct stroke {
    double x0, y0, x1, y1, r;
} stroke;

/* A label of a square: its text (at most 6 bytes of a name, like the text picture's), type
 * size, colour, and the place it is written in when nothing is in the way (label_at). */
typedef struct sqlabel {
    char text[16];
    int size;
    const char *fill;
    int slot;
} sqlabel;

/* A square's label where svg_square_labels put it (moved: not in its own place), for svg_write_labels. */
typedef struct put_label {
    sqlabel l;
    int sq, x, y;
    bool end, moved;
} put_label;

typedef struct put_labels {
    put_label *v;
    size_t n, cap;
} put_labels;

/* ---- draw_svg.c ---- */

/* Writes at most max bytes of s (NULL: nothing) to out as XML text: the five special characters
 * escaped, control characters left out. */
void svg_xml_text(FILE *out, const char *s, size_t max);
/* The counter of unit u in the picture of c-pixel squares with fs-pixel labels from (L, T),
 * pixels, into *k; false for a unit embarked or off the board (draw_svg.c says where). */
bool svg_counter_box(const picture *p, int c, int fs, int L, int T, int u, counter *k);
/* Whether unit u stands on a square of the part of the board shown. */
bool svg_shown_unit(const picture *p, int u);

/* ---- draw_svg_line.c ---- */

/* Where along the line from (ax, ay) to (bx, by) (square units, centres) the part past the
 * deciding place begins, from 0 to 1 (1: nothing was decided at a place). */
double svg_split_at(const geo_grid *g, const draw_options *op, double ax, double ay, double bx,
                    double by);
/* The deciding square's outline (DECIDED_COLOUR) on its grid lines, when the line was decided
 * at a square; c: a square's pixels, (L, T) the board's top left corner. */
void svg_decided_square(const picture *p, int c, int L, int T, FILE *out);
/* The deciding side's two bars (DECIDED_COLOUR), when the line was decided at a side. */
void svg_decided_mark(const picture *p, int c, int L, int T, FILE *out);
/* The part of the line past its deciding place (PAST_COLOUR, dashed), drawn over the labels and
 * stopping at the edge of the target's counter (fs: the labels' type size). */
void svg_past_part(const picture *p, int c, int fs, int L, int T, FILE *out);
/* Writes into s (room for 2 * trace.n + 8) the strokes the line's picture draws; returns how
 * many (0 without a line). */
size_t svg_line_strokes(const picture *p, int c, int L, int T, stroke *s);
/* Places square sq's labels clear of the strokes s[0..n) and of its counters (rows: the bottom
 * rows of labels there is room for; top_free: the top row may take a moved label), adding each
 * placed to pl (grown with realloc; the caller frees pl->v). */
void svg_square_labels(const picture *p, int c, int fs, int L, int T, int sq, const stroke *s,
                       size_t n, int rows, bool top_free, put_labels *pl);
/* Writes the labels pl placed, but a moved one that would read as a neighbour's. */
void svg_write_labels(const put_labels *pl, int c, FILE *out);

#endif
