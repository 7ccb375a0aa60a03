/* api.c — the embedding API of include/hon.h over the front end, resolver, compiler and VM.
 *
 * A hon_vm keeps the text of every loaded source. Loading is all or nothing: every load
 * re-parses, re-resolves and recompiles all sources plus the new ones into a fresh prog, and
 * swaps it in only when there was no error. The chosen edition and variant readings are kept
 * by name, so they survive reloads while the names exist; so does the board (a scene, scene.h),
 * rebuilt from its text against each new program. Diagnostics of every stage, the scenario's
 * E3xx included, reach the caller through hon_config.on_diag (or stderr), rendered by
 * dsl/diag.c.
 */
/* realpath() (the identity of a loaded file) is XSI: glibc declares it with _XOPEN_SOURCE. */
#define _XOPEN_SOURCE 700
#include "hon.h"

#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "compile.h"
#include "draw.h"
#include "front.h"
#include "mem.h"
#include "odds.h"
#include "program.h"
#include "vm.h"

#define MAX_SOURCE_BYTES ((size_t)64 << 20)
#define ANSWER_MAX ((size_t)1 << 20)     /* bytes of an answer's printed value */

typedef struct source {
    char *path;
    char *text;
    size_t len;
    uint32_t file_id;
    char *real;         /* a file's canonical path (realpath), which says whether two spellings
                           name the same file; NULL for a text source or if unknown */
} source;

typedef struct choice {
    char *variant;
    char *reading;
} choice;

struct hon_vm {
    hon_config cfg;
    diag_sources sources;
    source *srcs;
    size_t nsrcs, srcs_cap;
    prog *pg;               /* never NULL once created */
    char *edition;          /* chosen edition, or NULL for the program's default */
    choice *choices;
    size_t nchoices, choices_cap;
    dice_src dice;
    vm_ctx x;
    /* the board: its scene (NULL: none), and the file and text it was loaded from */
    scene *sc;
    char *board_path;
    char *board_text;
    size_t board_len;
    /* program generation (bumped by every kept load) and choice generation (also bumped by
     * edition and variant changes): hon_call_query's caches are valid while they match */
    uint64_t prog_gen, choice_gen;
    int32_t *call_readings;
    uint64_t call_readings_gen;
    bool call_readings_ok;
    /* storage for hon_query_info_of's type names */
    char info_types[17][128];
    /* the game played on the board (language.md §6): the clock, the effect log and its
     * history for `undo`; restarted whenever the rules or the board are (re)loaded */
    play game;
};

struct hon_query_handle {
    char *name;
    uint64_t gen;           /* prog_gen when id was looked up */
    bool is_fn;
    uint32_t id;
};

struct hon_answer {
    char *text;
    char *json;
    char *trace;
    char *why;      /* the brief trace (trace_brief), or NULL: then `trace` serves */
};

/* ---- diagnostics ---- */

static void emit_diags(hon_vm *vm, diag_list *dl)
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
        const char *path = d->loc.file < vm->sources.len ? vm->sources.files[d->loc.file].path
                                                         : "<unknown>";
        hon_diag hd = {
            .code = d->code,
            .severity = d->severity == DIAG_ERROR ? HON_ERROR
                        : d->severity == DIAG_WARNING ? HON_WARNING : HON_NOTE,
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
        free(rendered);     /* open_memstream's buffer comes from malloc */
    }
    diag_list_clear(dl);
}

/* ---- sources ---- */

static void source_free(source *s)
{
    hon_free(s->path);
    hon_free(s->text);
    hon_free(s->real);
}

/* Whether two sources are the same file: by canonical path when both have one (`x.hon`,
 * `./x.hon`, `dir/../x.hon` are one file), else by the name as given. */
static bool same_source(const source *a, const source *b)
{
    if (a->real && b->real)
        return strcmp(a->real, b->real) == 0;
    return strcmp(a->path, b->path) == 0;
}

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

/* Reports a message that is about no source position (code 0 unless given), as `path: ...`. */
static void report_plain(hon_vm *vm, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void report_plain(hon_vm *vm, int code, const char *path, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    uint32_t id = diag_sources_add(&vm->sources, path ? path : "<board>", "", 0);
    diag_report(&dl, code, DIAG_ERROR, (ast_loc){ .file = id == UINT32_MAX ? 0 : id }, "%s",
                msg);
    emit_diags(vm, &dl);
}

/* Reads the whole file at `path` into a new NUL-terminated buffer (*text, free with hon_free;
 * *len bytes). A file that cannot be read (missing, a directory, larger than
 * MAX_SOURCE_BYTES) is reported with error `code` as `hon: error: cannot read …` and gives
 * HON_ERR_IO; HON_ERR_MEMORY when memory runs out. Shared by rule files and boards. */
static hon_status read_whole_file(hon_vm *vm, const char *path, int code, char **text,
                                  size_t *len)
{
    *text = NULL;
    *len = 0;
    FILE *f = open_file(path);
    if (!f) {
        report_plain(vm, code, path, "cannot read '%s': %s", path, strerror(errno));
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
        report_plain(vm, code, path, "cannot read '%s': %s", path,
                     too_big ? "file too large" : strerror(read_errno));
        return HON_ERR_IO;
    }
    *len = b.len;
    *text = sb_take(&b);
    return *text ? HON_OK : HON_ERR_MEMORY;
}

/* Reads a whole file into a new source (path and text copied). */
static hon_status read_source(hon_vm *vm, const char *path, source *out)
{
    *out = (source){ 0 };
    char *text;
    size_t len;
    hon_status st = read_whole_file(vm, path, 0, &text, &len);
    if (st != HON_OK)
        return st;
    out->len = len;
    out->text = text;
    out->path = hon_strdup(path);
    if (!out->text || !out->path) {
        source_free(out);
        return HON_ERR_MEMORY;
    }
    char *real = realpath(path, NULL);      /* malloc'd by libc; without it, names compare */
    if (real) {
        out->real = hon_strdup(real);
        free(real);
    }
    return HON_OK;
}

static void rebind_board(hon_vm *vm);
static void new_game(hon_vm *vm);
static void game_start(hon_vm *vm, play *g, scene *sc);

/* Builds a program from every loaded source plus `extra` (new sources, registered here). An
 * extra that is a file already loaded (same_source) replaces it in place (a reload); the others
 * come after, in order. keep: on success swap the program in and take ownership of the
 * extras; else discard it. The extras are freed by this function unless they were kept. */
static hon_status rebuild(hon_vm *vm, source *extra, size_t nextra, bool keep)
{
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    hon_status st = HON_OK;
    size_t n = vm->nsrcs;
    const source **list = hon_calloc(vm->nsrcs + nextra + 1, sizeof *list);
    ptrdiff_t *replaces = hon_calloc(nextra + 1, sizeof *replaces);
    if (!list || !replaces)
        st = HON_ERR_MEMORY;
    for (size_t i = 0; st == HON_OK && i < vm->nsrcs; i++)
        list[i] = &vm->srcs[i];
    for (size_t e = 0; st == HON_OK && e < nextra; e++) {
        extra[e].file_id = diag_sources_add(&vm->sources, extra[e].path, extra[e].text,
                                            extra[e].len);
        if (extra[e].file_id == UINT32_MAX)
            st = HON_ERR_MEMORY;
        replaces[e] = -1;
        for (size_t i = 0; i < vm->nsrcs; i++)
            if (same_source(&vm->srcs[i], &extra[e]))
                replaces[e] = (ptrdiff_t)i;
        if (replaces[e] >= 0)
            list[replaces[e]] = &extra[e];
        else
            list[n++] = &extra[e];
    }
    ast_file **files = st == HON_OK ? hon_calloc(n ? n : 1, sizeof *files) : NULL;
    if (!files)
        st = HON_ERR_MEMORY;
    for (size_t i = 0; st == HON_OK && i < n; i++) {
        files[i] = front_parse_file(list[i]->path, list[i]->text, list[i]->len,
                                    list[i]->file_id, &dl);
        if (!files[i])
            st = HON_ERR_MEMORY;
    }
    if (st == HON_OK && dl.errors)
        st = HON_ERR_COMPILE;
    prog *pg = NULL;
    if (st == HON_OK) {
        pg = prog_build(files, n, &dl);     /* takes the files */
        files = NULL;
        if (!pg)
            st = HON_ERR_COMPILE;
    } else if (files) {
        for (size_t i = 0; i < n; i++)
            ast_file_free(files[i]);
        hon_free(files);
    }
    emit_diags(vm, &dl);
    if (st == HON_OK && keep && n > vm->srcs_cap) {
        size_t cap = n + 8;
        source *srcs = hon_realloc(vm->srcs, cap * sizeof *srcs);
        if (!srcs) {
            st = HON_ERR_MEMORY;
        } else {
            vm->srcs = srcs;
            vm->srcs_cap = cap;
        }
    }
    if (st == HON_OK && keep) {
        for (size_t e = 0; e < nextra; e++) {
            if (replaces[e] >= 0) {
                source_free(&vm->srcs[replaces[e]]);
                vm->srcs[replaces[e]] = extra[e];
            } else {
                vm->srcs[vm->nsrcs++] = extra[e];
            }
        }
        prog_free(vm->pg);
        vm->pg = pg;
        pg = NULL;
        vm->prog_gen++;
        vm->choice_gen++;
        rebind_board(vm);
        new_game(vm);
    } else {
        for (size_t e = 0; e < nextra; e++)
            source_free(&extra[e]);
    }
    prog_free(pg);
    hon_free(list);
    hon_free(replaces);
    return st;
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
    new_game(vm);
    return vm;
}

void hon_vm_free(hon_vm *vm)
{
    if (!vm)
        return;
    prog_free(vm->pg);
    for (size_t i = 0; i < vm->nsrcs; i++)
        source_free(&vm->srcs[i]);
    hon_free(vm->srcs);
    for (size_t i = 0; i < vm->nchoices; i++) {
        hon_free(vm->choices[i].variant);
        hon_free(vm->choices[i].reading);
    }
    hon_free(vm->choices);
    hon_free(vm->edition);
    vm_ctx_free(&vm->x);
    play_free(&vm->game);
    scene_free(vm->sc);
    hon_free(vm->board_path);
    hon_free(vm->board_text);
    hon_free(vm->call_readings);
    diag_sources_free(&vm->sources);
    hon_free(vm);
}

hon_status hon_load_source(hon_vm *vm, const char *name, const char *text, size_t len)
{
    if (!vm || !text)
        return HON_ERR_NOT_FOUND;
    source s = { .path = hon_strdup(name ? name : "<source>"), .text = hon_strndup(text, len),
                 .len = len };
    if (!s.path || !s.text) {
        source_free(&s);
        return HON_ERR_MEMORY;
    }
    return rebuild(vm, &s, 1, true);
}

hon_status hon_load_file(hon_vm *vm, const char *path)
{
    if (!vm || !path)
        return HON_ERR_NOT_FOUND;
    source s;
    hon_status st = read_source(vm, path, &s);
    if (st != HON_OK)
        return st;
    return rebuild(vm, &s, 1, true);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

hon_status hon_load_dir(hon_vm *vm, const char *dir)
{
    if (!vm || !dir)
        return HON_ERR_NOT_FOUND;
    DIR *d = opendir(dir);
    if (!d) {
        diag_list dl;
        diag_list_init(&dl, &vm->sources);
        uint32_t id = diag_sources_add(&vm->sources, dir, "", 0);
        diag_report(&dl, 0, DIAG_ERROR, (ast_loc){ .file = id },
                    "cannot open directory '%s': %s", dir, strerror(errno));
        emit_diags(vm, &dl);
        return HON_ERR_IO;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    hon_status st = HON_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".hon") != 0 || e->d_name[0] == '.')
            continue;
        if (!HON_GROW(names, n, cap)) {
            st = HON_ERR_MEMORY;
            break;
        }
        size_t dl = strlen(dir);
        char *full = hon_malloc(dl + l + 2);
        if (!full) {
            st = HON_ERR_MEMORY;
            break;
        }
        memcpy(full, dir, dl);
        full[dl] = '/';
        memcpy(full + dl + 1, e->d_name, l + 1);
        names[n++] = full;
    }
    closedir(d);
    source *srcs = st == HON_OK ? hon_calloc(n ? n : 1, sizeof *srcs) : NULL;
    if (!srcs)
        st = HON_ERR_MEMORY;
    if (st == HON_OK)
        qsort(names, n, sizeof *names, cmp_names);
    size_t nread = 0;
    for (; st == HON_OK && nread < n; nread++) {
        st = read_source(vm, names[nread], &srcs[nread]);
        if (st != HON_OK)
            break;
    }
    for (size_t i = 0; i < n; i++)
        hon_free(names[i]);
    hon_free(names);
    if (st != HON_OK) {
        for (size_t i = 0; srcs && i < nread; i++)
            source_free(&srcs[i]);
        hon_free(srcs);
        return st;
    }
    st = rebuild(vm, srcs, n, true);
    hon_free(srcs);
    return st;
}

hon_status hon_check_file(hon_vm *vm, const char *path)
{
    if (!vm || !path)
        return HON_ERR_NOT_FOUND;
    source s;
    hon_status st = read_source(vm, path, &s);
    if (st != HON_OK)
        return st;
    return rebuild(vm, &s, 1, false);
}

/* ---- editions and variants ---- */

static int32_t active_edition(const hon_vm *vm)
{
    const res_program *p = vm->pg->res;
    if (vm->edition) {
        int32_t e = res_find_edition(p, vm->edition);
        if (e >= 0)
            return e;
    }
    return p->default_edition;
}

/* The reading of every variant under edition ed with the vm's choices; test overrides
 * (per variant, -1 = none) win. Returns a new array (NULL when there are no variants or on
 * OOM: *oom tells). */
static int32_t *readings_for(const hon_vm *vm, int32_t ed, const int32_t *overrides, bool *oom)
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
    int32_t e = active_edition(vm);
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
            if (!reading) {     /* back to the default */
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
    choice ch = { hon_strdup(variant), hon_strdup(reading) };
    if (!ch.variant || !ch.reading) {
        hon_free(ch.variant);
        hon_free(ch.reading);
        return HON_ERR_MEMORY;
    }
    vm->choices[vm->nchoices++] = ch;
    return HON_OK;
}

void hon_each_variant(const hon_vm *vm,
                      void (*fn)(void *ud, const char *variant, const char *reading, const char *doc),
                      void *ud)
{
    if (!vm || !fn)
        return;
    const res_program *p = vm->pg->res;
    bool oom;
    int32_t *r = readings_for(vm, active_edition(vm), NULL, &oom);
    for (size_t v = 0; v < p->nvariants; v++) {
        const res_variant *var = &p->variants[v];
        uint32_t m = r ? (uint32_t)r[v] : var->dflt;
        fn(ud, var->name, p->enums[var->enum_id].members[m].name, var->doc);
    }
    hon_free(r);
}

void hon_set_seed(hon_vm *vm, uint64_t seed)
{
    if (vm)
        dice_seed(&vm->dice, seed);
}

/* ---- evaluation ---- */

static void report_runtime(hon_vm *vm, const vm_error *e)
{
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    diag_report(&dl, e->code, DIAG_ERROR, e->loc, "%s", e->msg);
    emit_diags(vm, &dl);
}

/* Parses, resolves and compiles an expression typed at `where`. On success *ch, *f and *type
 * are set (the caller frees ch and f). */
static hon_status prepare(hon_vm *vm, const char *expr, const char *where, chunk **ch,
                          ast_file **f, uint32_t *type)
{
    *ch = NULL;
    *f = NULL;
    if (!vm || !expr)
        return HON_ERR_NOT_FOUND;
    if (!where)
        where = "<repl>";
    size_t len = strlen(expr);
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    /* A recent identical expression reuses its source entry, so evaluating the same text again
     * and again (a benchmark, a script) does not grow the source table. */
    uint32_t id = UINT32_MAX;
    for (uint32_t i = vm->sources.len; i-- > 0 && vm->sources.len - i <= 16;)
        if (vm->sources.files[i].len == len && strcmp(vm->sources.files[i].path, where) == 0 &&
            memcmp(vm->sources.files[i].text, expr, len) == 0) {
            id = i;
            break;
        }
    if (id == UINT32_MAX)
        id = diag_sources_add(&vm->sources, where, expr, len);
    if (id == UINT32_MAX)
        return HON_ERR_MEMORY;
    ast_node *e = NULL;
    *f = front_parse_expr(where, expr, len, id, &dl, &e);
    if (!*f) {
        emit_diags(vm, &dl);
        return HON_ERR_MEMORY;
    }
    if (!e || dl.errors) {
        emit_diags(vm, &dl);
        return HON_ERR_COMPILE;
    }
    uint32_t nlocals = 0;
    *type = res_expr(vm->pg->res, e, T_NONE, &dl, &nlocals);
    if (*type == T_ERROR) {
        emit_diags(vm, &dl);
        return HON_ERR_COMPILE;
    }
    *ch = comp_expr(vm->pg->res, e, nlocals, where, &dl);
    emit_diags(vm, &dl);
    return *ch ? HON_OK : HON_ERR_MEMORY;
}

static hon_answer *answer_new(char *text, char *json, char *trace)
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

hon_status hon_eval(hon_vm *vm, const char *expr, const char *where, hon_answer **out)
{
    if (out)
        *out = NULL;
    chunk *ch;
    ast_file *f;
    uint32_t type = T_ERROR;
    hon_status st = prepare(vm, expr, where, &ch, &f, &type);
    if (st != HON_OK) {
        ast_file_free(f);
        return st;
    }
    const res_program *p = vm->pg->res;
    int32_t ed = active_edition(vm);
    bool oom;
    int32_t *readings = readings_for(vm, ed, NULL, &oom);
    if (oom) {
        chunk_free(ch);
        ast_file_free(f);
        return HON_ERR_MEMORY;
    }
    vm_begin(&vm->x, vm->pg, vm->sc, ed, readings, &vm->dice, vm->cfg.step_budget,
             vm->cfg.max_depth, true);
    const val_env env = { p, vm->sc };
    val v;
    if (!vm_eval(&vm->x, ch, &v)) {
        report_runtime(vm, &vm->x.err);
        st = vm->x.err.code == 209 ? HON_ERR_MEMORY : HON_ERR_RUNTIME;
    } else if (out) {
        strbuf text = { 0 }, json = { 0 }, trace = { 0 };
        char tname[160];
        bool cut_text, cut_json;
        char *vt = val_text(&env, v, false, ANSWER_MAX, &cut_text);
        char *vj = val_text(&env, v, true, ANSWER_MAX, &cut_json);
        if (!vt || !vj)
            text.oom = true;
        sb_puts(&text, vt);
        if (cut_text)
            sb_puts(&text, "... (cut: the value is too long to print)");
        sb_puts(&json, "{\"value\": ");
        sb_puts(&json, cut_json ? "null, \"truncated\": true" : vj);
        hon_free(vt);
        hon_free(vj);
        sb_puts(&json, ", \"type\": ");
        sb_json_str(&json, res_type_name(p, type, tname, sizeof tname));
        sb_puts(&json, ", \"text\": ");
        sb_json_str(&json, sb_str(&text));
        sb_puts(&json, ", \"trace\": ");
        trace_json(&env, &vm->x.trace, &json);
        sb_puts(&json, "}");
        trace_text(&env, &vm->x.trace, &trace);
        strbuf brief = { 0 };
        trace_brief(&env, &vm->x.trace, &brief);
        *out = answer_new(sb_take(&text), sb_take(&json), sb_take(&trace));
        if (*out)
            (*out)->why = sb_take(&brief);
        sb_free(&brief);
        if (*out && !(*out)->why) {
            hon_answer_free(*out);
            *out = NULL;
        }
        if (!*out)
            st = HON_ERR_MEMORY;
    }
    vm_end(&vm->x);
    hon_free(readings);
    chunk_free(ch);
    ast_file_free(f);
    return st;
}

hon_status hon_odds(hon_vm *vm, const char *expr, const char *where, hon_answer **out)
{
    if (out)
        *out = NULL;
    chunk *ch;
    ast_file *f;
    uint32_t type = T_ERROR;
    hon_status st = prepare(vm, expr, where, &ch, &f, &type);
    if (st != HON_OK) {
        ast_file_free(f);
        return st;
    }
    int32_t ed = active_edition(vm);
    bool oom;
    int32_t *readings = readings_for(vm, ed, NULL, &oom);
    strbuf text = { 0 }, json = { 0 };
    if (oom) {
        st = HON_ERR_MEMORY;
    } else if (!odds_enumerate(&vm->x, vm->pg, vm->sc, ch, type, ed, readings,
                               vm->cfg.step_budget, vm->cfg.max_depth, &text, &json)) {
        report_runtime(vm, &vm->x.err);
        st = vm->x.err.code == 209 ? HON_ERR_MEMORY : HON_ERR_RUNTIME;
    } else if (out) {
        *out = answer_new(sb_take(&text), sb_take(&json), hon_strdup("(odds have no trace)\n"));
        if (!*out)
            st = HON_ERR_MEMORY;
    }
    sb_free(&text);
    sb_free(&json);
    hon_free(readings);
    chunk_free(ch);
    ast_file_free(f);
    return st;
}

const char *hon_answer_text(const hon_answer *a) { return a ? a->text : ""; }
const char *hon_answer_json(const hon_answer *a) { return a ? a->json : "null"; }
const char *hon_answer_trace(const hon_answer *a) { return a ? a->trace : ""; }
const char *hon_answer_why(const hon_answer *a) { return a ? (a->why ? a->why : a->trace) : ""; }

void hon_answer_free(hon_answer *a)
{
    if (!a)
        return;
    hon_free(a->text);
    hon_free(a->json);
    hon_free(a->trace);
    hon_free(a->why);
    hon_free(a);
}

/* ---- the board ---- */


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
    emit_diags(vm, &dl);
}

/* Reads a whole scenario file; E398 (reported) when it cannot be. */
static hon_status read_board(hon_vm *vm, const char *path, char **text, size_t *len)
{
    return read_whole_file(vm, path, 398, text, len);
}

/* Loads a scenario (from text, or from the file `path` when text is NULL) against the current
 * program into *out; on errors reports them and leaves *out NULL. */
static hon_status load_scene(hon_vm *vm, const char *path, const char *text, size_t len,
                             scene **out)
{
    *out = NULL;
    char *owned = NULL;
    if (!text) {
        hon_status st = read_board(vm, path, &owned, &len);
        if (st != HON_OK)
            return st;
        text = owned;
    }
    scn_errors errs = { 0 };
    *out = scene_load(vm->pg->res, text, len, &errs);
    hon_status st = HON_OK;
    if (!*out) {
        bool oom = false;
        for (size_t i = 0; i < errs.len; i++)
            oom |= errs.items[i].code == 399;
        report_scn(vm, path, text, len, &errs);
        st = oom ? HON_ERR_MEMORY : HON_ERR_COMPILE;
    }
    scn_errors_free(&errs);
    hon_free(owned);
    return st;
}

/* After a reload: the board again, against the new program; dropped (with a note) when its
 * names no longer resolve. */
static void rebind_board(hon_vm *vm)
{
    if (!vm->sc)
        return;
    scene_free(vm->sc);
    vm->sc = NULL;
    scene *sc;
    hon_status st = load_scene(vm, vm->board_path, vm->board_text, vm->board_len, &sc);
    if (st == HON_OK) {
        vm->sc = sc;
        return;
    }
    report_plain(vm, 0, vm->board_path, "the board %s does not fit the rules any more: it was "
                 "dropped", vm->board_path);
    hon_free(vm->board_path);
    hon_free(vm->board_text);
    vm->board_path = vm->board_text = NULL;
    vm->board_len = 0;
}

static hon_status set_board(hon_vm *vm, const char *path, char *text, size_t len)
{
    scene *sc;
    hon_status st = load_scene(vm, path, text, len, &sc);
    if (st != HON_OK) {
        hon_free(text);
        return st;
    }
    char *p = hon_strdup(path);
    if (!p) {
        scene_free(sc);
        hon_free(text);
        return HON_ERR_MEMORY;
    }
    scene_free(vm->sc);
    hon_free(vm->board_path);
    hon_free(vm->board_text);
    vm->sc = sc;
    vm->board_path = p;
    vm->board_text = text;
    vm->board_len = len;
    vm->choice_gen++;
    new_game(vm);
    return HON_OK;
}

hon_status hon_load_board(hon_vm *vm, const char *path)
{
    if (!vm || !path)
        return HON_ERR_NOT_FOUND;
    char *text;
    size_t len;
    hon_status st = read_board(vm, path, &text, &len);
    if (st != HON_OK)
        return st;
    return set_board(vm, path, text, len);
}

hon_status hon_load_board_source(hon_vm *vm, const char *name, const char *text, size_t len)
{
    if (!vm || !text)
        return HON_ERR_NOT_FOUND;
    char *copy = hon_strndup(text, len);
    if (!copy)
        return HON_ERR_MEMORY;
    return set_board(vm, name ? name : "<board>", copy, len);
}

void hon_drop_board(hon_vm *vm)
{
    if (!vm || !vm->sc)
        return;
    scene_free(vm->sc);
    hon_free(vm->board_path);
    hon_free(vm->board_text);
    vm->sc = NULL;
    vm->board_path = vm->board_text = NULL;
    vm->board_len = 0;
    vm->choice_gen++;
    new_game(vm);
}

const char *hon_board_path(const hon_vm *vm)
{
    return vm && vm->sc ? vm->board_path : NULL;
}

/* A line's end as a board square: `$name` (the unit's square), `@C4` or `C4`, or a unit name
 * without its `$`. Reports and returns -1 when it is none of these. */
static int endpoint(hon_vm *vm, const char *spec)
{
    const scene *sc = vm->sc;
    int s0 = -1, s1;
    if (spec[0] == '$' || scene_unit(sc, spec) >= 0) {
        int32_t u = scene_unit(sc, spec + (spec[0] == '$'));
        if (u >= 0 && board_unit_squares(sc->b, u, &s0, &s1))
            return s0;
        report_plain(vm, 0, vm->board_path, u >= 0 ? "unit %s is not on the board"
                     : "the board has no unit %s", spec);
        return -1;
    }
    s0 = geo_parse_square(sc->g, spec + (spec[0] == '@'));
    if (s0 < 0)
        report_plain(vm, 0, vm->board_path, "'%s' is neither a unit ($name) nor a square of "
                     "the board (%d columns, %d rows)", spec, sc->g->w, sc->g->h);
    return s0;
}

/* What the board's units and elements show besides their names, named from the program's
 * `marker` and `face` enums for draw.h: by unit id its markers ("suppressed, pinned x2") and
 * its face, by element id its face, NULL where there is nothing or the face is the default
 * (RES_FACE_NONE). The strings and arrays are new (shown_free); false on OOM. */
typedef struct shown {
    char **markers;                 /* nunits, owned strings */
    const char **unit_faces;        /* nunits, borrowed names */
    const char **element_faces;     /* nelements, borrowed names */
    size_t nunits, nelements;
} shown;

static void shown_free(shown *w)
{
    for (size_t i = 0; w->markers && i < w->nunits; i++)
        hon_free(w->markers[i]);
    hon_free(w->markers);
    hon_free(w->unit_faces);
    hon_free(w->element_faces);
    memset(w, 0, sizeof *w);
}

static const char *face_name(const res_program *p, int32_t f)
{
    const res_enum *e = &p->enums[E_FACE];
    return f != RES_FACE_NONE && f >= 0 && (size_t)f < e->len ? e->members[f].name : NULL;
}

static bool shown_build(const hon_vm *vm, shown *w)
{
    const res_program *p = vm->pg->res;
    const scene *sc = vm->sc;
    const res_enum *me = &p->enums[E_MARKER];
    memset(w, 0, sizeof *w);
    w->nunits = sc->units->len;
    w->nelements = sc->nelement_faces;
    w->markers = hon_calloc(w->nunits ? w->nunits : 1, sizeof *w->markers);
    w->unit_faces = hon_calloc(w->nunits ? w->nunits : 1, sizeof *w->unit_faces);
    w->element_faces = hon_calloc(w->nelements ? w->nelements : 1, sizeof *w->element_faces);
    if (!w->markers || !w->unit_faces || !w->element_faces) {
        shown_free(w);
        return false;
    }
    for (size_t u = 0; u < w->nunits; u++) {
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
        char *t = hon_malloc(len + 1);
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
            at += (size_t)snprintf(t + at, len + 1 - at, "%s%s", at ? ", " : "", me->members[m].name);
            if (k > 1)
                at += (size_t)snprintf(t + at, len + 1 - at, " x%" PRIu32, k);
        }
        w->markers[u] = t;
    }
    for (size_t e = 0; e < w->nelements; e++)
        w->element_faces[e] = face_name(p, sc->element_faces[e]);
    return true;
}

static hon_status draw(hon_vm *vm, FILE *out, const char *from, const char *to, bool svg)
{
    if (!vm || !out)
        return HON_ERR_NOT_FOUND;
    if (!vm->sc) {
        report_plain(vm, 0, "<board>", "no board is loaded");
        return HON_ERR_NOT_FOUND;
    }
    const scenario *s = vm->sc->scn;
    draw_options o = { .symbols = s->symbols, .title = s->title,
                       .terrain_colours = (const char *const *)s->terrain_colours,
                       .n_terrain_colours = s->n_terrain_colours,
                       .side_colours = (const char *const *)s->side_colours,
                       .n_side_colours = s->n_side_colours,
                       .unit_colours = (const char *const *)s->unit_colours,
                       .n_unit_colours = s->n_unit_colours };
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
    }
    shown w;
    if (!shown_build(vm, &w)) {
        geo_trace_free(&tr);
        return HON_ERR_MEMORY;
    }
    o.unit_markers = (const char *const *)w.markers;
    o.n_unit_markers = w.nunits;
    o.unit_faces = w.unit_faces;
    o.n_unit_faces = w.nunits;
    o.element_faces = w.element_faces;
    o.n_element_faces = w.nelements;
    geo_status gs = svg ? draw_svg(vm->sc->b, &o, out) : draw_text(vm->sc->b, &o, out);
    shown_free(&w);
    geo_trace_free(&tr);
    if (gs == GEO_ETOPO) {
        report_plain(vm, 0, vm->board_path, "hex boards are not drawn yet");
        return HON_ERR_NOT_FOUND;
    }
    return gs == GEO_OK ? HON_OK : gs == GEO_ENOMEM ? HON_ERR_MEMORY : HON_ERR_IO;
}

hon_status hon_draw_board(hon_vm *vm, FILE *out, const char *line_from, const char *line_to)
{
    return draw(vm, out, line_from, line_to, false);
}

hon_status hon_board_svg(hon_vm *vm, FILE *out, const char *line_from, const char *line_to)
{
    return draw(vm, out, line_from, line_to, true);
}

int32_t hon_unit_id(const hon_vm *vm, const char *name)
{
    if (!vm || !name)
        return -1;
    if (name[0] == '$')
        return scene_unit(vm->sc, name + 1);
    int32_t c = res_find_counter(vm->pg->res, name);
    return c >= 0 ? c : scene_unit(vm->sc, name);
}

hon_status hon_unit_set_value(hon_vm *vm, int32_t id, const char *value, int64_t v)
{
    if (!vm || !value)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    unit_pool *pool = vm->sc ? vm->sc->units : p->units;
    if (!unit_get(pool, id))
        return HON_ERR_NOT_FOUND;
    for (size_t i = 0; i < p->nslots; i++)
        if (strcmp(p->slots[i].name, value) == 0) {
            unit_set_value(pool, id, (uint32_t)i, v);
            return HON_OK;
        }
    return HON_ERR_NOT_FOUND;
}

int32_t hon_member_id(const hon_vm *vm, const char *enum_name, const char *member)
{
    if (!vm || !enum_name || !member)
        return -1;
    const res_program *p = vm->pg->res;
    for (size_t e = 0; e < p->nenums; e++)
        if (strcmp(p->enums[e].name, enum_name) == 0)
            return res_find_member(&p->enums[e], member);
    return -1;
}

/* ---- calling queries and fns from C ---- */

hon_status hon_query_info_of(hon_vm *vm, const char *name, hon_query_info *out)
{
    if (!vm || !name || !out)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    int32_t q = res_find_query(p, name);
    int32_t f = q < 0 ? res_find_fn(p, name) : -1;
    if (q < 0 && f < 0)
        return HON_ERR_NOT_FOUND;
    const res_field *params = q >= 0 ? p->queries[q].params : p->fns[f].params;
    uint32_t np = q >= 0 ? p->queries[q].nparams : p->fns[f].nparams;
    *out = (hon_query_info){ .name = q >= 0 ? p->queries[q].name : p->fns[f].name,
                             .is_fn = q < 0, .nparams = np };
    for (uint32_t i = 0; i < np && i < 16; i++) {
        out->param_names[i] = params[i].name;
        out->param_types[i] = res_type_name(p, params[i].type, vm->info_types[i],
                                            sizeof vm->info_types[i]);
    }
    out->result_type = res_type_name(p, q >= 0 ? p->queries[q].result : p->fns[f].result,
                                     vm->info_types[16], sizeof vm->info_types[16]);
    return HON_OK;
}

/* Finds h's query or fn in the current program; false when it is gone. */
static bool handle_lookup(hon_vm *vm, hon_query_handle *h)
{
    const res_program *p = vm->pg->res;
    int32_t q = res_find_query(p, h->name);
    int32_t f = q < 0 ? res_find_fn(p, h->name) : -1;
    if (q < 0 && f < 0)
        return false;
    h->is_fn = q < 0;
    h->id = (uint32_t)(q >= 0 ? q : f);
    h->gen = vm->prog_gen;
    return true;
}

hon_query_handle *hon_lookup_query(hon_vm *vm, const char *name)
{
    if (!vm || !name)
        return NULL;
    hon_query_handle *h = hon_calloc(1, sizeof *h);
    if (!h || !(h->name = hon_strdup(name)) || !handle_lookup(vm, h)) {
        hon_query_handle_free(h);
        return NULL;
    }
    return h;
}

void hon_query_handle_free(hon_query_handle *h)
{
    if (!h)
        return;
    hon_free(h->name);
    hon_free(h);
}

/* Converts argument a for a parameter of type t; false when it does not fit. */
static bool arg_val(const hon_vm *vm, uint32_t t, const hon_value *a, val *out)
{
    const res_program *p = vm->pg->res;
    const unit_pool *pool = vm->sc ? vm->sc->units : p->units;
    res_tkind k = t < p->ntypes ? p->types[t].kind : RT_NONE;
    *out = (val){ .type = t, .u.i = a->i };
    switch (k) {
    case RT_INT: return a->kind == HON_V_INT;
    case RT_BOOL: return a->kind == HON_V_BOOL && (a->i == 0 || a->i == 1);
    case RT_VERDICT: return a->kind == HON_V_VERDICT && (a->i == 0 || a->i == 1);
    case RT_UNIT: return a->kind == HON_V_UNIT && a->i >= 0 && (size_t)a->i < pool->len;
    case RT_SQUARE: return a->kind == HON_V_SQUARE;
    case RT_ENUM:
        return a->kind == HON_V_MEMBER && a->i >= 0 &&
               (size_t)a->i < p->enums[p->types[t].arg].len;
    default: return false;
    }
}

static hon_value out_val(const res_program *p, val v)
{
    res_tkind k = v.type < p->ntypes ? p->types[v.type].kind : RT_NONE;
    hon_value r = { HON_V_OTHER, v.u.i };
    switch (k) {
    case RT_INT: r.kind = HON_V_INT; break;
    case RT_BOOL: r.kind = HON_V_BOOL; break;
    case RT_VERDICT: r.kind = HON_V_VERDICT; break;
    case RT_UNIT: r.kind = HON_V_UNIT; break;
    case RT_SQUARE: r.kind = HON_V_SQUARE; break;
    case RT_ENUM: r.kind = HON_V_MEMBER; break;
    default: r.i = 0; break;
    }
    if (v.flags & VAL_ABSENT)
        r = (hon_value){ HON_V_OTHER, 0 };
    return r;
}

hon_status hon_call_query(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                          hon_value *out)
{
    if (!vm || !h || (n && !args))
        return HON_ERR_NOT_FOUND;
    if (h->gen != vm->prog_gen && !handle_lookup(vm, h)) {
        report_plain(vm, 0, "<call>", "no query or fn named '%s'", h->name);
        return HON_ERR_NOT_FOUND;
    }
    const res_program *p = vm->pg->res;
    const res_field *params = h->is_fn ? p->fns[h->id].params : p->queries[h->id].params;
    uint32_t np = h->is_fn ? p->fns[h->id].nparams : p->queries[h->id].nparams;
    val argv[16];
    if (n != np || n > 16) {
        report_plain(vm, 0, "<call>", "%s takes %u argument%s, not %zu", h->name, np,
                     np == 1 ? "" : "s", n);
        return HON_ERR_NOT_FOUND;
    }
    for (size_t i = 0; i < n; i++)
        if (!arg_val(vm, params[i].type, &args[i], &argv[i])) {
            char tname[128];
            report_plain(vm, 0, "<call>", "argument %zu of %s does not fit its type %s", i + 1,
                         h->name, res_type_name(p, params[i].type, tname, sizeof tname));
            return HON_ERR_NOT_FOUND;
        }
    int32_t ed = active_edition(vm);
    if (!vm->call_readings_ok || vm->call_readings_gen != vm->choice_gen) {
        bool oom;
        hon_free(vm->call_readings);
        vm->call_readings = readings_for(vm, ed, NULL, &oom);
        vm->call_readings_ok = !oom;
        vm->call_readings_gen = vm->choice_gen;
        if (oom)
            return HON_ERR_MEMORY;
    }
    vm_begin(&vm->x, vm->pg, vm->sc, ed, vm->call_readings, &vm->dice, vm->cfg.step_budget,
             vm->cfg.max_depth, false);
    val v;
    hon_status st = HON_OK;
    if (!vm_call(&vm->x, h->is_fn, h->id, argv, (uint32_t)n, &v)) {
        report_runtime(vm, &vm->x.err);
        st = vm->x.err.code == 209 ? HON_ERR_MEMORY : HON_ERR_RUNTIME;
    } else if (out) {
        *out = out_val(p, v);
    }
    vm_end(&vm->x);
    return st;
}

/* ---- rules: listing, showing, disassembling ---- */

static const char *source_text(const hon_vm *vm, uint32_t file, size_t *len)
{
    if (file >= vm->sources.len) {
        *len = 0;
        return NULL;
    }
    *len = vm->sources.files[file].len;
    return vm->sources.files[file].text;
}

static void cites_of(const ast_vec *cites, strbuf *b)
{
    for (uint32_t i = 0; i < cites->len; i++) {
        const ast_node *c = cites->items[i];
        if (i)
            sb_puts(b, "; ");
        sb_puts(b, res_cite_id(c) ? res_cite_id(c) : "?");
        const char *from = res_cite_source(c);
        bool named = from && trace_source_ends_with_example(from);   /* no 2nd "example" */
        if (from && res_cite_example(c) && named)
            sb_printf(b, " (%s %s)", from, res_cite_example(c));
        else if (from)
            sb_printf(b, " (%s)", from);
        if (res_cite_example(c) && !named)
            sb_printf(b, ", example %s", res_cite_example(c));
    }
}

static bool contains_ci(const char *hay, const char *needle)
{
    if (!needle || !*needle)
        return true;
    if (!hay)
        return false;
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

size_t hon_list_rules(const hon_vm *vm, const char *word,
                      void (*fn)(void *ud, const hon_rule_info *r), void *ud)
{
    if (!vm)
        return 0;
    const prog *pg = vm->pg;
    const res_program *p = pg->res;
    int32_t ed = active_edition(vm);
    size_t listed = 0;
    for (uint32_t q = 0; q < p->nqueries; q++) {
        const res_ruleset *rs = res_rules_of(p, ed, q);
        for (size_t i = 0; i < rs->len; i++) {
            const res_rule *r = &p->rules[rs->rules[i]];
            strbuf cites = { 0 };
            cites_of(&r->decl->cites, &cites);
            if (contains_ci(r->name, word) || contains_ci(r->decl->doc, word) ||
                contains_ci(sb_str(&cites), word)) {
                hon_rule_info info = {
                    .name = r->name,
                    .query = p->queries[r->query].name,
                    .doc = r->decl->doc,
                    .cites = sb_str(&cites),
                    .path = prog_file_path(pg, r->decl->loc.file),
                    .line = r->decl->loc.line,
                    .edition = r->edition >= 0 ? p->editions[r->edition].name : NULL,
                };
                listed++;
                if (fn)
                    fn(ud, &info);
            }
            sb_free(&cites);
        }
    }
    return listed;
}

/* The rule with that full name in the active edition, else the first declared. */
static int32_t find_rule(const hon_vm *vm, const char *name)
{
    const res_program *p = vm->pg->res;
    int32_t ed = active_edition(vm);
    for (uint32_t q = 0; q < p->nqueries; q++) {
        const res_ruleset *rs = res_rules_of(p, ed, q);
        for (size_t i = 0; i < rs->len; i++)
            if (strcmp(p->rules[rs->rules[i]].name, name) == 0)
                return (int32_t)rs->rules[i];
    }
    return res_find_rule(p, name);
}

/* Writes the source of the declaration at loc: from the start of its line to the `;` or the
 * `}` that ends it at bracket depth 0 (strings and comments skipped). */
static void write_decl_source(const char *text, size_t len, ast_loc loc, FILE *out)
{
    size_t i = 0;
    for (uint32_t line = 1; i < len && line < loc.line; i++)
        if (text[i] == '\n')
            line++;
    size_t start = i;
    int depth = 0;
    bool opened = false;
    for (; i < len; i++) {
        char c = text[i];
        if (c == '#') {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        if (c == '"') {
            for (i++; i < len && text[i] != '"' && text[i] != '\n'; i++)
                if (text[i] == '\\')
                    i++;
            continue;
        }
        if (c == '{' || c == '(' || c == '[') {
            depth++;
            if (c == '{')
                opened = true;
        } else if (c == '}' || c == ')' || c == ']') {
            depth--;
            if (depth <= 0 && c == '}' && opened) {
                i++;
                break;
            }
            if (depth < 0)
                break;
        } else if (c == ';' && depth == 0) {
            i++;
            break;
        }
    }
    fwrite(text + start, 1, i - start, out);
    fputc('\n', out);
}

hon_status hon_show(const hon_vm *vm, const char *name, FILE *out)
{
    if (!vm || !name || !out)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    const ast_node *decl = NULL;
    const char *what = "declaration";
    int32_t r = find_rule(vm, name);
    if (r >= 0) {
        decl = p->rules[r].decl;
        what = "rule";
    } else {
        decl = res_find_decl(p, name);
    }
    if (!decl)
        return HON_ERR_NOT_FOUND;
    size_t len;
    const char *text = source_text(vm, decl->loc.file, &len);
    fprintf(out, "# %s %s — %s:%u\n", what, name, prog_file_path(vm->pg, decl->loc.file),
            decl->loc.line);
    if (r >= 0 && p->rules[r].edition >= 0)
        fprintf(out, "# %s by edition %s\n", p->rules[r].replaces ? "replaced" : "added",
                p->editions[p->rules[r].edition].name);
    if (text)
        write_decl_source(text, len, decl->loc, out);
    const char *doc = decl->doc;
    if (!doc && decl->kind == AST_EDITION)
        doc = decl->title;
    if (doc)
        fprintf(out, "doc: %s\n", doc);
    if (decl->cites.len) {
        strbuf b = { 0 };
        cites_of(&decl->cites, &b);
        fprintf(out, "cites: %s\n", sb_str(&b));
        sb_free(&b);
    }
    return HON_OK;
}

hon_status hon_disassemble(const hon_vm *vm, const char *name, FILE *out)
{
    if (!vm || !name || !out)
        return HON_ERR_NOT_FOUND;
    const prog *pg = vm->pg;
    const res_program *p = pg->res;
    int32_t r = find_rule(vm, name);
    if (r >= 0 && pg->rules[r]) {
        chunk_disassemble(p, pg->rules[r], out);
        return HON_OK;
    }
    int32_t f = res_find_fn(p, name);
    if (f >= 0) {
        chunk_disassemble(p, pg->fns[f], out);
        return HON_OK;
    }
    int32_t q = res_find_query(p, name);
    if (q < 0)
        q = res_find_event(p, name);        /* an event lists its rules like a query */
    if (q < 0)
        return HON_ERR_NOT_FOUND;
    const res_ruleset *rs = res_rules_of(p, active_edition(vm), (uint32_t)q);
    fprintf(out, "%s %s: %zu rule%s\n", p->queries[q].is_event ? "event" : "query", name,
            rs->len, rs->len == 1 ? "" : "s");
    for (size_t i = 0; i < rs->len; i++)
        chunk_disassemble(p, pg->rules[rs->rules[i]], out);
    if (pg->defaults[q])
        chunk_disassemble(p, pg->defaults[q], out);
    return HON_OK;
}

/* ---- tests ---- */

static void span_text(const hon_vm *vm, ast_loc loc, strbuf *b)
{
    size_t len;
    const char *text = source_text(vm, loc.file, &len);
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
    hon_free(t);
}

/* Runs one expect; returns true when it passes, else writes a failure line. */
static bool run_expect(hon_vm *vm, const res_test *t, size_t e, const prog_expect *pe,
                       const scene *sc, int32_t ed, const int32_t *readings, FILE *out)
{
    const res_program *p = vm->pg->res;
    const val_env env = { p, sc };
    const ast_node *x = t->expects[e].node;
    vm_ctx *ctx = &vm->x;
    strbuf b = { 0 };
    bool pass = false;
    vm_begin(ctx, vm->pg, sc, ed, readings, &vm->dice, vm->cfg.step_budget, vm->cfg.max_depth,
             false);
    val v, w;
    if (x->ival) {
        if (vm_eval(ctx, pe->whole, &v)) {
            sb_printf(&b, "expected error E%03" PRId64 ", got the value ", x->ival);
            put_short(&env, v, &b);
        } else if (ctx->err.code != x->ival) {
            sb_printf(&b, "expected error E%03" PRId64 ", got error E%03d: %s", x->ival,
                      ctx->err.code, ctx->err.msg);
        } else {
            pass = true;
        }
    } else if (pe->lhs) {
        if (!vm_eval(ctx, pe->lhs, &v) || !vm_eval(ctx, pe->rhs, &w)) {
            sb_printf(&b, "error E%03d: %s", ctx->err.code, ctx->err.msg);
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
                sb_puts(&b, ", expected ");
                put_short(&env, w, &b);
            }
        }
    } else {
        if (!vm_eval(ctx, pe->whole, &v))
            sb_printf(&b, "error E%03d: %s", ctx->err.code, ctx->err.msg);
        else if (!(pass = v.u.i != 0))
            sb_puts(&b, "the expectation is false");
    }
    vm_end(ctx);
    if (!pass)
        fprintf(out, "%s:%u:%u: FAIL \"%s\": %s\n", prog_file_path(vm->pg, x->loc.file),
                x->loc.line, x->loc.col, t->title, b.oom ? "(out of memory)" : sb_str(&b));
    sb_free(&b);
    return pass;
}

/* Prints a failure line of test t at loc. */
static void test_failure(hon_vm *vm, const res_test *t, ast_loc loc, strbuf *b, FILE *out)
{
    fprintf(out, "%s:%u:%u: FAIL \"%s\": %s\n", prog_file_path(vm->pg, loc.file), loc.line,
            loc.col, t->title, b->oom ? "(out of memory)" : sb_str(b));
}

/* Sets up the game of test number ti on scene sc (language.md §6.7): turn 1, the first phase,
 * the test's dice and its scripted choices (evaluated now). False after printing a failure. */
static bool test_game_begin(hon_vm *vm, const res_test *t, size_t ti, scene *sc, int32_t ed,
                            const int32_t *readings, play *g, FILE *out)
{
    game_start(vm, g, sc);
    g->chooser = NULL;          /* a test never asks a person: its script, else the first */
    g->stepper = NULL;
    vm->x.game = g;
    vm->x.dice_on = t->has_dice;
    vm->x.dice_faces = t->dice;
    vm->x.dice_len = t->ndice;
    vm->x.dice_pos = 0;
    if (!t->choices)
        return true;
    size_t n = t->choices->list.len;
    val *script = hon_calloc(n ? n : 1, sizeof *script);
    if (!script)
        return false;
    bool ok = true;
    strbuf b = { 0 };
    for (size_t k = 0; k < n && ok; k++) {
        vm_begin(&vm->x, vm->pg, sc, ed, readings, &vm->dice, vm->cfg.step_budget,
                 vm->cfg.max_depth, false);
        val v;
        if (!vm_eval(&vm->x, vm->pg->choices[ti][k], &v)) {
            sb_printf(&b, "its choice %zu: error E%03d: %s", k + 1, vm->x.err.code,
                      vm->x.err.msg);
            ok = false;
        } else if (v.type < vm->pg->res->ntypes &&
                   (vm->pg->res->types[v.type].kind == RT_LIST ||
                    vm->pg->res->types[v.type].kind == RT_RECORD)) {
            sb_printf(&b, "its choice %zu is not a single value (a unit, a square, a member...)",
                      k + 1);
            ok = false;
        } else {
            script[k] = v;
        }
        vm_end(&vm->x);
    }
    if (!ok) {
        test_failure(vm, t, t->choices->loc, &b, out);
        hon_free(script);
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
static void test_game_end(hon_vm *vm, play *g)
{
    play_revert(g, 0);
    hon_free((void *)g->script);
    play_free(g);
    vm->x.game = &vm->game;
    vm->x.dice_on = false;
    vm->x.dice_faces = NULL;
}

/* Runs one `do`, `advance` or `move` item of test t on its game g; true when it did what the
 * test says, else prints a failure line. */
static bool run_play_item(hon_vm *vm, const res_test *t, size_t e, const prog_expect *pe,
                          scene *sc, int32_t ed, const int32_t *readings, play *g, FILE *out)
{
    const res_program *p = vm->pg->res;
    const ast_node *x = t->expects[e].node;
    vm_ctx *ctx = &vm->x;
    strbuf b = { 0 };
    bool pass = false, ran;
    vm_begin(ctx, vm->pg, sc, ed, readings, &vm->dice, vm->cfg.step_budget, vm->cfg.max_depth,
             false);
    sb_free(&g->out);
    switch (x->kind) {
    case AST_TEST_DO:
        ran = vm_procedure(ctx, g, pe->whole);
        if (x->ival && ran)
            sb_printf(&b, "expected error E%03" PRId64 ", but the procedure ran", x->ival);
        else if (x->ival && ctx->err.code != x->ival)
            sb_printf(&b, "expected error E%03" PRId64 ", got error E%03d: %s", x->ival,
                      ctx->err.code, ctx->err.msg);
        else if (!x->ival && !ran)
            sb_printf(&b, "error E%03d: %s", ctx->err.code, ctx->err.msg);
        else
            pass = true;
        break;
    case AST_TEST_ADVANCE: {
        size_t nphases = p->enums[E_PHASE].len;
        ran = true;
        for (size_t k = 0; ran && k < nphases; k++) {
            ran = play_next(ctx, g);
            if (ran && g->phase == (int32_t)x->an.sym)
                break;
        }
        if (!ran)
            sb_printf(&b, "error E%03d: %s", ctx->err.code, ctx->err.msg);
        pass = ran;
        break;
    }
    case AST_TEST_MOVE: {
        val u, path;
        if (!vm_eval(ctx, pe->lhs, &u) || !vm_eval(ctx, pe->rhs, &path)) {
            sb_printf(&b, "error E%03d: %s", ctx->err.code, ctx->err.msg);
            break;
        }
        size_t n = path.u.list ? path.u.list->len : 0;
        int64_t *sqs = hon_calloc(n ? n : 1, sizeof *sqs);
        if (!sqs) {
            sb_puts(&b, "out of memory");
            break;
        }
        for (size_t k = 0; k < n; k++)
            sqs[k] = path.u.list->items[k].u.i;
        if (!play_walk(ctx, g, (int32_t)u.u.i, sqs, n, NULL))
            sb_printf(&b, "error E%03d: %s", ctx->err.code, ctx->err.msg);
        else
            pass = true;
        hon_free(sqs);
        break;
    }
    default:
        sb_puts(&b, "unknown test item");
    }
    vm_end(ctx);
    sb_free(&g->out);
    if (!pass)
        test_failure(vm, t, x->loc, &b, out);
    sb_free(&b);
    return pass;
}

/* Loads the board of test t (its path relative to the test's file) into *out; NULL with its
 * diagnostics reported when it does not load. HON_ERR_MEMORY when memory ran out. */
static hon_status test_board(hon_vm *vm, const res_test *t, scene **out)
{
    const char *file = prog_file_path(vm->pg, t->file);
    const char *slash = strrchr(file, '/');
    size_t dir = t->board[0] == '/' || !slash ? 0 : (size_t)(slash - file) + 1;
    size_t n = strlen(t->board);
    char *path = hon_malloc(dir + n + 1);
    if (!path)
        return HON_ERR_MEMORY;
    memcpy(path, file, dir);
    memcpy(path + dir, t->board, n + 1);
    hon_status st = load_scene(vm, path, NULL, 0, out);
    hon_free(path);
    return st == HON_ERR_MEMORY ? st : HON_OK;
}

hon_status hon_run_tests(hon_vm *vm, const char *path, FILE *out, size_t *passed,
                         size_t *failed)
{
    size_t np = 0, nf = 0;
    if (!vm || !out)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    hon_status st = HON_OK;
    for (size_t i = 0; i < p->ntests; i++) {
        const res_test *t = &p->tests[i];
        if (!path_matches(prog_file_path(vm->pg, t->file), path))
            continue;
        int32_t ed = t->edition >= 0 ? t->edition : active_edition(vm);
        bool oom;
        int32_t *readings = readings_for(vm, ed, t->variant_set, &oom);
        if (oom) {
            st = HON_ERR_MEMORY;
            break;
        }
        bool ok = true, board_ok = true;
        scene *own = NULL;
        if (t->board) {
            hon_status bst = test_board(vm, t, &own);
            if (bst == HON_ERR_MEMORY) {
                hon_free(readings);
                st = bst;
                break;
            }
            if (!own) {
                fprintf(out, "%s:%u:%u: FAIL \"%s\": its board \"%s\" does not load\n",
                        prog_file_path(vm->pg, t->decl->loc.file), t->decl->loc.line,
                        t->decl->loc.col, t->title, t->board);
                ok = board_ok = false;
            }
        }
        scene *tsc = t->board ? own : vm->sc;
        play tg = { 0 };
        if (board_ok && !test_game_begin(vm, t, i, tsc, ed, readings, &tg, out))
            ok = board_ok = false;
        for (size_t e = 0; board_ok && e < t->nexpects; e++) {
            const prog_expect *pe = &vm->pg->expects[i][e];
            if (t->expects[e].node->kind == AST_EXPECT)
                ok &= run_expect(vm, t, e, pe, tsc, ed, readings, out);
            else
                ok &= run_play_item(vm, t, e, pe, tsc, ed, readings, &tg, out);
        }
        test_game_end(vm, &tg);
        scene_free(own);
        hon_free(readings);
        if (ok)
            np++;
        else
            nf++;
    }
    fprintf(out, "%zu passed, %zu failed\n", np, nf);
    if (passed)
        *passed = np;
    if (failed)
        *failed = nf;
    if (st != HON_OK)
        return st;
    return nf ? HON_ERR_RUNTIME : HON_OK;
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

/* ---- playing: procedures, walks, the clock, undo (language.md §6) ---- */

static bool on_step(void *ud, const char *line)
{
    const hon_vm *vm = ud;
    return vm->cfg.on_effect(vm->cfg.userdata, line);
}

static int on_choose(void *ud, const char *question, const char *side,
                     const char *const *options, size_t n)
{
    const hon_vm *vm = ud;
    return vm->cfg.chooser(vm->cfg.userdata, question, side, options, n);
}

/* Starts game g on scene sc with the session's chooser and stepper. */
static void game_start(hon_vm *vm, play *g, scene *sc)
{
    play_init(g, sc, (int32_t)vm->pg->res->enums[E_PHASE].len);
    g->chooser = vm->cfg.chooser ? on_choose : NULL;
    g->stepper = vm->cfg.on_effect ? on_step : NULL;
    g->ud = vm;
}

/* (Re)starts the session's game: after a load of the rules or of the board. */
static void new_game(hon_vm *vm)
{
    game_start(vm, &vm->game, vm->sc);
    vm->x.game = &vm->game;
}

/* Parses, resolves and compiles the procedure `EVENT(args)` typed at `where`. */
static hon_status prepare_call(hon_vm *vm, const char *text, const char *where, chunk **ch,
                               ast_file **f)
{
    *ch = NULL;
    *f = NULL;
    if (!vm || !text)
        return HON_ERR_NOT_FOUND;
    if (!where)
        where = "<repl>";
    size_t len = strlen(text);
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    uint32_t id = diag_sources_add(&vm->sources, where, text, len);
    if (id == UINT32_MAX)
        return HON_ERR_MEMORY;
    ast_node *e = NULL;
    *f = front_parse_expr(where, text, len, id, &dl, &e);
    if (!*f) {
        emit_diags(vm, &dl);
        return HON_ERR_MEMORY;
    }
    if (!e || dl.errors) {
        emit_diags(vm, &dl);
        return HON_ERR_COMPILE;
    }
    uint32_t nlocals = 0;
    if (res_raise_call(vm->pg->res, e, &dl, &nlocals) < 0) {
        emit_diags(vm, &dl);
        return HON_ERR_COMPILE;
    }
    *ch = comp_procedure(vm->pg->res, e, nlocals, where, &dl);
    emit_diags(vm, &dl);
    return *ch ? HON_OK : HON_ERR_MEMORY;
}

/* The answer of a procedure that ran on g: its lines, the clock. */
static hon_answer *play_answer(const hon_vm *vm, const play *g, const char *extra)
{
    const res_program *p = vm->pg->res;
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
        char *one = hon_strndup(l, n);
        sb_puts(&json, first ? "" : ", ");
        sb_json_str(&json, one ? one : "");
        hon_free(one);
        first = false;
        l += n + (end ? 1 : 0);
    }
    sb_puts(&json, "], \"rolls\": [");         /* the dice, in the order rolled */
    sb_puts(&json, sb_str((strbuf *)&g->rolls));
    if (g->rolls.oom || g->rolls.truncated)
        json.oom = true;
    sb_printf(&json, "], \"turn\": %" PRId64 ", \"phase\": ", g->turn);
    if (g->phase >= 0 && (size_t)g->phase < p->enums[E_PHASE].len)
        sb_json_str(&json, p->enums[E_PHASE].members[g->phase].name);
    else
        sb_puts(&json, "null");
    sb_puts(&json, "}");
    char *t = sb_take(&text);
    return answer_new(t, sb_take(&json), hon_strdup(t ? t : ""));
}

/* Reports a procedure's error, saying that it was undone. */
static void report_undone(hon_vm *vm, vm_error *e)
{
    size_t n = strlen(e->msg);
    snprintf(e->msg + n, sizeof e->msg - n, " (the procedure was undone: nothing changed)");
    report_runtime(vm, e);
}

/* Ends a procedure that ran on the session's game: kept in the history under `title`, and
 * answered; or reported. */
static hon_status finish_play(hon_vm *vm, bool ok, size_t mark, const char *title,
                              const char *extra, hon_answer **out)
{
    hon_status st = HON_OK;
    if (!ok) {
        report_undone(vm, &vm->x.err);
        st = vm->x.err.code == 209 ? HON_ERR_MEMORY : HON_ERR_RUNTIME;
    } else if (!play_commit(&vm->game, mark, title)) {
        play_revert(&vm->game, mark);       /* all or nothing, even when memory runs out */
        st = HON_ERR_MEMORY;
    } else if (out && !(*out = play_answer(vm, &vm->game, extra))) {
        st = HON_ERR_MEMORY;
    }
    vm_end(&vm->x);
    sb_free(&vm->game.out);
    vm->game.lines = 0;
    return st;
}

/* Begins an evaluation on the session's board for a procedure (traced for `why do`). */
static bool begin_play_traced(hon_vm *vm, int32_t **readings, bool tracing)
{
    bool oom;
    int32_t ed = active_edition(vm);
    *readings = readings_for(vm, ed, NULL, &oom);
    if (oom)
        return false;
    vm_begin(&vm->x, vm->pg, vm->sc, ed, *readings, &vm->dice, vm->cfg.step_budget,
             vm->cfg.max_depth, tracing);
    vm->x.game = &vm->game;
    sb_free(&vm->game.out);
    vm->game.lines = 0;
    vm->game.choices_made = 0;
    return true;
}

static bool begin_play(hon_vm *vm, int32_t **readings)
{
    return begin_play_traced(vm, readings, false);
}

/* A note for `hon_move` when the rules raise nothing on a moment. */
static void moment_note(const res_program *p, res_moment m, strbuf *b)
{
    if (p->moments[m] < 0)
        sb_printf(b, "note: the rules declare no event `on %s`: nothing was raised for it\n",
                  res_moment_name(m));
}

hon_status hon_do(hon_vm *vm, const char *call, const char *where, hon_answer **out)
{
    if (out)
        *out = NULL;
    chunk *ch;
    ast_file *f;
    hon_status st = prepare_call(vm, call, where, &ch, &f);
    if (st != HON_OK) {
        ast_file_free(f);
        return st;
    }
    int32_t *readings = NULL;
    if (!begin_play(vm, &readings)) {
        st = HON_ERR_MEMORY;
    } else {
        size_t mark = vm->game.len;
        bool ok = vm_procedure(&vm->x, &vm->game, ch);
        char title[256];
        snprintf(title, sizeof title, "do %s", call);
        st = finish_play(vm, ok, mark, title, NULL, out);
    }
    hon_free(readings);
    chunk_free(ch);
    ast_file_free(f);
    return st;
}

hon_status hon_why_do(hon_vm *vm, const char *call, const char *where, hon_answer **out)
{
    if (out)
        *out = NULL;
    chunk *ch;
    ast_file *f;
    hon_status st = prepare_call(vm, call, where, &ch, &f);
    if (st != HON_OK) {
        ast_file_free(f);
        return st;
    }
    int32_t *readings = NULL;
    strbuf full = { 0 }, brief = { 0 }, json = { 0 };
    if (!begin_play_traced(vm, &readings, true)) {
        st = HON_ERR_MEMORY;
    } else {
        size_t mark = vm->game.len;
        bool ok = vm_procedure(&vm->x, &vm->game, ch);
        if (ok) {       /* rendered before finish_play resets the arena the trace points in */
            const val_env env = { vm->pg->res, vm->sc };
            trace_text(&env, &vm->x.trace, &full);
            trace_brief(&env, &vm->x.trace, &brief);
            trace_json(&env, &vm->x.trace, &json);
        }
        char title[256];
        snprintf(title, sizeof title, "do %s", call);
        st = finish_play(vm, ok, mark, title, NULL, out);
        if (st == HON_OK && out && *out) {
            /* the procedure's JSON object gets the trace as one more member */
            hon_answer *a = *out;
            strbuf j = { 0 };
            size_t n = strlen(a->json);
            sb_putn(&j, a->json, n ? n - 1 : 0);        /* without its closing brace */
            sb_puts(&j, ", \"trace\": ");
            sb_puts(&j, sb_str(&json));
            sb_putc(&j, '}');
            if (json.oom)
                j.oom = true;
            char *nj = sb_take(&j), *nt = sb_take(&full), *nw = sb_take(&brief);
            if (!nj || !nt || !nw) {
                hon_free(nj);
                hon_free(nt);
                hon_free(nw);
                hon_answer_free(a);
                *out = NULL;
                st = HON_ERR_MEMORY;   /* the procedure stays done: `undo` reverts it */
            } else {
                hon_free(a->json);
                hon_free(a->trace);
                a->json = nj;
                a->trace = nt;
                a->why = nw;
            }
        }
    }
    sb_free(&full);
    sb_free(&brief);
    sb_free(&json);
    hon_free(readings);
    chunk_free(ch);
    ast_file_free(f);
    return st;
}

typedef struct odds_play {
    hon_vm *vm;
    const chunk *ch;
    int32_t ed;
    const int32_t *readings;
} odds_play;

/* One path of hon_odds_do: the procedure with these dice, its lines joined, then undone. */
static bool odds_path(void *ud, dice_src *dice, uint64_t budget, uint64_t *used,
                      strbuf *outcome)
{
    odds_play *o = ud;
    hon_vm *vm = o->vm;
    play *g = &vm->game;
    vm_begin(&vm->x, vm->pg, vm->sc, o->ed, o->readings, dice, budget, vm->cfg.max_depth,
             false);
    sb_free(&g->out);
    g->lines = 0;
    size_t mark = g->len;
    bool ok = vm_procedure(&vm->x, g, o->ch);
    *used = vm->x.budget - vm->x.steps_left;
    if (ok) {
        vm->x.game = g;
        play_outcome(&vm->x, mark, outcome);
        play_revert(g, mark);
    }
    vm_end(&vm->x);
    return ok;
}

hon_status hon_odds_do(hon_vm *vm, const char *call, const char *where, hon_answer **out)
{
    if (out)
        *out = NULL;
    chunk *ch;
    ast_file *f;
    hon_status st = prepare_call(vm, call, where, &ch, &f);
    if (st != HON_OK) {
        ast_file_free(f);
        return st;
    }
    bool oom;
    int32_t ed = active_edition(vm);
    int32_t *readings = readings_for(vm, ed, NULL, &oom);
    strbuf text = { 0 }, json = { 0 };
    play *g = &vm->game;
    bool saved_first = g->first_choice, saved_bare = g->bare;
    play_stepper saved_step = g->stepper;
    g->first_choice = g->bare = true;
    g->stepper = NULL;
    g->choices_made = 0;
    odds_play o = { vm, ch, ed, readings };
    if (oom) {
        st = HON_ERR_MEMORY;
    } else if (!odds_enumerate_runs(&vm->x, odds_path, &o, vm->cfg.step_budget,
                                    "odds of a procedure", &text, &json)) {
        report_runtime(vm, &vm->x.err);
        st = vm->x.err.code == 209 ? HON_ERR_MEMORY : HON_ERR_RUNTIME;
    } else if (out) {
        if (g->choices_made)
            sb_puts(&text, "\nnote: every choice took the first legal option");
        *out = answer_new(sb_take(&text), sb_take(&json), hon_strdup("(odds have no trace)\n"));
        if (!*out)
            st = HON_ERR_MEMORY;
    }
    g->first_choice = saved_first;
    g->bare = saved_bare;
    g->stepper = saved_step;
    sb_free(&g->out);
    g->lines = 0;
    sb_free(&text);
    sb_free(&json);
    hon_free(readings);
    chunk_free(ch);
    ast_file_free(f);
    return st;
}

hon_status hon_move(hon_vm *vm, const char *unit_name, const char *const *squares, size_t n,
                    hon_answer **out)
{
    if (out)
        *out = NULL;
    if (!vm || !unit_name || (n && !squares))
        return HON_ERR_NOT_FOUND;
    if (!vm->sc) {
        report_plain(vm, 212, "<move>", "no board is loaded: load a scenario to move its units");
        return HON_ERR_NOT_FOUND;
    }
    const char *bare = unit_name[0] == '$' ? unit_name + 1 : unit_name;
    int32_t u = scene_unit(vm->sc, bare);
    if (u < 0) {
        report_plain(vm, 213, "<move>", "the board has no unit `$%s`", bare);
        return HON_ERR_NOT_FOUND;
    }
    if (n == 0) {
        report_plain(vm, 0, "<move>", "a move needs the squares of its path");
        return HON_ERR_NOT_FOUND;
    }
    int64_t *sqs = hon_calloc(n, sizeof *sqs);
    strbuf title = { 0 };
    if (!sqs)
        return HON_ERR_MEMORY;
    sb_printf(&title, "move $%s", bare);
    for (size_t i = 0; i < n; i++) {
        const char *s = squares[i] && squares[i][0] == '@' ? squares[i] + 1 : squares[i];
        int x, y;
        if (!s || geo_parse_xy(s, strlen(s), &x, &y) != GEO_OK ||
            scene_square(vm->sc, RES_SQUARE(x, y)) < 0) {
            report_plain(vm, 217, "<move>", "'%s' is not a square of the board",
                         squares[i] ? squares[i] : "");
            hon_free(sqs);
            sb_free(&title);
            return HON_ERR_NOT_FOUND;
        }
        sqs[i] = RES_SQUARE(x, y);
        sb_printf(&title, " %s", s);
    }
    int32_t *readings = NULL;
    hon_status st = HON_OK;
    if (!begin_play(vm, &readings)) {
        st = HON_ERR_MEMORY;
    } else {
        size_t mark = vm->game.len, done = 0;
        bool ok = play_walk(&vm->x, &vm->game, u, sqs, n, &done);
        strbuf extra = { 0 };
        if (ok && done < n)
            sb_printf(&extra, "note: the move stopped after %zu of %zu squares: a rule took $%s "
                      "off its path\n", done, n, bare);
        moment_note(vm->pg->res, RES_ON_ENTER, &extra);
        moment_note(vm->pg->res, RES_ON_WALK_END, &extra);
        st = finish_play(vm, ok, mark, sb_str(&title), extra.len ? sb_str(&extra) : NULL, out);
        sb_free(&extra);
    }
    hon_free(readings);
    hon_free(sqs);
    sb_free(&title);
    return st;
}

hon_status hon_next(hon_vm *vm, hon_answer **out)
{
    if (out)
        *out = NULL;
    if (!vm)
        return HON_ERR_NOT_FOUND;
    int32_t *readings = NULL;
    hon_status st;
    if (!begin_play(vm, &readings)) {
        st = HON_ERR_MEMORY;
    } else {
        size_t mark = vm->game.len;
        bool ok = play_next(&vm->x, &vm->game);
        st = finish_play(vm, ok, mark, "next", NULL, out);
    }
    hon_free(readings);
    return st;
}

hon_status hon_undo(hon_vm *vm, hon_answer **out)
{
    if (out)
        *out = NULL;
    if (!vm)
        return HON_ERR_NOT_FOUND;
    size_t records = 0;
    const char *title = play_undo(&vm->game, &records);
    if (!title)
        return HON_ERR_NOT_FOUND;
    if (out) {
        strbuf t = { 0 };
        sb_printf(&t, "undone: %s (%zu change%s)\n", title, records, records == 1 ? "" : "s");
        char *s = sb_take(&t);
        *out = answer_new(s, hon_strdup("{\"undone\": true}"), hon_strdup(s ? s : ""));
        if (!*out)
            return HON_ERR_MEMORY;
    }
    return HON_OK;
}

void hon_clock(const hon_vm *vm, int64_t *turn, const char **phase)
{
    if (turn)
        *turn = vm ? vm->game.turn : 1;
    if (phase) {
        const res_program *p = vm ? vm->pg->res : NULL;
        *phase = p && vm->game.phase >= 0 && (size_t)vm->game.phase < p->enums[E_PHASE].len
                     ? p->enums[E_PHASE].members[vm->game.phase].name : NULL;
    }
}
