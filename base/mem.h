/* mem.h — the one allocator funnel of hon.
 *
 * Every heap allocation of the project goes through mem_realloc (uthash too, via hash.h), so
 * allocation-failure tests can make the Nth allocation fail and check that nothing crashes or
 * leaks. The failure hook is the only piece of per-thread mutable state in the library; it is
 * inert unless a test arms it.
 */
#ifndef HON_MEM_H
#define HON_MEM_H

#include <stddef.h>

/* Resizes p to n bytes (p NULL: allocates; n 0: frees and returns NULL). Returns the new block,
 * or NULL on failure, in which case p is left untouched and still owned by the caller. */
void *mem_realloc(void *p, size_t n);
/* Allocates n bytes (uninitialised); NULL on failure. n == 0 allocates 1 byte. */
void *mem_malloc(size_t n);
/* Allocates a zeroed array of count elements of size bytes; NULL on failure or overflow. */
void *mem_calloc(size_t count, size_t size);
/* Frees p; accepts NULL. */
void mem_free(void *p);
/* Copies the NUL-terminated s into a new block; NULL when s is NULL or memory runs out. */
char *mem_strdup(const char *s);
/* Copies n bytes of s into a new NUL-terminated block; NULL on failure. */
char *mem_strndup(const char *s, size_t n);

/* Test hook: after `n` more successful allocations, every further allocation fails (n == 0:
 * the very next one fails). mem_fail_reset disarms it. Per thread. */
void mem_fail_after(long n);
void mem_fail_reset(void);
/* Number of allocations that have failed on purpose since the hook was last armed. */
long mem_failed_count(void);

/* Makes room in the dynamic array `arr` (fields `len` and `cap`, both size_t) for one more
 * element, doubling its capacity. Evaluates to true on success, false on OOM (arr untouched). */
#define MEM_GROW(arr, len, cap) \
    ((len) < (cap) || mem_grow_((void **)&(arr), &(cap), (len) + 1, sizeof *(arr)))
/* Internal to MEM_GROW: grows *p (of *cap elements of elem bytes) to hold at least need
 * elements; updates *cap. Returns false on OOM or size overflow, leaving *p and *cap alone. */
_Bool mem_grow_(void **p, size_t *cap, size_t need, size_t elem);

#endif
