/* test_combined.c — Check tests of a query's combined chunk and of small fns inlined into it
 * (vm.md §5a): an untraced evaluation (hon_eval_as with no form of the trace wanted) runs them,
 * a traced one (hon_eval) runs the rules one by one. For every combination mode the two must
 * give the answer language.md §3.5 gives (worked out below from the program, not from a run),
 * take the same steps, and fail with the same errors, E206 and E207 naming the fn or the rule.
 */
#include "combined_test.h"

/* One query per mode (language.md §3.5), each with a rule that always fires and rules whose
 * guards depend on x; small fns (twice, pos, pos_twice) that the combined chunks inline.
 *   total(x), sum from the default 10: always 1, +2 when x > 0, +4 when x > 5.
 *   least(x), min, no default: x when x > 0, 2 when x > 2; nothing fires for x <= 0 (E203).
 *   most(x), max, default 0: twice(x) when pos(x), 3 when x > 1.
 *   every(x), all: x < 10 when x > 0, x != 7 always.
 *   some(x), any: x == 3 when x > 0, x == -1 when x < 0.
 *   may(x), permission: forbid when x > 0, permit when x == 3.
 *   pick(x), first, default 9: 1 when x == 1, pos_twice(x) when x > 1. */
static const char *const PROGRAM =
    "source \"T.1\" = \"this test's rules\";\n"
    "fn twice(n: int) -> int = n + n;\n"
    "fn pos(n: int) -> bool = n > 0;\n"
    "fn pos_twice(n: int) -> int = if pos(n) then twice(n) else 0;\n"
    "query total(x: int) -> int combine sum default 10;\n"
    "rule total.one cite \"T.1\" answer 1;\n"
    "rule total.two cite \"T.1\" when x > 0 answer 2;\n"
    "rule total.four cite \"T.1\" when x > 5 answer 4;\n"
    "query least(x: int) -> int combine min;\n"
    "rule least.x cite \"T.1\" when x > 0 answer x;\n"
    "rule least.two cite \"T.1\" when x > 2 answer 2;\n"
    "query most(x: int) -> int combine max default 0;\n"
    "rule most.twice cite \"T.1\" when pos(x) answer twice(x);\n"
    "rule most.three cite \"T.1\" when x > 1 answer 3;\n"
    "query every(x: int) -> bool combine all;\n"
    "rule every.small cite \"T.1\" when x > 0 answer x < 10;\n"
    "rule every.not7 cite \"T.1\" answer x != 7;\n"
    "query some(x: int) -> bool combine any;\n"
    "rule some.three cite \"T.1\" when x > 0 answer x == 3;\n"
    "rule some.minus cite \"T.1\" when x < 0 answer x == -1;\n"
    "query may(x: int) -> verdict combine permission;\n"
    "rule may.no cite \"T.1\" when x > 0 answer forbid;\n"
    "rule may.yes cite \"T.1\" when x == 3 answer permit;\n"
    "query pick(x: int) -> int combine first default 9;\n"
    "rule pick.one cite \"T.1\" when x == 1 answer 1;\n"
    "rule pick.more cite \"T.1\" when x > 1 answer pos_twice(x);\n"
    "fn spin(n: int) -> int = if n == 0 then 0 else spin(n - 1) + 1;\n"
    "query deep(n: int) -> int combine first;\n"
    "rule deep.calls cite \"T.1\" answer twice(spin(n));\n"
    "query slow(n: int) -> int combine sum;\n"
    "rule slow.quick cite \"T.1\" answer 1;\n"
    "rule slow.loop cite \"T.1\" answer count(a in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]:\n"
    "  count(b in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]: count(c in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]:\n"
    "    a + b + c > n) > 0) > 0);\n";

START_TEST(every_mode_answers_as_its_rules_one_by_one)
{
    tvm *t = tvm_new(PROGRAM);
    both(t, "total(0)", "11"); /* 10 + 1 */
    both(t, "total(3)", "13"); /* 10 + 1 + 2 */
    both(t, "total(9)", "17"); /* 10 + 1 + 2 + 4 */
    both(t, "least(1)", "1");  /* only least.x */
    both(t, "least(5)", "2");  /* min(5, 2) */
    both(t, "least(0)", "E203");
    both(t, "most(0)", "0");       /* nothing fires: the default */
    both(t, "most(1)", "2");       /* twice(1) */
    both(t, "most(4)", "8");       /* max(8, 3) */
    both(t, "every(0)", "true");   /* only not7: 0 != 7 */
    both(t, "every(7)", "false");  /* small: true, then not7: false */
    both(t, "every(12)", "false"); /* small decides: 12 < 10 is false */
    both(t, "some(3)", "true");    /* three decides */
    both(t, "some(-1)", "true");   /* minus decides */
    both(t, "some(4)", "false");   /* three fires false, minus does not fire */
    both(t, "may(0)", "permit");   /* no rule fires */
    both(t, "may(1)", "forbid");   /* no forbids, yes does not fire */
    both(t, "may(3)", "permit");   /* yes is an exception that decides */
    both(t, "pick(1)", "1");
    both(t, "pick(5)", "10"); /* pos_twice(5) = twice(5) */
    both(t, "pick(0)", "9");  /* the default */
    tvm_free(t);
}
END_TEST

/* The fewest steps e needs under program src, untraced or traced (a bisection over the
 * budget). */
static unsigned long fewest_steps_of(const char *src, const char *e, bool traced)
{
    return fewest_steps_on(src, NULL, e, traced);
}

static unsigned long fewest_steps(const char *e, bool traced)
{
    return fewest_steps_of(PROGRAM, e, traced);
}

START_TEST(the_combined_chunks_take_the_rules_steps)
{
    /* Every rule's exit and every inlined call is one instruction for one (vm.md §5a), so
     * the budget an evaluation needs is the same either way. */
    const char *const calls[] = { "total(9) + least(5) + most(4)",
                                  "every(7) and not some(4) and may(3) == permit",
                                  "pick(5) + pick(0)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        ck_assert_uint_eq(fewest_steps(calls[i], false), fewest_steps(calls[i], true));
}
END_TEST

START_TEST(limits_name_the_fn_or_the_rule)
{
    /* deep(n): spin recurses n deep, under twice, inlined in deep.calls. With a depth limit
     * of 20, deep(10) fits (deep, spin's 11 frames) and deep(30) does not: E206 either way. */
    tvm *t = tvm_new_cfg(PROGRAM, 0, 20);
    both(t, "deep(10)", "20");
    both(t, "deep(30)", "E206");
    ck_assert_ptr_nonnull(strstr(t->log, "calling fn spin"));
    tvm_free(t);
    /* slow(n): its loop rule runs 10 x 10 x 10 iterations of several steps, beyond a budget
     * of 2,000 steps: E207 names the rule whose code ran, traced or not. */
    t = tvm_new_cfg(PROGRAM, 2000, 0);
    ck_ev(t, "slow(100)", "E207");
    ck_assert_ptr_nonnull(strstr(t->log, "in rule slow.loop"));
    ck_assert_str_eq(untraced(t, "slow(100)"), "E207");
    ck_assert_ptr_nonnull(strstr(t->log, "in rule slow.loop"));
    tvm_free(t);
}
END_TEST

/* A small fn inlined where each argument is one plain read (a local of the caller, a constant,
 * an int) reads them there, INLINE_FORWARD for INLINE_ENTER (combine.c, vm.md §5a); the others
 * are copied into the fn's locals as before: an argument computed (`x + 1`), or pushed on two
 * paths (an `if`: a jump lands on the second argument's read), or a parameter the fn reads other
 * than as a value or a record's field (`spread`'s loop over its list). Each answer worked out:
 *   close(x) for x = 4: add(x, 3) = 7 > 4 fires; sum2(pt{a: x, b: 2}) = 6; add(if x > 5 then x
 *     else 0, 1) = 1; add(x + 1, x) = 9; spread([x, 3]) = 4 + 3 = 7: 6 + 1 + 9 + 7 = 23.
 *   close(9): add(9, 3) = 12 > 4; sum2 = 11; add(9, 1) = 10; add(10, 9) = 19; spread = 12: 52.
 *   close(0): add(0, 3) = 3, not > 4: no rule, the default 5.
 * And the steps the untraced (combined) run needs are the traced run's. */
START_TEST(inlined_fns_read_their_arguments_in_place)
{
    const char *const src =
        "source \"T.1\" = \"this test's rules\";\n"
        "record pt { a: int, b: int }\n"
        "fn add(m: int, n: int) -> int = m + n;\n"
        "fn sum2(p: pt) -> int = p.a + p.b;\n"
        "fn spread(l: list<int>) -> int = sum(v in l: v);\n"
        "query close(x: int) -> int combine first default 5;\n"
        "rule close.r cite \"T.1\" when add(x, 3) > 4\n"
        "  answer (let q = pt{a: x, b: 2}; sum2(q)) + add(if x > 5 then x else 0, 1)\n"
        "         + add(x + 1, x) + spread([x, 3]);\n";
    tvm *t = tvm_new(src);
    /* forwarded: add(x, 3) and sum2(q); copied: the `if`, x + 1 and spread */
    ck_assert_int_eq(count_op(t->vm, "close", OP_INLINE_FORWARD), 2);
    ck_assert_int_eq(count_op(t->vm, "close", OP_INLINE_ENTER), 3);
    both(t, "close(4)", "23");
    both(t, "close(9)", "52");
    both(t, "close(0)", "5");
    tvm_free(t);
    for (int x = 0; x < 10; x += 4) {
        char e[32];
        snprintf(e, sizeof e, "close(%d)", x);
        ck_assert_uint_eq(fewest_steps_of(src, e, false), fewest_steps_of(src, e, true));
    }
}
END_TEST

/* The length of fn `name`'s chunk in words (compiled by then: after a call that reaches it). */
static size_t fn_words(const hon_vm *vm, const char *name)
{
    const prog *pg = vm->pg;
    for (uint32_t i = 0; i < pg->res->nfns; i++)
        if (strcmp(pg->res->fns[i].name, name) == 0 && pg->fns[i])
            return pg->fns[i]->len;
    return 0;
}

/* Fns of up to 160 words are copied into the combined chunk (INLINE_MAX_WORDS, combine.c,
 * vm.md §5a); a longer one keeps its frame. `mid` is twelve terms of `n * k` (six words each:
 * the read, the int, MUL, ADD), between 48 and 160 words; `big` is thirty, over 160: the test
 * checks both lengths before it relies on them. Each answer worked out: mid(n) = n * (1 + 2 +
 * ... + 12) = 78n; big(n) = n * (1 + ... + 30) = 465n. For x = 2: 156 + 930 = 1086. */
START_TEST(fns_up_to_160_words_are_copied_in)
{
    char src[2048] = "source \"T.1\" = \"this test's rules\";\nfn mid(n: int) -> int = 0";
    for (int k = 1; k <= 12; k++)
        snprintf(src + strlen(src), sizeof src - strlen(src), " + n * %d", k);
    snprintf(src + strlen(src), sizeof src - strlen(src), ";\nfn big(n: int) -> int = 0");
    for (int k = 1; k <= 30; k++)
        snprintf(src + strlen(src), sizeof src - strlen(src), " + n * %d", k);
    snprintf(src + strlen(src), sizeof src - strlen(src),
             ";\nquery both(x: int) -> int combine first;\n"
             "rule both.r cite \"T.1\" answer mid(x) + big(x);\n");
    tvm *t = tvm_new(src);
    both(t, "both(2)", "1086");
    size_t mid = fn_words(t->vm, "mid"), big = fn_words(t->vm, "big");
    ck_assert_msg(mid > 48 && mid <= 160, "mid is %zu words", mid);
    ck_assert_msg(big > 160, "big is %zu words", big);
    /* mid copied in (its argument one plain read: forwarded), big called */
    ck_assert_int_eq(count_op(t->vm, "both", OP_INLINE_FORWARD), 1);
    ck_assert_int_eq(count_op(t->vm, "both", OP_CALL_FN), 1);
    tvm_free(t);
    ck_assert_uint_eq(fewest_steps_of(src, "both(2)", false),
                      fewest_steps_of(src, "both(2)", true));
}
END_TEST

/* The rules and board of a_named_side_feature_is_one_instruction: four open squares in a
 * row, a wall on A1/B1 and on C1/D1. */
static const char *const WALLS =
    "source \"T.1\" = \"this test's rules\";\n"
    "terrain open; side_feature wall; side_feature hedge;\n"
    "query walled(a: square, b: square) -> bool combine first default false;\n"
    "rule walled.w cite \"T.1\" when side_has(side_between(a, b), wall) answer true;\n"
    "query walls(a: square, b: square) -> int combine first;\n"
    "rule walls.c cite \"T.1\"\n"
    "  answer count(s in line(a, b): not s.corner and side_has(s.side, wall));\n"
    "fn near_wall(sq: square) -> bool = len(sides_with(sq, wall)) > 0;\n"
    "fn near_hedge(sq: square) -> bool = len(sides_with(sq, hedge)) > 0;\n"
    "query nearby(sq: square) -> int combine first;\n"
    "rule nearby.r cite \"T.1\"\n"
    "  answer (if near_wall(sq) then 1 else 0) + (if near_hedge(sq) then 10 else 0);\n";
static const char *const WALL_BOARD = "size 4 x 1\nlegend . = open\nmap\n  1 . . . .\n"
                                      "side A1/B1 wall\nside C1/D1 wall\n";

/* The fewest steps e needs on WALLS and WALL_BOARD, untraced or traced (fewest_steps_of with
 * the board loaded). */
static unsigned long fewest_wall_steps(const char *e, bool traced)
{
    unsigned long lo = 1, hi = 1 << 16;
    while (lo + 1 < hi) {
        unsigned long mid = (lo + hi) / 2;
        tvm *v = tvm_new_cfg(WALLS, mid, 0);
        ck_assert_int_eq(hon_load_board_source(v->vm, "w.scn", WALL_BOARD, strlen(WALL_BOARD)),
                         HON_OK);
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

/* `side_has(sd, wall)`, a feature the rule names, is one SIDE_HAS_K in a combined chunk, the
 * constant its operand (combine.c; the plain chunk keeps CONST and SIDE_HAS), charged the two
 * steps: the answers and the steps needed are the traced run's. Worked out on WALL_BOARD:
 * walled(@A1, @B1) is true (the wall on A1/B1), walled(@B1, @C1) false (the default); the
 * line A1 -> D1 crosses A1/B1, B1/C1 and C1/D1, two of them walled: walls = 2; B1 -> C1
 * crosses only B1/C1: 0. */
START_TEST(a_named_side_feature_is_one_instruction)
{
    tvm *t = tvm_new(WALLS);
    ck_assert_int_eq(hon_load_board_source(t->vm, "w.scn", WALL_BOARD, strlen(WALL_BOARD)), HON_OK);
    ck_assert_int_eq(count_op(t->vm, "walled", OP_SIDE_HAS_K), 1);
    ck_assert_int_eq(count_op(t->vm, "walls", OP_SIDE_HAS_K), 1);
    ck_assert_int_eq(count_op(t->vm, "walls", OP_SIDE_HAS), 0);
    both(t, "walled(@A1, @B1)", "true");
    both(t, "walled(@B1, @C1)", "false");
    both(t, "walls(@A1, @D1)", "2");
    both(t, "walls(@B1, @C1)", "0");
    tvm_free(t);
    const char *const calls[] = { "walled(@A1, @B1)", "walls(@A1, @D1)" };
    for (size_t i = 0; i < 2; i++)
        ck_assert_uint_eq(fewest_wall_steps(calls[i], false), fewest_wall_steps(calls[i], true));
}
END_TEST

/* `len(sides_with(sq, f)) > 0`, f a feature the rule names (next_to_contour's shape), is one
 * SIDES_ANY_K in a combined chunk (combine.c; the plain chunk keeps CONST, BOARD, LEN, INT and
 * GT), charged the five steps: the answers and the steps needed are the traced run's. Worked
 * out on WALL_BOARD: every square has a walled side (A1 and C1 their east side, B1 and D1
 * their west side) and no square a hedge: nearby(sq) = 1 + 0 for each. */
START_TEST(a_square_next_to_a_named_side_feature_is_one_instruction)
{
    tvm *t = tvm_new(WALLS);
    ck_assert_int_eq(hon_load_board_source(t->vm, "w.scn", WALL_BOARD, strlen(WALL_BOARD)), HON_OK);
    ck_assert_int_eq(count_op(t->vm, "nearby", OP_SIDES_ANY_K), 2);
    ck_assert_int_eq(count_op(t->vm, "nearby", OP_BOARD), 0);
    both(t, "nearby(@A1)", "1");
    both(t, "nearby(@B1)", "1");
    both(t, "nearby(@D1)", "1");
    tvm_free(t);
    ck_assert_uint_eq(fewest_wall_steps("nearby(@C1)", false),
                      fewest_wall_steps("nearby(@C1)", true));
}
END_TEST

/* Whether every query of the session's program that has rules has its combined chunk under
 * edition ed (-1: the top-level rules) already built: the slot prog_combined reads is filled. */
static bool all_built(const hon_vm *vm, int32_t ed)
{
    const prog *pg = vm->pg;
    const res_program *p = pg->res;
    size_t e = ed >= 0 ? (size_t)ed + 1 : 0;
    for (uint32_t q = 0; q < p->nqueries; q++)
        if (model_rules_of(p, ed, q)->len && !pg->combined[e * p->nqueries + q])
            return false;
    return true;
}

START_TEST(the_chunks_are_built_before_the_first_answer)
{
    /* An answer does not pay for building its query's combined chunk (bench.md §11): the
     * load builds them for the default edition, here none (PROGRAM declares no edition, so the
     * top-level rules, -1). Every query of PROGRAM has rules, all of which combine (no dice,
     * no procedure, no $unit), so each slot holds a chunk, not prog_no_combined. */
    tvm *t = tvm_new(PROGRAM);
    const prog *pg = t->vm->pg;
    ck_assert_int_eq(pg->res->default_edition, -1);
    ck_assert(all_built(t->vm, -1));
    for (uint32_t q = 0; q < pg->res->nqueries; q++)
        ck_assert_ptr_ne(pg->combined[q], &prog_no_combined);
    tvm_free(t);
    /* An edition chosen by the session (not the default: `default edition plain`) has its chunks built when it is chosen, also before any answer; the one
     * rule it replaces answers under it, combined. */
    const char *const editions = "source \"T.1\" = \"this test's rules\";\n"
                                 "query q(x: int) -> int combine sum default 1;\n"
                                 "rule q.a cite \"T.1\" answer x;\n"
                                 "edition plain { }\n"
                                 "edition other { replace rule q.a cite \"T.1\" answer x + x; }\n"
                                 "default edition plain;\n";
    t = tvm_new(editions);
    const res_program *p = t->vm->pg->res;
    int32_t plain = model_find_edition(p, "plain"), other = model_find_edition(p, "other");
    ck_assert_int_eq(p->default_edition, plain);
    ck_assert(all_built(t->vm, plain));
    ck_assert(!all_built(t->vm, other));
    ck_assert_int_eq(hon_set_edition(t->vm, "other"), HON_OK);
    ck_assert(all_built(t->vm, other));
    ck_assert_str_eq(untraced(t, "q(3)"), "7"); /* the default 1, then 3 + 3 */
    tvm_free(t);
}
END_TEST

/* Queries asked from a combined chunk or an expression, untraced, run as frames of the
 * dispatch loop (vm.md §5a), their exits popping them: the answers, steps and errors of the
 * driver, whatever ends the chunk (a `first` rule's RETURN, the last rule's no answer, the
 * default then, a query with no rule answered by its default alone).
 *   down(n), first, default 0: down(n - 1) + 1 when n > 0, so down(n) = n, n + 1 calls deep.
 *   lone(x), first, no rule: its default x + 100.
 *   low(x), min, default 50: x when x > 5.
 *   outer(x), sum: down(x) + lone(x) + low(x); outer(3) = 3 + 103 + 50 = 156,
 *   outer(7) = 7 + 107 + 7 = 121. */
static const char *const QUERIES =
    "source \"T.1\" = \"this test's rules\";\n"
    "query down(n: int) -> int combine first default 0;\n"
    "rule down.more cite \"T.1\" when n > 0 answer down(n - 1) + 1;\n"
    "query lone(x: int) -> int combine first default x + 100;\n"
    "query low(x: int) -> int combine min default 50;\n"
    "rule low.big cite \"T.1\" when x > 5 answer x;\n"
    "query least(x: int) -> int combine min;\n"
    "rule least.x cite \"T.1\" when x > 0 answer x;\n"
    "query outer(x: int) -> int combine sum;\n"
    "rule outer.calls cite \"T.1\" answer down(x) + lone(x) + low(x);\n";

START_TEST(queries_run_as_frames_of_the_loop)
{
    tvm *t = tvm_new(QUERIES);
    /* each twice in one evaluation: the second call of a query runs as a frame of the loop
     * (the first decides whether the query is tabled, in the driver) */
    both(t, "outer(3) + outer(3)", "312");
    both(t, "outer(7) + outer(7)", "242");
    both(t, "lone(1) + lone(2)", "203");
    /* E203 at the second call, the one run as a frame: the call's column, either way */
    ck_assert_str_eq(untraced(t, "least(1) + least(0)"), "E203");
    ck_assert_ptr_nonnull(strstr(t->log, ":1:12: error[E203]"));
    tvm_clear(t);
    ck_ev(t, "least(1) + least(0)", "E203");
    ck_assert_ptr_nonnull(strstr(t->log, ":1:12: error[E203]"));
    tvm_free(t);
    const char *const calls[] = { "outer(3) + outer(7)", "down(6) + lone(1) + low(9)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        ck_assert_uint_eq(fewest_steps_of(QUERIES, calls[i], false),
                          fewest_steps_of(QUERIES, calls[i], true));
    /* the depth: down(n) is n + 1 nested calls, beside the expression's frame */
    t = tvm_new_cfg(QUERIES, 0, 20);
    both(t, "down(10)", "10");
    both(t, "down(40)", "E206");
    ck_assert_ptr_nonnull(strstr(t->log, "asking query down"));
    tvm_free(t);
    /* No C recursion per query call untraced: 200,000 nested calls (a limit raised to let
     * them) answer, where a C frame per call would have run out of the thread's stack. */
    t = tvm_new_cfg(QUERIES, 0, 300000);
    ck_assert_str_eq(untraced(t, "down(200000)"), "200000");
    tvm_free(t);
}
END_TEST

/* The default of a `first`, `min` or `max` query is copied into its combined chunk after the
 * rules (combine.c, vm.md §5a): the last rule's no-answer exit goes on into it (RULE_NEXT
 * under `first`; RULE_ELSE under `min` and `max`, which answers instead when a rule fed the
 * accumulator), where the frame used to switch to the default's own chunk (RULE_END); a query
 * with no rule is combined as its default alone. Answers worked out from QUERIES (above):
 * low(3) = 50 (low.big needs x > 5: the default), low(9) = 9, lone(4) = 4 + 100 = 104,
 * down(2) = down(1) + 1 = down(0) + 2 = 0 + 2 (the default at n = 0). SLOW_DEFAULT's
 * crawl(n) fires for n < 0 only; its default counts 10 x 10 x 10 sums, beyond a budget of
 * 2,000 steps: E207 names the default, traced or not. */
static const char *const SLOW_DEFAULT =
    "source \"T.1\" = \"this test's rules\";\n"
    "query crawl(n: int) -> int combine first default count(a in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]:\n"
    "  count(b in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]: count(c in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]:\n"
    "    a + b + c > n) > 0) > 0);\n"
    "rule crawl.neg cite \"T.1\" when n < 0 answer 0;\n";

START_TEST(the_default_runs_in_the_combined_chunk)
{
    tvm *t = tvm_new(QUERIES);
    ck_assert_int_eq(count_op(t->vm, "low", OP_RULE_ELSE), 1);
    ck_assert_int_eq(count_op(t->vm, "low", OP_RULE_END), 0);
    ck_assert_int_eq(count_op(t->vm, "down", OP_NO_ANSWER), 0);
    ck_assert_int_eq(count_op(t->vm, "down", OP_RETURN), 2);    /* the rule's, the default's */
    ck_assert_int_eq(count_op(t->vm, "lone", OP_RETURN), 1);    /* its default alone */
    ck_assert_int_eq(count_op(t->vm, "least", OP_RULE_END), 1); /* no default: as before */
    both(t, "low(3)", "50");
    both(t, "low(9)", "9");
    both(t, "lone(4)", "104");
    both(t, "down(2)", "2");
    both(t, "low(3) + low(9) + lone(4) + down(2)", "165");
    tvm_free(t);
    const char *const calls[] = { "low(3) + low(3)", "lone(4) + lone(4)", "down(2) + low(9)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        ck_assert_uint_eq(fewest_steps_of(QUERIES, calls[i], false),
                          fewest_steps_of(QUERIES, calls[i], true));
    t = tvm_new_cfg(SLOW_DEFAULT, 2000, 0);
    both(t, "crawl(-1)", "0");
    ck_ev(t, "crawl(100)", "E207");
    ck_assert_ptr_nonnull(strstr(t->log, "in default of crawl"));
    tvm_clear(t);
    ck_assert_str_eq(untraced(t, "crawl(100)"), "E207");
    ck_assert_ptr_nonnull(strstr(t->log, "in default of crawl"));
    tvm_free(t);
}
END_TEST

/* A value tested as soon as it is made is one instruction in a combined chunk (combine.c):
 * an inlined fn's end and the test of its value (LEAVE_JUMP_IF_FALSE: `when pos(x)`), a
 * local record's field and its test (JUMP_IF_FIELD_FALSE: `if r.lit`), each taking the two
 * steps of the pair. Answers worked out from FUSED: seen(clear, 1): pos(1), r = (true, 1),
 * r.lit: 1 + 1 = 2; seen(fog, 1): r.lit false: 7; seen(clear, 0): pos(0) fails, the default
 * 0; seen(rain, 1): r.lit is a `?` cell: E201 at `r.lit` (line 6, column 65: `rule seen.lit cite "T.1" when pos(x) answer (let r = sky[w]; if ` is 64 characters), either way;
 * seen(rain, 0): the guard fails before the read: 0. The budget each needs is the same
 * traced and untraced. */
static const char *const FUSED = "source \"T.1\" = \"this test's rules\";\n"
                                 "enum weather { clear, rain, fog }\n"
                                 "table sky(w: weather) -> (lit: bool, n: int) { clear => true, 1; "
                                 "rain => ?, 2; fog => false, 3; }\n"
                                 "fn pos(n: int) -> bool = n > 0;\n"
                                 "query seen(w: weather, x: int) -> int combine first default 0;\n"
                                 "rule seen.lit cite \"T.1\" when pos(x) answer (let r = sky[w]; "
                                 "if r.lit then r.n + x else 7);\n";

START_TEST(a_value_tested_at_once_is_one_instruction)
{
    tvm *t = tvm_new(FUSED);
    ck_assert_int_eq(count_op(t->vm, "seen", OP_LEAVE_JUMP_IF_FALSE), 1);
    ck_assert_int_eq(count_op(t->vm, "seen", OP_JUMP_IF_FIELD_FALSE), 1);
    ck_assert_int_eq(count_op(t->vm, "seen", OP_INLINE_LEAVE), 0);
    both(t, "seen(clear, 1)", "2");
    both(t, "seen(fog, 1)", "7");
    both(t, "seen(clear, 0)", "0");
    both(t, "seen(rain, 0)", "0");
    ck_assert_str_eq(untraced(t, "seen(rain, 1)"), "E201");
    ck_assert_ptr_nonnull(strstr(t->log, ":6:65: error[E201]"));
    tvm_clear(t);
    ck_ev(t, "seen(rain, 1)", "E201");
    ck_assert_ptr_nonnull(strstr(t->log, ":6:65: error[E201]"));
    tvm_free(t);
    const char *const calls[] = { "seen(clear, 1) + seen(fog, 1)", "seen(clear, 0)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
        unsigned long need = fewest_steps_of(FUSED, calls[i], false);
        ck_assert_uint_eq(need, fewest_steps_of(FUSED, calls[i], true));
        /* every budget short of it: E207 names the same chunk part either way (the rule, or
         * the fn pos), the steps being charged at the same points */
        for (unsigned long b = 1; b < need; b++) {
            char traced[200], plain[200];
            t = tvm_new_cfg(FUSED, b, 0);
            ck_assert_str_eq(untraced(t, calls[i]), "E207");
            budget_where(t, plain, sizeof plain);
            tvm_clear(t);
            ck_ev(t, calls[i], "E207");
            budget_where(t, traced, sizeof traced);
            ck_assert_msg(strcmp(plain, traced) == 0 && plain[0], "budget %lu: %s / %s", b, plain,
                          traced);
            tvm_free(t);
        }
    }
}
END_TEST

/* min and max over an enum are decided by the enum's least and greatest member (language.md
 * §3.5, §4): no later rule (or item of an aggregate) can better it, so none runs, and a later
 * rule's error cannot happen.
 *   worst(x), min over level {low, mid, high}: low when x > 0, then a rule dividing by x - 1.
 *   best(x), max: high when x > 0, then the same division.
 *   least_int(x), min over int: 0 when x > 0, then the division: an int has no least value,
 *   so every rule runs (E205 at x = 1). */
static const char *const BOUNDS =
    "source \"T.1\" = \"this test's rules\";\n"
    "enum level { low, mid, high }\n"
    "query worst(x: int) -> level combine min default high;\n"
    "rule worst.low cite \"T.1\" when x > 0 answer low;\n"
    "rule worst.divides cite \"T.1\" when 10 / (x - 1) > 0 answer mid;\n"
    "query best(x: int) -> level combine max default low;\n"
    "rule best.high cite \"T.1\" when x > 0 answer high;\n"
    "rule best.divides cite \"T.1\" when 10 / (x - 1) > 0 answer mid;\n"
    "query least_int(x: int) -> int combine min default 5;\n"
    "rule least_int.zero cite \"T.1\" when x > 0 answer 0;\n"
    "rule least_int.divides cite \"T.1\" when 10 / (x - 1) > 0 answer 1;\n";

START_TEST(min_and_max_stop_at_the_enums_bound)
{
    tvm *t = tvm_new(BOUNDS);
    both(t, "worst(1)", "low");  /* decided by low: the division by 0 never runs */
    both(t, "best(1)", "high");  /* decided by high */
    both(t, "worst(3)", "low");  /* low decides; 10 / 2 > 0 would have said mid */
    both(t, "worst(0)", "high"); /* low does not fire; 10 / -1 = -10 is not > 0: the default */
    both(t, "best(2)", "high");
    both(t, "least_int(1)", "E205"); /* an int: every rule runs */
    both(t, "least_int(2)", "0");    /* min(0, 1) */
    /* the aggregates alike (language.md §4): low at k = 1 decides the min, high the max, so
     * the division by k = 0 never runs; over ints every item is taken */
    both(t, "min(k in [1, 0]: if 10 / k > 0 then worst(k) else high)", "low");
    both(t, "max(k in [1, 0]: if 10 / k > 0 then best(k) else low)", "high");
    both(t, "min(k in [3, 1, 0]: if 10 / k > 4 then worst(k) else high)", "low"); /* 3: high */
    both(t, "min(k in [1, 0]: 10 / k)", "E205");
    tvm_free(t);
    /* the steps of the rules that ran, the same either way */
    ck_assert_uint_eq(fewest_steps_of(BOUNDS, "worst(1) == best(1)", false),
                      fewest_steps_of(BOUNDS, "worst(1) == best(1)", true));
}
END_TEST

/* A small `any`, `all` or `first` query (with a default) called in a combined chunk has its
 * rules copied at the call (QUERY_ENTER, vm.md §5a), its combination inline: no frame; a query
 * that may be tabled (every parameter a bool or an enum: flag) is called as before. Where each
 * argument is one plain read (close(y), tag(x); not fine(x + 0)) the copy reads it in place
 * (QUERY_FORWARD, the reads kept after it for a traced run). Each answer
 * worked out from the rules:
 *   close(y): y == 3 when y > 0, y == -1 when y < 0; any, so false when neither is true.
 *   fine(x): x < 10 when x > 0, then x != 7; all, so a false decides.
 *   tag(x): 1 when x == 1, x + x when x > 1, else the default 9.
 *   asks(x), sum: the number of y in x-1..x+1 with close(y); 100 when fine(x); tag(x) * 1000;
 *   0 when flag(x > 5).
 *   asks(3): close(3) alone, 1; fine: 3 < 10 and 3 != 7, 100; tag 6: 6101.
 *   asks(0): close(-1) alone, 1; fine: only not7 fires, true, 100; tag: the default: 9101.
 *   asks(7): none close; fine: 7 != 7 decides false; tag 14: 14000.
 *   asks(12): none close; fine: 12 < 10 decides false; tag 24: 24000.
 *   asks(1): none close (close(1): 1 == 3 false); fine 100; tag 1: 1100.
 * A `first` query with no rule, its default alone (lone), is copied too: two(1) = lone(1) +
 * lone(2) = 101 + 102 = 203. */
/* The fewest steps e needs under program src, traced for the brief form alone (the combined
 * chunks run, traced: vm.md §5a). */
static unsigned long fewest_brief_steps(const char *src, const char *e)
{
    unsigned long lo = 1, hi = 1 << 16;
    while (lo + 1 < hi) {
        unsigned long mid = (lo + hi) / 2;
        tvm *v = tvm_new_cfg(src, mid, 0);
        hon_answer *a = NULL;
        hon_status st = hon_eval_as(v->vm, e, "<test>", HON_WANT_WHY, &a);
        hon_answer_free(a);
        tvm_free(v);
        if (st == HON_OK)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

static const char *const INLINED =
    "source \"T.1\" = \"this test's rules\";\n"
    "query close(y: int) -> bool combine any;\n"
    "rule close.three cite \"T.1\" when y > 0 answer y == 3;\n"
    "rule close.minus cite \"T.1\" when y < 0 answer y == -1;\n"
    "query fine(x: int) -> bool combine all;\n"
    "rule fine.small cite \"T.1\" when x > 0 answer x < 10;\n"
    "rule fine.not7 cite \"T.1\" answer x != 7;\n"
    "query tag(x: int) -> int combine first default 9;\n"
    "rule tag.one cite \"T.1\" when x == 1 answer 1;\n"
    "rule tag.more cite \"T.1\" when x > 1 answer x + x;\n"
    "query flag(b: bool) -> bool combine any;\n"
    "rule flag.b cite \"T.1\" answer b;\n"
    "query asks(x: int) -> int combine sum;\n"
    "rule asks.walk cite \"T.1\" answer count(y in [x - 1, x, x + 1]: close(y));\n"
    "rule asks.fine cite \"T.1\" when fine(x + 0) answer 100;\n"
    "rule asks.tag cite \"T.1\" answer tag(x) * 1000;\n"
    "rule asks.flag cite \"T.1\" when flag(x > 5) answer 0;\n"
    "query lone(x: int) -> int combine first default x + 100;\n"
    "query two(x: int) -> int combine sum;\n"
    "rule two.r cite \"T.1\" answer lone(x) + lone(x + 1);\n";

START_TEST(small_queries_are_copied_at_their_calls)
{
    tvm *t = tvm_new(INLINED);
    both(t, "asks(3)", "6101");
    /* close, fine and tag copied; flag (a bool parameter: it may be tabled) called */
    ck_assert_int_eq(count_op(t->vm, "asks", OP_QUERY_ENTER), 3);
    ck_assert_int_eq(count_op(t->vm, "asks", OP_QUERY_FORWARD), 2);
    ck_assert_int_eq(count_op(t->vm, "asks", OP_CALL_QUERY), 1);
    both(t, "asks(0)", "9101");
    both(t, "asks(7)", "14000");
    both(t, "asks(12)", "24000");
    both(t, "asks(1)", "1100");
    both(t, "two(1)", "203");
    ck_assert_int_eq(count_op(t->vm, "two", OP_QUERY_ENTER), 2);
    ck_assert_int_eq(count_op(t->vm, "two", OP_CALL_QUERY), 0);
    tvm_free(t);
    /* the same steps as the rules one by one (each exit one instruction for one) */
    const char *const calls[] = { "asks(3)", "asks(0)", "asks(7)", "asks(12) + asks(1)", "two(1)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
        unsigned long steps = fewest_steps_of(INLINED, calls[i], false);
        ck_assert_uint_eq(steps, fewest_steps_of(INLINED, calls[i], true));
        /* traced for the brief form, the combined chunk runs, each copy asking the driver */
        ck_assert_uint_eq(steps, fewest_brief_steps(INLINED, calls[i]));
    }
    /* the depth: asks takes 1, close a second one; with a limit of 1 the copy asks the driver,
     * which says E206 as at a call */
    t = tvm_new_cfg(INLINED, 0, 2);
    both(t, "asks(3)", "6101");
    tvm_free(t);
    t = tvm_new_cfg(INLINED, 0, 1);
    both(t, "asks(3)", "E206");
    ck_assert_ptr_nonnull(strstr(t->log, "asking query close"));
    tvm_free(t);
}
END_TEST

/* A `min` or `max` query with a default is copied too (QUERY_ACC, QUERY_UNFED, QUERY_ELSE,
 * vm.md §5a): the first rule's answer starts the kept answer, an enum's bound decides, the last
 * rule's exit ends the copy with the kept answer or goes on into the default. Worked out:
 *   grade(x), min over low < mid < high, default high: low when x < 0 (decides), mid when
 *   x > 5, high when x is odd.  top(x), max, default 0: x when x > 2; 3 always.
 *   rank(x) = (1, 2, 3 for grade low, mid, high) + 10 * top(x):
 *   rank(-1): low decides at the first rule: 1; top 3: 31.
 *   rank(7): mid, then high (odd): min mid, 2; top max(7, 3): 72.
 *   rank(2): no rule of grade fires: the default high, 3; top 3: 33.
 *   rank(3): only the last rule (odd): high, 3; top max(3, 3): 33.
 *   rank(8): mid, the last rule does not fire: mid, 2; top 8: 82. */
static const char *const ACCUMULATED =
    "source \"T.1\" = \"this test's rules\";\n"
    "enum level { low, mid, high }\n"
    "query grade(x: int) -> level combine min default high;\n"
    "rule grade.neg cite \"T.1\" when x < 0 answer low;\n"
    "rule grade.big cite \"T.1\" when x > 5 answer mid;\n"
    "rule grade.odd cite \"T.1\" when x % 2 == 1 answer high;\n"
    "query top(x: int) -> int combine max default 0;\n"
    "rule top.x cite \"T.1\" when x > 2 answer x;\n"
    "rule top.three cite \"T.1\" answer 3;\n"
    "query rank(x: int) -> int combine sum;\n"
    "rule rank.g cite \"T.1\" answer\n"
    "  (if grade(x) == low then 1 else if grade(x) == mid then 2 else 3) + 10 * top(x);\n";

START_TEST(min_and_max_queries_are_copied_too)
{
    tvm *t = tvm_new(ACCUMULATED);
    both(t, "rank(-1)", "31");
    /* grade twice (three rules each), top once (two): an accumulating exit per rule */
    ck_assert_int_eq(count_op(t->vm, "rank", OP_QUERY_ACC), 8);
    ck_assert_int_eq(count_op(t->vm, "rank", OP_CALL_QUERY), 0);
    both(t, "rank(7)", "72");
    both(t, "rank(2)", "33");
    both(t, "rank(3)", "33");
    both(t, "rank(8)", "82");
    tvm_free(t);
    const char *const calls[] = { "rank(-1)", "rank(7)", "rank(2) + rank(3)", "rank(8)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
        unsigned long steps = fewest_steps_of(ACCUMULATED, calls[i], false);
        ck_assert_uint_eq(steps, fewest_steps_of(ACCUMULATED, calls[i], true));
        ck_assert_uint_eq(steps, fewest_brief_steps(ACCUMULATED, calls[i]));
    }
}
END_TEST

/* e under program src needs the same steps untraced (the combined chunks), traced, and traced
 * for the brief form; and with every budget short of it, E207 names the same rule or fn at the
 * same line and column either way (a kept value read runs its code again when the steps would
 * run out on the way, reuse.c). */
static void steps_and_limits(const char *src, const char *e, bool columns);

static void same_steps_and_limits(const char *src, const char *e)
{
    steps_and_limits(src, e, true);
}

/* same_steps_and_limits, the E207 columns compared only when `columns`. */
static void steps_and_limits(const char *src, const char *e, bool columns)
{
    unsigned long need = fewest_steps_of(src, e, false);
    ck_assert_uint_eq(need, fewest_steps_of(src, e, true));
    ck_assert_uint_eq(need, fewest_brief_steps(src, e));
    for (unsigned long b = 1; b < need; b++) {
        char traced[200], plain[200];
        tvm *t = tvm_new_cfg(src, b, 0);
        ck_assert_str_eq(untraced(t, e), "E207");
        budget_where(t, plain, sizeof plain);
        const unsigned line = t->d[0].line, at = t->d[0].col;
        tvm_clear(t);
        ck_ev(t, e, "E207");
        budget_where(t, traced, sizeof traced);
        ck_assert_msg(strcmp(plain, traced) == 0 && plain[0], "budget %lu: %s / %s", b, plain,
                      traced);
        ck_assert_msg(!columns || (line == t->d[0].line && at == t->d[0].col),
                      "budget %lu: %u:%u / %u:%u", b, line, at, t->d[0].line, t->d[0].col);
        tvm_free(t);
    }
}

/* Reads a combined chunk computes again and again are kept after their first run (KEPT and
 * KEEP, reuse.c, vm.md §5b): an expression of pure instructions over the query's parameters,
 * reached twice or more by the chunk's code or inside a loop. Its value is kept where it is
 * first reached, so an error strikes there and nowhere before, and an empty loop reaches
 * nothing; the steps charged and E207's place are those of the code as it was.
 *   score(x), sum: big, 10 / (x - 1) when x > 5; all, 10 / (x - 1) plus how many y in 1..3
 *   have y * 10 / (x - 1) > 4; none, how many k in [y in 1..3: y > x] equal 10 / (x - 3).
 *   Kept: `10 / (x - 1)` (in big and all: two KEPT), `x - 1` inside all's loop (its other
 *   occurrences lie inside the kept divisions), `10 / (x - 3)` inside none's loop: four.
 *   score(6): big 10 / 5 = 2; all 2 + #{y: 2y > 4} = 2 + 1 = 3; none: no y > 6, 0: 5.
 *   score(3): all 10 / 2 = 5 + #{y: 5y > 4} = 5 + 3 = 8; none: no y > 3, so 10 / 0 is never
 *   reached: 0. 8.
 *   score(2): all 10 + #{y: 10y > 4} = 13; none: k = 3, 10 / -1 = -10 != 3: 0. 13.
 *   score(1): big's guard fails, so the first reach of 10 / (x - 1) is all's (line 4): E205
 *   there, traced or not. */
static const char *const KEPT_READS =
    "source \"T.1\" = \"this test's rules\";\n"
    "query score(x: int) -> int combine sum;\n"
    "rule score.big cite \"T.1\" when x > 5 answer 10 / (x - 1);\n"
    "rule score.all cite \"T.1\" answer 10 / (x - 1) + count(y in [1, 2, 3]: y * 10 / (x - 1) > "
    "4);\n"
    "rule score.none cite \"T.1\" answer count(k in [y in [1, 2, 3]: y > x]: 10 / (x - 3) == k);\n";

START_TEST(reads_are_kept_after_their_first_run)
{
    tvm *t = tvm_new(KEPT_READS);
    ck_assert_int_eq(count_op(t->vm, "score", OP_KEPT), 4);
    ck_assert_int_eq(count_op(t->vm, "score", OP_KEEP), 4);
    both(t, "score(6)", "5");
    both(t, "score(3)", "8");
    both(t, "score(2)", "13");
    both(t, "score(6) + score(3) + score(2)", "26");
    /* the error where the division is first reached: line 4, not big's line 3 */
    ck_assert_str_eq(untraced(t, "score(1)"), "E205");
    ck_assert_ptr_nonnull(strstr(t->log, "t.hon:4:"));
    ck_assert_uint_eq(t->d[0].line, 4);
    const unsigned col = t->d[0].col;
    tvm_clear(t);
    ck_ev(t, "score(1)", "E205");
    ck_assert_uint_eq(t->d[0].line, 4);
    ck_assert_uint_eq(t->d[0].col, col);
    tvm_free(t);
    const char *const calls[] = { "score(6)", "score(3) + score(2)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        same_steps_and_limits(KEPT_READS, calls[i]);
}
END_TEST

/* A query copied at its call whose arguments are moved into the copy's locals (QUERY_ENTER):
 * what its rules compute from them is kept too, and cleared at each entry of the copy (UNKEEP,
 * vm.md §5b), since a loop enters it again with other arguments. close_by(y), any: y * y < 80 when
 * y * y > 50; true when y * y == 4 (y * y three times: three KEPT, one UNKEEP after the entry).
 *   close_by over 1, 2, 3, 8, 9: 1 no rule; 4 true (b); 9 no rule; 64 < 80 true (a); 81 < 80 false
 *   (a), and 81 != 4: false. So two trues, and walk(x) adds close_by(x):
 *   walk(2): 4, true: 3. walk(0): 0, false: 2. walk(-8): 64, true: 3.
 * A value kept from one entry and read at the next would answer from close_by(1) throughout: 0. */
static const char *const COPY_KEPT =
    "source \"T.1\" = \"this test's rules\";\n"
    "query close_by(y: int) -> bool combine any;\n"
    "rule close_by.a cite \"T.1\" when y * y > 50 answer y * y < 80;\n"
    "rule close_by.b cite \"T.1\" when y * y == 4 answer true;\n"
    "query walk(x: int) -> int combine sum;\n"
    "rule walk.count cite \"T.1\" answer count(k in [1, 2, 3, 8, 9, x]: close_by(k + 0));\n";

START_TEST(reads_of_a_copys_parameters_are_kept_per_entry)
{
    tvm *t = tvm_new(COPY_KEPT);
    ck_assert_int_eq(count_op(t->vm, "walk", OP_QUERY_ENTER), 1);
    ck_assert_int_eq(count_op(t->vm, "walk", OP_KEPT), 3);
    ck_assert_int_eq(count_op(t->vm, "walk", OP_UNKEEP), 1);
    both(t, "walk(2)", "3");
    both(t, "walk(0)", "2");
    both(t, "walk(-8)", "3");
    tvm_free(t);
    const char *const calls[] = { "walk(2)", "walk(0) + walk(-8)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        same_steps_and_limits(COPY_KEPT, calls[i]);
}
END_TEST

/* A loop over `bresenham(a, b)` walks the squares as it goes (walk.h, vm.md §3): each step's
 * record is made when the loop reaches it. The board, A1 top-left, row 1 north:
 *        A  B  C  D  E  F
 *   1    .  .  .  h  .  .        h hedge, . open
 *   2    .  .  .  .  .  .
 *   3    .  .  .  .  .  .
 * Worked out by the walk of geo.h (err = dx - dy; a move steps x when 2 err >= -dy, y when
 * 2 err <= dx):
 *   A1 -> F1 (dx 5, dy 0): B1 C1 D1 E1 F1, five steps; D1, the third, is the hedge.
 *   A1 -> F3 (dx 5, dy 2, err 3): B1 (err 1), C2 diagonal (err 4), D2 (err 2), E3 diagonal
 *   (err 5), F3: no hedge; the corner steps are the 2nd and the 4th, into C2 and E3.
 *   B2 -> B2: no step. */
static const char *const WALKED =
    "source \"T.1\" = \"this test's rules\";\n"
    "terrain open; terrain hedge;\n"
    "query screened(a: square, b: square) -> bool combine any;\n"
    "rule screened.walk cite \"T.1\"\n"
    "  when any(st in bresenham(a, b): terrain(st.square) == hedge) answer true;\n"
    "event stroll(a: square, b: square);\n"
    "rule stroll.r cite \"T.1\" do {\n"
    "  for st in bresenham(a, b) { if st.corner then { fail \"corner\"; } }\n};\n";
static const char *const WALKED_BOARD = "size 6 x 3\nlegend . = open  h = hedge\nmap\n"
                                        "  1 . . . h . .\n  2 . . . . . .\n  3 . . . . . .\n";

/* The step records e made (vm_ctx.steps_made), answered untraced or traced into t->last. */
static uint64_t records_made(tvm *t, const char *e, bool traced)
{
    uint64_t before = t->vm->x.steps_made;
    ev_as(t, e, traced);
    return t->vm->x.steps_made - before;
}

START_TEST(a_bresenham_loop_walks_as_it_goes)
{
    tvm *t = tvm_new(WALKED);
    ck_assert_int_eq(hon_load_board_source(t->vm, "w.scn", WALKED_BOARD, strlen(WALKED_BOARD)),
                     HON_OK);
    ck_assert_int_eq(count_op(t->vm, "screened", OP_WALK_START), 1);
    ck_assert_int_eq(count_op(t->vm, "screened", OP_BOARD), 0);
    /* the hedge on D1 decides `any` at the third of the five steps: three records made, in
     * the query's combined chunk, in its traced run, and in an expression */
    for (int traced = 0; traced < 2; traced++) {
        ck_assert_uint_eq(records_made(t, "screened(@A1, @F1)", traced), 3);
        ck_assert_str_eq(t->last, "true");
        ck_assert_uint_eq(records_made(t, "screened(@A1, @F3)", traced), 5); /* no hedge */
        ck_assert_str_eq(t->last, "false");
    }
    ck_assert_uint_eq(records_made(t, "any(st in bresenham(@A1, @F1): st.square == @C1)", false),
                      2);
    ck_assert_str_eq(t->last, "true");
    /* a bresenham list built whole (not a loop's collection) makes every record */
    ck_assert_uint_eq(records_made(t, "len(bresenham(@A1, @F1))", false), 5);
    ck_assert_str_eq(t->last, "5");
    /* steps kept in a list after their loop stay valid: the corner steps of A1 -> F3 */
    ck_assert_str_eq(ev_as(t, "[s.index for s in [st in bresenham(@A1, @F3): st.corner]]", false),
                     "[2, 4]");
    ck_assert_str_eq(ev_as(t, "[s.square for s in [st in bresenham(@A1, @F3): st.corner]]", false),
                     "[C2, E3]");
    ck_assert_str_eq(ev_as(t, "[st.from for st in bresenham(@A1, @F3)]", false),
                     "[A1, B1, C2, D2, E3]");
    /* a procedure's `for` walks as it goes too: A1 -> F3 reaches its first corner at the 2nd
     * step and fails there (two records made); A1 -> F1 has no corner and makes all five */
    uint64_t before = t->vm->x.steps_made;
    hon_answer *a = NULL;
    t->log[0] = '\0';
    ck_assert_int_ne(hon_do(t->vm, "stroll(@A1, @F3)", "<test>", &a), HON_OK);
    hon_answer_free(a);
    ck_assert_ptr_nonnull(strstr(t->log, "corner (rule stroll.r)"));
    ck_assert_uint_eq(t->vm->x.steps_made - before, 2);
    before = t->vm->x.steps_made;
    a = NULL;
    ck_assert_int_eq(hon_do(t->vm, "stroll(@A1, @F1)", "<test>", &a), HON_OK);
    hon_answer_free(a);
    ck_assert_uint_eq(t->vm->x.steps_made - before, 5);
    /* an empty walk: no step, no record */
    ck_assert_uint_eq(records_made(t, "count(st in bresenham(@B2, @B2): true)", false), 0);
    ck_assert_str_eq(t->last, "0");
    ck_assert_str_eq(ev_as(t, "all(st in bresenham(@B2, @B2): false)", false), "true");
    ck_assert_str_eq(ev_as(t, "screened(@B2, @B2)", false), "false");
    /* the built-in's errors where the call is: a square off the board (E217) */
    t->log[0] = '\0';
    ck_assert_str_eq(ev_as(t, "any(st in bresenham(@A1, @A9): true)", false), "E217");
    ck_assert_ptr_nonnull(strstr(t->log, "<test>:1:11: error[E217]"));
    tvm_free(t);
    /* on hexes (E218), with the caret on the call */
    static const char *const HEX = "topology hex\nsize 3 x 2\nlegend . = open\n"
                                   "map\n  1 . . .\n  2 . . .\n";
    t = tvm_new(WALKED);
    ck_assert_int_eq(hon_load_board_source(t->vm, "h.scn", HEX, strlen(HEX)), HON_OK);
    ck_assert_str_eq(ev_as(t, "any(st in bresenham(@A1, @B1): true)", false), "E218");
    ck_assert_ptr_nonnull(strstr(t->log, "<test>:1:11: error[E218]"));
    ck_assert_str_eq(ev_as(t, "screened(@A1, @B1)", true), "E218");
    tvm_free(t);
    /* no board (E212) */
    t = tvm_new(WALKED);
    ck_assert_str_eq(ev_as(t, "any(st in bresenham(@A1, @B1): true)", false), "E212");
    tvm_free(t);
}
END_TEST

/* A walk makes only the fields of each step's record that its loop reads (walk.h,
 * peep_walk_fields): WALK_START's last operand in a query's combined chunk says which (bit i field
 * i: square 0, from 1, corner 2, side 3, left 4, right 5, index 6), and the answers are those of
 * the traced run, which makes every field. On WALKED_BOARD, A1 -> F3 is B1, C2 (a corner), D2,
 * E3 (a corner), F3 (a_bresenham_loop_walks_as_it_goes), so:
 *   corners: its loop reads st.corner alone (4): 2 corners.
 *   indexes: st.index alone (64): 1 + 2 + 3 + 4 + 5 = 15.
 *   moved: st.square and st.from (3): every step moves, 5.
 *   screened: `blocked(st)`, a query copied at its call reading st.square (1) in place of the
 *     loop's variable: A1 -> F1 crosses the hedge on D1, true; A1 -> F3 none, false.
 *   sided: st.side (8), made with its whole record: each step's side equals itself, 5.
 *   kept: the step itself kept in a list (127, every field): the corners' indexes [2, 4]. */
static const char *const FIELDS =
    "source \"T.1\" = \"this test's rules\";\n"
    "terrain open; terrain hedge;\n"
    "query corners(a: square, b: square) -> int combine sum;\n"
    "rule corners.r cite \"T.1\" answer count(st in bresenham(a, b): st.corner);\n"
    "query indexes(a: square, b: square) -> int combine sum;\n"
    "rule indexes.r cite \"T.1\" answer sum(st in bresenham(a, b): st.index);\n"
    "query moved(a: square, b: square) -> int combine sum;\n"
    "rule moved.r cite \"T.1\" answer count(st in bresenham(a, b): st.square != st.from);\n"
    "query blocked(st: step) -> bool combine any;\n"
    "rule blocked.hedge cite \"T.1\" when terrain(st.square) == hedge answer true;\n"
    "query screened(a: square, b: square) -> bool combine any;\n"
    "rule screened.r cite \"T.1\" when any(st in bresenham(a, b): blocked(st)) answer true;\n"
    "query sided(a: square, b: square) -> int combine sum;\n"
    "rule sided.r cite \"T.1\" answer count(st in bresenham(a, b): st.side == st.side);\n"
    "query kept(a: square, b: square) -> list<int> combine first;\n"
    "rule kept.r cite \"T.1\"\n"
    "  answer [s.index for s in [st in bresenham(a, b): st.corner]];\n";

/* The last operand of the WALK_START in the combined chunk of query `name` (-1: none). */
static int64_t walk_operand(const hon_vm *vm, const char *name)
{
    const prog *pg = vm->pg;
    const res_program *p = pg->res;
    for (uint32_t q = 0; q < p->nqueries; q++) {
        const chunk *ch = pg->combined[q];
        if (strcmp(p->queries[q].name, name) != 0 || !ch || ch == &prog_no_combined)
            continue;
        for (size_t pc = 0; pc < ch->len; pc += 1 + op_operands[ch->code[pc]])
            if (ch->code[pc] == OP_WALK_START)
                return ch->code[pc + 4];
    }
    return -1;
}

START_TEST(a_walk_makes_the_fields_its_loop_reads)
{
    tvm *t = tvm_new(FIELDS);
    ck_assert_int_eq(hon_load_board_source(t->vm, "w.scn", WALKED_BOARD, strlen(WALKED_BOARD)),
                     HON_OK);
    both(t, "corners(@A1, @F3)", "2");
    both(t, "indexes(@A1, @F3)", "15");
    both(t, "moved(@A1, @F3)", "5");
    both(t, "screened(@A1, @F1)", "true");
    both(t, "screened(@A1, @F3)", "false");
    both(t, "sided(@A1, @F3)", "5");
    both(t, "kept(@A1, @F3)", "[2, 4]");
    ck_assert_int_eq(walk_operand(t->vm, "corners"), 4);
    ck_assert_int_eq(walk_operand(t->vm, "indexes"), 64);
    ck_assert_int_eq(walk_operand(t->vm, "moved"), 3);
    ck_assert_int_eq(walk_operand(t->vm, "screened"), 1);
    ck_assert_int_eq(walk_operand(t->vm, "sided"), 8);
    ck_assert_int_eq(walk_operand(t->vm, "kept"), 127);
    tvm_free(t);
}
END_TEST

/* A walk goes every way as the list built whole goes (walk.h packs the square reached, the
 * steps made and the error term into one value, and a move adds to it). On WALKED_BOARD, for
 * every ordered pair of its 18 squares (both axes forwards, backwards and still), the walk
 * makes as many steps as the list has, and each step's square, from and corner (the record
 * made narrow: 71) and side (side and index, 72: a side makes the record whole) are those of
 * the list's item at its index. Worked out for F3 -> A1 (dx 5, dy 2, err 3, both axes
 * backwards): E3 (err 1), D2 diagonal (err 4), C2 (err 2), B1 diagonal (err 5), A1; the
 * steps' froms F3 E3 D2 C2 B1, two corners. */
static const char *const EVERY_WAY =
    "source \"T.1\" = \"this test's rules\";\n"
    "terrain open; terrain hedge;\n"
    "query agree(a: square, b: square) -> bool combine all;\n"
    "rule agree.r cite \"T.1\"\n"
    "  answer all(st in bresenham(a, b): st.square == nth(bresenham(a, b), st.index).square\n"
    "      and st.from == nth(bresenham(a, b), st.index).from\n"
    "      and st.corner == nth(bresenham(a, b), st.index).corner)\n"
    "    and count(st in bresenham(a, b): true) == len(bresenham(a, b));\n"
    "query sides_agree(a: square, b: square) -> bool combine all;\n"
    "rule sides_agree.r cite \"T.1\"\n"
    "  answer all(st in bresenham(a, b): st.side == nth(bresenham(a, b), st.index).side);\n"
    "query froms(a: square, b: square) -> list<square> combine first;\n"
    "rule froms.r cite \"T.1\" answer [st.from for st in bresenham(a, b)];\n"
    "query squares(a: square, b: square) -> list<square> combine first;\n"
    "rule squares.r cite \"T.1\" answer [st.square for st in bresenham(a, b)];\n"
    "query corners(a: square, b: square) -> int combine sum;\n"
    "rule corners.r cite \"T.1\" answer count(st in bresenham(a, b): st.corner);\n";

START_TEST(a_walk_goes_every_way_as_the_list)
{
    tvm *t = tvm_new(EVERY_WAY);
    ck_assert_int_eq(hon_load_board_source(t->vm, "w.scn", WALKED_BOARD, strlen(WALKED_BOARD)),
                     HON_OK);
    ck_assert_int_eq(walk_operand(t->vm, "agree"), 71);
    ck_assert_int_eq(walk_operand(t->vm, "sides_agree"), 72);
    both(t, "froms(@F3, @A1)", "[F3, E3, D2, C2, B1]");
    both(t, "squares(@F3, @A1)", "[E3, D2, C2, B1, A1]");
    both(t, "corners(@F3, @A1)", "2");
    char e[64];
    for (int a = 0; a < 18; a++)
        for (int b = 0; b < 18; b++) {
            const char *q[] = { "agree", "sides_agree" };
            for (int i = 0; i < 2; i++) {
                snprintf(e, sizeof e, "%s(@%c%d, @%c%d)", q[i], 'A' + a % 6, 1 + a / 6, 'A' + b % 6,
                         1 + b / 6);
                both(t, e, "true");
            }
        }
    tvm_free(t);
}
END_TEST

/* `units_at(sq)` is one instruction, UNITS_AT (vm.md §4a): the empty list inline on a square
 * where no unit stands, else BOARD's runner, which makes the list or reports the error. On a
 * 3 x 1 board with two rifles on B1: A1 holds none (0), B1 both (2, both infantry), D1 is off
 * the board (E217, its caret on the call); the same traced and untraced. */
static const char *const CROWD =
    "source \"T.1\" = \"this test's rules\";\n"
    "kind infantry;\nside allies;\nterrain open;\n"
    "counter rifle: infantry { side allies }\n"
    "query crowd(sq: square) -> int combine sum;\n"
    "rule crowd.r cite \"T.1\" answer len(units_at(sq));\n"
    "query all_infantry(sq: square) -> bool combine all;\n"
    "rule all_infantry.r cite \"T.1\" answer all(u in units_at(sq): u.kind == infantry);\n";
static const char *const CROWD_BOARD = "size 3 x 1\nlegend . = open\nmap\n  1 . . .\n"
                                       "unit r1 = rifle allies at B1\n"
                                       "unit r2 = rifle allies at B1\n";

START_TEST(units_at_is_one_instruction)
{
    tvm *t = tvm_new(CROWD);
    ck_assert_int_eq(hon_load_board_source(t->vm, "c.scn", CROWD_BOARD, strlen(CROWD_BOARD)),
                     HON_OK);
    both(t, "crowd(@A1)", "0");
    both(t, "crowd(@B1)", "2");
    both(t, "all_infantry(@A1)", "true");
    both(t, "all_infantry(@B1)", "true");
    both(t, "len(units_at(@A1)) + len(units_at(@B1))", "2");
    t->log[0] = '\0';
    ck_assert_str_eq(untraced(t, "crowd(@D1)"), "E217");
    ck_assert_str_eq(untraced(t, "len(units_at(@D1))"), "E217");
    ck_assert_ptr_nonnull(strstr(t->log, "<test>:1:5: error[E217]"));
    ck_assert_int_eq(count_op(t->vm, "crowd", OP_UNITS_AT), 1);
    ck_assert_int_eq(count_op(t->vm, "crowd", OP_BOARD), 0);
    tvm_free(t);
}
END_TEST

/* The fewest steps e needs on WALKED and WALKED_BOARD (fewest_wall_steps' bisection). */
static unsigned long fewest_walked_steps(const char *e, bool traced)
{
    unsigned long lo = 1, hi = 1 << 16;
    while (lo + 1 < hi) {
        unsigned long mid = (lo + hi) / 2;
        tvm *v = tvm_new_cfg(WALKED, mid, 0);
        ck_assert_int_eq(hon_load_board_source(v->vm, "w.scn", WALKED_BOARD, strlen(WALKED_BOARD)),
                         HON_OK);
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

START_TEST(a_walk_takes_the_steps_of_the_lists_loop)
{
    /* WALK_START stands for BOARD, SET_LOCAL, INT 0 and SET_LOCAL and takes their four steps,
     * WALK_NEXT and WALK_BACK those of FOR_NEXT and FOR_BACK: a walk needs what a loop over
     * the same list kept in a `let` needs, less the let's SET_LOCAL and the GET_LOCAL that
     * reads it (2), for a walk stopped early (A1 -> F1: the hedge third), a whole one
     * (A1 -> F3) and an empty one */
    const char *const ends[] = { "@A1, @F1", "@A1, @F3", "@B2, @B2" };
    for (size_t i = 0; i < 3; i++) {
        char walked[128], kept[160];
        snprintf(walked, sizeof walked, "any(st in bresenham(%s): terrain(st.square) == hedge)",
                 ends[i]);
        snprintf(kept, sizeof kept,
                 "(let l = bresenham(%s); any(st in l: terrain(st.square) == hedge))", ends[i]);
        ck_assert_uint_eq(fewest_walked_steps(walked, false) + 2, fewest_walked_steps(kept, false));
        ck_assert_uint_eq(fewest_walked_steps(walked, false), fewest_walked_steps(walked, true));
    }
    ck_assert_uint_eq(fewest_walked_steps("screened(@A1, @F3)", false),
                      fewest_walked_steps("screened(@A1, @F3)", true));
}
END_TEST

/* Pairs of instructions in one (peephole.c, vm.md §5c): a square read from a local or a
 * local's field then its terrain, elevation, element or a side feature, and a constant then a
 * set membership or a compare-and-branch, each pair one instruction of the combined chunk with
 * the second kept after it. The board (PAIR_BOARD): row 1 A1 open, B1 and C1 woods, D1 open, of
 * elevations 0 1 2 0, a wall on A1/B1; row 2 open but D2, which has no terrain. Worked out:
 *   rough(@A1, @D1): line A1 -> D1 enters B1, C1, D1 with no corner: woods entered 2, their
 *     elevations 1 + 2 + 0 = 3, walls crossed 1 (A1/B1): 6. rough(@A2, @C2): no woods, all
 *     0, no wall: 0.
 *   plain(@A2): in an element (open@A1...) and open: true; plain(@B1) woods: false; plain(@D2)
 *     in no element: false (terrain never asked); plain(@F1) off the 4-column board: E217, from
 *     the pair's slow path (the instructions it stands for), traced or not.
 *   seen(@A1, @D1): the line's first square B1 is woods, `blocked` (an `any` query copied at
 *     its call) is true: false. seen(@A2, @C2): B2 and C2 open at elevation 0: the default, true.
 *   extra(@A1, @D1): three moves of distance 1, then lift of 1 - 1, 2 - 1, 0 - 1: 0 + 1 + 0:
 *     3 + 1 = 4. extra(@A2, @C2): 2 + 0 = 2.
 * And the steps the untraced run needs are the traced one's (the rules one by one, no pairs). */
static const char *const PAIRS =
    "source \"T.1\" = \"this test's rules\";\n"
    "terrain open; terrain woods; side_feature wall;\n"
    "query rough(a: square, b: square) -> int combine first;\n"
    "rule rough.r cite \"T.1\"\n"
    "  answer count(s in line(a, b): not s.corner and terrain(s.square) in {woods})\n"
    "         + sum(s in line(a, b): elevation(s.square))\n"
    "         + count(s in line(a, b): not s.corner and side_has(s.side, wall));\n"
    "query plain(a: square) -> bool combine first default false;\n"
    "rule plain.r cite \"T.1\" when in_element(a) and terrain(a) == open answer true;\n"
    "query blocked(s: step) -> bool combine any;\n"
    "rule blocked.woods cite \"T.1\" when terrain(s.square) in {woods} answer true;\n"
    "rule blocked.high cite \"T.1\" when elevation(s.square) > 1 answer true;\n"
    "query seen(a: square, b: square) -> bool combine first default true;\n"
    "rule seen.r cite \"T.1\" when any(s in line(a, b): blocked(s)) answer false;\n"
    "fn lift(h: int) -> int = if h > 0 then h else 0;\n"
    "query extra(a: square, b: square) -> int combine first;\n"
    "rule extra.r cite \"T.1\"\n"
    "  answer sum(s in line(a, b): distance(s.from, s.square))\n"
    "         + sum(s in line(a, b): lift(elevation(s.square) - 1));\n";
static const char *const PAIR_BOARD = "size 4 x 2\nlegend . = open  w = woods  x = none\nmap\n"
                                      "  1 . w w .\n  2 . . . x\n"
                                      "elevation\n  1 0 1 2 0\n  2 0 0 0 0\nside A1/B1 wall\n";

static tvm *pairs_vm(unsigned long budget)
{
    tvm *t = tvm_new_cfg(PAIRS, budget, 0);
    ck_assert_int_eq(hon_load_board_source(t->vm, "p.scn", PAIR_BOARD, strlen(PAIR_BOARD)), HON_OK);
    return t;
}

static unsigned long fewest_pair_steps(const char *e, bool traced)
{
    unsigned long lo = 1, hi = 1 << 16;
    while (lo + 1 < hi) {
        unsigned long mid = (lo + hi) / 2;
        tvm *v = pairs_vm(mid);
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

START_TEST(pairs_of_instructions_run_as_one)
{
    tvm *t = pairs_vm(0);
    both(t, "rough(@A1, @D1)", "6");
    both(t, "rough(@A2, @C2)", "0");
    both(t, "plain(@A2)", "true");
    both(t, "plain(@B1)", "false");
    both(t, "plain(@D2)", "false");
    both(t, "plain(@F1)", "E217");
    both(t, "seen(@A1, @D1)", "false");
    both(t, "seen(@A2, @C2)", "true");
    both(t, "extra(@A1, @D1)", "4");
    both(t, "extra(@A2, @C2)", "2");
    ck_assert_int_eq(count_op(t->vm, "seen", OP_NONE_JUMP), 1);
    ck_assert_int_eq(count_op(t->vm, "seen", OP_JUMP_IF_FALSE_NEXT), 1);
    ck_assert_int_eq(count_op(t->vm, "extra", OP_LF_LF), 1);
    ck_assert_int_eq(count_op(t->vm, "extra", OP_JUMP_LEAVE), 1);
    ck_assert_int_eq(count_op(t->vm, "rough", OP_LF_TERRAIN), 1);
    ck_assert_int_eq(count_op(t->vm, "rough", OP_K_IN_SET), 1);
    ck_assert_int_eq(count_op(t->vm, "rough", OP_LF_ELEVATION), 1);
    ck_assert_int_eq(count_op(t->vm, "rough", OP_LF_SIDE_HAS_K), 1);
    ck_assert_int_eq(count_op(t->vm, "plain", OP_L_IN_ELEMENT), 1);
    ck_assert_int_eq(count_op(t->vm, "plain", OP_L_TERRAIN), 1);
    ck_assert_int_eq(count_op(t->vm, "plain", OP_K_JUMP_IF_NE_S), 1);
    /* the second of each pair kept in place */
    ck_assert_int_eq(count_op(t->vm, "rough", OP_TERRAIN), 1);
    ck_assert_int_eq(count_op(t->vm, "plain", OP_JUMP_IF_NE_S), 1);
    tvm_free(t);
    const char *const calls[] = { "rough(@A1, @D1)", "rough(@A2, @C2)", "plain(@A2)",
                                  "plain(@B1)",      "seen(@A1, @D1)",  "seen(@A2, @C2)",
                                  "extra(@A1, @D1)", "extra(@A2, @C2)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        ck_assert_uint_eq(fewest_pair_steps(calls[i], false), fewest_pair_steps(calls[i], true));
}
END_TEST

/* Sitting 16's pairs (peephole.c, vm.md §5c): an inlined fn's entry (INLINE_FORWARD) and its
 * copy's first instruction, a kept read (FWD_KEPT) or a field's test (FWD_FIELD_FALSE), and a
 * variant's reading compared with a member and the jump on it, three in one (VARIANT_JUMP).
 *   mix(x), sum: a, grow(x) + grow(x), (x - 1) * 3 twice: the second copy's body is the value
 *   kept from the first (each copy's body begins with the KEPT that stands before that code, the
 *   first run going on into it: two FWD_KEPT); b, pick(q) with q = pr{on: x > 2,
 *   n: x}: 2n when on, else 1 (pick's `if p.on` tests q's field at once, right after its entry);
 *   c, 100 when `way` reads high, else 10; d, 1000 when `way` does not read low (the guard's
 *   compare jumps to the no-answer when equal).
 *   low (the default): mix(4) = 9 + 9 + 8 + 10 = 36; mix(1) = 0 + 0 + 1 + 10 = 11.
 *   high: mix(4) = 18 + 8 + 100 + 1000 = 1126; mix(1) = 0 + 1 + 100 + 1000 = 1101.
 * The steps, and the part E207 names at every smaller budget, are the rules' one by one. */
static const char *const ENTRY_PAIRS =
    "source \"T.1\" = \"this test's rules\";\n"
    "record pr { on: bool, n: int }\n"
    "variant way { reading low default; reading high; }\n"
    "fn grow(x: int) -> int = (x - 1) * 3;\n"
    "fn pick(p: pr) -> int = if p.on then p.n * 2 else 1;\n"
    "query mix(x: int) -> int combine sum;\n"
    "rule mix.a cite \"T.1\" answer grow(x) + grow(x);\n"
    "rule mix.b cite \"T.1\" answer (let q = pr{on: x > 2, n: x}; pick(q));\n"
    "rule mix.c cite \"T.1\" answer if variant way == high then 100 else 10;\n"
    "rule mix.d cite \"T.1\" when variant way != low answer 1000;\n";

START_TEST(an_entry_and_a_reading_run_with_what_follows)
{
    tvm *t = tvm_new(ENTRY_PAIRS);
    both(t, "mix(4)", "36");
    both(t, "mix(1)", "11");
    ck_assert_int_eq(count_op(t->vm, "mix", OP_FWD_KEPT), 2);
    ck_assert_int_eq(count_op(t->vm, "mix", OP_FWD_FIELD_FALSE), 1);
    ck_assert_int_eq(count_op(t->vm, "mix", OP_VARIANT_JUMP), 2);
    /* the instructions after them kept in place */
    ck_assert_int_eq(count_op(t->vm, "mix", OP_KEPT), 2);
    ck_assert_int_eq(count_op(t->vm, "mix", OP_JUMP_IF_FIELD_FALSE), 1);
    ck_assert_int_eq(count_op(t->vm, "mix", OP_JUMP_IF_EQ_S), 1);
    ck_assert_int_eq(count_op(t->vm, "mix", OP_JUMP_IF_NE_S), 1);
    ck_assert_int_eq(hon_set_variant(t->vm, "way", "high"), HON_OK);
    both(t, "mix(4)", "1126");
    both(t, "mix(1)", "1101");
    tvm_free(t);
    /* not the columns: where the block runs out on the reads an INLINE_FORWARD stands for,
     * E207 points at the call (7:30), the rules one by one at the read (7:35): so it was before
     * these pairs (a gap of INLINE_FORWARD's, noticed in sitting 16) */
    steps_and_limits(ENTRY_PAIRS, "mix(4)", false);
    steps_and_limits(ENTRY_PAIRS, "mix(1) + mix(4)", false);
}
END_TEST

/* And four more (sitting 16): an `and`'s or an `or`'s value and the POP after its test
 * (JUMP_IF_FALSE_KEEP_POP, JUMP_IF_TRUE_KEEP_POP), a tabled query's answer and the member test
 * on it (CALL_QUERY_IN_SET: marks is pure over an enum, so its answers are kept in a table and
 * read from the slot after the first call), and a loop's start over a list (FOR_START: the
 * list's local, the index 0, the first FOR_NEXT).
 *   hits(k, x), sum: a, how many of m1, m2, m3 are in marks(k), marks being {m1}, {m1, m2},
 *   {m3} for k1, k2, k3 (so 1, 2, 1); b, how many of [x > 2 and x < 9, x < 0 or x > 3, x == 5]
 *   are true.
 *   hits(k2, 5): 2 + (true, true, true) = 5. hits(k1, 1): 1 + (false, false, false) = 1.
 *   hits(k3, 9): 1 + (false, true, false) = 2. hits(k2, -1): 2 + (false, true, false) = 3.
 * The steps, and E207's place at every smaller budget, are the rules' one by one. */
static const char *const MORE_PAIRS =
    "source \"T.1\" = \"this test's rules\";\n"
    "enum sort { k1, k2, k3 }\n"
    "enum mark { m1, m2, m3 }\n"
    "query marks(k: sort) -> set<mark> combine first;\n"
    "rule marks.r cite \"T.1\" answer if k == k1 then {m1} else if k == k2 then {m1, m2} else "
    "{m3};\n"
    "query hits(k: sort, x: int) -> int combine sum;\n"
    "rule hits.a cite \"T.1\" answer count(m in [m1, m2, m3]: m in marks(k));\n"
    "rule hits.b cite \"T.1\" answer count(v in [x > 2 and x < 9, x < 0 or x > 3, x == 5]: v);\n";

START_TEST(a_test_a_table_and_a_loop_start_run_as_one)
{
    tvm *t = tvm_new(MORE_PAIRS);
    for (int twice = 0; twice < 2; twice++) { /* the second time marks' answers from its table */
        both(t, "hits(k2, 5)", "5");
        both(t, "hits(k1, 1)", "1");
        both(t, "hits(k3, 9)", "2");
        both(t, "hits(k2, -1)", "3");
    }
    ck_assert_int_eq(count_op(t->vm, "hits", OP_JUMP_IF_FALSE_KEEP_POP), 1);
    ck_assert_int_eq(count_op(t->vm, "hits", OP_JUMP_IF_TRUE_KEEP_POP), 1);
    ck_assert_int_eq(count_op(t->vm, "hits", OP_CALL_QUERY_IN_SET), 1);
    ck_assert_int_eq(count_op(t->vm, "hits", OP_FOR_START), 2);
    /* the instructions after them kept in place */
    ck_assert_int_eq(count_op(t->vm, "hits", OP_IN_SET), 1);
    ck_assert_int_eq(count_op(t->vm, "hits", OP_FOR_NEXT), 2);
    tvm_free(t);
    same_steps_and_limits(MORE_PAIRS, "hits(k2, 5)");
    same_steps_and_limits(MORE_PAIRS, "hits(k1, 1) + hits(k2, -1) + hits(k3, 9)");
}
END_TEST

/* And three more (sitting 16): an inlined fn whose value is a side feature's test, or a tabled
 * query's answer tested for a member, tested at once by its caller (LF_SIDE_HAS_K_LEAVE,
 * CALL_QUERY_IN_SET_LEAVE: three in one, the fn's end and the jump), and an `any` loop's test
 * and its back edge (JUMP_IF_TRUE_BACK). On PAIR_BOARD (pairs_of_instructions_run_as_one):
 *   walls(a, b), how many steps of the line cross a wall: A1 -> D1 crosses A1/B1 (its first
 *   step, from A1 into B1): 1; A2 -> C2: none, 0.
 *   tally(k, x), sum: how many of m1, m2, m3 are in marks(k) ({m1}, {m1, m2}, {m3}: 1, 2, 1),
 *   plus 10 when any of [x > 5, x > 3, x > 1] holds (x > 1).
 *   tally(k2, 5) = 2 + 10 = 12; tally(k1, 0) = 1 (the loop runs out); tally(k3, 9) = 11;
 *   tally(k2, 2) = 12 (the last item decides).
 * The steps, and E207's place at every smaller budget, are the rules' one by one (the columns
 * too: these fns read their arguments in place, but the budget runs out on those reads as
 * INLINE_FORWARD's gap says, an_entry_and_a_reading_run_with_what_follows; so the parts). */
static const char *const LEAVE_PAIRS =
    "source \"T.1\" = \"this test's rules\";\n"
    "terrain open; terrain woods; side_feature wall;\n"
    "enum sort { k1, k2, k3 }\n"
    "enum mark { m1, m2, m3 }\n"
    "query marks(k: sort) -> set<mark> combine first;\n"
    "rule marks.r cite \"T.1\" answer if k == k1 then {m1} else if k == k2 then {m1, m2} else "
    "{m3};\n"
    "fn holds(k: sort, m: mark) -> bool = m in marks(k);\n"
    "fn walled(s: step) -> bool = side_has(s.side, wall);\n"
    "query walls(a: square, b: square) -> int combine first;\n"
    "rule walls.r cite \"T.1\" answer count(s in line(a, b): walled(s));\n"
    "query tally(k: sort, x: int) -> int combine sum;\n"
    "rule tally.a cite \"T.1\" answer count(m in [m1, m2, m3]: holds(k, m));\n"
    "rule tally.b cite \"T.1\" when any(b in [x > 5, x > 3, x > 1]: b) answer 10;\n";

/* The fewest steps e needs on PAIR_BOARD under LEAVE_PAIRS, traced (the rules one by one) or
 * not (fewest_pair_steps' search). */
static unsigned long fewest_leave_steps(const char *e, bool traced)
{
    unsigned long lo = 1, hi = 1 << 16;
    while (lo + 1 < hi) {
        unsigned long mid = (lo + hi) / 2;
        tvm *v = tvm_new_cfg(LEAVE_PAIRS, mid, 0);
        ck_assert_int_eq(hon_load_board_source(v->vm, "p.scn", PAIR_BOARD, strlen(PAIR_BOARD)),
                         HON_OK);
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

START_TEST(a_value_tested_at_its_fns_end_runs_as_one)
{
    tvm *t = tvm_new_cfg(LEAVE_PAIRS, 0, 0);
    ck_assert_int_eq(hon_load_board_source(t->vm, "p.scn", PAIR_BOARD, strlen(PAIR_BOARD)), HON_OK);
    for (int twice = 0; twice < 2; twice++) { /* the second time marks' answers from its table */
        both(t, "walls(@A1, @D1)", "1");
        both(t, "walls(@A2, @C2)", "0");
        both(t, "tally(k2, 5)", "12");
        both(t, "tally(k1, 0)", "1");
        both(t, "tally(k3, 9)", "11");
        both(t, "tally(k2, 2)", "12");
    }
    ck_assert_int_eq(count_op(t->vm, "walls", OP_LF_SIDE_HAS_K_LEAVE), 1);
    ck_assert_int_eq(count_op(t->vm, "tally", OP_CALL_QUERY_IN_SET_LEAVE), 1);
    ck_assert_int_eq(count_op(t->vm, "tally", OP_JUMP_IF_TRUE_BACK), 1);
    /* the instructions after them kept in place */
    ck_assert_int_eq(count_op(t->vm, "walls", OP_LEAVE_JUMP_IF_FALSE), 1);
    ck_assert_int_eq(count_op(t->vm, "tally", OP_LEAVE_JUMP_IF_FALSE), 1);
    ck_assert_int_eq(count_op(t->vm, "tally", OP_FOR_BACK), 2);
    tvm_free(t);
    const char *const calls[] = { "walls(@A1, @D1)", "tally(k2, 5)", "tally(k1, 0)",
                                  "tally(k2, 2)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        ck_assert_uint_eq(fewest_leave_steps(calls[i], false), fewest_leave_steps(calls[i], true));
}
END_TEST

/* And two more (sitting 16, spec2): a constant pushed and then a kept read (K_KEPT: in the
 * bundled rules `t in terrain_traits(terrain(sq))`, the trait a constant, the terrain kept), and
 * two locals pushed one after the other (L_L). The constants are beyond 32 bits, so they are
 * CONST (an int that fits is INT). mix3(x, y, z), sum:
 *   a, 10000000000 + (x - 1) * 3; b, 20000000000 - (x - 1) * 3: (x - 1) * 3 is reached twice, so
 *   kept, its KEPT just after each rule's constant (two K_KEPT; the second runs from the slot);
 *   c, x + y * z: x, y, z pushed in a row (two L_L, the second the first's second).
 *   mix3(4, 5, 2) = 10000000009 + 19999999991 + (4 + 10) = 30000000014.
 *   mix3(1, -2, 7) = 10000000000 + 20000000000 + (1 - 14) = 29999999987.
 * The steps, and E207's place at every smaller budget, are the rules' one by one. */
static const char *const KEPT_LOCAL_PAIRS =
    "source \"T.1\" = \"this test's rules\";\n"
    "query mix3(x: int, y: int, z: int) -> int combine sum;\n"
    "rule mix3.a cite \"T.1\" answer 10000000000 + (x - 1) * 3;\n"
    "rule mix3.b cite \"T.1\" answer 20000000000 - (x - 1) * 3;\n"
    "rule mix3.c cite \"T.1\" answer x + y * z;\n";

START_TEST(a_constant_and_a_kept_read_and_two_locals_run_as_one)
{
    tvm *t = tvm_new(KEPT_LOCAL_PAIRS);
    both(t, "mix3(4, 5, 2)", "30000000014");
    both(t, "mix3(1, -2, 7)", "29999999987");
    ck_assert_int_eq(count_op(t->vm, "mix3", OP_K_KEPT), 2);
    ck_assert_int_eq(count_op(t->vm, "mix3", OP_L_L), 2);
    /* the instructions after them kept in place */
    ck_assert_int_eq(count_op(t->vm, "mix3", OP_KEPT), 2);
    tvm_free(t);
    same_steps_and_limits(KEPT_LOCAL_PAIRS, "mix3(4, 5, 2)");
    same_steps_and_limits(KEPT_LOCAL_PAIRS, "mix3(1, -2, 7) + mix3(4, 5, 2)");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("combined");
    TCase *tc = tcase_create("combined");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_mode_answers_as_its_rules_one_by_one);
    tcase_add_test(tc, a_square_next_to_a_named_side_feature_is_one_instruction);
    tcase_add_test(tc, the_combined_chunks_take_the_rules_steps);
    tcase_add_test(tc, limits_name_the_fn_or_the_rule);
    tcase_add_test(tc, the_chunks_are_built_before_the_first_answer);
    tcase_add_test(tc, queries_run_as_frames_of_the_loop);
    tcase_add_test(tc, min_and_max_stop_at_the_enums_bound);
    tcase_add_test(tc, the_default_runs_in_the_combined_chunk);
    tcase_add_test(tc, a_value_tested_at_once_is_one_instruction);
    tcase_add_test(tc, inlined_fns_read_their_arguments_in_place);
    tcase_add_test(tc, a_named_side_feature_is_one_instruction);
    tcase_add_test(tc, fns_up_to_160_words_are_copied_in);
    tcase_add_test(tc, small_queries_are_copied_at_their_calls);
    tcase_add_test(tc, min_and_max_queries_are_copied_too);
    tcase_add_test(tc, reads_are_kept_after_their_first_run);
    tcase_add_test(tc, reads_of_a_copys_parameters_are_kept_per_entry);
    tcase_add_test(tc, a_bresenham_loop_walks_as_it_goes);
    tcase_add_test(tc, a_walk_takes_the_steps_of_the_lists_loop);
    tcase_add_test(tc, a_walk_makes_the_fields_its_loop_reads);
    tcase_add_test(tc, a_walk_goes_every_way_as_the_list);
    tcase_add_test(tc, units_at_is_one_instruction);
    tcase_add_test(tc, pairs_of_instructions_run_as_one);
    tcase_add_test(tc, an_entry_and_a_reading_run_with_what_follows);
    tcase_add_test(tc, a_test_a_table_and_a_loop_start_run_as_one);
    tcase_add_test(tc, a_value_tested_at_its_fns_end_runs_as_one);
    tcase_add_test(tc, a_constant_and_a_kept_read_and_two_locals_run_as_one);
    suite_add_tcase(s, tc);
    return check_run(s);
}
