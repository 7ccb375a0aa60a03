/* test_reach.c — hon_reach and hon_move agree (interp/reach.c, rules/movement.hon): on every
 * bundled board, for every unit standing on a square, each path the listing gives is a legal
 * Movement Action, and every step from a listed square (or the unit's own) to a square the
 * listing leaves out is refused, with nothing changed; and one listing worked out by hand from
 * the books (the jeep on the hill board). Loads the bundled rules and boards from the source
 * tree (HON_SOURCE_ROOT).
 */
#include "config.h"
#include "interp_test.h"

#define MAXSQ 256

/* A listing: its squares, the squares each costs, and the path to each. */
typedef struct listing {
    size_t n;
    char sq[MAXSQ][8];
    int spent[MAXSQ];
    char path[MAXSQ][16][8];
    size_t len[MAXSQ];
} listing;

static tvm *bundled(const char *board)
{
    tvm *t = tvm_new(NULL);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/rules"), HON_OK);
    ck_assert_int_eq(hon_load_dir(t->vm, HON_SOURCE_ROOT "/expansions"), HON_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/examples/boards/%s", HON_SOURCE_ROOT, board);
    ck_assert_msg(hon_load_board(t->vm, path) == HON_OK, "%s", t->log);
    return t;
}

/* Reads hon_reach's text ("  C5    2  C6 C5" lines after a heading) into *l. */
static hon_status reach(tvm *t, const char *unit, listing *l)
{
    hon_answer *a = NULL;
    memset(l, 0, sizeof *l);
    hon_status st = hon_reach(t->vm, unit, &a);
    if (st != HON_OK)
        return st;
    const char *p = strchr(hon_answer_text(a), '\n');
    while (p && p[1] && l->n < MAXSQ) {
        p++;
        const char *end = strchr(p, '\n');
        char line[512];
        size_t k = end ? (size_t)(end - p) : strlen(p);
        snprintf(line, sizeof line, "%.*s", (int)k, p);
        int used = 0;
        ck_assert_int_eq(sscanf(line, "%7s %d%n", l->sq[l->n], &l->spent[l->n], &used), 2);
        char *save = NULL;
        for (char *w = strtok_r(line + used, " ", &save); w && l->len[l->n] < 16;
             w = strtok_r(NULL, " ", &save))
            snprintf(l->path[l->n][l->len[l->n]++], 8, "%s", w);
        l->n++;
        p = end;
    }
    hon_answer_free(a);
    return HON_OK;
}

static listing *new_listing(void)
{
    listing *l = calloc(1, sizeof *l);
    ck_assert_ptr_nonnull(l);
    return l;
}

static bool listed(const listing *l, const char *sq)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->sq[i], sq) == 0)
            return true;
    return false;
}

/* Moves unit along the k squares of path then sq (when not NULL): the status; undone when it
 * ran. */
static hon_status try_move(tvm *t, const char *unit, char (*path)[8], size_t k, const char *sq)
{
    const char *squares[20];
    size_t n = 0;
    for (size_t i = 0; i < k && n < 19; i++)
        squares[n++] = path[i];
    if (sq)
        squares[n++] = sq;
    hon_status st = hon_move(t->vm, unit, squares, n, NULL);
    if (st == HON_OK)
        ck_assert_int_eq(hon_undo(t->vm, NULL), HON_OK);
    return st;
}

/* The squares next to sq ("C4") on a w x h board, into out; their number. */
static size_t around(const char *sq, int w, int h, char out[8][8])
{
    int x = sq[0] - 'A', y = atoi(sq + 1) - 1;
    size_t n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && x + dx >= 0 && x + dx < w && y + dy >= 0 && y + dy < h)
                snprintf(out[n++], 8, "%c%d", 'A' + x + dx, y + dy + 1);
    return n;
}

/* For one unit: every listed path is accepted, every step out of the listing refused. */
static void agree(tvm *t, const char *unit, int w, int h)
{
    listing *l = new_listing();
    hon_status st = reach(t, unit, l);
    if (st != HON_OK) {
        /* a counter that prints no Movement Value (the Sherman of the books, the landing
         * craft, a train): its moves stop with E204 too */
        ck_assert_msg(strstr(t->log, "E204"), "%s: %s", unit, t->log);
        tvm_clear(t);
        free(l);
        return;
    }
    char start[16], sq[16], e[80];
    snprintf(e, sizeof e, "square_of(%.64s)", unit);
    snprintf(start, sizeof start, "%.15s", ev(t, e));
    bool playable[MAXSQ + 1];
    for (size_t i = 0; i < l->n; i++) {
        /* a listed path is never refused (E228); the rules of what happens on the way may
         * still stop it (a mine counter whose value is not given: E201), and then the steps
         * beyond it are not tried */
        tvm_clear(t);
        playable[i] = try_move(t, unit, l->path[i], l->len[i], NULL) == HON_OK;
        ck_assert_msg(playable[i] || (t->ndiags && t->d[0].code != 228),
                      "%s: the listed path to %s is refused:\n%s", unit, l->sq[i], t->log);
    }
    playable[l->n] = true;
    for (size_t i = 0; i <= l->n; i++) { /* each listed square, then the unit's own */
        const char *from = i < l->n ? l->sq[i] : start;
        char next[8][8];
        size_t nn = around(from, w, h, next);
        for (size_t k = 0; k < nn && playable[i]; k++) {
            if (listed(l, next[k]) || strcmp(next[k], start) == 0)
                continue;
            tvm_clear(t);
            st = try_move(t, unit, i < l->n ? l->path[i] : NULL, i < l->n ? l->len[i] : 0, next[k]);
            ck_assert_msg(st != HON_OK && t->ndiags && t->d[0].code == 228,
                          "%s: %s is not listed, but the move there was not refused:\n%s", unit,
                          next[k], t->log);
            snprintf(sq, sizeof sq, "%.15s", ev(t, e));
            ck_assert_str_eq(sq, start);
        }
    }
    tvm_clear(t);
    free(l);
}

/* Every unit of the board standing on a square. */
static void agree_all(const char *board, int w, int h)
{
    tvm *t = bundled(board);
    char units[8192];
    snprintf(units, sizeof units, "%s",
             ev(t, "[u in units(): not embarked(u) and len(squares_of(u)) > 0]"));
    char *save = NULL;
    for (char *u = strtok_r(units, "[], ", &save); u; u = strtok_r(NULL, "[], ", &save))
        agree(t, u, w, h);
    tvm_free(t);
}

START_TEST(every_bundled_board)
{
    agree_all("beach_seawall.scn", 12, 9);
    agree_all("trench_line.scn", 10, 8);
    agree_all("hill_contour.scn", 12, 10);
    agree_all("village_rail.scn", 14, 10);
    agree_all("rail_station.scn", 12, 5);
}
END_TEST

/* The jeep on the hill board (A9, a light vehicle, Movement Value 8) worked out from the books:
 * A8, B8 and B9 are stream, impassable to light vehicles (BRO.1.2.stream). A10 and B10 are open
 * ground: one square each (PRESUMED.step_cost_one). From B10, C10 (open) costs 2, and C9 is the
 * ford across the stream: any unit may cross a ford (HH.ford), but the square is stream, a
 * Difficult Passage (BRO.1.2.stream), so the move ends there (PRESUMED.difficult_passage_stops):
 * 2 as well. From C10, D9 and D10 are stream; nothing else is in reach. */
START_TEST(jeep_on_the_hill)
{
    tvm *t = bundled("hill_contour.scn");
    listing *l = new_listing();
    ck_assert_int_eq(reach(t, "$jeep", l), HON_OK);
    ck_assert_int_eq((int)l->n, 4);
    static const char *const want[] = { "A10", "B10", "C9", "C10" };
    static const int cost[] = { 1, 1, 2, 2 };
    for (size_t i = 0; i < 4; i++) {
        ck_assert_msg(listed(l, want[i]), "%s is not listed", want[i]);
        for (size_t k = 0; k < l->n; k++)
            if (strcmp(l->sq[k], want[i]) == 0)
                ck_assert_int_eq(l->spent[k], cost[i]);
    }
    free(l);
    tvm_free(t);
}
END_TEST

/* Errors: no such unit, a unit aboard a transport, rules without the Movement Action. */
START_TEST(errors)
{
    tvm *t = bundled("beach_seawall.scn");
    listing *l = new_listing();
    ck_assert_int_eq(reach(t, "$nobody", l), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(t->d[0].code, 213);
    tvm_clear(t);
    ck_assert_int_eq(reach(t, "$rifle3", l), HON_ERR_NOT_FOUND); /* aboard lcvp1 */
    ck_assert_int_eq(t->d[0].code, 217);
    /* A refused move, as hon_last_refusal gives it: rifle1 (D7) crosses the wire on C5/C6, a
     * Difficult Passage for infantry (BRO.1.3.barbed-wire) that ends the move, then steps on. */
    hon_refusal r;
    const char *path[] = { "C6", "C5", "C4" };
    ck_assert_int_eq(hon_move(t->vm, "$rifle1", path, 3, NULL), HON_ERR_RUNTIME);
    ck_assert(hon_last_refusal(t->vm, &r));
    ck_assert_str_eq(r.rule, "step_allowed.after_a_stop");
    ck_assert_str_eq(r.call, "step_allowed($rifle1, C6, C5, C4, 2)");
    ck_assert_str_eq(r.what, "a step of the Movement Action");
    ck_assert(strstr(r.cites, "BRO.1.4.trench.stop") != NULL);
    ck_assert(strstr(r.inside, "difficult_passage.barbed_wire (BRO.1.3.barbed-wire)") != NULL);
    /* What the deciding rule's guard found: the step from C5 came after a step (prev C6 is
     * not C5) that had to end the move — the wire crossed from C6 to C5. Its `or` is one
     * operand, whose sides are calls, not comparisons: only prev and from have values shown. */
    ck_assert_str_eq(r.condition, "prev != from (prev = C6, from = C5) and "
                                  "(must_stop(u, prev, from) or zoc_stop(u, from))");
    ck_ev(t, "square_of($rifle1)", "D7");
    ck_assert(!hon_last_refusal(t->vm, &r)); /* the evaluation since was not refused */
    tvm_free(t);
    static const char *const bare = "kind infantry; side allies; terrain open;\n"
                                    "counter rifle: infantry { side allies }\n";
    t = tvm_new(bare);
    static const char *const b = "scenario \"b\"\nsize 2 x 1\nlegend . = open\nmap\n"
                                 "  1 . .\nunit r = rifle allies at A1\n";
    ck_assert_int_eq(hon_load_board_source(t->vm, "b.scn", b, strlen(b)), HON_OK);
    ck_assert_int_eq(reach(t, "$r", l), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(t->d[0].code, 401);
    free(l);
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reach");
    TCase *tc = tcase_create("reach");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, jeep_on_the_hill);
    tcase_add_test(tc, errors);
    tcase_add_test(tc, every_bundled_board);
    suite_add_tcase(s, tc);
    return check_run(s);
}
