/* scene.c — a scenario loaded against a compiled program (see scene.h): the name resolver
 * handed to scn_load, the unit pool copy holding the scenario's units, and the text forms of
 * squares, sides and elements used by value printing, traces and the REPL.
 */
#include "scene.h"

#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "near.h"

/* What the resolver callbacks see. */
typedef struct bind {
    const res_program *p;
    unit_pool *units;
    bool oom;
} bind;

static int resolve_name(void *ud, board_name_kind k, const char *name)
{
    const bind *b = ud;
    const res_program *p = b->p;
    int32_t id = -1;
    switch (k) {
    case BOARD_TERRAIN: id = model_find_member(&p->enums[E_TERRAIN], name); break;
    case BOARD_SQUARE_FEATURE: id = model_find_member(&p->enums[E_SQUARE_FEATURE], name); break;
    case BOARD_SIDE_FEATURE: id = model_find_member(&p->enums[E_SIDE_FEATURE], name); break;
    case BOARD_INTERSPACE_ITEM: id = model_find_member(&p->enums[E_INTERSPACE_ITEM], name); break;
    case BOARD_MARKER: id = model_find_member(&p->enums[E_MARKER], name); break;
    case BOARD_ARMY: id = model_find_member(&p->enums[E_SIDE], name); break;
    case BOARD_COUNTER: id = model_find_counter(p, name); break;
    case BOARD_FACE: id = model_find_member(&p->enums[E_FACE], name); break;
    case BOARD_VALUE_NAME:
        for (size_t i = 0; i < p->nslots && id < 0; i++)
            if (strcmp(p->slots[i].name, name) == 0)
                id = (int32_t)i;
        break;
    default: break;
    }
    return id >= 0 && id < BOARD_MAX_ID ? (int)id : -1;
}

/* scn_resolver.near: the declared name of kind k nearest `name` (near.h), or NULL. */
static const char *near_name(void *ud, board_name_kind k, const char *name)
{
    const bind *b = ud;
    const res_program *p = b->p;
    const res_enum *e = NULL;
    near_search n;
    near_begin(&n, name);
    switch (k) {
    case BOARD_TERRAIN: e = &p->enums[E_TERRAIN]; break;
    case BOARD_SQUARE_FEATURE: e = &p->enums[E_SQUARE_FEATURE]; break;
    case BOARD_SIDE_FEATURE: e = &p->enums[E_SIDE_FEATURE]; break;
    case BOARD_INTERSPACE_ITEM: e = &p->enums[E_INTERSPACE_ITEM]; break;
    case BOARD_MARKER: e = &p->enums[E_MARKER]; break;
    case BOARD_ARMY: e = &p->enums[E_SIDE]; break;
    case BOARD_FACE: e = &p->enums[E_FACE]; break;
    case BOARD_COUNTER:
        for (size_t i = 0; i < p->ncounters; i++)
            near_offer(&n, p->counters[i].name);
        break;
    case BOARD_VALUE_NAME:
        for (size_t i = 0; i < p->nslots; i++)
            near_offer(&n, p->slots[i].name);
        break;
    default: break;
    }
    for (size_t i = 0; e && i < e->len; i++)
        near_offer(&n, e->members[i].name);
    return near_result(&n);
}

static int counter_size(void *ud, int counter)
{
    const bind *b = ud;
    const unit *u = unit_get(b->units, counter);
    return u ? (int)u->size : 1;
}

/* A scenario unit: a copy of its counter, on its army's side. */
static int new_unit(void *ud, const char *name, int counter, int army)
{
    bind *b = ud;
    (void)name;
    int32_t id = unit_copy(b->units, counter);
    if (id < 0) {
        b->oom = true;
        return -1;
    }
    b->units->units[id].side = army;
    return id;
}

scene *scene_load(const res_program *p, const unit_pool *units, const char *text, size_t len,
                  scn_errors *errs)
{
    scene *s = mem_calloc(1, sizeof *s);
    bind b = { .p = p };
    if (s) {
        s->counters = units ? units : p->units;
        s->units = b.units = unit_pool_copy(s->counters);
    }
    if (!s || !s->units) {
        scene_free(s);
        if (errs && MEM_GROW(errs->items, errs->len, errs->cap))
            errs->items[errs->len++] = (scn_error){
                .code = E_SCN_MEMORY, .line = 1, .col = 1, .len = 1, .message = "out of memory"
            };
        return NULL;
    }
    s->first_unit = (int32_t)s->units->len;
    scn_resolver r = { .resolve = resolve_name,
                       .counter_size = counter_size,
                       .new_unit = new_unit,
                       .near = near_name,
                       .ud = &b };
    s->scn = scn_load(text, len, &r, errs);
    if (!s->scn) {
        scene_free(s);
        return NULL;
    }
    for (size_t i = 0; i < s->scn->n_units; i++) {
        const scn_unit *u = &s->scn->units[i];
        for (size_t m = 0; m < u->n_markers; m++)
            if (u->markers[m] >= 0)
                unit_add_marker(s->units, u->id, (uint32_t)u->markers[m], 1);
    }
    s->b = s->scn->board;
    s->g = board_grid(s->b);
    s->nunit_faces = s->units->len;
    s->nelement_faces = (size_t)board_element_count(s->b);
    s->unit_faces = mem_calloc(s->nunit_faces ? s->nunit_faces : 1, sizeof *s->unit_faces);
    s->element_faces =
        mem_calloc(s->nelement_faces ? s->nelement_faces : 1, sizeof *s->element_faces);
    if (!s->unit_faces || !s->element_faces) {
        scene_free(s);
        if (errs && MEM_GROW(errs->items, errs->len, errs->cap))
            errs->items[errs->len++] = (scn_error){
                .code = E_SCN_MEMORY, .line = 1, .col = 1, .len = 1, .message = "out of memory"
            };
        return NULL;
    }
    for (size_t i = 0; i < s->scn->n_units; i++) {
        const scn_unit *u = &s->scn->units[i];
        if (u->face >= 0 && (size_t)u->id < s->nunit_faces)
            s->unit_faces[u->id] = u->face;
    }
    return s;
}

bool scene_elements_changed(scene *s)
{
    size_t n = (size_t)board_element_count(s->b);
    if (n > s->nelement_faces) {
        int32_t *f = mem_realloc(s->element_faces, n * sizeof *f);
        if (!f)
            return false;
        for (size_t i = s->nelement_faces; i < n; i++)
            f[i] = RES_FACE_NONE;
        s->element_faces = f;
    }
    s->nelement_faces = n;
    return true;
}

board *scene_board(scene *s)
{
    return s ? s->scn->board : NULL;
}

void scene_free(scene *s)
{
    if (!s)
        return;
    scn_free(s->scn);
    unit_pool_free(s->units);
    mem_free(s->unit_faces);
    mem_free(s->element_faces);
    mem_free(s);
}

int32_t scene_unit(const scene *s, const char *name)
{
    int i = s && name ? scn_unit_find(s->scn, name) : -1;
    return i < 0 ? -1 : s->scn->units[i].id;
}

const char *scene_unit_near(const scene *s, const char *name)
{
    if (!s || !name)
        return NULL;
    near_search n;
    near_begin(&n, name);
    for (size_t i = 0; i < s->scn->n_units; i++)
        near_offer(&n, s->scn->units[i].name);
    return near_result(&n);
}

const char *scene_unit_name(const scene *s, int64_t id)
{
    if (!s || id < s->first_unit || id >= BOARD_MAX_UNITS)
        return NULL;
    return board_unit_label(s->b, (int)id);
}

int scene_square(const scene *s, int64_t v)
{
    int64_t x = RES_SQUARE_X(v), y = RES_SQUARE_Y(v);
    if (x >= s->g->w || y >= s->g->h)
        return -1;
    return geo_square(s->g, (int)x, (int)y);
}

int64_t scene_square_value(const scene *s, int sq)
{
    int x, y;
    geo_xy(s->g, sq, &x, &y);
    return RES_SQUARE(x, y);
}

void scene_square_text(int64_t v, char *buf, size_t cap)
{
    geo_format_xy((int)RES_SQUARE_X(v), (int)RES_SQUARE_Y(v), buf, cap);
}

void scene_side_text(const scene *s, int64_t side, char *buf, size_t cap)
{
    int a, b;
    if (!s || side < 0 || side > INT32_MAX || !geo_side_squares(s->g, (int)side, &a, &b)) {
        snprintf(buf, cap, "side #%lld", (long long)side);
        return;
    }
    char na[24], nb[24];
    if (a >= 0 && b >= 0) {
        geo_format_square(s->g, a, na, sizeof na);
        geo_format_square(s->g, b, nb, sizeof nb);
        snprintf(buf, cap, "%s/%s", na, nb);
        return;
    }
    /* An edge side: name it by its square and the direction of the edge. */
    int sq = a >= 0 ? a : b;
    static const char *const dir[GEO_NDIRS] = { "N", "NE", "E", "SE", "S", "SW", "W", "NW" };
    for (int d = 0; d < GEO_NDIRS; d++)
        if (sq >= 0 && geo_side_of(s->g, sq, (geo_dir)d) == (int)side) {
            geo_format_square(s->g, sq, na, sizeof na);
            snprintf(buf, cap, "%s:%s", na, dir[d]);
            return;
        }
    snprintf(buf, cap, "side #%lld", (long long)side);
}

void scene_element_text(const scene *s, int64_t e, char *buf, size_t cap)
{
    const char *name = s && e >= 0 && e <= INT32_MAX ? board_element_name(s->b, (int)e) : NULL;
    if (name)
        snprintf(buf, cap, "%s", name);
    else
        snprintf(buf, cap, "#%lld", (long long)e);
}
