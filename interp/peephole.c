/* peephole.c — pairs of instructions in one, in a finished combined chunk (see peephole.h).
 *
 * The pairs are those the profile of the benchmark's rules shows at every step of a line
 * (bench.md §8, sitting 15): a square read from a local or a local's field, then its terrain,
 * elevation, element or a side feature; a constant pushed, then a set membership or a
 * compare-and-branch against it; two fields read; a copied `any` or `all` query's answer when
 * no rule decided, tested at once; and the jumps to a rule's no-answer exit of a copied query
 * (QUERY_NEXT) and to an inlined fn's end (INLINE_LEAVE). Sitting 16 added an inlined fn's entry
 * and its copy's first instruction (a kept read, a field's test), and a variant's reading
 * compared with a member and the jump on it (three instructions in one); then an `and`'s or
 * `or`'s test and the POP after it, a tabled query's answer and the member test on it, a
 * loop's start (four instructions in one), an inlined fn's value tested at once by its caller
 * (three in one: leave_after) and an `any` loop's test with its back edge. Sitting 17: a kept
 * side whose code ends in a feature's test and the jump on it (three in one, KEPT_SIDE_JUMP),
 * and a constant and a kept read whose code ends in a tabled query's member test
 * (K_KEPT_IN_TABLE); a local pushed and then a local's field (L_LF, three in one when that
 * field's read is an LF_LF); a copy's last no-answer exit and its constant default
 * (QUERY_ELSE_K). Sitting 18: a copy skipped at a side with none of the features its rules
 * test (peep_skips, QUERY_ENTER_SIDES).
 * And the fields of a step that each walk over `bresenham` reads (peep_walk_fields,
 * walk.h). */
#include "peephole.h"

#include <stddef.h>
#include <stdint.h>

#include "combine.h"
#include "model.h"

/* The instruction `first` followed at once by `second` runs as (vm_ops_pairs.h), OP__COUNT for
 * none: a switch on the first, not a scan of a table of pairs, since the pass looks at every
 * instruction of every combined chunk a session builds. */
static uint32_t pair_of(uint32_t first, uint32_t second)
{
    switch (first) {
    case OP_GET_LOCAL:
        return second == OP_TERRAIN           ? OP_L_TERRAIN
               : second == OP_IN_ELEMENT      ? OP_L_IN_ELEMENT
               : second == OP_GET_LOCAL       ? OP_L_L
               : second == OP_GET_LOCAL_FIELD ? OP_L_LF
                                              : OP__COUNT;
    case OP_GET_LOCAL_FIELD:
        return second == OP_TERRAIN           ? OP_LF_TERRAIN
               : second == OP_ELEVATION       ? OP_LF_ELEVATION
               : second == OP_SIDE_HAS_K      ? OP_LF_SIDE_HAS_K
               : second == OP_GET_LOCAL_FIELD ? OP_LF_LF
                                              : OP__COUNT;
    case OP_CONST:
        return second == OP_IN_SET         ? OP_K_IN_SET
               : second == OP_JUMP_IF_EQ_S ? OP_K_JUMP_IF_EQ_S
               : second == OP_JUMP_IF_NE_S ? OP_K_JUMP_IF_NE_S
               : second == OP_KEPT         ? OP_K_KEPT
                                           : OP__COUNT;
    case OP_QUERY_NONE:
        return second == OP_JUMP_IF_TRUE || second == OP_JUMP_IF_FALSE ? OP_NONE_JUMP : OP__COUNT;
    case OP_INLINE_FORWARD:
        return second == OP_KEPT                  ? OP_FWD_KEPT
               : second == OP_JUMP_IF_FIELD_FALSE ? OP_FWD_FIELD_FALSE
                                                  : OP__COUNT;
    case OP_JUMP_IF_FALSE_KEEP: return second == OP_POP ? OP_JUMP_IF_FALSE_KEEP_POP : OP__COUNT;
    case OP_JUMP_IF_TRUE_KEEP: return second == OP_POP ? OP_JUMP_IF_TRUE_KEEP_POP : OP__COUNT;
    case OP_CALL_QUERY: return second == OP_IN_SET ? OP_CALL_QUERY_IN_SET : OP__COUNT;
    case OP_JUMP_IF_TRUE: return second == OP_FOR_BACK ? OP_JUMP_IF_TRUE_BACK : OP__COUNT;
    default: return OP__COUNT;
    }
}

/* `jump` landing on `target` runs as `pair`'s instruction (a jump and the instruction it
 * lands on, which does no more than take its step and, for INLINE_LEAVE, give the call depth
 * back). */
static const struct {
    uint16_t jump, target, pair;
} landings[] = {
    { OP_JUMP, OP_INLINE_LEAVE, OP_JUMP_LEAVE },
    { OP_JUMP_IF_FALSE, OP_QUERY_NEXT, OP_JUMP_IF_FALSE_NEXT },
};

/* A pair of pair_of's (at pc, its second at next) followed by an inlined fn's end and
 * the test of its value (LEAVE_JUMP_IF_FALSE): the three in one. */
static void leave_after(chunk *ch, size_t pc, size_t next)
{
    const size_t third = next + 1 + op_operands[ch->code[next]];
    if (third + 1 >= ch->len || ch->code[third] != OP_LEAVE_JUMP_IF_FALSE)
        return;
    if (ch->code[pc] == OP_LF_SIDE_HAS_K)
        ch->code[pc] = OP_LF_SIDE_HAS_K_LEAVE;
    else if (ch->code[pc] == OP_CALL_QUERY_IN_SET)
        ch->code[pc] = OP_CALL_QUERY_IN_SET_LEAVE;
}

/* A K_KEPT (at pc, its KEPT at kept) whose kept code ends in a tabled query's call, the member
 * test on its answer and the inlined fn's end and jump (`CALL_QUERY q 1; IN_SET;
 * LEAVE_JUMP_IF_FALSE j`, made CALL_QUERY_IN_SET_LEAVE when the pass reaches it; the VM reads
 * that opcode): all in one, K_KEPT_IN_TABLE. */
static void kept_in_table(chunk *ch, size_t pc, size_t kept)
{
    const size_t c = kept + 4 + (size_t)(int32_t)ch->code[kept + 3];
    if (c + 5 < ch->len && ch->code[c] == OP_CALL_QUERY && ch->code[c + 2] == 1 &&
        ch->code[c + 3] == OP_IN_SET && ch->code[c + 4] == OP_LEAVE_JUMP_IF_FALSE)
        ch->code[pc] = OP_K_KEPT_IN_TABLE;
}

void peep_pairs(chunk *ch)
{
    uint32_t prev = OP__COUNT; /* the instruction before, as rewritten */
    for (size_t pc = 0; pc < ch->len;) {
        const uint32_t op = ch->code[pc];
        const size_t next = pc + 1 + op_operands[op];
        if (next >= ch->len)
            break;
        /* the tables' first instructions alone are looked up: the pass runs on every combined
         * chunk a session builds, at its first call (a one-answer command builds thousands
         * of words of them) */
        switch (op) {
        case OP_GET_LOCAL:
        case OP_GET_LOCAL_FIELD:
        case OP_CONST:
        case OP_QUERY_NONE:
        case OP_INLINE_FORWARD:
        case OP_JUMP_IF_FALSE_KEEP:
        case OP_JUMP_IF_TRUE_KEEP:
        case OP_CALL_QUERY:
        case OP_JUMP_IF_TRUE: {
            if (op == OP_JUMP_IF_TRUE && prev == OP_NONE_JUMP)
                break; /* NONE_JUMP reads this opcode: its polarity */
            uint32_t pair = pair_of(op, ch->code[next]);
            if (pair == OP_L_LF) {
                /* not when the field's read makes a pair of its own with what follows it
                 * (its terrain, elevation or side feature): L_LF runs on past that read */
                const size_t third = next + 1 + op_operands[OP_GET_LOCAL_FIELD];
                const uint32_t inner =
                    third < ch->len ? pair_of(OP_GET_LOCAL_FIELD, ch->code[third]) : OP__COUNT;
                if (inner != OP__COUNT && inner != OP_LF_LF)
                    pair = OP__COUNT;
            }
            if (pair != OP__COUNT) {
                ch->code[pc] = pair;
                leave_after(ch, pc, next);
                if (pair == OP_K_KEPT)
                    kept_in_table(ch, pc, next);
            }
            break;
        }
        case OP_JUMP:
        case OP_JUMP_IF_FALSE: {
            /* its one operand: its offset from the end of the instruction */
            const int64_t to = (int64_t)next + (int32_t)ch->code[pc + 1];
            for (size_t i = 0; i < sizeof landings / sizeof landings[0]; i++)
                if (landings[i].jump == op && to >= 0 && to < (int64_t)ch->len &&
                    landings[i].target == ch->code[to]) {
                    ch->code[pc] = landings[i].pair;
                    break;
                }
            break;
        }
        case OP_VARIANT: {
            /* a reading compared with a constant and the jump on it: three in one */
            const size_t third = next + 1 + op_operands[OP_CONST];
            if (ch->code[next] == OP_CONST && third + 1 < ch->len &&
                (ch->code[third] == OP_JUMP_IF_EQ_S || ch->code[third] == OP_JUMP_IF_NE_S))
                ch->code[pc] = OP_VARIANT_JUMP;
            break;
        }
        case OP_KEPT: {
            /* a kept side whose code ends (past its KEEP) in a feature's test and the jump on
             * it: three in one (the jump, rewritten later to JUMP_IF_FALSE_NEXT or not, is read
             * by the VM) */
            const size_t s = next + (size_t)(int32_t)ch->code[pc + 3];
            if (s + 3 < ch->len && ch->code[s] == OP_SIDE_HAS_K &&
                (ch->code[s + 2] == OP_JUMP_IF_FALSE || ch->code[s + 2] == OP_JUMP_IF_FALSE_NEXT))
                ch->code[pc] = OP_KEPT_SIDE_JUMP;
            break;
        }
        case OP_QUERY_ELSE: {
            /* a copy's default that is a constant answered at once: three in one (whether the
             * QUERY_RULE leaves the copy, QR_EXIT, is read by the VM) */
            const size_t r = next + 1 + op_operands[OP_CONST];
            if (ch->code[next] == OP_CONST && r + 2 < ch->len && ch->code[r] == OP_QUERY_RULE)
                ch->code[pc] = OP_QUERY_ELSE_K;
            break;
        }
        case OP_SET_LOCAL: {
            /* a loop's start: SET_LOCAL, INT, SET_LOCAL, FOR_NEXT, four in one */
            const size_t i = next, s2 = i + 2, f = s2 + 2;
            if (f + 4 < ch->len && ch->code[i] == OP_INT && ch->code[s2] == OP_SET_LOCAL &&
                ch->code[f] == OP_FOR_NEXT)
                ch->code[pc] = OP_FOR_START;
            break;
        }
        default: break;
        }
        prev = ch->code[pc];
        pc = next;
    }
}

/* The words of code ch at [at, at + n) are in it. */
static bool within(const chunk *ch, size_t at, size_t n)
{
    return at < ch->len && n <= ch->len - at;
}

/* pc + 1 + ops + the signed jump operand at pc + ops (an instruction of ops operands whose last
 * is a jump), or SIZE_MAX when that falls outside ch. */
static size_t jump_target(const chunk *ch, size_t pc, size_t ops)
{
    const int64_t to = (int64_t)(pc + 1 + ops) + (int32_t)ch->code[pc + ops];
    return to >= 0 && to < (int64_t)ch->len ? (size_t)to : SIZE_MAX;
}

/* The QUERY_ENTER at pc, made QUERY_ENTER_SIDES when its copy is, as peep_pairs left it: the
 * UNKEEP of its kept reads, then rules that each begin with a KEPT_SIDE_JUMP of one slot,
 * whose code (the first's: `L_L a; GET_LOCAL b; SIDE_BETWEEN; KEEP slot`, a and b two of the
 * copy's parameters) is `side_between(a, b)`, its feature's test and the jump taken when the
 * feature is absent, landing (past a QUERY_NEXT, JUMP_IF_FALSE_NEXT's) on the rule's
 * no-answer exit (QUERY_UNFED or QUERY_NEXT), then on the next rule's KEPT_SIDE_JUMP, the last
 * on a QUERY_ELSE_K whose QUERY_RULE leaves the copy where the QUERY_ENTER's jump lands
 * (sitting 18: side_sight's rules, `side_has(side_between(a, b), f)` each). Along that way,
 * taken at a side that has none of the features, every instruction's steps are known: the
 * KEPT_SIDE_JUMP's (its kept code's, the constant's, SIDE_HAS's and the jump's), a QUERY_NEXT
 * or QUERY_UNFED one each, the QUERY_ELSE_K's three; the UNKEEP takes none. Its digest,
 * four new constants of ch (opcodes.h), names them for the VM. */
static void sides_skip(chunk *ch, size_t pc)
{
    const uint32_t *c = ch->code;
    const uint32_t argc = c[pc + 2], to = c[pc + 3];
    const size_t out = jump_target(ch, pc, 4);
    size_t p = pc + 5;
    if (out == SIZE_MAX || !within(ch, p, 3 + 4 + 7) || c[p] != OP_UNKEEP)
        return;
    p += 3;
    const size_t kc = p + 4; /* the first's kept code */
    const uint32_t slot = c[p + 1], ksteps = c[p + 2];
    if (c[p] != OP_KEPT_SIDE_JUMP || c[p + 3] != 7 || ksteps != 3 ||
        (c[kc] != OP_L_L && c[kc] != OP_GET_LOCAL) || c[kc + 2] != OP_GET_LOCAL ||
        c[kc + 4] != OP_SIDE_BETWEEN || c[kc + 5] != OP_KEEP || c[kc + 6] != slot)
        return;
    const uint32_t ia = c[kc + 1] - to, ib = c[kc + 3] - to; /* the arguments, by position */
    if (c[kc + 1] < to || ia >= argc || c[kc + 3] < to || ib >= argc || argc > 255)
        return;
    uint64_t mask = 0, steps = 0;
    uint32_t acc = UINT32_MAX; /* the accumulator whose fed flag a QUERY_UNFED cleared */
    for (int rules = 0; rules < 64; rules++) {
        if (!within(ch, p, 4) || c[p] != OP_KEPT_SIDE_JUMP || c[p + 1] != slot ||
            c[p + 2] != ksteps)
            return;
        const size_t sp = jump_target(ch, p, 3); /* SIDE_HAS_K k; JUMP_IF_FALSE(_NEXT) j */
        if (sp == SIZE_MAX || !within(ch, sp, 4) || c[sp] != OP_SIDE_HAS_K ||
            (c[sp + 2] != OP_JUMP_IF_FALSE && c[sp + 2] != OP_JUMP_IF_FALSE_NEXT) ||
            c[sp + 1] >= ch->nk)
            return;
        const int64_t f = ch->k[c[sp + 1]].u.i;
        if (f < 0 || f >= 64)
            return;
        mask |= UINT64_C(1) << f;
        steps += ksteps + 3;
        size_t t = jump_target(ch, sp + 2, 1);
        if (t != SIZE_MAX && c[sp + 2] == OP_JUMP_IF_FALSE_NEXT) {
            if (c[t] != OP_QUERY_NEXT)
                return;
            steps++, t++;
        }
        if (t == SIZE_MAX || !within(ch, t, 8))
            return;
        if (c[t] == OP_QUERY_UNFED)
            acc = c[t + 1], steps++, t += 2;
        else if (c[t] == OP_QUERY_NEXT)
            steps++, t++;
        if (!within(ch, t, 8))
            return;
        if (c[t] == OP_QUERY_ELSE_K) {
            /* QUERY_ELSE a j; CONST k; QUERY_RULE h o: the default answered, the copy left */
            if (c[t + 1] != acc || c[t + 3] != OP_CONST || c[t + 5] != OP_QUERY_RULE ||
                !(c[t + 6] & QR_EXIT) || jump_target(ch, t + 5, 2) != out || c[t + 4] >= ch->nk)
                return;
            steps += 3;
            const val digest[4] = {
                { .type = T_INT, .u.i = (int64_t)c[pc + 1] },
                { .type = T_INT, .u.bits = mask },
                { .type = T_INT,
                  .u.i = (int64_t)(steps | (uint64_t)ia << 32 | (uint64_t)ib << 40) },
                ch->k[c[t + 4]],
            };
            const int32_t d = chunk_const_run(ch, digest, 4);
            if (d >= 0) {
                ch->code[pc] = OP_QUERY_ENTER_SIDES;
                ch->code[pc + 1] = (uint32_t)d;
            }
            return;
        }
        p = t;
    }
}

void peep_skips(chunk *ch)
{
    for (size_t pc = 0; pc < ch->len; pc += 1 + op_operands[ch->code[pc]])
        if (ch->code[pc] == OP_QUERY_ENTER)
            sides_skip(ch, pc);
}

/* Every field of a step record (walk.h WALK_ALL_FIELDS). */
#define ALL_FIELDS ((1u << STEP_NFIELDS) - 1)

/* The fields of a step record read of local v in ch (peep_walk_fields): ALL_FIELDS when v is
 * read whole, or given to an instruction that does not read one field of it. */
static uint32_t fields_read(const chunk *ch, uint32_t v)
{
    uint32_t m = 0;
    size_t traced_end = 0; /* the end of a forwarded query call's traced path */
    for (size_t pc = 0; pc < ch->len; pc += 1 + op_operands[ch->code[pc]]) {
        const uint32_t op = ch->code[pc], *w = &ch->code[pc + 1];
        if (op == OP_QUERY_FORWARD)
            traced_end = (size_t)((int64_t)(pc + 4) + (int32_t)w[2]);
        for (uint32_t i = 0; i < op_operands[op]; i++) {
            if (op_kinds[op][i] != OPK_LOCAL || w[i] != v)
                continue;
            switch (op) {
            case OP_GET_LOCAL_FIELD:
            case OP_JUMP_IF_FIELD_FALSE:
            case OP_LF_TERRAIN:
            case OP_LF_ELEVATION:
            case OP_LF_SIDE_HAS_K:
            case OP_LF_LF: /* the second field is the GET_LOCAL_FIELD kept after it */
                m |= w[1] < STEP_NFIELDS ? 1u << w[1] : ALL_FIELDS;
                break;
            case OP_WALK_NEXT:
            case OP_WALK_BACK:
                if (i == 2)
                    break; /* the step put there */
                return ALL_FIELDS;
            case OP_GET_LOCAL:
            case OP_L_LF: /* its local pushed whole, as GET_LOCAL's */
                if (pc < traced_end)
                    break; /* the traced path's argument, walk_start's to cover */
                return ALL_FIELDS;
            default: return ALL_FIELDS;
            }
        }
    }
    return m;
}

void peep_walk_fields(chunk *ch)
{
    for (size_t pc = 0; pc < ch->len; pc += 1 + op_operands[ch->code[pc]]) {
        if (ch->code[pc] != OP_WALK_START)
            continue;
        const uint32_t plan = ch->code[pc + 2];
        uint32_t m = 0;
        for (size_t at = 0; at < ch->len && m != ALL_FIELDS; at += 1 + op_operands[ch->code[at]]) {
            const uint32_t op = ch->code[at];
            if ((op == OP_WALK_NEXT || op == OP_WALK_BACK) && ch->code[at + 1] == plan)
                m |= fields_read(ch, ch->code[at + 3]);
        }
        ch->code[pc + 4] = m;
    }
}
