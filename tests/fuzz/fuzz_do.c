/* fuzz_do.c — libFuzzer target: procedures with dice on a board with the bundled rules' events,
 * as `do`, `why do`, `odds do`, `move`, `next` and `undo` run them. A first line `#N` picks
 * example board N (fuzz_board_of), loaded again for each input (so each starts a new game);
 * then each line, at most MAX_LINES: `odds CALL` (hon_odds_do), `why CALL` (hon_why_do), `move
 * UNIT SQUARE...` (hon_move), `next`, `undo`, or a call `EVENT(ARGS)` (hon_do); lines starting
 * with `#` are skipped. Every choice takes the first legal option. Seeds: the `do` lines of the
 * tests and docs (tests/fuzz/seeds.py).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAX_LINES   8
#define MAX_SQUARES 16

/* The rest of line after the word `word` and a space, or NULL. */
static const char *after(const char *line, const char *word)
{
    size_t n = strlen(word);
    return strncmp(line, word, n) == 0 && line[n] == ' ' ? line + n + 1 : NULL;
}

static void move(hon_vm *vm, char *args)
{
    const char *squares[MAX_SQUARES];
    size_t n = 0;
    char *save = NULL;
    const char *unit = strtok_r(args, " ", &save);
    char *sq;
    hon_answer *a = NULL;
    while (n < MAX_SQUARES && (sq = strtok_r(NULL, " ", &save)) != NULL)
        squares[n++] = sq;
    if (unit)
        hon_move(vm, unit, squares, n, &a);
    fuzz_read_answer(a);
}

static void run_line(hon_vm *vm, char *line)
{
    hon_answer *a = NULL;
    const char *rest;
    if (line[0] == '#' || line[0] == '\0')
        return;
    if ((rest = after(line, "odds")) != NULL)
        hon_odds_do(vm, rest, "<fuzz>", &a);
    else if ((rest = after(line, "why")) != NULL)
        hon_why_do(vm, rest, "<fuzz>", &a);
    else if (strncmp(line, "move ", 5) == 0)
        move(vm, line + 5);
    else if (strcmp(line, "next") == 0)
        hon_next(vm, &a);
    else if (strcmp(line, "undo") == 0)
        hon_undo(vm, &a);
    else
        hon_do(vm, line, "<fuzz>", &a);
    fuzz_read_answer(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hon_vm *vm = fuzz_bundled();
    char *text = fuzz_text(data, size);
    char *lines[MAX_LINES];
    if (!text)
        return 0;
    hon_load_board(vm, fuzz_board_of(text));
    hon_set_seed(vm, 1);
    size_t n = fuzz_lines(text, lines, MAX_LINES);
    for (size_t i = 0; i < n; i++)
        run_line(vm, lines[i]);
    free(text);
    return 0;
}
