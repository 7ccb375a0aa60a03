/* hon.h — the embedding API of hon, the Heroes of Normandie rules interpreter.
 *
 * Load .hon rule files, choose an edition and variants, load a board (a scenario file),
 * evaluate expressions and queries (from text, or from C without parsing), read the answer and
 * its trace, compute exact dice odds, run the .hon tests, draw the board, play (run procedures
 * — events and their effects — on the board, undo them, ask their odds), and compare two
 * settings' answers or pin a setting's answers in a snapshot. The `hon`
 * program (repl/) uses nothing but this header. All functions are safe to call with any input:
 * errors come back as HON_ERR_* and diagnostics, never as a crash or exit().
 *
 * Ownership: a hon_vm owns everything it loads. Objects returned as `hon_answer *` are owned by
 * the caller and freed with hon_answer_free. Strings given to callbacks are borrowed for the
 * duration of the call.
 *
 * Sections: the vm and its configuration; loading rules and what is loaded; evaluating and the
 * answers; editions and variants; listing and showing rules; tests; the board and its pictures;
 * line of sight; completion; calling queries from C; playing; diff and snapshots; the build.
 * Each is implemented in the interp/ file of its job (interp/session.h lists them).
 */
#ifndef HON_H
#define HON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hon_vm hon_vm;
typedef struct hon_answer hon_answer;

typedef enum hon_status {
    HON_OK = 0,
    HON_ERR_COMPILE,   /* the source had errors; diagnostics were reported; state unchanged */
    HON_ERR_RUNTIME,   /* evaluation stopped with an error (E2xx); diagnostics were reported */
    HON_ERR_IO,        /* a file could not be read or written */
    HON_ERR_NOT_FOUND, /* no such edition, variant, reading, rule... */
    HON_ERR_MEMORY
} hon_status;

typedef enum hon_severity {
    HON_ERROR,
    HON_WARNING,
    HON_NOTE
} hon_severity;

/* One diagnostic, borrowed for the duration of the callback. */
typedef struct hon_diag {
    int code; /* 12 for E012; 1001 for W001, a warning of hon_lint */
    hon_severity severity;
    const char *path;           /* file, or "<repl>" for typed input */
    unsigned line, col;         /* from 1 */
    const char *message;        /* the bare message */
    const char *rendered;       /* "path:line:col: error[E012]: message\n<line>\n<caret>\n" */
    unsigned end_line, end_col; /* where its span ends (inclusive); line and col when it has
                                   no span of its own */
} hon_diag;

typedef struct hon_config {
    /* Receives every diagnostic. NULL: rendered text goes to stderr. */
    void (*on_diag)(void *userdata, const hon_diag *d);
    void *userdata;
    uint64_t seed;        /* seed of the dice source; 0 picks 1 */
    uint64_t step_budget; /* VM steps per top-level evaluation; 0 = default (10,000,000) */
    /* Nested query/function calls; 0 = default (200). Each nested query takes C stack, so
     * hon_set_cap (and the command line) allow at most 1,000; a program may set more here. */
    unsigned max_depth;
    /* Items of a list built at run time (E229); 0 = default (1,000,000). */
    size_t max_list;
    /* Bytes the session may hold, loading included (E230): the cap of the thread's allocator,
     * set by the session that last loaded or evaluated in it; 0 = default (1 GiB). */
    size_t max_memory;
    /* (docs/spec/language.md §6) Asked when a procedure lets a player
     * choose: the question, the side that chooses (its name; "" when none) and the n legal
     * options as the language prints them. Returns the index taken (0 .. n-1), or -1 to abandon
     * the procedure (E225; its effects are undone). An index out of range is refused and the
     * question asked again with the reason in front, at most 3 times (then E221). NULL: the
     * first legal option is taken. The chooser (and on_effect) run in the middle of a
     * procedure: they must not call back into the hon_vm. */
    int (*chooser)(void *userdata, const char *question, const char *side,
                   const char *const *options, size_t n);
    /* Called with each effect's line before the effect is applied (a step mode); returning
     * false abandons the procedure (E225; its effects are undone). NULL: never called. */
    bool (*on_effect)(void *userdata, const char *line);
    /* Called as a procedure is about to ask the chooser, with the lines (effects, notes, rolls;
     * each ending in a newline) it wrote since it began or since the last call: what led to
     * the question, for the player to see before answering (the roll before the choice it
     * made possible). The procedure's answer still holds every line. Not called when there is
     * no new line, nor for a choice the chooser is not asked. NULL: never called. */
    void (*before_choice)(void *userdata, const char *lines);
} hon_config;

/* Creates an interpreter with no rules loaded. cfg may be NULL for defaults. NULL on OOM. */
hon_vm *hon_vm_new(const hon_config *cfg);
/* A new interpreter with vm's configuration and its rule files (their texts as loaded, in the
 * same order, built in one step), its edition and its variant choices; no board, a new game.
 * NULL on OOM or when the files no longer build (reported). Two sessions of the same rules,
 * one per setting, are what hon_diff compares. */
hon_vm *hon_vm_copy(const hon_vm *vm);
/* Frees vm and everything it owns; accepts NULL. */
void hon_vm_free(hon_vm *vm);

/* Loads a .hon file. All or nothing: the whole program (every file loaded so far plus this
 * one) is re-resolved and recompiled; on any error the diagnostics are reported and the vm
 * keeps exactly the program it had. */
hon_status hon_load_file(hon_vm *vm, const char *path);
/* Same, from memory; `name` is the path diagnostics show. */
hon_status hon_load_source(hon_vm *vm, const char *name, const char *text, size_t len);
/* Loads every *.hon file of a directory, in name order, as one all-or-nothing step. */
hon_status hon_load_dir(hon_vm *vm, const char *dir);
/* Loads n directories as n calls of hon_load_dir in order would, stopping at the first that
 * fails (those before it stay loaded, its diagnostics are reported), but builds the program
 * once when they all load, not once per directory (start-up loads rules/ and expansions/ so:
 * docs/spec/bench.md §9). Warnings of the build are reported once. *loaded (when not NULL):
 * how many directories were loaded. The status of the first that failed, or HON_OK. */
hon_status hon_load_dirs(hon_vm *vm, const char *const *dirs, size_t n, size_t *loaded);
/* Parses and resolves a file against the loaded program without keeping it (`hon check`). */
hon_status hon_check_file(hon_vm *vm, const char *path);
/* Calls fn (when not NULL) with the path of each rule file the program holds — as it was given
 * to hon_load_file, "DIR/NAME.hon" for hon_load_dir's, the name of a hon_load_source — in load
 * order (a file loaded again keeps its place and takes the new spelling). Returns how many
 * there are (0 for a NULL vm). */
size_t hon_each_file(const hon_vm *vm, void (*fn)(void *ud, const char *path), void *ud);
/* `hon lint` (docs/spec/errors.md, "Warnings of hon lint"): reports, as warnings W001-W007 through
 * on_diag, what the loaded program says that its author likely did not mean: fns, tables, enums,
 * markers and variants nothing reads, constant guards, rules that never fire, two rules of a
 * `first` or permission query that hold on one input and disagree at the same priority, inputs
 * no rule answers with no default, `?` cells a query reaches. Queries whose parameters are
 * enums, bools or ints (tried around the ints their rules write) are run on every input, with
 * no board and under the active edition; each warning found so names an input. Only the
 * warnings in the loaded files named by paths (npaths of them: files, or directories holding
 * them; 0: every loaded file) are reported. *warnings (when not NULL) gets how many were.
 * HON_OK, HON_ERR_NOT_FOUND for a NULL vm, HON_ERR_MEMORY. */
hon_status hon_lint(hon_vm *vm, const char *const *paths, size_t npaths, size_t *warnings);

/* `hon fmt` (docs/spec/format.md): lays out the .hon text (len bytes; `name` is the path its
 * diagnostics show) in the canonical layout, keeping its tokens, comments and line breaks,
 * and its line ending: CR LF when more of its lines end so than in LF, else LF. On HON_OK *out is a new NUL-terminated string of *out_len bytes (out_len may be NULL), freed
 * with hon_text_free. Text with a syntax error is refused: the errors go to on_diag, *out is
 * NULL and the status HON_ERR_COMPILE (as for a layout that would not keep the tokens, which
 * would be a bug). HON_ERR_NOT_FOUND for a NULL argument, HON_ERR_MEMORY. Only parses: the
 * loaded program is neither read nor changed. */
hon_status hon_format(hon_vm *vm, const char *name, const char *text, size_t len, char **out,
                      size_t *out_len);
/* Frees a string hon_format returned; accepts NULL. */
void hon_text_free(char *s);

/* Evaluates an expression (a query call, a table lookup, any expression of the language) typed
 * at `where` (e.g. "<repl>"). On HON_OK *out holds the answer and its trace in every form
 * (hon_eval_as with HON_WANT_ALL). */
hon_status hon_eval(hon_vm *vm, const char *expr, const char *where, hon_answer **out);

/* The forms of an answer's trace, one bit each, that hon_eval_as and hon_los_as render. The
 * evaluation records its trace only when one is asked: recording it and rendering every form
 * costs many times the evaluation itself (docs/spec/bench.md §11). */
enum {
    HON_WANT_JSON = 1u,    /* the trace inside hon_answer_json (else its "trace" is null) */
    HON_WANT_TRACE = 2u,   /* hon_answer_trace (else its setting line alone) */
    HON_WANT_WHY = 4u,     /* hon_answer_why (else "") */
    HON_WANT_WHY_NOT = 8u, /* hon_answer_why_not and hon_answer_refusal (else "") */
    HON_WANT_FIRED = 16u,  /* hon_answer_fired (else "") */
    HON_WANT_ALL = 31u
};
/* hon_eval, with only the forms of the trace that want (HON_WANT_* or-ed; 0: none) asks for:
 * the answer's text, setting and JSON value are the same whatever is asked. */
hon_status hon_eval_as(hon_vm *vm, const char *expr, const char *where, unsigned want,
                       hon_answer **out);
/* Enumerates every die face the expression rolls and gives the exact distribution of its
 * results (the answer's text lists "value: probability" lines; json has fractions). */
hon_status hon_odds(hon_vm *vm, const char *expr, const char *where, hon_answer **out);

/* The answer as the language prints it ("7", "forbid", "{map_a, map_b}"). Borrowed. */
const char *hon_answer_text(const hon_answer *a);
/* The answer and its trace as one JSON object {"edition":…,"readings":{…},"value":…,"type":…,
 * "trace":[…]}. Borrowed. */
const char *hon_answer_json(const hon_answer *a);
/* The complete trace (`why full`): every call, every rule checked, in order, with their
 * contributions and citations; a rule that did not fire with the operand of its guard that
 * was false ("rule q.r: did not fire: x > 0 was false (x = 0)   (cites)", docs/spec/repl.md
 * §2c). Borrowed. */
const char *hon_answer_trace(const hon_answer *a);
/* The brief trace, as `why` prints it (docs/spec/repl.md §2b). A
 * top-level query call with every rule checked (as hon_answer_trace); below it only the rules
 * that fired, recursively, with their answers and citations; a nested call that no rule
 * answered on one line ("f(x) = 2   (no rule fired: checked a, b)"); identical sibling calls
 * once with a count ("   ×5"); records, lists and sets longer than about 40 characters cut to
 * their first items ("shot{from: B6, to: D2, …}"). The complete values stay in the JSON. For
 * answers with no brief form (odds, procedures run without `why`) it is hon_answer_trace.
 * Borrowed. */
const char *hon_answer_why(const hon_answer *a);
/* The reasons, as `why not` prints them (docs/spec/repl.md §2c): the calls (and events) of
 * the trace with every rule each checked, at every depth — a rule that did not fire with the
 * operand of its guard that was false and the values it compared ("rule may.neg: did not
 * fire: x < 0 was false (x = 3)   (P.1)"; "did not fire: unless E held" for an exception
 * that applied), a rule that fired with its answer, the guard that held and its citations
 * ("rule may.wreck: forbid, since has(sq, wreck)   (W.1)") — and the closing line of a call
 * no rule answered; no table lookups; values cut and repeats counted as in hon_answer_why.
 * "" for an answer not traced whole (odds, plain procedures, the answers hon_diff asks
 * again). Borrowed. */
const char *hon_answer_why_not(const hon_answer *a);
/* The refusal in the answer's trace, when a `permission` query answered forbid in it (the
 * shallowest such call, the last of those: interp/trace.h trace_refusal): that call and the
 * rules it checked, as hon_answer_why_not writes them — the rule that forbade with its
 * citations and the guard that held ("rule can_enter.wreck: forbid, since has(sq, wreck)
 * (W.1)"), each exception that did not fire with the operand that was false — without what
 * they asked. "" when nothing was refused, or the answer was not traced whole. Borrowed. */
const char *hon_answer_refusal(const hon_answer *a);
/* The rules that fired anywhere in the answer's trace, each once with what it answered
 * ("line_of_sight.best_line = clear"; values cut as in the brief trace), one per line, sorted;
 * "" for an answer that was not traced (odds, procedures). Comparing two answers' lists says
 * which rules answered differently (hon_diff). Borrowed. */
const char *hon_answer_fired(const hon_answer *a);
/* How the answer was asked, when the call chose for the caller (hon_los: "E1 holds $b: asking
 * line_of_sight($a, $b)"), or NULL. Borrowed. */
const char *hon_answer_note(const hon_answer *a);
/* The edition and variant readings the answer was given under, as one line: "edition
 * harbor_hills; contour_adjacency = any_red_line" — the readings other than their variant's
 * declared default or than the edition sets (`set variant`: a reading chosen over the
 * edition's is named even when it is the declared default) — or "no edition" when none was
 * active (every module's rules, no revision). The JSON has the same as "edition" and
 * "readings" (every variant's), and the traces start with "(under SETTING)" when it is not the
 * program's default edition with every reading at its default and as that edition sets it
 * (docs/spec/language.md §3.8). Borrowed. */
const char *hon_answer_setting(const hon_answer *a);
/* Whether the answer was given under the program's default edition with every reading at its
 * default and as that edition sets it (the REPL then says nothing of the setting; else it prints "(under SETTING)" after
 * the answer). True for NULL. */
bool hon_answer_default_setting(const hon_answer *a);
void hon_answer_free(hon_answer *a);

/* Editions (docs/spec/language.md §3.8). The active edition defaults to the program's
 * `default edition`; NULL or "" goes back to it (with none declared: no edition, every
 * module's rules unrevised). HON_ERR_NOT_FOUND for an unknown name. The loaded board is built
 * again under the edition, as loading it would be (its set-up checks: E318, E319, E320): when
 * the edition would refuse it, its errors are reported, the edition stays as it was and the
 * board's status is returned (HON_ERR_COMPILE; HON_ERR_RUNTIME when a check's rule fails). A
 * board loaded with other counters than the chosen edition's (`revise counter`) is loaded again
 * with its, and its game restarts; else the board and its game are kept. */
hon_status hon_set_edition(hon_vm *vm, const char *name);
const char *hon_edition(const hon_vm *vm); /* borrowed; NULL when none is declared */
/* Calls fn for each edition: name, parents (the editions it extends, comma-separated: "a" or
 * "a, b"; NULL for a root), title. */
void hon_each_edition(const hon_vm *vm,
                      void (*fn)(void *ud, const char *name, const char *parent, const char *title),
                      void *ud);
/* Calls fn for each module the edition `name` names in its own `uses` clause (language.md
 * §3.8), in the order written: not those it has through the editions it extends. Nothing for an
 * unknown name or one that names none. The module names are borrowed. */
void hon_each_edition_use(const hon_vm *vm, const char *name,
                          void (*fn)(void *ud, const char *module), void *ud);

/* Applies a *setting* (docs/spec/repl.md, "Settings"): `EDITION`, or `EDITION,NAME=READING,...`
 * (an empty EDITION: the program's default edition). The edition is selected and every
 * variant gets the reading the setting names, or else its edition's default: choices made
 * before are forgotten. `where` names the text in diagnostics ("<command-line>"). A setting
 * that does not parse (E401), an unknown edition (E402), variant (E403) or reading (E404) is a
 * diagnostic with the column, and HON_ERR_NOT_FOUND: then nothing was changed. */
hon_status hon_apply_setting(hon_vm *vm, const char *setting, const char *where);

/* Variants: select a reading (NULL: the variant's default); the choice survives reloads while
 * the reading exists. A loaded board that the reading would refuse at load (its set-up checks)
 * is kept, as is the reading before: its errors are reported and its status returned
 * (HON_ERR_COMPILE), as hon_set_edition does. hon_apply_setting does not look at the board. */
hon_status hon_set_variant(hon_vm *vm, const char *variant, const char *reading);
/* Calls fn for each variant with its active reading and its documentation. */
void hon_each_variant(const hon_vm *vm,
                      void (*fn)(void *ud, const char *variant, const char *reading,
                                 const char *doc),
                      void *ud);

/* Describes one rule of the active edition (or of a module no edition uses:
 * hon_list_unused_rules). */
typedef struct hon_rule_info {
    const char *name; /* "query.rule" */
    const char *query;
    const char *doc;
    const char *cites; /* "BRO.5.speed-penalty (BRO 5, Speed Penalty); …" */
    const char *path;  /* file it was declared in */
    unsigned line;
    const char *edition; /* edition that added, replaced or revised it, or NULL for the base */
    const char *module;  /* the module of the file its text is in, NULL for the unnamed one */
} hon_rule_info;

/* Calls fn for each rule of the active edition whose name, doc or citations contain `word`
 * (case-insensitive; NULL or "" matches all). Returns the number listed. */
size_t hon_list_rules(const hon_vm *vm, const char *word,
                      void (*fn)(void *ud, const hon_rule_info *r), void *ud);
/* Calls fn, as hon_list_rules does, for each rule of a module that no edition uses (warning
 * E147: named in no edition's `uses`) whose name, doc or citations contain `word`: such rules
 * never run under an edition, so the active edition's list has none of them. None when no
 * edition is active (the editionless session applies every module: hon_list_rules lists them).
 * Returns the number listed. */
size_t hon_list_unused_rules(const hon_vm *vm, const char *word,
                             void (*fn)(void *ud, const hon_rule_info *r), void *ud);
/* One citation ID of the loaded program (hon_each_citation); strings borrowed for the call. */
typedef struct hon_citation {
    const char *id;     /* "BRO.1.1.universal-bonus" */
    const char *source; /* its declared source text ("Bloody Omaha 1.1, ..."), or NULL */
    const char *path;   /* the file of its `source` declaration, and the line */
    unsigned line;
    size_t cites; /* how many cites name it: of rules, editions' rules and revisions, tables and
                     table rows, in every edition and every loaded file */
} hon_citation;
/* Calls fn for each citation ID the loaded program declares with `source` (language.md
 * §3.6), in declaration order, with how many cites name it. Returns the number of IDs, or 0
 * when memory ran out while counting (fn is then not called). */
size_t hon_each_citation(const hon_vm *vm, void (*fn)(void *ud, const hon_citation *c), void *ud);
/* Writes the source text of a rule (or query, table, fn) and its description to out. */
hon_status hon_show(const hon_vm *vm, const char *name, FILE *out);
/* Writes the bytecode listing of a rule, query or fn to out. */
hon_status hon_disassemble(const hon_vm *vm, const char *name, FILE *out);

/* Runs the `test` blocks of the loaded program (only those declared in `path` when it is not
 * NULL), writing one line per failure and a closing "N passed, N failed" line to out. The
 * counts are stored in *passed / *failed when not NULL. Returns HON_OK when all pass. */
hon_status hon_run_tests(hon_vm *vm, const char *path, FILE *out, size_t *passed, size_t *failed);

/* One test block's outcome (hon_run_tests_each); strings borrowed for the call. */
typedef struct hon_test_result {
    const char *title; /* the test's title */
    const char *path;  /* the file declaring it, and the position of its `test` */
    unsigned line, col;
    bool passed;
    const char *failures; /* the lines hon_run_tests would write for it ("" when it passed) */
} hon_test_result;
/* Runs the `test` blocks of the loaded program declared in `path` (NULL: every file) whose
 * title contains `filter` (NULL: all), calling fn (when not NULL) with each one's result in
 * load order, and stores the counts in *passed / *failed when not NULL. Returns HON_OK when
 * all that ran passed, HON_ERR_RUNTIME when one failed, HON_ERR_MEMORY when memory ran out
 * (the tests after it are not run). */
hon_status hon_run_tests_each(hon_vm *vm, const char *path, const char *filter,
                              void (*fn)(void *ud, const hon_test_result *r), void *ud,
                              size_t *passed, size_t *failed);

/* One expectation of a loaded test (hon_each_expectation); strings borrowed for the call. */
typedef struct hon_expectation {
    const char *test; /* the test's title */
    const char *path; /* the file of the `expect`, and its position */
    unsigned line, col;
    const char *question; /* what it asks, as written: the left side of `expect a == b`,
                             else the whole expression */
    const char *board;    /* the test's board as the runner opens it (relative to the test's
                             file), or NULL: the session's board */
    const char *edition;  /* the test's edition, or NULL */
    bool plays;           /* the test plays (do, advance, move, dice or choices): its
                             expectations are asked after its procedures */
} hon_expectation;
/* Calls fn (when not NULL) with each `expect` of the loaded tests, in load order; returns
 * how many there are. */
size_t hon_each_expectation(hon_vm *vm, void (*fn)(void *ud, const hon_expectation *e), void *ud);

/* Reseeds the dice source. */
void hon_set_seed(hon_vm *vm, uint64_t seed);

/* ---- the board (docs/spec/language.md §5, board.md) ----
 * A session holds at most one board: a scenario file loaded against the rules. Its names
 * (terrain, features, markers, counters, armies) must be declared in the loaded .hon files;
 * its units become `$name` in expressions. Loading rules rebuilds the board from its text (its
 * game restarts): when the board would not load under them (a name it uses gone, a set-up check
 * refusing it), the rules are not loaded (its E3xx diagnostics and E317 are reported) and the
 * session's rules, board and game stay as they were. */

/* Loads a scenario file as the session's board. All or nothing: on any error (E3xx, reported
 * with file, line and column like the compiler's) the previous board stays. */
hon_status hon_load_board(hon_vm *vm, const char *path);
/* Same, from memory; `name` is the path diagnostics show. */
hon_status hon_load_board_source(hon_vm *vm, const char *name, const char *text, size_t len);
/* Reads and builds the scenario at `path` against the loaded rules without keeping it (`hon
 * check board.scn`): HON_OK when it would load, else the diagnostics hon_load_board reports
 * and its status. The session's board is untouched either way. */
hon_status hon_check_board(hon_vm *vm, const char *path);
/* Forgets the board (no effect when there is none). */
void hon_drop_board(hon_vm *vm);
/* The path of the loaded board (borrowed), or NULL when none is loaded. */
const char *hon_board_path(const hon_vm *vm);

/* Draws the board as text (docs/spec/board.md §5) to out. When line_from and line_to are not
 * NULL, the line between them is traced and drawn; each is a scenario unit (`$rifle1`) or a
 * square (`@C4` or `C4`). When the rules ask a line of sight between them (hon_los's
 * question, asked again traced), its verdict, the rule that decided it and the square or side
 * where it did are said under the picture (board.md §5, Verdict; nothing is reported when
 * they ask none). HON_ERR_NOT_FOUND (with a diagnostic) for no board or an unknown unit or
 * square; HON_ERR_IO when writing fails. */
hon_status hon_draw_board(hon_vm *vm, FILE *out, const char *line_from, const char *line_to);
/* hon_draw_board in a window of the board's columns (board.md §5): centred on the column of
 * `centre` (a unit or square as line_from; NULL: none), and with no line of the grid wider
 * than `columns` characters (0 or less: no limit); a line under the grid names the columns
 * shown and those left out (the SVG's window is hon_board_svg_window's). Errors as
 * hon_draw_board (an unknown centre as an unknown end). */
hon_status hon_draw_board_window(hon_vm *vm, FILE *out, const char *line_from, const char *line_to,
                                 const char *centre, int columns);
/* The same picture as a standalone SVG document: the verdict as a caption, the deciding square
 * or side marked in blue and the line dashed red past it. */
hon_status hon_board_svg(hon_vm *vm, FILE *out, const char *line_from, const char *line_to);
/* hon_board_svg of a part of the board (board.md §5, SVG windows): `window` is a place (a unit
 * or square as line_from): the squares within 5 columns and rows of it; or two places joined
 * by "..", the corners of a rectangle of squares ("C2..H6", "$a..$b"); NULL: the whole board.
 * What stands on the part is drawn, cut at its edges, with a legend of that alone and a line
 * naming the squares shown. Errors as hon_board_svg (a window's place as an unknown end). */
hon_status hon_board_svg_window(hon_vm *vm, FILE *out, const char *line_from, const char *line_to,
                                const char *window);

/* The unit id of a scenario unit (`$rifle1` or `rifle1`) or of a counter (`sherman`), or -1. */
int32_t hon_unit_id(const hon_vm *vm, const char *name);
/* Calls fn (when not NULL) with each counter of the program, in declaration order: its name,
 * its kind's name (NULL when it has none) and how many squares it covers (1 or 2); strings
 * borrowed for the call. Returns how many counters there are. */
size_t hon_each_counter(const hon_vm *vm,
                        void (*fn)(void *ud, const char *name, const char *kind, unsigned size),
                        void *ud);
/* Sets a `value` slot of unit `unit` (a counter, or a unit of the board) to v. Values of board
 * units last until the board or the rules are reloaded. HON_ERR_NOT_FOUND for an unknown unit
 * or value name. */
hon_status hon_unit_set_value(hon_vm *vm, int32_t unit, const char *value, int64_t v);
/* The index (in declaration order) of `member` in the enum `enum_name` (a declared enum or a
 * built-in one: kind, side, ability, marker, token, terrain, square_feature, side_feature,
 * interspace_item, direction), or -1. */
int32_t hon_member_id(const hon_vm *vm, const char *enum_name, const char *member);

/* ---- calling queries and functions from C ---- */

/* What kind of type a type is (hon_query_info): the scalars, the places of a board, an enum
 * (a declared or built-in one, or a variant's readings: its name is the type's name), and the
 * types made of others. */
typedef enum hon_type_kind {
    HON_T_INT,
    HON_T_BOOL,
    HON_T_VERDICT,
    HON_T_UNIT,
    HON_T_SQUARE,
    HON_T_SIDE,    /* square_side */
    HON_T_ELEMENT, /* a terrain element of the board */
    HON_T_ENUM,
    HON_T_SET,
    HON_T_LIST,
    HON_T_RECORD,
    HON_T_OTHER
} hon_type_kind;

/* The signature of a query or fn: its parameter and result types as the language writes
 * them ("unit", "square", "list<step>"...) and their kinds. Strings are borrowed until the
 * next load or the next hon_query_info_of. */
typedef struct hon_query_info {
    const char *name;
    bool is_fn;
    size_t nparams;
    const char *param_names[16];
    const char *param_types[16]; /* the first 16 parameters */
    const char *result_type;
    hon_type_kind param_kinds[16];
    hon_type_kind result_kind;
} hon_query_info;
/* Describes the query (or, failing that, the fn) `name`; HON_ERR_NOT_FOUND when neither
 * exists. */
hon_status hon_query_info_of(hon_vm *vm, const char *name, hon_query_info *out);
/* Calls fn (when not NULL) with each member of the enum named `enum_name` (as
 * hon_query_info's types name it: a declared enum, a built-in one such as `side` or `terrain`,
 * or a variant, whose readings are its members), in declaration order, with its index (the
 * hon_value of a HON_V_MEMBER, hon_member_id's) and name (borrowed for the call). Returns how
 * many members there are: 0 for no such enum. */
size_t hon_each_member(const hon_vm *vm, const char *enum_name,
                       void (*fn)(void *ud, int32_t index, const char *name), void *ud);

/* A value passed to or returned by hon_call_query. Scalars only: lists and records come back
 * as HON_V_OTHER (use hon_eval for them). */
typedef enum hon_value_kind {
    HON_V_INT,
    HON_V_BOOL,
    HON_V_VERDICT, /* i: the number, 0/1, 0 forbid / 1 permit */
    HON_V_UNIT,    /* i: a unit id (hon_unit_id) */
    HON_V_SQUARE,  /* i: HON_SQUARE(x, y) */
    HON_V_MEMBER,  /* i: a member index (hon_member_id) */
    HON_V_OTHER,   /* a list, set or record (hon_call_query_text prints it) */
    HON_V_SIDE,    /* i: a square side of the board (hon_each_board_thing) */
    HON_V_ELEMENT  /* i: a terrain element of the board (hon_each_board_thing) */
} hon_value_kind;
typedef struct hon_value {
    hon_value_kind kind;
    int64_t i;
} hon_value;
/* The square at column x (A = 0) and row y (row 1 = 0), for HON_V_SQUARE. */
#define HON_SQUARE(x, y) ((int64_t)((uint64_t)(uint32_t)(y) << 32 | (uint32_t)(x)))
/* Calls fn (when not NULL) with each thing of the loaded board of one kind, in board order,
 * with its value (for hon_call_query) and its name as an expression writes it (borrowed for
 * the call): HON_V_UNIT the board's units (`$rifle1`, in the scenario's order), HON_V_SQUARE
 * its squares (`@A1`, `@B1`, ... row by row), HON_V_SIDE its square sides and HON_V_ELEMENT
 * its terrain elements, which have no literal and are named as printed (`C4/C5`, `A1:N`;
 * `hill1`). Returns how many there are: 0 with no board or for another kind. */
size_t hon_each_board_thing(const hon_vm *vm, hon_value_kind kind,
                            void (*fn)(void *ud, hon_value v, const char *name), void *ud);

typedef struct hon_query_handle hon_query_handle;
/* Looks up a query (or, failing that, a fn) by name once, for repeated hon_call_query calls.
 * Returns a new handle (free with hon_query_handle_free), or NULL when there is no such name
 * (or on OOM). A handle stays valid across loads: it is looked up again by name when the
 * program changed. */
hon_query_handle *hon_lookup_query(hon_vm *vm, const char *name);
void hon_query_handle_free(hon_query_handle *h);
/* Asks the query (through its rules, under the active edition and variants, on the loaded
 * board) or calls the fn with n arguments, without parsing text and without a trace. Each
 * argument's kind must fit its parameter's type (a member must be of the parameter's enum).
 * On HON_OK *out holds the result. Errors: HON_ERR_NOT_FOUND (the name no longer exists, or
 * the arguments do not fit: reported as a diagnostic), HON_ERR_RUNTIME (an E2xx, reported),
 * HON_ERR_MEMORY. */
hon_status hon_call_query(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                          hon_value *out);
/* hon_call_query for programs that ask many questions and compare the answers (hon_diff): the
 * same call, untraced, but a run-time error is an answer, not a diagnostic, and any answer can
 * be printed. When buf is not NULL (cap bytes, cap > 0) it receives the answer as the language
 * prints it ("blocked", "[1, 2]", "shot{from: B6, ...}"; cut to fit), or for a run-time error
 * "error E215: MESSAGE"; when it is NULL nothing is printed (a scalar answer needs no text: *out
 * holds it). Returns HON_OK; HON_ERR_RUNTIME for an E2xx (nothing reported; *out is
 * {HON_V_OTHER, the code}); HON_ERR_NOT_FOUND and HON_ERR_MEMORY as hon_call_query (reported). */
hon_status hon_call_query_text(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                               hon_value *out, char *buf, size_t cap);
/* The same call, traced and answered as hon_eval answers (text, trace, brief trace, JSON,
 * hon_answer_fired). A run-time error is an answer too: HON_ERR_RUNTIME with *out's text
 * "error E215: MESSAGE" and its traces as far as the evaluation went (nothing reported). Other
 * errors as hon_call_query (*out NULL). */
hon_status hon_ask_query(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                         hon_answer **out);

/* ---- line of sight (docs/spec/repl.md: los) ---- */

/* The place a word names on the loaded board, as a value for hon_los: "$name" or a bare
 * "name" of a unit of the board (HON_V_UNIT), "@C4" or "C4" a square of it (HON_V_SQUARE). The
 * board's drawing reads its line's ends the same way. HON_ERR_NOT_FOUND with a diagnostic for
 * no board (E212), an unknown unit (E213), a square off the board (E217), or a word that is
 * neither (E403). */
hon_status hon_place_of(hon_vm *vm, const char *word, hon_value *out);
/* Asks the rules whether `from` sees `to` (each a HON_V_UNIT of the board or a HON_V_SQUARE):
 * the query line_of_sight(X, Y) with each place given as its parameter wants it (a unit where
 * a square is wanted stands for the unit's square; a square holding exactly one unit, for that
 * unit), or, when a square holds no unit or several and line_of_sight takes units, the query
 * sight_to_square(observer: unit, q: square) when the other place is a unit (the unit first,
 * either way round; the rules' own question of a unit's sight of a square), else
 * line_of_sight_squares(a: square, b: square, both_infantry: bool) with false. All are
 * called through query handles (no text is parsed) under the active edition and variants,
 * traced. On HON_OK *out is the answer as hon_eval gives it (text, trace, brief trace, JSON),
 * with a note (hon_answer_note) when a square stood for its unit or the squares' query was
 * asked. hon_draw_board draws the same line. Errors: HON_ERR_NOT_FOUND with a diagnostic for
 * no board, a place that is no unit of the board or a square off it, a unit off the board
 * where its square is wanted, no fitting query; HON_ERR_RUNTIME (an E2xx of the rules,
 * reported); HON_ERR_MEMORY. */
hon_status hon_los(hon_vm *vm, hon_value from, hon_value to, hon_answer **out);
/* hon_los, with only the forms of the trace that want asks for (as hon_eval_as). */
hon_status hon_los_as(hon_vm *vm, hon_value from, hon_value to, unsigned want, hon_answer **out);

/* ---- completion ---- */

/* The kinds of names hon_complete offers. */
typedef enum hon_complete_kind {
    HON_COMPLETE_UNIT,    /* the board's units, without their `$` ("rifle1") */
    HON_COMPLETE_SQUARE,  /* the board's squares, row by row ("A1", "B1", ...) */
    HON_COMPLETE_QUERY,   /* queries */
    HON_COMPLETE_EVENT,   /* events */
    HON_COMPLETE_RULE,    /* the rules of the active edition ("query.rule") */
    HON_COMPLETE_FN,      /* fns */
    HON_COMPLETE_TABLE,   /* tables */
    HON_COMPLETE_EDITION, /* editions */
    HON_COMPLETE_VARIANT, /* variants */
    HON_COMPLETE_READING, /* the readings of one variant (hon_complete's `within`) */
    HON_COMPLETE_FILE,    /* the loaded rule files (hon_each_file's paths) */
    HON_COMPLETE_BUILTIN, /* the built-in functions ("square_of"), in the order of their list */
    HON_COMPLETE_KEYWORD, /* the keywords of the language ("query", "rule"), in name order */
    HON_COMPLETE_MEMBER,  /* the members of the enum named `within` (a declared or built-in
                             enum, or a variant: its readings), in declaration order */
    HON_COMPLETE_FIELD    /* what may follow `.` on a value of the type named `within`, as
                             hon_type_of names it: a record's fields (a table row's columns),
                             or for "unit" kind, side, size and the declared `value`s */
} hon_complete_kind;

/* Calls fn with each name of kind `kind` that starts with `prefix` (NULL or "": every name),
 * in declaration order (units in the scenario's order, files in load order). `within` is the
 * variant whose readings HON_COMPLETE_READING offers (ignored by the other kinds). HON_OK even
 * when nothing matches (no board: no unit and no square); HON_ERR_NOT_FOUND, with no
 * diagnostic, for a NULL vm or fn, an unknown kind or an unknown variant. */
hon_status hon_complete(const hon_vm *vm, hon_complete_kind kind, const char *within,
                        const char *prefix, void (*fn)(void *ud, const char *name), void *ud);

/* The type of expression `expr` (text as typed at the prompt), found by compiling it against
 * the loaded program without running it: its kind in *kind, its name (as hon_query_info names
 * types: "int", "terrain", "unit", a record's name) in buf, of cap bytes. No diagnostic is
 * reported and nothing is kept. HON_ERR_COMPILE when it does not compile; HON_ERR_NOT_FOUND
 * for a NULL vm, expr, kind or buf. Cheap enough for each Tab: a parse and a type check. */
hon_status hon_type_of(hon_vm *vm, const char *expr, hon_type_kind *kind, char *buf, size_t cap);

/* "Did you mean": the name of names[0..n) nearest `want` that is close enough to be a slip of
 * the keyboard (base/near.h's measure: 1 edit for up to 3 letters, else 2 or a fifth of the
 * length), or NULL (also for a NULL want or names, or want itself among them). Borrowed from
 * names; ties go to the first. */
const char *hon_nearest(const char *want, const char *const *names, size_t n);

/* ---- declarations (hon lsp: hover, definition, symbols) ---- */

/* What a declaration of the loaded program is (hon_each_decl). */
typedef enum hon_decl_kind {
    HON_DECL_QUERY,
    HON_DECL_EVENT,
    HON_DECL_RULE, /* name "query.rule", within the query */
    HON_DECL_FN,
    HON_DECL_TABLE,
    HON_DECL_ENUM,   /* a declared enum */
    HON_DECL_MEMBER, /* a member of an enum, within it: a unit kind, terrain, marker, ability,
                         reading... declared in a rule file */
    HON_DECL_RECORD,
    HON_DECL_VARIANT,
    HON_DECL_EDITION,
    HON_DECL_VALUE,   /* a `value` slot of units */
    HON_DECL_COUNTER, /* a `counter` (a kind of unit) */
    /* given by hon_ref_at only: */
    HON_DECL_FIELD, /* a field of a record, within it (the built-in record `step`'s, and a
                       unit's kind, side and size, within "unit", have no place) */
    HON_DECL_LOCAL  /* a parameter, within its query or fn; a let or loop variable, within
                       the rule, fn, query or "test" that binds it */
} hon_decl_kind;

/* One declaration, its strings borrowed for the duration of the callback. */
typedef struct hon_decl {
    hon_decl_kind kind;
    const char *name;   /* as written; a rule's is "query.rule" */
    const char *within; /* a rule's query, a member's enum; NULL for the others */
    const char *path;   /* the file declaring it (hon_each_file's spelling) */
    unsigned line, col; /* the span of its name, from 1, columns in bytes, end inclusive */
    unsigned end_line, end_col;
    const char *doc;       /* its doc string (an edition's title), or NULL */
    const char *cites;     /* its citations as hon_rule_info gives them, or NULL when none */
    const char *signature; /* a query's, event's or fn's "(u: unit, sq: square) -> int" (a
                              rule's: its query's); NULL */
    const char *type;      /* a field's, local's or value's type ("square", "list<unit>"); NULL */
} hon_decl;

/* Calls fn for each declaration of the loaded program that a rule file writes (built-in names
 * have no place and are left out; an edition's revised versions are its revision, not another
 * declaration), kind by kind: queries and events, rules, fns, tables, enums each with its
 * members, records, variants, editions, values, counters; in declaration order within a kind.
 * Returns how many there were (0 for a NULL vm or fn). */
size_t hon_each_decl(const hon_vm *vm, void (*fn)(void *ud, const hon_decl *d), void *ud);

/* What the name written at line `line`, byte column `col` (from 1) of the loaded rule file
 * `path` (hon_each_file's spelling) stands for, as the resolver read it when the program was
 * built: a record field's own name in its `record` declaration (that field), the query, event or
 * fn a call names, the member of the enum the type checker chose
 * (`german_victory` of whichever enum the context wants), the field of the record type of the
 * value before a dot (`s.from`), the table indexed, the variant read, the counter named, the
 * value slot of `u.value`, or the parameter, let or loop variable a local name is bound by (its
 * place the binding's name; a rule's parameter is its query's). HON_OK with fn called once
 * (the decl's strings borrowed for the call; a built-in field has no path, line 0);
 * HON_ERR_NOT_FOUND when no name the resolver read is written there (another declaration's name,
 * a type, a keyword, a literal, a comment, a file not loaded, a built-in function): the caller
 * may look the word up by name (hon_each_decl). Only the program's own text answers: the
 * places are those of the files as loaded. */
hon_status hon_ref_at(const hon_vm *vm, const char *path, unsigned line, unsigned col,
                      void (*fn)(void *ud, const hon_decl *d), void *ud);

/* One directive of a scenario file (`.scn`, docs/spec/board.md §4) as hon_each_scenario_symbol
 * gives it, its strings borrowed for the duration of the callback. */
typedef struct hon_scn_symbol {
    const char *directive; /* its keyword: "scenario", "cite", "topology", "size", "legend" (one
                              entry of it), "map", "elevation", "element", "side", "interspace",
                              "square", "mine_counter", "unit" or "colour" */
    const char *name;      /* a unit's or element's name; the title; the cited ID; a legend
                              entry as written ("g = grass"); "map", "elevation"; a setting with
                              its keyword ("size 10 x 8"); else the line after its keyword
                              ("C2/C3 contour") */
    const char *detail;    /* a unit's or element's line after its `=` ("rifle_squad allies at
                              B2"); a cite's "example A"; else NULL */
    unsigned line, col, end_col;  /* the name's span on its line, from 1, columns in bytes, end
                                    inclusive (a string's with its quotes) */
    unsigned last_line, last_col; /* where the directive ends: its line's last field, the last
                                     row of a map or elevation grid */
} hon_scn_symbol;

/* Calls fn with each directive of the scenario text[0..len) in file order: the board's settings
 * (title, citations, topology, size, colours), its terrain (each legend entry, the map and
 * elevation grids, each element), its features (side, interspace, square and mine_counter
 * lines) and its units. The lines are read as hon_load_board_source reads them, but no name is
 * resolved and nothing is checked: a scenario with errors has its directives listed too (a line
 * that is none is left out). Returns how many (0 for a NULL text or fn, or out of memory). */
size_t hon_each_scenario_symbol(const char *text, size_t len,
                                void (*fn)(void *ud, const hon_scn_symbol *s), void *ud);

/* ---- playing: events, procedures, the clock (docs/spec/language.md §6) ----
 * A procedure raises an event and runs its rules and the events they raise, changing the
 * board's units (markers, faces, values, positions) and terrain; each change is one line of
 * the answer's text, with the citation of the rule that made it. A procedure is all or
 * nothing: on an error (reported, E2xx: refused, or abandoned at a question or a step's pause,
 * E225) every change is undone and the seeded dice source is put back as the procedure found
 * it, so the procedure run again rolls the same dice (no re-roll by abandoning). Procedures are kept in a
 * history that hon_undo reverts, the last first. Reloading the rules or the board restarts
 * the game (the board as its file gives it, turn 1, the first phase, no history). */

/* Runs `EVENT(args)` (text, typed at `where`) on the board. On HON_OK *out's text holds one
 * line per effect and note ("no effect" when none); its JSON {"effects": [...], "turn": n,
 * "phase": p}. Errors: HON_ERR_COMPILE (the text is not a call of a declared event: E162...),
 * HON_ERR_RUNTIME (the procedure failed and was undone). */
hon_status hon_do(hon_vm *vm, const char *call, const char *where, hon_answer **out);
/* `why do` (docs/spec/repl.md §2a): runs the procedure exactly as hon_do (one
 * procedure of the history, undone on error), traced. The answer's text holds the effect
 * lines as hon_do's; hon_answer_why the events that ran, in order, each with the rules that
 * fired (the number of effects each made, its citations, the queries it asked, briefly, and
 * the events its block raised, nested below it); hon_answer_trace the complete trace (every
 * rule checked, each rule's lines); the JSON is hon_do's object with a "trace" member
 * (docs/spec/vm.md §6). Errors as hon_do. */
hon_status hon_why_do(hon_vm *vm, const char *call, const char *where, hon_answer **out);
/* Enumerates every die face the procedure rolls (each path applied, recorded and undone) and
 * gives the exact distribution of its outcomes: one "OUTCOME: n/d (p%)" line per outcome, an
 * outcome being what the path changed in sum ("give $a suppressed 2; move $a to C4", "no
 * change"); the items every outcome has come first, once ("in every outcome: ..."). Every
 * choice takes the first legal option (said in a last line when a choice was made). Nothing
 * changes. */
hon_status hon_odds_do(hon_vm *vm, const char *call, const char *where, hon_answer **out);
/* A Movement Action of the board unit `unit` ("$jeep" or "jeep") along the n squares ("C4" or
 * "@C4"), one procedure. When the rules declare an event `on walk` (the bundled rules'
 * movement_action, rules/movement.hon), it is raised with the unit and the squares: the rules
 * check each step and take it, and an illegal step refuses the whole move (HON_ERR_RUNTIME,
 * E228 naming the rule that forbids it and its citations; hon_last_refusal) with nothing
 * changed. Without one, the bare walk: each step is a move effect that raises the event the
 * rules declare `on enter` (its rules run before the next step); the walk stops early when a
 * rule takes the unit off its path (off the board, or to another square); then, if the unit
 * is still on the board, the event `on walk_end` is raised with the squares walked; no rule
 * checks a step, and a note says so. The answer's text has one line per effect (and a note for
 * each moment the rules declare no event on). */
hon_status hon_move(hon_vm *vm, const char *unit, const char *const *squares, size_t n,
                    hon_answer **out);

/* The refusal of the last procedure a `require` stopped (E228; language.md §6.3), valid until
 * the next evaluation: texts are cut to their buffers. */
typedef struct hon_refusal {
    char call[256];      /* the verdict query asked, with its arguments:
                         "step_allowed($rifle1, C6, C5, C4, 2)" */
    char what[256];      /* the require's own text ("a step of the Movement Action"), or "" */
    char rule[128];      /* the rule whose forbid decided: "step_allowed.after_a_stop" */
    char cites[256];     /* its citations, ", "-joined: those the innermost rules fired inside
                            it cite too, else any rule fired inside it (the clause of the
                            branch that decided); else all */
    char inside[512];    /* the rules of the queries it asked that fired toward the refusal, each
                         "name (cites)", ", "-joined: "difficult_passage.barbed_wire (...)" */
    char condition[256]; /* what the guard of `rule` found, with the values it compared:
                            "not adjacent(from, dest)" or "u.kind == light_vehicle and ...
                            (u.kind = ...)"; "" for a rule without a guard */
    char plain[256];     /* the refusal in plain words: the first sentence of the doc of the
                            rule at its bottom (the first rule inside that fired toward it with
                            no such rule below it, else `rule`): "In the Activation Phase a
                            unit acts only while its own Order Token is revealed ..."; "" when
                            that rule has no doc */
} hon_refusal;
/* Copies the last refusal into *out: true, or false (*out untouched) when the last evaluation
 * was not refused by a `require`. */
bool hon_last_refusal(const hon_vm *vm, hon_refusal *out);

/* The squares the board unit `unit` ("$rifle1" or "rifle1") can reach in one Movement Action,
 * with the squares of its Movement Value each costs and a path to it (the cheapest found): a
 * search over the board asking, for every step it tries, the queries the Movement Action asks
 * (takes_movement_action once, when declared, then step_allowed, step_cost, may_end_move,
 * rear_square for a counter on two squares, and far_steps for the squares not next to the unit
 * a step may reach: rules/movement.hon), on the board as it stands
 * (the unit put where the steps before would have brought it, then back), so each path
 * listed, given to hon_move, is accepted (unless a rule changes the board on the way: a mine, a
 * haystack), and a square not listed is refused. Text: a heading line, then one
 * line per square "  C5    2  C6 C5", by squares spent then across the board; JSON
 * {"unit": NAME, "from": SQ, "squares": [{"square": SQ, "spent": N, "path": [SQ...]}]}. A unit
 * aboard a landing craft or vehicle starts aboard, from its carrier's front square (the heading
 * and JSON name the carrier: "aboard": NAME): its first step, asked with it still embarked as
 * the Movement Action asks it, gets it out where can_disembark lets it, then the search goes on.
 * HON_ERR_NOT_FOUND (reported) for no board, an unknown unit, one neither on the board nor
 * aboard a carrier on it, or rules without those queries (E401); HON_ERR_RUNTIME for a rule's
 * error (E2xx) or a unit takes_movement_action forbids (E228, as hon_move's refusal:
 * hon_last_refusal). Nothing changes. */
hon_status hon_reach(hon_vm *vm, const char *unit, hon_answer **out);
/* The board drawn (text as hon_draw_board, or with svg an SVG document as hon_board_svg) with
 * the squares hon_reach lists marked: the unit's square `@`, each reachable square the digit
 * of the squares it costs (`+` past 9), and a key line. Errors as hon_reach; HON_ERR_IO when
 * writing fails. */
hon_status hon_reach_draw(hon_vm *vm, const char *unit, FILE *out, bool svg);
/* Moves the clock to the next phase (the order of the `phase` declarations; after the last
 * one, the first phase of the next turn), raising the events declared `on phase_end`, `on
 * turn_start` and `on phase_start`. One procedure. HON_ERR_RUNTIME (E226) when no phase is
 * declared. */
hon_status hon_next(hon_vm *vm, hon_answer **out);
/* Reverts the last procedure of the history: the board, its markers, the clock and the dice
 * source (the seeded dice give the same rolls again). HON_ERR_NOT_FOUND when there is none.
 * The history holds the last 1,000 procedures at most (fewer when they made over a million
 * changes). The answer's text says what was undone. */
hon_status hon_undo(hon_vm *vm, hon_answer **out);
/* The number of procedures in the history (what hon_undo can revert, at most 1,000): 0 when
 * nothing has been played since the game began (or everything played was undone). */
size_t hon_game_played(const hon_vm *vm);
/* The clock: the turn (from 1) and the current phase's name (NULL when no phase is declared;
 * borrowed until the next load). */
void hon_clock(const hon_vm *vm, int64_t *turn, const char **phase);

/* ---- diff and snapshots (docs/spec/repl.md: diff, snapshot) ----
 * A *question set* is every question a set of boards and files allows: the expectations of
 * the loaded tests (on their boards), for each board every call of every query whose
 * parameters are all things of the board (units, squares, sides, elements) or of finite types
 * (bool, verdict, enums, ints of a small range), with at least one thing of the board; the
 * calls of the queries whose parameters are all of finite types (asked with no board); and
 * the questions of question files (one expression a line, `#` comments, `board FILE` lines
 * choosing the board of the lines after them). Queries are asked through query handles,
 * untraced; only a question whose answers differ (or changed) is asked again, traced. */

typedef struct hon_question_set {
    bool bundled_boards;       /* the boards bundled with hon (hon_each_bundled_board) */
    const char *const *boards; /* scenario files */
    size_t nboards;
    const char *const *files; /* question files */
    size_t nfiles;
    bool tests;                 /* the expectations of the loaded tests */
    bool finite;                /* the queries over finite types, with no board */
    size_t cap;                 /* calls asked per query and board at most: past it,
                                         calls spread evenly over them (0: 20,000) */
    int64_t int_lo, int_hi;     /* the range of int parameters; int_lo > int_hi: queries
                                         with an int parameter are not asked */
    const char *const *queries; /* only the calls of these queries, and the tests'
                                   expectations that start with a call of one (nqueries 0:
                                   every query); question files are asked whole */
    size_t nqueries;
} hon_question_set;
/* Fills q with the defaults: the bundled boards, the tests, the finite queries, cap 20,000,
 * ints 0..6, no board or file given. */
void hon_question_defaults(hon_question_set *q);
/* Calls fn with the path of each board bundled with hon (the *.scn files of examples/boards/ in
 * hon_bundle_dir()), in name order; returns how many (0 when that directory is missing). */
size_t hon_each_bundled_board(void (*fn)(void *ud, const char *path), void *ud);

/* How hon_diff prints. */
typedef struct hon_diff_options {
    bool json;                /* one JSON object instead of text */
    unsigned width;           /* of the text: the two traces side by side (0: 160) */
    size_t traces;            /* per group of differences, how many show their traces (0: all) */
    const char *const *rules; /* only the differences whose rules that differ include one of
                                 these (full names, "query.rule"; nrules 0: every one) */
    size_t nrules;
} hon_diff_options;
/* Asks every question of qs in vm a and in vm b (the same rules, one per setting: hon_vm_copy,
 * hon_apply_setting; named label_a and label_b in the output) and writes to out each question
 * whose answers differ, with both answers and both brief traces side by side, grouped by query
 * and then by the rules that differ (those that fired in one trace and not in the other, or
 * with another answer), then the number of questions and differences per query and what was
 * skipped or capped. *ndiff (when not NULL) gets the number of differences. Both vms' boards
 * are dropped. Errors (reported, with positions): a board or a question file that does not
 * load or parse (nothing is asked then), HON_ERR_MEMORY. */
hon_status hon_diff(hon_vm *a, const char *label_a, hon_vm *b, const char *label_b,
                    const hon_question_set *qs, const hon_diff_options *o, FILE *out,
                    size_t *ndiff);

/* Applies `setting` (hon_apply_setting) to vm, asks every question of qs and writes a snapshot
 * to out: a header (the setting and how the question set was made) then, board by board, one
 * line per question, `QUESTION = ANSWER`, and last, as `#` comment lines, the queries whose
 * calls on a board passed qs->cap (only `cap` of them recorded: `# capped: QUERY on BOARD: N
 * calls, M asked ...`). *count gets the number of answers; `notes` (NULL: nowhere) gets the
 * same capped lines without their `# `, so that a caller can say what was left out. The board
 * is dropped. Errors as hon_diff's. */
hon_status hon_snapshot_record(hon_vm *vm, const char *setting, const hon_question_set *qs,
                               FILE *out, size_t *count, FILE *notes);
/* Reads the snapshot file `path`, applies its setting, asks its question set again and writes
 * to out every answer that changed (the recorded one, the new one, the new brief trace), every
 * recorded question no longer asked and every new question, then a count. *changed gets how
 * many of these there are (0: the rules answer as recorded). Errors: the file cannot be read,
 * or is no snapshot (E410, E411 with its line), and hon_diff's. */
hon_status hon_snapshot_check(hon_vm *vm, const char *path, FILE *out, size_t *changed);

/* How hon_diff_search looks for a witness. */
typedef struct hon_search_options {
    unsigned max_size;          /* boards up to max_size x max_size (0: 6; at most 12) */
    double seconds;             /* the time budget (0: 60) */
    uint64_t seed;              /* of the random boards: the same seed, the same boards */
    const char *const *queries; /* only these queries (nqueries 0: every query whose
                                   parameters are units, squares or of finite types) */
    size_t nqueries;
    const char *witness;      /* where the witness's scenario goes (NULL: nowhere); its
                                   picture next to it, .scn replaced by (or else + ) .svg */
    unsigned width;           /* of the text (0: 160) */
    const char *const *rules; /* a difference counts only when the rules that differ include
                                 one of these (full names; nrules 0: any difference) */
    size_t nrules;
} hon_search_options;
/* Looks for the smallest board where settings a and b part (docs/spec/repl.md §5): boards
 * made of the loaded rules' own vocabulary (terrain, square and side features, interspace
 * items, elevations 0-2, one 1-square counter of each unit kind, the armies), the smallest
 * sizes first, then at random, all from o->seed, each asked the calls of the chosen queries
 * (at most 400 per query and board); the first board where a call's answers differ is shrunk
 * (units, sides, features, terrain, elevation, rows and columns taken away while that call
 * still differs) to a witness, printed (the board drawn with the line between the call's
 * first two places, both answers and brief traces side by side) and written to o->witness.
 * With none found before the budget runs out: "no difference found up to N x N". *found says
 * which. Errors: HON_ERR_NOT_FOUND (reported) when the rules give nothing to make boards of,
 * HON_ERR_IO when the witness cannot be written, HON_ERR_MEMORY. */
hon_status hon_diff_search(hon_vm *a, const char *label_a, hon_vm *b, const char *label_b,
                           const hon_search_options *o, FILE *out, bool *found);

/* Compares, for every variant of the rules and each of its readings other than the one
 * `setting` gives it, session a (setting applied) with session b (the same rules; the setting
 * and that reading applied here, one reading after another), and writes one line per reading
 * to out (docs/spec/repl.md §5, `diff --variants`): how many questions of qs differ, with the
 * first one and both answers; else, when a board query can read the variant, the witness of a
 * short search (o: its seconds, 5 when 0; max_size, 5 when 0; seed; o->queries; no witness file
 * is written), or that the search found no change; else (no board query reads it) that the
 * reading never changes an answer. Only the questions that can read
 * the variant are asked (a call of a query, or a written question, that runs no rule or fn
 * reading it, at any depth, is sure to agree). *changing gets how many readings changed an
 * answer. Both vms' boards are dropped. Errors as hon_diff's. */
hon_status hon_diff_variants(hon_vm *a, hon_vm *b, const char *setting, const hon_question_set *qs,
                             const hon_search_options *o, FILE *out, size_t *changing);
/* Whether the rules declare a rule of that full name ("screens.mound"), in any edition; when
 * they do not, reports E441 at `where` (the name as line 1 of a source of that name, as
 * hon_apply_setting reports a setting) and returns HON_ERR_NOT_FOUND. */
hon_status hon_check_rule_name(hon_vm *vm, const char *name, const char *where);
/* Whether the rules declare a query of that name; when they do not, reports E442 at `where`
 * (as hon_check_rule_name) and returns HON_ERR_NOT_FOUND. With `board_only`, a query none of
 * whose parameters is a thing of the board (unit, square, side, element) is E442 too: a
 * board search cannot ask it. */
hon_status hon_check_query_name(hon_vm *vm, const char *name, bool board_only, const char *where);

/* Text of a status, for messages. */
const char *hon_status_text(hon_status s);

/* Writes a line of text quoted as every diagnostic quotes its source line (errors.md): the
 * `LINE | text` line (text: len bytes, no newline; tabs expanded, control bytes shown as '?')
 * and the caret line under bytes first..last (from 0, inclusive; last below first: a lone
 * caret). A line over 200 bytes is quoted in part, 200 bytes from 60 before `first`, "..."
 * marking each cut. For a front end placing its own errors in the line it runs. */
void hon_quote_line(FILE *out, unsigned lineno, const char *text, size_t len, size_t first,
                    size_t last);
/* Shortens message s (a NUL-ended string, changed in place) as every diagnostic's message is,
 * so that no input it quotes runs on (errors.md: a word over 120 bytes keeps its first 80 and
 * last 24 about an ellipsis, a message over 4000 bytes is cut there). Returns its new length. */
size_t hon_shorten_message(char *s);

/* The caps a session puts on what untrusted rules may use (hon_config's; docs/spec/repl.md
 * `limit`): VM steps per evaluation (E207; odds and procedure enumerations get 200 of them),
 * nested calls (E206), items of a list built at run time (E229), bytes held (E230). */
typedef enum hon_cap {
    HON_CAP_STEPS,
    HON_CAP_DEPTH,
    HON_CAP_LIST,
    HON_CAP_MEMORY
} hon_cap;
/* Sets a cap of vm (0: its default); the next evaluation or load uses it. HON_ERR_NOT_FOUND
 * for a NULL vm, an unknown cap or a value out of range (depth above 1,000; memory below
 * 1 MiB). */
hon_status hon_set_cap(hon_vm *vm, hon_cap which, uint64_t value);
/* Whether the programs vm builds from now on (each load) compile lazily: each query's rules
 * and default, the fns they call, and its combined chunk, when it is first asked, not all
 * when the rules load (docs/spec/bench.md §9). For a program that answers once and exits
 * (`hon eval`, `hon los` ...): loading the bundled rules then costs some 13 M instructions
 * less, where a session
 * that answers many times (the REPL, an editor's language server) would pay them in its first
 * answers instead. Answers, traces and the diagnostics of a load are the same either way
 * (the compiler reports nothing the resolver does not, but memory running out: lazily, that
 * is an E209 of the answer that needed the chunk). Off by default; hon_vm_copy copies it.
 * HON_ERR_NOT_FOUND for a NULL vm. */
hon_status hon_build_lazily(hon_vm *vm, bool lazily);
/* The cap in force (its default when unset); 0 for a NULL vm or an unknown cap. */
uint64_t hon_cap_value(const hon_vm *vm, hon_cap which);

/* Reads the whole file at `path` as hon reads its rule files and boards (the one way every
 * file a user names is read): a directory, what is no regular file (a FIFO, never waited on; a
 * device such as /dev/zero; a socket) and a file of more than `max` bytes are refused.
 * *text gets a new NUL-terminated buffer (free with hon_text_free; it may hold NUL bytes), *len
 * its bytes. Returns HON_OK; else *text is NULL and the status is HON_ERR_MEMORY when memory
 * ran out, HON_ERR_IO otherwise, *why (when not NULL) getting the reason as text ("not a
 * regular file (a FIFO, a device or a socket)", "file too large", strerror's) for the
 * caller's message. Nothing is reported. */
hon_status hon_read_file(const char *path, size_t max, char **text, size_t *len, const char **why);

/* Writes the file at `path` whole or not at all (a scratch file beside it renamed into place;
 * a path that exists and is no regular file, such as /dev/stdout, is written directly; a
 * symbolic link is written through, the link kept):
 * write(f, ud) writes the contents, and `path` is replaced only when it returned HON_OK and
 * every byte reached the disk. Returns write's status when it failed; else HON_ERR_IO when the
 * file could not be written, *err (when not NULL) getting the errno value (0 otherwise); else
 * HON_OK. Nothing is reported: the caller says what failed. */
hon_status hon_write_file(const char *path, hon_status (*write)(FILE *f, void *ud), void *ud,
                          int *err);
/* hon_board_svg's picture written to the file at `path` by hon_write_file (whole or not at
 * all; *err as there). */
hon_status hon_board_svg_file(hon_vm *vm, const char *path, const char *line_from,
                              const char *line_to, int *err);
/* hon_board_svg_window's picture written to the file at `path` as hon_board_svg_file. */
hon_status hon_board_svg_file_window(hon_vm *vm, const char *path, const char *line_from,
                                     const char *line_to, const char *window, int *err);

/* ---- interrupting ---- */

/* Stops the evaluation running (in any session of the process: the flag is process-wide, as a
 * signal handler cannot know the session) at its next look, within a fraction of a second: it
 * fails with E231 "interrupted" and leaves its session as it was (a procedure is undone). The
 * flag stays set, stopping every later evaluation too, until hon_interrupt_clear. Safe to call
 * from a signal handler or another thread. */
void hon_interrupt(void);
/* Clears the flag hon_interrupt set: call it before the work it should be able to stop. */
void hon_interrupt_clear(void);
/* The VM steps run by every evaluation of the process so far, counted at the VM's looks at the
 * interrupt flag and at each evaluation's end; for a progress line. Any thread may call it. */
uint64_t hon_steps_run(void);

/* ---- the build ---- */

/* The version of hon ("0.1.0"). Static. */
const char *hon_version(void);
/* Where the bundled data is installed: a directory holding rules/, expansions/ and
 * examples/boards/. It is $HON_DATADIR when that is set and not empty (an installed tree moved
 * elsewhere, e.g. under a DESTDIR), else the configured PREFIX/share/hon. Borrowed: the
 * environment's string or a static one. */
const char *hon_data_dir(void);
/* The source tree this hon was built from. Static. */
const char *hon_source_dir(void);
/* The build tree this hon was built in (meson's build directory). Static. */
const char *hon_build_dir(void);
/* The installation prefix hon was configured with (meson's `prefix`, e.g. "/usr/local"), under
 * which hon_data_dir lies unless $HON_DATADIR moves it. Static. */
const char *hon_install_prefix(void);
/* Whether the running executable lies inside hon_build_dir() (through Linux's /proc/self/exe,
 * compared by device and inode; false without it): then hon_bundle_dir is the source tree,
 * unless $HON_DATADIR is set. Asks the file system at each call. */
bool hon_runs_from_build_tree(void);
/* The data directory this program uses: $HON_DATADIR when set and not empty; else the source
 * tree when the running executable lies inside the build tree hon was built in (the `hon` and
 * the tests of a build run on that tree's rules, never on an installed copy); else
 * hon_data_dir(). An installed program never uses a build tree, even while it exists. The
 * build tree is recognised through Linux's /proc/self/exe; without it, hon_data_dir().
 * Borrowed as hon_data_dir's. */
const char *hon_bundle_dir(void);

#ifdef __cplusplus
}
#endif
#endif
