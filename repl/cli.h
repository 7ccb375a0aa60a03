/* cli.h — the `hon` program's session: the options main.c parsed, the interpreter with the
 * bundled rules loaded, and the commands the REPL (repl.c) and the subcommands (main.c) share.
 * cli.c implements them (report.c their reporting) on top of include/hon.h only; the program
 * uses nothing else of hon.
 * Every command prints its result to stdout and its errors to stderr, and returns 0 on success,
 * 1 on an error in the input or the rules (the exit codes of docs/spec/repl.md).
 */
#ifndef HON_CLI_H
#define HON_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hon.h"

/* A --variant NAME=READING option, split in place (both point into argv). */
typedef struct cli_variant_opt {
    const char *name;
    const char *reading;
} cli_variant_opt;

/* The global options. Arrays hold pointers borrowed from argv; cli_opts_free frees the arrays. */
typedef struct cli_opts {
    const char **rule_dirs; /* --rules DIR, in order; replaces the default directories */
    size_t n_rule_dirs;
    const char **loads; /* --load FILE, in order, loaded after the rule directories */
    size_t n_loads;
    cli_variant_opt *variants; /* --variant NAME=READING, applied in order after loading */
    size_t n_variants;
    const char *edition; /* --edition NAME, or NULL for the program's default edition */
    const char *board;   /* --board FILE: a scenario loaded after the rules, or NULL */
    bool no_rules;       /* --no-rules: load no directory at all */
    bool json;           /* --json: answers print as JSON objects */
    bool bail;           /* --bail: a script stops at its first failing line */
    bool lazy;           /* a command that answers once: the rules compile lazily
                            (hon_build_lazily), not the REPL, lsp or play */
    bool seed_set;       /* --seed N was given */
    uint64_t seed;
    uint64_t step_budget; /* the session's caps (hon_config's); 0: the defaults. Set by */
    unsigned max_depth;   /* --max-steps, --max-depth, --max-list and --max-memory, and by */
    uint64_t max_list;    /* programs that drive the session, such as tests/fuzz */
    uint64_t max_memory;
} cli_opts;

/* How an expression is answered: its value, its value and brief trace (`why`), its value and
 * complete trace (`why full`), its value and the reasons of every rule that fired or not
 * (`why not`), or its exact distribution. */
typedef enum cli_mode {
    CLI_EVAL,
    CLI_WHY,
    CLI_WHY_FULL,
    CLI_WHY_NOT,
    CLI_ODDS
} cli_mode;

/* One running program: the interpreter and what the front end remembers about it. */
typedef struct cli_session {
    hon_vm *vm;
    bool json;     /* answers as JSON (--json, REPL `json on`) */
    size_t diags;  /* diagnostics received so far (any severity) */
    size_t errors; /* of which errors */
    /* playing (language.md §6): choices and step mode ask the person a line of text. `ask`
     * reads one (the REPL's line editor); NULL: a line of standard input. It returns the line
     * without its newline (borrowed until the next call), or NULL at the end of the input, or
     * NULL with `cancelled` set when the person pressed ^C instead of answering. */
    char *(*ask)(void *ud, const char *prompt);
    void *ask_ud;
    bool cancelled; /* the last ask was cancelled by ^C: the procedure is abandoned */
    char *answer;   /* the default ask's buffer */
    size_t answer_cap;
    bool stepping;         /* step mode: pause before each effect */
    bool live_lines;       /* a do, move or next runs: its lines before a choice are printed
                              then (cli_before_choice) */
    size_t lines_shown;    /* how many were, left out when its answer is printed */
    bool bundled_rules;    /* the bundled rule directories were loaded (so the bundled boards,
                           written in their vocabulary, are diff's and snapshot's too) */
    bool bail;             /* --bail: a script stops at its first failing line */
    unsigned answer_line;  /* the script's line the last answer read came from (reader_ask) */
    bool refusal_answered; /* `why move` runs: a refusal (E228) is its answer, printed as such,
                              so cli_on_diag neither reports nor counts it */
    unsigned declarations; /* declarations typed at the REPL, kept or refused (cli_declare) */
    size_t redeclared;     /* E110 errors (a name declared again) received so far */
    size_t syntax_errors;  /* syntax errors (E001-E099) received so far */
    /* when set, every diagnostic (counted as always) goes to it instead of being printed:
       `hon lsp` (lsp.c) collects them. Set after cli_session_open. */
    void (*on_diag)(void *ud, const hon_diag *d);
    void *on_diag_ud;
    /* Scripts (repl.md §2a, Choices): a choice's answer is the script's next line only when
     * that line is one (a number, an option, `choose X`); any other line abandons the choice,
     * and `unread` asks the reader to hand that line out again as a line of its own. */
    bool script;
    bool unread;
    /* `hon play`: the directory of the script running (owned; NULL otherwise), where a relative
     * `load` or `board` path that names no file in the current directory is looked for before
     * the data directory (cli_found). */
    char *script_dir;
    bool echo_choices; /* print the answer taken (`hon play`, and `choosing` answers) */
    /* `do ... choosing A,B`: the answers given with the running command, taken in order before
     * any line is read (borrowed from the command's line); answers_used counts those taken. */
    const char *const *answers;
    size_t nanswers, answers_used;
} cli_session;

/* The API's chooser (hon_config.chooser, answer.c; ud: the cli_session): prints the question,
 * the side and the options numbered and returns the index taken. A choice with one option is
 * taken unasked, and said. The command's `choosing` answers (s->answers) come first, each
 * said; one that is no option abandons the procedure (-1). Then a line is read (s->ask, else
 * standard input): a number, an option as printed (`C4`/`@C4`, `$rifle1`/`rifle1`, any case),
 * either after `choose`. On a terminal any other answer is refused with the reason and asked
 * again; in a script (s->script) a line shaped as an answer (a number, `$x`, `@x`, a square)
 * that is none is an error at its line (E405, counted in s->errors) and the next line is read
 * (under s->bail the procedure is abandoned: -1, E225), while any other line abandons the choice (-1, E225) and is handed back to the
 * reader (s->unread) to run as a line of its own. At the end of the input the first option is
 * taken; ^C at the question (s->cancelled) abandons the procedure (-1, E225: it is undone).
 * In a script, blank and `#` lines before the answer are skipped (`##` ones printed).
 * Under s->json each line it prints is one JSON object (repl.md §4, Choices): {"choice": …}
 * for the question, {"chosen": …} for the option taken, {"abandoned": …} for ^C. */
int cli_choose(void *ud, const char *question, const char *side, const char *const *options,
               size_t n);
/* Step mode (hon_config.on_effect, answer.c): when s->stepping, shows the effect about to be
 * applied and waits for Enter; false ('q', or ^C at the pause) abandons the procedure, which is
 * then undone. In a script (s->script) the next line answers only when it is blank (apply) or
 * `q`; any other line is an error, abandons the procedure and is handed back to the reader
 * (s->unread) to run as a line of its own. */
bool cli_step(void *ud, const char *line);
/* hon_config.before_choice (answer.c): while a do, move or next runs (s->live_lines; not with
 * --json), prints the procedure's lines that led to the question about to be asked (a roll
 * before the choice it made possible) and counts them in s->lines_shown, so that the answer
 * printed after leaves them out. */
void cli_before_choice(void *ud, const char *lines);
/* A play script's `##` line (repl.md §2d), text the line as it stands: printed as it is, or
 * under s->json as {"narration": TEXT} (answer.c). */
void cli_put_narration(const cli_session *s, const char *text);
/* A play script's line about to run (repl.md §2d), number lineno, text as written: echoed
 * `N> TEXT`, or under s->json as {"script_line": {"line": N, "text": TEXT}}, with
 * "skipped": OPTION when a command-line option takes its place (`--board`, `--seed`), where the
 * text form adds `(skipped: OPTION was given)` (answer.c). */
void cli_put_script_line(const cli_session *s, unsigned lineno, const char *text,
                         const char *skipped);

/* Frees the arrays of o (not the strings, which belong to argv); accepts NULL. */
void cli_opts_free(cli_opts *o);

/* Creates the interpreter of s from o: the rule directories (--rules DIR, else $HON_RULES split
 * on ':', else hon_bundle_dir()'s rules/ and expansions/), then every --load
 * file, then the edition and the variants. s is always initialised (cli_session_close it even on
 * failure). Returns 0, or 1 after reporting why on stderr. */
int cli_session_open(cli_session *s, const cli_opts *o);
/* Frees everything s holds; accepts a session whose open failed. */
void cli_session_close(cli_session *s);

/* Evaluates expr (typed at `where`, e.g. "<repl>") and prints its answer (CLI_EVAL), answer and
 * brief trace (CLI_WHY), answer and complete trace (CLI_WHY_FULL) or distribution (CLI_ODDS),
 * as text or JSON per s->json. Returns 0 or 1. */
int cli_answer(cli_session *s, const char *expr, const char *where, cli_mode mode);
/* Whether path, a .hon file of a directory named rules/ or expansions/ (or such a directory),
 * is a copy of a bundled file this session has loaded from the data directory (the same
 * relative name there: a source checkout's, named to an installed hon), not that file itself.
 * Read beside its twin every declaration would be E110, so it is refused: an error naming the
 * twin and the options that use the checkout's rules instead (--rules ROOT/rules --rules
 * ROOT/expansions), and 1. Else 0, nothing said. Used by load, check, lint and test. */
int cli_twin_of_bundled(cli_session *s, const char *path);
/* For a .hon file that is such a copy (cli_twin_of_bundled), the name the program holds its
 * bundled twin under (new string), so that `hon lsp` checks the copy in its place; NULL for
 * any other path (nothing said). */
char *cli_bundled_twin(cli_session *s, const char *path);
/* Loads a .hon file, all or nothing (the program is unchanged on error); a relative path that
 * names no file here is looked for beside the running play script, then in the data directory
 * (cli_found). Returns 0 or 1. */
int cli_load(cli_session *s, const char *path);
/* Checks a file against the loaded program without keeping it: a scenario (`.scn`) is built as
 * `board` would build it (the session's board untouched), any other file is checked as rules.
 * Returns 0, or 1 on any error. */
int cli_check(cli_session *s, const char *path);
/* `hon check PATH...`: the rule files and directories (every *.hon of a directory, as one
 * program) are loaded into s, so that the scenarios given with them (`.scn` files, and every
 * *.scn of a directory given) are checked against them; a single rule file alone is checked
 * without being kept (cli_check). Returns 0, or 1 when anything failed. */
int cli_check_all(cli_session *s, const char *const *paths, size_t n);
/* `lint [FILE|DIR...]`: loads the FILEs and DIRs (a file the program holds is loaded again;
 * the session keeps them, as `load` would), printing `loaded PATH` for each when at the REPL
 * prompt (`prompt`: there the game restarts), then reports hon_lint's warnings about them, or
 * about every loaded file when none is given. A scenario or play script is refused first
 * (cli_not_rules, E409), naming `lint` and `board FILE` at the prompt, `hon lint` and
 * `--board FILE` otherwise; an option is a usage error (2) pointing to `help lint` at the
 * prompt, to `hon --help` otherwise. Returns 0 when there is none, 1 on warnings or when a
 * load failed. */
int cli_lint(cli_session *s, const char *const *paths, size_t n, bool prompt);
/* `fmt [--check] [--diff] [--json] FILE|DIR...` (repl/fmt.c, docs/spec/format.md): lays out
 * the .hon files (a directory: every *.hon file under it) in the canonical layout, rewriting
 * each changed one in place and printing its path; --check only prints the paths, --diff a
 * unified diff instead; --json (or s->json) prints one object instead, {"files": [{"path",
 * "changed", "written" (not with --check or --diff), "diff" (--diff)} or {"path", "failed":
 * true}...], "changed": N, "failed": N}. A file that does not parse is reported and left as
 * it is. Returns 0, 1 when a file could not be read, parsed or written or (--check, --diff)
 * some file would change, 2 for a usage error. */
int cli_fmt(cli_session *s, const char *const *args, size_t n);
/* `test [-v] [--filter PATTERN] [--json] [FILE...]`: runs the tests of the FILEs (loading those
 * the program does not hold yet), or every loaded test when none is given; only those whose
 * title contains PATTERN with --filter. Prints the failures and one closing "N passed, N
 * failed" line; -v: a line per test (ok or FAIL, title, where); --json (or s->json): one JSON
 * object {"tests": [{title, path, line, passed, failures}...], "passed", "failed"}. A scenario
 * or play script among the FILEs is refused (cli_not_rules, E409), naming `test` and `board
 * FILE` when `prompt` (the REPL's command), `hon test` and `--board FILE` otherwise. Returns 0
 * when all pass, 1 on a failure, a load error, no test at all, or a PATTERN that no test's
 * title contains (none ran: an error, never a pass), 2 on a usage error (an unknown option,
 * --filter alone), which points to `help test` when `prompt`, to `hon --help` otherwise. */
int cli_test(cli_session *s, const char *const *args, size_t nargs, bool prompt);
/* Lists the rules of the active edition matching word (NULL or "" for all) with their
 * citations, and a count; none matching, a line saying so, the word in it shortened as a
 * diagnostic's (a long word in part, errors.md), with the nearest word of the rules' names.
 * Returns 0 (an empty list is not an error), 1 when out of memory. */
int cli_rules(cli_session *s, const char *word);
/* "Did you mean" for an unknown name: the name of kind `kind` (of variant `within`, for
 * readings; hon_complete) nearest want (hon_nearest), as a new string the caller frees, or
 * NULL. */
char *cli_suggest(cli_session *s, hon_complete_kind kind, const char *within, const char *want);
/* The same among names[0..n) (NULL-terminated when n is SIZE_MAX): " (did you mean `X`?)"
 * written into buf (cap bytes), or "" when nothing is near. Returns buf. */
const char *cli_did_you_mean(const char *want, const char *const *names, size_t n, char *buf,
                             size_t cap);
/* Whether path (borrowed) is a scenario (.scn; unless scenarios_too) or a play script (.play)
 * given to `what` ("hon lint", "--load"), which reads rule files (and scenarios, when
 * scenarios_too); if so, says so as an error naming the command that reads it (`hon check`,
 * `--board`, or `board` when `what` is a REPL command such as "load", `hon play`) instead of
 * letting it be parsed as rules into a bare E010. */
bool cli_not_rules(const char *path, const char *what, bool scenarios_too);
/* The hint for a file that cannot be read because it does not exist: " (did you mean
 * `DIR/NAME`?)" for the entry of its directory nearest its name, written into buf, or "". */
const char *cli_near_file(const char *path, char *buf, size_t cap);
/* After a file could not be read: when `path` does not exist and a name in its directory is
 * near, says so on stderr (`hon: note: no file 'P' (did you mean `Q`?)`; under JSON a note object). */
void cli_note_near_file(const cli_session *s, const char *path);

/* Prints the source of a rule, query, table or fn (`show`) or its bytecode (`dis`). 0 or 1. */
int cli_show(cli_session *s, const char *name, bool disassemble);
/* Lists the editions, marking the active one; with a name, switches to it. Returns 0 or 1. */
int cli_edition(cli_session *s, const char *name);
/* Lists the variants with their active readings (name NULL), shows one (reading NULL), or
 * selects a reading. Returns 0 or 1. */
int cli_variant(cli_session *s, const char *name, const char *reading);
/* A relative path that names no file in the current directory but one in the data directory
 * (hon_bundle_dir(): `examples/boards/x.scn`): that file's path (new, the caller frees it);
 * else NULL (use path as given). */
char *cli_bundled(const char *path);
/* As cli_bundled, but in `hon play` (s->script_dir set) the script's directory is tried first:
 * a relative path naming no file here names the file beside the script when there is one, else
 * the data directory's (new string, the caller frees it); NULL: use path as given. */
char *cli_found(cli_session *s, const char *path);
/* Loads a scenario file as the board, all or nothing. A relative path that names no file here
 * is looked for in hon_bundle_dir() too (`examples/boards/x.scn` works with an installed hon
 * from any directory). Returns 0 or 1. */
int cli_board(cli_session *s, const char *path);
/* Draws the board as text, with the line from `from` to `to` traced when both are given
 * (`$unit`, `@C4` or `C4`), centred on place `centre` when it is not NULL, and no wider than
 * cli_draw_columns() (a wider board shows the columns that fit and says which are left out;
 * board.md §5). Returns 0 or 1. */
int cli_draw(cli_session *s, const char *from, const char *to, const char *centre);
/* The characters a terminal picture may take a line: $COLUMNS when it is a positive number,
 * else the terminal's width when standard output is one, else 0 (no limit: a script's or a
 * pipe's picture is the whole board). */
int cli_draw_columns(void);
/* Whether `word` names a place of the board ($unit, @C4 or C4, as los and draw read them):
 * 0 when it does, else 1 after reporting why (no board; an unknown unit, with the board's
 * nearest name; a square off the board; a word that is neither). */
int cli_place(cli_session *s, const char *word);
/* Writes the board as an SVG file (with a traced line when from and to are given; the part of
 * the board `window` names, NULL: all of it, as hon_board_svg_window reads it), whole or not at
 * all (hon_board_svg_file_window); prints "wrote PATH". Refuses, with the file unchanged, to
 * replace an existing regular file that is neither empty nor an SVG (repl.md §1). Returns 0
 * or 1. */
int cli_svg(cli_session *s, const char *path, const char *from, const char *to, const char *window);
/* Whether the file at `path` may be replaced by a picture (svgfile.c): it does not exist (and its
 * directory is writable), it is no regular file (a device such as /dev/stdout), it is empty, or
 * it already holds an SVG. Otherwise says why (cli_error_code, E408) and returns false: a directory, a
 * place that cannot be written, or a file that is no SVG (a rules file given by mistake). */
bool cli_may_replace_with_svg(const char *path);
/* What an output file holds, for cli_may_replace. */
typedef enum cli_out_kind {
    CLI_OUT_SVG,      /* a picture (`svg OUT`, `reach UNIT OUT`, a witness's .svg) */
    CLI_OUT_SCENARIO, /* a board (`diff --search --witness FILE`) */
    CLI_OUT_SNAPSHOT  /* `snapshot record FILE` */
} cli_out_kind;
/* The one guard of every file hon writes for the user (svgfile.c), asked before any work: the
 * file at `path` may be written when it does not exist (and its directory is writable), is no
 * regular file (a device such as /dev/stdout, written in place), is empty, or already holds
 * what `kind` writes — an SVG (after white space and a byte-order mark its text begins "<" and
 * names "<svg" within its first 4 KiB), a scenario (its first line that is no comment is a
 * board directive), a snapshot (it begins "# hon snapshot "). A file named `*.hon` is never
 * replaced, nor one holding a NUL byte. Otherwise says why (cli_error_code, E408: "refusing to
 * replace 'PATH': it exists and is not ...", or "cannot write 'PATH': why") and returns false:
 * a mistyped name never costs a file of another kind. */
bool cli_may_replace(const char *path, cli_out_kind kind);
/* `los X Y`: the line of sight from X to Y (units `$a` or squares `@C4`/`C4`: hon_place_of),
 * asked by hon_los — line_of_sight(X, Y) with each place as its parameter wants it, or
 * sight_to_square($u, @SQ) between a unit and a square holding no unit or several, or
 * line_of_sight_squares(X, Y, false) — printing the answer's note (which query answered, when
 * a square stood for its unit or the squares' query was asked) in a `note:` line, the answer
 * (and the trace for CLI_WHY, CLI_WHY_FULL, CLI_WHY_NOT), then the board with line(X, Y) drawn. A square
 * off the board is an error. 0 or 1. */
int cli_los(cli_session *s, const char *x, const char *y, cli_mode mode);
/* Shared by cli.c and playing.c (the commands that play, moved out of cli.c): the trace that
 * mode asks for (CLI_WHY: brief; CLI_WHY_FULL: complete; CLI_WHY_NOT: the reasons), or NULL; and
 * the error that no board is loaded, with how to get one (returns 1). */
const char *trace_of(const hon_answer *a, cli_mode mode);
int no_board(void);
/* `do EVENT(args)` (odds false) runs the procedure and prints one line per effect with its
 * citation; with odds true (`odds do ...`), prints the distribution of its outcomes. Choices
 * are asked on the terminal (s->ask). Returns 0 or 1. */
int cli_do(cli_session *s, const char *call, const char *where, bool odds);
/* `why do EVENT(args)`: runs the procedure like cli_do, then prints the events that ran with
 * the rules that fired (mode CLI_WHY: brief; CLI_WHY_FULL: every rule checked; CLI_WHY_NOT:
 * every rule with its reasons), then `effects:` and the effect lines. With s->json, the
 * procedure's JSON object with its "trace". Returns 0 or 1. */
int cli_why_do(cli_session *s, const char *call, const char *where, cli_mode mode);
/* `move UNIT SQ...`: walks the board unit along the squares; prints the effects. 0 or 1. */
int cli_move(cli_session *s, const char *unit, const char *const *squares, size_t n);
/* `why not move UNIT SQ...` (and `why move ...`): tries the Movement Action as cli_move does and
 * says why it is refused: the query asked with its values, the forbidding rule with its
 * citations, the guard that held with the values it compared, the rules inside that led to it
 * and the plain words of the rule at its bottom (hon_refusal); the refusal's diagnostic (E228)
 * goes to stderr as for `move`. A legal move is taken back (hon_undo) and said to be legal. The
 * board is unchanged either way. With s->json, one object {"refused": bool, "what", "call",
 * "rule", "cites", "condition", "inside", "plain"}. 0 when answered; 1 on another error (an
 * unknown unit, a square off the board). */
int cli_why_move(cli_session *s, const char *unit, const char *const *squares, size_t n);
/* `reach UNIT [OUT]`: the squares the board unit can reach in one Movement Action (hon_reach:
 * the listing, or its JSON), then the board drawn with them marked (not with --json); with
 * OUT, that picture as SVG written to the file OUT instead, as cli_svg writes (whole, never
 * over a file that is no SVG: refused before the listing). 0 or 1. */
int cli_reach(cli_session *s, const char *unit, const char *svg_path);
/* `next`: the next phase (and what it set off); `undo`: reverts the last procedure; `turn`:
 * prints the clock "turn N, PHASE phase". Return 0 or 1. */
int cli_next(cli_session *s);
int cli_undo(cli_session *s);
int cli_turn(cli_session *s);

/* What `diff` and `snapshot record` were asked: the question set, how to print, and the
 * settings (a diff's two, a snapshot's one), each `EDITION[,NAME=READING]...` (repl.md §5). The
 * arrays of qs point into argv and are the caller's; settings are new strings. */
typedef struct cli_question_opts {
    hon_question_set qs;
    hon_diff_options out;
    char *settings[2];
    size_t nsettings;
    bool search;           /* diff --search: look for a witness board instead */
    bool variants;         /* diff --variants: every other reading of every variant */
    hon_search_options so; /* its options (so.queries points into argv, the array is new) */
    const char **rules;    /* --rule NAME (into argv; the array is new; out.rules and so.rules
                              share it) */
} cli_question_opts;

/* Parses the arguments of `diff` (want: 2 settings; with --variants 0 or 1) or of `snapshot
 * record FILE` after FILE (want: 1, which may be left out) into o: the question options of
 * repl.md §5, the settings, `--variant NAME=READING` added to the setting before it. g (may be
 * NULL): the global options, whose --board is one more board and --json prints JSON. False
 * with the reason in err (cap bytes) for arguments that do not fit. Free o with
 * cli_question_opts_free either way. */
bool cli_parse_question_opts(char **args, int n, size_t want, const cli_opts *g,
                             cli_question_opts *o, char *err, size_t cap);
void cli_question_opts_free(cli_question_opts *o);
/* The setting the global --edition and --variant options make: a new string, NULL on OOM. */
char *cli_global_setting(const cli_opts *g);
/* `diff A B`: two copies of the session's rules (the session is left as it is), setting A
 * applied to one and B to the other, asked every question of o->qs (hon_diff; the bundled
 * boards only when the session loaded the bundled rules); prints the
 * differences. With o->search, looks for the smallest board where they part instead
 * (hon_diff_search); with o->variants, compares setting A (or the default edition) with each
 * other reading of each variant (hon_diff_variants). Returns 0 when nothing differs (or no
 * witness was found), 1 when something does, 2 on an error (an unknown edition, reading or
 * rule, a board or question file that does not load: reported). */
int cli_diff(cli_session *s, const cli_question_opts *o);
/* `snapshot record FILE`: applies o's setting to a copy of the session's rules and writes
 * every answer of o->qs to FILE; prints "wrote FILE: N answers". Returns 0, or 2 on an
 * error. */
int cli_snapshot_record(cli_session *s, const char *path, const cli_question_opts *o);
/* `snapshot check FILE`: asks the snapshot's questions again under its setting (in a copy of
 * the session's rules) and prints what changed. Returns 0 when nothing did, 1 when something
 * did, 2 on an error. */
int cli_snapshot_check(cli_session *s, const char *path);

/* Parses a decimal seed: the whole of text, no sign, fits in 64 bits. */
bool cli_parse_seed(const char *text, uint64_t *out);
/* The cap named `name` ("steps", "depth", "list", "memory"; repl.md `limit`) into *which; false
 * when no cap has that name. */
bool cli_cap_named(const char *name, hon_cap *which);
/* Parses a cap's value into *out: a non-negative integer, for memory with an optional K, M or G
 * (binary: 1024, 1024^2, 1024^3 bytes). False when it is none. */
bool cli_parse_cap(hon_cap which, const char *text, uint64_t *out);
/* `limit [NAME [N]]` (repl.md): with N, sets cap NAME of the session (0: its default) and
 * prints it; with NAME alone, prints it; with neither, prints every cap, each as
 * `limit NAME VALUE`. Returns 0, or 1 after an error message (no such cap, a bad value). */
int cli_limit(cli_session *s, const char *name, const char *value);
/* `coverage [--inventory FILE] [--tests DIR]...` (repl.md §1, coverage.c): the citation IDs the
 * loaded rules declare, how many are cited, and (with test directories) named by a file under
 * them, by section; with an inventory, only its IDs, and those not declared, cited or tested.
 * JSON per s->json. Returns 0, or 1 after an error (an unreadable file or directory). */
int cli_coverage(cli_session *s, const char *inventory, const char *const *test_dirs, size_t n);
/* Whether `line` (NUL-terminated) is a row of a rules inventory's tables, `| ID | ...` with an
 * ID that starts with a capital and holds a '.' (as in the project's rules inventory): the
 * length of the ID, which starts at line + 2; 0 when it is no such row. coverage.c, lsp.c. */
size_t cli_inventory_row(const char *line);

/* Reporting (report.c). */

/* The library's diagnostic callback (hon_config.on_diag; ud: the cli_session): counts d in
 * s->diags (and s->errors), then hands it to s->on_diag when set, else prints it on stderr, as
 * text or, under JSON, as one object a line (repl.md §4), naming the script's true line and
 * column when d is about text a script line handed over (cli_set_script_line/_text/_alias). */
void cli_on_diag(void *ud, const hon_diag *d);
/* Turns JSON diagnostics on or off: the session's answers (s->json, s may be NULL) and every
 * diagnostic and cli_error_code after it, as one JSON object a line on stderr (repl.md §4). */
void cli_set_json(cli_session *s, bool on);
/* Writes text (UTF-8, NUL-terminated) to out as a JSON string: quoted, with '"', '\\' and the
 * control characters escaped. */
void cli_put_json_string(const char *text, FILE *out);
/* Runs fn(ud), a command that answers in text alone, and returns its status. Under JSON output
 * (s->json) what it writes to standard output is caught (a scratch file under the standard
 * output's descriptor) and written instead as one JSON object on one line,
 * {"KEY": VALUE, "text": TEXT} (VALUE a JSON string, or null when NULL; nothing at all when it
 * wrote nothing), so that `json on` output stays one object a line (repl.md §2 `json`). */
int cli_json_text(cli_session *s, const char *key, const char *value, int (*fn)(void *ud),
                  void *ud);

/* cli_error_code whose caret, on the line being run, is under `word` (its last place in the
 * line; when it is not there, cli_error_code's place). */
void cli_error_at(int code, const char *word, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* cli_error_code whose caret, on the line being run, is at byte column `col` (from 1) for `len`
 * bytes (0: 1). */
void cli_error_col(int code, size_t col, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Reports a usage error (exit status 2 is the caller's to return): `hon: MESSAGE` and the line
 * `Try 'hon --help' for more information.` on stderr, or under --json one JSON diagnostic
 * (severity error, code null) whose rendered text is those two lines. */
void cli_usage_error(const char *message);
/* Reports a note with no position (printf's fmt): `hon: note: MESSAGE` on stderr, or under JSON
 * one object of severity "note". */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_error_code about the file at `path`, which the JSON object names as its path (the text
 * form is cli_error_code's): a file that cannot be read (E005). */
void cli_error_file(int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports a warning with no position (printf's fmt): `hon: warning: MESSAGE` on stderr, or
 * under JSON one object of severity "warning". */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The library's text for status st (hon_status_text), or "error" when it has none; static. */
const char *cli_status_text(hon_status st);
/* Writes text (NUL-terminated; NULL writes nothing) to out, with a newline added unless it
 * already ends with one. */
void cli_put_block(const char *text, FILE *out);
/* Reports an error with no source position on stderr (printf's fmt), with its code from
 * docs/spec/errors.md (412 for E412; every error the program reports has one):
 * `hon: error[E412]: MESSAGE`, or under JSON one object with that code. While a line is run (a
 * script's, `hon play`'s or one typed: cli_set_script_text), the error is placed in it as a
 * diagnostic is (errors.md): `SCRIPT:LINE:COL: error[E404]: …`, the line quoted, a caret under
 * the command's word (under the words after it for a usage error, E404). */
void cli_error_code(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The codes the program reports itself (errors.md): E005, a rule file that cannot be read
 * (`fmt`); E001, a line with a NUL byte; E212, a command that needs a board with none loaded;
 * E404, a command's words that do not fit its usage; E405, a command the session cannot do now
 * (nothing to undo, no choice waiting, answers that are not the choices asked); E41x, a setting
 * naming an unknown edition, variant or reading (--edition, --variant and the REPL's `edition`
 * and `variant` are settings given one at a time); E401, E406-E410 and E499, below: every error
 * the program reports has a code. */
enum {
    CLI_E_CHARACTER = 1,
    CLI_E_CANNOT_READ = 5,
    CLI_E_NO_BOARD = 212,
    CLI_E_USAGE = 404,
    CLI_E_NOT_NOW = 405,
    CLI_E_SETTING_EDITION = 412,
    CLI_E_SETTING_VARIANT = 413,
    CLI_E_SETTING_READING = 414,
    CLI_E_NO_SUCH = 401,   /* no rule, query, fn or table of that name (`show`, `dis`) */
    CLI_E_MEMORY = 406,    /* the program ran out of memory */
    CLI_E_READ = 407,      /* a file or directory of another kind than rules cannot be read */
    CLI_E_WRITE = 408,     /* a file cannot be written, or would not be replaced */
    CLI_E_FILE_KIND = 409, /* a file or directory of the wrong kind for the command */
    CLI_E_NOTHING = 410,   /* nothing to run: no test, no citation ID */
    CLI_E_REFUSED = 499,   /* the library refused a request without a diagnostic of its own */
};

/* Standard output's write errors (`hon eval 1 > /dev/full`). cli_flush_stdout flushes it and
 * returns false when the flush, or an earlier write, failed; it keeps the errno of the first
 * failure seen. cli_stdout_failed says whether writing it has failed (flushing it first).
 * cli_stdout_error, when it has, reports once `hon: error[E408]: cannot write standard output:
 * STRERROR` on stderr (its JSON object under --json) and returns 1; else returns 0. main asks
 * it before exiting; cli_failed asks it first for an I/O failure, so that a failed write to
 * standard output is not blamed on the board, file or setting the command was about. */
bool cli_flush_stdout(void);
bool cli_stdout_failed(void);
int cli_stdout_error(void);

/* Shared by the command files (cli.c, compare.c). A failed API call: when it reported no
 * diagnostic itself (s->diags still diags_before), says "WHAT 'ARG': STATUS" with
 * cli_error_code (E406 out of memory, E407 a read that failed, else E499). Returns 1, the
 * command's exit status. */
int cli_failed(const cli_session *s, size_t diags_before, hon_status st, const char *what,
               const char *arg);

/* A declaration cut short by the end of a script (no `;` or `}` ended it; entry: its lines
 * joined by '\n', from line `start` of script `where`, its snippets named `name`): reports
 * E012 "incomplete input", naming the lines it took and pointing where a `;` most likely
 * belongs (entry_semicolon_line; repl.md §2 "Entries over several lines"). */
void cli_declaration_cut_short(const char *where, const char *name, const char *entry,
                               unsigned start);

/* An expression left unfinished (an open bracket, a last operator or keyword wanting more)
 * when the next line starts with a command word (`cmd`, its `cmdlen` bytes): reports E012
 * "incomplete input" at the end of the expression's last line (entry: its lines joined by '\n',
 * from line `start` of script `where`, NULL at the prompt; its snippets named `name`), saying
 * that the expression is dropped and the command runs (repl.md §2 "Entries over several
 * lines"). */
void cli_expression_cut_by_command(const char *where, const char *name, const char *entry,
                                   unsigned start, const char *cmd, size_t cmdlen);

/* After a declaration of several lines (entry, from line `start`) failed with a syntax error:
 * when its text was whole before its last line, a note naming the lines it took and asking
 * whether a `;` is missing there. */
void cli_declaration_swallowed(const char *entry, unsigned start);

/* Writes the file at `path` whole or not at all (hon_write_file: a temporary file renamed into
 * place). An I/O failure is reported here ("cannot write 'PATH': why", *io set); write's own
 * failures are the caller's to report. Returns write's status, or HON_ERR_IO. */
hon_status cli_write_whole(const char *path, hon_status (*write)(FILE *f, void *ud), void *ud,
                           bool *io);

/* Loads a declaration typed at the REPL (`fn twice(x: int) -> int = 2 * x;`, a rule, a
 * query...) as a small rule file of its own, named `<repl-N>` (N counts the declarations kept,
 * so each adds to the program rather than replacing the one before). All or nothing, like
 * `load`: on an error the diagnostics are printed and the program is unchanged. In a script
 * they name the script's line. Returns 0 or 1. */
int cli_declare(cli_session *s, const char *text);

/* Names the line of a script (input that is not a terminal) being run: until the next call,
 * errors of the front end and diagnostics of the text of that line (those whose path is
 * `where`) say `where:line:` (the true line of the script, not line 1 of the snippet), as do
 * diagnostics with no position of their own. where NULL or line 0: none (typed input).
 * `where` is borrowed and must outlive the script. */
void cli_set_script_line(const char *where, unsigned line);
/* An error of the front end (cli_error_code) named at another line of the script being run
 * (an answer a script gave to a choice on a later line than the command's): `where:line:col:`,
 * that line's text (borrowed) quoted and the caret under its bytes [col, col + len) (col from
 * 1; len 0: one); `where:line:` alone when text is NULL. The line being run is kept. Without a
 * script line, as cli_error_code. */
void cli_error_at_line(unsigned line, const char *text, size_t col, size_t len, int code,
                       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The whole line being run, typed or read from a script (borrowed until the next call; NULL:
 * none), whose snippets are handed over under the name `where` (borrowed: "<repl>", the
 * script's name): a diagnostic of the text the line handed over (`do`'s call, the expression
 * after `why not`, `odds`...) then names the column in the whole line and quotes it, caret
 * moved under it, in text and in JSON. */
void cli_set_script_text(const char *where, const char *text);
/* Names the source a declaration typed on the line being run is loaded under (cli_declare:
 * `<repl-N>`, borrowed until the next call; NULL: none), so that its diagnostics are counted as
 * the line's own (cli_set_script_line). */
void cli_set_script_alias(const char *name);
/* Records that the declaration `name` (`<repl-N>`, copied) was loaded from the script line
 * being run (cli_set_script_line; none: nothing recorded), so that diagnostics in its text
 * later, such as a run-time error of a fn it declares, name that script and line, counted from
 * the line it starts on. cli_forget_declared frees the records (cli_session_close). */
void cli_script_declared(const char *name);
void cli_forget_declared(void);

/* The type (as hon_type_of names it: "pos", "unit", "list<square>") of the local `name` as the
 * text before byte `at` of `text` binds it (locals.c): the nearest `let name = E;`, `for name in
 * E` or `name in E:` of the declaration holding `at` (the lines from the last one starting in
 * column 0; a REPL line is one), E's type read from a record value `R{...}`, a call's result or
 * hon_type_of; else a parameter of that declaration (a fn, query or event), or of a rule's
 * query. For completion after `name.` where the text does not build. Written into type (cap
 * bytes); false when none is found. */
bool cli_local_type(hon_vm *vm, const char *text, size_t at, const char *name, char *type,
                    size_t cap);

/* Runs one line typed at the REPL (modified in place): a comment, a command (`load`, `why`...,
 * with or without a leading ':'; repl.md) or an expression, printing as the REPL prints.
 * Returns false when the line asks to leave (`quit`, `exit`), else true (errors included). */
bool repl_line(cli_session *s, char *line);

/* Runs the interactive loop (libedit on a terminal; plain lines, no prompt, otherwise) until
 * `quit`, `exit` or end of input. On a terminal errors never end it and the status is 0. Input
 * that is not a terminal is a script named `<stdin>`: errors name its lines, the status is 1
 * when any line failed (0 otherwise), and with --bail (s->bail) the first failing line ends it. */
int repl_run(cli_session *s);

/* `hon play SCRIPT` (repl.md §2d): runs the play script at `path` as repl_run runs a script
 * (errors name `path:line`, --bail stops at the first failing line), echoing each line it runs
 * and each choice taken. With --board or --seed given (board_set, seed_set), the script's own
 * `board` and `seed` lines are skipped with a note. Returns 0, or 1 when a line failed or the
 * file cannot be read. */
int repl_play(cli_session *s, const char *path, bool board_set, bool seed_set);

#endif
