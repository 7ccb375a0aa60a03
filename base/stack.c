/* stack.c — stack.h's floor: the extent of the calling thread's stack, asked once per thread. */
#define _GNU_SOURCE /* pthread_getattr_np */
#include "stack.h"

#include <pthread.h>

_Thread_local uintptr_t stack_floor_cached __attribute__((tls_model("initial-exec")));
static _Thread_local size_t stack_bytes;

uintptr_t stack_floor_init(void)
{
    pthread_attr_t attr;
    void *lo = NULL;
    size_t size = 0;
    uintptr_t floor = 1; /* unknown: never short */
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        /* a stack smaller than twice the margin (a few hundred KiB) keeps half of itself */
        if (pthread_attr_getstack(&attr, &lo, &size) == 0 && lo && size > 0)
            floor = (uintptr_t)lo + (size / 2 < STACK_MARGIN ? size / 2 : STACK_MARGIN);
        pthread_attr_destroy(&attr);
    }
    /* told to the nearest 64 KiB: the main thread's extent as glibc gives it moves by a few
       KiB from run to run (where the environment ends), and a bound taken from it must not */
    stack_bytes = floor > 1 ? (size + (32 << 10)) & ~(size_t)((64 << 10) - 1) : 0;
    stack_floor_cached = floor;
    return floor;
}

size_t stack_size(void)
{
    if (!stack_floor_cached)
        stack_floor_init();
    return stack_bytes;
}
