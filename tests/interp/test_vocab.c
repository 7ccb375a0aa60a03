/* test_vocab.c — the vocabulary lists against the language: every effect of interp/effects.h
 * has a statement that compiles to it, and every built-in of dsl/builtins.h is a name the
 * resolver knows, with its arity, compiled to its opcode or to BOARD with its id. The lists
 * generate the enums, names and tables; these tests hold the parts written by hand (the
 * grammar's statements, the resolver's own typing) to them.
 */
#include "interp_test.h"
#include "play.h"

/* A program whose event `fx` has every operand the statements of effects.h are written with. */
static const char *const FX_RULES =
    "source \"T.fx\" = \"test_vocab.c\";\n"
    "kind infantry; side allies; marker pinned; face wreck; value hp;\n"
    "square_feature rubble; side_feature wire; interspace_item mine;\n"
    "event fx(u: unit, m: marker, n: int, f: face, el: element, sq: square, sq2: square,\n"
    "         t: unit, s: square_side, sf: square_feature, df: side_feature,\n"
    "         i: interspace_item);\n";

/* The listing of `name` (a rule) into buf. */
static const char *listing(tvm *t, const char *name, char *buf, size_t cap)
{
    FILE *m = fmemopen(buf, cap, "w");
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(hon_disassemble(t->vm, name, m), HON_OK);
    fclose(m);
    return buf;
}

START_TEST(every_effect_has_its_statement)
{
    static const struct { const char *name, *statement; uint32_t fewest, most; } fx[] = {
#define EFFECT(name, text, fewest, most, operands, statement, doc) \
        [FX_##name] = { text, statement, fewest, most },
#include "effects.h"
    };
    char src[8192];
    int at = snprintf(src, sizeof src, "%s", FX_RULES);
    for (size_t k = 0; k < FX_COUNT; k++)
        if (fx[k].statement)
            at += snprintf(src + at, sizeof src - (size_t)at,
                           "rule fx.r%zu cite \"T.fx\" do { %s };\n", k, fx[k].statement);
    ck_assert_int_lt(at, (int)sizeof src);
    tvm *t = tvm_new(src);
    for (size_t k = 0; k < FX_COUNT; k++) {
        if (!fx[k].statement) {
            ck_assert_int_eq(k, FX_CLOCK);     /* only the clock has no statement: `next` */
            continue;
        }
        char rule[32], want[64], buf[4096];
        snprintf(rule, sizeof rule, "fx.r%zu", k);
        /* `EFFECT kind n slot  ; name`: the statement's operands, all of them given */
        snprintf(want, sizeof want, " EFFECT %zu %u ", k, fx[k].most);
        const char *l = listing(t, rule, buf, sizeof buf);
        ck_assert_msg(strstr(l, want) && strstr(l, fx[k].name), "%s: want%s(%s) in\n%s",
                      fx[k].statement, want, fx[k].name, l);
    }
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("vocab");
    TCase *tc = tcase_create("vocab");
    tcase_add_test(tc, every_effect_has_its_statement);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
