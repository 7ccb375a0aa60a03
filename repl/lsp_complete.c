/* lsp_complete.c — `hon lsp`'s completion (lsp_int.h, docs/spec/lsp.md): the names that start
 * with the word before the cursor, gathered from the document's program (declarations, built-in
 * functions, keywords) or, after `$` and `@`, from the board of the test the cursor is in,
 * ranked by kind, each once, capped. Over include/hon.h and json-c; lsp.c dispatches to it.
 */
#define _XOPEN_SOURCE 700 /* strdup, strndup */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_int.h"

#define MAX_COMPLETIONS 100 /* items of one completion answer */

/* LSP's CompletionItemKind of each kind of declaration. */
static const int completion_kinds[] = {
    [HON_DECL_QUERY] = 3,    [HON_DECL_EVENT] = 23,  [HON_DECL_RULE] = 2,    [HON_DECL_FN] = 3,
    [HON_DECL_TABLE] = 22,   [HON_DECL_ENUM] = 13,   [HON_DECL_MEMBER] = 20, [HON_DECL_RECORD] = 22,
    [HON_DECL_VARIANT] = 21, [HON_DECL_EDITION] = 9, [HON_DECL_VALUE] = 10,  [HON_DECL_COUNTER] = 7,
    [HON_DECL_FIELD] = 5,    [HON_DECL_LOCAL] = 6,
};
/* The completion items gathered, before they are ranked and capped: each name that starts with
 * the prefix, with its CompletionItemKind, detail and rank (0 first). `keywords_first`: the word
 * starts its line, where a declaration or a clause begins with a keyword. */
typedef struct offer_item {
    char *name, *detail;
    int kind, rank;
} offer_item;

typedef struct offers {
    const char *prefix;
    const char *query; /* after `QUERY.`: only that query's rules, by their own names */
    bool keywords_first;
    offer_item *items;
    size_t n, cap;
    bool oom;
} offers;

static void offer(offers *o, const char *name, int kind, int rank, const char *detail)
{
    if (o->oom || strncmp(name, o->prefix, strlen(o->prefix)) != 0)
        return;
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 64;
        offer_item *items = realloc(o->items, cap * sizeof *items);
        if (!items) {
            o->oom = true;
            return;
        }
        o->items = items;
        o->cap = cap;
    }
    offer_item *it = &o->items[o->n];
    *it = (offer_item){ strdup(name), detail ? strdup(detail) : NULL, kind, rank };
    if (!it->name || (detail && !it->detail)) {
        free(it->name);
        free(it->detail);
        o->oom = true;
        return;
    }
    o->n++;
}

/* The rank of a declaration's kind where an expression is typed: what is called or read
 * (queries, fns, values, counters, tables) first, then enum members (unit kinds, terrain,
 * markers...), then the other declarations. */
static int decl_rank(hon_decl_kind kind)
{
    switch (kind) {
    case HON_DECL_QUERY:
    case HON_DECL_FN:
    case HON_DECL_VALUE:
    case HON_DECL_COUNTER:
    case HON_DECL_TABLE: return 1;
    case HON_DECL_MEMBER: return 2;
    default: return 3;
    }
}

static void offer_decl(void *ud, const hon_decl *d)
{
    const offers *o = ud;
    size_t k = o->query ? strlen(o->query) : 0;
    if (o->query) { /* `QUERY.`: its rules, as `show` and `replace rule` name them */
        if (d->kind == HON_DECL_RULE && strncmp(d->name, o->query, k) == 0 && d->name[k] == '.')
            offer(ud, d->name + k + 1, completion_kinds[d->kind], 0, d->cites);
    } else if (d->kind != HON_DECL_RULE) /* a rule is never named in an expression */
        offer(ud, d->name, completion_kinds[d->kind], decl_rank(d->kind),
              d->signature ? d->signature : d->within);
}

static void offer_keyword(void *ud, const char *name)
{
    offers *o = ud;
    offer(o, name, 14, o->keywords_first ? 0 : 5, "keyword");
}

static void offer_builtin(void *ud, const char *name)
{
    offer(ud, name, 3, 4, "built-in");
}

static void offer_member(void *ud, const char *name)
{
    offer(ud, name, completion_kinds[HON_DECL_MEMBER], 0, "member");
}

static void offer_field(void *ud, const char *name)
{
    offer(ud, name, completion_kinds[HON_DECL_FIELD], 0, "field");
}

static void offer_unit(void *ud, const char *name)
{
    offer(ud, name, 6, 0, "unit");
}

static void offer_square(void *ud, const char *name)
{
    offer(ud, name, 21, 0, "square");
}

static int by_name_then_rank(const void *a, const void *b)
{
    const offer_item *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->rank - y->rank;
}

static int by_rank_then_name(const void *a, const void *b)
{
    const offer_item *x = a, *y = b;
    return x->rank != y->rank ? x->rank - y->rank : strcmp(x->name, y->name);
}

/* The CompletionList of o's items: each name once (at its best rank), ranked, at most
 * MAX_COMPLETIONS of them (isIncomplete when more matched, so that the editor asks again as
 * the word grows); sortText keeps the rank's order in the editor's list. */
static json_object *completion_list(offers *o)
{
    size_t n = 0;
    if (o->n) {
        qsort(o->items, o->n, sizeof *o->items, by_name_then_rank);
        for (size_t i = 0; i < o->n; i++) {
            if (n && strcmp(o->items[n - 1].name, o->items[i].name) == 0) {
                free(o->items[i].name);
                free(o->items[i].detail);
            } else {
                o->items[n++] = o->items[i];
            }
        }
        qsort(o->items, n, sizeof *o->items, by_rank_then_name);
    }
    json_object *list = json_object_new_object(), *items = json_object_new_array();
    json_object_object_add(list, "isIncomplete", json_object_new_boolean(n > MAX_COMPLETIONS));
    for (size_t i = 0; i < n; i++) {
        offer_item *it = &o->items[i];
        if (i < MAX_COMPLETIONS) {
            json_object *item = json_object_new_object();
            char *sort = malloc(strlen(it->name) + 2);
            json_object_object_add(item, "label", json_object_new_string(it->name));
            json_object_object_add(item, "kind", json_object_new_int(it->kind));
            if (it->detail)
                json_object_object_add(item, "detail", json_object_new_string(it->detail));
            if (sort) {
                sprintf(sort, "%d%s", it->rank, it->name);
                json_object_object_add(item, "sortText", json_object_new_string(sort));
                free(sort);
            }
            json_object_array_add(items, item);
        }
        free(it->name);
        free(it->detail);
    }
    json_object_object_add(list, "items", items);
    free(o->items);
    return list;
}

/* The board named by the test the byte `at` of text is in (`test "..." board "FILE" {`: a new
 * string, FILE as written), or NULL when it is in none or its test names no board. Read from
 * the text, not the program: while `$` or `@` is typed the document seldom builds. A test starts
 * with `test` at the start of a line and its settings run to its `{`; any other line starting at
 * column 0 (a declaration, the test's closing `}`) ends the search. */
static char *test_board_at(const char *text, size_t at)
{
    size_t b = at;
    for (;;) {
        while (b > 0 && text[b - 1] != '\n')
            b--;
        if (strncmp(text + b, "test", 4) == 0 && !lsp_name_char(text[b + 4]))
            break;
        if (text[b] != ' ' && text[b] != '\t' && text[b] != '\r' && text[b] != '\n' &&
            text[b] != '#' && text[b] != '\0')
            return NULL;
        if (b == 0)
            return NULL;
        b--;
    }
    const char *brace = memchr(text + b, '{', at - b);
    if (!brace)
        return NULL; /* the cursor is in the test's settings, not its body */
    for (const char *p = text + b; p + 5 < brace; p++) {
        if (*p == '"' || *p == '#') { /* a string (the title) or a comment: not a setting */
            const char *end = strchr(p + 1, *p == '"' ? '"' : '\n');
            if (!end || end >= brace)
                return NULL;
            p = end;
            continue;
        }
        if (strncmp(p, "board", 5) != 0 || lsp_name_char(p[5]) || lsp_name_char(p[-1]))
            continue;
        const char *q = p + 5;
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
            q++;
        const char *end =
            *q == '"' && q < brace ? memchr(q + 1, '"', (size_t)(brace - q - 1)) : NULL;
        return end ? strndup(q + 1, (size_t)(end - q - 1)) : NULL;
    }
    return NULL;
}

/* The program whose board `$` and `@` complete from at byte `at` of d: in a test that names a
 * board, a copy of d's program with that board loaded (the path taken from d's directory, as a
 * test's is; kept in d until the cursor is in a test naming another); else d's own (the
 * session's --board or initializationOptions board, if any). */
static const hon_vm *board_vm(const server *srv, doc *d, size_t at)
{
    char *written = test_board_at(d->text, at);
    char *path = NULL;
    if (written && written[0] == '/') {
        path = written;
        written = NULL;
    } else if (written) {
        char *file = lsp_path_of_uri(d->uri);
        char *slash = file ? strrchr(file, '/') : NULL;
        size_t dir = slash ? (size_t)(slash - file) + 1 : 0;
        path = malloc(dir + strlen(written) + 1);
        if (path) {
            memcpy(path, file, dir);
            strcpy(path + dir, written);
        }
        free(file);
    }
    free(written);
    if (!path)
        return lsp_vm_of(srv, d);
    if (!d->test_board || strcmp(d->test_board, path) != 0) {
        hon_vm_free(d->test_vm);
        free(d->test_board);
        d->test_board = path;
        d->test_vm = hon_vm_copy(lsp_vm_of(srv, d)); /* its diagnostics are dropped: no checking */
        if (d->test_vm && hon_load_board(d->test_vm, path) != HON_OK) {
            hon_vm_free(d->test_vm);
            d->test_vm = NULL;
        }
    } else {
        free(path);
    }
    return d->test_vm ? d->test_vm : lsp_vm_of(srv, d);
}

/* completion (lsp_int.h): the names starting with the word typed before the cursor — after `$` the
 * board's units, after `@` its squares (board_vm: the test's board, else the session's; a
 * square's letters in either case); after `NAME.` the rules of the query NAME (their own
 * names, as the REPL's `show NAME.<Tab>` gives them), the members of the enum NAME, and the
 * fields of a local NAME of a record type or a unit (cli_local_type, from the text); else
 * the names declared, the built-in functions and the keywords —, ranked by kind and capped
 * (completion_list). */
json_object *lsp_completion(const server *srv, doc *d, size_t at)
{
    size_t b = at, s;
    while (b > 0 && lsp_name_char(d->text[b - 1]))
        b--;
    for (s = b; s > 0 && (d->text[s - 1] == ' ' || d->text[s - 1] == '\t'); s--)
        ;
    char *prefix = strndup(d->text + b, at - b);
    offers o = { .prefix = prefix ? prefix : "",
                 .keywords_first = s == 0 || d->text[s - 1] == '\n' };
    char mark = b > 0 ? d->text[b - 1] : '\0';
    if (mark == '$' || mark == '@') {
        if (mark == '@' && prefix)
            for (char *p = prefix; *p; p++)
                *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
        hon_complete(board_vm(srv, d, at), mark == '$' ? HON_COMPLETE_UNIT : HON_COMPLETE_SQUARE,
                     NULL, o.prefix, mark == '$' ? offer_unit : offer_square, &o);
    } else if (mark == '.' && b >= 2 && lsp_name_char(d->text[b - 2])) {
        /* after `NAME.`: the rules of the query NAME, or the members of the enum NAME */
        size_t q = b - 1;
        while (q > 0 && lsp_name_char(d->text[q - 1]))
            q--;
        char *name = strndup(d->text + q, b - 1 - q);
        hon_vm *vm = d->vm ? d->vm : srv->s->vm; /* lsp_vm_of's, which hon_type_of may use */
        char type[256];
        o.query = name;
        if (name) {
            hon_each_decl(vm, offer_decl, &o);
            hon_complete(vm, HON_COMPLETE_MEMBER, name, o.prefix, offer_member, &o);
            /* a record-typed (or unit) local: its fields, read from the text as typed */
            if (cli_local_type(vm, d->text, b - 1, name, type, sizeof type))
                hon_complete(vm, HON_COMPLETE_FIELD, type, o.prefix, offer_field, &o);
        }
        free(name);
    } else {
        const hon_vm *vm = lsp_vm_of(srv, d);
        hon_each_decl(vm, offer_decl, &o);
        hon_complete(vm, HON_COMPLETE_BUILTIN, NULL, o.prefix, offer_builtin, &o);
        hon_complete(vm, HON_COMPLETE_KEYWORD, NULL, o.prefix, offer_keyword, &o);
    }
    free(prefix);
    return completion_list(&o);
}
