/* game.c — playing on the session's board (hon.h: hon_do, hon_why_do, hon_odds_do, hon_move,
 * hon_next, hon_undo, hon_clock, hon_last_refusal), over session.h. Each call runs one procedure (proc.c); one
 * that ran is kept in the history under a title for hon_undo and answered with its lines; one
 * that failed is undone and reported. Odds run it on every dice path, bare, then undo it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "odds.h"
#include "outcome.h"
#include "session.h"

/* The answer of a procedure that ran on the session's game: its lines (then extra, when not
 * NULL), the JSON {"effects": [...], "rolls": [...], "turn": n, "phase": p}. */
static hon_answer *play_answer(const hon_vm *vm, const char *extra)
{
    const res_program *p = vm->pg->res;
    const proc_game *g = &vm->game;
    strbuf text = { 0 }, json = { 0 };
    const char *lines = sb_str((strbuf *)&g->out);
    sb_puts(&text, g->out.len ? lines : "no effect\n");
    if (extra)
        sb_puts(&text, extra);
    sb_puts(&json, "{\"effects\": [");
    bool first = true;
    for (const char *l = lines; *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        char *one = mem_strndup(l, n);
        sb_puts(&json, first ? "" : ", ");
        sb_json_str(&json, one ? one : "");
        mem_free(one);
        first = false;
        l += n + (end ? 1 : 0);
    }
    sb_puts(&json, "], \"rolls\": ["); /* the dice, in the order rolled */
    sb_puts(&json, sb_str((strbuf *)&g->rolls));
    if (g->rolls.oom || g->rolls.truncated)
        sb_fail(&json);
    sb_printf(&json, "], \"turn\": %" PRId64 ", \"phase\": ", g->g.turn);
    if (g->g.phase >= 0 && (size_t)g->g.phase < p->enums[E_PHASE].len)
        sb_json_str(&json, p->enums[E_PHASE].members[g->g.phase].name);
    else
        sb_puts(&json, "null");
    sb_puts(&json, "}");
    char *t = sb_take(&text);
    return session_answer(vm, vm->x.edition, vm->x.readings, t, sb_take(&json),
                          mem_strdup(t ? t : ""));
}

/* Begins an evaluation on the session's board for a procedure (traced for `why do`). */
static hon_status begin_play(hon_vm *vm, bool tracing)
{
    vm->game.choices_made = 0;
    return session_begin(vm, NULL, tracing);
}

/* Ends a procedure that ran on the session's game from log length mark (ok: it succeeded):
 * kept in the history under `title` with the dice state it began with (dice), and answered
 * (extra: a last line or NULL); or, when it failed (refused, abandoned at a question or at step
 * mode's pause, out of steps), reported as undone: its effects were reverted by proc.c, and the
 * dice source is put back to `dice` here, so the next procedure sees the rolls this one saw (an
 * abandoned recovery roll, BRO.2.landing-craft.recover, cannot be rolled again for another
 * face). Ends the evaluation. */
static hon_status finish_play(hon_vm *vm, bool ok, size_t mark, uint64_t dice, const char *title,
                              const char *extra, hon_answer **out)
{
    hon_status st = HON_OK;
    if (!ok) {
        vm->dice.state = dice; /* nothing changed: neither the board nor the dice */
        st = session_error(vm, true);
    } else if (!play_commit(&vm->game.g, mark, title, dice)) {
        play_revert(&vm->game.g, mark); /* all or nothing, even when memory runs out */
        st = HON_ERR_MEMORY;
    } else if (out && !(*out = play_answer(vm, extra))) {
        st = HON_ERR_MEMORY;
    }
    state_end(&vm->x);
    sb_free(&vm->game.out);
    vm->game.lines = 0;
    vm->game.shown = 0;
    return st;
}

/* Gives answer a (of a traced procedure) its traces: the complete one, the brief one, and the
 * JSON trace as one more member of its object. The strbufs are emptied. HON_ERR_MEMORY (a is
 * then freed and *out NULL) or HON_OK. */
static hon_status add_traces(hon_answer **out, strbuf *full, strbuf *brief, strbuf *json)
{
    hon_answer *a = *out;
    strbuf j = { 0 };
    size_t n = strlen(a->json);
    sb_putn(&j, a->json, n ? n - 1 : 0); /* without its closing brace */
    sb_puts(&j, ", \"trace\": ");
    sb_puts(&j, sb_str(json));
    sb_putc(&j, '}');
    if (json->oom)
        sb_fail(&j);
    char *nj = sb_take(&j), *nt = sb_take(full), *nw = sb_take(brief);
    if (!nj || !nt || !nw) {
        mem_free(nj);
        mem_free(nt);
        mem_free(nw);
        hon_answer_free(a);
        *out = NULL;
        return HON_ERR_MEMORY; /* the procedure stays done: `undo` reverts it */
    }
    mem_free(a->json);
    mem_free(a->trace);
    a->json = nj;
    a->trace = nt;
    a->why = nw;
    return HON_OK;
}

/* What hon_do and hon_why_do run: the call's text (the history's title) and whether traced. */
typedef struct do_args {
    const char *call;
    bool traced;
} do_args;

/* Runs procedure ch on the session's game (session_run for hon_do and hon_why_do). */
static hon_status do_run(hon_vm *vm, const chunk *ch, uint32_t type, void *ud, hon_answer **out)
{
    const do_args *d = ud;
    (void)type;
    hon_status st = begin_play(vm, d->traced);
    if (st != HON_OK)
        return st;
    strbuf full = { 0 }, brief = { 0 }, json = { 0 };
    char *reasons = NULL, *refusal = NULL;
    size_t mark = vm->game.g.len;
    uint64_t dice = vm->dice.state;
    bool ok = proc_run(&vm->x, &vm->game, ch);
    if (ok && d->traced) { /* rendered before finish_play resets the arena they point in */
        const val_env env = { vm->pg->res, vm->sc, NULL,
                              model_edition_modules(vm->pg->res, vm->x.edition) };
        session_trace_header(vm, vm->x.edition, vm->x.readings, &full);
        session_trace_header(vm, vm->x.edition, vm->x.readings, &brief);
        trace_text(&env, &vm->x.trace, &full);
        trace_brief(&env, &vm->x.trace, &brief);
        if (!session_reasons(vm, &reasons, &refusal))
            full.oom = true;
        trace_json(&env, &vm->x.trace, &json);
    }
    char title[256];
    snprintf(title, sizeof title, "do %s", d->call);
    st = finish_play(vm, ok, mark, dice, title, NULL, out);
    if (st == HON_OK && d->traced && out && *out)
        st = add_traces(out, &full, &brief, &json);
    if (st == HON_OK && d->traced && out && *out) {
        (*out)->why_not = reasons;
        (*out)->refusal = refusal;
    } else {
        mem_free(reasons);
        mem_free(refusal);
    }
    sb_free(&full);
    sb_free(&brief);
    sb_free(&json);
    return st;
}

hon_status hon_do(hon_vm *vm, const char *call, const char *where, hon_answer **out)
{
    do_args d = { call, false };
    return session_run_text(vm, call, where, true, do_run, &d, out);
}

hon_status hon_why_do(hon_vm *vm, const char *call, const char *where, hon_answer **out)
{
    do_args d = { call, true };
    return session_run_text(vm, call, where, true, do_run, &d, out);
}

/* ---- odds of a procedure ---- */

/* The distribution of the outcomes of procedure ch (hon_odds_do). */
static hon_status odds_run_all(hon_vm *vm, const chunk *ch, uint32_t type, void *ud,
                               hon_answer **out)
{
    (void)type;
    (void)ud;
    const state_setup *s = session_setup(vm);
    if (!s)
        return HON_ERR_MEMORY;
    hon_status st = HON_OK;
    proc_game *g = &vm->game;
    strbuf text = { 0 }, json = { 0 };
    bool saved_first = g->first_choice, saved_bare = g->bare;
    proc_stepper saved_step = g->stepper;
    g->first_choice = g->bare = true;
    g->stepper = NULL;
    g->choices_made = 0;
    state_setup one = *s;
    one.budget = vm->cfg.step_budget;
    if (!odds_enumerate_procedure(&vm->x, g, &one, ch, "odds of a procedure", &text, &json)) {
        st = session_error(vm, false);
    } else if (out) {
        if (g->choices_made)
            sb_puts(&text, "\nnote: every choice took the first legal option");
        *out = session_answer(vm, s->edition, s->readings, sb_take(&text), sb_take(&json),
                              mem_strdup("(odds have no trace)\n"));
        if (!*out)
            st = HON_ERR_MEMORY;
    }
    g->first_choice = saved_first;
    g->bare = saved_bare;
    g->stepper = saved_step;
    sb_free(&g->out);
    g->lines = 0;
    g->shown = 0;
    sb_free(&text);
    sb_free(&json);
    return st;
}

hon_status hon_odds_do(hon_vm *vm, const char *call, const char *where, hon_answer **out)
{
    return session_run_text(vm, call, where, true, odds_run_all, NULL, out);
}

/* ---- walks and the clock ---- */

/* A note for `hon_move` when the rules raise nothing on a moment. */
static void moment_note(const res_program *p, res_moment m, strbuf *b)
{
    if (p->moments[m] >= 0)
        return;
    if (m == RES_ON_WALK)
        sb_puts(b, "note: the rules declare no event `on walk` (a Movement Action): the unit "
                   "walked the path with no rule checking its steps\n");
    else
        sb_printf(b, "note: the rules declare no event `on %s`: nothing was raised for it\n",
                  builtin_moment_name(m));
}

/* The squares of a walk as values into sqs and the walk's title ("move $jeep C4 C5") into
 * title; HON_ERR_NOT_FOUND (reported) for a word that is no square of the board. */
static hon_status walk_squares(hon_vm *vm, const char *const *squares, size_t n, int64_t *sqs,
                               strbuf *title)
{
    for (size_t i = 0; i < n; i++) {
        const char *s = squares[i] && squares[i][0] == '@' ? squares[i] + 1 : squares[i];
        int x, y;
        if (!s || geo_parse_xy(s, strlen(s), &x, &y) != GEO_OK ||
            scene_square(vm->sc, RES_SQUARE(x, y)) < 0) {
            session_report(vm, E_OFF_BOARD, "<move>", "'%s' is not a square of the board",
                           squares[i] ? squares[i] : "");
            return HON_ERR_NOT_FOUND;
        }
        sqs[i] = RES_SQUARE(x, y);
        sb_printf(title, " %s", s);
    }
    return HON_OK;
}

hon_status hon_move(hon_vm *vm, const char *unit_name, const char *const *squares, size_t n,
                    hon_answer **out)
{
    if (out)
        *out = NULL;
    if (!vm || !unit_name || (n && !squares))
        return HON_ERR_NOT_FOUND;
    if (!vm->sc) {
        session_report(vm, E_NO_BOARD, "<move>",
                       "no board is loaded: load a scenario to move its units");
        return HON_ERR_NOT_FOUND;
    }
    const char *bare = unit_name[0] == '$' ? unit_name + 1 : unit_name;
    int32_t u = scene_unit(vm->sc, bare);
    if (u < 0) {
        session_no_unit(vm, "<move>", bare);
        return HON_ERR_NOT_FOUND;
    }
    if (n == 0) {
        session_report(vm, E_BAD_REQUEST, "<move>", "a move needs the squares of its path");
        return HON_ERR_NOT_FOUND;
    }
    /* the rules' Movement Action (an `on walk` event) checks its steps along traced lines,
     * which hex boards do not have (board.md): say so at the command, not from a rule file */
    if (vm->sc->g->topo == GEO_HEX && vm->pg->res->moments[RES_ON_WALK] >= 0) {
        session_report(vm, E_TOPOLOGY, "<move>",
                       "a Movement Action needs a square board: the rules check its steps along "
                       "lines between squares, which a hex board does not have");
        return HON_ERR_NOT_FOUND;
    }
    int64_t *sqs = mem_calloc(n, sizeof *sqs);
    if (!sqs)
        return HON_ERR_MEMORY;
    strbuf title = { 0 };
    sb_printf(&title, "move $%s", bare);
    hon_status st = walk_squares(vm, squares, n, sqs, &title);
    if (st == HON_OK)
        st = begin_play(vm, false);
    if (st == HON_OK) {
        size_t mark = vm->game.g.len, done = 0;
        uint64_t dice = vm->dice.state;
        bool ok = proc_walk(&vm->x, &vm->game, u, sqs, n, &done);
        strbuf extra = { 0 };
        if (ok && done < n)
            sb_printf(&extra,
                      "note: the move stopped after %zu of %zu squares: a rule took $%s "
                      "off its path\n",
                      done, n, bare);
        if (vm->pg->res->moments[RES_ON_WALK] < 0) { /* the bare walk */
            moment_note(vm->pg->res, RES_ON_WALK, &extra);
            moment_note(vm->pg->res, RES_ON_ENTER, &extra);
            moment_note(vm->pg->res, RES_ON_WALK_END, &extra);
        }
        st =
            finish_play(vm, ok, mark, dice, sb_str(&title), extra.len ? sb_str(&extra) : NULL, out);
        sb_free(&extra);
    }
    mem_free(sqs);
    sb_free(&title);
    return st;
}

bool hon_last_refusal(const hon_vm *vm, hon_refusal *out)
{
    if (!vm || !out || !vm->x.refusal.set)
        return false;
    const vm_refusal *r = &vm->x.refusal;
    memcpy(out->call, r->call, sizeof out->call);
    memcpy(out->what, r->what, sizeof out->what);
    memcpy(out->rule, r->rule, sizeof out->rule);
    memcpy(out->cites, r->cites, sizeof out->cites);
    memcpy(out->inside, r->inside, sizeof out->inside);
    memcpy(out->condition, r->condition, sizeof out->condition);
    memcpy(out->plain, r->plain, sizeof out->plain);
    return true;
}

hon_status hon_next(hon_vm *vm, hon_answer **out)
{
    if (out)
        *out = NULL;
    if (!vm)
        return HON_ERR_NOT_FOUND;
    hon_status st = begin_play(vm, false);
    if (st == HON_OK) {
        size_t mark = vm->game.g.len;
        uint64_t dice = vm->dice.state;
        bool ok = proc_next(&vm->x, &vm->game);
        st = finish_play(vm, ok, mark, dice, "next", NULL, out);
    }
    return st;
}

hon_status hon_undo(hon_vm *vm, hon_answer **out)
{
    if (out)
        *out = NULL;
    if (!vm)
        return HON_ERR_NOT_FOUND;
    size_t records = 0;
    uint64_t dice = vm->dice.state;
    const char *title = play_undo(&vm->game.g, &records, &dice);
    if (!title)
        return HON_ERR_NOT_FOUND;
    vm->dice.state = dice; /* the procedure's rolls come again if it is run again */
    if (out) {
        strbuf t = { 0 };
        sb_printf(&t, "undone: %s (%zu change%s)\n", title, records, records == 1 ? "" : "s");
        char *s = sb_take(&t);
        const state_setup *now = session_setup(vm);
        *out = session_answer(vm, now ? now->edition : -1, now ? now->readings : NULL, s,
                              mem_strdup("{\"undone\": true}"), mem_strdup(s ? s : ""));
        if (!*out)
            return HON_ERR_MEMORY;
    }
    return HON_OK;
}

size_t hon_game_played(const hon_vm *vm)
{
    return vm ? vm->game.g.nprocs : 0;
}

void hon_clock(const hon_vm *vm, int64_t *turn, const char **phase)
{
    if (turn)
        *turn = vm ? vm->game.g.turn : 1;
    if (phase) {
        const res_program *p = vm ? vm->pg->res : NULL;
        *phase = p && vm->game.g.phase >= 0 && (size_t)vm->game.g.phase < p->enums[E_PHASE].len
                     ? p->enums[E_PHASE].members[vm->game.g.phase].name
                     : NULL;
    }
}
