/* file.h — reading a whole file into memory, the one way hon reads its inputs.
 *
 * Rule files, scenario files and test fixtures are read through hon_read_file, so every input
 * gets the same refusals (directories, files over a size limit) and the same error texts.
 */
#ifndef HON_FILE_H
#define HON_FILE_H

#include <stddef.h>

/* Reads the file at `path` into a new NUL-terminated buffer (*text, owned by the caller, free
 * with hon_free; *len bytes, which may include NUL bytes). Refuses a directory (EISDIR) and a
 * file of more than max bytes (EFBIG). Returns 0, or an errno value with *text NULL: ENOMEM
 * when memory runs out, else why the file could not be read. */
int hon_read_file(const char *path, size_t max, char **text, size_t *len);

/* The text of an error of hon_read_file: strerror's, except "file too large" for EFBIG. */
const char *hon_read_error(int err);

#endif
