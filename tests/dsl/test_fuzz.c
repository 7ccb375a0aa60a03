/* test_fuzz.c — robustness of the front end: random bytes, token soup, truncated and mutated
 * files, pathological nesting, and allocation failure at every step.
 *
 * Deterministic (fixed seeds), so a failure reproduces. The properties checked hold for any
 * input (dsl/front.h): no crash or sanitizer report, a bounded number of errors, locations
 * inside the text, and a tree with no hole where a node belongs (ast_dump prints "nil" there).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "front.h"
#include "mem.h"

/* xorshift64*: small and reproducible. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(rng_next(s) % n);
}

static uint32_t count_lines(const char *text, size_t len)
{
    uint32_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    return n;
}

/* Parses text both as a file and as an expression and checks the invariants. */
static void check_input(const char *text, size_t len)
{
    for (int mode = 0; mode < 2; mode++) {
        diag_sources src = { 0 };
        diag_list l;
        diag_list_init(&l, &src);
        uint32_t id = diag_sources_add(&src, "f.hon", text, len);
        ck_assert_uint_ne(id, UINT32_MAX);
        ast_node *e = NULL;
        ast_file *f = mode ? front_parse_expr("f.hon", text, len, id, &l, &e)
                           : front_parse_file("f.hon", text, len, id, &l);
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_le(l.errors, FRONT_MAX_ERRORS + 1);
        ck_assert_uint_eq(l.len, l.errors);
        uint32_t lines = count_lines(text, len);
        for (size_t i = 0; i < l.len; i++) {
            ck_assert_uint_eq(l.items[i].loc.file, id);
            ck_assert_uint_ge(l.items[i].loc.line, 1);
            ck_assert_uint_le(l.items[i].loc.line, lines);
            ck_assert_uint_ge(l.items[i].loc.col, 1);
        }
        char *out = NULL;
        size_t n = 0;
        FILE *m = open_memstream(&out, &n);
        diag_render_all(&l, m);
        fclose(m);
        free(out);
        static char buf[1 << 16];
        for (uint32_t i = 0; i < f->decls.len; i++) {
            ast_dump(f->decls.items[i], buf, sizeof buf);
            ck_assert_msg(!strstr(buf, " nil"), "hole in %s", buf);
        }
        if (e) {
            ck_assert_uint_eq(l.errors, 0);
            ast_dump(e, buf, sizeof buf);
            ck_assert_msg(!strstr(buf, " nil") && strcmp(buf, "nil") != 0, "hole in %s", buf);
        }
        ast_file_free(f);
        diag_list_clear(&l);
        diag_sources_free(&src);
    }
}

/* A valid file using every declaration form: the base for truncation and mutation. */
static const char sample[] =
    "kind infantry \"Infantry\"\n  \"unit\";\nsource \"A\" = \"Book 1,\" \"Section\";\n"
    "side allies;\nability anti_aircraft: int \"AA +N\";\n"
    "value defense \"Defense value\";\nenum weather { storm, cloudy, clear }\n"
    "record order { kind: token, number: int }\ncounter sherman \"M4\" : heavy_vehicle {\n"
    "  side allies\n  size 2\n  abilities { machine_gunner, anti_aircraft 1 }\n}\n"
    "table air(weather: weather) -> (level: level, n: int) cite \"BFN.x\" source \"S\" {\n"
    "  storm => E, 0;\n  cloudy => B, ?;\n  clear => A, 20 cite \"EX\";\n}\n"
    "table loss(l: int floor) -> set<map> { 10 => {map_a}; }\n"
    "fn numbered(n: int) -> order = order{kind: numbered, number: n};\n"
    "query sp(a: order, b: int) -> int combine first doc \"d\" default 0;\n"
    "rule sp.r priority 1 cite \"A\" source \"S\" example \"E\" doc \"d\"\n"
    "  let x = if a.number > 2 then sum(y in [1, 2]: y * 2) else -1;\n"
    "  let z = let w = x in {1, 2}; not w or x <= 3;\n"
    "  when a.kind == numbered and variant rows == cumulative\n"
    "  answer min(x, roll 2 d6 [0]) + len([1]) % 3;\n"
    "variant rows \"r\" { reading highest \"h\" default; reading cumulative; }\n"
    "edition bo \"Bloody Omaha\";\nedition hh extends bo \"HH\" {\n"
    "  replace rule sp.r cite \"HH\" answer 1;\n  remove rule sp.q;\n"
    "  set variant rows = cumulative;\n}\ndefault edition bo;\n"
    "test \"T\" edition hh variant rows = highest {\n"
    "  expect sp(numbered(2), 3) == 1;\n  expect air[cloudy].n fails E201;\n}\n";

START_TEST(sample_parses)
{
    diag_sources src = { 0 };
    diag_list l;
    diag_list_init(&l, &src);
    uint32_t id = diag_sources_add(&src, "s.hon", sample, sizeof sample - 1);
    ast_file *f = front_parse_file("s.hon", sample, sizeof sample - 1, id, &l);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(l.errors, 0);
    ck_assert_uint_eq(f->decls.len, 18);
    ast_file_free(f);
    diag_list_clear(&l);
    diag_sources_free(&src);
}
END_TEST

START_TEST(random_bytes)
{
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    char buf[512];
    for (int iter = 0; iter < 3000; iter++) {
        size_t len = rng_below(&seed, sizeof buf);
        for (size_t i = 0; i < len; i++)
            buf[i] = (char)rng_below(&seed, 256);
        check_input(buf, len);
    }
}
END_TEST

START_TEST(printable_noise)
{
    /* mostly printable ASCII with newlines: gets further into the grammar than raw bytes */
    uint64_t seed = 42;
    static const char alphabet[] = "abcdkx_09 \n\t{}()[];:,.=<>+-*/%?#\"\\!@";
    char buf[512];
    for (int iter = 0; iter < 3000; iter++) {
        size_t len = rng_below(&seed, sizeof buf);
        for (size_t i = 0; i < len; i++)
            buf[i] = alphabet[rng_below(&seed, sizeof alphabet - 1)];
        check_input(buf, len);
    }
}
END_TEST

START_TEST(token_soup)
{
    static const char *const toks[] = {
        "kind",   "side",       "ability", "marker", "token",    "value",   "enum",    "record",
        "table",  "query",      "rule",    "fn",     "variant",  "reading", "default", "counter",
        "test",   "expect",     "cite",    "source", "doc",      "example", "when",    "answer",
        "forbid", "permit",     "replace", "remove", "set",      "if",      "then",    "else",
        "let",    "in",         "and",     "or",     "not",      "true",    "false",   "roll",
        "d6",     "combine",    "floor",   "fails",  "sum",      "count",   "all",     "any",
        "min",    "max",        "len",     "has",    "priority", "edition", "extends", "x",
        "y",      "q",          "int",     "list",   "first",    "E201",    "0",       "7",
        "\"s\"",  "(",          ")",       "{",      "}",        "[",       "]",       ",",
        ":",      ";",          ".",       "=",      "<",        ">",       "+",       "-",
        "*",      "/",          "%",       "?",      "->",       "=>",      "==",      "!=",
        "<=",     ">=",         "\n",      "to",     "at",       "near",    "by",      "on",
        "enter",  "permission", "board",   "dice",   "choices",  "advance", "along",   "do",
        "give",   "move",       "\"t\"",
    };
    const size_t ntoks = sizeof toks / sizeof *toks;
    uint64_t seed = 7;
    char buf[4096];
    for (int iter = 0; iter < 4000; iter++) {
        size_t len = 0;
        uint32_t n = rng_below(&seed, 120);
        for (uint32_t i = 0; i < n; i++) {
            const char *t = toks[rng_below(&seed, (uint32_t)ntoks)];
            size_t tl = strlen(t);
            if (len + tl + 1 >= sizeof buf)
                break;
            memcpy(buf + len, t, tl);
            len += tl;
            buf[len++] = ' ';
        }
        check_input(buf, len);
    }
}
END_TEST

START_TEST(truncations)
{
    /* every prefix of the sample: unclosed braces, strings cut short, missing ';' ... */
    for (size_t len = 0; len < sizeof sample; len++)
        check_input(sample, len);
}
END_TEST

START_TEST(mutations)
{
    uint64_t seed = 1234;
    static const char repl[] = "{}()[];:,.=?\"\n#x1-";
    char buf[sizeof sample];
    for (int iter = 0; iter < 3000; iter++) {
        memcpy(buf, sample, sizeof sample);
        size_t len = sizeof sample - 1;
        int edits = 1 + (int)rng_below(&seed, 3);
        for (int e = 0; e < edits; e++) {
            size_t at = rng_below(&seed, (uint32_t)len);
            if (rng_below(&seed, 2)) {
                buf[at] = repl[rng_below(&seed, sizeof repl - 1)];
            } else {
                memmove(buf + at, buf + at + 1, len - at - 1);
                len--;
            }
        }
        check_input(buf, len);
    }
}
END_TEST

/* Repeats `unit` n times between head and tail. */
static char *repeat(const char *head, const char *unit, size_t n, const char *tail, size_t *len)
{
    size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
    char *s = malloc(hl + ul * n + tl + 1);
    ck_assert_ptr_nonnull(s);
    memcpy(s, head, hl);
    for (size_t i = 0; i < n; i++)
        memcpy(s + hl + i * ul, unit, ul);
    memcpy(s + hl + ul * n, tail, tl + 1);
    *len = hl + ul * n + tl;
    return s;
}

static bool has_code(const char *text, size_t len, bool expr, int code)
{
    diag_sources src = { 0 };
    diag_list l;
    diag_list_init(&l, &src);
    uint32_t id = diag_sources_add(&src, "d.hon", text, len);
    ast_node *e = NULL;
    ast_file *f = expr ? front_parse_expr("d.hon", text, len, id, &l, &e)
                       : front_parse_file("d.hon", text, len, id, &l);
    ck_assert_ptr_nonnull(f);
    bool found = false;
    for (size_t i = 0; i < l.len; i++)
        found |= l.items[i].code == code;
    if (l.errors)
        ck_assert_ptr_null(e);
    ast_file_free(f);
    diag_list_clear(&l);
    diag_sources_free(&src);
    return found;
}

START_TEST(deep_nesting)
{
    size_t len;
    char *s;
    /* deeper than the parser's stack: E008 from the parser */
    s = repeat("fn f() -> int = ", "(", 100000, "1", &len);
    ck_assert(has_code(s, len, false, 8));
    free(s);
    s = repeat("", "[", 50000, "", &len);
    ck_assert(has_code(s, len, true, 8));
    free(s);
    /* shallow stack, deep tree (left-leaning sums, nested lists): E008 from the depth bound */
    s = repeat("fn f() -> int = 1", " + 1", 20000, ";", &len);
    ck_assert(has_code(s, len, false, 8));
    free(s);
    s = repeat("", "not ", 1000, "x", &len);
    ck_assert(has_code(s, len, true, 8));
    free(s);
    /* FRONT_MAX_DEPTH - 10 nested lists in a function are fine */
    char *open = repeat("fn f() -> int = ", "[", FRONT_MAX_DEPTH - 10, "1", &len);
    char *full = repeat(open, "]", FRONT_MAX_DEPTH - 10, ";", &len);
    ck_assert(!has_code(full, len, false, 8));
    free(open);
    free(full);
    /* unary minus folds into literals, so a long chain of them adds no depth */
    s = repeat("", "- ", 3000, "1", &len);
    ck_assert(!has_code(s, len, true, 8));
    free(s);
}
END_TEST

START_TEST(many_braces_and_errors)
{
    size_t len;
    char *s = repeat("", "{", 5000, "", &len);
    check_input(s, len);
    free(s);
    s = repeat("", "@ ", 5000, "", &len);
    ck_assert(has_code(s, len, false, 9));
    free(s);
    s = repeat("", "kind x y;\n", 1000, "", &len);
    ck_assert(has_code(s, len, false, 9));
    free(s);
}
END_TEST

START_TEST(big_file)
{
    /* 2 MB of declarations parses (the test's timeout bounds the time) */
    size_t len;
    char *s = repeat("", "rule q.r cite \"X\" let a = f(1, 2); when a > 3 and b answer a + 1;\n",
                     30000, "", &len);
    diag_sources src = { 0 };
    diag_list l;
    diag_list_init(&l, &src);
    uint32_t id = diag_sources_add(&src, "b.hon", s, len);
    ast_file *f = front_parse_file("b.hon", s, len, id, &l);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(l.errors, 0);
    ck_assert_uint_eq(f->decls.len, 30000);
    ast_file_free(f);
    diag_list_clear(&l);
    diag_sources_free(&src);
    free(s);
}
END_TEST

START_TEST(allocation_failures)
{
    /* Fail the Nth allocation for every N until a parse needs no failure: each run returns
     * NULL or a complete result, and leaks nothing (LeakSanitizer / valgrind check that). */
    static const char *const inputs[] = {
        sample,
        "kind x y;\nrule q.r cite \"x\" answer (1 +;\n\"unterminated\ntable t(k: int) -> int {",
    };
    for (size_t k = 0; k < 2; k++) {
        const char *text = inputs[k];
        size_t len = strlen(text);
        bool done = false;
        for (long n = 0; n < 20000 && !done; n++) {
            diag_sources src = { 0 };
            diag_list l;
            diag_list_init(&l, &src);
            uint32_t id = diag_sources_add(&src, "a.hon", text, len);
            ck_assert_uint_ne(id, UINT32_MAX);
            ast_node *e = NULL;
            mem_fail_after(n);
            ast_file *f = front_parse_file("a.hon", text, len, id, &l);
            ast_file *g = front_parse_expr("a.hon", "f(x) + [1, 2][0]", 16, id, &l, &e);
            done = mem_failed_count() == 0;
            mem_fail_reset();
            if (done) {
                ck_assert_ptr_nonnull(f);
                ck_assert_ptr_nonnull(g);
                ck_assert_ptr_nonnull(e);
            }
            if (f)
                for (uint32_t i = 0; i < f->decls.len; i++)
                    ck_assert_ptr_nonnull(f->decls.items[i]);
            ast_file_free(f);
            ast_file_free(g);
            diag_list_clear(&l);
            diag_sources_free(&src);
        }
        ck_assert(done);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fuzz");
    TCase *tc = tcase_create("robustness");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, sample_parses);
    tcase_add_test(tc, random_bytes);
    tcase_add_test(tc, printable_noise);
    tcase_add_test(tc, token_soup);
    tcase_add_test(tc, truncations);
    tcase_add_test(tc, mutations);
    tcase_add_test(tc, deep_nesting);
    tcase_add_test(tc, many_braces_and_errors);
    tcase_add_test(tc, big_file);
    tcase_add_test(tc, allocation_failures);
    suite_add_tcase(s, tc);
    return check_run(s);
}
