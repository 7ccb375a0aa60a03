/* scene.h — a board loaded for one compiled program: a scenario (runtime/scenario.h) whose
 * names were resolved against the program's declarations, and the unit pool the evaluation
 * reads: the program's counters (same ids as res_program.units) followed by the scenario's
 * units, copies of their counters on their army's side carrying their markers.
 *
 * The session (view.c) keeps the scenario's text so a scene can be rebuilt against a reloaded
 * program; the VM (vm.c, builtin.c) reads the board through it, and the effect log (play.c)
 * alone changes it while a procedure plays (units, faces, positions, features); value.c names
 * units, sides and elements with it. Square values are board-independent (RES_SQUARE in
 * dsl/model.h); sides and elements are the board's indexes. docs/spec/language.md §5 and
 * vm.md describe the whole.
 */
#ifndef HON_SCENE_H
#define HON_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "scenario.h"

typedef struct scene {
    scenario *scn;     /* owned: the board, the scenario's units, symbols, colours */
    const board *b;    /* scn->board */
    const geo_grid *g; /* board_grid(b) */
    unit_pool *units;  /* owned: the counters, then the scenario's units */
    /* the counters it was loaded with (an edition's, res_units_of): borrowed from the
     * program, only compared (a board is loaded again for an edition whose counters differ) */
    const unit_pool *counters;
    int32_t first_unit; /* pool id of the scenario's first unit */
    /* §6: the face each unit (by pool id) and each terrain element shows, a member of the
     * `face` enum; RES_FACE_NONE until a rule flips it (interp/play.c) */
    int32_t *unit_faces; /* owned, nunit_faces */
    size_t nunit_faces;
    int32_t *element_faces; /* owned, nelement_faces */
    size_t nelement_faces;
    /* how many flips have turned an element from `none` to another face, less those turned
     * back (interp/play.c): while 0 no element shows a face, and terrain(sq) reads the board's
     * terrain alone (its fast paths, vm_ops_board.h); never less than the elements showing one */
    size_t nelements_turned;
} scene;

/* Loads the scenario text[0..len) against program p: every terrain, square feature, side
 * feature, interspace item, marker, counter and army name is a member (or counter) declared in
 * p; the counters are copied from `units` (an edition's, res_units_of; NULL: the program's).
 * Returns a new scene (free with scene_free), or NULL with the E3xx errors appended to errs
 * (E399 on OOM). The program is borrowed only during the call. */
scene *scene_load(const res_program *p, const unit_pool *units, const char *text, size_t len,
                  scn_errors *errs);
/* Frees s and everything it owns; accepts NULL. */
void scene_free(scene *s);
/* The board s plays on, for changing it (the effect log of play.c is its only writer). */
board *scene_board(scene *s);

/* Makes s->element_faces cover every element of the board after one was created or dropped
 * (interp/play.c: a placed terrain element), a new one showing RES_FACE_NONE. False when
 * memory ran out (nothing changed). */
bool scene_elements_changed(scene *s);

/* The pool id of the scenario unit named `name` (without the `$`), or -1. */
int32_t scene_unit(const scene *s, const char *name);
/* The name of the scenario unit nearest `name` by edit distance, close enough to be a slip of
 * the keyboard (base/near.h), or NULL: a "did you mean" for an unknown `$name`. Borrowed. */
const char *scene_unit_near(const scene *s, const char *name);
/* The scenario name of unit `id` (borrowed), or NULL when id is a counter of the program. */
const char *scene_unit_name(const scene *s, int64_t id);
/* The board square of square value v, or -1 when it lies off the board. */
int scene_square(const scene *s, int64_t v);
/* The square value of board square sq. */
int64_t scene_square_value(const scene *s, int sq);
/* Writes square value v as "C4" into buf (NUL-terminated, cut to cap). Needs no board. */
void scene_square_text(int64_t v, char *buf, size_t cap);
/* Writes side `side` as "C4/C5" (two squares, the upper or left one first) or "A1:N" (a side
 * on the board's edge), or "side #N" without a board. */
void scene_side_text(const scene *s, int64_t side, char *buf, size_t cap);
/* Writes element `e` as its scenario name ("hill1", "woods@K8") or "#3". */
void scene_element_text(const scene *s, int64_t e, char *buf, size_t cap);

#endif
