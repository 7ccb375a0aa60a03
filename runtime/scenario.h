/* runtime/scenario.h — scenario files: a board a person can read and draw (ASCII map with a
 * legend, elevation grid, side features, interspace items, elements, units), loaded into a
 * board (board.h) with every mistake reported as an E3xx error with line and column.
 *
 * The loader knows no rule names: every name (terrain, features, markers, counters, armies)
 * goes through a caller-supplied resolver that answers an id or -1. The format and the error
 * codes are documented in docs/spec/board.md; tests/runtime/test_scenario.c pins them.
 */
#ifndef HON_SCENARIO_H
#define HON_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "board.h"
#include "diag.h"

/* How the loader turns names into ids. Only `resolve` is required. */
typedef struct scn_resolver {
    /* The id (0..BOARD_MAX_ID-1) of `name` in id space `kind`, or -1 when it is not declared.
     * `name` is borrowed for the call. */
    int (*resolve)(void *ud, board_name_kind kind, const char *name);
    /* How many squares counter `counter` covers (1 or 2), to check two-square units; NULL to
     * accept whatever number of squares the file gives. */
    int (*counter_size)(void *ud, int counter);
    /* Creates the unit instance `name` of `counter` for `army` and returns its unit-pool id
     * (0..BOARD_MAX_UNITS-1), or -1 to refuse. NULL: units get ids 0, 1, 2... in file order. */
    int (*new_unit)(void *ud, const char *name, int counter, int army);
    /* The declared name of id space `kind` nearest `name` (a slip of the keyboard: base/near.h),
     * for the E303 of an unknown one, or NULL; borrowed. NULL: no suggestion. */
    const char *(*near)(void *ud, board_name_kind kind, const char *name);
    void *ud;
} scn_resolver;

/* One error, with its code and position; the caller renders it (base/diag.h). */
typedef struct scn_error {
    int code;      /* E_SCN_* of diag.h (302 for E302); registry: docs/spec/errors.md, E3xx */
    int line, col; /* from 1; columns count bytes */
    int len;       /* bytes to underline, >= 1 */
    char message[200];
} scn_error;

typedef struct scn_errors {
    scn_error *items; /* in line and column order after scn_load */
    size_t len, cap;
} scn_errors;

/* Frees the items and empties the list; accepts NULL. */
void scn_errors_free(scn_errors *e);
/* A unit of the scenario. */
typedef struct scn_unit {
    char *name;        /* instance name in the file (owned) */
    int id;            /* unit-pool id (see scn_resolver.new_unit) */
    int counter, army; /* resolved ids */
    int sq0, sq1;      /* squares (sq1 -1 for one square); both -1 when embarked or off */
    int in;            /* index in scenario.units of the transport, or -1 (placed or off) */
    int face;          /* the face it shows at the start (`face NAME`), or -1 for the default */
    int *markers;      /* n_markers marker ids (owned; repeats allowed) */
    size_t n_markers;
    int line; /* where it was declared */
} scn_unit;

typedef struct scn_cite {
    char *id;      /* "BRO.1.1.contour.range" (owned) */
    char *example; /* "A", or NULL (owned) */
} scn_cite;

typedef struct scenario {
    char *title; /* owned; "" when the file has no `scenario` line */
    scn_cite *cites;
    size_t n_cites;
    board *board;  /* owned; names and symbols of every id used are set on it */
    char *symbols; /* w*h map symbols as written (owned), for drawing */
    /* w*h: the terrain id each square had once the scenario was built (-1: none), that is what
     * its written symbol stands for (owned; draw_options.symbol_terrain). */
    int *symbol_terrain;
    scn_unit *units; /* in file order */
    size_t n_units, units_cap;
    struct scn_unit_name *unit_names; /* the units by name, for scn_unit_find (owned) */
    /* Display colours from `colour` lines (owned strings, NULL where none was given), indexed
     * by terrain id, side-feature id and unit id: ready for draw_options. */
    char **terrain_colours;
    size_t n_terrain_colours;
    char **side_colours;
    size_t n_side_colours;
    char **unit_colours;
    size_t n_unit_colours;
    /* The same by army id (`colour army` lines): the colour of each army's counters, which
     * unit_colours repeats for each unit of the army. */
    char **army_colours;
    size_t n_army_colours;
} scenario;

/* Parses and validates a scenario from text[0..len) (need not be NUL-terminated). Every
 * error found is appended to errs (sorted by position; at most 50, then E314). Returns a new
 * scenario (free with scn_free) when there were no errors, NULL otherwise or when memory ran
 * out (E399). Never reads outside text, never crashes on any input. */
scenario *scn_load(const char *text, size_t len, const scn_resolver *r, scn_errors *errs);
/* Frees a scenario and its board; accepts NULL. */
void scn_free(scenario *s);
/* Index in s->units of the unit named `name`, or -1. */
int scn_unit_find(const scenario *s, const char *name);
/* Adds unit i of s (its name set) to the index scn_unit_find reads; false when memory runs
 * out (the unit is then not found by name). */
bool scn_unit_index(scenario *s, int i);

/* One directive of a scenario's outline (scn_outline), its strings borrowed for the call. */
typedef struct scn_symbol {
    const char *directive;   /* its keyword: "scenario", "cite", "topology", "size", "legend" (one
                              entry of it), "map", "elevation", "element", "side", "interspace",
                              "square", "mine_counter", "unit" or "colour" */
    const char *name;        /* a unit's or element's name; the title; the cited ID; a legend
                              entry's text ("g = grass"); "map", "elevation"; a setting with its
                              keyword ("size 10 x 8"); else the line after its keyword
                              ("C2/C3 contour") */
    const char *detail;      /* a unit's or element's line after its `=`; a cite's "example A";
                              else NULL */
    int line, col, end_col;  /* the name's span on its line (bytes from 1, end inclusive) */
    int last_line, last_col; /* where the directive ends: its line's last field, a map's or
                                elevation's last row */
} scn_symbol;

/* Calls fn with each directive of the scenario text[0..len), in file order, read as scn_load's
 * first pass reads the lines (comments dropped, legend entries continued on the lines after
 * `legend`, map and elevation rows belonging to their block); no name is resolved and nothing
 * is checked, so a file with errors has an outline too (a line that is no directive is left
 * out). Returns how many; 0 for a NULL text or fn, or when memory runs out. */
size_t scn_outline(const char *text, size_t len, void (*fn)(void *ud, const scn_symbol *s),
                   void *ud);

#endif
