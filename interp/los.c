/* los.c — line of sight between two places of the board as a call (hon.h: hon_place_of,
 * hon_los), over eval.h. The rules say what a line of sight is: hon_los fits the places to the
 * parameters of their line_of_sight (or asks line_of_sight_squares(a, b, false) when a square
 * holds no unit or several), through query handles, traced like hon_eval, with a note.
 */
#include <stdio.h>
#include <string.h>

#include "eval.h"
#include "mem.h"
#include "view.h"
#include "vm.h"

#define WHERE "<los>" /* the path its diagnostics name */

/* One end of the line, on the session's board. */
typedef struct end {
    bool square;   /* a square was given, else a unit */
    int64_t sq;    /* its square value: the given one, or the unit's (-1: not on the
                               board) */
    int32_t unit;  /* the unit given, or the one unit on the square (-1: none, or
                               several) */
    size_t nunits; /* a square: how many units stand on it */
    char name[80]; /* "$rifle1" or "C4" */
    char held[80]; /* a square with one unit: that unit ("$rifle1") */
} end;

/* Says there is no board to draw a line on; HON_ERR_NOT_FOUND. */
static hon_status no_board(hon_vm *vm)
{
    session_report(vm, E_NO_BOARD, WHERE,
                   "no board is loaded: a line of sight runs between "
                   "the units and squares of a board");
    return HON_ERR_NOT_FOUND;
}

/* "$name" of board unit u into buf; false when u is no unit of the board (a counter). */
static bool unit_name(const scene *sc, int64_t u, char *buf, size_t cap)
{
    const char *name = u >= 0 && (size_t)u < sc->units->len ? scene_unit_name(sc, u) : NULL;
    if (name)
        snprintf(buf, cap, "$%s", name);
    return name != NULL;
}

/* Reads place v into *e; false (reported) when it is no unit of the board or a square off it. */
static bool end_of(hon_vm *vm, hon_value v, end *e)
{
    const scene *sc = vm->sc;
    *e = (end){ .square = v.kind == HON_V_SQUARE, .sq = -1, .unit = -1 };
    if (e->square) {
        scene_square_text(v.i, e->name, sizeof e->name);
        int sq = scene_square(sc, v.i);
        if (sq < 0) {
            session_report(vm, E_OFF_BOARD, WHERE, "square %s is off the board", e->name);
            return false;
        }
        int ids[2];
        e->sq = v.i;
        e->nunits = board_units_at(sc->b, sq, ids, 2);
        if (e->nunits == 1 && unit_name(sc, ids[0], e->held, sizeof e->held))
            e->unit = ids[0];
        return true;
    }
    if (v.kind != HON_V_UNIT) {
        session_report(vm, E_BAD_REQUEST, WHERE, "a line of sight runs between units and squares");
        return false;
    }
    if (!unit_name(sc, v.i, e->name, sizeof e->name)) {
        session_report(vm, E_NO_UNIT, WHERE, "the board has no unit #%lld", (long long)v.i);
        return false;
    }
    int s0, s1;
    e->unit = (int32_t)v.i;
    if (board_unit_squares(sc->b, e->unit, &s0, &s1))
        e->sq = scene_square_value(sc, s0);
    return true;
}

/* Appends to note what square end e holds ("A1 holds $rifle1", "A1 holds no unit"). */
static void holds(const end *e, char *note, size_t cap)
{
    size_t n = strlen(note);
    if (!e->square || n >= cap)
        return;
    if (e->nunits == 1)
        snprintf(note + n, cap - n, "%s%s holds %s", n ? ", " : "", e->name, e->held);
    else if (e->nunits == 0)
        snprintf(note + n, cap - n, "%s%s holds no unit", n ? ", " : "", e->name);
    else
        snprintf(note + n, cap - n, "%s%s holds %zu units", n ? ", " : "", e->name, e->nunits);
}

/* End e as the argument of a parameter of type t (a unit or a square) into *v, and as the
 * language would write it into buf: a square as itself or a unit's square_of($u); a unit as
 * itself, or a square's one unit. False when it cannot be one (a square holding no unit or
 * several, for a unit). */
static bool arg_of(const res_program *p, const end *e, uint32_t t, val *v, char *buf, size_t cap)
{
    if (p->types[t].kind == RT_SQUARE) {
        snprintf(buf, cap, e->square ? "@%s" : "square_of(%s)", e->name);
        *v = (val){ .type = t, .u.i = e->sq };
        return true;
    }
    if (e->unit < 0)
        return false;
    snprintf(buf, cap, "%s", e->square ? e->held : e->name);
    *v = (val){ .type = t, .u.i = e->unit };
    return true;
}

/* The handle *h of query `name` (looked up now if it was not yet), or NULL when the rules
 * declare no query of that name. */
static const hon_query_handle *query_named(hon_vm *vm, hon_query_handle **h, const char *name)
{
    if (!*h)
        *h = hon_lookup_query(vm, name);
    return *h && eval_handle_current(vm, *h) && !(*h)->is_fn ? *h : NULL;
}

/* line_of_sight, when the rules declare it with two parameters, each a unit or a square;
 * else NULL, reported. */
static const res_query *los_query(hon_vm *vm)
{
    const res_program *p = vm->pg->res;
    const hon_query_handle *h = query_named(vm, &vm->los_query, "line_of_sight");
    if (!h) {
        session_report(vm, E_NO_SUCH_QUERY, WHERE,
                       "the rules define no query line_of_sight (a line of "
                       "sight asks line_of_sight(X, Y))");
        return NULL;
    }
    const res_query *q = &p->queries[h->id];
    if (q->nparams != 2) {
        session_report(vm, E_BAD_REQUEST, WHERE,
                       "line_of_sight takes %u parameters; a line of sight gives two", q->nparams);
        return NULL;
    }
    for (uint32_t i = 0; i < 2; i++) {
        res_tkind k = p->types[q->params[i].type].kind;
        if (k != RT_UNIT && k != RT_SQUARE) {
            char tname[128];
            session_report(vm, E_BAD_REQUEST, WHERE,
                           "line_of_sight takes a %s, which a line of sight "
                           "cannot give (it gives units and squares)",
                           type_name(p, q->params[i].type, tname, sizeof tname));
            return NULL;
        }
    }
    return q;
}

/* line_of_sight_squares(square, square, bool), when the rules declare it; else NULL. */
static const res_query *squares_query(hon_vm *vm)
{
    const res_program *p = vm->pg->res;
    const hon_query_handle *h = query_named(vm, &vm->los_squares, "line_of_sight_squares");
    const res_query *q = h ? &p->queries[h->id] : NULL;
    if (!q || q->nparams != 3)
        return NULL;
    static const res_tkind want[3] = { RT_SQUARE, RT_SQUARE, RT_BOOL };
    for (uint32_t i = 0; i < 3; i++)
        if (p->types[q->params[i].type].kind != want[i])
            return NULL;
    return q;
}

/* What a line of sight asks: a query, its arguments, and how the language writes the call. */
typedef struct asking {
    const res_query *q;
    uint32_t id; /* the query's id */
    val args[3];
    uint32_t nargs;
    char note[640]; /* the answer's note, or "" */
} asking;

/* Decides what to ask between a and b (reported when nothing fits). */
static bool decide(hon_vm *vm, const end *a, const end *b, asking *k)
{
    const res_program *p = vm->pg->res;
    const res_query *q = los_query(vm);
    if (!q)
        return false;
    char holding[320] = "", ta[96], tb[96];
    holds(a, holding, sizeof holding);
    holds(b, holding, sizeof holding);
    *k = (asking){ .q = q, .id = vm->los_query->id, .nargs = 2 };
    if (arg_of(p, a, q->params[0].type, &k->args[0], ta, sizeof ta) &&
        arg_of(p, b, q->params[1].type, &k->args[1], tb, sizeof tb)) {
        /* a square stood for its unit: say so */
        if ((a->square && p->types[q->params[0].type].kind == RT_UNIT) ||
            (b->square && p->types[q->params[1].type].kind == RT_UNIT))
            snprintf(k->note, sizeof k->note, "%s: asking line_of_sight(%s, %s)", holding, ta, tb);
    } else if ((q = squares_query(vm))) {
        /* line_of_sight takes units and a square holds none or several: between squares */
        *k = (asking){ .q = q, .id = vm->los_squares->id, .nargs = 3 };
        arg_of(p, a, q->params[0].type, &k->args[0], ta, sizeof ta);
        arg_of(p, b, q->params[1].type, &k->args[1], tb, sizeof tb);
        k->args[2] = (val){ .type = q->params[2].type, .u.i = 0 };
        snprintf(k->note, sizeof k->note, "%s: asking line_of_sight_squares(%s, %s, false)",
                 holding, ta, tb);
    } else {
        session_report(vm, E_NO_SUCH_QUERY, WHERE,
                       "line_of_sight takes units, and %s; the rules define no "
                       "line_of_sight_squares(a: square, b: square, both_infantry: bool) to ask "
                       "between squares",
                       holding);
        return false;
    }
    /* a unit stands for its square: it must be on the board */
    const end *ends[2] = { a, b };
    for (int i = 0; i < 2; i++)
        if (p->types[k->q->params[i].type].kind == RT_SQUARE && ends[i]->sq < 0) {
            session_report(vm, E_OFF_BOARD, WHERE, "%s is not on the board", ends[i]->name);
            return false;
        }
    return true;
}

hon_status hon_place_of(hon_vm *vm, const char *word, hon_value *out)
{
    if (!vm || !word || !out)
        return HON_ERR_NOT_FOUND;
    if (!vm->sc)
        return no_board(vm);
    return view_place(vm, word, WHERE, out);
}

hon_status hon_los(hon_vm *vm, hon_value from, hon_value to, hon_answer **out)
{
    return hon_los_as(vm, from, to, HON_WANT_ALL, out);
}

hon_status hon_los_as(hon_vm *vm, hon_value from, hon_value to, unsigned want, hon_answer **out)
{
    if (out)
        *out = NULL;
    if (!vm)
        return HON_ERR_NOT_FOUND;
    if (!vm->sc)
        return no_board(vm);
    end a, b;
    asking k;
    if (!end_of(vm, from, &a) || !end_of(vm, to, &b) || !decide(vm, &a, &b, &k))
        return HON_ERR_NOT_FOUND;
    hon_status st = session_begin(vm, NULL, eval_traces(want));
    if (st != HON_OK)
        return st;
    val v;
    if (!vm_call(&vm->x, false, k.id, k.args, k.nargs, &v)) {
        st = session_error(vm, false);
    } else if (out) {
        *out = eval_answer(vm, v, k.q->result, want);
        if (*out && k.note[0] && !((*out)->note = mem_strdup(k.note))) {
            hon_answer_free(*out);
            *out = NULL;
        }
        if (!*out)
            st = HON_ERR_MEMORY;
    }
    state_end(&vm->x);
    return st;
}
