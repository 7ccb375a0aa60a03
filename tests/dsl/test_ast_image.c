/* test_ast_image.c — the image of a parsed tree (dsl/ast_image.h), what the start-up cache
 * keeps of a parse (docs/spec/bench.md §9): read back, every bundled file's tree is the tree
 * the parser made, field by field, its strings the image's own (borrowed); an image that is
 * cut short, has any bit flipped, carries another key or is damaged behind a recomputed sum
 * is refused or read without a fault; the sum is XXH64; and a read that runs out of memory
 * at any allocation gives NULL and leaks nothing. Read lazily, the rules' and fns' bodies are
 * left in the image until decoded, then equal the parse; a damaged body is taken from the text.
 * Read apart, nothing of the image is borrowed and the bodies come from the image file.
 *
 * Expected values: an image holds every field the parser sets (ast_image.c), so the tree read
 * back must equal the parsed one in all of them, annotations excepted (the parser leaves them
 * zero, slot -1). Deterministic (fixed seeds).
 */
#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "ast_image.h"
#include "check_run.h"
#include "config.h"
#include "file.h"
#include "front.h"
#include "mem.h"

#define KEY 0x1234567890abcdefULL

static bool same_string(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_tree(const ast_node *a, const ast_node *b);

static bool same_vec(const ast_vec *a, const ast_vec *b)
{
    if (a->len != b->len)
        return false;
    for (uint32_t i = 0; i < a->len; i++)
        if (!same_tree(a->items[i], b->items[i]))
            return false;
    return true;
}

/* Every field the parser sets, the locations and citations included (ast_same leaves those). */
static bool same_tree(const ast_node *a, const ast_node *b)
{
    if (!a || !b)
        return a == b;
    return a->kind == b->kind && a->op == b->op && a->loc.file == b->loc.file &&
           a->loc.line == b->loc.line && a->loc.col == b->loc.col &&
           a->loc.end_line == b->loc.end_line && a->loc.end_col == b->loc.end_col &&
           same_string(a->name, b->name) && same_string(a->name2, b->name2) &&
           same_string(a->ref, b->ref) && same_string(a->title, b->title) &&
           same_string(a->doc, b->doc) && a->ival == b->ival && a->parens == b->parens &&
           b->an.slot == -1 && b->an.type == 0 && b->an.sym == 0 && b->an.sym_kind == 0 &&
           same_tree(a->a, b->a) && same_tree(a->b, b->b) && same_tree(a->c, b->c) &&
           same_vec(&a->list, &b->list) && same_vec(&a->list2, &b->list2) &&
           same_vec(&a->params, &b->params) && same_vec(&a->cites, &b->cites);
}

/* How many strings of the tree at n lie outside [lo, hi); *count gets how many there are. A
 * tree read from an image borrows the image's strings (ast_image.h), so none may lie outside. */
static size_t strings_outside(const ast_node *n, const char *lo, const char *hi, size_t *count)
{
    if (!n)
        return 0;
    size_t out = 0;
    const char *s[] = { n->name, n->name2, n->ref, n->title, n->doc };
    for (size_t i = 0; i < sizeof s / sizeof *s; i++)
        if (s[i]) {
            ++*count;
            out += !(s[i] >= lo && s[i] < hi);
        }
    out += strings_outside(n->a, lo, hi, count) + strings_outside(n->b, lo, hi, count) +
           strings_outside(n->c, lo, hi, count);
    const ast_vec *v[] = { &n->list, &n->list2, &n->params, &n->cites };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        for (uint32_t j = 0; j < v[i]->len; j++)
            out += strings_outside(v[i]->items[j], lo, hi, count);
    return out;
}

/* The parse of a file (no diagnostic expected: the bundled rules parse cleanly). */
static ast_file *parse_path(const char *path, char **text, size_t *len, uint32_t file_id)
{
    ck_assert_int_eq(file_read(path, (size_t)FRONT_MAX_SOURCE, text, len), 0);
    diag_sources src = { 0 };
    diag_list dl;
    diag_list_init(&dl, &src);
    ast_file *f = front_parse_file(path, *text, *len, file_id, &dl);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(dl.len, 0);
    diag_list_clear(&dl);
    diag_sources_free(&src);
    return f;
}

static void round_trip_dir(const char *dir, int *files)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".hon") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text;
        size_t len;
        ast_file *f = parse_path(path, &text, &len, 3);
        strbuf img = { 0 };
        ck_assert(ast_image_write(f, KEY, &img));
        /* read back under another file id: every position moves to it */
        ast_file *g = ast_image_read(img.s, img.len, KEY, path, text, len, 3);
        ck_assert_msg(g != NULL, "%s: its image is refused", path);
        ck_assert_uint_eq(g->decls.len, f->decls.len);
        ck_assert_uint_eq(g->text_len, len);
        ck_assert(memcmp(g->text, text, len) == 0);
        for (uint32_t i = 0; i < f->decls.len; i++)
            ck_assert_msg(same_tree(f->decls.items[i], g->decls.items[i]),
                          "%s: declaration %u differs once read back", path, i);
        /* its strings are the image's, not copies (ast_image.h: the image outlives the tree) */
        size_t strings = 0, outside = 0;
        for (uint32_t i = 0; i < g->decls.len; i++)
            outside += strings_outside(g->decls.items[i], img.s, img.s + img.len, &strings);
        ck_assert_msg(strings > 0 && outside == 0, "%s: %zu of the %zu strings are not the image's",
                      path, outside, strings);
        ast_file_free(g);
        g = ast_image_read(img.s, img.len, KEY, path, text, len, 7);
        ck_assert_ptr_nonnull(g);
        ck_assert_uint_eq(g->decls.items[0]->loc.file, 7);
        ast_file_free(g);
        sb_free(&img);
        ast_file_free(f);
        mem_free(text);
        ++*files;
    }
    closedir(d);
}

START_TEST(bundled_files_read_back)
{
    ck_assert_int_ge(AST_IMAGE_MAX_DEPTH, FRONT_MAX_DEPTH + FRONT_MAX_CHAIN + 1);
    int files = 0;
    round_trip_dir(HON_SOURCE_ROOT "/rules", &files);
    round_trip_dir(HON_SOURCE_ROOT "/expansions", &files);
    ck_assert_int_gt(files, 20); /* rules/ and expansions/ hold some 35 files */
}
END_TEST

/* The deepest trees the parser keeps (front.h): a chain of FRONT_MAX_CHAIN operators and
 * FRONT_MAX_DEPTH - 8 levels of parentheses (the declaration's own levels take a few) read
 * back whole, the reader's recursion no deeper than the copy a build makes anyway. */
START_TEST(deepest_trees_read_back)
{
    strbuf t = { 0 };
    sb_puts(&t, "fn chain() -> int = 1");
    for (int i = 0; i < FRONT_MAX_CHAIN; i++)
        sb_puts(&t, " + 1");
    sb_puts(&t, ";\nfn nest() -> int = ");
    for (int i = 0; i < FRONT_MAX_DEPTH - 8; i++)
        sb_puts(&t, "(");
    sb_puts(&t, "1");
    for (int i = 0; i < FRONT_MAX_DEPTH - 8; i++)
        sb_puts(&t, ")");
    sb_puts(&t, ";\n");
    diag_sources src = { 0 };
    diag_list dl;
    diag_list_init(&dl, &src);
    ast_file *f = front_parse_file("deep.hon", t.s, t.len, 0, &dl);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(dl.len, 0);
    ck_assert_uint_eq(f->decls.len, 2);
    strbuf img = { 0 };
    ck_assert(ast_image_write(f, KEY, &img));
    ast_file *g = ast_image_read(img.s, img.len, KEY, "deep.hon", t.s, t.len, 0);
    ck_assert_ptr_nonnull(g);
    for (uint32_t i = 0; i < f->decls.len; i++)
        ck_assert(same_tree(f->decls.items[i], g->decls.items[i]));
    ast_file_free(g);
    ast_file_free(f);
    sb_free(&img);
    sb_free(&t);
    diag_list_clear(&dl);
    diag_sources_free(&src);
}
END_TEST

/* The image every damage test starts from: a small file of most kinds of declaration (a
 * source, a marker, an enum, a variant, tables with a `?` cell, queries, rules with
 * citations, a fn), the clean program of the lint tests. */
#define SAMPLE HON_SOURCE_ROOT "/tests/golden/lint/clean.hon"

static void sample_image(strbuf *img, char **text, size_t *len)
{
    ast_file *f = parse_path(SAMPLE, text, len, 0);
    ck_assert_uint_gt(f->decls.len, 10);
    ck_assert(ast_image_write(f, KEY, img));
    ast_file *g = ast_image_read(img->s, img->len, KEY, "s.hon", *text, *len, 0);
    ck_assert_ptr_nonnull(g);
    for (uint32_t i = 0; i < f->decls.len; i++)
        ck_assert(same_tree(f->decls.items[i], g->decls.items[i]));
    ast_file_free(g);
    ast_file_free(f);
}

START_TEST(cut_short_or_foreign)
{
    strbuf img = { 0 };
    char *text;
    size_t len;
    sample_image(&img, &text, &len);
    for (size_t n = 0; n < img.len; n++) /* every shorter image, the empty one included */
        ck_assert_ptr_null(ast_image_read(img.s, n, KEY, "s.hon", text, len, 0));
    ck_assert_ptr_null(ast_image_read(img.s, img.len, KEY + 1, "s.hon", text, len, 0));
    ck_assert_ptr_null(ast_image_read(img.s, img.len, KEY, "s.hon", text, len - 1, 0));
    ck_assert_ptr_null(ast_image_read(NULL, 0, KEY, "s.hon", text, len, 0));
    /* a longer one: a byte left over after the last declaration */
    char *longer = mem_malloc(img.len + 1);
    memcpy(longer, img.s, img.len);
    longer[img.len] = 0;
    ck_assert_ptr_null(ast_image_read(longer, img.len + 1, KEY, "s.hon", text, len, 0));
    mem_free(longer);
    sb_free(&img);
    mem_free(text);
}
END_TEST

/* The sum and the texts' keys are XXH64 (ast_image.c): its value for texts of every path
 * through it (empty; one byte; under 32 bytes; one stripe, three words, a half word and three
 * bytes; three stripes and three bytes), seed 0. Expected values from the reference
 * implementation, `printf '%s' TEXT | xxhsum -H64` (Debian's xxhash 0.8.1), not from hon. */
START_TEST(sum_is_xxh64)
{
    static const struct {
        const char *text;
        uint64_t want;
    } cases[] = {
        { "", 0xef46db3751d8e999u },
        { "a", 0xd24ec4f1a98c6e5bu },
        { "abc", 0x44bc2cf5ad770999u },
        { "hon keeps each parse of a rules file; its sum is XXH64, seed 0.", 0x5b159ef8d4e5f9a5u },
        { "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
          "0123456789abcdefXYZ",
          0x6f666b4ff4bea8dcu },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t got = ast_image_hash(cases[i].text, strlen(cases[i].text), 0);
        ck_assert_msg(got == cases[i].want, "XXH64 of %zu bytes: %016llx, not %016llx",
                      strlen(cases[i].text), (unsigned long long)got,
                      (unsigned long long)cases[i].want);
    }
}
END_TEST

START_TEST(every_bit_flipped)
{
    strbuf img = { 0 };
    char *text;
    size_t len;
    sample_image(&img, &text, &len);
    /* Whatever the bit, the header's checks or the sum refuse the image. */
    for (size_t i = 0; i < img.len; i++)
        for (int bit = 0; bit < 8; bit++) {
            img.s[i] ^= (char)(1 << bit);
            ast_file *g = ast_image_read(img.s, img.len, KEY, "s.hon", text, len, 0);
            ck_assert_msg(g == NULL, "byte %zu bit %d flipped: the image is still read", i, bit);
            img.s[i] ^= (char)(1 << bit);
        }
    sb_free(&img);
    mem_free(text);
}
END_TEST

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

/* Recomputes the sums of a damaged image as ast_image.c computes them (header: magic 8, key 8,
 * sum 8, then body_len and strings_len; after the strings, the declarations' word count M and
 * the bodies' sum, then M words, then the bodies): the bodies' sum over the bodies, the
 * image's over the strings and the words before the bodies. What damage the sums cannot see
 * must still be refused or read safely. */
static void reseal(char *img, size_t len)
{
    uint32_t strings_len, m;
    memcpy(&strings_len, img + 28, 4);
    if (strings_len > len - 40 || len - 40 - strings_len < 12)
        return;
    char *words = img + 40 + strings_len;
    size_t nw = (len - 40 - strings_len) / 4;
    memcpy(&m, words, 4);
    if (m > nw - 3)
        return;
    uint64_t bsum = ast_image_hash(words + 4 * (3 + (size_t)m), 4 * (nw - 3 - m), KEY);
    memcpy(words + 4, &bsum, 8);
    uint64_t sum = ast_image_hash(img + 40, strings_len, KEY);
    sum = ast_image_hash(words, 4 * (3 + (size_t)m), sum);
    memcpy(img + 16, &sum, 8);
}

START_TEST(damage_behind_a_good_sum)
{
    strbuf img = { 0 };
    char *text;
    size_t len;
    sample_image(&img, &text, &len);
    char *copy = mem_malloc(img.len);
    uint64_t seed = 0x5eed;
    const uint32_t words[] = { 0,
                               1,
                               2,
                               0xFFFFFFFFu,
                               0x7FFFFFFFu,
                               40,
                               1000,
                               (uint32_t)AST_KIND_COUNT,
                               (uint32_t)AST_KIND_COUNT + 1 };
    for (int round = 0; round < 20000; round++) {
        memcpy(copy, img.s, img.len);
        int hits = 1 + (int)(rng_next(&seed) % 3);
        for (int h = 0; h < hits; h++) {
            size_t at = 24 + 4 * (rng_next(&seed) % ((img.len - 24) / 4)); /* lengths and body */
            uint32_t w = words[rng_next(&seed) % (sizeof words / sizeof *words)];
            if (rng_next(&seed) % 2)
                w = (uint32_t)rng_next(&seed);
            memcpy(copy + at, &w, 4);
        }
        reseal(copy, img.len);
        ast_file *g = ast_image_read(copy, img.len, KEY, "s.hon", text, len, 0);
        if (g) { /* read: then it is a tree whose every string ends inside its block */
            for (uint32_t i = 0; i < g->decls.len; i++)
                ck_assert_ptr_nonnull(g->decls.items[i]);
            ast_file_free(g);
        }
    }
    mem_free(copy);
    sb_free(&img);
    mem_free(text);
}
END_TEST

START_TEST(memory_runs_out)
{
    strbuf img = { 0 };
    char *text;
    size_t len;
    sample_image(&img, &text, &len);
    bool whole = false;
    for (long n = 0; n < 10000 && !whole; n++) {
        mem_fail_after(n);
        ast_file *g = ast_image_read(img.s, img.len, KEY, "s.hon", text, len, 0);
        mem_fail_reset();
        whole = g != NULL;
        ast_file_free(g);
    }
    /* the writer too: refused or whole, and the whole one reads back */
    diag_sources src = { 0 };
    diag_list dl;
    diag_list_init(&dl, &src);
    ast_file *f = front_parse_file("s.hon", text, len, 0, &dl);
    bool written = false;
    for (long n = 0; n < 10000 && !written; n++) {
        strbuf out = { 0 };
        mem_fail_after(n);
        written = ast_image_write(f, KEY, &out);
        mem_fail_reset();
        if (written) {
            ast_file *g = ast_image_read(out.s, out.len, KEY, "s.hon", text, len, 0);
            ck_assert_ptr_nonnull(g);
            ast_file_free(g);
        }
        sb_free(&out);
    }
    ck_assert(written);
    ast_file_free(f);
    diag_list_clear(&dl);
    diag_sources_free(&src);
    ck_assert(whole); /* with memory enough, the image is read */
    sb_free(&img);
    mem_free(text);
}
END_TEST

/* ---------------------------------------------------------------- bodies left in the image */

/* Whether d is a declaration whose body a lazy read leaves in the image (ast_image.h). */
static bool keeps_body(const ast_node *d)
{
    return d->kind == AST_RULE || d->kind == AST_FN;
}

/* Whether declaration g, read lazily, is f's without its body: the body places empty, the
 * rest (its names, citations, a fn's parameters and result) equal. */
static bool same_but_body(const ast_node *f, const ast_node *g)
{
    ast_node x = *f;
    if (f->kind == AST_RULE) {
        x.a = x.c = NULL;
        x.list = (ast_vec){ 0 };
    }
    x.b = NULL;
    return same_tree(&x, g);
}

static void lazy_dir(const char *dir, int *bodies)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".hon") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text;
        size_t len;
        ast_file *f = parse_path(path, &text, &len, 3);
        strbuf img = { 0 };
        ck_assert(ast_image_write(f, KEY, &img));
        ast_file *g = ast_image_read_as(img.s, img.len, KEY, path, text, len, 3, true);
        ck_assert_msg(g != NULL, "%s: its image is refused", path);
        ck_assert_uint_eq(g->decls.len, f->decls.len);
        /* what was read fills the one block it was given: the image says how many nodes and
         * items there are outside the bodies (ast_image.c), so none is left over */
        ck_assert_msg(g->arena->head && !g->arena->head->next &&
                          g->arena->head->used == g->arena->head->cap,
                      "%s: read into more than one block or with room left", path);
        /* first every body left, then each decoded in turn, in reverse order (any order) */
        for (uint32_t i = 0; i < f->decls.len; i++) {
            const ast_node *want = f->decls.items[i], *got = g->decls.items[i];
            if (!keeps_body(want)) {
                ck_assert_msg(got->body == 0 && same_tree(want, got), "%s: decl %u", path, i);
                continue;
            }
            ck_assert_msg(got->body != 0 && same_but_body(want, got), "%s: decl %u", path, i);
            ck_assert(!got->b && (got->kind == AST_FN || (!got->a && !got->c && !got->list.len)));
        }
        for (uint32_t i = f->decls.len; i-- > 0;) {
            ast_node *got = g->decls.items[i];
            ck_assert(ast_body_ready(g, got, front_reparse));
            ck_assert(ast_body_ready(g, got, front_reparse)); /* once decoded, nothing more to do */
            ck_assert_msg(got->body == 0 && same_tree(f->decls.items[i], got),
                          "%s: declaration %u differs once its body is decoded", path, i);
            *bodies += keeps_body(got);
        }
        size_t strings = 0, outside = 0;
        for (uint32_t i = 0; i < g->decls.len; i++)
            outside += strings_outside(g->decls.items[i], img.s, img.s + img.len, &strings);
        ck_assert_uint_eq(outside, 0);
        ck_assert_ptr_null(g->reparsed); /* a sound image: the text never parsed again */
        ast_file_free(g);
        sb_free(&img);
        ast_file_free(f);
        mem_free(text);
    }
    closedir(d);
}

/* Read lazily (ast_image_read_as), every bundled rule's and fn's body is left in the image and
 * the rest of the tree is read into one block of its arena, filled exactly; each body decoded (ast_body_ready) is the parser's, field by
 * field. Expected values: the parse of the same text. */
START_TEST(bodies_left_then_decoded)
{
    int bodies = 0;
    lazy_dir(HON_SOURCE_ROOT "/rules", &bodies);
    lazy_dir(HON_SOURCE_ROOT "/expansions", &bodies);
    ck_assert_int_gt(bodies, 500); /* the bundled rules hold some 900 rules and 280 fns */
}
END_TEST

/* The word offset in an image of the body of g's declaration d (its head again; the body's
 * length is the word before): 40 header bytes, the strings, then words (ast_image.c). */
static size_t body_offset(const strbuf *img, const ast_node *d)
{
    uint32_t strings_len;
    memcpy(&strings_len, img->s + 28, 4);
    return 40 + strings_len + 4 * ((size_t)d->body - 1);
}

/* A body damaged behind a recomputed sum passes the read (its words are checked only when it
 * is decoded); decoding it finds the damage and takes the body from the text parsed again, so
 * what the resolver sees is the parse. Its length word damaged: the image is refused, or read
 * with every body as the parse. Expected values: the parse of the sample's text. */
START_TEST(damaged_body_and_its_length)
{
    strbuf img = { 0 };
    char *text;
    size_t len;
    sample_image(&img, &text, &len);
    char *text2;
    size_t len2;
    ast_file *f = parse_path(SAMPLE, &text2, &len2, 0);
    ast_file *g = ast_image_read_as(img.s, img.len, KEY, "s.hon", text, len, 0, true);
    ck_assert_ptr_nonnull(g);
    size_t at[64];
    uint32_t which[64], n = 0;
    for (uint32_t i = 0; i < g->decls.len && n < 64; i++)
        if (g->decls.items[i]->body) {
            which[n] = i;
            at[n++] = body_offset(&img, g->decls.items[i]);
        }
    ast_file_free(g);
    ck_assert_uint_ge(n, 3);
    char *copy = mem_malloc(img.len);
    const uint32_t bad[] = { 0, 0xFFFFFFFFu, (uint32_t)AST_KIND_COUNT + 1, 1 };
    for (uint32_t k = 0; k < n; k++)
        for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
            /* its head again, then its first node's head (a child said to be there), damaged:
             * values no head of theirs can be */
            for (size_t word = 0; word < 2 - (bad[b] == 1); word++) {
                memcpy(copy, img.s, img.len);
                memcpy(copy + at[k] + 4 * word, &bad[b], 4);
                reseal(copy, img.len);
                g = ast_image_read_as(copy, img.len, KEY, "s.hon", text, len, 0, true);
                ck_assert_ptr_nonnull(g);
                ast_node *d = g->decls.items[which[k]];
                ck_assert(ast_body_ready(g, d, front_reparse));
                ck_assert_msg(same_tree(f->decls.items[which[k]], d),
                              "declaration %u, word %zu of its body set to %x: not the parse",
                              which[k], word, bad[b]);
                ast_file_free(g);
            }
            /* its length */
            uint32_t L;
            memcpy(&L, img.s + at[k] - 4, 4);
            const uint32_t lens[] = { 0, L - 1, L + 1, 0xFFFFFFFFu, bad[b] };
            for (size_t j = 0; j < sizeof lens / sizeof *lens; j++) {
                memcpy(copy, img.s, img.len);
                memcpy(copy + at[k] - 4, &lens[j], 4);
                reseal(copy, img.len);
                g = ast_image_read_as(copy, img.len, KEY, "s.hon", text, len, 0, true);
                for (uint32_t i = 0; g && i < g->decls.len; i++) {
                    ck_assert(ast_body_ready(g, g->decls.items[i], front_reparse));
                    ck_assert(same_tree(f->decls.items[i], g->decls.items[i]));
                }
                ast_file_free(g);
                /* read whole, the same image is refused or the parse */
                g = ast_image_read(copy, img.len, KEY, "s.hon", text, len, 0);
                for (uint32_t i = 0; g && i < g->decls.len; i++)
                    ck_assert(same_tree(f->decls.items[i], g->decls.items[i]));
                ast_file_free(g);
            }
        }
    /* random damage behind a good sum, then every body decoded: never a fault */
    uint64_t seed = 0xb0d1;
    for (int round = 0; round < 5000; round++) {
        memcpy(copy, img.s, img.len);
        for (int h = 0; h < 2; h++) {
            size_t w = 24 + 4 * (rng_next(&seed) % ((img.len - 24) / 4));
            uint32_t x = (uint32_t)rng_next(&seed);
            memcpy(copy + w, &x, 4);
        }
        reseal(copy, img.len);
        g = ast_image_read_as(copy, img.len, KEY, "s.hon", text, len, 0, true);
        for (uint32_t i = 0; g && i < g->decls.len; i++)
            if (ast_body_ready(g, g->decls.items[i], front_reparse))
                ck_assert_uint_eq(g->decls.items[i]->body, 0);
        ast_file_free(g);
    }
    mem_free(copy);
    ast_file_free(f);
    mem_free(text2);
    sb_free(&img);
    mem_free(text);
}
END_TEST

/* Read lazily, the bodies' words are not summed until a body is first decoded: a bit flipped
 * among them passes the read, and is found then by the bodies' own sum, the bodies taken from
 * the text parsed again (so they are the parse), or, in a body's length, refused at the read;
 * a bit flipped anywhere else is refused at the read, as read whole. Every byte of the sample, one bit of each (the bit moving along). */
START_TEST(every_byte_flipped_read_lazily)
{
    strbuf img = { 0 };
    char *text;
    size_t len;
    sample_image(&img, &text, &len);
    char *text2;
    size_t len2;
    ast_file *f = parse_path(SAMPLE, &text2, &len2, 0);
    uint32_t strings_len, m;
    memcpy(&strings_len, img.s + 28, 4);
    memcpy(&m, img.s + 40 + strings_len, 4);
    size_t bodies = 40 + strings_len + 4 * (3 + (size_t)m); /* where the bodies' words start */
    ck_assert_uint_lt(bodies, img.len);
    size_t passed = 0;
    for (size_t i = 0; i < img.len; i++) {
        int bit = (int)(i % 8);
        img.s[i] ^= (char)(1 << bit);
        ck_assert_ptr_null(ast_image_read(img.s, img.len, KEY, "s.hon", text, len, 0));
        ast_file *g = ast_image_read_as(img.s, img.len, KEY, "s.hon", text, len, 0, true);
        /* before the bodies: refused; among them: read, or refused when the flip is in a
         * body's length (the bodies no longer follow one another exactly) */
        ck_assert_msg(!g || i >= bodies, "byte %zu bit %d: read", i, bit);
        for (uint32_t k = 0; g && k < g->decls.len; k++) {
            ck_assert(ast_body_ready(g, g->decls.items[k], front_reparse));
            ck_assert(same_tree(f->decls.items[k], g->decls.items[k]));
        }
        if (g) {
            ck_assert_int_eq(g->image_bodies, 2); /* found damaged, then parsed */
            passed++;
        }
        ast_file_free(g);
        img.s[i] ^= (char)(1 << bit);
    }
    ck_assert_uint_gt(passed, 100);
    ast_file_free(f);
    mem_free(text2);
    sb_free(&img);
    mem_free(text);
}
END_TEST

/* Memory running out at each allocation of decoding a body (or of parsing the text again for
 * a damaged one): false, the body still left, and decoded whole once memory is there. */
START_TEST(memory_runs_out_decoding_a_body)
{
    strbuf img = { 0 };
    char *text;
    size_t len;
    sample_image(&img, &text, &len);
    char *text2;
    size_t len2;
    ast_file *f = parse_path(SAMPLE, &text2, &len2, 0);
    for (int damaged = 0; damaged < 2; damaged++) {
        ast_file *g = ast_image_read_as(img.s, img.len, KEY, "s.hon", text, len, 0, true);
        ck_assert_ptr_nonnull(g);
        uint32_t i = 0;
        while (i < g->decls.len && !g->decls.items[i]->body)
            i++;
        ck_assert_uint_lt(i, g->decls.len);
        ast_file_free(g);
        char *copy = mem_malloc(img.len);
        memcpy(copy, img.s, img.len);
        if (damaged) {
            g = ast_image_read_as(img.s, img.len, KEY, "s.hon", text, len, 0, true);
            uint32_t x = 0xFFFFFFFFu;
            memcpy(copy + body_offset(&img, g->decls.items[i]) + 4, &x, 4);
            ast_file_free(g);
            reseal(copy, img.len);
        }
        bool whole = false;
        for (long n = 0; n < 100000 && !whole; n++) {
            g = ast_image_read_as(copy, img.len, KEY, "s.hon", text, len, 0, true);
            ck_assert_ptr_nonnull(g);
            ast_node *d = g->decls.items[i];
            mem_fail_after(n);
            whole = ast_body_ready(g, d, front_reparse);
            mem_fail_reset();
            if (!whole) {
                ck_assert_uint_ne(d->body, 0);
                ck_assert(ast_body_ready(g, d, front_reparse));
            }
            ck_assert(same_tree(f->decls.items[i], d));
            ast_file_free(g);
        }
        ck_assert(whole);
        mem_free(copy);
    }
    ast_file_free(f);
    mem_free(text2);
    sb_free(&img);
    mem_free(text);
}
END_TEST

/* Writes n bytes of p to path whole (the test's own scratch file). */
static void put_file(const char *path, const void *p, size_t n)
{
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(p, 1, n, fp), n);
    ck_assert_int_eq(fclose(fp), 0);
}

/* What the damage of read_apart_bodies_from_the_file does to the image file after the read. */
enum {
    SOUND,
    REMOVED,
    CUT_SHORT,
    BODY_BYTE_FLIPPED,
    OTHER_BYTES,
    LONGER,
    HOW_MANY
};

/* Read apart (ast_image_read_apart), nothing of the image is borrowed: the image's memory
 * wiped and freed after the read, every string of the tree is still there, and each body is
 * read again from the image file when first decoded, equal to the parse. The file removed, cut
 * short, a byte of a body flipped, other bytes of the same length, or a longer file: every
 * body is the parse, taken from the text parsed again (the bodies' sum from the read refuses
 * what is not the image). Memory running out at each allocation of the first body decoded
 * (the file read again among them): false, the body still left, whole when asked again.
 * Random damage behind a good sum, read apart: never a fault.
 * Expected values: the parse of the sample's text. */
START_TEST(read_apart_bodies_from_the_file)
{
    strbuf img = { 0 };
    char *text;
    size_t len;
    sample_image(&img, &text, &len);
    char *text2;
    size_t len2;
    ast_file *f = parse_path(SAMPLE, &text2, &len2, 0);
    char path[] = "/tmp/hon-test-image-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    for (int how = SOUND; how < HOW_MANY; how++) {
        put_file(path, img.s, img.len);
        char *copy = mem_malloc(img.len);
        memcpy(copy, img.s, img.len);
        ast_file *g = ast_image_read_apart(copy, img.len, KEY, "s.hon", text, len, 0, path);
        ck_assert_ptr_nonnull(g);
        size_t strings = 0, outside = 0, bodies = 0;
        for (uint32_t i = 0; i < g->decls.len; i++) {
            outside += strings_outside(g->decls.items[i], copy, copy + img.len, &strings);
            bodies += g->decls.items[i]->body != 0;
        }
        ck_assert_uint_gt(bodies, 2);
        ck_assert_msg(strings > 0 && outside == strings, "%zu of %zu strings borrowed",
                      strings - outside, strings);
        memset(copy, 0xA5, img.len);
        mem_free(copy);
        char *other = mem_malloc(img.len + 8);
        memcpy(other, img.s, img.len);
        memset(other + img.len, 0, 8);
        if (how == REMOVED) {
            ck_assert_int_eq(remove(path), 0);
        } else if (how == CUT_SHORT) {
            put_file(path, img.s, img.len / 2);
        } else if (how == BODY_BYTE_FLIPPED) {
            uint32_t i = 0;
            while (!g->decls.items[i]->body)
                i++;
            other[body_offset(&img, g->decls.items[i]) + 6] ^= 0x10;
            put_file(path, other, img.len);
        } else if (how == OTHER_BYTES) {
            memset(other, 0x5A, img.len);
            put_file(path, other, img.len);
        } else if (how == LONGER) {
            put_file(path, other, img.len + 8);
        }
        mem_free(other);
        for (uint32_t i = 0; i < g->decls.len; i++) {
            ck_assert(ast_body_ready(g, g->decls.items[i], front_reparse));
            ck_assert_msg(same_tree(f->decls.items[i], g->decls.items[i]),
                          "damage %d: declaration %u is not the parse", how, i);
        }
        ck_assert_msg((g->reparsed == NULL) == (how == SOUND), "damage %d: parsed again: %d", how,
                      g->reparsed != NULL);
        ast_file_free(g);
    }
    /* memory running out while the first body is decoded (the image file sound again) */
    put_file(path, img.s, img.len);
    uint32_t i = 0;
    bool whole = false;
    for (long n = 0; n < 100000 && !whole; n++) {
        ast_file *g = ast_image_read_apart(img.s, img.len, KEY, "s.hon", text, len, 0, path);
        ck_assert_ptr_nonnull(g);
        while (!g->decls.items[i]->body)
            i++;
        ast_node *d = g->decls.items[i];
        mem_fail_after(n);
        whole = ast_body_ready(g, d, front_reparse);
        mem_fail_reset();
        if (!whole) {
            ck_assert_uint_ne(d->body, 0);
            ck_assert(ast_body_ready(g, d, front_reparse));
        }
        ck_assert(same_tree(f->decls.items[i], d));
        ck_assert_ptr_null(g->reparsed);
        ast_file_free(g);
    }
    ck_assert(whole);
    /* random damage behind a good sum, in the file read apart and read again: never a fault */
    uint64_t seed = 0xa9a7;
    char *copy = mem_malloc(img.len);
    for (int round = 0; round < 2000; round++) {
        memcpy(copy, img.s, img.len);
        for (int h = 0; h < 2; h++) {
            size_t w = 24 + 4 * (rng_next(&seed) % ((img.len - 24) / 4));
            uint32_t x = (uint32_t)rng_next(&seed);
            memcpy(copy + w, &x, 4);
        }
        reseal(copy, img.len);
        put_file(path, copy, img.len);
        ast_file *g = ast_image_read_apart(copy, img.len, KEY, "s.hon", text, len, 0, path);
        for (uint32_t k = 0; g && k < g->decls.len; k++)
            if (ast_body_ready(g, g->decls.items[k], front_reparse))
                ck_assert_uint_eq(g->decls.items[k]->body, 0);
        ast_file_free(g);
    }
    mem_free(copy);
    ck_assert_int_eq(remove(path), 0);
    ast_file_free(f);
    mem_free(text2);
    sb_free(&img);
    mem_free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ast_image");
    TCase *tc = tcase_create("image");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, bundled_files_read_back);
    tcase_add_test(tc, deepest_trees_read_back);
    tcase_add_test(tc, cut_short_or_foreign);
    tcase_add_test(tc, sum_is_xxh64);
    tcase_add_test(tc, every_bit_flipped);
    tcase_add_test(tc, damage_behind_a_good_sum);
    tcase_add_test(tc, memory_runs_out);
    tcase_add_test(tc, bodies_left_then_decoded);
    tcase_add_test(tc, damaged_body_and_its_length);
    tcase_add_test(tc, memory_runs_out_decoding_a_body);
    tcase_add_test(tc, every_byte_flipped_read_lazily);
    tcase_add_test(tc, read_apart_bodies_from_the_file);
    suite_add_tcase(s, tc);
    return check_run(s);
}
