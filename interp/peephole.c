/* peephole.c — pairs of instructions in one, in a finished combined chunk (see peephole.h).
 *
 * The pairs are those the profile of the benchmark's rules shows at every step of a line
 * (bench.md §8, sitting 15): a square read from a local or a local's field, then its terrain,
 * elevation, element or a side feature; a constant pushed, then a set membership or a
 * compare-and-branch against it. */
#include "peephole.h"

#include <stddef.h>

/* `first` followed at once by `second` runs as `pair`'s instruction (vm_ops_pairs.h). */
static const struct {
    uint16_t first, second, pair;
} pairs[] = {
    { OP_GET_LOCAL, OP_TERRAIN, OP_L_TERRAIN },
    { OP_GET_LOCAL_FIELD, OP_TERRAIN, OP_LF_TERRAIN },
    { OP_GET_LOCAL_FIELD, OP_ELEVATION, OP_LF_ELEVATION },
    { OP_GET_LOCAL, OP_IN_ELEMENT, OP_L_IN_ELEMENT },
    { OP_GET_LOCAL_FIELD, OP_SIDE_HAS_K, OP_LF_SIDE_HAS_K },
    { OP_CONST, OP_IN_SET, OP_K_IN_SET },
    { OP_CONST, OP_JUMP_IF_EQ_S, OP_K_JUMP_IF_EQ_S },
    { OP_CONST, OP_JUMP_IF_NE_S, OP_K_JUMP_IF_NE_S },
};

void peep_pairs(chunk *ch)
{
    for (size_t pc = 0; pc < ch->len;) {
        const uint32_t op = ch->code[pc];
        const size_t next = pc + 1 + op_operands[op];
        if (next >= ch->len)
            break;
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
            if (pairs[i].first == op && pairs[i].second == ch->code[next]) {
                ch->code[pc] = pairs[i].pair;
                break;
            }
        pc = next;
    }
}
