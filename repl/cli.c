/* cli.c — the commands of the `hon` program, shared by the REPL (repl.c) and the subcommands
 * (main.c): opening a session (finding and loading the rule directories), answering expressions,
 * loading, checking and testing files, listing rules, editions and variants.
 * Only include/hon.h is used. Output contract (text forms, exit codes): docs/spec/repl.md.
 * This is program code, not library code: it allocates with malloc/free (the hon_realloc funnel
 * is internal to the library) and frees everything in cli_session_close.
 */
/* realpath() is XSI: glibc declares it only with _XOPEN_SOURCE. */
#define _XOPEN_SOURCE 700
#include "cli.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "repl_config.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("hon: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("hon: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static const char *status_text(hon_status st)
{
    const char *t = hon_status_text(st);
    return t ? t : "error";
}

/* Prints text followed by a newline unless it already ends with one; NULL prints nothing. */
static void put_block(const char *text, FILE *out)
{
    size_t n;
    if (!text)
        return;
    n = strlen(text);
    fwrite(text, 1, n, out);
    if (n == 0 || text[n - 1] != '\n')
        fputc('\n', out);
}

/* The diagnostic callback: renders to stderr, counts. Stdout is flushed first so that answers
 * and diagnostics keep their order on a terminal. */
static void on_diag(void *ud, const hon_diag *d)
{
    cli_session *s = ud;
    static const char *const sev[] = {"error", "warning", "note"};
    if (s->quiet) {
        s->quiet_code = d->code;
        return;
    }
    s->diags++;
    if (d->severity == HON_ERROR)
        s->errors++;
    fflush(stdout);
    if (d->rendered && d->rendered[0]) {
        put_block(d->rendered, stderr);
    } else {
        unsigned si = (unsigned)d->severity <= HON_NOTE ? (unsigned)d->severity : 0;
        fprintf(stderr, "%s:%u:%u: %s", d->path ? d->path : "?", d->line, d->col, sev[si]);
        if (d->code)
            fprintf(stderr, "[E%03d]", d->code);
        fprintf(stderr, ": %s\n", d->message ? d->message : "");
    }
}

/* A failed API call: when it reported no diagnostic itself, say what failed. Returns 1. */
static int failed(const cli_session *s, size_t diags_before, hon_status st, const char *what,
                  const char *arg)
{
    if (s->diags == diags_before)
        cli_error("%s '%s': %s", what, arg, status_text(st));
    return 1;
}

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

/* Remembers that the program holds `path` (copied). */
static int remember_file(cli_session *s, const char *path)
{
    char *p;
    if (s->n_files == s->cap_files) {
        size_t cap = s->cap_files ? 2 * s->cap_files : 16;
        char **f = realloc(s->files, cap * sizeof *f);
        if (!f)
            return -1;
        s->files = f;
        s->cap_files = cap;
    }
    p = dup_str(path);
    if (!p)
        return -1;
    s->files[s->n_files++] = p;
    return 0;
}

static int select_hon(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return e->d_name[0] != '.' && n > 4 && strcmp(e->d_name + n - 4, ".hon") == 0;
}

/* Loads a rule directory (all or nothing) and remembers its files. A missing directory is an
 * error when `required`, else it is skipped. Returns 0 or 1. */
static int load_dir(cli_session *s, const char *dir, bool required)
{
    char *d = normalise_dir(dir);
    struct dirent **names = NULL;
    int n, rc = 0;
    size_t before = s->diags;
    hon_status st;

    if (!d) {
        cli_error("out of memory");
        return 1;
    }
    if (!is_dir(d)) {
        free(d);
        if (!required)
            return 0;
        cli_error("rules directory '%s' not found", dir);
        return 1;
    }
    st = hon_load_dir(s->vm, d);
    if (st != HON_OK) {
        rc = failed(s, before, st, "cannot load rules directory", d);
        free(d);
        return rc;
    }
    /* The API names a directory's files "dir/name"; keep the same names for `test FILE`. */
    n = scandir(d, &names, select_hon, alphasort);
    for (int i = 0; i < n; i++) {
        char *p = join_path(d, names[i]->d_name);
        if (!p || remember_file(s, p) != 0)
            rc = 1;
        free(p);
        free(names[i]);
    }
    free(names);
    s->dirs[s->n_dirs++] = d;
    if (rc)
        cli_error("out of memory");
    return rc;
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
    size_t max = 2;
    int rc = 0;

    if (o->no_rules)
        return 0;
    if (o->n_rule_dirs) {
        max = o->n_rule_dirs;
    } else if (env && env[0]) {
        max = 1;
        for (const char *p = env; *p; p++)
            max += *p == ':';
    }
    s->dirs = calloc(max, sizeof *s->dirs);
    if (!s->dirs) {
        cli_error("out of memory");
        return 1;
    }
    if (o->n_rule_dirs) {
        for (size_t i = 0; i < o->n_rule_dirs && rc == 0; i++)
            rc = load_dir(s, o->rule_dirs[i], true);
    } else if (env && env[0]) {
        char *copy = dup_str(env);
        char *save = NULL;
        if (!copy) {
            cli_error("out of memory");
            return 1;
        }
        for (char *dir = strtok_r(copy, ":", &save); dir && rc == 0;
             dir = strtok_r(NULL, ":", &save))
            rc = load_dir(s, dir, true);
        free(copy);
    } else {
        const char *root = is_dir(HON_SOURCE_ROOT "/rules") ? HON_SOURCE_ROOT : HON_DATADIR;
        char *rules = join_path(root, "rules"), *exps = join_path(root, "expansions");
        if (!rules || !exps) {
            cli_error("out of memory");
            rc = 1;
        } else if (!is_dir(rules)) {
            warn("no bundled rules found (looked in %s/rules and %s/rules)", HON_SOURCE_ROOT,
                 HON_DATADIR);
        } else {
            rc = load_dir(s, rules, false);
            if (rc == 0)
                rc = load_dir(s, exps, false);
        }
        free(rules);
        free(exps);
    }
    return rc;
}

/* ---- playing: the person answers choices and steps (language.md §6) ---- */

/* One line from the person: the session's reader, else standard input. */
static char *ask_line(cli_session *s, const char *prompt)
{
    ssize_t n;
    fflush(stdout);
    if (s->ask)
        return s->ask(s->ask_ud, prompt);
    n = getline(&s->answer, &s->answer_cap, stdin);
    if (n < 0)
        return NULL;
    if (n > 0 && s->answer[n - 1] == '\n')
        s->answer[n - 1] = '\0';
    return s->answer;
}

/* The API's chooser: lists the options numbered and reads the answer, a number or an option
 * as printed (`C4` and `@C4`, `$rifle1` and `rifle1` alike). An answer that is neither is
 * refused with the reason and asked again; at the end of the input the first option is
 * taken. */
static int choose(void *ud, const char *question, const char *side, const char *const *options,
                  size_t n)
{
    cli_session *s = ud;
    printf("choose%s%s%s: %s\n", side && side[0] ? " (" : "", side ? side : "",
           side && side[0] ? ")" : "", question);
    for (size_t i = 0; i < n; i++)
        printf("  %zu) %s\n", i + 1, options[i]);
    for (;;) {
        char *line = ask_line(s, "choice> ");
        if (!line) {
            printf("(end of input: the first option, %s, is taken)\n", options[0]);
            return 0;
        }
        while (isspace((unsigned char)*line))
            line++;
        size_t len = strlen(line);
        while (len && isspace((unsigned char)line[len - 1]))
            line[--len] = '\0';
        char *end;
        long k = strtol(line, &end, 10);
        if (len && *end == '\0' && k >= 1 && (size_t)k <= n)
            return (int)k - 1;
        for (size_t i = 0; len && i < n; i++) {
            const char *o = options[i], *a = line;
            if ((o[0] == '$') != (a[0] == '$'))
                o += o[0] == '$', a += a[0] == '$';
            if (a[0] == '@')
                a++;
            if (strcasecmp(o, a) == 0)
                return (int)i;
        }
        printf("illegal choice '%s': answer a number from 1 to %zu, or an option as listed\n",
               line, n);
    }
}

/* Step mode: shows the effect about to be applied and waits for Enter ('q' abandons the
 * procedure, which is then undone). */
static bool step(void *ud, const char *line)
{
    cli_session *s = ud;
    if (!s->stepping)
        return true;
    printf("next: %s\n", line);
    char *a = ask_line(s, "[Enter: apply, q: abandon] ");
    return !(a && (a[0] == 'q' || a[0] == 'Q'));
}

int cli_session_open(cli_session *s, const cli_opts *o)
{
    hon_config cfg;

    memset(s, 0, sizeof *s);
    memset(&cfg, 0, sizeof cfg);
    cfg.on_diag = on_diag;
    cfg.userdata = s;
    cfg.seed = o->seed_set ? o->seed : 0;
    cfg.chooser = choose;
    cfg.on_effect = step;
    s->json = o->json;
    s->vm = hon_vm_new(&cfg);
    if (!s->vm) {
        cli_error("out of memory");
        return 1;
    }
    if (load_rule_dirs(s, o) != 0)
        return 1;
    for (size_t i = 0; i < o->n_loads; i++)
        if (cli_load(s, o->loads[i]) != 0)
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
    for (size_t i = 0; i < s->n_files; i++)
        free(s->files[i]);
    free(s->files);
    for (size_t i = 0; i < s->n_dirs; i++)
        free(s->dirs[i]);
    free(s->dirs);
    free(s->answer);
    memset(s, 0, sizeof *s);
}

int cli_answer(cli_session *s, const char *expr, const char *where, cli_mode mode)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    hon_status st = mode == CLI_ODDS ? hon_odds(s->vm, expr, where, &a)
                                     : hon_eval(s->vm, expr, where, &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        return failed(s, before, st, "cannot evaluate", expr);
    }
    if (s->json) {
        put_block(hon_answer_json(a), stdout);
    } else {
        put_block(hon_answer_text(a), stdout);
        if (mode == CLI_WHY)
            put_block(hon_answer_why(a), stdout);
        else if (mode == CLI_WHY_FULL)
            put_block(hon_answer_trace(a), stdout);
    }
    hon_answer_free(a);
    fflush(stdout);
    return 0;
}

int cli_load(cli_session *s, const char *path)
{
    size_t before = s->diags;
    hon_status st = hon_load_file(s->vm, path);
    if (st != HON_OK)
        return failed(s, before, st, "cannot load", path);
    if (remember_file(s, path) != 0) {
        cli_error("out of memory");
        return 1;
    }
    return 0;
}

/* Returns a new copy of the name under which the program holds the file `path` (the same file,
 * however it is spelled), or NULL when it does not hold it. The names are those this session
 * gave the API: --load and `load` paths as typed, "dir/name.hon" for a directory's files. */
static char *loaded_name(cli_session *s, const char *path)
{
    char *real = realpath(path, NULL), *name = NULL;
    if (!real)
        return NULL;
    for (size_t i = 0; i < s->n_files && !name; i++) {
        char *other = realpath(s->files[i], NULL);
        if (other && strcmp(other, real) == 0)
            name = dup_str(s->files[i]);
        free(other);
    }
    free(real);
    return name;
}

int cli_check(cli_session *s, const char *path)
{
    size_t before = s->diags, errors = s->errors;
    char *held = loaded_name(s, path);
    hon_status st;

    /* A file the program already holds (a bundled one) was checked when this session loaded
     * it, without error; checking it again beside itself would report every declaration as a
     * duplicate. */
    if (held) {
        free(held);
        return 0;
    }
    st = hon_check_file(s->vm, path);
    if (st != HON_OK)
        return failed(s, before, st, "cannot check", path);
    return s->errors != errors;
}

/* If the last line of buf is a "N passed, N failed" summary, cuts it off. */
static void cut_summary(char *buf, size_t *len)
{
    size_t end = *len, start;
    char *p;
    if (end && buf[end - 1] == '\n')
        end--;
    start = end;
    while (start && buf[start - 1] != '\n')
        start--;
    p = buf + start;
    if (p[0] < '0' || p[0] > '9')
        return;
    while (*p >= '0' && *p <= '9')
        p++;
    if (strncmp(p, " passed, ", 9) != 0)
        return;
    *len = start;
}

int cli_test(cli_session *s, const char *const *paths, size_t n)
{
    size_t passed = 0, failed_n = 0;
    int rc = 0;
    char **names = calloc(n ? n : 1, sizeof *names);

    if (!names) {
        cli_error("out of memory");
        return 1;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        names[i] = loaded_name(s, paths[i]);
        if (!names[i]) {
            rc = cli_load(s, paths[i]);
            if (rc == 0 && !(names[i] = dup_str(paths[i]))) {
                cli_error("out of memory");
                rc = 1;
            }
        }
    }
    if (rc == 0 && n == 0) {
        hon_status st = hon_run_tests(s->vm, NULL, stdout, &passed, &failed_n);
        rc = st != HON_OK || failed_n > 0;
    } else if (rc == 0) {
        /* One call per file; each writes its own summary, which is replaced by the total. */
        for (size_t i = 0; i < n; i++) {
            char *buf = NULL;
            size_t len = 0, p = 0, f = 0;
            FILE *mem = open_memstream(&buf, &len);
            hon_status st;
            if (!mem) {
                cli_error("out of memory");
                rc = 1;
                break;
            }
            st = hon_run_tests(s->vm, names[i], mem, &p, &f);
            fclose(mem);
            cut_summary(buf, &len);
            fwrite(buf, 1, len, stdout);
            free(buf);
            if (p + f == 0)
                warn("no test is declared in '%s'", paths[i]);
            passed += p;
            failed_n += f;
            if (st != HON_OK || f > 0)
                rc = 1;
        }
        printf("%zu passed, %zu failed\n", passed, failed_n);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    fflush(stdout);
    return rc;
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

int cli_rules(cli_session *s, const char *word)
{
    size_t n = hon_list_rules(s->vm, word, print_rule, NULL);
    if (n == 0 && word && word[0])
        printf("no rule matches '%s'\n", word);
    else
        printf("%zu rule%s\n", n, n == 1 ? "" : "s");
    fflush(stdout);
    return 0;
}

int cli_show(cli_session *s, const char *name, bool disassemble)
{
    size_t before = s->diags;
    hon_status st = disassemble ? hon_disassemble(s->vm, name, stdout) : hon_show(s->vm, name, stdout);
    fflush(stdout);
    if (st == HON_ERR_NOT_FOUND && s->diags == before) {
        cli_error("no %s named '%s'", disassemble ? "rule, query or fn" : "rule, query, table or fn",
                  name);
        return 1;
    }
    if (st != HON_OK)
        return failed(s, before, st, disassemble ? "cannot disassemble" : "cannot show", name);
    return 0;
}

struct edition_ctx {
    const char *active;
    size_t n;
};

static void print_edition(void *ud, const char *name, const char *parent, const char *title)
{
    struct edition_ctx *c = ud;
    bool active = c->active && name && strcmp(c->active, name) == 0;
    c->n++;
    printf("%s %s", active ? "*" : " ", name ? name : "?");
    if (parent)
        printf(" (extends %s)", parent);
    if (title && title[0])
        printf("  — %s", title);
    putchar('\n');
}

int cli_edition(cli_session *s, const char *name)
{
    if (name) {
        size_t before = s->diags;
        hon_status st = hon_set_edition(s->vm, name);
        if (st == HON_ERR_NOT_FOUND && s->diags == before) {
            cli_error("no edition named '%s'", name);
            return 1;
        }
        if (st != HON_OK)
            return failed(s, before, st, "cannot select edition", name);
        return 0;
    }
    struct edition_ctx c = {hon_edition(s->vm), 0};
    hon_each_edition(s->vm, print_edition, &c);
    if (c.n == 0)
        printf("no edition is declared\n");
    fflush(stdout);
    return 0;
}

struct variant_ctx {
    const char *only;  /* list only this variant, or NULL for all */
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

int cli_variant(cli_session *s, const char *name, const char *reading)
{
    struct variant_ctx c = {name, 0};
    if (name && reading) {
        size_t before = s->diags;
        hon_status st = hon_set_variant(s->vm, name, reading);
        if (st == HON_ERR_NOT_FOUND && s->diags == before) {
            cli_error("no variant '%s' with a reading '%s'", name, reading);
            return 1;
        }
        if (st != HON_OK)
            return failed(s, before, st, "cannot select variant", name);
        return 0;
    }
    hon_each_variant(s->vm, print_variant, &c);
    fflush(stdout);
    if (name && c.n == 0) {
        cli_error("no variant named '%s'", name);
        return 1;
    }
    if (c.n == 0)
        printf("no variant is declared\n");
    return 0;
}

int cli_board(cli_session *s, const char *path)
{
    size_t before = s->diags;
    hon_status st = hon_load_board(s->vm, path);
    if (st != HON_OK)
        return failed(s, before, st, "cannot load the board", path);
    return 0;
}

/* Says there is no board and how to get one; returns 1. */
static int no_board(void)
{
    cli_error("no board is loaded (use 'board FILE' in the REPL, or --board FILE)");
    return 1;
}

int cli_draw(cli_session *s, const char *from, const char *to)
{
    size_t before = s->diags;
    if (!hon_board_path(s->vm))
        return no_board();
    hon_status st = hon_draw_board(s->vm, stdout, from, to);
    fflush(stdout);
    if (st != HON_OK)
        return failed(s, before, st, "cannot draw the board", hon_board_path(s->vm));
    return 0;
}

int cli_svg(cli_session *s, const char *path, const char *from, const char *to)
{
    size_t before = s->diags;
    if (!hon_board_path(s->vm))
        return no_board();
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("cannot write '%s': %s", path, strerror(errno));
        return 1;
    }
    hon_status st = hon_board_svg(s->vm, f, from, to);
    if (fclose(f) != 0 && st == HON_OK)
        st = HON_ERR_IO;
    if (st != HON_OK)
        return failed(s, before, st, "cannot write the picture", path);
    printf("wrote %s\n", path);
    fflush(stdout);
    return 0;
}

/* True when w reads as a square: column letters then a row number. */
static bool looks_like_square(const char *w)
{
    size_t i = 0;
    while (isalpha((unsigned char)w[i]))
        i++;
    if (i == 0 || i > 3 || !isdigit((unsigned char)w[i]))
        return false;
    while (isdigit((unsigned char)w[i]))
        i++;
    return w[i] == '\0';
}

/* One end of `los`: a unit ($name) or a square (@C4 or C4) and the units standing on it. */
typedef struct los_end {
    const char *bare;       /* the word without its $ or @ */
    bool square;
    long nunits;            /* a square: how many units stand on it */
    char unit[128];         /* a square with exactly one unit: that unit ("$name") */
} los_end;

/* Evaluates expr without showing its diagnostics: the answer's text into buf (true), or
 * false with the diagnostic's code in *code (0 when there was none). */
static bool probe(cli_session *s, const char *expr, char *buf, size_t cap, int *code)
{
    hon_answer *a = NULL;
    s->quiet = true;
    s->quiet_code = 0;
    hon_status st = hon_eval(s->vm, expr, "<los>", &a);
    s->quiet = false;
    *code = s->quiet_code;
    bool ok = st == HON_OK && a && hon_answer_text(a);
    if (ok)
        snprintf(buf, cap, "%s", hon_answer_text(a));
    hon_answer_free(a);
    return ok;
}

/* Reads word w of `los` into *e: a unit, or a square of the board with the units on it.
 * Returns false (after saying why) when it is neither, or a square off the board. */
static bool los_end_of(cli_session *s, const char *w, los_end *e)
{
    *e = (los_end){ .bare = w + (w[0] == '@' || w[0] == '$'), .square = w[0] != '$' };
    if (!*e->bare || (e->square && !looks_like_square(e->bare))) {
        cli_error("'%s' is neither a unit ($name) nor a square (@C4 or C4)", w);
        return false;
    }
    if (!e->square)
        return true;
    char expr[96], text[160];
    int code;
    snprintf(expr, sizeof expr, "len(units_at(@%s))", e->bare);
    if (!probe(s, expr, text, sizeof text, &code)) {
        if (code == 217)
            cli_error("square %s is off the board", e->bare);
        else
            cli_error("cannot read the units on square %s", e->bare);
        return false;
    }
    e->nunits = strtol(text, NULL, 10);
    snprintf(expr, sizeof expr, "nth(units_at(@%s), 1)", e->bare);
    if (e->nunits == 1 && !probe(s, expr, e->unit, sizeof e->unit, &code)) {
        cli_error("cannot read the unit on square %s", e->bare);
        return false;
    }
    return true;
}

/* Writes end e as the expression a parameter of type `type` wants into buf: a square as
 * itself or square_of($u); a unit as itself, or a square's one unit. False when it cannot be
 * one (nothing said). */
static bool los_arg(const los_end *e, const char *type, char *buf, size_t cap)
{
    if (strcmp(type, "square") == 0) {
        snprintf(buf, cap, e->square ? "@%s" : "square_of($%s)", e->bare);
        return true;
    }
    if (strcmp(type, "unit") == 0 && !e->square) {
        snprintf(buf, cap, "$%s", e->bare);
        return true;
    }
    if (strcmp(type, "unit") == 0 && e->nunits == 1) {
        snprintf(buf, cap, "%s", e->unit);
        return true;
    }
    return false;
}

/* Appends to note what square end e holds ("A1 holds $rifle1", "A1 holds no unit"). */
static void los_note(const los_end *e, char *note, size_t cap)
{
    size_t n = strlen(note);
    if (!e->square || n >= cap)
        return;
    if (e->nunits == 1)
        snprintf(note + n, cap - n, "%s%s holds %s", n ? ", " : "", e->bare, e->unit);
    else if (e->nunits == 0)
        snprintf(note + n, cap - n, "%s%s holds no unit", n ? ", " : "", e->bare);
    else
        snprintf(note + n, cap - n, "%s%s holds %ld units", n ? ", " : "", e->bare, e->nunits);
}

/* The rules' query between two squares: line_of_sight_squares(square, square, bool). */
static bool has_squares_query(cli_session *s)
{
    hon_query_info qi;
    return hon_query_info_of(s->vm, "line_of_sight_squares", &qi) == HON_OK && !qi.is_fn &&
           qi.nparams == 3 && strcmp(qi.param_types[0], "square") == 0 &&
           strcmp(qi.param_types[1], "square") == 0 && strcmp(qi.param_types[2], "bool") == 0;
}

int cli_los(cli_session *s, const char *x, const char *y, cli_mode mode)
{
    hon_query_info qi;
    if (!hon_board_path(s->vm))
        return no_board();
    if (hon_query_info_of(s->vm, "line_of_sight", &qi) != HON_OK || qi.is_fn) {
        cli_error("the rules define no query line_of_sight ('los X Y' asks "
                  "line_of_sight(X, Y))");
        return 1;
    }
    if (qi.nparams != 2) {
        cli_error("line_of_sight takes %zu parameters; 'los X Y' gives two", qi.nparams);
        return 1;
    }
    for (size_t i = 0; i < 2; i++)
        if (strcmp(qi.param_types[i], "unit") != 0 && strcmp(qi.param_types[i], "square") != 0) {
            cli_error("line_of_sight takes a %s, which 'los' cannot give (it gives units and "
                      "squares)", qi.param_types[i]);
            return 1;
        }
    los_end ex, ey;
    if (!los_end_of(s, x, &ex) || !los_end_of(s, y, &ey))
        return 1;
    char a[160], b[160], expr[400], note[400] = "";
    los_note(&ex, note, sizeof note);
    los_note(&ey, note, sizeof note);
    if (los_arg(&ex, qi.param_types[0], a, sizeof a) &&
        los_arg(&ey, qi.param_types[1], b, sizeof b)) {
        snprintf(expr, sizeof expr, "line_of_sight(%s, %s)", a, b);
        /* a square stood for its unit: say so */
        if (!s->json && ((ex.square && strcmp(qi.param_types[0], "unit") == 0) ||
                         (ey.square && strcmp(qi.param_types[1], "unit") == 0)))
            printf("note: %s: asking %s\n", note, expr);
    } else if (has_squares_query(s)) {
        /* line_of_sight takes units and a square holds none or several: between squares */
        los_arg(&ex, "square", a, sizeof a);
        los_arg(&ey, "square", b, sizeof b);
        snprintf(expr, sizeof expr, "line_of_sight_squares(%s, %s, false)", a, b);
        if (!s->json)
            printf("note: %s: asking %s\n", note, expr);
    } else {
        cli_error("line_of_sight takes units, and %s; the rules define no "
                  "line_of_sight_squares(a: square, b: square, both_infantry: bool) to ask "
                  "between squares", note);
        return 1;
    }
    int rc = cli_answer(s, expr, "<los>", mode);
    if (!s->json)
        rc |= cli_draw(s, x, y);
    return rc;
}

bool cli_parse_seed(const char *text, uint64_t *out)
{
    unsigned long long v;
    char *end;
    if (!text || text[0] < '0' || text[0] > '9')
        return false;
    errno = 0;
    v = strtoull(text, &end, 10);
    if (errno || *end || v > UINT64_MAX)
        return false;
    *out = (uint64_t)v;
    return true;
}

/* Prints a procedure's answer (text or JSON). */
static void put_answer(cli_session *s, hon_answer *a)
{
    put_block(s->json ? hon_answer_json(a) : hon_answer_text(a), stdout);
    fflush(stdout);
}

int cli_do(cli_session *s, const char *call, const char *where, bool odds)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    hon_status st = odds ? hon_odds_do(s->vm, call, where, &a) : hon_do(s->vm, call, where, &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        return failed(s, before, st, odds ? "cannot enumerate" : "cannot do", call);
    }
    put_answer(s, a);
    hon_answer_free(a);
    return 0;
}

int cli_why_do(cli_session *s, const char *call, const char *where, bool full)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    hon_status st = hon_why_do(s->vm, call, where, &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        return failed(s, before, st, "cannot do", call);
    }
    if (s->json) {
        put_block(hon_answer_json(a), stdout);
    } else {
        put_block(full ? hon_answer_trace(a) : hon_answer_why(a), stdout);
        printf("effects:\n");
        put_block(hon_answer_text(a), stdout);
    }
    fflush(stdout);
    hon_answer_free(a);
    return 0;
}

int cli_move(cli_session *s, const char *unit, const char *const *squares, size_t n)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    if (!hon_board_path(s->vm))
        return no_board();
    hon_status st = hon_move(s->vm, unit, squares, n, &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        return failed(s, before, st, "cannot move", unit);
    }
    put_answer(s, a);
    hon_answer_free(a);
    return 0;
}

int cli_next(cli_session *s)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    hon_status st = hon_next(s->vm, &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        return failed(s, before, st, "cannot go on to the next phase", "next");
    }
    put_answer(s, a);
    hon_answer_free(a);
    return 0;
}

int cli_undo(cli_session *s)
{
    hon_answer *a = NULL;
    hon_status st = hon_undo(s->vm, &a);
    if (st == HON_ERR_NOT_FOUND) {
        cli_error("nothing to undo");
        return 1;
    }
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        cli_error("undo: %s", status_text(st));
        return 1;
    }
    put_answer(s, a);
    hon_answer_free(a);
    return 0;
}

int cli_turn(cli_session *s)
{
    int64_t turn;
    const char *phase;
    hon_clock(s->vm, &turn, &phase);
    if (phase)
        printf("turn %lld, %s phase\n", (long long)turn, phase);
    else
        printf("turn %lld (no phase is declared)\n", (long long)turn);
    fflush(stdout);
    return 0;
}
