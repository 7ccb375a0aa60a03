/* revise.c — an edition's own items, applied to its view of the program after its parents'
 * revisions are merged (edition.c): a rule added, replaced, removed or revised (`when`,
 * `unless`, `answer`), a table cell, a fn, a counter's values, a variant's reading (language.md
 * §3.8). Each checks that what it revises exists in the edition (E140), says when it changes
 * nothing (the warning E145) and records the new version as the edition's own (res_rev,
 * model_names.h); then the versions of the tables and counters an edition reads.
 *
 * A revised rule is a copy of the rule it revises (ast_clone) with the revision's clauses put
 * in, resolved as a rule of the edition (body.c); a revised fn is a new fn of the revision's
 * text. The declarations themselves are never changed. */
#include <stdarg.h>
#include <string.h>

#include "resolve_int.h"
#include "strbuf.h"

/* A new string printed like printf: the key of an entry. NULL on OOM. */
static char *key_of(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *key_of(const char *fmt, ...)
{
    strbuf b = { 0 };
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    return sb_take(&b);
}

/* Reports the warning E145 at loc. */
static void unchanged(rctx *c, ast_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void unchanged(rctx *c, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(c->d, E_NO_CHANGE, DIAG_WARNING, loc, fmt, ap);
    va_end(ap);
}

/* "the editions it extends (a and b)" or "the program as declared", for E140. */
static const char *where_text(const res_program *p, const res_edition *e, char *buf, size_t cap)
{
    if (!e->nparents)
        return "the program as declared";
    size_t off = (size_t)snprintf(buf, cap, "%s", p->editions[e->parents[0]].name);
    for (uint32_t i = 1; i < e->nparents && off < cap; i++)
        off += (size_t)snprintf(buf + off, cap - off, "%s%s", i + 1 < e->nparents ? ", " : " or ",
                                p->editions[e->parents[i]].name);
    return buf;
}

/* E140 for an item of edition e that revises `what` (a kind and a name) where it does not
 * exist. */
static void no_such(rctx *c, const res_edition *e, ast_loc loc, const char *verb, const char *what,
                    const char *name)
{
    char buf[256];
    res_err(c, E_NO_RULE, loc, "edition `%s` %s %s `%s`, which does not exist in %s", e->name, verb,
            what, name ? name : "?", where_text(c->p, e, buf, sizeof buf));
}

/* The file whose arena takes what an item of file `file` adds (NULL when not found). */
static ast_file *file_of(const rctx *c, uint32_t file)
{
    for (size_t i = 0; i < c->nfiles; i++)
        if (c->files[i] && c->files[i]->file_id == file)
            return c->files[i];
    return NULL;
}

/* ---- rules ---- */

/* The rule called name in edition ed as it stands: its id (its current version), -1 when the
 * edition has none. *foreign is set when a top-level rule of that name belongs to a module the
 * edition does not use. */
static int32_t rule_now(const res_program *p, const res_edition *e, const char *name, bool *foreign)
{
    *foreign = false;
    char key[512];
    if ((size_t)snprintf(key, sizeof key, "rule %s", name ? name : "") < sizeof key) {
        const res_rev *x = edition_rev(e, key);
        if (x)
            return (int32_t)x->version;
    }
    int32_t r = model_find_rule(p, name);
    if (r < 0 || p->rules[r].edition != -1)
        return -1;
    *foreign = !e->uses || !e->uses[p->rules[r].module];
    return *foreign ? -1 : r;
}

/* The rule of edition ed named by `it` as it stands, or -1 after E140 (`verb`: "replaces"...). */
static int32_t rule_existing(rctx *c, int32_t ed, const ast_node *it, const char *verb)
{
    const res_program *p = c->p;
    const res_edition *e = &p->editions[ed];
    bool foreign;
    int32_t now = rule_now(p, e, it->name, &foreign);
    if (now >= 0)
        return now;
    if (foreign) {
        const res_rule *r = &p->rules[model_find_rule(p, it->name)];
        res_err(c, E_NO_RULE, it->loc,
                "edition `%s` %s rule `%s` of module `%s`, which it does not use (add it to its "
                "`uses`)",
                e->name, verb, it->name, res_module_name(p, r->module));
    } else {
        no_such(c, e, it->loc, verb, "rule", it->name);
    }
    return -1;
}

/* Records rule `version` (-1: none) as edition ed's version of the rule named by `it`. */
static void rule_put(rctx *c, int32_t ed, const ast_node *it, int64_t version)
{
    char *key = key_of("rule %s", it->name ? it->name : "");
    res_rev *x = edition_rev_put(c, ed, key, key ? strlen(key) : 0, REV_RULE, it);
    if (x)
        x->version = version;
}

/* Whether rules a and b run the same: priority, lets, guard, answer or block. */
static bool same_rule(const ast_node *a, const ast_node *b)
{
    if (a->ival != b->ival || a->list.len != b->list.len)
        return false;
    for (uint32_t i = 0; i < a->list.len; i++)
        if (!ast_same(a->list.items[i], b->list.items[i]))
            return false;
    return ast_same(a->a, b->a) && ast_same(a->b, b->b) && ast_same(a->c, b->c);
}

/* `rule q.r ...;` (added), `replace rule q.r ...;` and `remove rule q.r;`. */
static void rule_item(rctx *c, int32_t ed, ast_node *it)
{
    res_program *p = c->p;
    const res_edition *e = &p->editions[ed];
    if (it->kind == AST_RULE && it->an.sym == UINT32_MAX)
        return; /* its query is unknown: reported already */
    if (it->kind == AST_RULE && it->op != AST_EDIT_REPLACE) {
        bool foreign;
        int32_t now = rule_now(p, e, it->name, &foreign);
        if (now >= 0) {
            diag *dg = diag_report(c->d, E_DUPLICATE, DIAG_ERROR, it->loc,
                                   "edition `%s` adds rule `%s`, which already exists (write "
                                   "`replace rule` to revise it)",
                                   e->name, it->name);
            if (dg)
                diag_relate(dg, p->rules[now].decl->loc, "the existing rule");
            return;
        }
        rule_put(c, ed, it, it->an.sym);
        return;
    }
    bool remove = it->kind == AST_REMOVE;
    int32_t now = rule_existing(c, ed, it, remove ? "removes" : "replaces");
    if (now < 0)
        return;
    if (remove) {
        rule_put(c, ed, it, -1);
        return;
    }
    if (res_body_ready(c, p->rules[now].decl) && same_rule(p->rules[now].decl, it))
        unchanged(c, it->loc, "this replacement of rule `%s` runs the same as the rule it replaces",
                  it->name);
    p->rules[it->an.sym].seq = p->rules[now].seq;
    p->rules[it->an.sym].revises = now;
    rule_put(c, ed, it, it->an.sym);
}

/* A new node of kind k and operator op in f (E199 on OOM: NULL). */
static ast_node *node(rctx *c, ast_file *f, ast_kind k, ast_op op, ast_loc loc, ast_node *a,
                      ast_node *b)
{
    ast_node *n = ast_new(f, k, loc);
    if (!n) {
        res_oom(c, loc);
        return NULL;
    }
    n->op = op;
    n->a = a;
    n->b = b;
    return n;
}

/* `revise rule q.r [cites] [when E] [unless E] [answer E];`: a copy of the rule as the edition
 * has it, with the new guard, the exception (`when` and `not E`), the new answer, and the
 * revision's citations after the rule's. */
static void revise_rule(rctx *c, int32_t ed, ast_node *it)
{
    res_program *p = c->p;
    int32_t now = rule_existing(c, ed, it, "revises");
    if (now < 0)
        return;
    const ast_node *old = p->rules[now].decl;
    if (!res_body_ready(c, p->rules[now].decl)) /* the copy below takes its body */
        return;
    if (p->queries[p->rules[now].query].is_event && it->b) {
        res_err(c, E_RULE_KIND, it->b->loc,
                "rule `%s` is a rule of event `%s`: it has effects, not an answer", it->name,
                p->queries[p->rules[now].query].name);
        return;
    }
    if (!it->c && (!it->a || ast_same(it->a, old->a)) && (!it->b || ast_same(it->b, old->b)))
        unchanged(c, it->loc, "this revision of rule `%s` gives it the %s it already has", it->name,
                  it->a && it->b ? "guard and answer"
                  : it->a        ? "guard"
                                 : "answer");
    ast_file *f = file_of(c, it->loc.file);
    ast_node *cl = f ? ast_clone(f, old) : NULL;
    if (!cl) {
        res_oom(c, it->loc);
        return;
    }
    if (it->a)
        cl->a = it->a;
    if (it->c) {
        ast_node *no = node(c, f, AST_UNARY, AST_OP_NOT, it->c->loc, it->c, NULL);
        cl->a = !cl->a || !no ? no
                              : node(c, f, AST_BINARY, AST_OP_AND,
                                     ast_loc_span(cl->a->loc, it->c->loc), cl->a, no);
        if (!cl->a)
            return;
    }
    if (it->b)
        cl->b = it->b;
    cl->cites = (ast_vec){ 0 };
    const ast_vec *cites[] = { &old->cites, &it->cites };
    for (size_t k = 0; k < 2; k++)
        for (uint32_t i = 0; i < cites[k]->len; i++)
            if (!ast_vec_push(f, &cl->cites, cites[k]->items[i])) {
                res_oom(c, it->loc);
                return;
            }
    body_rule(c, cl, ed);
    if (cl->an.sym == UINT32_MAX)
        return;
    res_rule *r = &p->rules[cl->an.sym];
    r->seq = p->rules[now].seq;
    r->revision = it;
    r->revises = now;
    r->module = res_module_of(p, it->loc.file);
    rule_put(c, ed, it, cl->an.sym);
}

/* ---- variants ---- */

/* `set variant V = R;`: the edition's default reading of V. */
static void set_variant(rctx *c, int32_t ed, ast_node *it)
{
    res_program *p = c->p;
    int32_t r, v = edition_set_variant(c, it, &r);
    if (v < 0)
        return;
    char *key = key_of("variant %s", p->variants[v].name);
    const res_rev *x = key ? edition_rev(&p->editions[ed], key) : NULL;
    int64_t now = x ? x->version : (int64_t)p->variants[v].dflt;
    if (now == r)
        unchanged(c, it->loc, "variant `%s` already reads `%s` in edition `%s`",
                  p->variants[v].name, it->ref, p->editions[ed].name);
    res_rev *y = edition_rev_put(c, ed, key, key ? strlen(key) : 0, REV_VARIANT, it);
    if (y) {
        y->a = (uint32_t)v;
        y->version = r;
    }
}

/* ---- tables ---- */

/* The declared id of the table, fn or counter `it` of edition ed revises (kind k, `what`
 * naming it), or -1 after E140. */
static int32_t declared(rctx *c, int32_t ed, const ast_node *it, gkind k, const char *what)
{
    name_ent *g = model_find_name(c->p->names->globals, it->name);
    if (g && g->kind == k)
        return g->id;
    no_such(c, &c->p->editions[ed], it->loc, "revises", what, it->name);
    return -1;
}

/* The columns a `revise table` item gives: [*first, *first + *n). False after an error. */
static bool revised_columns(rctx *c, const res_table *t, const ast_node *it, uint32_t *first,
                            uint32_t *n)
{
    *first = 0;
    *n = t->ncols;
    if (it->name2) {
        uint32_t k = 0;
        while (k < t->ncols && !(t->cols[k].name && strcmp(t->cols[k].name, it->name2) == 0))
            k++;
        if (t->single || k == t->ncols) {
            res_err(c, E_NO_RULE, it->loc, "table `%s` has no column `%s`", t->name, it->name2);
            return false;
        }
        *first = k;
        *n = 1;
    }
    if (it->list.len != *n) {
        res_err(c, E_ROW_SHAPE, it->loc, "this revision gives %u cell%s; it revises %u",
                it->list.len, it->list.len == 1 ? "" : "s", *n);
        return false;
    }
    return true;
}

/* `revise table T[KEYS] [.COLUMN] = CELLS;`: one entry per cell. */
static void revise_table(rctx *c, int32_t ed, ast_node *it)
{
    res_program *p = c->p;
    const res_edition *e = &p->editions[ed];
    int32_t id = declared(c, ed, it, G_TABLE, "table");
    if (id < 0)
        return;
    const res_table *t = &p->tables[id];
    if (it->params.len != t->nkeys) {
        res_err(c, E_ARITY, it->loc, "table `%s` has %u key%s, not %u", t->name, t->nkeys,
                t->nkeys == 1 ? "" : "s", it->params.len);
        return;
    }
    res_const keys[RES_MAX_ITEMS];
    int64_t kv[RES_MAX_ITEMS];
    bool ok = true;
    for (uint32_t k = 0; k < t->nkeys; k++) {
        ok &= expr_fold(c, it->params.items[k], t->keys[k].type, false, &keys[k]);
        kv[k] = keys[k].v;
    }
    uint32_t first, ncells;
    if (!ok || !revised_columns(c, t, it, &first, &ncells))
        return;
    char row_text[256];
    table_keys_text(p, t, kv, row_text, sizeof row_text);
    int32_t row = table_find_row(t, keys);
    if (row < 0) {
        res_err(c, E_NO_RULE, it->loc, "table `%s` has no row for (%s) to revise", t->name,
                row_text);
        return;
    }
    uint32_t same = 0;
    for (uint32_t i = 0; i < ncells; i++) {
        uint32_t col = first + i;
        res_const cell;
        if (!expr_fold(c, it->list.items[i], t->cols[col].type, true, &cell))
            continue;
        char *key = t->single ? key_of("table %s[%s]", t->name, row_text)
                              : key_of("table %s[%s].%s", t->name, row_text, t->cols[col].name);
        const res_rev *x = key ? edition_rev(e, key) : NULL;
        const res_const *now = x ? &x->cell : &t->rows[row].cells[col];
        same += now->given == cell.given && (!cell.given || now->v == cell.v);
        res_rev *y = edition_rev_put(c, ed, key, strlen("table ") + strlen(t->name), REV_CELL, it);
        if (!y)
            return;
        y->a = (uint32_t)id;
        y->b = (uint32_t)row;
        y->c = col;
        y->cell = cell;
    }
    if (same == ncells)
        unchanged(c, it->loc, "table `%s` already gives %s for (%s) in edition `%s`", t->name,
                  ncells == 1 ? "this cell" : "these cells", row_text, e->name);
}

/* ---- fns ---- */

/* `revise fn f(params) -> T = body;`: a new fn of the same signature (E103, E104). */
static void revise_fn(rctx *c, int32_t ed, ast_node *it)
{
    res_program *p = c->p;
    const res_edition *e = &p->editions[ed];
    int32_t base = declared(c, ed, it, G_FN, "fn");
    if (base < 0)
        return;
    res_field *params = type_params_of(c, &it->params);
    uint32_t np = params ? it->params.len : 0, result = type_of(c, it->a);
    const res_fn *f0 = &p->fns[base];
    bool ok = result != T_ERROR && (np == it->params.len);
    if (ok && np != f0->nparams) {
        res_err(c, E_ARITY, it->loc, "fn `%s` takes %u parameter%s, not %u", f0->name, f0->nparams,
                f0->nparams == 1 ? "" : "s", np);
        ok = false;
    }
    for (uint32_t i = 0; ok && i < np; i++)
        if (params[i].type == T_ERROR) {
            ok = false;
        } else if (params[i].type != f0->params[i].type) {
            res_err(c, E_TYPE, params[i].loc, "parameter %u of fn `%s` is %s, not %s", i + 1,
                    f0->name, type_text(p, f0->params[i].type).s, type_text(p, params[i].type).s);
            ok = false;
        }
    if (ok && result != f0->result) {
        res_err(c, E_TYPE, it->a->loc, "fn `%s` gives %s, not %s", f0->name,
                type_text(p, f0->result).s, type_text(p, result).s);
        ok = false;
    }
    if (!ok || !PUSH(c, p->fns, p->nfns, p->fns_cap, it->loc))
        return; /* params stay in the names' arena (type_params_of) */
    uint32_t id = (uint32_t)p->nfns++;
    p->fns[id] = (res_fn){ .name = p->fns[base].name,
                           .decl = it,
                           .params = params,
                           .nparams = np,
                           .result = result,
                           .module = res_module_of(p, it->loc.file),
                           .edition = ed,
                           .version_of = base };
    body_fn(c, &p->fns[id]);
    char *key = key_of("fn %s", p->fns[base].name);
    const res_rev *x = key ? edition_rev(e, key) : NULL;
    const res_fn *now = &p->fns[x ? x->version : base];
    if (res_body_ready(c, now->decl) && ast_same(now->decl->b, it->b))
        unchanged(c, it->loc, "fn `%s` already has this body in edition `%s`", it->name, e->name);
    res_rev *y = edition_rev_put(c, ed, key, key ? strlen(key) : 0, REV_FN, it);
    if (y) {
        y->a = (uint32_t)base;
        y->version = id;
    }
}

/* ---- counters ---- */

/* `revise counter C { VALUE N ... }`: one entry per value. */
static void revise_counter(rctx *c, int32_t ed, ast_node *it)
{
    res_program *p = c->p;
    const res_edition *e = &p->editions[ed];
    int32_t id = declared(c, ed, it, G_COUNTER, "counter");
    if (id < 0 || p->counters[id].unit < 0)
        return;
    int32_t u = p->counters[id].unit;
    for (uint32_t i = 0; i < it->list.len; i++) {
        const ast_node *item = it->list.items[i];
        name_ent *s = model_find_name(p->names->slots, item->name);
        static const char *const fixed[] = { "side", "size", "abilities", "markers" };
        bool known = s != NULL;
        for (size_t k = 0; k < 4 && item->name; k++)
            known |= strcmp(item->name, fixed[k]) == 0;
        if (!s || !item->a) {
            res_err(c, known ? E_COUNTER : E_UNKNOWN_NAME, item->loc,
                    "`%s` is not a value (declared with `value`): a revision of a counter "
                    "changes its values",
                    item->name ? item->name : "?");
            continue;
        }
        res_const k;
        if (!expr_fold(c, item->a, T_INT, false, &k))
            continue;
        char *key = key_of("counter %s.%s", it->name, item->name);
        const res_rev *x = key ? edition_rev(e, key) : NULL;
        int64_t now = 0;
        bool had =
            x ? (now = x->version, true) : unit_get_value(p->units, u, (uint32_t)s->id, &now);
        if (had && now == k.v)
            unchanged(c, item->loc, "counter `%s` already has %s %lld in edition `%s`", it->name,
                      item->name, (long long)k.v, e->name);
        res_rev *y =
            edition_rev_put(c, ed, key, strlen("counter ") + strlen(it->name), REV_VALUE, it);
        if (!y)
            return;
        y->a = (uint32_t)u;
        y->b = (uint32_t)s->id;
        y->version = k.v;
    }
}

void revise_item(rctx *c, int32_t ed, ast_node *it)
{
    switch (it->kind) {
    case AST_RULE:
    case AST_REMOVE: rule_item(c, ed, it); break;
    case AST_SET_VARIANT: set_variant(c, ed, it); break;
    case AST_REVISE:
        switch (it->op) {
        case AST_REV_RULE: revise_rule(c, ed, it); break;
        case AST_REV_TABLE: revise_table(c, ed, it); break;
        case AST_REV_FN: revise_fn(c, ed, it); break;
        default: revise_counter(c, ed, it); break;
        }
        break;
    default: break; /* `prefer`: the merge's */
    }
}

/* ---- versions ---- */

/* A new version of declared table `base` (rows and dense index copied, keys and columns
 * borrowed), appended to the tables; its id, or -1 on OOM. */
static int32_t table_version(rctx *c, int32_t base)
{
    res_program *p = c->p;
    if (!PUSH(c, p->tables, p->ntables, p->tables_cap, p->tables[base].decl->loc))
        return -1;
    const res_table *t = &p->tables[base];
    res_table v = *t;
    v.version_of = base;
    v.rows = mem_calloc(t->nrows ? t->nrows : 1, sizeof *v.rows);
    v.dense = t->ndense ? mem_malloc(t->ndense * sizeof *v.dense) : NULL;
    if (!v.rows || (t->ndense && !v.dense)) {
        mem_free(v.rows);
        mem_free(v.dense);
        res_oom(c, t->decl->loc);
        return -1;
    }
    if (t->ndense)
        memcpy(v.dense, t->dense, t->ndense * sizeof *v.dense);
    for (v.nrows = 0; v.nrows < t->nrows; v.nrows++) {
        res_row *r = &v.rows[v.nrows];
        *r = t->rows[v.nrows];
        r->keys = mem_malloc((t->nkeys + t->ncols + 1) * sizeof *r->keys);
        if (!r->keys) {
            p->tables[p->ntables++] = v; /* freed with the program */
            res_oom(c, t->decl->loc);
            return -1;
        }
        memcpy(r->keys, t->rows[v.nrows].keys, (t->nkeys + t->ncols) * sizeof *r->keys);
        r->cells = r->keys + t->nkeys;
        r->edition = -1;
    }
    p->tables[p->ntables] = v;
    return (int32_t)p->ntables++;
}

void revise_versions(rctx *c, int32_t ed)
{
    res_program *p = c->p;
    res_edition *e = &p->editions[ed];
    for (const res_rev *x = e->revs; x && !c->oom; x = x->hh.next) {
        if (x->kind == REV_VALUE) {
            if (!e->units && !(e->units = unit_pool_copy(p->units))) {
                res_oom(c, e->decl->loc);
                return;
            }
            unit_set_value(e->units, (int32_t)x->a, x->b, x->version);
            continue;
        }
        if (x->kind != REV_CELL || x->a >= c->declared_tables)
            continue;
        if (!e->table_of) {
            size_t n = c->declared_tables;
            e->table_of = mem_malloc((n ? n : 1) * sizeof *e->table_of);
            if (!e->table_of) {
                res_oom(c, e->decl->loc);
                return;
            }
            for (size_t t = 0; t < n; t++)
                e->table_of[t] = (int32_t)t;
            e->ntable_of = n;
        }
        if (e->table_of[x->a] == (int32_t)x->a &&
            (e->table_of[x->a] = table_version(c, (int32_t)x->a)) < 0)
            return;
        res_row *r = &p->tables[e->table_of[x->a]].rows[x->b];
        r->cells[x->c] = x->cell;
        r->revision = (ast_node *)x->node;
        r->edition = x->origin;
    }
}
