/* test_board.c — Check tests of the board in the language (language.md §5): the vocabulary,
 * `@C4` and `$name`, every board built-in on one tiny board written below, E212-E218, the
 * board API of include/hon.h (loading, E3xx, reloads, drawing, unit values), `test … board`,
 * and the fast call API (hon_lookup_query / hon_call_query).
 *
 * Every expected value is worked out in a comment from the board's picture, not pasted.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "interp_test.h"

/* The rules the board needs: a vocabulary and two counters. */
static const char *const RULES = "kind infantry; kind vehicle;\nside allies; side axis;\n"
                                 "marker suppressed;\nvalue defense;\n"
                                 "terrain open; terrain woods; terrain hill;\n"
                                 "square_feature mound; square_feature rail;\n"
                                 "side_feature contour; side_feature wall;\ninterspace_item mine;\n"
                                 "counter rifle: infantry { side allies defense 3 }\n"
                                 "counter sherman: vehicle { size 2 side allies }\n";

/* The board (A1 top-left; columns A-E, rows 1-4):
 *
 *        A     B     C     D     E          elevation
 *   1    .     .     w     w     x          0 0 0 0 0
 *   2    .     m     h     h     .          0 1 1 1 0
 *   3    .     h     h     h     .          0 1 2 1 0
 *   4    .   tank  tank    .     .          0 0 0 0 0
 *
 * . open, w woods, h hill, m hill + mound, x no terrain. The hill is one named element,
 * hill1 = B2..D3 (value 2, facing N); C1 D1 are the element woods@C1; the open squares are
 * all connected (A1..A4, B1, B4..E4, E2, E3): the element open@A1. Contour lines on every
 * side between two elevations; a wall on D1/D2 facing D2 (south of D1); mines on C3's NW
 * corner (1) and on its SE corner (2); a rail on D4. Units: r1 (rifle, allies) at A1, r2
 * (rifle, axis army) at E4, tank (sherman) front B4 rear C4, pass (rifle) embarked in tank
 * with a suppressed marker. */
static const char *const BOARD =
    "scenario \"tiny\"\nsize 5 x 4\n"
    "legend . = open  w = woods  h = hill  m = hill + mound  x = none\nmap\n"
    "  1 . . w w x\n  2 . m h h .\n  3 . h h h .\n  4 . . . . .\n"
    "elevation\n  1 0 0 0 0 0\n  2 0 1 1 1 0\n  3 0 1 2 1 0\n"
    "  4 0 0 0 0 0\nelement hill1 = B2..D3 value 2 facing N\n"
    "side steps contour\nside D1/D2 wall facing S\ninterspace C3 mine=1\ninterspace C3:SE mine=2\n"
    "square D4 rail\nunit r1 = rifle allies at A1\n"
    "unit r2 = rifle axis at E4\nunit tank = sherman allies at B4 C4\n"
    "unit pass = rifle allies in tank with suppressed\n";

static tvm *board_vm(void)
{
    tvm *t = tvm_new(RULES);
    hon_status st = hon_load_board_source(t->vm, "tiny.scn", BOARD, strlen(BOARD));
    ck_assert_msg(st == HON_OK, "board failed: %s", t->log);
    return t;
}

START_TEST(literals_and_printing)
{
    tvm *t = tvm_new(RULES);
    /* a square literal needs no board; it prints in upper case */
    ck_ev(t, "@c4", "C4");
    ck_ev(t, "[@A1, @AB12]", "[A1, AB12]");
    ck_ev(t, "@C4 == @C4", "true");
    ck_ev(t, "@C4 != @D4", "true");
    /* every board built-in and `$name` need a board: E212 */
    ck_ev(t, "$r1", "E212");
    ck_ev(t, "elevation(@A1)", "E212");
    /* but a counter is never on a board, and same_counter reads the counters (rev20 D1) */
    ck_ev(t, "on_board(rifle)", "false");
    ck_ev(t, "same_counter(rifle, rifle)", "true");
    ck_ev(t, "same_counter(rifle, sherman)", "false");
    /* bad literals are syntax errors */
    ck_ev(t, "@C0", "E019");
    ck_ev(t, "@ABCD1", "E019");
    ck_ev(t, "@C04", "E019");
    /* types */
    ck_ev(t, "elevation(1)", "E104");
    ck_ev(t, "distance(@A1)", "E103");
    tvm_free(t);
}
END_TEST

START_TEST(vocabulary)
{
    /* the board's vocabulary fills built-in enums, qualified like kind.x */
    tvm *t = tvm_new(RULES);
    ck_ev(t, "terrain.woods", "woods");
    ck_ev(t, "count(x in terrain: true)", "3");
    ck_ev(t, "count(x in side_feature: true)", "2");
    ck_ev(t, "direction.northwest", "northwest");
    ck_ev(t, "count(d in direction: true)", "8");
    tvm_free(t);
    /* the built-in names cannot be declared again */
    ck_load_fails("enum direction { a }", 110, 1, 6);
    ck_load_fails("enum terrain { a }", 10, 1, 6); /* `terrain` is a keyword */
    ck_load_fails("record step { a: int }", 110, 1, 8);
    ck_load_fails("fn line() -> int = 1;", 110, 1, 4);
    /* members of the vocabulary are unique in their enum (E110 like `kind`) */
    ck_load_fails("terrain a; terrain a;", 110, 1, 20);
}
END_TEST

START_TEST(units_on_the_board)
{
    tvm *t = board_vm();
    ck_ev(t, "$r1", "$r1");
    ck_ev(t, "square_of($r1)", "A1");
    /* a 2-square unit: its front square, and both */
    ck_ev(t, "square_of($tank)", "B4");
    ck_ev(t, "squares_of($tank)", "[B4, C4]");
    ck_ev(t, "$tank.size", "2");
    /* embarked: it stands where its transport stands */
    ck_ev(t, "square_of($pass)", "B4");
    ck_ev(t, "squares_of($pass)", "[B4, C4]");
    ck_ev(t, "embarked($pass)", "true");
    ck_ev(t, "embarked($r1)", "false");
    ck_ev(t, "carrier($pass)", "$tank");
    ck_ev(t, "carrier($r1)", "E214");
    /* the `with` marker, the army as side, the counter's values */
    ck_ev(t, "has($pass, suppressed)", "true");
    ck_ev(t, "has($r1, suppressed)", "false");
    ck_ev(t, "$r2.side", "axis");
    ck_ev(t, "$r2.defense", "3");
    ck_ev(t, "$r1 == $r2", "false");
    /* units_at lists placed units only (pass is in the tank, not on B4) */
    ck_ev(t, "units_at(@B4)", "[$tank]");
    ck_ev(t, "units_at(@C4)", "[$tank]");
    ck_ev(t, "units_at(@C3)", "[]");
    /* counters are not on the board */
    ck_ev(t, "on_board(rifle)", "false");
    ck_ev(t, "on_board($pass)", "true");
    ck_ev(t, "square_of(rifle)", "E217");
    ck_ev(t, "squares_of(rifle)", "[]");
    ck_ev(t, "$nobody", "E213");
    tvm_free(t);
}
END_TEST

START_TEST(json_and_odds)
{
    tvm *t = board_vm();
    hon_answer *a = NULL;
    /* squares, sides, elements and board units are JSON strings */
    ck_assert_int_eq(hon_eval(t->vm, "[square_of($r1)]", "<test>", &a), HON_OK);
    ck_assert_msg(strstr(hon_answer_json(a), "\"value\": [\"A1\"]"), "%s", hon_answer_json(a));
    hon_answer_free(a);
    ck_assert_int_eq(hon_eval(t->vm, "carrier($pass)", "<test>", &a), HON_OK);
    ck_assert_msg(strstr(hon_answer_json(a), "\"value\": \"$tank\""), "%s", hon_answer_json(a));
    hon_answer_free(a);
    ck_assert_int_eq(hon_eval(t->vm, "side_between(@D1, @D2)", "<test>", &a), HON_OK);
    ck_assert_msg(strstr(hon_answer_json(a), "\"value\": \"D1/D2\", \"type\": \"square_side\""),
                  "%s", hon_answer_json(a));
    hon_answer_free(a);
    /* odds see the board too: a die against C3's elevation (2): faces 3-6 exceed it */
    ck_assert_int_eq(hon_odds(t->vm, "roll d6 > elevation(@C3)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "false: 1/3 (33.33%)\ntrue: 2/3 (66.67%)");
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

START_TEST(squares_terrain_elements)
{
    tvm *t = board_vm();
    ck_ev(t, "elevation(@C3)", "2");
    ck_ev(t, "elevation(@B2)", "1");
    ck_ev(t, "elevation(@E4)", "0");
    ck_ev(t, "elevation(@F1)", "E217"); /* column F is off a 5-column board */
    ck_ev(t, "elevation(@A5)", "E217");
    ck_ev(t, "terrain(@C1)", "woods");
    ck_ev(t, "terrain(@B2)", "hill");
    ck_ev(t, "terrain(@E1)", "E215"); /* x = none */
    ck_ev(t, "element_at(@B2)", "hill1");
    ck_ev(t, "element_at(@D1)", "woods@C1");
    ck_ev(t, "element_at(@E3)", "open@A1");
    ck_ev(t, "element_at(@E1)", "E215");
    ck_ev(t, "in_element(@E1)", "false");
    ck_ev(t, "element_at(@B2) == element_at(@D3)", "true");
    ck_ev(t, "element_terrain(element_at(@C3))", "hill");
    ck_ev(t, "element_value(element_at(@C3))", "2");
    /* no value given: E215, as for a facing (a Defensive Bonus never silently 0) */
    ck_ev(t, "element_value(element_at(@C1))", "E215");
    ck_ev(t, "element_facing(element_at(@C3))", "north");
    ck_ev(t, "element_facing(element_at(@C1))", "E215");
    ck_ev(t, "element_squares(element_at(@B2))", "[B2, C2, D2, B3, C3, D3]");
    /* corners of hill1: B2 (A2 west, B1 north outside), D3 (E3 east, D4 south); C2 has both
     * horizontal neighbours inside; C3 too */
    ck_ev(t, "corner_square(@B2)", "true");
    ck_ev(t, "corner_square(@D3)", "true");
    ck_ev(t, "corner_square(@C2)", "false");
    ck_ev(t, "corner_square(@C3)", "false");
    ck_ev(t, "corner_square(@E1)", "false"); /* in no element */
    ck_ev(t, "has_feature(@B2, mound)", "true");
    ck_ev(t, "has_feature(@C2, mound)", "false");
    ck_ev(t, "feature_value(@D4, rail)", "0");
    ck_ev(t, "feature_value(@A1, rail)", "E215");
    tvm_free(t);
}
END_TEST

START_TEST(sides_and_interspaces)
{
    tvm *t = board_vm();
    ck_ev(t, "side_between(@D1, @D2)", "D1/D2");
    ck_ev(t, "side_between(@D2, @D1)", "D1/D2"); /* one side, named upper square first */
    ck_ev(t, "side_between(@A1, @B2)", "E216");  /* diagonal */
    ck_ev(t, "side_between(@A1, @A3)", "E216");
    ck_ev(t, "side_has(side_between(@D1, @D2), wall)", "true");
    ck_ev(t, "side_facing(side_between(@D1, @D2), wall)", "D2");
    ck_ev(t, "side_value(side_between(@D1, @D2), wall)", "0");
    ck_ev(t, "side_value(side_between(@C1, @D1), wall)", "E215");
    /* contour lines on steps: C2 (1) / C3 (2) yes, B2 (1) / C2 (1) no */
    ck_ev(t, "side_has(side_between(@C2, @C3), contour)", "true");
    ck_ev(t, "side_has(side_between(@B2, @C2), contour)", "false");
    /* A1's sides N, E, S, W: two are on the board's edge */
    ck_ev(t, "sides_of(@A1)", "[A1:N, A1/B1, A1/A2, A1:W]");
    ck_ev(t, "side_squares(side_between(@B2, @C2))", "[B2, C2]");
    /* mines: C3's NW corner holds 1, its SE corner 2; B2's SE corner is C3's NW */
    ck_ev(t, "items_near(@C3)", "[mine, mine]");
    ck_ev(t, "item_value_near(@C3, mine)", "3");
    ck_ev(t, "items_near(@B2)", "[mine]");
    ck_ev(t, "item_value_near(@B2, mine)", "1");
    ck_ev(t, "item_value_near(@A1, mine)", "0");
    tvm_free(t);
}
END_TEST

START_TEST(distance_and_lines)
{
    tvm *t = board_vm();
    ck_ev(t, "distance(@A1, @C3)", "2");
    ck_ev(t, "distance(@A1, @E2)", "4");
    /* the larger of the two offsets, either way round (E4 to A1: 4 columns, 3 rows) */
    ck_ev(t, "distance(@E4, @A1)", "4");
    ck_ev(t, "distance(@C3, @C3)", "0");
    /* a square off the 5 x 4 board, either argument: E217 (DISTANCE's slow path) */
    ck_ev(t, "distance(@A1, @F1)", "E217");
    ck_ev(t, "distance(@A5, @A1)", "E217");
    ck_ev(t, "adjacent(@A1, @B2)", "true");
    ck_ev(t, "adjacent(@A1, @C1)", "false");
    ck_ev(t, "adjacent(@A1, @A1)", "false");
    /* N, NE, E, SE, S, SW, W, NW of A1 on the board: E, SE, S */
    ck_ev(t, "neighbours(@A1)", "[B1, B2, A2]");
    ck_ev(t, "len(neighbours(@C3))", "8");
    /* A1 -> C3 runs through two corners: A1|B2 beside B1 (left, walking down-right) and A2
     * (right), then B2|C3 beside C2 and B3; the side given is the one between from and left */
    ck_ev(t, "line(@A1, @C3)",
          "[step{square: B2, from: A1, corner: true, side: A1/B1, left: B1, right: A2, "
          "index: 1}, step{square: C3, from: B2, corner: true, side: B2/C2, left: C2, "
          "right: B3, index: 2}]");
    /* A1 -> E2 (dx 4, dy 1): in doubled coordinates the vertical grid lines are met at 1/8,
     * 3/8, 5/8, 7/8 of the way and the horizontal one at 1/2, never together: B1, C1, then
     * down into C2, then D2, E2 */
    ck_ev(t, "len(line(@A1, @E2))", "5");
    ck_ev(t, "count(s in line(@A1, @E2): s.corner)", "0");
    ck_ev(t, "sum(s in line(@A1, @E2): s.index)", "15");
    ck_ev(t, "all(s in line(@A1, @E2): s.left == s.square and s.right == s.square)", "true");
    ck_ev(t, "count(s in line(@A1, @E2): terrain(s.square) == woods)", "1"); /* C1 */
    ck_ev(t,
          "any(s in line(@A1, @E2): s.square == @C2 and s.from == @C1 and "
          "s.side == side_between(@C1, @C2))",
          "true");
    ck_ev(t, "any(s in line(@A1, @E2): side_has(s.side, wall))", "false");
    ck_ev(t, "any(s in line(@D1, @D3): side_has(s.side, wall))", "true");
    /* the ends: A1 excluded, E2 included; a line to itself is empty */
    ck_ev(t, "any(s in line(@A1, @E2): s.square == @A1)", "false");
    ck_ev(t, "any(s in line(@A1, @E2): s.square == @E2)", "true");
    ck_ev(t, "line(@B2, @B2)", "[]");
    /* Bresenham A1 -> E2: err 3; moves x (err 2), x and y (err 5: B1 -> C2, diagonal), x
     * (err 4), x: B1, C2, D2, E2. The diagonal move passes beside C1 (left) and B2 (right). */
    ck_ev(t, "len(bresenham(@A1, @E2))", "4");
    ck_ev(t, "count(s in bresenham(@A1, @E2): s.corner)", "1");
    ck_ev(t,
          "any(s in bresenham(@A1, @E2): s.corner and s.from == @B1 and s.square == @C2 "
          "and s.left == @C1 and s.right == @B2)",
          "true");
    /* side of the line A1 -> E2: C1 is left (north of it), A2 right; B2 lies on A1 -> C3 */
    ck_ev(t, "side_of_line(@A1, @E2, @C1)", "-1");
    ck_ev(t, "side_of_line(@A1, @E2, @A2)", "1");
    ck_ev(t, "side_of_line(@A1, @C3, @B2)", "0");
    ck_ev(t, "line(@A1, @F1)", "E217");
    tvm_free(t);
}
END_TEST

START_TEST(rules_use_the_board)
{
    /* a small permission query over the board, traced */
    tvm *t = tvm_new(RULES);
    const char *more =
        "query can_see(a: unit, b: unit) -> verdict combine permission;\n"
        "rule can_see.woods cite \"T.1\"\n"
        "  when any(s in line(square_of(a), square_of(b)): s.square != square_of(b)\n"
        "           and terrain(s.square) == woods)\n  answer forbid;\n"
        "rule can_see.wall cite \"T.2\"\n"
        "  when any(s in line(square_of(a), square_of(b)): not s.corner and side_has(s.side, "
        "wall))\n  answer forbid;\nsource \"T.1\"; source \"T.2\";\n";
    ck_assert_int_eq(hon_load_source(t->vm, "more.hon", more, strlen(more)), HON_OK);
    ck_assert_int_eq(hon_load_board_source(t->vm, "tiny.scn", BOARD, strlen(BOARD)), HON_OK);
    /* r1 (A1) to r2 (E4): dx 4, dy 3; the line meets x = 2,4,6,8 at 1/8..7/8 and y = 2,4,6 at
     * 1/6, 1/2, 5/6: B1 (1/8), B2 (1/6), C2 (3/8), C3 (1/2), D3 (5/8), D4 (5/6), E4 (7/8):
     * no woods square, no wall side: permit, and no rule fired. Each guard is one `any`
     * (not a comparison): the trace quotes it as written, its line breaks as spaces, and says
     * it was false */
    ck_ev(t, "can_see($r1, $r2)", "permit");
    const char *tr = why(t, "can_see($r1, $r2)");
    ck_assert_str_eq(tr, "can_see($r1, $r2) = permit   [permission]\n"
                         "  rule can_see.woods: did not fire: any(s in line(square_of(a), "
                         "square_of(b)): s.square != square_of(b) and terrain(s.square) == "
                         "woods) was false   (T.1)\n"
                         "  rule can_see.wall: did not fire: any(s in line(square_of(a), "
                         "square_of(b)): not s.corner and side_has(s.side, wall)) was false   "
                         "(T.2)\n"
                         "  no rule forbids: permit (checked woods, wall)\n");
    tvm_free(t);
}
END_TEST

START_TEST(table_lookups_in_traces)
{
    tvm *t = tvm_new(
        "enum weather { storm, clear }\n"
        "table air(w: weather) -> (level: int, recon: int) cite \"BFN.air\" source \"Air Table\"\n"
        "{ storm => 1, ?; clear => 2, 20 cite \"EX.BFN.air\"; }\n"
        "table bonus(n: int) -> int { 1 => 5; }\nquery q(w: weather) -> int combine first;\n"
        "rule q.r cite \"Q.1\" answer air[w].recon;\n"
        "source \"BFN.air\" = \"Air Table\"; source \"EX.BFN.air\"; source \"Q.1\";\n");
    /* a top-level lookup, the whole row: the table's citation and the row's own */
    ck_assert_str_eq(
        why(t, "air[clear]"),
        "table air[clear] = air{level: 2, recon: 20}   (BFN.air: Air Table; row: EX.BFN.air)\n");
    /* one cell inside a rule; the storm row has no citation of its own */
    ck_assert_str_eq(why(t, "air[storm].level"),
                     "table air[storm].level = 1   (BFN.air: Air Table)\n");
    ck_assert_str_eq(why(t, "q(clear)"),
                     "q(clear) = 20   [first]\n  rule q.r: 20   (Q.1)\n"
                     "    table air[clear].recon = 20   (BFN.air: Air Table; row: EX.BFN.air)\n");
    ck_assert_str_eq(why(t, "bonus[1]"), "table bonus[1] = 5\n");
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_eval(t->vm, "bonus[1]", "<test>", &a), HON_OK);
    ck_assert_str_eq(
        hon_answer_json(a),
        "{\"edition\": null, \"readings\": {}, \"value\": 5, \"type\": \"int\", \"text\": "
        "\"5\", \"trace\": [{\"table\": \"bonus\", \"keys\": [1], \"column\": null, \"value\": "
        "5, \"cites\": [], \"row_cites\": [], \"revised_cites\": [], \"module\": null, "
        "\"edition\": null}]}");
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

START_TEST(defaults_in_traces)
{
    tvm *t = tvm_new("query ok(x: int) -> bool combine all;\n"
                     "rule ok.big cite \"A\" when x > 10 answer false;\n"
                     "query found(x: int) -> bool combine any;\n"
                     "query s(x: int) -> int combine sum default 2;\n"
                     "rule s.extra cite \"S\" when x > 0 answer 1;\nsource \"A\"; source \"S\";\n");
    /* ok(1): big's guard 1 > 10 is false */
    ck_assert_str_eq(why(t, "ok(1)"), "ok(1) = true   [all]\n"
                                      "  rule ok.big: did not fire: x > 10 was false (x = 1)   "
                                      "(A)\n"
                                      "  no rule answered false: true (checked big)\n");
    /* found has no rule: none applies, and an any query with no rule firing answers false */
    ck_assert_str_eq(why(t, "found(1)"), "found(1) = false   [any]\n"
                                         "  no rule applies: false\n");
    /* sum: the default is a part of every answer; alone when no rule fires (0 > 0 is false) */
    ck_assert_str_eq(why(t, "s(0)"), "s(0) = 2   [sum]\n  default: 2\n"
                                     "  rule s.extra: did not fire: x > 0 was false (x = 0)   "
                                     "(S)\n"
                                     "  no rule fired: the default alone (checked extra)\n");
    ck_assert_str_eq(why(t, "s(1)"), "s(1) = 3   [sum]\n  default: 2\n  rule s.extra: 1   (S)\n");
    tvm_free(t);
}
END_TEST

START_TEST(board_errors_and_reload)
{
    tvm *t = tvm_new(RULES);
    /* E303 for an unknown terrain, rendered like the compiler's diagnostics */
    const char *bad = "size 2 x 1\nlegend . = open  s = swamp\nmap\n  1 . s\n";
    ck_assert_int_eq(hon_load_board_source(t->vm, "bad.scn", bad, strlen(bad)), HON_ERR_COMPILE);
    ck_assert_msg(has_diag(t, 303, 2, 22), "got:\n%s", t->log);
    ck_assert_msg(strstr(t->log, "bad.scn:2:22: error[E303]: unknown terrain 'swamp'\n"
                                 "    2 | legend . = open  s = swamp\n"
                                 "      |                      ^~~~~\n"),
                  "got:\n%s", t->log);
    ck_assert_ptr_null(hon_board_path(t->vm));
    /* a good board, then a bad one: the good one stays (all or nothing) */
    ck_assert_int_eq(hon_load_board_source(t->vm, "tiny.scn", BOARD, strlen(BOARD)), HON_OK);
    ck_assert_int_eq(hon_load_board_source(t->vm, "bad.scn", bad, strlen(bad)), HON_ERR_COMPILE);
    ck_assert_str_eq(hon_board_path(t->vm), "tiny.scn");
    ck_ev(t, "square_of($r2)", "E4");
    /* reloading the rules keeps the board while its names resolve */
    const char *extra = "fn two() -> int = 2;";
    ck_assert_int_eq(hon_load_source(t->vm, "extra.hon", extra, strlen(extra)), HON_OK);
    ck_ev(t, "square_of($r2)", "E4");
    /* a reload without `terrain woods`: the board would no longer load (E303 at its woods), so
     * the rules are not loaded (E317): all or nothing, the board and the rules before stay
     * (before sitting 20 the board was dropped and the rules loaded anyway) */
    tvm_clear(t);
    char *fewer = strdup(RULES);
    char *w = strstr(fewer, "terrain woods;");
    memset(w, ' ', strlen("terrain woods;"));
    ck_assert_int_eq(hon_load_source(t->vm, "t.hon", fewer, strlen(fewer)), HON_ERR_COMPILE);
    ck_assert_msg(has_diag(t, 303, 3, 0), "got:\n%s", t->log);
    ck_assert_msg(strstr(t->log, "error[E317]"), "got:\n%s", t->log);
    ck_assert_str_eq(hon_board_path(t->vm), "tiny.scn");
    ck_ev(t, "square_of($r2)", "E4");
    ck_ev(t, "two()", "2"); /* the rules before, extra.hon's included */
    free(fewer);
    /* an unreadable file is E398 */
    tvm_clear(t);
    ck_assert_int_eq(hon_load_board(t->vm, "/nonexistent/x.scn"), HON_ERR_IO);
    ck_assert_int_eq(t->ndiags, 1);
    ck_assert_int_eq(t->d[0].code, 398);
    tvm_free(t);
}
END_TEST

START_TEST(drawing)
{
    tvm *t = board_vm();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(hon_draw_board(t->vm, f, "$r1", "@E2"), HON_OK);
    fclose(f);
    /* the header row of column letters, the traced line's key: A1 to E2 is 6 squares */
    ck_assert_msg(strstr(buf, "     A    B    C    D    E"), "%s", buf);
    ck_assert_msg(strstr(buf, "line: A1 to E2, 6 squares"), "%s", buf);
    free(buf);
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(hon_draw_board(t->vm, f, "$nobody", "E2"), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(hon_board_svg(t->vm, f, NULL, NULL), HON_OK);
    fclose(f);
    ck_assert_msg(strncmp(buf, "<svg", 4) == 0 || strstr(buf, "<svg"), "%.200s", buf);
    free(buf);
    tvm_free(t);
}
END_TEST

/* Sitting 20: a call from C (untraced) reads a dense table with one enum key in place
 * (lookup.c's common case) and answers as the traced read does, errors included. tone gives 1
 * for pale, 3 for dark and a `?` cell for mid (E201); span has two columns, read one at a time:
 * pale 4 and 5, mid a `?` lo (E201) and a hi of 7. (A table over an enum lists every member,
 * E120, so no read of one misses its row.) Each is asked through hon_call_query (no trace)
 * and through hon_eval (traced), which must agree. */
START_TEST(table_reads_from_c)
{
    tvm *t = board_vm();
    const char *q =
        "source \"C\";\nenum shade { pale, mid, dark, black }\n"
        "table tone(s: shade) -> int cite \"C\" { pale => 1; mid => ?; dark => 3; black => 0; }\n"
        "table span(s: shade) -> (lo: int, hi: int) cite \"C\"\n"
        "{ pale => 4, 5; mid => ?, 7; dark => 0, 0; black => 0, 0; }\n"
        "fn tone_of(s: shade) -> int = tone[s];\n"
        "fn hi_of(s: shade) -> int = span[s].hi;\n"
        "fn lo_of(s: shade) -> int = span[s].lo;\n";
    ck_assert_msg(hon_load_source(t->vm, "q.hon", q, strlen(q)) == HON_OK, "%s", t->log);
    hon_query_handle *tone = hon_lookup_query(t->vm, "tone_of");
    hon_query_handle *hi = hon_lookup_query(t->vm, "hi_of");
    hon_query_handle *lo = hon_lookup_query(t->vm, "lo_of");
    ck_assert(tone && hi && lo);
    hon_value out, arg = { HON_V_MEMBER, hon_member_id(t->vm, "shade", "pale") };
    ck_assert_int_eq(hon_call_query(t->vm, tone, &arg, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 1);
    ck_assert_int_eq(hon_call_query(t->vm, hi, &arg, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 5);
    ck_assert_int_eq(hon_call_query(t->vm, lo, &arg, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 4);
    ck_ev(t, "tone_of(pale) * 100 + hi_of(pale) * 10 + lo_of(pale)", "154");
    arg.i = hon_member_id(t->vm, "shade", "dark");
    ck_assert_int_eq(hon_call_query(t->vm, tone, &arg, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 3);
    ck_ev(t, "tone_of(dark)", "3");
    arg.i = hon_member_id(t->vm, "shade", "mid");
    ck_assert_int_eq(hon_call_query(t->vm, hi, &arg, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 7);
    ck_ev(t, "hi_of(mid)", "7");
    /* the `?` cells: E201 either way */
    tvm_clear(t);
    ck_assert_int_eq(hon_call_query(t->vm, tone, &arg, 1, &out), HON_ERR_RUNTIME);
    ck_assert_msg(t->ndiags == 1 && t->d[0].code == 201, "got:\n%s", t->log);
    tvm_clear(t);
    ck_assert_int_eq(hon_call_query(t->vm, lo, &arg, 1, &out), HON_ERR_RUNTIME);
    ck_assert_msg(t->ndiags == 1 && t->d[0].code == 201, "got:\n%s", t->log);
    tvm_clear(t);
    ck_ev(t, "tone_of(mid)", "E201");
    ck_ev(t, "lo_of(mid)", "E201");
    hon_query_handle_free(tone);
    hon_query_handle_free(hi);
    hon_query_handle_free(lo);
    tvm_free(t);
}
END_TEST

START_TEST(unit_values_and_calls)
{
    tvm *t = board_vm();
    const char *q = "query cover(u: unit) -> int combine sum;\n"
                    "rule cover.base cite \"C\" answer u.defense;\n"
                    "rule cover.hill cite \"C\" when terrain(square_of(u)) == hill answer 1;\n"
                    "fn height(s: square) -> int = elevation(s);\n"
                    "fn kinds(k: kind) -> bool = k == infantry;\nsource \"C\";\n";
    ck_assert_int_eq(hon_load_source(t->vm, "q.hon", q, strlen(q)), HON_OK);
    int32_t r2 = hon_unit_id(t->vm, "$r2");
    ck_assert_int_ge(r2, 0);
    ck_assert_int_eq(hon_unit_id(t->vm, "rifle") >= 0, 1);
    ck_assert_int_eq(hon_unit_id(t->vm, "$nobody"), -1);
    ck_assert_int_eq(hon_unit_set_value(t->vm, r2, "defense", 7), HON_OK);
    ck_assert_int_eq(hon_unit_set_value(t->vm, r2, "speed", 7), HON_ERR_NOT_FOUND);
    ck_ev(t, "$r2.defense", "7");
    ck_ev(t, "rifle.defense", "3"); /* the counter keeps its own */
    hon_query_handle *h = hon_lookup_query(t->vm, "cover");
    ck_assert_ptr_nonnull(h);
    hon_value out, arg = { HON_V_UNIT, r2 };
    ck_assert_int_eq(hon_call_query(t->vm, h, &arg, 1, &out), HON_OK);
    ck_assert_int_eq(out.kind, HON_V_INT);
    ck_assert_int_eq(out.i, 7); /* E4 is open: no hill bonus */
    /* a wrong kind of argument is refused, and so are a unit id past the board's units, a
     * negative one and a wrong count, each with its E402 message (eval.c call_args) */
    tvm_clear(t);
    arg = (hon_value){ HON_V_INT, 1 };
    ck_assert_int_eq(hon_call_query(t->vm, h, &arg, 1, &out), HON_ERR_NOT_FOUND);
    ck_assert_msg(t->ndiags == 1 && t->d[0].code == 402 &&
                      strstr(t->log, "argument 1 of cover does not fit its type unit"),
                  "got:\n%s", t->log);
    tvm_clear(t);
    arg = (hon_value){ HON_V_UNIT, 1000000 };
    ck_assert_int_eq(hon_call_query(t->vm, h, &arg, 1, &out), HON_ERR_NOT_FOUND);
    arg = (hon_value){ HON_V_UNIT, -1 };
    ck_assert_int_eq(hon_call_query(t->vm, h, &arg, 1, &out), HON_ERR_NOT_FOUND);
    ck_assert_msg(t->ndiags == 2 && t->d[1].code == 402, "got:\n%s", t->log);
    tvm_clear(t);
    ck_assert_int_eq(hon_call_query(t->vm, h, &arg, 0, &out), HON_ERR_NOT_FOUND);
    ck_assert_msg(t->ndiags == 1 && t->d[0].code == 402 &&
                      strstr(t->log, "cover takes 1 argument, not 0"),
                  "got:\n%s", t->log);
    hon_query_handle_free(h);
    h = hon_lookup_query(t->vm, "height");
    arg = (hon_value){ HON_V_SQUARE, HON_SQUARE(2, 2) }; /* C3 */
    ck_assert_int_eq(hon_call_query(t->vm, h, &arg, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 2);
    arg = (hon_value){ HON_V_SQUARE, HON_SQUARE(9, 2) }; /* J3: off the board */
    ck_assert_int_eq(hon_call_query(t->vm, h, &arg, 1, &out), HON_ERR_RUNTIME);
    hon_query_handle_free(h);
    /* `elevation` is one lookup: an ELEVATION instruction of its own, not the BOARD runner
     * (vm.md §4a), which answers as above (C3's 2) and fails off the board as BOARD did */
    char *dis = NULL;
    size_t dis_len = 0;
    FILE *dis_out = open_memstream(&dis, &dis_len);
    ck_assert_int_eq(hon_disassemble(t->vm, "height", dis_out), HON_OK);
    fclose(dis_out);
    ck_assert_msg(strstr(dis, "ELEVATION") && !strstr(dis, "BOARD"), "%s", dis);
    free(dis);
    h = hon_lookup_query(t->vm, "kinds");
    arg = (hon_value){ HON_V_MEMBER, hon_member_id(t->vm, "kind", "infantry") };
    ck_assert_int_eq(hon_call_query(t->vm, h, &arg, 1, &out), HON_OK);
    ck_assert_int_eq(out.kind, HON_V_BOOL);
    ck_assert_int_eq(out.i, 1);
    hon_query_handle_free(h);
    /* a handle survives a reload: looked up again by name */
    h = hon_lookup_query(t->vm, "height");
    const char *more = "fn unused() -> int = 1;";
    ck_assert_int_eq(hon_load_source(t->vm, "more.hon", more, strlen(more)), HON_OK);
    arg = (hon_value){ HON_V_SQUARE, HON_SQUARE(1, 1) }; /* B2: elevation 1 */
    ck_assert_int_eq(hon_call_query(t->vm, h, &arg, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 1);
    hon_query_handle_free(h);
    ck_assert_ptr_null(hon_lookup_query(t->vm, "nothing"));
    ck_assert_int_eq(hon_member_id(t->vm, "terrain", "hill"), 2);
    ck_assert_int_eq(hon_member_id(t->vm, "terrain", "swamp"), -1);
    hon_query_info info;
    ck_assert_int_eq(hon_query_info_of(t->vm, "cover", &info), HON_OK);
    ck_assert_int_eq(info.nparams, 1);
    ck_assert_str_eq(info.param_types[0], "unit");
    ck_assert_str_eq(info.result_type, "int");
    ck_assert_int_eq(hon_query_info_of(t->vm, "height", &info), HON_OK);
    ck_assert_int_eq(info.is_fn, 1);
    ck_assert_str_eq(info.param_types[0], "square");
    tvm_free(t);
}
END_TEST

/* Writes text to dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* A call from C starts each evaluation under the session's setup as it is now: the board, the
 * step budget and the depth limit changed between two calls are the next call's (session_begin
 * starts a call again from what the last one set only while none of them changed), and an
 * evaluation under another setup between two calls (odds, a traced answer, a test on a
 * board of its own) changes nothing. */
START_TEST(calls_follow_the_setup)
{
    /* the rules and a test on the tiny board, from a file beside the board's */
    char dir[] = "/tmp/hon_calls_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "tiny.scn", BOARD);
    char src[4096], path[600];
    snprintf(src, sizeof src,
             "%sfn height(s: square) -> int = elevation(s);\n"
             "fn deep(n: int) -> int = if n == 0 then 0 else deep(n - 1) + 1;\n"
             "test \"tiny\" board \"tiny.scn\" { expect elevation(@C3) == 2; }\n",
             RULES);
    write_file(dir, "t.hon", src);
    snprintf(path, sizeof path, "%s/t.hon", dir);
    tvm *t = tvm_new(NULL);
    ck_assert_msg(hon_load_file(t->vm, path) == HON_OK, "%s", t->log);
    ck_assert_int_eq(hon_load_board_source(t->vm, "tiny.scn", BOARD, strlen(BOARD)), HON_OK);
    hon_query_handle *h = hon_lookup_query(t->vm, "height"), *d = hon_lookup_query(t->vm, "deep");
    ck_assert(h && d);
    hon_value out, c3 = { HON_V_SQUARE, HON_SQUARE(2, 2) }, e4 = { HON_V_SQUARE, HON_SQUARE(4, 3) };
    ck_assert_int_eq(hon_call_query(t->vm, h, &c3, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 2); /* the tiny board: C3 at elevation 2 */
    ck_assert_int_eq(hon_call_query(t->vm, h, &e4, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 0);
    /* another board, 3 x 3, C3 at elevation 4: E4 is off it (E217), C3 its own */
    const char *small = "size 3 x 3\nlegend . = open\nmap\n  1 . . .\n  2 . . .\n  3 . . .\n"
                        "elevation\n  1 0 0 0\n  2 0 0 0\n  3 0 0 4\n";
    ck_assert_int_eq(hon_load_board_source(t->vm, "small.scn", small, strlen(small)), HON_OK);
    ck_assert_int_eq(hon_call_query(t->vm, h, &c3, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 4);
    tvm_clear(t);
    ck_assert_int_eq(hon_call_query(t->vm, h, &e4, 1, &out), HON_ERR_RUNTIME);
    ck_assert_msg(has_diag(t, 217, 0, 0) || strstr(t->log, "E217"), "got:\n%s", t->log);
    /* deep(10) makes 11 nested calls: under a depth limit of 5 it fails (E206), then the
     * default limit is back */
    hon_value ten = { HON_V_INT, 10 };
    ck_assert_int_eq(hon_call_query(t->vm, d, &ten, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 10);
    ck_assert_int_eq(hon_set_cap(t->vm, HON_CAP_DEPTH, 5), HON_OK);
    tvm_clear(t);
    ck_assert_int_eq(hon_call_query(t->vm, d, &ten, 1, &out), HON_ERR_RUNTIME);
    ck_assert_msg(strstr(t->log, "E206"), "got:\n%s", t->log);
    ck_assert_int_eq(hon_set_cap(t->vm, HON_CAP_DEPTH, 0), HON_OK);
    ck_assert_int_eq(hon_call_query(t->vm, d, &ten, 1, &out), HON_OK);
    /* a budget of 3 steps is too few for deep(10) (E207), the default enough */
    ck_assert_int_eq(hon_set_cap(t->vm, HON_CAP_STEPS, 3), HON_OK);
    tvm_clear(t);
    ck_assert_int_eq(hon_call_query(t->vm, d, &ten, 1, &out), HON_ERR_RUNTIME);
    ck_assert_msg(strstr(t->log, "E207"), "got:\n%s", t->log);
    ck_assert_int_eq(hon_set_cap(t->vm, HON_CAP_STEPS, 0), HON_OK);
    ck_assert_int_eq(hon_call_query(t->vm, d, &ten, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 10);
    /* odds (another setup: its own dice and budget) and a traced answer between two calls */
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_odds(t->vm, "roll d6 >= 5", NULL, &a), HON_OK);
    hon_answer_free(a);
    ck_assert_int_eq(hon_call_query(t->vm, h, &c3, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 4);
    ck_ev(t, "height(@C3)", "4");
    /* a test run between two calls: its evaluations have the test's board, the next call the
     * session's */
    char *buf = NULL;
    size_t len = 0, passed, failed;
    FILE *f = open_memstream(&buf, &len);
    hon_run_tests(t->vm, NULL, f, &passed, &failed);
    fclose(f);
    ck_assert_msg(passed == 1 && failed == 0, "%s", buf);
    free(buf);
    ck_assert_int_eq(hon_call_query(t->vm, h, &c3, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 4);
    ck_assert_int_eq(hon_call_query(t->vm, d, &ten, 1, &out), HON_OK);
    ck_assert_int_eq(out.i, 10);
    hon_query_handle_free(h);
    hon_query_handle_free(d);
    tvm_free(t);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

START_TEST(tests_with_boards)
{
    char dir[] = "/tmp/hon_board_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char sub[600];
    snprintf(sub, sizeof sub, "%s/boards", dir);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    write_file(sub, "tiny.scn", BOARD);
    char src[4096];
    snprintf(src, sizeof src,
             "%stest \"on the tiny board\" board \"boards/tiny.scn\" {\n"
             "  expect square_of($r2) == @E4;\n  expect terrain(@C1) == woods;\n"
             "  expect $nobody fails E213;\n}\n"
             "test \"a board that is not there\" board \"boards/none.scn\" { expect true; }\n"
             "test \"no board\" { expect elevation(@A1) fails E212; }\n"
             "test \"wrong\" board \"boards/tiny.scn\" { expect elevation(@C3) == 1; }\n",
             RULES);
    write_file(dir, "t.hon", src);
    char path[600];
    snprintf(path, sizeof path, "%s/t.hon", dir);
    tvm *t = tvm_new(NULL);
    ck_assert_msg(hon_load_file(t->vm, path) == HON_OK, "%s", t->log);
    char *buf = NULL;
    size_t len = 0, passed, failed;
    FILE *f = open_memstream(&buf, &len);
    hon_run_tests(t->vm, NULL, f, &passed, &failed);
    fclose(f);
    /* the board test and the no-board test pass; the missing board and C3's elevation (2,
     * not 1) fail */
    ck_assert_msg(passed == 2 && failed == 2, "%s\n%s", buf, t->log);
    ck_assert_msg(strstr(buf, "FAIL \"a board that is not there\": its board "
                              "\"boards/none.scn\" does not load"),
                  "%s", buf);
    ck_assert_msg(strstr(buf, "FAIL \"wrong\": elevation(@C3) is 2, expected 1"), "%s", buf);
    /* the board that cannot be read is said at the test's board "PATH" string (s20 newuser20
     * P10; before, with no place): RULES is 10 lines, the first test 5, so the test is on line
     * 16, and `test "a board that is not there" board ` is 39 columns: the string at 40 */
    ck_assert_msg(has_diag(t, 398, 16, 40), "%s", t->log);
    /* a test's board is its own: the session has none */
    ck_assert_ptr_null(hon_board_path(t->vm));
    free(buf);
    tvm_free(t);
    /* two boards in one test: E020 */
    ck_load_fails("test \"x\" board \"a.scn\" board \"b.scn\" { }", 20, 1, 30);
    ck_load_fails("test \"x\" boards \"a.scn\" { }", 10, 1, 10);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

/* bench/los.hon on a board worked by hand (3 x 3):
 *
 *        A     B          C
 *   1    s   building   t (trench)      s: infantry (base 3), t: infantry (3), v: vehicle (5)
 *   2    .     .        .
 *   3    v     .        .
 *
 *   s -> t: the walk A1 -> B1 -> C1 enters the building on B1: blocked, -1.
 *   s -> v: A1 -> A2 -> A3, open and flat: seen; v's defense: base 5 on open ground (+0).
 *   v -> t: A3 -> B2 -> C1 (diagonal moves): seen; t is infantry in a trench and v is not:
 *           3 + 2 (trench bonus) + 1 = 6.
 *   t -> v: C1 -> B2 -> A3: seen, 5. */
START_TEST(bench_rules)
{
    tvm *t = tvm_new(NULL);
    hon_status st = hon_load_file(t->vm, HON_SOURCE_ROOT "/bench/los.hon");
    ck_assert_msg(st == HON_OK, "%s", t->log);
    const char *board = "size 3 x 3\nlegend . = open  B = building  T = trench\n"
                        "map\n  1 . B T\n  2 . . .\n  3 . . .\n"
                        "unit s = bench_infantry bench_side at A1\n"
                        "unit t = bench_infantry bench_side at C1\n"
                        "unit v = bench_vehicle bench_side at A3\n";
    ck_assert_int_eq(hon_load_board_source(t->vm, "hand.scn", board, strlen(board)), HON_OK);
    ck_ev(t, "pair_value($s, $t)", "-1");
    ck_ev(t, "pair_value($s, $v)", "5");
    ck_ev(t, "pair_value($v, $t)", "6");
    ck_ev(t, "pair_value($t, $v)", "5");
    /* the names the driver takes from the rules */
    ck_ev(t, "bench_terrain[3]", "hedge");
    ck_ev(t, "bench_counter(2)", "bench_artillery");
    ck_ev(t, "bench_army()", "bench_side");
    /* a unit's own base defense, as the driver sets it: t's 4 instead of 3 */
    ck_assert_int_eq(hon_unit_set_value(t->vm, hon_unit_id(t->vm, "$t"), "base_defense", 4),
                     HON_OK);
    ck_ev(t, "pair_value($v, $t)", "7");
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("board");
    TCase *tc = tcase_create("board");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, literals_and_printing);
    tcase_add_test(tc, vocabulary);
    tcase_add_test(tc, units_on_the_board);
    tcase_add_test(tc, squares_terrain_elements);
    tcase_add_test(tc, json_and_odds);
    tcase_add_test(tc, sides_and_interspaces);
    tcase_add_test(tc, distance_and_lines);
    tcase_add_test(tc, rules_use_the_board);
    tcase_add_test(tc, table_lookups_in_traces);
    tcase_add_test(tc, defaults_in_traces);
    tcase_add_test(tc, board_errors_and_reload);
    tcase_add_test(tc, drawing);
    tcase_add_test(tc, unit_values_and_calls);
    tcase_add_test(tc, table_reads_from_c);
    tcase_add_test(tc, calls_follow_the_setup);
    tcase_add_test(tc, tests_with_boards);
    tcase_add_test(tc, bench_rules);
    suite_add_tcase(s, tc);
    return check_run(s);
}
