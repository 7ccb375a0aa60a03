/* back_check.c — golden driver of the back end (tests/golden/README.md), built four times:
 * resolve_check (-DBACK_RESOLVE) prints each file's rendered diagnostics and `resolved: ok` /
 * `resolved: N error(s)`; bytecode_check (-DBACK_BYTECODE) prints the listing of every fn,
 * query default and rule in declaration order, a blank line between them; board_check
 * (-DBACK_BOARD) loads the folder's vocab.hon, then each scenario (*.scn) through the API
 * (hon_load_board) and prints its E3xx diagnostics and `board: ok` / `board: N error(s)`;
 * lint_check (-DBACK_LINT) loads each file alone through the API, runs hon_lint and prints its
 * warnings and `lint: clean` / `lint: N warning(s)`.
 * All take FILE... or --golden DIR (compare with DIR/NAME.expected, print TAP); the walking and
 * diffing are parse_check.c's. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "disasm.h"
#include "front.h"
#include "golden_runner.h"
#include "hon.h"
#include "mem.h"
#include "resolve.h"

#ifdef BACK_BOARD
#define EXT ".scn" /* the inputs of a folder */
#else
#define EXT ".hon"
#endif

#ifdef BACK_BYTECODE
static void listing(const res_program *p, ast_node *d, FILE *out, bool *first)
{
    chunk *ch = NULL;
    diag_list none;
    diag_list_init(&none, NULL);
    if (d->kind == AST_FN && model_find_fn(p, d->name) >= 0)
        ch = comp_fn(p, (uint32_t)model_find_fn(p, d->name), &none);
    else if (d->kind == AST_QUERY && d->b && model_find_query(p, d->name) >= 0)
        ch = comp_default(p, (uint32_t)model_find_query(p, d->name), &none);
    else if (d->kind == AST_RULE && d->an.sym != UINT32_MAX)
        ch = comp_rule(p, d->an.sym, &none);
    else if (d->kind == AST_EDITION) {
        for (uint32_t i = 0; i < d->list.len; i++)
            if (d->list.items[i]->kind == AST_RULE)
                listing(p, d->list.items[i], out, first);
        return;
    }
    if (!ch)
        return;
    if (!*first)
        fputc('\n', out);
    *first = false;
    disasm_chunk(p, ch, out);
    chunk_free(ch);
    diag_list_clear(&none);
}
#endif

#if defined(BACK_BOARD) || defined(BACK_LINT)
typedef struct board_out {
    FILE *out;
    size_t errors;
} board_out;

static void board_diag(void *ud, const hon_diag *d)
{
    board_out *b = ud;
    fputs(d->rendered, b->out);
    if (d->severity == HON_ERROR)
        b->errors++;
}
#endif

#ifdef BACK_LINT
/* Loads path alone, lints it and writes the warnings and a summary. */
static int check_one(const char *path, FILE *out)
{
    board_out b = { out, 0 };
    hon_config cfg = { .on_diag = board_diag, .userdata = &b };
    hon_vm *vm = hon_vm_new(&cfg);
    size_t n = 0;
    if (!vm || hon_load_file(vm, path) != HON_OK || hon_lint(vm, NULL, 0, &n) != HON_OK) {
        fprintf(out, "cannot lint %s\n", path);
        hon_vm_free(vm);
        return 1;
    }
    if (n)
        fprintf(out, "lint: %zu warning%s\n", n, n == 1 ? "" : "s");
    else
        fputs("lint: clean\n", out);
    hon_vm_free(vm);
    return 0;
}
#elif defined(BACK_BOARD)

/* Loads DIR/vocab.hon, then the scenario at path; writes its diagnostics and a summary. */
static int check_one(const char *path, FILE *out)
{
    board_out b = { out, 0 };
    hon_config cfg = { .on_diag = board_diag, .userdata = &b };
    hon_vm *vm = hon_vm_new(&cfg);
    char vocab[4096];
    const char *slash = strrchr(path, '/');
    snprintf(vocab, sizeof vocab, "%.*svocab.hon", slash ? (int)(slash - path + 1) : 0, path);
    if (!vm || hon_load_file(vm, vocab) != HON_OK) {
        fprintf(out, "cannot load %s\n", vocab);
        hon_vm_free(vm);
        return 1;
    }
    b.errors = 0;
    hon_status st = hon_load_board(vm, path);
    if (st == HON_OK)
        fputs("board: ok\n", out);
    else
        fprintf(out, "board: %zu error%s\n", b.errors, b.errors == 1 ? "" : "s");
    hon_vm_free(vm);
    return st == HON_OK || st == HON_ERR_COMPILE ? 0 : 1;
}
#else
/* Resolves (and for bytecode compiles) path and writes the pinned output to out. Returns 0,
 * or 1 if it cannot run. */
static int check_one(const char *path, FILE *out)
{
    golden_parse g;
    if (!golden_parse_open(&g, path, out))
        return 1;
    ast_file *f = g.file;
    res_program *p = f && !g.diags.errors ? res_resolve(&f, 1, &g.diags) : NULL;
    diag_render_all(&g.diags, out);
#ifdef BACK_RESOLVE
    if (g.diags.errors)
        fprintf(out, "resolved: %zu error%s\n", g.diags.errors, g.diags.errors == 1 ? "" : "s");
    else
        fputs("resolved: ok\n", out);
#else
    bool first = true;
    for (uint32_t i = 0; p && i < f->decls.len; i++)
        listing(p, f->decls.items[i], out, &first);
#endif
    model_free(p);
    int rc = f ? 0 : 1;
    golden_parse_close(&g);
    return rc;
}
#endif

int main(int argc, char **argv)
{
    return golden_main(argc, argv, EXT, check_one);
}
