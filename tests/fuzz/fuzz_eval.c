/* fuzz_eval.c — libFuzzer target: an expression or query call against the bundled rules and an
 * example board, as `hon eval`, `why` and `odds` ask it. A first line `#N` (a comment to hon)
 * picks example board N (fuzz_board_of); when that line also says `odds`, the exact
 * distribution is asked (hon_odds), else the answer (hon_eval); either is read through every
 * printer (fuzz_read_answer). The session is the process's one (fuzz.h),
 * whose board changes only when an input asks for another. Seeds: the questions of the tests'
 * `expect`s and of the docs' examples (tests/fuzz/seeds.py).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* Whether the first line (a `#` comment) says `odds`. */
static bool asks_odds(const char *text)
{
    if (text[0] != '#')
        return false;
    for (const char *p = text; *p && *p != '\n'; p++)
        if (strncmp(p, "odds", 4) == 0)
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hon_vm *vm = fuzz_bundled();
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    const char *board = fuzz_board_of(text);
    const char *loaded = hon_board_path(vm);
    if (!loaded || strcmp(loaded, board) != 0)
        hon_load_board(vm, board);
    hon_set_seed(vm, 1);
    hon_answer *a = NULL;
    if (asks_odds(text) ? hon_odds(vm, text, "<fuzz>", &a) : hon_eval(vm, text, "<fuzz>", &a))
        hon_answer_free(a); /* an error: anything given back is only freed */
    else
        fuzz_read_answer(a);
    free(text);
    return 0;
}
