/* tests/runtime/test_scenario.c — Check tests of runtime/scenario.{c,h}: the bundled example
 * boards (examples/boards/) load with the names listed in docs/spec/board.md and hold what the
 * files say; every file of tests/runtime/bad/ gives exactly the diagnostics its `# expect:` lines
 * pin (code, line, column, text); rendering; the error cap; a deterministic fuzz loop over
 * mutated and truncated scenario text that must never crash (run it under the sanitizers).
 */
#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "config.h"
#include "draw.h"
#include "geo.h"
#include "mem.h"
#include "scenario.h"
#include "scn_names.h"

/* The names the example boards use, as the rules would declare them (docs/spec/board.md). */
static const char *const TERRAIN[] = { "sand",  "shingle", "water",    "grass",  "bunker", "woods",
                                       "road",  "open",    "hill",     "field",  "stream", "trench",
                                       "rough", "crater",  "building", "bridge", NULL };
static const char *const SQUARE_FEATURES[] = { "mound", "summit", "ford", "rail", NULL };
static const char *const SIDE_FEATURES[] = { "contour", "embankment", "wall",     "window",
                                             "opening", "wire",       "hedgehog", "passage",
                                             "ladder",  "door",       "hedge",    NULL };
static const char *const ITEMS[] = { "mine", NULL };
static const char *const MARKERS[] = { "suppressed", NULL };
static const char *const COUNTERS[] = { "landing_craft", "rifle_squad",
                                        "bazooka_team",  "mg_team",
                                        "sniper",        "grenadiers",
                                        "observer",      "at_gun",
                                        "sherman",       "example_sherman",
                                        "jeep",          "officer",
                                        "engineers",     "stug",
                                        "halftrack",     NULL };
static const char *const ARMIES[] = { "allies", "axis", NULL };
static const char *const VALUE_NAMES[] = { "structure_points", "defense",  "anti_personnel",
                                           "anti_tank",        "decoy",    "vs_infantry",
                                           "vs_light",         "vs_heavy", NULL };
static const char *const FACES[] = { "wreck", NULL };
/* counters two squares long */
static const char *const LONG[] = { "landing_craft", "sherman",   "example_sherman",
                                    "stug",          "halftrack", NULL };

static scn_names *declared(void)
{
    scn_names *n = scn_names_new();
    const char *const *lists[BOARD_NKINDS] = { TERRAIN, SQUARE_FEATURES, SIDE_FEATURES,
                                               ITEMS,   MARKERS,         COUNTERS,
                                               ARMIES,  VALUE_NAMES,     FACES };
    for (int k = 0; k < BOARD_NKINDS; k++)
        for (const char *const *p = lists[k]; *p; p++)
            scn_names_add(n, (board_name_kind)k, *p);
    scn_names_freeze(n);
    return n;
}

static int resolve_declared(void *ud, board_name_kind k, const char *name)
{
    scn_resolver r = scn_names_resolver(ud);
    return r.resolve(ud, k, name);
}

static int counter_size(void *ud, int counter)
{
    const char *name = scn_names_name(ud, BOARD_COUNTER, counter);
    for (const char *const *p = LONG; *p; p++)
        if (name && strcmp(name, *p) == 0)
            return 2;
    return 1;
}

static scn_resolver resolver(scn_names *n)
{
    return (scn_resolver){ .resolve = resolve_declared, .counter_size = counter_size, .ud = n };
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static char buf[1 << 16];
    *len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[*len] = '\0';
    char *copy = malloc(*len + 1);
    memcpy(copy, buf, *len + 1);
    return copy;
}

static scenario *load_example(const char *name, scn_names *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/boards/%s", HON_SOURCE_ROOT, name);
    scn_resolver r = resolver(n);
    scn_errors errs = { 0 };
    scenario *s = scn_names_load_file(path, &r, &errs);
    ck_assert_msg(s != NULL, "%s did not load (%zu errors)", name, errs.len);
    ck_assert_uint_eq(errs.len, 0);
    scn_errors_free(&errs);
    return s;
}

static int at(const scenario *s, const char *name)
{
    int q = geo_parse_square(board_grid(s->board), name);
    ck_assert_msg(q >= 0, "bad square %s", name);
    return q;
}

static int id_of(scn_names *n, board_name_kind k, const char *name)
{
    int id = scn_names_add(n, k, name); /* already there: its id */
    ck_assert_int_ge(id, 0);
    return id;
}

static int side_at(const scenario *s, const char *a, const char *b)
{
    return geo_side_between(board_grid(s->board), at(s, a), at(s, b));
}

/* ---- the example boards ---- */

START_TEST(example_beach)
{
    scn_names *n = declared();
    scenario *s = load_example("beach_seawall.scn", n);
    const board *b = s->board;
    const geo_grid *g = board_grid(b);
    ck_assert_str_eq(s->title, "Omaha beach, Easy Red: seawall, wire and hedgehogs");
    ck_assert_int_eq(g->w, 12);
    ck_assert_int_eq(g->h, 9);
    ck_assert_uint_eq(s->n_cites, 5);
    ck_assert_str_eq(s->cites[1].id, "BRO.1.3.placement");
    /* terrain and elevation as drawn */
    ck_assert_int_eq(board_terrain(b, at(s, "H2")), id_of(n, BOARD_TERRAIN, "bunker"));
    ck_assert_int_eq(board_terrain(b, at(s, "A9")), id_of(n, BOARD_TERRAIN, "water"));
    ck_assert_int_eq(board_elevation(b, at(s, "A9")), -1);
    ck_assert_int_eq(board_elevation(b, at(s, "L1")), 1);
    /* the contour runs along the whole A3/A4..L3/L4 line: 12 sides */
    int contour = id_of(n, BOARD_SIDE_FEATURE, "contour");
    for (int x = 0; x < 12; x++)
        ck_assert(board_side_has(b, geo_side_between(g, 2 * 12 + x, 3 * 12 + x), contour, NULL));
    /* the seawall has a gap where the road (column G) crosses it */
    int wall = id_of(n, BOARD_SIDE_FEATURE, "embankment");
    ck_assert(board_side_has(b, side_at(s, "F4", "F5"), wall, NULL));
    ck_assert(!board_side_has(b, side_at(s, "G4", "G5"), wall, NULL));
    ck_assert(board_side_has(b, side_at(s, "H4", "H5"), wall, NULL));
    /* the bunker window faces the beach (the square south of H2) */
    board_feature f;
    ck_assert(
        board_side_has(b, side_at(s, "H2", "H3"), id_of(n, BOARD_SIDE_FEATURE, "window"), &f));
    ck_assert_int_eq(f.facing, at(s, "H3"));
    ck_assert(
        board_side_has(b, side_at(s, "H2", "H3"), id_of(n, BOARD_SIDE_FEATURE, "wall"), NULL));
    ck_assert(
        board_side_has(b, side_at(s, "I1", "I2"), id_of(n, BOARD_SIDE_FEATURE, "opening"), NULL));
    /* hedgehogs and wire */
    int hh = id_of(n, BOARD_SIDE_FEATURE, "hedgehog"), wire = id_of(n, BOARD_SIDE_FEATURE, "wire");
    ck_assert(board_side_has(b, side_at(s, "E6", "F6"), hh, NULL));
    ck_assert(board_side_has(b, side_at(s, "B5", "B6"), wire, NULL));
    ck_assert(!board_side_has(b, side_at(s, "D5", "D6"), wire, NULL));
    /* mines: F5's NW corner holds a 2; G5:NE is the same point as H5:NW and holds a 1 */
    int mine = id_of(n, BOARD_INTERSPACE_ITEM, "mine");
    ck_assert(
        board_has(b, BOARD_AT_INTERSPACE, geo_interspace_of(g, at(s, "F5"), GEO_NW), mine, &f));
    ck_assert_int_eq(f.value, 2);
    ck_assert(
        board_has(b, BOARD_AT_INTERSPACE, geo_interspace_of(g, at(s, "H5"), GEO_NW), mine, &f));
    ck_assert_int_eq(f.value, 1);
    /* units: a 2-square landing craft with a squad aboard */
    int lc = scn_unit_find(s, "lcvp1"), r3 = scn_unit_find(s, "rifle3");
    ck_assert_int_ge(lc, 0);
    ck_assert_int_eq(s->units[lc].sq0, at(s, "E8"));
    ck_assert_int_eq(s->units[lc].sq1, at(s, "E9"));
    ck_assert_int_eq(board_unit_orientation(b, s->units[lc].id), GEO_S);
    ck_assert_int_eq(s->units[r3].in, lc);
    ck_assert_int_eq(board_unit_embarked_in(b, s->units[r3].id), s->units[lc].id);
    int r2 = scn_unit_find(s, "rifle2");
    ck_assert_uint_eq(s->units[r2].n_markers, 1);
    ck_assert_int_eq(s->units[r2].markers[0], id_of(n, BOARD_MARKER, "suppressed"));
    ck_assert_int_eq(s->units[scn_unit_find(s, "mg42")].army, id_of(n, BOARD_ARMY, "axis"));
    ck_assert_uint_eq(s->n_units, 9);
    /* no colours of its own: the example boards take the rules' colours, the same on every
     * board (issue 12; colour_lines tests the lines) */
    ck_assert_uint_eq(s->n_terrain_colours + s->n_side_colours + s->n_army_colours, 0);
    scn_free(s);
    scn_names_free(n);
}
END_TEST

START_TEST(example_hill)
{
    scn_names *n = declared();
    scenario *s = load_example("hill_contour.scn", n);
    const board *b = s->board;
    int contour = id_of(n, BOARD_SIDE_FEATURE, "contour");
    /* `side steps contour`: contour lines exactly where the elevation changes */
    ck_assert(board_side_has(b, side_at(s, "B3", "C3"), contour, NULL));  /* 0 | 1 */
    ck_assert(board_side_has(b, side_at(s, "D4", "E4"), contour, NULL));  /* 1 | 2 */
    ck_assert(!board_side_has(b, side_at(s, "C3", "C4"), contour, NULL)); /* 1 | 1 */
    ck_assert(!board_side_has(b, side_at(s, "A1", "B1"), contour, NULL)); /* 0 | 0 */
    /* the two explicit elements; the woods on the slope are their own elements */
    int hill = board_element_at(b, at(s, "D2")), summit = board_element_at(b, at(s, "E4"));
    ck_assert_str_eq(board_element_name(b, hill), "hill192");
    ck_assert_str_eq(board_element_name(b, summit), "summit");
    ck_assert_int_eq(board_element_type(b, summit), id_of(n, BOARD_TERRAIN, "hill"));
    ck_assert_uint_eq(board_element_squares(b, summit, NULL, 0), 4);
    ck_assert_uint_eq(board_element_squares(b, hill, NULL, 0), 26);
    ck_assert_int_ne(board_element_at(b, at(s, "F3")), hill);
    /* the unnamed stream gets an automatic element named after its first square */
    ck_assert_str_eq(board_element_name(b, board_element_at(b, at(s, "A8"))), "stream@A8");
    ck_assert_int_eq(board_element_at(b, at(s, "L10")), board_element_at(b, at(s, "A8")));
    /* mound squares carry the mound feature and the hill terrain (legend m = hill + mound) */
    int mound = id_of(n, BOARD_SQUARE_FEATURE, "mound");
    ck_assert(board_has(b, BOARD_AT_SQUARE, at(s, "D2"), mound, NULL));
    ck_assert(board_has(b, BOARD_AT_SQUARE, at(s, "I4"), mound, NULL));
    ck_assert(!board_has(b, BOARD_AT_SQUARE, at(s, "E2"), mound, NULL));
    ck_assert(
        board_has(b, BOARD_AT_SQUARE, at(s, "C9"), id_of(n, BOARD_SQUARE_FEATURE, "ford"), NULL));
    ck_assert_int_eq(board_unit_orientation(b, s->units[scn_unit_find(s, "sherman")].id), GEO_E);
    ck_assert_int_eq(s->symbols[at(s, "D2")], 'm');
    scn_free(s);
    scn_names_free(n);
}
END_TEST

START_TEST(example_trench)
{
    scn_names *n = declared();
    scenario *s = load_example("trench_line.scn", n);
    const board *b = s->board;
    int wall = id_of(n, BOARD_SIDE_FEATURE, "wall");
    int tw = board_element_at(b, at(s, "A4")), te = board_element_at(b, at(s, "J4"));
    ck_assert_str_eq(board_element_name(b, tw), "trench_w");
    ck_assert_str_eq(board_element_name(b, te), "trench_e");
    ck_assert_uint_eq(board_element_squares(b, tw, NULL, 0), 8);
    /* walls follow the outline but not the board's edge */
    ck_assert(board_side_has(b, side_at(s, "A3", "A4"), wall, NULL));
    ck_assert(!board_side_has(b, geo_side_of(board_grid(b), at(s, "A4"), GEO_W), wall, NULL));
    ck_assert(!board_side_has(b, side_at(s, "C4", "C5"), wall, NULL)); /* inside the trench */
    /* the two trenches touch at G5/H5: a wall from each outline plus the passage */
    ck_assert(board_side_has(b, side_at(s, "G5", "H5"), wall, NULL));
    ck_assert(
        board_side_has(b, side_at(s, "G5", "H5"), id_of(n, BOARD_SIDE_FEATURE, "passage"), NULL));
    ck_assert(
        board_side_has(b, side_at(s, "B3", "B4"), id_of(n, BOARD_SIDE_FEATURE, "ladder"), NULL));
    /* corners of the western trench (BRO.1.1.hole.corners): C4 turns, D5 does not */
    ck_assert(board_element_corner(b, tw, at(s, "C4")));
    ck_assert(!board_element_corner(b, tw, at(s, "D5")));
    scn_free(s);
    scn_names_free(n);
}
END_TEST

START_TEST(example_village)
{
    scn_names *n = declared();
    scenario *s = load_example("village_rail.scn", n);
    const board *b = s->board;
    int rail = id_of(n, BOARD_SQUARE_FEATURE, "rail");
    ck_assert(board_has(b, BOARD_AT_SQUARE, at(s, "A4"), rail, NULL));
    ck_assert(board_has(b, BOARD_AT_SQUARE, at(s, "G4"), rail, NULL)); /* the level crossing */
    ck_assert_int_eq(board_terrain(b, at(s, "G4")), id_of(n, BOARD_TERRAIN, "road"));
    ck_assert_int_eq(board_terrain(b, at(s, "A4")), id_of(n, BOARD_TERRAIN, "open"));
    ck_assert_int_eq(board_terrain(b, at(s, "G8")), id_of(n, BOARD_TERRAIN, "bridge"));
    board_feature f;
    ck_assert(board_side_has(b, side_at(s, "A7", "A8"), id_of(n, BOARD_SIDE_FEATURE, "hedge"), &f));
    ck_assert_int_eq(f.facing, at(s, "A7"));
    ck_assert(
        board_side_has(b, side_at(s, "G2", "H2"), id_of(n, BOARD_SIDE_FEATURE, "door"), NULL));
    int h = scn_unit_find(s, "halftrack"), r3 = scn_unit_find(s, "rifle3");
    ck_assert_int_eq(s->units[r3].in, h);
    int s0, s1;
    ck_assert(board_unit_squares(b, s->units[r3].id, &s0, &s1)); /* where its transport is */
    ck_assert_int_eq(s0, at(s, "B9"));
    ck_assert_int_eq(s1, at(s, "C9"));
    scn_free(s);
    scn_names_free(n);
}
END_TEST

/* ---- bad files ---- */

static void check_bad(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/runtime/bad/%s", HON_SOURCE_ROOT, file);
    size_t len;
    char *text = slurp(path, &len);
    scn_names *n = declared();
    scn_resolver r = resolver(n);
    scn_errors errs = { 0 };
    scenario *s = scn_load(text, len, &r, &errs);
    ck_assert_msg(s == NULL, "%s loaded", file);
    size_t k = 0;
    for (const char *p = text; (p = strstr(p, "# expect: ")) != NULL; k++) {
        p += 10;
        const char *e = strchr(p, '\n');
        size_t m = e ? (size_t)(e - p) : strlen(p);
        ck_assert_msg(k < errs.len, "%s: fewer errors than expected (%zu)", file, errs.len);
        char got[400];
        const scn_error *x = &errs.items[k];
        snprintf(got, sizeof got, "%d:%d: error[E%03d]: %s", x->line, x->col, x->code, x->message);
        ck_assert_msg(strlen(got) == m && strncmp(got, p, m) == 0,
                      "%s: expected\n  %.*s\ngot\n  %s", file, (int)m, p, got);
    }
    ck_assert_msg(k == errs.len, "%s: %zu errors, %zu expected (next: %s)", file, errs.len, k,
                  k < errs.len ? errs.items[k].message : "");
    ck_assert_uint_gt(k, 0);
    scn_errors_free(&errs);
    scn_names_free(n);
    free(text);
}

START_TEST(bad_files)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/tests/runtime/bad", HON_SOURCE_ROOT);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".scn") != 0)
            continue;
        check_bad(e->d_name);
        files++;
    }
    closedir(d);
    ck_assert_int_ge(files, 8);
}
END_TEST

/* A scenario loaded from text with the declared names, which must load without error. */
static scenario *load_text(const char *text, scn_names *n)
{
    scn_resolver r = resolver(n);
    scn_errors errs = { 0 };
    scenario *s = scn_load(text, strlen(text), &r, &errs);
    ck_assert_msg(s != NULL, "%s", errs.len ? errs.items[0].message : "");
    scn_errors_free(&errs);
    return s;
}

/* `colour` lines (board.md §4): by terrain, side-feature and army id, as written; an army's
 * colour is also each of its units' (unit_colours), and kept by army for the legend. */
START_TEST(colour_lines)
{
    const char *text = "size 2 x 1\nlegend . = open\nmap\n1 ..\n"
                       "unit a = rifle_squad allies at A1\nunit b = rifle_squad axis at B1\n"
                       "colour terrain open \"#e0e0e0\"\ncolour side wall \"#101010\"\n"
                       "colour army axis \"#ff8080\"\n";
    scn_names *n = declared();
    scenario *s = load_text(text, n);
    int open = id_of(n, BOARD_TERRAIN, "open"), wall = id_of(n, BOARD_SIDE_FEATURE, "wall");
    int axis = id_of(n, BOARD_ARMY, "axis"), allies = id_of(n, BOARD_ARMY, "allies");
    ck_assert_str_eq(s->terrain_colours[open], "#e0e0e0");
    ck_assert_str_eq(s->side_colours[wall], "#101010");
    ck_assert_uint_gt(s->n_army_colours, (size_t)axis);
    ck_assert_str_eq(s->army_colours[axis], "#ff8080");
    ck_assert(allies >= (int)s->n_army_colours || s->army_colours[allies] == NULL);
    ck_assert_uint_gt(s->n_unit_colours, (size_t)s->units[1].id);
    ck_assert_str_eq(s->unit_colours[s->units[1].id], "#ff8080");
    scn_free(s);
    scn_names_free(n);
}
END_TEST

/* A unit declared `off` is in the unit pool with its markers but not on the board; one placed
 * after it still stands where its line says. */
START_TEST(unit_off_the_board)
{
    const char *text = "size 2 x 1\nlegend . = open\nmap\n1 ..\n"
                       "unit late = rifle_squad axis off with suppressed\n"
                       "unit squad = rifle_squad allies at B1\n";
    scn_names *n = declared();
    scenario *s = load_text(text, n);
    ck_assert_uint_eq(s->n_units, 2);
    ck_assert(!board_unit_present(s->board, s->units[0].id));
    ck_assert_int_eq(s->units[0].sq0, -1);
    ck_assert_int_eq(s->units[0].in, -1);
    ck_assert_uint_eq(s->units[0].n_markers, 1);
    ck_assert(board_unit_present(s->board, s->units[1].id));
    ck_assert_int_eq(s->units[1].sq0, at(s, "B1"));
    scn_free(s);
    scn_names_free(n);
}
END_TEST

/* A building with a Defensive Bonus (its `value`), Structure points and a Defense value of its
 * own (named values) and two Destruction-like markers; a wreck on the board from the start. */
START_TEST(element_values_markers_and_faces)
{
    const char *text = "size 4 x 2\nlegend . = open b = building\nmap\n1 bb..\n2 ....\n"
                       "element house = A1..B1 value 2 values structure_points=4 defense=1 "
                       "with suppressed=2 facing S\n"
                       "unit hulk = sherman axis at C2 D2 face wreck with suppressed\n"
                       "unit squad = rifle_squad allies at A2\n";
    scn_names *n = declared();
    scenario *s = load_text(text, n);
    int house = board_element_at(s->board, at(s, "A1"));
    ck_assert_str_eq(board_element_name(s->board, house), "house");
    int value, facing;
    board_element_attr(s->board, house, &value, &facing);
    ck_assert_int_eq(value, 2);
    ck_assert_int_eq(facing, GEO_S);
    board_feature f;
    ck_assert(board_has(s->board, BOARD_AT_ELEMENT_VALUE, house,
                        id_of(n, BOARD_VALUE_NAME, "structure_points"), &f));
    ck_assert_int_eq(f.value, 4);
    ck_assert(board_has(s->board, BOARD_AT_ELEMENT_VALUE, house,
                        id_of(n, BOARD_VALUE_NAME, "defense"), &f));
    ck_assert_int_eq(f.value, 1);
    ck_assert(board_has(s->board, BOARD_AT_ELEMENT_MARKER, house,
                        id_of(n, BOARD_MARKER, "suppressed"), &f));
    ck_assert_int_eq(f.value, 2);
    /* the automatic element of the open squares has none */
    int open = board_element_at(s->board, at(s, "C1"));
    ck_assert_uint_eq(board_features(s->board, BOARD_AT_ELEMENT_VALUE, open, NULL, 0), 0);
    ck_assert_uint_eq(board_features(s->board, BOARD_AT_ELEMENT_MARKER, open, NULL, 0), 0);
    ck_assert_int_eq(s->units[0].face, id_of(n, BOARD_FACE, "wreck"));
    ck_assert_uint_eq(s->units[0].n_markers, 1);
    ck_assert_int_eq(s->units[1].face, -1);
    scn_free(s);
    scn_names_free(n);
}
END_TEST

START_TEST(render)
{
    const char *text = "size 4 x 2\nlegend . = open\nmap\n1 . . . .\n2 . x\t. .\n";
    scn_names *n = declared();
    scn_resolver r = resolver(n);
    scn_errors errs = { 0 };
    ck_assert_ptr_null(scn_load(text, strlen(text), &r, &errs));
    ck_assert_uint_eq(errs.len, 1);
    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    scn_names_render("board.scn", text, strlen(text), &errs, f);
    fclose(f);
    /* base/diag.c expands the tab after 'x' (display column 5) to the next stop, 8, and puts
     * the caret under the fifth display column, the 'x' */
    ck_assert_str_eq(out, "board.scn:5:5: error[E302]: unknown map symbol 'x' (not in the legend)\n"
                          "    5 | 2 . x   . .\n      |     ^\n");
    free(out);
    scn_errors_free(&errs);
    scn_names_free(n);
}
END_TEST

START_TEST(error_cap)
{
    /* 60 diagonal obstacles: 50 errors, then E314 and nothing more */
    char text[4096] = "size 3 x 3\n";
    for (int i = 0; i < 60; i++)
        strcat(text, "side A1/B2 wire\n");
    scn_names *n = declared();
    scn_resolver r = resolver(n);
    scn_errors errs = { 0 };
    ck_assert_ptr_null(scn_load(text, strlen(text), &r, &errs));
    ck_assert_uint_eq(errs.len, 51);
    ck_assert_int_eq(errs.items[49].code, 309);
    ck_assert_int_eq(errs.items[50].code, 314);
    scn_errors_free(&errs);
    scn_names_free(n);
}
END_TEST

START_TEST(minimal_and_open_names)
{
    /* the smallest scenario: a size; no map means no terrain */
    scn_errors errs = { 0 };
    scenario *s = scn_load("size 2 x 1", 10, NULL, &errs);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s->title, "");
    ck_assert_int_eq(board_terrain(s->board, 0), -1);
    scn_free(s);
    /* an open name table accepts anything and numbers names per kind in order of appearance */
    scn_names *n = scn_names_new();
    scn_resolver r = scn_names_resolver(n);
    const char *t = "size 3x1\nlegend a = moor b = fen\nmap\n1 abb\nunit x = cow herd at C1\n";
    s = scn_load(t, strlen(t), &r, &errs);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(board_terrain(s->board, 2), 1);
    ck_assert_str_eq(scn_names_name(n, BOARD_TERRAIN, 1), "fen");
    ck_assert_str_eq(board_name(s->board, BOARD_TERRAIN, 0), "moor");
    ck_assert_int_eq(board_symbol(s->board, BOARD_TERRAIN, 1), 'b');
    ck_assert_int_eq(s->units[0].id, 0);
    scn_free(s);
    scn_names_free(n);
    /* hex boards load too, but have no interspaces */
    const char *h = "topology hex\nsize 4 x 3\nside B2/C2 wall\ninterspace B2 mine\n";
    n = declared();
    r = resolver(n);
    ck_assert_ptr_null(scn_load(h, strlen(h), &r, &errs));
    ck_assert_uint_eq(errs.len, 1);
    ck_assert_str_eq(errs.items[0].message, "hex boards have no interspaces");
    scn_errors_free(&errs);
    scn_names_free(n);
}
END_TEST

/* ---- robustness ---- */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static const char *const DICT[] = {
    "side ",    "unit ",       "map\n",       "elevation\n", "legend ",
    "element ", "interspace ", "square ",     "size ",       "topology hex\n",
    " = ",      "/",           "..",          ":",           "\"",
    "#",        "\n",          " ",           "A1",          "ZZ99",
    "C3",       "-",           "99999999999", "0",           "1 ",
    "x",        "around ",     "steps ",      "facing N",    "with ",
    " values ", " face ",      " in ",        " at ",        "wall",
    "mine=",    "\t",          "\r\n",        "AAAA1",       "colour terrain open \"#fff\"\n",
    "~",        "\xff",
};

START_TEST(fuzz)
{
    const char *files[] = { "beach_seawall.scn", "hill_contour.scn", "trench_line.scn",
                            "village_rail.scn", NULL };
    uint64_t seed = 0x9E3779B97F4A7C15u;
    FILE *sink = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(sink);
    size_t loaded = 0, rejected = 0;
    for (const char *const *file = files; *file; file++) {
        char path[512];
        snprintf(path, sizeof path, "%s/examples/boards/%s", HON_SOURCE_ROOT, *file);
        size_t len;
        char *orig = slurp(path, &len);
        char *buf = malloc(len * 2 + 4096);
        for (int iter = 0; iter < 400; iter++) {
            memcpy(buf, orig, len);
            size_t n = len;
            int edits = 1 + (int)(rng_next(&seed) % 8);
            for (int e = 0; e < edits; e++) {
                uint64_t r = rng_next(&seed);
                size_t pos = n ? (size_t)(r >> 8) % n : 0;
                switch (r % 5) {
                case 0: n = pos; break; /* truncate */
                case 1:
                    if (n)
                        buf[pos] = (char)(rng_next(&seed) & 0xff);
                    break; /* flip a byte */
                case 2: {  /* insert a word */
                    const char *w = DICT[rng_next(&seed) % (sizeof DICT / sizeof *DICT)];
                    size_t wl = strlen(w);
                    if (n + wl < len * 2 + 4096) {
                        memmove(buf + pos + wl, buf + pos, n - pos);
                        memcpy(buf + pos, w, wl);
                        n += wl;
                    }
                    break;
                }
                case 3: { /* delete a range */
                    size_t k = (size_t)(rng_next(&seed) % 40);
                    if (pos + k > n)
                        k = n - pos;
                    memmove(buf + pos, buf + pos + k, n - pos - k);
                    n -= k;
                    break;
                }
                default: { /* duplicate a line */
                    size_t a = pos, b = pos;
                    while (a > 0 && buf[a - 1] != '\n')
                        a--;
                    while (b < n && buf[b] != '\n')
                        b++;
                    size_t k = b - a;
                    if (k < 300 && n + k + 1 < len * 2 + 4096) {
                        memmove(buf + a + k + 1, buf + a, n - a);
                        memcpy(buf + a, buf + a + k + 1, k);
                        buf[a + k] = '\n';
                        n += k + 1;
                    }
                }
                }
            }
            /* The copy is exactly n bytes long, with no terminator: reading past it is caught by
             * the address sanitizer. */
            char *exact = malloc(n ? n : 1);
            memcpy(exact, buf, n);
            scn_names *names = iter % 2 ? declared() : scn_names_new();
            scn_resolver r = iter % 2 ? resolver(names) : scn_names_resolver(names);
            scn_errors errs = { 0 };
            scenario *s = scn_load(exact, n, &r, &errs);
            if (s) {
                loaded++;
                const geo_grid *g = board_grid(s->board);
                geo_trace t = { 0 };
                int a = (int)(rng_next(&seed) % (uint64_t)geo_square_count(g));
                int b = (int)(rng_next(&seed) % (uint64_t)geo_square_count(g));
                draw_options o = { .symbols = s->symbols };
                if (geo_trace_line(g, a, b, &t) == GEO_OK)
                    o.trace = &t;
                draw_text(s->board, &o, sink);
                draw_svg(s->board, &o, sink);
                geo_trace_free(&t);
                scn_free(s);
            } else {
                rejected++;
                ck_assert_uint_gt(errs.len, 0); /* never rejected silently */
                for (size_t i = 0; i < errs.len; i++) {
                    ck_assert_int_ge(errs.items[i].line, 1);
                    ck_assert_int_ge(errs.items[i].col, 1);
                }
                scn_names_render("fuzz", exact, n, &errs, sink);
            }
            scn_errors_free(&errs);
            scn_names_free(names);
            free(exact);
        }
        free(buf);
        free(orig);
    }
    fclose(sink);
    /* both outcomes happen, so both paths were exercised */
    ck_assert_uint_gt(loaded, 0);
    ck_assert_uint_gt(rejected, 0);
}
END_TEST

START_TEST(out_of_memory)
{
    /* Fail the 1st, 2nd, 3rd... allocation of loading, tracing and drawing the beach until a
     * run needs no failure: every failure must be reported (or the picture abandoned) without a
     * crash or a leak (the sanitizer build checks leaks at exit). */
    char path[512];
    snprintf(path, sizeof path, "%s/examples/boards/beach_seawall.scn", HON_SOURCE_ROOT);
    size_t len;
    char *text = slurp(path, &len);
    scn_names *n = declared();
    scn_resolver r = resolver(n);
    FILE *sink = fopen("/dev/null", "w");
    long k;
    for (k = 0;; k++) {
        mem_fail_after(k);
        scn_errors errs = { 0 };
        scenario *s = scn_load(text, len, &r, &errs);
        if (s) {
            geo_trace t;
            draw_options o = { .symbols = s->symbols };
            if (geo_trace_line(board_grid(s->board), 0, 100, &t) == GEO_OK)
                o.trace = &t;
            draw_text(s->board, &o, sink);
            draw_svg(s->board, &o, sink);
            geo_trace_free(&t);
            scn_free(s);
        }
        scn_errors_free(&errs);
        long failed = mem_failed_count();
        mem_fail_reset();
        if (failed == 0)
            break;
        ck_assert_msg(k < 100000, "no end to allocations");
    }
    ck_assert_int_gt(k, 50); /* the loop did inject failures at many points */
    fclose(sink);
    scn_names_free(n);
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("scenario");
    TCase *tc = tcase_create("scenario");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, example_beach);
    tcase_add_test(tc, unit_off_the_board);
    tcase_add_test(tc, colour_lines);
    tcase_add_test(tc, example_hill);
    tcase_add_test(tc, example_trench);
    tcase_add_test(tc, example_village);
    tcase_add_test(tc, bad_files);
    tcase_add_test(tc, render);
    tcase_add_test(tc, element_values_markers_and_faces);
    tcase_add_test(tc, error_cap);
    tcase_add_test(tc, minimal_and_open_names);
    tcase_add_test(tc, fuzz);
    tcase_add_test(tc, out_of_memory);
    suite_add_tcase(s, tc);
    return check_run(s);
}
