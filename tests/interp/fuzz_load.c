/* fuzz_load.c — libFuzzer target: load arbitrary bytes as a .hon file, then (when they load)
 * evaluate a few expressions, run the file's tests and compute odds; also evaluate the bytes
 * as a REPL expression. Nothing may crash, hang or leak (ASan/UBSan via -fsanitize=fuzzer).
 *
 * Built as a libFuzzer binary with -Dfuzzing=true (clang). Built with -DHON_FUZZ_MAIN it is a
 * plain test (tests/interp/meson.build: fuzz_smoke) that feeds a deterministic stream of
 * mutated programs through the same function.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ud, const hon_diag *d)
{
    (void)ud;
    (void)d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* small budgets keep each input fast */
    hon_config cfg = { .on_diag = quiet, .seed = 1, .step_budget = 20000, .max_depth = 50 };
    hon_vm *vm = hon_vm_new(&cfg);
    if (!vm)
        return 0;
    if (hon_load_source(vm, "fuzz.hon", (const char *)data, size) == HON_OK) {
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            hon_run_tests(vm, NULL, null, NULL, NULL);
            fclose(null);
        }
    }
    /* the bytes as an expression (NUL-terminated copy) */
    char *expr = malloc(size + 1);
    if (expr) {
        memcpy(expr, data, size);
        expr[size] = '\0';
        hon_answer *a = NULL;
        hon_eval(vm, expr, "<fuzz>", &a);
        hon_answer_free(a);
        a = NULL;
        if (size < 64)
            hon_odds(vm, expr, "<fuzz>", &a);
        hon_answer_free(a);
        free(expr);
    }
    hon_vm_free(vm);
    return 0;
}

#ifdef HON_FUZZ_MAIN
/* Seeds: programs covering the language; each round flips, inserts or deletes a few bytes. */
static const char *const seeds[] = {
    "query q(x: int) -> int combine sum default 1;\n"
    "rule q.a cite \"A\" when x > 0 answer sum(y in [x, 2]: y);\ntest \"t\" { expect q(1) == 4; }\n"
    "source \"A\";\n",
    "enum w { storm, clear }\ntable t(k: w) -> (a: int, b: set<w>) cite \"T\" "
    "{ storm => 1, {storm}; clear => ?, {}; }\n"
    "fn f(k: w) -> int = t[k].a;\ntest \"x\" { expect f(clear) fails E201; }\nsource \"T\";\n",
    "kind inf;\nside allies;\nability aa: int;\nmarker sup;\nvalue defense;\n"
    "counter c \"C\" : inf { side allies defense 3 abilities { aa 1 } markers { sup } }\n"
    "query p(u: unit) -> verdict combine permission;\n"
    "rule p.no cite \"P\" when has(u, sup) answer forbid;\nsource \"P\";\n",
    "variant v { reading one default; reading two; }\n"
    "edition e \"E\" { set variant v = two; }\nedition f extends e;\ndefault edition f;\n"
    "fn g() -> int = if variant v == two then roll d6 else 0;\n"
    "fn r(n: int) -> int = if n <= 0 then 0 else r(n - 1) + 1;\n",
    "record o { kind: token, number: int }\ntoken numbered: int;\n"
    "fn n(x: int) -> o = o{kind: numbered, number: x};\n"
    "table fl(n: int floor) -> int { 0 => 1; 10 => 2; }\n",
    "module m \"M\";\nquery q(x: int) -> int combine first default 0;\n"
    "rule q.r cite \"Q\" when x > 1 answer x;\nfn f() -> int = 1;\nsource \"Q\";\n"
    "edition a uses m { revise rule q.r cite \"Q\" unless x > 5; revise fn f() -> int = 2; }\n"
    "edition b { revise rule q.r answer 7; }\nedition c extends a, b { prefer a; }\n"
    "test \"u\" { expect q(2) == 2 under a, 7 under b; }\n",
};

int main(void)
{
    uint64_t state = 0x9e3779b97f4a7c15ULL;
    char buf[2048];
    for (int round = 0; round < 3000; round++) {
        const char *seed = seeds[round % (sizeof seeds / sizeof seeds[0])];
        size_t len = strlen(seed);
        memcpy(buf, seed, len);
        int edits = 1 + round % 4;
        for (int e = 0; e < edits && len > 1; e++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t at = (size_t)(state >> 33) % len;
            int kind = (int)(state >> 20) % 3;
            char c = " {}()[];:,.=<>?\"#\n-+*/%az09"[(state >> 40) % 28];
            if (kind == 0)
                buf[at] = c;
            else if (kind == 1 && len + 1 < sizeof buf) {
                memmove(buf + at + 1, buf + at, len - at);
                buf[at] = c;
                len++;
            } else {
                memmove(buf + at, buf + at + 1, len - at - 1);
                len--;
            }
        }
        LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
    }
    printf("1..1\nok 1 - 3000 mutated programs loaded and evaluated\n");
    return 0;
}
#endif
