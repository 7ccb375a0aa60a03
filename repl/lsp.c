/* lsp.c — `hon lsp` (lsp.h, docs/spec/lsp.md): reads JSON-RPC messages framed by
 * Content-Length headers, parses them with json-c, and answers initialize, shutdown, hover,
 * definition, completion, documentSymbol and formatting; each open document is checked over a copy of the
 * session's rules (hon_vm_copy, then hon_load_source or hon_load_board_source) and its
 * diagnostics published. Positions: hon's lines and byte columns from 1, LSP's lines from 0 and
 * UTF-16 characters. Program code: malloc/free, like cli.c.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "lsp.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lsp_int.h"

/* JSON-RPC's and LSP's error codes. */
enum {
    RPC_PARSE_ERROR = -32700,
    RPC_INVALID_REQUEST = -32600,
    RPC_METHOD_NOT_FOUND = -32601,
    RPC_INVALID_PARAMS = -32602,
    LSP_NOT_INITIALIZED = -32002
};

#define MAX_MESSAGE ((size_t)64 << 20) /* bytes of one message's body */
/* bytes of a file read from disk (an inventory, a rule file) */
#define LSP_MAX_FILE ((size_t)64 << 20)

/* ---- positions ---- */

/* The byte offset where line `line` (from 0) of text starts; len past the last line. */
static size_t line_start(const char *text, size_t len, unsigned line)
{
    size_t i = 0;
    for (unsigned l = 0; l < line && i < len; i++)
        if (text[i] == '\n')
            l++;
    return i;
}

/* The UTF-16 character (LSP's column) of the byte `bytes` bytes into line `line` (from 0). */
static unsigned utf16_col(const char *text, size_t len, unsigned line, size_t bytes)
{
    size_t i = line_start(text, len, line);
    unsigned n = 0;
    for (size_t end = i + bytes; i < end && i < len && text[i] != '\n'; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c & 0xC0) != 0x80)
            n += c >= 0xF0 ? 2 : 1; /* four bytes of UTF-8: a surrogate pair */
    }
    return n;
}

/* The byte offset of LSP position (line, character) in text, clamped to its line. */
static size_t byte_at(const char *text, size_t len, unsigned line, unsigned character)
{
    size_t i = line_start(text, len, line);
    for (unsigned n = 0; i < len && text[i] != '\n' && n < character; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c & 0xC0) != 0x80)
            n += c >= 0xF0 ? 2 : 1;
    }
    while (i < len && ((unsigned char)text[i] & 0xC0) == 0x80)
        i++;
    return i;
}

static json_object *position(unsigned line, unsigned character)
{
    json_object *p = json_object_new_object();
    json_object_object_add(p, "line", json_object_new_int((int)line));
    json_object_object_add(p, "character", json_object_new_int((int)character));
    return p;
}

/* The LSP range of hon's span (lines and byte columns from 1, end inclusive) in text; a text
 * of NULL counts a byte a character. */
static json_object *range_of(const char *text, size_t len, unsigned line, unsigned col,
                             unsigned end_line, unsigned end_col)
{
    unsigned l0 = line ? line - 1 : 0, l1 = end_line ? end_line - 1 : l0;
    unsigned c0 = col ? col - 1 : 0, c1 = end_col ? end_col : c0 + 1;
    json_object *r = json_object_new_object();
    if (text) {
        c0 = utf16_col(text, len, l0, c0);
        c1 = utf16_col(text, len, l1, c1);
    }
    json_object_object_add(r, "start", position(l0, c0));
    json_object_object_add(r, "end", position(l1, c1));
    return r;
}

/* ---- URIs and paths ---- */

static int hex(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The path of a file: URI, percent-decoded (new string); any other URI as it is. */
char *lsp_path_of_uri(const char *uri)
{
    const char *p = strncmp(uri, "file://", 7) == 0 ? uri + 7 : uri;
    char *out = malloc(strlen(p) + 1), *o = out;
    if (!out)
        return NULL;
    for (; *p; p++) {
        if (p[0] == '%' && hex(p[1]) >= 0 && hex(p[2]) >= 0) {
            *o++ = (char)(hex(p[1]) * 16 + hex(p[2]));
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

/* The file: URI of path (made absolute when it names a file), percent-encoded (new string). */
static char *uri_of_path(const char *path)
{
    char *real = realpath(path, NULL);
    const char *p = real ? real : path;
    char *out = malloc(strlen(p) * 3 + 8), *o = out;
    if (out) {
        o += sprintf(o, "file://");
        for (; *p; p++) {
            unsigned char c = (unsigned char)*p;
            if (c < 0x80 && (c == '/' || c == '.' || c == '_' || c == '-' || c == '~' ||
                             (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')))
                *o++ = (char)c;
            else
                o += sprintf(o, "%%%02X", c);
        }
        *o = '\0';
    }
    free(real);
    return out;
}

/* Finding the loaded file a path stands for (hon_each_file). */
typedef struct same_file {
    const char *real;
    char *found;
} same_file;

static void match_file(void *ud, const char *path)
{
    same_file *f = ud;
    char *real = f->found ? NULL : realpath(path, NULL);
    if (real && strcmp(real, f->real) == 0)
        f->found = strdup(path);
    free(real);
}

/* The name document uri is loaded under (new string): the spelling of the loaded rule file
 * that is the same file, or whose copy it is (a source checkout's rules/x.hon beside an
 * installed hon's: cli_bundled_twin), so that the document replaces it; else its path. */
static char *doc_name(const server *srv, const char *uri)
{
    char *path = lsp_path_of_uri(uri);
    char *real = path ? realpath(path, NULL) : NULL;
    same_file f = { real, NULL };
    if (real)
        hon_each_file(srv->s->vm, match_file, &f);
    free(real);
    if (!f.found && path) /* a checkout's copy of a bundled file: in the installed one's place */
        f.found = cli_bundled_twin(srv->s, path);
    if (f.found) {
        free(path);
        return f.found;
    }
    return path;
}

/* ---- messages ---- */

static void send(server *srv, json_object *msg)
{
    json_object_object_add(msg, "jsonrpc", json_object_new_string("2.0"));
    const char *body = json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE);
    if (body) { /* NULL only when memory ran out: then nothing is sent */
        fprintf(srv->out, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
        fflush(srv->out);
    }
    json_object_put(msg);
}

/* Answers request `id` (borrowed; NULL: null) with result (taken; NULL: null). */
static void reply(server *srv, json_object *id, json_object *result)
{
    json_object *msg = json_object_new_object();
    json_object_object_add(msg, "id", json_object_get(id));
    json_object_object_add(msg, "result", result);
    send(srv, msg);
}

static void reply_error(server *srv, json_object *id, int code, const char *message)
{
    json_object *msg = json_object_new_object(), *err = json_object_new_object();
    json_object_object_add(err, "code", json_object_new_int(code));
    json_object_object_add(err, "message", json_object_new_string(message));
    json_object_object_add(msg, "id", json_object_get(id));
    json_object_object_add(msg, "error", err);
    send(srv, msg);
}

/* Reads one message's body (new string, *len bytes) from in. NULL at the end of the input; an
 * empty body ("" with *len 0) when the headers held no usable Content-Length. *truncated: the
 * input ended inside the body, before the Content-Length bytes came (*len of them did). */
static char *read_message(FILE *in, size_t *len, size_t *want, bool *truncated)
{
    char line[1024];
    bool any = false, sized = false;
    size_t n = 0;
    while (fgets(line, sizeof line, in)) {
        any = true;
        if (strcmp(line, "\r\n") == 0 || strcmp(line, "\n") == 0)
            break;
        if (strncasecmp(line, "Content-Length:", 15) == 0) {
            char *end;
            unsigned long long v = strtoull(line + 15, &end, 10);
            sized = end != line + 15 && v <= MAX_MESSAGE;
            n = sized ? (size_t)v : 0;
        }
    }
    if (!any || feof(in))
        return NULL;
    char *body = malloc(n + 1);
    if (!body)
        return NULL;
    *len = sized ? fread(body, 1, n, in) : 0;
    body[*len] = '\0';
    *want = n;
    *truncated = *len < n;
    return body;
}

/* ---- documents and their diagnostics ---- */

static doc *find_doc(const server *srv, const char *uri)
{
    for (doc *d = srv->docs; d; d = d->next)
        if (strcmp(d->uri, uri) == 0)
            return d;
    return NULL;
}

static void doc_free(doc *d)
{
    if (!d)
        return;
    hon_vm_free(d->vm);
    hon_vm_free(d->test_vm);
    free(d->test_board);
    free(d->uri);
    free(d->name);
    free(d->text);
    free(d);
}

/* Publishes diags (taken) as uri's diagnostics. */
static void publish(server *srv, const char *uri, json_object *diags)
{
    json_object *msg = json_object_new_object(), *params = json_object_new_object();
    json_object_object_add(params, "uri", json_object_new_string(uri));
    json_object_object_add(params, "diagnostics", diags);
    json_object_object_add(msg, "method",
                           json_object_new_string("textDocument/publishDiagnostics"));
    json_object_object_add(msg, "params", params);
    send(srv, msg);
}

/* The session's diagnostics while a document is checked: one LSP diagnostic each, at its span
 * when it is in the document, else at the document's start, its place named in the message. */
static void on_diag(void *ud, const hon_diag *d)
{
    server *srv = ud;
    doc *dc = srv->checking;
    if (!dc || !srv->diags)
        return;
    bool here = d->path && strcmp(d->path, dc->name) == 0 && d->line;
    json_object *o = json_object_new_object();
    json_object_object_add(
        o, "range",
        here ? range_of(dc->text, dc->len, d->line, d->col, d->end_line, d->end_col)
             : range_of(NULL, 0, 1, 1, 1, 1));
    json_object_object_add(o, "severity",
                           json_object_new_int(d->severity == HON_ERROR     ? 1
                                               : d->severity == HON_WARNING ? 2
                                                                            : 3));
    if (d->code) {
        char code[8]; /* W001 is 1001 (hon.h) */
        snprintf(code, sizeof code, "%c%03d", d->code > 1000 ? 'W' : 'E', d->code % 1000);
        json_object_object_add(o, "code", json_object_new_string(code));
    }
    json_object_object_add(o, "source", json_object_new_string("hon"));
    if (here) {
        json_object_object_add(o, "message", json_object_new_string(d->message));
    } else {
        char *m = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&m, &n);
        if (f) {
            fprintf(f, "%s:%u: %s", d->path ? d->path : "?", d->line, d->message);
            fclose(f);
        }
        json_object_object_add(o, "message", json_object_new_string(m ? m : d->message));
        free(m);
    }
    json_object_array_add(srv->diags, o);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Checks d over a copy of the session's rules (a scenario, `.scn`, as the board of that copy;
 * any other file as a rule file, replacing the loaded file it stands for, then linted: the
 * warnings of `hon lint` about it, with the session's board loaded again over it), keeps the
 * program when it builds, and publishes what was reported. */
static void check_doc(server *srv, doc *d)
{
    srv->checking = d;
    srv->diags = json_object_new_array();
    hon_vm *vm = hon_vm_copy(srv->s->vm);
    bool scenario = ends_with(d->name, ".scn");
    hon_status st = !vm        ? HON_ERR_MEMORY
                    : scenario ? hon_load_board_source(vm, d->name, d->text, d->len)
                               : hon_load_source(vm, d->name, d->text, d->len);
    if (st == HON_OK && !scenario)
        hon_lint(vm, (const char *const *)&d->name, 1, NULL);
    /* a copy has no board: the session's (--board, initializationOptions) is loaded over the
     * rules as edited, for `$` and `@`; one the edit breaks is reported with the document's */
    const char *board = hon_board_path(srv->s->vm);
    if (st == HON_OK && !scenario && board)
        hon_load_board(vm, board);
    d->fresh = st == HON_OK;
    if (st == HON_OK) {
        hon_vm_free(d->vm);
        d->vm = vm;
        hon_vm_free(d->test_vm); /* a test's board was loaded over the program before */
        d->test_vm = NULL;
        free(d->test_board);
        d->test_board = NULL;
    } else {
        hon_vm_free(vm);
    }
    json_object *diags = srv->diags;
    srv->diags = NULL;
    srv->checking = NULL;
    publish(srv, d->uri, diags);
}

/* ---- requests ---- */

static const char *get_string(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

static json_object *get_object(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_object) ? v
                                                                                             : NULL;
}

/* Whether o is an LSP uinteger (0 .. 2^31 - 1), into *v. */
static bool get_uinteger(json_object *o, const char *key, unsigned *v)
{
    json_object *x;
    if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_int))
        return false;
    int64_t n = json_object_get_int64(x);
    if (n < 0 || n > INT32_MAX)
        return false;
    *v = (unsigned)n;
    return true;
}

/* The document and position of a textDocument/position request: NULL, or what is wrong with
 * params (the reply's -32602 message): a position's line and character are LSP uintegers
 * (0 .. 2^31 - 1), not strings, negatives or larger numbers. */
static const char *doc_position(const server *srv, json_object *params, doc **d, size_t *at)
{
    json_object *td = get_object(params, "textDocument"), *pos = get_object(params, "position");
    const char *uri = td ? get_string(td, "uri") : NULL;
    unsigned l, c;
    if (!pos || !get_uinteger(pos, "line", &l) || !get_uinteger(pos, "character", &c))
        return "position: line and character are integers from 0 to 2147483647";
    if (!uri || !(*d = find_doc(srv, uri)))
        return "no such open document";
    *at = byte_at((*d)->text, (*d)->len, l, c);
    return NULL;
}

/* Whether c may be part of a name (lsp_int.h). */
bool lsp_name_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* The name at byte `at` of text (a new string, NULL when there is none): with dotted, the
 * whole `a.b` around it (a rule's name), else the bare name. */
static char *word_at(const char *text, size_t len, size_t at, bool dotted)
{
    size_t b = at, e = at;
    while (b > 0 && (lsp_name_char(text[b - 1]) || (dotted && text[b - 1] == '.')))
        b--;
    while (e < len && (lsp_name_char(text[e]) || (dotted && text[e] == '.')))
        e++;
    return e > b ? strndup(text + b, e - b) : NULL;
}

/* A declaration found by name (hon_each_decl), its strings copied. */
typedef struct found {
    const char *want;
    bool rules; /* look for a rule's "query.rule" (else anything but a rule) */
    bool hit;
    hon_decl d;
} found;

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void match_decl(void *ud, const hon_decl *d)
{
    found *f = ud;
    if (f->hit || (d->kind == HON_DECL_RULE) != f->rules || strcmp(d->name, f->want) != 0)
        return;
    f->hit = true;
    f->d = *d;
    f->d.name = dup_or_null(d->name);
    f->d.within = dup_or_null(d->within);
    f->d.path = dup_or_null(d->path);
    f->d.doc = dup_or_null(d->doc);
    f->d.cites = dup_or_null(d->cites);
    f->d.signature = dup_or_null(d->signature);
    f->d.type = dup_or_null(d->type);
}

static void found_free(found *f)
{
    free((char *)f->d.name);
    free((char *)f->d.within);
    free((char *)f->d.path);
    free((char *)f->d.doc);
    free((char *)f->d.cites);
    free((char *)f->d.signature);
    free((char *)f->d.type);
}

/* The program a document's names are looked up in: its own when it built, else the session's. */
const hon_vm *lsp_vm_of(const server *srv, const doc *d)
{
    return d && d->vm ? d->vm : srv->s->vm;
}

/* hon_ref_at's answer, its strings copied. */
static void take_ref(void *ud, const hon_decl *d)
{
    found *f = ud;
    f->want = d->name;
    f->rules = d->kind == HON_DECL_RULE;
    f->hit = false;
    match_decl(f, d);
}

/* Finds the declaration named at byte `at` of d: when d's program was built from its text as
 * it is, what the resolver read there (hon_ref_at: the member of the enum the context wants,
 * the field of the record before the dot, a local's binding); else, or where the resolver read
 * no name (a declaration's own name, a type), by name: a rule's `query.rule` there, else the
 * bare name. False when nothing is declared with that name. */
static bool decl_at(const server *srv, const doc *d, size_t at, found *f)
{
    if (d->fresh && d->vm) {
        size_t b = at;
        unsigned line = 1;
        while (b > 0 && d->text[b - 1] != '\n')
            b--;
        for (size_t i = 0; i < b; i++)
            line += d->text[i] == '\n';
        *f = (found){ 0 };
        if (hon_ref_at(d->vm, d->name, line, (unsigned)(at - b) + 1, take_ref, f) == HON_OK &&
            f->hit) {
            f->want = NULL;
            return true;
        }
        /* the cursor just after a name (as editors put it): the name's last character */
        if (at > b && lsp_name_char(d->text[at - 1]) &&
            (at == d->len || !lsp_name_char(d->text[at])) &&
            hon_ref_at(d->vm, d->name, line, (unsigned)(at - b), take_ref, f) == HON_OK && f->hit) {
            f->want = NULL;
            return true;
        }
    }
    for (int dotted = 1; dotted >= 0; dotted--) {
        char *w = word_at(d->text, d->len, at, dotted);
        *f = (found){ .want = w, .rules = dotted };
        if (w && (!dotted || strchr(w, '.')))
            hon_each_decl(lsp_vm_of(srv, d), match_decl, f);
        free(w);
        f->want = NULL;
        if (f->hit)
            return true;
    }
    return false;
}

static const char *const kind_names[] = {
    [HON_DECL_QUERY] = "query",     [HON_DECL_EVENT] = "event",   [HON_DECL_RULE] = "rule",
    [HON_DECL_FN] = "fn",           [HON_DECL_TABLE] = "table",   [HON_DECL_ENUM] = "enum",
    [HON_DECL_MEMBER] = "member",   [HON_DECL_RECORD] = "record", [HON_DECL_VARIANT] = "variant",
    [HON_DECL_EDITION] = "edition", [HON_DECL_VALUE] = "value",   [HON_DECL_COUNTER] = "counter",
    [HON_DECL_FIELD] = "field",     [HON_DECL_LOCAL] = "local",
};

/* ---- citation IDs ---- */

/* The citation ID under byte `at` of text (a new string, NULL when there is none): the string
 * the cursor is in (its quotes included), when it follows the keyword `cite` or `source`. */
static char *cite_at(const char *text, size_t len, size_t at)
{
    size_t i = at, open = 0;
    bool in = false;
    while (i > 0 && text[i - 1] != '\n')
        i--;
    for (; i < len && text[i] != '\n' && (in || text[i] != '#'); i++) {
        if (!in) {
            if ((in = text[i] == '"'))
                open = i;
        } else if (text[i] == '\\') {
            i++;
        } else if (text[i] == '"') {
            in = false;
            if (open <= at && at <= i) {
                size_t e = open, b;
                while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '\t'))
                    e--;
                for (b = e; b > 0 && lsp_name_char(text[b - 1]); b--)
                    ;
                bool keyword = (e - b == 4 && strncmp(text + b, "cite", 4) == 0) ||
                               (e - b == 6 && strncmp(text + b, "source", 6) == 0);
                return keyword && i > open + 1 ? strndup(text + open + 1, i - open - 1) : NULL;
            }
        }
    }
    return NULL;
}

/* A citation ID's `source` declaration (hon_each_citation), its strings copied. */
typedef struct source_of {
    const char *id;
    char *text, *path;
    unsigned line;
} source_of;

static void match_source(void *ud, const hon_citation *c)
{
    source_of *s = ud;
    if (!s->path && c->path && strcmp(c->id, s->id) == 0) {
        s->text = dup_or_null(c->source);
        s->path = strdup(c->path);
        s->line = c->line;
    }
}

/* Whether hon_rule_info's cites ("ID (source); ID2 (source)...") name id itself. */
static bool cites_id(const char *cites, const char *id)
{
    size_t k = strlen(id);
    for (const char *p = cites; p && *p; p = strstr(p, "; ") ? strstr(p, "; ") + 2 : NULL)
        if (strncmp(p, id, k) == 0 && strchr(" ,;", p[k]))
            return true;
    return false;
}

#define MAX_CITING 40 /* rules a hover on a citation lists */

/* The rules that cite an ID, written to a hover's Markdown as they are listed: the active
 * edition's (names kept in `seen`), then those it leaves out (their module not used). */
typedef struct citing {
    const char *id;
    FILE *out;
    size_t n;
    const char *edition; /* the active edition's name, or NULL */
    char **seen;
    size_t nseen, cap;
} citing;

static void add_citing(void *ud, const hon_rule_info *r)
{
    citing *c = ud;
    if (!r->cites || !cites_id(r->cites, c->id))
        return;
    if (c->nseen == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        char **more = realloc(c->seen, cap * sizeof *more);
        if (more) {
            c->seen = more;
            c->cap = cap;
        }
    }
    if (c->nseen < c->cap && (c->seen[c->nseen] = strdup(r->name)) != NULL)
        c->nseen++;
    if (c->n++ < MAX_CITING)
        fprintf(c->out, "- `%s` %s:%u\n", r->name, r->path, r->line);
}

/* A rule the active edition leaves out that cites the ID (hon_each_decl): listed, marked. */
static void add_citing_outside(void *ud, const hon_decl *d)
{
    citing *c = ud;
    if (d->kind != HON_DECL_RULE || !d->cites || !cites_id(d->cites, c->id))
        return;
    for (size_t i = 0; i < c->nseen; i++)
        if (strcmp(c->seen[i], d->name) == 0)
            return;
    if (c->n++ < MAX_CITING)
        fprintf(c->out, "- `%s` %s:%u (not in edition %s: its module is not used)\n", d->name,
                d->path ? d->path : "?", d->line, c->edition ? c->edition : "?");
}

/* A hover's answer: Markdown text (borrowed; NULL: no answer). */
static json_object *markdown(const char *text)
{
    if (!text)
        return NULL;
    json_object *h = json_object_new_object(), *c = json_object_new_object();
    json_object_object_add(c, "kind", json_object_new_string("markdown"));
    json_object_object_add(c, "value", json_object_new_string(text));
    json_object_object_add(h, "contents", c);
    return h;
}

/* hover on a citation ID: the ID, its source text and where that is declared, then the rules
 * that cite it, the active edition's and then those it leaves out, marked (at most MAX_CITING
 * listed, with how many in all). */
static json_object *hover_cite(const server *srv, const doc *d, const char *id)
{
    const hon_vm *vm = lsp_vm_of(srv, d);
    source_of src = { .id = id };
    hon_each_citation(vm, match_source, &src);
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (m) {
        fprintf(m, "```hon\ncite \"%s\"\n```\n", id);
        if (src.path)
            fprintf(m, "\n%s\n\n%s:%u\n", src.text ? src.text : "", src.path, src.line);
        else
            fprintf(m, "\nno `source` declares this ID\n");
        citing c = { .id = id, .out = m, .edition = hon_edition(vm) };
        fprintf(m, "\ncited by:\n\n");
        hon_list_rules(vm, id, add_citing, &c);
        hon_each_decl(vm, add_citing_outside, &c);
        for (size_t i = 0; i < c.nseen; i++)
            free(c.seen[i]);
        free(c.seen);
        if (c.n > MAX_CITING)
            fprintf(m, "- and %zu more\n", c.n - MAX_CITING);
        if (c.n == 0)
            fprintf(m, "- no rule\n");
        fclose(m);
    }
    json_object *h = markdown(text);
    free(text);
    free(src.text);
    free(src.path);
    return h;
}

/* The text of the file at path (new string): the open document's when it is open, else the
 * file read from disk; NULL when it cannot be read. */
static char *text_of(const server *srv, const char *path)
{
    for (const doc *o = srv->docs; o; o = o->next)
        if (strcmp(o->name, path) == 0)
            return strdup(o->text);
    /* read as every file a user names (hon_read_file): a FIFO or a device is refused, never
       waited on or read forever */
    char *file;
    size_t n;
    if (hon_read_file(path, LSP_MAX_FILE, &file, &n, NULL) != HON_OK)
        return NULL;
    char *text = strdup(file); /* the caller frees it with free() */
    hon_text_free(file);
    return text;
}

/* The `#` comment lines right above line `line` (from 1) of the file at path, without their
 * `#` and the space after it, written to out as one paragraph: the doc of a declaration the
 * language gives no doc string (a fn, a table, a record...). A line of dashes (a section's
 * banner) or a blank line ends them. Nothing when there are none. */
static void comment_above(const server *srv, const char *path, unsigned line, FILE *out)
{
    char *text = path && line > 1 ? text_of(srv, path) : NULL;
    if (!text)
        return;
    size_t len = strlen(text), decl = line_start(text, len, line - 1), first = decl;
    while (first > 0) { /* first: the start of the line above, while it is a comment */
        size_t b = first - 1;
        while (b > 0 && text[b - 1] != '\n')
            b--;
        size_t q = b;
        while (text[q] == ' ' || text[q] == '\t')
            q++;
        if (text[q] != '#' || strncmp(text + q + 1, "---", 3) == 0 ||
            strncmp(text + q + 1, " ---", 4) == 0)
            break;
        first = b;
    }
    if (first < decl)
        fputc('\n', out);
    for (size_t q = first; q < decl;) {
        size_t end = q;
        while (end < decl && text[end] != '\n')
            end++;
        while (text[q] == ' ' || text[q] == '\t')
            q++;
        q += text[q + 1] == ' ' ? 2 : 1; /* the # and a space after it */
        fprintf(out, "%.*s%s", (int)(end - q), text + q, end + 1 < decl ? " " : "\n");
        q = end + 1;
    }
    free(text);
}

/* The enum (or variant, for a reading) called `name`: one of hon_each_decl's. */
typedef struct enum_of {
    const char *name;
    FILE *out;
    bool done;
} enum_of;

static void write_enum(void *ud, const hon_decl *d)
{
    enum_of *e = ud;
    if (e->done || (d->kind != HON_DECL_ENUM && d->kind != HON_DECL_VARIANT) ||
        strcmp(d->name, e->name) != 0)
        return;
    e->done = true;
    fprintf(e->out, "\n---\n\n```hon\n%s %s\n```\n", kind_names[d->kind], d->name);
    if (d->doc)
        fprintf(e->out, "\n%s\n", d->doc);
    fprintf(e->out, "\n%s:%u\n", d->path, d->line);
}

/* Below a member's hover, its enum: its kind, name, doc and place (a built-in enum, such as
 * terrain or marker, has none: its name alone). */
static void hover_enum(const server *srv, const doc *d, const char *name, FILE *out)
{
    enum_of e = { name, out, false };
    hon_each_decl(lsp_vm_of(srv, d), write_enum, &e);
    if (!e.done)
        fprintf(out, "\n---\n\na member of the built-in enum `%s`\n", name);
}

/* Whether a place (line, column) read from a program in the file at `path` (NULL: a built-in)
 * may point into another text than the open document of that name holds: true when that
 * document's last build is older than its text (its text did not build; the places are those
 * of the text that last built, or of the file on disk). lsp.md, Documents. */
static bool stale_place(const server *srv, const char *path)
{
    for (const doc *o = srv->docs; path && o; o = o->next)
        if (strcmp(o->name, path) == 0)
            return !o->fresh;
    return false;
}

/* hover: on a citation ID, hover_cite; else the declaration's kind, name and signature, its
 * doc, its citations and its place. */
static json_object *hover(const server *srv, const doc *d, size_t at)
{
    char *id = cite_at(d->text, d->len, at);
    if (id) {
        json_object *h = hover_cite(srv, d, id);
        free(id);
        return h;
    }
    found f;
    if (!decl_at(srv, d, at, &f))
        return NULL;
    if (stale_place(srv, f.d.path)) { /* its place, doc and signature may be an older text's */
        found_free(&f);
        return NULL;
    }
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (m) {
        if (f.d.kind == HON_DECL_FIELD || f.d.kind == HON_DECL_LOCAL || f.d.kind == HON_DECL_VALUE)
            fprintf(m, "```hon\n%s%s: %s\n```\n", f.d.kind == HON_DECL_VALUE ? "value " : "",
                    f.d.name, f.d.type ? f.d.type : "?");
        else
            fprintf(m, "```hon\n%s %s%s\n```\n",
                    f.d.kind == HON_DECL_MEMBER ? f.d.within : kind_names[f.d.kind], f.d.name,
                    f.d.signature && f.d.kind != HON_DECL_RULE ? f.d.signature : "");
        if (f.d.kind == HON_DECL_FIELD)
            fprintf(m, "\na field of %s record `%s`\n", f.d.path ? "the" : "the built-in",
                    f.d.within);
        else if (f.d.kind == HON_DECL_LOCAL)
            fprintf(m, "\na name bound in `%s`\n", f.d.within ? f.d.within : "?");
        else if (f.d.kind == HON_DECL_RULE)
            fprintf(m, "\na rule of `query %s%s`\n", f.d.within,
                    f.d.signature ? f.d.signature : "");
        if (f.d.doc)
            fprintf(m, "\n%s\n", f.d.doc);
        else if (f.d.kind != HON_DECL_LOCAL && f.d.kind != HON_DECL_MEMBER)
            comment_above(srv, f.d.path, f.d.line, m);
        if (f.d.cites)
            fprintf(m, "\ncites: %s\n", f.d.cites);
        if (f.d.path)
            fprintf(m, "\n%s:%u\n", f.d.path, f.d.line);
        if (f.d.kind == HON_DECL_MEMBER)
            hover_enum(srv, d, f.d.within, m);
        fclose(m);
    }
    json_object *h = markdown(text);
    free(text);
    found_free(&f);
    return h;
}

/* The LSP location of a declaration: its file's URI (the document's own when it is open) and
 * its name's range. */
static json_object *location(const server *srv, const hon_decl *d)
{
    const doc *open = NULL;
    for (const doc *o = srv->docs; o && !open; o = o->next)
        if (strcmp(o->name, d->path) == 0)
            open = o;
    char *uri = open ? strdup(open->uri) : uri_of_path(d->path);
    json_object *loc = json_object_new_object();
    json_object_object_add(loc, "uri", json_object_new_string(uri ? uri : d->path));
    json_object_object_add(loc, "range",
                           range_of(open ? open->text : NULL, open ? open->len : 0, d->line, d->col,
                                    d->end_line, d->end_col));
    free(uri);
    return loc;
}

/* The place of citation ID `id` in the rules inventory at `path`: the ID in its table row
 * (cli_inventory_row), or NULL when the file cannot be read or lists no such ID. */
static json_object *inventory_row(const char *path, const char *id)
{
    char *text;
    size_t len, k = strlen(id);
    if (hon_read_file(path, LSP_MAX_FILE, &text, &len, NULL) != HON_OK)
        return NULL;
    unsigned no = 0;
    json_object *loc = NULL;
    for (const char *line = text; !loc && line < text + len;) {
        const char *nl = memchr(line, '\n', (size_t)(text + len - line));
        no++;
        /* cli_inventory_row stops at the line's end: '\n' is no ID byte */
        if (cli_inventory_row(line) == k && strncmp(line + 2, id, k) == 0) {
            char *uri = uri_of_path(path);
            loc = json_object_new_object();
            json_object_object_add(loc, "uri", json_object_new_string(uri ? uri : path));
            json_object_object_add(loc, "range", range_of(NULL, 0, no, 3, no, 2 + (unsigned)k));
            free(uri);
        }
        line = nl ? nl + 1 : text + len;
    }
    hon_text_free(text);
    return loc;
}

/* Takes `path` (NULL: none) as the server's rules inventory; one that cannot be read (read as
 * inventory_row reads it: a FIFO or a device such as /dev/zero is refused, not read) is said
 * on standard error (the protocol leaves it alone), and kept: it may appear later. */
static void set_inventory(server *srv, const char *path)
{
    free(srv->inventory);
    srv->inventory = path ? strdup(path) : NULL;
    char *text = NULL;
    size_t len;
    const char *why = NULL;
    if (path && hon_read_file(path, LSP_MAX_FILE, &text, &len, &why) != HON_OK)
        cli_error_code(CLI_E_READ, "cannot read the inventory '%s': %s", path, why);
    hon_text_free(text);
}

/* Loads the scenario at `path` as the session's board (initializationOptions.board, as
 * --board: a relative path from the server's working directory or the bundled boards), which
 * the documents checked after it are loaded over; a board that does not load is said on
 * standard error with its diagnostics (the protocol leaves it alone), and the board the
 * session had (--board, or none) stays. */
static void set_board(server *srv, const char *path)
{
    void (*keep)(void *, const hon_diag *) = srv->s->on_diag;
    srv->s->on_diag = NULL; /* printed as the command line prints them: standard error */
    cli_board(srv->s, path);
    srv->s->on_diag = keep;
}

/* definition: of a citation ID, its row in the rules inventory when the server knows one that
 * lists it, else its `source` declaration (the start of its line); else of the declaration
 * named there. */
static json_object *definition(const server *srv, const doc *d, size_t at)
{
    char *id = cite_at(d->text, d->len, at);
    json_object *row = id && srv->inventory ? inventory_row(srv->inventory, id) : NULL;
    if (row) {
        free(id);
        return row;
    }
    if (id) {
        source_of src = { .id = id };
        hon_each_citation(lsp_vm_of(srv, d), match_source, &src);
        hon_decl decl = { .path = src.path, .line = src.line, .col = 1, .end_line = src.line };
        json_object *loc = src.path && !stale_place(srv, src.path) ? location(srv, &decl) : NULL;
        free(src.text);
        free(src.path);
        free(id);
        return loc;
    }
    found f;
    if (!decl_at(srv, d, at, &f))
        return NULL;
    /* a built-in has no place; one in a document whose text did not build, no sure one */
    json_object *loc = f.d.path && !stale_place(srv, f.d.path) ? location(srv, &f.d) : NULL;
    found_free(&f);
    return loc;
}

/* LSP's SymbolKind of each kind of declaration. */
static const int symbol_kinds[] = {
    [HON_DECL_QUERY] = 12,   [HON_DECL_EVENT] = 24,  [HON_DECL_RULE] = 6,    [HON_DECL_FN] = 12,
    [HON_DECL_TABLE] = 23,   [HON_DECL_ENUM] = 10,   [HON_DECL_MEMBER] = 22, [HON_DECL_RECORD] = 23,
    [HON_DECL_VARIANT] = 14, [HON_DECL_EDITION] = 2, [HON_DECL_VALUE] = 7,   [HON_DECL_COUNTER] = 5,
    [HON_DECL_FIELD] = 8,    [HON_DECL_LOCAL] = 13,
};

/* The document symbols gathered: the declarations of one file. */
typedef struct symbols {
    const doc *d;
    json_object *list;
} symbols;

static void add_symbol(void *ud, const hon_decl *d)
{
    symbols *s = ud;
    if (!d->path || strcmp(d->path, s->d->name) != 0)
        return;
    json_object *sym = json_object_new_object();
    json_object_object_add(sym, "name", json_object_new_string(d->name));
    json_object_object_add(sym, "kind", json_object_new_int(symbol_kinds[d->kind]));
    if (d->within)
        json_object_object_add(sym, "detail", json_object_new_string(d->within));
    json_object *r = range_of(s->d->text, s->d->len, d->line, d->col, d->end_line, d->end_col);
    json_object_object_add(sym, "range", r);
    json_object_object_add(sym, "selectionRange", json_object_get(r));
    json_object_array_add(s->list, sym);
}

/* LSP's SymbolKind of a scenario's directive: its title a String, a citation a Key, the
 * topology and size Properties, a legend entry an EnumMember, the map and elevation grids
 * Arrays, an element an Object, a side, interspace, square or mine_counter line a Field, a
 * unit a Variable, a colour a Constant. */
static int scn_symbol_kind(const char *directive)
{
    static const struct {
        const char *directive;
        int kind;
    } kinds[] = { { "scenario", 15 },  { "cite", 20 },    { "topology", 7 },
                  { "size", 7 },       { "legend", 22 },  { "map", 18 },
                  { "elevation", 18 }, { "element", 19 }, { "side", 8 },
                  { "interspace", 8 }, { "square", 8 },   { "mine_counter", 8 },
                  { "unit", 13 },      { "colour", 14 } };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(kinds[i].directive, directive) == 0)
            return kinds[i].kind;
    return 8;
}

/* One directive of a scenario document: its range the directive (from its line's start to
 * its last field, a grid's last row), its selectionRange its name; the detail says which
 * directive it is, with a unit's or element's line after its `=`. */
static void add_scn_symbol(void *ud, const hon_scn_symbol *h)
{
    symbols *s = ud;
    json_object *sym = json_object_new_object();
    json_object_object_add(sym, "name", json_object_new_string(h->name));
    json_object_object_add(sym, "kind", json_object_new_int(scn_symbol_kind(h->directive)));
    char *detail = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&detail, &n);
    if (m) {
        fprintf(m, "%s%s%s", h->directive, h->detail ? " " : "", h->detail ? h->detail : "");
        fclose(m);
    }
    json_object_object_add(sym, "detail", json_object_new_string(detail ? detail : h->directive));
    free(detail);
    json_object_object_add(sym, "range",
                           range_of(s->d->text, s->d->len, h->line, 1, h->last_line, h->last_col));
    json_object_object_add(sym, "selectionRange",
                           range_of(s->d->text, s->d->len, h->line, h->col, h->line, h->end_col));
    json_object_array_add(s->list, sym);
}

/* documentSymbol: a scenario's directives (hon_each_scenario_symbol: read from its text as it
 * is, whether or not it builds), a rule file's declarations (of the program it last built). */
static json_object *document_symbols(const server *srv, const doc *d)
{
    symbols s = { d, json_object_new_array() };
    if (ends_with(d->name, ".scn"))
        hon_each_scenario_symbol(d->text, d->len, add_scn_symbol, &s);
    else
        hon_each_decl(lsp_vm_of(srv, d), add_symbol, &s);
    return s.list;
}

/* The answer to textDocument/formatting (lsp.md): d's text laid out as `hon fmt` lays out a
 * file (hon_format; the client's tab and space options do not apply: the layout is hon's), as
 * one TextEdit replacing the whole text, or no edit when it is laid out already; NULL (JSON
 * null: nothing to do) when the text does not parse, its diagnostics saying why. */
static json_object *formatting(const server *srv, const doc *d)
{
    char *laid = NULL;
    size_t n = 0;
    if (hon_format(srv->s->vm, d->name, d->text, d->len, &laid, &n) != HON_OK)
        return NULL;
    json_object *edits = json_object_new_array();
    if (n != d->len || memcmp(laid, d->text, n) != 0) {
        unsigned last = 0;
        size_t from = 0;
        for (size_t i = 0; i < d->len; i++)
            if (d->text[i] == '\n') {
                last++;
                from = i + 1;
            }
        json_object *edit = json_object_new_object(), *range = json_object_new_object();
        json_object_object_add(range, "start", position(0, 0));
        json_object_object_add(range, "end",
                               position(last, utf16_col(d->text, d->len, last, d->len - from)));
        json_object_object_add(edit, "range", range);
        json_object_object_add(edit, "newText", json_object_new_string_len(laid, (int)n));
        json_object_array_add(edits, edit);
    }
    hon_text_free(laid);
    return edits;
}

static json_object *capabilities(void)
{
    json_object *caps = json_object_new_object(), *trig = json_object_new_array();
    json_object *comp = json_object_new_object(), *init = json_object_new_object();
    json_object *info = json_object_new_object();
    json_object_object_add(caps, "textDocumentSync", json_object_new_int(1)); /* whole texts */
    json_object_object_add(caps, "hoverProvider", json_object_new_boolean(1));
    json_object_object_add(caps, "definitionProvider", json_object_new_boolean(1));
    json_object_object_add(caps, "documentSymbolProvider", json_object_new_boolean(1));
    json_object_object_add(caps, "documentFormattingProvider", json_object_new_boolean(1));
    json_object_array_add(trig, json_object_new_string("$"));
    json_object_array_add(trig, json_object_new_string("@"));
    json_object_array_add(trig, json_object_new_string(".")); /* after NAME.: its rules, members */
    json_object_object_add(comp, "triggerCharacters", trig);
    json_object_object_add(caps, "completionProvider", comp);
    json_object_object_add(info, "name", json_object_new_string("hon"));
    json_object_object_add(info, "version", json_object_new_string(hon_version()));
    json_object_object_add(init, "capabilities", caps);
    json_object_object_add(init, "serverInfo", info);
    return init;
}

/* ---- notifications about documents ---- */

/* Makes the JSON string t (which may hold NUL characters: its length counts them) d's text;
 * d keeps its text when memory runs out. */
static void set_text(doc *d, json_object *t)
{
    size_t len = (size_t)json_object_get_string_len(t);
    char *copy = malloc(len + 1);
    if (!copy)
        return;
    memcpy(copy, json_object_get_string(t), len);
    copy[len] = '\0';
    free(d->text);
    d->text = copy;
    d->len = len;
}

static void did_open(server *srv, json_object *params)
{
    json_object *td = get_object(params, "textDocument");
    const char *uri = td ? get_string(td, "uri") : NULL, *text = td ? get_string(td, "text") : NULL;
    if (!uri || !text)
        return;
    doc *d = find_doc(srv, uri);
    if (!d) {
        if (!(d = calloc(1, sizeof *d)))
            return;
        d->uri = strdup(uri);
        d->name = doc_name(srv, uri);
        d->text = calloc(1, 1); /* empty until set_text */
        if (!d->uri || !d->name || !d->text) {
            doc_free(d);
            return;
        }
        d->next = srv->docs;
        srv->docs = d;
    }
    set_text(d, json_object_object_get(td, "text"));
    check_doc(srv, d);
}

/* didChange with whole texts (textDocumentSync 1): the last change's text is the document. */
static void did_change(server *srv, json_object *params)
{
    json_object *td = get_object(params, "textDocument"), *changes, *last;
    const char *uri = td ? get_string(td, "uri") : NULL;
    doc *d = uri ? find_doc(srv, uri) : NULL;
    if (!d || !json_object_object_get_ex(params, "contentChanges", &changes) ||
        !json_object_is_type(changes, json_type_array) || !json_object_array_length(changes))
        return;
    last = json_object_array_get_idx(changes, json_object_array_length(changes) - 1);
    json_object *t;
    if (!json_object_object_get_ex(last, "text", &t) || !json_object_is_type(t, json_type_string))
        return;
    set_text(d, t);
    check_doc(srv, d);
}

static void did_close(server *srv, json_object *params)
{
    json_object *td = get_object(params, "textDocument");
    const char *uri = td ? get_string(td, "uri") : NULL;
    for (doc **p = &srv->docs; uri && *p; p = &(*p)->next) {
        if (strcmp((*p)->uri, uri) == 0) {
            doc *d = *p;
            *p = d->next;
            publish(srv, uri, json_object_new_array());
            doc_free(d);
            return;
        }
    }
}

/* ---- dispatch ---- */

/* Answers one message. Returns -1 to go on, else the exit status (`exit`). */
static int handle(server *srv, json_object *msg)
{
    json_object *id = NULL, *params = NULL;
    const char *method =
        json_object_is_type(msg, json_type_object) ? get_string(msg, "method") : NULL;
    bool request =
        json_object_is_type(msg, json_type_object) && json_object_object_get_ex(msg, "id", &id);
    if (request && !json_object_is_type(id, json_type_null) &&
        !json_object_is_type(id, json_type_string) && !json_object_is_type(id, json_type_int) &&
        !json_object_is_type(id, json_type_double)) {
        /* JSON-RPC 2.0 §4: an id is a string, a number or null; the reply's id is then null */
        reply_error(srv, NULL, RPC_INVALID_REQUEST, "the id must be a string, a number or null");
        return -1;
    }
    if (!method) {
        if (request || !json_object_is_type(msg, json_type_object) ||
            !json_object_object_get_ex(msg, "result", NULL))
            reply_error(srv, id, RPC_INVALID_REQUEST, "not a JSON-RPC request");
        return -1; /* a response to a request of ours: we make none */
    }
    json_object_object_get_ex(msg, "params", &params);
    if (strcmp(method, "exit") == 0)
        return srv->shutdown ? 0 : 1;
    if (strcmp(method, "initialize") == 0) {
        json_object *opts = get_object(params, "initializationOptions");
        const char *inv = opts ? get_string(opts, "inventory") : NULL;
        const char *board = opts ? get_string(opts, "board") : NULL;
        if (inv)
            set_inventory(srv, inv);
        if (board)
            set_board(srv, board);
        srv->initialized = true;
        reply(srv, id, capabilities());
        return -1;
    }
    if (!srv->initialized) {
        if (request)
            reply_error(srv, id, LSP_NOT_INITIALIZED, "initialize first");
        return -1;
    }
    if (strcmp(method, "shutdown") == 0) {
        srv->shutdown = true;
        reply(srv, id, NULL);
    } else if (strcmp(method, "textDocument/didOpen") == 0) {
        did_open(srv, params);
    } else if (strcmp(method, "textDocument/didChange") == 0) {
        did_change(srv, params);
    } else if (strcmp(method, "textDocument/didClose") == 0) {
        did_close(srv, params);
    } else if (strcmp(method, "textDocument/documentSymbol") == 0 ||
               strcmp(method, "textDocument/formatting") == 0) {
        json_object *td = get_object(params, "textDocument");
        const char *uri = td ? get_string(td, "uri") : NULL;
        doc *d = uri ? find_doc(srv, uri) : NULL;
        if (!d)
            reply_error(srv, id, RPC_INVALID_PARAMS, "no such open document");
        else if (method[13] == 'f')
            reply(srv, id, formatting(srv, d));
        else
            reply(srv, id, document_symbols(srv, d));
    } else if (strcmp(method, "textDocument/hover") == 0 ||
               strcmp(method, "textDocument/definition") == 0 ||
               strcmp(method, "textDocument/completion") == 0) {
        doc *d;
        size_t at;
        const char *wrong = doc_position(srv, params, &d, &at);
        if (wrong)
            reply_error(srv, id, RPC_INVALID_PARAMS, wrong);
        else if (method[13] == 'h')
            reply(srv, id, hover(srv, d, at));
        else if (method[13] == 'd')
            reply(srv, id, definition(srv, d, at));
        else
            reply(srv, id, lsp_completion(srv, d, at));
    } else if (request) {
        reply_error(srv, id, RPC_METHOD_NOT_FOUND, "method not found");
    } /* other notifications ($/cancelRequest, initialized...) need nothing */
    return -1;
}

/* Whether [p, end) is white space alone (what may follow a message's JSON value). */
static bool blank(const char *p, const char *end)
{
    for (; p < end; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            return false;
    return true;
}

int lsp_run(cli_session *s, const char *inventory, FILE *in, FILE *out)
{
    server srv = { .s = s, .out = out };
    set_inventory(&srv, inventory);
    s->on_diag = on_diag;
    s->on_diag_ud = &srv;
    int rc = -1;
    char *body;
    size_t len, want;
    bool truncated = false;
    while (rc < 0 && (body = read_message(in, &len, &want, &truncated)) != NULL) {
        if (truncated) { /* never parsed: a prefix of a message may be valid JSON */
            char why[96];
            snprintf(why, sizeof why, "the input ended %zu bytes into a body of %zu", len, want);
            reply_error(&srv, NULL, RPC_PARSE_ERROR, why);
            free(body);
            break;
        }
        json_tokener *tok = json_tokener_new();
        json_object *msg = tok && len ? json_tokener_parse_ex(tok, body, (int)len) : NULL;
        if (!tok || !len || json_tokener_get_error(tok) != json_tokener_success ||
            !blank(body + json_tokener_get_parse_end(tok), body + len))
            reply_error(&srv, NULL, RPC_PARSE_ERROR, "malformed JSON or message framing");
        else
            rc = handle(&srv, msg);
        json_object_put(msg);
        json_tokener_free(tok);
        free(body);
    }
    while (srv.docs) {
        doc *d = srv.docs;
        srv.docs = d->next;
        doc_free(d);
    }
    free(srv.inventory);
    s->on_diag = NULL;
    s->on_diag_ud = NULL;
    return rc < 0 ? 1 : rc;
}
