/* file.h — reading a whole file into memory, the one way hon reads its inputs, and writing a
 * file whole or not at all, the one way hon writes its outputs.
 *
 * Rule files, scenario files and test fixtures are read through file_read, so every input
 * gets the same refusals (directories, files over a size limit) and the same error texts;
 * pictures, snapshots and witnesses are written through file_write_whole (hon_write_file).
 */
#ifndef HON_FILE_H
#define HON_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* file_read's refusal of what is no regular file: a FIFO (which could block forever), a
 * device, a socket. Not an errno value. */
#define FILE_NOT_REGULAR (-1)

/* Reads the file at `path` into a new NUL-terminated buffer (*text, owned by the caller, free
 * with mem_free; *len bytes, which may include NUL bytes). Refuses a directory (EISDIR), what
 * is no regular file (FILE_NOT_REGULAR) and a file of more than max bytes (EFBIG). Returns 0, or an errno value with *text NULL: ENOMEM
 * when memory runs out, else why the file could not be read. */
int file_read(const char *path, size_t max, char **text, size_t *len);

/* As file_read, and when it returns 0 and st is not NULL, *st is the file's status as read
 * (fstat of the file opened: its size before the read, its times), so a caller that wants the
 * file's time needs no second look-up by path. */
int file_read_stat(const char *path, size_t max, char **text, size_t *len, struct stat *st);

/* The text of an error of file_read: strerror's, except "file too large" for EFBIG and "not a
 * regular file ..." for FILE_NOT_REGULAR. */
const char *file_error(int err);

/* Writes the file at `path` whole or not at all: write(f, ud) writes into a new scratch file
 * beside it ("PATH.XXXXXX", with a new file's usual mode), which is renamed over `path` only
 * when write returned 0 and every byte reached the file; otherwise the scratch file is removed
 * and `path` is as it was. A path that exists and is no regular file (/dev/stdout, /dev/full,
 * a FIFO) is written directly; a symbolic link is written through (the scratch file beside the
 * file it names, renamed over that file: the link stays). *status gets write's return (0 when it was not called). Returns
 * 0, or the errno value of the I/O failure (ENOMEM when the scratch name cannot be made). */
int file_write_whole(const char *path, int (*write)(FILE *f, void *ud), void *ud, int *status);

/* The same for a file hon owns (the parse cache's images and records): the scratch file is
 * always renamed over the entry `path` itself, whatever it is — a symbolic link is replaced, not
 * written through, and a FIFO or device is replaced, never opened (which could block or write
 * elsewhere). An entry that cannot be replaced (a directory) is left, the error returned. */
int file_replace_whole(const char *path, int (*write)(FILE *f, void *ud), void *ud, int *status);

#endif
