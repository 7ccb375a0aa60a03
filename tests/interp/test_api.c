/* test_api.c — Check tests of the embedding API (include/hon.h over interp/session.h): all-or-nothing
 * loading, reloads, files and directories, edition and variant choices across reloads,
 * `hon test` output, show / disassemble / list, what a name written in a file stands for
 * (hon_ref_at), a scenario's directives (hon_each_scenario_symbol), and that every JSON answer
 * parses.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "interp_test.h"
#include "mem.h"
#include "session.h"

/* ---- a minimal JSON checker (RFC 8259 grammar, no semantics) ---- */

static const char *js_ws(const char *s)
{
    while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
        s++;
    return s;
}

static const char *js_value(const char *s);

static const char *js_string(const char *s)
{
    if (*s++ != '"')
        return NULL;
    while (*s && *s != '"') {
        if ((unsigned char)*s < 0x20)
            return NULL;
        if (*s == '\\') {
            s++;
            if (*s == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
                        return NULL;
                s += 4;
            } else if (!*s || !strchr("\"\\/bfnrt", *s)) {
                return NULL;
            }
        }
        s++;
    }
    return *s == '"' ? s + 1 : NULL;
}

static const char *js_value(const char *s)
{
    s = js_ws(s);
    if (*s == '{' || *s == '[') {
        char close = *s == '{' ? '}' : ']';
        s = js_ws(s + 1);
        if (*s == close)
            return s + 1;
        for (;;) {
            if (close == '}') {
                s = js_string(js_ws(s));
                if (!s || *(s = js_ws(s)) != ':')
                    return NULL;
                s++;
            }
            if (!(s = js_value(s)))
                return NULL;
            s = js_ws(s);
            if (*s == ',') {
                s++;
                continue;
            }
            return *s == close ? s + 1 : NULL;
        }
    }
    if (*s == '"')
        return js_string(s);
    if (!strncmp(s, "true", 4) || !strncmp(s, "null", 4))
        return s + 4;
    if (!strncmp(s, "false", 5))
        return s + 5;
    const char *start = s;
    if (*s == '-')
        s++;
    while ((*s >= '0' && *s <= '9') || *s == '.' || *s == 'e' || *s == 'E' || *s == '+' ||
           *s == '-')
        s++;
    return s > start ? s : NULL;
}

static int json_valid(const char *s)
{
    const char *end = js_value(s);
    return end && *js_ws(end) == '\0';
}

static char *capture_tests(tvm *t, const char *path, size_t *passed, size_t *failed, hon_status *st)
{
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    ck_assert_ptr_nonnull(m);
    *st = hon_run_tests(t->vm, path, m, passed, failed);
    fclose(m);
    return out;
}

/* ---- loading ---- */

START_TEST(load_error_keeps_program)
{
    tvm *t = tvm_new("fn f() -> int = 1;\n");
    const char *bad = "fn g() -> int = 2;\nfn h() -> int = nope;\n";
    ck_assert_int_eq(hon_load_source(t->vm, "bad.hon", bad, strlen(bad)), HON_ERR_COMPILE);
    ck_assert(has_diag(t, 100, 2, 17));
    ck_assert_str_eq(t->d[0].path, "bad.hon");
    ck_ev(t, "f()", "1");
    ck_ev(t, "g()", "E100"); /* nothing of the bad file was kept */
    /* a syntax error too */
    const char *syn = "fn g() -> int = ;";
    ck_assert_int_eq(hon_load_source(t->vm, "syn.hon", syn, strlen(syn)), HON_ERR_COMPILE);
    ck_ev(t, "f()", "1");
    /* a good file after the bad ones loads on top of the first */
    const char *good = "fn g() -> int = f() + 1;\n";
    ck_assert_int_eq(hon_load_source(t->vm, "good.hon", good, strlen(good)), HON_OK);
    ck_ev(t, "g()", "2");
    /* a later file that clashes with an earlier one: refused, old program kept */
    const char *clash = "fn f() -> int = 5;\n";
    uint32_t sources = t->vm->sources.len;
    ck_assert_int_eq(hon_load_source(t->vm, "clash.hon", clash, strlen(clash)), HON_ERR_COMPILE);
    /* a failed load keeps no copy of its text once its diagnostics are out */
    ck_assert_uint_eq(t->vm->sources.len, sources);
    ck_ev(t, "g()", "2");
    tvm_free(t);
}
END_TEST

START_TEST(reload_keeps_choices)
{
    tvm *t = tvm_new("query q() -> int combine first;\nrule q.a cite \"X\" answer 1;\n"
                     "edition e { replace rule q.a cite \"X\" answer 2; }\n"
                     "variant v { reading one default; reading two; }\n"
                     "fn w() -> int = if variant v == two then 20 else 10;\nsource \"X\";\n");
    ck_ev(t, "q()", "1");
    ck_assert_ptr_null(hon_edition(t->vm));
    ck_assert_int_eq(hon_set_edition(t->vm, "e"), HON_OK);
    ck_assert_int_eq(hon_set_variant(t->vm, "v", "two"), HON_OK);
    ck_ev(t, "q()", "2");
    ck_ev(t, "w()", "20");
    /* loading another file re-resolves everything; the choices survive */
    const char *more = "fn z() -> int = q() + w();\n";
    ck_assert_int_eq(hon_load_source(t->vm, "more.hon", more, strlen(more)), HON_OK);
    ck_assert_str_eq(hon_edition(t->vm), "e");
    ck_ev(t, "z()", "22");
    tvm_free(t);
}
END_TEST

START_TEST(reload_same_path)
{
    /* Loading a path that is already loaded replaces that source (an edited file). */
    tvm *t = tvm_new(NULL);
    const char *v1 = "fn f() -> int = 1;\n", *v2 = "fn f() -> int = 2;\nfn g() -> int = f();\n";
    const char *other = "fn h() -> int = f() * 10;\n";
    ck_assert_int_eq(hon_load_source(t->vm, "a.hon", v1, strlen(v1)), HON_OK);
    ck_assert_int_eq(hon_load_source(t->vm, "b.hon", other, strlen(other)), HON_OK);
    ck_ev(t, "h()", "10");
    ck_assert_int_eq(hon_load_source(t->vm, "a.hon", v2, strlen(v2)), HON_OK);
    ck_ev(t, "h()", "20");
    ck_ev(t, "g()", "2");
    /* a broken edit keeps the previous version */
    const char *v3 = "fn f() -> int = true;\n";
    ck_assert_int_eq(hon_load_source(t->vm, "a.hon", v3, strlen(v3)), HON_ERR_COMPILE);
    ck_ev(t, "h()", "20");
    tvm_free(t);
}
END_TEST

/* A diagnostic about a file as it was before a reload still quotes the old text. The
 * diagnostics' entry of a loaded file borrows the session's copy of its text (load.c,
 * diag_sources_borrow); the reload frees that copy, so it must first give the entry its own
 * (diag_sources_own). Left borrowed, the entry would quote freed memory: ASan reports the use
 * after free, and without ASan the allocator's reuse of the freed block spoils the quote. */
START_TEST(reload_then_old_diagnostic)
{
    tvm *t = tvm_new("fn old_name() -> int = 1;\n");
    uint32_t old_id = t->vm->srcs[0].file_id;
    const char *old_text = t->vm->srcs[0].text;
    ck_assert_ptr_eq(t->vm->sources.files[old_id].text, old_text); /* borrowed, not copied */
    const char *next = "fn new_name() -> int = 2;\n";
    ck_assert_int_eq(hon_load_source(t->vm, "t.hon", next, strlen(next)), HON_OK);
    ck_assert_uint_ne(t->vm->srcs[0].file_id, old_id);             /* the new text is a new entry */
    ck_assert_ptr_ne(t->vm->sources.files[old_id].text, old_text); /* its own copy now */
    tvm_clear(t);
    /* `old_name` is line 1, columns 4 to 11 of the old text */
    ast_loc loc = { .file = old_id, .line = 1, .col = 4, .end_line = 1, .end_col = 11 };
    session_report_at(t->vm, E_NONE, loc, "about the old text");
    ck_assert_msg(strstr(t->log, "fn old_name() -> int = 1;") != NULL, "%s", t->log);
    /* a failed reload frees its own text after trimming the entry that borrowed it, and the
     * old entry still quotes */
    const char *bad = "fn new_name() -> int = nope;\n";
    ck_assert_int_eq(hon_load_source(t->vm, "t.hon", bad, strlen(bad)), HON_ERR_COMPILE);
    tvm_clear(t);
    session_report_at(t->vm, E_NONE, loc, "about the old text");
    ck_assert_msg(strstr(t->log, "fn old_name() -> int = 1;") != NULL, "%s", t->log);
    ck_ev(t, "new_name()", "2");
    tvm_free(t);
}
END_TEST

START_TEST(files_and_dirs)
{
    char dir[] = "/tmp/hon_api_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char a[256], b[256], c[256];
    snprintf(a, sizeof a, "%s/b_second.hon", dir);
    snprintf(b, sizeof b, "%s/a_first.hon", dir);
    snprintf(c, sizeof c, "%s/notes.txt", dir);
    FILE *f = fopen(a, "w");
    fputs("fn two() -> int = one() + 1;\n", f);
    fclose(f);
    f = fopen(b, "w");
    fputs("fn one() -> int = 1;\n", f);
    fclose(f);
    f = fopen(c, "w");
    fputs("not a hon file", f);
    fclose(f);
    tvm *t = tvm_new(NULL);
    ck_assert_int_eq(hon_load_dir(t->vm, dir), HON_OK);
    ck_ev(t, "two()", "2");
    /* check a file against the program without keeping it */
    char d[256];
    snprintf(d, sizeof d, "%s/check.hon", dir);
    f = fopen(d, "w");
    fputs("fn three() -> int = two() + 1;\n", f);
    fclose(f);
    ck_assert_int_eq(hon_check_file(t->vm, d), HON_OK);
    ck_ev(t, "three()", "E100");
    ck_assert_int_eq(hon_load_file(t->vm, d), HON_OK);
    ck_ev(t, "three()", "3");
    /* checking (or loading) a file that is already loaded replaces it: no duplicates */
    ck_assert_int_eq(hon_check_file(t->vm, a), HON_OK);
    ck_assert_int_eq(hon_load_dir(t->vm, dir), HON_OK);
    ck_ev(t, "three()", "3");
    ck_assert_int_eq(hon_load_file(t->vm, "/nonexistent/x.hon"), HON_ERR_IO);
    ck_assert_int_eq(hon_load_dir(t->vm, "/nonexistent"), HON_ERR_IO);
    ck_ev(t, "three()", "3");
    tvm_free(t);
    unlink(a);
    unlink(b);
    unlink(c);
    unlink(d);
    rmdir(dir);
}
END_TEST

/* Writes text into DIR/name, naming it in path (256 bytes), and returns path. */
static const char *put_file(char *path, const char *dir, const char *name, const char *text)
{
    snprintf(path, 256, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* hon_load_dirs loads as hon_load_dir on each directory in turn: the second may use the
 * first's names; when one does not build, those before it stay loaded, it is reported once
 * (one E100) and the rest are not loaded. */
START_TEST(load_dirs_as_in_turn)
{
    char base[] = "/tmp/hon_dirs_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(base));
    char one[256], two[256], bad[256], f1[256], f2[256], f3[256];
    snprintf(one, sizeof one, "%s/one", base);
    snprintf(two, sizeof two, "%s/two", base);
    snprintf(bad, sizeof bad, "%s/bad", base);
    ck_assert_int_eq(mkdir(one, 0700), 0);
    ck_assert_int_eq(mkdir(two, 0700), 0);
    ck_assert_int_eq(mkdir(bad, 0700), 0);
    put_file(f1, one, "a.hon", "fn one() -> int = 1;\n");
    put_file(f2, two, "b.hon", "fn two() -> int = one() + 1;\n");
    put_file(f3, bad, "c.hon", "fn three() -> int = nothing() + 1;\n");
    tvm *t = tvm_new(NULL);
    const char *good[] = { one, two };
    size_t loaded = 9;
    ck_assert_int_eq(hon_load_dirs(t->vm, good, 2, &loaded), HON_OK);
    ck_assert_uint_eq(loaded, 2);
    ck_ev(t, "two()", "2");
    tvm_free(t);
    t = tvm_new(NULL);
    const char *broken[] = { one, bad, two };
    ck_assert_int_eq(hon_load_dirs(t->vm, broken, 3, &loaded), HON_ERR_COMPILE);
    ck_assert_uint_eq(loaded, 1);
    ck_assert_uint_eq(t->ndiags, 1);
    ck_assert_int_eq(t->d[0].code, 100);
    ck_ev(t, "one()", "1");
    ck_ev(t, "two()", "E100");
    tvm_free(t);
    t = tvm_new(NULL);
    const char *missing[] = { one, "/nonexistent" };
    ck_assert_int_eq(hon_load_dirs(t->vm, missing, 2, &loaded), HON_ERR_IO);
    ck_assert_uint_eq(loaded, 1);
    ck_ev(t, "one()", "1");
    ck_assert_int_eq(hon_load_dirs(NULL, good, 2, &loaded), HON_ERR_NOT_FOUND);
    tvm_free(t);
    unlink(f1);
    unlink(f2);
    unlink(f3);
    rmdir(one);
    rmdir(two);
    rmdir(bad);
    rmdir(base);
}
END_TEST

START_TEST(runtime_error_position)
{
    tvm *t = tvm_new("fn f(x: int) -> int =\n  10 / x;\n");
    ck_ev(t, "f(0)", "E205");
    /* the error names the rule file's line, not the REPL's */
    ck_assert_str_eq(t->d[0].path, "t.hon");
    ck_assert_uint_eq(t->d[0].line, 2);
    ck_assert_uint_eq(t->d[0].col, 3);
    ck_assert_ptr_nonnull(strstr(t->log, "t.hon:2:3: error[E205]: division by zero"));
    tvm_free(t);
}
END_TEST

/* ---- tests ---- */

START_TEST(run_tests)
{
    tvm *t = tvm_new("query q(x: int) -> int combine first default 0;\n"
                     "rule q.r cite \"X\" when x > 1 answer x * 10;\n"
                     "edition e { replace rule q.r cite \"X\" when x > 1 answer x; }\n"
                     "enum k { a, b }\ntable t(key: k) -> int { a => 1; b => ?; }\n"
                     "test \"passes\" {\n  expect q(2) == 20;\n  expect q(1) == 0;\n}\n"
                     "test \"under e\" edition e {\n  expect q(2) == 2;\n}\n"
                     "test \"missing cell\" {\n  expect t[b] fails E201;\n}\n"
                     "test \"fails\" {\n  expect q(3) == 31;\n  expect q(3) > 100;\n"
                     "  expect t[a] fails E201;\n  expect t[b] == 1;\n}\nsource \"X\";\n");
    size_t passed = 0, failed = 0;
    hon_status st;
    char *out = capture_tests(t, NULL, &passed, &failed, &st);
    ck_assert_int_eq(st, HON_ERR_RUNTIME);
    ck_assert_uint_eq(passed, 3);
    ck_assert_uint_eq(failed, 1);
    /* q(3) is 30 under the default edition; each failing expect names its line */
    ck_assert_str_eq(
        out,
        "t.hon:17:10: FAIL \"fails\": q(3) is 30, expected 31\n"
        "t.hon:18:10: FAIL \"fails\": the expectation is false\n"
        "t.hon:19:10: FAIL \"fails\": expected error E201, got the value 1\n"
        "t.hon:20:10: FAIL \"fails\": error E201: table `t`, row (b): not given in the source\n"
        "3 passed, 1 failed\n");
    free(out);
    /* the vm's edition is the backdrop of tests without one, and is restored after */
    ck_assert_int_eq(hon_set_edition(t->vm, "e"), HON_OK);
    out = capture_tests(t, "t.hon", &passed, &failed, &st);
    ck_assert_uint_eq(passed, 2); /* "passes" now fails: q(2) is 2 under e */
    ck_assert_str_eq(hon_edition(t->vm), "e");
    free(out);
    out = capture_tests(t, "other.hon", &passed, &failed, &st);
    ck_assert_str_eq(out, "0 passed, 0 failed\n");
    ck_assert_int_eq(st, HON_OK);
    free(out);
    tvm_free(t);
}
END_TEST

/* ---- show, disassemble, list ---- */

static const char *show_src =
    "query speed(x: int) -> int combine first\n  doc \"How fast.\"\n"
    "  default 0;\n# a comment between declarations\n"
    "rule speed.fast\n  cite \"BRO.9.fast\" source \"BRO 9, Speed\" example \"A\"\n"
    "  doc \"Fast units; the text; has a semicolon in a string.\"\n  when x > 3 answer x;\n"
    "rule speed.slow cite \"BRO.9.slow\" doc \"slow\" answer 1;\n"
    "edition ed {\n  replace rule speed.slow cite \"ERR.slow\" answer 2;\n}\n"
    "source \"BRO.9.fast\" = \"BRO 9, Speed\"; source \"BRO.9.slow\"; source \"ERR.slow\";\n";

static char *capture_show(tvm *t, const char *name, hon_status *st, int dis)
{
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    *st = dis ? hon_disassemble(t->vm, name, m) : hon_show(t->vm, name, m);
    fclose(m);
    return out;
}

START_TEST(show)
{
    tvm *t = tvm_new(show_src);
    hon_status st;
    char *out = capture_show(t, "speed.fast", &st, 0);
    ck_assert_int_eq(st, HON_OK);
    ck_assert_str_eq(out, "# rule speed.fast — t.hon:5\nrule speed.fast\n"
                          "  cite \"BRO.9.fast\" source \"BRO 9, Speed\" example \"A\"\n"
                          "  doc \"Fast units; the text; has a semicolon in a string.\"\n"
                          "  when x > 3 answer x;\n"
                          "doc: Fast units; the text; has a semicolon in a string.\n"
                          "cites: BRO.9.fast (BRO 9, Speed), example A\n");
    free(out);
    out = capture_show(t, "speed", &st, 0);
    ck_assert_str_eq(out,
                     "# declaration speed — t.hon:1\n"
                     "query speed(x: int) -> int combine first\n  doc \"How fast.\"\n  default 0;\n"
                     "doc: How fast.\n");
    free(out);
    /* under the edition, the replacement is shown */
    ck_assert_int_eq(hon_set_edition(t->vm, "ed"), HON_OK);
    out = capture_show(t, "speed.slow", &st, 0);
    ck_assert_str_eq(out, "# rule speed.slow — t.hon:11\n# replaced by edition ed\n"
                          "  replace rule speed.slow cite \"ERR.slow\" answer 2;\n"
                          "cites: ERR.slow\n");
    free(out);
    out = capture_show(t, "nothing", &st, 0);
    ck_assert_int_eq(st, HON_ERR_NOT_FOUND);
    free(out);
    tvm_free(t);
}
END_TEST

START_TEST(disassemble)
{
    tvm *t = tvm_new(show_src);
    hon_status st;
    char *out = capture_show(t, "speed.fast", &st, 1);
    ck_assert_int_eq(st, HON_OK);
    /* x > 3 guards `answer x`: a param read, then one compare-and-branch (x <= 3) over the
     * answer */
    ck_assert_str_eq(out, "rule speed.fast: 1 param, 1 local, stack 2\n0000  8:8     GET_LOCAL 0\n"
                          "0002  8:12    INT 3  ; 3\n0004  8:8     JUMP_IF_LE 3  ; -> 0009\n"
                          "0006  8:21    GET_LOCAL 0\n"
                          "0008          RETURN\n0009  8:8     NO_ANSWER\n");
    free(out);
    out = capture_show(t, "speed", &st, 1);
    ck_assert_ptr_nonnull(strstr(out, "query speed: 2 rules\n"));
    ck_assert_ptr_nonnull(strstr(out, "default of speed: 1 param"));
    free(out);
    out = capture_show(t, "nope", &st, 1);
    ck_assert_int_eq(st, HON_ERR_NOT_FOUND);
    free(out);
    tvm_free(t);
}
END_TEST

static void count_rule(void *ud, const hon_rule_info *r)
{
    char *buf = ud;
    size_t n = strlen(buf);
    snprintf(buf + n, 1024 - n, "%s@%u[%s] ", r->name, r->line, r->edition ? r->edition : "-");
}

START_TEST(list_rules)
{
    tvm *t = tvm_new(show_src);
    char buf[1024] = "";
    ck_assert_uint_eq(hon_list_rules(t->vm, NULL, count_rule, buf), 2);
    ck_assert_str_eq(buf, "speed.fast@5[-] speed.slow@9[-] ");
    buf[0] = '\0';
    /* by citation, case-insensitive */
    ck_assert_uint_eq(hon_list_rules(t->vm, "bro.9.SLOW", count_rule, buf), 1);
    /* by doc */
    ck_assert_uint_eq(hon_list_rules(t->vm, "semicolon", NULL, NULL), 1);
    ck_assert_int_eq(hon_set_edition(t->vm, "ed"), HON_OK);
    buf[0] = '\0';
    ck_assert_uint_eq(hon_list_rules(t->vm, "slow", count_rule, buf), 1);
    ck_assert_str_eq(buf, "speed.slow@11[ed] ");
    tvm_free(t);
}
END_TEST

static void each_ed(void *ud, const char *name, const char *parent, const char *title)
{
    char *buf = ud;
    size_t n = strlen(buf);
    snprintf(buf + n, 256 - n, "%s<%s>%s;", name, parent ? parent : "", title ? title : "");
}

static void each_var(void *ud, const char *v, const char *r, const char *doc)
{
    char *buf = ud;
    size_t n = strlen(buf);
    snprintf(buf + n, 256 - n, "%s=%s(%s);", v, r, doc ? doc : "");
}

static void each_use(void *ud, const char *module)
{
    char *buf = ud;
    size_t n = strlen(buf);
    snprintf(buf + n, 64 - n, "%s;", module);
}

/* hon_each_edition_use: the modules an edition's own `uses` names, not those of its parents
 * (language.md section 3.8: b uses m itself; c has m through b only). */
START_TEST(edition_uses)
{
    tvm *t = tvm_new("module m \"M\";\nedition a \"A\";\nedition b extends a uses m;\n"
                     "edition c extends b;\ndefault edition a;\n");
    char buf[64] = "";
    hon_each_edition_use(t->vm, "b", each_use, buf);
    ck_assert_str_eq(buf, "m;");
    buf[0] = '\0';
    hon_each_edition_use(t->vm, "a", each_use, buf);
    hon_each_edition_use(t->vm, "c", each_use, buf);
    hon_each_edition_use(t->vm, "nowhere", each_use, buf);
    hon_each_edition_use(t->vm, NULL, each_use, buf);
    ck_assert_str_eq(buf, "");
    tvm_free(t);
}
END_TEST

START_TEST(enumerations)
{
    tvm *t = tvm_new("edition a \"A\";\nedition b extends a;\ndefault edition a;\n"
                     "variant v \"V doc\" { reading x default; reading y; }\n");
    char buf[256] = "";
    hon_each_edition(t->vm, each_ed, buf);
    ck_assert_str_eq(buf, "a<>A;b<a>;");
    buf[0] = '\0';
    hon_each_variant(t->vm, each_var, buf);
    ck_assert_str_eq(buf, "v=x(V doc);");
    ck_assert_int_eq(hon_set_variant(t->vm, "v", "y"), HON_OK);
    buf[0] = '\0';
    hon_each_variant(t->vm, each_var, buf);
    ck_assert_str_eq(buf, "v=y(V doc);");
    tvm_free(t);
}
END_TEST

START_TEST(json_is_valid)
{
    hon_answer *a = NULL;
    tvm *t =
        tvm_new("enum m { a, b }\nrecord r { s: set<m>, l: list<int>, n: int }\n"
                "query q(x: r) -> r combine first default x;\n"
                "rule q.z cite \"quote\\\" and \\\\ backslash\" source \"tab\\n\" when x.n > 0 "
                "answer r{s: {a}, l: [x.n], n: 0};\n"
                "source \"quote\\\" and \\\\ backslash\" = \"tab\\n\";\n");
    const char *exprs[] = { "q(r{s: {a, b}, l: [1, 2], n: 1})", "q(r{s: {}, l: [], n: 0})",
                            "[true, false]", "-5", "b" };
    for (size_t i = 0; i < sizeof exprs / sizeof *exprs; i++) {
        ck_assert_int_eq(hon_eval(t->vm, exprs[i], "<test>", &a), HON_OK);
        ck_assert_msg(json_valid(hon_answer_json(a)), "invalid JSON: %s", hon_answer_json(a));
        hon_answer_free(a);
    }
    ck_assert_int_eq(hon_odds(t->vm, "roll d6 > 2", "<test>", &a), HON_OK);
    ck_assert(json_valid(hon_answer_json(a)));
    hon_answer_free(a);
    ck_assert(!json_valid("{\"a\": }"));
    ck_assert(!json_valid("[1, 2"));
    tvm_free(t);
}
END_TEST

/* hon_eval_as renders only the forms of the trace asked for: the text and the JSON's value
 * are hon_eval's whatever is asked, each form asked is hon_eval's own, the others empty (the
 * complete trace its setting line alone, which under the default setting is nothing). */
START_TEST(eval_as_renders_what_is_asked)
{
    tvm *t = tvm_new("query q(x: int) -> int combine first default 0;\n"
                     "rule q.pos cite \"P.1\" when x > 0 answer x + 1;\n"
                     "rule q.neg cite \"P.2\" when x < 0 answer 0 - x;\n"
                     "source \"P.1\";\nsource \"P.2\";\n");
    hon_answer *all = NULL, *none = NULL, *why = NULL, *js = NULL;
    ck_assert_int_eq(hon_eval(t->vm, "q(4)", "<test>", &all), HON_OK);
    ck_assert_int_eq(hon_eval_as(t->vm, "q(4)", "<test>", 0, &none), HON_OK);
    ck_assert_int_eq(hon_eval_as(t->vm, "q(4)", "<test>", HON_WANT_WHY | HON_WANT_WHY_NOT, &why),
                     HON_OK);
    ck_assert_int_eq(hon_eval_as(t->vm, "q(4)", "<test>", HON_WANT_JSON, &js), HON_OK);
    ck_assert_str_eq(hon_answer_text(all), "5");
    ck_assert_str_eq(hon_answer_text(none), "5");
    ck_assert_str_eq(hon_answer_text(why), "5");
    ck_assert_str_eq(hon_answer_json(js), hon_answer_json(all));
    ck_assert_ptr_nonnull(strstr(hon_answer_json(none), "\"value\": 5"));
    ck_assert_ptr_nonnull(strstr(hon_answer_json(none), "\"trace\": null"));
    ck_assert_ptr_nonnull(strstr(hon_answer_why(all), "q.pos"));
    ck_assert_str_eq(hon_answer_why(why), hon_answer_why(all));
    ck_assert_str_eq(hon_answer_why_not(why), hon_answer_why_not(all));
    ck_assert_str_eq(hon_answer_trace(why), "");
    ck_assert_str_eq(hon_answer_trace(none), "");
    ck_assert_str_eq(hon_answer_why(none), "");
    ck_assert_str_eq(hon_answer_why_not(none), "");
    ck_assert_str_eq(hon_answer_fired(none), "");
    ck_assert_str_ne(hon_answer_fired(all), "");
    hon_answer_free(all);
    hon_answer_free(none);
    hon_answer_free(why);
    hon_answer_free(js);
    tvm_free(t);
}
END_TEST

/* What a guard found (which operand was false, what a comparison compared) is worded only by
 * the complete trace, the reasons and the JSON, so only those run the rules' explained chunks
 * (vm.md §6a), which are compiled on a rule's first such run: `why` alone (the brief form, as
 * the hon program asks it) and the rules that fired leave them uncompiled, and say what a
 * full answer says. q(4) + q(-3) runs both rules of q: q(4) fires q.pos (5); q(-3) checks
 * q.pos (-3 > 0 is false) and fires q.neg (3). */
START_TEST(brief_trace_compiles_no_guard)
{
    tvm *t = tvm_new("query q(x: int) -> int combine first default 0;\n"
                     "rule q.pos cite \"P.1\" when x > 0 answer x + 1;\n"
                     "rule q.neg cite \"P.2\" when x < 0 answer 0 - x;\n"
                     "source \"P.1\";\nsource \"P.2\";\n");
    const prog *pg = t->vm->pg;
    hon_answer *why = NULL, *fired = NULL, *all = NULL;
    ck_assert_int_eq(hon_eval_as(t->vm, "q(4) + q(-3)", "<test>", HON_WANT_WHY, &why), HON_OK);
    ck_assert_int_eq(hon_eval_as(t->vm, "q(4) + q(-3)", "<test>", HON_WANT_FIRED, &fired), HON_OK);
    for (size_t r = 0; r < pg->res->nrules; r++)
        ck_assert_msg(pg->explained[r] == NULL, "rule %zu's explained chunk compiled", r);
    ck_assert_int_eq(hon_eval(t->vm, "q(4) + q(-3)", "<test>", &all), HON_OK);
    /* q(4) + q(-3) = 5 + 3: both rules ran traced, so both are compiled now */
    ck_assert_str_eq(hon_answer_text(all), "8");
    for (size_t r = 0; r < pg->res->nrules; r++)
        ck_assert_ptr_nonnull(pg->explained[r]);
    ck_assert_str_eq(hon_answer_why(why), hon_answer_why(all));
    ck_assert_str_eq(hon_answer_fired(fired), hon_answer_fired(all));
    hon_answer_free(why);
    hon_answer_free(fired);
    hon_answer_free(all);
    tvm_free(t);
}
END_TEST

/* A guard is quoted from its file through an index of where the file's lines start, made only
 * as far as the quotes need (bench.md §11: indexing whole files was 137 K of a JSON trace). The
 * rule is on line 2 of a file of 3,002 lines, so at most its two lines are indexed; the last
 * rule's guard runs over the file's last two lines (no newline after them), which must still
 * be quoted whole, its line break one space. */
START_TEST(guard_quotes_index_only_the_lines_they_need)
{
    static char text[60000];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "query q(x: int) -> int combine first default 0;\n"
                                "rule q.pos cite \"P.1\" when x > 0 answer x + 1;\n");
    for (int i = 0; i < 3000; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "# filler %d\n", i);
    snprintf(text + n, sizeof text - n,
             "source \"P.1\";\nquery r(x: int) -> int combine first default 0;\n"
             "rule r.big cite \"P.1\" when x >\n    7 answer x;");
    tvm *t = tvm_new(text);
    const prog *pg = t->vm->pg;
    hon_answer *a = NULL;
    ck_assert_int_eq(hon_eval(t->vm, "q(4)", "<test>", &a), HON_OK);
    ck_assert_ptr_nonnull(strstr(hon_answer_json(a), "{\"text\": \"x > 0\", \"unless\": false, "
                                                     "\"passed\": true"));
    size_t indexed = 0;
    for (size_t i = 0; pg->source->lines && i < pg->source->nfiles; i++)
        indexed += pg->source->lines[i].n;
    ck_assert_uint_ge(indexed, 2);
    ck_assert_uint_le(indexed, 2);
    hon_answer_free(a);
    ck_assert_int_eq(hon_eval(t->vm, "r(3)", "<test>", &a), HON_OK);
    ck_assert_ptr_nonnull(strstr(hon_answer_json(a), "{\"text\": \"x > 7\", \"unless\": false, "
                                                     "\"passed\": false"));
    hon_answer_free(a);
    tvm_free(t);
}
END_TEST

/* How many allocations compiling rule r's explained chunk takes: the least N for which
 * failing every allocation after the first N still compiles it (each failing attempt must
 * give NULL and leak nothing: the suite runs under ASan). */
static long explained_allocations(const prog *pg, uint32_t r)
{
    for (long n = 0; n < 10000; n++) {
        diag_list dl;
        diag_list_init(&dl, NULL);
        mem_fail_after(n);
        chunk *ch = comp_rule_explained(pg->res, r, pg->rules[r], pg->source, &dl);
        mem_fail_reset();
        diag_list_clear(&dl);
        if (ch) {
            ck_assert_uint_eq(ch->nconj, 3);
            chunk_free(ch);
            return n;
        }
    }
    return -1;
}

/* A rule's explained chunk is its plain chunk plus a few words per guard operand, so its
 * arrays are sized from the plain chunk's before anything is emitted (chunk_reserve): how
 * many allocations it takes depends on its guard, not on the length of its code. Rules a and
 * b have the same guard; b has sixty lets more (240 code words and 60 spans: growing the
 * code and span arrays from 4 by doubling took six and four more reallocs, most of compiling
 * the explained chunks of bench.md §11's JSON answer). */
START_TEST(explained_chunk_sized_from_the_plain_one)
{
    static char text[8192];
    size_t n =
        (size_t)snprintf(text, sizeof text,
                         "query q(x: int) -> int combine first default 0;\n"
                         "rule q.a cite \"P.1\" when x > 0 and x < 100 and x != 5 answer x;\n"
                         "rule q.b cite \"P.1\"\n");
    for (int i = 0; i < 60; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "  let y%d = x;\n", i);
    snprintf(text + n, sizeof text - n,
             "  when x > 0 and x < 100 and x != 5 answer x;\nsource \"P.1\";\n");
    tvm *t = tvm_new(text);
    const prog *pg = t->vm->pg;
    ck_assert_uint_eq(pg->res->nrules, 2);
    ck_assert_uint_ge(pg->rules[1]->len, pg->rules[0]->len + 200);
    /* the quotes' line index, made by the file's first quote, is not counted */
    ck_assert_int_ge(explained_allocations(pg, 1), 1);
    long a = explained_allocations(pg, 0), b = explained_allocations(pg, 1);
    ck_assert_int_ge(a, 1);
    ck_assert_int_eq(a, b);
    tvm_free(t);
}
END_TEST

/* A session asked ever new texts keeps bounded memory: once a call has returned, its answer is
 * rendered whole and its diagnostics handed on, so neither a typed expression's text nor a
 * rejected board's text is needed again (the fuzz targets share one session across hundreds of
 * thousands of inputs, and a long REPL session is the same). Each bad board's error must still
 * quote its own line: the text is dropped only after the diagnostic is rendered. */
START_TEST(sources_stay_bounded)
{
    tvm *t = tvm_new("fn twice(n: int) -> int = 2 * n;\n");
    uint32_t base = t->vm->sources.len;
    char text[128];
    for (int i = 0; i < 200; i++) {
        snprintf(text, sizeof text, "twice(%d)", i);
        char want[32];
        snprintf(want, sizeof want, "%d", 2 * i);
        ck_assert_str_eq(ev(t, text), want);
        snprintf(text, sizeof text, "twice(%d) + nosuch%d", i, i);
        ck_assert_str_eq(ev(t, text), "E100");
        tvm_clear(t);
        snprintf(text, sizeof text, "size 2 x 1\nbogus%d line\n", i);
        ck_assert_int_ne(hon_load_board_source(t->vm, "bad.scn", text, strlen(text)), HON_OK);
        char quoted[32];
        snprintf(quoted, sizeof quoted, "bogus%d line", i);
        ck_assert_msg(strstr(t->log, quoted), "the error quotes its line: %s", t->log);
    }
    ck_assert_uint_le(t->vm->sources.len, base + 1);
    tvm_free(t);
}
END_TEST

/* hon_ref_at's answer, kept: "KIND NAME within WITHIN : TYPE @LINE:COL" */
static void keep_ref(void *ud, const hon_decl *d)
{
    snprintf(ud, 160, "%d %s within %s : %s @%u:%u", (int)d->kind, d->name,
             d->within ? d->within : "-", d->type ? d->type : "-", d->line, d->col);
}

/* The column (from 1) of the nth (from 0) occurrence of needle in line `line` of src. */
static unsigned col_of(const char *src, unsigned line, const char *needle, int nth)
{
    const char *p = src;
    for (unsigned l = 1; l < line; l++)
        p = strchr(p, '\n') + 1;
    const char *at = strstr(p, needle);
    while (nth-- > 0)
        at = strstr(at + 1, needle);
    return (unsigned)(at - p) + 1;
}

START_TEST(references)
{
    /* `same` is a member of a and of b; in f, `e == same` compares with e, a b: b's `same` (line
     * 2), not a's (line 1). `p.x`: p is f's parameter of record type pt, so x is pt's field
     * (line 3). `p` itself is the parameter, bound in f's parameter list (line 4). The keyword
     * `fn` names nothing the resolver read. */
    const char *src = "enum a { same, other }\n"
                      "enum b { same, third }\n"
                      "record pt { x: int, y: int }\n"
                      "fn f(p: pt, e: b) -> bool = p.x > 0 and e == same;\n";
    tvm *t = tvm_new(src);
    char got[160], want[160];
    ck_assert_int_eq(hon_ref_at(t->vm, "t.hon", 4, col_of(src, 4, "same", 0), keep_ref, got),
                     HON_OK);
    snprintf(want, sizeof want, "%d same within b : - @2:%u", (int)HON_DECL_MEMBER,
             col_of(src, 2, "same", 0));
    ck_assert_str_eq(got, want);
    ck_assert_int_eq(hon_ref_at(t->vm, "t.hon", 4, col_of(src, 4, "p.x", 0) + 2, keep_ref, got),
                     HON_OK);
    snprintf(want, sizeof want, "%d x within pt : int @3:%u", (int)HON_DECL_FIELD,
             col_of(src, 3, "x:", 0));
    ck_assert_str_eq(got, want);
    ck_assert_int_eq(hon_ref_at(t->vm, "t.hon", 4, col_of(src, 4, "p.x", 0), keep_ref, got),
                     HON_OK);
    snprintf(want, sizeof want, "%d p within f : pt @4:%u", (int)HON_DECL_LOCAL,
             col_of(src, 4, "p:", 0));
    ck_assert_str_eq(got, want);
    ck_assert_int_eq(hon_ref_at(t->vm, "t.hon", 4, 1, keep_ref, got), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(hon_ref_at(t->vm, "other.hon", 4, 30, keep_ref, got), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(hon_ref_at(NULL, "t.hon", 4, 30, keep_ref, got), HON_ERR_NOT_FOUND);
    tvm_free(t);
}
END_TEST

static void keep_symbol(void *ud, const hon_scn_symbol *s)
{
    char *buf = ud;
    size_t n = strlen(buf);
    snprintf(buf + n, 512 - n, "%s:%s(%s)@%u:%u-%u;", s->directive, s->name,
             s->detail ? s->detail : "", s->line, s->col, s->last_line);
}

START_TEST(scenario_symbols)
{
    /* Read as board.md §4 writes the directives, nothing resolved: the counter `nosuch` is no
     * error here. The legend's two entries, the map running to its last row (line 5). */
    const char *scn = "size 2 x 2   # a comment\n"
                      "legend . = open  h = hill + mound\n"
                      "map\n"
                      "  1 . h\n"
                      "  2 . .\n"
                      "unit r = nosuch allies at A1\n";
    char buf[512] = "";
    ck_assert_uint_eq(hon_each_scenario_symbol(scn, strlen(scn), keep_symbol, buf), 5);
    ck_assert_str_eq(buf, "size:size 2 x 2()@1:1-1;legend:. = open()@2:8-2;"
                          "legend:h = hill + mound()@2:18-2;map:map()@3:1-5;"
                          "unit:r(nosuch allies at A1)@6:6-6;");
    ck_assert_uint_eq(hon_each_scenario_symbol(NULL, 0, keep_symbol, buf), 0);
}
END_TEST

START_TEST(null_safety)
{
    ck_assert_int_eq(hon_load_source(NULL, "x", "", 0), HON_ERR_NOT_FOUND);
    ck_assert_int_eq(hon_eval(NULL, "1", NULL, NULL), HON_ERR_NOT_FOUND);
    ck_assert_ptr_null(hon_edition(NULL));
    hon_vm_free(NULL);
    hon_answer_free(NULL);
    ck_assert_str_eq(hon_answer_text(NULL), "");
    tvm *t = tvm_new(NULL);
    /* an answer is optional */
    ck_assert_int_eq(hon_eval(t->vm, "1 + 1", NULL, NULL), HON_OK);
    ck_assert_int_eq(hon_eval(t->vm, "", "<test>", NULL), HON_ERR_COMPILE);
    ck_assert_str_eq(hon_status_text(HON_ERR_IO), "the file could not be read or written");
    tvm_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_add_test(tc, load_error_keeps_program);
    tcase_add_test(tc, eval_as_renders_what_is_asked);
    tcase_add_test(tc, brief_trace_compiles_no_guard);
    tcase_add_test(tc, guard_quotes_index_only_the_lines_they_need);
    tcase_add_test(tc, explained_chunk_sized_from_the_plain_one);
    tcase_add_test(tc, load_dirs_as_in_turn);
    tcase_add_test(tc, reload_keeps_choices);
    tcase_add_test(tc, reload_same_path);
    tcase_add_test(tc, reload_then_old_diagnostic);
    tcase_add_test(tc, files_and_dirs);
    tcase_add_test(tc, runtime_error_position);
    tcase_add_test(tc, run_tests);
    tcase_add_test(tc, show);
    tcase_add_test(tc, disassemble);
    tcase_add_test(tc, list_rules);
    tcase_add_test(tc, enumerations);
    tcase_add_test(tc, edition_uses);
    tcase_add_test(tc, json_is_valid);
    tcase_add_test(tc, null_safety);
    tcase_add_test(tc, references);
    tcase_add_test(tc, scenario_symbols);
    tcase_add_test(tc, sources_stay_bounded);
    suite_add_tcase(s, tc);
    return check_run(s);
}
