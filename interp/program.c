/* program.c — building and freeing a compiled program, its explained rule chunks, compiled
 * when first traced, and, built lazily, each query's rule chunks on its first call (see
 * program.h). */
#include "program.h"

#include "combine.h"
#include "compile.h"
#include "mem.h"

chunk prog_no_combined;
#include "resolve.h"

void prog_free(prog *pg)
{
    if (!pg)
        return;
    const res_program *p = pg->res;
    if (p) {
        for (size_t i = 0; pg->rules && i < p->nrules; i++) {
            if (pg->explained && pg->explained[i] != pg->rules[i])
                chunk_free(pg->explained[i]);
            chunk_free(pg->rules[i]);
        }
        if (pg->source)
            comp_source_free(pg->source);
        for (size_t i = 0; pg->combined && i < (p->neditions + 1) * p->nqueries; i++)
            if (pg->combined[i] != &prog_no_combined)
                chunk_free(pg->combined[i]);
        for (size_t i = 0; pg->fns && i < p->nfns; i++)
            chunk_free(pg->fns[i]);
        for (size_t i = 0; pg->defaults && i < p->nqueries; i++)
            chunk_free(pg->defaults[i]);
        for (size_t t = 0; pg->expects && t < p->ntests; t++) {
            for (size_t e = 0; pg->expects[t] && e < p->tests[t].nexpects; e++) {
                chunk_free(pg->expects[t][e].whole);
                chunk_free(pg->expects[t][e].lhs);
                chunk_free(pg->expects[t][e].rhs);
            }
            mem_free(pg->expects[t]);
            for (size_t k = 0; pg->choices && pg->choices[t] && p->tests[t].choices &&
                               k < p->tests[t].choices->list.len;
                 k++)
                chunk_free(pg->choices[t][k]);
            if (pg->choices)
                mem_free(pg->choices[t]);
        }
    }
    mem_free(pg->choices);
    mem_free(pg->rules);
    mem_free(pg->explained);
    mem_free(pg->combined);
    mem_free(pg->source);
    mem_free(pg->fns);
    mem_free(pg->defaults);
    mem_free(pg->expects);
    mem_free(pg->ready);
    mem_free(pg->by_query);
    mem_free(pg->by_query_at);
    mem_free(pg->fn_ready);
    mem_free(pg->versions);
    mem_free(pg->versions_at);
    model_free(pg->res);
    for (size_t i = 0; i < pg->nfiles; i++)
        ast_file_free(pg->files[i]);
    mem_free(pg->files);
    mem_free(pg);
}

/* What one closure of fns (fns_ready) has met: a mark per fn, and those still to look at. */
typedef struct fn_walk {
    const prog *pg;
    uint8_t *met;
    uint32_t *todo;
    size_t ntodo;
} fn_walk;

/* Puts every version of declared fn f (f too) that is not ready on w's list, once. */
static void meet_fn(fn_walk *w, uint32_t f)
{
    const prog *pg = w->pg;
    if (f >= pg->res->nfns)
        return;
    for (uint32_t i = pg->versions_at[f]; i <= pg->versions_at[f + 1]; i++) {
        uint32_t v = i < pg->versions_at[f + 1] ? pg->versions[i] : f;
        if (!pg->fn_ready[v] && !w->met[v]) {
            w->met[v] = 1;
            w->todo[w->ntodo++] = v;
        }
    }
}

/* Puts the fns chunk ch calls on w's list (meet_fn). */
static void meet_calls(fn_walk *w, const chunk *ch)
{
    for (size_t pc = 0; ch && pc < ch->len; pc += 1u + op_operands[ch->code[pc]])
        if (ch->code[pc] == OP_CALL_FN)
            meet_fn(w, ch->code[pc + 1]);
}

/* Lazily: compiles the fns the n chunks call, and the fns those call, at any depth, then marks
 * them all ready; false on OOM (nothing newly marked: a fn is ready only with every fn it can
 * reach, so a failure halfway leaves no fn ready whose callee is missing). */
static bool fns_ready(const prog *pg, const chunk *const *chunks, size_t n, int32_t fn)
{
    const res_program *p = pg->res;
    if (!pg->lazy)
        return true;
    fn_walk w = { pg, mem_calloc(p->nfns + 1, 1), mem_malloc((p->nfns + 1) * sizeof *w.todo), 0 };
    bool ok = w.met && w.todo;
    if (ok && fn >= 0 && !pg->fn_ready[fn]) {
        w.met[fn] = 1;
        w.todo[w.ntodo++] = (uint32_t)fn;
    }
    for (size_t i = 0; ok && i < n; i++)
        meet_calls(&w, chunks[i]);
    diag_list dl; /* the program resolved: only memory can fail here */
    diag_list_init(&dl, NULL);
    for (size_t k = 0; ok && k < w.ntodo; k++) { /* the list grows as the chunks are read */
        uint32_t f = w.todo[k];
        if (!pg->fns[f] && (!res_fn_ready(pg->res, f) || !(pg->fns[f] = comp_fn(p, f, &dl))))
            ok = false;
        else
            meet_calls(&w, pg->fns[f]);
    }
    diag_list_clear(&dl);
    for (size_t k = 0; ok && k < w.ntodo; k++)
        pg->fn_ready[w.todo[k]] = 1;
    mem_free(w.met);
    mem_free(w.todo);
    return ok;
}

bool prog_make_fn_ready(const prog *pg, uint32_t f)
{
    return f >= pg->res->nfns || fns_ready(pg, NULL, 0, (int32_t)f);
}

bool prog_calls_ready(const prog *pg, const chunk *ch)
{
    return fns_ready(pg, &ch, 1, -1);
}

/* Compiles query q's rule chunks and default into pg, and (lazily) the fns they call; false
 * after reporting (E199) when one could not be (those made are kept). */
static bool compile_query(const prog *pg, uint32_t q, diag_list *d)
{
    const res_program *p = pg->res;
    uint32_t from = pg->by_query_at[q], to = pg->by_query_at[q + 1];
    for (uint32_t i = from; i < to; i++) {
        uint32_t r = pg->by_query[i];
        if (!pg->rules[r] && (!res_rule_ready(pg->res, r) || !(pg->rules[r] = comp_rule(p, r, d))))
            return false;
    }
    if (p->queries[q].dflt && !pg->defaults[q] &&
        (!res_default_ready(pg->res, q) || !(pg->defaults[q] = comp_default(p, q, d))))
        return false;
    for (uint32_t i = from; i < to; i++)
        if (!prog_calls_ready(pg, pg->rules[pg->by_query[i]]))
            return false;
    return !pg->defaults[q] || prog_calls_ready(pg, pg->defaults[q]);
}

/* The lazy program's index of the rules by query (prog.by_query); false on OOM. */
static bool index_rules(prog *pg)
{
    const res_program *p = pg->res;
    pg->ready = mem_calloc(p->nqueries + 1, 1);
    pg->by_query_at = mem_calloc(p->nqueries + 2, sizeof *pg->by_query_at);
    pg->by_query = mem_calloc(p->nrules + 1, sizeof *pg->by_query);
    pg->fn_ready = mem_calloc(p->nfns + 1, 1);
    pg->versions_at = mem_calloc(p->nfns + 2, sizeof *pg->versions_at);
    pg->versions = mem_calloc(p->nfns + 1, sizeof *pg->versions);
    if (!pg->ready || !pg->by_query_at || !pg->by_query || !pg->fn_ready || !pg->versions_at ||
        !pg->versions)
        return false;
    /* the same counting sort for the fns' versions, by the fn they revise */
    for (size_t f = 0; f < p->nfns; f++)
        if (p->fns[f].version_of >= 0 && (size_t)p->fns[f].version_of < p->nfns)
            pg->versions_at[p->fns[f].version_of + 2]++;
    for (size_t f = 0; f < p->nfns; f++)
        pg->versions_at[f + 2] += pg->versions_at[f + 1];
    for (size_t f = 0; f < p->nfns; f++)
        if (p->fns[f].version_of >= 0 && (size_t)p->fns[f].version_of < p->nfns)
            pg->versions[pg->versions_at[p->fns[f].version_of + 1]++] = (uint32_t)f;
    /* a counting sort: at[q + 2] counts query q's rules, then at[q + 1] is where they go */
    for (size_t r = 0; r < p->nrules; r++)
        if (p->rules[r].edition >= -1 && p->rules[r].query < p->nqueries)
            pg->by_query_at[p->rules[r].query + 2]++;
    for (size_t q = 0; q < p->nqueries; q++)
        pg->by_query_at[q + 2] += pg->by_query_at[q + 1];
    for (size_t r = 0; r < p->nrules; r++)
        if (p->rules[r].edition >= -1 && p->rules[r].query < p->nqueries)
            pg->by_query[pg->by_query_at[p->rules[r].query + 1]++] = (uint32_t)r;
    return true;
}

/* Lazily: the fns the tests' chunks call (fns_ready); false on OOM. */
static bool tests_ready(const prog *pg)
{
    const res_program *p = pg->res;
    for (size_t t = 0; t < p->ntests; t++) {
        for (size_t e = 0; e < p->tests[t].nexpects; e++) {
            const prog_expect *pe = &pg->expects[t][e];
            const chunk *const three[] = { pe->whole, pe->lhs, pe->rhs };
            if (!fns_ready(pg, three, 3, -1))
                return false;
        }
        const ast_node *cs = p->tests[t].choices;
        if (cs && pg->choices[t] &&
            !fns_ready(pg, (const chunk *const *)pg->choices[t], cs->list.len, -1))
            return false;
    }
    return true;
}

/* Compiles everything (lazily: the tests' chunks and the fns they call); false after
 * reporting (E199) when something could not be. */
static bool compile_all(prog *pg, diag_list *d)
{
    const res_program *p = pg->res;
    pg->rules = mem_calloc(p->nrules + 1, sizeof *pg->rules);
    pg->explained = mem_calloc(p->nrules + 1, sizeof *pg->explained);
    pg->source = mem_calloc(1, sizeof *pg->source);
    pg->fns = mem_calloc(p->nfns + 1, sizeof *pg->fns);
    pg->defaults = mem_calloc(p->nqueries + 1, sizeof *pg->defaults);
    pg->expects = mem_calloc(p->ntests + 1, sizeof *pg->expects);
    pg->choices = mem_calloc(p->ntests + 1, sizeof *pg->choices);
    pg->combined = mem_calloc((p->neditions + 1) * p->nqueries + 1, sizeof *pg->combined);
    if (!pg->rules || !pg->explained || !pg->source || !pg->fns || !pg->defaults || !pg->expects ||
        !pg->choices || !pg->combined)
        return false;
    *pg->source = (comp_source){ (const ast_file *const *)pg->files, pg->nfiles, NULL };
    if (pg->lazy) {
        if (!index_rules(pg))
            return false;
    } else {
        for (size_t i = 0; i < p->nrules; i++)
            if (p->rules[i].edition >= -1 && !(pg->rules[i] = comp_rule(p, (uint32_t)i, d)))
                return false;
        for (size_t i = 0; i < p->nqueries; i++)
            if (p->queries[i].dflt && !(pg->defaults[i] = comp_default(p, (uint32_t)i, d)))
                return false;
        for (size_t i = 0; i < p->nfns; i++)
            if (!(pg->fns[i] = comp_fn(p, (uint32_t)i, d)))
                return false;
    }
    for (size_t t = 0; t < p->ntests; t++) {
        const res_test *rt = &p->tests[t];
        pg->expects[t] = mem_calloc(rt->nexpects + 1, sizeof *pg->expects[t]);
        if (!pg->expects[t])
            return false;
        if (rt->choices) {
            const ast_vec *cs = &rt->choices->list;
            pg->choices[t] = mem_calloc(cs->len + 1, sizeof *pg->choices[t]);
            if (!pg->choices[t])
                return false;
            for (uint32_t k = 0; k < cs->len; k++)
                if (!(pg->choices[t][k] =
                          comp_expr(p, cs->items[k], rt->choices_nlocals, "choice", d)))
                    return false;
        }
        for (size_t e = 0; e < rt->nexpects; e++) {
            const ast_node *x = rt->expects[e].node;
            const ast_node *ex = x->a;
            prog_expect *pe = &pg->expects[t][e];
            uint32_t nl = rt->expects[e].nlocals;
            if (x->kind == AST_TEST_ADVANCE)
                continue;
            if (x->kind == AST_TEST_DO) {
                if (!(pe->whole = comp_procedure(p, ex, nl, "do", d)))
                    return false;
                continue;
            }
            if (x->kind == AST_TEST_MOVE) {
                pe->lhs = comp_expr(p, x->a, nl, "move (unit)", d);
                pe->rhs = comp_expr(p, x->b, nl, "move (path)", d);
                if (!pe->lhs || !pe->rhs)
                    return false;
                continue;
            }
            if (!x->ival && ex && ex->kind == AST_BINARY && ex->op == AST_OP_EQ) {
                pe->lhs = comp_expr(p, ex->a, nl, "expect (left side)", d);
                pe->rhs = comp_expr(p, ex->b, nl, "expect (right side)", d);
                if (!pe->lhs || !pe->rhs)
                    return false;
            } else if (!(pe->whole = comp_expr(p, ex, nl, "expect", d))) {
                return false;
            }
        }
    }
    return !pg->lazy || tests_ready(pg);
}

prog *prog_build(ast_file **files, size_t nfiles, bool lazy, bool defer, diag_list *diags)
{
    prog *pg = mem_calloc(1, sizeof *pg);
    if (!pg) {
        for (size_t i = 0; i < nfiles; i++)
            ast_file_free(files[i]);
        mem_free(files);
        diag_report(diags, E_LIMIT, DIAG_ERROR, (ast_loc){ 0 }, "out of memory");
        return NULL;
    }
    static _Atomic uint64_t builds;
    pg->serial = ++builds;
    pg->files = files;
    pg->nfiles = nfiles;
    pg->lazy = lazy;
    pg->res = res_resolve_as(files, nfiles, lazy && defer, diags);
    if (!pg->res) {
        prog_free(pg);
        return NULL;
    }
    size_t errors = diags->errors;
    if (!compile_all(pg, diags)) {
        if (diags->errors == errors)
            diag_report(diags, E_LIMIT, DIAG_ERROR, (ast_loc){ 0 },
                        "out of memory while compiling");
        prog_free(pg);
        return NULL;
    }
    return pg;
}

bool prog_make_ready(const prog *pg, uint32_t q)
{
    if (!pg->lazy || q >= pg->res->nqueries || pg->ready[q])
        return true;
    diag_list dl; /* the program resolved: only memory can fail here */
    diag_list_init(&dl, NULL);
    bool ok = compile_query(pg, q, &dl);
    diag_list_clear(&dl);
    pg->ready[q] = ok;
    return ok;
}

bool prog_ready_all(const prog *pg)
{
    for (uint32_t q = 0; q < pg->res->nqueries; q++)
        if (!prog_ready(pg, q))
            return false;
    for (uint32_t f = 0; f < pg->res->nfns; f++)
        if (!prog_fn_ready(pg, f))
            return false;
    return true;
}

const chunk *prog_explained(const prog *pg, uint32_t r)
{
    if (r >= pg->res->nrules || !prog_ready(pg, pg->res->rules[r].query))
        return NULL;
    if (pg->explained[r])
        return pg->explained[r];
    chunk *ch = NULL;
    if (pg->rules[r] && pg->res->rules[r].decl->a) {
        diag_list dl; /* the rule compiled once already: only memory can fail here */
        diag_list_init(&dl, NULL);
        ch = comp_rule_explained(pg->res, r, pg->rules[r], pg->source, &dl);
        diag_list_clear(&dl);
    }
    pg->explained[r] = ch ? ch : pg->rules[r];
    return pg->explained[r];
}

/* comb_source's `ready`: prog_ready of the program in ctx. */
static bool ready_for_combine(const void *ctx, uint32_t q)
{
    return prog_ready(ctx, q);
}

const chunk *prog_combine(const prog *pg, int32_t ed, uint32_t q)
{
    const res_program *p = pg->res;
    if (q >= p->nqueries)
        return NULL;
    size_t e = ed >= 0 && (size_t)ed < p->neditions ? (size_t)ed + 1 : 0;
    chunk **slot = &pg->combined[e * p->nqueries + q];
    if (!*slot && !prog_ready(pg, q))
        return NULL; /* out of memory: asked again at the next call */
    if (!*slot) {
        const comb_source src = { .res = p,
                                  .rules = pg->rules,
                                  .fns = pg->fns,
                                  .defaults = pg->defaults,
                                  .ready = ready_for_combine,
                                  .ctx = pg };
        chunk *ch = comb_query(&src, e ? ed : -1, q, model_rules_of(p, e ? ed : -1, q));
        *slot = ch ? ch : &prog_no_combined;
    }
    return *slot == &prog_no_combined ? NULL : *slot;
}

void prog_combine_edition(const prog *pg, int32_t ed)
{
    for (uint32_t q = 0; pg && !pg->lazy && q < pg->res->nqueries; q++)
        prog_combine(pg, ed, q);
}

const ast_file *prog_file(const prog *pg, uint32_t file_id)
{
    for (size_t i = 0; pg && i < pg->nfiles; i++)
        if (pg->files[i] && pg->files[i]->file_id == file_id)
            return pg->files[i];
    return NULL;
}

const char *prog_file_path(const prog *pg, uint32_t file_id)
{
    const ast_file *f = prog_file(pg, file_id);
    return f && f->path ? f->path : "?";
}
