/* fuzz_scenario.c — libFuzzer target: scenario text against the bundled rules. The bytes are
 * loaded as the board of the process's session (runtime/scenario*.c: lines, grids, placement,
 * names resolved against the rules); when they load, the board is drawn (text and SVG, plain and
 * with the line between its first and last unit), its things are named, the line of sight
 * between those units asked and the first unit's reach listed; then the board is dropped. Every
 * input, loaded or not, is also outlined (hon_each_scenario_symbol, `hon lsp`'s symbols), each
 * symbol's strings read through.
 * Seeds: the .scn files of the tree (tests/fuzz/seeds.py).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

typedef struct things {
    size_t n;
    hon_value first, last;
    char first_name[64], last_name[64];
} things;

static void count_thing(void *ud, hon_value v, const char *name)
{
    things *t = ud;
    if (t->n++ == 0) {
        t->first = v;
        snprintf(t->first_name, sizeof t->first_name, "%s", name);
    }
    t->last = v;
    snprintf(t->last_name, sizeof t->last_name, "%s", name);
}

/* Reads a symbol's strings to their ends, so that a bad one shows under the sanitizers. */
static void read_symbol(void *ud, const hon_scn_symbol *s)
{
    size_t *n = ud;
    *n += strlen(s->directive) + strlen(s->name) + (s->detail ? strlen(s->detail) : 0) + s->line +
          s->end_col + s->last_line;
}

static void draw(hon_vm *vm, const char *from, const char *to)
{
    hon_draw_board(vm, fuzz_sink(), from, to);
    hon_board_svg(vm, fuzz_sink(), from, to);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hon_vm *vm = fuzz_bundled();
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    size_t outlined = 0;
    hon_each_scenario_symbol(text, size, read_symbol, &outlined);
    if (hon_load_board_source(vm, "fuzz.scn", text, size) == HON_OK) {
        things units = { 0 }, other = { 0 };
        draw(vm, NULL, NULL);
        hon_each_board_thing(vm, HON_V_SQUARE, count_thing, &other);
        hon_each_board_thing(vm, HON_V_SIDE, count_thing, &other);
        hon_each_board_thing(vm, HON_V_ELEMENT, count_thing, &other);
        if (hon_each_board_thing(vm, HON_V_UNIT, count_thing, &units) > 0) {
            hon_answer *a = NULL;
            draw(vm, units.first_name, units.last_name);
            hon_los(vm, units.first, units.last, &a);
            fuzz_read_answer(a);
            a = NULL;
            hon_reach(vm, units.first_name, &a);
            fuzz_read_answer(a);
        }
        hon_drop_board(vm);
    }
    free(text);
    return 0;
}
