/* hash.h — the one way to include uthash in hon.
 *
 * Hashes the keys with hon_hash_key (below), routes uthash's allocations through the
 * mem_realloc funnel (mem.h) and makes an out-of-memory during HASH_ADD non-fatal: the
 * element is simply not added and its hh.tbl is left NULL. Check with HON_HASH_ADDED(elt)
 * right after every HASH_ADD*. A table owns its entries and their keys; whoever frees the
 * table frees them (HASH_ITER + HASH_DEL + free).
 */
#ifndef HON_HASH_H
#define HON_HASH_H

#include <stdint.h>
#include <string.h>

#include "mem.h"

/* The hash of a key of n bytes for uthash's buckets: eight bytes a step, mixed by multiplying
 * (with uthash's default, Jenkins's, a look-up of the resolver's names took about 240
 * instructions, now about 150: bench.md §9). Only bucket placement depends on it: a table's
 * iteration (HASH_ITER) follows insertion order whatever the hash. */
static inline unsigned hon_hash_key(const void *key, size_t n)
{
    const unsigned char *s = key;
    uint64_t h = 0x9E3779B97F4A7C15u ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    /* the last 0 to 7 bytes, every one of them read, in two loads at most (a loop of a byte a
     * step was some 30 instructions a key of the resolver's names: bench.md §9); n is mixed
     * in above, so tails of different lengths differ */
    size_t r = n - i;
    uint64_t w = 0;
    if (r >= 4) {
        uint32_t lo, hi; /* overlapping when r < 8 */
        memcpy(&lo, s + i, 4);
        memcpy(&hi, s + i + r - 4, 4);
        w = (uint64_t)lo | (uint64_t)hi << 32;
    } else if (r) {
        w = (uint64_t)s[i] | (uint64_t)s[i + r / 2] << 8 | (uint64_t)s[i + r - 1] << 16;
    }
    h = (h ^ w) * 0xC4CEB9FE1A85EC53u;
    h ^= h >> 29;
    return (unsigned)(h ^ (h >> 32));
}

#define HASH_FUNCTION(keyptr, keylen, hashv) ((hashv) = hon_hash_key((keyptr), (keylen)))
#define HASH_NONFATAL_OOM                    1
#define uthash_malloc(sz)                    mem_malloc(sz)
#define uthash_free(ptr, sz)                 mem_free(ptr)
#define uthash_nonfatal_oom(obj)             ((void)0)
#include <uthash.h>

/* True when the element was really added to its table (false after an OOM in HASH_ADD*). */
#define HON_HASH_ADDED(elt) ((elt)->hh.tbl != NULL)

#endif
