/* outcome.c — the net change of a procedure's records as text, and the items outcomes share
 * (see outcome.h). A change is an item; items are joined by "; ", so an outcome text can be
 * compared, grouped and split again by odds.c.
 */
#include "outcome.h"

#include <inttypes.h>
#include <string.h>

/* Records of one thing changed (a unit's markers of one kind, its face, a value, its place, a
 * feature at a place, the clock) share a key; the first record holds the state before. */
typedef enum out_class {
    OC_MARKERS,
    OC_ELEMENT_MARKERS,
    OC_FACE,
    OC_ELEMENT_FACE,
    OC_VALUE,
    OC_PLACE,
    OC_SQUARE,
    OC_SIDE,
    OC_NEAR,
    OC_CLOCK,
    OC_ELEMENT_SQUARE
} out_class;

static out_class class_of(play_fx k)
{
    switch (k) {
    case FX_GIVE:
    case FX_TAKE:
    case FX_TAKE_ALL: return OC_MARKERS;
    case FX_GIVE_ELEMENT:
    case FX_TAKE_ELEMENT:
    case FX_TAKE_ALL_ELEMENT: return OC_ELEMENT_MARKERS;
    case FX_FLIP_UNIT: return OC_FACE;
    case FX_FLIP_ELEMENT: return OC_ELEMENT_FACE;
    case FX_SET: return OC_VALUE;
    case FX_PLACE_SQUARE:
    case FX_REMOVE_SQUARE: return OC_SQUARE;
    case FX_PLACE_SIDE:
    case FX_REMOVE_SIDE: return OC_SIDE;
    case FX_PLACE_INTERSPACE:
    case FX_REMOVE_NEAR: return OC_NEAR;
    case FX_CLOCK: return OC_CLOCK;
    case FX_PLACE_TERRAIN:
    case FX_REMOVE_ELEMENT: return OC_ELEMENT_SQUARE;
    default: return OC_PLACE;
    }
}

static bool same_key(const play_rec *a, const play_rec *b)
{
    out_class c = class_of(a->kind);
    if (c != class_of(b->kind) || a->target != b->target)
        return false;
    return c == OC_PLACE || c == OC_FACE || c == OC_ELEMENT_FACE || c == OC_CLOCK ||
           c == OC_ELEMENT_SQUARE || a->what == b->what;
}

static void put_square(const scene *sc, int sq, strbuf *out)
{
    char t[32];
    scene_square_text(scene_square_value(sc, sq), t, sizeof t);
    sb_puts(out, t);
}

/* Writes the net change of the records of `first`'s key ("give $a suppressed 2", "move $a to
 * C4", "flip $e to wreck"...), or nothing when they cancel out. */
static void net_change(const val_env *env, const play *g, const play_rec *first, strbuf *out)
{
    const res_program *p = env->p;
    const scene *sc = g->sc;
    const board *b = sc ? sc->b : NULL;
    val u = { .type = T_UNIT, .u.i = first->target };
    size_t start = out->len;
    switch (class_of(first->kind)) {
    case OC_MARKERS:
    case OC_ELEMENT_MARKERS: {
        int64_t now = play_marker_count(sc, first->kind, first->target, first->what);
        if (now == first->before)
            break;
        sb_puts(out, now > first->before ? "give " : "take ");
        if (class_of(first->kind) == OC_ELEMENT_MARKERS)
            val_print(env, (val){ .type = T_ELEMENT, .u.i = first->target }, out);
        else
            val_print(env, u, out);
        sb_putc(out, ' ');
        val_print(env, (val){ .type = p->enums[E_MARKER].type, .u.i = first->what }, out);
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
        val_print(env, (val){ .type = unit_face ? T_UNIT : T_ELEMENT, .u.i = first->target }, out);
        sb_puts(out, " to ");
        val_print(env, (val){ .type = p->enums[E_FACE].type, .u.i = now }, out);
        break;
    }
    case OC_VALUE: {
        int64_t now = 0;
        bool has = unit_get_value(sc->units, (int32_t)first->target, (uint32_t)first->what, &now);
        if (has == first->had && (!has || now == first->before))
            break;
        sb_puts(out, "set ");
        val_print(env, u, out);
        sb_printf(out,
                  ".%s = ", first->what < (int64_t)p->nslots ? p->slots[first->what].name : "?");
        if (has)
            sb_printf(out, "%" PRId64, now);
        else
            sb_puts(out, "(none)");
        break;
    }
    case OC_PLACE: {
        play_pos now = play_pos_of(b, (int)first->target), was = first->pos;
        if (now.present == was.present && now.in == was.in && now.sq0 == was.sq0 &&
            now.sq1 == was.sq1)
            break;
        if (!now.present) {
            sb_puts(out, "destroy ");
            val_print(env, u, out);
        } else if (now.in >= 0) {
            sb_puts(out, "embark ");
            val_print(env, u, out);
            sb_puts(out, " in ");
            val_print(env, (val){ .type = T_UNIT, .u.i = now.in }, out);
        } else {
            sb_puts(out, "move ");
            val_print(env, u, out);
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
        board_place where = c == OC_SQUARE ? BOARD_AT_SQUARE
                            : c == OC_SIDE ? BOARD_AT_SIDE
                                           : BOARD_AT_INTERSPACE;
        bool had = first->kind != FX_PLACE_SQUARE && first->kind != FX_PLACE_SIDE &&
                   first->kind != FX_PLACE_INTERSPACE;
        bool has = board_has(b, where, (int)first->target, (int)first->what, NULL);
        if (had == has)
            break;
        uint32_t ft = c == OC_SQUARE ? p->enums[E_SQUARE_FEATURE].type
                      : c == OC_SIDE ? p->enums[E_SIDE_FEATURE].type
                                     : p->enums[E_INTERSPACE_ITEM].type;
        sb_puts(out, has ? "place " : "remove ");
        val_print(env, (val){ .type = ft, .u.i = first->what }, out);
        if (c == OC_NEAR) {
            sb_puts(out, has ? " at " : " near ");
            val_print(env, (val){ .type = T_SQUARE, .u.i = first->after }, out);
        } else if (c == OC_SIDE) {
            sb_puts(out, " at ");
            val_print(env, (val){ .type = T_SIDE, .u.i = first->target }, out);
        } else {
            sb_puts(out, " at ");
            put_square(sc, (int)first->target, out);
        }
        break;
    }
    case OC_ELEMENT_SQUARE: { /* the square left the element it was in (before), or none */
        int now = board_element_at(b, (int)first->target);
        if (now == first->before)
            break;
        if (now >= 0) {
            sb_puts(out, "place ");
            val_print(env,
                      (val){ .type = p->enums[E_TERRAIN].type, .u.i = board_element_type(b, now) },
                      out);
        } else {
            sb_puts(out, "remove ");
            val_print(env, (val){ .type = T_ELEMENT, .u.i = first->before }, out);
        }
        sb_puts(out, " at ");
        put_square(sc, (int)first->target, out);
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

void outcome_text(const val_env *env, const play *g, size_t from, strbuf *out)
{
    size_t start = out->len;
    for (size_t i = from; i < g->len; i++) {
        bool seen = false;
        for (size_t j = from; j < i && !seen; j++)
            seen = same_key(&g->log[j], &g->log[i]);
        if (!seen)
            net_change(env, g, &g->log[i], out);
    }
    if (out->len > start + 1 && !out->oom && !out->truncated)
        out->s[out->len -= 2] = '\0'; /* the last "; " */
    if (out->len == start)
        sb_puts(out, "no change");
}

/* ---- items shared by outcomes ---- */

/* The next "; "-separated item of *s: its start (NULL past the last) and its length in *len;
 * *s moves past it. */
static const char *next_item(const char **s, size_t *len)
{
    if (!**s)
        return NULL;
    const char *item = *s, *e = strstr(item, "; ");
    *len = e ? (size_t)(e - item) : strlen(item);
    *s = item + *len + (e ? 2 : 0);
    return item;
}

/* Whether `item` (n bytes) is one of the "; "-separated items of text. */
static bool has_item(const char *text, const char *item, size_t n)
{
    size_t len;
    for (const char *s = text, *it; (it = next_item(&s, &len));)
        if (len == n && memcmp(it, item, n) == 0)
            return true;
    return false;
}

void outcome_common(const char *const *texts, size_t n, strbuf *out)
{
    size_t start = out->len, len;
    for (const char *s = n > 1 ? texts[0] : "", *it; (it = next_item(&s, &len));) {
        bool all = true;
        for (size_t k = 1; k < n && all; k++)
            all = has_item(texts[k], it, len);
        if (all) {
            if (out->len > start)
                sb_puts(out, "; ");
            sb_putn(out, it, len);
        }
    }
}

void outcome_rest(const char *text, const char *common, strbuf *out)
{
    size_t start = out->len, len;
    for (const char *s = text, *it; (it = next_item(&s, &len));)
        if (!has_item(common, it, len)) {
            if (out->len > start)
                sb_puts(out, "; ");
            sb_putn(out, it, len);
        }
    if (out->len == start)
        sb_puts(out, "nothing more");
}
