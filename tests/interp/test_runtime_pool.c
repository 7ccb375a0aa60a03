/* test_runtime_pool.c — Check tests of the runtime pieces the back end owns: the dice source
 * (runtime/dice.c) and the unit pool (runtime/units.c).
 */
#include "dice.h"
#include "interp_test.h"
#include "units.h"

START_TEST(dice_seeded)
{
    dice_src a, b;
    dice_seed(&a, 123);
    dice_seed(&b, 123);
    int counts[7] = { 0 };
    for (int i = 0; i < 6000; i++) {
        int x = dice_d6(&a);
        ck_assert_int_eq(x, dice_d6(&b)); /* same seed, same faces */
        ck_assert(x >= 1 && x <= 6);
        counts[x]++;
    }
    /* 6000 fair dice: each face 1000 expected, sd ~29; 800..1200 is ~7 sd wide */
    for (int f = 1; f <= 6; f++)
        ck_assert_msg(counts[f] > 800 && counts[f] < 1200, "face %d: %d", f, counts[f]);
    /* seed 0 is replaced by 1 */
    dice_seed(&a, 0);
    dice_seed(&b, 1);
    ck_assert_uint_eq(dice_next(&a), dice_next(&b));
}
END_TEST

START_TEST(dice_scripted)
{
    dice_src d;
    dice_seed(&d, 1);
    dice_script(&d);
    /* an empty script hands out 1s and records them */
    ck_assert_int_eq(dice_d6(&d), 1);
    ck_assert_int_eq(dice_d6(&d), 1);
    ck_assert_uint_eq(d.asked, 2);
    ck_assert_uint_eq(d.script_len, 2);
    d.script[1] = 5;
    dice_rewind(&d);
    ck_assert_int_eq(dice_d6(&d), 1);
    ck_assert_int_eq(dice_d6(&d), 5);
    ck_assert_uint_eq(d.asked, 2);
    /* past DICE_SCRIPT_MAX: flagged */
    dice_rewind(&d);
    for (int i = 0; i < DICE_SCRIPT_MAX; i++)
        dice_d6(&d);
    ck_assert(!d.overflow);
    dice_d6(&d);
    ck_assert(d.overflow);
}
END_TEST

START_TEST(pool_of_units)
{
    unit_pool *p = unit_pool_new(70, 3, 2); /* 70 abilities: two bitset words */
    ck_assert_ptr_nonnull(p);
    int32_t s = unit_add(p, "sherman", "M4 Sherman");
    int32_t g = unit_add(p, "ghost", NULL);
    ck_assert_int_eq(s, 0);
    ck_assert_int_eq(g, 1);
    unit_set_ability(p, s, 69, 3);
    unit_set_ability(p, s, 2, 0);
    unit_set_ability(p, s, 70, 9); /* out of range: ignored */
    ck_assert(unit_has_ability(p, s, 69) && unit_has_ability(p, s, 2));
    ck_assert(!unit_has_ability(p, s, 68) && !unit_has_ability(p, g, 69));
    ck_assert_int_eq(unit_ability_value(p, s, 69), 3);
    ck_assert_int_eq(unit_ability_value(p, g, 69), 0);
    unit_add_marker(p, s, 1, 2);
    unit_add_marker(p, s, 1, UINT32_MAX); /* saturates */
    ck_assert_uint_eq(unit_marker_count(p, s, 1), UINT32_MAX);
    int64_t v = 77;
    ck_assert(!unit_get_value(p, s, 1, &v));
    ck_assert_int_eq(v, 77);
    unit_set_value(p, s, 1, -4);
    ck_assert(unit_get_value(p, s, 1, &v) && v == -4);
    ck_assert(!unit_get_value(p, s, 0, &v));
    /* a copy is a second counter of the same type */
    unit *us = unit_get(p, s);
    ck_assert_ptr_nonnull(us);
    us->side = 1;
    int32_t s2 = unit_copy(p, s);
    ck_assert_int_eq(s2, 2);
    const unit *u2 = unit_get(p, s2);
    ck_assert_ptr_nonnull(u2);
    ck_assert_str_eq(u2->counter, "sherman");
    ck_assert_str_eq(u2->title, "M4 Sherman");
    ck_assert_int_eq(u2->side, 1);
    ck_assert(unit_has_ability(p, s2, 69));
    ck_assert(unit_get_value(p, s2, 1, &v) && v == -4);
    unit_set_value(p, s2, 1, 8); /* independent of the original */
    ck_assert(unit_get_value(p, s, 1, &v) && v == -4);
    ck_assert_ptr_null(unit_get(p, 3));
    ck_assert_ptr_null(unit_get(p, -1));
    ck_assert_int_eq(unit_copy(p, 99), -1);
    unit_pool_free(p);
    unit_pool_free(NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("runtime_pool");
    TCase *tc = tcase_create("runtime");
    tcase_add_test(tc, dice_seeded);
    tcase_add_test(tc, dice_scripted);
    tcase_add_test(tc, pool_of_units);
    suite_add_tcase(s, tc);
    return check_run(s);
}
