/* runtime/board.c — storage of the board model (board.h).
 *
 * Per-square arrays for elevation and element membership; features on squares, sides and
 * interspaces and the units standing on squares are singly linked lists in one node pool
 * (most places hold nothing, so a head index per place costs 4 bytes). A side's features
 * with ids below 64 are also kept as one bit each, and each square's terrain type beside its
 * element (board_view, read inline by board.h's board_side_has_id and board_terrain_at_sq). Square, side and interspace indexes are those of geo.c.
 */
#include "board.h"

#include <string.h>

#include "mem.h"

typedef struct node {
    board_feature f; /* for unit lists f.id is the unit id */
    int next;        /* next node, -1 at the end */
} node;

typedef struct element {
    int type;
    char *name;
    int value, facing;
    int head[2]; /* first node of its named values, of its markers (BOARD_AT_ELEMENT_*) */
} element;

typedef struct unit_pos {
    bool present;
    int sq0, sq1; /* -1 when embarked */
    int in;       /* transport, or -1 */
    /* the units embarked in this one, a list in id order through their next_aboard (-1 ends
     * it): kept by every embarking and lifting (unit_lift), so that board_units_in reads a
     * carrier's passengers, not every unit (a 20,000-unit board's set-up checks ask it once an
     * embarked unit, quadratic before sitting 20) */
    int first_aboard, next_aboard;
    char *label;
} unit_pos;

/* The runs of one side feature (board_side_runs), kept until a side feature is put or taken.
 * Arrays of one slot per side, allocated on the first call; the struct itself is allocated with
 * the board, so that a const board can still fill it. */
typedef struct side_runs {
    int id;         /* the feature whose runs are kept, -1 for none */
    int nruns;      /* runs found */
    int *run_of;    /* per side: its run, -1 when it lacks the feature */
    int *start;     /* run r's sides are sides[start[r] .. start[r + 1]) */
    int *sides;     /* the sides carrying the feature, run after run */
    unsigned *seen; /* per run: the stamp of the last call that gave it */
    unsigned stamp;
} side_runs;

typedef struct name_entry {
    char *name;
    char symbol;
} name_entry;

struct board {
    board_view view; /* first: board.h reads it inline (board_side_has_id) */
    /* view.side_bits, writable: per side, a bit for each of its features below BOARD_SIDE_BITS */
    uint64_t *side_bits;
    geo_grid g;
    int *elev;       /* w*h */
    int *elem_at;    /* w*h, -1 */
    int *terrain_at; /* w*h: the type of elem_at's element, -1 (view.terrain_at) */
    element *elems;
    int n_elems, cap_elems;
    int *head[BOARD_AT_ELEMENT_VALUE]; /* per square / side / interspace / number: first node */
    int n_place[BOARD_NPLACES];
    int *unit_head; /* per square: first node of its unit list (view.unit_head) */
    node *nodes;
    int n_nodes, cap_nodes, free_node;
    unit_pos *units;
    int cap_units;
    name_entry *names[BOARD_NKINDS];
    int cap_names[BOARD_NKINDS];
    side_runs *runs; /* never NULL */
};

static void runs_release(side_runs *r);

static char *dupstr(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = mem_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int *new_ints(size_t n, int fill)
{
    int *a = mem_malloc((n ? n : 1) * sizeof *a);
    if (a)
        for (size_t i = 0; i < n; i++)
            a[i] = fill;
    return a;
}

board *board_new(geo_topology topo, int w, int h)
{
    if (w < 1 || h < 1 || w > GEO_MAX_DIM || h > GEO_MAX_DIM)
        return NULL;
    if (topo != GEO_SQUARE && topo != GEO_HEX)
        return NULL;
    board *b = mem_malloc(sizeof *b);
    if (!b)
        return NULL;
    memset(b, 0, sizeof *b);
    b->g = (geo_grid){ .w = w, .h = h, .topo = topo };
    b->free_node = -1;
    size_t n = (size_t)w * (size_t)h;
    b->n_place[BOARD_AT_SQUARE] = (int)n;
    b->n_place[BOARD_AT_SIDE] = geo_side_count(&b->g);
    b->n_place[BOARD_AT_INTERSPACE] = geo_interspace_count(&b->g);
    b->n_place[BOARD_AT_NUMBERED] = BOARD_MAX_NUMBER;
    b->elev = new_ints(n, 0);
    b->elem_at = new_ints(n, -1);
    b->terrain_at = new_ints(n, -1);
    b->unit_head = new_ints(n, -1);
    b->runs = mem_calloc(1, sizeof *b->runs);
    if (b->runs)
        b->runs->id = -1;
    b->side_bits = mem_calloc((size_t)b->n_place[BOARD_AT_SIDE] + 1, sizeof *b->side_bits);
    b->view.side_bits = b->side_bits;
    b->view.n_sides = b->n_place[BOARD_AT_SIDE];
    b->view.elem_at = b->elem_at;
    b->view.terrain_at = b->terrain_at;
    b->view.elev_at = b->elev;
    b->view.unit_head = b->unit_head;
    bool ok = b->elev && b->elem_at && b->terrain_at && b->unit_head && b->runs && b->side_bits;
    for (int p = 0; p < BOARD_AT_ELEMENT_VALUE; p++) {
        b->head[p] = new_ints((size_t)b->n_place[p], -1);
        ok = ok && b->head[p];
    }
    if (!ok) {
        board_free(b);
        return NULL;
    }
    return b;
}

void board_free(board *b)
{
    if (!b)
        return;
    mem_free(b->elev);
    mem_free(b->elem_at);
    mem_free(b->terrain_at);
    mem_free(b->unit_head);
    mem_free(b->side_bits);
    for (int p = 0; p < BOARD_AT_ELEMENT_VALUE; p++)
        mem_free(b->head[p]);
    for (int i = 0; i < b->n_elems; i++)
        mem_free(b->elems[i].name);
    mem_free(b->elems);
    mem_free(b->nodes);
    if (b->runs)
        runs_release(b->runs);
    mem_free(b->runs);
    for (int i = 0; i < b->cap_units; i++)
        mem_free(b->units[i].label);
    mem_free(b->units);
    for (int k = 0; k < BOARD_NKINDS; k++) {
        for (int i = 0; i < b->cap_names[k]; i++)
            mem_free(b->names[k][i].name);
        mem_free(b->names[k]);
    }
    mem_free(b);
}

const geo_grid *board_grid(const board *b)
{
    return &b->g;
}

static bool sq_ok(const board *b, int sq)
{
    return sq >= 0 && sq < b->n_place[BOARD_AT_SQUARE];
}

/* Grows *arr (of elements of size `size`, capacity *cap) to hold index `need`; new slots are
 * zeroed. */
static bool grow(void **arr, int *cap, int need, size_t size)
{
    if (need < *cap)
        return true;
    int ncap = *cap ? *cap : 8;
    while (ncap <= need)
        ncap *= 2;
    void *p = mem_realloc(*arr, (size_t)ncap * size);
    if (!p)
        return false;
    memset((char *)p + (size_t)*cap * size, 0, (size_t)(ncap - *cap) * size);
    *arr = p;
    *cap = ncap;
    return true;
}

/* ---- elevation ---- */

int board_elevation(const board *b, int sq)
{
    return sq_ok(b, sq) ? b->elev[sq] : 0;
}

geo_status board_set_elevation(board *b, int sq, int elevation)
{
    if (!sq_ok(b, sq))
        return GEO_ERANGE;
    b->elev[sq] = elevation;
    return GEO_OK;
}

/* ---- elements ---- */

static bool elem_ok(const board *b, int e)
{
    return e >= 0 && e < b->n_elems;
}

int board_element_new(board *b, int type, const char *name)
{
    if (type < 0 || type >= BOARD_MAX_ID)
        return -1;
    if (!grow((void **)&b->elems, &b->cap_elems, b->n_elems, sizeof *b->elems))
        return -1;
    char *copy = NULL;
    if (name && !(copy = dupstr(name)))
        return -1;
    b->elems[b->n_elems] = (element){
        .type = type, .name = copy, .value = BOARD_NO_VALUE, .facing = -1, .head = { -1, -1 }
    };
    b->n_place[BOARD_AT_ELEMENT_VALUE] = b->n_place[BOARD_AT_ELEMENT_MARKER] = b->n_elems + 1;
    return b->n_elems++;
}

bool board_element_drop_last(board *b)
{
    int e = b->n_elems - 1;
    if (e < 0 || b->elems[e].head[0] != -1 || b->elems[e].head[1] != -1)
        return false;
    for (int sq = 0; sq < b->n_place[BOARD_AT_SQUARE]; sq++)
        if (b->elem_at[sq] == e)
            return false;
    mem_free(b->elems[e].name);
    b->n_elems = e;
    b->n_place[BOARD_AT_ELEMENT_VALUE] = b->n_place[BOARD_AT_ELEMENT_MARKER] = e;
    return true;
}

geo_status board_element_add(board *b, int elem, int sq)
{
    if (!sq_ok(b, sq) || (elem != -1 && !elem_ok(b, elem)))
        return GEO_ERANGE;
    b->elem_at[sq] = elem;
    b->terrain_at[sq] = elem >= 0 ? b->elems[elem].type : -1;
    return GEO_OK;
}

geo_status board_element_set_attr(board *b, int elem, int value, int facing)
{
    if (!elem_ok(b, elem) || facing < -1 || facing >= GEO_NDIRS)
        return GEO_ERANGE;
    b->elems[elem].value = value;
    b->elems[elem].facing = facing;
    return GEO_OK;
}

bool board_element_attr(const board *b, int elem, int *value, int *facing)
{
    if (!elem_ok(b, elem))
        return false;
    *value = b->elems[elem].value;
    *facing = b->elems[elem].facing;
    return true;
}

int board_element_at(const board *b, int sq)
{
    return sq_ok(b, sq) ? b->elem_at[sq] : -1;
}

int board_terrain(const board *b, int sq)
{
    return sq_ok(b, sq) ? b->terrain_at[sq] : -1;
}

int board_element_count(const board *b)
{
    return b->n_elems;
}
int board_element_type(const board *b, int elem)
{
    return elem_ok(b, elem) ? b->elems[elem].type : -1;
}
const char *board_element_name(const board *b, int elem)
{
    return elem_ok(b, elem) ? b->elems[elem].name : NULL;
}

size_t board_element_squares(const board *b, int elem, int *out, size_t cap)
{
    size_t n = 0;
    if (!elem_ok(b, elem))
        return 0;
    for (int sq = 0; sq < b->n_place[BOARD_AT_SQUARE]; sq++)
        if (b->elem_at[sq] == elem) {
            if (n < cap)
                out[n] = sq;
            n++;
        }
    return n;
}

bool board_element_contains(const board *b, int elem, int sq)
{
    return elem >= 0 && board_element_at(b, sq) == elem;
}

/* True when the neighbour of sq in direction d is off the board or outside elem. */
static bool outside(const board *b, int elem, int sq, geo_dir d)
{
    int q = geo_neighbour(&b->g, sq, d);
    return q < 0 || b->elem_at[q] != elem;
}

bool board_element_corner(const board *b, int elem, int sq)
{
    if (b->g.topo != GEO_SQUARE || !board_element_contains(b, elem, sq))
        return false;
    return (outside(b, elem, sq, GEO_E) || outside(b, elem, sq, GEO_W)) &&
           (outside(b, elem, sq, GEO_N) || outside(b, elem, sq, GEO_S));
}

size_t board_element_outline(const board *b, int elem, int *out, size_t cap)
{
    size_t n = 0;
    if (!elem_ok(b, elem))
        return 0;
    int ns = geo_side_count(&b->g);
    for (int s = 0; s < ns; s++) {
        int a, c;
        if (!geo_side_squares(&b->g, s, &a, &c))
            continue;
        bool ina = a >= 0 && b->elem_at[a] == elem, inc = c >= 0 && b->elem_at[c] == elem;
        if (ina != inc) {
            if (n < cap)
                out[n] = s;
            n++;
        }
    }
    return n;
}

/* ---- feature lists ---- */

static int node_alloc(board *b)
{
    if (b->free_node >= 0) {
        int i = b->free_node;
        b->free_node = b->nodes[i].next;
        return i;
    }
    if (!grow((void **)&b->nodes, &b->cap_nodes, b->n_nodes, sizeof *b->nodes))
        return -1;
    return b->n_nodes++;
}

static void node_release(board *b, int i)
{
    b->nodes[i].next = b->free_node;
    b->free_node = i;
}

/* Inserts a node holding f at position pos of the list at *head (0 first; past the end or
 * negative: at the end); -1 on OOM. */
static int list_insert(board *b, int *head, board_feature f, int pos)
{
    int i = node_alloc(b);
    if (i < 0)
        return -1;
    b->nodes[i].f = f;
    int *link = head;
    for (int k = 0; *link >= 0 && (pos < 0 || k < pos); k++)
        link = &b->nodes[*link].next;
    b->nodes[i].next = *link;
    *link = i;
    return i;
}

/* Unlinks the first node with f.id == id; returns whether one was found. */
static bool list_remove(board *b, int *head, int id)
{
    for (int *link = head; *link >= 0; link = &b->nodes[*link].next)
        if (b->nodes[*link].f.id == id) {
            int i = *link;
            *link = b->nodes[i].next;
            node_release(b, i);
            return true;
        }
    return false;
}

static int list_find(const board *b, int head, int id)
{
    for (int i = head; i >= 0; i = b->nodes[i].next)
        if (b->nodes[i].f.id == id)
            return i;
    return -1;
}

static bool place_ok(const board *b, board_place where, int index)
{
    return (unsigned)where < BOARD_NPLACES && index >= 0 && index < b->n_place[where];
}

/* The head of the list at (where, index), a valid place: an element keeps its own two. */
static int *head_of(board *b, board_place where, int index)
{
    if (where >= BOARD_AT_ELEMENT_VALUE)
        return &b->elems[index].head[where - BOARD_AT_ELEMENT_VALUE];
    return &b->head[where][index];
}

static int head_at(const board *b, board_place where, int index)
{
    if (where >= BOARD_AT_ELEMENT_VALUE)
        return b->elems[index].head[where - BOARD_AT_ELEMENT_VALUE];
    return b->head[where][index];
}

geo_status board_put(board *b, board_place where, int index, board_feature f)
{
    return board_put_at(b, where, index, f, -1);
}

geo_status board_put_at(board *b, board_place where, int index, board_feature f, int pos)
{
    if (!place_ok(b, where, index) || f.id < 0 || f.id >= BOARD_MAX_ID)
        return GEO_ERANGE;
    if (f.facing != -1) {
        if (!sq_ok(b, f.facing))
            return GEO_EINVAL;
        if (where == BOARD_AT_SIDE) {
            int a, c;
            geo_side_squares(&b->g, index, &a, &c);
            if (f.facing != a && f.facing != c)
                return GEO_EINVAL;
        }
    }
    if (where == BOARD_AT_SIDE)
        b->runs->id = -1;
    int i = list_find(b, head_at(b, where, index), f.id);
    if (i >= 0) {
        b->nodes[i].f = f;
        return GEO_OK;
    }
    if (list_insert(b, head_of(b, where, index), f, pos) < 0)
        return GEO_ENOMEM;
    if (where == BOARD_AT_SIDE && f.id < BOARD_SIDE_BITS)
        b->side_bits[index] |= UINT64_C(1) << f.id;
    return GEO_OK;
}

bool board_take(board *b, board_place where, int index, int id)
{
    if (!place_ok(b, where, index))
        return false;
    if (where == BOARD_AT_SIDE) {
        b->runs->id = -1;
        if (id >= 0 && id < BOARD_SIDE_BITS)
            b->side_bits[index] &= ~(UINT64_C(1) << id);
    }
    return list_remove(b, head_of(b, where, index), id);
}

bool board_has(const board *b, board_place where, int index, int id, board_feature *out)
{
    if (!place_ok(b, where, index))
        return false;
    int i = list_find(b, head_at(b, where, index), id);
    if (i < 0)
        return false;
    if (out)
        *out = b->nodes[i].f;
    return true;
}

size_t board_features(const board *b, board_place where, int index, board_feature *out, size_t cap)
{
    if (!place_ok(b, where, index))
        return 0;
    size_t n = 0;
    for (int i = head_at(b, where, index); i >= 0; i = b->nodes[i].next) {
        if (n < cap)
            out[n] = b->nodes[i].f;
        n++;
    }
    return n;
}

bool board_side_has(const board *b, int side, int id, board_feature *out)
{
    return board_has(b, BOARD_AT_SIDE, side, id, out);
}

/* Frees the arrays of r (they are allocated again on the next call). */
static void runs_release(side_runs *r)
{
    mem_free(r->run_of);
    mem_free(r->start);
    mem_free(r->sides);
    mem_free(r->seen);
    r->run_of = r->start = r->sides = NULL;
    r->seen = NULL;
    r->id = -1;
}

/* Finds the runs of side feature id into r (breadth-first from each side not yet in a run, in
 * side order, the run's own sides array serving as the queue). False when out of memory. */
static bool runs_build(const board *b, side_runs *r, int id)
{
    int n = b->n_place[BOARD_AT_SIDE];
    if (!r->run_of) {
        r->run_of = mem_malloc((size_t)n * sizeof *r->run_of);
        r->start = mem_malloc(((size_t)n + 1) * sizeof *r->start);
        r->sides = mem_malloc((size_t)n * sizeof *r->sides);
        r->seen = mem_malloc((size_t)n * sizeof *r->seen);
        if (!r->run_of || !r->start || !r->sides || !r->seen) {
            runs_release(r);
            return false;
        }
    }
    for (int s = 0; s < n; s++)
        r->run_of[s] = -1;
    int found = 0;
    r->nruns = 0;
    r->start[0] = 0;
    for (int s = 0; s < n; s++) {
        if (b->head[BOARD_AT_SIDE][s] < 0 || r->run_of[s] >= 0 || !board_side_has_id(b, s, id))
            continue; /* most sides carry nothing */
        r->run_of[s] = r->nruns;
        r->sides[found++] = s;
        for (int q = r->start[r->nruns]; q < found; q++) {
            int meet[6];
            size_t k = geo_sides_meeting(&b->g, r->sides[q], meet);
            for (size_t i = 0; i < k; i++)
                if (r->run_of[meet[i]] < 0 && board_side_has_id(b, meet[i], id)) {
                    r->run_of[meet[i]] = r->nruns;
                    r->sides[found++] = meet[i];
                }
        }
        r->seen[r->nruns] = 0;
        r->start[++r->nruns] = found;
    }
    r->stamp = 0;
    r->id = id;
    return true;
}

size_t board_side_runs(const board *b, int id, const int *sides, size_t n, int *out, size_t cap)
{
    side_runs *r = b->runs;
    if (id < 0 || id >= BOARD_MAX_ID)
        return 0;
    if (r->id != id && !runs_build(b, r, id))
        return BOARD_NOMEM;
    if (++r->stamp == 0) { /* the stamp wrapped round: forget every run's old one */
        for (int i = 0; i < r->nruns; i++)
            r->seen[i] = 0;
        r->stamp = 1;
    }
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        int run = place_ok(b, BOARD_AT_SIDE, sides[i]) ? r->run_of[sides[i]] : -1;
        if (run < 0 || r->seen[run] == r->stamp)
            continue;
        r->seen[run] = r->stamp;
        size_t len = (size_t)(r->start[run + 1] - r->start[run]); /* a whole contour: long */
        if (total < cap)
            memcpy(out + total, r->sides + r->start[run],
                   (len < cap - total ? len : cap - total) * sizeof *out);
        total += len;
    }
    return total;
}

int board_side_run(const board *b, int id, int side)
{
    side_runs *r = b->runs;
    if (id < 0 || id >= BOARD_MAX_ID || !place_ok(b, BOARD_AT_SIDE, side))
        return -1;
    if (r->id != id && !runs_build(b, r, id))
        return BOARD_RUN_NOMEM;
    return r->run_of[side];
}

/* ---- units ---- */

static bool unit_ok(int unit)
{
    return unit >= 0 && unit < BOARD_MAX_UNITS;
}

static unit_pos *unit_get(const board *b, int unit)
{
    return unit_ok(unit) && unit < b->cap_units && b->units[unit].present ? &b->units[unit] : NULL;
}

/* Makes room for unit's slot; a new slot is absent with no squares. */
static bool unit_slot(board *b, int unit)
{
    int old = b->cap_units;
    if (!grow((void **)&b->units, &b->cap_units, unit, sizeof *b->units))
        return false;
    for (int i = old; i < b->cap_units; i++)
        b->units[i].sq0 = b->units[i].sq1 = b->units[i].in = b->units[i].first_aboard =
            b->units[i].next_aboard = -1;
    return true;
}

/* Puts unit (its slot made, `in` set) into its transport's list of passengers, in id order. */
static void aboard_insert(board *b, int unit)
{
    int *link = &b->units[b->units[unit].in].first_aboard;
    while (*link >= 0 && *link < unit)
        link = &b->units[*link].next_aboard;
    b->units[unit].next_aboard = *link;
    *link = unit;
}

/* Takes unit out of its transport's list of passengers (it is embarked). */
static void aboard_remove(board *b, int unit)
{
    for (int *link = &b->units[b->units[unit].in].first_aboard; *link >= 0;
         link = &b->units[*link].next_aboard)
        if (*link == unit) {
            *link = b->units[unit].next_aboard;
            break;
        }
    b->units[unit].next_aboard = -1;
}

/* Takes unit off its squares (not out of the slot). */
static void unit_lift(board *b, int unit)
{
    unit_pos *u = &b->units[unit];
    if (u->sq0 >= 0)
        list_remove(b, &b->unit_head[u->sq0], unit);
    if (u->sq1 >= 0)
        list_remove(b, &b->unit_head[u->sq1], unit);
    if (u->in >= 0)
        aboard_remove(b, unit);
    u->sq0 = u->sq1 = u->in = -1;
}

geo_status board_place_unit(board *b, int unit, int sq0, int sq1)
{
    return board_place_unit_at(b, unit, sq0, sq1, -1, -1);
}

geo_status board_place_unit_at(board *b, int unit, int sq0, int sq1, int pos0, int pos1)
{
    if (!unit_ok(unit) || !sq_ok(b, sq0) || (sq1 != -1 && !sq_ok(b, sq1)))
        return GEO_ERANGE;
    if (sq1 != -1 && geo_side_between(&b->g, sq0, sq1) < 0)
        return GEO_EINVAL;
    if (!unit_slot(b, unit))
        return GEO_ENOMEM;
    board_feature f = { .id = unit, .value = 0, .facing = -1 };
    /* Reserve both nodes before changing anything, so failure leaves the board as it was. */
    int n0 = node_alloc(b);
    int n1 = sq1 >= 0 && n0 >= 0 ? node_alloc(b) : -1;
    if (n0 < 0 || (sq1 >= 0 && n1 < 0)) {
        if (n0 >= 0)
            node_release(b, n0);
        return GEO_ENOMEM;
    }
    node_release(b, n0);
    if (n1 >= 0)
        node_release(b, n1);
    unit_pos *u = &b->units[unit];
    if (u->present)
        unit_lift(b, unit);
    u->present = true;
    u->sq0 = sq0;
    u->sq1 = sq1;
    u->in = -1;
    list_insert(b, &b->unit_head[sq0], f, pos0);
    if (sq1 >= 0)
        list_insert(b, &b->unit_head[sq1], f, pos1);
    return GEO_OK;
}

geo_status board_embark(board *b, int unit, int transport)
{
    if (!unit_ok(unit) || !unit_ok(transport))
        return GEO_ERANGE;
    if (!unit_get(b, transport))
        return GEO_EINVAL;
    return board_restore_embarked(b, unit, transport);
}

geo_status board_restore_embarked(board *b, int unit, int transport)
{
    if (!unit_ok(unit) || !unit_ok(transport))
        return GEO_ERANGE;
    if (unit == transport)
        return GEO_EINVAL;
    /* An absent transport's own `in` is -1 (unit_lift), and one never placed has no slot. */
    for (int t = transport, hops = 0; t >= 0 && t < b->cap_units && hops < BOARD_MAX_UNITS;
         t = b->units[t].in, hops++)
        if (t == unit)
            return GEO_EINVAL;
    /* the transport's slot too: its list of passengers (one never placed has none yet) */
    if (!unit_slot(b, unit) || !unit_slot(b, transport))
        return GEO_ENOMEM;
    unit_pos *u = &b->units[unit];
    if (u->present)
        unit_lift(b, unit);
    u->present = true;
    u->in = transport;
    aboard_insert(b, unit);
    return GEO_OK;
}

void board_remove_unit(board *b, int unit)
{
    unit_pos *u = unit_get(b, unit);
    if (!u)
        return;
    unit_lift(b, unit);
    u->present = false;
}

bool board_unit_present(const board *b, int unit)
{
    return unit_get(b, unit) != NULL;
}

bool board_unit_squares(const board *b, int unit, int *sq0, int *sq1)
{
    /* the common case first, a unit on the board in no transport: every square_of asks */
    if (unit >= 0 && unit < b->cap_units) {
        const unit_pos *f = &b->units[unit];
        if (f->present && f->in < 0 && f->sq0 >= 0) {
            *sq0 = f->sq0;
            *sq1 = f->sq1;
            return true;
        }
    }
    *sq0 = *sq1 = -1;
    const unit_pos *u = unit_get(b, unit);
    /* Follow nested transports; board_embark refuses cycles, the bound is a second guard. */
    for (int hops = 0; u && u->in >= 0 && hops < BOARD_MAX_UNITS; hops++)
        u = unit_get(b, u->in);
    if (!u || u->sq0 < 0)
        return false;
    *sq0 = u->sq0;
    *sq1 = u->sq1;
    return true;
}

int board_unit_embarked_in(const board *b, int unit)
{
    const unit_pos *u = unit_get(b, unit);
    return u ? u->in : -1;
}

int board_unit_orientation(const board *b, int unit)
{
    const unit_pos *u = unit_get(b, unit);
    if (!u || u->sq0 < 0 || u->sq1 < 0)
        return -1;
    return geo_direction(&b->g, u->sq0, u->sq1);
}

size_t board_units_at(const board *b, int sq, int *out, size_t cap)
{
    if (!sq_ok(b, sq))
        return 0;
    size_t n = 0;
    for (int i = b->unit_head[sq]; i >= 0; i = b->nodes[i].next) {
        if (n < cap)
            out[n] = b->nodes[i].f.id;
        n++;
    }
    return n;
}

size_t board_units_in(const board *b, int transport, int *out, size_t cap)
{
    size_t n = 0;
    if (transport < 0 || transport >= b->cap_units)
        return 0;
    for (int i = b->units[transport].first_aboard; i >= 0; i = b->units[i].next_aboard) {
        if (n < cap)
            out[n] = i;
        n++;
    }
    return n;
}

size_t board_units(const board *b, int *out, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < b->cap_units; i++)
        if (b->units[i].present) {
            if (n < cap)
                out[n] = i;
            n++;
        }
    return n;
}

/* ---- names ---- */

geo_status board_set_name(board *b, board_name_kind k, int id, const char *name, char symbol)
{
    if ((unsigned)k >= BOARD_NKINDS || id < 0 || id >= BOARD_MAX_ID)
        return GEO_ERANGE;
    if (!grow((void **)&b->names[k], &b->cap_names[k], id, sizeof *b->names[k]))
        return GEO_ENOMEM;
    char *copy = NULL;
    if (name && !(copy = dupstr(name)))
        return GEO_ENOMEM;
    mem_free(b->names[k][id].name);
    b->names[k][id].name = copy;
    b->names[k][id].symbol = symbol;
    return GEO_OK;
}

const char *board_name(const board *b, board_name_kind k, int id)
{
    if ((unsigned)k >= BOARD_NKINDS || id < 0 || id >= b->cap_names[k])
        return NULL;
    return b->names[k][id].name;
}

char board_symbol(const board *b, board_name_kind k, int id)
{
    if ((unsigned)k >= BOARD_NKINDS || id < 0 || id >= b->cap_names[k])
        return 0;
    return b->names[k][id].symbol;
}

geo_status board_set_unit_label(board *b, int unit, const char *label)
{
    if (!unit_ok(unit))
        return GEO_ERANGE;
    if (!unit_slot(b, unit))
        return GEO_ENOMEM;
    char *copy = NULL;
    if (label && !(copy = dupstr(label)))
        return GEO_ENOMEM;
    mem_free(b->units[unit].label);
    b->units[unit].label = copy;
    return GEO_OK;
}

const char *board_unit_label(const board *b, int unit)
{
    return unit_ok(unit) && unit < b->cap_units ? b->units[unit].label : NULL;
}
