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
    size_t len = 0;
    char *text = golden_slurp(path, &len);
    if (!text) {
        fprintf(out, "cannot read %s\n", path);
        return 1;
    }
    diag_sources src = { 0 };
    diag_list diags;
    diag_list_init(&diags, &src);
    uint32_t id = diag_sources_add(&src, path, text, len);
    ast_file *f = front_parse_file(path, text, len, id, &diags);
    diag_render_all(&diags, out);
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
    ast_file_free(f);
    diag_list_clear(&diags);
    diag_sources_free(&src);
    hon_free(text);
    return f ? 0 : 1;
}

int main(int argc, char **argv)
{
    return golden_main(argc, argv, ".hon", check_one);
}
