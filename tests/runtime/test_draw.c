/* tests/runtime/test_draw.c — Check tests of runtime/draw.{c,h}: the text picture of a tiny
 * board, character by character, worked out from the layout in docs/spec/board.md, and the SVG
 * elements that must appear for the same board (coordinates computed from the default 48-pixel
 * square and the 32/24-pixel margins), the markers and faces the caller names, and units with
 * ids not 0..n-1 and passengers (keys and "+N aboard").
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "draw.h"
#include "geo.h"

/* 3 x 2 board:  A1 woods (W); B2 at elevation 1; a wall on A1/B1; wire on B1/B2; a mine on the
 * interior point where B1, C1, B2, C2 meet (C2's NW corner); unit 5 "rifle" on C1. */
static board *tiny(void)
{
    board *b = board_new(GEO_SQUARE, 3, 2);
    const geo_grid *g = board_grid(b);
    board_set_name(b, BOARD_TERRAIN, 0, "woods", 'W');
    board_set_name(b, BOARD_SIDE_FEATURE, 0, "wall", 0);
    board_set_name(b, BOARD_SIDE_FEATURE, 1, "wire", 0);
    board_set_name(b, BOARD_INTERSPACE_ITEM, 0, "mine", 0);
    int e = board_element_new(b, 0, "woods1");
    board_element_add(b, e, geo_parse_square(g, "A1"));
    board_set_elevation(b, geo_parse_square(g, "B2"), 1);
    int a1 = geo_parse_square(g, "A1"), b1 = geo_parse_square(g, "B1"),
        b2 = geo_parse_square(g, "B2");
    board_put(b, BOARD_AT_SIDE, geo_side_between(g, a1, b1), (board_feature){ 0, 0, -1 });
    board_put(b, BOARD_AT_SIDE, geo_side_between(g, b1, b2), (board_feature){ 1, 0, -1 });
    board_put(b, BOARD_AT_INTERSPACE, geo_interspace_of(g, geo_parse_square(g, "C2"), GEO_NW),
              (board_feature){ 0, 2, -1 });
    board_place_unit(b, 5, geo_parse_square(g, "C1"), -1);
    board_set_unit_label(b, 5, "rifle");
    return b;
}

/* The elevation's key of tiny(), after the terrain's (board.md §5): B2, with no terrain ('.'),
 * is the one square at a level other than 0, level 1, so its pair is `.1` (rev12c 9: the
 * digit was not explained). */
#define ELEVATION_KEY                                                                        \
    "elevation: the character after a terrain symbol is the square's level (.1: level 1; ^ " \
    "above 9, _ below 0)\n"

static char *capture_text(const board *b, const draw_options *o, geo_status *st)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    *st = draw_text(b, o, f);
    fclose(f);
    return out;
}

START_TEST(text_picture)
{
    board *b = tiny();
    const geo_grid *g = board_grid(b);
    /* The line A2 -> B1 is one diagonal step through the interior point (1,1): a corner touch. */
    geo_trace t;
    ck_assert_int_eq(geo_trace_line(g, geo_parse_square(g, "A2"), geo_parse_square(g, "B1"), &t),
                     GEO_OK);
    draw_options o = { .trace = &t };
    geo_status st;
    char *out = capture_text(b, &o, &st);
    ck_assert_int_eq(st, GEO_OK);
    /* Each square is 4 characters: trace mark ('@' at the ends), terrain symbol ('.' for none),
     * elevation (blank for 0), unit key. Between squares one character for the vertical side
     * (blank, or the feature's symbol); horizontal sides take 4 characters; corners show '+' on
     * the frame, 'x' where the line touches, the item's symbol for an interspace item. Symbols
     * without one of their own take the first free letter of the name: wall 'w', then wire
     * 'i' (w is taken), mine 'm'. The unit key 'a' is the first letter the map does not show.
     * B2 stands at level 1, so a line after the terrain key says what that `1` is (the fresh
     * review of issue 12: nothing did). */
    const char *want = "     A    B    C   \n    +----+----+----+\n"
                       "  1 | W  w@.    . a|\n    +    xiiiim    +\n"
                       "  2 |@.    .1   .  |\n    +----+----+----+\n"
                       "units: a rifle C1\nterrain:  W woods\n" ELEVATION_KEY
                       "sides:  w wall  i wire\ninterspaces:  m mine\n"
                       "line: A2 to B1, 2 squares (@ ends, * crossed), 1 corner touch (x)\n";
    ck_assert_str_eq(out, want);
    free(out);
    /* with the scenario's symbols, the squares show them as written */
    char symbols[7] = "Wqq...";
    o = (draw_options){ .symbols = symbols };
    out = capture_text(b, &o, &st);
    ck_assert(strstr(out, "  1 | W  w q    q a|\n") != NULL);
    free(out);
    geo_trace_free(&t);
    board_free(b);
}
END_TEST

START_TEST(svg_picture)
{
    board *b = tiny();
    const geo_grid *g = board_grid(b);
    geo_trace t;
    geo_trace_line(g, geo_parse_square(g, "A2"), geo_parse_square(g, "B1"), &t);
    const char *colours[] = { "#112233" };
    draw_options o = { .trace = &t, .terrain_colours = colours, .n_terrain_colours = 1 };
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    ck_assert_int_eq(draw_svg(b, &o, f), GEO_OK);
    fclose(f);
    ck_assert(strncmp(out, "<?xml", 5) == 0);
    ck_assert(strcmp(out + len - 7, "</svg>\n") == 0);
    /* square (x,y) is at (32 + 48x, 24 + 48y): A1 in the caller's colour, B1 without terrain */
    ck_assert(strstr(out, "<rect x=\"32\" y=\"24\" width=\"48\" height=\"48\" fill=\"#112233\"/>"));
    ck_assert(strstr(out, "<rect x=\"80\" y=\"24\" width=\"48\" height=\"48\" fill=\"#f7f4ea\"/>"));
    /* B2 at elevation 1: one step of shading (0.12) and its number */
    ck_assert(strstr(out, "<rect x=\"80\" y=\"72\" width=\"48\" height=\"48\" fill=\"#4a2a0a\" "
                          "fill-opacity=\"0.12\" stroke=\"none\"/>"));
    ck_assert(strstr(out, ">+1</text>"));
    /* the wall on A1/B1 is the grid line x = 80 from y = 24 to 72, first palette colour */
    ck_assert(strstr(out, "<line x1=\"80\" y1=\"24\" x2=\"80\" y2=\"72\" stroke=\"#c0392b\" "
                          "stroke-width=\"5\"/>"));
    /* the traced line from the centre of A2 (56, 96) to the centre of B1 (104, 48), and the
     * corner touch circled at the grid point (1,1) = (80, 72) */
    ck_assert(strstr(out, "<line x1=\"56\" y1=\"96\" x2=\"104\" y2=\"48\" stroke-width=\"2\"/>"));
    ck_assert(
        strstr(out, "<circle cx=\"80\" cy=\"72\" r=\"7\" fill=\"none\" stroke-width=\"2\"/>"));
    /* the mine at C2's NW corner (2,1) = (128, 72) */
    ck_assert(strstr(out, "<circle cx=\"128\" cy=\"72\""));
    /* the counter of rifle on C1 = (2, 0): the band between the rows of labels, 48/12 = 4
     * pixels from the sides and 12 + 2 = 14 from the top and bottom: x = 32 + 96 + 4 = 132,
     * y = 24 + 14 = 38, 40 x 20; its name (type 12*3/4 + 1 = 10) centred in it, x = 152,
     * top 38 + (20 - 10) / 2 = 43, baseline 43 + 10 - 2 = 51; the name follows the unit's
     * key, a in bold (text_picture's key), and fits whole: 40 / 5 = 8 characters, less 2 for
     * the key and its space, hold the 5 of rifle */
    ck_assert(strstr(out, "<rect x=\"132\" y=\"38\" width=\"40\" height=\"20\" rx=\"4\" "
                          "fill=\"#d8e4f4\""));
    ck_assert(strstr(out, "<text x=\"152\" y=\"51\" font-size=\"10\" text-anchor=\"middle\">"
                          "<tspan font-weight=\"bold\">a</tspan> rifle</text>"));
    /* z-order (issue 12): counters, then the line over them, then every label over both, the
     * unit's name and the elevation's "+1" included, in white halos */
    const char *units = strstr(out, "<g id=\"units\">"), *line = strstr(out, "<g id=\"line\"");
    const char *labels = strstr(out, "<g id=\"labels\" stroke=\"#ffffff\" stroke-width=\"3\" "
                                     "paint-order=\"stroke\">");
    ck_assert(units && line && labels && units < line && line < labels);
    ck_assert(strstr(labels, "> rifle</text>") && strstr(labels, ">+1</text>"));
    ck_assert(strstr(units, "</g>") < line && strstr(line, "</g>") < labels);
    /* the legend: the board is 188 pixels wide, so the picture takes the least width, 360;
     * its rows start 6 pixels under the board (24 + 2 * 48 + 12 + 6 = 138), 18 high, each
     * titled at x = 32 with its entries from 32 + 88 = 120, an entry 22 + 7 * (letters) + 12
     * pixels wide, going to the next row past x = 352.
     * terrain (y 138): each symbol shown, in square order: W woods (A1) in the caller's colour,
     * then '.' for the squares without terrain, at 120 + 22 + 35 + 12 = 189, no symbol drawn;
     * elevation (156): level 1 shaded 0.12 with "+1"; sides (174): the wall (first side
     * colour), the wire (second) at 120 + 62 = 182; corners (192): the mine's dot;
     * line (210): "line A2 to B1" (125 pixels, to 245), then "square crossed" (132) would end
     * at 377, so it goes to the next row (228) and "corner touch" (118, to 370) to the one
     * after (246); units (264): rifle's counter in the default pale blue with its key a,
     * named with its square as the text key reads ("rifle C1"). 8 rows end at
     * 138 + 8 * 18 = 282, and 6 pixels more make the height. */
    ck_assert_msg(strstr(out, "width=\"360\" height=\"288\""), "%s", out);
    ck_assert(strstr(out, "<text x=\"32\" y=\"150\" font-size=\"12\" "
                          "font-weight=\"bold\">terrain:</text>"));
    ck_assert(strstr(out, "<rect x=\"120\" y=\"139\" width=\"16\" height=\"14\" "
                          "stroke=\"#8a8a8a\" fill=\"#112233\"/>"));
    ck_assert(strstr(out, "<text x=\"142\" y=\"150\" font-size=\"12\">woods</text>"));
    ck_assert(strstr(out, "<rect x=\"189\" y=\"139\" width=\"16\" height=\"14\" "
                          "stroke=\"#8a8a8a\" fill=\"#f7f4ea\"/>"));
    ck_assert(strstr(out, "<text x=\"211\" y=\"150\" font-size=\"12\">no terrain</text>"));
    ck_assert(strstr(out, "<text x=\"32\" y=\"168\" font-size=\"12\" "
                          "font-weight=\"bold\">elevation:</text>"));
    ck_assert(strstr(out, "fill=\"#4a2a0a\" fill-opacity=\"0.12\"/>\n<text x=\"128\" y=\"168\" "
                          "font-size=\"10\" text-anchor=\"middle\" fill=\"#3a2a1a\">+1</text>"));
    ck_assert(strstr(out, "<text x=\"142\" y=\"168\" font-size=\"12\">level 1</text>"));
    ck_assert(strstr(out, "<line x1=\"120\" y1=\"182\" x2=\"136\" y2=\"182\" stroke-width=\"5\" "
                          "stroke=\"#c0392b\"/>"));
    ck_assert(strstr(out, "<line x1=\"182\" y1=\"182\" x2=\"198\" y2=\"182\" stroke-width=\"5\" "
                          "stroke=\"#6d4c2f\"/>"));
    ck_assert(strstr(out, "<circle cx=\"128\" cy=\"200\" r=\"7\" fill=\"#202020\"/>"));
    ck_assert(strstr(out, "<text x=\"142\" y=\"204\" font-size=\"12\">mine</text>"));
    ck_assert(strstr(out, "<text x=\"32\" y=\"222\" font-size=\"12\" "
                          "font-weight=\"bold\">line:</text>"));
    ck_assert(strstr(out, "<text x=\"142\" y=\"222\" font-size=\"12\">line A2 to B1</text>"));
    ck_assert(strstr(out, "<circle cx=\"128\" cy=\"236\" r=\"3\" fill=\"#e000c0\"/>"));
    ck_assert(strstr(out, "<text x=\"142\" y=\"240\" font-size=\"12\">square crossed</text>"));
    ck_assert(strstr(out, "<circle cx=\"128\" cy=\"254\" r=\"6\" stroke=\"#e000c0\" "
                          "fill=\"none\" stroke-width=\"2\"/>"));
    ck_assert(strstr(out, "<text x=\"142\" y=\"258\" font-size=\"12\">corner touch</text>"));
    ck_assert(strstr(out, "<rect x=\"120\" y=\"265\" width=\"16\" height=\"14\" rx=\"3\" "
                          "stroke=\"#111111\" fill=\"#d8e4f4\"/>"));
    ck_assert(strstr(out, "<text x=\"128\" y=\"276\" font-size=\"11\" text-anchor=\"middle\" "
                          "fill=\"#333333\">a</text>"));
    ck_assert(strstr(out, "<text x=\"142\" y=\"276\" font-size=\"12\">rifle C1</text>"));
    /* no army is named (the caller gave none), and no unit or element shows markers */
    ck_assert(strstr(out, "armies:") == NULL && strstr(out, "markers:") == NULL);
    free(out);
    /* titles are escaped */
    out = NULL;
    f = open_memstream(&out, &len);
    o = (draw_options){ .title = "A & B <c>" };
    draw_svg(b, &o, f);
    fclose(f);
    ck_assert(strstr(out, "<title>A &amp; B &lt;c&gt;</title>"));
    free(out);
    geo_trace_free(&t);
    board_free(b);
}
END_TEST

/* Unit ids with gaps, and passengers: units 2 (jeep) on A1, 9 (truck) on B1, 40 (boat) on C1;
 * 7 and 8 aboard the truck, 3 aboard the boat. Keys go to the units in id order (2 3 7 8 9 40:
 * a to f; the map shows only '.'), so each square shows its unit's key found among ids that
 * are not 0..n-1, and the SVG counts two aboard the truck and one aboard the boat. */
START_TEST(passengers_and_sparse_ids)
{
    board *b = board_new(GEO_SQUARE, 3, 1);
    const geo_grid *g = board_grid(b);
    static const struct {
        int id;
        const char *label, *at;
        int in;
    } units[] = { { 2, "jeep", "A1", -1 }, { 9, "truck", "B1", -1 }, { 40, "boat", "C1", -1 },
                  { 7, "p7", NULL, 9 },    { 8, "p8", NULL, 9 },     { 3, "p3", NULL, 40 } };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (units[i].at)
            ck_assert_int_eq(board_place_unit(b, units[i].id, geo_parse_square(g, units[i].at), -1),
                             GEO_OK);
        else
            ck_assert_int_eq(board_embark(b, units[i].id, units[i].in), GEO_OK);
        board_set_unit_label(b, units[i].id, units[i].label);
    }
    geo_status st;
    char *out = capture_text(b, NULL, &st);
    ck_assert_int_eq(st, GEO_OK);
    ck_assert_ptr_nonnull(strstr(out, "  1 | . a  . e  . f|\n"));
    ck_assert_ptr_nonnull(strstr(out, "units: a jeep A1\n       b p3 in boat\n"
                                      "       c p7 in truck\n       d p8 in truck\n"
                                      "       e truck B1\n       f boat C1\n"));
    free(out);
    size_t len = 0;
    out = NULL;
    FILE *f = open_memstream(&out, &len);
    ck_assert_int_eq(draw_svg(b, NULL, f), GEO_OK);
    fclose(f);
    const char *two = strstr(out, ">+2 aboard</text>"), *one = strstr(out, ">+1 aboard</text>");
    ck_assert_ptr_nonnull(two);
    ck_assert_ptr_nonnull(one);
    ck_assert_ptr_null(strstr(two + 1, ">+2 aboard</text>"));
    ck_assert_ptr_null(strstr(one + 1, ">+1 aboard</text>"));
    ck_assert_ptr_null(strstr(out, ">+3 aboard</text>"));
    free(out);
    board_free(b);
}
END_TEST

/* Markers and faces are strings the caller gives (the interpreter names them from the rules'
 * `marker` and `face` enums); here the test names them. Unit 5 carries two markers and shows a
 * face, element 0 (woods1) shows a face; ids without an entry, NULL or "" show nothing. */
START_TEST(markers_and_faces)
{
    board *b = tiny();
    board_place_unit(b, 7, geo_parse_square(board_grid(b), "A2"), -1);
    board_set_unit_label(b, 7, "mg");
    const char *markers[8] = { [5] = "suppressed, pinned x2", [7] = "" };
    const char *faces[6] = { [5] = "wreck" };
    const char *elem[1] = { "burnt" };
    draw_options o = { .unit_markers = markers,
                       .n_unit_markers = 8,
                       .unit_faces = faces,
                       .n_unit_faces = 6,
                       .element_faces = elem,
                       .n_element_faces = 1 };
    geo_status st;
    char *out = capture_text(b, &o, &st);
    ck_assert_int_eq(st, GEO_OK);
    /* unit keys in id order: 5 is 'a', 7 is 'b'. After the squares, two spaces then the
     * markers in brackets, two spaces then the face in parentheses; unit 7 has an empty marker
     * string and no face (beyond n_unit_faces): its line is unchanged. Elements showing a
     * face get a line of their own after the terrain key: name, then the face. */
    const char *keys =
        "units: a rifle C1  [suppressed, pinned x2]  (wreck)\n       b mg A2\n"
        "terrain:  W woods\n" ELEVATION_KEY "elements:  woods1 (burnt)\nsides:  w wall  i wire\n";
    ck_assert_msg(strstr(out, keys) != NULL, "%s", out);
    /* an element's markers and values, given as one string, come in brackets before its face */
    const char *emark[1] = { "destruction x2, structure_points=4" };
    o.element_markers = emark;
    o.n_element_markers = 1;
    free(out);
    out = capture_text(b, &o, &st);
    ck_assert_msg(strstr(out, "\nelements:  woods1 [destruction x2, structure_points=4] (burnt)\n"),
                  "%s", out);
    o.element_markers = NULL;
    o.n_element_markers = 0;
    /* without the names, the picture is the plain one: no "elements:" line, no brackets */
    free(out);
    out = capture_text(b, NULL, &st);
    ck_assert(strstr(out, "units: a rifle C1\n       b mg A2\nterrain:  W woods\n" ELEVATION_KEY
                          "sides:") != NULL);
    free(out);
    /* SVG: unit 5 on C1 = square (2, 0) is a counter at (32 + 96 + 4, 24 + 14) = (132, 38),
     * 40 x 20 (svg_picture); its name (type 10) and the line under it (type 12*3/5 + 1 = 8,
     * one pixel below) are centred in it together: top 38 + (20 - 10 - 9) / 2 = 38, the
     * name's baseline 38 + 10 - 2 = 46, the line's 46 + 8 + 1 = 55, both at x = 132 + 20 =
     * 152. The element face on woods1's first square A1 (0, 0), which has no elevation: at
     * its top left, x = 32 + 3 = 35, y = 24 + 10, type 12*3/4 + 1 = 10 (at most (48 - 6) / 5
     * = 8 characters: woods1 has no other square in row 1). The small line stops short of the
     * counters beside it, 40 + 48 / 3 = 56 pixels, characters of 0.55 em (4.4 pixels at 8):
     * 56 * 20 / 88 = 12 characters, so "[suppressed] (wreck)" (20) shows 11 and an ellipsis
     * (the fresh review of issue 12: marker lists ran over the next counter). */
    markers[5] = "suppressed";
    char *svg = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&svg, &len);
    ck_assert_int_eq(draw_svg(b, &o, f), GEO_OK);
    fclose(f);
    ck_assert_msg(strstr(svg, "<text x=\"152\" y=\"55\" font-size=\"8\" text-anchor=\"middle\" "
                              "fill=\"#8b0000\">[suppressed\xe2\x80\xa6</text>") != NULL,
                  "%s", svg);
    ck_assert(strstr(svg, "<text x=\"152\" y=\"46\" font-size=\"10\" text-anchor=\"middle\">"
                          "<tspan font-weight=\"bold\">a</tspan> rifle</text>") != NULL);
    ck_assert(strstr(svg, "<text x=\"35\" y=\"34\" font-size=\"10\" fill=\"#8b0000\" "
                          "font-style=\"italic\">burnt</text>") != NULL);
    /* unit 7 (empty string, no face) gets no such line */
    ck_assert(strstr(svg, "[]") == NULL && strstr(svg, "()") == NULL);
    /* the legend says what the dark red brackets are (issue 12: every glyph in the legend):
     * a unit's in upright type, an element's in italics */
    const char *row = strstr(svg, ">markers:</text>");
    ck_assert_ptr_nonnull(row);
    const char *unit_entry = strstr(row, "fill=\"#8b0000\">[ ] ( )</text>");
    const char *elem_entry = strstr(row, "fill=\"#8b0000\" font-style=\"italic\">[ ] ( )</text>");
    ck_assert(unit_entry && elem_entry && unit_entry < elem_entry);
    ck_assert(strstr(row, ">a unit&apos;s markers (face)</text>") &&
              strstr(row, ">an element&apos;s markers (face)</text>"));
    free(svg);
    board_free(b);
}
END_TEST

static char *capture_svg(const board *b, const draw_options *o)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    ck_assert_int_eq(draw_svg(b, o, f), GEO_OK);
    fclose(f);
    return out;
}

/* Issue 12: the two armies' counters in two colours, each army named in the legend. Unit 0
 * (allies, army 0) on A1, unit 1 (axis, army 1) on B1, unit 2 (allies) on C1. Without the
 * caller's colours the palette gives army 0 a pale blue (#d8e4f4) and army 1 a pale red
 * (#ecc8bc); with army 1's colour given, its counters take it. */
START_TEST(armies_in_the_legend)
{
    board *b = board_new(GEO_SQUARE, 3, 1);
    const geo_grid *g = board_grid(b);
    board_set_name(b, BOARD_ARMY, 0, "allies", 0);
    board_set_name(b, BOARD_ARMY, 1, "axis", 0);
    const char *labels[3] = { "rifle", "grenadiers", "mg" };
    for (int u = 0; u < 3; u++) {
        board_place_unit(b, u, u, -1);
        board_set_unit_label(b, u, labels[u]);
    }
    int armies[3] = { 0, 1, 0 };
    draw_options o = { .unit_armies = armies, .n_unit_armies = 3 };
    char *out = capture_svg(b, &o);
    /* the counters: A1's at x = 32 + 4, B1's at 80 + 4, C1's at 128 + 4, y = 24 + 14 */
    ck_assert(strstr(out, "<rect x=\"36\" y=\"38\" width=\"40\" height=\"20\" rx=\"4\" "
                          "fill=\"#d8e4f4\""));
    ck_assert(strstr(out, "<rect x=\"84\" y=\"38\" width=\"40\" height=\"20\" rx=\"4\" "
                          "fill=\"#ecc8bc\""));
    ck_assert(strstr(out, "<rect x=\"132\" y=\"38\" width=\"40\" height=\"20\" rx=\"4\" "
                          "fill=\"#d8e4f4\""));
    /* the legend's armies row, before the units row: allies then axis, each with a counter
     * of its colour in front of its name */
    const char *row = strstr(out, ">armies:</text>"), *units = strstr(out, ">units:</text>");
    ck_assert(row && units && row < units);
    const char *allies = strstr(row, ">allies</text>"), *axis = strstr(row, ">axis</text>");
    ck_assert(allies && axis && allies < axis && axis < units);
    ck_assert(strstr(row, "fill=\"#d8e4f4\"/>") < allies);
    const char *red = strstr(row, "fill=\"#ecc8bc\"/>");
    ck_assert(red && allies < red && red < axis);
    free(out);
    const char *colours[2] = { NULL, "#a02020" };
    o.army_colours = colours;
    o.n_army_colours = 2;
    out = capture_svg(b, &o);
    ck_assert(strstr(out, "<rect x=\"84\" y=\"38\" width=\"40\" height=\"20\" rx=\"4\" "
                          "fill=\"#a02020\""));
    ck_assert(strstr(out, "<rect x=\"36\" y=\"38\" width=\"40\" height=\"20\" rx=\"4\" "
                          "fill=\"#d8e4f4\""));
    ck_assert(strstr(strstr(out, ">armies:</text>"), "fill=\"#a02020\"/>"));
    free(out);
    (void)g;
    board_free(b);
}
END_TEST

/* Issue 12: every glyph the board shows is in the legend. A 4 x 1 board as a scenario writes
 * it: A1 `m` = hill + mound at level 1, B1 `h` = hill at level 2, C1 `.` = open at level -1,
 * D1 `h` with the square feature primary_objective (its own line, not the symbol's: the
 * legend names a symbol by the first square showing it). The terrain row lists the symbols in square
 * order with what each stands for ('.' with no symbol drawn, as the squares show none), the
 * elevation row each level lowest first with its "+N" as the squares show it, the features
 * row each square feature by its label (the name's first 6 letters) on a swatch, a square's
 * corner edged in grey as the squares are (issue 12 §5: a sample of how it is drawn, not a
 * coloured word alone), with the name when the label cuts it. */
START_TEST(legend_names_every_glyph)
{
    board *b = board_new(GEO_SQUARE, 4, 1);
    board_set_name(b, BOARD_TERRAIN, 0, "hill", 0);
    board_set_name(b, BOARD_TERRAIN, 1, "open", 0);
    board_set_name(b, BOARD_SQUARE_FEATURE, 0, "mound", 0);
    board_set_name(b, BOARD_SQUARE_FEATURE, 1, "primary_objective", 0);
    int hill = board_element_new(b, 0, "hill1"), open = board_element_new(b, 1, "open1");
    board_element_add(b, hill, 0);
    board_element_add(b, hill, 1);
    board_element_add(b, open, 2);
    board_element_add(b, hill, 3);
    board_set_elevation(b, 0, 1);
    board_set_elevation(b, 1, 2);
    board_set_elevation(b, 2, -1);
    board_put(b, BOARD_AT_SQUARE, 0, (board_feature){ 0, 1, -1 });
    board_put(b, BOARD_AT_SQUARE, 3, (board_feature){ 1, 1, -1 });
    const int was[4] = { 0, 0, 1, 0 };
    draw_options o = { .symbols = "mh.h", .symbol_terrain = was };
    char *out = capture_svg(b, &o);
    const char *terrain = strstr(out, ">terrain:</text>"),
               *elev = strstr(out, ">elevation:</text>"), *feat = strstr(out, ">features:</text>");
    ck_assert(terrain && elev && feat && terrain < elev && elev < feat);
    const char *m = strstr(terrain, ">hill + mound</text>"), *h = strstr(terrain, ">hill</text>"),
               *dot = strstr(terrain, ">open</text>");
    ck_assert_msg(m && h && dot && m < h && h < dot && dot < elev, "%s", out);
    ck_assert(strstr(terrain, ">m</text>") < m && strstr(terrain, ">h</text>") < h);
    ck_assert(strstr(terrain, ">.</text>") == NULL);
    const char *lo = strstr(elev, ">-1</text>"), *one = strstr(elev, ">+1</text>"),
               *two = strstr(elev, ">+2</text>");
    ck_assert(lo && one && two && lo < one && one < two && two < feat);
    ck_assert(strstr(elev, ">level -1</text>") && strstr(elev, ">level 2</text>"));
    ck_assert(strstr(feat, "fill=\"#7a4a00\">mound</text>"));
    ck_assert(strstr(feat, "fill=\"#7a4a00\">primar</text>"));
    ck_assert(strstr(feat, ">= primary_objective</text>"));
    const char *swatch = strstr(feat, "<rect"), *mound = strstr(feat, ">mound</text>");
    ck_assert_msg(swatch && swatch < mound && strstr(swatch, "stroke=\"#8a8a8a\"") < mound, "%s",
                  feat);
    /* the squares show the same labels */
    ck_assert(strstr(out, "fill=\"#7a4a00\">primar</text>") < feat);
    free(out);
    board_free(b);
}
END_TEST

/* Issue 12: every counter is told from every other. Two units whose names agree in their first
 * 8 letters, company_alpha (id 0) on A1 and company_bravo (id 1) on D2 of a 4 x 2 board, once
 * read "company_" alike with a legend of names alone. Each counter (40 pixels wide, 0.55 em a
 * character of type 10, 5.5 pixels: 40 * 20 / 110 = 7 characters, so that the name stays in
 * its counter) now shows its key in bold (the text picture's: a and b, the unit ids in order,
 * the map showing only '.'), a space, and what is left, 5 characters: the name's first 4 and
 * an ellipsis (UTF-8 e2 80 a6). The legend's units row lists each key
 * on its counter swatch with the full name and its square, as the text key does. A name that
 * fits (unit 2, "x" on B2) is shown whole, without an ellipsis. */
START_TEST(counters_told_apart)
{
    board *b = board_new(GEO_SQUARE, 4, 2);
    const geo_grid *g = board_grid(b);
    board_place_unit(b, 0, geo_parse_square(g, "A1"), -1);
    board_set_unit_label(b, 0, "company_alpha");
    board_place_unit(b, 1, geo_parse_square(g, "D2"), -1);
    board_set_unit_label(b, 1, "company_bravo");
    board_place_unit(b, 2, geo_parse_square(g, "B2"), -1);
    board_set_unit_label(b, 2, "x");
    geo_status st;
    char *text = capture_text(b, NULL, &st);
    ck_assert_msg(strstr(text, "units: a company_alpha A1\n       b company_bravo D2\n"
                               "       c x B2\n"),
                  "%s", text);
    free(text);
    char *out = capture_svg(b, NULL);
    const char *labels = strstr(out, "<g id=\"labels\"");
    ck_assert_ptr_nonnull(labels);
    const char *a =
        strstr(labels, "><tspan font-weight=\"bold\">a</tspan> comp\xe2\x80\xa6</text>");
    const char *bb =
        strstr(labels, "><tspan font-weight=\"bold\">b</tspan> comp\xe2\x80\xa6</text>");
    ck_assert_msg(a && bb, "%s", out);
    ck_assert(strstr(labels, "><tspan font-weight=\"bold\">c</tspan> x</text>"));
    ck_assert(strstr(out, ">company_</text>") == NULL);
    const char *row = strstr(out, ">units:</text>");
    ck_assert_ptr_nonnull(row);
    const char *ka = strstr(row, "fill=\"#333333\">a</text>"),
               *na = strstr(row, ">company_alpha A1</text>"),
               *kb = strstr(row, "fill=\"#333333\">b</text>"),
               *nb = strstr(row, ">company_bravo D2</text>");
    ck_assert_msg(ka && na && kb && nb && ka < na && na < kb && kb < nb, "%s", row);
    ck_assert(strstr(row, ">x B2</text>"));
    free(out);
    board_free(b);
}
END_TEST

/* Issue 12: the dot of a square the line crosses is never hidden under a counter's name. On
 * tiny(), the line A1 -> C1 crosses A1, B1 and C1; rifle's counter on C1 spans x 132-172,
 * y 38-58 (svg_picture), its name centred on C1's centre (152, 48), whose white halo hid the
 * dot there. A1's and B1's dots stay at their centres (56, 48) and (104, 48) in the line's
 * group; C1's, the line's end, goes over the labels, on the line where it leaves the counter
 * toward the other end A1: left from (152, 48) to the counter's left edge, (132, 48). */
START_TEST(crossed_dot_over_counter)
{
    board *b = tiny();
    const geo_grid *g = board_grid(b);
    geo_trace t;
    ck_assert_int_eq(geo_trace_line(g, geo_parse_square(g, "A1"), geo_parse_square(g, "C1"), &t),
                     GEO_OK);
    draw_options o = { .trace = &t };
    char *out = capture_svg(b, &o);
    const char *line = strstr(out, "<g id=\"line\""), *labels = strstr(out, "<g id=\"labels\"");
    ck_assert(line && labels && line < labels);
    const char *dot = "r=\"3\" fill-opacity=\"0.7\" stroke=\"none\"/>";
    char a1[96], b1[96], c1[96], centre[96];
    snprintf(a1, sizeof a1, "<circle cx=\"56\" cy=\"48\" %s", dot);
    snprintf(b1, sizeof b1, "<circle cx=\"104\" cy=\"48\" %s", dot);
    snprintf(c1, sizeof c1, "<circle cx=\"132\" cy=\"48\" %s", dot);
    snprintf(centre, sizeof centre, "<circle cx=\"152\" cy=\"48\" %s", dot);
    const char *pa = strstr(line, a1), *pb = strstr(line, b1), *pc = strstr(out, c1);
    ck_assert(pa && pb && pa < labels && pb < labels);
    ck_assert(pc && pc > strstr(labels, "> rifle</text>"));
    ck_assert(strstr(out, centre) == NULL);
    free(out);
    geo_trace_free(&t);
    board_free(b);
}
END_TEST

START_TEST(hex_not_drawn)
{
    board *b = board_new(GEO_HEX, 3, 3);
    FILE *f = fopen("/dev/null", "w");
    ck_assert_int_eq(draw_text(b, NULL, f), GEO_ETOPO);
    ck_assert_int_eq(draw_svg(b, NULL, f), GEO_ETOPO);
    fclose(f);
    board_free(b);
}
END_TEST

/* A unit key and a side's symbol never share a character: unit 0 "rifle" on A1 takes the key
 * a (the map shows only '.'), and the side feature "alpha" on A1/B1, whose first free letter
 * would be that a, takes its next letter, l. */
START_TEST(keys_and_sides_differ)
{
    board *b = board_new(GEO_SQUARE, 2, 1);
    const geo_grid *g = board_grid(b);
    board_set_name(b, BOARD_SIDE_FEATURE, 0, "alpha", 0);
    int a1 = geo_parse_square(g, "A1"), b1 = geo_parse_square(g, "B1");
    board_put(b, BOARD_AT_SIDE, geo_side_between(g, a1, b1), (board_feature){ 0, 0, -1 });
    board_place_unit(b, 0, a1, -1);
    board_set_unit_label(b, 0, "rifle");
    geo_status st;
    char *out = capture_text(b, NULL, &st);
    ck_assert_int_eq(st, GEO_OK);
    ck_assert_msg(strstr(out, "units: a rifle A1\n") && strstr(out, "sides:  l alpha\n"), "%s",
                  out);
    free(out);
    board_free(b);
}
END_TEST

/* The length of text's second line (the top frame of a text picture). */
static size_t second_line_length(const char *text)
{
    size_t first = strcspn(text, "\n");
    return strcspn(text + first + 1, "\n");
}

/* A 30-column board (A to AD) with a line from M1 to P2: the text shows columns M - 3 = J to
 * P + 3 = S, ten of them (4 + 10 * 5 + 1 = 55 characters a line, not 155), and says so. */
START_TEST(wide_board_window)
{
    board *b = board_new(GEO_SQUARE, 30, 2);
    const geo_grid *g = board_grid(b);
    geo_trace t;
    geo_trace_line(g, geo_parse_square(g, "M1"), geo_parse_square(g, "P2"), &t);
    draw_options o = { .trace = &t };
    geo_status st;
    char *out = capture_text(b, &o, &st);
    ck_assert_int_eq(st, GEO_OK);
    ck_assert_msg(strncmp(out, "     J    K    L    M    N    O    P    Q    R    S   \n", 55) == 0,
                  "%s", out);
    ck_assert_msg(second_line_length(out) == 55, "%s", out);
    ck_assert_msg(strstr(out, "(columns J-S of A-AD, around the line; A-I and T-AD left out)\n"),
                  "%s", out);
    free(out);
    /* without a line or a width the whole board is drawn: 4 + 30 * 5 + 1 = 155 characters */
    out = capture_text(b, NULL, &st);
    ck_assert_msg(second_line_length(out) == 155, "%s", out);
    ck_assert(strstr(out, "(columns") == NULL);
    free(out);
    /* issue 12: in 80 characters (COLUMNS) fit (80 - 5) / 5 = 15 columns, A to O, and the
     * lines are 4 + 15 * 5 + 1 = 80 long */
    o = (draw_options){ .columns = 80 };
    out = capture_text(b, &o, &st);
    ck_assert_msg(strncmp(out, "     A    B    C", 16) == 0 && second_line_length(out) == 80, "%s",
                  out);
    ck_assert_msg(strstr(out, "(columns A-O of A-AD, to fit 80 characters; P-AD left out)\n"), "%s",
                  out);
    free(out);
    /* centred on AB1 (x 27): 15 columns from 27 - 7 = 20 would pass AD (29), so they end at
     * the edge: P (15) to AD */
    o = (draw_options){ .columns = 80, .centred = true, .centre = geo_parse_square(g, "AB1") };
    out = capture_text(b, &o, &st);
    ck_assert_msg(strstr(out, "(columns P-AD of A-AD, around AB1; A-O left out)\n"), "%s", out);
    ck_assert(second_line_length(out) == 80);
    free(out);
    /* the line's window J-S (10 columns) in 40 characters: (40 - 5) / 5 = 7 columns; the
     * line itself (M-P, 4 columns) fits, so they are centred on its middle, (12 + 15) / 2 =
     * 13 (N): K to Q, even with its verdict decided elsewhere. The line under the grid is
     * wrapped to the 40 characters too (board.md §5), between words: "(columns K-Q of A-AD,
     * around the line;" is 38, one more word would make 42; the rest is indented by two. */
    o = (draw_options){ .trace = &t,
                        .columns = 40,
                        .decided_at = DRAW_AT_SQUARE,
                        .decided = geo_parse_square(g, "S1") };
    out = capture_text(b, &o, &st);
    ck_assert_msg(strstr(out, "(columns K-Q of A-AD, around the line;\n  A-J and R-AD left out)\n"),
                  "%s", out);
    free(out);
    /* a line C1 to AA2 (2 to 26) does not fit 7 columns: around its middle, 14 (O): L to R;
     * with its verdict decided on H1 (7): E to K. Wrapped at 40: "(columns L-R of A-AD, around
     * the middle" is 39, "(columns E-K of A-AD, around where the" 38, and its next line
     * "  line's verdict was decided; A-D and" 37 (with " L-AD" 42). */
    geo_trace long_line;
    geo_trace_line(g, geo_parse_square(g, "C1"), geo_parse_square(g, "AA2"), &long_line);
    o = (draw_options){ .trace = &long_line, .columns = 40 };
    out = capture_text(b, &o, &st);
    ck_assert_msg(strstr(out, "(columns L-R of A-AD, around the middle\n  of the line; A-K and "
                              "S-AD left out)\n"),
                  "%s", out);
    free(out);
    o.decided_at = DRAW_AT_SQUARE;
    o.decided = geo_parse_square(g, "H1");
    out = capture_text(b, &o, &st);
    ck_assert_msg(strstr(out, "(columns E-K of A-AD, around where the\n  line's verdict was "
                              "decided; A-D and\n  L-AD left out)\n"),
                  "%s", out);
    ck_assert(second_line_length(out) == 40);
    free(out);
    geo_trace_free(&long_line);
    geo_trace_free(&t);
    board_free(b);
}
END_TEST

/* A scenario's written symbol stands for the terrain its square had when the board was built
 * (symbol_terrain). Once play takes the square out of its element (a haystack discarded,
 * BRO.2.haystack.spotted and .boom: it is gone), the symbol must go from the picture and the
 * key; once the square is put in a new element, that terrain's own symbol shows. */
START_TEST(symbols_follow_the_board)
{
    board *b = tiny();
    const geo_grid *g = board_grid(b);
    int a1 = geo_parse_square(g, "A1");
    const char symbols[7] = "W.....";
    const int was[6] = { 0, -1, -1, -1, -1, -1 }; /* A1 in woods1, the rest in no element */
    draw_options o = { .symbols = symbols, .symbol_terrain = was };
    geo_status st;
    /* As built: the written symbols, each keyed by the terrain of its squares. */
    char *out = capture_text(b, &o, &st);
    ck_assert(strstr(out, "  1 | W  w .    . a|\n") != NULL);
    ck_assert(strstr(out, "terrain:  W woods  . none\n") != NULL);
    free(out);
    /* A1 leaves woods1: nothing stands for it, a blank square, and no woods in the key. */
    ck_assert_int_eq(board_element_add(b, -1, a1), GEO_OK);
    out = capture_text(b, &o, &st);
    ck_assert_int_eq(st, GEO_OK);
    ck_assert(strstr(out, "  1 |    w .    . a|\n") != NULL);
    ck_assert(strstr(out, "terrain:  . none\n") != NULL);
    ck_assert(strstr(out, "woods") == NULL);
    free(out);
    /* A1 becomes a new element of terrain 1, rubble 'R': its own symbol and key. */
    board_set_name(b, BOARD_TERRAIN, 1, "rubble", 'R');
    int e = board_element_new(b, 1, "rubble1");
    ck_assert_int_eq(board_element_add(b, e, a1), GEO_OK);
    out = capture_text(b, &o, &st);
    ck_assert(strstr(out, "  1 | R  w .    . a|\n") != NULL);
    ck_assert(strstr(out, "terrain:  R rubble  . none\n") != NULL);
    free(out);
    board_free(b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("draw");
    TCase *tc = tcase_create("draw");
    tcase_add_test(tc, text_picture);
    tcase_add_test(tc, svg_picture);
    tcase_add_test(tc, armies_in_the_legend);
    tcase_add_test(tc, legend_names_every_glyph);
    tcase_add_test(tc, markers_and_faces);
    tcase_add_test(tc, passengers_and_sparse_ids);
    tcase_add_test(tc, counters_told_apart);
    tcase_add_test(tc, crossed_dot_over_counter);
    tcase_add_test(tc, hex_not_drawn);
    tcase_add_test(tc, keys_and_sides_differ);
    tcase_add_test(tc, wide_board_window);
    tcase_add_test(tc, symbols_follow_the_board);
    suite_add_tcase(s, tc);
    return check_run(s);
}
