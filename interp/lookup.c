/* lookup.c — reading the program's tables while an evaluation runs (see lookup.h): a row by
 * its keys (dense index or scan, floor keys), a cell or a whole row, and the errors E201 (a `?`
 * cell read) and E202 (no row), worded with the table's keys and citations. */
#include "lookup.h"

#include "mem.h"

/* ---- errors ---- */

/* Writes "(k1, k2)" for a table's key values. */
static void keys_text(const res_program *p, const res_table *t, const int64_t *keys, strbuf *b)
{
    const val_env env = { p, NULL, NULL, NULL };
    sb_putc(b, '(');
    for (uint32_t i = 0; i < t->nkeys; i++) {
        if (i)
            sb_puts(b, ", ");
        val_print(&env, (val){ .type = t->keys[i].type, .u.i = keys[i] }, b);
    }
    sb_putc(b, ')');
}

static void cites_text(const res_program *p, const ast_vec *cites, strbuf *b)
{
    for (uint32_t i = 0; i < cites->len; i++) {
        const ast_node *c = cites->items[i];
        sb_puts(b, i ? "; " : "");
        sb_puts(b, model_cite_id(c) ? model_cite_id(c) : "?");
        if (model_cite_source(p, c))
            sb_printf(b, " (%s)", model_cite_source(p, c));
    }
}

/* E201: a `?` cell was read. Names the table, the row's keys, the column and the citation. */
bool lookup_fail_absent(vm_ctx *x, uint32_t table, uint32_t row, uint32_t col)
{
    const res_program *p = x->p;
    if (!x->err.code) {
        x->err.cell_table = table;
        x->err.cell_row = row;
    }
    if (table >= p->ntables || row >= p->tables[table].nrows)
        return state_fail(x, E_NOT_GIVEN_CELL,
                          "a table cell that the source does not give was read");
    const res_table *t = &p->tables[table];
    const res_row *r = &t->rows[row];
    strbuf b = { 0 };
    int64_t keys[64];
    for (uint32_t i = 0; i < t->nkeys && i < 64; i++)
        keys[i] = r->keys[i].v;
    sb_printf(&b, "table `%s`, row ", t->name);
    keys_text(p, t, keys, &b);
    if (!t->single && col < t->ncols)
        sb_printf(&b, ", column `%s`", t->cols[col].name);
    sb_puts(&b, ": not given in the source");
    const ast_vec *cites = r->node && r->node->cites.len ? &r->node->cites : &t->decl->cites;
    if (cites->len) {
        sb_puts(&b, " [");
        cites_text(p, cites, &b);
        sb_puts(&b, "]");
    }
    state_fail(x, E_NOT_GIVEN_CELL, "%s", sb_str(&b));
    sb_free(&b);
    return false;
}

/* ---- tables ---- */

static bool table_cell(vm_ctx *x, uint32_t table, uint32_t row, uint32_t col, val *out);

/* Finds the row for keys; E202 when there is none. */
static bool table_row(vm_ctx *x, const res_table *t, const val *keys, uint32_t *row)
{
    const res_program *p = x->p;
    if (t->dense) {
        size_t idx = 0;
        bool ok = true;
        for (uint32_t k = 0; k < t->nkeys; k++) {
            size_t len = p->enums[p->types[t->keys[k].type].arg].len;
            if (keys[k].u.i < 0 || (size_t)keys[k].u.i >= len)
                ok = false;
            else
                idx = idx * len + (size_t)keys[k].u.i;
        }
        if (ok && idx < t->ndense && t->dense[idx] >= 0) {
            *row = (uint32_t)t->dense[idx];
            return true;
        }
    } else {
        int64_t best_key = 0;
        int64_t best = -1;
        for (size_t r = 0; r < t->nrows; r++) {
            const res_const *rk = t->rows[r].keys;
            bool match = true;
            for (uint32_t k = 0; k < t->nkeys && match; k++) {
                if ((int32_t)k == t->floor_key)
                    match = rk[k].v <= keys[k].u.i;
                else
                    match = rk[k].v == keys[k].u.i;
            }
            if (!match)
                continue;
            if (t->floor_key < 0) {
                *row = (uint32_t)r;
                return true;
            }
            if (best < 0 || rk[t->floor_key].v >= best_key) {
                best = (int64_t)r;
                best_key = rk[t->floor_key].v;
            }
        }
        if (best >= 0) {
            *row = (uint32_t)best;
            return true;
        }
    }
    strbuf b = { 0 };
    int64_t kv[64];
    for (uint32_t i = 0; i < t->nkeys && i < 64; i++)
        kv[i] = keys[i].u.i;
    sb_printf(&b, "table `%s` has no row for ", t->name);
    keys_text(p, t, kv, &b);
    if (t->floor_key >= 0)
        sb_printf(&b, " (`%s` is a floor key: the smallest row is above it)",
                  t->keys[t->floor_key].name);
    state_fail(x, E_NO_ROW, "%s", sb_str(&b));
    sb_free(&b);
    return false;
}

/* Reads column col (UINT32_MAX: the whole lookup) of the row for keys into *out. When
 * tracing, the lookup is recorded (table, keys, row, column, value). */
bool lookup_table(vm_ctx *x, uint32_t table, const val *keys, uint32_t col, val *out)
{
    const res_program *p = x->p;
    if (table < x->ntable_of)
        table = (uint32_t)x->table_of[table]; /* the edition's version */
    const res_table *t = &p->tables[table];
    /* the common case first, untraced: one enum key of a dense table, one column given (a
     * bonus by terrain): the read table_row and table_cell below make, without their calls */
    const uint32_t c = col == UINT32_MAX && t->single ? 0 : col; /* a one-column table's */
    if (!x->tracing && t->dense && t->nkeys == 1 && c < t->ncols) {
        const int64_t k = keys[0].u.i;
        const size_t len = p->enums[p->types[t->keys[0].type].arg].len;
        if (k >= 0 && (size_t)k < len && (size_t)k < t->ndense && t->dense[k] >= 0) {
            const res_row *r = &t->rows[t->dense[k]];
            if (r->cells[c].given) {
                *out = (val){ .type = t->cols[c].type, .u.i = r->cells[c].v };
                return true;
            }
        }
    }
    uint32_t row;
    if (!table_row(x, t, keys, &row))
        return false;
    if (x->tracing) {
        bool ok = table_cell(x, table, row, col, out);
        if (ok)
            trace_lookup(&x->trace, &x->arena, table, keys, t->nkeys, row, col, *out);
        return ok;
    }
    return table_cell(x, table, row, col, out);
}

/* Reads column col (UINT32_MAX: the whole row) of row `row` of table `table` into *out. */
static bool table_cell(vm_ctx *x, uint32_t table, uint32_t row, uint32_t col, val *out)
{
    const res_program *p = x->p;
    const res_table *t = &p->tables[table];
    const res_row *r = &t->rows[row];
    if (col == UINT32_MAX && !t->single) {
        val *f = state_alloc(x, t->ncols * sizeof *f);
        if (!f)
            return false;
        for (uint32_t c = 0; c < t->ncols; c++)
            f[c] = r->cells[c].given ? (val){ .type = t->cols[c].type, .u.i = r->cells[c].v }
                                     : val_absent(t->cols[c].type, table, row, c);
        *out = (val){ .type = t->result, .u.rec = f };
        return true;
    }
    if (col == UINT32_MAX)
        col = 0;
    if (col >= t->ncols)
        return state_fail(x, E_INTERNAL, "bad table column");
    if (!r->cells[col].given)
        return lookup_fail_absent(x, table, row, col);
    *out = (val){ .type = t->cols[col].type, .u.i = r->cells[col].v };
    return true;
}
