/* driver.c — main() for the fuzz targets where libFuzzer is not linked (gcc, the normal test
 * suite): replays every file named on the command line, and every file of every directory named
 * (in name order), through the target's LLVMFuzzerTestOneInput — the seed corpora and the
 * regressions/ of tests/fuzz — and with `--mutations N` also N deterministic mutations of each
 * (bytes replaced, inserted, deleted). A crash, a sanitizer report or a hang fails the test.
 * Prints TAP. Shares the target contract of fuzz.h.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

typedef struct replay {
    unsigned mutations;
    uint64_t state; /* of the mutations' generator (a 64-bit LCG) */
    size_t files, runs;
} replay;

static uint64_t next(replay *r)
{
    r->state = r->state * 6364136223846793005ULL + 1442695040888963407ULL;
    return r->state >> 16;
}

/* Runs data, then its mutations, each of 1 to 4 edits with characters that matter to the
 * languages' lexers. */
static void run_all(replay *r, const uint8_t *data, size_t len)
{
    static const char alphabet[] = " {}()[];:,.=<>?\"#\n-+*/%$@az09";
    uint8_t *buf = malloc(len + 8);
    if (!buf)
        abort();
    LLVMFuzzerTestOneInput(data, len);
    r->runs++;
    for (unsigned m = 0; m < r->mutations; m++) {
        size_t n = len;
        if (len)
            memcpy(buf, data, len);
        for (unsigned e = 0; e <= m % 4; e++) {
            size_t at = n ? (size_t)(next(r) % n) : 0;
            uint8_t c = (uint8_t)alphabet[next(r) % (sizeof alphabet - 1)];
            switch (next(r) % 3) {
            case 0:
                if (n)
                    buf[at] = c;
                break;
            case 1:
                memmove(buf + at + 1, buf + at, n - at);
                buf[at] = c;
                n++;
                break;
            default:
                if (n) {
                    memmove(buf + at, buf + at + 1, n - at - 1);
                    n--;
                }
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
        r->runs++;
    }
    free(buf);
}

static int run_file(replay *r, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("Bail out! cannot read %s\n", path);
        return 1;
    }
    size_t cap = 4096, len = 0, got;
    uint8_t *data = malloc(cap);
    while (data && (got = fread(data + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *more = realloc(data, cap *= 2);
            if (!more)
                free(data);
            data = more;
        }
    }
    fclose(f);
    if (!data)
        abort();
    run_all(r, data, len);
    free(data);
    r->files++;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of dir, in name order (a README.md is documentation, skipped). */
static int run_dir(replay *r, const char *dir)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    if (!d) {
        printf("Bail out! cannot open %s\n", dir);
        return 1;
    }
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0)
            continue;
        if (n == cap && !(names = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names)))
            abort();
        if (!(names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2)))
            abort();
        sprintf(names[n++], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            rc |= run_file(r, names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    replay r = { .state = 0x9e3779b97f4a7c15ULL };
    int rc = 0;
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (strcmp(argv[i], "--mutations") == 0 && i + 1 < argc) {
            r.mutations = (unsigned)strtoul(argv[++i], NULL, 10);
        } else if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            rc |= run_dir(&r, argv[i]);
        } else {
            rc |= run_file(&r, argv[i]);
        }
    }
    printf("1..1\n%s 1 - %zu inputs run (%zu files, %u mutations of each)\n", rc ? "not ok" : "ok",
           r.runs, r.files, r.mutations);
    return rc;
}
