/* vm.c — the dispatch loop (see vm.h, frame.h).
 *
 * vm_execute() is the one dispatch loop: each opcode body once behind VM_CASE / VM_NEXT (a
 * switch or computed goto: HON_THREADED_DISPATCH, config.h). Fn calls push frames in the loop
 * (vm_enter_frame, frame.h), and so do untraced query calls (the query's combined chunk,
 * combine.h, or its default alone); the others go through the query driver (vm_call_query,
 * calls.c), which runs each active rule's chunk and combines the answers. Answers from tables
 * and folded by the mode are answer.c's; table reads lookup.c's. Whatever can fail saves the
 * pc and leaves through the one `error:` exit (E2xx). No longjmp. The board built-ins are
 * builtin.c's; what only a procedure runs goes to its driver (proc.c) through vm_ctx.driver. */
#include "vm.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "answer.h"
#include "builtin.h"
#include "combine.h"
#include "config.h"
#include "fork.h"
#include "frame.h"
#include "lookup.h"
#include "mem.h"
#include "vm_helpers.h"
#include "walk.h"

#define VM_MAX_DICE 1000 /* largest N in `roll N d6` */

/* ---- the dispatch loop ---- */

/* GCC merges the identical tails of the opcode bodies (cross-jumping): each would then jump to
 * one shared copy of VM_NEXT, a jump more per instruction; keep a copy in every body. */
#if defined(__GNUC__) && !defined(__clang__) && HON_THREADED_DISPATCH
#define VM_NO_CROSSJUMPING __attribute__((optimize("no-crossjumping")))
#else
#define VM_NO_CROSSJUMPING
#endif
VM_NO_CROSSJUMPING bool vm_execute(vm_ctx *x, val *out, bool *answered, const vm_fork *resume)
{
    const res_program *p = x->p;
    const size_t entry = resume ? 0 : x->nframes - 1;
    vm_frame *f = &x->frames[x->nframes - 1];
    const chunk *ch = f->ch;
    const val *K = ch->k;
    const uint32_t *pc = resume ? f->pc : ch->code;
    val *base = x->stack + f->base;
    val *sp = resume ? x->stack + resume->sp : base + ch->nlocals;

/* operand decoding and stack access */
#define OPA       (pc[0])
#define OPB       (pc[1])
#define OPC       (pc[2])
#define OPD       (pc[3])
#define SKIP(n)   (pc += (n))
#define POP()     (*--sp)
#define PUSH(v)   (*sp++ = (v))
#define TOP       (sp[-1])
#define SAVE_PC() (f->pc = pc)
#define RELOAD()                        \
    do {                                \
        f = &x->frames[x->nframes - 1]; \
        ch = f->ch;                     \
        K = ch->k;                      \
        base = x->stack + f->base;      \
    } while (0)
/* enters a frame of callee on the argc arguments at the top of the stack (frame.h), one call
 * deeper; leaves through error: with E209 when memory runs out (save the pc first) */
#define ENTER_FRAME(callee, argc, zero_from)                                             \
    do {                                                                                 \
        if (!vm_enter_frame(x, (callee), (size_t)(sp - x->stack) - (argc), (zero_from))) \
            goto error;                                                                  \
        x->depth++;                                                                      \
        RELOAD();                                                                        \
        pc = ch->code;                                                                   \
        sp = base + ch->nlocals;                                                         \
    } while (0)
/* leaves the running frame (a fn's, or a query's run by CALL_QUERY in this loop), giving its
 * depth back; the caller's code goes on with v pushed */
#define LEAVE_FRAME(v)       \
    do {                     \
        size_t b_ = f->base; \
        x->nframes--;        \
        x->depth--;          \
        RELOAD();            \
        pc = f->pc;          \
        sp = x->stack + b_;  \
        PUSH(v);             \
    } while (0)
#define RAISE(...)                  \
    do {                            \
        SAVE_PC();                  \
        state_fail(x, __VA_ARGS__); \
        goto error;                 \
    } while (0)
/* Charges n more steps for an instruction whose work grows with its operands. */
#define CHARGE(n)                                                                \
    do {                                                                         \
        if ((uint64_t)(n) >= x->steps_left && !state_refill(x, (uint64_t)(n))) { \
            SAVE_PC();                                                           \
            goto over_budget;                                                    \
        }                                                                        \
        x->steps_left -= (uint64_t)(n);                                          \
    } while (0)
/* Whether the block holds n steps of the running instruction's and the next one's: then
 * VM_NEXT_TAKING(n) takes them at once and dispatches (one test of the budget, not CHARGE's and
 * VM_NEXT's); else the instruction charges as CHARGE(n) and VM_NEXT would (its slow path). */
#define VM_HOLDS(n) ((uint64_t)(n) + 1 < x->steps_left)
#define VM_NEXT_TAKING(n)                   \
    do {                                    \
        x->steps_left -= (uint64_t)(n) + 1; \
        VM_DISPATCH();                      \
    } while (0)
#define BOOLV(b) ((val){ .type = T_BOOL, .u.i = (b) ? 1 : 0 })
#define INTV(n)  ((val){ .type = T_INT, .u.i = (n) })
/* x y -> x OP y on ints, E205 when the result does not fit (overflow: a __builtin_*_overflow). */
#define ARITH(NAME, overflow, sym)                                                    \
    VM_CASE(NAME)                                                                     \
    {                                                                                 \
        int64_t b_ = POP().u.i, a_ = TOP.u.i, r_;                                     \
        if (overflow(a_, b_, &r_))                                                    \
            RAISE(E_ARITH, "integer overflow: %" PRId64 " " sym " %" PRId64, a_, b_); \
        TOP.u.i = r_;                                                                 \
        VM_NEXT();                                                                    \
    }
/* unit -> its `field`, a member of built-in enum `en`; E204 ("counter `c` <missing>") when the
 * counter gives none. */
#define UNIT_MEMBER(NAME, field, en, missing)                                     \
    VM_CASE(NAME)                                                                 \
    {                                                                             \
        const unit *u_ = unit_get(x->units, (int32_t)TOP.u.i);                    \
        if (!u_ || u_->field < 0)                                                 \
            RAISE(E_UNIT_VALUE, "counter `%s` " missing, u_ ? u_->counter : "?"); \
        TOP = (val){ .type = p->enums[en].type, .u.i = u_->field };               \
        VM_NEXT();                                                                \
    }
/* out = whether a and b are deeply equal, the values visited charged to the step budget;
 * leaves through over_budget when it runs out, and with E201 when a `?` cell takes part. */
#define DEEP_EQUAL(a, b, out)                             \
    do {                                                  \
        SAVE_PC();                                        \
        int how_ = vm_equal_charged(x, (a), (b), &(out)); \
        if (how_ == 1)                                    \
            goto over_budget;                             \
        if (how_ == 2)                                    \
            goto error;                                   \
    } while (0)
/* x y -> pc += the operand when x CMP y (ints, members by declaration order); one more step
 * for the jump the instruction stands for. */
#define JUMP_IF_CMP(NAME, cmp)    \
    VM_CASE(NAME)                 \
    {                             \
        int64_t b_ = POP().u.i;   \
        int64_t a_ = POP().u.i;   \
        bool fast_ = VM_HOLDS(1); \
        if (!fast_)               \
            CHARGE(1);            \
        if (a_ cmp b_)            \
            pc += (int32_t)OPA;   \
        SKIP(1);                  \
        if (fast_)                \
            VM_NEXT_TAKING(1);    \
        VM_NEXT();                \
    }
/* x y -> pc += the operand when (x == y) == `on_eq`, x and y scalars (the compiler says so:
 * typed_jump, compile.c), compared by their number without asking their type; a `?` cell goes
 * the deep way (E201), as JUMP_IF_EQ's. */
#define JUMP_IF_SCALAR(NAME, on_eq)                               \
    VM_CASE(NAME)                                                 \
    {                                                             \
        bool eq_;                                                 \
        sp -= 2;                                                  \
        if (!((sp[0].flags | sp[1].flags) & VAL_ABSENT)) {        \
            eq_ = sp[0].u.i == sp[1].u.i;                         \
            if (VM_HOLDS(2)) {                                    \
                if (eq_ == (on_eq))                               \
                    pc += (int32_t)OPA;                           \
                SKIP(1);                                          \
                VM_NEXT_TAKING(2);                                \
            }                                                     \
            CHARGE(2); /* the one value compared, and the jump */ \
        } else {                                                  \
            DEEP_EQUAL(sp[0], sp[1], eq_);                        \
            CHARGE(1);                                            \
        }                                                         \
        if (eq_ == (on_eq))                                       \
            pc += (int32_t)OPA;                                   \
        SKIP(1);                                                  \
        VM_NEXT();                                                \
    }
/* A board built-in of its own instruction on its n arguments, through BOARD's runner: pushes
 * the answer (of type ty) in their place, or leaves with its error. */
#define BOARD_SLOW(id, n, ty)                            \
    do {                                                 \
        val r_ = { .type = (ty) };                       \
        SAVE_PC();                                       \
        if (!builtin_board(x, (id), sp - (n), (n), &r_)) \
            goto error;                                  \
        sp -= (n);                                       \
        PUSH(r_);                                        \
    } while (0)
#if HON_DEBUG_TRACE
#define DEBUG_OP()                                                              \
    fprintf(stderr, "[vm] %-28s %04zu %s\n", ch->name, (size_t)(pc - ch->code), \
            *pc < OP__COUNT ? op_names[*pc] : "?")
#else
#define DEBUG_OP() ((void)0)
#endif

#if HON_THREADED_DISPATCH
    static const void *const labels[OP__COUNT] = {
#define OP(name, ...) &&L_##name,
#include "opcodes.h"
    };
#define VM_CASE(name) L_##name:
#define VM_NEXT()                 \
    do {                          \
        if (--x->steps_left == 0) \
            goto budget;          \
        DEBUG_OP();               \
        goto *labels[*pc++];      \
    } while (0)
#define VM_LOOP_BEGIN VM_NEXT();
#define VM_LOOP_END
#define VM_DISPATCH()        \
    do {                     \
        DEBUG_OP();          \
        goto *labels[*pc++]; \
    } while (0)
#else
#define VM_CASE(name) case OP_##name:
#define VM_NEXT()     break
#define VM_LOOP_BEGIN             \
    for (;;) {                    \
        if (--x->steps_left == 0) \
            goto budget;          \
    dispatch:                     \
        DEBUG_OP();               \
        switch ((op_code)*pc++) {
#define VM_LOOP_END                           \
    default: RAISE(E_INTERNAL, "bad opcode"); \
        }                                     \
        }
#define VM_DISPATCH() goto dispatch
#endif

    VM_LOOP_BEGIN

    VM_CASE(CONST)
    {
        PUSH(K[OPA]);
        SKIP(1);
        VM_NEXT();
    }
    VM_CASE(INT)
    {
        PUSH(INTV((int32_t)OPA));
        SKIP(1);
        VM_NEXT();
    }
    VM_CASE(TRUE)
    {
        PUSH(BOOLV(1));
        VM_NEXT();
    }
    VM_CASE(FALSE)
    {
        PUSH(BOOLV(0));
        VM_NEXT();
    }
    VM_CASE(POP)
    {
        sp--;
        VM_NEXT();
    }
    VM_CASE(GET_LOCAL)
    {
        PUSH(base[OPA]);
        SKIP(1);
        VM_NEXT();
    }
    VM_CASE(SET_LOCAL)
    {
        base[OPA] = POP();
        SKIP(1);
        VM_NEXT();
    }

    ARITH(ADD, __builtin_add_overflow, "+")
    ARITH(SUB, __builtin_sub_overflow, "-")
    ARITH(MUL, __builtin_mul_overflow, "*")
    VM_CASE(DIV)
    {
        int64_t b = POP().u.i, a = TOP.u.i, q, r;
        if (!checked_div(a, b, &q, &r))
            RAISE(E_ARITH,
                  b == 0 ? "division by zero: %" PRId64 " / %" PRId64
                         : "integer overflow: %" PRId64 " / %" PRId64,
                  a, b);
        TOP.u.i = q;
        VM_NEXT();
    }
    VM_CASE(MOD)
    {
        int64_t b = POP().u.i, a = TOP.u.i, q, r;
        if (b == -1)
            r = 0;
        else if (!checked_div(a, b, &q, &r))
            RAISE(E_ARITH, "division by zero: %" PRId64 " %% %" PRId64, a, b);
        TOP.u.i = r;
        VM_NEXT();
    }
    VM_CASE(NEG)
    {
        if (TOP.u.i == INT64_MIN)
            RAISE(E_ARITH, "integer overflow: -(%" PRId64 ")", TOP.u.i);
        TOP.u.i = -TOP.u.i;
        VM_NEXT();
    }
    VM_CASE(MIN)
    {
        int64_t b = POP().u.i;
        if (b < TOP.u.i)
            TOP.u.i = b;
        VM_NEXT();
    }
    VM_CASE(MAX)
    {
        int64_t b = POP().u.i;
        if (b > TOP.u.i)
            TOP.u.i = b;
        VM_NEXT();
    }
    VM_CASE(ABS)
    {
        if (TOP.u.i == INT64_MIN)
            RAISE(E_ARITH, "integer overflow: abs(%" PRId64 ")", TOP.u.i);
        if (TOP.u.i < 0)
            TOP.u.i = -TOP.u.i;
        VM_NEXT();
    }

    VM_CASE(NOT)
    {
        TOP.u.i = !TOP.u.i;
        VM_NEXT();
    }
    VM_CASE(EQ)
    VM_CASE(NE)
    {
        /* one body for both: the opcode just read tells them apart */
        bool ne = pc[-1] == OP_NE;
        val b = POP(), a = TOP;
        res_tkind k = p->types[a.type].kind;
        if (k != RT_LIST && k != RT_RECORD && !((a.flags | b.flags) & VAL_ABSENT)) {
            CHARGE(1); /* the one value compared */
            TOP = BOOLV((a.u.i == b.u.i) != ne);
            VM_NEXT();
        }
        bool eq;
        DEEP_EQUAL(a, b, eq);
        TOP = BOOLV(eq != ne);
        VM_NEXT();
    }
    /* EQ and NE between two scalars (the compiler knows: typed_op, compile.c): their numbers
     * compared, a `?` cell the deep way (E201) as EQ's */
    VM_CASE(EQ_S)
    VM_CASE(NE_S)
    {
        bool ne = pc[-1] == OP_NE_S, eq;
        val b = POP();
        if (!((TOP.flags | b.flags) & VAL_ABSENT)) {
            eq = TOP.u.i == b.u.i;
            if (VM_HOLDS(1)) {
                TOP = BOOLV(eq != ne);
                VM_NEXT_TAKING(1);
            }
            CHARGE(1); /* the one value compared */
        } else {
            DEEP_EQUAL(TOP, b, eq);
        }
        TOP = BOOLV(eq != ne);
        VM_NEXT();
    }
    VM_CASE(LT)
    {
        int64_t b = POP().u.i;
        TOP = BOOLV(TOP.u.i < b);
        VM_NEXT();
    }
    VM_CASE(LE)
    {
        int64_t b = POP().u.i;
        TOP = BOOLV(TOP.u.i <= b);
        VM_NEXT();
    }
    VM_CASE(GT)
    {
        int64_t b = POP().u.i;
        TOP = BOOLV(TOP.u.i > b);
        VM_NEXT();
    }
    VM_CASE(GE)
    {
        int64_t b = POP().u.i;
        TOP = BOOLV(TOP.u.i >= b);
        VM_NEXT();
    }
    VM_CASE(IN)
    {
        val s = POP(), v = TOP;
        bool found = false;
        if (p->types[s.type].kind == RT_SET) {
            found = v.u.i >= 0 && v.u.i < 64 && (s.u.bits >> v.u.i & 1);
        } else {
            /* a scalar against the items, inline: one step per item compared, as DEEP_EQUAL
             * charges it; an item that is a `?` cell goes the deep way (E201) */
            size_t i = 0, n = s.u.list ? s.u.list->len : 0;
            res_tkind k = p->types[v.type].kind;
            if (k != RT_LIST && k != RT_RECORD && !(v.flags & VAL_ABSENT)) {
                const val *it = n ? s.u.list->items : NULL;
                while (i < n && !(it[i].flags & VAL_ABSENT) && it[i].u.i != v.u.i)
                    i++;
                if (i == n || !(it[i].flags & VAL_ABSENT)) {
                    found = i < n;
                    CHARGE(found ? i + 1 : n);
                    TOP = BOOLV(found);
                    VM_NEXT();
                }
                i = 0;
            }
            for (; i < n && !found; i++)
                DEEP_EQUAL(v, s.u.list->items[i], found);
        }
        TOP = BOOLV(found);
        VM_NEXT();
    }

    VM_CASE(IN_SET)
    {
        /* IN's set path, the compiler knowing S is a set (typed_op, compile.c) */
        val s = POP();
        TOP = BOOLV((uint64_t)TOP.u.i < 64 && (s.u.bits >> TOP.u.i & 1));
        VM_NEXT();
    }

    VM_CASE(JUMP)
    {
        pc += 1 + (int32_t)OPA;
        VM_NEXT();
    }
    VM_CASE(JUMP_IF_FALSE)
    {
        if (!POP().u.i)
            pc += (int32_t)OPA;
        SKIP(1);
        VM_NEXT();
    }
    VM_CASE(JUMP_IF_TRUE)
    {
        if (POP().u.i)
            pc += (int32_t)OPA;
        SKIP(1);
        VM_NEXT();
    }
    VM_CASE(JUMP_IF_FALSE_KEEP)
    {
        if (!TOP.u.i)
            pc += (int32_t)OPA;
        SKIP(1);
        VM_NEXT();
    }
    VM_CASE(JUMP_IF_TRUE_KEEP)
    {
        if (TOP.u.i)
            pc += (int32_t)OPA;
        SKIP(1);
        VM_NEXT();
    }
    /* Compare and branch: the compare's own charge as EQ's or LT's, then one step for the
     * jump they replace, so a run takes the steps it took as two instructions. */
    VM_CASE(JUMP_IF_EQ)
    VM_CASE(JUMP_IF_NE)
    {
        bool ne = pc[-1] == OP_JUMP_IF_NE, eq;
        val b = POP(), a = POP();
        res_tkind k = p->types[a.type].kind;
        if (k != RT_LIST && k != RT_RECORD && !((a.flags | b.flags) & VAL_ABSENT)) {
            CHARGE(2); /* the one value compared, and the jump */
            eq = a.u.i == b.u.i;
        } else {
            DEEP_EQUAL(a, b, eq);
            CHARGE(1);
        }
        if (eq != ne)
            pc += (int32_t)OPA;
        SKIP(1);
        VM_NEXT();
    }
    JUMP_IF_SCALAR(JUMP_IF_EQ_S, true)
    JUMP_IF_SCALAR(JUMP_IF_NE_S, false)
    JUMP_IF_CMP(JUMP_IF_LT, <)
    JUMP_IF_CMP(JUMP_IF_LE, <=)
    JUMP_IF_CMP(JUMP_IF_GT, >)
    JUMP_IF_CMP(JUMP_IF_GE, >=)
    /* The loops: the compiler knows whether the collection is a list or a set (for_next_op,
     * compile.c), so neither asks its type. One step each, the last (done) too. */
    VM_CASE(FOR_NEXT)
    {
        const vlist *l = base[OPA].u.list;
        val *idx = &base[OPB];
        if (l && (uint64_t)idx->u.i < l->len) {
            base[OPC] = l->items[idx->u.i++];
            SKIP(4);
            VM_NEXT();
        }
        pc += 4 + (int32_t)OPD;
        VM_NEXT();
    }
    VM_CASE(FOR_NEXT_SET)
    {
        if (next_member(p, &base[OPA], &base[OPB], &base[OPC])) {
            SKIP(4);
            VM_NEXT();
        }
        pc += 4 + (int32_t)OPD;
        VM_NEXT();
    }
    /* A loop's back edge (back_edge, compile.c): the JUMP's step charged, then FOR_NEXT's or
     * FOR_NEXT_SET's work, jumping to the body when an item is left, going on when done. */
    VM_CASE(FOR_BACK)
    {
        const vlist *l = base[OPA].u.list;
        val *idx = &base[OPB];
        if (VM_HOLDS(1) && l && (uint64_t)idx->u.i < l->len) { /* the step back: one test */
            base[OPC] = l->items[idx->u.i++];
            pc += 4 + (int32_t)OPD;
            VM_NEXT_TAKING(1);
        }
        CHARGE(1);
        if (l && (uint64_t)idx->u.i < l->len) {
            base[OPC] = l->items[idx->u.i++];
            pc += 4 + (int32_t)OPD;
            VM_NEXT();
        }
        SKIP(4);
        VM_NEXT();
    }
    VM_CASE(FOR_BACK_SET)
    {
        CHARGE(1);
        if (next_member(p, &base[OPA], &base[OPB], &base[OPC])) {
            pc += 4 + (int32_t)OPD;
            VM_NEXT();
        }
        SKIP(4);
        VM_NEXT();
    }
    /* A read kept in a combined chunk (reuse.c): its value once computed, the steps of its
     * code charged; else (not yet, traced, or the steps would run out on the way: E207 then
     * strikes in the code as before) on into the code, the instruction taking no step. */
    VM_CASE(KEPT)
    {
        if (base[OPA].type != T_NONE && x->steps_left > OPB && !x->tracing) {
            PUSH(base[OPA]);
            x->steps_left -= OPB - 1; /* and the dispatch's one */
            pc += 3 + (int32_t)OPC;
            VM_NEXT();
        }
        SKIP(3);
        VM_DISPATCH();
    }
    VM_CASE(KEEP)
    {
        base[OPA] = TOP;
        SKIP(1);
        VM_DISPATCH();
    }
    VM_CASE(UNKEEP)
    {
        for (uint32_t i = 0; i < OPB; i++)
            base[OPA + i].type = T_NONE;
        SKIP(2);
        VM_DISPATCH();
    }
    /* A loop over a traced line, walked as it goes (walk.h): FOR_NEXT's and FOR_BACK's steps. */
    VM_CASE(WALK_START)
    {
        CHARGE(3); /* the SET_LOCAL, INT and SET_LOCAL of the list's loop */
        const uint32_t b = OPA, plan = OPB, at = OPC;
        SKIP(3);
        SAVE_PC();
        if (!walk_start(x, b, sp - 2, &base[plan], &base[at]))
            goto error;
        sp -= 2;
        VM_NEXT();
    }
    VM_CASE(WALK_NEXT)
    {
        pc += walk_next(x, &base[OPA], &base[OPB], &base[OPC]) ? 4 : 4 + (int32_t)OPD;
        VM_NEXT();
    }
    VM_CASE(WALK_BACK)
    {
        CHARGE(1);
        pc += walk_next(x, &base[OPA], &base[OPB], &base[OPC]) ? 4 + (int32_t)OPD : 4;
        VM_NEXT();
    }
    VM_CASE(EMPTY_AGG)
    {
        RAISE(E_EMPTY, "min or max over an empty collection");
    }

    VM_CASE(MAKE_LIST)
    {
        uint32_t t = OPA, n = OPB;
        SKIP(2);
        SAVE_PC();
        vlist *l = state_alloc(x, sizeof *l + (size_t)n * sizeof(val));
        if (!l)
            goto error;
        l->len = n;
        sp -= n;
        memcpy(l->items, sp, (size_t)n * sizeof(val));
        PUSH(((val){ .type = t, .u.list = l }));
        VM_NEXT();
    }
    VM_CASE(MAKE_SET)
    {
        uint32_t t = OPA, n = OPB;
        uint64_t bits = 0;
        SKIP(2);
        sp -= n;
        for (uint32_t i = 0; i < n; i++)
            if (sp[i].u.i >= 0 && sp[i].u.i < 64)
                bits |= 1ULL << sp[i].u.i;
        PUSH(((val){ .type = t, .u.bits = bits }));
        VM_NEXT();
    }
    VM_CASE(MAKE_RECORD)
    {
        uint32_t t = OPA, n = OPB;
        SKIP(2);
        SAVE_PC();
        val *fields = state_alloc(x, (n ? n : 1) * sizeof *fields);
        if (!fields)
            goto error;
        sp -= n;
        memcpy(fields, sp, (size_t)n * sizeof *fields);
        PUSH(((val){ .type = t, .u.rec = fields }));
        VM_NEXT();
    }
    VM_CASE(GET_FIELD)
    {
        val v = TOP.u.rec[OPA];
        SKIP(1);
        if (v.flags & VAL_ABSENT) {
            uint32_t t, r, c;
            val_absent_where(v, &t, &r, &c);
            SAVE_PC();
            lookup_fail_absent(x, t, r, c);
            goto error;
        }
        TOP = v;
        VM_NEXT();
    }
    VM_CASE(GET_LOCAL_FIELD)
    {
        val v = base[OPA].u.rec[OPB];
        SKIP(2);
        if (v.flags & VAL_ABSENT) {
            uint32_t t, r, c;
            val_absent_where(v, &t, &r, &c);
            SAVE_PC();
            lookup_fail_absent(x, t, r, c);
            goto error;
        }
        PUSH(v);
        VM_NEXT();
    }
    VM_CASE(LEN)
    {
        val v = TOP;
        int64_t n = p->types[v.type].kind == RT_SET ? __builtin_popcountll(v.u.bits)
                    : v.u.list                      ? (int64_t)v.u.list->len
                                                    : 0;
        TOP = INTV(n);
        VM_NEXT();
    }
    VM_CASE(TABLE)
    {
        uint32_t t = OPA, n = OPB, col = OPC;
        SKIP(3);
        SAVE_PC();
        val v;
        if (!lookup_table(x, t, sp - n, col, &v))
            goto error;
        sp -= n;
        PUSH(v);
        VM_NEXT();
    }

    UNIT_MEMBER(UNIT_KIND, kind, E_KIND, "has no kind")
    UNIT_MEMBER(UNIT_SIDE, side, E_SIDE, "gives no side")
    VM_CASE(UNIT_SIZE)
    {
        const unit *u = unit_get(x->units, (int32_t)TOP.u.i);
        TOP = INTV(u ? (int64_t)u->size : 1);
        VM_NEXT();
    }
    VM_CASE(UNIT_VALUE)
    {
        uint32_t slot = OPA;
        int64_t v;
        SKIP(1);
        if (!unit_get_value(x->units, (int32_t)TOP.u.i, slot, &v)) {
            const unit *u = unit_get(x->units, (int32_t)TOP.u.i);
            RAISE(E_UNIT_VALUE, "counter `%s` gives no value `%s`", u ? u->counter : "?",
                  slot < p->nslots ? p->slots[slot].name : "?");
        }
        TOP = INTV(v);
        VM_NEXT();
    }
    VM_CASE(HAS_ABILITY)
    {
        val a = POP();
        TOP = BOOLV(unit_has_ability(x->units, (int32_t)TOP.u.i, (uint32_t)a.u.i));
        VM_NEXT();
    }
    VM_CASE(HAS_MARKER)
    {
        val m = POP();
        TOP = BOOLV(unit_marker_count(x->units, (int32_t)TOP.u.i, (uint32_t)m.u.i) > 0);
        VM_NEXT();
    }
    VM_CASE(ABILITY_VALUE)
    {
        val a = POP();
        TOP = INTV(unit_ability_value(x->units, (int32_t)TOP.u.i, (uint32_t)a.u.i));
        VM_NEXT();
    }
    VM_CASE(MARKER_COUNT)
    {
        val m = POP();
        TOP = INTV((int64_t)unit_marker_count(x->units, (int32_t)TOP.u.i, (uint32_t)m.u.i));
        VM_NEXT();
    }

    VM_CASE(UNIT_NAMED)
    {
        uint32_t k = OPA;
        SKIP(1);
        if (!x->sc)
            RAISE(E_NO_BOARD, "no board is loaded: `$%s` names a unit of a board",
                  k < ch->nstrs ? ch->strs[k] : "?");
        int32_t id = k < ch->nstrs ? scene_unit(x->sc, ch->strs[k]) : -1;
        if (id < 0) {
            const char *name = k < ch->nstrs ? ch->strs[k] : "?";
            const char *near = scene_unit_near(x->sc, name);
            RAISE(E_NO_UNIT, "the board has no unit `$%s`%s%s%s", name,
                  near ? " (did you mean `$" : "", near ? near : "", near ? "`?)" : "");
        }
        PUSH(((val){ .type = T_UNIT, .u.i = id }));
        VM_NEXT();
    }
    VM_CASE(BOARD)
    {
        uint32_t b = OPA, n = OPB, t = OPC;
        SKIP(3);
        SAVE_PC();
        val r = { .type = t };
        if (!builtin_board(x, b, sp - n, n, &r))
            goto error;
        sp -= n;
        PUSH(r);
        VM_NEXT();
    }
    /* The board built-ins that are one lookup: the answer inline when the fast path of
     * builtin.h applies, else BOARD's runner (BOARD_SLOW), which answers or reports the error
     * exactly as the BOARD instruction would. */
    VM_CASE(SIDE_BETWEEN)
    {
        int side;
        if (builtin_fast_side_between(x, sp[-2], sp[-1], &side)) {
            sp--;
            TOP = (val){ .type = T_SIDE, .u.i = side };
        } else {
            BOARD_SLOW(RES_BI_SIDE_BETWEEN, 2, T_SIDE);
        }
        VM_NEXT();
    }
    VM_CASE(SIDE_HAS)
    {
        int has = x->sc ? board_side_test(x->sc->b, sp[-2].u.i, (int)sp[-1].u.i) : -1;
        if (has >= 0) {
            sp--;
            TOP = BOOLV(has);
        } else {
            BOARD_SLOW(RES_BI_SIDE_HAS, 2, T_BOOL);
        }
        VM_NEXT();
    }
    VM_CASE(SIDE_HAS_K)
    {
        /* the CONST it stands for charged here: one step more, taken in the fast path while
         * the block holds it, else by CHARGE on the slow path (rare: keep it short) */
        int has = VM_HOLDS(1) && x->sc ? board_side_test(x->sc->b, TOP.u.i, (int)K[OPA].u.i) : -1;
        if (has >= 0) {
            TOP = BOOLV(has);
            SKIP(1);
            VM_NEXT_TAKING(1);
        }
        PUSH(K[OPA]);
        SKIP(1);
        CHARGE(1);
        BOARD_SLOW(RES_BI_SIDE_HAS, 2, T_BOOL);
        VM_NEXT();
    }
    VM_CASE(TERRAIN)
    {
        int sq, t;
        const uint32_t type = p->enums[E_TERRAIN].type;
        if (builtin_square_at(x, TOP, &sq) && (t = board_terrain_at_sq(x->sc->b, sq)) >= 0 &&
            (size_t)t < p->enums[E_TERRAIN].len)
            TOP = (val){ .type = type, .u.i = t };
        else
            BOARD_SLOW(RES_BI_TERRAIN, 1, type);
        VM_NEXT();
    }
    VM_CASE(SQUARE_OF)
    {
        int64_t sq;
        if (builtin_fast_square_of(x, TOP, &sq))
            TOP = (val){ .type = T_SQUARE, .u.i = sq };
        else
            BOARD_SLOW(RES_BI_SQUARE_OF, 1, T_SQUARE);
        VM_NEXT();
    }
    VM_CASE(DISTANCE)
    {
        int64_t d;
        if (builtin_fast_distance(x, sp[-2], sp[-1], &d)) {
            sp--;
            TOP = INTV(d);
        } else {
            BOARD_SLOW(RES_BI_DISTANCE, 2, T_INT);
        }
        VM_NEXT();
    }
    VM_CASE(IN_ELEMENT)
    {
        int sq;
        if (builtin_square_at(x, TOP, &sq))
            TOP = BOOLV(board_element_at_sq(x->sc->b, sq) >= 0);
        else
            BOARD_SLOW(RES_BI_IN_ELEMENT, 1, T_BOOL);
        VM_NEXT();
    }

    VM_CASE(ROLL)
    {
        if (x->fork && entry == 0 && x->driver) {
            f->pc = pc - 1; /* the roll's opcode: vm_resume runs it again */
            if (fork_save(x, (size_t)(sp - x->stack), 1, false))
                goto error;
        }
        if (x->dice_on) {
            if (x->dice_pos >= x->dice_len)
                RAISE(E_DICE_OUT, "the test's dice ran out: it gives %zu face%s", x->dice_len,
                      x->dice_len == 1 ? "" : "s");
            PUSH(INTV(x->dice_faces[x->dice_pos++]));
        } else {
            PUSH(INTV(dice_d6(x->dice)));
        }
        if (x->driver) {
            SAVE_PC();                              /* the driver records where the roll is */
            x->driver->dice(x, ch, &TOP, 1, false); /* a procedure shows its dice */
        }
        VM_NEXT();
    }
    VM_CASE(ROLL_N)
    {
        int64_t n = TOP.u.i;
        uint32_t t = OPA;
        if (n < 0 || n > VM_MAX_DICE) {
            SKIP(1);
            RAISE(E_DICE, "cannot roll %" PRId64 " dice (0 to %d)", n, VM_MAX_DICE);
        }
        if (x->fork && entry == 0 && x->driver && n > 0) {
            f->pc = pc - 1; /* the roll's opcode: vm_resume runs it again */
            if (fork_save(x, (size_t)(sp - x->stack), (size_t)n, true))
                goto error;
        }
        SKIP(1);
        SAVE_PC();
        CHARGE(n);
        vlist *l = state_alloc(x, sizeof *l + (size_t)n * sizeof(val));
        if (!l)
            goto error;
        l->len = (size_t)n;
        if (x->dice_on && (size_t)n > x->dice_len - x->dice_pos)
            RAISE(E_DICE_OUT, "the test's dice ran out: it gives %zu face%s", x->dice_len,
                  x->dice_len == 1 ? "" : "s");
        dice_roll_many(x->dice, (size_t)n); /* one roll: odds enumerate its multisets */
        /* Dice rolled together have no order: the faces come sorted ascending (a counting
         * sort; every face is 1..6: dice_d6's range, and E165 for a test's dice). */
        size_t per_face[7] = { 0 };
        for (int64_t i = 0; i < n; i++)
            per_face[x->dice_on ? x->dice_faces[x->dice_pos++] : dice_d6(x->dice)]++;
        for (size_t face = 1, i = 0; face <= 6; face++)
            for (size_t c = per_face[face]; c > 0; c--)
                l->items[i++] = INTV((int64_t)face);
        if (x->driver)
            x->driver->dice(x, ch, l->items, l->len, true);
        TOP = (val){ .type = t, .u.list = l };
        VM_NEXT();
    }
    VM_CASE(VARIANT)
    {
        uint32_t v = OPA;
        SKIP(1);
        if (x->variants_read) /* variants.c watches which variants a question reads */
            x->variants_read[v / 64] |= (uint64_t)1 << (v % 64);
        PUSH(
            ((val){ .type = p->enums[p->variants[v].enum_id].type,
                    .u.i = x->readings ? (int64_t)x->readings[v] : (int64_t)p->variants[v].dflt }));
        VM_NEXT();
    }

    VM_CASE(CALL_FN)
    {
        uint32_t fn = OPA, argc = OPB;
        SKIP(2);
        SAVE_PC();
        if (fn < x->nfn_of)
            fn = (uint32_t)x->fn_of[fn]; /* the edition's version */
        const chunk *callee = x->pg->fns[fn];
        if (x->depth >= x->max_depth)
            RAISE(E_DEPTH, "call depth limit (%u) reached calling fn %s", x->max_depth,
                  p->fns[fn].name);
        /* the fn's locals past its arguments are not zeroed: its code sets each before it
         * reads it, as a combined chunk's copies rely on (vm.md §4); while the odds fork they
         * are, as the driver's frames are, since forked states are compared slot by slot */
        ENTER_FRAME(callee, argc, x->fork ? argc : callee->nlocals);
        VM_NEXT();
    }
    VM_CASE(CALL_QUERY)
    {
        uint32_t q = OPA, argc = OPB;
        SKIP(2);
        val r;
        if (memo_may_table(&x->memo, q)) {
            /* the slot of a tabled query of one parameter (memo_slot_quick), its steps taken
             * from this block when it holds them (the total left is what state_set_steps
             * would leave); answer_tabled for the rest */
            const memo *m = &x->memo;
            if (m->dom1[q] && (uint64_t)sp[-1].u.i < m->dom1[q] && m->serial == x->pg->serial &&
                !x->tracing) {
                const memo_answer *slot = &m->answers[q][sp[-1].u.i];
                if (slot->v.type != T_NONE && slot->steps < x->steps_left &&
                    x->depth + m->qdepth[q] <= x->max_depth) {
                    x->steps_left -= slot->steps;
                    sp[-1] = slot->v;
                    VM_NEXT();
                }
            }
            if (answer_tabled(x, q, sp - argc, &r)) {
                sp -= argc;
                PUSH(r);
                VM_NEXT();
            }
        } else if (!x->tracing && !x->fork && x->depth < x->max_depth) {
            /* untraced, not tabled: the query's combined chunk as a frame of this loop, as
             * CALL_FN pushes one (vm.md §5a); its exits below pop it (QUERY_LEAVE) */
            const chunk *cc = prog_combined(x->pg, x->edition, q);
            if (!cc)
                cc = answer_default_alone(x, q);
            if (cc) {
                SAVE_PC();
                ENTER_FRAME(cc, argc, vm_zero_from(cc, argc));
                VM_NEXT();
            }
        }
        SAVE_PC();
        size_t top = (size_t)(sp - x->stack), argi = top - argc;
        x->sp = top;
        if (!vm_call_query(x, q, argi, argc, &r, NULL))
            goto error;
        RELOAD();
        sp = x->stack + argi;
        PUSH(r);
        VM_NEXT();
    }
    VM_CASE(RETURN)
    {
        val r = POP();
        if (x->nframes - 1 == entry) {
            *out = r;
            *answered = true;
            return true;
        }
        LEAVE_FRAME(r);
        VM_NEXT();
    }
    VM_CASE(NO_ANSWER)
    {
        if (x->nframes - 1 != entry) /* the last rule of a `first` query's combined chunk */
            goto query_end;
        *answered = false;
        return true;
    }
    /* A query's combined chunk (combine.h): each rule's exits, one step each as RETURN's and
     * NO_ANSWER's, and the combined answer at the end. */
    VM_CASE(RULE_NEXT)
    {
        if (x->tracing) /* a combined chunk run traced: the rule did not fire */
            answer_trace_rule(x, false, (val){ 0 }, true);
        sp = base + ch->nlocals;
        VM_NEXT();
    }
    VM_CASE(RULE_ACC)
    VM_CASE(RULE_ACC_LAST)
    {
        bool last = pc[-1] == OP_RULE_ACC_LAST;
        val *acc = base + ch->nlocals - 2, v, r = POP();
        int how = answer_fold(x, ch, acc, r, &v);
        if (x->tracing) /* a combined chunk run traced: the rule fired */
            answer_trace_rule(x, true, r, how == 0 && !last);
        if (how < 0)
            goto error;
        if (how > 0)
            goto query_answered;
        if (last)
            goto query_end;
        sp = base + ch->nlocals;
        pc++; /* the RULE_NEXT of the rule's guard */
        VM_NEXT();
    query_answered:
        /* the combined chunk answered v: to the driver that ran it, or to the CALL_QUERY of
         * this loop that pushed its frame */
        if (x->nframes - 1 == entry) {
            *out = v;
            *answered = true;
            return true;
        }
        LEAVE_FRAME(v);
        VM_NEXT();
    }
    /* The last rule's no-answer exit when the default's code follows (combine.c): the
     * combined answer when a rule fed the accumulator, else on into the default. */
    VM_CASE(RULE_ELSE)
    {
        if (base[ch->nlocals - 1].u.i)
            goto query_end;
        if (x->tracing) /* traced: the last rule did not fire, and the default's part begins */
            answer_trace_rule(x, false, (val){ 0 }, true);
        sp = base + ch->nlocals;
        VM_NEXT();
    }
    VM_CASE(RULE_END)
query_end : {
    val v;
    bool ans;
    answer_end(x, ch, base + ch->nlocals - 2, &v, &ans);
    if (x->nframes - 1 == entry) {
        if (ans)
            *out = v;
        *answered = ans;
        return true;
    }
    if (ans) {
        LEAVE_FRAME(v);
        VM_NEXT();
    }
    /* no rule fed it: what call_query answers then (a constant, or the default's chunk
         * run in this frame, on the same arguments), or E203 at the call */
    uint32_t q = ch->id;
    int how = answer_unanswered(x, q, &v);
    if (how == 2) {
        const chunk *dc = x->pg->defaults[q];
        size_t nb = f->base;
        if (nb + dc->nlocals + dc->max_stack + 1 > x->stack_cap &&
            !state_ensure_stack(x, nb + dc->nlocals + dc->max_stack + 1))
            goto error;
        for (uint32_t i = dc->nparams; i < dc->nlocals; i++)
            x->stack[nb + i] = (val){ 0 };
        f->ch = dc;
        RELOAD();
        pc = ch->code;
        sp = base + ch->nlocals;
        VM_NEXT();
    }
    if (how == 0) {
        x->nframes--;
        x->depth--;
        RELOAD();
        pc = f->pc;
        RAISE(E_NO_ANSWER, "no rule of query %s answered, and it has no default",
              p->queries[q].name);
    }
    LEAVE_FRAME(v);
    VM_NEXT();
}
    /* A small fn's code copied at its call (combine.h): the arguments into its locals, the
     * depth and the steps of CALL_FN and RETURN, without the frame. */
    VM_CASE(INLINE_ENTER)
    {
        uint32_t argc = OPB, to = OPC;
        SKIP(3);
        if (x->depth >= x->max_depth) {
            SAVE_PC();
            vm_fail_depth(x, pc[-3]);
            goto error;
        }
        x->depth++;
        sp -= argc;
        for (uint32_t i = 0; i < argc; i++)
            base[to + i] = sp[i];
        VM_NEXT();
    }
    /* The same, the arguments forwarded (combine.c): no copies; their reads' steps. */
    VM_CASE(INLINE_FORWARD)
    {
        uint32_t argc = OPB;
        if (VM_HOLDS(argc) && x->depth < x->max_depth) {
            x->depth++;
            SKIP(2);
            VM_NEXT_TAKING(argc);
        }
        CHARGE(argc); /* the pc still on the operands: the caller's part, whose reads these are */
        SKIP(2);
        if (x->depth >= x->max_depth) {
            SAVE_PC();
            vm_fail_depth(x, pc[-2]);
            goto error;
        }
        x->depth++;
        VM_NEXT();
    }
    VM_CASE(INLINE_LEAVE)
    {
        x->depth--;
        VM_NEXT();
    }
    /* Two instructions in one in a combined chunk (combine.c): the first's work, then the
     * second's step charged (E207 names the chunk part the pc is in: the test's), then its
     * test. */
    VM_CASE(LEAVE_JUMP_IF_FALSE)
    {
        x->depth--;
        if (VM_HOLDS(1)) {
            if (!POP().u.i)
                pc += (int32_t)OPA;
            SKIP(1);
            VM_NEXT_TAKING(1);
        }
        CHARGE(1);
        if (!POP().u.i)
            pc += (int32_t)OPA;
        SKIP(1);
        VM_NEXT();
    }
    VM_CASE(JUMP_IF_FIELD_FALSE)
    {
        val v = base[OPA].u.rec[OPB];
        if (v.flags & VAL_ABSENT) {
            SKIP(2); /* the error at the field's read, as GET_LOCAL_FIELD's */
            uint32_t t, r, c;
            val_absent_where(v, &t, &r, &c);
            SAVE_PC();
            lookup_fail_absent(x, t, r, c);
            goto error;
        }
        if (VM_HOLDS(1)) {
            if (!v.u.i)
                pc += (int32_t)OPC;
            SKIP(3);
            VM_NEXT_TAKING(1);
        }
        CHARGE(1);
        if (!v.u.i)
            pc += (int32_t)OPC;
        SKIP(3);
        VM_NEXT();
    }
    /* A query's rules copied at its call (combine.c, vm.md §5a): its arguments into its
     * locals and one call deeper, as CALL_QUERY's frame; traced (the driver records the call),
     * in a fork of the odds or at the depth limit, the call CALL_QUERY makes, past the copy. */
    VM_CASE(QUERY_ENTER)
    {
        uint32_t q = OPA, argc = OPB, to = OPC;
        if (!x->tracing && !x->fork && x->depth < x->max_depth) {
            SKIP(4);
            x->depth++;
            sp -= argc;
            for (uint32_t i = 0; i < argc; i++)
                base[to + i] = sp[i];
            VM_NEXT();
        }
        int32_t past = (int32_t)OPD;
        SKIP(4);
        SAVE_PC();
        size_t top = (size_t)(sp - x->stack), argi = top - argc;
        val r;
        x->sp = top;
        if (!vm_call_query(x, q, argi, argc, &r, NULL))
            goto error;
        RELOAD();
        sp = x->stack + argi;
        PUSH(r);
        pc += past;
        VM_NEXT();
    }
    /* The same, the arguments forwarded (combine.c): their reads' steps and no copies, past
     * the reads and the QUERY_ENTER that the traced run takes instead. */
    VM_CASE(QUERY_FORWARD)
    {
        if (!x->tracing && !x->fork && x->depth < x->max_depth) {
            CHARGE(OPB); /* the pc still on the operands: the caller's part */
            x->depth++;
            pc += (int32_t)OPC;
            SKIP(3);
            VM_NEXT();
        }
        x->steps_left++; /* the reads and QUERY_ENTER that follow take the call's steps */
        SKIP(3);
        VM_NEXT();
    }
    VM_CASE(QUERY_RULE)
    {
        uint32_t how = OPA;
        if ((how & QR_EXIT) || (uint64_t)sp[-1].u.i == (how & QR_TRUE)) {
            x->depth--; /* the answer stays on the stack */
            pc += (int32_t)OPB;
            SKIP(2);
            VM_NEXT();
        }
        sp--;
        SKIP(2 + (how & QR_GUARDED ? 1 : 0));
        VM_NEXT();
    }
    VM_CASE(QUERY_ACC)
    {
        uint32_t how = OPA;
        val *acc = &base[OPB], v = POP();
        if (!answer_decides(p, how & QA_MAX ? AST_COMBINE_MAX : AST_COMBINE_MIN, v)) {
            if ((how & QA_FIRST) || !acc[1].u.i ||
                (how & QA_MAX ? v.u.i > acc[0].u.i : v.u.i < acc[0].u.i))
                acc[0] = v;
            acc[1].u.i = 1;
            if (!(how & QA_LAST)) {
                SKIP(3 + (how >> QA_SKIP_SHIFT));
                VM_NEXT();
            }
            v = acc[0];
        }
        x->depth--;
        PUSH(v);
        pc += (int32_t)OPC;
        SKIP(3);
        VM_NEXT();
    }
    VM_CASE(QUERY_UNFED)
    {
        base[OPA + 1] = BOOLV(0);
        SKIP(1);
        VM_NEXT();
    }
    VM_CASE(QUERY_ELSE)
    {
        if (base[OPA + 1].u.i) {
            x->depth--;
            PUSH(base[OPA]);
            pc += (int32_t)OPB;
        }
        SKIP(2);
        VM_NEXT();
    }
    VM_CASE(QUERY_NEXT)
    {
        VM_NEXT();
    }
    VM_CASE(QUERY_NONE)
    {
        x->depth--;
        PUSH(BOOLV(OPA));
        SKIP(1);
        VM_NEXT();
    }
    VM_CASE(GUARD_SIDES)
    {
        x->steps_left++; /* a traced run takes the steps of an untraced one */
        trace_guard_sides(&x->trace, &x->arena, ch, OPA, sp[-2], sp[-1]);
        SKIP(1);
        VM_NEXT();
    }
    VM_CASE(GUARD_FAILED)
    {
        trace_guard_failed(&x->trace, ch, OPA);
        *answered = false;
        return true;
    }

    VM_CASE(NTH)
    {
        int64_t i = POP().u.i;
        const vlist *l = TOP.u.list;
        size_t len = l ? l->len : 0;
        if (i < 1 || (uint64_t)i > len)
            RAISE(E_INDEX, "nth: item %" PRId64 " of a list of %zu", i, len);
        TOP = l->items[i - 1];
        VM_NEXT();
    }
    VM_CASE(CONCAT)
    {
        val m = POP(), l = TOP;
        size_t a = l.u.list ? l.u.list->len : 0, b = m.u.list ? m.u.list->len : 0;
        SAVE_PC();
        if (a + b > x->max_list)
            RAISE(E_LIST_SIZE, "a list of more than %zu items (the list size cap)", x->max_list);
        CHARGE(a + b);
        vlist *r = state_alloc(x, sizeof *r + (a + b) * sizeof(val));
        if (!r)
            goto error;
        r->len = a + b;
        if (a)
            memcpy(r->items, l.u.list->items, a * sizeof(val));
        if (b)
            memcpy(r->items + a, m.u.list->items, b * sizeof(val));
        TOP.u.list = r;
        VM_NEXT();
    }
    VM_CASE(LIST_PUSH)
    {
        /* The list in local a is this loop's own until the loop ends, so it grows in place:
         * its room is the next power of two (at least 4) above its length. */
        val *acc = &base[OPA];
        vlist *l = acc->u.list;
        size_t len = l ? l->len : 0;
        SKIP(1);
        if (len >= x->max_list)
            RAISE(E_LIST_SIZE, "a list of more than %zu items (the list size cap)", x->max_list);
        if (len >= 4 && (len & (len - 1)) == 0) {
            SAVE_PC();
            vlist *bigger = state_alloc(x, sizeof *bigger + 2 * len * sizeof(val));
            if (!bigger)
                goto error;
            memcpy(bigger->items, l->items, len * sizeof(val));
            l = bigger;
        } else if (len == 0) {
            SAVE_PC();
            l = state_alloc(x, sizeof *l + 4 * sizeof(val));
            if (!l)
                goto error;
        }
        l->items[len] = POP();
        l->len = len + 1;
        acc->u.list = l;
        VM_NEXT();
    }

    VM_CASE(EFFECT)
    {
        uint32_t k = OPA, n = OPB, extra = OPC;
        SKIP(3);
        SAVE_PC();
        if (!x->driver)
            RAISE(E_INTERNAL, "an effect outside a procedure");
        if (!x->driver->effect(x, ch, k, sp - n, n, extra))
            goto error;
        sp -= n;
        VM_NEXT();
    }
    VM_CASE(RAISE)
    {
        uint32_t e = OPA, n = OPB;
        SKIP(2);
        SAVE_PC();
        if (!x->driver)
            RAISE(E_INTERNAL, "an event raised outside a procedure");
        if (!x->driver->raise(x, e, sp - n, n))
            goto error;
        sp -= n;
        VM_NEXT();
    }
    VM_CASE(CHOOSE)
    {
        uint32_t q = OPA;
        SKIP(1);
        SAVE_PC();
        if (!x->driver)
            RAISE(E_INTERNAL, "a choice outside a procedure");
        val side = POP(), r;
        if (!x->driver->choose(x, ch, TOP, side, q < ch->nstrs ? ch->strs[q] : NULL, &r))
            goto error;
        TOP = r;
        VM_NEXT();
    }
    VM_CASE(NOTE)
    {
        uint32_t k = OPA;
        SKIP(1), SAVE_PC(); /* its line cites the cite block around it (interp/proc.c) */
        if (x->driver)
            x->driver->note(x, ch, k < ch->nstrs ? ch->strs[k] : "");
        VM_NEXT();
    }
    VM_CASE(FAIL)
    {
        uint32_t k = OPA;
        SKIP(1);
        const char *rule =
            ch->kind == CHUNK_RULE && ch->id < p->nrules ? p->rules[ch->id].name : ch->name;
        RAISE(E_FAILED, "%s (rule %s)", k < ch->nstrs ? ch->strs[k] : "failed", rule);
    }
    VM_CASE(REQUIRE)
    {
        uint32_t q = OPA, argc = OPB, k = OPC, rule;
        SKIP(3);
        SAVE_PC();
        if (!x->driver)
            RAISE(E_INTERNAL, "require outside a procedure");
        size_t top = (size_t)(sp - x->stack), argi = top - argc;
        val r;
        x->sp = top;
        if (!vm_call_query(x, q, argi, argc, &r, &rule))
            goto error;
        RELOAD();
        if (!r.u.i) {
            x->driver->refuse(x, q, x->stack + argi, argc, rule,
                              k < ch->nstrs ? ch->strs[k] : NULL);
            goto error;
        }
        sp = x->stack + argi;
        VM_NEXT();
    }
    VM_CASE(DONE)
    {
        *out = BOOLV(1);
        *answered = true;
        return true;
    }
    VM_CASE(TURN)
    {
        PUSH(INTV(x->game ? x->game->turn : 1));
        VM_NEXT();
    }
    VM_CASE(PHASE)
    {
        int32_t ph = x->game ? x->game->phase : (p->enums[E_PHASE].len ? 0 : -1);
        if (ph < 0)
            RAISE(E_NO_PHASE, "no phase is declared (`phase NAME;` declares the phases of a "
                              "turn, in order)");
        PUSH(((val){ .type = p->enums[E_PHASE].type, .u.i = ph }));
        VM_NEXT();
    }

    VM_LOOP_END

budget:
    /* a block of steps is used up: the next comes out of the reserve (state.h) */
    f->pc = pc + 1;
    if (state_refill(x, 0))
        VM_DISPATCH();
    if (x->err.code == E_INTERRUPTED)
        return false;
over_budget:
    return state_fail(x, E_BUDGET, "step budget exhausted (%" PRIu64 " steps) in %s" VM_BUDGET_HINT,
                      x->budget, chunk_name_at(ch, (size_t)(pc - ch->code)));
error:
    return false;

#undef OPA
#undef OPB
#undef OPC
#undef OPD
#undef SKIP
#undef POP
#undef PUSH
#undef TOP
#undef SAVE_PC
#undef RELOAD
#undef ENTER_FRAME
#undef LEAVE_FRAME
#undef RAISE
#undef CHARGE
#undef BOOLV
#undef INTV
#undef ARITH
#undef UNIT_MEMBER
#undef DEEP_EQUAL
#undef BOARD_SLOW
#undef JUMP_IF_CMP
#undef JUMP_IF_SCALAR
#undef DEBUG_OP
#undef VM_CASE
#undef VM_NEXT
#undef VM_LOOP_BEGIN
#undef VM_LOOP_END
#undef VM_DISPATCH
}
