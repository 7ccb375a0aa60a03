/* mem.c — the allocator funnel (see mem.h), its allocation-failure test hook and its memory
 * cap.
 *
 * Everything allocates through mem_realloc; hash.h routes uthash here too. The hook
 * counts allocations per thread so tests can fail the Nth one; the cap counts the bytes held,
 * as malloc_usable_size sees them, so a block freed elsewhere (open_memstream's) is never
 * miscounted.
 */
#include "mem.h"

#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Failure injection: fail_left < 0 means disarmed. Thread-local so parallel tests do not
 * interfere; this is the library's only mutable state outside objects, and it is test-only. */
static _Thread_local long fail_left = -1;
static _Thread_local long failed = 0;
/* The memory cap: bytes held through the funnel, the cap (0: none), whether it refused. */
static _Thread_local size_t in_use = 0;
static _Thread_local size_t cap_bytes = 0;
static _Thread_local bool cap_hit = false;

/* Takes `gone` bytes off the count (never below 0: a block from elsewhere may be freed here). */
static void uncount(size_t gone)
{
    in_use = gone < in_use ? in_use - gone : 0;
}

static bool should_fail(void)
{
    if (fail_left < 0)
        return false;
    if (fail_left == 0) {
        failed++;
        return true;
    }
    fail_left--;
    return false;
}

void *mem_realloc(void *p, size_t n)
{
    size_t old = p ? malloc_usable_size(p) : 0;
    if (n == 0) {
        uncount(old);
        free(p);
        return NULL;
    }
    if (should_fail())
        return NULL;
    if (cap_bytes && n > old && (n - old > cap_bytes || in_use > cap_bytes - (n - old))) {
        cap_hit = true;
        return NULL;
    }
    void *q = realloc(p, n);
    if (q) {
        uncount(old);
        in_use += malloc_usable_size(q);
    }
    return q;
}

void *mem_malloc(size_t n)
{
    return mem_realloc(NULL, n ? n : 1);
}

void *mem_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    size_t n = count * size;
    void *p = mem_malloc(n);
    if (p)
        memset(p, 0, n ? n : 1);
    return p;
}

void mem_free(void *p)
{
    if (p)
        uncount(malloc_usable_size(p));
    free(p);
}

char *mem_strndup(const char *s, size_t n)
{
    if (!s)
        return NULL;
    char *d = mem_malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *mem_strdup(const char *s)
{
    return s ? mem_strndup(s, strlen(s)) : NULL;
}

_Bool mem_grow_(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 4;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return false;
        ncap *= 2;
    }
    if (elem && ncap > SIZE_MAX / elem)
        return false;
    void *np = mem_realloc(*p, ncap * elem);
    if (!np)
        return false;
    *p = np;
    *cap = ncap;
    return true;
}

void mem_fail_after(long n)
{
    fail_left = n < 0 ? 0 : n;
    failed = 0;
}

void mem_fail_reset(void)
{
    fail_left = -1;
}

long mem_failed_count(void)
{
    return failed;
}

void mem_set_cap(size_t bytes)
{
    cap_bytes = bytes;
}

size_t mem_cap(void)
{
    return cap_bytes;
}

size_t mem_in_use(void)
{
    return in_use;
}

_Bool mem_cap_hit(void)
{
    return cap_hit;
}

void mem_cap_clear(void)
{
    cap_hit = false;
}

void mem_cap_start(size_t bytes)
{
    cap_bytes = bytes;
    cap_hit = false;
}
