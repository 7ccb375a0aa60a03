/* test_record.c — Check tests of the start-up cache's build records (interp/cache.h; load.c;
 * res_resolve_as; bench.md §9): a session that answers once (hon_build_lazily) and loads a set
 * of files that once built with no diagnostic leaves the bodies of its rules, fns and defaults
 * unresolved until a query's first call reaches them. A set never seen, or one whose build
 * reported anything (an error, a warning), builds whole, so a load's diagnostics are those of
 * a whole build; a record that is damaged is no record. The answers, traces and errors are the
 * eager build's either way.
 *
 * Each test has a cache directory of its own (XDG_CACHE_HOME) and writes its rules files
 * there: only files go through the cache (a text loaded as such never has a record).
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "ast_image.h"
#include "front.h"
#include "interp_test.h"
#include "mem.h"
#include "program.h"
#include "session.h"

/* The program of test_lazy.c (its comment there gives the answers):
 *   twice(n) = n + n; total(x) sum default 10: 1, +2 when x > 0; pick(x) first default 9:
 *   twice(x) when x > 1; outer(x) = pick(x) + total(x); alone(x) = x. Under edition `double`,
 *   pick.more answers twice(twice(x)): pick(4) = 16, outer(4) = 29. */
static const char *const PROGRAM =
    "source \"T.1\" = \"this test's rules\";\n"
    "fn twice(n: int) -> int = n + n;\n"
    "query total(x: int) -> int combine sum default 10;\n"
    "rule total.one cite \"T.1\" answer 1;\n"
    "rule total.two cite \"T.1\" when x > 0 answer 2;\n"
    "query least(x: int) -> int combine min;\n"
    "rule least.x cite \"T.1\" when x > 0 answer x;\n"
    "query pick(x: int) -> int combine first default 9;\n"
    "rule pick.more cite \"T.1\" when x > 1 answer twice(x);\n"
    "query outer(x: int) -> int combine sum;\n"
    "rule outer.calls cite \"T.1\" answer pick(x) + total(x);\n"
    "query alone(x: int) -> int combine first default x;\n"
    "rule alone.one cite \"T.1\" when x > 5 answer x;\n"
    "edition double { replace rule pick.more cite \"T.1\" when x > 1 answer twice(twice(x)); }\n";

/* This test's cache directory (XDG_CACHE_HOME) and its rules file, made by fresh_cache. */
static char dir[64], rules[96], records[96];

/* Removes the files fresh_cache's directory holds, and it (run at exit: each test is a
 * process of its own). */
static void remove_cache(void)
{
    DIR *d = opendir(records);
    char path[400];
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        snprintf(path, sizeof path, "%s/%s", records, e->d_name);
        if (e->d_name[0] != '.')
            (void)remove(path);
    }
    if (d)
        closedir(d);
    (void)rmdir(records);
    (void)remove(rules);
    (void)rmdir(dir);
}

/* A new empty cache directory for this test, the cache on. */
static void fresh_cache(void)
{
    snprintf(dir, sizeof dir, "/tmp/hon-record-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(setenv("XDG_CACHE_HOME", dir, 1), 0);
    ck_assert_int_eq(unsetenv("HON_NO_CACHE"), 0);
    snprintf(rules, sizeof rules, "%s/rules.hon", dir);
    snprintf(records, sizeof records, "%s/hon", dir);
    atexit(remove_cache);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
}

/* The number of build records in the cache, and the path of the last one seen in *path. */
static int count_records(char *path, size_t cap)
{
    DIR *d = opendir(records);
    int n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t l = strlen(e->d_name);
        if (l == 20 && strcmp(e->d_name + 16, ".rec") == 0) {
            n++;
            if (path)
                snprintf(path, cap, "%s/%s", records, e->d_name);
        }
    }
    closedir(d);
    return n;
}

/* A session that loads the file at path, built lazily or not; *st gets the load's status. */
static tvm *load_as(const char *path, bool lazy, hon_status *st)
{
    tvm *t = tvm_new(NULL);
    ck_assert_int_eq(hon_build_lazily(t->vm, lazy), HON_OK);
    *st = hon_load_file(t->vm, path);
    return t;
}

/* load_as, the load must succeed. */
static tvm *session_of(const char *path, bool lazy)
{
    hon_status st;
    tvm *t = load_as(path, lazy, &st);
    ck_assert_msg(st == HON_OK, "load failed (%s):\n%s", hon_status_text(st), t->log);
    return t;
}

/* How many of the program's rules, fns and defaults are still deferred. */
static size_t deferred(const tvm *t)
{
    const res_program *p = t->vm->pg->res;
    size_t n = 0;
    for (size_t r = 0; r < p->nrules; r++)
        n += p->rules[r].deferred;
    for (size_t f = 0; f < p->nfns; f++)
        n += p->fns[f].deferred;
    for (size_t q = 0; q < p->nqueries; q++)
        n += p->queries[q].dflt_deferred;
    return n;
}

/* The id of the top-level rule called name. */
static size_t rule_id(const tvm *t, const char *name)
{
    const res_program *p = t->vm->pg->res;
    for (size_t r = 0; r < p->nrules; r++)
        if (strcmp(p->rules[r].name, name) == 0 && p->rules[r].edition == -1)
            return r;
    ck_abort_msg("no rule %s", name);
    return 0;
}

static bool rule_deferred(const tvm *t, const char *name)
{
    return t->vm->pg->res->rules[rule_id(t, name)].deferred;
}

START_TEST(a_clean_set_is_recorded_then_deferred)
{
    fresh_cache();
    write_text(rules, PROGRAM);
    /* the first lazy load builds whole (no record yet) and, reporting nothing, records it */
    tvm *first = session_of(rules, true);
    ck_assert_uint_eq(deferred(first), 0);
    ck_assert_int_eq(count_records(NULL, 0), 1);
    tvm_free(first);
    /* an eager session (the REPL) neither reads nor writes records: it builds whole */
    tvm *eager = session_of(rules, false);
    ck_assert_uint_eq(deferred(eager), 0);
    tvm_free(eager);
    /* the second lazy load defers every body: 7 rules (6 top-level, double's replacement),
     * the fn twice, the defaults of total, pick and alone */
    tvm *t = session_of(rules, true);
    ck_assert_uint_eq(t->vm->pg->res->nrules, 7);
    ck_assert_uint_eq(deferred(t), 7 + 1 + 3);
    ck_assert_uint_eq(t->ndiags, 0);
    /* outer(4) = pick(4) + total(4) = 8 + 13: it resolves the rules of outer, pick (with
     * double's replacement: a query's rules under every edition at once) and total, their
     * defaults and twice; not least's rule, alone's rule nor alone's default */
    ck_assert_str_eq(ev_as(t, "outer(4)", false), "21");
    ck_assert(!rule_deferred(t, "outer.calls") && !rule_deferred(t, "pick.more") &&
              !rule_deferred(t, "total.one") && !rule_deferred(t, "total.two"));
    ck_assert(rule_deferred(t, "least.x") && rule_deferred(t, "alone.one"));
    ck_assert_uint_eq(deferred(t), 3); /* least.x, alone.one, alone's default */
    /* a rule resolved later has the locals the whole pass gives it: its query's parameter */
    ck_assert_uint_eq(t->vm->pg->res->rules[rule_id(t, "outer.calls")].nlocals, 1);
    ck_assert_str_eq(ev(t, "alone(7)"), "7");
    ck_assert_str_eq(ev(t, "alone(2)"), "2"); /* the default, x */
    ck_assert_uint_eq(deferred(t), 1);
    tvm_free(t);
}
END_TEST

/* The expressions asked, each first in a fresh deferred session and in an eager one. */
static const char *const ASKED[] = { "total(3)", "total(0)",    "least(2)", "least(0)",
                                     "pick(4)",  "pick(1)",     "outer(4)", "twice(alone(3))",
                                     "alone(9)", "least(0) + 1" };

static void compare(const char *edition)
{
    for (size_t i = 0; i < sizeof ASKED / sizeof ASKED[0]; i++) {
        for (int traced = 0; traced < 2; traced++) {
            tvm *l = session_of(rules, true), *e = session_of(rules, false);
            ck_assert_uint_gt(deferred(l), 0);
            if (edition) {
                ck_assert_int_eq(hon_set_edition(l->vm, edition), HON_OK);
                ck_assert_int_eq(hon_set_edition(e->vm, edition), HON_OK);
            }
            char got[8192];
            snprintf(got, sizeof got, "%s", ev_as(l, ASKED[i], traced));
            ck_assert_msg(strcmp(got, ev_as(e, ASKED[i], traced)) == 0,
                          "%s (traced %d): deferred %s, eagerly %s", ASKED[i], traced, got,
                          e->last);
            ck_assert_str_eq(l->log, e->log);
            if (traced && got[0] != 'E') {
                snprintf(got, sizeof got, "%s", why(l, ASKED[i]));
                ck_assert_str_eq(got, why(e, ASKED[i]));
            }
            tvm_free(l);
            tvm_free(e);
        }
    }
}

START_TEST(deferred_answers_as_eager)
{
    fresh_cache();
    write_text(rules, PROGRAM);
    tvm_free(session_of(rules, true)); /* records the set */
    compare(NULL);
    compare("double");
    /* double's answers (PROGRAM's comment) */
    tvm *t = session_of(rules, true);
    ck_assert_int_eq(hon_set_edition(t->vm, "double"), HON_OK);
    ck_assert_str_eq(ev(t, "outer(4)"), "29");
    ck_assert_str_eq(ev(t, "pick(4)"), "16");
    tvm_free(t);
}
END_TEST

/* The diagnostics of loading text from path with the cache off (the whole build, never a
 * record): the reference a load with records must match. */
static void reference_log(const char *text, hon_status want, char *log, size_t cap)
{
    write_text(rules, text);
    ck_assert_int_eq(setenv("HON_NO_CACHE", "1", 1), 0);
    hon_status st;
    tvm *t = load_as(rules, true, &st);
    ck_assert_int_eq(st, want);
    snprintf(log, cap, "%s", t->log);
    tvm_free(t);
    ck_assert_int_eq(unsetenv("HON_NO_CACHE"), 0);
}

/* PROGRAM with its one `from` replaced by `to`, into out. */
static void replaced(const char *from, const char *to, char *out, size_t cap)
{
    const char *at = strstr(PROGRAM, from);
    ck_assert_ptr_nonnull(at);
    snprintf(out, cap, "%.*s%s%s", (int)(at - PROGRAM), PROGRAM, to, at + strlen(from));
}

START_TEST(an_edited_file_builds_whole)
{
    /* The clean set is recorded; the file is then edited so that a rule body no query of the
     * first set's answers reaches (alone.one) names nothing. The edited text is another set:
     * it builds whole and reports the error at every load, as with the cache off, and is never
     * recorded, so no session ever leaves that body to a first call that might not come. */
    fresh_cache();
    write_text(rules, PROGRAM);
    tvm_free(session_of(rules, true));
    tvm *t = session_of(rules, true);
    ck_assert_uint_gt(deferred(t), 0);
    tvm_free(t);
    ck_assert_int_eq(count_records(NULL, 0), 1);
    char broken[4096], want[16384];
    replaced("when x > 5 answer x;", "when y > 5 answer x;", broken, sizeof broken); /* no y */
    reference_log(broken, HON_ERR_COMPILE, want, sizeof want);
    ck_assert_ptr_nonnull(strstr(want, "error[E"));
    for (int i = 0; i < 2; i++) {
        hon_status st;
        tvm *b = load_as(rules, true, &st);
        ck_assert_int_eq(st, HON_ERR_COMPILE);
        ck_assert_str_eq(b->log, want);
        tvm_free(b);
    }
    ck_assert_int_eq(count_records(NULL, 0), 1);
    /* edited again, cleanly (alone.one answers x + 1): a set of its own, recorded, deferred */
    replaced("when x > 5 answer x;", "when x > 5 answer x + 1;", broken, sizeof broken);
    write_text(rules, broken);
    tvm_free(session_of(rules, true));
    ck_assert_int_eq(count_records(NULL, 0), 2);
    t = session_of(rules, true);
    ck_assert_uint_gt(deferred(t), 0);
    ck_assert_str_eq(ev(t, "alone(7)"), "8");
    tvm_free(t);
}
END_TEST

START_TEST(a_warning_is_never_recorded)
{
    /* A revision that changes nothing is the warning E145: the load succeeds and reports it.
     * Such a set is never recorded, so every load builds whole and reports it again. */
    fresh_cache();
    char text[4096], want[16384];
    snprintf(text, sizeof text, "%s%s", PROGRAM,
             "edition same { revise rule total.two cite \"T.1\" when x > 0; }\n");
    reference_log(text, HON_OK, want, sizeof want);
    ck_assert_ptr_nonnull(strstr(want, "warning[E145]"));
    for (int i = 0; i < 3; i++) {
        hon_status st;
        tvm *t = load_as(rules, true, &st);
        ck_assert_int_eq(st, HON_OK);
        ck_assert_str_eq(t->log, want);
        ck_assert_uint_eq(deferred(t), 0);
        ck_assert_str_eq(ev(t, "outer(4)"), "21");
        tvm_free(t);
    }
    ck_assert_int_eq(count_records(NULL, 0), 0);
}
END_TEST

START_TEST(a_text_source_and_no_cache_have_no_record)
{
    fresh_cache();
    /* a text loaded as such never went through the cache: no key, no record */
    tvm *t = tvm_new(NULL);
    hon_build_lazily(t->vm, true);
    ck_assert_int_eq(hon_load_source(t->vm, "t.hon", PROGRAM, strlen(PROGRAM)), HON_OK);
    ck_assert_int_eq(hon_load_source(t->vm, "u.hon", "fn u() -> int = 1;\n", 19), HON_OK);
    ck_assert_uint_eq(deferred(t), 0);
    tvm_free(t);
    ck_assert_int_eq(count_records(NULL, 0), 0);
    /* HON_NO_CACHE: none written, none read */
    write_text(rules, PROGRAM);
    ck_assert_int_eq(setenv("HON_NO_CACHE", "1", 1), 0);
    for (int i = 0; i < 2; i++) {
        t = session_of(rules, true);
        ck_assert_uint_eq(deferred(t), 0);
        tvm_free(t);
    }
    ck_assert_int_eq(count_records(NULL, 0), 0);
    ck_assert_int_eq(unsetenv("HON_NO_CACHE"), 0);
}
END_TEST

static void read_file(const char *path, unsigned char *buf, size_t cap, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    *len = fread(buf, 1, cap, f);
    fclose(f);
}

static void write_bytes(const char *path, const unsigned char *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

START_TEST(a_damaged_record_is_no_record)
{
    /* Every shorter record, a longer one, and every single bit of it flipped: the load builds
     * whole (nothing deferred), answers, and writes the record again as it was. */
    fresh_cache();
    write_text(rules, PROGRAM);
    tvm_free(session_of(rules, true));
    char path[160];
    ck_assert_int_eq(count_records(path, sizeof path), 1);
    unsigned char good[64], got[64];
    size_t len, glen;
    read_file(path, good, sizeof good, &len);
    ck_assert_uint_eq(len, 24);
    unsigned char bad[64];
    for (size_t k = 0; k <= 24 * 8 + 24; k++) {
        size_t blen;
        memcpy(bad, good, len);
        if (k < 24 * 8) { /* bit k flipped */
            bad[k / 8] ^= (unsigned char)(1u << (k % 8));
            blen = len;
        } else if (k < 24 * 8 + 24) { /* cut to k - 192 bytes */
            blen = k - 24 * 8;
        } else { /* one byte more */
            bad[24] = 0;
            blen = 25;
        }
        write_bytes(path, bad, blen);
        tvm *t = session_of(rules, true);
        ck_assert_msg(deferred(t) == 0, "damaged record %zu was read", k);
        ck_assert_str_eq(ev(t, "outer(4)"), "21");
        tvm_free(t);
        read_file(path, got, sizeof got, &glen);
        ck_assert_uint_eq(glen, len);
        ck_assert_mem_eq(got, good, len);
    }
    /* and the record rewritten is read again */
    tvm *t = session_of(rules, true);
    ck_assert_uint_gt(deferred(t), 0);
    tvm_free(t);
}
END_TEST

START_TEST(memory_failing_deferred)
{
    /* With the record there: the load, then outer(4)'s first call, with the Nth allocation and
     * every later one failing, for N = 0, 1, 2...: nothing may crash; a load that fails says so
     * (and loads nothing); a first call that fails is an error of that evaluation; with memory
     * back, the session answers 21. Ends at the first N where nothing failed. */
    fresh_cache();
    write_text(rules, PROGRAM);
    tvm_free(session_of(rules, true));
    for (int phase = 0; phase < 2; phase++) {
        for (long n = 0;; n++) {
            tvm *t = tvm_new(NULL);
            hon_build_lazily(t->vm, true);
            if (phase == 0)
                mem_fail_after(n);
            hon_status st = hon_load_file(t->vm, rules);
            if (phase == 1)
                mem_fail_after(n);
            const char *got = st == HON_OK ? ev(t, "outer(4)") : "";
            long failed = mem_failed_count();
            mem_fail_reset();
            if (st == HON_OK) {
                if (!failed)
                    ck_assert_str_eq(got, "21");
                ck_assert_str_eq(ev(t, "outer(4)"), "21");
                ck_assert_str_eq(ev_as(t, "outer(4)", true), "21");
            }
            tvm_free(t);
            if (!failed)
                break;
        }
    }
}
END_TEST

START_TEST(a_forged_record_never_faults)
{
    /* A record vouches for a set that in truth has an error in a rule body (as a record forged
     * by hand would): prog_build with the bodies deferred reports nothing, and the first call
     * of the query fails to make it ready (as memory running out does), with no fault; the
     * other queries answer. */
    const char *text = "source \"T.1\" = \"this test's rules\";\n"
                       "query q(x: int) -> int combine first default 1;\n"
                       "rule q.a cite \"T.1\" answer nowhere + x;\n"
                       "query r(x: int) -> int combine first default 2;\n";
    diag_list dl;
    diag_list_init(&dl, NULL);
    ast_file **files = mem_calloc(1, sizeof *files);
    ck_assert_ptr_nonnull(files);
    files[0] = front_parse_file("t.hon", text, strlen(text), 0, &dl);
    ck_assert_ptr_nonnull(files[0]);
    prog *pg = prog_build(files, 1, true, true, &dl);
    ck_assert_ptr_nonnull(pg);
    ck_assert_uint_eq(dl.len, 0);
    int32_t q = model_find_query(pg->res, "q"), r = model_find_query(pg->res, "r");
    ck_assert(q >= 0 && r >= 0);
    ck_assert(!prog_ready(pg, (uint32_t)q));
    ck_assert(!prog_ready(pg, (uint32_t)q)); /* tried again: the same */
    ck_assert(pg->res->rules[0].deferred);
    ck_assert(prog_ready(pg, (uint32_t)r));
    ck_assert_ptr_nonnull(pg->defaults[r]);
    prog_free(pg);
    diag_list_clear(&dl);
    /* the same program built whole reports the error */
    files = mem_calloc(1, sizeof *files);
    files[0] = front_parse_file("t.hon", text, strlen(text), 0, &dl);
    ck_assert_ptr_null(prog_build(files, 1, true, false, &dl));
    ck_assert_uint_gt(dl.errors, 0);
    diag_list_clear(&dl);
}
END_TEST

/* ---- citations resolved when first read (model_cite_source; bench.md §9) ---- */

/* The first cite of top-level rule `name`. */
static const ast_node *first_cite(const tvm *t, const char *name)
{
    const ast_node *d = t->vm->pg->res->rules[rule_id(t, name)].decl;
    ck_assert_uint_gt(d->cites.len, 0);
    return d->cites.items[0];
}

START_TEST(citations_resolved_when_first_read)
{
    fresh_cache();
    write_text(rules, PROGRAM);
    tvm_free(session_of(rules, true)); /* records the set */
    /* a deferred load leaves its citations unresolved: no cite has its source yet */
    tvm *l = session_of(rules, true), *e = session_of(rules, false);
    const res_program *p = l->vm->pg->res;
    ck_assert_ptr_nonnull(p->cites_later);
    ck_assert(!p->cites_later->done);
    ck_assert_ptr_null(first_cite(l, "total.one")->title);
    /* an eager load resolves them as it loads */
    ck_assert_ptr_null(e->vm->pg->res->cites_later);
    ck_assert_str_eq(first_cite(e, "total.one")->title, "this test's rules");
    /* an answer that prints no citation leaves them so */
    ck_assert_str_eq(ev_as(l, "total(3)", false), "13"); /* 10 + 1 + 2 (PROGRAM) */
    ck_assert(!p->cites_later->done);
    /* the first trace printed reads them: the same text as the eager session's, every cite
     * resolved at once, as the eager pass does */
    char got[8192];
    snprintf(got, sizeof got, "%s", why(l, "outer(4)"));
    ck_assert_ptr_nonnull(strstr(got, "T.1: this test's rules"));
    ck_assert_str_eq(got, why(e, "outer(4)"));
    ck_assert(p->cites_later->done);
    ck_assert_str_eq(first_cite(l, "least.x")->title, "this test's rules");
    /* and the JSON form the same as the eager session's */
    snprintf(got, sizeof got, "%s", answer_part(l, "total(3)", hon_answer_json));
    ck_assert_str_eq(got, answer_part(e, "total(3)", hon_answer_json));
    tvm_free(l);
    tvm_free(e);
    /* a fresh deferred session whose first reader is the JSON trace */
    l = session_of(rules, true);
    e = session_of(rules, false);
    snprintf(got, sizeof got, "%s", answer_part(l, "pick(4)", hon_answer_json));
    ck_assert_ptr_nonnull(strstr(got, "this test's rules"));
    ck_assert_str_eq(got, answer_part(e, "pick(4)", hon_answer_json));
    tvm_free(l);
    tvm_free(e);
}
END_TEST

START_TEST(a_forged_record_and_an_unknown_citation)
{
    /* A record vouches for a set whose rule cites an ID no `source` declares (a record forged
     * by hand): the deferred build reports nothing, and the cite's source, first asked, is
     * what the cite itself wrote (as the whole pass leaves it after E170), never a fault; the
     * whole build reports E170. */
    const char *text = "source \"T.1\" = \"this test's rules\";\n"
                       "query q(x: int) -> int combine first default 1;\n"
                       "rule q.a cite \"T.9\" source \"its own words\" answer x;\n"
                       "rule q.b cite \"T.1\" answer x + 1;\n";
    diag_list dl;
    diag_list_init(&dl, NULL);
    ast_file **files = mem_calloc(1, sizeof *files);
    ck_assert_ptr_nonnull(files);
    files[0] = front_parse_file("t.hon", text, strlen(text), 0, &dl);
    ck_assert_ptr_nonnull(files[0]);
    ck_assert_uint_eq(dl.len, 0);
    prog *pg = prog_build(files, 1, true, true, &dl);
    ck_assert_ptr_nonnull(pg);
    ck_assert_uint_eq(dl.len, 0);
    const res_program *p = pg->res;
    ck_assert_uint_eq(p->nrules, 2);
    const ast_node *a = p->rules[0].decl->cites.items[0], *b = p->rules[1].decl->cites.items[0];
    ck_assert_str_eq(model_cite_source(p, a), "its own words");
    ck_assert_str_eq(model_cite_source(p, b), "this test's rules");
    prog_free(pg);
    diag_list_clear(&dl);
    files = mem_calloc(1, sizeof *files);
    ck_assert_ptr_nonnull(files);
    files[0] = front_parse_file("t.hon", text, strlen(text), 0, &dl);
    ck_assert_ptr_null(prog_build(files, 1, true, false, &dl));
    bool e170 = false;
    for (size_t i = 0; i < dl.len; i++)
        e170 |= dl.items[i].code == E_UNKNOWN_CITE;
    ck_assert(e170);
    diag_list_clear(&dl);
}
END_TEST

/* ---- bodies left in the images (ast_image.h: a lazy session's trees, bench.md §9) ---- */

/* Whether top-level rule `name`'s body is still in its file's image, undecoded. */
static bool rule_body_left(const tvm *t, const char *name)
{
    const ast_node *d = t->vm->pg->res->rules[rule_id(t, name)].decl;
    ck_assert(d->body ? !d->a && !d->b && !d->c && !d->list.len : d->b || d->c);
    return d->body != 0;
}

/* Whether fn `name`'s body is still in its file's image. */
static bool fn_body_left(const tvm *t, const char *name)
{
    const res_program *p = t->vm->pg->res;
    for (size_t f = 0; f < p->nfns; f++)
        if (strcmp(p->fns[f].name, name) == 0 && p->fns[f].version_of < 0) {
            const ast_node *d = p->fns[f].decl;
            ck_assert(d->body ? !d->b : d->b != NULL);
            return d->body != 0;
        }
    ck_abort_msg("no fn %s", name);
    return false;
}

/* How many top-level rules and fns of the program have a body left in an image. */
static size_t bodies_left(const tvm *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->vm->pg->nfiles; i++) {
        const ast_file *f = t->vm->pg->files[i];
        for (uint32_t k = 0; k < f->decls.len; k++)
            n += f->decls.items[k]->body != 0;
    }
    return n;
}

START_TEST(a_body_never_reached_is_never_decoded)
{
    /* With the record and the image there, a lazy session reads the tree with the rules' and
     * fns' bodies left in the image: a body is decoded when its rule or fn is resolved, so a
     * body no answer reaches is never decoded. The one decoded at load: pick.more, which
     * edition double replaces (the replacement is compared with it, revise.c same_rule). */
    fresh_cache();
    write_text(rules, PROGRAM);
    tvm_free(session_of(rules, true)); /* parses, keeps the image, records the set */
    tvm *t = session_of(rules, true);
    ck_assert(rule_body_left(t, "outer.calls") && rule_body_left(t, "total.one") &&
              rule_body_left(t, "total.two") && rule_body_left(t, "least.x") &&
              rule_body_left(t, "alone.one") && fn_body_left(t, "twice"));
    ck_assert(!rule_body_left(t, "pick.more"));
    ck_assert_uint_eq(bodies_left(t), 6); /* 6 top-level rules and a fn, but pick.more */
    /* outer(4) = 21 reaches outer.calls, pick.more, total.* and twice (PROGRAM's comment) */
    ck_assert_str_eq(ev(t, "outer(4)"), "21");
    ck_assert(!rule_body_left(t, "outer.calls") && !rule_body_left(t, "total.one") &&
              !rule_body_left(t, "total.two") && !fn_body_left(t, "twice"));
    ck_assert(rule_body_left(t, "least.x") && rule_body_left(t, "alone.one"));
    ck_assert_uint_eq(bodies_left(t), 2);
    ck_assert_str_eq(ev(t, "alone(7)"), "7");
    ck_assert(!rule_body_left(t, "alone.one") && rule_body_left(t, "least.x"));
    tvm_free(t);
    /* the REPL's sessions (not lazy) read every body */
    t = session_of(rules, false);
    ck_assert_uint_eq(bodies_left(t), 0);
    tvm_free(t);
}
END_TEST

/* Removes the build records of this test's cache (the images stay). */
static void remove_records(void)
{
    char path[400];
    while (count_records(path, sizeof path) > 0)
        ck_assert_int_eq(remove(path), 0);
}

START_TEST(a_body_reached_after_a_reload)
{
    fresh_cache();
    write_text(rules, PROGRAM);
    tvm_free(session_of(rules, true));
    tvm *t = session_of(rules, true);
    ck_assert_str_eq(ev(t, "outer(4)"), "21");
    ck_assert_uint_eq(bodies_left(t), 2);
    /* the same file loaded again: a new program from its image (read again from the cache:
     * a lazy session keeps none, ast_image_read_apart), every body left again (the set is the
     * recorded one) and decoded when reached */
    ck_assert_int_eq(hon_load_file(t->vm, rules), HON_OK);
    ck_assert_uint_eq(bodies_left(t), 6);
    ck_assert_str_eq(ev(t, "least(2)"), "2");
    ck_assert_str_eq(ev(t, "alone(7)"), "7");
    ck_assert_str_eq(ev(t, "outer(4)"), "21");
    ck_assert_uint_eq(bodies_left(t), 0);
    /* edited (alone.one answers x + 1) and loaded again: a text never seen, parsed, the set
     * built whole and recorded; loaded once more, its image's bodies are left and reached */
    char edited[4096];
    replaced("when x > 5 answer x;", "when x > 5 answer x + 1;", edited, sizeof edited);
    write_text(rules, edited);
    ck_assert_int_eq(hon_load_file(t->vm, rules), HON_OK);
    ck_assert_uint_eq(bodies_left(t), 0);
    ck_assert_str_eq(ev(t, "alone(7)"), "8");
    ck_assert_int_eq(hon_load_file(t->vm, rules), HON_OK);
    ck_assert_uint_eq(bodies_left(t), 6);
    ck_assert_str_eq(ev(t, "alone(7)"), "8");
    ck_assert(!rule_body_left(t, "alone.one") && rule_body_left(t, "least.x"));
    tvm_free(t);
    /* the images there but no record: the bodies are read lazily and the set built whole,
     * every body decoded by the resolver, the answers the same */
    remove_records();
    t = session_of(rules, true);
    ck_assert_uint_eq(deferred(t), 0);
    ck_assert_uint_eq(bodies_left(t), 0);
    ck_assert_str_eq(ev(t, "alone(7)"), "8");
    ck_assert_str_eq(ev(t, "outer(4)"), "21");
    tvm_free(t);
}
END_TEST

/* Removes the images of this test's cache (".ast"), or with other_bytes writes over each the
 * same number of other bytes. */
static void spoil_images(bool other_bytes)
{
    DIR *d = opendir(records);
    ck_assert_ptr_nonnull(d);
    char path[400];
    unsigned char buf[1 << 16];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t l = strlen(e->d_name), n;
        if (l != 20 || strcmp(e->d_name + 16, ".ast") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", records, e->d_name);
        if (!other_bytes) {
            ck_assert_int_eq(remove(path), 0);
            continue;
        }
        read_file(path, buf, sizeof buf, &n);
        memset(buf, 0x5A, n);
        write_bytes(path, buf, n);
    }
    closedir(d);
}

START_TEST(bodies_reached_once_their_image_is_gone)
{
    /* A lazy session keeps nothing of an image: a body is read from the image file when the
     * first of its file is reached (ast_image_read_apart). The images removed, or their bytes
     * changed, after the load: the bodies are the text parsed again, and the answers are
     * PROGRAM's (its comment: outer(4) = 21, alone(7) = 7, least(2) = 2; alone(2) its
     * default, x). */
    fresh_cache();
    /* PROGRAM without its edition, whose replacement has pick.more's body decoded at load
     * (a_body_never_reached_is_never_decoded): no body is read before the images are spoilt */
    char text[4096];
    replaced("edition double { replace rule pick.more cite \"T.1\" when x > 1 answer "
             "twice(twice(x)); }\n",
             "", text, sizeof text);
    write_text(rules, text);
    for (int other_bytes = 0; other_bytes < 2; other_bytes++) {
        /* parses (no image yet, or a spoilt one), keeps the image, records the set */
        tvm_free(session_of(rules, true));
        tvm *t = session_of(rules, true);
        ck_assert_uint_eq(bodies_left(t), 7); /* 6 top-level rules and a fn */
        spoil_images(other_bytes);
        ck_assert_str_eq(ev(t, "outer(4)"), "21");
        ck_assert_str_eq(ev(t, "alone(7)"), "7");
        ck_assert_str_eq(ev(t, "alone(2)"), "2");
        ck_assert_str_eq(ev(t, "least(2)"), "2");
        ck_assert_uint_eq(bodies_left(t), 0);
        ck_assert_uint_eq(t->ndiags, 0);
        ck_assert_uint_eq(t->vm->pg->nfiles, 1);
        ck_assert_ptr_nonnull(t->vm->pg->files[0]->reparsed); /* the bodies: the text's */
        tvm_free(t);
    }
}
END_TEST

START_TEST(a_revision_of_a_rule_held_lazily)
{
    /* An edition revising top-level rules and a fn whose bodies are left in the image: a
     * revision copies the rule (ast_clone) and compares its clauses, so the revised rules'
     * bodies are decoded at load; the answers under the edition and without it are the eager
     * build's. tuned: alone.one answers x + 100 (alone(7) = 107); least.x fires only when
     * x > 3 (least(2) has no rule firing: a min with no default, an error, as eagerly);
     * twice(n) is n * 3 (pick(4) = 12, outer(4) = 12 + 13 = 25). */
    fresh_cache();
    char text[4096];
    snprintf(text, sizeof text, "%s%s", PROGRAM,
             "edition tuned {\n"
             "  revise rule alone.one cite \"T.1\" answer x + 100;\n"
             "  revise rule least.x cite \"T.1\" when x > 3;\n"
             "  revise fn twice(n: int) -> int = n * 3;\n"
             "}\n");
    write_text(rules, text);
    tvm_free(session_of(rules, true));
    ck_assert_int_eq(count_records(NULL, 0), 1);
    tvm *t = session_of(rules, true);
    ck_assert_uint_gt(deferred(t), 0);
    ck_assert(!rule_body_left(t, "alone.one") && !rule_body_left(t, "least.x") &&
              !fn_body_left(t, "twice") && rule_body_left(t, "total.one"));
    tvm_free(t);
    static const char *const asked[] = { "alone(7)", "least(2)", "least(5)",
                                         "pick(4)",  "outer(4)", "twice(alone(3))" };
    for (int ed = 0; ed < 2; ed++)
        for (size_t i = 0; i < sizeof asked / sizeof asked[0]; i++) {
            tvm *l = session_of(rules, true), *e = session_of(rules, false);
            if (ed) {
                ck_assert_int_eq(hon_set_edition(l->vm, "tuned"), HON_OK);
                ck_assert_int_eq(hon_set_edition(e->vm, "tuned"), HON_OK);
            }
            char got[8192];
            snprintf(got, sizeof got, "%s", ev(l, asked[i]));
            ck_assert_msg(strcmp(got, ev(e, asked[i])) == 0, "%s: lazily %s, eagerly %s", asked[i],
                          got, e->last);
            ck_assert_str_eq(l->log, e->log);
            tvm_free(l);
            tvm_free(e);
        }
    t = session_of(rules, true);
    ck_assert_int_eq(hon_set_edition(t->vm, "tuned"), HON_OK);
    ck_assert_str_eq(ev(t, "alone(7)"), "107");
    ck_assert_str_eq(ev(t, "outer(4)"), "25");
    tvm_free(t);
}
END_TEST

START_TEST(a_forged_record_and_a_rule_of_the_wrong_kind)
{
    /* A query's rule with a `do` block (E_RULE_KIND when the set builds whole) in a tree read
     * lazily from its image, built with the bodies deferred as a record forged for it would
     * have it: nothing at load (the body, and so the kind, is not there), then the query's
     * first call fails to make it ready (rule_later checks the kind once the body is decoded),
     * never a fault and never a rule of the wrong kind compiled; the other query answers. */
    const char *text = "source \"T.1\" = \"this test's rules\";\n"
                       "query q(x: int) -> int combine first default 1;\n"
                       "rule q.a cite \"T.1\" do { note \"n\"; };\n"
                       "query r(x: int) -> int combine first default 2;\n";
    size_t len = strlen(text);
    diag_list dl;
    diag_list_init(&dl, NULL);
    ast_file *f = front_parse_file("t.hon", text, len, 0, &dl);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(dl.len, 0);
    strbuf img = { 0 };
    ck_assert(ast_image_write(f, 7, &img));
    for (int defer = 1; defer >= 0; defer--) {
        ast_file **files = mem_calloc(1, sizeof *files);
        ck_assert_ptr_nonnull(files);
        files[0] = ast_image_read_as(img.s, img.len, 7, "t.hon", text, len, 0, true);
        ck_assert_ptr_nonnull(files[0]);
        ck_assert_uint_ne(files[0]->decls.items[2]->body, 0);
        prog *pg = prog_build(files, 1, true, defer, &dl);
        if (!defer) { /* built whole: the error, as from the parsed text */
            ck_assert_ptr_null(pg);
            ck_assert_uint_gt(dl.errors, 0);
            break;
        }
        ck_assert_ptr_nonnull(pg);
        ck_assert_uint_eq(dl.len, 0);
        int32_t q = model_find_query(pg->res, "q"), r = model_find_query(pg->res, "r");
        ck_assert(q >= 0 && r >= 0);
        ck_assert(!prog_ready(pg, (uint32_t)q));
        ck_assert(!prog_ready(pg, (uint32_t)q));
        ck_assert(pg->res->rules[0].deferred);
        ck_assert(prog_ready(pg, (uint32_t)r));
        prog_free(pg);
    }
    diag_list_clear(&dl);
    sb_free(&img);
    ast_file_free(f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("record");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, a_clean_set_is_recorded_then_deferred);
    tcase_add_test(tc, deferred_answers_as_eager);
    tcase_add_test(tc, an_edited_file_builds_whole);
    tcase_add_test(tc, a_warning_is_never_recorded);
    tcase_add_test(tc, a_text_source_and_no_cache_have_no_record);
    tcase_add_test(tc, a_damaged_record_is_no_record);
    tcase_add_test(tc, memory_failing_deferred);
    tcase_add_test(tc, a_forged_record_never_faults);
    tcase_add_test(tc, citations_resolved_when_first_read);
    tcase_add_test(tc, a_forged_record_and_an_unknown_citation);
    tcase_add_test(tc, a_body_never_reached_is_never_decoded);
    tcase_add_test(tc, a_body_reached_after_a_reload);
    tcase_add_test(tc, bodies_reached_once_their_image_is_gone);
    tcase_add_test(tc, a_revision_of_a_rule_held_lazily);
    tcase_add_test(tc, a_forged_record_and_a_rule_of_the_wrong_kind);
    suite_add_tcase(s, tc);
    return check_run(s);
}
