/* reach.c — the squares a unit can reach in one Movement Action (hon.h: hon_reach,
 * hon_reach_draw), from its square or from aboard a landing craft or vehicle (its first step gets
 * it out): a search over the board's geometry in C, every decision asked of the rules'
 * queries that the procedure movement_action asks (rules/movement.hon: takes_movement_action
 * first, then step_allowed, step_cost, may_end_move, and for a counter on two squares
 * rear_square, where its rear goes; far_steps, the squares not next to the unit one step may
 * reach: out from under a higher position), so a listed path given to `move` is accepted, a square not
 * listed cannot be reached, and a unit the Movement Action refuses is refused alike (E228,
 * refusal.h). Each question is asked with the unit standing where the move would have brought
 * it, carrying the markers the steps before gave it (step_marks, such as an Urban Fighter's used
 * opening), as the procedure asks it; the unit is put back where it stood, with the markers it
 * had. Over session.h, view.h (the picture) and vm.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "play.h"
#include "refusal.h"
#include "view.h"
#include "vm.h"

#define WHERE    "<reach>"
#define NO_PREV  8  /* the direction index of a search state with no step before it */
#define FAR_PREV 9  /* ... of one reached by a step from a square not next to it (far_steps) */
#define NO_REAR  8  /* the direction index of the rear of a counter on one square */
#define NDIR     9  /* the 8 directions and none */
#define NPREV    10 /* the 8 directions, none, and far */
#define NMARKS   2  /* the distinct markers step_marks may give along the paths of one search */
#define NMASK    (1 << NMARKS)
/* states per square: the way it was entered, its rear's direction, the markers given so far */
#define NSTATE  (NPREV * NDIR * NMASK)
#define FAR_MAX 64 /* the squares of far_steps tried from one state, at most */

/* The queries the search asks, as the Movement Action asks them; rear is -1 when the rules
 * declare no rear_square (a counter on two squares then keeps its facing), marks -1 when they
 * declare no step_marks (no step gives a marker), far -1 when they declare no far_steps (every
 * step goes to one of the eight squares around). */
typedef struct reach_queries {
    int32_t allowed, cost, may_end, rear, marks, far;
} reach_queries;

/* A finished search. A search state is numbered (((square * NPREV + the direction back to the
 * square before it, or NO_PREV, or FAR_PREV: the square of the state before, parent) * NDIR +
 * the direction to the rear square) * NMASK + the set of the markers step_marks gave on the way,
 * bit i for mark[i]); only the states the search reached are stored, each in a slot (a hash
 * table from the state's number to its slot): the state's number, the least squares spent to
 * stand there, the slot of the state before (-1 for a start), whether it waits in the queue,
 * and the next slot of the same square. Per square: its first slot (-1: none reached) and the
 * slot the listing gives (-1: the square cannot be reached, or the move may not end there).
 * So the memory grows with the states reached, plus 8 bytes a square. */
typedef struct reach_map {
    int32_t unit;
    int32_t carrier; /* the landing craft or vehicle the unit starts aboard, or -1 */
    int start, start_rear, nsq;
    int start2; /* aboard a carrier on two squares, its other square (a second start), or -1 */
    uint32_t mark[NMARKS]; /* the marker ids step_marks gave so far, in the order first seen */
    uint32_t had[NMARKS];  /* how many of each the unit carried before the search */
    int nmark;
    int32_t *key;    /* per slot: the state's number */
    int64_t *spent;  /* per slot */
    int32_t *parent; /* per slot */
    bool *queued;    /* per slot */
    int32_t *next;   /* per slot */
    size_t nslot, cap;
    int32_t *table; /* tsize entries (a power of two), slot or -1, linear probing */
    size_t tsize;
    int32_t *first; /* per square */
    int32_t *best;  /* per square */
    size_t count;   /* squares with a best state */
} reach_map;

static void map_free(reach_map *m)
{
    mem_free(m->key);
    mem_free(m->spent);
    mem_free(m->parent);
    mem_free(m->queued);
    mem_free(m->next);
    mem_free(m->table);
    mem_free(m->first);
    mem_free(m->best);
}

static size_t state_hash(int32_t s, size_t tsize)
{
    return (size_t)(((uint32_t)s * 2654435761u) & (uint32_t)(tsize - 1));
}

/* The slot of state s, or -1 when the search has not reached it. */
static int32_t slot_find(const reach_map *m, int32_t s)
{
    for (size_t h = state_hash(s, m->tsize);; h = (h + 1) & (m->tsize - 1)) {
        int32_t k = m->table[h];
        if (k < 0 || m->key[k] == s)
            return k;
    }
}

static bool grow(void **p, size_t n, size_t size)
{
    void *q = mem_realloc(*p, n * size);
    if (!q)
        return false;
    *p = q;
    return true;
}

/* The slot of state s (standing on square sq), a new one (not reached: spent -1) when it has
 * none; -1 when out of memory. */
static int32_t slot_of(reach_map *m, int32_t s, int sq)
{
    int32_t k = slot_find(m, s);
    if (k >= 0)
        return k;
    if (m->nslot == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        if (cap > INT32_MAX || !grow((void **)&m->key, cap, sizeof *m->key) ||
            !grow((void **)&m->spent, cap, sizeof *m->spent) ||
            !grow((void **)&m->parent, cap, sizeof *m->parent) ||
            !grow((void **)&m->queued, cap, sizeof *m->queued) ||
            !grow((void **)&m->next, cap, sizeof *m->next))
            return -1;
        m->cap = cap;
    }
    if ((m->nslot + 1) * 2 > m->tsize) { /* at most half full */
        size_t tsize = m->tsize * 2;
        int32_t *t = mem_malloc(tsize * sizeof *t);
        if (!t)
            return -1;
        for (size_t i = 0; i < tsize; i++)
            t[i] = -1;
        for (size_t i = 0; i < m->nslot; i++) {
            size_t h = state_hash(m->key[i], tsize);
            while (t[h] >= 0)
                h = (h + 1) & (tsize - 1);
            t[h] = (int32_t)i;
        }
        mem_free(m->table);
        m->table = t;
        m->tsize = tsize;
    }
    k = (int32_t)m->nslot++;
    m->key[k] = s;
    m->spent[k] = -1;
    m->parent[k] = -1;
    m->queued[k] = false;
    m->next[k] = m->first[sq];
    m->first[sq] = k;
    size_t h = state_hash(s, m->tsize);
    while (m->table[h] >= 0)
        h = (h + 1) & (m->tsize - 1);
    m->table[h] = k;
    return k;
}

/* Query `name` with the parameter types `want` (n of them) and result `result`; -1 (reported,
 * E401) when the rules declare none that fits. */
static int32_t movement_query(hon_vm *vm, const char *name, const uint32_t *want, uint32_t n,
                              uint32_t result, const char *signature)
{
    const res_program *p = vm->pg->res;
    int32_t q = model_find_query(p, name);
    bool fits = q >= 0 && p->queries[q].nparams == n && p->queries[q].result == result;
    for (uint32_t i = 0; fits && i < n; i++)
        fits = p->queries[q].params[i].type == want[i];
    if (!fits) {
        session_report(vm, E_NO_SUCH_QUERY, WHERE,
                       "the rules declare no query %s: `reach` asks the queries the Movement "
                       "Action asks (rules/movement.hon)",
                       signature);
        return -1;
    }
    return q;
}

static bool find_queries(hon_vm *vm, reach_queries *rq)
{
    static const uint32_t allowed[] = { T_UNIT, T_SQUARE, T_SQUARE, T_SQUARE, T_INT };
    static const uint32_t cost[] = { T_UNIT, T_SQUARE, T_SQUARE };
    static const uint32_t end[] = { T_UNIT, T_SQUARE, T_SQUARE, T_SQUARE };
    rq->allowed = movement_query(
        vm, "step_allowed", allowed, 5, T_VERDICT,
        "step_allowed(u: unit, prev: square, from: square, dest: square, spent: int) -> verdict");
    rq->cost = rq->allowed < 0 ? -1
                               : movement_query(vm, "step_cost", cost, 3, T_INT,
                                                "step_cost(u: unit, from: square, dest: square) "
                                                "-> int");
    rq->may_end = rq->cost < 0 ? -1
                               : movement_query(vm, "may_end_move", end, 4, T_VERDICT,
                                                "may_end_move(u: unit, start: square, from: "
                                                "square, sq: square) -> verdict");
    const res_program *p = vm->pg->res;
    rq->rear = model_find_query(p, "rear_square");
    if (rq->rear >= 0) {
        const res_query *q = &p->queries[rq->rear];
        const res_type *t = &p->types[q->result];
        if (q->nparams != 3 || q->params[0].type != T_UNIT || q->params[1].type != T_SQUARE ||
            q->params[2].type != T_SQUARE || t->kind != RT_LIST || t->arg != T_SQUARE)
            rq->rear = -1;
    }
    rq->marks = model_find_query(p, "step_marks");
    if (rq->marks >= 0) {
        const res_query *q = &p->queries[rq->marks];
        const res_type *t = &p->types[q->result];
        if (q->nparams != 3 || q->params[0].type != T_UNIT || q->params[1].type != T_SQUARE ||
            q->params[2].type != T_SQUARE || t->kind != RT_LIST ||
            p->types[t->arg].kind != RT_ENUM || p->types[t->arg].arg != E_MARKER)
            rq->marks = -1;
    }
    rq->far = model_find_query(p, "far_steps");
    if (rq->far >= 0) {
        const res_query *q = &p->queries[rq->far];
        const res_type *t = &p->types[q->result];
        if (q->nparams != 3 || q->params[0].type != T_UNIT || q->params[1].type != T_SQUARE ||
            q->params[2].type != T_SQUARE || t->kind != RT_LIST || t->arg != T_SQUARE)
            rq->far = -1;
    }
    return rq->may_end >= 0;
}

/* Whether the unit takes Movement Actions at all: the verdict query
 * takes_movement_action(u: unit), when the rules declare it, asked in an evaluation of its own
 * as the Movement Action's `require` asks it. HON_OK when it permits (or is not declared); on
 * forbid HON_ERR_RUNTIME, reported as that require's refusal (E228, the forbidding rule and its
 * citations, hon_last_refusal); a rule's error as such. */
static hon_status takes_movement_action(hon_vm *vm, int32_t who_id)
{
    const res_program *p = vm->pg->res;
    int32_t q = model_find_query(p, "takes_movement_action");
    if (q < 0 || p->queries[q].nparams != 1 || p->queries[q].params[0].type != T_UNIT ||
        p->queries[q].result != T_VERDICT)
        return HON_OK;
    hon_status st = session_begin(vm, NULL, false);
    if (st != HON_OK)
        return st;
    val who = { .type = T_UNIT, .u.i = who_id }, v;
    uint32_t rule = UINT32_MAX;
    if (!vm_ask(&vm->x, (uint32_t)q, &who, 1, &v, &rule) ||
        (!v.u.i && !refusal_fail(&vm->x, (uint32_t)q, &who, 1, rule, "a Movement Action")))
        st = session_error(vm, false);
    state_end(&vm->x);
    return st;
}

/* Asks query q on n args in an evaluation of its own (its own step budget and values): the
 * answer's integer (a verdict: 1 permit) into *out. HON_ERR_RUNTIME (reported) on an error. */
static hon_status ask(hon_vm *vm, int32_t q, const val *args, uint32_t n, int64_t *out)
{
    hon_status st = session_begin(vm, NULL, false);
    if (st != HON_OK)
        return st;
    val v;
    if (vm_call(&vm->x, false, (uint32_t)q, args, n, &v))
        *out = v.u.i;
    else
        st = session_error(vm, false);
    state_end(&vm->x);
    return st;
}

/* The rear square of a counter on two squares whose front steps from `from` to dest, standing
 * on `from` now: rear_square's answer (a list of at most one square) into *rear, -1 for none.
 * HON_ERR_RUNTIME (reported) on an error. */
static hon_status ask_rear(hon_vm *vm, int32_t q, const val *args, int *rear)
{
    *rear = -1;
    hon_status st = session_begin(vm, NULL, false);
    if (st != HON_OK)
        return st;
    val v;
    if (vm_call(&vm->x, false, (uint32_t)q, args, 3, &v)) {
        if (v.u.list && v.u.list->len > 0)
            *rear = scene_square(vm->sc, v.u.list->items[0].u.i);
    } else
        st = session_error(vm, false);
    state_end(&vm->x);
    return st;
}

/* The squares far_steps answers (query q on the 3 args), at most cap of them, into out; their
 * number into *n. HON_ERR_RUNTIME (reported) on an error. */
static hon_status ask_squares(hon_vm *vm, int32_t q, const val *args, int *out, size_t cap,
                              size_t *n)
{
    *n = 0;
    hon_status st = session_begin(vm, NULL, false);
    if (st != HON_OK)
        return st;
    val v;
    if (vm_call(&vm->x, false, (uint32_t)q, args, 3, &v)) {
        for (size_t i = 0; v.u.list && i < v.u.list->len && *n < cap; i++)
            out[(*n)++] = scene_square(vm->sc, v.u.list->items[i].u.i);
    } else
        st = session_error(vm, false);
    state_end(&vm->x);
    return st;
}

static val square_val(const scene *sc, int sq)
{
    return (val){ .type = T_SQUARE, .u.i = scene_square_value(sc, sq) };
}

/* The square the search state (its number s, or its slot k) stands on, the one before it
 * (itself at the start), and the square of its rear (-1 on one square). */
static int state_square(int32_t s)
{
    return s / NSTATE;
}

static int state_prev(const geo_grid *g, const reach_map *m, int32_t k)
{
    int32_t s = m->key[k];
    int d = (s / (NDIR * NMASK)) % NPREV;
    if (d == FAR_PREV)
        return state_square(m->key[m->parent[k]]);
    return d == NO_PREV ? s / NSTATE : geo_neighbour(g, s / NSTATE, (geo_dir)d);
}

static int state_rear(const geo_grid *g, int32_t s)
{
    int d = (s / NMASK) % NDIR;
    return d == NO_REAR ? -1 : geo_neighbour(g, s / NSTATE, (geo_dir)d);
}

/* The markers step_marks gave on the way to state s: bit i for mark[i]. */
static int state_marks(int32_t s)
{
    return s % NMASK;
}

static int32_t state_of(int sq, int prev_dir, int rear_dir, int marks)
{
    return (((int32_t)sq * NPREV + prev_dir) * NDIR + rear_dir) * NMASK + marks;
}

/* Sets the unit's count of each marker step_marks gave so far: at least one where state s has
 * it, what it had before the search elsewhere (the whole search leaves it as it found it). */
static void carry_marks(hon_vm *vm, const reach_map *m, int32_t s)
{
    unit *un = unit_get(vm->sc->units, m->unit);
    for (int i = 0; un && i < m->nmark; i++)
        un->markers[m->mark[i]] = state_marks(s) & (1 << i) && m->had[i] == 0 ? 1 : m->had[i];
}

/* The set of state marks after a step from a state with `marks` whose step_marks answer is the
 * list v: each marker's bit, a marker not seen before taking the next free one. -1 (reported,
 * E401) when more than NMARKS distinct markers come up in one search. */
static int add_marks(hon_vm *vm, reach_map *m, const val *v, int marks)
{
    for (size_t k = 0; v->u.list && k < v->u.list->len; k++) {
        uint32_t id = (uint32_t)v->u.list->items[k].u.i;
        int i = 0;
        while (i < m->nmark && m->mark[i] != id)
            i++;
        if (i == m->nmark) {
            if (m->nmark == NMARKS) {
                session_report(vm, E_NO_SUCH_QUERY, WHERE,
                               "step_marks gives more than %d different markers along the "
                               "paths of one unit: `reach` carries at most %d",
                               NMARKS, NMARKS);
                return -1;
            }
            m->mark[i] = id;
            m->had[i] = unit_marker_count(vm->sc->units, m->unit, id);
            m->nmark++;
        }
        marks |= 1 << i;
    }
    return marks;
}

/* step_marks(u, from, dest) on args, the unit standing on `from`: the markers it names added to
 * *marks (add_marks). HON_ERR_RUNTIME (reported) on an error, HON_ERR_NOT_FOUND (reported) when
 * the search would carry too many markers. */
static hon_status ask_marks(hon_vm *vm, reach_map *m, int32_t q, const val *args, int *marks)
{
    hon_status st = session_begin(vm, NULL, false);
    if (st != HON_OK)
        return st;
    val v;
    if (!vm_call(&vm->x, false, (uint32_t)q, args, 3, &v))
        st = session_error(vm, false);
    else if ((*marks = add_marks(vm, m, &v, *marks)) < 0)
        st = HON_ERR_NOT_FOUND;
    state_end(&vm->x);
    return st;
}

/* Stands the unit where the state of slot k has brought it (the board as the procedure asks its questions
 * there): the start state of a unit aboard puts it back aboard its carrier, as the Movement
 * Action asks its first step with the unit still embarked (rules/movement.hon: movement_step.take
 * disembarks it only once the step is allowed). HON_ERR_MEMORY when the board ran out of memory. */
static hon_status stand(hon_vm *vm, const reach_map *m, int32_t k)
{
    board *b = scene_board(vm->sc);
    int32_t s = m->key[k];
    geo_status st = m->carrier >= 0 && m->parent[k] < 0
                        ? board_restore_embarked(b, m->unit, m->carrier)
                        : board_place_unit(b, m->unit, state_square(s), state_rear(vm->sc->g, s));
    carry_marks(vm, m, s);
    return st == GEO_OK ? HON_OK : HON_ERR_MEMORY;
}

/* The direction from square a to its neighbour b. */
static int dir_to(const geo_grid *g, int a, int b)
{
    for (int d = 0; d < 8; d++)
        if (geo_neighbour(g, a, (geo_dir)d) == b)
            return d;
    return NO_PREV;
}

/* The cheapest state of square sq (reached) where the move may end, as may_end_move says for the
 * step into sq from that state's square before it, into m->best[sq]; the states are asked from
 * the cheapest on, so the listing gives the cheapest way to end there. */
static hon_status pick_end(hon_vm *vm, const reach_queries *rq, reach_map *m, val who, int sq)
{
    const scene *sc = vm->sc;
    bool asked[NSTATE] = { false };
    for (;;) {
        int32_t pick = -1;
        for (int32_t k = m->first[sq]; k >= 0; k = m->next[k])
            /* a start state (no parent) is where the unit stood, not a square it reached */
            if (!asked[m->key[k] % NSTATE] && m->spent[k] >= 0 && m->parent[k] >= 0 &&
                (pick < 0 || m->spent[k] < m->spent[pick] ||
                 (m->spent[k] == m->spent[pick] && m->key[k] < m->key[pick])))
                pick = k;
        if (pick < 0)
            return HON_OK;
        asked[m->key[pick] % NSTATE] = true;
        hon_status st = stand(vm, m, m->parent[pick]);
        if (st != HON_OK)
            return st;
        int32_t root = pick; /* the start the path to pick began on */
        while (m->parent[root] >= 0)
            root = m->parent[root];
        val e[4] = { who, square_val(sc, state_square(m->key[root])),
                     square_val(sc, state_prev(sc->g, m, pick)), square_val(sc, sq) };
        int64_t ok = 0;
        st = ask(vm, rq->may_end, e, 4, &ok);
        if (st != HON_OK)
            return st;
        if (ok) {
            m->best[sq] = pick;
            m->count++;
            return HON_OK;
        }
    }
}

/* The queue of the slots to search from: a ring, grown when full. */
typedef struct slot_queue {
    int32_t *q;
    size_t cap, head, len;
} slot_queue;

static bool queue_push(slot_queue *r, int32_t k)
{
    if (r->len == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        int32_t *q = mem_malloc(cap * sizeof *q);
        if (!q)
            return false;
        for (size_t i = 0; i < r->len; i++)
            q[i] = r->q[(r->head + i) % r->cap];
        mem_free(r->q);
        *r = (slot_queue){ .q = q, .cap = cap, .head = 0, .len = r->len };
    }
    r->q[(r->head + r->len++) % r->cap] = k;
    return true;
}

static int32_t queue_pop(slot_queue *r)
{
    int32_t k = r->q[r->head];
    r->head = (r->head + 1) % r->cap;
    r->len--;
    return k;
}

/* The search from the unit's square: every step the rules allow from every state reached, with
 * the least squares spent to get there (a state reached again with fewer is searched again);
 * then, per square, the cheapest state where the move may end (pick_end). */
static hon_status search(hon_vm *vm, const reach_queries *rq, reach_map *m)
{
    const scene *sc = vm->sc;
    const geo_grid *g = sc->g;
    slot_queue queue = { 0 };
    m->first = mem_malloc(((size_t)m->nsq + 1) * sizeof *m->first);
    m->best = mem_malloc(((size_t)m->nsq + 1) * sizeof *m->best);
    m->tsize = 512;
    m->table = mem_malloc(m->tsize * sizeof *m->table);
    hon_status st = m->first && m->best && m->table ? HON_OK : HON_ERR_MEMORY;
    for (int sq = 0; st == HON_OK && sq < m->nsq; sq++)
        m->first[sq] = m->best[sq] = -1;
    for (size_t i = 0; st == HON_OK && i < m->tsize; i++)
        m->table[i] = -1;
    int32_t s0 = state_of(m->start, NO_PREV,
                          m->start_rear < 0 ? NO_REAR : dir_to(g, m->start, m->start_rear), 0);
    /* aboard a carrier on two squares, the unit may get out next to either (movement.hon's
     * move_start): one start state per square */
    int32_t seeds[2] = { s0, m->start2 >= 0 ? state_of(m->start2, NO_PREV, NO_REAR, 0) : -1 };
    for (int i = 0; i < 2 && st == HON_OK && seeds[i] >= 0; i++) {
        int32_t k = slot_of(m, seeds[i], state_square(seeds[i]));
        if (k < 0 || !queue_push(&queue, k)) {
            st = HON_ERR_MEMORY;
            break;
        }
        m->spent[k] = 0;
        m->parent[k] = -1;
        m->queued[k] = true;
    }
    val who = { .type = T_UNIT, .u.i = m->unit };
    while (st == HON_OK && queue.len) {
        int32_t ks = queue_pop(&queue);
        int32_t s = m->key[ks];
        m->queued[ks] = false;
        int from = state_square(s), prev = state_prev(g, m, ks);
        st = stand(vm, m, ks);
        /* the eight squares around, then those far_steps names (out from under a bridge) */
        int dests[8 + FAR_MAX];
        size_t nd = 0, nfar = 0;
        for (int d = 0; d < 8; d++)
            dests[nd++] = geo_neighbour(g, from, (geo_dir)d);
        if (st == HON_OK && rq->far >= 0) {
            val f[3] = { who, square_val(sc, prev), square_val(sc, from) };
            st = ask_squares(vm, rq->far, f, dests + nd, FAR_MAX, &nfar);
            nd += nfar;
        }
        for (size_t k = 0; k < nd && st == HON_OK; k++) {
            int dest = dests[k];
            if (dest < 0 || dest == from)
                continue;
            val a[5] = { who,
                         square_val(sc, prev),
                         square_val(sc, from),
                         square_val(sc, dest),
                         { .type = T_INT, .u.i = m->spent[ks] } };
            int64_t ok = 0, cost = 0;
            if ((st = ask(vm, rq->allowed, a, 5, &ok)) != HON_OK || !ok)
                continue;
            val c[3] = { who, a[2], a[3] };
            if ((st = ask(vm, rq->cost, c, 3, &cost)) != HON_OK)
                break;
            int rear = -1;
            if (m->carrier >= 0 && m->parent[ks] < 0 && rq->rear >= 0) {
                /* getting out: a counter on two squares puts its rear where rear_square says
                 * (none for a counter on one square) */
                if ((st = ask_rear(vm, rq->rear, c, &rear)) != HON_OK)
                    break;
            } else if (state_rear(g, s) >= 0) { /* a counter on two squares: where its rear goes */
                if (rq->rear >= 0 && (st = ask_rear(vm, rq->rear, c, &rear)) != HON_OK)
                    break;
                if (rq->rear < 0) /* no rule says: it keeps its facing */
                    rear = geo_neighbour(g, dest, (geo_dir)((s / NMASK) % NDIR));
                if (rear < 0 || geo_side_between(g, dest, rear) < 0)
                    continue; /* no rear, or one not beside the front: no place to stand */
            }
            int marks = state_marks(s);
            /* the markers the step gives, asked before it is taken */
            if (rq->marks >= 0 && (st = ask_marks(vm, m, rq->marks, c, &marks)) != HON_OK)
                break;
            int back = dir_to(g, dest, from); /* NO_PREV: a far step */
            int32_t t = state_of(dest, back == NO_PREV ? FAR_PREV : back,
                                 rear < 0 ? NO_REAR : dir_to(g, dest, rear), marks);
            int64_t now = m->spent[ks] + cost;
            int32_t kt = slot_of(m, t, dest);
            if (kt < 0) {
                st = HON_ERR_MEMORY;
                break;
            }
            if (m->spent[kt] >= 0 && m->spent[kt] <= now)
                continue;
            m->spent[kt] = now;
            m->parent[kt] = ks;
            if (!m->queued[kt]) {
                if (!queue_push(&queue, kt)) {
                    st = HON_ERR_MEMORY;
                    break;
                }
                m->queued[kt] = true;
            }
        }
    }
    for (int sq = 0; st == HON_OK && sq < m->nsq; sq++)
        if (sq != m->start)
            st = pick_end(vm, rq, m, who, sq);
    mem_free(queue.q);
    return st;
}

/* Runs the search for the board unit named `name` ("$rifle1" or "rifle1") into *m; a unit aboard
 * a landing craft or vehicle starts aboard, on its carrier's front square and, for a carrier on
 * two squares, on its rear too (the Movement Action starts from the one next to its first step:
 * movement.hon's move_start), and its first step gets it out (the rules' step_allowed asks
 * can_disembark). Reported: HON_ERR_NOT_FOUND for no board, an unknown unit, one neither on a
 * square nor aboard a carrier that is, or rules without the Movement Action's queries; the
 * queries' run-time errors. */
static hon_status reach_map_of(hon_vm *vm, const char *name, reach_map *m)
{
    *m = (reach_map){ 0 };
    if (!vm || !name)
        return HON_ERR_NOT_FOUND;
    if (!vm->sc) {
        session_report(vm, E_NO_BOARD, WHERE, "no board is loaded: load a scenario first");
        return HON_ERR_NOT_FOUND;
    }
    const char *bare = name[0] == '$' ? name + 1 : name;
    int32_t u = scene_unit(vm->sc, bare);
    if (u < 0) {
        session_no_unit(vm, WHERE, bare);
        return HON_ERR_NOT_FOUND;
    }
    int s0, s1;
    const board *b = vm->sc->b;
    if (!board_unit_squares(b, u, &s0, &s1)) {
        session_report(vm, E_OFF_BOARD, WHERE, "`$%s` stands on no square of the board", bare);
        return HON_ERR_NOT_FOUND;
    }
    reach_queries rq;
    if (!find_queries(vm, &rq))
        return HON_ERR_NOT_FOUND;
    /* the Movement Action's queries check steps along traced lines, which hex boards do not
     * have (board.md): say so here rather than from inside the rules */
    if (vm->sc->g->topo == GEO_HEX) {
        session_report(vm, E_TOPOLOGY, WHERE,
                       "a Movement Action needs a square board: the rules check its steps along "
                       "lines between squares, which a hex board does not have");
        return HON_ERR_NOT_FOUND;
    }
    hon_status st = takes_movement_action(vm, u);
    if (st != HON_OK)
        return st;
    m->unit = u;
    m->carrier = board_unit_embarked_in(b, u);
    m->start = s0;
    m->start_rear = m->carrier >= 0 ? -1 : s1; /* aboard, the carrier's squares are not its own */
    m->start2 = m->carrier >= 0 && s1 >= 0 ? s1 : -1;
    m->nsq = geo_square_count(vm->sc->g);
    play_pos was = play_pos_of(b, u);
    st = search(vm, &rq, m);
    carry_marks(vm, m, 0); /* the markers it carried before (state 0 has none given) */
    /* where it stood: aboard, or at its place among the units of its squares */
    board *put = scene_board(vm->sc);
    if ((was.in >= 0
             ? board_restore_embarked(put, u, was.in)
             : board_place_unit_at(put, u, was.sq0, was.sq1, was.pos0, was.pos1)) != GEO_OK &&
        st == HON_OK)
        st = HON_ERR_MEMORY;
    if (st != HON_OK)
        map_free(m);
    return st;
}

/* The squares of the path to the state of slot t, from the first step on, into path (at most
 * cap); their number. */
static size_t path_of(const reach_map *m, int32_t t, int *path, size_t cap)
{
    size_t n = 0;
    for (int32_t s = t; s >= 0 && m->parent[s] >= 0; s = m->parent[s])
        n++;
    size_t k = n < cap ? n : cap;
    size_t i = n;
    for (int32_t s = t; s >= 0 && m->parent[s] >= 0; s = m->parent[s])
        if (--i < k)
            path[i] = state_square(m->key[s]);
    return k;
}

/* The reachable squares in the listing's order: by squares spent, then across the board. */
static int32_t *listing_order(const reach_map *m)
{
    int32_t *order = mem_calloc(m->count + 1, sizeof *order);
    if (!order)
        return NULL;
    size_t n = 0;
    for (int sq = 0; sq < m->nsq; sq++)
        if (m->best[sq] >= 0)
            order[n++] = sq;
    for (size_t i = 1; i < n; i++) /* insertion sort: stable, boards are small */
        for (size_t j = i; j > 0 && m->spent[m->best[order[j]]] < m->spent[m->best[order[j - 1]]];
             j--) {
            int32_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    return order;
}

hon_status hon_reach(hon_vm *vm, const char *who, hon_answer **out)
{
    if (out)
        *out = NULL;
    reach_map m;
    hon_status st = reach_map_of(vm, who, &m);
    if (st != HON_OK)
        return st;
    const geo_grid *g = vm->sc->g;
    int32_t *order = listing_order(&m);
    /* a path visits each state at most once (a state is entered again only for fewer squares
     * spent) */
    int *path = mem_calloc(m.nslot + 1, sizeof *path);
    strbuf text = { 0 }, json = { 0 };
    char sq[16];
    const char *name = scene_unit_name(vm->sc, m.unit);
    const char *carrier = m.carrier >= 0 ? scene_unit_name(vm->sc, m.carrier) : NULL;
    geo_format_square(g, m.start, sq, sizeof sq);
    sb_printf(&text,
              "$%s from %s%s%s%s: %zu square%s in one Movement Action (square, squares "
              "spent, path)\n",
              name, sq, carrier ? " (aboard $" : "", carrier ? carrier : "", carrier ? ")" : "",
              m.count, m.count == 1 ? "" : "s");
    sb_puts(&json, "{\"unit\": ");
    sb_json_str(&json, name);
    sb_puts(&json, ", \"from\": ");
    sb_json_str(&json, sq);
    if (carrier) {
        sb_puts(&json, ", \"aboard\": ");
        sb_json_str(&json, carrier);
    }
    sb_puts(&json, ", \"squares\": [");
    for (size_t i = 0; order && path && i < m.count; i++) {
        int32_t t = m.best[order[i]];
        size_t n = path_of(&m, t, path, m.nslot);
        geo_format_square(g, order[i], sq, sizeof sq);
        sb_printf(&text, "  %-4s %2" PRId64 "  ", sq, m.spent[t]);
        sb_printf(&json, "%s{\"square\": ", i ? ", " : "");
        sb_json_str(&json, sq);
        sb_printf(&json, ", \"spent\": %" PRId64 ", \"path\": [", m.spent[t]);
        for (size_t k = 0; k < n; k++) {
            geo_format_square(g, path[k], sq, sizeof sq);
            sb_printf(&text, "%s%s", k ? " " : "", sq);
            sb_puts(&json, k ? ", " : "");
            sb_json_str(&json, sq);
        }
        sb_putc(&text, '\n');
        sb_puts(&json, "]}");
    }
    sb_puts(&json, "]}");
    if (!order || !path)
        text.oom = true;
    mem_free(order);
    mem_free(path);
    map_free(&m);
    const state_setup *s = session_setup(vm);
    char *t = sb_take(&text);
    hon_answer *a = s ? session_answer(vm, s->edition, s->readings, t, sb_take(&json),
                                       mem_strdup("(reach has no trace: every step asked "
                                                  "step_allowed, step_cost and may_end_move)\n"))
                      : NULL;
    if (!s) {
        mem_free(t);
        sb_free(&json);
    }
    if (!a)
        return HON_ERR_MEMORY;
    if (out)
        *out = a;
    else
        hon_answer_free(a);
    return HON_OK;
}

hon_status hon_reach_draw(hon_vm *vm, const char *who, FILE *out, bool svg)
{
    if (!out)
        return HON_ERR_NOT_FOUND;
    reach_map m;
    hon_status st = reach_map_of(vm, who, &m);
    if (st != HON_OK)
        return st;
    char *marks = mem_malloc((size_t)m.nsq + 1);
    if (!marks) {
        map_free(&m);
        return HON_ERR_MEMORY;
    }
    for (int sq = 0; sq < m.nsq; sq++) {
        int64_t c = m.best[sq] >= 0 ? m.spent[m.best[sq]] : -1;
        marks[sq] = sq == m.start ? '@' : c < 0 ? ' ' : c > 9 ? '+' : (char)('0' + c);
    }
    marks[m.nsq] = '\0';
    char key[224], from[16];
    geo_format_square(vm->sc->g, m.start, from, sizeof from);
    const char *carrier = m.carrier >= 0 ? scene_unit_name(vm->sc, m.carrier) : NULL;
    snprintf(key, sizeof key,
             "reach: $%s from %s (@%s%.40s); a digit: a square it can reach, the squares it "
             "spends to get there (+ past 9)",
             scene_unit_name(vm->sc, m.unit), from, carrier ? ", aboard $" : "",
             carrier ? carrier : "");
    st = view_draw(vm, out, NULL, NULL, svg, marks, key, NULL);
    mem_free(marks);
    map_free(&m);
    return st;
}
