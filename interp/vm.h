/* vm.h — the virtual machine (Lua's lvm): the dispatch loop runs chunks, the query driver runs
 * a query's rules and combines their answers. An evaluation is state_begin (state.h), then any
 * number of vm_eval, vm_call and vm_run, then state_end. Errors are E2xx in x->err with the
 * failing instruction's span. No opcode touches files; procedures are proc.c's, above this.
 */
#ifndef HON_VM_H
#define HON_VM_H

#include "state.h"

/* Runs a chunk that takes no arguments (an expression, a test expect); true with *out set, or
 * false with x->err set. The step budget is shared by everything run until state_end. */
bool vm_eval(vm_ctx *x, const chunk *ch, val *out);
/* Calls query q (is_fn false) or fn q (is_fn true) from C with nargs arguments (copied), as
 * hon_call_query does: true with *out set, or false with x->err set. Call between state_begin
 * and state_end. */
bool vm_call(vm_ctx *x, bool is_fn, uint32_t q, const val *args, uint32_t nargs, val *out);
/* vm_call with its nargs arguments already in x->stack[0..nargs) (x->stack_cap > nargs): the
 * public API's calls convert them there (eval.c), not into a copy first. */
bool vm_call_placed(vm_ctx *x, bool is_fn, uint32_t q, uint32_t nargs, val *out);
/* The common call from C in one: starts an untraced evaluation under the setup the last
 * state_begin took (state_restart: the caller knows that setup still holds and set the memory
 * cap), then vm_call_placed, then, when the call succeeded, state_end. true with *out set (a
 * scalar: the arena it may have pointed into is reset), or false with x->err set and the
 * evaluation not ended (the caller reports the error, then calls state_end). */
bool vm_call_fresh(vm_ctx *x, bool is_fn, uint32_t q, uint32_t nargs, val *out);
/* Runs chunk ch (a rule's, an event's rule's) on nargs arguments (copied above the running
 * frames, so it may be called while others run, as the procedure driver does): true with
 * *answered telling whether it reached an answer (then *out holds it; a rule whose `when` was
 * false did not), or false with x->err set. */
bool vm_run(vm_ctx *x, const chunk *ch, const val *args, uint32_t nargs, val *out, bool *answered);
/* Runs again, from the roll it stopped at, the procedure chunk or event rule fk saved
 * (fork_suspends: x->fork was set and a roll of its own frames stopped it with VM_SUSPENDED),
 * as vm_run would have gone on: the roll rolls this time (the dice source decides its faces),
 * and the chunk runs to its end (true, *answered and *out as vm_run's), or to its next roll
 * saved in x->fork (false, VM_SUSPENDED), or fails (false, x->err). Lists the saved stack holds
 * get back the length they had; the caller puts back everything else the rest of the run may
 * have changed (the arena, the board: odds.c). fk is only read, and may be resumed again. */
bool vm_resume(vm_ctx *x, const vm_fork *fk, val *out, bool *answered);
/* Asks query q on nargs arguments (copied above the running frames, as vm_run) while others
 * may run: true with *out set and *decider the rule whose answer decided it (the permit that
 * made an exception, the first forbid, the first answer of `first`, `any` or `all`; UINT32_MAX
 * when none did: a default, a sum, min or max), or false with x->err set. */
bool vm_ask(vm_ctx *x, uint32_t q, const val *args, uint32_t nargs, val *out, uint32_t *decider);

#endif
