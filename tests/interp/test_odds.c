/* test_odds.c — Check tests of exact dice odds (interp/odds.c via hon_odds and hon_odds_do):
 * every outcome enumerated — a lone die face by face, the dice of one `roll N d6` as multisets
 * weighted by their orderings — probabilities as reduced fractions, grouped by printed result;
 * and the ascending faces of `roll N d6` in play. Each expected distribution is worked out by
 * counting outcomes in the comment.
 */
#include "config.h"
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
    ck_assert_str_eq(odds(t, "roll d6"), "1: 1/6 (16.67%)\n2: 1/6 (16.67%)\n3: 1/6 (16.67%)\n"
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
    ck_assert_str_eq(odds(t, "roll d6 + roll d6 == 7"), "false: 5/6 (83.33%)\ntrue: 1/6 (16.67%)");
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
                     "rule hit.die cite \"X\" answer roll d6 >= need;\nsource \"X\";\n");
    ck_assert_str_eq(odds(t, "1 + 2"), "3: 1/1 (100.00%)");
    /* need 5: faces 5 and 6 hit, 2/6 = 1/3 */
    ck_assert_str_eq(odds(t, "hit(5)"), "false: 2/3 (66.67%)\ntrue: 1/3 (33.33%)");
    tvm_free(t);
}
END_TEST

START_TEST(odds_errors)
{
    tvm *t = tvm_new(NULL);
    /* a 1 makes the divisor 0: that path's error is an outcome of its own, listed last with
     * its 1/6 (s20 F13: before, it was the answer and the five other faces were lost); the
     * others divide 10 by 1 to 5: 10, 5, 3 and 2 twice (10 / 4 and 10 / 5 truncate to 2) */
    ck_assert_str_eq(odds(t, "10 / (roll d6 - 1)"),
                     "2: 1/3 (33.33%)\n3: 1/6 (16.67%)\n5: 1/6 (16.67%)\n10: 1/6 (16.67%)\n"
                     "error E205: division by zero: 10 / 0: 1/6 (16.67%)");
    /* every face makes the divisor 0: no distribution, the error is the answer */
    ck_assert_str_eq(odds(t, "10 / (roll d6 * 0)"), "E205");
    /* more than 48 dice on one path cannot be enumerated exactly */
    ck_assert_str_eq(odds(t, "len(roll 49 d6)"), "E210");
    /* a type error is a compile error, as for eval */
    ck_assert_str_eq(odds(t, "roll d6 + true"), "E104");
    tvm_free(t);
}
END_TEST

START_TEST(odds_total_budget)
{
    /* Budget 1000 steps: all paths together may use 200 budgets, 200,000 steps. One path of
     * `sum(x in roll 14 d6: x)` takes far fewer than 1000, but each charges 14 steps for its
     * dice and runs FOR_NEXT 15 times (more than 29 steps), and there are C(14 + 5, 5) = 11,628
     * multisets of 14 dice: more than 337,000 steps in all. (This test rolled 4 dice while
     * odds enumerated face sequences, 6^4 paths against 10 budgets.) */
    tvm *t = tvm_new_cfg(NULL, 1000, 0);
    ck_assert_str_eq(odds(t, "sum(x in roll 14 d6: x) > 40"), "E207");
    ck_assert_ptr_nonnull(strstr(t->log, "in all"));
    /* one die is fine: 6 short paths */
    ck_assert_str_eq(odds(t, "roll d6 > 3"), "false: 1/2 (50.00%)\ntrue: 1/2 (50.00%)");
    tvm_free(t);
}
END_TEST

START_TEST(odds_outcome_cap)
{
    /* `roll 14 d6` as a value is its sorted faces: C(14 + 5, 5) = 11,628 different lists, more
     * than the 10,000 outcomes odds keeps (each is held and printed as a line: issue 13, 29
     * dice and a long list made 4.6 GB) — E210. 13 dice give C(18, 5) = 8,568: listed. */
    tvm *t = tvm_new(NULL);
    ck_assert_str_eq(odds(t, "roll 14 d6"), "E210");
    ck_assert_ptr_nonnull(strstr(t->log, "different outcomes"));
    ck_assert_str_eq(odds(t, "len(roll 13 d6) == 13"), "true: 1/1 (100.00%)");
    tvm_free(t);
}
END_TEST

START_TEST(odds_json)
{
    tvm *t = tvm_new(NULL);
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_odds(t->vm, "roll d6 >= 5", "<test>", &a), HON_OK);
    /* 2 of 6 faces: 1/3; false 2/3; 6 paths in all */
    ck_assert_str_eq(
        hon_answer_json(a),
        "{\"edition\": null, \"readings\": {}, \"value\": [{\"value\": false, \"text\": \"false\", "
        "\"probability\": \"2/3\", "
        "\"p\": 0.66666666666666663, \"paths\": 4}, {\"value\": true, \"text\": \"true\", "
        "\"probability\": \"1/3\", \"p\": 0.33333333333333331, \"paths\": 2}], "
        "\"type\": \"odds of bool\", \"paths\": 6, \"trace\": []}");
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

/* The "paths" member of an answer's JSON: how many runs the enumeration made. */
static long json_paths(const char *json)
{
    const char *p = strstr(json, "\"paths\": ");
    const char *last = NULL;
    for (; p; p = strstr(p + 1, "\"paths\": "))
        last = p; /* the answer's own count comes after the outcomes' */
    return last ? strtol(last + 9, NULL, 10) : -1;
}

START_TEST(multisets)
{
    tvm *t = tvm_new(NULL);
    hon_answer *a = NULL;
    /* Three dice, successes on 4-6 (p = 1/2): binomial(3, 1/2), 1 3 3 1 out of 8. */
    ck_assert_str_eq(odds(t, "count(x in roll 3 d6: x >= 4)"),
                     "0: 1/8 (12.50%)\n1: 3/8 (37.50%)\n2: 3/8 (37.50%)\n3: 1/8 (12.50%)");
    /* The sum of two dice: the multiset {a, b} has 2 orderings when a != b, 1 when a == b.
     * 2 = {1,1}: 1/36; 3 = {1,2}: 2/36; 4 = {1,3} {2,2}: 3/36; 5: {1,4} {2,3}: 4/36; 6:
     * {1,5} {2,4} {3,3}: 5/36; 7 = {1,6} {2,5} {3,4}: 6/36; then symmetric down to 12. */
    ck_assert_str_eq(odds(t, "sum(x in roll 2 d6: x)"),
                     "2: 1/36 (2.78%)\n3: 1/18 (5.56%)\n4: 1/12 (8.33%)\n5: 1/9 (11.11%)\n"
                     "6: 5/36 (13.89%)\n7: 1/6 (16.67%)\n8: 5/36 (13.89%)\n9: 1/9 (11.11%)\n"
                     "10: 1/12 (8.33%)\n11: 1/18 (5.56%)\n12: 1/36 (2.78%)");
    /* 21 paths: the multisets of 2 faces out of 6, C(2 + 5, 5), instead of 36 sequences */
    ck_assert_int_eq(hon_odds(t->vm, "sum(x in roll 2 d6: x)", "<test>", &a), HON_OK);
    ck_assert_int_eq(json_paths(hon_answer_json(a)), 21);
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

START_TEST(roll_is_sorted)
{
    tvm *t = tvm_new(NULL);
    hon_answer *a = NULL;
    /* The value of `roll 3 d6` is its faces ascending: {1,1,1} one ordering of 216, {1,1,2}
     * three (1/72), {1,2,3} six (1/36); C(3 + 5, 5) = 56 outcomes, none out of order. */
    ck_assert_int_eq(hon_odds(t->vm, "roll 3 d6", "<test>", &a), HON_OK);
    const char *txt = hon_answer_text(a);
    ck_assert_ptr_nonnull(strstr(txt, "[1, 1, 1]: 1/216 (0.46%)\n"));
    ck_assert_ptr_nonnull(strstr(txt, "[1, 1, 2]: 1/72 (1.39%)\n"));
    ck_assert_ptr_nonnull(strstr(txt, "[1, 2, 3]: 1/36 (2.78%)\n"));
    ck_assert_ptr_null(strstr(txt, "[2, 1, 1]"));
    ck_assert_int_eq(json_paths(hon_answer_json(a)), 56);
    hon_answer_free(a);
    /* In play (seeded dice) too: every roll of 20 dice is in ascending order. */
    for (int i = 0; i < 20; i++)
        ck_assert_str_eq(ev(t, "let r = roll 20 d6; all(i in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "
                               "11, 12, 13, 14, 15, 16, 17, 18, 19]: nth(r, i) <= nth(r, i + 1))"),
                         "true");
    /* A test's scripted dice: a roll takes the next N faces and gives them sorted; a lone die
     * takes the next face. */
    static const char *const tests = "test \"sorted\" dice [5, 1, 3, 6, 2, 2] {\n"
                                     "  expect roll 3 d6 == [1, 3, 5];\n  expect roll d6 == 6;\n"
                                     "  expect roll 2 d6 == [2, 2];\n}\n";
    ck_assert_int_eq(hon_load_source(t->vm, "sorted.hon", tests, strlen(tests)), HON_OK);
    char *buf = NULL;
    size_t len = 0, passed = 0, failed = 0;
    FILE *out = open_memstream(&buf, &len);
    hon_run_tests(t->vm, "sorted.hon", out, &passed, &failed);
    fclose(out);
    ck_assert_msg(passed == 1 && failed == 0, "%s", buf);
    free(buf);
    tvm_free(t);
}
END_TEST

START_TEST(twelve_dice)
{
    tvm *t = tvm_new(NULL);
    hon_answer *a = NULL;
    /* Two rolls of 6: 462 multisets each (C(11, 5)), 462^2 = 213,444 paths instead of 6^12.
     * Successes on 4-6 over the 12 dice: binomial(12, 1/2), C(12, k) / 4096: 1 12 66 220 495
     * 792 924 ... */
    ck_assert_int_eq(hon_odds(t->vm, "count(x in roll 6 d6 ++ roll 6 d6: x >= 4)", "<test>", &a),
                     HON_OK);
    ck_assert_str_eq(hon_answer_text(a),
                     "0: 1/4096 (0.02%)\n1: 3/1024 (0.29%)\n2: 33/2048 (1.61%)\n"
                     "3: 55/1024 (5.37%)\n4: 495/4096 (12.08%)\n5: 99/512 (19.34%)\n"
                     "6: 231/1024 (22.56%)\n7: 99/512 (19.34%)\n8: 495/4096 (12.08%)\n"
                     "9: 55/1024 (5.37%)\n10: 33/2048 (1.61%)\n11: 3/1024 (0.29%)\n"
                     "12: 1/4096 (0.02%)");
    ck_assert_int_eq(json_paths(hon_answer_json(a)), 213444);
    hon_answer_free(a);
    /* A roll whose size is rolled: n = 1..6 with 1/6 each; the sum is 1 only for n = 1 and a
     * 1: 1/36. Paths: sum over n of C(n + 5, 5) = 6 + 21 + 56 + 126 + 252 + 462 = 923. */
    ck_assert_int_eq(hon_odds(t->vm, "sum(x in roll (roll d6) d6: x) == 1", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "false: 35/36 (97.22%)\ntrue: 1/36 (2.78%)");
    ck_assert_int_eq(json_paths(hon_answer_json(a)), 923);
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

/* A procedure of 12 dice on a one-square board: 6 dice, a Suppressed marker per success on
 * 4-6, at most 2; then 6 dice, a Shaken marker per 5 or 6. */
static const char *const VOLLEY =
    "kind infantry;\nside allies;\nterrain open;\nmarker suppressed; marker shaken;\n"
    "counter rifle: infantry { side allies }\nevent volley(u: unit);\n"
    "rule volley.r cite \"T.volley\" do {\n  let a = roll 6 d6;\n"
    "  let s = min(count(x in a: x >= 4), 2);\n  give u suppressed s;\n"
    "  let b = roll 6 d6;\n  let k = count(x in b: x >= 5);\n  give u shaken k;\n};\n"
    "source \"T.volley\";\n";

START_TEST(twelve_dice_procedure)
{
    tvm *t = tvm_new(VOLLEY);
    static const char board[] =
        "size 1 x 1\nlegend . = open\nmap\n  1 .\nunit r = rifle allies at A1\n";
    ck_assert_int_eq(hon_load_board_source(t->vm, "v.scn", board, strlen(board)), HON_OK);
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_odds_do(t->vm, "volley($r)", "<test>", &a), HON_OK);
    const char *txt = hon_answer_text(a);
    /* S ~ binomial(6, 1/2): P(S = 0) = 1/64, P(S = 1) = 6/64, P(S >= 2) = 57/64.
     * K ~ binomial(6, 1/3): P(K = 0) = 64/729, P(K = 6) = 1/729, P(K = 1) = 6 * 32/729.
     * no change: 1/64 * 64/729 = 1/729; 2 Suppressed, 6 Shaken: 57/64 * 1/729 = 57/46656 =
     * 19/15552;
     * 1 Suppressed, 1 Shaken: 6/64 * 192/729 = 1152/46656 = 2/81. */
    ck_assert_ptr_nonnull(strstr(txt, "no change: 1/729 (0.14%)"));
    ck_assert_ptr_nonnull(strstr(txt, "give $r suppressed 2; give $r shaken 6: 19/15552 (0.12%)"));
    ck_assert_ptr_nonnull(strstr(txt, "give $r suppressed; give $r shaken: 2/81 (2.47%)"));
    /* 3 x 7 outcomes, 213,444 paths */
    size_t lines = 1;
    for (const char *c = txt; *c; c++)
        lines += *c == '\n';
    ck_assert_uint_eq(lines, 21);
    ck_assert_int_eq(json_paths(hon_answer_json(a)), 213444);
    hon_answer_free(a);
    /* Played (seeded dice), each roll shows as a line with the rule's citation, its faces
     * ascending: `roll 6 d6: [a, b, c, d, e, f]   (T.volley)`, twice. */
    ck_assert_int_eq(hon_do(t->vm, "volley($r)", "<test>", &a), HON_OK);
    txt = hon_answer_text(a);
    int rolls = 0;
    for (const char *r = strstr(txt, "roll 6 d6: ["); r; r = strstr(r + 1, "roll 6 d6: [")) {
        int f[6];
        char tail[32];
        ck_assert_int_eq(sscanf(r, "roll 6 d6: [%d, %d, %d, %d, %d, %d]%31[^\n]", &f[0], &f[1],
                                &f[2], &f[3], &f[4], &f[5], tail),
                         7);
        for (int i = 0; i < 6; i++)
            ck_assert(f[i] >= 1 && f[i] <= 6 && (i == 0 || f[i - 1] <= f[i]));
        ck_assert_str_eq(tail, "   (T.volley)");
        rolls++;
    }
    ck_assert_int_eq(rolls, 2);
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

/* Two rolls of 10 dice: 20 dice. Suppressed per success on 4-6, at most 2; Shaken per 5 or 6. */
static const char *const VOLLEY10 =
    "kind infantry;\nside allies;\nterrain open;\nmarker suppressed; marker shaken;\n"
    "counter rifle: infantry { side allies }\nevent volley(u: unit);\n"
    "rule volley.r cite \"T.volley\" do {\n  let a = roll 10 d6;\n"
    "  let s = min(count(x in a: x >= 4), 2);\n  give u suppressed s;\n"
    "  let b = roll 10 d6;\n  let k = count(x in b: x >= 5);\n  give u shaken k;\n};\n"
    "source \"T.volley\";\n";

START_TEST(twenty_dice_procedure)
{
    /* vm.md §11: after the first roll the procedure's state is its board (0, 1 or 2 Suppressed:
     * the faces in `a` and the count `s` are read no more), so the second roll's 3,003
     * multisets (C(15, 5)) are run from 3 states, not from 3,003: some 12,000 runs stand for
     * 3,003^2 = 9,018,009 paths (more than the 1,000,000 the odometer could run: E210), within
     * the default budget. */
    tvm *t = tvm_new(VOLLEY10);
    static const char board[] =
        "size 1 x 1\nlegend . = open\nmap\n  1 .\nunit r = rifle allies at A1\n";
    ck_assert_int_eq(hon_load_board_source(t->vm, "v.scn", board, strlen(board)), HON_OK);
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_odds_do(t->vm, "volley($r)", "<test>", &a), HON_OK);
    const char *txt = hon_answer_text(a);
    /* S ~ binomial(10, 1/2), K ~ binomial(10, 1/3), independent.
     * no change: P(S = 0) P(K = 0) = 1/1024 * 1024/59049 = 1/59049.
     * 2 Suppressed, 10 Shaken: P(S >= 2) / 3^10 = (1 - 11/1024) / 59049 = 1013/60466176.
     * 1 Suppressed, no Shaken: 10/1024 * 1024/59049 = 10/59049. */
    ck_assert_ptr_nonnull(strstr(txt, "no change: 1/59049 (0.00%)"));
    ck_assert_ptr_nonnull(
        strstr(txt, "give $r suppressed 2; give $r shaken 10: 1013/60466176 (0.00%)"));
    ck_assert_ptr_nonnull(strstr(txt, "give $r suppressed: 10/59049 (0.02%)"));
    /* 3 x 11 outcomes */
    size_t lines = 1;
    for (const char *c = txt; *c; c++)
        lines += *c == '\n';
    ck_assert_uint_eq(lines, 33);
    ck_assert_int_eq(json_paths(hon_answer_json(a)), 9018009);
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

/* Twenty lone dice in an expression (issue 11 §4, fresh15 D7: 14 were E210, 6^14 face
 * sequences past the 1,000,000 runs the odometer may make). Forked at each roll and merged:
 * after k dice the state is the running sum, k..6k, 5k + 1 states, each run on with 6 faces. */
static const char *dice_sum(char *buf, size_t cap, int n)
{
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, cap - len, i ? " + roll d6" : "roll d6");
    return buf;
}

START_TEST(twenty_dice_expression)
{
    tvm *t = tvm_new(NULL);
    char e[512];
    hon_answer *a = NULL;
    /* one path, with the seeded dice */
    uint64_t s0 = hon_steps_run();
    ck_assert_int_eq(hon_eval(t->vm, dice_sum(e, sizeof e, 20), "<test>", &a), HON_OK);
    uint64_t path = hon_steps_run() - s0;
    hon_answer_free(a);
    s0 = hon_steps_run();
    ck_assert_int_eq(hon_odds(t->vm, e, "<test>", &a), HON_OK);
    uint64_t steps = hon_steps_run() - s0;
    const char *txt = hon_answer_text(a);
    /* 6^20 = 3,656,158,440,062,976 sequences. A sum of 20 (all ones) or 120 (all sixes): one
     * each; 21: one die shows 2, the rest 1, 20 ways: 20/6^20 = 5/914,039,610,015,744. */
    static const char low20[] = "20: 1/3656158440062976 (0.00%)\n21: 5/914039610015744 (0.00%)\n";
    ck_assert_msg(strncmp(txt, low20, strlen(low20)) == 0, "%s", txt);
    ck_assert_ptr_nonnull(strstr(txt, "\n120: 1/3656158440062976 (0.00%)"));
    /* every sum from 20 to 120: 101 lines */
    size_t lines = 1;
    for (const char *c = txt; *c; c++)
        lines += *c == '\n';
    ck_assert_uint_eq(lines, 101);
    /* the JSON counts the paths the runs stand for: all 6^20 */
    ck_assert_int_eq(json_paths(hon_answer_json(a)), 3656158440062976L);
    hon_answer_free(a);
    /* Runs: 6 from the start, 6 from each of the 5k + 1 sums after k = 1..19 dice: 6 (1 + 5 *
     * 190 + 19) = 5,820, none longer than the whole path. */
    ck_assert_uint_lt(steps, 5820 * path);
    /* 14 dice, the reproduction of D7: (1/6)^14 for the lowest sum, 14/6^14 for the next */
    ck_assert_int_eq(hon_odds(t->vm, dice_sum(e, sizeof e, 14), "<test>", &a), HON_OK);
    static const char low14[] = "14: 1/78364164096 (0.00%)\n15: 7/39182082048 (0.00%)\n";
    ck_assert_msg(strncmp(hon_answer_text(a), low14, strlen(low14)) == 0, "%s", hon_answer_text(a));
    hon_answer_free(a);
    /* A roll in a loop's body: the loop's place and its count are the state. 14 dice, a
     * success on 5-6 (1/3): binomial(14, 1/3); none (2/3)^14 = 16,384/4,782,969, one 14 *
     * 8,192/4,782,969 = 114,688/4,782,969. */
    ck_assert_str_eq(odds(t, "count(i in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]: "
                             "roll d6 >= 5) <= 1"),
                     "false: 4651897/4782969 (97.26%)\ntrue: 131072/4782969 (2.74%)");
    tvm_free(t);
}
END_TEST

/* The steps hon_odds_do runs for EX.RR.derail-2 on its board (tests/events/
 * rail_building.scn), against one played path of it. */
START_TEST(derailment_steps)
{
    tvm *t = tvm_new(NULL);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/rules"), HON_OK);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/expansions"), HON_OK);
    ck_assert_int_eq(hon_load_file(t->vm, HON_SOURCE_ROOT "/tests/events/rails_roads_trains.hon"),
                     HON_OK);
    ck_assert_int_eq(
        hon_load_board(t->vm, HON_SOURCE_ROOT "/tests/events/boards/rail_building.scn"), HON_OK);
    const char *train = "train_moves($engine, [$wagon1, $wagon2], 6)";
    hon_answer *a = NULL;
    /* one path, played with the seeded dice, then undone */
    uint64_t s0 = hon_steps_run();
    ck_assert_int_eq(hon_do(t->vm, train, "<test>", &a), HON_OK);
    uint64_t path = hon_steps_run() - s0;
    hon_answer_free(a);
    ck_assert_int_eq(hon_undo(t->vm, &a), HON_OK);
    hon_answer_free(a);
    ck_assert_uint_gt(path, 1000); /* the train's move: thousands of steps */
    s0 = hon_steps_run();
    ck_assert_int_eq(hon_odds_do(t->vm, train, "<test>", &a), HON_OK);
    uint64_t odds = hon_steps_run() - s0;
    /* as tests/events/meson.build (derail-2-procedure-four-or-more) works them out: no die of
     * the 12 succeeds, 1/4096; both wagons (S1 >= 2, 57/64) and no Destruction marker on the
     * depot (S2 = 0, 1/64): 57/4096 */
    ck_assert_ptr_nonnull(strstr(hon_answer_text(a), "\nnothing more: 1/4096 (0.02%)\n"));
    ck_assert_ptr_nonnull(
        strstr(hon_answer_text(a), "\nflip $wagon1 to wreck; flip $wagon2 to wreck: 57/4096"));
    ck_assert_int_eq(json_paths(hon_answer_json(a)), 213444);
    hon_answer_free(a);
    /* Re-running each of the 462^2 = 213,444 paths costs 213,444 paths' steps. Forking runs the
     * move once, each of the 462 multisets of the wagon dice once from the wagon roll, and,
     * since after it the state is the board (0, 1 or 2 wagons wrecked: the faces and their
     * count are read no more), the 462 multisets of the building dice from 3 states: 1 + 462 +
     * 3 * 462 = 1,849 runs, none longer than a whole path. A path's steps vary a little with
     * its dice (the one played above is one of them): twice it is room enough. */
    ck_assert_uint_lt(odds, 2 * 1849 * path);
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("odds");
    TCase *tc = tcase_create("odds");
    /* 213,444 paths (twelve_dice*) take a fraction of a second, some seconds under the
     * sanitizers: more than Check's default of 4 */
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, one_die);
    tcase_add_test(tc, two_dice);
    tcase_add_test(tc, variable_length);
    tcase_add_test(tc, no_dice_and_rules);
    tcase_add_test(tc, odds_errors);
    tcase_add_test(tc, odds_total_budget);
    tcase_add_test(tc, odds_outcome_cap);
    tcase_add_test(tc, odds_json);
    tcase_add_test(tc, multisets);
    tcase_add_test(tc, roll_is_sorted);
    tcase_add_test(tc, twelve_dice);
    tcase_add_test(tc, twelve_dice_procedure);
    tcase_add_test(tc, twenty_dice_procedure);
    tcase_add_test(tc, twenty_dice_expression);
    tcase_add_test(tc, derailment_steps);
    suite_add_tcase(s, tc);
    return check_run(s);
}
