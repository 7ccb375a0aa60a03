/* memo.h — the answers of pure queries over small finite domains, kept across evaluations: a
 * query whose arguments are all enum members or bools and whose rules (and every fn and query
 * they call) read nothing but their arguments, constants, tables and variant readings is a
 * table of its answers under one program, edition and set of readings (vm.md §4, "Tables of
 * answers"). The VM's query driver (vm.c) asks memo_slot; state.c keys the tables to the
 * evaluation's setting (memo_key) and frees them. The opcodes allowed are listed in memo.c.
 */
#ifndef HON_MEMO_H
#define HON_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program.h"
#include "value.h"

/* One known answer: the value (type T_NONE: not known yet), the VM steps and the depth of
 * nested calls asking it took. A caller that answers from the table charges the steps, and
 * asks the rules instead when the budget or the depth left would not have sufficed, so that
 * tabling never changes an evaluation's steps, limits or errors. */
typedef struct memo_answer {
    val v;
    uint64_t steps;
} memo_answer;

/* memo.tabled, per query: not decided yet, not tabled, tabled. */
enum {
    MEMO_UNDECIDED = 0,
    MEMO_NOT_TABLED,
    MEMO_TABLED
};

/* The tables of one vm_ctx. A zeroed memo is empty and valid. */
typedef struct memo {
    uint64_t serial;   /* prog.serial of the program the tables are for (0: none) */
    uint64_t setting;  /* the state_setup.setting the key was last set from (0: none) */
    int32_t edition;   /* the edition they are for */
    int32_t *readings; /* owned: the reading of each variant they are for */
    size_t nreadings;
    uint8_t *tabled;   /* per query: a MEMO_* above */
    uint32_t *qdepth;  /* per query: 0 not looked at, else its mark (memo.c, D_*) or depth */
    uint32_t *fndepth; /* per fn (the edition's version): likewise */
    size_t nq, nfn;
    memo_answer **answers; /* per query: NULL, or one slot per argument tuple */
    uint32_t *dom1;        /* per query: the size of its one parameter's domain when it is
                              tabled and has one parameter (memo_slot_quick), else 0 */
} memo;

/* Keys m to program pg (borrowed), edition ed and the readings of every variant (readings:
 * borrowed, one per variant of pg->res, or NULL for every default): when any differs from
 * the tables' key the tables are dropped. setting: the number naming that edition and those
 * readings (state_setup.setting), or 0: when it is the one the key was last set from, and the
 * program the same, the key is taken as it stands without comparing every reading (one
 * comparison per evaluation: bench.md §8). false when memory runs out (m is then empty, and
 * memo_slot answers NULL until a key is set again). */
bool memo_key(memo *m, const prog *pg, int32_t ed, const int32_t *readings, uint64_t setting);

/* The slot of query q's answer to the arguments args (borrowed, q's arity), under the key last
 * set: NULL when q is not tabled (an argument not finite, its domain over 4,096 tuples, an
 * answer that is a list or a record, an event, or a rule or fn it reaches that reads the board,
 * the units, the dice, the clock or a procedure) or memory ran out. A slot whose type is
 * T_NONE is not known yet: the caller stores the answer and its steps there once the query
 * answers without error. fn_of, nfn_of: the edition's fn versions (vm_ctx.fn_of). Borrowed from m. */
memo_answer *memo_slot(memo *m, const prog *pg, const int32_t *fn_of, size_t nfn_of, uint32_t q,
                       const val *args);

/* memo_slot, the slot of a tabled query of one parameter (terrain_traits...) found inline:
 * the query driver and the dispatch loop ask it on every call of a tabled query. */
static inline memo_answer *memo_slot_quick(memo *m, const prog *pg, const int32_t *fn_of,
                                           size_t nfn_of, uint32_t q, const val *args)
{
    if (q < m->nq && m->dom1[q] && m->serial == pg->serial)
        return (uint64_t)args[0].u.i < m->dom1[q] ? &m->answers[q][args[0].u.i] : NULL;
    return memo_slot(m, pg, fn_of, nfn_of, q, args);
}

/* Whether query q may have a table under m: false when it is known not to be tabled (or m
 * holds no tables). The query driver tests it inline before calling memo_slot, so that a call
 * of a query that is not tabled costs one load and a compare (the simplified benchmark's
 * rules, none of them tabled, paid a function call per query call). */
static inline bool memo_may_table(const memo *m, uint32_t q)
{
    return q < m->nq && m->tabled[q] != MEMO_NOT_TABLED;
}

/* The depth of the deepest chain of nested calls, q's own included, that asking tabled query q
 * can make (q's slot came from memo_slot under the same key). */
static inline uint32_t memo_depth(const memo *m, uint32_t q)
{
    return m->qdepth[q];
}

/* Frees the tables; the struct is zeroed (accepts NULL and a zeroed memo). */
void memo_free(memo *m);

#endif
