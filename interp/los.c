/* los.c — line of sight between two places of the board as a call (hon.h: hon_place_of,
 * hon_los), over eval.h. The rules say what a line of sight is: hon_los fits the places to the
 * parameters of their line_of_sight (or, when a square holds no unit or several, asks
 * sight_to_square(unit, square) between a unit and that square, else
 * line_of_sight_squares(a, b, false)), through query handles, traced like hon_eval, with a note. The
 * pictures of a line (hon_draw_board, hon_board_svg over view.h's view_draw) say the same
 * question's verdict, read from its trace (los.h).
 */
#include "los.h"

#include <stdio.h>
#include <string.h>

#include "eval.h"
#include "mem.h"
#include "refusal.h"
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
 * else NULL, reported when `report`. */
static const res_query *los_query(hon_vm *vm, bool report)
{
    const res_program *p = vm->pg->res;
    const hon_query_handle *h = query_named(vm, &vm->los_query, "line_of_sight");
    if (!h) {
        if (report)
            session_report(vm, E_NO_SUCH_QUERY, WHERE,
                           "the rules define no query line_of_sight (a line of "
                           "sight asks line_of_sight(X, Y))");
        return NULL;
    }
    const res_query *q = &p->queries[h->id];
    if (q->nparams != 2) {
        if (report)
            session_report(vm, E_BAD_REQUEST, WHERE,
                           "line_of_sight takes %u parameters; a line of sight gives two",
                           q->nparams);
        return NULL;
    }
    for (uint32_t i = 0; i < 2; i++) {
        res_tkind k = p->types[q->params[i].type].kind;
        if (k != RT_UNIT && k != RT_SQUARE) {
            char tname[128];
            if (report)
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

/* sight_to_square(unit, square), when the rules declare it; else NULL. */
static const res_query *sight_query(hon_vm *vm)
{
    const res_program *p = vm->pg->res;
    const hon_query_handle *h = query_named(vm, &vm->los_sight, "sight_to_square");
    const res_query *q = h ? &p->queries[h->id] : NULL;
    if (!q || q->nparams != 2 || p->types[q->params[0].type].kind != RT_UNIT ||
        p->types[q->params[1].type].kind != RT_SQUARE)
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

/* Decides what to ask between a and b (reported, when `report`, if nothing fits). */
static bool decide(hon_vm *vm, const end *a, const end *b, asking *k, bool report)
{
    const res_program *p = vm->pg->res;
    const res_query *q = los_query(vm, report);
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
    } else if ((!a->square) != (!b->square) && (q = sight_query(vm))) {
        /* a unit and a square holding no unit (or several): the unit's sight of the square, as
         * the rules ask it (a line of sight goes both ways, so the order does not matter); the
         * rules, not this file, say which of a two-square counter's squares it sees from and
         * that it is no screen of its own line */
        const end *u = a->square ? b : a, *s = a->square ? a : b;
        *k = (asking){ .q = q, .id = vm->los_sight->id, .nargs = 2 };
        arg_of(p, u, q->params[0].type, &k->args[0], ta, sizeof ta);
        arg_of(p, s, q->params[1].type, &k->args[1], tb, sizeof tb);
        snprintf(k->note, sizeof k->note, "%s: asking sight_to_square(%s, %s)", holding, ta, tb);
    } else if ((q = squares_query(vm))) {
        /* line_of_sight takes units and a square holds none or several: between squares */
        *k = (asking){ .q = q, .id = vm->los_squares->id, .nargs = 3 };
        arg_of(p, a, q->params[0].type, &k->args[0], ta, sizeof ta);
        arg_of(p, b, q->params[1].type, &k->args[1], tb, sizeof tb);
        k->args[2] = (val){ .type = q->params[2].type, .u.i = 0 };
        snprintf(k->note, sizeof k->note, "%s: asking line_of_sight_squares(%s, %s, false)",
                 holding, ta, tb);
    } else {
        if (report)
            session_report(
                vm, E_NO_SUCH_QUERY, WHERE,
                "line_of_sight takes units, and %s; the rules define no "
                "line_of_sight_squares(a: square, b: square, both_infantry: bool) to ask "
                "between squares",
                holding);
        return false;
    }
    /* either end must be on the board, whether a unit stands for its square or is passed as
     * itself: a line of sight runs between squares, and a unit in the unit pool has none */
    const end *ends[2] = { a, b };
    for (int i = 0; i < 2; i++)
        if (ends[i]->sq < 0) {
            if (report)
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
    if (!end_of(vm, from, &a) || !end_of(vm, to, &b) || !decide(vm, &a, &b, &k, true))
        return HON_ERR_NOT_FOUND;
    hon_status st = eval_begin(vm, want);
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

/* ---- the verdict a picture of the line explains ---- */

/* The entry after the subtree of entry i (its children are the entries between, one level
 * deeper). */
static size_t subtree_end(const trace_log *t, size_t i)
{
    size_t j = i + 1;
    while (j < t->len && t->e[j].depth > t->e[i].depth)
        j++;
    return j;
}

/* Whether entry e is a call a rule answered (not its default) whose result is want, of its
 * type (a `false` is no `blocked`, though both are member 0). */
static bool answered(const res_program *p, const trace_ent *e, val want)
{
    return e->kind == TR_CALL && e->done && !e->no_rule && e->result.type == want.type &&
           val_equal(p, e->result, want, NULL);
}

/* The place a call below the top one names: its one square_side argument (kind 2: a rule
 * saying where a line is cut, such as past its reach), else its one square argument (kind 1),
 * or the side between its two adjacent square arguments (kind 2); false when it names none. */
static bool place_of_call(const hon_vm *vm, const trace_ent *e, int *kind, int *at)
{
    const res_program *p = vm->pg->res;
    int sq[2], n = 0, sides = 0;
    int64_t side_arg = -1;
    for (uint32_t i = 0; i < e->nargs; i++) {
        res_tkind k = p->types[e->args[i].type].kind;
        if (k == RT_SQUARE && n < 2)
            sq[n++] = scene_square(vm->sc, e->args[i].u.i);
        else if (k == RT_SIDE && sides++ == 0)
            side_arg = e->args[i].u.i;
    }
    if (sides == 1 && side_arg >= 0 && side_arg < geo_side_count(vm->sc->g)) {
        *kind = 2, *at = (int)side_arg;
        return true;
    }
    if (n == 1 && sq[0] >= 0) {
        *kind = 1, *at = sq[0];
        return true;
    }
    int side = n == 2 && sq[0] >= 0 && sq[1] >= 0 ? geo_side_between(vm->sc->g, sq[0], sq[1]) : -1;
    if (side >= 0)
        *kind = 2, *at = side;
    return side >= 0;
}

/* How many rules below the deciding one a caption names at most (rested_on, down). */
#define LOS_CHAIN_MAX 8

/* The rule that answered the call at entry `call`: the one rule below it that fired giving the
 * call's answer; SIZE_MAX when its default answered or several rules gave it. */
static size_t answering_rule(const res_program *p, const trace_log *t, size_t call)
{
    size_t found = SIZE_MAX, stop = subtree_end(t, call);
    for (size_t j = call + 1; j < stop; j = subtree_end(t, j)) {
        const trace_ent *e = &t->e[j];
        if (e->kind != TR_RULE || !e->done || e->unfired ||
            !val_equal(p, e->result, t->e[call].result, NULL))
            continue;
        if (found != SIZE_MAX)
            return SIZE_MAX;
        found = j;
    }
    return found;
}

/* What the rule that fired at entry `rule` rested on: the one rule that answered the calls its
 * guard and answer made (terrain_sight.obstacle asks terrain_traits(woods), which
 * terrain_traits.woods answers), as an entry; SIZE_MAX when no call of it was answered by a rule
 * (only defaults, or no call), or its calls were answered by different rules (none of them
 * alone decided). */
static size_t rested_on(const res_program *p, const trace_log *t, size_t rule)
{
    size_t found = SIZE_MAX, stop = subtree_end(t, rule);
    for (size_t j = rule + 1; j < stop; j = subtree_end(t, j)) {
        const trace_ent *e = &t->e[j];
        if (e->kind != TR_CALL || !e->done || e->no_rule)
            continue;
        size_t r = answering_rule(p, t, j);
        if (r == SIZE_MAX || (found != SIZE_MAX && t->e[found].id != t->e[r].id))
            return SIZE_MAX;
        if (found == SIZE_MAX)
            found = r;
    }
    return found;
}

/* Writes the place of v (a square "C1", a side "C1/D1") into buf. */
static void place_text(const scene *sc, const view_verdict *v, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (v->at_kind == 1)
        geo_format_square(sc->g, v->at, buf, cap);
    else if (v->at_kind == 2)
        scene_side_text(sc, v->at, buf, cap);
}

/* Reads the decision out of the trace of one line-of-sight call (los.h) into v and the
 * caption c, which the caller has begun with the verdict. */
static void read_decision(hon_vm *vm, const trace_log *t, view_verdict *v, strbuf *c)
{
    const res_program *p = vm->pg->res;
    val want = t->e[0].result;
    size_t call = 0, rule = SIZE_MAX;
    for (;;) {
        size_t stop = subtree_end(t, call), first = SIZE_MAX, agree = 0;
        for (size_t j = call + 1; j < stop; j = subtree_end(t, j))
            if (t->e[j].kind == TR_RULE && t->e[j].done && !t->e[j].unfired &&
                val_equal(p, t->e[j].result, want, NULL) && agree++ == 0)
                first = j;
        if (agree > 1) {
            /* several rules gave it (a `combine min` where nothing was worse): they decided */
            v->at_kind = 0;
            sb_puts(c, ", by rules");
            for (size_t j = call + 1, k = 0; j < stop; j = subtree_end(t, j))
                if (t->e[j].kind == TR_RULE && t->e[j].done && !t->e[j].unfired &&
                    val_equal(p, t->e[j].result, want, NULL))
                    sb_printf(c, "%s %s", k++ ? "," : "", p->rules[t->e[j].id].name);
            return;
        }
        if (agree == 0 && rule == SIZE_MAX) {
            sb_printf(c, ", the default of %s (no rule gave it)", p->queries[t->e[call].id].name);
            return;
        }
        if (agree == 0) {
            /* a yes-or-no call its default answered (no rule below): it may still say where */
            if (call > 0 && t->e[call].no_rule)
                place_of_call(vm, &t->e[call], &v->at_kind, &v->at);
            break;
        }
        rule = first;
        if (call > 0)
            place_of_call(vm, &t->e[call], &v->at_kind, &v->at);
        /* down the last call of the rule that gave the same answer, or else the last yes-or-no
         * call of its guard that answered yes. The last, not the first: `any` stops at the item
         * that decided, but a call before it may have answered yes to no effect, such as the
         * square on one side of a corner the line only touches, which blocks only when the
         * square on the other side does too (corner_touch = both_sides; fresh16 D12: the
         * caption named that square, not the one further on that blocked) */
        size_t next = SIZE_MAX, rend = subtree_end(t, rule);
        for (size_t j = rule + 1; j < rend; j = subtree_end(t, j))
            if (answered(p, &t->e[j], want))
                next = j;
        /* (one a rule answered; else one its default answered, for its place alone) */
        for (int by_default = 0; by_default < 2 && next == SIZE_MAX; by_default++)
            for (size_t j = rule + 1; j < rend; j = subtree_end(t, j)) {
                const trace_ent *e = &t->e[j];
                if (e->kind == TR_CALL && e->done && e->no_rule == (by_default == 1) &&
                    p->types[e->result.type].kind == RT_BOOL && e->result.u.i)
                    next = j;
            }
        if (next == SIZE_MAX)
            break;
        want = t->e[next].result;
        call = next;
    }
    /* the rule that decided, then down what its guard and answer rested on to the rule whose
     * answer decided (a terrain's traits): each named, the last one's citations given */
    sb_printf(c, ", by rule %s", p->rules[t->e[rule].id].name);
    size_t cited = rule;
    for (int depth = 0; depth < LOS_CHAIN_MAX; depth++) {
        size_t under = rested_on(p, t, cited);
        if (under == SIZE_MAX)
            break;
        sb_printf(c, " through %s", p->rules[t->e[under].id].name);
        cited = under;
    }
    strbuf cites = { 0 };
    const bool *in_play = model_edition_modules(p, vm->x.edition);
    refusal_cites(p, in_play, t->e[cited].id, &cites);
    if (!cites.len)
        refusal_cites(p, in_play, t->e[rule].id, &cites);
    if (cites.len)
        sb_printf(c, " (%s)", cites.s);
    sb_free(&cites);
    char place[64];
    place_text(vm->sc, v, place, sizeof place);
    if (v->at_kind)
        sb_printf(c, " at %s", place);
}

bool los_verdict_of(hon_vm *vm, const char *from, const char *to, view_verdict *out)
{
    *out = (view_verdict){ 0 };
    hon_value fv, tv;
    end a, b;
    asking k;
    if (!vm->sc || view_place(vm, from, WHERE, &fv) != HON_OK ||
        view_place(vm, to, WHERE, &tv) != HON_OK || !end_of(vm, fv, &a) || !end_of(vm, tv, &b) ||
        !decide(vm, &a, &b, &k, false))
        return false;
    if (session_begin(vm, NULL, true) != HON_OK)
        return false;
    val v;
    bool ok = vm_call(&vm->x, false, k.id, k.args, k.nargs, &v) && vm->x.trace.len > 0 &&
              vm->x.trace.e[0].kind == TR_CALL;
    if (ok) {
        const val_env env = { vm->pg->res, vm->x.sc, NULL, NULL };
        strbuf c = { 0 }, word = { 0 };
        val_print(&env, v, &word);
        sb_printf(&c, "line of sight %s to %s: %s", a.name, b.name, word.s ? word.s : "?");
        read_decision(vm, &vm->x.trace, out, &c);
        char place[64];
        place_text(vm->sc, out, place, sizeof place);
        sb_printf(&word, " past %s", place);
        out->caption = sb_take(&c);
        out->past = out->at_kind ? sb_take(&word) : NULL;
        sb_free(&word);
        ok = out->caption && (!out->at_kind || out->past);
    }
    state_end(&vm->x);
    if (!ok)
        los_verdict_free(out);
    return ok;
}

void los_verdict_free(view_verdict *v)
{
    if (!v)
        return;
    mem_free(v->caption);
    mem_free(v->past);
    *v = (view_verdict){ 0 };
}

/* view_draw_in of the board, with the line's verdict when the rules ask one between its ends.
 * The ends are read first, once: a word that names no place is reported here and nothing is
 * drawn (los_verdict_of and view_draw_in would each report it again: issue 12, `svg OUT $ob $b`
 * said E213 twice). */
static hon_status los_draw(hon_vm *vm, FILE *out, const char *from, const char *to, bool svg,
                           const view_window *win)
{
    hon_value place;
    if (vm && vm->sc && from && to) {
        hon_status st = view_place(vm, from, "<draw>", &place);
        if (st == HON_OK)
            st = view_place(vm, to, "<draw>", &place);
        if (st != HON_OK)
            return st;
    }
    view_verdict v = { 0 };
    bool said = vm && vm->sc && from && to && los_verdict_of(vm, from, to, &v);
    hon_status st = view_draw_in(vm, out, from, to, svg, NULL, NULL, said ? &v : NULL, win);
    los_verdict_free(&v);
    return st;
}

hon_status hon_draw_board(hon_vm *vm, FILE *out, const char *line_from, const char *line_to)
{
    return los_draw(vm, out, line_from, line_to, false, NULL);
}

hon_status hon_draw_board_window(hon_vm *vm, FILE *out, const char *line_from, const char *line_to,
                                 const char *centre, int columns)
{
    view_window win = { centre, columns < 0 ? 0 : columns, NULL };
    return los_draw(vm, out, line_from, line_to, false, &win);
}

hon_status hon_board_svg(hon_vm *vm, FILE *out, const char *line_from, const char *line_to)
{
    return los_draw(vm, out, line_from, line_to, true, NULL);
}

hon_status hon_board_svg_window(hon_vm *vm, FILE *out, const char *line_from, const char *line_to,
                                const char *window)
{
    if (!window)
        return los_draw(vm, out, line_from, line_to, true, NULL);
    /* "P..Q": two corners; else one place, the centre */
    char a[96], z[96];
    const char *dots = strstr(window, "..");
    view_window win = { window, 0, NULL };
    if (dots) {
        snprintf(a, sizeof a, "%.*s", (int)(dots - window < 95 ? dots - window : 95), window);
        snprintf(z, sizeof z, "%s", dots + 2);
        win.centre = a;
        win.corner = z;
    }
    return los_draw(vm, out, line_from, line_to, true, &win);
}
