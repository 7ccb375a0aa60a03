/* session.c — the hon_vm itself (see session.h): new and free, diagnostics, the active edition
 * and readings (chosen in choice.c, kept by name across reloads), the set-up of every
 * evaluation and the mapping of its errors, compiling typed text, the game on the board, and
 * the answers (hon_answer_*) with the setting they were given under.
 */
#include "session.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "file.h"
#include "mem.h"
#include "resolve.h"

#define MAX_SOURCE_BYTES   ((size_t)64 << 20)
#define DEFAULT_MAX_MEMORY ((size_t)1 << 30) /* hon_config.max_memory's default: 1 GiB */
#define MIN_MAX_MEMORY     ((size_t)1 << 20) /* a smaller cap could not even load the rules */
#define MAX_MAX_DEPTH      1000u /* each level of calls takes C stack (calls.c's vm_call_query) */

/* The message of E230, into buf. */
static void cap_message(char *buf, size_t n)
{
    size_t cap = mem_cap();
    snprintf(buf, n,
             "the session's memory cap (%zu MiB) was reached: set a larger one with "
             "--max-memory or `limit memory N`",
             cap >> 20);
}

/* ---- diagnostics ---- */

void session_emit(hon_vm *vm, diag_list *dl)
{
    for (size_t i = 0; i < dl->len; i++) {
        diag *d = &dl->items[i];
        char capped[160];
        char *message = d->message;
        if ((d->code == E_LIMIT || d->code == E_MEMORY) && mem_cap_hit()) {
            cap_message(capped, sizeof capped);
            d->code = E_MEMORY_CAP;
            d->message = capped;
            mem_cap_clear();
        }
        char *rendered = NULL;
        size_t rlen = 0;
        FILE *mem = open_memstream(&rendered, &rlen);
        if (mem) {
            diag_render(dl, d, mem);
            fclose(mem);
        }
        const char *path =
            d->loc.file < vm->sources.len ? vm->sources.files[d->loc.file].path : "<unknown>";
        hon_diag hd = {
            .code = d->code,
            .severity = d->severity == DIAG_ERROR     ? HON_ERROR
                        : d->severity == DIAG_WARNING ? HON_WARNING
                                                      : HON_NOTE,
            .path = path,
            .line = d->loc.line,
            .col = d->loc.col,
            .end_line = d->loc.end_line ? d->loc.end_line : d->loc.line,
            .end_col = d->loc.end_line ? d->loc.end_col : d->loc.col,
            .message = d->message ? d->message : "",
            .rendered = rendered ? rendered : (d->message ? d->message : ""),
        };
        if (vm->cfg.on_diag)
            vm->cfg.on_diag(vm->cfg.userdata, &hd);
        else
            fputs(hd.rendered, stderr);
        free(rendered); /* open_memstream's buffer comes from malloc */
        d->message = message;
    }
    diag_list_clear(dl);
}

/* Reports the message fmt/ap with error code at loc. */
static void report_v(hon_vm *vm, int code, ast_loc loc, const char *fmt, va_list ap)
{
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    diag_vreport(&dl, code, DIAG_ERROR, loc, fmt, ap); /* whole, then shortened: diag_shorten */
    session_emit(vm, &dl);
}

void session_report(hon_vm *vm, int code, const char *path, const char *fmt, ...)
{
    uint32_t id = diag_sources_add(&vm->sources, path ? path : "<board>", "", 0);
    va_list ap;
    va_start(ap, fmt);
    report_v(vm, code, (ast_loc){ .file = id == UINT32_MAX ? 0 : id }, fmt, ap);
    va_end(ap);
    session_forget_source(vm, id);
}

void session_forget_source(hon_vm *vm, uint32_t id)
{
    if (id != UINT32_MAX && id + 1 == vm->sources.len)
        diag_sources_trim(&vm->sources, id);
}

void session_no_unit(hon_vm *vm, const char *path, const char *bare)
{
    const char *near = scene_unit_near(vm->sc, bare);
    session_report(vm, E_NO_UNIT, path, "the board has no unit `$%s`%s%s%s", bare,
                   near ? " (did you mean `$" : "", near ? near : "", near ? "`?)" : "");
}

void session_report_at(hon_vm *vm, int code, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_v(vm, code, loc, fmt, ap);
    va_end(ap);
}

hon_status session_error(hon_vm *vm, bool undone)
{
    vm_error *e = &vm->x.err;
    if (undone) {
        size_t n = strlen(e->msg);
        snprintf(e->msg + n, sizeof e->msg - n, " (the procedure was undone: nothing changed)");
    }
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    diag *dg = diag_report(&dl, e->code, DIAG_ERROR, e->loc, "%s", e->msg);
    if (dg && e->surfaced.line) /* placed under the user's argument (state_blame) */
        diag_relate(dg, e->surfaced, "the rules met it here, in %s", e->surfaced_in);
    session_emit(vm, &dl);
    return e->code == E_MEMORY ? HON_ERR_MEMORY : HON_ERR_RUNTIME;
}

/* ---- caps ---- */

void session_cap_begin(const hon_vm *vm)
{
    mem_cap_start(vm->cfg.max_memory ? vm->cfg.max_memory : DEFAULT_MAX_MEMORY);
}

hon_status session_cap_report(hon_vm *vm, hon_status st, const char *path)
{
    if (!mem_cap_hit())
        return st;
    mem_cap_clear();
    char msg[160];
    cap_message(msg, sizeof msg);
    if (!path)
        path = "<repl>";
    uint32_t id = vm->sources.len; /* the file's text when it is registered, to quote */
    while (id > 0 && strcmp(vm->sources.files[id - 1].path, path) != 0)
        id--;
    id = id ? id - 1 : diag_sources_add(&vm->sources, path, "", 0);
    ast_loc at = { .file = id == UINT32_MAX ? 0 : id, .line = 1, .col = 1 };
    session_report_at(vm, E_MEMORY_CAP, at, "%s", msg);
    return HON_ERR_MEMORY;
}

hon_status hon_set_cap(hon_vm *vm, hon_cap which, uint64_t value)
{
    if (!vm)
        return HON_ERR_NOT_FOUND;
    switch (which) {
    case HON_CAP_STEPS: vm->cfg.step_budget = value; break;
    case HON_CAP_DEPTH:
        if (value > MAX_MAX_DEPTH)
            return HON_ERR_NOT_FOUND;
        vm->cfg.max_depth = (unsigned)value;
        break;
    case HON_CAP_LIST:
        if (value > SIZE_MAX / 2)
            return HON_ERR_NOT_FOUND;
        vm->cfg.max_list = (size_t)value;
        break;
    case HON_CAP_MEMORY:
        if (value && (value < MIN_MAX_MEMORY || value > SIZE_MAX / 2))
            return HON_ERR_NOT_FOUND;
        vm->cfg.max_memory = (size_t)value;
        session_cap_begin(vm);
        break;
    default: return HON_ERR_NOT_FOUND;
    }
    vm->setup_ok = false; /* session_setup's cache holds the caps */
    return HON_OK;
}

hon_status hon_build_lazily(hon_vm *vm, bool lazily)
{
    if (!vm)
        return HON_ERR_NOT_FOUND;
    vm->lazy = lazily;
    return HON_OK;
}

uint64_t hon_cap_value(const hon_vm *vm, hon_cap which)
{
    if (!vm)
        return 0;
    const hon_config *c = &vm->cfg;
    switch (which) {
    case HON_CAP_STEPS: return c->step_budget ? c->step_budget : VM_DEFAULT_BUDGET;
    case HON_CAP_DEPTH: return c->max_depth ? c->max_depth : VM_DEFAULT_DEPTH;
    case HON_CAP_LIST: return c->max_list ? c->max_list : VM_DEFAULT_LIST;
    case HON_CAP_MEMORY: return c->max_memory ? c->max_memory : DEFAULT_MAX_MEMORY;
    }
    return 0;
}

/* ---- files ---- */

hon_status session_read_file(hon_vm *vm, const char *path, int code, char **text, size_t *len)
{
    return session_read_file_max(vm, path, code, MAX_SOURCE_BYTES, text, len);
}

static hon_status read_file(hon_vm *vm, const char *path, int code, size_t max, const ast_loc *loc,
                            char **text, size_t *len)
{
    session_cap_begin(vm);
    int err = file_read(path, max, text, len);
    if (err == ENOMEM)
        return session_cap_report(vm, HON_ERR_MEMORY, path);
    if (err) {
        if (loc)
            session_report_at(vm, code, *loc, "cannot read '%s': %s", path, file_error(err));
        else
            session_report(vm, code, path, "cannot read '%s': %s", path, file_error(err));
        return HON_ERR_IO;
    }
    return HON_OK;
}

hon_status session_read_file_max(hon_vm *vm, const char *path, int code, size_t max, char **text,
                                 size_t *len)
{
    return read_file(vm, path, code, max, NULL, text, len);
}

hon_status session_read_file_at(hon_vm *vm, const char *path, int code, ast_loc loc, char **text,
                                size_t *len)
{
    return read_file(vm, path, code, MAX_SOURCE_BYTES, &loc, text, len);
}

const char *session_source_text(const hon_vm *vm, uint32_t file, size_t *len)
{
    if (file >= vm->sources.len) {
        *len = 0;
        return NULL;
    }
    *len = vm->sources.files[file].len;
    return vm->sources.files[file].text;
}

/* ---- the vm ---- */

/* The JSON members "edition" and "readings" that session_answer last rendered, and what for:
 * the program (its serial: never reused), the edition and every variant's reading (its
 * default's where none is given). Every answer carries them, and most answers of a session
 * share them: rendering them again, some 100 strings for the bundled rules, was most of what
 * answering `1` cost (bench.md §11). */
typedef struct setting_memo {
    uint64_t serial;
    int32_t ed;
    uint32_t *readings; /* one per variant */
    size_t nreadings;
    char *json; /* NULL: nothing kept */
} setting_memo;

static void setting_forget(setting_memo *m)
{
    mem_free(m->readings);
    mem_free(m->json);
    *m = (setting_memo){ 0 };
}

hon_vm *hon_vm_new(const hon_config *cfg)
{
    hon_vm *vm = mem_calloc(1, sizeof *vm);
    if (!vm)
        return NULL;
    vm->setting = mem_calloc(1, sizeof *vm->setting);
    if (!vm->setting) {
        mem_free(vm);
        return NULL;
    }
    if (cfg)
        vm->cfg = *cfg;
    session_cap_begin(vm);
    dice_seed(&vm->dice, vm->cfg.seed);
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    vm->pg = prog_build(NULL, 0, false, false, &dl);
    diag_list_clear(&dl);
    if (!vm->pg) {
        hon_vm_free(vm);
        return NULL;
    }
    session_new_game(vm);
    return vm;
}

void hon_vm_free(hon_vm *vm)
{
    if (!vm)
        return;
    prog_free(vm->pg); /* before the parsed trees its copies share strings with */
    for (size_t i = 0; i < vm->nsrcs; i++) {
        ast_file_free(vm->srcs[i].parsed);
        mem_free(vm->srcs[i].image);
        mem_free(vm->srcs[i].path);
        mem_free(vm->srcs[i].text);
        mem_free(vm->srcs[i].real);
    }
    mem_free(vm->srcs);
    for (size_t i = 0; i < vm->nchoices; i++) {
        mem_free(vm->choices[i].variant);
        mem_free(vm->choices[i].reading);
    }
    mem_free(vm->choices);
    mem_free(vm->edition);
    state_free(&vm->x);
    proc_free(&vm->game);
    scene_free(vm->sc);
    mem_free(vm->board_path);
    mem_free(vm->board_text);
    mem_free(vm->readings);
    hon_query_handle_free(vm->los_query);
    hon_query_handle_free(vm->los_squares);
    hon_query_handle_free(vm->los_sight);
    if (vm->setting)
        setting_forget(vm->setting);
    mem_free(vm->setting);
    diag_sources_free(&vm->sources);
    mem_free(vm);
}

void hon_set_seed(hon_vm *vm, uint64_t seed)
{
    if (vm)
        dice_seed(&vm->dice, seed);
}

const char *hon_status_text(hon_status s)
{
    switch (s) {
    case HON_OK: return "ok";
    case HON_ERR_COMPILE: return "the source has errors";
    case HON_ERR_RUNTIME: return "evaluation failed";
    case HON_ERR_IO: return "the file could not be read or written";
    case HON_ERR_NOT_FOUND: return "not found";
    case HON_ERR_MEMORY: return "out of memory";
    }
    return "unknown status";
}

void hon_quote_line(FILE *out, unsigned lineno, const char *text, size_t len, size_t first,
                    size_t last)
{
    diag_quote(out, lineno, text, len, first, last);
}

size_t hon_shorten_message(char *s)
{
    return diag_shorten(s);
}

hon_status hon_read_file(const char *path, size_t max, char **text, size_t *len, const char **why)
{
    int err = file_read(path, max, text, len);
    if (why)
        *why = err ? file_error(err) : NULL;
    return err == ENOMEM ? HON_ERR_MEMORY : err ? HON_ERR_IO : HON_OK;
}

/* The writer of hon_write_file through file_write_whole's int-returning callback. */
typedef struct write_job {
    hon_status (*write)(FILE *f, void *ud);
    void *ud;
} write_job;

static int write_job_run(FILE *f, void *ud)
{
    write_job *j = ud;
    return (int)j->write(f, j->ud);
}

hon_status hon_write_file(const char *path, hon_status (*write)(FILE *f, void *ud), void *ud,
                          int *err)
{
    write_job j = { write, ud };
    int status = 0;
    int e = file_write_whole(path, write_job_run, &j, &status);
    if (err)
        *err = e;
    if (status != HON_OK && !(status == HON_ERR_IO && e))
        return (hon_status)status;
    return e ? HON_ERR_IO : HON_OK;
}

/* The picture of hon_board_svg_file, for hon_write_file. */
typedef struct svg_job {
    hon_vm *vm;
    const char *from, *to, *window;
} svg_job;

static hon_status write_svg(FILE *f, void *ud)
{
    svg_job *j = ud;
    return hon_board_svg_window(j->vm, f, j->from, j->to, j->window);
}

hon_status hon_board_svg_file(hon_vm *vm, const char *path, const char *line_from,
                              const char *line_to, int *err)
{
    return hon_board_svg_file_window(vm, path, line_from, line_to, NULL, err);
}

hon_status hon_board_svg_file_window(hon_vm *vm, const char *path, const char *line_from,
                                     const char *line_to, const char *window, int *err)
{
    svg_job j = { vm, line_from, line_to, window };
    return hon_write_file(path, write_svg, &j, err);
}

/* ---- editions and variants ---- */

int32_t session_edition(const hon_vm *vm)
{
    const res_program *p = vm->pg->res;
    if (vm->edition) {
        int32_t e = model_find_edition(p, vm->edition);
        if (e >= 0)
            return e;
    }
    return p->default_edition;
}

void session_forget_stale_setting(hon_vm *vm)
{
    const res_program *p = vm->pg->res;
    if (vm->edition && model_find_edition(p, vm->edition) < 0) {
        mem_free(vm->edition);
        vm->edition = NULL;
    }
    size_t kept = 0;
    for (size_t c = 0; c < vm->nchoices; c++) {
        bool found = false;
        for (size_t v = 0; !found && v < p->nvariants; v++)
            found =
                strcmp(vm->choices[c].variant, p->variants[v].name) == 0 &&
                model_find_member(&p->enums[p->variants[v].enum_id], vm->choices[c].reading) >= 0;
        if (found) {
            vm->choices[kept++] = vm->choices[c];
        } else {
            mem_free(vm->choices[c].variant);
            mem_free(vm->choices[c].reading);
        }
    }
    vm->nchoices = kept;
}

int32_t *session_readings(const hon_vm *vm, int32_t ed, const int32_t *overrides, bool *oom)
{
    const res_program *p = vm->pg->res;
    *oom = false;
    if (!p->nvariants)
        return NULL;
    int32_t *r = mem_malloc(p->nvariants * sizeof *r);
    if (!r) {
        *oom = true;
        return NULL;
    }
    for (size_t v = 0; v < p->nvariants; v++) {
        const res_variant *var = &p->variants[v];
        int32_t reading = (int32_t)var->dflt;
        if (ed >= 0 && p->editions[ed].variant_set && p->editions[ed].variant_set[v] >= 0)
            reading = p->editions[ed].variant_set[v];
        for (size_t c = 0; c < vm->nchoices; c++)
            if (strcmp(vm->choices[c].variant, var->name) == 0) {
                int32_t m = model_find_member(&p->enums[var->enum_id], vm->choices[c].reading);
                if (m >= 0)
                    reading = m;
            }
        if (overrides && overrides[v] >= 0)
            reading = overrides[v];
        r[v] = reading;
    }
    return r;
}

/* ---- evaluations ---- */

state_setup session_setup_with(const hon_vm *vm, const scene *sc, int32_t ed,
                               const int32_t *readings)
{
    return (state_setup){ .pg = vm->pg,
                          .sc = sc,
                          .edition = ed,
                          .readings = readings,
                          .budget = vm->cfg.step_budget,
                          .max_depth = vm->cfg.max_depth,
                          .max_list = vm->cfg.max_list };
}

/* The numbers given to the sessions' own setups (state_setup.setting), across the process. */
static uint64_t setting_numbers;

const state_setup *session_setup(hon_vm *vm)
{
    if (!vm->setup_ok || vm->setup_gen != vm->choice_gen) {
        bool oom;
        int32_t ed = session_edition(vm);
        mem_free(vm->readings);
        vm->readings = session_readings(vm, ed, NULL, &oom);
        vm->setup = session_setup_with(vm, vm->sc, ed, vm->readings);
        /* a new number each time: its program, edition or readings may have changed */
        vm->setup.setting = __atomic_add_fetch(&setting_numbers, 1, __ATOMIC_RELAXED);
        vm->setup_ok = !oom;
        vm->setup_gen = vm->choice_gen;
    }
    return vm->setup_ok ? &vm->setup : NULL;
}

hon_status session_begin_setup(hon_vm *vm, const state_setup *s, bool tracing)
{
    session_cap_begin(vm);
    if (!s) {
        /* the session's own setup (session_setup's own test first, inline: the setup made
         * last is most often still good). Its number names all of it (the board, the limits:
         * any change makes a new setup with a new number) and the dice are the session's, so
         * while no other state_begin comes after this one (x.begun) and the memo stays keyed
         * to it (memo_key is state_begin's, and a test's), the next evaluation under it may
         * start as this one did, from what state_begin sets now (session_begin, inline) */
        if (vm->setup_ok && vm->setup_gen == vm->choice_gen)
            s = &vm->setup;
        else if (!(s = session_setup(vm)))
            return HON_ERR_MEMORY;
        state_begin(&vm->x, s, &vm->dice, tracing);
        /* a memo keyed under it (state_begin: x.setting), else the next begins whole again */
        if (vm->x.setting == s->setting)
            vm->x.begun = s->setting;
        return HON_OK;
    }
    state_begin(&vm->x, s, &vm->dice, tracing);
    return HON_OK;
}

/* The diagnostics id of text typed at `where`: a recent identical text reuses its entry, so
 * evaluating the same text again and again (a benchmark, a script) does not grow the source
 * table. UINT32_MAX on OOM. */
static uint32_t typed_source(hon_vm *vm, const char *text, size_t len, const char *where)
{
    for (uint32_t i = vm->sources.len; i-- > 0 && vm->sources.len - i <= 16;)
        if (vm->sources.files[i].len == len && strcmp(vm->sources.files[i].path, where) == 0 &&
            memcmp(vm->sources.files[i].text, text, len) == 0)
            return i;
    return diag_sources_add(&vm->sources, where, text, len);
}

/* Parses, resolves and compiles text typed at `where` (NULL: "<repl>"): an expression (*type
 * gets its type), or with `procedure` a call `EVENT(args)` (comp_procedure; *type untouched).
 * On HON_OK *ch and *f are new (the caller frees both, *f even on failure); errors are
 * reported: HON_ERR_COMPILE, HON_ERR_MEMORY, HON_ERR_NOT_FOUND for a NULL vm or text. */
static hon_status compile_text(hon_vm *vm, const char *text, const char *where, bool procedure,
                               chunk **ch, ast_file **f, uint32_t *type)
{
    *ch = NULL;
    *f = NULL;
    if (!vm || !text)
        return HON_ERR_NOT_FOUND;
    if (!where)
        where = "<repl>";
    size_t len = strlen(text);
    uint32_t id = typed_source(vm, text, len, where);
    if (id == UINT32_MAX)
        return HON_ERR_MEMORY;
    return session_compile_at(vm, text, len, id, 1, procedure, false, ch, f, type);
}

hon_status session_compile_at(hon_vm *vm, const char *text, size_t len, uint32_t id, uint32_t line,
                              bool procedure, bool quiet, chunk **ch, ast_file **f, uint32_t *type)
{
    *ch = NULL;
    const char *where = id < vm->sources.len ? vm->sources.files[id].path : "<repl>";
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    ast_node *e = NULL;
    *f = front_parse_expr_at(where, text, len, id, line, &dl, &e);
    hon_status st = HON_OK;
    uint32_t nlocals = 0;
    if (!*f)
        st = HON_ERR_MEMORY;
    else if (!e || dl.errors)
        st = HON_ERR_COMPILE;
    else if (procedure && res_raise_call(vm->pg->res, e, &dl, &nlocals) < 0)
        st = HON_ERR_COMPILE;
    else if (!procedure && (*type = res_expr(vm->pg->res, e, T_NONE, &dl, &nlocals)) == T_ERROR)
        st = HON_ERR_COMPILE;
    else if (!(*ch = procedure ? comp_procedure(vm->pg->res, e, nlocals, where, &dl)
                               : comp_expr(vm->pg->res, e, nlocals, where, &dl)))
        st = HON_ERR_MEMORY;
    else if (!prog_calls_ready(vm->pg, *ch)) { /* a lazy program: the fns it calls */
        chunk_free(*ch);
        *ch = NULL;
        st = HON_ERR_MEMORY;
    }
    if (quiet)
        diag_list_clear(&dl);
    else
        session_emit(vm, &dl);
    return st;
}

hon_status session_run_text(hon_vm *vm, const char *text, const char *where, bool procedure,
                            session_run run, void *ud, hon_answer **out)
{
    if (out)
        *out = NULL;
    chunk *ch;
    ast_file *f;
    uint32_t type = T_ERROR;
    uint32_t before = vm ? vm->sources.len : 0;
    hon_status st = compile_text(vm, text, where, procedure, &ch, &f, &type);
    if (st == HON_OK)
        st = run(vm, ch, type, ud, out);
    /* The memory cap refused an allocation that no instruction reported (compiling the text,
     * rendering the answer): E230 at the text, not the program's own E406 (errors.md). */
    if (st == HON_ERR_MEMORY && vm)
        st = session_cap_report(vm, st,
                                vm->sources.len > before ? vm->sources.files[before].path : where);
    chunk_free(ch);
    ast_file_free(f);
    /* An expression's answer is rendered whole by now and its chunk is gone: nothing refers to
     * its text any more, so a session asked ever new texts does not keep them all. A
     * procedure's text stays: the game's log may name where its effects came from. */
    if (vm && !procedure && vm->sources.len == before + 1)
        session_forget_source(vm, before);
    return st;
}

/* ---- the game ---- */

static bool on_step(void *ud, const char *line)
{
    const hon_vm *vm = ud;
    return vm->cfg.on_effect(vm->cfg.userdata, line);
}

static int on_choose(void *ud, const char *question, const char *side, const char *const *options,
                     size_t n)
{
    const hon_vm *vm = ud;
    return vm->cfg.chooser(vm->cfg.userdata, question, side, options, n);
}

static void on_before_choice(void *ud, const char *lines)
{
    const hon_vm *vm = ud;
    vm->cfg.before_choice(vm->cfg.userdata, lines);
}

void session_game_start(hon_vm *vm, proc_game *gm, scene *sc)
{
    proc_init(gm, sc, (int32_t)vm->pg->res->enums[E_PHASE].len);
    gm->chooser = vm->cfg.chooser ? on_choose : NULL;
    gm->stepper = vm->cfg.on_effect ? on_step : NULL;
    gm->before_choice = vm->cfg.before_choice ? on_before_choice : NULL;
    gm->ud = vm;
}

void session_new_game(hon_vm *vm)
{
    session_game_start(vm, &vm->game, vm->sc);
    vm->x.game = &vm->game.g;
}

/* ---- answers ---- */

/* The reading of variant v under `readings` (its default when NULL or none is given). */
static uint32_t reading_of(const res_program *p, const int32_t *readings, size_t v)
{
    return readings && readings[v] >= 0 ? (uint32_t)readings[v] : p->variants[v].dflt;
}

/* Whether the setting names variant v: under `readings` it reads something else than its
 * declared default, or than edition ed (-1: none) sets it to (`set variant`, its own or an
 * ancestor's) — a reading chosen over the edition's is said even when it is the declared
 * default. */
static bool reading_changed(const res_program *p, int32_t ed, const int32_t *readings, size_t v)
{
    uint32_t r = reading_of(p, readings, v);
    const int32_t *set = ed >= 0 && (size_t)ed < p->neditions ? p->editions[ed].variant_set : NULL;
    return r != p->variants[v].dflt || (set && set[v] >= 0 && (uint32_t)set[v] != r);
}

/* The name of the reading of variant v under `readings` (its default when NULL). */
static const char *reading_name(const res_program *p, const int32_t *readings, size_t v)
{
    return p->enums[p->variants[v].enum_id].members[reading_of(p, readings, v)].name;
}

void session_setting_text(const hon_vm *vm, int32_t ed, const int32_t *readings, strbuf *b)
{
    const res_program *p = vm->pg->res;
    if (ed >= 0 && (size_t)ed < p->neditions)
        sb_printf(b, "edition %s", p->editions[ed].name);
    else
        sb_puts(b, "no edition");
    bool first = true;
    for (size_t v = 0; v < p->nvariants; v++)
        if (reading_changed(p, ed, readings, v)) {
            sb_printf(b, "%s%s = %s", first ? "; " : ", ", p->variants[v].name,
                      reading_name(p, readings, v));
            first = false;
        }
}

/* Whether (ed, readings) is the program's default edition with every reading at its default. */
static bool setting_is_plain(const res_program *p, int32_t ed, const int32_t *readings)
{
    bool plain = ed == p->default_edition;
    for (size_t v = 0; plain && v < p->nvariants; v++)
        plain = !reading_changed(p, ed, readings, v);
    return plain;
}

void session_trace_header(const hon_vm *vm, int32_t ed, const int32_t *readings, strbuf *b)
{
    if (setting_is_plain(vm->pg->res, ed, readings))
        return;
    sb_puts(b, "(under ");
    session_setting_text(vm, ed, readings, b);
    sb_puts(b, ")\n");
}

bool session_reasons(hon_vm *vm, char **why_not, char **refusal)
{
    const val_env env = { vm->pg->res, vm->x.sc, NULL,
                          model_edition_modules(vm->pg->res, vm->x.edition) };
    strbuf r = { 0 }, f = { 0 };
    session_trace_header(vm, vm->x.edition, vm->x.readings, &r);
    trace_why_not(&env, &vm->x.trace, &r);
    trace_why_not_at(&env, &vm->x.trace, trace_refusal(&env, &vm->x.trace), 1, &f);
    *why_not = sb_take(&r);
    *refusal = f.len ? sb_take(&f) : NULL;
    if (*why_not && !f.oom && (*refusal || !f.len))
        return true;
    mem_free(*why_not);
    mem_free(*refusal);
    sb_free(&f);
    *why_not = *refusal = NULL;
    return false;
}

/* `"edition": E, "readings": {"v": "r", ...}, ` : every variant's reading. */
static void setting_json(const hon_vm *vm, int32_t ed, const int32_t *readings, strbuf *b)
{
    const res_program *p = vm->pg->res;
    sb_puts(b, "\"edition\": ");
    sb_json_str(b, ed >= 0 && (size_t)ed < p->neditions ? p->editions[ed].name : NULL);
    sb_puts(b, ", \"readings\": {");
    for (size_t v = 0; v < p->nvariants; v++) {
        sb_puts(b, v ? ", " : "");
        sb_json_str(b, p->variants[v].name);
        sb_puts(b, ": ");
        sb_json_str(b, reading_name(p, readings, v));
    }
    sb_puts(b, "}, ");
}

/* setting_json, from vm->setting when it was last rendered for the same program, edition and
 * readings; kept there for the next answers otherwise (when memory allows). */
static void setting_json_kept(const hon_vm *vm, int32_t ed, const int32_t *readings, strbuf *b)
{
    const res_program *p = vm->pg->res;
    setting_memo *m = vm->setting;
    bool same =
        m->json && m->serial == vm->pg->serial && m->ed == ed && m->nreadings == p->nvariants;
    for (size_t v = 0; same && v < p->nvariants; v++)
        same = m->readings[v] == reading_of(p, readings, v);
    if (same) {
        sb_puts(b, m->json);
        return;
    }
    const size_t from = b->len;
    setting_json(vm, ed, readings, b);
    setting_forget(m);
    if (b->oom || b->truncated || !b->s)
        return;
    m->readings = mem_malloc((p->nvariants ? p->nvariants : 1) * sizeof *m->readings);
    m->json = mem_strndup(b->s + from, b->len - from);
    if (!m->readings || !m->json) {
        setting_forget(m);
        return;
    }
    for (size_t v = 0; v < p->nvariants; v++)
        m->readings[v] = reading_of(p, readings, v);
    m->nreadings = p->nvariants;
    m->serial = vm->pg->serial;
    m->ed = ed;
}

hon_answer *session_answer(const hon_vm *vm, int32_t ed, const int32_t *readings, char *text,
                           char *json, char *trace)
{
    hon_answer *a = mem_calloc(1, sizeof *a);
    strbuf setting = { 0 }, j = { 0 };
    if (a && text && json && trace && json[0] == '{') {
        session_setting_text(vm, ed, readings, &setting);
        sb_putc(&j, '{');
        setting_json_kept(vm, ed, readings, &j);
        sb_puts(&j, json + 1);
    }
    char *sj = sb_take(&j), *st = sb_take(&setting);
    if (!a || !text || !json || !trace || !sj || !st) {
        mem_free(a);
        mem_free(text);
        mem_free(json);
        mem_free(trace);
        mem_free(sj);
        mem_free(st);
        return NULL;
    }
    mem_free(json);
    a->text = text;
    a->json = sj;
    a->trace = trace;
    a->setting = st;
    a->plain = setting_is_plain(vm->pg->res, ed, readings);
    return a;
}

const char *hon_answer_text(const hon_answer *a)
{
    return a ? a->text : "";
}
const char *hon_answer_json(const hon_answer *a)
{
    return a ? a->json : "null";
}
const char *hon_answer_trace(const hon_answer *a)
{
    return a ? a->trace : "";
}
const char *hon_answer_why(const hon_answer *a)
{
    return a ? (a->why ? a->why : a->trace) : "";
}
const char *hon_answer_why_not(const hon_answer *a)
{
    return a && a->why_not ? a->why_not : "";
}
const char *hon_answer_refusal(const hon_answer *a)
{
    return a && a->refusal ? a->refusal : "";
}
const char *hon_answer_note(const hon_answer *a)
{
    return a ? a->note : NULL;
}
const char *hon_answer_setting(const hon_answer *a)
{
    return a ? a->setting : "";
}

bool hon_answer_default_setting(const hon_answer *a)
{
    return !a || a->plain;
}

const char *hon_answer_fired(const hon_answer *a)
{
    return a && a->fired ? a->fired : "";
}

void hon_answer_free(hon_answer *a)
{
    if (!a)
        return;
    mem_free(a->text);
    mem_free(a->json);
    mem_free(a->trace);
    mem_free(a->why);
    mem_free(a->why_not);
    mem_free(a->refusal);
    mem_free(a->note);
    mem_free(a->setting);
    mem_free(a->fired);
    mem_free(a->fired_tree);
    mem_free(a->unreached);
    mem_free(a);
}
