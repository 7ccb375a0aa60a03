/* memo.c — tables of the answers of pure queries over small finite domains (see memo.h): which
 * queries qualify, found by reading their bytecode once per key, and the tables themselves.
 * Whether a chunk is pure follows the opcode list of opcodes.h (pure_op below); calls.c's query
 * driver fills and reads the slots, state.c sets the key.
 */
#include "memo.h"

#include <string.h>

#include "mem.h"

/* The largest number of argument tuples a query is tabled for. */
#define MEMO_MAX_TUPLES 4096u

/* The purity walk's marks (memo.qdepth, memo.fndepth): not looked at (0), being looked at,
 * impure; any other value is the depth of the deepest chain of calls the fn or query can make,
 * itself counted (a fn calling nothing: 1). A call back into a fn or query being looked at
 * counts as impure: recursion is never tabled, and no mark is settled on a guess. */
#define D_VISITING UINT32_MAX
#define D_IMPURE   (UINT32_MAX - 1)

static void drop_tables(memo *m)
{
    for (size_t q = 0; m->answers && q < m->nq; q++)
        mem_free(m->answers[q]);
    mem_free(m->answers);
    mem_free(m->tabled);
    mem_free(m->qdepth);
    mem_free(m->fndepth);
    mem_free(m->dom1);
    m->dom1 = NULL;
    m->answers = NULL;
    m->tabled = NULL;
    m->qdepth = m->fndepth = NULL;
    m->nq = m->nfn = 0;
}

void memo_free(memo *m)
{
    if (!m)
        return;
    drop_tables(m);
    mem_free(m->readings);
    *m = (memo){ 0 };
}

static int32_t reading_of(const res_program *p, const int32_t *readings, size_t v)
{
    return readings ? readings[v] : (int32_t)p->variants[v].dflt;
}

bool memo_key(memo *m, const prog *pg, int32_t ed, const int32_t *readings, uint64_t setting)
{
    if (setting && m->setting == setting && m->serial == pg->serial && m->tabled)
        return true;
    const res_program *p = pg->res;
    bool same = m->serial == pg->serial && m->edition == ed && m->nreadings == p->nvariants &&
                m->tabled && m->nq == p->nqueries && m->nfn == p->nfns;
    for (size_t v = 0; same && v < p->nvariants; v++)
        same = m->readings[v] == reading_of(p, readings, v);
    if (same) {
        m->setting = setting;
        return true;
    }
    drop_tables(m);
    m->serial = 0;
    m->setting = 0;
    if (m->nreadings != p->nvariants) {
        mem_free(m->readings);
        m->readings = p->nvariants ? mem_malloc(p->nvariants * sizeof *m->readings) : NULL;
        m->nreadings = m->readings ? p->nvariants : 0;
        if (p->nvariants && !m->readings)
            return false;
    }
    for (size_t v = 0; v < p->nvariants; v++)
        m->readings[v] = reading_of(p, readings, v);
    m->tabled = mem_calloc(p->nqueries + 1, 1);
    m->qdepth = mem_calloc(p->nqueries + 1, sizeof *m->qdepth);
    m->fndepth = mem_calloc(p->nfns + 1, sizeof *m->fndepth);
    m->answers = mem_calloc(p->nqueries + 1, sizeof *m->answers);
    m->dom1 = mem_calloc(p->nqueries + 1, sizeof *m->dom1);
    if (!m->tabled || !m->qdepth || !m->fndepth || !m->answers || !m->dom1) {
        drop_tables(m);
        return false;
    }
    m->nq = p->nqueries;
    m->nfn = p->nfns;
    m->serial = pg->serial;
    m->edition = ed;
    m->setting = setting;
    return true;
}

/* What the purity walk reads: the program, the edition, its fn versions and the states. */
typedef struct walk {
    memo *m;
    const prog *pg;
    const int32_t *fn_of;
    size_t nfn_of;
} walk;

static uint32_t query_depth(walk *w, uint32_t q);

/* Whether an opcode's result depends only on its operands, its chunk, the tables and the
 * variant readings: not on the board, the units, the dice, the clock or a procedure. Calls are
 * looked at by the caller. */
static bool pure_op(op_code op)
{
    switch (op) {
    case OP_UNIT_KIND:
    case OP_UNIT_SIDE:
    case OP_UNIT_SIZE:
    case OP_UNIT_VALUE:
    case OP_HAS_ABILITY:
    case OP_HAS_MARKER:
    case OP_ABILITY_VALUE:
    case OP_MARKER_COUNT:
    case OP_UNIT_NAMED:
    case OP_BOARD:
    case OP_WALK_START:
    case OP_SIDE_BETWEEN:
    case OP_SIDE_HAS:
    case OP_SIDES_ANY_K:
    case OP_TERRAIN:
    case OP_ELEVATION:
    case OP_IN_ELEMENT:
    case OP_UNITS_AT:
    case OP_SQUARE_OF:
    case OP_DISTANCE:
    case OP_ROLL:
    case OP_ROLL_N:
    case OP_EFFECT:
    case OP_RAISE:
    case OP_CHOOSE:
    case OP_NOTE:
    case OP_FAIL:
    case OP_REQUIRE:
    case OP_DONE:
    case OP_TURN:
    case OP_PHASE:
    case OP__COUNT: return false;
    default: return true;
    }
}

static uint32_t fn_depth(walk *w, uint32_t fn);

/* The deepest chain of calls chunk ch makes (0 when it calls nothing), or D_IMPURE. */
static uint32_t chunk_depth(walk *w, const chunk *ch)
{
    if (!ch)
        return D_IMPURE;
    uint32_t deepest = 0;
    for (size_t pc = 0; pc < ch->len; pc += 1u + op_operands[ch->code[pc]]) {
        op_code op = (op_code)ch->code[pc];
        if (op >= OP__COUNT || !pure_op(op))
            return D_IMPURE;
        uint32_t d = op == OP_CALL_FN      ? fn_depth(w, ch->code[pc + 1])
                     : op == OP_CALL_QUERY ? query_depth(w, ch->code[pc + 1])
                                           : 0;
        if (d >= D_IMPURE)
            return D_IMPURE;
        deepest = d > deepest ? d : deepest;
    }
    return deepest;
}

/* Marks *mark (visiting, then the depth found or impure) over the chunks given. */
static uint32_t settle(walk *w, uint32_t *mark, const chunk *const *chunks, size_t n)
{
    if (*mark)
        return *mark == D_VISITING ? D_IMPURE : *mark;
    *mark = D_VISITING;
    uint32_t deepest = 0;
    for (size_t i = 0; i < n && deepest < D_IMPURE; i++) {
        uint32_t d = chunk_depth(w, chunks[i]);
        deepest = d > deepest ? d : deepest;
    }
    *mark = deepest < D_IMPURE ? deepest + 1 : D_IMPURE;
    return *mark;
}

static uint32_t fn_depth(walk *w, uint32_t fn)
{
    if (fn < w->nfn_of)
        fn = (uint32_t)w->fn_of[fn];
    if (fn >= w->m->nfn)
        return D_IMPURE;
    return settle(w, &w->m->fndepth[fn], (const chunk *const *)&w->pg->fns[fn], 1);
}

/* A query is pure when it is no event and every rule of it under the edition, and its default,
 * is pure. */
static uint32_t query_depth(walk *w, uint32_t q)
{
    const prog *pg = w->pg;
    if (q >= w->m->nq || pg->res->queries[q].is_event || !prog_ready(pg, q))
        return D_IMPURE; /* (not ready: memory ran out compiling a lazy program's rules) */
    if (w->m->qdepth[q])
        return settle(w, &w->m->qdepth[q], NULL, 0);
    const res_ruleset *rs = model_rules_of(pg->res, w->m->edition, q);
    size_t n = 0;
    const chunk **chunks = mem_malloc((rs->len + 1) * sizeof *chunks);
    if (!chunks)
        return D_IMPURE; /* not marked: looked at again next time */
    for (size_t i = 0; i < rs->len; i++)
        chunks[n++] = pg->rules[rs->rules[i]];
    if (pg->defaults[q])
        chunks[n++] = pg->defaults[q];
    uint32_t d = settle(w, &w->m->qdepth[q], chunks, n);
    mem_free(chunks);
    return d;
}

/* The number of values a parameter of type t can take, 0 when it is not a finite domain. */
static uint64_t domain_size(const res_program *p, uint32_t t)
{
    const res_type *ty = &p->types[t];
    if (ty->kind == RT_BOOL)
        return 2;
    if (ty->kind == RT_ENUM)
        return p->enums[ty->arg].len;
    return 0;
}

static bool answer_scalar(const res_program *p, uint32_t t)
{
    res_tkind k = p->types[t].kind;
    return k != RT_LIST && k != RT_RECORD && k != RT_NONE && k != RT_ERROR;
}

/* Decides once whether q is tabled under the key; allocates its table when it is. */
static bool query_tabled(walk *w, uint32_t q)
{
    const res_program *p = w->pg->res;
    const res_query *qq = &p->queries[q];
    uint64_t tuples = 1;
    bool ok = !qq->is_event && answer_scalar(p, qq->result);
    for (uint32_t i = 0; ok && i < qq->nparams; i++) {
        uint64_t n = domain_size(p, qq->params[i].type);
        ok = n > 0 && (tuples *= n) <= MEMO_MAX_TUPLES;
    }
    ok = ok && query_depth(w, q) < D_IMPURE;
    if (ok) {
        w->m->answers[q] = mem_calloc((size_t)tuples, sizeof(memo_answer));
        ok = w->m->answers[q] != NULL;
    }
    w->m->tabled[q] = ok ? MEMO_TABLED : MEMO_NOT_TABLED;
    if (ok && qq->nparams == 1)
        w->m->dom1[q] = (uint32_t)tuples;
    return ok;
}

memo_answer *memo_slot(memo *m, const prog *pg, const int32_t *fn_of, size_t nfn_of, uint32_t q,
                       const val *args)
{
    if (!m->serial || m->serial != pg->serial || q >= m->nq || m->tabled[q] == MEMO_NOT_TABLED)
        return NULL;
    if (!m->tabled[q]) {
        walk w = { m, pg, fn_of, nfn_of };
        if (!query_tabled(&w, q))
            return NULL;
    }
    const res_program *p = pg->res;
    const res_query *qq = &p->queries[q];
    size_t at = 0;
    for (uint32_t i = 0; i < qq->nparams; i++) {
        uint64_t n = domain_size(p, qq->params[i].type);
        if (args[i].u.i < 0 || (uint64_t)args[i].u.i >= n)
            return NULL;
        at = at * (size_t)n + (size_t)args[i].u.i;
    }
    return &m->answers[q][at];
}
