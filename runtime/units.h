/* units.h — the unit pool: every counter of the loaded program as a unit with an id.
 *
 * C stores ids only: a unit's kind and side are member indexes of the program's `kind` and
 * `side` enums, abilities and markers are member indexes of `ability` and `marker`, values are
 * slot indexes of `value` declarations (see dsl/model.h). No rule name lives here. The board
 * model places units on squares by id; the pool knows nothing of the board.
 */
#ifndef HON_UNITS_H
#define HON_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct unit {
    char *counter;        /* owned: the counter's name ("sherman") */
    char *title;          /* owned, or NULL: its printed title ("M4 Sherman") */
    int32_t kind;         /* member of the kind enum, -1 when unset */
    int32_t side;         /* member of the side enum, -1 when unset */
    uint32_t size;        /* squares it covers: 1 or 2 */
    uint64_t *abilities;  /* bitset over ability ids (n_abilities bits) */
    int64_t *ability_val; /* the number each ability carries (0 when none) */
    uint32_t *markers;    /* count of each marker id */
    int64_t *values;      /* named integer values, by slot id */
    uint64_t *given;      /* bitset over slot ids: which values the counter gives */
} unit;

typedef struct unit_pool {
    unit *units;
    size_t len, cap;
    uint32_t n_abilities, n_markers, n_values;
} unit_pool;

/* A pool whose units have room for the given numbers of ability, marker and value ids. NULL on
 * OOM. */
unit_pool *unit_pool_new(uint32_t n_abilities, uint32_t n_markers, uint32_t n_values);
/* Frees the pool and every unit; accepts NULL. */
void unit_pool_free(unit_pool *p);

/* Adds a unit with no kind, side, abilities, markers or values, size 1. Copies counter and
 * title (title may be NULL). Returns its id, or -1 on OOM. */
int32_t unit_add(unit_pool *p, const char *counter, const char *title);
/* A new pool holding a copy of every unit of `from`, with the same ids; NULL on OOM. */
unit_pool *unit_pool_copy(const unit_pool *from);
/* Adds a copy of unit `id` (a second counter of the same type on the board); new id or -1. */
int32_t unit_copy(unit_pool *p, int32_t id);
/* The unit with that id, or NULL when id is out of range. Borrowed; invalidated by unit_add. */
static inline unit *unit_get(const unit_pool *p, int32_t id)
{
    /* inline: the VM reads a unit's kind through it at every UNIT_KIND */
    if (!p || id < 0 || (size_t)id >= p->len)
        return NULL;
    return &p->units[id];
}

/* Abilities. Ids out of range are ignored (setters) or read as absent (getters). */
void unit_set_ability(unit_pool *p, int32_t id, uint32_t ability, int64_t value);
bool unit_has_ability(const unit_pool *p, int32_t id, uint32_t ability);
/* The number the ability carries; 0 when the unit lacks it. */
int64_t unit_ability_value(const unit_pool *p, int32_t id, uint32_t ability);

/* Markers: counts, saturating at UINT32_MAX and at 0. */
void unit_add_marker(unit_pool *p, int32_t id, uint32_t marker, uint32_t count);
uint32_t unit_marker_count(const unit_pool *p, int32_t id, uint32_t marker);

/* Values: set marks the slot given; get returns false (leaving *out alone) when not given. */
void unit_set_value(unit_pool *p, int32_t id, uint32_t slot, int64_t v);
bool unit_get_value(const unit_pool *p, int32_t id, uint32_t slot, int64_t *out);

#endif
