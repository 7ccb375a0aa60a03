/* fork.c — the VM's half of odds by forking (see fork.h; vm.md §11): a procedure's frames and
 * stack saved at a roll, and put back to run the roll again.
 */
#include "fork.h"

#include <string.h>

#include "mem.h"

/* Grows an owned array *a of *cap items of size sz to hold n; false when memory runs out. */
static bool fork_room(void **a, size_t *cap, size_t n, size_t sz)
{
    if (n <= *cap)
        return true;
    size_t c = *cap ? *cap : 16;
    while (c < n)
        c *= 2;
    void *g = mem_realloc(*a, c * sz);
    if (!g)
        return false;
    *a = g;
    *cap = c;
    return true;
}

bool fork_save(vm_ctx *x, size_t sp, size_t ndice, bool many)
{
    if (x->fork_resumed) {
        x->fork_resumed = false;
        return false;
    }
    vm_fork *fk = x->fork;
    const res_program *p = x->p;
    if (!fork_room((void **)&fk->frames, &fk->frames_cap, x->nframes, sizeof *fk->frames) ||
        !fork_room((void **)&fk->stack, &fk->stack_cap, sp ? sp : 1, sizeof *fk->stack))
        return !state_fail(x, E_MEMORY, "out of memory (forking at a roll)");
    memcpy(fk->frames, x->frames, x->nframes * sizeof *fk->frames);
    memcpy(fk->stack, x->stack, sp * sizeof *fk->stack);
    fk->nframes = x->nframes;
    fk->sp = sp;
    fk->x_sp = x->sp;
    fk->depth = x->depth;
    fk->ndice = ndice;
    fk->many = many;
    fk->nlens = 0;
    for (size_t i = 0; i < sp; i++) {
        val v = x->stack[i];
        if (v.type >= p->ntypes || p->types[v.type].kind != RT_LIST || !v.u.list)
            continue;
        if (!fork_room((void **)&fk->lens, &fk->lens_cap, fk->nlens + 1, sizeof *fk->lens))
            return !state_fail(x, E_MEMORY, "out of memory (forking at a roll)");
        fk->lens[fk->nlens++] = (struct vm_fork_len){ v.u.list, v.u.list->len };
    }
    x->err.code = VM_SUSPENDED;
    x->err.msg[0] = '\0';
    return true;
}

bool fork_load(vm_ctx *x, const vm_fork *fk)
{
    if (fk->sp > x->stack_cap)
        return state_fail(x, E_INTERNAL, "no room to resume a fork");
    if (!fork_room((void **)&x->frames, &x->frames_cap, fk->nframes, sizeof *x->frames))
        return state_fail(x, E_MEMORY, "out of memory (VM frames)");
    memcpy(x->frames, fk->frames, fk->nframes * sizeof *fk->frames);
    memcpy(x->stack, fk->stack, fk->sp * sizeof *fk->stack);
    /* the lengths of the lists grown since; one that did not grow is not written (it may be
     * builtin_empty_list, read-only) */
    for (size_t i = 0; i < fk->nlens; i++)
        if (fk->lens[i].list->len != fk->lens[i].len)
            fk->lens[i].list->len = fk->lens[i].len;
    x->nframes = fk->nframes;
    x->sp = fk->x_sp;
    x->depth = fk->depth;
    x->fork_resumed = true;
    /* the roll's dispatch was counted when it stopped: it is not counted twice */
    state_set_steps(x, state_steps(x) + 1);
    return true;
}

void fork_free(vm_fork *fk)
{
    if (!fk)
        return;
    mem_free(fk->frames);
    mem_free(fk->stack);
    mem_free(fk->lens);
    *fk = (vm_fork){ 0 };
}
