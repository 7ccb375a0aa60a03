/* play.h — playing on a board: the game state a procedure changes, the effect log that applies
 * and undoes every change, the queue of raised events, the choosers, and the game clock.
 *
 * A procedure (`do EVENT(args)`, a walk of the REPL's `move`, the clock's `next`) runs on a
 * `play`: vm.c runs the rules of the events (vm_run_event) and, for each statement with an
 * effect, calls play_effect — the one function that changes the board and the unit pool of the
 * scene (scene.h), writes the effect's line with the rule's citation, records its inverse and
 * queues the events the rules hang on that moment (`event ... on give`). On any error the
 * procedure's effects are undone in reverse order: all or nothing. A finished procedure stays
 * in the history so `undo` can revert it. language.md §6 and vm.md §11 describe the whole.
 */
#ifndef HON_PLAY_H
#define HON_PLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "value.h"
#include "scene.h"

/* The effects (operand a of OP_EFFECT), with the operands they take from the stack. */
typedef enum play_fx {
    FX_GIVE,            /* unit marker count */
    FX_TAKE,            /* unit marker count */
    FX_TAKE_ALL,        /* unit marker */
    FX_FLIP_UNIT,       /* unit face */
    FX_FLIP_ELEMENT,    /* element face */
    FX_SET,             /* unit value (the slot is operand c of OP_EFFECT) */
    FX_DESTROY,         /* unit */
    FX_MOVE,            /* unit square [square] */
    FX_EMBARK,          /* unit carrier */
    FX_DISEMBARK,       /* unit square */
    FX_PLACE_SQUARE,    /* square_feature square */
    FX_PLACE_SIDE,      /* side_feature square_side */
    FX_REMOVE_SQUARE,   /* square_feature square */
    FX_REMOVE_SIDE,     /* side_feature square_side */
    FX_REMOVE_NEAR,     /* interspace_item square: from the 4 interspaces around it */
    FX_CLOCK,           /* (no operands) the clock moves to the next phase: `next` */
    FX_COUNT
} play_fx;

/* The name of effect k, for listings ("give"). */
const char *play_fx_name(uint32_t k);

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
    int64_t target;         /* unit, element, square, side or interspace index */
    int64_t what;           /* marker, face, value slot, feature id */
    int64_t before, after;  /* marker count, face, value; the clock's turn */
    int32_t phase_before, phase_after;
    bool had;               /* FX_SET: the unit gave the value before */
    play_pos pos;           /* FX_DESTROY, FX_MOVE, FX_EMBARK, FX_DISEMBARK: where it was */
    int feature_value, feature_facing, feature_pos;   /* a removed feature and its place */
} play_rec;

/* A finished procedure in the history: its records log[first .. next one's first). */
typedef struct play_proc {
    size_t first;
    char *title;            /* owned: "do suppress($rifle1)", "move $jeep C4 C5", "next" */
    size_t lines;           /* how many effect lines it printed */
} play_proc;

/* A raised event waiting for its turn (arguments in the evaluation's arena). */
typedef struct play_event {
    uint32_t event;
    val *args;
    uint32_t nargs;
    ast_loc at;             /* added: the rule statement that raised it (a `raise`, or an
                               effect on the event's moment), for errors of its cascade */
} play_event;

/* Asks a player to choose among n options (their text); returns the index taken, or -1 to
 * abandon the procedure. side is the side's name ("" when none). */
typedef int (*play_chooser)(void *ud, const char *question, const char *side,
                            const char *const *options, size_t n);
/* Called with each effect's line before it is applied; false abandons the procedure. */
typedef bool (*play_stepper)(void *ud, const char *line);

#define PLAY_MAX_RECORDS 1000000  /* the history keeps at most this many records */
#define PLAY_MAX_HISTORY 1000     /* and at most this many procedures */
#define PLAY_CHOOSER_TRIES 3      /* an illegal answer is refused, then asked again */

typedef struct play {
    scene *sc;              /* borrowed: the board played on, or NULL (then no effect applies) */
    int64_t turn;           /* the clock: from 1 */
    int32_t phase;          /* member of `phase`, -1 when no phase is declared */
    play_rec *log;          /* every record of the history and of the running procedure */
    size_t len, cap;
    play_proc *procs;       /* the history, oldest first */
    size_t nprocs, procs_cap;
    play_event *queue;      /* raised events not yet run */
    size_t qlen, qcap;
    strbuf out;             /* the running procedure's lines: one per effect and note */
    strbuf rolls;           /* added: the running procedure's dice as JSON objects joined by
                               ", " (vm_dice; none under odds); emptied when one starts */
    size_t lines;           /* effect lines written by the running procedure */
    /* who chooses: a script (tests: values, consumed in order), else the chooser, else the
     * first legal option */
    const val *script;
    size_t nscript, script_pos;
    bool script_on;         /* a script was given (running out of it is E221) */
    play_chooser chooser;
    play_stepper stepper;
    void *ud;               /* for chooser and stepper */
    bool first_choice;      /* odds: every choice takes the first legal option */
    bool bare;              /* odds: effect lines without their citations */
    size_t choices_made;    /* how many choices the running procedure made (odds' note) */
    char *undone;           /* owned: the title of the procedure play_undo last reverted */
} play;

/* Starts a game on scene sc (borrowed, may be NULL): turn 1, the first declared phase (or none),
 * an empty history. */
void play_init(play *pl, scene *sc, int32_t nphases);
/* Frees the history and buffers (the struct is the caller's); the game can be re-inited. */
void play_free(play *pl);
/* Forgets the history (the board keeps its state). */
void play_forget(play *pl);

/* Undoes the records log[from ..) in reverse order and drops them. The board and the unit
 * pool are then exactly as before them. */
void play_revert(play *pl, size_t from);
/* Keeps the records log[first ..) in the history as one procedure named title (copied), so
 * play_undo can revert it; forgets the oldest procedures past PLAY_MAX_HISTORY or
 * PLAY_MAX_RECORDS. False on OOM (the records stay applied). */
bool play_commit(play *pl, size_t first, const char *title);
/* Reverts the last procedure of the history. Returns its title (borrowed until the next undo
 * or play_free) and the number of records it undid, or NULL when the history is empty. */
const char *play_undo(play *pl, size_t *records);

#endif
