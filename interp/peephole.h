/* peephole.h — pairs of instructions in one, in a finished combined chunk (vm.md §5c).
 *
 * combine.c builds a query's combined chunk and reuse.c keeps its repeated reads; then
 * peep_pairs looks at each instruction and the one after it, and where the two are a pair the
 * VM runs as one (a board built-in reading its square from a local or a local's field, a
 * constant tested against, two fields read, a copied query's answer tested: opcodes.h's last
 * group), rewrites the first's opcode; so too a jump whose target does no more than take its
 * step (QUERY_NEXT) or give the call depth back (INLINE_LEAVE), an inlined fn's entry and its
 * copy's first instruction, and a variant's reading, the constant after it and the
 * compare-and-branch on them (three in one). The second (and third)
 * stays where it is: no offset moves, a jump landing on it runs it alone, and the first's
 * instruction falls back to its own work and the second's when the pair's fast path does not
 * apply (vm_ops_pairs.h), so answers, errors, spans and steps are the two instructions'.
 * Then peep_walk_fields says, at each walk's start, which fields of a step its loop reads.
 */
#ifndef HON_PEEPHOLE_H
#define HON_PEEPHOLE_H

#include "chunk.h"

/* Rewrites in place the first instruction of each pair of combined chunk ch (any chunk whose
 * instructions all run in the dispatch loop); the code keeps its length, operands, spans and
 * parts. Never fails. */
void peep_pairs(chunk *ch);

/* Makes each QUERY_ENTER of combined chunk ch (not a forwarded copy's) whose copied rules,
 * when each test of a side feature of the side between two of its arguments, or of a tabled
 * query's answer for the terrain of one argument, finds the member absent, answer a constant
 * default (side_sight's, terrain_sight's), a QUERY_ENTER_SIDES or QUERY_ENTER_SQUARE, which
 * skips the copy at such a side or square and takes the steps the copy would have taken; and
 * each INLINE_ENTER whose fn's code gives a constant when no unit stands on one argument's
 * square (square_screened's), an INLINE_ENTER_EMPTY (vm.md §5c). Run before peep_pairs, on the plain code; never fails (on OOM the copy stays as
 * it is). */
void peep_skips(chunk *ch);

/* Sets the last operand of each WALK_START of combined chunk ch to the fields of a step record
 * its loop reads: the union, over every WALK_NEXT and WALK_BACK on its plan's local, of the
 * fields read of their loop variable's local anywhere in ch (GET_LOCAL_FIELD and the
 * instructions that read a local's field, peephole.c's pairs included); every field when
 * that local is read whole or given to any other instruction, except the reads of a
 * forwarded query call's traced path (between a QUERY_FORWARD and the end of its
 * QUERY_ENTER), which walk_start covers (walk.h). Run on a finished chunk; never fails. */
void peep_walk_fields(chunk *ch);

#endif
