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
