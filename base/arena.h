/* arena.h — bump allocation released all at once: the one arena of hon.
 *
 * An arena hands out blocks aligned for any type from a chain of large blocks, and frees them
 * all together. The parser's AST (dsl/ast.c: one arena per file) and the VM's values
 * (interp/state.c: one arena per evaluation, reset after it) both live in one. All its memory
 * comes from the mem_realloc funnel (mem.h).
 */
#ifndef HON_ARENA_H
#define HON_ARENA_H

#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A block of the chain (arena.c carves them; here so that arena_alloc's common case is
 * inline). */
typedef struct arena_block arena_block;
struct arena_block {
    arena_block *next;
    size_t used, cap; /* bytes of data */
    max_align_t data[];
};

/* A zeroed struct is an empty arena with no limit. */
typedef struct arena {
    arena_block *head; /* the block being filled; large requests sit behind it */
    size_t total;      /* bytes handed out since the last reset */
    size_t limit;      /* refuse to hand out more than this many bytes (0: no limit) */
} arena;

/* arena_alloc's every case (a new block, the limit refused, n 0 or absurd): not called
 * directly. */
void *arena_alloc_slow(arena *a, size_t n);

/* n bytes (uninitialised), aligned for any type and owned by the arena; NULL when memory runs
 * out or the arena would pass its limit. n == 0 still gives a distinct block. Inline where
 * the current block has the room and the limit allows it (the VM allocates per evaluation:
 * interp/state.c), else arena_alloc_slow. */
static inline void *arena_alloc(arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    arena_block *b = a->head;
    size_t r = (n + align - 1) & ~(align - 1);
    /* n - 1 wraps for 0: n is 1 .. SIZE_MAX / 2, as the slow path asks before rounding */
    if (n - 1 < SIZE_MAX / 2 && b && b->cap - b->used >= r &&
        (!a->limit || (r <= a->limit && a->total <= a->limit - r))) {
        void *p = (unsigned char *)b->data + b->used;
        b->used += r;
        a->total += r;
        return p;
    }
    return arena_alloc_slow(a, n);
}
/* The bytes a request of n takes in a block: n rounded up to the alignment (at least one
 * alignment's worth, as for n == 0); SIZE_MAX when n is absurd (over SIZE_MAX / 2). */
size_t arena_room(size_t n);
/* Gives the empty arena a (its first block) room for exactly n bytes, so that requests whose
 * arena_room add up to n fill it with nothing left over (a reader that knows what it will ask:
 * dsl/ast_image.c); later requests go to blocks of their own as usual. False, a unchanged, when
 * memory runs out, n is 0 or absurd, or a is not empty (then nothing is needed of it). */
bool arena_reserve(arena *a, size_t n);
/* arena_reset's case of more than one block: not called directly. */
void arena_reset_chain(arena *a);
/* Forgets everything handed out, keeping one block for reuse. Inline where the arena has one
 * block or none (every evaluation ends with it: interp/state.c), else arena_reset_chain. */
static inline void arena_reset(arena *a)
{
    arena_block *keep = a->head;
    if (!keep)
        return;
    if (keep->next) {
        arena_reset_chain(a);
        return;
    }
    keep->used = 0;
    a->total = 0;
}
/* A point in an arena's history (arena_mark), to go back to (arena_rewind). */
typedef struct arena_mark {
    arena_block *head; /* the block being filled then (NULL: the arena was empty) */
    arena_block *next; /* the block behind it then */
    size_t used;       /* bytes of head used then */
    size_t total;
} arena_mark;

/* Where arena a stands now. */
arena_mark arena_mark_of(const arena *a);
/* Forgets what was handed out since mark m was taken (its blocks are freed), keeping everything
 * handed out before it; m must have been taken on a since its last reset and no later rewind
 * may have gone back before m. What odds by forking use to run each continuation of a roll
 * from the same values (interp/odds.c). */
void arena_rewind(arena *a, arena_mark m);
/* Frees every block; the arena is empty (and reusable) after. The struct is the caller's. */
void arena_free(arena *a);

#endif
