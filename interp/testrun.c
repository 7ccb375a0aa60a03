/* testrun.c — the runner of a program's `test` blocks (hon.h: hon_run_tests), its own file like
 * jq's jq_test.c. Each test runs under its own edition and readings, on its own board or the
 * session's, with its own game (dice, scripted choices, `do`/`advance`/`move` items), undone
 * when it ends. A failure is `path:line:col: FAIL "title": why`. vm.md §8, language.md §7.
 * Also the expectations as questions (hon_each_expectation, for hon_diff).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "session.h"
#include "view.h"
#include "vm.h"

/* What one test runs under. */
typedef struct test_run {
    const res_test *t;
    size_t index;      /* in res_program.tests */
    scene *sc;         /* its board: its own, or the session's, or NULL */
    state_setup setup; /* its board, edition and readings */
    proc_game game;    /* the game its items play */
    FILE *out;         /* where failures go */
} test_run;

static void span_text(const hon_vm *vm, ast_loc loc, strbuf *b)
{
    size_t len;
    const char *text = session_source_text(vm, loc.file, &len);
    if (!text)
        return;
    size_t i = 0, start = SIZE_MAX, end = SIZE_MAX;
    uint32_t line = 1, col = 1;
    for (; i <= len; i++) {
        if (line == loc.line && col == loc.col)
            start = i;
        if (line == loc.end_line && col == loc.end_col) {
            end = i + 1;
            break;
        }
        if (i < len && text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    if (start != SIZE_MAX && end != SIZE_MAX && end > start && end <= len)
        sb_putn(b, text + start, end - start);
    else
        sb_puts(b, "the expression");
}

static bool path_matches(const char *file, const char *want)
{
    if (!want)
        return true;
    if (strcmp(file, want) == 0)
        return true;
    size_t lf = strlen(file), lw = strlen(want);
    return lf > lw && file[lf - lw - 1] == '/' && strcmp(file + lf - lw, want) == 0;
}

/* Prints a value for a failure line, cut after 4 KiB. */
static void put_short(const val_env *p, val v, strbuf *b)
{
    bool cut;
    char *t = val_text(p, v, false, 4096, &cut);
    sb_puts(b, t ? t : "(out of memory)");
    if (cut)
        sb_puts(b, "...");
    mem_free(t);
}

/* Writes the evaluation's error as a failure's reason: "error E207: ...". */
static void put_error(const vm_ctx *x, strbuf *b)
{
    sb_printf(b, "error E%03d: %s", x->err.code, x->err.msg);
}

/* Writes "expected error EXXX, got error EYYY: ..." unless the error is the expected one;
 * true when it is. */
static bool expected_error(const vm_ctx *x, int64_t want, strbuf *b)
{
    if (x->err.code == want)
        return true;
    sb_printf(b, "expected error E%03" PRId64 ", got ", want);
    put_error(x, b);
    return false;
}

/* Prints a failure line of test r at loc with the reason b. */
static void failure(hon_vm *vm, const test_run *r, ast_loc loc, strbuf *b)
{
    fprintf(r->out, "%s:%u:%u: FAIL \"%s\": %s\n", prog_file_path(vm->pg, loc.file), loc.line,
            loc.col, r->t->title, b->oom ? "(out of memory)" : sb_str(b));
}

/* Ends an item of test r at loc: the evaluation, and its failure line (the reason b) unless it
 * passed. Returns pass. */
static bool item_end(hon_vm *vm, const test_run *r, ast_loc loc, bool pass, strbuf *b)
{
    state_end(&vm->x);
    if (!pass)
        failure(vm, r, loc, b);
    sb_free(b);
    return pass;
}

static hon_status scene_for(hon_vm *vm, const res_test *t, const scene *sc, int32_t ed,
                            scene **own);

/* The setup of expect e of test r: the test's, or for `expect X == A under E` edition E's
 * (the test's variant settings, its board with E's counters) into *s, with a scene (*own) and
 * readings (*readings) of its own to free after. False on OOM. */
static bool expect_setup(hon_vm *vm, const test_run *r, size_t e, state_setup *s, scene **own,
                         int32_t **readings)
{
    int32_t ed = r->t->expects[e].edition;
    *s = r->setup;
    *own = NULL;
    *readings = NULL;
    if (ed < 0)
        return true;
    bool oom;
    *readings = session_readings(vm, ed, r->t->variant_set, &oom);
    if (oom || scene_for(vm, r->t, r->sc, ed, own) == HON_ERR_MEMORY)
        return false;
    *s = session_setup_with(vm, *own ? *own : r->sc, ed, *readings);
    return true;
}

/* Runs one expect; returns true when it passes, else writes a failure line. */
static bool run_expect(hon_vm *vm, test_run *r, size_t e, const prog_expect *pe)
{
    const res_program *p = vm->pg->res;
    const ast_node *x = r->t->expects[e].node;
    vm_ctx *ctx = &vm->x;
    strbuf b = { 0 };
    bool pass = false;
    state_setup setup;
    scene *own;
    int32_t *readings;
    if (!expect_setup(vm, r, e, &setup, &own, &readings)) {
        scene_free(own);
        mem_free(readings);
        sb_puts(&b, "out of memory");
        failure(vm, r, x->loc, &b);
        sb_free(&b);
        return false;
    }
    const val_env env = { p, setup.sc, NULL, NULL };
    session_begin(vm, &setup, false);
    val v, w;
    if (x->ival) {
        if (vm_eval(ctx, pe->whole, &v)) {
            sb_printf(&b, "expected error E%03" PRId64 ", got the value ", x->ival);
            put_short(&env, v, &b);
        } else {
            pass = expected_error(ctx, x->ival, &b);
        }
    } else if (pe->lhs) {
        if (!vm_eval(ctx, pe->lhs, &v) || !vm_eval(ctx, pe->rhs, &w)) {
            put_error(ctx, &b);
        } else {
            val absent = { 0 };
            pass = val_equal(p, v, w, &absent);
            if (absent.flags & VAL_ABSENT) {
                sb_puts(&b, "compares a cell the source does not give (`?`)");
                pass = false;
            } else if (!pass) {
                span_text(vm, x->a->a->loc, &b);
                sb_puts(&b, " is ");
                put_short(&env, v, &b);
                if (x->ref)
                    sb_printf(&b, " under %s", x->ref);
                sb_puts(&b, ", expected ");
                put_short(&env, w, &b);
            }
        }
    } else {
        if (!vm_eval(ctx, pe->whole, &v))
            put_error(ctx, &b);
        else if (!(pass = v.u.i != 0))
            sb_puts(&b, "the expectation is false");
    }
    pass = item_end(vm, r, x->loc, pass, &b);
    scene_free(own);
    mem_free(readings);
    return pass;
}

/* Sets up the game of test r on its board (language.md §6.7): turn 1, the first phase, the
 * test's dice and its scripted choices (evaluated now). False after printing a failure. */
static bool game_begin(hon_vm *vm, test_run *r)
{
    const res_test *t = r->t;
    proc_game *g = &r->game;
    session_game_start(vm, g, r->sc);
    g->chooser = NULL; /* a test never asks a person: its script, else the first */
    g->stepper = NULL;
    g->before_choice = NULL;
    vm->x.game = &g->g;
    vm->x.dice_on = t->has_dice;
    vm->x.dice_faces = t->dice;
    vm->x.dice_len = t->ndice;
    vm->x.dice_pos = 0;
    if (!t->choices)
        return true;
    size_t n = t->choices->list.len;
    val *script = mem_calloc(n ? n : 1, sizeof *script);
    if (!script)
        return false;
    bool ok = true;
    strbuf b = { 0 };
    for (size_t k = 0; k < n && ok; k++) {
        session_begin(vm, &r->setup, false);
        val v;
        if (!vm_eval(&vm->x, vm->pg->choices[r->index][k], &v)) {
            sb_printf(&b, "its choice %zu: ", k + 1);
            put_error(&vm->x, &b);
            ok = false;
        } else if (v.type < vm->pg->res->ntypes && (vm->pg->res->types[v.type].kind == RT_LIST ||
                                                    vm->pg->res->types[v.type].kind == RT_RECORD)) {
            sb_printf(&b, "its choice %zu is not a single value (a unit, a square, a member...)",
                      k + 1);
            ok = false;
        } else {
            script[k] = v;
        }
        state_end(&vm->x);
    }
    if (!ok) {
        failure(vm, r, t->choices->loc, &b);
        mem_free(script);
    } else {
        g->script = script;
        g->nscript = n;
        g->script_on = true;
    }
    sb_free(&b);
    return ok;
}

/* Undoes everything the test did (its board, the session's when it has none, is then as it
 * was) and gives the vm back its own game. */
static void game_end(hon_vm *vm, test_run *r)
{
    play_revert(&r->game.g, 0);
    mem_free((void *)r->game.script);
    proc_free(&r->game);
    vm->x.game = &vm->game.g;
    vm->x.dice_on = false;
    vm->x.dice_faces = NULL;
}

/* Ends a procedure of a test that began with dice_pos at pos: when it did not run (ran false:
 * refused, abandoned, out of dice), the faces it took from the test's script are given back, as
 * game.c's finish_play puts the seeded dice back (language.md §6, §6.7), so the next procedure
 * rolls them. The script's choices it took stay spent. Returns ran. */
static bool dice_given_back(vm_ctx *x, size_t pos, bool ran)
{
    if (!ran)
        x->dice_pos = pos;
    return ran;
}

/* `advance to P`: the clock moves on (`next`, at most a turn's phases) until phase P, or until
 * a `next` leaves it where it was (the rules stopped it: clock_stops, the game is over). */
static bool advance(vm_ctx *x, proc_game *g, const res_program *p, int32_t phase)
{
    size_t nphases = p->enums[E_PHASE].len;
    for (size_t k = 0; k < nphases; k++) {
        int64_t turn = g->g.turn;
        int32_t was = g->g.phase;
        size_t pos = x->dice_pos;
        if (!dice_given_back(x, pos, proc_next(x, g)))
            return false;
        if (g->g.phase == phase || (g->g.turn == turn && g->g.phase == was))
            break;
    }
    return true;
}

/* `move U along PATH`: walks the unit pe->lhs gives along the squares pe->rhs gives. False
 * with x->err set (or the reason in b when memory runs out). */
static bool walk(vm_ctx *x, proc_game *g, const prog_expect *pe, strbuf *b)
{
    val u, path;
    if (!vm_eval(x, pe->lhs, &u) || !vm_eval(x, pe->rhs, &path)) {
        put_error(x, b);
        return false;
    }
    size_t n = path.u.list ? path.u.list->len : 0;
    int64_t *sqs = mem_calloc(n ? n : 1, sizeof *sqs);
    if (!sqs) {
        sb_puts(b, "out of memory");
        return false;
    }
    for (size_t k = 0; k < n; k++)
        sqs[k] = path.u.list->items[k].u.i;
    bool ok = proc_walk(x, g, (int32_t)u.u.i, sqs, n, NULL);
    mem_free(sqs);
    return ok;
}

/* Runs one `do`, `advance` or `move` item of test r on its game; true when it did what the
 * test says, else prints a failure line. */
static bool run_play_item(hon_vm *vm, test_run *r, size_t e, const prog_expect *pe)
{
    const ast_node *x = r->t->expects[e].node;
    vm_ctx *ctx = &vm->x;
    strbuf b = { 0 };
    bool pass = false, ran;
    size_t dice_pos = ctx->dice_pos;
    session_begin(vm, &r->setup, false);
    switch (x->kind) {
    case AST_TEST_DO:
    case AST_TEST_MOVE:
        ran = x->kind == AST_TEST_DO ? proc_run(ctx, &r->game, pe->whole)
                                     : walk(ctx, &r->game, pe, &b);
        dice_given_back(ctx, dice_pos, ran);
        if (b.len)
            break; /* out of memory */
        if (x->ival && ran)
            sb_printf(&b, "expected error E%03" PRId64 ", but the procedure ran", x->ival);
        else if (x->ival)
            pass = expected_error(ctx, x->ival, &b);
        else if (!ran)
            put_error(ctx, &b);
        else
            pass = true;
        break;
    case AST_TEST_ADVANCE:
        if (!(pass = advance(ctx, &r->game, vm->pg->res, (int32_t)x->an.sym)))
            put_error(ctx, &b);
        break;
    default: sb_puts(&b, "unknown test item");
    }
    return item_end(vm, r, x->loc, pass, &b);
}

/* The path of test t's board as it is opened (relative to the test's file): a new string,
 * NULL on OOM. */
static char *board_path(const hon_vm *vm, const res_test *t)
{
    const char *file = prog_file_path(vm->pg, t->file);
    const char *slash = strrchr(file, '/');
    size_t dir = t->board[0] == '/' || !slash ? 0 : (size_t)(slash - file) + 1;
    size_t n = strlen(t->board);
    char *path = mem_malloc(dir + n + 1);
    if (path) {
        memcpy(path, file, dir);
        memcpy(path + dir, t->board, n + 1);
    }
    return path;
}

/* Loads the board of test t (its path relative to the test's file), with the counters of
 * edition ed, into *out; NULL with its diagnostics reported when it does not load. The board's
 * set-up is checked (may_start_at...) under the test's own edition ed and variants
 * (t->variant_set), as the test then plays (s20: a test's `variant impassable_start = allowed`
 * did not reach the check, which ran under the session's setting). HON_ERR_MEMORY when memory
 * ran out. */
static hon_status test_board(hon_vm *vm, const res_test *t, int32_t ed, scene **out)
{
    char *path = board_path(vm, t);
    if (!path)
        return HON_ERR_MEMORY;
    bool under = vm->load_under;
    int32_t under_ed = vm->load_ed;
    const int32_t *under_overrides = vm->load_overrides;
    vm->load_under = true;
    vm->load_ed = ed;
    vm->load_overrides = t->variant_set;
    /* read here, so that a board that cannot be read is said at the test's `board "PATH"` */
    ast_loc at = t->decl->loc;
    for (uint32_t i = 0; i < t->decl->params.len; i++)
        if (t->decl->params.items[i] && t->decl->params.items[i]->kind == AST_TEST_BOARD)
            at = t->decl->params.items[i]->loc;
    char *text = NULL;
    size_t len = 0;
    hon_status st = session_read_file_at(vm, path, E_SCN_READ, at, &text, &len);
    if (st == HON_OK)
        st = view_load_scene(vm, res_units_of(vm->pg->res, ed), path, text, len, out);
    mem_free(text);
    vm->load_under = under;
    vm->load_ed = under_ed;
    vm->load_overrides = under_overrides;
    mem_free(path);
    return st == HON_ERR_MEMORY ? st : HON_OK;
}

/* The board test t plays on under edition ed when sc (the test's board, or the session's) was
 * loaded with other counters: its board loaded again with ed's into *own (NULL: sc fits, or
 * there is no board, or it does not load). HON_ERR_MEMORY when memory ran out. */
static hon_status scene_for(hon_vm *vm, const res_test *t, const scene *sc, int32_t ed, scene **own)
{
    const unit_pool *units = res_units_of(vm->pg->res, ed);
    *own = NULL;
    if (t->board && (!sc || sc->counters != units))
        return test_board(vm, t, ed, own);
    if (!sc || sc->counters == units)
        return HON_OK;
    hon_status st = view_load_scene(vm, units, vm->board_path, vm->board_text, vm->board_len, own);
    return st == HON_ERR_MEMORY ? st : HON_OK;
}

/* Runs test number i: true when it passes. HON_ERR_MEMORY in *st when memory ran out (then
 * the run stops). */
static bool run_test(hon_vm *vm, size_t i, FILE *out, hon_status *st)
{
    const res_test *t = &vm->pg->res->tests[i];
    int32_t ed = t->edition >= 0 ? t->edition : session_edition(vm);
    bool oom;
    int32_t *readings = session_readings(vm, ed, t->variant_set, &oom);
    if (oom) {
        *st = HON_ERR_MEMORY;
        return false;
    }
    test_run r = { .t = t, .index = i, .sc = vm->sc, .out = out };
    scene *own = NULL;
    bool ok = true;
    *st = scene_for(vm, t, t->board ? NULL : vm->sc, ed, &own);
    if (own || t->board)
        r.sc = own;
    if (*st != HON_OK) {
        mem_free(readings);
        return false;
    }
    if (t->board) {
        if (!own) {
            fprintf(out, "%s:%u:%u: FAIL \"%s\": its board \"%s\" does not load\n",
                    prog_file_path(vm->pg, t->decl->loc.file), t->decl->loc.line, t->decl->loc.col,
                    t->title, t->board);
            ok = false;
        }
    }
    r.setup = session_setup_with(vm, r.sc, ed, readings);
    bool board_ok = ok && game_begin(vm, &r);
    ok &= board_ok;
    for (size_t e = 0; board_ok && e < t->nexpects; e++) {
        const prog_expect *pe = &vm->pg->expects[i][e];
        if (t->expects[e].node->kind == AST_EXPECT)
            ok &= run_expect(vm, &r, e, pe);
        else
            ok &= run_play_item(vm, &r, e, pe);
    }
    game_end(vm, &r);
    scene_free(own);
    mem_free(readings);
    return ok;
}

hon_status hon_run_tests_each(hon_vm *vm, const char *path, const char *filter,
                              void (*fn)(void *ud, const hon_test_result *r), void *ud,
                              size_t *passed, size_t *failed)
{
    size_t np = 0, nf = 0;
    if (!vm)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    hon_status st = HON_OK;
    for (size_t i = 0; st == HON_OK && i < p->ntests; i++) {
        const res_test *t = &p->tests[i];
        if (!path_matches(prog_file_path(vm->pg, t->file), path) ||
            (filter && !strstr(t->title, filter)))
            continue;
        char *text = NULL; /* open_memstream's buffer comes from malloc */
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (!mem)
            return HON_ERR_MEMORY;
        bool ok = run_test(vm, i, mem, &st);
        bool written = fclose(mem) == 0;
        if (st == HON_OK && !written)
            st = HON_ERR_MEMORY;
        if (st == HON_OK) {
            if (ok)
                np++;
            else
                nf++;
            hon_test_result r = {
                .title = t->title,
                .path = prog_file_path(vm->pg, t->decl->loc.file),
                .line = t->decl->loc.line,
                .col = t->decl->loc.col,
                .passed = ok,
                .failures = text ? text : "",
            };
            if (fn)
                fn(ud, &r);
        }
        free(text);
    }
    if (passed)
        *passed = np;
    if (failed)
        *failed = nf;
    if (st != HON_OK)
        return st;
    return nf ? HON_ERR_RUNTIME : HON_OK;
}

/* hon_run_tests writes each test's failure lines as it goes. */
static void write_failures(void *ud, const hon_test_result *r)
{
    fputs(r->failures, ud);
}

hon_status hon_run_tests(hon_vm *vm, const char *path, FILE *out, size_t *passed, size_t *failed)
{
    size_t np = 0, nf = 0;
    if (!vm || !out)
        return HON_ERR_NOT_FOUND;
    hon_status st = hon_run_tests_each(vm, path, NULL, write_failures, out, &np, &nf);
    fprintf(out, "%zu passed, %zu failed\n", np, nf);
    if (passed)
        *passed = np;
    if (failed)
        *failed = nf;
    return st;
}

size_t hon_each_expectation(hon_vm *vm, void (*fn)(void *ud, const hon_expectation *e), void *ud)
{
    if (!vm)
        return 0;
    const res_program *p = vm->pg->res;
    size_t n = 0;
    for (size_t i = 0; i < p->ntests; i++) {
        const res_test *t = &p->tests[i];
        char *bpath = t->board ? board_path(vm, t) : NULL;
        for (size_t e = 0; e < t->nexpects; e++) {
            const ast_node *x = t->expects[e].node;
            if (x->kind != AST_EXPECT || !x->a)
                continue;
            n++;
            if (!fn || (t->board && !bpath))
                continue;
            bool eq = !x->ival && x->a->kind == AST_BINARY && x->a->op == AST_OP_EQ;
            strbuf q = { 0 };
            span_text(vm, eq ? x->a->a->loc : x->a->loc, &q);
            hon_expectation ex = {
                .test = t->title,
                .path = prog_file_path(vm->pg, x->loc.file),
                .line = x->loc.line,
                .col = x->loc.col,
                .question = sb_str(&q),
                .board = bpath,
                .edition = t->edition >= 0 ? p->editions[t->edition].name : NULL,
                .plays = t->plays || t->has_dice || t->choices,
            };
            if (!q.oom)
                fn(ud, &ex);
            sb_free(&q);
        }
        mem_free(bpath);
    }
    return n;
}
