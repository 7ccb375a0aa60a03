/* repl.c — the interactive loop of `hon`: reads lines (libedit with history in ~/.hon_history on
 * a terminal; plain lines and no prompt otherwise, so input can be piped), and runs each as a
 * command (`load`, `why`, `rules`..., with or without a leading ':') or as an expression.
 * A command word counts only as the first word of a line; an entry cut short at the end of a
 * line goes on with the next (entry.h). Errors never end the session. The lines come from
 * reader.c (libedit, history, ^C); Tab completes by context (complete.c). The commands are
 * cli.c's; their contract is docs/spec/repl.md.
 */
#define _XOPEN_SOURCE 700 /* fmemopen */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "complete.h"
#include "entry.h"
#include "progress.h"
#include "reader.h"

#define PLAY_MAX_FILE ((size_t)16 << 20) /* bytes of a play script */

/* What errors call input that is not a terminal (a script). */
static const char script_name[] = "<stdin>";

/* ---- commands ---------------------------------------------------------------------------- */

typedef struct repl {
    cli_session *s;
    bool quit;
    const char *where; /* what diagnostics call typed text: r->where, or "<stdin>" in a script */
} repl;

/* Splits s in place into at most max whitespace-separated words. Returns the count, or
 * max + 1 when there are more. */
static int split_words(char *s, char **words, int max)
{
    int n = 0;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            return n;
        if (n == max)
            return max + 1;
        words[n++] = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s)
            *s++ = '\0';
    }
}

static int need(const char *args, const char *usage)
{
    if (args[0])
        return 1;
    cli_error_code(CLI_E_USAGE, "usage: %s", usage);
    return 0;
}

static int cmd_los_mode(repl *r, char *args, cli_mode mode)
{
    char *w[2];
    if (split_words(args, w, 2) != 2) {
        cli_error_code(CLI_E_USAGE, "usage: %slos X Y (X and Y: $unit, @C4 or C4)",
                       mode == CLI_WHY        ? "why "
                       : mode == CLI_WHY_FULL ? "why full "
                       : mode == CLI_WHY_NOT  ? "why not "
                                              : "");
        return 1;
    }
    return cli_los(r->s, w[0], w[1], mode);
}

/* If args starts with the whole word `word` (then a space or the end), returns what follows
 * it, spaces skipped; else NULL. */
static char *after_word(char *args, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(args, word, n) != 0 || (args[n] != '\0' && !isspace((unsigned char)args[n])))
        return NULL;
    args += n;
    while (isspace((unsigned char)*args))
        args++;
    return args;
}

/* `why [full|not] EXPR`, `why [full|not] los X Y`, `why [full|not] do EVENT(ARGS)` (repl.md
 * §2b, §2c). `full` and `not` count only as a word of their own followed by more: `why full`
 * alone asks about `full`; `why (not x)` traces the expression `not x`. The command line's
 * spellings `--full` and `--not` are taken as the same words (neither is an expression). */
static int cmd_why(repl *r, char *args)
{
    static const char *const how[] = {
        [CLI_WHY] = "", [CLI_WHY_FULL] = "full ", [CLI_WHY_NOT] = "not "
    };
    cli_mode mode = CLI_WHY;
    char *rest = after_word(args, "full");
    if (!rest || !rest[0])
        rest = after_word(args, "--full");
    if (rest && rest[0])
        mode = CLI_WHY_FULL;
    else if (((rest = after_word(args, "not")) && rest[0]) ||
             ((rest = after_word(args, "--not")) && rest[0]))
        mode = CLI_WHY_NOT;
    if (mode != CLI_WHY)
        args = rest;
    if ((rest = after_word(args, "los"))) /* the line of sight with its trace */
        return cmd_los_mode(r, rest, mode);
    if ((rest = after_word(args, "do")) && rest[0])
        return cli_why_do(r->s, rest, r->where, mode);
    if ((rest = after_word(args, "move"))) { /* why a Movement Action is refused */
        char *w[64];
        int n = split_words(rest, w, 64);
        if (n < 2 || n > 64) {
            cli_error_code(CLI_E_USAGE,
                           "usage: why %smove $UNIT SQUARE... (e.g. why not move $jeep @C4 @C5)",
                           how[mode]);
            return 1;
        }
        return cli_why_move(r->s, w[0], (const char *const *)(w + 1), (size_t)n - 1);
    }
    if (after_word(args, "do")) {
        cli_error_code(CLI_E_USAGE, "usage: why %sdo EVENT(ARGS)", how[mode]);
        return 1;
    }
    return need(args, "why [full|not] EXPR") ? cli_answer(r->s, args, r->where, mode) : 1;
}

static int cmd_los(repl *r, char *args)
{
    return cmd_los_mode(r, args, CLI_EVAL);
}

/* Removes one pair of quotes around a file name typed in the REPL. */
static char *unquote(char *args)
{
    size_t n = strlen(args);
    if (n >= 2 &&
        ((args[0] == '"' && args[n - 1] == '"') || (args[0] == '\'' && args[n - 1] == '\''))) {
        args[n - 1] = '\0';
        args++;
    }
    return args;
}

/* Says a setting a command made: `KEY VALUE` (`variant NAME = READING` with key2), or under
 * `json on` the object {"KEY": VALUE} ({"variant": NAME, "reading": READING}). */
static void put_setting(const repl *r, const char *key, const char *value, const char *key2,
                        const char *value2)
{
    if (!r->s->json) {
        printf(key2 ? "%s %s = %s\n" : "%s %s\n", key, value, value2);
        return;
    }
    printf("{\"%s\": ", key);
    cli_put_json_string(value, stdout);
    if (key2) {
        printf(", \"%s\": ", key2);
        cli_put_json_string(value2, stdout);
    }
    fputs("}\n", stdout);
}

static int cmd_board(repl *r, char *args)
{
    if (!need(args, "board FILE"))
        return 1;
    args = unquote(args);
    if (cli_board(r->s, args) != 0) {
        cli_note("the board from '%s' was not loaded; the session is unchanged", args);
        return 1;
    }
    put_setting(r, "board", args, NULL, NULL);
    return 0;
}

static int cmd_draw(repl *r, char *args)
{
    char *w[3];
    int n = split_words(args, w, 3);
    if (n == 1 && cli_place(r->s, w[0]) != 0)
        return 1; /* not a place: say why (an unknown unit's nearest name), not the usage */
    if (n > 2) {
        cli_error_code(
            CLI_E_USAGE,
            "usage: draw [X [Y]] (X alone: the board around X; X Y: the line from X to Y; "
            "each $unit, @C4 or C4)");
        return 1;
    }
    return cli_draw(r->s, n == 2 ? w[0] : NULL, n == 2 ? w[1] : NULL, n == 1 ? w[0] : NULL);
}

/* `svg FILE [X Y] [WINDOW]`: a window alone after FILE, a line, or both. */
static int cmd_svg(repl *r, char *args)
{
    char *w[4];
    int n = split_words(args, w, 4);
    if (n < 1 || n > 4) {
        cli_error_code(CLI_E_USAGE,
                       "usage: svg FILE [X Y] [WINDOW] (WINDOW: a place to centre on, or corners "
                       "C2..H6)");
        return 1;
    }
    bool line = n >= 3;
    return cli_svg(r->s, w[0], line ? w[1] : NULL, line ? w[2] : NULL,
                   n == 2   ? w[1]
                   : n == 4 ? w[3]
                            : NULL);
}

/* `odds do EVENT(args)`: the distribution of a procedure's outcomes. */
static bool starts_with_do(const char *args)
{
    return strncmp(args, "do", 2) == 0 && isspace((unsigned char)args[2]);
}

static int cmd_odds(repl *r, char *args)
{
    if (starts_with_do(args)) {
        args += 2;
        while (isspace((unsigned char)*args))
            args++;
        return need(args, "odds do EVENT(ARGS)") ? cli_do(r->s, args, r->where, true) : 1;
    }
    return need(args, "odds EXPR") ? cli_answer(r->s, args, r->where, CLI_ODDS) : 1;
}

static int cmd_do(repl *r, char *args)
{
    return need(args, "do EVENT(ARGS)") ? cli_do(r->s, args, r->where, false) : 1;
}

static int cmd_move(repl *r, char *args)
{
    char *w[64];
    int n = split_words(args, w, 64);
    if (n < 2 || n > 64) {
        cli_error_code(CLI_E_USAGE,
                       "usage: move $UNIT SQUARE... (e.g. move $jeep @C4 @C5; at most 63 squares)");
        return 1;
    }
    return cli_move(r->s, w[0], (const char *const *)(w + 1), (size_t)n - 1);
}

static int cmd_reach(repl *r, char *args)
{
    char *w[3];
    int n = split_words(args, w, 3);
    if (n < 1 || n > 2) {
        cli_error_code(CLI_E_USAGE, "usage: reach $UNIT [FILE.svg] (e.g. reach $rifle1)");
        return 1;
    }
    return cli_reach(r->s, w[0], n > 1 ? w[1] : NULL);
}

static int cmd_next(repl *r, char *args)
{
    if (args[0]) {
        cli_error_code(CLI_E_USAGE, "usage: next");
        return 1;
    }
    return cli_next(r->s);
}

static int cmd_undo(repl *r, char *args)
{
    if (args[0]) {
        cli_error_code(CLI_E_USAGE, "usage: undo");
        return 1;
    }
    return cli_undo(r->s);
}

static int cmd_turn(repl *r, char *args)
{
    if (args[0]) {
        cli_error_code(CLI_E_USAGE, "usage: turn");
        return 1;
    }
    return cli_turn(r->s);
}

static int cmd_step(repl *r, char *args)
{
    char *w[1];
    int n = split_words(args, w, 1);
    if (n == 1 && strcmp(w[0], "on") == 0) {
        r->s->stepping = true;
    } else if (n == 1 && strcmp(w[0], "off") == 0) {
        r->s->stepping = false;
    } else if (n != 0) {
        cli_error_code(CLI_E_USAGE, "usage: step [on|off]");
        return 1;
    }
    if (r->s->json)
        printf("{\"step\": %s}\n", r->s->stepping ? "true" : "false");
    else
        printf("step %s\n", r->s->stepping ? "on" : "off");
    return 0;
}

/* What a successful load may change without being asked (docs/spec/repl.md, `load`): the
 * edition and the variants' readings in force, and the game on the board. */
typedef struct load_before {
    char *edition;   /* the edition in force, or NULL */
    char **variants; /* NAME and READING, one after the other */
    size_t nvariants;
    size_t played; /* procedures in the game's history */
    char *board;   /* the loaded board, or NULL */
} load_before;

static void keep_variant(void *ud, const char *variant, const char *reading, const char *doc)
{
    (void)doc;
    load_before *b = ud;
    char **v = realloc(b->variants, (b->nvariants + 1) * 2 * sizeof *v);
    if (!v)
        return; /* out of memory: that variant's change goes unsaid */
    b->variants = v;
    v[2 * b->nvariants] = strdup(variant);
    v[2 * b->nvariants + 1] = strdup(reading ? reading : "");
    b->nvariants++;
}

static void load_before_free(load_before *b)
{
    free(b->edition);
    for (size_t i = 0; i < 2 * b->nvariants; i++)
        free(b->variants[i]);
    free(b->variants);
    free(b->board);
}

static void load_before_take(const repl *r, load_before *b)
{
    *b = (load_before){ 0 };
    const char *ed = hon_edition(r->s->vm), *board = hon_board_path(r->s->vm);
    b->edition = ed ? strdup(ed) : NULL;
    hon_each_variant(r->s->vm, keep_variant, b);
    b->played = hon_game_played(r->s->vm);
    b->board = board ? strdup(board) : NULL;
}

typedef struct variant_now {
    const char *name;
    const char *reading; /* NULL: not declared */
} variant_now;

static void find_variant(void *ud, const char *variant, const char *reading, const char *doc)
{
    (void)doc;
    variant_now *n = ud;
    if (strcmp(n->name, variant) == 0)
        n->reading = reading ? reading : "";
}

typedef struct edition_now {
    const char *name;
    bool found;
} edition_now;

static void find_edition(void *ud, const char *name, const char *parent, const char *title)
{
    (void)parent, (void)title;
    edition_now *n = ud;
    n->found = n->found || strcmp(n->name, name) == 0;
}

/* Notes what the load changed that was not asked (b: as it was before): an edition or a
 * reading no longer declared, so the session is back on another; the game restarted with the
 * procedures played on it. */
static void note_load_changes(const repl *r, const load_before *b)
{
    hon_vm *vm = r->s->vm;
    const char *ed = hon_edition(vm);
    if (b->edition && (!ed || strcmp(ed, b->edition) != 0)) {
        edition_now n = { b->edition, false };
        hon_each_edition(vm, find_edition, &n);
        if (n.found)
            cli_note("the session is now under edition %s (it was under %s)", ed ? ed : "(none)",
                     b->edition);
        else
            cli_note("edition %s is no longer declared: the session is back under edition %s",
                     b->edition, ed ? ed : "(none)");
    }
    for (size_t i = 0; i < b->nvariants; i++) {
        variant_now n = { b->variants[2 * i], NULL };
        hon_each_variant(vm, find_variant, &n);
        if (!n.reading)
            cli_note("variant %s (it read %s) is no longer declared", n.name,
                     b->variants[2 * i + 1]);
        else if (strcmp(n.reading, b->variants[2 * i + 1]) != 0)
            cli_note("variant %s now reads %s (it read %s)", n.name, n.reading,
                     b->variants[2 * i + 1]);
    }
    /* a game played and no longer: the load rebuilt the board (a load that failed before any
     * file was read, as a refused `lint`, kept it) */
    if (b->played && b->board && hon_game_played(vm) < b->played)
        cli_note("the game on %s restarted under the new rules: the %zu procedure%s played "
                 "and %s undo history dropped",
                 b->board, b->played, b->played == 1 ? "" : "s", b->played == 1 ? "its" : "their");
}

static int cmd_load(repl *r, char *args)
{
    size_t n = strlen(args);
    if (!need(args, "load FILE"))
        return 1;
    if (n >= 2 &&
        ((args[0] == '"' && args[n - 1] == '"') || (args[0] == '\'' && args[n - 1] == '\''))) {
        args[n - 1] = '\0';
        args++;
    }
    /* A scenario or play script is refused before it is read, as `--load` refuses it (E409). */
    if (cli_not_rules(args, "load", false))
        return 1;
    load_before before;
    load_before_take(r, &before);
    if (cli_load(r->s, args) != 0) {
        load_before_free(&before);
        cli_note("nothing from '%s' was loaded; the session is unchanged", args);
        return 1;
    }
    put_setting(r, "loaded", args, NULL, NULL);
    note_load_changes(r, &before);
    load_before_free(&before);
    return 0;
}

static int cmd_rules(repl *r, char *args)
{
    char *w[1];
    int n = split_words(args, w, 1);
    if (n > 1) {
        cli_error_code(CLI_E_USAGE, "usage: rules [WORD]");
        return 1;
    }
    return cli_rules(r->s, n ? w[0] : NULL);
}

static int one_name(char *args, const char *usage, char **name)
{
    char *w[1];
    if (split_words(args, w, 1) != 1) {
        cli_error_code(CLI_E_USAGE, "usage: %s", usage);
        return 0;
    }
    *name = w[0];
    return 1;
}

static int cmd_show(repl *r, char *args)
{
    char *name;
    return one_name(args, "show NAME", &name) ? cli_show(r->s, name, false) : 1;
}

static int cmd_dis(repl *r, char *args)
{
    char *name;
    return one_name(args, "dis NAME", &name) ? cli_show(r->s, name, true) : 1;
}

/* `edition` alone, for cli_json_text: the editions listed. */
static int list_editions(void *ud)
{
    return cli_edition(ud, NULL);
}

/* `variant [NAME]`, for cli_json_text: the variants (or NAME's readings) listed. */
typedef struct variant_list {
    cli_session *s;
    const char *name;
} variant_list;

static int list_variants(void *ud)
{
    const variant_list *vl = ud;
    return cli_variant(vl->s, vl->name, NULL);
}

static int cmd_edition(repl *r, char *args)
{
    char *w[1];
    int n = split_words(args, w, 1);
    if (n > 1) {
        cli_error_code(CLI_E_USAGE, "usage: edition [NAME]");
        return 1;
    }
    if (n == 0)
        return cli_json_text(r->s, "command", "edition", list_editions, r->s);
    if (cli_edition(r->s, w[0]) != 0)
        return 1;
    put_setting(r, "edition", w[0], NULL, NULL);
    return 0;
}

static int cmd_variant(repl *r, char *args)
{
    char *w[2];
    int n = split_words(args, w, 2);
    if (n == 1 && strchr(w[0], '=')) { /* variant NAME=READING */
        char *eq = strchr(w[0], '=');
        *eq = '\0';
        w[1] = eq + 1;
        n = w[0][0] && w[1][0] ? 2 : 3;
    }
    if (n > 2) {
        cli_error_code(CLI_E_USAGE, "usage: variant [NAME [READING]]");
        return 1;
    }
    if (n < 2) {
        variant_list vl = { r->s, n ? w[0] : NULL };
        return cli_json_text(r->s, "command", "variant", list_variants, &vl);
    }
    if (cli_variant(r->s, w[0], w[1]) != 0)
        return 1;
    put_setting(r, "variant", w[0], "reading", w[1]);
    return 0;
}

/* A command whose words go to a cli_* function taking them all (at most 32; `usage` when
 * there are more). */
static int words_to(repl *r, char *args, const char *usage,
                    int (*fn)(cli_session *s, const char *const *words, size_t n))
{
    char *w[32];
    int n = split_words(args, w, 32);
    if (n > 32) {
        cli_error_code(CLI_E_USAGE, "usage: %s (at most 32 words)", usage);
        return 1;
    }
    return fn(r->s, (const char *const *)w, (size_t)n);
}

/* `test` at the prompt: a refusal names `test` and `board FILE` (cli_test). */
static int test_at_prompt(cli_session *s, const char *const *args, size_t n)
{
    return cli_test(s, args, n, true);
}

static int cmd_test(repl *r, char *args)
{
    return words_to(r, args, "test [-v] [--filter PATTERN] [--json] [FILE|DIR...]", test_at_prompt);
}

/* `lint FILE` keeps what it loads, as `load` does (the game restarts), and says so; a refusal
 * names `lint` and `board FILE` (cli_lint). */
static int lint_loading(cli_session *s, const char *const *paths, size_t n)
{
    return cli_lint(s, paths, n, true);
}

/* The notes of `load` (note_load_changes) follow, as the files it names are loaded as `load`
 * loads them: an edition or a reading no longer declared, the game restarted. `lint` alone
 * loads nothing and changes none of them. */
static int cmd_lint(repl *r, char *args)
{
    load_before before;
    load_before_take(r, &before);
    int rc = words_to(r, args, "lint [FILE|DIR...]", lint_loading);
    note_load_changes(r, &before);
    load_before_free(&before);
    return rc;
}

static int cmd_seed(repl *r, char *args)
{
    char *w[1];
    uint64_t seed;
    if (split_words(args, w, 1) != 1 || !cli_parse_seed(w[0], &seed)) {
        cli_error_code(CLI_E_USAGE, "usage: seed N (a non-negative integer)");
        return 1;
    }
    hon_set_seed(r->s->vm, seed);
    return 0;
}

static int cmd_limit(repl *r, char *args)
{
    char *w[3];
    int n = split_words(args, w, 3);
    if (n > 2) {
        cli_error_code(CLI_E_USAGE, "usage: limit [steps|depth|list|memory [N]]");
        return 1;
    }
    return cli_limit(r->s, n > 0 ? w[0] : NULL, n > 1 ? w[1] : NULL);
}

/* `budget [N]`: `limit steps [N]`, the step budget of an evaluation, by the name E207 gives. */
static int cmd_budget(repl *r, char *args)
{
    char *w[2];
    int n = split_words(args, w, 2);
    if (n > 1) {
        cli_error_code(CLI_E_USAGE, "usage: budget [N]");
        return 1;
    }
    return cli_limit(r->s, "steps", n > 0 ? w[0] : NULL);
}

static int cmd_json(repl *r, char *args)
{
    char *w[1];
    int n = split_words(args, w, 1);
    if (n == 1 && strcmp(w[0], "on") == 0) {
        cli_set_json(r->s, true);
    } else if (n == 1 && strcmp(w[0], "off") == 0) {
        cli_set_json(r->s, false);
    } else if (n != 0) {
        cli_error_code(CLI_E_USAGE, "usage: json [on|off]");
        return 1;
    }
    /* the state in the form now in effect: a script's stdout under `json on` is JSON Lines */
    fputs(r->s->json ? "{\"json\": true}\n" : "json off\n", stdout);
    return 0;
}

/* `diff A B` and `snapshot record FILE [SETTING]` with their question options (repl.md §5):
 * the words of args parsed for `want` settings (from word `skip` on) into o. False (said)
 * when they do not fit. */
static bool question_words(repl *r, char *args, int skip, size_t want, cli_question_opts *o)
{
    char *w[64], err[256];
    int n = split_words(args, w, 64);
    if (n > 64) {
        cli_error_code(CLI_E_USAGE, "too many words (at most 64)");
        return false;
    }
    cli_opts g = { .json = r->s->json, .board = hon_board_path(r->s->vm) }; /* one more board */
    if (!cli_parse_question_opts(w + skip, n - skip, want, &g, o, err, sizeof err)) {
        cli_error_code(CLI_E_USAGE, "%s", err);
        return false;
    }
    return true;
}

static int cmd_diff(repl *r, char *args)
{
    cli_question_opts o = { 0 };
    int rc = question_words(r, args, 0, 2, &o) ? cli_diff(r->s, &o) : 2;
    cli_question_opts_free(&o);
    return rc;
}

static int cmd_snapshot(repl *r, char *args)
{
    char *w[2], copy[4096];
    snprintf(copy, sizeof copy, "%s", args);
    int n = split_words(copy, w, 2);
    if (n == 2 && strcmp(w[0], "check") == 0)
        return cli_snapshot_check(r->s, w[1]);
    cli_question_opts o = { 0 };
    int rc = 2;
    if (n < 2 || strcmp(w[0], "record") != 0)
        cli_error_code(CLI_E_USAGE,
                       "usage: snapshot record FILE [QOPTION]... [SETTING] | snapshot check FILE");
    else if (question_words(r, args, 2, 1, &o)) {
        const char *ed = hon_edition(r->s->vm); /* no setting: the active edition */
        cli_opts g = { .edition = ed };
        if (o.nsettings || (o.settings[o.nsettings++] = cli_global_setting(&g)))
            rc = cli_snapshot_record(r->s, w[1], &o);
    }
    cli_question_opts_free(&o);
    return rc;
}

static int cmd_help(repl *r, char *args);

/* `help`'s topic (NULL: the list of commands). */
typedef struct help_call {
    repl *r;
    const char *topic;
} help_call;

static int help_in_text(void *ud);

static int cmd_quit(repl *r, char *args)
{
    (void)args;
    r->quit = true;
    return 0;
}

static int cmd_choose(repl *r, char *args)
{
    (void)r;
    (void)args;
    cli_error_code(
        CLI_E_NOT_NOW,
        "no choice is waiting for an answer: 'choose N' answers a choice that the line "
        "before it asked (or give the answers with the command: 'do EVENT(ARGS) choosing "
        "N,...')");
    return 1;
}

/* Whether command `name` with args runs a procedure that may ask choices: do, move, next,
 * why [full|not] do, why [not] move. */
static bool asks_choices(const char *name, char *args)
{
    if (strcmp(name, "why") == 0) {
        char *rest = after_word(args, "full");
        if (!rest || !rest[0])
            rest = after_word(args, "not");
        rest = rest && rest[0] ? rest : args;
        return after_word(rest, "do") != NULL || after_word(rest, "move") != NULL;
    }
    return strcmp(name, "do") == 0 || strcmp(name, "move") == 0 || strcmp(name, "next") == 0;
}

/* Cuts a trailing `choosing A,B,...` (a word of its own, outside brackets and quotes) off args
 * and splits its answers, separated by commas or spaces, into answers (pointers into args).
 * Returns how many (0: no such clause), or -1 after an error: the clause has no answer, or
 * more than max. */
static int take_choosing(char *args, const char **answers, int max)
{
    char *at = NULL, quote = 0;
    int depth = 0;
    for (char *p = args; *p; p++) {
        if (quote) {
            quote = *p == quote ? 0 : quote;
        } else if (*p == '"' || *p == '\'') {
            quote = *p;
        } else if (strchr("([{", *p)) {
            depth++;
        } else if (strchr(")]}", *p)) {
            depth--;
        } else if (depth == 0 && p > args && isspace((unsigned char)p[-1]) &&
                   strncmp(p, "choosing", 8) == 0 && (!p[8] || isspace((unsigned char)p[8]))) {
            at = p;
        }
    }
    if (!at)
        return 0;
    char *list = at + 8;
    while (at > args && isspace((unsigned char)at[-1]))
        at--;
    *at = '\0';
    int n = 0;
    for (char *w = strtok(list, ", \t"); w; w = strtok(NULL, ", \t")) {
        if (n == max) {
            cli_error_at(CLI_E_USAGE, "choosing", "'choosing' takes at most %d answers", max);
            return -1;
        }
        answers[n++] = w;
    }
    if (n == 0)
        cli_error_at(CLI_E_USAGE, "choosing",
                     "'choosing' needs the answers, in the order the choices come: choosing 2,1");
    return n ? n : -1;
}

typedef struct command {
    const char *name;
    int (*run)(repl *r, char *args);
    const char *synopsis;
    const char *what;
    arg_kind args[4]; /* the kinds of its arguments, in order; the last one repeats */
} command;

static const command commands[] = {
    { "why",
      cmd_why,
      "why [full] EXPR",
      "the answer and the rules that fired, with citations",
      { A_EXPR } },
    { "why",
      cmd_why,
      "why not EXPR",
      "every rule checked: why each did or did not fire",
      { A_EXPR } },
    { "why",
      cmd_why,
      "why [full|not] do EVENT(ARGS)",
      "run a procedure, then the events and rules",
      { A_EXPR } },
    { "why",
      cmd_why,
      "why [not] move $UNIT SQUARE...",
      "why a move is refused: the rule, its citation, the values",
      { A_EXPR } },
    { "odds",
      cmd_odds,
      "odds EXPR",
      "the exact distribution of the expression's results",
      { A_EXPR } },
    { "do",
      cmd_do,
      "do EVENT(ARGS)",
      "run a procedure: one line per effect, with citations",
      { A_EVENT, A_EXPR } },
    { "move",
      cmd_move,
      "move $UNIT SQUARE...",
      "walk a unit along squares (raising its events)",
      { A_PLACE } },
    { "reach",
      cmd_reach,
      "reach $UNIT [FILE]",
      "the squares a unit can reach in one move, drawn (FILE: as SVG)",
      { A_PLACE, A_PICTURE, A_NONE } },
    { "next", cmd_next, "next", "the next phase of the turn (raising its events)", { A_NONE } },
    { "undo",
      cmd_undo,
      "undo",
      "revert the last procedure (do, move, next), its dice too",
      { A_NONE } },
    { "choose",
      cmd_choose,
      "choose X",
      "in a script, the answer to the choice the line before asked",
      { A_NONE } },
    { "turn", cmd_turn, "turn", "the turn and the phase", { A_NONE } },
    { "step",
      cmd_step,
      "step [on|off]",
      "pause before each effect (Enter applies, q abandons)",
      { A_NONE } },
    { "load", cmd_load, "load FILE", "load a .hon file (all or nothing)", { A_RULES, A_NONE } },
    { "board",
      cmd_board,
      "board FILE",
      "load a scenario as the board (all or nothing)",
      { A_SCENARIO, A_NONE } },
    { "draw",
      cmd_draw,
      "draw [X [Y]]",
      "draw the board (around X; with the line from X to Y)",
      { A_PLACE, A_PLACE, A_NONE } },
    { "svg",
      cmd_svg,
      "svg FILE [X Y] [WINDOW]",
      "write the board as an SVG picture (WINDOW: around a place, or corners C2..H6)",
      { A_PICTURE, A_PLACE, A_PLACE, A_PLACE } },
    { "los",
      cmd_los,
      "los X Y",
      "line_of_sight(X, Y) and the line drawn (why los: traced)",
      { A_PLACE, A_PLACE, A_NONE } },
    { "rules",
      cmd_rules,
      "rules [WORD]",
      "list the rules (matching WORD) with their citations",
      { A_NAME, A_NONE } },
    { "show",
      cmd_show,
      "show NAME",
      "the source of a rule, query, table or fn",
      { A_NAME, A_NONE } },
    { "dis", cmd_dis, "dis NAME", "the bytecode of a rule, query or fn", { A_NAME, A_NONE } },
    { "edition",
      cmd_edition,
      "edition [NAME]",
      "list the editions, or switch to one",
      { A_EDITION, A_NONE } },
    { "variant",
      cmd_variant,
      "variant [NAME [READING]]",
      "list variants, or select a reading",
      { A_VARIANT, A_READING, A_NONE } },
    { "test",
      cmd_test,
      "test [-v] [--filter PATTERN] [--json] [FILE|DIR...]",
      "run the tests (of FILEs and DIRs, loading them if needed)",
      { A_HON } },
    { "lint",
      cmd_lint,
      "lint [FILE|DIR...]",
      "warnings W001-W007 about the rules (of FILEs, loading them)",
      { A_HON } },
    { "seed", cmd_seed, "seed N", "reseed the dice", { A_NONE } },
    { "json", cmd_json, "json [on|off]", "print answers as JSON", { A_NONE } },
    { "limit",
      cmd_limit,
      "limit [NAME [N]]",
      "the caps: steps, depth, list, memory (0: the default)",
      { A_NONE } },
    { "budget",
      cmd_budget,
      "budget [N]",
      "the step budget of an evaluation (limit steps [N])",
      { A_NONE } },
    { "diff",
      cmd_diff,
      "diff [QOPTION]... A B | diff --variants [SETTING]",
      "the answers that differ between two settings (--search: a witness board; --variants: "
      "each other reading of each variant)",
      { A_EDITION } },
    { "snapshot",
      cmd_snapshot,
      "snapshot record FILE [QOPTION]... [SETTING] | check FILE",
      "record every answer, or list what changed since",
      { A_NONE, A_FILE, A_EDITION, A_NONE } },
    { "help", cmd_help, "help [COMMAND]", "this list, or one command's help", { A_HELP, A_NONE } },
    { "quit", cmd_quit, "quit", "leave (also: exit, end of input)", { A_NONE } },
    { "exit", cmd_quit, NULL, NULL, { A_NONE } },
};

/* `help`: the commands, one line each; `help WORD` (a command word, with or without its ':'):
 * that command's forms and its longer account (help.c), or, for no such command, an error with
 * the nearest command word, and a hint when WORD names a query or fn of the program. */
static int cmd_help(repl *r, char *args)
{
    char *topic = args;
    while (*topic == ' ' || *topic == '\t' || *topic == ':')
        topic++;
    size_t k = strcspn(topic, " \t");
    topic[k] = '\0';
    help_call hc = { r, k ? topic : NULL };
    /* under `json on` as `hon --json help` answers: {"topic": WORD or null, "text": …} */
    return cli_json_text(r->s, "topic", hc.topic, help_in_text, &hc);
}

/* `help [TOPIC]`'s text (ud: a help_call), for cli_json_text. */
static int help_in_text(void *ud)
{
    const help_call *hc = ud;
    repl *r = hc->r;
    const char *topic = hc->topic;
    if (!topic) {
        printf("Type an expression or a query call to see its answer, e.g. 1 + 2.\n"
               "Commands (the first word of a line, with or without a leading ':'; help COMMAND\n"
               "says more of one):\n");
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (commands[i].synopsis)
                printf("  %-26s %s\n", commands[i].synopsis, commands[i].what);
        return 0;
    }
    const char *text = repl_help_text(topic);
    if (!text) {
        const char *names[sizeof commands / sizeof commands[0]];
        char near[160];
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            names[i] = commands[i].name;
        /* the hon program's subcommands the REPL has no command for (main.c's list) */
        static const char *const program_only[] = { "eval", "check", "version", "coverage",
                                                    "lsp",  "play",  "fmt",     NULL };
        hon_query_info qi;
        bool program = false;
        for (const char *const *w = program_only; *w && !program; w++)
            program = strcmp(*w, topic) == 0;
        if (program)
            cli_error_code(
                CLI_E_USAGE,
                "no command named '%s' in the REPL: `%s` is a command of the hon program; "
                "run `hon %s ...` in the shell (`hon help %s` says more)",
                topic, topic, topic, topic);
        else if (hon_query_info_of(r->s->vm, topic, &qi) == HON_OK)
            cli_error_code(CLI_E_USAGE,
                           "no command named '%s': `%s` is a %s of the rules (show %s prints it)",
                           topic, topic, qi.is_fn ? "fn" : "query", topic);
        else
            cli_error_code(
                CLI_E_USAGE, "no command named '%s'%s", topic,
                cli_did_you_mean(topic, names, sizeof names / sizeof names[0], near, sizeof near));
        return 1;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, topic) == 0 && commands[i].synopsis)
            printf("  %-26s %s\n", commands[i].synopsis, commands[i].what);
    fputs(text, stdout);
    return 0;
}

/* ---- what completion (complete.c) asks of the command table ------------------------ */

/* The kind of argument number `n` (from 1) of command `cmd` (commands[]), A_EXPR for a line
 * that starts with no command. The sub-commands of `why` and `odds` take their own kinds:
 * `why do` an event, `why los` places. */
arg_kind repl_arg_of(const char *cmd, const char *second, size_t n)
{
    bool sub = strcmp(cmd, "why") == 0 || strcmp(cmd, "odds") == 0;
    if (sub && n >= 2 && strcmp(second, "do") == 0)
        return n == 2 ? A_EVENT : A_EXPR;
    if (sub && n >= 2 && strcmp(second, "los") == 0)
        return n <= 3 ? A_PLACE : A_NONE;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(commands[i].name, cmd) != 0)
            continue;
        const arg_kind *a = commands[i].args;
        size_t last = 0;
        while (last + 1 < sizeof commands[i].args / sizeof *a && a[last + 1] != A_UNSET)
            last++;
        return a[n - 1 < last ? n - 1 : last];
    }
    return A_EXPR;
}

void repl_each_command(void (*f)(void *ud, const char *name), void *ud)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        f(ud, commands[i].name);
}

/* Whether line's first word starts a declaration of the rules language (language.md's
 * top-level forms). */
static bool starts_declaration(const char *line)
{
    static const char *const starts[] = {
        "kind",           "side",         "ability",         "marker",  "token", "terrain",
        "square_feature", "side_feature", "interspace_item", "phase",   "face",  "value",
        "enum",           "record",       "counter",         "table",   "fn",    "query",
        "rule",           "variant",      "edition",         "default", "test",  "event",
        "source",         "module",
    };
    size_t w = 0;
    while (isalnum((unsigned char)line[w]) || line[w] == '_')
        w++;
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        if (strlen(starts[i]) == w && strncmp(starts[i], line, w) == 0)
            return true;
    return false;
}

/* Whether line (trimmed) is a declaration: it starts as one and ends as one does, with ';' or
 * '}' before any comment (so the commands `edition NAME`, `variant NAME READING` and `test` stay commands). */
static bool is_declaration(const char *line)
{
    return starts_declaration(line) && !entry_unfinished(line, ENTRY_DECLARATION);
}

/* Whether text starts a declaration that names what it declares: a declaration word followed
 * by a name (`face wreck`, `rule q.a`, `source "X"`), not a call of a function of that name
 * (`face($engine)`). */
static bool names_declaration(const char *text)
{
    size_t w = strspn(text, "abcdefghijklmnopqrstuvwxyz_"), gap = strspn(text + w, " \t");
    return starts_declaration(text) && gap > 0 &&
           (isalpha((unsigned char)text[w + gap]) || text[w + gap] == '_' || text[w + gap] == '"');
}

/* The command whose word starts line (trimmed, after any leading ':'), its length in *wlen;
 * NULL when the first word is no command word. */
static const command *command_of(const char *line, size_t *wlen)
{
    size_t n = 0;
    while (isalpha((unsigned char)line[n]))
        n++;
    *wlen = n;
    if (line[n] != '\0' && !isspace((unsigned char)line[n]))
        return NULL;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strlen(commands[i].name) == n && strncmp(commands[i].name, line, n) == 0)
            return &commands[i];
    return NULL;
}

/* How an entry starting with `line` may go on over further lines (entry.h): a command goes on
 * only while a bracket is open (a `test "T" {` block), and only when its word also starts a
 * declaration (`test`, `edition`, `variant`); a declaration until its `;` or `}`; an
 * expression while it is visibly cut short. False: the line is whole as it is. */
static bool entry_goes_on(const char *text)
{
    size_t wlen;
    text += strspn(text, " \t");
    if (!*text || *text == '#')
        return false;
    bool colon = *text == ':';
    const command *c = command_of(text + colon + strspn(text + colon, " \t"), &wlen);
    if (c || colon)
        return c && starts_declaration(text + colon) && entry_unfinished(text, ENTRY_BRACKETS);
    return entry_unfinished(text, names_declaration(text) ? ENTRY_DECLARATION : ENTRY_EXPR);
}

/* Whether line, read while the expression `entry` is unfinished (entry_goes_on), starts with a
 * command word (after any ':'), followed by a blank or nothing, as command_of reads one: then
 * it is a command, not more of the expression (repl.md §2), its word's place in *word and
 * *wlen. Only an expression's entry is cut so: a declaration's lines and a command's block
 * (`test "T" {`) take any line. */
static bool command_cuts(const char *entry, const char *line, const char **word, size_t *wlen)
{
    const char *first = entry + strspn(entry, " \t");
    size_t n;
    if (*first == ':' || command_of(first, &n) || names_declaration(first))
        return false;
    const char *t = line + strspn(line, " \t");
    t += *t == ':';
    t += strspn(t, " \t");
    *word = t;
    return command_of(t, wlen) != NULL;
}

/* Whether command c answers in text alone (under `json on`, then, one object {"command":
 * NAME, "text": …}, cli_json_text); the others answer JSON themselves, or (edition, variant,
 * help) choose for each form. */
static bool answers_in_text(const command *c)
{
    static const char *const text_only[] = { "draw", "svg",   "rules",  "show", "dis",
                                             "lint", "limit", "budget", "turn" };
    for (size_t i = 0; i < sizeof text_only / sizeof *text_only; i++)
        if (strcmp(c->name, text_only[i]) == 0)
            return true;
    return false;
}

/* A command's run, for cli_json_text. */
typedef struct command_call {
    repl *r;
    const command *c;
    char *args;
} command_call;

static int call_command(void *ud)
{
    command_call *cc = ud;
    return cc->c->run(cc->r, cc->args);
}

/* Runs command c with args (a procedure's `choosing` answers taken off them); errors: the count
 * of errors before the line. Returns 0, or 1 when it failed. Answers left unused (the rules did
 * not ask that choice, e.g. a question that depends on the dice) are said in a note naming
 * them; what the procedure did stands: undoing it would break every later line of a script. */
static int run_command(repl *r, const command *c, char *args, size_t errors)
{
    const char *answers[64];
    int n = asks_choices(c->name, args) ? take_choosing(args, answers, 64) : 0;
    if (n < 0)
        return 1;
    r->s->answers = answers;
    r->s->nanswers = (size_t)n;
    r->s->answers_used = 0;
    command_call cc = { r, c, args };
    int rc = answers_in_text(c) ? cli_json_text(r->s, "command", c->name, call_command, &cc)
                                : c->run(r, args);
    cli_flush_stdout();
    if (rc == 0 && r->s->answers_used < r->s->nanswers) {
        /* each unused answer quoted, so that `2` reads as an answer, not a count */
        char unused[256] = "";
        for (size_t i = r->s->answers_used; i < r->s->nanswers; i++)
            snprintf(unused + strlen(unused), sizeof unused - strlen(unused), "%s'%s'",
                     i > r->s->answers_used ? ", " : "", answers[i]);
        cli_note("'choosing' gave %d answer%s, the procedure asked %zu choice%s; not used: %s; "
                 "what it did stands",
                 n, n == 1 ? "" : "s", r->s->answers_used, r->s->answers_used == 1 ? "" : "s",
                 unused);
    }
    r->s->answers = NULL;
    r->s->nanswers = r->s->answers_used = 0;
    return rc || r->s->errors > errors;
}

/* Whether command c takes a file name (completion offers files for it). */
static bool takes_files(const command *c)
{
    for (size_t i = 0; i < sizeof c->args / sizeof *c->args; i++)
        if (c->args[i] == A_FILE || c->args[i] == A_RULES || c->args[i] == A_SCENARIO ||
            c->args[i] == A_HON || c->args[i] == A_PICTURE)
            return true;
    return false;
}

/* After a line that failed as an expression: when its first word (wlen bytes) is near a
 * command word (a slip: `drwa`), says which (`hon: note: did you mean the command `draw`?`). */
static void command_hint(const char *line, size_t wlen)
{
    const char *names[sizeof commands / sizeof commands[0]];
    char word[64], hint[128];
    if (wlen >= sizeof word)
        return;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        names[i] = commands[i].name;
    snprintf(word, sizeof word, "%.*s", (int)wlen, line);
    if (cli_did_you_mean(word, names, sizeof names / sizeof names[0], hint, sizeof hint)[0]) {
        cli_note("`%s` is no command%s", word, hint);
    }
}

/* Runs one line: a comment, a declaration, a command or an expression. Returns 0, or 1 when it failed (a
 * command's non-zero status, or an error reported while it ran). */
static int run_line(repl *r, char *line)
{
    size_t errors = r->s->errors;
    int rc = 0;
    char *end = line + strlen(line);
    bool colon;
    size_t wlen = 0;

    while (isspace((unsigned char)*line))
        line++;
    while (end > line && isspace((unsigned char)end[-1]))
        *--end = '\0';
    if (!*line || *line == '#')
        return 0;
    if (is_declaration(line))
        return cli_declare(r->s, line) || r->s->errors > errors;
    colon = *line == ':';
    if (colon) {
        line++;
        while (isspace((unsigned char)*line))
            line++;
    }
    const command *c = command_of(line, &wlen);
    if (c) {
        char *args = line + wlen;
        while (isspace((unsigned char)*args))
            args++;
        char *home = takes_files(c) ? repl_with_home(args) : NULL;
        rc = run_command(r, c, home ? home : args, errors);
        free(home);
        return rc;
    }
    if (colon) {
        cli_error_code(CLI_E_USAGE, "unknown command ':%.*s' (type 'help')",
                       (int)(wlen ? wlen : strlen(line)), line);
        return 1;
    }
    rc = cli_answer(r->s, line, r->where, CLI_EVAL);
    if (rc && wlen && (!line[wlen] || isspace((unsigned char)line[wlen])) &&
        !starts_declaration(line))
        command_hint(line, wlen);
    if (rc && names_declaration(line)) {
        cli_note("a declaration typed here is loaded when it ends with ';' or '}'");
    }
    return rc || r->s->errors > errors;
}

bool repl_line(cli_session *s, char *line)
{
    repl r = { s, false, "<repl>" };
    run_line(&r, line);
    return !r.quit;
}

/* How a script runs under `hon play` (NULL for repl_run): its lines are echoed, and its own
 * `board` and `seed` lines give way to the command line's options. */
typedef struct play_opts {
    bool board_set, seed_set; /* --board, --seed given */
} play_opts;

/* In a play script, a line to skip because the command line said otherwise: `board FILE` with
 * --board, `seed N` with --seed (said in a note). */
static bool overridden(const cli_session *s, const play_opts *play, const char *line,
                       unsigned lineno)
{
    line += *line == ':';
    size_t n = strcspn(line, " \t");
    const char *what = NULL;
    if (n == 5 && strncmp(line, "board", 5) == 0 && play->board_set)
        what = "--board";
    else if (n == 4 && strncmp(line, "seed", 4) == 0 && play->seed_set)
        what = "--seed";
    if (what)
        cli_put_script_line(s, lineno, line, what);
    return what != NULL;
}

/* Runs one entry of rd (one line, or the lines of an entry that went on, joined by '\n';
 * edited in place) that started on line `start` of a script: its diagnostics name that line and
 * quote its first line. Returns 1 when it failed. */
static int run_entry(cli_session *s, reader *rd, repl *r, char *entry, unsigned start, bool wrapped,
                     progress **watched)
{
    /* as written (run_line edits it): diagnostics quote it whole */
    char *text = strndup(entry, strcspn(entry, "\n"));
    if (!rd->el)
        cli_set_script_line(rd->name, start);
    cli_set_script_text(r->where, text);
    hon_interrupt_clear(); /* a ^C typed at the prompt is not for this line */
    reader_interrupt_honoured();
    progress pg;
    progress_start(&pg, !wrapped || s->json); /* on a terminal, text answers */
    *watched = &pg;
    int failed = run_line(r, entry);
    reader_interrupt_honoured(); /* its E231, if a ^C stopped it, is reported: ^C stops again */
    cli_flush_stdout();
    *watched = NULL;
    progress_stop(&pg);
    cli_set_script_text(NULL, NULL);
    free(text);
    return failed;
}

/* Adds line to the entry being gathered (*entry, *len bytes; a '\n' between lines). False on
 * OOM. */
static bool add_to_entry(char **entry, size_t *len, const char *line)
{
    size_t n = strlen(line);
    char *e = realloc(*entry, *len + n + 2);
    if (!e)
        return false;
    if (*len)
        e[(*len)++] = '\n';
    memcpy(e + *len, line, n + 1);
    *entry = e;
    *len += n;
    return true;
}

/* Runs the lines of rd (a script when rd is no terminal) until `quit`, `exit` or the end; an
 * entry that goes on (entry_goes_on) gathers the lines after it until it is whole (or the
 * input ends, or ^C drops it on a terminal). When wrapped (a terminal whose streams progress.h
 * wraps), each entry that runs long shows a progress line, watched through *watched. Returns
 * the status of repl_run. */
static int run_lines(cli_session *s, reader *rd, repl *r, const play_opts *play, bool wrapped,
                     progress **watched)
{
    char *line, *entry = NULL;
    size_t len = 0;
    unsigned start = 0;
    int status = 0;
    bool bad = false;
    s->ask = reader_ask;
    s->ask_ud = rd;
    while (!r->quit) {
        line = reader_next(rd);
        if (rd->abandoned) { /* ^C at the continuation prompt */
            rd->abandoned = rd->pending = false;
            len = 0;
            continue;
        }
        if (!line && !rd->pending)
            break;
        const char *word;
        size_t wlen;
        if (line && rd->pending && command_cuts(entry, line, &word, &wlen)) {
            /* not swallowed: the unfinished expression fails (E012), the command runs */
            cli_expression_cut_by_command(rd->el ? NULL : rd->name, r->where, entry, start, word,
                                          wlen);
            rd->pending = false;
            len = 0;
            if (!rd->el) {
                status = 1;
                if (s->bail)
                    break;
            }
        }
        if (line && !rd->pending) {
            const char *t = line + strspn(line, " \t");
            if (play && (!*t || (t[0] == '#' && t[1] != '#')))
                continue;
            if (play && t[0] == '#') { /* `## ...`: the script's narration, printed */
                cli_put_narration(s, t);
                continue;
            }
            if (play && overridden(s, play, t, rd->lines))
                continue;
            start = rd->lines;
            bad = false;
            len = 0;
        }
        if (line) {
            if (play)
                cli_put_script_line(s, rd->lines, line + (rd->pending ? 0 : strspn(line, " \t")),
                                    NULL);
            bad = bad || rd->bad_line;
            if (!add_to_entry(&entry, &len, line))
                break;
            rd->pending = entry_goes_on(entry);
            if (rd->pending)
                continue;
        }
        /* whole, or cut short by the end of the input */
        bool cut_short = rd->pending && !line && !rd->el;
        rd->pending = false;
        const char *first = entry + strspn(entry, " \t");
        bool declaration = names_declaration(first + (*first == ':'));
        size_t syntax_before = s->syntax_errors;
        int failed = 1;
        if (cut_short && declaration)
            cli_declaration_cut_short(rd->name, r->where, entry, start);
        else
            failed = run_entry(s, rd, r, entry, start, wrapped, watched);
        if (failed && !cut_short && declaration && !rd->el && s->syntax_errors > syntax_before &&
            strchr(entry, '\n'))
            cli_declaration_swallowed(entry, start);
        len = 0;
        if ((failed || bad) && !rd->el) {
            status = 1;
            if (s->bail)
                break;
        }
        if (!line)
            break;
    }
    cli_set_script_line(NULL, 0);
    free(entry);
    s->ask = NULL;
    s->ask_ud = NULL;
    s->script = false;
    return status;
}

int repl_run(cli_session *s)
{
    reader rd;
    repl r = { s, false, "<repl>" };
    reader_open(&rd, s, stdin, script_name);
    /* on a terminal, a line that runs long shows a progress line (progress.h) */
    progress *watched = NULL;
    progress_streams streams;
    bool wrapped = rd.el && progress_wrap(&streams, &watched);
    if (rd.el)
        printf(
            "hon %s — Heroes of Normandie rules. Type 'help' for the commands, 'quit' to leave.\n",
            hon_version());
    else
        r.where = script_name; /* a script: its errors name its lines, and they count */
    int status = run_lines(s, &rd, &r, NULL, wrapped, &watched);
    if (wrapped)
        progress_unwrap(&streams);
    reader_close(&rd);
    return status;
}

int repl_play(cli_session *s, const char *path, bool board_set, bool seed_set)
{
    /* read whole as every file a user names (hon_read_file): a directory, a FIFO or a device
       (/dev/zero, which was read forever) is refused with the reason */
    char *script;
    size_t len;
    const char *why;
    hon_status st = hon_read_file(path, PLAY_MAX_FILE, &script, &len, &why);
    FILE *in = st == HON_OK ? fmemopen(script, len, "r") : NULL;
    if (!in) {
        cli_error_code(st == HON_ERR_MEMORY || st == HON_OK ? CLI_E_MEMORY : CLI_E_READ,
                       "cannot read the play script '%s': %s", path,
                       st == HON_OK ? strerror(ENOMEM) : why);
        hon_text_free(script);
        return 1;
    }
    reader rd;
    repl r = { s, false, path };
    play_opts play = { board_set, seed_set };
    reader_open(&rd, s, in, path);
    s->echo_choices = true;
    const char *slash = strrchr(path, '/'); /* its `load` and `board` files may lie beside it */
    s->script_dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : NULL;
    progress *watched = NULL; /* a play script shows no progress line */
    int status = run_lines(s, &rd, &r, &play, false, &watched);
    free(s->script_dir);
    s->script_dir = NULL;
    s->echo_choices = false;
    reader_close(&rd);
    fclose(in);
    hon_text_free(script);
    return status;
}
