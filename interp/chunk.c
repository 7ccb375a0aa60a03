/* chunk.c — chunks (see chunk.h) and the opcode tables generated from opcodes.h: names,
 * operand kinds and counts, stack effects. */
#include "chunk.h"

#include <string.h>

#include "mem.h"

const char *const op_names[OP__COUNT] = {
#define OP(name, ...) #name,
#include "opcodes.h"
};

const uint8_t op_kinds[OP__COUNT][4] = {
#define OP(name, effect, k1, k2, k3, k4, doc) { OPK_##k1, OPK_##k2, OPK_##k3, OPK_##k4 },
#include "opcodes.h"
};

const uint8_t op_operands[OP__COUNT] = {
#define OP(name, effect, k1, k2, k3, k4, doc) \
    (OPK_##k1 != OPK__) + (OPK_##k2 != OPK__) + (OPK_##k3 != OPK__) + (OPK_##k4 != OPK__),
#include "opcodes.h"
};

int chunk_stack_effect(op_code op, uint32_t a, uint32_t b)
{
    (void)a;
    switch (op) {
        /* One case per line of opcodes.h. */
        /* clang-format off */
#define OP(name, effect, ...) case OP_##name: return (effect);
#include "opcodes.h"
    /* clang-format on */
    default: return 0;
    }
}

chunk *chunk_new(const char *name, chunk_kind kind, uint32_t id)
{
    chunk *c = mem_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->name = mem_strdup(name ? name : "");
    if (!c->name) {
        mem_free(c);
        return NULL;
    }
    c->kind = kind;
    c->id = id;
    return c;
}

void chunk_free(chunk *c)
{
    if (!c)
        return;
    mem_free(c->name);
    mem_free(c->code);
    mem_free(c->k);
    mem_free(c->lines);
    for (size_t i = 0; i < c->nstrs; i++)
        mem_free(c->strs[i]);
    mem_free(c->strs);
    mem_free(c->conj);
    mem_free(c->parts);
    mem_free(c->calls);
    mem_free(c->arg_locs);
    mem_free(c);
}

/* The first room of a chunk's code and of its line table: most chunks of the bundled rules
 * pass 16 words, and growing from MEM_GROW's 4 cost start-up some 2 M instructions of
 * realloc (bench.md §9). */
#define CHUNK_FIRST_WORDS 32
#define CHUNK_FIRST_LINES 8

bool chunk_reserve(chunk *c, size_t words, size_t spans, size_t consts, size_t strs, size_t conj)
{
    return mem_grow_((void **)&c->code, &c->cap, words, sizeof *c->code) &&
           mem_grow_((void **)&c->lines, &c->lines_cap, spans, sizeof *c->lines) &&
           mem_grow_((void **)&c->k, &c->kcap, consts, sizeof *c->k) &&
           mem_grow_((void **)&c->strs, &c->strs_cap, strs, sizeof *c->strs) &&
           mem_grow_((void **)&c->conj, &c->conj_cap, conj, sizeof *c->conj);
}

bool chunk_emit(chunk *c, uint32_t word)
{
    if (!c->cap && !mem_grow_((void **)&c->code, &c->cap, CHUNK_FIRST_WORDS, sizeof *c->code))
        return false;
    if (c->len >= UINT32_MAX / 2 || !MEM_GROW(c->code, c->len, c->cap))
        return false;
    c->code[c->len++] = word;
    return true;
}

bool chunk_mark(chunk *c, ast_loc loc)
{
    if (c->nlines) {
        chunk_line *last = &c->lines[c->nlines - 1];
        if (memcmp(&last->loc, &loc, sizeof loc) == 0)
            return true;
        if (last->pc == c->len) { /* nothing emitted under the previous span */
            last->loc = loc;
            return true;
        }
    }
    if (!c->lines_cap &&
        !mem_grow_((void **)&c->lines, &c->lines_cap, CHUNK_FIRST_LINES, sizeof *c->lines))
        return false;
    if (!MEM_GROW(c->lines, c->nlines, c->lines_cap))
        return false;
    c->lines[c->nlines++] = (chunk_line){ (uint32_t)c->len, loc };
    return true;
}

int32_t chunk_const(chunk *c, val v)
{
    /* Reuse an equal constant among the last few: enough for the repeats that matter, and
     * linear time on huge expressions. */
    for (size_t i = c->nk > 32 ? c->nk - 32 : 0; i < c->nk; i++)
        if (c->k[i].type == v.type && c->k[i].flags == v.flags && c->k[i].u.i == v.u.i)
            return (int32_t)i;
    if (c->nk >= INT32_MAX || !MEM_GROW(c->k, c->nk, c->kcap))
        return -1;
    c->k[c->nk] = v;
    return (int32_t)c->nk++;
}

int32_t chunk_const_run(chunk *c, const val *v, size_t n)
{
    if (c->nk + n >= INT32_MAX)
        return -1;
    const size_t first = c->nk;
    for (size_t i = 0; i < n; i++) {
        if (!MEM_GROW(c->k, c->nk, c->kcap)) {
            c->nk = first;
            return -1;
        }
        c->k[c->nk++] = v[i];
    }
    return (int32_t)first;
}

int32_t chunk_str(chunk *c, const char *s)
{
    for (size_t i = 0; i < c->nstrs; i++)
        if (strcmp(c->strs[i], s) == 0)
            return (int32_t)i;
    if (c->nstrs >= INT32_MAX || !MEM_GROW(c->strs, c->nstrs, c->strs_cap))
        return -1;
    char *copy = mem_strdup(s);
    if (!copy)
        return -1;
    c->strs[c->nstrs] = copy;
    return (int32_t)c->nstrs++;
}

bool chunk_add_conj(chunk *c, chunk_conj conj)
{
    if (c->nconj >= UINT32_MAX || !MEM_GROW(c->conj, c->nconj, c->conj_cap))
        return false;
    c->conj[c->nconj++] = conj;
    return true;
}

const char *chunk_conj_text(const chunk *c, uint32_t s)
{
    return s < c->nstrs ? c->strs[s] : NULL;
}

bool chunk_note_call(chunk *c, const ast_loc *args, uint32_t n)
{
    if (!MEM_GROW(c->calls, c->ncalls, c->calls_cap) ||
        (n && !mem_grow_((void **)&c->arg_locs, &c->arg_locs_cap, c->narg_locs + n,
                         sizeof *c->arg_locs)))
        return false;
    if (n) /* a call with no arguments: arg_locs may still be NULL, and memcpy wants a pointer */
        memcpy(c->arg_locs + c->narg_locs, args, n * sizeof *args);
    c->calls[c->ncalls++] = (chunk_call){ (uint32_t)c->len, (uint32_t)c->narg_locs, n };
    c->narg_locs += n;
    return true;
}

bool chunk_call_arg(const chunk *c, size_t pc, uint32_t k, ast_loc *out)
{
    for (size_t i = 0; i < c->ncalls; i++)
        if (c->calls[i].pc <= pc && c->calls[i].pc < c->len &&
            pc <= c->calls[i].pc + (size_t)op_operands[c->code[c->calls[i].pc]]) {
            if (k >= c->calls[i].nargs)
                return false;
            *out = c->arg_locs[c->calls[i].first + k];
            return true;
        }
    return false;
}

const char *chunk_name_at(const chunk *c, size_t pc)
{
    const char *name = c->name;
    for (size_t i = 0; i < c->nparts && c->parts[i].pc <= pc; i++)
        if (c->parts[i].name < c->nstrs)
            name = c->strs[c->parts[i].name];
    return name;
}

ast_loc chunk_loc(const chunk *c, size_t pc)
{
    ast_loc loc = { 0 };
    /* Binary search for the last span starting at or before pc. */
    size_t lo = 0, hi = c->nlines;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->lines[mid].pc <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0)
        loc = c->lines[lo - 1].loc;
    return loc;
}

/* Whether op ends its chunk's run here (nothing after it runs in this frame). */
static bool op_ends(uint32_t op)
{
    return op == OP_RETURN || op == OP_NO_ANSWER || op == OP_DONE || op == OP_FAIL ||
           op == OP_EMPTY_AGG || op == OP_RULE_ACC_LAST || op == OP_RULE_END || op == OP_JUMP;
}

bool chunk_slot_live(const chunk *c, size_t pc, uint32_t slot)
{
    size_t n = c->len;
    for (size_t i = 0; i < n; i += 1u + op_operands[c->code[i] < OP__COUNT ? c->code[i] : 0])
        if (c->code[i] >= OP__COUNT || c->code[i] == OP_RULE_ACC ||
            c->code[i] == OP_RULE_ACC_LAST || c->code[i] == OP_RULE_END ||
            c->code[i] == OP_RULE_ELSE)
            return true;
    /* a search forward over the instructions, each visited once */
    unsigned char *seen = mem_calloc(n ? n : 1, 1);
    const size_t room = 2 * n + 2; /* each instruction, visited once, adds two at most */
    size_t *todo = mem_malloc(room * sizeof *todo);
    if (!seen || !todo) {
        mem_free(seen);
        mem_free(todo);
        return true;
    }
    size_t ntodo = 0;
    bool live = false;
    if (pc < n)
        todo[ntodo++] = pc;
    while (ntodo && !live) {
        size_t i = todo[--ntodo];
        if (i >= n || seen[i])
            continue;
        seen[i] = 1;
        uint32_t op = c->code[i];
        size_t k = op_operands[op], end = i + 1 + k;
        bool kills = false;
        for (size_t j = 0; j < k && end <= n; j++) {
            uint8_t kind = op_kinds[op][j];
            if (kind == OPK_LOCAL && c->code[i + 1 + j] == slot) {
                if (op == OP_SET_LOCAL)
                    kills = true;
                else
                    live = true;
            }
            if (kind == OPK_JUMP || kind == OPK_EXIT) {
                int64_t to = (int64_t)end + (int32_t)c->code[i + 1 + j];
                if (to >= 0 && (size_t)to < n)
                    todo[ntodo++] = (size_t)to;
            }
        }
        if (!kills && !op_ends(op) && end < n)
            todo[ntodo++] = end;
        if (ntodo + 2 > room) /* cannot happen (see room); a read, to be safe */
            live = true;
    }
    mem_free(seen);
    mem_free(todo);
    return live;
}
