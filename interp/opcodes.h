/* opcodes.h — THE list of bytecode instructions: OP(NAME, operand_count, stack_effect).
 *
 * Included (without guard) by chunk.h (enum), chunk.c (names, operand counts, stack effects),
 * disasm.c (listing) and vm.c (computed-goto table); define OP before including. Operands are
 * 32-bit words following the opcode; the stack effect may use the first two operands as `a`
 * and `b`. Jump offsets are signed, relative to the end of the instruction, and always the
 * last operand. Anything that can fail raises an E2xx error (docs/spec/errors.md).
 */

/* constants and locals */
OP(CONST,              1, 1)        /* push constant K[a] */
OP(INT,                1, 1)        /* push the int (int32_t)a */
OP(TRUE,               0, 1)        /* push true */
OP(FALSE,              0, 1)        /* push false */
OP(POP,                0, -1)       /* drop the top value */
OP(GET_LOCAL,          1, 1)        /* push local slot a */
OP(SET_LOCAL,          1, -1)       /* pop into local slot a */

/* arithmetic on ints: E205 on overflow and division by zero */
OP(ADD,                0, -1)       /* x y -> x+y */
OP(SUB,                0, -1)       /* x y -> x-y */
OP(MUL,                0, -1)       /* x y -> x*y */
OP(DIV,                0, -1)       /* x y -> floor(x/y) */
OP(MOD,                0, -1)       /* x y -> x - y*floor(x/y) */
OP(NEG,                0, 0)        /* x -> -x */
OP(MIN,                0, -1)       /* x y -> the smaller */
OP(MAX,                0, -1)       /* x y -> the larger */
OP(ABS,                0, 0)        /* x -> |x| */

/* logic and comparison */
OP(NOT,                0, 0)        /* b -> not b */
OP(EQ,                 0, -1)       /* x y -> x == y (deep); E201 if a `?` cell takes part */
OP(NE,                 0, -1)       /* x y -> x != y (deep); E201 likewise */
OP(LT,                 0, -1)       /* x y -> x < y (ints; enum members by declaration order) */
OP(LE,                 0, -1)       /* x y -> x <= y */
OP(GT,                 0, -1)       /* x y -> x > y */
OP(GE,                 0, -1)       /* x y -> x >= y */
OP(IN,                 0, -1)       /* x S -> whether x is in the set or list S */
OP(CONCAT,             0, -1)       /* L M -> the list of L's items then M's (`++`) */
OP(NTH,                0, -1)       /* L i -> the i-th item of L, from 1; E227 out of range */

/* control */
OP(JUMP,               1, 0)        /* pc += a */
OP(JUMP_IF_FALSE,      1, -1)       /* pop b; if not b, pc += a */
OP(JUMP_IF_TRUE,       1, -1)       /* pop b; if b, pc += a */
OP(JUMP_IF_FALSE_KEEP, 1, 0)        /* if the top is false, pc += a (it stays); `and` */
OP(JUMP_IF_TRUE_KEEP,  1, 0)        /* if the top is true, pc += a (it stays); `or` */
OP(FOR_NEXT,           4, 0)        /* local a: list/set, local b: position; next item into
                                       local c and advance b, or else pc += d (loop done) */
OP(EMPTY_AGG,          0, 0)        /* E208: min/max over an empty collection */

/* building and reading values */
OP(MAKE_LIST,          2, 1 - (int)(b))  /* b items -> list of type a */
OP(MAKE_SET,           2, 1 - (int)(b))  /* b members -> set of type a */
OP(MAKE_RECORD,        2, 1 - (int)(b))  /* b fields in declaration order -> record type a */
OP(GET_FIELD,          1, 0)        /* record -> field a; E201 for a `?` cell */
OP(GET_LOCAL_FIELD,    2, 1)        /* push field b of the record in local a (GET_LOCAL a;
                                       GET_FIELD b in one); E201 for a `?` cell */
OP(LEN,                0, 0)        /* list or set -> its length */
OP(TABLE,              3, 1 - (int)(b))  /* b keys -> table a, column c (c = ~0: whole row);
                                            E201 `?` cell, E202 no row */

/* units */
OP(UNIT_KIND,          0, 0)        /* unit -> its kind */
OP(UNIT_SIDE,          0, 0)        /* unit -> its side; E204 when the counter has none */
OP(UNIT_SIZE,          0, 0)        /* unit -> squares it covers */
OP(UNIT_VALUE,         1, 0)        /* unit -> value slot a; E204 when the counter lacks it */
OP(HAS_ABILITY,        0, -1)       /* unit ability -> bool */
OP(HAS_MARKER,         0, -1)       /* unit marker -> bool (count > 0) */
OP(ABILITY_VALUE,      0, -1)       /* unit ability -> the number it carries, 0 when absent */
OP(MARKER_COUNT,       0, -1)       /* unit marker -> how many it has */

/* the board (language.md §5; interp/builtin.c): E212 when no board is loaded */
OP(UNIT_NAMED,         1, 1)        /* push the scenario unit named by string a (`$name`);
                                       E213 when the board has none */
OP(BOARD,              3, 1 - (int)(b))  /* b args -> board built-in a (RES_BI_*) giving a
                                            value of type c; E213-E218 */

/* dice and variants */
OP(ROLL,               0, 1)        /* push one d6 */
OP(ROLL_N,             1, 0)        /* n -> list of n d6, of type a (list<int>); E211 when n
                                       is out of range */
OP(VARIANT,            1, 1)        /* push the active reading of variant a */

/* calls */
OP(CALL_FN,            2, 1 - (int)(b))  /* b args -> result of fn a (E206 too deep) */
OP(CALL_QUERY,         2, 1 - (int)(b))  /* b args -> answer of query a, through the rule
                                            driver (E203 no answer, E206 too deep) */
OP(RETURN,             0, -1)       /* return the top value (a rule: it answered) */
OP(NO_ANSWER,          0, 0)        /* a rule whose `when` failed: return without answer */

/* lists built in a loop: `[x in L: cond]` */
OP(LIST_PUSH,          1, -1)       /* x -> (nothing): append x to the list in local a (a fresh
                                       list of the evaluation's arena, grown by doubling) */

/* events, effects and the clock (language.md §6; interp/play.c): EFFECT, RAISE, CHOOSE and
   FAIL run only inside a procedure (E299 otherwise) */
OP(EFFECT,             3, -(int)(b))     /* b operands -> apply effect a (FX_*, play.h) through
                                            the effect log; c: the value slot of `set` */
OP(RAISE,              2, -(int)(b))     /* b args -> queue event a: it runs after this rule's
                                            block (E222 when events cascade too deep) */
OP(CHOOSE,             1, -1)       /* L side -> the member of L the side's chooser picks; a:
                                       the question (a string, ~0: none); E220 L empty, E221 */
OP(NOTE,               1, 0)        /* write string a as a line of the procedure's output */
OP(FAIL,               1, 0)        /* stop the procedure with E219 and string a: its effects
                                       are rolled back */
OP(DONE,               0, 0)        /* the `do` block of an event's rule ran to its end: fired */
OP(TURN,               0, 1)        /* push the turn number (from 1) */
OP(PHASE,              0, 1)        /* push the current phase; E226 when none is declared */
