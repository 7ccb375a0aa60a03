/* vm_ops_values.h — the dispatch loop's opcode bodies: the stack, arithmetic and comparisons.
 *
 * Constants and locals pushed and set; integer arithmetic (E205 on overflow, division by
 * zero); not, the equalities (deep ones charged per value compared, E201 on a `?` cell) and
 * the orderings; membership in a list or a set.
 *
 * Not a header: vm.c includes it inside vm_execute, in its place in the loop, and its
 * bodies use vm_execute's locals and vm_dispatch.h's macros (VM_CASE, VM_NEXT, OPA...).
 */
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
