/* cite.h — the resolver's citation pass: each citation ID is declared once, with its
 * source text, and every cite takes that text from its declaration (language.md §3.6).
 *
 * res_resolve (resolve.c) calls cite_resolve once over the files it resolves (a build with its
 * bodies deferred, whose set reported nothing, leaves that to the first reader of a cite's
 * source: model_cite_source, model.h); the pass reads
 * only `source` declarations and the cites of rules, edition rules, tables and table rows.
 * Its codes are E170-E172 (docs/spec/errors.md). */
#ifndef HON_CITE_H
#define HON_CITE_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "diag.h"

/* Gathers every `source "ID" [= "TEXT"];` of files[0..nfiles) (a second declaration of one ID
 * is E171) and points each cite's source (cite->title, what model_cite_source returns) at its
 * ID's text. A cite naming an ID no file declares is E170 (with the nearest declared ID when
 * one is close); a cite that writes its own source text, differing from the declared one, is
 * warning E172 with both texts. The texts are borrowed from the declarations' files, which
 * live as long as the program made of them. Returns false only when memory ran out (E199
 * reported); errors are counted in diags as usual. */
bool cite_resolve(ast_file *const *files, size_t nfiles, diag_list *diags);

/* Walks the citations of files[0..nfiles) in order: on_source (when not NULL) for each
 * `source` declaration, on_cite (when not NULL) for each cite of a rule, an edition's rule or
 * revision, a table or a table row, with the declaration that carries it (the rule, revision
 * or table). Nodes are borrowed from the files. */
void cite_each(ast_file *const *files, size_t nfiles,
               void (*on_source)(void *ud, const ast_node *source),
               void (*on_cite)(void *ud, const ast_node *owner, ast_node *cite), void *ud);

#endif
