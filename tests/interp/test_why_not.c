/* test_why_not.c — Check tests of what a rule's guard found (repl.md §2c, vm.md §6a): the
 * reasons `why not` prints (hon_answer_why_not), the refusal (hon_answer_refusal), the guard
 * in the complete trace and in the JSON trace, and that tracing a guard changes neither the
 * answer nor the steps an evaluation takes (the VM's explained chunks, compile.c).
 *
 * Every expected text is worked out in a comment from the program below (WHY_NOT).
 */
#include "interp_test.h"

/* shade(c): warm answers 2 for red, cool 1 for blue, else the default 0.
 * may(x, c) forbids when x < 0 and c's shade is 0 (neg), or when twice x passes ten plus x
 * and c is not red (big); it permits x = -7 (except). ok(x) asks may(x, green). total(x) adds
 * a table cell and shade(green) twice. Edition e makes green an exception to may.neg. */
static const char *const WHY_NOT =
    "enum colour { red, green, blue }\n"
    "query shade(c: colour) -> int combine first default 0;\n"
    "rule shade.warm cite \"S.1\" when c in {red} answer 2;\n"
    "rule shade.cool cite \"S.2\" when c == blue answer 1;\n"
    "query may(x: int, c: colour) -> verdict combine permission;\n"
    "rule may.neg cite \"P.1\" when x < 0 and shade(c) == 0 answer forbid;\n"
    "rule may.big cite \"P.2\"\n"
    "  when x * 2 >   # twice x\n"
    "       10 + x\n"
    "   and not (c == red)\n"
    "  answer forbid;\n"
    "rule may.except cite \"P.3\" when x == -7 answer permit;\n"
    "query ok(x: int) -> bool combine any;\n"
    "rule ok.asks cite \"K.1\" answer may(x, green) == permit;\n"
    "table bonus(n: int) -> int { 1 => 5; }\n"
    "query total(x: int) -> int combine sum;\n"
    "rule total.b cite \"T.1\" answer bonus[x] + shade(green) + shade(green);\n"
    "edition e { revise rule may.neg cite \"P.4\" unless c == green; }\n"
    "source \"S.1\"; source \"S.2\"; source \"P.1\"; source \"P.2\"; source \"P.3\";\n"
    "source \"P.4\"; source \"K.1\"; source \"T.1\";\n";

/* The reasons of may(-2, green), each line after the indent I (a string literal), as
 * why_not_a_forbid works them out. */
#define MAY_MINUS_2_GREEN(I)                                                               \
    I "may(-2, green) = forbid   [permission]\n" I                                         \
      "  rule may.neg: forbid, since x < 0 (x = -2) and shade(c) == 0   (P.1)\n" I         \
      "    shade(green) = 0   [first]\n" I                                                 \
      "      rule shade.warm: did not fire: c in {red} was false (c = green)   (S.1)\n" I  \
      "      rule shade.cool: did not fire: c == blue was false (c = green)   (S.2)\n" I   \
      "      default: 0 (no rule fired; checked warm, cool)\n" I                           \
      "  rule may.big: did not fire: x * 2 > 10 + x was false (x * 2 = -4, 10 + x = 8)   " \
      "(P.2)\n" I "  rule may.except: did not fire: x == -7 was false (x = -2)   (P.3)\n"

static tvm *t; /* a vm with WHY_NOT loaded, new for each test */

static void setup(void)
{
    t = tvm_new(WHY_NOT);
}

static void teardown(void)
{
    tvm_free(t);
}

START_TEST(why_not_a_forbid)
{
    /* may(-2, green): neg fires, -2 < 0 and shade(green) is 0 (warm: green is not in {red};
     * cool: green is not blue; the default 0), so its guard held: `<` says the value it
     * compared, `shade(c) == 0` held against a literal and so says nothing more. big: -4 > 8
     * is false (both sides computed, shown). except: -2 is not -7. No permit: forbid. */
    ck_assert_str_eq(answer_part(t, "may(-2, green)", hon_answer_text), "forbid");
    ck_assert_str_eq(answer_part(t, "may(-2, green)", hon_answer_why_not), MAY_MINUS_2_GREEN(""));
    /* the refusal: the call that forbade and its rules, without what they asked */
    ck_assert_str_eq(
        answer_part(t, "may(-2, green)", hon_answer_refusal),
        "may(-2, green) = forbid   [permission]\n"
        "  rule may.neg: forbid, since x < 0 (x = -2) and shade(c) == 0   (P.1)\n"
        "  rule may.big: did not fire: x * 2 > 10 + x was false (x * 2 = -4, 10 + x = 8)   "
        "(P.2)\n"
        "  rule may.except: did not fire: x == -7 was false (x = -2)   (P.3)\n");
    /* the brief trace is as before: below the top only what fired, no reason */
    ck_assert_str_eq(answer_part(t, "may(-2, green)", hon_answer_why),
                     "may(-2, green) = forbid   [permission]\n"
                     "  rule may.neg: forbid   (P.1)\n"
                     "    shade(green) = 0   (no rule fired: checked warm, cool)\n"
                     "  rule may.big: did not fire   (P.2)\n"
                     "  rule may.except: did not fire   (P.3)\n");
}
END_TEST

START_TEST(why_not_short_circuit_and_not)
{
    /* may(8, blue): neg's first operand 8 < 0 is false, so shade(c) is never asked (no call
     * under the rule, no reason about it); big: 16 > 18 is false; except: 8 is not -7. No rule
     * forbids: permit, and the closing line says so. Nothing was refused. The operand of big
     * is quoted as written, its comment and line break gone. */
    ck_assert_str_eq(answer_part(t, "may(8, blue)", hon_answer_why_not),
                     "may(8, blue) = permit   [permission]\n"
                     "  rule may.neg: did not fire: x < 0 was false (x = 8)   (P.1)\n"
                     "  rule may.big: did not fire: x * 2 > 10 + x was false (x * 2 = 16, 10 + "
                     "x = 18)   (P.2)\n"
                     "  rule may.except: did not fire: x == -7 was false (x = 8)   (P.3)\n"
                     "  no rule forbids: permit (checked neg, big, except)\n");
    ck_assert_str_eq(answer_part(t, "may(8, blue)", hon_answer_refusal), "");
    /* may(12, blue): big fires, 24 > 22 and not (c == red): c is blue, so c == red did not
     * hold, and its side is shown; may(12, red): the same comparison fails on `not`, c == red
     * having held (red, the literal, is not repeated) */
    ck_assert_str_eq(answer_part(t, "may(12, blue)", hon_answer_why_not),
                     "may(12, blue) = forbid   [permission]\n"
                     "  rule may.neg: did not fire: x < 0 was false (x = 12)   (P.1)\n"
                     "  rule may.big: forbid, since x * 2 > 10 + x (x * 2 = 24, 10 + x = 22) "
                     "and not (c == red) (c = blue)   (P.2)\n"
                     "  rule may.except: did not fire: x == -7 was false (x = 12)   (P.3)\n");
    ck_assert_str_eq(answer_part(t, "may(12, red)", hon_answer_trace),
                     "may(12, red) = permit   [permission]\n"
                     "  rule may.neg: did not fire: x < 0 was false (x = 12)   (P.1)\n"
                     "  rule may.big: did not fire: not (c == red) was false   (P.2)\n"
                     "  rule may.except: did not fire: x == -7 was false (x = 12)   (P.3)\n"
                     "  no rule forbids: permit (checked neg, big, except)\n");
}
END_TEST

START_TEST(why_not_unless_and_nesting)
{
    /* ok(-2) asks may(-2, green), which forbids (above): the refusal is that call, one level
     * down, told from its own line; the reasons show every call at every depth, ok's rule
     * with its answer (it has no guard: nothing after it) */
    ck_assert_str_eq(
        answer_part(t, "ok(-2)", hon_answer_refusal),
        "may(-2, green) = forbid   [permission]\n"
        "  rule may.neg: forbid, since x < 0 (x = -2) and shade(c) == 0   (P.1)\n"
        "  rule may.big: did not fire: x * 2 > 10 + x was false (x * 2 = -4, 10 + x = 8)   "
        "(P.2)\n"
        "  rule may.except: did not fire: x == -7 was false (x = -2)   (P.3)\n");
    ck_assert_str_eq(answer_part(t, "ok(-2)", hon_answer_why_not),
                     "ok(-2) = false   [any]\n"
                     "  rule ok.asks: false   (K.1)\n" MAY_MINUS_2_GREEN("    "));
    /* under edition e, may.neg's guard is `x < 0 and shade(c) == 0 and not (c == green)`:
     * for green the exception held, so it did not fire and says so (green, the literal, is
     * not repeated); nothing forbids: permit */
    ck_assert_int_eq(hon_set_edition(t->vm, "e"), HON_OK);
    ck_assert_str_eq(answer_part(t, "may(-2, green)", hon_answer_why_not),
                     "(under edition e)\n"
                     "may(-2, green) = permit   [permission]\n"
                     "  rule may.neg: did not fire: unless c == green held   (edition e)   (P.1; "
                     "P.4)\n"
                     "  rule may.big: did not fire: x * 2 > 10 + x was false (x * 2 = -4, 10 + "
                     "x = 8)   (P.2)\n"
                     "  rule may.except: did not fire: x == -7 was false (x = -2)   (P.3)\n"
                     "  no rule forbids: permit (checked neg, big, except)\n");
    /* for blue the exception does not apply, but shade(blue) is 1 (cool), so neg's second
     * operand, shade(c) == 0, fails first: the value it compared is shown */
    ck_assert_str_eq(answer_part(t, "may(-2, blue)", hon_answer_trace),
                     "(under edition e)\n"
                     "may(-2, blue) = permit   [permission]\n"
                     "  rule may.neg: did not fire: shade(c) == 0 was false (shade(c) = 1)   "
                     "(edition e)   (P.1; P.4)\n"
                     "  rule may.big: did not fire: x * 2 > 10 + x was false (x * 2 = -4, 10 + "
                     "x = 8)   (P.2)\n"
                     "  rule may.except: did not fire: x == -7 was false (x = -2)   (P.3)\n"
                     "  no rule forbids: permit (checked neg, big, except)\n");
    /* the JSON trace: may.neg's operands up to the exception, which failed (failed: 2) */
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_eval(t->vm, "may(-2, green)", "<test>", &a), HON_OK);
    ck_assert_ptr_nonnull(strstr(
        hon_answer_json(a),
        "\"guard\": {\"failed\": 2, \"operands\": [{\"text\": \"x < 0\", \"unless\": false, "
        "\"passed\": true, \"sides\": [{\"text\": \"x\", \"value\": -2}]}, {\"text\": "
        "\"shade(c) == 0\", \"unless\": false, \"passed\": true, \"sides\": [{\"text\": "
        "\"shade(c)\", \"value\": 0}]}, {\"text\": \"c == green\", \"unless\": true, \"passed\": "
        "false, \"sides\": [{\"text\": \"c\", \"value\": \"green\"}]}]}"));
    hon_answer_free(a);
}
END_TEST

START_TEST(why_not_counts_repeats_without_lookups)
{
    /* total(1) = bonus[1] + shade(green) + shade(green) = 5 + 0 + 0: the two identical calls
     * are one, counted; the table lookup is not a rule and is left out */
    ck_assert_str_eq(answer_part(t, "total(1)", hon_answer_why_not),
                     "total(1) = 5   [sum]\n"
                     "  rule total.b: 5   (T.1)\n"
                     "    shade(green) = 0   [first]   \xc3\x97"
                     "2\n"
                     "      rule shade.warm: did not fire: c in {red} was false (c = green)   "
                     "(S.1)\n"
                     "      rule shade.cool: did not fire: c == blue was false (c = green)   "
                     "(S.2)\n"
                     "      default: 0 (no rule fired; checked warm, cool)\n");
    /* an expression that asks nothing has no reasons to give */
    ck_assert_str_eq(answer_part(t, "1 + 2", hon_answer_why_not),
                     "(no query was asked and no table was read)\n");
}
END_TEST

/* Whether e evaluates within a budget of n steps: traced (hon_eval) or not (hon_odds, which
 * runs it untraced once when it rolls no die). */
static bool fits(unsigned long n, const char *e, bool traced)
{
    tvm *v = tvm_new_cfg(WHY_NOT, n, 0);
    hon_answer *a = NULL;
    hon_status st = traced ? hon_eval(v->vm, e, "<test>", &a) : hon_odds(v->vm, e, "<test>", &a);
    hon_answer_free(a);
    tvm_free(v);
    return st == HON_OK;
}

START_TEST(tracing_takes_no_step)
{
    /* The explained chunks record what their guards compare without being charged for it:
     * the fewest steps an evaluation needs are the same traced and untraced. ok(12) runs
     * every kind of guard operand (a comparison of two computed sides, `not`, a call). */
    const char *e = "ok(-2) or ok(12) or total(1) > 9";
    unsigned long lo = 1, hi = 4096;
    ck_assert(fits(hi, e, false) && !fits(lo, e, false));
    while (lo + 1 < hi) { /* the fewest steps untraced: fits at hi, not at lo */
        unsigned long mid = (lo + hi) / 2;
        if (fits(mid, e, false))
            hi = mid;
        else
            lo = mid;
    }
    ck_assert(fits(hi, e, true));
    ck_assert(!fits(hi - 1, e, true));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("why_not");
    TCase *tc = tcase_create("why_not");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, why_not_a_forbid);
    tcase_add_test(tc, why_not_short_circuit_and_not);
    tcase_add_test(tc, why_not_unless_and_nesting);
    tcase_add_test(tc, why_not_counts_repeats_without_lookups);
    tcase_add_test(tc, tracing_takes_no_step);
    suite_add_tcase(s, tc);
    return check_run(s);
}
