/* expr.c — pass 3, the type checker of expressions: each node resolved against its expected
 * type and annotated (type, symbol, local slot: ast_node.an) for interp/compile.c.
 *
 * It reads the declarations and signatures of passes 1-2 and the locals of the body being
 * resolved (scope.c); calls of built-ins are checked by builtin.c. expr_fold folds constant
 * expressions: table keys and cells, counter items. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "near.h"
#include "resolve_int.h"

/* Names that are no globals, offered to did_you_mean besides them: `n` elements of `stride`
 * bytes from `base`, each holding its name (a const char *) at `offset` — the locals in scope,
 * one enum's members, one record's fields. Borrowed. */
typedef struct name_list {
    const void *base;
    size_t n, stride, offset;
} name_list;
#define NAME_LIST(arr, count, type) \
    ((name_list){ (arr), (count), sizeof(type), offsetof(type, name) })

/* A "did you mean" for an unknown name: " (did you mean `X`?)" naming the nearest (near.h) of
 * the names in `more` (NULL: none; offered first, so they win a tie), the globals whose kind
 * is in `kinds` (bits 1u << gkind) and, with members, every enum member, written into buf; ""
 * when none is close enough, and "" without searching when the error it goes with will not be
 * kept (past DIAG_LIST_MAX): the search scans every name, so doing it for every one of N errors
 * would make a file of N unknown names cost N². */
static const char *did_you_mean(const rctx *c, const char *name, unsigned kinds, bool members,
                                const name_list *more, char *buf, size_t cap)
{
    const res_program *p = c->p;
    if (!diag_list_keeps(c->d))
        return "";
    near_search s;
    near_begin(&s, name);
    for (size_t i = 0; more && i < more->n; i++)
        near_offer(
            &s, *(const char *const *)((const char *)more->base + i * more->stride + more->offset));
    for (const name_ent *g = kinds ? p->names->globals : NULL; g; g = g->hh.next)
        if (kinds & (1u << g->kind))
            near_offer(&s, g->key);
    for (const member_ent *m = members ? p->names->members : NULL; m; m = m->hh.next)
        near_offer(&s, m->key);
    if (!name || !near_result(&s))
        return "";
    snprintf(buf, cap, " (did you mean `%s`?)", near_result(&s));
    return buf;
}

/* Whether an unknown name reads like a square's coordinates without its `@` (C5, AB12): one or
 * two capital letters, then digits. */
static bool looks_like_square(const char *name)
{
    size_t i = 0;
    if (!name)
        return false;
    while (i < 2 && name[i] >= 'A' && name[i] <= 'Z')
        i++;
    if (i == 0 || name[i] < '0' || name[i] > '9')
        return false;
    while (name[i] >= '0' && name[i] <= '9')
        i++;
    return name[i] == '\0';
}

/* The kinds of global a call may name; an unknown value may be a slip for any global name. */
#define CALLABLE   ((1u << G_FN) | (1u << G_QUERY) | (1u << G_BUILTIN))
#define ANY_GLOBAL (~0u)

/* ---- expressions ---- */

/* Resolves n expecting `want` (T_NONE: anything) and reports E104 on a mismatch. */
uint32_t expr_check(rctx *c, ast_node *n, uint32_t want)
{
    uint32_t t = expr_infer(c, n, want);
    if (want != T_NONE && want != T_ERROR && t != T_ERROR && t != want) {
        res_err(c, E_TYPE, n->loc, "expected %s, found %s", type_text(c->p, want).s,
                type_text(c->p, t).s);
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
        if (scope_find_local(c, n->name))
            return false;
        name_ent *g = model_find_name(c->p->names->globals, n->name);
        if (g && g->kind == G_COUNTER)
            return false;
        member_ent *m = model_find_member_ent(c->p, n->name);
        return m && m->len > 1;
    }
    case AST_LIST:
    case AST_SET:
        for (uint32_t i = 0; i < n->list.len; i++)
            if (!needs_context(c, n->list.items[i]))
                return false;
        return true;
    case AST_IF: return needs_context(c, n->b) && needs_context(c, n->c);
    default: return false;
    }
}

const char *expr_gkind_text(gkind k)
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
    local *l = scope_find_local(c, n->name);
    if (l) {
        n->an.sym_kind = SYM_LOCAL;
        n->an.slot = l->slot;
        return l->type;
    }
    if (type_is_enum(p, want)) {
        uint32_t e = type_arg(p, want);
        int32_t m = model_find_member(&p->enums[e], n->name);
        if (m >= 0) {
            annotate_member(n, p, e, (uint32_t)m);
            return want;
        }
    }
    name_ent *g = model_find_name(p->names->globals, n->name);
    if (g && g->kind == G_COUNTER) {
        n->an.sym_kind = SYM_COUNTER;
        n->an.sym = (uint32_t)p->counters[g->id].unit;
        return T_UNIT;
    }
    member_ent *m = model_find_member_ent(p, n->name);
    if (m && m->len == 1) {
        annotate_member(n, p, m->hits[0].e, m->hits[0].m);
        return p->enums[m->hits[0].e].type;
    }
    if (m && m->len > 1) {
        if (want == T_ERROR)
            return T_ERROR; /* the other side already failed: do not report twice */
        char buf[256];
        enums_having(p, m, buf, sizeof buf);
        res_err(c, E_AMBIGUOUS, n->loc, "`%s` is a member of several enums: write %s", n->name,
                buf);
        return T_ERROR;
    }
    if (g) {
        res_err(c, E_NOT_VALUE, n->loc, "`%s` is %s, not a value", n->name,
                expr_gkind_text(g->kind));
        return T_ERROR;
    }
    char hint[160];
    if (looks_like_square(n->name))
        snprintf(hint, sizeof hint, " (a square is written `@%s`)", n->name);
    res_err(c, E_UNKNOWN_NAME, n->loc, "unknown name `%s`%s", n->name ? n->name : "?",
            looks_like_square(n->name)
                ? hint
                : did_you_mean(c, n->name, ANY_GLOBAL, true,
                               &NAME_LIST(c->locals, c->nlocals, local), hint, sizeof hint));
    return T_ERROR;
}

/* If n names an enum (or variant) type and no local hides it, returns the enum id; else -1. */
int32_t expr_enum_named(rctx *c, const ast_node *n)
{
    if (n->kind != AST_NAME || scope_find_local(c, n->name))
        return -1;
    name_ent *g = model_find_name(c->p->names->globals, n->name);
    if (g && g->kind == G_ENUM)
        return g->id;
    if (g && g->kind == G_VARIANT)
        return (int32_t)c->p->variants[g->id].enum_id;
    return -1;
}

static uint32_t field_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    int32_t e = expr_enum_named(c, n->a);
    if (e >= 0) {
        int32_t m = model_find_member(&p->enums[e], n->name);
        n->a->an.sym_kind = SYM_ENUM_TYPE;
        n->a->an.sym = (uint32_t)e;
        if (m < 0) {
            char hint[160];
            res_err(c, E_UNKNOWN_NAME, n->loc, "%s has no member `%s`%s", p->enums[e].name, n->name,
                    did_you_mean(c, n->name, 0, false,
                                 &NAME_LIST(p->enums[e].members, p->enums[e].len, res_member), hint,
                                 sizeof hint));
            return T_ERROR;
        }
        annotate_member(n, p, (uint32_t)e, (uint32_t)m);
        return p->enums[e].type;
    }
    uint32_t t = expr_infer(c, n->a, T_NONE);
    switch (type_kind(p, t)) {
    case RT_ERROR: return T_ERROR;
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
        name_ent *s = model_find_name(p->names->slots, n->name);
        if (s) {
            n->an.sym_kind = SYM_UNIT_VALUE;
            n->an.sym = (uint32_t)s->id;
            return T_INT;
        }
        char hint[160];
        res_err(c, E_NO_FIELD, n->loc,
                "a unit has no value `%s` (units have kind, side, size and the declared "
                "`value`s)%s",
                n->name,
                did_you_mean(c, n->name, 0, false, &NAME_LIST(p->slots, p->nslots, res_slot), hint,
                             sizeof hint));
        return T_ERROR;
    }
    case RT_RECORD: {
        const res_record *r = &p->records[type_arg(p, t)];
        for (size_t i = 0; i < r->nfields; i++)
            if (strcmp(r->fields[i].name, n->name) == 0) {
                n->an.sym_kind = SYM_FIELD;
                n->an.sym = (uint32_t)i;
                return r->fields[i].type;
            }
        char hint[160];
        res_err(c, E_NO_FIELD, n->loc, "%s %s has no field `%s`%s",
                r->table >= 0 ? "a row of table" : "record", r->name, n->name,
                did_you_mean(c, n->name, 0, false, &NAME_LIST(r->fields, r->nfields, res_field),
                             hint, sizeof hint));
        return T_ERROR;
    }
    default:
        res_err(c, E_NO_FIELD, n->loc, "a %s value has no field `%s`", type_text(p, t).s, n->name);
        return T_ERROR;
    }
}

uint32_t expr_arity_error(rctx *c, ast_node *n, const char *what, size_t want)
{
    res_err(c, E_ARITY, n->loc, "%s `%s` takes %zu argument%s, not %u", what, n->name, want,
            want == 1 ? "" : "s", n->list.len);
    for (uint32_t i = 0; i < n->list.len; i++)
        expr_infer(c, n->list.items[i], T_NONE);
    return T_ERROR;
}

static uint32_t call_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    /* Most calls are of the program's fns and queries, whose names are never a built-in's
     * (E110): looked up first, the built-ins' list is searched only for the others (bench.md
     * §9). A built-in's name is a global of its own, or a built-in enum's (`terrain`). */
    name_ent *g = model_find_name(p->names->globals, n->name);
    if (!g || (g->kind != G_FN && g->kind != G_QUERY)) {
        int32_t bi = g && g->kind == G_BUILTIN ? g->id : builtin_find(n->name);
        if (bi >= 0)
            return builtin_call(c, n, (size_t)bi);
    }
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
            res_err(c, E_NOT_VALUE, n->loc, "`%s` is %s, not something to call", n->name,
                    expr_gkind_text(g->kind));
        else {
            char hint[160];
            res_err(c, E_UNKNOWN_NAME, n->loc, "unknown function or query `%s`%s",
                    n->name ? n->name : "?",
                    did_you_mean(c, n->name, CALLABLE, false, NULL, hint, sizeof hint));
        }
        for (uint32_t i = 0; i < n->list.len; i++)
            expr_infer(c, n->list.items[i], T_NONE);
        return T_ERROR;
    }
    n->an.sym = (uint32_t)g->id;
    if (n->list.len != np)
        return expr_arity_error(c, n, g->kind == G_FN ? "function" : "query", np);
    for (uint32_t i = 0; i < np; i++)
        expr_check(c, n->list.items[i], params ? params[i].type : T_ERROR);
    return result;
}

static uint32_t index_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    ast_node *base = n->a;
    name_ent *g = base && base->kind == AST_NAME && !scope_find_local(c, base->name)
                      ? model_find_name(p->names->globals, base->name)
                      : NULL;
    if (!g || g->kind != G_TABLE) {
        if (g)
            res_err(c, E_NOT_VALUE, base->loc, "`%s` is %s, not a table", base->name,
                    expr_gkind_text(g->kind));
        else if (base && base->kind == AST_NAME && !scope_find_local(c, base->name)) {
            char hint[160];
            res_err(c, E_UNKNOWN_NAME, base->loc, "unknown table `%s`%s", base->name,
                    did_you_mean(c, base->name, 1u << G_TABLE, false, NULL, hint, sizeof hint));
        } else
            res_err(c, E_NOT_VALUE, base ? base->loc : n->loc, "only tables can be indexed");
        for (uint32_t i = 0; i < n->list.len; i++)
            expr_infer(c, n->list.items[i], T_NONE);
        return T_ERROR;
    }
    const res_table *t = &p->tables[g->id];
    base->an.sym_kind = SYM_TABLE;
    base->an.sym = (uint32_t)g->id;
    n->an.sym_kind = SYM_TABLE;
    n->an.sym = (uint32_t)g->id;
    if (n->list.len != t->nkeys) {
        res_err(c, E_ARITY, n->loc, "table `%s` has %u key%s, not %u", t->name, t->nkeys,
                t->nkeys == 1 ? "" : "s", n->list.len);
        return t->result;
    }
    for (uint32_t i = 0; i < t->nkeys; i++)
        expr_check(c, n->list.items[i], t->keys[i].type);
    return t->result;
}

bool expr_orderable(const res_program *p, uint32_t t)
{
    return t == T_INT || type_kind(p, t) == RT_ENUM || t == T_ERROR;
}

/* Resolves the two sides of a comparison: the side that needs context goes second. */
uint32_t expr_pair(rctx *c, ast_node *a, ast_node *b)
{
    if (needs_context(c, a) && !needs_context(c, b)) {
        uint32_t t = expr_infer(c, b, T_NONE);
        expr_check(c, a, t);
        return t;
    }
    uint32_t t = expr_infer(c, a, T_NONE);
    expr_check(c, b, t);
    return t;
}

/* The operand (and result) type of an arithmetic or logical operator node; T_NONE otherwise. */
static uint32_t chain_type(const ast_node *n)
{
    if (!n || n->kind != AST_BINARY)
        return T_NONE;
    switch (n->op) {
    case AST_OP_ADD:
    case AST_OP_SUB:
    case AST_OP_MUL:
    case AST_OP_DIV:
    case AST_OP_MOD: return T_INT;
    case AST_OP_AND:
    case AST_OP_OR: return T_BOOL;
    default: return T_NONE;
    }
}

/* `a + b + ... + z` (or an `and`/`or` chain) is a left spine of operators of type t: it is
 * checked in a loop, leftmost operand first, each operator typed as expr_infer() would, so a chain
 * of FRONT_MAX_CHAIN operators (front.h) costs no recursion. */
static uint32_t chain_expr(rctx *c, ast_node *n, uint32_t t)
{
    ast_node **spine = NULL;
    size_t len = 0, cap = 0;
    for (ast_node *m = n; chain_type(m) == t; m = m->a) {
        if (!MEM_GROW(spine, len, cap)) {
            mem_free(spine);
            res_oom(c, n->loc);
            return t;
        }
        spine[len++] = m;
    }
    expr_check(c, spine[len - 1]->a, t);
    for (size_t i = len; i-- > 0;) {
        spine[i]->an.slot = -1;
        expr_check(c, spine[i]->b, t);
        spine[i]->an.type = t;
    }
    mem_free(spine);
    return t;
}

static uint32_t binary_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    switch (n->op) {
    case AST_OP_ADD:
    case AST_OP_SUB:
    case AST_OP_MUL:
    case AST_OP_DIV:
    case AST_OP_MOD: return chain_expr(c, n, T_INT);
    case AST_OP_AND:
    case AST_OP_OR: return chain_expr(c, n, T_BOOL);
    case AST_OP_EQ:
    case AST_OP_NE: expr_pair(c, n->a, n->b); return T_BOOL;
    case AST_OP_CONCAT: {
        uint32_t t = expr_pair(c, n->a, n->b);
        if (t != T_ERROR && type_kind(p, t) != RT_LIST) {
            res_err(c, E_OPERAND, n->loc, "`++` joins two lists, not %s values", type_text(p, t).s);
            return T_ERROR;
        }
        return t;
    }
    case AST_OP_LT:
    case AST_OP_LE:
    case AST_OP_GT:
    case AST_OP_GE: {
        uint32_t t = expr_pair(c, n->a, n->b);
        if (!expr_orderable(p, t))
            res_err(c, E_OPERAND, n->loc,
                    "%s values cannot be ordered (only ints and enum members)", type_text(p, t).s);
        return T_BOOL;
    }
    case AST_OP_IN: {
        uint32_t t = expr_infer(c, n->b, T_NONE);
        res_tkind k = type_kind(p, t);
        if (k == RT_SET || k == RT_LIST)
            expr_check(c, n->a, type_arg(p, t));
        else {
            if (t != T_ERROR)
                res_err(c, E_OPERAND, n->b->loc, "`in` asks for a set or a list, not a %s value",
                        type_text(p, t).s);
            expr_infer(c, n->a, T_NONE);
        }
        return T_BOOL;
    }
    default: res_err(c, E_OPERAND, n->loc, "unknown operator"); return T_ERROR;
    }
}

/* List and set literals: the element type comes from the expected type, else from the first
 * element that does not need context. */
static uint32_t collection_expr(rctx *c, ast_node *n, uint32_t want)
{
    res_program *p = c->p;
    bool is_set = n->kind == AST_SET;
    res_tkind k = is_set ? RT_SET : RT_LIST;
    uint32_t elem = type_kind(p, want) == k ? type_arg(p, want) : T_NONE;
    if (elem == T_NONE) {
        if (n->list.len == 0) {
            res_err(c, E_INFER, n->loc, "the type of an empty %s cannot be inferred here",
                    is_set ? "set" : "list");
            return T_ERROR;
        }
        ast_node *first = n->list.items[0];
        for (uint32_t i = 0; i < n->list.len; i++)
            if (!needs_context(c, n->list.items[i])) {
                first = n->list.items[i];
                break;
            }
        elem = expr_infer(c, first, T_NONE);
        for (uint32_t i = 0; i < n->list.len; i++)
            if (n->list.items[i] != first)
                expr_check(c, n->list.items[i], elem);
    } else {
        for (uint32_t i = 0; i < n->list.len; i++)
            expr_check(c, n->list.items[i], elem);
    }
    if (elem == T_ERROR)
        return T_ERROR;
    return is_set ? type_set_of(c, elem, n->loc) : type_intern(c, RT_LIST, elem, n->loc);
}

static uint32_t record_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    name_ent *g = model_find_name(p->names->globals, n->name);
    if (!g || g->kind != G_RECORD) {
        res_err(c, g ? E_NOT_VALUE : E_UNKNOWN_TYPE, n->loc, "`%s` is not a record type",
                n->name ? n->name : "?");
        for (uint32_t i = 0; i < n->list.len; i++)
            if (n->list.items[i]->a)
                expr_infer(c, n->list.items[i]->a, T_NONE);
        return T_ERROR;
    }
    const res_record *r = &p->records[g->id];
    uint64_t seen = 0, slipped = 0; /* the fields given; those a misspelt one stood for */
    bool many = r->nfields > 64;
    for (uint32_t i = 0; i < n->list.len; i++) {
        ast_node *fi = n->list.items[i];
        int32_t f = -1;
        for (size_t j = 0; j < r->nfields; j++)
            if (fi->name && strcmp(r->fields[j].name, fi->name) == 0)
                f = (int32_t)j;
        if (f < 0) {
            char hint[160];
            const char *near =
                did_you_mean(c, fi->name, 0, false, &NAME_LIST(r->fields, r->nfields, res_field),
                             hint, sizeof hint);
            res_err(c, E_NO_FIELD, fi->loc, "record %s has no field `%s`%s", r->name,
                    fi->name ? fi->name : "?", near);
            /* the field it is a slip for is not reported missing as well (E116) */
            for (size_t j = 0; *near && !many && j < r->nfields; j++) {
                char want[160];
                snprintf(want, sizeof want, " (did you mean `%s`?)", r->fields[j].name);
                if (strcmp(near, want) == 0)
                    slipped |= 1ULL << j;
            }
            if (fi->a)
                expr_infer(c, fi->a, T_NONE);
            continue;
        }
        fi->an.sym_kind = SYM_FIELD;
        fi->an.sym = (uint32_t)f;
        if (!many && (seen >> f & 1))
            res_err(c, E_RECORD_FIELDS, fi->loc, "field `%s` is given twice", fi->name);
        if (!many)
            seen |= 1ULL << f;
        if (fi->a)
            expr_check(c, fi->a, r->fields[f].type);
    }
    for (size_t j = 0; j < r->nfields && !many; j++)
        if (!((seen | slipped) >> j & 1))
            res_err(c, E_RECORD_FIELDS, n->loc, "record %s needs field `%s`", r->name,
                    r->fields[j].name);
    if (many)
        res_err(c, E_LIMIT, n->loc, "records are limited to 64 fields");
    return r->type;
}

static uint32_t agg_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    uint32_t elem = T_ERROR;
    int32_t e = expr_enum_named(c, n->a);
    if (e >= 0) {
        n->a->an.sym_kind = SYM_ENUM_TYPE;
        n->a->an.sym = (uint32_t)e;
        n->a->an.type = type_enum_members(c, e, n->a->loc);
        elem = n->a->an.type == T_ERROR ? T_ERROR : p->enums[e].type;
    } else {
        uint32_t t = expr_infer(c, n->a, T_NONE);
        if (type_kind(p, t) == RT_LIST || type_kind(p, t) == RT_SET)
            elem = type_arg(p, t);
        else if (t != T_ERROR)
            res_err(c, E_TYPE, n->a->loc,
                    "an aggregate runs over a list, a set or an enum, not a %s value",
                    type_text(p, t).s);
    }
    size_t mark = c->nlocals;
    n->an.slot = scope_push_local(c, n->name, elem, n->loc);
    bool is_int = n->op == AST_AGG_SUM;
    if (n->op == AST_AGG_MAP) { /* [e for x in L]: the list of the e's */
        uint32_t t = expr_infer(c, n->b, T_NONE);
        c->nlocals = mark;
        return t == T_ERROR ? T_ERROR : type_intern(c, RT_LIST, t, n->loc);
    }
    if (n->op == AST_AGG_MIN || n->op == AST_AGG_MAX) { /* ints, or members of one enum */
        uint32_t t = expr_infer(c, n->b, T_NONE);
        c->nlocals = mark;
        if (!expr_orderable(p, t)) {
            res_err(c, E_TYPE, n->b->loc,
                    "%s() over a collection orders ints or members of one enum, not %s values",
                    n->op == AST_AGG_MIN ? "min" : "max", type_text(p, t).s);
            return T_ERROR;
        }
        return t;
    }
    expr_check(c, n->b, is_int ? T_INT : T_BOOL);
    c->nlocals = mark;
    if (n->op == AST_AGG_FILTER) /* [x in L: cond]: the list of the members that pass */
        return elem == T_ERROR ? T_ERROR : type_intern(c, RT_LIST, elem, n->loc);
    return n->op == AST_AGG_ALL || n->op == AST_AGG_ANY ? T_BOOL : T_INT;
}

static uint32_t infer_inner(rctx *c, ast_node *n, uint32_t want)
{
    res_program *p = c->p;
    switch (n->kind) {
    case AST_INT: return T_INT;
    case AST_BOOL: return T_BOOL;
    case AST_FORBID:
    case AST_PERMIT: return T_VERDICT;
    case AST_SQUARE: return T_SQUARE;
    case AST_UNIT_REF: n->an.sym_kind = SYM_UNIT_REF; return T_UNIT;
    case AST_NOT_GIVEN:
        res_err(c, E_NOT_GIVEN, n->loc, "`?` (not given) is only allowed as a table cell");
        return T_ERROR;
    case AST_NAME: return name_expr(c, n, want);
    case AST_FIELD: return field_expr(c, n);
    case AST_CALL: return call_expr(c, n);
    case AST_INDEX: return index_expr(c, n);
    case AST_UNARY:
        if (n->op == AST_OP_NOT) {
            expr_check(c, n->a, T_BOOL);
            return T_BOOL;
        }
        expr_check(c, n->a, T_INT);
        return T_INT;
    case AST_BINARY: return binary_expr(c, n);
    case AST_IF: {
        expr_check(c, n->a, T_BOOL);
        if (want != T_NONE && want != T_ERROR) {
            expr_check(c, n->b, want);
            expr_check(c, n->c, want);
            return want;
        }
        return expr_pair(c, n->b, n->c);
    }
    case AST_LET: {
        uint32_t t = expr_infer(c, n->a, T_NONE);
        size_t mark = c->nlocals;
        n->an.slot = scope_push_local(c, n->name, t, n->loc);
        uint32_t r = expr_infer(c, n->b, want);
        c->nlocals = mark;
        return r;
    }
    case AST_LIST:
    case AST_SET: return collection_expr(c, n, want);
    case AST_RECORD: return record_expr(c, n);
    case AST_AGG: return agg_expr(c, n);
    case AST_ROLL:
        if (!n->a)
            return T_INT;
        expr_check(c, n->a, T_INT);
        return type_intern(c, RT_LIST, T_INT, n->loc);
    case AST_VARIANT_REF: {
        name_ent *g = model_find_name(p->names->globals, n->name);
        if (!g || g->kind != G_VARIANT) {
            char hint[160];
            res_err(c, E_UNKNOWN_NAME, n->loc, "unknown variant `%s`%s", n->name ? n->name : "?",
                    did_you_mean(c, n->name, 1u << G_VARIANT, false, NULL, hint, sizeof hint));
            return T_ERROR;
        }
        n->an.sym_kind = SYM_VARIANT;
        n->an.sym = (uint32_t)g->id;
        return p->enums[p->variants[g->id].enum_id].type;
    }
    default:
        res_err(c, E_NOT_VALUE, n->loc, "a %s is not an expression", ast_kind_name(n->kind));
        return T_ERROR;
    }
}

uint32_t expr_infer(rctx *c, ast_node *n, uint32_t want)
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
bool expr_fold(rctx *c, ast_node *n, uint32_t want, bool allow_absent, res_const *out)
{
    res_program *p = c->p;
    *out = (res_const){ .type = want, .given = true };
    if (n->kind == AST_NOT_GIVEN) {
        if (!allow_absent) {
            res_err(c, E_NOT_GIVEN, n->loc, "`?` (not given) is only allowed as a table cell");
            return false;
        }
        out->given = false;
        n->an.type = want;
        return true;
    }
    uint32_t t = expr_check(c, n, want);
    if (t == T_ERROR)
        return false;
    switch (n->kind) {
    case AST_INT:
    case AST_BOOL: out->v = n->ival; return true;
    case AST_FORBID: out->v = 0; return true;
    case AST_PERMIT: out->v = 1; return true;
    case AST_UNARY:
        if (n->op == AST_OP_NEG && n->a->kind == AST_INT) {
            out->v = -n->a->ival;
            return true;
        }
        break;
    case AST_NAME:
    case AST_FIELD:
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
    default: break;
    }
not_const:
    res_err(c, E_CONST, n->loc,
            "a constant is expected here (a number, true/false, an enum "
            "member, a set of members, forbid/permit)");
    (void)p;
    return false;
}
