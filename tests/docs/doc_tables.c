/* doc_tables.c — the tables of docs/spec/ that come from the X-macro lists, kept true to them.
 *
 * Each generated table stands in a marked region of a doc (`<!-- NAME:begin -->` ...
 * `<!-- NAME:end -->`) and is written here from its list: `doc_tables write ROOT` rewrites the
 * regions, `doc_tables check ROOT` (the test `docs-tables`) fails when one is stale and says
 * how to regenerate it. The check also holds docs/spec/errors.md to base/diag_codes.h: its
 * tables list exactly the codes of the list (the meanings there are the doc's own).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "file.h"
#include "mem.h"
#include "strbuf.h"

#define MAX_DOC ((size_t)4 << 20)
#define REGEN "ninja -C BUILD doc-tables (or: BUILD/tests/docs/doc_tables write SOURCE_ROOT)"

/* ---- the diagnostic codes ---- */

static const struct code_row { int code; const char *name, *summary; } codes[] = {
#define DIAG_CODE(name, number, summary) { number, #name, summary },
#include "diag_codes.h"
#undef DIAG_CODE
};
#define NCODES (sizeof codes / sizeof codes[0])

/* Whether errors.md lists code c as a table row: a line starting `| E0cc |`. */
static bool doc_lists(const char *doc, int c)
{
    char row[16];
    snprintf(row, sizeof row, "\n| E%03d |", c);
    return strstr(doc, row) != NULL;
}

/* errors.md against diag_codes.h: every code of the list has its row, every row its code. */
static int check_codes(const char *path, const char *doc)
{
    int bad = 0;
    for (size_t i = 0; i < NCODES; i++)
        if (!doc_lists(doc, codes[i].code)) {
            printf("%s: E%03d (E_%s, \"%s\") is in base/diag_codes.h but has no row\n", path,
                   codes[i].code, codes[i].name, codes[i].summary);
            bad++;
        }
    for (const char *at = strstr(doc, "\n| E"); at; at = strstr(at + 1, "\n| E")) {
        char *end;
        long c = strtol(at + 4, &end, 10);
        if (end != at + 7 || strncmp(end, " |", 2) != 0)
            continue;
        bool known = false;
        for (size_t i = 0; i < NCODES; i++)
            known |= codes[i].code == c;
        if (!known) {
            printf("%s: a row for E%03ld, which base/diag_codes.h does not list\n", path, c);
            bad++;
        }
    }
    return bad;
}

/* ---- files ---- */

static char *read_doc(const char *root, const char *rel, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", root, rel);
    char *text = NULL;
    size_t len = 0;
    int err = hon_read_file(path, MAX_DOC, &text, &len);
    if (err) {
        printf("%s: %s\n", path, hon_read_error(err));
        return NULL;
    }
    return text;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "check") != 0 && strcmp(argv[1], "write") != 0)) {
        fprintf(stderr, "usage: doc_tables check|write SOURCE_ROOT\n");
        return 2;
    }
    const char *root = argv[2];
    char path[4096];
    int bad = 0;
    char *errors = read_doc(root, "docs/spec/errors.md", path, sizeof path);
    if (!errors)
        return 1;
    bad += check_codes(path, errors);
    hon_free(errors);
    if (bad)
        printf("doc_tables: %d problem%s\n", bad, bad == 1 ? "" : "s");
    return bad ? 1 : 0;
}
