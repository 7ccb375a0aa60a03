/* hon_los.c — hon's implementation of the line-of-sight workload (docs/spec/bench.md): loads
 * the rules (bench/los.hon) and the board of bench_gen, then asks the fn pair_value for every
 * ordered pair through the VM (hon_call_query: no text parsed per pair) and keeps the checksum
 * exactly as ref_c.c does. Measured beside ref_c.c and ref_lua/ by run_bench.py.
 *
 * No rule and no rule name lives here: the terrain of each terrain code, the counter of each
 * kind code and the army come from los.hon (bench_terrain, bench_counter, bench_army); the
 * board is handed to hon as a scenario text built from the board file (board.md §4).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_board.h"
#include "bench_text.h"
#include "hon.h"

#define CHECK_MOD 1000000007LL

typedef struct checksum {
    long long visible, sumdef, h;
} checksum;

/* The answer of expression `expr` (a name the rules give) copied into buf; exits on error. */
static void answer(hon_vm *vm, const char *expr, char *buf, size_t cap)
{
    hon_answer *a = NULL;
    if (hon_eval(vm, expr, "<bench>", &a) != HON_OK) {
        fprintf(stderr, "bench_hon_los: the rules do not answer %s\n", expr);
        exit(1);
    }
    snprintf(buf, cap, "%s", hon_answer_text(a));
    hon_answer_free(a);
}

/* The scenario text of the board: terrain by legend (symbol 'a' + code), elevations, and one
 * unit per board unit, named u0, u1... */
static void scenario_of(hon_vm *vm, const bench_board *b, bench_text *t)
{
    char name[128], army[128];
    bench_put(t, "scenario \"bench board\"\nsize %d x %d\nlegend", b->w, b->h);
    for (int c = 0; c < BENCH_TERRAIN_CODES; c++) {
        char expr[64];
        snprintf(expr, sizeof expr, "bench_terrain[%d]", c);
        answer(vm, expr, name, sizeof name);
        bench_put(t, " %c = %s", 'a' + c, name);
    }
    bench_put(t, "\n");
    bench_put_grids(t, b);
    answer(vm, "bench_army()", army, sizeof army);
    for (int i = 0; i < b->n; i++) {
        char expr[64], col[8];
        snprintf(expr, sizeof expr, "bench_counter(%d)", b->kind[i]);
        answer(vm, expr, name, sizeof name);
        bench_column(b->ux[i], col);
        bench_put(t, "unit u%d = %s %s at %s%d\n", i, name, army, col, b->uy[i] + 1);
    }
}

/* Usage: bench_hon_los ITERATIONS BOARD RULES. Prints the checksum of the last evaluation
 * (zeros for 0 iterations) on stdout and the time per pair on stderr. */
int main(int argc, char **argv)
{
    static bench_board board;
    long iters;
    int rc = bench_start(argc, argv, "ITERATIONS BOARD RULES", &board, &iters);
    if (rc)
        return rc;
    hon_vm *vm = hon_vm_new(NULL); /* diagnostics go to stderr */
    if (!vm || hon_load_file(vm, argv[3]) != HON_OK) {
        fprintf(stderr, "%s: cannot load the rules %s\n", argv[0], argv[3]);
        hon_vm_free(vm);
        return 1;
    }
    bench_text scn = { 0 };
    scenario_of(vm, &board, &scn);
    hon_query_handle *pair = NULL;
    int32_t ids[BENCH_MAX_UNITS];
    if (hon_load_board_source(vm, "bench-board", scn.s, scn.len) != HON_OK) {
        fprintf(stderr, "%s: the board does not load against %s\n", argv[0], argv[3]);
        rc = 1;
    }
    for (int i = 0; rc == 0 && i < board.n; i++) {
        char name[32];
        snprintf(name, sizeof name, "$u%d", i);
        ids[i] = hon_unit_id(vm, name);
        if (ids[i] < 0 || hon_unit_set_value(vm, ids[i], "base_defense", board.base[i]) != HON_OK) {
            fprintf(stderr, "%s: cannot set the base defense of %s\n", argv[0], name);
            rc = 1;
        }
    }
    if (rc == 0 && !(pair = hon_lookup_query(vm, "pair_value"))) {
        fprintf(stderr, "%s: the rules have no pair_value\n", argv[0]);
        rc = 1;
    }

    checksum c = { 0, 0, 0 };
    double t0 = bench_wall_seconds();
    for (long i = 0; rc == 0 && i < iters; i++) {
        c = (checksum){ 0, 0, 0 };
        for (int s = 0; rc == 0 && s < board.n; s++) {
            for (int t = 0; t < board.n; t++) {
                if (s == t)
                    continue;
                hon_value args[2] = { { HON_V_UNIT, ids[s] }, { HON_V_UNIT, ids[t] } }, v;
                if (hon_call_query(vm, pair, args, 2, &v) != HON_OK || v.kind != HON_V_INT) {
                    fprintf(stderr, "%s: pair_value(u%d, u%d) failed\n", argv[0], s, t);
                    rc = 1;
                    break;
                }
                if (v.i < 0)
                    continue;
                long long p = (long long)s * 50 + t + 1;
                c.visible++;
                c.sumdef += v.i;
                c.h = (c.h + p * p * (v.i + 1)) % CHECK_MOD;
            }
        }
    }
    double dt = bench_wall_seconds() - t0;
    if (rc == 0) {
        printf("checksum visible=%lld sumdef=%lld h=%lld\n", c.visible, c.sumdef, c.h);
        double pairs = (double)iters * board.n * (board.n - 1);
        if (pairs > 0)
            fprintf(stderr, "hon: %ld iterations, %.4f s, %.1f ns/pair\n", iters, dt,
                    dt * 1e9 / pairs);
    }
    hon_query_handle_free(pair);
    hon_vm_free(vm);
    free(scn.s);
    return rc;
}
