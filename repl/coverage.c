/* coverage.c — `hon coverage` (repl.md §1): which citation IDs the loaded rules declare and
 * cite, and which the tests name, counted by book and section; with an inventory (a Markdown
 * file whose table rows start `| ID |`, as the project's rules inventory), the IDs it lists that
 * are not declared, not cited or not tested. Reads the program through hon.h alone
 * (hon_each_citation); test directories are read as text, as tests name IDs in their titles
 * and comments. Shares the exit-status and JSON conventions of cli.c.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* A test file larger than this is not read (tests name IDs in small text files). */
enum {
    MAX_TEST_FILE = 16 << 20,
    MAX_INVENTORY = 64 << 20, /* bytes of an inventory (the project's is some 35 KB) */
    MAX_DEPTH = 32
};

typedef struct id_row {
    char *id;
    size_t cites;   /* cites by rules (hon_citation.cites) */
    bool declared;  /* a `source` declares it */
    bool inventory; /* the inventory lists it */
    bool tested;    /* a test file names it */
} id_row;

typedef struct id_set {
    id_row *rows;
    size_t len, cap;
    bool sorted;
    bool oom;
} id_set;

static int by_id(const void *a, const void *b)
{
    return strcmp(((const id_row *)a)->id, ((const id_row *)b)->id);
}

static id_row *find(id_set *s, const char *id, size_t len)
{
    if (!s->sorted) {
        qsort(s->rows, s->len, sizeof *s->rows, by_id);
        s->sorted = true;
    }
    size_t lo = 0, hi = s->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strncmp(s->rows[mid].id, id, len);
        if (c == 0 && s->rows[mid].id[len] != '\0')
            c = 1;
        if (c == 0)
            return &s->rows[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The row of id, added when it is new. NULL when memory ran out (s->oom set). */
static id_row *add(id_set *s, const char *id, size_t len)
{
    id_row *r = s->len ? find(s, id, len) : NULL;
    if (r)
        return r;
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        id_row *rows = realloc(s->rows, cap * sizeof *rows);
        if (!rows) {
            s->oom = true;
            return NULL;
        }
        s->rows = rows;
        s->cap = cap;
    }
    r = &s->rows[s->len];
    memset(r, 0, sizeof *r);
    if (!(r->id = strndup(id, len))) {
        s->oom = true;
        return NULL;
    }
    s->len++;
    s->sorted = false;
    return r;
}

static void on_citation(void *ud, const hon_citation *c)
{
    id_row *r = add(ud, c->id, strlen(c->id));
    if (r) {
        r->declared = true;
        r->cites = c->cites;
    }
}

static bool id_char(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
}

/* Marks as tested every known ID that text names as a whole word (an ID followed by a '.' that
 * ends a sentence counts; one that goes on into a longer ID does not). */
static void scan_text(id_set *s, const char *text, size_t len)
{
    size_t i = 0;
    while (i < len) {
        if (!id_char((unsigned char)text[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && id_char((unsigned char)text[j]))
            j++;
        size_t end = j;
        while (end > i && (text[end - 1] == '.' || text[end - 1] == '-'))
            end--;
        id_row *r = end > i ? find(s, text + i, end - i) : NULL;
        if (r)
            r->tested = true;
        i = j;
    }
}

/* Reads the whole regular file at path (at most MAX_TEST_FILE bytes) and scans it. Returns
 * false after reporting an I/O error. */
static bool scan_file(id_set *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error_code(CLI_E_READ, "cannot read '%s': %s", path, strerror(errno));
        return false;
    }
    char *buf = malloc(MAX_TEST_FILE);
    size_t n = buf ? fread(buf, 1, MAX_TEST_FILE, f) : 0;
    bool ok = buf && !ferror(f);
    if (!buf)
        s->oom = true;
    else if (!ok)
        cli_error_code(CLI_E_READ, "cannot read '%s': %s", path, strerror(errno));
    else
        scan_text(s, buf, n);
    free(buf);
    fclose(f);
    return ok;
}

/* Scans every regular file under dir (depth-first, entries starting with '.' skipped). */
static bool scan_dir(id_set *s, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        cli_error_code(CLI_E_READ, "cannot read the directory '%s': %s", dir, strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while (ok && !s->oom && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(n);
        struct stat st;
        if (!path) {
            s->oom = true;
            break;
        }
        snprintf(path, n, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && depth < MAX_DEPTH)
            ok = scan_dir(s, path, depth + 1);
        else if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
            ok = scan_file(s, path);
        free(path);
    }
    closedir(d);
    return ok;
}

size_t cli_inventory_row(const char *line)
{
    if (strncmp(line, "| ", 2) != 0 || line[2] < 'A' || line[2] > 'Z')
        return 0;
    size_t n = 0;
    while (id_char((unsigned char)line[2 + n]))
        n++;
    return strncmp(line + 2 + n, " |", 2) == 0 && memchr(line + 2, '.', n) ? n : 0;
}

/* Adds the IDs of an inventory's table rows (cli_inventory_row). The file is read as every
 * file a user names (hon_read_file): a directory, a FIFO or a device (/dev/zero, which was
 * read forever) is refused with the reason. Returns false after reporting an I/O error or a
 * file with no such row. */
static bool read_inventory(id_set *s, const char *path)
{
    char *text;
    size_t len;
    const char *why;
    hon_status st = hon_read_file(path, MAX_INVENTORY, &text, &len, &why);
    if (st == HON_ERR_MEMORY) {
        cli_error_code(CLI_E_MEMORY, "out of memory reading '%s'", path);
        return false;
    }
    if (st != HON_OK) {
        cli_error_code(CLI_E_READ, "cannot read '%s': %s", path, why);
        return false;
    }
    size_t found = 0;
    for (const char *line = text; line < text + len;) {
        const char *nl = memchr(line, '\n', (size_t)(text + len - line));
        size_t n = cli_inventory_row(line); /* stops at the line's end: '\n' is no ID byte */
        if (n) {
            id_row *r = add(s, line + 2, n);
            if (r) {
                r->inventory = true;
                found++;
            }
        }
        line = nl ? nl + 1 : text + len;
    }
    hon_text_free(text);
    if (!found && !s->oom)
        cli_error_code(CLI_E_FILE_KIND, "'%s' has no inventory rows (`| ID | ...` lines)", path);
    return found;
}

/* The section of an ID: its first two parts when it has three or more (BRO.1, BRO.scn,
 * HH.transport), else its book (ERR). Returns its length in id. */
static size_t section_len(const char *id)
{
    const char *a = strchr(id, '.'), *b = a ? strchr(a + 1, '.') : NULL;
    return b ? (size_t)(b - id) : a ? (size_t)(a - id) : strlen(id);
}

typedef struct tally {
    size_t ids, declared, cited, tested;
} tally;

static void count(tally *t, const id_row *r)
{
    t->ids++;
    t->declared += r->declared;
    t->cited += r->cites > 0;
    t->tested += r->tested;
}

/* Compares a[0..na) with b[0..nb) as text, numbers by their value (2 before 10). */
static int natural_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (a[i] >= '0' && a[i] <= '9' && b[j] >= '0' && b[j] <= '9') {
            unsigned long x = 0, y = 0;
            while (i < na && a[i] >= '0' && a[i] <= '9' && x < 1000000)
                x = x * 10 + (unsigned long)(a[i++] - '0');
            while (j < nb && b[j] >= '0' && b[j] <= '9' && y < 1000000)
                y = y * 10 + (unsigned long)(b[j++] - '0');
            if (x != y)
                return x < y ? -1 : 1;
            continue;
        }
        if (a[i] != b[j])
            return (unsigned char)a[i] < (unsigned char)b[j] ? -1 : 1;
        i++;
        j++;
    }
    return (i < na) - (j < nb);
}

/* Orders by section (section_len), then by ID, numbers by their value (BRO.2 before BRO.10). */
static int by_section(const void *pa, const void *pb)
{
    const char *a = ((const id_row *)pa)->id, *b = ((const id_row *)pb)->id;
    int c = natural_cmp(a, section_len(a), b, section_len(b));
    return c ? c : natural_cmp(a, strlen(a), b, strlen(b));
}

/* Prints one line of counts: the label, then the columns inv and tests ask for. */
static void print_counts(const char *label, int len, const tally *t, bool inv, bool tests)
{
    printf("%-22.*s %5zu", len, label, t->ids);
    if (inv)
        printf(" %8zu", t->declared);
    printf(" %6zu", t->cited);
    if (tests)
        printf("  %6zu", t->tested);
    putchar('\n');
}

static void print_text(const id_set *s, bool inv, bool tests)
{
    tally total = { 0 };
    printf("%-22s %5s%s %6s%s\n", "section", "IDs", inv ? " declared" : "", "cited",
           tests ? "  tested" : "");
    for (size_t i = 0; i < s->len;) {
        size_t k = section_len(s->rows[i].id), j = i;
        tally t = { 0 };
        while (j < s->len && section_len(s->rows[j].id) == k &&
               strncmp(s->rows[j].id, s->rows[i].id, k) == 0)
            count(&t, &s->rows[j++]);
        print_counts(s->rows[i].id, (int)k, &t, inv, tests);
        for (size_t r = i; r < j; r++)
            count(&total, &s->rows[r]);
        i = j;
    }
    printf("total: %zu IDs", total.ids);
    if (inv)
        printf(", %zu declared", total.declared);
    printf(", %zu cited by rules", total.cited);
    if (tests)
        printf(", %zu tested", total.tested);
    putchar('\n');
    /* the lists: "not declared" only against an inventory (else every ID is a declared one) */
    static const char *const what[] = { "not declared", "not cited", "not tested" };
    for (int w = inv ? 0 : 1; w < (tests ? 3 : 2); w++) {
        bool any = false;
        for (size_t i = 0; i < s->len; i++) {
            const id_row *r = &s->rows[i];
            /* an ID no `source` declares cannot be cited (E170): not cited lists the others */
            bool miss = w == 0 ? !r->declared : w == 1 ? r->declared && !r->cites : !r->tested;
            if (!miss)
                continue;
            if (!any)
                printf("%s:", what[w]);
            printf(" %s", r->id);
            any = true;
        }
        if (any)
            putchar('\n');
    }
}

static void print_json(const id_set *s, bool inv, bool tests)
{
    printf("{\"ids\": [");
    for (size_t i = 0; i < s->len; i++) {
        const id_row *r = &s->rows[i];
        printf("%s{\"id\": \"%s\", \"declared\": %s, \"cites\": %zu", i ? ", " : "", r->id,
               r->declared ? "true" : "false", r->cites);
        if (inv)
            printf(", \"inventory\": %s", r->inventory ? "true" : "false");
        if (tests)
            printf(", \"tested\": %s", r->tested ? "true" : "false");
        putchar('}');
    }
    printf("]}\n");
}

int cli_coverage(cli_session *s, const char *inventory, const char *const *test_dirs, size_t n)
{
    id_set ids = { 0 };
    int rc = 0;
    if (inventory && !read_inventory(&ids, inventory))
        rc = 1;
    if (rc == 0 && hon_each_citation(s->vm, on_citation, &ids) == 0 && !ids.len) {
        cli_error_code(CLI_E_NOTHING, "the loaded rules declare no citation IDs");
        rc = 1;
    }
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (!scan_dir(&ids, test_dirs[i], 0))
            rc = 1;
    if (rc == 0 && ids.oom) {
        cli_error_code(CLI_E_MEMORY, "out of memory");
        rc = 1;
    }
    if (rc == 0 && inventory) {
        /* only the inventory's IDs: an ID the rules declare beyond it is not its business */
        size_t kept = 0;
        for (size_t i = 0; i < ids.len; i++) {
            if (ids.rows[i].inventory)
                ids.rows[kept++] = ids.rows[i];
            else
                free(ids.rows[i].id);
        }
        ids.len = kept;
    }
    if (rc == 0) {
        qsort(ids.rows, ids.len, sizeof *ids.rows, by_section);
        if (s->json)
            print_json(&ids, inventory != NULL, n > 0);
        else
            print_text(&ids, inventory != NULL, n > 0);
    }
    for (size_t i = 0; i < ids.len; i++)
        free(ids.rows[i].id);
    free(ids.rows);
    return rc;
}
