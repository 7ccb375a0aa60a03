/* vm.h — the virtual machine: runs chunks, the query driver that combines rule answers, and
 * the event driver that runs procedures (their effects go through play.c).
 *
 * One vm_ctx per hon_vm, reused across evaluations (its stack, frames and arena keep their
 * memory). An evaluation is vm_begin, then vm_eval of one chunk, then vm_end (which releases
 * every value the evaluation made). Errors are E2xx, stored in ctx->err with the source span of
 * the failing instruction. The VM has no opcode that touches files or the network.
 */
#ifndef HON_VM_H
#define HON_VM_H

#include "chunk.h"
#include "dice.h"
#include "play.h"
#include "program.h"
#include "scene.h"
#include "trace.h"

#define VM_DEFAULT_BUDGET 10000000ULL
#define VM_DEFAULT_DEPTH 200u
#define VM_ARENA_LIMIT ((size_t)256 << 20)   /* bytes of values one evaluation may make */
#define VM_MAX_DICE 1000                     /* largest N in `roll N d6` */

typedef struct vm_frame {
    const chunk *ch;
    const uint32_t *pc;     /* saved pc (valid for frames below the running one) */
    size_t base;            /* stack index of local 0 */
} vm_frame;

typedef struct vm_error {
    int code;               /* 201 for E201; 0: none */
    ast_loc loc;
    char msg[768];
} vm_error;

typedef struct vm_ctx {
    const prog *pg;
    const res_program *p;
    const scene *sc;          /* the loaded board, or NULL */
    const unit_pool *units;   /* sc's pool, else the program's */
    int32_t edition;          /* active edition, -1: the top-level rules */
    const int32_t *readings;  /* active reading of each variant */
    dice_src *dice;
    uint64_t budget, steps_left;
    unsigned depth, max_depth;
    val *stack;
    size_t stack_cap, sp;     /* sp: first free slot at call boundaries */
    vm_frame *frames;
    size_t nframes, frames_cap;
    val_arena arena;
    trace_log trace;
    bool tracing;
    vm_error err;
    /* §6: the game whose clock turn() and phase() read (NULL: turn 1, the first phase), and
     * while a procedure runs (`playing`), the one its effects, raises and choices go to.
     * vm_begin leaves both as they are; the caller sets them. */
    play *game;
    bool playing;
    /* a test's `dice [..]`: faces handed out in order, E223 past the last (dice_on) */
    const uint8_t *dice_faces;
    size_t dice_len, dice_pos;
    bool dice_on;
    /* Added: where the running event was raised (play_event.at; zero when raised from C, as
     * a walk's steps are), so a cascade too deep (E222) is reported at its rule statement */
    ast_loc raised_at;
} vm_ctx;

/* A zeroed context is ready; vm_ctx_free releases its memory (the struct itself is the
 * caller's). */
void vm_ctx_free(vm_ctx *x);

/* Starts an evaluation against pg and board sc (NULL: none; it must have been loaded for pg)
 * under the given edition and readings (all borrowed until vm_end), drawing dice from dice.
 * budget: VM steps (0: default); max_depth: nested calls (0: default). tracing: record the
 * trace. */
void vm_begin(vm_ctx *x, const prog *pg, const scene *sc, int32_t edition,
              const int32_t *readings, dice_src *dice, uint64_t budget, unsigned max_depth,
              bool tracing);
/* Runs a chunk that takes no arguments (an expression, a test expect); true with *out set, or
 * false with x->err set. The step budget is shared by everything run until vm_end. */
bool vm_eval(vm_ctx *x, const chunk *ch, val *out);
/* Releases the evaluation's values (the trace is invalid after). */
void vm_end(vm_ctx *x);

/* Asks query q with the nargs arguments stored at x->stack[argi...]: runs its active rules in
 * order and combines their answers by the query's mode (language.md §3.5). */
bool vm_call_query(vm_ctx *x, uint32_t q, size_t argi, uint32_t nargs, val *out);
/* Calls query q (is_fn false) or fn q (is_fn true) from C with nargs arguments (copied), as
 * hon_call_query does: true with *out set, or false with x->err set. Call between vm_begin
 * and vm_end. */
bool vm_call(vm_ctx *x, bool is_fn, uint32_t q, const val *args, uint32_t nargs, val *out);

/* ---- procedures (language.md §6, play.c) ---- */

/* Runs procedure ch (a chunk made by comp_procedure, or any chunk that raises events) on game
 * g (whose scene must be the evaluation's), between vm_begin and vm_end: the chunk, then every
 * event it raised, each rule's raises right after its block, depth first. All or nothing: on
 * failure every effect is undone and x->err says why. On success the effects stay; the caller
 * keeps them in the history (play_commit) or reverts them. */
bool vm_procedure(vm_ctx *x, play *g, const chunk *ch);
/* A walk (the REPL's `move`): moves unit to each of the n squares in turn (an effect, which
 * raises the event `on enter`, run before the next step), stopping early when a rule takes the
 * unit off its path (off the board, into a carrier, to another square); then, if it is still
 * on the board, raises the event `on walk_end` with the squares walked. *done: how many steps
 * were taken. All or nothing, like vm_procedure. play.c. */
bool play_walk(vm_ctx *x, play *g, int32_t who, const int64_t *squares, size_t n,
               size_t *done);
/* The clock's `next`: raises `on phase_end` for the current phase, moves to the next phase
 * (an effect; after the last one, turn + 1 and `on turn_start`), raises `on phase_start`. E226
 * when no phase is declared. All or nothing. play.c. */
bool play_next(vm_ctx *x, play *g);
/* Writes what the records of the running game from `from` on changed, in sum: one item per
 * thing changed ("give $a suppressed 2", "move $a to C4", "flip $e to wreck", "set $e.speed =
 * 3", "destroy $a"...), in the order they were first changed, joined by "; ", leaving out
 * changes undone by later ones; "no change" when nothing is left. Call before reverting
 * them. The outcome of a path of `odds do`. play.c. */
void play_outcome(vm_ctx *x, size_t from, strbuf *out);
/* Runs the rules of event e with its nargs arguments (in order, each rule's raises after its
 * block); E222 past the depth limit. Called by vm_procedure and play.c. */
bool vm_run_event(vm_ctx *x, uint32_t e, const val *args, uint32_t nargs);
/* Runs the events queued from index `from` on, depth first, then forgets them. */
bool vm_run_queue(vm_ctx *x, size_t from);

/* ---- for the VM's own files (vm_board.c, play.c) ---- */

/* Run-time error codes (docs/spec/errors.md, E2xx). */
enum {
    VM_E_NOT_GIVEN = 201, VM_E_NO_ROW = 202, VM_E_NO_ANSWER = 203, VM_E_UNIT_VALUE = 204,
    VM_E_ARITH = 205, VM_E_DEPTH = 206, VM_E_BUDGET = 207, VM_E_EMPTY = 208,
    VM_E_MEMORY = 209, VM_E_DICE = 211,
    VM_E_NO_BOARD = 212,      /* a board built-in or `$name` with no board loaded */
    VM_E_NO_UNIT = 213,       /* `$name`: the board has no unit of that name */
    VM_E_NOT_EMBARKED = 214,  /* carrier(u) of a unit that is not embarked */
    VM_E_NOTHING = 215,       /* no terrain, element, facing or feature where one was read */
    VM_E_NO_SIDE = 216,       /* side_between of squares that share no side */
    VM_E_OFF_BOARD = 217,     /* a square off the board, a unit that is not on it */
    VM_E_TOPOLOGY = 218,      /* a line traced on a hex board */
    VM_E_FAILED = 219,        /* a rule's `fail "..."` stopped the procedure */
    VM_E_NO_CHOICE = 220,     /* `choose` over an empty list */
    VM_E_BAD_CHOICE = 221,    /* an illegal or missing choice (script, chooser) */
    VM_E_CASCADE = 222,       /* events raising events deeper than the depth limit */
    VM_E_DICE_OUT = 223,      /* a test's scripted dice ran out */
    VM_E_EFFECT = 224,        /* an effect that cannot be applied (board, units) */
    VM_E_ABANDONED = 225,     /* the player abandoned the procedure (chooser, step mode) */
    VM_E_NO_PHASE = 226,      /* phase() or `next` with no phase declared */
    VM_E_INDEX = 227,         /* nth(L, i) with i not in 1..len(L) */
    VM_E_INTERNAL = 299
};
/* Added: the source span of the instruction the innermost frame is running (its saved pc),
 * or a zero span when no chunk runs (a procedure driven from C). */
ast_loc vm_where(const vm_ctx *x);
/* Records error `code` (keeps the first one); returns false. */
bool vm_fail(vm_ctx *x, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* n bytes of the evaluation's arena; E209 (false) when it is exhausted. */
void *vm_alloc(vm_ctx *x, size_t n);
/* Runs board built-in b (RES_BI_*) on its n arguments; out->type holds the result type on
 * entry (a list's type for list results). E212-E218. vm_board.c. */
bool vm_board(vm_ctx *x, uint32_t b, const val *args, uint32_t n, val *out);
/* Applies effect `kind` (FX_*, play.h) to its n operands through the running game's effect
 * log: checks it, writes its line with the citation of the rule of chunk ch, asks the stepper,
 * changes the board, the unit pool or the clock, records the inverse, queues the events raised
 * on its moment. extra: the value slot of FX_SET. E212, E217, E224, E225, E226. play.c. */
bool vm_effect(vm_ctx *x, const chunk *ch, uint32_t kind, const val *args, uint32_t n,
               uint32_t extra);
/* Queues event e with its n arguments (copied into the arena). play.c. */
bool vm_raise(vm_ctx *x, uint32_t e, const val *args, uint32_t n);
/* The member of `from` (a list or a set) the chooser of `side` picks for question q (a string
 * of chunk ch, or NULL): a scripted answer, the chooser's, or the first; E220, E221, E225. */
bool vm_choose(vm_ctx *x, const chunk *ch, val from, val side, const char *q, val *out);
/* Writes a note line of rule chunk ch into the procedure's output. play.c. */
void vm_note(vm_ctx *x, const chunk *ch, const char *text);
/* Added: writes the dice rule chunk ch just rolled into the procedure's output, as a line
 * `roll d6: 4` (one die, many = false) or `roll 3 d6: [1, 4, 4]` (the n faces, ascending;
 * past 48 faces their counts: `roll 100 d6: 17 ones, 15 twos, ...`), with the rule's
 * citations, and appends the roll as a JSON object (faces, chunk, the position vm_where
 * gives: save the pc first, the rule's citations) to the game's `rolls`; nothing under odds
 * (bare). play.c. */
void vm_dice(vm_ctx *x, const chunk *ch, const val *faces, size_t n, bool many);

#endif
