/* test_resolve.c — Check tests of the resolver and type checker (dsl/resolve.c and its pass
 * files, docs/spec/vm.md §1.1): every E1xx code of docs/spec/errors.md triggered at least once,
 * at the position it must name, plus what must resolve cleanly (bidirectional enum members,
 * several errors in one run).
 *
 * Columns count from 1; a declaration's position is its name, an expression's its first
 * character (dsl/grammar/build.h).
 */
#include "front.h"
#include "interp_test.h"
#include "mem.h"
#include "resolve.h"

/* ---- names ---- */

START_TEST(e100_unknown_name)
{
    /* `nope` starts at column 3 of line 2 */
    ck_load_fails("fn f() -> int =\n  nope;", 100, 2, 3);
    /* unknown function */
    ck_load_fails("fn f() -> int =\n  g(1);", 100, 2, 3);
    /* unknown member of a named enum: the span of `e.c` starts at column 3 */
    ck_load_fails("enum e { a, b }\nfn f() -> e =\n  e.c;", 100, 3, 3);
    /* counter of an unknown kind: reported at the counter's name (column 9) */
    ck_load_fails("counter sherman : tank { }", 100, 1, 9);
    /* unknown variant in `variant NAME` */
    ck_load_fails("fn f() -> int = if variant nov == x then 1 else 2;", 100, 1, 20);
}
END_TEST

START_TEST(e101_unknown_type)
{
    /* `nosuch` is at column 9 */
    ck_load_fails("fn f(x: nosuch) -> int = 1;", 101, 1, 9);
    /* a record literal of a type that does not exist */
    ck_load_fails("fn f() -> int =\n  r{a: 1}.a;", 101, 2, 3);
}
END_TEST

START_TEST(e102_no_field)
{
    ck_load_fails("record r { a: int }\nfn f() -> int =\n  r{a: 1}.b;", 102, 3, 3);
    /* a unit value that was never declared with `value` */
    ck_load_fails("kind inf;\ncounter c : inf { }\nfn f() -> int =\n  c.defense;", 102, 4, 3);
    /* ints have no fields */
    ck_load_fails("fn f() -> int =\n  (1).x;", 102, 2, 0);
}
END_TEST

START_TEST(e103_arity)
{
    ck_load_fails("fn f(x: int) -> int = x;\nfn g() -> int =\n  f(1, 2);", 103, 3, 3);
    /* built-ins too */
    ck_load_fails("fn g() -> int =\n  abs(1, 2);", 103, 2, 3);
    /* a table asked with the wrong number of keys */
    ck_load_fails("enum e { a }\ntable t(k: e) -> int { a => 1; }\nfn g() -> int =\n  t[a, a];",
                  103, 4, 3);
}
END_TEST

START_TEST(e104_type_mismatch)
{
    ck_load_fails("fn f() -> int =\n  true;", 104, 2, 3);
    ck_load_fails("fn f() -> int = 1 +\n  false;", 104, 2, 3);
    /* a rule answering the wrong type for its query */
    ck_load_fails("query q() -> int combine first default 0;\nrule q.r cite \"X\"\n  answer true;\n"
                  "source \"X\";\n",
                  104, 3, 10);
    /* a permission rule must answer forbid or permit */
    ck_load_fails("query q() -> verdict combine permission;\nrule q.r cite \"X\"\n  answer 1;\n"
                  "source \"X\";\n",
                  104, 3, 10);
}
END_TEST

START_TEST(e105_ambiguous_member)
{
    /* `x` is a member of both enums and nothing gives a type: qualify it */
    ck_load_fails("enum a { x, y }\nenum b { x, z }\nfn f() -> bool =\n  x == x;", 105, 4, 3);
    /* has() with a name that is both an ability and a marker */
    ck_load_fails("kind inf;\nability hidden;\nmarker hidden;\ncounter c : inf { }\n"
                  "fn f() -> bool = has(c,\n  hidden);",
                  105, 6, 3);
}
END_TEST

START_TEST(e105_context_resolves)
{
    /* The expected type picks the enum: no ambiguity in any of these. */
    tvm *t = tvm_new("enum a { x, y }\nenum b { x, z }\nfn fa(v: a) -> bool = v == x;\n"
                     "fn fb(v: b) -> bool = x == v;\nfn pick() -> b = x;\n"
                     "fn inset(v: a) -> bool = v in {x, y};\n");
    ck_ev(t, "fa(x)", "true");
    ck_ev(t, "fa(y)", "false");
    ck_ev(t, "fb(z)", "false");
    ck_ev(t, "pick()", "x");
    ck_ev(t, "pick() == b.x", "true");
    ck_ev(t, "inset(a.y)", "true");
    tvm_free(t);
}
END_TEST

START_TEST(e106_not_a_value)
{
    ck_load_fails("query q() -> int combine first default 0;\nfn f() -> int =\n  q;", 106, 3, 3);
    /* calling a table */
    ck_load_fails("enum e { a }\ntable t(k: e) -> int { a => 1; }\nfn f() -> int =\n  t(a);", 106,
                  4, 3);
    /* indexing a function */
    ck_load_fails("fn g() -> int = 1;\nfn f() -> int =\n  g[1];", 106, 3, 3);
}
END_TEST

START_TEST(e107_cannot_infer)
{
    ck_load_fails("fn f() -> int = len(\n  []);", 107, 2, 3);
    /* with an expected type the empty literal is fine */
    tvm *t = tvm_new("enum e { a, b }\nfn f() -> set<e> = {};\nfn g() -> list<int> = [];\n");
    ck_ev(t, "f()", "{}");
    ck_ev(t, "len(g())", "0");
    tvm_free(t);
}
END_TEST

/* `?` outside a table cell cannot be written (the grammar only has it as a cell), so this one
 * is built by hand: a fn whose body is an AST_NOT_GIVEN node. */
START_TEST(e108_not_given_outside_table)
{
    diag_sources src = { 0 };
    diag_list dl;
    diag_list_init(&dl, &src);
    uint32_t id = diag_sources_add(&src, "hand.hon", "", 0);
    ast_file *f = ast_file_new("hand.hon", "", 0, id);
    ck_assert_ptr_nonnull(f);
    ast_loc l1 = { id, 1, 1, 1, 2 }, l2 = { id, 1, 17, 1, 17 };
    ast_node *fn = ast_new(f, AST_FN, l1);
    fn->name = "f";
    fn->a = ast_new(f, AST_TYPE_NAME, l1);
    fn->a->name = "int";
    fn->b = ast_new(f, AST_NOT_GIVEN, l2);
    ck_assert(ast_vec_push(f, &f->decls, fn));
    res_program *p = res_resolve(&f, 1, &dl);
    ck_assert_ptr_null(p);
    ck_assert_uint_eq(dl.len, 1);
    ck_assert_int_eq(dl.items[0].code, 108);
    ck_assert_uint_eq(dl.items[0].loc.line, 1);
    ck_assert_uint_eq(dl.items[0].loc.col, 17);
    diag_list_clear(&dl);
    ast_file_free(f);
    diag_sources_free(&src);
}
END_TEST

START_TEST(e109_operands)
{
    /* bools have no order */
    ck_load_fails("fn f() -> bool =\n  true < false;", 109, 2, 3);
    /* `in` needs a set or a list on its right: the error points at the right operand */
    ck_load_fails("fn f() -> bool = 1 in\n  2;", 109, 2, 3);
}
END_TEST

START_TEST(e110_duplicates)
{
    ck_load_fails("fn f() -> int = 1;\nfn f() -> int = 2;", 110, 2, 4);
    /* a built-in name */
    ck_load_fails("fn abs(x: int) -> int = x;", 110, 1, 4);
    /* vocabulary declared twice */
    ck_load_fails("marker m;\nmarker m;", 110, 2, 8);
    /* the same rule twice: its position is the span of `q.r` */
    ck_load_fails("query q() -> int combine first default 0;\nrule q.r cite \"X\" answer 1;\n"
                  "rule q.r cite \"X\" answer 2;\nsource \"X\";\n",
                  110, 3, 6);
    /* an edition adding a rule that exists already */
    ck_load_fails("query q() -> int combine first default 0;\nrule q.r cite \"X\" answer 1;\n"
                  "edition e {\n  rule q.r cite \"X\" answer 2;\n}\nsource \"X\";\n",
                  110, 4, 8);
    /* two editions of one name */
    ck_load_fails("edition e;\nedition e;", 110, 2, 9);
}
END_TEST

START_TEST(e111_duplicate_items)
{
    ck_load_fails("enum e { a,\n  a }", 111, 2, 3);
    ck_load_fails("fn f(x: int,\n  x: int) -> int = 1;", 111, 2, 3);
    ck_load_fails("kind inf;\nside allies;\ncounter c : inf {\n  side allies\n  side allies\n}",
                  111, 5, 3);
}
END_TEST

START_TEST(e112_rule_without_query)
{
    /* the position is the rule's name span `nq.r` */
    ck_load_fails("rule nq.r cite \"X\" answer 1;\nsource \"X\";\n", 112, 1, 6);
}
END_TEST

START_TEST(e113_combine_mode)
{
    ck_load_fails("query q() -> bool combine sum;", 113, 1, 7);
    ck_load_fails("query q() -> int combine all;", 113, 1, 7);
    ck_load_fails("query q() -> int combine permission;", 113, 1, 7);
}
END_TEST

START_TEST(e114_default)
{
    ck_load_fails("query q() -> bool combine all default\n  true;", 114, 2, 3);
}
END_TEST

START_TEST(e116_record_fields)
{
    ck_load_fails("record r { a: int, b: int }\nfn f() -> r =\n  r{a: 1};", 116, 3, 3);
    /* the second `a` is on line 3 */
    ck_load_fails("record r { a: int }\nfn f() -> r = r{a: 1,\n  a: 2};", 116, 3, 3);
}
END_TEST

START_TEST(e117_counter_items)
{
    ck_load_fails("kind inf;\ncounter c : inf {\n  size 3\n}", 117, 3, 3);
    /* an ability declared `: int` needs its number */
    ck_load_fails("kind inf;\nability aa: int;\ncounter c : inf {\n  abilities {\n    aa }\n}", 117,
                  5, 5);
    /* and one without a number takes none */
    ck_load_fails("kind inf;\nability mg;\ncounter c : inf {\n  abilities {\n    mg 2 }\n}", 117, 5,
                  5);
}
END_TEST

START_TEST(e120_table_missing_row)
{
    /* the error names the table (its name at column 7) */
    ck_load_fails("enum e { a, b, c }\ntable t(k: e) -> int {\n  a => 1;\n  c => 3;\n}", 120, 2, 7);
    /* a row whose cells are all unknown is written with `?`: complete then */
    tvm *t = tvm_new("enum e { a, b }\ntable t(k: e) -> int { a => 1; b => ?; }");
    ck_ev(t, "t[a]", "1");
    tvm_free(t);
}
END_TEST

START_TEST(e121_row_shape)
{
    ck_load_fails("enum e { a }\ntable t(k: e) -> (x: int, y: int) {\n  a => 1;\n}", 121, 3, 3);
    ck_load_fails("enum e { a }\ntable t(k: e) -> int {\n  a, a => 1;\n}", 121, 3, 3);
}
END_TEST

START_TEST(e122_bad_cell_type)
{
    ck_load_fails("enum e { a }\ntable t(k: e) ->\n  list<int> { a => [1]; }", 122, 3, 3);
}
END_TEST

START_TEST(e123_duplicate_row)
{
    ck_load_fails("table t(k: int) -> int {\n  1 => 1;\n  1 => 2;\n}", 123, 3, 3);
}
END_TEST

START_TEST(e124_bad_key)
{
    ck_load_fails("table t(\n  k: bool) -> int { true => 1; }", 124, 2, 3);
    ck_load_fails("enum e { a }\ntable t(\n  k: e floor) -> int { a => 1; }", 124, 3, 3);
}
END_TEST

START_TEST(e125_constant_expected)
{
    ck_load_fails("table t(k: int) -> int {\n  1 =>\n    1 + 1;\n}", 125, 3, 5);
}
END_TEST

START_TEST(e130_variant_defaults)
{
    ck_load_fails("variant v {\n  reading a;\n  reading b;\n}", 130, 1, 9);
    ck_load_fails("variant v {\n  reading a default;\n  reading b default;\n}", 130, 3, 11);
}
END_TEST

START_TEST(e131_unknown_reading)
{
    /* the span of a setting starts at the variant's name */
    ck_load_fails("variant v { reading a default; }\nedition e {\n  set variant v = nope;\n}", 131,
                  3, 15);
    ck_load_fails("variant v { reading a default; }\ntest \"t\" variant v = zz { expect true; }",
                  131, 2, 18);
}
END_TEST

START_TEST(e140_revise_missing_rule)
{
    ck_load_fails("query q() -> int combine first default 0;\n"
                  "edition e {\n  replace rule q.nope cite \"X\" answer 1;\n}\nsource \"X\";\n",
                  140, 3, 16);
    ck_load_fails("query q() -> int combine first default 0;\n"
                  "edition e {\n  remove rule q.nope;\n}",
                  140, 3, 15);
    /* removed in the parent: gone for the child too */
    ck_load_fails("query q() -> int combine first default 0;\nrule q.r cite \"X\" answer 1;\n"
                  "edition p { remove rule q.r; }\n"
                  "edition c extends p {\n  replace rule q.r cite \"X\" answer 2;\n}\n"
                  "source \"X\";\n",
                  140, 5, 16);
}
END_TEST

/* The program the revision tests revise: a query and two rules, a table, a fn, a counter and
 * a variant, in the module `m`, and the edition e using it. */
#define REV_BASE                                                                           \
    "module m;\nquery q(x: int) -> int combine first default 0;\n"                         \
    "rule q.r cite \"X\" when x > 1 answer x;\nenum w { clear, rain }\n"                   \
    "table t(k: w) -> (a: int, b: int) { clear => 1, 2; rain => 3, 4; }\n"                 \
    "fn f(n: int) -> int = n;\nvalue defense;\nkind inf;\ncounter c : inf { defense 3 }\n" \
    "variant v { reading one default; reading two; }\nsource \"X\";\nedition e uses m;\n"

START_TEST(e140_revise_what_does_not_exist)
{
    /* line 13 holds the edition; each item's name is at column 33 or after `{ ` */
    ck_load_fails(REV_BASE "edition d extends e { revise rule q.nope when true; }", 140, 13, 35);
    ck_load_fails(REV_BASE "edition d extends e { revise table nope[clear] = 1; }", 140, 13, 36);
    /* a row and a column the table does not have */
    ck_load_fails(REV_BASE "edition d extends e { revise table t[rain].c = 1; }", 140, 13, 36);
    ck_load_fails(REV_BASE "edition d extends e { revise fn nope(n: int) -> int = 1; }", 140, 13,
                  33);
    ck_load_fails(REV_BASE "edition d extends e { revise counter nope { defense 1 } }", 140, 13,
                  38);
    /* a rule its parent removed (a rule of a module it does not use: test_editions.c) */
    ck_load_fails(REV_BASE "edition d uses m { remove rule q.r; }\n"
                           "edition d2 extends d { revise rule q.r answer 2; }",
                  140, 14, 36);
}
END_TEST

START_TEST(e144_conflicting_parents)
{
    /* a and b revise q.r differently; ab extends both and says nothing: at ab's name */
    ck_load_fails(REV_BASE "edition a extends e { revise rule q.r when x > 2; }\n"
                           "edition b extends e { revise rule q.r when x > 3; }\n"
                           "edition ab extends a, b;",
                  144, 15, 9);
    /* one cell each: no conflict; the same cell differently: a conflict */
    ck_load_fails(REV_BASE "edition a extends e { revise table t[clear].a = 5; }\n"
                           "edition b extends e { revise table t[clear].a = 6; }\n"
                           "edition ab extends a, b;",
                  144, 15, 9);
    /* a `prefer` of an edition that is not a parent */
    ck_load_fails(REV_BASE "edition a extends e;\nedition ab extends a { prefer e; }", 144, 14, 31);
}
END_TEST

/* Loads src, which must load, with a warning `code` at line:col. */
static void ck_load_warns(const char *src, int code, unsigned line, unsigned col)
{
    tvm *t = tvm_new(NULL);
    ck_assert_msg(hon_load_source(t->vm, "t.hon", src, strlen(src)) == HON_OK, "%s", t->log);
    ck_assert_msg(has_diag(t, code, line, col), "expected E%03d at %u:%u, got:\n%s", code, line,
                  col, t->log);
    ck_assert_msg(strstr(t->log, "warning[E145]"), "%s", t->log);
    tvm_free(t);
}

START_TEST(e145_revisions_that_change_nothing)
{
    ck_load_warns(REV_BASE "edition d extends e { revise rule q.r when x > 1; }", 145, 13, 35);
    ck_load_warns(REV_BASE "edition d extends e { revise rule q.r answer x; }", 145, 13, 35);
    ck_load_warns(REV_BASE "edition d extends e { replace rule q.r cite \"X\" when x > 1 "
                           "answer x; }",
                  145, 13, 36);
    ck_load_warns(REV_BASE "edition d extends e { revise table t[rain] = 3, 4; }", 145, 13, 36);
    ck_load_warns(REV_BASE "edition d extends e { revise fn f(n: int) -> int = n; }", 145, 13, 33);
    ck_load_warns(REV_BASE "edition d extends e { revise counter c { defense 3 } }", 145, 13, 42);
    ck_load_warns(REV_BASE "edition d extends e { set variant v = one; }", 145, 13, 35);
    ck_load_warns(REV_BASE "edition d extends e uses m;", 145, 13, 26);
    ck_load_warns(REV_BASE "edition a extends e;\nedition d extends a, e { prefer a; }", 145, 14,
                  33);
}
END_TEST

START_TEST(e146_modules)
{
    ck_load_fails("edition e uses nope;", 146, 1, 16);
    ck_load_fails("kind inf;\nmodule m;", 146, 2, 8);
}
END_TEST

START_TEST(e141_unknown_edition)
{
    ck_load_fails("edition e extends nope;", 141, 1, 19);
    ck_load_fails("default edition nope;", 141, 1, 0);
    ck_load_fails("test \"t\" edition nope { expect true; }", 141, 1, 6);
    /* an edition of `expect ... under`, at its name */
    ck_load_fails("test \"t\" { expect 1 == 1 under nope; }", 141, 1, 32);
}
END_TEST

START_TEST(e142_edition_cycle)
{
    /* Editions are visited in order: a, then its parent b, whose parent a is still being
     * computed: the cycle closes at a (line 1, its name at column 9). */
    ck_load_fails("edition a extends b;\nedition b extends a;", 142, 1, 9);
}
END_TEST

START_TEST(e143_two_default_editions)
{
    ck_load_fails("edition a;\nedition b;\ndefault edition a;\ndefault edition b;", 143, 4, 0);
}
END_TEST

START_TEST(e150_set_too_large)
{
    /* an enum of 65 members cannot form sets */
    char src[2048] = "enum big { ";
    for (int i = 0; i < 65; i++) {
        char m[16];
        snprintf(m, sizeof m, "%sm%d", i ? ", " : "", i);
        strcat(src, m);
    }
    strcat(src, " }\nfn f(\n  s: set<big>) -> int = 1;");
    ck_load_fails(src, 150, 3, 6);
}
END_TEST

START_TEST(several_errors_one_run)
{
    tvm *t = tvm_new(NULL);
    const char *src = "fn a() -> int = true;\nfn b() -> int = nope;\nfn c() -> bool = 1;";
    ck_assert_int_eq(hon_load_source(t->vm, "t.hon", src, strlen(src)), HON_ERR_COMPILE);
    ck_assert(has_diag(t, 104, 1, 17));
    ck_assert(has_diag(t, 100, 2, 17));
    ck_assert(has_diag(t, 104, 3, 18));
    ck_assert_uint_eq(t->ndiags, 3);
    /* the rendered text is compiler-style */
    ck_assert_ptr_nonnull(strstr(t->log, "t.hon:2:17: error[E100]: unknown name `nope`"));
    tvm_free(t);
}
END_TEST

START_TEST(names_across_files)
{
    /* A file may use names declared in a file loaded later: resolution is whole-program. */
    tvm *t = tvm_new(NULL);
    const char *a = "fn f() -> int = g() + 1;";
    ck_assert_int_eq(hon_load_source(t->vm, "a.hon", a, strlen(a)), HON_ERR_COMPILE);
    const char *b = "fn g() -> int = 41;";
    ck_assert_int_eq(hon_load_source(t->vm, "b.hon", b, strlen(b)), HON_OK);
    ck_ev(t, "g()", "41");
    tvm_free(t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("resolve");
    TCase *tc = tcase_create("E1xx");
    tcase_add_test(tc, e100_unknown_name);
    tcase_add_test(tc, e101_unknown_type);
    tcase_add_test(tc, e102_no_field);
    tcase_add_test(tc, e103_arity);
    tcase_add_test(tc, e104_type_mismatch);
    tcase_add_test(tc, e105_ambiguous_member);
    tcase_add_test(tc, e105_context_resolves);
    tcase_add_test(tc, e106_not_a_value);
    tcase_add_test(tc, e107_cannot_infer);
    tcase_add_test(tc, e108_not_given_outside_table);
    tcase_add_test(tc, e109_operands);
    tcase_add_test(tc, e110_duplicates);
    tcase_add_test(tc, e111_duplicate_items);
    tcase_add_test(tc, e112_rule_without_query);
    tcase_add_test(tc, e113_combine_mode);
    tcase_add_test(tc, e114_default);
    tcase_add_test(tc, e116_record_fields);
    tcase_add_test(tc, e117_counter_items);
    tcase_add_test(tc, e120_table_missing_row);
    tcase_add_test(tc, e121_row_shape);
    tcase_add_test(tc, e122_bad_cell_type);
    tcase_add_test(tc, e123_duplicate_row);
    tcase_add_test(tc, e124_bad_key);
    tcase_add_test(tc, e125_constant_expected);
    tcase_add_test(tc, e130_variant_defaults);
    tcase_add_test(tc, e131_unknown_reading);
    tcase_add_test(tc, e140_revise_missing_rule);
    tcase_add_test(tc, e140_revise_what_does_not_exist);
    tcase_add_test(tc, e144_conflicting_parents);
    tcase_add_test(tc, e145_revisions_that_change_nothing);
    tcase_add_test(tc, e146_modules);
    tcase_add_test(tc, e141_unknown_edition);
    tcase_add_test(tc, e142_edition_cycle);
    tcase_add_test(tc, e143_two_default_editions);
    tcase_add_test(tc, e150_set_too_large);
    tcase_add_test(tc, several_errors_one_run);
    tcase_add_test(tc, names_across_files);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run(suite());
}
