/* test_oom.c — allocation-failure injection over the whole back end: for N = 0, 1, 2, ...
 * the Nth allocation and every later one fail (runtime/mem.h hook) while a vm is created, a
 * program covering every declaration form is loaded, and expressions, odds and tests run.
 * Nothing may crash or leak (run under ASan or the valgrind setup); a run that meets no
 * failure ends the loop.
 */
#include "interp_test.h"
#include "mem.h"

static const char *program =
    "kind inf;\nside allies;\nability aa: int;\nmarker sup;\nvalue defense;\n"
    "token numbered: int;\n"
    "enum w { storm, clear }\n"
    "record order { kind: token, number: int }\n"
    "counter c \"C\" : inf { side allies defense 3 abilities { aa 1 } markers { sup } }\n"
    "table t(k: w) -> (a: int, b: set<w>) cite \"T\" { storm => 1, {storm}; clear => ?, {}; }\n"
    "table f(n: int floor) -> int { 0 => 1; 10 => 2; }\n"
    "fn num(n: int) -> order = order{kind: numbered, number: n};\n"
    "query q(x: int) -> int combine sum default 1;\n"
    "rule q.a cite \"A\" source \"S\" when x > 0 answer sum(y in [x, 2]: y) + f[x];\n"
    "rule q.b cite \"B\" answer t[storm].a;\n"
    "query p(x: int) -> verdict combine permission;\n"
    "rule p.no cite \"P\" when x < 0 answer forbid;\n"
    "variant v \"V\" { reading one default; reading two; }\n"
    "edition e \"E\" { replace rule q.b cite \"B2\" answer 5; set variant v = two; }\n"
    "default edition e;\n"
    "test \"t1\" { expect q(1) == 10; expect t[clear].a fails E201; }\n";

static void quiet(void *ud, const hon_diag *d)
{
    (void)ud;
    (void)d;
}

START_TEST(every_allocation_fails_once)
{
    long n;
    for (n = 0; n < 100000; n++) {
        hon_mem_fail_after(n);
        hon_config cfg = { .on_diag = quiet };
        hon_vm *vm = hon_vm_new(&cfg);
        if (vm) {
            hon_answer *a = NULL;
            hon_load_source(vm, "p.hon", program, strlen(program));
            hon_eval(vm, "q(3) + len([num(1).number]) + c.defense", "<oom>", &a);
            hon_answer_free(a);
            a = NULL;
            hon_odds(vm, "roll d6 + 1 > 4", "<oom>", &a);
            hon_answer_free(a);
            FILE *devnull = fopen("/dev/null", "w");
            hon_run_tests(vm, NULL, devnull, NULL, NULL);
            fclose(devnull);
        }
        long failed = hon_mem_failed_count();
        hon_mem_fail_reset();
        hon_vm_free(vm);
        if (failed == 0)
            break;
    }
    fprintf(stderr, "oom loop: %ld allocation points\n", n);
    ck_assert_msg(n > 100, "only %ld allocations: the loop did not exercise much", n);
    /* and with no failure, the same script gives the right answers:
     * q(3) under e: default 1 + q.a (3 + 2 + f[3] = 1) + q.b replaced (5) = 12 */
    tvm *t = tvm_new(program);
    ck_ev(t, "q(3)", "12");
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("oom");
    TCase *tc = tcase_create("oom");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_allocation_fails_once);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
