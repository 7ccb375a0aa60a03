/* cite.c — the citation pass of the resolver (cite.h, language.md §3.6).
 *
 * A rule file says where each citation ID comes from once, with `source "ID" = "TEXT";`, and
 * cites name the ID alone. This pass builds the table of declared IDs, then visits every cite
 * (of rules, edition rules and revisions, tables and rows) and fills its source from the table,
 * so traces, listings and JSON (interp/) read one text per ID through model_cite_source.
 */
#include "cite.h"

#include <stdint.h>
#include <string.h>

#include "hash.h"
#include "near.h"

typedef struct source_ent {
    const char *key;      /* the ID, borrowed from the declaration */
    const ast_node *decl; /* the AST_SOURCE */
    UT_hash_handle hh;
} source_ent;

typedef struct cctx {
    diag_list *d;
    source_ent *ids;
    bool oom;
} cctx;

static void oom(cctx *c, ast_loc loc)
{
    if (!c->oom)
        diag_report(c->d, E_LIMIT, DIAG_ERROR, loc, "out of memory while resolving");
    c->oom = true;
}

static const source_ent *find(const cctx *c, const char *id)
{
    source_ent *e = NULL;
    HASH_FIND_STR(c->ids, id, e);
    return e;
}

static void declare(cctx *c, const ast_node *d)
{
    if (!d->name)
        return;
    const source_ent *old = find(c, d->name);
    if (old) {
        diag *dg = diag_report(c->d, E_DUP_SOURCE, DIAG_ERROR, d->loc,
                               "the source of citation \"%s\" is already declared", d->name);
        if (dg)
            diag_relate(dg, old->decl->loc, "the first `source \"%s\"` is here", d->name);
        return;
    }
    source_ent *e = mem_calloc(1, sizeof *e);
    if (!e) {
        oom(c, d->loc);
        return;
    }
    e->key = d->name;
    e->decl = d;
    HASH_ADD_KEYPTR(hh, c->ids, e->key, strlen(e->key), e);
    if (!HON_HASH_ADDED(e)) {
        mem_free(e);
        oom(c, d->loc);
    }
}

/* The declared ID nearest to id, when it is close enough to be a slip of the keyboard
 * (near.h); else NULL. Ties go to the ID declared first. */
static const char *nearest(const cctx *c, const char *id)
{
    near_search s;
    near_begin(&s, id);
    for (const source_ent *e = c->ids; e; e = e->hh.next)
        near_offer(&s, e->key);
    return near_result(&s);
}

static void cite(cctx *c, ast_node *n)
{
    if (!n || n->kind != AST_CITE || !n->name)
        return;
    const source_ent *e = find(c, n->name);
    if (!e) {
        const char *near = nearest(c, n->name);
        diag_report(c->d, E_UNKNOWN_CITE, DIAG_ERROR, n->loc,
                    "unknown citation \"%s\": no `source \"%s\" = ...;` declares it%s%s%s", n->name,
                    n->name, near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
        n->title = n->ref;
        n->ival = 0;
        return;
    }
    const char *declared = e->decl->title;
    if (n->ref && (!declared || strcmp(n->ref, declared) != 0)) {
        diag *dg = diag_report(c->d, E_DRIFT, DIAG_WARNING, n->loc,
                               "this cite of \"%s\" gives "
                               "the source \"%s\", but its declaration says %s%s%s",
                               n->name, n->ref, declared ? "\"" : "",
                               declared ? declared : "no source", declared ? "\"" : "");
        if (dg)
            diag_relate(dg, e->decl->loc, "the source of \"%s\" is declared here", n->name);
    }
    n->title = declared;
    n->ival = (int64_t)e->decl->loc.file + 1; /* whose module says which book (ast.h) */
}

/* Calls fn(ud, owner, cite) for each cite of v. */
static void cites(const ast_vec *v, const ast_node *owner,
                  void (*fn)(void *ud, const ast_node *owner, ast_node *cite), void *ud)
{
    for (uint32_t i = 0; i < v->len; i++)
        if (v->items[i])
            fn(ud, owner, v->items[i]);
}

/* The cites of one declaration: a rule's, an edition's rules' and revisions', a table's and
 * its rows'. */
static void decl_cites(const ast_node *d,
                       void (*fn)(void *ud, const ast_node *owner, ast_node *cite), void *ud)
{
    switch (d->kind) {
    case AST_RULE: cites(&d->cites, d, fn, ud); break;
    case AST_EDITION:
        for (uint32_t i = 0; i < d->list.len; i++)
            if (d->list.items[i] &&
                (d->list.items[i]->kind == AST_RULE || d->list.items[i]->kind == AST_REVISE))
                cites(&d->list.items[i]->cites, d->list.items[i], fn, ud);
        break;
    case AST_TABLE:
        cites(&d->cites, d, fn, ud);
        for (uint32_t i = 0; i < d->list.len; i++)
            if (d->list.items[i])
                cites(&d->list.items[i]->cites, d, fn, ud);
        break;
    default: break;
    }
}

static void resolve_one(void *ud, const ast_node *owner, ast_node *n)
{
    (void)owner;
    cite(ud, n);
}

void cite_each(ast_file *const *files, size_t nfiles,
               void (*on_source)(void *ud, const ast_node *source),
               void (*on_cite)(void *ud, const ast_node *owner, ast_node *cite), void *ud)
{
    for (size_t f = 0; f < nfiles; f++)
        for (uint32_t i = 0; files[f] && i < files[f]->decls.len; i++) {
            const ast_node *d = files[f]->decls.items[i];
            if (d->kind == AST_SOURCE && on_source)
                on_source(ud, d);
            else if (on_cite)
                decl_cites(d, on_cite, ud);
        }
}

bool cite_resolve(ast_file *const *files, size_t nfiles, diag_list *diags)
{
    cctx c = { .d = diags };
    for (size_t f = 0; f < nfiles && !c.oom; f++)
        for (uint32_t i = 0; files[f] && i < files[f]->decls.len && !c.oom; i++)
            if (files[f]->decls.items[i]->kind == AST_SOURCE)
                declare(&c, files[f]->decls.items[i]);
    if (!c.oom)
        cite_each(files, nfiles, NULL, resolve_one, &c);
    source_ent *e, *tmp;
    HASH_ITER(hh, c.ids, e, tmp)
    {
        HASH_DEL(c.ids, e);
        mem_free(e);
    }
    return !c.oom;
}
