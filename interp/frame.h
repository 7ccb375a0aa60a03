/* frame.h — inside the VM (vm.c, calls.c; nothing else includes it): the one way a call pushes
 * a frame, and what the dispatch loop and the call machinery ask of each other (vm.md §4).
 */
#ifndef HON_FRAME_H
#define HON_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "state.h"

/* Pushes a frame running chunk ch (borrowed) from its start, its local 0 at stack index nb,
 * where the caller has put its arguments; makes room for its locals and its stack (x->stack
 * may move: pointers into it go stale) and zeroes its locals from `zero_from` on (a default, a
 * fn while the odds fork: its nargs; another fn's: none, its nlocals; a combined query chunk:
 * its accumulator alone, combine.h). The depth is
 * the caller's to count. true, or false with E209 when memory runs out. Inline: CALL_FN and
 * CALL_QUERY push their frames with it inside the dispatch loop, where a call would cost more
 * than the work (the room there is, a free frame slot, are the common case). */
static inline bool vm_enter_frame(vm_ctx *x, const chunk *ch, size_t nb, uint32_t zero_from)
{
    if (nb + ch->nlocals + ch->max_stack + 1 > x->stack_cap &&
        !state_ensure_stack(x, nb + ch->nlocals + ch->max_stack + 1))
        return false;
    if (zero_from < ch->nlocals) /* all bits zero: (val){ 0 } */
        memset(x->stack + nb + zero_from, 0, (ch->nlocals - zero_from) * sizeof(val));
    if (x->nframes < x->frames_cap)
        x->frames[x->nframes++] = (vm_frame){ ch, ch->code, nb };
    else if (!state_push_frame(x, ch, nb))
        return false;
    return true;
}

/* The locals a frame of ch zeroes when nargs arguments start it: a combined query chunk
 * (combine.h) only its accumulator, the last two, and the locals of its kept reads before
 * them (reuse.h: cleared means not computed yet; its rules and the fns copied into it set
 * each of their locals before they read it, as every chunk does); any other, all but its
 * arguments. */
static inline uint32_t vm_zero_from(const chunk *ch, uint32_t nargs)
{
    return ch->kind == CHUNK_QUERY ? ch->nlocals - 2 - ch->nkept : nargs;
}

/* The dispatch loop (vm.c): runs the innermost frame of x (pushed by the caller) until it
 * returns to the caller: true with *answered (and *out when it answered), or false with
 * x->err set (or VM_SUSPENDED at a roll saved in x->fork). resume (else NULL): the frames are
 * vm_resume's, the top one stopped at a roll (fork_save), which is run again: the entry frame
 * is then the procedure's frame 0, pc the roll's opcode, the top of the stack resume's. */
bool vm_execute(vm_ctx *x, val *out, bool *answered, const vm_fork *resume);

/* The query driver (calls.c): asks query q with the nargs arguments stored at
 * x->stack[argi...], running its active rules in order (or its combined chunk, untraced) and
 * combining their answers by the query's mode (language.md §3.5); its table answers when it
 * has one (memo.h). true with *out set (and *decider, when asked, as vm_ask's), or false with
 * x->err set. */
bool vm_call_query(vm_ctx *x, uint32_t q, size_t argi, uint32_t nargs, val *out, uint32_t *decider);

#endif
