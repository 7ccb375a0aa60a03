/* test_session.c — Check tests of the hon.h calls that stand in for the REPL's text round trips:
 * the loaded files (hon_each_file), places (hon_place_of), line of sight as a call (hon_los),
 * completion by kind (hon_complete), the build (hon_version, hon_data_dir, hon_source_dir,
 * hon_bundle_dir).
 * Every expected value is worked out in a comment from the rules and the board written below.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "interp_test.h"

/* A made-up line of sight (not the game's): a woods square on the line, the target's square
 * excepted, blocks; the same between squares. A variant, an edition, a fn, a table and an
 * event give completion something of every kind. */
static const char *const RULES =
    "kind infantry;\nside allies; side axis;\n"
    "terrain open; terrain woods;\ncounter rifle: infantry { side allies }\n"
    "query line_of_sight(shooter: unit, target: unit) -> verdict combine permission;\n"
    "rule line_of_sight.woods cite \"T.los\"\n"
    "  when any(s in line(square_of(shooter), square_of(target)):\n"
    "           s.square != square_of(target) and terrain(s.square) == woods)\n  answer forbid;\n"
    "query line_of_sight_squares(a: square, b: square, both_infantry: bool) -> verdict\n"
    "  combine permission;\nrule line_of_sight_squares.woods cite \"T.sq\"\n"
    "  when any(s in line(a, b): s.square != b and terrain(s.square) == woods)\n  answer forbid;\n"
    "variant vis \"V\" { reading day default; reading night; }\nedition base \"B\" { }\n"
    "fn twice(n: int) -> int = 2 * n;\ntable range(k: int) -> int { 1 => 6; }\n"
    "event spotted(u: unit);\nsource \"T.los\"; source \"T.sq\";\n";

/* The board (A1 top-left; columns A-E, rows 1-3): woods on C1, the rest open; a on A1, b on
 * E1, c on E3.
 *
 *        A  B  C  D  E
 *   1    a  .  w  .  b
 *   2    .  .  .  .  .
 *   3    .  .  .  .  c
 */
static const char *const BOARD = "scenario \"ridge\"\nsize 5 x 3\nlegend . = open  W = woods\nmap\n"
                                 "  1 . . W . .\n  2 . . . . .\n"
                                 "  3 . . . . .\nunit a = rifle allies at A1\n"
                                 "unit b = rifle axis at E1\nunit c = rifle axis at E3\n";

static tvm *ridge_vm(void)
{
    tvm *t = tvm_new(RULES);
    hon_status st = hon_load_board_source(t->vm, "ridge.scn", BOARD, strlen(BOARD));
    ck_assert_msg(st == HON_OK, "board failed: %s", t->log);
    return t;
}

/* ---- loaded files ---- */

typedef struct listing {
    char text[1024]; /* the names given, each followed by a space */
    size_t n;
} listing;

static void collect(void *ud, const char *name)
{
    listing *l = ud;
    size_t used = strlen(l->text);
    snprintf(l->text + used, sizeof l->text - used, "%s ", name);
    l->n++;
}

/* The paths hon_each_file gives, space-separated; its count must match. */
static const char *files(tvm *t)
{
    static listing l;
    memset(&l, 0, sizeof l);
    size_t n = hon_each_file(t->vm, collect, &l);
    ck_assert_uint_eq(n, l.n);
    return l.text;
}

START_TEST(loaded_files)
{
    tvm *t = tvm_new(NULL);
    /* nothing loaded yet; a NULL vm holds nothing; fn may be NULL to count */
    ck_assert_str_eq(files(t), "");
    ck_assert_uint_eq(hon_each_file(NULL, collect, NULL), 0);
    const char *a = "kind infantry;\n", *b = "side allies;\n", *bad = "kind ;\n";
    ck_assert_int_eq(hon_load_source(t->vm, "a.hon", a, strlen(a)), HON_OK);
    ck_assert_int_eq(hon_load_source(t->vm, "b.hon", b, strlen(b)), HON_OK);
    ck_assert_str_eq(files(t), "a.hon b.hon ");
    ck_assert_uint_eq(hon_each_file(t->vm, NULL, NULL), 2);
    /* a.hon again replaces itself in place; a load that fails keeps the list */
    ck_assert_int_eq(hon_load_source(t->vm, "a.hon", a, strlen(a)), HON_OK);
    ck_assert_int_eq(hon_load_source(t->vm, "c.hon", bad, strlen(bad)), HON_ERR_COMPILE);
    ck_assert_str_eq(files(t), "a.hon b.hon ");
    tvm_free(t);

    /* a directory's files come as DIR/NAME in name order, after what was loaded before */
    char dir[] = "/tmp/hon_filesXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64];
    const char *names[2] = { "z.hon", "m.hon" };
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs(i ? "kind vehicle;\n" : "kind aircraft;\n", f);
        fclose(f);
    }
    t = tvm_new("kind infantry;\n");
    ck_assert_int_eq(hon_load_dir(t->vm, dir), HON_OK);
    char want[128];
    snprintf(want, sizeof want, "t.hon %s/m.hon %s/z.hon ", dir, dir);
    ck_assert_str_eq(files(t), want);
    tvm_free(t);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}
END_TEST

/* ---- places and line of sight ---- */

/* hon_place_of(word) must fail with HON_ERR_NOT_FOUND and a diagnostic whose text has `says`. */
static void place_fails(tvm *t, const char *word, const char *says)
{
    hon_value v;
    tvm_clear(t);
    ck_assert_int_eq(hon_place_of(t->vm, word, &v), HON_ERR_NOT_FOUND);
    ck_assert_msg(t->ndiags >= 1 && strstr(t->log, says), "%s: %s", word, t->log);
}

START_TEST(places)
{
    tvm *t = ridge_vm();
    hon_value v;
    /* a unit of the board: the id hon_unit_id gives */
    ck_assert_int_eq(hon_place_of(t->vm, "$a", &v), HON_OK);
    ck_assert_int_eq(v.kind, HON_V_UNIT);
    ck_assert_int_eq(v.i, hon_unit_id(t->vm, "$a"));
    /* C3 is column 2 (A = 0), row 2 (row 1 = 0); `@` and lower case are the same square */
    ck_assert_int_eq(hon_place_of(t->vm, "C3", &v), HON_OK);
    ck_assert_int_eq(v.kind, HON_V_SQUARE);
    ck_assert_int_eq(v.i, HON_SQUARE(2, 2));
    ck_assert_int_eq(hon_place_of(t->vm, "@c3", &v), HON_OK);
    ck_assert_int_eq(v.i, HON_SQUARE(2, 2));
    /* what is not a place of this board */
    place_fails(t, "$zed", "the board has no unit `$zed`");
    ck_assert_int_eq(t->d[0].code, 213);
    place_fails(t, "Z9", "square Z9 is off the board"); /* a 5 x 3 board */
    place_fails(t, "E4", "square E4 is off the board");
    place_fails(t, "hello", "is neither a unit");
    place_fails(t, "$", "is neither a unit");
    place_fails(t, "@", "is neither a unit");
    ck_assert_int_eq(hon_place_of(t->vm, NULL, &v), HON_ERR_NOT_FOUND);
    hon_drop_board(t->vm);
    place_fails(t, "$a", "no board is loaded");
    tvm_free(t);
}
END_TEST

/* Asks hon_los(from, to) (words for hon_place_of) and returns the answer's text; *note gets
 * its note ("" when none). The call must succeed. */
static const char *los(tvm *t, const char *from, const char *to, char *note, size_t cap)
{
    hon_value a, b;
    hon_answer *ans = NULL;
    tvm_clear(t);
    ck_assert_int_eq(hon_place_of(t->vm, from, &a), HON_OK);
    ck_assert_int_eq(hon_place_of(t->vm, to, &b), HON_OK);
    hon_status st = hon_los(t->vm, a, b, &ans);
    ck_assert_msg(st == HON_OK, "los %s %s: %s\n%s", from, to, hon_status_text(st), t->log);
    snprintf(t->last, sizeof t->last, "%s", hon_answer_text(ans));
    snprintf(note, cap, "%s", hon_answer_note(ans) ? hon_answer_note(ans) : "");
    hon_answer_free(ans);
    return t->last;
}

START_TEST(line_of_sight_call)
{
    tvm *t = ridge_vm();
    char note[256];
    /* A1 -> E1 crosses B1, C1 (woods), D1: forbid; both are units, nothing to note */
    ck_assert_str_eq(los(t, "$a", "$b", note, sizeof note), "forbid");
    ck_assert_str_eq(note, "");
    /* A1 -> E3 goes B1 B2 C2 D2 D3 E3 (the REPL's board test says the same): no woods */
    ck_assert_str_eq(los(t, "$a", "$c", note, sizeof note), "permit");
    /* E1 holds b alone: it stands for b, as in line_of_sight($a, $b): forbid */
    ck_assert_str_eq(los(t, "$a", "E1", note, sizeof note), "forbid");
    ck_assert_str_eq(note, "E1 holds $b: asking line_of_sight($a, $b)");
    /* A2 and E2 hold no unit: between the squares, with both_infantry false; row 2 is open */
    ck_assert_str_eq(los(t, "A2", "@E2", note, sizeof note), "permit");
    ck_assert_str_eq(note, "A2 holds no unit, E2 holds no unit: asking "
                           "line_of_sight_squares(@A2, @E2, false)");
    /* D1 holds no unit, a stands for its square A1: D1 -> A1 crosses C1 (woods): forbid */
    ck_assert_str_eq(los(t, "@D1", "$a", note, sizeof note), "forbid");
    ck_assert_str_eq(note, "D1 holds no unit: asking line_of_sight_squares(@D1, square_of($a), "
                           "false)");

    /* the answer is hon_eval's: the trace names the call, the JSON parses as the same object */
    hon_value a, b;
    hon_answer *ans = NULL, *ev_ans = NULL;
    ck_assert_int_eq(hon_place_of(t->vm, "$a", &a), HON_OK);
    ck_assert_int_eq(hon_place_of(t->vm, "$b", &b), HON_OK);
    ck_assert_int_eq(hon_los(t->vm, a, b, &ans), HON_OK);
    ck_assert_int_eq(hon_eval(t->vm, "line_of_sight($a, $b)", "<test>", &ev_ans), HON_OK);
    ck_assert_str_eq(hon_answer_json(ans), hon_answer_json(ev_ans));
    ck_assert_str_eq(hon_answer_trace(ans), hon_answer_trace(ev_ans));
    ck_assert_str_eq(hon_answer_why(ans), hon_answer_why(ev_ans));
    ck_assert_msg(strstr(hon_answer_why(ans), "line_of_sight($a, $b) = forbid"), "%s",
                  hon_answer_why(ans));
    hon_answer_free(ans);
    hon_answer_free(ev_ans);
    /* no answer wanted: the call still runs */
    ck_assert_int_eq(hon_los(t->vm, a, b, NULL), HON_OK);

    /* the picture of the same line: A1 to E1 is 5 squares */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(hon_draw_board(t->vm, f, "$a", "$b"), HON_OK);
    fclose(f);
    ck_assert_msg(strstr(buf, "line: A1 to E1, 5 squares"), "%s", buf);
    free(buf);
    tvm_free(t);
}
END_TEST

/* hon_los(from, to) must fail with `want` and a diagnostic whose text has `says`. */
static void los_fails(tvm *t, hon_value from, hon_value to, hon_status want, const char *says)
{
    hon_answer *ans = NULL;
    tvm_clear(t);
    ck_assert_int_eq(hon_los(t->vm, from, to, &ans), want);
    ck_assert_ptr_null(ans);
    ck_assert_msg(t->ndiags >= 1 && strstr(t->log, says), "%s", t->log);
}

START_TEST(line_of_sight_refused)
{
    tvm *t = ridge_vm();
    hon_value a = { HON_V_UNIT, hon_unit_id(t->vm, "$a") };
    /* a square off the 5 x 3 board; a counter of the rules, not a unit of the board; an id
     * that is nothing; a value that is no place */
    los_fails(t, a, (hon_value){ HON_V_SQUARE, HON_SQUARE(25, 0) }, HON_ERR_NOT_FOUND,
              "square Z1 is off the board");
    los_fails(t, (hon_value){ HON_V_UNIT, hon_unit_id(t->vm, "rifle") }, a, HON_ERR_NOT_FOUND,
              "the board has no unit");
    ck_assert_int_eq(t->d[0].code, 213);
    los_fails(t, a, (hon_value){ HON_V_UNIT, -5 }, HON_ERR_NOT_FOUND, "the board has no unit");
    los_fails(t, a, (hon_value){ HON_V_UNIT, 1 << 30 }, HON_ERR_NOT_FOUND, "the board has no unit");
    los_fails(t, (hon_value){ HON_V_INT, 3 }, a, HON_ERR_NOT_FOUND, "between units and squares");
    ck_assert_int_eq(hon_los(NULL, a, a, NULL), HON_ERR_NOT_FOUND);
    /* no board */
    hon_drop_board(t->vm);
    los_fails(t, a, a, HON_ERR_NOT_FOUND, "no board is loaded");
    tvm_free(t);

    /* rules without line_of_sight */
    t = tvm_new("kind infantry;\nside allies; side axis;\nterrain open; terrain woods;\n"
                "counter rifle: infantry { side allies }\n");
    ck_assert_int_eq(hon_load_board_source(t->vm, "ridge.scn", BOARD, strlen(BOARD)), HON_OK);
    a = (hon_value){ HON_V_UNIT, hon_unit_id(t->vm, "$a") };
    los_fails(t, a, a, HON_ERR_NOT_FOUND, "no query line_of_sight");
    /* a line_of_sight over units only: an empty square cannot stand for a unit, and there is
     * no line_of_sight_squares to ask instead */
    const char *units = "query line_of_sight(s: unit, t: unit) -> verdict combine permission;\n";
    ck_assert_int_eq(hon_load_source(t->vm, "los.hon", units, strlen(units)), HON_OK);
    los_fails(t, a, (hon_value){ HON_V_SQUARE, HON_SQUARE(4, 1) }, HON_ERR_NOT_FOUND,
              "line_of_sight takes units, and E2 holds no unit");
    /* ... but units it takes, and no rule forbids: permit */
    hon_answer *ans = NULL;
    ck_assert_int_eq(hon_los(t->vm, a, a, &ans), HON_OK);
    ck_assert_str_eq(hon_answer_text(ans), "permit");
    hon_answer_free(ans);
    tvm_free(t);
}
END_TEST

/* ---- completion ---- */

/* The names hon_complete offers, space-separated, or "NOT_FOUND". No diagnostic either way. */
static const char *complete(tvm *t, hon_complete_kind kind, const char *within, const char *prefix)
{
    static listing l;
    memset(&l, 0, sizeof l);
    tvm_clear(t);
    hon_status st = hon_complete(t->vm, kind, within, prefix, collect, &l);
    ck_assert_uint_eq(t->ndiags, 0);
    return st == HON_OK ? l.text : "NOT_FOUND";
}

START_TEST(completion_by_kind)
{
    tvm *t = ridge_vm();
    /* units (after `$` in the REPL): the scenario's, in its order, without `$` */
    ck_assert_str_eq(complete(t, HON_COMPLETE_UNIT, NULL, ""), "a b c ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_UNIT, NULL, NULL), "a b c ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_UNIT, NULL, "b"), "b ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_UNIT, NULL, "z"), "");
    /* squares, row by row: the E column is E1, E2, E3; 5 x 3 = 15 in all */
    ck_assert_str_eq(complete(t, HON_COMPLETE_SQUARE, NULL, "E"), "E1 E2 E3 ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_SQUARE, NULL, "A"), "A1 A2 A3 ");
    static listing all;
    memset(&all, 0, sizeof all);
    ck_assert_int_eq(hon_complete(t->vm, HON_COMPLETE_SQUARE, NULL, "", collect, &all), HON_OK);
    ck_assert_uint_eq(all.n, 15);
    /* the program's names, in declaration order; the event is not a query */
    ck_assert_str_eq(complete(t, HON_COMPLETE_QUERY, NULL, "line"),
                     "line_of_sight line_of_sight_squares ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_EVENT, NULL, ""), "spotted ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_RULE, NULL, "line_of_sight."),
                     "line_of_sight.woods ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_FN, NULL, ""), "twice ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_TABLE, NULL, "r"), "range ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_EDITION, NULL, ""), "base ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_VARIANT, NULL, ""), "vis ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_FILE, NULL, ""), "t.hon ");
    /* the built-ins by the prefix, in the order of dsl/builtins.h; `has` (two ids) once */
    ck_assert_str_eq(complete(t, HON_COMPLETE_BUILTIN, NULL, "squ"),
                     "square_of squares_of squares_within ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_BUILTIN, NULL, "ha"), "has has_feature ");
    /* a variant's readings; an unknown variant, or none, is not found */
    ck_assert_str_eq(complete(t, HON_COMPLETE_READING, "vis", ""), "day night ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_READING, "vis", "n"), "night ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_READING, "nope", ""), "NOT_FOUND");
    ck_assert_str_eq(complete(t, HON_COMPLETE_READING, NULL, ""), "NOT_FOUND");
    /* an enum's members (a variant's readings too); a unit's fields: kind, side, size, then
     * the declared values (none here); an unknown enum or type is not found */
    ck_assert_str_eq(complete(t, HON_COMPLETE_MEMBER, "terrain", "w"), "woods ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_MEMBER, "vis", ""), "day night ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_MEMBER, "nope", ""), "NOT_FOUND");
    ck_assert_str_eq(complete(t, HON_COMPLETE_FIELD, "unit", "s"), "side size ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_FIELD, "unit", ""), "kind side size ");
    ck_assert_str_eq(complete(t, HON_COMPLETE_FIELD, "nope", ""), "NOT_FOUND");
    /* the type of typed text, compiled and not run (so no board is read), with no diagnostic:
     * $a a unit, twice's result an int, line_of_sight's a verdict, terrain(sq) the enum
     * terrain; `1 +` does not compile */
    char type[64];
    hon_type_kind kind;
    tvm_clear(t);
    ck_assert_int_eq(hon_type_of(t->vm, "$a", &kind, type, sizeof type), HON_OK);
    ck_assert(kind == HON_T_UNIT);
    ck_assert_str_eq(type, "unit");
    ck_assert_int_eq(hon_type_of(t->vm, "twice(2)", &kind, type, sizeof type), HON_OK);
    ck_assert(kind == HON_T_INT);
    ck_assert_int_eq(hon_type_of(t->vm, "line_of_sight($a, $b)", &kind, type, sizeof type), HON_OK);
    ck_assert_str_eq(type, "verdict");
    ck_assert_int_eq(hon_type_of(t->vm, "terrain(@A1)", &kind, type, sizeof type), HON_OK);
    ck_assert(kind == HON_T_ENUM);
    ck_assert_str_eq(type, "terrain");
    ck_assert_int_eq(hon_type_of(t->vm, "1 +", &kind, type, sizeof type), HON_ERR_COMPILE);
    ck_assert_int_eq(hon_type_of(NULL, "1", &kind, type, sizeof type), HON_ERR_NOT_FOUND);
    ck_assert_uint_eq(t->ndiags, 0);
    /* an unknown kind; no callback */
    ck_assert_str_eq(complete(t, (hon_complete_kind)99, NULL, ""), "NOT_FOUND");
    ck_assert_int_eq(hon_complete(t->vm, HON_COMPLETE_UNIT, NULL, "", NULL, NULL),
                     HON_ERR_NOT_FOUND);
    ck_assert_int_eq(hon_complete(NULL, HON_COMPLETE_UNIT, NULL, "", collect, &all),
                     HON_ERR_NOT_FOUND);
    /* no board: no unit and no square, and that is no error */
    hon_drop_board(t->vm);
    ck_assert_str_eq(complete(t, HON_COMPLETE_UNIT, NULL, ""), "");
    ck_assert_str_eq(complete(t, HON_COMPLETE_SQUARE, NULL, ""), "");
    tvm_free(t);
}
END_TEST

/* ---- the build ---- */

START_TEST(the_build)
{
    /* the version is meson.build's project version; the directories are the configured ones */
    unsetenv("HON_DATADIR");
    ck_assert_str_eq(hon_version(), HON_VERSION);
    ck_assert_str_eq(hon_data_dir(), HON_DATADIR);
    ck_assert_str_eq(hon_source_dir(), HON_SOURCE_ROOT);
    /* this test runs from its build tree, so the data directory in use is the source tree */
    ck_assert_str_eq(hon_bundle_dir(), HON_SOURCE_ROOT);
    /* $HON_DATADIR, an installed tree moved elsewhere, wins over both; empty, it is unset */
    setenv("HON_DATADIR", "/opt/moved/share/hon", 1);
    ck_assert_str_eq(hon_data_dir(), "/opt/moved/share/hon");
    ck_assert_str_eq(hon_bundle_dir(), "/opt/moved/share/hon");
    setenv("HON_DATADIR", "", 1);
    ck_assert_str_eq(hon_data_dir(), HON_DATADIR);
    ck_assert_str_eq(hon_bundle_dir(), HON_SOURCE_ROOT);
    unsetenv("HON_DATADIR");
    /* the source tree this test runs from has the bundled rules */
    char rules[4096];
    struct stat st;
    snprintf(rules, sizeof rules, "%s/rules", hon_source_dir());
    ck_assert_int_eq(stat(rules, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("session");
    TCase *tc = tcase_create("session");
    tcase_add_test(tc, loaded_files);
    tcase_add_test(tc, places);
    tcase_add_test(tc, line_of_sight_call);
    tcase_add_test(tc, line_of_sight_refused);
    tcase_add_test(tc, completion_by_kind);
    tcase_add_test(tc, the_build);
    suite_add_tcase(s, tc);
    return check_run(s);
}
