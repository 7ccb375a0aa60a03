/* builtin.c — the engine's vocabulary as the resolver sees it: the built-in functions (names,
 * signatures, the checking of a call) and the moments at which the engine raises an event
 * (names, the arguments each passes, the checking of `event ... on MOMENT`).
 *
 * Their ids are res_builtin and res_moment (model.h); interp/compile.c, vm.c and builtin.c
 * implement them. Their names enter the program before pass 1 (builtin_declare). */
#include "resolve_int.h"

#include <string.h>

/* ---- built-in functions ---- */

/* Argument and result types of built-in functions, as codes (the type ids of enums and lists
 * are the program's own). */
typedef enum btype {
    B_NONE, B_INT, B_BOOL, B_UNIT, B_SQUARE, B_SIDE, B_ELEMENT, B_TERRAIN, B_SQUARE_FEATURE,
    B_SIDE_FEATURE, B_ITEM, B_DIRECTION, B_STEPS, B_SQUARES, B_UNITS, B_SIDES, B_ITEMS,
    B_FACE, B_PHASE
} btype;

/* The built-in functions. The first ones are checked by builtin_call's own cases; the board's
 * are checked from their signature (params, result). */
static const struct builtin_sig {
    const char *name;
    res_builtin id;
    int arity;
    btype params[3];
    btype result;
} builtins[] = {
    { "min", RES_BI_MIN, 2, { 0 }, 0 }, { "max", RES_BI_MAX, 2, { 0 }, 0 },
    { "abs", RES_BI_ABS, 1, { 0 }, 0 }, { "len", RES_BI_LEN, 1, { 0 }, 0 },
    { "nth", RES_BI_NTH, 2, { 0 }, 0 },
    { "has", RES_BI_HAS_ABILITY, 2, { 0 }, 0 },
    { "ability_value", RES_BI_ABILITY_VALUE, 2, { 0 }, 0 },
    { "marker_count", RES_BI_MARKER_COUNT, 2, { 0 }, 0 },
    /* the board, language.md §5.3 */
    { "square_of", RES_BI_SQUARE_OF, 1, { B_UNIT }, B_SQUARE },
    { "squares_of", RES_BI_SQUARES_OF, 1, { B_UNIT }, B_SQUARES },
    { "on_board", RES_BI_ON_BOARD, 1, { B_UNIT }, B_BOOL },
    { "embarked", RES_BI_EMBARKED, 1, { B_UNIT }, B_BOOL },
    { "carrier", RES_BI_CARRIER, 1, { B_UNIT }, B_UNIT },
    { "units_at", RES_BI_UNITS_AT, 1, { B_SQUARE }, B_UNITS },
    { "elevation", RES_BI_ELEVATION, 1, { B_SQUARE }, B_INT },
    { "terrain", RES_BI_TERRAIN, 1, { B_SQUARE }, B_TERRAIN },
    { "element_at", RES_BI_ELEMENT_AT, 1, { B_SQUARE }, B_ELEMENT },
    { "in_element", RES_BI_IN_ELEMENT, 1, { B_SQUARE }, B_BOOL },
    { "element_terrain", RES_BI_ELEMENT_TERRAIN, 1, { B_ELEMENT }, B_TERRAIN },
    { "element_value", RES_BI_ELEMENT_VALUE, 1, { B_ELEMENT }, B_INT },
    { "element_facing", RES_BI_ELEMENT_FACING, 1, { B_ELEMENT }, B_DIRECTION },
    { "element_squares", RES_BI_ELEMENT_SQUARES, 1, { B_ELEMENT }, B_SQUARES },
    { "corner_square", RES_BI_CORNER_SQUARE, 1, { B_SQUARE }, B_BOOL },
    { "has_feature", RES_BI_HAS_FEATURE, 2, { B_SQUARE, B_SQUARE_FEATURE }, B_BOOL },
    { "feature_value", RES_BI_FEATURE_VALUE, 2, { B_SQUARE, B_SQUARE_FEATURE }, B_INT },
    { "side_between", RES_BI_SIDE_BETWEEN, 2, { B_SQUARE, B_SQUARE }, B_SIDE },
    { "side_has", RES_BI_SIDE_HAS, 2, { B_SIDE, B_SIDE_FEATURE }, B_BOOL },
    { "side_value", RES_BI_SIDE_VALUE, 2, { B_SIDE, B_SIDE_FEATURE }, B_INT },
    { "side_facing", RES_BI_SIDE_FACING, 2, { B_SIDE, B_SIDE_FEATURE }, B_SQUARE },
    { "sides_of", RES_BI_SIDES_OF, 1, { B_SQUARE }, B_SIDES },
    { "side_squares", RES_BI_SIDE_SQUARES, 1, { B_SIDE }, B_SQUARES },
    { "items_near", RES_BI_ITEMS_NEAR, 1, { B_SQUARE }, B_ITEMS },
    { "item_value_near", RES_BI_ITEM_VALUE_NEAR, 2, { B_SQUARE, B_ITEM }, B_INT },
    { "distance", RES_BI_DISTANCE, 2, { B_SQUARE, B_SQUARE }, B_INT },
    { "adjacent", RES_BI_ADJACENT, 2, { B_SQUARE, B_SQUARE }, B_BOOL },
    { "neighbours", RES_BI_NEIGHBOURS, 1, { B_SQUARE }, B_SQUARES },
    { "line", RES_BI_LINE, 2, { B_SQUARE, B_SQUARE }, B_STEPS },
    { "bresenham", RES_BI_BRESENHAM, 2, { B_SQUARE, B_SQUARE }, B_STEPS },
    { "side_of_line", RES_BI_SIDE_OF_LINE, 3, { B_SQUARE, B_SQUARE, B_SQUARE }, B_INT },
    { "direction", RES_BI_DIRECTION, 2, { B_SQUARE, B_SQUARE }, B_DIRECTION },
    { "squares_within", RES_BI_SQUARES_WITHIN, 2, { B_SQUARE, B_INT }, B_SQUARES },
    /* §6: faces, units in play, the game clock */
    { "face", RES_BI_FACE, 1, { B_UNIT }, B_FACE },
    { "element_face", RES_BI_ELEMENT_FACE, 1, { B_ELEMENT }, B_FACE },
    { "units", RES_BI_UNITS, 0, { 0 }, B_UNITS },
    { "passengers", RES_BI_PASSENGERS, 1, { B_UNIT }, B_UNITS },
    { "turn", RES_BI_TURN, 0, { 0 }, B_INT },
    { "phase", RES_BI_PHASE, 0, { 0 }, B_PHASE },
};
#define NBUILTINS (sizeof builtins / sizeof builtins[0])

const char *res_builtin_name(uint32_t b)
{
    for (size_t i = 0; i < NBUILTINS; i++)
        if ((uint32_t)builtins[i].id == b)
            return builtins[i].name;
    return "?";
}

/* Declares each built-in function's name, its index in builtins[] as its id. */
bool builtin_declare(rctx *c)
{
    res_program *p = c->p;
    for (size_t i = 0; i < NBUILTINS; i++)
        if (!model_find_name(p->names->globals, builtins[i].name) &&
            !scope_add_name(c, &p->names->globals, builtins[i].name, G_BUILTIN, (int32_t)i,
                            (ast_loc){ 0 }, "built-in"))
            return false;
    return true;
}

int32_t builtin_find(const char *name)
{
    for (size_t i = 0; name && i < NBUILTINS; i++)
        if (strcmp(name, builtins[i].name) == 0)
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
        bool is_a = res_find_member(&p->enums[E_ABILITY], x->name) >= 0;
        bool is_m = res_find_member(&p->enums[E_MARKER], x->name) >= 0;
        if (is_a && is_m) {
            res_err(c, E_AMBIGUOUS, x->loc,
                "`%s` is both an ability and a marker: write ability.%s or marker.%s",
                x->name, x->name, x->name);
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

uint32_t builtin_call(rctx *c, ast_node *n, size_t bi)
{
    res_program *p = c->p;
    if (n->list.len != (uint32_t)builtins[bi].arity)
        return expr_arity_error(c, n, "built-in", (size_t)builtins[bi].arity);
    n->an.sym_kind = SYM_BUILTIN;
    n->an.sym = builtins[bi].id;
    ast_node **a = n->list.items;
    switch (builtins[bi].id) {
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
    case RES_BI_ABS:
        expr_check(c, a[0], T_INT);
        return T_INT;
    case RES_BI_LEN: {
        uint32_t t = expr_infer(c, a[0], T_NONE);
        if (t != T_ERROR && type_kind(p, t) != RT_LIST && type_kind(p, t) != RT_SET)
            res_err(c, E_TYPE, a[0]->loc, "len() asks for a list or a set, not a %s value",
                type_text(p, t).s);
        return T_INT;
    }
    case RES_BI_HAS_ABILITY:
    case RES_BI_HAS_MARKER:
        return has_expr(c, n);
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
    case RES_BI_ABILITY_VALUE:
        expr_check(c, a[0], T_UNIT);
        expr_check(c, a[1], p->enums[E_ABILITY].type);
        return T_INT;
    case RES_BI_MARKER_COUNT:
        expr_check(c, a[0], T_UNIT);
        expr_check(c, a[1], p->enums[E_MARKER].type);
        return T_INT;
    default:
        break;
    }
    for (int i = 0; i < builtins[bi].arity; i++)
        expr_check(c, a[i], btype_id(c, builtins[bi].params[i], a[i]->loc));
    return btype_id(c, builtins[bi].result, n->loc);
}

/* ---- moments (language.md §6.1) ---- */

static const char *const moment_names[RES_MOMENT_COUNT] = {
    [RES_ON_GIVE] = "give", [RES_ON_TAKE] = "take", [RES_ON_DESTROY] = "destroy",
    [RES_ON_ENTER] = "enter", [RES_ON_WALK_END] = "walk_end",
    [RES_ON_PHASE_START] = "phase_start", [RES_ON_PHASE_END] = "phase_end",
    [RES_ON_TURN_START] = "turn_start",
};

const char *res_moment_name(res_moment m)
{
    return (unsigned)m < RES_MOMENT_COUNT ? moment_names[m] : "?";
}

/* The argument types a moment passes (at most 2), as built-in signature codes. */
static const struct { int n; btype params[2]; const char *text; } moment_params[RES_MOMENT_COUNT] = {
    [RES_ON_GIVE] = { 2, { B_UNIT, B_NONE }, "(unit, marker)" },
    [RES_ON_TAKE] = { 2, { B_UNIT, B_NONE }, "(unit, marker)" },
    [RES_ON_DESTROY] = { 1, { B_UNIT }, "(unit)" },
    [RES_ON_ENTER] = { 2, { B_UNIT, B_SQUARE }, "(unit, square)" },
    [RES_ON_WALK_END] = { 2, { B_UNIT, B_SQUARES }, "(unit, list<square>)" },
    [RES_ON_PHASE_START] = { 1, { B_PHASE }, "(phase)" },
    [RES_ON_PHASE_END] = { 1, { B_PHASE }, "(phase)" },
    [RES_ON_TURN_START] = { 1, { B_INT }, "(int)" },
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
        res_err(c, E_MOMENT, d->loc, "unknown moment `%s` (the engine raises events on give, take, "
            "destroy, enter, walk_end, phase_start, phase_end and turn_start)", d->ref);
        return;
    }
    res_query *q = &p->queries[g->id];
    bool fits = q->nparams == (uint32_t)moment_params[m].n;
    for (uint32_t i = 0; fits && i < q->nparams; i++) {
        uint32_t want = moment_params[m].params[i] == B_NONE
                            ? p->enums[m == RES_ON_GIVE || m == RES_ON_TAKE ? E_MARKER : E_KIND].type
                            : btype_id(c, moment_params[m].params[i], d->loc);
        fits = q->params[i].type == want || q->params[i].type == T_ERROR;
    }
    if (!fits) {
        res_err(c, E_MOMENT, d->loc, "an event raised on `%s` takes %s", d->ref,
            moment_params[m].text);
        return;
    }
    if (p->moments[m] >= 0) {
        diag *dg = diag_report(c->d, E_TWO_MOMENTS, DIAG_ERROR, d->loc, "event `%s` is raised "
                               "on `%s`, like `%s`: one event per moment",
                               d->name, d->ref, p->queries[p->moments[m]].name);
        if (dg)
            diag_relate(dg, p->queries[p->moments[m]].decl->loc, "`%s` is declared here",
                        p->queries[p->moments[m]].name);
        return;
    }
    p->moments[m] = g->id;
    q->moment = m;
}
