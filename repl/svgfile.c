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

/* The first directive hon_each_scenario_symbol finds: its line (0 for none). */
static void first_directive(void *ud, const hon_scn_symbol *sym)
{
    unsigned *line = ud;
    if (!*line)
        *line = sym->line;
}

/* Whether text[0..n) is a scenario file (board.md §4): its first line that is neither blank
 * nor a `#` comment is a directive (`scenario`, `size`, `unit`...). */
static bool is_scenario(const char *text, size_t n)
{
    unsigned line = 1, first = 0;
    for (size_t i = 0; i < n && !first;) {
        size_t j = i;
        while (j < n && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r'))
            j++;
        if (j < n && text[j] != '\n' && text[j] != '#')
            first = line;
        while (j < n && text[j] != '\n')
            j++;
        i = j + 1;
        line++;
    }
    unsigned directive = 0;
    hon_each_scenario_symbol(text, n, first_directive, &directive);
    return first && directive == first;
}

/* Whether text[0..n) (the start of a file, or all of it) holds what `kind` writes. */
static bool of_kind(const char *text, size_t n, cli_out_kind kind)
{
    if (memchr(text, '\0', n))
        return false; /* no text hon writes holds a NUL byte */
    const char *t = text;
    if (strncmp(t, "\xef\xbb\xbf", 3) == 0)
        t += 3;
    switch (kind) {
    case CLI_OUT_SVG:
        while (*t == ' ' || *t == '\t' || *t == '\r' || *t == '\n')
            t++;
        return t[0] == '<' && strstr(t, "<svg");
    case CLI_OUT_SNAPSHOT: return strncmp(t, "# hon snapshot ", 15) == 0;
    case CLI_OUT_SCENARIO: return is_scenario(text, n);
    }
    return false;
}

static const char *const kind_names[] = { "an SVG picture", "a scenario (.scn)",
                                          "a snapshot (`# hon snapshot` ...)" };

bool cli_may_replace(const char *path, cli_out_kind kind)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error_code(CLI_E_WRITE, "cannot write '%s': %s", path, strerror(EISDIR));
        return false;
    }
    if (!writable_place(path))
        return false;
    size_t len = strlen(path);
    bool rules = len >= 4 && strcmp(path + len - 4, ".hon") == 0; /* never a rule file */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_size == 0 && !rules))
        return true;
    /* an SVG or a snapshot is known by its first 4 KiB; a scenario read whole (bounded, as a
       board is read), as its first directive may follow a long comment */
    char head[4097] = "", *whole = NULL;
    size_t n = 0;
    if (!rules && kind == CLI_OUT_SCENARIO) {
        if (hon_read_file(path, (size_t)64 << 20, &whole, &n, NULL) != HON_OK)
            whole = NULL, n = 0;
    } else if (!rules) {
        FILE *f = fopen(path, "rb");
        n = f ? fread(head, 1, sizeof head - 1, f) : 0;
        if (f)
            fclose(f);
        head[n] = '\0';
    }
    bool ok =
        !rules && (whole || kind != CLI_OUT_SCENARIO) && of_kind(whole ? whole : head, n, kind);
    hon_text_free(whole);
    if (!ok)
        cli_error_code(CLI_E_WRITE, "refusing to replace '%s': it exists and is not %s", path,
                       kind_names[kind]);
    return ok;
}

bool cli_may_replace_with_svg(const char *path)
{
    return cli_may_replace(path, CLI_OUT_SVG);
}
