/* view.c — the session's board (hon.h: hon_load_board, hon_load_board_source, hon_drop_board,
 * hon_board_path, hon_each_board_thing; the drawing for los.c's hon_draw_board and
 * hon_board_svg), over view.h. The session keeps the scenario's
 * text so the scene is rebuilt against every reloaded program (view_rebind); drawing is
 * runtime/draw.h's, given what the rules name: units' markers and faces, the line's ends.
 */
#include "view.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "mem.h"
#include "refusal.h"

/* Reports a scenario's E3xx errors like the compiler's diagnostics (the text is quoted). */
static void report_scn(hon_vm *vm, const char *path, const char *text, size_t len,
                       const scn_errors *errs)
{
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    uint32_t id = diag_sources_add(&vm->sources, path, text, len);
    for (size_t i = 0; i < errs->len; i++) {
        const scn_error *e = &errs->items[i];
        ast_loc loc = { id == UINT32_MAX ? 0 : id, (uint32_t)e->line, (uint32_t)e->col,
                        (uint32_t)e->line, (uint32_t)(e->col + (e->len > 0 ? e->len : 1) - 1) };
        diag_report(&dl, e->code, DIAG_ERROR, loc, "%s", e->message);
    }
    session_emit(vm, &dl);
    session_forget_source(vm, id);
}

/* The column (from 1) of the word `in` on line `line` (from 1) of text[0..len), and in *n the
 * length up to the end of the carrier's name after it; 1 and the line's length when not found. */
static uint32_t in_column(const char *text, size_t len, int line, uint32_t *n)
{
    size_t at = 0;
    for (int l = 1; l < line && at < len; at++)
        if (text[at] == '\n')
            l++;
    size_t end = at;
    while (end < len && text[end] != '\n')
        end++;
    *n = (uint32_t)(end - at);
    for (size_t k = at + 1; k + 3 < end; k++)
        if (text[k - 1] == ' ' && text[k] == 'i' && text[k + 1] == 'n' && text[k + 2] == ' ') {
            size_t e = k + 3;
            while (e < end && text[e] == ' ')
                e++;
            while (e < end && text[e] != ' ' && text[e] != '\t' && text[e] != '\r')
                e++;
            *n = (uint32_t)(e - k);
            return (uint32_t)(k - at + 1);
        }
    return 1;
}

/* Asks verdict query q of args[0..n) in a session begun with setup (the board checks below):
 * true when it forbids, *rule the rule that does, cites and inside what refusal_explain
 * appends (the deciding rule's citations, the rules that fired inside it). False when it permits, when its evaluation
 * fails (*st HON_ERR_RUNTIME, or HON_ERR_MEMORY for E230, and the error copied to *err, not
 * reported: the caller says which unit or square the rules were asked about) or when no session
 * can begin (*st HON_ERR_MEMORY). Either status ends the caller's loop. */
static bool verdict_forbids(hon_vm *vm, const state_setup *setup, uint32_t q, const val *args,
                            size_t n, uint32_t *rule, hon_status *st, vm_error *err, strbuf *cites,
                            strbuf *inside)
{
    val v;
    *rule = UINT32_MAX;
    if (session_begin(vm, setup, false) != HON_OK) {
        *st = HON_ERR_MEMORY;
        return false;
    }
    bool ok = vm_ask(&vm->x, q, args, n, &v, rule);
    if (!ok) {
        *err = vm->x.err;
        *st = err->code == E_MEMORY ? HON_ERR_MEMORY : HON_ERR_RUNTIME;
    } else if (!v.u.i) /* asked again, traced, while the session lasts */
        refusal_explain(&vm->x, q, args, (uint32_t)n, *rule, cites, inside);
    state_end(&vm->x);
    return ok && !v.u.i;
}

/* One load-time check of a board (check_aboard, check_placed, check_marks): the verdict query
 * it asks, the session's readings and set-up for board sc, the diagnostics it gathers, the board
 * text's source id (added at the first forbid: UINT32_MAX before) and the check's status. */
typedef struct load_check {
    const res_program *p;
    uint32_t q;
    int32_t *readings; /* owned: load_check_end frees it */
    state_setup setup;
    diag_list dl;
    uint32_t id;
    hon_status st;
    vm_error err; /* the evaluation that failed (err.code not E_NONE), for load_check_failed */
} load_check;

/* Begins check c with the verdict query `name` of n parameters of the types types[0..n), when
 * the rules declare it so. False when they do not (no check: c->st HON_OK) or memory runs out
 * (c->st HON_ERR_MEMORY); true when the check runs, to end with load_check_end. */
static bool load_check_begin(hon_vm *vm, const scene *sc, const char *name, const uint32_t *types,
                             uint32_t n, load_check *c)
{
    c->p = vm->pg->res;
    c->st = HON_OK;
    c->err.code = E_NONE;
    int32_t q = model_find_query(c->p, name);
    if (q < 0 || c->p->queries[q].nparams != n || c->p->queries[q].result != T_VERDICT)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (c->p->queries[q].params[i].type != types[i])
            return false;
    c->q = (uint32_t)q;
    bool oom = false;
    int32_t ed = vm->load_under ? vm->load_ed : session_edition(vm);
    c->readings = session_readings(vm, ed, vm->load_under ? vm->load_overrides : NULL, &oom);
    if (oom) {
        c->st = HON_ERR_MEMORY;
        return false;
    }
    c->setup = session_setup_with(vm, sc, ed, c->readings);
    diag_list_init(&c->dl, &vm->sources);
    c->id = UINT32_MAX;
    return true;
}

/* The name of the rule that forbade (fallback: the query's name). */
static const char *load_check_rule(const load_check *c, uint32_t rule)
{
    return rule < c->p->nrules ? c->p->rules[rule].name : c->p->queries[c->q].name;
}

/* Whether the rules forbid args[0..n) in check c; when they do, `why` (empty, the caller frees
 * it) says by which rule, "QUERY forbids it by way of RULE (CITES)", then "; through INNER
 * (CITES), ..." for the rules of the queries RULE asked that fired toward the forbid (s20 D4:
 * a board's author sees the rule that said no and the clause of the books behind it, not only
 * the rule that asked: may_start_aboard.carried through can_carry.wreck), and the board text
 * path/text[0..len) is added to the session's sources once (c->id). A failed evaluation sets
 * c->st and c->err (verdict_forbids): the caller reports it with load_check_failed. */
static bool load_check_forbids(hon_vm *vm, load_check *c, const val *args, size_t n,
                               const char *path, const char *text, size_t len, strbuf *why)
{
    uint32_t rule;
    strbuf cites = { 0 }, inside = { 0 };
    bool no =
        verdict_forbids(vm, &c->setup, c->q, args, n, &rule, &c->st, &c->err, &cites, &inside);
    if (no) {
        if (c->id == UINT32_MAX)
            c->id = diag_sources_add(&vm->sources, path, text, len);
        sb_printf(why, "%s forbids it by way of %s (%s)", c->p->queries[c->q].name,
                  load_check_rule(c, rule), cites.len ? sb_str(&cites) : "no citation");
        if (inside.len)
            sb_printf(why, "; through %s", sb_str(&inside));
    }
    sb_free(&cites);
    sb_free(&inside);
    return no;
}

/* Reports the error of check c's failed evaluation (c->err; nothing when none failed) where
 * the rule failed, with a note at what the board was being checked for: the board text's line
 * `line`, columns [col, col + n), `what` ("'a', set up at its squares") and the query asked
 * (fresh17 D6: the error named no board, no unit and no check). */
static void load_check_failed(hon_vm *vm, load_check *c, const char *path, const char *text,
                              size_t len, uint32_t line, uint32_t col, uint32_t n, const char *what)
{
    if (c->err.code == E_NONE)
        return;
    if (c->id == UINT32_MAX)
        c->id = diag_sources_add(&vm->sources, path, text, len);
    diag *d = diag_report(&c->dl, c->err.code, DIAG_ERROR, c->err.loc, "%s", c->err.msg);
    if (d && c->id != UINT32_MAX)
        diag_relate(d, (src_loc){ c->id, line, col, line, col + (n ? n : 1) - 1 },
                    "while the board %s was checked: %s (%s)", path, what,
                    c->p->queries[c->q].name);
    c->err.code = E_NONE;
}

/* Whether check c should go on: no evaluation failed and memory held. */
static bool load_check_going(const load_check *c)
{
    return c->st != HON_ERR_RUNTIME && c->st != HON_ERR_MEMORY;
}

/* Ends check c: its diagnostics reported, its readings freed. Returns its status. */
static hon_status load_check_end(hon_vm *vm, load_check *c)
{
    session_emit(vm, &c->dl);
    mem_free(c->readings);
    return c->st;
}

/* Asks the rules, for each unit the scenario sets up aboard another (`unit x = ... in y`),
 * whether it may start there: the verdict query may_start_aboard(u: unit, carrier: unit)
 * (rules/transport.hon: a Transport counter within its capacity, a train's own rules), when
 * the rules declare it, on board sc. Each forbid is an E318 at the unit's line (the caret on
 * `in CARRIER`) naming the rule that forbids and its citations; HON_ERR_COMPILE then, a rule's
 * error HON_ERR_RUNTIME (reported), HON_OK when every unit may start where it is. */
static hon_status check_aboard(hon_vm *vm, const scene *sc, const char *path, const char *text,
                               size_t len)
{
    static const uint32_t types[] = { T_UNIT, T_UNIT };
    load_check c;
    if (!load_check_begin(vm, sc, "may_start_aboard", types, 2, &c))
        return c.st;
    for (size_t i = 0; i < sc->scn->n_units && load_check_going(&c); i++) {
        const scn_unit *u = &sc->scn->units[i];
        if (u->in < 0)
            continue;
        const scn_unit *carrier = &sc->scn->units[u->in];
        val args[2] = { { .type = T_UNIT, .u.i = u->id }, { .type = T_UNIT, .u.i = carrier->id } };
        strbuf why = { 0 };
        if (!load_check_forbids(vm, &c, args, 2, path, text, len, &why)) {
            if (c.err.code != E_NONE) {
                uint32_t n, col = in_column(text, len, u->line, &n);
                char what[160];
                snprintf(what, sizeof what, "'%s', set up aboard '%s'", u->name, carrier->name);
                load_check_failed(vm, &c, path, text, len, (uint32_t)u->line, col, n, what);
            }
            continue;
        }
        uint32_t n, col = in_column(text, len, u->line, &n);
        ast_loc loc = { c.id == UINT32_MAX ? 0 : c.id, (uint32_t)u->line, col, (uint32_t)u->line,
                        col + (n ? n : 1) - 1 };
        diag_report(&c.dl, E_SCN_ABOARD, DIAG_ERROR, loc, "'%s' cannot start aboard '%s': %s",
                    u->name, carrier->name, sb_str(&why));
        sb_free(&why);
        c.st = HON_ERR_COMPILE;
    }
    return load_check_end(vm, &c);
}

/* Asks the rules, for each unit the scenario sets up on the board (`unit x = ... at SQUARES`),
 * whether it may start there: the verdict query may_start_at(u: unit) (rules/landing_craft.hon:
 * a landing craft's back against the edge), when the rules declare it, on board sc. Each forbid
 * is an E320 at the unit's line naming the rule that forbids and its citations; HON_ERR_COMPILE
 * then, a rule's error HON_ERR_RUNTIME (reported), HON_OK when every unit may start where it
 * stands. */
static hon_status check_placed(hon_vm *vm, const scene *sc, const char *path, const char *text,
                               size_t len)
{
    static const uint32_t types[] = { T_UNIT };
    load_check c;
    if (!load_check_begin(vm, sc, "may_start_at", types, 1, &c))
        return c.st;
    for (size_t i = 0; i < sc->scn->n_units && load_check_going(&c); i++) {
        const scn_unit *u = &sc->scn->units[i];
        if (u->in >= 0 || u->sq0 < 0)
            continue;
        val args[1] = { { .type = T_UNIT, .u.i = u->id } };
        strbuf why = { 0 };
        if (!load_check_forbids(vm, &c, args, 1, path, text, len, &why)) {
            if (c.err.code != E_NONE) {
                uint32_t n, col = in_column(text, len, u->line, &n);
                char what[160];
                snprintf(what, sizeof what, "'%s', set up where it stands", u->name);
                load_check_failed(vm, &c, path, text, len, (uint32_t)u->line, col, n, what);
            }
            continue;
        }
        uint32_t n, col = in_column(text, len, u->line, &n);
        ast_loc loc = { c.id == UINT32_MAX ? 0 : c.id, (uint32_t)u->line, col, (uint32_t)u->line,
                        col + (n ? n : 1) - 1 };
        diag_report(&c.dl, E_SCN_PLACE, DIAG_ERROR, loc, "'%s' cannot start where it stands: %s",
                    u->name, sb_str(&why));
        sb_free(&why);
        c.st = HON_ERR_COMPILE;
    }
    return load_check_end(vm, &c);
}

/* The line (from 1) of the last `square` directive of text[0..len) that names square `name`
 * ("A1") as one of its own words, and in *col and *n the column and length of that word; 1 (the
 * first line, the whole of it) when none does (a square marked by the legend). */
static uint32_t square_line(const char *text, size_t len, const char *name, uint32_t *col,
                            uint32_t *n)
{
    size_t nl = strlen(name);
    uint32_t found = 0, line = 1;
    *col = 1, *n = 1;
    for (size_t at = 0; at < len; line++) {
        size_t end = at;
        while (end < len && text[end] != '\n')
            end++;
        size_t k = at;
        while (k < end && (text[k] == ' ' || text[k] == '\t'))
            k++;
        if (end - k > 7 && memcmp(text + k, "square", 6) == 0 &&
            (text[k + 6] == ' ' || text[k + 6] == '\t')) {
            for (size_t w = k + 6; w < end && text[w] != '#';) {
                while (w < end && (text[w] == ' ' || text[w] == '\t' || text[w] == '\r'))
                    w++;
                size_t e = w;
                while (e < end && text[e] != ' ' && text[e] != '\t' && text[e] != '\r')
                    e++;
                if (e - w == nl && memcmp(text + w, name, nl) == 0)
                    found = line, *col = (uint32_t)(w - at + 1), *n = (uint32_t)nl;
                w = e;
            }
        }
        at = end + 1;
    }
    if (!found)
        *n = 1;
    return found ? found : 1;
}

/* Asks the rules, for each square of board sc carrying a square feature, whether the board may
 * mark it so: the verdict query may_mark_square(sq: square) (rules/terrain.hon; the rules that
 * answer it check a feature's value or that it stands on one square only), when the rules
 * declare it. Each forbid is an E319 at the last `square` line naming the square (the caret
 * under it), or at the file's first line for a square the legend marks, naming the rule and its
 * citations; HON_ERR_COMPILE then, a rule's error HON_ERR_RUNTIME (reported), HON_OK when every
 * square may be marked as it is. */
static hon_status check_marks(hon_vm *vm, const scene *sc, const char *path, const char *text,
                              size_t len)
{
    static const uint32_t types[] = { T_SQUARE };
    load_check c;
    if (!load_check_begin(vm, sc, "may_mark_square", types, 1, &c))
        return c.st;
    int nsq = geo_square_count(sc->g);
    for (int sq = 0; sq < nsq && load_check_going(&c); sq++) {
        if (board_features(sc->b, BOARD_AT_SQUARE, sq, NULL, 0) == 0)
            continue;
        val args[1] = { { .type = T_SQUARE, .u.i = scene_square_value(sc, sq) } };
        strbuf why = { 0 };
        if (!load_check_forbids(vm, &c, args, 1, path, text, len, &why)) {
            if (c.err.code != E_NONE) {
                char name[16], what[64];
                scene_square_text(args[0].u.i, name, sizeof name);
                uint32_t col, n, line = square_line(text, len, name, &col, &n);
                snprintf(what, sizeof what, "square %s, as the board marks it", name);
                load_check_failed(vm, &c, path, text, len, line, col, n, what);
            }
            continue;
        }
        char name[16];
        scene_square_text(args[0].u.i, name, sizeof name);
        uint32_t col, n, line = square_line(text, len, name, &col, &n);
        ast_loc loc = { c.id == UINT32_MAX ? 0 : c.id, line, col, line, col + n - 1 };
        diag_report(&c.dl, E_SCN_MARK, DIAG_ERROR, loc, "the board may not mark square %s so: %s",
                    name, sb_str(&why));
        sb_free(&why);
        c.st = HON_ERR_COMPILE;
    }
    return load_check_end(vm, &c);
}

hon_status view_load_scene(hon_vm *vm, const unit_pool *units, const char *path, const char *text,
                           size_t len, scene **out)
{
    *out = NULL;
    char *owned = NULL;
    if (!text) {
        hon_status st = session_read_file(vm, path, E_SCN_READ, &owned, &len);
        if (st != HON_OK)
            return st;
        text = owned;
    }
    scn_errors errs = { 0 };
    if (!units)
        units = res_units_of(vm->pg->res, session_edition(vm));
    *out = scene_load(vm->pg->res, units, text, len, &errs);
    hon_status st = HON_OK;
    if (!*out) {
        bool oom = false;
        for (size_t i = 0; i < errs.len; i++)
            oom |= errs.items[i].code == E_SCN_MEMORY;
        report_scn(vm, path, text, len, &errs);
        st = oom ? HON_ERR_MEMORY : HON_ERR_COMPILE;
    } else {
        /* Every check runs, so that a board's refusals of each kind all show (E318, E319, E320:
         * before, the E320s hid behind any E318); a rule's failure or memory running out ends
         * them (the status of the first such), a refusal does not. */
        static hon_status (*const checks[])(hon_vm *, const scene *, const char *, const char *,
                                            size_t) = { check_aboard, check_marks, check_placed };
        for (size_t i = 0;
             i < sizeof checks / sizeof checks[0] && (st == HON_OK || st == HON_ERR_COMPILE); i++) {
            hon_status s = checks[i](vm, *out, path, text, len);
            if (s != HON_OK)
                st = s;
        }
        if (st != HON_OK) {
            scene_free(*out);
            *out = NULL;
        }
    }
    scn_errors_free(&errs);
    mem_free(owned);
    return st;
}

void view_rebind(hon_vm *vm)
{
    if (!vm->sc)
        return;
    scene_free(vm->sc);
    vm->sc = NULL;
    scene *sc;
    hon_status st = view_load_scene(vm, NULL, vm->board_path, vm->board_text, vm->board_len, &sc);
    if (st == HON_OK) {
        vm->sc = sc;
        return;
    }
    session_report(vm, E_BOARD_DROPPED, vm->board_path,
                   "the board %s does not fit the rules any more: it was dropped", vm->board_path);
    mem_free(vm->board_path);
    mem_free(vm->board_text);
    vm->board_path = vm->board_text = NULL;
    vm->board_len = 0;
}

hon_status view_check_setting(hon_vm *vm)
{
    if (!vm->sc)
        return HON_OK;
    scene *sc;
    hon_status st = view_load_scene(vm, NULL, vm->board_path, vm->board_text, vm->board_len, &sc);
    if (st != HON_OK)
        return st;
    if (sc->counters == vm->sc->counters) { /* the same board: its game goes on */
        scene_free(sc);
        return HON_OK;
    }
    scene_free(vm->sc); /* other counters: the board with the edition's, its game restarted */
    vm->sc = sc;
    session_new_game(vm);
    return HON_OK;
}

static hon_status set_board(hon_vm *vm, const char *path, char *text, size_t len)
{
    scene *sc;
    hon_status st = view_load_scene(vm, NULL, path, text, len, &sc);
    if (st != HON_OK) {
        mem_free(text);
        return st;
    }
    char *p = mem_strdup(path);
    if (!p) {
        scene_free(sc);
        mem_free(text);
        return HON_ERR_MEMORY;
    }
    scene_free(vm->sc);
    mem_free(vm->board_path);
    mem_free(vm->board_text);
    vm->sc = sc;
    vm->board_path = p;
    vm->board_text = text;
    vm->board_len = len;
    vm->choice_gen++;
    session_new_game(vm);
    return HON_OK;
}

hon_status hon_load_board(hon_vm *vm, const char *path)
{
    if (!vm || !path)
        return HON_ERR_NOT_FOUND;
    char *text;
    size_t len;
    hon_status st = session_read_file(vm, path, E_SCN_READ, &text, &len);
    if (st != HON_OK)
        return st;
    return set_board(vm, path, text, len);
}

hon_status hon_load_board_source(hon_vm *vm, const char *name, const char *text, size_t len)
{
    if (!vm || !text)
        return HON_ERR_NOT_FOUND;
    char *copy = mem_strndup(text, len);
    if (!copy)
        return HON_ERR_MEMORY;
    return set_board(vm, name ? name : "<board>", copy, len);
}

hon_status hon_check_board(hon_vm *vm, const char *path)
{
    if (!vm || !path)
        return HON_ERR_NOT_FOUND;
    scene *sc;
    hon_status st = view_load_scene(vm, NULL, path, NULL, 0, &sc);
    scene_free(sc);
    return st;
}

void hon_drop_board(hon_vm *vm)
{
    if (!vm || !vm->sc)
        return;
    scene_free(vm->sc);
    mem_free(vm->board_path);
    mem_free(vm->board_text);
    vm->sc = NULL;
    vm->board_path = vm->board_text = NULL;
    vm->board_len = 0;
    vm->choice_gen++;
    session_new_game(vm);
}

const char *hon_board_path(const hon_vm *vm)
{
    return vm && vm->sc ? vm->board_path : NULL;
}

size_t hon_each_board_thing(const hon_vm *vm, hon_value_kind kind,
                            void (*fn)(void *ud, hon_value v, const char *name), void *ud)
{
    const scene *sc = vm ? vm->sc : NULL;
    if (!sc)
        return 0;
    char name[96];
    size_t n = 0;
    switch (kind) {
    case HON_V_UNIT:
        n = sc->units->len - (size_t)sc->first_unit;
        for (size_t u = (size_t)sc->first_unit; fn && u < sc->units->len; u++) {
            snprintf(name, sizeof name, "$%s", scene_unit_name(sc, (int64_t)u));
            fn(ud, (hon_value){ HON_V_UNIT, (int64_t)u }, name);
        }
        return n;
    case HON_V_SQUARE:
        n = (size_t)geo_square_count(sc->g);
        for (int sq = 0; fn && sq < (int)n; sq++) {
            name[0] = '@';
            geo_format_square(sc->g, sq, name + 1, sizeof name - 1);
            fn(ud, (hon_value){ HON_V_SQUARE, scene_square_value(sc, sq) }, name);
        }
        return n;
    case HON_V_SIDE:
        n = (size_t)geo_side_count(sc->g);
        for (int sd = 0; fn && sd < (int)n; sd++) {
            scene_side_text(sc, sd, name, sizeof name);
            fn(ud, (hon_value){ HON_V_SIDE, sd }, name);
        }
        return n;
    case HON_V_ELEMENT:
        n = (size_t)board_element_count(sc->b);
        for (int e = 0; fn && e < (int)n; e++) {
            scene_element_text(sc, e, name, sizeof name);
            fn(ud, (hon_value){ HON_V_ELEMENT, e }, name);
        }
        return n;
    default: return 0;
    }
}

hon_status view_place(hon_vm *vm, const char *word, const char *where, hon_value *out)
{
    const scene *sc = vm->sc;
    if (!sc) {
        session_report(vm, E_NO_BOARD, where, "no board is loaded");
        return HON_ERR_NOT_FOUND;
    }
    bool dollar = word[0] == '$', at = word[0] == '@';
    const char *s = word + (dollar || at);
    int32_t u = *s && !at ? scene_unit(sc, s) : -1;
    if (u >= 0) {
        *out = (hon_value){ HON_V_UNIT, u };
        return HON_OK;
    }
    int x, y;
    if (dollar || !*s || geo_parse_xy(s, strlen(s), &x, &y) != GEO_OK) {
        if (dollar && *s)
            session_no_unit(vm, where, s);
        else
            session_report(vm, E_NO_PLACE, where,
                           "'%s' is neither a unit ($name or name) nor a square (@C4 or C4)", word);
        return HON_ERR_NOT_FOUND;
    }
    *out = (hon_value){ HON_V_SQUARE, HON_SQUARE(x, y) };
    if (scene_square(sc, out->i) < 0) {
        char last[16];
        geo_format_xy(sc->g->w - 1, sc->g->h - 1, last, sizeof last);
        session_report(vm, E_OFF_BOARD, where, "square %s is off the board (A1 to %s)", s, last);
        return HON_ERR_NOT_FOUND;
    }
    return HON_OK;
}

/* A line's end as a board square: a place (view_place), a unit standing for its square (E217
 * when it is not on the board). Reports and returns -1 when it is none. */
static int endpoint(hon_vm *vm, const char *spec)
{
    hon_value v;
    if (view_place(vm, spec, "<draw>", &v) != HON_OK)
        return -1;
    if (v.kind == HON_V_SQUARE)
        return scene_square(vm->sc, v.i);
    int s0, s1;
    if (board_unit_squares(vm->sc->b, (int)v.i, &s0, &s1))
        return s0;
    session_report(vm, E_OFF_BOARD, "<draw>", "unit %s is not on the board", spec);
    return -1;
}

/* What the board's units and elements show besides their names, named from the program's
 * `marker` and `face` enums for draw.h: by unit id its markers ("suppressed, pinned x2") and
 * its face, by element id its face, NULL where there is nothing or the face is the default
 * (RES_FACE_NONE). The strings and arrays are new (shown_free); false on OOM. */
typedef struct shown {
    /* by terrain, side-feature and army (side) id: the scenario's `colour` line, else the
     * rules' `colour`, else NULL (draw.h's palette); borrowed strings */
    const char **terrain_colours, **side_colours, **army_colours;
    size_t n_terrain_colours, n_side_colours, n_army_colours;
    int *armies;                /* nunits: the side each unit fights for (-1: none) */
    char **markers;             /* nunits, owned strings */
    const char **unit_faces;    /* nunits, borrowed names */
    const char **element_faces; /* nelements, borrowed names */
    char **element_markers;     /* nelements, owned strings: markers, then named values */
    size_t nunits, nelements;
} shown;

static void shown_free(shown *w)
{
    for (size_t i = 0; w->markers && i < w->nunits; i++)
        mem_free(w->markers[i]);
    mem_free(w->markers);
    for (size_t i = 0; w->element_markers && i < w->nelements; i++)
        mem_free(w->element_markers[i]);
    mem_free(w->element_markers);
    mem_free(w->unit_faces);
    mem_free(w->element_faces);
    mem_free(w->terrain_colours);
    mem_free(w->side_colours);
    mem_free(w->army_colours);
    mem_free(w->armies);
    memset(w, 0, sizeof *w);
}

static const char *face_name(const res_program *p, int32_t f)
{
    const res_enum *e = &p->enums[E_FACE];
    return f != RES_FACE_NONE && f >= 0 && (size_t)f < e->len ? e->members[f].name : NULL;
}

/* Element e's markers ("destruction x2") then its named values ("structure_points=4"), joined
 * by ", ", as a new string in *out (NULL when it has none); false on OOM. */
static bool element_text(const res_program *p, const board *b, int e, char **out)
{
    const res_enum *me = &p->enums[E_MARKER];
    board_feature f[32];
    strbuf t = { 0 };
    size_t n = board_features(b, BOARD_AT_ELEMENT_MARKER, e, f, 32);
    for (size_t i = 0; i < n && i < 32; i++) {
        sb_printf(&t, "%s%s", t.len ? ", " : "",
                  (size_t)f[i].id < me->len ? me->members[f[i].id].name : "?");
        if (f[i].value > 1)
            sb_printf(&t, " x%d", f[i].value);
    }
    n = board_features(b, BOARD_AT_ELEMENT_VALUE, e, f, 32);
    for (size_t i = 0; i < n && i < 32; i++)
        sb_printf(&t, "%s%s=%d", t.len ? ", " : "",
                  (size_t)f[i].id < p->nslots ? p->slots[f[i].id].name : "?", f[i].value);
    *out = NULL;
    if (t.len == 0)
        return !t.oom;
    *out = sb_take(&t);
    return *out != NULL;
}

/* The colours of enum e's members (*n of them, new array; NULL on OOM): the scenario's
 * (given[0..ngiven)) where it names one, else the rules' declared colour, else NULL. So a
 * terrain looks the same on every board of one set of rules unless a scenario says otherwise. */
static const char **colours_of(const res_enum *e, char *const *given, size_t ngiven, size_t *n)
{
    *n = e->len > ngiven ? e->len : ngiven;
    const char **c = mem_calloc(*n ? *n : 1, sizeof *c);
    for (size_t i = 0; c && i < *n; i++)
        c[i] = i < ngiven && given[i] ? given[i] : i < e->len ? e->members[i].colour : NULL;
    return c;
}

static bool shown_build(const hon_vm *vm, shown *w)
{
    const res_program *p = vm->pg->res;
    const scene *sc = vm->sc;
    const res_enum *me = &p->enums[E_MARKER];
    memset(w, 0, sizeof *w);
    w->nunits = sc->units->len;
    w->nelements = sc->nelement_faces;
    w->markers = mem_calloc(w->nunits ? w->nunits : 1, sizeof *w->markers);
    w->unit_faces = mem_calloc(w->nunits ? w->nunits : 1, sizeof *w->unit_faces);
    w->element_faces = mem_calloc(w->nelements ? w->nelements : 1, sizeof *w->element_faces);
    w->element_markers = mem_calloc(w->nelements ? w->nelements : 1, sizeof *w->element_markers);
    const scenario *s = sc->scn;
    w->terrain_colours = colours_of(&p->enums[E_TERRAIN], s->terrain_colours, s->n_terrain_colours,
                                    &w->n_terrain_colours);
    w->side_colours = colours_of(&p->enums[E_SIDE_FEATURE], s->side_colours, s->n_side_colours,
                                 &w->n_side_colours);
    w->army_colours =
        colours_of(&p->enums[E_SIDE], s->army_colours, s->n_army_colours, &w->n_army_colours);
    w->armies = mem_calloc(w->nunits ? w->nunits : 1, sizeof *w->armies);
    if (!w->markers || !w->unit_faces || !w->element_faces || !w->element_markers ||
        !w->terrain_colours || !w->side_colours || !w->army_colours || !w->armies) {
        shown_free(w);
        return false;
    }
    for (size_t u = 0; u < w->nunits; u++) {
        w->armies[u] = sc->units->units[u].side;
        if (u < sc->nunit_faces)
            w->unit_faces[u] = face_name(p, sc->unit_faces[u]);
        size_t len = 0;
        for (uint32_t m = 0; m < sc->units->n_markers && m < me->len; m++) {
            uint32_t k = unit_marker_count(sc->units, (int32_t)u, m);
            if (k > 0)
                len += strlen(me->members[m].name) + 2 + (k > 1 ? 12 : 0);
        }
        if (len == 0)
            continue;
        char *t = mem_malloc(len + 1);
        if (!t) {
            shown_free(w);
            return false;
        }
        size_t at = 0;
        t[0] = '\0';
        for (uint32_t m = 0; m < sc->units->n_markers && m < me->len; m++) {
            uint32_t k = unit_marker_count(sc->units, (int32_t)u, m);
            if (k == 0)
                continue;
            at +=
                (size_t)snprintf(t + at, len + 1 - at, "%s%s", at ? ", " : "", me->members[m].name);
            if (k > 1)
                at += (size_t)snprintf(t + at, len + 1 - at, " x%" PRIu32, k);
        }
        w->markers[u] = t;
    }
    for (size_t e = 0; e < w->nelements; e++) {
        w->element_faces[e] = face_name(p, sc->element_faces[e]);
        if (!element_text(p, sc->b, (int)e, &w->element_markers[e])) {
            shown_free(w);
            return false;
        }
    }
    return true;
}

hon_status view_draw(hon_vm *vm, FILE *out, const char *from, const char *to, bool svg,
                     const char *marks, const char *marks_key, const view_verdict *verdict)
{
    return view_draw_in(vm, out, from, to, svg, marks, marks_key, verdict, NULL);
}

hon_status view_draw_in(hon_vm *vm, FILE *out, const char *from, const char *to, bool svg,
                        const char *marks, const char *marks_key, const view_verdict *verdict,
                        const view_window *win)
{
    if (!vm || !out)
        return HON_ERR_NOT_FOUND;
    if (!vm->sc) {
        session_report(vm, E_NO_BOARD, "<board>", "no board is loaded");
        return HON_ERR_NOT_FOUND;
    }
    const scenario *s = vm->sc->scn;
    draw_options o = { .symbols = s->symbols,
                       .symbol_terrain = s->symbol_terrain,
                       .title = s->title,
                       .marks = marks,
                       .marks_key = marks_key };
    if (win && win->centre) {
        o.centre = endpoint(vm, win->centre);
        if (o.centre < 0)
            return HON_ERR_NOT_FOUND;
        o.centred = true;
        if (win->corner) {
            o.corner[0] = o.centre;
            o.corner[1] = endpoint(vm, win->corner);
            if (o.corner[1] < 0)
                return HON_ERR_NOT_FOUND;
            o.window = true;
            o.centred = false;
        }
    }
    o.columns = win ? win->columns : 0;
    geo_trace tr = { 0 };
    if (from && to) {
        int a = endpoint(vm, from), b = a >= 0 ? endpoint(vm, to) : -1;
        if (a < 0 || b < 0)
            return HON_ERR_NOT_FOUND;
        geo_status gs = geo_trace_line(vm->sc->g, a, b, &tr);
        if (gs == GEO_ENOMEM)
            return HON_ERR_MEMORY;
        if (gs == GEO_OK)
            o.trace = &tr;
        if (gs == GEO_OK && verdict) {
            o.verdict = verdict->caption;
            o.decided_at = (draw_at)verdict->at_kind;
            o.decided = verdict->at;
            o.past = verdict->past;
        }
    }
    shown w;
    if (!shown_build(vm, &w)) {
        geo_trace_free(&tr);
        return HON_ERR_MEMORY;
    }
    o.terrain_colours = w.terrain_colours;
    o.n_terrain_colours = w.n_terrain_colours;
    o.side_colours = w.side_colours;
    o.n_side_colours = w.n_side_colours;
    o.unit_armies = w.armies;
    o.n_unit_armies = w.nunits;
    o.army_colours = w.army_colours;
    o.n_army_colours = w.n_army_colours;
    o.unit_markers = (const char *const *)w.markers;
    o.n_unit_markers = w.nunits;
    o.unit_faces = w.unit_faces;
    o.n_unit_faces = w.nunits;
    o.element_faces = w.element_faces;
    o.n_element_faces = w.nelements;
    o.element_markers = (const char *const *)w.element_markers;
    o.n_element_markers = w.nelements;
    geo_status gs = svg ? draw_svg(vm->sc->b, &o, out) : draw_text(vm->sc->b, &o, out);
    shown_free(&w);
    geo_trace_free(&tr);
    if (gs == GEO_ETOPO) {
        session_report(vm, E_TOPOLOGY, vm->board_path, "hex boards are not drawn yet");
        return HON_ERR_NOT_FOUND;
    }
    return gs == GEO_OK ? HON_OK : gs == GEO_ENOMEM ? HON_ERR_MEMORY : HON_ERR_IO;
}
