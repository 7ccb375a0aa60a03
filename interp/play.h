/* play.h — the game a procedure plays and its effect log: the board (a scene), the clock, each
 * change applied with the record that undoes it, the history of procedures, undo. play.c alone
 * changes the board, the unit pool or the clock while playing: proc.c decides what changes,
 * outcome.c reads the log. play_fx (from the list effects.h) is also OP_EFFECT's operand
 * (compile.c, disasm.c).
 */
#ifndef HON_PLAY_H
#define HON_PLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scene.h"

/* The effects (operand a of OP_EFFECT): FX_GIVE, FX_TAKE ... FX_REMOVE_ELEMENT, in the order of
 * their list, effects.h, which gives the operands each takes from the stack. */
typedef enum play_fx {
#define EFFECT(name, text, fewest, most, operands, statement, doc) FX_##name,
#include "effects.h"
    FX_COUNT
} play_fx;

/* The name of effect k, for listings ("give"). */
const char *play_fx_name(uint32_t k);
/* Whether effect k acts on a unit: its first operand is a unit (effects.h's operands). */
bool play_fx_on_unit(uint32_t k);

/* Where a unit stood, to put it back exactly: its squares and its place in their lists of
 * units, or its carrier, or nowhere. */
typedef struct play_pos {
    bool present;
    int sq0, sq1, pos0, pos1;
    int in;
} play_pos;

/* One applied change and what undoes it. */
typedef struct play_rec {
    play_fx kind;
    int64_t target;        /* unit, element, square, side or interspace index */
    int64_t what;          /* marker, face, value slot, feature id */
    int64_t before, after; /* marker count, face, value; the clock's turn; FX_REMOVE_NEAR: after
                               is the square the item was near */
    int32_t phase_before, phase_after;
    bool had;     /* FX_SET: the unit gave the value before */
    play_pos pos; /* FX_DESTROY, FX_MOVE, FX_EMBARK, FX_DISEMBARK: where it was */
    int feature_value, feature_facing, feature_pos; /* a removed feature and its place */
} play_rec;

/* A finished procedure in the history: its records log[first .. next one's first). */
typedef struct play_proc {
    size_t first;
    char *title;   /* owned: "do suppress($rifle1)", "move $jeep C4 C5", "next" */
    uint64_t dice; /* the seeded dice source's state as the procedure began (undo restores it) */
} play_proc;

#define PLAY_MAX_RECORDS 1000000 /* the history keeps at most this many records */
#define PLAY_MAX_HISTORY 1000    /* and at most this many procedures */

typedef struct play {
    scene *sc;     /* borrowed: the board played on, or NULL (then no effect applies) */
    int64_t turn;  /* the clock: from 1 */
    int32_t phase; /* member of `phase`, -1 when no phase is declared */
    play_rec *log; /* every record of the history and of the running procedure */
    size_t len, cap;
    play_proc *procs; /* the history, oldest first */
    size_t nprocs, procs_cap;
    char *undone; /* owned: the title of the procedure play_undo last reverted */
} play;

/* Starts a game on scene sc (borrowed, may be NULL): turn 1, the first declared phase (or
 * none), an empty history. Frees what pl held before (a zeroed play is fine). */
void play_init(play *pl, scene *sc, int32_t nphases);
/* Frees the history and the log (the struct is the caller's); the game can be re-inited. */
void play_free(play *pl);

/* Where unit u stands on board b, with its place in the lists of units of its squares. */
play_pos play_pos_of(const board *b, int u);

/* ---- applying: each function applies one change to the game's scene or clock and appends the
 * record that undoes it. A false (or GEO_ENOMEM) return means memory ran out; nothing changed.
 * The operands are the caller's to check (proc.c): units and elements exist, squares are on
 * the board. ---- */

/* FX_GIVE, FX_TAKE, FX_TAKE_ALL: unit who's count of marker becomes count; FX_GIVE_ELEMENT,
 * FX_TAKE_ELEMENT, FX_TAKE_ALL_ELEMENT: terrain element who's (BOARD_AT_ELEMENT_MARKER). False
 * when memory ran out (nothing changed). */
bool play_markers(play *pl, play_fx k, int64_t who, int64_t marker, int64_t count);
/* How many markers `marker` unit who (for FX_GIVE...) or element who (FX_GIVE_ELEMENT...)
 * carries now in sc; 0 for an unknown marker. */
int64_t play_marker_count(const scene *sc, play_fx k, int64_t who, int64_t marker);
/* FX_FLIP_UNIT (a unit by pool id), FX_FLIP_ELEMENT (a terrain element): shows face. */
bool play_flip(play *pl, play_fx k, int64_t target, int32_t face);
/* FX_SET: unit who gives v for value slot `slot`. */
bool play_set_value(play *pl, int64_t who, uint32_t slot, int64_t v);
/* Unit who: FX_DESTROY (off the board), FX_MOVE and FX_DISEMBARK (to sq0, and sq1 for a unit
 * covering two squares, else -1), FX_EMBARK (into the unit `carrier`). GEO_OK; GEO_ENOMEM; another
 * status when the board refused (the unit is then back where it was). */
geo_status play_position(play *pl, play_fx k, int who, int sq0, int sq1, int carrier);
/* FX_PLACE_SQUARE, FX_PLACE_SIDE, FX_PLACE_INTERSPACE: puts feature `id` with `value` at
 * square, side or interspace `at`; `near` is the square value an interspace item was put by
 * (kept for outcome.c), else unused. GEO_OK, GEO_ENOMEM or the board's refusal (nothing
 * changed). */
geo_status play_place(play *pl, play_fx k, int at, int id, int value, int64_t near);
/* FX_PLACE_TERRAIN: square sq (on the board) leaves its element and becomes the one square of
 * a new element of terrain `type` named `name` (copied) with `value`; undone by putting sq back
 * and dropping that element again (board_element_drop_last). GEO_OK or GEO_ENOMEM (nothing
 * changed). */
geo_status play_new_element(play *pl, int sq, int type, const char *name, int value);
/* FX_REMOVE_SQUARE, FX_REMOVE_SIDE, FX_REMOVE_NEAR: takes feature `id` (present) away from
 * square, side or interspace `at`; `near` is the square value an item was near (kept for
 * outcome.c), else unused. */
bool play_remove(play *pl, play_fx k, int at, int id, int64_t near);
/* FX_REMOVE_ELEMENT: square sq (on the board) leaves the terrain element it is in, and belongs
 * to none (board_element_add with -1); undone by putting it back in that element. */
bool play_leave_element(play *pl, int sq);
/* FX_CLOCK: the clock shows turn and phase. */
bool play_clock(play *pl, int64_t turn, int32_t phase);

/* ---- undo ---- */

/* Undoes the records log[from ..) in reverse order and drops them. The board and the unit
 * pool are then exactly as before them. */
void play_revert(play *pl, size_t from);
/* Keeps the records log[first ..) in the history as one procedure named title (copied), with
 * the dice source's state `dice` from before it ran, so play_undo can revert both; forgets the
 * oldest procedures past PLAY_MAX_HISTORY or PLAY_MAX_RECORDS. False on OOM (the records stay
 * applied). */
bool play_commit(play *pl, size_t first, const char *title, uint64_t dice);
/* Reverts the last procedure of the history. Returns its title (borrowed until the next undo
 * or play_free), the number of records it undid and the dice state it began with (*dice, when
 * not NULL), or NULL when the history is empty (*records and *dice untouched). */
const char *play_undo(play *pl, size_t *records, uint64_t *dice);

#endif
