/* complete.c — the REPL's Tab completion (complete.h): what the word before the cursor can
 * become, by where it stands on the line, and how libedit is told.
 */
#include "complete.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* ---- completion -------------------------------------------------------------------------- */

/* The names that complete the word being typed. */
typedef struct names {
    const char *prefix;
    size_t len;   /* of prefix */
    char **items; /* owned copies */
    size_t n, cap;
} names;

static void add_name(names *c, const char *name)
{
    if (!name || strncmp(name, c->prefix, c->len) != 0)
        return;
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->items[i], name) == 0)
            return;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 32;
        char **items = realloc(c->items, cap * sizeof *items);
        if (!items)
            return;
        c->items = items;
        c->cap = cap;
    }
    if ((c->items[c->n] = strdup(name)) != NULL)
        c->n++;
}

/* hon_complete's callback. */
static void add_completion(void *ud, const char *name)
{
    add_name(ud, name);
}

/* Adds the names of `kind` (of variant `within`, for readings) that complete c's word. */
static void add_kind(names *c, cli_session *s, hon_complete_kind kind, const char *within)
{
    hon_complete(s->vm, kind, within, c->prefix, add_completion, c);
}

/* Adds the file names that complete c's word, a path as typed: the entries of its directory
 * that start with its last part (hidden ones only when that part starts with '.'), each
 * directory with a '/' after. */
static void add_files(names *c)
{
    const char *slash = strrchr(c->prefix, '/');
    size_t dl = slash ? (size_t)(slash - c->prefix) + 1 : 0;
    const char *base = c->prefix + dl;
    char dir[1024], full[2048];
    struct dirent *e;
    if (dl >= sizeof dir)
        return;
    memcpy(dir, c->prefix, dl);
    dir[dl] = '\0';
    DIR *d = opendir(dl ? dir : ".");
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            (e->d_name[0] == '.' && base[0] != '.') || strncmp(e->d_name, base, strlen(base)) != 0)
            continue;
        int n = snprintf(full, sizeof full, "%s%s", dir, e->d_name);
        if (n < 0 || (size_t)n + 2 > sizeof full)
            continue;
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
            strcat(full, "/");
        add_name(c, full);
    }
    closedir(d);
}

/* The line before the cursor, in words: the command (the first word, without a leading ':')
 * and the second word (each cut to cap bytes), and how many whole words come before the one
 * being typed (the result). */
static size_t words_before(const LineInfo *li, char *cmd, char *second, size_t cap)
{
    const char *p = li->buffer;
    size_t n = 0;
    cmd[0] = second[0] = '\0';
    while (p < li->cursor && (isspace((unsigned char)*p) || *p == ':'))
        p++;
    for (;;) {
        const char *w = p;
        while (p < li->cursor && !isspace((unsigned char)*p))
            p++;
        if (p == li->cursor)
            return n;
        if (n < 2)
            snprintf(n ? second : cmd, cap, "%.*s", (int)(p - w), w);
        n++;
        while (p < li->cursor && isspace((unsigned char)*p))
            p++;
    }
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds to c the candidates for the word before the cursor (its start in *start), by where it
 * stands: after `$` a unit, after `@` a square; the first word of a line, a command or what
 * starts an expression; an argument of a command, by its kind (commands[].args: file names
 * from the file system, places, editions, variants and readings, events, declarations);
 * elsewhere what an expression names: queries, fns, tables, built-in functions. c->prefix must
 * hold the word (buf, of cap bytes). False when the word is too long. */
static bool candidates(const LineInfo *li, cli_session *s, names *c, char *buf, size_t cap)
{
    char cmd[128], second[128]; /* words_before writes at most cap bytes into each */
    size_t n = words_before(li, cmd, second, sizeof second);
    arg_kind kind = n == 0 ? A_EXPR : repl_arg_of(cmd, second, n);
    bool files = kind == A_FILE;
    const char *start = li->cursor;
    while (start > li->buffer &&
           (files ? !isspace((unsigned char)start[-1])
                  : (isalnum((unsigned char)start[-1]) || start[-1] == '_' || start[-1] == '.')))
        start--;
    if ((size_t)(li->cursor - start) >= cap)
        return false;
    memcpy(buf, start, (size_t)(li->cursor - start));
    buf[li->cursor - start] = '\0';
    c->prefix = buf;
    c->len = strlen(buf);
    char before = start > li->buffer ? start[-1] : ' ';
    if (kind == A_VARIANT && before == '=') { /* variant NAME=READING */
        const char *eq = start - 1, *w = eq;
        while (w > li->buffer && !isspace((unsigned char)w[-1]))
            w--;
        snprintf(second, sizeof second, "%.*s", (int)(eq - w), w);
        kind = A_READING;
    }
    if (!files && before == '$') {
        add_kind(c, s, HON_COMPLETE_UNIT, NULL);
        return true;
    }
    if (!files && before == '@') {
        add_kind(c, s, HON_COMPLETE_SQUARE, NULL);
        return true;
    }
    switch (kind) {
    case A_FILE:
        add_files(c);
        qsort(c->items, c->n, sizeof *c->items, by_text); /* readdir's order is no order */
        break;
    case A_PLACE:
        add_kind(c, s, HON_COMPLETE_UNIT, NULL);
        add_kind(c, s, HON_COMPLETE_SQUARE, NULL);
        break;
    case A_EDITION: add_kind(c, s, HON_COMPLETE_EDITION, NULL); break;
    case A_VARIANT: add_kind(c, s, HON_COMPLETE_VARIANT, NULL); break;
    case A_READING: add_kind(c, s, HON_COMPLETE_READING, second); break;
    case A_EVENT: add_kind(c, s, HON_COMPLETE_EVENT, NULL); break;
    case A_HELP: repl_each_command(add_completion, c); break;
    case A_NONE: break;
    case A_UNSET:
    case A_NAME:
    case A_EXPR:
        if (kind == A_NAME)
            add_kind(c, s, HON_COMPLETE_RULE, NULL);
        if (n == 0)
            repl_each_command(add_completion, c);
        add_kind(c, s, HON_COMPLETE_QUERY, NULL);
        add_kind(c, s, HON_COMPLETE_FN, NULL);
        add_kind(c, s, HON_COMPLETE_TABLE, NULL);
        if (kind == A_EXPR)
            add_kind(c, s, HON_COMPLETE_BUILTIN, NULL);
        break;
    }
    return true;
}

/* Tab: completes the word before the cursor from the candidates of its place (candidates).
 * Several candidates: the common prefix is inserted, or the candidates are listed when there
 * is none to add. */
unsigned char repl_complete(EditLine *el, int ch)
{
    const LineInfo *li = el_line(el);
    cli_session *s = NULL;
    names c = { 0 };
    unsigned char rc = CC_ERROR;
    char buf[1024];

    (void)ch;
    if (el_get(el, EL_CLIENTDATA, &s) != 0 || !s || !candidates(li, s, &c, buf, sizeof buf))
        return CC_ERROR;
    if (c.n == 1) {
        el_insertstr(el, c.items[0] + c.len);
        rc = CC_REFRESH;
    } else if (c.n > 1) {
        size_t common = strlen(c.items[0]);
        for (size_t i = 1; i < c.n; i++) {
            size_t k = 0;
            while (k < common && c.items[i][k] == c.items[0][k])
                k++;
            common = k;
        }
        if (common > c.len) {
            char *ins = strndup(c.items[0] + c.len, common - c.len);
            if (ins)
                el_insertstr(el, ins);
            free(ins);
            rc = CC_REFRESH;
        } else {
            fputc('\n', stdout);
            for (size_t i = 0; i < c.n; i++)
                printf("%s%s", c.items[i], i + 1 < c.n ? "  " : "\n");
            fflush(stdout);
            rc = CC_REDISPLAY;
        }
    }
    for (size_t i = 0; i < c.n; i++)
        free(c.items[i]);
    free(c.items);
    return rc;
}
