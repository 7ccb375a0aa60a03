/* table.c — tables: their signature in pass 2 (keys, the `floor` key, columns, the row record
 * of a multi-column table) and their rows in pass 3 (cells folded to constants, rows sorted by
 * key, duplicate rows reported, a dense index when every key is an enum).
 *
 * interp/ reads the result (res_table, model.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "resolve_int.h"

#define DENSE_MAX ((size_t)1 << 20) /* largest enum-keyed table indexed densely */

/* ---- pass 2: signature ---- */

static bool cell_type_ok(const res_program *p, uint32_t t)
{
    res_tkind k = type_kind(p, t);
    return k == RT_INT || k == RT_BOOL || k == RT_ENUM || k == RT_SET || k == RT_VERDICT ||
           k == RT_ERROR;
}

void table_signature(rctx *c, res_table *t, int32_t id)
{
    res_program *p = c->p;
    ast_node *d = t->decl;
    t->nkeys = d->params.len;
    if (t->nkeys > RES_MAX_ITEMS) {
        res_err(c, E_LIMIT, d->loc, "table `%s` has too many keys (at most %d)", t->name,
                RES_MAX_ITEMS);
        t->nkeys = 0;
    }
    t->keys = t->nkeys ? mem_calloc(t->nkeys, sizeof *t->keys) : NULL;
    if (t->nkeys && !t->keys) {
        res_oom(c, d->loc);
        t->nkeys = 0;
    }
    for (uint32_t i = 0; i < t->nkeys; i++) {
        ast_node *k = d->params.items[i];
        uint32_t ty = type_of(c, k->a);
        t->keys[i] = (res_key){ k->name ? k->name : "", ty, k->ival != 0 };
        if (ty != T_ERROR && ty != T_INT && !type_is_enum(p, ty))
            res_err(c, E_KEY_DECL, k->loc, "a table key is an enum or an int, not %s",
                    type_text(p, ty).s);
        if (t->keys[i].floor && ty != T_INT && ty != T_ERROR)
            res_err(c, E_KEY_DECL, k->loc, "only an int key can be `floor`");
        if (t->keys[i].floor) {
            if (t->floor_key >= 0)
                res_err(c, E_KEY_DECL, k->loc, "a table has at most one `floor` key");
            else
                t->floor_key = (int32_t)i;
        }
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(t->keys[j].name, t->keys[i].name) == 0)
                res_err(c, E_DUP_ITEM, k->loc, "key `%s` is listed twice", t->keys[i].name);
    }
    if (d->list2.len) {
        t->cols = type_params_of(c, &d->list2);
        t->ncols = t->cols ? d->list2.len : 0;
    } else {
        t->single = true;
        t->cols = model_names_entry(c->p, sizeof *t->cols); /* as type_params_of's */
        if (!t->cols) {
            res_oom(c, d->loc);
            return;
        }
        t->ncols = 1;
        t->cols[0] = (res_field){ "", type_of(c, d->a), d->a ? d->a->loc : d->loc };
    }
    for (uint32_t i = 0; i < t->ncols; i++)
        if (!cell_type_ok(p, t->cols[i].type))
            res_err(c, E_CELL_TYPE, t->cols[i].loc,
                    "a table cell holds an int, a bool, an enum member, a set or a verdict, not %s",
                    type_text(p, t->cols[i].type).s);
    if (t->single) {
        t->result = t->ncols ? t->cols[0].type : T_ERROR;
        return;
    }
    /* A multi-column lookup gives a record whose fields are the columns. */
    if (!PUSH(c, p->records, p->nrecords, p->records_cap, d->loc))
        return;
    res_record *r = &p->records[p->nrecords];
    *r = (res_record){ .name = t->name, .table = id, .decl = d };
    r->fields = model_names_entry(p, (t->ncols ? t->ncols : 1) * sizeof *r->fields);
    if (!r->fields) {
        res_oom(c, d->loc);
        return;
    }
    if (t->ncols) /* none after E199 (too many columns): t->cols is NULL */
        memcpy(r->fields, t->cols, t->ncols * sizeof *r->fields);
    r->nfields = t->ncols;
    r->type = type_intern(c, RT_RECORD, (uint32_t)p->nrecords, d->loc);
    t->record = (int32_t)p->nrecords;
    t->result = r->type;
    p->nrecords++;
}

/* ---- pass 3: rows ---- */

/* A stable bottom-up merge sort (qsort is neither stable nor given a context). false on OOM. */
bool table_msort(void *base, size_t n, size_t size, sort_cmp cmp, const void *ctx)
{
    if (n < 2)
        return true;
    unsigned char *a = base, *tmp = mem_malloc(n * size);
    if (!tmp)
        return false;
    unsigned char *src = a, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (cmp(src + j * size, src + i * size, ctx) < 0)
                    memcpy(dst + k++ * size, src + j++ * size, size);
                else
                    memcpy(dst + k++ * size, src + i++ * size, size);
            }
            while (i < mid)
                memcpy(dst + k++ * size, src + i++ * size, size);
            while (j < hi)
                memcpy(dst + k++ * size, src + j++ * size, size);
        }
        unsigned char *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * size);
    mem_free(tmp);
    return true;
}

static int cmp_const(const res_const *a, const res_const *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].v != b[i].v)
            return a[i].v < b[i].v ? -1 : 1;
    return 0;
}

int32_t table_find_row(const res_table *t, const res_const *keys)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (cmp_const(t->rows[r].keys, keys, t->nkeys) == 0)
            return (int32_t)r;
    return -1;
}

void table_keys_text(const res_program *p, const res_table *t, const int64_t *keys, char *buf,
                     size_t cap)
{
    size_t off = 0;
    for (uint32_t i = 0; i < t->nkeys && off + 1 < cap; i++) {
        uint32_t ty = t->keys[i].type;
        int w;
        if (type_is_enum(p, ty) && keys[i] >= 0 && (size_t)keys[i] < p->enums[type_arg(p, ty)].len)
            w = snprintf(buf + off, cap - off, "%s%s", i ? ", " : "",
                         p->enums[type_arg(p, ty)].members[keys[i]].name);
        else
            w = snprintf(buf + off, cap - off, "%s%" PRId64, i ? ", " : "", keys[i]);
        if (w < 0)
            break;
        off += (size_t)w;
    }
}

static int cmp_rows(const void *a, const void *b, const void *ctx)
{
    const res_table *t = ctx;
    return cmp_const(((const res_row *)a)->keys, ((const res_row *)b)->keys, t->nkeys);
}

void table_body(rctx *c, res_table *t)
{
    res_program *p = c->p;
    ast_node *d = t->decl;
    if (!d->list.len) {
        t->rows = NULL;
    } else {
        t->rows = mem_calloc(d->list.len, sizeof *t->rows);
        if (!t->rows) {
            res_oom(c, d->loc);
            return;
        }
    }
    bool keys_ok_all = true;
    for (uint32_t i = 0; i < d->list.len; i++) {
        ast_node *rn = d->list.items[i];
        if (rn->params.len != t->nkeys) {
            res_err(c, E_ROW_SHAPE, rn->loc, "this row has %u key%s; table `%s` has %u",
                    rn->params.len, rn->params.len == 1 ? "" : "s", t->name, t->nkeys);
            keys_ok_all = false;
            continue;
        }
        if (rn->list.len != t->ncols) {
            res_err(c, E_ROW_SHAPE, rn->loc, "this row has %u cell%s; table `%s` has %u column%s",
                    rn->list.len, rn->list.len == 1 ? "" : "s", t->name, t->ncols,
                    t->ncols == 1 ? "" : "s");
            keys_ok_all = false;
            continue;
        }
        res_row row = { .node = rn };
        row.keys = mem_calloc(t->nkeys + t->ncols + 1, sizeof *row.keys);
        if (!row.keys) {
            res_oom(c, rn->loc);
            return;
        }
        row.cells = row.keys + t->nkeys;
        bool ok = true;
        for (uint32_t k = 0; k < t->nkeys; k++)
            ok &= expr_fold(c, rn->params.items[k], t->keys[k].type, false, &row.keys[k]);
        for (uint32_t k = 0; k < t->ncols; k++)
            expr_fold(c, rn->list.items[k], t->cols[k].type, true, &row.cells[k]);
        if (!ok) {
            mem_free(row.keys);
            keys_ok_all = false;
            continue;
        }
        t->rows[t->nrows++] = row;
    }
    /* Rows in key order (stable: equal keys keep declaration order), then duplicates: each
     * row equal to the one before it is reported and dropped. */
    if (!table_msort(t->rows, t->nrows, sizeof *t->rows, cmp_rows, t)) {
        res_oom(c, d->loc);
        return;
    }
    size_t kept = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        if (kept && cmp_const(t->rows[kept - 1].keys, t->rows[r].keys, t->nkeys) == 0) {
            diag *dg = diag_report(c->d, E_DUP_ROW, DIAG_ERROR, t->rows[r].node->loc,
                                   "table `%s` already has a row for these keys", t->name);
            if (dg)
                diag_relate(dg, t->rows[kept - 1].node->loc, "the first row is here");
            mem_free(t->rows[r].keys);
            continue;
        }
        t->rows[kept++] = t->rows[r];
    }
    t->nrows = kept;
    /* Enum-keyed tables: every combination of members has a row; index them densely. */
    size_t n = 1;
    for (uint32_t k = 0; k < t->nkeys; k++) {
        uint32_t ty = t->keys[k].type;
        if (!type_is_enum(p, ty))
            return;
        size_t len = p->enums[type_arg(p, ty)].len;
        if (len == 0 || n > DENSE_MAX / len)
            return;
        n *= len;
    }
    if (!keys_ok_all || t->nkeys == 0 || t->nkeys > 64)
        return;
    t->dense = mem_malloc(n * sizeof *t->dense);
    if (!t->dense) {
        res_oom(c, d->loc);
        return;
    }
    t->ndense = n;
    for (size_t i = 0; i < n; i++)
        t->dense[i] = -1;
    for (size_t r = 0; r < t->nrows; r++) {
        size_t idx = 0;
        for (uint32_t k = 0; k < t->nkeys; k++)
            idx = idx * p->enums[type_arg(p, t->keys[k].type)].len + (size_t)t->rows[r].keys[k].v;
        t->dense[idx] = (int32_t)r;
    }
    size_t missing = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (t->dense[i] < 0 && missing++ == 0)
            first = i;
    if (missing) {
        int64_t keys[64] = { 0 };
        size_t rest = first;
        for (uint32_t k = t->nkeys; k-- > 0;) {
            size_t len = p->enums[type_arg(p, t->keys[k].type)].len;
            if (k < 64)
                keys[k] = (int64_t)(rest % len);
            rest /= len;
        }
        char buf[256];
        table_keys_text(p, t, keys, buf, sizeof buf);
        if (missing == 1)
            res_err(c, E_TABLE_MISSING, d->loc,
                    "table `%s` has no row for (%s): write `?` cells "
                    "for what the source does not give",
                    t->name, buf);
        else
            res_err(c, E_TABLE_MISSING, d->loc,
                    "table `%s` has no row for (%s) and %zu more: "
                    "write `?` cells for what the source does not give",
                    t->name, buf, missing - 1);
    }
}
