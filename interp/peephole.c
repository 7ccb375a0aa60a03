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
 * (QUERY_ELSE_K). Sitting 18: a copy skipped at a side or square where its rules' tests all
 * fail (peep_skips, before the pairs: QUERY_ENTER_SIDES, QUERY_ENTER_SQUARE), and an inlined fn
 * where no unit stands on its square (INLINE_ENTER_EMPTY).
 * And the fields of a step that each walk over `bresenham` reads (peep_walk_fields,
 * walk.h). */
#include "peephole.h"

#include <stddef.h>
#include <stdint.h>

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
               : second == OP_DISTANCE        ? OP_L_DISTANCE
               : second == OP_GT              ? OP_L_GT
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
        case OP_AGG_MIN:
        case OP_AGG_MAX: {
            /* an aggregate's step whose jump past its code lands on the loop's FOR_BACK */
            const int64_t to = (int64_t)next + (int32_t)ch->code[pc + 4];
            if (to >= 0 && to + 4 < (int64_t)ch->len && ch->code[to] == OP_FOR_BACK)
                ch->code[pc] = op == OP_AGG_MIN ? OP_AGG_MIN_BACK : OP_AGG_MAX_BACK;
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

/* ---- copies skipped at a bare side or square (peep_skips) ---- */

/* What the walk of a copy knows of a value: one of the copy's parameters, a constant, a known
 * bool, the side between two parameters, the terrain of one, a tabled query's answer for it,
 * or nothing (a value no branch of the walk may test). */
typedef enum {
    AV_UNKNOWN,
    AV_PARAM,
    AV_CONST,
    AV_INT,
    AV_BOOL,
    AV_SIDE,
    AV_TERRAIN,
    AV_TRAITS,
    AV_EMPTY
} av_kind;
typedef struct aval {
    av_kind kind;
    uint32_t i; /* AV_PARAM: the parameter; AV_CONST: the constant; AV_INT: the int32 (its
                 * bits); AV_BOOL: the bool */
} aval;

enum {
    KEY_NONE,
    KEY_SIDE,
    KEY_SQUARE,
    KEY_UNITS
};

/* The way through a copy a walk found. */
typedef struct skip_way {
    uint64_t steps;      /* the instructions' steps from the entry to the exit, both excluded */
    uint64_t mask;       /* the features (or traits) found absent */
    uint32_t ntab, tq;   /* tabled query tq's answer read ntab times (tq UINT32_MAX: none) */
    uint32_t dmax, dtab; /* the deepest call depth reached, above the entry's, and at a read */
    int key;             /* KEY_SIDE: the side between parameters ka and kb; KEY_SQUARE: ka;
                          * KEY_UNITS: no unit on ka's square */
    uint32_t ka, kb;
    val answer;  /* the default answered (an inlined fn's value) */
    size_t exit; /* an inlined fn's: the pc past its INLINE_LEAVE */
} skip_way;

/* Walks the code of the copy that the QUERY_ENTER (or the inlined fn that the INLINE_ENTER) at
 * pc enters (plain code: before peep_pairs) from its first instruction, as it runs when every
 * test of a side feature of the side between two of its parameters, or of a tabled query's
 * answer for the terrain of one parameter, finds the member absent, that parameter's square is
 * in an element or not (in_element), and no unit stands on the square of the parameter whose
 * units_at it asks (its loop over them done at once): each instruction's steps counted (KEPT,
 * KEEP and UNKEEP none: a kept value charges its code's steps, walked here), each branch taken
 * as its known bool says, until a copied default that is a constant answers and leaves the copy
 * where the entry's jump lands (the fn's INLINE_LEAVE, its value a constant). false when the
 * way goes through anything else (a rule that fires, a value the walk does not know tested,
 * any other instruction, a loop that runs). */
static bool skip_walk(const chunk *ch, size_t pc, bool in_element, skip_way *w)
{
    const uint32_t *c = ch->code;
    const bool fn = c[pc] == OP_INLINE_ENTER; /* else a QUERY_ENTER */
    const uint32_t argc = c[pc + 2], to = c[pc + 3];
    const size_t out = fn ? SIZE_MAX : (size_t)((int64_t)(pc + 5) + (int32_t)c[pc + 4]);
    aval st[16], loc[1024]; /* the stack; the locals the way sets (SET_LOCAL) */
    size_t n = 0, p = pc + (fn ? 4 : 5);
    uint32_t depth = 1, acc = UINT32_MAX;
    *w = (skip_way){ .tq = UINT32_MAX, .dmax = 1 };
    for (size_t i = 0; i < sizeof loc / sizeof *loc; i++)
        loc[i] = (aval){ AV_UNKNOWN, 0 };
#define AV_POP(v)         \
    do {                  \
        if (!n)           \
            return false; \
        (v) = st[--n];    \
    } while (0)
#define AV_PUSH(k, x)                    \
    do {                                 \
        if (n == sizeof st / sizeof *st) \
            return false;                \
        st[n++] = (aval){ (k), (x) };    \
    } while (0)
    for (int budget = 0; budget < 2000; budget++) {
        if (p >= ch->len || c[p] >= OP__COUNT || 1 + (size_t)op_operands[c[p]] > ch->len - p)
            return false;
        const uint32_t op = c[p], ops = op_operands[op], *o = &c[p + 1];
        const size_t next = p + 1 + ops;
        /* a jump's target (its offset the last operand) */
        const int64_t jt = ops ? (int64_t)next + (int32_t)o[ops - 1] : -1;
        aval a, b;
        bool jump = false;
        switch (op) {
        case OP_UNKEEP:
        case OP_KEPT:
        case OP_KEEP: w->steps--; break; /* no step: one given back below */
        case OP_GET_LOCAL:
            if (o[0] >= to && o[0] - to < argc)
                AV_PUSH(AV_PARAM, o[0] - to);
            else if (o[0] < sizeof loc / sizeof *loc)
                AV_PUSH(loc[o[0]].kind, loc[o[0]].i);
            else
                AV_PUSH(AV_UNKNOWN, 0);
            break;
        case OP_SET_LOCAL:
            AV_POP(a);
            if (o[0] >= sizeof loc / sizeof *loc || (o[0] >= to && o[0] - to < argc))
                return false;
            loc[o[0]] = a;
            break;
        case OP_TRUE:
        case OP_FALSE: AV_PUSH(AV_BOOL, op == OP_TRUE); break;
        case OP_UNITS_AT: /* the units on a parameter's square: none, on this way */
            AV_POP(a);
            if (a.kind != AV_PARAM || (w->key != KEY_NONE && (w->key != KEY_UNITS || w->ka != a.i)))
                return false;
            w->key = KEY_UNITS, w->ka = a.i;
            AV_PUSH(AV_EMPTY, 0);
            break;
        case OP_FOR_NEXT: /* a loop over the empty list: done at once */
            if (o[0] >= sizeof loc / sizeof *loc || loc[o[0]].kind != AV_EMPTY)
                return false;
            jump = true;
            break;
        case OP_CONST:
            if (o[0] >= ch->nk)
                return false;
            AV_PUSH(AV_CONST, o[0]);
            break;
        case OP_INT: AV_PUSH(AV_INT, o[0]); break;
        case OP_IN_ELEMENT:
        case OP_TERRAIN:
            AV_POP(a);
            if (a.kind != AV_PARAM ||
                (w->key != KEY_NONE && (w->key != KEY_SQUARE || w->ka != a.i)))
                return false;
            w->key = KEY_SQUARE, w->ka = a.i;
            if (op == OP_IN_ELEMENT)
                AV_PUSH(AV_BOOL, in_element);
            else if (in_element)
                AV_PUSH(AV_TERRAIN, 0);
            else
                return false;
            break;
        case OP_CALL_QUERY:
            AV_POP(a);
            if (o[1] != 1 || a.kind != AV_TERRAIN || (w->tq != UINT32_MAX && w->tq != o[0]))
                return false;
            w->tq = o[0], w->ntab++;
            w->dtab = depth > w->dtab ? depth : w->dtab;
            AV_PUSH(AV_TRAITS, 0);
            break;
        case OP_IN_SET:
        case OP_SIDE_HAS:
            AV_POP(b);
            AV_POP(a);
            if (op == OP_IN_SET ? a.kind != AV_CONST || b.kind != AV_TRAITS
                                : a.kind != AV_SIDE || b.kind != AV_CONST)
                return false;
            {
                const int64_t m = ch->k[op == OP_IN_SET ? a.i : b.i].u.i;
                if (m < 0 || m >= 64)
                    return false;
                w->mask |= UINT64_C(1) << m;
            }
            AV_PUSH(AV_BOOL, 0);
            break;
        case OP_SIDE_HAS_K:
            AV_POP(a);
            if (a.kind != AV_SIDE || o[0] >= ch->nk || ch->k[o[0]].u.i < 0 || ch->k[o[0]].u.i >= 64)
                return false;
            w->mask |= UINT64_C(1) << ch->k[o[0]].u.i;
            w->steps++; /* the CONST it stands for */
            AV_PUSH(AV_BOOL, 0);
            break;
        case OP_SIDE_BETWEEN:
            AV_POP(b);
            AV_POP(a);
            if (a.kind != AV_PARAM || b.kind != AV_PARAM ||
                (w->key != KEY_NONE && (w->key != KEY_SIDE || w->ka != a.i || w->kb != b.i)))
                return false;
            w->key = KEY_SIDE, w->ka = a.i, w->kb = b.i;
            AV_PUSH(AV_SIDE, 0);
            break;
        case OP_JUMP_IF_FALSE_KEEP:
        case OP_JUMP_IF_TRUE_KEEP:
            if (!n || st[n - 1].kind != AV_BOOL)
                return false;
            jump = st[n - 1].i == (op == OP_JUMP_IF_TRUE_KEEP);
            break;
        case OP_LEAVE_JUMP_IF_FALSE:
            if (!depth--)
                return false;
            w->steps++; /* the INLINE_LEAVE it stands for */
            /* fallthrough */
        case OP_JUMP_IF_FALSE:
        case OP_JUMP_IF_TRUE:
            AV_POP(a);
            if (a.kind != AV_BOOL)
                return false;
            jump = a.i == (op == OP_JUMP_IF_TRUE);
            break;
        case OP_JUMP: jump = true; break;
        case OP_POP: AV_POP(a); break;
        case OP_INLINE_FORWARD:
            w->steps += o[1]; /* the reads it stands for */
            depth++;
            w->dmax = depth > w->dmax ? depth : w->dmax;
            break;
        case OP_INLINE_LEAVE:
            if (!depth--)
                return false;
            if (fn && !depth) { /* the inlined fn's end: its value left on the stack */
                AV_POP(a);
                if ((a.kind != AV_BOOL && a.kind != AV_CONST && a.kind != AV_INT) || n)
                    return false;
                w->steps++;
                w->exit = next;
                w->answer = a.kind == AV_CONST ? ch->k[a.i]
                            : a.kind == AV_INT ? (val){ .type = T_INT, .u.i = (int32_t)a.i }
                                               : (val){ .type = T_BOOL, .u.i = a.i };
                return w->key == KEY_UNITS;
            }
            break;
        case OP_QUERY_UNFED: acc = o[0]; break;
        case OP_QUERY_NEXT: break;
        case OP_QUERY_ELSE: /* no rule fed the copy: on into its default */
            if (acc != o[0])
                return false;
            break;
        case OP_QUERY_RULE:
            if (fn)
                return false;
            AV_POP(a);
            if (!(o[0] & QR_EXIT) || (a.kind != AV_CONST && a.kind != AV_INT) ||
                jt != (int64_t)out || n || depth != 1)
                return false;
            w->steps++;
            w->answer =
                a.kind == AV_CONST ? ch->k[a.i] : (val){ .type = T_INT, .u.i = (int32_t)a.i };
            return w->key != KEY_NONE;
        default: return false;
        }
        w->steps++;
        p = jump ? (size_t)jt : next;
        if (jump && (jt < 0 || jt >= (int64_t)ch->len))
            return false;
    }
    return false;
#undef AV_POP
#undef AV_PUSH
}

/* The QUERY_ENTER at pc made QUERY_ENTER_SIDES or QUERY_ENTER_SQUARE when skip_walk finds the
 * way through its copy at a bare side, or at a square in an element (or not) whose terrain's
 * tabled answer has none of the members tested; its digest kept in new constants of ch
 * (opcodes.h). */
static void skip_copy(chunk *ch, size_t pc)
{
    skip_way in, out;
    const bool b = skip_walk(ch, pc, true, &in);
    if (b && in.key == KEY_UNITS)
        return;
    if (b && in.key == KEY_SIDE) {
        if (in.ntab || in.dmax != 1 || in.steps >= UINT32_MAX)
            return;
        const val digest[4] = {
            { .type = T_INT, .u.i = (int64_t)ch->code[pc + 1] },
            { .type = T_INT, .u.bits = in.mask },
            { .type = T_INT,
              .u.i = (int64_t)(in.steps | (uint64_t)in.ka << 32 | (uint64_t)in.kb << 40) },
            in.answer,
        };
        const int32_t d = ch->code[pc + 2] <= 255 ? chunk_const_run(ch, digest, 4) : -1;
        if (d >= 0)
            ch->code[pc] = OP_QUERY_ENTER_SIDES, ch->code[pc + 1] = (uint32_t)d;
        return;
    }
    const bool a = skip_walk(ch, pc, false, &out);
    const bool ok_in = b && in.key == KEY_SQUARE && in.ntab < 256 && in.dmax < 256 &&
                       in.dtab < 256 && in.steps < INT32_MAX;
    const bool ok_out = a && out.key == KEY_SQUARE && !out.ntab && out.dmax < 256 &&
                        out.steps < INT32_MAX && (!ok_in || out.ka == in.ka);
    if (!ok_in && !ok_out)
        return;
    const uint32_t ka = ok_in ? in.ka : out.ka;
    if (ka > 255)
        return;
    const uint64_t pack =
        ka | (uint64_t)(ok_in ? in.ntab : 0) << 8 | (uint64_t)(ok_in ? in.dmax : 0) << 16 |
        (uint64_t)(ok_in ? in.dtab : 0) << 24 | (uint64_t)(ok_out ? out.dmax : 0) << 32 |
        (uint64_t)ok_out << 40 | (uint64_t)ok_in << 41;
    const val digest[8] = {
        { .type = T_INT, .u.i = (int64_t)ch->code[pc + 1] },
        { .type = T_INT, .u.bits = ok_in ? in.mask : 0 },
        { .type = T_INT, .u.i = (int64_t)pack },
        { .type = T_INT, .u.i = ok_in && in.ntab ? (int64_t)in.tq : 0 },
        { .type = T_INT, .u.i = ok_in ? (int64_t)in.steps : 0 },
        ok_in ? in.answer : (val){ .type = T_INT },
        { .type = T_INT, .u.i = ok_out ? (int64_t)out.steps : 0 },
        ok_out ? out.answer : (val){ .type = T_INT },
    };
    const int32_t d = chunk_const_run(ch, digest, 8);
    if (d >= 0)
        ch->code[pc] = OP_QUERY_ENTER_SQUARE, ch->code[pc + 1] = (uint32_t)d;
}

/* The INLINE_ENTER at pc made INLINE_ENTER_EMPTY when skip_walk finds the way through its
 * fn's code at a square of one of its arguments where no unit stands (square_screened's
 * `any(u in units_at(sq): ...)`): its digest, four new constants of ch (opcodes.h). */
static void skip_fn(chunk *ch, size_t pc)
{
    skip_way w;
    if (!skip_walk(ch, pc, false, &w) || w.ka > 255 || w.dmax > 255 || w.steps >= INT32_MAX ||
        w.exit <= pc + 4 || w.exit - (pc + 4) >= INT32_MAX || w.ntab)
        return;
    const val digest[4] = {
        { .type = T_INT, .u.i = (int64_t)ch->code[pc + 1] },
        { .type = T_INT,
          .u.i = (int64_t)(w.ka | (uint64_t)w.dmax << 8 | (uint64_t)(w.exit - (pc + 4)) << 32) },
        { .type = T_INT, .u.i = (int64_t)w.steps },
        w.answer,
    };
    const int32_t d = chunk_const_run(ch, digest, 4);
    if (d >= 0)
        ch->code[pc] = OP_INLINE_ENTER_EMPTY, ch->code[pc + 1] = (uint32_t)d;
}

void peep_skips(chunk *ch)
{
    size_t traced_end = 0; /* a forwarded copy's QUERY_ENTER runs only traced: left alone */
    for (size_t pc = 0; pc < ch->len; pc += 1 + op_operands[ch->code[pc]]) {
        if (ch->code[pc] == OP_QUERY_FORWARD)
            traced_end = (size_t)((int64_t)(pc + 4) + (int32_t)ch->code[pc + 3]);
        else if (ch->code[pc] == OP_QUERY_ENTER && pc + 5 > traced_end && pc + 5 <= ch->len)
            skip_copy(ch, pc);
        else if (ch->code[pc] == OP_INLINE_ENTER && pc + 4 <= ch->len)
            skip_fn(ch, pc);
    }
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
