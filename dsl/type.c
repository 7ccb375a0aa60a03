/* type.c — types, and pass 2: signatures.
 *
 * Types are interned (type_interned); type expressions (`set<T>`, `list<T>`, names) resolve
 * against the names of pass 1 (scope.c). Pass 2 gives records their fields, fns, queries and
 * events their parameters and results, variants their default reading (tables: table.c), so
 * that pass 3 (expr.c, body.c) checks bodies against them.
 */
#include <stdio.h>
#include <string.h>

#include "resolve_int.h"

/* ---- types ---- */

uint32_t type_interned(res_program *p, res_tkind kind, uint32_t arg)
{
    uint64_t key = (uint64_t)kind << 32 | arg;
    type_ent *t;
    HASH_FIND(hh, p->names->types, &key, sizeof key, t);
    if (t)
        return t->id;
    if (!MEM_GROW(p->types, p->ntypes, p->types_cap))
        return T_ERROR;
    t = model_names_entry(p, sizeof *t);
    if (!t)
        return T_ERROR;
    t->key = key;
    t->id = (uint32_t)p->ntypes;
    HASH_ADD(hh, p->names->types, key, sizeof key, t);
    if (!HON_HASH_ADDED(t)) /* t stays in the arena, in no table */
        return T_ERROR;
    p->types[p->ntypes++] = (res_type){ kind, arg };
    return t->id;
}

uint32_t type_intern(rctx *c, res_tkind kind, uint32_t arg, ast_loc loc)
{
    uint32_t t = type_interned(c->p, kind, arg);
    if (t == T_ERROR && kind != RT_ERROR)
        res_oom(c, loc);
    return t;
}

res_tkind type_kind(const res_program *p, uint32_t t)
{
    return t < p->ntypes ? p->types[t].kind : RT_NONE;
}

uint32_t type_arg(const res_program *p, uint32_t t)
{
    return t < p->ntypes ? p->types[t].arg : 0;
}

const char *type_name(const res_program *p, uint32_t type, char *buf, size_t cap)
{
    char inner[128];
    if (!cap)
        return buf;
    switch (type_kind(p, type)) {
    case RT_INT: snprintf(buf, cap, "int"); break;
    case RT_BOOL: snprintf(buf, cap, "bool"); break;
    case RT_VERDICT: snprintf(buf, cap, "verdict"); break;
    case RT_UNIT: snprintf(buf, cap, "unit"); break;
    case RT_ERROR: snprintf(buf, cap, "<error>"); break;
    case RT_SQUARE: snprintf(buf, cap, "square"); break;
    case RT_SIDE: snprintf(buf, cap, "square_side"); break;
    case RT_ELEMENT: snprintf(buf, cap, "element"); break;
    case RT_ENUM: snprintf(buf, cap, "%s", p->enums[type_arg(p, type)].name); break;
    case RT_RECORD: snprintf(buf, cap, "%s", p->records[type_arg(p, type)].name); break;
    case RT_SET:
        snprintf(buf, cap, "set<%s>", type_name(p, type_arg(p, type), inner, sizeof inner));
        break;
    case RT_LIST:
        snprintf(buf, cap, "list<%s>", type_name(p, type_arg(p, type), inner, sizeof inner));
        break;
    default: snprintf(buf, cap, "<none>"); break;
    }
    return buf;
}

/* Type names for messages: two rotating buffers per call site are enough. */
tname type_text(const res_program *p, uint32_t t)
{
    tname r;
    type_name(p, t, r.s, sizeof r.s);
    return r;
}

/* ---- type expressions ---- */

bool type_is_enum(const res_program *p, uint32_t t)
{
    return type_kind(p, t) == RT_ENUM;
}

uint32_t type_set_of(rctx *c, uint32_t elem, ast_loc loc)
{
    res_program *p = c->p;
    if (elem == T_ERROR)
        return T_ERROR;
    if (!type_is_enum(p, elem)) {
        res_err(c, E_TYPE, loc, "a set holds members of an enum, not %s values",
                type_text(p, elem).s);
        return T_ERROR;
    }
    if (p->enums[type_arg(p, elem)].len > RES_SET_MAX) {
        res_err(c, E_SET_SIZE, loc, "enum %s has %zu members: sets are limited to %d",
                p->enums[type_arg(p, elem)].name, p->enums[type_arg(p, elem)].len, RES_SET_MAX);
        return T_ERROR;
    }
    return type_intern(c, RT_SET, elem, loc);
}

uint32_t type_enum_members(rctx *c, int32_t e, ast_loc loc)
{
    const res_enum *en = &c->p->enums[e];
    if (en->len > RES_SET_MAX) {
        res_err(c, E_SET_SIZE, loc,
                "enum %s has %zu members: an enum named as a collection (`x in %s`) is walked "
                "as the set of its members, and a set holds at most %d; name a list of the "
                "members instead",
                en->name, en->len, en->name, RES_SET_MAX);
        return T_ERROR;
    }
    return type_set_of(c, en->type, loc);
}

uint32_t type_of(rctx *c, ast_node *t)
{
    res_program *p = c->p;
    if (!t)
        return T_ERROR;
    switch (t->kind) {
    case AST_TYPE_NAME: {
        name_ent *g = model_find_name(p->names->globals, t->name);
        if (g && g->kind == G_TYPE)
            return (uint32_t)g->id;
        if (g && (g->kind == G_ENUM || g->kind == G_VARIANT))
            return p->enums[g->kind == G_ENUM ? g->id : (int32_t)p->variants[g->id].enum_id].type;
        if (g && g->kind == G_RECORD)
            return p->records[g->id].type;
        res_err(c, E_UNKNOWN_TYPE, t->loc, "unknown type `%s`", t->name ? t->name : "?");
        return T_ERROR;
    }
    case AST_TYPE_SET: return type_set_of(c, type_of(c, t->a), t->loc);
    case AST_TYPE_LIST: {
        uint32_t e = type_of(c, t->a);
        return e == T_ERROR ? T_ERROR : type_intern(c, RT_LIST, e, t->loc);
    }
    default: res_err(c, E_UNKNOWN_TYPE, t->loc, "a type is expected here"); return T_ERROR;
    }
}

/* ---- pass 2: signatures ---- */

/* Resolves a parameter list into a new array in the name tables' arena (model_names_entry:
 * freed with the program; one mem_calloc each was some 300 instructions, 650 lists at each
 * start: bench.md §9); E111 on a repeated name. */
res_field *type_params_of(rctx *c, const ast_vec *v)
{
    if (!v->len)
        return NULL;
    if (v->len > RES_MAX_ITEMS) {
        res_err(c, E_LIMIT, v->items[RES_MAX_ITEMS]->loc,
                "too many parameters or fields (at most %d)", RES_MAX_ITEMS);
        return NULL;
    }
    res_field *f = model_names_entry(c->p, v->len * sizeof *f);
    if (!f) {
        res_oom(c, v->items[0]->loc);
        return NULL;
    }
    for (uint32_t i = 0; i < v->len; i++) {
        ast_node *pn = v->items[i];
        f[i] = (res_field){ pn->name ? pn->name : "", type_of(c, pn->a), pn->loc };
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(f[j].name, f[i].name) == 0)
                res_err(c, E_DUP_ITEM, pn->loc, "`%s` is listed twice", f[i].name);
    }
    return f;
}

void type_signature(rctx *c, ast_node *d)
{
    res_program *p = c->p;
    /* only the kinds below have a signature: a rule's name ("query.rule", most declarations)
     * is no global, and is not looked up (bench.md §9) */
    switch (d->kind) {
    case AST_RECORD_DECL:
    case AST_FN:
    case AST_QUERY:
    case AST_TABLE:
    case AST_EVENT:
    case AST_VARIANT: break;
    default: return;
    }
    name_ent *g = model_find_name(p->names->globals, d->name);
    switch (d->kind) {
    case AST_RECORD_DECL:
        if (g && g->kind == G_RECORD && p->records[g->id].decl == d) {
            res_field *f = type_params_of(c, &d->list);
            p->records[g->id].fields = f;
            p->records[g->id].nfields = f ? d->list.len : 0;
        }
        break;
    case AST_FN:
        if (g && g->kind == G_FN && p->fns[g->id].decl == d) {
            res_fn *f = &p->fns[g->id];
            f->params = type_params_of(c, &d->params);
            f->nparams = f->params ? d->params.len : 0;
            f->result = type_of(c, d->a);
        }
        break;
    case AST_QUERY:
        if (g && g->kind == G_QUERY && p->queries[g->id].decl == d) {
            res_query *q = &p->queries[g->id];
            q->params = type_params_of(c, &d->params);
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
            q->params = type_params_of(c, &d->params);
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
                    res_err(c, E_DEFAULTS, r->loc, "variant `%s` has a second default reading",
                            d->name);
                else {
                    int32_t m = model_find_member(&p->enums[v->enum_id], r->name);
                    v->dflt = m < 0 ? 0 : (uint32_t)m;
                }
            }
            if (defaults == 0)
                res_err(c, E_DEFAULTS, d->loc, "variant `%s` needs exactly one `default` reading",
                        d->name);
        }
        break;
    default: break;
    }
}
