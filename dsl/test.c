/* test.c — pass 3 for `test` blocks: their edition and variant settings, scripted dice and
 * choices, and their items (expect, with the edition of `expect X == A under E`, do, advance,
 * move), each with its local slots.
 *
 * It checks expressions with expr.c and `do` events with body.c; interp/ runs the tests
 * (res_test, model.h). */
#include "resolve_int.h"

/* `dice [..]`: constant faces 1..6 (E165). */
static void test_dice(rctx *c, res_test *t, ast_node *set)
{
    t->has_dice = true;
    if (!set->list.len)
        return;
    t->dice = mem_malloc(set->list.len);
    if (!t->dice) {
        res_oom(c, set->loc);
        return;
    }
    for (uint32_t k = 0; k < set->list.len; k++) {
        ast_node *f = set->list.items[k];
        expr_infer(c, f, T_INT);
        if (f->kind != AST_INT || f->ival < 1 || f->ival > 6) {
            res_err(c, E_DIE, f->loc, "a die face is a number from 1 to 6");
            continue;
        }
        t->dice[t->ndice++] = (uint8_t)f->ival;
    }
}

void test_body(rctx *c, ast_node *d)
{
    res_program *p = c->p;
    if (!PUSH(c, p->tests, p->ntests, p->tests_cap, d->loc))
        return;
    res_test *t = &p->tests[p->ntests++];
    *t = (res_test){ .title = d->title ? d->title : "",
                     .decl = d,
                     .file = d->loc.file,
                     .edition = -1,
                     .board = d->name2 };
    if (d->ref)
        t->edition = edition_named(c, d->ref, d->loc);
    if (p->nvariants) {
        t->variant_set = mem_malloc(p->nvariants * sizeof *t->variant_set);
        if (!t->variant_set) {
            res_oom(c, d->loc);
            return;
        }
        for (size_t i = 0; i < p->nvariants; i++)
            t->variant_set[i] = -1;
    }
    for (uint32_t i = 0; i < d->params.len; i++) {
        ast_node *set = d->params.items[i];
        if (set->kind == AST_TEST_DICE) {
            test_dice(c, t, set);
            continue;
        }
        if (set->kind == AST_TEST_CHOICES) {
            t->choices = set;
            for (uint32_t k = 0; k < set->list.len; k++) {
                scope_begin_body(c);
                expr_infer(c, set->list.items[k], T_NONE);
                if (c->next_slot > t->choices_nlocals)
                    t->choices_nlocals = c->next_slot;
            }
            continue;
        }
        if (set->kind != AST_SET_VARIANT)
            continue; /* the board: t->board */
        int32_t r, v = edition_set_variant(c, set, &r);
        if (v >= 0 && t->variant_set)
            t->variant_set[v] = r;
    }
    if (d->list.len) {
        t->expects = mem_calloc(d->list.len, sizeof *t->expects);
        if (!t->expects) {
            res_oom(c, d->loc);
            return;
        }
    }
    for (uint32_t i = 0; i < d->list.len; i++) {
        ast_node *x = d->list.items[i];
        scope_begin_body(c);
        switch (x->kind) {
        case AST_TEST_DO:
            body_raise_args(c, x->a, &x->a->list);
            t->plays = true;
            break;
        case AST_TEST_ADVANCE: {
            int32_t m = model_find_member(&p->enums[E_PHASE], x->name);
            if (m < 0)
                res_err(c, E_UNKNOWN_NAME, x->loc,
                        "unknown phase `%s` (declare it with `phase %s;`)", x->name ? x->name : "?",
                        x->name ? x->name : "?");
            x->an.sym = m < 0 ? 0 : (uint32_t)m;
            t->plays = true;
            break;
        }
        case AST_TEST_MOVE:
            expr_check(c, x->a, T_UNIT);
            expr_check(c, x->b, type_intern(c, RT_LIST, T_SQUARE, x->loc));
            t->plays = true;
            break;
        default:
            if (x->ival)
                expr_infer(c, x->a, T_NONE);
            else
                expr_check(c, x->a, T_BOOL);
        }
        int32_t ed = x->kind == AST_EXPECT && x->ref
                         ? edition_named(c, x->ref, x->c ? x->c->loc : x->loc)
                         : -1;
        t->expects[t->nexpects++] = (res_expect){ x, c->next_slot, ed };
    }
}
