/* ast_image.h — a parsed file's tree as bytes and back (ast_image.c says the layout): the
 * start-up cache (interp/cache.c) keeps the parse of each rules file, so that a file whose
 * text did not change is read back instead of parsed again (docs/spec/bench.md §9). */
#ifndef HON_AST_IMAGE_H
#define HON_AST_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "strbuf.h"

/* An image whose tree is deeper than this is refused: deeper than any tree the parser keeps
 * (front.h: FRONT_MAX_DEPTH levels plus FRONT_MAX_CHAIN left operands; test_ast_image checks
 * it), so a read never recurses deeper. */
#define AST_IMAGE_MAX_DEPTH 20000

/* XXH64 of the n bytes at p with seed (xxHash's 64-bit hash, bytes read in native order,
 * the reference's on little-endian machines): the sum that finds a damaged image and the key
 * of a text (not for adversaries: a damaged image is also checked as it is read). */
uint64_t ast_image_hash(const void *p, size_t n, uint64_t seed);

/* Appends the image of f to out, under key (what the reader must be given to accept it).
 * False, with out's content unspecified, when memory runs out or f holds what an image cannot
 * (a node placed in another file). Reads f only. */
bool ast_image_write(const ast_file *f, uint64_t key, strbuf *out);

/* The tree of an image of len bytes, as a new ast_file (path and file_id as front_parse_file
 * gives them, path copied; text and the image's strings borrowed, not copied: the text and the
 * image, unchanged, must outlive the tree, as a session's source, which holds both, outlives
 * the programs built from it; free with ast_file_free), or NULL when the image
 * is not one ast_image_write made under key for a text of text_len bytes, is damaged (its sum, any kind,
 * offset, length or depth out of bounds), or memory runs out. Never reads outside the image. */
ast_file *ast_image_read(const void *image, size_t len, uint64_t key, const char *path,
                         const char *text, size_t text_len, uint32_t file_id);

/* As ast_image_read, and with lazy the bodies of the top-level rules and fns (a rule's lets,
 * guard, answer or block; a fn's expression) are left in the image, undecoded: each such
 * declaration's `body` says where (ast.h), its body places are empty, and the file keeps the
 * image's words (borrowed: the image must outlive the tree, as for ast_image_read). Whoever
 * reads a body calls ast_body_ready first (the resolver does, dsl/resolve.c). The image's sum
 * and every check but those of the bodies' own words are made here. */
ast_file *ast_image_read_as(const void *image, size_t len, uint64_t key, const char *path,
                            const char *text, size_t text_len, uint32_t file_id, bool lazy);

/* As ast_image_read_as lazily, and nothing of the image is kept or borrowed (the caller may
 * free it at once): its strings are copied into the tree's arena, and the bodies are read again
 * from image_path (the file the image was read from; copied) when the first is decoded
 * (ast_body_ready), checked there against the bodies' sum this image gave; bodies that cannot
 * be read or differ (the file removed, cut short, replaced) are taken from the text parsed
 * again, as a damaged body is. Less memory held for the bodies not reached (bench.md §9). */
ast_file *ast_image_read_apart(const void *image, size_t len, uint64_t key, const char *path,
                               const char *text, size_t text_len, uint32_t file_id,
                               const char *image_path);

/* Decodes the body of declaration d of f left in the image (ast_image_read_as, or read again
 * from its file: ast_image_read_apart) into d, in f's arena, and clears d->body; true at once when d has no body left (d->body 0, d NULL). A body
 * that fails the reader's checks (an image damaged behind a recomputed sum) is taken from f's
 * text parsed again by `reparse` (front_reparse, dsl/front.h: passed in, the front end being
 * above this file; kept in f->reparsed, once per file), so a damaged body is never seen. False
 * only when memory runs out (d unchanged: its body still left; it can be asked again). */
typedef ast_file *(*ast_reparse_fn)(const ast_file *f);
bool ast_body_ready(ast_file *f, ast_node *d, ast_reparse_fn reparse);

#endif
