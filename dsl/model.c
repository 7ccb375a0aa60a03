/* model.c — the resolved program's accessors: look-ups by name, rule sets, citation fields,
 * and model_free (model.h).
 *
 * The name tables behind the look-ups (model_names.h) are filled by the resolver's passes
 * (scope.c, body.c, builtin.c); type names and interning are in type.c. */
#include "cite.h"
#include "model_names.h"

/* ---- name tables ---- */

name_ent *model_find_name(name_ent *table, const char *name)
{
    name_ent *e = NULL;
    if (name)
        HASH_FIND_STR(table, name, e);
    return e;
}

member_ent *model_find_member_ent(const res_program *p, const char *name)
{
    member_ent *m = NULL;
    if (name)
        HASH_FIND_STR(p->names->members, name, m);
    return m;
}

int32_t model_find_member(const res_enum *e, const char *name)
{
    member_ent *m = NULL;
    if (name && e->by_name)
        HASH_FIND_STR(*e->by_name, name, m);
    for (size_t i = 0; m && i < m->len; i++)
        if (m->hits[i].e == e->id)
            return (int32_t)m->hits[i].m;
    return -1;
}

void *model_names_entry(res_program *p, size_t n)
{
    void *e = arena_alloc(&p->names->entries, n);
    if (e)
        memset(e, 0, n);
    return e;
}

/* ---- freeing ---- */

void model_revs_free(res_rev **revs)
{
    res_rev *x, *tmp;
    HASH_ITER(hh, *revs, x, tmp)
    {
        HASH_DEL(*revs, x);
        mem_free(x->key);
        mem_free(x);
    }
}

/* Empties a name table (its entries are the names' arena's). */
static void free_names(name_ent **table)
{
    HASH_CLEAR(hh, *table);
}

/* A view's rule sets: one block with their rules (edition.c, sets_room). */
static void sets_free(res_ruleset *s, size_t n)
{
    (void)n;
    mem_free(s);
}

void model_free(res_program *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nenums; i++)
        mem_free(p->enums[i].members);
    for (size_t i = 0; i < p->ntables; i++) {
        res_table *t = &p->tables[i];
        if (t->version_of < 0) /* a version borrows the declared table's keys */
            mem_free(t->keys);
        for (size_t r = 0; r < t->nrows; r++)
            mem_free(t->rows[r].keys);
        mem_free(t->rows);
        mem_free(t->dense);
    }
    for (size_t i = 0; i < p->neditions; i++) {
        res_edition *e = &p->editions[i];
        sets_free(e->sets, p->nqueries);
        mem_free(e->set_rules);
        mem_free(e->variant_set);
        mem_free(e->parents);
        mem_free(e->uses);
        mem_free(e->books);
        mem_free(e->ancestors);
        mem_free(e->fn_of);
        mem_free(e->table_of);
        unit_pool_free(e->units);
        model_revs_free(&e->revs);
    }
    mem_free(p->modules);
    mem_free(p->file_modules);
    mem_free(p->module_by_file);
    mem_free(p->cites_later);
    for (size_t i = 0; i < p->ntests; i++) {
        mem_free(p->tests[i].variant_set);
        mem_free(p->tests[i].expects);
        mem_free(p->tests[i].dice);
    }
    sets_free(p->base, p->nqueries);
    mem_free(p->base_rules);
    mem_free(p->types);
    mem_free(p->enums);
    mem_free(p->records);
    mem_free(p->slots);
    mem_free(p->counters);
    mem_free(p->tables);
    mem_free(p->fns);
    mem_free(p->queries);
    mem_free(p->rules);
    mem_free(p->variants);
    mem_free(p->editions);
    mem_free(p->tests);
    unit_pool_free(p->units);
    if (p->names) {
        free_names(&p->names->globals);
        free_names(&p->names->slots);
        free_names(&p->names->editions);
        free_names(&p->names->rules);
        for (member_ent *m = p->names->members; m; m = m->hh.next)
            if (m->hits != &m->one)
                mem_free(m->hits);
        HASH_CLEAR(hh, p->names->members);
        HASH_CLEAR(hh, p->names->types);
        arena_free(&p->names->entries);
        mem_free(p->names);
    }
    mem_free(p);
}

/* ---- look-ups ---- */

static int32_t find_global(const res_program *p, const char *name, gkind k)
{
    name_ent *g = p ? model_find_name(p->names->globals, name) : NULL;
    return g && g->kind == k ? g->id : -1;
}

int32_t model_find_query(const res_program *p, const char *name)
{
    return find_global(p, name, G_QUERY);
}
int32_t model_find_event(const res_program *p, const char *name)
{
    return find_global(p, name, G_EVENT);
}

int32_t model_find_fn(const res_program *p, const char *name)
{
    return find_global(p, name, G_FN);
}

int32_t model_find_counter(const res_program *p, const char *name)
{
    int32_t c = find_global(p, name, G_COUNTER);
    return c >= 0 ? p->counters[c].unit : -1;
}
int32_t model_find_table(const res_program *p, const char *name)
{
    return find_global(p, name, G_TABLE);
}
int32_t model_find_variant(const res_program *p, const char *name)
{
    return find_global(p, name, G_VARIANT);
}

int32_t model_find_edition(const res_program *p, const char *name)
{
    name_ent *e = p ? model_find_name(p->names->editions, name) : NULL;
    return e ? e->id : -1;
}

int32_t model_find_rule(const res_program *p, const char *full_name)
{
    name_ent *e = p ? model_find_name(p->names->rules, full_name) : NULL;
    return e ? e->id : -1;
}

ast_node *model_find_decl(const res_program *p, const char *name)
{
    name_ent *g = p ? model_find_name(p->names->globals, name) : NULL;
    if (!g) {
        int32_t e = model_find_edition(p, name);
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

/* Whether rule a comes before rule b in a set: higher priority first, then rule order (seq). */
static bool rule_before(const res_program *p, uint32_t a, uint32_t b)
{
    const res_rule *x = &p->rules[a], *y = &p->rules[b];
    return x->priority != y->priority ? x->priority > y->priority : x->seq < y->seq;
}

/* Sorts the n rules of *list into sets (the view's block, edition.c's sets_room: nqueries
 * sets, then room for n rule ids): each set gets its query's rules in list order, then is
 * ordered by rule_before, stably (an insertion sort: a set is most often in order already,
 * one comparison a rule, and a few rules with a priority move up; no memory asked for, so
 * nothing can fail). Frees *list and sets it NULL: the view is made. */
static void sets_fill(const res_program *p, res_ruleset *s, uint32_t **list, size_t n)
{
    uint32_t *room = (uint32_t *)(void *)(s + p->nqueries);
    const uint32_t *r = *list;
    for (size_t q = 0; q < p->nqueries; q++)
        s[q] = (res_ruleset){ 0 };
    for (size_t i = 0; i < n; i++)
        s[p->rules[r[i]].query].cap++;
    for (size_t q = 0, at = 0; q < p->nqueries; at += s[q].cap, q++)
        s[q].rules = room + at;
    for (size_t i = 0; i < n; i++) {
        res_ruleset *set = &s[p->rules[r[i]].query];
        set->rules[set->len++] = r[i];
    }
    for (size_t q = 0; q < p->nqueries; q++) {
        uint32_t *x = s[q].rules;
        for (size_t i = 1; i < s[q].len; i++) {
            uint32_t rule = x[i];
            size_t j = i;
            for (; j > 0 && rule_before(p, rule, x[j - 1]); j--)
                x[j] = x[j - 1];
            x[j] = rule;
        }
    }
    mem_free(*list);
    *list = NULL;
}

const res_ruleset *model_rules_of(const res_program *p, int32_t ed, uint32_t q)
{
    static const res_ruleset empty = { 0 };
    if (q >= p->nqueries)
        return &empty;
    if (ed >= 0 && (size_t)ed < p->neditions && p->editions[ed].sets) {
        res_edition *e = &p->editions[ed];
        if (e->set_rules)
            sets_fill(p, e->sets, &e->set_rules, e->nset_rules);
        return &e->sets[q];
    }
    if (!p->base)
        return &empty;
    if (p->base_rules) /* the program's own fields: the one write a reader makes (model.h) */
        sets_fill(p, p->base, &((res_program *)p)->base_rules, p->nbase_rules);
    return &p->base[q];
}

int32_t res_module_of(const res_program *p, uint32_t file)
{
    if (p && p->module_by_file)
        return file < p->nmodule_by_file ? p->module_by_file[file] : 0;
    for (size_t i = 0; p && i < p->nfile_modules; i++)
        if (p->file_modules[i].file == file)
            return p->file_modules[i].module;
    return 0;
}

const char *res_module_name(const res_program *p, int32_t m)
{
    return p && m > 0 && (size_t)m < p->nmodules ? p->modules[m].name : NULL;
}

/* The edition ed of p, or NULL (no edition, or an id out of range). */
static const res_edition *edition_at(const res_program *p, int32_t ed)
{
    return p && ed >= 0 && (size_t)ed < p->neditions ? &p->editions[ed] : NULL;
}

uint32_t res_fn_of(const res_program *p, int32_t ed, uint32_t f)
{
    const res_edition *e = edition_at(p, ed);
    return e && e->fn_of && f < e->nfn_of ? (uint32_t)e->fn_of[f] : f;
}

uint32_t res_table_of(const res_program *p, int32_t ed, uint32_t t)
{
    const res_edition *e = edition_at(p, ed);
    return e && e->table_of && t < e->ntable_of ? (uint32_t)e->table_of[t] : t;
}

const unit_pool *res_units_of(const res_program *p, int32_t ed)
{
    const res_edition *e = edition_at(p, ed);
    return e && e->units ? e->units : p->units;
}

const char *model_cite_id(const ast_node *cite)
{
    return cite->name;
}
/* Resolves p's deferred citations, when they are (model_cite_source). */
static void cites_resolved(const res_program *p)
{
    if (p && p->cites_later && !p->cites_later->done) {
        diag_list dl;
        diag_list_init(&dl, NULL);
        p->cites_later->done = cite_resolve(p->files, p->nfiles, &dl);
        diag_list_clear(&dl);
    }
}
const char *model_cite_source(const res_program *p, const ast_node *cite)
{
    cites_resolved(p);
    return cite->title;
}
const bool *model_edition_modules(const res_program *p, int32_t ed)
{
    const res_edition *e = edition_at(p, ed);
    return e ? e->books : NULL;
}
bool model_cite_in_play(const res_program *p, const bool *uses, const ast_node *cite)
{
    if (!uses || !p)
        return true;
    cites_resolved(p);
    if (cite->ival <= 0) /* no declaration found */
        return true;
    int32_t m = res_module_of(p, (uint32_t)(cite->ival - 1));
    return m <= 0 || (size_t)m >= p->nmodules || uses[m];
}
bool model_cites_none_in_play(const res_program *p, const bool *uses, const ast_vec *cites)
{
    if (!uses || !cites)
        return false;
    for (uint32_t i = 0; i < cites->len; i++)
        if (model_cite_in_play(p, uses, cites->items[i]))
            return false;
    return cites->len > 0;
}
const char *model_cite_example(const ast_node *cite)
{
    return cite->doc;
}
