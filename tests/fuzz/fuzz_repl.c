/* fuzz_repl.c — libFuzzer target: lines typed at the REPL, commands included, run in-process
 * through repl_line (repl/repl.c) on a session of the bundled rules and an example board, as
 * `hon` runs them (repl/cli.c). Each line of the input is one REPL line, at most MAX_LINES; a
 * choice or a step (`step on`) reads its answer from the next line, as a piped session does.
 *
 * The session is the process's one: before each input its setting, seed, output mode and board
 * are put back, and when an input changed its rule files it is opened again. The input runs in
 * a scratch directory holding b.scn (an example board) and t.hon (a test file), emptied after
 * it. So that nothing outside it is read or written, a file command (load, board, test, svg,
 * reach) whose arguments hold '/' is skipped; `diff` and `snapshot`, which ask every question of
 * every bundled board by design (seconds), are skipped too. Standard output is dropped.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz.h"

#define MAX_LINES 16

static const char test_file[] = "test \"t\" { expect 1 + 1 == 2; }\n";

typedef struct fuzz_repl {
    bool open;
    cli_session s;
    size_t files;     /* the session's rule files as opened */
    char scratch[64]; /* the scratch directory */
    char *board;      /* the text of example board 0 */
    size_t board_len;
    char **lines; /* the input's lines not yet run, for the session's ask */
    size_t nlines, next;
} fuzz_repl;

static fuzz_repl R;

static char *ask(void *ud, const char *prompt)
{
    (void)ud;
    (void)prompt;
    return R.next < R.nlines ? R.lines[R.next++] : NULL;
}

static void open_session(void)
{
    cli_opts o = { .seed_set = true, .seed = 1 };
    o.step_budget = FUZZ_STEP_BUDGET;
    o.max_depth = FUZZ_MAX_DEPTH;
    if (R.open)
        cli_session_close(&R.s);
    if (cli_session_open(&R.s, &o) != 0)
        abort();
    R.open = true;
    R.s.ask = ask;
    R.files = hon_each_file(R.s.vm, NULL, NULL);
}

static void write_file(const char *name, const char *text, size_t len)
{
    FILE *f = fopen(name, "wb");
    if (!f || fwrite(text, 1, len, f) != len)
        abort();
    fclose(f);
}

/* At exit: the scratch directory, emptied after each input, goes. */
static void remove_scratch(void)
{
    rmdir(R.scratch);
}

/* Makes the scratch directory and reads board 0's text, once. */
static void setup(void)
{
    const char *const *boards;
    fuzz_boards(&boards);
    FILE *f = fopen(boards[0], "rb");
    if (!f)
        abort();
    R.board = malloc(1 << 16);
    if (!R.board)
        abort();
    R.board_len = fread(R.board, 1, 1 << 16, f);
    fclose(f);
    strcpy(R.scratch, "/tmp/hon-fuzz-repl-XXXXXX");
    if (!mkdtemp(R.scratch))
        abort();
    atexit(remove_scratch);
    open_session();
}

/* Empties the current directory (the scratch one). */
static void empty_dir(void)
{
    DIR *d = opendir(".");
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlink(e->d_name);
    closedir(d);
}

/* Whether the line is one this target runs (see the header). */
static bool allowed(const char *line)
{
    static const char *const file_cmds[] = { "load", "board", "test", "svg", "reach" };
    while (*line == ' ' || *line == '\t' || *line == ':')
        line++;
    size_t n = strspn(line, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
    if ((n == 4 && strncmp(line, "diff", 4) == 0) || (n == 8 && strncmp(line, "snapshot", 8) == 0))
        return false;
    for (size_t i = 0; i < sizeof file_cmds / sizeof file_cmds[0]; i++)
        if (n == strlen(file_cmds[i]) && strncmp(line, file_cmds[i], n) == 0)
            return strchr(line, '/') == NULL;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *lines[MAX_LINES];
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    if (!R.open)
        setup();
    int here = open(".", O_RDONLY | O_DIRECTORY);
    int out = dup(STDOUT_FILENO);
    int null = open("/dev/null", O_WRONLY);
    if (here < 0 || out < 0 || null < 0 || chdir(R.scratch) != 0)
        abort();
    write_file("b.scn", R.board, R.board_len);
    write_file("t.hon", test_file, sizeof test_file - 1);
    fflush(stdout);
    dup2(null, STDOUT_FILENO);

    hon_vm *vm = R.s.vm;
    R.s.json = false;
    R.s.stepping = false;
    hon_apply_setting(vm, "", "<fuzz>");
    hon_set_seed(vm, 1);
    hon_load_board(vm, "b.scn");
    R.nlines = fuzz_lines(text, lines, MAX_LINES);
    R.lines = lines;
    for (R.next = 0; R.next < R.nlines;) {
        char *line = lines[R.next++];
        if (allowed(line) && !repl_line(&R.s, line))
            break;
    }
    R.lines = NULL;
    R.nlines = 0;
    if (hon_each_file(R.s.vm, NULL, NULL) != R.files)
        open_session();

    fflush(stdout);
    dup2(out, STDOUT_FILENO);
    empty_dir();
    if (fchdir(here) != 0)
        abort();
    close(here);
    close(out);
    close(null);
    free(text);
    return 0;
}
