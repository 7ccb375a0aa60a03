/* test_odds.c — Check tests of exact dice odds (interp/odds.c via hon_odds): every face
 * sequence enumerated, probabilities as reduced fractions, grouped by printed result.
 * Each expected distribution is worked out by counting outcomes in the comment.
 */
#include "interp_test.h"

static const char *odds(tvm *t, const char *e)
{
    hon_answer *a = NULL;
    tvm_clear(t);
    hon_status st = hon_odds(t->vm, e, "<test>", &a);
    if (st == HON_OK)
        snprintf(t->last, sizeof t->last, "%s", hon_answer_text(a));
    else
        snprintf(t->last, sizeof t->last, "E%03d", t->ndiags ? t->d[0].code : 0);
    hon_answer_free(a);
    return t->last;
}

START_TEST(one_die)
{
    tvm *t = tvm_new(NULL);
    /* 4, 5, 6 of six faces: 3/6 = 1/2 each way */
    ck_assert_str_eq(odds(t, "roll d6 >= 4"), "false: 1/2 (50.00%)\ntrue: 1/2 (50.00%)");
    ck_assert_str_eq(odds(t, "roll d6"),
                     "1: 1/6 (16.67%)\n2: 1/6 (16.67%)\n3: 1/6 (16.67%)\n"
                     "4: 1/6 (16.67%)\n5: 1/6 (16.67%)\n6: 1/6 (16.67%)");
    /* a 6 only: 1/6 */
    ck_assert_str_eq(odds(t, "roll d6 == 6"), "false: 5/6 (83.33%)\ntrue: 1/6 (16.67%)");
    tvm_free(t);
}
END_TEST

START_TEST(two_dice)
{
    tvm *t = tvm_new(NULL);
    /* seven: (1,6) (2,5) (3,4) (4,3) (5,2) (6,1) = 6 of 36 */
    ck_assert_str_eq(odds(t, "sum(x in roll 2 d6: x) == 7"),
                     "false: 5/6 (83.33%)\ntrue: 1/6 (16.67%)");
    /* two separate rolls: the same */
    ck_assert_str_eq(odds(t, "roll d6 + roll d6 == 7"),
                     "false: 5/6 (83.33%)\ntrue: 1/6 (16.67%)");
    /* at least one 6 in two dice: 1 - 25/36 = 11/36 */
    ck_assert_str_eq(odds(t, "any(x in roll 2 d6: x == 6)"),
                     "false: 25/36 (69.44%)\ntrue: 11/36 (30.56%)");
    tvm_free(t);
}
END_TEST

START_TEST(variable_length)
{
    tvm *t = tvm_new(NULL);
    /* Reroll on a 6: 0 with 5/6; each k in 1..6 with 1/6 * 1/6 = 1/36. */
    ck_assert_str_eq(odds(t, "if roll d6 == 6 then roll d6 else 0"),
                     "0: 5/6 (83.33%)\n1: 1/36 (2.78%)\n2: 1/36 (2.78%)\n3: 1/36 (2.78%)\n"
                     "4: 1/36 (2.78%)\n5: 1/36 (2.78%)\n6: 1/36 (2.78%)");
    tvm_free(t);
}
END_TEST

START_TEST(no_dice_and_rules)
{
    tvm *t = tvm_new("query hit(need: int) -> bool combine first;\n"
                     "rule hit.die cite \"X\" answer roll d6 >= need;\n");
    ck_assert_str_eq(odds(t, "1 + 2"), "3: 1/1 (100.00%)");
    /* need 5: faces 5 and 6 hit, 2/6 = 1/3 */
    ck_assert_str_eq(odds(t, "hit(5)"), "false: 2/3 (66.67%)\ntrue: 1/3 (33.33%)");
    tvm_free(t);
}
END_TEST

START_TEST(odds_errors)
{
    tvm *t = tvm_new(NULL);
    /* a 1 makes the divisor 0: the error of that path is the answer */
    ck_assert_str_eq(odds(t, "10 / (roll d6 - 1)"), "E205");
    /* more than 48 dice on one path cannot be enumerated exactly */
    ck_assert_str_eq(odds(t, "len(roll 49 d6)"), "E210");
    /* a type error is a compile error, as for eval */
    ck_assert_str_eq(odds(t, "roll d6 + true"), "E104");
    tvm_free(t);
}
END_TEST

START_TEST(odds_total_budget)
{
    /* Budget 1000 steps: one path of `sum(x in roll 4 d6: x)` takes far fewer, but its
     * 6^4 = 1296 paths take tens of thousands in all, more than 10 budgets (10,000). */
    tvm *t = tvm_new_cfg(NULL, 1000, 0);
    ck_assert_str_eq(odds(t, "sum(x in roll 4 d6: x) > 10"), "E207");
    ck_assert_ptr_nonnull(strstr(t->log, "in all"));
    /* one die is fine: 6 short paths */
    ck_assert_str_eq(odds(t, "roll d6 > 3"), "false: 1/2 (50.00%)\ntrue: 1/2 (50.00%)");
    tvm_free(t);
}
END_TEST

START_TEST(odds_json)
{
    tvm *t = tvm_new(NULL);
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_odds(t->vm, "roll d6 >= 5", "<test>", &a), HON_OK);
    /* 2 of 6 faces: 1/3; false 2/3; 6 paths in all */
    ck_assert_str_eq(hon_answer_json(a),
        "{\"value\": [{\"value\": false, \"text\": \"false\", \"probability\": \"2/3\", "
        "\"p\": 0.66666666666666663, \"paths\": 4}, {\"value\": true, \"text\": \"true\", "
        "\"probability\": \"1/3\", \"p\": 0.33333333333333331, \"paths\": 2}], "
        "\"type\": \"odds of bool\", \"paths\": 6, \"trace\": []}");
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("odds");
    TCase *tc = tcase_create("odds");
    tcase_add_test(tc, one_die);
    tcase_add_test(tc, two_dice);
    tcase_add_test(tc, variable_length);
    tcase_add_test(tc, no_dice_and_rules);
    tcase_add_test(tc, odds_errors);
    tcase_add_test(tc, odds_total_budget);
    tcase_add_test(tc, odds_json);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
