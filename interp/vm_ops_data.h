/* vm_ops_data.h — the dispatch loop's opcode bodies: lists, sets, records and tables.
 *
 * Lists, sets and records built from the stack, a record's field read (E201 on a `?` cell),
 * a collection's length, a table read (lookup.c).
 *
 * Not a header: vm.c includes it inside vm_execute, in its place in the loop, and its
 * bodies use vm_execute's locals and vm_dispatch.h's macros (VM_CASE, VM_NEXT, OPA...).
 */
VM_CASE(MAKE_LIST)
{
    uint32_t t = OPA, n = OPB;
    SKIP(2);
    SAVE_PC();
    /* a literal is a list too: the cap (E229) holds for `[1, 1, ...]` as for `++` */
    if (n > x->max_list)
        RAISE(E_LIST_SIZE, "a list of more than %zu items (the list size cap)", x->max_list);
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
    GET_LOCAL_FIELD_PUSH();
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
