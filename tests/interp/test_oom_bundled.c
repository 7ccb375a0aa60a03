/* test_oom_bundled.c — the allocation-failure sweep over the bundled rules (issue 13 §3;
 * docs/spec/reliability.md §6): for N = 0, 1, 2, ... the Nth allocation and every later one fail
 * (base/mem.h hook) while the bundled rules load, while each bundled board loads, and while a
 * session of the rules on a board evaluates, traces (text, JSON, brief, why not), asks a line
 * of sight and a reach, draws, runs procedures (do, why do, move, undo), asks odds and the odds
 * of a procedure. After each N the session
 * must answer again; nothing may crash or leak (the ASan build's leak checker). test_oom.c
 * sweeps the same paths over small programs of its own.
 */
#include <stdlib.h>

#include "config.h"
#include "interp_test.h"
#include "mem.h"

static const char *const boards[] = { "beach_seawall", "hill_contour", "rail_station",
                                      "trench_line", "village_rail" };

/* Whether the session still answers: 1 + 1 is 2. */
static bool answers(hon_vm *vm)
{
    hon_answer *a = NULL;
    bool ok = hon_eval(vm, "1 + 1", "<oom>", &a) == HON_OK && strcmp(hon_answer_text(a), "2") == 0;
    hon_answer_free(a);
    return ok;
}

static void load_rules(hon_vm *vm)
{
    hon_load_dir(vm, HON_SOURCE_ROOT "/rules");
    hon_load_dir(vm, HON_SOURCE_ROOT "/expansions");
}

static void board_path(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/examples/boards/%s.scn", HON_SOURCE_ROOT, name);
}

/* A session of the bundled rules (loaded with no failure) on board `name`. */
static tvm *bundled_on(const char *name)
{
    tvm *t = tvm_new(NULL);
    load_rules(t->vm);
    char path[512];
    board_path(path, sizeof path, name);
    ck_assert_int_eq(hon_load_board(t->vm, path), HON_OK);
    return t;
}

/* Undoes every procedure of the session's history, with no allocation failing. */
static void undo_all(hon_vm *vm)
{
    hon_answer *a = NULL;
    while (hon_undo(vm, &a) == HON_OK) {
        hon_answer_free(a);
        a = NULL;
    }
    hon_answer_free(a);
}

/* Runs step(vm, ud) for N = 0, stride, 2 stride, ... with the Nth allocation failing, until a
 * run meets no failure; after each, with no failure, the session's procedures are undone and
 * it must answer. Returns how many allocation points there were. */
static long sweep(hon_vm *vm, void (*step)(hon_vm *vm, const void *ud), const void *ud, long stride,
                  const char *what)
{
    long n;
    for (n = 0;; n += stride) {
        mem_fail_after(n);
        step(vm, ud);
        long failed = mem_failed_count();
        mem_fail_reset();
        undo_all(vm);
        ck_assert_msg(answers(vm), "%s: the session does not answer after allocation %ld failed",
                      what, n);
        if (failed == 0)
            break;
    }
    fprintf(stderr, "oom sweep (%s): %ld allocation points, every %ld swept\n", what, n, stride);
    return n;
}

/* ---- loading ---- */

/* Loading the bundled rules takes some 28,000 allocations and a tenth of a second a load: every
 * 211th N in the normal run (about 130 loads), each N with HON_OOM_FULL=1 (about an hour). Each N
 * loads into a new session, which must answer after the failed load and is freed: what a failed
 * load leaves behind would leak. The last run, with no failure, holds every file. */
START_TEST(loading_the_bundled_rules)
{
    const char *every = getenv("HON_OOM_STRIDE");
    long stride = every && atol(every) > 0 ? atol(every) : 211, n;
    size_t files = 0;
    for (n = 0;; n += stride) {
        tvm *t = tvm_new(NULL);
        mem_fail_after(n);
        load_rules(t->vm);
        long failed = mem_failed_count();
        mem_fail_reset();
        ck_assert_msg(answers(t->vm), "no answer after allocation %ld failed in a load", n);
        files = hon_each_file(t->vm, NULL, NULL);
        tvm_free(t);
        if (failed == 0)
            break;
    }
    fprintf(stderr, "oom sweep (bundled rules): %ld allocation points, every %ld swept\n", n,
            stride);
    ck_assert_msg(n > 10000, "only %ld allocations to load the bundled rules", n);
    tvm *plain = tvm_new(NULL);
    load_rules(plain->vm);
    ck_assert_uint_eq(files, hon_each_file(plain->vm, NULL, NULL));
    ck_assert_uint_gt(files, 10);
    tvm_free(plain);
}
END_TEST

static void board_step(hon_vm *vm, const void *ud)
{
    hon_load_board(vm, ud);
}

/* Every bundled board, each N, on a session of the bundled rules that holds another board. */
START_TEST(loading_every_bundled_board)
{
    tvm *t = bundled_on("village_rail");
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        char path[512];
        board_path(path, sizeof path, boards[i]);
        sweep(t->vm, board_step, path, 1, boards[i]);
        ck_assert_int_eq(hon_load_board(t->vm, path), HON_OK);
    }
    tvm_free(t);
}
END_TEST

/* ---- evaluating, tracing, playing ---- */

/* Evaluates e and reads every form of its answer. */
static void ask(hon_vm *vm, const char *e)
{
    hon_answer *a = NULL;
    if (hon_eval(vm, e, "<oom>", &a) == HON_OK) {
        hon_answer_text(a);
        hon_answer_json(a);
        hon_answer_trace(a);
        hon_answer_why(a);
        hon_answer_why_not(a);
        hon_answer_fired(a);
    }
    hon_answer_free(a);
}

/* Frees the answer *a a call gave (st), after reading its text, JSON and brief trace; *a is
 * then NULL. (A pointer: the call must have stored it before it is read.) */
static void take(hon_status st, hon_answer **a)
{
    if (st == HON_OK) {
        hon_answer_text(*a);
        hon_answer_json(*a);
        hon_answer_why(*a);
    }
    hon_answer_free(*a);
    *a = NULL;
}

static void eval_step(hon_vm *vm, const void *ud)
{
    (void)ud;
    ask(vm, "line_of_sight($rifle1, $rifle2)");
    ask(vm, "[u in units(): u.side == allies]");
    hon_answer *a = NULL;
    hon_value from, to;
    if (hon_place_of(vm, "$rifle1", &from) == HON_OK && hon_place_of(vm, "@J2", &to) == HON_OK)
        take(hon_los(vm, from, to, &a), &a);
    take(hon_reach(vm, "$rifle1", &a), &a);
    take(hon_why_do(vm, "mine_hit($rifle1)", "<oom>", &a), &a);
    FILE *devnull = fopen("/dev/null", "w");
    hon_draw_board(vm, devnull, "$rifle1", "$rifle2");
    hon_board_svg(vm, devnull, NULL, NULL);
    fclose(devnull);
}

static void odds_step(hon_vm *vm, const void *ud)
{
    (void)ud;
    hon_answer *a = NULL;
    take(hon_odds(vm, "sum(x in roll 3 d6: x) > 10", "<oom>", &a), &a);
    take(hon_odds_do(vm, "mine_hit($rifle1)", "<oom>", &a), &a);
}

/* A procedure, a move and the undo of the move (sweep undoes what is left). */
static void play_step(hon_vm *vm, const void *ud)
{
    (void)ud;
    hon_answer *a = NULL;
    take(hon_do(vm, "mine_hit($rifle1)", "<oom>", &a), &a);
    const char *to[] = { "D6" };
    hon_status st = hon_move(vm, "$rifle1", to, 1, &a);
    take(st, &a);
    if (st == HON_OK)
        take(hon_undo(vm, &a), &a);
}

START_TEST(evaluating_tracing_and_playing)
{
    tvm *t = bundled_on("beach_seawall");
    sweep(t->vm, eval_step, NULL, 1, "eval and traces");
    sweep(t->vm, odds_step, NULL, 1, "odds and odds do");
    sweep(t->vm, play_step, NULL, 1, "do, move, undo");
    /* and the board is as it was: rifle1 still on D7 */
    ck_ev(t, "square_of($rifle1) == @D7", "true");
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("oom_bundled");
    TCase *tc = tcase_create("oom_bundled");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, loading_every_bundled_board);
    tcase_add_test(tc, evaluating_tracing_and_playing);
    tcase_add_test(tc, loading_the_bundled_rules);
    suite_add_tcase(s, tc);
    return check_run(s);
}
