/* test_parser.c — Check unit tests of the bison grammar (dsl/grammar/parser.y) via ast_dump.
 *
 * One snippet per declaration form of language.md §3 and per expression form of §4, each with
 * the S-expression the AST must have (format: dsl/ast.c). Precedence and associativity
 * expectations follow the table of §4; error cases check codes and recovery.
 */
#include "check_run.h"
#include "dsl_test.h"
#include "mem.h"

/* ---------------------------------------------------------------- declarations */

START_TEST(vocab)
{
    ck_assert_dump(dump_file, "kind infantry \"Infantry unit\";",
                   "(kind infantry \"Infantry unit\")");
    ck_assert_dump(dump_file, "side allies;", "(side allies)");
    ck_assert_dump(dump_file, "ability anti_aircraft: int \"AA +N\";",
                   "(ability anti_aircraft int \"AA +N\")");
    ck_assert_dump(dump_file, "marker suppressed;", "(marker suppressed)");
    ck_assert_dump(dump_file, "token numbered: int;", "(token numbered int)");
    ck_assert_dump(dump_file, "value defense \"Defense value\";",
                   "(value defense \"Defense value\")");
    ck_assert_dump(dump_file, "kind k \"a \\\"b\\\" c\\\\d\";", "(kind k \"a \\\"b\\\" c\\\\d\")");
}
END_TEST

START_TEST(enum_and_record)
{
    ck_assert_dump(dump_file, "enum weather { storm, clear }", "(enum weather storm clear)");
    /* a record field may be named by a keyword (`kind`) */
    ck_assert_dump(dump_file, "record order { kind: token, number: int }",
                   "(record-decl order (kind token) (number int))");
}
END_TEST

START_TEST(counter)
{
    ck_assert_dump(
        dump_file,
        "counter sherman \"M4 Sherman\" : heavy_vehicle {\n  side allies\n  size 2\n  defense -1\n"
        "  ok true\n  rank level.A\n"
        "  abilities { machine_gunner, anti_aircraft 1 }\n  markers { }\n}\n",
        "(counter sherman \"M4 Sherman\" heavy_vehicle (side allies) (size 2) (defense -1) "
        "(ok true) (rank (. level A)) (abilities (machine_gunner) (anti_aircraft 1)) (markers))");
    ck_assert_dump(dump_file, "counter c : infantry { }", "(counter c infantry)");
}
END_TEST

START_TEST(tables)
{
    ck_assert_dump(
        dump_file,
        "table solitaire_air(weather: weather) -> (interdiction: level, armed_recon: int)\n"
        "  cite \"BFN.solitaire.air-table\" source \"BFN, Solitaire Air Table\"\n{\n"
        "  storm  => E, 0;\n  cloudy => B, ?;\n"
        "  clear  => A, 20 cite \"EX.BFN.air-table\" example \"b\";\n}\n",
        "(table solitaire_air (keys (weather weather)) (columns (interdiction level) "
        "(armed_recon int)) (cite \"BFN.solitaire.air-table\" source \"BFN, Solitaire Air Table\") "
        "(row (keys storm) (cells E 0)) (row (keys cloudy) (cells B ?)) "
        "(row (keys clear) (cells A 20) (cite \"EX.BFN.air-table\" example \"b\")))");
    ck_assert_dump(dump_file, "table ie(level: level, map: map) -> int { A, map_a => -1; }",
                   "(table ie (keys (level level) (map map)) (result int) "
                   "(row (keys A map_a) (cells -1)))");
    ck_assert_dump(dump_file,
                   "table alm(losses: int floor) -> (cancels: set<map>, n: list<int>) "
                   "{ 10 => {map_a}, [1, 2]; }",
                   "(table alm (keys (losses int floor)) (columns (cancels (set-of map)) "
                   "(n (list-of int))) (row (keys 10) (cells (set map_a) (list 1 2))))");
    ck_assert_dump(dump_file, "table t(k: kind) -> side { }",
                   "(table t (keys (k kind)) (result side))");
}
END_TEST

START_TEST(table_fields)
{
    parsed *p =
        parse_text("table t(a: int) -> (x: int) { 1 => 2; }\ntable u(a: int) -> int { }", false);
    ck_assert_uint_eq(p->diags.errors, 0);
    ck_assert_uint_eq(p->f->decls.len, 2);
    const ast_node *t = p->f->decls.items[0], *u = p->f->decls.items[1];
    ck_assert_ptr_null(t->a);
    ck_assert_uint_eq(t->list2.len, 1);
    ck_assert_uint_eq(t->list.len, 1);
    ck_assert_int_eq(t->list.items[0]->kind, AST_ROW);
    ck_assert_ptr_nonnull(u->a);
    ck_assert_uint_eq(u->list2.len, 0);
    /* a declaration's location is its name */
    ck_assert_uint_eq(t->loc.line, 1);
    ck_assert_uint_eq(t->loc.col, 7);
    ck_assert_uint_eq(t->loc.end_col, 7);
    parsed_free(p);
}
END_TEST

START_TEST(functions_and_queries)
{
    ck_assert_dump(
        dump_file, "fn numbered(n: int) -> order = order{kind: numbered, number: n};",
        "(fn numbered (params (n int)) order (record order (kind numbered) (number n)))");
    ck_assert_dump(dump_file, "fn two() -> int = 2;", "(fn two (params) int 2)");
    ck_assert_dump(
        dump_file,
        "query speed_penalty(shooter: order, last: int) -> int combine first doc \"D\" default 0;",
        "(query speed_penalty (params (shooter order) (last int)) int first (doc \"D\") (default "
        "0))");
    ck_assert_dump(dump_file, "query can_enter(u: unit) -> verdict combine permission;",
                   "(query can_enter (params (u unit)) verdict permission)");
    ck_assert_dump(
        dump_file,
        "query a() -> int combine sum; query b() -> int combine min; query c() -> int combine "
        "max;\nquery d() -> bool combine all; query e() -> bool combine any;",
        "(query a (params) int sum)\n(query b (params) int min)\n(query c (params) int max)\n"
        "(query d (params) bool all)\n(query e (params) bool any)");
    ck_assert_dump(dump_file, "query s(x: set<side>) -> list<kind> combine first;",
                   "(query s (params (x (set-of side))) (list-of kind) first)");
}
END_TEST

/* Every combination mode of the list (dsl/combine_modes.h) is a word the grammar takes after
 * `combine`, and gives that mode. */
START_TEST(every_combine_mode)
{
    static const struct {
        const char *name;
        ast_op op;
    } modes[] = {
#define COMBINE(name, text, need, no_rule, doc) { text, AST_COMBINE_##name },
#include "combine_modes.h"
    };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "query q() -> int combine %s;", modes[i].name);
        parsed *p = parse_text(text, false);
        ck_assert_msg(p->diags.errors == 0 && p->f->decls.len == 1, "%s: not parsed", text);
        ck_assert_int_eq(p->f->decls.items[0]->op, modes[i].op);
        ck_assert_str_eq(ast_combine_name(modes[i].op), modes[i].name);
        parsed_free(p);
    }
    ck_assert_int_eq(ast_combine_find("average"), AST_OP_NONE);
}
END_TEST

START_TEST(rules)
{
    ck_assert_dump(dump_file,
                   "rule speed_penalty.opportunity_fire priority -2\n"
                   "  cite \"A\" source \"S\" example \"E\"\n  cite \"B\"\n"
                   "  doc \"D\"\n  let a = 1;\n"
                   "  let b = a + 1;\n  when shooter.kind == opportunity\n  answer b;",
                   "(rule speed_penalty.opportunity_fire (priority -2) (cite \"A\" source \"S\" "
                   "example \"E\") (cite \"B\") (doc \"D\") (let a 1) (let b (+ a 1)) "
                   "(when (== (. shooter kind) opportunity)) (answer b))");
    ck_assert_dump(dump_file, "rule q.r cite \"X\" answer forbid;",
                   "(rule q.r (cite \"X\") (answer forbid))");
}
END_TEST

START_TEST(rule_fields)
{
    parsed *p = parse_text("rule los.contour priority 3 cite \"X\" answer permit;", false);
    ck_assert_uint_eq(p->diags.errors, 0);
    const ast_node *r = p->f->decls.items[0];
    ck_assert_int_eq(r->kind, AST_RULE);
    ck_assert_str_eq(r->name, "los.contour");
    ck_assert_str_eq(r->ref, "los");
    ck_assert_str_eq(r->name2, "contour");
    ck_assert_int_eq(r->ival, 3);
    ck_assert_int_eq(r->op, AST_EDIT_ADD);
    ck_assert_ptr_null(r->a);
    ck_assert_int_eq(r->b->kind, AST_PERMIT);
    /* the rule's location spans `los.contour` */
    ck_assert_uint_eq(r->loc.col, 6);
    ck_assert_uint_eq(r->loc.end_col, 16);
    parsed_free(p);
}
END_TEST

START_TEST(events_and_statements)
{
    /* language.md §6: an event with its moment; a rule with a `do` block holding every kind
     * of statement (the dump writes each as (KIND operands...)); a test that plays */
    ck_assert_dump(dump_file, "event hit(u: unit, n: int) on enter \"doc\";",
                   "(event hit (params (u unit) (n int)) (on enter) \"doc\")");
    ck_assert_dump(
        dump_file,
        "rule hit.r cite \"X\" when n > 0 do {\n"
        "  give u suppressed 2; take u shaken all; flip u to wreck; set u.speed = n;\n"
        "  destroy u; move u to @C4, @C5; embark u in t; disembark u to @B2;\n"
        "  place rubble at @C4; remove mine near @C4; raise hit(u, n - 1); let k = 1;\n"
        "  let w = choose(s in L, by: u.side) \"Q\";\n"
        "  if k == 1 then { note \"a\"; } else if k == 2 then { fail \"b\"; } else { }\n"
        "  for x in L { }\n};",
        "(rule hit.r (cite \"X\") (when (> n 0)) (do (block (give u suppressed 2) "
        "(take all u shaken) (flip u wreck) (set (. u speed) n) (destroy u) (move u @C4 @C5) "
        "(embark u t) (disembark u @B2) (place rubble @C4) (remove near mine @C4) "
        "(raise hit u (- n 1)) (let k 1) (choose w s L (. u side) \"Q\") "
        "(if (== k 1) (block (note \"a\")) (if (== k 2) (block (fail \"b\")) (block))) "
        "(for x L (block)))))");
    ck_assert_dump(
        dump_file,
        "test \"t\" dice [1, 2] choices [@C4] { do hit($a, 1) fails E219; advance to supply;\n"
        "  move $a along [@C4]; expect true; }",
        "(test \"t\" (dice 1 2) (choices @C4) (do (call hit $a 1) fails E219) "
        "(advance supply) (move $a (list @C4)) (expect true))");
    ck_assert_dump(dump_expr, "[x * 2 for x in L] ++ [y in M: y > 0]",
                   "(++ (map x L (* x 2)) (filter y M (> y 0)))");
}
END_TEST

static int first_code(const char *text, bool expr);

/* A text, whether it is an expression, and the code of the first diagnostic it gives. */
typedef struct code_case {
    const char *text;
    bool expr;
    int code;
} code_case;

static void ck_assert_codes(const code_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(first_code(cases[i].text, cases[i].expr) == cases[i].code, "%s: want E%03d",
                      cases[i].text, cases[i].code);
}

START_TEST(one_let_one_if)
{
    /* language.md §4: the same `let x = e;` in a rule head, a block and an expression, and the
     * same `if c then ... else ...` in an expression and a block (whose branches are blocks) */
    ck_assert_dump(
        dump_file,
        "rule q.r cite \"X\" let a = 1; let b = let c = a; c + 1; answer if b > 1 then b else a;",
        "(rule q.r (cite \"X\") (let a 1) (let b (let c a (+ c 1))) (answer (if (> b 1) b a)))");
    ck_assert_dump(
        dump_file,
        "rule e.r cite \"X\" do { let a = 1; if a > 0 then { let b = a; note \"p\"; } }; ",
        "(rule e.r (cite \"X\") (do (block (let a 1) "
        "(if (> a 0) (block (let b a) (note \"p\"))))))");
    parsed *p =
        parse_text("rule e.r cite \"X\" let a = 1; do { let b = a; if a then { } };", false);
    ck_assert_uint_eq(p->diags.errors, 0);
    const ast_node *r = p->f->decls.items[0];
    /* one node kind each: a let without a body binds to the end of its rule or block */
    ck_assert_int_eq(r->list.items[0]->kind, AST_LET);
    ck_assert_ptr_null(r->list.items[0]->b);
    const ast_node *let = r->c->list.items[0], *iff = r->c->list.items[1];
    ck_assert_int_eq(let->kind, AST_LET);
    ck_assert_int_eq(let->op, AST_ST_LET);
    ck_assert_int_eq(iff->kind, AST_IF);
    ck_assert_int_eq(iff->op, AST_ST_IF);
    parsed_free(p);
    /* a statement's branches are blocks; an expression's `else` is required; the old
     * spellings are gone (`in` is membership, so the value `1 in x` wants its `;`) */
    ck_assert_codes(
        (const code_case[]){
            { "rule e.r cite \"X\" do { if a then note \"n\"; };", false, 10 },
            { "if a then 1", true, 10 },
            { "let x = 1 in x", true, 12 },
            { "rule e.r cite \"X\" do { if a { } };", false, 10 },
        },
        4);
}
END_TEST

START_TEST(sources_and_texts)
{
    /* language.md §3.6: a source declaration, with and without its text */
    ck_assert_dump(dump_file, "source \"BRO.5\" = \"Bloody Omaha 5\";",
                   "(source \"BRO.5\" \"Bloody Omaha 5\")");
    ck_assert_dump(dump_file, "source \"FIX.1\";", "(source \"FIX.1\")");
    /* §1: adjacent strings are one text, joined with one space */
    ck_assert_dump(dump_file, "kind k \"Infantry\"\n     \"unit\" \"(foot)\";",
                   "(kind k \"Infantry unit (foot)\")");
    ck_assert_dump(dump_file,
                   "rule q.r cite \"X\" example \"A;\" \"B\" doc \"one\"\n  \"two\" answer 1;",
                   "(rule q.r (cite \"X\" example \"A; B\") (doc \"one two\") (answer 1))");
    ck_assert_dump(dump_file, "test \"a\" \"b\" { }", "(test \"a b\")");
    /* an ID is one string: its pieces are not joined */
    ck_assert_codes(
        (const code_case[]){
            { "source \"A\" \"B\";", false, 10 },
            { "rule q.r cite \"A\" \"B\" answer 1;", false, 10 },
        },
        2);
    /* the location of a source declaration is its ID */
    parsed *p = parse_text("source \"BRO.5\"\n  = \"a\"\n    \"b\";", false);
    ck_assert_uint_eq(p->diags.errors, 0);
    const ast_node *d = p->f->decls.items[0];
    ck_assert_int_eq(d->kind, AST_SOURCE);
    ck_assert_str_eq(d->title, "a b");
    ck_assert_uint_eq(d->loc.line, 1);
    ck_assert_uint_eq(d->loc.col, 8);
    parsed_free(p);
}
END_TEST

START_TEST(keywords)
{
    /* the words of statements, tests, events and queries are keywords (language.md §1)... */
    ck_assert_codes(
        (const code_case[]){
            { "fn f(to: int) -> int = to;", false, 10 },
            { "fn f(dice: int) -> int = dice;", false, 10 },
            { "query q() -> int combine firstly;", false, 15 },
            { "event e(u: unit) at give;", false, 10 },
            { "test \"t\" bored \"b.scn\" { }", false, 10 },
            { "test \"t\" { advance into supply; }", false, 10 },
            { "test \"t\" { move $a onto [@C4]; }", false, 10 },
            { "rule e.r cite \"X\" do { let x = choose(s in L, for: a); };", false, 10 },
            { "rule e.r cite \"X\" do { move u at @C4; };", false, 10 },
            { "rule e.r cite \"X\" do { place f onto @C4; };", false, 10 },
        },
        10);
    /* ...and, like every keyword, field and column names */
    ck_assert_dump(dump_expr, "s.to.at + s.by.dice", "(+ (. (. s to) at) (. (. s by) dice))");
    ck_assert_dump(dump_file, "record r { to: int, on: int, first: int, list: int }",
                   "(record-decl r (to int) (on int) (first int) (list int))");
    ck_assert_dump(dump_expr, "r{to: 1, int: 2}", "(record r (to 1) (int 2))");
    /* the moment of an event is a keyword; another name is the resolver's (E163) */
    ck_assert_dump(dump_file, "event e(u: unit) on walk_end; event f(u: unit) on blink;",
                   "(event e (params (u unit)) (on walk_end))\n"
                   "(event f (params (u unit)) (on blink))");
    ck_assert_dump(dump_file, "query q(x: list<int>) -> int combine permission;",
                   "(query q (params (x (list-of int))) int permission)");
}
END_TEST

START_TEST(variants_editions_tests)
{
    ck_assert_dump(
        dump_file,
        "variant rows \"doc\" {\n  reading highest \"h\" default;\n  reading cumulative;\n}",
        "(variant rows \"doc\" (reading highest \"h\" default) (reading cumulative))");
    ck_assert_dump(dump_file, "edition bo \"Bloody Omaha\";", "(edition bo \"Bloody Omaha\")");
    ck_assert_dump(dump_file,
                   "edition hh extends bo \"H&H\" {\n"
                   "  replace rule los.contour cite \"HH.1\" answer permit;\n"
                   "  remove rule los.old;\n  rule los.new cite \"HH.2\" answer forbid;\n"
                   "  set variant contour = shooter_only;\n}",
                   "(edition hh (extends bo) \"H&H\" (replace-rule los.contour (cite \"HH.1\") "
                   "(answer permit)) "
                   "(remove los.old) (rule los.new (cite \"HH.2\") (answer forbid)) "
                   "(set-variant contour shooter_only))");
    ck_assert_dump(dump_file, "edition e { }", "(edition e)");
    ck_assert_dump(dump_file, "default edition bo;", "(default-edition bo)");
    ck_assert_dump(dump_file,
                   "test \"T1\" edition hh variant a = b variant c = d {\n  expect f(1) == 2;\n"
                   "  expect t[x].y fails E201;\n}",
                   "(test \"T1\" (edition hh) (set-variant a b) (set-variant c d) "
                   "(expect (== (call f 1) 2)) (expect (. (index t x) y) fails E201))");
    ck_assert_dump(dump_file, "test \"empty\" { }", "(test \"empty\")");
}
END_TEST

START_TEST(modules_and_revisions)
{
    ck_assert_dump(dump_file, "module hh \"Harbor & Hills\";", "(module hh \"Harbor & Hills\")");
    ck_assert_dump(dump_file, "edition every extends a, b uses m, n \"All\";",
                   "(edition every (extends a b) (uses m n) \"All\")");
    /* each revision, with its parts; `unless` comes between `when` and `answer` */
    ck_assert_dump(dump_file,
                   "edition e {\n  revise rule q.r cite \"E.1\" when x > 1 unless y answer 2;\n"
                   "  revise rule q.s unless z;\n}",
                   "(edition e (revise-rule q.r (cite \"E.1\") (when (> x 1)) (unless y) "
                   "(answer 2)) (revise-rule q.s (unless z)))");
    ck_assert_dump(dump_file,
                   "edition e {\n  revise table t[a, 1].col = 5 cite \"E.2\";\n"
                   "  revise table u[b] = ?, 2;\n}",
                   "(edition e (revise-table t (keys a 1) (column col) (cells 5) (cite \"E.2\")) "
                   "(revise-table u (keys b) (cells ? 2)))");
    ck_assert_dump(dump_file,
                   "edition e {\n  revise fn f(n: int) -> int = n + 1;\n"
                   "  revise counter c { defense 4 }\n}",
                   "(edition e (revise-fn f (params (n int)) int (+ n 1)) "
                   "(revise-counter c (defense 4)))");
    ck_assert_dump(dump_file,
                   "edition e extends a, b {\n  prefer a;\n  prefer b for rule q.r;\n"
                   "  prefer a for table t;\n}",
                   "(edition e (extends a b) (prefer a) (prefer b rule q.r) (prefer a table t))");
    /* `expect X == A under E, B under F`: one expect per edition, X shared */
    ck_assert_dump(dump_file, "test \"t\" {\n  expect f(1) == 2 under a, 3 under b;\n}",
                   "(test \"t\" (expect (== (call f 1) 2) (under a)) "
                   "(expect (== (call f 1) 3) (under b)))");
}
END_TEST

START_TEST(empty_and_comments)
{
    ck_assert_dump(dump_file, "", "");
    ck_assert_dump(dump_file, "# nothing but a comment\n\n   \t\n", "");
}
END_TEST

/* ---------------------------------------------------------------- expressions */

START_TEST(precedence_arith)
{
    ck_assert_dump(dump_expr, "1 + 2 * 3", "(+ 1 (* 2 3))");
    ck_assert_dump(dump_expr, "(1 + 2) * 3", "(* (+ 1 2) 3)");
    ck_assert_dump(dump_expr, "1 - 2 - 3", "(- (- 1 2) 3)");
    ck_assert_dump(dump_expr, "a % b / c", "(/ (% a b) c)");
    ck_assert_dump(dump_expr, "-x * y", "(* (- x) y)");
    ck_assert_dump(dump_expr, "-2", "-2");
    ck_assert_dump(dump_expr, "- - 3", "3");
    ck_assert_dump(dump_expr, "- -x", "(- (- x))");
    ck_assert_dump(dump_expr, "-(1 + 2)", "(- (+ 1 2))");
    ck_assert_dump(dump_expr, "1 - -2", "(- 1 -2)");
    ck_assert_dump(dump_expr, "-u.defense", "(- (. u defense))");
}
END_TEST

START_TEST(precedence_logic)
{
    ck_assert_dump(dump_expr, "not a and b or c", "(or (and (not a) b) c)");
    ck_assert_dump(dump_expr, "a or b and c", "(or a (and b c))");
    ck_assert_dump(dump_expr, "a and b or c and d", "(or (and a b) (and c d))");
    ck_assert_dump(dump_expr, "not x in s", "(not (in x s))");
    ck_assert_dump(dump_expr, "not not a", "(not (not a))");
    ck_assert_dump(dump_expr, "a == b + 1", "(== a (+ b 1))");
    ck_assert_dump(dump_expr, "a + b in s", "(in (+ a b) s)");
    ck_assert_dump(dump_expr, "x in {a, b}", "(in x (set a b))");
    ck_assert_dump(dump_expr, "a != b", "(!= a b)");
    ck_assert_dump(dump_expr, "a <= b and a >= c", "(and (<= a b) (>= a c))");
    ck_assert_dump(dump_expr, "a < b or a > c", "(or (< a b) (> a c))");
}
END_TEST

START_TEST(if_and_let)
{
    /* The `;` ends a let's bound value (language.md §4), so the value may hold a membership test
     * and the body one too; `then` ends a condition, so it may hold a record literal. */
    static const struct {
        const char *text, *dump;
    } cases[] = {
        { "if a then 1 else 2 + 3", "(if a 1 (+ 2 3))" },
        { "if a then if b then 1 else 2 else 3", "(if a (if b 1 2) 3)" },
        { "let x = 1; x + 1", "(let x 1 (+ x 1))" },
        { "let x = a; b in s", "(let x a (in b s))" },
        { "let x = a in s; x", "(let x (in a s) x)" },
        { "let x = if c then 1 else 2; x", "(let x (if c 1 2) x)" },
        { "let x = not a or b; x", "(let x (or (not a) b) x)" },
        { "let x = let y = 1; y; x", "(let x (let y 1 y) x)" },
        { "if a then let x = 1; x else 2", "(if a (let x 1 x) 2)" },
        { "if R{a: 1} == r then 1 else 2", "(if (== (record R (a 1)) r) 1 2)" },
        { "if x in s then 1 else 2", "(if (in x s) 1 2)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_dump(dump_expr, cases[i].text, cases[i].dump);
}
END_TEST

START_TEST(postfix_and_calls)
{
    ck_assert_dump(dump_expr, "u.defense + t[a, b].col", "(+ (. u defense) (. (index t a b) col))");
    ck_assert_dump(dump_expr, "f(a)[1].g", "(. (index (call f a) 1) g)");
    ck_assert_dump(dump_expr, "f()", "(call f)");
    ck_assert_dump(dump_expr, "f(a, b)", "(call f a b)");
    ck_assert_dump(dump_expr, "len(L)", "(call len L)");
    ck_assert_dump(dump_expr, "has(u, suppressed)", "(call has u suppressed)");
    ck_assert_dump(dump_expr, "max(a, b)", "(call max a b)");
    ck_assert_dump(dump_expr, "min(a)", "(call min a)");
    ck_assert_dump(dump_expr, "x.kind == infantry", "(== (. x kind) infantry)");
    ck_assert_dump(dump_expr, "level.A", "(. level A)");
    ck_assert_dump(dump_expr, "kind.infantry", "(. kind infantry)");
    ck_assert_dump(dump_expr, "r.count + r.default", "(+ (. r count) (. r default))");
}
END_TEST

START_TEST(aggregates)
{
    ck_assert_dump(dump_expr, "sum(x in L: x * 2)", "(sum x L (* x 2))");
    ck_assert_dump(dump_expr, "count(u in units(allies): u.size > 1)",
                   "(count u (call units allies) (> (. u size) 1))");
    ck_assert_dump(dump_expr, "all(x in L: x)", "(all x L x)");
    ck_assert_dump(dump_expr, "any(x in [1, 2]: x == 2)", "(any x (list 1 2) (== x 2))");
    ck_assert_dump(dump_expr, "min(x in L: x)", "(min x L x)");
    ck_assert_dump(dump_expr, "max(x in L: -x)", "(max x L (- x))");
}
END_TEST

START_TEST(literals)
{
    ck_assert_dump(dump_expr, "order{kind: numbered, number: 3}",
                   "(record order (kind numbered) (number 3))");
    ck_assert_dump(dump_expr, "R{}", "(record R)");
    ck_assert_dump(dump_expr, "{a, b}", "(set a b)");
    ck_assert_dump(dump_expr, "{}", "(set)");
    ck_assert_dump(dump_expr, "[1, 2]", "(list 1 2)");
    ck_assert_dump(dump_expr, "[]", "(list)");
    ck_assert_dump(dump_expr, "variant rows == cumulative", "(== (variant-ref rows) cumulative)");
    ck_assert_dump(dump_expr, "forbid", "forbid");
    ck_assert_dump(dump_expr, "permit", "permit");
    ck_assert_dump(dump_expr, "true and false", "(and true false)");
}
END_TEST

START_TEST(dice)
{
    ck_assert_dump(dump_expr, "roll d6", "(roll)");
    ck_assert_dump(dump_expr, "roll 2 d6", "(roll 2)");
    ck_assert_dump(dump_expr, "roll 2d6", "(roll 2)");
    ck_assert_dump(dump_expr, "roll d6 + 1", "(+ (roll) 1)");
    ck_assert_dump(dump_expr, "roll n.count d6", "(roll (. n count))");
    ck_assert_dump(dump_expr, "sum(x in roll 3 d6: x)", "(sum x (roll 3) x)");
}
END_TEST

START_TEST(expr_locations)
{
    /* an expression's location spans it whole: `a + b * c` is columns 1-9 */
    parsed *p = parse_text("a + b * c", true);
    ck_assert_ptr_nonnull(p->expr);
    ck_assert_uint_eq(p->expr->loc.col, 1);
    ck_assert_uint_eq(p->expr->loc.end_col, 9);
    ck_assert_uint_eq(p->expr->b->loc.col, 5);
    parsed_free(p);
}
END_TEST

/* ---------------------------------------------------------------- errors */

static int first_code(const char *text, bool expr)
{
    parsed *p = parse_text(text, expr);
    int c = p->diags.len ? p->diags.items[0].code : 0;
    if (expr && p->diags.errors)
        ck_assert_ptr_null(p->expr);
    parsed_free(p);
    return c;
}

START_TEST(expression_errors)
{
    /* comparisons do not chain (§4: non-associative) */
    ck_assert_int_eq(first_code("a < b < c", true), 10);
    ck_assert_int_eq(first_code("a == b == c", true), 10);
    ck_assert_int_eq(first_code("x in a in b", true), 10);
    /* `if` and `let` only at the top of an expression or inside brackets */
    ck_assert_int_eq(first_code("1 + if a then 1 else 2", true), 10);
    ck_assert_int_eq(first_code("1 2", true), 10);
    ck_assert_int_eq(first_code("1 +", true), 10);
    ck_assert_int_eq(first_code("", true), 10);
    ck_assert_int_eq(first_code("f(?)", true), 13);
    ck_assert_int_eq(first_code("sum(x: 1)", true), 14);
    ck_assert_int_eq(first_code("sum(x + 1: 1)", true), 14);
    ck_assert_int_eq(first_code("count(1 in L: 1)", true), 14);
    ck_assert_int_eq(first_code("roll d6 d6", true), 10);
}
END_TEST

START_TEST(declaration_errors)
{
    ck_assert_int_eq(first_code("kind 42;", false), 10);
    ck_assert_int_eq(first_code("kind side;", false), 10);
    ck_assert_int_eq(first_code("rule q cite \"x\" answer 1;", false), 10);
    ck_assert_int_eq(first_code("rule q.r answer 1;", false), 10); /* a cite is required */
    ck_assert_int_eq(first_code("fn f(x: int floor) -> int = 1;", false), 10);
    ck_assert_int_eq(first_code("query q() -> int;", false), 10); /* combine is required */
    ck_assert_int_eq(first_code("query q() -> int combine often;", false), 15);
    ck_assert_int_eq(first_code("test \"t\" { expect 1 fails 201; }", false), 10);
    ck_assert_int_eq(first_code("test \"t\" { expect 1 fails E2; }", false), 16);
    ck_assert_int_eq(first_code("test \"t\" { expect 1 fails E000; }", false), 16);
    ck_assert_int_eq(first_code("marker m: bool;", false), 17);
    ck_assert_int_eq(first_code("fn f(x: bag<int>) -> int = 1;", false), 18);
    ck_assert_int_eq(first_code("table t(k: int) -> int { 1 => 1 + ?; }", false), 13);
    ck_assert_int_eq(first_code("kind k", false), 12);
}
END_TEST

START_TEST(rejected_declarations_are_dropped)
{
    /* A builder rejection (E014-E018) keeps parsing but drops the declaration holding it, so
     * no later stage sees the hole; the declarations around it survive. */
    parsed *p = parse_text("kind a;\nfn f() -> int = sum(x: 1);\nkind b;\n"
                           "query q() -> int combine often;\nkind c;",
                           false);
    ck_assert_uint_eq(p->diags.errors, 2);
    ck_assert_uint_eq(p->f->decls.len, 3);
    ck_assert_str_eq(p->f->decls.items[2]->name, "c");
    parsed_free(p);
}
END_TEST

START_TEST(recovery)
{
    /* three broken declarations, each reported once; the four good ones are all kept */
    parsed *p = parse_text("kind a;\nrule q.r cite \"x\" answer 1 +;\n"
                           "side b;\ntable t(k: int) -> int { 1 => 2; 3 => ; 4 => 5; }\n"
                           "enum e { x, , y }\nmarker c;\n",
                           false);
    ck_assert_uint_eq(p->diags.errors, 3);
    ck_assert_int_eq(p->diags.items[0].code, 10);
    ck_assert_uint_eq(p->diags.items[0].loc.line, 2);
    ck_assert_uint_eq(p->diags.items[1].loc.line, 4);
    ck_assert_uint_eq(p->diags.items[2].loc.line, 5);
    ck_assert_uint_eq(p->f->decls.len, 4);
    /* the table lost its bad row only */
    ck_assert_int_eq(p->f->decls.items[2]->kind, AST_TABLE);
    ck_assert_uint_eq(p->f->decls.items[2]->list.len, 2);
    ck_assert_str_eq(p->f->decls.items[3]->name, "c");
    parsed_free(p);
}
END_TEST

START_TEST(error_cap)
{
    /* 30 bad declarations: FRONT_MAX_ERRORS errors, then one E009, then silence */
    char text[30 * 16];
    text[0] = '\0';
    for (int i = 0; i < 30; i++)
        strcat(text, "kind 1;\n");
    parsed *p = parse_text(text, false);
    ck_assert_uint_eq(p->diags.len, FRONT_MAX_ERRORS + 1);
    ck_assert_uint_eq(p->diags.errors, FRONT_MAX_ERRORS + 1);
    ck_assert_int_eq(p->diags.items[FRONT_MAX_ERRORS].code, 9);
    ck_assert_uint_eq(p->diags.items[FRONT_MAX_ERRORS].loc.line, FRONT_MAX_ERRORS + 1);
    parsed_free(p);
}
END_TEST

START_TEST(expr_mode_rejects_declarations)
{
    ck_assert_int_eq(first_code("kind k;", true), 10);
    /* a lexical error in an expression also means no expression */
    ck_assert_int_eq(first_code("1 @ + 2", true), 1);
}
END_TEST

/* Builds `pre` n times, then `mid`, then `post` n times (a new malloc'd string). */
static char *repeat3(const char *pre, size_t n, const char *mid, const char *post)
{
    size_t a = strlen(pre), b = strlen(mid), c = strlen(post);
    char *s = malloc(n * (a + c) + b + 1), *o = s;
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < n; i++, o += a)
        memcpy(o, pre, a);
    memcpy(o, mid, b);
    o += b;
    for (size_t i = 0; i < n; i++, o += c)
        memcpy(o, post, c);
    *o = '\0';
    return s;
}

/* The one E008 of an expression, or NULL when it parsed (asserting there is nothing else). */
static const char *depth_error(const char *pre, size_t n, const char *mid, const char *post)
{
    static char msg[128];
    char *text = repeat3(pre, n, mid, post);
    parsed *p = parse_text(text, true);
    const char *r = NULL;
    if (p->diags.len) {
        ck_assert_uint_eq(p->diags.len, 1);
        ck_assert_int_eq(p->diags.items[0].code, 8);
        ck_assert_ptr_null(p->expr);
        snprintf(msg, sizeof msg, "%s", p->diags.items[0].message);
        r = msg;
    } else {
        ck_assert_ptr_nonnull(p->expr);
    }
    parsed_free(p);
    free(text);
    return r;
}

START_TEST(depth_rule)
{
    /* language.md §4: the left operand of a binary operator adds no level, so a chain of any
     * length up to 10,000 operators is shallow: `1 + ... + 1` with n terms has n - 1 of them. */
    ck_assert_ptr_null(depth_error("1 + ", 299, "1", ""));
    ck_assert_ptr_null(depth_error("1 + ", 10000, "1", "")); /* 10,000 operators */
    ck_assert_str_eq(depth_error("1 + ", 10001, "1", ""),
                     "operator chain too long (more than 10000 operators)");
    ck_assert_ptr_null(depth_error("x or ", 10000, "y", ""));
    /* a pair of parentheses is a level: 256 around a literal are the limit, 257 too many, and
     * 5000 (more than the parser's stack holds) are refused with the same words */
    ck_assert_ptr_null(depth_error("(", 256, "1", ")"));
    ck_assert_str_eq(depth_error("(", 257, "1", ")"), "nesting too deep (more than 256 levels)");
    ck_assert_str_eq(depth_error("(", 5000, "1", ")"), "nesting too deep (more than 256 levels)");
    /* a right operand is a level, its parentheses with it: 1 + (1 + (... 1)) with 255 `+` is
     * 256 levels deep; with 256 it is 257 */
    ck_assert_ptr_null(depth_error("1 + (", 255, "1", ")"));
    ck_assert_str_eq(depth_error("1 + (", 256, "1", ")"),
                     "nesting too deep (more than 256 levels)");
    ck_assert_str_eq(depth_error("not ", 300, "x", ""), "nesting too deep (more than 256 levels)");
}
END_TEST

/* The chain bound is checked as the parser reduces each operator (front_binary), not once the
 * tree is whole: `1 + ... + 1` with a million terms (4 MB of text) is refused at its 10,002nd
 * term (the 10,001st operator is one too many, language.md §4), under a 48 MB cap on the memory
 * the parse may hold. Before, the whole tree was built first (some 190 MB here) and the parse
 * ran out of memory under the cap instead of saying E008. The parse stops at the error, as
 * after E009: the declaration is dropped. "fn f() -> int = " is 16 columns, each term "1 + "
 * 4 more: the 10,002nd term starts at column 17 + 4 * 10,001. */
START_TEST(chain_bound_while_parsing)
{
    char *text = repeat3("", 0, "fn f() -> int = ", "");
    char *chain = repeat3("1 + ", 999999, "1;\n", "");
    size_t a = strlen(text), b = strlen(chain);
    text = realloc(text, a + b + 1);
    ck_assert_ptr_nonnull(text);
    memcpy(text + a, chain, b + 1);
    free(chain);
    mem_cap_start(48u << 20);
    parsed *p = parse_text(text, false);
    mem_cap_start(0);
    ck_assert_uint_eq(p->diags.len, 1);
    ck_assert_int_eq(p->diags.items[0].code, 8);
    ck_assert_str_eq(p->diags.items[0].message,
                     "operator chain too long (more than 10000 operators)");
    ck_assert_uint_eq(p->diags.items[0].loc.line, 1);
    ck_assert_uint_eq(p->diags.items[0].loc.col, 17 + 4 * 10001);
    ck_assert_uint_eq(p->f->decls.len, 0);
    parsed_free(p);
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("parser");
    TCase *td = tcase_create("declarations");
    tcase_add_test(td, vocab);
    tcase_add_test(td, enum_and_record);
    tcase_add_test(td, counter);
    tcase_add_test(td, tables);
    tcase_add_test(td, table_fields);
    tcase_add_test(td, every_combine_mode);
    tcase_add_test(td, functions_and_queries);
    tcase_add_test(td, rules);
    tcase_add_test(td, rule_fields);
    tcase_add_test(td, variants_editions_tests);
    tcase_add_test(td, modules_and_revisions);
    tcase_add_test(td, events_and_statements);
    tcase_add_test(td, one_let_one_if);
    tcase_add_test(td, sources_and_texts);
    tcase_add_test(td, keywords);
    tcase_add_test(td, empty_and_comments);
    suite_add_tcase(s, td);
    TCase *tx = tcase_create("expressions");
    tcase_add_test(tx, precedence_arith);
    tcase_add_test(tx, precedence_logic);
    tcase_add_test(tx, if_and_let);
    tcase_add_test(tx, postfix_and_calls);
    tcase_add_test(tx, aggregates);
    tcase_add_test(tx, literals);
    tcase_add_test(tx, dice);
    tcase_add_test(tx, expr_locations);
    suite_add_tcase(s, tx);
    TCase *te = tcase_create("errors");
    tcase_add_test(te, expression_errors);
    tcase_add_test(te, declaration_errors);
    tcase_add_test(te, rejected_declarations_are_dropped);
    tcase_add_test(te, recovery);
    tcase_add_test(te, error_cap);
    tcase_add_test(te, expr_mode_rejects_declarations);
    tcase_add_test(te, depth_rule);
    tcase_add_test(te, chain_bound_while_parsing);
    suite_add_tcase(s, te);
    return check_run(s);
}
