/* combined_test.h — helpers shared by the Check tests of combined chunks (test_combined.c,
 * test_pairs.c): an answer traced (the rules one by one, hon_eval) and untraced (the combined
 * chunks, hon_eval_as with no trace) compared, the instructions of a combined chunk counted, the
 * place an E207 message names. Included after interp_test.h; each test file includes it once.
 */
#ifndef HON_TESTS_COMBINED_TEST_H
#define HON_TESTS_COMBINED_TEST_H

#include "interp_test.h"
#include "program.h"
#include "session.h"

/* The answer to e untraced (the combined chunks): its text, or "E2xx". */
static inline const char *untraced(tvm *t, const char *e)
{
    return ev_as(t, e, false);
}

/* e answers `want` both traced (rules one by one) and untraced (combined). */
static inline void both(tvm *t, const char *e, const char *want)
{
    ck_assert_msg(strcmp(ev(t, e), want) == 0, "traced %s: %s, expected %s", e, t->last, want);
    ck_assert_msg(strcmp(untraced(t, e), want) == 0, "untraced %s: %s, expected %s", e, t->last,
                  want);
}

/* How many instructions op the combined chunk of query `name` (top-level rules) holds. */
static inline int count_op(const hon_vm *vm, const char *name, uint32_t op)
{
    const prog *pg = vm->pg;
    const res_program *p = pg->res;
    int n = 0;
    for (uint32_t q = 0; q < p->nqueries; q++) {
        const chunk *ch = pg->combined[q];
        if (strcmp(p->queries[q].name, name) != 0 || !ch || ch == &prog_no_combined)
            continue;
        for (size_t pc = 0; pc < ch->len; pc += 1 + op_operands[ch->code[pc]])
            n += ch->code[pc] == op;
    }
    return n;
}

/* The `in ...` of the E207 message in t's log, copied into buf (n bytes); "" when none. */
static inline const char *budget_where(const tvm *t, char *buf, size_t n)
{
    const char *in = strstr(t->log, "exhausted");
    in = in ? strstr(in, " in ") : NULL;
    size_t len = in ? strcspn(in, "\n(") : 0;
    snprintf(buf, n, "%.*s", (int)len, in ? in : "");
    return buf;
}

/* A vm of program src with board scn loaded (NULL: none), its budget `budget` (0: the
 * default). */
static inline tvm *board_vm(const char *src, const char *scn, unsigned long budget)
{
    tvm *t = tvm_new_cfg(src, budget, 0);
    if (scn)
        ck_assert_int_eq(hon_load_board_source(t->vm, "b.scn", scn, strlen(scn)), HON_OK);
    return t;
}

/* The fewest step budget under which e answers on program src with board scn (NULL: none),
 * traced (the rules one by one) or not: a bisection over budgets. */
static inline unsigned long fewest_steps_on(const char *src, const char *scn, const char *e,
                                            bool traced)
{
    unsigned long lo = 1, hi = 1 << 16;
    while (lo + 1 < hi) {
        unsigned long mid = (lo + hi) / 2;
        tvm *v = board_vm(src, scn, mid);
        hon_answer *a = NULL;
        hon_status st =
            traced ? hon_eval(v->vm, e, "<test>", &a) : hon_eval_as(v->vm, e, "<test>", 0, &a);
        hon_answer_free(a);
        tvm_free(v);
        if (st == HON_OK)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

#endif
