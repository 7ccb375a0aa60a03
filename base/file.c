/* file.c — the whole-file reader of file.h: read(2) into a buffer of the size fstat gives,
 * never more than max + 1 bytes, so a huge file costs at most that much memory;
 * and the whole-or-nothing writer: a scratch file renamed into place.
 */
/* realpath() and lstat() (a symbolic link is written through) are XSI: glibc declares them with
 * _XOPEN_SOURCE. */
#define _XOPEN_SOURCE 700
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem.h"

int file_read(const char *path, size_t max, char **text, size_t *len)
{
    return file_read_stat(path, max, text, len, NULL);
}

int file_read_stat(const char *path, size_t max, char **text, size_t *len, struct stat *st_out)
{
    *text = NULL;
    *len = 0;
    if (max > SIZE_MAX / 2)
        max = SIZE_MAX / 2; /* so that max + 1 and the room grown never overflow */
    /* Opened without blocking, so that a FIFO with no writer is refused, not waited on; on the
     * regular file that alone is read on, O_NONBLOCK changes nothing. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno ? errno : EIO;
    struct stat st;
    int err = fstat(fd, &st) != 0    ? (errno ? errno : EIO)
              : S_ISDIR(st.st_mode)  ? EISDIR
              : !S_ISREG(st.st_mode) ? FILE_NOT_REGULAR
                                     : 0;
    /* Room for the size fstat gives (capped at max + 1, so a huge file costs at most that),
     * grown if the file grew since; read with read(2) straight into it, where stdio took three
     * fcntl, a second fstat and 8 KiB copies. One read: a read that gives what fstat said,
     * asked for more, is at the end (bench.md §9: a second read to see it cost a system call
     * a file); a file whose size fstat does not give (/proc's, 0) or that grew is read on to
     * a read of nothing. */
    size_t cap = err ? 0 : (uint64_t)st.st_size < max ? (size_t)st.st_size + 1 : max + 1;
    size_t n = 0;
    char *buf = err ? NULL : mem_malloc(cap + 1);
    if (!err && !buf)
        err = ENOMEM;
    while (!err) {
        if (n == cap) {
            size_t more = cap < max + 1 - cap ? cap : max + 1 - cap;
            char *grown = more ? mem_realloc(buf, cap + more + 1) : NULL;
            if (!more) {
                err = EFBIG;
                break;
            }
            if (!grown) {
                err = ENOMEM;
                break;
            }
            buf = grown;
            cap += more;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            err = errno ? errno : EIO;
        else if (got == 0)
            break;
        else if ((n += (size_t)got) == (uint64_t)st.st_size && st.st_size > 0 && n < cap)
            break;
    }
    close(fd);
    if (!err && n > max)
        err = EFBIG;
    if (err) {
        mem_free(buf);
        return err;
    }
    buf[n] = '\0';
    *len = n;
    *text = buf;
    if (st_out)
        *st_out = st;
    return 0;
}

const char *file_error(int err)
{
    if (err == FILE_NOT_REGULAR)
        return "not a regular file (a FIFO, a device or a socket)";
    return err == EFBIG ? "file too large" : strerror(err);
}

static int write_whole(const char *path, int (*write)(FILE *f, void *ud), void *ud, int *status,
                       bool replace);

int file_write_whole(const char *path, int (*write)(FILE *f, void *ud), void *ud, int *status)
{
    *status = 0;
    /* a symbolic link is written through: the scratch file goes beside the file it names,
       renamed over that file, so the link stays a link (as `gofmt -w` and `clang-format -i`) */
    struct stat lst;
    char *real = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : NULL;
    if (real)
        path = real;
    int rc = write_whole(path, write, ud, status, false);
    free(real); /* realpath's, from the C library's allocator */
    return rc;
}

int file_replace_whole(const char *path, int (*write)(FILE *f, void *ud), void *ud, int *status)
{
    *status = 0;
    return write_whole(path, write, ud, status, true);
}

/* file_write_whole once a link is resolved (replace: file_replace_whole, never direct). */
static int write_whole(const char *path, int (*write)(FILE *f, void *ud), void *ud, int *status,
                       bool replace)
{
    struct stat st;
    bool direct = !replace && stat(path, &st) == 0 && !S_ISREG(st.st_mode);
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
