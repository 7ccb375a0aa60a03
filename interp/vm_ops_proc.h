/* vm_ops_proc.h — the dispatch loop's opcode bodies: what procedures do, the turn and the phase.
 *
 * Effects, events raised, choices, notes, failures and `require`, each handed to the
 * procedure driver (vm_ctx.driver, proc.c); a procedure's end; the turn and the phase.
 *
 * Not a header: vm.c includes it inside vm_execute, in its place in the loop, and its
 * bodies use vm_execute's locals and vm_dispatch.h's macros (VM_CASE, VM_NEXT, OPA...).
 */
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
        x->driver->refuse(x, q, x->stack + argi, argc, rule, k < ch->nstrs ? ch->strs[k] : NULL);
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
