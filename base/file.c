/* file.c — the whole-file reader of file.h: stdio in 8 KiB pieces into a strbuf, with the size
 * limit checked before each piece is kept, so a huge file costs at most max bytes of memory.
 */
#include "file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "mem.h"
#include "strbuf.h"

int file_read(const char *path, size_t max, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno ? errno : EIO;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return EISDIR; /* fopen opens a directory; fread would then fail */
    }
    strbuf b = { 0 };
    char buf[8192];
    size_t n;
    int err = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (b.len + n > max) {
            err = EFBIG;
            break;
        }
        sb_putn(&b, buf, n);
    }
    if (!err && ferror(f))
        err = errno ? errno : EIO;
    fclose(f);
    if (!err && b.oom)
        err = ENOMEM;
    if (err) {
        sb_free(&b);
        return err;
    }
    *len = b.len;
    *text = sb_take(&b);
    return *text ? 0 : ENOMEM;
}

const char *file_error(int err)
{
    return err == EFBIG ? "file too large" : strerror(err);
}
