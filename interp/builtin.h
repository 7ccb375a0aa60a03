/* builtin.h — the built-ins of the language that read the board (language.md §5.3): one entry
 * point, called by the VM's BOARD instruction (vm.c). Geometry and storage only; the rules that
 * give them meaning are .hon. builtin.c implements them on the scene (scene.h).
 */
#ifndef HON_BUILTIN_H
#define HON_BUILTIN_H

#include "state.h"

/* Runs board built-in b (RES_BI_FIRST_BOARD .. RES_BI_END_BOARD - 1, dsl/resolve.h) on its n
 * arguments (borrowed); out->type holds the result type on entry (a list's type for list
 * results), and out's payload is set on success (lists in the evaluation's arena). False with
 * an E212-E218 error (state_fail) otherwise. */
bool builtin_board(vm_ctx *x, uint32_t b, const val *args, uint32_t n, val *out);

#endif
