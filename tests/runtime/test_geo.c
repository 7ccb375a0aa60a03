/* tests/runtime/test_geo.c — Check tests of runtime/geo.{c,h}: coordinate names, neighbours and
 * distance on squares and hexes, sides (and those meeting end to end) and interspaces, line tracing (supercover with corner
 * touches), side of a line, the Bresenham walk and elevation changes along a line.
 * Every expected value is worked out by hand in the comments next to it (docs/spec/board.md
 * states the conventions: A1 top-left, Chebyshev distance, odd-q hexes, doubled coordinates).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "check_run.h"
#include "geo.h"

static const geo_grid G8x6 = { 8, 6, GEO_SQUARE };
static const geo_grid G10 = { 10, 10, GEO_SQUARE };

static int sq(const geo_grid *g, const char *name)
{
    int s = geo_parse_square(g, name);
    ck_assert_msg(s >= 0, "bad square %s", name);
    return s;
}

/* ---- coordinates ---- */

START_TEST(parse_examples)
{
    int x, y;
    ck_assert_int_eq(geo_parse_xy("A1", 2, &x, &y), GEO_OK);
    ck_assert_int_eq(x, 0);
    ck_assert_int_eq(y, 0);
    ck_assert_int_eq(geo_parse_xy("C4", 2, &x, &y), GEO_OK); /* third column, fourth row */
    ck_assert_int_eq(x, 2);
    ck_assert_int_eq(y, 3);
    ck_assert_int_eq(geo_parse_xy("c4", 2, &x, &y), GEO_OK); /* case-insensitive */
    ck_assert_int_eq(x, 2);
    ck_assert_int_eq(y, 3);
    ck_assert_int_eq(geo_parse_xy("Z1", 2, &x, &y), GEO_OK); /* 26th column */
    ck_assert_int_eq(x, 25);
    ck_assert_int_eq(geo_parse_xy("AA1", 3, &x, &y), GEO_OK); /* after Z comes AA: 27th */
    ck_assert_int_eq(x, 26);
    ck_assert_int_eq(geo_parse_xy("AZ10", 4, &x, &y), GEO_OK); /* 26 + 26 = 52nd column */
    ck_assert_int_eq(x, 51);
    ck_assert_int_eq(y, 9);
    ck_assert_int_eq(geo_parse_xy("BA3", 3, &x, &y), GEO_OK); /* 53rd */
    ck_assert_int_eq(x, 52);
    ck_assert_int_eq(y, 2);
    ck_assert_int_eq(geo_parse_square(&G8x6, "C4"), 3 * 8 + 2);
    ck_assert_int_eq(geo_parse_square(&G8x6, "H6"), 47); /* last square of 8 x 6 */
}
END_TEST

START_TEST(parse_errors)
{
    int x, y;
    ck_assert_int_eq(geo_parse_xy("", 0, &x, &y), GEO_ESYNTAX);
    ck_assert_int_eq(geo_parse_xy("C", 1, &x, &y), GEO_ESYNTAX);   /* no row */
    ck_assert_int_eq(geo_parse_xy("4", 1, &x, &y), GEO_ESYNTAX);   /* no column */
    ck_assert_int_eq(geo_parse_xy("4C", 2, &x, &y), GEO_ESYNTAX);  /* backwards */
    ck_assert_int_eq(geo_parse_xy("C0", 2, &x, &y), GEO_ESYNTAX);  /* rows start at 1 */
    ck_assert_int_eq(geo_parse_xy("C04", 3, &x, &y), GEO_ESYNTAX); /* no leading zero */
    ck_assert_int_eq(geo_parse_xy("C4x", 3, &x, &y), GEO_ESYNTAX); /* trailing junk */
    ck_assert_int_eq(geo_parse_xy("C-4", 3, &x, &y), GEO_ESYNTAX);
    ck_assert_int_eq(geo_parse_xy("C 4", 3, &x, &y), GEO_ESYNTAX);
    ck_assert_int_eq(geo_parse_xy("ABCD1", 5, &x, &y), GEO_ERANGE); /* 4 letters */
    ck_assert_int_eq(geo_parse_xy("C123456", 7, &x, &y), GEO_ERANGE);
    ck_assert_int_eq(geo_parse_square(&G8x6, "I1"), -1); /* column 9 of 8 */
    ck_assert_int_eq(geo_parse_square(&G8x6, "A7"), -1); /* row 7 of 6 */
    ck_assert_int_eq(geo_parse_square(&G8x6, NULL), -1);
    ck_assert_int_eq(geo_parse_square(&G8x6, "é1"), -1);
}
END_TEST

START_TEST(format_round_trip)
{
    char buf[16];
    ck_assert_uint_eq(geo_format_xy(0, 0, buf, sizeof buf), 2);
    ck_assert_str_eq(buf, "A1");
    geo_format_xy(25, 9, buf, sizeof buf);
    ck_assert_str_eq(buf, "Z10");
    geo_format_xy(26, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "AA1");
    geo_format_xy(701, 0, buf, sizeof buf); /* 26 + 26*26 = 702 columns end at ZZ */
    ck_assert_str_eq(buf, "ZZ1");
    geo_format_xy(702, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "AAA1");
    /* truncation reports the full length like snprintf */
    ck_assert_uint_eq(geo_format_xy(26, 99, buf, 3), 5);
    ck_assert_str_eq(buf, "AA");
    for (int x = 0; x < 800; x++)
        for (int y = 0; y < 300; y += 7) {
            int px, py;
            size_t n = geo_format_xy(x, y, buf, sizeof buf);
            ck_assert_int_eq(geo_parse_xy(buf, n, &px, &py), GEO_OK);
            ck_assert_int_eq(px, x);
            ck_assert_int_eq(py, y);
        }
    geo_format_square(&G8x6, 99, buf, sizeof buf);
    ck_assert_str_eq(buf, "?");
}
END_TEST

/* ---- neighbours and distance ---- */

START_TEST(square_neighbours)
{
    int out[8];
    /* C3 on 8x6: N C2, NE D2, E D3, SE D4, S C4, SW B4, W B3, NW B2 (clockwise from north) */
    ck_assert_uint_eq(geo_neighbours(&G8x6, sq(&G8x6, "C3"), true, out), 8);
    const char *want[8] = { "C2", "D2", "D3", "D4", "C4", "B4", "B3", "B2" };
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(out[i], sq(&G8x6, want[i]));
    ck_assert_uint_eq(geo_neighbours(&G8x6, sq(&G8x6, "C3"), false, out), 4);
    ck_assert_int_eq(out[0], sq(&G8x6, "C2"));
    ck_assert_int_eq(out[3], sq(&G8x6, "B3"));
    /* A1, the top-left corner: E B1 and S A2; with diagonals also SE B2 */
    ck_assert_uint_eq(geo_neighbours(&G8x6, 0, false, out), 2);
    ck_assert_int_eq(out[0], sq(&G8x6, "B1"));
    ck_assert_int_eq(out[1], sq(&G8x6, "A2"));
    ck_assert_uint_eq(geo_neighbours(&G8x6, 0, true, out), 3);
    ck_assert_int_eq(out[1], sq(&G8x6, "B2"));
    ck_assert_int_eq(geo_neighbour(&G8x6, 0, GEO_N), -1);
    ck_assert_int_eq(geo_direction(&G8x6, sq(&G8x6, "C3"), sq(&G8x6, "D4")), GEO_SE);
    ck_assert_int_eq(geo_direction(&G8x6, sq(&G8x6, "C3"), sq(&G8x6, "E3")), -1);
}
END_TEST

START_TEST(square_distance)
{
    /* Chebyshev: a diagonal step costs one square. A1 -> C4: 2 columns, 3 rows -> 3. */
    ck_assert_int_eq(geo_distance(&G8x6, sq(&G8x6, "A1"), sq(&G8x6, "C4")), 3);
    ck_assert_int_eq(geo_distance(&G8x6, sq(&G8x6, "A1"), sq(&G8x6, "H6")), 7);
    ck_assert_int_eq(geo_distance(&G8x6, sq(&G8x6, "D4"), sq(&G8x6, "D4")), 0);
    ck_assert_int_eq(geo_distance(&G8x6, sq(&G8x6, "B2"), sq(&G8x6, "D4")), 2);
    ck_assert_int_eq(geo_distance(&G8x6, sq(&G8x6, "B2"), sq(&G8x6, "E2")), 3);
    int out[64];
    /* radius 1 around C3 is a 3x3 block; around A1 it is cut to 2x2; radius 2 at A1 is 3x3 */
    ck_assert_uint_eq(geo_squares_within(&G8x6, sq(&G8x6, "C3"), 1, out, 64), 9);
    ck_assert_uint_eq(geo_squares_within(&G8x6, 0, 1, out, 64), 4);
    ck_assert_int_eq(out[0], 0);
    ck_assert_int_eq(out[3], sq(&G8x6, "B2"));
    ck_assert_uint_eq(geo_squares_within(&G8x6, 0, 2, out, 2), 9); /* total beyond cap */
    ck_assert_uint_eq(geo_squares_within(&G8x6, 0, -1, out, 64), 0);
    ck_assert_uint_eq(geo_squares_within(&G8x6, 0, 99, NULL, 0), 48);
}
END_TEST

START_TEST(hex_neighbours_distance)
{
    geo_grid h = { 6, 6, GEO_HEX };
    int out[8];
    /* B2 = (1,1), an odd column (shifted down): N B1, NE C2, SE C3, S B3, SW A3, NW A2 */
    ck_assert_uint_eq(geo_neighbours(&h, sq(&h, "B2"), true, out), 6);
    const char *odd[6] = { "B1", "C2", "C3", "B3", "A3", "A2" };
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(out[i], sq(&h, odd[i]));
    /* C3 = (2,2), an even column: N C2, NE D2, SE D3, S C4, SW B3, NW B2 */
    ck_assert_uint_eq(geo_neighbours(&h, sq(&h, "C3"), false, out), 6);
    const char *even[6] = { "C2", "D2", "D3", "C4", "B3", "B2" };
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(out[i], sq(&h, even[i]));
    /* A1 (even column, top-left): only SE B1 and S A2 are on the board */
    ck_assert_uint_eq(geo_neighbours(&h, 0, true, out), 2);
    ck_assert_int_eq(out[0], sq(&h, "B1"));
    ck_assert_int_eq(out[1], sq(&h, "A2"));
    ck_assert_int_eq(geo_neighbour(&h, 0, GEO_E), -1); /* no E on flat-topped hexes */
    /* A1 -> D1: 3 column steps (SE to B1, NE to C1... each step changes column by one) */
    ck_assert_int_eq(geo_distance(&h, 0, sq(&h, "D1")), 3);
    ck_assert_int_eq(geo_distance(&h, 0, sq(&h, "A4")), 3);
    /* A1 -> C3: SE B1, SE C2, S C3 = 3; in 2 steps column C is reached only at C1 or C2 */
    ck_assert_int_eq(geo_distance(&h, 0, sq(&h, "C3")), 3);
    ck_assert_int_eq(geo_distance(&h, 0, sq(&h, "C2")), 2);
    /* every neighbour is at distance 1 */
    for (int s = 0; s < 36; s++) {
        size_t n = geo_neighbours(&h, s, true, out);
        for (size_t i = 0; i < n; i++)
            ck_assert_int_eq(geo_distance(&h, s, out[i]), 1);
    }
    /* radius 1 around C3: itself and its 6 neighbours */
    int ring[16];
    ck_assert_uint_eq(geo_squares_within(&h, sq(&h, "C3"), 1, ring, 16), 7);
}
END_TEST

/* ---- sides and interspaces ---- */

START_TEST(square_sides)
{
    /* 8x6: horizontal sides first, y*w+x is the top of (x,y); C3's top (between C2 and C3) is
     * 2*8+2 = 18. Vertical sides start at 8*7 = 56; the left of D2 = 56 + 1*9 + 3 = 68. */
    ck_assert_int_eq(geo_side_between(&G8x6, sq(&G8x6, "C2"), sq(&G8x6, "C3")), 18);
    ck_assert_int_eq(geo_side_between(&G8x6, sq(&G8x6, "C3"), sq(&G8x6, "C2")), 18);
    ck_assert_int_eq(geo_side_between(&G8x6, sq(&G8x6, "C2"), sq(&G8x6, "D2")), 68);
    ck_assert_int_eq(geo_side_between(&G8x6, sq(&G8x6, "C2"), sq(&G8x6, "D3")), -1); /* diagonal */
    ck_assert_int_eq(geo_side_between(&G8x6, sq(&G8x6, "C2"), sq(&G8x6, "E2")), -1);
    ck_assert_int_eq(geo_side_of(&G8x6, sq(&G8x6, "C2"), GEO_S), 18);
    ck_assert_int_eq(geo_side_of(&G8x6, sq(&G8x6, "C2"), GEO_E), 68);
    ck_assert_int_eq(geo_side_of(&G8x6, sq(&G8x6, "C2"), GEO_NE), -1);
    ck_assert_int_eq(geo_side_count(&G8x6), 8 * 7 + 9 * 6);
    int a, b;
    ck_assert(geo_side_squares(&G8x6, 18, &a, &b));
    ck_assert_int_eq(a, sq(&G8x6, "C2"));
    ck_assert_int_eq(b, sq(&G8x6, "C3"));
    ck_assert(geo_side_squares(&G8x6, geo_side_of(&G8x6, 0, GEO_W), &a, &b)); /* border */
    ck_assert_int_eq(a, -1);
    ck_assert_int_eq(b, 0);
    ck_assert(!geo_side_squares(&G8x6, 9999, &a, &b));
    /* every side with two squares is the side between them */
    for (int s = 0; s < geo_side_count(&G8x6); s++) {
        ck_assert(geo_side_squares(&G8x6, s, &a, &b));
        if (a >= 0 && b >= 0)
            ck_assert_int_eq(geo_side_between(&G8x6, a, b), s);
    }
    int x0, y0, x1, y1;
    ck_assert(geo_side_ends(&G8x6, 68, &x0, &y0, &x1, &y1)); /* left of D2: (3,1)-(3,2) */
    ck_assert_int_eq(x0, 3);
    ck_assert_int_eq(y0, 1);
    ck_assert_int_eq(x1, 3);
    ck_assert_int_eq(y1, 2);
}
END_TEST

START_TEST(hex_sides)
{
    geo_grid h = { 6, 6, GEO_HEX };
    /* B2 (odd) and C2 (even) are NE/SW neighbours: one shared side, from either hex */
    int s = geo_side_between(&h, sq(&h, "B2"), sq(&h, "C2"));
    ck_assert_int_ge(s, 0);
    ck_assert_int_eq(geo_side_of(&h, sq(&h, "C2"), GEO_SW), s);
    ck_assert_int_eq(geo_side_of(&h, sq(&h, "B2"), GEO_NE), s);
    int a, b;
    ck_assert(geo_side_squares(&h, s, &a, &b));
    ck_assert_int_eq(a, sq(&h, "B2"));
    ck_assert_int_eq(b, sq(&h, "C2"));
    ck_assert_int_eq(geo_side_between(&h, sq(&h, "B2"), sq(&h, "D2")), -1);
    /* every neighbour pair shares exactly the side each one names */
    int out[8];
    for (int q = 0; q < 36; q++) {
        size_t n = geo_neighbours(&h, q, true, out);
        for (size_t i = 0; i < n; i++) {
            int side = geo_side_between(&h, q, out[i]);
            ck_assert_int_eq(side, geo_side_between(&h, out[i], q));
            ck_assert(geo_side_squares(&h, side, &a, &b));
            ck_assert((a == q && b == out[i]) || (a == out[i] && b == q));
        }
    }
    /* border sides exist: the N side of A1 is A1's own (a), with nothing across (b) */
    ck_assert(geo_side_squares(&h, geo_side_of(&h, 0, GEO_N), &a, &b));
    ck_assert_int_eq(a, 0);
    ck_assert_int_eq(b, -1);
    ck_assert_int_eq(geo_interspace_count(&h), 0);
}
END_TEST

/* A template centred on an interspace: the 2n x 2n squares around the point, cut at the board's
 * edge. On 8x6, C2's NW corner (11) is where B1, C1, B2 and C2 meet. */
START_TEST(interspace_block)
{
    int out[64];
    ck_assert_uint_eq(geo_interspace_block(&G8x6, 11, 1, out, 64), 4);
    const char *four[] = { "B1", "C1", "B2", "C2" };
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(out[i], sq(&G8x6, four[i]));
    /* n = 2: columns A..D, rows 0..3 from the top, but row -1 is off the board: A1..D3, 12 */
    ck_assert_uint_eq(geo_interspace_block(&G8x6, 11, 2, out, 64), 12);
    ck_assert_int_eq(out[0], sq(&G8x6, "A1"));
    ck_assert_int_eq(out[11], sq(&G8x6, "D3"));
    /* the board's top-left corner (0): only A1 lies around it */
    ck_assert_uint_eq(geo_interspace_block(&G8x6, 0, 1, out, 64), 1);
    ck_assert_int_eq(out[0], sq(&G8x6, "A1"));
    /* n < 1, a bad interspace: nothing; the count is whole even past cap */
    ck_assert_uint_eq(geo_interspace_block(&G8x6, 11, 0, out, 64), 0);
    ck_assert_uint_eq(geo_interspace_block(&G8x6, 9 * 7, 1, out, 64), 0);
    ck_assert_uint_eq(geo_interspace_block(&G8x6, 11, 2, out, 2), 12);
}
END_TEST

/* Whether side s is among the n sides of l. */
static bool has_side(const int *l, size_t n, int s)
{
    for (size_t i = 0; i < n; i++)
        if (l[i] == s)
            return true;
    return false;
}

START_TEST(sides_meeting)
{
    const geo_grid *g = &G8x6;
    int out[6];
    /* C2/C3 (side 18, horizontal): its west end is the grid point of B2, C2, B3, C3 (the others
     * there: B2/C2 = 56 + 9 + 2 = 67, B3/C3 = 56 + 18 + 2 = 76, B2/B3 = 2*8 + 1 = 17), its east
     * end that of C2, D2, C3, D3 (C2/D2 68, C3/D3 77, D2/D3 19) */
    ck_assert_uint_eq(geo_sides_meeting(g, 18, out), 6);
    int c23[6] = { 67, 76, 17, 68, 77, 19 };
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(out[i], c23[i]);
    /* C2/D2 (68, vertical): south end (C3/C2 18, D3/D2 19, C3/D3 77), then north end (C1/C2
     * 10, D1/D2 11, C1/D1 56 + 3 = 59) */
    ck_assert_uint_eq(geo_sides_meeting(g, 68, out), 6);
    int cd2[6] = { 18, 19, 77, 10, 11, 59 };
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(out[i], cd2[i]);
    /* A1/A2 (8): its west end is on the board's edge; east: A1/B1 57, A2/B2 66, B1/B2 9 */
    ck_assert_uint_eq(geo_sides_meeting(g, 8, out), 3);
    ck_assert_int_eq(out[0], 57);
    ck_assert_int_eq(out[1], 66);
    ck_assert_int_eq(out[2], 9);
    /* a border side (the top of A1) and a non-side meet none */
    ck_assert_uint_eq(geo_sides_meeting(g, 0, out), 0);
    ck_assert_uint_eq(geo_sides_meeting(g, 9999, out), 0);
    /* squares and hexes: meeting is symmetric, and a side meeting s is another side whose
     * squares and s's all touch one another (distance 1): the 2x2 block around a grid point,
     * the 3 hexes around a vertex */
    geo_grid hex = { 6, 5, GEO_HEX };
    const geo_grid *grids[2] = { g, &hex };
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < geo_side_count(grids[k]); s++) {
            size_t n = geo_sides_meeting(grids[k], s, out);
            int a, b;
            geo_side_squares(grids[k], s, &a, &b);
            for (size_t i = 0; i < n; i++) {
                int back[6], c, d;
                ck_assert(has_side(back, geo_sides_meeting(grids[k], out[i], back), s));
                geo_side_squares(grids[k], out[i], &c, &d);
                ck_assert_int_ne(out[i], s);
                int four[4] = { a, b, c, d };
                for (int p = 0; p < 4; p++)
                    for (int q = 0; q < 4; q++)
                        ck_assert_int_le(geo_distance(grids[k], four[p], four[q]), 1);
            }
        }
    /* hexes: a side between two hexes away from the edge meets 2 sides at each end */
    int c3 = sq(&hex, "C3");
    ck_assert_uint_eq(geo_sides_meeting(&hex, geo_side_of(&hex, c3, GEO_N), out), 4);
    ck_assert_uint_eq(geo_sides_meeting(&hex, geo_side_of(&hex, c3, GEO_SW), out), 4);
    ck_assert_uint_eq(geo_sides_meeting(&hex, geo_side_of(&hex, 0, GEO_N), out), 0);
    /* squares, every side of boards 1x1 to 9x9 (and a few numbers that are no side): as the
     * header says, with a and b the side's squares (b south or east of a), at each end in
     * turn the squares a2 and b2 one step along the side from a and b, when both are on the
     * board, give a's side toward a2, b's toward b2, and the side between a2 and b2 */
    for (int w = 1; w <= 9; w++)
        for (int h = 1; h <= 9; h++) {
            geo_grid sg = { w, h, GEO_SQUARE };
            for (int s = -2; s < geo_side_count(&sg) + 2; s++) {
                int want[6], a, b;
                size_t n = 0;
                if (geo_side_squares(&sg, s, &a, &b) && a >= 0 && b >= 0) {
                    const geo_dir ends[2][2] = { { GEO_W, GEO_E }, { GEO_S, GEO_N } };
                    for (int k = 0; k < 2; k++) {
                        geo_dir e = ends[geo_side_horizontal(&sg, s) ? 0 : 1][k];
                        int a2 = geo_neighbour(&sg, a, e), b2 = geo_neighbour(&sg, b, e);
                        if (a2 < 0 || b2 < 0)
                            continue;
                        want[n++] = geo_side_between(&sg, a, a2);
                        want[n++] = geo_side_between(&sg, b, b2);
                        want[n++] = geo_side_between(&sg, a2, b2);
                    }
                }
                ck_assert_uint_eq(geo_sides_meeting(&sg, s, out), n);
                for (size_t i = 0; i < n; i++)
                    ck_assert_int_eq(out[i], want[i]);
            }
        }
}
END_TEST

START_TEST(interspaces)
{
    /* 8x6: interspace (X,Y) = Y*9 + X is the top-left corner of square (X,Y). C2's NW: 1*9+2 */
    int c2 = sq(&G8x6, "C2");
    ck_assert_int_eq(geo_interspace_of(&G8x6, c2, GEO_NW), 11);
    ck_assert_int_eq(geo_interspace_of(&G8x6, c2, GEO_SE), 2 * 9 + 3);
    ck_assert_int_eq(geo_interspace_of(&G8x6, c2, GEO_N), -1);
    /* B2's NE corner is the same point as C2's NW corner */
    ck_assert_int_eq(geo_interspace_of(&G8x6, sq(&G8x6, "B2"), GEO_NE), 11);
    int out[4];
    geo_interspace_squares(&G8x6, 11, out); /* NW B1, NE C1, SE C2, SW B2 */
    ck_assert_int_eq(out[0], sq(&G8x6, "B1"));
    ck_assert_int_eq(out[1], sq(&G8x6, "C1"));
    ck_assert_int_eq(out[2], c2);
    ck_assert_int_eq(out[3], sq(&G8x6, "B2"));
    geo_interspace_sides(&G8x6, 11, out); /* N: B1/C1, E: C1/C2, S: B2/C2, W: B1/B2 */
    ck_assert_int_eq(out[0], geo_side_between(&G8x6, sq(&G8x6, "B1"), sq(&G8x6, "C1")));
    ck_assert_int_eq(out[1], geo_side_between(&G8x6, sq(&G8x6, "C1"), c2));
    ck_assert_int_eq(out[2], geo_side_between(&G8x6, sq(&G8x6, "B2"), c2));
    ck_assert_int_eq(out[3], geo_side_between(&G8x6, sq(&G8x6, "B1"), sq(&G8x6, "B2")));
    geo_interspace_squares(&G8x6, 0, out); /* the board's top-left corner: only A1 (SE) */
    ck_assert_int_eq(out[0], -1);
    ck_assert_int_eq(out[2], 0);
    geo_interspace_sides(&G8x6, 0, out);
    ck_assert_int_eq(out[0], -1);
    ck_assert_int_eq(out[3], -1);
    ck_assert_int_eq(geo_interspace_count(&G8x6), 9 * 7);
}
END_TEST

/* ---- line tracing ---- */

static void expect_squares(const geo_grid *g, const geo_trace *t, const char *const *names,
                           size_t n)
{
    ck_assert_uint_eq(t->n, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(t->squares[i], sq(g, names[i]));
}

START_TEST(trace_horizontal_vertical)
{
    geo_trace t;
    ck_assert_int_eq(geo_trace_line(&G10, sq(&G10, "A1"), sq(&G10, "D1"), &t), GEO_OK);
    const char *h[] = { "A1", "B1", "C1", "D1" };
    expect_squares(&G10, &t, h, 4);
    ck_assert_uint_eq(t.corners, 0);
    ck_assert_int_eq(t.cross[0].side, geo_side_between(&G10, sq(&G10, "A1"), sq(&G10, "B1")));
    ck_assert_int_eq(t.cross[0].corner, -1);
    ck_assert_int_eq(t.cross[2].side, geo_side_between(&G10, sq(&G10, "C1"), sq(&G10, "D1")));
    geo_trace_free(&t);
    ck_assert_int_eq(geo_trace_line(&G10, sq(&G10, "B2"), sq(&G10, "B5"), &t), GEO_OK);
    const char *v[] = { "B2", "B3", "B4", "B5" };
    expect_squares(&G10, &t, v, 4);
    ck_assert_int_eq(t.cross[1].side, geo_side_between(&G10, sq(&G10, "B3"), sq(&G10, "B4")));
    geo_trace_free(&t);
    /* a line to itself is one square and no crossing */
    ck_assert_int_eq(geo_trace_line(&G10, 5, 5, &t), GEO_OK);
    ck_assert_uint_eq(t.n, 1);
    geo_trace_free(&t);
    geo_trace_free(NULL);
}
END_TEST

START_TEST(trace_diagonal_corners)
{
    /* 45 degrees: the line passes through a grid corner at every step. A1 -> D4. */
    geo_trace t;
    ck_assert_int_eq(geo_trace_line(&G10, sq(&G10, "A1"), sq(&G10, "D4"), &t), GEO_OK);
    const char *d[] = { "A1", "B2", "C3", "D4" };
    expect_squares(&G10, &t, d, 4);
    ck_assert_uint_eq(t.corners, 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(t.cross[i].side, -1);
        /* the corner between (i,i) and (i+1,i+1) is grid point (i+1, i+1): (i+1)*11 + i+1 */
        ck_assert_int_eq(t.cross[i].corner, (i + 1) * 11 + i + 1);
    }
    /* Walking south-east on the map, the square to the east (B1) is on the left, the one to the
     * south (A2) on the right. The four sides meeting at the corner: A1/B1, A1/A2, B1/B2, A2/B2. */
    const geo_cross *c = &t.cross[0];
    ck_assert_int_eq(c->left, sq(&G10, "B1"));
    ck_assert_int_eq(c->right, sq(&G10, "A2"));
    ck_assert_int_eq(c->sides[0], geo_side_between(&G10, sq(&G10, "A1"), sq(&G10, "B1")));
    ck_assert_int_eq(c->sides[1], geo_side_between(&G10, sq(&G10, "A1"), sq(&G10, "A2")));
    ck_assert_int_eq(c->sides[2], geo_side_between(&G10, sq(&G10, "B1"), sq(&G10, "B2")));
    ck_assert_int_eq(c->sides[3], geo_side_between(&G10, sq(&G10, "A2"), sq(&G10, "B2")));
    geo_trace_free(&t);
    /* the anti-diagonal D1 -> A4 (south-west): the west square C1 is on the right */
    ck_assert_int_eq(geo_trace_line(&G10, sq(&G10, "D1"), sq(&G10, "A4"), &t), GEO_OK);
    ck_assert_uint_eq(t.corners, 3);
    ck_assert_int_eq(t.cross[0].right, sq(&G10, "C1"));
    ck_assert_int_eq(t.cross[0].left, sq(&G10, "D2"));
    geo_trace_free(&t);
}
END_TEST

START_TEST(trace_knight_and_shallow)
{
    geo_trace t;
    /* (2,1) "knight" line A1 -> C2, from (0.5,0.5) to (2.5,1.5): at x=1, y=0.75 (still row 1);
     * y reaches 1 at x=1.5, the middle of column B; then x=2 -> C2. A1 B1 B2 C2, no corner. */
    ck_assert_int_eq(geo_trace_line(&G10, sq(&G10, "A1"), sq(&G10, "C2"), &t), GEO_OK);
    const char *k[] = { "A1", "B1", "B2", "C2" };
    expect_squares(&G10, &t, k, 4);
    ck_assert_uint_eq(t.corners, 0);
    ck_assert_int_eq(t.cross[1].side, geo_side_between(&G10, sq(&G10, "B1"), sq(&G10, "B2")));
    geo_trace_free(&t);
    /* A1 -> G2 (6,1): y = 1 at x = 0.5 + 6*0.5 = 3.5, inside column D: A1 B1 C1 D1 D2 E2 F2 G2 */
    ck_assert_int_eq(geo_trace_line(&G10, sq(&G10, "A1"), sq(&G10, "G2"), &t), GEO_OK);
    const char *s6[] = { "A1", "B1", "C1", "D1", "D2", "E2", "F2", "G2" };
    expect_squares(&G10, &t, s6, 8);
    ck_assert_uint_eq(t.corners, 0);
    geo_trace_free(&t);
    /* A1 -> H2 (7,1): y = 1 at x = 0.5 + 7*0.5 = 4.0, exactly the grid corner (4,1) between D1
     * and E2: a corner touch, with E1 on the left and D2 on the right. */
    ck_assert_int_eq(geo_trace_line(&G10, sq(&G10, "A1"), sq(&G10, "H2"), &t), GEO_OK);
    const char *s7[] = { "A1", "B1", "C1", "D1", "E2", "F2", "G2", "H2" };
    expect_squares(&G10, &t, s7, 8);
    ck_assert_uint_eq(t.corners, 1);
    ck_assert_int_eq(t.cross[3].corner, 1 * 11 + 4);
    ck_assert_int_eq(t.cross[3].left, sq(&G10, "E1"));
    ck_assert_int_eq(t.cross[3].right, sq(&G10, "D2"));
    geo_trace_free(&t);
    /* A1 -> J3 (9,2): a corner needs (2i+1)*2 == (2j+1)*9, even == odd: never. So the line
     * meets 9 vertical and 2 horizontal grid lines separately: 1 + 9 + 2 = 12 squares. */
    ck_assert_int_eq(geo_trace_line(&G10, sq(&G10, "A1"), sq(&G10, "J3"), &t), GEO_OK);
    ck_assert_uint_eq(t.n, 12);
    ck_assert_uint_eq(t.corners, 0);
    geo_trace_free(&t);
    /* A1 -> J10 is the long diagonal: 9 corners, 10 squares */
    ck_assert_int_eq(geo_trace_line(&G10, 0, 99, &t), GEO_OK);
    ck_assert_uint_eq(t.n, 10);
    ck_assert_uint_eq(t.corners, 9);
    geo_trace_free(&t);
    /* A1 -> G3 (6,2): vertical line i is met at t = (2i+1)/12, horizontal line j at
     * t = (2j+1)/4 = (6j+3)/12. They coincide when i = 3j+1: i=1,j=0 (grid point (2,1)) and
     * i=4,j=1 (grid point (5,2)). Two corners, so 1 + 6 + 2 - 2 = 7 squares. */
    ck_assert_int_eq(geo_trace_line(&G10, sq(&G10, "A1"), sq(&G10, "G3"), &t), GEO_OK);
    ck_assert_uint_eq(t.corners, 2);
    ck_assert_uint_eq(t.n, 7);
    ck_assert_int_eq(t.cross[1].corner, 1 * 11 + 2); /* A1 B1 [corner (2,1)] C2 ... */
    ck_assert_int_eq(t.squares[2], sq(&G10, "C2"));
    geo_trace_free(&t);
}
END_TEST

START_TEST(trace_symmetric_and_connected)
{
    /* For every pair of squares of a 7x6 board: A->B is B->A reversed with left and right
     * swapped; consecutive squares share the crossed side, or meet at the touched corner
     * (whose four sides are those between the squares around it);
     * the count is 1 + |dx| + |dy| - corners. */
    geo_grid g = { 7, 6, GEO_SQUARE };
    int n = 42;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            geo_trace f, r;
            ck_assert_int_eq(geo_trace_line(&g, a, b, &f), GEO_OK);
            ck_assert_int_eq(geo_trace_line(&g, b, a, &r), GEO_OK);
            ck_assert_uint_eq(f.n, r.n);
            ck_assert_uint_eq(f.corners, r.corners);
            int ax = a % 7, ay = a / 7, bx = b % 7, by = b / 7;
            int dx = abs(ax - bx), dy = abs(ay - by);
            ck_assert_uint_eq(f.n, (size_t)(1 + dx + dy) - f.corners);
            for (size_t i = 0; i < f.n; i++)
                ck_assert_int_eq(f.squares[i], r.squares[f.n - 1 - i]);
            for (size_t i = 0; i + 1 < f.n; i++) {
                const geo_cross *c = &f.cross[i], *d = &r.cross[f.n - 2 - i];
                ck_assert_int_eq(c->side, d->side);
                ck_assert_int_eq(c->corner, d->corner);
                ck_assert_int_eq(c->left, d->right);
                ck_assert_int_eq(c->right, d->left);
                int p = f.squares[i], q = f.squares[i + 1];
                if (c->side >= 0)
                    ck_assert_int_eq(geo_side_between(&g, p, q), c->side);
                else {
                    ck_assert_int_eq(geo_distance(&g, p, q), 1);
                    ck_assert_int_lt(geo_side_between(&g, p, q), 0); /* diagonal step */
                    int sqs[4];
                    geo_interspace_squares(&g, c->corner, sqs);
                    int hits = 0;
                    for (int k = 0; k < 4; k++)
                        hits +=
                            sqs[k] == p || sqs[k] == q || sqs[k] == c->left || sqs[k] == c->right;
                    ck_assert_int_eq(hits, 4);
                    /* left and right really are on those sides of the line */
                    ck_assert_int_eq(geo_side_of_line(&g, a, b, c->left), -1);
                    ck_assert_int_eq(geo_side_of_line(&g, a, b, c->right), 1);
                    /* the four sides meeting at the corner, as geo_side_between gives them
                     * (the walk works them out from coordinates) */
                    ck_assert_int_eq(c->sides[0], geo_side_between(&g, p, c->left));
                    ck_assert_int_eq(c->sides[1], geo_side_between(&g, p, c->right));
                    ck_assert_int_eq(c->sides[2], geo_side_between(&g, c->left, q));
                    ck_assert_int_eq(c->sides[3], geo_side_between(&g, c->right, q));
                }
            }
            geo_trace_free(&f);
            geo_trace_free(&r);
        }
}
END_TEST

START_TEST(trace_errors)
{
    geo_trace t;
    ck_assert_int_eq(geo_trace_line(&G10, -1, 3, &t), GEO_ERANGE);
    ck_assert_uint_eq(t.n, 0);
    geo_trace_free(&t);
    ck_assert_int_eq(geo_trace_line(&G10, 0, 100, &t), GEO_ERANGE);
    geo_grid h = { 5, 5, GEO_HEX };
    ck_assert_int_eq(geo_trace_line(&h, 0, 3, &t), GEO_ETOPO);
    geo_trace_free(&t);
    geo_walk w;
    ck_assert_int_eq(geo_walk_init(&w, &h, 0, 3), GEO_ETOPO);
    geo_cross c;
    int s;
    ck_assert(!geo_walk_next(&w, &c, &s));
}
END_TEST

START_TEST(side_of_line)
{
    int a1 = sq(&G10, "A1"), e1 = sq(&G10, "E1");
    /* walking east along row 1, row 3 (south, down the page) is on the right */
    ck_assert_int_eq(geo_side_of_line(&G10, a1, e1, sq(&G10, "C3")), 1);
    ck_assert_int_eq(geo_side_of_line(&G10, e1, a1, sq(&G10, "C3")), -1);
    ck_assert_int_eq(geo_side_of_line(&G10, a1, e1, sq(&G10, "J1")), 0); /* on the line, beyond */
    /* walking south along column A, column B (east) is on the left: cross (0,4)x(1,2) = -4 */
    ck_assert_int_eq(geo_side_of_line(&G10, a1, sq(&G10, "A5"), sq(&G10, "B3")), -1);
    /* A1 -> C2: B2 is (1,1) from A1; cross (2,1)x(1,1) = 2 - 1 = 1 -> right; B1: 2*0 - 1*1 -> left */
    ck_assert_int_eq(geo_side_of_line(&G10, a1, sq(&G10, "C2"), sq(&G10, "B2")), 1);
    ck_assert_int_eq(geo_side_of_line(&G10, a1, sq(&G10, "C2"), sq(&G10, "B1")), -1);
    ck_assert_int_eq(geo_side_of_line(&G10, a1, a1, sq(&G10, "B1")), 0);
}
END_TEST

/* The squares of the Bresenham walk after `from`, up to `to`, into out (geo_bres_*); the
 * total, even past cap. */
static size_t walk(const geo_grid *g, int from, int to, int *out, size_t cap)
{
    geo_bres b;
    geo_bres_init(&b, g, from, to);
    size_t n = 0;
    int s;
    while (geo_bres_next(&b, &s)) {
        if (n < cap)
            out[n] = s;
        n++;
    }
    return n;
}

START_TEST(bresenham)
{
    /* A1 -> D2: dx 3, dy -1, err 2. e2=4: x+1 (err 1) -> B1. e2=2: x+1 (err 0), 2<=3 so y+1
     * (err 3) -> C2. e2=6: x+1 -> D2. */
    int out[16];
    ck_assert_uint_eq(walk(&G10, sq(&G10, "A1"), sq(&G10, "D2"), out, 16), 3);
    ck_assert_int_eq(out[0], sq(&G10, "B1"));
    ck_assert_int_eq(out[1], sq(&G10, "C2"));
    ck_assert_int_eq(out[2], sq(&G10, "D2"));
    /* the diagonal moves both ways in one step, like the supercover's corners */
    ck_assert_uint_eq(walk(&G10, 0, 99, out, 16), 9);
    ck_assert_int_eq(out[0], 11);
    /* from a square to itself: no step */
    ck_assert_uint_eq(walk(&G10, 7, 7, out, 16), 0);
    /* A1 -> C6 (2,5): dx 2, dy -5, err -3. e2=-6: not >= -5, <= 2 -> y (err -1): A2.
     * e2=-2 >= -5 -> x (err -6), <= 2 -> y (err -4): B3. e2=-8: y (err -2): B4.
     * e2=-4 >= -5 -> x (err -7), y (err -5): C5. e2=-10: y: C6. */
    ck_assert_uint_eq(walk(&G10, 0, sq(&G10, "C6"), out, 16), 5);
    const char *want[] = { "A2", "B3", "B4", "C5", "C6" };
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(out[i], sq(&G10, want[i]));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("geo");
    TCase *tc = tcase_create("geo");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, parse_examples);
    tcase_add_test(tc, parse_errors);
    tcase_add_test(tc, format_round_trip);
    tcase_add_test(tc, square_neighbours);
    tcase_add_test(tc, square_distance);
    tcase_add_test(tc, hex_neighbours_distance);
    tcase_add_test(tc, square_sides);
    tcase_add_test(tc, hex_sides);
    tcase_add_test(tc, sides_meeting);
    tcase_add_test(tc, interspaces);
    tcase_add_test(tc, interspace_block);
    tcase_add_test(tc, trace_horizontal_vertical);
    tcase_add_test(tc, trace_diagonal_corners);
    tcase_add_test(tc, trace_knight_and_shallow);
    tcase_add_test(tc, trace_symmetric_and_connected);
    tcase_add_test(tc, trace_errors);
    tcase_add_test(tc, side_of_line);
    tcase_add_test(tc, bresenham);
    suite_add_tcase(s, tc);
    return check_run(s);
}
