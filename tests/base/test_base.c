/* tests/base/test_base.c — Check unit tests of the ground floor (base/): the allocator funnel
 * and its failure hook (mem.c), the arena (arena.c), the growable string (strbuf.c) and the
 * whole-file reader (file.c), the nearest-name search (near.c) and the diagnostic list's cap
 * (diag.c). The diagnostics renderer has its own tests (tests/dsl/test_diag.c).
 * Expected values follow from each header's contract, as the comments say.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "check_run.h"
#include "diag.h"
#include "file.h"
#include "hash.h"
#include "mem.h"
#include "near.h"
#include "strbuf.h"

/* An entry of hash_spreads's table. */
typedef struct hkey {
    char name[32];
    UT_hash_handle hh;
} hkey;

START_TEST(hash_spreads)
{
    /* The tables' hash (hon_hash_key, hash.h) on names like the resolver's: 20,000 keys of
     * every length from 1 to 20 bytes, sharing long prefixes ("q123.r4"), each found again,
     * and spread well enough that uthash never gave up growing its buckets (it stops, setting
     * noexpand, when a growth leaves most entries in overfull buckets: a hash that ignored
     * some bytes would), its fullest bucket holding at most 16 (uthash aims for 10 each). */
    enum {
        N = 20000
    };
    hkey *keys = calloc(N, sizeof *keys), *table = NULL;
    ck_assert_ptr_nonnull(keys);
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0)
            snprintf(keys[i].name, sizeof keys[i].name, "q%d.r%d", i / 7, i % 7);
        else if (i % 3 == 1)
            snprintf(keys[i].name, sizeof keys[i].name, "%.*s%d", 1 + i % 12, "abcdefghijkl", i);
        else
            snprintf(keys[i].name, sizeof keys[i].name, "x%d", i);
        HASH_ADD_STR(table, name, &keys[i]);
        ck_assert(HON_HASH_ADDED(&keys[i]));
    }
    ck_assert_uint_eq(HASH_COUNT(table), N);
    for (int i = 0; i < N; i++) {
        hkey *found = NULL;
        HASH_FIND_STR(table, keys[i].name, found);
        ck_assert_ptr_eq(found, &keys[i]);
    }
    hkey *none = NULL;
    HASH_FIND_STR(table, "q0.r7", none); /* i / 7 == 0 only for r0..r6 */
    ck_assert_ptr_null(none);
    ck_assert_uint_eq(table->hh.tbl->noexpand, 0);
    unsigned fullest = 0;
    for (unsigned b = 0; b < table->hh.tbl->num_buckets; b++)
        if (table->hh.tbl->buckets[b].count > fullest)
            fullest = table->hh.tbl->buckets[b].count;
    ck_assert_uint_le(fullest, 16);
    HASH_CLEAR(hh, table);
    free(keys);
}
END_TEST

START_TEST(mem_funnel)
{
    char *p = mem_malloc(10);
    ck_assert_ptr_nonnull(p);
    p = mem_realloc(p, 100);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_null(mem_realloc(p, 0)); /* frees */
    int *z = mem_calloc(4, sizeof *z);
    ck_assert(z && z[0] == 0 && z[3] == 0);
    mem_free(z);
    ck_assert_ptr_null(mem_calloc(SIZE_MAX / 2, 4)); /* overflow */
    char *s = mem_strndup("abcdef", 3);
    ck_assert_str_eq(s, "abc");
    mem_free(s);
    /* the hook: two allocations succeed, the third fails, and so does every later one */
    mem_fail_after(2);
    void *a = mem_malloc(1), *b = mem_malloc(1), *c = mem_malloc(1), *d = mem_malloc(1);
    ck_assert(a && b && !c && !d);
    ck_assert_int_eq(mem_failed_count(), 2);
    mem_fail_reset();
    void *e = mem_malloc(1);
    ck_assert_ptr_nonnull(e);
    mem_free(a);
    mem_free(b);
    mem_free(e);
    /* a failed realloc leaves the block alone */
    char *keep = mem_strdup("keep");
    mem_fail_after(0);
    ck_assert_ptr_null(mem_realloc(keep, 1000));
    mem_fail_reset();
    ck_assert_str_eq(keep, "keep");
    mem_free(keep);
}
END_TEST

/* The memory cap: the bytes held are counted (at least what was asked), freeing gives them
 * back, and an allocation or growth past the cap fails and marks it hit, leaving the block. */
START_TEST(mem_cap_counts_and_refuses)
{
    size_t before = mem_in_use(), old_cap = mem_cap();
    char *a = mem_malloc(1000);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_ge(mem_in_use(), before + 1000);
    mem_set_cap(mem_in_use() + 4096);
    mem_cap_clear();
    ck_assert(!mem_cap_hit());
    void *big = mem_malloc(8192); /* 8192 more bytes than the 4096 left */
    ck_assert_ptr_null(big);
    ck_assert(mem_cap_hit());
    mem_cap_clear();
    char *grown = mem_realloc(a, 1000 + 8192);
    ck_assert(!grown && mem_cap_hit());
    a[999] = 'x';                      /* a is still ours */
    char *shrunk = mem_realloc(a, 10); /* shrinking always succeeds */
    ck_assert_ptr_nonnull(shrunk);
    void *fits = mem_malloc(2048);
    ck_assert_ptr_nonnull(fits);
    mem_free(fits);
    mem_free(shrunk);
    ck_assert_uint_eq(mem_in_use(), before);
    mem_set_cap(old_cap);
    mem_cap_clear();
}
END_TEST

START_TEST(arena_blocks)
{
    arena a = { 0 };
    /* every block is aligned for any type, even after an odd-sized one */
    char *p = arena_alloc(&a, 3);
    void *q = arena_alloc(&a, 8);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(q);
    ck_assert_uint_eq((uintptr_t)q % alignof(max_align_t), 0);
    ck_assert_ptr_ne(p, q);
    /* a zero-byte request still gives a distinct block */
    void *z1 = arena_alloc(&a, 0), *z2 = arena_alloc(&a, 0);
    ck_assert_ptr_nonnull(z1);
    ck_assert_ptr_ne(z1, z2);
    /* a block larger than the 16 KiB blocks is served whole and is writable end to end */
    unsigned char *big = arena_alloc(&a, 100000);
    ck_assert_ptr_nonnull(big);
    memset(big, 0xab, 100000);
    /* and the small requests after it keep filling the current block */
    char *r = arena_alloc(&a, 16);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_ge(a.total, 100000 + 16);
    arena_reset(&a);
    ck_assert_uint_eq(a.total, 0);
    ck_assert_ptr_nonnull(a.head); /* one block kept for reuse */
    ck_assert_ptr_nonnull(arena_alloc(&a, 32));
    arena_free(&a);
    ck_assert_ptr_null(a.head);
    ck_assert_uint_eq(a.total, 0);
    arena_free(&a); /* freeing an empty arena is harmless */
}
END_TEST

START_TEST(arena_rewinds)
{
    /* a rewind keeps what came before the mark, intact, and gives back what came after: the
     * small requests of the current block, new blocks in front, and large blocks put behind
     * the mark's own block */
    arena a = { 0 };
    char *keep = arena_alloc(&a, 100);
    memset(keep, 'k', 100);
    arena_mark m = arena_mark_of(&a);
    size_t total = a.total;
    for (int round = 0; round < 3; round++) {
        ck_assert_ptr_nonnull(arena_alloc(&a, 100000)); /* a large block behind the head */
        for (int i = 0; i < 100; i++)                   /* several new 16 KiB blocks in front */
            ck_assert_ptr_nonnull(arena_alloc(&a, 1000));
        ck_assert_ptr_nonnull(arena_alloc(&a, 100000)); /* a large block behind a new head */
        arena_rewind(&a, m);
        ck_assert_uint_eq(a.total, total);
        for (int i = 0; i < 100; i++)
            ck_assert_int_eq(keep[i], 'k');
        /* the next request comes right after the kept one, from the same block */
        char *next = arena_alloc(&a, 16);
        ck_assert_ptr_eq(next, keep + 112);
        arena_rewind(&a, m);
    }
    /* a mark of an empty arena: a rewind to it frees everything */
    arena b = { 0 };
    arena_mark empty = arena_mark_of(&b);
    ck_assert_ptr_nonnull(arena_alloc(&b, 100000));
    ck_assert_ptr_nonnull(arena_alloc(&b, 10));
    arena_rewind(&b, empty);
    ck_assert_ptr_null(b.head);
    ck_assert_uint_eq(b.total, 0);
    arena_free(&a);
    arena_free(&b);
}
END_TEST

START_TEST(arena_limit)
{
    /* a limit of 64 bytes: requests are rounded up to the alignment (at most 16 on x86-64),
     * so four 16-byte blocks fit and a fifth does not */
    arena a = { .limit = 4 * alignof(max_align_t) };
    for (int i = 0; i < 4; i++)
        ck_assert_ptr_nonnull(arena_alloc(&a, alignof(max_align_t)));
    ck_assert_ptr_null(arena_alloc(&a, 1));
    ck_assert_ptr_null(arena_alloc(&a, SIZE_MAX)); /* absurd sizes are refused, not wrapped */
    arena_reset(&a);                               /* a reset gives the room back */
    ck_assert_ptr_nonnull(arena_alloc(&a, 1));
    arena_free(&a);
}
END_TEST

START_TEST(arena_oom)
{
    arena a = { 0 };
    mem_fail_after(0);
    ck_assert_ptr_null(arena_alloc(&a, 8));
    mem_fail_reset();
    ck_assert_ptr_null(a.head);
    arena_free(&a);
}
END_TEST

START_TEST(strbuf_appends)
{
    strbuf b = { 0 };
    ck_assert_str_eq(sb_str(&b), ""); /* empty, before anything was appended */
    sb_puts(&b, "line");
    sb_putc(&b, ' ');
    sb_putn(&b, "of sightXX", 8);
    sb_puts(&b, NULL); /* appends nothing */
    sb_printf(&b, ": %d squares", 7);
    ck_assert_str_eq(sb_str(&b), "line of sight: 7 squares");
    ck_assert_uint_eq(b.len, strlen("line of sight: 7 squares"));
    /* a formatted text longer than the 256-byte fast path is written whole */
    char wide[600];
    memset(wide, 'x', sizeof wide - 1);
    wide[sizeof wide - 1] = '\0';
    sb_printf(&b, "%s", wide);
    ck_assert_uint_eq(b.len, strlen("line of sight: 7 squares") + 599);
    char *s = sb_take(&b);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(strlen(s), strlen("line of sight: 7 squares") + 599);
    ck_assert_ptr_null(b.s); /* empty after sb_take */
    mem_free(s);
    /* taking an empty buffer gives "" */
    s = sb_take(&b);
    ck_assert_str_eq(s, "");
    mem_free(s);
}
END_TEST

/* JSON escaping by the rules of RFC 8259 §7, one byte at a time: the reference that
 * sb_json_str, which looks at eight bytes at a time, must agree with. */
static void json_reference(char *out, const unsigned char *s)
{
    *out++ = '"';
    for (; *s; s++) {
        const char *esc = *s == '"'    ? "\\\""
                          : *s == '\\' ? "\\\\"
                          : *s == '\n' ? "\\n"
                          : *s == '\r' ? "\\r"
                          : *s == '\t' ? "\\t"
                                       : NULL;
        if (esc) {
            out += sprintf(out, "%s", esc);
        } else if (*s < 0x20) {
            out += sprintf(out, "\\u%04x", *s);
        } else {
            *out++ = (char)*s;
        }
    }
    *out++ = '"';
    *out = '\0';
}

/* Every byte (1 to 255) at every place of strings of up to 24 characters, alone and with a
 * second one 9 places on (so that both fall in one eight-byte word, in two, and in the bytes
 * after the last whole word), and strings drawn at random from quotes, backslashes, control
 * bytes, bytes from 0x80 up and letters: sb_json_str writes what the reference writes. */
START_TEST(strbuf_json_every_byte_everywhere)
{
    unsigned char in[64];
    char want[512];
    strbuf b = { 0 };
    for (size_t len = 1; len <= 24; len++)
        for (size_t at = 0; at < len; at++)
            for (int c = 1; c < 256; c++) {
                memset(in, 'a', len);
                in[len] = '\0';
                in[at] = (unsigned char)c;
                if (at + 9 < len)
                    in[at + 9] = (unsigned char)(c == 1 ? 255 : c - 1);
                json_reference(want, in);
                b.len = 0;
                sb_json_str(&b, (const char *)in);
                ck_assert_str_eq(sb_str(&b), want);
            }
    const unsigned char pool[] = "\"\\\n\r\t\x01\x1f\x20\x7f\x80\xc3\xa9\xffxyzAB09 ";
    uint64_t r = 12345;
    for (int i = 0; i < 5000; i++) {
        size_t len = (size_t)(i % 41);
        for (size_t k = 0; k < len; k++) {
            r = r * 6364136223846793005u + 1442695040888963407u;
            in[k] = pool[(r >> 33) % (sizeof pool - 1)];
        }
        in[len] = '\0';
        json_reference(want, in);
        b.len = 0;
        sb_json_str(&b, (const char *)in);
        ck_assert_str_eq(sb_str(&b), want);
    }
    sb_free(&b);
}
END_TEST

START_TEST(strbuf_json_and_limits)
{
    strbuf b = { 0 };
    sb_json_str(&b, "a\"b\\c\n\t\x01");
    sb_putc(&b, ' ');
    sb_json_str(&b, NULL);
    /* quotes and backslashes escaped, \n and \t by name, other control bytes as \u00XX */
    ck_assert_str_eq(sb_str(&b), "\"a\\\"b\\\\c\\n\\t\\u0001\" null");
    sb_free(&b);
    /* runs of plain characters are copied whole (sb_json_str): an empty string, escapes at
     * both ends, \r, and bytes of UTF-8 (0x80 and up) passed through as they are */
    sb_json_str(&b, "");
    sb_json_str(&b, "\"mid\\");
    sb_json_str(&b, "\rcaf\xc3\xa9");
    ck_assert_str_eq(sb_str(&b), "\"\"\"\\\"mid\\\\\"\"\\rcaf\xc3\xa9\"");
    sb_free(&b);
    /* a limit refuses what would pass it and every later append, and says so */
    strbuf l = { .limit = 8 };
    sb_puts(&l, "12345");
    sb_puts(&l, "6789");
    ck_assert(l.truncated);
    sb_puts(&l, "!");
    sb_putc(&l, '!'); /* refused too, though the buffer has room (its capacity is 64) */
    sb_putn(&l, "!", 1);
    ck_assert_str_eq(sb_str(&l), "12345");
    sb_free(&l);
    /* a byte at a time up to the limit: the 8 fit, the 9th is refused */
    strbuf c = { .limit = 8 };
    for (int i = 0; i < 9; i++)
        sb_putc(&c, (char)('a' + i));
    ck_assert(c.truncated);
    ck_assert_str_eq(sb_str(&c), "abcdefgh");
    sb_free(&c);
    /* a buffer marked failed keeps its capacity, yet takes nothing more (sb_fail) */
    strbuf f = { 0 };
    sb_puts(&f, "kept");
    sb_fail(&f);
    sb_putc(&f, 'x');
    sb_putn(&f, "yz", 2);
    sb_puts(&f, "w");
    ck_assert(f.oom);
    ck_assert_uint_eq(f.len, 0);
    ck_assert_str_eq(sb_str(&f), "");
    ck_assert_ptr_null(sb_take(&f)); /* and frees the text */
    /* out of memory: the text is lost, sb_str gives "" and sb_take NULL */
    strbuf o = { 0 };
    mem_fail_after(0);
    sb_puts(&o, "text");
    mem_fail_reset();
    ck_assert(o.oom);
    ck_assert_str_eq(sb_str(&o), "");
    ck_assert_ptr_null(sb_take(&o));
}
END_TEST

START_TEST(file_reader)
{
    char dir[] = "/tmp/hon_base_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/f.hon", dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fwrite("ab\0cd", 1, 5, f); /* NUL bytes are kept, the length says where */
    fclose(f);
    char *text;
    size_t len;
    ck_assert_int_eq(file_read(path, 100, &text, &len), 0);
    ck_assert_uint_eq(len, 5);
    ck_assert_mem_eq(text, "ab\0cd", 5);
    ck_assert_int_eq(text[5], '\0');
    mem_free(text);
    /* past the limit, a directory, a missing file: refused with why, nothing handed out */
    ck_assert_int_eq(file_read(path, 4, &text, &len), EFBIG);
    ck_assert_ptr_null(text);
    ck_assert_str_eq(file_error(EFBIG), "file too large");
    ck_assert_int_eq(file_read(path, 5, &text, &len), 0); /* exactly the limit: read */
    ck_assert_uint_eq(len, 5);
    mem_free(text);
    /* file_read_stat: the same text, and the file's status as read: its size and its time
     * (set here to a known past second, as an image last touched two days ago) */
    struct timespec then[2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };
    ck_assert_int_eq(utimensat(AT_FDCWD, path, then, 0), 0);
    struct stat st;
    memset(&st, 0, sizeof st);
    ck_assert_int_eq(file_read_stat(path, 100, &text, &len, &st), 0);
    ck_assert_uint_eq(len, 5);
    ck_assert_mem_eq(text, "ab\0cd", 5);
    ck_assert_int_eq(st.st_size, 5);
    ck_assert_int_eq(st.st_mtime, 1000000000);
    ck_assert(S_ISREG(st.st_mode));
    mem_free(text);
    ck_assert_int_eq(file_read_stat(path, 100, &text, &len, NULL), 0); /* no status asked */
    ck_assert_uint_eq(len, 5);
    mem_free(text);
    /* A regular file that is longer than fstat says (a /proc file says 0 bytes): the room
     * taken from the size grows until the end is read; "Name:" is the file's first line
     * (proc(5)). */
    ck_assert_int_eq(file_read("/proc/self/status", 1 << 20, &text, &len), 0);
    ck_assert_uint_gt(len, 5);
    ck_assert_mem_eq(text, "Name:", 5);
    ck_assert_int_eq(text[len], '\0');
    mem_free(text);
    ck_assert_int_eq(file_read("/proc/self/status", 3, &text, &len), EFBIG);
    ck_assert_ptr_null(text);
    ck_assert_int_eq(file_read(dir, 100, &text, &len), EISDIR);
    snprintf(path, sizeof path, "%s/missing.hon", dir);
    ck_assert_int_eq(file_read(path, 100, &text, &len), ENOENT);
    ck_assert_ptr_null(text);
    snprintf(path, sizeof path, "%s/f.hon", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* near.h: a want of up to 3 bytes takes a suggestion 1 edit away, a longer one 2 (or a fifth of
 * its length). A candidate whose length is further off than that is passed over unread, which
 * must not change the answer: its distance is at least the difference of the lengths. */
START_TEST(near_suggests)
{
    near_search s;
    near_begin(&s, "zz");
    near_offer(&s, "f1234"); /* length 5: 3 edits at least */
    near_offer(&s, "zz");    /* the name itself is never suggested */
    near_offer(&s, "zzzz");  /* 2 insertions: over the limit of 1 */
    ck_assert_ptr_null(near_result(&s));
    near_offer(&s, "zzz"); /* 1 insertion */
    near_offer(&s, "z");   /* 1 deletion: a tie, the first offered stays */
    ck_assert_str_eq(near_result(&s), "zzz");
    /* one or two letters: a substitution is no slip (the fresh review of issue 12: `x` was
     * answered "did you mean `A`?"); a letter dropped or added still is */
    near_begin(&s, "x");
    near_offer(&s, "A");
    near_offer(&s, "y");
    ck_assert_ptr_null(near_result(&s));
    near_begin(&s, "ab");
    near_offer(&s, "ax");
    ck_assert_ptr_null(near_result(&s));
    near_offer(&s, "abc");
    ck_assert_str_eq(near_result(&s), "abc");
    near_begin(&s, "defence");
    near_offer(&s, "defensive_bonus"); /* 8 longer: passed over */
    near_offer(&s, "defense");         /* 1 substitution */
    ck_assert_str_eq(near_result(&s), "defense");
    ck_assert_uint_eq(near_distance("kitten", "sitting"), 3); /* the textbook pair */
}
END_TEST

/* diag.h: a list keeps DIAG_LIST_MAX diagnostics, then one E009, then only counts; so
 * diag_list_keeps is true before each of the first DIAG_LIST_MAX reports and false after, when
 * a caller's costly message (a "did you mean" over every name) would be thrown away. */
/* A word of bytes that are no UTF-8 (continuation bytes only, as fuzz_scenario found in a
 * scenario file): shortened, it is no longer than it was, with the ellipsis; the byte after the
 * buffer is never written (ASan saw diag_shorten write 3 bytes past the message). Its form: the
 * first 80 bytes at most, the ellipsis, the last 24 at least: under 120 bytes of the 200. */
START_TEST(diag_shorten_bytes_not_utf8)
{
    char *s = malloc(201);
    ck_assert_ptr_nonnull(s);
    memset(s, 0x80, 200);
    s[200] = '\0';
    size_t n = diag_shorten(s);
    ck_assert_uint_eq(n, strlen(s));
    ck_assert_uint_lt(n, 120);
    ck_assert_ptr_nonnull(strstr(s, "\xe2\x80\xa6"));
    free(s);
}
END_TEST

START_TEST(diag_cap_keeps)
{
    diag_list l;
    diag_list_init(&l, NULL);
    src_loc at = { 0, 1, 1, 1, 2 };
    for (int i = 0; i < DIAG_LIST_MAX; i++) {
        ck_assert(diag_list_keeps(&l));
        ck_assert_ptr_nonnull(diag_report(&l, E_UNKNOWN_NAME, DIAG_ERROR, at, "error %d", i));
    }
    ck_assert(!diag_list_keeps(&l));
    ck_assert_ptr_null(diag_report(&l, E_UNKNOWN_NAME, DIAG_ERROR, at, "one more"));
    ck_assert(!diag_list_keeps(&l));
    ck_assert_ptr_null(diag_report(&l, E_UNKNOWN_NAME, DIAG_ERROR, at, "and another"));
    ck_assert_uint_eq(l.len, DIAG_LIST_MAX + 1); /* the kept ones and the E009 */
    ck_assert_int_eq(l.items[DIAG_LIST_MAX].code, E_TOO_MANY_ERRORS);
    ck_assert_uint_eq(l.errors, DIAG_LIST_MAX + 2); /* every report counted */
    diag_list_clear(&l);
    ck_assert(diag_list_keeps(&l));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("base");
    TCase *tc = tcase_create("base");
    tcase_add_test(tc, mem_funnel);
    tcase_add_test(tc, hash_spreads);
    tcase_add_test(tc, mem_cap_counts_and_refuses);
    tcase_add_test(tc, arena_blocks);
    tcase_add_test(tc, arena_rewinds);
    tcase_add_test(tc, arena_limit);
    tcase_add_test(tc, arena_oom);
    tcase_add_test(tc, strbuf_appends);
    tcase_add_test(tc, strbuf_json_and_limits);
    tcase_add_test(tc, strbuf_json_every_byte_everywhere);
    tcase_add_test(tc, file_reader);
    tcase_add_test(tc, near_suggests);
    tcase_add_test(tc, diag_cap_keeps);
    tcase_add_test(tc, diag_shorten_bytes_not_utf8);
    suite_add_tcase(s, tc);
    return check_run(s);
}
