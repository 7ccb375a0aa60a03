/* svgfile.c — the `hon` program's guard before it writes a picture (`svg OUT`, `reach UNIT OUT`;
 * docs/spec/repl.md): whether the file named may be written and replaced by an SVG, checked
 * before anything is printed or drawn, so that a mistyped name never costs a file that is no
 * picture. Only the file system is asked; nothing is written here.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Whether a picture can be written at `path` before anything is printed (`reach $u DIR` would
 * otherwise list every square, then fail): an existing file must be writable, a new one needs a
 * writable directory (the part of path before its last '/', else "."). Says why (errno's text)
 * and returns false otherwise. */
static bool writable_place(const char *path)
{
    if (access(path, F_OK) == 0) {
        if (access(path, W_OK) == 0)
            return true;
        cli_error_code(CLI_E_WRITE, "cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    if (errno != ENOENT) {
        cli_error_code(CLI_E_WRITE, "cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (access(dir, W_OK) != 0) {
        cli_error_code(CLI_E_WRITE, "cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    return true;
}

/* Whether the file at `path` may be replaced by a picture: it does not exist, it is no
 * regular file (a device such as /dev/stdout, written in place), it is empty, or it holds an
 * SVG already (after white space and a byte-order mark its text begins "<" and names "<svg"
 * within its first 4 KiB). Otherwise says why and returns false: a mistyped `$name` or a
 * rules file given as the picture's name is never overwritten. A directory, or a place it
 * cannot write (writable_place), is refused first. */
bool cli_may_replace_with_svg(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error_code(CLI_E_WRITE, "cannot write '%s': %s", path, strerror(EISDIR));
        return false;
    }
    if (!writable_place(path))
        return false;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
        return true;
    char head[4097];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0;
    if (f)
        fclose(f);
    head[n] = '\0';
    const char *t = head;
    if (strncmp(t, "\xef\xbb\xbf", 3) == 0)
        t += 3;
    while (*t == ' ' || *t == '\t' || *t == '\r' || *t == '\n')
        t++;
    if (t[0] == '<' && memchr(head, '\0', n) == NULL && strstr(t, "<svg"))
        return true;
    cli_error_code(CLI_E_WRITE, "refusing to replace '%s': it exists and is not an SVG picture",
                   path);
    return false;
}
