/* cache.h — the start-up cache of parsed rules files (cache.c says where it lives, how it is
 * keyed and when it is passed over; docs/spec/bench.md §9). */
#ifndef HON_CACHE_H
#define HON_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "diag.h"

/* What front_parse_file gives for the text (same arguments, same result, same diagnostics),
 * read back from the cache when an image of this text from this build is there and sound,
 * else parsed, and then kept in the cache when the parse reported nothing. NULL only on OOM.
 * When the tree was read from an image, *image gets the image (new, the caller's: free with
 * mem_free, and not before the tree, whose strings it holds; ast_image_read gives the same
 * tree again from it under *key), else NULL. The
 * cache is off when the environment sets HON_NO_CACHE. */
ast_file *cache_parse_file(const char *path, const char *text, size_t len, uint32_t file_id,
                           diag_list *diags, char **image, size_t *image_len, uint64_t *key);

/* The key of a text's image: a hash of the text and of the build's parser (HON_FRONT_ID). */
uint64_t cache_key(const char *text, size_t len);

#endif
