/* runtime/draw.h — pictures of a board: text for a terminal and SVG for a browser.
 *
 * Both show terrain, elevation, units, features on square sides and interspaces, and an
 * optional traced line (geo.h) with its corner touches. Symbols and names come from the board
 * (board_set_name) and from the scenario's map symbols; colours, and the names of the markers
 * and faces units and elements show, from the caller (draw knows no rule name) or a fixed
 * palette, so the same board always gives the same bytes. The text layout is documented in
 * docs/spec/board.md and pinned by tests/runtime/test_draw.c. Square boards only.
 */
#ifndef HON_DRAW_H
#define HON_DRAW_H

#include <stddef.h>
#include <stdio.h>

#include "board.h"
#include "geo.h"

/* Where a traced line's verdict was decided (draw_options.decided_at). */
typedef enum draw_at {
    DRAW_AT_NONE,
    DRAW_AT_SQUARE,
    DRAW_AT_SIDE
} draw_at;

/* SVG: the squares each way around a centre square a picture shows by default
 * (draw_options.around). */
#define DRAW_SVG_AROUND 5

typedef struct draw_options {
    /* w*h map symbols, one per square (scenario.symbols), or NULL to use the symbol of each
     * square's terrain (board_symbol), '.' where there is none. */
    const char *symbols;
    /* With symbols: w*h, the terrain id each symbol stood for when it was written
     * (scenario.symbol_terrain; -1 for none), or NULL. A square whose terrain is no longer that
     * one (an element discarded or placed in play: a haystack gone) is drawn, and keyed, by its
     * terrain's symbol instead, and left blank when it is in no element any more. */
    const int *symbol_terrain;
    /* A traced line to draw over the board, or NULL. */
    const geo_trace *trace;
    /* SVG colours ("#c8d8a0", "olive"...) by terrain id and by side-feature id; a NULL array,
     * an id beyond n, or a NULL entry takes the fixed palette. Borrowed. */
    const char *const *terrain_colours;
    size_t n_terrain_colours;
    const char *const *side_colours;
    size_t n_side_colours;
    /* SVG counter colours by unit id, same rules; a unit without one takes its army's colour
     * (below), else a pale blue. */
    const char *const *unit_colours;
    size_t n_unit_colours;
    /* Armies: by unit id the army (the rules' side) a unit fights for (-1 or beyond n: none),
     * and by army id its counters' colour (a NULL array, an id beyond n or a NULL entry takes a
     * fixed palette by army id, so two armies never share one). The SVG legend names each army
     * shown with its colour (board_name BOARD_ARMY). Borrowed. */
    const int *unit_armies;
    size_t n_unit_armies;
    const char *const *army_colours;
    size_t n_army_colours;
    /* What units and terrain elements show besides their names, written by the caller from
     * the rules (C knows no marker or face name). By unit id: its markers as one string (e.g.
     * "suppressed, pinned x2"), and the face it shows when not the default (e.g. "wreck"); by
     * element id: the face it shows when not the default (e.g. "rubble"), and its markers and
     * named values as one string (e.g. "destruction x2, structure_points=4"). A NULL array, an
     * id beyond n, or a NULL or empty entry shows nothing. Borrowed. */
    const char *const *unit_markers;
    size_t n_unit_markers;
    const char *const *unit_faces;
    size_t n_unit_faces;
    const char *const *element_faces;
    size_t n_element_faces;
    const char *const *element_markers;
    size_t n_element_markers;
    /* Squares to mark, e.g. those a unit can reach: w*h characters, ' ' for none, or NULL.
     * Text: the character stands in the square's first column (in place of the traced line's
     * mark); SVG: the square is outlined in lime (MARK_START '@', the start: dashed, dark),
     * the character written in its corner, and the legend gets a row "reach:". Borrowed. */
    const char *marks;
    /* What the marks mean: a last key line (text), a caption under the board wrapped to its
     * width (SVG), or NULL. */
    const char *marks_key;
    /* The traced line's verdict, e.g. a line of sight's answer and the rule that decided it
     * (interp/los.c words it): text: a line after the line's key; SVG: a caption under the
     * board, wrapped to its width. NULL: none. */
    const char *verdict;
    /* Where the verdict was decided on the traced line: a board square (DRAW_AT_SQUARE) or a
     * square side (DRAW_AT_SIDE), index `decided`; DRAW_AT_NONE (zero) for none. SVG: the place
     * is marked in blue (a square outlined, a side between two blue lines), and the line past
     * it (past the point where the line leaves that square or crosses that side) is drawn
     * dashed red, named `past` in the legend ("blocked past C1"; NULL: "past it"). */
    draw_at decided_at;
    int decided;
    const char *past;
    /* Text: the most characters a line of the grid may take (0: no limit). A board wider than
     * that shows the columns that fit (around the centre below, else around the traced line:
     * its middle when it fits, else where its verdict was decided; else from column A) and a
     * line after the grid says which are left out. The lines under the grid are wrapped to
     * it (board.md §5). */
    int columns;
    /* Text: when centred, the window of columns is centred on square `centre`'s column. */
    bool centred;
    int centre;
    /* SVG: the part of the board drawn. With `window`, the rectangle of squares whose opposite
     * corners are squares corner[0] and corner[1]; else, when `centred`, the squares within
     * `around` columns and rows of square `centre` (0: DRAW_SVG_AROUND), cut at the board's
     * edges; else the whole board. A part shows what stands on its squares and on the sides
     * and corners around them (a counter or the line across its edge is cut there), a legend
     * of that alone, and a line under it naming the squares shown ("(squares C1-M11 of A1-AD30,
     * around H6)"). */
    bool window;
    int corner[2];
    int around;
    /* SVG: pixels per square (0 = 48); a board whose squares hold several square features
     * draws them taller and wider by a label row for each feature beyond the first (on the
     * most crowded square shown, up to 4), so that the labels stacked from a square's bottom
     * edge stay clear of the counters. */
    int cell;
    /* SVG: a title shown above the board, or NULL. */
    const char *title;
} draw_options;

/* Writes the board as text to out (layout in docs/spec/board.md: a framed grid, 4 characters
 * per square — trace mark, terrain symbol, elevation, unit key — with side features between
 * squares and interspace items at the corners; then keys for units, terrain, side features,
 * interspace items and the traced line, then the line's verdict). o may be NULL. GEO_ETOPO on hex boards, GEO_EIO when
 * writing fails. */
geo_status draw_text(const board *b, const draw_options *o, FILE *out);

/* Writes the board as a standalone SVG document to out: squares coloured by terrain, elevation
 * as darker shading with its number, element faces as labels, side features as thick lines
 * (a tick toward the square they face), interspace items as dots, units as labelled counters
 * with their markers and face in small type (two-square units span both squares), the traced
 * line centre to centre with its squares dotted and its corner touches circled, the labels over
 * the counters, the verdict's caption and the part of the line past the place that decided it
 * dashed, and a legend of the terrain, side features, interspace items, the line's parts and
 * units shown (docs/spec/board.md). o may be NULL. GEO_ETOPO on hex boards, GEO_EIO when writing fails. */
geo_status draw_svg(const board *b, const draw_options *o, FILE *out);

#endif
