/* proc.h — the procedure driver (Lua's ldo to vm.c's lvm): runs a procedure on a game — an
 * event's rules, then the events they raise, depth first — and takes from the VM (vm_driver,
 * state.h) what only a procedure runs: effects, raises, choices, notes, dice lines. Effects
 * are applied through play.c's effect log; a procedure is all or nothing. vm.md §11.
 */
#ifndef HON_PROC_H
#define HON_PROC_H

#include "play.h"
#include "vm.h"

/* A raised event waiting for its turn (arguments in the evaluation's arena). */
typedef struct proc_event {
    uint32_t event;
    val *args;
    uint32_t nargs;
    ast_loc at; /* the rule statement that raised it (a `raise`, or an effect on the
                               event's moment), for errors of its cascade */
} proc_event;

/* Asks a player to choose among n options (their text); returns the index taken, or -1 to
 * abandon the procedure. side is the side's name ("" when none). */
typedef int (*proc_chooser)(void *ud, const char *question, const char *side,
                            const char *const *options, size_t n);
/* Called with each effect's line before it is applied; false abandons the procedure. */
typedef bool (*proc_stepper)(void *ud, const char *line);
/* Called before the chooser is asked with the procedure's lines not yet given to it. */
typedef void (*proc_lines_hook)(void *ud, const char *lines);

#define PROC_CHOOSER_TRIES 3 /* an illegal answer is refused, then asked again */

/* Odds by forking (vm.md §11): where in the procedure driver a run stopped at a roll. */
typedef enum proc_level_kind {
    PROC_AT_BODY,  /* in the procedure's own chunk */
    PROC_AT_QUEUE, /* in a run of the queue: at its event `index`, the run started at `from` */
    PROC_AT_EVENT, /* in an event: at its rule `index`, started when the queue had `from` */
} proc_level_kind;

typedef struct proc_level {
    proc_level_kind kind;
    bool in_vm; /* in the chunk (the rule's: vm_fork), not in the events the rule raised */
    size_t index, from;
} proc_level;

/* A procedure stopped at a roll of its own (not one inside a query's rules): all it takes to
 * go on from there, any number of times (proc_resume). Arrays owned (proc_fork_free). */
typedef struct proc_fork {
    vm_fork vm;
    proc_level *levels; /* the innermost first */
    size_t nlevels, levels_cap;
    struct proc_event *queue; /* the raised events (their arguments in the arena) */
    size_t qlen, qcap;
    size_t out_len, lines; /* the output's */
    size_t play_mark;      /* the effect log's length */
    arena_mark arena;      /* the values made until then */
    vlist *line_list;      /* vm_ctx's line cache then */
    int line_a, line_b;
} proc_fork;

/* A game as procedures play it: the game itself (board, clock, effect log, history), who
 * chooses, and the running procedure's queue and output. */
typedef struct proc_game {
    play g;
    /* who chooses: a script (tests: values, consumed in order), else the chooser, else the
     * first legal option */
    const val *script; /* borrowed */
    size_t nscript, script_pos;
    bool script_on; /* a script was given (running out of it is E221) */
    proc_chooser chooser;
    proc_stepper stepper;
    proc_lines_hook before_choice;
    void *ud;            /* for chooser, stepper and before_choice */
    bool first_choice;   /* odds: every choice takes the first legal option */
    bool bare;           /* odds: effect lines without their citations, no notes, no dice */
    size_t choices_made; /* choices made since the caller last zeroed it (odds' note) */
    /* the running procedure, emptied when one starts */
    proc_event *queue; /* raised events not yet run */
    size_t qlen, qcap;
    strbuf out;        /* its lines: one per effect, note and roll */
    strbuf rolls;      /* its dice as JSON objects joined by ", " (none when bare) */
    size_t lines;      /* effect lines written */
    size_t shown;      /* bytes of out given to before_choice */
    ast_loc raised_at; /* where the running event was raised (zero: from C, as a walk's
                               steps are), so a cascade too deep (E222) is reported there */
    proc_fork *fork;   /* while forking: where a run stopped at a roll is kept */
} proc_game;

/* Starts a new game on scene sc (borrowed, may be NULL; play_init) with no chooser, stepper or
 * script: frees what gm held before (a zeroed proc_game is fine). */
void proc_init(proc_game *gm, scene *sc, int32_t nphases);
/* Frees what gm holds (the struct is the caller's); accepts a zeroed one. */
void proc_free(proc_game *gm);

/* Each runs one procedure on gm, whose scene must be the evaluation's, between state_begin and
 * state_end; the clock turn() and phase() read is gm's meanwhile. On success its effects stay
 * (the caller commits them to the history, play_commit, or reverts them) and gm->out holds
 * its lines; on failure every effect is undone and x->err says why. */

/* Procedure ch (a chunk made by comp_procedure, or any chunk that raises events): the chunk,
 * then every event it raised, each rule's raises right after its block, depth first. */
bool proc_run(vm_ctx *x, proc_game *gm, const chunk *ch);
/* Odds by forking: proc_run_fork runs procedure ch as proc_run does, but a roll of the
 * procedure's own frames (an event rule's block, the procedure's chunk, the fns they call; a
 * roll inside a query's rules rolls as usual) stops it: false with x->err.code VM_SUSPENDED and
 * *at holding where, the effects so far kept. proc_resume goes on from fork `from` (made on gm
 * by either, in the same evaluation; `at` is another fork): it puts the board, the arena, the
 * queue and the output back as they were at the roll, first undoing the effects since (the
 * effect log must not be cut below from's length meanwhile), rolls it (the dice source decides
 * the faces) and runs on, to the end (true, the effects kept), to the next such roll (false,
 * VM_SUSPENDED, *at), or to an error (false, the effects since `from` undone). Never traced. */
bool proc_run_fork(vm_ctx *x, proc_game *gm, const chunk *ch, proc_fork *at);
bool proc_resume(vm_ctx *x, proc_game *gm, const proc_fork *from, proc_fork *at);
/* Frees what fk owns (the struct is the caller's); accepts a zeroed one. */
void proc_fork_free(proc_fork *fk);

/* A walk (the REPL's `move`) of unit `who` along the n squares (values). When the rules declare
 * an event `on walk` (their Movement Action), it is raised with the unit and the squares, and
 * the rules check and take each step (a `require` refuses an illegal one: E228, all undone).
 * Otherwise the bare walk: the unit is moved to each square in turn (an effect, which raises
 * the event `on enter`, run before the next step), stopping early when a rule takes the unit
 * off its path (off the board, into a carrier, to another square); then, if it is still on
 * the board, the event `on walk_end` is raised with the squares walked. *done (when not NULL):
 * how many steps the bare walk took (n for the rules' walk). */
bool proc_walk(vm_ctx *x, proc_game *gm, int32_t who, const int64_t *squares, size_t n,
               size_t *done);
/* The clock's `next`: raises `on phase_end` for the current phase, then, unless the rules'
 * query `clock_stops()` (a bool query with no parameter, when declared) answers true — the game
 * is over, the clock stays at the phase that ended it — moves to the next phase (an effect;
 * after the last one, turn + 1 and `on turn_start`) and raises `on phase_start`. E226 when no
 * phase is declared. */
bool proc_next(vm_ctx *x, proc_game *gm);

#endif
