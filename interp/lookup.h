/* lookup.h — the program's tables read while an evaluation runs (the TABLE instruction and the
 * `?` cells of a whole row read), for the dispatch loop (vm.c).
 *
 * A table is read under the edition's version (vm_ctx.table_of); while tracing, each lookup is
 * recorded in the trace (trace.h). Errors are the E2xx of state_fail: E201 a cell the source
 * does not give, E202 no row for the keys (docs/spec/errors.md).
 */
#ifndef HON_LOOKUP_H
#define HON_LOOKUP_H

#include "state.h"

/* Reads column col of table `table` (as declared; the edition's version is read) on the row
 * for its nkeys keys (borrowed) into *out; col UINT32_MAX: the whole row, a record in the
 * arena whose `?` cells are absent values. False with E201 or E202 (or E209) set. */
bool lookup_table(vm_ctx *x, uint32_t table, const val *keys, uint32_t col, val *out);
/* Fails with E201 for the `?` cell (table, row, col): the message names the table, the row's
 * keys, the column and the citations. Returns false. */
bool lookup_fail_absent(vm_ctx *x, uint32_t table, uint32_t row, uint32_t col);

#endif
