/* edition.c — editions and revisions: pass 3 resolves each edition's parent, its own rules and
 * `set variant` readings; pass 4 computes, per edition and query, the rule set in evaluation
 * order: the parent's, with this edition's `replace`, `remove` and new rules applied.
 *
 * It reads the rules body.c created; interp/ reads the sets through model_rules_of (model.c). */
#include <string.h>

#include "resolve_int.h"

/* ---- pass 3: edition bodies ---- */

int32_t edition_named(rctx *c, const char *name, ast_loc loc)
{
    name_ent *e = model_find_name(c->p->names->editions, name);
    if (!e)
        res_err(c, E_NO_EDITION, loc, "unknown edition `%s`", name ? name : "?");
    return e ? e->id : -1;
}

/* Resolves `set variant V = R`; returns the variant id and stores the reading, or -1. */
int32_t edition_set_variant(rctx *c, ast_node *s, int32_t *reading)
{
    res_program *p = c->p;
    name_ent *g = model_find_name(p->names->globals, s->name);
    if (!g || g->kind != G_VARIANT) {
        res_err(c, E_UNKNOWN_NAME, s->loc, "unknown variant `%s`", s->name ? s->name : "?");
        return -1;
    }
    const res_variant *v = &p->variants[g->id];
    *reading = model_find_member(&p->enums[v->enum_id], s->ref);
    if (*reading < 0) {
        res_err(c, E_READING, s->loc, "variant `%s` has no reading `%s`", v->name,
                s->ref ? s->ref : "?");
        return -1;
    }
    return g->id;
}

void edition_body(rctx *c, ast_node *d)
{
    res_program *p = c->p;
    name_ent *e = model_find_name(p->names->editions, d->name);
    int32_t id = e && p->editions[e->id].decl == d ? e->id : -1;
    if (id >= 0 && d->ref)
        p->editions[id].parent = edition_named(c, d->ref, d->loc);
    /* `set variant` items are checked with the rule sets (pass 4). */
    for (uint32_t i = 0; i < d->list.len; i++) {
        ast_node *it = d->list.items[i];
        if (it->kind == AST_RULE)
            body_rule(c, it, id < 0 ? INT32_MAX : id);
    }
}

/* ---- pass 4: editions and rule sets ---- */

static bool set_push(rctx *c, res_ruleset *s, uint32_t rule)
{
    if (!MEM_GROW(s->rules, s->len, s->cap)) {
        res_oom(c, (ast_loc){ 0 });
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
    if (!table_msort(s->rules, s->len, sizeof *s->rules, cmp_rule_order, c->p))
        res_oom(c, (ast_loc){ 0 });
}

static res_ruleset *sets_new(rctx *c, const res_ruleset *from)
{
    size_t nq = c->p->nqueries;
    res_ruleset *s = mem_calloc(nq ? nq : 1, sizeof *s);
    if (!s) {
        res_oom(c, (ast_loc){ 0 });
        return NULL;
    }
    for (size_t q = 0; from && q < nq; q++)
        for (size_t i = 0; i < from[q].len; i++)
            if (!set_push(c, &s[q], from[q].rules[i]))
                return s;
    return s;
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
    HASH_ITER(hh, *t, x, tmp)
    {
        HASH_DEL(*t, x);
        mem_free(x);
    }
}

static bool place_add(rctx *c, place **t, const char *name, uint32_t q, size_t at)
{
    place *x = mem_malloc(sizeof *x);
    if (!x) {
        res_oom(c, (ast_loc){ 0 });
        return false;
    }
    *x = (place){ .key = name, .q = q, .at = at };
    HASH_ADD_KEYPTR(hh, *t, x->key, strlen(x->key), x);
    if (!HON_HASH_ADDED(x)) {
        mem_free(x);
        res_oom(c, (ast_loc){ 0 });
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
            int32_t r, v = edition_set_variant(c, it, &r);
            if (v >= 0 && e->variant_set)
                e->variant_set[v] = r;
            continue;
        }
        if (it->kind != AST_REMOVE && it->kind != AST_RULE)
            continue;
        if (it->kind == AST_RULE && it->an.sym == UINT32_MAX)
            continue; /* its query is unknown: reported already */
        const char *name = it->name ? it->name : "";
        place *x = NULL;
        HASH_FIND_STR(where, name, x);
        if (it->kind == AST_REMOVE || it->op == AST_EDIT_REPLACE) {
            if (!x) {
                res_err(c, E_NO_RULE, it->loc,
                        "edition `%s` %s rule `%s`, which does not exist in %s", e->name,
                        it->kind == AST_REMOVE ? "removes" : "replaces", name, parent_text(p, e));
                continue;
            }
            uint32_t *slot = &e->sets[x->q].rules[x->at];
            if (it->kind == AST_REMOVE) {
                *slot = UINT32_MAX;
                HASH_DEL(where, x);
                mem_free(x);
            } else {
                p->rules[it->an.sym].seq = p->rules[*slot].seq;
                *slot = it->an.sym;
            }
            continue;
        }
        if (x) {
            diag *dg = diag_report(c->d, E_DUPLICATE, DIAG_ERROR, it->loc,
                                   "edition `%s` adds rule `%s`, which already exists (write "
                                   "`replace rule` to revise it)",
                                   e->name, name);
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
        res_err(c, E_CYCLE, e->decl->loc, "edition `%s` extends itself through its parents",
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
        e->variant_set = mem_malloc(p->nvariants * sizeof *e->variant_set);
        if (!e->variant_set) {
            res_oom(c, e->decl->loc);
            return;
        }
        for (size_t v = 0; v < p->nvariants; v++)
            e->variant_set[v] = par && par->variant_set ? par->variant_set[v] : -1;
    }
    if (e->sets)
        apply_items(c, e);
}

void edition_rule_sets(rctx *c)
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
    c->edition_state = mem_calloc(p->neditions, sizeof *c->edition_state);
    if (!c->edition_state) {
        res_oom(c, (ast_loc){ 0 });
        return;
    }
    for (size_t e = 0; e < p->neditions; e++)
        edition_sets(c, (int32_t)e);
    mem_free(c->edition_state);
    c->edition_state = NULL;
}
