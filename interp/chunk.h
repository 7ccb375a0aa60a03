/* chunk.h — a unit of bytecode: code words, constants, and the pc -> source span table.
 *
 * The compiler (compile.c) fills chunks, the VM (vm.c) runs them, the disassembler (disasm.c)
 * lists them. The instruction set is interp/opcodes.h, the only list of opcodes.
 */
#ifndef HON_CHUNK_H
#define HON_CHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "value.h"

typedef enum op_code {
#define OP(name, ...) OP_##name,
#include "opcodes.h"
    OP__COUNT
} op_code;

/* The kinds of operands: OPK__ (the `_` of opcodes.h) for no operand, then OPK_CONST,
 * OPK_INT ... in the order of their OPERAND list. */
typedef enum op_kind {
    OPK__ = 0,
#define OPERAND(kind, doc) OPK_##kind,
#include "opcodes.h"
    OPK__COUNT
} op_kind;

/* Name ("ADD"), operand kinds (an op_kind per operand, OPK__ after the last), operand count
 * and stack effect of each opcode (from opcodes.h). */
extern const char *const op_names[OP__COUNT];
extern const uint8_t op_kinds[OP__COUNT][4];
extern const uint8_t op_operands[OP__COUNT];
int chunk_stack_effect(op_code op, uint32_t a, uint32_t b);

typedef enum chunk_kind {
    CHUNK_RULE,
    CHUNK_FN,
    CHUNK_DEFAULT,
    CHUNK_EXPR,
    CHUNK_QUERY /* a query's rules in one chunk (combine.h): id is the query */
} chunk_kind;

/* QUERY_RULE's flags (opcodes.h; combine.c sets them, the VM and peephole.c read them): the
 * answer that decides an `any` (QR_TRUE) or an `all` (0) query; the rule has a no-answer exit
 * to skip when it does not decide (QR_GUARDED); every answer decides (QR_EXIT: a `first`
 * query's rules, the last rule, the default). */
enum {
    QR_TRUE = 1,
    QR_GUARDED = 2,
    QR_EXIT = 4
};

/* QUERY_ACC's flags: a `max` query's (else `min`), the first rule's answer (the accumulator
 * empty), the last rule's (the copy ends), and, from bit QA_SKIP_SHIFT, the words of the rule's
 * no-answer exit to skip when the copy goes on. */
enum {
    QA_MAX = 1,
    QA_FIRST = 2,
    QA_LAST = 4,
    QA_SKIP_SHIFT = 4
};

/* One top-level operand of a rule's guard (`when a and b and ...`, each side of every `and`
 * not inside another operator; a revision's `unless E` is one more, `not E`), as the
 * *explained* chunk of the rule describes it (compile.c comp_rule_explained). The VM runs
 * that chunk instead of the plain one while it traces: GUARD_SIDES records the two values a
 * comparison operand compared, GUARD_FAILED the operand that was false (trace.h). */
typedef struct chunk_conj {
    uint32_t text;        /* index in strs: the operand as written, whitespace runs as one
                             space (for `unless E`: E) */
    uint32_t left, right; /* a comparison's sides as written (under any number of `not`s),
                             indexes in strs; UINT32_MAX: not a comparison, or that side is
                             a literal, whose value its text already says */
    bool compare;         /* a comparison: GUARD_SIDES records its two sides */
    bool negated;         /* the comparison is under an odd number of `not`s (an `unless`'s
                             own included): the operand held when the comparison did not */
    bool eq_literal;      /* the comparison is `==` with a literal side: when it held, the
                             other side's value is that literal, and a trace need not say it */
    bool unless;          /* the `not E` of `revise rule ... unless E` */
} chunk_conj;

typedef struct chunk_line {
    uint32_t pc; /* first code word this span covers */
    ast_loc loc;
} chunk_line;

/* Where the code of one rule (or the default) starts in a query's combined chunk, and the name
 * of the chunk it was copied from (an index in strs): what E207 names (chunk_name_at). */
typedef struct chunk_part {
    uint32_t pc;
    uint32_t name;
} chunk_part;

/* A call in an expression chunk (CHUNK_EXPR: the text a user typed, a test's expectation):
 * where each of its arguments is written, so that a run-time error about a value the call passed
 * is placed under that argument (state_blame, errors.md "Where an error is placed"). */
typedef struct chunk_call {
    uint32_t pc;    /* the CALL_FN or CALL_QUERY instruction */
    uint32_t first; /* its arguments' places: arg_locs[first .. first + nargs) */
    uint32_t nargs;
} chunk_call;

typedef struct chunk {
    char *name; /* owned: "rule q.r", "fn f", "default of q", "<repl>" */
    chunk_kind kind;
    uint32_t id; /* rule, fn or query id */
    uint32_t *code;
    size_t len, cap;
    val *k; /* constants: scalars only (ints, members, sets, verdicts, units,
                               squares) */
    size_t nk, kcap;
    char **strs; /* owned strings operands refer to (UNIT_NAMED: `$name`) */
    size_t nstrs, strs_cap;
    chunk_line *lines; /* sorted by pc */
    size_t nlines, lines_cap;
    uint32_t nparams;   /* arguments land in locals 0..nparams-1 */
    uint32_t nlocals;   /* all local slots (params, lets, loop variables, hidden ones) */
    uint32_t max_stack; /* deepest operand stack above the locals */
    chunk_conj *conj;   /* an explained rule chunk: its guard's operands, in order */
    size_t nconj, conj_cap;
    chunk_part *parts; /* a combined chunk (CHUNK_QUERY): its rules' code, sorted by pc */
    size_t nparts, parts_cap;
    uint32_t combine;  /* a combined chunk: the query's mode (AST_COMBINE_*), RULE_ACC's way */
    uint32_t nkept;    /* a combined chunk: the locals of its kept reads (reuse.c), just before
                       * the accumulator's two; its frame clears them with those */
    chunk_call *calls; /* an expression chunk: its calls of fns and queries, by pc */
    size_t ncalls, calls_cap;
    ast_loc *arg_locs; /* their arguments' places (chunk_call.first) */
    size_t narg_locs, arg_locs_cap;
} chunk;

/* A new empty chunk (copies name); NULL on OOM. */
chunk *chunk_new(const char *name, chunk_kind kind, uint32_t id);
void chunk_free(chunk *c);
/* Makes room in c, before anything is added, for at least `words` code words, `spans` spans,
 * `consts` constants, `strs` strings and `conj` guard operands, so that a chunk whose size is
 * known ahead (a rule's explained chunk, from its plain one) grows its arrays once, not from
 * 4 by doubling (each step a realloc: most of compiling an explained chunk, bench.md §11);
 * false on OOM (c stays usable). */
bool chunk_reserve(chunk *c, size_t words, size_t spans, size_t consts, size_t strs, size_t conj);
/* Appends a code word; false on OOM. */
bool chunk_emit(chunk *c, uint32_t word);
/* Records that code from the current end on comes from loc; false on OOM. */
bool chunk_mark(chunk *c, ast_loc loc);
/* Adds (or finds) a constant; its index, or -1 on OOM. */
int32_t chunk_const(chunk *c, val v);
/* Appends the n constants v[0..n) as new constants, one after the other (never reusing an
 * equal one: an instruction reads them by the first's index, peephole.c); the first's index,
 * or -1 on OOM (c unchanged). */
int32_t chunk_const_run(chunk *c, const val *v, size_t n);
/* Adds (or finds) a string operand (copied); its index, or -1 on OOM. */
int32_t chunk_str(chunk *c, const char *s);
/* Appends a guard operand's description (copied); false on OOM. */
bool chunk_add_conj(chunk *c, chunk_conj conj);
/* The text of guard operand k's string s (chunk_conj.text, .left, .right), or NULL for
 * UINT32_MAX or an index out of range. */
const char *chunk_conj_text(const chunk *c, uint32_t s);
/* Records that the instruction about to be emitted at the end of c (a call) passes n arguments
 * written at args[0..n) (copied); false on OOM (c stays usable, the call unrecorded). */
bool chunk_note_call(chunk *c, const ast_loc *args, uint32_t n);
/* Where argument k of the call recorded whose instruction holds code word pc (its opcode or an
 * operand) is written; false when no call is recorded there or it has no argument k. */
bool chunk_call_arg(const chunk *c, size_t pc, uint32_t k, ast_loc *out);
/* The name of the chunk whose code runs at code word pc: the name of c, or for a combined
 * chunk the name of the rule (or default) that code was copied from. Borrowed from c. */
const char *chunk_name_at(const chunk *c, size_t pc);
/* Whether local slot `slot` of chunk c may still be read when c goes on at code offset pc: some
 * way forward from pc (following every jump either way) reads it before a SET_LOCAL writes it.
 * Conservative: every LOCAL operand but SET_LOCAL's counts as a read, and every slot counts as
 * read in a chunk that reads its locals otherwise (RULE_ACC, RULE_ACC_LAST, RULE_END, RULE_ELSE: a
 * query's accumulator). Odds merge states that differ only in slots no one reads (odds.c). */
bool chunk_slot_live(const chunk *c, size_t pc, uint32_t slot);
/* The source span of the instruction holding code word pc. */
ast_loc chunk_loc(const chunk *c, size_t pc);

#endif
