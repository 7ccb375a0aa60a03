/* reuse.c — reads a combined chunk computes again and again, kept after their first run
 * (see reuse.h; vm.md §5b).
 *
 * A query's evaluation cannot change the board: effects, dice and choices only run in a
 * procedure's chunks, which are never combined (combine.c op_combines), and a combined chunk
 * never writes its parameters. So an expression made only of pure instructions over the
 * parameters and constants (a *kept read*: `square_of(target)`, `terrain(square_of(target))`,
 * `shooter.kind`) has the same value wherever the chunk's frame reaches it. This pass finds
 * them in straight-line code (no jump landing inside, no part starting inside), keeps those
 * worth it (reached twice or more by their code, or inside a loop), and brackets each of their
 * occurrences:
 *
 *     KEPT slot steps skip     the value kept: push it, charge `steps`, jump past the KEEP
 *     ...the expression...     (else, and always when tracing or short of steps: run on)
 *     KEEP slot                keep the value just computed in local `slot`
 *
 * The slot is cleared when the frame starts (vm_zero_from), so the first reach runs the
 * expression where it did: its errors and the steps it takes are the chunk's as before; a
 * later reach charges the same steps, or, when the steps left would run out on the way, runs
 * the expression as before so that E207 strikes at the same instruction.
 */
#include "reuse.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* A local's writer (reuse_reads' `writer`): none, for the chunk's parameters and locals never
 * written; more than one instruction (or any but a copy's entry); else the offset of the
 * QUERY_ENTER or INLINE_ENTER that moves a copy's arguments into it. */
#define NO_WRITER    UINT32_MAX
#define MANY_WRITERS (UINT32_MAX - 1)

/* What a pure instruction takes from the stack and the steps it charges (its dispatch's and
 * any it CHARGEs: vm.c); false for an instruction that is not pure or reads what may change
 * while the frame runs (a local other than a parameter or a copy's parameter: writer). `read`:
 * it only pushes a read (a parameter, a constant), no work worth keeping alone; `by`: the
 * entry of the copy whose parameter it reads (NO_WRITER: none). */
static bool pure_op(const chunk *ch, const uint32_t *writer, const uint32_t *w, uint32_t *pops,
                    uint32_t *steps, bool *read, uint32_t *by)
{
    *steps = 1;
    *read = false;
    *by = NO_WRITER;
    switch (w[0]) {
    case OP_GET_LOCAL:
    case OP_GET_LOCAL_FIELD:
        *pops = 0;
        *read = true;
        if (w[1] < ch->nparams)
            return true;
        *by = writer[w[1]];
        return *by != NO_WRITER && *by != MANY_WRITERS;
    case OP_CONST:
    case OP_INT:
    case OP_TRUE:
    case OP_FALSE:
        *pops = 0;
        *read = true;
        return true;
    case OP_SIDES_ANY_K:
        *steps = 5;
        *pops = 1;
        return true; /* the CONST, BOARD, LEN, INT and GT it stands for */
    case OP_SIDE_HAS_K:
        *steps = 2;
        *pops = 1;
        return true; /* the constant's step too */
    case OP_SQUARE_OF:
    case OP_UNIT_KIND:
    case OP_UNIT_SIDE:
    case OP_UNIT_SIZE:
    case OP_UNIT_VALUE:
    case OP_TERRAIN:
    case OP_ELEVATION:
    case OP_IN_ELEMENT:
    case OP_UNITS_AT:
    case OP_GET_FIELD:
    case OP_LEN:
    case OP_NOT:
    case OP_NEG:
    case OP_ABS: *pops = 1; return true;
    case OP_DISTANCE:
    case OP_SIDE_BETWEEN:
    case OP_SIDE_HAS:
    case OP_HAS_ABILITY:
    case OP_HAS_MARKER:
    case OP_ABILITY_VALUE:
    case OP_MARKER_COUNT:
    case OP_IN_SET:
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_MOD:
    case OP_MIN:
    case OP_MAX: *pops = 2; return true;
    case OP_BOARD: *pops = w[2]; return true;
    case OP_TABLE: *pops = w[2]; return true;
    default: return false;
    }
}

/* One occurrence of a pure expression: its code [start, end) of the chunk as it was, the
 * steps its instructions charge, its group (equal code, one slot), whether it is kept. */
typedef struct occ {
    uint32_t start, end, steps, group, slot, by;
    uint32_t next, tail; /* the next of its group; a group's first: its last */
    bool in_loop, free, kept;
} occ;

/* Whether the code of occurrences a and b is the same, word for word. */
static bool same_code(const chunk *ch, const occ *a, const occ *b)
{
    return a->end - a->start == b->end - b->start &&
           memcmp(ch->code + a->start, ch->code + b->start,
                  (a->end - a->start) * sizeof *ch->code) == 0;
}

/* The occurrences of ch's pure expressions of two instructions or more that do some work (not
 * reads alone) into *out (n of them, owned by the caller); false on OOM. bar: where
 * straight-line code is cut (a jump lands, a part starts). */
static bool find_occurrences(const chunk *ch, const uint8_t *bar, const uint32_t *writer, occ **out,
                             size_t *n)
{
    /* the values pushed by pure code since the last cut, each the start of its expression,
     * its steps and whether it did work; what lies below them is unknown. Any other
     * instruction empties it, so each value's code runs up to the next one's start, the top's
     * up to pc: an instruction's operands are one expression with it. */
    typedef struct entry {
        uint32_t start, steps, by;
        bool work;
    } entry;
    entry *st = NULL;
    size_t depth = 0, cap = 0, cap_occ = 0;
    *out = NULL;
    *n = 0;
    for (size_t pc = 0; pc < ch->len; pc += 1 + op_operands[ch->code[pc]]) {
        const uint32_t *w = &ch->code[pc];
        uint32_t pops, steps, by;
        bool read;
        if (bar[pc])
            depth = 0;
        if (!pure_op(ch, writer, w, &pops, &steps, &read, &by) || pops > depth) {
            depth = 0;
            continue;
        }
        entry e = { (uint32_t)pc, steps, by, !read };
        const size_t from = depth - pops;
        bool one_copy = true; /* the parameters of one copy at most: one entry clears it */
        for (size_t i = from; i < depth; i++) {
            e.start = i == from ? st[i].start : e.start;
            e.steps += st[i].steps;
            e.work = e.work || st[i].work;
            one_copy = one_copy && (st[i].by == NO_WRITER || e.by == NO_WRITER || st[i].by == e.by);
            e.by = e.by == NO_WRITER ? st[i].by : e.by;
        }
        depth = from;
        if (!one_copy) {
            depth = 0;
            continue;
        }
        if (pops && e.work) {
            if (!MEM_GROW(*out, *n, cap_occ))
                goto oom;
            (*out)[(*n)++] = (occ){ .start = e.start,
                                    .end = (uint32_t)(pc + 1 + op_operands[w[0]]),
                                    .steps = e.steps,
                                    .by = e.by };
        }
        if (!MEM_GROW(st, depth, cap))
            goto oom;
        st[depth++] = e;
    }
    mem_free(st);
    return true;
oom:
    mem_free(st);
    mem_free(*out);
    *out = NULL;
    return false;
}

/* The hash of occurrence a's code (FNV-1a over its words). */
static uint32_t code_hash(const chunk *ch, const occ *a)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = a->start; i < a->end; i++)
        h = (h ^ ch->code[i]) * 16777619u;
    return h;
}

/* A group's first occurrence and its code's length, to order the groups by. */
typedef struct leader {
    uint32_t len, first;
} leader;

/* Longest first; at equal lengths, the first in the code first. */
static int by_length(const void *a, const void *b)
{
    const leader *x = a, *y = b;
    if (x->len != y->len)
        return x->len > y->len ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Which occurrences to keep: a group (equal code) whose occurrences not inside one kept
 * already are two or more, or (over the chunk's parameters alone) one inside a loop; the
 * longest first, so that an expression is kept whole before its parts are looked at. Each kept
 * group gets a slot (its `slot`, the same for its occurrences): *nslots of them. Expressions
 * nest or lie apart, so one that starts inside a kept one lies inside it (covered: n + 1 bytes
 * of the code, zeroed). False on OOM. */
static bool choose(const chunk *ch, occ *o, size_t n, uint8_t *covered, uint32_t *nslots)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    uint32_t *tab = mem_malloc(cap * sizeof *tab);
    leader *lead = mem_malloc((n ? n : 1) * sizeof *lead);
    if (!tab || !lead) {
        mem_free(tab);
        mem_free(lead);
        return false;
    }
    memset(tab, 0xff, cap * sizeof *tab);
    /* groups: the first occurrence of equal code names it; each linked to the next of its
     * group (`next`, UINT32_MAX: the last), the first keeping the last (`tail`) */
    size_t nlead = 0;
    for (size_t i = 0; i < n; i++) {
        o[i].next = UINT32_MAX;
        for (size_t j = code_hash(ch, &o[i]) & (cap - 1);; j = (j + 1) & (cap - 1)) {
            if (tab[j] == UINT32_MAX) {
                tab[j] = (uint32_t)i;
                o[i].group = o[i].tail = (uint32_t)i;
                lead[nlead++] = (leader){ o[i].end - o[i].start, (uint32_t)i };
                break;
            }
            if (same_code(ch, &o[tab[j]], &o[i])) {
                occ *g = &o[tab[j]];
                o[i].group = tab[j];
                o[g->tail].next = (uint32_t)i;
                g->tail = (uint32_t)i;
                break;
            }
        }
    }
    mem_free(tab);
    qsort(lead, nlead, sizeof *lead, by_length);
    *nslots = 0;
    for (size_t l = 0; l < nlead; l++) {
        const uint32_t g = lead[l].first;
        size_t nfree = 0;
        bool loops = false;
        for (uint32_t i = g; i != UINT32_MAX; i = o[i].next) {
            o[i].free = !covered[o[i].start];
            nfree += o[i].free;
            loops = loops || (o[i].free && o[i].in_loop);
        }
        /* a copy's parameters change at each entry of the copy, which a loop may repeat */
        if (nfree < 2 && !(loops && o[g].by == NO_WRITER))
            continue;
        for (uint32_t i = g; i != UINT32_MAX; i = o[i].next)
            if (o[i].free) {
                o[i].kept = true;
                o[i].slot = *nslots;
                memset(covered + o[i].start, 1, o[i].end - o[i].start);
            }
        ++*nslots;
    }
    mem_free(lead);
    return true;
}

/* Where the span or part that started at offset p of the code as it was starts now: on an
 * instruction, at the KEEP ending there or the UNKEEP after the entry before it, if any
 * (running out of steps at the end of the instruction before names the next one, the pc having
 * moved on to it, and they now stand before it), else before the KEPTs starting there; on an
 * operand, at the same place in its instruction. */
static uint32_t span_at(uint32_t p, const uint8_t *start, const uint8_t *lead,
                        const uint32_t *mapped, const uint32_t *newpc)
{
    if (start[p])
        return mapped[p] - lead[p];
    uint32_t q = p;
    while (q && !start[q])
        q--;
    return newpc[q] + (p - q);
}

/* The slots a copy's entry (at offset `by`) clears: first .. first + count - 1. */
typedef struct copy_clear {
    uint32_t by, first, count;
} copy_clear;

/* Orders slots by the entry that clears them (NO_WRITER, none, last), then by number. */
static int by_copy(const void *a, const void *b)
{
    const copy_clear *x = a, *y = b;
    if (x->by != y->by)
        return x->by < y->by ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Orders kept occurrences by start, the outer (longer) first at a start. */
static int by_start(const void *a, const void *b)
{
    const occ *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->end > y->end ? -1 : x->end < y->end;
}

/* What one scan of a combined chunk finds (n: its length; arrays of n + 1 entries, zeroed, but
 * writer's ch->nlocals, and entries' n): where instructions start (start), where jumps land
 * (tgt), where straight-line code is cut (bar: a jump lands, a part starts), what lies in a
 * loop (loop: between a backward jump's target and the jump), each local's writer (writer:
 * NO_WRITER, MANY_WRITERS or a copy's entry, below) and the copies' entries (nentries). */
typedef struct scan {
    uint8_t *start, *tgt, *bar, *loop;
    uint32_t *writer, *entries;
    size_t nentries;
} scan;

/* Scans ch, filling sc; false when ch is not in the shape this pass relies on: every jump
 * lands on an instruction (or the end), every span and part starts in the code (on an
 * instruction, or on an operand: a fused pair's second half, combine.c), and no instruction
 * names a local from slot0 on (the accumulator is found from nlocals, not named; an inlined
 * copy's first local may be past its last when it has none).
 * A copy's parameter is written by its QUERY_ENTER or INLINE_ENTER alone (no chunk writes its
 * parameters, and a copy's locals are its own: combine.c), so what is computed from it stays
 * the same until that entry runs again, which then clears the kept values (UNKEEP after it). A
 * local any other instruction names but to read it, or written by a copy's entry that a jump
 * passes by into the copy (QUERY_FORWARD's), has many writers. */
static bool scan_chunk(const chunk *ch, uint32_t slot0, scan *sc)
{
    const size_t n = ch->len;
    for (uint32_t i = 0; i < ch->nlocals; i++)
        sc->writer[i] = NO_WRITER;
    size_t pc = 0;
    for (; pc < n; pc += 1 + op_operands[ch->code[pc]]) {
        const uint32_t op = ch->code[pc];
        if (op >= OP__COUNT)
            return false;
        const uint32_t nops = op_operands[op], *w = &ch->code[pc + 1];
        sc->start[pc] = 1;
        if (op == OP_INLINE_ENTER || op == OP_QUERY_ENTER) {
            if (w[1] && (uint64_t)w[2] + w[1] > slot0) /* its b locals from c */
                return false;
            sc->entries[sc->nentries++] = (uint32_t)pc;
        } else if (op != OP_GET_LOCAL && op != OP_GET_LOCAL_FIELD && op != OP_JUMP_IF_FIELD_FALSE) {
            /* written, or not read alone; a copied `min` or `max` query's kept answer and
             * whether a rule fed it, the next local */
            const uint32_t pair = op == OP_QUERY_ACC || op == OP_QUERY_UNFED || op == OP_QUERY_ELSE;
            for (uint32_t i = 0; i < nops; i++)
                if (op_kinds[op][i] == OPK_LOCAL) {
                    if (w[i] + pair >= slot0)
                        return false;
                    sc->writer[w[i]] = sc->writer[w[i] + pair] = MANY_WRITERS;
                }
        } else if (w[0] >= slot0) {
            return false;
        }
        if (nops && (op_kinds[op][nops - 1] == OPK_JUMP || op_kinds[op][nops - 1] == OPK_EXIT)) {
            int64_t target = (int64_t)(pc + 1 + nops) + (int32_t)w[nops - 1];
            if (target < 0 || target > (int64_t)n)
                return false;
            sc->tgt[target] = 1;
            if (target <= (int64_t)pc)
                memset(sc->loop + target, 1, pc + 1 - (size_t)target);
        }
    }
    if (pc != n)
        return false;
    sc->start[n] = 1;
    for (size_t p = 0; p <= n; p++)
        if (sc->tgt[p] && !sc->start[p])
            return false;
    for (size_t i = 0; i < ch->nlines; i++)
        if (ch->lines[i].pc > n)
            return false;
    memcpy(sc->bar, sc->tgt, n + 1);
    for (size_t i = 0; i < ch->nparts; i++) {
        if (ch->parts[i].pc > n)
            return false;
        sc->bar[ch->parts[i].pc] = 1;
    }
    for (size_t e = 0; e < sc->nentries; e++) {
        const uint32_t at = sc->entries[e], *w = &ch->code[at + 1];
        const bool passed = sc->tgt[at + 1 + op_operands[ch->code[at]]];
        for (uint32_t l = w[2]; l < w[2] + w[1]; l++)
            sc->writer[l] = sc->writer[l] == NO_WRITER && !passed ? at : MANY_WRITERS;
    }
    return true;
}

bool reuse_reads(chunk *ch)
{
    if (ch->kind != CHUNK_QUERY || ch->nlocals < ch->nparams + 2 || ch->len == 0 ||
        ch->len > UINT32_MAX / 4 || ch->nkept)
        return true;
    const size_t n = ch->len;
    const uint32_t slot0 = ch->nlocals - 2; /* the kept values' locals, then the accumulator */
    /* bytes: start, tgt, bar, loop; words: mapped, newpc, writer (nlocals), entries and then
     * the slot kept at each end (n + 1) */
    uint8_t *bytes = mem_calloc(4 * (n + 1), 1);
    uint32_t *mapped = mem_calloc(3 * (n + 1) + ch->nlocals, sizeof *mapped);
    occ *o = NULL;
    size_t no = 0, nclr = 0;
    copy_clear *clr = NULL;
    uint32_t *renum = NULL, *code = NULL;
    if (!bytes || !mapped)
        goto oom;
    scan sc = { .start = bytes,
                .tgt = bytes + (n + 1),
                .bar = bytes + 2 * (n + 1),
                .loop = bytes + 3 * (n + 1),
                .writer = mapped + 2 * (n + 1),
                .entries = mapped + 2 * (n + 1) + ch->nlocals };
    uint8_t *const start = sc.start, *const bar = sc.bar;
    if (!scan_chunk(ch, slot0, &sc))
        goto done;
    if (!find_occurrences(ch, bar, sc.writer, &o, &no))
        goto oom;
    if (no == 0)
        goto done;
    for (size_t i = 0; i < no; i++)
        o[i].in_loop = sc.loop[o[i].start];
    uint32_t ngroups = 0;
    memset(bar, 0, n + 1); /* the cuts are no longer needed: what kept code covers */
    if (!choose(ch, o, no, bar, &ngroups))
        goto oom;
    size_t nk = 0;
    for (size_t i = 0; i < no; i++)
        if (o[i].kept)
            o[nk++] = o[i];
    if (nk == 0)
        goto done;
    /* the slots of one copy's parameters next to each other, in the order of the copies:
     * its entry clears them at once (UNKEEP); the others' (the chunk's parameters) first */
    clr = mem_calloc(ngroups, sizeof *clr);
    renum = mem_calloc(ngroups, sizeof *renum); /* an old slot's new number */
    if (!clr || !renum)
        goto oom;
    for (size_t i = 0; i < nk; i++)
        clr[o[i].slot] = (copy_clear){ o[i].by, o[i].slot, 1 }; /* (by, old slot) for now */
    qsort(clr, ngroups, sizeof *clr, by_copy);
    for (uint32_t i = 0; i < ngroups; i++)
        renum[clr[i].first] = i;
    for (size_t i = 0; i < nk; i++)
        o[i].slot = renum[o[i].slot];
    /* one UNKEEP a copy: its slots first .. first + count - 1 */
    for (uint32_t i = 0; i < ngroups; i++) {
        if (clr[i].by == NO_WRITER)
            continue;
        if (nclr && clr[nclr - 1].by == clr[i].by)
            clr[nclr - 1].count++;
        else
            clr[nclr++] = (copy_clear){ clr[i].by, i, 1 };
    }
    qsort(o, nk, sizeof *o, by_start);
    /* what stands before offset pc's instruction: the KEEP of an expression ending there (2
     * words), or the UNKEEP of the copy's entry just before (3): lead[pc] words. Where each
     * offset goes: mapped[pc] after them, before the KEPTs starting there (where a jump to pc
     * lands); newpc[pc] the instruction's own place */
    uint32_t *newpc = mapped + n + 1;
    uint8_t *lead = bar; /* reused: the cuts are no longer needed */
    memset(lead, 0, n + 1);
    uint32_t *keep_slot = sc.entries; /* reused: the slot kept at each end */
    for (size_t i = 0; i < nk; i++) {
        lead[o[i].end] = 2;
        keep_slot[o[i].end] = o[i].slot;
    }
    for (size_t i = 0; i < nclr; i++)
        lead[clr[i].by + 1 + op_operands[ch->code[clr[i].by]]] = 3;
    size_t words = 0, k = 0;
    for (size_t pc = 0; pc <= n; pc += pc < n ? 1 + op_operands[ch->code[pc]] : 1) {
        words += lead[pc];
        mapped[pc] = (uint32_t)words;
        for (; k < nk && o[k].start == pc; k++)
            words += 4;
        newpc[pc] = (uint32_t)words;
        words += pc < n ? 1 + op_operands[ch->code[pc]] : 0;
    }
    code = mem_calloc(words ? words : 1, sizeof *code);
    if (!code)
        goto oom;
    size_t at = 0, cl = 0;
    k = 0;
    for (size_t pc = 0; pc <= n; pc += pc < n ? 1 + op_operands[ch->code[pc]] : 1) {
        if (lead[pc] == 2) {
            code[at++] = OP_KEEP;
            code[at++] = slot0 + keep_slot[pc];
        }
        if (lead[pc] == 3) { /* clr is in the order of the entries' offsets */
            code[at++] = OP_UNKEEP;
            code[at++] = slot0 + clr[cl].first;
            code[at++] = clr[cl++].count;
        }
        for (; k < nk && o[k].start == pc; k++) {
            code[at] = OP_KEPT;
            code[at + 1] = slot0 + o[k].slot;
            code[at + 2] = o[k].steps;
            code[at + 3] = (uint32_t)(int32_t)((int64_t)mapped[o[k].end] - (int64_t)(at + 4));
            at += 4;
        }
        if (pc == n)
            break;
        const uint32_t op = ch->code[pc], nops = op_operands[op];
        memcpy(&code[at], &ch->code[pc], (1 + nops) * sizeof *code);
        if (nops && (op_kinds[op][nops - 1] == OPK_JUMP || op_kinds[op][nops - 1] == OPK_EXIT)) {
            int64_t target = (int64_t)(pc + 1 + nops) + (int32_t)ch->code[pc + nops];
            code[at + nops] =
                (uint32_t)(int32_t)((int64_t)mapped[target] - (int64_t)(at + 1 + nops));
        }
        at += 1 + nops;
    }
    for (size_t i = 0; i < ch->nlines; i++)
        ch->lines[i].pc = span_at(ch->lines[i].pc, start, lead, mapped, newpc);
    for (size_t i = 0; i < ch->nparts; i++)
        ch->parts[i].pc = span_at(ch->parts[i].pc, start, lead, mapped, newpc);
    mem_free(ch->code);
    ch->code = code;
    code = NULL;
    ch->len = ch->cap = words;
    ch->nlocals += ngroups;
    ch->nkept = ngroups;
done:
    mem_free(o);
    mem_free(mapped);
    mem_free(bytes);
    mem_free(clr);
    mem_free(renum);
    return true;
oom:
    mem_free(code);
    mem_free(o);
    mem_free(mapped);
    mem_free(bytes);
    mem_free(clr);
    mem_free(renum);
    return false;
}
