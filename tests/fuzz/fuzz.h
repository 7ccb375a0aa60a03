/* fuzz.h — what the libFuzzer targets of tests/fuzz share: a session configured with the caps
 * that keep one input to a fraction of a second and bounded memory, the bundled rules loaded
 * once per process, the example boards, and a sink for output nobody reads. Each fuzz_*.c
 * defines LLVMFuzzerTestOneInput; driver.c replays files through it where libFuzzer is absent.
 * docs/spec/reliability.md describes the targets and how they run.
 */
#ifndef HON_FUZZ_H
#define HON_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hon.h"

/* The caps of every fuzzed session (hon_config): VM steps per evaluation (odds and procedure
 * enumerations get ODDS_BUDGET_FACTOR times this in all) and nested calls. The bundled rules'
 * queries take far fewer steps on the example boards. */
#define FUZZ_STEP_BUDGET 100000
#define FUZZ_MAX_DEPTH   64

/* libFuzzer's entry point, defined by each target. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Fills cfg for a fuzzed session: diagnostics dropped (printed to stderr when the environment
 * sets HON_FUZZ_VERBOSE, to see what an input does), dice seed 1, the caps above. */
void fuzz_config(hon_config *cfg);
/* The process's session with the bundled rules (rules/ then expansions/ of hon_source_dir())
 * loaded, made at the first call and kept (borrowed: never free it). Aborts when they do not
 * load: no input can be judged without them. */
hon_vm *fuzz_bundled(void);
/* The example boards (the .scn files of examples/boards/ in the source tree, in name order): their number,
 * and *paths (borrowed) set to their paths. At least one, or abort. */
size_t fuzz_boards(const char *const **paths);
/* The board an input asks for: a first line `#N...` (a comment to hon) picks board N modulo
 * fuzz_boards(); anything else board 0. */
const char *fuzz_board_of(const char *text);
/* A NUL-terminated copy of data (new: free() it), NULL on OOM. */
char *fuzz_text(const uint8_t *data, size_t size);
/* Splits text in place at '\n' into at most max lines; returns how many. */
size_t fuzz_lines(char *text, char **lines, size_t max);
/* Reads every printer of the answer a (text, JSON, complete and brief traces, the rules that
 * fired: they render lazily) into the sink, then frees a (owned; NULL is fine). */
void fuzz_read_answer(hon_answer *a);
/* An open stream to /dev/null (borrowed, kept for the process). */
FILE *fuzz_sink(void);

#endif
