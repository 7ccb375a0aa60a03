/* state.c — setting up and releasing an evaluation's state, its errors and its arena (see
 * state.h). An error keeps the span of the instruction that failed: the innermost frame's
 * saved pc, which every instruction that can fail saves first (vm.c's SAVE_PC).
 */
#include "state.h"

#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include "hon.h"
#include "mem.h"

/* Process-wide, like Python's PyErr_SetInterrupt: a signal handler cannot know which session
 * runs, so one flag stops whatever evaluation is running. */
volatile sig_atomic_t state_interrupt_flag;
static _Atomic uint64_t steps_run; /* VM steps run by every evaluation so far */

void hon_interrupt(void)
{
    state_interrupt_flag = 1;
}

void hon_interrupt_clear(void)
{
    state_interrupt_flag = 0;
}

uint64_t hon_steps_run(void)
{
    return atomic_load_explicit(&steps_run, memory_order_relaxed);
}

/* Adds the steps run since the last count to steps_run. */
static void count_steps(vm_ctx *x)
{
    uint64_t left = state_steps(x);
    if (x->steps_counted > left)
        atomic_fetch_add_explicit(&steps_run, x->steps_counted - left, memory_order_relaxed);
    x->steps_counted = left;
}

void state_reset_steps(vm_ctx *x, uint64_t n)
{
    count_steps(x);
    state_set_steps(x, n);
    x->steps_counted = n;
}

bool state_refill(vm_ctx *x, uint64_t need)
{
    uint64_t left = state_steps(x);
    count_steps(x);
    if (state_interrupt_flag)
        return state_fail_interrupted(x);
    if (need >= left)
        return false;
    uint64_t take = need - x->steps_left + VM_STEP_BLOCK;
    if (take > x->steps_reserve)
        take = x->steps_reserve;
    x->steps_left += take;
    x->steps_reserve -= take;
    return true;
}

bool state_fail_interrupted(vm_ctx *x)
{
    return state_fail(x, E_INTERRUPTED, "interrupted");
}

void state_begin(vm_ctx *x, const state_setup *s, dice_src *dice, bool tracing)
{
    /* a setting's number names one program, edition and readings (state_setup): the same
     * as the last evaluation's, under the same program, leaves what follows from them as it
     * is, the memo's key among them (memo_key would find it the same) */
    if (!s->setting || s->setting != x->setting || s->pg != x->pg ||
        x->memo.setting != s->setting || x->memo.serial != s->pg->serial) {
        x->pg = s->pg;
        x->p = s->pg->res;
        x->edition = s->edition;
        const res_edition *e = s->edition >= 0 && (size_t)s->edition < x->p->neditions
                                   ? &x->p->editions[s->edition]
                                   : NULL;
        x->fn_of = e ? e->fn_of : NULL;
        x->nfn_of = e && e->fn_of ? e->nfn_of : 0;
        x->table_of = e ? e->table_of : NULL;
        x->ntable_of = e && e->table_of ? e->ntable_of : 0;
        x->readings = s->readings;
        /* on failure nothing is tabled, and the next evaluation keys the memo again */
        bool keyed = memo_key(&x->memo, s->pg, s->edition, s->readings, s->setting);
        x->setting = keyed ? s->setting : 0;
    }
    x->sc = s->sc;
    x->sq_w = s->sc ? (uint64_t)s->sc->g->w : 0;
    x->sq_h = s->sc ? (uint64_t)s->sc->g->h : 0;
    x->units = s->sc ? s->sc->units : res_units_of(s->pg->res, s->edition);
    x->dice = dice;
    x->budget = s->budget ? s->budget : VM_DEFAULT_BUDGET;
    x->max_depth = s->max_depth ? s->max_depth : VM_DEFAULT_DEPTH;
    x->max_list = s->max_list ? s->max_list : VM_DEFAULT_LIST;
    x->begun = 0; /* the caller says when s is a setup state_restart may start again */
    state_restart(x, tracing);
}

void state_trace_guards(vm_ctx *x, bool guards)
{
    x->rules = x->tracing && guards ? x->pg->explained : x->pg->rules;
}

void state_end(vm_ctx *x)
{
    count_steps(x);
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
    x->err.surfaced = (ast_loc){ 0 };
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err.msg, sizeof x->err.msg, fmt, ap);
    va_end(ap);
    return false;
}

/* Whether a is v or a list holding v (scalars compared by type and payload). */
static bool passes(const vm_ctx *x, val a, val v)
{
    if (a.type == v.type)
        return a.u.i == v.u.i;
    const res_program *p = x->pg->res;
    if (a.type >= p->ntypes || p->types[a.type].kind != RT_LIST || !a.u.list)
        return false;
    for (size_t i = 0; i < a.u.list->len; i++)
        if (a.u.list->items[i].type == v.type && a.u.list->items[i].u.i == v.u.i)
            return true;
    return false;
}

void state_blame(vm_ctx *x, val v)
{
    vm_error *e = &x->err;
    if (x->nframes < 2 || e->surfaced.line)
        return;
    const vm_frame *top = &x->frames[0], *callee = &x->frames[1];
    if (top->ch->kind != CHUNK_EXPR || !top->pc || top->pc <= top->ch->code)
        return;
    size_t call_pc = (size_t)(top->pc - top->ch->code) - 1;
    for (uint32_t k = 0; k < callee->ch->nparams; k++) {
        ast_loc at;
        if (callee->base + k >= x->stack_cap || !passes(x, x->stack[callee->base + k], v))
            continue;
        if (!chunk_call_arg(top->ch, call_pc, k, &at))
            return;
        const vm_frame *f = &x->frames[x->nframes - 1];
        size_t pc = f->pc && f->pc > f->ch->code ? (size_t)(f->pc - f->ch->code) - 1 : 0;
        e->surfaced = e->loc;
        snprintf(e->surfaced_in, sizeof e->surfaced_in, "%s", chunk_name_at(f->ch, pc));
        e->loc = at;
        return;
    }
}

void *state_alloc_failed(vm_ctx *x)
{
    state_fail(x, E_MEMORY, "out of memory: this evaluation made more than %zu bytes of values",
               (size_t)VM_ARENA_LIMIT);
    return NULL;
}

#define VM_MAX_STACK ((size_t)1 << 24) /* values; beyond this: E209 */

bool state_ensure_stack(vm_ctx *x, size_t need)
{
    if (need <= x->stack_cap)
        return true;
    if (need > VM_MAX_STACK)
        return state_fail(x, E_MEMORY, "the evaluation needs more than %zu stack slots",
                          VM_MAX_STACK);
    size_t cap = x->stack_cap ? x->stack_cap : 256;
    while (cap < need)
        cap *= 2;
    val *s = mem_realloc(x->stack, cap * sizeof *s);
    if (!s)
        return state_fail(x, E_MEMORY, "out of memory (VM stack)");
    x->stack = s;
    x->stack_cap = cap;
    return true;
}

bool state_push_frame(vm_ctx *x, const chunk *ch, size_t base)
{
    if (!MEM_GROW(x->frames, x->nframes, x->frames_cap))
        return state_fail(x, E_MEMORY, "out of memory (VM frames)");
    x->frames[x->nframes++] = (vm_frame){ ch, ch->code, base };
    return true;
}
