/* disasm.h — the bytecode listing of a chunk, for `dis` (hon_disassemble) and the bytecode
 * golden tests (tests/golden/bytecode/). disasm.c writes it from the instruction set of
 * opcodes.h; vm.md §3 describes the listing.
 */
#ifndef HON_DISASM_H
#define HON_DISASM_H

#include <stdio.h>

#include "chunk.h"

/* Writes the listing of chunk c (borrowed; p names its constants, types and callees) to out:
 * a header line, then one line per instruction "  0003  line 12  GET_LOCAL 1" with constants
 * and jump targets spelled out. */
void disasm_chunk(const res_program *p, const chunk *c, FILE *out);

#endif
