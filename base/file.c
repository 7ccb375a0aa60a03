/* file.c — the whole-file reader of file.h: stdio in 8 KiB pieces into a strbuf, with the size
 * limit checked before each piece is kept, so a huge file costs at most max bytes of memory.
 */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem.h"
#include "strbuf.h"

int file_read(const char *path, size_t max, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    /* Opened without blocking, so that a FIFO with no writer is refused, not waited on. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno ? errno : EIO;
    struct stat st;
    int refused = fstat(fd, &st) != 0    ? (errno ? errno : EIO)
                  : S_ISDIR(st.st_mode)  ? EISDIR
                  : !S_ISREG(st.st_mode) ? FILE_NOT_REGULAR
                                         : 0;
    int flags = refused ? 0 : fcntl(fd, F_GETFL);
    FILE *f = NULL;
    if (!refused &&
        (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 || !(f = fdopen(fd, "rb"))))
        refused = errno ? errno : EIO;
    if (refused) {
        close(fd);
        return refused;
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
    if (err == FILE_NOT_REGULAR)
        return "not a regular file (a FIFO, a device or a socket)";
    return err == EFBIG ? "file too large" : strerror(err);
}
