/* test_vocab.c — the vocabulary lists against the language: every effect of interp/effects.h
 * has a statement that compiles to it, and every built-in of dsl/builtins.h is a name the
 * resolver knows, with its arity, compiled to its opcode or to BOARD with its id. The lists
 * generate the enums, names and tables; these tests hold the parts written by hand (the
 * grammar's statements, the resolver's own typing) to them.
 */
#include "chunk.h"
#include "interp_test.h"
#include "play.h"

/* A program whose event `fx` has every operand the statements of effects.h are written with. */
static const char *const FX_RULES =
    "source \"T.fx\" = \"test_vocab.c\";\n"
    "kind infantry; side allies; marker pinned; face wreck; value hp;\n"
    "square_feature rubble; side_feature wire; interspace_item mine; terrain hay;\n"
    "event fx(u: unit, m: marker, n: int, f: face, el: element, sq: square, sq2: square,\n"
    "         t: unit, s: square_side, sf: square_feature, df: side_feature,\n"
    "         i: interspace_item, tr: terrain);\n";

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
    static const struct {
        const char *name, *statement;
        uint32_t fewest, most;
    } fx[] = {
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
            ck_assert_int_eq(k, FX_CLOCK); /* only the clock has no statement: `next` */
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

/* Every built-in of the list is a call the grammar takes and the resolver knows, with the
 * arity of its entry: four arguments (more than any takes) give E103 naming the right count. */
START_TEST(every_builtin_is_known_with_its_arity)
{
    enum {
#define BTYPE(code, text, own) B_##code,
#include "builtins.h"
    };
    static const struct {
        const char *name;
        int arity;
    } bi[] = {
#define ARITY(p1, p2, p3)                              ((B_##p1 != B_NONE) + (B_##p2 != B_NONE) + (B_##p3 != B_NONE))
#define BUILTIN_OP(id, name, opcode, p1, p2, p3, ...)  { name, ARITY(p1, p2, p3) },
#define BUILTIN_BOARD(id, name, body, p1, p2, p3, ...) { name, ARITY(p1, p2, p3) },
#include "builtins.h"
#undef ARITY
    };
    ck_assert_int_eq(sizeof bi / sizeof bi[0], RES_BI_COUNT);
    tvm *t = tvm_new("kind infantry;");
    for (size_t i = 0; i < RES_BI_COUNT; i++) {
        char call[64], want[96];
        snprintf(call, sizeof call, "%s(0, 0, 0, 0)", bi[i].name);
        snprintf(want, sizeof want, "built-in `%s` takes %d argument%s, not 4", bi[i].name,
                 bi[i].arity, bi[i].arity == 1 ? "" : "s");
        ck_assert_str_eq(ev(t, call), "E103");
        ck_assert_msg(strstr(t->log, want), "%s: want \"%s\" in\n%s", call, want, t->log);
        ck_assert_str_eq(builtin_name((uint32_t)i), bi[i].name);
    }
    tvm_free(t);
}
END_TEST

/* A built-in compiled to an instruction takes its arguments from the stack: the instruction
 * has no operand (compile.c emits it bare). */
START_TEST(builtin_instructions_have_no_operand)
{
    static const op_code ops[] = {
#define BUILTIN_OP(id, name, opcode, ...) OP_##opcode,
#include "builtins.h"
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        ck_assert_msg(op_operands[ops[i]] == 0, "%s has operands", op_names[ops[i]]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("vocab");
    TCase *tc = tcase_create("vocab");
    tcase_add_test(tc, every_effect_has_its_statement);
    tcase_add_test(tc, every_builtin_is_known_with_its_arity);
    tcase_add_test(tc, builtin_instructions_have_no_operand);
    suite_add_tcase(s, tc);
    return check_run(s);
}
