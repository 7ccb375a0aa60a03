/* test_pairs.c — Check tests of the pairs (and triples) of instructions run as one in a
 * combined chunk added from sitting 17 on (peephole.c, vm.md §5c); test_combined.c holds the
 * earlier ones and the combined chunks themselves. As there, an untraced evaluation (hon_eval_as
 * with no form of the trace wanted) runs the combined chunks, a traced one (hon_eval) the rules
 * one by one: the answers (worked out below from the rules, not from a run), the steps and
 * E207's part must be the same.
 */
#include "combined_test.h"

/* Sitting 17 (hot): a kept side, the test of one of its features and the jump on it, three in
 * one (KEPT_SIDE_JUMP: in the bundled rules each of side_sight's rules asks
 * `side_has(side_between(a, b), f)`, the side kept per entry of the copy). walled(a, b), an
 * `any` query copied at each of its two calls in fences: its three rules test the side between
 * a and b for a wall, a hedge, a ditch; the side is kept (three KEPT after the entry, each
 * before its KEEP, SIDE_HAS_K and jump: the first two rules' jumps land on a QUERY_NEXT, the
 * last one's on the QUERY_NONE). fences(a, b, c) = (1 if walled(a, b)) + (10 if walled(b, c)).
 * The board, 4 x 2: A1/B1 a hedge, B1/C1 a ditch, A2/B2 a wall; no other side has anything.
 *   fences(A1, B1, C1): hedge 1 + ditch 10 = 11. fences(B1, C1, D1): ditch 1, C1/D1 bare: 1.
 *   fences(C1, D1, C1): both bare: 0. fences(A2, B2, C2): wall 1, B2/C2 bare: 1.
 *   fences(B1, A1, A2): hedge 1, A1/A2 bare: 1.
 * Two squares that share no side (A1 and C1) have no side between: E216 (errors.md), whichever
 * the run. */
static const char *const KEPT_SIDES =
    "source \"T.1\" = \"this test's rules\";\n"
    "terrain open;\n"
    "side_feature wall; side_feature hedge; side_feature ditch;\n"
    "query walled(a: square, b: square) -> bool combine any;\n"
    "rule walled.w cite \"T.1\" when side_has(side_between(a, b), wall) answer true;\n"
    "rule walled.h cite \"T.1\" when side_has(side_between(a, b), hedge) answer true;\n"
    "rule walled.d cite \"T.1\" when side_has(side_between(a, b), ditch) answer true;\n"
    "query fences(a: square, b: square, c: square) -> int combine sum;\n"
    "rule fences.r cite \"T.1\" answer (if walled(a, b) then 1 else 0) + (if walled(b, c) "
    "then 10 else 0);\n";
static const char *const SIDES_BOARD = "size 4 x 2\nlegend . = open\nmap\n"
                                       "  1 . . . .\n  2 . . . .\n"
                                       "side A1/B1 hedge\nside B1/C1 ditch\nside A2/B2 wall\n";

/* e takes the same steps untraced (the combined chunks, the pairs) as traced, and at every
 * budget short of them E207 names the same part either way. Not the columns: where the block
 * runs out on the reads a QUERY_FORWARD stands for, E207 points at the call, the rules one by
 * one at the read (the forwarding gap noticed in sitting 16, as in test_combined.c
 * an_entry_and_a_reading_run_with_what_follows; fences' budget 6: 9:44 / 9:47, the same with
 * KEPT_SIDE_JUMP left out). */
static void same_steps_and_parts(const char *src, const char *scn, const char *e)
{
    unsigned long need = fewest_steps_on(src, scn, e, false);
    ck_assert_uint_eq(need, fewest_steps_on(src, scn, e, true));
    for (unsigned long b = 1; b < need; b++) {
        char traced[200], plain[200];
        tvm *t = board_vm(src, scn, b);
        ck_assert_str_eq(untraced(t, e), "E207");
        budget_where(t, plain, sizeof plain);
        tvm_clear(t);
        ck_ev(t, e, "E207");
        budget_where(t, traced, sizeof traced);
        ck_assert_msg(strcmp(plain, traced) == 0 && plain[0], "%s, budget %lu: %s / %s", e, b,
                      plain, traced);
        tvm_free(t);
    }
}

START_TEST(a_kept_sides_feature_and_its_jump_run_as_one)
{
    tvm *t = board_vm(KEPT_SIDES, SIDES_BOARD, 0);
    for (int twice = 0; twice < 2; twice++) {
        both(t, "fences(@A1, @B1, @C1)", "11");
        both(t, "fences(@B1, @C1, @D1)", "1");
        both(t, "fences(@C1, @D1, @C1)", "0");
        both(t, "fences(@A2, @B2, @C2)", "1");
        both(t, "fences(@B1, @A1, @A2)", "1");
        both(t, "fences(@A1, @C1, @D1)", "E216");
    }
    ck_assert_int_eq(count_op(t->vm, "fences", OP_KEPT_SIDE_JUMP), 6);
    ck_assert_int_eq(count_op(t->vm, "fences", OP_KEPT), 0);
    /* the instructions after them kept in place */
    ck_assert_int_eq(count_op(t->vm, "fences", OP_SIDE_HAS_K), 6);
    ck_assert_int_eq(count_op(t->vm, "fences", OP_JUMP_IF_FALSE_NEXT), 4);
    tvm_free(t);
    const char *const calls[] = { "fences(@A1, @B1, @C1)", "fences(@C1, @D1, @C1)",
                                  "fences(@A2, @B2, @C2)", "fences(@B1, @A1, @A2)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        same_steps_and_parts(KEPT_SIDES, SIDES_BOARD, calls[i]);
}
END_TEST

/* A constant, a kept read and a tabled query's member test on the kept value, with the
 * inlined fn's end and the jump after it, all in one (K_KEPT_IN_TABLE: in the bundled rules
 * `t in terrain_traits(terrain(sq))` in has_trait, copied into each of terrain_sight's rules,
 * the terrain kept per entry of the copy). marks(t) is tabled (its one parameter an enum); the
 * steps a read of its table stands for are those its answer took, which differ by terrain.
 * look(sq), a min query with a default copied at each of its two calls in view: 1 when sq's
 * terrain marks m1, 2 when m2, 3 when m3 (three copies of marked, terrain(sq) kept: three
 * K_KEPT, the first one's read run, the others' kept). The board, 3 x 1: A1 open (no mark),
 * B1 woods (m1, m2), C1 marsh (m3).
 *   look(A1) = 9 (no rule: the default), look(B1) = min(1, 2) = 1, look(C1) = 3.
 *   view(a, b) = 10 look(a) + look(b): view(B1, C1) = 13, view(A1, B1) = 91, view(C1, A1) = 39,
 *   view(C1, C1) = 33. A square off the board (D1): E217, whichever the run. */
static const char *const KEPT_TABLE =
    "source \"T.1\" = \"this test's rules\";\n"
    "terrain open; terrain woods; terrain marsh;\n"
    "enum mark { m1, m2, m3 }\n"
    "query marks(t: terrain) -> set<mark> combine first;\n"
    "rule marks.r cite \"T.1\" answer if t == open then {} else if t == woods then {m1, m2} "
    "else {m3};\n"
    "fn marked(sq: square, m: mark) -> bool = m in marks(terrain(sq));\n"
    "query look(sq: square) -> int combine min default 9;\n"
    "rule look.a cite \"T.1\" when marked(sq, m1) answer 1;\n"
    "rule look.b cite \"T.1\" when marked(sq, m2) answer 2;\n"
    "rule look.c cite \"T.1\" when marked(sq, m3) answer 3;\n"
    "query view(a: square, b: square) -> int combine sum;\n"
    "rule view.r cite \"T.1\" answer look(a) * 10 + look(b);\n";
static const char *const TABLE_BOARD = "size 3 x 1\nlegend . = open  w = woods  m = marsh\nmap\n"
                                       "  1 . w m\n";

START_TEST(a_kept_reads_tabled_answer_is_tested_in_one)
{
    tvm *t = board_vm(KEPT_TABLE, TABLE_BOARD, 0);
    for (int twice = 0; twice < 2; twice++) { /* the second time marks' answers from its table */
        both(t, "view(@B1, @C1)", "13");
        both(t, "view(@A1, @B1)", "91");
        both(t, "view(@C1, @A1)", "39");
        both(t, "view(@C1, @C1)", "33");
        both(t, "view(@A1, @D1)", "E217");
    }
    ck_assert_int_eq(count_op(t->vm, "view", OP_K_KEPT_IN_TABLE), 6);
    ck_assert_int_eq(count_op(t->vm, "view", OP_K_KEPT), 0);
    /* the instructions after them kept in place */
    ck_assert_int_eq(count_op(t->vm, "view", OP_KEPT), 6);
    ck_assert_int_eq(count_op(t->vm, "view", OP_CALL_QUERY_IN_SET_LEAVE), 6);
    tvm_free(t);
    const char *const calls[] = { "view(@B1, @C1)", "view(@A1, @B1)", "view(@C1, @C1)",
                                  "view(@B1, @C1) + view(@C1, @B1)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        same_steps_and_parts(KEPT_TABLE, TABLE_BOARD, calls[i]);
}
END_TEST

/* A local pushed and then a local's field, two in one (L_LF: in the bundled rules the shot and
 * its step's square, the arguments of terrain_sight's and side_sight's copies at every step),
 * three in one when two fields follow (GET_LOCAL; LF_LF). The arguments of add2 and add3 are
 * no plain reads (a field), so the fns are entered with their arguments pushed. sky's `?` cells
 * make the field reads fail (E201), at the first field (rain's n) or the second (fog's m).
 *   mix(w, x), sum: two, x > 0: add2(x, sky[w].m) = 100 x + m; three: add3(x, sky[w].n,
 *   sky[w].m) = 100 x + 10 n + m. sky: clear 1, 10; rain ?, 20; fog 3, ?.
 *   mix(clear, 2) = (200 + 10) + (200 + 10 + 10) = 430; mix(clear, 0) = 0 + 10 + 10 = 20;
 *   mix(rain, 1): two 120, three reads rain's n: E201; mix(rain, 0): E201 likewise;
 *   mix(fog, 0): three reads fog's n, 3, then its m: E201; mix(fog, 1): two reads fog's m:
 *   E201. Each E201 at the same place traced (the rules one by one) and not. */
static const char *const LOCAL_FIELDS =
    "source \"T.1\" = \"this test's rules\";\n"
    "enum weather { clear, rain, fog }\n"
    "table sky(w: weather) -> (n: int, m: int) { clear => 1, 10; rain => ?, 20; fog => 3, ?; }\n"
    "fn add2(a: int, b: int) -> int = a * 100 + b;\n"
    "fn add3(a: int, b: int, c: int) -> int = a * 100 + b * 10 + c;\n"
    "query mix(w: weather, x: int) -> int combine sum;\n"
    "rule mix.two cite \"T.1\" when x > 0 answer (let r = sky[w]; add2(x, r.m));\n"
    "rule mix.three cite \"T.1\" answer (let r = sky[w]; add3(x, r.n, r.m));\n";

START_TEST(a_local_and_a_field_run_as_one)
{
    tvm *t = board_vm(LOCAL_FIELDS, NULL, 0);
    both(t, "mix(clear, 2)", "430");
    both(t, "mix(clear, 0)", "20");
    const char *const bad[] = { "mix(rain, 1)", "mix(rain, 0)", "mix(fog, 0)", "mix(fog, 1)" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_str_eq(untraced(t, bad[i]), "E201");
        const unsigned line = t->d[0].line, col = t->d[0].col;
        ck_ev(t, bad[i], "E201");
        ck_assert_msg(line == t->d[0].line && col == t->d[0].col, "%s: %u:%u / %u:%u", bad[i], line,
                      col, t->d[0].line, t->d[0].col);
    }
    ck_assert_int_eq(count_op(t->vm, "mix", OP_L_LF), 2);
    /* the instructions after them kept in place: the fields' reads, two of them a pair */
    ck_assert_int_eq(count_op(t->vm, "mix", OP_LF_LF), 1);
    tvm_free(t);
    const char *const calls[] = { "mix(clear, 2)", "mix(clear, 0)",
                                  "mix(clear, 3) + mix(clear, 1)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        same_steps_and_parts(LOCAL_FIELDS, NULL, calls[i]);
}
END_TEST

/* A copied max (or min) query's last no-answer exit and its default, a constant answered at
 * once, in one (QUERY_ELSE_K: in the bundled rules terrain_sight's and side_sight's `default
 * clear`, after their last rule at every square and side a line crosses). grade(x), max over
 * level {low, mid, high}, default low: high when x > 5, mid when x > 2; copied at each of its
 * two calls in duo (an int parameter: never tabled). duo(x, y) = (10 if grade(x) is low, else
 * 20) + (1 if grade(y) is low, else 2).
 *   duo(0, 0) = 10 + 1 = 11 (both defaults); duo(7, 0) = 20 + 1 = 21; duo(3, 9) = 20 + 2 = 22;
 *   duo(0, 4) = 10 + 2 = 12. */
static const char *const CONST_DEFAULT =
    "source \"T.1\" = \"this test's rules\";\n"
    "enum level { low, mid, high }\n"
    "query grade(x: int) -> level combine max default low;\n"
    "rule grade.a cite \"T.1\" when x > 5 answer high;\n"
    "rule grade.b cite \"T.1\" when x > 2 answer mid;\n"
    "query duo(x: int, y: int) -> int combine first;\n"
    "rule duo.r cite \"T.1\" answer (if grade(x) == low then 10 else 20) + (if grade(y) == low "
    "then 1 else 2);\n";

START_TEST(a_copys_constant_default_runs_with_its_exit)
{
    tvm *t = board_vm(CONST_DEFAULT, NULL, 0);
    both(t, "duo(0, 0)", "11");
    both(t, "duo(7, 0)", "21");
    both(t, "duo(3, 9)", "22");
    both(t, "duo(0, 4)", "12");
    ck_assert_int_eq(count_op(t->vm, "duo", OP_QUERY_ELSE_K), 2);
    ck_assert_int_eq(count_op(t->vm, "duo", OP_QUERY_ELSE), 0);
    /* the instructions after them kept in place */
    ck_assert_int_eq(count_op(t->vm, "duo", OP_QUERY_RULE), 2);
    tvm_free(t);
    const char *const calls[] = { "duo(0, 0)", "duo(7, 0)", "duo(3, 9)", "duo(0, 4)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        same_steps_and_parts(CONST_DEFAULT, NULL, calls[i]);
}
END_TEST

/* Sitting 18 (sight): a copy skipped at a side that has none of the features its rules test
 * (QUERY_ENTER_SIDES, peephole.c sides_skip: in the bundled rules side_sight at every side a
 * line crosses). cross(n, a, b), a min query over `view` (shut, dim, wide: worst first) with
 * the constant default wide, its three rules each testing first a feature of the side between
 * a and b (the side kept per entry): a wall shuts, a hedge dims when n > 0, a ditch dims.
 * trip(l) = code(cross(1, l.a, l.b)) + 10 code(cross(0, l.b, l.c)), code: shut 1, dim 2,
 * wide 3; cross copied at its two calls, its arguments fields of l (so not forwarded: each
 * entry copies them and clears the kept side, as side_sight's at each step of a line); below,
 * trip(A1, B1, C1) is trip(legs{a: @A1, b: @B1, c: @C1}). The board, 4 x 2: A1/B1 a hedge,
 * B1/C1 a ditch, A2/B2 a wall, B2/C2 a wall and a hedge, C1/D1 a flag (a feature no rule tests:
 * the side counts as bare).
 *   trip(A1, B1, C1) = dim 2 + 10 dim 2 = 22 (the features there: both copies run).
 *   trip(B1, A1, A2) = dim 2 + 10 (A1/A2 bare: wide 3) = 32 (the second copy skipped).
 *   trip(C1, D1, D2) = 3 + 30 = 33 (C1/D1 has only the flag, D1/D2 nothing: both skipped).
 *   trip(A2, B2, C2) = shut 1 + 10 shut 1 = 11 (the wall decides at once at B2/C2).
 *   trip(A1, B1, A1) = dim 2 + 10 (the hedge, but n = 0: wide 3) = 32 (a tested feature is
 *   there and no rule fires: the copy runs, the default answers).
 * A1 and C1 share no side: E216 (errors.md), whichever the run. */
static const char *const BARE_SIDES =
    "source \"T.1\" = \"this test's rules\";\n"
    "terrain open;\n"
    "side_feature wall; side_feature hedge; side_feature ditch; side_feature flag;\n"
    "enum view { shut, dim, wide }\n"
    "query cross(n: int, a: square, b: square) -> view combine min default wide;\n"
    "rule cross.w cite \"T.1\" when side_has(side_between(a, b), wall) answer shut;\n"
    "rule cross.h cite \"T.1\" when side_has(side_between(a, b), hedge) and n > 0 answer dim;\n"
    "rule cross.d cite \"T.1\" when side_has(side_between(a, b), ditch) answer dim;\n"
    "fn code(v: view) -> int = if v == shut then 1 else if v == dim then 2 else 3;\n"
    "record legs { a: square, b: square, c: square }\n"
    "query trip(l: legs) -> int combine sum;\n"
    "rule trip.r cite \"T.1\" answer code(cross(1, l.a, l.b)) + 10 * code(cross(0, l.b, l.c));\n";
static const char *const BARE_BOARD = "size 4 x 2\nlegend . = open\nmap\n"
                                      "  1 . . . .\n  2 . . . .\n"
                                      "side A1/B1 hedge\nside B1/C1 ditch\nside A2/B2 wall\n"
                                      "side B2/C2 wall\nside B2/C2 hedge\nside C1/D1 flag\n";

START_TEST(a_copy_is_skipped_at_a_bare_side)
{
    tvm *t = board_vm(BARE_SIDES, BARE_BOARD, 0);
    for (int twice = 0; twice < 2; twice++) {
        both(t, "trip(legs{a: @A1, b: @B1, c: @C1})", "22");
        both(t, "trip(legs{a: @B1, b: @A1, c: @A2})", "32");
        both(t, "trip(legs{a: @C1, b: @D1, c: @D2})", "33");
        both(t, "trip(legs{a: @A2, b: @B2, c: @C2})", "11");
        both(t, "trip(legs{a: @A1, b: @B1, c: @A1})", "32");
        both(t, "trip(legs{a: @A1, b: @C1, c: @D1})", "E216");
    }
    ck_assert_int_eq(count_op(t->vm, "trip", OP_QUERY_ENTER_SIDES), 2);
    ck_assert_int_eq(count_op(t->vm, "trip", OP_QUERY_ENTER), 0);
    tvm_free(t);
    const char *const calls[] = { "trip(legs{a: @A1, b: @B1, c: @C1})",
                                  "trip(legs{a: @B1, b: @A1, c: @A2})",
                                  "trip(legs{a: @C1, b: @D1, c: @D2})",
                                  "trip(legs{a: @A2, b: @B2, c: @C2})",
                                  "trip(legs{a: @A1, b: @B1, c: @A1})" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        same_steps_and_parts(BARE_SIDES, BARE_BOARD, calls[i]);
}
END_TEST

/* Sitting 18 (sight): a copy skipped at a square (QUERY_ENTER_SQUARE, peephole.c skip_walk: in
 * the bundled rules terrain_sight at every square a line crosses). look(n, sq), a min query with
 * the constant default 9, its three rules each testing first marked(sq, m): sq in an element
 * and m among the marks of its terrain (marks: a tabled query of the terrain). m1 gives 1, m2
 * (when n > 0) 2, m3 3. view(p) = 10 look(1, p.a) + look(0, p.b), look copied at its two calls
 * (its arguments a field of p: not forwarded); below, view(A1, B1) is view(pair{a: @A1, b:
 * @B1}). The board, 5 x 1: A1 in no element, B1 woods (m1, m2), C1 marsh (m3), D1 open (no
 * mark), E1 hedgerow (m4, which no rule tests).
 *   look(_, A1) = 9 (no element: every rule's test false at its first part), look(1, B1) =
 *   min(1, 2) = 1, look(0, B1) = 1, look(_, C1) = 3, look(_, D1) = 9, look(_, E1) = 9.
 *   view(A1, D1) = 99, view(B1, C1) = 13, view(D1, B1) = 91, view(C1, A1) = 39, view(E1, A1) =
 *   99, view(D1, D1) = 99. A square off the board (F1): E217, whichever the run. */
static const char *const BARE_SQUARES =
    "source \"T.1\" = \"this test's rules\";\n"
    "terrain open; terrain woods; terrain marsh; terrain hedgerow;\n"
    "enum mark { m1, m2, m3, m4 }\n"
    "query marks(t: terrain) -> set<mark> combine first;\n"
    "rule marks.r cite \"T.1\" answer if t == open then {} else if t == woods then {m1, m2} "
    "else if t == marsh then {m3} else {m4};\n"
    "fn marked(sq: square, m: mark) -> bool = in_element(sq) and m in marks(terrain(sq));\n"
    "query look(n: int, sq: square) -> int combine min default 9;\n"
    "rule look.a cite \"T.1\" when marked(sq, m1) answer 1;\n"
    "rule look.b cite \"T.1\" when marked(sq, m2) and n > 0 answer 2;\n"
    "rule look.c cite \"T.1\" when marked(sq, m3) answer 3;\n"
    "record pair { a: square, b: square }\n"
    "query view(p: pair) -> int combine sum;\n"
    "rule view.r cite \"T.1\" answer 10 * look(1, p.a) + look(0, p.b);\n";
static const char *const BARE_SQUARES_BOARD =
    "size 5 x 1\nlegend . = none  w = woods  m = marsh  o = open  h = hedgerow\nmap\n"
    "  1 . w m o h\n";

START_TEST(a_copy_is_skipped_at_a_bare_square)
{
    tvm *t = board_vm(BARE_SQUARES, BARE_SQUARES_BOARD, 0);
    for (int twice = 0; twice < 2; twice++) {
        both(t, "view(pair{a: @A1, b: @D1})", "99");
        both(t, "view(pair{a: @B1, b: @C1})", "13");
        both(t, "view(pair{a: @D1, b: @B1})", "91");
        both(t, "view(pair{a: @C1, b: @A1})", "39");
        both(t, "view(pair{a: @E1, b: @A1})", "99");
        both(t, "view(pair{a: @D1, b: @D1})", "99");
        both(t, "view(pair{a: @A1, b: @F1})", "E217");
    }
    ck_assert_int_eq(count_op(t->vm, "view", OP_QUERY_ENTER_SQUARE), 2);
    ck_assert_int_eq(count_op(t->vm, "view", OP_QUERY_ENTER), 0);
    tvm_free(t);
    /* a terrain's marks are in the table from its first read on: D1 twice, E1 twice, the
     * second copy skipped in an element */
    const char *const calls[] = { "view(pair{a: @A1, b: @D1})", "view(pair{a: @B1, b: @C1})",
                                  "view(pair{a: @D1, b: @B1})", "view(pair{a: @E1, b: @A1})",
                                  "view(pair{a: @D1, b: @D1})", "view(pair{a: @E1, b: @E1})" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        same_steps_and_parts(BARE_SQUARES, BARE_SQUARES_BOARD, calls[i]);
}
END_TEST

/* Sitting 18 (sight): an inlined fn's code skipped at a square where no unit stands
 * (INLINE_ENTER_EMPTY, peephole.c skip_walk: in the bundled rules square_screened at every
 * square a line crosses). screened(n, sq) = any(u in units_at(sq): u.kind == infantry or n > 0),
 * inlined at its two calls in walk(p) = screened(0, p.a) or screened(1, p.b) (its arguments a
 * field of p: copied, not forwarded; below, walk(A1, B1) is walk(pair{a: @A1, b: @B1})). The
 * board, 4 x 1: a rifle (infantry) on B1, a panzer (a tank) on C1, nothing on A1 and D1.
 *   screened(_, A1) = screened(_, D1) = false (no unit: the loop done at once); screened(_, B1)
 *   = true (infantry); screened(0, C1) = false, screened(1, C1) = true.
 *   walk(A1, D1) = false, walk(B1, C1) = true, walk(C1, A1) = false, walk(D1, B1) = true,
 *   walk(C1, C1) = true, walk(A1, A1) = false. A square off the board (E1): E217, whichever
 *   the run. */
static const char *const EMPTY_SQUARES =
    "source \"T.1\" = \"this test's rules\";\n"
    "kind infantry; kind tank;\nside allies;\nterrain open;\n"
    "counter rifle: infantry { side allies }\n"
    "counter panzer: tank { side allies }\n"
    "fn screened(n: int, sq: square) -> bool = any(u in units_at(sq): u.kind == infantry or n > "
    "0);\n"
    "record pair { a: square, b: square }\n"
    "query walk(p: pair) -> bool combine first;\n"
    "rule walk.r cite \"T.1\" answer screened(0, p.a) or screened(1, p.b);\n";
static const char *const EMPTY_BOARD = "size 4 x 1\nlegend . = open\nmap\n  1 . . . .\n"
                                       "unit r1 = rifle allies at B1\n"
                                       "unit p1 = panzer allies at C1\n";

START_TEST(an_inlined_fn_is_skipped_where_no_unit_stands)
{
    tvm *t = board_vm(EMPTY_SQUARES, EMPTY_BOARD, 0);
    for (int twice = 0; twice < 2; twice++) {
        both(t, "walk(pair{a: @A1, b: @D1})", "false");
        both(t, "walk(pair{a: @B1, b: @C1})", "true");
        both(t, "walk(pair{a: @C1, b: @A1})", "false");
        both(t, "walk(pair{a: @D1, b: @B1})", "true");
        both(t, "walk(pair{a: @C1, b: @C1})", "true");
        both(t, "walk(pair{a: @A1, b: @A1})", "false");
        both(t, "walk(pair{a: @A1, b: @E1})", "E217");
    }
    ck_assert_int_eq(count_op(t->vm, "walk", OP_INLINE_ENTER_EMPTY), 2);
    ck_assert_int_eq(count_op(t->vm, "walk", OP_INLINE_ENTER), 0);
    tvm_free(t);
    const char *const calls[] = { "walk(pair{a: @A1, b: @D1})", "walk(pair{a: @C1, b: @A1})",
                                  "walk(pair{a: @D1, b: @B1})", "walk(pair{a: @A1, b: @A1})" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        same_steps_and_parts(EMPTY_SQUARES, EMPTY_BOARD, calls[i]);
}
END_TEST

/* Sitting 18 (sight): a min or max aggregate's step and the loop's FOR_BACK its jump lands on,
 * in one (AGG_MIN_BACK, AGG_MAX_BACK: in the bundled rules sight_along's `min(st in line(...):
 * ...)` over the terrain and the sides at every step of a line). lo(n) = min(i in [3, n, 5]:
 * 2 i), hi(n) = max(i in [3, n, 5]: i - n), worst(n) = min(i in [n, 2, 1]: shut for 0, dim for
 * 2, else wide) over the enum view (shut, dim, wide: shut decides at once).
 *   lo(1) = 2, lo(4) = 6, lo(9) = 6; hi(1) = 4, hi(4) = 1, hi(9) = 0;
 *   worst(0) = shut (its first item decides: the loop left at once), worst(1) = dim,
 *   worst(7) = dim. */
static const char *const AGG_BACK =
    "source \"T.1\" = \"this test's rules\";\n"
    "enum view { shut, dim, wide }\n"
    "query lo(n: int) -> int combine first;\n"
    "rule lo.r cite \"T.1\" answer min(i in [3, n, 5]: 2 * i);\n"
    "query hi(n: int) -> int combine first;\n"
    "rule hi.r cite \"T.1\" answer max(i in [3, n, 5]: i - n);\n"
    "query worst(n: int) -> view combine first;\n"
    "rule worst.r cite \"T.1\" answer min(i in [n, 2, 1]: if i == 0 then shut else if i == 2 "
    "then dim else wide);\n";

START_TEST(an_aggregates_step_and_its_loops_back_edge_run_as_one)
{
    tvm *t = board_vm(AGG_BACK, NULL, 0);
    both(t, "lo(1)", "2");
    both(t, "lo(4)", "6");
    both(t, "lo(9)", "6");
    both(t, "hi(1)", "4");
    both(t, "hi(4)", "1");
    both(t, "hi(9)", "0");
    both(t, "worst(0)", "shut");
    both(t, "worst(1)", "dim");
    both(t, "worst(7)", "dim");
    ck_assert_int_eq(count_op(t->vm, "lo", OP_AGG_MIN_BACK), 1);
    ck_assert_int_eq(count_op(t->vm, "hi", OP_AGG_MAX_BACK), 1);
    ck_assert_int_eq(count_op(t->vm, "worst", OP_AGG_MIN_BACK), 1);
    ck_assert_int_eq(count_op(t->vm, "lo", OP_FOR_BACK), 1); /* kept after it */
    tvm_free(t);
    const char *const calls[] = { "lo(4)", "hi(1)", "worst(0)", "worst(7)" };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        same_steps_and_parts(AGG_BACK, NULL, calls[i]);
}
END_TEST

/* Sitting 18 (sight): a local pushed and then the distance to it, or the compare with it
 * (L_DISTANCE, L_GT: in the bundled rules past_reach's `distance(s.from, entered) > reach` at
 * every step the range-limit rule walks). far(p, b, r) = distance(p.a, b) > r on a 5 x 1 board
 * (distance: the larger of the column and row offsets).
 *   far(A1, D1, 2): 3 > 2, true; far(A1, B1, 2): 1 > 2, false; far(C1, C1, 0): 0 > 0, false;
 *   far(E1, A1, 3): 4 > 3, true. A square off the board (F1): E217, whichever the run. */
static const char *const LOCAL_PAIRS = "source \"T.1\" = \"this test's rules\";\n"
                                       "terrain open;\n"
                                       "record spot { a: square }\n"
                                       "query far(p: spot, b: square, r: int) -> bool combine "
                                       "first;\n"
                                       "rule far.r cite \"T.1\" answer distance(p.a, b) > r;\n";
static const char *const LOCAL_BOARD = "size 5 x 1\nlegend . = open\nmap\n  1 . . . . .\n";

START_TEST(a_local_and_the_distance_or_compare_with_it_run_as_one)
{
    tvm *t = board_vm(LOCAL_PAIRS, LOCAL_BOARD, 0);
    both(t, "far(spot{a: @A1}, @D1, 2)", "true");
    both(t, "far(spot{a: @A1}, @B1, 2)", "false");
    both(t, "far(spot{a: @C1}, @C1, 0)", "false");
    both(t, "far(spot{a: @E1}, @A1, 3)", "true");
    both(t, "far(spot{a: @A1}, @F1, 1)", "E217");
    ck_assert_int_eq(count_op(t->vm, "far", OP_L_DISTANCE), 1);
    ck_assert_int_eq(count_op(t->vm, "far", OP_L_GT), 1);
    ck_assert_int_eq(count_op(t->vm, "far", OP_DISTANCE), 1); /* kept after it */
    tvm_free(t);
    same_steps_and_parts(LOCAL_PAIRS, LOCAL_BOARD, "far(spot{a: @A1}, @D1, 2)");
    same_steps_and_parts(LOCAL_PAIRS, LOCAL_BOARD, "far(spot{a: @C1}, @C1, 0)");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pairs");
    TCase *tc = tcase_create("pairs");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_kept_sides_feature_and_its_jump_run_as_one);
    tcase_add_test(tc, a_kept_reads_tabled_answer_is_tested_in_one);
    tcase_add_test(tc, a_local_and_a_field_run_as_one);
    tcase_add_test(tc, a_copys_constant_default_runs_with_its_exit);
    tcase_add_test(tc, a_copy_is_skipped_at_a_bare_side);
    tcase_add_test(tc, a_copy_is_skipped_at_a_bare_square);
    tcase_add_test(tc, an_inlined_fn_is_skipped_where_no_unit_stands);
    tcase_add_test(tc, an_aggregates_step_and_its_loops_back_edge_run_as_one);
    tcase_add_test(tc, a_local_and_the_distance_or_compare_with_it_run_as_one);
    suite_add_tcase(s, tc);
    return check_run(s);
}
