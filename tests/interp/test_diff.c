/* test_diff.c — Check tests of the hon.h calls behind `hon diff` and `hon snapshot`: the
 * introspection (hon_query_info_of's kinds, hon_each_member, hon_each_board_thing,
 * hon_each_expectation, hon_each_bundled_board), quiet and traced calls by handle
 * (hon_call_query_text, hon_ask_query, hon_answer_fired), hon_vm_copy, settings
 * (hon_apply_setting), rule names (hon_check_rule_name), and the engines themselves (hon_diff,
 * hon_diff_variants, hon_snapshot_record, hon_snapshot_check). Every expected value is worked
 * out in a comment from the rules and the board written below; tests/repl/run.py drives the
 * same through the `hon` program.
 */
#include <stdlib.h>
#include <unistd.h>

#include "interp_test.h"
#include "variants.h"

/* Made-up rules (not the game's): a woods square strictly between two units blocks the line
 * between them, and when the variant vis reads `night` every line is blocked; crossing a
 * terrain costs 1, woods 1 more, and under the edition `hard` a hasty crossing 2 more. */
static const char *const RULES =
    "kind infantry;\nside allies; side axis;\n"
    "terrain open; terrain woods;\ncounter rifle: infantry { side allies }\n"
    "variant vis \"V\" { reading day default; reading night; }\n"
    "query line_of_sight(shooter: unit, target: unit) -> verdict combine permission;\n"
    "rule line_of_sight.woods cite \"T.los\"\n"
    "  when any(s in line(square_of(shooter), square_of(target)):\n"
    "           s.square != square_of(target) and terrain(s.square) == woods)\n  answer forbid;\n"
    "rule line_of_sight.dark cite \"T.dark\" when variant vis == night answer forbid;\n"
    "query cost(t: terrain, hasty: bool) -> int combine sum default 1;\n"
    "rule cost.woods cite \"T.cost\" when t == woods answer 1;\n"
    "query trail(a: square, b: square) -> list<square> combine first default [];\n"
    "query broken(n: int) -> int combine first;\n"
    "edition base \"B\";\nedition hard extends base \"H\" {\n"
    "  rule cost.hasty cite \"T.hasty\" when hasty answer 2;\n}\ndefault edition base;\n"
    "test \"t: the wood\" board \"ridge.scn\" { expect line_of_sight($a, $b) == forbid;\n"
    "  expect not (cost(open, false) == 2); }\n"
    "source \"T.los\"; source \"T.dark\"; source \"T.cost\"; source \"T.hasty\";\n";

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

/* The board written to a temporary directory (as ridge.scn, next to the rules as t.hon, so
 * that the test's `board "ridge.scn"` finds it), and a vm with the rules loaded from there. */
typedef struct fixture {
    char dir[64];
    char rules[96], board[96];
    const char *boards[1]; /* board, as a question set's list */
    tvm *t;
} fixture;

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void fixture_open(fixture *fx)
{
    snprintf(fx->dir, sizeof fx->dir, "/tmp/hon_diff_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(fx->dir));
    snprintf(fx->rules, sizeof fx->rules, "%s/t.hon", fx->dir);
    snprintf(fx->board, sizeof fx->board, "%s/ridge.scn", fx->dir);
    write_file(fx->rules, RULES);
    write_file(fx->board, BOARD);
    fx->boards[0] = fx->board;
    fx->t = tvm_new(NULL);
    ck_assert_msg(hon_load_file(fx->t->vm, fx->rules) == HON_OK, "%s", fx->t->log);
}

static void fixture_close(fixture *fx)
{
    tvm_free(fx->t);
    unlink(fx->rules);
    unlink(fx->board);
    rmdir(fx->dir);
}

/* ---- introspection ---- */

typedef struct listing {
    char text[2048]; /* the names given, each followed by a space */
    size_t n;
} listing;

static void add_member(void *ud, int32_t index, const char *name)
{
    listing *l = ud;
    size_t used = strlen(l->text);
    snprintf(l->text + used, sizeof l->text - used, "%d:%s ", index, name);
    l->n++;
}

static void add_thing(void *ud, hon_value v, const char *name)
{
    listing *l = ud;
    size_t used = strlen(l->text);
    (void)v;
    if (l->n++ < 6) /* the first six */
        snprintf(l->text + used, sizeof l->text - used, "%s ", name);
}

START_TEST(introspection)
{
    fixture fx;
    fixture_open(&fx);
    hon_vm *vm = fx.t->vm;
    hon_query_info qi;
    ck_assert_int_eq(hon_query_info_of(vm, "line_of_sight", &qi), HON_OK);
    ck_assert_int_eq(qi.param_kinds[0], HON_T_UNIT);
    ck_assert_int_eq(qi.param_kinds[1], HON_T_UNIT);
    ck_assert_int_eq(qi.result_kind, HON_T_VERDICT);
    ck_assert_int_eq(hon_query_info_of(vm, "cost", &qi), HON_OK);
    ck_assert_int_eq(qi.param_kinds[0], HON_T_ENUM); /* terrain: a built-in enum */
    ck_assert_str_eq(qi.param_types[0], "terrain");
    ck_assert_int_eq(qi.param_kinds[1], HON_T_BOOL);
    ck_assert_int_eq(hon_query_info_of(vm, "trail", &qi), HON_OK);
    ck_assert_int_eq(qi.param_kinds[0], HON_T_SQUARE);
    ck_assert_int_eq(qi.result_kind, HON_T_LIST);

    /* members in declaration order; a variant's readings are its members */
    listing l = { 0 };
    ck_assert_uint_eq(hon_each_member(vm, "terrain", add_member, &l), 2);
    ck_assert_str_eq(l.text, "0:open 1:woods ");
    memset(&l, 0, sizeof l);
    ck_assert_uint_eq(hon_each_member(vm, "vis", add_member, &l), 2);
    ck_assert_str_eq(l.text, "0:day 1:night ");
    ck_assert_uint_eq(hon_each_member(vm, "weather", add_member, &l), 0);
    ck_assert_uint_eq(hon_each_member(NULL, "vis", NULL, NULL), 0);

    /* the board's things: none without a board */
    ck_assert_uint_eq(hon_each_board_thing(vm, HON_V_UNIT, add_thing, &l), 0);
    ck_assert_int_eq(hon_load_board(vm, fx.board), HON_OK);
    memset(&l, 0, sizeof l);
    ck_assert_uint_eq(hon_each_board_thing(vm, HON_V_UNIT, add_thing, &l), 3);
    ck_assert_str_eq(l.text, "$a $b $c ");
    memset(&l, 0, sizeof l);
    ck_assert_uint_eq(hon_each_board_thing(vm, HON_V_SQUARE, add_thing, &l), 15); /* 5 x 3 */
    ck_assert_str_eq(l.text, "@A1 @B1 @C1 @D1 @E1 @A2 ");
    /* sides: 6 vertical lines of 3 and 4 horizontal lines of 5, board edges included */
    memset(&l, 0, sizeof l);
    ck_assert_uint_eq(hon_each_board_thing(vm, HON_V_SIDE, add_thing, &l), 6 * 3 + 4 * 5);
    ck_assert_uint_eq(hon_each_board_thing(vm, HON_V_MEMBER, NULL, NULL), 0);
    fixture_close(&fx);
}
END_TEST

typedef struct expectations {
    char text[1024];
    size_t n;
} expectations;

static void add_expectation(void *ud, const hon_expectation *e)
{
    expectations *x = ud;
    size_t used = strlen(x->text);
    snprintf(x->text + used, sizeof x->text - used, "%u:%u %s @%s %s|", e->line, e->col,
             e->question, e->board ? strrchr(e->board, '/') + 1 : "-", e->plays ? "plays" : "");
    x->n++;
}

START_TEST(expectations_as_text)
{
    fixture fx;
    fixture_open(&fx);
    /* the two expects of the test (lines 21 and 22 of RULES; the position is the expression's,
     * after `expect `): the left side of `==`, the whole of the other; the board's path is
     * the test runner's (the rules' directory) */
    expectations x = { 0 };
    ck_assert_uint_eq(hon_each_expectation(fx.t->vm, add_expectation, &x), 2);
    ck_assert_str_eq(x.text, "21:47 line_of_sight($a, $b) @ridge.scn |"
                             "22:10 not (cost(open, false) == 2) @ridge.scn |");
    fixture_close(&fx);
}
END_TEST

/* ---- calls ---- */

START_TEST(quiet_and_traced_calls)
{
    fixture fx;
    fixture_open(&fx);
    hon_vm *vm = fx.t->vm;
    ck_assert_int_eq(hon_load_board(vm, fx.board), HON_OK);
    hon_query_handle *los = hon_lookup_query(vm, "line_of_sight");
    hon_query_handle *broken = hon_lookup_query(vm, "broken");
    hon_query_handle *trail = hon_lookup_query(vm, "trail");
    hon_value ab[2] = { { HON_V_UNIT, hon_unit_id(vm, "$a") },
                        { HON_V_UNIT, hon_unit_id(vm, "$b") } };
    hon_value out;
    char buf[256];
    /* A1 -> E1 crosses C1 (woods): forbid, printed when asked to */
    ck_assert_int_eq(hon_call_query_text(vm, los, ab, 2, &out, buf, sizeof buf), HON_OK);
    ck_assert_int_eq(out.kind, HON_V_VERDICT);
    ck_assert_int_eq(out.i, 0);
    ck_assert_str_eq(buf, "forbid");
    ck_assert_int_eq(hon_call_query_text(vm, los, ab, 2, &out, NULL, 0), HON_OK);
    /* a list: HON_V_OTHER, compared by its text; trail has no rule: its default [] */
    hon_value sq[2] = { { HON_V_SQUARE, HON_SQUARE(0, 0) }, { HON_V_SQUARE, HON_SQUARE(1, 0) } };
    ck_assert_int_eq(hon_call_query_text(vm, trail, sq, 2, &out, buf, sizeof buf), HON_OK);
    ck_assert_int_eq(out.kind, HON_V_OTHER);
    ck_assert_str_eq(buf, "[]");
    /* broken has neither a rule nor a default: E203, an answer, no diagnostic */
    hon_value three = { HON_V_INT, 3 };
    tvm_clear(fx.t);
    ck_assert_int_eq(hon_call_query_text(vm, broken, &three, 1, &out, buf, sizeof buf),
                     HON_ERR_RUNTIME);
    ck_assert_int_eq(out.i, 203);
    ck_assert_msg(strncmp(buf, "error E203: ", 12) == 0, "%s", buf);
    ck_assert_uint_eq(fx.t->ndiags, 0);
    /* an argument that does not fit is still a diagnostic */
    ck_assert_int_eq(hon_call_query_text(vm, los, &three, 1, &out, buf, sizeof buf),
                     HON_ERR_NOT_FOUND);
    ck_assert_uint_eq(fx.t->ndiags, 1);

    /* traced: the answer hon_eval gives, and the rules that fired */
    hon_answer *a = NULL, *e = NULL;
    ck_assert_int_eq(hon_ask_query(vm, los, ab, 2, &a), HON_OK);
    ck_assert_int_eq(hon_eval(vm, "line_of_sight($a, $b)", "<test>", &e), HON_OK);
    ck_assert_str_eq(hon_answer_text(a), "forbid");
    ck_assert_str_eq(hon_answer_why(a), hon_answer_why(e));
    ck_assert_str_eq(hon_answer_fired(a), "line_of_sight.woods = forbid\n");
    ck_assert_str_eq(hon_answer_fired(e), "line_of_sight.woods = forbid\n");
    hon_answer_free(a);
    hon_answer_free(e);
    ck_assert_int_eq(hon_ask_query(vm, broken, &three, 1, &a), HON_ERR_RUNTIME);
    ck_assert_msg(strncmp(hon_answer_text(a), "error E203: ", 12) == 0, "%s", hon_answer_text(a));
    ck_assert_msg(strstr(hon_answer_json(a), "\"error\": 203"), "%s", hon_answer_json(a));
    ck_assert_str_eq(hon_answer_fired(a), "");
    hon_answer_free(a);
    ck_assert_str_eq(hon_answer_fired(NULL), "");
    hon_query_handle_free(los);
    hon_query_handle_free(broken);
    hon_query_handle_free(trail);
    fixture_close(&fx);
}
END_TEST

/* ---- copies and settings ---- */

/* The active reading of variant vis. */
static void reading_of(void *ud, const char *variant, const char *reading, const char *doc)
{
    (void)doc;
    if (strcmp(variant, "vis") == 0)
        snprintf(ud, 32, "%s", reading);
}

static const char *vis(hon_vm *vm)
{
    static char r[32];
    hon_each_variant(vm, reading_of, r);
    return r;
}

START_TEST(copies_and_settings)
{
    fixture fx;
    fixture_open(&fx);
    hon_vm *vm = fx.t->vm;
    ck_assert_int_eq(hon_set_edition(vm, "hard"), HON_OK);
    ck_assert_int_eq(hon_set_variant(vm, "vis", "night"), HON_OK);
    hon_vm *c = hon_vm_copy(vm);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(hon_each_file(c, NULL, NULL), 1);
    ck_assert_str_eq(hon_edition(c), "hard");
    ck_assert_str_eq(vis(c), "night");
    ck_assert_ptr_null(hon_board_path(c));

    /* a setting is whole: the readings it does not name go back to their defaults */
    ck_assert_int_eq(hon_apply_setting(c, "base", "<t>"), HON_OK);
    ck_assert_str_eq(hon_edition(c), "base");
    ck_assert_str_eq(vis(c), "day");
    ck_assert_int_eq(hon_apply_setting(c, ",vis=night", "<t>"), HON_OK);
    ck_assert_str_eq(hon_edition(c), "base"); /* the default edition */
    ck_assert_str_eq(vis(c), "night");
    /* errors: positioned, nothing changed */
    static const struct {
        const char *setting;
        int code;
        unsigned col;
    } bad[] = { { "nope", 412, 1 },     { "hard,vision=day", 413, 6 }, { "hard,vis=dusk", 414, 10 },
                { "hard,vis", 411, 6 }, { "hard,=day", 411, 6 },       { "hard,vis=", 411, 6 } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tvm_clear(fx.t);
        ck_assert_int_eq(hon_apply_setting(vm, bad[i].setting, "<t>"), HON_ERR_NOT_FOUND);
        ck_assert_msg(fx.t->ndiags == 1 && fx.t->d[0].code == bad[i].code &&
                          fx.t->d[0].col == bad[i].col,
                      "%s: %s", bad[i].setting, fx.t->log);
        ck_assert_str_eq(hon_edition(vm), "hard");
        ck_assert_str_eq(vis(vm), "night");
    }
    hon_vm_free(c);
    fixture_close(&fx);
}
END_TEST

/* ---- diff and snapshots ---- */

/* The question set of the fixture: its board alone (no bundled board), 50 calls per query. */
static hon_question_set ridge_questions(fixture *fx)
{
    hon_question_set qs;
    hon_question_defaults(&qs);
    qs.bundled_boards = false;
    qs.boards = fx->boards;
    qs.nboards = 1;
    qs.cap = 50;
    return qs;
}

/* Closes the memory stream f and gives what was written to it (freed by the caller). */
static char *captured(FILE *f, char **buf)
{
    fclose(f);
    return *buf;
}

START_TEST(diff_of_two_settings)
{
    fixture fx;
    fixture_open(&fx);
    hon_vm *a = hon_vm_copy(fx.t->vm), *b = hon_vm_copy(fx.t->vm);
    ck_assert_int_eq(hon_apply_setting(a, "base", "<t>"), HON_OK);
    ck_assert_int_eq(hon_apply_setting(b, "base,vis=night", "<t>"), HON_OK);
    /* The question set: with no board, cost over 2 terrains x 2 bools = 4 and broken over
     * ints 0..0 (1 call); on ridge.scn the test's two expectations, line_of_sight over the 6
     * ordered pairs of distinct units less line_of_sight($a, $b), which the test writes (5),
     * and trail over 15 x 15 squares, capped at 50 calls spread evenly: the calls number
     * floor(i * 225 / 50) for i < 50, of which 0, 112 and 144 give one square twice (a
     * multiple of 16) and are not asked: 47. 4 + 1 + 2 + 5 + 47 = 59. */
    hon_question_set qs = ridge_questions(&fx);
    qs.int_lo = qs.int_hi = 0;
    char *buf = NULL;
    size_t len = 0, ndiff = 0;
    FILE *f = open_memstream(&buf, &len);
    hon_diff_options o = { .width = 100 };
    ck_assert_int_eq(hon_diff(a, "day", b, "night", &qs, &o, f, &ndiff), HON_OK);
    char *text = captured(f, &buf);
    /* Under night line_of_sight.dark forbids every line; under day only the lines through C1
     * (a-b, b-a) are forbidden: the other 4 pairs differ, permit | forbid, the rule that
     * differs being line_of_sight.dark. broken(0) fails alike in both (E203): the same. */
    ck_assert_uint_eq(ndiff, 4);
    ck_assert_msg(strstr(text, "4 differences in 59 questions\n"), "%s", text);
    ck_assert_msg(strstr(text, "== line_of_sight: 4 of 6 differ\n"
                               "-- rules that differ: line_of_sight.dark\n"),
                  "%s", text);
    ck_assert_msg(strstr(text, "ridge.scn: line_of_sight($a, $c)\n  day: permit"), "%s", text);
    ck_assert_msg(strstr(text, "capped: trail on "), "%s", text);
    ck_assert_ptr_null(hon_board_path(a)); /* the boards are dropped */
    free(text);

    /* the same setting twice: nothing differs */
    buf = NULL;
    f = open_memstream(&buf, &len);
    o.json = true;
    ck_assert_int_eq(hon_diff(a, "day", a, "day", &qs, &o, f, &ndiff), HON_OK);
    text = captured(f, &buf);
    ck_assert_uint_eq(ndiff, 0);
    ck_assert_msg(strstr(text, "\"differ\": 0, \"differences\": []"), "%s", text);
    free(text);
    hon_vm_free(a);
    hon_vm_free(b);
    fixture_close(&fx);
}
END_TEST

START_TEST(snapshot_round_trip)
{
    fixture fx;
    fixture_open(&fx);
    hon_vm *vm = fx.t->vm;
    char snap[96];
    snprintf(snap, sizeof snap, "%s/s.snap", fx.dir);
    hon_question_set qs = ridge_questions(&fx);
    qs.int_hi = -1; /* no int range: broken is not asked */
    FILE *f = fopen(snap, "w");
    size_t n = 0, changed = 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *notes = open_memstream(&buf, &len);
    ck_assert_int_eq(hon_snapshot_record(vm, "base", &qs, f, &n, notes), HON_OK);
    fclose(f);
    /* the 59 questions of diff_of_two_settings but broken(0) */
    ck_assert_uint_eq(n, 58);
    /* trail's 225 calls on ridge.scn, 50 of them asked (diff_of_two_settings): said to the
     * caller, and at the end of the file as a comment (sitting 20, F4: the cap was silent) */
    char *said = captured(notes, &buf);
    ck_assert_msg(strstr(said, "capped: trail on ") &&
                      strstr(said, "ridge.scn: 225 calls, 50 asked (the cap; --cap N asks more)\n"),
                  "%s", said);
    ck_assert_msg(strchr(said, '\n') == said + strlen(said) - 1, "one line: %s", said);
    f = fopen(snap, "r");
    char file[8192];
    size_t got = fread(file, 1, sizeof file - 1, f);
    fclose(f);
    file[got] = '\0';
    ck_assert_msg(got < sizeof file - 1 && got > strlen(said) + 2 &&
                      strncmp(file + got - strlen(said) - 3, "\n# ", 3) == 0 &&
                      strcmp(file + got - strlen(said), said) == 0,
                  "%s", file);
    free(said);
    buf = NULL;
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(hon_snapshot_check(vm, snap, f, &changed), HON_OK);
    fclose(f);
    ck_assert_uint_eq(changed, 0);
    free(buf);
    /* the rules change: woods cost 1 more under a new rule, so cost(woods, false) is 3 (the
     * default 1 + 1 + 1) where 2 was recorded, and cost(woods, true) too */
    const char *more = "rule cost.more cite \"T.cost\" when t == woods answer 1;\n";
    ck_assert_msg(hon_load_source(vm, "more.hon", more, strlen(more)) == HON_OK, "%s", fx.t->log);
    buf = NULL;
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(hon_snapshot_check(vm, snap, f, &changed), HON_OK);
    fclose(f);
    ck_assert_uint_eq(changed, 2);
    ck_assert_msg(strstr(buf, "changed: [no board] cost(woods, false)\n  recorded: 2   ("), "%s",
                  buf);
    ck_assert_msg(strstr(buf, "  now:      3\n"), "%s", buf);
    ck_assert_msg(strstr(buf, "rule cost.more: 1"), "%s", buf);
    free(buf);
    /* a file that is no snapshot */
    tvm_clear(fx.t);
    f = fopen(snap, "w");
    fputs("nothing\n", f);
    fclose(f);
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(hon_snapshot_check(vm, snap, f, &changed), HON_ERR_COMPILE);
    fclose(f);
    free(buf);
    ck_assert_int_eq(fx.t->d[0].code, 431);
    unlink(snap);
    fixture_close(&fx);
}
END_TEST

START_TEST(rule_names_and_variants)
{
    fixture fx;
    fixture_open(&fx);
    /* one more variant, read by a rule of cost that never fires: its reading changes nothing */
    const char *mood = "variant mood \"M\" { reading calm default; reading stormy; }\n"
                       "rule cost.mood cite \"T.cost\" when variant mood == stormy and false "
                       "answer 5;\n";
    ck_assert_msg(hon_load_source(fx.t->vm, "mood.hon", mood, strlen(mood)) == HON_OK, "%s",
                  fx.t->log);
    hon_vm *a = hon_vm_copy(fx.t->vm), *b = hon_vm_copy(fx.t->vm);
    ck_assert_ptr_nonnull(b);

    /* rule names: any edition's (cost.hasty is hard's); a name that is none is E441 at column
     * 1 of the source named, with the full name of a rule whose short name it is */
    ck_assert_int_eq(hon_check_rule_name(a, "line_of_sight.woods", "<t>"), HON_OK);
    ck_assert_int_eq(hon_check_rule_name(a, "cost.hasty", "<t>"), HON_OK);
    ck_assert_int_eq(hon_check_rule_name(a, "hasty", "<t>"), HON_ERR_NOT_FOUND);
    ck_assert_msg(fx.t->ndiags == 1 && fx.t->d[0].code == 441 && fx.t->d[0].line == 1 &&
                      fx.t->d[0].col == 1 && strcmp(fx.t->d[0].path, "<t>") == 0 &&
                      strstr(fx.t->log, "no rule named 'hasty' (a rule is named QUERY.RULE: "
                                        "cost.hasty?)"),
                  "%s", fx.t->log);

    /* diff with rules named: day and night part only on line_of_sight.dark (4 lines, see
     * diff_of_two_settings); naming line_of_sight.woods keeps none of them */
    ck_assert_int_eq(hon_apply_setting(a, "base", "<t>"), HON_OK);
    ck_assert_int_eq(hon_apply_setting(b, "base,vis=night", "<t>"), HON_OK);
    hon_question_set qs = ridge_questions(&fx);
    qs.int_lo = qs.int_hi = 0;
    const char *woods[] = { "line_of_sight.woods" }, *dark[] = { "line_of_sight.dark" };
    hon_diff_options o = { .rules = woods, .nrules = 1 };
    size_t n = 0;
    FILE *null = fopen("/dev/null", "w");
    ck_assert_int_eq(hon_diff(a, "day", b, "night", &qs, &o, null, &n), HON_OK);
    ck_assert_uint_eq(n, 0);
    o.rules = dark;
    ck_assert_int_eq(hon_diff(a, "day", b, "night", &qs, &o, null, &n), HON_OK);
    ck_assert_uint_eq(n, 4);
    fclose(null);

    /* every other reading against base: vis = night (read by line_of_sight.dark) and mood =
     * stormy (read by cost.mood). The questions that can read vis: line_of_sight's 5 calls on
     * ridge.scn and the test's line_of_sight($a, $b) (the test's other expectation calls cost,
     * which cannot): 6, of which the 4 lines not through the wood differ, the first one asked
     * being line_of_sight($a, $c) (the written question comes first, and is the same).
     * The questions that can read mood: cost over 2 terrains x 2 bools and the test's
     * `not (cost(open, false) == 2)`: 5, none differs (the rule never fires), and cost has no
     * place of a board: no search. */
    ck_assert_int_eq(hon_apply_setting(b, "base", "<t>"), HON_OK);
    char *buf = NULL;
    size_t len = 0, changing = 0;
    FILE *f = open_memstream(&buf, &len);
    hon_search_options so = { .seconds = 0.2, .max_size = 3 };
    ck_assert_int_eq(hon_diff_variants(a, b, "base", &qs, &so, f, &changing), HON_OK);
    char *text = captured(f, &buf);
    char want[512];
    snprintf(want, sizeof want,
             "\nvis=night: 4 of 6 questions differ, e.g. %s: line_of_sight($a, $c): permit | "
             "forbid\nmood=stormy: never changes an answer (none of the 5 questions that can read "
             "it differs; no board query reads it)\n1 of 2 readings change an answer\n",
             fx.board);
    ck_assert_msg(strstr(text, "variants under base: 2 variants, 2 other readings") == text &&
                      strstr(text, want),
                  "%s", text);
    ck_assert_uint_eq(changing, 1);
    ck_assert_ptr_null(hon_board_path(a)); /* the boards are dropped */
    free(text);
    hon_vm_free(a);
    hon_vm_free(b);
    fixture_close(&fx);
}
END_TEST

typedef struct boards_seen {
    size_t n;
    bool hill;
} boards_seen;

static void saw_board(void *ud, const char *path)
{
    boards_seen *s = ud;
    s->n++;
    s->hill |= strstr(path, "examples/boards/hill_contour.scn") != NULL;
}

START_TEST(bundled_boards)
{
    /* the source tree's examples/boards: hill_contour.scn is one of them */
    boards_seen s = { 0 };
    size_t n = hon_each_bundled_board(saw_board, &s);
    ck_assert_uint_eq(n, s.n);
    ck_assert_uint_ge(n, 1);
    ck_assert(s.hill);
    hon_question_set q;
    hon_question_defaults(&q);
    ck_assert(q.bundled_boards && q.tests && q.finite && q.cap == 20000 && q.int_lo == 0 &&
              q.int_hi == 6 && q.nboards == 0 && q.nfiles == 0);
}
END_TEST

START_TEST(variants_stop_at_an_interrupt)
{
    /* A ^C (hon_interrupt) while `diff --variants` runs stops it with E231 and prints no line
     * for the reading it was at (repl.md §2: ^C stops a diff; §5: one line per reading, as
     * soon as it is known). The interrupt comes here before the first question: every answer
     * would be E231 under both settings, which agree, so a run that did not look would print
     * `mood=stormy: never changes an answer` although cost(true) is 1 by default and 6 under
     * stormy. Only the header is printed, and once the interrupt is cleared the same call
     * finds the difference: cost over the two bools, 1 of 2 differs. */
    tvm *t = tvm_new("variant mood \"M\" { reading calm default; reading stormy; }\n"
                     "query cost(hasty: bool) -> int combine sum default 1;\n"
                     "rule cost.mood cite \"T.m\" when hasty and variant mood == stormy answer 5;\n"
                     "source \"T.m\";\n");
    hon_vm *a = hon_vm_copy(t->vm), *b = hon_vm_copy(t->vm);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(hon_apply_setting(a, "", "<t>"), HON_OK);
    ck_assert_int_eq(hon_apply_setting(b, "", "<t>"), HON_OK);
    hon_question_set qs;
    hon_question_defaults(&qs);
    qs.bundled_boards = false;
    hon_search_options so = { .seconds = 0.2, .max_size = 3 };
    char *buf = NULL;
    size_t len = 0, changing = 0;
    FILE *f = open_memstream(&buf, &len);
    hon_interrupt();
    ck_assert_int_eq(hon_diff_variants(a, b, "", &qs, &so, f, &changing), HON_ERR_RUNTIME);
    hon_interrupt_clear();
    char *text = captured(f, &buf);
    ck_assert_msg(strncmp(text, "variants under no edition: 1 variants, 1 other readings", 55) ==
                          0 &&
                      strchr(text, '\n') == text + strlen(text) - 1,
                  "%s", text);
    ck_assert_uint_eq(changing, 0);
    ck_assert_msg(t->ndiags == 1 && t->d[0].code == 231, "%s", t->log);
    free(text);
    buf = NULL;
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(hon_diff_variants(a, b, "", &qs, &so, f, &changing), HON_OK);
    text = captured(f, &buf);
    ck_assert_msg(strstr(text, "\nmood=stormy: 1 of 2 questions differ, e.g. (no board): "
                               "cost(true): 1 | 6\n1 of 1 readings change an answer\n"),
                  "%s", text);
    ck_assert_uint_eq(changing, 1);
    free(text);
    hon_vm_free(a);
    hon_vm_free(b);
    tvm_free(t);
}
END_TEST

START_TEST(variants_ask_what_a_reading_can_change)
{
    /* diff --variants asks a question under a reading only when its answer under the setting
     * read the variant (variants.c; repl.md §5). cost(n) over the ints 0..6 (the default
     * range): its one rule reads mood only after `n == 3` holds (`and` evaluates its right
     * side only when needed: language.md), so under calm only cost(3) reads it. An int
     * parameter keeps cost from answering from a table (memo.h), whose reads are not seen.
     * Asked under the setting: the 7 calls, each once, watched (the first reading to come to a
     * question compares the answer it watched); under the reading: cost(3) alone. The line is the one asking all 7 in both gives:
     * cost(3) is 1 by default, 1 + 5 = 6 under stormy; the 6 others are 1 under both. */
    tvm *t =
        tvm_new("variant mood \"M\" { reading calm default; reading stormy; }\n"
                "query cost(n: int) -> int combine sum default 1;\n"
                "rule cost.mood cite \"T.m\" when n == 3 and variant mood == stormy answer 5;\n"
                "source \"T.m\";\n");
    hon_vm *a = hon_vm_copy(t->vm), *b = hon_vm_copy(t->vm);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(hon_apply_setting(a, "", "<t>"), HON_OK);
    ck_assert_int_eq(hon_apply_setting(b, "", "<t>"), HON_OK);
    hon_question_set qs;
    hon_question_defaults(&qs);
    qs.bundled_boards = false;
    hon_search_options so = { .seconds = 0.2, .max_size = 3 };
    char *buf = NULL;
    size_t len = 0, changing = 0;
    FILE *f = open_memstream(&buf, &len);
    variants_work w;
    ck_assert_int_eq(variants_compare(a, b, "", &qs, &so, f, &changing, &w), HON_OK);
    char *text = captured(f, &buf);
    ck_assert_msg(strstr(text, "\nmood=stormy: 1 of 7 questions differ, e.g. (no board): "
                               "cost(3): 1 | 6\n1 of 1 readings change an answer\n"),
                  "%s", text);
    ck_assert_uint_eq(changing, 1);
    ck_assert_uint_eq(w.setting, 7);
    ck_assert_uint_eq(w.reading, 1);
    free(text);
    hon_vm_free(a);
    hon_vm_free(b);
    tvm_free(t);
}
END_TEST

START_TEST(variants_behind_a_table)
{
    /* A query that answers from a table (memo.h: bonus, its one parameter a bool, pure) runs
     * its rules once per setting; after that its answer reads nothing, so a question that
     * calls it may read the variant unseen: diff --variants asks each question that can call
     * it under both settings (variants.c, hidden_build; focus_unseen). Under calm bonus(true) is 0
     * and cost(n) 1; under stormy bonus(true) is 5 and cost(n) is 1 + 5 = 6 for each n in
     * 0..6. Questions: bonus over the 2 bools, then cost over the 7 ints: 9; bonus(true) and
     * the 7 costs differ: 8, the first asked bonus(true). Were the tabled answer taken as
     * reading nothing, the costs after the first would be counted as agreeing. */
    tvm *t =
        tvm_new("variant mood \"M\" { reading calm default; reading stormy; }\n"
                "query bonus(hasty: bool) -> int combine sum default 0;\n"
                "rule bonus.mood cite \"T.m\" when hasty and variant mood == stormy answer 5;\n"
                "query cost(n: int) -> int combine sum default 1;\n"
                "rule cost.bonus cite \"T.m\" when bonus(true) > 0 answer bonus(true);\n"
                "source \"T.m\";\n");
    hon_vm *a = hon_vm_copy(t->vm), *b = hon_vm_copy(t->vm);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(hon_apply_setting(a, "", "<t>"), HON_OK);
    ck_assert_int_eq(hon_apply_setting(b, "", "<t>"), HON_OK);
    hon_question_set qs;
    hon_question_defaults(&qs);
    qs.bundled_boards = false;
    hon_search_options so = { .seconds = 0.2, .max_size = 3 };
    char *buf = NULL;
    size_t len = 0, changing = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(hon_diff_variants(a, b, "", &qs, &so, f, &changing), HON_OK);
    char *text = captured(f, &buf);
    ck_assert_msg(strstr(text, "\nmood=stormy: 8 of 9 questions differ, e.g. (no board): "
                               "bonus(true): 0 | 5\n"),
                  "%s", text);
    free(text);
    hon_vm_free(a);
    hon_vm_free(b);
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("diff");
    TCase *tc = tcase_create("diff");
    tcase_add_test(tc, introspection);
    tcase_add_test(tc, expectations_as_text);
    tcase_add_test(tc, quiet_and_traced_calls);
    tcase_add_test(tc, copies_and_settings);
    tcase_add_test(tc, diff_of_two_settings);
    tcase_add_test(tc, snapshot_round_trip);
    tcase_add_test(tc, bundled_boards);
    tcase_add_test(tc, rule_names_and_variants);
    tcase_add_test(tc, variants_stop_at_an_interrupt);
    tcase_add_test(tc, variants_ask_what_a_reading_can_change);
    tcase_add_test(tc, variants_behind_a_table);
    suite_add_tcase(s, tc);
    return check_run(s);
}
