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
#define REGEN   "ninja -C BUILD doc-tables (or: BUILD/tests/docs/doc_tables write SOURCE_ROOT)"

/* ---- the diagnostic codes ---- */

static const struct code_row {
    int code;
    const char *name, *summary;
} codes[] = {
#define DIAG_CODE(name, number, summary) { number, #name, summary },
#include "diag_codes.h"
#undef DIAG_CODE
};
#define NCODES (sizeof codes / sizeof codes[0])

/* Whether errors.md lists code c as a table row: a line starting `| E0cc |`, or `| W00c |` for a
 * warning of hon lint (DIAG_LINT_BASE + c). */
static bool doc_lists(const char *doc, int c)
{
    char row[24], label[16];
    snprintf(row, sizeof row, "\n| %s |", diag_code_label(c, label, sizeof label));
    return strstr(doc, row) != NULL;
}

/* errors.md against diag_codes.h: every code of the list has its row, every row its code. */
static int check_codes(const char *path, const char *doc)
{
    int bad = 0;
    char label[16];
    for (size_t i = 0; i < NCODES; i++)
        if (!doc_lists(doc, codes[i].code)) {
            printf("%s: %s (E_%s, \"%s\") is in base/diag_codes.h but has no row\n", path,
                   diag_code_label(codes[i].code, label, sizeof label), codes[i].name,
                   codes[i].summary);
            bad++;
        }
    for (const char *at = strstr(doc, "\n| "); at; at = strstr(at + 1, "\n| ")) {
        char *end;
        if (at[3] != 'E' && at[3] != 'W')
            continue;
        long c = strtol(at + 4, &end, 10);
        if (end != at + 7 || strncmp(end, " |", 2) != 0)
            continue;
        c += at[3] == 'W' ? DIAG_LINT_BASE : 0;
        bool known = false;
        for (size_t i = 0; i < NCODES; i++)
            known |= codes[i].code == c;
        if (!known) {
            printf("%s: a row for %.4s, which base/diag_codes.h does not list\n", path, at + 3);
            bad++;
        }
    }
    return bad;
}

/* ---- the generated tables ---- */

/* language.md §3.5: the combination modes (dsl/combine_modes.h). */
static void gen_combine(strbuf *out)
{
    static const char *const need_text[] = {
#define COMBINE_NEED(need, doc) doc,
#include "combine_modes.h"
    };
    enum {
#define COMBINE_NEED(need, doc) NEED_##need,
#include "combine_modes.h"
    };
    sb_puts(out, "| mode | result type | answer of the query |\n|---|---|---|\n");
#define COMBINE(name, text, need, no_rule, doc) \
    sb_printf(out, "| `%s` | %s | %s |\n", text, need_text[NEED_##need], doc);
#include "combine_modes.h"
}

/* vm.md §11: the effects (interp/effects.h). */
static void gen_effects(strbuf *out)
{
    sb_puts(out, "| effect | operands | statement | what it does |\n|---|---|---|---|\n");
#define EFFECT(name, text, fewest, most, operands, statement, doc)                                 \
    sb_printf(out, "| `FX_%s` (%s) | %s | %s%s%s | %s |\n", #name, text,                           \
              *operands ? operands : "none", statement ? "`" : "", statement ? statement : "none", \
              statement ? "`" : "", doc);
#include "effects.h"
}

/* language.md §5.3: the built-in functions (dsl/builtins.h). */
static const char *const btype_text[] = {
#define BTYPE(code, text, own) text,
#include "builtins.h"
};
enum {
#define BTYPE(code, text, own) B_##code,
#include "builtins.h"
};

/* One row: `name(p: type, ...)` | `result` | board | doc. The second entry of a name (`has`:
 * its entries stand side by side, *last is the name of the row before) is not repeated. */
static void builtin_row(strbuf *out, const char **last, const char *name, const char *names,
                        const int *params, int result, bool board, const char *doc)
{
    if (*last && strcmp(*last, name) == 0)
        return;
    *last = name;
    sb_printf(out, "| `%s(", name);
    const char *at = names;
    for (int i = 0; i < 3 && params[i] != B_NONE; i++) {
        const char *end = strchr(at, ',');
        size_t len = end ? (size_t)(end - at) : strlen(at);
        sb_printf(out, "%s%.*s: %s", i ? ", " : "", (int)len, at, btype_text[params[i]]);
        at = end ? end + 2 : at + len;
    }
    sb_printf(out, ")` | `%s` | %s | %s |\n", btype_text[result], board ? "yes" : "", doc);
}

static void gen_builtins(strbuf *out)
{
    const char *last = NULL;
    sb_puts(out, "| call | result | board | what it gives |\n|---|---|---|---|\n");
#define ROW(name, p1, p2, p3, result, params, board, doc)                                      \
    builtin_row(out, &last, name, params, (const int[]){ B_##p1, B_##p2, B_##p3 }, B_##result, \
                board, doc);
#define BUILTIN_OP(id, name, opcode, p1, p2, p3, result, params, doc) \
    ROW(name, p1, p2, p3, result, params, false, doc)
#define BUILTIN_BOARD(id, name, body, p1, p2, p3, result, params, doc) \
    ROW(name, p1, p2, p3, result, params, true, doc)
#include "builtins.h"
#undef ROW
}

/* vm.md §3: the operand kinds and the instructions (interp/opcodes.h). */
static const char *const kind_names[] = {
    "",
#define OPERAND(kind, doc) #kind,
#include "opcodes.h"
};
enum {
    OPK__ = 0,
#define OPERAND(kind, doc) OPK_##kind,
#include "opcodes.h"
};

/* A kind's name as the docs write it: `unit_name`. */
static void put_kind(strbuf *out, int k)
{
    sb_putc(out, '`');
    for (const char *c = kind_names[k]; *c; c++)
        sb_putc(out, (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c));
    sb_putc(out, '`');
}

static void gen_operands(strbuf *out)
{
    sb_puts(out, "| kind | operand |\n|---|---|\n");
#define OPERAND(kind, doc)     \
    sb_puts(out, "| ");        \
    put_kind(out, OPK_##kind); \
    sb_printf(out, " | %s |\n", doc);
#include "opcodes.h"
}

/* One row: `NAME` | its operands' kinds | the stack effect (`1 - (int)(b)` written `1 - b`) |
 * doc. */
static void opcode_row(strbuf *out, const char *name, const char *effect, const int *kinds,
                       const char *doc)
{
    sb_printf(out, "| `%s` | ", name);
    for (int i = 0; i < 4 && kinds[i] != OPK__; i++) {
        sb_puts(out, i ? ", " : "");
        put_kind(out, kinds[i]);
    }
    sb_puts(out, " | ");
    for (const char *e = effect; *e; e++) {
        if (strncmp(e, "(int)(b)", 8) == 0) {
            sb_putc(out, 'b');
            e += 7;
        } else {
            sb_putc(out, *e);
        }
    }
    sb_printf(out, " | %s |\n", doc);
}

static void gen_opcodes(strbuf *out)
{
    sb_puts(out, "| opcode | operands | stack effect | semantics |\n|---|---|---|---|\n");
#define OP_GROUP(heading) sb_printf(out, "| *%s* | | | |\n", heading);
#define OP(name, effect, k1, k2, k3, k4, doc) \
    opcode_row(out, #name, #effect, (const int[]){ OPK_##k1, OPK_##k2, OPK_##k3, OPK_##k4 }, doc);
#include "opcodes.h"
}

/* A table of a doc, between `<!-- NAME:begin -->` and `<!-- NAME:end -->` lines. */
static const struct region {
    const char *doc, *name;
    void (*gen)(strbuf *out);
} regions[] = {
    { "docs/spec/language.md", "combine", gen_combine },
    { "docs/spec/language.md", "builtins", gen_builtins },
    { "docs/spec/vm.md", "operands", gen_operands },
    { "docs/spec/vm.md", "opcodes", gen_opcodes },
    { "docs/spec/vm.md", "effects", gen_effects },
};
#define NREGIONS (sizeof regions / sizeof regions[0])

/* ---- files ---- */

static char *read_doc(const char *root, const char *rel, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", root, rel);
    char *text = NULL;
    size_t len = 0;
    int err = file_read(path, MAX_DOC, &text, &len);
    if (err) {
        printf("%s: %s\n", path, file_error(err));
        return NULL;
    }
    return text;
}

/* Finds region r in text: the start of its table (after the begin line) and of its end line. */
static bool find_region(const struct region *r, const char *text, const char **from,
                        const char **to)
{
    char begin[64], end[64];
    snprintf(begin, sizeof begin, "<!-- %s:begin -->\n", r->name);
    snprintf(end, sizeof end, "<!-- %s:end -->", r->name);
    const char *b = strstr(text, begin);
    const char *e = b ? strstr(b, end) : NULL;
    if (!b || !e)
        return false;
    *from = b + strlen(begin);
    *to = e;
    return true;
}

/* The 1-based line of text at p. */
static int line_of(const char *text, const char *p)
{
    int n = 1;
    for (const char *q = text; q < p; q++)
        n += *q == '\n';
    return n;
}

/* Checks (or, when `write`, rewrites) the regions of one doc. Returns the problems found. */
static int do_doc(const char *root, const char *doc, bool write)
{
    char path[4096];
    char *text = read_doc(root, doc, path, sizeof path);
    if (!text)
        return 1;
    int bad = 0;
    strbuf out = { 0 };
    const char *done = text;
    for (size_t i = 0; i < NREGIONS; i++) {
        const struct region *r = &regions[i];
        const char *from, *to;
        if (strcmp(r->doc, doc) != 0)
            continue;
        if (!find_region(r, text, &from, &to)) {
            printf("%s: no region <!-- %s:begin --> ... <!-- %s:end --> for its table\n", path,
                   r->name, r->name);
            bad++;
            continue;
        }
        strbuf want = { 0 };
        r->gen(&want);
        size_t n = (size_t)(to - from);
        if (n != want.len || memcmp(from, sb_str(&want), n) != 0) {
            if (write) {
                printf("%s: the table of region `%s` rewritten\n", path, r->name);
            } else {
                size_t k = 0;
                while (k < n && k < want.len && from[k] == want.s[k])
                    k++;
                printf("%s:%d: the table of region `%s` is not what its list gives (first "
                       "difference on this line): regenerate it with %s\n",
                       path, line_of(text, from + k), r->name, REGEN);
                bad++;
            }
        }
        sb_putn(&out, done, (size_t)(from - done));
        sb_puts(&out, sb_str(&want));
        done = to;
        sb_free(&want);
    }
    sb_puts(&out, done);
    if (write && !bad && strcmp(sb_str(&out), text) != 0) {
        FILE *f = fopen(path, "w");
        if (!f || fputs(sb_str(&out), f) == EOF || fclose(f) != 0) {
            printf("%s: cannot write\n", path);
            bad++;
        }
    }
    sb_free(&out);
    mem_free(text);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "check") != 0 && strcmp(argv[1], "write") != 0)) {
        fprintf(stderr, "usage: doc_tables check|write SOURCE_ROOT\n");
        return 2;
    }
    const char *root = argv[2];
    bool write = strcmp(argv[1], "write") == 0;
    char path[4096];
    int bad = 0;
    for (size_t i = 0; i < NREGIONS; i++) {
        bool seen = false;
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(regions[j].doc, regions[i].doc) == 0;
        if (!seen)
            bad += do_doc(root, regions[i].doc, write);
    }
    char *errors = read_doc(root, "docs/spec/errors.md", path, sizeof path);
    if (!errors)
        return 1;
    bad += check_codes(path, errors);
    mem_free(errors);
    if (bad)
        printf("doc_tables: %d problem%s\n", bad, bad == 1 ? "" : "s");
    return bad ? 1 : 0;
}
