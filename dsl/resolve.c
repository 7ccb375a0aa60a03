/* resolve.c — name resolution and type checking: ast_files in, one res_program out.
 *
 * Four passes over every file in load order: (1) declare every name, (2) resolve signatures
 * (record fields, parameters, table keys and columns, variant defaults), (3) resolve bodies
 * (counters, table rows, fns, query defaults, rules, edition items, tests), annotating each
 * expression node for interp/compile.c, (4) compute each edition's rule set per query.
 * Errors are E1xx (docs/spec/errors.md); every pass keeps going after an error.
 */
#include "resolve.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "hash.h"
#include "resolve_cite.h"

/* ---- error codes (docs/spec/errors.md, "E1xx — names and types") ---- */
enum {
    E_UNKNOWN_NAME = 100, E_UNKNOWN_TYPE = 101, E_NO_FIELD = 102, E_ARITY = 103,
    E_TYPE = 104, E_AMBIGUOUS = 105, E_NOT_VALUE = 106, E_INFER = 107, E_NOT_GIVEN = 108,
    E_OPERAND = 109,
    E_DUPLICATE = 110, E_DUP_ITEM = 111, E_NO_QUERY = 112, E_MODE = 113, E_DEFAULT = 114,
    E_RECORD_FIELDS = 116, E_COUNTER = 117,
    E_TABLE_MISSING = 120, E_ROW_SHAPE = 121, E_CELL_TYPE = 122, E_DUP_ROW = 123,
    E_KEY_DECL = 124, E_CONST = 125,
    E_DEFAULTS = 130, E_READING = 131,
    E_NO_RULE = 140, E_NO_EDITION = 141, E_CYCLE = 142, E_TWO_DEFAULT_EDITIONS = 143,
    E_SET_SIZE = 150,
    E_RULE_KIND = 160, E_NOT_EVENT = 162, E_MOMENT = 163, E_TWO_MOMENTS = 164, E_DIE = 165,
    E_LIMIT = 199
};

#define DENSE_MAX ((size_t)1 << 20)   /* largest enum-keyed table indexed densely */

/* ---- name tables ---- */

typedef enum gkind {
    G_TYPE, G_ENUM, G_RECORD, G_VARIANT, G_COUNTER, G_TABLE, G_FN, G_QUERY, G_BUILTIN,
    G_EVENT,    /* id: the event's index in the queries (res_query.is_event) */
    G_OTHER     /* entries of the slot, edition and rule tables */
} gkind;

typedef struct name_ent {
    const char *key;        /* borrowed from the AST or a static string */
    gkind kind;
    int32_t id;
    ast_loc loc;
    UT_hash_handle hh;
} name_ent;

typedef struct member_hit { uint32_t e, m; } member_hit;

typedef struct member_ent {
    const char *key;
    member_hit *hits;
    size_t len, cap;
    UT_hash_handle hh;
} member_ent;

/* name -> member index of one enum */
struct res_member_index {
    const char *key;
    uint32_t m;
    UT_hash_handle hh;
};

typedef struct type_ent {
    uint64_t key;           /* kind << 32 | arg */
    uint32_t id;
    UT_hash_handle hh;
} type_ent;

struct res_names {
    name_ent *globals, *slots, *editions, *rules;
    member_ent *members;
    type_ent *types;
};

/* ---- resolver state ---- */

typedef struct local {
    const char *name;
    uint32_t type;
    int32_t slot;
} local;

typedef struct rctx {
    res_program *p;
    diag_list *d;
    bool oom;
    local *locals;
    size_t nlocals, locals_cap;
    uint32_t next_slot;     /* slots used by the body being resolved */
    uint32_t seq;           /* next rule order number */
    int32_t *edition_state; /* pass 4: 0 todo, 1 in progress, 2 done */
} rctx;

static void err(rctx *c, int code, ast_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void err(rctx *c, int code, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(c->d, code, DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
}

static void oom(rctx *c, ast_loc loc)
{
    if (!c->oom)
        err(c, E_LIMIT, loc, "out of memory while resolving");
    c->oom = true;
}

/* ---- types ---- */

uint32_t res_type_intern(res_program *p, res_tkind kind, uint32_t arg)
{
    uint64_t key = (uint64_t)kind << 32 | arg;
    type_ent *t;
    HASH_FIND(hh, p->names->types, &key, sizeof key, t);
    if (t)
        return t->id;
    if (!HON_GROW(p->types, p->ntypes, p->types_cap))
        return T_ERROR;
    t = hon_malloc(sizeof *t);
    if (!t)
        return T_ERROR;
    t->key = key;
    t->id = (uint32_t)p->ntypes;
    HASH_ADD(hh, p->names->types, key, sizeof key, t);
    if (!HON_HASH_ADDED(t)) {
        hon_free(t);
        return T_ERROR;
    }
    p->types[p->ntypes++] = (res_type){ kind, arg };
    return t->id;
}

static uint32_t intern(rctx *c, res_tkind kind, uint32_t arg, ast_loc loc)
{
    uint32_t t = res_type_intern(c->p, kind, arg);
    if (t == T_ERROR && kind != RT_ERROR)
        oom(c, loc);
    return t;
}

static res_tkind tkind(const res_program *p, uint32_t t)
{
    return t < p->ntypes ? p->types[t].kind : RT_NONE;
}

static uint32_t targ(const res_program *p, uint32_t t)
{
    return t < p->ntypes ? p->types[t].arg : 0;
}

const char *res_type_name(const res_program *p, uint32_t type, char *buf, size_t cap)
{
    char inner[128];
    if (!cap)
        return buf;
    switch (tkind(p, type)) {
    case RT_INT: snprintf(buf, cap, "int"); break;
    case RT_BOOL: snprintf(buf, cap, "bool"); break;
    case RT_VERDICT: snprintf(buf, cap, "verdict"); break;
    case RT_UNIT: snprintf(buf, cap, "unit"); break;
    case RT_ERROR: snprintf(buf, cap, "<error>"); break;
    case RT_SQUARE: snprintf(buf, cap, "square"); break;
    case RT_SIDE: snprintf(buf, cap, "square_side"); break;
    case RT_ELEMENT: snprintf(buf, cap, "element"); break;
    case RT_ENUM: snprintf(buf, cap, "%s", p->enums[targ(p, type)].name); break;
    case RT_RECORD: snprintf(buf, cap, "%s", p->records[targ(p, type)].name); break;
    case RT_SET:
        snprintf(buf, cap, "set<%s>", res_type_name(p, targ(p, type), inner, sizeof inner));
        break;
    case RT_LIST:
        snprintf(buf, cap, "list<%s>", res_type_name(p, targ(p, type), inner, sizeof inner));
        break;
    default: snprintf(buf, cap, "<none>"); break;
    }
    return buf;
}

/* Type names for messages: two rotating buffers per call site are enough. */
typedef struct tname { char s[160]; } tname;
static tname tn(const res_program *p, uint32_t t)
{
    tname r;
    res_type_name(p, t, r.s, sizeof r.s);
    return r;
}

/* ---- name table helpers ---- */

static name_ent *find_name(name_ent *table, const char *name)
{
    name_ent *e = NULL;
    if (name)
        HASH_FIND_STR(table, name, e);
    return e;
}

/* Adds name to *table; on a clash reports E110 (unless quiet) and returns NULL. */
static name_ent *add_name(rctx *c, name_ent **table, const char *name, gkind kind, int32_t id,
                          ast_loc loc, const char *what)
{
    if (!name)
        return NULL;
    name_ent *old = find_name(*table, name);
    if (old) {
        if (old->loc.line == 0)     /* built-ins are declared at line 0 */
            err(c, E_DUPLICATE, loc, "`%s` is a built-in name and cannot be declared", name);
        else {
            diag *dg = diag_report(c->d, E_DUPLICATE, DIAG_ERROR, loc,
                                   "%s `%s` is already declared", what, name);
            if (dg && old->loc.line)
                diag_relate(dg, old->loc, "`%s` was first declared here", name);
        }
        return NULL;
    }
    name_ent *e = hon_calloc(1, sizeof *e);
    if (!e) {
        oom(c, loc);
        return NULL;
    }
    e->key = name;
    e->kind = kind;
    e->id = id;
    e->loc = loc;
    HASH_ADD_KEYPTR(hh, *table, e->key, strlen(e->key), e);
    if (!HON_HASH_ADDED(e)) {
        hon_free(e);
        oom(c, loc);
        return NULL;
    }
    return e;
}

static void free_names(name_ent **table)
{
    name_ent *e, *tmp;
    HASH_ITER(hh, *table, e, tmp) {
        HASH_DEL(*table, e);
        hon_free(e);
    }
}

static member_ent *find_member_ent(const res_program *p, const char *name)
{
    member_ent *m = NULL;
    if (name)
        HASH_FIND_STR(p->names->members, name, m);
    return m;
}

int32_t res_find_member(const res_enum *e, const char *name)
{
    struct res_member_index *x = NULL;
    if (name)
        HASH_FIND_STR(e->index, name, x);
    return x ? (int32_t)x->m : -1;
}

/* Adds a member to enum e; E111 (or E110 for vocabulary) on a duplicate. Returns its index. */
static int32_t add_member(rctx *c, uint32_t eid, const char *name, const char *doc, bool carries,
                          ast_loc loc)
{
    res_enum *e = &c->p->enums[eid];
    int32_t old = res_find_member(e, name);
    if (old >= 0) {
        diag *dg = diag_report(c->d, eid < E_FIRST_FREE ? E_DUPLICATE : E_DUP_ITEM, DIAG_ERROR,
                               loc, "`%s` is already a member of %s", name, e->name);
        if (dg && e->members[old].loc.line)
            diag_relate(dg, e->members[old].loc, "first declared here");
        return -1;
    }
    if (!name || !HON_GROW(e->members, e->len, e->cap)) {
        oom(c, loc);
        return -1;
    }
    struct res_member_index *x = hon_malloc(sizeof *x);
    if (!x) {
        oom(c, loc);
        return -1;
    }
    x->key = name;
    x->m = (uint32_t)e->len;
    HASH_ADD_KEYPTR(hh, e->index, x->key, strlen(x->key), x);
    if (!HON_HASH_ADDED(x)) {
        hon_free(x);
        oom(c, loc);
        return -1;
    }
    member_ent *m = find_member_ent(c->p, name);
    if (!m) {
        m = hon_calloc(1, sizeof *m);
        if (!m) {
            oom(c, loc);
            return -1;
        }
        m->key = name;
        HASH_ADD_KEYPTR(hh, c->p->names->members, m->key, strlen(m->key), m);
        if (!HON_HASH_ADDED(m)) {
            hon_free(m);
            oom(c, loc);
            return -1;
        }
    }
    if (!HON_GROW(m->hits, m->len, m->cap)) {
        oom(c, loc);
        return -1;
    }
    m->hits[m->len++] = (member_hit){ eid, (uint32_t)e->len };
    e->members[e->len] = (res_member){ name, doc, carries, loc };
    return (int32_t)e->len++;
}

static int32_t new_enum(rctx *c, const char *name, const char *doc, ast_node *decl)
{
    res_program *p = c->p;
    if (!HON_GROW(p->enums, p->nenums, p->enums_cap)) {
        oom(c, decl ? decl->loc : (ast_loc){ 0 });
        return -1;
    }
    uint32_t id = (uint32_t)p->nenums;
    p->enums[id] = (res_enum){ .name = name, .doc = doc, .variant = -1, .decl = decl };
    p->nenums++;
    p->enums[id].type = intern(c, RT_ENUM, id, decl ? decl->loc : (ast_loc){ 0 });
    return (int32_t)id;
}

/* ---- locals ---- */

static local *find_local(rctx *c, const char *name)
{
    for (size_t i = c->nlocals; name && i-- > 0;)
        if (strcmp(c->locals[i].name, name) == 0)
            return &c->locals[i];
    return NULL;
}

/* Binds name to a new slot; returns the slot or -1 on OOM. */
static int32_t push_local(rctx *c, const char *name, uint32_t type, ast_loc loc)
{
    if (!HON_GROW(c->locals, c->nlocals, c->locals_cap)) {
        oom(c, loc);
        return -1;
    }
    int32_t slot = (int32_t)c->next_slot++;
    c->locals[c->nlocals++] = (local){ name ? name : "", type, slot };
    return slot;
}

static void begin_body(rctx *c)
{
    c->nlocals = 0;
    c->next_slot = 0;
}

/* ---- type expressions ---- */

static bool is_enum_type(const res_program *p, uint32_t t) { return tkind(p, t) == RT_ENUM; }

static uint32_t set_of(rctx *c, uint32_t elem, ast_loc loc)
{
    res_program *p = c->p;
    if (elem == T_ERROR)
        return T_ERROR;
    if (!is_enum_type(p, elem)) {
        err(c, E_TYPE, loc, "a set holds members of an enum, not %s values", tn(p, elem).s);
        return T_ERROR;
    }
    if (p->enums[targ(p, elem)].len > RES_SET_MAX) {
        err(c, E_SET_SIZE, loc, "enum %s has %zu members: sets are limited to %d",
            p->enums[targ(p, elem)].name, p->enums[targ(p, elem)].len, RES_SET_MAX);
        return T_ERROR;
    }
    return intern(c, RT_SET, elem, loc);
}

static uint32_t type_of(rctx *c, ast_node *t)
{
    res_program *p = c->p;
    if (!t)
        return T_ERROR;
    switch (t->kind) {
    case AST_TYPE_NAME: {
        name_ent *g = find_name(p->names->globals, t->name);
        if (g && g->kind == G_TYPE)
            return (uint32_t)g->id;
        if (g && (g->kind == G_ENUM || g->kind == G_VARIANT))
            return p->enums[g->kind == G_ENUM ? g->id : (int32_t)p->variants[g->id].enum_id].type;
        if (g && g->kind == G_RECORD)
            return p->records[g->id].type;
        err(c, E_UNKNOWN_TYPE, t->loc, "unknown type `%s`", t->name ? t->name : "?");
        return T_ERROR;
    }
    case AST_TYPE_SET:
        return set_of(c, type_of(c, t->a), t->loc);
    case AST_TYPE_LIST: {
        uint32_t e = type_of(c, t->a);
        return e == T_ERROR ? T_ERROR : intern(c, RT_LIST, e, t->loc);
    }
    default:
        err(c, E_UNKNOWN_TYPE, t->loc, "a type is expected here");
        return T_ERROR;
    }
}

/* ---- expressions ---- */

static uint32_t infer(rctx *c, ast_node *n, uint32_t want);

/* Resolves n expecting `want` (T_NONE: anything) and reports E104 on a mismatch. */
static uint32_t check(rctx *c, ast_node *n, uint32_t want)
{
    uint32_t t = infer(c, n, want);
    if (want != T_NONE && want != T_ERROR && t != T_ERROR && t != want) {
        err(c, E_TYPE, n->loc, "expected %s, found %s", tn(c->p, want).s, tn(c->p, t).s);
        return want;
    }
    return t;
}

/* True when n's type can only come from context: a bare name that is a member of several
 * enums (and nothing else), or an empty list or set literal. */
static bool needs_context(rctx *c, const ast_node *n)
{
    switch (n->kind) {
    case AST_NAME: {
        if (find_local(c, n->name))
            return false;
        name_ent *g = find_name(c->p->names->globals, n->name);
        if (g && g->kind == G_COUNTER)
            return false;
        member_ent *m = find_member_ent(c->p, n->name);
        return m && m->len > 1;
    }
    case AST_LIST:
    case AST_SET:
        for (uint32_t i = 0; i < n->list.len; i++)
            if (!needs_context(c, n->list.items[i]))
                return false;
        return true;
    case AST_IF:
        return needs_context(c, n->b) && needs_context(c, n->c);
    default:
        return false;
    }
}

static const char *gkind_text(gkind k)
{
    switch (k) {
    case G_TYPE: return "a built-in type";
    case G_ENUM: return "an enum type";
    case G_RECORD: return "a record type";
    case G_VARIANT: return "a variant (use `variant NAME` for its active reading)";
    case G_COUNTER: return "a counter";
    case G_TABLE: return "a table (look it up with NAME[key, ...])";
    case G_FN: return "a function (call it with NAME(...))";
    case G_QUERY: return "a query (call it with NAME(...))";
    case G_BUILTIN: return "a built-in function";
    case G_EVENT: return "an event (a rule's `do` block raises it: `raise NAME(...)`)";
    case G_OTHER: break;
    }
    return "a declaration";
}

static void annotate_member(ast_node *n, const res_program *p, uint32_t e, uint32_t m)
{
    n->an.sym_kind = SYM_MEMBER;
    n->an.sym = m;
    n->an.type = p->enums[e].type;
}

/* Lists the enums having member `name`, for E105. */
static void enums_having(const res_program *p, const member_ent *m, char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < m->len && off + 1 < cap; i++) {
        int w = snprintf(buf + off, cap - off, "%s%s.%s", i ? " or " : "",
                         p->enums[m->hits[i].e].name, m->key);
        if (w < 0)
            break;
        off += (size_t)w;
    }
}

static uint32_t name_expr(rctx *c, ast_node *n, uint32_t want)
{
    res_program *p = c->p;
    local *l = find_local(c, n->name);
    if (l) {
        n->an.sym_kind = SYM_LOCAL;
        n->an.slot = l->slot;
        return l->type;
    }
    if (is_enum_type(p, want)) {
        uint32_t e = targ(p, want);
        int32_t m = res_find_member(&p->enums[e], n->name);
        if (m >= 0) {
            annotate_member(n, p, e, (uint32_t)m);
            return want;
        }
    }
    name_ent *g = find_name(p->names->globals, n->name);
    if (g && g->kind == G_COUNTER) {
        n->an.sym_kind = SYM_COUNTER;
        n->an.sym = (uint32_t)p->counters[g->id].unit;
        return T_UNIT;
    }
    member_ent *m = find_member_ent(p, n->name);
    if (m && m->len == 1) {
        annotate_member(n, p, m->hits[0].e, m->hits[0].m);
        return p->enums[m->hits[0].e].type;
    }
    if (m && m->len > 1) {
        if (want == T_ERROR)
            return T_ERROR;     /* the other side already failed: do not report twice */
        char buf[256];
        enums_having(p, m, buf, sizeof buf);
        err(c, E_AMBIGUOUS, n->loc, "`%s` is a member of several enums: write %s", n->name, buf);
        return T_ERROR;
    }
    if (g) {
        err(c, E_NOT_VALUE, n->loc, "`%s` is %s, not a value", n->name, gkind_text(g->kind));
        return T_ERROR;
    }
    err(c, E_UNKNOWN_NAME, n->loc, "unknown name `%s`", n->name ? n->name : "?");
    return T_ERROR;
}

/* If n names an enum (or variant) type and no local hides it, returns the enum id; else -1. */
static int32_t enum_named(rctx *c, const ast_node *n)
{
    if (n->kind != AST_NAME || find_local(c, n->name))
        return -1;
    name_ent *g = find_name(c->p->names->globals, n->name);
    if (g && g->kind == G_ENUM)
        return g->id;
    if (g && g->kind == G_VARIANT)
        return (int32_t)c->p->variants[g->id].enum_id;
    return -1;
}

static uint32_t field_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    int32_t e = enum_named(c, n->a);
    if (e >= 0) {
        int32_t m = res_find_member(&p->enums[e], n->name);
        n->a->an.sym_kind = SYM_ENUM_TYPE;
        n->a->an.sym = (uint32_t)e;
        if (m < 0) {
            err(c, E_UNKNOWN_NAME, n->loc, "%s has no member `%s`", p->enums[e].name, n->name);
            return T_ERROR;
        }
        annotate_member(n, p, (uint32_t)e, (uint32_t)m);
        return p->enums[e].type;
    }
    uint32_t t = infer(c, n->a, T_NONE);
    switch (tkind(p, t)) {
    case RT_ERROR:
        return T_ERROR;
    case RT_UNIT: {
        if (strcmp(n->name, "kind") == 0) {
            n->an.sym_kind = SYM_UNIT_KIND;
            return p->enums[E_KIND].type;
        }
        if (strcmp(n->name, "side") == 0) {
            n->an.sym_kind = SYM_UNIT_SIDE;
            return p->enums[E_SIDE].type;
        }
        if (strcmp(n->name, "size") == 0) {
            n->an.sym_kind = SYM_UNIT_SIZE;
            return T_INT;
        }
        name_ent *s = find_name(p->names->slots, n->name);
        if (s) {
            n->an.sym_kind = SYM_UNIT_VALUE;
            n->an.sym = (uint32_t)s->id;
            return T_INT;
        }
        err(c, E_NO_FIELD, n->loc,
            "a unit has no value `%s` (units have kind, side, size and the declared `value`s)",
            n->name);
        return T_ERROR;
    }
    case RT_RECORD: {
        const res_record *r = &p->records[targ(p, t)];
        for (size_t i = 0; i < r->nfields; i++)
            if (strcmp(r->fields[i].name, n->name) == 0) {
                n->an.sym_kind = SYM_FIELD;
                n->an.sym = (uint32_t)i;
                return r->fields[i].type;
            }
        err(c, E_NO_FIELD, n->loc, "%s %s has no field `%s`",
            r->table >= 0 ? "a row of table" : "record", r->name, n->name);
        return T_ERROR;
    }
    default:
        err(c, E_NO_FIELD, n->loc, "a %s value has no field `%s`", tn(p, t).s, n->name);
        return T_ERROR;
    }
}

/* Argument and result types of built-in functions, as codes (the type ids of enums and lists
 * are the program's own). */
typedef enum btype {
    B_NONE, B_INT, B_BOOL, B_UNIT, B_SQUARE, B_SIDE, B_ELEMENT, B_TERRAIN, B_SQUARE_FEATURE,
    B_SIDE_FEATURE, B_ITEM, B_DIRECTION, B_STEPS, B_SQUARES, B_UNITS, B_SIDES, B_ITEMS,
    B_FACE, B_PHASE
} btype;

/* The built-in functions. The first ones are checked by builtin_call's own cases; the board's
 * are checked from their signature (params, result). */
static const struct builtin_sig {
    const char *name;
    res_builtin id;
    int arity;
    btype params[3];
    btype result;
} builtins[] = {
    { "min", RES_BI_MIN, 2, { 0 }, 0 }, { "max", RES_BI_MAX, 2, { 0 }, 0 },
    { "abs", RES_BI_ABS, 1, { 0 }, 0 }, { "len", RES_BI_LEN, 1, { 0 }, 0 },
    { "nth", RES_BI_NTH, 2, { 0 }, 0 },
    { "has", RES_BI_HAS_ABILITY, 2, { 0 }, 0 },
    { "ability_value", RES_BI_ABILITY_VALUE, 2, { 0 }, 0 },
    { "marker_count", RES_BI_MARKER_COUNT, 2, { 0 }, 0 },
    /* the board, language.md §5.3 */
    { "square_of", RES_BI_SQUARE_OF, 1, { B_UNIT }, B_SQUARE },
    { "squares_of", RES_BI_SQUARES_OF, 1, { B_UNIT }, B_SQUARES },
    { "on_board", RES_BI_ON_BOARD, 1, { B_UNIT }, B_BOOL },
    { "embarked", RES_BI_EMBARKED, 1, { B_UNIT }, B_BOOL },
    { "carrier", RES_BI_CARRIER, 1, { B_UNIT }, B_UNIT },
    { "units_at", RES_BI_UNITS_AT, 1, { B_SQUARE }, B_UNITS },
    { "elevation", RES_BI_ELEVATION, 1, { B_SQUARE }, B_INT },
    { "terrain", RES_BI_TERRAIN, 1, { B_SQUARE }, B_TERRAIN },
    { "element_at", RES_BI_ELEMENT_AT, 1, { B_SQUARE }, B_ELEMENT },
    { "in_element", RES_BI_IN_ELEMENT, 1, { B_SQUARE }, B_BOOL },
    { "element_terrain", RES_BI_ELEMENT_TERRAIN, 1, { B_ELEMENT }, B_TERRAIN },
    { "element_value", RES_BI_ELEMENT_VALUE, 1, { B_ELEMENT }, B_INT },
    { "element_facing", RES_BI_ELEMENT_FACING, 1, { B_ELEMENT }, B_DIRECTION },
    { "element_squares", RES_BI_ELEMENT_SQUARES, 1, { B_ELEMENT }, B_SQUARES },
    { "corner_square", RES_BI_CORNER_SQUARE, 1, { B_SQUARE }, B_BOOL },
    { "has_feature", RES_BI_HAS_FEATURE, 2, { B_SQUARE, B_SQUARE_FEATURE }, B_BOOL },
    { "feature_value", RES_BI_FEATURE_VALUE, 2, { B_SQUARE, B_SQUARE_FEATURE }, B_INT },
    { "side_between", RES_BI_SIDE_BETWEEN, 2, { B_SQUARE, B_SQUARE }, B_SIDE },
    { "side_has", RES_BI_SIDE_HAS, 2, { B_SIDE, B_SIDE_FEATURE }, B_BOOL },
    { "side_value", RES_BI_SIDE_VALUE, 2, { B_SIDE, B_SIDE_FEATURE }, B_INT },
    { "side_facing", RES_BI_SIDE_FACING, 2, { B_SIDE, B_SIDE_FEATURE }, B_SQUARE },
    { "sides_of", RES_BI_SIDES_OF, 1, { B_SQUARE }, B_SIDES },
    { "side_squares", RES_BI_SIDE_SQUARES, 1, { B_SIDE }, B_SQUARES },
    { "items_near", RES_BI_ITEMS_NEAR, 1, { B_SQUARE }, B_ITEMS },
    { "item_value_near", RES_BI_ITEM_VALUE_NEAR, 2, { B_SQUARE, B_ITEM }, B_INT },
    { "distance", RES_BI_DISTANCE, 2, { B_SQUARE, B_SQUARE }, B_INT },
    { "adjacent", RES_BI_ADJACENT, 2, { B_SQUARE, B_SQUARE }, B_BOOL },
    { "neighbours", RES_BI_NEIGHBOURS, 1, { B_SQUARE }, B_SQUARES },
    { "line", RES_BI_LINE, 2, { B_SQUARE, B_SQUARE }, B_STEPS },
    { "bresenham", RES_BI_BRESENHAM, 2, { B_SQUARE, B_SQUARE }, B_STEPS },
    { "side_of_line", RES_BI_SIDE_OF_LINE, 3, { B_SQUARE, B_SQUARE, B_SQUARE }, B_INT },
    { "direction", RES_BI_DIRECTION, 2, { B_SQUARE, B_SQUARE }, B_DIRECTION },
    { "squares_within", RES_BI_SQUARES_WITHIN, 2, { B_SQUARE, B_INT }, B_SQUARES },
    /* §6: faces, units in play, the game clock */
    { "face", RES_BI_FACE, 1, { B_UNIT }, B_FACE },
    { "element_face", RES_BI_ELEMENT_FACE, 1, { B_ELEMENT }, B_FACE },
    { "units", RES_BI_UNITS, 0, { 0 }, B_UNITS },
    { "passengers", RES_BI_PASSENGERS, 1, { B_UNIT }, B_UNITS },
    { "turn", RES_BI_TURN, 0, { 0 }, B_INT },
    { "phase", RES_BI_PHASE, 0, { 0 }, B_PHASE },
};
#define NBUILTINS (sizeof builtins / sizeof builtins[0])

const char *res_builtin_name(uint32_t b)
{
    for (size_t i = 0; i < NBUILTINS; i++)
        if ((uint32_t)builtins[i].id == b)
            return builtins[i].name;
    return "?";
}

/* The type id of a built-in signature code. */
static uint32_t btype_id(rctx *c, btype b, ast_loc loc)
{
    const res_program *p = c->p;
    switch (b) {
    case B_INT: return T_INT;
    case B_BOOL: return T_BOOL;
    case B_UNIT: return T_UNIT;
    case B_SQUARE: return T_SQUARE;
    case B_SIDE: return T_SIDE;
    case B_ELEMENT: return T_ELEMENT;
    case B_TERRAIN: return p->enums[E_TERRAIN].type;
    case B_SQUARE_FEATURE: return p->enums[E_SQUARE_FEATURE].type;
    case B_SIDE_FEATURE: return p->enums[E_SIDE_FEATURE].type;
    case B_ITEM: return p->enums[E_INTERSPACE_ITEM].type;
    case B_DIRECTION: return p->enums[E_DIRECTION].type;
    case B_STEPS: return intern(c, RT_LIST, p->records[R_STEP].type, loc);
    case B_SQUARES: return intern(c, RT_LIST, T_SQUARE, loc);
    case B_UNITS: return intern(c, RT_LIST, T_UNIT, loc);
    case B_SIDES: return intern(c, RT_LIST, T_SIDE, loc);
    case B_ITEMS: return intern(c, RT_LIST, p->enums[E_INTERSPACE_ITEM].type, loc);
    case B_FACE: return p->enums[E_FACE].type;
    case B_PHASE: return p->enums[E_PHASE].type;
    default: return T_ERROR;
    }
}

static uint32_t arity_error(rctx *c, ast_node *n, const char *what, size_t want)
{
    err(c, E_ARITY, n->loc, "%s `%s` takes %zu argument%s, not %u", what, n->name, want,
        want == 1 ? "" : "s", n->list.len);
    for (uint32_t i = 0; i < n->list.len; i++)
        infer(c, n->list.items[i], T_NONE);
    return T_ERROR;
}

/* has(u, X): X is an ability or a marker; a bare name chooses by which enum has it. */
static uint32_t has_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    ast_node *x = n->list.items[1];
    check(c, n->list.items[0], T_UNIT);
    uint32_t ta = p->enums[E_ABILITY].type, tm = p->enums[E_MARKER].type;
    uint32_t t;
    if (x->kind == AST_NAME && !find_local(c, x->name)) {
        bool is_a = res_find_member(&p->enums[E_ABILITY], x->name) >= 0;
        bool is_m = res_find_member(&p->enums[E_MARKER], x->name) >= 0;
        if (is_a && is_m) {
            err(c, E_AMBIGUOUS, x->loc,
                "`%s` is both an ability and a marker: write ability.%s or marker.%s",
                x->name, x->name, x->name);
            return T_BOOL;
        }
        t = infer(c, x, is_a ? ta : is_m ? tm : T_NONE);
    } else {
        t = infer(c, x, T_NONE);
    }
    if (t == ta)
        n->an.sym = RES_BI_HAS_ABILITY;
    else if (t == tm)
        n->an.sym = RES_BI_HAS_MARKER;
    else if (t != T_ERROR)
        err(c, E_TYPE, x->loc, "has() asks for an ability or a marker, not a %s value",
            tn(p, t).s);
    return T_BOOL;
}

static bool orderable(const res_program *p, uint32_t t);
static uint32_t pair(rctx *c, ast_node *a, ast_node *b);

static uint32_t builtin_call(rctx *c, ast_node *n, size_t bi)
{
    res_program *p = c->p;
    if (n->list.len != (uint32_t)builtins[bi].arity)
        return arity_error(c, n, "built-in", (size_t)builtins[bi].arity);
    n->an.sym_kind = SYM_BUILTIN;
    n->an.sym = builtins[bi].id;
    ast_node **a = n->list.items;
    switch (builtins[bi].id) {
    case RES_BI_MIN:
    case RES_BI_MAX: {
        /* two ints, or two members of one enum (declaration order) */
        uint32_t t = pair(c, a[0], a[1]);
        if (!orderable(p, t)) {
            err(c, E_TYPE, n->loc, "%s() compares ints or members of one enum, not %s values",
                n->name, tn(p, t).s);
            return T_ERROR;
        }
        return t;
    }
    case RES_BI_ABS:
        check(c, a[0], T_INT);
        return T_INT;
    case RES_BI_LEN: {
        uint32_t t = infer(c, a[0], T_NONE);
        if (t != T_ERROR && tkind(p, t) != RT_LIST && tkind(p, t) != RT_SET)
            err(c, E_TYPE, a[0]->loc, "len() asks for a list or a set, not a %s value",
                tn(p, t).s);
        return T_INT;
    }
    case RES_BI_HAS_ABILITY:
    case RES_BI_HAS_MARKER:
        return has_expr(c, n);
    case RES_BI_NTH: {
        uint32_t t = infer(c, a[0], T_NONE);
        check(c, a[1], T_INT);
        if (t != T_ERROR && tkind(p, t) != RT_LIST) {
            err(c, E_TYPE, a[0]->loc, "nth() asks for a list, not a %s value", tn(p, t).s);
            return T_ERROR;
        }
        return t == T_ERROR ? T_ERROR : targ(p, t);
    }
    case RES_BI_ABILITY_VALUE:
        check(c, a[0], T_UNIT);
        check(c, a[1], p->enums[E_ABILITY].type);
        return T_INT;
    case RES_BI_MARKER_COUNT:
        check(c, a[0], T_UNIT);
        check(c, a[1], p->enums[E_MARKER].type);
        return T_INT;
    default:
        break;
    }
    for (int i = 0; i < builtins[bi].arity; i++)
        check(c, a[i], btype_id(c, builtins[bi].params[i], a[i]->loc));
    return btype_id(c, builtins[bi].result, n->loc);
}

static uint32_t call_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    for (size_t i = 0; n->name && i < NBUILTINS; i++)
        if (strcmp(n->name, builtins[i].name) == 0)
            return builtin_call(c, n, i);
    name_ent *g = find_name(p->names->globals, n->name);
    const res_field *params;
    uint32_t np, result;
    if (g && g->kind == G_FN) {
        const res_fn *f = &p->fns[g->id];
        params = f->params, np = f->nparams, result = f->result;
        n->an.sym_kind = SYM_FN;
    } else if (g && g->kind == G_QUERY) {
        const res_query *q = &p->queries[g->id];
        params = q->params, np = q->nparams, result = q->result;
        n->an.sym_kind = SYM_QUERY;
    } else {
        if (g)
            err(c, E_NOT_VALUE, n->loc, "`%s` is %s, not something to call", n->name,
                gkind_text(g->kind));
        else
            err(c, E_UNKNOWN_NAME, n->loc, "unknown function or query `%s`",
                n->name ? n->name : "?");
        for (uint32_t i = 0; i < n->list.len; i++)
            infer(c, n->list.items[i], T_NONE);
        return T_ERROR;
    }
    n->an.sym = (uint32_t)g->id;
    if (n->list.len != np)
        return arity_error(c, n, g->kind == G_FN ? "function" : "query", np);
    for (uint32_t i = 0; i < np; i++)
        check(c, n->list.items[i], params ? params[i].type : T_ERROR);
    return result;
}

static uint32_t index_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    ast_node *base = n->a;
    name_ent *g = base && base->kind == AST_NAME && !find_local(c, base->name)
                      ? find_name(p->names->globals, base->name) : NULL;
    if (!g || g->kind != G_TABLE) {
        if (g)
            err(c, E_NOT_VALUE, base->loc, "`%s` is %s, not a table", base->name,
                gkind_text(g->kind));
        else if (base && base->kind == AST_NAME && !find_local(c, base->name))
            err(c, E_UNKNOWN_NAME, base->loc, "unknown table `%s`", base->name);
        else
            err(c, E_NOT_VALUE, base ? base->loc : n->loc, "only tables can be indexed");
        for (uint32_t i = 0; i < n->list.len; i++)
            infer(c, n->list.items[i], T_NONE);
        return T_ERROR;
    }
    const res_table *t = &p->tables[g->id];
    base->an.sym_kind = SYM_TABLE;
    base->an.sym = (uint32_t)g->id;
    n->an.sym_kind = SYM_TABLE;
    n->an.sym = (uint32_t)g->id;
    if (n->list.len != t->nkeys) {
        err(c, E_ARITY, n->loc, "table `%s` has %u key%s, not %u", t->name, t->nkeys,
            t->nkeys == 1 ? "" : "s", n->list.len);
        return t->result;
    }
    for (uint32_t i = 0; i < t->nkeys; i++)
        check(c, n->list.items[i], t->keys[i].type);
    return t->result;
}

static bool orderable(const res_program *p, uint32_t t)
{
    return t == T_INT || tkind(p, t) == RT_ENUM || t == T_ERROR;
}

/* Resolves the two sides of a comparison: the side that needs context goes second. */
static uint32_t pair(rctx *c, ast_node *a, ast_node *b)
{
    if (needs_context(c, a) && !needs_context(c, b)) {
        uint32_t t = infer(c, b, T_NONE);
        check(c, a, t);
        return t;
    }
    uint32_t t = infer(c, a, T_NONE);
    check(c, b, t);
    return t;
}

/* The operand (and result) type of an arithmetic or logical operator node; T_NONE otherwise. */
static uint32_t chain_type(const ast_node *n)
{
    if (!n || n->kind != AST_BINARY)
        return T_NONE;
    switch (n->op) {
    case AST_OP_ADD: case AST_OP_SUB: case AST_OP_MUL: case AST_OP_DIV: case AST_OP_MOD:
        return T_INT;
    case AST_OP_AND: case AST_OP_OR:
        return T_BOOL;
    default:
        return T_NONE;
    }
}

/* `a + b + ... + z` (or an `and`/`or` chain) is a left spine of operators of type t: it is
 * checked in a loop, leftmost operand first, each operator typed as infer() would, so a chain
 * of FRONT_MAX_CHAIN operators (front.h) costs no recursion. */
static uint32_t chain_expr(rctx *c, ast_node *n, uint32_t t)
{
    ast_node **spine = NULL;
    size_t len = 0, cap = 0;
    for (ast_node *m = n; chain_type(m) == t; m = m->a) {
        if (!HON_GROW(spine, len, cap)) {
            hon_free(spine);
            oom(c, n->loc);
            return t;
        }
        spine[len++] = m;
    }
    check(c, spine[len - 1]->a, t);
    for (size_t i = len; i-- > 0;) {
        spine[i]->an.slot = -1;
        check(c, spine[i]->b, t);
        spine[i]->an.type = t;
    }
    hon_free(spine);
    return t;
}

static uint32_t binary_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    switch (n->op) {
    case AST_OP_ADD: case AST_OP_SUB: case AST_OP_MUL: case AST_OP_DIV: case AST_OP_MOD:
        return chain_expr(c, n, T_INT);
    case AST_OP_AND: case AST_OP_OR:
        return chain_expr(c, n, T_BOOL);
    case AST_OP_EQ: case AST_OP_NE:
        pair(c, n->a, n->b);
        return T_BOOL;
    case AST_OP_CONCAT: {
        uint32_t t = pair(c, n->a, n->b);
        if (t != T_ERROR && tkind(p, t) != RT_LIST) {
            err(c, E_OPERAND, n->loc, "`++` joins two lists, not %s values", tn(p, t).s);
            return T_ERROR;
        }
        return t;
    }
    case AST_OP_LT: case AST_OP_LE: case AST_OP_GT: case AST_OP_GE: {
        uint32_t t = pair(c, n->a, n->b);
        if (!orderable(p, t))
            err(c, E_OPERAND, n->loc, "%s values cannot be ordered (only ints and enum members)",
                tn(p, t).s);
        return T_BOOL;
    }
    case AST_OP_IN: {
        uint32_t t = infer(c, n->b, T_NONE);
        res_tkind k = tkind(p, t);
        if (k == RT_SET || k == RT_LIST)
            check(c, n->a, targ(p, t));
        else {
            if (t != T_ERROR)
                err(c, E_OPERAND, n->b->loc, "`in` asks for a set or a list, not a %s value",
                    tn(p, t).s);
            infer(c, n->a, T_NONE);
        }
        return T_BOOL;
    }
    default:
        err(c, E_OPERAND, n->loc, "unknown operator");
        return T_ERROR;
    }
}

/* List and set literals: the element type comes from the expected type, else from the first
 * element that does not need context. */
static uint32_t collection_expr(rctx *c, ast_node *n, uint32_t want)
{
    res_program *p = c->p;
    bool is_set = n->kind == AST_SET;
    res_tkind k = is_set ? RT_SET : RT_LIST;
    uint32_t elem = tkind(p, want) == k ? targ(p, want) : T_NONE;
    if (elem == T_NONE) {
        if (n->list.len == 0) {
            err(c, E_INFER, n->loc, "the type of an empty %s cannot be inferred here",
                is_set ? "set" : "list");
            return T_ERROR;
        }
        ast_node *first = n->list.items[0];
        for (uint32_t i = 0; i < n->list.len; i++)
            if (!needs_context(c, n->list.items[i])) {
                first = n->list.items[i];
                break;
            }
        elem = infer(c, first, T_NONE);
        for (uint32_t i = 0; i < n->list.len; i++)
            if (n->list.items[i] != first)
                check(c, n->list.items[i], elem);
    } else {
        for (uint32_t i = 0; i < n->list.len; i++)
            check(c, n->list.items[i], elem);
    }
    if (elem == T_ERROR)
        return T_ERROR;
    return is_set ? set_of(c, elem, n->loc) : intern(c, RT_LIST, elem, n->loc);
}

static uint32_t record_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    name_ent *g = find_name(p->names->globals, n->name);
    if (!g || g->kind != G_RECORD) {
        err(c, g ? E_NOT_VALUE : E_UNKNOWN_TYPE, n->loc, "`%s` is not a record type",
            n->name ? n->name : "?");
        for (uint32_t i = 0; i < n->list.len; i++)
            if (n->list.items[i]->a)
                infer(c, n->list.items[i]->a, T_NONE);
        return T_ERROR;
    }
    const res_record *r = &p->records[g->id];
    uint64_t seen = 0;
    bool many = r->nfields > 64;
    for (uint32_t i = 0; i < n->list.len; i++) {
        ast_node *fi = n->list.items[i];
        int32_t f = -1;
        for (size_t j = 0; j < r->nfields; j++)
            if (fi->name && strcmp(r->fields[j].name, fi->name) == 0)
                f = (int32_t)j;
        if (f < 0) {
            err(c, E_NO_FIELD, fi->loc, "record %s has no field `%s`", r->name,
                fi->name ? fi->name : "?");
            if (fi->a)
                infer(c, fi->a, T_NONE);
            continue;
        }
        fi->an.sym_kind = SYM_FIELD;
        fi->an.sym = (uint32_t)f;
        if (!many && (seen >> f & 1))
            err(c, E_RECORD_FIELDS, fi->loc, "field `%s` is given twice", fi->name);
        if (!many)
            seen |= 1ULL << f;
        if (fi->a)
            check(c, fi->a, r->fields[f].type);
    }
    for (size_t j = 0; j < r->nfields && !many; j++)
        if (!(seen >> j & 1))
            err(c, E_RECORD_FIELDS, n->loc, "record %s needs field `%s`", r->name,
                r->fields[j].name);
    if (many)
        err(c, E_LIMIT, n->loc, "records are limited to 64 fields");
    return r->type;
}

static uint32_t agg_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    uint32_t elem = T_ERROR;
    int32_t e = enum_named(c, n->a);
    if (e >= 0) {
        n->a->an.sym_kind = SYM_ENUM_TYPE;
        n->a->an.sym = (uint32_t)e;
        n->a->an.type = set_of(c, p->enums[e].type, n->a->loc);
        elem = n->a->an.type == T_ERROR ? T_ERROR : p->enums[e].type;
    } else {
        uint32_t t = infer(c, n->a, T_NONE);
        if (tkind(p, t) == RT_LIST || tkind(p, t) == RT_SET)
            elem = targ(p, t);
        else if (t != T_ERROR)
            err(c, E_TYPE, n->a->loc, "an aggregate runs over a list, a set or an enum, not a "
                "%s value", tn(p, t).s);
    }
    size_t mark = c->nlocals;
    n->an.slot = push_local(c, n->name, elem, n->loc);
    bool is_int = n->op == AST_AGG_SUM;
    if (n->op == AST_AGG_MAP) {     /* [e for x in L]: the list of the e's */
        uint32_t t = infer(c, n->b, T_NONE);
        c->nlocals = mark;
        return t == T_ERROR ? T_ERROR : intern(c, RT_LIST, t, n->loc);
    }
    if (n->op == AST_AGG_MIN || n->op == AST_AGG_MAX) {    /* ints, or members of one enum */
        uint32_t t = infer(c, n->b, T_NONE);
        c->nlocals = mark;
        if (!orderable(p, t)) {
            err(c, E_TYPE, n->b->loc, "%s() over a collection orders ints or members of one "
                "enum, not %s values", n->op == AST_AGG_MIN ? "min" : "max", tn(p, t).s);
            return T_ERROR;
        }
        return t;
    }
    check(c, n->b, is_int ? T_INT : T_BOOL);
    c->nlocals = mark;
    if (n->op == AST_AGG_FILTER)    /* [x in L: cond]: the list of the members that pass */
        return elem == T_ERROR ? T_ERROR : intern(c, RT_LIST, elem, n->loc);
    return n->op == AST_AGG_ALL || n->op == AST_AGG_ANY ? T_BOOL : T_INT;
}

static uint32_t infer_inner(rctx *c, ast_node *n, uint32_t want)
{
    res_program *p = c->p;
    switch (n->kind) {
    case AST_INT: return T_INT;
    case AST_BOOL: return T_BOOL;
    case AST_FORBID: case AST_PERMIT: return T_VERDICT;
    case AST_SQUARE: return T_SQUARE;
    case AST_UNIT_REF:
        n->an.sym_kind = SYM_UNIT_REF;
        return T_UNIT;
    case AST_NOT_GIVEN:
        err(c, E_NOT_GIVEN, n->loc, "`?` (not given) is only allowed as a table cell");
        return T_ERROR;
    case AST_NAME: return name_expr(c, n, want);
    case AST_FIELD: return field_expr(c, n);
    case AST_CALL: return call_expr(c, n);
    case AST_INDEX: return index_expr(c, n);
    case AST_UNARY:
        if (n->op == AST_OP_NOT) {
            check(c, n->a, T_BOOL);
            return T_BOOL;
        }
        check(c, n->a, T_INT);
        return T_INT;
    case AST_BINARY: return binary_expr(c, n);
    case AST_IF: {
        check(c, n->a, T_BOOL);
        if (want != T_NONE && want != T_ERROR) {
            check(c, n->b, want);
            check(c, n->c, want);
            return want;
        }
        return pair(c, n->b, n->c);
    }
    case AST_LET: {
        uint32_t t = infer(c, n->a, T_NONE);
        size_t mark = c->nlocals;
        n->an.slot = push_local(c, n->name, t, n->loc);
        uint32_t r = infer(c, n->b, want);
        c->nlocals = mark;
        return r;
    }
    case AST_LIST: case AST_SET: return collection_expr(c, n, want);
    case AST_RECORD: return record_expr(c, n);
    case AST_AGG: return agg_expr(c, n);
    case AST_ROLL:
        if (!n->a)
            return T_INT;
        check(c, n->a, T_INT);
        return intern(c, RT_LIST, T_INT, n->loc);
    case AST_VARIANT_REF: {
        name_ent *g = find_name(p->names->globals, n->name);
        if (!g || g->kind != G_VARIANT) {
            err(c, E_UNKNOWN_NAME, n->loc, "unknown variant `%s`", n->name ? n->name : "?");
            return T_ERROR;
        }
        n->an.sym_kind = SYM_VARIANT;
        n->an.sym = (uint32_t)g->id;
        return p->enums[p->variants[g->id].enum_id].type;
    }
    default:
        err(c, E_NOT_VALUE, n->loc, "a %s is not an expression", ast_kind_name(n->kind));
        return T_ERROR;
    }
}

static uint32_t infer(rctx *c, ast_node *n, uint32_t want)
{
    if (!n)
        return T_ERROR;
    n->an.slot = -1;
    uint32_t t = infer_inner(c, n, want);
    n->an.type = t;
    return t;
}

/* ---- constants (table keys and cells, counter items) ---- */

/* Resolves n against want and folds it into *out. `?` is accepted only when allow_absent.
 * Returns false (after reporting) when n is not a constant. */
static bool fold(rctx *c, ast_node *n, uint32_t want, bool allow_absent, res_const *out)
{
    res_program *p = c->p;
    *out = (res_const){ .type = want, .given = true };
    if (n->kind == AST_NOT_GIVEN) {
        if (!allow_absent) {
            err(c, E_NOT_GIVEN, n->loc, "`?` (not given) is only allowed as a table cell");
            return false;
        }
        out->given = false;
        n->an.type = want;
        return true;
    }
    uint32_t t = check(c, n, want);
    if (t == T_ERROR)
        return false;
    switch (n->kind) {
    case AST_INT: case AST_BOOL:
        out->v = n->ival;
        return true;
    case AST_FORBID: out->v = 0; return true;
    case AST_PERMIT: out->v = 1; return true;
    case AST_UNARY:
        if (n->op == AST_OP_NEG && n->a->kind == AST_INT) {
            out->v = -n->a->ival;
            return true;
        }
        break;
    case AST_NAME: case AST_FIELD:
        if (n->an.sym_kind == SYM_MEMBER) {
            out->v = n->an.sym;
            return true;
        }
        break;
    case AST_SET: {
        uint64_t bits = 0;
        for (uint32_t i = 0; i < n->list.len; i++) {
            const ast_node *m = n->list.items[i];
            if (m->an.sym_kind != SYM_MEMBER || m->an.type == T_ERROR)
                goto not_const;
            bits |= 1ULL << m->an.sym;
        }
        out->v = (int64_t)bits;
        return true;
    }
    default:
        break;
    }
not_const:
    err(c, E_CONST, n->loc, "a constant is expected here (a number, true/false, an enum member, "
        "a set of members, forbid/permit)");
    (void)p;
    return false;
}

/* ---- pass 1: declarations ---- */

static uint32_t vocab_enum(ast_op op)
{
    switch (op) {
    case AST_VOCAB_KIND: return E_KIND;
    case AST_VOCAB_SIDE: return E_SIDE;
    case AST_VOCAB_ABILITY: return E_ABILITY;
    case AST_VOCAB_MARKER: return E_MARKER;
    case AST_VOCAB_TERRAIN: return E_TERRAIN;
    case AST_VOCAB_SQUARE_FEATURE: return E_SQUARE_FEATURE;
    case AST_VOCAB_SIDE_FEATURE: return E_SIDE_FEATURE;
    case AST_VOCAB_INTERSPACE_ITEM: return E_INTERSPACE_ITEM;
    case AST_VOCAB_PHASE: return E_PHASE;
    case AST_VOCAB_FACE: return E_FACE;
    default: return E_TOKEN;
    }
}

#define PUSH(c, arr, len, cap, loc) \
    (HON_GROW(arr, len, cap) ? true : (oom(c, loc), false))

static void declare(rctx *c, ast_node *d)
{
    res_program *p = c->p;
    name_ent **g = &p->names->globals;
    switch (d->kind) {
    case AST_VOCAB:
        add_member(c, vocab_enum(d->op), d->name, d->doc, d->ival != 0, d->loc);
        break;
    case AST_VALUE_DECL:
        if (!PUSH(c, p->slots, p->nslots, p->slots_cap, d->loc))
            return;
        if (add_name(c, &p->names->slots, d->name, G_OTHER, (int32_t)p->nslots, d->loc, "value"))
            p->slots[p->nslots++] = (res_slot){ d->name, d->doc, d };
        break;
    case AST_ENUM: {
        int32_t e = new_enum(c, d->name, d->doc, d);
        if (e < 0 || !add_name(c, g, d->name, G_ENUM, e, d->loc, "name"))
            return;
        for (uint32_t i = 0; i < d->list.len; i++) {
            ast_node *m = d->list.items[i];
            add_member(c, (uint32_t)e, m->name, m->doc, false, m->loc);
        }
        break;
    }
    case AST_RECORD_DECL:
        if (!PUSH(c, p->records, p->nrecords, p->records_cap, d->loc))
            return;
        if (add_name(c, g, d->name, G_RECORD, (int32_t)p->nrecords, d->loc, "name")) {
            p->records[p->nrecords] = (res_record){ .name = d->name, .table = -1, .decl = d };
            p->records[p->nrecords].type = intern(c, RT_RECORD, (uint32_t)p->nrecords, d->loc);
            p->nrecords++;
        }
        break;
    case AST_COUNTER:
        if (!PUSH(c, p->counters, p->ncounters, p->counters_cap, d->loc))
            return;
        if (add_name(c, g, d->name, G_COUNTER, (int32_t)p->ncounters, d->loc, "name"))
            p->counters[p->ncounters++] = (res_counter){ d->name, d, -1 };
        break;
    case AST_TABLE:
        if (!PUSH(c, p->tables, p->ntables, p->tables_cap, d->loc))
            return;
        if (add_name(c, g, d->name, G_TABLE, (int32_t)p->ntables, d->loc, "name"))
            p->tables[p->ntables++] = (res_table){ .name = d->name, .decl = d, .record = -1,
                                                   .floor_key = -1 };
        break;
    case AST_FN:
        if (!PUSH(c, p->fns, p->nfns, p->fns_cap, d->loc))
            return;
        if (add_name(c, g, d->name, G_FN, (int32_t)p->nfns, d->loc, "name"))
            p->fns[p->nfns++] = (res_fn){ .name = d->name, .decl = d, .result = T_ERROR };
        break;
    case AST_QUERY:
        if (!PUSH(c, p->queries, p->nqueries, p->queries_cap, d->loc))
            return;
        if (add_name(c, g, d->name, G_QUERY, (int32_t)p->nqueries, d->loc, "name"))
            p->queries[p->nqueries++] = (res_query){ .name = d->name, .decl = d,
                                                     .result = T_ERROR, .mode = d->op,
                                                     .moment = -1 };
        break;
    case AST_EVENT:
        if (!PUSH(c, p->queries, p->nqueries, p->queries_cap, d->loc))
            return;
        if (add_name(c, g, d->name, G_EVENT, (int32_t)p->nqueries, d->loc, "name"))
            p->queries[p->nqueries++] = (res_query){ .name = d->name, .decl = d,
                                                     .result = T_NONE, .is_event = true,
                                                     .moment = -1 };
        break;
    case AST_VARIANT: {
        if (!PUSH(c, p->variants, p->nvariants, p->variants_cap, d->loc))
            return;
        int32_t e = new_enum(c, d->name, d->doc, d);
        if (e < 0 || !add_name(c, g, d->name, G_VARIANT, (int32_t)p->nvariants, d->loc, "name"))
            return;
        p->enums[e].variant = (int32_t)p->nvariants;
        p->variants[p->nvariants++] = (res_variant){ d->name, d->doc, (uint32_t)e, 0, d };
        for (uint32_t i = 0; i < d->list.len; i++) {
            ast_node *r = d->list.items[i];
            add_member(c, (uint32_t)e, r->name, r->doc, false, r->loc);
        }
        break;
    }
    case AST_EDITION:
        if (!PUSH(c, p->editions, p->neditions, p->editions_cap, d->loc))
            return;
        if (add_name(c, &p->names->editions, d->name, G_OTHER, (int32_t)p->neditions, d->loc,
                     "edition"))
            p->editions[p->neditions++] = (res_edition){ .name = d->name, .title = d->title,
                                                         .parent = -1, .decl = d };
        break;
    default:
        break;
    }
}

/* ---- pass 2: signatures ---- */

/* Resolves a parameter list into a new array; E111 on a repeated name. */
static res_field *params_of(rctx *c, const ast_vec *v)
{
    if (!v->len)
        return NULL;
    if (v->len > RES_MAX_ITEMS) {
        err(c, E_LIMIT, v->items[RES_MAX_ITEMS]->loc, "too many parameters or fields (at most %d)",
            RES_MAX_ITEMS);
        return NULL;
    }
    res_field *f = hon_calloc(v->len, sizeof *f);
    if (!f) {
        oom(c, v->items[0]->loc);
        return NULL;
    }
    for (uint32_t i = 0; i < v->len; i++) {
        ast_node *pn = v->items[i];
        f[i] = (res_field){ pn->name ? pn->name : "", type_of(c, pn->a), pn->loc };
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(f[j].name, f[i].name) == 0)
                err(c, E_DUP_ITEM, pn->loc, "`%s` is listed twice", f[i].name);
    }
    return f;
}

static bool cell_type_ok(const res_program *p, uint32_t t)
{
    res_tkind k = tkind(p, t);
    return k == RT_INT || k == RT_BOOL || k == RT_ENUM || k == RT_SET || k == RT_VERDICT ||
           k == RT_ERROR;
}

static void table_signature(rctx *c, res_table *t, int32_t id)
{
    res_program *p = c->p;
    ast_node *d = t->decl;
    t->nkeys = d->params.len;
    if (t->nkeys > RES_MAX_ITEMS) {
        err(c, E_LIMIT, d->loc, "table `%s` has too many keys (at most %d)", t->name,
            RES_MAX_ITEMS);
        t->nkeys = 0;
    }
    t->keys = t->nkeys ? hon_calloc(t->nkeys, sizeof *t->keys) : NULL;
    if (t->nkeys && !t->keys) {
        oom(c, d->loc);
        t->nkeys = 0;
    }
    for (uint32_t i = 0; i < t->nkeys; i++) {
        ast_node *k = d->params.items[i];
        uint32_t ty = type_of(c, k->a);
        t->keys[i] = (res_key){ k->name ? k->name : "", ty, k->ival != 0 };
        if (ty != T_ERROR && ty != T_INT && !is_enum_type(p, ty))
            err(c, E_KEY_DECL, k->loc, "a table key is an enum or an int, not %s", tn(p, ty).s);
        if (t->keys[i].floor && ty != T_INT && ty != T_ERROR)
            err(c, E_KEY_DECL, k->loc, "only an int key can be `floor`");
        if (t->keys[i].floor) {
            if (t->floor_key >= 0)
                err(c, E_KEY_DECL, k->loc, "a table has at most one `floor` key");
            else
                t->floor_key = (int32_t)i;
        }
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(t->keys[j].name, t->keys[i].name) == 0)
                err(c, E_DUP_ITEM, k->loc, "key `%s` is listed twice", t->keys[i].name);
    }
    if (d->list2.len) {
        t->cols = params_of(c, &d->list2);
        t->ncols = t->cols ? d->list2.len : 0;
    } else {
        t->single = true;
        t->cols = hon_calloc(1, sizeof *t->cols);
        if (!t->cols) {
            oom(c, d->loc);
            return;
        }
        t->ncols = 1;
        t->cols[0] = (res_field){ "", type_of(c, d->a), d->a ? d->a->loc : d->loc };
    }
    for (uint32_t i = 0; i < t->ncols; i++)
        if (!cell_type_ok(p, t->cols[i].type))
            err(c, E_CELL_TYPE, t->cols[i].loc, "a table cell holds an int, a bool, an enum "
                "member, a set or a verdict, not %s", tn(p, t->cols[i].type).s);
    if (t->single) {
        t->result = t->ncols ? t->cols[0].type : T_ERROR;
        return;
    }
    /* A multi-column lookup gives a record whose fields are the columns. */
    if (!PUSH(c, p->records, p->nrecords, p->records_cap, d->loc))
        return;
    res_record *r = &p->records[p->nrecords];
    *r = (res_record){ .name = t->name, .table = id, .decl = d };
    r->fields = hon_calloc(t->ncols ? t->ncols : 1, sizeof *r->fields);
    if (!r->fields) {
        oom(c, d->loc);
        return;
    }
    memcpy(r->fields, t->cols, t->ncols * sizeof *r->fields);
    r->nfields = t->ncols;
    r->type = intern(c, RT_RECORD, (uint32_t)p->nrecords, d->loc);
    t->record = (int32_t)p->nrecords;
    t->result = r->type;
    p->nrecords++;
}

static void signature(rctx *c, ast_node *d)
{
    res_program *p = c->p;
    name_ent *g = find_name(p->names->globals, d->name);
    switch (d->kind) {
    case AST_RECORD_DECL:
        if (g && g->kind == G_RECORD && p->records[g->id].decl == d) {
            res_field *f = params_of(c, &d->list);
            p->records[g->id].fields = f;
            p->records[g->id].nfields = f ? d->list.len : 0;
        }
        break;
    case AST_FN:
        if (g && g->kind == G_FN && p->fns[g->id].decl == d) {
            res_fn *f = &p->fns[g->id];
            f->params = params_of(c, &d->params);
            f->nparams = f->params ? d->params.len : 0;
            f->result = type_of(c, d->a);
        }
        break;
    case AST_QUERY:
        if (g && g->kind == G_QUERY && p->queries[g->id].decl == d) {
            res_query *q = &p->queries[g->id];
            q->params = params_of(c, &d->params);
            q->nparams = q->params ? d->params.len : 0;
            q->result = type_of(c, d->a);
        }
        break;
    case AST_TABLE:
        if (g && g->kind == G_TABLE && p->tables[g->id].decl == d)
            table_signature(c, &p->tables[g->id], g->id);
        break;
    case AST_EVENT:
        if (g && g->kind == G_EVENT && p->queries[g->id].decl == d) {
            res_query *q = &p->queries[g->id];
            q->params = params_of(c, &d->params);
            q->nparams = q->params ? d->params.len : 0;
        }
        break;
    case AST_VARIANT:
        if (g && g->kind == G_VARIANT && p->variants[g->id].decl == d) {
            res_variant *v = &p->variants[g->id];
            int defaults = 0;
            for (uint32_t i = 0; i < d->list.len; i++) {
                ast_node *r = d->list.items[i];
                if (!r->ival)
                    continue;
                if (++defaults == 2)
                    err(c, E_DEFAULTS, r->loc, "variant `%s` has a second default reading",
                        d->name);
                else {
                    int32_t m = res_find_member(&p->enums[v->enum_id], r->name);
                    v->dflt = m < 0 ? 0 : (uint32_t)m;
                }
            }
            if (defaults == 0)
                err(c, E_DEFAULTS, d->loc, "variant `%s` needs exactly one `default` reading",
                    d->name);
        }
        break;
    default:
        break;
    }
}

/* ---- pass 3: bodies ---- */

static void counter_body(rctx *c, res_counter *rc)
{
    res_program *p = c->p;
    ast_node *d = rc->decl;
    int32_t u = rc->unit;
    int32_t kind = res_find_member(&p->enums[E_KIND], d->ref);
    if (kind < 0)
        err(c, E_UNKNOWN_NAME, d->loc, "unknown unit kind `%s` (declare it with `kind %s;`)",
            d->ref ? d->ref : "?", d->ref ? d->ref : "?");
    else
        p->units->units[u].kind = kind;
    bool seen_side = false, seen_size = false, seen_ab = false, seen_mk = false;
    for (uint32_t i = 0; i < d->list.len; i++) {
        ast_node *it = d->list.items[i];
        const char *nm = it->name ? it->name : "";
        res_const k;
        bool *seen = NULL;
        if (strcmp(nm, "side") == 0)
            seen = &seen_side;
        else if (strcmp(nm, "size") == 0)
            seen = &seen_size;
        else if (strcmp(nm, "abilities") == 0)
            seen = &seen_ab;
        else if (strcmp(nm, "markers") == 0)
            seen = &seen_mk;
        if (seen && *seen)
            err(c, E_DUP_ITEM, it->loc, "`%s` is given twice", nm);
        if (seen)
            *seen = true;
        if (strcmp(nm, "side") == 0) {
            if (it->a && fold(c, it->a, p->enums[E_SIDE].type, false, &k))
                p->units->units[u].side = (int32_t)k.v;
        } else if (strcmp(nm, "size") == 0) {
            if (it->a && fold(c, it->a, T_INT, false, &k)) {
                if (k.v != 1 && k.v != 2)
                    err(c, E_COUNTER, it->loc, "a counter covers 1 or 2 squares, not %" PRId64,
                        k.v);
                else
                    p->units->units[u].size = (uint32_t)k.v;
            }
        } else if (strcmp(nm, "abilities") == 0 || strcmp(nm, "markers") == 0) {
            bool ab = nm[0] == 'a';
            uint32_t eid = ab ? E_ABILITY : E_MARKER;
            for (uint32_t j = 0; j < it->list.len; j++) {
                ast_node *en = it->list.items[j];
                int32_t m = res_find_member(&p->enums[eid], en->name);
                if (m < 0) {
                    err(c, E_UNKNOWN_NAME, en->loc, "unknown %s `%s`", ab ? "ability" : "marker",
                        en->name ? en->name : "?");
                    continue;
                }
                int64_t v = ab ? 0 : 1;
                if (en->a && fold(c, en->a, T_INT, false, &k))
                    v = k.v;
                if (ab) {
                    bool carries = p->enums[eid].members[m].carries_int;
                    if (carries && !en->a)
                        err(c, E_COUNTER, en->loc, "ability `%s` carries a number: write `%s N`",
                            en->name, en->name);
                    else if (!carries && en->a)
                        err(c, E_COUNTER, en->loc, "ability `%s` carries no number (declare it "
                            "`ability %s: int`)", en->name, en->name);
                    if (unit_has_ability(p->units, u, (uint32_t)m))
                        err(c, E_DUP_ITEM, en->loc, "ability `%s` is listed twice", en->name);
                    unit_set_ability(p->units, u, (uint32_t)m, v);
                } else {
                    if (v < 1 || v > 1000000) {
                        err(c, E_COUNTER, en->loc, "a marker count is between 1 and 1000000");
                        continue;
                    }
                    unit_add_marker(p->units, u, (uint32_t)m, (uint32_t)v);
                }
            }
        } else {
            name_ent *s = find_name(p->names->slots, nm);
            if (!s) {
                err(c, E_UNKNOWN_NAME, it->loc, "unknown value `%s` (declare it with `value %s;`)",
                    nm, nm);
                continue;
            }
            int64_t old;
            if (unit_get_value(p->units, u, (uint32_t)s->id, &old))
                err(c, E_DUP_ITEM, it->loc, "`%s` is given twice", nm);
            if (it->a && fold(c, it->a, T_INT, false, &k))
                unit_set_value(p->units, u, (uint32_t)s->id, k.v);
        }
    }
}

/* A stable bottom-up merge sort (qsort is neither stable nor given a context). false on OOM. */
typedef int (*sort_cmp)(const void *a, const void *b, const void *ctx);

static bool msort(void *base, size_t n, size_t size, sort_cmp cmp, const void *ctx)
{
    if (n < 2)
        return true;
    unsigned char *a = base, *tmp = hon_malloc(n * size);
    if (!tmp)
        return false;
    unsigned char *src = a, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (cmp(src + j * size, src + i * size, ctx) < 0)
                    memcpy(dst + k++ * size, src + j++ * size, size);
                else
                    memcpy(dst + k++ * size, src + i++ * size, size);
            }
            while (i < mid)
                memcpy(dst + k++ * size, src + i++ * size, size);
            while (j < hi)
                memcpy(dst + k++ * size, src + j++ * size, size);
        }
        unsigned char *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * size);
    hon_free(tmp);
    return true;
}

static int cmp_const(const res_const *a, const res_const *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].v != b[i].v)
            return a[i].v < b[i].v ? -1 : 1;
    return 0;
}

/* Writes "(k1, k2)" — the key members or numbers of a row — into buf. */
static void keys_text(const res_program *p, const res_table *t, const int64_t *keys, char *buf,
                      size_t cap)
{
    size_t off = 0;
    for (uint32_t i = 0; i < t->nkeys && off + 1 < cap; i++) {
        uint32_t ty = t->keys[i].type;
        int w;
        if (is_enum_type(p, ty) && keys[i] >= 0 && (size_t)keys[i] < p->enums[targ(p, ty)].len)
            w = snprintf(buf + off, cap - off, "%s%s", i ? ", " : "",
                         p->enums[targ(p, ty)].members[keys[i]].name);
        else
            w = snprintf(buf + off, cap - off, "%s%" PRId64, i ? ", " : "", keys[i]);
        if (w < 0)
            break;
        off += (size_t)w;
    }
}

static int cmp_rows(const void *a, const void *b, const void *ctx)
{
    const res_table *t = ctx;
    return cmp_const(((const res_row *)a)->keys, ((const res_row *)b)->keys, t->nkeys);
}

static void table_body(rctx *c, res_table *t)
{
    res_program *p = c->p;
    ast_node *d = t->decl;
    if (!d->list.len) {
        t->rows = NULL;
    } else {
        t->rows = hon_calloc(d->list.len, sizeof *t->rows);
        if (!t->rows) {
            oom(c, d->loc);
            return;
        }
    }
    bool keys_ok_all = true;
    for (uint32_t i = 0; i < d->list.len; i++) {
        ast_node *rn = d->list.items[i];
        if (rn->params.len != t->nkeys) {
            err(c, E_ROW_SHAPE, rn->loc, "this row has %u key%s; table `%s` has %u",
                rn->params.len, rn->params.len == 1 ? "" : "s", t->name, t->nkeys);
            keys_ok_all = false;
            continue;
        }
        if (rn->list.len != t->ncols) {
            err(c, E_ROW_SHAPE, rn->loc, "this row has %u cell%s; table `%s` has %u column%s",
                rn->list.len, rn->list.len == 1 ? "" : "s", t->name, t->ncols,
                t->ncols == 1 ? "" : "s");
            keys_ok_all = false;
            continue;
        }
        res_row row = { .node = rn };
        row.keys = hon_calloc(t->nkeys + t->ncols + 1, sizeof *row.keys);
        if (!row.keys) {
            oom(c, rn->loc);
            return;
        }
        row.cells = row.keys + t->nkeys;
        bool ok = true;
        for (uint32_t k = 0; k < t->nkeys; k++)
            ok &= fold(c, rn->params.items[k], t->keys[k].type, false, &row.keys[k]);
        for (uint32_t k = 0; k < t->ncols; k++)
            fold(c, rn->list.items[k], t->cols[k].type, true, &row.cells[k]);
        if (!ok) {
            hon_free(row.keys);
            keys_ok_all = false;
            continue;
        }
        t->rows[t->nrows++] = row;
    }
    /* Rows in key order (stable: equal keys keep declaration order), then duplicates: each
     * row equal to the one before it is reported and dropped. */
    if (!msort(t->rows, t->nrows, sizeof *t->rows, cmp_rows, t)) {
        oom(c, d->loc);
        return;
    }
    size_t kept = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        if (kept && cmp_const(t->rows[kept - 1].keys, t->rows[r].keys, t->nkeys) == 0) {
            diag *dg = diag_report(c->d, E_DUP_ROW, DIAG_ERROR, t->rows[r].node->loc,
                                   "table `%s` already has a row for these keys", t->name);
            if (dg)
                diag_relate(dg, t->rows[kept - 1].node->loc, "the first row is here");
            hon_free(t->rows[r].keys);
            continue;
        }
        t->rows[kept++] = t->rows[r];
    }
    t->nrows = kept;
    /* Enum-keyed tables: every combination of members has a row; index them densely. */
    size_t n = 1;
    for (uint32_t k = 0; k < t->nkeys; k++) {
        uint32_t ty = t->keys[k].type;
        if (!is_enum_type(p, ty))
            return;
        size_t len = p->enums[targ(p, ty)].len;
        if (len == 0 || n > DENSE_MAX / len)
            return;
        n *= len;
    }
    if (!keys_ok_all || t->nkeys == 0 || t->nkeys > 64)
        return;
    t->dense = hon_malloc(n * sizeof *t->dense);
    if (!t->dense) {
        oom(c, d->loc);
        return;
    }
    t->ndense = n;
    for (size_t i = 0; i < n; i++)
        t->dense[i] = -1;
    for (size_t r = 0; r < t->nrows; r++) {
        size_t idx = 0;
        for (uint32_t k = 0; k < t->nkeys; k++)
            idx = idx * p->enums[targ(p, t->keys[k].type)].len + (size_t)t->rows[r].keys[k].v;
        t->dense[idx] = (int32_t)r;
    }
    size_t missing = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (t->dense[i] < 0 && missing++ == 0)
            first = i;
    if (missing) {
        int64_t keys[64] = { 0 };
        size_t rest = first;
        for (uint32_t k = t->nkeys; k-- > 0;) {
            size_t len = p->enums[targ(p, t->keys[k].type)].len;
            if (k < 64)
                keys[k] = (int64_t)(rest % len);
            rest /= len;
        }
        char buf[256];
        keys_text(p, t, keys, buf, sizeof buf);
        if (missing == 1)
            err(c, E_TABLE_MISSING, d->loc, "table `%s` has no row for (%s): write `?` cells "
                "for what the source does not give", t->name, buf);
        else
            err(c, E_TABLE_MISSING, d->loc, "table `%s` has no row for (%s) and %zu more: write "
                "`?` cells for what the source does not give", t->name, buf, missing - 1);
    }
}

/* ---- events: moments and statements (language.md §6) ---- */

static const char *const moment_names[RES_MOMENT_COUNT] = {
    [RES_ON_GIVE] = "give", [RES_ON_TAKE] = "take", [RES_ON_DESTROY] = "destroy",
    [RES_ON_ENTER] = "enter", [RES_ON_WALK_END] = "walk_end",
    [RES_ON_PHASE_START] = "phase_start", [RES_ON_PHASE_END] = "phase_end",
    [RES_ON_TURN_START] = "turn_start",
};

const char *res_moment_name(res_moment m)
{
    return (unsigned)m < RES_MOMENT_COUNT ? moment_names[m] : "?";
}

/* The argument types a moment passes (at most 2), as built-in signature codes. */
static const struct { int n; btype params[2]; const char *text; } moment_params[RES_MOMENT_COUNT] = {
    [RES_ON_GIVE] = { 2, { B_UNIT, B_NONE }, "(unit, marker)" },
    [RES_ON_TAKE] = { 2, { B_UNIT, B_NONE }, "(unit, marker)" },
    [RES_ON_DESTROY] = { 1, { B_UNIT }, "(unit)" },
    [RES_ON_ENTER] = { 2, { B_UNIT, B_SQUARE }, "(unit, square)" },
    [RES_ON_WALK_END] = { 2, { B_UNIT, B_SQUARES }, "(unit, list<square>)" },
    [RES_ON_PHASE_START] = { 1, { B_PHASE }, "(phase)" },
    [RES_ON_PHASE_END] = { 1, { B_PHASE }, "(phase)" },
    [RES_ON_TURN_START] = { 1, { B_INT }, "(int)" },
};

/* Pass 3 for `event NAME(params) on MOMENT`: the moment exists, takes the event's parameter
 * types, and raises no other event. */
static void event_body(rctx *c, ast_node *d)
{
    res_program *p = c->p;
    name_ent *g = find_name(p->names->globals, d->name);
    if (!g || g->kind != G_EVENT || p->queries[g->id].decl != d || !d->ref)
        return;
    int m = -1;
    for (int i = 0; i < RES_MOMENT_COUNT; i++)
        if (strcmp(moment_names[i], d->ref) == 0)
            m = i;
    if (m < 0) {
        err(c, E_MOMENT, d->loc, "unknown moment `%s` (the engine raises events on give, take, "
            "destroy, enter, walk_end, phase_start, phase_end and turn_start)", d->ref);
        return;
    }
    res_query *q = &p->queries[g->id];
    bool fits = q->nparams == (uint32_t)moment_params[m].n;
    for (uint32_t i = 0; fits && i < q->nparams; i++) {
        uint32_t want = moment_params[m].params[i] == B_NONE
                            ? p->enums[m == RES_ON_GIVE || m == RES_ON_TAKE ? E_MARKER : E_KIND].type
                            : btype_id(c, moment_params[m].params[i], d->loc);
        fits = q->params[i].type == want || q->params[i].type == T_ERROR;
    }
    if (!fits) {
        err(c, E_MOMENT, d->loc, "an event raised on `%s` takes %s", d->ref,
            moment_params[m].text);
        return;
    }
    if (p->moments[m] >= 0) {
        diag *dg = diag_report(c->d, E_TWO_MOMENTS, DIAG_ERROR, d->loc, "event `%s` is raised "
                               "on `%s`, like `%s`: one event per moment",
                               d->name, d->ref, p->queries[p->moments[m]].name);
        if (dg)
            diag_relate(dg, p->queries[p->moments[m]].decl->loc, "`%s` is declared here",
                        p->queries[p->moments[m]].name);
        return;
    }
    p->moments[m] = g->id;
    q->moment = m;
}

/* Checks the arguments of `EVENT(args)` (an AST_CALL or a `raise` statement's list) against
 * the event's parameters and annotates the node; returns the event id or -1. */
static int32_t raise_args(rctx *c, ast_node *n, ast_vec *args)
{
    res_program *p = c->p;
    name_ent *g = find_name(p->names->globals, n->name);
    if (!g || g->kind != G_EVENT) {
        if (g)
            err(c, E_NOT_EVENT, n->loc, "`%s` is %s, not an event", n->name, gkind_text(g->kind));
        else
            err(c, E_NOT_EVENT, n->loc, "unknown event `%s` (declare it with `event %s(...);`)",
                n->name ? n->name : "?", n->name ? n->name : "?");
        for (uint32_t i = 0; i < args->len; i++)
            infer(c, args->items[i], T_NONE);
        return -1;
    }
    const res_query *q = &p->queries[g->id];
    n->an.sym_kind = SYM_EVENT;
    n->an.sym = (uint32_t)g->id;
    if (args->len != q->nparams) {
        err(c, E_ARITY, n->loc, "event `%s` takes %u argument%s, not %u", q->name, q->nparams,
            q->nparams == 1 ? "" : "s", args->len);
        for (uint32_t i = 0; i < args->len; i++)
            infer(c, args->items[i], T_NONE);
        return -1;
    }
    for (uint32_t i = 0; i < q->nparams; i++)
        check(c, args->items[i], q->params ? q->params[i].type : T_ERROR);
    return g->id;
}

static void stmt(rctx *c, ast_node *s);

/* A block: its lets and loop variables are visible until its end (their slots are not
 * reused, so a frame holds every slot of the rule). */
static void block(rctx *c, ast_node *b)
{
    if (!b)
        return;
    size_t mark = c->nlocals;
    for (uint32_t i = 0; i < b->list.len; i++)
        if (b->list.items[i])
            stmt(c, b->list.items[i]);
    c->nlocals = mark;
}

/* The element type of what `for` or `choose` runs over: a list, a set or an enum's name. */
static uint32_t elements_of(rctx *c, ast_node *coll)
{
    res_program *p = c->p;
    int32_t e = enum_named(c, coll);
    if (e >= 0) {
        coll->an.sym_kind = SYM_ENUM_TYPE;
        coll->an.sym = (uint32_t)e;
        coll->an.type = set_of(c, p->enums[e].type, coll->loc);
        return coll->an.type == T_ERROR ? T_ERROR : p->enums[e].type;
    }
    uint32_t t = infer(c, coll, T_NONE);
    if (tkind(p, t) == RT_LIST || tkind(p, t) == RT_SET)
        return targ(p, t);
    if (t != T_ERROR)
        err(c, E_TYPE, coll->loc, "expected a list, a set or an enum, found %s", tn(p, t).s);
    return T_ERROR;
}

static void stmt(rctx *c, ast_node *s)
{
    res_program *p = c->p;
    s->an.slot = -1;
    switch (s->op) {
    case AST_ST_GIVE:
    case AST_ST_TAKE:
        check(c, s->a, T_UNIT);
        check(c, s->b, p->enums[E_MARKER].type);
        if (s->c)
            check(c, s->c, T_INT);
        break;
    case AST_ST_FLIP: {
        uint32_t t = infer(c, s->a, T_NONE);
        if (t != T_UNIT && t != T_ELEMENT && t != T_ERROR)
            err(c, E_TYPE, s->a->loc, "`flip` turns a unit or a terrain element over, not a %s "
                "value", tn(p, t).s);
        s->an.sym = t == T_ELEMENT;
        check(c, s->b, p->enums[E_FACE].type);
        break;
    }
    case AST_ST_SET:
        infer(c, s->a, T_NONE);
        if (s->a->an.type != T_ERROR && s->a->an.sym_kind != SYM_UNIT_VALUE)
            err(c, E_TYPE, s->a->loc, "`set` changes a unit's value (one declared with `value`); "
                "`%s` is not one", s->a->name ? s->a->name : "?");
        check(c, s->b, T_INT);
        break;
    case AST_ST_DESTROY:
        check(c, s->a, T_UNIT);
        break;
    case AST_ST_MOVE:
        check(c, s->a, T_UNIT);
        check(c, s->b, T_SQUARE);
        if (s->c)
            check(c, s->c, T_SQUARE);
        break;
    case AST_ST_EMBARK:
        check(c, s->a, T_UNIT);
        check(c, s->b, T_UNIT);
        break;
    case AST_ST_DISEMBARK:
        check(c, s->a, T_UNIT);
        check(c, s->b, T_SQUARE);
        break;
    case AST_ST_PLACE:
    case AST_ST_REMOVE: {
        uint32_t t = infer(c, s->a, T_NONE);
        bool near = s->ival != 0;
        if (t == T_ERROR) {
            infer(c, s->b, T_NONE);
        } else if (t == p->enums[E_SQUARE_FEATURE].type && !near) {
            s->an.sym = 0;
            check(c, s->b, T_SQUARE);
        } else if (t == p->enums[E_SIDE_FEATURE].type && !near) {
            s->an.sym = 1;
            check(c, s->b, T_SIDE);
        } else if (t == p->enums[E_INTERSPACE_ITEM].type && near && s->op == AST_ST_REMOVE) {
            s->an.sym = 2;
            check(c, s->b, T_SQUARE);
        } else {
            err(c, E_TYPE, s->a->loc, "`%s` takes a square_feature `at` a square, a side_feature "
                "`at` a square_side%s, not a %s value%s", s->op == AST_ST_PLACE ? "place" : "remove",
                s->op == AST_ST_REMOVE ? " or an interspace_item `near` a square" : "",
                tn(p, t).s, near ? " `near` a square" : "");
            infer(c, s->b, T_NONE);
        }
        break;
    }
    case AST_ST_RAISE:
        raise_args(c, s, &s->list);
        break;
    case AST_ST_LET: {
        uint32_t t = infer(c, s->a, T_NONE);
        s->an.slot = push_local(c, s->name, t, s->loc);
        s->an.type = t;
        return;
    }
    case AST_ST_CHOOSE: {
        uint32_t elem = elements_of(c, s->a);
        check(c, s->b, p->enums[E_SIDE].type);
        s->an.slot = push_local(c, s->name, elem, s->loc);
        s->an.type = elem;
        return;
    }
    case AST_ST_IF:
        check(c, s->a, T_BOOL);
        block(c, s->b);
        if (s->c && s->c->kind == AST_BLOCK)
            block(c, s->c);
        else if (s->c)
            stmt(c, s->c);
        break;
    case AST_ST_FOR: {
        uint32_t elem = elements_of(c, s->a);
        size_t mark = c->nlocals;
        s->an.slot = push_local(c, s->name, elem, s->loc);
        block(c, s->b);
        c->nlocals = mark;
        break;
    }
    case AST_ST_NOTE:
    case AST_ST_FAIL:
        break;
    default:
        err(c, E_NOT_VALUE, s->loc, "not a statement");
        break;
    }
}

/* Creates the res_rule of an AST_RULE and resolves its clauses with the query's parameters in
 * scope. Stores the rule id in d->an.sym (UINT32_MAX when the query is unknown). */
static void rule_body(rctx *c, ast_node *d, int32_t edition)
{
    res_program *p = c->p;
    d->an.sym = UINT32_MAX;
    name_ent *g = find_name(p->names->globals, d->ref);
    if (!g || (g->kind != G_QUERY && g->kind != G_EVENT)) {
        err(c, E_NO_QUERY, d->loc, "rule `%s` is for `%s`, which is not a query or an event",
            d->name ? d->name : "?", d->ref ? d->ref : "?");
        return;
    }
    if (g->kind == G_EVENT && !d->c)
        err(c, E_RULE_KIND, d->loc, "a rule of event `%s` has effects, not an answer: write "
            "`do { ... };`", d->ref);
    else if (g->kind == G_QUERY && d->c)
        err(c, E_RULE_KIND, d->loc, "a rule of query `%s` gives an answer, not effects: write "
            "`answer EXPR;`", d->ref);
    if (!PUSH(c, p->rules, p->nrules, p->rules_cap, d->loc))
        return;
    const res_query *q = &p->queries[g->id];
    uint32_t id = (uint32_t)p->nrules++;
    res_rule *r = &p->rules[id];
    *r = (res_rule){ .name = d->name, .short_name = d->name2 ? d->name2 : d->name,
                     .query = (uint32_t)g->id, .decl = d, .priority = d->ival,
                     .edition = edition, .replaces = d->op == AST_EDIT_REPLACE, .seq = c->seq++ };
    d->an.sym = id;
    if (edition < 0) {
        name_ent *old = find_name(p->names->rules, d->name);
        if (old) {
            diag *dg = diag_report(c->d, E_DUPLICATE, DIAG_ERROR, d->loc,
                                   "rule `%s` is already declared", d->name);
            if (dg)
                diag_relate(dg, old->loc, "the first `%s` is here", d->name);
        } else {
            add_name(c, &p->names->rules, d->name, G_OTHER, (int32_t)id, d->loc, "rule");
        }
    } else if (!find_name(p->names->rules, d->name)) {
        add_name(c, &p->names->rules, d->name, G_OTHER, (int32_t)id, d->loc, "rule");
    }
    begin_body(c);
    for (uint32_t i = 0; i < q->nparams; i++)
        push_local(c, q->params[i].name, q->params[i].type, d->loc);
    for (uint32_t i = 0; i < d->list.len; i++) {
        ast_node *l = d->list.items[i];
        uint32_t t = infer(c, l->a, T_NONE);
        l->an.slot = push_local(c, l->name, t, l->loc);
        l->an.type = t;
    }
    if (d->a)
        check(c, d->a, T_BOOL);
    if (d->c)
        block(c, d->c);
    else if (d->b)
        check(c, d->b, q->mode == AST_COMBINE_PERMISSION ? T_VERDICT : q->result);
    p->rules[id].nlocals = c->next_slot;
}

static void query_body(rctx *c, res_query *q)
{
    res_program *p = c->p;
    ast_node *d = q->decl;
    uint32_t need = T_NONE;
    const char *mode = "first";
    switch (q->mode) {
    case AST_COMBINE_SUM: need = T_INT; mode = "sum"; break;
    case AST_COMBINE_MIN: need = T_INT; mode = "min"; break;
    case AST_COMBINE_MAX: need = T_INT; mode = "max"; break;
    case AST_COMBINE_ALL: need = T_BOOL; mode = "all"; break;
    case AST_COMBINE_ANY: need = T_BOOL; mode = "any"; break;
    case AST_COMBINE_PERMISSION: need = T_VERDICT; mode = "permission"; break;
    default: break;
    }
    /* min and max order ints, and the members of one enum by declaration order (the VM's
     * driver compares payloads: a member's payload is its index) */
    bool ordered = q->mode == AST_COMBINE_MIN || q->mode == AST_COMBINE_MAX;
    if (ordered && q->result != T_ERROR && !orderable(p, q->result))
        err(c, E_MODE, d->loc, "a `combine %s` query answers an int or an enum member, not %s",
            mode, tn(p, q->result).s);
    else if (!ordered && need != T_NONE && q->result != T_ERROR && q->result != need)
        err(c, E_MODE, d->loc, "a `combine %s` query answers %s, not %s", mode, tn(p, need).s,
            tn(p, q->result).s);
    if (!d->b)
        return;
    if (q->mode == AST_COMBINE_ALL || q->mode == AST_COMBINE_ANY ||
        q->mode == AST_COMBINE_PERMISSION) {
        err(c, E_DEFAULT, d->b->loc, "a `combine %s` query has no default: with no rule firing "
            "it answers %s", mode, q->mode == AST_COMBINE_ANY ? "false"
                                   : q->mode == AST_COMBINE_ALL ? "true" : "permit");
        return;
    }
    q->dflt = d->b;
    begin_body(c);
    for (uint32_t i = 0; i < q->nparams; i++)
        push_local(c, q->params[i].name, q->params[i].type, d->loc);
    check(c, d->b, q->result);
    q->dflt_nlocals = c->next_slot;
}

static void fn_body(rctx *c, res_fn *f)
{
    begin_body(c);
    for (uint32_t i = 0; i < f->nparams; i++)
        push_local(c, f->params[i].name, f->params[i].type, f->decl->loc);
    check(c, f->decl->b, f->result);
    f->nlocals = c->next_slot;
}

static int32_t edition_named(rctx *c, const char *name, ast_loc loc)
{
    name_ent *e = find_name(c->p->names->editions, name);
    if (!e)
        err(c, E_NO_EDITION, loc, "unknown edition `%s`", name ? name : "?");
    return e ? e->id : -1;
}

/* Resolves `set variant V = R`; returns the variant id and stores the reading, or -1. */
static int32_t set_variant(rctx *c, ast_node *s, int32_t *reading)
{
    res_program *p = c->p;
    name_ent *g = find_name(p->names->globals, s->name);
    if (!g || g->kind != G_VARIANT) {
        err(c, E_UNKNOWN_NAME, s->loc, "unknown variant `%s`", s->name ? s->name : "?");
        return -1;
    }
    const res_variant *v = &p->variants[g->id];
    *reading = res_find_member(&p->enums[v->enum_id], s->ref);
    if (*reading < 0) {
        err(c, E_READING, s->loc, "variant `%s` has no reading `%s`", v->name,
            s->ref ? s->ref : "?");
        return -1;
    }
    return g->id;
}

static void edition_body(rctx *c, ast_node *d)
{
    res_program *p = c->p;
    name_ent *e = find_name(p->names->editions, d->name);
    int32_t id = e && p->editions[e->id].decl == d ? e->id : -1;
    if (id >= 0 && d->ref)
        p->editions[id].parent = edition_named(c, d->ref, d->loc);
    /* `set variant` items are checked with the rule sets (pass 4). */
    for (uint32_t i = 0; i < d->list.len; i++) {
        ast_node *it = d->list.items[i];
        if (it->kind == AST_RULE)
            rule_body(c, it, id < 0 ? INT32_MAX : id);
    }
}

/* `dice [..]`: constant faces 1..6 (E165). */
static void test_dice(rctx *c, res_test *t, ast_node *set)
{
    t->has_dice = true;
    if (!set->list.len)
        return;
    t->dice = hon_malloc(set->list.len);
    if (!t->dice) {
        oom(c, set->loc);
        return;
    }
    for (uint32_t k = 0; k < set->list.len; k++) {
        ast_node *f = set->list.items[k];
        infer(c, f, T_INT);
        if (f->kind != AST_INT || f->ival < 1 || f->ival > 6) {
            err(c, E_DIE, f->loc, "a die face is a number from 1 to 6");
            continue;
        }
        t->dice[t->ndice++] = (uint8_t)f->ival;
    }
}

static void test_body(rctx *c, ast_node *d)
{
    res_program *p = c->p;
    if (!PUSH(c, p->tests, p->ntests, p->tests_cap, d->loc))
        return;
    res_test *t = &p->tests[p->ntests++];
    *t = (res_test){ .title = d->title ? d->title : "", .decl = d, .file = d->loc.file,
                     .edition = -1, .board = d->name2 };
    if (d->ref)
        t->edition = edition_named(c, d->ref, d->loc);
    if (p->nvariants) {
        t->variant_set = hon_malloc(p->nvariants * sizeof *t->variant_set);
        if (!t->variant_set) {
            oom(c, d->loc);
            return;
        }
        for (size_t i = 0; i < p->nvariants; i++)
            t->variant_set[i] = -1;
    }
    for (uint32_t i = 0; i < d->params.len; i++) {
        ast_node *set = d->params.items[i];
        if (set->kind == AST_TEST_DICE) {
            test_dice(c, t, set);
            continue;
        }
        if (set->kind == AST_TEST_CHOICES) {
            t->choices = set;
            for (uint32_t k = 0; k < set->list.len; k++) {
                begin_body(c);
                infer(c, set->list.items[k], T_NONE);
                if (c->next_slot > t->choices_nlocals)
                    t->choices_nlocals = c->next_slot;
            }
            continue;
        }
        if (set->kind != AST_SET_VARIANT)
            continue;       /* the board: t->board */
        int32_t r, v = set_variant(c, set, &r);
        if (v >= 0 && t->variant_set)
            t->variant_set[v] = r;
    }
    if (d->list.len) {
        t->expects = hon_calloc(d->list.len, sizeof *t->expects);
        if (!t->expects) {
            oom(c, d->loc);
            return;
        }
    }
    for (uint32_t i = 0; i < d->list.len; i++) {
        ast_node *x = d->list.items[i];
        begin_body(c);
        switch (x->kind) {
        case AST_TEST_DO:
            raise_args(c, x->a, &x->a->list);
            t->plays = true;
            break;
        case AST_TEST_ADVANCE: {
            int32_t m = res_find_member(&p->enums[E_PHASE], x->name);
            if (m < 0)
                err(c, E_UNKNOWN_NAME, x->loc, "unknown phase `%s` (declare it with `phase %s;`)",
                    x->name ? x->name : "?", x->name ? x->name : "?");
            x->an.sym = m < 0 ? 0 : (uint32_t)m;
            t->plays = true;
            break;
        }
        case AST_TEST_MOVE:
            check(c, x->a, T_UNIT);
            check(c, x->b, intern(c, RT_LIST, T_SQUARE, x->loc));
            t->plays = true;
            break;
        default:
            if (x->ival)
                infer(c, x->a, T_NONE);
            else
                check(c, x->a, T_BOOL);
        }
        t->expects[t->nexpects++] = (res_expect){ x, c->next_slot };
    }
}

/* ---- pass 4: editions and rule sets ---- */

static bool set_push(rctx *c, res_ruleset *s, uint32_t rule)
{
    if (!HON_GROW(s->rules, s->len, s->cap)) {
        oom(c, (ast_loc){ 0 });
        return false;
    }
    s->rules[s->len++] = rule;
    return true;
}

static int cmp_rule_order(const void *a, const void *b, const void *ctx)
{
    const res_program *p = ctx;
    const res_rule *x = &p->rules[*(const uint32_t *)a], *y = &p->rules[*(const uint32_t *)b];
    if (x->priority != y->priority)
        return x->priority > y->priority ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Orders a rule set: priority higher first, then rule order (seq). */
static void set_sort(rctx *c, res_ruleset *s)
{
    if (!msort(s->rules, s->len, sizeof *s->rules, cmp_rule_order, c->p))
        oom(c, (ast_loc){ 0 });
}

static res_ruleset *sets_new(rctx *c, const res_ruleset *from)
{
    size_t nq = c->p->nqueries;
    res_ruleset *s = hon_calloc(nq ? nq : 1, sizeof *s);
    if (!s) {
        oom(c, (ast_loc){ 0 });
        return NULL;
    }
    for (size_t q = 0; from && q < nq; q++)
        for (size_t i = 0; i < from[q].len; i++)
            if (!set_push(c, &s[q], from[q].rules[i]))
                return s;
    return s;
}

static void sets_free(res_ruleset *s, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        hon_free(s[i].rules);
    hon_free(s);
}

static const char *parent_text(const res_program *p, const res_edition *e)
{
    return e->parent >= 0 ? p->editions[e->parent].name : "the top-level rules";
}

/* Where a rule of an edition's working set is: query and position, by full name. */
typedef struct place {
    const char *key;
    uint32_t q;
    size_t at;
    UT_hash_handle hh;
} place;

static void places_free(place **t)
{
    place *x, *tmp;
    HASH_ITER(hh, *t, x, tmp) {
        HASH_DEL(*t, x);
        hon_free(x);
    }
}

static bool place_add(rctx *c, place **t, const char *name, uint32_t q, size_t at)
{
    place *x = hon_malloc(sizeof *x);
    if (!x) {
        oom(c, (ast_loc){ 0 });
        return false;
    }
    *x = (place){ .key = name, .q = q, .at = at };
    HASH_ADD_KEYPTR(hh, *t, x->key, strlen(x->key), x);
    if (!HON_HASH_ADDED(x)) {
        hon_free(x);
        oom(c, (ast_loc){ 0 });
        return false;
    }
    return true;
}

/* Applies an edition's items to its working sets (a copy of its parent's): `replace`
 * substitutes in place, `remove` leaves a hole (UINT32_MAX) squeezed out at the end, a plain
 * rule is appended. Look-ups go through a name table, so this is linear in the rules. */
static void apply_items(rctx *c, res_edition *e)
{
    res_program *p = c->p;
    place *where = NULL;
    for (uint32_t q = 0; q < p->nqueries; q++)
        for (size_t i = 0; i < e->sets[q].len; i++)
            if (!place_add(c, &where, p->rules[e->sets[q].rules[i]].name, q, i)) {
                places_free(&where);
                return;
            }
    for (uint32_t i = 0; i < e->decl->list.len; i++) {
        ast_node *it = e->decl->list.items[i];
        if (it->kind == AST_SET_VARIANT) {
            int32_t r, v = set_variant(c, it, &r);
            if (v >= 0 && e->variant_set)
                e->variant_set[v] = r;
            continue;
        }
        if (it->kind != AST_REMOVE && it->kind != AST_RULE)
            continue;
        if (it->kind == AST_RULE && it->an.sym == UINT32_MAX)
            continue;      /* its query is unknown: reported already */
        const char *name = it->name ? it->name : "";
        place *x = NULL;
        HASH_FIND_STR(where, name, x);
        if (it->kind == AST_REMOVE || it->op == AST_EDIT_REPLACE) {
            if (!x) {
                err(c, E_NO_RULE, it->loc, "edition `%s` %s rule `%s`, which does not exist in "
                    "%s", e->name, it->kind == AST_REMOVE ? "removes" : "replaces", name,
                    parent_text(p, e));
                continue;
            }
            uint32_t *slot = &e->sets[x->q].rules[x->at];
            if (it->kind == AST_REMOVE) {
                *slot = UINT32_MAX;
                HASH_DEL(where, x);
                hon_free(x);
            } else {
                p->rules[it->an.sym].seq = p->rules[*slot].seq;
                *slot = it->an.sym;
            }
            continue;
        }
        if (x) {
            diag *dg = diag_report(c->d, E_DUPLICATE, DIAG_ERROR, it->loc,
                                   "edition `%s` adds rule `%s`, which already exists (write "
                                   "`replace rule` to revise it)", e->name, name);
            if (dg)
                diag_relate(dg, p->rules[e->sets[x->q].rules[x->at]].decl->loc,
                            "the existing rule");
            continue;
        }
        uint32_t q = p->rules[it->an.sym].query;
        if (set_push(c, &e->sets[q], it->an.sym))
            place_add(c, &where, name, q, e->sets[q].len - 1);
    }
    places_free(&where);
    for (size_t q = 0; q < p->nqueries; q++) {
        res_ruleset *rs = &e->sets[q];
        size_t kept = 0;
        for (size_t i = 0; i < rs->len; i++)
            if (rs->rules[i] != UINT32_MAX)
                rs->rules[kept++] = rs->rules[i];
        rs->len = kept;
        set_sort(c, rs);
    }
}

static void edition_sets(rctx *c, int32_t id)
{
    res_program *p = c->p;
    res_edition *e = &p->editions[id];
    if (c->edition_state[id] == 2)
        return;
    if (c->edition_state[id] == 1) {
        err(c, E_CYCLE, e->decl->loc, "edition `%s` extends itself through its parents",
            e->name);
        e->parent = -1;
        return;
    }
    c->edition_state[id] = 1;
    if (e->parent >= 0)
        edition_sets(c, e->parent);
    c->edition_state[id] = 2;
    const res_edition *par = e->parent >= 0 ? &p->editions[e->parent] : NULL;
    e->sets = sets_new(c, par ? par->sets : p->base);
    if (p->nvariants) {
        e->variant_set = hon_malloc(p->nvariants * sizeof *e->variant_set);
        if (!e->variant_set) {
            oom(c, e->decl->loc);
            return;
        }
        for (size_t v = 0; v < p->nvariants; v++)
            e->variant_set[v] = par && par->variant_set ? par->variant_set[v] : -1;
    }
    if (e->sets)
        apply_items(c, e);
}

static void rule_sets(rctx *c)
{
    res_program *p = c->p;
    p->base = sets_new(c, NULL);
    if (!p->base)
        return;
    for (size_t r = 0; r < p->nrules; r++)
        if (p->rules[r].edition == -1)
            set_push(c, &p->base[p->rules[r].query], (uint32_t)r);
    for (size_t q = 0; q < p->nqueries; q++)
        set_sort(c, &p->base[q]);
    if (!p->neditions)
        return;
    c->edition_state = hon_calloc(p->neditions, sizeof *c->edition_state);
    if (!c->edition_state) {
        oom(c, (ast_loc){ 0 });
        return;
    }
    for (size_t e = 0; e < p->neditions; e++)
        edition_sets(c, (int32_t)e);
    hon_free(c->edition_state);
    c->edition_state = NULL;
}

/* ---- the program ---- */

static res_program *program_new(rctx *c)
{
    res_program *p = hon_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->default_edition = -1;
    for (int m = 0; m < RES_MOMENT_COUNT; m++)
        p->moments[m] = -1;
    p->names = hon_calloc(1, sizeof *p->names);
    if (!p->names) {
        hon_free(p);
        return NULL;
    }
    c->p = p;
    /* Fixed types, in the order of the T_* ids. */
    static const res_tkind fixed[] = { RT_NONE, RT_INT, RT_BOOL, RT_VERDICT, RT_UNIT, RT_ERROR,
                                       RT_SQUARE, RT_SIDE, RT_ELEMENT };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (res_type_intern(p, fixed[i], 0) != i)
            return NULL;
    static const struct { const char *name; uint32_t t; } tnames[] = {
        { "int", T_INT }, { "bool", T_BOOL }, { "verdict", T_VERDICT }, { "unit", T_UNIT },
        { "square", T_SQUARE }, { "square_side", T_SIDE }, { "element", T_ELEMENT } };
    for (size_t i = 0; i < sizeof tnames / sizeof tnames[0]; i++)
        if (!add_name(c, &p->names->globals, tnames[i].name, G_TYPE, (int32_t)tnames[i].t,
                      (ast_loc){ 0 }, "type"))
            return NULL;
    static const char *const benums[] = { "kind", "side", "ability", "marker", "token",
                                          "terrain", "square_feature", "side_feature",
                                          "interspace_item", "direction", "phase", "face" };
    for (size_t i = 0; i < E_FIRST_FREE; i++) {
        int32_t e = new_enum(c, benums[i], NULL, NULL);
        if (e != (int32_t)i ||
            !add_name(c, &p->names->globals, benums[i], G_ENUM, e, (ast_loc){ 0 }, "enum"))
            return NULL;
    }
    /* direction: fixed members in the order of geo_dir (runtime/geo.h) */
    static const char *const dirs[] = { "north", "northeast", "east", "southeast", "south",
                                        "southwest", "west", "northwest" };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (add_member(c, E_DIRECTION, dirs[i], NULL, false, (ast_loc){ 0 }) != (int32_t)i)
            return NULL;
    /* face: `none`, the face everything shows until it is flipped (RES_FACE_NONE) */
    if (add_member(c, E_FACE, "none", "shows its ordinary face", false, (ast_loc){ 0 })
        != RES_FACE_NONE)
        return NULL;
    /* the record `step` (R_STEP): one step of a traced line */
    static const struct { const char *name; uint32_t t; } sfields[STEP_NFIELDS] = {
        [STEP_SQUARE] = { "square", T_SQUARE }, [STEP_FROM] = { "from", T_SQUARE },
        [STEP_CORNER] = { "corner", T_BOOL }, [STEP_SIDE] = { "side", T_SIDE },
        [STEP_LEFT] = { "left", T_SQUARE }, [STEP_RIGHT] = { "right", T_SQUARE },
        [STEP_INDEX] = { "index", T_INT } };
    if (!HON_GROW(p->records, p->nrecords, p->records_cap))
        return NULL;
    res_record *step = &p->records[R_STEP];
    *step = (res_record){ .name = "step", .table = -1 };
    step->fields = hon_calloc(STEP_NFIELDS, sizeof *step->fields);
    if (!step->fields)
        return NULL;
    for (size_t i = 0; i < STEP_NFIELDS; i++)
        step->fields[i] = (res_field){ sfields[i].name, sfields[i].t, (ast_loc){ 0 } };
    step->nfields = STEP_NFIELDS;
    step->type = intern(c, RT_RECORD, R_STEP, (ast_loc){ 0 });
    p->nrecords = 1;
    if (!add_name(c, &p->names->globals, "step", G_RECORD, R_STEP, (ast_loc){ 0 }, "record"))
        return NULL;
    /* Built-in functions; `terrain` is also the name of an enum, which already holds it. */
    for (size_t i = 0; i < NBUILTINS; i++)
        if (!find_name(p->names->globals, builtins[i].name) &&
            !add_name(c, &p->names->globals, builtins[i].name, G_BUILTIN, (int32_t)i,
                      (ast_loc){ 0 }, "built-in"))
            return NULL;
    return c->oom ? NULL : p;
}

void res_program_free(res_program *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nenums; i++) {
        hon_free(p->enums[i].members);
        struct res_member_index *x, *tmp;
        HASH_ITER(hh, p->enums[i].index, x, tmp) {
            HASH_DEL(p->enums[i].index, x);
            hon_free(x);
        }
    }
    for (size_t i = 0; i < p->nrecords; i++)
        hon_free(p->records[i].fields);
    for (size_t i = 0; i < p->ntables; i++) {
        res_table *t = &p->tables[i];
        hon_free(t->keys);
        hon_free(t->cols);
        for (size_t r = 0; r < t->nrows; r++)
            hon_free(t->rows[r].keys);
        hon_free(t->rows);
        hon_free(t->dense);
    }
    for (size_t i = 0; i < p->nfns; i++)
        hon_free(p->fns[i].params);
    for (size_t i = 0; i < p->nqueries; i++)
        hon_free(p->queries[i].params);
    for (size_t i = 0; i < p->neditions; i++) {
        sets_free(p->editions[i].sets, p->nqueries);
        hon_free(p->editions[i].variant_set);
    }
    for (size_t i = 0; i < p->ntests; i++) {
        hon_free(p->tests[i].variant_set);
        hon_free(p->tests[i].expects);
        hon_free(p->tests[i].dice);
    }
    sets_free(p->base, p->nqueries);
    hon_free(p->types);
    hon_free(p->enums);
    hon_free(p->records);
    hon_free(p->slots);
    hon_free(p->counters);
    hon_free(p->tables);
    hon_free(p->fns);
    hon_free(p->queries);
    hon_free(p->rules);
    hon_free(p->variants);
    hon_free(p->editions);
    hon_free(p->tests);
    unit_pool_free(p->units);
    if (p->names) {
        free_names(&p->names->globals);
        free_names(&p->names->slots);
        free_names(&p->names->editions);
        free_names(&p->names->rules);
        member_ent *m, *mt;
        HASH_ITER(hh, p->names->members, m, mt) {
            HASH_DEL(p->names->members, m);
            hon_free(m->hits);
            hon_free(m);
        }
        type_ent *t, *tt;
        HASH_ITER(hh, p->names->types, t, tt) {
            HASH_DEL(p->names->types, t);
            hon_free(t);
        }
        hon_free(p->names);
    }
    hon_free(p);
}

res_program *res_resolve(ast_file *const *files, size_t nfiles, diag_list *diags)
{
    rctx c = { .d = diags };
    size_t errors0 = diags->errors;
    res_program *p = program_new(&c);
    if (!p) {
        res_program_free(c.p);
        diag_report(diags, E_LIMIT, DIAG_ERROR, (ast_loc){ 0 }, "out of memory while resolving");
        return NULL;
    }
#define EACH_DECL(body)                                                        \
    for (size_t fi = 0; fi < nfiles; fi++)                                     \
        for (uint32_t di = 0; files[fi] && di < files[fi]->decls.len; di++) {  \
            ast_node *d = files[fi]->decls.items[di];                          \
            body;                                                              \
        }
    EACH_DECL(declare(&c, d));
    p->units = unit_pool_new((uint32_t)p->enums[E_ABILITY].len, (uint32_t)p->enums[E_MARKER].len,
                             (uint32_t)p->nslots);
    if (!p->units)
        oom(&c, (ast_loc){ 0 });
    /* Each unit has an array entry per ability, marker and value: bound the product. */
    size_t per_unit = (p->enums[E_ABILITY].len / 64 + 1 + p->enums[E_ABILITY].len + p->nslots +
                       p->nslots / 64 + 1) * 8 + p->enums[E_MARKER].len * 4 + 64;
    if (p->ncounters && per_unit > RES_MAX_UNIT_BYTES / p->ncounters) {
        err(&c, E_LIMIT, p->counters[0].decl->loc, "%zu counters with %zu abilities, %zu markers "
            "and %zu values are too many to hold", p->ncounters, p->enums[E_ABILITY].len,
            p->enums[E_MARKER].len, p->nslots);
        p->ncounters = 0;
    }
    for (size_t i = 0; p->units && i < p->ncounters; i++) {
        p->counters[i].unit = unit_add(p->units, p->counters[i].name, p->counters[i].decl->title);
        if (p->counters[i].unit < 0)
            oom(&c, p->counters[i].decl->loc);
    }
    EACH_DECL(signature(&c, d));
    bool have_default = false;
    EACH_DECL(
        switch (d->kind) {
        case AST_COUNTER: {
            name_ent *g = find_name(p->names->globals, d->name);
            if (g && g->kind == G_COUNTER && p->counters[g->id].decl == d &&
                p->counters[g->id].unit >= 0)
                counter_body(&c, &p->counters[g->id]);
            break;
        }
        case AST_TABLE: {
            name_ent *g = find_name(p->names->globals, d->name);
            if (g && g->kind == G_TABLE && p->tables[g->id].decl == d)
                table_body(&c, &p->tables[g->id]);
            break;
        }
        case AST_FN: {
            name_ent *g = find_name(p->names->globals, d->name);
            if (g && g->kind == G_FN && p->fns[g->id].decl == d)
                fn_body(&c, &p->fns[g->id]);
            break;
        }
        case AST_QUERY: {
            name_ent *g = find_name(p->names->globals, d->name);
            if (g && g->kind == G_QUERY && p->queries[g->id].decl == d)
                query_body(&c, &p->queries[g->id]);
            break;
        }
        case AST_RULE:
            rule_body(&c, d, -1);
            break;
        case AST_EDITION:
            edition_body(&c, d);
            break;
        case AST_DEFAULT_EDITION: {
            int32_t e = edition_named(&c, d->name, d->loc);
            if (have_default)
                err(&c, E_TWO_DEFAULT_EDITIONS, d->loc, "a second `default edition`");
            else if (e >= 0)
                p->default_edition = e;
            have_default = true;
            break;
        }
        case AST_TEST:
            test_body(&c, d);
            break;
        case AST_EVENT:
            event_body(&c, d);
            break;
        default:
            break;
        })
#undef EACH_DECL
    /* Rules added by an edition whose own declaration clashed got edition INT32_MAX: they
     * belong to no rule set. */
    for (size_t r = 0; r < p->nrules; r++)
        if (p->rules[r].edition == INT32_MAX)
            p->rules[r].edition = -2;
    if (!c.oom)
        rule_sets(&c);
    if (!c.oom && !res_cite_resolve(files, nfiles, diags))
        c.oom = true;
    hon_free(c.locals);
    if (c.oom || diags->errors > errors0) {
        res_program_free(p);
        return NULL;
    }
    return p;
}

uint32_t res_expr(res_program *p, ast_node *expr, uint32_t want, diag_list *diags,
                  uint32_t *nlocals)
{
    rctx c = { .p = p, .d = diags };
    size_t errors0 = diags->errors;
    uint32_t t = check(&c, expr, want);
    hon_free(c.locals);
    if (nlocals)
        *nlocals = c.next_slot;
    return diags->errors > errors0 || c.oom ? T_ERROR : t;
}

/* ---- look-ups ---- */

static int32_t find_global(const res_program *p, const char *name, gkind k)
{
    name_ent *g = p ? find_name(p->names->globals, name) : NULL;
    return g && g->kind == k ? g->id : -1;
}

int32_t res_find_query(const res_program *p, const char *name) { return find_global(p, name, G_QUERY); }
int32_t res_find_event(const res_program *p, const char *name) { return find_global(p, name, G_EVENT); }

int32_t res_raise_call(res_program *p, ast_node *call, diag_list *diags, uint32_t *nlocals)
{
    rctx c = { .p = p, .d = diags };
    size_t errors0 = diags->errors;
    int32_t e = -1;
    if (!call || call->kind != AST_CALL) {
        err(&c, E_NOT_EVENT, call ? call->loc : (ast_loc){ 0 }, "a procedure is an event and "
            "its arguments: EVENT(ARG, ...)");
    } else {
        e = raise_args(&c, call, &call->list);
        call->an.type = T_NONE;
    }
    hon_free(c.locals);
    if (nlocals)
        *nlocals = c.next_slot;
    return diags->errors > errors0 || c.oom ? -1 : e;
}
int32_t res_find_fn(const res_program *p, const char *name) { return find_global(p, name, G_FN); }

int32_t res_find_counter(const res_program *p, const char *name)
{
    int32_t c = find_global(p, name, G_COUNTER);
    return c >= 0 ? p->counters[c].unit : -1;
}
int32_t res_find_table(const res_program *p, const char *name) { return find_global(p, name, G_TABLE); }
int32_t res_find_variant(const res_program *p, const char *name) { return find_global(p, name, G_VARIANT); }

int32_t res_find_edition(const res_program *p, const char *name)
{
    name_ent *e = p ? find_name(p->names->editions, name) : NULL;
    return e ? e->id : -1;
}

int32_t res_find_rule(const res_program *p, const char *full_name)
{
    name_ent *e = p ? find_name(p->names->rules, full_name) : NULL;
    return e ? e->id : -1;
}

ast_node *res_find_decl(const res_program *p, const char *name)
{
    name_ent *g = p ? find_name(p->names->globals, name) : NULL;
    if (!g) {
        int32_t e = res_find_edition(p, name);
        return e >= 0 ? p->editions[e].decl : NULL;
    }
    switch (g->kind) {
    case G_ENUM: return p->enums[g->id].decl;
    case G_RECORD: return p->records[g->id].decl;
    case G_VARIANT: return p->variants[g->id].decl;
    case G_COUNTER: return p->counters[g->id].decl;
    case G_TABLE: return p->tables[g->id].decl;
    case G_FN: return p->fns[g->id].decl;
    case G_QUERY: return p->queries[g->id].decl;
    case G_EVENT: return p->queries[g->id].decl;
    default: return NULL;
    }
}

const res_ruleset *res_rules_of(const res_program *p, int32_t ed, uint32_t q)
{
    static const res_ruleset empty = { 0 };
    if (q >= p->nqueries)
        return &empty;
    if (ed >= 0 && (size_t)ed < p->neditions && p->editions[ed].sets)
        return &p->editions[ed].sets[q];
    return p->base ? &p->base[q] : &empty;
}

const char *res_cite_id(const ast_node *cite) { return cite->name; }
const char *res_cite_source(const ast_node *cite) { return cite->title; }
const char *res_cite_example(const ast_node *cite) { return cite->doc; }
