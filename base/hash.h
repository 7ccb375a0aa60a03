/* hash.h — the one way to include uthash in hon.
 *
 * Routes uthash's allocations through the mem_realloc funnel (mem.h) and makes an
 * out-of-memory during HASH_ADD non-fatal: the element is simply not added and its hh.tbl is
 * left NULL. Check with HON_HASH_ADDED(elt) right after every HASH_ADD*. A table owns its
 * entries and their keys; whoever frees the table frees them (HASH_ITER + HASH_DEL + free).
 */
#ifndef HON_HASH_H
#define HON_HASH_H

#include <string.h>

#include "mem.h"

#define HASH_NONFATAL_OOM        1
#define uthash_malloc(sz)        mem_malloc(sz)
#define uthash_free(ptr, sz)     mem_free(ptr)
#define uthash_nonfatal_oom(obj) ((void)0)
#include <uthash.h>

/* True when the element was really added to its table (false after an OOM in HASH_ADD*). */
#define HON_HASH_ADDED(elt) ((elt)->hh.tbl != NULL)

#endif
