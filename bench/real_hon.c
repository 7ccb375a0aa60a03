/* real_hon.c — hon on the real-rules workload (docs/spec/bench.md §8): loads the bundled rules
 * (rules/ then expansions/, as the hon program loads them), hands the board of bench_gen to hon
 * as a scenario in the bundled rules' vocabulary, then for the sampled ordered pairs (s, t) asks
 * line_of_sight(s, t) and, unless blocked, defensive_bonus(t, s) through include/hon.h with no
 * trace (hon_call_query). Prints the checksum line of bench_board.h, as real_c.c and
 * ref_lua/real.lua do for their ports of the same rules; run_bench.py compares the three.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_board.h"
#include "bench_text.h"
#include "hon.h"

/* The workload's board in the bundled rules' vocabulary (the board, not a rule): terrain code
 * -> terrain type; the bench's hedge squares (code 3) are open ground with a hedge side feature
 * on each of their four sides; the element value of the connected squares of one terrain (the
 * woods' and building's defensive bonus, the trench's); kind code -> counter. */
static const char *const terrain_name[BENCH_TERRAIN_CODES] = { "open", "woods",  "building",
                                                               "open", "trench", "rough" };
static const int element_value[BENCH_TERRAIN_CODES] = { 0, 1, 3, 0, 2, 0 };
enum {
    HEDGE_CODE = 3
};
static const char *const counter_name[BENCH_KIND_CODES] = { "rifle_squad", "jeep", "officer" };

/* Square (x, y) as the scenario names it ("B7") into buf (24 bytes). */
static void square_name(int x, int y, char *buf)
{
    char col[8];
    bench_column(x, col);
    snprintf(buf, 24, "%s%d", col, y + 1);
}

/* One `element` line per connected group (orthogonal neighbours) of squares of one valued
 * terrain code, with the code's value. */
static void put_elements(bench_text *t, const bench_board *b)
{
    static int group[BENCH_MAX_SIDE * BENCH_MAX_SIDE], stack[BENCH_MAX_SIDE * BENCH_MAX_SIDE];
    int n = b->w * b->h, groups = 0;
    memset(group, -1, sizeof group);
    for (int q0 = 0; q0 < n; q0++) {
        int code = b->terr[q0];
        if (!element_value[code] || group[q0] >= 0)
            continue;
        bench_put(t, "element e%d =", groups);
        int sp = 0;
        stack[sp++] = q0;
        group[q0] = groups;
        while (sp) {
            int q = stack[--sp], x = q % b->w, y = q / b->w;
            char name[24];
            square_name(x, y, name);
            bench_put(t, " %s", name);
            const int nx[4] = { x - 1, x + 1, x, x }, ny[4] = { y, y, y - 1, y + 1 };
            for (int k = 0; k < 4; k++) {
                if (nx[k] < 0 || ny[k] < 0 || nx[k] >= b->w || ny[k] >= b->h)
                    continue;
                int r = ny[k] * b->w + nx[k];
                if (group[r] < 0 && b->terr[r] == code) {
                    group[r] = groups;
                    stack[sp++] = r;
                }
            }
        }
        bench_put(t, " value %d\n", element_value[code]);
        groups++;
    }
}

/* The scenario text of board b: legend, map, elevation with a red contour line wherever the
 * elevation changes, the elements, the hedges, and unit uI for the board's unit I. */
static void scenario_of(const bench_board *b, bench_text *t)
{
    bench_put(t, "scenario \"bench board, real rules\"\nsize %d x %d\nlegend", b->w, b->h);
    for (int c = 0; c < BENCH_TERRAIN_CODES; c++)
        bench_put(t, " %c = %s", 'a' + c, terrain_name[c]);
    bench_put(t, "\n");
    bench_put_grids(t, b);
    bench_put(t, "side steps contour\n");
    put_elements(t, b);
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++)
            if (b->terr[y * b->w + x] == HEDGE_CODE) {
                char q[24];
                square_name(x, y, q);
                bench_put(t, "side %s:N %s:E %s:S %s:W hedge\n", q, q, q, q);
            }
    for (int i = 0; i < b->n; i++) {
        char q[24];
        square_name(b->ux[i], b->uy[i], q);
        bench_put(t, "unit u%d = %s allies at %s\n", i, counter_name[b->kind[i]], q);
    }
}

/* The session the questions are asked in: the rules, the board, the units, the two queries. */
typedef struct session {
    hon_vm *vm;
    hon_query_handle *los, *def;
    int32_t unit[BENCH_MAX_UNITS];
    int32_t blocked, obscured;
} session;

/* Loads the rules and the scenario into s; 0, or 1 after a message. */
static int open_session(session *s, const bench_board *b, const char *rules, const char *exps)
{
    s->vm = hon_vm_new(NULL); /* diagnostics go to stderr */
    if (!s->vm || hon_load_dir(s->vm, rules) != HON_OK || hon_load_dir(s->vm, exps) != HON_OK) {
        fprintf(stderr, "bench_real_hon: cannot load the rules of %s and %s\n", rules, exps);
        return 1;
    }
    /* bench_gen scatters its units with no regard to terrain (the C and Lua ports share its
     * boards and checksums): a jeep may stand in a trench or on Difficult Terrain, which the
     * rules refuse since sitting 20 (may_start_at.impassable_terrain, rules/movement.hon). The
     * board is taken as drawn (variant impassable_start = allowed); the questions asked
     * (line_of_sight, defensive_bonus) do not read the variant. */
    if (hon_set_variant(s->vm, "impassable_start", "allowed") != HON_OK) {
        fprintf(stderr, "bench_real_hon: the rules lack the variant impassable_start\n");
        return 1;
    }
    bench_text scn = { 0 };
    scenario_of(b, &scn);
    if (getenv("BENCH_REAL_DUMP"))
        fputs(scn.s, stdout);
    hon_status st = hon_load_board_source(s->vm, "bench-real-board", scn.s, scn.len);
    free(scn.s);
    if (st != HON_OK) {
        fprintf(stderr, "bench_real_hon: the board does not load against the rules\n");
        return 1;
    }
    for (int i = 0; i < b->n; i++) {
        char name[32];
        snprintf(name, sizeof name, "$u%d", i);
        if ((s->unit[i] = hon_unit_id(s->vm, name)) < 0) {
            fprintf(stderr, "bench_real_hon: no unit %s\n", name);
            return 1;
        }
    }
    s->los = hon_lookup_query(s->vm, "line_of_sight");
    s->def = hon_lookup_query(s->vm, "defensive_bonus");
    s->blocked = hon_member_id(s->vm, "sight", "blocked");
    s->obscured = hon_member_id(s->vm, "sight", "obscured");
    if (!s->los || !s->def || s->blocked < 0 || s->obscured < 0) {
        fprintf(stderr, "bench_real_hon: the rules lack line_of_sight, defensive_bonus or sight\n");
        return 1;
    }
    return 0;
}

/* Asks pair (a, t): *sight 0..2 and, unless blocked, *bonus. 0, or 1 after a message. */
static int ask(session *s, int a, int t, int *sight, int *bonus)
{
    hon_value args[2] = { { HON_V_UNIT, s->unit[a] }, { HON_V_UNIT, s->unit[t] } }, v, d;
    if (hon_call_query(s->vm, s->los, args, 2, &v) != HON_OK || v.kind != HON_V_MEMBER) {
        fprintf(stderr, "bench_real_hon: line_of_sight($u%d, $u%d) failed\n", a, t);
        return 1;
    }
    *sight = v.i == s->blocked ? 0 : v.i == s->obscured ? 1 : 2;
    *bonus = 0;
    if (*sight == 0)
        return 0;
    hon_value back[2] = { args[1], args[0] };
    if (hon_call_query(s->vm, s->def, back, 2, &d) != HON_OK || d.kind != HON_V_INT) {
        fprintf(stderr, "bench_real_hon: defensive_bonus($u%d, $u%d) failed\n", t, a);
        return 1;
    }
    *bonus = (int)d.i;
    return 0;
}

/* Usage: bench_real_hon ITERATIONS BOARD STRIDE RULES_DIR EXPANSIONS_DIR. Asks every STRIDE-th
 * ordered pair ITERATIONS times; prints the checksum of the last pass (zeros for 0 iterations)
 * on stdout and the time per pair asked on stderr. */
int main(int argc, char **argv)
{
    static bench_board board;
    static session s;
    long iters, stride;
    int rc = bench_start_sampled(argc, argv, "ITERATIONS BOARD STRIDE RULES_DIR EXPANSIONS_DIR",
                                 &board, &iters, &stride);
    if (rc)
        return rc;
    rc = open_session(&s, &board, argv[4], argv[5]);

    bench_tally c = { 0 };
    long asked = 0;
    double t0 = bench_wall_seconds();
    for (long i = 0; rc == 0 && i < iters; i++) {
        c = (bench_tally){ 0 };
        long k = 0;
        for (int a = 0; rc == 0 && a < board.n; a++)
            for (int t = 0; rc == 0 && t < board.n; t++) {
                int sight, bonus;
                if (a == t || k++ % stride)
                    continue;
                if ((rc = ask(&s, a, t, &sight, &bonus)) == 0)
                    bench_tally_add(&c, a, t, board.n, sight, bonus);
                asked++;
            }
    }
    double dt = bench_wall_seconds() - t0;
    if (rc == 0) {
        bench_tally_print(&c);
        if (asked)
            fprintf(stderr, "hon: %ld pairs, %.4f s, %.1f ns/pair\n", asked, dt, dt * 1e9 / asked);
    }
    hon_query_handle_free(s.los);
    hon_query_handle_free(s.def);
    hon_vm_free(s.vm);
    return rc;
}
