/* body.c — pass 3, bodies: counters (their items as constants in the unit pool), fns, query
 * defaults, rules (guard, lets, answer or `do` block), and the statements of `do` blocks.
 *
 * It reads the signatures of pass 2 and checks expressions with expr.c; each rule gets its
 * res_rule and order number (seq) here, which pass 4 (edition.c) sorts into rule sets. */
#include <inttypes.h>
#include <string.h>

#include "resolve_int.h"

/* ---- counters ---- */

void body_counter(rctx *c, res_counter *rc)
{
    res_program *p = c->p;
    ast_node *d = rc->decl;
    int32_t u = rc->unit;
    int32_t kind = model_find_member(&p->enums[E_KIND], d->ref);
    if (kind < 0)
        res_err(c, E_UNKNOWN_NAME, d->loc, "unknown unit kind `%s` (declare it with `kind %s;`)",
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
            res_err(c, E_DUP_ITEM, it->loc, "`%s` is given twice", nm);
        if (seen)
            *seen = true;
        if (strcmp(nm, "side") == 0) {
            if (it->a && expr_fold(c, it->a, p->enums[E_SIDE].type, false, &k))
                p->units->units[u].side = (int32_t)k.v;
        } else if (strcmp(nm, "size") == 0) {
            if (it->a && expr_fold(c, it->a, T_INT, false, &k)) {
                if (k.v != 1 && k.v != 2)
                    res_err(c, E_COUNTER, it->loc, "a counter covers 1 or 2 squares, not %" PRId64,
                            k.v);
                else
                    p->units->units[u].size = (uint32_t)k.v;
            }
        } else if (strcmp(nm, "abilities") == 0 || strcmp(nm, "markers") == 0) {
            bool ab = nm[0] == 'a';
            uint32_t eid = ab ? E_ABILITY : E_MARKER;
            for (uint32_t j = 0; j < it->list.len; j++) {
                ast_node *en = it->list.items[j];
                int32_t m = model_find_member(&p->enums[eid], en->name);
                if (m < 0) {
                    res_err(c, E_UNKNOWN_NAME, en->loc, "unknown %s `%s`",
                            ab ? "ability" : "marker", en->name ? en->name : "?");
                    continue;
                }
                int64_t v = ab ? 0 : 1;
                if (en->a && expr_fold(c, en->a, T_INT, false, &k))
                    v = k.v;
                if (ab) {
                    bool carries = p->enums[eid].members[m].carries_int;
                    if (carries && !en->a)
                        res_err(c, E_COUNTER, en->loc,
                                "ability `%s` carries a number: write `%s N`", en->name, en->name);
                    else if (!carries && en->a)
                        res_err(c, E_COUNTER, en->loc,
                                "ability `%s` carries no number (declare it `ability %s: int`)",
                                en->name, en->name);
                    if (unit_has_ability(p->units, u, (uint32_t)m))
                        res_err(c, E_DUP_ITEM, en->loc, "ability `%s` is listed twice", en->name);
                    unit_set_ability(p->units, u, (uint32_t)m, v);
                } else {
                    if (v < 1 || v > 1000000) {
                        res_err(c, E_COUNTER, en->loc, "a marker count is between 1 and 1000000");
                        continue;
                    }
                    unit_add_marker(p->units, u, (uint32_t)m, (uint32_t)v);
                }
            }
        } else {
            name_ent *s = model_find_name(p->names->slots, nm);
            if (!s) {
                res_err(c, E_UNKNOWN_NAME, it->loc,
                        "unknown value `%s` (declare it with `value %s;`)", nm, nm);
                continue;
            }
            int64_t old;
            if (unit_get_value(p->units, u, (uint32_t)s->id, &old))
                res_err(c, E_DUP_ITEM, it->loc, "`%s` is given twice", nm);
            if (it->a && expr_fold(c, it->a, T_INT, false, &k))
                unit_set_value(p->units, u, (uint32_t)s->id, k.v);
        }
    }
}

/* ---- raising events, and statements (language.md §6) ---- */

/* Checks the arguments of `EVENT(args)` (an AST_CALL or a `raise` statement's list) against
 * the event's parameters and annotates the node; returns the event id or -1. */
int32_t body_raise_args(rctx *c, ast_node *n, ast_vec *args)
{
    res_program *p = c->p;
    name_ent *g = model_find_name(p->names->globals, n->name);
    if (!g || g->kind != G_EVENT) {
        if (g)
            res_err(c, E_NOT_EVENT, n->loc, "`%s` is %s, not an event", n->name,
                    expr_gkind_text(g->kind));
        else
            res_err(c, E_NOT_EVENT, n->loc, "unknown event `%s` (declare it with `event %s(...);`)",
                    n->name ? n->name : "?", n->name ? n->name : "?");
        for (uint32_t i = 0; i < args->len; i++)
            expr_infer(c, args->items[i], T_NONE);
        return -1;
    }
    const res_query *q = &p->queries[g->id];
    n->an.sym_kind = SYM_EVENT;
    n->an.sym = (uint32_t)g->id;
    if (args->len != q->nparams) {
        res_err(c, E_ARITY, n->loc, "event `%s` takes %u argument%s, not %u", q->name, q->nparams,
                q->nparams == 1 ? "" : "s", args->len);
        for (uint32_t i = 0; i < args->len; i++)
            expr_infer(c, args->items[i], T_NONE);
        return -1;
    }
    for (uint32_t i = 0; i < q->nparams; i++)
        expr_check(c, args->items[i], q->params ? q->params[i].type : T_ERROR);
    return g->id;
}

static void stmt(rctx *c, ast_node *s);

/* The cites of a cite block (`cite "ID" { ... }`): each names an ID of its rule's own cites,
 * written alone (its source and example are the rule's cite's), else E173. Each takes the
 * source text of the rule's cite (dsl/cite.c filled it), for the effect lines. */
static void block_cites(rctx *c, ast_node *s)
{
    for (uint32_t i = 0; i < s->cites.len; i++) {
        ast_node *k = s->cites.items[i];
        if (!k || !k->name)
            continue;
        const ast_node *own = NULL;
        for (uint32_t j = 0; c->rule && j < c->rule->cites.len && !own; j++)
            if (c->rule->cites.items[j] && c->rule->cites.items[j]->name &&
                strcmp(c->rule->cites.items[j]->name, k->name) == 0)
                own = c->rule->cites.items[j];
        if (!c->rule)
            res_err(c, E_BLOCK_CITE, k->loc, "a cite block belongs in the `do` block of a rule");
        else if (!own)
            res_err(c, E_BLOCK_CITE, k->loc,
                    "rule `%s` does not cite \"%s\": a cite block names some of its rule's own "
                    "cites (add `cite \"%s\"` to the rule)",
                    c->rule->name ? c->rule->name : "?", k->name, k->name);
        else if (k->ref || k->doc)
            res_err(c, E_BLOCK_CITE, k->loc,
                    "a cite block names the ID alone: its source and example are the rule's "
                    "cite's");
        else
            k->title = own->title;
    }
}

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
    int32_t e = expr_enum_named(c, coll);
    if (e >= 0) {
        coll->an.sym_kind = SYM_ENUM_TYPE;
        coll->an.sym = (uint32_t)e;
        coll->an.type = type_enum_members(c, e, coll->loc);
        return coll->an.type == T_ERROR ? T_ERROR : p->enums[e].type;
    }
    uint32_t t = expr_infer(c, coll, T_NONE);
    if (type_kind(p, t) == RT_LIST || type_kind(p, t) == RT_SET)
        return type_arg(p, t);
    if (t != T_ERROR)
        res_err(c, E_TYPE, coll->loc, "expected a list, a set or an enum, found %s",
                type_text(p, t).s);
    return T_ERROR;
}

static void stmt(rctx *c, ast_node *s)
{
    res_program *p = c->p;
    s->an.slot = -1;
    switch (s->op) {
    case AST_ST_GIVE:
    case AST_ST_TAKE: {
        /* markers go on units and on terrain elements (a building's Destruction markers) */
        uint32_t t = expr_infer(c, s->a, T_NONE);
        if (t != T_UNIT && t != T_ELEMENT && t != T_ERROR)
            res_err(c, E_TYPE, s->a->loc,
                    "`%s` puts markers on a unit or a terrain element, not a %s value",
                    s->op == AST_ST_GIVE ? "give" : "take", type_text(p, t).s);
        s->an.sym = t == T_ELEMENT;
        expr_check(c, s->b, p->enums[E_MARKER].type);
        if (s->c)
            expr_check(c, s->c, T_INT);
        break;
    }
    case AST_ST_FLIP: {
        uint32_t t = expr_infer(c, s->a, T_NONE);
        if (t != T_UNIT && t != T_ELEMENT && t != T_ERROR)
            res_err(c, E_TYPE, s->a->loc,
                    "`flip` turns a unit or a terrain element over, not a %s value",
                    type_text(p, t).s);
        s->an.sym = t == T_ELEMENT;
        expr_check(c, s->b, p->enums[E_FACE].type);
        break;
    }
    case AST_ST_SET:
        expr_infer(c, s->a, T_NONE);
        if (s->a->an.type != T_ERROR && s->a->an.sym_kind != SYM_UNIT_VALUE)
            res_err(c, E_TYPE, s->a->loc,
                    "`set` changes a unit's value (one declared with `value`); `%s` is not one",
                    s->a->name ? s->a->name : "?");
        expr_check(c, s->b, T_INT);
        break;
    case AST_ST_DESTROY: expr_check(c, s->a, T_UNIT); break;
    case AST_ST_MOVE:
        expr_check(c, s->a, T_UNIT);
        expr_check(c, s->b, T_SQUARE);
        if (s->c)
            expr_check(c, s->c, T_SQUARE);
        break;
    case AST_ST_EMBARK:
        expr_check(c, s->a, T_UNIT);
        expr_check(c, s->b, T_UNIT);
        break;
    case AST_ST_DISEMBARK:
        expr_check(c, s->a, T_UNIT);
        expr_check(c, s->b, T_SQUARE);
        if (s->c)
            expr_check(c, s->c, T_SQUARE);
        break;
    case AST_ST_PLACE:
    case AST_ST_REMOVE: {
        uint32_t t = expr_infer(c, s->a, T_NONE);
        bool near = s->ival != 0;
        if (t == T_ERROR) {
            expr_infer(c, s->b, T_NONE);
        } else if (t == p->enums[E_SQUARE_FEATURE].type && !near) {
            s->an.sym = 0;
            expr_check(c, s->b, T_SQUARE);
        } else if (t == p->enums[E_SIDE_FEATURE].type && !near) {
            s->an.sym = 1;
            expr_check(c, s->b, T_SIDE);
        } else if (t == p->enums[E_INTERSPACE_ITEM].type && near && s->op == AST_ST_REMOVE) {
            s->an.sym = 2;
            expr_check(c, s->b, T_SQUARE);
        } else if (t == T_ELEMENT && !near && s->op == AST_ST_REMOVE) {
            s->an.sym = 3; /* the square leaves the terrain element */
            expr_check(c, s->b, T_SQUARE);
        } else if (t == p->enums[E_TERRAIN].type && !near && s->op == AST_ST_PLACE) {
            s->an.sym = 4; /* the square becomes a new element of this terrain */
            expr_check(c, s->b, T_SQUARE);
        } else if (t == p->enums[E_INTERSPACE_ITEM].type && !near && s->op == AST_ST_PLACE) {
            s->an.sym = 5; /* on the square's NW corner */
            expr_check(c, s->b, T_SQUARE);
        } else {
            res_err(c, E_TYPE, s->a->loc,
                    "`%s` takes a square_feature `at` a square, a "
                    "side_feature `at` a square_side%s, not a %s value%s",
                    s->op == AST_ST_PLACE ? "place" : "remove",
                    s->op == AST_ST_REMOVE ? ", an interspace_item `near` a square or an element"
                                             " `at` one of its squares"
                                           : ", a terrain or an interspace_item `at` a square",
                    type_text(p, t).s, near ? " `near` a square" : "");
            expr_infer(c, s->b, T_NONE);
        }
        if (s->c && t != T_ERROR && s->an.sym < 4)
            res_err(c, E_TYPE, s->c->loc,
                    "`place X at SQ value N` gives a value to a new terrain element or an "
                    "interspace_item only");
        else if (s->c)
            expr_check(c, s->c, T_INT);
        break;
    }
    case AST_ST_RAISE: body_raise_args(c, s, &s->list); break;
    case AST_ST_LET: {
        uint32_t t = expr_infer(c, s->a, T_NONE);
        s->an.slot = scope_push_local(c, s->name, t, s->loc);
        s->an.type = t;
        return;
    }
    case AST_ST_CHOOSE: {
        uint32_t elem = elements_of(c, s->a);
        expr_check(c, s->b, p->enums[E_SIDE].type);
        s->an.slot = scope_push_local(c, s->name, elem, s->loc);
        s->an.type = elem;
        return;
    }
    case AST_ST_IF:
        expr_check(c, s->a, T_BOOL);
        block(c, s->b);
        if (s->c && s->c->kind == AST_BLOCK)
            block(c, s->c);
        else if (s->c)
            stmt(c, s->c);
        break;
    case AST_ST_FOR: {
        uint32_t elem = elements_of(c, s->a);
        size_t mark = c->nlocals;
        s->an.slot = scope_push_local(c, s->name, elem, s->loc);
        block(c, s->b);
        c->nlocals = mark;
        break;
    }
    case AST_ST_CITE:
        block_cites(c, s);
        block(c, s->b);
        break;
    case AST_ST_NOTE:
    case AST_ST_FAIL: break;
    case AST_ST_REQUIRE: {
        /* a call of a query answering a verdict: a forbid refuses the procedure (E228) */
        uint32_t t = expr_infer(c, s->a, T_NONE);
        if (t != T_ERROR && (s->a->an.sym_kind != SYM_QUERY || t != T_VERDICT))
            res_err(c, E_TYPE, s->a->loc,
                    "`require` asks a query that answers a verdict (permit or forbid); `%s` %s",
                    s->a->name ? s->a->name : "?",
                    s->a->an.sym_kind != SYM_QUERY ? "is not a query" : "does not answer one");
        break;
    }
    default: res_err(c, E_NOT_VALUE, s->loc, "not a statement"); break;
    }
}

/* ---- rules, query defaults, fns ---- */

bool body_rule_kind(rctx *c, const ast_node *d, bool is_event)
{
    if (is_event && !d->c)
        res_err(c, E_RULE_KIND, d->loc,
                "a rule of event `%s` has effects, not an answer: write `do { ... };`", d->ref);
    else if (!is_event && d->c)
        res_err(c, E_RULE_KIND, d->loc,
                "a rule of query `%s` gives an answer, not effects: write `answer EXPR;`", d->ref);
    else
        return true;
    return false;
}

/* Creates the res_rule of an AST_RULE and resolves its clauses with the query's parameters in
 * scope. Stores the rule id in d->an.sym (UINT32_MAX when the query is unknown). */
void body_rule(rctx *c, ast_node *d, int32_t edition)
{
    res_program *p = c->p;
    d->an.sym = UINT32_MAX;
    name_ent *g = model_find_name(p->names->globals, d->ref);
    if (!g || (g->kind != G_QUERY && g->kind != G_EVENT)) {
        res_err(c, E_NO_QUERY, d->loc, "rule `%s` is for `%s`, which is not a query or an event",
                d->name ? d->name : "?", d->ref ? d->ref : "?");
        return;
    }
    /* A body still in its image (ast_image.h) is decoded here unless it is deferred, and its
     * kind checked when it is resolved (rule_later, dsl/resolve.c). */
    if (!c->defer && !res_body_ready(c, d))
        return;
    if (!d->body)
        body_rule_kind(c, d, g->kind == G_EVENT);
    if (!PUSH(c, p->rules, p->nrules, p->rules_cap, d->loc))
        return;
    uint32_t id = (uint32_t)p->nrules++;
    res_rule *r = &p->rules[id];
    *r = (res_rule){ .name = d->name,
                     .short_name = d->name2 ? d->name2 : d->name,
                     .query = (uint32_t)g->id,
                     .decl = d,
                     .priority = d->ival,
                     .edition = edition,
                     .replaces = d->op == AST_EDIT_REPLACE,
                     .seq = c->seq++,
                     .module = res_module_of(p, d->loc.file),
                     .revises = -1 };
    d->an.sym = id;
    if (edition < 0) {
        name_ent *old = model_find_name(p->names->rules, d->name);
        if (old) {
            diag *dg = diag_report(c->d, E_DUPLICATE, DIAG_ERROR, d->loc,
                                   "rule `%s` is already declared", d->name);
            if (dg)
                diag_relate(dg, old->loc, "the first `%s` is here", d->name);
        } else {
            scope_add_name(c, &p->names->rules, d->name, G_OTHER, (int32_t)id, d->loc, "rule");
        }
    } else if (!model_find_name(p->names->rules, d->name)) {
        scope_add_name(c, &p->names->rules, d->name, G_OTHER, (int32_t)id, d->loc, "rule");
    }
    if (c->defer)
        p->rules[id].deferred = true;
    else
        body_rule_clauses(c, id);
}

void body_rule_clauses(rctx *c, uint32_t id)
{
    res_program *p = c->p;
    ast_node *d = p->rules[id].decl;
    const res_query *q = &p->queries[p->rules[id].query];
    if (!res_body_ready(c, d))
        return;
    scope_begin_body(c);
    for (uint32_t i = 0; i < q->nparams; i++)
        scope_push_local(c, q->params[i].name, q->params[i].type, d->loc);
    for (uint32_t i = 0; i < d->list.len; i++) {
        ast_node *l = d->list.items[i];
        uint32_t t = expr_infer(c, l->a, T_NONE);
        l->an.slot = scope_push_local(c, l->name, t, l->loc);
        l->an.type = t;
    }
    if (d->a)
        expr_check(c, d->a, T_BOOL);
    const ast_node *outer = c->rule;
    c->rule = d;
    if (d->c)
        block(c, d->c);
    else if (d->b)
        expr_check(c, d->b, q->mode == AST_COMBINE_PERMISSION ? T_VERDICT : q->result);
    c->rule = outer;
    p->rules[id].nlocals = c->next_slot;
}

/* The result type each combination mode needs (combine_modes.h). */
typedef enum mode_need {
#define COMBINE_NEED(need, doc) NEED_##need,
#include "combine_modes.h"
} mode_need;

/* Per mode, from AST_COMBINE_FIRST on: what it needs, and its answer when no rule fires (NULL:
 * it takes a `default`). */
static const struct mode_rule {
    mode_need need;
    const char *no_rule;
} mode_rules[] = {
#define COMBINE(name, text, need, no_rule, doc) { NEED_##need, no_rule },
#include "combine_modes.h"
};

void body_query(rctx *c, res_query *q)
{
    res_program *p = c->p;
    ast_node *d = q->decl;
    const char *mode = ast_combine_name(q->mode);
    if (!mode)
        return; /* the parser makes no query of an unknown mode (E015) */
    const struct mode_rule *m = &mode_rules[q->mode - AST_COMBINE_FIRST];
    /* the one type a mode needs (T_NONE: any, or ints and enums, checked apart) */
    static const uint32_t need_type[] = {
        [NEED_INT] = T_INT, [NEED_BOOL] = T_BOOL, [NEED_VERDICT] = T_VERDICT
    };
    uint32_t want = need_type[m->need];
    /* min and max order ints, and the members of one enum by declaration order (the VM's
     * driver compares payloads: a member's payload is its index) */
    if (q->result != T_ERROR && m->need == NEED_INT_OR_ENUM && !expr_orderable(p, q->result))
        res_err(c, E_MODE, d->loc, "a `combine %s` query answers an int or an enum member, not %s",
                mode, type_text(p, q->result).s);
    else if (q->result != T_ERROR && want != T_NONE && q->result != want)
        res_err(c, E_MODE, d->loc, "a `combine %s` query answers %s, not %s", mode,
                type_text(p, want).s, type_text(p, q->result).s);
    if (!d->b)
        return;
    if (m->no_rule) {
        res_err(c, E_DEFAULT, d->b->loc,
                "a `combine %s` query has no default: with no rule firing it answers %s", mode,
                m->no_rule);
        return;
    }
    q->dflt = d->b;
    if (c->defer)
        q->dflt_deferred = true;
    else
        body_default(c, q);
}

void body_default(rctx *c, res_query *q)
{
    ast_node *d = q->decl;
    scope_begin_body(c);
    for (uint32_t i = 0; i < q->nparams; i++)
        scope_push_local(c, q->params[i].name, q->params[i].type, d->loc);
    expr_check(c, d->b, q->result);
    q->dflt_nlocals = c->next_slot;
}

void body_fn(rctx *c, res_fn *f)
{
    if (c->defer) {
        f->deferred = true;
        return;
    }
    if (!res_body_ready(c, f->decl))
        return;
    scope_begin_body(c);
    for (uint32_t i = 0; i < f->nparams; i++)
        scope_push_local(c, f->params[i].name, f->params[i].type, f->decl->loc);
    expr_check(c, f->decl->b, f->result);
    f->nlocals = c->next_slot;
}
