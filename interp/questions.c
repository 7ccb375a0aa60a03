/* questions.c — question sets (questions.h): building one from hon_question_set's options
 * (boards, the tests' expectations, question files, the queries and what keeps some from being
 * asked), the plans of a board's queries, iterating and asking the questions. The queries are
 * looked up by name in each session and asked through hon.h's calls; texts are compiled once
 * per session and run on its VM. Used by diff.c and snapshot.c; docs/spec/repl.md §5.
 */
#include "questions.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "eval.h"
#include "mem.h"
#include "vm.h"

/* Why a query is not asked (qs_stat.skip); qs_notes groups the queries by these. */
static const char SKIP_TYPE[] = "a parameter of a list, set or record type";
static const char SKIP_INT[] = "an int parameter (no int range is given)";
static const char SKIP_MANY[] = "more than 16 parameters";
static const char SKIP_UNNAMED[] = "not among the --query names"; /* not listed in the notes */

void qs_defaults(hon_question_set *q)
{
    *q = (hon_question_set){ .bundled_boards = true,
                             .tests = true,
                             .finite = true,
                             .cap = QS_CAP,
                             .int_lo = 0,
                             .int_hi = 6 };
}

void hon_question_defaults(hon_question_set *q)
{
    if (q)
        qs_defaults(q);
}

/* ---- domains ---- */

static bool board_kind(hon_type_kind k)
{
    return k == HON_T_UNIT || k == HON_T_SQUARE || k == HON_T_SIDE || k == HON_T_ELEMENT;
}

static void dom_free(qs_dom *d)
{
    for (size_t i = 0; i < d->n; i++)
        mem_free(d->names[i]);
    mem_free(d->names);
    mem_free(d->vals);
    mem_free(d->key);
    memset(d, 0, sizeof *d);
}

/* What filling a domain needs: the domain, and whether memory ran out. */
typedef struct dom_fill {
    qs_dom *d;
    bool oom;
} dom_fill;

static void dom_add(dom_fill *f, hon_value v, const char *name)
{
    qs_dom *d = f->d;
    if (f->oom || d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        hon_value *vals = f->oom ? NULL : mem_realloc(d->vals, cap * sizeof *vals);
        if (vals)
            d->vals = vals;
        char **names = vals ? mem_realloc(d->names, cap * sizeof *names) : NULL;
        if (names)
            d->names = names;
        if (!names) {
            f->oom = true;
            return;
        }
        d->cap = cap;
    }
    if (!(d->names[d->n] = mem_strdup(name))) {
        f->oom = true;
        return;
    }
    d->vals[d->n++] = v;
}

static void add_thing(void *ud, hon_value v, const char *name)
{
    dom_add(ud, v, name);
}

static void add_member(void *ud, int32_t index, const char *name)
{
    dom_add(ud, (hon_value){ HON_V_MEMBER, index }, name);
}

/* Fills domain d of type kind k named `type` (the current board's things, a finite type). */
static bool dom_fill_with(qs_set *s, qs_dom *d, hon_type_kind k, const char *type)
{
    static const hon_value_kind things[] = { [HON_T_UNIT] = HON_V_UNIT,
                                             [HON_T_SQUARE] = HON_V_SQUARE,
                                             [HON_T_SIDE] = HON_V_SIDE,
                                             [HON_T_ELEMENT] = HON_V_ELEMENT };
    dom_fill f = { d, false };
    char num[32];
    switch (k) {
    case HON_T_UNIT:
    case HON_T_SQUARE:
    case HON_T_SIDE:
    case HON_T_ELEMENT: hon_each_board_thing(s->vm[0], things[k], add_thing, &f); break;
    case HON_T_BOOL:
    case HON_T_VERDICT:
        for (int64_t b = 0; b < 2; b++)
            dom_add(&f, (hon_value){ k == HON_T_BOOL ? HON_V_BOOL : HON_V_VERDICT, b },
                    k == HON_T_BOOL ? (b ? "true" : "false") : (b ? "permit" : "forbid"));
        break;
    case HON_T_INT:
        for (int64_t i = s->o.int_lo; i <= s->o.int_hi && !f.oom; i++) {
            snprintf(num, sizeof num, "%lld", (long long)i);
            dom_add(&f, (hon_value){ HON_V_INT, i }, num);
            if (i == INT64_MAX)
                break;
        }
        break;
    case HON_T_ENUM: hon_each_member(s->vm[0], type, add_member, &f); break;
    default: break;
    }
    return !f.oom;
}

/* The index of the domain of a parameter of kind k and type name `type` on the current board
 * (made on first use); UINT32_MAX on OOM. */
static uint32_t dom_of(qs_set *s, hon_type_kind k, const char *type)
{
    char key[160];
    snprintf(key, sizeof key, "%s%s", board_kind(k) ? "#" : "", type);
    for (size_t i = 0; i < s->ndoms; i++)
        if (strcmp(s->doms[i].key, key) == 0)
            return (uint32_t)i;
    if (!MEM_GROW(s->doms, s->ndoms, s->doms_cap))
        return UINT32_MAX;
    qs_dom *d = &s->doms[s->ndoms];
    *d = (qs_dom){ .key = mem_strdup(key) };
    if (!d->key || !dom_fill_with(s, d, k, type)) {
        dom_free(d);
        return UINT32_MAX;
    }
    return (uint32_t)s->ndoms++;
}

/* ---- the queries ---- */

/* What collecting the queries' names needs. */
typedef struct names {
    char **v;
    size_t n, cap;
    bool oom;
} names;

static void add_name(void *ud, const char *name)
{
    names *ns = ud;
    char *c = MEM_GROW(ns->v, ns->n, ns->cap) ? mem_strdup(name) : NULL;
    if (c)
        ns->v[ns->n++] = c;
    else
        ns->oom = true;
}

/* Describes query `name` into st: its parameters, its handles, what keeps it from being asked. */
static bool stat_make(qs_set *s, qs_stat *st, char *name)
{
    hon_query_info info;
    *st = (qs_stat){ .query = name };
    if (hon_query_info_of(s->vm[0], name, &info) != HON_OK)
        return true;
    st->nparams = info.nparams;
    st->text = !(info.result_kind <= HON_T_ENUM);
    if (info.nparams > 16)
        st->skip = SKIP_MANY;
    for (size_t i = 0; i < info.nparams && i < 16; i++) {
        hon_type_kind k = info.param_kinds[i];
        st->kinds[i] = k;
        if (!(st->types[i] = mem_strdup(info.param_types[i])))
            return false;
        st->board |= board_kind(k);
        if (!st->skip && k > HON_T_ENUM)
            st->skip = SKIP_TYPE;
    }
    for (size_t i = 0; !st->skip && i < info.nparams; i++)
        if (st->kinds[i] == HON_T_INT && s->o.int_lo > s->o.int_hi)
            st->skip = SKIP_INT;
    bool named = !s->o.nqueries;
    for (size_t i = 0; i < s->o.nqueries; i++)
        named |= s->o.queries[i] && strcmp(s->o.queries[i], name) == 0;
    if (!named)
        st->skip = SKIP_UNNAMED;
    for (size_t v = 0; v < s->nvms; v++) /* NULL: that session has no such query */
        st->h[v] = hon_lookup_query(s->vm[v], name);
    return st->h[0] != NULL;
}

/* The queries of vm[0], in declaration order. */
static hon_status stats_build(qs_set *s)
{
    names ns = { 0 };
    hon_complete(s->vm[0], HON_COMPLETE_QUERY, NULL, "", add_name, &ns);
    s->stats = mem_calloc(ns.n ? ns.n : 1, sizeof *s->stats);
    hon_status st = s->stats && !ns.oom ? HON_OK : HON_ERR_MEMORY;
    size_t i = 0;
    for (; st == HON_OK && i < ns.n; i++) {
        s->nstats = i + 1; /* the stat owns its name from here */
        if (!stat_make(s, &s->stats[i], ns.v[i]))
            st = HON_ERR_MEMORY;
    }
    for (; i < ns.n; i++)
        mem_free(ns.v[i]);
    mem_free(ns.v);
    return st;
}

static void stat_free(qs_stat *st)
{
    mem_free(st->query);
    for (size_t i = 0; i < 16; i++)
        mem_free(st->types[i]);
    for (size_t v = 0; v < QS_VMS; v++)
        hon_query_handle_free(st->h[v]);
}

/* The stat of the query a text calls (`name(...)` at its start), or UINT32_MAX. */
static uint32_t stat_of_text(const qs_set *s, const char *text)
{
    size_t n = 0;
    while (isalnum((unsigned char)text[n]) || text[n] == '_')
        n++;
    size_t k = n;
    while (text[k] == ' ')
        k++;
    if (!n || text[k] != '(')
        return UINT32_MAX;
    for (size_t i = 0; i < s->nstats; i++)
        if (strlen(s->stats[i].query) == n && strncmp(s->stats[i].query, text, n) == 0)
            return (uint32_t)i;
    return UINT32_MAX;
}

const char *qs_query_name(const qs_set *s, uint32_t k)
{
    return k < s->nstats ? s->stats[k].query : "(expression)";
}

/* ---- boards and texts ---- */

/* The index of the board with that path (NULL: no board), added (labelled `label`) when the
 * set has none; `enumerate` is or'ed in. SIZE_MAX on OOM. */
static size_t board_add(qs_set *s, const char *label, const char *path, bool enumerate)
{
    for (size_t i = 0; i < s->nboards; i++) {
        qs_board *b = &s->boards[i];
        if ((!path && !b->path) || (path && b->path && strcmp(path, b->path) == 0)) {
            b->enumerate |= enumerate;
            return i;
        }
    }
    if (!MEM_GROW(s->boards, s->nboards, s->boards_cap))
        return SIZE_MAX;
    qs_board *b = &s->boards[s->nboards];
    *b = (qs_board){ .enumerate = enumerate };
    if (path && (!(b->label = mem_strdup(label)) || !(b->path = mem_strdup(path)))) {
        mem_free(b->label);
        return SIZE_MAX;
    }
    return s->nboards++;
}

size_t qs_board_text(qs_set *s, size_t b, const char *label, const char *text, size_t len)
{
    if (b == SIZE_MAX) {
        if (!MEM_GROW(s->boards, s->nboards, s->boards_cap))
            return SIZE_MAX;
        b = s->nboards;
        s->boards[b] = (qs_board){ .enumerate = true };
        if (!(s->boards[b].label = mem_strdup(label)) || !(s->boards[b].path = mem_strdup(label))) {
            mem_free(s->boards[b].label);
            return SIZE_MAX;
        }
        s->nboards++;
    }
    char *copy = mem_strndup(text, len);
    if (!copy)
        return SIZE_MAX;
    mem_free(s->boards[b].text);
    s->boards[b].text = copy;
    s->boards[b].len = len;
    return b;
}

/* Checks that board b loads (in vm[0]); its diagnostics are reported when it does not. */
static hon_status board_check(qs_set *s, size_t b)
{
    const char *path = s->boards[b].path;
    return path ? hon_load_board(s->vm[0], path) : HON_OK;
}

static void text_free(qs_text *t)
{
    mem_free(t->text);
    mem_free(t->origin);
    for (size_t v = 0; v < QS_VMS; v++) {
        chunk_free(t->ch[v]);
        ast_file_free(t->file[v]);
    }
}

/* What a text is compiled from: the code (a question file's whole line, so that columns are
 * the file's) and where it stands (the file's source id in each session and the line), or
 * id[0] UINT32_MAX for a text registered under its origin. */
typedef struct text_src {
    const char *code;
    size_t len;
    uint32_t id[QS_VMS];
    uint32_t line;
    bool quiet; /* no diagnostics (a test's expectation compiled again) */
} text_src;

/* Compiles t in every session from src; false when it does not compile in vm[0] (reported
 * unless quiet; a later session's errors are never reported: it keeps no chunk). *st gets
 * HON_ERR_MEMORY when memory ran out. */
static bool text_compile(qs_set *s, qs_text *t, const text_src *src, hon_status *st)
{
    for (size_t v = 0; v < s->nvms; v++) {
        hon_vm *vm = s->vm[v];
        bool quiet = src->quiet || v > 0;
        uint32_t id = src->id[0] == UINT32_MAX
                          ? diag_sources_add(&vm->sources, t->origin, src->code, src->len)
                          : src->id[v];
        hon_status cs = id == UINT32_MAX
                            ? HON_ERR_MEMORY
                            : session_compile_at(vm, src->code, src->len, id, src->line, false,
                                                 quiet, &t->ch[v], &t->file[v], &t->type[v]);
        if (cs == HON_ERR_MEMORY)
            *st = cs;
        if (cs != HON_OK) {
            chunk_free(t->ch[v]);
            t->ch[v] = NULL;
            if (v == 0)
                return false;
        }
    }
    return true;
}

/* Adds question `text` (origin: where it was written) to board b, compiled from src, unless
 * the board has it already. HON_OK; HON_ERR_COMPILE when it does not compile (reported unless
 * src->quiet); HON_ERR_MEMORY. */
static hon_status text_add(qs_set *s, size_t b, const char *text, const char *origin,
                           const text_src *src)
{
    qs_board *bd = &s->boards[b];
    for (size_t i = 0; i < bd->ntexts; i++)
        if (strcmp(bd->texts[i].text, text) == 0)
            return HON_OK;
    if (!MEM_GROW(bd->texts, bd->ntexts, bd->texts_cap))
        return HON_ERR_MEMORY;
    qs_text *t = &bd->texts[bd->ntexts];
    *t = (qs_text){ .text = mem_strdup(text), .origin = mem_strdup(origin) };
    hon_status st = t->text && t->origin ? HON_OK : HON_ERR_MEMORY;
    if (st == HON_OK && !text_compile(s, t, src, &st) && st == HON_OK)
        st = HON_ERR_COMPILE;
    if (st != HON_OK) {
        text_free(t);
        return st;
    }
    t->stat = stat_of_text(s, text);
    bd->ntexts++;
    return HON_OK;
}

/* ---- the tests' expectations ---- */

typedef struct expect_ctx {
    qs_set *s;
    hon_status st;
} expect_ctx;

static void add_expectation(void *ud, const hon_expectation *e)
{
    expect_ctx *c = ud;
    qs_set *s = c->s;
    if (c->st != HON_OK)
        return;
    if (e->plays) {
        s->skipped_plays++;
        return;
    }
    uint32_t k = stat_of_text(s, e->question);
    if (s->o.nqueries && (k == UINT32_MAX || s->stats[k].skip == SKIP_UNNAMED))
        return; /* not a question of the --query names */
    size_t b = board_add(s, e->board, e->board, false);
    char origin[512];
    snprintf(origin, sizeof origin, "%s:%u:%u", e->path, e->line, e->col);
    text_src src = { e->question, strlen(e->question), { UINT32_MAX, UINT32_MAX }, 1, true };
    hon_status st = b == SIZE_MAX ? HON_ERR_MEMORY : text_add(s, b, e->question, origin, &src);
    if (st == HON_ERR_MEMORY)
        c->st = st;
    else if (st != HON_OK)
        s->skipped_alone++;
}

/* ---- question files ---- */

/* The span of `len` bytes at column col of line `line` of source id. */
static ast_loc span(uint32_t id, uint32_t line, size_t col, size_t len)
{
    uint32_t c = (uint32_t)col;
    return (ast_loc){ id, line, c, line, c + (len ? (uint32_t)len - 1 : 0) };
}

/* The path of the n bytes of `name` (a question file's `board` line) relative to the file at
 * `path`: a new string, NULL on OOM. */
static char *relative_to(const char *path, const char *name, size_t n)
{
    const char *slash = strrchr(path, '/');
    size_t dir = name[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
    char *full = mem_malloc(dir + n + 1);
    if (full) {
        memcpy(full, path, dir);
        memcpy(full + dir, name, n);
        full[dir + n] = '\0';
    }
    return full;
}

/* The end of a question file line's content: its `#` comment cut (outside strings), trailing
 * blanks dropped. */
static size_t content_end(const char *line, size_t len)
{
    bool str = false;
    size_t end = len;
    for (size_t i = 0; i < len && end == len; i++) {
        if (line[i] == '"')
            str = !str;
        else if (line[i] == '#' && !str)
            end = i;
    }
    while (end && isspace((unsigned char)line[end - 1]))
        end--;
    return end;
}

/* A `board FILE` line (l, FILE the n bytes at `arg`): the board the next questions are asked
 * on, *current. Reported (E405, E406) when there is no FILE or it does not load. */
static hon_status board_line(qs_set *s, const char *path, uint32_t id, uint32_t line, const char *l,
                             size_t arg, size_t n, size_t *current)
{
    if (!n) {
        session_report_at(s->vm[0], E_QUESTION_LINE, span(id, line, arg - 4, 5),
                          "a `board` line names a scenario file: board FILE");
        return HON_ERR_COMPILE;
    }
    char *full = relative_to(path, l + arg, n);
    size_t b = full ? board_add(s, full, full, false) : SIZE_MAX;
    mem_free(full);
    if (b == SIZE_MAX)
        return HON_ERR_MEMORY;
    hon_status st = board_check(s, b);
    if (st == HON_ERR_MEMORY)
        return st;
    if (st != HON_OK) {
        session_report_at(s->vm[0], E_QUESTION_BOARD, span(id, line, arg + 1, n),
                          "the board '%.*s' does not load", (int)n, l + arg);
        return HON_ERR_COMPILE;
    }
    *current = b;
    return HON_OK;
}

/* One line of question file `path` (l, n bytes; its number `line`, src its source ids):
 * nothing, a `board` line, or a question added to board *current. */
static hon_status question_line(qs_set *s, const char *path, text_src *src, uint32_t line,
                                const char *l, size_t n, size_t *current)
{
    size_t end = content_end(l, n), b = 0;
    while (b < end && isspace((unsigned char)l[b]))
        b++;
    if (b == end)
        return HON_OK;
    if (end - b >= 5 && strncmp(l + b, "board", 5) == 0 &&
        (end - b == 5 || isspace((unsigned char)l[b + 5]))) {
        size_t arg = b + 5;
        while (arg < end && isspace((unsigned char)l[arg]))
            arg++;
        return board_line(s, path, src->id[0], line, l, arg, end - arg, current);
    }
    char origin[512], *q = mem_strndup(l + b, end - b);
    snprintf(origin, sizeof origin, "%s:%u:%zu", path, line, b + 1);
    src->code = l;
    src->len = end;
    src->line = line;
    hon_status st = q ? text_add(s, *current, q, origin, src) : HON_ERR_MEMORY;
    mem_free(q);
    return st;
}

/* Reads the question file `path` into the set: its questions, compiled, on their boards.
 * Every line's errors are reported before it gives up (HON_ERR_COMPILE). */
static hon_status read_questions(qs_set *s, const char *path)
{
    char *text;
    size_t len;
    hon_status st = session_read_file(s->vm[0], path, E_QUESTION_READ, &text, &len);
    if (st != HON_OK)
        return st;
    text_src src = { .id = { UINT32_MAX, UINT32_MAX } };
    for (size_t v = 0; v < s->nvms; v++)
        if ((src.id[v] = diag_sources_add(&s->vm[v]->sources, path, text, len)) == UINT32_MAX)
            st = HON_ERR_MEMORY;
    size_t current = 0, bad = 0;
    uint32_t line = 1;
    for (size_t at = 0; st == HON_OK && at < len; line++) {
        size_t n = strcspn(text + at, "\n");
        hon_status ls = question_line(s, path, &src, line, text + at, n, &current);
        at += n + 1;
        if (ls == HON_ERR_MEMORY)
            st = ls;
        else if (ls != HON_OK)
            bad++;
    }
    mem_free(text);
    return st == HON_OK && bad ? HON_ERR_COMPILE : st;
}

/* ---- building ---- */

typedef struct bundled_ctx {
    qs_set *s;
    bool oom;
} bundled_ctx;

static void add_bundled(void *ud, const char *path)
{
    bundled_ctx *c = ud;
    const char *name = strrchr(path, '/');
    char label[512];
    snprintf(label, sizeof label, "examples/boards/%s", name ? name + 1 : path);
    if (board_add(c->s, label, path, true) == SIZE_MAX)
        c->oom = true;
}

hon_status qs_build(qs_set *s, hon_vm *const *vms, size_t n, const hon_question_set *o)
{
    *s = (qs_set){ .nvms = n > QS_VMS ? QS_VMS : n, .board = SIZE_MAX };
    qs_defaults(&s->o);
    if (o)
        s->o = *o;
    if (!s->o.cap)
        s->o.cap = QS_CAP;
    for (size_t v = 0; v < s->nvms; v++) {
        s->vm[v] = vms[v];
        if (!(s->buf[v] = mem_malloc(QS_TEXT_CAP)))
            return HON_ERR_MEMORY;
    }
    hon_status st = s->nvms ? stats_build(s) : HON_ERR_NOT_FOUND;
    if (st == HON_OK && !(s->written = mem_calloc(s->nstats + 1, sizeof *s->written)))
        st = HON_ERR_MEMORY;
    if (st == HON_OK && board_add(s, NULL, NULL, false) == SIZE_MAX) /* 0: no board */
        st = HON_ERR_MEMORY;
    bundled_ctx bc = { s, false };
    if (st == HON_OK && s->o.bundled_boards)
        hon_each_bundled_board(add_bundled, &bc);
    for (size_t i = 0; st == HON_OK && i < s->o.nboards; i++)
        if (board_add(s, s->o.boards[i], s->o.boards[i], true) == SIZE_MAX)
            bc.oom = true;
    if (bc.oom)
        st = HON_ERR_MEMORY;
    /* every board given is checked before anything is asked: all their errors at once */
    size_t bad = 0;
    for (size_t b = 1; st == HON_OK && b < s->nboards; b++) {
        hon_status bs = board_check(s, b);
        if (bs == HON_ERR_MEMORY)
            st = bs;
        bad += bs != HON_OK;
    }
    for (size_t i = 0; st == HON_OK && i < s->o.nfiles; i++) {
        hon_status fs = read_questions(s, s->o.files[i]);
        if (fs == HON_ERR_MEMORY)
            st = fs;
        bad += fs != HON_OK;
    }
    expect_ctx ec = { s, HON_OK };
    if (st == HON_OK && !bad && s->o.tests)
        hon_each_expectation(s->vm[0], add_expectation, &ec);
    if (ec.st != HON_OK)
        st = ec.st;
    hon_drop_board(s->vm[0]);
    return st == HON_OK && bad ? HON_ERR_COMPILE : st;
}

void qs_free(qs_set *s)
{
    for (size_t i = 0; i < s->nstats; i++)
        stat_free(&s->stats[i]);
    mem_free(s->stats);
    for (size_t b = 0; b < s->nboards; b++) {
        for (size_t i = 0; i < s->boards[b].ntexts; i++)
            text_free(&s->boards[b].texts[i]);
        mem_free(s->boards[b].texts);
        mem_free(s->boards[b].label);
        mem_free(s->boards[b].path);
        mem_free(s->boards[b].text);
    }
    mem_free(s->boards);
    for (size_t i = 0; i < s->ndoms; i++)
        dom_free(&s->doms[i]);
    mem_free(s->doms);
    mem_free(s->plans);
    mem_free(s->written);
    sb_free(&s->capped);
    for (size_t v = 0; v < QS_VMS; v++)
        mem_free(s->buf[v]);
    memset(s, 0, sizeof *s);
}

/* ---- a board's plans ---- */

/* The plan of query stat k on the current board, unless it is asked elsewhere or not at all.
 * False on OOM. */
static bool plan_add(qs_set *s, uint32_t k)
{
    const qs_stat *st = &s->stats[k];
    const qs_board *bd = &s->boards[s->board];
    bool want = bd->path ? bd->enumerate && st->board : s->o.finite && !st->board;
    if (!want || st->skip)
        return true;
    qs_plan pl = { .stat = k, .total = 1 };
    for (size_t i = 0; i < st->nparams; i++) {
        if ((pl.dom[i] = dom_of(s, st->kinds[i], st->types[i])) == UINT32_MAX)
            return false;
        size_t n = s->doms[pl.dom[i]].n;
        pl.total = n && pl.total > UINT64_MAX / n ? UINT64_MAX : pl.total * n;
    }
    pl.asked = pl.total < s->o.cap ? pl.total : s->o.cap;
    if (pl.asked < pl.total)
        sb_printf(&s->capped, "%s on %s: %llu calls, %llu asked (the cap; --cap N asks more)\n",
                  st->query, bd->label ? bd->label : "(no board)", (unsigned long long)pl.total,
                  (unsigned long long)pl.asked);
    if (!pl.asked)
        return true;
    if (!MEM_GROW(s->plans, s->nplans, s->plans_cap))
        return false;
    s->plans[s->nplans++] = pl;
    return true;
}

hon_status qs_enter(qs_set *s, size_t b)
{
    for (size_t i = 0; i < s->ndoms; i++)
        dom_free(&s->doms[i]);
    s->ndoms = s->nplans = 0;
    s->board = b;
    const qs_board *bd = &s->boards[b];
    for (size_t v = 0; v < s->nvms; v++) {
        hon_status st = HON_OK;
        if (bd->text)
            st = hon_load_board_source(s->vm[v], bd->label, bd->text, bd->len);
        else if (bd->path)
            st = hon_load_board(s->vm[v], bd->path);
        else
            hon_drop_board(s->vm[v]);
        if (st != HON_OK)
            return st;
    }
    for (uint32_t k = 0; k < s->nstats; k++) {
        s->written[k] = false;
        if (!plan_add(s, k))
            return HON_ERR_MEMORY;
    }
    for (size_t i = 0; i < s->boards[b].ntexts; i++)
        if (s->boards[b].texts[i].stat < s->nstats)
            s->written[s->boards[b].texts[i].stat] = true;
    return HON_OK;
}

/* Whether call q is also written as one of the current board's texts. */
static bool written(const qs_set *s, const qs_q *q)
{
    if (!s->written[q->stat])
        return false;
    strbuf t = { 0 };
    qs_question(s, q, &t);
    const qs_board *bd = &s->boards[s->board];
    bool found = false;
    for (size_t i = 0; !found && i < bd->ntexts; i++)
        found = bd->texts[i].stat == q->stat && strcmp(bd->texts[i].text, sb_str(&t)) == 0;
    sb_free(&t);
    return found;
}

/* Whether a call gives one thing of the board to two parameters of the same kind. */
static bool same_thing_twice(const qs_stat *st, const hon_value *args)
{
    for (size_t i = 0; i < st->nparams; i++)
        for (size_t j = i + 1; board_kind(st->kinds[i]) && j < st->nparams; j++)
            if (st->kinds[j] == st->kinds[i] && args[j].i == args[i].i)
                return true;
    return false;
}

hon_status qs_interrupted(qs_set *s)
{
    if (!state_interrupted())
        return HON_OK;
    session_report(s->vm[0], E_INTERRUPTED, NULL, "interrupted");
    return HON_ERR_RUNTIME;
}

bool qs_next(qs_set *s, qs_iter *it, qs_q *q)
{
    const qs_board *bd = &s->boards[s->board];
    if (it->text < bd->ntexts) {
        const qs_text *t = &bd->texts[it->text++];
        *q = (qs_q){ .text = t, .stat = t->stat };
        return true;
    }
    while (it->plan < s->nplans) {
        const qs_plan *pl = &s->plans[it->plan];
        if (it->k >= pl->asked) {
            it->plan++;
            it->k = 0;
            continue;
        }
        uint64_t idx = pl->asked == pl->total
                           ? it->k
                           : (uint64_t)((unsigned __int128)it->k * pl->total / pl->asked);
        it->k++;
        const qs_stat *st = &s->stats[pl->stat];
        *q = (qs_q){ .plan = pl, .stat = pl->stat, .nargs = st->nparams };
        for (size_t i = st->nparams; i-- > 0;) {
            const qs_dom *d = &s->doms[pl->dom[i]];
            q->at[i] = (uint32_t)(idx % d->n);
            q->args[i] = d->vals[q->at[i]];
            idx /= d->n;
        }
        if (same_thing_twice(st, q->args))
            s->same_twice++;
        else if (!written(s, q))
            return true;
    }
    return false;
}

/* ---- asking ---- */

/* Starts an evaluation on session i (traced or not) and runs text t's chunk: the value into
 * *v, or false on an error (in the session's vm_ctx). *st: HON_OK when the evaluation was
 * started (then state_end it). */
static bool text_run(qs_set *s, size_t i, const qs_text *t, bool traced, val *v, hon_status *st)
{
    hon_vm *vm = s->vm[i];
    *st = session_begin(vm, NULL, traced);
    return *st == HON_OK && vm_eval(&vm->x, t->ch[i], v);
}

/* Puts into a (text: buf) what is said when session i cannot ask q at all. */
static void cannot_ask(const qs_set *s, const qs_q *q, qs_ans *a, char *buf)
{
    *a = (qs_ans){ HON_ERR_NOT_FOUND, { HON_V_OTHER, 0 }, buf };
    if (q->text)
        snprintf(buf, QS_TEXT_CAP, "(the question does not compile in this setting)");
    else
        snprintf(buf, QS_TEXT_CAP, "(no query %s in this setting)", s->stats[q->stat].query);
}

bool qs_ask(qs_set *s, size_t i, const qs_q *q, qs_ans *a, bool text)
{
    hon_vm *vm = s->vm[i];
    char *buf = s->buf[i];
    if (q->text ? !q->text->ch[i] : !s->stats[q->stat].h[i]) {
        cannot_ask(s, q, a, buf);
        return true;
    }
    if (q->text) { /* a text's answer is compared by its text */
        *a = (qs_ans){ HON_OK, { HON_V_OTHER, 0 }, buf };
        val v;
        bool ok = text_run(s, i, q->text, false, &v, &a->st);
        if (a->st != HON_OK)
            return a->st != HON_ERR_MEMORY;
        if (!ok)
            eval_error_text(&vm->x, buf, QS_TEXT_CAP);
        bool oom = ok ? !eval_value_text(vm, v, buf, QS_TEXT_CAP) : vm->x.err.code == E_MEMORY;
        a->st = ok ? HON_OK : HON_ERR_RUNTIME;
        state_end(&vm->x);
        return !oom;
    }
    const qs_stat *st = &s->stats[q->stat];
    a->text = st->text || text ? buf : NULL;
    a->st =
        hon_call_query_text(vm, st->h[i], q->args, q->nargs, &a->v, (char *)a->text, QS_TEXT_CAP);
    if (a->st == HON_ERR_RUNTIME && !a->text) { /* an error is compared by its text */
        a->text = buf;
        a->st = hon_call_query_text(vm, st->h[i], q->args, q->nargs, &a->v, buf, QS_TEXT_CAP);
    }
    return a->st != HON_ERR_MEMORY;
}

bool qs_same(const qs_ans *a, const qs_ans *b)
{
    if (a->st != b->st)
        return false;
    if (a->text && b->text)
        return strcmp(a->text, b->text) == 0;
    return a->v.kind == b->v.kind && a->v.i == b->v.i;
}

hon_answer *qs_ask_traced(qs_set *s, size_t i, const qs_q *q)
{
    hon_vm *vm = s->vm[i];
    hon_answer *a = NULL;
    if (!q->text) {
        const qs_stat *st = &s->stats[q->stat];
        if (st->h[i]) /* the brief trace only: a difference shows no more */
            eval_ask_query(vm, st->h[i], q->args, q->nargs, EVAL_WANT_DIFF, &a);
        return a;
    }
    if (!q->text->ch[i])
        return NULL;
    val v;
    hon_status st;
    bool ok = text_run(s, i, q->text, true, &v, &st);
    if (st != HON_OK)
        return NULL;
    a = ok                           ? eval_answer(vm, v, q->text->type[i], EVAL_WANT_DIFF)
        : vm->x.err.code == E_MEMORY ? NULL
                                     : eval_error_answer(vm, EVAL_WANT_DIFF);
    state_end(&vm->x);
    return a;
}

void qs_question(const qs_set *s, const qs_q *q, strbuf *out)
{
    if (q->text) {
        sb_puts(out, q->text->text);
        return;
    }
    sb_puts(out, s->stats[q->stat].query);
    for (size_t i = 0; i < q->nargs; i++) {
        sb_puts(out, i ? ", " : "(");
        sb_puts(out, s->doms[q->plan->dom[i]].names[q->at[i]]);
    }
    sb_puts(out, q->nargs ? ")" : "()");
}

bool qs_skip_unaskable(const char *skip)
{
    return skip == SKIP_TYPE || skip == SKIP_INT || skip == SKIP_MANY;
}

void qs_capped(const qs_set *s, const char *prefix, strbuf *out)
{
    const char *c = s->capped.s ? s->capped.s : "";
    for (size_t n; *c; c += n + (c[n] == '\n')) {
        n = strcspn(c, "\n");
        sb_printf(out, "%scapped: %.*s\n", prefix, (int)n, c);
    }
}

void qs_notes(const qs_set *s, const char *prefix, strbuf *out)
{
    static const char *const reasons[] = { SKIP_TYPE, SKIP_INT, SKIP_MANY };
    for (size_t r = 0; r < sizeof reasons / sizeof reasons[0]; r++) {
        size_t n = 0;
        for (size_t k = 0; k < s->nstats; k++)
            n += s->stats[k].skip == reasons[r];
        if (!n)
            continue;
        sb_printf(out, "%snot asked: %zu quer%s with %s:", prefix, n, n == 1 ? "y" : "ies",
                  reasons[r]);
        for (size_t k = 0; k < s->nstats; k++)
            if (s->stats[k].skip == reasons[r])
                sb_printf(out, " %s", s->stats[k].query);
        sb_putc(out, '\n');
    }
    qs_capped(s, prefix, out);
    if (s->skipped_plays)
        sb_printf(out, "%snot asked: %zu expectation%s of tests that play\n", prefix,
                  s->skipped_plays, s->skipped_plays == 1 ? "" : "s");
    if (s->skipped_alone)
        sb_printf(out, "%snot asked: %zu expectation%s that do not compile on their own\n", prefix,
                  s->skipped_alone, s->skipped_alone == 1 ? "" : "s");
    if (s->same_twice)
        sb_printf(out, "%snot asked: %zu call%s giving one thing of the board twice\n", prefix,
                  s->same_twice, s->same_twice == 1 ? "" : "s");
}
