/* report.c — how the `hon` program reports: diagnostics from the library (as text, naming the
 * true line and column of a script or a typed line when the text was handed over alone, or as
 * one JSON object a line under --json), and the program's own errors, warnings and notes.
 * Split from cli.c (the commands), which hands its diagnostics here (cli_on_diag) and names the
 * script line being run (cli_set_script_line, cli_set_script_text, cli_set_script_alias).
 * Only include/hon.h is used. Text and JSON forms: docs/spec/repl.md §4, docs/spec/errors.md.
 */
#define _XOPEN_SOURCE 700 /* open_memstream */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "entry.h"

/* The line of a script being run (cli_set_script_line): where and which line, 0 for none. */
static const char *script_where;
static unsigned script_line;
/* The name of a declaration being loaded from that line (cli_declare), or NULL. */
static const char *script_alias;

void cli_set_script_alias(const char *name)
{
    script_alias = name;
}

/* The declarations a script loaded (cli_script_declared): the name each is loaded under, and
 * the script and line its text starts on, so that a run-time error in it later names that
 * place rather than `<repl-N>`. */
typedef struct declared {
    char *name;
    const char *where; /* borrowed: the script's name outlives the script (cli_set_script_line) */
    unsigned line;
} declared;
static declared *decls;
static size_t ndecls, decls_cap;

void cli_script_declared(const char *name)
{
    if (!script_line || !name)
        return;
    if (ndecls == decls_cap) {
        size_t cap = decls_cap ? 2 * decls_cap : 8;
        declared *more = realloc(decls, cap * sizeof *more);
        if (!more)
            return; /* the error will name `<repl-N>`, as at a terminal */
        decls = more;
        decls_cap = cap;
    }
    char *copy = strdup(name);
    if (copy)
        decls[ndecls++] = (declared){ copy, script_where, script_line };
}

void cli_forget_declared(void)
{
    for (size_t i = 0; i < ndecls; i++)
        free(decls[i].name);
    free(decls);
    decls = NULL;
    ndecls = decls_cap = 0;
}

/* The script declaration diagnostic d's source is, or NULL. */
static const declared *declared_of(const hon_diag *d)
{
    for (size_t i = 0; d->path && d->line && i < ndecls; i++)
        if (strcmp(decls[i].name, d->path) == 0)
            return &decls[i];
    return NULL;
}

/* The whole line being run (cli_set_script_text), or NULL; the name its snippets go under. */
static const char *script_text, *text_where;

void cli_set_script_line(const char *where, unsigned line)
{
    script_where = where;
    script_line = where ? line : 0;
}

void cli_set_script_text(const char *where, const char *text)
{
    text_where = text ? where : NULL;
    script_text = text;
}

void cli_put_json_string(const char *text, FILE *out)
{
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(out, "\\%c", *c);
        else if (*c == '\n')
            fputs("\\n", out);
        else if (*c < 0x20)
            fprintf(out, "\\u%04x", *c);
        else
            fputc(*c, out);
    }
    fputc('"', out);
}

/* Where the next error of a command points in the line being run (cli_error_at,
 * cli_error_col): a word of it, or a 1-based column and length; none: error_span's default. */
static const char *error_word;
static size_t error_col, error_len;

/* Whether diagnostics and errors go to stderr as JSON objects (--json, `json on`): the
 * session's json flag, mirrored here for the errors that have no session at hand. */
static bool json_errors;

void cli_set_json(cli_session *s, bool on)
{
    if (s)
        s->json = on;
    json_errors = on;
}

/* Prints one diagnostic as a JSON object on one line of stderr (repl.md §4): severity, code
 * ("E012", or null), path (or null), line and column (0 when it has none), the bare message and
 * the rendered text (or null); with called_from (not NULL), the script or prompt line whose
 * evaluation raised it: {"path", "line", "text"} (caller_of). */
static void put_json_diag(const char *severity, int code, const char *path, unsigned line,
                          unsigned col, const char *message, const char *rendered,
                          const char *called_from, unsigned called_line, const char *called_text)
{
    fprintf(stderr, "{\"diagnostic\": {\"severity\": \"%s\", \"code\": ", severity);
    if (code) /* W001 is 1001 (hon.h) */
        fprintf(stderr, "\"%c%03d\"", code > 1000 ? 'W' : 'E', code % 1000);
    else
        fputs("null", stderr);
    fputs(", \"path\": ", stderr);
    if (path)
        cli_put_json_string(path, stderr);
    else
        fputs("null", stderr);
    fprintf(stderr, ", \"line\": %u, \"column\": %u, \"message\": ", line, col);
    cli_put_json_string(message ? message : "", stderr);
    fputs(", \"rendered\": ", stderr);
    if (rendered)
        cli_put_json_string(rendered, stderr);
    else
        fputs("null", stderr);
    if (called_from) {
        fprintf(stderr, ", \"called_from\": {\"path\": ");
        cli_put_json_string(called_from, stderr);
        fprintf(stderr, ", \"line\": %u, \"text\": ", called_line);
        cli_put_json_string(called_text ? called_text : "", stderr);
        fputc('}', stderr);
    }
    fputs("}}\n", stderr);
}

/* Starts an error line on out: `WHERE:LINE: error` while a script runs, else `hon: error`;
 * code (12 for E012) is added when non-zero. */
static void error_prefix(int code, FILE *out)
{
    if (script_line)
        fprintf(out, "%s:%u: error", script_where, script_line);
    else
        fputs("hon: error", out);
    if (code)
        fprintf(out, "[E%03d]", code);
    fputs(": ", out);
}

/* Reports a message with no position on stderr: as a JSON object under --json, else as a line
 * `hon: error: …` (the script's line while a script runs), `hon: warning: …` or `hon: note: …`
 * (severity "error", "warning" or "note"); an error's code (412 for E412) is given when not 0.
 * The JSON object's rendered text is the line the text form prints. */
static void vreport_at(const char *severity, int code, const char *path, const char *fmt,
                       va_list ap);

static void vreport(const char *severity, int code, const char *fmt, va_list ap)
{
    vreport_at(severity, code, NULL, fmt, ap);
}

/* The first word of the line being run (script_text): its offset in *at, its length. */
static size_t first_word(size_t *at)
{
    size_t i = strspn(script_text, " \t");
    i += script_text[i] == ':';
    *at = i;
    return strcspn(script_text + i, " \t");
}

/* The last place of text[0..k) in the line being run (script_text), from 0; -1 if none. */
static long place_in_line(const char *text, size_t k)
{
    size_t tl = strlen(script_text);
    for (size_t i = tl + 1; k && k <= tl && i-- > 0;)
        if (i + k <= tl && memcmp(script_text + i, text, k) == 0)
            return (long)i;
    return -1;
}

/* The place an error of a command points at in the line being run (script_text), 1-based
 * column and length in bytes: `col` when given (not 0); else `word`'s last place in the line;
 * else the last word the message quotes ('@Z99', a file name, `$bb`) that the line holds; else
 * when on_args (a usage error, E404, or the library's error about what a command was given:
 * `square ZZ99 is off the board`) the words after the command's; else the command's word. */
static void error_span(bool on_args, const char *word, size_t col, size_t len, const char *msg,
                       size_t *c, size_t *n)
{
    size_t at, wl = first_word(&at), tl = strlen(script_text);
    *c = at + 1;
    *n = wl ? wl : 1;
    if (col) {
        *c = col;
        *n = len ? len : 1;
        return;
    }
    long i = word ? place_in_line(word, strlen(word)) : -1;
    if (i >= 0) {
        *c = (size_t)i + 1;
        *n = strlen(word);
        return;
    }
    /* the last quoted word ('...' or `...`) the line holds: a reading after its variant */
    const char *last = NULL;
    for (const char *q = msg ? strpbrk(msg, "'`") : NULL, *e; q && (e = strchr(q + 1, *q));
         q = strpbrk(e + 1, "'`")) {
        if ((i = place_in_line(q + 1, (size_t)(e - q - 1))) >= 0) {
            last = q;
            *c = (size_t)i + 1;
            *n = (size_t)(e - q - 1);
        }
    }
    if (last)
        return;
    if (on_args) {
        size_t from = at + wl + strspn(script_text + at + wl, " \t"), to = tl;
        while (to > from && (script_text[to - 1] == ' ' || script_text[to - 1] == '\t'))
            to--;
        if (to > from) {
            *c = from + 1;
            *n = to - from;
        }
    }
}

/* The text of an error of a command on the line being run (script_text; a script's line, or
 * line 1 of the typed line's name): `WHERE:LINE:COL: error[CODE]: MESSAGE`, the line quoted
 * and a caret under the place error_span gives (on_args: its; msg the message whole, which it
 * searches for the words the line holds), as the library renders a diagnostic (shown: msg
 * shortened; hon_quote_line: a long line quoted in part, errors.md). Returns the text
 * (malloc'd; NULL when memory runs out) and the line and column in *line and *at. */
static char *error_on_line(int code, bool on_args, const char *word, size_t col, size_t len,
                           const char *msg, const char *shown, unsigned *line, size_t *at)
{
    size_t c, n, size = 0;
    char *text = NULL;
    error_span(on_args, word, col, len, msg, &c, &n);
    *line = script_line ? script_line : 1;
    *at = c;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    fprintf(f, "%s:%u:%zu: error", script_line ? script_where : text_where, *line, c);
    if (code)
        fprintf(f, "[E%03d]", code);
    fprintf(f, ": %s\n", shown);
    hon_quote_line(f, *line, script_text, strlen(script_text), c - 1, c - 1 + (n ? n - 1 : 0));
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The message fmt formats, whole; malloc'd, NULL when memory runs out. */
static char *formatted(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static char *formatted(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *m = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!m)
        return NULL;
    vsnprintf(m, (size_t)n + 1, fmt, ap);
    return m;
}

/* vreport, the JSON object's path `path` (a file the message is about, not NULL) when no
 * script line is named. */
static void vreport_at(const char *severity, int code, const char *path, const char *fmt,
                       va_list ap)
{
    bool error = strcmp(severity, "error") == 0;
    /* shown shortened as the library's messages are (hon_shorten_message: no input it quotes
     * runs on); placed in the line by the whole one */
    char *whole = formatted(fmt, ap), *msg = whole ? strdup(whole) : NULL, text[4200];
    if (msg)
        hon_shorten_message(msg);
    if (!msg) {
        free(whole);
        cli_flush_stdout();
        fprintf(stderr, "hon: %s: (out of memory while reporting an error)\n", severity);
        return;
    }
    if (error && script_text && (script_line || text_where)) {
        /* a command's error on the line being run: placed in it, as a diagnostic is */
        unsigned line;
        size_t col;
        char *placed = error_on_line(code, code == CLI_E_USAGE, error_word, error_col, error_len,
                                     whole, msg, &line, &col);
        error_word = NULL;
        error_col = error_len = 0;
        cli_flush_stdout();
        if (json_errors)
            put_json_diag(severity, code, script_line ? script_where : text_where, line,
                          (unsigned)col, msg, placed, NULL, 0, NULL);
        else
            fputs(placed ? placed : msg, stderr);
        free(placed);
        free(msg);
        free(whole);
        return;
    }
    if (error && script_line)
        snprintf(text, sizeof text, "%s:%u: error", script_where, script_line);
    else
        snprintf(text, sizeof text, "hon: %s", severity);
    if (error && code)
        snprintf(text + strlen(text), sizeof text - strlen(text), "[E%03d]", code);
    snprintf(text + strlen(text), sizeof text - strlen(text), ": %s\n", msg);
    cli_flush_stdout();
    if (json_errors)
        put_json_diag(severity, code, error && script_line ? script_where : path,
                      error ? script_line : 0, 0, msg, text, NULL, 0, NULL);
    else
        fputs(text, stderr);
    free(msg);
    free(whole);
}

void cli_usage_error(const char *message)
{
    char text[4200], *m = strdup(message);
    if (m) /* the words a user gave (an unknown command, an option's value) shortened */
        hon_shorten_message(m);
    message = m ? m : message;
    snprintf(text, sizeof text, "hon: %s\nTry 'hon --help' for more information.\n", message);
    cli_flush_stdout();
    if (json_errors)
        put_json_diag("error", 0, NULL, 0, 0, message, text, NULL, 0, NULL);
    else
        fputs(text, stderr);
    free(m);
}

void cli_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("note", 0, fmt, ap);
    va_end(ap);
}

void cli_error_code(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("error", code, fmt, ap);
    va_end(ap);
}

void cli_error_at_line(unsigned line, const char *text, size_t col, size_t len, int code,
                       const char *fmt, ...)
{
    const char *was_text = script_text, *where = text_where;
    unsigned at = script_line;
    if (script_line && line) {
        script_text = text;
        text_where = NULL;
        script_line = line;
        if (text) { /* placed in that line, as a command's error is in its own */
            error_col = col ? col : 1;
            error_len = len;
        }
    }
    va_list ap;
    va_start(ap, fmt);
    vreport("error", code, fmt, ap);
    va_end(ap);
    error_col = error_len = 0;
    script_text = was_text;
    text_where = where;
    script_line = at;
}

void cli_error_at(int code, const char *word, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_word = word;
    vreport("error", code, fmt, ap);
    error_word = NULL;
    va_end(ap);
}

void cli_error_col(int code, size_t col, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_col = col;
    error_len = len;
    vreport("error", code, fmt, ap);
    error_col = error_len = 0;
    va_end(ap);
}

void cli_error_file(int code, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport_at("error", code, path, fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("warning", 0, fmt, ap);
    va_end(ap);
}

const char *cli_status_text(hon_status st)
{
    const char *t = hon_status_text(st);
    return t ? t : "error";
}

/* Prints text followed by a newline unless it already ends with one; NULL prints nothing. */
void cli_put_block(const char *text, FILE *out)
{
    size_t n;
    if (!text)
        return;
    n = strlen(text);
    fwrite(text, 1, n, out);
    if (n == 0 || text[n - 1] != '\n')
        fputc('\n', out);
}

/* The longest line quoted whole (bytes), as the library's diagnostics quote (errors.md). */
enum {
    QUOTED_MAX = 200
};

static const char *const severity_name[] = { "error", "warning", "note" };

static void put_block_declared(const char *text, FILE *out);

/* Where the text a line handed over (an expression, `do`'s call) starts in the whole line
 * script_text, from a diagnostic's rendering (its line 1 quoted after a gutter of width
 * `gutter`): the last place that quoted text stands in the line, since the handed text ends the
 * line and the command words come before it (`why not not x`). -1 when it is not there. */
static long handed_shift(const char *rendered, size_t gutter)
{
    const char *nl = rendered && script_text ? strchr(rendered, '\n') : NULL;
    if (!nl || strlen(nl + 1) < gutter + 1)
        return -1;
    const char *quoted = nl + 1 + gutter + 1, *qend = strchr(quoted, '\n');
    size_t k = qend ? (size_t)(qend - quoted) : 0, n = strlen(script_text);
    if (!k || k > n)
        return -1;
    for (size_t i = n - k + 1; i-- > 0;)
        if (memcmp(script_text + i, quoted, k) == 0)
            return (long)i;
    return -1;
}

/* Renders the rest of a diagnostic on the text a line handed over (rest: "COL: ...", then the
 * quoted text and its caret line, each after a gutter of width `gutter`) as on the whole line
 * script_text, line `line`: the column counted in the line, the line quoted, the caret moved
 * under it. False (nothing written) when the quoted text is not found in the line. */
static bool put_on_script_text(const char *rest, size_t gutter, unsigned line, FILE *out)
{
    char *end;
    unsigned long col = strtoul(rest, &end, 10);
    const char *nl = strchr(rest, '\n');
    long shift = handed_shift(rest, gutter);
    if (shift < 0 || end == rest || *end != ':' || strlen(script_text) > QUOTED_MAX)
        return false; /* a long line: the library's quote, a part of it, stays */
    const char *qend = strchr(nl + 1 + gutter + 1, '\n');
    fprintf(out, "%lu", col + (unsigned long)shift);
    fwrite(end, 1, (size_t)(nl + 1 - end), out);
    fprintf(out, "%5u | %s\n", line, script_text);
    const char *caret = qend + 1; /* "      |" then the caret under the quoted text */
    size_t bar = strspn(caret, " ") + 1;
    if (strlen(caret) < bar || caret[bar - 1] != '|')
        return true;
    fwrite(caret, 1, bar, out);
    fprintf(out, "%*s", (int)shift, "");
    put_block_declared(caret + bar, out);
    return true;
}

/* Whether diagnostic d is about the text the line being run handed over (the library counts
 * its lines from 1 in a source named as the script, its alias, or the typed line's name). */
static bool on_handed_text(const hon_diag *d)
{
    if (!d->path || d->line == 0)
        return false;
    if (script_line)
        return strcmp(d->path, script_where) == 0 ||
               (script_alias && strcmp(d->path, script_alias) == 0);
    return text_where && strcmp(d->path, text_where) == 0;
}

/* The line whose evaluation raised run-time error d (E2xx, errors.md) at a place of its own, in
 * a rule or a declaration rather than in the text the line handed over: the script's name and
 * line, or the prompt's name and 1 (a line typed at a terminal is line 1 of <repl>), and its
 * text in *text (borrowed, NULL when unknown). NULL when d has no such caller. */
static const char *caller_of(const hon_diag *d, unsigned *line, const char **text)
{
    if (d->severity != HON_ERROR || d->code < 200 || d->code >= 300 || d->line == 0 || !d->path ||
        on_handed_text(d) || (!script_line && !text_where))
        return NULL;
    *line = script_line ? script_line : 1;
    *text = script_text;
    return script_line ? script_where : text_where;
}

/* Writes the note naming the line whose evaluation raised d (caller_of), when there is one:
 * `  = note: called from <stdin>:2: move $rifle1 @B6`. */
static void put_caller_note(const hon_diag *d, FILE *out)
{
    unsigned line;
    const char *text, *where = caller_of(d, &line, &text);
    if (!where)
        return;
    fprintf(out, "  = note: called from %s:%u", where, line);
    if (text) { /* a long line in part, as a quoted one (errors.md) */
        text += strspn(text, " \t");
        size_t n = strlen(text);
        if (n > QUOTED_MAX) {
            n = QUOTED_MAX;
            while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
                n--;
        }
        fprintf(out, ": %.*s%s", (int)n, text, text[n] ? "..." : "");
    }
    fputc('\n', out);
}

/* Writes text (the rest of a diagnostic's rendering) as cli_put_block does, with each block
 * that names a declaration a script loaded (cli_script_declared; a note such as E110's "first
 * declared here" names `<repl-N>:LINE:COL`) naming that script's name and true line instead, and
 * its quoted line numbered so. */
static void put_block_declared(const char *text, FILE *out)
{
    if (!text)
        return;
    unsigned renumber = 0, from = 0; /* a block renamed: its quoted line's number, old and new */
    for (const char *l = text; *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);
        const declared *dc = NULL;
        size_t plen = 0;
        for (size_t i = 0; i < ndecls && !dc; i++) {
            plen = strlen(decls[i].name);
            if (strncmp(l, decls[i].name, plen) == 0 && l[plen] == ':' &&
                isdigit((unsigned char)l[plen + 1]))
                dc = &decls[i];
        }
        char *end;
        unsigned long line = dc ? strtoul(l + plen + 1, &end, 10) : 0;
        char gutter[16];
        int gn = renumber ? snprintf(gutter, sizeof gutter, "%5u |", from) : 0;
        if (dc && line && *end == ':' && dc->line + line - 1 <= 99999) {
            renumber = dc->line + (unsigned)line - 1;
            from = (unsigned)line;
            fprintf(out, "%s:%u", dc->where, renumber);
            fwrite(end, 1, n - (size_t)(end - l), out);
        } else if (renumber && gn > 0 && strncmp(l, gutter, (size_t)gn) == 0) {
            fprintf(out, "%5u |", renumber);
            fwrite(l + gn, 1, n - (size_t)gn, out);
            renumber = 0;
        } else {
            fwrite(l, 1, n, out);
        }
        l += n;
    }
    size_t len = strlen(text);
    if (len == 0 || text[len - 1] != '\n')
        fputc('\n', out);
}

/* The line diagnostic d names: in the text the line handed over (on_handed_text), the
 * script's line it stands on (an entry over several lines counts from the script's line where
 * it started); else its own. */
static unsigned shown_line(const hon_diag *d)
{
    const declared *dc = on_handed_text(d) ? NULL : declared_of(d);
    if (dc)
        return dc->line + d->line - 1;
    return script_line && on_handed_text(d) ? script_line + d->line - 1 : d->line;
}

/* Renders diagnostic d as text to out: the library's rendering, with a script's line named
 * when the text was handed over alone (the library counts its lines from 1), and for its first
 * line the column and quoted text those of the whole line run (script_text) when it is known. */
static void render_diag(const hon_diag *d, FILE *out)
{
    char head[64], gutter[16];
    int hn = d->path ? snprintf(head, sizeof head, ":%u:", d->line) : 0;
    int gn = snprintf(gutter, sizeof gutter, "%5u |", d->line);
    size_t plen = d->path ? strlen(d->path) : 0;
    const declared *dc = on_handed_text(d) ? NULL : declared_of(d);
    if ((on_handed_text(d) || dc) && d->rendered && strncmp(d->rendered, d->path, plen) == 0 &&
        hn > 0 && (size_t)hn < sizeof head && strncmp(d->rendered + plen, head, (size_t)hn) == 0) {
        /* name the script's line instead, keeping the rest (column, message, quoted line,
         * caret); a declaration the script loaded earlier: its own script and line */
        const char *rest = d->rendered + plen + hn, *nl = strchr(rest, '\n');
        unsigned line = shown_line(d);
        fprintf(out, "%s:%u:", dc ? dc->where : script_line ? script_where : d->path, line);
        if (!dc && d->line == 1 && line <= 99999 && put_on_script_text(rest, (size_t)gn, line, out))
            return;
        if (nl && line <= 99999 && strncmp(nl + 1, gutter, (size_t)gn) == 0) {
            fwrite(rest, 1, (size_t)(nl + 1 - rest), out);
            fprintf(out, "%5u |", line);
            rest = nl + 1 + gn;
        }
        put_block_declared(rest, out);
        if (dc)
            put_caller_note(d, out);
    } else if (script_line && d->line == 0 && d->severity == HON_ERROR && d->message &&
               script_text) {
        /* no position of its own: placed in the line being run, as the program's errors */
        unsigned line;
        size_t col;
        char *placed =
            error_on_line(d->code, true, NULL, 0, 0, d->message, d->message, &line, &col);
        if (placed)
            fputs(placed, out);
        else
            fprintf(out, "hon: error: %s\n", d->message);
        free(placed);
    } else if (script_line && d->line == 0 && d->severity == HON_ERROR && d->message) {
        error_prefix(d->code, out); /* no position of its own: the script's line is where */
        fprintf(out, "%s\n", d->message);
    } else if (d->rendered && d->rendered[0]) {
        put_block_declared(d->rendered, out);
        put_caller_note(d, out);
    } else {
        unsigned si = (unsigned)d->severity <= HON_NOTE ? (unsigned)d->severity : 0;
        fprintf(out, "%s:%u:%u: %s", d->path ? d->path : "?", d->line, d->col, severity_name[si]);
        if (d->code) /* W001 is 1001 (hon.h) */
            fprintf(out, "[%c%03d]", d->code > 1000 ? 'W' : 'E', d->code % 1000);
        fprintf(out, ": %s\n", d->message ? d->message : "");
        put_caller_note(d, out);
    }
}

/* The column render_diag places error d at when it has no position of its own and a line is
 * being run (error_on_line); 0 when it is not placed. */
static unsigned placed_col(const hon_diag *d)
{
    size_t c = 0, n;
    if (script_text && d->severity == HON_ERROR && d->message)
        error_span(true, NULL, 0, 0, d->message, &c, &n);
    return (unsigned)c;
}

/* The diagnostic callback: renders to stderr (as text, or as JSON under --json), counts.
 * Stdout is flushed first so that answers and diagnostics keep their order on a terminal. */
void cli_on_diag(void *ud, const hon_diag *d)
{
    cli_session *s = ud;
    if (s->refusal_answered && d->severity == HON_ERROR && d->code == 228)
        return;
    s->diags++;
    if (d->severity == HON_ERROR)
        s->errors++;
    if (d->code == 110)
        s->redeclared++;
    if (d->severity == HON_ERROR && d->code > 0 && d->code < 100)
        s->syntax_errors++;
    if (s->on_diag) {
        s->on_diag(s->on_diag_ud, d);
        return;
    }
    cli_flush_stdout();
    if (!s->json) {
        render_diag(d, stderr);
        return;
    }
    /* the same place the text names: a script's line handed over alone, or an error with no
       position of its own that happened on it */
    bool here = script_line && (d->line == 0 || on_handed_text(d));
    const declared *dc = here ? NULL : declared_of(d);
    long shift = on_handed_text(d) && d->line == 1 ? handed_shift(d->rendered, 7) : -1;
    unsigned si = (unsigned)d->severity <= HON_NOTE ? (unsigned)d->severity : 0;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        render_diag(d, m);
        if (fclose(m) != 0) {
            free(text);
            text = NULL;
        }
    }
    unsigned called_line = 0;
    const char *called_text = NULL, *called_from = caller_of(d, &called_line, &called_text);
    put_json_diag(severity_name[si], d->code,
                  here ? script_where
                  : dc ? dc->where
                       : d->path,
                  here ? (d->line ? shown_line(d) : script_line)
                  : dc ? shown_line(d)
                       : d->line,
                  here && d->line == 0 ? placed_col(d)
                                       : d->col + (shift > 0 ? (unsigned)shift : 0u),
                  d->message, text, called_from, called_line, called_text);
    free(text);
}

/* Reads the whole of file f from its start into a new string (malloc'd; NULL on failure). */
static char *read_back(FILE *f)
{
    if (fseek(f, 0, SEEK_END) != 0)
        return NULL;
    long n = ftell(f);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!text)
        return NULL;
    rewind(f);
    size_t got = fread(text, 1, (size_t)n, f);
    text[got] = '\0';
    return text;
}

int cli_json_text(cli_session *s, const char *key, const char *value, int (*fn)(void *ud), void *ud)
{
    if (!s->json)
        return fn(ud);
    cli_flush_stdout();
    FILE *caught = tmpfile();
    int saved = caught ? dup(STDOUT_FILENO) : -1;
    if (saved < 0 || dup2(fileno(caught), STDOUT_FILENO) < 0) {
        if (saved >= 0)
            close(saved);
        if (caught)
            fclose(caught);
        return fn(ud); /* nowhere to catch it: the text as it is */
    }
    int rc = fn(ud);
    fflush(stdout);
    clearerr(stdout); /* a failure writing the scratch file is not standard output's */
    dup2(saved, STDOUT_FILENO);
    close(saved);
    char *text = read_back(caught);
    fclose(caught);
    if (text && text[0]) {
        printf("{\"%s\": ", key);
        if (value)
            cli_put_json_string(value, stdout);
        else
            fputs("null", stdout);
        fputs(", \"text\": ", stdout);
        cli_put_json_string(text, stdout);
        fputs("}\n", stdout);
    }
    free(text);
    return rc;
}

/* The errno of the first flush of standard output that failed (0: none yet, or none known),
 * and whether its error has been reported (once per process). */
static int stdout_errno;
static bool stdout_reported;

bool cli_flush_stdout(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return true;
    if (!stdout_errno)
        stdout_errno = errno;
    return false;
}

bool cli_stdout_failed(void)
{
    return !cli_flush_stdout() || stdout_reported;
}

/* The reason standard output fails, asked again when the failing write's errno was lost: a
 * write inside a long printf, or a library's own flush, leaves stdio's error flag and no reason
 * (stdio keeps none, and drops what it could not write), so `help` said "the system's reason was
 * not kept" where `eval` said "No space left on device". A write of nothing first (a device
 * such as /dev/full refuses even that), else one line end (the output is cut already: ending its
 * last line harms nothing): the system's reason for refusing it, or 0 when it goes through. */
static int probe_stdout(void)
{
    errno = 0;
    if (write(STDOUT_FILENO, "", 0) < 0)
        return errno;
    clearerr(stdout);
    errno = 0;
    if (fputc('\n', stdout) == EOF || fflush(stdout) != 0)
        return errno;
    return 0;
}

int cli_stdout_error(void)
{
    if (!cli_stdout_failed())
        return 0;
    if (!stdout_reported) {
        char msg[300], text[400];
        if (!stdout_errno)
            stdout_errno = probe_stdout();
        if (stdout_errno)
            snprintf(msg, sizeof msg, "cannot write standard output: %s", strerror(stdout_errno));
        else
            snprintf(msg, sizeof msg,
                     "cannot write standard output: a write to it failed (the system's reason was "
                     "not kept)");
        snprintf(text, sizeof text, "hon: error[E%03d]: %s\n", CLI_E_WRITE, msg);
        if (json_errors) /* on stderr, as every diagnostic */
            put_json_diag("error", CLI_E_WRITE, NULL, 0, 0, msg, text, NULL, 0, NULL);
        else
            fputs(text, stderr);
        stdout_reported = true;
    }
    return 1;
}

int cli_failed(const cli_session *s, size_t diags_before, hon_status st, const char *what,
               const char *arg)
{
    if (st == HON_ERR_IO && cli_stdout_failed())
        return cli_stdout_error(); /* the output failed, not the file or setting named */
    if (s->diags == diags_before)
        cli_error_code(st == HON_ERR_MEMORY ? CLI_E_MEMORY
                       : st == HON_ERR_IO   ? CLI_E_READ
                                            : CLI_E_REFUSED,
                       "%s '%s': %s", what, arg, cli_status_text(st));
    return 1;
}

hon_status cli_write_whole(const char *path, hon_status (*write)(FILE *f, void *ud), void *ud,
                           bool *io)
{
    int err = 0;
    hon_status r = hon_write_file(path, write, ud, &err);
    if (r == HON_ERR_IO && err) {
        *io = true;
        cli_error_code(CLI_E_WRITE, "cannot write '%s': %s", path, strerror(err));
    }
    return r;
}

/* A declaration cut short by the end of the input (no `;` or `}` ended it), its lines from
 * `start` of script `where` (named `name` for its snippets): the error E012, like sqlite3's
 * "incomplete input", saying which lines it took and pointing where a `;` most likely belongs
 * (semicolon_line). Nothing of it is loaded. */
void cli_declaration_cut_short(const char *where, const char *name, const char *entry,
                               unsigned start)
{
    const char *text;
    size_t n;
    unsigned lines, k = entry_semicolon_line(entry, &text, &n, &lines);
    char *quoted = strndup(text, n);
    cli_set_script_line(where, start + k - 1);
    cli_set_script_text(name, quoted ? quoted : "");
    if (lines == 1)
        cli_error_col(12, entry_code_end(text, n) + 1, 1,
                      "incomplete input: the declaration has no ';' or '}' at its end (a "
                      "declaration typed here is loaded when it ends with ';' or '}')");
    else
        cli_error_col(12, entry_code_end(text, n) + 1, 1,
                      "incomplete input: the declaration begun on line %u has no ';' or '}' at "
                      "its end, so it took lines %u-%u, to the end of the input, and none of "
                      "them ran; a ';' is likely missing at the end of line %u",
                      start, start, start + lines - 1, start + k - 1);
    cli_set_script_text(NULL, NULL);
    free(quoted);
}

void cli_expression_cut_by_command(const char *where, const char *name, const char *entry,
                                   unsigned start, const char *cmd, size_t cmdlen)
{
    const char *last = strrchr(entry, '\n');
    last = last ? last + 1 : entry;
    unsigned lines = 1;
    for (const char *c = entry; *c; c++)
        lines += *c == '\n';
    size_t n = strlen(last);
    char *quoted = strndup(last, n);
    cli_set_script_line(where, start + lines - 1);
    cli_set_script_text(name, quoted ? quoted : "");
    char begun[48] = "";
    if (lines > 1)
        snprintf(begun, sizeof begun, " begun on line %u", start);
    cli_error_col(12, entry_code_end(last, n) + 1, 1,
                  "incomplete input: the expression%s is unfinished at the end of this line (a "
                  "bracket open, or an operator wanting more), and the next line is the command "
                  "`%.*s`: the expression is dropped, the command runs",
                  begun, (int)cmdlen, cmd);
    cli_set_script_text(NULL, NULL);
    cli_set_script_line(NULL, 0);
    free(quoted);
}

/* After a declaration of several lines (an entry from line `start`) failed with a syntax error:
 * when its text was whole as an expression before its last line, a note saying which lines it
 * took and where a `;` may be missing (a declaration goes on until a `;` or `}`). */
void cli_declaration_swallowed(const char *entry, unsigned start)
{
    const char *text;
    size_t n;
    unsigned lines, k = entry_semicolon_line(entry, &text, &n, &lines);
    if (k < lines)
        cli_note("the declaration begun on line %u took lines %u-%u, up to the first ';' or '}': "
                 "is a ';' missing at the end of line %u?",
                 start, start, start + lines - 1, start + k - 1);
}
