/* test_focus.c — Check tests of interp/focus.c, where two settings of the same rules can part:
 * the queries that can answer differently (through rule sets, fn versions, readings and the
 * calls between rules, fns and queries), those that can run a rule named, and the vocabulary
 * the rules where they part read (through their fns, and one step further through a query
 * over the vocabulary). Every expected value is worked out in a comment from the rules below.
 */
#include "focus.h"
#include "interp_test.h"

/* Made-up rules (not the game's). The variant `dark` is read by the fn gloom, which the rule
 * sight.dark calls; view calls sight; cover reads nothing that differs. The edition `hard`
 * replaces cover's rule and revises the fn step_cost, which toll calls. The trait `hole` is
 * given to trench by traits' rules; sight.hole reads it, and the feature mound through the fn
 * on_mound. */
static const char *const RULES =
    "kind infantry;\nkind vehicle;\nside allies;\n"
    "terrain open; terrain trench; terrain woods;\n"
    "square_feature mound; square_feature ford;\n"
    "side_feature wall; side_feature hedge;\n"
    "counter rifle: infantry { side allies }\n"
    "enum trait { hole, obstacle }\n"
    "variant dark \"D\" { reading no default; reading yes; }\n"
    "query traits(t: terrain) -> set<trait> combine first default {};\n"
    "rule traits.trench cite \"T\" when t == trench answer {hole};\n"
    "rule traits.woods cite \"T\" when t == woods answer {obstacle};\n"
    "fn gloom() -> bool = variant dark == yes;\n"
    "fn on_mound(sq: square) -> bool = has_feature(sq, mound);\n"
    "query sight(a: square, b: square) -> bool combine any;\n"
    "rule sight.dark cite \"T\" when gloom() answer true;\n"
    "rule sight.hole cite \"T\" when hole in traits(terrain(a)) and on_mound(b) answer true;\n"
    "query view(u: unit, v: unit) -> bool combine any;\n"
    "rule view.sight cite \"T\" when sight(square_of(u), square_of(v)) answer true;\n"
    "query cover(t: terrain) -> int combine first default 0;\n"
    "rule cover.woods cite \"T\" when t == woods answer 1;\n"
    "fn step_cost() -> int = 1;\n"
    "query toll(u: unit) -> int combine first default step_cost();\n"
    "query walls(u: unit, sq: square) -> bool combine any;\n"
    "rule walls.vehicle cite \"T\" when u.kind == vehicle and "
    "any(sd in sides_of(sq): side_has(sd, wall)) answer true;\n"
    "edition base \"B\";\n"
    "edition hard extends base \"H\" {\n"
    "  replace rule cover.woods cite \"T\" when t == woods answer 2;\n"
    "  revise fn step_cost() -> int = 2;\n}\n"
    "default edition base;\nsource \"T\";\n";

/* Two copies of the rules, under settings sa and sb; the focus of the two (rules named:
 * rules[0..n)). */
typedef struct pair {
    tvm *t;
    hon_vm *a, *b;
    focus f;
} pair;

static void pair_open(pair *p, const char *sa, const char *sb, const char *const *rules, size_t n)
{
    p->t = tvm_new(RULES);
    p->a = hon_vm_copy(p->t->vm);
    p->b = hon_vm_copy(p->t->vm);
    ck_assert_ptr_nonnull(p->b);
    ck_assert_int_eq(hon_apply_setting(p->a, sa, "<t>"), HON_OK);
    ck_assert_int_eq(hon_apply_setting(p->b, sb, "<t>"), HON_OK);
    ck_assert_int_eq(focus_build(&p->f, p->a, p->b, rules, n), HON_OK);
}

static void pair_close(pair *p)
{
    focus_free(&p->f);
    hon_vm_free(p->a);
    hon_vm_free(p->b);
    tvm_free(p->t);
}

/* Whether the focus has query `name` as able to differ. */
static bool can_differ(const pair *p, const char *name)
{
    int32_t q = model_find_query(p->f.p, name);
    ck_assert_int_ge(q, 0);
    return focus_query(&p->f, (uint32_t)q);
}

/* Asserts that the rules targeted read member `yes` of vocabulary list `list` (none when NULL)
 * and not member `no`. */
static void reads(const pair *p, int list, const char *yes, const char *no)
{
    ck_assert_msg(!yes || focus_reads(&p->f, list, yes), "%s is read", yes);
    ck_assert_msg(!focus_reads(&p->f, list, no), "%s is not read", no);
}

START_TEST(a_reading)
{
    /* dark = yes: gloom reads it, sight.dark calls gloom, view.sight calls sight. traits,
     * cover, toll and walls call none of them. */
    pair p;
    pair_open(&p, "base", "base,dark=yes", NULL, 0);
    ck_assert(can_differ(&p, "sight") && can_differ(&p, "view"));
    ck_assert(!can_differ(&p, "traits") && !can_differ(&p, "cover") && !can_differ(&p, "toll") &&
              !can_differ(&p, "walls"));
    /* The rules where they part: sight.dark (it calls gloom) and view.sight (it calls sight);
     * not sight.hole, which calls nothing that differs. They read no member of the
     * vocabulary: no terrain, feature or kind. */
    reads(&p, FOCUS_SQUARE, NULL, "mound");
    reads(&p, FOCUS_TERRAIN, NULL, "trench");
    pair_close(&p);
}
END_TEST

START_TEST(an_edition)
{
    /* hard replaces cover's rule (its rule set differs) and revises step_cost, which toll's
     * default calls; sight, view, traits and walls are the same. */
    pair p;
    pair_open(&p, "base", "hard", NULL, 0);
    ck_assert(can_differ(&p, "cover") && can_differ(&p, "toll"));
    ck_assert(!can_differ(&p, "sight") && !can_differ(&p, "view") && !can_differ(&p, "traits") &&
              !can_differ(&p, "walls"));
    /* cover.woods (both versions: in one edition's set and not the other's) reads woods */
    reads(&p, FOCUS_TERRAIN, "woods", "trench");
    reads(&p, FOCUS_TERRAIN, NULL, "open");
    pair_close(&p);
}
END_TEST

START_TEST(rules_named)
{
    /* Naming sight.hole: the queries that can run it are sight and view (through view.sight),
     * and of those, under dark = yes, both can differ; cover cannot run it. What sight.hole
     * reads: the trait hole (and traits, a query, is not followed), the feature mound through
     * on_mound; one step further, traits(t: terrain) is a query over terrain whose rule
     * traits.trench holds hole: trench. Not woods (traits.woods holds obstacle, which
     * sight.hole does not read), not ford, no side feature, no kind. */
    const char *named[] = { "sight.hole" };
    pair p;
    pair_open(&p, "base", "base,dark=yes", named, 1);
    ck_assert(can_differ(&p, "sight") && can_differ(&p, "view") && !can_differ(&p, "cover"));
    reads(&p, FOCUS_SQUARE, "mound", "ford");
    reads(&p, FOCUS_TERRAIN, "trench", "woods");
    reads(&p, FOCUS_SIDE, NULL, "wall");
    reads(&p, FOCUS_KIND, NULL, "vehicle");
    pair_close(&p);
    /* Naming walls.vehicle under hard: walls can run it, but hard changes nothing walls
     * reads: no query can differ. What it reads: the side feature wall and the kind vehicle. */
    const char *walls[] = { "walls.vehicle" };
    pair_open(&p, "base", "hard", walls, 1);
    ck_assert(!can_differ(&p, "walls") && !can_differ(&p, "cover") && !can_differ(&p, "toll"));
    reads(&p, FOCUS_SIDE, "wall", "hedge");
    reads(&p, FOCUS_KIND, "vehicle", "infantry");
    pair_close(&p);
}
END_TEST

START_TEST(the_same_setting)
{
    /* a setting against itself: nothing can differ */
    pair p;
    pair_open(&p, "hard,dark=yes", "hard,dark=yes", NULL, 0);
    for (size_t q = 0; q < p.f.nq; q++)
        ck_assert(!focus_query(&p.f, (uint32_t)q));
    pair_close(&p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("focus");
    TCase *tc = tcase_create("focus");
    tcase_add_test(tc, a_reading);
    tcase_add_test(tc, an_edition);
    tcase_add_test(tc, rules_named);
    tcase_add_test(tc, the_same_setting);
    suite_add_tcase(s, tc);
    return check_run(s);
}
