/* fmt.c — `hon fmt [--check] [--diff] [--json] FILE|DIR...` (cli.h: cli_fmt;
 * docs/spec/format.md, repl.md): lays out .hon files through hon_format, rewriting each changed
 * one in place atomically (a temporary file in its directory, renamed over it; a file with
 * other hard links truncated and written, so that they see it), or only listing
 * (--check) or showing as a unified diff (--diff) what would change; under --json (or the
 * global one) all that as one JSON object. Directories are walked for *.hon
 * files, in name order; a file named that is not a .hon file (a .scn scenario) is refused. A
 * file that does not parse, or whose layout would be too long (fmt.h), is reported and left
 * untouched.
 */
#define _XOPEN_SOURCE 700 /* open_memstream, mkstemp */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum {
    CONTEXT = 3
};
#define FMT_MAX_FILE ((size_t)64 << 20) /* bytes of a rule file, as hon_load_file's bound */

typedef struct fmt_opts {
    bool check, diff, json;
    size_t changed, failed;
    size_t shown; /* files listed so far in the JSON object */
    int rc;
} fmt_opts;

/* Reads stream f to its end into a new string (*len bytes), closing f unless it is stdin; NULL
 * with errno set when it cannot. */
static char *slurp_stream(FILE *f, size_t *len)
{
    char *s = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n + 4096 + 1 > cap) {
            char *g = realloc(s, cap = (n + 4096 + 1) * 2);
            if (!g) {
                free(s);
                if (f != stdin)
                    fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            s = g;
        }
        got = fread(s + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    int bad = ferror(f);
    if (f != stdin)
        fclose(f);
    if (bad) {
        free(s);
        errno = EIO;
        return NULL;
    }
    s[n] = '\0';
    *len = n;
    return s;
}

/* Reads a whole file into a new string (*len bytes, free with free()) as every file a user
 * names is read (hon_read_file: a directory, a FIFO or a device is refused, never waited on or
 * read forever; a rule file's bound); NULL with *why the reason when it cannot. */
static char *slurp(const char *path, size_t *len, const char **why)
{
    char *file;
    if (hon_read_file(path, FMT_MAX_FILE, &file, len, why) != HON_OK)
        return NULL;
    char *s = malloc(*len + 1);
    if (s)
        memcpy(s, file, *len + 1);
    else
        *why = strerror(ENOMEM);
    hon_text_free(file);
    return s;
}

/* The lines of text (n bytes): starts[i] is where line i starts; starts[count] == n. */
static size_t *line_starts(const char *text, size_t n, size_t *count)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += text[i] == '\n';
    size_t *st = malloc((k + 2) * sizeof *st);
    if (!st)
        return NULL;
    size_t c = 0;
    st[c++] = 0;
    for (size_t i = 0; i < n; i++)
        if (text[i] == '\n' && i + 1 < n)
            st[c++] = i + 1;
    if (n == 0)
        c = 0;
    st[c] = n;
    *count = c;
    return st;
}

static bool same_line(const char *a, const size_t *as, size_t i, const char *b, const size_t *bs,
                      size_t j)
{
    size_t la = as[i + 1] - as[i], lb = bs[j + 1] - bs[j];
    return la == lb && memcmp(a + as[i], b + bs[j], la) == 0;
}

static void put_line(FILE *out, char mark, const char *t, const size_t *st, size_t i)
{
    size_t len = st[i + 1] - st[i];
    fprintf(out, "%c%.*s", mark, (int)len, t + st[i]);
    if (!len || t[st[i + 1] - 1] != '\n')
        fprintf(out, "\n\\ No newline at end of file\n");
}

/* Prints to out the unified diff of a (the file) and b (its layout): an LCS over their lines,
 * in hunks with CONTEXT lines around each change. Returns false on OOM. */
static bool print_diff(FILE *out, const char *path, const char *a, size_t an, const char *b,
                       size_t bn)
{
    size_t m, n;
    size_t *as = line_starts(a, an, &m), *bs = line_starts(b, bn, &n);
    unsigned *lcs = as && bs ? calloc((m + 1) * (n + 1), sizeof *lcs) : NULL;
    /* ops: 0 keep, 1 delete a line of a, 2 insert a line of b; at most m + n of them */
    unsigned char *op = lcs ? malloc(m + n + 1) : NULL;
    bool ok = op != NULL;
    size_t nop = 0;
    for (size_t i = m; ok && i-- > 0;)
        for (size_t j = n; j-- > 0;)
            lcs[i * (n + 1) + j] = same_line(a, as, i, b, bs, j)
                                       ? lcs[(i + 1) * (n + 1) + j + 1] + 1
                                   : lcs[(i + 1) * (n + 1) + j] >= lcs[i * (n + 1) + j + 1]
                                       ? lcs[(i + 1) * (n + 1) + j]
                                       : lcs[i * (n + 1) + j + 1];
    for (size_t i = 0, j = 0; ok && (i < m || j < n);) {
        if (i < m && j < n && same_line(a, as, i, b, bs, j))
            op[nop++] = 0, i++, j++;
        else if (j >= n || (i < m && lcs[(i + 1) * (n + 1) + j] >= lcs[i * (n + 1) + j + 1]))
            op[nop++] = 1, i++;
        else
            op[nop++] = 2, j++;
    }
    if (ok)
        fprintf(out, "--- %s\n+++ %s\n", path, path);
    /* walk the ops, a hunk from CONTEXT before a change to CONTEXT after the last one near */
    for (size_t k = 0, i = 0, j = 0; ok && k < nop;) {
        if (op[k] == 0) {
            k++, i++, j++;
            continue;
        }
        size_t back = 0;
        while (back < CONTEXT && back < k && op[k - back - 1] == 0)
            back++;
        size_t end = k, keep = 0;
        while (end < nop && keep <= 2 * CONTEXT) {
            keep = op[end] == 0 ? keep + 1 : 0;
            end++;
        }
        if (keep > CONTEXT)
            end -= keep - CONTEXT;
        size_t hs = k - back, ai = i - back, bj = j - back, acount = 0, bcount = 0;
        for (size_t q = hs; q < end; q++) {
            acount += op[q] != 2;
            bcount += op[q] != 1;
        }
        fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", acount ? ai + 1 : ai, acount,
                bcount ? bj + 1 : bj, bcount);
        for (size_t q = hs; q < end; q++) {
            if (op[q] == 0)
                put_line(out, ' ', a, as, ai++), bj++;
            else if (op[q] == 1)
                put_line(out, '-', a, as, ai++);
            else
                put_line(out, '+', b, bs, bj++);
        }
        k = end, i = ai, j = bj;
    }
    free(op);
    free(lcs);
    free(as);
    free(bs);
    return ok;
}

/* Writes len bytes of text to descriptor fd. False (errno set) when it could not. */
static bool write_all(int fd, const char *text, size_t len)
{
    for (size_t done = 0; done < len;) {
        ssize_t w = write(fd, text + done, len - done);
        if (w <= 0)
            return false;
        done += (size_t)w;
    }
    return true;
}

/* Writes text over path atomically: a temporary file beside it, with its mode, renamed over
 * it; a symbolic link is written through (beside and over the file it names: the link stays,
 * as with `gofmt -w`). A file with other hard links is rewritten in place instead, truncated
 * and written, so that every name of it sees the new text (a rename would leave the others
 * with the old). Returns false (errno set) when it could not. */
static bool write_over(const char *path, const char *text, size_t len)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_nlink > 1) {
        int fd = open(path, O_WRONLY | O_TRUNC);
        bool ok = fd >= 0 && write_all(fd, text, len);
        int err = errno;
        if (fd >= 0 && close(fd) != 0 && ok) {
            ok = false;
            err = errno;
        }
        errno = err;
        return ok;
    }
    char *real = lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) ? realpath(path, NULL) : NULL;
    if (real)
        path = real;
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 16);
    if (!tmp) {
        free(real);
        return false;
    }
    snprintf(tmp, pl + 16, "%s.fmt-XXXXXX", path);
    int fd = mkstemp(tmp);
    bool ok = fd >= 0;
    if (ok && stat(path, &sb) == 0)
        ok = fchmod(fd, sb.st_mode & 07777) == 0;
    ok = ok && write_all(fd, text, len);
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    if (ok)
        ok = rename(tmp, path) == 0;
    int err = errno;
    if (!ok && fd >= 0)
        unlink(tmp);
    free(tmp);
    free(real);
    errno = err;
    return ok;
}

/* Under --json: the entry of one file in the object's "files" list (repl.md, fmt), `diff` its
 * unified diff or NULL; `text` (`fmt -`), the laid out text in place of "written", or NULL. */
static void put_json_file(fmt_opts *o, const char *path, bool failed, bool changed, bool written,
                          const char *diff, const char *text)
{
    printf("%s{\"path\": ", o->shown++ ? ", " : "");
    cli_put_json_string(path, stdout);
    if (failed) {
        printf(", \"failed\": true}");
        return;
    }
    printf(", \"changed\": %s", changed ? "true" : "false");
    if (text) {
        printf(", \"text\": ");
        cli_put_json_string(text, stdout);
    } else if (!o->check && !o->diff) {
        printf(", \"written\": %s", written ? "true" : "false");
    }
    if (diff) {
        printf(", \"diff\": ");
        cli_put_json_string(diff, stdout);
    }
    putchar('}');
}

/* The unified diff of text and laid as a new string (print_diff's text); NULL on OOM. */
static char *diff_text(const char *path, const char *text, size_t len, const char *laid,
                       size_t out_len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return NULL;
    bool ok = print_diff(f, path, text, len, laid, out_len);
    if (fclose(f) != 0 || !ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void fmt_file(cli_session *s, const char *path, fmt_opts *o)
{
    size_t len = 0, out_len = 0;
    const char *why = NULL;
    char *text = slurp(path, &len, &why), *laid = NULL, *diff = NULL;
    bool changed = false, written = false;
    if (!text) {
        cli_error_file(CLI_E_CANNOT_READ, path, "cannot read '%s': %s", path, why);
        o->rc = 1;
        o->failed++;
        if (o->json)
            put_json_file(o, path, true, false, false, NULL, NULL);
        return;
    }
    hon_status st = hon_format(s->vm, path, text, len, &laid, &out_len);
    if (st != HON_OK) {
        if (st == HON_ERR_MEMORY)
            cli_error_code(CLI_E_MEMORY, "out of memory");
        o->rc = 1;
        o->failed++;
    } else if (out_len != len || memcmp(text, laid, len) != 0) {
        o->changed++;
        changed = true;
        if (o->diff && o->json) {
            if (!(diff = diff_text(path, text, len, laid, out_len))) {
                cli_error_code(CLI_E_MEMORY, "out of memory");
                o->rc = 1;
            }
        } else if (o->diff) {
            if (!print_diff(stdout, path, text, len, laid, out_len)) {
                cli_error_code(CLI_E_MEMORY, "out of memory");
                o->rc = 1;
            }
        } else if (o->check) {
            if (!o->json)
                printf("%s\n", path);
        } else if (!write_over(path, laid, out_len)) {
            cli_error_code(CLI_E_WRITE, "cannot write '%s': %s", path, strerror(errno));
            o->rc = 1;
        } else {
            written = true;
            if (!o->json)
                printf("%s\n", path);
        }
    }
    if (o->json)
        put_json_file(o, path, st != HON_OK, changed, written, diff, NULL);
    free(diff);
    hon_text_free(laid);
    free(text);
}

/* `hon fmt -`: the text of standard input laid out (its diagnostics naming `<stdin>`), as a
 * filter for editors: the laid out text on stdout, changed or not; --check: `<stdin>` listed
 * when it would change; --diff: the diff; --json: the object's entry, with the text as
 * "text". A text that does not parse gets its errors on stderr and, in the plain filter form,
 * the text itself back unchanged on stdout (exit 1): a filter never replaces a buffer with half
 * a file, nor with nothing (rev12d 2: Vim's `:%!hon fmt - 2>/dev/null` keeps the buffer). */
static void fmt_stdin(cli_session *s, fmt_opts *o)
{
    static const char name[] = "<stdin>";
    size_t len = 0, out_len = 0;
    char *text = slurp_stream(stdin, &len), *laid = NULL;
    if (!text) {
        cli_error_code(CLI_E_CANNOT_READ, "cannot read the standard input: %s", strerror(errno));
        o->rc = 1;
        o->failed++;
        return;
    }
    hon_status st = hon_format(s->vm, name, text, len, &laid, &out_len);
    bool changed = st == HON_OK && (out_len != len || memcmp(text, laid, len) != 0);
    char *diff = NULL;
    if (st != HON_OK) {
        if (st == HON_ERR_MEMORY)
            cli_error_code(CLI_E_MEMORY, "out of memory");
        o->rc = 1;
        o->failed++;
    } else if (changed) {
        o->changed++;
    }
    if (st == HON_OK && changed && o->diff && o->json)
        diff = diff_text(name, text, len, laid, out_len);
    else if (st == HON_OK && changed && o->diff)
        print_diff(stdout, name, text, len, laid, out_len);
    else if (st == HON_OK && changed && o->check && !o->json)
        printf("%s\n", name);
    else if (st == HON_OK && !o->check && !o->diff && !o->json)
        fwrite(laid, 1, out_len, stdout);
    else if (st == HON_ERR_COMPILE && !o->check && !o->diff && !o->json)
        fwrite(text, 1, len, stdout); /* the input back, as it came */
    if (o->json)
        put_json_file(o, name, st != HON_OK, changed, false, diff,
                      st == HON_OK && !o->check && !o->diff ? laid : NULL);
    free(diff);
    hon_text_free(laid);
    free(text);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Formats path: a .hon file (another file named is refused), or every *.hon file under a
 * directory (depth first, in name order). */
static void fmt_path(cli_session *s, const char *path, fmt_opts *o, bool named)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        size_t l = strlen(path);
        bool hon = l > 4 && strcmp(path + l - 4, ".hon") == 0;
        if (hon) {
            fmt_file(s, path, o);
        } else if (named) { /* a scenario would be parsed, and refused, as rules */
            cli_error_code(CLI_E_FILE_KIND,
                           "'%s' is not a .hon rule file: hon fmt lays out rule files only", path);
            o->rc = 1;
            o->failed++;
            if (o->json)
                put_json_file(o, path, true, false, false, NULL, NULL);
        }
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        cli_error_code(CLI_E_READ, "cannot open directory '%s': %s", path, strerror(errno));
        o->rc = 1;
        o->failed++;
        if (o->json)
            put_json_file(o, path, true, false, false, NULL, NULL);
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **g = realloc(names, (cap = cap * 2 + 16) * sizeof *names);
            if (!g)
                break;
            names = g;
        }
        size_t l = strlen(path) + strlen(e->d_name) + 2;
        if ((names[n] = malloc(l)) != NULL)
            snprintf(names[n++], l, "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        fmt_path(s, names[i], o, false);
        free(names[i]);
    }
    free(names);
}

int cli_fmt(cli_session *s, const char *const *args, size_t n)
{
    fmt_opts o = { .json = s->json };
    size_t paths = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(args[i], "--check") == 0)
            o.check = true;
        else if (strcmp(args[i], "--diff") == 0)
            o.diff = true;
        else if (strcmp(args[i], "--json") == 0)
            o.json = true;
        else if (args[i][0] == '-' && args[i][1]) {
            fprintf(stderr,
                    "hon: fmt takes --check, --diff, --json and files or directories, not '%s'\n"
                    "Try 'hon --help' for more information.\n",
                    args[i]);
            return 2;
        } else
            paths++;
    }
    if (!paths) {
        fprintf(stderr, "hon: 'fmt' needs a file or directory\n"
                        "Try 'hon --help' for more information.\n");
        return 2;
    }
    if (o.json)
        printf("{\"files\": [");
    for (size_t i = 0; i < n; i++)
        if (strcmp(args[i], "-") == 0)
            fmt_stdin(s, &o);
        else if (args[i][0] != '-' || !args[i][1])
            fmt_path(s, args[i], &o, true);
    if (o.json)
        printf("], \"changed\": %zu, \"failed\": %zu}\n", o.changed, o.failed);
    cli_flush_stdout();
    if ((o.check || o.diff) && o.changed)
        return 1;
    return o.rc;
}
