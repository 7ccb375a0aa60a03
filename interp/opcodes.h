/* opcodes.h — THE list of bytecode instructions: OP(NAME, stack_effect, K1, K2, K3, K4, "doc"),
 * their groups OP_GROUP("heading"), and the kinds of their operands OPERAND(KIND, "doc").
 *
 * Included (without guard) by chunk.h (the enums op_code and op_kind), chunk.c (names, operand
 * counts and kinds, stack effects), vm.c (the computed-goto table) and tests/docs/
 * doc_tables.c (vm.md §3's tables); define the macros you use before including, the others are
 * ignored, all three are undefined at the end. Operands are 32-bit words following the opcode,
 * K1..K4 their kinds (_ for none: the operand count is how many are not _); the disassembler
 * (disasm.c) prints each by its kind. The stack effect may use the first two operands as `a`
 * and `b`. A jump offset is signed, relative to the end of the instruction, and always the
 * last operand. Anything that can fail raises an E2xx error (docs/spec/errors.md). focus.c
 * reads VARIANT, TABLE, CALL_FN, CALL_QUERY, REQUIRE and RAISE to find what an answer can depend on: an
 * instruction that reads a reading or a table, or runs rule code, goes there too.
 */
#ifndef OP
#define OP(name, effect, k1, k2, k3, k4, doc)
#endif
#ifndef OP_GROUP
#define OP_GROUP(heading)
#endif
#ifndef OPERAND
#define OPERAND(kind, doc)
#endif

/* clang-format off */

OPERAND(CONST,     "an index into the chunk's constants; listed with the constant spelled out")
OPERAND(INT,       "an int32 immediate; listed signed, and again after `;`")
OPERAND(LOCAL,     "a local slot of the frame")
OPERAND(JUMP,      "a signed offset from the end of the instruction; listed with its target, "
                   "`-> 0012`")
OPERAND(EXIT,      "`FOR_NEXT`'s jump when the loop is done, a signed offset; listed "
                   "`done -> 0029`")
OPERAND(COUNT,     "how many values the instruction takes from the stack")
OPERAND(TYPE,      "a type id; listed with the type's name")
OPERAND(RESULT,    "the type id of a board built-in's result (the built-in's name says it: not "
                   "repeated)")
OPERAND(FIELD,     "a field of a record, by index")
OPERAND(TABLE,     "a table id; listed with the table's name")
OPERAND(COLUMN,    "a column of the instruction's table, ~0 (listed -1) for the whole row; "
                   "listed `.column` after the table")
OPERAND(SLOT,      "a value slot (a `value` declaration); listed with its name")
OPERAND(SET_SLOT,  "the value slot of a `set` effect (0 for the other effects); listed ` .slot` "
                   "after `set`")
OPERAND(UNIT_NAME, "a string of the chunk naming a board unit; listed `$name`")
OPERAND(TEXT,      "a string of the chunk, ~0 (listed -1) for none; listed quoted")
OPERAND(BUILTIN,   "a built-in function (`RES_BI_*`, `dsl/builtins.h`); listed with its name")
OPERAND(VARIANT,   "a variant id; listed with its name")
OPERAND(FN,        "a fn id; listed with its name")
OPERAND(QUERY,     "a query id; listed with its name")
OPERAND(EVENT,     "an event id (its index among the queries); listed with its name")
OPERAND(EFFECT,    "an effect (`FX_*`, `interp/effects.h`); listed with its name")
OPERAND(CONJ,      "an operand of the rule's guard, by index (`chunk_conj`); listed with its "
                   "text")

OP_GROUP("constants and locals")
OP(CONST,              1,                CONST, _, _, _, "push constant K[a]")
OP(INT,                1,                INT, _, _, _, "push the int (int32_t)a")
OP(TRUE,               1,                _, _, _, _, "push true")
OP(FALSE,              1,                _, _, _, _, "push false")
OP(POP,                -1,               _, _, _, _, "drop the top value")
OP(GET_LOCAL,          1,                LOCAL, _, _, _, "push local slot a")
OP(SET_LOCAL,          -1,               LOCAL, _, _, _, "pop into local slot a")

OP_GROUP("arithmetic on ints: E205 on overflow and division by zero")
OP(ADD,                -1,               _, _, _, _, "x y -> x+y")
OP(SUB,                -1,               _, _, _, _, "x y -> x-y")
OP(MUL,                -1,               _, _, _, _, "x y -> x*y")
OP(DIV,                -1,               _, _, _, _, "x y -> floor(x/y)")
OP(MOD,                -1,               _, _, _, _, "x y -> x - y*floor(x/y)")
OP(NEG,                0,                _, _, _, _, "x -> -x")
OP(MIN,                -1,               _, _, _, _, "x y -> the smaller")
OP(MAX,                -1,               _, _, _, _, "x y -> the larger")
OP(ABS,                0,                _, _, _, _, "x -> the absolute value")

OP_GROUP("logic and comparison")
OP(NOT,                0,                _, _, _, _, "b -> not b")
OP(EQ,                 -1,               _, _, _, _,
   "x y -> x == y (deep); E201 if a `?` cell takes part")
OP(NE,                 -1,               _, _, _, _, "x y -> x != y (deep); E201 likewise")
OP(LT,                 -1,               _, _, _, _,
   "x y -> x < y (ints; enum members by declaration order)")
OP(LE,                 -1,               _, _, _, _, "x y -> x <= y")
OP(GT,                 -1,               _, _, _, _, "x y -> x > y")
OP(GE,                 -1,               _, _, _, _, "x y -> x >= y")
OP(IN,                 -1,               _, _, _, _, "x S -> whether x is in the set or list S")
OP(CONCAT,             -1,               _, _, _, _,
   "L M -> the list of L's items then M's (`++`; one step per item)")
OP(NTH,                -1,               _, _, _, _,
   "L i -> the i-th item of L, from 1; E227 out of range")

OP_GROUP("control")
OP(JUMP,               0,                JUMP, _, _, _, "pc += a")
OP(JUMP_IF_FALSE,      -1,               JUMP, _, _, _, "pop b; if not b, pc += a")
OP(JUMP_IF_TRUE,       -1,               JUMP, _, _, _, "pop b; if b, pc += a")
OP(JUMP_IF_FALSE_KEEP, 0,                JUMP, _, _, _,
   "if the top is false, pc += a (it stays); `and`")
OP(JUMP_IF_TRUE_KEEP,  0,                JUMP, _, _, _,
   "if the top is true, pc += a (it stays); `or`")
OP(JUMP_IF_EQ,         -2,               JUMP, _, _, _,
   "x y -> if x == y, pc += a: `EQ; JUMP_IF_TRUE` in one, taking their two steps (a guard's "
   "comparison; E201 as EQ)")
OP(JUMP_IF_NE,         -2,               JUMP, _, _, _,
   "x y -> if x != y, pc += a: `NE; JUMP_IF_TRUE` (or `EQ; JUMP_IF_FALSE`) in one, two steps")
OP(JUMP_IF_EQ_S,       -2,               JUMP, _, _, _,
   "JUMP_IF_EQ where the compiler knows both sides are scalars (no list, no record): compared "
   "by their number, the type not asked; two steps (E201 as EQ)")
OP(JUMP_IF_NE_S,       -2,               JUMP, _, _, _,
   "JUMP_IF_NE likewise, on scalars")
OP(JUMP_IF_LT,         -2,               JUMP, _, _, _,
   "x y -> if x < y, pc += a: `LT; JUMP_IF_TRUE` (or `GE; JUMP_IF_FALSE`) in one, two steps")
OP(JUMP_IF_LE,         -2,               JUMP, _, _, _,
   "x y -> if x <= y, pc += a: `LE; JUMP_IF_TRUE` (or `GT; JUMP_IF_FALSE`) in one, two steps")
OP(JUMP_IF_GT,         -2,               JUMP, _, _, _,
   "x y -> if x > y, pc += a: `GT; JUMP_IF_TRUE` (or `LE; JUMP_IF_FALSE`) in one, two steps")
OP(JUMP_IF_GE,         -2,               JUMP, _, _, _,
   "x y -> if x >= y, pc += a: `GE; JUMP_IF_TRUE` (or `LT; JUMP_IF_FALSE`) in one, two steps")
OP(FOR_NEXT,           0,                LOCAL, LOCAL, LOCAL, EXIT,
   "local a: a list, local b: position; next item into local c and advance b, or else pc += d "
   "(loop done); the compiler picks it for a collection typed a list")
OP(FOR_NEXT_SET,       0,                LOCAL, LOCAL, LOCAL, EXIT,
   "FOR_NEXT over a set (or an enum's members): local b the next member to look at; the next "
   "member present into local c, or else pc += d")
OP(EMPTY_AGG,          0,                _, _, _, _, "E208: min/max over an empty collection")

OP_GROUP("building and reading values")
OP(MAKE_LIST,          1 - (int)(b),     TYPE, COUNT, _, _, "b items -> list of type a")
OP(MAKE_SET,           1 - (int)(b),     TYPE, COUNT, _, _, "b members -> set of type a")
OP(MAKE_RECORD,        1 - (int)(b),     TYPE, COUNT, _, _,
   "b fields in declaration order -> record type a")
OP(GET_FIELD,          0,                FIELD, _, _, _, "record -> field a; E201 for a `?` cell")
OP(GET_LOCAL_FIELD,    1,                LOCAL, FIELD, _, _,
   "push field b of the record in local a (`GET_LOCAL a; GET_FIELD b` in one); E201")
OP(LEN,                0,                _, _, _, _, "list or set -> its length")
OP(TABLE,              1 - (int)(b),     TABLE, COUNT, COLUMN, _,
   "b keys -> table a, column c (c = ~0: whole row); E201 `?` cell, E202 no row")

OP_GROUP("units")
OP(UNIT_KIND,          0,                _, _, _, _, "unit -> its kind")
OP(UNIT_SIDE,          0,                _, _, _, _,
   "unit -> its side; E204 when the counter has none")
OP(UNIT_SIZE,          0,                _, _, _, _, "unit -> squares it covers")
OP(UNIT_VALUE,         0,                SLOT, _, _, _,
   "unit -> value slot a; E204 when the counter lacks it")
OP(HAS_ABILITY,        -1,               _, _, _, _, "unit ability -> bool")
OP(HAS_MARKER,         -1,               _, _, _, _, "unit marker -> bool (count > 0)")
OP(ABILITY_VALUE,      -1,               _, _, _, _,
   "unit ability -> the number it carries, 0 when absent")
OP(MARKER_COUNT,       -1,               _, _, _, _, "unit marker -> how many it has")

OP_GROUP("the board (§4a); E212 when no board is loaded")
OP(UNIT_NAMED,         1,                UNIT_NAME, _, _, _,
   "push the board's unit named by string a of the chunk (`$name`); E213")
OP(BOARD,              1 - (int)(b),     BUILTIN, COUNT, RESULT, _,
   "b args -> board built-in a (`RES_BI_*`, `dsl/builtins.h`), a value of type c; E213-E218")
OP(SIDE_BETWEEN,       -1,               _, _, _, _,
   "a b -> the side squares a and b share: `side_between` as one instruction (BOARD's errors, "
   "E216)")
OP(SIDE_HAS,           -1,               _, _, _, _,
   "s f -> whether side feature f is on side s: `side_has` as one instruction (E217)")
OP(SIDE_HAS_K,         0,                CONST, _, _, _,
   "s -> whether side feature k[a] is on side s: `CONST f; SIDE_HAS` in a combined chunk "
   "(combine.c), charging the CONST's step (E217)")
OP(SIDES_ANY_K,        0,                CONST, _, _, _,
   "sq -> whether any of square sq's sides carries side feature k[a]: `CONST f; BOARD "
   "sides_with 2; LEN; INT 0; GT` (`len(sides_with(sq, f)) > 0`) in a combined chunk "
   "(combine.c), charging the five steps, no list made (BOARD's errors, E218)")
OP(TERRAIN,            0,                _, _, _, _,
   "sq -> the terrain of sq: `terrain` as one instruction (E215, E217)")
OP(ELEVATION,          0,                _, _, _, _,
   "sq -> the elevation of sq: `elevation` as one instruction (E217)")
OP(SQUARE_OF,          0,                _, _, _, _,
   "u -> the unit's square: `square_of` as one instruction (E217)")
OP(IN_ELEMENT,         0,                _, _, _, _,
   "sq -> whether sq is in a terrain element: `in_element` as one instruction (E217)")

OP_GROUP("dice and variants")
OP(ROLL,               1,                _, _, _, _,
   "push one d6 (in a procedure, a line `roll d6: F`)")
OP(ROLL_N,             0,                TYPE, _, _, _,
   "n -> list of n d6 sorted ascending, of type a (list<int>); E211 when n is out of range (in a "
   "procedure, a line `roll N d6: [..]`)")
OP(VARIANT,            1,                VARIANT, _, _, _, "push the active reading of variant a")

OP_GROUP("calls")
OP(CALL_FN,            1 - (int)(b),     FN, COUNT, _, _,
   "b args -> result of fn a (E206 too deep)")
OP(CALL_QUERY,         1 - (int)(b),     QUERY, COUNT, _, _,
   "b args -> answer of query a, through the rule driver (E203 no answer, E206 too deep)")
OP(RETURN,             -1,               _, _, _, _, "return the top value (a rule: it answered)")
OP(NO_ANSWER,          0,                _, _, _, _,
   "a rule whose `when` failed: return without answer")
OP(GUARD_SIDES,        0,                CONJ, _, _, _,
   "x y -> x y: record x and y as the two sides of guard operand a (only in a rule's explained "
   "chunk, run while tracing; takes no step)")
OP(GUARD_FAILED,       0,                CONJ, _, _, _,
   "a rule whose `when` failed at guard operand a: record it, return without answer (only in "
   "an explained chunk)")

OP_GROUP("a query's rules in one chunk (its *combined* chunk, run untraced: vm.md §5a)")
OP(RULE_NEXT,          0,                _, _, _, _,
   "a rule did not fire: on to the next rule (NO_ANSWER's step)")
OP(RULE_ACC,           -1,               _, _, _, _,
   "v -> combine a rule's answer into the accumulator (the last two locals) by the query's mode "
   "(RETURN's step); return it when it decides, else skip the RULE_NEXT after it")
OP(RULE_ACC_LAST,      -1,               _, _, _, _,
   "v -> the last rule's answer: as RULE_ACC, then return the combined answer")
OP(RULE_END,           0,                _, _, _, _,
   "the last rule did not fire: return the combined answer, or no answer when none fired")
OP(RULE_ELSE,          0,                _, _, _, _,
   "the last rule did not fire, the query's default copied after it (`first`, `min`, `max`): "
   "return the combined answer when a rule fed it, else go on into the default (RULE_END's step)")

OP(INLINE_ENTER,       -(int)(b),        FN, COUNT, LOCAL, _,
   "b args -> locals c... of this frame: fn a's code follows inline, its locals moved past the "
   "caller's (CALL_FN's step and depth; E206 too deep)")
OP(INLINE_FORWARD,     0,                FN, COUNT, _, _,
   "fn a's code follows inline, reading its b arguments where the caller keeps them (its "
   "locals, constants): INLINE_ENTER without the copies, charging the b steps of the reads it "
   "stands for")
OP(INLINE_LEAVE,       0,                _, _, _, _,
   "the end of an inlined fn's code: its value stays on the stack (RETURN's step and depth)")
OP(LEAVE_JUMP_IF_FALSE, -1,               JUMP, _, _, _,
   "b -> `INLINE_LEAVE; JUMP_IF_FALSE a` in one (combine.c): the inlined fn's end, then its "
   "value tested; their two steps")
OP(JUMP_IF_FIELD_FALSE, 0,                LOCAL, FIELD, JUMP, _,
   "if field b of the record in local a is false, pc += c: `GET_LOCAL_FIELD a b; "
   "JUMP_IF_FALSE c` in one (combine.c), their two steps (E201)")

OP_GROUP("lists built in a loop: `[x in L: cond]`")
OP(LIST_PUSH,          -1,               LOCAL, _, _, _,
   "x -> append x to the list in local a (a filter's or map's own list, grown by doubling in the "
   "arena)")

OP_GROUP("events, effects, the clock (§11); EFFECT, RAISE and CHOOSE only inside a procedure "
         "(E299 otherwise)")
OP(EFFECT,             -(int)(b),        EFFECT, COUNT, SET_SLOT, _,
   "b operands -> apply effect a (`FX_*` of `play.h`) through the effect log; c: the value slot of "
   "`set`; E212, E217, E224, E225")
OP(RAISE,              -(int)(b),        EVENT, COUNT, _, _,
   "b args -> queue event a: it runs after this rule's block (E222 too deep)")
OP(CHOOSE,             -1,               TEXT, _, _, _,
   "L side -> the member of L (a list or a set) the side's chooser picks; a: the question (a "
   "string; ~0 none); E220, E221, E225")
OP(NOTE,               0,                TEXT, _, _, _,
   "write string a as a line of the procedure's output")
OP(FAIL,               0,                TEXT, _, _, _,
   "stop the procedure: E219 with string a and the rule's name; every effect is undone")
OP(REQUIRE,            -(int)(b),        QUERY, COUNT, TEXT, _,
   "b args -> ask query a (a verdict); on forbid stop the procedure: E228 with string c (~0: "
   "none), the call and the rule that forbade it, and every effect is undone")
OP(DONE,               0,                _, _, _, _,
   "an event rule's `do` block ran to its end: the rule fired")
OP(TURN,               1,                _, _, _, _, "push the turn number (from 1)")
OP(PHASE,              1,                _, _, _, _,
   "push the current phase; E226 when no phase is declared")

OP_GROUP("a query's rules copied at its call in a combined chunk (vm.md §5a)")
OP(QUERY_ENTER,        -(int)(b),        QUERY, COUNT, LOCAL, JUMP,
   "b args -> locals c... of this frame: query a's rules follow inline, one call deeper "
   "(CALL_QUERY's step); traced, in a fork of the odds or at the depth limit, query a is asked "
   "as CALL_QUERY asks it, its answer pushed, and pc += d past the rules (E203, E206)")
OP(QUERY_FORWARD,      0,                QUERY, COUNT, JUMP, _,
   "query a's rules follow inline past this pc + c, reading its b arguments where the caller "
   "keeps them (QUERY_ENTER without the copies): charges the b steps of the reads that follow "
   "it, one call deeper; traced, in a fork or at the depth limit, gives its step back and goes "
   "on into those reads and a QUERY_ENTER that asks the query")
OP(QUERY_RULE,         -1,               INT, JUMP, _, _,
   "v -> a rule's answer in an inlined query (RETURN's step): when flags a say it decides (1: "
   "v is true; 0: false; 4: always), v stays as the query's answer, one call up, pc += b; else "
   "on to the next rule, past its no-answer exit (flag 2)")
OP(QUERY_ACC,          -1,               INT, LOCAL, JUMP, _,
   "v -> a rule's answer in an inlined `min` or `max` query (RULE_ACC's step), flags a "
   "(QA_*, combine.h): when v is the enum's least (greatest) member it decides: v stays, one "
   "call up, pc += c; else kept in local b when it is the first or better (b + 1: a rule fed "
   "it); the last rule's leaves the kept answer so; else past its no-answer exit")
OP(QUERY_UNFED,        0,                LOCAL, _, _, _,
   "the first rule of an inlined `min` or `max` query did not fire: no answer kept in local a "
   "yet (NO_ANSWER's step)")
OP(QUERY_ELSE,         0,                LOCAL, JUMP, _, _,
   "the last rule of an inlined `min` or `max` query did not fire: the answer kept in local a, "
   "one call up, pc += b, when a rule fed it; else on into the default copied after "
   "(RULE_ELSE's step)")
OP(QUERY_NEXT,         0,                _, _, _, _,
   "a rule of an inlined query did not fire: on to the next one (NO_ANSWER's step)")
OP(QUERY_NONE,         1,                INT, _, _, _,
   "the last rule of an inlined `any` or `all` query did not fire: push the bool a (the mode's "
   "answer when no rule decided), one call up (RULE_END's step)")

OP_GROUP("board built-ins of their own, added since (answered inline as those of §4a)")
OP(DISTANCE,           -1,               _, _, _, _,
   "a b -> the distance between squares a and b: `distance` as one instruction (E217)")

OP_GROUP("operators whose operands' types the compiler knows (typed_op, compile.c)")
OP(IN_SET,             -1,               _, _, _, _,
   "x S -> whether member x is in set S: IN when S is a set (a bit test, no type asked)")
OP(EQ_S,               -1,               _, _, _, _,
   "x y -> x == y for two scalars, their numbers compared (EQ's step; a `?` cell: EQ's E201)")
OP(NE_S,               -1,               _, _, _, _, "x y -> x != y likewise (NE's step and E201)")

OP_GROUP("a loop's back edge")
OP(FOR_BACK,           0,                LOCAL, LOCAL, LOCAL, JUMP,
   "`JUMP` back to the loop's FOR_NEXT a b c, and that FOR_NEXT, in one: the next item of list "
   "local a into local c and pc += d (the body), or on when done; their two steps")
OP(FOR_BACK_SET,       0,                LOCAL, LOCAL, LOCAL, JUMP,
   "the same for FOR_NEXT_SET's loop over a set")

OP_GROUP("reads kept in a combined chunk (reuse.c, vm.md §5b)")
OP(KEPT,               1,                LOCAL, INT, JUMP, _,
   "when local a holds the value kept (and the run is untraced, and more than b steps are "
   "left in the block): push it, charge the b steps of the code it stands for, pc += c past "
   "that code's KEEP; else go on into the code (no step)")
OP(KEEP,               0,                LOCAL, _, _, _,
   "v -> v, kept in local a too: the value of the code a KEPT stands before (no step)")
OP(UNKEEP,             0,                LOCAL, COUNT, _, _,
   "clear locals a .. a+b-1, the values kept of a copied query's or fn's parameters, which the "
   "entry just before moved in anew (no step)")

OP_GROUP("a loop over a traced line, walked as it goes (walk.h; compile.c, walk_call)")
OP(WALK_START,         -2,               BUILTIN, LOCAL, LOCAL, INT,
   "a b -> the walk of built-in a (`bresenham`) from square a to square b started in locals b "
   "and c (its plan and where it stands): the four steps of the `BOARD`, `SET_LOCAL`, `INT 0`, "
   "`SET_LOCAL` it stands for; the built-in's errors (E212, E217, E218). d: the fields of each "
   "step's record its loop reads (bit i field i; 127 all, as compiled: peep_walk_fields "
   "narrows it in a combined chunk), the only ones made in an untraced run (the square and "
   "the from both when it reads no other)")
OP(WALK_NEXT,          0,                LOCAL, LOCAL, LOCAL, EXIT,
   "FOR_NEXT over a walk: the next step of the walk in locals a and b, its record made now "
   "(in the evaluation's arena), into local c, or pc += d when the walk is at its end")
OP(WALK_BACK,          0,                LOCAL, LOCAL, LOCAL, JUMP,
   "FOR_BACK over a walk: the next step into local c and pc += d (the body), or on when done; "
   "two steps")

OP_GROUP("a `min` or `max` aggregate's step in one instruction (compile.c, aggregate)")
OP(AGG_MIN,            0,                LOCAL, LOCAL, INT, JUMP,
   "v -> the item's value v folded into the least so far (local a; local b: whether it holds "
   "one), then pc += d past the plain code that follows, charging that code's steps, when c is "
   "-1 or the least is not member c (the one that decides); else, or short of steps, or v a "
   "`?` cell, on into that code (no step)")
OP(AGG_MAX,            0,                LOCAL, LOCAL, INT, JUMP,
   "the same for the greatest so far")
OP_GROUP("pairs in one: the first of two instructions that follow each other in a combined "
         "chunk, the second kept after it (peephole.c, vm.md §5c)")
OP(L_TERRAIN,          1,                LOCAL, _, _, _,
   "`GET_LOCAL a; TERRAIN`: push the terrain of the square in local a, past the TERRAIN; their "
   "two steps (else GET_LOCAL's work, and on into the TERRAIN)")
OP(LF_TERRAIN,         1,                LOCAL, FIELD, _, _,
   "`GET_LOCAL_FIELD a b; TERRAIN` likewise (else GET_LOCAL_FIELD's work and E201)")
OP(LF_ELEVATION,       1,                LOCAL, FIELD, _, _,
   "`GET_LOCAL_FIELD a b; ELEVATION` likewise")
OP(L_IN_ELEMENT,       1,                LOCAL, _, _, _,
   "`GET_LOCAL a; IN_ELEMENT` likewise")
OP(LF_SIDE_HAS_K,      1,                LOCAL, FIELD, _, _,
   "`GET_LOCAL_FIELD a b; SIDE_HAS_K k` likewise, k the next instruction's operand; their three "
   "steps")
OP(K_IN_SET,           1,                CONST, _, _, _,
   "`CONST a; IN_SET`: x -> whether member x is in set K[a], past the IN_SET; their two steps "
   "(else CONST's work)")
OP(K_JUMP_IF_EQ_S,     1,                CONST, _, _, _,
   "`CONST a; JUMP_IF_EQ_S j`: x -> pc += j past the jump when x == K[a], scalars; their four "
   "steps (else CONST's work: a `?` cell goes on into the jump, E201)")
OP(K_JUMP_IF_NE_S,     1,                CONST, _, _, _,
   "`CONST a; JUMP_IF_NE_S j` likewise, when x != K[a]")
OP(LF_LF,              1,                LOCAL, FIELD, _, _,
   "`GET_LOCAL_FIELD a b; GET_LOCAL_FIELD c d`: both fields pushed, past the second; their two "
   "steps (else the first's work and E201)")
OP(NONE_JUMP,          1,                INT, _, _, _,
   "`QUERY_NONE a; JUMP_IF_TRUE j` (or `JUMP_IF_FALSE j`): the copy left, pc += j past the jump "
   "when a says so, nothing pushed; their two steps (else QUERY_NONE's work)")
OP(JUMP_LEAVE,         0,                JUMP, _, _, _,
   "`JUMP a` landing on an `INLINE_LEAVE`: the jump and the leave, past it; their two steps (else "
   "the jump alone)")
OP(JUMP_IF_FALSE_NEXT, -1,               JUMP, _, _, _,
   "`JUMP_IF_FALSE a` landing on a `QUERY_NEXT` (no work, one step): when b is false, past it, "
   "its step taken at once")
OP(FWD_KEPT,           0,                FN, COUNT, _, _,
   "`INLINE_FORWARD a b; KEPT c d e`: the fn's code entered (its b steps and depth), then the "
   "kept read when it holds its value, past the code it stands for; their steps (else "
   "INLINE_FORWARD's work, then on into the KEPT's code, or the INLINE_FORWARD alone)")
OP(FWD_FIELD_FALSE,    0,                FN, COUNT, _, _,
   "`INLINE_FORWARD a b; JUMP_IF_FIELD_FALSE c d j` likewise: the fn entered, then its first "
   "test; their steps (else INLINE_FORWARD's work, and on into the test)")
OP(VARIANT_JUMP,       1,                VARIANT, _, _, _,
   "`VARIANT a; CONST k; JUMP_IF_EQ_S j` (or `JUMP_IF_NE_S j`): the reading compared with K[k], "
   "pc += j past the jump when the jump says so, nothing pushed; their five steps (else "
   "VARIANT's work)")
OP(JUMP_IF_FALSE_KEEP_POP, 0,            JUMP, _, _, _,
   "`JUMP_IF_FALSE_KEEP a; POP` (an `and`'s value): b -> b, pc += a when b is false, else "
   "popped, past the POP; their two steps (else the jump alone)")
OP(JUMP_IF_TRUE_KEEP_POP, 0,             JUMP, _, _, _,
   "`JUMP_IF_TRUE_KEEP a; POP` (an `or`'s value) likewise, jumping when b is true")
OP(CALL_QUERY_IN_SET,  1 - (int)(b),     QUERY, COUNT, _, _,
   "`CALL_QUERY a b; IN_SET`: x k -> whether member x is in the set tabled query a answers for "
   "k, from its table's slot (memo.h), past the IN_SET; the steps of both (else CALL_QUERY's "
   "work, and on into the IN_SET)")
OP(FOR_START,          -1,               LOCAL, _, _, _,
   "`SET_LOCAL a; INT n; SET_LOCAL b; FOR_NEXT c d e j`, a loop's start over a list: the four "
   "in one, their four steps (else SET_LOCAL's work)")
OP(LF_SIDE_HAS_K_LEAVE, 1,               LOCAL, FIELD, _, _,
   "`GET_LOCAL_FIELD a b; SIDE_HAS_K k; LEAVE_JUMP_IF_FALSE j`: LF_SIDE_HAS_K, then the inlined "
   "fn's end and pc += j past the jump when the side has no such feature, nothing pushed; "
   "their five steps (else LF_SIDE_HAS_K's work)")
OP(JUMP_IF_TRUE_BACK,  -1,               JUMP, _, _, _,
   "`JUMP_IF_TRUE a; FOR_BACK c d e j`: b -> pc += a when b is true, else the loop's next item "
   "and pc += j past the FOR_BACK; their three steps (else, the loop done or short of steps, "
   "the jump alone)")
OP(CALL_QUERY_IN_SET_LEAVE, 1 - (int)(b), QUERY, COUNT, _, _,
   "`CALL_QUERY a b; IN_SET; LEAVE_JUMP_IF_FALSE j`: CALL_QUERY_IN_SET, then the inlined fn's "
   "end and pc += j past the jump when the member is not in the set, nothing pushed; the steps "
   "of all three (else CALL_QUERY's work)")
OP_GROUP("a board built-in read inline (vm.md §4a)")
OP(UNITS_AT,           0,                RESULT, _, _, _,
   "sq -> the units on sq: `units_at` as one instruction, a list of type a; the empty list "
   "inline when no unit stands there, else `BOARD`'s runner (E217)")
OP_GROUP("more pairs of instructions in one (vm.md §5c)")
OP(K_KEPT,             1,                CONST, _, _, _,
   "`CONST a; KEPT c d e`: K[a] pushed, then the kept read when it holds its value (untraced, "
   "more than its d steps left after the CONST's), past the code it stands for; their steps "
   "(else CONST's work, and on into the KEPT)")
OP(L_L,                1,                LOCAL, _, _, _,
   "`GET_LOCAL a; GET_LOCAL b`: both pushed, past the second; their two steps (else the first's "
   "work)")
OP_GROUP("a kept side tested at once (vm.md §5c, sitting 17)")
OP(KEPT_SIDE_JUMP,     1,                LOCAL, INT, JUMP, _,
   "`KEPT a b c` whose code's end (past its KEEP) is `SIDE_HAS_K k; JUMP_IF_FALSE j` (or "
   "`JUMP_IF_FALSE_NEXT j`): when the kept side is there, its feature tested and pc += j past "
   "the jump when the side has none, nothing pushed; the steps of all three (and the "
   "QUERY_NEXT's); else KEPT's work")
OP(K_KEPT_IN_TABLE,    1,                CONST, _, _, _,
   "`CONST a; KEPT c d e` whose code's end is `CALL_QUERY q 1; IN_SET; LEAVE_JUMP_IF_FALSE j` "
   "(as CALL_QUERY_IN_SET_LEAVE): when the value is kept and the answer of tabled query q for "
   "it is in q's table, whether K[a] is in that set, the inlined fn's end, and pc += j past "
   "the jump when it is not, nothing pushed; the steps of them all (else K_KEPT's work)")
OP(L_LF,               1,                LOCAL, _, _, _,
   "`GET_LOCAL a; GET_LOCAL_FIELD b c`: both pushed, past the second, and when the second is an "
   "`LF_LF` its second field too, past it; their steps (else the first's work)")
OP(QUERY_ELSE_K,       0,                LOCAL, JUMP, _, _,
   "`QUERY_ELSE a j; CONST k; QUERY_RULE h o`, a copy's default a constant answered at once: "
   "when no rule fed the copy and the QUERY_RULE leaves it, K[k] pushed and the copy left, "
   "the depth given back; their three steps (else QUERY_ELSE's work)")
OP_GROUP("a copied query or fn skipped at a bare side or square (vm.md §5c, sitting 18)")
OP(QUERY_ENTER_SIDES,  -(int)(b),        CONST, COUNT, LOCAL, JUMP,
   "QUERY_ENTER whose copy, at a side between two of its arguments that has none of the "
   "features its rules test, answers a constant default (peephole.c skip_walk): K[a] the "
   "query, K[a+1] the features, K[a+2] the copy's steps there and the two arguments, K[a+3] "
   "the default. At such a side (untraced, not forking, under the depth limit, the block "
   "holding the steps): the b args dropped, the default pushed, pc += d past the copy, the "
   "copy's steps taken; else QUERY_ENTER's work")
OP(QUERY_ENTER_SQUARE, -(int)(b),        CONST, COUNT, LOCAL, JUMP,
   "QUERY_ENTER whose copy, at a square of one of its arguments not in an element, or in one "
   "whose terrain's answer from a tabled query has none of the members its rules test, "
   "answers a constant default (peephole.c skip_walk): K[a] the query, K[a+1] the members, "
   "K[a+2] the argument, the table reads and the depths, K[a+3] the tabled query, K[a+4] and "
   "K[a+5] the steps (the table's slot's steps added per read) and answer in an element, "
   "K[a+6] and K[a+7] outside one. There: the b args dropped, the answer pushed, pc += d past "
   "the copy, the steps taken; else QUERY_ENTER's work")
OP(AGG_MIN_BACK,       0,                LOCAL, LOCAL, INT, JUMP,
   "`AGG_MIN a b c d` whose jump lands on a `FOR_BACK`: AGG_MIN's work, then, when it goes on "
   "past its code, the FOR_BACK's, their steps in one test of the block (else AGG_MIN's work "
   "alone)")
OP(AGG_MAX_BACK,       0,                LOCAL, LOCAL, INT, JUMP,
   "the same for AGG_MAX")
OP(L_DISTANCE,         0,                LOCAL, _, _, _,
   "`GET_LOCAL a; DISTANCE`: sq -> distance(sq, local a), past the DISTANCE, their two steps, "
   "when both squares are on a square board; else GET_LOCAL's work (and the DISTANCE as ever)")
OP(L_GT,               0,                LOCAL, _, _, _,
   "`GET_LOCAL a; GT`: x -> x > local a, past the GT, their two steps (else GET_LOCAL's work)")
OP(INLINE_ENTER_EMPTY, -(int)(b),        CONST, COUNT, LOCAL, _,
   "INLINE_ENTER whose fn's code, at a square of one of its arguments where no unit stands, "
   "gives a constant (peephole.c skip_walk: `any(u in units_at(sq): ...)`): K[a] the fn, K[a+1] "
   "the argument, the deepest depth and where the fn's code ends, K[a+2] its steps, K[a+3] the "
   "value. At such a square (untraced, not forking, under the depth limit, the block holding "
   "the steps): the b args dropped, the value pushed, past the fn's code, its steps taken; "
   "else INLINE_ENTER's work")

/* clang-format on */

#undef OP
#undef OP_GROUP
#undef OPERAND
