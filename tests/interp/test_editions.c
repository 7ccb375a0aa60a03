/* test_editions.c — Check tests of editions that compose (docs/spec/language.md §3.8): modules
 * turning their rules off, editions over several parents, each kind of revision answering under
 * its edition only (a rule's guard, answer and exception, a table cell, a fn, a counter's value,
 * a variant's reading), conflicts settled by a later edition, a `prefer` or a revision, the
 * setting and provenance an answer carries, `expect ... under` in test blocks, and a counter
 * revised on a board.
 *
 * The program is three files (base, hills, errata), loaded one by one as a session would; every
 * expected value is worked out beside its assertion.
 */
#include "interp_test.h"
#include "session.h"

/* The base module: speed(x) is 10 for x > 2 (fast) else 1 (slow); bonus[rain].b is not given;
 * cap() is 5 and cap_plus() calls it; a rifle has defense 3. */
static const char *const BASE =
    "module base \"The base game\";\n"
    "source \"B.1\"; source \"B.2\"; source \"ERR.1\"; source \"H.1\";\n"
    "enum weather { clear, rain }\n"
    "query speed(x: int) -> int combine first default 0;\n"
    "rule speed.fast cite \"B.1\" when x > 2 answer 10;\n"
    "rule speed.slow cite \"B.2\" answer 1;\n"
    "table bonus(w: weather) -> (a: int, b: int) { clear => 1, 2; rain => 3, ?; }\n"
    "fn cap() -> int = 5;\n"
    "fn cap_plus() -> int = cap() + 1;\n"
    "variant rows { reading highest default; reading cumulative; }\n"
    "value defense;\nkind infantry;\nside allies;\nterrain open;\n"
    "counter rifle : infantry { side allies defense 3 }\n"
    "edition base_game uses base \"as printed\";\n";

/* The hills module: one rule of its own query (height sums to 1 with it, 0 without). */
static const char *const HILLS = "module hills \"Hills\";\n"
                                 "query height(x: int) -> int combine sum;\n"
                                 "rule height.one cite \"H.1\" answer 1;\n"
                                 "edition hills extends base_game uses hills;\n";

/* The errata module: one edition revising one thing of each kind, and editions built on it. */
static const char *const ERRATA = "module errata;\n"
                                  "edition errata extends base_game \"errata\" {\n"
                                  "  revise rule speed.fast cite \"ERR.1\" when x > 3;\n"
                                  "  revise table bonus[rain].b = 4 cite \"ERR.1\";\n"
                                  "  revise fn cap() -> int = 6;\n"
                                  "  revise counter rifle { defense 4 }\n"
                                  "  set variant rows = cumulative;\n"
                                  "}\n"
                                  "edition both extends hills, errata;\n"
                                  "edition exceptions extends base_game {\n"
                                  "  revise rule speed.slow unless x == 0;\n"
                                  "  revise rule speed.fast answer 20;\n"
                                  "}\n";

/* Chooses edition ed, then requires expression e to answer want. */
#define ck_under(t, ed, e, want)                                  \
    do {                                                          \
        ck_assert_int_eq(hon_set_edition((t)->vm, (ed)), HON_OK); \
        ck_ev((t), (e), (want));                                  \
    } while (0)

static tvm *three_files(void)
{
    tvm *t = tvm_new(BASE);
    ck_assert_int_eq(hon_load_source(t->vm, "hills.hon", HILLS, strlen(HILLS)), HON_OK);
    ck_assert_msg(hon_load_source(t->vm, "errata.hon", ERRATA, strlen(ERRATA)) == HON_OK, "%s",
                  t->log);
    return t;
}

START_TEST(modules_turn_their_rules_off)
{
    tvm *t = three_files();
    /* no edition active (none is the default): every module's rules */
    ck_assert_ptr_null(hon_edition(t->vm));
    ck_ev(t, "height(1)", "1");
    /* base_game uses base only: height.one is off, the sum is 0 */
    ck_under(t, "base_game", "height(1)", "0");
    /* hills extends base_game and uses hills: on again; the declarations are there either way */
    ck_under(t, "hills", "height(1)", "1");
    ck_ev(t, "speed(3)", "10");
    tvm_free(t);
}
END_TEST

START_TEST(a_rule_of_a_module_not_used)
{
    /* base_game does not use hills: height.one does not exist in it (E140, at its name) */
    tvm *t = three_files();
    const char *src = "edition x extends base_game {\n  remove rule height.one;\n}\n";
    ck_assert_int_eq(hon_load_source(t->vm, "x.hon", src, strlen(src)), HON_ERR_COMPILE);
    ck_assert_msg(has_diag(t, 140, 2, 15) &&
                      strstr(t->log, "edition `x` removes rule `height.one` of module `hills`, "
                                     "which it does not use (add it to its `uses`)"),
                  "%s", t->log);
    tvm_free(t);
}
END_TEST

START_TEST(each_revision_under_its_edition)
{
    tvm *t = three_files();
    ck_assert_int_eq(hon_set_edition(t->vm, "base_game"), HON_OK);
    /* as declared: 3 > 2 fires fast; the cell is `?`; cap 5, cap_plus 6; defense 3 */
    ck_ev(t, "speed(3)", "10");
    ck_ev(t, "bonus[rain].b", "E201");
    ck_ev(t, "cap_plus()", "6");
    ck_ev(t, "rifle.defense", "3");
    ck_ev(t, "variant rows", "highest");
    ck_assert_int_eq(hon_set_edition(t->vm, "errata"), HON_OK);
    /* the guard is x > 3: speed(3) falls to slow (1), speed(4) is fast (10) */
    ck_ev(t, "speed(3)", "1");
    ck_ev(t, "speed(4)", "10");
    /* the revised cell, the other cells as declared */
    ck_ev(t, "bonus[rain].b", "4");
    ck_ev(t, "bonus[rain].a", "3");
    ck_ev(t, "bonus[clear]", "bonus{a: 1, b: 2}");
    /* cap_plus calls the revised cap: 6 + 1 */
    ck_ev(t, "cap()", "6");
    ck_ev(t, "cap_plus()", "7");
    ck_ev(t, "rifle.defense", "4");
    ck_ev(t, "variant rows", "cumulative");
    /* a reading chosen wins over the edition's */
    ck_assert_int_eq(hon_set_variant(t->vm, "rows", "highest"), HON_OK);
    ck_ev(t, "variant rows", "highest");
    /* the exception: slow answers unless x == 0, so speed(0) is the default 0; the new answer
     * of fast (20) keeps its guard (x > 2) */
    ck_under(t, "exceptions", "speed(0)", "0");
    ck_ev(t, "speed(1)", "1");
    ck_ev(t, "speed(3)", "20");
    /* both extends hills and errata: the hills rule and errata's revisions */
    ck_under(t, "both", "height(1) + speed(3) + bonus[rain].b + cap()", "12"); /* 1 + 1 + 4 + 6 */
    tvm_free(t);
}
END_TEST

/* Editions over a, b (both revising speed.fast) and a2 (revising it again after a). */
static const char *const LINES =
    "edition a extends base_game { revise rule speed.fast when x > 4; }\n"
    "edition b extends base_game { revise rule speed.fast when x > 5; }\n"
    "edition a2 extends a { revise rule speed.fast when x > 9; }\n"
    "edition later extends a, a2;\n"
    "edition pa extends a, b { prefer a for rule speed.fast; }\n"
    "edition pb extends a, b { prefer b; }\n"
    "edition own extends a, b { revise rule speed.fast answer 30; }\n";

START_TEST(conflicts_settled)
{
    tvm *t = tvm_new(BASE);
    ck_assert_msg(hon_load_source(t->vm, "lines.hon", LINES, strlen(LINES)) == HON_OK, "%s",
                  t->log);
    /* a2 extends a: its version is later along that line, and wins without a word */
    ck_under(t, "later", "speed(9)", "1");
    ck_ev(t, "speed(10)", "10");
    /* prefer a: x > 4; prefer b (for everything): x > 5 */
    ck_under(t, "pa", "speed(5)", "10");
    ck_under(t, "pb", "speed(5)", "1");
    /* its own revision settles it, starting from the first parent's version (a: x > 4) */
    ck_under(t, "own", "speed(5)", "30");
    ck_ev(t, "speed(4)", "1");
    tvm_free(t);
}
END_TEST

/* pick(k) and pair(k, b) are pure, over an enum of three and over it and a bool (3 and 6
 * tuples of arguments): the tables of answers keep them (memo.c; pick's, of one parameter, read
 * inline: memo_slot_quick). Both read variant `way`: asked again after the reading changes,
 * they answer under the new reading, not from the table kept for the old one.
 *   pick(k) = 1, 2, 3 for k1, k2, k3, times 10 under `high`; pair(k, b) = pick(k) + 100 if b. */
START_TEST(tabled_answers_follow_the_setting)
{
    tvm *t = tvm_new("source \"T.1\" = \"this test's rules\";\n"
                     "enum sort { k1, k2, k3 }\n"
                     "variant way { reading low default; reading high; }\n"
                     "query pick(k: sort) -> int combine first;\n"
                     "rule pick.r cite \"T.1\"\n"
                     "  answer (if k == k1 then 1 else if k == k2 then 2 else 3)\n"
                     "         * (if variant way == high then 10 else 1);\n"
                     "query pair(k: sort, b: bool) -> int combine first;\n"
                     "rule pair.r cite \"T.1\" answer pick(k) + (if b then 100 else 0);\n");
    for (int twice = 0; twice < 2; twice++) { /* the second time from the tables */
        ck_assert_str_eq(ev_as(t, "pick(k1)", false), "1");
        ck_assert_str_eq(ev_as(t, "pick(k3)", false), "3");
        ck_assert_str_eq(ev_as(t, "pair(k2, true)", false), "102");
    }
    ck_assert_int_eq(hon_set_variant(t->vm, "way", "high"), HON_OK);
    for (int twice = 0; twice < 2; twice++) {
        ck_assert_str_eq(ev_as(t, "pick(k1)", false), "10");
        ck_assert_str_eq(ev_as(t, "pick(k3)", false), "30");
        ck_assert_str_eq(ev_as(t, "pair(k2, true)", false), "120");
        ck_assert_str_eq(ev_as(t, "pair(k3, false)", false), "30");
    }
    ck_assert_int_eq(hon_set_variant(t->vm, "way", NULL), HON_OK);
    ck_assert_str_eq(ev_as(t, "pick(k3)", false), "3");
    ck_assert_str_eq(ev_as(t, "pair(k3, false)", false), "3");
    tvm_free(t);
}
END_TEST

/* The tables' key is checked by one number (bench.md §8): the session's own setup names its
 * program, edition and readings with a number given to no other setting (state_setup.setting),
 * and the tables remember the number they were last keyed from (memo.setting). An evaluation
 * under the same setup keeps the tables without comparing every reading; a changed reading
 * makes a new setup with a new number, and the tables follow it (pick(k1): 1 under `low`, 10
 * under `high`, as in tabled_answers_follow_the_setting); a setup without a number (0, a test
 * block's or a diff's) compares every reading, as before. */
START_TEST(the_tables_key_is_one_number)
{
    tvm *t = tvm_new("source \"T.1\" = \"this test's rules\";\n"
                     "enum sort { k1, k2, k3 }\n"
                     "variant way { reading low default; reading high; }\n"
                     "query pick(k: sort) -> int combine first;\n"
                     "rule pick.r cite \"T.1\"\n"
                     "  answer (if k == k1 then 1 else if k == k2 then 2 else 3)\n"
                     "         * (if variant way == high then 10 else 1);\n");
    memo *m = &t->vm->x.memo;
    ck_assert_str_eq(ev_as(t, "pick(k1)", false), "1");
    const state_setup *s = session_setup(t->vm);
    const uint64_t low = s->setting;
    ck_assert(low != 0);
    ck_assert(m->setting == low);
    const uint8_t *tabled = m->tabled;
    ck_assert_str_eq(ev_as(t, "pick(k1)", false), "1");
    ck_assert(m->tabled == tabled); /* kept: the same number */
    ck_assert_int_eq(hon_set_variant(t->vm, "way", "high"), HON_OK);
    ck_assert_str_eq(ev_as(t, "pick(k1)", false), "10");
    s = session_setup(t->vm);
    ck_assert(s->setting != 0 && s->setting != low);
    ck_assert(m->setting == s->setting);
    const int32_t ed = s->edition;
    /* the number alone decides: asked with it, the readings are not compared (NULL: every
     * default, which differs from `high`) */
    tabled = m->tabled;
    ck_assert(memo_key(m, t->vm->pg, ed, NULL, s->setting));
    ck_assert(m->tabled == tabled && m->setting == s->setting);
    /* without a number every reading is compared: `low` differs, the tables are dropped and
     * keyed again, to no number */
    ck_assert(memo_key(m, t->vm->pg, ed, NULL, 0));
    ck_assert(m->setting == 0 && m->nreadings == 1 && m->readings[0] == 0);
    /* the session's own setup again: compared in full once (the tables hold `low`), then
     * keyed to its number; it answers under `high` */
    ck_assert_str_eq(ev_as(t, "pick(k1)", false), "10");
    ck_assert(m->setting == s->setting && m->readings[0] == 1);
    tvm_free(t);
}
END_TEST

START_TEST(answers_say_their_setting)
{
    tvm *t = three_files();
    hon_answer *a = NULL;
    /* no edition, every reading at its default */
    ck_assert_int_eq(hon_eval(t->vm, "speed(3)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_setting(a), "no edition");
    ck_assert_str_eq(hon_answer_text(a), "10");
    ck_assert_msg(
        strncmp(hon_answer_json(a),
                "{\"edition\": null, \"readings\": {\"rows\": \"highest\"}, \"value\": 10",
                60) == 0,
        "%s", hon_answer_json(a));
    /* the setting is the default one: the trace reads as before, no module for the base
     * module's rules */
    ck_assert_str_eq(hon_answer_trace(a), "speed(3) = 10   [first]\n"
                                          "  rule speed.fast: 10   (B.1)\n");
    hon_answer_free(a);
    /* under errata: the edition, its reading, a first trace line, the revised rule's module and
     * edition and its citations (the rule's, then the revision's) */
    ck_assert_int_eq(hon_set_edition(t->vm, "errata"), HON_OK);
    ck_assert_int_eq(hon_eval(t->vm, "speed(4)", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_setting(a), "edition errata; rows = cumulative");
    ck_assert_msg(strstr(hon_answer_json(a), "\"module\": \"errata\", \"edition\": \"errata\""),
                  "%s", hon_answer_json(a));
    ck_assert_str_eq(hon_answer_why(a),
                     "(under edition errata; rows = cumulative)\n"
                     "speed(4) = 10   [first]\n"
                     "  rule speed.fast: 10   (module errata, edition errata)   (B.1; ERR.1)\n");
    hon_answer_free(a);
    /* the JSON's setting follows every change, though a session renders it once for all the
     * answers under one setting (session.c's setting_memo): errata with its own reading of
     * rows, then with rows set back to highest, then no edition again (the first setting) */
    const char *const settings[][2] = {
        { "errata", "{\"edition\": \"errata\", \"readings\": {\"rows\": \"cumulative\"}, " },
        { "rows", "{\"edition\": \"errata\", \"readings\": {\"rows\": \"highest\"}, " },
        { "", "{\"edition\": null, \"readings\": {\"rows\": \"highest\"}, " },
    };
    for (size_t i = 0; i < 3; i++) {
        if (strcmp(settings[i][0], "rows") == 0)
            ck_assert_int_eq(hon_set_variant(t->vm, "rows", "highest"), HON_OK);
        else if (!*settings[i][0])
            ck_assert_int_eq(hon_set_variant(t->vm, "rows", NULL), HON_OK);
        for (int twice = 0; twice < 2; twice++) {
            if (!*settings[i][0])
                ck_assert_int_eq(hon_set_edition(t->vm, NULL), HON_OK);
            ck_assert_int_eq(hon_eval(t->vm, "speed(3)", "<test>", &a), HON_OK);
            ck_assert_msg(strncmp(hon_answer_json(a), settings[i][1], strlen(settings[i][1])) == 0,
                          "%s: %s", settings[i][0], hon_answer_json(a));
            hon_answer_free(a);
        }
    }
    ck_assert_int_eq(hon_set_edition(t->vm, "errata"), HON_OK);
    /* a revised cell in a lookup: its edition and its revision's citation */
    ck_assert_int_eq(hon_eval(t->vm, "bonus[rain].b", "<test>", &a), HON_OK);
    ck_assert_str_eq(hon_answer_trace(a), "(under edition errata; rows = cumulative)\n"
                                          "table bonus[rain].b = 4   (module errata, edition "
                                          "errata)   (revised: ERR.1)\n");
    hon_answer_free(a);
    /* a module that is not the base one is named even on a rule no edition made */
    ck_assert_int_eq(hon_set_edition(t->vm, "hills"), HON_OK);
    ck_assert_str_eq(why(t, "height(1)"), "(under edition hills)\n"
                                          "height(1) = 1   [sum]\n"
                                          "  rule height.one: 1   (module hills)   (H.1)\n");
    tvm_free(t);
}
END_TEST

/* Tests that state their expectations per edition. */
static const char *const UNDER =
    "test \"per edition\" {\n"
    "  expect speed(3) == 10 under base_game, 1 under errata;\n"
    "  expect rifle.defense == 3 under base_game, 4 under errata, 4 under both;\n"
    "}\n"
    "test \"a wrong expectation names its edition\" {\n"
    "  expect speed(3) == 10 under errata;\n"
    "}\n";

START_TEST(expect_under)
{
    tvm *t = three_files();
    ck_assert_msg(hon_load_source(t->vm, "under.hon", UNDER, strlen(UNDER)) == HON_OK, "%s",
                  t->log);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    size_t passed = 0, failed = 0;
    ck_assert_int_eq(hon_run_tests(t->vm, "under.hon", out, &passed, &failed), HON_ERR_RUNTIME);
    fclose(out);
    ck_assert_uint_eq(passed, 1);
    ck_assert_uint_eq(failed, 1);
    ck_assert_msg(strstr(buf, "under.hon:6:10: FAIL \"a wrong expectation names its edition\": "
                              "speed(3) is 1 under errata, expected 10\n"),
                  "%s", buf);
    free(buf);
    tvm_free(t);
}
END_TEST

START_TEST(a_board_takes_the_edition_s_counters)
{
    tvm *t = three_files();
    const char *scn = "size 2 x 1\nlegend . = open\nmap\n  1 . .\nunit r = rifle allies at A1\n";
    ck_assert_int_eq(hon_set_edition(t->vm, "base_game"), HON_OK);
    ck_assert_msg(hon_load_board_source(t->vm, "b.scn", scn, strlen(scn)) == HON_OK, "%s", t->log);
    ck_ev(t, "$r.defense", "3");
    /* errata revises the rifle: the board is loaded again with its counters */
    ck_under(t, "errata", "$r.defense", "4");
    ck_assert_str_eq(hon_board_path(t->vm), "b.scn");
    /* hills leaves the counters as declared: 3 again */
    ck_under(t, "hills", "$r.defense", "3");
    tvm_free(t);
}
END_TEST

static void each_edition(void *ud, const char *name, const char *parents, const char *title)
{
    (void)title;
    char *b = ud;
    size_t n = strlen(b);
    snprintf(b + n, 512 - n, "%s<%s> ", name, parents ? parents : "");
}

static void each_rule(void *ud, const hon_rule_info *r)
{
    char *b = ud;
    size_t n = strlen(b);
    snprintf(b + n, 512 - n, "%s[%s/%s] ", r->name, r->module ? r->module : "-",
             r->edition ? r->edition : "-");
}

START_TEST(listings_and_show)
{
    tvm *t = three_files();
    ck_assert_int_eq(hon_set_edition(t->vm, "errata"), HON_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_int_eq(hon_show(t->vm, "speed.fast", out), HON_OK);
    ck_assert_int_eq(hon_show(t->vm, "cap", out), HON_OK);
    fclose(out);
    /* the rule's text, then its revision's; the fn's revision */
    ck_assert_str_eq(buf, "# rule speed.fast — t.hon:5\n"
                          "rule speed.fast cite \"B.1\" when x > 2 answer 10;\n"
                          "# revised by edition errata — errata.hon:3\n"
                          "  revise rule speed.fast cite \"ERR.1\" when x > 3;\n"
                          "cites: B.1\n"
                          "# declaration cap — errata.hon:5\n"
                          "# revised by edition errata\n"
                          "  revise fn cap() -> int = 6;\n");
    free(buf);
    /* the parents of an edition, comma-separated */
    char eds[512] = "";
    hon_each_edition(t->vm, each_edition, eds);
    ck_assert_str_eq(eds, "base_game<> hills<base_game> errata<base_game> both<hills, errata> "
                          "exceptions<base_game> ");
    /* a listing gives a rule's module and the edition that made it */
    char rules[512] = "";
    hon_list_rules(t->vm, "speed", each_rule, rules);
    /* (a revised rule's text is the revision's: its module is errata's) */
    ck_assert_str_eq(rules, "speed.fast[errata/errata] speed.slow[base/-] ");
    tvm_free(t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("editions");
    TCase *tc = tcase_create("editions");
    tcase_add_test(tc, modules_turn_their_rules_off);
    tcase_add_test(tc, a_rule_of_a_module_not_used);
    tcase_add_test(tc, each_revision_under_its_edition);
    tcase_add_test(tc, conflicts_settled);
    tcase_add_test(tc, answers_say_their_setting);
    tcase_add_test(tc, tabled_answers_follow_the_setting);
    tcase_add_test(tc, the_tables_key_is_one_number);
    tcase_add_test(tc, expect_under);
    tcase_add_test(tc, a_board_takes_the_edition_s_counters);
    tcase_add_test(tc, listings_and_show);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run(suite());
}
