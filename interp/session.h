/* session.h — one hon_vm's state, and what the session layer's files share: diagnostics,
 * edition and variant choice, the one evaluation set-up (session_begin) and VM-error mapping
 * (session_error), compiling typed text, the game, answers. Each public function of hon.h lives
 * in the file of its job over this header (session.c, load.c, view.c, eval.c, los.c, info.c,
 * testrun.c, game.c: vm.md §0).
 */
#ifndef HON_SESSION_H
#define HON_SESSION_H

#include "diag.h"
#include "front.h"
#include "hon.h"
#include "proc.h"
#include "program.h"

#define SESSION_ANSWER_MAX ((size_t)1 << 20) /* bytes of an answer's printed value */

/* A loaded rule file (or text), kept so that every load can rebuild the whole program. */
typedef struct session_source {
    char *path;
    char *text;
    size_t len;
    uint32_t file_id; /* its diagnostics id (diag_sources) */
    char *real;       /* a file's canonical path (realpath), which says whether two spellings
                           name the same file; NULL for a text source or if unknown */
    ast_file *parsed; /* the tree as parsed, never resolved (load.c): parsed once, copied for
                         each build; its strings are shared by the copies, so it lives as long
                         as the program built from it. NULL until the first build parses it,
                         and when the tree came from the parse cache (image) */
    char *image;      /* the parse cache's image of the text (cache.h), when the first build
                         read the tree from it: each build reads its own tree from it */
    size_t image_len;
    uint64_t key; /* the image's key (cache_key of the text) */
} session_source;

/* A variant's chosen reading, by name (it survives reloads while both names exist). */
typedef struct session_choice {
    char *variant;
    char *reading;
} session_choice;

/* The parameters a handle keeps of its query or fn (more are refused at each call). */
#define HANDLE_MAX_PARAMS 16

struct hon_query_handle {
    char *name;
    uint64_t gen; /* prog_gen when id was looked up */
    bool is_fn;
    uint32_t id;
    /* its parameters as of gen, so that each call checks its arguments without the program:
     * how many, and the first HANDLE_MAX_PARAMS' types and their kinds */
    uint32_t nparams;
    uint32_t ptype[HANDLE_MAX_PARAMS];
    uint8_t pkind[HANDLE_MAX_PARAMS]; /* res_tkind */
};

struct hon_vm {
    hon_config cfg;
    diag_sources sources; /* every text diagnostics may quote: files, typed lines, boards */
    session_source *srcs; /* the loaded rule files, in load order (load.c) */
    size_t nsrcs, srcs_cap;
    prog *pg;      /* never NULL once created */
    bool lazy;     /* hon_build_lazily: the programs it builds are lazy (prog_build) */
    char *edition; /* chosen edition, or NULL for the program's default */
    session_choice *choices;
    size_t nchoices, choices_cap;
    dice_src dice;
    vm_ctx x;
    /* the board: its scene (NULL: none), and the file and text it was loaded from (view.c) */
    scene *sc;
    char *board_path;
    char *board_text;
    size_t board_len;
    /* program generation (bumped by every kept load) and choice generation (also bumped by
     * edition and variant changes): the cached readings and the query handles are valid
     * while they match */
    uint64_t prog_gen, choice_gen;
    /* session_setup's cache: the session's own setup (its board, active edition and readings,
     * owned), valid while setup_gen == choice_gen and setup_ok */
    state_setup setup;
    int32_t *readings;
    uint64_t setup_gen;
    bool setup_ok;
    /* storage for hon_query_info_of's type names */
    char info_types[17][128];
    /* the queries a line of sight asks (los.c): handles looked up by name once (NULL until
     * then, or while the rules declare no such query) */
    hon_query_handle *los_query, *los_squares, *los_sight;
    /* the setting's JSON that session_answer last rendered, kept for the next answers
     * (session.c); allocated with the vm, so that an answer from a const vm can fill it */
    struct setting_memo *setting;
    /* the game played on the board (language.md §6): the clock, the effect log and its
     * history for `undo`; restarted whenever the rules or the board are (re)loaded */
    proc_game game;
    /* while load_under is set, a board being loaded is checked (view.c: may_start_at and its
     * kin) under edition load_ed with the readings load_overrides (-1: the edition's or the
     * session's; NULL: none) instead of the session's: a test's own `edition` and `variant`
     * (testrun.c). Not owned. */
    bool load_under;
    int32_t load_ed;
    const int32_t *load_overrides;
};

struct hon_answer {
    char *text;
    char *json;
    char *trace;
    char *why;        /* the brief trace (trace_brief), or NULL: then `trace` serves */
    char *why_not;    /* the reasons (trace_why_not), or NULL: not traced whole */
    char *refusal;    /* the call that answered forbid, with its rules (hon_answer_refusal), or
                         NULL: none */
    char *note;       /* how the answer was asked (hon_answer_note), or NULL */
    char *setting;    /* the edition and readings it was given under (hon_answer_setting) */
    bool plain;       /* given under the program's default edition, every reading at its default */
    char *fired;      /* the rules that fired (hon_answer_fired), or NULL: not traced */
    char *fired_tree; /* the same in the trace's order, each after its depth (trace_fired's
                         tree: diff.c finds which rules differ first), or NULL */
    char *unreached;  /* the rules a `min`/`max` call decided at an enum's bound never reached,
                        "q.rule" a line (eval.c): diff.c names none of them, or NULL */
};

/* ---- diagnostics ---- */

/* Hands every diagnostic of dl to the vm's on_diag (or stderr), rendered, and empties dl. An
 * out-of-memory error (E199, E209) raised because the session's memory cap refused an
 * allocation is handed on as E230, which says so. */
void session_emit(hon_vm *vm, diag_list *dl);
/* Reports a message about no source position (code: an E_* or E_NONE) as from `path`
 * (NULL: "<board>"); rendered as `hon: error: MESSAGE`. */
void session_report(hon_vm *vm, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Drops the source text registered as `id` (diag_sources_add) once its diagnostics have been
 * emitted, when it is still the newest entry: a session that loads bad boards or is asked new
 * texts again and again keeps bounded memory. UINT32_MAX or an older id: nothing happens. */
void session_forget_source(hon_vm *vm, uint32_t id);
/* Reports error `code` with a message at loc (a span of a registered source). */
void session_report_at(hon_vm *vm, int code, ast_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Reports E213 at path: the board has no unit `$bare` (bare without its `$`), with a "did you
 * mean" naming the board's nearest unit (scene_unit_near) when one is close. */
void session_no_unit(hon_vm *vm, const char *path, const char *bare);
/* Reports the evaluation's error (vm->x.err, E2xx) at its span, with " (the procedure was
 * undone: nothing changed)" after its message when `undone`, and returns its status:
 * HON_ERR_MEMORY for E209, else HON_ERR_RUNTIME. The one mapping of VM errors to statuses. */
hon_status session_error(hon_vm *vm, bool undone);

/* Puts the session's memory cap on the thread's allocator (base/mem.h) and clears the mark
 * of an allocation it refused: done as every load and evaluation begins. */
void session_cap_begin(const hon_vm *vm);
/* After a step that gave st: when the memory cap refused an allocation since
 * session_cap_begin and no diagnostic said so yet, reports E230 at the start of `path`
 * (NULL: "<repl>"; its first line quoted when its text is registered) and returns
 * HON_ERR_MEMORY; else returns st. */
hon_status session_cap_report(hon_vm *vm, hon_status st, const char *path);

/* ---- files ---- */

/* Reads the whole file at `path` into a new NUL-terminated buffer (*text, free with mem_free;
 * *len bytes). A file that cannot be read (missing, a directory, larger than 64 MiB) is
 * reported with error `code` as `hon: error: cannot read …` and gives HON_ERR_IO;
 * HON_ERR_MEMORY when memory runs out. Shared by rule files and boards. */
hon_status session_read_file(hon_vm *vm, const char *path, int code, char **text, size_t *len);
/* session_read_file with a bound of max bytes (a larger file: `file too large`). */
hon_status session_read_file_max(hon_vm *vm, const char *path, int code, size_t max, char **text,
                                 size_t *len);
/* session_read_file with the error (not memory running out) reported at loc: where the path is
 * written (a test's `board "PATH"`). */
hon_status session_read_file_at(hon_vm *vm, const char *path, int code, ast_loc loc, char **text,
                                size_t *len);
/* The paths "dir/NAME" of the directory's files whose NAME ends with suffix (".hon"), hidden
 * ones left out, sorted, in a new array of new strings (*n of them; free each and the array).
 * HON_ERR_IO when the directory cannot be opened (reported when vm is not NULL),
 * HON_ERR_MEMORY (then *out holds the names read so far). load.c. */
hon_status load_list_dir(hon_vm *vm, const char *dir, const char *suffix, char ***out, size_t *n);
/* The text of diagnostics source `file` (borrowed) and its length, or NULL. */
const char *session_source_text(const hon_vm *vm, uint32_t file, size_t *len);

/* ---- editions, variants, evaluations ---- */

/* The active edition: the chosen one while it exists, else the program's default (-1: none). */
int32_t session_edition(const hon_vm *vm);
/* hon_apply_setting of a setting standing at column col of line `line` of the registered
 * source `file` (a snapshot's header), so that its diagnostics point there. */
hon_status choice_apply_setting_at(hon_vm *vm, const char *setting, uint32_t file, uint32_t line,
                                   uint32_t col);
/* After a load: forgets the chosen edition when the program no longer declares it, and each
 * variant choice whose variant or reading it no longer declares, so that the session is on
 * what it answers under (the default edition, the edition's reading) and a later load that
 * declares them again does not bring them back unasked. */
void session_forget_stale_setting(hon_vm *vm);
/* The reading of every variant under edition ed with the vm's choices; overrides (per variant,
 * -1 = none: a test's) win. Returns a new array (NULL when there are no variants, or on OOM:
 * then *oom is set). */
int32_t *session_readings(const hon_vm *vm, int32_t ed, const int32_t *overrides, bool *oom);
/* The setup of an evaluation with the session's program and limits on board sc (NULL: none)
 * under edition ed and readings (borrowed). */
state_setup session_setup_with(const hon_vm *vm, const scene *sc, int32_t ed,
                               const int32_t *readings);
/* The session's own setup: its board, its active edition and variant readings (cached in the
 * vm until the program, the board, the edition or the variants change). Borrowed until then;
 * NULL on OOM. */
const state_setup *session_setup(hon_vm *vm);
/* session_begin's every case but its common one (session.c): the setup made (session_setup)
 * or given, then state_begin. */
hon_status session_begin_setup(hon_vm *vm, const state_setup *s, bool tracing);
/* session_begin's common case: whether an evaluation under the session's own setup may start
 * from what the last one set (state_restart), that setup still good and the last evaluation
 * begun under it with the memo still keyed to it (x.begun, state.h). */
/* The one set-up of an evaluation: starts one on vm->x with the session's dice, under s (a
 * test's board, edition and readings) or, when s is NULL, the session's own setup. HON_OK, or
 * HON_ERR_MEMORY (nothing started). End it with state_end(&vm->x). Its common case inline
 * (every call from C begins so): the session's own setup, still good, under which the last
 * evaluation began too with the memo still keyed to it (x.begun, state.h): the evaluation
 * starts from what that one set (state_restart); else session_begin_setup. */
static inline bool session_restartable(const hon_vm *vm)
{
    return vm->setup_ok && vm->setup_gen == vm->choice_gen && vm->x.begun == vm->setup.setting &&
           vm->x.memo.setting == vm->x.begun;
}
static inline hon_status session_begin(hon_vm *vm, const state_setup *s, bool tracing)
{
    if (!s && session_restartable(vm)) {
        session_cap_begin(vm);
        state_restart(&vm->x, tracing);
        return HON_OK;
    }
    return session_begin_setup(vm, s, tracing);
}

/* session_compile of the len bytes of text standing on line `line` of the diagnostics source
 * id (registered by the caller: a question file), so that its diagnostics name that file,
 * line and column; with `quiet` its diagnostics are dropped. */
hon_status session_compile_at(hon_vm *vm, const char *text, size_t len, uint32_t id, uint32_t line,
                              bool procedure, bool quiet, chunk **ch, ast_file **f, uint32_t *type);
/* What to do with compiled text (session_run_text): run chunk ch (an expression of type
 * `type`, or a procedure), with ud, answering in *out. */
typedef hon_status (*session_run)(hon_vm *vm, const chunk *ch, uint32_t type, void *ud,
                                  hon_answer **out);
/* Compiles text typed at `where` (NULL: "<repl>"): an expression, or with `procedure` a call
 * `EVENT(args)`; when it compiled, runs it with run; frees the chunk and its tree after. *out
 * (when out is not NULL) is NULL unless run answered. The status is the compiler's (errors
 * reported: HON_ERR_COMPILE, HON_ERR_MEMORY, HON_ERR_NOT_FOUND for a NULL vm or text) or
 * run's. */
hon_status session_run_text(hon_vm *vm, const char *text, const char *where, bool procedure,
                            session_run run, void *ud, hon_answer **out);

/* ---- the game ---- */

/* Starts game gm on scene sc (borrowed, may be NULL) with the session's chooser and stepper. */
void session_game_start(hon_vm *vm, proc_game *gm, scene *sc);
/* (Re)starts the session's game on its board: after a load of the rules or of the board. */
void session_new_game(hon_vm *vm);

/* ---- answers ---- */

/* A new answer owning text, json and trace (all three freed on failure), given under edition
 * ed and readings (borrowed; NULL: every variant at its default): its JSON object starts
 * with "edition" and "readings" (every variant's), hon_answer_setting says them. NULL when
 * any is NULL (memory ran out) or on OOM. */
hon_answer *session_answer(const hon_vm *vm, int32_t ed, const int32_t *readings, char *text,
                           char *json, char *trace);
/* The setting ed/readings as text: "edition harbor_hills; contour_adjacency = any_red_line"
 * (the readings other than their variant's declared default or than edition ed sets them
 * to: an override of the edition's reading is named even when it is the declared default),
 * "no edition" without one. */
void session_setting_text(const hon_vm *vm, int32_t ed, const int32_t *readings, strbuf *b);
/* The first line of a trace given under ed/readings: "(under SETTING)\n" when they are not the
 * program's default edition with every reading at its default and as that edition sets it;
 * nothing when they are. */
void session_trace_header(const hon_vm *vm, int32_t ed, const int32_t *readings, strbuf *b);
/* The reasons of the running evaluation's trace (trace_why_not after session_trace_header) and
 * its refusal (trace_refusal's call as trace_why_not_at writes it, NULL when nothing was
 * refused), as new strings into *why_not and *refusal, for hon_answer_why_not and
 * hon_answer_refusal; render before the evaluation's arena is reset. False on OOM (both NULL
 * then). */
bool session_reasons(hon_vm *vm, char **why_not, char **refusal);

#endif
