/* test_lazy.c — Check tests of a program built lazily (hon_build_lazily; program.h prog_ready;
 * bench.md §9): the load resolves everything, but compiles no fn, no rule's chunk, no query's
 * default and no combined chunk; a query's first call compiles its rules and default, the fns
 * they call (at any depth), then its combined chunk. Whatever is asked, the answers, the
 * traces, the errors and the load's diagnostics are those of the same program built eagerly;
 * memory running out at a first call is an E209 of that evaluation, and the next call
 * compiles what is left. An edition's rule sets are sorted when first asked, not at load.
 */
#include "interp_test.h"
#include "mem.h"
#include "program.h"
#include "session.h"

/* Queries of each combination mode (language.md §3.5), a fn, an edition that replaces a rule,
 * and queries that call queries:
 *   twice(n) = n + n (a fn).
 *   total(x), sum, default 10: 1, +2 when x > 0; total(3) = 13, total(0) = 11.
 *   least(x), min, no default: x when x > 0; least(0): no rule answers, E203.
 *   every(x), all: x < 10.  some(x), any: x == 3.  may(x), permission: forbid when x > 5.
 *   pick(x), first, default 9: twice(x) when x > 1; pick(4) = 8, pick(1) = 9.
 *   outer(x), sum: pick(x) + total(x); outer(4) = 8 + 13 = 21.
 *   alone(x), first: the rules of no other query call it.
 * Under edition `double`, pick.more answers twice(twice(x)): pick(4) = 16, outer(4) = 29. */
static const char *const PROGRAM =
    "source \"T.1\" = \"this test's rules\";\n"
    "fn twice(n: int) -> int = n + n;\n"
    "query total(x: int) -> int combine sum default 10;\n"
    "rule total.one cite \"T.1\" answer 1;\n"
    "rule total.two cite \"T.1\" when x > 0 answer 2;\n"
    "query least(x: int) -> int combine min;\n"
    "rule least.x cite \"T.1\" when x > 0 answer x;\n"
    "query every(x: int) -> bool combine all;\n"
    "rule every.small cite \"T.1\" answer x < 10;\n"
    "query some(x: int) -> bool combine any;\n"
    "rule some.three cite \"T.1\" answer x == 3;\n"
    "query may(x: int) -> verdict combine permission;\n"
    "rule may.no cite \"T.1\" when x > 5 answer forbid;\n"
    "query pick(x: int) -> int combine first default 9;\n"
    "rule pick.more cite \"T.1\" when x > 1 answer twice(x);\n"
    "query outer(x: int) -> int combine sum;\n"
    "rule outer.calls cite \"T.1\" answer pick(x) + total(x);\n"
    "query alone(x: int) -> int combine first;\n"
    "rule alone.one cite \"T.1\" answer x;\n"
    "edition double { replace rule pick.more cite \"T.1\" when x > 1 answer twice(twice(x)); }\n";

/* A session of src, built lazily or not (the load must succeed). */
static tvm *session_of(const char *src, bool lazy)
{
    tvm *t = tvm_new(NULL);
    ck_assert_int_eq(hon_build_lazily(t->vm, lazy), HON_OK);
    hon_status st = hon_load_source(t->vm, "t.hon", src, strlen(src));
    ck_assert_msg(st == HON_OK, "load failed (%s):\n%s", hon_status_text(st), t->log);
    return t;
}

static uint32_t query_id(const tvm *t, const char *name)
{
    int32_t q = model_find_query(t->vm->pg->res, name);
    ck_assert_int_ge(q, 0);
    return (uint32_t)q;
}

/* Whether query q's rule chunks and default are there. */
static bool rules_compiled(const tvm *t, const char *name)
{
    const prog *pg = t->vm->pg;
    uint32_t q = query_id(t, name);
    const res_ruleset *rs = model_rules_of(pg->res, -1, q);
    for (size_t i = 0; i < rs->len; i++)
        if (!pg->rules[rs->rules[i]])
            return false;
    return !pg->res->queries[q].dflt || pg->defaults[q];
}

/* Whether query q's rule chunks, default and combined chunk (top-level rules) are there. */
static bool compiled(const tvm *t, const char *name)
{
    return rules_compiled(t, name) && t->vm->pg->combined[query_id(t, name)] != NULL;
}

START_TEST(a_lazy_load_compiles_no_rule)
{
    tvm *t = session_of(PROGRAM, true);
    const prog *pg = t->vm->pg;
    ck_assert(pg->lazy);
    /* no fn, rule, default nor combined chunk */
    for (size_t f = 0; f < pg->res->nfns; f++)
        ck_assert_ptr_null(pg->fns[f]);
    for (size_t r = 0; r < pg->res->nrules; r++)
        ck_assert_ptr_null(pg->rules[r]);
    for (size_t q = 0; q < pg->res->nqueries; q++) {
        ck_assert_ptr_null(pg->defaults[q]);
        ck_assert(!pg->ready[q]);
    }
    for (size_t i = 0; i < (pg->res->neditions + 1) * pg->res->nqueries; i++)
        ck_assert_ptr_null(pg->combined[i]);
    /* outer(4) = pick(4) + total(4) = 8 + 13: outer's first call compiles outer, and the calls
     * its chunk makes compile pick and total; no other query is asked. pick (`first`, a
     * default, one small rule) is copied into outer's combined chunk (vm.md §5a): its rules
     * and default compiled for the copy, its own combined chunk never needed */
    ck_assert_str_eq(ev_as(t, "outer(4)", false), "21");
    ck_assert(compiled(t, "outer") && rules_compiled(t, "pick") && compiled(t, "total"));
    ck_assert_ptr_null(pg->combined[query_id(t, "pick")]);
    ck_assert(!compiled(t, "alone") && !compiled(t, "least") && !compiled(t, "some"));
    /* pick.more calls twice, and so does double's replacement of it: twice's chunk is made
     * with pick's rules */
    int32_t twice = model_find_fn(pg->res, "twice");
    ck_assert_int_ge(twice, 0);
    ck_assert_ptr_nonnull(pg->fns[twice]);
    ck_assert(pg->fn_ready[twice]);
    /* a fn called from C is compiled on that call (hon_eval of a fn alone goes through the
     * typed expression's chunk, whose calls are made ready before it runs) */
    tvm *f = session_of("fn one() -> int = 1;\nfn two() -> int = one() + one();\n", true);
    ck_assert_ptr_null(f->vm->pg->fns[0]);
    ck_assert_str_eq(ev_as(f, "two()", false), "2");
    ck_assert_ptr_nonnull(f->vm->pg->fns[0]);
    ck_assert_ptr_nonnull(f->vm->pg->fns[1]);
    tvm_free(f);
    /* a query's rules under every edition at once: pick.more and double's replacement */
    uint32_t pick = query_id(t, "pick");
    for (uint32_t i = pg->by_query_at[pick]; i < pg->by_query_at[pick + 1]; i++)
        ck_assert_ptr_nonnull(pg->rules[pg->by_query[i]]);
    ck_assert_uint_eq(pg->by_query_at[pick + 1] - pg->by_query_at[pick], 2);
    /* the same program built eagerly has them all */
    tvm *e = session_of(PROGRAM, false);
    ck_assert(!e->vm->pg->lazy);
    for (size_t r = 0; r < e->vm->pg->res->nrules; r++)
        ck_assert_ptr_nonnull(e->vm->pg->rules[r]);
    ck_assert(compiled(e, "alone") && compiled(e, "least"));
    tvm_free(e);
    tvm_free(t);
}
END_TEST

/* The expressions compare_modes asks, with the answer each must give (from PROGRAM's comment;
 * NULL: the same as under the eager build, which other tests check). */
static const char *const ASKED[][2] = { { "total(3)", "13" },      { "total(0)", "11" },
                                        { "least(2)", "2" },       { "least(0)", "E203" },
                                        { "every(3)", "true" },    { "some(4)", "false" },
                                        { "may(6)", "forbid" },    { "may(1)", "permit" },
                                        { "pick(4)", "8" },        { "pick(1)", "9" },
                                        { "outer(4)", "21" },      { "twice(alone(3))", "6" },
                                        { "least(0) + 1", "E203" } };

/* Every expression of ASKED, traced and not, each first in a fresh session so that it is the
 * one that compiles what it asks: answer and trace as the eager build's. */
static void compare_modes(const char *edition)
{
    for (size_t i = 0; i < sizeof ASKED / sizeof ASKED[0]; i++) {
        for (int traced = 0; traced < 2; traced++) {
            tvm *l = session_of(PROGRAM, true), *e = session_of(PROGRAM, false);
            if (edition) {
                ck_assert_int_eq(hon_set_edition(l->vm, edition), HON_OK);
                ck_assert_int_eq(hon_set_edition(e->vm, edition), HON_OK);
            }
            char lazy[8192];
            snprintf(lazy, sizeof lazy, "%s", ev_as(l, ASKED[i][0], traced));
            ck_assert_msg(strcmp(lazy, ev_as(e, ASKED[i][0], traced)) == 0,
                          "%s (traced %d): lazily %s, eagerly %s", ASKED[i][0], traced, lazy,
                          e->last);
            if (!edition)
                ck_assert_msg(strcmp(lazy, ASKED[i][1]) == 0, "%s: %s, expected %s", ASKED[i][0],
                              lazy, ASKED[i][1]);
            ck_assert_str_eq(l->log, e->log); /* the errors' text, with their places */
            if (traced && lazy[0] != 'E') {
                snprintf(lazy, sizeof lazy, "%s", why(l, ASKED[i][0]));
                ck_assert_str_eq(lazy, why(e, ASKED[i][0]));
            }
            tvm_free(l);
            tvm_free(e);
        }
    }
}

START_TEST(lazy_answers_as_eager)
{
    compare_modes(NULL);
    compare_modes("double");
    /* double's own answers, worked out in PROGRAM's comment */
    tvm *t = session_of(PROGRAM, true);
    ck_assert_int_eq(hon_set_edition(t->vm, "double"), HON_OK);
    ck_assert_str_eq(ev_as(t, "outer(4)", false), "29");
    ck_assert_str_eq(ev(t, "pick(4)"), "16");
    /* back to the top-level rules: pick's chunks are there already, its combined chunk for
     * them is made now */
    ck_assert_int_eq(hon_set_edition(t->vm, NULL), HON_OK);
    ck_assert_str_eq(ev_as(t, "outer(4)", false), "21");
    tvm_free(t);
}
END_TEST

START_TEST(a_lazy_load_reports_as_an_eager_one)
{
    /* Every error of a load is the resolver's (the compiler's own are memory running out):
     * built lazily or not, a broken program reports the same diagnostics, rendered alike, and
     * loads nothing. Here an unknown name (E101-style) in a rule and a type mismatch in a
     * default. */
    const char *const broken = "source \"T.1\" = \"this test's rules\";\n"
                               "query q(x: int) -> int combine first default x == 1;\n"
                               "rule q.a cite \"T.1\" answer nowhere + x;\n";
    tvm *l = tvm_new(NULL), *e = tvm_new(NULL);
    hon_build_lazily(l->vm, true);
    ck_assert_int_eq(hon_load_source(l->vm, "t.hon", broken, strlen(broken)), HON_ERR_COMPILE);
    ck_assert_int_eq(hon_load_source(e->vm, "t.hon", broken, strlen(broken)), HON_ERR_COMPILE);
    ck_assert_uint_ge(e->ndiags, 2);
    ck_assert_uint_eq(l->ndiags, e->ndiags);
    ck_assert_str_eq(l->log, e->log);
    ck_assert_str_eq(ev(l, "q(1)"), ev(e, "q(1)")); /* no q: the same error */
    tvm_free(l);
    tvm_free(e);
}
END_TEST

/* Whether some rule chunk is compiled while one of the queries outer(4) asks is not ready. */
static bool partly_compiled(const tvm *t)
{
    const prog *pg = t->vm->pg;
    bool some = false;
    for (size_t r = 0; r < pg->res->nrules; r++)
        some = some || pg->rules[r];
    return some && !(pg->ready[query_id(t, "outer")] && pg->ready[query_id(t, "pick")] &&
                     pg->ready[query_id(t, "total")]);
}

START_TEST(memory_failing_at_a_first_call)
{
    /* For N = 0, 1, 2...: a fresh lazy session (loaded with no failure) asks outer(4) with its
     * Nth allocation and every later one failing. Nothing may crash; a failure is an error of
     * the evaluation (E209, though with no memory left it cannot be rendered); then, with
     * memory back, the session answers 21, traced and not, whatever was compiled before the
     * failure. Ends at the first N with no failure; some N must have failed in the middle of
     * compiling the three queries outer(4) asks (partly_compiled). */
    bool compiling_failed = false;
    long n;
    for (n = 0;; n++) {
        for (int traced = 0; traced < 2; traced++) {
            tvm *t = session_of(PROGRAM, true);
            mem_fail_after(n);
            const char *got = ev_as(t, "outer(4)", traced);
            long failed = mem_failed_count();
            mem_fail_reset();
            if (failed && partly_compiled(t))
                compiling_failed = true;
            if (!failed)
                ck_assert_str_eq(got, "21");
            ck_assert_str_eq(ev_as(t, "outer(4)", false), "21");
            ck_assert_str_eq(ev(t, "outer(4)"), "21");
            tvm_free(t);
            if (!failed && traced)
                goto done;
        }
    }
done:
    ck_assert_msg(compiling_failed, "no sweep reached the compiling of a first call (%ld)", n);
}
END_TEST

START_TEST(a_copy_is_lazy_too)
{
    tvm *t = session_of(PROGRAM, true);
    hon_vm *c = hon_vm_copy(t->vm);
    ck_assert_ptr_nonnull(c);
    ck_assert(c->pg->lazy);
    ck_assert_ptr_null(c->pg->rules[0]);
    hon_vm_free(c);
    ck_assert_int_eq(hon_build_lazily(NULL, true), HON_ERR_NOT_FOUND);
    tvm_free(t);
}
END_TEST

/* A view's rule sets are sorted when the view is first asked (model_rules_of; bench.md §9),
 * not at load. Under no edition q's rules are one (0), two (5), three (5), low (-1): two and
 * three tie at priority 5 and keep their order, so q() = 2. Edition `up` adds top (9), first:
 * q() = 5, its set top, two, three, one, low. Edition `other` replaces r.a: r() = 20. */
static const char *const VIEWS = "source \"T.1\" = \"this test's rules\";\n"
                                 "query q() -> int combine first;\n"
                                 "rule q.one cite \"T.1\" answer 1;\n"
                                 "rule q.two priority 5 cite \"T.1\" answer 2;\n"
                                 "rule q.three priority 5 cite \"T.1\" answer 3;\n"
                                 "rule q.low priority -1 cite \"T.1\" answer 4;\n"
                                 "query r() -> int combine sum;\n"
                                 "rule r.a cite \"T.1\" answer 10;\n"
                                 "edition up { rule q.top priority 9 cite \"T.1\" answer 5; }\n"
                                 "edition other { replace rule r.a cite \"T.1\" answer 20; }\n";

START_TEST(rule_sets_sorted_when_first_asked)
{
    tvm *t = session_of(VIEWS, true);
    const res_program *p = t->vm->pg->res;
    int32_t up = model_find_edition(p, "up"), other = model_find_edition(p, "other");
    ck_assert(up >= 0 && other >= 0);
    /* nothing asked: no view sorted */
    ck_assert_ptr_nonnull(p->base_rules);
    ck_assert_ptr_nonnull(p->editions[up].set_rules);
    ck_assert_ptr_nonnull(p->editions[other].set_rules);
    /* q under no edition sorts the top-level view only */
    ck_assert_str_eq(ev_as(t, "q()", false), "2");
    ck_assert_ptr_null(p->base_rules);
    ck_assert_ptr_nonnull(p->editions[up].set_rules);
    ck_assert_ptr_nonnull(p->editions[other].set_rules);
    /* then up's */
    ck_assert_int_eq(hon_set_edition(t->vm, "up"), HON_OK);
    ck_assert_str_eq(ev_as(t, "q()", false), "5");
    ck_assert_ptr_null(p->editions[up].set_rules);
    ck_assert_ptr_nonnull(p->editions[other].set_rules);
    const res_ruleset *rs = model_rules_of(p, up, query_id(t, "q"));
    static const char *const order[] = { "q.top", "q.two", "q.three", "q.one", "q.low" };
    ck_assert_uint_eq(rs->len, 5);
    for (size_t i = 0; i < 5; i++)
        ck_assert_str_eq(p->rules[rs->rules[i]].name, order[i]);
    ck_assert_int_eq(hon_set_edition(t->vm, "other"), HON_OK);
    ck_assert_str_eq(ev_as(t, "r()", false), "20");
    ck_assert_ptr_null(p->editions[other].set_rules);
    /* the same answers built eagerly */
    tvm *e = session_of(VIEWS, false);
    ck_assert_str_eq(ev_as(e, "q()", false), "2");
    ck_assert_int_eq(hon_set_edition(e->vm, "up"), HON_OK);
    ck_assert_str_eq(ev_as(e, "q()", false), "5");
    ck_assert_int_eq(hon_set_edition(e->vm, "other"), HON_OK);
    ck_assert_str_eq(ev_as(e, "r()", false), "20");
    tvm_free(e);
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lazy");
    TCase *tc = tcase_create("lazy");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_lazy_load_compiles_no_rule);
    tcase_add_test(tc, lazy_answers_as_eager);
    tcase_add_test(tc, a_lazy_load_reports_as_an_eager_one);
    tcase_add_test(tc, memory_failing_at_a_first_call);
    tcase_add_test(tc, a_copy_is_lazy_too);
    tcase_add_test(tc, rule_sets_sorted_when_first_asked);
    suite_add_tcase(s, tc);
    return check_run(s);
}
