/* fuzz_lsp.c — libFuzzer target: the bytes `hon lsp` reads (repl/lsp.c), framing and JSON and
 * all, served in-process by lsp_run on a session that holds a small rule text (not the bundled
 * rules: every didOpen and didChange checks the document over a copy of the session's program,
 * which for the bundled rules takes a good part of a second). Whatever the input, the server
 * answers or ignores each message and ends at `exit` or the end of the input; its output is
 * dropped. The seeds are LSP sessions about the bundled rule files (tests/fuzz/seeds.py).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"
#include "lsp.h"

/* The session's rules: something of each kind hover, definition and completion look up. */
static const char rules[] = "source \"F.1\" = \"Fuzz 1\";\n"
                            "enum level { low, high }\n"
                            "fn twice(x: int) -> int = 2 * x;\n"
                            "record pt { x: int, l: level }\n"
                            "fn px(p: pt) -> int = if p.l == high then p.x else twice(p.x);\n"
                            "table cost(l: level) -> int { low => 1; high => 2; }\n"
                            "query q(x: int) -> int combine first doc \"a query\" default 0;\n"
                            "rule q.r cite \"F.1\" doc \"a rule\" answer twice(x) + cost[low];\n";

static cli_session S;
static bool opened;
static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!opened) {
        cli_opts o = { .no_rules = true, .seed_set = true, .seed = 1 };
        o.step_budget = FUZZ_STEP_BUDGET;
        o.max_depth = FUZZ_MAX_DEPTH;
        if (cli_session_open(&S, &o) != 0 ||
            hon_load_source(S.vm, "fuzz.hon", rules, sizeof rules - 1) != HON_OK ||
            !(sink = fopen("/dev/null", "w")))
            abort();
        opened = true;
    }
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "rb");
    if (!in)
        return 0;
    lsp_run(&S, NULL, in, sink);
    fclose(in);
    return 0;
}
