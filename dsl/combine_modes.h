/* combine_modes.h — THE list of the ways a query combines its rules' answers (language.md §3.5):
 * COMBINE(NAME, "name", NEED, NO_RULE, "doc"), and the result types a mode may need,
 * COMBINE_NEED(NEED, "doc").
 *
 * Included (without guard) by ast.h (the AST_COMBINE_* of ast_op, in this order), ast.c (names,
 * look-up by name for the parser), body.c (the E113 and E114 checks) and tests/docs/
 * doc_tables.c (language.md's table); define what you use before including, the rest is
 * ignored; both macros are undefined at the end. NO_RULE is what a mode that takes no
 * `default` answers when no rule fires, NULL for the modes that take one. How each mode runs
 * is the query driver's (interp/vm.c, call_query); the grammar spells each name as a keyword
 * (parser.y, combine_word), tested against this list (tests/dsl/test_parser.c).
 */
#ifndef COMBINE
#define COMBINE(name, text, need, no_rule, doc)
#endif
#ifndef COMBINE_NEED
#define COMBINE_NEED(need, doc)
#endif

/* clang-format off */

COMBINE_NEED(ANY_TYPE,    "any")
COMBINE_NEED(INT,         "`int`")
COMBINE_NEED(INT_OR_ENUM, "`int` or an enum")
COMBINE_NEED(BOOL,        "`bool`")
COMBINE_NEED(VERDICT,     "`verdict`")

COMBINE(FIRST,      "first",      ANY_TYPE,    NULL,
        "the answer of the first rule (in rule order) whose `when` holds; `default` if none; "
        "E203 if none and no default")
COMBINE(SUM,        "sum",        INT,         NULL,
        "`default` (0 if omitted) plus every firing rule's answer")
COMBINE(MIN,        "min",        INT_OR_ENUM, NULL,
        "the least firing answer (members of an enum in declaration order); `default` if none "
        "fire (E203 if no default)")
COMBINE(MAX,        "max",        INT_OR_ENUM, NULL,
        "the greatest firing answer (members of an enum in declaration order); `default` if "
        "none fire (E203 if no default)")
COMBINE(ALL,        "all",        BOOL,        "true",
        "`true` unless a firing rule answers `false`")
COMBINE(ANY,        "any",        BOOL,        "false",
        "`true` if a firing rule answers `true`")
COMBINE(PERMISSION, "permission", VERDICT,     "permit",
        "`permit` if no firing rule answers `forbid`, or if some firing rule answers `permit` "
        "(an explicit exception); else `forbid`")

/* clang-format on */

#undef COMBINE
#undef COMBINE_NEED
