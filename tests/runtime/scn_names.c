/* tests/runtime/scn_names.c — the stand-in name table of scn_names.h, and scenario files read
 * and their errors rendered for the runtime tests.
 */
#include "scn_names.h"

#include <stdbool.h>
#include <string.h>

#include "diag.h"
#include "file.h"
#include "mem.h"

struct scn_names {
    char **names[BOARD_NKINDS];
    int n[BOARD_NKINDS];
    bool frozen;
};

scn_names *scn_names_new(void)
{
    scn_names *n = mem_malloc(sizeof *n);
    if (n)
        memset(n, 0, sizeof *n);
    return n;
}

void scn_names_free(scn_names *n)
{
    if (!n)
        return;
    for (int k = 0; k < BOARD_NKINDS; k++) {
        for (int i = 0; i < n->n[k]; i++)
            mem_free(n->names[k][i]);
        mem_free(n->names[k]);
    }
    mem_free(n);
}

static int names_find(const scn_names *n, board_name_kind k, const char *name)
{
    for (int i = 0; i < n->n[k]; i++)
        if (strcmp(n->names[k][i], name) == 0)
            return i;
    return -1;
}

int scn_names_add(scn_names *n, board_name_kind k, const char *name)
{
    if (!n || (unsigned)k >= BOARD_NKINDS || !name)
        return -1;
    int id = names_find(n, k, name);
    if (id >= 0)
        return id;
    if (n->n[k] >= BOARD_MAX_ID)
        return -1;
    char **p = mem_realloc(n->names[k], (size_t)(n->n[k] + 1) * sizeof *p);
    if (!p)
        return -1;
    n->names[k] = p;
    char *copy = mem_malloc(strlen(name) + 1);
    if (!copy)
        return -1;
    strcpy(copy, name);
    p[n->n[k]] = copy;
    return n->n[k]++;
}

void scn_names_freeze(scn_names *n)
{
    if (n)
        n->frozen = true;
}

const char *scn_names_name(const scn_names *n, board_name_kind k, int id)
{
    if (!n || (unsigned)k >= BOARD_NKINDS || id < 0 || id >= n->n[k])
        return NULL;
    return n->names[k][id];
}

static int names_resolve(void *ud, board_name_kind k, const char *name)
{
    scn_names *n = ud;
    if ((unsigned)k >= BOARD_NKINDS)
        return -1;
    int id = names_find(n, k, name);
    if (id >= 0 || n->frozen)
        return id;
    return scn_names_add(n, k, name);
}

scn_resolver scn_names_resolver(scn_names *n)
{
    return (
        scn_resolver){ .resolve = names_resolve, .counter_size = NULL, .new_unit = NULL, .ud = n };
}

void scn_names_render(const char *path, const char *text, size_t len, const scn_errors *errs,
                      FILE *out)
{
    diag_sources src = { 0 };
    diag_list dl;
    diag_list_init(&dl, &src);
    uint32_t id = diag_sources_add(&src, path, text, len);
    for (size_t i = 0; i < errs->len; i++) {
        const scn_error *e = &errs->items[i];
        src_loc loc = { id == UINT32_MAX ? 0 : id, (uint32_t)e->line, (uint32_t)e->col,
                        (uint32_t)e->line, (uint32_t)(e->col + (e->len > 0 ? e->len : 1) - 1) };
        diag_report(&dl, e->code, DIAG_ERROR, loc, "%s", e->message);
    }
    diag_render_all(&dl, out);
    diag_list_clear(&dl);
    diag_sources_free(&src);
}

scenario *scn_names_load_file(const char *path, const scn_resolver *r, scn_errors *errs)
{
    char *text;
    size_t len;
    int err = file_read(path, (size_t)16 << 20, &text, &len);
    if (err) {
        fprintf(stderr, "hon: error[E398]: cannot read '%s': %s\n", path, file_error(err));
        return NULL;
    }
    scenario *s = scn_load(text, len, r, errs);
    if (!s)
        scn_names_render(path, text, len, errs, stderr);
    mem_free(text);
    return s;
}
