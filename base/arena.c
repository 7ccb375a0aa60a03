/* arena.c — the bump allocator of arena.h.
 *
 * Requests are rounded up to the alignment of max_align_t and carved from 16 KiB blocks. A
 * request larger than a quarter block gets a block of its own, linked behind the current one,
 * so the room left in the current block is not wasted.
 */
#include "arena.h"

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>

#include "mem.h"

enum {
    BLOCK_SIZE = 16 * 1024
};

void *arena_alloc_slow(arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    if (n > SIZE_MAX / 2)
        return NULL;
    n = (n + align - 1) & ~(align - 1);
    if (n == 0)
        n = align;
    if (a->limit && (n > a->limit || a->total > a->limit - n))
        return NULL;
    arena_block *b = a->head;
    if (!b || b->cap - b->used < n) {
        bool big = n > BLOCK_SIZE / 4;
        size_t cap = big ? n : BLOCK_SIZE;
        arena_block *nb = mem_malloc(sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->used = 0;
        nb->cap = cap;
        if (big && b) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = (unsigned char *)b->data + b->used;
    b->used += n;
    a->total += n;
    return p;
}

size_t arena_room(size_t n)
{
    const size_t align = alignof(max_align_t);
    if (n > SIZE_MAX / 2)
        return SIZE_MAX;
    return n ? (n + align - 1) & ~(align - 1) : align;
}

bool arena_reserve(arena *a, size_t n)
{
    if (a->head || n == 0 || n > SIZE_MAX / 2 || n % alignof(max_align_t))
        return false;
    arena_block *b = mem_malloc(sizeof *b + n);
    if (!b)
        return false;
    *b = (arena_block){ .next = NULL, .used = 0, .cap = n };
    a->head = b;
    return true;
}

/* Frees the blocks of the chain that starts at b. */
static void free_chain(arena_block *b)
{
    while (b) {
        arena_block *next = b->next;
        mem_free(b);
        b = next;
    }
}

void arena_reset_chain(arena *a)
{
    arena_block *keep = a->head;
    if (!keep)
        return;
    free_chain(keep->next);
    keep->next = NULL;
    keep->used = 0;
    a->total = 0;
}

arena_mark arena_mark_of(const arena *a)
{
    arena_mark m = { a->head, NULL, 0, a->total };
    if (a->head) {
        m.next = a->head->next;
        m.used = a->head->used;
    }
    return m;
}

/* The blocks newer than the mark are the chain in front of its head (each new block went in
 * front, a large one right behind the head of its time), and the large blocks put right behind
 * the mark's head itself, which sit between it and the block that followed it then. */
void arena_rewind(arena *a, arena_mark m)
{
    arena_block *b = a->head;
    while (b && b != m.head) {
        arena_block *next = b->next;
        mem_free(b);
        b = next;
    }
    a->head = b;
    if (b) {
        arena_block *c = b->next;
        while (c && c != m.next) {
            arena_block *next = c->next;
            mem_free(c);
            c = next;
        }
        b->next = m.next;
        b->used = m.used;
    }
    a->total = m.total;
}

void arena_free(arena *a)
{
    free_chain(a->head);
    a->head = NULL;
    a->total = 0;
}
