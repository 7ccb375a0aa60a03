/* vm_ops_flow.h — the dispatch loop's opcode bodies: jumps, loops, kept reads and walks.
 *
 * The jumps, the compare-and-branch forms (one step more for the jump they stand for), the
 * loops over lists and sets and their back edges, the reads kept in a combined chunk
 * (reuse.c), the loops over a traced line walked as they go (walk.h), the empty aggregate
 * error (E213).
 *
 * Not a header: vm.c includes it inside vm_execute, in its place in the loop, and its
 * bodies use vm_execute's locals and vm_dispatch.h's macros (VM_CASE, VM_NEXT, OPA...).
 */
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
        /* the b steps, the dispatch's one among them: at least one is left, so VM_NEXT's test
         * of the block could not strike */
        STEPS_TAKE(OPB);
        pc += 3 + (int32_t)OPC;
        VM_DISPATCH();
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
    const uint32_t b = OPA, plan = OPB, at = OPC, fields = OPD;
    SKIP(4);
    SAVE_PC();
    if (!walk_start(x, b, fields, sp - 2, &base[plan], &base[at]))
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
    if (VM_HOLDS(1)) { /* its second step and the next instruction's: one test (FOR_BACK's) */
        pc += walk_next(x, &base[OPA], &base[OPB], &base[OPC]) ? 4 + (int32_t)OPD : 4;
        VM_NEXT_TAKING(1);
    }
    CHARGE(1);
    pc += walk_next(x, &base[OPA], &base[OPB], &base[OPC]) ? 4 + (int32_t)OPD : 4;
    VM_NEXT();
}
/* A `min` or `max` aggregate's step (compile.c, aggregate): the plain code after it is
 *     GET_LOCAL b; JUMP_IF_FALSE; [GET_LOCAL a; MIN]; SET_LOCAL a; TRUE; SET_LOCAL b
 *     [GET_LOCAL a; CONST c; JUMP_IF_EQ_S]   (over an enum: the member that decides, c)
 * 5 steps, 7 once local b holds a value, 5 more for the bound (JUMP_IF_EQ_S takes 3). When the
 * value goes on to the next item (no decision, no `?` cell) and the block holds the steps, it
 * does that code's work and charges its steps at once; else it runs on into it, taking no
 * step of its own, so each step is taken where the plain code takes it. */
VM_CASE(AGG_MIN)
VM_CASE(AGG_MAX)
agg: /* AGG_MIN_BACK's and AGG_MAX_BACK's own work too (vm_ops_pairs.h) */
{
    const val v = TOP;
    const bool has = base[OPB].u.i != 0, bounded = (int32_t)OPC >= 0;
    int64_t r = v.u.i;
    if (has && ((pc[-1] == OP_AGG_MIN || pc[-1] == OP_AGG_MIN_BACK) ? base[OPA].u.i < r
                                                                    : base[OPA].u.i > r))
        r = base[OPA].u.i;
    const uint64_t n = (has ? 7 : 5) + (bounded ? 5 : 0);
    if (!(v.flags & VAL_ABSENT) && (!bounded || r != (int32_t)OPC) && VM_HOLDS(n - 1)) {
        sp--;
        base[OPA] = v;
        base[OPA].u.i = r;
        base[OPB] = BOOLV(true);
        pc += 4 + (int32_t)OPD;
        VM_NEXT_TAKING(n - 1);
    }
    SKIP(4);
    VM_DISPATCH();
}
VM_CASE(EMPTY_AGG)
{
    RAISE(E_EMPTY, "min or max over an empty collection");
}
