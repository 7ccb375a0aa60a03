/* vm_ops_pairs.h — the dispatch loop's opcode bodies: pairs in one.
 *
 * The first instruction of a pair that follow each other in a combined chunk, its opcode
 * rewritten by peephole.c, the second kept in place after it (vm.md §5c). Each does the work
 * of both and goes past the second, taking both instructions' steps at once, when the block
 * holds them and the second's fast path applies; else it does the first's work alone and
 * dispatches the second, which runs as ever (its errors, its steps, E207 at its pc). So the
 * answers, errors and steps are those of the two instructions.
 *
 * Not a header: vm.c includes it inside vm_execute, in its place in the loop, and its
 * bodies use vm_execute's locals and vm_dispatch.h's macros (VM_CASE, VM_NEXT, OPA...).
 */
VM_CASE(L_TERRAIN)
{
    int sq, t;
    if (VM_HOLDS(1) && PAIR_SQUARE(base[OPA], sq) && !x->sc->nelements_turned &&
        (t = board_terrain_at_sq(x->sc->b, sq)) >= 0 && (size_t)t < p->enums[E_TERRAIN].len) {
        PUSH(((val){ .type = p->enums[E_TERRAIN].type, .u.i = t }));
        SKIP(2);
        VM_NEXT_TAKING(1);
    }
    PUSH(base[OPA]);
    SKIP(1);
    VM_NEXT();
}
VM_CASE(LF_TERRAIN)
{
    int sq, t;
    if (VM_HOLDS(1) && PAIR_SQUARE(base[OPA].u.rec[OPB], sq) && !x->sc->nelements_turned &&
        (t = board_terrain_at_sq(x->sc->b, sq)) >= 0 && (size_t)t < p->enums[E_TERRAIN].len) {
        PUSH(((val){ .type = p->enums[E_TERRAIN].type, .u.i = t }));
        SKIP(3);
        VM_NEXT_TAKING(1);
    }
    GET_LOCAL_FIELD_PUSH();
    VM_NEXT();
}
VM_CASE(LF_ELEVATION)
{
    int sq;
    if (VM_HOLDS(1) && PAIR_SQUARE(base[OPA].u.rec[OPB], sq)) {
        PUSH(INTV(board_elevation_at_sq(x->sc->b, sq)));
        SKIP(3);
        VM_NEXT_TAKING(1);
    }
    GET_LOCAL_FIELD_PUSH();
    VM_NEXT();
}
VM_CASE(L_IN_ELEMENT)
{
    int sq;
    if (VM_HOLDS(1) && PAIR_SQUARE(base[OPA], sq)) {
        PUSH(BOOLV(board_element_at_sq(x->sc->b, sq) >= 0));
        SKIP(2);
        VM_NEXT_TAKING(1);
    }
    PUSH(base[OPA]);
    SKIP(1);
    VM_NEXT();
}
VM_CASE(LF_SIDE_HAS_K)
lf_side_has_k: /* LF_SIDE_HAS_K_LEAVE's slow path too: the pc on the operands */
{
    /* the side in the field, the feature the SIDE_HAS_K's constant (its operand, pc[3]) */
    val s = base[OPA].u.rec[OPB];
    int has = VM_HOLDS(2) && x->sc && !(s.flags & VAL_ABSENT)
                  ? board_side_test(x->sc->b, s.u.i, (int)K[pc[3]].u.i)
                  : -1;
    if (has >= 0) {
        PUSH(BOOLV(has));
        SKIP(4);
        VM_NEXT_TAKING(2);
    }
    GET_LOCAL_FIELD_PUSH();
    VM_NEXT();
}
VM_CASE(K_IN_SET)
{
    if (VM_HOLDS(1)) {
        TOP = BOOLV((uint64_t)TOP.u.i < 64 && (K[OPA].u.bits >> TOP.u.i & 1));
        SKIP(2);
        VM_NEXT_TAKING(1);
    }
    PUSH(K[OPA]);
    SKIP(1);
    VM_NEXT();
}
K_JUMP_IF_SCALAR(K_JUMP_IF_EQ_S, true)
K_JUMP_IF_SCALAR(K_JUMP_IF_NE_S, false)
VM_CASE(LF_LF)
{
    /* the second's field read only once the first is no `?` cell (else the first fails) */
    val a = base[OPA].u.rec[OPB];
    if (VM_HOLDS(1) && !(a.flags & VAL_ABSENT)) {
        val b = base[pc[3]].u.rec[pc[4]];
        if (!(b.flags & VAL_ABSENT)) {
            sp[0] = a;
            sp[1] = b;
            sp += 2;
            SKIP(5);
            VM_NEXT_TAKING(1);
        }
    }
    GET_LOCAL_FIELD_PUSH();
    VM_NEXT();
}
VM_CASE(NONE_JUMP)
{
    /* the mode's answer a is known here: the jump after it taken or not without the stack */
    x->depth--;
    if (VM_HOLDS(1)) {
        if ((OPA != 0) == (pc[1] == OP_JUMP_IF_TRUE))
            pc += (int32_t)pc[2];
        SKIP(3);
        VM_NEXT_TAKING(1);
    }
    PUSH(BOOLV(OPA));
    SKIP(1);
    VM_NEXT();
}
/* The jumps that land on an instruction doing no more than a step's worth: the pair is the
 * jump and its target (peephole.c), the target's work done here and its step taken with the
 * jump's next. */
VM_CASE(JUMP_LEAVE)
{
    pc += 1 + (int32_t)OPA; /* on the INLINE_LEAVE */
    if (VM_HOLDS(1)) {
        x->depth--;
        SKIP(1);
        VM_NEXT_TAKING(1);
    }
    VM_NEXT();
}
VM_CASE(JUMP_IF_FALSE_NEXT)
{
    if (POP().u.i) {
        SKIP(1);
        VM_NEXT();
    }
    pc += 1 + (int32_t)OPA; /* on the QUERY_NEXT */
    if (VM_HOLDS(1)) {
        SKIP(1);
        VM_NEXT_TAKING(1);
    }
    VM_NEXT();
}
/* An inlined fn's entry and the first instruction of its copy (sitting 16): INLINE_FORWARD's
 * fast path (the block holds its b steps and the next one's, the depth under the limit), then,
 * on the instruction after it (pc[2]), that one's fast path in place of its dispatch; else the
 * second is dispatched as ever. INLINE_FORWARD's slow path (E207 at its pc, E206) is its own:
 * its label, the pc on the operands (a label, not a macro: in the switch dispatch VM_NEXT is a
 * `break`, which a `do { } while (0)` would swallow). */
VM_CASE(FWD_KEPT)
{
    if (VM_HOLDS(OPB) && x->depth < x->max_depth) {
        x->depth++;
        STEPS_TAKE((uint64_t)OPB + 1);
        SKIP(3); /* on the KEPT's operands: KEPT's body, as it runs after its dispatch */
        if (base[OPA].type != T_NONE && x->steps_left > OPB && !x->tracing) {
            PUSH(base[OPA]);
            STEPS_TAKE(OPB);
            pc += 3 + (int32_t)OPC;
            VM_DISPATCH();
        }
        SKIP(3);
        VM_DISPATCH();
    }
    goto inline_forward;
}
VM_CASE(FWD_FIELD_FALSE)
{
    if (VM_HOLDS(OPB) && x->depth < x->max_depth) {
        x->depth++;
        STEPS_TAKE((uint64_t)OPB + 1);
        SKIP(2); /* on the JUMP_IF_FIELD_FALSE: its fast path, else its dispatch */
        val v = base[pc[1]].u.rec[pc[2]];
        if (!(v.flags & VAL_ABSENT) && VM_HOLDS(1)) {
            pc += 4 + (v.u.i ? 0 : (int32_t)pc[3]);
            VM_NEXT_TAKING(1);
        }
        VM_DISPATCH();
    }
    goto inline_forward;
}
/* A reading compared with a constant and the jump on it (the rules' `if variant v == m`): the
 * reading read as VARIANT reads it (and marked read), the jump (pc[4], JUMP_IF_EQ_S or
 * JUMP_IF_NE_S) taken or not without the stack. A reading is never a `?` cell; the constant a
 * member, never one either (else the slow path: VARIANT's work, and on into the compare). */
VM_CASE(VARIANT_JUMP)
{
    uint32_t v = OPA;
    if (x->variants_read) /* variants.c watches which variants a question reads */
        x->variants_read[v / 64] |= (uint64_t)1 << (v % 64);
    int64_t r = x->readings ? (int64_t)x->readings[v] : (int64_t)p->variants[v].dflt;
    val k = K[pc[2]];
    if (VM_HOLDS(4) && !(k.flags & VAL_ABSENT)) {
        if ((r == k.u.i) == (pc[3] == OP_JUMP_IF_EQ_S))
            pc += (int32_t)pc[4];
        SKIP(5);
        VM_NEXT_TAKING(4);
    }
    PUSH(((val){ .type = p->enums[p->variants[v].enum_id].type, .u.i = r }));
    SKIP(1);
    VM_NEXT();
}
/* An `and`'s or an `or`'s value (`a; JUMP_IF_FALSE_KEEP end; POP; b; end:`): the test, and when
 * it goes on, the POP after it in the same dispatch. */
VM_CASE(JUMP_IF_FALSE_KEEP_POP)
{
    if (TOP.u.i && VM_HOLDS(1)) {
        sp--;
        SKIP(2);
        VM_NEXT_TAKING(1);
    }
    if (!TOP.u.i)
        pc += (int32_t)OPA;
    SKIP(1);
    VM_NEXT();
}
VM_CASE(JUMP_IF_TRUE_KEEP_POP)
{
    if (!TOP.u.i && VM_HOLDS(1)) {
        sp--;
        SKIP(2);
        VM_NEXT_TAKING(1);
    }
    if (TOP.u.i)
        pc += (int32_t)OPA;
    SKIP(1);
    VM_NEXT();
}
/* A tabled query's answer tested for a member at once (`t in terrain_traits(terrain(sq))`): the
 * slot CALL_QUERY's quick path reads (memo_slot_quick), when the block holds its steps and the
 * IN_SET's; else CALL_QUERY as ever (its label), which goes on into the IN_SET. */
VM_CASE(CALL_QUERY_IN_SET)
{
    const memo *m = &x->memo;
    const uint32_t q = OPA;
    if (memo_may_table(m, q) && m->dom1[q] && (uint64_t)TOP.u.i < m->dom1[q] &&
        m->serial == x->pg->serial && !x->tracing) {
        const memo_answer *slot = &m->answers[q][TOP.u.i];
        if (slot->v.type != T_NONE && VM_HOLDS(slot->steps + 1) &&
            x->depth + m->qdepth[q] <= x->max_depth) {
            sp--;
            TOP = BOOLV((uint64_t)TOP.u.i < 64 && (slot->v.u.bits >> TOP.u.i & 1));
            SKIP(3);
            VM_NEXT_TAKING(slot->steps + 1);
        }
    }
    goto call_query;
}
/* A loop's start over a list (compile.c: the list into its local, the index 0 into another,
 * the first FOR_NEXT): the four in one when the block holds their steps; else SET_LOCAL's
 * work, and the others as ever. pc[1..2] the INT, pc[3..4] the second SET_LOCAL, pc[5..9] the
 * FOR_NEXT. */
VM_CASE(FOR_START)
{
    base[OPA] = POP();
    if (VM_HOLDS(3)) {
        base[pc[4]] = INTV((int32_t)pc[2]);
        const vlist *l = base[pc[6]].u.list;
        val *idx = &base[pc[7]];
        if (l && (uint64_t)idx->u.i < l->len) {
            base[pc[8]] = l->items[idx->u.i++];
            SKIP(10);
        } else {
            pc += 10 + (int32_t)pc[9];
        }
        VM_NEXT_TAKING(3);
    }
    SKIP(1);
    VM_NEXT();
}
/* Three in one: an inlined fn whose value is a side feature's test, tested at once by its
 * caller (`GET_LOCAL_FIELD a b; SIDE_HAS_K k; LEAVE_JUMP_IF_FALSE j`: pc[2..3] the SIDE_HAS_K,
 * pc[4..5] the leave and its jump); else LF_SIDE_HAS_K's own work, as ever. */
VM_CASE(LF_SIDE_HAS_K_LEAVE)
{
    val s = base[OPA].u.rec[OPB];
    int has = VM_HOLDS(4) && x->sc && !(s.flags & VAL_ABSENT)
                  ? board_side_test(x->sc->b, s.u.i, (int)K[pc[3]].u.i)
                  : -1;
    if (has >= 0) {
        x->depth--;
        pc += 6 + (has ? 0 : (int32_t)pc[5]);
        VM_NEXT_TAKING(4);
    }
    goto lf_side_has_k;
}
/* A loop's test that leaves it when true (`any`'s), and the loop's back edge after it
 * (`JUMP_IF_TRUE a; FOR_BACK c d e j`: pc[1] the FOR_BACK, pc[2..5] its operands): when the test
 * goes on and an item is left, FOR_BACK's fast path; else the jump alone, and the FOR_BACK
 * dispatched as ever. */
VM_CASE(JUMP_IF_TRUE_BACK)
{
    if (POP().u.i) {
        pc += (int32_t)OPA;
        SKIP(1);
        VM_NEXT();
    }
    const vlist *l = base[pc[2]].u.list;
    val *idx = &base[pc[3]];
    if (VM_HOLDS(2) && l && (uint64_t)idx->u.i < l->len) {
        base[pc[4]] = l->items[idx->u.i++];
        pc += 6 + (int32_t)pc[5];
        VM_NEXT_TAKING(2);
    }
    SKIP(1);
    VM_NEXT();
}
/* CALL_QUERY_IN_SET, and the inlined fn's end and the test of its value after it
 * (`...; IN_SET; LEAVE_JUMP_IF_FALSE j`: pc[2] the IN_SET, pc[3..4] the leave and its jump). */
VM_CASE(CALL_QUERY_IN_SET_LEAVE)
{
    const memo *m = &x->memo;
    const uint32_t q = OPA;
    if (memo_may_table(m, q) && m->dom1[q] && (uint64_t)TOP.u.i < m->dom1[q] &&
        m->serial == x->pg->serial && !x->tracing) {
        const memo_answer *slot = &m->answers[q][TOP.u.i];
        if (slot->v.type != T_NONE && VM_HOLDS(slot->steps + 3) &&
            x->depth + m->qdepth[q] <= x->max_depth) {
            sp -= 2;
            const bool in = (uint64_t)sp[0].u.i < 64 && (slot->v.u.bits >> sp[0].u.i & 1);
            x->depth--;
            pc += 5 + (in ? 0 : (int32_t)pc[4]);
            VM_NEXT_TAKING(slot->steps + 3);
        }
    }
    goto call_query;
}
/* A constant, then a kept read (`t in terrain_traits(terrain(sq))`, the terrain kept): pc[1]
 * the KEPT, pc[2..4] its operands (slot, steps, skip). The kept read as KEPT runs it, the
 * CONST's step and its own in one test: more than d + 1 left. */
VM_CASE(K_KEPT)
k_kept: /* K_KEPT_IN_TABLE's slow path too: the pc on the operands */
{
    PUSH(K[OPA]);
    const val kept = base[pc[2]];
    if (kept.type != T_NONE && x->steps_left > (uint64_t)pc[3] + 1 && !x->tracing) {
        PUSH(kept);
        STEPS_TAKE((uint64_t)pc[3] + 1);
        pc += 5 + (int32_t)pc[4];
        VM_DISPATCH();
    }
    SKIP(1);
    VM_NEXT();
}
/* Two locals pushed (pc[1..2] the second GET_LOCAL, whatever peep_pairs made of it: its work
 * is the push, and it is not dispatched). */
VM_CASE(L_L)
{
    PUSH(base[OPA]);
    if (VM_HOLDS(1)) {
        PUSH(base[pc[2]]);
        SKIP(3);
        VM_NEXT_TAKING(1);
    }
    SKIP(1);
    VM_NEXT();
}
/* A kept side and the test of one of its features, then the jump on it (sitting 17: each of
 * side_sight's rules asks `side_has(side_between(a, b), f)`, the side kept per copy entry):
 * pc[2] the KEPT's skip to its code's end, where the SIDE_HAS_K and the jump stand (s[0..3]).
 * The steps of the three (KEPT's b, SIDE_HAS_K's two, the jump's one, and on the jump's way
 * to a QUERY_NEXT that one's step too, as JUMP_IF_FALSE_NEXT takes it) in one test of the
 * block; else KEPT's own work, and the two after it run as ever. */
VM_CASE(KEPT_SIDE_JUMP)
{
    const val kept = base[OPA];
    if (kept.type != T_NONE && !x->tracing) {
        const uint32_t *s = pc + 3 + (int32_t)OPC;
        const bool next = s[2] == OP_JUMP_IF_FALSE_NEXT;
        int has = x->steps_left > (uint64_t)OPB + 4 && x->sc && (next || s[2] == OP_JUMP_IF_FALSE)
                      ? board_side_test(x->sc->b, kept.u.i, (int)K[s[1]].u.i)
                      : -1;
        if (has >= 0) {
            STEPS_TAKE((uint64_t)OPB + 3 + (!has && next));
            pc = s + 4 + (has ? 0 : (int32_t)s[3] + next);
            VM_DISPATCH();
        }
        if (x->steps_left > OPB) { /* KEPT's fast path */
            PUSH(kept);
            STEPS_TAKE(OPB);
            pc = s;
            VM_DISPATCH();
        }
    }
    SKIP(3);
    VM_DISPATCH();
}
/* A constant, a kept read, and a tabled query's answer for the kept value tested for the
 * constant at once, then the inlined fn's end and the jump on it (sitting 17: `t in
 * terrain_traits(terrain(sq))` in has_trait, the terrain kept per entry of the copy): pc[1]
 * the KEPT, pc[2..4] its operands (slot, steps, skip), c the CALL_QUERY_IN_SET_LEAVE at the
 * kept code's end (c[1] the query, c[5] the jump). The steps of them all (the constant's, the
 * kept code's d, the table slot's and the three after it) in one test of the block, the
 * query's answer read from its slot as CALL_QUERY_IN_SET_LEAVE reads it; else K_KEPT's own
 * work, and the instructions after it run as ever. */
VM_CASE(K_KEPT_IN_TABLE)
{
    const val kept = base[pc[2]];
    const uint32_t *c = pc + 5 + (int32_t)pc[4];
    const memo *m = &x->memo;
    if (kept.type != T_NONE && !x->tracing && *c == OP_CALL_QUERY_IN_SET_LEAVE &&
        memo_may_table(m, c[1]) && m->dom1[c[1]] && (uint64_t)kept.u.i < m->dom1[c[1]] &&
        m->serial == x->pg->serial) {
        const memo_answer *slot = &m->answers[c[1]][kept.u.i];
        const uint64_t n = (uint64_t)pc[3] + 1 + slot->steps + 4;
        if (slot->v.type != T_NONE && x->steps_left > n &&
            x->depth + m->qdepth[c[1]] <= x->max_depth) {
            const int64_t k = K[OPA].u.i;
            const bool in = (uint64_t)k < 64 && (slot->v.u.bits >> k & 1);
            x->depth--;
            STEPS_TAKE(n);
            pc = c + 6 + (in ? 0 : (int32_t)c[5]);
            VM_DISPATCH();
        }
    }
    goto k_kept;
}
/* A local pushed and then a local's field (sitting 17: a shot and its step's square, the
 * arguments of terrain_sight's and side_sight's copies at every step): pc[1..3] the
 * GET_LOCAL_FIELD, whatever pair peep_pairs made of it; when that is an LF_LF (pc[4..6] its
 * second field), the second field too, three in one. Each field read only once the value
 * before it is no `?` cell; else the GET_LOCAL's work alone, and the field's read runs as
 * ever (its E201). */
VM_CASE(L_LF)
{
    PUSH(base[OPA]);
    const val f1 = base[pc[2]].u.rec[pc[3]];
    if (VM_HOLDS(1) && !(f1.flags & VAL_ABSENT)) {
        if (pc[1] == OP_LF_LF && VM_HOLDS(2)) {
            const val f2 = base[pc[5]].u.rec[pc[6]];
            if (!(f2.flags & VAL_ABSENT)) {
                sp[0] = f1;
                sp[1] = f2;
                sp += 2;
                SKIP(7);
                VM_NEXT_TAKING(2);
            }
        }
        PUSH(f1);
        SKIP(4);
        VM_NEXT_TAKING(1);
    }
    SKIP(1);
    VM_NEXT();
}
/* A copied min or max query's last rule's no-answer exit and then its default when that is
 * a constant answered at once (sitting 17: `default clear` of terrain_sight and side_sight,
 * after their last rule at every square and side a line crosses): pc[2..3] the CONST, pc[4..6]
 * the QUERY_RULE (how, offset). When no rule fed the copy and the QUERY_RULE leaves it
 * (QR_EXIT), the constant pushed and the copy left, the three steps in one test of the
 * block; else QUERY_ELSE's own work, and the two after it run as ever. */
VM_CASE(QUERY_ELSE_K)
{
    if (!base[OPA + 1].u.i && (pc[5] & QR_EXIT) && VM_HOLDS(2)) {
        x->depth--;
        PUSH(K[pc[3]]);
        pc += 7 + (int32_t)pc[6];
        VM_NEXT_TAKING(2);
    }
    goto query_else;
}
/* A min or max aggregate's step whose jump past its plain code lands on the loop's FOR_BACK
 * (sitting 18: the `min(st in line(...): ...)` of sight_along's terrain and sides rules, at
 * every step of a line): AGG_MIN's fast path, then FOR_BACK's (the next item into its local and
 * the jump back, or past it when done), the steps of both (the aggregate's code's, the FOR_BACK's
 * two) in one test of the block; else AGG_MIN's own work (agg), and the FOR_BACK runs as ever
 * when reached. */
VM_CASE(AGG_MIN_BACK)
VM_CASE(AGG_MAX_BACK)
{
    const val v = TOP;
    const bool has = base[OPB].u.i != 0, bounded = (int32_t)OPC >= 0;
    int64_t r = v.u.i;
    if (has && (pc[-1] == OP_AGG_MIN_BACK ? base[OPA].u.i < r : base[OPA].u.i > r))
        r = base[OPA].u.i;
    const uint64_t n = (has ? 7 : 5) + (bounded ? 5 : 0);
    if (!(v.flags & VAL_ABSENT) && (!bounded || r != (int32_t)OPC) && VM_HOLDS(n + 1)) {
        const uint32_t *b = pc + 5 + (int32_t)OPD; /* the FOR_BACK's operands */
        const vlist *l = base[b[0]].u.list;
        val *idx = &base[b[1]];
        sp--;
        base[OPA] = v;
        base[OPA].u.i = r;
        base[OPB] = BOOLV(true);
        if (l && (uint64_t)idx->u.i < l->len) {
            base[b[2]] = l->items[idx->u.i++];
            pc = b + 4 + (int32_t)b[3];
        } else {
            pc = b + 4;
        }
        VM_NEXT_TAKING(n + 1);
    }
    goto agg;
}
/* A local pushed and then the distance to it, or the compare with it (sitting 18: `distance(
 * s.from, entered) > reach`, past_reach's default, at every step of a line the range-limit
 * rule of sight_along walks): DISTANCE's fast path (both squares on a square board) or GT's
 * work on the value below and the local, past the second, their two steps; else the GET_LOCAL
 * alone, and the second runs as ever (its errors). */
VM_CASE(L_DISTANCE)
{
    int64_t d;
    if (VM_HOLDS(1) && builtin_fast_distance(x, TOP, base[OPA], &d)) {
        TOP = INTV(d);
        SKIP(2);
        VM_NEXT_TAKING(1);
    }
    PUSH(base[OPA]);
    SKIP(1);
    VM_NEXT();
}
VM_CASE(L_GT)
{
    if (VM_HOLDS(1)) {
        TOP = BOOLV(TOP.u.i > base[OPA].u.i);
        SKIP(2);
        VM_NEXT_TAKING(1);
    }
    PUSH(base[OPA]);
    SKIP(1);
    VM_NEXT();
}
