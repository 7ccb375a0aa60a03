/* builtin.c — the engine's vocabulary as the resolver sees it: the built-in functions (names,
 * signatures, the checking of a call) and the moments at which the engine raises an event
 * (names, the arguments each passes, the checking of `event ... on MOMENT`).
 *
 * The built-ins are the list builtins.h (their ids res_builtin, model.h); interp/compile.c,
 * vm.c and builtin.c implement them. The moments are res_moment. Their names enter the
 * program before pass 1 (builtin_declare). */
#include <string.h>

#include "resolve_int.h"

/* ---- built-in functions ---- */

/* Argument and result types of built-in functions, as codes (the type ids of enums and lists
 * are the program's own): B_NONE, B_INT ... (builtins.h). */
typedef enum btype {
#define BTYPE(code, text, own) B_##code,
#include "builtins.h"
} btype;

/* Whether a code is one the resolver checks by builtin_call's own cases. */
static const bool btype_own[] = {
#define BTYPE(code, text, own) [B_##code] = own,
#include "builtins.h"
};

/* Every built-in function, by id (RES_BI_*): name, arity, parameters, result (builtins.h). */
#define SIG(name, p1, p2, p3, result)                                       \
    {                                                                       \
        name, (B_##p1 != B_NONE) + (B_##p2 != B_NONE) + (B_##p3 != B_NONE), \
            { B_##p1, B_##p2, B_##p3 }, B_##result                          \
    }
static const struct builtin_sig {
    const char *name;
    int arity;
    btype params[3];
    btype result;
} builtins[RES_BI_COUNT] = {
#define BUILTIN_OP(id, name, opcode, p1, p2, p3, result, params, doc) \
    [RES_BI_##id] = SIG(name, p1, p2, p3, result),
#define BUILTIN_BOARD(id, name, body, p1, p2, p3, result, params, doc) \
    [RES_BI_##id] = SIG(name, p1, p2, p3, result),
#include "builtins.h"
};
#undef SIG

const char *builtin_name(uint32_t b)
{
    return b < RES_BI_COUNT ? builtins[b].name : "?";
}

/* Declares each built-in function's name with its id (a name given twice, `has`, once: its
 * first id). */
bool builtin_declare(rctx *c)
{
    res_program *p = c->p;
    for (size_t i = 0; i < RES_BI_COUNT; i++)
        if (!model_find_name(p->names->globals, builtins[i].name) &&
            !scope_add_name(c, &p->names->globals, builtins[i].name, G_BUILTIN, (int32_t)i,
                            (ast_loc){ 0 }, "built-in"))
            return false;
    return true;
}

int32_t builtin_find(const char *name)
{
    /* Asked of every call the resolver checks (most of them calls of the rules' own queries
     * and fns): the first bytes compared in line, strcmp only for a name that begins alike
     * (bench.md §9: 2.4 M instructions of start-up went to strcmp here). */
    for (size_t i = 0; name && i < RES_BI_COUNT; i++)
        if (name[0] == builtins[i].name[0] && strcmp(name, builtins[i].name) == 0)
            return (int32_t)i;
    return -1;
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
    case B_STEPS: return type_intern(c, RT_LIST, p->records[R_STEP].type, loc);
    case B_SQUARES: return type_intern(c, RT_LIST, T_SQUARE, loc);
    case B_UNITS: return type_intern(c, RT_LIST, T_UNIT, loc);
    case B_SIDES: return type_intern(c, RT_LIST, T_SIDE, loc);
    case B_ITEMS: return type_intern(c, RT_LIST, p->enums[E_INTERSPACE_ITEM].type, loc);
    case B_FACE: return p->enums[E_FACE].type;
    case B_PHASE: return p->enums[E_PHASE].type;
    case B_ABILITY: return p->enums[E_ABILITY].type;
    case B_MARKER: return p->enums[E_MARKER].type;
    default: return T_ERROR;
    }
}

/* has(u, X): X is an ability or a marker; a bare name chooses by which enum has it. */
static uint32_t has_expr(rctx *c, ast_node *n)
{
    res_program *p = c->p;
    ast_node *x = n->list.items[1];
    expr_check(c, n->list.items[0], T_UNIT);
    uint32_t ta = p->enums[E_ABILITY].type, tm = p->enums[E_MARKER].type;
    uint32_t t;
    if (x->kind == AST_NAME && !scope_find_local(c, x->name)) {
        bool is_a = model_find_member(&p->enums[E_ABILITY], x->name) >= 0;
        bool is_m = model_find_member(&p->enums[E_MARKER], x->name) >= 0;
        if (is_a && is_m) {
            res_err(c, E_AMBIGUOUS, x->loc,
                    "`%s` is both an ability and a marker: write ability.%s or marker.%s", x->name,
                    x->name, x->name);
            return T_BOOL;
        }
        t = expr_infer(c, x, is_a ? ta : is_m ? tm : T_NONE);
    } else {
        t = expr_infer(c, x, T_NONE);
    }
    if (t == ta)
        n->an.sym = RES_BI_HAS_ABILITY;
    else if (t == tm)
        n->an.sym = RES_BI_HAS_MARKER;
    else if (t != T_ERROR)
        res_err(c, E_TYPE, x->loc, "has() asks for an ability or a marker, not a %s value",
                type_text(p, t).s);
    return T_BOOL;
}

/* element_number(e, v), mine_counter_has(n, v), mine_counter_value(n, v): the first argument
 * is of type `first`; v is the bare name of a `value` declaration, which reaches the VM as its
 * slot number (the id the board keys named values by, scene.c). The call has type `result`. */
static uint32_t value_name_arg(rctx *c, ast_node *n, uint32_t first, uint32_t result)
{
    res_program *p = c->p;
    ast_node *v = n->list.items[1];
    expr_check(c, n->list.items[0], first);
    name_ent *s = v->kind == AST_NAME && !scope_find_local(c, v->name)
                      ? model_find_name(p->names->slots, v->name)
                      : NULL;
    if (!s) {
        res_err(c, E_TYPE, v->loc, "%s() takes the name of a `value` declaration as argument 2",
                n->name);
        return result;
    }
    v->an.sym_kind = SYM_MEMBER;
    v->an.sym = (uint32_t)s->id;
    v->an.type = T_INT;
    return result;
}

uint32_t builtin_call(rctx *c, ast_node *n, size_t bi)
{
    res_program *p = c->p;
    if (n->list.len != (uint32_t)builtins[bi].arity)
        return expr_arity_error(c, n, "built-in", (size_t)builtins[bi].arity);
    n->an.sym_kind = SYM_BUILTIN;
    n->an.sym = (uint32_t)bi;
    ast_node **a = n->list.items;
    /* the built-ins of an own type code (builtins.h) */
    switch ((res_builtin)bi) {
    case RES_BI_MIN:
    case RES_BI_MAX: {
        /* two ints, or two members of one enum (declaration order) */
        uint32_t t = expr_pair(c, a[0], a[1]);
        if (!expr_orderable(p, t)) {
            res_err(c, E_TYPE, n->loc, "%s() compares ints or members of one enum, not %s values",
                    n->name, type_text(p, t).s);
            return T_ERROR;
        }
        return t;
    }
    case RES_BI_LEN: {
        uint32_t t = expr_infer(c, a[0], T_NONE);
        if (t != T_ERROR && type_kind(p, t) != RT_LIST && type_kind(p, t) != RT_SET)
            res_err(c, E_TYPE, a[0]->loc, "len() asks for a list or a set, not a %s value",
                    type_text(p, t).s);
        return T_INT;
    }
    case RES_BI_HAS_ABILITY:
    case RES_BI_HAS_MARKER: return has_expr(c, n);
    case RES_BI_ELEMENT_NUMBER: return value_name_arg(c, n, T_ELEMENT, T_INT);
    case RES_BI_MINE_COUNTER_HAS: return value_name_arg(c, n, T_INT, T_BOOL);
    case RES_BI_MINE_COUNTER_VALUE: return value_name_arg(c, n, T_INT, T_INT);
    case RES_BI_GIVES_VALUE: return value_name_arg(c, n, T_UNIT, T_BOOL);
    case RES_BI_NTH: {
        uint32_t t = expr_infer(c, a[0], T_NONE);
        expr_check(c, a[1], T_INT);
        if (t != T_ERROR && type_kind(p, t) != RT_LIST) {
            res_err(c, E_TYPE, a[0]->loc, "nth() asks for a list, not a %s value",
                    type_text(p, t).s);
            return T_ERROR;
        }
        return t == T_ERROR ? T_ERROR : type_arg(p, t);
    }
    default: break;
    }
    /* the others, from their codes (an own code here is a built-in left without its case) */
    const struct builtin_sig *b = &builtins[bi];
    if (btype_own[b->params[0]] || btype_own[b->params[1]] || btype_own[b->params[2]] ||
        btype_own[b->result]) {
        res_err(c, E_LIMIT, n->loc, "built-in %s() has no type check", n->name);
        return T_ERROR;
    }
    for (int i = 0; i < b->arity; i++)
        expr_check(c, a[i], btype_id(c, b->params[i], a[i]->loc));
    return btype_id(c, b->result, n->loc);
}

/* ---- moments (language.md §6.1) ---- */

static const char *const moment_names[RES_MOMENT_COUNT] = {
    [RES_ON_GIVE] = "give",           [RES_ON_TAKE] = "take",
    [RES_ON_DESTROY] = "destroy",     [RES_ON_ENTER] = "enter",
    [RES_ON_WALK_END] = "walk_end",   [RES_ON_PHASE_START] = "phase_start",
    [RES_ON_PHASE_END] = "phase_end", [RES_ON_TURN_START] = "turn_start",
    [RES_ON_WALK] = "walk",
};

const char *builtin_moment_name(res_moment m)
{
    return (unsigned)m < RES_MOMENT_COUNT ? moment_names[m] : "?";
}

/* The argument types a moment passes (at most 2), as built-in signature codes; an event may
 * leave out the last `opt` of them. */
static const struct {
    int n;
    btype params[2];
    const char *text;
    int opt;
} moment_params[RES_MOMENT_COUNT] = {
    [RES_ON_GIVE] = { 2, { B_UNIT, B_MARKER }, "(unit, marker)" },
    [RES_ON_TAKE] = { 2, { B_UNIT, B_MARKER }, "(unit, marker)" },
    [RES_ON_DESTROY] = { 2, { B_UNIT, B_SQUARES }, "(unit) or (unit, list<square>)", 1 },
    [RES_ON_ENTER] = { 2, { B_UNIT, B_SQUARE }, "(unit, square)" },
    [RES_ON_WALK_END] = { 2, { B_UNIT, B_SQUARES }, "(unit, list<square>)" },
    [RES_ON_PHASE_START] = { 1, { B_PHASE }, "(phase)" },
    [RES_ON_PHASE_END] = { 1, { B_PHASE }, "(phase)" },
    [RES_ON_TURN_START] = { 1, { B_INT }, "(int)" },
    [RES_ON_WALK] = { 2, { B_UNIT, B_SQUARES }, "(unit, list<square>)" },
};

/* Pass 3 for `event NAME(params) on MOMENT`: the moment exists, takes the event's parameter
 * types, and raises no other event. */
void builtin_event_body(rctx *c, ast_node *d)
{
    res_program *p = c->p;
    name_ent *g = model_find_name(p->names->globals, d->name);
    if (!g || g->kind != G_EVENT || p->queries[g->id].decl != d || !d->ref)
        return;
    int m = -1;
    for (int i = 0; i < RES_MOMENT_COUNT; i++)
        if (strcmp(moment_names[i], d->ref) == 0)
            m = i;
    if (m < 0) {
        res_err(c, E_MOMENT, d->loc,
                "unknown moment `%s` (the engine raises events on give, take, "
                "destroy, enter, walk, walk_end, phase_start, phase_end and turn_start)",
                d->ref);
        return;
    }
    res_query *q = &p->queries[g->id];
    uint32_t most = (uint32_t)moment_params[m].n;
    bool fits = q->nparams <= most && q->nparams + (uint32_t)moment_params[m].opt >= most;
    for (uint32_t i = 0; fits && i < q->nparams; i++) {
        uint32_t want = btype_id(c, moment_params[m].params[i], d->loc);
        fits = q->params[i].type == want || q->params[i].type == T_ERROR;
    }
    if (!fits) {
        res_err(c, E_MOMENT, d->loc, "an event raised on `%s` takes %s", d->ref,
                moment_params[m].text);
        return;
    }
    if (p->moments[m] >= 0) {
        diag *dg = diag_report(c->d, E_TWO_MOMENTS, DIAG_ERROR, d->loc,
                               "event `%s` is raised on `%s`, like `%s`: one event per moment",
                               d->name, d->ref, p->queries[p->moments[m]].name);
        if (dg)
            diag_relate(dg, p->queries[p->moments[m]].decl->loc, "`%s` is declared here",
                        p->queries[p->moments[m]].name);
        return;
    }
    p->moments[m] = g->id;
    q->moment = m;
}
