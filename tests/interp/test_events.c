/* test_events.c — events, effects, choices, phases and procedure odds (language.md §6) through
 * the embedding API: each statement applied and undone (the board and the units compared with
 * a snapshot taken before), cascades and their order, the depth and step limits, rollback on
 * failure, scripted dice and choices, the chooser callback, the clock, walks, and the exact
 * odds of a procedure. Expected values are worked out in the comments from the rules below.
 */
#include "interp_test.h"

/* The vocabulary and events of the tests. marker_received is raised `on give`, so a `give`
 * raises it once per marker given; the Suppressed-Shaken cascade below mirrors GZ6.morale.gain
 * in miniature. */
static const char *const RULES =
    "kind infantry; kind vehicle;\nside allies; side axis;\n"
    "marker suppressed; marker shaken; marker routed;\nvalue speed; value life;\n"
    "terrain open; terrain woods; terrain bridge;\nsquare_feature rubble;\n"
    "side_feature wire;\ninterspace_item mine;\n"
    "phase order; phase activation; phase supply;\nface wreck;\n"
    "face ruined \"the bridge's ruin side\" shows open;\n"
    "counter rifle: infantry { side allies }\n"
    "counter tank: vehicle { size 2 side allies speed 4 }\n"
    "counter truck: vehicle { side allies speed 3 }\nevent suppress(u: unit);\n"
    "event hit(u: unit, n: int);\nevent marker_received(u: unit, m: marker) on give;\n"
    "event marker_lost(u: unit, m: marker) on take;\nevent unit_destroyed(u: unit) on destroy;\n"
    "event enters(u: unit, sq: square) on enter;\n"
    "event walked(u: unit, path: list<square>) on walk_end;\n"
    "event phase_starts(p: phase) on phase_start;\nevent phase_ends(p: phase) on phase_end;\n"
    "event turn_starts(n: int) on turn_start;\n"
    /* one event per statement, to apply and undo each alone */
    "event st_give(u: unit, n: int);\nevent st_take(u: unit, n: int);\n"
    "event st_take_all(u: unit);\nevent st_flip(u: unit);\n"
    "event st_flip_element(sq: square);\nevent st_set(u: unit, v: int);\n"
    "event st_destroy(u: unit);\nevent st_move(u: unit, sq: square);\n"
    "event st_move2(u: unit, a: square, b: square);\nevent st_embark(u: unit, t: unit);\n"
    "event st_disembark(u: unit, sq: square);\nevent st_place(sq: square);\n"
    "event st_remove(sq: square);\nevent st_wire(a: square, b: square, lay: bool);\n"
    "event st_clear_mines(sq: square);\nevent st_leave(sq: square);\nevent st_many(u: unit);\n"
    "event st_fail(u: unit);\nevent st_loop(u: unit);\n"
    "event st_spin(u: unit);\nevent st_roll(u: unit);\n"
    "event st_roll2(u: unit);\nevent st_choose(u: unit);\n"
    "event st_choose_empty(u: unit);\nevent st_order(u: unit);\n"
    "event st_note(u: unit);\nevent st_roll_many(u: unit);\nevent st_roll_choose(u: unit);\n"
    "event st_mix(t: unit, u: unit, v: unit, sq: square);\n"
    "event st_roll_here(u: unit, sq: square);\n"
    "rule st_give.r cite \"T.give\" do { give u suppressed n; };\n"
    "rule st_take.r cite \"T.take\" do { take u suppressed n; };\n"
    "rule st_take_all.r cite \"T.take\" do { take u suppressed all; };\n"
    "rule st_flip.r cite \"T.flip\" do { flip u to wreck; };\n"
    "rule st_flip_element.r cite \"T.flip\" do { flip element_at(sq) to ruined; };\n"
    "rule st_set.r cite \"T.set\" do { set u.speed = v; };\n"
    "rule st_destroy.r cite \"T.destroy\" do { destroy u; };\n"
    "rule st_move.r cite \"T.move\" do { move u to sq; };\n"
    "rule st_move2.r cite \"T.move\" do { move u to a, b; };\n"
    "rule st_embark.r cite \"T.embark\" do { embark u in t; };\n"
    "rule st_disembark.r cite \"T.embark\" do { disembark u to sq; };\n"
    "rule st_place.r cite \"T.feature\" do { place rubble at sq; };\n"
    "rule st_remove.r cite \"T.feature\" do { remove rubble at sq; };\n"
    "rule st_wire.r cite \"T.feature\" do {\n"
    "  if lay then { place wire at side_between(a, b); } else { remove wire at side_between(a, b); "
    "}\n};\nrule st_clear_mines.r cite \"T.mines\" do { remove mine near sq; };\n"
    "rule st_leave.r cite \"T.feature\" do { remove element_at(sq) at sq; };\n"
    "rule st_many.r cite \"T.many\" do {\n"
    "  give u suppressed; flip u to wreck; set u.speed = 1; move u to @C2; give u routed 2;\n};\n"
    /* fails after two effects: all of it must be undone */
    "rule st_fail.r cite \"T.fail\" do { give u suppressed; move u to @D3; fail \"stop here\"; };\n"
    /* raises itself forever: the cascade limit */
    "rule st_loop.r cite \"T.loop\" do { give u suppressed; raise st_loop(u); };\n"
    /* loops without end inside one block: the step budget */
    "fn spin(n: int) -> int = if n == 0 then 0 else spin(n - 1);\n"
    "rule st_spin.r cite \"T.spin\" do { give u suppressed; for i in [1, 2, 3] { let k = sum(j in "
    "[i]: spin(150)); } };\n"
    "rule st_roll.r cite \"T.roll\" do { if roll d6 >= 4 then { give u suppressed; } };\n"
    /* an empty list of units kept across a roll (the odds fork there) */
    "rule st_roll_here.r cite \"T.roll\" do {\n  let here = units_at(sq);\n"
    "  if roll d6 >= 4 and len(here) == 0 then { give u suppressed; }\n};\n"
    "rule st_roll2.r cite \"T.roll\" do { let d = roll 2 d6; give u suppressed sum(x in d: if x >= "
    "5 then 1 else 0); };\nrule st_choose.r cite \"T.choose\" do {\n"
    "  let sq = choose(s in [@B1, @C1, @D1], by: u.side) \"Where does it go?\";\n  move u to sq;\n"
    "};\n"
    /* rolls, then asks: abandoned at the question, it must leave the dice as they were */
    "rule st_roll_choose.r cite \"T.choose\" do {\n  let d = roll 3 d6;\n"
    "  let sq = choose(s in [@B1, @C1, @D1], by: u.side) \"Where does it go?\";\n  move u to sq;\n"
    "};\n"
    "rule st_choose_empty.r cite \"T.choose\" do { let x = choose(s in [q in [@A1]: false], by: "
    "allies); };\n"
    /* order: the events a block raises wait for its end, then run depth first */
    "rule st_order.a cite \"T.order\" do { note \"a1\"; raise hit(u, 1); raise hit(u, 2); note "
    "\"a2\"; };\nrule st_order.b cite \"T.order\" do { note \"b\"; };\n"
    "rule hit.r cite \"T.hit\" do { note \"hit\"; if n == 1 then { raise suppress(u); } };\n"
    "rule suppress.r cite \"T.suppress\" do { note \"suppress\"; };\n"
    "rule st_note.r cite \"T.note\" do { note \"just a note\"; };\n"
    "rule st_roll_many.r cite \"T.roll\" do {\n  move u to @B2; flip u to wreck; move u to @A1;\n"
    "  if roll d6 >= 4 then { give u suppressed; }\n};\n"
    /* a carrier destroyed with its passengers aboard; then one of them disembarks and moves,
     * the other is destroyed where it is (inside the wreck): undo must put both back in it */
    "rule st_mix.r cite \"T.mix\" do {\n"
    "  embark v in t; destroy t; disembark u to sq; move u to @C2; destroy v; set u.speed = 2;\n"
    "  embark u in $tank;\n};\n"
    /* the cascade: a unit with two Suppressed markers or more, not yet Shaken, becomes Shaken.
     * The events a `give` raises run after its block, so all of them see every marker given:
     * `give u suppressed 2` runs this rule twice, and the second time the unit is Shaken. */
    "rule marker_received.shaken cite \"T.cascade\"\n"
    "  when m == suppressed and marker_count(u, suppressed) >= 2 and not has(u, shaken)\n"
    "  do { give u shaken; };\n"
    "rule unit_destroyed.note cite \"T.destroyed\" do { note \"destroyed\"; };\n"
    "rule enters.woods cite \"T.woods\" when terrain(sq) == woods do { give u suppressed; };\n"
    "rule enters.pit cite \"T.pit\" when sq == @D3 do { destroy u; };\n"
    "rule walked.tired cite \"T.walked\" when len(path) >= 3 do { give u routed; };\n"
    "rule phase_ends.supply cite \"T.supply\" when p == supply do {\n"
    "  for x in units() { take x suppressed all; }\n};\n"
    "rule turn_starts.n cite \"T.turn\" do { note \"turn starts\"; };\n"
    "rule phase_starts.n cite \"T.phase\" when p == activation do { note \"activation starts\"; "
    "};\nsource \"T.give\"; source \"T.take\"; source \"T.flip\"; source \"T.set\";\n"
    "source \"T.destroy\"; source \"T.move\"; source \"T.embark\"; source \"T.feature\";\n"
    "source \"T.mines\"; source \"T.many\"; source \"T.fail\"; source \"T.loop\";\n"
    "source \"T.spin\"; source \"T.roll\"; source \"T.choose\"; source \"T.order\";\n"
    "source \"T.hit\"; source \"T.suppress\"; source \"T.note\"; source \"T.mix\";\n"
    "source \"T.cascade\"; source \"T.destroyed\"; source \"T.woods\"; source \"T.pit\";\n"
    "source \"T.walked\"; source \"T.supply\"; source \"T.turn\"; source \"T.phase\";\n";

/*        A     B     C     D
 *   1    .     .     w     .        w: woods (element woods1: C1)
 *   2    .     .     .     .        =: the bridge element, B3 C3
 *   3    .     =     =     .
 * Units: r1 (rifle) A1, r2 (rifle) A1 too (after r1: units_at(@A1) == [$r1, $r2]),
 * tank front A3 rear A2, truck D1 carrying p1. A wire on B2/C2, rubble on D2, mines on
 * the NW and SE corners of B2. */
static const char *const BOARD = "scenario \"events\"\nsize 4 x 3\n"
                                 "legend . = open  w = woods  b = bridge\nmap\n"
                                 "  1 . . w .\n  2 . . . .\n  3 . b b .\nelement bridge1 = B3..C3\n"
                                 "side B2/C2 wire\nsquare D2 rubble\n"
                                 "interspace B2 mine=1\ninterspace B2:SE mine=2\n"
                                 "unit r1 = rifle allies at A1\nunit r2 = rifle allies at A1\n"
                                 "unit tank = tank allies at A3 A2\n"
                                 "unit truck = truck allies at D1\n"
                                 "unit p1 = rifle allies in truck\n";

static tvm *play_vm(void)
{
    tvm *t = tvm_new(RULES);
    hon_status st = hon_load_board_source(t->vm, "events.scn", BOARD, strlen(BOARD));
    ck_assert_msg(st == HON_OK, "board failed: %s", t->log);
    return t;
}

/* Everything a procedure may change, as text: for each unit its squares, its carrier and its
 * passengers, markers, face and values; each square's units in order, features and items
 * near it; the element faces; the clock. Two snapshots are equal exactly when the states are. */
static char snap_buf[2][16384];

static const char *snap(tvm *t, int which)
{
    static const char *const units[] = { "r1", "r2", "tank", "truck", "p1" };
    static const char *const squares[] = { "A1", "B1", "C1", "D1", "A2", "B2",
                                           "C2", "D2", "A3", "B3", "C3", "D3" };
    char *out = snap_buf[which];
    size_t n = 0;
    out[0] = '\0';
    char e[256];
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        const char *u = units[i];
        snprintf(e, sizeof e, "[on_board($%s), embarked($%s)]", u, u);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, "%s: %s", u, ev(t, e));
        snprintf(e, sizeof e, "squares_of($%s)", u);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, " %s", ev(t, e));
        snprintf(e, sizeof e,
                 "[marker_count($%s, suppressed), marker_count($%s, shaken), "
                 "marker_count($%s, routed)]",
                 u, u, u);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, " %s", ev(t, e));
        snprintf(e, sizeof e, "face($%s)", u);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, " %s", ev(t, e));
        snprintf(e, sizeof e, "$%s.speed", u);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, " speed %s", ev(t, e));
        snprintf(e, sizeof e, "carrier($%s)", u);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, " in %s", ev(t, e));
        snprintf(e, sizeof e, "passengers($%s)", u);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, " carries %s\n", ev(t, e));
    }
    for (size_t i = 0; i < sizeof squares / sizeof *squares; i++) {
        const char *q = squares[i];
        snprintf(e, sizeof e, "[units_at(@%s)]", q);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, "%s: %s", q, ev(t, e));
        snprintf(e, sizeof e, "[has_feature(@%s, rubble)]", q);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, " %s", ev(t, e));
        snprintf(e, sizeof e, "items_near(@%s)", q);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, " %s", ev(t, e));
        snprintf(e, sizeof e, "[s in sides_of(@%s): side_has(s, wire)]", q);
        n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, " %s\n", ev(t, e));
    }
    n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, "bridge %s",
                          ev(t, "element_face(element_at(@B3))"));
    n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, ", turn %s", ev(t, "turn()"));
    n += (size_t)snprintf(out + n, sizeof snap_buf[0] - n, ", phase %s\n", ev(t, "phase()"));
    ck_assert_uint_lt(n, sizeof snap_buf[0] - 1);
    return out;
}

/* Runs `do CALL`: the answer's text, or "E219"-style (the first diagnostic's code). */
static char do_buf[8192];

static const char *do_(tvm *t, const char *call)
{
    hon_answer *a = NULL;
    tvm_clear(t);
    hon_status st = hon_do(t->vm, call, "<test>", &a);
    if (st == HON_OK)
        snprintf(do_buf, sizeof do_buf, "%s", hon_answer_text(a));
    else if (t->ndiags)
        snprintf(do_buf, sizeof do_buf, "E%03d", t->d[0].code);
    else
        snprintf(do_buf, sizeof do_buf, "status %s", hon_status_text(st));
    hon_answer_free(a);
    return do_buf;
}

static void undo_ok(tvm *t)
{
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_undo(t->vm, &a), HON_OK);
    hon_answer_free(a);
}

/* Applies CALL (its output must be WANT), then undoes it: the state is the one before. */
static void apply_and_undo(tvm *t, const char *call, const char *want)
{
    const char *before = snap(t, 0);
    ck_assert_str_eq(do_(t, call), want);
    const char *after = snap(t, 1);
    ck_assert_msg(strcmp(before, after) != 0, "%s changed nothing", call);
    undo_ok(t);
    ck_assert_str_eq(snap(t, 1), before);
}

START_TEST(each_statement_and_its_undo)
{
    tvm *t = play_vm();
    /* give 2: two markers; marker_received runs twice; the second sees 2 Suppressed and gives
     * Shaken (T.cascade) */
    apply_and_undo(t, "st_give($r1, 2)",
                   "give $r1 suppressed 2   (T.give)\ngive $r1 shaken   (T.cascade)\n");
    ck_ev(t, "marker_count($r1, suppressed)", "0");
    /* take: never below zero; take all */
    ck_assert_str_eq(do_(t, "st_give($r2, 3)"), "give $r2 suppressed 3   (T.give)\n"
                                                "give $r2 shaken   (T.cascade)\n");
    apply_and_undo(t, "st_take($r2, 2)", "take $r2 suppressed 2   (T.take)\n");
    apply_and_undo(t, "st_take($r2, 7)", "take $r2 suppressed 3   (T.take)\n");
    apply_and_undo(t, "st_take_all($r2)", "take $r2 suppressed 3   (T.take)\n");
    ck_ev(t, "marker_count($r2, suppressed)", "3");
    /* flips: a unit, a terrain element */
    apply_and_undo(t, "st_flip($tank)", "flip $tank to wreck   (T.flip)\n");
    apply_and_undo(t, "st_flip_element(@C3)", "flip bridge1 to ruined   (T.flip)\n");
    /* set: a value the counter gives (speed 4), and one it does not (r1 has no speed: undo
     * makes it not given again, so reading it is E204) */
    apply_and_undo(t, "st_set($tank, 2)", "set $tank.speed = 2 (was 4)   (T.set)\n");
    apply_and_undo(t, "st_set($r1, 5)", "set $r1.speed = 5   (T.set)\n");
    ck_ev(t, "$r1.speed", "E204");
    /* destroy: off the board, and undone back to its place: r1 first on A1 again */
    apply_and_undo(t, "st_destroy($r1)",
                   "destroy $r1   (T.destroy)\nnote: destroyed   (T.destroyed)\n");
    ck_ev(t, "units_at(@A1)", "[$r1, $r2]");
    /* move: into the woods (enters.woods gives a marker) and back */
    apply_and_undo(t, "st_move($r1, @C1)",
                   "move $r1 to C1   (T.move)\ngive $r1 suppressed   (T.woods)\n");
    ck_ev(t, "units_at(@A1)", "[$r1, $r2]");
    /* a 2-square unit keeps its orientation (rear north of the front), or takes both */
    apply_and_undo(t, "st_move($tank, @B3)", "move $tank to B3, B2   (T.move)\n");
    apply_and_undo(t, "st_move2($tank, @C2, @D2)", "move $tank to C2, D2   (T.move)\n");
    /* embark and disembark */
    apply_and_undo(t, "st_embark($r2, $truck)", "embark $r2 in $truck   (T.embark)\n");
    apply_and_undo(t, "st_disembark($p1, @D2)", "disembark $p1 to D2   (T.embark)\n");
    /* features: a square's rubble, a side's wire, the mines around B2 (two corners, one line) */
    apply_and_undo(t, "st_place(@A2)", "place rubble at A2   (T.feature)\n");
    apply_and_undo(t, "st_remove(@D2)", "remove rubble at D2   (T.feature)\n");
    apply_and_undo(t, "st_wire(@B2, @C2, false)", "remove wire at B2/C2   (T.feature)\n");
    apply_and_undo(t, "st_wire(@A1, @A2, true)", "place wire at A1/A2   (T.feature)\n");
    apply_and_undo(t, "st_clear_mines(@B2)", "remove mine near B2   (T.mines)\n");
    /* a square leaves its terrain element (C1, the woods): in none until undone; the outcome
     * of the procedure says so */
    ck_assert_str_eq(do_(t, "st_leave(@C1)"), "remove woods@C1 at C1   (T.feature)\n");
    ck_ev(t, "in_element(@C1)", "false");
    undo_ok(t);
    ck_ev(t, "element_at(@C1)", "woods@C1");
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_odds_do(t->vm, "st_leave(@C1)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "remove woods@C1 at C1: 1/1 (100.00%)");
    hon_answer_free(a);
    ck_ev(t, "in_element(@C1)", "true");
    /* several effects, undone together */
    apply_and_undo(t, "st_many($r2)",
                   "give $r2 suppressed   (T.many)\n"
                   "flip $r2 to wreck   (T.many)\nset $r2.speed = 1   (T.many)\n"
                   "move $r2 to C2   (T.many)\ngive $r2 routed 2   (T.many)\n");
    tvm_free(t);
}
END_TEST

START_TEST(undo_after_a_carrier_is_destroyed)
{
    tvm *t = play_vm();
    /* The truck on D1 carries p1; r2 embarks too, then the truck is destroyed with both
     * aboard (they stay embarked in it, off the board); p1 disembarks to D2, moves to C2, gets
     * a speed (a rifle gives none) and embarks in the tank; r2 is destroyed inside the wreck.
     * The destroyed units' notes (T.destroyed) come after the block. Undoing the whole must
     * re-embark p1 and r2 in the truck although the truck is off the board while the
     * disembark and r2's destruction are reverted, and put r2 back second on A1. */
    apply_and_undo(t, "st_mix($truck, $p1, $r2, @D2)",
                   "embark $r2 in $truck   (T.mix)\ndestroy $truck   (T.mix)\n"
                   "disembark $p1 to D2   (T.mix)\nmove $p1 to C2   (T.mix)\n"
                   "destroy $r2   (T.mix)\nset $p1.speed = 2   (T.mix)\n"
                   "embark $p1 in $tank   (T.mix)\n"
                   "note: destroyed   (T.destroyed)\nnote: destroyed   (T.destroyed)\n");
    ck_ev(t, "passengers($truck)", "[$p1]");
    ck_ev(t, "units_at(@A1)", "[$r1, $r2]");
    ck_ev(t, "$p1.speed", "E204");
    /* odds run the same procedure and revert it on every path: the board is unchanged. The
     * outcome is the net change, one item per thing changed in the order first changed: r2's
     * place (its embark, first), the truck's, p1's place (disembark... ending in the tank),
     * p1's speed */
    const char *before = snap(t, 0);
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_odds_do(t->vm, "st_mix($truck, $p1, $r2, @D2)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "destroy $r2; destroy $truck; embark $p1 in $tank; "
                                         "set $p1.speed = 2: 1/1 (100.00%)");
    hon_answer_free(a);
    ck_assert_str_eq(snap(t, 1), before);
    tvm_free(t);
}
END_TEST

START_TEST(no_change_is_no_effect)
{
    tvm *t = play_vm();
    /* taking what is not there, flipping to the face shown, a move to where it stands,
     * removing what is not there: nothing happens, nothing is recorded */
    ck_assert_str_eq(do_(t, "st_take($r1, 1)"), "no effect\n");
    ck_assert_str_eq(do_(t, "st_move($truck, @D1)"), "no effect\n");
    ck_assert_str_eq(do_(t, "st_remove(@A1)"), "no effect\n");
    ck_assert_str_eq(do_(t, "st_give($r1, 0)"), "no effect\n");
    ck_assert_str_eq(do_(t, "st_note($r1)"), "note: just a note   (T.note)\n");
    /* five procedures in the history, each undone with nothing to revert */
    for (int i = 0; i < 5; i++)
        undo_ok(t);
    ck_assert_int_eq(hon_undo(t->vm, NULL), HON_ERR_NOT_FOUND);
    tvm_free(t);
}
END_TEST

START_TEST(rollback_on_failure)
{
    tvm *t = play_vm();
    const char *before = snap(t, 0);
    /* st_fail gives, moves, then fails: E219 at the `fail` (line of st_fail.r), all undone */
    ck_assert_str_eq(do_(t, "st_fail($r1)"), "E219");
    ck_assert_msg(strstr(t->log, "stop here (rule st_fail.r)") &&
                      strstr(t->log, "the procedure was undone"),
                  "%s", t->log);
    ck_assert_str_eq(snap(t, 1), before);
    /* it is not in the history */
    ck_assert_int_eq(hon_undo(t->vm, NULL), HON_ERR_NOT_FOUND);
    /* an effect that cannot be applied: the tank needs both squares when it has no room to
     * keep its orientation (its rear would be off the board, north of A1) */
    ck_assert_str_eq(do_(t, "st_move($tank, @A1)"), "E224");
    ck_assert_str_eq(do_(t, "st_disembark($r1, @B1)"), "E224"); /* not embarked */
    ck_assert_str_eq(do_(t, "st_move($r1, @Z9)"), "E217");
    /* the counters of the rules are not pieces in play */
    ck_assert_str_eq(do_(t, "st_give(rifle, 1)"), "E224");
    ck_assert_str_eq(snap(t, 1), before);
    tvm_free(t);
}
END_TEST

START_TEST(cascade_limits)
{
    /* st_loop raises itself after each block: events nest at most half the depth limit (the
     * other half is for their rules' calls), so with max_depth 30 the 16th nested event is
     * E222; the 15 Suppressed markers given are undone */
    tvm *t = tvm_new_cfg(RULES, 0, 30);
    ck_assert_int_eq(hon_load_board_source(t->vm, "events.scn", BOARD, strlen(BOARD)), HON_OK);
    const char *before = snap(t, 0);
    ck_assert_str_eq(do_(t, "st_loop($r1)"), "E222");
    ck_assert_str_eq(snap(t, 1), before);
    tvm_free(t);
    /* the step budget covers the whole procedure: st_spin makes 3 x 150 calls, more than
     * 2000 steps; the marker it gave first is undone */
    t = tvm_new_cfg(RULES, 2000, 0);
    ck_assert_int_eq(hon_load_board_source(t->vm, "events.scn", BOARD, strlen(BOARD)), HON_OK);
    before = snap(t, 0);
    ck_assert_str_eq(do_(t, "st_spin($r1)"), "E207");
    ck_assert_str_eq(snap(t, 1), before);
    tvm_free(t);
}
END_TEST

/* Runaway cascades are reported at the rule statement that raised the event that went too
 * deep, with its line and caret. The line numbers are those of LOOP_RULES (t.hon). */
static const char *const LOOP_RULES =
    "kind infantry; side allies; terrain open;\n"                  /* 1 */
    "marker suppressed; marker pinned;\n"                          /* 2 */
    "counter rifle: infantry { side allies }\n"                    /* 3 */
    "event boom(u: unit);\n"                                       /* 4 */
    "event again(u: unit);\n"                                      /* 5 */
    "event received(u: unit, m: marker) on give;\n"                /* 6 */
    "fn calm(u: unit) -> bool = marker_count(u, pinned) > 1000;\n" /* 7 */
    "rule boom.r cite \"L.boom\" do {\n"                           /* 8 */
    "  note \"boom\";\n"                                           /* 9 */
    "  raise boom(u);\n"                                           /* 10 */
    "};\n"                                                         /* 11 */
    "rule again.r cite \"L.again\" do { give u suppressed; };\n"   /* 12 */
    /* a rule on every marker received that calls a fn: it has nothing to do with the cascade */
    "rule received.calm cite \"L.calm\" when calm(u) do { note \"calm\"; };\n" /* 13 */
    "rule received.more cite \"L.more\" when m == suppressed do {\n"           /* 14 */
    "  give u suppressed;\n"                                                   /* 15 */
    "};\n"                                                                     /* 16 */
    "source \"L.boom\"; source \"L.again\"; source \"L.calm\"; source \"L.more\";\n";

START_TEST(cascade_positions)
{
    static const char *const board = "scenario \"l\"\nsize 2 x 2\nlegend . = open\nmap\n"
                                     "  1 . .\n  2 . .\nunit a = rifle allies at A1\n";
    tvm *t = tvm_new_cfg(LOOP_RULES, 0, 30);
    ck_assert_int_eq(hon_load_board_source(t->vm, "l.scn", board, strlen(board)), HON_OK);
    /* boom raises itself: E222 at its `raise` (line 10, column 3), the line and a caret shown */
    ck_assert_str_eq(do_(t, "boom($a)"), "E222");
    ck_assert_msg(t->ndiags == 1 && t->d[0].line == 10 && t->d[0].col == 3 &&
                      strcmp(t->d[0].path, "t.hon") == 0,
                  "%s", t->log);
    ck_assert_msg(strstr(t->log, "t.hon:10:3: error[E222]") &&
                      strstr(t->log, "  raise boom(u);\n") && strstr(t->log, "^~~"),
                  "%s", t->log);
    /* again gives a marker; each marker received gives another (received.more): the cascade
     * goes through the `on give` event. The rule received.calm calls a fn at every level, yet
     * the cascade, not the call, is what passes the limit: E222 at the `give` of line 15 that
     * raised the event one level too deep (not E206 blamed on received.calm's call). */
    ck_assert_str_eq(do_(t, "again($a)"), "E222");
    ck_assert_msg(t->ndiags == 1 && t->d[0].line == 15 && t->d[0].col == 3, "%s", t->log);
    ck_ev(t, "marker_count($a, suppressed)", "0");
    tvm_free(t);
}
END_TEST

/* A refusal in plain words (rev20 X5, hon_refusal.plain): the first sentence of the doc of the
 * rule at the bottom of the refusal. `march` requires may_march, whose rule tired forbids when
 * worn(u); worn's rule pinned fires (answers true) for a pinned unit. */
static const char *const PLAIN_RULES =
    "kind infantry; side allies; terrain open;\n"
    "marker pinned; marker held;\n"
    "counter rifle: infantry { side allies }\n"
    "query worn(u: unit) -> bool combine any;\n"
    "rule worn.pinned cite \"P.worn\"\n"
    "  doc \"A pinned unit is worn out. It rests a turn.\"\n"
    "  when has(u, pinned) answer true;\n"
    "query may_march(u: unit) -> verdict combine permission;\n"
    "rule may_march.tired cite \"P.tired\" doc \"A worn unit does not march.\"\n"
    "  when worn(u) answer forbid;\n"
    "rule may_march.held cite \"P.held\" when has(u, held) answer forbid;\n"
    "event march(u: unit);\n"
    "rule march.go cite \"P.go\" do { require may_march(u) \"a march\"; };\n"
    "source \"P.worn\"; source \"P.tired\"; source \"P.held\"; source \"P.go\";\n";

START_TEST(refusal_in_plain_words)
{
    static const char *const board = "scenario \"p\"\nsize 2 x 2\nlegend . = open\nmap\n"
                                     "  1 . .\n  2 . .\n"
                                     "unit a = rifle allies at A1 with pinned\n"
                                     "unit b = rifle allies at B1 with held\n"
                                     "unit c = rifle allies at A2\n";
    tvm *t = tvm_new(PLAIN_RULES);
    ck_assert_int_eq(hon_load_board_source(t->vm, "p.scn", board, strlen(board)), HON_OK);
    hon_refusal r;
    /* $a is pinned: may_march.tired decides, through worn.pinned, which fired toward the
     * refusal with no rule below it: its doc's first sentence (up to ". ") is the plain words,
     * at the end of the E228 message too */
    ck_assert_str_eq(do_(t, "march($a)"), "E228");
    ck_assert(hon_last_refusal(t->vm, &r));
    ck_assert_str_eq(r.rule, "may_march.tired");
    ck_assert_str_eq(r.plain, "A pinned unit is worn out.");
    ck_assert_msg(strstr(t->log, "; in plain words: A pinned unit is worn out. (the procedure"),
                  "%s", t->log);
    /* $b is held: may_march.held decides alone, and it has no doc: no plain words */
    ck_assert_str_eq(do_(t, "march($b)"), "E228");
    ck_assert(hon_last_refusal(t->vm, &r));
    ck_assert_str_eq(r.rule, "may_march.held");
    ck_assert_str_eq(r.plain, "");
    ck_assert_msg(!strstr(t->log, "in plain words"), "%s", t->log);
    /* $c may march: nothing refused, and nothing done */
    ck_assert_str_eq(do_(t, "march($c)"), "no effect\n");
    tvm_free(t);
}
END_TEST

/* The dice a procedure rolls: a line each, in the order rolled, and a JSON `rolls` array with
 * where each roll is (line numbers of ROLL_RULES, t.hon). */
static const char *const ROLL_RULES =
    "kind infantry; side allies; terrain open;\n"                  /* 1 */
    "marker suppressed;\n"                                         /* 2 */
    "counter rifle: infantry { side allies }\n"                    /* 3 */
    "event volley(u: unit);\n"                                     /* 4 */
    "event calm(u: unit);\n"                                       /* 5 */
    "rule volley.r cite \"R.volley\" cite \"R.two\" do {\n"        /* 6 */
    "  let a = roll 3 d6;\n"                                       /* 7: `roll` at column 11 */
    "  if roll d6 >= 1 then { note \"one die\"; }\n"               /* 8: `roll` at column 6 */
    "};\n"                                                         /* 9 */
    "rule calm.r cite \"R.calm\" do { note \"calm\"; };\n"         /* 10 */
    "source \"R.volley\"; source \"R.two\"; source \"R.calm\";\n"; /* 11 */

START_TEST(dice_are_shown)
{
    static const char *const board = "scenario \"r\"\nsize 2 x 2\nlegend . = open\nmap\n"
                                     "  1 . .\n  2 . .\nunit a = rifle allies at A1\n";
    tvm *t = tvm_new(ROLL_RULES);
    ck_assert_int_eq(hon_load_board_source(t->vm, "r.scn", board, strlen(board)), HON_OK);
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_do(t->vm, "volley($a)", "<test>", &a), HON_OK);
    /* the text: the three dice of the first roll ascending, then the lone die (which is
     * always >= 1, so the note follows), each with the rule's citations */
    int f[4];
    char tail[2][64];
    ck_assert_msg(sscanf(hon_answer_text(a), "roll 3 d6: [%d, %d, %d]%63[^\n]\nroll d6: %d%63[^\n]",
                         &f[0], &f[1], &f[2], tail[0], &f[3], tail[1]) == 6,
                  "%s", hon_answer_text(a));
    ck_assert_str_eq(tail[0], "   (R.volley, R.two)");
    ck_assert_str_eq(tail[1], "   (R.volley, R.two)");
    ck_assert(f[0] >= 1 && f[0] <= f[1] && f[1] <= f[2] && f[2] <= 6 && f[3] >= 1 && f[3] <= 6);
    ck_assert_msg(strstr(hon_answer_text(a), "\nnote: one die   (R.volley, R.two)\n"), "%s",
                  hon_answer_text(a));
    /* the JSON: the same faces, in the same order, with the rule and where each roll is */
    char want[1024];
    snprintf(want, sizeof want,
             "\"rolls\": [{\"dice\": 3, \"faces\": [%d, %d, %d], "
             "\"in\": \"rule volley.r\", \"file\": \"t.hon\", \"line\": 7, \"col\": 11, "
             "\"cites\": [\"R.volley\", \"R.two\"]}, {\"dice\": 1, \"faces\": [%d], "
             "\"in\": \"rule volley.r\", \"file\": \"t.hon\", \"line\": 8, \"col\": 6, "
             "\"cites\": [\"R.volley\", \"R.two\"]}], ",
             f[0], f[1], f[2], f[3]);
    ck_assert_msg(strstr(hon_answer_json(a), want), "%s\nwant %s", hon_answer_json(a), want);
    hon_answer_free(a);
    /* a procedure with no dice has none: the last one's are not kept */
    ck_assert_int_eq(hon_do(t->vm, "calm($a)", "<test>", &a), HON_OK);
    ck_assert_msg(strstr(hon_answer_json(a), "\"rolls\": [], "), "%s", hon_answer_json(a));
    hon_answer_free(a);
    /* odds do not show their dice: an outcome is what changed */
    ck_assert_int_eq(hon_odds_do(t->vm, "volley($a)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "no change: 1/1 (100.00%)");
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

START_TEST(order_of_events)
{
    tvm *t = play_vm();
    /* st_order.a writes a1, raises hit 1 and hit 2, writes a2; its raises run after its block:
     * hit(1) (which raises suppress, run after hit's block), then hit(2); then rule st_order.b */
    ck_assert_str_eq(do_(t, "st_order($r1)"),
                     "note: a1   (T.order)\nnote: a2   (T.order)\nnote: hit   (T.hit)\n"
                     "note: suppress   (T.suppress)\nnote: hit   (T.hit)\nnote: b   (T.order)\n");
    tvm_free(t);
}
END_TEST

/* A chooser for the tests: answers from a script of indexes, counting the questions. */
typedef struct script {
    int answers[8];
    int n, next, asked;
    char side[32], q[128];
} script;
static script the_script;

static int scripted(void *ud, const char *question, const char *side, const char *const *opts,
                    size_t n)
{
    (void)ud;
    (void)opts;
    (void)n;
    snprintf(the_script.side, sizeof the_script.side, "%s", side);
    snprintf(the_script.q, sizeof the_script.q, "%s", question);
    the_script.asked++;
    return the_script.next < the_script.n ? the_script.answers[the_script.next++] : 0;
}

static tvm *chooser_vm(void)
{
    tvm *t = calloc(1, sizeof *t);
    ck_assert_ptr_nonnull(t);
    hon_config cfg = { .on_diag = tvm_on_diag, .userdata = t, .seed = 42, .chooser = scripted };
    t->vm = hon_vm_new(&cfg);
    ck_assert_int_eq(hon_load_source(t->vm, "t.hon", RULES, strlen(RULES)), HON_OK);
    ck_assert_int_eq(hon_load_board_source(t->vm, "events.scn", BOARD, strlen(BOARD)), HON_OK);
    return t;
}

START_TEST(choices)
{
    /* no chooser: the first legal option (B1) */
    tvm *t = play_vm();
    ck_assert_str_eq(do_(t, "st_choose($r1)"), "move $r1 to B1   (T.choose)\n");
    /* an empty list: E220 */
    ck_assert_str_eq(do_(t, "st_choose_empty($r1)"), "E220");
    tvm_free(t);
    /* the chooser answers 2 (D1): asked once, side allies, the rule's question */
    t = chooser_vm();
    the_script = (script){ .answers = { 2 }, .n = 1 };
    ck_assert_str_eq(do_(t, "st_choose($r1)"), "move $r1 to D1   (T.choose)\n");
    ck_assert_int_eq(the_script.asked, 1);
    ck_assert_str_eq(the_script.side, "allies");
    ck_assert_str_eq(the_script.q, "Where does it go?");
    /* an illegal answer (7 of 3) is refused with the reason, and asked again: then 1 (C1, in
     * the woods: a marker) */
    undo_ok(t);
    the_script = (script){ .answers = { 7, 1 }, .n = 2 };
    ck_assert_str_eq(do_(t, "st_choose($r1)"), "move $r1 to C1   (T.choose)\n"
                                               "give $r1 suppressed   (T.woods)\n");
    ck_assert_int_eq(the_script.asked, 2);
    ck_assert_msg(strstr(the_script.q, "illegal choice 8"), "%s", the_script.q);
    /* three illegal answers: E221; -1: abandoned, E225; both undone */
    undo_ok(t);
    const char *before = snap(t, 0);
    the_script = (script){ .answers = { 9, 9, 9 }, .n = 3 };
    ck_assert_str_eq(do_(t, "st_choose($r1)"), "E221");
    the_script = (script){ .answers = { -1 }, .n = 1 };
    ck_assert_str_eq(do_(t, "st_choose($r1)"), "E225");
    ck_assert_str_eq(snap(t, 1), before);
    tvm_free(t);
}
END_TEST

/* A procedure that rolls and then asks (st_roll_choose: roll 3 d6, then where to go), abandoned
 * at its question (the chooser answers -1: E225) or refused there (three illegal answers: E221),
 * changes nothing: not the board, and not the dice either. So, run again and answered, it rolls
 * what the same procedure rolls on a fresh session with the same seed, where nothing was
 * abandoned before it (a player cannot abandon the landing-craft recovery at its placement
 * question to roll again: BRO.2.landing-craft.recover). */
START_TEST(abandoned_procedure_rewinds_the_dice)
{
    char fresh[512], again[512];
    tvm *t = chooser_vm();
    the_script = (script){ .answers = { 0 }, .n = 1 };
    snprintf(fresh, sizeof fresh, "%s", do_(t, "st_roll_choose($r1)"));
    ck_assert_msg(strncmp(fresh, "roll 3 d6: [", 12) == 0 && strstr(fresh, "move $r1 to B1"), "%s",
                  fresh);
    tvm_free(t);

    t = chooser_vm();
    const char *before = snap(t, 0);
    the_script = (script){ .answers = { -1 }, .n = 1 };
    ck_assert_str_eq(do_(t, "st_roll_choose($r1)"), "E225");
    ck_assert_int_eq(the_script.asked, 1); /* the die was rolled: the question came after it */
    the_script = (script){ .answers = { 9, 9, 9 }, .n = 3 };
    ck_assert_str_eq(do_(t, "st_roll_choose($r1)"), "E221");
    ck_assert_str_eq(snap(t, 1), before);
    the_script = (script){ .answers = { 0 }, .n = 1 };
    snprintf(again, sizeof again, "%s", do_(t, "st_roll_choose($r1)"));
    ck_assert_str_eq(again, fresh);
    tvm_free(t);
}
END_TEST

/* The note of a walk under rules that declare no Movement Action (no event `on walk`). */
#define NO_WALK                                                                            \
    "note: the rules declare no event `on walk` (a Movement Action): the unit walked the " \
    "path with no rule checking its steps\n"

START_TEST(walks)
{
    tvm *t = play_vm();
    hon_answer *a = NULL;
    /* r1 walks A1 B1 C1 D2: entering the woods at C1 gives a marker (enters.woods); three
     * squares or more: walked.tired gives Routed at the end */
    const char *path[] = { "B1", "@C1", "D2" };
    ck_assert_int_eq(hon_move(t->vm, "$r1", path, 3, &a), HON_OK);
    /* the fixture declares no Movement Action (`on walk`): the bare walk, which says so */
    ck_assert_str_eq(hon_answer_text(a), "move $r1 to B1\nmove $r1 to C1\n"
                                         "give $r1 suppressed   (T.woods)\nmove $r1 to D2\n"
                                         "give $r1 routed   (T.walked)\n" NO_WALK);
    hon_answer_free(a);
    ck_ev(t, "units_at(@A1)", "[$r2]");
    /* undone as one procedure */
    undo_ok(t);
    ck_ev(t, "units_at(@A1)", "[$r1, $r2]");
    ck_ev(t, "marker_count($r1, suppressed) + marker_count($r1, routed)", "0");
    /* a rule takes the unit off its path: r2 falls in the pit on D3; the walk stops there and
     * raises no walk_end (it is off the board) */
    const char *pit[] = { "D3", "D2", "C2" };
    ck_assert_int_eq(hon_move(t->vm, "$r2", pit, 3, &a), HON_OK);
    ck_assert_str_eq(
        hon_answer_text(a),
        "move $r2 to D3\ndestroy $r2   (T.pit)\nnote: destroyed   (T.destroyed)\n"
        "note: the move stopped after 1 of 3 squares: a rule took $r2 off its path\n" NO_WALK);
    hon_answer_free(a);
    undo_ok(t);
    ck_ev(t, "units_at(@A1)", "[$r1, $r2]");
    /* errors: an unknown unit, a square off the board */
    ck_assert_int_eq(hon_move(t->vm, "$nobody", path, 3, NULL), HON_ERR_NOT_FOUND);
    const char *off[] = { "Z9" };
    ck_assert_int_eq(hon_move(t->vm, "r1", off, 1, NULL), HON_ERR_NOT_FOUND);
    tvm_free(t);
    /* rules without moment events: the walk still moves, and the answer says so */
    static const char *const bare = "kind infantry; side allies; terrain open;\n"
                                    "counter rifle: infantry { side allies }\n";
    t = tvm_new(bare);
    static const char *const b2 = "scenario \"b\"\nsize 2 x 1\nlegend . = open\nmap\n"
                                  "  1 . .\nunit r = rifle allies at A1\n";
    ck_assert_int_eq(hon_load_board_source(t->vm, "b.scn", b2, strlen(b2)), HON_OK);
    const char *p2[] = { "B1" };
    ck_assert_int_eq(hon_move(t->vm, "r", p2, 1, &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a),
                     "move $r to B1\n" NO_WALK
                     "note: the rules declare no event `on enter`: nothing was raised for it\n"
                     "note: the rules declare no event `on walk_end`: nothing was raised for it\n");
    hon_answer_free(a);
    /* and with no phase, `next` is E226 */
    tvm_clear(t);
    ck_assert_int_eq(hon_next(t->vm, NULL), HON_ERR_RUNTIME);
    ck_assert_int_eq(t->d[0].code, 226);
    tvm_free(t);
}
END_TEST

START_TEST(clock)
{
    tvm *t = play_vm();
    hon_answer *a = NULL;
    int64_t turn;
    const char *phase;
    hon_clock(t->vm, &turn, &phase);
    ck_assert_int_eq(turn, 1);
    ck_assert_str_eq(phase, "order");
    ck_assert_str_eq(do_(t, "st_give($r1, 1)"), "give $r1 suppressed   (T.give)\n");
    /* order -> activation: phase_starts(activation) writes its note */
    ck_assert_int_eq(hon_next(t->vm, &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "clock: turn 1, activation phase\n"
                                         "note: activation starts   (T.phase)\n");
    hon_answer_free(a);
    ck_assert_int_eq(hon_next(t->vm, NULL), HON_OK);
    ck_ev(t, "phase()", "supply");
    /* supply -> order of turn 2: phase_ends(supply) takes the Suppressed markers, then the
     * clock moves, then turn_starts(2) */
    ck_assert_int_eq(hon_next(t->vm, &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a),
                     "take $r1 suppressed   (T.supply)\n"
                     "clock: turn 2, order phase\nnote: turn starts   (T.turn)\n");
    hon_answer_free(a);
    ck_ev(t, "[turn(), marker_count($r1, suppressed)]", "[2, 0]");
    undo_ok(t);
    ck_ev(t, "[turn(), marker_count($r1, suppressed)]", "[1, 1]");
    ck_ev(t, "phase()", "supply");
    /* reloading the board restarts the game */
    ck_assert_int_eq(hon_load_board_source(t->vm, "events.scn", BOARD, strlen(BOARD)), HON_OK);
    ck_ev(t, "[turn(), marker_count($r1, suppressed)]", "[1, 0]");
    ck_ev(t, "phase()", "order");
    ck_assert_int_eq(hon_undo(t->vm, NULL), HON_ERR_NOT_FOUND);
    tvm_free(t);
}
END_TEST

START_TEST(procedure_odds)
{
    tvm *t = play_vm();
    hon_answer *a = NULL;
    const char *before = snap(t, 0);
    /* a marker on a 4+: faces 4, 5, 6 of 6 give it */
    ck_assert_int_eq(hon_odds_do(t->vm, "st_roll($r1)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "give $r1 suppressed: 1/2 (50.00%)\n"
                                         "no change: 1/2 (50.00%)");
    hon_answer_free(a);
    /* two dice, a marker per 5+ (p = 1/3): none 4/9, one 2 x 1/3 x 2/3 = 4/9, two 1/9; two
     * markers set off the cascade (Shaken). Outcomes are sorted by their text. */
    ck_assert_int_eq(hon_odds_do(t->vm, "st_roll2($r1)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "give $r1 suppressed: 4/9 (44.44%)\n"
                                         "give $r1 suppressed 2; give $r1 shaken: 1/9 (11.11%)\n"
                                         "no change: 4/9 (44.44%)");
    hon_answer_free(a);
    /* an outcome is the net change: st_roll_many moves $r2 away and back (no change left),
     * flips it (in every outcome: said once, first), and on a 4+ gives a marker. Outcomes are
     * sorted by their whole text: "flip ..." before "flip ...; give ..." */
    ck_assert_int_eq(hon_odds_do(t->vm, "st_roll_many($r2)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a),
                     "in every outcome: flip $r2 to wreck\n"
                     "nothing more: 1/2 (50.00%)\ngive $r2 suppressed: 1/2 (50.00%)");
    hon_answer_free(a);
    /* a list of units kept in a local across the roll: C2 holds no unit (the list is empty,
     * one all empty lists of units share, builtin.h: forking at the roll and resuming leave it
     * as it is), so a 4+ gives the marker; A1 holds r1 and r2, so no face does */
    ck_assert_int_eq(hon_odds_do(t->vm, "st_roll_here($r1, @C2)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "give $r1 suppressed: 1/2 (50.00%)\n"
                                         "no change: 1/2 (50.00%)");
    hon_answer_free(a);
    ck_assert_int_eq(hon_odds_do(t->vm, "st_roll_here($r1, @A1)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "no change: 1/1 (100.00%)");
    hon_answer_free(a);
    /* a choice: the first option, said at the end */
    ck_assert_int_eq(hon_odds_do(t->vm, "st_choose($r1)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "move $r1 to B1: 1/1 (100.00%)\n"
                                         "note: every choice took the first legal option");
    hon_answer_free(a);
    /* nothing changed, nothing in the history */
    ck_assert_str_eq(snap(t, 1), before);
    ck_assert_int_eq(hon_undo(t->vm, NULL), HON_ERR_NOT_FOUND);
    tvm_free(t);
}
END_TEST

START_TEST(tests_that_play)
{
    /* .hon tests with do, dice, choices, move and advance; each runs on its own game and
     * leaves the session's board as it was */
    static const char *const tests =
        "test \"dice\" dice [4, 3, 6, 5] {\n  do st_roll($r1);\n" /* 4: a marker */
        "  do st_roll($r1);\n"                                    /* 3: none */
        "  do st_roll2($r1);\n"                                   /* 6, 5: two, and the cascade */
        "  expect [marker_count($r1, suppressed), marker_count($r1, shaken)] == [3, 1];\n"
        "  do st_roll($r1) fails E223;\n" /* the dice ran out */
        "}\ntest \"choices\" choices [@C1] {\n"
        "  do st_choose($r1);\n  expect square_of($r1) == @C1;\n"
        "}\ntest \"illegal choice\" choices [@A3] {\n"
        "  do st_choose($r1) fails E221;\n  expect square_of($r1) == @A1;\n}\ntest \"rollback\" {\n"
        "  do st_fail($r1) fails E219;\n"
        "  expect marker_count($r1, suppressed) == 0 and square_of($r1) == @A1;\n}\n"
        "test \"walk and clock\" {\n  move $r2 along [@B1, @C1];\n"
        "  expect marker_count($r2, suppressed) == 1;\n  advance to supply;\n"
        "  expect turn() == 1 and phase() == supply;\n  advance to order;\n"
        "  expect [turn(), marker_count($r2, suppressed)] == [2, 0];\n}\n"
        "test \"a failing one\" { do st_give($r1, 1); expect marker_count($r1, suppressed) == 2; "
        "}\n";
    tvm *t = play_vm();
    ck_assert_int_eq(hon_load_source(t->vm, "plays.hon", tests, strlen(tests)), HON_OK);
    const char *before = snap(t, 0);
    char *buf = NULL;
    size_t len = 0, passed = 0, failed = 0;
    FILE *out = open_memstream(&buf, &len);
    hon_run_tests(t->vm, "plays.hon", out, &passed, &failed);
    fclose(out);
    ck_assert_msg(passed == 5 && failed == 1, "%zu passed, %zu failed:\n%s", passed, failed, buf);
    ck_assert_msg(strstr(buf, "plays.hon:28:") && strstr(buf, "is 1, expected 2"), "%s", buf);
    free(buf);
    ck_assert_str_eq(snap(t, 1), before);
    tvm_free(t);
}
END_TEST

/* A test's scripted dice behave as the session's seeded ones (language.md §6.7): a `do` that
 * fails gives back the faces it rolled. st_roll_choose rolls 3 dice, then asks where to go; the
 * script's first answer, A3, is no option (E221), so the first `do` rolls 1, 1, 1 and fails.
 * Given back, the second `do` rolls the same 1, 1, 1 (and goes to B1, open ground, the next answer:
 * a choice stays spent, as a player's answer), which leaves the 6 for st_roll: a Suppressed
 * marker (4 or more). Kept by the failed `do`, the second would roll 6 and run out (E223). */
START_TEST(failed_do_gives_the_scripted_dice_back)
{
    static const char *const tests = "test \"given back\" dice [1, 1, 1, 6] choices [@A3, @B1] {\n"
                                     "  do st_roll_choose($r1) fails E221;\n"
                                     "  do st_roll_choose($r1);\n"
                                     "  do st_roll($r1);\n"
                                     "  expect square_of($r1) == @B1;\n"
                                     "  expect marker_count($r1, suppressed) == 1;\n}\n";
    tvm *t = play_vm();
    ck_assert_int_eq(hon_load_source(t->vm, "given.hon", tests, strlen(tests)), HON_OK);
    char *buf = NULL;
    size_t len = 0, passed = 0, failed = 0;
    FILE *out = open_memstream(&buf, &len);
    hon_run_tests(t->vm, "given.hon", out, &passed, &failed);
    fclose(out);
    ck_assert_msg(passed == 1 && failed == 0, "%zu passed, %zu failed:\n%s", passed, failed, buf);
    free(buf);
    tvm_free(t);
}
END_TEST

START_TEST(editions_and_event_rules)
{
    /* an edition replaces an event's rule like a query's: under `double`, st_give gives twice
     * the count; `remove` takes the Shaken cascade away */
    static const char *const ed =
        "edition double {\n"
        "  replace rule st_give.r cite \"T.give2\" do { let k = n * 2; give u suppressed k; };\n"
        "  remove rule marker_received.shaken;\n}\nsource \"T.give2\";\n";
    tvm *t = play_vm();
    ck_assert_int_eq(hon_load_source(t->vm, "ed.hon", ed, strlen(ed)), HON_OK);
    ck_assert_str_eq(do_(t, "st_give($r1, 1)"), "give $r1 suppressed   (T.give)\n");
    undo_ok(t);
    ck_assert_int_eq(hon_set_edition(t->vm, "double"), HON_OK);
    ck_assert_str_eq(do_(t, "st_give($r1, 1)"), "give $r1 suppressed 2   (T.give2)\n");
    tvm_free(t);
}
END_TEST

/* `face ruined "..." shows open` (language.md §6.1): once the bridge element (B3, C3) is
 * turned to ruined, terrain(sq) answers open on its squares, and bridge again when undone; the
 * element keeps its own terrain (element_terrain), the other squares theirs; a unit's face
 * shows no terrain. Read of a loop's variable too, an instruction pair (vm_ops_pairs.h). */
START_TEST(a_face_shows_a_terrain)
{
    tvm *t = play_vm();
    ck_assert_str_eq(ev(t, "[terrain(@B3), terrain(@C3), terrain(@C1), terrain(@A3)]"),
                     "[bridge, bridge, woods, open]");
    ck_assert_str_eq(do_(t, "st_flip($tank)"), "flip $tank to wreck   (T.flip)\n");
    ck_assert_str_eq(ev(t, "[terrain(@A3), terrain(@B3)]"), "[open, bridge]");
    ck_assert_str_eq(do_(t, "st_flip_element(@C3)"), "flip bridge1 to ruined   (T.flip)\n");
    ck_assert_str_eq(ev(t, "[terrain(@B3), terrain(@C3), terrain(@C1), terrain(@A3)]"),
                     "[open, open, woods, open]");
    ck_assert_str_eq(ev(t, "[terrain(sq) for sq in [@B3, @C3, @C1]]"), "[open, open, woods]");
    ck_assert_str_eq(ev(t, "element_terrain(element_at(@B3))"), "bridge");
    undo_ok(t);
    ck_assert_str_eq(ev(t, "[terrain(@B3), terrain(@C3)]"), "[bridge, bridge]");
    tvm_free(t);
    /* what a face shows must be a terrain; `shows` only after a face's text */
    ck_load_fails("terrain open;\nface ruined \"r\" shows opne;\n", 100, 2, 23);
    ck_load_fails("terrain open;\nmarker m \"m\" shows open;\n", 17, 2, 14);
    ck_load_fails("terrain open;\nface ruined \"r\" becomes open;\n", 10, 2, 17);
}
END_TEST

START_TEST(resolver_errors)
{
    /* a rule of an event must have effects, a rule of a query an answer: E160 */
    ck_load_fails("event e(n: int);\nrule e.r cite \"X\" answer 1;\nsource \"X\";\n", 160, 2, 6);
    ck_load_fails("query q() -> int combine first;\nrule q.r cite \"X\" do { };\nsource \"X\";\n",
                  160, 2, 6);
    /* raising what is not an event, with the wrong arguments */
    ck_load_fails("event e(n: int);\nevent f(n: int);\nrule e.r cite \"X\" do { raise g(1); };\n"
                  "source \"X\";\n",
                  162, 3, 24);
    ck_load_fails("event e(n: int);\nrule e.r cite \"X\" do { raise e(true); };\nsource \"X\";\n",
                  104, 2, 32);
    ck_load_fails("event e(n: int);\nrule e.r cite \"X\" do { raise e(); };\nsource \"X\";\n", 103,
                  2, 24);
    /* moments: unknown, arguments that do not fit, two events on one */
    ck_load_fails("event e(n: int) on blink;\n", 163, 1, 7);
    ck_load_fails("event e(n: int) on give;\n", 163, 1, 7);
    ck_load_fails("event e(u: unit) on destroy;\nevent f(u: unit) on destroy;\n", 164, 2, 7);
    /* statements: flip a number, set what is not a value, a die face 7 */
    ck_load_fails("face up;\nevent e(n: int);\nrule e.r cite \"X\" do { flip n to up; };\n"
                  "source \"X\";\n",
                  104, 3, 29);
    ck_load_fails("event e(u: unit);\nrule e.r cite \"X\" do { set u.kind = 1; };\nsource \"X\";\n",
                  104, 2, 28);
    ck_load_fails("test \"t\" dice [7] { }\n", 165, 1, 16);
    /* an event is not a value */
    ck_load_fails("event e(n: int);\nfn f() -> int = e(1);\n", 106, 2, 17);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("events");
    TCase *tc = tcase_create("events");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, each_statement_and_its_undo);
    tcase_add_test(tc, undo_after_a_carrier_is_destroyed);
    tcase_add_test(tc, no_change_is_no_effect);
    tcase_add_test(tc, rollback_on_failure);
    tcase_add_test(tc, cascade_limits);
    tcase_add_test(tc, cascade_positions);
    tcase_add_test(tc, refusal_in_plain_words);
    tcase_add_test(tc, dice_are_shown);
    tcase_add_test(tc, order_of_events);
    tcase_add_test(tc, choices);
    tcase_add_test(tc, abandoned_procedure_rewinds_the_dice);
    tcase_add_test(tc, failed_do_gives_the_scripted_dice_back);
    tcase_add_test(tc, walks);
    tcase_add_test(tc, clock);
    tcase_add_test(tc, procedure_odds);
    tcase_add_test(tc, tests_that_play);
    tcase_add_test(tc, editions_and_event_rules);
    tcase_add_test(tc, resolver_errors);
    tcase_add_test(tc, a_face_shows_a_terrain);
    suite_add_tcase(s, tc);
    return check_run(s);
}
