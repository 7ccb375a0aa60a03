/* interp_test.h — helpers shared by the Check tests of tests/interp/: a hon_vm that records
 * its diagnostics, and one-line evaluations that give the answer text or "E205"-style codes.
 *
 * Header-only (static functions). Tests load small inline .hon snippets, never the bundled
 * rule files; expected values come from reasoning written next to each assertion.
 */
#ifndef HON_TESTS_INTERP_TEST_H
#define HON_TESTS_INTERP_TEST_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "hon.h"

#define TVM_MAX_DIAGS 64

typedef struct tvm {
    hon_vm *vm;
    size_t ndiags;
    struct {
        int code;
        unsigned line, col;
        char path[64];
    } d[TVM_MAX_DIAGS];
    char log[16384]; /* every rendered diagnostic, concatenated */
    char last[8192]; /* text of the last evaluation */
} tvm;

static inline void tvm_on_diag(void *ud, const hon_diag *d)
{
    tvm *t = ud;
    if (t->ndiags < TVM_MAX_DIAGS) {
        t->d[t->ndiags].code = d->code;
        t->d[t->ndiags].line = d->line;
        t->d[t->ndiags].col = d->col;
        snprintf(t->d[t->ndiags].path, sizeof t->d[0].path, "%s", d->path);
        t->ndiags++;
    }
    size_t used = strlen(t->log);
    snprintf(t->log + used, sizeof t->log - used, "%s", d->rendered);
}

static inline void tvm_clear(tvm *t)
{
    t->ndiags = 0;
    t->log[0] = '\0';
}

/* A vm with the given budget/depth (0: defaults) and, when src is not NULL, src loaded (the
 * load must succeed). */
static inline tvm *tvm_new_cfg(const char *src, uint64_t budget, unsigned depth)
{
    tvm *t = calloc(1, sizeof *t);
    ck_assert_ptr_nonnull(t);
    hon_config cfg = {
        .on_diag = tvm_on_diag, .userdata = t, .seed = 42, .step_budget = budget, .max_depth = depth
    };
    t->vm = hon_vm_new(&cfg);
    ck_assert_ptr_nonnull(t->vm);
    if (src) {
        hon_status st = hon_load_source(t->vm, "t.hon", src, strlen(src));
        ck_assert_msg(st == HON_OK, "load failed (%s):\n%s", hon_status_text(st), t->log);
    }
    return t;
}

static inline tvm *tvm_new(const char *src)
{
    return tvm_new_cfg(src, 0, 0);
}

static inline void tvm_free(tvm *t)
{
    hon_vm_free(t->vm);
    free(t);
}

/* Evaluates e, traced (hon_eval) or not (hon_eval_as with no form of the trace: vm.md §5a):
 * the answer's text, or "E201" (the code of the first diagnostic) on error. */
static inline const char *ev_as(tvm *t, const char *e, bool traced)
{
    hon_answer *a = NULL;
    tvm_clear(t);
    hon_status st =
        traced ? hon_eval(t->vm, e, "<test>", &a) : hon_eval_as(t->vm, e, "<test>", 0, &a);
    if (st == HON_OK)
        snprintf(t->last, sizeof t->last, "%s", hon_answer_text(a));
    else if (t->ndiags)
        snprintf(t->last, sizeof t->last, "E%03d", t->d[0].code);
    else
        snprintf(t->last, sizeof t->last, "status %s", hon_status_text(st));
    hon_answer_free(a);
    return t->last;
}

/* ev_as, traced: what hon_eval answers. */
static inline const char *ev(tvm *t, const char *e)
{
    return ev_as(t, e, true);
}

/* What `part` gives of the answer to e (must succeed): its trace, brief trace, reasons... */
static inline const char *answer_part(tvm *t, const char *e,
                                      const char *(*part)(const hon_answer *))
{
    hon_answer *a = NULL;
    tvm_clear(t);
    hon_status st = hon_eval(t->vm, e, "<test>", &a);
    ck_assert_msg(st == HON_OK, "eval of %s failed: %s", e, t->log);
    snprintf(t->last, sizeof t->last, "%s", part(a));
    hon_answer_free(a);
    return t->last;
}

/* The trace text of evaluating e (must succeed). */
static inline const char *why(tvm *t, const char *e)
{
    return answer_part(t, e, hon_answer_trace);
}

/* True when a diagnostic with that code was reported at line:col (col 0: any column). */
static inline int has_diag(const tvm *t, int code, unsigned line, unsigned col)
{
    for (size_t i = 0; i < t->ndiags; i++)
        if (t->d[i].code == code && t->d[i].line == line && (col == 0 || t->d[i].col == col))
            return 1;
    return 0;
}

/* Loads src into a fresh vm, requires the load to fail with a diagnostic `code` at line:col. */
#define ck_load_fails(src, code, line, col)                                                     \
    do {                                                                                        \
        tvm *t_ = tvm_new(NULL);                                                                \
        hon_status st_ = hon_load_source(t_->vm, "t.hon", (src), strlen(src));                  \
        ck_assert_msg(st_ == HON_ERR_COMPILE, "expected E%03d, load gave %s", (code),           \
                      hon_status_text(st_));                                                    \
        ck_assert_msg(has_diag(t_, (code), (line), (col)), "expected E%03d at %u:%u, got:\n%s", \
                      (code), (line), (col), t_->log);                                          \
        tvm_free(t_);                                                                           \
    } while (0)

#define ck_ev(t, expr, want) ck_assert_str_eq(ev((t), (expr)), (want))

#endif
