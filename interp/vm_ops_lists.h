/* vm_ops_lists.h — the dispatch loop's opcode bodies: lists read and grown.
 *
 * A list's item by position (E210), two lists joined, an item pushed onto the list a loop
 * builds (grown in place).
 *
 * Not a header: vm.c includes it inside vm_execute, in its place in the loop, and its
 * bodies use vm_execute's locals and vm_dispatch.h's macros (VM_CASE, VM_NEXT, OPA...).
 */
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
