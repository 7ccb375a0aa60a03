/* ast.c — the AST's node and vector constructors, and the S-expression dump.
 *
 * Every node, vector and string of one ast_file lives in that file's arena (base/arena.h),
 * freed all at once by ast_file_free. Nothing in the tree is freed on its own (see ast.h).
 * The dump format is the one tests/dsl/test_parser.c pins. The names of the combination modes
 * come from their list, combine_modes.h.
 */
#include "ast.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "mem.h"

/* ---------------------------------------------------------------- files, nodes, vectors */

/* ast_file_new and ast_file_sized: room, when not 0, is the bytes (a sum of arena_room) that
 * the arena's first block holds beyond the path's and the text's copies. */
static ast_file *file_new(const char *path, const char *text, size_t len, uint32_t file_id,
                          size_t room)
{
    ast_file *f = mem_calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->arena = mem_calloc(1, sizeof *f->arena);
    size_t plen = path ? strlen(path) : 0, tlen = text ? len : 0;
    if (!f->arena ||
        (room && (room > SIZE_MAX / 4 || plen > SIZE_MAX / 4 || tlen > SIZE_MAX / 4 ||
                  !arena_reserve(f->arena, room + arena_room(plen + 1) + arena_room(tlen + 1))))) {
        mem_free(f->arena);
        mem_free(f);
        return NULL;
    }
    f->file_id = file_id;
    f->path = ast_strndup(f, path ? path : "", path ? strlen(path) : 0);
    f->text = ast_strndup(f, text ? text : "", text ? len : 0);
    f->text_len = text ? len : 0;
    if (!f->path || !f->text) {
        ast_file_free(f);
        return NULL;
    }
    return f;
}

ast_file *ast_file_new(const char *path, const char *text, size_t len, uint32_t file_id)
{
    return file_new(path, text, len, file_id, 0);
}

ast_file *ast_file_sized(const char *path, uint32_t file_id, size_t room)
{
    return file_new(path, NULL, 0, file_id, room);
}

void ast_file_free(ast_file *f)
{
    if (!f)
        return;
    if (f->arena)
        arena_free(f->arena);
    mem_free(f->arena);
    mem_free(f->image_owned);
    ast_file_free(f->reparsed);
    mem_free(f);
}

ast_node *ast_new(ast_file *f, ast_kind k, ast_loc loc)
{
    ast_node *n = arena_alloc(f->arena, sizeof *n);
    if (!n)
        return NULL;
    memset(n, 0, sizeof *n);
    n->kind = k;
    n->loc = loc;
    n->an.slot = -1;
    return n;
}

const char *ast_strndup(ast_file *f, const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *d = arena_alloc(f->arena, n + 1);
    if (!d)
        return NULL;
    if (n)
        memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

bool ast_vec_push(ast_file *f, ast_vec *v, ast_node *n)
{
    if (v->len == v->cap) {
        if (v->cap > UINT32_MAX / 2)
            return false;
        uint32_t cap = v->cap ? v->cap * 2 : 4;
        ast_node **items = arena_alloc(f->arena, (size_t)cap * sizeof *items);
        if (!items)
            return false;
        if (v->len)
            memcpy(items, v->items, v->len * sizeof *items);
        v->items = items; /* the old array stays in the arena until the file is freed */
        v->cap = cap;
    }
    v->items[v->len++] = n;
    return true;
}

ast_loc ast_loc_span(ast_loc a, ast_loc b)
{
    ast_loc r = a;
    r.end_line = b.end_line;
    r.end_col = b.end_col;
    return r;
}

/* ---------------------------------------------------------------- copies and comparisons */

static ast_node *clone_node(ast_file *f, const ast_node *n, bool cites);

/* Replaces *v by a copy of its items (cloned), in an array of exactly their number. */
static bool clone_vec(ast_file *f, ast_vec *v, bool cites)
{
    ast_vec from = *v;
    *v = (ast_vec){ 0 };
    if (!from.len)
        return true;
    v->items = arena_alloc(f->arena, (size_t)from.len * sizeof *v->items);
    if (!v->items)
        return false;
    v->cap = from.len;
    for (uint32_t i = 0; i < from.len; i++) {
        ast_node *c = clone_node(f, from.items[i], cites);
        if (!c && from.items[i])
            return false;
        v->items[v->len++] = c;
    }
    return true;
}

/* cites: the citations are copied too (else shared with n). */
static ast_node *clone_node(ast_file *f, const ast_node *n, bool cites)
{
    if (!n || n->body) /* a body left in its image belongs to n's file alone */
        return NULL;
    ast_node *c = arena_alloc(f->arena, sizeof *c);
    if (!c)
        return NULL;
    *c = *n;
    c->an = (ast_annot){ .slot = -1 };
    ast_node **kids[] = { &c->a, &c->b, &c->c };
    for (size_t i = 0; i < sizeof kids / sizeof *kids; i++)
        if (*kids[i] && !(*kids[i] = clone_node(f, *kids[i], cites)))
            return NULL;
    if (!clone_vec(f, &c->list, cites) || !clone_vec(f, &c->list2, cites) ||
        !clone_vec(f, &c->params, cites) || (cites && !clone_vec(f, &c->cites, cites)))
        return NULL;
    return c;
}

ast_node *ast_clone(ast_file *f, const ast_node *n)
{
    return clone_node(f, n, false); /* the citations are shared: not resolved per copy */
}

ast_node *ast_clone_all(ast_file *f, const ast_node *n)
{
    return clone_node(f, n, true);
}

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_vec(const ast_vec *a, const ast_vec *b)
{
    if (a->len != b->len)
        return false;
    for (uint32_t i = 0; i < a->len; i++)
        if (!ast_same(a->items[i], b->items[i]))
            return false;
    return true;
}

bool ast_same(const ast_node *a, const ast_node *b)
{
    if (!a || !b)
        return a == b;
    return a->kind == b->kind && a->op == b->op && a->ival == b->ival &&
           same_str(a->name, b->name) && same_str(a->name2, b->name2) && same_str(a->ref, b->ref) &&
           same_str(a->title, b->title) && ast_same(a->a, b->a) && ast_same(a->b, b->b) &&
           ast_same(a->c, b->c) && same_vec(&a->list, &b->list) && same_vec(&a->list2, &b->list2) &&
           same_vec(&a->params, &b->params);
}

/* ---------------------------------------------------------------- combination modes */

static const char *const combine_names[] = {
#define COMBINE(name, text, need, no_rule, doc) text,
#include "combine_modes.h"
};
#define NCOMBINE (sizeof combine_names / sizeof combine_names[0])

ast_op ast_combine_find(const char *name)
{
    for (size_t i = 0; name && i < NCOMBINE; i++)
        if (strcmp(name, combine_names[i]) == 0)
            return (ast_op)(AST_COMBINE_FIRST + i);
    return AST_OP_NONE;
}

const char *ast_combine_name(ast_op m)
{
    size_t i = (size_t)m - AST_COMBINE_FIRST;
    return m >= AST_COMBINE_FIRST && i < NCOMBINE ? combine_names[i] : NULL;
}

void ast_combine_names(char *buf, size_t cap)
{
    size_t at = 0;
    if (cap)
        buf[0] = '\0';
    for (size_t i = 0; i < NCOMBINE && at < cap; i++) {
        const char *sep = i == 0 ? "" : i + 1 < NCOMBINE ? ", " : " or ";
        int n = snprintf(buf + at, cap - at, "%s%s", sep, combine_names[i]);
        at += n > 0 ? (size_t)n : 0;
    }
}

/* ---------------------------------------------------------------- names */

static const char *const kind_names[AST_KIND_COUNT] = {
    [AST_TYPE_NAME] = "type-name",
    [AST_TYPE_SET] = "type-set",
    [AST_TYPE_LIST] = "type-list",
    [AST_INT] = "int",
    [AST_BOOL] = "bool",
    [AST_NAME] = "name",
    [AST_FIELD] = "field",
    [AST_CALL] = "call",
    [AST_INDEX] = "index",
    [AST_UNARY] = "unary",
    [AST_BINARY] = "binary",
    [AST_IF] = "if",
    [AST_LET] = "let",
    [AST_LIST] = "list",
    [AST_SET] = "set",
    [AST_RECORD] = "record",
    [AST_FIELD_INIT] = "field-init",
    [AST_AGG] = "aggregate",
    [AST_ROLL] = "roll",
    [AST_VARIANT_REF] = "variant-ref",
    [AST_FORBID] = "forbid",
    [AST_PERMIT] = "permit",
    [AST_NOT_GIVEN] = "not-given",
    [AST_VOCAB] = "vocab",
    [AST_VALUE_DECL] = "value",
    [AST_ENUM] = "enum",
    [AST_RECORD_DECL] = "record-decl",
    [AST_PARAM] = "param",
    [AST_COUNTER] = "counter",
    [AST_COUNTER_ITEM] = "counter-item",
    [AST_COUNTER_ENTRY] = "counter-entry",
    [AST_CITE] = "cite",
    [AST_TABLE] = "table",
    [AST_ROW] = "row",
    [AST_FN] = "fn",
    [AST_QUERY] = "query",
    [AST_RULE] = "rule",
    [AST_VARIANT] = "variant",
    [AST_READING] = "reading",
    [AST_EDITION] = "edition",
    [AST_REMOVE] = "remove",
    [AST_SET_VARIANT] = "set-variant",
    [AST_DEFAULT_EDITION] = "default-edition",
    [AST_TEST] = "test",
    [AST_EXPECT] = "expect",
    [AST_SQUARE] = "square",
    [AST_UNIT_REF] = "unit-ref",
    [AST_TEST_BOARD] = "test-board",
    [AST_EVENT] = "event",
    [AST_BLOCK] = "block",
    [AST_STMT] = "statement",
    [AST_TEST_DICE] = "test-dice",
    [AST_TEST_CHOICES] = "test-choices",
    [AST_TEST_DO] = "test-do",
    [AST_TEST_ADVANCE] = "test-advance",
    [AST_TEST_MOVE] = "test-move",
    [AST_SOURCE] = "source",
    [AST_MODULE] = "module",
    [AST_REVISE] = "revise",
    [AST_PREFER] = "prefer",
};

const char *ast_kind_name(ast_kind k)
{
    if ((unsigned)k >= AST_KIND_COUNT || !kind_names[k])
        return "?";
    return kind_names[k];
}

/* ---------------------------------------------------------------- dump
 *
 * The format, one S-expression per node:
 *   names, types, integers, true/false, forbid/permit, ? (not given): the bare token;
 *   (OP a b) for binary and unary operators (+ - * / % == != < <= > >= and or in not),
 *   (. base field), (call f args...), (index t keys...), (if c t e), (let x v body),
 *   (let x v) for a let with no body (a rule head's, a block's), (if c t) for an if statement
 *   with no else,
 *   (list ...), (set ...), (record R (field v)...), (sum x L body) (likewise count all any
 *   min max), (roll) / (roll n), (variant-ref v), (set-of T), (list-of T);
 *   declarations: (kind NAME [int] ["doc"]) (likewise side ability marker token),
 *   (value NAME ["doc"]), (enum NAME members...), (record-decl NAME (field T)...),
 *   (counter NAME ["title"] KIND (item value) (item (entry [n])...)...),
 *   (table NAME (keys (k T [floor])...) (result T) | (columns (c T)...) cites... rows...),
 *   (row (keys ...) (cells ...) cites...), (cite "ID" [source "S"] [example "E"]),
 *   (source "ID" ["text"]),
 *   (fn NAME (params (p T)...) T body), (query NAME (params ...) T MODE [(doc "D")] [(default e)]),
 *   (rule|replace-rule Q.R [(priority n)] cites... [(doc "D")] (let x v)... [(when e)] (answer e)),
 *   (variant NAME ["doc"] (reading R ["doc"] [default])...), (remove Q.R),
 *   (edition NAME [(extends P...)] [(uses M...)] ["title"] items...), (set-variant V R),
 *   (default-edition NAME), (module NAME ["title"]), (prefer E [KIND NAME]),
 *   (revise-rule Q.R cites... [(when e)] [(unless e)] [(answer e)]),
 *   (revise-table T (keys ...) [(column c)] (cells ...) cites...), (revise-fn NAME (params ...)
 *   T body), (revise-counter C (item value)...),
 *   (test "title" [(edition E)] (set-variant V R)... (expect e [fails Ennn] [(under E)])...).
 * A missing required child prints as `nil`.
 */

/* The dump writes like snprintf: it counts every byte and stores what fits. */
typedef struct writer {
    char *buf;
    size_t cap, len;
} writer;

static void put(writer *w, const char *s, size_t n)
{
    if (w->cap && w->len < w->cap - 1) {
        size_t room = w->cap - 1 - w->len;
        memcpy(w->buf + w->len, s, n < room ? n : room);
    }
    w->len += n;
}

static void puts_(writer *w, const char *s)
{
    put(w, s, strlen(s));
}

static void putf_int(writer *w, int64_t v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%" PRId64, v);
    put(w, tmp, (size_t)n);
}

/* A documentation string, quoted, with ", \ and newlines escaped. */
static void put_str(writer *w, const char *s)
{
    put(w, "\"", 1);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            put(w, "\\", 1);
        if (*s == '\n')
            put(w, "\\n", 2);
        else
            put(w, s, 1);
    }
    put(w, "\"", 1);
}

static void dump(writer *w, const ast_node *n, unsigned depth);

/* ` fails E201` for an expectation of a run-time error (code 201), nothing for code 0. */
static void put_fails(writer *w, int64_t code)
{
    if (code) {
        char tmp[32];
        int k = snprintf(tmp, sizeof tmp, " fails E%03" PRId64, code);
        put(w, tmp, (size_t)k);
    }
}

static void sp_dump(writer *w, const ast_node *n, unsigned depth)
{
    put(w, " ", 1);
    dump(w, n, depth);
}

static void sp_vec(writer *w, const ast_vec *v, unsigned depth)
{
    for (uint32_t i = 0; i < v->len; i++)
        sp_dump(w, v->items[i], depth);
}

/* "(head" ... ")" around a vector: `(keys a b)`. */
static void group(writer *w, const char *head, const ast_vec *v, unsigned depth)
{
    put(w, " (", 2);
    puts_(w, head);
    sp_vec(w, v, depth);
    put(w, ")", 1);
}

static void opt_str(writer *w, const char *head, const char *s)
{
    if (!s)
        return;
    put(w, " ", 1);
    if (head) {
        put(w, "(", 1);
        puts_(w, head);
        put(w, " ", 1);
    }
    put_str(w, s);
    if (head)
        put(w, ")", 1);
}

static const char *op_name(ast_op op)
{
    switch (op) {
    case AST_OP_ADD: return "+";
    case AST_OP_SUB: return "-";
    case AST_OP_MUL: return "*";
    case AST_OP_DIV: return "/";
    case AST_OP_MOD: return "%";
    case AST_OP_EQ: return "==";
    case AST_OP_NE: return "!=";
    case AST_OP_LT: return "<";
    case AST_OP_LE: return "<=";
    case AST_OP_GT: return ">";
    case AST_OP_GE: return ">=";
    case AST_OP_AND: return "and";
    case AST_OP_OR: return "or";
    case AST_OP_IN: return "in";
    case AST_OP_NEG: return "-";
    case AST_OP_NOT: return "not";
    case AST_AGG_SUM: return "sum";
    case AST_AGG_COUNT: return "count";
    case AST_AGG_ALL: return "all";
    case AST_AGG_ANY: return "any";
    case AST_AGG_MIN: return "min";
    case AST_AGG_MAX: return "max";
    case AST_VOCAB_KIND: return "kind";
    case AST_VOCAB_SIDE: return "side";
    case AST_VOCAB_ABILITY: return "ability";
    case AST_VOCAB_MARKER: return "marker";
    case AST_VOCAB_TOKEN: return "token";
    case AST_VOCAB_TERRAIN: return "terrain";
    case AST_VOCAB_SQUARE_FEATURE: return "square_feature";
    case AST_VOCAB_SIDE_FEATURE: return "side_feature";
    case AST_VOCAB_INTERSPACE_ITEM: return "interspace_item";
    case AST_VOCAB_PHASE: return "phase";
    case AST_VOCAB_FACE: return "face";
    case AST_AGG_FILTER: return "filter";
    case AST_OP_CONCAT: return "++";
    case AST_AGG_MAP: return "map";
    case AST_ST_GIVE: return "give";
    case AST_ST_TAKE: return "take";
    case AST_ST_FLIP: return "flip";
    case AST_ST_SET: return "set";
    case AST_ST_DESTROY: return "destroy";
    case AST_ST_MOVE: return "move";
    case AST_ST_EMBARK: return "embark";
    case AST_ST_DISEMBARK: return "disembark";
    case AST_ST_PLACE: return "place";
    case AST_ST_REMOVE: return "remove";
    case AST_ST_RAISE: return "raise";
    case AST_ST_LET: return "let";
    case AST_ST_CHOOSE: return "choose";
    case AST_ST_IF: return "if";
    case AST_ST_FOR: return "for";
    case AST_ST_NOTE: return "note";
    case AST_ST_FAIL: return "fail";
    case AST_ST_REQUIRE: return "require";
    case AST_ST_CITE: return "cite";
    default: return ast_combine_name(op) ? ast_combine_name(op) : "?";
    }
}

/* ` (HEAD e)` for an optional child e. */
static void opt_child(writer *w, const char *head, const ast_node *e, unsigned depth)
{
    if (!e)
        return;
    put(w, " (", 2);
    puts_(w, head);
    sp_dump(w, e, depth);
    put(w, ")", 1);
}

/* An edition's revision (AST_REVISE), without its closing parenthesis. */
static void dump_revise(writer *w, const ast_node *n, unsigned depth)
{
    static const char *const heads[] = { "(revise-rule ", "(revise-table ", "(revise-fn ",
                                         "(revise-counter " };
    size_t k = (size_t)n->op - AST_REV_RULE;
    puts_(w, k < 4 ? heads[k] : "(revise ");
    puts_(w, n->name ? n->name : "?");
    switch (n->op) {
    case AST_REV_RULE:
        sp_vec(w, &n->cites, depth);
        opt_child(w, "when", n->a, depth);
        opt_child(w, "unless", n->c, depth);
        opt_child(w, "answer", n->b, depth);
        break;
    case AST_REV_TABLE:
        group(w, "keys", &n->params, depth);
        if (n->name2) {
            puts_(w, " (column ");
            puts_(w, n->name2);
            put(w, ")", 1);
        }
        group(w, "cells", &n->list, depth);
        sp_vec(w, &n->cites, depth);
        break;
    case AST_REV_FN:
        group(w, "params", &n->params, depth);
        sp_dump(w, n->a, depth);
        sp_dump(w, n->b, depth);
        break;
    default: sp_vec(w, &n->list, depth); break;
    }
}

/* The dump recurses; trees from the parser are at most FRONT_MAX_DEPTH deep, and anything
 * deeper than this is elided rather than risking the C stack. */
enum {
    DUMP_MAX_DEPTH = 1000
};

static void dump(writer *w, const ast_node *n, unsigned depth)
{
    if (!n) {
        puts_(w, "nil");
        return;
    }
    if (depth > DUMP_MAX_DEPTH) {
        puts_(w, "...");
        return;
    }
    depth++;
    switch (n->kind) {
    case AST_TYPE_NAME:
    case AST_NAME: puts_(w, n->name ? n->name : "?"); return;
    case AST_TYPE_SET:
    case AST_TYPE_LIST:
        puts_(w, n->kind == AST_TYPE_SET ? "(set-of" : "(list-of");
        sp_dump(w, n->a, depth);
        break;
    case AST_INT: putf_int(w, n->ival); return;
    case AST_BOOL: puts_(w, n->ival ? "true" : "false"); return;
    case AST_FORBID:
    case AST_PERMIT: puts_(w, n->kind == AST_FORBID ? "forbid" : "permit"); return;
    case AST_NOT_GIVEN: puts_(w, "?"); return;
    case AST_FIELD:
        puts_(w, "(.");
        sp_dump(w, n->a, depth);
        put(w, " ", 1);
        puts_(w, n->name ? n->name : "?");
        break;
    case AST_CALL:
        puts_(w, "(call ");
        puts_(w, n->name ? n->name : "?");
        sp_vec(w, &n->list, depth);
        break;
    case AST_INDEX:
        puts_(w, "(index");
        sp_dump(w, n->a, depth);
        sp_vec(w, &n->list, depth);
        break;
    case AST_UNARY:
    case AST_BINARY:
        put(w, "(", 1);
        puts_(w, op_name(n->op));
        sp_dump(w, n->a, depth);
        if (n->kind == AST_BINARY)
            sp_dump(w, n->b, depth);
        break;
    case AST_IF:
        puts_(w, "(if");
        sp_dump(w, n->a, depth);
        sp_dump(w, n->b, depth);
        if (n->c || n->op != AST_ST_IF)
            sp_dump(w, n->c, depth);
        break;
    case AST_LET:
        puts_(w, "(let ");
        puts_(w, n->name ? n->name : "?");
        sp_dump(w, n->a, depth);
        if (n->b || n->op != AST_ST_LET)
            sp_dump(w, n->b, depth);
        break;
    case AST_LIST:
    case AST_SET:
        puts_(w, n->kind == AST_LIST ? "(list" : "(set");
        sp_vec(w, &n->list, depth);
        break;
    case AST_RECORD:
        puts_(w, "(record ");
        puts_(w, n->name ? n->name : "?");
        sp_vec(w, &n->list, depth);
        break;
    case AST_FIELD_INIT:
    case AST_COUNTER_ENTRY:
        put(w, "(", 1);
        puts_(w, n->name ? n->name : "?");
        if (n->a)
            sp_dump(w, n->a, depth);
        break;
    case AST_AGG:
        put(w, "(", 1);
        puts_(w, op_name(n->op));
        put(w, " ", 1);
        puts_(w, n->name ? n->name : "?");
        sp_dump(w, n->a, depth);
        sp_dump(w, n->b, depth);
        break;
    case AST_ROLL:
        puts_(w, "(roll");
        if (n->a)
            sp_dump(w, n->a, depth);
        break;
    case AST_VARIANT_REF:
        puts_(w, "(variant-ref ");
        puts_(w, n->name ? n->name : "?");
        break;
    case AST_SQUARE:
        put(w, "@", 1);
        puts_(w, n->name ? n->name : "?");
        return;
    case AST_UNIT_REF:
        put(w, "$", 1);
        puts_(w, n->name ? n->name : "?");
        return;
    case AST_TEST_BOARD:
        puts_(w, "(board ");
        put_str(w, n->name);
        break;
    case AST_VOCAB:
        put(w, "(", 1);
        puts_(w, op_name(n->op));
        put(w, " ", 1);
        puts_(w, n->name ? n->name : "?");
        if (n->ival)
            puts_(w, " int");
        opt_str(w, NULL, n->doc);
        if (n->name2)
            opt_str(w, "colour", n->name2);
        if (n->a) {
            puts_(w, " (shows ");
            puts_(w, n->a->name ? n->a->name : "?");
            put(w, ")", 1);
        }
        break;
    case AST_VALUE_DECL:
        puts_(w, "(value ");
        puts_(w, n->name ? n->name : "?");
        opt_str(w, NULL, n->doc);
        break;
    case AST_ENUM:
    case AST_RECORD_DECL:
        puts_(w, n->kind == AST_ENUM ? "(enum " : "(record-decl ");
        puts_(w, n->name ? n->name : "?");
        sp_vec(w, &n->list, depth);
        break;
    case AST_PARAM:
        put(w, "(", 1);
        puts_(w, n->name ? n->name : "?");
        sp_dump(w, n->a, depth);
        if (n->ival)
            puts_(w, " floor");
        break;
    case AST_COUNTER:
        puts_(w, "(counter ");
        puts_(w, n->name ? n->name : "?");
        opt_str(w, NULL, n->title);
        put(w, " ", 1);
        puts_(w, n->ref ? n->ref : "?");
        sp_vec(w, &n->list, depth);
        break;
    case AST_COUNTER_ITEM:
        put(w, "(", 1);
        puts_(w, n->name ? n->name : "?");
        if (n->a)
            sp_dump(w, n->a, depth);
        else
            sp_vec(w, &n->list, depth);
        break;
    case AST_CITE:
        puts_(w, "(cite ");
        put_str(w, n->name);
        if (n->ref) {
            puts_(w, " source ");
            put_str(w, n->ref);
        }
        if (n->doc) {
            puts_(w, " example ");
            put_str(w, n->doc);
        }
        break;
    case AST_SOURCE:
        puts_(w, "(source ");
        put_str(w, n->name);
        opt_str(w, NULL, n->title);
        break;
    case AST_TABLE:
        puts_(w, "(table ");
        puts_(w, n->name ? n->name : "?");
        group(w, "keys", &n->params, depth);
        if (n->a) {
            puts_(w, " (result");
            sp_dump(w, n->a, depth);
            put(w, ")", 1);
        } else {
            group(w, "columns", &n->list2, depth);
        }
        sp_vec(w, &n->cites, depth);
        sp_vec(w, &n->list, depth);
        break;
    case AST_ROW:
        puts_(w, "(row");
        group(w, "keys", &n->params, depth);
        group(w, "cells", &n->list, depth);
        sp_vec(w, &n->cites, depth);
        break;
    case AST_FN:
        puts_(w, "(fn ");
        puts_(w, n->name ? n->name : "?");
        group(w, "params", &n->params, depth);
        sp_dump(w, n->a, depth);
        sp_dump(w, n->b, depth);
        break;
    case AST_QUERY:
        puts_(w, "(query ");
        puts_(w, n->name ? n->name : "?");
        group(w, "params", &n->params, depth);
        sp_dump(w, n->a, depth);
        put(w, " ", 1);
        puts_(w, op_name(n->op));
        opt_str(w, "doc", n->doc);
        if (n->b) {
            puts_(w, " (default");
            sp_dump(w, n->b, depth);
            put(w, ")", 1);
        }
        break;
    case AST_RULE:
        puts_(w, n->op == AST_EDIT_REPLACE ? "(replace-rule " : "(rule ");
        puts_(w, n->name ? n->name : "?");
        if (n->ival) {
            puts_(w, " (priority ");
            putf_int(w, n->ival);
            put(w, ")", 1);
        }
        sp_vec(w, &n->cites, depth);
        opt_str(w, "doc", n->doc);
        sp_vec(w, &n->list, depth);
        if (n->a) {
            puts_(w, " (when");
            sp_dump(w, n->a, depth);
            put(w, ")", 1);
        }
        if (n->c) {
            puts_(w, " (do");
            sp_dump(w, n->c, depth);
            put(w, ")", 1);
        } else {
            puts_(w, " (answer");
            sp_dump(w, n->b, depth);
            put(w, ")", 1);
        }
        break;
    case AST_EVENT:
        puts_(w, "(event ");
        puts_(w, n->name ? n->name : "?");
        group(w, "params", &n->params, depth);
        if (n->ref) {
            puts_(w, " (on ");
            puts_(w, n->ref);
            put(w, ")", 1);
        }
        opt_str(w, NULL, n->doc);
        break;
    case AST_BLOCK:
        puts_(w, "(block");
        sp_vec(w, &n->list, depth);
        break;
    case AST_STMT:
        put(w, "(", 1);
        puts_(w, op_name(n->op));
        if (n->name) {
            put(w, " ", 1);
            puts_(w, n->name);
        }
        if (n->name2) {
            put(w, " ", 1);
            puts_(w, n->name2);
        }
        if (n->ival)
            puts_(w, n->op == AST_ST_TAKE ? " all" : " near");
        if (n->a)
            sp_dump(w, n->a, depth);
        if (n->b)
            sp_dump(w, n->b, depth);
        if (n->c)
            sp_dump(w, n->c, depth);
        sp_vec(w, &n->list, depth);
        opt_str(w, NULL, n->title);
        break;
    case AST_TEST_DICE:
    case AST_TEST_CHOICES:
        puts_(w, n->kind == AST_TEST_DICE ? "(dice" : "(choices");
        sp_vec(w, &n->list, depth);
        break;
    case AST_TEST_DO:
        puts_(w, "(do");
        sp_dump(w, n->a, depth);
        put_fails(w, n->ival);
        break;
    case AST_TEST_ADVANCE:
        puts_(w, "(advance ");
        puts_(w, n->name ? n->name : "?");
        break;
    case AST_TEST_MOVE:
        puts_(w, "(move");
        sp_dump(w, n->a, depth);
        sp_dump(w, n->b, depth);
        put_fails(w, n->ival);
        break;
    case AST_VARIANT:
        puts_(w, "(variant ");
        puts_(w, n->name ? n->name : "?");
        opt_str(w, NULL, n->doc);
        sp_vec(w, &n->list, depth);
        break;
    case AST_READING:
        puts_(w, "(reading ");
        puts_(w, n->name ? n->name : "?");
        opt_str(w, NULL, n->doc);
        if (n->ival)
            puts_(w, " default");
        break;
    case AST_EDITION:
        puts_(w, "(edition ");
        puts_(w, n->name ? n->name : "?");
        if (n->params.len)
            group(w, "extends", &n->params, depth);
        if (n->list2.len)
            group(w, "uses", &n->list2, depth);
        opt_str(w, NULL, n->title);
        sp_vec(w, &n->list, depth);
        break;
    case AST_MODULE:
        puts_(w, "(module ");
        puts_(w, n->name ? n->name : "?");
        opt_str(w, NULL, n->title);
        break;
    case AST_PREFER:
        puts_(w, "(prefer ");
        puts_(w, n->name ? n->name : "?");
        if (n->ref) {
            put(w, " ", 1);
            puts_(w, n->ref);
            put(w, " ", 1);
            puts_(w, n->name2 ? n->name2 : "?");
        }
        break;
    case AST_REVISE: dump_revise(w, n, depth); break;
    case AST_REMOVE:
        puts_(w, "(remove ");
        puts_(w, n->name ? n->name : "?");
        break;
    case AST_SET_VARIANT:
        puts_(w, "(set-variant ");
        puts_(w, n->name ? n->name : "?");
        put(w, " ", 1);
        puts_(w, n->ref ? n->ref : "?");
        break;
    case AST_DEFAULT_EDITION:
        puts_(w, "(default-edition ");
        puts_(w, n->name ? n->name : "?");
        break;
    case AST_TEST:
        puts_(w, "(test ");
        put_str(w, n->title);
        if (n->ref) {
            puts_(w, " (edition ");
            puts_(w, n->ref);
            put(w, ")", 1);
        }
        sp_vec(w, &n->params, depth);
        sp_vec(w, &n->list, depth);
        break;
    case AST_EXPECT:
        puts_(w, "(expect");
        sp_dump(w, n->a, depth);
        put_fails(w, n->ival);
        if (n->ref) {
            puts_(w, " (under ");
            puts_(w, n->ref);
            put(w, ")", 1);
        }
        break;
    case AST_KIND_COUNT:
    default:
        put(w, "(", 1);
        puts_(w, ast_kind_name(n->kind));
        break;
    }
    put(w, ")", 1);
}

size_t ast_dump(const ast_node *n, char *buf, size_t cap)
{
    writer w = { buf, cap, 0 };
    dump(&w, n, 0);
    if (cap)
        buf[w.len < cap ? w.len : cap - 1] = '\0';
    return w.len;
}
