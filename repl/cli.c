/* cli.c — the commands of the `hon` program, shared by the REPL (repl.c) and the subcommands
 * (main.c): opening a session (finding and loading the rule directories), answering expressions,
 * loading, checking and testing files, listing rules, editions and variants. How they report
 * (diagnostics, errors, a script's true line) is report.c's.
 * Only include/hon.h is used. Output contract (text forms, exit codes): docs/spec/repl.md.
 * This is program code, not library code: it allocates with malloc/free (the mem_realloc funnel
 * is internal to the library) and frees everything in cli_session_close.
 */
/* realpath() is XSI: glibc declares it only with _XOPEN_SOURCE. */
#define _XOPEN_SOURCE 700
#include "cli.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dup_str(const char *a)
{
    size_t n = strlen(a) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, a, n);
    return p;
}

/* Returns a new string "a/b". */
static char *join_path(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = malloc(na + nb + 2);
    if (!p)
        return NULL;
    memcpy(p, a, na);
    p[na] = '/';
    memcpy(p + na + 1, b, nb + 1);
    return p;
}

/* Returns a new copy of dir without trailing slashes ("/" stays "/"). */
static char *normalise_dir(const char *dir)
{
    char *d = dup_str(dir);
    size_t n;
    if (!d)
        return NULL;
    n = strlen(d);
    while (n > 1 && d[n - 1] == '/')
        d[--n] = '\0';
    return d;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Loads a rule directory (all or nothing). A missing directory is an error when `required`,
 * else it is skipped. Returns 0 or 1. */
static int load_dir(cli_session *s, const char *dir, bool required)
{
    char *d = normalise_dir(dir);
    int rc = 0;
    size_t before = s->diags;

    if (!d) {
        cli_error_code(CLI_E_MEMORY, "out of memory");
        return 1;
    }
    if (!is_dir(d)) {
        if (required) {
            cli_error_code(CLI_E_READ, "rules directory '%s' not found", dir);
            rc = 1;
        }
    } else {
        hon_status st = hon_load_dir(s->vm, d);
        if (st != HON_OK)
            rc = cli_failed(s, before, st, "cannot load rules directory", d);
    }
    free(d);
    return rc;
}

/* Loads the bundled rules and, when it is a directory, expansions/ beside them, in one build
 * (hon_load_dirs): as load_dir on each in turn, the second not required. Returns 0 or 1. */
static int load_bundled(cli_session *s, const char *rules, const char *exps)
{
    const char *dirs[] = { rules, exps };
    size_t before = s->diags, loaded = 0;
    hon_status st = hon_load_dirs(s->vm, dirs, is_dir(exps) ? 2 : 1, &loaded);
    s->bundled_rules = loaded > 0;
    return st == HON_OK ? 0
                        : cli_failed(s, before, st, "cannot load rules directory", dirs[loaded]);
}

void cli_opts_free(cli_opts *o)
{
    if (!o)
        return;
    free(o->rule_dirs);
    free(o->loads);
    free(o->variants);
    memset(o, 0, sizeof *o);
}

/* Loads the rule directories o asks for (see cli_session_open). Returns 0 or 1. */
static int load_rule_dirs(cli_session *s, const cli_opts *o)
{
    const char *env = getenv("HON_RULES");
    int rc = 0;

    if (o->no_rules)
        return 0;
    if (o->n_rule_dirs) {
        for (size_t i = 0; i < o->n_rule_dirs && rc == 0; i++)
            rc = load_dir(s, o->rule_dirs[i], true);
    } else if (env && env[0]) {
        char *copy = dup_str(env);
        char *save = NULL;
        if (!copy) {
            cli_error_code(CLI_E_MEMORY, "out of memory");
            return 1;
        }
        for (char *dir = strtok_r(copy, ":", &save); dir && rc == 0;
             dir = strtok_r(NULL, ":", &save))
            rc = load_dir(s, dir, true);
        free(copy);
    } else {
        /* the build tree's hon: the source tree's rules; else the installed ones */
        const char *root = hon_bundle_dir();
        char *rules = join_path(root, "rules"), *exps = join_path(root, "expansions");
        if (!rules || !exps) {
            cli_error_code(CLI_E_MEMORY, "out of memory");
            rc = 1;
        } else if (!is_dir(rules)) {
            cli_warn("no bundled rules found in %s (set HON_DATADIR to the installed share/hon)",
                     rules);
        } else {
            rc = load_bundled(s, rules, exps);
        }
        free(rules);
        free(exps);
    }
    return rc;
}

int cli_session_open(cli_session *s, const cli_opts *o)
{
    hon_config cfg;

    memset(s, 0, sizeof *s);
    memset(&cfg, 0, sizeof cfg);
    cfg.on_diag = cli_on_diag;
    cfg.userdata = s;
    cfg.seed = o->seed_set ? o->seed : 0;
    cfg.step_budget = o->step_budget;
    cfg.max_depth = o->max_depth;
    cfg.max_list = (size_t)o->max_list;
    cfg.chooser = cli_choose;
    cfg.on_effect = cli_step;
    cfg.before_choice = cli_before_choice;
    cli_set_json(s, o->json);
    s->bail = o->bail;
    s->vm = hon_vm_new(&cfg);
    if (!s->vm) {
        cli_error_code(CLI_E_MEMORY, "out of memory");
        return 1;
    }
    if (o->lazy) /* before the rules load: a one-shot command compiles what it asks */
        hon_build_lazily(s->vm, true);
    /* set before the rules load, so that the memory cap covers loading them */
    if (o->max_memory && hon_set_cap(s->vm, HON_CAP_MEMORY, o->max_memory) != HON_OK) {
        cli_error_code(CLI_E_USAGE, "--max-memory: at least 1M");
        return 1;
    }
    if (load_rule_dirs(s, o) != 0)
        return 1;
    for (size_t i = 0; i < o->n_loads; i++)
        if (cli_not_rules(o->loads[i], "--load", false) || cli_load(s, o->loads[i]) != 0)
            return 1;
    if (o->edition && cli_edition(s, o->edition) != 0)
        return 1;
    for (size_t i = 0; i < o->n_variants; i++)
        if (cli_variant(s, o->variants[i].name, o->variants[i].reading) != 0)
            return 1;
    if (o->board && cli_board(s, o->board) != 0)
        return 1;
    return 0;
}

void cli_session_close(cli_session *s)
{
    if (!s)
        return;
    hon_vm_free(s->vm);
    free(s->answer);
    cli_forget_declared();
    memset(s, 0, sizeof *s);
}

/* The trace mode asks for (CLI_WHY: brief; CLI_WHY_FULL: complete; CLI_WHY_NOT: the
 * reasons), or NULL. */
const char *trace_of(const hon_answer *a, cli_mode mode)
{
    return mode == CLI_WHY        ? hon_answer_why(a)
           : mode == CLI_WHY_FULL ? hon_answer_trace(a)
           : mode == CLI_WHY_NOT  ? hon_answer_why_not(a)
                                  : NULL;
}

/* The forms of the trace (HON_WANT_*) that printing an answer for mode needs: the JSON's
 * (with --json), else trace_of's; none for a plain answer, which then is not traced. */
static unsigned want_of(const cli_session *s, cli_mode mode)
{
    return s->json                ? HON_WANT_JSON
           : mode == CLI_WHY      ? HON_WANT_WHY
           : mode == CLI_WHY_FULL ? HON_WANT_TRACE
           : mode == CLI_WHY_NOT  ? HON_WANT_WHY_NOT
                                  : 0;
}

/* Prints answer a as mode asks: its JSON, or its text (then the trace of trace_of, which
 * starts with the setting). */
static void put_answer_as(cli_session *s, const hon_answer *a, cli_mode mode)
{
    if (s->json) {
        cli_put_block(hon_answer_json(a), stdout);
    } else {
        cli_put_block(hon_answer_text(a), stdout);
        if (trace_of(a, mode))
            cli_put_block(trace_of(a, mode), stdout);
        else if (!hon_answer_default_setting(a))
            printf("(under %s)\n", hon_answer_setting(a));
    }
    cli_flush_stdout();
}

int cli_answer(cli_session *s, const char *expr, const char *where, cli_mode mode)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    hon_status st = mode == CLI_ODDS ? hon_odds(s->vm, expr, where, &a)
                                     : hon_eval_as(s->vm, expr, where, want_of(s, mode), &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        return cli_failed(s, before, st, "cannot evaluate", expr);
    }
    put_answer_as(s, a, mode);
    hon_answer_free(a);
    return 0;
}

/* Loads path with `load` (a rules or a board loader of hon.h); what says what failed. */
static int load_with(cli_session *s, hon_status (*load)(hon_vm *, const char *), const char *what,
                     const char *path)
{
    size_t before = s->diags;
    hon_status st = load(s->vm, path);
    return st == HON_OK ? 0 : cli_failed(s, before, st, what, path);
}

static char **dir_files(const char *dir, const char *suffix, size_t *n);
static void files_free(char **files, size_t n);
static char *loaded_name(cli_session *s, const char *path);
static bool has_suffix(const char *text, const char *suffix);

/* The twin of path (cli_twin_of_bundled): the name the program holds the bundled file under
 * (new string), or NULL when path is no copy of one. *dir: path is a directory; *start: where
 * its rules/ or expansions/ component starts in path. */
static char *twin_of(cli_session *s, const char *path, bool *dir, size_t *start_at)
{
    if (!s->bundled_rules || !path)
        return NULL;
    char *held = loaded_name(s, path);
    if (held) { /* the bundled file itself (the build tree's hon), however spelt */
        free(held);
        return NULL;
    }
    /* DIR is rules/ or expansions/ (as given, or the directory a file of it is in) */
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    *dir = is_dir(path);
    size_t end = n;
    if (!*dir) {
        while (end > 0 && path[end - 1] != '/')
            end--;
        if (end == 0 || !has_suffix(path, ".hon"))
            return NULL;
        end--; /* the '/' before the file's name */
    }
    size_t start = end;
    while (start > 0 && path[start - 1] != '/')
        start--;
    *start_at = start;
    size_t len = end - start;
    const char *sub = path + start;
    if (!((len == 5 && strncmp(sub, "rules", 5) == 0) ||
          (len == 10 && strncmp(sub, "expansions", 10) == 0)))
        return NULL;
    /* the directory above holds both rules/ and expansions/, as a checkout and the data
       directory do (tests/rules/ is no copy of rules/: tests/ has no expansions/) */
    char above[PATH_MAX];
    snprintf(above, sizeof above, "%.*s%s", (int)start, path, start ? "" : ".");
    char *r = join_path(above, "rules"), *x = join_path(above, "expansions");
    bool checkout = r && x && is_dir(r) && is_dir(x);
    free(r);
    free(x);
    if (!checkout)
        return NULL;
    char *twin = NULL;
    if (*dir) { /* its first .hon file stands for the directory */
        size_t k;
        char **files = dir_files(path, ".hon", &k);
        const char *base = k ? strrchr(files[0], '/') : NULL;
        char rel[PATH_MAX], *itself = k ? loaded_name(s, files[0]) : NULL;
        if (!itself && base &&
            snprintf(rel, sizeof rel, "%.*s%s", (int)len, sub, base) < (int)sizeof rel)
            twin = join_path(hon_bundle_dir(), rel);
        free(itself); /* the bundled directory itself: no twin */
        files_free(files, k);
    } else {
        twin = join_path(hon_bundle_dir(), sub);
    }
    char *twin_held = twin ? loaded_name(s, twin) : NULL;
    free(twin);
    return twin_held;
}

char *cli_bundled_twin(cli_session *s, const char *path)
{
    bool dir = false;
    size_t start = 0;
    char *twin = twin_of(s, path, &dir, &start);
    if (twin && dir) {
        free(twin);
        return NULL;
    }
    return twin;
}

int cli_twin_of_bundled(cli_session *s, const char *path)
{
    bool dir = false;
    size_t start = 0;
    char *twin_held = twin_of(s, path, &dir, &start);
    if (!twin_held)
        return 0;
    /* the checkout the copy is in: the directory above rules/ (empty: the current one) */
    int root = start > 0 ? (int)(start - 1) : 0;
    char *shown = dir ? dup_str(twin_held) : NULL; /* a directory: the twin's directory */
    char *slash = shown ? strrchr(shown, '/') : NULL;
    if (slash)
        *slash = '\0';
    cli_error_code(
        CLI_E_FILE_KIND,
        "'%s' is a copy of the bundled %s %s, which this hon has loaded: read beside it, "
        "each of its declarations would be a duplicate (E110). To use a checkout's rules "
        "instead of the bundled ones, name its directories: hon --rules %.*s%srules "
        "--rules %.*s%sexpansions ...",
        path, dir ? "directory" : "file", shown ? shown : twin_held, root, path, root ? "/" : "",
        root, path, root ? "/" : "");
    free(shown);
    free(twin_held);
    return 1;
}

int cli_load(cli_session *s, const char *path)
{
    if (cli_twin_of_bundled(s, path))
        return 1;
    char *bundled = cli_found(s, path); /* `load examples/play/x.hon`, as `board` */
    int rc = load_with(s, hon_load_file, "cannot load", bundled ? bundled : path);
    if (rc && !bundled)
        cli_note_near_file(s, path);
    free(bundled);
    return rc;
}

int cli_declare(cli_session *s, const char *text)
{
    char name[32];
    size_t before = s->diags, redeclared = s->redeclared;
    snprintf(name, sizeof name, "<repl-%u>", ++s->declarations);
    cli_set_script_alias(name);
    hon_status st = hon_load_source(s->vm, name, text, strlen(text));
    cli_set_script_alias(NULL);
    /* A refused declaration keeps its number: its diagnostics named `<repl-N>`, so the next
       one takes N + 1 and each name points at one text. */
    if (st == HON_OK)
        cli_script_declared(name);  /* its run-time errors name the script's line */
    if (s->redeclared > redeclared) /* E110: no declaration is replaced while hon runs */
        cli_note("a declaration cannot be replaced while hon runs: declare the new one under "
                 "another name, or change the file it came from and start hon again");
    return st == HON_OK ? 0 : cli_failed(s, before, st, "cannot declare", text);
}

/* Whether text ends with suffix. */
static bool has_suffix(const char *text, const char *suffix)
{
    size_t n = strlen(text), k = strlen(suffix);
    return n >= k && strcmp(text + n - k, suffix) == 0;
}

/* Looking for a loaded file: its canonical path, and the name the program holds it under. */
typedef struct file_search {
    const char *real;
    char *name; /* new, or NULL until found */
} file_search;

static void match_file(void *ud, const char *path)
{
    file_search *f = ud;
    char *other = f->name ? NULL : realpath(path, NULL);
    if (other && strcmp(other, f->real) == 0)
        f->name = dup_str(path);
    free(other);
}

/* Returns a new copy of the name under which the program holds the file `path` (the same file,
 * however it is spelled: hon_each_file), or NULL when it does not hold it. */
static char *loaded_name(cli_session *s, const char *path)
{
    file_search f = { realpath(path, NULL), NULL };
    if (f.real)
        hon_each_file(s->vm, match_file, &f);
    free((char *)f.real);
    return f.name;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of directory dir whose names end with suffix (not hidden, no directory), as new
 * paths "DIR/NAME" in name order, *n of them (an array and strings the caller frees); NULL with *n == 0 when
 * there is none or the directory cannot be read. */
static char **dir_files(const char *dir, const char *suffix, size_t *n)
{
    char **out = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.' || !has_suffix(e->d_name, suffix))
            continue;
        if (*n == cap) {
            char **more = realloc(out, (cap = cap ? 2 * cap : 16) * sizeof *out);
            if (!more)
                break;
            out = more;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        if (!path)
            continue;
        snprintf(path, len, "%s%s%s", dir, dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/",
                 e->d_name);
        struct stat sb; /* a subdirectory named x.hon (or a link to one) is no file of it */
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
            free(path);
        else
            out[(*n)++] = path;
    }
    closedir(d);
    if (*n)
        qsort(out, *n, sizeof *out, by_path);
    return out;
}

static void files_free(char **files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
}

/* True, said as an error: dir has no .hon (nor .scn, scn) file of its own for cmd to read. */
static bool dir_reads_nothing(const char *dir, const char *cmd, bool scn)
{
    size_t hon_n = 0, scn_n = 0; /* each set by dir_files before files_free reads it */
    char **hon = dir_files(dir, ".hon", &hon_n),
         **scns = scn ? dir_files(dir, ".scn", &scn_n) : NULL;
    files_free(hon, hon_n);
    files_free(scns, scn_n);
    if (hon_n + scn_n)
        return false;
    cli_error_code(CLI_E_FILE_KIND,
                   "%s: no .hon%s file in '%s' (the files of its subdirectories are not read: name "
                   "those directories)",
                   cmd, scn ? " or .scn" : "", dir);
    return true;
}

int cli_check_all(cli_session *s, const char *const *paths, size_t n)
{
    int rc = 0;
    bool given_rules = false;
    /* the rules first (files and directories, kept so the scenarios are checked against
       them), then the scenarios */
    for (size_t i = 0; i < n; i++) {
        if (is_dir(paths[i])) {
            size_t before = s->diags;
            if (dir_reads_nothing(paths[i], "check", true) || cli_twin_of_bundled(s, paths[i])) {
                rc = 1;
                continue;
            }
            hon_status st = hon_load_dir(s->vm, paths[i]);
            if (st != HON_OK)
                rc |= cli_failed(s, before, st, "cannot check", paths[i]);
            given_rules = true;
        } else if (cli_not_rules(paths[i], "hon check", true)) {
            rc = 1;
        } else if (!has_suffix(paths[i], ".scn")) {
            rc |= given_rules || n > 1 ? cli_load(s, paths[i]) : cli_check(s, paths[i]);
            given_rules = true;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (is_dir(paths[i])) {
            size_t k;
            char **scn = dir_files(paths[i], ".scn", &k);
            for (size_t j = 0; j < k; j++)
                rc |= cli_check(s, scn[j]);
            files_free(scn, k);
        } else if (has_suffix(paths[i], ".scn")) {
            rc |= cli_check(s, paths[i]);
        }
    }
    return rc;
}

int cli_check(cli_session *s, const char *path)
{
    size_t before = s->diags, errors = s->errors;
    char *held = loaded_name(s, path);
    hon_status st;

    if (!held && cli_twin_of_bundled(s, path))
        return 1;
    /* A file the program already holds (a bundled one) was checked when this session loaded
     * it, without error; checking it again beside itself would report every declaration as a
     * duplicate. */
    if (held) {
        free(held);
        return 0;
    }
    st = has_suffix(path, ".scn") ? hon_check_board(s->vm, path) : hon_check_file(s->vm, path);
    if (st != HON_OK)
        return cli_failed(s, before, st, "cannot check", path);
    return s->errors != errors;
}

/* Where a usage error of command `cmd` points for more: at the REPL prompt (`prompt`) to the
 * prompt's `help CMD`, on the command line to `hon --help` (repl.md §1). A static string. */
static const char *more_help(const char *cmd, bool prompt)
{
    if (!prompt)
        return "Try 'hon --help' for more information.";
    return strcmp(cmd, "lint") == 0 ? "Try 'help lint' for more information."
                                    : "Try 'help test' for more information.";
}

int cli_lint(cli_session *s, const char *const *paths, size_t n, bool prompt)
{
    size_t before = s->diags, warnings = 0;
    for (size_t i = 0; i < n; i++)
        if (paths[i][0] == '-' && paths[i][1]) {
            cli_error_code(CLI_E_USAGE, "lint takes files and directories, not '%s'\n%s", paths[i],
                           more_help("lint", prompt));
            return 2; /* a usage error (repl.md §1, Exit status) */
        }
    for (size_t i = 0; i < n; i++) {
        if (is_dir(paths[i]) && dir_reads_nothing(paths[i], "lint", false))
            return 1;
        if (cli_not_rules(paths[i], prompt ? "lint" : "hon lint", false) ||
            cli_twin_of_bundled(s, paths[i]))
            return 1;
    }
    for (size_t i = 0; i < n; i++) {
        hon_status st =
            is_dir(paths[i]) ? hon_load_dir(s->vm, paths[i]) : hon_load_file(s->vm, paths[i]);
        if (st != HON_OK)
            return cli_failed(s, before, st, "cannot load", paths[i]);
        if (prompt)
            printf("loaded %s\n", paths[i]);
    }
    hon_status st = hon_lint(s->vm, paths, n, &warnings);
    if (st != HON_OK)
        return cli_failed(s, before, st, "cannot lint", n ? paths[0] : "the rules");
    /* any warning fails: lint's own (W001-W007) and those loading the files gave (a drifted
     * citation, E172) */
    return warnings != 0 || s->diags != before;
}

/* How `test` reports: each result (verbose), failures only, or one JSON object. */
typedef struct test_report {
    bool verbose, json;
    size_t shown; /* results written so far (JSON: to place the commas) */
} test_report;

static void on_test_result(void *ud, const hon_test_result *r)
{
    test_report *rep = ud;
    if (rep->json) {
        if (rep->shown++) /* all on one line: `json on` output is one object a line */
            fputs(", ", stdout);
        fputs("{\"title\": ", stdout);
        cli_put_json_string(r->title, stdout);
        fputs(", \"path\": ", stdout);
        cli_put_json_string(r->path, stdout);
        printf(", \"line\": %u, \"passed\": %s, \"failures\": [", r->line,
               r->passed ? "true" : "false");
        /* one string per failure line */
        const char *line = r->failures;
        for (int k = 0; *line; k++) {
            const char *nl = strchr(line, '\n');
            size_t len = nl ? (size_t)(nl - line) : strlen(line);
            char *one = strndup(line, len);
            if (k)
                fputs(", ", stdout);
            cli_put_json_string(one ? one : "", stdout);
            free(one);
            line += len + (nl != NULL);
        }
        fputs("]}", stdout);
        return;
    }
    if (rep->verbose)
        printf("%s %s   (%s:%u)\n", r->passed ? "ok  " : "FAIL", r->title, r->path, r->line);
    fputs(r->failures, stdout);
}

int cli_test(cli_session *s, const char *const *args, size_t nargs, bool prompt)
{
    size_t passed = 0, failed_n = 0, n = 0, dir_names = 0; /* the files of directories given */
    int rc = 0;
    test_report rep = { false, s->json, 0 };
    const char *filter = NULL;
    const char **paths = calloc(nargs ? nargs : 1, sizeof *paths);
    char **names = calloc(nargs ? nargs : 1, sizeof *names);

    if (!paths || !names) {
        free(paths);
        free(names);
        cli_error_code(CLI_E_MEMORY, "out of memory");
        return 1;
    }
    for (size_t i = 0; i < nargs && rc == 0; i++) {
        if (strcmp(args[i], "-v") == 0 || strcmp(args[i], "--verbose") == 0)
            rep.verbose = true;
        else if (strcmp(args[i], "--json") == 0)
            rep.json = true;
        else if (strcmp(args[i], "--filter") == 0 && i + 1 < nargs)
            filter = args[++i];
        else if (strncmp(args[i], "--filter=", 9) == 0 && args[i][9]) /* as --NAME=VALUE */
            filter = args[i] + 9;
        else if (strcmp(args[i], "--filter") == 0) {
            cli_error_code(
                CLI_E_USAGE,
                "test --filter needs a PATTERN (a part of the titles of the tests to run)\n%s",
                more_help("test", prompt));
            rc = 2; /* a usage error (repl.md §1, Exit status) */
        } else if (args[i][0] == '-' && args[i][1]) {
            cli_error_code(CLI_E_USAGE,
                           "test takes -v, --filter PATTERN, --json and files, not '%s'\n%s",
                           args[i], more_help("test", prompt));
            rc = 2;
        } else if (cli_not_rules(args[i], prompt ? "test" : "hon test", false))
            rc = 1;
        else
            paths[n++] = args[i];
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (is_dir(paths[i]) && cli_twin_of_bundled(s, paths[i])) {
            rc = 1;
            break;
        }
        if (is_dir(paths[i])) { /* its files, loaded together unless the program holds them */
            size_t k, held = 0;
            char **files = dir_files(paths[i], ".hon", &k);
            size_t at = n + dir_names; /* where its files' names go */
            char **more = realloc(names, (at + k + 1) * sizeof *names);
            if (more)
                names = more;
            for (size_t j = 0; more && j < k; j++)
                held += (names[at + j] = loaded_name(s, files[j])) != NULL;
            if (more && held < k) {
                size_t before = s->diags;
                hon_status st = hon_load_dir(s->vm, paths[i]);
                rc = st == HON_OK ? 0 : cli_failed(s, before, st, "cannot load", paths[i]);
                for (size_t j = 0; j < k; j++)
                    if (!names[at + j])
                        names[at + j] = dup_str(files[j]);
            }
            if (!more)
                cli_error_code(CLI_E_MEMORY, "out of memory");
            rc |= !more;
            dir_names += more ? k : 0;
            if (more && k == 0)
                cli_warn("no .hon file in '%s'", paths[i]);
            files_free(files, k);
            names[i] = NULL;
            continue;
        }
        names[i] = loaded_name(s, paths[i]);
        if (!names[i]) {
            rc = cli_load(s, paths[i]);
            if (rc == 0 && !(names[i] = dup_str(paths[i]))) {
                cli_error_code(CLI_E_MEMORY, "out of memory");
                rc = 1;
            }
        }
    }
    if (rc == 0 && rep.json)
        fputs("{\"tests\": [", stdout);
    /* every loaded test (n == 0), else one run per file (a directory's after the files) */
    for (size_t i = 0; rc == 0 && i < (n ? n + dir_names : 1); i++) {
        size_t p = 0, f = 0;
        if (n && !names[i])
            continue; /* a directory: its files come after */
        hon_status st =
            hon_run_tests_each(s->vm, n ? names[i] : NULL, filter, on_test_result, &rep, &p, &f);
        if (st == HON_ERR_MEMORY)
            cli_error_code(CLI_E_MEMORY, "out of memory while running the tests");
        if (n && i < n && p + f == 0)
            cli_warn(filter ? "no test of '%s' has '%s' in its title"
                            : "no test is declared in '%s'%s",
                     paths[i], filter ? filter : "");
        passed += p;
        failed_n += f;
        if (st != HON_OK && st != HON_ERR_RUNTIME)
            rc = 1;
    }
    if (rc == 0 && rep.json)
        printf("], \"passed\": %zu, \"failed\": %zu}\n", passed, failed_n);
    else if (rc == 0)
        printf("%zu passed, %zu failed\n", passed, failed_n);
    if (rc == 0 && n == 0 && passed + failed_n == 0 && !filter) {
        cli_error_code(CLI_E_NOTHING,
                       "no test is loaded (give test files or directories, or load some)");
        rc = 1;
    } else if (rc == 0 && passed + failed_n == 0 && !filter) { /* files named, none declares one */
        cli_error_code(CLI_E_NOTHING, "no test ran: the files given declare none");
        rc = 1;
    } else if (rc == 0 && filter && passed + failed_n == 0) { /* a typo must not pass CI */
        cli_error_code(CLI_E_NOTHING,
                       "no test has '%s' in its title: none ran (the pattern is a plain part of a "
                       "title: no wildcards, case counts)",
                       filter);
        rc = 1;
    }
    for (size_t i = 0; i < n + dir_names; i++)
        free(names[i]);
    free(names);
    free(paths);
    cli_flush_stdout();
    return rc ? rc : failed_n > 0; /* rc 2: a usage error */
}

static void print_rule(void *ud, const hon_rule_info *r)
{
    (void)ud;
    printf("%s", r->name ? r->name : "?");
    if (r->edition)
        printf(" [%s]", r->edition);
    if (r->cites && r->cites[0])
        printf("  — %s", r->cites);
    putchar('\n');
}

/* A rule of a module no edition uses (hon_list_unused_rules): listed as print_rule does, its
 * module named and said to be in no edition, since the rule never runs under one (E147). */
static void print_unused_rule(void *ud, const hon_rule_info *r)
{
    (void)ud;
    printf("%s [module %s: used by no edition]", r->name ? r->name : "?",
           r->module ? r->module : "?");
    if (r->cites && r->cites[0])
        printf("  — %s", r->cites);
    putchar('\n');
}

/* The words of the rules' names (hon_list_rules' callback): each name whole, each part between
 * its dots, each word between underscores, as new strings (`may_discard.swimmer_in_water`:
 * it, may_discard, swimmer_in_water, may, discard, swimmer, in, water). */
typedef struct name_words {
    char **w;
    size_t n, cap;
} name_words;

/* Makes room in nw for more words; false on OOM. */
static bool grow_words(name_words *nw)
{
    size_t cap = nw->cap ? 2 * nw->cap : 256;
    char **more = realloc(nw->w, cap * sizeof *more);
    if (!more)
        return false;
    nw->w = more;
    nw->cap = cap;
    return true;
}

static void add_word(name_words *nw, const char *w, size_t len)
{
    if (len == 0 || (nw->n == nw->cap && !grow_words(nw)))
        return;
    char *copy = strndup(w, len);
    if (copy)
        nw->w[nw->n++] = copy;
}

static void collect_rule_words(void *ud, const hon_rule_info *r)
{
    name_words *nw = ud;
    if (!r->name)
        return;
    add_word(nw, r->name, strlen(r->name));
    for (const char *p = r->name; *p;) {
        size_t part = strcspn(p, ".");
        if (memchr(p, '_', part))
            add_word(nw, p, part);
        for (const char *q = p, *end = p + part; q < end;) {
            size_t w = strcspn(q, "_.");
            add_word(nw, q, w);
            q += w;
            q += q < end; /* the '_' */
        }
        p += part + (p[part] == '.');
    }
}

int cli_rules(cli_session *s, const char *word)
{
    int rc = 0;
    size_t n = hon_list_rules(s->vm, word, print_rule, NULL);
    /* the rules of a module no edition uses, never in the active edition's list (E147) */
    size_t unused = hon_list_unused_rules(s->vm, word, print_unused_rule, NULL);
    if (unused)
        printf("%zu rule%s; %zu more in a module no edition uses (never run)\n", n,
               n == 1 ? "" : "s", unused);
    else if (n == 0 && word && word[0]) {
        /* did you mean: the nearest word of the rules' names (`swimer`: swimmer) */
        name_words nw = { 0 };
        hon_list_rules(s->vm, NULL, collect_rule_words, &nw);
        const char *near = hon_nearest(word, (const char *const *)nw.w, nw.n);
        /* the word quoted as diagnostics quote one (errors.md): a long one in part */
        const char *open = near ? " (did you mean `" : "", *shut = near ? "`?)" : "";
        int len =
            snprintf(NULL, 0, "no rule matches '%s'%s%s%s", word, open, near ? near : "", shut);
        char *line = len >= 0 ? malloc((size_t)len + 1) : NULL;
        if (line) {
            snprintf(line, (size_t)len + 1, "no rule matches '%s'%s%s%s", word, open,
                     near ? near : "", shut);
            hon_shorten_message(line);
            printf("%s\n", line);
            free(line);
        } else {
            cli_error_code(CLI_E_MEMORY, "out of memory");
            rc = 1;
        }
        for (size_t i = 0; i < nw.n; i++)
            free(nw.w[i]);
        free(nw.w);
    } else
        printf("%zu rule%s\n", n, n == 1 ? "" : "s");
    cli_flush_stdout();
    return rc;
}

int cli_show(cli_session *s, const char *name, bool disassemble)
{
    size_t before = s->diags;
    hon_status st =
        disassemble ? hon_disassemble(s->vm, name, stdout) : hon_show(s->vm, name, stdout);
    cli_flush_stdout();
    if (st == HON_ERR_NOT_FOUND && s->diags == before) {
        static const hon_complete_kind kinds[] = { HON_COMPLETE_RULE, HON_COMPLETE_QUERY,
                                                   HON_COMPLETE_FN, HON_COMPLETE_TABLE };
        char *near = NULL;
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && !near; i++)
            if (!disassemble || kinds[i] != HON_COMPLETE_TABLE)
                near = cli_suggest(s, kinds[i], NULL, name);
        cli_error_code(CLI_E_NO_SUCH, "no %s named '%s'%s%s%s",
                       disassemble ? "rule, query or fn" : "rule, query, table or fn", name,
                       near ? " (did you mean `" : "", near ? near : "", near ? "`?)" : "");
        free(near);
        return 1;
    }
    if (st != HON_OK)
        return cli_failed(s, before, st, disassemble ? "cannot disassemble" : "cannot show", name);
    return 0;
}

struct edition_ctx {
    const hon_vm *vm;
    const char *active;
    size_t n;
};

/* The modules an edition names in `uses` besides its namesake, for `edition`'s list. */
struct uses_ctx {
    const char *edition;
    char uses[512]; /* "a, b" (a longer list is cut: names are short) */
    size_t len;
};

static void add_use(void *ud, const char *module)
{
    struct uses_ctx *u = ud;
    if (strcmp(module, u->edition) == 0 || u->len >= sizeof u->uses - 1)
        return;
    int n = snprintf(u->uses + u->len, sizeof u->uses - u->len, "%s%s", u->len ? ", " : "", module);
    if (n > 0)
        u->len += (size_t)n < sizeof u->uses - u->len ? (size_t)n : sizeof u->uses - 1 - u->len;
}

/* One line of `edition`'s list: the active one marked `*`, the editions it extends and the
 * modules its `uses` names (an edition's namesake module, harbor_hills' harbor_hills, is taken
 * as read), its title. */
static void print_edition(void *ud, const char *name, const char *parent, const char *title)
{
    struct edition_ctx *c = ud;
    bool active = c->active && name && strcmp(c->active, name) == 0;
    c->n++;
    printf("%s %s", active ? "*" : " ", name ? name : "?");
    struct uses_ctx u = { name ? name : "", { 0 }, 0 };
    hon_each_edition_use(c->vm, name, add_use, &u);
    if (parent || u.len)
        printf(" (%s%s%s%s%s)", parent ? "extends " : "", parent ? parent : "",
               parent && u.len ? "; " : "", u.len ? "uses " : "", u.uses);
    if (title && title[0])
        printf("  — %s", title);
    putchar('\n');
}

/* A change of edition or reading the loaded board refused (hon_set_edition, hon_set_variant:
 * the board's own errors, E320..., are reported above): E405 saying that the setting stays as
 * it was, and why. Returns 1. */
static int setting_refused(cli_session *s, const char *what, const char *name, const char *reading)
{
    cli_error_code(CLI_E_NOT_NOW,
                   "%s %s%s%s not selected: the board '%s' would not load under it (its errors "
                   "above); the setting is unchanged (load a board that fits it first, or start "
                   "hon with --%s)",
                   what, name, reading ? " = " : "", reading ? reading : "", hon_board_path(s->vm),
                   what);
    return 1;
}

int cli_edition(cli_session *s, const char *name)
{
    if (name) {
        size_t before = s->diags;
        hon_status st = hon_set_edition(s->vm, name);
        if (st == HON_ERR_NOT_FOUND && s->diags == before) {
            char *near = cli_suggest(s, HON_COMPLETE_EDITION, NULL, name);
            cli_error_code(CLI_E_SETTING_EDITION, "no edition named '%s'%s%s%s", name,
                           near ? " (did you mean `" : "", near ? near : "", near ? "`?)" : "");
            free(near);
            return 1;
        }
        if (st != HON_OK && s->diags != before && hon_board_path(s->vm))
            return setting_refused(s, "edition", name, NULL);
        if (st != HON_OK)
            return cli_failed(s, before, st, "cannot select edition", name);
        return 0;
    }
    struct edition_ctx c = { s->vm, hon_edition(s->vm), 0 };
    hon_each_edition(s->vm, print_edition, &c);
    if (c.n == 0)
        printf("no edition is declared\n");
    cli_flush_stdout();
    return 0;
}

struct variant_ctx {
    const char *only; /* list only this variant, or NULL for all */
    size_t n;
};

static void print_variant(void *ud, const char *variant, const char *reading, const char *doc)
{
    struct variant_ctx *c = ud;
    if (c->only && (!variant || strcmp(c->only, variant) != 0))
        return;
    c->n++;
    printf("%s = %s", variant ? variant : "?", reading ? reading : "?");
    if (doc && doc[0])
        printf("  — %s", doc);
    putchar('\n');
}

/* hon_complete's callback that lists the names in a buffer (struct name_list), ", " between
 * them, cut short with "..." when they do not fit. */
struct name_list {
    char buf[512];
    size_t len;
};

static void list_name(void *ud, const char *name)
{
    struct name_list *l = ud;
    size_t room = sizeof l->buf - l->len;
    if (room < 4)
        return;
    int w = snprintf(l->buf + l->len, room, "%s%s", l->len ? ", " : "", name);
    if (w < 0 || (size_t)w >= room) {
        snprintf(l->buf + sizeof l->buf - 4, 4, "...");
        l->len = sizeof l->buf;
        return;
    }
    l->len += (size_t)w;
}

/* hon_complete's callback when only its status matters. */
static void no_name(void *ud, const char *name)
{
    (void)ud;
    (void)name;
}

int cli_variant(cli_session *s, const char *name, const char *reading)
{
    struct variant_ctx c = { name, 0 };
    if (name && reading) {
        size_t before = s->diags;
        hon_status st = hon_set_variant(s->vm, name, reading);
        if (st == HON_ERR_NOT_FOUND && s->diags == before) {
            /* which of the two is unknown, and the name near it */
            bool known =
                hon_complete(s->vm, HON_COMPLETE_READING, name, NULL, no_name, NULL) == HON_OK;
            char *near = known ? cli_suggest(s, HON_COMPLETE_READING, name, reading)
                               : cli_suggest(s, HON_COMPLETE_VARIANT, NULL, name);
            if (known) {
                struct name_list all = { { 0 }, 0 };
                hon_complete(s->vm, HON_COMPLETE_READING, name, NULL, list_name, &all);
                cli_error_code(CLI_E_SETTING_READING,
                               "variant '%s' has no reading '%s'%s%s%s; its readings: %s", name,
                               reading, near ? " (did you mean `" : "", near ? near : "",
                               near ? "`?)" : "", all.buf);
            } else
                cli_error_code(CLI_E_SETTING_VARIANT, "no variant named '%s'%s%s%s", name,
                               near ? " (did you mean `" : "", near ? near : "", near ? "`?)" : "");
            free(near);
            return 1;
        }
        if (st != HON_OK && s->diags != before && hon_board_path(s->vm))
            return setting_refused(s, "variant", name, reading);
        if (st != HON_OK)
            return cli_failed(s, before, st, "cannot select variant", name);
        return 0;
    }
    hon_each_variant(s->vm, print_variant, &c);
    cli_flush_stdout();
    if (name && c.n == 0) {
        char *near = cli_suggest(s, HON_COMPLETE_VARIANT, NULL, name);
        cli_error_code(CLI_E_SETTING_VARIANT, "no variant named '%s'%s%s%s", name,
                       near ? " (did you mean `" : "", near ? near : "", near ? "`?)" : "");
        free(near);
        return 1;
    }
    if (c.n == 0)
        printf("no variant is declared\n");
    return 0;
}

char *cli_bundled(const char *path)
{
    if (path[0] == '/' || access(path, F_OK) == 0)
        return NULL;
    char *bundled = join_path(hon_bundle_dir(), path);
    if (bundled && access(bundled, F_OK) == 0)
        return bundled;
    free(bundled);
    return NULL;
}

char *cli_found(cli_session *s, const char *path)
{
    if (path[0] == '/' || access(path, F_OK) == 0)
        return NULL;
    if (s->script_dir) {
        char *beside = join_path(s->script_dir, path);
        if (beside && access(beside, F_OK) == 0)
            return beside;
        free(beside);
    }
    return cli_bundled(path);
}

int cli_board(cli_session *s, const char *path)
{
    /* `--board examples/boards/x.scn` names a bundled board from anywhere, as from this tree;
     * a play script's own board is found beside it */
    char *bundled = cli_found(s, path);
    int rc = load_with(s, hon_load_board, "cannot load the board", bundled ? bundled : path);
    if (rc && !bundled)
        cli_note_near_file(s, path);
    free(bundled);
    return rc;
}

/* Says there is no board and how to get one; returns 1. */
int no_board(void)
{
    cli_error_code(CLI_E_NO_BOARD,
                   "no board is loaded (use 'board FILE' in the REPL, or --board FILE)");
    return 1;
}

int cli_place(cli_session *s, const char *word)
{
    hon_value v;
    if (!hon_board_path(s->vm))
        return no_board();
    return hon_place_of(s->vm, word, &v) == HON_OK ? 0 : 1;
}

int cli_draw(cli_session *s, const char *from, const char *to, const char *centre)
{
    size_t before = s->diags;
    if (!hon_board_path(s->vm))
        return no_board();
    hon_status st = hon_draw_board_window(s->vm, stdout, from, to, centre, cli_draw_columns());
    cli_flush_stdout();
    if (st != HON_OK)
        return cli_failed(s, before, st, "cannot draw the board", hon_board_path(s->vm));
    return 0;
}

int cli_svg(cli_session *s, const char *path, const char *from, const char *to, const char *window)
{
    size_t before = s->diags;
    if (!hon_board_path(s->vm))
        return no_board();
    if (!cli_may_replace_with_svg(path))
        return 1;
    int err = 0;
    hon_status st = hon_board_svg_file_window(s->vm, path, from, to, window, &err);
    if (st == HON_ERR_IO && err) {
        cli_error_code(CLI_E_WRITE, "cannot write '%s': %s", path, strerror(err));
        return 1;
    }
    if (st != HON_OK)
        return cli_failed(s, before, st, "cannot draw the picture", path);
    printf("wrote %s\n", path);
    cli_flush_stdout();
    return 0;
}

int cli_los(cli_session *s, const char *x, const char *y, cli_mode mode)
{
    hon_value a, b;
    hon_answer *ans = NULL;
    size_t before = s->diags;
    if (!hon_board_path(s->vm))
        return no_board();
    hon_status st = hon_place_of(s->vm, x, &a);
    if (st == HON_OK)
        st = hon_place_of(s->vm, y, &b);
    if (st == HON_OK)
        st = hon_los_as(s->vm, a, b, want_of(s, mode), &ans);
    if (st != HON_OK || !ans) {
        hon_answer_free(ans);
        return cli_failed(s, before, st, "cannot ask the line of sight from", x);
    }
    if (!s->json && hon_answer_note(ans))
        printf("note: %s\n", hon_answer_note(ans));
    put_answer_as(s, ans, mode);
    hon_answer_free(ans);
    return s->json ? 0 : cli_draw(s, x, y, NULL);
}

/* The caps by name, in the order `limit` prints them. */
static const struct {
    const char *name;
    hon_cap cap;
} cap_names[] = {
    { "steps", HON_CAP_STEPS },
    { "depth", HON_CAP_DEPTH },
    { "list", HON_CAP_LIST },
    { "memory", HON_CAP_MEMORY },
};

bool cli_cap_named(const char *name, hon_cap *which)
{
    for (size_t i = 0; i < sizeof cap_names / sizeof cap_names[0]; i++)
        if (strcmp(name, cap_names[i].name) == 0) {
            *which = cap_names[i].cap;
            return true;
        }
    return false;
}

/* Prints cap `i` of cap_names as `limit NAME VALUE` (memory in M when it is whole MiB). */
static void put_cap(const cli_session *s, size_t i)
{
    uint64_t v = hon_cap_value(s->vm, cap_names[i].cap);
    if (cap_names[i].cap == HON_CAP_MEMORY && v % (1u << 20) == 0)
        printf("limit memory %lluM\n", (unsigned long long)(v >> 20));
    else
        printf("limit %s %llu\n", cap_names[i].name, (unsigned long long)v);
}

int cli_limit(cli_session *s, const char *name, const char *value)
{
    hon_cap which = HON_CAP_STEPS;
    size_t n = sizeof cap_names / sizeof cap_names[0], at = 0;
    if (name) {
        if (!cli_cap_named(name, &which)) {
            cli_error_code(CLI_E_USAGE, "no cap named '%s' (steps, depth, list, memory)", name);
            return 1;
        }
        while (cap_names[at].cap != which)
            at++;
    }
    uint64_t v;
    if (value && (!cli_parse_cap(which, value, &v) || hon_set_cap(s->vm, which, v) != HON_OK)) {
        cli_error_code(CLI_E_USAGE, "limit %s takes %s, not '%s'", name,
                       which == HON_CAP_MEMORY
                           ? "0 or a size of at least 1M (K, M, G: binary units)"
                       : which == HON_CAP_DEPTH ? "a number from 0 to 1000"
                                                : "a non-negative integer",
                       value);
        return 1;
    }
    for (size_t i = name ? at : 0; i < (name ? at + 1 : n); i++)
        put_cap(s, i);
    return 0;
}
