/* program.h — the compiled program: the resolved declarations plus a chunk per rule, fn,
 * query default and test expectation, and the explained chunk a rule runs while traced.
 *
 * prog_build runs resolver (dsl/resolve.c) and compiler (compile.c) over every loaded file;
 * a prog is immutable once built (except that REPL expressions may intern new types, that a
 * rule's explained chunk is compiled on its first traced run, a query's combined chunks
 * when first asked for or by prog_combine_edition, and, in a program built lazily, a query's
 * rule chunks, default and the fns they call on its first call: prog_ready, prog_fn_ready)
 * and is what the VM (vm.c) evaluates against. load.c swaps whole progs on reload: all or
 * nothing.
 */
#ifndef HON_PROGRAM_H
#define HON_PROGRAM_H

#include "chunk.h"
#include "compile.h"
#include "diag.h"
#include "model.h"

/* A test's item. `expect`: `whole` for most; for `expect a == b` the two sides, so a failure
 * can show the actual value. `do EVENT(args)`: `whole` raises the event (comp_procedure).
 * `move U along PATH`: lhs gives the unit, rhs the path. `advance to P`: no chunk. */
typedef struct prog_expect {
    chunk *whole;
    chunk *lhs, *rhs;
} prog_expect;

typedef struct prog {
    uint64_t serial; /* this build's number, from 1, never reused in the process (memo.h) */
    res_program *res;
    ast_file **files; /* owned, in load order */
    size_t nfiles;
    chunk **rules;       /* one per res->rules (lazily: NULL until its query is ready) */
    chunk **explained;   /* one per res->rules, run instead while tracing (prog_explained):
                              NULL until the rule first runs traced */
    comp_source *source; /* the files' text, for prog_explained to quote guards */
    /* per edition (index edition + 1; 0: the top-level rules) and query, its combined chunk
     * (prog_combined): NULL until built (prog_combine_edition, or the first call),
     * prog_no_combined when there is none */
    chunk **combined;
    chunk **fns;           /* one per res->fns */
    chunk **defaults;      /* one per res->queries; NULL when the query has no default (or,
                              lazily, until it is ready) */
    prog_expect **expects; /* per test, one per expect */
    chunk ***choices;      /* per test, one per scripted choice (`choices [..]`), or NULL */
    /* Built lazily (prog_build's `lazy`; bench.md §9): the rules' chunks and the queries'
     * defaults are compiled per query on its first call (prog_ready), its combined chunks
     * then too, never all at the build. ready[q]: query q's are compiled;
     * by_query[by_query_at[q] .. by_query_at[q + 1]): the rules of query q, under every
     * edition. Both NULL when built eagerly. */
    bool lazy;
    uint8_t *ready;
    uint32_t *by_query, *by_query_at;
    /* Lazily, the fns too: fn_ready[f]: fn f's chunk and those of every fn it calls, at any
     * depth, are compiled (prog_fn_ready); versions[versions_at[f] .. versions_at[f + 1]):
     * the editions' versions of declared fn f (a call of f runs the edition's: fn_of). */
    uint8_t *fn_ready;
    uint32_t *versions, *versions_at;
} prog;

/* Resolves and compiles the files (in load order) into a new program. Takes ownership of the
 * files array and every file in it, in all cases (they are freed on failure). Errors go to
 * diags; returns NULL when there were any. `lazy`: the rules' chunks and the queries'
 * defaults are left for each query's first call (prog_ready) and prog_combine_edition does
 * nothing, for a session that answers once (`hon eval`: hon_build_lazily); the fns too, each
 * compiled when a chunk that calls it is (prog_fn_ready). `defer` (only with lazy): the
 * bodies of the rules, fns and defaults are not even resolved until they are compiled
 * (res_resolve_as; prog_ready and prog_fn_ready resolve them first), for a set of files that
 * is known to build with no diagnostic (load.c's build record: the diagnostics those bodies
 * would give are never reported). Otherwise the tests' chunks and every
 * diagnostic of the resolver are made at the build either way. The
 * compiler's own errors are E199 only (memory, a size limit; resolve.h reports the rest):
 * lazily, a chunk that cannot be made is an E209 of the evaluation that needed it. */
prog *prog_build(ast_file **files, size_t nfiles, bool lazy, bool defer, diag_list *diags);
void prog_free(prog *p);

/* The chunk rule r runs while tracing (vm.md §6a): its explained chunk (comp_rule_explained),
 * compiled on the first call and kept in pg->explained (a cache: the one thing of a built
 * program that changes, besides the types REPL expressions intern); the plain chunk when the
 * rule has no guard, or when memory runs out (the trace then says less; the answer is the
 * same). Borrowed from pg. NULL only when pg is lazy and the rule's query could not be made
 * ready (prog_ready: memory); never after prog_ready succeeded for it. */
const chunk *prog_explained(const prog *pg, uint32_t r);

/* The combined chunk of query q under edition ed (-1: the top-level rules; combine.h), built
 * on the first call unless prog_combine_edition built it, and kept in pg->combined (a cache,
 * as prog_explained's); NULL when the query's rules cannot be combined, or (lazily) when
 * memory ran out making the query ready (prog_ready, which then says so). Borrowed from pg. */
const chunk *prog_combine(const prog *pg, int32_t ed, uint32_t q);
/* Builds the combined chunk of every query under edition ed (-1: the top-level rules) that is
 * not built yet, as prog_combine does on a first call. A session does it for its edition when
 * it loads a program and when it chooses an edition (load.c, choice.c), so that no answer
 * pays for building them (bench.md §11); about 3.5 M instructions for the bundled rules'
 * default edition. A query whose chunk memory ran out for runs its rules one by one, as after
 * a first prog_combine that ran out. Nothing when pg was built lazily. */
void prog_combine_edition(const prog *pg, int32_t ed);
/* What pg->combined holds for a query whose rules cannot be combined. */
extern chunk prog_no_combined;
/* prog_combine, the cached answer inline (the query driver asks it on every call). */
static inline const chunk *prog_combined(const prog *pg, int32_t ed, uint32_t q)
{
    const res_program *p = pg->res;
    size_t e = ed >= 0 && (size_t)ed < p->neditions ? (size_t)ed + 1 : 0;
    const chunk *ch = q < p->nqueries ? pg->combined[e * p->nqueries + q] : NULL;
    if (!ch)
        return prog_combine(pg, ed, q);
    return ch == &prog_no_combined ? NULL : ch;
}

/* Compiles query q's rule chunks (every rule of q, under any edition) and its default, when
 * pg was built lazily and they are not yet: what prog_combine, the query driver (calls.c),
 * events (proc.c) and the readers of chunks (memo.c, focus.c, lint.c, info.c) ask before
 * they read pg->rules or pg->defaults for q. True when they are there; false when memory
 * ran out (the chunks made so far are kept, and the next call tries the rest again). */
bool prog_make_ready(const prog *pg, uint32_t q);
static inline bool prog_ready(const prog *pg, uint32_t q)
{
    return !pg->lazy || pg->ready[q] || prog_make_ready(pg, q);
}
/* prog_ready for every query and prog_fn_ready for every fn: what a reader of the whole
 * program (focus.c, lint.c) asks first. */
bool prog_ready_all(const prog *pg);
/* Lazily: compiles fn f (any fn id, a version too), every version of every fn its chunk
 * calls, and theirs, at any depth, when they are not yet; what a call of a fn from C asks
 * (vm_call). The chunks of the rules and defaults prog_ready compiles, and the tests' chunks,
 * get theirs so, so that a CALL_FN never finds no chunk. True when they are there; false when
 * memory ran out (what was compiled is kept; the next call tries the rest). */
bool prog_make_fn_ready(const prog *pg, uint32_t f);
static inline bool prog_fn_ready(const prog *pg, uint32_t f)
{
    return !pg->lazy || pg->fn_ready[f] || prog_make_fn_ready(pg, f);
}
/* prog_fn_ready for every fn chunk ch calls (a chunk compiled outside the program: a typed
 * expression, session.c). */
bool prog_calls_ready(const prog *pg, const chunk *ch);

/* The name of the file a node comes from (its ast_file path), or "?". */
const char *prog_file_path(const prog *p, uint32_t file_id);
/* The ast_file with that diagnostics id, or NULL. */
const ast_file *prog_file(const prog *p, uint32_t file_id);

#endif
