/* tests/runtime/scn_names.h — what the runtime tests use in place of the rules: a table of
 * names per id space that resolves a scenario's names, reading a scenario file, and rendering
 * its errors through the diagnostics renderer of base/diag.h. The product loads boards through
 * the API (interp/), which resolves names against the loaded rules.
 */
#ifndef HON_TEST_SCN_NAMES_H
#define HON_TEST_SCN_NAMES_H

#include <stdio.h>

#include "scenario.h"

/* A table of names per id space. Open (the default), it gives every new name the next id, so
 * any file loads: for drawing a board before rules are loaded, and for tests. Frozen, it
 * answers -1 for names it does not hold: a stand-in for the names declared in .hon. */
typedef struct scn_names scn_names;

/* A new, open, empty table; NULL on OOM. */
scn_names *scn_names_new(void);
/* Frees the table and its names; accepts NULL. */
void scn_names_free(scn_names *n);
/* The id of name in kind k, adding it when absent (even when frozen); -1 on OOM or when the
 * kind is full. */
int scn_names_add(scn_names *n, board_name_kind k, const char *name);
/* Stops adding names on lookup. */
void scn_names_freeze(scn_names *n);
/* The name of id in kind k (borrowed), or NULL. */
const char *scn_names_name(const scn_names *n, board_name_kind k, int id);
/* A resolver over n (ud = n): resolve looks names up (adding them when open); no size check,
 * sequential unit ids. */
scn_resolver scn_names_resolver(scn_names *n);

/* Reads the scenario file at path and loads it with resolver r. On errors (E398 when the file
 * cannot be read) renders them to stderr and returns NULL; the errors stay in errs. */
scenario *scn_names_load_file(const char *path, const scn_resolver *r, scn_errors *errs);
/* Renders the errors of errs, found in text[0..len) of the file `path`, compiler-style to out. */
void scn_names_render(const char *path, const char *text, size_t len, const scn_errors *errs,
                      FILE *out);

#endif
