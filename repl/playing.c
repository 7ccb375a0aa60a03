/* playing.c — the commands that play on the board, shared by the REPL (repl.c) and `hon play`:
 * `do`, `why do`, `odds do`, `move`, `why move`, `reach`, `next`, `undo`, `turn` (docs/spec/repl.md
 * §2a). Moved out of cli.c whole (sitting 20); the rest of cli.c's account holds for them: only
 * include/hon.h is used, how they report is report.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A do, move or next begins (live: its lines before a choice are printed then,
 * cli_before_choice) or ends. */
static void live_lines(cli_session *s, bool live)
{
    s->live_lines = live;
    s->lines_shown = 0;
}

/* Prints a procedure's answer (text or JSON); the text without its first s->lines_shown lines,
 * printed already before a choice. Ends the live lines. */
static void put_answer(cli_session *s, hon_answer *a)
{
    const char *text = s->json ? hon_answer_json(a) : hon_answer_text(a);
    for (size_t i = 0; !s->json && text && i < s->lines_shown; i++) {
        const char *nl = strchr(text, '\n');
        text = nl ? nl + 1 : text + strlen(text);
    }
    if (text && text[0])
        cli_put_block(text, stdout);
    cli_flush_stdout();
    live_lines(s, false);
}

int cli_do(cli_session *s, const char *call, const char *where, bool odds)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    live_lines(s, !odds);
    hon_status st = odds ? hon_odds_do(s->vm, call, where, &a) : hon_do(s->vm, call, where, &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        live_lines(s, false);
        return cli_failed(s, before, st, odds ? "cannot enumerate" : "cannot do", call);
    }
    put_answer(s, a);
    hon_answer_free(a);
    return 0;
}

int cli_why_do(cli_session *s, const char *call, const char *where, cli_mode mode)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    hon_status st = hon_why_do(s->vm, call, where, &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        return cli_failed(s, before, st, "cannot do", call);
    }
    if (s->json) {
        cli_put_block(hon_answer_json(a), stdout);
    } else {
        cli_put_block(trace_of(a, mode), stdout);
        printf("effects:\n");
        cli_put_block(hon_answer_text(a), stdout);
    }
    cli_flush_stdout();
    hon_answer_free(a);
    return 0;
}

int cli_move(cli_session *s, const char *unit, const char *const *squares, size_t n)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    if (!hon_board_path(s->vm))
        return no_board();
    live_lines(s, true);
    hon_status st = hon_move(s->vm, unit, squares, n, &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        live_lines(s, false);
        return cli_failed(s, before, st, "cannot move", unit);
    }
    put_answer(s, a);
    hon_answer_free(a);
    return 0;
}

/* One member `"name": "text"` of cli_why_move's JSON object, a comma before all but the first. */
static void put_json_member(const char *name, const char *text, bool first)
{
    printf("%s\"%s\": ", first ? "" : ", ", name);
    cli_put_json_string(text, stdout);
}

int cli_why_move(cli_session *s, const char *unit, const char *const *squares, size_t n)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    if (!hon_board_path(s->vm))
        return no_board();
    /* the refusal is the answer, printed below: not an error diagnostic too (rev16a D7) */
    s->refusal_answered = true;
    hon_status st = hon_move(s->vm, unit, squares, n, &a);
    s->refusal_answered = false;
    hon_answer_free(a);
    a = NULL;
    if (st == HON_OK) { /* legal: take it back, the question asked only why not */
        st = hon_undo(s->vm, &a);
        hon_answer_free(a);
        if (st != HON_OK)
            return cli_failed(s, before, st, "cannot take back the move of", unit);
        if (s->json)
            printf("{\"refused\": false}\n");
        else
            printf("no rule forbids this move: it is legal (nothing changed)\n");
        cli_flush_stdout();
        return 0;
    }
    hon_refusal r;
    if (!hon_last_refusal(s->vm, &r)) /* an error, not a refusal: reported already */
        return cli_failed(s, before, st, "cannot move", unit);
    if (s->json) {
        printf("{\"refused\": true, ");
        put_json_member("what", r.what, true);
        put_json_member("call", r.call, false);
        put_json_member("rule", r.rule, false);
        put_json_member("cites", r.cites, false);
        put_json_member("condition", r.condition, false);
        put_json_member("inside", r.inside, false);
        put_json_member("plain", r.plain, false);
        printf("}\n");
    } else {
        printf("refused: %s: %s = forbid\n", r.what[0] ? r.what : "the move", r.call);
        printf("  forbidden by %s (%s)\n", r.rule, r.cites);
        if (r.condition[0])
            printf("  since %s\n", r.condition);
        if (r.inside[0])
            printf("  by way of %s\n", r.inside);
        if (r.plain[0])
            printf("  in plain words: %s\n", r.plain);
        printf("nothing changed; 'why not %s' lists every rule it checked\n", r.call);
    }
    cli_flush_stdout();
    return 0;
}

/* The picture of cli_reach's file, for write_whole. */
typedef struct reach_job {
    cli_session *s;
    const char *unit;
} reach_job;

static hon_status write_reach(FILE *f, void *ud)
{
    reach_job *j = ud;
    return hon_reach_draw(j->s->vm, j->unit, f, true);
}

int cli_reach(cli_session *s, const char *unit, const char *svg_path)
{
    hon_answer *a = NULL;
    size_t before = s->diags;
    if (!hon_board_path(s->vm))
        return no_board();
    if (svg_path && !cli_may_replace_with_svg(svg_path))
        return 1;
    hon_status st = hon_reach(s->vm, unit, &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        return cli_failed(s, before, st, "cannot list the squares reached by", unit);
    }
    put_answer(s, a);
    hon_answer_free(a);
    if (s->json && !svg_path)
        return 0;
    bool io = false;
    if (svg_path) {
        reach_job j = { s, unit };
        st = cli_write_whole(svg_path, write_reach, &j, &io);
    } else {
        st = hon_reach_draw(s->vm, unit, stdout, false);
    }
    cli_flush_stdout();
    if (io)
        return 1;
    if (st != HON_OK)
        return cli_failed(s, before, st, "cannot draw the squares reached by", unit);
    if (svg_path && !s->json)
        printf("wrote %s\n", svg_path);
    return 0;
}

int cli_next(cli_session *s)
{
    /* the phases' events read the board: without one, say so before any rule does */
    if (!hon_board_path(s->vm))
        return no_board();
    hon_answer *a = NULL;
    size_t before = s->diags;
    live_lines(s, true);
    hon_status st = hon_next(s->vm, &a);
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        live_lines(s, false);
        return cli_failed(s, before, st, "cannot go on to the next phase", "next");
    }
    put_answer(s, a);
    hon_answer_free(a);
    return 0;
}

int cli_undo(cli_session *s)
{
    hon_answer *a = NULL;
    hon_status st = hon_undo(s->vm, &a);
    if (st == HON_ERR_NOT_FOUND) {
        cli_error_code(CLI_E_NOT_NOW, "nothing to undo");
        return 1;
    }
    if (st != HON_OK || !a) {
        hon_answer_free(a);
        cli_error_code(CLI_E_NOT_NOW, "undo: %s", cli_status_text(st));
        return 1;
    }
    put_answer(s, a);
    hon_answer_free(a);
    return 0;
}

int cli_turn(cli_session *s)
{
    int64_t turn;
    const char *phase;
    hon_clock(s->vm, &turn, &phase);
    if (phase)
        printf("turn %lld, %s phase\n", (long long)turn, phase);
    else
        printf("turn %lld (no phase is declared)\n", (long long)turn);
    cli_flush_stdout();
    return 0;
}
