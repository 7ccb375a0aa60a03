/* stack.h — how much of the thread's native stack is left, so that the code that recurses in C
 * (the VM's nested query calls, events and procedures) stops with an error before the stack
 * runs out, whatever `ulimit -s` or a thread's stack size: a call depth cap (E206, at most
 * 1,000) fits an 8 MiB stack, not a 256 KiB one.
 */
#ifndef HON_STACK_H
#define HON_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes left unused under the check: what the deepest work between two checks may need (the
 * dispatch loop's frame, a builtin's arrays of 16 KiB, printing a diagnostic), with room for
 * a sanitizer's larger frames. */
#define STACK_MARGIN ((size_t)96 << 10)

/* The lowest address this thread's frames may reach: the stack's end plus STACK_MARGIN (half
 * the stack when that is less); 1 when
 * the stack's extent is unknown (no check then). 0 until stack_floor_init computed it. */
extern _Thread_local uintptr_t stack_floor_cached
    __attribute__((tls_model("initial-exec"))); /* one load, in libhon.so too */

/* Computes stack_floor_cached for this thread (pthread_getattr_np: the main thread's stack as
 * `ulimit -s` sizes it, another thread's as it was created) and returns it. */
uintptr_t stack_floor_init(void);

/* Whether the calling frame lies within STACK_MARGIN bytes of the end of this thread's stack
 * (the stack grows down): a recursion should stop here, with an error. */
static inline bool stack_short(void)
{
    uintptr_t floor = stack_floor_cached ? stack_floor_cached : stack_floor_init();
    return (uintptr_t)__builtin_frame_address(0) < floor;
}

/* The size of this thread's stack in bytes to the nearest 64 KiB (0 when unknown), for
 * messages and for bounds that must not change from run to run. */
size_t stack_size(void);

#endif
