/* resolve.c — the resolver's entry points and pass order: ast_files in, one res_program out.
 *
 * After the built-in names and the files' modules, four passes over every file in load order:
 * (1) declare every name (scope.c), (2) signatures (type.c, table.c), (3) bodies (body.c,
 * table.c, edition.c, test.c, builtin.c; expressions in expr.c), (4) each edition's view of
 * the program: its revisions (edition.c, revise.c), rule sets and versions; then the
 * citations (cite.c). Every pass keeps going after an error (E1xx); resolve_int.h
 * holds what the passes share.
 */
#include <stdarg.h>

#include "ast_image.h"
#include "cite.h"
#include "front.h"
#include "resolve_int.h"

void res_err(rctx *c, int code, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(c->d, code, DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
}

void res_oom(rctx *c, ast_loc loc)
{
    if (!c->oom)
        res_err(c, E_LIMIT, loc, "out of memory while resolving");
    c->oom = true;
}

bool res_body_ready(rctx *c, ast_node *d)
{
    if (!d || !d->body)
        return true;
    ast_file *f = NULL;
    for (size_t i = 0; i < c->nfiles && !f; i++)
        if (c->files[i] && c->files[i]->file_id == d->loc.file)
            f = c->files[i];
    if (ast_body_ready(f, d, front_reparse))
        return true;
    res_oom(c, d->loc);
    return false;
}

/* ---- the program ---- */

static res_program *program_new(rctx *c)
{
    res_program *p = mem_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->default_edition = -1;
    p->modules = mem_calloc(1, sizeof *p->modules); /* modules[0]: the unnamed module */
    if (!p->modules) {
        mem_free(p);
        return NULL;
    }
    p->nmodules = p->modules_cap = 1;
    for (int m = 0; m < RES_MOMENT_COUNT; m++)
        p->moments[m] = -1;
    p->names = mem_calloc(1, sizeof *p->names);
    if (!p->names) {
        mem_free(p->modules);
        mem_free(p);
        return NULL;
    }
    c->p = p;
    /* Fixed types, in the order of the T_* ids. */
    static const res_tkind fixed[] = { RT_NONE,  RT_INT,    RT_BOOL, RT_VERDICT, RT_UNIT,
                                       RT_ERROR, RT_SQUARE, RT_SIDE, RT_ELEMENT };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (type_interned(p, fixed[i], 0) != i)
            return NULL;
    static const struct {
        const char *name;
        uint32_t t;
    } tnames[] = { { "int", T_INT },        { "bool", T_BOOL },     { "verdict", T_VERDICT },
                   { "unit", T_UNIT },      { "square", T_SQUARE }, { "square_side", T_SIDE },
                   { "element", T_ELEMENT } };
    for (size_t i = 0; i < sizeof tnames / sizeof tnames[0]; i++)
        if (!scope_add_name(c, &p->names->globals, tnames[i].name, G_TYPE, (int32_t)tnames[i].t,
                            (ast_loc){ 0 }, "type"))
            return NULL;
    static const char *const benums[] = { "kind",           "side",         "ability",
                                          "marker",         "token",        "terrain",
                                          "square_feature", "side_feature", "interspace_item",
                                          "direction",      "phase",        "face" };
    for (size_t i = 0; i < E_FIRST_FREE; i++) {
        int32_t e = scope_new_enum(c, benums[i], NULL, NULL);
        if (e != (int32_t)i ||
            !scope_add_name(c, &p->names->globals, benums[i], G_ENUM, e, (ast_loc){ 0 }, "enum"))
            return NULL;
    }
    /* direction: fixed members in the order of geo_dir (runtime/geo.h) */
    static const char *const dirs[] = { "north", "northeast", "east", "southeast",
                                        "south", "southwest", "west", "northwest" };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (scope_add_member(c, E_DIRECTION, dirs[i], NULL, false, (ast_loc){ 0 }) != (int32_t)i)
            return NULL;
    /* face: `none`, the face everything shows until it is flipped (RES_FACE_NONE) */
    if (scope_add_member(c, E_FACE, "none", "shows its ordinary face", false, (ast_loc){ 0 }) !=
        RES_FACE_NONE)
        return NULL;
    /* the record `step` (R_STEP): one step of a traced line */
    static const struct {
        const char *name;
        uint32_t t;
    } sfields[STEP_NFIELDS] = {
        [STEP_SQUARE] = { "square", T_SQUARE }, [STEP_FROM] = { "from", T_SQUARE },
        [STEP_CORNER] = { "corner", T_BOOL },   [STEP_SIDE] = { "side", T_SIDE },
        [STEP_LEFT] = { "left", T_SQUARE },     [STEP_RIGHT] = { "right", T_SQUARE },
        [STEP_INDEX] = { "index", T_INT }
    };
    if (!MEM_GROW(p->records, p->nrecords, p->records_cap))
        return NULL;
    res_record *step = &p->records[R_STEP];
    *step = (res_record){ .name = "step", .table = -1 };
    step->fields = model_names_entry(p, STEP_NFIELDS * sizeof *step->fields);
    if (!step->fields)
        return NULL;
    for (size_t i = 0; i < STEP_NFIELDS; i++)
        step->fields[i] = (res_field){ sfields[i].name, sfields[i].t, (ast_loc){ 0 } };
    step->nfields = STEP_NFIELDS;
    step->type = type_intern(c, RT_RECORD, R_STEP, (ast_loc){ 0 });
    p->nrecords = 1;
    if (!scope_add_name(c, &p->names->globals, "step", G_RECORD, R_STEP, (ast_loc){ 0 }, "record"))
        return NULL;
    /* Built-in functions; `terrain` is also the name of an enum, which already holds it. */
    if (!builtin_declare(c))
        return NULL;
    return c->oom ? NULL : p;
}

res_program *res_resolve(ast_file *const *files, size_t nfiles, diag_list *diags)
{
    return res_resolve_as(files, nfiles, false, diags);
}

res_program *res_resolve_as(ast_file *const *files, size_t nfiles, bool defer, diag_list *diags)
{
    rctx c = { .d = diags, .defer = defer, .files = files, .nfiles = nfiles };
    size_t errors0 = diags->errors;
    res_program *p = program_new(&c);
    if (!p) {
        model_free(c.p);
        diag_report(diags, E_LIMIT, DIAG_ERROR, (ast_loc){ 0 }, "out of memory while resolving");
        return NULL;
    }
    p->files = files;
    p->nfiles = nfiles;
#define EACH_DECL(body)                                                       \
    for (size_t fi = 0; fi < nfiles; fi++)                                    \
        for (uint32_t di = 0; files[fi] && di < files[fi]->decls.len; di++) { \
            ast_node *d = files[fi]->decls.items[di];                         \
            body;                                                             \
        }
    scope_modules(&c, files, nfiles);
    EACH_DECL(scope_declare(&c, d));
    EACH_DECL(scope_face_shows(&c, d));
    p->units = unit_pool_new((uint32_t)p->enums[E_ABILITY].len, (uint32_t)p->enums[E_MARKER].len,
                             (uint32_t)p->nslots);
    if (!p->units)
        res_oom(&c, (ast_loc){ 0 });
    /* Each unit has an array entry per ability, marker and value: bound the product. */
    size_t per_unit = (p->enums[E_ABILITY].len / 64 + 1 + p->enums[E_ABILITY].len + p->nslots +
                       p->nslots / 64 + 1) *
                          8 +
                      p->enums[E_MARKER].len * 4 + 64;
    if (p->ncounters && per_unit > RES_MAX_UNIT_BYTES / p->ncounters) {
        res_err(&c, E_LIMIT, p->counters[0].decl->loc,
                "%zu counters with %zu abilities, %zu markers and %zu values are too many to hold",
                p->ncounters, p->enums[E_ABILITY].len, p->enums[E_MARKER].len, p->nslots);
        p->ncounters = 0;
    }
    for (size_t i = 0; p->units && i < p->ncounters; i++) {
        p->counters[i].unit = unit_add(p->units, p->counters[i].name, p->counters[i].decl->title);
        if (p->counters[i].unit < 0)
            res_oom(&c, p->counters[i].decl->loc);
    }
    EACH_DECL(type_signature(&c, d));
    bool have_default = false;
    EACH_DECL(switch (d->kind) {
        case AST_COUNTER: {
            name_ent *g = model_find_name(p->names->globals, d->name);
            if (g && g->kind == G_COUNTER && p->counters[g->id].decl == d &&
                p->counters[g->id].unit >= 0)
                body_counter(&c, &p->counters[g->id]);
            break;
        }
        case AST_TABLE: {
            name_ent *g = model_find_name(p->names->globals, d->name);
            if (g && g->kind == G_TABLE && p->tables[g->id].decl == d)
                table_body(&c, &p->tables[g->id]);
            break;
        }
        case AST_FN: {
            name_ent *g = model_find_name(p->names->globals, d->name);
            if (g && g->kind == G_FN && p->fns[g->id].decl == d)
                body_fn(&c, &p->fns[g->id]);
            break;
        }
        case AST_QUERY: {
            name_ent *g = model_find_name(p->names->globals, d->name);
            if (g && g->kind == G_QUERY && p->queries[g->id].decl == d)
                body_query(&c, &p->queries[g->id]);
            break;
        }
        case AST_RULE: body_rule(&c, d, -1); break;
        case AST_EDITION: edition_body(&c, d); break;
        case AST_DEFAULT_EDITION: {
            int32_t e = edition_named(&c, d->name, d->loc);
            if (have_default)
                res_err(&c, E_TWO_DEFAULT_EDITIONS, d->loc, "a second `default edition`");
            else if (e >= 0)
                p->default_edition = e;
            have_default = true;
            break;
        }
        case AST_TEST: test_body(&c, d); break;
        case AST_EVENT: builtin_event_body(&c, d); break;
        default: break;
    })
#undef EACH_DECL
    /* Rules added by an edition whose own declaration clashed got edition INT32_MAX: they
     * belong to no rule set. */
    for (size_t r = 0; r < p->nrules; r++)
        if (p->rules[r].edition == INT32_MAX)
            p->rules[r].edition = -2;
    if (!c.oom)
        edition_views(&c, files, nfiles);
    /* A deferred build's citations wait for their first reader (model_cite_source): its set
     * reported nothing when it was resolved whole, so neither would they (bench.md §9). */
    if (!c.oom && c.defer && !(p->cites_later = mem_calloc(1, sizeof *p->cites_later)))
        res_oom(&c, (ast_loc){ 0 });
    if (!c.oom && !c.defer && !cite_resolve(files, nfiles, diags))
        c.oom = true;
    mem_free(c.locals);
    if (c.oom || diags->errors > errors0) {
        model_free(p);
        return NULL;
    }
    return p;
}

/* ---- deferred bodies ---- */

static void rule_later(rctx *c, uint32_t r)
{
    /* A body left in its image was not there for body_rule's checks of its kind: made now
     * (a clean set passes them; a forged record must not reach the compiler with a rule of
     * the wrong kind). */
    ast_node *d = c->p->rules[r].decl;
    if (!res_body_ready(c, d))
        return;
    if (!body_rule_kind(c, d, c->p->queries[c->p->rules[r].query].is_event))
        return;
    body_rule_clauses(c, r);
}

static void fn_later(rctx *c, uint32_t f)
{
    body_fn(c, &c->p->fns[f]);
}

static void default_later(rctx *c, uint32_t q)
{
    body_default(c, &c->p->queries[q]);
}

/* Resolves one deferred body (later(c, id)) in a context of its own; false when that
 * reported anything or ran out of memory (what it annotated is annotated again next time). */
static bool resolve_later(res_program *p, void (*later)(rctx *, uint32_t), uint32_t id)
{
    diag_list dl; /* a clean set (res_resolve_as): only memory can fail here */
    diag_list_init(&dl, NULL);
    rctx c = { .p = p, .d = &dl, .files = p->files, .nfiles = p->nfiles };
    later(&c, id);
    mem_free(c.locals);
    bool ok = !c.oom && dl.len == 0;
    diag_list_clear(&dl);
    return ok;
}

bool res_rule_ready(res_program *p, uint32_t r)
{
    if (r >= p->nrules || !p->rules[r].deferred)
        return true;
    if (!resolve_later(p, rule_later, r))
        return false;
    p->rules[r].deferred = false;
    return true;
}

bool res_fn_ready(res_program *p, uint32_t f)
{
    if (f >= p->nfns || !p->fns[f].deferred)
        return true;
    if (!resolve_later(p, fn_later, f))
        return false;
    p->fns[f].deferred = false;
    return true;
}

bool res_default_ready(res_program *p, uint32_t q)
{
    if (q >= p->nqueries || !p->queries[q].dflt_deferred)
        return true;
    if (!resolve_later(p, default_later, q))
        return false;
    p->queries[q].dflt_deferred = false;
    return true;
}

uint32_t res_expr(res_program *p, ast_node *expr, uint32_t want, diag_list *diags,
                  uint32_t *nlocals)
{
    rctx c = { .p = p, .d = diags };
    size_t errors0 = diags->errors;
    uint32_t t = expr_check(&c, expr, want);
    mem_free(c.locals);
    if (nlocals)
        *nlocals = c.next_slot;
    return diags->errors > errors0 || c.oom ? T_ERROR : t;
}

int32_t res_raise_call(res_program *p, ast_node *call, diag_list *diags, uint32_t *nlocals)
{
    rctx c = { .p = p, .d = diags };
    size_t errors0 = diags->errors;
    int32_t e = -1;
    if (!call || call->kind != AST_CALL) {
        res_err(&c, E_NOT_EVENT, call ? call->loc : (ast_loc){ 0 },
                "a procedure is an event and its arguments: EVENT(ARG, ...)");
    } else {
        e = body_raise_args(&c, call, &call->list);
        call->an.type = T_NONE;
    }
    mem_free(c.locals);
    if (nlocals)
        *nlocals = c.next_slot;
    return diags->errors > errors0 || c.oom ? -1 : e;
}
