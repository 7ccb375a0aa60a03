/* play.c — the effect log (see play.h): vm_effect, the one place that changes the board and
 * the unit pool, with the record that undoes each change; the queue of raised events; the
 * choices; the note and dice lines; and the procedures driven from C: a walk along a path and
 * the clock's `next`.
 *
 * Everything an effect changes is read back before the change, so reverting a record restores
 * the state exactly: marker counts, values (given or not), faces, the position of a unit in
 * the list of units of its squares (board_place_unit_at), a feature's place in its list
 * (board_put_at), the clock. Records are reverted in reverse order (play_revert).
 */
#include "play.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "mem.h"
#include "vm.h"

static const char *const fx_names[FX_COUNT] = {
    [FX_GIVE] = "give", [FX_TAKE] = "take", [FX_TAKE_ALL] = "take all",
    [FX_FLIP_UNIT] = "flip", [FX_FLIP_ELEMENT] = "flip element", [FX_SET] = "set",
    [FX_DESTROY] = "destroy", [FX_MOVE] = "move", [FX_EMBARK] = "embark",
    [FX_DISEMBARK] = "disembark", [FX_PLACE_SQUARE] = "place at square",
    [FX_PLACE_SIDE] = "place at side", [FX_REMOVE_SQUARE] = "remove at square",
    [FX_REMOVE_SIDE] = "remove at side", [FX_REMOVE_NEAR] = "remove near",
    [FX_CLOCK] = "next phase",
};

const char *play_fx_name(uint32_t k)
{
    return k < FX_COUNT ? fx_names[k] : "?";
}

/* ---- the game ---- */

void play_init(play *pl, scene *sc, int32_t nphases)
{
    play_free(pl);
    pl->sc = sc;
    pl->turn = 1;
    pl->phase = nphases > 0 ? 0 : -1;
}

void play_forget(play *pl)
{
    for (size_t i = 0; i < pl->nprocs; i++)
        hon_free(pl->procs[i].title);
    pl->nprocs = 0;
    pl->len = 0;
}

void play_free(play *pl)
{
    play_forget(pl);
    hon_free(pl->log);
    hon_free(pl->procs);
    hon_free(pl->queue);
    hon_free(pl->undone);
    sb_free(&pl->out);
    sb_free(&pl->rolls);
    *pl = (play){ .turn = 1, .phase = -1 };
}

/* ---- positions ---- */

/* Where unit u is on board b, with its place in the lists of units of its squares. */
static play_pos pos_of(const board *b, int u)
{
    play_pos p = { .present = board_unit_present(b, u), .sq0 = -1, .sq1 = -1, .pos0 = -1,
                   .pos1 = -1, .in = board_unit_embarked_in(b, u) };
    if (!p.present || p.in >= 0)
        return p;
    board_unit_squares(b, u, &p.sq0, &p.sq1);
    int sqs[2] = { p.sq0, p.sq1 };
    int *pos[2] = { &p.pos0, &p.pos1 };
    for (int k = 0; k < 2; k++) {
        if (sqs[k] < 0)
            continue;
        int few[64];
        size_t n = board_units_at(b, sqs[k], few, 64);
        int *ids = few;
        if (n > 64) {
            ids = hon_malloc(n * sizeof *ids);
            if (!ids)
                continue;       /* the order on this square is then not kept (OOM only) */
            n = board_units_at(b, sqs[k], ids, n);
        }
        for (size_t i = 0; i < n; i++)
            if (ids[i] == u)
                *pos[k] = (int)i;
        if (ids != few)
            hon_free(ids);
    }
    return p;
}

static void put_back(board *b, int u, const play_pos *p)
{
    if (!p->present)
        board_remove_unit(b, u);
    else if (p->in >= 0)
        board_restore_embarked(b, u, p->in);  /* its carrier may be destroyed now */
    else
        board_place_unit_at(b, u, p->sq0, p->sq1, p->pos0, p->pos1);
}

/* ---- undo ---- */

static void set_count(unit_pool *pool, int64_t u, int64_t m, int64_t count)
{
    unit *un = unit_get(pool, (int32_t)u);
    if (un && m >= 0 && (uint64_t)m < pool->n_markers)
        un->markers[m] = (uint32_t)count;
}

static void revert_one(play *pl, const play_rec *r)
{
    scene *sc = pl->sc;
    board *b = scene_board(sc);
    switch (r->kind) {
    case FX_GIVE: case FX_TAKE: case FX_TAKE_ALL:
        set_count(sc->units, r->target, r->what, r->before);
        break;
    case FX_FLIP_UNIT:
        sc->unit_faces[r->target] = (int32_t)r->before;
        break;
    case FX_FLIP_ELEMENT:
        sc->element_faces[r->target] = (int32_t)r->before;
        break;
    case FX_SET: {
        unit *un = unit_get(sc->units, (int32_t)r->target);
        if (r->had)
            unit_set_value(sc->units, (int32_t)r->target, (uint32_t)r->what, r->before);
        else if (un && r->what >= 0 && r->what < (int64_t)sc->units->n_values) {
            un->values[r->what] = r->before;    /* the slot as it was, not given */
            un->given[r->what / 64] &= ~(1ULL << (r->what % 64));
        }
        break;
    }
    case FX_DESTROY: case FX_MOVE: case FX_EMBARK: case FX_DISEMBARK:
        put_back(b, (int)r->target, &r->pos);
        break;
    case FX_PLACE_SQUARE: case FX_PLACE_SIDE:
        board_take(b, r->kind == FX_PLACE_SQUARE ? BOARD_AT_SQUARE : BOARD_AT_SIDE,
                   (int)r->target, (int)r->what);
        break;
    case FX_REMOVE_SQUARE: case FX_REMOVE_SIDE: case FX_REMOVE_NEAR: {
        board_place where = r->kind == FX_REMOVE_SQUARE ? BOARD_AT_SQUARE
                            : r->kind == FX_REMOVE_SIDE ? BOARD_AT_SIDE : BOARD_AT_INTERSPACE;
        board_put_at(b, where, (int)r->target,
                     (board_feature){ (int)r->what, r->feature_value, r->feature_facing },
                     r->feature_pos);
        break;
    }
    case FX_CLOCK:
        pl->turn = r->before;
        pl->phase = r->phase_before;
        break;
    default:
        break;
    }
}

void play_revert(play *pl, size_t from)
{
    while (pl->len > from)
        revert_one(pl, &pl->log[--pl->len]);
}

/* ---- the history ---- */

bool play_commit(play *pl, size_t first, const char *title)
{
    if (pl->nprocs == PLAY_MAX_HISTORY || pl->len > PLAY_MAX_RECORDS) {
        /* forget the oldest procedures: they can no longer be undone */
        size_t drop = pl->nprocs / 2 ? pl->nprocs / 2 : 1;
        if (drop > pl->nprocs)
            drop = pl->nprocs;
        size_t cut = drop < pl->nprocs ? pl->procs[drop].first : first;
        for (size_t i = 0; i < drop; i++)
            hon_free(pl->procs[i].title);
        memmove(pl->procs, pl->procs + drop, (pl->nprocs - drop) * sizeof *pl->procs);
        pl->nprocs -= drop;
        for (size_t i = 0; i < pl->nprocs; i++)
            pl->procs[i].first -= cut;
        memmove(pl->log, pl->log + cut, (pl->len - cut) * sizeof *pl->log);
        pl->len -= cut;
        first -= cut;
    }
    if (!HON_GROW(pl->procs, pl->nprocs, pl->procs_cap))
        return false;
    char *t = hon_strdup(title ? title : "");
    if (!t)
        return false;
    pl->procs[pl->nprocs++] = (play_proc){ first, t, pl->lines };
    return true;
}

const char *play_undo(play *pl, size_t *records)
{
    if (!pl->nprocs)
        return NULL;
    play_proc *p = &pl->procs[--pl->nprocs];
    if (records)
        *records = pl->len - p->first;
    play_revert(pl, p->first);
    /* the title lives until the next commit or undo */
    hon_free(pl->undone);
    pl->undone = p->title;
    return pl->undone;
}

/* ---- effects ---- */

/* The citations of the rule of chunk ch: "(A.1, B.2)", or "" for a procedure's own chunk. */
static void cite_of(const res_program *p, const chunk *ch, strbuf *b)
{
    if (!ch || ch->kind != CHUNK_RULE || ch->id >= p->nrules)
        return;
    const ast_vec *cites = &p->rules[ch->id].decl->cites;
    sb_puts(b, "   (");
    for (uint32_t i = 0; i < cites->len; i++)
        sb_printf(b, "%s%s", i ? ", " : "", res_cite_id(cites->items[i]) ?
                  res_cite_id(cites->items[i]) : "?");
    sb_puts(b, ")");
}

static void put_val(vm_ctx *x, val v, strbuf *b)
{
    const val_env env = { x->p, x->sc };
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
    return vm_fail(x, VM_E_EFFECT, "%s", msg);
}

/* A square value as a board square; E217 off the board. */
static bool board_square(vm_ctx *x, val v, int *sq)
{
    *sq = scene_square(x->sc, v.u.i);
    if (*sq >= 0)
        return true;
    char t[32];
    scene_square_text(v.u.i, t, sizeof t);
    return vm_fail(x, VM_E_OFF_BOARD, "square %s is off the board", t);
}

/* A unit an effect may change: one of the board's (the counters of the rules are their
 * types, not pieces in play). Writes its name into *name. */
static bool unit_ok(vm_ctx *x, val v, strbuf *name)
{
    const scene *sc = x->game->sc;
    if (v.u.i < 0 || v.u.i >= BOARD_MAX_UNITS || !unit_get(sc->units, (int32_t)v.u.i))
        return vm_fail(x, VM_E_INTERNAL, "an effect on a unit that does not exist");
    put_val(x, v, name);
    if (v.u.i < sc->first_unit)
        return fail_effect(x, "%s is a counter of the rules, not a unit of the board: effects "
                           "change the board's units ($name)", sb_str(name));
    return true;
}

/* Queues the event raised on moment m (if the rules declare one) with its arguments. */
static bool moment(vm_ctx *x, res_moment m, const val *args, uint32_t n)
{
    int32_t e = x->p->moments[m];
    return e < 0 || vm_raise(x, (uint32_t)e, args, n);
}

/* Appends the record, grows the log; false on OOM (E209). */
static bool push_rec(vm_ctx *x, const play_rec *r)
{
    play *g = x->game;
    if (!HON_GROW(g->log, g->len, g->cap))
        return vm_fail(x, VM_E_MEMORY, "out of memory (effect log)");
    g->log[g->len++] = *r;
    return true;
}

/* Writes the effect's line (text + citation) to the output, after the stepper agreed. */
static bool announce(vm_ctx *x, const chunk *ch, strbuf *line)
{
    play *g = x->game;
    if (!g->bare)
        cite_of(x->p, ch, line);
    if (line->oom)
        return vm_fail(x, VM_E_MEMORY, "out of memory (effect line)");
    if (g->stepper && !g->stepper(g->ud, sb_str(line)))
        return vm_fail(x, VM_E_ABANDONED, "the procedure was abandoned before: %s",
                       sb_str(line));
    sb_puts(&g->out, sb_str(line));
    sb_putc(&g->out, '\n');
    g->lines++;
    return true;
}

/* Position effects: FX_MOVE, FX_DISEMBARK (to a square), FX_EMBARK, FX_DESTROY. */
static bool position_effect(vm_ctx *x, const chunk *ch, play_fx k, const val *args, uint32_t n,
                            strbuf *line)
{
    scene *sc = x->game->sc;
    board *b = scene_board(sc);
    int u = (int)args[0].u.i;
    const unit *un = unit_get(sc->units, u);
    play_rec r = { .kind = k, .target = u, .pos = pos_of(b, u) };
    int sq0 = -1, sq1 = -1;
    if (k == FX_DESTROY && !r.pos.present)
        return true;                /* already off the board: nothing happens */
    if (k == FX_EMBARK) {
        int t = (int)args[1].u.i;
        if (r.pos.present && r.pos.in == t)
            return true;
        if (t == u || !board_unit_present(b, t)) {
            strbuf tn = { 0 };
            put_val(x, args[1], &tn);
            bool ok = fail_effect(x, "cannot embark %s in %s: %s", sb_str(line), sb_str(&tn),
                                  t == u ? "a unit cannot carry itself"
                                         : "the carrier is not on the board");
            sb_free(&tn);
            return ok;
        }
    }
    if (k == FX_MOVE || k == FX_DISEMBARK) {
        if (!board_square(x, args[1], &sq0) || (n > 2 && !board_square(x, args[2], &sq1)))
            return false;
        if (k == FX_DISEMBARK && r.pos.in < 0)
            return fail_effect(x, "cannot disembark %s: it is not embarked", sb_str(line));
        if (un && un->size == 2 && sq1 < 0) {
            /* keep the counter's orientation: its rear goes where it went before */
            int rear = -1;
            if (r.pos.present && r.pos.in < 0 && r.pos.sq1 >= 0) {
                int fx, fy, rx, ry, nx, ny;
                geo_xy(sc->g, r.pos.sq0, &fx, &fy);
                geo_xy(sc->g, r.pos.sq1, &rx, &ry);
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
        if (r.pos.present && r.pos.in < 0 && r.pos.sq0 == sq0 && r.pos.sq1 == sq1)
            return true;            /* already there: no move, nothing entered */
    }
    /* the line */
    strbuf text = { 0 };
    switch (k) {
    case FX_DESTROY:
        sb_printf(&text, "destroy %s", sb_str(line));
        break;
    case FX_EMBARK:
        sb_printf(&text, "embark %s in ", sb_str(line));
        put_val(x, args[1], &text);
        break;
    default: {
        char a[32], c[32];
        scene_square_text(scene_square_value(sc, sq0), a, sizeof a);
        sb_printf(&text, "%s %s to %s", k == FX_MOVE ? "move" : "disembark", sb_str(line), a);
        if (sq1 >= 0) {
            scene_square_text(scene_square_value(sc, sq1), c, sizeof c);
            sb_printf(&text, ", %s", c);
        }
    }
    }
    bool ok = announce(x, ch, &text);
    sb_free(&text);
    if (!ok)
        return false;
    geo_status st = k == FX_DESTROY ? (board_remove_unit(b, u), GEO_OK)
                    : k == FX_EMBARK ? board_embark(b, u, (int)args[1].u.i)
                    : board_place_unit(b, u, sq0, sq1);
    if (st == GEO_ENOMEM)
        return vm_fail(x, VM_E_MEMORY, "out of memory (board)");
    if (st != GEO_OK) {
        put_back(b, u, &r.pos);
        return fail_effect(x, "the board refused to %s %s", play_fx_name(k), sb_str(line));
    }
    if (!push_rec(x, &r))
        return false;
    if (k == FX_DESTROY)
        return moment(x, RES_ON_DESTROY, args, 1);
    if (k == FX_MOVE || k == FX_DISEMBARK) {
        val a[2] = { args[0], { .type = T_SQUARE, .u.i = scene_square_value(sc, sq0) } };
        return moment(x, RES_ON_ENTER, a, 2);
    }
    return true;
}

/* Features: place or remove at a square or a side; remove an item near a square. */
static bool feature_effect(vm_ctx *x, const chunk *ch, play_fx k, const val *args)
{
    scene *sc = x->game->sc;
    board *b = scene_board(sc);
    int id = (int)args[0].u.i, where_i = -1;
    board_place where = BOARD_AT_SQUARE;
    strbuf text = { 0 };
    bool ok = true;
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
            return vm_fail(x, VM_E_TOPOLOGY, "interspaces exist on square boards only");
        for (int d = 0; d < 4; d++) {
            int is = geo_interspace_of(sc->g, where_i, around[d]);
            if (is >= 0 && board_has(b, BOARD_AT_INTERSPACE, is, id, NULL))
                corners[nc++] = is;
        }
        if (!nc)
            return true;
        sb_puts(&text, "remove ");
        put_val(x, args[0], &text);
        sb_puts(&text, " near ");
        put_val(x, args[1], &text);
        if (!announce(x, ch, &text)) {
            sb_free(&text);
            return false;
        }
        sb_free(&text);
        for (size_t i = 0; i < nc && ok; i++) {
            board_feature all[64], f;
            size_t n = board_features(b, BOARD_AT_INTERSPACE, corners[i], all, 64);
            int pos = -1;
            for (size_t j = 0; j < n && j < 64; j++)
                if (all[j].id == id)
                    pos = (int)j;
            board_has(b, BOARD_AT_INTERSPACE, corners[i], id, &f);
            play_rec r = { .kind = k, .target = corners[i], .what = id,
                           .after = args[1].u.i,    /* the square it was near */
                           .feature_value = f.value, .feature_facing = f.facing,
                           .feature_pos = pos };
            board_take(b, BOARD_AT_INTERSPACE, corners[i], id);
            ok = push_rec(x, &r);
        }
        return ok;
    }
    bool place = k == FX_PLACE_SQUARE || k == FX_PLACE_SIDE;
    board_feature f;
    bool there = board_has(b, where, where_i, id, &f);
    if (place == there)
        return true;            /* already there, or nothing to remove */
    sb_puts(&text, place ? "place " : "remove ");
    put_val(x, args[0], &text);
    sb_puts(&text, " at ");
    put_val(x, args[1], &text);
    ok = announce(x, ch, &text);
    sb_free(&text);
    if (!ok)
        return false;
    play_rec r = { .kind = k, .target = where_i, .what = id };
    if (place) {
        geo_status st = board_put(b, where, where_i, (board_feature){ id, 0, -1 });
        if (st != GEO_OK)
            return st == GEO_ENOMEM ? vm_fail(x, VM_E_MEMORY, "out of memory (board)")
                                    : fail_effect(x, "the board refused to place a feature");
    } else {
        board_feature all[64];
        size_t n = board_features(b, where, where_i, all, 64);
        r.feature_pos = -1;
        for (size_t j = 0; j < n && j < 64; j++)
            if (all[j].id == id)
                r.feature_pos = (int)j;
        r.feature_value = f.value;
        r.feature_facing = f.facing;
        board_take(b, where, where_i, id);
    }
    return push_rec(x, &r);
}

/* FX_CLOCK: the clock moves to the next phase (after the last one, the first of the next
 * turn). */
static bool clock_effect(vm_ctx *x, const chunk *ch)
{
    const res_program *p = x->p;
    play *g = x->game;
    size_t nphases = p->enums[E_PHASE].len;
    if (g->phase < 0 || nphases == 0)
        return vm_fail(x, VM_E_NO_PHASE, "no phase is declared (`phase NAME;` declares the "
                       "phases of a turn, in order)");
    play_rec r = { .kind = FX_CLOCK, .before = g->turn, .phase_before = g->phase };
    bool new_turn = (size_t)g->phase + 1 >= nphases;
    r.after = new_turn ? g->turn + 1 : g->turn;
    r.phase_after = new_turn ? 0 : g->phase + 1;
    strbuf text = { 0 };
    sb_printf(&text, "clock: turn %" PRId64 ", %s phase", r.after,
              p->enums[E_PHASE].members[r.phase_after].name);
    bool ok = announce(x, ch, &text);
    sb_free(&text);
    if (!ok || !push_rec(x, &r))
        return false;
    g->turn = r.after;
    g->phase = r.phase_after;
    return true;
}

bool vm_effect(vm_ctx *x, const chunk *ch, uint32_t kind, const val *args, uint32_t n,
               uint32_t extra)
{
    play *g = x->game;
    if (g && kind == FX_CLOCK)
        return clock_effect(x, ch);
    if (!g || !g->sc || g->sc != x->sc)
        return vm_fail(x, VM_E_NO_BOARD, "no board is loaded: effects change the units and the "
                       "board of a scenario (load one first)");
    scene *sc = g->sc;
    strbuf line = { 0 };
    bool ok = true;
    play_fx k = (play_fx)kind;
    if (k != FX_CLOCK && k != FX_FLIP_ELEMENT && k < FX_PLACE_SQUARE && !unit_ok(x, args[0], &line)) {
        sb_free(&line);
        return false;
    }
    switch (k) {
    case FX_GIVE:
    case FX_TAKE:
    case FX_TAKE_ALL: {
        int64_t u = args[0].u.i, m = args[1].u.i;
        int64_t have = unit_marker_count(sc->units, (int32_t)u, (uint32_t)m);
        int64_t count = k == FX_TAKE_ALL ? have : args[2].u.i;
        if (count < 0) {
            ok = fail_effect(x, "cannot %s %" PRId64 " markers", k == FX_GIVE ? "give" : "take",
                             count);
            break;
        }
        if (k != FX_GIVE && count > have)
            count = have;               /* never below zero */
        if (k == FX_GIVE && count > (int64_t)UINT32_MAX - have) {
            ok = fail_effect(x, "too many markers");
            break;
        }
        if (count == 0)
            break;
        strbuf text = { 0 };
        sb_printf(&text, "%s %s ", k == FX_GIVE ? "give" : "take", sb_str(&line));
        put_val(x, args[1], &text);
        if (count > 1)
            sb_printf(&text, " %" PRId64, count);
        ok = announce(x, ch, &text);
        sb_free(&text);
        if (!ok)
            break;
        play_rec r = { .kind = k, .target = u, .what = m, .before = have,
                       .after = k == FX_GIVE ? have + count : have - count };
        set_count(sc->units, u, m, r.after);
        ok = push_rec(x, &r);
        for (int64_t i = 0; ok && i < count; i++)
            ok = moment(x, k == FX_GIVE ? RES_ON_GIVE : RES_ON_TAKE, args, 2);
        break;
    }
    case FX_FLIP_UNIT:
    case FX_FLIP_ELEMENT: {
        int64_t t = args[0].u.i, face = args[1].u.i;
        int32_t *faces = k == FX_FLIP_UNIT ? sc->unit_faces : sc->element_faces;
        size_t nf = k == FX_FLIP_UNIT ? sc->nunit_faces : sc->nelement_faces;
        if (t < 0 || (size_t)t >= nf) {
            ok = vm_fail(x, VM_E_INTERNAL, "flip of something that does not exist");
            break;
        }
        if (faces[t] == face)
            break;
        strbuf text = { 0 };
        sb_puts(&text, "flip ");
        put_val(x, args[0], &text);
        sb_puts(&text, " to ");
        put_val(x, args[1], &text);
        ok = announce(x, ch, &text);
        sb_free(&text);
        if (!ok)
            break;
        play_rec r = { .kind = k, .target = t, .before = faces[t], .after = face };
        faces[t] = (int32_t)face;
        ok = push_rec(x, &r);
        break;
    }
    case FX_SET: {
        int64_t old = 0, v = args[1].u.i;
        bool had = unit_get_value(sc->units, (int32_t)args[0].u.i, extra, &old);
        if (had && old == v)
            break;
        const unit *un = unit_get(sc->units, (int32_t)args[0].u.i);
        if (!had && un && extra < sc->units->n_values)
            old = un->values[extra];    /* not given: undo restores the slot's bits anyway */
        strbuf text = { 0 };
        sb_printf(&text, "set %s.%s = %" PRId64, sb_str(&line),
                  extra < x->p->nslots ? x->p->slots[extra].name : "?", v);
        if (had)
            sb_printf(&text, " (was %" PRId64 ")", old);
        ok = announce(x, ch, &text);
        sb_free(&text);
        if (!ok)
            break;
        play_rec r = { .kind = k, .target = args[0].u.i, .what = extra, .before = old,
                       .after = v, .had = had };
        unit_set_value(sc->units, (int32_t)args[0].u.i, extra, v);
        ok = push_rec(x, &r);
        break;
    }
    case FX_DESTROY:
    case FX_MOVE:
    case FX_EMBARK:
    case FX_DISEMBARK:
        ok = position_effect(x, ch, k, args, n, &line);
        break;
    case FX_PLACE_SQUARE: case FX_PLACE_SIDE: case FX_REMOVE_SQUARE: case FX_REMOVE_SIDE:
    case FX_REMOVE_NEAR:
        ok = feature_effect(x, ch, k, args);
        break;
    default:
        ok = vm_fail(x, VM_E_INTERNAL, "unknown effect %" PRIu32, kind);
    }
    sb_free(&line);
    return ok;
}

bool vm_raise(vm_ctx *x, uint32_t e, const val *args, uint32_t n)
{
    play *g = x->game;
    val *copy = n ? vm_alloc(x, n * sizeof *copy) : NULL;
    if (n && !copy)
        return false;
    if (n)
        memcpy(copy, args, n * sizeof *copy);
    if (!HON_GROW(g->queue, g->qlen, g->qcap))
        return vm_fail(x, VM_E_MEMORY, "out of memory (event queue)");
    /* raised by the running rule's statement; from C (a walk's step), where the running
     * event was raised */
    ast_loc at = vm_where(x);
    g->queue[g->qlen++] = (play_event){ e, copy, n, at.line ? at : x->raised_at };
    return true;
}

void vm_note(vm_ctx *x, const chunk *ch, const char *text)
{
    if (x->game->bare)
        return;                 /* odds: an outcome is its effects alone */
    strbuf line = { 0 };
    sb_printf(&line, "note: %s", text);
    cite_of(x->p, ch, &line);
    sb_puts(&x->game->out, sb_str(&line));
    sb_putc(&x->game->out, '\n');
    sb_free(&line);
}

/* Appends the roll's JSON object to the game's rolls: {"dice": N, "faces": [...], "in":
 * "rule q.r", "file": PATH, "line": L, "col": C, "cites": [...]} (the position of the `roll`,
 * null outside a loaded file; cites empty outside a rule). */
static void roll_json(vm_ctx *x, const chunk *ch, const val *faces, size_t n)
{
    const res_program *p = x->p;
    strbuf *b = &x->game->rolls;
    ast_loc at = vm_where(x);
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
    if (ch && ch->kind == CHUNK_RULE && ch->id < p->nrules) {
        const ast_vec *cites = &p->rules[ch->id].decl->cites;
        for (uint32_t i = 0; i < cites->len; i++) {
            sb_puts(b, i ? ", " : "");
            sb_json_str(b, res_cite_id(cites->items[i]) ? res_cite_id(cites->items[i]) : "?");
        }
    }
    sb_puts(b, "]}");
}

void vm_dice(vm_ctx *x, const chunk *ch, const val *faces, size_t n, bool many)
{
    if (x->game->bare)
        return;                 /* odds: an outcome is its effects alone */
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
        static const char *const names[] = { "ones", "twos", "threes", "fours", "fives",
                                             "sixes" };
        size_t count[6] = { 0 };
        for (size_t i = 0; i < n; i++)
            if (faces[i].u.i >= 1 && faces[i].u.i <= 6)
                count[faces[i].u.i - 1]++;
        sb_printf(&line, "roll %zu d6:", n);
        for (int f = 0; f < 6; f++)
            sb_printf(&line, "%s %zu %s", f ? "," : "", count[f], names[f]);
    }
    cite_of(x->p, ch, &line);
    sb_puts(&x->game->out, sb_str(&line));
    sb_putc(&x->game->out, '\n');
    sb_free(&line);
    roll_json(x, ch, faces, n);
}

/* ---- choices ---- */

bool vm_choose(vm_ctx *x, const chunk *ch, val from, val side, const char *q, val *out)
{
    const res_program *p = x->p;
    play *g = x->game;
    (void)ch;
    /* the options, as values */
    size_t n = 0;
    val *opts = NULL;
    if (p->types[from.type].kind == RT_SET) {
        n = (size_t)__builtin_popcountll(from.u.bits);
        opts = vm_alloc(x, (n ? n : 1) * sizeof *opts);
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
        return vm_fail(x, VM_E_NO_CHOICE, "no legal choice for \"%s\": the list of options is "
                       "empty", question);
    const char *side_name = side.u.i >= 0 && (size_t)side.u.i < p->enums[E_SIDE].len
                                ? p->enums[E_SIDE].members[side.u.i].name : "";
    g->choices_made++;
    if (g->first_choice) {
        *out = opts[0];
        return true;
    }
    /* the options' text, for the chooser and for messages */
    strbuf all = { 0 };
    char **texts = vm_alloc(x, n * sizeof *texts);
    if (!texts)
        return false;
    for (size_t i = 0; i < n; i++) {
        strbuf t = { .limit = 256 };
        put_val(x, opts[i], &t);
        texts[i] = vm_alloc(x, t.len + 1);
        if (!texts[i]) {
            sb_free(&t);
            sb_free(&all);
            return false;
        }
        memcpy(texts[i], sb_str(&t), t.len + 1);
        sb_printf(&all, "%s%s", i ? ", " : "", texts[i]);
        sb_free(&t);
    }
    bool ok = true;
    if (g->script_on) {
        if (g->script_pos >= g->nscript) {
            ok = vm_fail(x, VM_E_BAD_CHOICE, "the test's choices ran out at \"%s\" (legal are %s)",
                         question, sb_str(&all));
        } else {
            val want = g->script[g->script_pos++];
            ok = false;
            for (size_t i = 0; i < n && !ok; i++)
                if (opts[i].type == want.type && val_equal(p, opts[i], want, NULL)) {
                    *out = opts[i];
                    ok = true;
                }
            if (!ok) {
                strbuf w = { .limit = 256 };
                put_val(x, want, &w);
                vm_fail(x, VM_E_BAD_CHOICE, "illegal choice %s for \"%s\": legal are %s",
                        sb_str(&w), question, sb_str(&all));
                sb_free(&w);
            }
        }
    } else if (g->chooser) {
        int idx = -2;
        strbuf qq = { 0 };
        sb_puts(&qq, question);
        for (int tries = 0; tries < PLAY_CHOOSER_TRIES; tries++) {
            idx = g->chooser(g->ud, sb_str(&qq), side_name, (const char *const *)texts, n);
            if (idx == -1 || (idx >= 0 && (size_t)idx < n))
                break;
            sb_free(&qq);
            sb_printf(&qq, "illegal choice %d: choose one of the %zu options. %s", idx + 1, n,
                      question);
        }
        sb_free(&qq);
        if (idx == -1)
            ok = vm_fail(x, VM_E_ABANDONED, "the procedure was abandoned at \"%s\"", question);
        else if (idx < 0 || (size_t)idx >= n)
            ok = vm_fail(x, VM_E_BAD_CHOICE, "illegal choice for \"%s\": legal are %s",
                         question, sb_str(&all));
        else
            *out = opts[idx];
    } else {
        *out = opts[0];
    }
    sb_free(&all);
    return ok;
}

/* ---- outcomes: what a procedure changed, in sum ---- */

/* Records of one thing changed (a unit's markers of one kind, its face, a value, its place, a
 * feature at a place, the clock) share a key; the first record holds the state before. */
typedef enum out_class { OC_MARKERS, OC_FACE, OC_ELEMENT_FACE, OC_VALUE, OC_PLACE, OC_SQUARE,
                         OC_SIDE, OC_NEAR, OC_CLOCK } out_class;

static out_class class_of(play_fx k)
{
    switch (k) {
    case FX_GIVE: case FX_TAKE: case FX_TAKE_ALL: return OC_MARKERS;
    case FX_FLIP_UNIT: return OC_FACE;
    case FX_FLIP_ELEMENT: return OC_ELEMENT_FACE;
    case FX_SET: return OC_VALUE;
    case FX_PLACE_SQUARE: case FX_REMOVE_SQUARE: return OC_SQUARE;
    case FX_PLACE_SIDE: case FX_REMOVE_SIDE: return OC_SIDE;
    case FX_REMOVE_NEAR: return OC_NEAR;
    case FX_CLOCK: return OC_CLOCK;
    default: return OC_PLACE;
    }
}

static bool same_key(const play_rec *a, const play_rec *b)
{
    out_class c = class_of(a->kind);
    if (c != class_of(b->kind) || a->target != b->target)
        return false;
    return c == OC_PLACE || c == OC_FACE || c == OC_ELEMENT_FACE || c == OC_CLOCK ||
           a->what == b->what;
}

static void put_square(scene *sc, int sq, strbuf *out)
{
    char t[32];
    scene_square_text(scene_square_value(sc, sq), t, sizeof t);
    sb_puts(out, t);
}

/* Writes the net change of the records of `first`'s key ("give $a suppressed 2", "move $a to
 * C4", "flip $e to wreck"...), or nothing when they cancel out. */
static void net_change(vm_ctx *x, const play_rec *first, strbuf *out)
{
    const res_program *p = x->p;
    play *g = x->game;
    scene *sc = g->sc;
    board *b = sc ? scene_board(sc) : NULL;
    val u = { .type = T_UNIT, .u.i = first->target };
    size_t start = out->len;
    switch (class_of(first->kind)) {
    case OC_MARKERS: {
        int64_t now = unit_marker_count(sc->units, (int32_t)first->target, (uint32_t)first->what);
        if (now == first->before)
            break;
        sb_puts(out, now > first->before ? "give " : "take ");
        put_val(x, u, out);
        sb_putc(out, ' ');
        put_val(x, (val){ .type = p->enums[E_MARKER].type, .u.i = first->what }, out);
        int64_t d = now > first->before ? now - first->before : first->before - now;
        if (d > 1)
            sb_printf(out, " %" PRId64, d);
        break;
    }
    case OC_FACE:
    case OC_ELEMENT_FACE: {
        bool unit_face = class_of(first->kind) == OC_FACE;
        int32_t now = unit_face ? sc->unit_faces[first->target] : sc->element_faces[first->target];
        if (now == first->before)
            break;
        sb_puts(out, "flip ");
        put_val(x, (val){ .type = unit_face ? T_UNIT : T_ELEMENT, .u.i = first->target }, out);
        sb_puts(out, " to ");
        put_val(x, (val){ .type = p->enums[E_FACE].type, .u.i = now }, out);
        break;
    }
    case OC_VALUE: {
        int64_t now = 0;
        bool has = unit_get_value(sc->units, (int32_t)first->target, (uint32_t)first->what, &now);
        if (has == first->had && (!has || now == first->before))
            break;
        sb_puts(out, "set ");
        put_val(x, u, out);
        sb_printf(out, ".%s = ", first->what < (int64_t)p->nslots ? p->slots[first->what].name
                                                                   : "?");
        if (has)
            sb_printf(out, "%" PRId64, now);
        else
            sb_puts(out, "(none)");
        break;
    }
    case OC_PLACE: {
        play_pos now = pos_of(b, (int)first->target), was = first->pos;
        if (now.present == was.present && now.in == was.in && now.sq0 == was.sq0 &&
            now.sq1 == was.sq1)
            break;
        if (!now.present) {
            sb_puts(out, "destroy ");
            put_val(x, u, out);
        } else if (now.in >= 0) {
            sb_puts(out, "embark ");
            put_val(x, u, out);
            sb_puts(out, " in ");
            put_val(x, (val){ .type = T_UNIT, .u.i = now.in }, out);
        } else {
            sb_puts(out, "move ");
            put_val(x, u, out);
            sb_puts(out, " to ");
            put_square(sc, now.sq0, out);
            if (now.sq1 >= 0) {
                sb_puts(out, ", ");
                put_square(sc, now.sq1, out);
            }
        }
        break;
    }
    case OC_SQUARE:
    case OC_SIDE:
    case OC_NEAR: {
        out_class c = class_of(first->kind);
        board_place where = c == OC_SQUARE ? BOARD_AT_SQUARE : c == OC_SIDE ? BOARD_AT_SIDE
                                                                              : BOARD_AT_INTERSPACE;
        bool had = first->kind != FX_PLACE_SQUARE && first->kind != FX_PLACE_SIDE;
        bool has = board_has(b, where, (int)first->target, (int)first->what, NULL);
        if (had == has)
            break;
        uint32_t ft = c == OC_SQUARE ? p->enums[E_SQUARE_FEATURE].type
                      : c == OC_SIDE ? p->enums[E_SIDE_FEATURE].type
                                     : p->enums[E_INTERSPACE_ITEM].type;
        sb_puts(out, has ? "place " : "remove ");
        put_val(x, (val){ .type = ft, .u.i = first->what }, out);
        if (c == OC_NEAR) {
            sb_puts(out, " near ");
            put_val(x, (val){ .type = T_SQUARE, .u.i = first->after }, out);
        } else if (c == OC_SIDE) {
            sb_puts(out, " at ");
            put_val(x, (val){ .type = T_SIDE, .u.i = first->target }, out);
        } else {
            sb_puts(out, " at ");
            put_square(sc, (int)first->target, out);
        }
        break;
    }
    case OC_CLOCK:
        if (g->turn == first->before && g->phase == first->phase_before)
            break;
        sb_printf(out, "clock: turn %" PRId64 ", %s phase", g->turn,
                  g->phase >= 0 ? p->enums[E_PHASE].members[g->phase].name : "?");
        break;
    }
    if (out->len > start)
        sb_puts(out, "; ");
}

void play_outcome(vm_ctx *x, size_t from, strbuf *out)
{
    play *g = x->game;
    size_t start = out->len;
    for (size_t i = from; i < g->len; i++) {
        bool seen = false;
        for (size_t j = from; j < i && !seen; j++)
            seen = same_key(&g->log[j], &g->log[i]);
        if (!seen)
            net_change(x, &g->log[i], out);
    }
    if (out->len > start + 1 && !out->oom && !out->truncated)
        out->s[out->len -= 2] = '\0';      /* the last "; " */
    if (out->len == start)
        sb_puts(out, "no change");
}

/* ---- procedures driven from C ---- */

/* Runs body as one procedure on g: all or nothing. */
static bool as_procedure(vm_ctx *x, play *g, bool (*body)(vm_ctx *, void *), void *ud)
{
    play *saved = x->game;
    size_t mark = g->len;
    x->game = g;
    x->playing = true;
    g->qlen = 0;
    sb_free(&g->rolls);
    bool ok = body(x, ud);
    x->playing = false;
    x->game = saved;
    g->qlen = 0;
    if (!ok)
        play_revert(g, mark);
    return ok;
}

typedef struct walk { int32_t unit; const int64_t *squares; size_t n; size_t done; } walk;

static bool walk_body(vm_ctx *x, void *ud)
{
    walk *w = ud;
    play *g = x->game;
    board *b = scene_board(g->sc);
    for (size_t i = 0; i < w->n; i++) {
        val a[2] = { { .type = T_UNIT, .u.i = w->unit }, { .type = T_SQUARE, .u.i = w->squares[i] } };
        if (!vm_effect(x, NULL, FX_MOVE, a, 2, 0) || !vm_run_queue(x, 0))
            return false;
        w->done = i + 1;
        /* a rule took the unit off its path (destroyed, drowned, pushed away): the walk ends
         * there */
        int s0, s1;
        if (!board_unit_squares(b, w->unit, &s0, &s1) ||
            board_unit_embarked_in(b, w->unit) >= 0 ||
            scene_square_value(g->sc, s0) != w->squares[i])
            break;
    }
    int32_t e = x->p->moments[RES_ON_WALK_END];
    if (e < 0 || !board_unit_present(b, w->unit))
        return true;
    vlist *path = vm_alloc(x, sizeof *path + w->done * sizeof(val));
    if (!path)
        return false;
    path->len = w->done;
    for (size_t i = 0; i < w->done; i++)
        path->items[i] = (val){ .type = T_SQUARE, .u.i = w->squares[i] };
    const res_query *ev = &x->p->queries[e];
    val a[2] = { { .type = T_UNIT, .u.i = w->unit },
                 { .type = ev->nparams > 1 ? ev->params[1].type : T_NONE, .u.list = path } };
    return vm_run_event(x, (uint32_t)e, a, 2);
}

bool play_walk(vm_ctx *x, play *g, int32_t who, const int64_t *squares, size_t n,
               size_t *done)
{
    walk w = { who, squares, n, 0 };
    bool ok = as_procedure(x, g, walk_body, &w);
    if (done)
        *done = w.done;
    return ok;
}

static bool next_body(vm_ctx *x, void *ud)
{
    (void)ud;
    const res_program *p = x->p;
    play *g = x->game;
    size_t nphases = p->enums[E_PHASE].len;
    if (g->phase < 0 || nphases == 0)
        return vm_fail(x, VM_E_NO_PHASE, "no phase is declared (`phase NAME;` declares the "
                       "phases of a turn, in order)");
    uint32_t ptype = p->enums[E_PHASE].type;
    val old = { .type = ptype, .u.i = g->phase };
    int32_t e = p->moments[RES_ON_PHASE_END];
    if (e >= 0 && !vm_run_event(x, (uint32_t)e, &old, 1))
        return false;
    int64_t turn = g->turn;
    if (!vm_effect(x, NULL, FX_CLOCK, NULL, 0, 0))
        return false;
    bool new_turn = g->turn != turn;
    e = p->moments[RES_ON_TURN_START];
    val n = { .type = T_INT, .u.i = g->turn };
    if (new_turn && e >= 0 && !vm_run_event(x, (uint32_t)e, &n, 1))
        return false;
    e = p->moments[RES_ON_PHASE_START];
    val now = { .type = ptype, .u.i = g->phase };
    return e < 0 || vm_run_event(x, (uint32_t)e, &now, 1);
}

bool play_next(vm_ctx *x, play *g)
{
    return as_procedure(x, g, next_body, NULL);
}
