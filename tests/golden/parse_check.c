/* parse_check.c — the golden-test driver for syntax diagnostics (tests/golden/README.md).
 *
 * `parse_check FILE...` prints what the golden files pin: every diagnostic as diag_render shows
 * it, then a `parsed:` line naming the declarations that survived recovery. `parse_check
 * --golden DIR` does that for each .hon file of DIR in name order, compares with NAME.expected
 * byte for byte and prints TAP. Paths print as given: run it from tests/golden/. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "golden_runner.h"
#include "mem.h"

static const char *decl_label(const ast_node *d)
{
    if (d->kind == AST_TEST)
        return d->title ? d->title : "?";
    return d->name ? d->name : "?";
}

/* Parses path and writes the pinned output to out. Returns 0, or 1 if it cannot run. */
static int check_one(const char *path, FILE *out)
{
    golden_parse g;
    if (!golden_parse_open(&g, path, out))
        return 1;
    diag_render_all(&g.diags, out);
    const ast_file *f = g.file;
    if (f) {
        fputs("parsed:", out);
        if (f->decls.len == 0)
            fputs(" (nothing)", out);
        for (uint32_t i = 0; i < f->decls.len; i++)
            fprintf(out, " %s:%s", ast_kind_name(f->decls.items[i]->kind),
                    decl_label(f->decls.items[i]));
        fputc('\n', out);
    } else {
        fputs("out of memory\n", out);
    }
    int rc = f ? 0 : 1;
    golden_parse_close(&g);
    return rc;
}

int main(int argc, char **argv)
{
    return golden_main(argc, argv, ".hon", check_one);
}
