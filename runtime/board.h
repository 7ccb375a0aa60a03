/* runtime/board.h — the board model: squares (or hexes) with elevation and terrain elements,
 * features on squares, square sides and interspaces, and where units stand.
 *
 * The board stores ids only: terrain types, side features (contour lines, walls, barbed wire...),
 * interspace items (mines), square features and markers are declared in .hon and reach the
 * board as small integers, with optional names and one-character symbols for display. Units
 * are referenced by their unit-pool id (runtime/units.h owns kind, side, values). Indexes of
 * squares, sides and interspaces are those of geo.h; scenario.c fills a board, draw.c draws it.
 */
#ifndef HON_BOARD_H
#define HON_BOARD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geo.h"

typedef struct board board;

/* Largest id of a terrain type, feature, marker, counter or army the board accepts, plus one. */
#define BOARD_MAX_ID 4096
/* Largest number of a numbered interspace counter (a mine counter's) plus one. */
#define BOARD_MAX_NUMBER 1024
/* Largest unit id plus one. */
#define BOARD_MAX_UNITS 65536

/* Something placed on a square, a square side or an interspace: a contour line, a wall with
 * a window, a barbed wire token, a mine counter, a road... The meaning of id comes from .hon. */
typedef struct board_feature {
    int id;     /* >= 0 */
    int value;  /* an attribute (embankment height, mine strength, area number); 0 if none */
    int facing; /* a square the feature faces toward (one of a side's two squares), or -1 */
} board_feature;

/* Where a feature sits. BOARD_AT_NUMBERED holds what a scenario declares about its numbered
 * interspace counters (`mine_counter 2 ...`: the index is the number an interspace item
 * carries, 0..BOARD_MAX_NUMBER-1; id: a value name declared in .hon; value: the number). The
 * last two places are kept by each terrain element (the index is
 * the element id): its named values (id: a value name declared in .hon, such as a building's
 * Structure points apart from its Defensive Bonus; value: the number) and its markers (id: a
 * marker id; value: how many, at least 1: taking the last one is board_take). */
typedef enum board_place {
    BOARD_AT_SQUARE = 0,
    BOARD_AT_SIDE,
    BOARD_AT_INTERSPACE,
    BOARD_AT_NUMBERED,
    BOARD_AT_ELEMENT_VALUE,
    BOARD_AT_ELEMENT_MARKER,
    BOARD_NPLACES
} board_place;

/* The id spaces the board keeps display names for. */
typedef enum board_name_kind {
    BOARD_TERRAIN = 0,     /* terrain element types */
    BOARD_SQUARE_FEATURE,  /* features on squares (mound, rail, area arrow...) */
    BOARD_SIDE_FEATURE,    /* features on sides (contour, wall, opening, wire, hedgehog...) */
    BOARD_INTERSPACE_ITEM, /* items on interspaces (mine counters) */
    BOARD_MARKER,          /* unit markers */
    BOARD_COUNTER,         /* counter types of units */
    BOARD_ARMY,            /* sides of the war (allies, axis) */
    BOARD_VALUE_NAME,      /* named values of elements (and units): `value` in .hon */
    BOARD_FACE,            /* faces a counter shows (wreck...) */
    BOARD_NKINDS
} board_name_kind;

/* A new empty board: every square elevation 0, no terrain, nothing placed. topo GEO_SQUARE or
 * GEO_HEX; w and h in 1..GEO_MAX_DIM. Returns NULL when out of range or out of memory. */
board *board_new(geo_topology topo, int w, int h);
/* Frees the board and everything it owns (names, labels); accepts NULL. */
void board_free(board *b);
/* The board's shape (borrowed, valid while b lives). */
const geo_grid *board_grid(const board *b);

/* ---- elevation ---- */
/* Elevation of square sq (an integer level; 0 for a square off the board). */
int board_elevation(const board *b, int sq);
/* Sets the elevation of sq. GEO_ERANGE off the board. */
geo_status board_set_elevation(board *b, int sq, int elevation);

/* ---- terrain elements ---- */
/* A terrain element is an instance covering some squares (one wood, one trench, one hill);
 * its type is a terrain id. A square belongs to at most one element. */

/* Creates an element of terrain type `type` (0..BOARD_MAX_ID-1) named `name` (copied; NULL
 * for none) with no squares. Returns its id (0, 1, 2... in creation order) or -1 (bad type,
 * out of memory). */
int board_element_new(board *b, int type, const char *name);
/* Forgets the element created last, when it has no square, no named value and no marker left
 * (undoing a placed terrain element: interp/play.c); false, and nothing changed, otherwise. */
bool board_element_drop_last(board *b);
/* Puts square sq in element elem (leaving the element it was in), or in none when elem is -1.
 * GEO_ERANGE for a bad square or element. */
geo_status board_element_add(board *b, int elem, int sq);
/* The value of an element whose board gives it none (a `value` left out of its `element` line,
 * an element formed from connected squares): reading it is E215 for the rules (element_value),
 * rather than a Defensive Bonus silently 0 (docs/spec/board.md). */
#define BOARD_NO_VALUE INT_MIN

/* Sets an element's attributes: a value (BOARD_NO_VALUE for none) and a facing direction
 * (GEO_N... or -1), e.g. the direction of a directional defensive bonus icon
 * (BRO.1.1.directional-bonus). */
geo_status board_element_set_attr(board *b, int elem, int value, int facing);
/* The element's value (BOARD_NO_VALUE when none) and facing (-1 when none); false for a bad
 * element. */
bool board_element_attr(const board *b, int elem, int *value, int *facing);
/* The element at sq, or -1. */
int board_element_at(const board *b, int sq);
/* The terrain type at sq (the type of its element), or -1. */
int board_terrain(const board *b, int sq);
/* Number of elements created. */
int board_element_count(const board *b);
/* Type and name of an element (-1 / NULL for a bad id; the name is borrowed). */
int board_element_type(const board *b, int elem);
const char *board_element_name(const board *b, int elem);
/* The element's squares in square order into out; returns the total even when > cap. */
size_t board_element_squares(const board *b, int elem, int *out, size_t cap);
/* True when sq belongs to elem ("inside"; "same element" is board_element_at(a) == (b)). */
bool board_element_contains(const board *b, int elem, int sq);
/* True when sq is a corner square of elem (square boards): it is in the element and has both
 * a horizontal (E or W) and a vertical (N or S) neighbour outside it (or off the board). This
 * is the geometry BRO.1.1.hole.corners needs; whether a corner blocks is decided in .hon. */
bool board_element_corner(const board *b, int elem, int sq);
/* The sides between a square of elem and a square outside it (border sides included), in side
 * order, into out; returns the total even when > cap. (An element's outline: contour lines
 * around a hill, the walls of a trench or a building.) */
size_t board_element_outline(const board *b, int elem, int *out, size_t cap);

/* ---- features on squares, sides and interspaces; values and markers of elements ---- */
/* Each place holds a set of features keyed by id: putting an id already there replaces its
 * value and facing. index is a square, a side or an interspace index (geo.h), or an element
 * id for BOARD_AT_ELEMENT_VALUE and BOARD_AT_ELEMENT_MARKER, a counter number for
 * BOARD_AT_NUMBERED. */

/* Puts f at (where, index). GEO_ERANGE for a bad index or id; GEO_EINVAL for a side feature
 * facing a square that is not one of the side's two squares (or any facing not on the board);
 * GEO_ENOMEM. */
geo_status board_put(board *b, board_place where, int index, board_feature f);
/* Like board_put, but a feature not yet there goes at position pos of the place's list (0
 * first; negative or past the end: last), so undoing a removal restores the order exactly
 * (the effect log of interp/play.c). */
geo_status board_put_at(board *b, board_place where, int index, board_feature f, int pos);
/* Removes feature `id` from (where, index); returns whether it was there. */
bool board_take(board *b, board_place where, int index, int id);
/* Whether feature `id` is at (where, index); copies it to *out when found and out != NULL. */
bool board_has(const board *b, board_place where, int index, int id, board_feature *out);
/* The features at (where, index) in the order they were first put, into out; returns the
 * total even when > cap. */
size_t board_features(const board *b, board_place where, int index, board_feature *out, size_t cap);
/* Shorthand for board_has(b, BOARD_AT_SIDE, side, id, out). */
bool board_side_has(const board *b, int side, int id, board_feature *out);

/* Side features whose presence the board also keeps as one bit per side: ids 0..63. */
#define BOARD_SIDE_BITS 64

/* What a board shows of itself to code that reads it inline (board_side_has_id): the first
 * member of struct board, read-only. The struct's other fields stay private to board.c. */
typedef struct board_view {
    /* per side (geo.h's index): bit id set while side feature id (< BOARD_SIDE_BITS) is on it;
     * board_put and board_take keep it up to date. Owned by the board. */
    const uint64_t *side_bits;
    int n_sides;           /* geo_side_count of the board's grid */
    const int *elem_at;    /* per square: board_element_at, -1 for none */
    const int *terrain_at; /* per square: board_terrain, the type of its element, -1 for none */
    const int *elev_at;    /* per square: board_elevation */
    const int *unit_head;  /* per square: negative while no unit stands there */
} board_view;

/* Whether side feature `id` is on `side`, as board_side_has(b, side, id, NULL), read inline
 * for ids below BOARD_SIDE_BITS (one bit test: the dispatch loop's SIDE_HAS and SIDE_HAS_K ask
 * it at every side a line crosses), through board_side_has above. side must be a side of the
 * board (0 <= side < geo_side_count); any id is accepted (a negative one is never there). */
static inline bool board_side_has_id(const board *b, int side, int id)
{
    if ((unsigned)id < BOARD_SIDE_BITS)
        return (((const board_view *)(const void *)b)->side_bits[side] >> id) & 1;
    return board_side_has(b, side, id, NULL);
}

/* board_element_at, board_terrain and board_elevation read inline, for a square of the board
 * (0 <= sq < w*h): the dispatch loop's IN_ELEMENT, TERRAIN and ELEVATION ask them at every
 * square a line crosses. */
static inline int board_element_at_sq(const board *b, int sq)
{
    return ((const board_view *)(const void *)b)->elem_at[sq];
}
static inline int board_terrain_at_sq(const board *b, int sq)
{
    return ((const board_view *)(const void *)b)->terrain_at[sq];
}
static inline int board_elevation_at_sq(const board *b, int sq)
{
    return ((const board_view *)(const void *)b)->elev_at[sq];
}

/* Whether no unit stands on square sq of the board (0 <= sq < w*h): board_units_at would
 * answer none. Inline: the dispatch loop's UNITS_AT asks it at squares a line crosses. */
static inline bool board_no_unit_at_sq(const board *b, int sq)
{
    return ((const board_view *)(const void *)b)->unit_head[sq] < 0;
}

/* board_side_has_id for any side number: 1 or 0, or -1 when side is not a side of the board
 * (the caller reports its own error). */
static inline int board_side_test(const board *b, int64_t side, int id)
{
    const board_view *v = (const board_view *)(const void *)b;
    if ((uint64_t)side >= (uint64_t)v->n_sides)
        return -1;
    return board_side_has_id(b, (int)side, id);
}

/* What board_side_runs returns when the runs could not be computed (out of memory). */
#define BOARD_NOMEM ((size_t)-1)

/* The runs of side feature id touching sides[0..n): a run is a set of sides carrying id joined
 * end to end (geo_sides_meeting), followed as far as it goes (a connected component). Writes
 * into out the whole run of each side of `sides` that carries id, each run once: runs in the
 * order their first side appears in `sides`, a run's sides breadth-first from its
 * lowest-numbered side. Sides without id, or not sides of the board, add nothing. Returns the
 * total even when > cap, or BOARD_NOMEM. The runs of one id are kept (computed in time linear
 * in the board's sides) until a side feature is put or taken, so a call costs the size of its
 * answer. This is the geometry of a red contour line (BRO.1.1.contour.range); which feature
 * makes one is the rules' choice. */
size_t board_side_runs(const board *b, int id, const int *sides, size_t n, int *out, size_t cap);

/* What board_side_run returns when the runs could not be computed (out of memory). */
#define BOARD_RUN_NOMEM (-2)

/* The run of side feature id (as board_side_runs finds them, kept until a side feature is put or
 * taken) that `side` belongs to: a number from 0, the same for two sides exactly when they are
 * in one run; -1 when side does not carry id or is no side of the board, BOARD_RUN_NOMEM when
 * the runs could not be computed. A call costs one lookup once the runs are kept, so whether
 * two sides lie on one red contour line is asked without listing the line. */
int board_side_run(const board *b, int id, int side);

/* ---- units ---- */
/* A unit (by unit-pool id, 0..BOARD_MAX_UNITS-1) stands on one square, or on two squares that
 * share a side (a 2-square counter: sq0 is its front, sq1 its rear), or is embarked in another
 * unit (a transport), or is not on the board. */

/* Places unit on sq0 (and sq1, or -1 for one square), taking it off wherever it was (its
 * embarkation ends). GEO_ERANGE for a bad unit or square, GEO_EINVAL when sq1 does not share a
 * side with sq0, GEO_ENOMEM. Several units may share a square: stacking is a rules question. */
geo_status board_place_unit(board *b, int unit, int sq0, int sq1);
/* Like board_place_unit, but the unit goes at position pos0 of sq0's list of units and pos1 of
 * sq1's (0 first; negative or past the end: last), so undoing a move restores the order of the
 * units on a square exactly (the effect log of interp/play.c). */
geo_status board_place_unit_at(board *b, int unit, int sq0, int sq1, int pos0, int pos1);
/* Embarks unit in transport: the unit leaves its squares and is carried. GEO_ERANGE for bad
 * ids, GEO_EINVAL when transport is the unit itself, is not on the board, or is (transitively)
 * embarked in unit. */
geo_status board_embark(board *b, int unit, int transport);
/* Like board_embark, but transport may be off the board: the state of the passengers of a
 * destroyed transport (board_remove_unit keeps them embarked), which undoing a passenger's
 * later disembark, move or destruction must restore. GEO_ERANGE for bad ids, GEO_EINVAL when
 * transport is the unit itself or (transitively) embarked in unit, GEO_ENOMEM. The effect log
 * of interp/play.c needs it to undo. */
geo_status board_restore_embarked(board *b, int unit, int transport);
/* Takes unit off the board (and out of any transport). Units embarked in it stay embarked. */
void board_remove_unit(board *b, int unit);
/* Whether unit is on the board (placed or embarked). */
bool board_unit_present(const board *b, int unit);
/* The squares the unit occupies: its own, or for an embarked unit its transport's (followed
 * through nested transports; HH.transport.los draws LoS from them). *sq1 is -1 for one
 * square. False (both -1) when the unit is not on the board. */
bool board_unit_squares(const board *b, int unit, int *sq0, int *sq1);
/* The transport unit is embarked in, or -1. */
int board_unit_embarked_in(const board *b, int unit);
/* Direction from a 2-square unit's front square to its rear square (GEO_N...), or -1. */
int board_unit_orientation(const board *b, int unit);
/* Units placed (not embarked) on sq, in placement order, into out; total even when > cap. */
size_t board_units_at(const board *b, int sq, int *out, size_t cap);
/* Units embarked directly in transport, in id order; total even when > cap. Read from the
 * transport's own list of passengers: the time is in the passengers, not the board's units. */
size_t board_units_in(const board *b, int transport, int *out, size_t cap);
/* Every unit on the board (placed or embarked), in id order; total even when > cap. */
size_t board_units(const board *b, int *out, size_t cap);

/* ---- display names ---- */
/* Sets the display name (copied) and one-character symbol (0 for none) of id in kind k.
 * GEO_ERANGE for a bad id, GEO_ENOMEM. */
geo_status board_set_name(board *b, board_name_kind k, int id, const char *name, char symbol);
/* The name (borrowed) or NULL, and the symbol or 0, of id in kind k. */
const char *board_name(const board *b, board_name_kind k, int id);
char board_symbol(const board *b, board_name_kind k, int id);
/* Sets / reads a unit's display label (copied / borrowed; NULL when none). */
geo_status board_set_unit_label(board *b, int unit, const char *label);
const char *board_unit_label(const board *b, int unit);

#endif
