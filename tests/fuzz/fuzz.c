/* fuzz.c — the helpers of tests/fuzz (fuzz.h): the capped session configuration, the bundled
 * rules loaded once per process, the example boards, text and line helpers. Shared by every
 * fuzz_*.c target and by driver.c.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BOARDS 16

static void quiet(void *ud, const hon_diag *d)
{
    (void)ud;
    (void)d;
}

void fuzz_config(hon_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->on_diag = getenv("HON_FUZZ_VERBOSE") ? NULL : quiet; /* NULL: rendered to stderr */
    cfg->seed = 1;
    cfg->step_budget = FUZZ_STEP_BUDGET;
    cfg->max_depth = FUZZ_MAX_DEPTH;
}

/* Loads DIR of the source tree into vm, or aborts. */
static void load_or_abort(hon_vm *vm, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", hon_source_dir(), dir);
    if (hon_load_dir(vm, path) != HON_OK) {
        fprintf(stderr, "fuzz: the bundled rules in %s do not load\n", path);
        abort();
    }
}

hon_vm *fuzz_bundled(void)
{
    static hon_vm *vm;
    if (!vm) {
        hon_config cfg;
        fuzz_config(&cfg);
        vm = hon_vm_new(&cfg);
        if (!vm)
            abort();
        load_or_abort(vm, "rules");
        load_or_abort(vm, "expansions");
    }
    return vm;
}

typedef struct board_list {
    char *paths[MAX_BOARDS];
    size_t n;
} board_list;

static void add_board(void *ud, const char *path)
{
    board_list *b = ud;
    if (b->n < MAX_BOARDS && (b->paths[b->n] = strdup(path)) != NULL)
        b->n++;
}

size_t fuzz_boards(const char *const **paths)
{
    static board_list boards;
    if (boards.n == 0) {
        hon_each_bundled_board(add_board, &boards);
        if (boards.n == 0) {
            fprintf(stderr, "fuzz: no example board found\n");
            abort();
        }
    }
    *paths = (const char *const *)boards.paths;
    return boards.n;
}

const char *fuzz_board_of(const char *text)
{
    const char *const *paths;
    size_t n = fuzz_boards(&paths);
    if (text[0] == '#' && text[1] >= '0' && text[1] <= '9')
        return paths[(size_t)(text[1] - '0') % n];
    return paths[0];
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        if (size)
            memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

size_t fuzz_lines(char *text, char **lines, size_t max)
{
    size_t n = 0;
    while (n < max && *text) {
        lines[n++] = text;
        char *nl = strchr(text, '\n');
        if (!nl)
            break;
        *nl = '\0';
        text = nl + 1;
    }
    return n;
}

FILE *fuzz_sink(void)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    if (!sink)
        abort();
    return sink;
}

void fuzz_read_answer(hon_answer *a)
{
    if (!a)
        return;
    fputs(hon_answer_text(a), fuzz_sink());
    fputs(hon_answer_json(a), fuzz_sink());
    fputs(hon_answer_trace(a), fuzz_sink());
    fputs(hon_answer_why(a), fuzz_sink());
    fputs(hon_answer_fired(a), fuzz_sink());
    hon_answer_free(a);
}
