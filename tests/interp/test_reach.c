/* test_reach.c — hon_reach and hon_move agree (interp/reach.c, rules/movement.hon): on every
 * bundled board, for every unit standing on a square or aboard a carrier, each path the listing
 * gives is a legal Movement Action that plays without an error, and every step from a listed
 * square (or the unit's own) to a square the listing leaves out is refused, with nothing changed
 * (on a bridge's board and with a Routed unit too). And listings worked out by hand from the
 * books, square by square, before the program was run: an infantry unit, a light vehicle and a
 * heavy vehicle on the trench, hill and beach boards (a vehicle the bundled board lacks is added
 * to an in-memory copy of the board, bundled_with), a jeep's mine attack on the beach, and a
 * squad getting out of a landing craft and of a half-track (tests/rules/boards/aboard_*.scn), and
 * movers kept off a haystack that hides an enemy and a heavy vehicle passing over a small one
 * (tests/rules/boards/hay_entry.scn, hay_heavy.scn).
 * Loads the bundled rules and boards from the source tree (HON_SOURCE_ROOT).
 */
#include "config.h"
#include "interp_test.h"

#define MAXSQ 256

/* A listing: its squares, the squares each costs, and the path to each. */
typedef struct listing {
    size_t n;
    char sq[MAXSQ][8];
    int spent[MAXSQ];
    char path[MAXSQ][16][8];
    size_t len[MAXSQ];
} listing;

/* The bundled rules with a bundled board (examples/boards/NAME) loaded, its text followed by the
 * board lines of `extra` (units added to this copy of the board; NULL: none). */
static tvm *bundled_with(const char *board, const char *extra)
{
    tvm *t = tvm_new(NULL);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/rules"), HON_OK);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/expansions"), HON_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/examples/boards/%s", HON_SOURCE_ROOT, board);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char text[16384];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    ck_assert_uint_lt(n, sizeof text - 1);
    text[n] = '\0';
    if (extra) {
        ck_assert_uint_lt(n + strlen(extra), sizeof text - 1);
        strcat(text, extra);
    }
    hon_status st = hon_load_board_source(t->vm, board, text, strlen(text));
    ck_assert_msg(st == HON_OK, "%s", t->log);
    return t;
}

static tvm *bundled(const char *board)
{
    return bundled_with(board, NULL);
}

/* The listings worked out for a counter on two squares that keeps its facing: the reading
 * keeps_facing of the variant two_square_turning (rules/movement.hon). */
static tvm *keeping_facing(tvm *t)
{
    ck_assert_int_eq(hon_set_variant(t->vm, "two_square_turning", "keeps_facing"), HON_OK);
    return t;
}

/* Reads hon_reach's text ("  C5    2  C6 C5" lines after a heading) into *l. */
static hon_status reach(tvm *t, const char *unit, listing *l)
{
    hon_answer *a = NULL;
    memset(l, 0, sizeof *l);
    hon_status st = hon_reach(t->vm, unit, &a);
    if (st != HON_OK)
        return st;
    const char *p = strchr(hon_answer_text(a), '\n');
    while (p && p[1] && l->n < MAXSQ) {
        p++;
        const char *end = strchr(p, '\n');
        char line[512];
        size_t k = end ? (size_t)(end - p) : strlen(p);
        snprintf(line, sizeof line, "%.*s", (int)k, p);
        int used = 0;
        ck_assert_int_eq(sscanf(line, "%7s %d%n", l->sq[l->n], &l->spent[l->n], &used), 2);
        char *save = NULL;
        for (char *w = strtok_r(line + used, " ", &save); w && l->len[l->n] < 16;
             w = strtok_r(NULL, " ", &save))
            snprintf(l->path[l->n][l->len[l->n]++], 8, "%s", w);
        l->n++;
        p = end;
    }
    hon_answer_free(a);
    return HON_OK;
}

static listing *new_listing(void)
{
    listing *l = calloc(1, sizeof *l);
    ck_assert_ptr_nonnull(l);
    return l;
}

static bool listed(const listing *l, const char *sq)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->sq[i], sq) == 0)
            return true;
    return false;
}

/* Moves unit along the k squares of path then sq (when not NULL): the status; undone when it
 * ran. */
static hon_status try_move(tvm *t, const char *unit, char (*path)[8], size_t k, const char *sq)
{
    const char *squares[20];
    size_t n = 0;
    for (size_t i = 0; i < k && n < 19; i++)
        squares[n++] = path[i];
    if (sq)
        squares[n++] = sq;
    hon_status st = hon_move(t->vm, unit, squares, n, NULL);
    if (st == HON_OK)
        ck_assert_int_eq(hon_undo(t->vm, NULL), HON_OK);
    return st;
}

/* The squares next to sq ("C4") on a w x h board, into out; their number. */
static size_t around(const char *sq, int w, int h, char out[8][8])
{
    int x = sq[0] - 'A', y = atoi(sq + 1) - 1;
    size_t n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && x + dx >= 0 && x + dx < w && y + dy >= 0 && y + dy < h)
                snprintf(out[n++], 8, "%c%d", 'A' + x + dx, y + dy + 1);
    return n;
}

/* For one unit: every listed path is accepted, every step out of the listing refused. */
static void agree(tvm *t, const char *unit, int w, int h)
{
    listing *l = new_listing();
    char start[16], sq[16], e[80];
    snprintf(e, sizeof e, "square_of(%.64s)", unit);
    snprintf(start, sizeof start, "%.15s", ev(t, e));
    tvm_clear(t);
    hon_status st = reach(t, unit, l);
    if (st != HON_OK) {
        /* a train or a landing craft, which take no Movement Action (E228): a step of its own
         * stops with the same error, and nothing changes (every unit of the example boards
         * prints a Movement Value: rules/example_units.hon) */
        ck_assert_msg(t->ndiags && t->d[0].code == 228, "%s: %s", unit, t->log);
        int code = t->d[0].code;
        char next[8][8];
        around(start, w, h, next);
        tvm_clear(t);
        ck_assert_int_ne(try_move(t, unit, NULL, 0, next[0]), HON_OK);
        ck_assert_msg(t->ndiags && t->d[0].code == code, "%s: %s", unit, t->log);
        snprintf(sq, sizeof sq, "%.15s", ev(t, e));
        ck_assert_str_eq(sq, start);
        tvm_clear(t);
        free(l);
        return;
    }
    for (size_t i = 0; i < l->n; i++) {
        /* a listed path is a legal move: never refused (E228), and what happens on the way (a
         * mine attack) never ends in an error (E201, E204: a value the counters lack) */
        tvm_clear(t);
        ck_assert_msg(try_move(t, unit, l->path[i], l->len[i], NULL) == HON_OK,
                      "%s: the listed path to %s does not play:\n%s", unit, l->sq[i], t->log);
    }
    for (size_t i = 0; i <= l->n; i++) { /* each listed square, then the unit's own */
        const char *from = i < l->n ? l->sq[i] : start;
        char next[8][8];
        size_t nn = around(from, w, h, next);
        for (size_t k = 0; k < nn; k++) {
            if (listed(l, next[k]) || strcmp(next[k], start) == 0)
                continue;
            tvm_clear(t);
            st = try_move(t, unit, i < l->n ? l->path[i] : NULL, i < l->n ? l->len[i] : 0, next[k]);
            ck_assert_msg(st != HON_OK && t->ndiags && t->d[0].code == 228,
                          "%s: %s is not listed, but the move there was not refused:\n%s", unit,
                          next[k], t->log);
            snprintf(sq, sizeof sq, "%.15s", ev(t, e));
            ck_assert_str_eq(sq, start);
        }
    }
    tvm_clear(t);
    free(l);
}

/* Every unit of the board standing on a square or aboard a carrier that does. */
static void agree_all(const char *board, int w, int h)
{
    tvm *t = bundled(board);
    char units[8192];
    snprintf(units, sizeof units, "%s", ev(t, "[u in units(): len(squares_of(u)) > 0]"));
    char *save = NULL;
    for (char *u = strtok_r(units, "[], ", &save); u; u = strtok_r(NULL, "[], ", &save))
        agree(t, u, w, h);
    tvm_free(t);
}

START_TEST(every_bundled_board)
{
    agree_all("beach_seawall.scn", 12, 9);
    agree_all("trench_line.scn", 10, 8);
    agree_all("hill_contour.scn", 12, 10);
    agree_all("village_rail.scn", 14, 10);
    agree_all("rail_station.scn", 12, 5);
    /* The beach holds no vehicle that moves: a jeep and a StuG are added, whose listed paths
     * cross the minefield (the board declares its counters' vehicle values). */
    tvm *t = bundled_with("beach_seawall.scn",
                          "unit jeep2 = jeep allies at L7\nunit stug2 = stug axis at K3 L3\n");
    agree(t, "$jeep2", 12, 9);
    agree(t, "$stug2", 12, 9);
    tvm_free(t);
}
END_TEST

/* Boards of tests/rules/boards where what a move may do depends on how it got to a square:
 * under a bridge's area or over it (RR.area.enter: the square an end is stepped from), and a
 * Routed squad (GZ6.routed.effects: where the move began; the Gazette's optional morale rules
 * played, variant morale_rules, as the default edition does not). */
START_TEST(test_boards_agree)
{
    agree_all("../../tests/rules/boards/moves_under_bridge.scn", 6, 4);
    agree_all("../../tests/rules/boards/moves_through_bridge.scn", 8, 4);
    tvm *t = bundled_with("../../tests/rules/boards/moves_routed.scn",
                          "unit fled = rifle_squad allies at E2 with routed\n");
    ck_assert_int_eq(hon_set_variant(t->vm, "morale_rules", "with_morale"), HON_OK);
    agree(t, "$fled", 7, 3);
    tvm_free(t);
    /* A Routed squad on a bundled board whose objectives are primary (E2) and secondary (B2,
     * I2): it keeps away from both kinds (objective_square). From D3 (2 squares from the
     * grenadiers on C1 and from Kraiss on F2, 4 from the Pak on H1), C3 is no nearer any of them
     * (2, 3, 5) but touches B2: not listed; D4 (3, 2, 4) touches no objective: listed. */
    t = bundled_with("little_river.scn", "unit fled = rifle_squad allies at D3 with routed\n");
    ck_assert_int_eq(hon_set_variant(t->vm, "morale_rules", "with_morale"), HON_OK);
    agree(t, "$fled", 10, 8);
    listing *l = new_listing();
    ck_assert_int_eq(reach(t, "$fled", l), HON_OK);
    ck_assert(!listed(l, "C3"));
    ck_assert(listed(l, "D4"));
    free(l);
    tvm_free(t);
}
END_TEST

/* The spent squares the listing gives sq, -1 when it is not listed. */
static int spent_on(const listing *l, const char *sq)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->sq[i], sq) == 0)
            return l->spent[i];
    return -1;
}

/* tests/rules/boards/moves_through_bridge.scn: the viaduct's one area is D2 E2, its arrow squares
 * C2 and F2 (F2 not next to D2). RR l.56: a unit under a higher position comes out from any
 * square marked by an arrow of its area; l.54-55: units move through these positions, and only
 * one ENDING its move under one goes off the board. waiter, under D2, comes out on C2 or F2 for
 * one square each, and from there walks on: G2 (F2 then G2) for two, never D3 or D1 for one
 * (no arrows). walker (B2, Movement Value 5) goes in at C2 (1), under (2), out at F2 (3), on to
 * G2 (4), where going round over the top (C1 D1 E1 F2) takes four squares to F2 and five to G2. */
START_TEST(through_the_area)
{
    tvm *t = tvm_new(NULL);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/rules"), HON_OK);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/expansions"), HON_OK);
    ck_assert_int_eq(
        hon_load_board(t->vm, HON_SOURCE_ROOT "/tests/rules/boards/moves_through_bridge.scn"),
        HON_OK);
    listing *l = new_listing();
    ck_assert_msg(reach(t, "$waiter", l) == HON_OK, "%s", t->log);
    ck_assert_int_eq(spent_on(l, "C2"), 1);
    ck_assert_int_eq(spent_on(l, "F2"), 1);
    ck_assert_int_eq(spent_on(l, "G2"), 2);
    ck_assert_int_eq(spent_on(l, "D3"), 2); /* by C2: not straight out from under D2 */
    ck_assert_int_eq(spent_on(l, "D1"), 2);
    ck_assert_msg(reach(t, "$walker", l) == HON_OK, "%s", t->log);
    ck_assert_int_eq(spent_on(l, "F2"), 3);
    ck_assert_int_eq(spent_on(l, "G2"), 4);
    free(l);
    tvm_free(t);
}
END_TEST

/* tests/rules/boards/train_halt.scn (its engines declared here as tests/rules/movement.hon does):
 * what `reach` lists and what `move` does agree for every unit beside the two trains, a halted
 * one (engine E2, wagon D2) and one running at speed 3 (engine E4, wagon D4), and the jeep's
 * listing holds the halted wagon D2 (RR l.34: a vehicle enters a wagon of a stopped train) but
 * neither engine E2 (a vehicle enters only a wagon) nor the running wagon D4. */
START_TEST(taking_the_train)
{
    static const char engines[] =
        "counter mv_halted_engine \"test\" : train_engine { side axis size 1 speed 0 }\n"
        "counter mv_running_engine \"test\" : train_engine { side axis size 1 speed 3 }\n";
    tvm *t = tvm_new(NULL);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/rules"), HON_OK);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/expansions"), HON_OK);
    ck_assert_int_eq(hon_load_source(t->vm, "engines.hon", engines, strlen(engines)), HON_OK);
    ck_assert_int_eq(hon_load_board(t->vm, HON_SOURCE_ROOT "/tests/rules/boards/train_halt.scn"),
                     HON_OK);
    listing *l = new_listing();
    ck_assert_msg(reach(t, "$jeep", l) == HON_OK, "%s", t->log);
    ck_assert_int_ge(spent_on(l, "D2"), 1);
    ck_assert_int_eq(spent_on(l, "E2"), -1);
    ck_assert_int_eq(spent_on(l, "D4"), -1);
    free(l);
    static const char *const who[] = { "$rifle", "$gren", "$jeep", "$engine", "$wagon" };
    for (size_t i = 0; i < sizeof who / sizeof *who; i++)
        agree(t, who[i], 8, 5);
    tvm_free(t);
}
END_TEST

/* A square a listing must hold, and the squares of the Movement Value spent to get there. */
typedef struct want {
    const char *sq;
    int spent;
} want;

/* The listing of `unit` on t holds exactly the n squares of w, each at its cost. */
static void expect_reach(tvm *t, const char *unit, const want *w, size_t n)
{
    listing *l = new_listing();
    ck_assert_msg(reach(t, unit, l) == HON_OK, "%s: %s", unit, t->log);
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (size_t k = 0; k < l->n; k++)
            if (strcmp(l->sq[k], w[i].sq) == 0) {
                found = true;
                ck_assert_msg(l->spent[k] == w[i].spent, "%s: %s costs %d, not %d", unit, w[i].sq,
                              l->spent[k], w[i].spent);
            }
        ck_assert_msg(found, "%s: %s is not listed", unit, w[i].sq);
    }
    for (size_t k = 0; k < l->n; k++) {
        bool wanted = false;
        for (size_t i = 0; i < n; i++)
            wanted |= strcmp(l->sq[k], w[i].sq) == 0;
        ck_assert_msg(wanted, "%s: %s (%d) is listed, but the books do not allow it", unit,
                      l->sq[k], l->spent[k]);
    }
    free(l);
}

#define EXPECT_REACH(t, unit, w) expect_reach((t), (unit), (w), sizeof(w) / sizeof *(w))

/* The listing of `unit` on a copy of a bundled board with the units of `extra` added holds
 * exactly the n squares of w. */
static void expect_reach_with(const char *board, const char *extra, const char *unit, const want *w,
                              size_t n)
{
    tvm *t = bundled_with(board, extra);
    expect_reach(t, unit, w, n);
    tvm_free(t);
}

#define EXPECT_REACH_WITH(board, extra, unit, w) \
    expect_reach_with((board), (extra), (unit), (w), sizeof(w) / sizeof *(w))

/* The jeep on the hill board (A9, a light vehicle, Movement Value 8) worked out from the books:
 * A8, B8 and B9 are stream, impassable to light vehicles (BRO.1.2.stream). A10 and B10 are open
 * ground: one square each (PRESUMED.step_cost_one). From B10, C10 (open) costs 2, and C9 is the
 * ford across the stream: any unit may cross a ford (HH.ford), but the square is stream, a
 * Difficult Passage (BRO.1.2.stream), so the move ends there (PRESUMED.difficult_passage_stops):
 * 2 as well. From C10, D9 and D10 are stream; nothing else is in reach. */
START_TEST(jeep_on_the_hill)
{
    tvm *t = bundled("hill_contour.scn");
    static const want w[] = { { "A10", 1 }, { "B10", 1 }, { "C9", 2 }, { "C10", 2 } };
    EXPECT_REACH(t, "$jeep", w);
    tvm_free(t);
}
END_TEST

/* ---- the trench line (trench_line.scn) ------------------------------------------------------
 * trench_w = A4 B4 C4 C5..G5, trench_e = H4 I4 J4 H5, each walled all round, a passage on
 * G5/H5, ladders on B4:N and E5:S; barbed wire on A5/A6, B5/B6 and on C6/C7..H6/H7; rough
 * (Difficult Terrain) on E6 and H7, a crater on B7, fields in rows 1-2. Axis: grenad B4, mg1
 * D5, officer I4, all in the trenches; allies: rifle1 B7, rifle2 H7, engineer E6.
 * Facts every case below uses: a step goes to one of the 8 neighbours and spends one square
 * (PRESUMED.step_by_step, PRESUMED.step_cost_one), so with nothing in the way a square costs
 * its distance in king steps; a move may pass a friend but not end on it
 * (PRESUMED.pass_friends) and never enters an enemy's square (PRESUMED.enemy_squares). A
 * diagonal step through a corner crosses a side feature only when both ways round the corner
 * do (corner_touch, default both_sides). The axis units stand in trenches, so their Zones of
 * Control cover only trench squares (BRO.1.4.trench.zoc): A4, C4, C5 (grenad), C4, C5, E5
 * (mg1), H4, J4, H5 (officer). */

/* The engineers (E6, infantry, Movement Value 4). Trench squares: entering one ends the move
 * (BRO.1.4.trench.stop) except across the ladder E5:S, but E5 is in mg1's Zone of Control
 * (PRESUMED.zoc_stops): E5 1. F5 1 diagonally: the way round by E5 crosses only the ladder and
 * then stays in the trench, so (judged per way round the corner, language.md §6.6) the move goes
 * on from F5, in no Zone of Control (mg1 on D5 is two squares away). Leaving the trench from F5
 * ends the move, every way round being over a wall with no ladder: F4 2, E4 2 and G4 2
 * diagonally; along the trench G5 2, then through the passage G5|H5 and round the corner by H5
 * into H4 3 (the other way, by G4, leaves the trench; H4 is next to the officer on I4, in his
 * Zone of Control: it ends there); H5 3 (from G6 or G5). C5 2 (from D6); A4 and C4 lie beyond
 * squares that end the move (below); D5 and B4 hold enemies. D4 and rows 1-3 lie past the end
 * of a move (E4, F4, G4 end it): out of reach.
 * Row 6 lies north of the wire: D6 1, F6 1, C6 2, G6 2, B6 3, H6 3, A6 4, I6 4. Wire is a
 * Difficult Passage for infantry (BRO.1.3.barbed-wire), which ends the move
 * (PRESUMED.difficult_passage_stops): D7, E7, F7 1 (straight or both ways round the corner
 * across the wire), C7 2 (from D6), G7 2 (from F6). The wire's ends can be walked round where
 * one way round the corner is free: not C6 to B5 diagonally, whose way by B6 crosses the wire
 * and whose way by C5 enters the trench (BRO.1.4.trench.stop): each way round would end the
 * move, so the step does (must_stop.round_the_corner, corner_touch both_sides): B5 3 ends there
 * (so A4 and C4 are out of reach), and A5 4 comes from B6 (both ways round across the wire, an
 * end); C6 to B7 diagonally (by B6, free) gives B7 at 3, rifle1's square (passed, not ended
 * on), then A8, B8, C8 4; A7 4 (from B6); H6 to I5 and I7 4 (one way round free of wire). H7
 * (rifle2, rough) is no square to end on, and rough is a Difficult Passage that ends the move
 * there, so it leads nowhere. Rows 7-8 beyond: 5 or more. */
START_TEST(trench_infantry)
{
    tvm *t = bundled("trench_line.scn");
    static const want w[] = { { "E5", 1 }, { "F5", 1 }, { "C5", 2 }, { "G5", 2 }, { "H5", 3 },
                              { "E4", 2 }, { "F4", 2 }, { "G4", 2 }, { "H4", 3 }, { "D6", 1 },
                              { "F6", 1 }, { "C6", 2 }, { "G6", 2 }, { "B6", 3 }, { "H6", 3 },
                              { "A6", 4 }, { "I6", 4 }, { "D7", 1 }, { "E7", 1 }, { "F7", 1 },
                              { "C7", 2 }, { "G7", 2 }, { "B5", 3 }, { "A5", 4 }, { "A7", 4 },
                              { "A8", 4 }, { "B8", 4 }, { "C8", 4 }, { "I5", 4 }, { "I7", 4 } };
    EXPECT_REACH(t, "$engineer", w);
    tvm_free(t);
}
END_TEST

/* A jeep added on J8 (light vehicle, Movement Value 8). Trenches and Difficult Terrain are
 * impassable to vehicles (BRO.1.4.trench.traits, BRO.1.2.difficult-terrain): trench squares,
 * E6 and H7 are closed. Wire does nothing to vehicles (BRO.1.3.barbed-wire). The trench
 * squares of rows 4-5 wall the south off from the north (no open square of row 4 touches an
 * open square of row 5), so the jeep keeps to rows 6-8 and A5, B5, I5, J5. The axis Zones of
 * Control lie in the trenches. Every square there costs its king-step distance from J8 (row 8
 * is open all along, and no detour round E6 or H7 is longer): the column distance (I 1 ... B
 * 8) for rows 6-8, 2 for I6 and J6, 3 for I5 and J5; B5 8 (by row 8, D7 and C6). Column A is 9
 * away; B7 holds rifle1 (passed, not ended on). */
START_TEST(trench_light_vehicle)
{
    tvm *t = bundled_with("trench_line.scn", "unit jeep2 = jeep allies at J8\n");
    static const want w[] = { { "I8", 1 }, { "H8", 2 }, { "G8", 3 }, { "F8", 4 }, { "E8", 5 },
                              { "D8", 6 }, { "C8", 7 }, { "B8", 8 }, { "I7", 1 }, { "J7", 1 },
                              { "G7", 3 }, { "F7", 4 }, { "E7", 5 }, { "D7", 6 }, { "C7", 7 },
                              { "I6", 2 }, { "J6", 2 }, { "H6", 2 }, { "G6", 3 }, { "F6", 4 },
                              { "D6", 6 }, { "C6", 7 }, { "B6", 8 }, { "I5", 3 }, { "J5", 3 },
                              { "B5", 8 } };
    EXPECT_REACH(t, "$jeep2", w);
    tvm_free(t);
}
END_TEST

/* A StuG added on E3 F3 (axis heavy vehicle on two squares, front E3, facing west; Movement
 * Value 5). Under the reading keeps_facing of two_square_turning, both squares take the same
 * step (PRESUMED.two_square_steps): the rear stays one
 * square east of the front, so no front on column J (the rear would leave the board). North of
 * the trenches rows 1-3 and D4-G4 are open ground or fields (an Obstacle for infantry only,
 * BRO.1.2.field), closed on the south by trench squares, impassable to vehicles; the allied
 * units stand south of them, so no Zone of Control reaches here. Front D4 (rear E4), E4 and F4
 * (rear G4) are open; front G4 would put the rear on the trench square H4, C4 is trench. Every
 * front costs its king-step distance from E3: D, E, F 1 (rows 2-4), C, G 2, B, H 3, A, I 4;
 * rows 1 take 2 at least. */
START_TEST(trench_heavy_vehicle)
{
    tvm *t = keeping_facing(bundled_with("trench_line.scn", "unit stug2 = stug axis at E3 F3\n"));
    static const want w[] = { { "A1", 4 }, { "B1", 3 }, { "C1", 2 }, { "D1", 2 }, { "E1", 2 },
                              { "F1", 2 }, { "G1", 2 }, { "H1", 3 }, { "I1", 4 }, { "A2", 4 },
                              { "B2", 3 }, { "C2", 2 }, { "D2", 1 }, { "E2", 1 }, { "F2", 1 },
                              { "G2", 2 }, { "H2", 3 }, { "I2", 4 }, { "A3", 4 }, { "B3", 3 },
                              { "C3", 2 }, { "D3", 1 }, { "F3", 1 }, { "G3", 2 }, { "H3", 3 },
                              { "I3", 4 }, { "D4", 1 }, { "E4", 1 }, { "F4", 1 } };
    EXPECT_REACH(t, "$stug2", w);
    tvm_free(t);
}
END_TEST

/* ---- Hill 192 (hill_contour.scn) -------------------------------------------------------------
 * rifle1 (B6, infantry, Movement Value 5). Getting onto the hill crosses its red line and enters
 * the hill element, a Difficult Passage (HH.hill.traits, BRO.1.1.contour.movement) that ends the
 * move (PRESUMED.difficult_passage_stops): each hill square next to open ground reached costs one
 * more than that square and leads nowhere: C5 1, C4 2 (from B5), D5 2 (from C6), D6 2, C3 3 (from
 * B4), E6 3 and E7 3 (from D7), F7 4 (from E8), G7 5 (from F8); the hill squares further in
 * (D3, D4, the summit, the woods on F3) touch no open square the squad can stand on. The
 * stream is a Difficult Passage too (BRO.1.2.stream; the ford on C9 is stream as well, HH.ford):
 * A8, B8 2, B9, C9, D9 3, D10, E10, F10 4, G10 5; A9 (the jeep), A10, B10 and C10 lie behind the
 * stream, so only through a square that ends the move. mg (D2) covers C1, C2 and C3 with its
 * Zone of Control (PRESUMED.zoc_reach): entering one ends the move (PRESUMED.zoc_stops), so D1,
 * behind them, is out of reach; C1 5, C2 4. Open ground by king steps: A5, A6, A7, B5, B7, C6,
 * C7 1; A4, B4, C8, D7, D8 2; A3, B3, E8, E9 3; A2, B2, F8, F9 4; A1, B1, G8, G9 5. */
START_TEST(hill_infantry)
{
    tvm *t = bundled("hill_contour.scn");
    static const want w[] = {
        { "C5", 1 }, { "C4", 2 }, { "D5", 2 },  { "D6", 2 },  { "C3", 3 },  { "E6", 3 },
        { "E7", 3 }, { "F7", 4 }, { "G7", 5 },  { "A8", 2 },  { "B8", 2 },  { "B9", 3 },
        { "C9", 3 }, { "D9", 3 }, { "D10", 4 }, { "E10", 4 }, { "F10", 4 }, { "G10", 5 },
        { "C1", 5 }, { "C2", 4 }, { "A5", 1 },  { "A6", 1 },  { "A7", 1 },  { "B5", 1 },
        { "B7", 1 }, { "C6", 1 }, { "C7", 1 },  { "A4", 2 },  { "B4", 2 },  { "C8", 2 },
        { "D7", 2 }, { "D8", 2 }, { "A3", 3 },  { "B3", 3 },  { "E8", 3 },  { "E9", 3 },
        { "A2", 4 }, { "B2", 4 }, { "F8", 4 },  { "F9", 4 },  { "A1", 5 },  { "B1", 5 },
        { "G8", 5 }, { "G9", 5 },
    };
    EXPECT_REACH(t, "$rifle1", w);
    tvm_free(t);
}
END_TEST

/* A StuG added on G9 H9 (axis heavy vehicle on two squares, front G9, rear H9, facing west;
 * Movement Value 5). Under the reading keeps_facing of two_square_turning, both squares take
 * each step (PRESUMED.two_square_steps), so no front on column L; and the counter enters what
 * either square steps into (PRESUMED.two_square_entering):
 * a hill square (getting onto the hill is a Difficult Passage, HH.hill.traits) or a stream square
 * (heavy vehicles may go in, a Difficult Passage, BRO.1.2.stream) ends the move
 * (PRESUMED.difficult_passage_stops), and so does a square next to an allied unit
 * (PRESUMED.zoc_reach, PRESUMED.zoc_stops): rifle2 (J7) covers I6-K8, rifle1 (B6) A5-C7, the jeep
 * (A9) A8, B8, B9, A10, B10. Woods (K8 L8 K9 L9) stop no vehicle (PRESUMED.woods_tile).
 * One step: F8, G8, F9 (its rear on G9, which it covered), H9 open; H8 (its rear on I8, in
 * rifle2's zone) ends there; F10, G10, H10 stream: all 1. Two: E7, F7, G7 hill and H7 (rear I7,
 * rifle2's zone) end there; E8, E9 open; I8 (rifle2's zone) ends; I9 (rear J9) open; E10, I10
 * stream: all 2. Three: D7 (from E8: the rear steps F8 to E7, onto the hill) ends; D8 open; J8
 * (zone) ends; J9 (rear K9, woods) open; D9, D10, J10 stream: all 3. Four: C7 (rifle1's zone)
 * ends; C8 open; C9 (the ford, stream, HH.ford) ends; K8 (zone), K9 (rear L9, woods), K10
 * stream: all 4. Five: B7 (zone), B8, B9 (stream). The rest of the hill (D6, E6, G6, H6, the
 * squares behind) and I6 lie only past a square that ends the move (I7 holds rifle2). */
START_TEST(hill_heavy_vehicle)
{
    static const want w[] = {
        { "F8", 1 },  { "G8", 1 },  { "H8", 1 }, { "F9", 1 }, { "H9", 1 },  { "F10", 1 },
        { "G10", 1 }, { "H10", 1 }, { "E7", 2 }, { "F7", 2 }, { "G7", 2 },  { "H7", 2 },
        { "E8", 2 },  { "I8", 2 },  { "E9", 2 }, { "I9", 2 }, { "E10", 2 }, { "I10", 2 },
        { "D7", 3 },  { "D8", 3 },  { "J8", 3 }, { "D9", 3 }, { "J9", 3 },  { "D10", 3 },
        { "J10", 3 }, { "C7", 4 },  { "C8", 4 }, { "K8", 4 }, { "C9", 4 },  { "K9", 4 },
        { "K10", 4 }, { "B7", 5 },  { "B8", 5 }, { "B9", 5 },
    };
    tvm *t = keeping_facing(bundled_with("hill_contour.scn", "unit stug2 = stug axis at G9 H9\n"));
    EXPECT_REACH(t, "$stug2", w);
    tvm_free(t);
}
END_TEST

/* ---- Omaha beach (beach_seawall.scn) ------------------------------------------------------------
 * rifle1 (D7, infantry, Movement Value 5). The sea (row 8) is water, closed to units without
 * Amphibious (HH.water.enter). Czech hedgehogs only stop vehicles (BRO.1.3.czech-hedgehog). Wire
 * on A5/A6..C5/C6 and G5/G6..J5/J6 is a Difficult Passage for infantry (BRO.1.3.barbed-wire)
 * that ends the move (PRESUMED.difficult_passage_stops); D6-D5, E6-E5 and F6-F5 are free, and
 * so are the diagonals D6-C5 and F6-G5, one way round the corner being free of wire, while C6-B5
 * and B6-A5 cross wire both ways round (B5 2 and A5 3 end the move there). The
 * seawall (A..F and H..L between rows 4 and 5) is a Difficult Passage (BRO.1.2.embankment):
 * B4, C4, D4, E4, F4 3, A4 4 end the move; the road at G4/G5 has none, and F5-G4 goes round its
 * end (by G5): G4 3, H4 4 (from G4), I4 5. The red line of the bluff does nothing to movement
 * here: the grass is no hill (BRO.1.1.contour.movement gives an effect only by terrain type).
 * Zones of Control: grenad (B3) covers A4, B4, C4; mg42 (H2) G2, G3, H3, I3; sniper (E1) E2,
 * F2; entering them ends the move. rifle2 (F7) is passed, not ended on. King steps, then: C6,
 * D6, E6, C7, E7 1; B6, B7, C5, D5, E5, F5, F6 2; A6, A7, G5, G6, G7 3; from G4 (3): F3, G3,
 * H3 4; H5, H6, H7 4; I5, I6, I7, I3 (from H4), E2, F2, G2, E3 (from F3) 5. The bunker (H2 I2) is entered by no window (BRO.1.1.bunker.windows) and its opening
 * faces north, too far. */
START_TEST(beach_infantry)
{
    tvm *t = bundled("beach_seawall.scn");
    static const want w[] = {
        { "C6", 1 }, { "D6", 1 }, { "E6", 1 }, { "C7", 1 }, { "E7", 1 }, { "B6", 2 }, { "B7", 2 },
        { "C5", 2 }, { "D5", 2 }, { "E5", 2 }, { "F5", 2 }, { "F6", 2 }, { "A6", 3 }, { "A7", 3 },
        { "B5", 2 }, { "G5", 3 }, { "G6", 3 }, { "G7", 3 }, { "B4", 3 }, { "C4", 3 }, { "D4", 3 },
        { "E4", 3 }, { "F4", 3 }, { "G4", 3 }, { "A4", 4 }, { "H4", 4 }, { "F3", 4 }, { "G3", 4 },
        { "H3", 4 }, { "A5", 3 }, { "H5", 4 }, { "H6", 4 }, { "H7", 4 }, { "I4", 5 }, { "I5", 5 },
        { "I6", 5 }, { "I7", 5 }, { "I3", 5 }, { "E2", 5 }, { "F2", 5 }, { "G2", 5 }, { "E3", 5 },
    };
    EXPECT_REACH(t, "$rifle1", w);
    tvm_free(t);
}
END_TEST

/* A jeep added on L7 (light vehicle, Movement Value 8). The sea (row 8) is water
 * (HH.water.enter). Wire does nothing to vehicles (BRO.1.3.barbed-wire); hedgehogs (C5/C6, D5/D6,
 * E6/F6, I6/I7, J5/K5) and the seawall (A4/A5..F4/F5, H4/H5..L4/L5) stop them
 * (BRO.1.3.czech-hedgehog, BRO.1.2.embankment), so the jeep leaves the sand only by the road's
 * gap at G4/G5. A diagonal step past a hedgehog is stopped only when both ways round the corner
 * cross one (corner_touch both_sides), and every hedgehog here has a free way round, so each sand
 * square costs its king-step distance from L7: K6, K7, L6 1; J5-J7, K5, L5 2; I 3, H 4, G 5,
 * F5, F6 6 (F7 holds rifle2, passed, not ended on), E5-E7 7, D5, D6 8 (D7 holds rifle1). Row 4:
 * G4 5 (from H5, round the corner by G5), then F4, H4 6, E4, I4 7, D4, J4 8. The red line of the
 * bluff changes nothing for the grass (BRO.1.1.contour.movement: only by terrain type): F3, G3,
 * H3 6 (from G4), E3, I3 7, D3, J3 8. The axis Zones of Control (PRESUMED.zoc_reach) end the
 * move (PRESUMED.zoc_stops): mg42 (H2) covers G2, G3, H3, I3; the sniper (E1) D2, E2, F2; so E2,
 * F2, G2 7 (from F3) and D2 8 (from E3) end there, and row 1 and the bunker (H2 I2, its opening
 * on I2's north side) lie behind those zones; grenad's zone (A2-C4) is beyond 8. */
START_TEST(beach_light_vehicle)
{
    static const want w[] = {
        { "K6", 1 }, { "K7", 1 }, { "L6", 1 }, { "J5", 2 }, { "J6", 2 }, { "J7", 2 }, { "K5", 2 },
        { "L5", 2 }, { "I5", 3 }, { "I6", 3 }, { "I7", 3 }, { "H5", 4 }, { "H6", 4 }, { "H7", 4 },
        { "G5", 5 }, { "G6", 5 }, { "G7", 5 }, { "F5", 6 }, { "F6", 6 }, { "E5", 7 }, { "E6", 7 },
        { "E7", 7 }, { "D5", 8 }, { "D6", 8 }, { "G4", 5 }, { "F4", 6 }, { "H4", 6 }, { "E4", 7 },
        { "I4", 7 }, { "D4", 8 }, { "J4", 8 }, { "F3", 6 }, { "G3", 6 }, { "H3", 6 }, { "E3", 7 },
        { "I3", 7 }, { "D3", 8 }, { "J3", 8 }, { "E2", 7 }, { "F2", 7 }, { "G2", 7 }, { "D2", 8 },
    };
    EXPECT_REACH_WITH("beach_seawall.scn", "unit jeep2 = jeep allies at L7\n", "$jeep2", w);
}
END_TEST

/* A StuG added on K3 L3 (axis heavy vehicle, front K3, rear L3, facing west; Movement Value 5).
 * Under the reading keeps_facing of two_square_turning, both squares take each step
 * (PRESUMED.two_square_steps): no front on column L. The allied
 * units stand on the beach (their Zones of Control reach no higher than row 6) or aboard the
 * craft. The bunker (H2 I2, mg42 inside) is walled but for the opening on I2's north side
 * (PRESUMED.building_walls): a front on I2 would stand astride the wall I2/J2 from its rear, which
 * no counter does (PRESUMED.two_square_steps); a rear never gets into H2 (every way in crosses a
 * wall or the window), so no front on G2; a front on H2 (rear I2, in by the opening from I1 J1)
 * would end on mg42, passed, not ended on, and leads out only by the way it came. Grass, road and
 * shingle change nothing, nor does the red line of the bluff (BRO.1.1.contour.movement); woods
 * stop no vehicle (PRESUMED.woods_tile). So each front costs its king-step distance from
 * K3: J2, J3, J4, K2, K4 1; I1, I3, I4, J1, K1 2; H1, H3, H4 3; G1, G3, G4 4; F1-F4 5. Down to
 * the sand the seawall (BRO.1.2.embankment) leaves the gap at G4/G5: a front on G5 needs the rear
 * to cross H4/H5 (from G4, or from H4 both ways round the corner by H4 or I5 cross the seawall)
 * or to come from F4 (5) for 6; F5 is 5 from G4 (the front round the corner by G5, the rear
 * H4 to G5 across the road). */
START_TEST(beach_heavy_vehicle)
{
    static const want w[] = {
        { "J2", 1 }, { "J3", 1 }, { "J4", 1 }, { "K2", 1 }, { "K4", 1 }, { "I1", 2 }, { "I3", 2 },
        { "I4", 2 }, { "J1", 2 }, { "K1", 2 }, { "H1", 3 }, { "H3", 3 }, { "H4", 3 }, { "G1", 4 },
        { "G3", 4 }, { "G4", 4 }, { "F1", 5 }, { "F2", 5 }, { "F3", 5 }, { "F4", 5 }, { "F5", 5 },
    };
    tvm *t = keeping_facing(bundled_with("beach_seawall.scn", "unit stug2 = stug axis at K3 L3\n"));
    EXPECT_REACH(t, "$stug2", w);
    tvm_free(t);
}
END_TEST

/* A jeep added on L7 drives K6, J6, I6, H6 into the beach's minefield. Of those squares only H6
 * is mined: counter 4 stands on its NW corner and no counter on a corner of I6, J6 or K6
 * (BRO.4.2.minefield.deploy: a mined square has a counter on one of its corners), so the
 * defender triggers counter 4 (BRO.4.2.minefield.trigger). The board declares it C of the worked
 * example with an EXAMPLE value of 1 against light vehicles (mine_counter 4); the jeep's defense
 * is 4 (rules/example_units.hon). One die, once the move is over (BRO.4.2.minefield.attack): 1 is
 * no Hit, and the defender discards the one counter added, 4 (BRO.4.2.minefield.roll-one); 2 + 1
 * = 3 falls short of 4; 3 to 6 give 1 Hit and 1 Suppressed marker. The move is tried on a run of
 * seeds, each die read from the move's roll line. A StuG's attack would use the side defense
 * (6) and the anti-tank counter 2's heavy vehicle value, 3. */
START_TEST(beach_minefield_vehicles)
{
    tvm *t = bundled_with("beach_seawall.scn",
                          "unit jeep2 = jeep allies at L7\nunit stug2 = stug axis at K3 L3\n");
    ck_ev(t, "mines_near(@H6)", "[4]");
    ck_ev(t, "[mines_near(q) for q in [@I6, @J6, @K6]]", "[[], [], []]");
    ck_ev(t, "mine_value(numbered_mine(4), $jeep2)", "1");
    ck_ev(t, "mine_defense($jeep2)", "4");
    ck_ev(t, "mine_value(numbered_mine(2), $stug2)", "3");
    ck_ev(t, "mine_defense($stug2)", "6");
    /* A set-up move is no Movement Action (PRESUMED.setup_deployment): no mine goes off there.
     * The jeep moves in the Supply Phase of turn 1 (setup, order, activation, supply). */
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(hon_next(t->vm, NULL), HON_OK);
    const char *phase = NULL;
    hon_clock(t->vm, NULL, &phase);
    ck_assert_str_eq(phase, "supply");
    const char *path[] = { "K6", "J6", "I6", "H6" };
    bool seen_hit = false, seen_miss = false;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        hon_set_seed(t->vm, seed);
        tvm_clear(t);
        hon_answer *a = NULL;
        ck_assert_msg(hon_move(t->vm, "$jeep2", path, 4, &a) == HON_OK, "%s", t->log);
        const char *roll = strstr(hon_answer_text(a), "roll d6: ");
        ck_assert_ptr_nonnull(roll);
        int die = atoi(roll + strlen("roll d6: "));
        hon_answer_free(a);
        bool hit = die != 1 && die + 1 >= 4;
        seen_hit |= hit;
        seen_miss |= !hit;
        ck_ev(t, "square_of($jeep2)", "H6");
        ck_ev(t, "marker_count($jeep2, hit)", hit ? "1" : "0");
        ck_ev(t, "marker_count($jeep2, suppressed)", hit ? "1" : "0");
        ck_ev(t, "item_value_near(@H6, mine)", die == 1 ? "0" : "4");
        ck_assert_int_eq(hon_undo(t->vm, NULL), HON_OK);
    }
    ck_assert(seen_hit && seen_miss);
    tvm_free(t);
}
END_TEST

/* The village half-track (B9 C9: front B9, facing west; a light vehicle, Movement Value 6) onto
 * the bridge. Streams are impassable to light vehicles (BRO.1.2.stream): of row 8 only the
 * bridge G8 is open to it. Under the default reading of two_square_turning (rear_follows,
 * PRESUMED.two_square_steps) it turns about by stepping its front onto its own rear square C9
 * (rear B9), drives east along row 9 (each rear on the square its front left; past rifle1 on F9,
 * PRESUMED.pass_friends) and turns north from G9 onto G8, its rear on G9: six steps, its
 * Movement Value; G8 lies next to the StuG on G7, so the move ends there anyway
 * (PRESUMED.zoc_stops). Keeping its facing, the front on G8 would put the rear on H8, stream:
 * the move is refused, and the refusal names the rear's square, not the bridge. */
START_TEST(village_halftrack_turns)
{
    tvm *t = bundled("village_rail.scn");
    const char *path[] = { "C9", "D9", "E9", "F9", "G9", "G8" };
    ck_assert_msg(hon_move(t->vm, "$halftrack", path, 6, NULL) == HON_OK, "%s", t->log);
    ck_ev(t, "squares_of($halftrack)", "[G8, G9]");
    ck_assert_int_eq(hon_undo(t->vm, NULL), HON_OK);
    ck_ev(t, "squares_of($halftrack)", "[B9, C9]");
    keeping_facing(t);
    tvm_clear(t);
    ck_assert_int_eq(hon_move(t->vm, "$halftrack", path, 6, NULL), HON_ERR_RUNTIME);
    hon_refusal r;
    ck_assert(hon_last_refusal(t->vm, &r));
    ck_assert_str_eq(r.rule, "step_allowed.rear_terrain");
    ck_assert_str_eq(r.call, "step_allowed($halftrack, F9, G9, G8, 5)");
    ck_ev(t, "squares_of($halftrack)", "[B9, C9]");
    tvm_free(t);
}
END_TEST

/* Trains (rail_station.scn): an engine or a wagon takes no Movement Action; the train moves by
 * its speed (RR.engine.orders, RR.move.speed). `reach` and `move` refuse it alike, naming the
 * rule that says how trains move, and nothing changes. */
START_TEST(trains_take_no_movement_action)
{
    tvm *t = bundled("rail_station.scn");
    listing *l = new_listing();
    hon_refusal r;
    static const char *const units[] = { "$engine", "$wagon1" };
    for (size_t i = 0; i < 2; i++) {
        tvm_clear(t);
        ck_assert_int_eq(reach(t, units[i], l), HON_ERR_RUNTIME);
        ck_assert_int_eq(t->d[0].code, 228);
        ck_assert(hon_last_refusal(t->vm, &r));
        ck_assert_str_eq(r.rule, "takes_movement_action.train_moves_by_speed");
        ck_assert_str_eq(r.what, "a Movement Action");
        ck_assert(strstr(r.cites, "RR.move.speed") != NULL);
    }
    tvm_clear(t);
    const char *path[] = { "F3" };
    ck_assert_int_eq(hon_move(t->vm, "$engine", path, 1, NULL), HON_ERR_RUNTIME);
    ck_assert_int_eq(t->d[0].code, 228);
    ck_assert(hon_last_refusal(t->vm, &r));
    ck_assert_str_eq(r.rule, "takes_movement_action.train_moves_by_speed");
    ck_ev(t, "square_of($engine)", "E3");
    free(l);
    tvm_free(t);
}
END_TEST

/* A wreck is a destroyed vehicle (HH.transport.destroyed redeploys troops next to the destroyed
 * vehicle's wreck; RR.crunch.light turns a destroyed one to its wreck side): only a forced move
 * shifts one, so reach refuses it as the Movement Action does, naming the same rule, and a step to
 * the open square beside it is refused with the board unchanged. */
START_TEST(wrecks_take_no_movement_action)
{
    tvm *t = bundled("../../tests/rules/boards/wreck_field.scn");
    listing *l = new_listing();
    hon_refusal r;
    ck_assert_int_eq(reach(t, "$hulk", l), HON_ERR_RUNTIME);
    ck_assert_int_eq(t->d[0].code, 228);
    ck_assert(hon_last_refusal(t->vm, &r));
    ck_assert_str_eq(r.rule, "takes_movement_action.wreck");
    tvm_clear(t);
    agree(t, "$hulk", 5, 3);
    agree(t, "$jeep", 5, 3); /* it drives round the wreck, never into it */
    ck_ev(t, "squares_of($hulk)", "[B2, A2]");
    free(l);
    tvm_free(t);
}
END_TEST

/* boards/urban_corner.scn: a shed D1-D3, walled all round, its only ways in or out the white
 * arrows on D2's west and east sides; a Ranger with Urban Fighter (Movement 4, made up) on B1.
 * BRO.3.1.urban-fighter lets it through such an opening once and only once per Movement Action.
 * West of the shed: A1, A2, B2, C1, C2 one square each, A3, B3, C3 two. Into the shed through the
 * west arrow, straight from C2 or diagonally from C1 (round D1 is a wall) or from C2 to D1 or D3
 * (round C1 or C3 the wall): D1, D2, D3 two squares each. Out on the east side needs the second
 * arrow, and the shed spans the board from edge to edge: no square of columns E and F. */
START_TEST(urban_fighter_once_per_move)
{
    tvm *t = tvm_new(NULL);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/rules"), HON_OK);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/expansions"), HON_OK);
    static const char ranger[] = "module bloody_omaha;\n"
                                 "counter ab_ranger \"test: Urban Fighter\" : infantry {\n"
                                 "  side allies size 1 movement 4 abilities { urban_fighter } }\n";
    ck_assert_int_eq(hon_load_source(t->vm, "ranger.hon", ranger, strlen(ranger)), HON_OK);
    ck_assert_int_eq(hon_load_board(t->vm, HON_SOURCE_ROOT "/tests/rules/boards/urban_corner.scn"),
                     HON_OK);
    static const want w[] = { { "A1", 1 }, { "A2", 1 }, { "B2", 1 }, { "C1", 1 },
                              { "C2", 1 }, { "A3", 2 }, { "B3", 2 }, { "C3", 2 },
                              { "D1", 2 }, { "D2", 2 }, { "D3", 2 } };
    EXPECT_REACH(t, "$ranger", w);
    agree(t, "$ranger", 6, 3);
    ck_ev(t, "marker_count($ranger, urban_fighter_used)", "0");
    tvm_free(t);
}
END_TEST

/* ---- units aboard -------------------------------------------------------------------------
 * A unit aboard starts from its carrier's front square (the square_of the Movement Action
 * starts from) and its first step gets it out. Worked out from the books before the program was
 * run; each step spends one square of the rifle squad's Movement Value 5
 * (PRESUMED.step_cost_one), more than these small boards need, and nobody else is in the way.
 *
 * aboard_landing.scn: the craft at C3 C4, its front C3, its back on the board's edge. The
 * squad leaves it only through one of the three squares in front (BRO.2.landing-craft.placement):
 * B2, C2, D2, one square each. Rows 3-4 are water, which a unit without Amphibious does not
 * enter (HH.water.enter), so the sand of rows 1-2 is all it has: A1, A2 (next to B2), B1, C1,
 * D1 and E1, E2 (next to D2) two squares each. Getting off ends nothing: neither book says it
 * ends the move, so from C2 (1) it walks on. */
START_TEST(aboard_landing_craft)
{
    static const want w[] = { { "B2", 1 }, { "C2", 1 }, { "D2", 1 }, { "A1", 2 }, { "A2", 2 },
                              { "B1", 2 }, { "C1", 2 }, { "D1", 2 }, { "E1", 2 }, { "E2", 2 } };
    EXPECT_REACH_WITH("../../tests/rules/boards/aboard_landing.scn", NULL, "$squad", w);
    agree_all("../../tests/rules/boards/aboard_landing.scn", 5, 4);
}
END_TEST

/* aboard_transport.scn: the half-track at B2 A2 (front B2, rear A2 on the board's west edge),
 * open ground. An infantry unit gets out at the start of its move onto a square next to the
 * vehicle (HH.transport.embark): A1, B1, C1, C2, C3, B3, A3, one square each (every square next
 * to the rear A2 is next to the front B2 as well). Then on: A4, B4, C4 (next to A3, B3, C3) and
 * D1, D2, D3, D4 (next to C1..C3) two squares, E1..E4 three. The rear square A2 is the
 * half-track's: stepping onto it at the end of the move from a square next to the vehicle gets
 * the squad back in (HH.transport.embark, at the end of its move, from an adjacent square;
 * Transport 4 holds it, HH.transport.capacity), two squares. B2, where it started, is not
 * listed. */
START_TEST(aboard_transport)
{
    static const want w[] = { { "A1", 1 }, { "B1", 1 }, { "C1", 1 }, { "C2", 1 }, { "C3", 1 },
                              { "B3", 1 }, { "A3", 1 }, { "A4", 2 }, { "B4", 2 }, { "C4", 2 },
                              { "D1", 2 }, { "D2", 2 }, { "D3", 2 }, { "D4", 2 }, { "A2", 2 },
                              { "E1", 3 }, { "E2", 3 }, { "E3", 3 }, { "E4", 3 } };
    EXPECT_REACH_WITH("../../tests/rules/boards/aboard_transport.scn", NULL, "$squad", w);
    agree_all("../../tests/rules/boards/aboard_transport.scn", 5, 4);
}
END_TEST

/* aboard_middle.scn: the half-track on C2 (front) and D2 (rear) in the open, away from the edges.
 * The squad gets out onto a square next to the vehicle (HH.transport.embark) — next to either of
 * its squares: B1 C1 D1 E1, B2 E2, B3 C3 D3 E3, one square each; E1, E2 and E3 are next to the
 * rear D2 only. Then on, two squares: A1..A4 and F1..F4 (next to the B and E columns), B4 C4 D4
 * E4 (next to row 3); D2, the vehicle's rear, by getting back in at the end of the move from a
 * square next to it, as aboard_transport's A2. C2, where the move starts, is not listed. */
START_TEST(aboard_transport_rear)
{
    static const want w[] = { { "B1", 1 }, { "C1", 1 }, { "D1", 1 }, { "E1", 1 }, { "B2", 1 },
                              { "E2", 1 }, { "B3", 1 }, { "C3", 1 }, { "D3", 1 }, { "E3", 1 },
                              { "A1", 2 }, { "A2", 2 }, { "A3", 2 }, { "A4", 2 }, { "F1", 2 },
                              { "F2", 2 }, { "F3", 2 }, { "F4", 2 }, { "B4", 2 }, { "C4", 2 },
                              { "D4", 2 }, { "E4", 2 }, { "D2", 2 } };
    EXPECT_REACH_WITH("../../tests/rules/boards/aboard_middle.scn", NULL, "$squad", w);
    agree_all("../../tests/rules/boards/aboard_middle.scn", 6, 4);
}
END_TEST

/* hay_entry.scn: a small haystack on D2 hides an axis squad; allied movers on D4 (rifle squad,
 * Movement Value 5), F4 (jeep) and B4 (officer), open ground all round. A haystack is a terrain
 * element: the hidden squad has no Zone of Control (BRO.2.haystack.spotted), so nothing stops the
 * squad on the way, and each square costs its distance in king steps from D4
 * (PRESUMED.step_by_step, .step_cost_one); a move may pass its friends on B4 and F4 but not end
 * there (PRESUMED.pass_friends). The books give a rule for going onto a haystack to a heavy
 * vehicle on a small one only (BRO.2.haystack.boom); for a squad the step onto D2 is refused
 * (PRESUMED.haystack_entry), so D2 is not listed, and nothing needs it: D1 costs 3 by C2 or E2 as
 * it would by D2. The farthest squares, column A and row 1, are 3 away. */
START_TEST(hay_entry)
{
    static const want w[] = { { "A1", 3 }, { "B1", 3 }, { "C1", 3 }, { "D1", 3 }, { "E1", 3 },
                              { "F1", 3 }, { "A2", 3 }, { "B2", 2 }, { "C2", 2 }, { "E2", 2 },
                              { "F2", 2 }, { "A3", 3 }, { "B3", 2 }, { "C3", 1 }, { "D3", 1 },
                              { "E3", 1 }, { "F3", 2 }, { "A4", 3 }, { "C4", 1 }, { "E4", 1 },
                              { "A5", 3 }, { "B5", 2 }, { "C5", 1 }, { "D5", 1 }, { "E5", 1 },
                              { "F5", 2 } };
    EXPECT_REACH_WITH("../../tests/rules/boards/hay_entry.scn", NULL, "$squad", w);
    /* the jeep and the officer too: every listed path plays, every step to D2 is refused */
    agree_all("../../tests/rules/boards/hay_entry.scn", 6, 5);
    /* hay_heavy.scn: a StuG on two squares may pass over a small haystack (BRO.2.haystack.boom):
     * a listed path over it plays, though the squad it uncovers on the way stands there */
    agree_all("../../tests/rules/boards/hay_heavy.scn", 6, 7);
}
END_TEST

/* Errors: no such unit, rules without the Movement Action. */
START_TEST(errors)
{
    tvm *t = bundled("beach_seawall.scn");
    listing *l = new_listing();
    ck_assert_int_eq(reach(t, "$nobody", l), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(t->d[0].code, 213);
    tvm_clear(t);
    /* A refused move, as hon_last_refusal gives it: rifle1 (D7) crosses the wire on C5/C6, a
     * Difficult Passage for infantry (BRO.1.3.barbed-wire) that ends the move, then steps on. */
    hon_refusal r;
    const char *path[] = { "C6", "C5", "C4" };
    ck_assert_int_eq(hon_move(t->vm, "$rifle1", path, 3, NULL), HON_ERR_RUNTIME);
    ck_assert(hon_last_refusal(t->vm, &r));
    ck_assert_str_eq(r.rule, "step_allowed.after_a_stop");
    ck_assert_str_eq(r.call, "step_allowed($rifle1, C6, C5, C4, 2)");
    ck_assert_str_eq(r.what, "a step of the Movement Action");
    /* of the rule's citations, the one the rules inside that led to it cite too: the wire is
     * a Difficult Passage (rev16a D3: the trench's, the wire's and the Zone of Control's were
     * all given) */
    ck_assert_str_eq(r.cites, "PRESUMED.difficult_passage_stops");
    ck_assert(strstr(r.inside, "difficult_passage.barbed_wire (BRO.1.3.barbed-wire)") != NULL);
    /* What the deciding rule's guard found: the step from C5 came after a step (prev C6 is
     * not C5) that had to end the move — the wire crossed from C6 to C5. Its `or` is one
     * operand, whose sides are calls, not comparisons: only prev and from have values shown. */
    ck_assert_str_eq(r.condition, "prev != from (prev = C6, from = C5) and "
                                  "(must_stop(u, prev, from) or zoc_stop(u, from))");
    ck_ev(t, "square_of($rifle1)", "D7");
    ck_assert(!hon_last_refusal(t->vm, &r)); /* the evaluation since was not refused */
    tvm_free(t);
    static const char *const bare = "kind infantry; side allies; terrain open;\n"
                                    "counter rifle: infantry { side allies }\n";
    t = tvm_new(bare);
    static const char *const b = "scenario \"b\"\nsize 2 x 1\nlegend . = open\nmap\n"
                                 "  1 . .\nunit r = rifle allies at A1\n";
    ck_assert_int_eq(hon_load_board_source(t->vm, "b.scn", b, strlen(b)), HON_OK);
    ck_assert_int_eq(reach(t, "$r", l), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(t->d[0].code, 401);
    free(l);
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reach");
    TCase *tc = tcase_create("reach");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, jeep_on_the_hill);
    tcase_add_test(tc, trench_infantry);
    tcase_add_test(tc, trench_light_vehicle);
    tcase_add_test(tc, trench_heavy_vehicle);
    tcase_add_test(tc, hill_infantry);
    tcase_add_test(tc, beach_infantry);
    tcase_add_test(tc, hill_heavy_vehicle);
    tcase_add_test(tc, beach_light_vehicle);
    tcase_add_test(tc, beach_heavy_vehicle);
    tcase_add_test(tc, beach_minefield_vehicles);
    tcase_add_test(tc, village_halftrack_turns);
    tcase_add_test(tc, errors);
    tcase_add_test(tc, trains_take_no_movement_action);
    tcase_add_test(tc, wrecks_take_no_movement_action);
    tcase_add_test(tc, urban_fighter_once_per_move);
    tcase_add_test(tc, every_bundled_board);
    tcase_add_test(tc, test_boards_agree);
    tcase_add_test(tc, through_the_area);
    tcase_add_test(tc, taking_the_train);
    tcase_add_test(tc, aboard_landing_craft);
    tcase_add_test(tc, aboard_transport);
    tcase_add_test(tc, aboard_transport_rear);
    tcase_add_test(tc, hay_entry);
    suite_add_tcase(s, tc);
    return check_run(s);
}
