/* front.h — the front end's entry points: text in, AST out, syntax errors reported.
 *
 * Wraps the reentrant flex scanner (grammar/lexer.l) and the pure bison parser
 * (grammar/parser.y). Errors are reported into a diag_list with codes E0xx; the parser
 * recovers at declaration boundaries so one run reports several errors (at most
 * FRONT_MAX_ERRORS, then it stops with E009 "too many errors").
 */
#ifndef HON_FRONT_H
#define HON_FRONT_H

#include "ast.h"
#include "diag.h"

#define FRONT_MAX_ERRORS 20
/* A parsed tree is at most this deep (a declaration nested deeper is
 * dropped with E008), so later stages may walk it recursively; and a source longer than
 * FRONT_MAX_SOURCE bytes is refused with E007 (columns and offsets stay well inside 32 bits). */
#define FRONT_MAX_DEPTH 256
/* The native stack one level of a tree may take in the walks that recurse over it (some 1.7
 * KB measured for the deepest, `not` in a traced answer, with room to spare): on a stack too
 * small for FRONT_MAX_DEPTH such levels, the bound is what it holds (front.c depth_bound). */
#define FRONT_LEVEL_BYTES 4096

/* The nesting bound of this thread: FRONT_MAX_DEPTH, or less when the native stack would not
 * hold that many levels of the walks that recurse over a tree (the resolver, the compiler, the
 * formatter, lint, traces): each level may take FRONT_LEVEL_BYTES of it, above stack.h's
 * margin. An 8 MiB stack (the usual `ulimit -s`) holds the whole bound; 256 KiB some 40
 * levels. At least 16. */
uint32_t front_depth_bound(void);
/* A left operand of a binary operator adds no nesting level, so `1 + 1 + ... + 1` is
 * shallow; such operands are counted apart, at most this many along any path of the tree (E008
 * "operator chain too long"). The resolver and the compiler walk these chains in loops. */
#define FRONT_MAX_CHAIN  10000
#define FRONT_MAX_SOURCE (64 * 1024 * 1024)

/* Parses a whole .hon file. `file_id` must come from diag_sources_add for this text. Returns
 * a new ast_file (owned by the caller, free with ast_file_free) holding every declaration that
 * parsed; check diags->errors to know whether the file had syntax errors. NULL only on OOM. */
ast_file *front_parse_file(const char *path, const char *text, size_t len, uint32_t file_id,
                           diag_list *diags);

/* Parses f's text again (f->path, f->text, f->file_id), its diagnostics dropped: a new tree
 * owned by the caller (ast_file_free), NULL when memory runs out or the text has any
 * diagnostic. The fallback ast_body_ready is given for a body damaged in its image
 * (ast_image.h); passed in, so that the image's reader stays below the front end. */
ast_file *front_reparse(const ast_file *f);

/* Parses one expression (a line typed at the REPL, `hon eval EXPR`). Returns a new ast_file
 * with no declarations whose arena owns the expression, and stores the expression in *expr
 * (NULL when it had a syntax error, reported in diags). NULL only on OOM. */
ast_file *front_parse_expr(const char *where, const char *text, size_t len, uint32_t file_id,
                           diag_list *diags, ast_node **expr);
/* The same for an expression that stands on line `line` of source file_id (a question file's
 * line: the text is that line, and its positions are the file's). */
ast_file *front_parse_expr_at(const char *where, const char *text, size_t len, uint32_t file_id,
                              uint32_t line, diag_list *diags, ast_node **expr);

/* The i-th keyword of the language in name order (lexer.l's table: what the scanner never
 * reads as a name), a static string; NULL past the last. For completion (hon_complete). */
const char *lexer_keyword(size_t i);
/* Whether the n bytes at s spell a keyword of the language (lexer.l's table): the formatter
 * (fmt.c) spaces a keyword before '(' as written, a name never. */
bool front_is_keyword(const char *s, size_t n);

#endif
