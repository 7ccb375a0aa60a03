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
