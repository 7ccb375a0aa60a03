/* golden_runner.h — what every golden-test driver shares: reading a file, walking a folder of
 * inputs in name order, comparing each rendered output with its NAME.expected byte for byte,
 * reading and parsing an input, and printing TAP. The drivers (parse_check.c, back_check.c)
 * only say how one input renders.
 * Format and layout: tests/golden/README.md. */
#ifndef HON_GOLDEN_RUNNER_H
#define HON_GOLDEN_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "front.h"

/* Renders one input file to out; returns 0 when it could be rendered (diagnostics are output,
 * not failures), non-zero when the driver itself failed. */
typedef int golden_check_fn(const char *path, FILE *out);

/* Reads a whole file into a new NUL-terminated buffer (free with mem_free) and stores its length
 * in *len; NULL when it cannot be read or memory runs out. */
char *golden_slurp(const char *path, size_t *len);

/* An input file read and parsed: its text, the diagnostics' source table and list (holding the
 * syntax errors), and its AST (NULL when memory ran out). */
typedef struct golden_parse {
    char *text;
    size_t len;
    diag_sources src;
    diag_list diags;
    ast_file *file;
} golden_parse;

/* Reads and parses path into *g. False (after writing "cannot read PATH" to out) when the file
 * cannot be read; then *g holds nothing. Free with golden_parse_close in either case. */
bool golden_parse_open(golden_parse *g, const char *path, FILE *out);
/* Frees what golden_parse_open made; *g is empty after. */
void golden_parse_close(golden_parse *g);

/* The drivers' main: `DRIVER FILE...` renders each file to stdout (exit 1 if any rendering
 * failed); `DRIVER --golden DIR` checks every DIR/NAME(ext) against DIR/NAME.expected and prints TAP
 * (exit 1 on any mismatch); anything else is a usage error (exit 2). */
int golden_main(int argc, char **argv, const char *ext, golden_check_fn *check_one);

#endif
