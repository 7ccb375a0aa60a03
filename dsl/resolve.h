/* resolve.h — the resolver and type checker: loaded ast_files in, one res_program (model.h) out.
 *
 * res_resolve runs the passes over every file in load order (resolve.c sequences them; one file
 * per pass, sharing resolve_int.h) and annotates each expression node (ast_node.an) for
 * interp/compile.c; res_expr and res_raise_call resolve the REPL's input against a built
 * program. Errors are E1xx (docs/spec/errors.md). */
#ifndef HON_RESOLVE_H
#define HON_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "diag.h"
#include "model.h"

/* Resolves and type-checks the files (borrowed, in load order; their nodes get annotated) into
 * a new program. Reports E1xx into diags. Returns NULL when there were errors (or on OOM,
 * reported as an error); the caller owns a returned program (model_free). */
res_program *res_resolve(ast_file *const *files, size_t nfiles, diag_list *diags);
/* res_resolve, and with defer the bodies of the rules (lets, guard, answer or block), of the
 * fns and of the queries' defaults are left unresolved, each marked deferred in the program
 * (res_rule.deferred, res_fn.deferred, res_query.dflt_deferred; a deferred rule's nlocals is 0)
 * until res_rule_ready, res_fn_ready or res_default_ready resolves it, as the full pass would
 * have. Only for a set of files known to resolve with no diagnostic at all (interp/load.c's
 * build record, bench.md §9): what the deferred bodies would report is never reported. */
res_program *res_resolve_as(ast_file *const *files, size_t nfiles, bool defer, diag_list *diags);
/* Resolves rule r's, fn f's or query q's default's deferred body, annotating its nodes and
 * setting its local count; true when it is resolved (or was never deferred, or the id is out
 * of range); false when memory ran out or it reported anything (it stays deferred: the next
 * call tries again). A body resolved interns the types it needs into p, as res_expr does. */
bool res_rule_ready(res_program *p, uint32_t r);
bool res_fn_ready(res_program *p, uint32_t f);
bool res_default_ready(res_program *p, uint32_t q);

/* Resolves a standalone expression (the REPL, `hon eval`) against p, annotating it; new types
 * it needs are interned into p. want: expected type or T_NONE. *nlocals receives the number of
 * local slots it uses. Returns its type, or T_ERROR after reporting errors into diags. */
uint32_t res_expr(res_program *p, ast_node *expr, uint32_t want, diag_list *diags,
                  uint32_t *nlocals);

/* Resolves `EVENT(args)` (an AST_CALL: the REPL's `do`, `hon do`) against p: the callee must
 * be an event (E162), the arguments fit its parameters. Returns the event id, or -1 after
 * reporting into diags; *nlocals receives the local slots the arguments use. */
int32_t res_raise_call(res_program *p, ast_node *call, diag_list *diags, uint32_t *nlocals);

#endif
