/* value.c — values (see value.h): printing as text and as JSON, and deep equality. Printing
 * needs the program's type table to name members and fields.
 */
#include "value.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "scene.h"

val val_absent(uint32_t type, uint32_t table, uint32_t row, uint32_t col)
{
    val v = { .type = type, .flags = VAL_ABSENT };
    v.u.bits =
        (uint64_t)(table & 0xffffffu) << 40 | (uint64_t)(row & 0xffffffu) << 16 | (col & 0xffffu);
    return v;
}

void val_absent_where(val v, uint32_t *table, uint32_t *row, uint32_t *col)
{
    *table = (uint32_t)(v.u.bits >> 40) & 0xffffffu;
    *row = (uint32_t)(v.u.bits >> 16) & 0xffffffu;
    *col = (uint32_t)v.u.bits & 0xffffu;
}

/* ---- printing ---- */

static const res_type *ty(const res_program *p, uint32_t t)
{
    static const res_type none = { RT_NONE, 0 };
    return t < p->ntypes ? &p->types[t] : &none;
}

static const char *member_name(const res_program *p, uint32_t enum_id, int64_t m)
{
    if (enum_id >= p->nenums || m < 0 || (size_t)m >= p->enums[enum_id].len)
        return "<invalid member>";
    return p->enums[enum_id].members[m].name;
}

static void print_set(const res_program *p, uint32_t elem, uint64_t bits, strbuf *out, bool json)
{
    uint32_t e = ty(p, elem)->arg;
    bool first = true;
    sb_putc(out, json ? '[' : '{');
    for (int m = 0; m < 64; m++)
        if (bits >> m & 1) {
            if (!first)
                sb_puts(out, ", ");
            first = false;
            if (json)
                sb_json_str(out, member_name(p, e, m));
            else
                sb_puts(out, member_name(p, e, m));
        }
    sb_putc(out, json ? ']' : '}');
}

static void put_name(strbuf *out, const char *s, bool json)
{
    if (json)
        sb_json_str(out, s);
    else
        sb_puts(out, s);
}

/* Appends n in decimal (as "%" PRId64 prints it, without printf: traces print many). */
static void put_int(strbuf *out, int64_t n)
{
    char buf[24];
    size_t at = sizeof buf;
    uint64_t u = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
    do {
        buf[--at] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (n < 0)
        buf[--at] = '-';
    sb_putn(out, buf + at, sizeof buf - at);
}

static void print(const val_env *env, val v, strbuf *out, bool json)
{
    const res_program *p = env->p;
    if (out->oom || out->truncated)
        return;
    if (v.flags & VAL_ABSENT) {
        sb_puts(out, json ? "null" : "?");
        return;
    }
    const res_type *t = ty(p, v.type);
    switch (t->kind) {
    case RT_INT: put_int(out, v.u.i); break;
    case RT_BOOL: sb_puts(out, v.u.i ? "true" : "false"); break;
    case RT_VERDICT:
        if (json)
            sb_json_str(out, v.u.i ? "permit" : "forbid");
        else
            sb_puts(out, v.u.i ? "permit" : "forbid");
        break;
    case RT_ENUM:
        if (json)
            sb_json_str(out, member_name(p, t->arg, v.u.i));
        else
            sb_puts(out, member_name(p, t->arg, v.u.i));
        break;
    case RT_UNIT: {
        const char *name = scene_unit_name(env->sc, v.u.i);
        if (name) {
            char buf[96];
            snprintf(buf, sizeof buf, "$%s", name);
            put_name(out, buf, json);
            break;
        }
        const unit *u = unit_get(p->units, (int32_t)v.u.i);
        put_name(out, u ? u->counter : "<no unit>", json);
        break;
    }
    case RT_SQUARE: {
        char buf[32];
        scene_square_text(v.u.i, buf, sizeof buf);
        put_name(out, buf, json);
        break;
    }
    case RT_SIDE: {
        char buf[64];
        scene_side_text(env->sc, v.u.i, buf, sizeof buf);
        put_name(out, buf, json);
        break;
    }
    case RT_ELEMENT: {
        char buf[96];
        scene_element_text(env->sc, v.u.i, buf, sizeof buf);
        put_name(out, buf, json);
        break;
    }
    case RT_SET: print_set(p, t->arg, v.u.bits, out, json); break;
    case RT_LIST:
        sb_putc(out, '[');
        for (size_t i = 0; v.u.list && i < v.u.list->len && !out->truncated && !out->oom; i++) {
            if (i)
                sb_puts(out, ", ");
            print(env, v.u.list->items[i], out, json);
        }
        sb_putc(out, ']');
        break;
    case RT_RECORD: {
        const res_record *r = &p->records[t->arg];
        if (!json)
            sb_puts(out, r->name);
        sb_putc(out, '{');
        for (size_t i = 0; i < r->nfields; i++) {
            if (i)
                sb_puts(out, ", ");
            if (json) {
                sb_json_str(out, r->fields[i].name);
                sb_puts(out, ": ");
            } else {
                sb_puts(out, r->fields[i].name);
                sb_puts(out, ": ");
            }
            print(env, v.u.rec[i], out, json);
        }
        sb_putc(out, '}');
        break;
    }
    default: sb_puts(out, json ? "null" : "<no value>"); break;
    }
}

void val_print(const val_env *e, val v, strbuf *out)
{
    print(e, v, out, false);
}
void val_json(const val_env *e, val v, strbuf *out)
{
    print(e, v, out, true);
}

bool val_equal_bounded(const res_program *p, val a, val b, val *absent, uint64_t *work)
{
    if (*work == 0)
        return false;
    (*work)--;
    if ((a.flags | b.flags) & VAL_ABSENT) {
        if (absent)
            *absent = a.flags & VAL_ABSENT ? a : b;
        return false;
    }
    const res_type *t = ty(p, a.type);
    switch (t->kind) {
    case RT_LIST: {
        size_t n = a.u.list ? a.u.list->len : 0, m = b.u.list ? b.u.list->len : 0;
        if (n != m)
            return false;
        for (size_t i = 0; i < n; i++)
            if (!val_equal_bounded(p, a.u.list->items[i], b.u.list->items[i], absent, work))
                return false;
        return true;
    }
    case RT_RECORD: {
        const res_record *r = &p->records[t->arg];
        for (size_t i = 0; i < r->nfields; i++)
            if (!val_equal_bounded(p, a.u.rec[i], b.u.rec[i], absent, work))
                return false;
        return true;
    }
    default: return a.u.i == b.u.i;
    }
}

bool val_equal(const res_program *p, val a, val b, val *absent)
{
    uint64_t work = UINT64_MAX;
    return val_equal_bounded(p, a, b, absent, &work);
}

char *val_text(const val_env *e, val v, bool json, size_t limit, bool *cut)
{
    strbuf b = { .limit = limit };
    print(e, v, &b, json);
    *cut = b.truncated;
    b.truncated = false;
    return sb_take(&b);
}
