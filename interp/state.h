/* state.h — the state of an evaluation (vm_ctx) and what every part of the VM does with it:
 * set it up (state_begin) and release its values (state_end), fail with an E2xx at the running
 * instruction (state_fail), allocate values in its arena. Like Lua's lstate.h it sits below
 * all that runs code: builtin.c, vm.c and proc.c take a vm_ctx; one per hon_vm (session.h).
 */
#ifndef HON_STATE_H
#define HON_STATE_H

#include <signal.h>

#include "chunk.h"
#include "dice.h"
#include "memo.h"
#include "play.h"
#include "program.h"
#include "scene.h"
#include "trace.h"

#define VM_DEFAULT_BUDGET 10000000ULL
#define VM_DEFAULT_DEPTH  200u
#define VM_ARENA_LIMIT    ((size_t)256 << 20) /* bytes of values one evaluation may make */
#define VM_DEFAULT_LIST   1000000u            /* items of a list built at run time (E229) */
/* Steps the VM runs between two looks at the interrupt flag (about 0.2 ms): the budget is
 * handed to the dispatch loop in blocks of this size, so the look costs nothing per step. */
#define VM_STEP_BLOCK 65536u
/* How to raise the budget, said by every E207 (hon_config.step_budget in the API). */
#define VM_BUDGET_HINT " (raise it with --budget N, or `budget N` at the prompt)"

/* Run-time errors are the E2xx codes of diag.h (E_NO_BOARD...; docs/spec/errors.md). */

typedef struct vm_frame {
    const chunk *ch;
    const uint32_t *pc; /* saved pc (valid for frames below the running one) */
    size_t base;        /* stack index of local 0 */
} vm_frame;

/* Not an error: x->err.code when an evaluation stopped at a roll to be forked (vm_fork). Only
 * odds.c, which asked for it, sees it; it is never reported. */
#define VM_SUSPENDED (-1)

/* The VM's part of a procedure stopped at a roll (odds by forking, vm.md §11): its frames and
 * its stack as they stood at the ROLL or ROLL_N (the frames' pcs at it), and the length of every
 * list a stack slot holds (a loop's list grows in place: LIST_PUSH), so vm_resume can run the
 * roll again, as often as wanted, each time from that state. Arrays owned (fork_free). */
typedef struct vm_fork {
    vm_frame *frames;
    size_t nframes, frames_cap;
    val *stack;
    size_t sp, stack_cap; /* the live stack: [0, sp) */
    size_t x_sp;          /* vm_ctx.sp then */
    unsigned depth;       /* vm_ctx.depth then */
    struct vm_fork_len {
        vlist *list;
        size_t len;
    } * lens;
    size_t nlens, lens_cap;
    size_t ndice; /* the dice of the roll (1 for a lone die) */
    bool many;    /* a `roll N d6` (else one die) */
} vm_fork;

typedef struct vm_error {
    int code; /* E_* of diag.h (201 for E201); E_NONE: none */
    ast_loc loc;
    char msg[1024];
    /* E201: the table and row of the `?` cell read (lint.c tells a cited gap from another) */
    uint32_t cell_table, cell_row;
    /* An error about a value the user's own text passed to a call (state_blame): loc is that
     * argument, in the text; surfaced is where the rules raised it (line 0: none), and
     * surfaced_in the name of the rule or fn running there ("fn has_trait") */
    ast_loc surfaced;
    char surfaced_in[160];
} vm_error;

/* The last `require` that refused (E228): what hon_last_refusal gives. Set by refusal.c,
 * cleared by state_begin. Texts are cut to their buffers. */
typedef struct vm_refusal {
    bool set;
    char call[256];   /* the query asked, with its arguments */
    char what[256];   /* the require's own text ("" when it has none) */
    char rule[128];   /* the rule whose forbid decided */
    char cites[256];  /* its citations, ", "-joined */
    char inside[512]; /* the rules of the queries it asked that fired toward the refusal */
    /* what the guard of `rule` found, with its values (trace_reason; "" without a guard) */
    char condition[256];
    /* the refusal in the rules' own words: the first sentence of the doc of the rule at the
     * bottom of it (refusal_plain; "" when that rule has no doc) */
    char plain[256];
} vm_refusal;

typedef struct vm_ctx vm_ctx;

/* The statements only a procedure runs — effects, raises, choices, notes — and the dice lines
 * of its rolls go to the procedure driver (proc.c) through these. vm.c calls them only while
 * vm_ctx.driver is set; each may fail with state_fail. The arguments are borrowed. */
typedef struct vm_driver {
    /* applies effect `kind` (play_fx) to its n operands; extra: the value slot of FX_SET */
    bool (*effect)(vm_ctx *x, const chunk *ch, uint32_t kind, const val *args, uint32_t n,
                   uint32_t extra);
    /* queues event e with its n arguments */
    bool (*raise)(vm_ctx *x, uint32_t e, const val *args, uint32_t n);
    /* the member of `from` (a list or a set) the chooser of `side` picks for question q */
    bool (*choose)(vm_ctx *x, const chunk *ch, val from, val side, const char *q, val *out);
    /* a `note` statement's line */
    void (*note)(vm_ctx *x, const chunk *ch, const char *text);
    /* the faces a roll just gave (many: `roll N d6`, else one die) */
    void (*dice)(vm_ctx *x, const chunk *ch, const val *faces, size_t n, bool many);
    /* a `require` whose query q answered forbid on the n args: fails with E228 (returns
     * false); rule: the rule whose answer decided (UINT32_MAX: none); what: the text or NULL */
    bool (*refuse)(vm_ctx *x, uint32_t q, const val *args, uint32_t n, uint32_t rule,
                   const char *what);
} vm_driver;

/* What an evaluation runs against (all borrowed until state_end): the program, the board (NULL:
 * none; it must have been loaded for pg), the edition (-1: the top-level rules), the active
 * reading of each variant, and its limits (0: the defaults). */
typedef struct state_setup {
    const prog *pg;
    const scene *sc;
    int32_t edition;
    const int32_t *readings;
    uint64_t budget;    /* VM steps */
    unsigned max_depth; /* nested query and fn calls */
    size_t max_list;    /* items of a list built at run time */
    /* a number naming pg, edition and readings together, never given to another setting in
     * the process (session_setup's own setup has one), or 0 when none does: the tables' key
     * (memo_key) is then checked by comparing it alone */
    uint64_t setting;
} state_setup;

/* The rules of a query whose combined chunk runs traced (answer.h answer_trace_begin): the
 * query, its rules under the edition (borrowed), the next to run, whether the default comes
 * first (`sum`), and the part running (open: its rule, or the default) with the log's length
 * before it (mark: its entry is made when it ends, trace_leave_fired); fired: a rule (not the
 * default) fired. */
typedef struct vm_traced_rules {
    const res_ruleset *rs;
    uint32_t q;
    size_t next;
    uint32_t rule; /* the rule of the part running */
    size_t mark;
    uint32_t depth; /* the log's depth when the part started */
    bool default_next, open, fired, is_default;
} vm_traced_rules;

struct vm_ctx {
    const prog *pg;
    const res_program *p;
    const scene *sc; /* the loaded board, or NULL */
    /* sc's columns and rows (0 and 0 with no board), set with sc by state_begin: the bounds
     * builtin_square_at tests a square against, read without going through sc */
    uint64_t sq_w, sq_h;
    const unit_pool *units;  /* sc's pool, else the program's */
    int32_t edition;         /* active edition, -1: the top-level rules */
    const int32_t *readings; /* active reading of each variant */
    /* the edition's versions of the declared fns and tables (res_edition.fn_of, table_of):
     * NULL when it revises none */
    const int32_t *fn_of, *table_of;
    size_t nfn_of, ntable_of;
    dice_src *dice;
    /* the steps left are steps_left + steps_reserve (state_steps): the dispatch loop counts
     * steps_left down to 0, then state_refill moves the next block out of the reserve */
    uint64_t budget, steps_left, steps_reserve;
    uint64_t steps_counted; /* state_steps when the steps were last added to hon_steps_run */
    unsigned depth, max_depth;
    /* max_depth, or 0 while the run is traced (tracing) or forks (fork): a call at a depth
     * below it may run a query's combined chunk in this loop (QUERY_ENTER, QUERY_FORWARD,
     * CALL_QUERY) and a walk may make only its loop's fields (walk.c); one test where three
     * were. Whoever sets tracing, fork or max_depth calls state_inline_update after. */
    unsigned inline_depth;
    size_t max_list; /* items of a list built at run time (E229) */
    val *stack;
    size_t stack_cap, sp; /* sp: first free slot at call boundaries */
    vm_frame *frames;
    size_t nframes, frames_cap;
    val_arena arena;
    trace_log trace;
    bool tracing;
    /* the chunk each rule runs: pg->rules, or while tracing pg->explained (whose guards say
     * which of their operands was false and what they compared: trace.h; NULL until the
     * rule's first traced run, when prog_explained compiles it); a trace none of whose
     * renderings words a guard runs pg->rules (state_trace_guards) */
    chunk *const *rules;
    vm_error err;
    /* the last line(a, b) traced in this evaluation (board squares a, b) and its list, in the
     * arena: the rules trace one shot's line many times (builtin.c); NULL when none */
    vlist *line_list;
    int line_a, line_b;
    /* step records of traced lines made (a list's every step, a walk's each step reached),
     * never reset: what the tests count (walk.h) */
    uint64_t steps_made;
    /* the answers of pure queries over small finite domains, kept across evaluations under
     * the same program, edition and readings (memo.h; state_begin keys them) */
    memo memo;
    /* the setting (state_setup.setting) of the last state_begin, 0 when it had none: when the
     * next names the same one under the same program, the fields that follow from its
     * program, edition and readings (p, edition, fn_of, table_of, readings, the memo's key)
     * are kept as they are (state_begin) */
    uint64_t setting;
    /* nonzero: the number of a setup (state_setup.setting) that names every field of it, the
     * board, the limits and the dice given with it included, as the session's own does
     * (session_begin); the last state_begin took that setup and nothing has changed what it
     * set since, so state_restart alone may start the next evaluation under it (while the
     * memo is still keyed to it: session_begin asks both). state_begin clears it (its caller
     * sets it), as must whatever changes a field state_begin set from its setup (none does,
     * between evaluations) */
    uint64_t begun;
    vm_refusal refusal; /* the last require that refused */
    /* while a traced evaluation with the plain chunks runs a query's combined chunk
     * (answer_trace_begin): what its exits record (answer_trace_rule); rs NULL otherwise */
    vm_traced_rules tcomb;
    /* chunks run from C, each in a dispatch loop of its own (calls.c run_chunk): a query's
     * rules run one by one cost one each (tests/interp/test_why.c counts them) */
    uint64_t chunk_runs;
    /* the game whose clock turn() and phase() read (NULL: turn 1, the first phase); the
     * caller sets it, state_begin leaves it */
    const play *game;
    /* while a procedure runs: its driver and the driver's state (proc.c sets both and clears
     * them after); NULL otherwise, and then EFFECT, RAISE and CHOOSE are errors */
    const vm_driver *driver;
    void *driver_state;
    /* odds by forking: while set (and a driver), a ROLL or ROLL_N of the procedure's own frames
     * (the chunk the driver runs, and the fns it calls: not inside a query's rules) does not
     * roll: it saves the VM into *fork and stops the evaluation with VM_SUSPENDED (vm_resume
     * runs it from there; fork_resumed: the next such roll is the one resumed, and rolls) */
    vm_fork *fork;
    bool fork_resumed;
    /* NULL, or a bitmap, one bit per variant id, where each VARIANT instruction run sets its
     * variant's bit: the variants an evaluation read (variants.c: a question that never read
     * a variant answers the same under its other readings). The caller sets and clears it;
     * state_begin leaves it. A tabled answer (memo.h) reads nothing: its reads are not seen */
    uint64_t *variants_read;
    /* a test's `dice [..]`: faces handed out in order, E223 past the last (dice_on) */
    const uint8_t *dice_faces;
    size_t dice_len, dice_pos;
    bool dice_on;
};

/* Sets x->inline_depth from x->tracing, x->fork and x->max_depth (its comment). */
static inline void state_inline_update(vm_ctx *x)
{
    x->inline_depth = x->tracing || x->fork ? 0 : x->max_depth;
}

/* Starts an evaluation under s (borrowed until state_end), drawing dice from dice. tracing:
 * record the trace. A zeroed vm_ctx is ready for its first evaluation. Clears x->begun. */
void state_begin(vm_ctx *x, const state_setup *s, dice_src *dice, bool tracing);
/* After state_begin with tracing: whether the rules run their explained chunks, which record
 * what each guard found (the default), or their plain ones (guards false: the trace then has
 * every call, rule, answer and lookup, and no rule entry says which operand was false or
 * what it compared; the brief trace and the rules that fired do not need that, and an
 * explained chunk costs its compilation on its first traced run). Answers and steps are the
 * same either way (vm.md §6a). */
void state_trace_guards(vm_ctx *x, bool guards);
/* Releases the evaluation's values (the trace is invalid after). */
void state_end(vm_ctx *x);
/* Releases x's memory (the struct itself is the caller's); accepts a zeroed one. */
void state_free(vm_ctx *x);

/* The source span of the instruction the innermost frame is running (its saved pc), or a zero
 * span when no chunk runs (a procedure driven from C). */
ast_loc state_where(const vm_ctx *x);
/* Records error `code` with a printf message at state_where (keeps the first one); returns
 * false. */
bool state_fail(vm_ctx *x, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* After state_fail raised an error about the value v (an off-board square, a unit not on the
 * board or not embarked: errors.md "Where an error is placed"): when v is one of the arguments
 * (or an item of a list argument) that a call written in an expression chunk (the text a user
 * typed, a test's expectation) passed to the rules running below it, the error is placed under
 * that argument in the text (x->err.loc), and where the rules raised it is kept as
 * x->err.surfaced, with the name of the rule or fn there. Else, or when the error was raised in
 * the text itself, nothing changes. */
void state_blame(vm_ctx *x, val v);
/* state_alloc's error: records E209 (the arena exhausted); NULL. For a caller that asks
 * arena_alloc itself (inline, walk.c). */
void *state_alloc_failed(vm_ctx *x);
/* n bytes of the evaluation's arena; E209 (false) when it is exhausted. Inline, as
 * arena_alloc's common case is: the real rules make some 13 lists and records a pair of units
 * (builtin.c's lists, the dispatch loop's records), and a call cost more than the bump. */
static inline void *state_alloc(vm_ctx *x, size_t n)
{
    void *p = arena_alloc(&x->arena, n);
    return p ? p : state_alloc_failed(x);
}
/* Room for `need` values on x's stack (x->stack may move: pointers into it go stale); false
 * with E209 beyond 2^24 values or when memory runs out. */
bool state_ensure_stack(vm_ctx *x, size_t need);
/* Pushes a frame running chunk ch (borrowed) from its start, its local 0 at stack index base,
 * growing x->frames when full; false with E209 when memory runs out. */
bool state_push_frame(vm_ctx *x, const chunk *ch, size_t base);

/* The steps the evaluation has left (of x->budget). */
static inline uint64_t state_steps(const vm_ctx *x)
{
    return x->steps_left + x->steps_reserve;
}
/* Sets the steps left to n, the first block of them in steps_left. Inline: every evaluation
 * starts with it (state_begin) and a tabled answer charges through it. */
static inline void state_set_steps(vm_ctx *x, uint64_t n)
{
    x->steps_left = n > VM_STEP_BLOCK ? VM_STEP_BLOCK : n;
    x->steps_reserve = n - x->steps_left;
}
/* state_begin's part that every evaluation sets afresh (its steps, frames, trace, error):
 * what state_begin does last, and all that starting another evaluation under the setup the
 * last state_begin took needs while nothing changed what that set (x->begun, which the
 * session's calls from C test: session_begin). Inline: once a call from C. */
static inline void state_restart(vm_ctx *x, bool tracing)
{
    state_set_steps(x, x->budget);
    x->steps_counted = x->budget;
    x->depth = 0;
    x->sp = 0;
    x->nframes = 0;
    x->arena.limit = VM_ARENA_LIMIT;
    x->tracing = tracing;
    state_inline_update(x);
    x->rules = tracing ? x->pg->explained : x->pg->rules;
    trace_reset(&x->trace);
    x->line_list = NULL;
    x->err.code = E_NONE;
    x->refusal.set = false;
}
/* Within an evaluation: counts the steps run so far (hon_steps_run), then leaves n steps (odds
 * by forking give each continuation of a roll the steps its path has left). */
void state_reset_steps(vm_ctx *x, uint64_t n);
/* At a block boundary (steps_left ran down to 0 or is below `need`): moves enough of the
 * reserve into steps_left for `need` more steps and a block, counts the steps run, and looks
 * at the interrupt flag. False with E231 when interrupted, or with nothing recorded when the
 * steps left do not reach `need` (the caller reports E207). */
bool state_refill(vm_ctx *x, uint64_t need);
/* The process-wide interrupt flag (state.c): set by hon_interrupt, read through
 * state_interrupted. */
extern volatile sig_atomic_t state_interrupt_flag;
/* Whether hon_interrupt was called since the last hon_interrupt_clear (any thread, or a
 * signal handler); the long loops outside the VM (odds, reach, diff, search) and each call
 * from C look at it. Inline: one read of the flag. */
static inline bool state_interrupted(void)
{
    return state_interrupt_flag != 0;
}
/* Records E231 ("interrupted") at the running instruction; returns false. */
bool state_fail_interrupted(vm_ctx *x);

#endif
