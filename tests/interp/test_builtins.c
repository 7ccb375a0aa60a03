/* test_builtins.c — Check tests of the ordered combinations over enums (language.md §3.5, §4:
 * `combine min` / `combine max`, the aggregates min(x in L: e) / max(…) and min(a, b) / max(a, b)
 * over enum members, in declaration order) and of the board built-ins direction(a, b),
 * squares_within(sq, n), joined_sides(ss, f), sides_with(sq, f) and sides_joined(a, b, f) (§5.3)
 * on tiny boards written below, and of
 * line(a, b) against the runtime's walk.
 *
 * Every expected value is worked out in a comment, from the declarations and the board's
 * picture, not pasted from a run; line's are the runtime's walk (geo_trace_line), built here.
 */
#include "geo.h"
#include "interp_test.h"
#include "scene.h"
#include "session.h"

/* `sight` in declaration order: blocked < obscured < clear. */
static const char *const SIGHT =
    "enum sight { blocked, obscured, clear }\n"
    "query worst(n: int) -> sight combine min default clear;\n"
    "rule worst.haze cite \"W.1\" when n >= 1 answer obscured;\n"
    "rule worst.wall cite \"W.2\" when n >= 2 answer blocked;\n"
    "rule worst.late cite \"W.3\" when n >= 3 answer clear;\n"
    "query best(n: int) -> sight combine max;\nrule best.wall cite \"B.1\" answer blocked;\n"
    "rule best.haze cite \"B.2\" when n >= 1 answer obscured;\n"
    "fn worst_of(l: list<int>) -> sight = min(k in l: worst(k));\n"
    "fn best_of(l: list<int>) -> sight = max(k in l: worst(k));\n"
    "source \"W.1\"; source \"W.2\"; source \"W.3\"; source \"B.1\"; source \"B.2\";\n";

START_TEST(combine_min_max_over_enums)
{
    tvm *t = tvm_new(SIGHT);
    /* worst: no rule fires for 0 -> the default, clear; 1: only haze -> obscured; 2: haze
     * and wall -> the least, blocked; 3: clear joins, the least is still blocked */
    ck_ev(t, "worst(0)", "clear");
    ck_ev(t, "worst(1)", "obscured");
    ck_ev(t, "worst(2)", "blocked");
    ck_ev(t, "worst(3)", "blocked");
    /* best: wall always fires (blocked); with haze the greatest is obscured */
    ck_ev(t, "best(0)", "blocked");
    ck_ev(t, "best(5)", "obscured");
    /* the answer is a member of sight: it compares with members, in declaration order */
    ck_ev(t, "worst(1) == obscured", "true");
    ck_ev(t, "worst(2) < worst(1)", "true");
    /* aggregates: worst over [0, 1] is min(clear, obscured) = obscured; best_of takes the
     * greatest of worst(k): worst(0) = clear */
    ck_ev(t, "worst_of([0, 1])", "obscured");
    ck_ev(t, "worst_of([0, 3])", "blocked");
    ck_ev(t, "best_of([1, 2, 0])", "clear");
    ck_ev(t, "worst_of([])", "E208");
    /* two arguments */
    ck_ev(t, "min(clear, obscured)", "obscured");
    ck_ev(t, "max(blocked, obscured)", "obscured");
    ck_ev(t, "max(sight.clear, blocked)", "clear");
    ck_ev(t, "min(3, 4)", "3");
    tvm_free(t);
}
END_TEST

START_TEST(combine_min_max_types)
{
    /* E113: min and max order ints and enum members, not bools (line 1, the query) */
    ck_load_fails("query q() -> bool combine min;\n", 113, 1, 0);
    ck_load_fails("query q() -> verdict combine max;\n", 113, 1, 0);
    /* two members of different enums, or an int and a member, do not compare (E104) */
    ck_load_fails("enum a { x, y } enum b { z }\nfn f() -> a = min(a.x, b.z);\n", 104, 2, 0);
    ck_load_fails("enum a { x, y }\nfn f() -> int = max(1, a.x);\n", 104, 2, 0);
    /* bools have no order (E104 on the aggregate's body) */
    ck_load_fails("fn f(l: list<int>) -> bool = min(k in l: k > 1);\n", 104, 1, 0);
    /* the default must be a member of the result type (E104) */
    ck_load_fails("enum s { lo, hi }\nquery q() -> s combine min default 3;\n", 104, 2, 0);
    tvm_free(tvm_new("enum s { lo, hi }\nquery q() -> s combine max default lo;\n"));
}
END_TEST

START_TEST(combine_enum_trace)
{
    tvm *t = tvm_new(SIGHT);
    /* the trace shows members: worst(2) fires haze (obscured) and wall (blocked); blocked,
     * the enum's first member, decides a min (language.md §3.5), so late is not checked */
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_eval(t->vm, "worst(2)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_why(a), "worst(2) = blocked   [min]\n"
                                        "  rule worst.haze: obscured   (W.1)\n"
                                        "  rule worst.wall: blocked   (W.2)\n");
    hon_answer_free(a);
    /* worst(1): haze fires (obscured), which decides nothing; wall and late are checked */
    ck_assert_int_eq(hon_eval(t->vm, "worst(1)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_why(a), "worst(1) = obscured   [min]\n"
                                        "  rule worst.haze: obscured   (W.1)\n"
                                        "  rule worst.wall: did not fire   (W.2)\n"
                                        "  rule worst.late: did not fire   (W.3)\n");
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

/* A 5 x 4 board, all open (A1 top-left; row 1 is north):
 *        A  B  C  D  E
 *   1    .  .  .  .  .
 *   2    .  .  .  .  .
 *   3    .  .  .  .  .
 *   4    .  .  .  .  .          */
static const char *const RULES = "terrain open;\n";
static const char *const BOARD = "scenario \"tiny\"\nsize 5 x 4\nlegend . = open\nmap\n"
                                 "  1 . . . . .\n  2 . . . . .\n  3 . . . . .\n  4 . . . . .\n";

static tvm *board_vm(const char *scn)
{
    tvm *t = tvm_new(RULES);
    hon_status st = hon_load_board_source(t->vm, "tiny.scn", scn, strlen(scn));
    ck_assert_msg(st == HON_OK, "board failed: %s", t->log);
    return t;
}

START_TEST(direction_between_squares)
{
    tvm *t = board_vm(BOARD);
    /* the eight neighbours of C2 */
    ck_ev(t, "direction(@C2, @C1)", "north");
    ck_ev(t, "direction(@C2, @D1)", "northeast");
    ck_ev(t, "direction(@C2, @D2)", "east");
    ck_ev(t, "direction(@C2, @D3)", "southeast");
    ck_ev(t, "direction(@C2, @C3)", "south");
    ck_ev(t, "direction(@C2, @B3)", "southwest");
    ck_ev(t, "direction(@C2, @B2)", "west");
    ck_ev(t, "direction(@C2, @B1)", "northwest");
    /* far squares: the compass direction nearest to the line between the centres.
     * A4 -> E1: 4 east, 3 north, 36.9 degrees above east: nearer 45 (8.1) than 0 (36.9)
     * A4 -> E3: 4 east, 1 north, 14.0 degrees: east
     * A1 -> C2: 2 east, 1 south, 26.6 degrees below east: nearer 45 (18.4) than 0: southeast
     * A1 -> D2: 3 east, 1 south, 18.4 degrees: east
     * C4 -> C1: straight north; E4 -> A4: straight west; E1 -> A4: 4 west, 3 south */
    ck_ev(t, "direction(@A4, @E1)", "northeast");
    ck_ev(t, "direction(@A4, @E3)", "east");
    ck_ev(t, "direction(@A1, @C2)", "southeast");
    ck_ev(t, "direction(@A1, @D2)", "east");
    ck_ev(t, "direction(@C4, @C1)", "north");
    ck_ev(t, "direction(@E4, @A4)", "west");
    ck_ev(t, "direction(@E1, @A4)", "southwest");
    /* the result is a `direction`: it compares with the members */
    ck_ev(t, "direction(@A1, @A2) == south", "true");
    /* no direction from a square to itself (E215); a square off the board (E217) */
    ck_ev(t, "direction(@C2, @C2)", "E215");
    ck_ev(t, "direction(@A1, @F1)", "E217");
    tvm_free(t);
    /* no board: E212 */
    t = tvm_new(RULES);
    ck_ev(t, "direction(@A1, @A2)", "E212");
    tvm_free(t);
}
END_TEST

START_TEST(direction_on_hexes)
{
    /* odd-q hexes (board.md §1): B is an odd column, half a hex lower, so B1 is to the
     * south-east of A1 and A2 is south of A1; C1 is two columns away: not a neighbour, and
     * far directions are defined on squares only (E218) */
    static const char *const HEX = "scenario \"hex\"\ntopology hex\nsize 3 x 2\nlegend . = open\n"
                                   "map\n  1 . . .\n  2 . . .\n";
    tvm *t = board_vm(HEX);
    ck_ev(t, "direction(@A1, @B1)", "southeast");
    ck_ev(t, "direction(@A1, @A2)", "south");
    ck_ev(t, "direction(@B1, @A1)", "northwest");
    ck_ev(t, "direction(@A1, @C1)", "E218");
    /* distance counts hexes, not the larger offset as on squares: B2 is south of B1, itself
     * south-east of A1, and not a neighbour of A1 (two steps, where squares would say one);
     * the DISTANCE instruction asks geo_distance here (vm.md §4a) */
    ck_ev(t, "distance(@A1, @B2)", "2");
    ck_ev(t, "distance(@A1, @B1)", "1");
    tvm_free(t);
}
END_TEST

START_TEST(squares_within_a_distance)
{
    tvm *t = board_vm(BOARD);
    /* distance is Chebyshev: the 3 x 3 block around a square, cut by the board's edges, row
     * by row */
    ck_ev(t, "squares_within(@C2, 1)", "[B1, C1, D1, B2, C2, D2, B3, C3, D3]");
    ck_ev(t, "squares_within(@A1, 1)", "[A1, B1, A2, B2]");
    ck_ev(t, "squares_within(@E4, 2)", "[C2, D2, E2, C3, D3, E3, C4, D4, E4]");
    ck_ev(t, "squares_within(@C2, 0)", "[C2]");
    ck_ev(t, "squares_within(@C2, -1)", "[]");
    /* every square is within 4 of C2 (the farthest, A4 and E4, are 2 away); a huge n too */
    ck_ev(t, "len(squares_within(@C2, 4))", "20");
    ck_ev(t, "len(squares_within(@C2, 9223372036854775807))", "20");
    /* the same squares as filtering the board by distance */
    ck_ev(t, "squares_within(@B3, 1) == [q in squares_within(@B3, 9): distance(@B3, q) <= 1]",
          "true");
    ck_ev(t, "squares_within(@F1, 1)", "E217");
    tvm_free(t);
    t = tvm_new(RULES);
    ck_ev(t, "squares_within(@A1, 1)", "E212");
    tvm_free(t);
}
END_TEST

/* The tiny board with a ridge (a side feature) along B1/B2, C1/C2 and C2/D2, another on A3/A4
 * and on E3's east edge, and a wall on D4/E4:
 *        A  B  C  D  E
 *   1    .  .  .  .  .
 *          --- ---
 *   2    .  .  . |.  .
 *   3    .  .  .  .  . |
 *       ---
 *   4    .  .  .  . |.          */
static const char *const RIDGES = "terrain open;\nside_feature ridge;\nside_feature wall;\n";

START_TEST(joined_sides_runs)
{
    tvm *t = tvm_new(RIDGES);
    char scn[512];
    snprintf(scn, sizeof scn, "%sside B1/B2 C1/C2 C2/D2 A3/A4 E3:E ridge\nside D4/E4 wall\n",
             BOARD);
    ck_assert_int_eq(hon_load_board_source(t->vm, "ridges.scn", scn, strlen(scn)), HON_OK);
    /* B1/B2 and C1/C2 meet at the grid point between B1, C1, B2 and C2; C1/C2 and C2/D2 at the
     * one between C1, D1, C2 and D2: one run, listed breadth-first from its lowest side (B1/B2,
     * board.md §2: horizontal sides first), whichever of its sides is given */
    ck_ev(t, "joined_sides([side_between(@C2, @D2)], ridge)", "[B1/B2, C1/C2, C2/D2]");
    ck_ev(t, "joined_sides([side_between(@B2, @B1)], ridge)", "[B1/B2, C1/C2, C2/D2]");
    /* B2's own sides: only its north one carries a ridge */
    ck_ev(t, "joined_sides(sides_of(@B2), ridge)", "[B1/B2, C1/C2, C2/D2]");
    /* A3/A4: its west end is on the board's edge, nothing with a ridge at its east end */
    ck_ev(t, "joined_sides([side_between(@A3, @A4)], ridge)", "[A3/A4]");
    /* a border side joins nothing */
    ck_ev(t, "joined_sides(sides_of(@E3), ridge)", "[E3:E]");
    /* each run once, in the order of the sides given; a side without the feature adds nothing */
    ck_ev(t,
          "joined_sides([side_between(@A3, @A4), side_between(@D4, @E4), side_between(@C1, @C2), "
          "side_between(@B1, @B2)], ridge)",
          "[A3/A4, B1/B2, C1/C2, C2/D2]");
    ck_ev(t, "joined_sides([side_between(@D4, @E4)], ridge)", "[]");
    ck_ev(t, "joined_sides([side_between(@D4, @E4)], wall)", "[D4/E4]");
    ck_ev(t, "joined_sides([], ridge)", "[]");
    tvm_free(t);
    t = tvm_new(RIDGES);
    ck_ev(t, "joined_sides([], ridge)", "E212");
    tvm_free(t);
}
END_TEST

/* sides_with(sq, f) and sides_joined(a, b, f) on the RIDGES board above: a square's own sides
 * carrying f, and whether two sides lie on one run of f, each without listing a whole run. */
START_TEST(sides_with_and_sides_joined)
{
    tvm *t = tvm_new(RIDGES);
    char scn[512];
    snprintf(scn, sizeof scn, "%sside B1/B2 C1/C2 C2/D2 A3/A4 E3:E ridge\nside D4/E4 wall\n",
             BOARD);
    ck_assert_int_eq(hon_load_board_source(t->vm, "ridges.scn", scn, strlen(scn)), HON_OK);
    /* C2's sides N, E, S, W are C1/C2 (ridge), C2/D2 (ridge), C2/C3, B2/C2: the two ridges, in
     * that order; B2 has a ridge on its north only, A3 on its south, E3 on its east (the board's
     * edge); D4 has the wall on its east and no ridge */
    ck_ev(t, "sides_with(@C2, ridge)", "[C1/C2, C2/D2]");
    ck_ev(t, "sides_with(@B2, ridge)", "[B1/B2]");
    ck_ev(t, "sides_with(@A3, ridge)", "[A3/A4]");
    ck_ev(t, "sides_with(@E3, ridge)", "[E3:E]");
    ck_ev(t, "sides_with(@D4, wall)", "[D4/E4]");
    ck_ev(t, "sides_with(@D4, ridge)", "[]");
    /* what filtering sides_of by side_has gives, on every square (20 of them) */
    ck_ev(t,
          "count(q in squares_within(@C2, 9): "
          "sides_with(q, ridge) == [sd in sides_of(q): side_has(sd, ridge)])",
          "20");
    /* B1/B2, C1/C2 and C2/D2 are one run (joined_sides_runs above); A3/A4 another */
    ck_ev(t, "sides_joined(side_between(@B1, @B2), side_between(@C2, @D2), ridge)", "true");
    ck_ev(t, "sides_joined(side_between(@D2, @C2), side_between(@C1, @C2), ridge)", "true");
    ck_ev(t, "sides_joined(side_between(@B1, @B2), side_between(@A3, @A4), ridge)", "false");
    /* a side carrying f is joined to itself; one without f to nothing, itself included */
    ck_ev(t, "sides_joined(side_between(@A3, @A4), side_between(@A4, @A3), ridge)", "true");
    ck_ev(t, "sides_joined(side_between(@D4, @E4), side_between(@D4, @E4), ridge)", "false");
    ck_ev(t, "sides_joined(side_between(@D4, @E4), side_between(@D4, @E4), wall)", "true");
    ck_ev(t, "sides_joined(side_between(@B1, @B2), side_between(@B2, @B3), ridge)", "false");
    ck_ev(t, "sides_joined(side_between(@B2, @B3), side_between(@B1, @B2), ridge)", "false");
    /* the same answer as asking joined_sides' list, for every two sides of the board's squares */
    ck_ev(t,
          "all(p in squares_within(@C2, 9): all(a in sides_of(p): "
          "all(q in squares_within(@C2, 9): all(b in sides_of(q): "
          "sides_joined(a, b, ridge) == (b in joined_sides([a], ridge))))))",
          "true");
    tvm_free(t);
    t = tvm_new(RIDGES);
    ck_ev(t, "sides_with(@A1, ridge)", "E212");
    tvm_free(t);
    /* a hex board has no N, E, S, W sides (E218, as sides_of) */
    static const char *const HEX = "scenario \"hex\"\ntopology hex\nsize 3 x 2\nlegend . = open\n"
                                   "map\n  1 . . .\n  2 . . .\n";
    t = tvm_new(RIDGES);
    ck_assert_int_eq(hon_load_board_source(t->vm, "hex.scn", HEX, strlen(HEX)), HON_OK);
    ck_ev(t, "sides_with(@A1, ridge)", "E218");
    tvm_free(t);
}
END_TEST

/* line_meeting(a, b, f) on the RIDGES board above: the steps of line(a, b) that cross a side
 * carrying f, or touch a corner where one of the four sides meeting carries it. */
START_TEST(line_meeting_steps)
{
    tvm *t = tvm_new(RIDGES);
    char scn[512];
    snprintf(scn, sizeof scn, "%sside B1/B2 C1/C2 C2/D2 A3/A4 E3:E ridge\nside D4/E4 wall\n",
             BOARD);
    ck_assert_int_eq(hon_load_board_source(t->vm, "ridges.scn", scn, strlen(scn)), HON_OK);
    /* B1 -> B3 crosses B1/B2 (a ridge) into B2, then B2/B3 (none) into B3 */
    ck_ev(t, "[st.square for st in line_meeting(@B1, @B3, ridge)]", "[B2]");
    /* A2 -> E2 crosses A2/B2, B2/C2, C2/D2 (the ridge) and D2/E2: only the step into D2; no
     * wall on any of them */
    ck_ev(t, "[st.square for st in line_meeting(@A2, @E2, ridge)]", "[D2]");
    ck_ev(t, "line_meeting(@A2, @E2, wall)", "[]");
    /* B1 -> D2 (2 east, 1 south; doubled coordinates (3,1) to (7,3)) crosses x = 4 into C1
     * (B1/C1), y = 2 into C2 (C1/C2, a ridge), x = 6 into D2 (C2/D2, a ridge): the last two
     * steps, in order, with their own indexes, the very steps line() gives */
    ck_ev(t, "[st.index for st in line_meeting(@B1, @D2, ridge)]", "[2, 3]");
    ck_ev(t, "line_meeting(@B1, @D2, ridge) == [st in line(@B1, @D2): st.index > 1]", "true");
    /* B1 -> C2 goes through the corner of B1, C1, B2 and C2: of the four sides meeting there,
     * B1/B2 and C1/C2 carry a ridge */
    ck_ev(t, "[st.corner for st in line_meeting(@B1, @C2, ridge)]", "[true]");
    /* A2 -> B1 through the corner of A1, B1, A2 and B2: the ridge B1/B2 is a side between the
     * square beside the corner (B2) and the square entered (B1), not one the line is said to
     * cross: it meets it all the same */
    ck_ev(t, "[st.square for st in line_meeting(@A2, @B1, ridge)]", "[B1]");
    /* C3 -> D4 through the corner of C3, D3, C4 and D4: none of its four sides carries either
     * feature (the wall D4/E4 ends at the corner of D3, E3, D4 and E4, not this one) */
    ck_ev(t, "line_meeting(@C3, @D4, ridge)", "[]");
    ck_ev(t, "line_meeting(@C3, @D4, wall)", "[]");
    /* every line of the board, both ways, for both features: the steps line_meeting gives,
     * whether it traces the line itself (the first call for a, b) or reads the line kept
     * (line(b, a) asked first), are those of line() whose side crossed carries the feature or,
     * at a corner touch, one of the four sides meeting there does */
    static const char *const MEETS =
        "(if st.corner then side_has(side_between(st.from, st.left), %s) or "
        "side_has(side_between(st.left, st.square), %s) or "
        "side_has(side_between(st.from, st.right), %s) or "
        "side_has(side_between(st.right, st.square), %s) else side_has(st.side, %s))";
    for (int i = 0; i < 2; i++) {
        const char *f = i ? "wall" : "ridge";
        char meets[512], e[2048];
        snprintf(meets, sizeof meets, MEETS, f, f, f, f, f);
        snprintf(e, sizeof e,
                 "all(a in squares_within(@C2, 9): all(b in squares_within(@C2, 9): "
                 "line_meeting(a, b, %s) == [st in line(a, b): %s] and "
                 "(let l = line(b, a); line_meeting(b, a, %s) == [st in l: %s])))",
                 f, meets, f, meets);
        ck_ev(t, e, "true");
    }
    /* no line from a square to itself; the errors of line() */
    ck_ev(t, "line_meeting(@B2, @B2, ridge)", "[]");
    ck_ev(t, "line_meeting(@A1, @F1, ridge)", "E217");
    tvm_free(t);
    t = tvm_new(RIDGES);
    ck_ev(t, "line_meeting(@A1, @B1, ridge)", "E212");
    tvm_free(t);
    static const char *const HEX = "scenario \"hex\"\ntopology hex\nsize 3 x 2\n"
                                   "legend . = open\nmap\n  1 . . .\n  2 . . .\n";
    t = tvm_new(RIDGES);
    ck_assert_int_eq(hon_load_board_source(t->vm, "hex.scn", HEX, strlen(HEX)), HON_OK);
    ck_ev(t, "line_meeting(@A1, @C1, ridge)", "E218");
    tvm_free(t);
}
END_TEST

/* line(a, b) gives, for every ordered pair of squares, the steps of the runtime's supercover
 * walk (geo_trace_line: runtime/geo.c, drawn and checked against the books' pictures in
 * tests/runtime/test_draw.c): each step's square and the square before it, a crossing's side
 * (or, at a corner touch, its first side, from the square left to the one beside the line on
 * the left) and the squares left and right of a corner touch (the square itself when the step
 * crosses a side), counted from 1. builtin.c traces it with a loop of its own (sitting 17:
 * bench.md §8), which must not differ anywhere: all 35 x 34 ordered pairs of a 7 x 5 board,
 * every direction and every corner touch of lines up to 6 columns and 4 rows long. */
static void put_square(const geo_grid *g, int sq, char *buf, size_t n)
{
    geo_format_square(g, sq, buf, n);
}

START_TEST(line_gives_the_walks_crossings)
{
    static const char *const OPEN7x5 =
        "size 7 x 5\nlegend . = open\nmap\n  1 . . . . . . .\n  2 . . . . . . .\n"
        "  3 . . . . . . .\n  4 . . . . . . .\n  5 . . . . . . .\n";
    tvm *t = tvm_new("terrain open;\n");
    ck_assert_int_eq(hon_load_board_source(t->vm, "o.scn", OPEN7x5, strlen(OPEN7x5)), HON_OK);
    const scene *sc = t->vm->sc;
    const geo_grid *g = sc->g;
    for (int a = 0; a < 35; a++)
        for (int b = 0; b < 35; b++) {
            if (a == b)
                continue;
            geo_trace tr;
            ck_assert_int_eq(geo_trace_line(g, a, b, &tr), GEO_OK);
            static char want[8192];
            char e[64], na[16], nb[16];
            size_t at = (size_t)snprintf(want, sizeof want, "[");
            for (size_t i = 0; i + 1 < tr.n; i++) {
                const geo_cross *c = &tr.cross[i];
                char sq[16], from[16], side[64], left[16], right[16];
                put_square(g, tr.squares[i + 1], sq, sizeof sq);
                put_square(g, tr.squares[i], from, sizeof from);
                scene_side_text(sc, c->corner >= 0 ? c->sides[0] : c->side, side, sizeof side);
                put_square(g, c->corner >= 0 ? c->left : tr.squares[i + 1], left, sizeof left);
                put_square(g, c->corner >= 0 ? c->right : tr.squares[i + 1], right, sizeof right);
                at += (size_t)snprintf(want + at, sizeof want - at,
                                       "%sstep{square: %s, from: %s, corner: %s, side: %s, "
                                       "left: %s, right: %s, index: %zu}",
                                       i ? ", " : "", sq, from, c->corner >= 0 ? "true" : "false",
                                       side, left, right, i + 1);
            }
            snprintf(want + at, sizeof want - at, "]");
            geo_trace_free(&tr);
            put_square(g, a, na, sizeof na);
            put_square(g, b, nb, sizeof nb);
            snprintf(e, sizeof e, "line(@%s, @%s)", na, nb);
            ck_assert_msg(strcmp(ev(t, e), want) == 0, "%s: %s, expected %s", e, t->last, want);
        }
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("builtins");
    TCase *tc = tcase_create("builtins");
    tcase_add_test(tc, combine_min_max_over_enums);
    tcase_add_test(tc, combine_min_max_types);
    tcase_add_test(tc, combine_enum_trace);
    tcase_add_test(tc, direction_between_squares);
    tcase_add_test(tc, direction_on_hexes);
    tcase_add_test(tc, squares_within_a_distance);
    tcase_add_test(tc, joined_sides_runs);
    tcase_add_test(tc, sides_with_and_sides_joined);
    tcase_add_test(tc, line_meeting_steps);
    tcase_add_test(tc, line_gives_the_walks_crossings);
    suite_add_tcase(s, tc);
    return check_run(s);
}
