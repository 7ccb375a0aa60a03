/* file.c — the whole-file reader of file.h: stdio in 8 KiB pieces into a strbuf, with the size
 * limit checked before each piece is kept, so a huge file costs at most max bytes of memory;
 * and the whole-or-nothing writer: a scratch file renamed into place.
 */
/* realpath() and lstat() (a symbolic link is written through) are XSI: glibc declares them with
 * _XOPEN_SOURCE. */
#define _XOPEN_SOURCE 700
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

static int write_whole(const char *path, int (*write)(FILE *f, void *ud), void *ud, int *status);

int file_write_whole(const char *path, int (*write)(FILE *f, void *ud), void *ud, int *status)
{
    *status = 0;
    /* a symbolic link is written through: the scratch file goes beside the file it names,
       renamed over that file, so the link stays a link (as `gofmt -w` and `clang-format -i`) */
    struct stat lst;
    char *real = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : NULL;
    if (real)
        path = real;
    int rc = write_whole(path, write, ud, status);
    free(real); /* realpath's, from the C library's allocator */
    return rc;
}

/* file_write_whole once a link is resolved. */
static int write_whole(const char *path, int (*write)(FILE *f, void *ud), void *ud, int *status)
{
    struct stat st;
    bool direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    size_t n = strlen(path) + sizeof ".XXXXXX";
    char *tmp = direct ? NULL : mem_malloc(n);
    int fd = -1;
    if (tmp) {
        snprintf(tmp, n, "%s.XXXXXX", path);
        if ((fd = mkstemp(tmp)) >= 0) {
            mode_t mask = umask(0);
            umask(mask);
            (void)fchmod(fd, 0666 & ~mask);
        }
    }
    FILE *f = direct ? fopen(path, "w") : fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        int err = direct || tmp ? (errno ? errno : EIO) : ENOMEM;
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        mem_free(tmp);
        return err;
    }
    *status = write(f, ud);
    int err = 0;
    if (fflush(f) != 0 || ferror(f))
        err = errno ? errno : EIO;
    if (fclose(f) != 0 && !err)
        err = errno ? errno : EIO;
    if (*status == 0 && !err && tmp && rename(tmp, path) != 0)
        err = errno ? errno : EIO;
    if (tmp && (*status != 0 || err))
        unlink(tmp);
    mem_free(tmp);
    return err;
}
