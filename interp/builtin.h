/* builtin.h — the built-ins of the language that read the board (language.md §5.3): one entry
 * point, called by the VM's BOARD instruction (vm.c). Geometry and storage only; the rules that
 * give them meaning are .hon. builtin.c implements them on the scene (scene.h), one C body per
 * BUILTIN_BOARD entry of their list, dsl/builtins.h.
 */
#ifndef HON_BUILTIN_H
#define HON_BUILTIN_H

#include "state.h"

/* Runs board built-in b (a RES_BI_* of a BUILTIN_BOARD entry, dsl/builtins.h) on its n
 * arguments (borrowed); out->type holds the result type on entry (a list's type for list
 * results), and out's payload is set on success (lists in the evaluation's arena). False with
 * an E212-E218 error (state_fail) otherwise; E299 for an id with no body. */
bool builtin_board(vm_ctx *x, uint32_t b, const val *args, uint32_t n, val *out);

#endif
