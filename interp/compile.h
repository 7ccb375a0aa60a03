/* compile.h — the bytecode compiler: annotated AST (dsl/resolve.c) in, chunks out.
 *
 * Every chunk starts with its parameters in locals 0..n-1, the resolver's slots after them,
 * then the compiler's hidden slots (aggregate loops). The compiler tracks the operand stack
 * depth with the stack effects of opcodes.h to size each frame (chunk.max_stack).
 */
#ifndef HON_COMPILE_H
#define HON_COMPILE_H

#include "chunk.h"
#include "diag.h"
#include "model.h"

/* Where each line of one file starts, indexed as far as a quote has needed (compile.c
 * text_at): at[k] is the offset of line k + 1; `scanned` is the offset the search for the
 * next line's start goes on from. */
typedef struct comp_lines {
    size_t *at;
    size_t n, cap;
    size_t scanned;
} comp_lines;

/* The text of the loaded files (borrowed), for comp_rule_explained to quote a guard's
 * operands as written, with an index of where the lines of each file start, made as far as
 * the quotes from that file have needed (a rule near the top of a long file does not index the
 * rest of it); comp_source_free releases it; a zeroed index is empty. */
typedef struct comp_source {
    const ast_file *const *files;
    size_t nfiles;
    comp_lines *lines; /* per file of `files`, or NULL before the first quote */
} comp_source;
/* Frees the index of s (not the files); s stays usable. */
void comp_source_free(comp_source *s);

/* Each returns a new chunk owned by the caller, or NULL on OOM or a compiler limit (reported
 * as E199 into diags). The program is borrowed. */
chunk *comp_rule(const res_program *p, uint32_t rule, diag_list *diags);
/* The *explained* chunk of a rule with a guard, which the VM runs instead of comp_rule's while
 * it traces: the same code, but each operand k of the guard's `and`s jumps when false to its
 * own GUARD_FAILED k, and a comparison operand records its two sides (GUARD_SIDES) before it
 * compares them; chunk.conj describes each operand, quoted from src (vm.md §6a). The jumps
 * taken, the values computed and the steps charged are the plain chunk's. `plain` (borrowed,
 * or NULL) is the rule's comp_rule chunk: its sizes size the new chunk's arrays ahead
 * (chunk_reserve). */
chunk *comp_rule_explained(const res_program *p, uint32_t rule, const chunk *plain,
                           comp_source *src, diag_list *diags);
chunk *comp_fn(const res_program *p, uint32_t fn, diag_list *diags);
/* The default expression of query q (which must have one). */
chunk *comp_default(const res_program *p, uint32_t q, diag_list *diags);
/* A standalone expression resolved with res_expr (or a test expect): `nlocals` as resolved. */
chunk *comp_expr(const res_program *p, const ast_node *e, uint32_t nlocals, const char *name,
                 diag_list *diags);
/* A procedure `EVENT(args)` resolved with res_raise_call (or a test's `do`): a chunk that raises
 * the event with its arguments (OP_RAISE) and returns true; the caller then runs it and the
 * queue (proc_run). */
chunk *comp_procedure(const res_program *p, const ast_node *call, uint32_t nlocals,
                      const char *name, diag_list *diags);

#endif
