/* fork.h — the VM's half of odds by forking (vm.md §11; proc.c keeps the driver's half, odds.c
 * explores): at a roll of a procedure's own frames, vm.c saves its frames and stack into
 * x->fork (vm_fork, state.h) and stops; vm_resume puts them back and runs the roll again, as
 * often as wanted, each time from that state.
 */
#ifndef HON_FORK_H
#define HON_FORK_H

#include "state.h"

/* At a ROLL or ROLL_N of the procedure's own frames (entry 0) while odds fork (x->fork): true
 * when the evaluation stops here, the frames (the top one's pc at the roll's opcode; the caller
 * sets it), the stack [0, sp) and the length of each list a slot holds saved into x->fork, and
 * x->err.code VM_SUSPENDED (E209 instead when the copy cannot be made); false when this is the
 * roll vm_resume runs again (x->fork_resumed, cleared): it rolls. */
bool fork_save(vm_ctx *x, size_t sp, size_t ndice, bool many);
/* Puts back the frames, the stack (x's must have room for fk->sp values) and the lists'
 * lengths fk saved, and x->depth, and marks the roll to run (x->fork_resumed); gives back the
 * step the stopped roll's dispatch took. False (E209) when the frames cannot grow. */
bool fork_load(vm_ctx *x, const vm_fork *fk);

/* Frees what fk owns (the struct is the caller's); accepts a zeroed one. */
void fork_free(vm_fork *fk);

#endif
