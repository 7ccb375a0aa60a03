/* test_diag.c — Check unit tests of base/diag.c: the diagnostics list and the renderer.
 *
 * The expected texts are written out by hand from the layout diag.h documents:
 * `path:line:col: severity[Ennn]: message`, the source line behind a 5-wide (or wider) line
 * number gutter, and a caret line with '^' under the span start and '~' over the rest of the
 * span on that line; tabs expand to stops of 8 in both lines.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "diag.h"
#include "front.h"
#include "mem.h"

typedef struct fixture {
    diag_sources src;
    diag_list l;
} fixture;

static fixture *fx_new(const char *text, size_t len)
{
    fixture *f = calloc(1, sizeof *f);
    ck_assert_ptr_nonnull(f);
    diag_list_init(&f->l, &f->src);
    ck_assert_uint_eq(diag_sources_add(&f->src, "t.hon", text, len), 0);
    return f;
}

static void fx_free(fixture *f)
{
    diag_list_clear(&f->l);
    diag_sources_free(&f->src);
    free(f);
}

static char *render_all(const diag_list *l)
{
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    ck_assert_ptr_nonnull(m);
    diag_render_all(l, m);
    fclose(m);
    return out;
}

static ast_loc L(uint32_t line, uint32_t col, uint32_t eline, uint32_t ecol)
{
    return (ast_loc){ 0, line, col, eline, ecol };
}

/* Reports one error with `loc` against `text` and checks the rendering. */
static void check_render(const char *text, ast_loc loc, const char *want)
{
    fixture *f = fx_new(text, strlen(text));
    diag_report(&f->l, 10, DIAG_ERROR, loc, "m");
    char *got = render_all(&f->l);
    ck_assert_str_eq(got, want);
    free(got);
    fx_free(f);
}

START_TEST(simple_span)
{
    fixture *f = fx_new("kind x;\nside allies extra;\n", 27);
    diag *d = diag_report(&f->l, 10, DIAG_ERROR, L(2, 13, 2, 17), "unexpected %s '%s'",
                          "identifier", "extra");
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(d->message, "unexpected identifier 'extra'");
    char *got = render_all(&f->l);
    ck_assert_str_eq(got, "t.hon:2:13: error[E010]: unexpected identifier 'extra'\n"
                          "    2 | side allies extra;\n      |             ^~~~~\n");
    free(got);
    fx_free(f);
}
END_TEST

START_TEST(tab_before_span)
{
    /* "\tfoo bar": the tab fills columns 0-7, so `bar` (byte column 6) shows at column 12 */
    check_render("\tfoo bar\n", L(1, 6, 1, 8),
                 "t.hon:1:6: error[E010]: m\n    1 |         foo bar\n      |             ^~~\n");
    /* "ab\tc": the tab after two characters takes six columns */
    check_render("ab\tc", L(1, 4, 1, 4),
                 "t.hon:1:4: error[E010]: m\n    1 | ab      c\n      |         ^\n");
}
END_TEST

START_TEST(tab_inside_span)
{
    /* "a\tb": a span over all three bytes covers display columns 0-8 */
    check_render("a\tb = 1", L(1, 1, 1, 3),
                 "t.hon:1:1: error[E010]: m\n    1 | a       b = 1\n      | ^~~~~~~~~\n");
}
END_TEST

START_TEST(span_continues_on_next_line)
{
    check_render("abc def\nghi\n", L(1, 5, 2, 2),
                 "t.hon:1:5: error[E010]: m\n    1 | abc def\n      |     ^~~\n");
}
END_TEST

START_TEST(caret_past_end_of_line)
{
    /* where a missing ';' goes: one past the last byte of the line */
    check_render("kind k\n", L(1, 7, 1, 7),
                 "t.hon:1:7: error[E010]: m\n    1 | kind k\n      |       ^\n");
}
END_TEST

START_TEST(empty_span)
{
    check_render("abc", L(1, 1, 1, 0), "t.hon:1:1: error[E010]: m\n    1 | abc\n      | ^\n");
}
END_TEST

START_TEST(lines_out_of_range)
{
    check_render("a\nb\n", L(5, 1, 5, 1), "t.hon:5:1: error[E010]: m\n");
    /* line 0 is no position at all: no made-up `t.hon:0:0` (repl.md §3) */
    check_render("a\nb\n", L(0, 0, 0, 0), "hon: error[E010]: m\n");
    /* the empty "line" after a final newline is not quoted ... */
    check_render("a\n", L(2, 1, 2, 1), "t.hon:2:1: error[E010]: m\n");
    /* ... but an empty line inside the text is, without trailing blanks */
    check_render("a\n\nb", L(2, 1, 2, 0), "t.hon:2:1: error[E010]: m\n    2 |\n      | ^\n");
}
END_TEST

START_TEST(unknown_file)
{
    fixture *f = fx_new("x", 1);
    diag_report(&f->l, 201, DIAG_ERROR, (ast_loc){ 7, 3, 4, 3, 4 }, "boom");
    char *got = render_all(&f->l);
    ck_assert_str_eq(got, "<unknown>:3:4: error[E201]: boom\n");
    free(got);
    fx_free(f);
}
END_TEST

START_TEST(utf8_crlf_control)
{
    /* é is two bytes but one column: `x` (byte column 4) shows at column 2 */
    check_render("\xc3\xa9 x", L(1, 4, 1, 4),
                 "t.hon:1:4: error[E010]: m\n    1 | \xc3\xa9 x\n      |   ^\n");
    /* a wide character takes two columns of a terminal (wcwidth; fresh16 D7: the caret counted
     * one a character and stood a column short): U+1F600 (4 bytes) then ` + 1`, the `+` at byte
     * column 6 shows at column 4 (two for the emoji, one for the space); U+6F22 U+5B57 (3 bytes
     * each, two columns each) underlined whole: four columns */
    check_render("\xf0\x9f\x98\x80 + 1", L(1, 6, 1, 6),
                 "t.hon:1:6: error[E010]: m\n    1 | \xf0\x9f\x98\x80 + 1\n      |    ^\n");
    check_render("x \xe6\xbc\xa2\xe5\xad\x97 y", L(1, 3, 1, 8),
                 "t.hon:1:3: error[E010]: m\n    1 | x \xe6\xbc\xa2\xe5\xad\x97 y\n"
                 "      |   ^~~~\n");
    /* a combining accent (U+0301 after e) takes none: `x` after `e\u0301 ` shows at column 3 */
    check_render("e\xcc\x81 x", L(1, 5, 1, 5),
                 "t.hon:1:5: error[E010]: m\n    1 | e\xcc\x81 x\n      |   ^\n");
    /* a CR before the newline is not part of the line */
    check_render("a\r\nbc\r\n", L(2, 1, 2, 2),
                 "t.hon:2:1: error[E010]: m\n    2 | bc\n      | ^~\n");
    /* control bytes show as '?' and keep their column */
    check_render("a\x01"
                 "b",
                 L(1, 3, 1, 3), "t.hon:1:3: error[E010]: m\n    1 | a?b\n      |   ^\n");
}
END_TEST

START_TEST(wide_gutter)
{
    /* line 100001 needs six digits: the gutter widens, both lines alike */
    size_t n = 100000;
    char *text = malloc(n + 2);
    memset(text, '\n', n);
    text[n] = 'x';
    text[n + 1] = '\0';
    check_render(text, L(100001, 1, 100001, 1),
                 "t.hon:100001:1: error[E010]: m\n100001 | x\n       | ^\n");
    free(text);
}
END_TEST

START_TEST(severities_and_related)
{
    fixture *f = fx_new("table t(k: int) -> int {\n  1 => 2;\n", 35);
    diag *d = diag_report(&f->l, 11, DIAG_ERROR, L(2, 10, 2, 9), "unclosed '{' at end of file");
    diag_relate(d, L(1, 24, 1, 24), "the '%c' opened here is never closed", '{');
    diag_report(&f->l, 120, DIAG_WARNING, L(1, 7, 1, 7), "w");
    diag_report(&f->l, 0, DIAG_NOTE, L(1, 1, 1, 5), "n");
    diag_report(&f->l, 0, DIAG_ERROR, L(1, 9, 1, 9), "e");
    ck_assert_uint_eq(f->l.errors, 2);
    char *got = render_all(&f->l);
    ck_assert_str_eq(got, "t.hon:2:10: error[E011]: unclosed '{' at end of file\n"
                          "    2 |   1 => 2;\n      |          ^\n"
                          "t.hon:1:24: note: the '{' opened here is never closed\n"
                          "    1 | table t(k: int) -> int {\n      |                        ^\n"
                          "t.hon:1:7: warning[E120]: w\n    1 | table t(k: int) -> int {\n"
                          "      |       ^\nt.hon:1:1: note: n\n"
                          "    1 | table t(k: int) -> int {\n      | ^~~~~\n"
                          "t.hon:1:9: error: e\n    1 | table t(k: int) -> int {\n"
                          "      |         ^\n");
    free(got);
    fx_free(f);
}
END_TEST

START_TEST(parsed_unclosed_brace)
{
    /* the same E011 as above, this time produced by the front end itself */
    const char *text = "table t(k: int) -> int {\n  1 => 2;\n";
    diag_sources src = { 0 };
    diag_list l;
    diag_list_init(&l, &src);
    uint32_t id = diag_sources_add(&src, "t.hon", text, strlen(text));
    ast_file *f = front_parse_file("t.hon", text, strlen(text), id, &l);
    char *got = render_all(&l);
    ck_assert_str_eq(got, "t.hon:2:10: error[E011]: unclosed '{' at end of file\n"
                          "    2 |   1 => 2;\n      |          ^\n"
                          "t.hon:1:24: note: the '{' opened here is never closed\n"
                          "    1 | table t(k: int) -> int {\n      |                        ^\n");
    free(got);
    ast_file_free(f);
    diag_list_clear(&l);
    diag_sources_free(&src);
}
END_TEST

START_TEST(list_clear_and_reuse)
{
    fixture *f = fx_new("abc", 3);
    for (int i = 0; i < 100; i++)
        diag_report(&f->l, i, i % 2 ? DIAG_WARNING : DIAG_ERROR, L(1, 1, 1, 1), "n%d", i);
    ck_assert_uint_eq(f->l.len, 100);
    ck_assert_uint_eq(f->l.errors, 50);
    ck_assert_str_eq(f->l.items[99].message, "n99");
    diag_list_clear(&f->l);
    ck_assert_uint_eq(f->l.len, 0);
    ck_assert_uint_eq(f->l.errors, 0);
    ck_assert_ptr_eq(f->l.sources, &f->src);
    diag_report(&f->l, 1, DIAG_ERROR, L(1, 2, 1, 2), "again");
    ck_assert_uint_eq(f->l.len, 1);
    diag_relate(NULL, L(1, 1, 1, 1), "ignored");
    fx_free(f);
}
END_TEST

START_TEST(sources_table)
{
    diag_sources s = { 0 };
    for (uint32_t i = 0; i < 20; i++)
        ck_assert_uint_eq(diag_sources_add(&s, "p", "t", 1), i);
    /* the same path again is a new source */
    ck_assert_uint_eq(diag_sources_add(&s, "p", "u", 1), 20);
    ck_assert_str_eq(s.files[20].text, "u");
    diag_sources_free(&s);
    diag_sources_free(&s);
    mem_fail_after(0);
    ck_assert_uint_eq(diag_sources_add(&s, "p", "t", 1), UINT32_MAX);
    mem_fail_reset();
    diag_sources_free(&s);
}
END_TEST

/* A borrowed text is the caller's: the entry points at it, trimming or freeing the table never
 * frees it (a string literal here: freeing it would crash), and diag_sources_own gives the entry
 * a copy, or on OOM leaves it borrowed and says so. */
START_TEST(sources_borrowed)
{
    static const char text[] = "fn f() -> int = 1;\n";
    diag_sources s = { 0 };
    ck_assert_uint_eq(diag_sources_borrow(&s, "a.hon", text, sizeof text - 1), 0);
    ck_assert_ptr_eq(s.files[0].text, text);
    ck_assert_uint_eq(diag_sources_borrow(&s, "b.hon", text, sizeof text - 1), 1);
    diag_sources_trim(&s, 1); /* drops b.hon's entry, not the text */
    mem_fail_after(0);
    ck_assert(!diag_sources_own(&s, 0));
    mem_fail_reset();
    ck_assert_ptr_eq(s.files[0].text, text); /* still borrowed */
    ck_assert(diag_sources_own(&s, 0));
    ck_assert_ptr_ne(s.files[0].text, text);
    ck_assert_str_eq(s.files[0].text, text);
    ck_assert(diag_sources_own(&s, 0)); /* owned already: nothing to do */
    ck_assert(diag_sources_own(&s, 7)); /* no such entry: nothing to do */
    mem_fail_after(0);
    ck_assert_uint_eq(diag_sources_borrow(&s, "c.hon", text, 1), UINT32_MAX);
    mem_fail_reset();
    ck_assert_uint_eq(diag_sources_borrow(&s, "c.hon", text, sizeof text - 1), 1);
    diag_sources_free(&s); /* frees entry 0's copy, not entry 1's borrowed text */
}
END_TEST

START_TEST(out_of_memory)
{
    fixture *f = fx_new("abc", 3);
    /* no room for the item: nothing stored, but the error still counts */
    mem_fail_after(0);
    ck_assert_ptr_null(diag_report(&f->l, 10, DIAG_ERROR, L(1, 1, 1, 1), "lost"));
    mem_fail_reset();
    ck_assert_uint_eq(f->l.errors, 1);
    ck_assert_uint_eq(f->l.len, 0);
    /* room for the item but not the message: a fixed text stands in */
    diag_report(&f->l, 10, DIAG_ERROR, L(1, 1, 1, 1), "first"); /* grows the array */
    mem_fail_after(0);
    diag *d = diag_report(&f->l, 10, DIAG_ERROR, L(1, 2, 1, 2), "second");
    diag_relate(d, L(1, 1, 1, 1), "rel");
    mem_fail_reset();
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(strstr(d->message, "out of memory"));
    ck_assert_ptr_nonnull(strstr(d->related_message, "out of memory"));
    ck_assert_uint_eq(f->l.errors, 3);
    char *got = render_all(&f->l); /* renders without allocating through the funnel */
    ck_assert_ptr_nonnull(strstr(got, "t.hon:1:2: error[E010]: (out of memory"));
    free(got);
    fx_free(f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("diag");
    TCase *tr = tcase_create("render");
    tcase_add_test(tr, simple_span);
    tcase_add_test(tr, tab_before_span);
    tcase_add_test(tr, tab_inside_span);
    tcase_add_test(tr, span_continues_on_next_line);
    tcase_add_test(tr, caret_past_end_of_line);
    tcase_add_test(tr, empty_span);
    tcase_add_test(tr, lines_out_of_range);
    tcase_add_test(tr, unknown_file);
    tcase_add_test(tr, utf8_crlf_control);
    tcase_add_test(tr, wide_gutter);
    tcase_add_test(tr, severities_and_related);
    tcase_add_test(tr, parsed_unclosed_brace);
    suite_add_tcase(s, tr);
    TCase *tl = tcase_create("list");
    tcase_add_test(tl, list_clear_and_reuse);
    tcase_add_test(tl, sources_table);
    tcase_add_test(tl, sources_borrowed);
    tcase_add_test(tl, out_of_memory);
    suite_add_tcase(s, tl);
    return check_run(s);
}
