/* edition.c — editions (language.md §3.8): pass 3 resolves each edition's parents, the modules
 * it uses and the rules it declares; pass 4 builds each edition's view of the program, parents
 * first: their revisions merged (a thing two parents revise differently, neither superseding
 * the other, is E144 unless the edition says which wins), its own items applied (revise.c),
 * then, once every edition is built, its rules (sorted into its rule sets when the view is
 * first asked, model.c) and its versions of fns, tables, counters and variant readings.
 *
 * It reads the rules body.c created; interp/ reads the views through model_rules_of,
 * res_fn_of, res_table_of and res_units_of (model.c). */
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
    if (id >= 0 && d->params.len) {
        res_edition *ed = &p->editions[id];
        ed->parents = mem_calloc(d->params.len, sizeof *ed->parents);
        if (!ed->parents) {
            res_oom(c, d->loc);
            return;
        }
        for (uint32_t i = 0; i < d->params.len; i++) {
            const ast_node *n = d->params.items[i];
            int32_t par = edition_named(c, n->name, n->loc);
            for (uint32_t k = 0; par >= 0 && k < ed->nparents; k++)
                if (ed->parents[k] == par) {
                    res_err(c, E_DUPLICATE, n->loc, "edition `%s` extends `%s` twice", ed->name,
                            n->name);
                    par = -1;
                }
            if (par >= 0)
                ed->parents[ed->nparents++] = par;
        }
        ed->parent = ed->nparents ? ed->parents[0] : -1;
    }
    for (uint32_t i = 0; i < d->list2.len; i++) {
        const ast_node *n = d->list2.items[i];
        if (scope_module_named(p, n->name) < 0)
            res_err(c, E_MODULE, n->loc,
                    "unknown module `%s` (a file declares it with `module %s;`)",
                    n->name ? n->name : "?", n->name ? n->name : "?");
    }
    /* The other items are applied with the edition's view (pass 4). */
    for (uint32_t i = 0; i < d->list.len; i++) {
        ast_node *it = d->list.items[i];
        if (it->kind == AST_RULE)
            body_rule(c, it, id < 0 ? INT32_MAX : id);
    }
}

/* ---- revisions: the entries of a view ---- */

res_rev *edition_rev(const res_edition *e, const char *key)
{
    res_rev *x = NULL;
    if (key)
        HASH_FIND_STR(e->revs, key, x);
    return x;
}

res_rev *edition_rev_put(rctx *c, int32_t ed, char *key, size_t decl_len, rev_kind kind,
                         const ast_node *node)
{
    res_edition *e = &c->p->editions[ed];
    if (!key) {
        res_oom(c, node ? node->loc : (ast_loc){ 0 });
        return NULL;
    }
    res_rev *x = edition_rev(e, key);
    if (x) {
        mem_free(key);
    } else {
        x = mem_calloc(1, sizeof *x);
        if (!x) {
            mem_free(key);
            res_oom(c, node ? node->loc : (ast_loc){ 0 });
            return NULL;
        }
        x->key = key;
        HASH_ADD_KEYPTR(hh, e->revs, x->key, strlen(x->key), x);
        if (!HON_HASH_ADDED(x)) {
            mem_free(x->key);
            mem_free(x);
            res_oom(c, node ? node->loc : (ast_loc){ 0 });
            return NULL;
        }
    }
    x->decl_len = decl_len;
    x->kind = kind;
    x->origin = ed;
    x->node = node;
    x->rival = NULL;
    x->from = x->rival_from = -1;
    return x;
}

/* Whether two entries of one key give the same version. */
static bool rev_same(const res_rev *a, const res_rev *b)
{
    if (a->kind == REV_CELL)
        return a->cell.given == b->cell.given && (!a->cell.given || a->cell.v == b->cell.v);
    return a->version == b->version;
}

/* Whether edition `later` extends edition `earlier` (at any remove); every edition extends
 * "-1", the program as declared. */
static bool extends(const res_program *p, int32_t later, int32_t earlier)
{
    if (earlier < 0)
        return later >= 0;
    return later >= 0 && p->editions[later].ancestors && p->editions[later].ancestors[earlier];
}

/* ---- pass 4: merging the parents ---- */

/* Whether prefer item `pr` of an edition covers entry x: a bare `prefer E;` covers every
 * thing, `prefer E for KIND NAME;` the things of that declaration. */
static bool prefer_covers(const ast_node *pr, const res_rev *x)
{
    if (!pr->ref)
        return true;
    size_t k = strlen(pr->ref), n = pr->name2 ? strlen(pr->name2) : 0;
    return x->decl_len == k + 1 + n && strncmp(x->key, pr->ref, k) == 0 && x->key[k] == ' ' &&
           strncmp(x->key + k + 1, pr->name2 ? pr->name2 : "", n) == 0;
}

/* One parent's version of a key: its entry (NULL: the thing as declared) and the parent. */
typedef struct candidate {
    const res_rev *x;
    int32_t from;
} candidate;

/* The prefer items of edition ed, their editions (-1 after an error) and whether each settled
 * a conflict. */
typedef struct prefers {
    const ast_node **items;
    int32_t *edition;
    bool *used;
    size_t n;
} prefers;

static void prefers_free(prefers *pf)
{
    mem_free(pf->items);
    mem_free(pf->edition);
    mem_free(pf->used);
}

/* Collects the `prefer` items of edition ed (E141 for an unknown edition, E144 for one that is
 * not a parent). */
static bool prefers_of(rctx *c, int32_t ed, prefers *pf)
{
    const res_edition *e = &c->p->editions[ed];
    const ast_vec *items = &e->decl->list;
    *pf = (prefers){ 0 };
    size_t n = 0;
    for (uint32_t i = 0; i < items->len; i++)
        n += items->items[i]->kind == AST_PREFER;
    if (!n)
        return true;
    pf->items = mem_calloc(n, sizeof *pf->items);
    pf->edition = mem_calloc(n, sizeof *pf->edition);
    pf->used = mem_calloc(n, sizeof *pf->used);
    if (!pf->items || !pf->edition || !pf->used) {
        prefers_free(pf);
        res_oom(c, e->decl->loc);
        return false;
    }
    for (uint32_t i = 0; i < items->len; i++) {
        const ast_node *it = items->items[i];
        if (it->kind != AST_PREFER)
            continue;
        int32_t w = edition_named(c, it->name, it->loc);
        bool parent = false;
        for (uint32_t k = 0; w >= 0 && k < e->nparents; k++)
            parent |= e->parents[k] == w;
        if (w >= 0 && !parent)
            res_err(c, E_CONFLICT, it->loc,
                    "edition `%s` prefers `%s`, which is not one of the editions it extends",
                    e->name, it->name);
        pf->items[pf->n] = it;
        pf->edition[pf->n++] = parent ? w : -1;
    }
    return true;
}

/* Copies parent entry x into edition ed as the version it gets from parent `from`. */
static res_rev *take(rctx *c, int32_t ed, const res_rev *x, int32_t from)
{
    res_rev *y = edition_rev_put(c, ed, mem_strdup(x->key), x->decl_len, x->kind, x->node);
    if (!y)
        return NULL;
    y->a = x->a;
    y->b = x->b;
    y->c = x->c;
    y->version = x->version;
    y->cell = x->cell;
    y->origin = x->origin;
    y->from = from;
    return y;
}

/* The version edition ed gets for key from its parents' candidates (n of them, parents'
 * order). A candidate superseded along a line of editions (its origin is extended by another
 * candidate's) drops out; of several left, the one a `prefer` names wins, else the first two
 * are kept as rivals for E144 (unless the edition's own items revise the key). */
static void settle(rctx *c, int32_t ed, candidate *cand, size_t n, prefers *pf)
{
    const res_program *p = c->p;
    size_t left = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t oi = cand[i].x ? cand[i].x->origin : -1;
        bool drop = false;
        for (size_t k = 0; k < n && !drop; k++) {
            int32_t ok = cand[k].x ? cand[k].x->origin : -1;
            bool same = (cand[i].x && cand[k].x && rev_same(cand[i].x, cand[k].x)) ||
                        (!cand[i].x && !cand[k].x);
            drop = k != i && ((same && k < i) || (!same && oi != ok && extends(p, ok, oi)));
        }
        if (!drop)
            cand[left++] = cand[i];
    }
    if (left == 1) {
        if (cand[0].x)
            take(c, ed, cand[0].x, cand[0].from);
        return;
    }
    for (size_t f = 0; f < pf->n; f++)
        for (size_t i = 0; i < left; i++)
            if (pf->edition[f] == cand[i].from && cand[i].x &&
                prefer_covers(pf->items[f], cand[i].x)) {
                pf->used[f] = true;
                take(c, ed, cand[i].x, cand[i].from);
                return;
            }
    /* Both candidates may not hold an entry (one is the thing as declared): keep one that does. */
    size_t first = cand[0].x ? 0 : 1, other = first == 0 ? 1 : 0;
    res_rev *y = take(c, ed, cand[first].x, cand[first].from);
    if (y) {
        y->rival = (res_rev *)cand[other].x;
        y->rival_from = cand[other].from;
    }
}

/* Edition ed's entries from its parents: each key any parent revises, settled. */
static void merge(rctx *c, int32_t ed, prefers *pf)
{
    res_program *p = c->p;
    const res_edition *e = &p->editions[ed];
    candidate *cand = mem_calloc(e->nparents + 1, sizeof *cand);
    if (!cand) {
        res_oom(c, e->decl->loc);
        return;
    }
    for (uint32_t i = 0; i < e->nparents; i++) {
        const res_edition *par = &p->editions[e->parents[i]];
        for (const res_rev *x = par->revs; x; x = x->hh.next) {
            if (edition_rev(e, x->key))
                continue; /* settled already */
            for (uint32_t k = 0; k < e->nparents; k++)
                cand[k] =
                    (candidate){ edition_rev(&p->editions[e->parents[k]], x->key), e->parents[k] };
            settle(c, ed, cand, e->nparents, pf);
        }
    }
    mem_free(cand);
}

/* E144 for every conflict of edition ed that neither a `prefer` nor an item of its own
 * settled, naming the two parents, with a note at each version. */
static void report_conflicts(rctx *c, int32_t ed)
{
    const res_program *p = c->p;
    const res_edition *e = &p->editions[ed];
    for (const res_rev *x = e->revs; x; x = x->hh.next) {
        if (x->rival_from < 0 || !x->rival)
            continue;
        const char *a = p->editions[x->from].name, *b = p->editions[x->rival_from].name;
        diag *dg = diag_report(c->d, E_CONFLICT, DIAG_ERROR, e->decl->loc,
                               "edition `%s` extends `%s` and `%s`, which revise %s differently: "
                               "say which wins (`prefer %s for %.*s;`) or revise it here",
                               e->name, a, b, x->key, a, (int)x->decl_len, x->key);
        if (dg && x->node)
            diag_relate(dg, x->node->loc, "`%s` has this version (from edition `%s`)", a,
                        p->editions[x->origin].name);
        if (x->rival->node)
            diag_report(c->d, E_NONE, DIAG_NOTE, x->rival->node->loc,
                        "`%s` has this one (from edition `%s`)", b,
                        p->editions[x->rival->origin].name);
    }
}

/* ---- pass 4: building each view ---- */

/* The modules edition ed uses: its parents' and those it names; a root naming none uses
 * every module. The unnamed module is always used. A module its parents already use is
 * E145. */
static bool edition_uses(rctx *c, int32_t ed)
{
    res_program *p = c->p;
    res_edition *e = &p->editions[ed];
    e->uses = mem_calloc(p->nmodules, sizeof *e->uses);
    e->ancestors = mem_calloc(p->neditions ? p->neditions : 1, sizeof *e->ancestors);
    if (!e->uses || !e->ancestors) {
        res_oom(c, e->decl->loc);
        return false;
    }
    e->uses[0] = true;
    bool all = !e->nparents && !e->decl->list2.len;
    for (size_t m = 0; m < p->nmodules; m++)
        e->uses[m] |= all;
    for (uint32_t i = 0; i < e->nparents; i++) {
        const res_edition *par = &p->editions[e->parents[i]];
        e->ancestors[e->parents[i]] = true;
        for (size_t k = 0; par->ancestors && k < p->neditions; k++)
            e->ancestors[k] |= par->ancestors[k];
        for (size_t m = 0; par->uses && m < p->nmodules; m++)
            e->uses[m] |= par->uses[m];
    }
    for (uint32_t i = 0; i < e->decl->list2.len; i++) {
        const ast_node *n = e->decl->list2.items[i];
        int32_t m = scope_module_named(p, n->name);
        if (m < 0)
            continue; /* E146, pass 3 */
        if (e->uses[m])
            diag_report(c->d, E_NO_CHANGE, DIAG_WARNING, n->loc,
                        "edition `%s` already uses module `%s` (through the editions it "
                        "extends, or named twice)",
                        e->name, n->name);
        e->uses[m] = true;
    }
    /* the books whose clauses its traces show: those it uses, its own file's module and its
     * ancestors' (their books, built before it as their uses are) */
    e->books = mem_calloc(p->nmodules, sizeof *e->books);
    if (!e->books) {
        res_oom(c, e->decl->loc);
        return false;
    }
    for (size_t m = 0; m < p->nmodules; m++)
        e->books[m] = e->uses[m];
    if (e->module >= 0 && (size_t)e->module < p->nmodules)
        e->books[e->module] = true;
    for (uint32_t i = 0; i < e->nparents; i++) {
        const res_edition *par = &p->editions[e->parents[i]];
        for (size_t m = 0; par->books && m < p->nmodules; m++)
            e->books[m] |= par->books[m];
    }
    return true;
}

/* E147, a warning: a named module with rules that no edition uses, so that none of its rules
 * ever runs under an edition (language.md §3.8; only the editionless session, which applies
 * every module, would run them). At its first `module` line. Only when there are editions. */
static void report_unused_modules(rctx *c)
{
    const res_program *p = c->p;
    for (size_t m = 1; m < p->nmodules && !c->oom; m++) {
        bool used = false;
        for (size_t e = 0; e < p->neditions && !used; e++)
            used = p->editions[e].uses && p->editions[e].uses[m];
        size_t rules = 0;
        for (size_t r = 0; r < p->nrules; r++)
            rules += p->rules[r].module == (int32_t)m && p->rules[r].edition == -1;
        if (used || !rules || !p->modules[m].decl)
            continue;
        diag_report(c->d, E_UNUSED_MODULE, DIAG_WARNING, p->modules[m].decl->loc,
                    "module `%s` is used by no edition, so its %zu rule%s never run%s under one: "
                    "name it in an edition's `uses`, or leave the `module` line out (a file "
                    "without one applies under every edition)",
                    p->modules[m].name, rules, rules == 1 ? "" : "s", rules == 1 ? "s" : "");
    }
}

/* Builds edition ed's entries, its parents' first (E142 for a cycle: the parent is dropped). */
static void edition_build(rctx *c, int32_t ed)
{
    res_program *p = c->p;
    res_edition *e = &p->editions[ed];
    if (c->edition_state[ed] == 2)
        return;
    if (c->edition_state[ed] == 1) {
        res_err(c, E_CYCLE, e->decl->loc, "edition `%s` extends itself through its parents",
                e->name);
        return;
    }
    c->edition_state[ed] = 1;
    for (uint32_t i = 0; i < e->nparents; i++) {
        edition_build(c, e->parents[i]);
        if (c->edition_state[e->parents[i]] == 1) /* the cycle closes here */
            e->parents[i--] = e->parents[--e->nparents];
    }
    e->parent = e->nparents ? e->parents[0] : -1;
    c->edition_state[ed] = 2;
    if (!edition_uses(c, ed))
        return;
    prefers pf;
    if (!prefers_of(c, ed, &pf))
        return;
    merge(c, ed, &pf);
    for (uint32_t i = 0; i < e->decl->list.len && !c->oom; i++)
        revise_item(c, ed, e->decl->list.items[i]);
    for (size_t f = 0; f < pf.n; f++)
        if (pf.edition[f] >= 0 && !pf.used[f])
            diag_report(c->d, E_NO_CHANGE, DIAG_WARNING, pf.items[f]->loc,
                        "`prefer %s%s%s%s%s` settles no conflict: no two editions `%s` extends "
                        "revise %s differently",
                        pf.items[f]->name, pf.items[f]->ref ? " for " : "",
                        pf.items[f]->ref ? pf.items[f]->ref : "", pf.items[f]->ref ? " " : "",
                        pf.items[f]->name2 ? pf.items[f]->name2 : "", e->name,
                        pf.items[f]->ref ? "it" : "anything");
    prefers_free(&pf);
    report_conflicts(c, ed);
}

/* ---- pass 4: rule sets and versions ---- */

/* The room for a view's rule sets, one per query, and for the n rules of list (rule ids):
 * one block (model.c frees it whole), so that a view costs one allocation, not one per query.
 * It is filled when the view is first asked (model_rules_of, which sorts list's rules into
 * it): an edition that no command asks for costs no sorting (bench.md §9). Allocated here, at
 * load, so that memory running out is reported here (E199), never when a query is asked.
 * NULL after reporting E199. */
static res_ruleset *sets_room(rctx *c, size_t n)
{
    size_t nq = c->p->nqueries ? c->p->nqueries : 1;
    res_ruleset *s = mem_malloc(nq * sizeof *s + n * sizeof(uint32_t));
    if (!s)
        res_oom(c, (ast_loc){ 0 });
    return s;
}

/* Whether rule r is a top-level rule (declared outside any edition). */
static bool top_level(const res_program *p, int32_t r)
{
    return r >= 0 && p->rules[r].edition == -1;
}

/* An id array of n entries, each its own index (a version map with nothing revised). */
static int32_t *identity(rctx *c, size_t n)
{
    int32_t *m = mem_malloc((n ? n : 1) * sizeof *m);
    if (!m)
        res_oom(c, (ast_loc){ 0 });
    for (size_t i = 0; m && i < n; i++)
        m[i] = (int32_t)i;
    return m;
}

/* The top-level rule that the revision x of an edition names by its key "rule NAME" (as
 * edition_rev keys a rule; a key of 512 bytes or more was never looked up), else -1. */
static int32_t revised_top_rule(const res_program *p, const res_rev *x)
{
    if (strncmp(x->key, "rule ", 5) != 0 || strlen(x->key) >= 512)
        return -1;
    int32_t r = model_find_rule(p, x->key + 5);
    return top_level(p, r) ? r : -1;
}

/* Edition ed's rule sets (the rules of the modules it uses, at their versions, and the rules
 * its editions add), readings, fn versions; then its tables and counters (revise.c).
 * rev_of: p->nrules entries, all NULL, left so (scratch: each top-level rule's revision). */
static void edition_derive(rctx *c, int32_t ed, size_t nfns, const res_rev **rev_of)
{
    res_program *p = c->p;
    res_edition *e = &p->editions[ed];
    if (!e->uses)
        return;
    size_t nrevs = HASH_COUNT(e->revs), n = 0;
    uint32_t *list = mem_malloc((p->nrules + nrevs + 1) * sizeof *list);
    if (!list) {
        res_oom(c, e->decl->loc);
        return;
    }
    /* Each top-level rule's revision, found from the few revisions by their rules' names, not
     * by looking every rule's name up among the revisions (about 10,000 look-ups a start:
     * bench.md §9). A top-level rule is the one its name finds (model_find_rule): a second of
     * that name is an error (E_DUPLICATE, body.c) and no program is kept. */
    for (const res_rev *x = e->revs; x; x = x->hh.next) {
        int32_t r = revised_top_rule(p, x);
        if (r >= 0)
            rev_of[r] = x;
    }
    for (size_t r = 0; r < p->nrules; r++) {
        const res_rule *rr = &p->rules[r];
        if (rr->edition != -1 || !e->uses[rr->module])
            continue;
        const res_rev *x = rev_of[r];
        int64_t v = x ? x->version : (int64_t)r;
        if (v >= 0)
            list[n++] = (uint32_t)v;
    }
    for (const res_rev *x = e->revs; x; x = x->hh.next) {
        int32_t r = revised_top_rule(p, x);
        if (r >= 0)
            rev_of[r] = NULL;
    }
    for (const res_rev *x = e->revs; x; x = x->hh.next)
        if (x->kind == REV_RULE && x->version >= 0 &&
            !top_level(p, model_find_rule(p, x->key + strlen("rule "))))
            list[n++] = (uint32_t)x->version;
    e->sets = sets_room(c, n);
    if (!e->sets) {
        mem_free(list);
        return;
    }
    e->set_rules = list; /* sorted into the sets when first asked (model_rules_of) */
    e->nset_rules = n;
    if (p->nvariants) {
        e->variant_set = mem_malloc(p->nvariants * sizeof *e->variant_set);
        if (!e->variant_set) {
            res_oom(c, e->decl->loc);
            return;
        }
        for (size_t v = 0; v < p->nvariants; v++)
            e->variant_set[v] = -1;
    }
    for (const res_rev *x = e->revs; x; x = x->hh.next) {
        if (x->kind == REV_VARIANT && e->variant_set)
            e->variant_set[x->a] = (int32_t)x->version;
        if (x->kind != REV_FN)
            continue;
        if (!e->fn_of && !(e->fn_of = identity(c, nfns)))
            return;
        e->nfn_of = nfns;
        e->fn_of[x->a] = (int32_t)x->version;
    }
    revise_versions(c, ed);
}

void edition_views(rctx *c, ast_file *const *files, size_t nfiles)
{
    res_program *p = c->p;
    c->files = files;
    c->nfiles = nfiles;
    uint32_t *list = mem_malloc((p->nrules + 1) * sizeof *list);
    size_t n = 0;
    if (!list) {
        res_oom(c, (ast_loc){ 0 });
        return;
    }
    for (size_t r = 0; r < p->nrules; r++)
        if (p->rules[r].edition == -1)
            list[n++] = (uint32_t)r;
    p->base = sets_room(c, n);
    if (!p->base) {
        mem_free(list);
        return;
    }
    p->base_rules = list; /* as an edition's (model_rules_of) */
    p->nbase_rules = n;
    if (!p->neditions)
        return;
    c->edition_state = mem_calloc(p->neditions, sizeof *c->edition_state);
    if (!c->edition_state) {
        res_oom(c, (ast_loc){ 0 });
        return;
    }
    /* Revisions add fns and tables; the editions map the declared ones. */
    size_t nfns = p->nfns;
    c->declared_tables = p->ntables;
    for (size_t e = 0; e < p->neditions && !c->oom; e++)
        edition_build(c, (int32_t)e);
    report_unused_modules(c);
    const res_rev **rev_of = mem_calloc(p->nrules ? p->nrules : 1, sizeof *rev_of);
    if (!rev_of)
        res_oom(c, (ast_loc){ 0 });
    for (size_t e = 0; e < p->neditions && !c->oom; e++)
        edition_derive(c, (int32_t)e, nfns, rev_of);
    mem_free(rev_of);
    mem_free(c->edition_state);
    c->edition_state = NULL;
}
