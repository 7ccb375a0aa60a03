/* test_vm.c — Check tests of the compiler and the VM (interp/compile.c, interp/vm.c) through
 * the embedding API: arithmetic and its E205 errors, short-circuit, aggregates, tables (`?`
 * cells, floor keys), records, sets, units, every combine mode, editions (replace, remove,
 * add), variants, the step budget and the call depth limit, traces.
 *
 * Expected values are worked out by hand in the comments; snippets are inline.
 */
#include "interp_test.h"

START_TEST(arithmetic)
{
    tvm *t = tvm_new(NULL);
    ck_ev(t, "1 + 2 * 3", "7");
    ck_ev(t, "(1 + 2) * 3", "9");
    ck_ev(t, "10 - 4 - 3", "3"); /* left-associative: (10-4)-3 */
    /* floor division and modulo: -7 / 2 = floor(-3.5) = -4, and -7 = 2*(-4) + 1 */
    ck_ev(t, "-7 / 2", "-4");
    ck_ev(t, "-7 % 2", "1");
    ck_ev(t, "7 / -2", "-4");
    ck_ev(t, "7 % -2", "-1"); /* 7 = (-2)*(-4) + (-1) */
    ck_ev(t, "7 / 2", "3");
    ck_ev(t, "min(3, -2) + max(3, -2) + abs(-5)", "6");
    ck_ev(t, "9223372036854775807", "9223372036854775807");
    ck_ev(t, "1 < 2 and 2 <= 2 and 3 > 2 and 3 >= 3 and 1 != 2", "true");
    ck_ev(t, "not (1 == 1)", "false");
    ck_ev(t, "if 1 > 2 then 10 else 20", "20");
    ck_ev(t, "let x = 4; x * x", "16");
    ck_ev(t, "let x = 2; let y = x + 1; x * y", "6");
    tvm_free(t);
}
END_TEST

START_TEST(arith_errors)
{
    tvm *t = tvm_new(NULL);
    ck_ev(t, "1 / 0", "E205");
    ck_assert_ptr_nonnull(strstr(t->log, "division by zero"));
    /* the error names where it happened: the `/` expression starts at column 1 */
    ck_assert(has_diag(t, 205, 1, 1));
    ck_ev(t, "1 % 0", "E205");
    ck_ev(t, "9223372036854775807 + 1", "E205");
    ck_ev(t, "-9223372036854775807 - 2", "E205");
    ck_ev(t, "4611686018427387904 * 2", "E205");
    ck_ev(t, "(-9223372036854775807 - 1) / -1", "E205");
    /* INT64_MIN % -1 is 0, not a trap */
    ck_ev(t, "(-9223372036854775807 - 1) % -1", "0");
    ck_ev(t, "-(-9223372036854775807 - 1)", "E205");
    ck_ev(t, "abs(-9223372036854775807 - 1)", "E205");
    tvm_free(t);
}
END_TEST

START_TEST(short_circuit)
{
    /* The right side would divide by zero: it must not run. */
    tvm *t = tvm_new(NULL);
    ck_ev(t, "false and 1 / 0 == 1", "false");
    ck_ev(t, "true or 1 / 0 == 1", "true");
    ck_ev(t, "true and 1 / 0 == 1", "E205");
    ck_ev(t, "false or 1 / 0 == 1", "E205");
    ck_ev(t, "if true then 1 else 1 / 0", "1");
    tvm_free(t);
}
END_TEST

START_TEST(aggregates)
{
    tvm *t = tvm_new("enum m { a, b, c }\n");
    ck_ev(t, "sum(x in [1, 2, 3]: x * x)", "14"); /* 1 + 4 + 9 */
    ck_ev(t, "count(x in [1, 2, 3, 4]: x % 2 == 0)", "2");
    ck_ev(t, "all(x in [1, 2, 3]: x > 0)", "true");
    ck_ev(t, "all(x in [1, 2, 3]: x > 1)", "false");
    ck_ev(t, "any(x in [1, 2, 3]: x > 2)", "true");
    ck_ev(t, "any(x in [1, 2, 3]: x > 3)", "false");
    ck_ev(t, "min(x in [4, 2, 7]: x)", "2");
    ck_ev(t, "max(x in [4, 2, 7]: x - 10)", "-3");
    /* empty collections: sum/count 0, all true, any false, min/max an error */
    ck_ev(t, "sum(x in []: x)", "E107"); /* the list's type is unknown */
    ck_ev(t, "let l = [1]; sum(x in l: x) - 1", "0");
    ck_ev(t, "count(s in {a}: s == b)", "0");
    ck_ev(t, "all(s in {}: s == b)", "E107");
    ck_ev(t, "min(x in [1, 2]: x) + 0", "1");
    /* over an enum: every member in order; sets iterate in member order */
    ck_ev(t, "count(v in m: v != b)", "2");
    ck_ev(t, "sum(v in {c, a}: if v == a then 1 else 10)", "11");
    /* aggregates short-circuit too: all stops at the first false */
    ck_ev(t, "all(x in [0, 1]: 10 / x > 100)", "E205");
    ck_ev(t, "all(x in [1, 0]: 10 / x > 100)", "false");
    ck_ev(t, "any(x in [1, 0]: 10 / x > 5)", "true");
    /* nested loops keep their own variables */
    ck_ev(t, "sum(x in [1, 2]: sum(y in [10, 20]: x * y))", "90");
    ck_ev(t, "len([1, 2, 3]) + len({a, c})", "5");
    ck_ev(t, "2 in [1, 2]", "true");
    ck_ev(t, "b in {a, c}", "false");
    tvm_free(t);
}
END_TEST

START_TEST(empty_min_max)
{
    tvm *t = tvm_new("fn none() -> list<int> = [];\n");
    ck_ev(t, "min(x in none(): x)", "E208");
    ck_ev(t, "max(x in none(): x)", "E208");
    ck_ev(t, "sum(x in none(): x)", "0");
    ck_ev(t, "all(x in none(): x > 0)", "true");
    ck_ev(t, "any(x in none(): x > 0)", "false");
    tvm_free(t);
}
END_TEST

/* The fewest step budget under which e answers on program src (untraced: hon_eval_as with no
 * form of the trace; traced: hon_eval). */
static unsigned long fewest_steps(const char *src, const char *e, bool traced)
{
    unsigned long lo = 1, hi = 1 << 16;
    while (lo + 1 < hi) {
        unsigned long mid = (lo + hi) / 2;
        tvm *v = tvm_new_cfg(src, mid, 0);
        hon_answer *a = NULL;
        hon_status st =
            traced ? hon_eval(v->vm, e, "<test>", &a) : hon_eval_as(v->vm, e, "<test>", 0, &a);
        hon_answer_free(a);
        tvm_free(v);
        if (st == HON_OK)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* A `min` or `max` aggregate's step is one AGG_MIN or AGG_MAX when the loop goes on, the plain
 * code after it when a member decides (tests/golden/bytecode/aggregate_min.expected lists both):
 * either way the steps are the plain code's. Worked out from that listing: two lists of one
 * length run the same code up to the last item's JUMP_IF_EQ_S (the lists are built alike);
 * there `blocked` decides and jumps to the final GET_LOCAL, while `obscured` goes on through
 * the FOR_BACK that finds no item (2 steps), GET_LOCAL and JUMP_IF_TRUE (1 each) to that same
 * GET_LOCAL: 4 steps more. The first item (local b still false) and a later one (the MIN
 * taken) alike; traced (plain chunks, one by one) and untraced the same. */
START_TEST(aggregate_steps_are_the_plain_codes)
{
    const char *src = "enum sight { blocked, obscured, clear }\n"
                      "fn worst(l: list<sight>) -> sight = min(v in l: v);\n"
                      "fn best(l: list<sight>) -> sight = max(v in l: v);\n";
    const struct {
        const char *on, *decided;
    } pairs[] = {
        { "worst([obscured])", "worst([blocked])" },
        { "worst([clear, clear, obscured])", "worst([clear, clear, blocked])" },
        { "best([obscured])", "best([clear])" },
        { "best([blocked, obscured, obscured])", "best([blocked, obscured, clear])" },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        for (int traced = 0; traced < 2; traced++) {
            unsigned long on = fewest_steps(src, pairs[i].on, traced),
                          decided = fewest_steps(src, pairs[i].decided, traced);
            ck_assert_msg(on == decided + 4, "%s: %lu steps, %s: %lu (traced %d)", pairs[i].on, on,
                          pairs[i].decided, decided, traced);
        }
    /* and the answers: the least or greatest member, the decision where it is reached */
    tvm *t = tvm_new(src);
    ck_ev(t, "worst([clear, obscured, clear])", "obscured");
    ck_ev(t, "worst([clear, blocked, obscured])", "blocked");
    ck_ev(t, "best([blocked, obscured, blocked])", "obscured");
    ck_ev(t, "best([obscured, clear, blocked])", "clear");
    tvm_free(t);
}
END_TEST

static const char *tables_src =
    "enum weather { storm, cloudy, clear }\nenum level { A, B, E }\nenum map { map_a, map_b }\n"
    "table air(w: weather) -> (interdiction: level, recon: int, support: int)\n"
    "  cite \"T.air\" source \"Test air table\"\n{\n  storm  => E, 0, 0;\n  cloudy => B, ?, ?;\n"
    "  clear  => A, 20, 35  cite \"T.air.clear\";\n}\n"
    "table effect(l: level, m: map) -> int {\n  A, map_a => -1; A, map_b => -2;\n"
    "  B, map_a => 0;  B, map_b => -1;\n  E, map_a => 0;  E, map_b => 0;\n"
    "}\ntable losses(n: int floor) -> (cancels: set<map>, support: int) {\n"
    "  20 => {map_a, map_b}, -4;\n  10 => {map_a}, -2;\n"
    "}\ntable exact(n: int) -> bool { 1 => true; 3 => false; }\n"
    "source \"T.air\" = \"Test air table\"; source \"T.air.clear\";\n";

START_TEST(tables)
{
    tvm *t = tvm_new(tables_src);
    ck_ev(t, "air[clear].support", "35");
    ck_ev(t, "air[storm].interdiction", "E");
    ck_ev(t, "air[cloudy].interdiction", "B");
    ck_ev(t, "effect[A, map_b]", "-2");
    ck_ev(t, "effect[air[clear].interdiction, map_a]", "-1");
    /* the whole row as a record */
    ck_ev(t, "air[clear]", "air{interdiction: A, recon: 20, support: 35}");
    /* floor keys: the greatest key not above the argument (rows were given out of order) */
    ck_ev(t, "losses[10].support", "-2");
    ck_ev(t, "losses[19].support", "-2");
    ck_ev(t, "losses[20].cancels", "{map_a, map_b}");
    ck_ev(t, "losses[1000].support", "-4");
    ck_ev(t, "exact[3]", "false");
    tvm_free(t);
}
END_TEST

/* A comparison whose value is kept, and `in`, with the operands' types known to the compiler
 * (EQ_S, NE_S, IN_SET between scalars and over sets; EQ, NE, IN over lists: vm.md §3): the
 * answers the operators' definitions give (language.md §4), whichever instruction runs. */
START_TEST(typed_comparisons_kept)
{
    tvm *t = tvm_new(tables_src);
    ck_ev(t, "[storm == storm, storm != cloudy, 3 == 4, 3 != 3]", "[true, true, false, false]");
    ck_ev(t, "let s = losses[10].cancels; [map_a in s, map_b in s]", "[true, false]");
    ck_ev(t, "[map_b in losses[20].cancels, 2 in [1, 2], 5 in [1, 2]]", "[true, true, false]");
    ck_ev(t, "[[1, 2] == [1, 2], [1] != [1, 2]]", "[true, true]");
    tvm_free(t);
}
END_TEST

START_TEST(table_errors)
{
    tvm *t = tvm_new(tables_src);
    /* reading a `?` cell: E201 naming table, row, column and citation */
    ck_ev(t, "air[cloudy].recon", "E201");
    ck_assert_ptr_nonnull(strstr(t->log, "table `air`, row (cloudy), column `recon`"));
    ck_assert_ptr_nonnull(strstr(t->log, "T.air (Test air table)"));
    /* a row read whole keeps `?` cells until one is read */
    ck_ev(t, "air[cloudy].interdiction", "B");
    ck_ev(t, "let r = air[cloudy]; r.interdiction", "B");
    ck_ev(t, "let r = air[cloudy]; r.support", "E201");
    /* equality reads fields in order and stops at the first difference: cloudy and clear
     * differ in interdiction (B, A) before any `?` is reached; comparing cloudy with itself
     * must read its `?` cells */
    ck_ev(t, "air[cloudy] == air[clear]", "false");
    ck_ev(t, "air[cloudy] == air[cloudy]", "E201");
    /* a row with its own citation names that one */
    ck_ev(t, "exact[2]", "E202");
    ck_assert_ptr_nonnull(strstr(t->log, "table `exact` has no row for (2)"));
    /* below the smallest floor key */
    ck_ev(t, "losses[9].support", "E202");
    tvm_free(t);
}
END_TEST

START_TEST(records_and_sets)
{
    tvm *t = tvm_new("token numbered: int;\ntoken opportunity;\n"
                     "record order { kind: token, number: int }\n"
                     "fn numbered(n: int) -> order = order{kind: numbered, number: n};\n"
                     "enum m { a, b, c }\nfn both(x: m, y: m) -> set<m> = {x, y};\n");
    ck_ev(t, "numbered(3)", "order{kind: numbered, number: 3}");
    ck_ev(t, "numbered(3).number + 1", "4");
    ck_ev(t, "numbered(3).kind == opportunity", "false");
    /* field order in a literal does not matter */
    ck_ev(t, "order{number: 3, kind: numbered} == numbered(3)", "true");
    ck_ev(t, "numbered(3) != numbered(4)", "true");
    ck_ev(t, "both(c, a)", "{a, c}");
    ck_ev(t, "both(b, b) == {b}", "true");
    ck_ev(t, "[numbered(1), numbered(2)]",
          "[order{kind: numbered, number: 1}, order{kind: numbered, number: 2}]");
    ck_ev(t, "[[1], [2, 3]] == [[1], [2, 3]]", "true");
    ck_ev(t, "[1, 2] == [1, 2, 3]", "false");
    tvm_free(t);
}
END_TEST

static const char *units_src = "kind infantry;\nkind heavy_vehicle;\nside allies;\nside axis;\n"
                               "ability machine_gunner;\nability anti_aircraft: int;\n"
                               "marker suppressed;\nmarker activated;\n"
                               "value defense;\nvalue side_defense;\n"
                               "counter sherman \"M4 Sherman\" : heavy_vehicle {\n"
                               "  side allies\n  size 2\n  defense 5\n"
                               "  abilities { machine_gunner, anti_aircraft 1 }\n"
                               "  markers { suppressed 2 }\n}\ncounter ghost : infantry { }\n";

START_TEST(units)
{
    tvm *t = tvm_new(units_src);
    ck_ev(t, "sherman.kind", "heavy_vehicle");
    ck_ev(t, "sherman.kind == heavy_vehicle", "true");
    ck_ev(t, "sherman.side", "allies");
    ck_ev(t, "sherman.size + ghost.size", "3");
    ck_ev(t, "sherman.defense", "5");
    ck_ev(t, "has(sherman, machine_gunner) and has(sherman, suppressed)", "true");
    ck_ev(t, "has(sherman, activated) or has(ghost, machine_gunner)", "false");
    ck_ev(t, "ability_value(sherman, anti_aircraft)", "1");
    ck_ev(t, "ability_value(ghost, anti_aircraft)", "0");
    ck_ev(t, "marker_count(sherman, suppressed)", "2");
    ck_ev(t, "sherman", "sherman");
    /* values not given: E204 naming the counter and the value */
    ck_ev(t, "sherman.side_defense", "E204");
    ck_assert_ptr_nonnull(strstr(t->log, "counter `sherman` gives no value `side_defense`"));
    ck_ev(t, "ghost.side", "E204");
    tvm_free(t);
}
END_TEST

/* One query per combine mode, each with rules that do and do not fire. */
static const char *modes_src =
    "query f(x: int) -> int combine first default -1;\n"
    "rule f.big cite \"F.1\" when x > 10 answer 100;\n"
    "rule f.mid cite \"F.2\" when x > 5 answer 50;\n"
    "rule f.also_mid cite \"F.3\" when x > 5 answer 51;\nquery nf(x: int) -> int combine first;\n"
    "rule nf.pos cite \"NF\" when x > 0 answer x;\nquery s(x: int) -> int combine sum default 1;\n"
    "rule s.a cite \"S.a\" when x > 0 answer 10;\nrule s.b cite \"S.b\" when x > 1 answer 20;\n"
    "rule s.c cite \"S.c\" when x > 2 answer -5;\nquery s0(x: int) -> int combine sum;\n"
    "rule s0.a cite \"S0\" when x > 0 answer x;\nquery lo(x: int) -> int combine min default 99;\n"
    "rule lo.a cite \"L.a\" when x > 0 answer 7;\nrule lo.b cite \"L.b\" when x > 1 answer 3;\n"
    "rule lo.c cite \"L.c\" answer 5;\nquery hi(x: int) -> int combine max;\n"
    "rule hi.a cite \"H.a\" when x > 0 answer 7;\nrule hi.b cite \"H.b\" when x > 1 answer 30;\n"
    "query al(x: int) -> bool combine all;\nrule al.a cite \"A.a\" when x > 0 answer x < 100;\n"
    "rule al.b cite \"A.b\" when x > 1 answer x != 5;\nquery an(x: int) -> bool combine any;\n"
    "rule an.a cite \"N.a\" when x > 0 answer x == 3;\nrule an.b cite \"N.b\" answer x == 4;\n"
    "query may(x: int) -> verdict combine permission;\n"
    "rule may.no_neg cite \"P.1\" when x < 0 answer forbid;\n"
    "rule may.no_big cite \"P.2\" when x > 100 answer forbid;\n"
    "rule may.except cite \"P.3\" when x == -7 answer permit;\n"
    "source \"F.1\"; source \"F.2\"; source \"F.3\"; source \"NF\"; source \"S.a\";\n"
    "source \"S.b\"; source \"S.c\"; source \"S0\"; source \"L.a\"; source \"L.b\";\n"
    "source \"L.c\"; source \"H.a\"; source \"H.b\"; source \"A.a\"; source \"A.b\";\n"
    "source \"N.a\"; source \"N.b\"; source \"P.1\"; source \"P.2\"; source \"P.3\";\n";

START_TEST(combine_modes)
{
    tvm *t = tvm_new(modes_src);
    /* first: rule order decides; the default when none fires */
    ck_ev(t, "f(11)", "100");
    ck_ev(t, "f(6)", "50"); /* f.mid comes before f.also_mid */
    ck_ev(t, "f(1)", "-1");
    /* first without default and no rule firing: E203 */
    ck_ev(t, "nf(2)", "2");
    ck_ev(t, "nf(0)", "E203");
    /* sum: default plus every firing answer: 1 + 10 + 20 - 5 = 26; 1 + 10 = 11; 1 */
    ck_ev(t, "s(3)", "26");
    ck_ev(t, "s(1)", "11");
    ck_ev(t, "s(0)", "1");
    ck_ev(t, "s0(0)", "0"); /* no default: 0 */
    /* min: the least firing answer (lo.c always fires with 5): x=2 -> min(7,3,5)=3 */
    ck_ev(t, "lo(2)", "3");
    ck_ev(t, "lo(1)", "5");
    ck_ev(t, "lo(0)", "5");
    /* max without default: E203 when none fires */
    ck_ev(t, "hi(2)", "30");
    ck_ev(t, "hi(1)", "7");
    ck_ev(t, "hi(0)", "E203");
    /* all: true unless a firing rule says false */
    ck_ev(t, "al(3)", "true");
    ck_ev(t, "al(5)", "false");
    ck_ev(t, "al(200)", "false");
    ck_ev(t, "al(0)", "true");
    /* any: true if a firing rule says true */
    ck_ev(t, "an(3)", "true");
    ck_ev(t, "an(4)", "true");
    ck_ev(t, "an(5)", "false");
    /* permission: forbid wins unless an explicit permit fires */
    ck_ev(t, "may(5)", "permit");
    ck_ev(t, "may(-1)", "forbid");
    ck_ev(t, "may(101)", "forbid");
    ck_ev(t, "may(-7)", "permit");
    tvm_free(t);
}
END_TEST

START_TEST(priority_order)
{
    /* Without priority, declaration order; `priority 5` moves a later rule first. */
    tvm *t = tvm_new("query q() -> int combine first;\nrule q.one cite \"X\" answer 1;\n"
                     "rule q.two priority 5 cite \"X\" answer 2;\n"
                     "rule q.three priority 5 cite \"X\" answer 3;\n"
                     "rule q.low priority -1 cite \"X\" answer 4;\nsource \"X\";\n");
    ck_ev(t, "q()", "2"); /* two and three tie at 5: declaration order */
    tvm_free(t);
}
END_TEST

START_TEST(queries_call_queries)
{
    tvm *t = tvm_new("query base(x: int) -> int combine first default 0;\n"
                     "rule base.r cite \"B\" when x > 0 answer x * 2;\n"
                     "query top(x: int) -> int combine sum;\n"
                     "rule top.a cite \"T.a\" answer base(x) + 1;\n"
                     "rule top.b cite \"T.b\" when base(x) > 4 answer 100;\n"
                     "fn twice(x: int) -> int = top(x) + top(x);\n"
                     "source \"B\"; source \"T.a\"; source \"T.b\";\n");
    /* top(3): base(3)=6 -> top.a 7; base(3)=6 > 4 -> top.b 100; sum 107 */
    ck_ev(t, "top(3)", "107");
    ck_ev(t, "top(1)", "3"); /* base(1)=2: 3, and top.b does not fire */
    ck_ev(t, "twice(1)", "6");
    tvm_free(t);
}
END_TEST

START_TEST(rule_lets)
{
    tvm *t = tvm_new("query q(x: int) -> int combine first default 0;\nrule q.r cite \"X\"\n"
                     "  let y = x * 2;\n  let z = y + 1;\n  when z > 5 answer y * z;\n"
                     "source \"X\";\n");
    ck_ev(t, "q(3)", "42"); /* y = 6, z = 7: 6 * 7 */
    ck_ev(t, "q(2)", "0");  /* z = 5, not > 5 */
    tvm_free(t);
}
END_TEST

static const char *editions_src =
    "query q(x: int) -> int combine sum;\nrule q.base cite \"B\" answer 1;\n"
    "rule q.old cite \"O\" answer 10;\nrule q.gone cite \"G\" answer 100;\n"
    "edition printed \"as printed\";\nedition errata extends printed \"errata\" {\n"
    "  replace rule q.old cite \"O2\" answer 20;\n  remove rule q.gone;\n"
    "  rule q.added cite \"A\" answer 1000;\n}\n"
    "edition more extends errata {\n  remove rule q.added;\n}\ndefault edition printed;\n"
    "source \"B\"; source \"O\"; source \"G\"; source \"O2\"; source \"A\";\n";

START_TEST(editions)
{
    tvm *t = tvm_new(editions_src);
    ck_assert_str_eq(hon_edition(t->vm), "printed");
    ck_ev(t, "q(0)", "111"); /* 1 + 10 + 100 */
    ck_assert_int_eq(hon_set_edition(t->vm, "errata"), HON_OK);
    ck_ev(t, "q(0)", "1021"); /* 1 + 20 + 1000; gone removed */
    ck_assert_int_eq(hon_set_edition(t->vm, "more"), HON_OK);
    ck_ev(t, "q(0)", "21"); /* inherits errata, then drops added */
    ck_assert_int_eq(hon_set_edition(t->vm, "nope"), HON_ERR_NOT_FOUND);
    ck_ev(t, "q(0)", "21"); /* unchanged */
    ck_assert_int_eq(hon_set_edition(t->vm, NULL), HON_OK);
    ck_ev(t, "q(0)", "111"); /* back to the default */
    tvm_free(t);
}
END_TEST

START_TEST(edition_replace_keeps_position)
{
    /* A replacement takes the place of the rule it replaces in rule order. */
    tvm *t = tvm_new("query q() -> int combine first;\nrule q.a cite \"X\" when false answer 1;\n"
                     "rule q.b cite \"X\" answer 2;\n"
                     "edition e {\n  replace rule q.a cite \"X\" answer 3;\n}\nsource \"X\";\n");
    ck_ev(t, "q()", "2");
    ck_assert_int_eq(hon_set_edition(t->vm, "e"), HON_OK);
    ck_ev(t, "q()", "3");
    tvm_free(t);
}
END_TEST

START_TEST(variants)
{
    tvm *t = tvm_new("variant rows \"how rows add up\" {\n"
                     "  reading highest \"the highest row\" default;\n"
                     "  reading cumulative \"every row\";\n}\n"
                     "fn total() -> int = if variant rows == cumulative then 6 else 4;\n"
                     "edition cum { set variant rows = cumulative; }\n");
    ck_ev(t, "total()", "4");
    ck_ev(t, "variant rows", "highest");
    ck_assert_int_eq(hon_set_variant(t->vm, "rows", "cumulative"), HON_OK);
    ck_ev(t, "total()", "6");
    ck_assert_int_eq(hon_set_variant(t->vm, "rows", "nope"), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(hon_set_variant(t->vm, "nope", "x"), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(hon_set_variant(t->vm, "rows", NULL), HON_OK);
    ck_ev(t, "total()", "4");
    /* an edition may set a variant; the user's choice still wins */
    ck_assert_int_eq(hon_set_edition(t->vm, "cum"), HON_OK);
    ck_ev(t, "total()", "6");
    ck_assert_int_eq(hon_set_variant(t->vm, "rows", "highest"), HON_OK);
    ck_ev(t, "total()", "4");
    tvm_free(t);
}
END_TEST

START_TEST(step_budget)
{
    /* With a deep call limit, an endless recursion runs out of steps (E207, naming the fn). */
    tvm *t = tvm_new_cfg("fn loop(n: int) -> int = loop(n + 1);\n", 10000, 100000);
    ck_ev(t, "loop(0)", "E207");
    ck_assert_ptr_nonnull(strstr(t->log, "step budget exhausted"));
    ck_assert_ptr_nonnull(strstr(t->log, "fn loop"));
    /* a long loop without recursion hits it too: 10000 steps cannot sum 100000 items */
    ck_ev(t, "sum(x in roll 1000 d6: sum(y in roll 1000 d6: 1))", "E207");
    tvm_free(t);
}
END_TEST

/* The caps of docs/spec/errors.md E229 and E230, set through hon_set_cap: a list built at run
 * time over the list cap, and values past the session's memory cap, each stop the evaluation at
 * the expression that asked; the session goes on. */
START_TEST(list_and_memory_caps)
{
    tvm *t = tvm_new("fn grow(l: list<int>, n: int) -> list<int> =\n"
                     "  if n == 0 then l else grow(l ++ l, n - 1);\n");
    /* the defaults */
    ck_assert_uint_eq(hon_cap_value(t->vm, HON_CAP_STEPS), 10000000);
    ck_assert_uint_eq(hon_cap_value(t->vm, HON_CAP_DEPTH), 200);
    ck_assert_uint_eq(hon_cap_value(t->vm, HON_CAP_LIST), 1000000);
    ck_assert_uint_eq(hon_cap_value(t->vm, HON_CAP_MEMORY), (uint64_t)1 << 30);
    /* grow doubles a list n times: 2^5 = 32 items fit a cap of 32, 2^6 = 64 do not; the ++
     * that would make them is at line 2, column 30 */
    ck_assert_int_eq(hon_set_cap(t->vm, HON_CAP_LIST, 32), HON_OK);
    ck_ev(t, "len(grow([1], 5))", "32");
    ck_ev(t, "len(grow([1], 6))", "E229");
    ck_assert_uint_eq(t->d[0].line, 2);
    ck_assert_uint_eq(t->d[0].col, 30);
    /* a comprehension grows its list one item at a time: the 33rd is refused */
    ck_ev(t, "len([x for x in grow([1], 5) ++ [1]])", "E229");
    ck_ev(t, "len([x for x in grow([1], 5)])", "32");
    ck_assert_int_eq(hon_set_cap(t->vm, HON_CAP_LIST, 0), HON_OK);
    /* 2^19 items take 8 MiB of values (16 bytes each), over a 4 MiB cap: E230, at the ++ */
    ck_assert_int_eq(hon_set_cap(t->vm, HON_CAP_MEMORY, (uint64_t)4 << 20), HON_OK);
    ck_ev(t, "len(grow([1], 19))", "E230");
    ck_assert_uint_eq(t->d[0].line, 2);
    ck_assert_uint_eq(t->d[0].col, 30);
    ck_assert_ptr_nonnull(strstr(t->log, "memory cap (4 MiB)"));
    ck_ev(t, "len(grow([1], 10))", "1024");
    /* a load over the cap stops at line 1 of its text and leaves the program as it was */
    size_t n = 200000 * 8;
    char *big = malloc(n + 1);
    ck_assert_ptr_nonnull(big);
    for (size_t i = 0; i < n; i += 8)
        memcpy(big + i, "fn f() ", 8);
    big[n] = '\0';
    tvm_clear(t);
    ck_assert_int_eq(hon_load_source(t->vm, "big.hon", big, n), HON_ERR_MEMORY);
    ck_assert(t->ndiags >= 1 && t->d[t->ndiags - 1].code == 230 &&
              strcmp(t->d[t->ndiags - 1].path, "big.hon") == 0 && t->d[t->ndiags - 1].line == 1);
    free(big);
    ck_assert_int_eq(hon_set_cap(t->vm, HON_CAP_MEMORY, 0), HON_OK);
    ck_ev(t, "len(grow([1], 19))", "524288");
    /* out of range: depth over 1,000, memory under 1 MiB */
    ck_assert_int_eq(hon_set_cap(t->vm, HON_CAP_DEPTH, 1001), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(hon_set_cap(t->vm, HON_CAP_MEMORY, 1000), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(hon_set_cap(NULL, HON_CAP_STEPS, 1), HON_ERR_NOT_FOUND);
    tvm_free(t);
}
END_TEST

START_TEST(depth_limit)
{
    /* Default limits: the depth limit (200) comes before the 10,000,000-step budget. */
    tvm *t = tvm_new("fn loop(n: int) -> int = loop(n + 1);\n"
                     "fn down(n: int) -> int = if n == 0 then 0 else 1 + down(n - 1);\n"
                     "query qq(n: int) -> int combine first;\n"
                     "rule qq.r cite \"X\" answer qq(n + 1);\nsource \"X\";\n");
    ck_ev(t, "loop(0)", "E206");
    ck_assert_ptr_nonnull(strstr(t->log, "call depth limit (200)"));
    ck_ev(t, "down(150)", "150");
    ck_ev(t, "down(250)", "E206");
    ck_ev(t, "qq(0)", "E206");
    tvm_free(t);
}
END_TEST

START_TEST(dice)
{
    tvm *t = tvm_new(NULL);
    for (int i = 0; i < 50; i++) {
        const char *r = ev(t, "roll d6");
        int v = atoi(r);
        ck_assert_msg(v >= 1 && v <= 6, "die gave %s", r);
    }
    ck_ev(t, "len(roll 5 d6)", "5");
    ck_ev(t, "all(x in roll 20 d6: x >= 1 and x <= 6)", "true");
    ck_ev(t, "roll (0 - 1) d6", "E211");
    ck_ev(t, "roll 1001 d6", "E211");
    ck_ev(t, "len(roll 0 d6)", "0");
    /* the same seed gives the same rolls */
    hon_set_seed(t->vm, 7);
    char first[8192];
    snprintf(first, sizeof first, "%s", ev(t, "roll 10 d6"));
    hon_set_seed(t->vm, 7);
    ck_ev(t, "roll 10 d6", first);
    tvm_free(t);
}
END_TEST

START_TEST(traces)
{
    tvm *t =
        tvm_new("query inner(x: int) -> int combine first default 0;\n"
                "rule inner.pos cite \"I.1\" source \"Book 1\" example \"A\" when x > 0 answer x;\n"
                "query outer(x: int) -> int combine sum;\n"
                "rule outer.a cite \"O.1\" answer inner(x) + 1;\n"
                "rule outer.never cite \"O.2\" when inner(x) > 100 answer 5;\n"
                "source \"I.1\" = \"Book 1\"; source \"O.1\"; source \"O.2\";\n");
    const char *tr = why(t, "outer(2)");
    /* outer(2) = inner(2)+1 = 3; outer.never consulted inner but did not fire: it is listed
     * as checked, without what its guard asked, but with why: its guard inner(x) > 100 was
     * false, inner(2) being 2 (the literal 100 is not repeated) */
    ck_assert_str_eq(tr, "outer(2) = 3   [sum]\n  rule outer.a: 3   (O.1)\n"
                         "    inner(2) = 2   [first]\n"
                         "      rule inner.pos: 2   (I.1: Book 1, example \"A\")\n"
                         "  rule outer.never: did not fire: inner(x) > 100 was false "
                         "(inner(x) = 2)   (O.2)\n");
    /* inner(0): pos's guard 0 > 0 is false, so the default answers, and says so */
    tr = why(t, "inner(0)");
    ck_assert_str_eq(tr, "inner(0) = 0   [first]\n"
                         "  rule inner.pos: did not fire: x > 0 was false (x = 0)   (I.1: Book "
                         "1, example \"A\")\n"
                         "  default: 0 (no rule fired; checked pos)\n");
    tvm_free(t);
}
END_TEST

START_TEST(trace_json)
{
    tvm *t = tvm_new("query q(x: int) -> int combine first;\n"
                     "rule q.r cite \"Q \\\"1\\\"\" answer x;\nsource \"Q \\\"1\\\"\";\n");
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_eval(t->vm, "q(4)", "<test>", &a), HON_OK);
    ck_assert_str_eq(
        hon_answer_json(a),
        "{\"edition\": null, \"readings\": {}, \"value\": 4, \"type\": \"int\", \"text\": \"4\", "
        "\"trace\": [{\"query\": \"q\", "
        "\"mode\": \"first\", \"args\": [4], \"result\": 4, \"no_rule_fired\": false, "
        "\"rules\": [{\"rule\": \"q.r\", \"fired\": true, \"answer\": 4, \"cites\": [{\"id\": \"Q "
        "\\\"1\\\"\", \"source\": null, \"example\": null}], \"module\": null, \"edition\": null, "
        "\"guard\": null, \"calls\": []}]}]}"); /* q.r has no guard */
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

START_TEST(huge_values_are_bounded)
{
    /* Sharing makes big values cheap to build: 1000 dice, then 10 copies of it, 10 of that,
     * 10 of that: 10^6 numbers in a dozen instructions. Printing stops at 1 MiB. */
    tvm *t = tvm_new(NULL);
    const char *big = "let a = roll 1000 d6; let b = [a, a, a, a, a, a, a, a, a, a]; "
                      "let c = [b, b, b, b, b, b, b, b, b, b]; [c, c, c, c, c, c, c, c, c, c]";
    hon_answer *ans = NULL;
    ck_assert_int_eq(hon_eval(t->vm, big, "<test>", &ans), HON_OK);
    const char *text = hon_answer_text(ans);
    ck_assert_uint_le(strlen(text), (1u << 20) + 100);
    ck_assert_ptr_nonnull(strstr(text, "... (cut: the value is too long to print)"));
    ck_assert_ptr_nonnull(strstr(hon_answer_json(ans), "\"value\": null, \"truncated\": true"));
    hon_answer_free(ans);
    tvm_free(t);
    /* Comparing such values costs a step per element compared: 10^5 numbers cannot be compared
     * within a budget of 50,000 steps. */
    t = tvm_new_cfg(NULL, 50000, 0);
    ck_ev(t,
          "let a = roll 1000 d6; let b = [a, a, a, a, a, a, a, a, a, a]; "
          "let c = [b, b, b, b, b, b, b, b, b, b]; c == c",
          "E207");
    ck_ev(t, "let a = roll 1000 d6; a == a", "true");
    /* and rolling charges one step per die */
    ck_ev(t, "len(roll 1000 d6) + len(roll 1000 d6)", "2000");
    tvm_free(t);
    t = tvm_new_cfg(NULL, 1500, 0);
    ck_ev(t, "len(roll 1000 d6) + len(roll 1000 d6)", "E207");
    /* `in` a list charges a step per item compared too: 7 is no die's face, so all 1,000 are
     * compared (2,000 steps with the roll: over 1,500), all 400 of a shorter roll (800) */
    ck_ev(t, "let a = roll 1000 d6; 7 in a", "E207");
    ck_ev(t, "let a = roll 400 d6; 7 in a", "false");
    ck_ev(t, "let a = roll 1000 d6; nth(a, 1) in a", "true"); /* found at the first item */
    tvm_free(t);
}
END_TEST

START_TEST(large_programs_resolve_quickly)
{
    /* 20,000 table rows given in reverse order and an edition removing 5,000 of 10,000 rules:
     * sorting and edition look-ups must not be quadratic (this test has a 60 s timeout and
     * takes well under a second). */
    size_t cap = 4 << 20, n = 0;
    char *src = malloc(cap);
    ck_assert_ptr_nonnull(src);
    n += (size_t)snprintf(src + n, cap - n, "table t(k: int floor) -> int {\n");
    for (int i = 20000; i > 0; i--)
        n += (size_t)snprintf(src + n, cap - n, "  %d => %d;\n", i * 10, i);
    n += (size_t)snprintf(src + n, cap - n, "}\nquery q() -> int combine sum;\n");
    n += (size_t)snprintf(src + n, cap - n, "source \"X\";\n");
    for (int i = 0; i < 10000; i++)
        n += (size_t)snprintf(src + n, cap - n, "rule q.r%d cite \"X\" answer 1;\n", i);
    n += (size_t)snprintf(src + n, cap - n, "edition half {\n");
    for (int i = 0; i < 10000; i += 2)
        n += (size_t)snprintf(src + n, cap - n, "  remove rule q.r%d;\n", i);
    n += (size_t)snprintf(src + n, cap - n, "}\n");
    tvm *t = tvm_new(src);
    ck_ev(t, "t[12345]", "1234"); /* greatest key not above 12345 is 12340 */
    ck_ev(t, "q()", "10000");
    ck_assert_int_eq(hon_set_edition(t->vm, "half"), HON_OK);
    ck_ev(t, "q()", "5000");
    tvm_free(t);
    free(src);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("vm");
    TCase *tc = tcase_create("vm");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, arithmetic);
    tcase_add_test(tc, arith_errors);
    tcase_add_test(tc, short_circuit);
    tcase_add_test(tc, aggregates);
    tcase_add_test(tc, empty_min_max);
    tcase_add_test(tc, aggregate_steps_are_the_plain_codes);
    tcase_add_test(tc, tables);
    tcase_add_test(tc, table_errors);
    tcase_add_test(tc, typed_comparisons_kept);
    tcase_add_test(tc, records_and_sets);
    tcase_add_test(tc, units);
    tcase_add_test(tc, combine_modes);
    tcase_add_test(tc, priority_order);
    tcase_add_test(tc, queries_call_queries);
    tcase_add_test(tc, rule_lets);
    tcase_add_test(tc, editions);
    tcase_add_test(tc, edition_replace_keeps_position);
    tcase_add_test(tc, variants);
    tcase_add_test(tc, step_budget);
    tcase_add_test(tc, list_and_memory_caps);
    tcase_add_test(tc, depth_limit);
    tcase_add_test(tc, dice);
    tcase_add_test(tc, traces);
    tcase_add_test(tc, trace_json);
    tcase_add_test(tc, huge_values_are_bounded);
    tcase_add_test(tc, large_programs_resolve_quickly);
    suite_add_tcase(s, tc);
    return check_run(s);
}
