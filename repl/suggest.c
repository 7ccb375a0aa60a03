/* suggest.c — "did you mean" for the names the `hon` program looks up itself (cli.h): editions,
 * variants and readings, declarations to show, command words, files; and which command reads
 * a scenario or play script given to one that reads rules (cli_not_rules). The measure is the
 * library's (hon_nearest); the candidates come from hon_complete or the file system.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* The names collected for one search (owned copies). */
typedef struct name_list {
    char **items;
    size_t n, cap;
} name_list;

static void collect(void *ud, const char *name)
{
    name_list *l = ud;
    if (!name)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **items = realloc(l->items, cap * sizeof *items);
        if (!items)
            return;
        l->items = items;
        l->cap = cap;
    }
    if ((l->items[l->n] = strdup(name)) != NULL)
        l->n++;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_free(name_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
}

char *cli_suggest(cli_session *s, hon_complete_kind kind, const char *within, const char *want)
{
    name_list l = { 0 };
    hon_complete(s->vm, kind, within, NULL, collect, &l);
    const char *near = hon_nearest(want, (const char *const *)l.items, l.n);
    char *found = near ? strdup(near) : NULL;
    list_free(&l);
    return found;
}

const char *cli_did_you_mean(const char *want, const char *const *names, size_t n, char *buf,
                             size_t cap)
{
    if (n == SIZE_MAX)
        for (n = 0; names[n]; n++)
            ;
    const char *near = hon_nearest(want, names, n);
    if (!near || snprintf(buf, cap, " (did you mean `%s`?)", near) >= (int)cap)
        buf[0] = '\0';
    return buf;
}

const char *cli_near_file(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    char dir[1024];
    name_list l = { 0 };
    buf[0] = '\0';
    if (dl >= sizeof dir)
        return buf;
    memcpy(dir, path, dl);
    dir[dl] = '\0';
    DIR *d = opendir(dl ? dir : ".");
    if (!d)
        return buf;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            collect(&l, e->d_name);
    closedir(d);
    if (l.n) /* an empty directory: no list at all, and qsort takes no NULL */
        qsort(l.items, l.n, sizeof *l.items, by_text); /* readdir's order is no order: ties */
    const char *near = hon_nearest(path + dl, (const char *const *)l.items, l.n);
    if (near && snprintf(buf, cap, " (did you mean `%s%s`?)", dir, near) >= (int)cap)
        buf[0] = '\0';
    list_free(&l);
    return buf;
}

void cli_note_near_file(const cli_session *s, const char *path)
{
    struct stat st;
    char hint[1100];
    if (s->on_diag || stat(path, &st) == 0 || errno != ENOENT)
        return;
    if (cli_near_file(path, hint, sizeof hint)[0])
        cli_note("no file '%s'%s", path, hint);
}

bool cli_not_rules(const char *path, const char *what, bool scenarios_too)
{
    size_t n = strlen(path);
    bool scn = !scenarios_too && n > 4 && strcmp(path + n - 4, ".scn") == 0;
    if (!scn && !(n > 5 && strcmp(path + n - 5, ".play") == 0))
        return false;
    /* At the prompt (`what` a REPL command: neither `hon CMD` nor an option) the board is made
       by the command `board FILE`, on the command line by the option `--board FILE`. */
    bool prompt = strncmp(what, "hon ", 4) != 0 && what[0] != '-';
    cli_error_code(CLI_E_FILE_KIND, "'%s' is a %s, not a rule file: %s reads rule files%s (%s)",
                   path, scn ? "scenario" : "play script", what,
                   scenarios_too ? " and scenarios" : "",
                   !scn     ? "`hon play` runs a play script"
                   : prompt ? "`hon check` checks a scenario, `board FILE` makes it the board"
                            : "`hon check` checks a scenario, `--board FILE` makes it the board");
    return true;
}
