/* session.c — the hon_vm itself (see session.h): new and free, diagnostics, the edition and
 * variant choice (kept by name across reloads; a whole setting at once: hon_apply_setting), the set-up of every evaluation and the mapping
 * of its errors, compiling typed text, the game on the board, and the answers (hon_answer_*).
 */
#include "session.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compile.h"
#include "mem.h"
#include "resolve.h"

#define MAX_SOURCE_BYTES ((size_t)64 << 20)

/* ---- diagnostics ---- */

void session_emit(hon_vm *vm, diag_list *dl)
{
    for (size_t i = 0; i < dl->len; i++) {
        const diag *d = &dl->items[i];
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
            .message = d->message ? d->message : "",
            .rendered = rendered ? rendered : (d->message ? d->message : ""),
        };
        if (vm->cfg.on_diag)
            vm->cfg.on_diag(vm->cfg.userdata, &hd);
        else
            fputs(hd.rendered, stderr);
        free(rendered); /* open_memstream's buffer comes from malloc */
    }
    diag_list_clear(dl);
}

/* Reports the message fmt/ap with error code at loc. */
static void report_v(hon_vm *vm, int code, ast_loc loc, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    diag_report(&dl, code, DIAG_ERROR, loc, "%s", msg);
    session_emit(vm, &dl);
}

void session_report(hon_vm *vm, int code, const char *path, const char *fmt, ...)
{
    uint32_t id = diag_sources_add(&vm->sources, path ? path : "<board>", "", 0);
    va_list ap;
    va_start(ap, fmt);
    report_v(vm, code, (ast_loc){ .file = id == UINT32_MAX ? 0 : id }, fmt, ap);
    va_end(ap);
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
    diag_report(&dl, e->code, DIAG_ERROR, e->loc, "%s", e->msg);
    session_emit(vm, &dl);
    return e->code == E_MEMORY ? HON_ERR_MEMORY : HON_ERR_RUNTIME;
}

/* ---- files ---- */

/* fopen(path, "rb"), refusing a directory (which fopen opens and fread then fails on):
 * NULL with errno set, EISDIR for a directory. */
static FILE *open_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        errno = EISDIR;
        return NULL;
    }
    return f;
}

hon_status session_read_file(hon_vm *vm, const char *path, int code, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    FILE *f = open_file(path);
    if (!f) {
        session_report(vm, code, path, "cannot read '%s': %s", path, strerror(errno));
        return HON_ERR_IO;
    }
    strbuf b = { 0 };
    char buf[8192];
    size_t n;
    bool too_big = false;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (b.len + n > MAX_SOURCE_BYTES) {
            too_big = true;
            break;
        }
        sb_putn(&b, buf, n);
    }
    bool err = ferror(f);
    int read_errno = errno ? errno : EIO;
    fclose(f);
    if (b.oom) {
        sb_free(&b);
        return HON_ERR_MEMORY;
    }
    if (err || too_big) {
        sb_free(&b);
        session_report(vm, code, path, "cannot read '%s': %s", path,
                       too_big ? "file too large" : strerror(read_errno));
        return HON_ERR_IO;
    }
    *len = b.len;
    *text = sb_take(&b);
    return *text ? HON_OK : HON_ERR_MEMORY;
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

hon_vm *hon_vm_new(const hon_config *cfg)
{
    hon_vm *vm = hon_calloc(1, sizeof *vm);
    if (!vm)
        return NULL;
    if (cfg)
        vm->cfg = *cfg;
    dice_seed(&vm->dice, vm->cfg.seed);
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    vm->pg = prog_build(NULL, 0, &dl);
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
    prog_free(vm->pg);
    for (size_t i = 0; i < vm->nsrcs; i++) {
        hon_free(vm->srcs[i].path);
        hon_free(vm->srcs[i].text);
        hon_free(vm->srcs[i].real);
    }
    hon_free(vm->srcs);
    for (size_t i = 0; i < vm->nchoices; i++) {
        hon_free(vm->choices[i].variant);
        hon_free(vm->choices[i].reading);
    }
    hon_free(vm->choices);
    hon_free(vm->edition);
    state_free(&vm->x);
    proc_free(&vm->game);
    scene_free(vm->sc);
    hon_free(vm->board_path);
    hon_free(vm->board_text);
    hon_free(vm->readings);
    hon_query_handle_free(vm->los_query);
    hon_query_handle_free(vm->los_squares);
    diag_sources_free(&vm->sources);
    hon_free(vm);
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
    case HON_ERR_IO: return "cannot read the file";
    case HON_ERR_NOT_FOUND: return "not found";
    case HON_ERR_MEMORY: return "out of memory";
    }
    return "unknown status";
}

/* ---- editions and variants ---- */

int32_t session_edition(const hon_vm *vm)
{
    const res_program *p = vm->pg->res;
    if (vm->edition) {
        int32_t e = res_find_edition(p, vm->edition);
        if (e >= 0)
            return e;
    }
    return p->default_edition;
}

int32_t *session_readings(const hon_vm *vm, int32_t ed, const int32_t *overrides, bool *oom)
{
    const res_program *p = vm->pg->res;
    *oom = false;
    if (!p->nvariants)
        return NULL;
    int32_t *r = hon_malloc(p->nvariants * sizeof *r);
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
                int32_t m = res_find_member(&p->enums[var->enum_id], vm->choices[c].reading);
                if (m >= 0)
                    reading = m;
            }
        if (overrides && overrides[v] >= 0)
            reading = overrides[v];
        r[v] = reading;
    }
    return r;
}

hon_status hon_set_edition(hon_vm *vm, const char *name)
{
    if (!vm)
        return HON_ERR_NOT_FOUND;
    if (!name || !*name) {
        hon_free(vm->edition);
        vm->edition = NULL;
        vm->choice_gen++;
        return HON_OK;
    }
    if (res_find_edition(vm->pg->res, name) < 0)
        return HON_ERR_NOT_FOUND;
    char *copy = hon_strdup(name);
    if (!copy)
        return HON_ERR_MEMORY;
    hon_free(vm->edition);
    vm->edition = copy;
    vm->choice_gen++;
    return HON_OK;
}

const char *hon_edition(const hon_vm *vm)
{
    if (!vm)
        return NULL;
    int32_t e = session_edition(vm);
    return e >= 0 ? vm->pg->res->editions[e].name : NULL;
}

void hon_each_edition(const hon_vm *vm,
                      void (*fn)(void *ud, const char *name, const char *parent, const char *title),
                      void *ud)
{
    if (!vm || !fn)
        return;
    const res_program *p = vm->pg->res;
    for (size_t i = 0; i < p->neditions; i++) {
        const res_edition *e = &p->editions[i];
        fn(ud, e->name, e->parent >= 0 ? p->editions[e->parent].name : NULL, e->title);
    }
}

hon_status hon_set_variant(hon_vm *vm, const char *variant, const char *reading)
{
    if (!vm || !variant)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    int32_t v = res_find_variant(p, variant);
    if (v < 0)
        return HON_ERR_NOT_FOUND;
    if (reading && res_find_member(&p->enums[p->variants[v].enum_id], reading) < 0)
        return HON_ERR_NOT_FOUND;
    vm->choice_gen++;
    for (size_t c = 0; c < vm->nchoices; c++)
        if (strcmp(vm->choices[c].variant, variant) == 0) {
            if (!reading) { /* back to the default */
                hon_free(vm->choices[c].variant);
                hon_free(vm->choices[c].reading);
                vm->choices[c] = vm->choices[--vm->nchoices];
                return HON_OK;
            }
            char *copy = hon_strdup(reading);
            if (!copy)
                return HON_ERR_MEMORY;
            hon_free(vm->choices[c].reading);
            vm->choices[c].reading = copy;
            return HON_OK;
        }
    if (!reading)
        return HON_OK;
    if (!HON_GROW(vm->choices, vm->nchoices, vm->choices_cap))
        return HON_ERR_MEMORY;
    session_choice ch = { hon_strdup(variant), hon_strdup(reading) };
    if (!ch.variant || !ch.reading) {
        hon_free(ch.variant);
        hon_free(ch.reading);
        return HON_ERR_MEMORY;
    }
    vm->choices[vm->nchoices++] = ch;
    return HON_OK;
}

/* One part of a setting: where it starts in the text and how long it is. */
typedef struct part {
    size_t at, len;
} part;

/* Where a setting's text stands: its source, line and the column of its first byte. */
typedef struct setting_at {
    uint32_t id, line, col;
} setting_at;

/* The span of part w of a setting's text standing at `at`. */
static ast_loc part_loc(setting_at at, part w)
{
    uint32_t col = at.col + (uint32_t)w.at;
    return (ast_loc){ at.id == UINT32_MAX ? 0 : at.id, at.line, col, at.line,
                      col + (w.len ? (uint32_t)w.len - 1 : 0) };
}

hon_status hon_apply_setting(hon_vm *vm, const char *setting, const char *where)
{
    if (!vm || !setting)
        return HON_ERR_NOT_FOUND;
    uint32_t id =
        diag_sources_add(&vm->sources, where ? where : "<setting>", setting, strlen(setting));
    return session_apply_setting_at(vm, setting, id, 1, 1);
}

hon_status session_apply_setting_at(hon_vm *vm, const char *setting, uint32_t file, uint32_t line,
                                    uint32_t col)
{
    size_t len = strlen(setting);
    const setting_at pos = { file, line, col };
    const res_program *p = vm->pg->res;
    char name[256], reading[256];
    part ed = { 0, strcspn(setting, ",") };
    bool ok = true;
    snprintf(name, sizeof name, "%.*s", (int)ed.len, setting);
    if (ed.len && res_find_edition(p, name) < 0) {
        session_report_at(vm, E_SETTING_EDITION, part_loc(pos, ed), "no edition named '%s'", name);
        ok = false;
    }
    /* every NAME=READING is checked before anything changes */
    for (size_t at = ed.len; ok && at < len;) {
        part item = { at + 1, strcspn(setting + at + 1, ",") };
        const char *eq = memchr(setting + item.at, '=', item.len);
        part v = { item.at, eq ? (size_t)(eq - setting) - item.at : item.len };
        part r = { v.at + v.len + 1, eq ? item.len - v.len - 1 : 0 };
        at = item.at + item.len;
        snprintf(name, sizeof name, "%.*s", (int)v.len, setting + v.at);
        snprintf(reading, sizeof reading, "%.*s", (int)r.len, setting + r.at);
        int32_t var = v.len ? res_find_variant(p, name) : -1;
        if (!eq || !v.len || !r.len)
            session_report_at(vm, E_SETTING_SYNTAX, part_loc(pos, item),
                              "a setting is EDITION,NAME=READING,...: '%.*s' is not NAME=READING",
                              (int)item.len, setting + item.at);
        else if (var < 0)
            session_report_at(vm, E_SETTING_VARIANT, part_loc(pos, v), "no variant named '%s'",
                              name);
        else if (res_find_member(&p->enums[p->variants[var].enum_id], reading) < 0)
            session_report_at(vm, E_SETTING_READING, part_loc(pos, r),
                              "variant %s has no reading '%s'", name, reading);
        else
            continue;
        ok = false;
    }
    if (!ok)
        return HON_ERR_NOT_FOUND;
    for (size_t c = 0; c < vm->nchoices; c++) {
        hon_free(vm->choices[c].variant);
        hon_free(vm->choices[c].reading);
    }
    vm->nchoices = 0;
    vm->choice_gen++;
    snprintf(name, sizeof name, "%.*s", (int)ed.len, setting);
    hon_status st = hon_set_edition(vm, name);
    for (size_t at = ed.len; st == HON_OK && at < len;) {
        size_t n = strcspn(setting + at + 1, ","), k = strcspn(setting + at + 1, "=");
        snprintf(name, sizeof name, "%.*s", (int)k, setting + at + 1);
        snprintf(reading, sizeof reading, "%.*s", (int)(n - k - 1), setting + at + k + 2);
        st = hon_set_variant(vm, name, reading);
        at += n + 1;
    }
    return st;
}

void hon_each_variant(const hon_vm *vm,
                      void (*fn)(void *ud, const char *variant, const char *reading,
                                 const char *doc),
                      void *ud)
{
    if (!vm || !fn)
        return;
    const res_program *p = vm->pg->res;
    bool oom;
    int32_t *r = session_readings(vm, session_edition(vm), NULL, &oom);
    for (size_t v = 0; v < p->nvariants; v++) {
        const res_variant *var = &p->variants[v];
        uint32_t m = r ? (uint32_t)r[v] : var->dflt;
        fn(ud, var->name, p->enums[var->enum_id].members[m].name, var->doc);
    }
    hon_free(r);
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
                          .max_depth = vm->cfg.max_depth };
}

const state_setup *session_setup(hon_vm *vm)
{
    if (!vm->setup_ok || vm->setup_gen != vm->choice_gen) {
        bool oom;
        int32_t ed = session_edition(vm);
        hon_free(vm->readings);
        vm->readings = session_readings(vm, ed, NULL, &oom);
        vm->setup = session_setup_with(vm, vm->sc, ed, vm->readings);
        vm->setup_ok = !oom;
        vm->setup_gen = vm->choice_gen;
    }
    return vm->setup_ok ? &vm->setup : NULL;
}

hon_status session_begin(hon_vm *vm, const state_setup *s, bool tracing)
{
    if (!s && !(s = session_setup(vm)))
        return HON_ERR_MEMORY;
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

hon_status session_compile(hon_vm *vm, const char *text, const char *where, bool procedure,
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
    hon_status st = session_compile(vm, text, where, procedure, &ch, &f, &type);
    if (st == HON_OK)
        st = run(vm, ch, type, ud, out);
    chunk_free(ch);
    ast_file_free(f);
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

void session_game_start(hon_vm *vm, proc_game *gm, scene *sc)
{
    proc_init(gm, sc, (int32_t)vm->pg->res->enums[E_PHASE].len);
    gm->chooser = vm->cfg.chooser ? on_choose : NULL;
    gm->stepper = vm->cfg.on_effect ? on_step : NULL;
    gm->ud = vm;
}

void session_new_game(hon_vm *vm)
{
    session_game_start(vm, &vm->game, vm->sc);
    vm->x.game = &vm->game.g;
}

/* ---- answers ---- */

hon_answer *session_answer(char *text, char *json, char *trace)
{
    hon_answer *a = hon_calloc(1, sizeof *a);
    if (!a || !text || !json || !trace) {
        hon_free(a);
        hon_free(text);
        hon_free(json);
        hon_free(trace);
        return NULL;
    }
    a->text = text;
    a->json = json;
    a->trace = trace;
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
const char *hon_answer_note(const hon_answer *a)
{
    return a ? a->note : NULL;
}
const char *hon_answer_fired(const hon_answer *a)
{
    return a && a->fired ? a->fired : "";
}

void hon_answer_free(hon_answer *a)
{
    if (!a)
        return;
    hon_free(a->text);
    hon_free(a->json);
    hon_free(a->trace);
    hon_free(a->why);
    hon_free(a->note);
    hon_free(a->fired);
    hon_free(a->fired_tree);
    hon_free(a);
}
