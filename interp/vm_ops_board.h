/* vm_ops_board.h — the dispatch loop's opcode bodies: units, the board, dice and variants.
 *
 * A unit's kind, side, size, values, abilities and markers; a unit named by `$name`; the
 * board built-ins, through BOARD's runner (builtin.c) or, for those that are one lookup, inline
 * with the runner as the slow path; the dice (a fork of the odds saved at each roll: fork.h);
 * a variant's reading.
 *
 * Not a header: vm.c includes it inside vm_execute, in its place in the loop, and its
 * bodies use vm_execute's locals and vm_dispatch.h's macros (VM_CASE, VM_NEXT, OPA...).
 */
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
        RAISE(E_NO_UNIT, "the board has no unit `$%s`%s%s%s", name, near ? " (did you mean `$" : "",
              near ? near : "", near ? "`?)" : "");
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
/* `len(sides_with(sq, f)) > 0` (combine.c): the square's four sides numbered as
 * builtin_sides_with numbers them, the feature's bit read in place; the five steps of the code
 * it stands for taken in the fast path while the block holds them. Else (no board, a hex board,
 * a square off it, a feature past the bits, short of steps) that code's work one step at a
 * time: the built-in through BOARD's runner (its errors), then the length's test. */
VM_CASE(SIDES_ANY_K)
{
    int sq;
    const int64_t id = K[OPA].u.i;
    if (VM_HOLDS(4) && x->sc && x->sc->g->topo == GEO_SQUARE && builtin_square_at(x, TOP, &sq) &&
        (uint64_t)id < BOARD_SIDE_BITS) {
        const board_view *bv = (const board_view *)(const void *)x->sc->b;
        const int w = (int)x->sq_w, sx = sq % w, sy = sq / w;
        const int west = w * ((int)x->sq_h + 1) + sy * (w + 1) + sx;
        const uint64_t bits = bv->side_bits[sy * w + sx] | bv->side_bits[west + 1] |
                              bv->side_bits[(sy + 1) * w + sx] | bv->side_bits[west];
        TOP = BOOLV((bits >> id) & 1);
        SKIP(1);
        VM_NEXT_TAKING(4);
    }
    PUSH(K[OPA]);
    SKIP(1);
    CHARGE(1); /* the BOARD's step (the dispatch took the CONST's) */
    BOARD_SLOW(RES_BI_SIDES_WITH, 2, T_NONE);
    {
        const int64_t n = TOP.u.list ? (int64_t)TOP.u.list->len : 0;
        CHARGE(1); /* the LEN's */
        CHARGE(2); /* the INT's and the GT's */
        TOP = BOOLV(n > 0);
    }
    VM_NEXT();
}
VM_CASE(TERRAIN)
{
    int sq, t;
    const uint32_t type = p->enums[E_TERRAIN].type;
    if (builtin_square_at(x, TOP, &sq) && !x->sc->nelements_turned &&
        (t = board_terrain_at_sq(x->sc->b, sq)) >= 0 && (size_t)t < p->enums[E_TERRAIN].len)
        TOP = (val){ .type = type, .u.i = t };
    else
        BOARD_SLOW(RES_BI_TERRAIN, 1, type);
    VM_NEXT();
}
VM_CASE(ELEVATION)
{
    int sq;
    if (builtin_square_at(x, TOP, &sq))
        TOP = INTV(board_elevation_at_sq(x->sc->b, sq));
    else
        BOARD_SLOW(RES_BI_ELEVATION, 1, T_INT);
    VM_NEXT();
}
VM_CASE(UNITS_AT)
{
    int sq;
    const uint32_t type = OPA;
    SKIP(1);
    if (!(TOP.flags & VAL_ABSENT) && builtin_square_at(x, TOP, &sq) &&
        board_no_unit_at_sq(x->sc->b, sq))
        TOP = (val){ .type = type, .u.list = (vlist *)&builtin_empty_list };
    else
        BOARD_SLOW(RES_BI_UNITS_AT, 1, type);
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
        if (x->dice->overflow) /* odds: E210 at the roll past the bound, not the first one */
            RAISE(E_ODDS, "an outcome rolls more than %d dice: too many to enumerate",
                  DICE_SCRIPT_MAX);
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
    if (!x->dice_on && x->dice->overflow) /* odds: E210 at the roll past the bound */
        RAISE(E_ODDS, "an outcome rolls more than %d dice: too many to enumerate", DICE_SCRIPT_MAX);
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
    PUSH(((val){ .type = p->enums[p->variants[v].enum_id].type,
                 .u.i = x->readings ? (int64_t)x->readings[v] : (int64_t)p->variants[v].dflt }));
    VM_NEXT();
}
