/* proc.c — the procedure driver (see proc.h): the event driver, the VM's driver for effects,
 * raises, choices, notes and dice lines, and the procedures driven from C (a walk, `next`).
 * Effects decide and describe, play.c applies and records: each checks its operands, skips a
 * change that changes nothing, writes its line with the rule's citations, asks the stepper,
 * applies it (play_*), then queues the events the rules hang on that moment.
 */
#include "proc.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fork.h"
#include "mem.h"
#include "refusal.h"

static bool raise_event(vm_ctx *x, uint32_t e, const val *args, uint32_t n);

/* The game of the running procedure. */
static proc_game *game_of(const vm_ctx *x)
{
    return x->driver_state;
}

/* ---- effects ---- */

/* Whether span s holds position at (same file, at's start within s). */
static bool span_holds(ast_loc s, ast_loc at)
{
    if (s.file != at.file || at.line < s.line || at.line > s.end_line)
        return false;
    return (at.line > s.line || at.col >= s.col) && (at.line < s.end_line || at.col <= s.end_col);
}

/* The innermost cite block (`cite "ID" { ... }`, an AST_ST_CITE) among the statements of
 * block b that holds position at, or NULL. */
static const ast_node *cite_block_at(const ast_node *b, ast_loc at)
{
    if (!b || b->kind != AST_BLOCK)
        return NULL;
    for (uint32_t i = 0; i < b->list.len; i++) {
        const ast_node *s = b->list.items[i];
        if (!s || !span_holds(s->loc, at))
            continue;
        switch (s->op) {
        case AST_ST_CITE: {
            const ast_node *in = cite_block_at(s->b, at);
            return in ? in : s;
        }
        case AST_ST_FOR: return cite_block_at(s->b, at);
        case AST_ST_IF: /* its then-block, else its else-block or else-if (an if statement) */
            for (const ast_node *e = s; e; e = e->c) {
                const ast_node *in = cite_block_at(e->b, at);
                if (in || !e->c || e->c->kind == AST_BLOCK)
                    return in ? in : cite_block_at(e->c, at);
            }
            return NULL;
        default: return NULL;
        }
    }
    return NULL;
}

/* The citations of a line the running rule (chunk ch) writes now: those of the innermost cite
 * block around the statement running (language.md §6.2), else all of the rule's; NULL for a
 * procedure's own chunk. */
static const ast_vec *line_cites(const vm_ctx *x, const chunk *ch)
{
    const res_program *p = x->p;
    if (!ch || ch->kind != CHUNK_RULE || ch->id >= p->nrules)
        return NULL;
    const ast_node *d = p->rules[ch->id].decl;
    const ast_node *blk = d ? cite_block_at(d->c, state_where(x)) : NULL;
    return blk ? &blk->cites : &d->cites;
}

/* The citations of that line: "   (A.1, B.2)", or nothing for a procedure's own chunk. */
static void cite_of(const vm_ctx *x, const chunk *ch, strbuf *b)
{
    const ast_vec *cites = line_cites(x, ch);
    if (!cites)
        return;
    /* those of books in play; all of them, said so, when none is (model.h) */
    const bool *in_play = model_edition_modules(x->p, x->edition);
    bool all = model_cites_none_in_play(x->p, in_play, cites);
    uint32_t shown = 0;
    for (uint32_t i = 0; i < cites->len; i++)
        if (all || model_cite_in_play(x->p, in_play, cites->items[i]))
            sb_printf(b, "%s%s", shown++ ? ", " : "   (",
                      model_cite_id(cites->items[i]) ? model_cite_id(cites->items[i]) : "?");
    if (all)
        sb_puts(b, "; " MODEL_NOT_IN_PLAY);
    if (shown)
        sb_puts(b, ")");
}

static void put_val(vm_ctx *x, val v, strbuf *b)
{
    const val_env env = { x->p, x->sc, NULL, NULL };
    val_print(&env, v, b);
}

static bool fail_effect(vm_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail_effect(vm_ctx *x, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return state_fail(x, E_EFFECT, "%s", msg);
}

/* What a play_* call that ran out of memory leaves: E209. */
static bool logged(vm_ctx *x, bool ok)
{
    return ok || state_fail(x, E_MEMORY, "out of memory (effect log)");
}

/* A square value as a board square; E217 off the board. */
static bool board_square(vm_ctx *x, val v, int *sq)
{
    *sq = scene_square(x->sc, v.u.i);
    if (*sq >= 0)
        return true;
    char t[32];
    scene_square_text(v.u.i, t, sizeof t);
    return state_fail(x, E_OFF_BOARD, "square %s is off the board", t);
}

/* A unit an effect may change: one of the board's (the counters of the rules are their
 * types, not pieces in play). Writes its name into *name. */
static bool unit_ok(vm_ctx *x, val v, strbuf *name)
{
    const scene *sc = game_of(x)->g.sc;
    if (v.u.i < 0 || v.u.i >= BOARD_MAX_UNITS || !unit_get(sc->units, (int32_t)v.u.i))
        return state_fail(x, E_INTERNAL, "an effect on a unit that does not exist");
    put_val(x, v, name);
    if (v.u.i < sc->first_unit)
        return fail_effect(x,
                           "%s is a counter of the rules, not a unit of the board: effects "
                           "change the board's units ($name)",
                           sb_str(name));
    return true;
}

/* Queues the event raised on moment m (if the rules declare one) with its arguments. */
static bool moment(vm_ctx *x, res_moment m, const val *args, uint32_t n)
{
    int32_t e = x->p->moments[m];
    return e < 0 || raise_event(x, (uint32_t)e, args, n);
}

/* Writes the effect's line (text + citation) to the output, after the stepper agreed. */
static bool announce(vm_ctx *x, const chunk *ch, strbuf *line)
{
    proc_game *gm = game_of(x);
    if (!gm->bare)
        cite_of(x, ch, line);
    if (line->oom)
        return state_fail(x, E_MEMORY, "out of memory (effect line)");
    if (gm->stepper && !gm->stepper(gm->ud, sb_str(line)))
        return state_fail(x, E_ABANDONED, "the procedure was abandoned before: %s", sb_str(line));
    sb_puts(&gm->out, sb_str(line));
    sb_putc(&gm->out, '\n');
    gm->lines++;
    return true;
}

/* Announces the line `text` (freed here). */
static bool announce_text(vm_ctx *x, const chunk *ch, strbuf *text)
{
    bool ok = announce(x, ch, text);
    sb_free(text);
    return ok;
}

/* The destroy moment: the unit, and the squares sq0 and sq1 (-1: none) it stood on when the
 * event takes them (RES_ON_DESTROY). */
static bool destroy_moment(vm_ctx *x, val who, int sq0, int sq1)
{
    int32_t e = x->p->moments[RES_ON_DESTROY];
    if (e < 0)
        return true;
    const res_query *ev = &x->p->queries[e];
    if (ev->nparams < 2)
        return raise_event(x, (uint32_t)e, &who, 1);
    size_t n = (sq0 >= 0) + (sq1 >= 0);
    vlist *where = state_alloc(x, sizeof *where + n * sizeof(val));
    if (!where)
        return false;
    where->len = 0;
    const scene *sc = game_of(x)->g.sc;
    for (int k = 0, q = sq0; k < 2; k++, q = sq1)
        if (q >= 0)
            where->items[where->len++] =
                (val){ .type = T_SQUARE, .u.i = scene_square_value(sc, q) };
    val a[2] = { who, { .type = ev->params[1].type, .u.list = where } };
    return raise_event(x, (uint32_t)e, a, 2);
}

/* Position effects: FX_MOVE, FX_DISEMBARK (to a square), FX_EMBARK, FX_DESTROY. */
static bool position_effect(vm_ctx *x, const chunk *ch, play_fx k, const val *args, uint32_t n,
                            strbuf *line)
{
    proc_game *gm = game_of(x);
    scene *sc = gm->g.sc;
    const board *b = sc->b;
    int u = (int)args[0].u.i;
    const unit *un = unit_get(sc->units, u);
    play_pos was = play_pos_of(b, u);
    int sq0 = -1, sq1 = -1, carrier = -1;
    if (k == FX_DESTROY && !was.present)
        return true; /* already off the board: nothing happens */
    if (k == FX_EMBARK) {
        carrier = (int)args[1].u.i;
        if (was.present && was.in == carrier)
            return true;
        if (carrier == u || !board_unit_present(b, carrier)) {
            strbuf tn = { 0 };
            put_val(x, args[1], &tn);
            bool ok = fail_effect(x, "cannot embark %s in %s: %s", sb_str(line), sb_str(&tn),
                                  carrier == u ? "a unit cannot carry itself"
                                               : "the carrier is not on the board");
            sb_free(&tn);
            return ok;
        }
    }
    if (k == FX_MOVE || k == FX_DISEMBARK) {
        if (!board_square(x, args[1], &sq0) || (n > 2 && !board_square(x, args[2], &sq1)))
            return false;
        if (k == FX_DISEMBARK && was.in < 0)
            return fail_effect(x, "cannot disembark %s: it is not embarked", sb_str(line));
        if (un && un->size == 2 && sq1 < 0) {
            /* keep the counter's orientation: its rear goes where it went before */
            int rear = -1;
            if (was.present && was.in < 0 && was.sq1 >= 0) {
                int fx, fy, rx, ry, nx, ny;
                geo_xy(sc->g, was.sq0, &fx, &fy);
                geo_xy(sc->g, was.sq1, &rx, &ry);
                geo_xy(sc->g, sq0, &nx, &ny);
                rear = geo_square(sc->g, nx + rx - fx, ny + ry - fy);
            }
            if (rear < 0)
                return fail_effect(x, "%s covers 2 squares: write `move UNIT to FRONT, REAR;`",
                                   sb_str(line));
            sq1 = rear;
        }
        if (un && un->size == 1 && sq1 >= 0)
            return fail_effect(x, "%s covers 1 square, not 2", sb_str(line));
        if (sq1 >= 0 && geo_side_between(sc->g, sq0, sq1) < 0)
            return fail_effect(x, "%s cannot stand on two squares that share no side",
                               sb_str(line));
        if (was.present && was.in < 0 && was.sq0 == sq0 && was.sq1 == sq1)
            return true; /* already there: no move, nothing entered */
    }
    /* the line */
    strbuf text = { 0 };
    switch (k) {
    case FX_DESTROY: sb_printf(&text, "destroy %s", sb_str(line)); break;
    case FX_EMBARK:
        sb_printf(&text, "embark %s in ", sb_str(line));
        put_val(x, args[1], &text);
        break;
    default: {
        char a[32], c[32];
        scene_square_text(scene_square_value(sc, sq0), a, sizeof a);
        sb_printf(&text, "%s %s to %s", play_fx_name(k), sb_str(line), a);
        if (sq1 >= 0) {
            scene_square_text(scene_square_value(sc, sq1), c, sizeof c);
            sb_printf(&text, ", %s", c);
        }
    }
    }
    if (!announce_text(x, ch, &text))
        return false;
    int was0 = -1, was1 = -1; /* where a destroyed unit stood, for the destroy moment */
    board_unit_squares(b, u, &was0, &was1);
    geo_status st = play_position(&gm->g, k, u, sq0, sq1, carrier);
    if (st == GEO_ENOMEM)
        return state_fail(x, E_MEMORY, "out of memory (board)");
    if (st != GEO_OK)
        return fail_effect(x, "the board refused to %s %s", play_fx_name(k), sb_str(line));
    if (k == FX_DESTROY)
        return destroy_moment(x, args[0], was0, was1);
    if (k == FX_MOVE || k == FX_DISEMBARK) {
        val a[2] = { args[0], { .type = T_SQUARE, .u.i = scene_square_value(sc, sq0) } };
        return moment(x, RES_ON_ENTER, a, 2);
    }
    return true;
}

/* Writes "VERB feature WORD where" (place or remove, at or near) and announces it. */
static bool announce_feature(vm_ctx *x, const chunk *ch, const char *verb, val feature,
                             const char *word, val where)
{
    strbuf text = { 0 };
    sb_puts(&text, verb);
    put_val(x, feature, &text);
    sb_puts(&text, word);
    put_val(x, where, &text);
    return announce_text(x, ch, &text);
}

/* Features: place or remove at a square or a side; remove an item near a square. */
static bool feature_effect(vm_ctx *x, const chunk *ch, play_fx k, const val *args)
{
    proc_game *gm = game_of(x);
    scene *sc = gm->g.sc;
    const board *b = sc->b;
    int id = (int)args[0].u.i, where_i = -1;
    board_place where = BOARD_AT_SQUARE;
    if (k == FX_PLACE_SIDE || k == FX_REMOVE_SIDE) {
        where = BOARD_AT_SIDE;
        if (args[1].u.i < 0 || args[1].u.i >= geo_side_count(sc->g))
            return fail_effect(x, "no such square side");
        where_i = (int)args[1].u.i;
    } else if (!board_square(x, args[1], &where_i)) {
        return false;
    }
    if (k == FX_REMOVE_NEAR) {
        int corners[4];
        size_t nc = 0;
        static const geo_dir around[4] = { GEO_NW, GEO_NE, GEO_SE, GEO_SW };
        if (sc->g->topo != GEO_SQUARE)
            return state_fail(x, E_TOPOLOGY, "interspaces exist on square boards only");
        for (int d = 0; d < 4; d++) {
            int is = geo_interspace_of(sc->g, where_i, around[d]);
            if (is >= 0 && board_has(b, BOARD_AT_INTERSPACE, is, id, NULL))
                corners[nc++] = is;
        }
        if (!nc)
            return true;
        bool ok = announce_feature(x, ch, "remove ", args[0], " near ", args[1]);
        for (size_t i = 0; i < nc && ok; i++)
            ok = logged(x, play_remove(&gm->g, k, corners[i], id, args[1].u.i));
        return ok;
    }
    bool place = k == FX_PLACE_SQUARE || k == FX_PLACE_SIDE;
    if (place == board_has(b, where, where_i, id, NULL))
        return true; /* already there, or nothing to remove */
    if (!announce_feature(x, ch, place ? "place " : "remove ", args[0], " at ", args[1]))
        return false;
    if (!place)
        return logged(x, play_remove(&gm->g, k, where_i, id, 0));
    geo_status st = play_place(&gm->g, k, where_i, id, 0, 0);
    if (st == GEO_ENOMEM)
        return state_fail(x, E_MEMORY, "out of memory (board)");
    return st == GEO_OK || fail_effect(x, "the board refused to place a feature");
}

/* The value a `place X at SQ value N` gives (args[2] when n says it is there, else 0) into *v;
 * E224 beyond an int. */
static bool placed_value(vm_ctx *x, const val *args, uint32_t n, int *v)
{
    *v = 0;
    if (n < 3)
        return true;
    if (args[2].u.i < INT_MIN || args[2].u.i > INT_MAX)
        return fail_effect(x, "a placed value must fit in an int, not %" PRId64, args[2].u.i);
    *v = (int)args[2].u.i;
    return true;
}

/* Announces "place WHAT at SQ [value N]": the placed terrain or item, its value when given. */
static bool announce_placed(vm_ctx *x, const chunk *ch, const val *args, uint32_t n)
{
    strbuf text = { 0 };
    sb_puts(&text, "place ");
    put_val(x, args[0], &text);
    sb_puts(&text, " at ");
    put_val(x, args[1], &text);
    if (n >= 3)
        sb_printf(&text, " value %" PRId64, args[2].u.i);
    return announce_text(x, ch, &text);
}

/* FX_PLACE_TERRAIN: square args[1] becomes a new element of terrain args[0], leaving the one
 * it was in (open ground is an element of the board model too: board.md §4; whether the
 * square may take it is the rules' question, asked before), named TERRAIN@SQUARE as a
 * scenario names its unnamed elements, its value args[2] (0 without). */
static bool terrain_effect(vm_ctx *x, const chunk *ch, const val *args, uint32_t n)
{
    proc_game *gm = game_of(x);
    int sq = -1, value = 0;
    if (!board_square(x, args[1], &sq) || !placed_value(x, args, n, &value))
        return false;
    strbuf name = { 0 };
    put_val(x, args[0], &name);
    sb_puts(&name, "@");
    put_val(x, args[1], &name);
    if (!name.s) {
        sb_free(&name);
        return state_fail(x, E_MEMORY, "out of memory (board)");
    }
    geo_status st = announce_placed(x, ch, args, n)
                        ? play_new_element(&gm->g, sq, (int)args[0].u.i, name.s, value)
                        : GEO_EINVAL;
    sb_free(&name);
    if (st == GEO_ENOMEM)
        return state_fail(x, E_MEMORY, "out of memory (board)");
    return st == GEO_OK;
}

/* FX_PLACE_INTERSPACE: item args[0], its value args[2] (0 without), on the NW corner of square
 * args[1], the interspace a scenario's `interspace SQ` names (board.md §4); nothing when the
 * same item with the same value is there already. */
static bool interspace_effect(vm_ctx *x, const chunk *ch, const val *args, uint32_t n)
{
    proc_game *gm = game_of(x);
    scene *sc = gm->g.sc;
    int sq = -1, value = 0;
    if (!board_square(x, args[1], &sq) || !placed_value(x, args, n, &value))
        return false;
    if (sc->g->topo != GEO_SQUARE)
        return state_fail(x, E_TOPOLOGY, "interspaces exist on square boards only");
    int is = geo_interspace_of(sc->g, sq, GEO_NW);
    board_feature f = { 0 };
    if (board_has(sc->b, BOARD_AT_INTERSPACE, is, (int)args[0].u.i, &f))
        return f.value == value ||
               fail_effect(x, "the item is on that interspace already with another value: "
                              "remove it first");
    if (!announce_placed(x, ch, args, n))
        return false;
    geo_status st =
        play_place(&gm->g, FX_PLACE_INTERSPACE, is, (int)args[0].u.i, value, args[1].u.i);
    if (st == GEO_ENOMEM)
        return state_fail(x, E_MEMORY, "out of memory (board)");
    return st == GEO_OK || fail_effect(x, "the board refused to place an interspace item");
}

/* FX_REMOVE_ELEMENT: square args[1] leaves element args[0]; nothing when it is not in it. */
static bool element_effect(vm_ctx *x, const chunk *ch, const val *args)
{
    proc_game *gm = game_of(x);
    int sq = -1;
    if (!board_square(x, args[1], &sq))
        return false;
    if (board_element_at(gm->g.sc->b, sq) != args[0].u.i)
        return true; /* not in that element: nothing to remove */
    return announce_feature(x, ch, "remove ", args[0], " at ", args[1]) &&
           logged(x, play_leave_element(&gm->g, sq));
}

/* The phase a new turn starts with: the first declared without `once` (a `once` phase, the
 * game's set-up, is played before turn 1's other phases only; language.md §6.5). */
static int32_t turn_first_phase(const res_enum *phases)
{
    for (uint32_t i = 0; i < phases->len; i++)
        if (!phases->members[i].once)
            return (int32_t)i;
    return 0;
}

/* FX_CLOCK: the clock moves to the next phase (after the last one, the first of the next
 * turn that is not a `once` phase). */
static bool clock_effect(vm_ctx *x, const chunk *ch)
{
    const res_program *p = x->p;
    play *g = &game_of(x)->g;
    size_t nphases = p->enums[E_PHASE].len;
    if (g->phase < 0 || nphases == 0)
        return state_fail(x, E_NO_PHASE,
                          "no phase is declared (`phase NAME;` declares the "
                          "phases of a turn, in order)");
    bool new_turn = (size_t)g->phase + 1 >= nphases;
    int64_t turn = new_turn ? g->turn + 1 : g->turn;
    int32_t phase = new_turn ? turn_first_phase(&p->enums[E_PHASE]) : g->phase + 1;
    strbuf text = { 0 };
    sb_printf(&text, "clock: turn %" PRId64 ", %s phase", turn,
              p->enums[E_PHASE].members[phase].name);
    return announce_text(x, ch, &text) && logged(x, play_clock(g, turn, phase));
}

/* Markers: FX_GIVE, FX_TAKE (count of them, never below none), FX_TAKE_ALL, and the same on a
 * terrain element (FX_GIVE_ELEMENT...: no moment is raised, the moments pass a unit). */
static bool marker_effect(vm_ctx *x, const chunk *ch, play_fx k, const val *args, strbuf *line)
{
    proc_game *gm = game_of(x);
    int64_t u = args[0].u.i, m = args[1].u.i;
    bool elem = k == FX_GIVE_ELEMENT || k == FX_TAKE_ELEMENT || k == FX_TAKE_ALL_ELEMENT;
    if (elem && (u < 0 || u >= board_element_count(gm->g.sc->b)))
        return state_fail(x, E_INTERNAL, "markers on an element that does not exist");
    if (elem)
        put_val(x, args[0], line);
    int64_t have = play_marker_count(gm->g.sc, k, u, m);
    bool all = k == FX_TAKE_ALL || k == FX_TAKE_ALL_ELEMENT;
    bool give = k == FX_GIVE || k == FX_GIVE_ELEMENT;
    int64_t count = all ? have : args[2].u.i;
    play_fx verb = give ? FX_GIVE : FX_TAKE; /* `take all` writes its line as a take */
    if (count < 0)
        return fail_effect(x, "cannot %s %" PRId64 " markers", play_fx_name(verb), count);
    if (!give && count > have)
        count = have; /* never below zero */
    if (give && count > (elem ? INT32_MAX : (int64_t)UINT32_MAX) - have)
        return fail_effect(x, "too many markers");
    if (count == 0)
        return true;
    strbuf text = { 0 };
    sb_printf(&text, "%s %s ", play_fx_name(verb), sb_str(line));
    put_val(x, args[1], &text);
    if (count > 1)
        sb_printf(&text, " %" PRId64, count);
    bool ok = announce_text(x, ch, &text) &&
              logged(x, play_markers(&gm->g, k, u, m, give ? have + count : have - count));
    for (int64_t i = 0; ok && !elem && i < count; i++)
        ok = moment(x, give ? RES_ON_GIVE : RES_ON_TAKE, args, 2);
    return ok;
}

/* Faces: FX_FLIP_UNIT, FX_FLIP_ELEMENT. */
static bool flip_effect(vm_ctx *x, const chunk *ch, play_fx k, const val *args)
{
    proc_game *gm = game_of(x);
    const scene *sc = gm->g.sc;
    int64_t t = args[0].u.i, face = args[1].u.i;
    const int32_t *faces = k == FX_FLIP_UNIT ? sc->unit_faces : sc->element_faces;
    size_t nf = k == FX_FLIP_UNIT ? sc->nunit_faces : sc->nelement_faces;
    if (t < 0 || (size_t)t >= nf)
        return state_fail(x, E_INTERNAL, "flip of something that does not exist");
    if (faces[t] == face)
        return true;
    strbuf text = { 0 };
    sb_puts(&text, "flip ");
    put_val(x, args[0], &text);
    sb_puts(&text, " to ");
    put_val(x, args[1], &text);
    return announce_text(x, ch, &text) && logged(x, play_flip(&gm->g, k, t, (int32_t)face));
}

/* FX_SET: the unit's value slot `slot` becomes args[1]. */
static bool set_effect(vm_ctx *x, const chunk *ch, const val *args, uint32_t slot, strbuf *line)
{
    proc_game *gm = game_of(x);
    int64_t old = 0, v = args[1].u.i;
    bool had = unit_get_value(gm->g.sc->units, (int32_t)args[0].u.i, slot, &old);
    if (had && old == v)
        return true;
    strbuf text = { 0 };
    sb_printf(&text, "set %s.%s = %" PRId64, sb_str(line),
              slot < x->p->nslots ? x->p->slots[slot].name : "?", v);
    if (had)
        sb_printf(&text, " (was %" PRId64 ")", old);
    return announce_text(x, ch, &text) && logged(x, play_set_value(&gm->g, args[0].u.i, slot, v));
}

/* vm_driver.effect: applies effect `kind` to its operands through the effect log. */
static bool effect(vm_ctx *x, const chunk *ch, uint32_t kind, const val *args, uint32_t n,
                   uint32_t extra)
{
    proc_game *gm = game_of(x);
    if (kind == FX_CLOCK)
        return clock_effect(x, ch);
    if (!gm->g.sc || gm->g.sc != x->sc)
        return state_fail(x, E_NO_BOARD,
                          "no board is loaded: effects change the units and "
                          "the board of a scenario (load one first)");
    strbuf line = { 0 };
    bool ok;
    play_fx k = (play_fx)kind;
    if (play_fx_on_unit(k) && !unit_ok(x, args[0], &line)) {
        sb_free(&line);
        return false;
    }
    switch (k) {
    case FX_GIVE:
    case FX_TAKE:
    case FX_TAKE_ALL:
    case FX_GIVE_ELEMENT:
    case FX_TAKE_ELEMENT:
    case FX_TAKE_ALL_ELEMENT: ok = marker_effect(x, ch, k, args, &line); break;
    case FX_FLIP_UNIT:
    case FX_FLIP_ELEMENT: ok = flip_effect(x, ch, k, args); break;
    case FX_SET: ok = set_effect(x, ch, args, extra, &line); break;
    case FX_DESTROY:
    case FX_MOVE:
    case FX_EMBARK:
    case FX_DISEMBARK: ok = position_effect(x, ch, k, args, n, &line); break;
    case FX_PLACE_SQUARE:
    case FX_PLACE_SIDE:
    case FX_REMOVE_SQUARE:
    case FX_REMOVE_SIDE:
    case FX_REMOVE_NEAR: ok = feature_effect(x, ch, k, args); break;
    case FX_REMOVE_ELEMENT: ok = element_effect(x, ch, args); break;
    case FX_PLACE_TERRAIN: ok = terrain_effect(x, ch, args, n); break;
    case FX_PLACE_INTERSPACE: ok = interspace_effect(x, ch, args, n); break;
    default: ok = state_fail(x, E_INTERNAL, "unknown effect %" PRIu32, kind);
    }
    sb_free(&line);
    return ok;
}

/* ---- raises, notes, dice ---- */

/* vm_driver.raise: queues event e with its n arguments (copied into the arena). */
static bool raise_event(vm_ctx *x, uint32_t e, const val *args, uint32_t n)
{
    proc_game *gm = game_of(x);
    val *copy = n ? state_alloc(x, n * sizeof *copy) : NULL;
    if (n && !copy)
        return false;
    if (n)
        memcpy(copy, args, n * sizeof *copy);
    if (!MEM_GROW(gm->queue, gm->qlen, gm->qcap))
        return state_fail(x, E_MEMORY, "out of memory (event queue)");
    /* raised by the running rule's statement; from C (a walk's step), where the running
     * event was raised */
    ast_loc at = state_where(x);
    gm->queue[gm->qlen++] = (proc_event){ e, copy, n, at.line ? at : gm->raised_at };
    return true;
}

/* Writes a line of rule chunk ch (its citations appended) to the procedure's output. */
static void put_line(vm_ctx *x, const chunk *ch, strbuf *line)
{
    proc_game *gm = game_of(x);
    cite_of(x, ch, line);
    sb_puts(&gm->out, sb_str(line));
    sb_putc(&gm->out, '\n');
    sb_free(line);
}

/* vm_driver.note: a `note` statement's line. */
static void note(vm_ctx *x, const chunk *ch, const char *text)
{
    if (game_of(x)->bare)
        return; /* odds: an outcome is its effects alone */
    strbuf line = { 0 };
    sb_printf(&line, "note: %s", text);
    put_line(x, ch, &line);
}

/* Appends the roll's JSON object to the game's rolls: {"dice": N, "faces": [...], "in":
 * "rule q.r", "file": PATH, "line": L, "col": C, "cites": [...]} (the position of the `roll`,
 * null outside a loaded file; cites empty outside a rule). */
static void roll_json(vm_ctx *x, const chunk *ch, const val *faces, size_t n)
{
    strbuf *b = &game_of(x)->rolls;
    ast_loc at = state_where(x);
    const ast_file *f = at.line ? prog_file(x->pg, at.file) : NULL;
    sb_printf(b, "%s{\"dice\": %zu, \"faces\": [", b->len ? ", " : "", n);
    for (size_t i = 0; i < n; i++)
        sb_printf(b, "%s%" PRId64, i ? ", " : "", faces[i].u.i);
    sb_puts(b, "], \"in\": ");
    sb_json_str(b, ch && ch->name ? ch->name : "");
    sb_puts(b, ", \"file\": ");
    if (f) {
        sb_json_str(b, prog_file_path(x->pg, at.file));
        sb_printf(b, ", \"line\": %" PRIu32 ", \"col\": %" PRIu32, at.line, at.col);
    } else {
        sb_puts(b, "null, \"line\": null, \"col\": null");
    }
    sb_puts(b, ", \"cites\": [");
    const ast_vec *cites = line_cites(x, ch);
    if (cites) {
        for (uint32_t i = 0; i < cites->len; i++) {
            sb_puts(b, i ? ", " : "");
            sb_json_str(b, model_cite_id(cites->items[i]) ? model_cite_id(cites->items[i]) : "?");
        }
    }
    sb_puts(b, "]}");
}

/* vm_driver.dice: the dice rule chunk ch just rolled, as a line `roll d6: 4` (one die, many =
 * false) or `roll 3 d6: [1, 4, 4]` (the n faces, ascending; past 48 faces their counts: `roll
 * 100 d6: 17 ones, 15 twos, ...`) with the rule's citations, and as a JSON object in the
 * game's rolls (roll_json: the VM saved the pc first); nothing when bare (odds). */
static void dice(vm_ctx *x, const chunk *ch, const val *faces, size_t n, bool many)
{
    if (game_of(x)->bare)
        return; /* odds: an outcome is its effects alone */
    strbuf line = { 0 };
    if (!many) {
        sb_printf(&line, "roll d6: %" PRId64, n ? faces[0].u.i : 0);
    } else if (n <= 48) {
        sb_printf(&line, "roll %zu d6: [", n);
        for (size_t i = 0; i < n; i++)
            sb_printf(&line, "%s%" PRId64, i ? ", " : "", faces[i].u.i);
        sb_putc(&line, ']');
    } else {
        /* a long roll is said by its counts, so a line stays short: "170 ones, 160 twos..." */
        static const char *const names[] = { "ones", "twos", "threes", "fours", "fives", "sixes" };
        size_t count[6] = { 0 };
        for (size_t i = 0; i < n; i++)
            if (faces[i].u.i >= 1 && faces[i].u.i <= 6)
                count[faces[i].u.i - 1]++;
        sb_printf(&line, "roll %zu d6:", n);
        for (int f = 0; f < 6; f++)
            sb_printf(&line, "%s %zu %s", f ? "," : "", count[f], names[f]);
    }
    put_line(x, ch, &line);
    roll_json(x, ch, faces, n);
}

/* ---- choices ---- */

/* Writes the options' text into a new array in the arena (for the chooser and for messages),
 * and all of them, joined by ", ", into *all. NULL (E209) when the arena is exhausted. */
static char **option_texts(vm_ctx *x, const val *opts, size_t n, strbuf *all)
{
    char **texts = state_alloc(x, n * sizeof *texts);
    if (!texts)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        strbuf t = { .limit = 256 };
        put_val(x, opts[i], &t);
        texts[i] = state_alloc(x, t.len + 1);
        if (!texts[i]) {
            sb_free(&t);
            return NULL;
        }
        memcpy(texts[i], sb_str(&t), t.len + 1);
        sb_printf(all, "%s%s", i ? ", " : "", texts[i]);
        sb_free(&t);
    }
    return texts;
}

/* The option a test's script names next; E221 when the script ran out or names none. */
static bool scripted_choice(vm_ctx *x, const val *opts, size_t n, const char *question, strbuf *all,
                            val *out)
{
    proc_game *gm = game_of(x);
    if (gm->script_pos >= gm->nscript)
        return state_fail(x, E_BAD_CHOICE, "the test's choices ran out at \"%s\" (legal are %s)",
                          question, sb_str(all));
    val want = gm->script[gm->script_pos++];
    for (size_t i = 0; i < n; i++)
        if (opts[i].type == want.type && val_equal(x->p, opts[i], want, NULL)) {
            *out = opts[i];
            return true;
        }
    strbuf w = { .limit = 256 };
    put_val(x, want, &w);
    state_fail(x, E_BAD_CHOICE, "illegal choice %s for \"%s\": legal are %s", sb_str(&w), question,
               sb_str(all));
    sb_free(&w);
    return false;
}

/* The option the chooser takes: asked again (with the reason in front) after an index out of
 * range, PROC_CHOOSER_TRIES times in all (then E221); -1 abandons (E225). */
static bool chosen(vm_ctx *x, const val *opts, char **texts, size_t n, const char *side,
                   const char *question, strbuf *all, val *out)
{
    proc_game *gm = game_of(x);
    int idx = -2;
    if (gm->before_choice && gm->out.len > gm->shown) { /* what led here, before the question */
        gm->before_choice(gm->ud, sb_str(&gm->out) + gm->shown);
        gm->shown = gm->out.len;
    }
    strbuf qq = { 0 };
    sb_puts(&qq, question);
    for (int tries = 0; tries < PROC_CHOOSER_TRIES; tries++) {
        idx = gm->chooser(gm->ud, sb_str(&qq), side, (const char *const *)texts, n);
        if (idx == -1 || (idx >= 0 && (size_t)idx < n))
            break;
        sb_free(&qq);
        sb_printf(&qq, "illegal choice %d: choose one of the %zu options. %s", idx + 1, n,
                  question);
    }
    sb_free(&qq);
    if (idx == -1)
        return state_fail(x, E_ABANDONED, "the procedure was abandoned at \"%s\"", question);
    if (idx < 0 || (size_t)idx >= n)
        return state_fail(x, E_BAD_CHOICE, "illegal choice for \"%s\": legal are %s", question,
                          sb_str(all));
    *out = opts[idx];
    return true;
}

/* vm_driver.choose: the member of `from` (a list or a set) the chooser of `side` picks for
 * question q: a scripted answer, the chooser's, or the first; E220, E221, E225. */
static bool choose(vm_ctx *x, const chunk *ch, val from, val side, const char *q, val *out)
{
    const res_program *p = x->p;
    proc_game *gm = game_of(x);
    (void)ch;
    /* the options, as values */
    size_t n = 0;
    val *opts = NULL;
    if (p->types[from.type].kind == RT_SET) {
        n = (size_t)__builtin_popcountll(from.u.bits);
        opts = state_alloc(x, (n ? n : 1) * sizeof *opts);
        if (!opts)
            return false;
        size_t k = 0;
        for (int m = 0; m < 64; m++)
            if (from.u.bits >> m & 1)
                opts[k++] = (val){ .type = p->types[from.type].arg, .u.i = m };
    } else if (from.u.list) {
        n = from.u.list->len;
        opts = from.u.list->items;
    }
    const char *question = q ? q : "choose one";
    if (n == 0)
        return state_fail(x, E_NO_CHOICE,
                          "no legal choice for \"%s\": the list of options is empty", question);
    const char *side_name = side.u.i >= 0 && (size_t)side.u.i < p->enums[E_SIDE].len
                                ? p->enums[E_SIDE].members[side.u.i].name
                                : "";
    gm->choices_made++;
    if (gm->first_choice || (!gm->script_on && !gm->chooser)) {
        *out = opts[0];
        return true;
    }
    strbuf all = { 0 };
    char **texts = option_texts(x, opts, n, &all);
    bool ok = texts && (gm->script_on ? scripted_choice(x, opts, n, question, &all, out)
                                      : chosen(x, opts, texts, n, side_name, question, &all, out));
    sb_free(&all);
    return ok;
}

static const vm_driver driver = { effect, raise_event, choose, note, dice, refusal_fail };

/* ---- the event driver (language.md §6.2) ---- */

/* Odds by forking: a roll of the procedure's own frames stopped it (VM_SUSPENDED, vm_fork).
 * Each function of the driver it stopped in adds, as it returns, where it was (level l, the
 * innermost first) to the fork being made, which then tells proc_resume how to go on. Returns
 * false (the run stopped); E209 when the level cannot be kept. */
static bool suspended_at(vm_ctx *x, proc_level l)
{
    proc_fork *fk = game_of(x)->fork;
    if (x->err.code != VM_SUSPENDED || !fk)
        return false;
    if (!MEM_GROW(fk->levels, fk->nlevels, fk->levels_cap)) {
        x->err.code = E_NONE;
        return state_fail(x, E_MEMORY, "out of memory (forking at a roll)");
    }
    fk->levels[fk->nlevels++] = l;
    return false;
}

static bool run_event_at(vm_ctx *x, uint32_t e, const val *args, uint32_t nargs,
                         const proc_fork *rf, size_t k);

/* Runs the events queued from index `from` on, depth first, then forgets them. rf (else NULL):
 * goes on from the fork rf, whose level k is this run of the queue (proc_resume). */
static bool run_queue_at(vm_ctx *x, size_t from, const proc_fork *rf, size_t k)
{
    proc_game *gm = game_of(x);
    ast_loc outer = gm->raised_at;
    for (size_t i = rf ? rf->levels[k].index : from; i < gm->qlen; i++) {
        proc_event ev = gm->queue[i];
        gm->raised_at = ev.at;
        bool ok = run_event_at(x, ev.event, ev.args, ev.nargs, rf, rf ? k - 1 : 0);
        rf = NULL;
        gm->raised_at = outer;
        if (!ok)
            return suspended_at(x, (proc_level){ .kind = PROC_AT_QUEUE, .index = i, .from = from });
    }
    gm->qlen = from;
    return true;
}

static bool run_queue(vm_ctx *x, size_t from)
{
    return run_queue_at(x, from, NULL, 0);
}

/* Runs the rules of event e with its nargs arguments, in order, each rule's raises right
 * after its block; E222 past the depth limit. rf (else NULL): goes on from the fork rf, whose
 * level k is this event (proc_resume; never traced). */
static bool run_event_at(vm_ctx *x, uint32_t e, const val *args, uint32_t nargs,
                         const proc_fork *rf, size_t k)
{
    const res_program *p = x->p;
    proc_game *gm = game_of(x);
    /* An event starts at the depth of the events around it (their rules' calls have returned
     * when it runs). Events may nest half the depth limit: the other half is left to the
     * calls of their rules, so a cascade that does not end stops here, at the statement that
     * raised the event (gm->raised_at), not at some rule's call deep inside it (E206). */
    unsigned cascade = x->max_depth / 2 ? x->max_depth / 2 : 1;
    if (x->depth >= cascade) {
        if (!x->err.code) {
            state_fail(x, E_CASCADE,
                       "events raise events more than %u deep (at event %s): "
                       "a cascade that does not end?",
                       cascade, p->queries[e].name);
            if (gm->raised_at.line)
                x->err.loc = gm->raised_at;
        }
        return false;
    }
    if (!prog_ready(x->pg, e)) /* a lazy program's rules, compiled on the first raise */
        return state_fail(x, E_MEMORY, "out of memory compiling the rules of event %s",
                          p->queries[e].name);
    x->depth++;
    /* Traced (`why do`): the event, then each rule checked, with the lines its block wrote;
     * the events a rule's block raised run inside its entry, so they nest under it. */
    size_t node = SIZE_MAX;
    bool fired = false;
    if (x->tracing)
        node = trace_open(&x->trace, &x->arena, TR_EVENT, e, args, nargs);
    const res_ruleset *rs = model_rules_of(p, x->edition, e);
    for (size_t i = rf ? rf->levels[k].index : 0; i < rs->len; i++) {
        size_t mark = rf ? rf->levels[k].from : gm->qlen;
        size_t tmark = x->trace.len, rn = SIZE_MAX;
        size_t out0 = gm->out.len, lines0 = gm->lines;
        const chunk *ch = x->rules[rs->rules[i]];
        if (x->tracing) { /* the explained chunk, compiled on its first traced run */
            ch = ch ? ch : prog_explained(x->pg, rs->rules[i]);
            rn = trace_open_rule(&x->trace, ch);
        }
        val v;
        bool answered = false, ok = true;
        /* resumed: in the rule's chunk (at its roll), or in the events its block raised */
        const proc_fork *in = rf && !rf->levels[k].in_vm ? rf : NULL;
        if (rf && !in)
            ok = vm_resume(x, &rf->vm, &v, &answered);
        else if (!rf)
            ok = vm_run(x, ch, args, nargs, &v, &answered);
        rf = NULL;
        if (ok && x->tracing && !answered)
            trace_unfired(&x->trace, rn, tmark);
        else if (ok && x->tracing)
            trace_output(&x->trace, &x->arena, rn, gm->out.s ? gm->out.s + out0 : NULL,
                         gm->out.len - out0, (uint32_t)(gm->lines - lines0));
        fired |= ok && answered;
        if (!ok || !run_queue_at(x, mark, in, in ? k - 1 : 0)) {
            suspended_at(x, (proc_level){ PROC_AT_EVENT, !ok, i, mark });
            goto fail;
        }
        if (x->tracing && answered)
            trace_close(&x->trace, rn, (val){ .type = T_NONE });
    }
    if (x->tracing && !fired && node < x->trace.len)
        x->trace.e[node].no_rule = true;
    if (x->tracing)
        trace_close(&x->trace, node, (val){ .type = T_NONE });
    x->depth--;
    return true;
fail:
    x->depth--;
    return false;
}

static bool run_event(vm_ctx *x, uint32_t e, const val *args, uint32_t nargs)
{
    return run_event_at(x, e, args, nargs, NULL, 0);
}

/* ---- procedures ---- */

void proc_init(proc_game *gm, scene *sc, int32_t nphases)
{
    proc_free(gm);
    play_init(&gm->g, sc, nphases);
}

void proc_free(proc_game *gm)
{
    if (!gm)
        return;
    play_free(&gm->g);
    mem_free(gm->queue);
    sb_free(&gm->out);
    sb_free(&gm->rolls);
    *gm = (proc_game){ .g = { .turn = 1, .phase = -1 } };
}

/* Puts back what fork `from` saved and the rest of a run may have changed: the board (the
 * effects since), the arena (the values made since), the queue and the output. */
static bool restore_fork(vm_ctx *x, proc_game *gm, const proc_fork *from)
{
    play_revert(&gm->g, from->play_mark);
    arena_rewind(&x->arena, from->arena);
    x->line_list = from->line_list; /* a line traced since was in the arena */
    x->line_a = from->line_a;
    x->line_b = from->line_b;
    x->err.code = E_NONE;
    gm->qlen = 0;
    for (size_t i = 0; i < from->qlen; i++)
        if (!MEM_GROW(gm->queue, gm->qlen, gm->qcap))
            return state_fail(x, E_MEMORY, "out of memory (event queue)");
        else
            gm->queue[gm->qlen++] = from->queue[i];
    if (gm->out.len > from->out_len) {
        gm->out.len = from->out_len;
        gm->out.s[from->out_len] = '\0';
    }
    gm->lines = from->lines;
    return true;
}

/* After a run stopped at a roll: keeps in gm->fork what restore_fork puts back; false (E209,
 * in place of VM_SUSPENDED) when memory runs out. */
static bool keep_fork(vm_ctx *x, proc_game *gm)
{
    proc_fork *fk = gm->fork;
    fk->qlen = 0;
    for (size_t i = 0; i < gm->qlen; i++)
        if (!MEM_GROW(fk->queue, fk->qlen, fk->qcap)) {
            x->err.code = E_NONE;
            return state_fail(x, E_MEMORY, "out of memory (forking at a roll)");
        } else {
            fk->queue[fk->qlen++] = gm->queue[i];
        }
    fk->out_len = gm->out.len;
    fk->lines = gm->lines;
    fk->play_mark = gm->g.len;
    fk->arena = arena_mark_of(&x->arena);
    fk->line_list = x->line_list;
    fk->line_a = x->line_a;
    fk->line_b = x->line_b;
    return true;
}

/* Runs body as one procedure on gm: its output emptied first; all or nothing. from (else
 * NULL): goes on from that fork, the output and the queue as they were there. A run stopped
 * at a roll (VM_SUSPENDED, gm->fork) keeps its effects and fills gm->fork. */
static bool as_procedure(vm_ctx *x, proc_game *gm, bool (*body)(vm_ctx *, void *), void *ud,
                         const proc_fork *from)
{
    const play *clock = x->game;
    x->game = &gm->g;
    x->driver = &driver;
    x->driver_state = gm;
    gm->raised_at = (ast_loc){ 0 };
    bool ok;
    size_t mark;
    if (from) {
        ok = restore_fork(x, gm, from);
        mark = gm->g.len;
    } else {
        mark = gm->g.len;
        ok = true;
        gm->qlen = 0;
        sb_free(&gm->out);
        sb_free(&gm->rolls);
        gm->lines = 0;
        gm->shown = 0;
    }
    ok = ok && body(x, ud);
    if (!ok && x->err.code == VM_SUSPENDED && gm->fork)
        keep_fork(x, gm); /* stopped at a roll: the effects stay */
    x->driver = NULL;
    x->driver_state = NULL;
    x->game = clock;
    gm->qlen = 0;
    if (!ok && x->err.code != VM_SUSPENDED)
        play_revert(&gm->g, mark);
    return ok;
}

static bool chunk_body(vm_ctx *x, void *ud)
{
    val v;
    if (!vm_eval(x, ud, &v))
        return suspended_at(x, (proc_level){ .kind = PROC_AT_BODY, .in_vm = true });
    return run_queue(x, 0);
}

/* Goes on from fork ud (proc_resume): the outermost level first. */
static bool resume_body(vm_ctx *x, void *ud)
{
    const proc_fork *rf = ud;
    size_t k = rf->nlevels - 1;
    x->sp = 0;
    x->nframes = 0;
    x->depth = 0;
    if (rf->levels[k].kind == PROC_AT_QUEUE)
        return run_queue_at(x, rf->levels[k].from, rf, k);
    val v;
    bool answered;
    if (!vm_resume(x, &rf->vm, &v, &answered))
        return suspended_at(x, (proc_level){ .kind = PROC_AT_BODY, .in_vm = true });
    return run_queue(x, 0);
}

bool proc_run(vm_ctx *x, proc_game *gm, const chunk *ch)
{
    return as_procedure(x, gm, chunk_body, (void *)ch, NULL);
}

/* Runs f (a procedure's start: ch; else from a fork: from) forking into `at`. */
static bool forking(vm_ctx *x, proc_game *gm, const chunk *ch, const proc_fork *from, proc_fork *at)
{
    if (x->tracing)
        return state_fail(x, E_INTERNAL, "a traced procedure cannot fork");
    at->nlevels = 0;
    gm->fork = at;
    x->fork = &at->vm;
    state_inline_update(x);
    x->fork_resumed = false;
    bool ok = from ? from->nlevels > 0 && as_procedure(x, gm, resume_body, (void *)from, from)
                   : as_procedure(x, gm, chunk_body, (void *)ch, NULL);
    x->fork = NULL;
    state_inline_update(x);
    gm->fork = NULL;
    return ok;
}

bool proc_run_fork(vm_ctx *x, proc_game *gm, const chunk *ch, proc_fork *at)
{
    return forking(x, gm, ch, NULL, at);
}

bool proc_resume(vm_ctx *x, proc_game *gm, const proc_fork *from, proc_fork *at)
{
    return forking(x, gm, NULL, from, at);
}

void proc_fork_free(proc_fork *fk)
{
    if (!fk)
        return;
    fork_free(&fk->vm);
    mem_free(fk->levels);
    mem_free(fk->queue);
    *fk = (proc_fork){ 0 };
}

typedef struct walk {
    int32_t unit;
    const int64_t *squares;
    size_t n;
    size_t done;
} walk;

/* Runs event e (on a moment taking a unit and a list of squares) with walk w's unit and its
 * first n squares. */
static bool raise_walk(vm_ctx *x, uint32_t e, const walk *w, size_t n)
{
    vlist *path = state_alloc(x, sizeof *path + n * sizeof(val));
    if (!path)
        return false;
    path->len = n;
    for (size_t i = 0; i < n; i++)
        path->items[i] = (val){ .type = T_SQUARE, .u.i = w->squares[i] };
    const res_query *ev = &x->p->queries[e];
    val a[2] = { { .type = T_UNIT, .u.i = w->unit },
                 { .type = ev->nparams > 1 ? ev->params[1].type : T_NONE, .u.list = path } };
    return run_event(x, e, a, 2);
}

static bool walk_body(vm_ctx *x, void *ud)
{
    walk *w = ud;
    const scene *sc = game_of(x)->g.sc;
    const board *b = sc->b;
    for (size_t i = 0; i < w->n; i++) {
        val a[2] = { { .type = T_UNIT, .u.i = w->unit },
                     { .type = T_SQUARE, .u.i = w->squares[i] } };
        if (!effect(x, NULL, FX_MOVE, a, 2, 0) || !run_queue(x, 0))
            return false;
        w->done = i + 1;
        /* a rule took the unit off its path (destroyed, drowned, pushed away): the walk ends
         * there */
        int s0, s1;
        if (!board_unit_squares(b, w->unit, &s0, &s1) || board_unit_embarked_in(b, w->unit) >= 0 ||
            scene_square_value(sc, s0) != w->squares[i])
            break;
    }
    int32_t e = x->p->moments[RES_ON_WALK_END];
    return e < 0 || !board_unit_present(b, w->unit) || raise_walk(x, (uint32_t)e, w, w->done);
}

/* The Movement Action of the rules: the event `on walk` raised with the unit and its path. */
static bool action_body(vm_ctx *x, void *ud)
{
    walk *w = ud;
    w->done = w->n;
    return raise_walk(x, (uint32_t)x->p->moments[RES_ON_WALK], w, w->n) && run_queue(x, 0);
}

bool proc_walk(vm_ctx *x, proc_game *gm, int32_t who, const int64_t *squares, size_t n,
               size_t *done)
{
    walk w = { who, squares, n, 0 };
    bool ok =
        as_procedure(x, gm, x->p->moments[RES_ON_WALK] >= 0 ? action_body : walk_body, &w, NULL);
    if (done)
        *done = w.done;
    return ok;
}

/* Whether the clock stops as the phase that just ended leaves it (*stops): the rules' query
 * `clock_stops() -> bool` (language.md §6.5) when they declare one so, else false. False with
 * x->err set when the query fails. */
static bool clock_stops(vm_ctx *x, bool *stops)
{
    const res_program *p = x->p;
    int32_t q = model_find_query(p, "clock_stops");
    *stops = false;
    if (q < 0 || p->queries[q].is_event || p->queries[q].nparams != 0 ||
        p->queries[q].result != T_BOOL)
        return true;
    val v;
    if (!vm_ask(x, (uint32_t)q, NULL, 0, &v, NULL))
        return false;
    *stops = v.u.i != 0;
    return true;
}

static bool next_body(vm_ctx *x, void *ud)
{
    (void)ud;
    const res_program *p = x->p;
    const play *g = &game_of(x)->g;
    size_t nphases = p->enums[E_PHASE].len;
    if (g->phase < 0 || nphases == 0)
        return state_fail(x, E_NO_PHASE,
                          "no phase is declared (`phase NAME;` declares the "
                          "phases of a turn, in order)");
    uint32_t ptype = p->enums[E_PHASE].type;
    val old = { .type = ptype, .u.i = g->phase };
    int32_t e = p->moments[RES_ON_PHASE_END];
    if (e >= 0 && !run_event(x, (uint32_t)e, &old, 1))
        return false;
    bool stops;
    if (!clock_stops(x, &stops))
        return false;
    if (stops)
        return true; /* the game is over: the clock stays at the phase that ended it */
    int64_t turn = g->turn;
    if (!effect(x, NULL, FX_CLOCK, NULL, 0, 0))
        return false;
    bool new_turn = g->turn != turn;
    e = p->moments[RES_ON_TURN_START];
    val n = { .type = T_INT, .u.i = g->turn };
    if (new_turn && e >= 0 && !run_event(x, (uint32_t)e, &n, 1))
        return false;
    e = p->moments[RES_ON_PHASE_START];
    val now = { .type = ptype, .u.i = g->phase };
    return e < 0 || run_event(x, (uint32_t)e, &now, 1);
}

bool proc_next(vm_ctx *x, proc_game *gm)
{
    return as_procedure(x, gm, next_body, NULL, NULL);
}
