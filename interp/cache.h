/* cache.h — the start-up cache of parsed rules files (cache.c says where it lives, how it is
 * keyed and when it is passed over; docs/spec/bench.md §9). */
#ifndef HON_CACHE_H
#define HON_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "diag.h"

/* What front_parse_file gives for the text (same arguments, same result, same diagnostics),
 * read back from the cache when an image of this text from this build is there and sound,
 * else parsed, and then kept in the cache when the parse reported nothing. NULL only on OOM.
 * When the tree was read from an image, *image gets the image (new, the caller's: free with
 * mem_free, and not before the tree, whose strings it holds; ast_image_read gives the same
 * tree again from it under *key), else NULL. lazy: a tree read from an image leaves the
 * bodies of its rules and fns in the image file until they are resolved, and nothing of the
 * image is kept (ast_image_read_apart: the tree's image_path is set; *image is NULL, and a
 * later build asks here again). The cache is off when the environment sets HON_NO_CACHE. */
ast_file *cache_parse_file(const char *path, const char *text, size_t len, uint32_t file_id,
                           diag_list *diags, char **image, size_t *image_len, uint64_t *key,
                           bool lazy);

/* The key of a text's image: a hash of the text and of the build's parser (HON_FRONT_ID). */
uint64_t cache_key(const char *text, size_t len);

/* ---- build records (bench.md §9) ----
 * A record under a key says: the set of texts that key was made from (cache_record_key) was
 * once resolved whole, by this build's parser and resolver, with no diagnostic at all. It lets
 * a session that answers once leave the bodies of rules, fns and defaults unresolved until they
 * are used (load.c, res_resolve_as): their diagnostics are known to be none. Records live
 * beside the images as "KEY.rec", 24 bytes, checked whole as read (anything else is no record),
 * touched and pruned as images are; the cache off (HON_NO_CACHE), there are none. */

/* The key of the record of the texts whose keys (cache_key, as cache_parse_file gave them) are
 * keys[0 .. n), in load order: a hash of them, of n, of HON_FRONT_ID and of HON_RESOLVE_ID (the
 * resolver's files and the record's code, dsl/meson.build). */
uint64_t cache_record_key(const uint64_t *keys, size_t n);
/* Whether the cache holds a sound record of key k (false when the cache is off, the record
 * is missing, unreadable, or not exactly the one cache_record_keep writes). */
bool cache_record_found(uint64_t k);
/* Writes the record of key k, whole or not at all; any failure leaves the cache as it was. */
void cache_record_keep(uint64_t k);

#endif
