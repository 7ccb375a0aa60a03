/* test_oom.c — allocation-failure injection over the whole back end: for N = 0, 1, 2, ...
 * the Nth allocation and every later one fail (base/mem.h hook) while a vm is created, a
 * program covering every declaration form is loaded, and expressions, odds and tests run; a
 * board is played on; two settings are compared (hon_diff, hon_diff_search, hon_diff_variants)
 * and a snapshot recorded and checked.
 * Nothing may crash or leak (run under ASan or the valgrind setup); a run that meets no
 * failure ends the loop.
 */
#include <unistd.h>

#include "interp_test.h"
#include "mem.h"

static const char *program =
    "module m;\nkind inf;\nside allies;\nability aa: int;\nmarker sup;\nvalue defense;\ntoken "
    "numbered: int;\n"
    "enum w { storm, clear }\nrecord order { kind: token, number: int }\n"
    "counter c \"C\" : inf { side allies defense 3 abilities { aa 1 } markers { sup } }\n"
    "table t(k: w) -> (a: int, b: set<w>) cite \"T\" { storm => 1, {storm}; clear => ?, {}; }\n"
    "table f(n: int floor) -> int { 0 => 1; 10 => 2; }\n"
    "fn num(n: int) -> order = order{kind: numbered, number: n};\n"
    "query q(x: int) -> int combine sum default 1;\n"
    "rule q.a cite \"A\" source \"S\" when x > 0 answer sum(y in [x, 2]: y) + f[x];\n"
    "rule q.b cite \"B\" answer t[storm].a;\nquery p(x: int) -> verdict combine permission;\n"
    "rule p.no cite \"P\" when x < 0 answer forbid;\n"
    "variant v \"V\" { reading one default; reading two; }\n"
    "edition e \"E\" { replace rule q.b cite \"B2\" answer 5; set variant v = two; }\n"
    "edition r extends e uses m { revise rule q.a cite \"B2\" when x > 1 unless x > 9;\n"
    "  revise table t[storm].a = 2; revise fn num(n: int) -> order = order{kind: numbered, "
    "number: n + 1};\n  revise counter c { defense 4 } }\n"
    "edition s extends e { revise rule q.a answer 3; }\n"
    "edition rs extends r, s { prefer r; }\n"
    "default edition e;\ntest \"t1\" { expect q(1) == 10; expect t[clear].a fails E201; }\n"
    "test \"t2\" { expect c.defense == 3 under e, 4 under rs; }\n"
    "source \"T\"; source \"A\" = \"S\"; source \"B\"; source \"P\"; source \"B2\";\n";

static void quiet(void *ud, const hon_diag *d)
{
    (void)ud;
    (void)d;
}

/* For N = 0, 1, 2, ...: the Nth allocation and every later one fail while a new vm runs
 * script(vm, ud); the sweep ends with the first run that met no failure. The script must
 * neither crash nor leak, whatever fails; it is checked to have passed many allocation
 * points (more than 100), so the sweep really exercised something. */
static void sweep(const char *what, void (*script)(hon_vm *vm, const void *ud), const void *ud)
{
    long n;
    for (n = 0; n < 100000; n++) {
        mem_fail_after(n);
        hon_config cfg = { .on_diag = quiet };
        hon_vm *vm = hon_vm_new(&cfg);
        if (vm)
            script(vm, ud);
        long failed = mem_failed_count();
        mem_fail_reset();
        hon_vm_free(vm);
        if (failed == 0)
            break;
    }
    fprintf(stderr, "oom loop (%s): %ld allocation points\n", what, n);
    ck_assert_msg(n > 100, "only %ld allocations: the loop did not exercise much", n);
}

/* The first sweep's script: load the program, evaluate, odds, run its tests. */
static void load_and_ask(hon_vm *vm, const void *ud)
{
    (void)ud;
    hon_answer *a = NULL;
    hon_load_source(vm, "p.hon", program, strlen(program));
    hon_eval(vm, "q(3) + len([num(1).number]) + c.defense", "<oom>", &a);
    hon_answer_free(a);
    a = NULL;
    hon_set_edition(vm, "rs");
    hon_eval(vm, "q(3) + num(1).number + c.defense + t[storm].a", "<oom>", &a);
    hon_answer_free(a);
    hon_set_edition(vm, NULL);
    a = NULL;
    hon_odds(vm, "roll d6 + 1 > 4", "<oom>", &a);
    hon_answer_free(a);
    FILE *devnull = fopen("/dev/null", "w");
    hon_run_tests(vm, NULL, devnull, NULL, NULL);
    fclose(devnull);
}

START_TEST(every_allocation_fails_once)
{
    sweep("load", load_and_ask, NULL);
    /* and with no failure, the same script gives the right answers:
     * q(3) under e: default 1 + q.a (3 + 2 + f[3] = 1) + q.b replaced (5) = 12 */
    tvm *t = tvm_new(program);
    ck_ev(t, "q(3)", "12");
    /* under rs, r preferred: q.a fires for 1 < x <= 9 (3 + 2 + f[3] = 6), q.b 5, default 1: 12;
     * num(1).number is 2, c.defense 4, t[storm].a 2 */
    ck_assert_int_eq(hon_set_edition(t->vm, "rs"), HON_OK);
    ck_ev(t, "q(3) + num(1).number + c.defense + t[storm].a", "20");
    tvm_free(t);
}
END_TEST

/* The board: a scenario loaded, its built-ins, a drawing, a call from C, a reload that
 * rebuilds the board, a test with its own board. */
static const char *board_rules =
    "kind inf;\nside allies;\nmarker sup;\nvalue defense;\n"
    "terrain open; terrain woods;\nside_feature wall;\ninterspace_item mine;\n"
    "counter c : inf { side allies defense 3 }\n"
    "query blocked(a: unit, b: unit) -> bool combine any;\n"
    "rule blocked.w cite \"W\" when any(s in line(square_of(a), square_of(b)):\n"
    "  terrain(s.square) == woods or side_has(s.side, wall)) answer true;\nsource \"W\";\n";
static const char *board_text =
    "size 4 x 3\nlegend . = open  w = woods\nmap\n  1 . w . .\n  2 . . . .\n  3 . . . .\n"
    "side C2/C3 wall\ninterspace B2 mine=2\n"
    "unit a = c allies at A1 with sup\nunit b = c allies at D3\n";

/* The board sweep's script: rules and a board, the built-ins, pictures, a call from C and a
 * test with its own board (ud: that test's source text). */
static void board_and_draw(hon_vm *vm, const void *ud)
{
    const char *test_src = ud;
    hon_answer *a = NULL;
    hon_load_source(vm, "r.hon", board_rules, strlen(board_rules));
    hon_load_board_source(vm, "b.scn", board_text, strlen(board_text));
    hon_eval(vm,
             "[blocked($a, $b)] == [true] and len(bresenham(@A1, @D3)) == 3 and "
             "items_near(@B2) == [mine] and units_at(@A1) == [$a]",
             "<oom>", &a);
    hon_answer_free(a);
    a = NULL;
    hon_eval(vm, "line(@A1, @D2)", "<oom>", &a);
    hon_answer_free(a);
    FILE *devnull = fopen("/dev/null", "w");
    hon_draw_board(vm, devnull, "$a", "@D3");
    hon_board_svg(vm, devnull, NULL, NULL);
    hon_query_handle *h = hon_lookup_query(vm, "blocked");
    hon_value args[2] = { { HON_V_UNIT, hon_unit_id(vm, "$a") },
                          { HON_V_UNIT, hon_unit_id(vm, "$b") } },
              out;
    if (h)
        hon_call_query(vm, h, args, 2, &out);
    hon_query_handle_free(h);
    hon_load_source(vm, "t.hon", test_src, strlen(test_src));
    hon_run_tests(vm, NULL, devnull, NULL, NULL);
    fclose(devnull);
}

START_TEST(every_allocation_fails_with_a_board)
{
    char dir[] = "/tmp/hon_oom_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/b.scn", dir);
    FILE *bf = fopen(path, "w");
    ck_assert_ptr_nonnull(bf);
    fputs(board_text, bf);
    fclose(bf);
    char test_src[512];
    snprintf(test_src, sizeof test_src,
             "test \"b\" board \"%s\" { expect blocked($a, $b); expect $zz fails E213; }\n", path);
    sweep("board", board_and_draw, test_src);
    /* with no failure: A1 -> D3 (dx 3, dy 2) crosses the woods on B1? The line meets x = 2, 4,
     * 6 at 1/6, 1/2, 5/6 and y = 2, 4 at 1/4, 3/4: B1 (1/6), B2 (1/4), C2 (1/2), C3 (3/4, across
     * the wall C2/C3), D3: the woods on B1 and the wall both block */
    tvm *t = tvm_new(board_rules);
    ck_assert_int_eq(hon_load_board_source(t->vm, "b.scn", board_text, strlen(board_text)), HON_OK);
    ck_ev(t, "blocked($a, $b)", "true");
    ck_ev(t, "count(s in line(@A1, @D3): terrain(s.square) == woods)", "1");
    ck_ev(t, "count(s in line(@A1, @D3): side_has(s.side, wall))", "1");
    tvm_free(t);
    remove(path);
    rmdir(dir);
}
END_TEST

/* Playing (language.md §6): procedures with effects, raised events and a choice, a walk, the
 * clock, undo, the odds of a procedure, and a test that plays with dice and choices. */
static const char *play_rules =
    "kind inf;\nside allies;\nmarker sup;\nmarker shk;\nvalue speed;\nterrain open;\n"
    "phase one;\nphase two;\nface wreck;\ncounter c : inf { side allies speed 2 }\n"
    "event hit(u: unit);\nevent got(u: unit, m: marker) on give;\n"
    "event in_sq(u: unit, s: square) on enter;\nevent ends(p: phase) on phase_end;\n"
    "rule hit.r cite \"H\" do { if roll d6 >= 4 then { give u sup 2; } flip u to wreck;\n"
    "  set u.speed = 1; let sq = choose(q in [@B1, @C1], by: allies) \"where?\";\n"
    "  move u to sq; raise hit2(u); note \"n\"; };\n"
    "event hit2(u: unit);\nrule hit2.r cite \"H2\" do { destroy u; };\n"
    "rule got.r cite \"G\" when m == sup and not has(u, shk) do { give u shk; };\n"
    "rule in_sq.r cite \"I\" do { take u sup; };\n"
    "rule ends.r cite \"E\" do { for x in units() { take x sup all; } };\n"
    "test \"p\" dice [5] choices [@C1] { do hit($a); expect face($a) == wreck; }\n"
    "source \"H\"; source \"H2\"; source \"G\"; source \"I\"; source \"E\";\n";
static const char *play_board =
    "size 3 x 1\nlegend . = open\nmap\n  1 . . .\nunit a = c allies at A1\n"
    "unit b = c allies at A1\n";

/* The play sweep's script: a procedure, a walk, the clock, odds of a procedure, undo, and a
 * test that plays. */
static void play(hon_vm *vm, const void *ud)
{
    (void)ud;
    const char *path[] = { "B1", "C1" };
    hon_answer *a = NULL;
    hon_load_source(vm, "p.hon", play_rules, strlen(play_rules));
    hon_load_board_source(vm, "b.scn", play_board, strlen(play_board));
    hon_do(vm, "hit($a)", "<oom>", &a);
    hon_answer_free(a);
    a = NULL;
    hon_move(vm, "$b", path, 2, &a);
    hon_answer_free(a);
    a = NULL;
    hon_next(vm, &a);
    hon_answer_free(a);
    a = NULL;
    hon_odds_do(vm, "hit($b)", "<oom>", &a);
    hon_answer_free(a);
    a = NULL;
    hon_undo(vm, &a);
    hon_answer_free(a);
    hon_undo(vm, NULL);
    FILE *devnull = fopen("/dev/null", "w");
    hon_run_tests(vm, NULL, devnull, NULL, NULL);
    fclose(devnull);
}

START_TEST(every_allocation_fails_while_playing)
{
    sweep("play", play, NULL);
    /* with no failure: the test passes (a 5 gives 2 markers, the choice is C1, the unit is a
     * wreck), and the odds of hit($b): 3 of 6 faces give the markers */
    tvm *t = tvm_new(play_rules);
    ck_assert_int_eq(hon_load_board_source(t->vm, "b.scn", play_board, strlen(play_board)), HON_OK);
    FILE *devnull = fopen("/dev/null", "w");
    size_t passed = 0;
    hon_run_tests(t->vm, NULL, devnull, &passed, NULL);
    fclose(devnull);
    ck_assert_uint_eq(passed, 1);
    tvm_free(t);
}
END_TEST

/* The diff sweep: two settings of the board's rules (a variant that blocks every line)
 * compared over a board and a question file (differences asked again, traced), then a
 * snapshot recorded and checked. ud: the board's, the question file's and the snapshot's
 * paths. */
static const char *diff_rules = "variant dark \"D\" { reading no default; reading yes; }\n"
                                "query lit(u: unit) -> bool combine any;\n"
                                "rule lit.dark cite \"W\" when variant dark == yes answer true;\n";

/* Loads the diff sweep's rules into vm and gives a copy of it under dark (NULL when memory
 * ran out), and the question set: the board paths[0], the question file paths[1]. */
static hon_vm *diff_sessions(hon_vm *vm, const char *const *paths, hon_question_set *qs)
{
    hon_load_source(vm, "r.hon", board_rules, strlen(board_rules));
    hon_load_source(vm, "d.hon", diff_rules, strlen(diff_rules));
    hon_vm *b = hon_vm_copy(vm);
    if (b && hon_apply_setting(b, ",dark=yes", "<oom>") != HON_OK) {
        hon_vm_free(b);
        b = NULL;
    }
    hon_question_defaults(qs);
    qs->bundled_boards = false;
    qs->boards = paths;
    qs->nboards = 1;
    qs->files = paths + 1;
    qs->nfiles = 1;
    return b;
}

static void diff_and_snapshot(hon_vm *vm, const void *ud)
{
    const char *const *paths = ud;
    hon_question_set qs;
    hon_vm *b = diff_sessions(vm, paths, &qs);
    qs.cap = 20;
    FILE *devnull = fopen("/dev/null", "w");
    if (b)
        hon_diff(vm, "day", b, "dark", &qs, NULL, devnull, NULL);
    /* a search for lit.dark's difference: lit($u1) differs on the first board made, long
     * before the budget, so every run makes the same boards */
    const char *rules[] = { "lit.dark" };
    hon_search_options find = { .seconds = 30, .max_size = 2, .rules = rules, .nrules = 1 };
    if (b)
        hon_diff_search(vm, "day", b, "dark", &find, devnull, NULL);
    hon_search_options so = { .seconds = 0.01, .max_size = 2 }; /* dark changes lit: no search */
    if (b)
        hon_diff_variants(vm, b, "", &qs, &so, devnull, NULL);
    hon_vm_free(b);
    FILE *f = fopen(paths[2], "w");
    hon_snapshot_record(vm, "", &qs, f, NULL, NULL);
    fclose(f);
    hon_snapshot_check(vm, paths[2], devnull, NULL);
    fclose(devnull);
}

START_TEST(every_allocation_fails_in_a_diff)
{
    char dir[] = "/tmp/hon_oom_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char board[256], questions[256], snap[256];
    snprintf(board, sizeof board, "%s/b.scn", dir);
    snprintf(questions, sizeof questions, "%s/q.txt", dir);
    snprintf(snap, sizeof snap, "%s/s.snap", dir);
    FILE *f = fopen(board, "w");
    fputs(board_text, f);
    fclose(f);
    f = fopen(questions, "w");
    fputs("# the question file\nblocked($a, $b)\nboard b.scn\n[blocked($b, $a)]\n", f);
    fclose(f);
    const char *paths[] = { board, questions, snap };
    sweep("diff", diff_and_snapshot, paths);
    /* with no failure: lit($a) and lit($b) are false with no rule firing, true under dark:
     * 2 differences. blocked is the same in both (A1 -> D3 crosses the woods on B1: the board
     * sweep), and so are the file's questions: blocked($a, $b) with no board (E212 in both)
     * and [blocked($b, $a)] on the board. */
    tvm *t = tvm_new(NULL);
    hon_question_set qs;
    hon_vm *b = diff_sessions(t->vm, paths, &qs);
    ck_assert_ptr_nonnull(b);
    FILE *devnull = fopen("/dev/null", "w");
    size_t ndiff = 0;
    ck_assert_int_eq(hon_diff(t->vm, "day", b, "dark", &qs, NULL, devnull, &ndiff), HON_OK);
    ck_assert_uint_eq(ndiff, 2);
    /* the search: lit($u1) is false by day and true under dark on any board with a unit, the
     * rule that differs being lit.dark */
    const char *rules[] = { "lit.dark" };
    hon_search_options find = { .seconds = 30, .max_size = 2, .rules = rules, .nrules = 1 };
    bool found = false;
    ck_assert_int_eq(hon_diff_search(t->vm, "day", b, "dark", &find, devnull, &found), HON_OK);
    ck_assert(found);
    /* dark's one other reading changes lit's two answers: one reading changes an answer. The
     * questions show it, so no board is searched; the bound is generous (it covers the whole
     * comparison, and 0.01 s ran out before the questions were asked on a loaded machine). */
    hon_search_options so = { .seconds = 60, .max_size = 2 };
    ck_assert_int_eq(hon_diff_variants(t->vm, b, "", &qs, &so, devnull, &ndiff), HON_OK);
    ck_assert_uint_eq(ndiff, 1);
    fclose(devnull);
    hon_vm_free(b);
    tvm_free(t);
    unlink(board);
    unlink(questions);
    unlink(snap);
    rmdir(dir);
}
END_TEST

/* ../shared/repro/oom_trace_put_short_overread.c and oom_choose_option_overread.c: a value
 * printed short (a brief trace's record argument, a choice's options) while memory runs out
 * once read past the "" an exhausted buffer gives, using the length it had before. */
static const char *long_list = "[1000000, 1000001, 1000002, 1000003, 1000004, 1000005, 1000006, "
                               "1000007, 1000008, 1000009, 1000010, 1000011, 1000012, 1000013]";

static void brief_trace_of_a_record(hon_vm *vm, const void *ud)
{
    (void)ud;
    const char *prog = "source \"A\";\nrecord r { a: list<int>, b: list<int> }\n"
                       "query q(x: r) -> int combine sum default 0;\n"
                       "rule q.a cite \"A\" answer len(x.a);\n";
    char call[512];
    snprintf(call, sizeof call, "q(r{a: %s, b: %s})", long_list, long_list);
    hon_answer *a = NULL;
    hon_load_source(vm, "p.hon", prog, strlen(prog));
    hon_eval(vm, call, "<oom>", &a);
    hon_answer_free(a);
}

static void options_of_a_choice(hon_vm *vm, const void *ud)
{
    (void)ud;
    char prog[1024];
    snprintf(prog, sizeof prog,
             "source \"C\";\nside allies;\nrecord big { a: list<int> }\nevent ev(n: int);\n"
             "rule ev.c cite \"C\" do { let x = choose(v in [big{a: %s}, big{a: %s ++ [1]}], "
             "by: allies) \"which\"; note \"ok\"; };\n",
             long_list, long_list);
    hon_answer *a = NULL;
    hon_load_source(vm, "p.hon", prog, strlen(prog));
    hon_load_board_source(vm, "b.scn", "size 1 x 1\n", 11);
    hon_do(vm, "ev(1)", "<oom>", &a);
    hon_answer_free(a);
}

START_TEST(every_allocation_fails_printing_long_values)
{
    sweep("brief trace of a record", brief_trace_of_a_record, NULL);
    sweep("options of a choice", options_of_a_choice, NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("oom");
    TCase *tc = tcase_create("oom");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_allocation_fails_once);
    tcase_add_test(tc, every_allocation_fails_with_a_board);
    tcase_add_test(tc, every_allocation_fails_while_playing);
    tcase_add_test(tc, every_allocation_fails_in_a_diff);
    tcase_add_test(tc, every_allocation_fails_printing_long_values);
    suite_add_tcase(s, tc);
    return check_run(s);
}
