/* complete.c — the REPL's Tab completion (complete.h): what the word before the cursor can
 * become, by where it stands on the line, and how libedit is told; and the reading of a path
 * typed `~/...` as $HOME's, which file names complete to (repl_with_home).
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
    char quote; /* the quote ('"' or '\'') opening a path `load` or `board` reads, or 0 */
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

/* Adds to c the entries of the directory `open` (a path to open) that start with `base`
 * (hidden ones only when base starts with '.'), as the typed path `typed` + name (`typed` is
 * the typed path's directory part, "" or ending in '/'): each directory with a '/' after, a
 * file only when its name ends with `suffix` (NULL: any). A name holding white space is left
 * out unless `spaces` (the command reads its argument as the rest of the line). */
static void add_dir_entries(names *c, const char *open, const char *typed, const char *base,
                            const char *suffix, bool spaces)
{
    char full[3072];
    struct dirent *e;
    size_t on = strlen(open);
    DIR *d = on ? opendir(open) : NULL;
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        size_t len = strlen(e->d_name), sl = suffix ? strlen(suffix) : 0;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            (e->d_name[0] == '.' && base[0] != '.') ||
            strncmp(e->d_name, base, strlen(base)) != 0 || (!spaces && strpbrk(e->d_name, " \t")))
            continue;
        int n =
            snprintf(full, sizeof full, "%s%s%s", open, open[on - 1] == '/' ? "" : "/", e->d_name);
        if (n < 0 || (size_t)n + 2 > sizeof full)
            continue;
        bool is_dir = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
        if (!is_dir && suffix && (len < sl || strcmp(e->d_name + len - sl, suffix) != 0))
            continue;
        n = snprintf(full, sizeof full, "%s%s%s", typed, e->d_name, is_dir ? "/" : "");
        if (n > 0 && (size_t)n < sizeof full)
            add_name(c, full);
    }
    closedir(d);
}

/* Adds the file names that complete c's word, a path as typed, for an argument of `kind`
 * (A_FILE, A_RULES, A_SCENARIO, A_HON or A_PICTURE): the entries of its directory that start
 * with its last part, each directory with a '/' after, the files only of the kind's ending
 * (.hon, .scn, .svg; any for A_FILE). A path starting `~/` is looked up in $HOME, as a shell
 * does, and stays `~/...` on the line (the commands read it so: repl_with_home). For `load`
 * and `board` (A_RULES, A_SCENARIO), a relative path is also completed in the data directory
 * (hon_bundle_dir), where those commands look for a file that is not here (repl.md §1); they
 * read the rest of the line as the path, so names with spaces are offered to them only. */
static void add_files(names *c, arg_kind kind)
{
    const char *slash = strrchr(c->prefix, '/');
    size_t dl = slash ? (size_t)(slash - c->prefix) + 1 : 0;
    char dir[1024], open[2048];
    if (dl >= sizeof dir)
        return;
    memcpy(dir, c->prefix, dl);
    dir[dl] = '\0';
    const char *suffix = kind == A_RULES || kind == A_HON ? ".hon"
                         : kind == A_SCENARIO             ? ".scn"
                         : kind == A_PICTURE              ? ".svg"
                                                          : NULL;
    bool whole = kind == A_RULES || kind == A_SCENARIO;
    const char *home = getenv("HOME");
    int on;
    if (strncmp(dir, "~/", 2) == 0) {
        if (!home || !home[0])
            return;
        on = snprintf(open, sizeof open, "%s/%s", home, dir + 2);
    } else {
        on = snprintf(open, sizeof open, "%s", dir[0] ? dir : ".");
    }
    if (on > 0 && (size_t)on < sizeof open)
        add_dir_entries(c, open, dir, c->prefix + dl, suffix, whole);
    const char *data = hon_bundle_dir();
    if (whole && c->prefix[0] != '/' && c->prefix[0] != '~' && data && data[0]) {
        on = snprintf(open, sizeof open, "%s/%s", data, dir);
        if (on > 0 && (size_t)on < sizeof open)
            add_dir_entries(c, open, dir, c->prefix + dl, suffix, whole);
    }
}

/* The line before the cursor, in words: the command (the first word, without a leading ':'),
 * the second and the third word (each cut to cap bytes), and how many whole words come before
 * the one being typed (the result). */
static size_t words_before(const LineInfo *li, char *cmd, char *second, char *third, size_t cap)
{
    const char *p = li->buffer;
    size_t n = 0;
    cmd[0] = second[0] = third[0] = '\0';
    while (p < li->cursor && (isspace((unsigned char)*p) || *p == ':'))
        p++;
    for (;;) {
        const char *w = p;
        while (p < li->cursor && !isspace((unsigned char)*p))
            p++;
        if (p == li->cursor)
            return n;
        if (n < 3)
            snprintf(n == 0 ? cmd : n == 1 ? second : third, cap, "%.*s", (int)(p - w), w);
        n++;
        while (p < li->cursor && isspace((unsigned char)*p))
            p++;
    }
}

/* ---- completion inside an expression ------------------------------------------------- */

/* The start of the operand that ends at `end` in the line [buf, end), scanned backwards: a
 * name, `$unit`, `@C4` or a number, with its calls, indexes and record literals (balanced
 * `(...)`, `[...]`, `{...}`) and `.field`s. `end` itself when none ends there. */
static const char *operand_start(const char *buf, const char *end)
{
    const char *p = end;
    for (;;) {
        if (p > buf && (p[-1] == ')' || p[-1] == ']' || p[-1] == '}')) {
            char close = p[-1], open = close == ')' ? '(' : close == ']' ? '[' : '{';
            int depth = 0;
            const char *q = p;
            while (q > buf) {
                q--;
                if (*q == close)
                    depth++;
                else if (*q == open && --depth == 0)
                    break;
            }
            if (depth != 0)
                return p;
            p = q;
            continue;
        }
        const char *q = p;
        while (q > buf && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
            q--;
        if (q > buf && (q[-1] == '$' || q[-1] == '@'))
            q--;
        if (q == p)
            return p;
        p = q;
        if (p > buf && p[-1] == '.')
            p--;
        else
            return p;
    }
}

/* The type of the text [a, b) as hon_type_of gives it, in buf; false when it has none. */
static bool type_of_text(cli_session *s, const char *a, const char *b, hon_type_kind *kind,
                         char *buf, size_t cap)
{
    char text[512];
    if (a >= b || (size_t)(b - a) >= sizeof text)
        return false;
    memcpy(text, a, (size_t)(b - a));
    text[b - a] = '\0';
    return hon_type_of(s->vm, text, kind, buf, cap) == HON_OK;
}

/* Whether text is a bare name (letters, digits, '_'; not starting with a digit). */
static bool is_name(const char *text)
{
    if (!*text || isdigit((unsigned char)*text))
        return false;
    for (; *text; text++)
        if (!isalnum((unsigned char)*text) && *text != '_')
            return false;
    return true;
}

/* Adds to c the names after `.` in word [start, cursor) whose part before its last `.` is
 * the enum or the operand ending there: an enum's members (`terrain.`), a unit's values
 * (`$rifle1.`), a record's fields (`solitaire_air[clear].`, `numbered_order(2).`). c->prefix
 * becomes the part after the `.` (copied to buf, the word's). False when the word has no `.`. */
static bool after_dot(const LineInfo *li, cli_session *s, names *c, const char *start, char *buf)
{
    const char *dot = NULL;
    for (const char *p = start; p < li->cursor; p++)
        if (*p == '.')
            dot = p;
    if (!dot)
        return false;
    c->len = (size_t)(li->cursor - dot - 1);
    memmove(buf, dot + 1, c->len); /* buf holds the word: its part after the dot, ended */
    buf[c->len] = '\0';
    c->prefix = buf;
    const char *from = operand_start(li->buffer, dot);
    char base[512], type[128];
    hon_type_kind kind;
    if ((size_t)(dot - from) >= sizeof base)
        return true;
    memcpy(base, from, (size_t)(dot - from));
    base[dot - from] = '\0';
    if (hon_complete(s->vm, HON_COMPLETE_MEMBER, base, c->prefix, add_completion, c) == HON_OK)
        return true;
    if (type_of_text(s, from, dot, &kind, type, sizeof type) &&
        (kind == HON_T_UNIT || kind == HON_T_RECORD))
        hon_complete(s->vm, HON_COMPLETE_FIELD, type, c->prefix, add_completion, c);
    else if (is_name(base) && /* a local of what the line declares or binds: `m.` */
             cli_local_type(s->vm, li->buffer, (size_t)(dot - li->buffer), base, type, sizeof type))
        hon_complete(s->vm, HON_COMPLETE_FIELD, type, c->prefix, add_completion, c);
    return true;
}

/* Which queries and fns (and enum members) fit where the word stands. */
typedef struct fit {
    names *c;
    cli_session *s;
    const char *type; /* the type wanted, as hon_type_of names it */
} fit;

/* hon_complete's callback: a query or fn whose result is of the type wanted. */
static void add_fitting(void *ud, const char *name)
{
    fit *f = ud;
    hon_query_info qi;
    if (hon_query_info_of(f->s->vm, name, &qi) == HON_OK && qi.result_type &&
        strcmp(qi.result_type, f->type) == 0)
        add_name(f->c, name);
}

/* The word before `end` (after blanks), in w (cap bytes): an operator, a keyword or a bracket;
 * its start in *at. Empty when the line holds nothing before end. */
static void token_before(const char *buf, const char *end, char *w, size_t cap, const char **at)
{
    const char *p = end;
    while (p > buf && isspace((unsigned char)p[-1]))
        p--;
    const char *q = p;
    if (q > buf && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
        while (q > buf && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
            q--;
    else if (q > buf && q - 1 > buf && strchr("=!<>", q[-2]) && q[-1] == '=')
        q -= 2;
    else if (q > buf)
        q--;
    snprintf(w, cap, "%.*s", (int)(p - q), q);
    *at = q;
}

/* The type an expression wants at the word [start, cursor) from what stands before it, in
 * type (cap bytes): after `==`/`!=` the left operand's; after an arithmetic or ordering
 * operator int; after and, or, not bool; as an argument of a query or fn `name(..., ` the
 * parameter's. False when it is not known. */
static bool wanted_type(const LineInfo *li, cli_session *s, const char *start, char *type,
                        size_t cap)
{
    char tok[16];
    const char *at;
    hon_type_kind kind;
    token_before(li->buffer, start, tok, sizeof tok, &at);
    if (strcmp(tok, "==") == 0 || strcmp(tok, "!=") == 0) {
        const char *end = at;
        while (end > li->buffer && isspace((unsigned char)end[-1]))
            end--;
        const char *from = operand_start(li->buffer, end), *w = from;
        while (w > li->buffer && isspace((unsigned char)w[-1]))
            w--;
        if (w - li->buffer >= 7 && strncmp(w - 7, "variant", 7) == 0 &&
            (w - 7 == li->buffer || !isalnum((unsigned char)w[-8])))
            from = w - 7; /* `variant NAME`: the reading of a variant */
        return type_of_text(s, from, end, &kind, type, cap);
    }
    static const char *const ints[] = { "+", "-", "*", "/", "%", "<", ">", "<=", ">=" };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (strcmp(tok, ints[i]) == 0)
            return snprintf(type, cap, "int") > 0;
    if (strcmp(tok, "and") == 0 || strcmp(tok, "or") == 0 || strcmp(tok, "not") == 0)
        return snprintf(type, cap, "bool") > 0;
    if (strcmp(tok, "(") != 0 && strcmp(tok, ",") != 0)
        return false;
    /* an argument: count the commas back to the call's `(` at this depth */
    size_t arg = 0;
    int depth = 0;
    const char *p = start;
    while (p > li->buffer) {
        p--;
        if (*p == ')' || *p == ']')
            depth++;
        else if ((*p == '(' || *p == '[') && depth-- == 0)
            break;
        else if (*p == ',' && depth == 0)
            arg++;
    }
    if (*p != '(')
        return false;
    const char *name = p;
    while (name > li->buffer && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
        name--;
    char call[128];
    hon_query_info qi;
    if (name == p || (size_t)(p - name) >= sizeof call)
        return false;
    snprintf(call, sizeof call, "%.*s", (int)(p - name), name);
    if (hon_query_info_of(s->vm, call, &qi) != HON_OK || arg >= qi.nparams || arg >= 16)
        return false;
    return snprintf(type, cap, "%s", qi.param_types[arg]) > 0;
}

/* Adds the names an expression may hold at the word [start, cursor): when the type it wants
 * is known (wanted_type), the members of that enum and the queries and fns of that type, with
 * the tables and built-in functions (whose types are not looked at); otherwise every query,
 * fn, table and built-in function. */
static void add_expression(const LineInfo *li, cli_session *s, names *c, const char *start)
{
    char type[128];
    if (wanted_type(li, s, start, type, sizeof type)) {
        fit f = { c, s, type };
        hon_complete(s->vm, HON_COMPLETE_MEMBER, type, c->prefix, add_completion, c);
        hon_complete(s->vm, HON_COMPLETE_QUERY, NULL, c->prefix, add_fitting, &f);
        hon_complete(s->vm, HON_COMPLETE_FN, NULL, c->prefix, add_fitting, &f);
    } else {
        add_kind(c, s, HON_COMPLETE_QUERY, NULL);
        add_kind(c, s, HON_COMPLETE_FN, NULL);
    }
    add_kind(c, s, HON_COMPLETE_TABLE, NULL);
    add_kind(c, s, HON_COMPLETE_BUILTIN, NULL);
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
    char cmd[128], second[128], third[128]; /* words_before writes at most cap bytes into each */
    size_t n = words_before(li, cmd, second, third, sizeof second);
    bool why = strcmp(cmd, "why") == 0;
    if (why && n >= 2 && (strcmp(second, "not") == 0 || strcmp(second, "full") == 0)) {
        memcpy(second, third, sizeof second); /* `why not los`, `why full do`: as `why los` */
        n--;
    }
    arg_kind kind = n == 0                                     ? A_EXPR
                    : why && n >= 2 && !strcmp(second, "move") ? repl_arg_of("move", "", n - 1)
                                                               : repl_arg_of(cmd, second, n);
    /* `load` and `board` read the rest of the line as one path, spaces and all, between
       quotes or not (repl.md §2): their word is all that follows the command word. */
    arg_kind first = n >= 1 ? repl_arg_of(cmd, second, 1) : A_EXPR;
    bool whole = first == A_RULES || first == A_SCENARIO;
    if (whole)
        kind = first;
    bool files = kind == A_FILE || kind == A_RULES || kind == A_SCENARIO || kind == A_HON ||
                 kind == A_PICTURE;
    const char *start = li->cursor;
    if (whole) {
        start = li->buffer + strspn(li->buffer, " \t:");
        start += strcspn(start, " \t");
        start += strspn(start, " \t");
        if (start < li->cursor && (*start == '"' || *start == '\'')) {
            c->quote = *start;
            start++;
        }
    } else {
        while (start > li->buffer && (files ? !isspace((unsigned char)start[-1])
                                            : (isalnum((unsigned char)start[-1]) ||
                                               start[-1] == '_' || start[-1] == '.')))
            start--;
    }
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
    if (!files && kind != A_NAME && after_dot(li, s, c, start, buf))
        return true;
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
    case A_RULES:
    case A_SCENARIO:
    case A_HON:
    case A_PICTURE:
        add_files(c, kind);
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
    case A_NONE: /* the words of a setting */
        if (n == 1 && strcmp(cmd, "limit") == 0)
            for (const char *const *w =
                     (const char *const[]){ "steps", "depth", "list", "memory", NULL };
                 *w; w++)
                add_name(c, *w);
        if (n == 1 && strcmp(cmd, "json") == 0) {
            add_name(c, "on");
            add_name(c, "off");
        }
        break;
    case A_NAME:
        add_kind(c, s, HON_COMPLETE_RULE, NULL);
        add_kind(c, s, HON_COMPLETE_QUERY, NULL);
        add_kind(c, s, HON_COMPLETE_FN, NULL);
        add_kind(c, s, HON_COMPLETE_TABLE, NULL);
        break;
    case A_UNSET:
    case A_EXPR:
        /* command words only where a command may stand: the line's first word */
        if (n == 0 && start == li->buffer + strspn(li->buffer, " \t:"))
            repl_each_command(add_completion, c);
        add_expression(li, s, c, start);
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
        size_t k = strlen(c.items[0]);
        if (c.quote && k && c.items[0][k - 1] != '/') /* a file: the quote is closed */
            el_insertstr(el, c.quote == '"' ? "\"" : "'");
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
            cli_flush_stdout();
            rc = CC_REDISPLAY;
        }
    }
    for (size_t i = 0; i < c.n; i++)
        free(c.items[i]);
    free(c.items);
    return rc;
}

/* ---- paths as typed: `~/` ------------------------------------------------------------ */

/* Whether p, in args, starts a word `~/...`: at the start, after white space, or after a
 * quote that opens a word. */
static bool home_word(const char *args, const char *p)
{
    if (p[0] != '~' || p[1] != '/')
        return false;
    if (p > args && (p[-1] == '"' || p[-1] == '\''))
        p--;
    return p == args || isspace((unsigned char)p[-1]);
}

char *repl_with_home(const char *args)
{
    const char *home = getenv("HOME");
    size_t hl = home ? strlen(home) : 0, k = 0;
    if (!hl)
        return NULL;
    for (const char *p = args; *p; p++)
        if (home_word(args, p))
            k++;
    if (!k)
        return NULL;
    char *out = malloc(strlen(args) + k * hl + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = args; *p; p++) {
        if (home_word(args, p)) {
            memcpy(o, home, hl);
            o += hl;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}
