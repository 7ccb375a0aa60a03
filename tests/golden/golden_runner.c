/* golden_runner.c — the shared half of the golden-test drivers: reading and parsing an input,
 * folder walk, byte-for-byte comparison with NAME.expected, TAP output (see golden_runner.h,
 * tests/golden/README.md). */
#include "golden_runner.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "mem.h"

char *golden_slurp(const char *path, size_t *len)
{
    char *text;
    return file_read(path, (size_t)64 << 20, &text, len) == 0 ? text : NULL;
}

bool golden_parse_open(golden_parse *g, const char *path, FILE *out)
{
    *g = (golden_parse){ 0 };
    g->text = golden_slurp(path, &g->len);
    if (!g->text) {
        fprintf(out, "cannot read %s\n", path);
        return false;
    }
    diag_list_init(&g->diags, &g->src);
    uint32_t id = diag_sources_add(&g->src, path, g->text, g->len);
    g->file = front_parse_file(path, g->text, g->len, id, &g->diags);
    return true;
}

void golden_parse_close(golden_parse *g)
{
    ast_file_free(g->file);
    diag_list_clear(&g->diags);
    diag_sources_free(&g->src);
    mem_free(g->text);
    *g = (golden_parse){ 0 };
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Prints the first line where `got` and `want` differ, as TAP diagnostics. */
static void show_diff(const char *got, const char *want)
{
    int line = 1;
    const char *g = got, *w = want;
    while (*g && *g == *w) {
        if (*g == '\n')
            line++;
        g++;
        w++;
    }
    while (g > got && g[-1] != '\n')
        g--;
    while (w > want && w[-1] != '\n')
        w--;
    printf("#   first difference at output line %d\n", line);
    printf("#   got:  %.*s\n", (int)strcspn(g, "\n"), g);
    printf("#   want: %.*s\n", (int)strcspn(w, "\n"), w);
}

static int golden(const char *dir, const char *ext, golden_check_fn *check_one)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("Bail out! cannot open %s\n", dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l <= strlen(ext) || strcmp(e->d_name + l - strlen(ext), ext) != 0)
            continue;
        if (!MEM_GROW(names, n, cap) || !(names[n] = mem_strdup(e->d_name))) {
            printf("Bail out! out of memory\n");
            closedir(d);
            return 1;
        }
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    printf("1..%zu\n", n);
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096], exp[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(exp, sizeof exp, "%.*s.expected", (int)(strlen(path) - strlen(ext)), path);
        char *got = NULL;
        size_t got_len = 0, want_len = 0;
        FILE *mem = open_memstream(&got, &got_len);
        int rc = mem ? check_one(path, mem) : 1;
        if (mem)
            fclose(mem);
        char *want = golden_slurp(exp, &want_len);
        bool ok = rc == 0 && want && got && got_len == want_len && memcmp(got, want, got_len) == 0;
        printf("%s %zu - %s\n", ok ? "ok" : "not ok", i + 1, path);
        if (!ok) {
            failed++;
            if (!want)
                printf("#   missing %s\n", exp);
            else if (got)
                show_diff(got, want);
        }
        free(got);
        mem_free(want);
        mem_free(names[i]);
    }
    mem_free(names);
    return failed ? 1 : 0;
}

int golden_main(int argc, char **argv, const char *ext, golden_check_fn *check_one)
{
    if (argc == 3 && strcmp(argv[1], "--golden") == 0)
        return golden(argv[2], ext, check_one);
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE... | %s --golden DIR\n", argv[0], argv[0]);
        return 2;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++)
        rc |= check_one(argv[i], stdout);
    return rc;
}
