/* compare.c — the `diff` and `snapshot` commands of the `hon` program (repl.md §5), shared by
 * the REPL (repl.c) and the subcommands (main.c): parsing their question options, comparing two
 * settings, recording a snapshot of answers and checking one. Only include/hon.h and cli.h are
 * used; program code, so it allocates with malloc/free like cli.c, which holds the session.
 */
/* strdup() is POSIX: glibc declares it only with _XOPEN_SOURCE. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- diff and snapshots (repl.md §5) ---- */

/* Parses a count: the whole of text, 1 or more (0 too when zero_ok). */
static bool parse_count(const char *text, bool zero_ok, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
    if (text[0] < '0' || text[0] > '9' || errno || *end || (!v && !zero_ok))
        return false;
    *out = (size_t)v;
    return true;
}

/* Parses `--ints LO..HI` (or `none`) into q. */
static bool parse_ints(const char *text, hon_question_set *q)
{
    if (strcmp(text, "none") == 0) {
        q->int_lo = 1;
        q->int_hi = 0;
        return true;
    }
    char *end, *end2;
    errno = 0;
    long long lo = strtoll(text, &end, 10);
    if (end == text || strncmp(end, "..", 2) != 0)
        return false;
    long long hi = strtoll(end + 2, &end2, 10);
    /* the width unsigned: hi - lo overflows a long long for a range wider than its half */
    if (errno || end2 == end + 2 || *end2 || lo > hi ||
        (unsigned long long)hi - (unsigned long long)lo > 1000)
        return false;
    q->int_lo = lo;
    q->int_hi = hi;
    return true;
}

/* Appends ",NAME=READING" to the setting *setting (a new string replaces it). */
static bool add_variant(char **setting, const char *nr)
{
    size_t n = strlen(*setting), k = strlen(nr);
    char *t = realloc(*setting, n + k + 2);
    if (!t)
        return false;
    t[n] = ',';
    memcpy(t + n + 1, nr, k + 1);
    *setting = t;
    return true;
}

void cli_question_opts_free(cli_question_opts *o)
{
    free((void *)o->so.queries);
    free(o->rules);
    free((void *)o->qs.boards);
    free((void *)o->qs.files);
    free(o->settings[0]);
    free(o->settings[1]);
}

/* Says why the arguments are refused: false. */
static bool refuse(char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool refuse(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return false;
}

bool cli_parse_question_opts(char **args, int n, size_t want, const cli_opts *g,
                             cli_question_opts *o, char *err, size_t cap)
{
    const char **boards = calloc((size_t)n + 2, sizeof *boards);
    const char **files = calloc((size_t)n + 1, sizeof *files);
    const char **queries = calloc((size_t)n + 1, sizeof *queries);
    o->rules = calloc((size_t)n + 1, sizeof *o->rules);
    hon_question_defaults(&o->qs);
    o->qs.boards = boards;
    o->qs.files = files;
    o->so.queries = queries;
    o->so.rules = o->out.rules = o->rules;
    o->out.json = g && g->json;
    if (!boards || !files || !queries || !o->rules)
        return refuse(err, cap, "out of memory");
    if (g && g->board)
        boards[o->qs.nboards++] = g->board;
    for (int i = 0; i < n; i++) {
        const char *a = args[i], *v = i + 1 < n ? args[i + 1] : NULL;
        static const char *const with_value[] = {
            "--board",    "--questions", "--cap",  "--ints",  "--traces",  "--width", "--variant",
            "--max-size", "--seconds",   "--seed", "--query", "--witness", "--rule"
        };
        bool takes = false;
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            takes |= strcmp(a, with_value[k]) == 0;
        if (takes && !v)
            return refuse(err, cap, "option '%s' needs an argument", a);
        i += takes;
        if (strcmp(a, "--board") == 0)
            boards[o->qs.nboards++] = v;
        else if (strcmp(a, "--questions") == 0)
            files[o->qs.nfiles++] = v;
        else if (strcmp(a, "--no-bundled-boards") == 0)
            o->qs.bundled_boards = false;
        else if (strcmp(a, "--no-tests") == 0)
            o->qs.tests = false;
        else if (strcmp(a, "--no-finite") == 0)
            o->qs.finite = false;
        else if (strcmp(a, "--json") == 0)
            o->out.json = true;
        else if (strcmp(a, "--search") == 0 && want == 2)
            o->search = true;
        else if (strcmp(a, "--variants") == 0 && want == 2)
            o->variants = true;
        else if (strcmp(a, "--rule") == 0 && want == 2)
            o->rules[o->out.nrules++] = v;
        else if (strcmp(a, "--query") == 0 && want == 2)
            queries[o->so.nqueries++] = v;
        else if ((strcmp(a, "--query") == 0 || strcmp(a, "--rule") == 0) && want != 2)
            return refuse(err, cap, "%s goes with diff, not snapshot record", a);
        else if (strcmp(a, "--witness") == 0)
            o->so.witness = v;
        else if (strcmp(a, "--max-size") == 0) {
            size_t m;
            if (!parse_count(v, false, &m) || m < 2 || m > 12)
                return refuse(err, cap, "--max-size takes a number from 2 to 12, not '%s'", v);
            o->so.max_size = (unsigned)m;
        } else if (strcmp(a, "--seconds") == 0) {
            char *end;
            double sec = strtod(v, &end);
            if (*end || end == v || !(sec > 0 && sec <= 86400))
                return refuse(err, cap, "--seconds takes a positive number, not '%s'", v);
            o->so.seconds = sec;
        } else if (strcmp(a, "--seed") == 0 && !cli_parse_seed(v, &o->so.seed))
            return refuse(err, cap, "--seed takes a non-negative integer, not '%s'", v);
        else if (strcmp(a, "--cap") == 0 && !parse_count(v, false, &o->qs.cap))
            return refuse(err, cap, "--cap takes a positive integer, not '%s'", v);
        else if (strcmp(a, "--traces") == 0 && !parse_count(v, false, &o->out.traces))
            return refuse(err, cap, "--traces takes a positive integer, not '%s'", v);
        else if (strcmp(a, "--width") == 0) {
            size_t w;
            if (!parse_count(v, false, &w) || w < 40 || w > 1000)
                return refuse(err, cap, "--width takes a number from 40 to 1000, not '%s'", v);
            o->out.width = (unsigned)w;
        } else if (strcmp(a, "--ints") == 0 && !parse_ints(v, &o->qs))
            return refuse(err, cap, "--ints takes LO..HI (at most 1001 values) or none, not '%s'",
                          v);
        else if (strcmp(a, "--variant") == 0) {
            const char *eq = strchr(v, '=');
            if (!o->nsettings)
                return refuse(err, cap, "--variant %s follows no setting", v);
            if (!eq || eq == v || !eq[1])
                return refuse(err, cap, "--variant takes NAME=READING, not '%s'", v);
            if (!add_variant(&o->settings[o->nsettings - 1], v))
                return refuse(err, cap, "out of memory");
        } else if (a[0] == '-' && a[1] == '-' && !takes)
            return refuse(err, cap, "unknown option '%s'", a);
        else if (!takes && o->nsettings == want)
            return refuse(err, cap, "too many settings: '%s'", a);
        else if (!takes && !(o->settings[o->nsettings++] = strdup(a)))
            return refuse(err, cap, "out of memory");
    }
    o->so.nrules = o->out.nrules;
    o->qs.queries = queries;
    o->qs.nqueries = o->so.nqueries;
    /* Options that would be silently ignored are refused. */
    for (int i = 0; i < n; i++) {
        static const char *const search_only[] = { "--witness", "--seed", "--max-size",
                                                   "--seconds" };
        for (size_t k = 0; k < sizeof search_only / sizeof search_only[0]; k++)
            if (strcmp(args[i], search_only[k]) == 0 && !o->search && !o->variants)
                return refuse(err, cap, "%s goes with --search or --variants", args[i]);
        if (strcmp(args[i], "--witness") == 0 && o->variants)
            return refuse(err, cap, "--witness goes with --search");
    }
    if (o->search && o->out.json)
        return refuse(err, cap, "diff --search prints text only: --json goes with plain diff");
    if (o->variants && (o->search || o->out.nrules))
        return refuse(err, cap, "--variants goes with neither --search nor --rule");
    if (o->variants && o->nsettings > 1)
        return refuse(err, cap, "diff --variants takes one setting at most: [EDITION]");
    if (want == 2 && !o->variants && o->nsettings != want)
        return refuse(err, cap,
                      "diff compares two settings: A B (EDITION or EDITION,NAME=READING)");
    return true;
}

char *cli_global_setting(const cli_opts *g)
{
    char *s = strdup(g->edition ? g->edition : "");
    for (size_t i = 0; s && i < g->n_variants; i++) {
        size_t n = strlen(g->variants[i].name) + strlen(g->variants[i].reading) + 2;
        char *nr = malloc(n);
        if (nr)
            snprintf(nr, n, "%s=%s", g->variants[i].name, g->variants[i].reading);
        if (!nr || !add_variant(&s, nr)) {
            free(s);
            s = NULL;
        }
        free(nr);
    }
    return s;
}

/* Whether the witness files of `diff --search --witness FILE` may be written (cli_may_replace):
 * FILE a scenario, its picture (FILE with `.scn` replaced by `.svg`, else FILE.svg: as
 * interp/search.c write_witness names it) an SVG. Asked before the search, which may run for
 * minutes, rather than when the witness is found. */
static bool witness_writable(const char *path)
{
    size_t len = strlen(path);
    bool scn = len > 4 && strcmp(path + len - 4, ".scn") == 0;
    char *svg = malloc(len + 5);
    if (!svg) {
        cli_error_code(CLI_E_MEMORY, "out of memory");
        return false;
    }
    snprintf(svg, len + 5, "%.*s.svg", (int)(scn ? len - 4 : len), path);
    bool ok = cli_may_replace(path, CLI_OUT_SCENARIO) && cli_may_replace(svg, CLI_OUT_SVG);
    free(svg);
    return ok;
}

int cli_diff(cli_session *s, const cli_question_opts *o)
{
    if (o->search && o->so.witness && !witness_writable(o->so.witness))
        return 2;
    size_t before = s->diags, ndiff = 0;
    hon_vm *a = hon_vm_copy(s->vm), *b = a ? hon_vm_copy(s->vm) : NULL;
    hon_status st = b ? HON_OK : HON_ERR_MEMORY;
    const char *setting = o->nsettings ? o->settings[0] : ""; /* --variants: the default */
    if (st == HON_OK)
        st = hon_apply_setting(a, setting, "<command-line>");
    if (st == HON_OK)
        st = hon_apply_setting(b, o->variants ? setting : o->settings[1], "<command-line>");
    bool found = false;
    hon_search_options so = o->so;
    so.width = o->out.width;
    hon_question_set qs = o->qs;
    qs.bundled_boards &= s->bundled_rules;
    for (size_t i = 0; st == HON_OK && i < o->out.nrules; i++)
        st = hon_check_rule_name(a, o->rules[i], "<command-line>");
    for (size_t i = 0; st == HON_OK && i < qs.nqueries; i++)
        st = hon_check_query_name(a, qs.queries[i], o->search, "<command-line>");
    if (st == HON_OK && o->variants)
        st = hon_diff_variants(a, b, setting, &qs, &so, stdout, &ndiff);
    else if (st == HON_OK && o->search)
        st = hon_diff_search(a, o->settings[0], b, o->settings[1], &so, stdout, &found);
    else if (st == HON_OK)
        st = hon_diff(a, o->settings[0], b, o->settings[1], &qs, &o->out, stdout, &ndiff);
    ndiff += found;
    cli_flush_stdout();
    hon_vm_free(a);
    hon_vm_free(b);
    if (st != HON_OK) {
        cli_failed(s, before, st, "cannot compare", setting);
        return 2;
    }
    return ndiff ? 1 : 0;
}

/* The snapshot record's writer for write_whole. */
typedef struct record_job {
    cli_session *s;
    const cli_question_opts *o;
    size_t count;
    FILE *notes; /* the capped lines (NULL when memory ran out: not said) */
} record_job;

static hon_status write_record(FILE *f, void *ud)
{
    record_job *j = ud;
    hon_vm *copy = hon_vm_copy(j->s->vm);
    hon_question_set qs = j->o->qs;
    qs.bundled_boards &= j->s->bundled_rules;
    hon_status st = copy ? hon_snapshot_record(copy, j->o->settings[0], &qs, f, &j->count, j->notes)
                         : HON_ERR_MEMORY;
    hon_vm_free(copy);
    return st;
}

int cli_snapshot_record(cli_session *s, const char *path, const cli_question_opts *o)
{
    /* a rule file (or any file that is no snapshot) named by mistake is never replaced */
    if (!cli_may_replace(path, CLI_OUT_SNAPSHOT))
        return 2;
    size_t before = s->diags;
    char *notes = NULL;
    size_t nlen = 0;
    record_job j = { s, o, 0, open_memstream(&notes, &nlen) };
    bool io = false;
    hon_status st = cli_write_whole(path, write_record, &j, &io);
    if (j.notes)
        fclose(j.notes);
    if (st != HON_OK) {
        free(notes);
        if (!io)
            cli_failed(s, before, st, "cannot record the snapshot", path);
        return 2;
    }
    /* then what the cap left out (repl.md §5), as diff says it */
    printf("wrote %s: %zu answer%s%s\n%s", path, j.count, j.count == 1 ? "" : "s",
           nlen ? " (not every call: past the cap, see `capped:` below; --cap N records more)" : "",
           notes ? notes : "");
    free(notes);
    cli_flush_stdout();
    return 0;
}

int cli_snapshot_check(cli_session *s, const char *path)
{
    size_t before = s->diags, changed = 0;
    hon_vm *copy = hon_vm_copy(s->vm);
    hon_status st = copy ? hon_snapshot_check(copy, path, stdout, &changed) : HON_ERR_MEMORY;
    hon_vm_free(copy);
    cli_flush_stdout();
    if (st != HON_OK) {
        cli_failed(s, before, st, "cannot check the snapshot", path);
        return 2;
    }
    return changed ? 1 : 0;
}
