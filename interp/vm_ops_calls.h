/* vm_ops_calls.h — the dispatch loop's opcode bodies: calls, returns and combined chunks.
 *
 * Fn and query calls (a frame pushed in this loop, a tabled answer, or the query driver of
 * calls.c), returns and no-answers, the exits of each rule of a query's combined chunk
 * (combine.h) and the combined answer, the small fns and the queries copied at their call
 * (INLINE_*, QUERY_*), and the guards of a traced run.
 *
 * Not a header: vm.c includes it inside vm_execute, in its place in the loop, and its
 * bodies use vm_execute's locals and vm_dispatch.h's macros (VM_CASE, VM_NEXT, OPA...).
 */
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
call_query: /* CALL_QUERY_IN_SET's slow path too (vm_ops_pairs.h): the pc on the operands */
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
                STEPS_TAKE(slot->steps);
                sp[-1] = slot->v;
                VM_NEXT();
            }
        }
        if (answer_tabled(x, q, sp - argc, &r)) {
            sp -= argc;
            PUSH(r);
            VM_NEXT();
        }
    } else if (x->depth < x->inline_depth /* untraced, not forking, not too deep */) {
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
query_end:
{
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
inline_enter: /* INLINE_ENTER_EMPTY's own work when it does not skip: its fn in K[OPA] */
{
    uint32_t argc = OPB, to = OPC;
    SKIP(3);
    if (x->depth >= x->max_depth) {
        SAVE_PC();
        vm_fail_depth(x, pc[-4] == OP_INLINE_ENTER ? pc[-3] : (uint32_t)K[pc[-3]].u.i);
        goto error;
    }
    x->depth++;
    sp -= argc;
    for (uint32_t i = 0; i < argc; i++)
        base[to + i] = sp[i];
    VM_NEXT();
}
/* An inlined fn's code skipped at a square where no unit stands (peephole.c skip_walk, sitting
 * 18: square_screened at every square a line crosses): K[OPA..OPA+3] the digest (the fn; the
 * argument, the deepest depth and the offset past the fn's code; its steps; its value). When
 * the run is untraced and not forking (the copies' test), the depth under the limit, the block
 * holding the steps and the square on the board with no unit (as UNITS_AT's empty list): the
 * arguments dropped, the value pushed, the steps taken, as the fn's code would (its loop over
 * no unit done at once); its locals are not written, which nothing past its code reads. Else
 * INLINE_ENTER's work. */
VM_CASE(INLINE_ENTER_EMPTY)
{
    if (x->depth < x->inline_depth && x->sc) {
        const val *d = &K[OPA];
        const uint64_t w = (uint64_t)d[1].u.i, n = (uint64_t)d[2].u.i;
        const val v = sp[(int)(w & 0xff) - (int)OPB];
        int sq;
        if (x->depth + (w >> 8 & 0xff) <= x->max_depth && VM_HOLDS(n) && !(v.flags & VAL_ABSENT) &&
            builtin_square_at(x, v, &sq) && board_no_unit_at_sq(x->sc->b, sq)) {
            sp -= OPB;
            PUSH(d[3]);
            pc += 3 + (uint32_t)(w >> 32);
            VM_NEXT_TAKING(n);
        }
    }
    goto inline_enter;
}
/* A copy skipped at a side that has none of the features its rules test (peephole.c
 * skip_walk, sitting 18: side_sight at every side a line crosses): K[OPA..OPA+3] the digest
 * (the query, the features, the steps and the two arguments that name the side, the default).
 * When the copy would run inline and the block holds its steps and the next instruction's, the
 * side is on the board and has none of the features: the arguments dropped, the default
 * pushed and the steps taken, as running the copy would (its tests failing one after the
 * other, then its default; none of its other instructions reached, so no error and no reading
 * read); its locals are not written, which nothing past the copy reads and its next entry
 * writes. Else QUERY_ENTER's work. */
VM_CASE(QUERY_ENTER_SIDES)
{
    if (x->depth < x->inline_depth && x->sc) {
        const val *d = &K[OPA];
        const uint64_t w = (uint64_t)d[2].u.i;
        const uint32_t n = (uint32_t)w;
        const val *args = sp - OPB;
        const board_view *bv = (const board_view *)(const void *)x->sc->b;
        int side;
        if (VM_HOLDS(n) &&
            builtin_fast_side_between(x, args[w >> 32 & 0xff], args[w >> 40 & 0xff], &side) &&
            (unsigned)side < (unsigned)bv->n_sides && !(bv->side_bits[side] & d[1].u.bits)) {
            sp -= OPB;
            PUSH(d[3]);
            pc += 4 + (int32_t)OPD;
            VM_NEXT_TAKING(n);
        }
    }
    goto query_enter;
}
/* The same at a square (terrain_sight at every square a line crosses): K[OPA..OPA+7] the digest
 * (opcodes.h). At a square not in an element, the steps of the way outside one; in one whose
 * terrain has its answer in the tabled query's table (as K_KEPT_IN_TABLE reads it) and none of
 * the members tested, the way's steps and the slot's steps at each read; the depths the way
 * reaches (its inlined fns', the table's query's chain) under the limit, as its instructions
 * would check them. Else QUERY_ENTER's work. */
VM_CASE(QUERY_ENTER_SQUARE)
{
    if (x->depth < x->inline_depth && x->sc) {
        const val *d = &K[OPA];
        const uint64_t w = (uint64_t)d[2].u.i;
        const board *bd = x->sc->b;
        int sq, t;
        if (builtin_square_at(x, sp[(int)(w & 0xff) - (int)OPB], &sq)) {
            if (board_element_at_sq(bd, sq) < 0) {
                const uint64_t n = (uint64_t)d[6].u.i;
                if ((w >> 40 & 1) && x->depth + (w >> 32 & 0xff) <= x->max_depth && VM_HOLDS(n)) {
                    sp -= OPB;
                    PUSH(d[7]);
                    pc += 4 + (int32_t)OPD;
                    VM_NEXT_TAKING(n);
                }
            } else if ((w >> 41 & 1) && !x->sc->nelements_turned &&
                       (t = board_terrain_at_sq(bd, sq)) >= 0 &&
                       (size_t)t < p->enums[E_TERRAIN].len) {
                const uint64_t ntab = w >> 8 & 0xff;
                uint64_t n = (uint64_t)d[4].u.i, deep = w >> 16 & 0xff;
                bool bare = true;
                if (ntab) { /* the slot as K_KEPT_IN_TABLE reads it (dom1 > 0: tabled) */
                    const memo *m = &x->memo;
                    const uint32_t tq = (uint32_t)d[3].u.i;
                    const memo_answer *slot = NULL;
                    bare = tq < m->nq && (uint64_t)t < m->dom1[tq] && m->serial == x->pg->serial &&
                           (slot = &m->answers[tq][t])->v.type != T_NONE &&
                           !(slot->v.u.bits & d[1].u.bits);
                    if (bare) {
                        const uint64_t at = (w >> 24 & 0xff) + m->qdepth[tq];
                        n += ntab * slot->steps;
                        deep = at > deep ? at : deep;
                    }
                }
                if (bare && x->depth + deep <= x->max_depth && VM_HOLDS(n)) {
                    sp -= OPB;
                    PUSH(d[5]);
                    pc += 4 + (int32_t)OPD;
                    VM_NEXT_TAKING(n);
                }
            }
        }
    }
    goto query_enter;
}
/* The same, the arguments forwarded (combine.c): no copies; their reads' steps. */
VM_CASE(INLINE_FORWARD)
inline_forward: /* FWD_KEPT's and FWD_FIELD_FALSE's slow path too (vm_ops_pairs.h) */
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
query_enter: /* QUERY_ENTER_SIDES's own work when it does not skip: its query in K[OPA] */
{
    uint32_t argc = OPB;
    if (x->depth < x->inline_depth /* untraced, not forking, not too deep */) {
        /* the arguments copied one by one up to four (the rules' copies take two to four:
         * terrain_sight, side_sight, screens, past_reach), not by a loop */
        val *to = base + OPC;
        SKIP(4);
        x->depth++;
        sp -= argc;
        switch (argc) {
        case 4: to[3] = sp[3]; /* fallthrough */
        case 3: to[2] = sp[2]; /* fallthrough */
        case 2: to[1] = sp[1]; /* fallthrough */
        case 1: to[0] = sp[0]; /* fallthrough */
        case 0: break;
        default:
            for (uint32_t i = 0; i < argc; i++)
                to[i] = sp[i];
        }
        VM_NEXT();
    }
    uint32_t q = pc[-1] == OP_QUERY_ENTER ? OPA : (uint32_t)K[OPA].u.i;
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
    if (x->depth < x->inline_depth /* untraced, not forking, not too deep */) {
        if (VM_HOLDS(OPB)) { /* the reads' steps and the next instruction's: one test */
            uint32_t n = OPB;
            x->depth++;
            pc += (int32_t)OPC;
            SKIP(3);
            VM_NEXT_TAKING(n);
        }
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
query_else: /* QUERY_ELSE_K's slow path too: the pc on the operands */
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
