/* cache.c — the start-up cache: the parse of each rules file kept on disk as an image
 * (dsl/ast_image.h), keyed by the file's text and the build of hon, so that loading a file
 * whose text did not change reads its tree back instead of parsing it (docs/spec/bench.md §9).
 *
 * Images live in $XDG_CACHE_HOME/hon (else $HOME/.cache/hon), one file per text,
 * "KEY.ast" (KEY: 16 hex digits). Nothing is ever required of the cache: an image that is
 * missing, damaged, or of another build is passed over and the file is parsed; a directory
 * that cannot be made or written leaves images unwritten; HON_NO_CACHE set (non-empty)
 * turns it off, and so does a native stack too small for the full nesting bound (front.h). Only a parse with no diagnostic at all is kept, so a file read back reports
 * what its parse would have: nothing. Images are written whole or not at all
 * (file_replace_whole: a scratch file renamed over the entry, a link or FIFO there replaced,
 * never followed), so sessions that share the directory never see half an image.
 *
 * An image read is touched (its time set to now) when its time is over a day old; when a
 * process first writes an image, images untouched for PRUNE_DAYS days, and scratch files a day
 * old (a writer that died), are removed: the texts of files since edited leave no images for
 * ever.
 *
 * Beside the images, the build records ("KEY.rec", cache.h): each says that one set of texts
 * once loaded with no diagnostic, so that a session that answers once may resolve the bodies
 * of its rules when they are reached (load.c). Touched and pruned as the images are. */
#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ast_image.h"
#include "file.h"
#include "front.h"
#include "front_id.h"
#include "mem.h"
#include "resolve_id.h"
#include "strbuf.h"

#define DAY        (24 * 60 * 60)
#define PRUNE_DAYS 30

/* the largest image read: an image is a few times the size of its text (FRONT_MAX_SOURCE) */
#define MAX_IMAGE ((size_t)16 * FRONT_MAX_SOURCE)

/* The cache directory (new string), or NULL when the cache is off or no directory is named.
 * make: create it (and its parent) when missing. */
static char *cache_dir(bool make)
{
    const char *off = getenv("HON_NO_CACHE");
    if (off && *off)
        return NULL;
    /* a stack too small for the full nesting bound (front_depth_bound) is a smaller bound than
       the images were parsed under: a tree read back could be too deep for it, so the files
       are parsed (and the bound checked) */
    if (front_depth_bound() < FRONT_MAX_DEPTH)
        return NULL;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    strbuf b = { 0 };
    if (xdg && xdg[0] == '/') { /* the XDG spec ignores a relative path */
        sb_puts(&b, xdg);
    } else if (home && home[0] == '/') {
        sb_puts(&b, home);
        sb_puts(&b, "/.cache");
    } else {
        return NULL;
    }
    if (make)
        (void)mkdir(sb_str(&b), 0700); /* EEXIST or a failure the next mkdir sees */
    sb_puts(&b, "/hon");
    if (make && mkdir(sb_str(&b), 0700) != 0 && errno != EEXIST) {
        sb_free(&b);
        return NULL;
    }
    return sb_take(&b);
}

/* The path of the image of a text of key k in dir (new string). */
static char *image_path(const char *dir, uint64_t k)
{
    strbuf b = { 0 };
    sb_printf(&b, "%s/%016llx.ast", dir, (unsigned long long)k);
    return sb_take(&b);
}

uint64_t cache_key(const char *text, size_t len)
{
    return ast_image_hash(text ? text : "", text ? len : 0, HON_FRONT_ID);
}

/* Whether name is an image's or a build record's ("KEY.ast", "KEY.rec", KEY 16 hex digits)
 * or, scratch set, a scratch file of one being written ("KEY.ast.XXXXXX"). */
static bool image_name(const char *name, bool *scratch)
{
    for (int i = 0; i < 16; i++)
        if (!strchr("0123456789abcdef", name[i]) || !name[i])
            return false;
    if (strncmp(name + 16, ".ast", 4) != 0 && strncmp(name + 16, ".rec", 4) != 0)
        return false;
    *scratch = name[20] != '\0';
    return !*scratch || name[20] == '.';
}

/* whether this process has pruned the directory: once is enough (a load writing many images
 * would scan it once per image) */
static atomic_bool pruned;

/* Removes the images of dir untouched for PRUNE_DAYS days and the scratch files a day old, the
 * first time it is called in the process. */
static void prune(const char *dir)
{
    if (atomic_exchange(&pruned, true))
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    strbuf path = { 0 };
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        bool scratch;
        struct stat st;
        if (!image_name(e->d_name, &scratch))
            continue;
        path.len = 0;
        sb_printf(&path, "%s/%s", dir, e->d_name);
        if (path.oom || lstat(sb_str(&path), &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (now - st.st_mtime > (scratch ? DAY : (time_t)PRUNE_DAYS * DAY))
            (void)remove(sb_str(&path));
    }
    sb_free(&path);
    closedir(d);
}

/* Sets the time of the image at path, last modified at mtime (its fstat as read: no second
 * look-up by path, one system call an image at each start), to now when it is over a day old:
 * an image in use is never pruned. */
static void touch(const char *path, time_t mtime)
{
    if (time(NULL) - mtime > DAY)
        (void)utimensat(AT_FDCWD, path, NULL, 0);
}

static int write_image(FILE *f, void *ud)
{
    const strbuf *img = ud;
    return fwrite(img->s, 1, img->len, f) == img->len ? 0 : -1;
}

/* Writes the image of f under key k; any failure leaves the cache as it was. */
static void keep_image(const ast_file *f, uint64_t k)
{
    char *dir = cache_dir(true);
    char *path = dir ? image_path(dir, k) : NULL;
    strbuf img = { 0 };
    int status;
    if (path && ast_image_write(f, k, &img) && img.len &&
        file_replace_whole(path, write_image, &img, &status) == 0)
        prune(dir);
    sb_free(&img);
    mem_free(path);
    mem_free(dir);
}

ast_file *cache_parse_file(const char *path, const char *text, size_t len, uint32_t file_id,
                           diag_list *diags, char **image_out, size_t *image_len, uint64_t *key,
                           bool lazy)
{
    uint64_t k = cache_key(text, len);
    *image_out = NULL;
    *image_len = 0;
    *key = k;
    char *dir = cache_dir(false);
    char *ipath = dir ? image_path(dir, k) : NULL;
    char *image = NULL;
    size_t ilen = 0;
    ast_file *f = NULL;
    struct stat st;
    /* lazy: read apart, nothing of the image kept (its bodies read again from ipath when the
     * first is reached: ast_image_read_apart, bench.md §9) */
    if (ipath && file_read_stat(ipath, MAX_IMAGE, &image, &ilen, &st) == 0)
        f = lazy ? ast_image_read_apart(image, ilen, k, path, text, len, file_id, ipath)
                 : ast_image_read_as(image, ilen, k, path, text, len, file_id, false);
    if (f)
        touch(ipath, st.st_mtime);
    if (f && !lazy) {
        *image_out = image;
        *image_len = ilen;
    } else {
        mem_free(image);
    }
    mem_free(ipath);
    if (f || !dir) {
        mem_free(dir);
        return f ? f : front_parse_file(path, text, len, file_id, diags);
    }
    mem_free(dir);
    size_t before = diags->len, errors = diags->errors;
    bool full = diags->full;
    f = front_parse_file(path, text, len, file_id, diags);
    if (f && !full && diags->len == before && diags->errors == errors)
        keep_image(f, k);
    return f;
}

/* ---- build records ---- */

/* A record: these 8 bytes, its key, and the XXH64 of those 16 bytes seeded with
 * HON_RESOLVE_ID. Nothing else: the record's name and content are the whole of what it says. */
static const char record_magic[8] = { 'h', 'o', 'n', 'r', 'e', 'c', '1', '\n' };
#define RECORD_LEN 24

/* The path of the build record of key k in dir (new string). */
static char *record_path(const char *dir, uint64_t k)
{
    strbuf b = { 0 };
    sb_printf(&b, "%s/%016llx.rec", dir, (unsigned long long)k);
    return sb_take(&b);
}

/* The 24 bytes of the record of key k. */
static void record_bytes(uint64_t k, unsigned char out[RECORD_LEN])
{
    memcpy(out, record_magic, 8);
    memcpy(out + 8, &k, 8);
    uint64_t sum = ast_image_hash(out, 16, HON_RESOLVE_ID);
    memcpy(out + 16, &sum, 8);
}

uint64_t cache_record_key(const uint64_t *keys, size_t n)
{
    uint64_t k = ast_image_hash(&n, sizeof n, HON_RESOLVE_ID ^ HON_FRONT_ID);
    for (size_t i = 0; i < n; i++)
        k = ast_image_hash(&keys[i], sizeof keys[i], k);
    return k;
}

bool cache_record_found(uint64_t k)
{
    char *dir = cache_dir(false);
    char *path = dir ? record_path(dir, k) : NULL;
    char *got = NULL;
    size_t len = 0;
    unsigned char want[RECORD_LEN];
    record_bytes(k, want);
    struct stat st;
    bool found = path && file_read_stat(path, 4 * RECORD_LEN, &got, &len, &st) == 0 &&
                 len == RECORD_LEN && memcmp(got, want, RECORD_LEN) == 0;
    if (found)
        touch(path, st.st_mtime);
    mem_free(got);
    mem_free(path);
    mem_free(dir);
    return found;
}

static int write_record(FILE *f, void *ud)
{
    return fwrite(ud, 1, RECORD_LEN, f) == RECORD_LEN ? 0 : -1;
}

void cache_record_keep(uint64_t k)
{
    char *dir = cache_dir(true);
    char *path = dir ? record_path(dir, k) : NULL;
    unsigned char bytes[RECORD_LEN];
    record_bytes(k, bytes);
    int status;
    if (path && file_replace_whole(path, write_record, bytes, &status) == 0)
        prune(dir);
    mem_free(path);
    mem_free(dir);
}
