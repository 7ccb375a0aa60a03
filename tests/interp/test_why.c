/* test_why.c — Check tests of the brief trace (`why`, hon_answer_why: repl.md §2b) beside the
 * complete one (`why full`, hon_answer_trace), and of traced procedures (`why do`, hon_why_do):
 * which rules are shown, one-line calls that no rule answered, counted repeats, cut values, the
 * events of a procedure with the rules that fired and their effects, and the JSON trace.
 *
 * Every expected text is worked out in a comment from the little programs below.
 */
#include "eval.h"
#include "interp_test.h"
#include "session.h"

/* The brief trace of evaluating e (must succeed). */
static const char *why_brief(tvm *t, const char *e)
{
    return answer_part(t, e, hon_answer_why);
}

/* True when a diagnostic with that code was reported, wherever. */
static int has_code(const tvm *t, int code)
{
    for (size_t i = 0; i < t->ndiags; i++)
        if (t->d[i].code == code)
            return 1;
    return 0;
}

static const char *const NESTED =
    "query inner(x: int) -> int combine first default 0;\n"
    "rule inner.pos cite \"I.1\" when x > 0 answer x;\n"
    "query lo(x: int) -> int combine min default 9;\n"
    "rule lo.small cite \"L.1\" when x < 5 answer x;\n"
    "rule lo.big cite \"L.2\" when x > 100 answer 100;\n"
    "table bonus(n: int) -> int { 1 => 5; 2 => 6; }\nquery outer(x: int) -> int combine sum;\n"
    "rule outer.a cite \"O.1\" answer inner(x) + inner(0) + inner(0);\n"
    "rule outer.b cite \"O.2\" answer lo(x) + bonus[1] + bonus[1] + bonus[2];\n"
    "rule outer.never cite \"O.3\" when x > 100 answer 5;\n"
    "source \"I.1\"; source \"L.1\"; source \"L.2\"; source \"O.1\"; source \"O.2\";\n"
    "source \"O.3\";\n";

START_TEST(brief_shows_what_fired)
{
    tvm *t = tvm_new(NESTED);
    /* outer(2): outer.a = inner(2) + inner(0) + inner(0) = 2 + 0 + 0 = 2 (inner(0): pos does
     * not fire, the default 0 answers); outer.b = lo(2) + 5 + 5 + 6 = 2 + 16 = 18 (lo(2):
     * small fires with 2, big does not); never does not fire. Sum 20.
     * Brief: the top call keeps every rule checked; below it only what fired; the two
     * identical inner(0) calls are one line with their count, so are the two bonus[1]
     * lookups; lo.big, which did not fire under lo(2), is not shown. */
    ck_ev(t, "outer(2)", "20");
    ck_assert_str_eq(why_brief(t, "outer(2)"),
                     "outer(2) = 20   [sum]\n  rule outer.a: 2   (O.1)\n"
                     "    inner(2) = 2   [first]\n      rule inner.pos: 2   (I.1)\n"
                     "    inner(0) = 0   (no rule fired: checked pos)   \xc3\x97"
                     "2\n  rule outer.b: 18   (O.2)\n"
                     "    lo(2) = 2   [min]\n      rule lo.small: 2   (L.1)\n"
                     "    table bonus[1] = 5   \xc3\x97"
                     "2\n    table bonus[2] = 6\n  rule outer.never: did not fire   (O.3)\n");
    /* the complete trace keeps every call, every rule checked and every lookup, in order, and
     * says why each rule that did not fire did not: pos under inner(0), 0 > 0; big under lo(2)
     * and never under outer(2), 2 > 100 */
    ck_assert_str_eq(why(t, "outer(2)"),
                     "outer(2) = 20   [sum]\n  rule outer.a: 2   (O.1)\n"
                     "    inner(2) = 2   [first]\n"
                     "      rule inner.pos: 2   (I.1)\n"
                     "    inner(0) = 0   [first]\n"
                     "      rule inner.pos: did not fire: x > 0 was false (x = 0)   (I.1)\n"
                     "      default: 0 (no rule fired; checked pos)\n"
                     "    inner(0) = 0   [first]\n"
                     "      rule inner.pos: did not fire: x > 0 was false (x = 0)   (I.1)\n"
                     "      default: 0 (no rule fired; checked pos)\n"
                     "  rule outer.b: 18   (O.2)\n    lo(2) = 2   [min]\n"
                     "      rule lo.small: 2   (L.1)\n"
                     "      rule lo.big: did not fire: x > 100 was false (x = 2)   (L.2)\n"
                     "    table bonus[1] = 5\n    table bonus[1] = 5\n"
                     "    table bonus[2] = 6\n"
                     "  rule outer.never: did not fire: x > 100 was false (x = 2)   (O.3)\n");
    tvm_free(t);
}
END_TEST

START_TEST(brief_top_level_explains_defaults)
{
    tvm *t = tvm_new(NESTED);
    /* asked at the top, a call that no rule answered keeps its rules and its closing line:
     * inner(0) and lo(7) (7 < 5 and 7 > 100 are both false: the default 9) */
    ck_assert_str_eq(why_brief(t, "inner(0)"), "inner(0) = 0   [first]\n"
                                               "  rule inner.pos: did not fire   (I.1)\n"
                                               "  default: 0 (no rule fired; checked pos)\n");
    ck_assert_str_eq(why_brief(t, "lo(7)"), "lo(7) = 9   [min]\n"
                                            "  rule lo.small: did not fire   (L.1)\n"
                                            "  rule lo.big: did not fire   (L.2)\n"
                                            "  default: 9 (no rule fired; checked small, big)\n");
    /* two identical top-level calls count like any siblings */
    ck_assert_str_eq(why_brief(t, "inner(3) + inner(3)"), "inner(3) = 3   [first]   \xc3\x97"
                                                          "2\n  rule inner.pos: 3   (I.1)\n");
    tvm_free(t);
}
END_TEST

/* A sum whose default asks another query: fire(n) adds to its default, base(n), what its own rule
 * gives; base(n) is the sum of its rules (default 0). */
static const char *const SUMMED =
    "query base(n: int) -> int combine sum default 0;\n"
    "rule base.cover cite \"B.1\" when n > 0 answer 1;\n"
    "rule base.gear cite \"B.2\" when n > 5 answer 2;\n"
    "query fire(n: int) -> int combine sum default base(n);\n"
    "rule fire.extra cite \"F.1\" when n > 9 answer 1;\n"
    "query shot(n: int) -> int combine sum;\n"
    "rule shot.roll cite \"S.1\" answer 4 + fire(n);\n"
    "source \"B.1\"; source \"B.2\"; source \"F.1\"; source \"S.1\";\n";

START_TEST(brief_unfolds_a_default_that_holds_terms)
{
    tvm *t = tvm_new(SUMMED);
    /* shot(3) = 4 + fire(3); fire.extra does not fire (3 > 9 is false), so fire(3) is its
     * default base(3) = 1 (base.cover: 3 > 0; base.gear: 3 > 5 is false). The bonus of 1 is a
     * term of the shot: below the top, fire(3) is not folded to "no rule fired" but shows its
     * default and the rule that gave it, then says the default alone answered. */
    ck_ev(t, "shot(3)", "5");
    ck_assert_str_eq(why_brief(t, "shot(3)"),
                     "shot(3) = 5   [sum]\n  rule shot.roll: 5   (S.1)\n"
                     "    fire(3) = 1   [sum]\n      default: 1\n"
                     "        base(3) = 1   [sum]\n          default: 0\n"
                     "          rule base.cover: 1   (B.1)\n"
                     "      no rule fired: the default alone (checked extra)\n");
    /* shot(0): base(0) = 0 (no rule of base fires), fire(0) = 0: nothing to show below the
     * default, and fire(0) stays one line */
    ck_assert_str_eq(why_brief(t, "shot(0)"), "shot(0) = 4   [sum]\n  rule shot.roll: 4   (S.1)\n"
                                              "    fire(0) = 0   (no rule fired: checked extra)\n");
    tvm_free(t);
}
END_TEST

/* Queries that have no rule at all (X2 of rev20): their answer is the query's default, or for a
 * permission, all or any query what it answers when no rule fires (language.md §3.5). None was
 * checked, so the trace says no rule applies; "no rule fired: no rule to check" (before) read
 * as if a rule had been looked at and failed. */
static const char *const RULELESS =
    "query past(x: int) -> bool combine first default x > 3;\n"
    "query free(x: int) -> verdict combine permission;\n"
    "query each(x: int) -> bool combine all;\n"
    "query some(x: int) -> bool combine any;\n"
    "query extra(x: int) -> int combine sum default 2;\n"
    "query top(x: int) -> int combine sum;\n"
    "rule top.asks cite \"T.1\" answer (if past(x) then 1 else 0)\n"
    "  + (if free(x) == permit then 10 else 0) + (if each(x) then 100 else 0)\n"
    "  + (if some(x) then 1000 else 0) + extra(x);\n"
    "source \"T.1\";\n";

START_TEST(no_rule_applies_to_a_ruleless_query)
{
    tvm *t = tvm_new(RULELESS);
    /* top(5): past(5) is its default 5 > 3 = true (1); free(5) permit (10); each(5) true (100);
     * some(5) false (0); extra(5) its default 2: 1 + 10 + 100 + 0 + 2 = 113 */
    ck_ev(t, "top(5)", "113");
    /* brief: each call below the top is one line; a default-bearing query says its default
     * answered, the others only that no rule applies (the answer is on the line) */
    ck_assert_str_eq(why_brief(t, "top(5)"),
                     "top(5) = 113   [sum]\n  rule top.asks: 113   (T.1)\n"
                     "    past(5) = true   (no rule applies: the query's default)\n"
                     "    free(5) = permit   (no rule applies)\n"
                     "    each(5) = true   (no rule applies)\n"
                     "    some(5) = false   (no rule applies)\n"
                     "    extra(5) = 2   (no rule applies: the query's default)\n");
    /* complete: every call with its default or closing line, no "checked" list */
    ck_assert_str_eq(why(t, "top(5)"),
                     "top(5) = 113   [sum]\n  rule top.asks: 113   (T.1)\n"
                     "    past(5) = true   [first]\n      default: true (no rule applies)\n"
                     "    free(5) = permit   [permission]\n      no rule applies: permit\n"
                     "    each(5) = true   [all]\n      no rule applies: true\n"
                     "    some(5) = false   [any]\n      no rule applies: false\n"
                     "    extra(5) = 2   [sum]\n      default: 2\n"
                     "      no rule applies: the default alone\n");
    /* asked at the top, in the brief form */
    ck_assert_str_eq(why_brief(t, "past(2)"), "past(2) = false   [first]\n"
                                              "  default: false (no rule applies)\n");
    ck_assert_str_eq(why_brief(t, "free(2)"), "free(2) = permit   [permission]\n"
                                              "  no rule applies: permit\n");
    tvm_free(t);
}
END_TEST

START_TEST(brief_permission)
{
    /* may(x) forbids negative x unless x == -7; ok(x) asks may(x) inside its rule.
     * ok(1): ok.asks answers may(1) == permit: may(1): no rule fires (1 < 0 false) -> permit,
     * one line; ok(-7): may.neg forbids, may.except permits: the permit decides (and stops) */
    tvm *t = tvm_new("query may(x: int) -> verdict combine permission;\n"
                     "rule may.neg cite \"P.1\" when x < 0 answer forbid;\n"
                     "rule may.except cite \"P.2\" when x == -7 answer permit;\n"
                     "query ok(x: int) -> bool combine any;\n"
                     "rule ok.asks cite \"K.1\" answer may(x) == permit;\n"
                     "source \"P.1\"; source \"P.2\"; source \"K.1\";\n");
    ck_assert_str_eq(why_brief(t, "ok(1)"),
                     "ok(1) = true   [any]\n  rule ok.asks: true   (K.1)\n"
                     "    may(1) = permit   (no rule fired: checked neg, except)\n");
    ck_assert_str_eq(why_brief(t, "ok(-7)"), "ok(-7) = true   [any]\n  rule ok.asks: true   (K.1)\n"
                                             "    may(-7) = permit   [permission]\n"
                                             "      rule may.neg: forbid   (P.1)\n"
                                             "      rule may.except: permit   (P.2)\n");
    /* at the top, a permit that no rule gave keeps its explanation */
    ck_assert_str_eq(why_brief(t, "may(1)"), "may(1) = permit   [permission]\n"
                                             "  rule may.neg: did not fire   (P.1)\n"
                                             "  rule may.except: did not fire   (P.2)\n"
                                             "  no rule forbids: permit (checked neg, except)\n");
    tvm_free(t);
}
END_TEST

/* The brief trace alone (HON_WANT_WHY, what `hon why` asks: no guard worded, so the plain
 * chunks run), and in *runs how many chunks were run from C meanwhile (vm_ctx.chunk_runs). */
static const char *why_alone(tvm *t, const char *e, uint64_t *runs)
{
    hon_answer *a = NULL;
    tvm_clear(t);
    const uint64_t before = t->vm->x.chunk_runs;
    hon_status st = hon_eval_as(t->vm, e, "<test>", HON_WANT_WHY, &a);
    ck_assert_msg(st == HON_OK, "eval of %s failed: %s", e, t->log);
    *runs = t->vm->x.chunk_runs - before;
    snprintf(t->last, sizeof t->last, "%s", hon_answer_why(a));
    hon_answer_free(a);
    return t->last;
}

/* Asked for the brief trace alone, each call runs its query's combined chunk (vm.md §6), its
 * rules' exits recording what running them one by one records: the brief text is the same as
 * the one rendered from the complete trace (whose guards are worded, so its rules run one by
 * one), for every mode, for rules that fire and do not, a default, a nested call no rule
 * answered, and repeats. */
START_TEST(brief_alone_runs_combined_chunks)
{
    tvm *t = tvm_new(NESTED);
    uint64_t runs;
    /* outer(2) (the text brief_shows_what_fired works out): the expression's chunk; outer's
     * combined chunk (rules a, b, never); inner(2)'s; inner(0)'s twice, its default run in the
     * same combined chunk after its rule (pos does not fire; RULE_ELSE, vm.md §5a); lo(2)'s
     * (small, big): 1 + 1 + 1 + 2 * 1 + 1 = 6 chunks run from C. Rule by rule it was
     * 1 + 3 + 1 + 2 * 2 + 2 = 11. */
    static const char *const exprs[] = { "outer(2)", "inner(0)", "lo(7)", "inner(3) + inner(3)",
                                         "outer(0) + lo(200)" };
    char alone[4096];
    snprintf(alone, sizeof alone, "%s", why_alone(t, "outer(2)", &runs));
    ck_assert_uint_eq(runs, 6);
    for (size_t i = 0; i < sizeof exprs / sizeof *exprs; i++) {
        snprintf(alone, sizeof alone, "%s", why_alone(t, exprs[i], &runs));
        ck_assert_str_eq(alone, why_brief(t, exprs[i]));
    }
    tvm_free(t);
    /* permission (a forbid that goes on, a permit that decides, none: permit), any, all, and
     * sum with a default (run first, in the same chunk) */
    t = tvm_new("query may(x: int) -> verdict combine permission;\n"
                "rule may.neg cite \"P.1\" when x < 0 answer forbid;\n"
                "rule may.except cite \"P.2\" when x == -7 answer permit;\n"
                "query ok(x: int) -> bool combine any;\n"
                "rule ok.asks cite \"K.1\" answer may(x) == permit;\n"
                "rule ok.big cite \"K.2\" when x > 9 answer true;\n"
                "query each(x: int) -> bool combine all;\n"
                "rule each.pos cite \"E.1\" when x < 0 answer false;\n"
                "rule each.ok cite \"E.2\" answer ok(x);\n"
                "query total(x: int) -> int combine sum default 1;\n"
                "rule total.a cite \"T.1\" when x > 0 answer x;\n"
                "rule total.b cite \"T.2\" when x > 5 answer if each(x) then 10 else 20;\n"
                "source \"P.1\"; source \"P.2\"; source \"K.1\"; source \"K.2\";\n"
                "source \"E.1\"; source \"E.2\"; source \"T.1\"; source \"T.2\";\n");
    /* an error: the traces as far as the evaluation went (hon_ask_query, what hon diff shows)
     * are the same too. bad(4): bad.a is checked after bad.no (4 > 100 false), and asks
     * div(4) = 10 / 1 and div(3) = 10 / 0, which fails inside rule div.by: bad(4), bad.a,
     * div(3) and div.by stay open */
    tvm *e = tvm_new("query div(x: int) -> int combine first default 0;\n"
                     "rule div.by cite \"D.1\" when x > 0 answer 10 / (x - 3);\n"
                     "query bad(x: int) -> int combine sum default 1;\n"
                     "rule bad.no cite \"B.1\" when x > 100 answer 1;\n"
                     "rule bad.a cite \"B.2\" when x > 1 answer div(x) + div(x - 1);\n"
                     "source \"D.1\"; source \"B.1\"; source \"B.2\";\n");
    hon_query_handle *h = hon_lookup_query(e->vm, "bad");
    const hon_value four = { HON_V_INT, 4 };
    hon_answer *brief = NULL, *full = NULL;
    ck_assert_int_eq(eval_ask_query(e->vm, h, &four, 1, HON_WANT_WHY, &brief), HON_ERR_RUNTIME);
    ck_assert_int_eq(eval_ask_query(e->vm, h, &four, 1, HON_WANT_WHY | HON_WANT_TRACE, &full),
                     HON_ERR_RUNTIME);
    ck_assert_ptr_nonnull(strstr(hon_answer_why(full), "div(3)"));
    ck_assert_str_eq(hon_answer_why(brief), hon_answer_why(full));
    hon_answer_free(brief);
    hon_answer_free(full);
    hon_query_handle_free(h);
    tvm_free(e);
    static const char *const more[] = { "ok(1)",    "ok(-7)",   "ok(-2)",    "may(1)",   "each(3)",
                                        "each(-1)", "total(3)", "total(12)", "total(-1)" };
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) {
        snprintf(alone, sizeof alone, "%s", why_alone(t, more[i], &runs));
        ck_assert_str_eq(alone, why_brief(t, more[i]));
    }
    tvm_free(t);
}
END_TEST

START_TEST(brief_cuts_long_values)
{
    tvm *t = tvm_new("record r { alpha: int, beta: int, gamma: int, delta: int }\n"
                     "query q(v: r) -> int combine first;\nrule q.a cite \"Q\" answer v.alpha;\n"
                     "query n(l: list<int>) -> int combine first;\n"
                     "rule n.a cite \"N\" answer len(l);\nsource \"Q\"; source \"N\";\n");
    /* r{alpha: 1, beta: 2, gamma: 3, delta: 4} is exactly 40 characters: printed whole */
    ck_assert_str_eq(why_brief(t, "q(r{alpha: 1, beta: 2, gamma: 3, delta: 4})"),
                     "q(r{alpha: 1, beta: 2, gamma: 3, delta: 4}) = 1   [first]\n"
                     "  rule q.a: 1   (Q)\n");
    /* with delta 44 it is 41: `r{` (2) + `alpha: 1` (8) + `, beta: 2` (9) + `, gamma: 3`
     * (10) = 29, and `, delta: 44}` would end at 41 > 40: cut after gamma, `, …}` */
    ck_assert_str_eq(why_brief(t, "q(r{alpha: 1, beta: 2, gamma: 3, delta: 44})"),
                     "q(r{alpha: 1, beta: 2, gamma: 3, \xe2\x80\xa6}) = 1   [first]\n"
                     "  rule q.a: 1   (Q)\n");
    /* [1, ..., 20]: `[1` is 2 characters, each further one-digit item 3 more: `[1, ..., 9` is
     * 26; `, 10` -> 30 and `, 11` -> 34 still leave room for `, …]` (34 + 4 = 38 <= 40), `, 12`
     * would not (38 + 4 = 42) */
    ck_assert_str_eq(why_brief(t, "n([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, "
                                  "18, 19, 20])"),
                     "n([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, \xe2\x80\xa6]) = 20   [first]\n"
                     "  rule n.a: 20   (N)\n");
    /* the complete trace prints the whole value */
    ck_assert_str_eq(why(t, "q(r{alpha: 1, beta: 2, gamma: 3, delta: 44})"),
                     "q(r{alpha: 1, beta: 2, gamma: 3, delta: 44}) = 1   [first]\n"
                     "  rule q.a: 1   (Q)\n");
    tvm_free(t);
}
END_TEST

/* ---- why do ---- */

static const char *const PLAY =
    "kind infantry; side allies; marker suppressed; marker shaken; terrain open;\n"
    "counter rifle: infantry { side allies }\n"
    "query allowed(u: unit) -> verdict combine permission;\n"
    "rule allowed.no cite \"P.1\" when has(u, shaken) answer forbid;\nevent suppress(u: unit);\n"
    "event marker_received(u: unit, m: marker) on give;\n"
    "rule suppress.give cite \"S.1\" when allowed(u) == permit do { give u suppressed; };\n"
    "rule suppress.never cite \"S.2\" when false do { give u shaken; };\n"
    "rule marker_received.shaken cite \"M.1\"\n"
    "  when m == suppressed and marker_count(u, suppressed) >= 2\n"
    "  do { give u shaken; note \"shaken now\"; };\n"
    "source \"P.1\"; source \"S.1\"; source \"S.2\"; source \"M.1\";\n";

static const char *const PLAY_BOARD = "scenario \"two\"\nsize 2 x 1\nlegend . = open\nmap\n"
                                      "  1 . .\nunit a = rifle allies at A1\n";

static tvm *play_vm(void)
{
    tvm *t = tvm_new(PLAY);
    ck_assert_int_eq(hon_load_board_source(t->vm, "two.scn", PLAY_BOARD, strlen(PLAY_BOARD)),
                     HON_OK);
    return t;
}

START_TEST(why_do_events)
{
    tvm *t = play_vm();
    hon_answer *a = NULL;
    /* 1st: allowed($a) is permit ($a is not shaken: no rule fired, one line under the rule
     * that asked it); give runs its block (1 effect); the give raises marker_received($a,
     * suppressed), which runs after the block, under it: shaken does not fire (1 marker);
     * never is checked after, does not fire, and stays listed at the top */
    ck_assert_int_eq(hon_why_do(t->vm, "suppress($a)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "give $a suppressed   (S.1)\n");
    ck_assert_str_eq(hon_answer_why(a),
                     "event suppress($a)\n  rule suppress.give: 1 effect   (S.1)\n"
                     "    allowed($a) = permit   (no rule fired: checked no)\n"
                     "    event marker_received($a, suppressed)   (no rule fired: checked shaken)\n"
                     "  rule suppress.never: did not fire   (S.2)\n");
    hon_answer_free(a);
    /* 2nd: the second marker makes shaken fire: it gives Shaken (an effect) and writes a
     * note; its give raises marker_received($a, shaken), where m is not suppressed */
    ck_assert_int_eq(hon_why_do(t->vm, "suppress($a)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "give $a suppressed   (S.1)\ngive $a shaken   (M.1)\n"
                                         "note: shaken now   (M.1)\n");
    ck_assert_str_eq(hon_answer_why(a),
                     "event suppress($a)\n  rule suppress.give: 1 effect   (S.1)\n"
                     "    allowed($a) = permit   (no rule fired: checked no)\n"
                     "    event marker_received($a, suppressed)\n"
                     "      rule marker_received.shaken: 1 effect, 1 note   (M.1)\n"
                     "        event marker_received($a, shaken)   (no rule fired: checked shaken)\n"
                     "  rule suppress.never: did not fire   (S.2)\n");
    /* the complete form: every rule checked, every call whole, each rule's lines, and why
     * each rule that did not fire did not: allowed.no was asked before this run's give, so
     * $a had no Shaken; under marker_received($a, shaken), m is shaken, not suppressed (the
     * first operand fails: the second is not evaluated); never's guard is `false` */
    ck_assert_str_eq(hon_answer_trace(a),
                     "event suppress($a)\n  rule suppress.give: 1 effect   (S.1)\n"
                     "    \xe2\x86\x92 give $a suppressed   (S.1)\n"
                     "    allowed($a) = permit   [permission]\n"
                     "      rule allowed.no: did not fire: has(u, shaken) was false   (P.1)\n"
                     "      no rule forbids: permit (checked no)\n"
                     "    event marker_received($a, suppressed)\n"
                     "      rule marker_received.shaken: 1 effect, 1 note   (M.1)\n"
                     "        \xe2\x86\x92 give $a shaken   (M.1)\n"
                     "        \xe2\x86\x92 note: shaken now   (M.1)\n"
                     "        event marker_received($a, shaken)\n"
                     "          rule marker_received.shaken: did not fire: m == suppressed was "
                     "false (m = shaken)   (M.1)\n"
                     "          no rule fired (checked shaken)\n"
                     "  rule suppress.never: did not fire: false was false   (S.2)\n");
    hon_answer_free(a);
    /* 3rd: $a is shaken, allowed($a) forbids, give does not fire (what its guard asked is
     * dropped), nothing happens; the top event says no rule fired */
    ck_assert_int_eq(hon_why_do(t->vm, "suppress($a)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "no effect\n");
    ck_assert_str_eq(hon_answer_why(a), "event suppress($a)\n"
                                        "  rule suppress.give: did not fire   (S.1)\n"
                                        "  rule suppress.never: did not fire   (S.2)\n"
                                        "  no rule fired (checked give, never)\n");
    hon_answer_free(a);
    /* a traced procedure is a procedure like any: three in the history (the third changed
     * nothing), two markers given by the first two */
    ck_ev(t, "marker_count($a, suppressed)", "2");
    ck_assert_int_eq(hon_undo(t->vm, NULL), HON_OK);
    ck_assert_int_eq(hon_undo(t->vm, NULL), HON_OK);
    ck_ev(t, "marker_count($a, suppressed)", "1");
    ck_ev(t, "has($a, shaken)", "false");
    tvm_free(t);
}
END_TEST

START_TEST(why_do_json_and_errors)
{
    tvm *t = play_vm();
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_why_do(t->vm, "suppress($a)", "<test>", &a), HON_OK);
    /* hon_do's object, with the trace: the event, each rule with its lines, its citations,
     * its guard, and what its block asked and raised under "calls". The guards: give's
     * `allowed(u) == permit` held (allowed($a) = permit; the literal permit is not shown);
     * allowed.no's has(u, shaken) failed ($a has no Shaken); marker_received.shaken's first
     * operand held (m = suppressed) and its second failed: $a has 1 Suppressed marker, not 2;
     * never's `false` failed. */
    ck_assert_str_eq(
        hon_answer_json(a),
        "{\"edition\": null, \"readings\": {}, \"effects\": [\"give $a suppressed   (S.1)\"], "
        "\"rolls\": [], \"turn\": 1, \"phase\": null, "
        "\"trace\": [{\"event\": \"suppress\", \"args\": [\"$a\"], \"no_rule_fired\": false, "
        "\"rules\": [{\"rule\": \"suppress.give\", \"fired\": true, \"effects\": 1, "
        "\"lines\": [\"give $a suppressed   (S.1)\"], \"cites\": [{\"id\": \"S.1\", "
        "\"source\": null, \"example\": null}], \"module\": null, \"edition\": null, "
        "\"guard\": {\"failed\": null, \"operands\": [{\"text\": \"allowed(u) == permit\", "
        "\"unless\": false, \"passed\": true, \"sides\": [{\"text\": \"allowed(u)\", "
        "\"value\": \"permit\"}]}]}, "
        "\"calls\": [{\"query\": \"allowed\", "
        "\"mode\": \"permission\", \"args\": [\"$a\"], \"result\": \"permit\", "
        "\"no_rule_fired\": true, \"rules\": [{\"rule\": \"allowed.no\", \"fired\": false, "
        "\"answer\": null, \"cites\": [{\"id\": \"P.1\", \"source\": null, \"example\": null}], "
        "\"module\": null, \"edition\": null, "
        "\"guard\": {\"failed\": 0, \"operands\": [{\"text\": \"has(u, shaken)\", "
        "\"unless\": false, \"passed\": false, \"sides\": []}]}, "
        "\"calls\": []}]}, {\"event\": \"marker_received\", \"args\": [\"$a\", \"suppressed\"], "
        "\"no_rule_fired\": true, \"rules\": [{\"rule\": \"marker_received.shaken\", "
        "\"fired\": false, \"effects\": 0, \"lines\": [], \"cites\": [{\"id\": \"M.1\", "
        "\"source\": null, \"example\": null}], \"module\": null, \"edition\": null, "
        "\"guard\": {\"failed\": 1, \"operands\": [{\"text\": \"m == suppressed\", "
        "\"unless\": false, \"passed\": true, \"sides\": [{\"text\": \"m\", \"value\": "
        "\"suppressed\"}]}, {\"text\": \"marker_count(u, suppressed) >= 2\", \"unless\": "
        "false, \"passed\": false, \"sides\": [{\"text\": \"marker_count(u, suppressed)\", "
        "\"value\": 1}]}]}, "
        "\"calls\": []}]}]}, {\"rule\": "
        "\"suppress.never\", \"fired\": false, \"effects\": 0, \"lines\": [], \"cites\": "
        "[{\"id\": \"S.2\", \"source\": null, \"example\": null}], \"module\": null, "
        "\"edition\": null, \"guard\": {\"failed\": 0, \"operands\": [{\"text\": "
        "\"false\", \"unless\": false, \"passed\": false, \"sides\": []}]}, "
        "\"calls\": []}]}]}");
    hon_answer_free(a);
    /* not an event: E162, nothing ran */
    a = NULL;
    ck_assert_int_eq(hon_why_do(t->vm, "nothing($a)", "<test>", &a), HON_ERR_COMPILE);
    ck_assert_ptr_null(a);
    ck_assert(has_code(t, 162));
    ck_ev(t, "marker_count($a, suppressed)", "1");
    tvm_free(t);
}
END_TEST

START_TEST(why_do_without_board)
{
    tvm *t = tvm_new(PLAY);
    hon_answer *a = NULL;
    /* allowed($a) needs the board's $a: E212, the procedure is undone */
    ck_assert_int_eq(hon_why_do(t->vm, "suppress($a)", "<test>", &a), HON_ERR_RUNTIME);
    ck_assert_ptr_null(a);
    ck_assert(has_code(t, 212));
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("why");
    TCase *tc = tcase_create("why");
    tcase_add_test(tc, brief_shows_what_fired);
    tcase_add_test(tc, brief_top_level_explains_defaults);
    tcase_add_test(tc, brief_permission);
    tcase_add_test(tc, no_rule_applies_to_a_ruleless_query);
    tcase_add_test(tc, brief_unfolds_a_default_that_holds_terms);
    tcase_add_test(tc, brief_alone_runs_combined_chunks);
    tcase_add_test(tc, brief_cuts_long_values);
    tcase_add_test(tc, why_do_events);
    tcase_add_test(tc, why_do_json_and_errors);
    tcase_add_test(tc, why_do_without_board);
    suite_add_tcase(s, tc);
    return check_run(s);
}
