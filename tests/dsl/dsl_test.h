/* dsl_test.h — helpers shared by the Check tests of tests/dsl/: parse a snippet and dump it.
 *
 * Each helper parses with front_parse_file / front_parse_expr (dsl/front.h) against a fresh
 * source table and returns a new malloc'd string (caller frees): the ast_dump of every
 * declaration, one per line, or the rendered diagnostics. Header-only, static functions.
 */
#ifndef HON_TESTS_DSL_TEST_H
#define HON_TESTS_DSL_TEST_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"

typedef struct parsed {
    diag_sources src;
    diag_list diags;
    ast_file *f;
    ast_node *expr;
} parsed;

static inline parsed *parse_text(const char *text, bool expr)
{
    parsed *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    size_t len = strlen(text);
    diag_list_init(&p->diags, &p->src);
    uint32_t id = diag_sources_add(&p->src, "t.hon", text, len);
    if (expr)
        p->f = front_parse_expr("t.hon", text, len, id, &p->diags, &p->expr);
    else
        p->f = front_parse_file("t.hon", text, len, id, &p->diags);
    ck_assert_ptr_nonnull(p->f);
    return p;
}

static inline void parsed_free(parsed *p)
{
    ast_file_free(p->f);
    diag_list_clear(&p->diags);
    diag_sources_free(&p->src);
    free(p);
}

/* The rendered diagnostics of p, as a new string. */
static inline char *rendered(const parsed *p)
{
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    ck_assert_ptr_nonnull(m);
    diag_render_all(&p->diags, m);
    fclose(m);
    return out;
}

static inline char *dump_node(const ast_node *n)
{
    size_t need = ast_dump(n, NULL, 0);
    char *buf = malloc(need + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(ast_dump(n, buf, need + 1), need);
    return buf;
}

/* Parses a file that must have no errors; returns its declarations' dumps, one per line. */
static inline char *dump_file(const char *text)
{
    parsed *p = parse_text(text, false);
    if (p->diags.errors) {
        char *r = rendered(p);
        ck_abort_msg("unexpected errors:\n%s", r);
    }
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    for (uint32_t i = 0; i < p->f->decls.len; i++) {
        char *d = dump_node(p->f->decls.items[i]);
        fprintf(m, "%s%s", i ? "\n" : "", d);
        free(d);
    }
    fclose(m);
    parsed_free(p);
    return out;
}

/* Parses one expression that must have no errors; returns its dump. */
static inline char *dump_expr(const char *text)
{
    parsed *p = parse_text(text, true);
    if (p->diags.errors || !p->expr) {
        char *r = rendered(p);
        ck_abort_msg("unexpected errors in '%s':\n%s", text, r);
    }
    char *d = dump_node(p->expr);
    parsed_free(p);
    return d;
}

/* Parses text (a file, or an expression when expr) and returns its rendered diagnostics. */
static inline char *errors_of(const char *text, bool expr)
{
    parsed *p = parse_text(text, expr);
    char *r = rendered(p);
    parsed_free(p);
    return r;
}

#define ck_assert_dump(fn, text, want) \
    do {                               \
        char *got_ = fn(text);         \
        ck_assert_str_eq(got_, want);  \
        free(got_);                    \
    } while (0)

#endif
