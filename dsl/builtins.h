/* builtins.h — THE list of built-in functions (language.md §5.3), one entry each:
 *   BUILTIN_OP(ID, "name", OPCODE, P1, P2, P3, RESULT, "params", "doc")
 *       compiled to the instruction OP_OPCODE (interp/opcodes.h), which takes the arguments
 *       from the stack and has no operand;
 *   BUILTIN_BOARD(ID, "name", BODY, P1, P2, P3, RESULT, "params", "doc")
 *       compiled to OP_BOARD with its id; the VM checks the square, element and side arguments
 *       against the board, then runs the C function BODY of interp/builtin.c,
 *       `static bool BODY(vm_ctx *x, const val *args, board_at at, val *out)` (`at`: the
 *       board indexes of those arguments); interp/compile.c gives four lookups (side_between,
 *       side_has, terrain, in_element) instructions of their own that answer as BODY does;
 * and the codes of their parameter and result types, BTYPE(CODE, "type", own).
 *
 * Included (without guard) by model.h (res_builtin: RES_BI_ID, in this order, which is the
 * `BOARD a` of listings), dsl/builtin.c (names, arity, typing), interp/compile.c (what a call
 * compiles to), interp/builtin.c (the bodies and their dispatch table) and tests/docs/
 * doc_tables.c (language.md §5.3's table); define the macros you use before including (the
 * others are ignored), all three are undefined at the end. P1..P3 are the parameters' codes
 * (NONE for none; the arity is how many are not NONE), "params" their names for the docs.
 * An `own` code (T, LIST_T, COLL_T, ABILITY_OR_MARKER, VALUE_NAME) marks a built-in whose call the resolver
 * types by its own code (dsl/builtin.c, builtin_call); the others are checked from the codes.
 * `has` is two entries, one per opcode: the resolver picks by the type of its argument.
 *
 * Adding a board built-in: one BUILTIN_BOARD entry here, one BODY in interp/builtin.c.
 */
#ifndef BUILTIN_OP
#define BUILTIN_OP(id, name, opcode, p1, p2, p3, result, params, doc)
#endif
#ifndef BUILTIN_BOARD
#define BUILTIN_BOARD(id, name, body, p1, p2, p3, result, params, doc)
#endif
#ifndef BTYPE
#define BTYPE(code, text, own)
#endif

/* clang-format off */

BTYPE(NONE,              "",                      false)
BTYPE(INT,               "int",                   false)
BTYPE(BOOL,              "bool",                  false)
BTYPE(UNIT,              "unit",                  false)
BTYPE(SQUARE,            "square",                false)
BTYPE(SIDE,              "square_side",           false)
BTYPE(ELEMENT,           "element",               false)
BTYPE(TERRAIN,           "terrain",               false)
BTYPE(SQUARE_FEATURE,    "square_feature",        false)
BTYPE(SIDE_FEATURE,      "side_feature",          false)
BTYPE(ITEM,              "interspace_item",       false)
BTYPE(DIRECTION,         "direction",             false)
BTYPE(ABILITY,           "ability",               false)
BTYPE(MARKER,            "marker",                false)
BTYPE(FACE,              "face",                  false)
BTYPE(PHASE,             "phase",                 false)
BTYPE(STEPS,             "list<step>",            false)
BTYPE(SQUARES,           "list<square>",          false)
BTYPE(UNITS,             "list<unit>",            false)
BTYPE(SIDES,             "list<square_side>",     false)
BTYPE(ITEMS,             "list<interspace_item>", false)
BTYPE(T,                 "T",                     true)
BTYPE(LIST_T,            "list<T>",               true)
BTYPE(COLL_T,            "list<T> or set<T>",     true)
BTYPE(ABILITY_OR_MARKER, "ability or marker",     true)
BTYPE(VALUE_NAME,        "value name",            true)

/* generic, compiled to instructions */
BUILTIN_OP(MIN, "min", MIN, T, T, NONE, T, "a, b",
    "the smaller of two ints, or of two members of one enum (the one declared first)")
BUILTIN_OP(MAX, "max", MAX, T, T, NONE, T, "a, b",
    "the larger of two ints, or of two members of one enum (the one declared last)")
BUILTIN_OP(ABS, "abs", ABS, INT, NONE, NONE, INT, "x",
    "the absolute value of x")
BUILTIN_OP(LEN, "len", LEN, COLL_T, NONE, NONE, INT, "c",
    "how many items list c has, or members set c")
BUILTIN_OP(HAS_ABILITY, "has", HAS_ABILITY, UNIT, ABILITY_OR_MARKER, NONE, BOOL, "u, x",
    "whether unit u has ability x, or marker x (a bare name that is both is E105: write "
    "`ability.x` or `marker.x`)")
BUILTIN_OP(HAS_MARKER, "has", HAS_MARKER, UNIT, ABILITY_OR_MARKER, NONE, BOOL, "u, x",
    "`has` with a marker")
BUILTIN_OP(ABILITY_VALUE, "ability_value", ABILITY_VALUE, UNIT, ABILITY, NONE, INT, "u, a",
    "the number ability a of unit u carries; 0 when u lacks it")
BUILTIN_OP(MARKER_COUNT, "marker_count", MARKER_COUNT, UNIT, MARKER, NONE, INT, "u, m",
    "how many markers m unit u has")

/* the board (language.md §5) */
BUILTIN_BOARD(SQUARE_OF, "square_of", builtin_square_of, UNIT, NONE, NONE, SQUARE, "u",
    "the unit's square: the front square of a 2-square unit, its transport's square for an "
    "embarked unit; E217 when the unit is not on the board")
BUILTIN_BOARD(SQUARES_OF, "squares_of", builtin_squares_of, UNIT, NONE, NONE, SQUARES, "u",
    "its one or two squares (front first); `[]` when it is not on the board")
BUILTIN_BOARD(ON_BOARD, "on_board", builtin_on_board, UNIT, NONE, NONE, BOOL, "u",
    "whether unit u is on the board, placed or embarked (false with no board loaded: a "
    "counter is never on it)")
BUILTIN_BOARD(EMBARKED, "embarked", builtin_embarked, UNIT, NONE, NONE, BOOL, "u",
    "whether unit u is embarked in a transport")
BUILTIN_BOARD(CARRIER, "carrier", builtin_carrier, UNIT, NONE, NONE, UNIT, "u",
    "the transport u is embarked in (E214 when it is not embarked)")
BUILTIN_BOARD(UNITS_AT, "units_at", builtin_units_at, SQUARE, NONE, NONE, UNITS, "sq",
    "the units placed on sq, in placement order (embarked units are not placed)")
BUILTIN_BOARD(ELEVATION, "elevation", builtin_elevation, SQUARE, NONE, NONE, INT, "sq",
    "the elevation of sq")
BUILTIN_BOARD(TERRAIN, "terrain", builtin_terrain, SQUARE, NONE, NONE, TERRAIN, "sq",
    "the terrain sq shows: the terrain its element's face declares it shows (`face F \"doc\" "
    "shows T`, §6.1), else the board's (E215 when the square has none: a legend symbol `= none`)")
BUILTIN_BOARD(ELEMENT_AT, "element_at", builtin_element_at, SQUARE, NONE, NONE, ELEMENT, "sq",
    "the terrain element sq is in (E215 when none)")
BUILTIN_BOARD(IN_ELEMENT, "in_element", builtin_in_element, SQUARE, NONE, NONE, BOOL, "sq",
    "whether sq is in a terrain element")
BUILTIN_BOARD(ELEMENT_TERRAIN, "element_terrain", builtin_element_terrain, ELEMENT, NONE, NONE,
    TERRAIN, "e",
    "the terrain of element e on the board, whichever face it shows")
BUILTIN_BOARD(ELEMENT_VALUE, "element_value", builtin_element_value, ELEMENT, NONE, NONE, INT,
    "e",
    "the element's `value` in the scenario; E215 when it gives none (board.md §4)")
BUILTIN_BOARD(ELEMENT_FACING, "element_facing", builtin_element_facing, ELEMENT, NONE, NONE,
    DIRECTION, "e",
    "the element's `facing` (E215 when it has none)")
BUILTIN_BOARD(ELEMENT_SQUARES, "element_squares", builtin_element_squares, ELEMENT, NONE, NONE,
    SQUARES, "e",
    "the element's squares, in square order (row by row)")
BUILTIN_BOARD(CORNER_SQUARE, "corner_square", builtin_corner_square, SQUARE, NONE, NONE, BOOL,
    "sq",
    "whether sq is a corner square of its element (it has both a horizontal and a vertical "
    "neighbour outside the element); false outside any element")
BUILTIN_BOARD(HAS_FEATURE, "has_feature", builtin_has_feature, SQUARE, SQUARE_FEATURE, NONE,
    BOOL, "sq, f",
    "whether square feature f is on sq")
BUILTIN_BOARD(FEATURE_VALUE, "feature_value", builtin_feature_value, SQUARE, SQUARE_FEATURE,
    NONE, INT, "sq, f",
    "the value of square feature f on sq (E215 when absent)")
BUILTIN_BOARD(SIDE_BETWEEN, "side_between", builtin_side_between, SQUARE, SQUARE, NONE, SIDE,
    "a, b",
    "the side squares a and b share (E216 when they do not share one)")
BUILTIN_BOARD(SIDE_HAS, "side_has", builtin_side_has, SIDE, SIDE_FEATURE, NONE, BOOL, "s, f",
    "whether side feature f is on side s")
BUILTIN_BOARD(SIDE_VALUE, "side_value", builtin_side_value, SIDE, SIDE_FEATURE, NONE, INT,
    "s, f",
    "the value of side feature f on s (E215 when absent)")
BUILTIN_BOARD(SIDE_FACING, "side_facing", builtin_side_facing, SIDE, SIDE_FEATURE, NONE, SQUARE,
    "s, f",
    "the square side feature f on s faces (E215 when absent or facing nothing)")
BUILTIN_BOARD(SIDES_OF, "sides_of", builtin_sides_of, SQUARE, NONE, NONE, SIDES, "sq",
    "the sides of sq: N, E, S, W (E218 on a hex board)")
BUILTIN_BOARD(SIDE_SQUARES, "side_squares", builtin_side_squares, SIDE, NONE, NONE, SQUARES, "s",
    "the one or two squares of side s")
BUILTIN_BOARD(ITEMS_NEAR, "items_near", builtin_items_near, SQUARE, NONE, NONE, ITEMS, "sq",
    "the interspace items on the 4 interspaces (corners) of sq, NW NE SE SW, with repeats "
    "(E218 on a hex board)")
BUILTIN_BOARD(ITEM_VALUE_NEAR, "item_value_near", builtin_item_value_near, SQUARE, ITEM, NONE,
    INT, "sq, i",
    "the sum of the values of item i on those 4 interspaces")
BUILTIN_BOARD(DISTANCE, "distance", builtin_distance, SQUARE, SQUARE, NONE, INT, "a, b",
    "the distance in squares (Chebyshev: a diagonal step is one square)")
BUILTIN_BOARD(ADJACENT, "adjacent", builtin_adjacent, SQUARE, SQUARE, NONE, BOOL, "a, b",
    "whether a and b are at distance 1")
BUILTIN_BOARD(NEIGHBOURS, "neighbours", builtin_neighbours, SQUARE, NONE, NONE, SQUARES, "sq",
    "the 8 squares around sq on the board, in the order N NE E SE S SW W NW")
BUILTIN_BOARD(LINE, "line", builtin_line, SQUARE, SQUARE, NONE, STEPS, "a, b",
    "the squares a straight line from the centre of a to the centre of b passes through, a "
    "excluded, b included, in order (`board.md` §3: exact supercover); `step` below")
BUILTIN_BOARD(LINE_MEETING, "line_meeting", builtin_line_meeting, SQUARE, SQUARE, SIDE_FEATURE,
    STEPS, "a, b, f",
    "the steps of `line(a, b)` that meet side feature f, in order: the side a step crosses "
    "carries f, or at a corner touch one of the four sides meeting at that corner does (the "
    "same step records; what a crossing does is the rules' question)")
BUILTIN_BOARD(BRESENHAM, "bresenham", builtin_bresenham, SQUARE, SQUARE, NONE, STEPS, "a, b",
    "the steps of the classic Bresenham walk from a to b (used by the reference benchmark)")
BUILTIN_BOARD(SIDE_OF_LINE, "side_of_line", builtin_side_of_line, SQUARE, SQUARE, SQUARE, INT,
    "a, b, sq",
    "+1 when sq is right of the line from a to b, -1 left, 0 on it (walking from a to b, as "
    "printed)")

/* language.md §6: faces and units in play, directions and areas */
BUILTIN_BOARD(FACE, "face", builtin_face, UNIT, NONE, NONE, FACE, "u",
    "the face unit u shows")
BUILTIN_BOARD(ELEMENT_FACE, "element_face", builtin_element_face, ELEMENT, NONE, NONE, FACE, "e",
    "the face terrain element e shows")
BUILTIN_BOARD(UNITS, "units", builtin_units, NONE, NONE, NONE, UNITS, "",
    "every unit on the board, placed or embarked, in pool order")
BUILTIN_BOARD(ALL_UNITS, "all_units", builtin_all_units, NONE, NONE, NONE, UNITS, "",
    "every unit the scenario declares, on the board or not (`off`: reinforcements, aircraft; "
    "Destroyed), in pool order")
BUILTIN_BOARD(PASSENGERS, "passengers", builtin_passengers, UNIT, NONE, NONE, UNITS, "t",
    "the units embarked in t")
BUILTIN_BOARD(DIRECTION, "direction", builtin_direction, SQUARE, SQUARE, NONE, DIRECTION,
    "a, b",
    "the compass direction from a to b (below); E215 when a == b, E218 between hexes that are "
    "not neighbours")
BUILTIN_BOARD(SQUARES_WITHIN, "squares_within", builtin_squares_within, SQUARE, INT, NONE,
    SQUARES, "sq, n",
    "every square of the board within `distance` n of sq (sq itself included), in square "
    "order (row by row, A1 first); `[]` for n < 0")
BUILTIN_BOARD(JOINED_SIDES, "joined_sides", builtin_joined_sides, SIDES, SIDE_FEATURE, NONE,
    SIDES, "ss, f",
    "the sides carrying side feature f joined end to end, through sides carrying f, to a side "
    "of ss that carries it: the whole run of each such side, each run once, in the order of ss "
    "(`board.md` §3); sides of ss without f add nothing")

/* terrain elements' and numbered mine counters' named values, elements' markers (board.md §2) */
BUILTIN_BOARD(ELEMENT_NUMBER, "element_number", builtin_element_number, ELEMENT, VALUE_NAME, NONE,
    INT, "e, v",
    "the element's value v (a name declared with `value`, given on its `element` line as "
    "`values v=N`), 0 when it has none")
BUILTIN_BOARD(MINE_COUNTER_HAS, "mine_counter_has", builtin_mine_counter_has, INT, VALUE_NAME,
    NONE, BOOL, "n, v",
    "whether the scenario's `mine_counter n` line gives value v (a name declared with "
    "`value`); false with no board loaded")
BUILTIN_BOARD(MINE_COUNTER_VALUE, "mine_counter_value", builtin_mine_counter_value, INT,
    VALUE_NAME, NONE, INT, "n, v",
    "the value v the scenario's `mine_counter n` line gives (1 for a name without `=N`), 0 "
    "when it gives none or no board is loaded")
BUILTIN_BOARD(ELEMENT_MARKERS, "element_markers", builtin_element_markers, ELEMENT, MARKER, NONE,
    INT, "e, m",
    "how many markers m element e carries (a building's Destruction markers...)")

/* templates on interspaces (board.md §3): the geometry; which template reaches how far is .hon */
BUILTIN_BOARD(TEMPLATE_SQUARES, "template_squares", builtin_template_squares, SQUARE, DIRECTION,
    INT, SQUARES, "sq, d, n",
    "the squares a template centred on corner d (northwest, northeast, southeast or southwest) "
    "of sq covers when it reaches n squares out: the 2n x 2n squares around that interspace "
    "on the board, in square order; `[]` for n < 1; E218 on a hex board or for another d")
BUILTIN_BOARD(UNITS_ON, "units_on", builtin_units_on, SQUARES, NONE, NONE, UNITS, "l",
    "the units placed on the squares of l (a 2-square unit once), in pool order; embarked "
    "units are not placed")
BUILTIN_BOARD(SAME_COUNTER, "same_counter", builtin_same_counter, UNIT, UNIT, NONE, BOOL, "a, b",
    "whether units a and b are copies of one counter, the same name printed on both (a "
    "scenario's two `a_mortar` units; a counter and its copies); needs no board")
BUILTIN_BOARD(GIVES_VALUE, "gives_value", builtin_gives_value, UNIT, VALUE_NAME, NONE, BOOL,
    "u, v",
    "whether unit u has value v (a name declared with `value`): its counter gives it, or a rule "
    "has set it; reading `u.v` without it is E204")

/* a side feature around a square, and two sides on one run of it (board.md §3): the geometry of
 * red contour lines asked side by side; which feature makes one is the rules' choice */
BUILTIN_BOARD(SIDES_WITH, "sides_with", builtin_sides_with, SQUARE, SIDE_FEATURE, NONE, SIDES,
    "sq, f",
    "the sides of sq that carry side feature f, in the order of `sides_of` (N, E, S, W; E218 on "
    "a hex board)")
BUILTIN_BOARD(SIDES_JOINED, "sides_joined", builtin_sides_joined, SIDE, SIDE, SIDE_FEATURE, BOOL,
    "a, b, f",
    "whether sides a and b both carry side feature f and lie on one run of it, joined end to "
    "end through sides carrying f as `joined_sides` follows them (a side carrying f is joined "
    "to itself): `b in joined_sides([a], f)` without the list")

/* the game clock, and lists (compiled to instructions) */
BUILTIN_OP(TURN, "turn", TURN, NONE, NONE, NONE, INT, "",
    "the turn, from 1")
BUILTIN_OP(PHASE, "phase", PHASE, NONE, NONE, NONE, PHASE, "",
    "the current phase (E226 when no phase is declared)")
BUILTIN_OP(NTH, "nth", NTH, LIST_T, INT, NONE, T, "l, i",
    "the i-th item of list l, from 1 (E227 outside 1..len(l))")

/* clang-format on */

#undef BUILTIN_OP
#undef BUILTIN_BOARD
#undef BTYPE
