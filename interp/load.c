/* load.c — loading rules (hon.h: hon_load_file, hon_load_source, hon_load_dir, hon_check_file,
 * hon_each_file, hon_vm_copy), over session.h. All or nothing: every load re-resolves and
 * recompiles every kept source plus the new ones into a fresh prog (rebuild), swapped in only
 * without error; then the board is rebuilt (view.c) and the game restarts. Each source is parsed
 * once: the build resolves a copy of its tree (ast_clone_all), which shares the tree's strings
 * and text. A session that answers once (hon_build_lazily) and loads a set of files the cache
 * has a build record of (cache.h: it built once with no diagnostic) resolves the bodies of its
 * rules, fns and defaults only when they are first used (rebuild_as, res_resolve_as).
 */
/* realpath() (the identity of a loaded file) is XSI: glibc declares it with _XOPEN_SOURCE. */
#define _XOPEN_SOURCE 700
/* readdir's d_type (DT_REG: a regular file, no link) is BSD's and Linux's: _DEFAULT_SOURCE. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arena.h"
#include "ast_image.h"
#include "cache.h"
#include "mem.h"
#include "session.h"
#include "view.h"

static void source_free(session_source *s)
{
    ast_file_free(s->parsed);
    mem_free(s->image);
    mem_free(s->path);
    mem_free(s->text);
    mem_free(s->real);
}

/* Whether two sources are the same file: by canonical path when both have one (`x.hon`,
 * `./x.hon`, `dir/../x.hon` are one file), else by the name as given. */
static bool same_source(const session_source *a, const session_source *b)
{
    if (a->real && b->real)
        return strcmp(a->real, b->real) == 0;
    return strcmp(a->path, b->path) == 0;
}

/* Reads a whole file into a new source (path and text copied). real_dir: the canonical path
 * of the directory path was listed from as real_dir's spelling + "/" + name, or NULL; when
 * given and path is no symbolic link, the file's canonical path is real_dir/name, found with
 * one lstat where realpath() reads every component of the path again (bench.md §9), or with
 * none when the listing said so (regular: readdir's DT_REG, no link; the lstat was a system
 * call a file at each start). */
static hon_status read_source(hon_vm *vm, const char *path, const char *real_dir, const char *name,
                              bool regular, session_source *out)
{
    *out = (session_source){ 0 };
    char *text;
    size_t len;
    hon_status st = session_read_file(vm, path, E_READ, &text, &len);
    if (st != HON_OK)
        return st;
    out->len = len;
    out->text = text;
    out->path = mem_strdup(path);
    if (!out->text || !out->path) {
        source_free(out);
        return HON_ERR_MEMORY;
    }
    struct stat fs;
    if (real_dir && (regular || (lstat(path, &fs) == 0 && S_ISREG(fs.st_mode)))) {
        size_t dl = strlen(real_dir), nl = strlen(name);
        out->real = mem_malloc(dl + nl + 2);
        if (!out->real) {
            source_free(out);
            return HON_ERR_MEMORY;
        }
        memcpy(out->real, real_dir, dl);
        out->real[dl] = '/';
        memcpy(out->real + dl + 1, name, nl + 1);
        return HON_OK;
    }
    char *real = realpath(path, NULL); /* malloc'd by libc; without it, names compare */
    if (real) {
        out->real = mem_strdup(real);
        free(real);
    }
    return HON_OK;
}

/* A copy of the parsed tree of src for one build to resolve (new; NULL on OOM): its nodes and
 * citations are its own (ast_clone_all: the resolver writes into both), its strings, path and
 * text the parsed tree's (the program is freed before its sources, rebuild_as). */
static ast_file *copy_tree(const session_source *src)
{
    const ast_file *from = src->parsed;
    ast_file *f = ast_file_new(NULL, NULL, 0, from->file_id);
    if (!f)
        return NULL;
    f->path = from->path;
    f->text = from->text;
    f->text_len = from->text_len;
    f->decls = (ast_vec){ 0 };
    if (from->decls.len) {
        f->decls.items = arena_alloc(f->arena, (size_t)from->decls.len * sizeof *f->decls.items);
        f->decls.cap = f->decls.items ? from->decls.len : 0;
    }
    for (uint32_t i = 0; f && i < from->decls.len; i++) {
        ast_node *d = f->decls.items ? ast_clone_all(f, from->decls.items[i]) : NULL;
        if (!d) {
            ast_file_free(f);
            return NULL;
        }
        f->decls.items[f->decls.len++] = d;
    }
    return f;
}

/* The tree of src for one build to resolve (new; NULL on OOM): read from its image when the
 * parse cache had one (the first time, cache_parse_file reads it), else a copy of the tree
 * parsed once and kept in the source. Only files go through the cache: a text given as such
 * (hon_load_source: an editor's unsaved buffer, a test's program) is parsed, so that the
 * language server's every keystroke does not leave an image behind. lazy (a session that
 * answers once): the bodies of the rules and fns read from an image stay in the image file
 * until the resolver reaches them, and the source keeps no image (ast_image_read_apart,
 * bench.md §9: a later build reads it again). Parse errors go to dl. */
static ast_file *tree_of(session_source *s, bool lazy, diag_list *dl)
{
    if (s->image)
        return ast_image_read_as(s->image, s->image_len, s->key, s->path, s->text, s->len,
                                 s->file_id, lazy);
    if (!s->parsed && !s->real)
        s->parsed = front_parse_file(s->path, s->text, s->len, s->file_id, dl);
    if (!s->parsed) {
        ast_file *f = cache_parse_file(s->path, s->text, s->len, s->file_id, dl, &s->image,
                                       &s->image_len, &s->key, lazy);
        if (s->image || (f && f->image_path))
            return f; /* read from the image (kept, or read apart): the build's own */
        s->parsed = f;
    }
    return s->parsed ? copy_tree(s) : NULL;
}

/* The trees of the n sources of list (tree_of) in a new array that the caller gives to
 * prog_build; NULL on OOM or when a source does not parse. Parse errors go to dl. */
static ast_file **parse_all(session_source **list, size_t n, bool lazy, diag_list *dl)
{
    ast_file **files = mem_calloc(n ? n : 1, sizeof *files);
    for (size_t i = 0; files && i < n; i++) {
        files[i] = tree_of(list[i], lazy, dl);
        if (!files[i]) {
            for (size_t k = 0; k < i; k++)
                ast_file_free(files[k]);
            mem_free(files);
            return NULL;
        }
    }
    return files;
}

/* The key of the build record of the n sources of list (cache_record_key), into *key; false
 * when there is none: a source is a text given as such (it never went through the cache, so
 * it has no key), there is no source, or memory runs out. Call after parse_all. */
static bool record_key(session_source *const *list, size_t n, uint64_t *key)
{
    uint64_t *keys = n ? mem_malloc(n * sizeof *keys) : NULL;
    for (size_t i = 0; keys && i < n; i++) {
        if (!list[i]->real) {
            mem_free(keys);
            return false;
        }
        keys[i] = list[i]->key;
    }
    if (keys)
        *key = cache_record_key(keys, n);
    mem_free(keys);
    return keys != NULL;
}

/* Makes room for n sources in the vm; false on OOM (then nothing changed). */
static bool room_for_sources(hon_vm *vm, size_t n)
{
    if (n > vm->srcs_cap) {
        size_t cap = n + 8;
        session_source *srcs = mem_realloc(vm->srcs, cap * sizeof *srcs);
        if (!srcs)
            return false;
        vm->srcs = srcs;
        vm->srcs_cap = cap;
    }
    return true;
}

/* Takes the extras into the vm's sources (room made), each replacing the one it replaces[e]
 * (freed: the program built from it must be gone, its copies share the tree's strings), or
 * appended. */
static void keep_sources(hon_vm *vm, session_source *extra, size_t nextra,
                         const ptrdiff_t *replaces)
{
    for (size_t e = 0; e < nextra; e++) {
        if (replaces[e] >= 0) {
            source_free(&vm->srcs[replaces[e]]);
            vm->srcs[replaces[e]] = extra[e];
        } else {
            vm->srcs[vm->nsrcs++] = extra[e];
        }
    }
}

/* Gives the diagnostics' entries of the sources that the extras replace (replaces[e] >= 0) their
 * own copy of the text, which keep_sources is about to free: a diagnostic or a trace naming the
 * old text may still be rendered after the reload. false on OOM (the entries copied so far
 * keep their copies, which is harmless). */
static bool own_replaced(hon_vm *vm, const ptrdiff_t *replaces, size_t nextra)
{
    for (size_t e = 0; e < nextra; e++)
        if (replaces[e] >= 0 && !diag_sources_own(&vm->sources, vm->srcs[replaces[e]].file_id))
            return false;
    return true;
}

/* Whether the session's board (there is one) loads under the program pg just built (view.h:
 * its names resolve and its set-up checks pass under the active edition and readings): the
 * board built again is *out (new: the caller keeps or frees it). pg is made the vm's program for
 * the try only: vm->pg is the one before again on return, and the generations are moved on so
 * that no handle, reading or memo of the try is taken for the program before's. When it does
 * not load, its diagnostics are reported, then E317 at `name` (the file loaded; NULL: the
 * prompt's), and the status is returned (HON_ERR_COMPILE, or HON_ERR_MEMORY with E230 when the
 * memory cap stopped it): nothing of the load is kept (docs/spec/repl.md, `load`). */
static hon_status board_fits(hon_vm *vm, prog *pg, const char *name, scene **out)
{
    prog *was = vm->pg;
    vm->pg = pg;
    vm->prog_gen++;
    vm->choice_gen++;
    prog_combine_edition(pg, session_edition(vm));
    hon_status st = view_load_scene(vm, NULL, vm->board_path, vm->board_text, vm->board_len, out);
    vm->pg = was;
    vm->prog_gen++;
    vm->choice_gen++;
    if (st == HON_OK)
        return HON_OK;
    st = session_cap_report(vm, st, vm->board_path);
    session_report(vm, E_BOARD_DROPPED, name,
                   "the rules of '%s' were not loaded: the board %s would not load under them "
                   "(the board, its game and the rules before stay)",
                   name ? name : "<repl>", vm->board_path);
    return st;
}

/* Builds a program from every loaded source plus `extra` (new sources, registered here). An
 * extra that is a file already loaded (same_source) replaces it in place (a reload); the others
 * come after, in order. keep: on success swap the program in and take ownership of the
 * extras; else discard it. The extras are freed by this function unless they were kept.
 * quiet: when the build fails, its diagnostics are dropped, not reported (a try that the
 * caller makes again another way: hon_load_dirs). */
static hon_status rebuild_as(hon_vm *vm, session_source *extra, size_t nextra, bool keep,
                             bool quiet)
{
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    hon_status st = HON_OK;
    uint32_t sources_before = vm->sources.len;
    session_cap_begin(vm);
    size_t n = vm->nsrcs;
    session_source **list = mem_calloc(vm->nsrcs + nextra + 1, sizeof *list);
    ptrdiff_t *replaces = mem_calloc(nextra + 1, sizeof *replaces);
    if (!list || !replaces)
        st = HON_ERR_MEMORY;
    for (size_t i = 0; st == HON_OK && i < vm->nsrcs; i++)
        list[i] = &vm->srcs[i];
    for (size_t e = 0; st == HON_OK && e < nextra; e++) {
        /* borrowed: the text lives in the source as long as the entry does (own_replaced,
         * and the trim below before the extras are freed) */
        extra[e].file_id =
            diag_sources_borrow(&vm->sources, extra[e].path, extra[e].text, extra[e].len);
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
    ast_file **files = st == HON_OK ? parse_all(list, n, vm->lazy, &dl) : NULL;
    if (st == HON_OK && !files)
        st = HON_ERR_MEMORY;
    prog *pg = NULL;
    if (st == HON_OK && dl.errors) {
        st = HON_ERR_COMPILE;
        for (size_t i = 0; i < n; i++)
            ast_file_free(files[i]);
        mem_free(files);
    } else if (st == HON_OK) {
        /* The build record (cache.h): a session that answers once, loading a set of files
         * that once built with no diagnostic at all (none so far either: the parse's), leaves
         * the bodies to their first use; a set never seen builds whole, and is recorded when
         * that build reports nothing. */
        uint64_t rk = 0;
        bool recordable = vm->lazy && dl.len == 0 && record_key(list, n, &rk);
        bool defer = recordable && cache_record_found(rk);
        pg = prog_build(files, n, vm->lazy, defer, &dl); /* takes the files */
        if (!pg)
            st = HON_ERR_COMPILE;
        else if (recordable && !defer && dl.len == 0)
            cache_record_keep(rk);
    }
    if (st == HON_OK && keep && (!room_for_sources(vm, n) || !own_replaced(vm, replaces, nextra)))
        st = HON_ERR_MEMORY;
    if (quiet && st != HON_OK) {
        diag_list_clear(&dl);
        mem_cap_clear();
    } else {
        session_emit(vm, &dl);
        if (st != HON_OK) /* E230 at the file when the memory cap stopped it */
            st = session_cap_report(vm, st, nextra ? extra[0].path : NULL);
    }
    /* All or nothing with the board too: rules the board would not load under are not kept
     * (E317), the board and its game staying as they were. */
    scene *sc = NULL;
    if (st == HON_OK && keep && vm->sc)
        st = board_fits(vm, pg, nextra ? extra[0].path : NULL, &sc);
    if (st == HON_OK && keep) {
        prog_free(vm->pg);
        vm->pg = pg;
        pg = NULL;
        keep_sources(vm, extra, nextra, replaces);
        session_forget_stale_setting(vm);
        vm->prog_gen++;
        vm->choice_gen++;
        prog_combine_edition(vm->pg, session_edition(vm)); /* not at the first answer */
        if (sc) { /* the board built under the new rules (board_fits) */
            scene_free(vm->sc);
            vm->sc = sc;
        }
        session_new_game(vm);
    } else {
        prog_free(pg); /* before the sources its trees share strings with */
        pg = NULL;
        /* Its diagnostics are rendered: a failed or checked file's text is not kept (the
         * entries go first: they borrow the extras' texts). */
        diag_sources_trim(&vm->sources, sources_before);
        for (size_t e = 0; e < nextra; e++)
            source_free(&extra[e]);
    }
    prog_free(pg);
    mem_free(list);
    mem_free(replaces);
    return st;
}

static hon_status rebuild(hon_vm *vm, session_source *extra, size_t nextra, bool keep)
{
    return rebuild_as(vm, extra, nextra, keep, false);
}

hon_status hon_load_source(hon_vm *vm, const char *name, const char *text, size_t len)
{
    if (!vm || !text)
        return HON_ERR_NOT_FOUND;
    session_source s = { .path = mem_strdup(name ? name : "<source>"),
                         .text = mem_strndup(text, len),
                         .len = len };
    if (!s.path || !s.text) {
        source_free(&s);
        return HON_ERR_MEMORY;
    }
    return rebuild(vm, &s, 1, true);
}

/* Reads the file `path` and rebuilds with it (kept or only checked). */
static hon_status load_one(hon_vm *vm, const char *path, bool keep)
{
    if (!vm || !path)
        return HON_ERR_NOT_FOUND;
    session_source s;
    hon_status st = read_source(vm, path, NULL, NULL, false, &s);
    if (st != HON_OK)
        return st;
    return rebuild(vm, &s, 1, keep);
}

hon_status hon_load_file(hon_vm *vm, const char *path)
{
    return load_one(vm, path, true);
}

hon_status hon_check_file(hon_vm *vm, const char *path)
{
    return load_one(vm, path, false);
}

/* A file of a directory as listed: its path, and whether the listing said it is a regular
 * file (d_type DT_REG: no symbolic link), which a file system need not say (DT_UNKNOWN). */
typedef struct {
    char *path;
    bool regular;
} dir_entry;

static int cmp_entries(const void *a, const void *b)
{
    return strcmp(((const dir_entry *)a)->path, ((const dir_entry *)b)->path);
}

/* load_list_dir, and with regular not NULL a new array of *n flags beside the names (free it
 * with mem_free; NULL when there are none): whether the listing said the file is a regular
 * file, no symbolic link (read_source's canonical path then needs no lstat). */
static hon_status list_dir(hon_vm *vm, const char *dir, const char *suffix, char ***out, size_t *n,
                           bool **regular)
{
    *out = NULL;
    *n = 0;
    if (regular)
        *regular = NULL;
    DIR *d = opendir(dir);
    if (!d) {
        if (vm)
            session_report(vm, E_READ, dir, "cannot open directory '%s': %s", dir, strerror(errno));
        return HON_ERR_IO;
    }
    size_t sl = strlen(suffix);
    dir_entry *ents = NULL;
    size_t cap = 0, dl = strlen(dir), k = 0;
    hon_status st = HON_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= sl || strcmp(e->d_name + l - sl, suffix) != 0 || e->d_name[0] == '.')
            continue;
        char *full = MEM_GROW(ents, k, cap) ? mem_malloc(dl + l + 2) : NULL;
        if (!full) {
            st = HON_ERR_MEMORY;
            break;
        }
        /* DIR and NAME joined by one '/' (`d/` gives `d/x.hon`, not `d//x.hon`) */
        size_t at = dl && dir[dl - 1] == '/' ? dl : dl + 1;
        memcpy(full, dir, dl);
        full[dl] = '/';
        memcpy(full + at, e->d_name, l + 1);
        /* only files: a subdirectory named x.hon is not read (docs/spec/repl.md), nor a link
         * to one; the listing says which entries are directories, or stat does */
        struct stat sb;
        if (e->d_type == DT_DIR ||
            (e->d_type != DT_REG && stat(full, &sb) == 0 && S_ISDIR(sb.st_mode))) {
            mem_free(full);
            continue;
        }
        ents[k++] = (dir_entry){ full, e->d_type == DT_REG };
    }
    closedir(d);
    if (st == HON_OK && k)
        qsort(ents, k, sizeof *ents, cmp_entries);
    char **names = k ? mem_malloc(k * sizeof *names) : NULL;
    bool *flags = k && regular ? mem_malloc(k * sizeof *flags) : NULL;
    if (k && (!names || (regular && !flags))) { /* the paths go: none is handed out */
        for (size_t i = 0; i < k; i++)
            mem_free(ents[i].path);
        mem_free(ents);
        mem_free(names);
        mem_free(flags);
        return HON_ERR_MEMORY;
    }
    for (size_t i = 0; i < k; i++) {
        names[i] = ents[i].path;
        if (flags)
            flags[i] = ents[i].regular;
    }
    mem_free(ents);
    *out = names;
    *n = k;
    if (regular)
        *regular = flags;
    return st;
}

hon_status load_list_dir(hon_vm *vm, const char *dir, const char *suffix, char ***out, size_t *n)
{
    return list_dir(vm, dir, suffix, out, n, NULL);
}

/* Reads every *.hon file of dir, in name order, into new sources appended to *srcs (*n of
 * them, room for *cap), reporting a file or directory that cannot be read. On failure the
 * sources read before stay in *srcs. */
static hon_status read_dir(hon_vm *vm, const char *dir, session_source **srcs, size_t *n,
                           size_t *cap)
{
    char **names;
    size_t k;
    bool *regular;
    hon_status st = list_dir(vm, dir, ".hon", &names, &k, &regular);
    char *real_dir = st == HON_OK && k ? realpath(dir, NULL) : NULL; /* libc's malloc */
    size_t dl = strlen(dir);
    for (size_t i = 0; st == HON_OK && i < k; i++) {
        if (!MEM_GROW(*srcs, *n, *cap))
            st = HON_ERR_MEMORY;
        else if ((st = read_source(vm, names[i], real_dir, names[i] + dl + 1, regular[i],
                                   &(*srcs)[*n])) == HON_OK)
            ++*n;
    }
    free(real_dir);
    for (size_t i = 0; i < k; i++)
        mem_free(names[i]);
    mem_free(names);
    mem_free(regular);
    return st;
}

static void free_sources(session_source *srcs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        source_free(&srcs[i]);
    mem_free(srcs);
}

hon_status hon_load_dir(hon_vm *vm, const char *dir)
{
    if (!vm || !dir)
        return HON_ERR_NOT_FOUND;
    session_source *srcs = NULL;
    size_t n = 0, cap = 0;
    hon_status st = read_dir(vm, dir, &srcs, &n, &cap);
    if (st != HON_OK) {
        free_sources(srcs, n);
        return st;
    }
    st = rebuild(vm, srcs, n, true);
    mem_free(srcs);
    return st;
}

hon_status hon_load_dirs(hon_vm *vm, const char *const *dirs, size_t n, size_t *loaded)
{
    if (loaded)
        *loaded = 0;
    if (!vm || (n && !dirs))
        return HON_ERR_NOT_FOUND;
    session_source *srcs = NULL;
    size_t nsrcs = 0, cap = 0, whole = 0; /* whole: the directories read to their end */
    hon_status read = HON_OK;
    for (; whole < n; whole++) {
        size_t before = nsrcs;
        read = dirs[whole] ? read_dir(vm, dirs[whole], &srcs, &nsrcs, &cap) : HON_ERR_NOT_FOUND;
        if (read != HON_OK) { /* this one is not loaded: its sources read so far go */
            for (size_t i = before; i < nsrcs; i++)
                source_free(&srcs[i]);
            nsrcs = before;
            break;
        }
    }
    hon_status st = whole ? rebuild_as(vm, srcs, nsrcs, true, true) : HON_OK;
    mem_free(srcs); /* the sources themselves were kept or freed by the build */
    if (st == HON_OK) {
        if (loaded)
            *loaded = whole;
        return read;
    }
    /* One of them does not build: each is loaded in turn, reported as hon_load_dir reports. */
    for (size_t i = 0; i < whole; i++) {
        if ((st = hon_load_dir(vm, dirs[i])) != HON_OK)
            return st;
        if (loaded)
            ++*loaded;
    }
    return read;
}

hon_vm *hon_vm_copy(const hon_vm *vm)
{
    if (!vm)
        return NULL;
    hon_vm *c = hon_vm_new(&vm->cfg);
    if (c)
        c->lazy = vm->lazy;
    session_source *srcs = c ? mem_calloc(vm->nsrcs ? vm->nsrcs : 1, sizeof *srcs) : NULL;
    hon_status st = srcs ? HON_OK : HON_ERR_MEMORY;
    for (size_t i = 0; st == HON_OK && i < vm->nsrcs; i++) {
        const session_source *from = &vm->srcs[i];
        session_source *to = &srcs[i];
        *to = (session_source){ .path = mem_strdup(from->path),
                                .text = mem_strndup(from->text, from->len),
                                .len = from->len,
                                .real = from->real ? mem_strdup(from->real) : NULL };
        if (!to->path || !to->text || (from->real && !to->real)) {
            for (size_t k = 0; k <= i; k++)
                source_free(&srcs[k]);
            st = HON_ERR_MEMORY;
        }
    }
    if (st == HON_OK && vm->nsrcs)
        st = rebuild(c, srcs, vm->nsrcs, true);
    mem_free(srcs);
    if (st == HON_OK && vm->edition)
        st = hon_set_edition(c, vm->edition);
    for (size_t i = 0; st == HON_OK && i < vm->nchoices; i++)
        st = hon_set_variant(c, vm->choices[i].variant, vm->choices[i].reading);
    if (st != HON_OK) {
        hon_vm_free(c);
        return NULL;
    }
    return c;
}

size_t hon_each_file(const hon_vm *vm, void (*fn)(void *ud, const char *path), void *ud)
{
    if (!vm)
        return 0;
    for (size_t i = 0; fn && i < vm->nsrcs; i++)
        fn(ud, vm->srcs[i].path);
    return vm->nsrcs;
}
