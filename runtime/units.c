/* units.c — the unit pool (see units.h). Each unit's per-id arrays live in one block sized
 * by the pool's ability/marker/value counts, so a unit is two allocations plus its names.
 */
#include "units.h"

#include <string.h>

#include "mem.h"

static size_t words(uint32_t bits)
{
    return ((size_t)bits + 63) / 64;
}

unit_pool *unit_pool_new(uint32_t n_abilities, uint32_t n_markers, uint32_t n_values)
{
    unit_pool *p = mem_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n_abilities = n_abilities;
    p->n_markers = n_markers;
    p->n_values = n_values;
    return p;
}

static void unit_release(unit *u)
{
    mem_free(u->counter);
    mem_free(u->title);
    mem_free(u->abilities); /* the block holding every per-id array */
}

void unit_pool_free(unit_pool *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->len; i++)
        unit_release(&p->units[i]);
    mem_free(p->units);
    mem_free(p);
}

/* Lays out the per-id arrays of u in one zeroed block. */
static bool unit_alloc_arrays(const unit_pool *p, unit *u)
{
    size_t wa = words(p->n_abilities), wv = words(p->n_values);
    size_t n8 = wa + p->n_abilities + p->n_values + wv; /* 8-byte items */
    size_t n4 = p->n_markers;                           /* 4-byte items */
    char *block = mem_calloc(1, n8 * 8 + n4 * 4);
    if (!block)
        return false;
    u->abilities = (uint64_t *)block;
    u->ability_val = (int64_t *)(u->abilities + wa);
    u->values = u->ability_val + p->n_abilities;
    u->given = (uint64_t *)(u->values + p->n_values);
    u->markers = (uint32_t *)(u->given + wv);
    return true;
}

int32_t unit_add(unit_pool *p, const char *counter, const char *title)
{
    if (p->len >= INT32_MAX || !MEM_GROW(p->units, p->len, p->cap))
        return -1;
    unit u = { .kind = -1, .side = -1, .size = 1 };
    u.counter = mem_strdup(counter ? counter : "");
    u.title = title ? mem_strdup(title) : NULL;
    if (!u.counter || (title && !u.title) || !unit_alloc_arrays(p, &u)) {
        mem_free(u.counter);
        mem_free(u.title);
        return -1;
    }
    p->units[p->len] = u;
    return (int32_t)p->len++;
}

/* Copies src's kind, side, size, abilities, markers and values into dst; both are units of
 * pools of the same numbers of ability, marker and value ids as p. */
static void copy_data(const unit_pool *p, unit *dst, const unit *src)
{
    dst->kind = src->kind;
    dst->side = src->side;
    dst->size = src->size;
    size_t wa = words(p->n_abilities), wv = words(p->n_values);
    size_t bytes = (wa + p->n_abilities + p->n_values + wv) * 8 + (size_t)p->n_markers * 4;
    memcpy(dst->abilities, src->abilities, bytes);
}

int32_t unit_copy(unit_pool *p, int32_t id)
{
    if (!unit_get(p, id))
        return -1;
    /* unit_add may move p->units, so read the source through its id afterwards. */
    int32_t nid = unit_add(p, p->units[id].counter, p->units[id].title);
    if (nid < 0)
        return -1;
    copy_data(p, &p->units[nid], &p->units[id]);
    return nid;
}

unit_pool *unit_pool_copy(const unit_pool *from)
{
    unit_pool *to = unit_pool_new(from->n_abilities, from->n_markers, from->n_values);
    for (size_t i = 0; to && i < from->len; i++) {
        int32_t id = unit_add(to, from->units[i].counter, from->units[i].title);
        if (id < 0) {
            unit_pool_free(to);
            return NULL;
        }
        copy_data(from, &to->units[id], &from->units[i]);
    }
    return to;
}

void unit_set_ability(unit_pool *p, int32_t id, uint32_t ability, int64_t value)
{
    unit *u = unit_get(p, id);
    if (!u || ability >= p->n_abilities)
        return;
    u->abilities[ability / 64] |= 1ULL << (ability % 64);
    u->ability_val[ability] = value;
}

bool unit_has_ability(const unit_pool *p, int32_t id, uint32_t ability)
{
    const unit *u = unit_get(p, id);
    return u && ability < p->n_abilities && (u->abilities[ability / 64] >> (ability % 64)) & 1;
}

int64_t unit_ability_value(const unit_pool *p, int32_t id, uint32_t ability)
{
    return unit_has_ability(p, id, ability) ? p->units[id].ability_val[ability] : 0;
}

void unit_add_marker(unit_pool *p, int32_t id, uint32_t marker, uint32_t count)
{
    unit *u = unit_get(p, id);
    if (!u || marker >= p->n_markers)
        return;
    uint32_t *m = &u->markers[marker];
    *m = count > UINT32_MAX - *m ? UINT32_MAX : *m + count;
}

uint32_t unit_marker_count(const unit_pool *p, int32_t id, uint32_t marker)
{
    const unit *u = unit_get(p, id);
    return u && marker < p->n_markers ? u->markers[marker] : 0;
}

void unit_set_value(unit_pool *p, int32_t id, uint32_t slot, int64_t v)
{
    unit *u = unit_get(p, id);
    if (!u || slot >= p->n_values)
        return;
    u->values[slot] = v;
    u->given[slot / 64] |= 1ULL << (slot % 64);
}

bool unit_get_value(const unit_pool *p, int32_t id, uint32_t slot, int64_t *out)
{
    const unit *u = unit_get(p, id);
    if (!u || slot >= p->n_values || !((u->given[slot / 64] >> (slot % 64)) & 1))
        return false;
    *out = u->values[slot];
    return true;
}
