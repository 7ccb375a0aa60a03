/* scope.c — pass 1, names and scopes: each file's `module` line gives the module its
 * declarations belong to (E146 out of place); every declaration enters its name into the
 * program's name tables (globals, values, editions, enum members), with E110/E111 on a clash.
 *
 * It reads only the AST and leaves ids whose signatures pass 2 (type.c) fills; it also keeps
 * the scopes of the body being resolved (locals and their slots) for pass 3 (expr.c, body.c).
 */
#include <string.h>

#include "near.h"
#include "resolve_int.h"

/* ---- name table helpers ---- */

/* Adds name to *table; on a clash reports E110 and returns NULL. */
name_ent *scope_add_name(rctx *c, name_ent **table, const char *name, gkind kind, int32_t id,
                         ast_loc loc, const char *what)
{
    if (!name)
        return NULL;
    /* the name measured and hashed once for the look-up and the addition */
    size_t len = strlen(name);
    unsigned hv;
    HASH_VALUE(name, len, hv);
    name_ent *old = NULL;
    HASH_FIND_BYHASHVALUE(hh, *table, name, len, hv, old);
    if (old) {
        if (old->loc.line == 0) /* built-ins are declared at line 0 */
            res_err(c, E_DUPLICATE, loc, "`%s` is a built-in name and cannot be declared", name);
        else {
            diag *dg = diag_report(c->d, E_DUPLICATE, DIAG_ERROR, loc,
                                   "%s `%s` is already declared", what, name);
            if (dg && old->loc.line)
                diag_relate(dg, old->loc, "`%s` was first declared here", name);
        }
        return NULL;
    }
    name_ent *e = model_names_entry(c->p, sizeof *e);
    if (!e) {
        res_oom(c, loc);
        return NULL;
    }
    e->key = name;
    e->kind = kind;
    e->id = id;
    e->loc = loc;
    HASH_ADD_KEYPTR_BYHASHVALUE(hh, *table, e->key, len, hv, e);
    if (!HON_HASH_ADDED(e)) { /* e stays in the arena, in no table */
        res_oom(c, loc);
        return NULL;
    }
    return e;
}

/* Adds a member to enum e; E111 (or E110 for vocabulary) on a duplicate. Returns its index. */
int32_t scope_add_member(rctx *c, uint32_t eid, const char *name, const char *doc, bool carries,
                         ast_loc loc)
{
    res_enum *e = &c->p->enums[eid];
    member_ent *m = model_find_member_ent(c->p, name);
    int32_t old = -1;
    for (size_t i = 0; m && i < m->len && old < 0; i++)
        if (m->hits[i].e == eid)
            old = (int32_t)m->hits[i].m;
    if (old >= 0) {
        diag *dg = diag_report(c->d, eid < E_FIRST_FREE ? E_DUPLICATE : E_DUP_ITEM, DIAG_ERROR, loc,
                               "`%s` is already a member of %s", name, e->name);
        if (dg && e->members[old].loc.line)
            diag_relate(dg, e->members[old].loc, "first declared here");
        return -1;
    }
    if (!name || !MEM_GROW(e->members, e->len, e->cap)) {
        res_oom(c, loc);
        return -1;
    }
    if (!m) {
        m = model_names_entry(c->p, sizeof *m);
        if (!m) {
            res_oom(c, loc);
            return -1;
        }
        m->key = name;
        HASH_ADD_KEYPTR(hh, c->p->names->members, m->key, strlen(m->key), m);
        if (!HON_HASH_ADDED(m)) {
            res_oom(c, loc);
            return -1;
        }
    }
    if (m->len == 0) { /* the first: in the entry itself (the entry lives in an arena) */
        m->hits = &m->one;
        m->cap = 1;
    } else if (m->hits == &m->one) {
        member_hit *h = mem_malloc(4 * sizeof *h);
        if (!h) {
            res_oom(c, loc);
            return -1;
        }
        h[0] = m->one;
        m->hits = h;
        m->cap = 4;
    } else if (!MEM_GROW(m->hits, m->len, m->cap)) {
        res_oom(c, loc);
        return -1;
    }
    m->hits[m->len++] = (member_hit){ eid, (uint32_t)e->len };
    e->members[e->len] =
        (res_member){ .name = name, .doc = doc, .carries_int = carries, .loc = loc, .shows = -1 };
    return (int32_t)e->len++;
}

int32_t scope_new_enum(rctx *c, const char *name, const char *doc, ast_node *decl)
{
    res_program *p = c->p;
    if (!MEM_GROW(p->enums, p->nenums, p->enums_cap)) {
        res_oom(c, decl ? decl->loc : (ast_loc){ 0 });
        return -1;
    }
    uint32_t id = (uint32_t)p->nenums;
    p->enums[id] = (res_enum){ .name = name,
                               .doc = doc,
                               .variant = -1,
                               .decl = decl,
                               .id = id,
                               .by_name = &p->names->members };
    p->nenums++;
    p->enums[id].type = type_intern(c, RT_ENUM, id, decl ? decl->loc : (ast_loc){ 0 });
    return (int32_t)id;
}

/* ---- locals ---- */

local *scope_find_local(rctx *c, const char *name)
{
    for (size_t i = c->nlocals; name && i-- > 0;)
        if (strcmp(c->locals[i].name, name) == 0)
            return &c->locals[i];
    return NULL;
}

/* Binds name to a new slot; returns the slot or -1 on OOM. */
int32_t scope_push_local(rctx *c, const char *name, uint32_t type, ast_loc loc)
{
    if (!MEM_GROW(c->locals, c->nlocals, c->locals_cap)) {
        res_oom(c, loc);
        return -1;
    }
    int32_t slot = (int32_t)c->next_slot++;
    c->locals[c->nlocals++] = (local){ name ? name : "", type, slot };
    return slot;
}

void scope_begin_body(rctx *c)
{
    c->nlocals = 0;
    c->next_slot = 0;
}

/* ---- modules ---- */

/* The id of the module called name, -1 when none is declared. */
int32_t scope_module_named(const res_program *p, const char *name)
{
    for (size_t m = 1; name && m < p->nmodules; m++)
        if (strcmp(p->modules[m].name, name) == 0)
            return (int32_t)m;
    return -1;
}

void scope_modules(rctx *c, ast_file *const *files, size_t nfiles)
{
    res_program *p = c->p;
    for (size_t fi = 0; fi < nfiles; fi++) {
        for (uint32_t di = 0; files[fi] && di < files[fi]->decls.len; di++) {
            ast_node *d = files[fi]->decls.items[di];
            if (!d || d->kind != AST_MODULE)
                continue;
            if (di > 0) {
                res_err(c, E_MODULE, d->loc,
                        "a `module` line comes first in its file, before any declaration");
                continue;
            }
            int32_t m = scope_module_named(p, d->name);
            if (m < 0 && d->name) {
                if (!PUSH(c, p->modules, p->nmodules, p->modules_cap, d->loc))
                    return;
                m = (int32_t)p->nmodules++;
                p->modules[m] = (res_module){ d->name, d->title, d };
            }
            if (m > 0 && !p->modules[m].title)
                p->modules[m].title = d->title;
            if (m < 0 || !PUSH(c, p->file_modules, p->nfile_modules, p->file_modules_cap, d->loc))
                continue;
            p->file_modules[p->nfile_modules++] = (res_file_module){ d->loc.file, m };
        }
    }
    /* The modules by file id, for res_module_of (a search of file_modules, some 140
     * instructions a call, 1,300 calls at each start: bench.md §9); the first of a file's
     * wins, as in the search.
     * Without it (ids too far apart, memory short) res_module_of searches. */
    size_t n = 0;
    for (size_t i = 0; i < p->nfile_modules; i++)
        if (p->file_modules[i].file >= n)
            n = (size_t)p->file_modules[i].file + 1;
    if (n && n <= 4096 && (p->module_by_file = mem_calloc(n, sizeof *p->module_by_file))) {
        p->nmodule_by_file = n;
        for (size_t i = p->nfile_modules; i-- > 0;)
            p->module_by_file[p->file_modules[i].file] = p->file_modules[i].module;
    }
    p->base_module = nfiles && files[0] ? res_module_of(p, files[0]->file_id) : 0;
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

void scope_declare(rctx *c, ast_node *d)
{
    res_program *p = c->p;
    name_ent **g = &p->names->globals;
    switch (d->kind) {
    case AST_VOCAB: {
        uint32_t eid = vocab_enum(d->op);
        int32_t m = scope_add_member(c, eid, d->name, d->doc, d->ival != 0, d->loc);
        if (m >= 0 && d->name2 && d->op == AST_VOCAB_PHASE)
            p->enums[eid].members[m].once = true;
        else if (m >= 0)
            p->enums[eid].members[m].colour = d->name2;
        break;
    }
    case AST_VALUE_DECL:
        if (!PUSH(c, p->slots, p->nslots, p->slots_cap, d->loc))
            return;
        if (scope_add_name(c, &p->names->slots, d->name, G_OTHER, (int32_t)p->nslots, d->loc,
                           "value"))
            p->slots[p->nslots++] = (res_slot){ d->name, d->doc, d };
        break;
    case AST_ENUM: {
        int32_t e = scope_new_enum(c, d->name, d->doc, d);
        if (e < 0 || !scope_add_name(c, g, d->name, G_ENUM, e, d->loc, "name"))
            return;
        for (uint32_t i = 0; i < d->list.len; i++) {
            ast_node *m = d->list.items[i];
            scope_add_member(c, (uint32_t)e, m->name, m->doc, false, m->loc);
        }
        break;
    }
    case AST_RECORD_DECL:
        if (!PUSH(c, p->records, p->nrecords, p->records_cap, d->loc))
            return;
        if (scope_add_name(c, g, d->name, G_RECORD, (int32_t)p->nrecords, d->loc, "name")) {
            p->records[p->nrecords] = (res_record){ .name = d->name, .table = -1, .decl = d };
            p->records[p->nrecords].type = type_intern(c, RT_RECORD, (uint32_t)p->nrecords, d->loc);
            p->nrecords++;
        }
        break;
    case AST_COUNTER:
        if (!PUSH(c, p->counters, p->ncounters, p->counters_cap, d->loc))
            return;
        if (scope_add_name(c, g, d->name, G_COUNTER, (int32_t)p->ncounters, d->loc, "name"))
            p->counters[p->ncounters++] = (res_counter){ d->name, d, -1 };
        break;
    case AST_TABLE:
        if (!PUSH(c, p->tables, p->ntables, p->tables_cap, d->loc))
            return;
        if (scope_add_name(c, g, d->name, G_TABLE, (int32_t)p->ntables, d->loc, "name"))
            p->tables[p->ntables++] = (res_table){ .name = d->name,
                                                   .decl = d,
                                                   .record = -1,
                                                   .floor_key = -1,
                                                   .module = res_module_of(p, d->loc.file),
                                                   .version_of = -1 };
        break;
    case AST_FN:
        if (!PUSH(c, p->fns, p->nfns, p->fns_cap, d->loc))
            return;
        if (scope_add_name(c, g, d->name, G_FN, (int32_t)p->nfns, d->loc, "name"))
            p->fns[p->nfns++] = (res_fn){ .name = d->name,
                                          .decl = d,
                                          .result = T_ERROR,
                                          .module = res_module_of(p, d->loc.file),
                                          .edition = -1,
                                          .version_of = -1 };
        break;
    case AST_QUERY:
        if (!PUSH(c, p->queries, p->nqueries, p->queries_cap, d->loc))
            return;
        if (scope_add_name(c, g, d->name, G_QUERY, (int32_t)p->nqueries, d->loc, "name"))
            p->queries[p->nqueries++] = (res_query){
                .name = d->name, .decl = d, .result = T_ERROR, .mode = d->op, .moment = -1
            };
        break;
    case AST_EVENT:
        if (!PUSH(c, p->queries, p->nqueries, p->queries_cap, d->loc))
            return;
        if (scope_add_name(c, g, d->name, G_EVENT, (int32_t)p->nqueries, d->loc, "name"))
            p->queries[p->nqueries++] = (res_query){
                .name = d->name, .decl = d, .result = T_NONE, .is_event = true, .moment = -1
            };
        break;
    case AST_VARIANT: {
        if (!PUSH(c, p->variants, p->nvariants, p->variants_cap, d->loc))
            return;
        int32_t e = scope_new_enum(c, d->name, d->doc, d);
        if (e < 0 ||
            !scope_add_name(c, g, d->name, G_VARIANT, (int32_t)p->nvariants, d->loc, "name"))
            return;
        p->enums[e].variant = (int32_t)p->nvariants;
        p->variants[p->nvariants++] = (res_variant){ d->name, d->doc, (uint32_t)e, 0, d };
        for (uint32_t i = 0; i < d->list.len; i++) {
            ast_node *r = d->list.items[i];
            scope_add_member(c, (uint32_t)e, r->name, r->doc, false, r->loc);
        }
        break;
    }
    case AST_EDITION:
        if (!PUSH(c, p->editions, p->neditions, p->editions_cap, d->loc))
            return;
        if (scope_add_name(c, &p->names->editions, d->name, G_OTHER, (int32_t)p->neditions, d->loc,
                           "edition"))
            p->editions[p->neditions++] = (res_edition){ .name = d->name,
                                                         .title = d->title,
                                                         .parent = -1,
                                                         .decl = d,
                                                         .module = res_module_of(p, d->loc.file) };
        break;
    default: break;
    }
}

void scope_face_shows(rctx *c, ast_node *d)
{
    if (d->kind != AST_VOCAB || d->op != AST_VOCAB_FACE || !d->a || !d->a->name)
        return;
    res_program *p = c->p;
    const res_enum *t = &p->enums[E_TERRAIN];
    int32_t face = model_find_member(&p->enums[E_FACE], d->name);
    const ast_loc *at = face >= 0 ? &p->enums[E_FACE].members[face].loc : NULL;
    if (!at || at->file != d->loc.file || at->line != d->loc.line || at->col != d->loc.col)
        return; /* a duplicate face: reported by scope_declare */
    int32_t terrain = model_find_member(t, d->a->name);
    if (terrain >= 0) {
        p->enums[E_FACE].members[face].shows = terrain;
        return;
    }
    near_search s;
    near_begin(&s, d->a->name);
    for (size_t i = 0; i < t->len; i++)
        near_offer(&s, t->members[i].name);
    const char *near = near_result(&s);
    res_err(c, E_UNKNOWN_NAME, d->a->loc, "face `%s` shows `%s`, which is no terrain%s%s%s",
            d->name, d->a->name, near ? " (did you mean `" : "", near ? near : "",
            near ? "`?)" : "");
}
