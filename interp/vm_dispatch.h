/* vm_dispatch.h — the dispatch loop's machinery, private to vm.c: operand decoding and stack
 * access (OPA...OPD, POP, PUSH, TOP), frames entered and left in the loop, errors and the step
 * budget (RAISE, CHARGE, VM_HOLDS, VM_NEXT_TAKING), the macros that write several opcode
 * bodies at once, and VM_CASE / VM_NEXT / VM_DISPATCH as a switch or computed goto
 * (HON_THREADED_DISPATCH, config.h).
 *
 * The macros name vm_execute's locals (x, p, f, ch, K, pc, base, sp, entry) and its exits
 * (error, budget, over_budget): vm.c includes this last, after every other header, and the
 * opcode bodies (vm_ops_*.h) use it; nothing else includes it.
 */
#ifndef HON_VM_DISPATCH_H
#define HON_VM_DISPATCH_H

#include "config.h"

#define VM_MAX_DICE 1000 /* largest N in `roll N d6` */

/* GCC merges the identical tails of the opcode bodies (cross-jumping): each would then jump to
 * one shared copy of VM_NEXT, a jump more per instruction; keep a copy in every body. */
#if defined(__GNUC__) && !defined(__clang__) && HON_THREADED_DISPATCH
#define VM_NO_CROSSJUMPING __attribute__((optimize("no-crossjumping")))
#else
#define VM_NO_CROSSJUMPING
#endif

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
/* The count of steps left, x->steps_left, marked as changed (GNU C: an empty asm taking it as an
 * in-out memory operand, which emits no instruction), so that the compiler reads it afresh where
 * it is next used rather than keep an earlier read in a register: a test of the budget is then
 * one compare with memory and a take one subtraction in memory (`cmpq $k, steps_left; jbe`,
 * `subq $k, steps_left`), not a load, a compare, a subtraction in a register and a store.
 * No step, test or outcome changes. */
#if defined(__GNUC__)
#define STEPS_FRESH() __asm__("" : "+m"(x->steps_left))
#else
#define STEPS_FRESH() ((void)0)
#endif
/* Takes n steps (the caller has checked that the block holds them). */
#define STEPS_TAKE(n)                   \
    do {                                \
        STEPS_FRESH();                  \
        x->steps_left -= (uint64_t)(n); \
    } while (0)
/* Charges n more steps for an instruction whose work grows with its operands. */
#define CHARGE(n)                                                                \
    do {                                                                         \
        STEPS_FRESH();                                                           \
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
#define VM_NEXT_TAKING(n)              \
    do {                               \
        STEPS_TAKE((uint64_t)(n) + 1); \
        VM_DISPATCH();                 \
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
/* GET_LOCAL_FIELD's work (the pc on its operands): field OPB of the record in local OPA pushed,
 * past the operands, E201 when it is a `?` cell; also the slow path of the pairs that begin
 * with it. VM_NEXT() follows it at each use, never inside it: in the switch loop VM_NEXT is a
 * `break`, which inside the macro's do-while would leave the do-while, not the switch. */
#define GET_LOCAL_FIELD_PUSH()                   \
    do {                                         \
        val v_ = base[OPA].u.rec[OPB];           \
        SKIP(2);                                 \
        if (v_.flags & VAL_ABSENT) {             \
            uint32_t t_, r_, c_;                 \
            val_absent_where(v_, &t_, &r_, &c_); \
            SAVE_PC();                           \
            lookup_fail_absent(x, t_, r_, c_);   \
            goto error;                          \
        }                                        \
        PUSH(v_);                                \
    } while (0)
/* A pair's fast path (vm_ops_pairs.h) for a square: the square in v when it is no `?` cell and
 * on the board (builtin_square_at), into sq. */
#define PAIR_SQUARE(v, sq) (!((v).flags & VAL_ABSENT) && builtin_square_at(x, (v), &(sq)))
/* x -> pc past the pair `CONST a; JUMP_IF_EQ_S j` (on_eq) or `...NE_S` when the jump is taken,
 * x and K[a] scalars neither a `?` cell, their four steps taken at once; else CONST's work and
 * on into the jump, which compares (E201) and charges as ever. */
#define K_JUMP_IF_SCALAR(NAME, on_eq)                                \
    VM_CASE(NAME)                                                    \
    {                                                                \
        val k_ = K[OPA];                                             \
        if (VM_HOLDS(3) && !((TOP.flags | k_.flags) & VAL_ABSENT)) { \
            bool eq_ = TOP.u.i == k_.u.i;                            \
            sp--;                                                    \
            if (eq_ == (on_eq))                                      \
                pc += (int32_t)pc[2];                                \
            SKIP(3);                                                 \
            VM_NEXT_TAKING(3);                                       \
        }                                                            \
        PUSH(k_);                                                    \
        SKIP(1);                                                     \
        VM_NEXT();                                                   \
    }

#if HON_DEBUG_TRACE
#define DEBUG_OP()                                                              \
    fprintf(stderr, "[vm] %-28s %04zu %s\n", ch->name, (size_t)(pc - ch->code), \
            *pc < OP__COUNT ? op_names[*pc] : "?")
#else
#define DEBUG_OP() ((void)0)
#endif

/* The loop itself: each opcode body written once, VM_CASE(NAME) { ... VM_NEXT(); }, is a label
 * reached through vm_execute's table `labels` (computed goto) or a case of a switch. */
#if HON_THREADED_DISPATCH
#define VM_CASE(name) L_##name:
#define VM_NEXT()                 \
    do {                          \
        STEPS_FRESH();            \
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
        STEPS_FRESH();            \
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

#endif
