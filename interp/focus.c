/* focus.c — where two settings of the same rules can part (focus.h), read from the bytecode:
 * what differs (the rule sets of the two editions, the versions of fns and tables, the variant
 * readings, the counters), then every fn and query that calls something that differs, at any
 * depth, until nothing more is marked; the rules targeted and the vocabulary they read, through
 * the fns they call and, one step further, through the rules of queries over the vocabulary's
 * enums (a trait a rule reads names, through terrain_traits' rules, the terrain that has it).
 * Its callers, search.c and variants.c, rely on it being sound: a query it leaves unmarked
 * answers the same under both settings. The instructions read are interp/opcodes.h's.
 */
#include "focus.h"

#include <string.h>

#include "mem.h"

/* The enum of each vocabulary list. */
static const uint32_t LIST_ENUM[FOCUS_LISTS] = { E_TERRAIN, E_SQUARE_FEATURE, E_SIDE_FEATURE,
                                                 E_INTERSPACE_ITEM, E_KIND };

/* What is marked: the seeds (variants, tables, fns, rules) and what calls them. */
typedef struct marks {
    const prog *pg;
    int32_t ed[2];
    const bool *variant, *table; /* may be NULL: none */
    const bool *rule;            /* per rule id: a seed; may be NULL */
    bool *fn;                    /* per fn id (every version) */
    bool *query;                 /* per query */
} marks;

/* Whether declared fn a, in either edition's version, is marked. */
static bool fn_marked(const marks *m, uint32_t a)
{
    const res_program *p = m->pg->res;
    return a < p->nfns &&
           (m->fn[a] || m->fn[res_fn_of(p, m->ed[0], a)] || m->fn[res_fn_of(p, m->ed[1], a)]);
}

/* Whether chunk ch reads a marked variant or table, or calls a marked fn, query or event. */
static bool calls_marked(const marks *m, const chunk *ch)
{
    const res_program *p = m->pg->res;
    for (size_t pc = 0; ch && pc < ch->len; pc += 1 + op_operands[ch->code[pc]]) {
        uint32_t op = ch->code[pc], a = pc + 1 < ch->len ? ch->code[pc + 1] : 0;
        if (op >= OP__COUNT)
            return true; /* not bytecode this file knows: assume the worst */
        bool hit = false;
        switch (op) {
        case OP_VARIANT:
        case OP_VARIANT_JUMP: hit = m->variant && a < p->nvariants && m->variant[a]; break;
        case OP_TABLE: hit = m->table && a < p->ntables && m->table[a]; break;
        case OP_CALL_FN: hit = fn_marked(m, a); break;
        case OP_CALL_QUERY:
        case OP_REQUIRE: /* asks its verdict query */
        case OP_RAISE: hit = a < p->nqueries && m->query[a]; break;
        default: break;
        }
        if (hit)
            return true;
    }
    return false;
}

/* Whether a rule of query q (under either edition) is a seed or calls something marked. */
static bool rules_marked(const marks *m, uint32_t q)
{
    for (int e = 0; e < 2; e++) {
        const res_ruleset *rs = model_rules_of(m->pg->res, m->ed[e], q);
        for (size_t i = 0; i < rs->len; i++)
            if ((m->rule && m->rule[rs->rules[i]]) || calls_marked(m, m->pg->rules[rs->rules[i]]))
                return true;
    }
    return false;
}

/* Marks every fn and query that calls something marked, until nothing changes. */
static void close_up(marks *m)
{
    const res_program *p = m->pg->res;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t f = 0; f < p->nfns; f++)
            if (!m->fn[f] && calls_marked(m, m->pg->fns[f]))
                m->fn[f] = changed = true;
        for (uint32_t q = 0; q < p->nqueries; q++)
            if (!m->query[q] && (calls_marked(m, m->pg->defaults[q]) || rules_marked(m, q)))
                m->query[q] = changed = true;
    }
}

/* Whether rule set a and b hold the same rules in the same order. */
static bool same_rules(const res_ruleset *a, const res_ruleset *b)
{
    return a->len == b->len && (!a->len || !memcmp(a->rules, b->rules, a->len * sizeof *a->rules));
}

/* Whether rule r is in query q's set under edition ed. */
static bool in_set(const res_program *p, int32_t ed, uint32_t r)
{
    const res_ruleset *rs = model_rules_of(p, ed, p->rules[r].query);
    for (size_t i = 0; i < rs->len; i++)
        if (rs->rules[i] == r)
            return true;
    return false;
}

/* ---- the vocabulary read ---- */

/* The members a walk has met: per enum, one flag per member (allocated when first met). */
typedef struct seen {
    const focus *f;
    bool **member; /* per enum */
    bool *fn;      /* fns walked */
    bool oom;
} seen;

/* Marks member k of enum e as met. */
static void meet(seen *s, uint32_t e, uint32_t k)
{
    const res_program *p = s->f->p;
    if (e >= p->nenums || k >= p->enums[e].len)
        return;
    if (!s->member[e] && !(s->member[e] = mem_calloc(p->enums[e].len, sizeof **s->member))) {
        s->oom = true;
        return;
    }
    s->member[e][k] = true;
}

/* Calls fn for every enum member constant v stands for (itself, or each member of a set),
 * with its enum. */
static void members_of(const res_program *p, val v, void (*fn)(void *, uint32_t, uint32_t),
                       void *ud)
{
    if (v.type >= p->ntypes)
        return;
    res_type t = p->types[v.type];
    if (t.kind == RT_ENUM) {
        fn(ud, t.arg, (uint32_t)v.u.i);
    } else if (t.kind == RT_SET && t.arg < p->ntypes && p->types[t.arg].kind == RT_ENUM) {
        for (uint32_t k = 0; k < 64; k++)
            if (v.u.bits >> k & 1)
                fn(ud, p->types[t.arg].arg, k);
    }
}

static void meet_cb(void *ud, uint32_t e, uint32_t k)
{
    meet(ud, e, k);
}

/* Calls fn(ud, enum, member) for every enum member among the constants of ch. */
static void each_const(const res_program *p, const chunk *ch,
                       void (*fn)(void *, uint32_t, uint32_t), void *ud)
{
    for (size_t pc = 0; ch && pc < ch->len && ch->code[pc] < OP__COUNT;
         pc += 1 + op_operands[ch->code[pc]])
        if (ch->code[pc] == OP_CONST && pc + 1 < ch->len && ch->code[pc + 1] < ch->nk)
            members_of(p, ch->k[ch->code[pc + 1]], fn, ud);
}

/* Meets the constants of ch and of the fns it calls (either edition's version, at any
 * depth). */
static void walk(seen *s, const marks *m, const chunk *ch)
{
    const res_program *p = s->f->p;
    each_const(p, ch, meet_cb, s);
    for (size_t pc = 0; ch && pc < ch->len && ch->code[pc] < OP__COUNT;
         pc += 1 + op_operands[ch->code[pc]]) {
        uint32_t a = pc + 1 < ch->len ? ch->code[pc + 1] : 0;
        for (int e = 0; ch->code[pc] == OP_CALL_FN && a < p->nfns && e < 2; e++) {
            uint32_t f = res_fn_of(p, m->ed[e], a);
            if (!s->fn[f]) {
                s->fn[f] = true;
                walk(s, m, m->pg->fns[f]);
            }
        }
    }
}

/* Whether enum e is one of the vocabulary lists'; its list into *list. */
static bool vocab_enum(uint32_t e, int *list)
{
    for (int l = 0; l < FOCUS_LISTS; l++)
        if (LIST_ENUM[l] == e) {
            *list = l;
            return true;
        }
    return false;
}

/* A rule of a query over a vocabulary enum, looked at for one step further: whether it holds a
 * member the targeted rules met (outside the vocabulary and the readings), and the members of
 * the query's vocabulary enum it holds. */
typedef struct link {
    seen *s;
    bool **met; /* a copy of the targets' flags, per enum (borrowed arrays) */
    uint32_t vocab;
    bool hit;
} link;

static void link_check(void *ud, uint32_t e, uint32_t k)
{
    link *l = ud;
    int list;
    if (!vocab_enum(e, &list) && l->s->f->p->enums[e].variant < 0 && l->met[e] && l->met[e][k])
        l->hit = true;
}

static void link_meet(void *ud, uint32_t e, uint32_t k)
{
    link *l = ud;
    if (e == l->vocab)
        meet(l->s, e, k);
}

/* One step further: for each query with a parameter of a vocabulary enum, the members of that
 * enum in each of its rules that holds a member the targeted rules met (outside the vocabulary
 * and the readings): the terrain terrain_traits gives a trait a rule reads. */
static void linked(seen *s, const marks *m)
{
    const res_program *p = s->f->p;
    link l = { s, mem_calloc(p->nenums ? p->nenums : 1, sizeof *l.met), 0, false };
    if (!l.met) {
        s->oom = true;
        return;
    }
    memcpy(l.met, s->member, p->nenums * sizeof *l.met); /* met before this step only */
    for (uint32_t q = 0; q < p->nqueries; q++) {
        int list = -1;
        for (uint32_t i = 0; list < 0 && i < p->queries[q].nparams; i++) {
            res_type t = p->types[p->queries[q].params[i].type];
            if (t.kind != RT_ENUM || !vocab_enum(t.arg, &list))
                list = -1;
            else
                l.vocab = t.arg;
        }
        for (int e = 0; list >= 0 && e < 2; e++) {
            const res_ruleset *rs = model_rules_of(p, m->ed[e], q);
            for (size_t i = 0; i < rs->len; i++) {
                const chunk *ch = m->pg->rules[rs->rules[i]];
                l.hit = false;
                each_const(p, ch, link_check, &l);
                if (l.hit)
                    each_const(p, ch, link_meet, &l);
            }
        }
    }
    mem_free(l.met);
}

/* The vocabulary the targeted rules read into f->reads. */
static hon_status read_vocab(focus *f, const marks *m, const bool *target)
{
    const res_program *p = f->p;
    seen s = { f, mem_calloc(p->nenums ? p->nenums : 1, sizeof *s.member),
               mem_calloc(p->nfns ? p->nfns : 1, sizeof *s.fn), false };
    s.oom = !s.member || !s.fn;
    for (size_t r = 0; !s.oom && r < p->nrules; r++)
        if (target[r])
            walk(&s, m, m->pg->rules[r]);
    if (!s.oom)
        linked(&s, m);
    for (int l = 0; !s.oom && l < FOCUS_LISTS; l++) {
        uint32_t e = LIST_ENUM[l];
        f->nreads[l] = p->enums[e].len;
        if (!(f->reads[l] = mem_calloc(f->nreads[l] ? f->nreads[l] : 1, sizeof *f->reads[l])))
            s.oom = true;
        for (size_t k = 0; !s.oom && s.member && s.member[e] && k < f->nreads[l]; k++)
            f->reads[l][k] = s.member[e][k];
    }
    for (size_t e = 0; s.member && e < p->nenums; e++)
        mem_free(s.member[e]);
    mem_free(s.member);
    mem_free(s.fn);
    return s.oom ? HON_ERR_MEMORY : HON_OK;
}

/* ---- building ---- */

/* The seeds of what differs between the settings of a and b into f: the variant readings, the
 * versions of tables and fns, the queries whose rule sets differ, and whether the counters
 * do. */
static hon_status seeds(focus *f, hon_vm *a, hon_vm *b)
{
    const res_program *p = f->p;
    bool oom[2];
    int32_t *r[2] = { session_readings(a, f->ed[0], NULL, &oom[0]),
                      session_readings(b, f->ed[1], NULL, &oom[1]) };
    f->variant = mem_calloc(p->nvariants + 1, sizeof *f->variant);
    f->table = mem_calloc(p->ntables + 1, sizeof *f->table);
    hon_status st = oom[0] || oom[1] || !f->variant || !f->table ? HON_ERR_MEMORY : HON_OK;
    for (size_t v = 0; st == HON_OK && v < p->nvariants; v++)
        f->variant[v] = r[0][v] != r[1][v];
    for (uint32_t t = 0; st == HON_OK && t < p->ntables; t++)
        f->table[t] = res_table_of(p, f->ed[0], t) != res_table_of(p, f->ed[1], t);
    for (uint32_t k = 0; st == HON_OK && k < p->nfns; k++)
        f->fn[k] = res_fn_of(p, f->ed[0], k) != res_fn_of(p, f->ed[1], k);
    for (uint32_t q = 0; st == HON_OK && q < p->nqueries; q++)
        f->differs[q] = !same_rules(model_rules_of(p, f->ed[0], q), model_rules_of(p, f->ed[1], q));
    f->every = res_units_of(p, f->ed[0]) != res_units_of(p, f->ed[1]);
    mem_free(r[0]);
    mem_free(r[1]);
    return st;
}

/* The marks of what differs between f's settings (f's arrays, borrowed). */
static marks differences(const focus *f)
{
    marks m = { f->pg, { f->ed[0], f->ed[1] }, f->variant, f->table, NULL, f->fn, f->differs };
    return m;
}

hon_status focus_build(focus *f, hon_vm *a, hon_vm *b, const char *const *rules, size_t nrules)
{
    memset(f, 0, sizeof *f);
    if (!a || !b)
        return HON_ERR_NOT_FOUND;
    if (!prog_ready_all(a->pg)) /* a lazy program's rules: every chunk is read below */
        return HON_ERR_MEMORY;
    const prog *pg = a->pg;
    const res_program *p = pg->res;
    *f = (focus){
        .pg = pg, .p = p, .ed = { session_edition(a), session_edition(b) }, .nq = p->nqueries
    };
    f->fn = mem_calloc(p->nfns + 1, sizeof *f->fn);
    f->differs = mem_calloc(p->nqueries + 1, sizeof *f->differs);
    f->query = mem_calloc(p->nqueries + 1, sizeof *f->query);
    bool *reach = mem_calloc(p->nqueries + 1, sizeof *reach);
    bool *reach_fn = mem_calloc(p->nfns + 1, sizeof *reach_fn);
    bool *target = mem_calloc(p->nrules + 1, sizeof *target);
    hon_status st = f->fn && f->differs && f->query && reach && reach_fn && target ? seeds(f, a, b)
                                                                                   : HON_ERR_MEMORY;
    marks m = differences(f);
    if (st == HON_OK)
        close_up(&m);
    /* the rules targeted: those named, else those that differ or call what does */
    for (uint32_t r = 0; st == HON_OK && r < p->nrules; r++) {
        bool in[2] = { in_set(p, f->ed[0], r), in_set(p, f->ed[1], r) };
        for (size_t i = 0; i < nrules; i++)
            target[r] |= strcmp(p->rules[r].name, rules[i]) == 0;
        if (!nrules)
            target[r] = in[0] != in[1] || ((in[0] || in[1]) && calls_marked(&m, pg->rules[r]));
    }
    if (st == HON_OK)
        st = read_vocab(f, &m, target);
    marks t = { pg, { f->ed[0], f->ed[1] }, NULL, NULL, target, reach_fn, reach };
    if (st == HON_OK && nrules) /* only the queries that can run a rule named */
        close_up(&t);
    for (uint32_t q = 0; st == HON_OK && q < p->nqueries; q++)
        f->query[q] = (f->differs[q] || f->every) && (!nrules || reach[q]);
    mem_free(reach);
    mem_free(reach_fn);
    mem_free(target);
    return st;
}

void focus_free(focus *f)
{
    if (!f)
        return;
    mem_free(f->query);
    for (int l = 0; l < FOCUS_LISTS; l++)
        mem_free(f->reads[l]);
    mem_free(f->variant);
    mem_free(f->table);
    mem_free(f->fn);
    mem_free(f->differs);
    memset(f, 0, sizeof *f);
}

bool focus_query(const focus *f, uint32_t q)
{
    return q < f->nq && f->query[q];
}

bool focus_chunk(const focus *f, const chunk *ch)
{
    if (!ch || !f->differs)
        return false;
    marks m = differences(f);
    return f->every || calls_marked(&m, ch);
}

void focus_callers(const focus *f, bool *query, bool *fn)
{
    marks m = { f->pg, { f->ed[0], f->ed[1] }, NULL, NULL, NULL, fn, query };
    close_up(&m);
}

bool focus_chunk_calls(const focus *f, const bool *query, const bool *fn, const chunk *ch)
{
    marks m = { f->pg, { f->ed[0], f->ed[1] }, NULL, NULL, NULL, (bool *)fn, (bool *)query };
    return calls_marked(&m, ch);
}

void focus_unseen(const focus *f, bool *query, bool *fn)
{
    const res_program *p = f->p;
    bool any = false;
    for (uint32_t q = 0; q < p->nqueries; q++) {
        bool finite = !p->queries[q].is_event; /* as memo.c's query_tabled, or more */
        for (uint32_t i = 0; finite && i < p->queries[q].nparams; i++) {
            res_tkind k = p->types[p->queries[q].params[i].type].kind;
            finite = k == RT_BOOL || k == RT_ENUM;
        }
        any |= query[q] = finite && (f->every || f->differs[q]);
    }
    if (any)
        focus_callers(f, query, fn);
}

int32_t focus_one_variant(const focus *f)
{
    int32_t v = -1;
    if (f->ed[0] != f->ed[1] || f->every || !f->variant)
        return -1;
    for (size_t k = 0; k < f->p->nvariants; k++)
        if (f->variant[k]) {
            if (v >= 0)
                return -1;
            v = (int32_t)k;
        }
    return v;
}

bool focus_reads(const focus *f, int list, const char *name)
{
    if (list < 0 || list >= FOCUS_LISTS || !f->reads[list])
        return false;
    int32_t k = model_find_member(&f->p->enums[LIST_ENUM[list]], name);
    return k >= 0 && (size_t)k < f->nreads[list] && f->reads[list][k];
}
