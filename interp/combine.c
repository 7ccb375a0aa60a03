/* combine.c — a query's rules copied into one chunk, the combination inline (see combine.h).
 *
 * A rule chunk comes out of the compiler (compile.c rule_chunk) as its lets, its guard (every
 * false operand jumping to one NO_ANSWER), its answer and one RETURN, then that NO_ANSWER: the
 * RETURN is its last or next-to-last word. A query default's is its value then RETURN. Each
 * part is copied word for word (no instruction changes length, so its jumps stay right), its
 * locals past the parameters moved to a range of their own, its constants added to the new
 * chunk's, its spans shifted; then its RETURN and NO_ANSWER are replaced in place. A small fn
 * called with plain reads for arguments is copied reading them where they are (forwarding,
 * below): the reads before its call are taken back, and so is the constant of a `side_has`
 * (SIDE_HAS_K); the jumps are linked again by an old-to-new offset map. A small query called
 * there is copied too, its rules one after the other and its combination inline (query
 * inlining, below). */
#include "combine.h"

#include <string.h>

#include "mem.h"
#include "peephole.h"
#include "reuse.h"

/* Whether op may run inside a combined chunk: not what reports its chunk to the procedure
 * driver (dice lines, effects and the rest), names a board unit by a string of its chunk, or
 * belongs to explained chunks and events. */
static bool op_combines(uint32_t op)
{
    switch (op) {
    case OP_UNIT_NAMED:
    case OP_ROLL:
    case OP_ROLL_N:
    case OP_EFFECT:
    case OP_RAISE:
    case OP_CHOOSE:
    case OP_NOTE:
    case OP_FAIL:
    case OP_REQUIRE:
    case OP_DONE:
    case OP_GUARD_SIDES:
    case OP_GUARD_FAILED:
    case OP_RULE_NEXT:
    case OP_RULE_ACC:
    case OP_RULE_ACC_LAST:
    case OP_RULE_END:
    case OP_RULE_ELSE: return false;
    default: return op < OP__COUNT;
    }
}

/* Checks part ch: its instructions all combine, one RETURN at the end or just before a final
 * NO_ANSWER, which is the only one. *ret: the RETURN's offset; *guarded: a NO_ANSWER follows. */
static bool part_shape(const chunk *ch, uint32_t nparams, size_t *ret, bool *guarded)
{
    if (!ch || ch->nparams != nparams || ch->nlocals < nparams || ch->len == 0)
        return false;
    size_t nret = 0, nno = 0;
    *ret = SIZE_MAX;
    for (size_t pc = 0; pc < ch->len; pc += 1 + op_operands[ch->code[pc]]) {
        uint32_t op = ch->code[pc];
        if (op == OP_RETURN) {
            nret++;
            *ret = pc;
        } else if (op == OP_NO_ANSWER) {
            nno++;
            if (pc != ch->len - 1)
                return false;
        } else if (!op_combines(op)) {
            return false;
        }
    }
    *guarded = nno == 1;
    return nret == 1 && nno <= 1 && *ret == ch->len - 1 - (nno ? 1 : 0);
}

/* Inlining (vm.md §5a): a fn whose code is at most INLINE_MAX_WORDS words is copied at its
 * calls, inside fns so copied down to INLINE_MAX_DEPTH levels, never into itself. */
#define INLINE_MAX_WORDS 160
#define INLINE_MAX_DEPTH COMB_MAX_DEPTH

/* What the copying of one combined chunk needs: the chunk being built, the fns' chunks and
 * the edition whose versions are called, the locals given out so far, the names of the
 * chunks being copied (the outermost first, for the parts), and the stack the inlined code
 * may need above the deepest part's. */
typedef struct emitter {
    chunk *out;
    const res_program *p;
    chunk *const *fns;
    int32_t ed;
    uint32_t next_local;
    uint32_t extra_stack;
    const chunk *chain[INLINE_MAX_DEPTH + 1];
    uint32_t depth;
    /* the part being copied is an inlined fn whose arguments are read where the caller keeps
     * them (forwarding, below): its parameter i as fwd[i], nfwd of them; else NULL */
    const struct fwd_arg *fwd;
    uint32_t nfwd;
    /* a rule's parameter s (below its copy's `keep`) is local s + pbase: 0 for the query's
     * own rules, the first local of a query's copy at its call (query inlining, below) */
    uint32_t pbase;
    /* query inlining: the program's chunks (NULL: no query is copied), the QUERY_RULE flags of the
     * query being copied (QR_TRUE, QR_EXIT), the value QUERY_NONE pushes, and the offsets
     * of the QUERY_RULE jumps to link to the end of its copy (a stack: nested copies) */
    const comb_source *src;
    uint32_t qflags, qnone;
    /* a `min` or `max` query's copy: its accumulator's local (and whether a rule fed it, the
     * next one; UINT32_MAX: not such a copy), QA_MAX, the part being copied and the rules */
    uint32_t qacc, qmax;
    size_t qpart, qnrules;
    uint32_t *qfix;
    size_t nqfix, qfix_cap;
} emitter;

/* Forwarding (vm.md §5a): a small fn inlined at a call whose arguments are each one plain read,
 * a local of the caller (GET_LOCAL), a constant (CONST) or an int (INT), reads them there: the
 * reads are not copied to the stack and from it into the fn's locals, but the fn's own reads of
 * its parameters become the caller's reads (the caller's locals do not change while the fn's
 * code runs: it writes its own locals only, and no chunk writes its parameters). The call is
 * one INLINE_FORWARD, which charges the steps of the reads it replaces. */
#define FWD_MAX_ARGS 8
typedef struct fwd_arg {
    uint32_t op, operand; /* as emitted: GET_LOCAL, CONST or INT and its operand */
} fwd_arg;

/* How part ch's exits are rewritten: a rule's by the query's mode, or an inlined fn's. */
typedef enum exits {
    EXIT_FIRST,     /* combine first: RETURN stays; NO_ANSWER goes on to the next rule */
    EXIT_ACC,       /* RETURN combines (RULE_ACC), NO_ANSWER goes on */
    EXIT_FIRST_END, /* the last rule under `first`: both stay */
    EXIT_ACC_END,   /* the last rule otherwise: RULE_ACC_LAST, RULE_END */
    EXIT_INLINE,    /* an inlined fn: RETURN is INLINE_LEAVE */
    EXIT_ACC_ELSE,  /* the last rule of `min`, `max`, the default after it: RULE_ACC_LAST,
                     * RULE_ELSE (on into the default when no rule fed the accumulator) */
    EXIT_QUERY,     /* a rule of a query copied at its call: QUERY_RULE, QUERY_NEXT */
    EXIT_QUERY_LAST /* its last rule (or default): QUERY_RULE that exits, QUERY_NONE */
} exits;

/* The chunk of the fn a CALL_FN calls under the edition, when it may be inlined there. */
static const chunk *inlinable(const emitter *e, uint32_t fn, uint32_t argc)
{
    if (!e->fns || fn >= e->p->nfns || e->depth >= INLINE_MAX_DEPTH)
        return NULL;
    const chunk *callee = e->fns[res_fn_of(e->p, e->ed, fn)];
    size_t ret;
    bool guarded;
    if (!callee || callee->len > INLINE_MAX_WORDS || callee->nparams != argc ||
        !part_shape(callee, argc, &ret, &guarded) || guarded)
        return NULL;
    for (uint32_t i = 0; i <= e->depth; i++)
        if (e->chain[i] == callee)
            return NULL;
    return callee;
}

/* Starts a part of the name at index `name` of out's strings at the end of the code
 * (chunk_name_at). */
static bool name_part(chunk *out, int32_t name)
{
    if (name < 0 || !MEM_GROW(out->parts, out->nparts, out->parts_cap))
        return false;
    if (out->nparts && out->parts[out->nparts - 1].pc == out->len)
        out->nparts--; /* nothing ran under the part before */
    out->parts[out->nparts++] = (chunk_part){ (uint32_t)out->len, (uint32_t)name };
    return true;
}

/* Makes room in out for `words` more code words and one more span. False on OOM. */
static inline bool room(chunk *out, size_t words)
{
    return (out->len + words <= out->cap ||
            mem_grow_((void **)&out->code, &out->cap, out->len + words, sizeof *out->code)) &&
           (out->nlines < out->lines_cap ||
            mem_grow_((void **)&out->lines, &out->lines_cap, out->nlines + 1, sizeof *out->lines));
}

/* chunk_mark where room() made room for the span. */
static inline void mark(chunk *out, const ast_loc *loc)
{
    if (out->nlines) {
        chunk_line *last = &out->lines[out->nlines - 1];
        if (memcmp(&last->loc, loc, sizeof *loc) == 0)
            return;
        if (last->pc == out->len) { /* nothing emitted under the previous span */
            last->loc = *loc;
            return;
        }
    }
    out->lines[out->nlines++] = (chunk_line){ (uint32_t)out->len, *loc };
}

/* Whether callee's code reads each of its first argc locals (its parameters) only as
 * GET_LOCAL, or as GET_LOCAL_FIELD when args gives it a local: then its reads can be
 * forwarded. */
static bool params_forward(const chunk *callee, uint32_t argc, const fwd_arg *args)
{
    for (size_t pc = 0; pc < callee->len; pc += 1 + op_operands[callee->code[pc]]) {
        uint32_t op = callee->code[pc];
        for (uint32_t i = 0; i < op_operands[op]; i++) {
            uint32_t v = callee->code[pc + 1 + i];
            if (op_kinds[op][i] != OPK_LOCAL || v >= argc)
                continue;
            if (op == OP_GET_LOCAL ||
                (op == OP_GET_LOCAL_FIELD && i == 0 && args[v].op == OP_GET_LOCAL))
                continue;
            return false;
        }
    }
    return true;
}

/* Takes back what out holds from offset l on (the code and its spans): the instructions just
 * copied there are to be replaced. */
static void take_back(chunk *out, uint32_t l)
{
    out->len = l;
    while (out->nlines && out->lines[out->nlines - 1].pc > l)
        out->nlines--;
}

/* Appends offset pc to the last plain copies (n of them, at most FWD_MAX_ARGS kept); their
 * new count. */
static uint32_t push_plain(size_t *plain, uint32_t n, size_t pc)
{
    if (n == FWD_MAX_ARGS) {
        memmove(plain, plain + 1, (FWD_MAX_ARGS - 1) * sizeof *plain);
        n--;
    }
    plain[n] = pc;
    return n + 1;
}

/* Marks in tgt (ch->len + 1 entries, zeroed) every offset of ch a jump lands on. */
static void jump_targets(const chunk *ch, uint8_t *tgt)
{
    for (size_t pc = 0; pc < ch->len; pc += 1 + op_operands[ch->code[pc]]) {
        uint32_t op = ch->code[pc], n = op_operands[op];
        if (!n || (op_kinds[op][n - 1] != OPK_JUMP && op_kinds[op][n - 1] != OPK_EXIT))
            continue;
        int64_t target = (int64_t)(pc + 1 + n) + (int32_t)ch->code[pc + n];
        if (target >= 0 && target <= (int64_t)ch->len)
            tgt[target] = 1;
    }
}

/* Whether an inlined copy of callee ends at its INLINE_LEAVE alone: no jump of its code
 * lands past its RETURN (on the caller's next instruction, which may then be fused). */
static bool ends_at_leave(const chunk *callee)
{
    for (size_t pc = 0; pc < callee->len; pc += 1 + op_operands[callee->code[pc]]) {
        uint32_t op = callee->code[pc], n = op_operands[op];
        if (n && (op_kinds[op][n - 1] == OPK_JUMP || op_kinds[op][n - 1] == OPK_EXIT) &&
            (int64_t)(pc + 1 + n) + (int32_t)callee->code[pc + n] >= (int64_t)callee->len)
            return false;
    }
    return true;
}

static bool emit_chunk(emitter *e, const chunk *ch, uint32_t keep, uint32_t shift, exits how);

/* Query inlining (vm.md §5a): the rules of a query called in a combined chunk are copied at the
 * call, the combination inline, when it combines by `any` or `all`, or by `first`, `min` or
 * `max` with a default to copy after them (or alone, when no rule is active), its copies are at
 * most QUERY_MAX_RULES rules and INLINE_MAX_WORDS words in all, and it can never be tabled (a
 * parameter that is not a bool or an enum: memo.c tables only queries whose arguments all are,
 * and their answers keep their table so). */
#define QUERY_MAX_RULES 8

/* The rules (under the edition) of the query q a CALL_QUERY with argc arguments calls, when
 * they may be copied there; else NULL. */
static const res_ruleset *inlinable_query(const emitter *e, uint32_t q, uint32_t argc)
{
    const res_program *p = e->p;
    if (!e->src || q >= p->nqueries || e->depth >= INLINE_MAX_DEPTH)
        return NULL;
    const res_query *qq = &p->queries[q];
    const bool tail = qq->mode == AST_COMBINE_FIRST || qq->mode == AST_COMBINE_MIN ||
                      qq->mode == AST_COMBINE_MAX; /* its default copied after the rules */
    if (qq->is_event || qq->nparams != argc ||
        (qq->mode != AST_COMBINE_ANY && qq->mode != AST_COMBINE_ALL && !tail))
        return NULL;
    bool finite = true;
    for (uint32_t i = 0; finite && i < argc; i++) {
        res_tkind k = p->types[qq->params[i].type].kind;
        finite = k == RT_BOOL || k == RT_ENUM;
    }
    if (finite || !e->src->ready(e->src->ctx, q))
        return NULL;
    const res_ruleset *rs = model_rules_of(p, e->ed, q);
    const chunk *dflt = e->src->defaults[q];
    if (!rs || (rs->len == 0 && !tail) || rs->len > QUERY_MAX_RULES || (tail && !dflt))
        return NULL;
    size_t words = 0, ret;
    bool guarded;
    for (size_t i = 0; i <= rs->len; i++) {
        const chunk *ch = i < rs->len ? e->src->rules[rs->rules[i]] : dflt;
        if (i == rs->len && !tail)
            break;
        if (!part_shape(ch, argc, &ret, &guarded) || (i == rs->len && guarded))
            return NULL;
        for (uint32_t d = 0; d <= e->depth; d++)
            if (e->chain[d] == ch)
                return NULL; /* never into itself */
        words += ch->len;
    }
    return words <= INLINE_MAX_WORDS ? rs : NULL;
}

/* Whether every part of query q's copy (its rules rs, the default of `first`, `min` and `max`)
 * reads its parameters only as params_forward allows, so that args can be read in their place. */
static bool query_params_forward(const emitter *e, uint32_t q, const res_ruleset *rs,
                                 const fwd_arg *args)
{
    const res_query *qq = &e->p->queries[q];
    for (size_t i = 0; i < rs->len; i++)
        if (!params_forward(e->src->rules[rs->rules[i]], qq->nparams, args))
            return false;
    const chunk *dflt = e->src->defaults[q];
    return !dflt ||
           (qq->mode != AST_COMBINE_FIRST && qq->mode != AST_COMBINE_MIN &&
            qq->mode != AST_COMBINE_MAX) ||
           params_forward(dflt, qq->nparams, args);
}

/* Copies query q's rules rs (and the default of `first`, `min` and `max` after them) at a call
 * of it with argc arguments in e->out: QUERY_ENTER, then each rule, its parameters in the
 * locals QUERY_ENTER fills, its exits QUERY_RULE (linked to the end of the copy) and QUERY_NEXT,
 * the last rule's QUERY_NONE; under `min` and `max` QUERY_ACC, QUERY_UNFED and QUERY_ELSE, the
 * answer kept in two locals of the copy. Every instruction for one of the frame's run
 * (CALL_QUERY, the rules' code, each exit): the same steps. args: the arguments forwarded
 * (the QUERY_FORWARD at out offset fwd_at, whose jump this links past QUERY_ENTER, then
 * reads them in place), or NULL. False on OOM. */
static bool emit_query(emitter *e, uint32_t q, uint32_t argc, const res_ruleset *rs,
                       const fwd_arg *args, uint32_t fwd_at)
{
    chunk *out = e->out;
    const res_query *qq = &e->p->queries[q];
    const bool acc = qq->mode == AST_COMBINE_MIN || qq->mode == AST_COMBINE_MAX;
    const chunk *dflt = acc || qq->mode == AST_COMBINE_FIRST ? e->src->defaults[q] : NULL;
    const size_t nparts = rs->len + (dflt ? 1 : 0);
    const uint32_t at = (uint32_t)out->len, to = args ? 0 : e->next_local;
    uint32_t *w = &out->code[at]; /* room() made room for five words */
    w[0] = OP_QUERY_ENTER, w[1] = q, w[2] = argc, w[3] = to, w[4] = 0;
    out->len += 5;
    if (args) /* QUERY_FORWARD at fwd_at: past the reads and QUERY_ENTER, into the copy */
        out->code[fwd_at + 3] = (uint32_t)(out->len - (fwd_at + 4));
    else
        e->next_local += argc;
    const emitter saved = *e;
    e->fwd = args, e->nfwd = args ? argc : 0, e->pbase = to;
    e->qflags = qq->mode == AST_COMBINE_ANY ? QR_TRUE : qq->mode == AST_COMBINE_ALL ? 0 : QR_EXIT;
    e->qnone = qq->mode == AST_COMBINE_ALL; /* no rule decided: an `all` is true */
    e->qacc = acc ? e->next_local : UINT32_MAX;
    e->qmax = qq->mode == AST_COMBINE_MAX ? QA_MAX : 0;
    e->qnrules = rs->len;
    e->next_local += acc ? 2 : 0;
    const size_t fix0 = e->nqfix;
    uint32_t stack = 0;
    e->depth++;
    bool ok = true;
    for (size_t i = 0; ok && i < nparts; i++) {
        const chunk *ch = i < rs->len ? e->src->rules[rs->rules[i]] : dflt;
        const uint32_t shift = e->next_local;
        e->next_local += ch->nlocals - argc;
        e->qpart = i;
        ok = emit_chunk(e, ch, argc, shift, i + 1 == nparts ? EXIT_QUERY_LAST : EXIT_QUERY);
        stack = ch->max_stack > stack ? ch->max_stack : stack;
    }
    e->depth--;
    w = &out->code[at];
    w[4] = (uint32_t)(out->len - (at + 5)); /* traced and the rest: past the copy */
    for (size_t i = fix0; i < e->nqfix; i++)
        out->code[e->qfix[i]] = (uint32_t)(int32_t)((int64_t)out->len - (e->qfix[i] + 1));
    e->nqfix = fix0;
    e->fwd = saved.fwd, e->nfwd = saved.nfwd, e->pbase = saved.pbase;
    e->qflags = saved.qflags, e->qnone = saved.qnone, e->qacc = saved.qacc, e->qmax = saved.qmax;
    e->qpart = saved.qpart, e->qnrules = saved.qnrules;
    e->extra_stack += stack + argc;
    return ok;
}

/* The old-to-new offsets of a part: on the stack for a small part (every inlined fn). */
#define AT_ON_STACK 128

/* Whether the argc arguments of a call are the last argc plain copies (plain[], nplain of them,
 * offsets into the chunk being copied; at: their offsets in out), in a row that no jump enters
 * past its first (tgt); each one's instruction and operand as emitted into args (argc at most
 * FWD_MAX_ARGS). */
static bool plain_args(const chunk *out, const uint32_t *at, const uint8_t *tgt,
                       const size_t *plain, uint32_t nplain, uint32_t argc, fwd_arg *args)
{
    if (argc == 0 || argc > nplain)
        return false;
    for (uint32_t i = 0; i < argc; i++) {
        size_t from = plain[nplain - argc + i];
        uint32_t o = out->code[at[from]];
        if (!(o == OP_GET_LOCAL || o == OP_CONST || o == OP_INT) || (i > 0 && tgt[from]))
            return false;
        args[i] = (fwd_arg){ o, out->code[at[from] + 1] };
    }
    return true;
}

/* Copies chunk ch to the end of e->out, its local slot s at map(s): s itself below `keep`
 * (a rule's parameters), else s - keep + shift; constants added; every instruction under its
 * span; its exits rewritten as `how` says; its small fn calls inlined; its jumps linked again
 * (the copy's instructions may differ in length). False on OOM. */
static bool emit_chunk(emitter *e, const chunk *ch, uint32_t keep, uint32_t shift, exits how)
{
    chunk *out = e->out;
    uint32_t small[AT_ON_STACK];
    uint8_t small_tgt[AT_ON_STACK];
    uint32_t *at = ch->len < AT_ON_STACK ? small : mem_malloc((ch->len + 1) * sizeof *at);
    uint8_t *tgt = ch->len < AT_ON_STACK ? small_tgt : mem_malloc(ch->len + 1);
    if (!at || !tgt) { /* old offset -> new; the offsets jumps land on */
        if (at != small)
            mem_free(at);
        if (tgt != small_tgt)
            mem_free(tgt);
        return false;
    }
    memset(at, 0, (ch->len + 1) * sizeof *at);
    memset(tgt, 0, ch->len + 1);
    jump_targets(ch, tgt);
    const fwd_arg *fwd = e->fwd; /* this part's own (the nested parts set theirs) */
    const uint32_t nfwd = e->nfwd;
    /* the offsets of the last plain copies in a row (for forwarding), the latest last */
    size_t plain[FWD_MAX_ARGS];
    uint32_t nplain = 0;
    size_t after_call = SIZE_MAX; /* the offset of ch just after an inlined call */
    e->chain[e->depth] = ch;
    const int32_t name = chunk_str(out, ch->name);
    bool ok = name_part(out, name);
    size_t span = 0; /* ch's span at pc: the last one starting at or before it (chunk_loc) */
    static const ast_loc none;
    for (size_t pc = 0; ok && pc < ch->len;) {
        uint32_t op = ch->code[pc];
        const uint32_t *w = &ch->code[pc + 1];
        at[pc] = (uint32_t)out->len;
        while (span < ch->nlines && ch->lines[span].pc <= pc)
            span++;
        /* the longest copy of an instruction: QUERY_ENTER's five words for CALL_QUERY's
         * three */
        if (!(ok = room(out, 4 + op_operands[op])))
            break;
        mark(out, span ? &ch->lines[span - 1].loc : &none);
        const chunk *callee = op == OP_CALL_FN ? inlinable(e, w[0], w[1]) : NULL;
        if (callee) {
            const uint32_t argc = w[1];
            fwd_arg args[FWD_MAX_ARGS];
            /* forwarded when the argc copies just before are plain reads, in a row that no
             * jump enters past its first (nor lands on the call) */
            bool forward = !tgt[pc] && plain_args(out, at, tgt, plain, nplain, argc, args);
            forward = forward && params_forward(callee, argc, args);
            uint32_t base = e->next_local;
            e->next_local += callee->nlocals;
            e->extra_stack += callee->max_stack;
            if (forward) { /* the reads taken back: the call stands at the first one */
                size_t first = plain[nplain - argc];
                uint32_t l = at[first];
                for (uint32_t i = 0; i < argc; i++)
                    at[plain[nplain - argc + i]] = l;
                take_back(out, l);
                at[pc] = l;
                mark(out, span ? &ch->lines[span - 1].loc : &none);
                uint32_t *to = &out->code[out->len];
                to[0] = OP_INLINE_FORWARD, to[1] = w[0], to[2] = argc;
                out->len += 3;
            } else {
                uint32_t *to = &out->code[out->len];
                to[0] = OP_INLINE_ENTER, to[1] = w[0], to[2] = argc, to[3] = base;
                out->len += 4;
            }
            e->depth++;
            e->fwd = forward ? args : NULL;
            e->nfwd = forward ? argc : 0;
            ok = emit_chunk(e, callee, 0, base, EXIT_INLINE);
            e->fwd = fwd;
            e->nfwd = nfwd;
            e->depth--;
            ok = ok && name_part(out, name);
            pc += 1 + op_operands[op];
            nplain = 0;
            after_call = ends_at_leave(callee) ? pc : SIZE_MAX;
            continue;
        }
        const res_ruleset *qrs = op == OP_CALL_QUERY ? inlinable_query(e, w[0], w[1]) : NULL;
        if (qrs) {
            /* forwarded as a fn's arguments are (above): QUERY_FORWARD put before the reads,
             * which stay for the traced run, the copy's reads of its parameters the caller's */
            const uint32_t argc = w[1];
            fwd_arg args[FWD_MAX_ARGS];
            bool forward = !tgt[pc] && plain_args(out, at, tgt, plain, nplain, argc, args);
            forward =
                forward && query_params_forward(e, w[0], qrs, args) && (ok = room(out, 4 + 5));
            uint32_t l = 0;
            if (forward) {
                l = at[plain[nplain - argc]];
                memmove(&out->code[l + 4], &out->code[l], (out->len - l) * sizeof *out->code);
                out->len += 4;
                uint32_t *to = &out->code[l];
                to[0] = OP_QUERY_FORWARD, to[1] = w[0], to[2] = argc, to[3] = 0;
                for (uint32_t i = 1; i < argc; i++)
                    at[plain[nplain - argc + i]] += 4;
                at[pc] += 4;
                for (size_t i = 0; i < out->nlines; i++)
                    out->lines[i].pc += out->lines[i].pc > l ? 4 : 0;
                for (size_t i = 0; i < out->nparts; i++)
                    out->parts[i].pc += out->parts[i].pc > l ? 4 : 0;
            }
            ok = ok && emit_query(e, w[0], argc, qrs, forward ? args : NULL, l) &&
                 name_part(out, name);
            pc += 1 + op_operands[op];
            nplain = 0;
            continue;
        }
        if ((op == OP_RETURN || op == OP_NO_ANSWER) && how >= EXIT_QUERY && e->qacc != UINT32_MAX &&
            e->qpart < e->qnrules) {
            /* a rule of a `min` or `max` query: the first one's answer starts the accumulator
             * (its no-answer exit says none did), the last one's ends the copy or goes on into
             * the default when none fed it (QUERY_ELSE) */
            const bool first = e->qpart == 0, last = e->qpart + 1 == e->qnrules;
            const uint32_t no = last && !first   ? OP_QUERY_ELSE
                                : first && !last ? OP_QUERY_UNFED
                                                 : OP_QUERY_NEXT;
            if (op == OP_NO_ANSWER) {
                out->code[out->len++] = no;
                if (no != OP_QUERY_NEXT)
                    out->code[out->len++] = e->qacc;
            }
            if ((ok = MEM_GROW(e->qfix, e->nqfix, e->qfix_cap)) && no == OP_QUERY_ELSE &&
                op == OP_NO_ANSWER)
                e->qfix[e->nqfix++] = (uint32_t)out->len; /* linked by emit_query */
            if (ok && no == OP_QUERY_ELSE && op == OP_NO_ANSWER)
                out->code[out->len++] = 0;
            if (ok && op == OP_RETURN) {
                const bool guarded = ch->code[ch->len - 1] == OP_NO_ANSWER;
                out->code[out->len++] = OP_QUERY_ACC;
                out->code[out->len++] = e->qmax | (first ? QA_FIRST : 0) | (last ? QA_LAST : 0) |
                                        (guarded ? (1 + op_operands[no]) << QA_SKIP_SHIFT : 0);
                out->code[out->len++] = e->qacc;
                e->qfix[e->nqfix++] = (uint32_t)out->len; /* linked by emit_query */
                out->code[out->len++] = 0;
            }
            pc++;
            nplain = 0;
            continue;
        }
        if ((op == OP_RETURN || op == OP_NO_ANSWER) && how >= EXIT_QUERY) {
            const bool last = how == EXIT_QUERY_LAST;
            if (op == OP_NO_ANSWER) {
                out->code[out->len++] = last ? OP_QUERY_NONE : OP_QUERY_NEXT;
                if (last)
                    out->code[out->len++] = e->qnone;
            } else if ((ok = MEM_GROW(e->qfix, e->nqfix, e->qfix_cap))) {
                const bool guarded = ch->code[ch->len - 1] == OP_NO_ANSWER;
                out->code[out->len++] = OP_QUERY_RULE;
                out->code[out->len++] =
                    e->qflags | (last ? QR_EXIT : 0) | (guarded ? QR_GUARDED : 0);
                e->qfix[e->nqfix++] = (uint32_t)out->len; /* linked by emit_query */
                out->code[out->len++] = 0;
            }
            pc++;
            nplain = 0;
            continue;
        }
        if (op == OP_RETURN || op == OP_NO_ANSWER) {
            static const uint32_t ret[] = { OP_RETURN,        OP_RULE_ACC,     OP_RETURN,
                                            OP_RULE_ACC_LAST, OP_INLINE_LEAVE, OP_RULE_ACC_LAST };
            static const uint32_t no[] = { OP_RULE_NEXT, OP_RULE_NEXT, OP_NO_ANSWER,
                                           OP_RULE_END,  OP_NO_ANSWER, OP_RULE_ELSE };
            out->code[out->len++] = op == OP_RETURN ? ret[how] : no[how];
            pc++;
            nplain = 0;
            continue;
        }
        if (op == OP_BOARD && w[0] == RES_BI_SIDES_WITH && w[1] == 2 && nplain && !tgt[pc] &&
            out->code[at[plain[nplain - 1]]] == OP_CONST && pc + 8 <= ch->len &&
            ch->code[pc + 4] == OP_LEN && ch->code[pc + 5] == OP_INT && ch->code[pc + 6] == 0 &&
            ch->code[pc + 7] == OP_GT && !tgt[pc + 4] && !tgt[pc + 5] && !tgt[pc + 7]) {
            /* `CONST f; BOARD sides_with 2; LEN; INT 0; GT` (`len(sides_with(sq, f)) > 0`, a
             * feature the rule names): one SIDES_ANY_K f, which tests the square's four sides'
             * bits and makes no list (next_to_contour, asked at both ends of every shot) */
            uint32_t l = at[plain[nplain - 1]], k = out->code[l + 1];
            take_back(out, l);
            at[pc] = at[pc + 4] = at[pc + 5] = at[pc + 7] = l;
            mark(out, span ? &ch->lines[span - 1].loc : &none);
            out->code[out->len++] = OP_SIDES_ANY_K;
            out->code[out->len++] = k;
            nplain = 0;
            pc += 8;
            continue;
        }
        if (op == OP_SIDE_HAS && nplain && !tgt[pc] &&
            out->code[at[plain[nplain - 1]]] == OP_CONST) {
            /* `CONST f; SIDE_HAS` (a feature the rule names): one SIDE_HAS_K, f its operand */
            uint32_t l = at[plain[nplain - 1]], k = out->code[l + 1];
            take_back(out, l);
            at[pc] = l;
            mark(out, span ? &ch->lines[span - 1].loc : &none);
            out->code[out->len++] = OP_SIDE_HAS_K;
            out->code[out->len++] = k;
            nplain = 0;
            pc++;
            continue;
        }
        if (op == OP_JUMP_IF_FALSE && !tgt[pc] && pc == after_call && out->len &&
            out->code[out->len - 1] == OP_INLINE_LEAVE) {
            /* an inlined fn's value tested at once: `INLINE_LEAVE; JUMP_IF_FALSE` in one,
             * its opcode in the fn's part, its jump in this one (the leave's own step first,
             * then the test's: E207 names the part either's step ran out in) */
            out->code[out->len - 1] = OP_LEAVE_JUMP_IF_FALSE;
            at[pc] = (uint32_t)out->len - 1; /* the jump word at[pc] + 1, linked below */
            out->code[out->len++] = 0;
            nplain = 0;
            pc += 2;
            continue;
        }
        if (op == OP_JUMP_IF_FALSE && !tgt[pc] && nplain &&
            out->code[at[plain[nplain - 1]]] == OP_GET_LOCAL_FIELD &&
            at[plain[nplain - 1]] + 3 == out->len) {
            /* a record's field tested at once: `GET_LOCAL_FIELD a b; JUMP_IF_FALSE` in one,
             * under the read's span (its E201) */
            uint32_t g = at[plain[nplain - 1]];
            while (out->nlines && out->lines[out->nlines - 1].pc > g)
                out->nlines--; /* the test's span: the fused instruction is the read's */
            out->code[g] = OP_JUMP_IF_FIELD_FALSE;
            out->code[out->len++] = 0; /* the jump word g + 3 = at[pc] + 1, linked below */
            at[pc] = g + 2;
            nplain = 0;
            pc += 2;
            continue;
        }
        if (fwd && (op == OP_GET_LOCAL || op == OP_GET_LOCAL_FIELD) && w[0] < nfwd) {
            /* a parameter of this inlined fn, read where its caller keeps it */
            uint32_t *to = &out->code[out->len];
            to[0] = op == OP_GET_LOCAL ? fwd[w[0]].op : OP_GET_LOCAL_FIELD;
            to[1] = fwd[w[0]].operand;
            if (op == OP_GET_LOCAL_FIELD)
                to[2] = w[1];
            out->len += 1 + op_operands[op];
            nplain = push_plain(plain, nplain, pc);
            pc += 1 + op_operands[op];
            continue;
        }
        uint32_t *to = &out->code[out->len];
        *to++ = op;
        for (uint32_t i = 0; ok && i < op_operands[op]; i++) {
            uint32_t v = w[i];
            if (op_kinds[op][i] == OPK_LOCAL) {
                v = v < keep ? v + e->pbase : v - keep + shift;
            } else if (op_kinds[op][i] == OPK_CONST) {
                int32_t k = v < ch->nk ? chunk_const(out, ch->k[v]) : -1;
                ok = k >= 0;
                v = (uint32_t)k;
            }
            *to++ = v;
        }
        out->len += 1 + op_operands[op];
        nplain = push_plain(plain, nplain, pc);
        pc += 1 + op_operands[op];
    }
    at[ch->len] = (uint32_t)out->len;
    /* the jumps, relative to the end of their instruction: to the same instruction as before */
    for (size_t pc = 0; ok && pc < ch->len; pc += 1 + op_operands[ch->code[pc]]) {
        uint32_t op = ch->code[pc], n = op_operands[op];
        if (!n || (op_kinds[op][n - 1] != OPK_JUMP && op_kinds[op][n - 1] != OPK_EXIT))
            continue;
        int64_t target = (int64_t)(pc + 1 + n) + (int32_t)ch->code[pc + n];
        if (target < 0 || target > (int64_t)ch->len) {
            ok = false;
            break;
        }
        out->code[at[pc] + n] = (uint32_t)(int32_t)((int64_t)at[target] - (at[pc] + 1 + n));
    }
    if (at != small)
        mem_free(at);
    if (tgt != small_tgt)
        mem_free(tgt);
    return ok;
}

/* Part i of a combined chunk: a `sum` query's default first (with_default), else the rules in
 * order, then the default of a `first`, `min` or `max` query (tail). */
static const chunk *part_of(chunk *const *rules, const chunk *dflt, const res_ruleset *rs,
                            bool with_default, bool tail, size_t i)
{
    if (with_default)
        return i == 0 ? dflt : rules[rs->rules[i - 1]];
    return tail && i == rs->len ? dflt : rules[rs->rules[i]];
}

static chunk *combine(const comb_source *src, const res_program *p, chunk *const *rules,
                      chunk *const *fns, int32_t ed, const chunk *dflt, uint32_t q,
                      const res_ruleset *rs)
{
    if (q >= p->nqueries || p->queries[q].is_event || !rs)
        return NULL;
    const res_query *qq = &p->queries[q];
    const uint32_t np = qq->nparams;
    const bool first = qq->mode == AST_COMBINE_FIRST;
    const bool with_default = qq->mode == AST_COMBINE_SUM && dflt;
    /* the default of `first`, `min` and `max`, which answers when no rule does, copied after
     * the rules (its RETURN kept): no frame is switched to it then */
    size_t ret;
    bool dguarded;
    const bool tail = dflt && !with_default &&
                      (first || qq->mode == AST_COMBINE_MIN || qq->mode == AST_COMBINE_MAX) &&
                      part_shape(dflt, np, &ret, &dguarded) && !dguarded;
    if (rs->len == 0 && !with_default && !tail)
        return NULL;
    const size_t nparts = rs->len + (with_default || tail ? 1 : 0);
    /* every part's shape first: a query that cannot be combined costs no copying */
    for (size_t i = 0; i < nparts; i++)
        if (!part_shape(part_of(rules, dflt, rs, with_default, tail, i), np, &ret, &dguarded))
            return NULL;
    char name[300] = "rules of "; /* the query's name, cut to fit */
    const size_t pre = strlen(name), n = qq->name ? strnlen(qq->name, sizeof name - 1 - pre) : 0;
    memcpy(name + pre, qq->name ? qq->name : "", n);
    name[pre + n] = '\0';
    emitter e = { .out = chunk_new(name, CHUNK_QUERY, q),
                  .p = p,
                  .fns = fns,
                  .ed = ed,
                  .next_local = np,
                  .src = src };
    chunk *out = e.out;
    if (!out)
        return NULL;
    out->nparams = np;
    out->combine = (uint32_t)qq->mode;
    size_t words = 0, spans = 0; /* the parts' sizes: most of the copy's, inlining aside */
    for (size_t i = 0; i < nparts; i++) {
        const chunk *ch = part_of(rules, dflt, rs, with_default, tail, i);
        words += ch->len + 1;
        spans += ch->nlines + 1;
    }
    if (!mem_grow_((void **)&out->code, &out->cap, words, sizeof *out->code) ||
        !mem_grow_((void **)&out->lines, &out->lines_cap, spans, sizeof *out->lines) ||
        !mem_grow_((void **)&out->parts, &out->parts_cap, nparts + 1, sizeof *out->parts))
        goto fail;
    uint32_t max_stack = 0;
    for (size_t i = 0; i < nparts; i++) {
        const chunk *ch = part_of(rules, dflt, rs, with_default, tail, i);
        const bool last = i + 1 == nparts;
        /* in its shape (checked above): a guarded part ends with its NO_ANSWER */
        const bool guarded = ch->code[ch->len - 1] == OP_NO_ANSWER;
        if (ch->nlocals - np > UINT32_MAX / 4 - e.next_local)
            goto fail;
        uint32_t shift = e.next_local;
        e.next_local += ch->nlocals - np;
        exits how =
            last ? (first ? EXIT_FIRST_END : EXIT_ACC_END) : (first ? EXIT_FIRST : EXIT_ACC);
        if (tail && last)
            how = EXIT_FIRST_END; /* the default: its RETURN answers */
        else if (tail && i + 2 == nparts && !first)
            how = EXIT_ACC_ELSE;
        if (!emit_chunk(&e, ch, np, shift, how))
            goto fail;
        /* RULE_ACC skips the rule's no-answer exit: a rule without a guard gets one */
        if (!guarded && how == EXIT_ACC && !chunk_emit(out, OP_RULE_NEXT))
            goto fail;
        if (ch->max_stack > max_stack)
            max_stack = ch->max_stack;
    }
    out->nlocals = e.next_local + 2; /* the accumulator, and whether a rule fed it */
    out->max_stack = max_stack + e.extra_stack;
    /* the reads computed again and again kept after their first run (vm.md §5b); out of
     * memory there, the chunk stays as it is, right but slower */
    (void)reuse_reads(out);
    peep_skips(out);       /* copies skipped at a bare side or square (vm.md §5c) */
    peep_pairs(out);       /* pairs of instructions in one (vm.md §5c) */
    peep_walk_fields(out); /* a walk makes only the fields its loop reads (walk.h) */
    mem_free(e.qfix);
    return out;
fail:
    mem_free(e.qfix);
    chunk_free(out);
    return NULL;
}

chunk *comb_query(const comb_source *src, int32_t ed, uint32_t q, const res_ruleset *rs)
{
    const chunk *dflt = q < src->res->nqueries ? src->defaults[q] : NULL;
    return combine(src, src->res, src->rules, src->fns, ed, dflt, q, rs);
}
