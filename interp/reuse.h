/* reuse.h — reads a combined chunk computes again and again, kept after their first run
 * (vm.md §5b).
 *
 * combine.c builds a query's combined chunk, then hands it to reuse_reads, which finds the
 * expressions of pure instructions over the chunk's parameters (the unit's square, its kind,
 * the terrain there) that the chunk computes more than once or inside a loop, and brackets
 * them with KEPT and KEEP (opcodes.h): the value is computed and kept in a local at its first
 * reach, and read from there afterwards, charging the steps of the instructions it stands for.
 * The VM (vm.c) runs the two instructions; frame.h's vm_zero_from clears the locals at entry.
 */
#ifndef HON_REUSE_H
#define HON_REUSE_H

#include <stdbool.h>

#include "chunk.h"

/* Rewrites combined chunk ch (CHUNK_QUERY, out of combine.c, its accumulator its last two
 * locals) in place: each expression worth keeping gets a local just before the accumulator
 * (ch->nkept of them, the accumulator moved up past them), a KEPT before its code and a KEEP
 * after it; the jumps, spans and parts are moved with the code. Answers, errors, their spans
 * and the steps charged stay those of the chunk as it was (vm.md §5b). False when memory ran
 * out: ch is then as it was (still right, only slower). */
bool reuse_reads(chunk *ch);

#endif
