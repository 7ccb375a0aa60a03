/* test_lexer.c — Check unit tests of the flex scanner (dsl/grammar/lexer.l).
 *
 * Drives the scanner directly, the way dsl/front.c does, and checks token kinds, values,
 * locations (lines and byte columns from 1, ends inclusive) and the lexical errors E001-E004
 * and E011 of docs/spec/errors.md. Expected values come from language.md §1.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "front.h"
#include "grammar/build.h"
#include "lexer.h"
#include "mem.h"
#include "parser.h"

enum {
    MAX_TOKS = 512
};

typedef struct tokrec {
    int tok;
    ast_loc loc;
    const char *str;
    int64_t ival;
} tokrec;

typedef struct lexed {
    tokrec t[MAX_TOKS];
    int n; /* tokens before END */
    diag_sources src;
    diag_list diags;
    ast_file *f;
} lexed;

/* Scans text to END; the scanner never sees a start token here. */
static lexed *lex_all(const char *text)
{
    lexed *L = calloc(1, sizeof *L);
    ck_assert_ptr_nonnull(L);
    size_t len = strlen(text);
    diag_list_init(&L->diags, &L->src);
    uint32_t id = diag_sources_add(&L->src, "t.hon", text, len);
    L->f = ast_file_new("t.hon", text, len, id);
    front_ctx *ctx = calloc(1, sizeof *ctx);
    char *buf = malloc(len + 2);
    ck_assert(L->f && ctx && buf);
    memcpy(buf, text, len);
    buf[len] = buf[len + 1] = '\0';
    ctx->file = L->f;
    ctx->diags = &L->diags;
    ctx->file_id = id;
    ctx->line = ctx->col = 1;
    yyscan_t sc;
    ck_assert_int_eq(lex_yylex_init_extra(ctx, &sc), 0);
    ctx->spare_ok = true;
    ck_assert_ptr_nonnull(lex_yy_scan_buffer(buf, len + 2, sc));
    for (;;) {
        FRONT_YYSTYPE v;
        ast_loc loc;
        memset(&v, 0, sizeof v);
        int t = front_yylex(&v, &loc, sc, ctx);
        ck_assert_int_lt(L->n, MAX_TOKS);
        L->t[L->n] = (tokrec){ t, loc, NULL, 0 };
        if (t == TOK_INT)
            L->t[L->n].ival = v.ival;
        else if (t != TOK_END && t >= 256)
            L->t[L->n].str = v.str;
        if (t == TOK_END)
            break;
        L->n++;
    }
    lex_yylex_destroy(sc);
    free(buf);
    free(ctx);
    return L;
}

static void lexed_free(lexed *L)
{
    ast_file_free(L->f);
    diag_list_clear(&L->diags);
    diag_sources_free(&L->src);
    free(L);
}

static void assert_loc(ast_loc l, uint32_t line, uint32_t col, uint32_t eline, uint32_t ecol)
{
    ck_assert_uint_eq(l.line, line);
    ck_assert_uint_eq(l.col, col);
    ck_assert_uint_eq(l.end_line, eline);
    ck_assert_uint_eq(l.end_col, ecol);
}

/* ---------------------------------------------------------------- tokens */

START_TEST(keywords_all)
{
    /* Every keyword of language.md §1 is a keyword token whose value is its spelling (this
     * also checks the scanner's keyword table is sorted for its binary search). */
    static const char *const kw[] = {
        "edition",
        "extends",
        "kind",
        "side",
        "ability",
        "marker",
        "token",
        "value",
        "enum",
        "record",
        "table",
        "query",
        "rule",
        "fn",
        "variant",
        "reading",
        "default",
        "counter",
        "test",
        "expect",
        "cite",
        "source",
        "doc",
        "example",
        "when",
        "answer",
        "forbid",
        "permit",
        "replace",
        "remove",
        "set",
        "if",
        "then",
        "else",
        "let",
        "in",
        "and",
        "or",
        "not",
        "true",
        "false",
        "roll",
        "d6",
        "combine",
        "floor",
        "fails",
        "sum",
        "count",
        "all",
        "any",
        "min",
        "max",
        "len",
        "has",
        "priority",
        "terrain",
        "square_feature",
        "side_feature",
        "interspace_item",
        "event",
        "phase",
        "face",
        "do",
        "give",
        "take",
        "flip",
        "destroy",
        "move",
        "embark",
        "disembark",
        "place",
        "raise",
        "note",
        "fail",
        "choose",
        "for",
        "to",
        "at",
        "near",
        "by",
        "on",
        "enter",
        "walk_end",
        "phase_start",
        "phase_end",
        "turn_start",
        "first",
        "permission",
        "int",
        "list",
        "board",
        "dice",
        "choices",
        "advance",
        "along",
        "module",
        "uses",
        "revise",
        "unless",
        "prefer",
        "under",
    };
    for (size_t i = 0; i < sizeof kw / sizeof *kw; i++) {
        lexed *L = lex_all(kw[i]);
        ck_assert_int_eq(L->n, 1);
        ck_assert_int_ne(L->t[0].tok, TOK_IDENT);
        ck_assert_str_eq(L->t[0].str, kw[i]);
        assert_loc(L->t[0].loc, 1, 1, 1, (uint32_t)strlen(kw[i]));
        lexed_free(L);
    }
}
END_TEST

START_TEST(keyword_kinds)
{
    lexed *L = lex_all("kind side rule answer d6 priority");
    int want[] = { TOK_KIND, TOK_SIDE, TOK_RULE, TOK_ANSWER, TOK_D6, TOK_PRIORITY };
    ck_assert_int_eq(L->n, 6);
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(L->t[i].tok, want[i]);
    lexed_free(L);
}
END_TEST

START_TEST(statement_words)
{
    /* The words that join a statement's operands, a test's settings and items, an event's
     * moment and a query's combination are tokens of their own, not identifiers. */
    static const struct {
        const char *word;
        int tok;
    } words[] = {
        { "to", TOK_TO },        { "at", TOK_AT },
        { "near", TOK_NEAR },    { "by", TOK_BY },
        { "on", TOK_ON },        { "enter", TOK_ENTER },
        { "first", TOK_FIRST },  { "permission", TOK_PERMISSION },
        { "int", TOK_INT_TYPE }, { "list", TOK_LIST },
        { "dice", TOK_DICE },    { "along", TOK_ALONG },
        { "toe", TOK_IDENT },
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        lexed *L = lex_all(words[i].word);
        ck_assert_int_eq(L->n, 1);
        ck_assert_int_eq(L->t[0].tok, words[i].tok);
        lexed_free(L);
    }
}
END_TEST

START_TEST(adjacent_strings)
{
    /* A text written as several string literals is several STRING tokens (the parser joins
     * them, language.md §1); each keeps its own line. */
    static const char *const pieces[] = { "one", "two" };
    lexed *L = lex_all("doc \"one\"\n    \"two\"");
    ck_assert_int_eq(L->n, 3);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(L->t[1 + i].tok, TOK_STRING);
        ck_assert_str_eq(L->t[1 + i].str, pieces[i]);
    }
    assert_loc(L->t[2].loc, 2, 5, 2, 9);
    ck_assert_uint_eq(L->diags.errors, 0);
    lexed_free(L);
}
END_TEST

START_TEST(identifiers)
{
    /* Longest match: a keyword followed by more name characters is an identifier. */
    lexed *L = lex_all("foo_bar9 _x kinds d66 Sherman E201 rule_");
    const char *want[] = { "foo_bar9", "_x", "kinds", "d66", "Sherman", "E201", "rule_" };
    ck_assert_int_eq(L->n, 7);
    for (int i = 0; i < 7; i++) {
        ck_assert_int_eq(L->t[i].tok, TOK_IDENT);
        ck_assert_str_eq(L->t[i].str, want[i]);
    }
    assert_loc(L->t[1].loc, 1, 10, 1, 11);
    ck_assert_uint_eq(L->diags.errors, 0);
    lexed_free(L);
}
END_TEST

START_TEST(integers)
{
    lexed *L = lex_all("0 42 9223372036854775807 2d6");
    ck_assert_int_eq(L->n, 5);
    ck_assert_int_eq(L->t[0].tok, TOK_INT);
    ck_assert_int_eq(L->t[0].ival, 0);
    ck_assert_int_eq(L->t[1].ival, 42);
    ck_assert_int_eq(L->t[2].ival, INT64_MAX);
    assert_loc(L->t[2].loc, 1, 6, 1, 24);
    /* `2d6` is the integer 2 then the keyword d6, so `roll 2d6` reads as `roll 2 d6` */
    ck_assert_int_eq(L->t[3].tok, TOK_INT);
    ck_assert_int_eq(L->t[3].ival, 2);
    ck_assert_int_eq(L->t[4].tok, TOK_D6);
    ck_assert_uint_eq(L->diags.errors, 0);
    lexed_free(L);
}
END_TEST

START_TEST(integer_overflow)
{
    /* 2^63 does not fit int64: E003 on the literal's span, value 0, and scanning goes on. */
    lexed *L = lex_all("x = 9223372036854775808;");
    ck_assert_int_eq(L->n, 4);
    ck_assert_int_eq(L->t[2].tok, TOK_INT);
    ck_assert_int_eq(L->t[2].ival, 0);
    ck_assert_int_eq(L->t[3].tok, ';');
    ck_assert_uint_eq(L->diags.len, 1);
    ck_assert_int_eq(L->diags.items[0].code, 3);
    assert_loc(L->diags.items[0].loc, 1, 5, 1, 23);
    lexed_free(L);
}
END_TEST

START_TEST(strings_and_escapes)
{
    lexed *L = lex_all("\"plain\" \"a\\\"b\\\\c\\nd\" \"\" \"BRO.4.2.minefield.roll-one\"");
    ck_assert_int_eq(L->n, 4);
    ck_assert_int_eq(L->t[0].tok, TOK_STRING);
    ck_assert_str_eq(L->t[0].str, "plain");
    assert_loc(L->t[0].loc, 1, 1, 1, 7);
    ck_assert_str_eq(L->t[1].str, "a\"b\\c\nd");
    ck_assert_str_eq(L->t[2].str, "");
    /* citations with hyphens are strings, so '-' is only ever an operator */
    ck_assert_str_eq(L->t[3].str, "BRO.4.2.minefield.roll-one");
    ck_assert_uint_eq(L->diags.errors, 0);
    lexed_free(L);
}
END_TEST

START_TEST(string_unknown_escape)
{
    /* "x\qy": the backslash is byte 3 of the line; E004 points at `\q`, the char is kept. */
    lexed *L = lex_all("\"x\\qy\" z");
    ck_assert_int_eq(L->n, 2);
    ck_assert_str_eq(L->t[0].str, "xqy");
    ck_assert_uint_eq(L->diags.len, 1);
    ck_assert_int_eq(L->diags.items[0].code, 4);
    assert_loc(L->diags.items[0].loc, 1, 3, 1, 4);
    lexed_free(L);
}
END_TEST

START_TEST(string_unterminated)
{
    /* The string runs to the end of its line; E002 spans it; the next line scans normally. */
    lexed *L = lex_all("kind x \"abc;\nside y;");
    ck_assert_int_eq(L->n, 6);
    ck_assert_int_eq(L->t[2].tok, TOK_STRING);
    ck_assert_str_eq(L->t[2].str, "abc;");
    assert_loc(L->t[2].loc, 1, 8, 1, 12);
    ck_assert_int_eq(L->t[3].tok, TOK_SIDE);
    assert_loc(L->t[3].loc, 2, 1, 2, 4);
    ck_assert_uint_eq(L->diags.len, 1);
    ck_assert_int_eq(L->diags.items[0].code, 2);
    assert_loc(L->diags.items[0].loc, 1, 8, 1, 12);
    lexed_free(L);
}
END_TEST

START_TEST(string_unterminated_backslash_eof)
{
    lexed *L = lex_all("\"abc\\");
    ck_assert_int_eq(L->n, 1);
    ck_assert_str_eq(L->t[0].str, "abc");
    ck_assert_uint_eq(L->diags.len, 1);
    ck_assert_int_eq(L->diags.items[0].code, 2);
    lexed_free(L);
}
END_TEST

START_TEST(punctuation)
{
    lexed *L = lex_all("-> => == != <= >= ( ) { } [ ] , : ; . = < > + - * / % ?");
    int want[] = { TOK_ARROW, TOK_FATARROW, TOK_EQEQ, TOK_NE, TOK_LE, TOK_GE, '(', ')', '{',
                   '}',       '[',          ']',      ',',    ':',    ';',    '.', '=', '<',
                   '>',       '+',          '-',      '*',    '/',    '%',    '?' };
    int n = (int)(sizeof want / sizeof *want);
    ck_assert_int_eq(L->n, n);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(L->t[i].tok, want[i]);
    assert_loc(L->t[0].loc, 1, 1, 1, 2);
    ck_assert_uint_eq(L->diags.errors, 0);
    lexed_free(L);
}
END_TEST

START_TEST(adjacent_operators)
{
    /* No space needed: `a->b`, `x-1`, `a<=-2` */
    lexed *L = lex_all("a->b x-1 a<=-2");
    int want[] = { TOK_IDENT, TOK_ARROW, TOK_IDENT, TOK_IDENT, '-',
                   TOK_INT,   TOK_IDENT, TOK_LE,    '-',       TOK_INT };
    ck_assert_int_eq(L->n, 10);
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(L->t[i].tok, want[i]);
    lexed_free(L);
}
END_TEST

START_TEST(comments_and_locations)
{
    /* Line 3 starts with a tab: columns count bytes, so `side` is at column 2. */
    lexed *L = lex_all("kind x; # a comment ; kind\n  # only a comment\n\tside  y\n");
    ck_assert_int_eq(L->n, 5);
    assert_loc(L->t[0].loc, 1, 1, 1, 4);
    assert_loc(L->t[1].loc, 1, 6, 1, 6);
    assert_loc(L->t[2].loc, 1, 7, 1, 7);
    ck_assert_int_eq(L->t[3].tok, TOK_SIDE);
    assert_loc(L->t[3].loc, 3, 2, 3, 5);
    assert_loc(L->t[4].loc, 3, 8, 3, 8);
    /* END sits just after the last token, as an empty span */
    assert_loc(L->t[5].loc, 3, 9, 3, 8);
    ck_assert_uint_eq(L->diags.errors, 0);
    lexed_free(L);
}
END_TEST

START_TEST(crlf)
{
    lexed *L = lex_all("kind x;\r\nside y;\r\n");
    ck_assert_int_eq(L->n, 6);
    assert_loc(L->t[3].loc, 2, 1, 2, 4);
    ck_assert_uint_eq(L->diags.errors, 0);
    lexed_free(L);
}
END_TEST

START_TEST(bad_characters)
{
    /* Each unexpected character is one E001 (a run of the same one is one, with its count);
     * scanning goes on after it. */
    lexed *L = lex_all("a @ b $$ c ! d");
    ck_assert_int_eq(L->n, 4);
    ck_assert_str_eq(L->t[3].str, "d");
    ck_assert_uint_eq(L->diags.len, 3);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(L->diags.items[i].code, 1);
    assert_loc(L->diags.items[0].loc, 1, 3, 1, 3);
    ck_assert_str_eq(L->diags.items[0].message, "unexpected character '@'");
    assert_loc(L->diags.items[1].loc, 1, 7, 1, 8);
    ck_assert_str_eq(L->diags.items[1].message, "unexpected character '$', 2 in a row");
    ck_assert_str_eq(L->diags.items[2].message, "unexpected character '!'; hon writes 'not'");
    lexed_free(L);
}
END_TEST

START_TEST(non_ascii_and_control)
{
    /* é (two bytes) outside a string is E001; inside strings and comments it is fine. */
    lexed *L = lex_all("\"caf\xc3\xa9\" # \xc3\xa9\nx \xc3\xa9 y \x01 z");
    ck_assert_int_eq(L->n, 4);
    ck_assert_str_eq(L->t[0].str, "caf\xc3\xa9");
    ck_assert_uint_eq(L->diags.len, 2);
    ck_assert_int_eq(L->diags.items[0].code, 1);
    assert_loc(L->diags.items[0].loc, 2, 3, 2, 4);
    ck_assert_int_eq(L->diags.items[1].code, 1);
    ck_assert_str_eq(L->diags.items[1].message, "unexpected control character 0x01");
    lexed_free(L);
}
END_TEST

START_TEST(bad_character_runs)
{
    /* errors.md E001: one error per offending character, a run of the same byte once with its
     * count; C's |, & and ~ get the hon word; a form feed (0x0C) just before '|' is an error
     * of its own. Columns: a1 |3 &7-8 c10 ~12 d13 FF15 |16 e17 0x01 at 19-21 f23. */
    lexed *L = lex_all("a | b && c ~d \f|e \x01\x01\x01 f");
    ck_assert_int_eq(L->n, 6);
    ck_assert_str_eq(L->t[5].str, "f");
    static const struct {
        uint32_t col, end;
        const char *msg;
    } want[] = {
        { 3, 3, "unexpected character '|'; hon writes 'or'" },
        { 7, 8, "unexpected character '&', 2 in a row; hon writes 'and'" },
        { 12, 12, "unexpected character '~'; hon writes 'not'" },
        { 15, 15, "unexpected control character 0x0C" },
        { 16, 16, "unexpected character '|'; hon writes 'or'" },
        { 19, 21, "unexpected control character 0x01, 3 in a row" },
    };
    ck_assert_uint_eq(L->diags.len, 6);
    for (size_t i = 0; i < 6; i++) {
        ck_assert_int_eq(L->diags.items[i].code, 1);
        assert_loc(L->diags.items[i].loc, 1, want[i].col, 1, want[i].end);
        ck_assert_str_eq(L->diags.items[i].message, want[i].msg);
    }
    lexed_free(L);
}
END_TEST

START_TEST(nul_byte)
{
    /* An embedded NUL is just a bad character, not the end of the input. */
    static const char text[] = "a \0 b";
    lexed *L = calloc(1, sizeof *L);
    diag_list_init(&L->diags, &L->src);
    uint32_t id = diag_sources_add(&L->src, "t.hon", text, 5);
    ast_file *f = front_parse_expr("t.hon", text, 5, id, &L->diags, NULL);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(L->diags.items[0].code, 1);
    assert_loc(L->diags.items[0].loc, 1, 3, 1, 3);
    ast_file_free(f);
    L->f = NULL;
    lexed_free(L);
}
END_TEST

START_TEST(unclosed_brace)
{
    /* E011 at the end (just after the last token) with a note at the innermost open '{';
     * the '(' closed and the outer '{' do not matter. */
    lexed *L = lex_all("test \"t\" {\n  expect f(1) == {a\n");
    ck_assert_uint_eq(L->diags.len, 1);
    diag *d = &L->diags.items[0];
    ck_assert_int_eq(d->code, 11);
    assert_loc(d->loc, 2, 20, 2, 19);
    ck_assert(d->has_related);
    assert_loc(d->related, 2, 18, 2, 18);
    lexed_free(L);
}
END_TEST

START_TEST(closed_braces_no_error)
{
    lexed *L = lex_all("{ ( [ ] ) } { }");
    ck_assert_uint_eq(L->diags.len, 0);
    lexed_free(L);
}
END_TEST

START_TEST(mismatched_closer)
{
    /* `{ ( }`: the '}' closes the '{' (the parser reports the unclosed '('), so no E011. */
    lexed *L = lex_all("{ ( }");
    ck_assert_uint_eq(L->diags.len, 0);
    lexed_free(L);
}
END_TEST

START_TEST(empty_input)
{
    lexed *L = lex_all("");
    ck_assert_int_eq(L->n, 0);
    assert_loc(L->t[0].loc, 1, 1, 1, 0);
    ck_assert_uint_eq(L->diags.len, 0);
    lexed_free(L);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("tokens");
    tcase_add_test(tc, keywords_all);
    tcase_add_test(tc, keyword_kinds);
    tcase_add_test(tc, statement_words);
    tcase_add_test(tc, adjacent_strings);
    tcase_add_test(tc, identifiers);
    tcase_add_test(tc, integers);
    tcase_add_test(tc, strings_and_escapes);
    tcase_add_test(tc, punctuation);
    tcase_add_test(tc, adjacent_operators);
    tcase_add_test(tc, comments_and_locations);
    tcase_add_test(tc, crlf);
    tcase_add_test(tc, empty_input);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("errors");
    tcase_add_test(te, integer_overflow);
    tcase_add_test(te, string_unknown_escape);
    tcase_add_test(te, string_unterminated);
    tcase_add_test(te, string_unterminated_backslash_eof);
    tcase_add_test(te, bad_characters);
    tcase_add_test(te, non_ascii_and_control);
    tcase_add_test(te, bad_character_runs);
    tcase_add_test(te, nul_byte);
    tcase_add_test(te, unclosed_brace);
    tcase_add_test(te, closed_braces_no_error);
    tcase_add_test(te, mismatched_closer);
    suite_add_tcase(s, te);
    return check_run(s);
}
