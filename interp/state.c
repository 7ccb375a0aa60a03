/* state.c — setting up and releasing an evaluation's state, its errors and its arena (see
 * state.h). An error keeps the span of the instruction that failed: the innermost frame's
 * saved pc, which every instruction that can fail saves first (vm.c's SAVE_PC).
 */
#include "state.h"

#include <stdarg.h>
#include <stdio.h>

#include "mem.h"

void state_begin(vm_ctx *x, const state_setup *s, dice_src *dice, bool tracing)
{
    x->pg = s->pg;
    x->p = s->pg->res;
    x->sc = s->sc;
    x->units = s->sc ? s->sc->units : res_units_of(s->pg->res, s->edition);
    x->edition = s->edition;
    const res_edition *e = s->edition >= 0 && (size_t)s->edition < x->p->neditions
                               ? &x->p->editions[s->edition]
                               : NULL;
    x->fn_of = e ? e->fn_of : NULL;
    x->nfn_of = e && e->fn_of ? e->nfn_of : 0;
    x->table_of = e ? e->table_of : NULL;
    x->ntable_of = e && e->table_of ? e->ntable_of : 0;
    x->readings = s->readings;
    memo_key(&x->memo, s->pg, s->edition, s->readings); /* on failure nothing is tabled */
    x->dice = dice;
    x->budget = s->budget ? s->budget : VM_DEFAULT_BUDGET;
    x->steps_left = x->budget;
    x->max_depth = s->max_depth ? s->max_depth : VM_DEFAULT_DEPTH;
    x->max_list = s->max_list ? s->max_list : VM_DEFAULT_LIST;
    x->depth = 0;
    x->sp = 0;
    x->nframes = 0;
    x->arena.limit = VM_ARENA_LIMIT;
    x->tracing = tracing;
    x->rules = tracing ? s->pg->explained : s->pg->rules;
    trace_reset(&x->trace);
    x->line_list = NULL;
    x->err.code = E_NONE;
    x->refusal.set = false;
}

void state_end(vm_ctx *x)
{
    arena_reset(&x->arena);
    x->line_list = NULL; /* it was in the arena */
}

void state_free(vm_ctx *x)
{
    if (!x)
        return;
    mem_free(x->stack);
    mem_free(x->frames);
    arena_free(&x->arena);
    trace_free(&x->trace);
    memo_free(&x->memo);
    *x = (vm_ctx){ 0 };
}

ast_loc state_where(const vm_ctx *x)
{
    if (!x->nframes)
        return (ast_loc){ 0 };
    const vm_frame *f = &x->frames[x->nframes - 1];
    size_t pc = f->pc && f->pc > f->ch->code ? (size_t)(f->pc - f->ch->code) - 1 : 0;
    return chunk_loc(f->ch, pc);
}

bool state_fail(vm_ctx *x, int code, const char *fmt, ...)
{
    if (x->err.code)
        return false; /* keep the first (innermost) error */
    x->err.code = code;
    x->err.loc = state_where(x);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err.msg, sizeof x->err.msg, fmt, ap);
    va_end(ap);
    return false;
}

void *state_alloc(vm_ctx *x, size_t n)
{
    void *p = arena_alloc(&x->arena, n);
    if (!p)
        state_fail(x, E_MEMORY, "out of memory: this evaluation made more than %zu bytes of values",
                   (size_t)VM_ARENA_LIMIT);
    return p;
}
