/* fuzz_rules.c — libFuzzer target: rule source text. The bytes are loaded as a .hon file into a
 * new session (lexer, parser, resolver, compiler); when they load, its tests run, its rules are
 * listed, shown and disassembled, and its first queries and fns whose parameters need no board
 * are asked, traced, with every printer of the answer. The bytes are also evaluated as an
 * expression, and their odds asked when short. Text that parses is laid out by hon fmt
 * (hon_format), which must accept it and give a layout that lays out to itself. Nothing may crash, leak, hang or grow without
 * bound (fuzz.h's caps). Seeds: the .hon files of the tree (tests/fuzz/seeds.py).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAX_ASKED 8 /* queries and fns asked per input */

static void show_rule(void *ud, const hon_rule_info *r)
{
    hon_vm *vm = ud;
    hon_show(vm, r->name, fuzz_sink());
    hon_disassemble(vm, r->name, fuzz_sink());
}

typedef struct asking {
    hon_vm *vm;
    size_t n;
} asking;

/* Asks the query or fn `name` with the first value of each parameter's type, when none needs a
 * board (units, squares...), traced. */
static void ask(void *ud, const char *name)
{
    asking *k = ud;
    hon_query_info info;
    hon_value args[16];
    if (k->n >= MAX_ASKED || hon_query_info_of(k->vm, name, &info) != HON_OK || info.nparams > 16)
        return;
    for (size_t i = 0; i < info.nparams; i++) {
        switch (info.param_kinds[i]) {
        case HON_T_INT: args[i] = (hon_value){ HON_V_INT, 1 }; break;
        case HON_T_BOOL: args[i] = (hon_value){ HON_V_BOOL, 1 }; break;
        case HON_T_VERDICT: args[i] = (hon_value){ HON_V_VERDICT, 1 }; break;
        case HON_T_ENUM: args[i] = (hon_value){ HON_V_MEMBER, 0 }; break;
        default: return;
        }
    }
    k->n++;
    hon_query_handle *h = hon_lookup_query(k->vm, name);
    hon_answer *a = NULL;
    if (h)
        hon_ask_query(k->vm, h, args, info.nparams, &a);
    fuzz_read_answer(a);
    hon_query_handle_free(h);
}

/* `hon fmt` on text that loaded: accepted (the layout kept its tokens and parses), and laid
 * out again, unchanged (idempotent). A failure aborts: that is a bug of the layout. */
static void layout(hon_vm *vm, const char *text, size_t size)
{
    char *once = NULL, *twice = NULL;
    size_t n1 = 0, n2 = 0;
    hon_status st = hon_format(vm, "fuzz.hon", text, size, &once, &n1);
    if (st == HON_ERR_MEMORY)
        return;
    if (st != HON_OK)
        abort();
    st = hon_format(vm, "fuzz.hon", once, n1, &twice, &n2);
    if (st != HON_OK && st != HON_ERR_MEMORY)
        abort();
    if (st == HON_OK && (n1 != n2 || memcmp(once, twice, n1) != 0))
        abort();
    hon_text_free(once);
    hon_text_free(twice);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hon_config cfg;
    fuzz_config(&cfg);
    hon_vm *vm = hon_vm_new(&cfg);
    char *text = fuzz_text(data, size);
    if (!vm || !text) {
        hon_vm_free(vm);
        free(text);
        return 0;
    }
    if (hon_load_source(vm, "fuzz.hon", text, size) == HON_OK) {
        layout(vm, text, size);
        hon_run_tests(vm, NULL, fuzz_sink(), NULL, NULL);
        hon_list_rules(vm, NULL, show_rule, vm);
        asking k = { vm, 0 };
        hon_complete(vm, HON_COMPLETE_QUERY, NULL, NULL, ask, &k);
        hon_complete(vm, HON_COMPLETE_FN, NULL, NULL, ask, &k);
    }
    hon_answer *a = NULL;
    hon_eval(vm, text, "<fuzz>", &a);
    fuzz_read_answer(a);
    a = NULL;
    if (size < 64)
        hon_odds(vm, text, "<fuzz>", &a);
    fuzz_read_answer(a);
    hon_vm_free(vm);
    free(text);
    return 0;
}
