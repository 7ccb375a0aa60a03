/* info.c — what a hon_vm tells about itself, changing nothing (hon.h): its rules listed, shown
 * and disassembled (hon_list_rules, hon_show, hon_disassemble), its citation IDs
 * (hon_each_citation), its names for completion (hon_complete) and its declarations with their
 * places (hon_each_decl), the build (hon_version, hon_data_dir, hon_source_dir, hon_build_dir,
 * hon_install_prefix; which of the two data directories a program uses: hon_bundle_dir, and
 * why: hon_runs_from_build_tree; its bundled boards: hon_each_bundled_board).
 * The directories come from config.h (meson.build).
 *
 * Also what a name written in a loaded file stands for, as the resolver read it (hon_ref_at),
 * and a scenario text's directives (hon_each_scenario_symbol): what `hon lsp` shows.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cite.h"
#include "config.h"
#include "disasm.h"
#include "hash.h"
#include "mem.h"
#include "near.h"
#include "scenario.h"
#include "session.h"

/* ---- citations ---- */

typedef struct cite_count {
    const char *id; /* borrowed from the cite */
    size_t n;
    UT_hash_handle hh;
} cite_count;

typedef struct count_ctx {
    cite_count *table;
    bool oom;
} count_ctx;

static void count_cite(void *ud, const ast_node *owner, ast_node *cite)
{
    count_ctx *c = ud;
    cite_count *e = NULL;
    (void)owner;
    if (!cite->name || c->oom)
        return;
    HASH_FIND_STR(c->table, cite->name, e);
    if (!e) {
        if (!(e = mem_calloc(1, sizeof *e))) {
            c->oom = true;
            return;
        }
        e->id = cite->name;
        HASH_ADD_KEYPTR(hh, c->table, e->id, strlen(e->id), e);
        if (!HON_HASH_ADDED(e)) {
            mem_free(e);
            c->oom = true;
            return;
        }
    }
    e->n++;
}

typedef struct source_walk {
    const prog *pg;
    count_ctx *counts;
    void (*fn)(void *ud, const hon_citation *c);
    void *ud;
    size_t n;
} source_walk;

static void each_source(void *ud, const ast_node *src)
{
    source_walk *w = ud;
    cite_count *e = NULL;
    if (!src->name)
        return;
    HASH_FIND_STR(w->counts->table, src->name, e);
    hon_citation c = { .id = src->name,
                       .source = src->title,
                       .path = prog_file_path(w->pg, src->loc.file),
                       .line = src->loc.line,
                       .cites = e ? e->n : 0 };
    w->n++;
    if (w->fn)
        w->fn(w->ud, &c);
}

size_t hon_each_citation(const hon_vm *vm, void (*fn)(void *ud, const hon_citation *c), void *ud)
{
    if (!vm || !vm->pg)
        return 0;
    count_ctx counts = { 0 };
    source_walk w = { vm->pg, &counts, fn, ud, 0 };
    cite_each(vm->pg->files, vm->pg->nfiles, NULL, count_cite, &counts);
    if (!counts.oom)
        cite_each(vm->pg->files, vm->pg->nfiles, each_source, NULL, &w);
    cite_count *e, *tmp;
    HASH_ITER(hh, counts.table, e, tmp)
    {
        HASH_DEL(counts.table, e);
        mem_free(e);
    }
    return counts.oom ? 0 : w.n;
}

/* ---- the build ---- */

const char *hon_version(void)
{
    return HON_VERSION;
}

const char *hon_data_dir(void)
{
    const char *env = getenv("HON_DATADIR");
    return env && env[0] ? env : HON_DATADIR;
}

const char *hon_source_dir(void)
{
    return HON_SOURCE_ROOT;
}

const char *hon_build_dir(void)
{
    return HON_BUILD_ROOT;
}

const char *hon_install_prefix(void)
{
    return HON_PREFIX;
}

/* Whether the running program's file lies inside the build tree hon was built in (Linux's
 * /proc/self/exe; elsewhere never): whether a directory above it is that tree, compared by
 * device and inode, so that a symbolic link on the way to either does not matter. */
bool hon_runs_from_build_tree(void)
{
    char dir[PATH_MAX];
    struct stat root, st;
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0 || stat(HON_BUILD_ROOT, &root) != 0)
        return false;
    dir[n] = '\0';
    for (char *slash = strrchr(dir, '/'); slash && slash != dir; slash = strrchr(dir, '/')) {
        *slash = '\0';
        if (stat(dir, &st) == 0 && st.st_dev == root.st_dev && st.st_ino == root.st_ino)
            return true;
    }
    return false;
}

const char *hon_bundle_dir(void)
{
    const char *env = getenv("HON_DATADIR");
    if (env && env[0])
        return env;
    return hon_runs_from_build_tree() ? HON_SOURCE_ROOT : HON_DATADIR;
}

size_t hon_each_bundled_board(void (*fn)(void *ud, const char *path), void *ud)
{
    char dir[PATH_MAX];
    char **names;
    size_t n;
    snprintf(dir, sizeof dir, "%s/examples/boards", hon_bundle_dir());
    hon_status st = load_list_dir(NULL, dir, ".scn", &names, &n);
    if (st == HON_ERR_IO)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (fn && st == HON_OK)
            fn(ud, names[i]);
        mem_free(names[i]);
    }
    mem_free(names);
    return st == HON_OK ? n : 0;
}

/* ---- rules: listing, showing, disassembling ---- */

static void cites_of(const res_program *p, const ast_vec *cites, strbuf *b)
{
    for (uint32_t i = 0; i < cites->len; i++) {
        const ast_node *c = cites->items[i];
        if (i)
            sb_puts(b, "; ");
        sb_puts(b, model_cite_id(c) ? model_cite_id(c) : "?");
        const char *from = model_cite_source(p, c);
        bool named = from && trace_source_ends_with_example(from); /* no 2nd "example" */
        if (from && model_cite_example(c) && named)
            sb_printf(b, " (%s %s)", from, model_cite_example(c));
        else if (from)
            sb_printf(b, " (%s)", from);
        if (model_cite_example(c) && !named)
            sb_printf(b, ", example %s", model_cite_example(c));
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

/* Calls fn for rule r when its name, doc or citations contain word; true when it did. */
static bool list_rule(const prog *pg, const res_rule *r, const char *word,
                      void (*fn)(void *ud, const hon_rule_info *r), void *ud)
{
    const res_program *p = pg->res;
    strbuf cites = { 0 };
    cites_of(p, &r->decl->cites, &cites);
    bool match = contains_ci(r->name, word) || contains_ci(r->decl->doc, word) ||
                 contains_ci(sb_str(&cites), word);
    if (match && fn) {
        hon_rule_info info = {
            .name = r->name,
            .query = p->queries[r->query].name,
            .doc = r->decl->doc,
            .cites = sb_str(&cites),
            .path = prog_file_path(pg, r->decl->loc.file),
            .line = r->decl->loc.line,
            .edition = r->edition >= 0 ? p->editions[r->edition].name : NULL,
            .module = res_module_name(p, r->module),
        };
        fn(ud, &info);
    }
    sb_free(&cites);
    return match;
}

size_t hon_list_rules(const hon_vm *vm, const char *word,
                      void (*fn)(void *ud, const hon_rule_info *r), void *ud)
{
    if (!vm)
        return 0;
    const prog *pg = vm->pg;
    const res_program *p = pg->res;
    int32_t ed = session_edition(vm);
    size_t listed = 0;
    for (uint32_t q = 0; q < p->nqueries; q++) {
        const res_ruleset *rs = model_rules_of(p, ed, q);
        for (size_t i = 0; i < rs->len; i++)
            listed += list_rule(pg, &p->rules[rs->rules[i]], word, fn, ud);
    }
    return listed;
}

size_t hon_list_unused_rules(const hon_vm *vm, const char *word,
                             void (*fn)(void *ud, const hon_rule_info *r), void *ud)
{
    if (!vm || session_edition(vm) < 0) /* editionless: every module's rules are listed */
        return 0;
    const prog *pg = vm->pg;
    const res_program *p = pg->res;
    size_t listed = 0;
    for (size_t r = 0; r < p->nrules; r++) {
        int32_t m = p->rules[r].module;
        if (p->rules[r].edition != -1 || m <= 0 || (size_t)m >= p->nmodules)
            continue; /* an edition's own rule, or one of the unnamed module (used by all) */
        bool used = false;
        for (size_t e = 0; e < p->neditions && !used; e++)
            used = p->editions[e].uses && p->editions[e].uses[m];
        if (!used)
            listed += list_rule(pg, &p->rules[r], word, fn, ud);
    }
    return listed;
}

/* The rule with that full name in the active edition, else the first declared. */
static int32_t find_rule(const hon_vm *vm, const char *name)
{
    const res_program *p = vm->pg->res;
    int32_t ed = session_edition(vm);
    for (uint32_t q = 0; q < p->nqueries; q++) {
        const res_ruleset *rs = model_rules_of(p, ed, q);
        for (size_t i = 0; i < rs->len; i++)
            if (strcmp(p->rules[rs->rules[i]].name, name) == 0)
                return (int32_t)rs->rules[i];
    }
    return model_find_rule(p, name);
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

/* Writes the source of the declaration or item at loc (its file's text), if the session has
 * it. */
static void show_source(const hon_vm *vm, ast_loc loc, FILE *out)
{
    size_t len;
    const char *text = session_source_text(vm, loc.file, &len);
    if (text)
        write_decl_source(text, len, loc, out);
}

/* Writes `# revised by edition E — FILE:LINE` and the text of the revision `rev`. */
static void show_revision(const hon_vm *vm, const ast_node *rev, int32_t ed, FILE *out)
{
    const res_program *p = vm->pg->res;
    fprintf(out, "# revised by edition %s — %s:%u\n",
            ed >= 0 && (size_t)ed < p->neditions ? p->editions[ed].name : "?",
            prog_file_path(vm->pg, rev->loc.file), rev->loc.line);
    show_source(vm, rev->loc, out);
}

/* The revisions that made rule r, the first first. */
static void show_rule_revisions(const hon_vm *vm, int32_t r, FILE *out)
{
    const res_rule *rule = &vm->pg->res->rules[r];
    if (!rule->revision || rule->revises < 0)
        return;
    show_rule_revisions(vm, rule->revises, out);
    show_revision(vm, rule->revision, rule->edition, out);
}

/* The revisions of the active edition's version of table `t` (each once), shown. */
static void show_table_revisions(const hon_vm *vm, int32_t t, FILE *out)
{
    const res_program *p = vm->pg->res;
    const res_table *v = &p->tables[res_table_of(p, session_edition(vm), (uint32_t)t)];
    for (size_t r = 0; v->version_of >= 0 && r < v->nrows; r++) {
        const ast_node *rev = v->rows[r].revision;
        bool seen = false;
        for (size_t k = 0; rev && k < r; k++)
            seen |= v->rows[k].revision == rev;
        if (rev && !seen)
            show_revision(vm, rev, v->rows[r].edition, out);
    }
}

hon_status hon_show(const hon_vm *vm, const char *name, FILE *out)
{
    if (!vm || !name || !out)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    const ast_node *decl = NULL;
    const char *what = "declaration";
    int32_t r = find_rule(vm, name), f = model_find_fn(p, name);
    const res_rule *rule = r >= 0 ? &p->rules[r] : NULL;
    const res_fn *fv = f >= 0 ? &p->fns[res_fn_of(p, session_edition(vm), (uint32_t)f)] : NULL;
    /* a revised rule is its rule's text and the revision's; a revised fn, the revision's */
    while (rule && rule->revision && rule->revises >= 0)
        rule = &p->rules[rule->revises];
    if (rule) {
        decl = rule->decl;
        what = "rule";
    } else if (fv) {
        decl = fv->decl;
    } else {
        decl = model_find_decl(p, name);
    }
    if (!decl)
        return HON_ERR_NOT_FOUND;
    fprintf(out, "# %s %s — %s:%u\n", what, name, prog_file_path(vm->pg, decl->loc.file),
            decl->loc.line);
    if (rule && rule->edition >= 0)
        fprintf(out, "# %s by edition %s\n", rule->replaces ? "replaced" : "added",
                p->editions[rule->edition].name);
    if (!rule && fv && fv->edition >= 0)
        fprintf(out, "# revised by edition %s\n", p->editions[fv->edition].name);
    show_source(vm, decl->loc, out);
    if (r >= 0)
        show_rule_revisions(vm, r, out);
    if (decl->kind == AST_TABLE)
        show_table_revisions(vm, model_find_table(p, name), out);
    const char *doc = decl->doc;
    if (!doc && decl->kind == AST_EDITION)
        doc = decl->title;
    if (doc)
        fprintf(out, "doc: %s\n", doc);
    if (decl->cites.len) {
        strbuf b = { 0 };
        cites_of(p, &decl->cites, &b);
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
    if (r >= 0 && !prog_ready(pg, p->rules[r].query)) /* a lazy program's */
        return HON_ERR_MEMORY;
    if (r >= 0 && pg->rules[r]) {
        disasm_chunk(p, pg->rules[r], out);
        return HON_OK;
    }
    int32_t f = model_find_fn(p, name);
    if (f >= 0 && !prog_fn_ready(pg, res_fn_of(p, session_edition(vm), (uint32_t)f)))
        return HON_ERR_MEMORY;
    if (f >= 0) {
        disasm_chunk(p, pg->fns[res_fn_of(p, session_edition(vm), (uint32_t)f)], out);
        return HON_OK;
    }
    int32_t q = model_find_query(p, name);
    if (q < 0)
        q = model_find_event(p, name); /* an event lists its rules like a query */
    if (q < 0)
        return HON_ERR_NOT_FOUND;
    if (!prog_ready(pg, (uint32_t)q))
        return HON_ERR_MEMORY;
    const res_ruleset *rs = model_rules_of(p, session_edition(vm), (uint32_t)q);
    fprintf(out, "%s %s: %zu rule%s\n", p->queries[q].is_event ? "event" : "query", name, rs->len,
            rs->len == 1 ? "" : "s");
    for (size_t i = 0; i < rs->len; i++)
        disasm_chunk(p, pg->rules[rs->rules[i]], out);
    if (pg->defaults[q])
        disasm_chunk(p, pg->defaults[q], out);
    return HON_OK;
}

/* ---- completion ---- */

/* Where the names go: each that starts with prefix, to fn. */
typedef struct offers {
    const char *prefix;
    size_t len;
    void (*fn)(void *ud, const char *name);
    void *ud;
} offers;

static void offer(const offers *o, const char *name)
{
    if (name && strncmp(name, o->prefix, o->len) == 0)
        o->fn(o->ud, name);
}

/* Offers the `name` of each of the n items of array arr. */
#define OFFER_NAMES(o, arr, n)              \
    do {                                    \
        for (size_t i_ = 0; i_ < (n); i_++) \
            offer((o), (arr)[i_].name);     \
    } while (0)

/* The same for the declared ones only (not an edition's versions: version_of < 0). */
#define OFFER_DECLARED(o, arr, n)           \
    do {                                    \
        for (size_t i_ = 0; i_ < (n); i_++) \
            if ((arr)[i_].version_of < 0)   \
                offer((o), (arr)[i_].name); \
    } while (0)

/* The names of the board's units (without their `$`) or of its squares. */
static void offer_board(const hon_vm *vm, hon_complete_kind kind, const offers *o)
{
    const scene *sc = vm->sc;
    if (!sc)
        return;
    if (kind == HON_COMPLETE_UNIT) {
        for (size_t u = (size_t)sc->first_unit; u < sc->units->len; u++)
            offer(o, scene_unit_name(sc, (int64_t)u));
        return;
    }
    for (int sq = 0; sq < geo_square_count(sc->g); sq++) {
        char name[24];
        geo_format_square(sc->g, sq, name, sizeof name);
        offer(o, name);
    }
}

/* The events (or the queries that are not events). */
static void offer_queries(const res_program *p, bool events, const offers *o)
{
    for (size_t q = 0; q < p->nqueries; q++)
        if (p->queries[q].is_event == events)
            offer(o, p->queries[q].name);
}

/* The rules of the active edition, query by query. */
static void offer_rules(const hon_vm *vm, const offers *o)
{
    const res_program *p = vm->pg->res;
    for (uint32_t q = 0; q < p->nqueries; q++) {
        const res_ruleset *rs = model_rules_of(p, session_edition(vm), q);
        for (size_t i = 0; i < rs->len; i++)
            offer(o, p->rules[rs->rules[i]].name);
    }
}

/* What may follow `.` on a value of the type named `within`: a unit's kind, side, size and
 * declared values, or a record's fields (a table row's columns). */
static hon_status offer_fields(const res_program *p, const char *within, const offers *o)
{
    if (!within)
        return HON_ERR_NOT_FOUND;
    if (strcmp(within, "unit") == 0) {
        offer(o, "kind");
        offer(o, "side");
        offer(o, "size");
        for (size_t s = 0; s < p->nslots; s++)
            offer(o, p->slots[s].name);
        return HON_OK;
    }
    for (size_t r = 0; r < p->nrecords; r++)
        if (strcmp(p->records[r].name, within) == 0) {
            OFFER_NAMES(o, p->records[r].fields, p->records[r].nfields);
            return HON_OK;
        }
    return HON_ERR_NOT_FOUND;
}

hon_status hon_complete(const hon_vm *vm, hon_complete_kind kind, const char *within,
                        const char *prefix, void (*fn)(void *ud, const char *name), void *ud)
{
    if (!vm || !fn)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    const offers o = { prefix ? prefix : "", prefix ? strlen(prefix) : 0, fn, ud };
    int32_t v;
    switch (kind) {
    case HON_COMPLETE_UNIT:
    case HON_COMPLETE_SQUARE: offer_board(vm, kind, &o); break;
    case HON_COMPLETE_QUERY: offer_queries(p, false, &o); break;
    case HON_COMPLETE_EVENT: offer_queries(p, true, &o); break;
    case HON_COMPLETE_RULE: offer_rules(vm, &o); break;
    case HON_COMPLETE_FN: OFFER_DECLARED(&o, p->fns, p->nfns); break;
    case HON_COMPLETE_TABLE: OFFER_DECLARED(&o, p->tables, p->ntables); break;
    case HON_COMPLETE_EDITION: OFFER_NAMES(&o, p->editions, p->neditions); break;
    case HON_COMPLETE_VARIANT: OFFER_NAMES(&o, p->variants, p->nvariants); break;
    case HON_COMPLETE_READING:
        if ((v = within ? model_find_variant(p, within) : -1) < 0)
            return HON_ERR_NOT_FOUND;
        OFFER_NAMES(&o, p->enums[p->variants[v].enum_id].members,
                    p->enums[p->variants[v].enum_id].len);
        break;
    case HON_COMPLETE_FILE:
        for (size_t i = 0; i < vm->nsrcs; i++)
            offer(&o, vm->srcs[i].path);
        break;
    case HON_COMPLETE_BUILTIN:
        /* a name given to two ids (`has`) is offered once: they stand side by side */
        for (uint32_t b = 0; b < RES_BI_COUNT; b++)
            if (b == 0 || strcmp(builtin_name(b), builtin_name(b - 1)) != 0)
                offer(&o, builtin_name(b));
        break;
    case HON_COMPLETE_KEYWORD:
        for (size_t k = 0; lexer_keyword(k); k++)
            offer(&o, lexer_keyword(k));
        break;
    case HON_COMPLETE_MEMBER:
        for (v = 0; within && (size_t)v < p->nenums; v++)
            if (strcmp(p->enums[v].name, within) == 0)
                break;
        if (!within || (size_t)v == p->nenums)
            return HON_ERR_NOT_FOUND;
        OFFER_NAMES(&o, p->enums[v].members, p->enums[v].len);
        break;
    case HON_COMPLETE_FIELD: return offer_fields(p, within, &o);
    default: return HON_ERR_NOT_FOUND;
    }
    return HON_OK;
}

#undef OFFER_NAMES
#undef OFFER_DECLARED

/* ---- declarations (hon_each_decl) ---- */

/* Where the declarations go, and how many went; `placeless`: a name with no place is given
 * too (hon_ref_at: a field of a built-in record), with no path and line 0. */
typedef struct decl_walk {
    const prog *pg;
    void (*fn)(void *ud, const hon_decl *d);
    void *ud;
    size_t n;
    bool placeless;
} decl_walk;

/* Hands one declaration at loc to the walk's fn, with the doc and citations of node decl
 * (NULL: none), a signature and a type (NULL: none). A name with no place (line 0) is left
 * out unless the walk is placeless. */
static void give_decl(decl_walk *w, hon_decl_kind kind, const char *name, const char *within,
                      ast_loc loc, const ast_node *decl, const char *doc, const char *sig,
                      const char *type)
{
    if (!name || (!loc.line && !w->placeless))
        return;
    strbuf cites = { 0 };
    if (decl && decl->cites.len)
        cites_of(w->pg->res, &decl->cites, &cites);
    hon_decl d = { .kind = kind,
                   .name = name,
                   .within = within,
                   .path = loc.line ? prog_file_path(w->pg, loc.file) : NULL,
                   .line = loc.line,
                   .col = loc.col,
                   .end_line = loc.end_line ? loc.end_line : loc.line,
                   .end_col = loc.end_col ? loc.end_col : loc.col,
                   .doc = doc    ? doc
                          : decl ? decl->doc
                                 : NULL,
                   .cites = decl && decl->cites.len ? sb_str(&cites) : NULL,
                   .signature = sig,
                   .type = type };
    w->fn(w->ud, &d);
    w->n++;
    sb_free(&cites);
}

/* The span of node n's name; none (line 0) for no node. */
static ast_loc loc_of(const ast_node *n)
{
    return n ? n->loc : (ast_loc){ 0 };
}

/* "(a: T, b: U) -> R" (no result for an event) into b. */
static void signature_of(const res_program *p, const res_field *params, uint32_t n,
                         const uint32_t *result, strbuf *b)
{
    char ty[128];
    sb_putc(b, '(');
    for (uint32_t i = 0; i < n; i++)
        sb_printf(b, "%s%s: %s", i ? ", " : "", params[i].name,
                  type_name(p, params[i].type, ty, sizeof ty));
    sb_putc(b, ')');
    if (result)
        sb_printf(b, " -> %s", type_name(p, *result, ty, sizeof ty));
}

/* The signature of query (or event) q into b. */
static void query_signature(const res_program *p, uint32_t q, strbuf *b)
{
    const res_query *rq = &p->queries[q];
    signature_of(p, rq->params, rq->nparams, rq->is_event ? NULL : &rq->result, b);
}

static void give_query(decl_walk *w, const res_program *p, uint32_t q)
{
    const res_query *rq = &p->queries[q];
    strbuf sig = { 0 };
    query_signature(p, q, &sig);
    give_decl(w, rq->is_event ? HON_DECL_EVENT : HON_DECL_QUERY, rq->name, NULL, loc_of(rq->decl),
              rq->decl, NULL, sb_str(&sig), NULL);
    sb_free(&sig);
}

/* Rule r, with its query's signature. */
static void give_rule(decl_walk *w, const res_program *p, uint32_t r)
{
    const res_rule *rr = &p->rules[r];
    strbuf sig = { 0 };
    query_signature(p, rr->query, &sig);
    give_decl(w, HON_DECL_RULE, rr->name, p->queries[rr->query].name, loc_of(rr->decl), rr->decl,
              NULL, sb_str(&sig), NULL);
    sb_free(&sig);
}

static void give_fn(decl_walk *w, const res_program *p, uint32_t f)
{
    const res_fn *rf = &p->fns[f];
    strbuf sig = { 0 };
    signature_of(p, rf->params, rf->nparams, &rf->result, &sig);
    give_decl(w, HON_DECL_FN, rf->name, NULL, loc_of(rf->decl), rf->decl, NULL, sb_str(&sig), NULL);
    sb_free(&sig);
}

static void give_member(decl_walk *w, const res_program *p, uint32_t e, uint32_t m)
{
    const res_enum *en = &p->enums[e];
    give_decl(w, HON_DECL_MEMBER, en->members[m].name, en->name, en->members[m].loc, NULL,
              en->members[m].doc, NULL, NULL);
}

/* Enum e as declared (nothing for a built-in enum, or the readings of a variant). */
static void give_enum(decl_walk *w, const res_program *p, uint32_t e)
{
    const res_enum *en = &p->enums[e];
    if (en->decl && en->variant < 0)
        give_decl(w, HON_DECL_ENUM, en->name, NULL, loc_of(en->decl), en->decl, en->doc, NULL,
                  NULL);
}

static void give_variant(decl_walk *w, const res_program *p, uint32_t v)
{
    give_decl(w, HON_DECL_VARIANT, p->variants[v].name, NULL, loc_of(p->variants[v].decl),
              p->variants[v].decl, p->variants[v].doc, NULL, NULL);
}

static void give_table(decl_walk *w, const res_program *p, uint32_t t)
{
    give_decl(w, HON_DECL_TABLE, p->tables[t].name, NULL, loc_of(p->tables[t].decl),
              p->tables[t].decl, NULL, NULL, NULL);
}

static void give_slot(decl_walk *w, const res_program *p, uint32_t s)
{
    if (p->slots[s].decl)
        give_decl(w, HON_DECL_VALUE, p->slots[s].name, NULL, loc_of(p->slots[s].decl),
                  p->slots[s].decl, p->slots[s].doc, NULL, "int");
}

static void give_counter(decl_walk *w, const res_program *p, uint32_t c)
{
    if (p->counters[c].decl)
        give_decl(w, HON_DECL_COUNTER, p->counters[c].name, NULL, loc_of(p->counters[c].decl),
                  p->counters[c].decl, NULL, NULL, NULL);
}

size_t hon_each_decl(const hon_vm *vm, void (*fn)(void *ud, const hon_decl *d), void *ud)
{
    if (!vm || !fn)
        return 0;
    decl_walk w = { vm->pg, fn, ud, 0, false };
    const res_program *p = vm->pg->res;
    for (uint32_t q = 0; q < p->nqueries; q++)
        give_query(&w, p, q);
    for (uint32_t r = 0; r < p->nrules; r++)
        if (!p->rules[r].revision)
            give_rule(&w, p, r);
    for (uint32_t f = 0; f < p->nfns; f++)
        if (p->fns[f].version_of < 0)
            give_fn(&w, p, f);
    for (uint32_t t = 0; t < p->ntables; t++)
        if (p->tables[t].version_of < 0)
            give_table(&w, p, t);
    for (uint32_t e = 0; e < p->nenums; e++) {
        give_enum(&w, p, e);
        for (uint32_t m = 0; m < p->enums[e].len; m++)
            give_member(&w, p, e, m);
    }
    for (size_t r = 0; r < p->nrecords; r++)
        if (p->records[r].decl && p->records[r].table < 0)
            give_decl(&w, HON_DECL_RECORD, p->records[r].name, NULL, loc_of(p->records[r].decl),
                      p->records[r].decl, NULL, NULL, NULL);
    for (uint32_t v = 0; v < p->nvariants; v++)
        give_variant(&w, p, v);
    for (size_t e = 0; e < p->neditions; e++)
        give_decl(&w, HON_DECL_EDITION, p->editions[e].name, NULL, loc_of(p->editions[e].decl),
                  p->editions[e].decl, p->editions[e].title, NULL, NULL);
    for (uint32_t s = 0; s < p->nslots; s++)
        give_slot(&w, p, s);
    for (uint32_t c = 0; c < p->ncounters; c++)
        give_counter(&w, p, c);
    return w.n;
}

/* ---- scenario directives (hon_each_scenario_symbol) ---- */

typedef struct scn_walk {
    void (*fn)(void *ud, const hon_scn_symbol *s);
    void *ud;
} scn_walk;

static void give_scn_symbol(void *ud, const scn_symbol *s)
{
    const scn_walk *w = ud;
    hon_scn_symbol h = { .directive = s->directive,
                         .name = s->name,
                         .detail = s->detail,
                         .line = (unsigned)s->line,
                         .col = (unsigned)s->col,
                         .end_col = (unsigned)s->end_col,
                         .last_line = (unsigned)s->last_line,
                         .last_col = (unsigned)s->last_col };
    w->fn(w->ud, &h);
}

size_t hon_each_scenario_symbol(const char *text, size_t len,
                                void (*fn)(void *ud, const hon_scn_symbol *s), void *ud)
{
    if (!text || !fn)
        return 0;
    scn_walk w = { fn, ud };
    return scn_outline(text, len, give_scn_symbol, &w);
}

/* ---- references (hon_ref_at) ---- */

/* The search for the name written at a place of one file: the innermost node naming something
 * there, its parent, and the root of the body it is in (a rule, fn, query, revision, or one
 * item of a test: the nodes whose locals are numbered from 0). */
typedef struct ref_find {
    const ast_file *file;
    unsigned line, col;
    const ast_node *hit, *parent, *body;
} ref_find;

/* Whether (line, col) lies in the span line:c0 .. end_line:c1 (inclusive). */
static bool place_in(unsigned line, unsigned col, unsigned l0, unsigned c0, unsigned l1,
                     unsigned c1)
{
    return l0 && (line > l0 || (line == l0 && col >= c0)) &&
           (line < l1 || (line == l1 && col <= c1));
}

/* The byte offset of line:col in f's text (its end when past it). */
static size_t offset_of(const ast_file *f, unsigned line, unsigned col)
{
    size_t i = 0;
    for (unsigned l = 1; l < line && i < f->text_len; i++)
        if (f->text[i] == '\n')
            l++;
    return i + col - 1 <= f->text_len ? i + col - 1 : f->text_len;
}

static bool ident_char(char c)
{
    return c == '_' || isalnum((unsigned char)c);
}

/* The column where `name` is first written as a whole word in n's span, at or after its start
 * (a call's callee, a raised event, a `variant NAME`, a let's or loop's bound name), when that is
 * on n's first line; 0 when it is not. */
static unsigned name_col(const ast_file *f, const ast_node *n, const char *name)
{
    size_t k = name ? strlen(name) : 0, at = offset_of(f, n->loc.line, n->loc.col);
    for (size_t i = at; k && i + k <= f->text_len && f->text[i] != '\n'; i++)
        if (strncmp(f->text + i, name, k) == 0 && (i == 0 || !ident_char(f->text[i - 1])) &&
            !ident_char(i + k < f->text_len ? f->text[i + k] : ' '))
            return n->loc.col + (unsigned)(i - at);
    return 0;
}

/* Whether the place is on the name node n stands for: a name or field init is its whole span;
 * a field `a.name` ends with its name; a call, record value or raise names its callee first. */
static bool on_name(const ref_find *r, const ast_node *n)
{
    unsigned k = n->name ? (unsigned)strlen(n->name) : 0, c0;
    switch (n->kind) {
    case AST_NAME:
    case AST_FIELD_INIT:
        return place_in(r->line, r->col, n->loc.line, n->loc.col,
                        n->loc.end_line ? n->loc.end_line : n->loc.line,
                        n->loc.end_col ? n->loc.end_col : n->loc.col + k - 1);
    case AST_FIELD:
        return k && n->loc.end_col >= k &&
               place_in(r->line, r->col, n->loc.end_line, n->loc.end_col - k + 1, n->loc.end_line,
                        n->loc.end_col);
    case AST_CALL:
    case AST_RECORD:
    case AST_VARIANT_REF: break;
    case AST_STMT:
        if (n->op != AST_ST_RAISE)
            return false;
        break;
    default: return false;
    }
    c0 = name_col(r->file, n, n->name);
    return c0 && place_in(r->line, r->col, n->loc.line, c0, n->loc.line, c0 + k - 1);
}

static void ref_walk(ref_find *r, const ast_node *n, const ast_node *parent, const ast_node *body);

static void ref_walk_vec(ref_find *r, const ast_vec *v, const ast_node *parent,
                         const ast_node *body)
{
    for (uint32_t i = 0; i < v->len; i++)
        ref_walk(r, v->items[i], parent, body);
}

/* Visits n and everything below it, parents first: the last node found naming something at the
 * place is the innermost (siblings do not overlap). */
static void ref_walk(ref_find *r, const ast_node *n, const ast_node *parent, const ast_node *body)
{
    if (!n)
        return;
    switch (n->kind) {
    case AST_RULE:
    case AST_FN:
    case AST_QUERY:
    case AST_REVISE:
    case AST_EXPECT:
    case AST_TEST_DO:
    case AST_TEST_MOVE:
    case AST_TEST_CHOICES: body = n; break;
    default: break;
    }
    if (on_name(r, n)) {
        r->hit = n;
        r->parent = parent;
        r->body = body;
    }
    ref_walk(r, n->a, n, body);
    ref_walk(r, n->b, n, body);
    ref_walk(r, n->c, n, body);
    ref_walk_vec(r, &n->list, n, body);
    ref_walk_vec(r, &n->list2, n, body);
    ref_walk_vec(r, &n->params, n, body);
}

/* A binding of local slot `slot` below n (a let, an aggregate's or a `for`'s loop variable, a
 * `choose`), or NULL. */
static const ast_node *binding_of(const ast_node *n, int32_t slot)
{
    if (!n)
        return NULL;
    if ((n->kind == AST_LET || n->kind == AST_AGG || n->kind == AST_STMT) && n->an.slot == slot &&
        n->name)
        return n;
    const ast_node *kids[3] = { n->a, n->b, n->c };
    for (int i = 0; i < 3; i++) {
        const ast_node *b = binding_of(kids[i], slot);
        if (b)
            return b;
    }
    const ast_vec *vecs[3] = { &n->list, &n->list2, &n->params };
    for (int v = 0; v < 3; v++)
        for (uint32_t i = 0; i < vecs[v]->len; i++) {
            const ast_node *b = binding_of(vecs[v]->items[i], slot);
            if (b)
                return b;
        }
    return NULL;
}

/* The parameters a body's locals start with: a rule's (or a rule revision's) query's, a fn's
 * (or a fn revision's), a query's own (its default); none for a test's items. *owner: the
 * name of the body ("test" for a test's); *declarer: the query's or fn's, which declares the
 * parameters. */
static const res_field *body_params(const res_program *p, const ast_node *body, uint32_t *n,
                                    const char **owner, const char **declarer)
{
    int32_t q = -1, f = -1;
    *n = 0;
    *owner = body && body->name ? body->name : NULL;
    if (!body)
        return NULL;
    if (body->kind == AST_RULE || (body->kind == AST_REVISE && body->op == AST_REV_RULE))
        q = model_find_query(p, body->ref);
    else if (body->kind == AST_QUERY)
        q = model_find_query(p, body->name);
    else if (body->kind == AST_FN || (body->kind == AST_REVISE && body->op == AST_REV_FN))
        f = model_find_fn(p, body->name);
    if (q < 0 && body->kind != AST_QUERY && (body->kind == AST_RULE || body->kind == AST_REVISE))
        q = model_find_event(p, body->ref);
    if (q < 0 && body->kind == AST_QUERY)
        q = model_find_event(p, body->name);
    if (q >= 0) {
        *n = p->queries[q].nparams;
        *declarer = p->queries[q].name;
        return p->queries[q].params;
    }
    if (f >= 0) {
        *n = p->fns[f].nparams;
        *declarer = p->fns[f].name;
        return p->fns[f].params;
    }
    if (body->kind == AST_EXPECT || body->kind == AST_TEST_DO || body->kind == AST_TEST_MOVE ||
        body->kind == AST_TEST_CHOICES)
        *owner = "test";
    return NULL;
}

/* Local name n (a parameter, let or loop variable) of the body found: its binding. */
static void give_local(decl_walk *w, const res_program *p, const ref_find *r, const ast_node *n)
{
    char ty[128];
    uint32_t np;
    const char *owner, *declarer = NULL;
    const res_field *params = body_params(p, r->body, &np, &owner, &declarer);
    ast_loc at = { 0 };
    if (params && n->an.slot >= 0 && (uint32_t)n->an.slot < np) {
        at = params[n->an.slot].loc;
        owner = declarer;
    } else {
        const ast_node *b = binding_of(r->body, n->an.slot);
        unsigned c = b ? name_col(r->file, b, b->name) : 0;
        if (b && c) {
            at = b->loc;
            at.col = c;
            at.end_line = b->loc.line;
            at.end_col = c + (unsigned)strlen(b->name) - 1;
        }
    }
    give_decl(w, HON_DECL_LOCAL, n->name, owner, at, NULL, NULL, NULL,
              type_name(p, n->an.type, ty, sizeof ty));
}

/* Field `i` of the record whose type is `type`. */
static bool give_field(decl_walk *w, const res_program *p, uint32_t type, uint32_t i)
{
    if (type >= p->ntypes || p->types[type].kind != RT_RECORD)
        return false;
    const res_record *rec = &p->records[p->types[type].arg];
    if (i >= rec->nfields)
        return false;
    char ty[128];
    give_decl(w, HON_DECL_FIELD, rec->fields[i].name, rec->name, rec->fields[i].loc, NULL, NULL,
              NULL, type_name(p, rec->fields[i].type, ty, sizeof ty));
    return true;
}

/* A member named by n, of the enum its type says. */
static bool give_typed_member(decl_walk *w, const res_program *p, const ast_node *n)
{
    uint32_t t = n->an.type;
    if (t >= p->ntypes || p->types[t].kind != RT_ENUM)
        return false;
    uint32_t e = p->types[t].arg;
    if (e >= p->nenums || n->an.sym >= p->enums[e].len)
        return false;
    give_member(w, p, e, n->an.sym);
    return true;
}

/* What node r->hit names, handed to the walk; false when nothing the walk can give. */
static bool give_ref(decl_walk *w, const res_program *p, const ref_find *r)
{
    const ast_node *n = r->hit, *up = r->parent;
    uint32_t sym = n->an.sym;
    switch (n->an.sym_kind) {
    case SYM_LOCAL: give_local(w, p, r, n); return true;
    case SYM_MEMBER: return give_typed_member(w, p, n);
    case SYM_COUNTER:
        for (uint32_t c = 0; c < p->ncounters; c++)
            if (p->counters[c].unit >= 0 && (uint32_t)p->counters[c].unit == sym) {
                give_counter(w, p, c);
                return w->n > 0;
            }
        return false;
    case SYM_ENUM_TYPE:
        if (sym < p->nenums && p->enums[sym].variant >= 0)
            give_variant(w, p, (uint32_t)p->enums[sym].variant);
        else if (sym < p->nenums)
            give_enum(w, p, sym);
        return w->n > 0;
    case SYM_FN:
        if (sym < p->nfns)
            give_fn(w, p, p->fns[sym].version_of >= 0 ? (uint32_t)p->fns[sym].version_of : sym);
        return w->n > 0;
    case SYM_QUERY:
    case SYM_EVENT:
        if (sym < p->nqueries)
            give_query(w, p, sym);
        return w->n > 0;
    case SYM_FIELD:
        if (n->kind == AST_FIELD && n->a)
            return give_field(w, p, n->a->an.type, sym);
        if (n->kind == AST_FIELD_INIT && up)
            return give_field(w, p, up->an.type, sym);
        return false;
    case SYM_UNIT_VALUE:
        if (sym < p->nslots)
            give_slot(w, p, sym);
        return w->n > 0;
    case SYM_UNIT_KIND:
    case SYM_UNIT_SIDE:
    case SYM_UNIT_SIZE: {
        bool kind = n->an.sym_kind == SYM_UNIT_KIND, side = n->an.sym_kind == SYM_UNIT_SIDE;
        give_decl(w, HON_DECL_FIELD, n->name, "unit", (ast_loc){ 0 }, NULL, NULL, NULL,
                  kind   ? "kind"
                  : side ? "side"
                         : "int");
        return true;
    }
    case SYM_VARIANT:
        if (sym < p->nvariants)
            give_variant(w, p, sym);
        return w->n > 0;
    default: break;
    }
    if (n->kind == AST_NAME && up && up->kind == AST_INDEX && up->a == n &&
        up->an.sym_kind == SYM_TABLE && up->an.sym < p->ntables) {
        uint32_t t = up->an.sym;
        give_table(w, p, p->tables[t].version_of >= 0 ? (uint32_t)p->tables[t].version_of : t);
        return w->n > 0;
    }
    if (n->kind == AST_STMT && n->op == AST_ST_RAISE) {
        int32_t q = model_find_event(p, n->name);
        if (q >= 0)
            give_query(w, p, (uint32_t)q);
        return w->n > 0;
    }
    if (n->kind == AST_RECORD) {
        for (uint32_t i = 0; i < p->nrecords; i++)
            if (p->records[i].decl && p->records[i].type == n->an.type) {
                give_decl(w, HON_DECL_RECORD, p->records[i].name, NULL, loc_of(p->records[i].decl),
                          p->records[i].decl, NULL, NULL, NULL);
                return true;
            }
    }
    return false;
}

hon_status hon_ref_at(const hon_vm *vm, const char *path, unsigned line, unsigned col,
                      void (*fn)(void *ud, const hon_decl *d), void *ud)
{
    if (!vm || !path || !fn)
        return HON_ERR_NOT_FOUND;
    const ast_file *f = NULL;
    for (size_t i = 0; i < vm->pg->nfiles && !f; i++)
        if (vm->pg->files[i]->path && strcmp(vm->pg->files[i]->path, path) == 0)
            f = vm->pg->files[i];
    if (!f)
        return HON_ERR_NOT_FOUND;
    ref_find r = { .file = f, .line = line, .col = col };
    for (uint32_t i = 0; i < f->decls.len; i++)
        ref_walk(&r, f->decls.items[i], NULL, NULL);
    decl_walk w = { vm->pg, fn, ud, 0, true };
    const res_program *p = vm->pg->res;
    for (uint32_t k = 0; !r.hit && p && k < p->nrecords; k++) /* a field's own name: itself */
        for (uint32_t i = 0; i < p->records[k].nfields; i++) {
            ast_loc l = p->records[k].fields[i].loc;
            const char *in = l.line == line ? prog_file_path(vm->pg, l.file) : NULL;
            if (in && strcmp(in, path) == 0 && col >= l.col &&
                col <= (l.end_col ? l.end_col : l.col))
                return give_field(&w, p, p->records[k].type, i) ? HON_OK : HON_ERR_NOT_FOUND;
        }
    if (!r.hit)
        return HON_ERR_NOT_FOUND;
    return give_ref(&w, vm->pg->res, &r) && w.n ? HON_OK : HON_ERR_NOT_FOUND;
}

const char *hon_nearest(const char *want, const char *const *names, size_t n)
{
    if (!want || !names)
        return NULL;
    near_search ns;
    near_begin(&ns, want);
    for (size_t i = 0; i < n; i++)
        near_offer(&ns, names[i]);
    return near_result(&ns);
}
