/* tests/runtime/test_board.c — Check tests of runtime/board.{c,h}: board bounds, elevation,
 * terrain elements (membership, corners, outline), features on squares, sides and interspaces
 * (set semantics, facing checks, the inline reads of a side's features and a square's terrain), runs of a side feature joined end to end, units on one or
 * two squares, embarking, display names.
 * Expected values are reasoned in the comments; geometry indexes come from geo.h.
 */
#include <check.h>
#include <stdlib.h>

#include "board.h"
#include "check_run.h"
#include "geo.h"

static int sq(const board *b, const char *name)
{
    int s = geo_parse_square(board_grid(b), name);
    ck_assert_msg(s >= 0, "bad square %s", name);
    return s;
}

START_TEST(bounds)
{
    ck_assert_ptr_null(board_new(GEO_SQUARE, 0, 5));
    ck_assert_ptr_null(board_new(GEO_SQUARE, 5, GEO_MAX_DIM + 1));
    ck_assert_ptr_null(board_new((geo_topology)7, 5, 5));
    board *b = board_new(GEO_SQUARE, GEO_MAX_DIM, 1);
    ck_assert_ptr_nonnull(b);
    board_free(b);
    board_free(NULL);
    b = board_new(GEO_HEX, 4, 3);
    ck_assert_int_eq(board_grid(b)->topo, GEO_HEX);
    ck_assert_int_eq(board_grid(b)->w, 4);
    board_free(b);
}
END_TEST

START_TEST(elevation)
{
    board *b = board_new(GEO_SQUARE, 4, 4);
    ck_assert_int_eq(board_elevation(b, 5), 0);
    ck_assert_int_eq(board_set_elevation(b, 5, 2), GEO_OK);
    ck_assert_int_eq(board_elevation(b, 5), 2);
    ck_assert_int_eq(board_set_elevation(b, 16, 1), GEO_ERANGE);
    ck_assert_int_eq(board_elevation(b, -1), 0);
    board_free(b);
}
END_TEST

START_TEST(elements)
{
    /* An L-shaped hole element of type 5 on B2 C2 B3 C3 D3:
     *      A B C D E
     *    1 . . . . .
     *    2 . X X . .
     *    3 . X X X .
     * Corners (a horizontal AND a vertical neighbour outside): B2 (W A2, N B1), C2 (E D2,
     * N C1), B3 (W A3, S B4), D3 (E E3, N D2). C3 has B3 and D3 on both horizontal sides: no.
     * Outline: 5 squares * 4 sides - 2 * 5 shared sides (B2-C2, B2-B3, C2-C3, B3-C3, C3-D3) = 10. */
    board *b = board_new(GEO_SQUARE, 5, 4);
    int e = board_element_new(b, 5, "hole1");
    ck_assert_int_eq(e, 0);
    const char *in[] = { "B2", "C2", "B3", "C3", "D3" };
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(board_element_add(b, e, sq(b, in[i])), GEO_OK);
    ck_assert_int_eq(board_element_type(b, e), 5);
    ck_assert_str_eq(board_element_name(b, e), "hole1");
    ck_assert_int_eq(board_terrain(b, sq(b, "C3")), 5);
    ck_assert_int_eq(board_terrain(b, sq(b, "A1")), -1);
    ck_assert_int_eq(board_element_at(b, sq(b, "D3")), e);
    ck_assert(board_element_contains(b, e, sq(b, "B3")));
    ck_assert(!board_element_contains(b, e, sq(b, "D2")));
    ck_assert(!board_element_contains(b, -1, sq(b, "A1")));
    int out[32];
    ck_assert_uint_eq(board_element_squares(b, e, out, 32), 5);
    ck_assert_int_eq(out[0], sq(b, "B2")); /* square order: row by row */
    ck_assert_int_eq(out[4], sq(b, "D3"));
    ck_assert(board_element_corner(b, e, sq(b, "B2")));
    ck_assert(board_element_corner(b, e, sq(b, "C2")));
    ck_assert(board_element_corner(b, e, sq(b, "B3")));
    ck_assert(board_element_corner(b, e, sq(b, "D3")));
    ck_assert(!board_element_corner(b, e, sq(b, "C3")));
    ck_assert(!board_element_corner(b, e, sq(b, "A1")));
    ck_assert_uint_eq(board_element_outline(b, e, out, 32), 10);
    /* the side C3/D3 is inside the element; C2/D2 is on its outline */
    const geo_grid *g = board_grid(b);
    int inner = geo_side_between(g, sq(b, "C3"), sq(b, "D3"));
    int edge = geo_side_between(g, sq(b, "C2"), sq(b, "D2"));
    bool has_inner = false, has_edge = false;
    for (int i = 0; i < 10; i++) {
        has_inner = has_inner || out[i] == inner;
        has_edge = has_edge || out[i] == edge;
    }
    ck_assert(!has_inner);
    ck_assert(has_edge);
    /* a second element takes D3 away from the first */
    int e2 = board_element_new(b, 2, NULL);
    ck_assert_int_eq(e2, 1);
    board_element_add(b, e2, sq(b, "D3"));
    ck_assert_int_eq(board_element_at(b, sq(b, "D3")), e2);
    ck_assert_uint_eq(board_element_squares(b, e, NULL, 0), 4);
    ck_assert(board_element_corner(b, e, sq(b, "C3"))); /* now E of C3 (D3) is outside */
    ck_assert_int_eq(board_element_add(b, e, sq(b, "D3") + 100), GEO_ERANGE);
    ck_assert_int_eq(board_element_add(b, 9, 0), GEO_ERANGE);
    ck_assert_int_eq(board_element_add(b, -1, sq(b, "D3")), GEO_OK); /* back to no element */
    ck_assert_int_eq(board_terrain(b, sq(b, "D3")), -1);
    ck_assert_int_eq(board_element_new(b, BOARD_MAX_ID, "x"), -1);
    int value, facing;
    ck_assert_int_eq(board_element_set_attr(b, e, 2, GEO_S), GEO_OK);
    ck_assert(board_element_attr(b, e, &value, &facing));
    ck_assert_int_eq(value, 2);
    ck_assert_int_eq(facing, GEO_S);
    ck_assert_int_eq(board_element_set_attr(b, e, 0, 8), GEO_ERANGE);
    ck_assert_int_eq(board_element_count(b), 2);
    board_free(b);
}
END_TEST

/* An element's named values and markers are sets keyed by id, one per element, apart from each
 * other and from the element's single `value` (a building's Structure points are not its
 * Defensive Bonus). Ids 3 and 5 stand for value names, 7 for a marker. */
START_TEST(element_values_and_markers)
{
    board *b = board_new(GEO_SQUARE, 4, 4);
    int house = board_element_new(b, 1, "house"), barn = board_element_new(b, 1, "barn");
    board_element_add(b, house, sq(b, "A1"));
    board_element_add(b, barn, sq(b, "D4"));
    board_element_set_attr(b, house, 2, -1);
    board_feature f;
    ck_assert_int_eq(board_put(b, BOARD_AT_ELEMENT_VALUE, house, (board_feature){ 3, 4, -1 }),
                     GEO_OK);
    ck_assert_int_eq(board_put(b, BOARD_AT_ELEMENT_VALUE, house, (board_feature){ 5, 1, -1 }),
                     GEO_OK);
    ck_assert_int_eq(board_put(b, BOARD_AT_ELEMENT_MARKER, house, (board_feature){ 3, 2, -1 }),
                     GEO_OK);
    /* id 3 as a value and id 3 as a marker are two things */
    ck_assert(board_has(b, BOARD_AT_ELEMENT_VALUE, house, 3, &f));
    ck_assert_int_eq(f.value, 4);
    ck_assert(board_has(b, BOARD_AT_ELEMENT_MARKER, house, 3, &f));
    ck_assert_int_eq(f.value, 2);
    ck_assert(!board_has(b, BOARD_AT_ELEMENT_MARKER, house, 5, NULL));
    /* the single value stays what it was */
    int value, facing;
    ck_assert(board_element_attr(b, house, &value, &facing));
    ck_assert_int_eq(value, 2);
    /* the other element has none of them */
    ck_assert_uint_eq(board_features(b, BOARD_AT_ELEMENT_VALUE, barn, NULL, 0), 0);
    ck_assert_uint_eq(board_features(b, BOARD_AT_ELEMENT_MARKER, barn, NULL, 0), 0);
    board_feature all[4];
    ck_assert_uint_eq(board_features(b, BOARD_AT_ELEMENT_VALUE, house, all, 4), 2);
    ck_assert_int_eq(all[0].id, 3);
    ck_assert_int_eq(all[1].id, 5);
    /* a bad element is out of range; an element made later has its own empty sets */
    ck_assert_int_eq(board_put(b, BOARD_AT_ELEMENT_MARKER, 2, (board_feature){ 7, 1, -1 }),
                     GEO_ERANGE);
    int shed = board_element_new(b, 1, "shed");
    ck_assert_int_eq(board_put(b, BOARD_AT_ELEMENT_MARKER, shed, (board_feature){ 7, 1, -1 }),
                     GEO_OK);
    ck_assert(board_take(b, BOARD_AT_ELEMENT_MARKER, shed, 7));
    ck_assert(!board_has(b, BOARD_AT_ELEMENT_MARKER, shed, 7, NULL));
    ck_assert(board_has(b, BOARD_AT_ELEMENT_MARKER, house, 3, NULL));
    board_free(b);
}
END_TEST

START_TEST(features)
{
    board *b = board_new(GEO_SQUARE, 4, 4);
    const geo_grid *g = board_grid(b);
    int s = geo_side_between(g, sq(b, "B2"), sq(b, "B3"));
    board_feature f;
    /* a wall (id 1) and a window (id 2) facing B3, on the same side; set semantics by id */
    ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, s, (board_feature){ 1, 0, -1 }), GEO_OK);
    ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, s, (board_feature){ 2, 0, sq(b, "B3") }), GEO_OK);
    ck_assert(board_side_has(b, s, 1, NULL));
    ck_assert(board_side_has(b, s, 2, &f));
    ck_assert_int_eq(f.facing, sq(b, "B3"));
    ck_assert(!board_side_has(b, s, 3, NULL));
    board_feature all[4];
    ck_assert_uint_eq(board_features(b, BOARD_AT_SIDE, s, all, 4), 2);
    ck_assert_int_eq(all[0].id, 1); /* in the order first put */
    ck_assert_int_eq(all[1].id, 2);
    /* putting id 1 again replaces its attributes, keeps one entry and its place */
    ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, s, (board_feature){ 1, 7, -1 }), GEO_OK);
    ck_assert_uint_eq(board_features(b, BOARD_AT_SIDE, s, all, 4), 2);
    ck_assert_int_eq(all[0].value, 7);
    /* facing must be one of the side's squares */
    ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, s, (board_feature){ 4, 0, sq(b, "C2") }),
                     GEO_EINVAL);
    ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, s, (board_feature){ 4, 0, 99 }), GEO_EINVAL);
    ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, -1, (board_feature){ 4, 0, -1 }), GEO_ERANGE);
    ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, s, (board_feature){ BOARD_MAX_ID, 0, -1 }),
                     GEO_ERANGE);
    ck_assert_int_eq(board_put(b, BOARD_NPLACES, 0, (board_feature){ 1, 0, -1 }), GEO_ERANGE);
    /* take one away; the other stays */
    ck_assert(board_take(b, BOARD_AT_SIDE, s, 1));
    ck_assert(!board_take(b, BOARD_AT_SIDE, s, 1));
    ck_assert_uint_eq(board_features(b, BOARD_AT_SIDE, s, all, 4), 1);
    ck_assert_int_eq(all[0].id, 2);
    /* squares and interspaces hold their own sets */
    int is = geo_interspace_of(g, sq(b, "C3"), GEO_NW);
    ck_assert_int_eq(board_put(b, BOARD_AT_INTERSPACE, is, (board_feature){ 0, 3, -1 }), GEO_OK);
    ck_assert(board_has(b, BOARD_AT_INTERSPACE, is, 0, &f));
    ck_assert_int_eq(f.value, 3);
    ck_assert(!board_has(b, BOARD_AT_SQUARE, sq(b, "C3"), 0, NULL));
    ck_assert_int_eq(board_put(b, BOARD_AT_INTERSPACE, 25, (board_feature){ 0, 0, -1 }),
                     GEO_ERANGE);
    ck_assert_int_eq(board_put(b, BOARD_AT_SQUARE, 0, (board_feature){ 6, 1, -1 }), GEO_OK);
    ck_assert(board_has(b, BOARD_AT_SQUARE, 0, 6, NULL));
    /* many features on many places: freed nodes are reused, nothing leaks (sanitizers) */
    for (int round = 0; round < 3; round++) {
        for (int side = 0; side < geo_side_count(g); side++)
            for (int id = 0; id < 5; id++)
                ck_assert_int_eq(
                    board_put(b, BOARD_AT_SIDE, side, (board_feature){ id, round, -1 }), GEO_OK);
        for (int side = 0; side < geo_side_count(g); side++)
            for (int id = 0; id < 5; id += 2)
                board_take(b, BOARD_AT_SIDE, side, id);
    }
    ck_assert_uint_eq(board_features(b, BOARD_AT_SIDE, s, all, 4), 2); /* ids 1 and 3 */
    board_free(b);
}
END_TEST

/* board_element_at_sq and board_terrain_at_sq, the inline reads of a square's element and
 * terrain, say what board_element_at and board_terrain say as squares join, move between and
 * leave elements: a wood (type 3) and a building (type 9) on a 3x3 board. */
START_TEST(element_at_sq)
{
    board *b = board_new(GEO_SQUARE, 3, 3);
    int wood = board_element_new(b, 3, "wood"), house = board_element_new(b, 9, NULL);
    int a = sq(b, "A1"), c = sq(b, "C3");
    ck_assert_int_eq(board_element_at_sq(b, a), -1); /* a new board: no terrain anywhere */
    ck_assert_int_eq(board_terrain_at_sq(b, a), -1);
    ck_assert_int_eq(board_element_add(b, wood, a), GEO_OK);
    ck_assert_int_eq(board_element_add(b, house, c), GEO_OK);
    ck_assert_int_eq(board_element_at_sq(b, a), wood);
    ck_assert_int_eq(board_terrain_at_sq(b, a), 3);
    ck_assert_int_eq(board_terrain_at_sq(b, c), 9);
    /* A1 moves from the wood into the building, then into no element */
    ck_assert_int_eq(board_element_add(b, house, a), GEO_OK);
    ck_assert_int_eq(board_element_at_sq(b, a), house);
    ck_assert_int_eq(board_terrain_at_sq(b, a), 9);
    ck_assert_int_eq(board_element_add(b, -1, a), GEO_OK);
    ck_assert_int_eq(board_element_at_sq(b, a), -1);
    ck_assert_int_eq(board_terrain_at_sq(b, a), -1);
    ck_assert_int_eq(board_terrain(b, a), -1);
    /* a bad element changes nothing */
    ck_assert_int_eq(board_element_add(b, 7, c), GEO_ERANGE);
    ck_assert_int_eq(board_terrain_at_sq(b, c), 9);
    for (int q = 0; q < 9; q++) { /* the inline reads agree with the calls everywhere */
        ck_assert_int_eq(board_element_at_sq(b, q), board_element_at(b, q));
        ck_assert_int_eq(board_terrain_at_sq(b, q), board_terrain(b, q));
    }
    board_free(b);
}
END_TEST

/* board_side_has_id, the inline read of a side's features, says what board_side_has says
 * through puts and takes: ids 0 and 63 (the first and last kept as a bit), 64 and
 * BOARD_MAX_ID - 1 (past the bits: the list is asked), a negative id (never there). */
START_TEST(side_has_id)
{
    board *b = board_new(GEO_SQUARE, 3, 3);
    int s = geo_side_between(board_grid(b), sq(b, "B2"), sq(b, "B3"));
    int t = geo_side_between(board_grid(b), sq(b, "A1"), sq(b, "B1"));
    const int ids[] = { 0, 63, 64, BOARD_MAX_ID - 1 };
    for (int i = 0; i < 4; i++)
        ck_assert(!board_side_has_id(b, s, ids[i]));
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, s, (board_feature){ ids[i], 0, -1 }), GEO_OK);
    for (int i = 0; i < 4; i++) {
        ck_assert(board_side_has_id(b, s, ids[i]));
        ck_assert(!board_side_has_id(b, t, ids[i])); /* the other side holds nothing */
    }
    ck_assert(!board_side_has_id(b, s, 1));
    ck_assert(!board_side_has_id(b, s, -1));
    /* putting an id again keeps it there; taking it takes it from the bits too */
    ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, s, (board_feature){ 63, 5, -1 }), GEO_OK);
    ck_assert(board_side_has_id(b, s, 63));
    ck_assert(board_take(b, BOARD_AT_SIDE, s, 63));
    ck_assert(board_take(b, BOARD_AT_SIDE, s, 64));
    ck_assert(!board_side_has_id(b, s, 63));
    ck_assert(!board_side_has_id(b, s, 64));
    ck_assert(board_side_has_id(b, s, 0));
    ck_assert(board_side_has_id(b, s, BOARD_MAX_ID - 1));
    /* a take of what is not there, or of a place off the board, changes nothing */
    ck_assert(!board_take(b, BOARD_AT_SIDE, s, 63));
    ck_assert(!board_take(b, BOARD_AT_SIDE, -1, 0));
    ck_assert(board_side_has_id(b, s, 0));
    /* the features on squares and interspaces are not a side's */
    ck_assert_int_eq(board_put(b, BOARD_AT_SQUARE, 0, (board_feature){ 7, 0, -1 }), GEO_OK);
    ck_assert_int_eq(board_put(b, BOARD_AT_INTERSPACE, 0, (board_feature){ 8, 0, -1 }), GEO_OK);
    ck_assert(!board_side_has_id(b, 0, 7));
    ck_assert(!board_side_has_id(b, 0, 8));
    board_free(b);
}
END_TEST

/* The side between two named squares of b. */
static int side(const board *b, const char *p, const char *q)
{
    int s = geo_side_between(board_grid(b), sq(b, p), sq(b, q));
    ck_assert_msg(s >= 0, "no side %s/%s", p, q);
    return s;
}

START_TEST(side_runs)
{
    /* 5x4 squares, feature 1 (a ridge) on B1/B2, C1/C2 and C2/D2: B1/B2 and C1/C2 meet at the
     * grid point below-right of B1 (B1, C1, B2, C2 all on the board), C1/C2 and C2/D2 at the one
     * below-right of C1: one run. A3/A4 alone: its west end is on the board's edge and nothing
     * at its east end carries a ridge. */
    board *b = board_new(GEO_SQUARE, 5, 4);
    int b12 = side(b, "B1", "B2"), c12 = side(b, "C1", "C2"), cd2 = side(b, "C2", "D2");
    int a34 = side(b, "A3", "A4");
    int ridge[] = { b12, c12, cd2, a34 };
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, ridge[i], (board_feature){ 1, 0, -1 }),
                         GEO_OK);
    int out[8];
    /* the run, breadth-first from its lowest side (B1/B2: horizontal sides come first, row 1
     * before row 2... B1/B2 is 1*5+1 = 6, C1/C2 7, C2/D2 a vertical one) */
    int given[] = { cd2 };
    ck_assert_uint_eq(board_side_runs(b, 1, given, 1, out, 8), 3);
    ck_assert_int_eq(out[0], b12);
    ck_assert_int_eq(out[1], c12);
    ck_assert_int_eq(out[2], cd2);
    /* the total even when it does not fit */
    ck_assert_uint_eq(board_side_runs(b, 1, given, 1, out, 1), 3);
    ck_assert_int_eq(out[0], b12);
    /* each run once, in the order of the given sides; sides without the feature, off the
     * board, or another feature add nothing */
    int several[] = { a34, side(b, "D4", "E4"), c12, 9999, b12, -1 };
    ck_assert_uint_eq(board_side_runs(b, 1, several, 6, out, 8), 4);
    ck_assert_int_eq(out[0], a34);
    ck_assert_int_eq(out[1], b12);
    /* a run cut by the cap: the first of b12's three sides fits, nothing is written past */
    int small[3] = { -7, -7, -7 };
    ck_assert_uint_eq(board_side_runs(b, 1, several, 6, small, 2), 4);
    ck_assert_int_eq(small[0], a34);
    ck_assert_int_eq(small[1], b12);
    ck_assert_int_eq(small[2], -7);
    ck_assert_uint_eq(board_side_runs(b, 2, several, 6, out, 8), 0);
    ck_assert_uint_eq(board_side_runs(b, -1, several, 6, out, 8), 0);
    /* taking C1/C2 away splits the run (the kept runs are dropped with any side change) */
    ck_assert(board_take(b, BOARD_AT_SIDE, c12, 1));
    ck_assert_uint_eq(board_side_runs(b, 1, given, 1, out, 8), 1);
    ck_assert_int_eq(out[0], cd2);
    /* putting it back as feature 2 leaves feature 1's runs split; asking for 2 and then 1 again
     * keeps the answers right */
    ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, c12, (board_feature){ 2, 0, -1 }), GEO_OK);
    ck_assert_uint_eq(board_side_runs(b, 2, &c12, 1, out, 8), 1);
    ck_assert_uint_eq(board_side_runs(b, 1, &b12, 1, out, 8), 1);
    ck_assert_int_eq(out[0], b12);
    ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, c12, (board_feature){ 1, 0, -1 }), GEO_OK);
    ck_assert_uint_eq(board_side_runs(b, 1, &b12, 1, out, 8), 3);
    board_free(b);

    /* hexes: three sides meet at a vertex. At the vertex between B2's N and NE sides, B2, its N
     * neighbour B1 and its NE neighbour meet: B2/B1 and B1/NE are joined there; B2's S side is
     * across the hex from its N side and joins neither. */
    b = board_new(GEO_HEX, 4, 4);
    const geo_grid *g = board_grid(b);
    int b2 = sq(b, "B2"), ne = geo_neighbour(g, b2, GEO_NE), s2 = geo_neighbour(g, b2, GEO_S);
    int n_side = side(b, "B2", "B1"), top = geo_side_between(g, sq(b, "B1"), ne);
    int s_side = geo_side_between(g, b2, s2);
    int hex[] = { n_side, top, s_side };
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(board_put(b, BOARD_AT_SIDE, hex[i], (board_feature){ 1, 0, -1 }), GEO_OK);
    ck_assert_uint_eq(board_side_runs(b, 1, &n_side, 1, out, 8), 2);
    ck_assert((out[0] == n_side && out[1] == top) || (out[0] == top && out[1] == n_side));
    ck_assert_uint_eq(board_side_runs(b, 1, &s_side, 1, out, 8), 1);
    board_free(b);
}
END_TEST

START_TEST(units)
{
    board *b = board_new(GEO_SQUARE, 6, 6);
    int out[8], s0, s1;
    ck_assert_int_eq(board_place_unit(b, 3, sq(b, "B2"), -1), GEO_OK);
    ck_assert(board_unit_present(b, 3));
    ck_assert(board_unit_squares(b, 3, &s0, &s1));
    ck_assert_int_eq(s0, sq(b, "B2"));
    ck_assert_int_eq(s1, -1);
    ck_assert_int_eq(board_unit_orientation(b, 3), -1);
    /* a 2-square tank, front C5, rear D5: its rear lies east of its front */
    ck_assert_int_eq(board_place_unit(b, 7, sq(b, "C5"), sq(b, "D5")), GEO_OK);
    ck_assert_int_eq(board_unit_orientation(b, 7), GEO_E);
    ck_assert_uint_eq(board_units_at(b, sq(b, "D5"), out, 8), 1);
    ck_assert_int_eq(out[0], 7);
    /* two squares must share a side */
    ck_assert_int_eq(board_place_unit(b, 8, sq(b, "C5"), sq(b, "D6")), GEO_EINVAL);
    ck_assert_int_eq(board_place_unit(b, 8, sq(b, "C5"), sq(b, "E5")), GEO_EINVAL);
    ck_assert_int_eq(board_place_unit(b, 8, sq(b, "C5"), 36), GEO_ERANGE);
    ck_assert_int_eq(board_place_unit(b, BOARD_MAX_UNITS, 0, -1), GEO_ERANGE);
    ck_assert(!board_unit_present(b, 8));
    /* stacking is a rules question: the board keeps both, in placement order */
    ck_assert_int_eq(board_place_unit(b, 8, sq(b, "C5"), -1), GEO_OK);
    ck_assert_uint_eq(board_units_at(b, sq(b, "C5"), out, 8), 2);
    ck_assert_int_eq(out[0], 7);
    ck_assert_int_eq(out[1], 8);
    /* moving leaves the old squares */
    ck_assert_int_eq(board_place_unit(b, 7, sq(b, "A1"), sq(b, "A2")), GEO_OK);
    ck_assert_int_eq(board_unit_orientation(b, 7), GEO_S);
    ck_assert_uint_eq(board_units_at(b, sq(b, "D5"), out, 8), 0);
    ck_assert_uint_eq(board_units_at(b, sq(b, "C5"), out, 8), 1);
    /* embark 8 in 7 and 3 in 8 (nested): both stand where 7 stands */
    ck_assert_int_eq(board_embark(b, 8, 7), GEO_OK);
    ck_assert_int_eq(board_embark(b, 3, 8), GEO_OK);
    ck_assert_uint_eq(board_units_at(b, sq(b, "C5"), out, 8), 0);
    ck_assert_int_eq(board_unit_embarked_in(b, 3), 8);
    ck_assert(board_unit_squares(b, 3, &s0, &s1));
    ck_assert_int_eq(s0, sq(b, "A1"));
    ck_assert_int_eq(s1, sq(b, "A2"));
    ck_assert_uint_eq(board_units_in(b, 7, out, 8), 1);
    ck_assert_int_eq(out[0], 8);
    /* no cycles, no self, no absent transport */
    ck_assert_int_eq(board_embark(b, 7, 3), GEO_EINVAL);
    ck_assert_int_eq(board_embark(b, 7, 7), GEO_EINVAL);
    ck_assert_int_eq(board_embark(b, 7, 42), GEO_EINVAL);
    ck_assert_uint_eq(board_units(b, out, 8), 3);
    /* disembark by placing */
    ck_assert_int_eq(board_place_unit(b, 8, sq(b, "B1"), -1), GEO_OK);
    ck_assert_int_eq(board_unit_embarked_in(b, 8), -1);
    ck_assert_uint_eq(board_units_in(b, 7, out, 8), 0);
    board_remove_unit(b, 7);
    ck_assert(!board_unit_present(b, 7));
    ck_assert(!board_unit_squares(b, 7, &s0, &s1));
    ck_assert_uint_eq(board_units_at(b, sq(b, "A1"), out, 8), 0);
    board_remove_unit(b, 999); /* absent: nothing happens */
    ck_assert_uint_eq(board_units(b, out, 8), 2);
    board_free(b);
}
END_TEST

/* The board's per-square lists (board_units_at) and per-transport lists (board_units_in, kept
 * since sitting 20 so that a carrier's passengers cost their number, not the board's units)
 * against a plain model of each unit (present, carrier, square) through 4,000 random placements,
 * embarkings (board_embark: a present transport; board_restore_embarked: any, as undo does),
 * and removals: after each step every list holds exactly the units the model puts there,
 * units_in in id order. Cycles are refused (GEO_EINVAL) and change nothing, in both. */
#define MU 12
static bool model_cycle(const int *in, int unit, int transport)
{
    for (int t = transport, hops = 0; t >= 0 && hops <= MU; t = in[t], hops++)
        if (t == unit)
            return true;
    return false;
}

START_TEST(unit_lists_follow_every_change)
{
    board *b = board_new(GEO_SQUARE, 3, 3);
    bool present[MU] = { 0 };
    int in[MU], at[MU];
    for (int u = 0; u < MU; u++)
        in[u] = at[u] = -1;
    uint32_t seed = 12345;
    for (int step = 0; step < 4000; step++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t r = seed >> 8;
        int u = (int)(r % MU), t = (int)((r / MU) % MU), op = (int)((r / (MU * MU)) % 4);
        int q = (int)((r / (MU * MU * 4)) % 9);
        if (op == 0) { /* place on q */
            ck_assert_int_eq(board_place_unit(b, u, q, -1), GEO_OK);
            present[u] = true, in[u] = -1, at[u] = q;
        } else if (op == 1 || op == 2) { /* embark in t (op 1: only a present t) */
            bool ok = u != t && !model_cycle(in, u, t) && (op == 2 || present[t]);
            geo_status st = op == 1 ? board_embark(b, u, t) : board_restore_embarked(b, u, t);
            ck_assert_int_eq(st, ok ? GEO_OK : GEO_EINVAL);
            if (ok)
                present[u] = true, in[u] = t, at[u] = -1;
        } else { /* remove */
            board_remove_unit(b, u);
            present[u] = false, in[u] = -1, at[u] = -1;
        }
        int out[MU + 1];
        for (int c = 0; c < MU; c++) {
            size_t n = board_units_in(b, c, out, MU + 1), k = 0;
            for (int v = 0; v < MU; v++)
                if (present[v] && in[v] == c) {
                    ck_assert_msg(k < n && out[k] == v, "step %d: units_in(%d)", step, c);
                    k++;
                }
            ck_assert_uint_eq(n, k);
        }
        for (int sq = 0; sq < 9; sq++) {
            size_t n = board_units_at(b, sq, out, MU + 1), k = 0;
            for (int v = 0; v < MU; v++)
                if (present[v] && in[v] < 0 && at[v] == sq) {
                    bool found = false;
                    for (size_t i = 0; i < n; i++)
                        found |= out[i] == v;
                    ck_assert_msg(found, "step %d: units_at(%d) lacks %d", step, sq, v);
                    k++;
                }
            ck_assert_uint_eq(n, k);
        }
    }
    board_free(b);
}
END_TEST
#undef MU

START_TEST(names)
{
    board *b = board_new(GEO_SQUARE, 2, 2);
    ck_assert_ptr_null(board_name(b, BOARD_TERRAIN, 3));
    ck_assert_int_eq(board_set_name(b, BOARD_TERRAIN, 3, "woods", 'W'), GEO_OK);
    ck_assert_str_eq(board_name(b, BOARD_TERRAIN, 3), "woods");
    ck_assert_int_eq(board_symbol(b, BOARD_TERRAIN, 3), 'W');
    ck_assert_ptr_null(board_name(b, BOARD_SIDE_FEATURE, 3)); /* kinds are separate */
    ck_assert_int_eq(board_set_name(b, BOARD_TERRAIN, 3, "forest", 0), GEO_OK);
    ck_assert_str_eq(board_name(b, BOARD_TERRAIN, 3), "forest");
    ck_assert_int_eq(board_set_name(b, BOARD_TERRAIN, -1, "x", 0), GEO_ERANGE);
    ck_assert_int_eq(board_set_name(b, BOARD_NKINDS, 0, "x", 0), GEO_ERANGE);
    ck_assert_int_eq(board_set_unit_label(b, 4, "rifle1"), GEO_OK);
    ck_assert_str_eq(board_unit_label(b, 4), "rifle1");
    ck_assert_ptr_null(board_unit_label(b, 5));
    ck_assert(!board_unit_present(b, 4)); /* a label does not place a unit */
    board_free(b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("board");
    TCase *tc = tcase_create("board");
    tcase_add_test(tc, bounds);
    tcase_add_test(tc, elevation);
    tcase_add_test(tc, elements);
    tcase_add_test(tc, features);
    tcase_add_test(tc, element_values_and_markers);
    tcase_add_test(tc, side_runs);
    tcase_add_test(tc, side_has_id);
    tcase_add_test(tc, element_at_sq);
    tcase_add_test(tc, units);
    tcase_add_test(tc, unit_lists_follow_every_change);
    tcase_add_test(tc, names);
    suite_add_tcase(s, tc);
    return check_run(s);
}
