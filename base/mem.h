/* mem.h — the one allocator funnel of hon.
 *
 * Every heap allocation of the project goes through mem_realloc (uthash too, via hash.h), so
 * allocation-failure tests can make the Nth allocation fail and check that nothing crashes or
 * leaks, and so that the bytes held can be counted and capped (like Lua's memory limit): a
 * session sets the cap (interp/session.c, hon_config.max_memory) and an allocation past it
 * fails as if memory ran out, marked so the error can say which. The failure hook and the
 * count are the only per-thread mutable state in the library.
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

/* The cap on the bytes this thread holds through the funnel (as the allocator counts them,
 * malloc_usable_size): an allocation or growth that would pass it fails (NULL) and marks the
 * cap as hit. 0: no cap. Shrinking and freeing always succeed. */
void mem_set_cap(size_t bytes);
/* The cap in force (0: none). */
size_t mem_cap(void);
/* The bytes this thread holds through the funnel now. */
size_t mem_in_use(void);
/* Whether an allocation failed on the cap since the mark was last cleared; mem_cap_clear
 * clears it. */
_Bool mem_cap_hit(void);
void mem_cap_clear(void);
/* mem_set_cap(bytes) and mem_cap_clear in one call (a session does both before each
 * evaluation). */
void mem_cap_start(size_t bytes);

/* Makes room in the dynamic array `arr` (fields `len` and `cap`, both size_t) for one more
 * element, doubling its capacity. Evaluates to true on success, false on OOM (arr untouched). */
#define MEM_GROW(arr, len, cap) \
    ((len) < (cap) || mem_grow_((void **)&(arr), &(cap), (len) + 1, sizeof *(arr)))
/* Internal to MEM_GROW: grows *p (of *cap elements of elem bytes) to hold at least need
 * elements; updates *cap. Returns false on OOM or size overflow, leaving *p and *cap alone. */
_Bool mem_grow_(void **p, size_t *cap, size_t need, size_t elem);

#endif
