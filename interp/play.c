/* play.c — the game and its effect log (see play.h): each play_* function applies one change
 * and appends the record that undoes it; play_revert, play_commit and play_undo revert records,
 * keep procedures, revert them. What a change touches is read before it, so a revert restores
 * the state exactly (unit and feature places in their lists included); room for the record is
 * made first, so running out of memory changes nothing.
 */
#include "play.h"

#include <string.h>

#include "mem.h"

static const char *const fx_names[FX_COUNT] = {
#define EFFECT(name, text, fewest, most, operands, statement, doc) [FX_##name] = text,
#include "effects.h"
};

static const char *const fx_operands[FX_COUNT] = {
#define EFFECT(name, text, fewest, most, operands, statement, doc) [FX_##name] = operands,
#include "effects.h"
};

const char *play_fx_name(uint32_t k)
{
    return k < FX_COUNT ? fx_names[k] : "?";
}

bool play_fx_on_unit(uint32_t k)
{
    const char *ops = k < FX_COUNT ? fx_operands[k] : "";
    return strncmp(ops, "unit", 4) == 0 && (ops[4] == ' ' || ops[4] == '\0');
}

/* ---- the game ---- */

void play_init(play *pl, scene *sc, int32_t nphases)
{
    play_free(pl);
    pl->sc = sc;
    pl->turn = 1;
    pl->phase = nphases > 0 ? 0 : -1;
}

void play_free(play *pl)
{
    for (size_t i = 0; i < pl->nprocs; i++)
        mem_free(pl->procs[i].title);
    mem_free(pl->log);
    mem_free(pl->procs);
    mem_free(pl->undone);
    *pl = (play){ .turn = 1, .phase = -1 };
}

/* ---- positions ---- */

play_pos play_pos_of(const board *b, int u)
{
    play_pos p = { .present = board_unit_present(b, u),
                   .sq0 = -1,
                   .sq1 = -1,
                   .pos0 = -1,
                   .pos1 = -1,
                   .in = board_unit_embarked_in(b, u) };
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
            ids = mem_malloc(n * sizeof *ids);
            if (!ids)
                continue; /* the order on this square is then not kept (OOM only) */
            n = board_units_at(b, sqs[k], ids, n);
        }
        for (size_t i = 0; i < n; i++)
            if (ids[i] == u)
                *pos[k] = (int)i;
        if (ids != few)
            mem_free(ids);
    }
    return p;
}

static void put_back(board *b, int u, const play_pos *p)
{
    if (!p->present)
        board_remove_unit(b, u);
    else if (p->in >= 0)
        board_restore_embarked(b, u, p->in); /* its carrier may be destroyed now */
    else
        board_place_unit_at(b, u, p->sq0, p->sq1, p->pos0, p->pos1);
}

/* ---- applying ---- */

/* Makes room for one more record; false on OOM. */
static bool room(play *pl)
{
    return MEM_GROW(pl->log, pl->len, pl->cap);
}

static void set_count(unit_pool *pool, int64_t u, int64_t m, int64_t count)
{
    unit *un = unit_get(pool, (int32_t)u);
    if (un && m >= 0 && (uint64_t)m < pool->n_markers)
        un->markers[m] = (uint32_t)count;
}

/* Where each feature effect puts or takes its feature. */
static board_place place_of(play_fx k)
{
    return k == FX_PLACE_SQUARE || k == FX_REMOVE_SQUARE ? BOARD_AT_SQUARE
           : k == FX_PLACE_SIDE || k == FX_REMOVE_SIDE   ? BOARD_AT_SIDE
                                                         : BOARD_AT_INTERSPACE;
}

static bool on_element(play_fx k)
{
    return k == FX_GIVE_ELEMENT || k == FX_TAKE_ELEMENT || k == FX_TAKE_ALL_ELEMENT;
}

int64_t play_marker_count(const scene *sc, play_fx k, int64_t who, int64_t marker)
{
    if (!on_element(k))
        return unit_marker_count(sc->units, (int32_t)who, (uint32_t)marker);
    board_feature f;
    return marker >= 0 && marker < BOARD_MAX_ID &&
                   board_has(sc->b, BOARD_AT_ELEMENT_MARKER, (int)who, (int)marker, &f)
               ? f.value
               : 0;
}

/* The place of marker `id` in element e's list of markers, or -1. */
static int marker_pos(const board *b, int e, int id)
{
    board_feature all[64];
    size_t n = board_features(b, BOARD_AT_ELEMENT_MARKER, e, all, 64);
    for (size_t j = 0; j < n && j < 64; j++)
        if (all[j].id == id)
            return (int)j;
    return -1;
}

/* Element e carries `count` markers `id` (none: off its list), at place pos of the list when
 * they were not on it (-1: last). */
static geo_status set_element_markers(board *b, int e, int id, int64_t count, int pos)
{
    if (count <= 0)
        return board_take(b, BOARD_AT_ELEMENT_MARKER, e, id), GEO_OK;
    return board_put_at(b, BOARD_AT_ELEMENT_MARKER, e, (board_feature){ id, (int)count, -1 }, pos);
}

bool play_markers(play *pl, play_fx k, int64_t who, int64_t marker, int64_t count)
{
    if (!room(pl))
        return false;
    play_rec r = { .kind = k,
                   .target = who,
                   .what = marker,
                   .before = play_marker_count(pl->sc, k, who, marker),
                   .after = count,
                   .feature_pos = -1 };
    if (on_element(k)) {
        board *b = scene_board(pl->sc);
        r.feature_pos = marker_pos(b, (int)who, (int)marker);
        if (set_element_markers(b, (int)who, (int)marker, count, -1) != GEO_OK)
            return false;
    } else {
        set_count(pl->sc->units, who, marker, count);
    }
    pl->log[pl->len++] = r;
    return true;
}

/* Counts an element turned from face `was` to `now` in sc->nelements_turned (scene.h). */
static void element_turned(scene *sc, int32_t was, int32_t now)
{
    if (was == RES_FACE_NONE && now != RES_FACE_NONE)
        sc->nelements_turned++;
    else if (was != RES_FACE_NONE && now == RES_FACE_NONE && sc->nelements_turned)
        sc->nelements_turned--;
}

bool play_flip(play *pl, play_fx k, int64_t target, int32_t face)
{
    int32_t *faces = k == FX_FLIP_UNIT ? pl->sc->unit_faces : pl->sc->element_faces;
    if (!room(pl))
        return false;
    pl->log[pl->len++] =
        (play_rec){ .kind = k, .target = target, .before = faces[target], .after = face };
    if (k == FX_FLIP_ELEMENT)
        element_turned(pl->sc, faces[target], face);
    faces[target] = face;
    return true;
}

bool play_set_value(play *pl, int64_t who, uint32_t slot, int64_t v)
{
    unit_pool *pool = pl->sc->units;
    int64_t old = 0;
    bool had = unit_get_value(pool, (int32_t)who, slot, &old);
    const unit *un = unit_get(pool, (int32_t)who);
    if (!had && un && slot < pool->n_values)
        old = un->values[slot]; /* not given: undo restores the slot's bits anyway */
    if (!room(pl))
        return false;
    pl->log[pl->len++] = (play_rec){
        .kind = FX_SET, .target = who, .what = slot, .before = old, .after = v, .had = had
    };
    unit_set_value(pool, (int32_t)who, slot, v);
    return true;
}

geo_status play_position(play *pl, play_fx k, int who, int sq0, int sq1, int carrier)
{
    board *b = scene_board(pl->sc);
    play_rec r = { .kind = k, .target = who, .pos = play_pos_of(b, who) };
    if (!room(pl))
        return GEO_ENOMEM;
    geo_status st = k == FX_DESTROY  ? (board_remove_unit(b, who), GEO_OK)
                    : k == FX_EMBARK ? board_embark(b, who, carrier)
                                     : board_place_unit(b, who, sq0, sq1);
    if (st != GEO_OK) {
        put_back(b, who, &r.pos);
        return st;
    }
    pl->log[pl->len++] = r;
    return GEO_OK;
}

geo_status play_place(play *pl, play_fx k, int at, int id, int value, int64_t near)
{
    if (!room(pl))
        return GEO_ENOMEM;
    geo_status st =
        board_put(scene_board(pl->sc), place_of(k), at, (board_feature){ id, value, -1 });
    if (st == GEO_OK)
        pl->log[pl->len++] = (play_rec){ .kind = k, .target = at, .what = id, .after = near };
    return st;
}

geo_status play_new_element(play *pl, int sq, int type, const char *name, int value)
{
    board *b = scene_board(pl->sc);
    int was = board_element_at(b, sq);
    if (!room(pl))
        return GEO_ENOMEM;
    int e = board_element_new(b, type, name);
    if (e < 0)
        return GEO_ENOMEM;
    board_element_set_attr(b, e, value, -1);
    board_element_add(b, e, sq);
    if (!scene_elements_changed(pl->sc)) {
        board_element_add(b, was, sq);
        board_element_drop_last(b);
        return GEO_ENOMEM;
    }
    pl->log[pl->len++] = (play_rec){
        .kind = FX_PLACE_TERRAIN, .target = sq, .what = type, .before = was, .after = e
    };
    return GEO_OK;
}

bool play_remove(play *pl, play_fx k, int at, int id, int64_t near)
{
    board *b = scene_board(pl->sc);
    board_place where = place_of(k);
    board_feature all[64], f = { 0 };
    size_t n = board_features(b, where, at, all, 64);
    play_rec r = { .kind = k, .target = at, .what = id, .after = near, .feature_pos = -1 };
    for (size_t j = 0; j < n && j < 64; j++)
        if (all[j].id == id)
            r.feature_pos = (int)j;
    board_has(b, where, at, id, &f);
    r.feature_value = f.value;
    r.feature_facing = f.facing;
    if (!room(pl))
        return false;
    pl->log[pl->len++] = r;
    board_take(b, where, at, id);
    return true;
}

bool play_leave_element(play *pl, int sq)
{
    board *b = scene_board(pl->sc);
    if (!room(pl))
        return false;
    pl->log[pl->len++] =
        (play_rec){ .kind = FX_REMOVE_ELEMENT, .target = sq, .before = board_element_at(b, sq) };
    board_element_add(b, -1, sq);
    return true;
}

bool play_clock(play *pl, int64_t turn, int32_t phase)
{
    if (!room(pl))
        return false;
    pl->log[pl->len++] = (play_rec){ .kind = FX_CLOCK,
                                     .before = pl->turn,
                                     .after = turn,
                                     .phase_before = pl->phase,
                                     .phase_after = phase };
    pl->turn = turn;
    pl->phase = phase;
    return true;
}

/* ---- undo ---- */

static void revert_one(play *pl, const play_rec *r)
{
    scene *sc = pl->sc;
    board *b = sc ? scene_board(sc) : NULL;
    switch (r->kind) {
    case FX_GIVE:
    case FX_TAKE:
    case FX_TAKE_ALL: set_count(sc->units, r->target, r->what, r->before); break;
    case FX_GIVE_ELEMENT:
    case FX_TAKE_ELEMENT:
    case FX_TAKE_ALL_ELEMENT:
        set_element_markers(b, (int)r->target, (int)r->what, r->before, r->feature_pos);
        break;
    case FX_FLIP_UNIT: sc->unit_faces[r->target] = (int32_t)r->before; break;
    case FX_FLIP_ELEMENT:
        element_turned(sc, sc->element_faces[r->target], (int32_t)r->before);
        sc->element_faces[r->target] = (int32_t)r->before;
        break;
    case FX_SET: {
        unit *un = unit_get(sc->units, (int32_t)r->target);
        if (r->had)
            unit_set_value(sc->units, (int32_t)r->target, (uint32_t)r->what, r->before);
        else if (un && r->what >= 0 && r->what < (int64_t)sc->units->n_values) {
            un->values[r->what] = r->before; /* the slot as it was, not given */
            un->given[r->what / 64] &= ~(1ULL << (r->what % 64));
        }
        break;
    }
    case FX_DESTROY:
    case FX_MOVE:
    case FX_EMBARK:
    case FX_DISEMBARK: put_back(b, (int)r->target, &r->pos); break;
    case FX_PLACE_TERRAIN: /* the last element created: every later record is undone */
        board_element_add(b, (int)r->before, (int)r->target);
        board_element_drop_last(b);
        scene_elements_changed(sc);
        break;
    case FX_PLACE_SQUARE:
    case FX_PLACE_INTERSPACE:
    case FX_PLACE_SIDE: board_take(b, place_of(r->kind), (int)r->target, (int)r->what); break;
    case FX_REMOVE_SQUARE:
    case FX_REMOVE_SIDE:
    case FX_REMOVE_NEAR:
        board_put_at(b, place_of(r->kind), (int)r->target,
                     (board_feature){ (int)r->what, r->feature_value, r->feature_facing },
                     r->feature_pos);
        break;
    case FX_CLOCK:
        pl->turn = r->before;
        pl->phase = r->phase_before;
        break;
    case FX_REMOVE_ELEMENT: board_element_add(b, (int)r->before, (int)r->target); break;
    default: break;
    }
}

void play_revert(play *pl, size_t from)
{
    while (pl->len > from)
        revert_one(pl, &pl->log[--pl->len]);
}

/* ---- the history ---- */

bool play_commit(play *pl, size_t first, const char *title, uint64_t dice)
{
    if (pl->nprocs == PLAY_MAX_HISTORY || pl->len > PLAY_MAX_RECORDS) {
        /* forget the oldest procedures: they can no longer be undone */
        size_t drop = pl->nprocs / 2 ? pl->nprocs / 2 : 1;
        if (drop > pl->nprocs)
            drop = pl->nprocs;
        size_t cut = drop < pl->nprocs ? pl->procs[drop].first : first;
        for (size_t i = 0; i < drop; i++)
            mem_free(pl->procs[i].title);
        memmove(pl->procs, pl->procs + drop, (pl->nprocs - drop) * sizeof *pl->procs);
        pl->nprocs -= drop;
        for (size_t i = 0; i < pl->nprocs; i++)
            pl->procs[i].first -= cut;
        memmove(pl->log, pl->log + cut, (pl->len - cut) * sizeof *pl->log);
        pl->len -= cut;
        first -= cut;
    }
    if (!MEM_GROW(pl->procs, pl->nprocs, pl->procs_cap))
        return false;
    char *t = mem_strdup(title ? title : "");
    if (!t)
        return false;
    pl->procs[pl->nprocs++] = (play_proc){ first, t, dice };
    return true;
}

const char *play_undo(play *pl, size_t *records, uint64_t *dice)
{
    if (!pl->nprocs)
        return NULL;
    play_proc *p = &pl->procs[--pl->nprocs];
    if (records)
        *records = pl->len - p->first;
    if (dice)
        *dice = p->dice;
    play_revert(pl, p->first);
    /* the title lives until the next commit or undo */
    mem_free(pl->undone);
    pl->undone = p->title;
    return pl->undone;
}
