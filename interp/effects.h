/* effects.h — THE list of effects, the changes a procedure makes to the game (language.md §6.3,
 * vm.md §11): EFFECT(NAME, "name", fewest, most, "operands", "statement", "doc").
 *
 * Included (without guard) by play.h (the play_fx enum FX_NAME, in this order: OP_EFFECT's
 * operand a), play.c (the names, for listings and lines), compile.c (the operands an effect
 * takes from the stack: `fewest`, and `most` when the statement gives its optional last one)
 * and tests/docs/doc_tables.c (vm.md §11's table); define EFFECT before including, it is
 * undefined at the end. `statement` is the statement that applies it, written with operands
 * named as tests/interp/test_vocab.c declares them (it compiles each and finds this effect),
 * or NULL for the clock's move, which `next` makes. proc.c applies them, play.c records and
 * undoes them, outcome.c sums them up. An effect whose operands start with `unit` acts on a
 * unit: proc.c checks that unit first (play_fx_on_unit).
 */
#ifndef EFFECT
#define EFFECT(name, text, fewest, most, operands, statement, doc)
#endif

/* clang-format off */

EFFECT(GIVE,          "give",             3, 3, "unit marker count", "give u m n;",
       "adds n markers m to unit u")
EFFECT(TAKE,          "take",             3, 3, "unit marker count", "take u m n;",
       "removes n markers m from unit u, never below zero")
EFFECT(TAKE_ALL,      "take all",         2, 2, "unit marker",       "take u m all;",
       "removes every marker m from unit u")
EFFECT(FLIP_UNIT,     "flip",             2, 2, "unit face",         "flip u to f;",
       "unit u shows face f")
EFFECT(FLIP_ELEMENT,  "flip element",     2, 2, "element face",      "flip el to f;",
       "terrain element el shows face f")
EFFECT(SET,           "set",              2, 2, "unit value",        "set u.hp = n;",
       "unit u's value (the slot is OP_EFFECT's operand c) becomes n")
EFFECT(DESTROY,       "destroy",          1, 1, "unit",              "destroy u;",
       "unit u leaves the board")
EFFECT(MOVE,          "move",             2, 3, "unit square [square]", "move u to sq, sq2;",
       "unit u stands on sq (a 2-square unit on sq and sq2), out of any carrier")
EFFECT(EMBARK,        "embark",           2, 2, "unit carrier",      "embark u in t;",
       "unit u is carried by unit t")
EFFECT(DISEMBARK,     "disembark",        2, 3, "unit square [square]", "disembark u to sq, sq2;",
       "embarked unit u stands on sq (a 2-square unit on sq and sq2)")
EFFECT(PLACE_SQUARE,  "place at square",  2, 2, "square_feature square", "place sf at sq;",
       "square feature sf is put on square sq")
EFFECT(PLACE_SIDE,    "place at side",    2, 2, "side_feature square_side", "place df at s;",
       "side feature df is put on side s")
EFFECT(REMOVE_SQUARE, "remove at square", 2, 2, "square_feature square", "remove sf at sq;",
       "square feature sf is taken off square sq")
EFFECT(REMOVE_SIDE,   "remove at side",   2, 2, "side_feature square_side", "remove df at s;",
       "side feature df is taken off side s")
EFFECT(REMOVE_NEAR,   "remove near",      2, 2, "interspace_item square", "remove i near sq;",
       "interspace item i is taken off the four corners of square sq")
EFFECT(CLOCK,         "next phase",       0, 0, "",                  NULL,
       "the clock moves to the next phase (a new turn after the last one): `next`")
EFFECT(REMOVE_ELEMENT, "remove element",  2, 2, "element square",    "remove el at sq;",
       "square sq leaves terrain element el (a haystack discarded): no element is there now")
EFFECT(GIVE_ELEMENT,  "give element",     3, 3, "element marker count", "give el m n;",
       "adds n markers m to terrain element el (a building's Destruction markers)")
EFFECT(TAKE_ELEMENT,  "take element",     3, 3, "element marker count", "take el m n;",
       "removes n markers m from terrain element el, never below zero")
EFFECT(TAKE_ALL_ELEMENT, "take all element", 2, 2, "element marker", "take el m all;",
       "removes every marker m from terrain element el")
EFFECT(PLACE_TERRAIN, "place terrain",    2, 3, "terrain square [count]", "place tr at sq value n;",
       "square sq leaves its element for a new one of terrain tr (its value n, else 0)")
EFFECT(PLACE_INTERSPACE, "place at interspace", 2, 3, "interspace_item square [count]",
       "place i at sq value n;",
       "interspace item i (its value n, else 0) is put on the NW corner of square sq")

/* clang-format on */

#undef EFFECT
