/* diff.c — the same questions asked under two settings (hon.h: hon_diff): every question of a
 * question set (questions.h) asked fast in both sessions, and each one whose answers differ
 * asked again, traced, in both; the differences grouped by query and then by the rules that
 * differ (fired in one trace and not the other, or with another answer), printed with the two
 * brief traces side by side (aligned line by line where they agree), or as JSON; then a count
 * per query and what was not asked. The rules that differ and the side-by-side picture serve
 * search.c too (diff.h). docs/spec/repl.md §5.
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "near.h"

#define DIFF_LCS_CELLS 4000000 /* past this many cells, two traces are not aligned */

/* One question whose answers differ. */
typedef struct diff_item {
    uint32_t stat;     /* its query (a stat; nstats: an expression that calls none) */
    const char *query; /* its name (the set's) */
    size_t board, seq;
    char *question;
    char *rules; /* the rules that differ, ", "-separated ("" for none) */
    char *answer[2], *why[2];
} diff_item;

/* The differences found, and the questions asked per query (index nstats: expressions). */
typedef struct diff_run {
    qs_set s;
    diff_item *items;
    size_t n, cap;
    size_t *asked, *differ;
    size_t total;
    const char *label[2];
    const hon_diff_options *o;
} diff_run;

/* ---- the rules that differ ---- */

const char *diff_without_setting(const char *why)
{
    if (strncmp(why, "(under ", 7) != 0)
        return why;
    const char *nl = strchr(why, '\n');
    return nl ? nl + 1 : why + strlen(why);
}

/* A text cut into lines (pointers into it, not NUL-terminated). */
typedef struct lines {
    const char **at;
    size_t *len;
    size_t n;
} lines;

static bool lines_of(const char *text, lines *l)
{
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n' || p[1] == '\0';
    *l = (lines){ mem_calloc(n + 1, sizeof *l->at), mem_calloc(n + 1, sizeof *l->len), 0 };
    if (!l->at || !l->len)
        return false;
    for (const char *p = text; *p && l->n < n;) {
        size_t k = strcspn(p, "\n");
        l->at[l->n] = p;
        l->len[l->n++] = k;
        p += k + (p[k] == '\n');
    }
    return true;
}

static void lines_free(lines *l)
{
    mem_free(l->at);
    mem_free(l->len);
}

/* The index of the n bytes at t among the sorted lines l, or SIZE_MAX. */
static size_t find_line(const lines *l, const char *t, size_t n)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2, m = l->len[mid];
        int c = memcmp(l->at[mid], t, m < n ? m : n);
        if (!c && m != n)
            c = m < n ? -1 : 1;
        if (!c)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

/* The rules fired by one answer: each once, sorted (hon_answer_fired), and in the trace's order
 * with their depths (hon_answer.fired_tree); `follows` marks the sorted ones that are only a
 * consequence: an ancestor, in the trace, of a rule that fired in this answer alone. */
typedef struct fired {
    lines set, tree;
    bool *follows;
} fired;

static bool fired_of(const hon_answer *a, fired *f)
{
    *f = (fired){ 0 };
    bool ok = lines_of(a && a->fired ? a->fired : "", &f->set) &&
              lines_of(a && a->fired_tree ? a->fired_tree : "", &f->tree);
    return ok && (f->follows = mem_calloc(f->set.n + 1, sizeof *f->follows)) != NULL;
}

static void fired_free(fired *f)
{
    lines_free(&f->set);
    lines_free(&f->tree);
    mem_free(f->follows);
}

/* Marks in x the rules that enclose, in x's trace, a rule that fired in x and not in y. */
static bool mark_follows(fired *x, const fired *y)
{
    size_t *stack = mem_calloc(x->tree.n + 1, sizeof *stack), top = 0;
    unsigned long *depth = mem_calloc(x->tree.n + 1, sizeof *depth);
    for (size_t i = 0; stack && depth && i < x->tree.n; i++) {
        const char *l = x->tree.at[i], *t = memchr(l, ' ', x->tree.len[i]);
        if (!t)
            continue;
        depth[i] = strtoul(l, NULL, 10);
        size_t tl = x->tree.len[i] - (size_t)(t + 1 - l);
        while (top && depth[stack[top - 1]] >= depth[i])
            top--;
        for (size_t k = 0; k < top && find_line(&y->set, t + 1, tl) == SIZE_MAX; k++) {
            const char *a = x->tree.at[stack[k]], *at = memchr(a, ' ', x->tree.len[stack[k]]);
            size_t j = find_line(&x->set, at + 1, x->tree.len[stack[k]] - (size_t)(at + 1 - a));
            if (j != SIZE_MAX)
                x->follows[j] = true;
        }
        stack[top++] = i;
    }
    bool ok = stack && depth;
    mem_free(stack);
    mem_free(depth);
    return ok;
}

/* Whether the rule of fired line l ("q.rule = ANSWER", len bytes) is one of un's "q.rule". */
static bool rule_in(const lines *un, const char *l, size_t len)
{
    const char *eq = memchr(l, '=', len);
    size_t n = eq && eq > l ? (size_t)(eq - 1 - l) : len;
    for (size_t i = 0; i < un->n; i++)
        if (un->len[i] == n && memcmp(un->at[i], l, n) == 0)
            return true;
    return false;
}

/* Marks in x (unreached[], per line of x->set) the rules that fired in x where the other
 * answer's `min`/`max` call, decided at an enum's bound, never reached them (un: the other's
 * hon_answer.unreached), and every rule that fired inside one of those: none would have
 * differed before that decision. */
static void mark_unreached(const fired *x, const lines *un, bool *unreached)
{
    unsigned long cut = 0; /* the depth of the rule being skipped, 0: none */
    for (size_t i = 0; un->n && i < x->tree.n; i++) {
        const char *l = x->tree.at[i], *t = memchr(l, ' ', x->tree.len[i]);
        if (!t)
            continue;
        unsigned long d = strtoul(l, NULL, 10);
        size_t tl = x->tree.len[i] - (size_t)(t + 1 - l);
        if (cut && d <= cut)
            cut = 0;
        if (!cut && rule_in(un, t + 1, tl))
            cut = d;
        if (cut) {
            size_t j = find_line(&x->set, t + 1, tl);
            if (j != SIZE_MAX)
                unreached[j] = true;
        }
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rule name of a fired line ("q.rule = ANSWER", len bytes): a new string, NULL on OOM. */
static char *rule_name(const char *l, size_t len)
{
    const char *eq = strstr(l, " = ");
    return mem_strndup(l, eq && eq < l + len ? (size_t)(eq - l) : len);
}

/* Whether names[0..n) (sorted) holds name. */
static bool has_name(char *const *names, size_t n, const char *name)
{
    return n && bsearch(&name, names, n, sizeof *names, cmp_str) != NULL;
}

char *diff_rules_that_differ(const hon_answer *a, const hon_answer *b)
{
    fired f[2];
    lines un[2] = { 0 };
    bool ok = fired_of(a, &f[0]) & fired_of(b, &f[1]);
    ok = ok && mark_follows(&f[0], &f[1]) && mark_follows(&f[1], &f[0]);
    ok = ok && lines_of(a && a->unreached ? a->unreached : "", &un[0]) &&
         lines_of(b && b->unreached ? b->unreached : "", &un[1]);
    bool *skip[2] = { ok ? mem_calloc(f[0].set.n + 1, 1) : NULL,
                      ok ? mem_calloc(f[1].set.n + 1, 1) : NULL };
    ok = ok && skip[0] && skip[1];
    if (ok) {
        mark_unreached(&f[0], &un[1], skip[0]);
        mark_unreached(&f[1], &un[0], skip[1]);
    }
    size_t n = 0, nf = 0, cap = f[0].set.n + f[1].set.n + 1;
    char **names = ok ? mem_calloc(cap, sizeof *names) : NULL;
    char **follow = ok ? mem_calloc(cap, sizeof *follow) : NULL;
    ok = names && follow;
    for (int x = 0; ok && x < 2; x++)
        for (size_t i = 0; ok && i < f[x].set.n; i++) {
            const char *l = f[x].set.at[i];
            size_t len = f[x].set.len[i];
            if (f[x].follows[i])
                ok = (follow[nf++] = rule_name(l, len)) != NULL;
            if (ok && !skip[x][i] && find_line(&f[1 - x].set, l, len) == SIZE_MAX)
                ok = (names[n++] = rule_name(l, len)) != NULL;
        }
    strbuf out = { 0 };
    if (ok) {
        qsort(names, n, sizeof *names, cmp_str);
        qsort(follow, nf, sizeof *follow, cmp_str);
    }
    size_t kept = 0; /* when every one encloses another, all are said */
    for (size_t i = 0; ok && i < n; i++)
        kept += !has_name(follow, nf, names[i]);
    for (size_t i = 0; ok && i < n; i++)
        if ((i == 0 || strcmp(names[i], names[i - 1]) != 0) &&
            (!kept || !has_name(follow, nf, names[i])))
            sb_printf(&out, "%s%s", out.len ? ", " : "", names[i]);
    for (size_t i = 0; i < n; i++)
        mem_free(names[i]);
    for (size_t i = 0; i < nf; i++)
        mem_free(follow[i]);
    mem_free(names);
    mem_free(follow);
    fired_free(&f[0]);
    fired_free(&f[1]);
    lines_free(&un[0]);
    lines_free(&un[1]);
    mem_free(skip[0]);
    mem_free(skip[1]);
    if (!ok)
        sb_fail(&out);
    return out.len || out.oom ? sb_take(&out) : mem_strdup("");
}

hon_status hon_check_rule_name(hon_vm *vm, const char *name, const char *where)
{
    if (!vm || !name)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    const char *like = NULL; /* a rule whose short name it is */
    for (size_t r = 0; r < p->nrules; r++) {
        if (strcmp(p->rules[r].name, name) == 0)
            return HON_OK;
        if (!like && strcmp(p->rules[r].short_name, name) == 0)
            like = p->rules[r].name;
    }
    size_t n = strlen(name);
    uint32_t id = diag_sources_add(&vm->sources, where ? where : "<rule>", name, n);
    ast_loc at = { id == UINT32_MAX ? 0 : id, 1, 1, 1, n ? (uint32_t)n : 1 };
    near_search s; /* "did you mean" the rule nearest a slip */
    near_begin(&s, name);
    for (size_t r = 0; !like && r < p->nrules; r++)
        near_offer(&s, p->rules[r].name);
    const char *h = like ? NULL : near_result(&s);
    if (like)
        session_report_at(vm, E_NO_SUCH_RULE, at,
                          "no rule named '%s' (a rule is named QUERY.RULE: %s?)", name, like);
    else if (h)
        session_report_at(vm, E_NO_SUCH_RULE, at, "no rule named '%s' (did you mean `%s`?)", name,
                          h);
    else
        session_report_at(vm, E_NO_SUCH_RULE, at, "no rule named '%s'", name);
    return HON_ERR_NOT_FOUND;
}

hon_status hon_check_query_name(hon_vm *vm, const char *name, bool board_only, const char *where)
{
    if (!vm || !name)
        return HON_ERR_NOT_FOUND;
    hon_query_info info;
    bool known = hon_query_info_of(vm, name, &info) == HON_OK, on_board = false;
    for (size_t i = 0; known && i < info.nparams; i++) {
        hon_type_kind k = info.param_kinds[i];
        on_board |= k == HON_T_UNIT || k == HON_T_SQUARE || k == HON_T_SIDE || k == HON_T_ELEMENT;
    }
    if (known && (on_board || !board_only))
        return HON_OK;
    size_t n = strlen(name);
    uint32_t id = diag_sources_add(&vm->sources, where ? where : "<query>", name, n);
    ast_loc at = { id == UINT32_MAX ? 0 : id, 1, 1, 1, n ? (uint32_t)n : 1 };
    if (known)
        session_report_at(vm, E_NO_SUCH_QUERY_NAME, at,
                          "query '%s' has no parameter that is a thing of the board: a board "
                          "search cannot ask it (plain diff can)",
                          name);
    else {
        const res_program *p = vm->pg->res;
        near_search s; /* "did you mean" the query nearest a slip */
        near_begin(&s, name);
        for (size_t q = 0; q < p->nqueries; q++)
            if (!p->queries[q].is_event)
                near_offer(&s, p->queries[q].name);
        const char *h = near_result(&s);
        session_report_at(vm, E_NO_SUCH_QUERY_NAME, at, "no query named '%s'%s%s%s", name,
                          h ? " (did you mean `" : "", h ? h : "", h ? "`?)" : "");
    }
    return HON_ERR_NOT_FOUND;
}

bool diff_rules_include(const char *list, const char *const *names, size_t n)
{
    for (const char *c = list; *c;) {
        size_t k = strcspn(c, ",");
        for (size_t i = 0; i < n; i++)
            if (strlen(names[i]) == k && strncmp(c, names[i], k) == 0)
                return true;
        c += k + (c[k] == ',' ? 2 : 0);
    }
    return false;
}

/* ---- asking ---- */

static void item_free(diff_item *d)
{
    mem_free(d->question);
    mem_free(d->rules);
    for (int i = 0; i < 2; i++) {
        mem_free(d->answer[i]);
        mem_free(d->why[i]);
    }
}

/* Records q (on the current board), whose answers differ: asked again, traced, in both. */
static hon_status record(diff_run *r, const qs_q *q)
{
    if (!MEM_GROW(r->items, r->n, r->cap))
        return HON_ERR_MEMORY;
    diff_item *d = &r->items[r->n];
    *d = (diff_item){ .stat = q->stat < r->s.nstats ? q->stat : (uint32_t)r->s.nstats,
                      .board = r->s.board,
                      .seq = r->n };
    d->query = qs_query_name(&r->s, d->stat);
    strbuf qt = { 0 };
    qs_question(&r->s, q, &qt);
    d->question = sb_take(&qt);
    hon_answer *a[2];
    bool ok = d->question != NULL;
    for (size_t i = 0; i < 2; i++) {
        qs_ans x;
        a[i] = qs_ask_traced(&r->s, i, q);
        if (a[i]) {
            d->answer[i] = mem_strdup(hon_answer_text(a[i]));
            d->why[i] = mem_strdup(diff_without_setting(hon_answer_why(a[i])));
        } else if (qs_ask(&r->s, i, q, &x, true)) { /* the session cannot ask it */
            d->answer[i] = mem_strdup(x.text ? x.text : "?");
            d->why[i] = mem_strdup("");
        }
        ok &= d->answer[i] && d->why[i];
    }
    d->rules = diff_rules_that_differ(a[0], a[1]);
    hon_answer_free(a[0]);
    hon_answer_free(a[1]);
    if (!ok || !d->rules) {
        item_free(d);
        return HON_ERR_MEMORY;
    }
    r->n++;
    return HON_OK;
}

/* Asks every question of the current board in both sessions. */
static hon_status ask_board(diff_run *r)
{
    qs_iter it = { 0 };
    qs_q q;
    while (qs_next(&r->s, &it, &q)) {
        qs_ans x, y;
        if (!qs_ask(&r->s, 0, &q, &x, false) || !qs_ask(&r->s, 1, &q, &y, false))
            return HON_ERR_MEMORY;
        hon_status st = qs_interrupted(&r->s); /* the answers may be E231s */
        if (st != HON_OK)
            return st;
        size_t k = q.stat < r->s.nstats ? q.stat : r->s.nstats;
        r->asked[k]++;
        r->total++;
        if (qs_same(&x, &y))
            continue;
        st = record(r, &q);
        if (st != HON_OK)
            return st;
        if (r->o && r->o->nrules &&
            !diff_rules_include(r->items[r->n - 1].rules, r->o->rules, r->o->nrules)) {
            item_free(&r->items[--r->n]); /* a difference of other rules: not counted */
            continue;
        }
        r->differ[k]++;
    }
    return HON_OK;
}

/* ---- side by side ---- */

/* How many characters (UTF-8 code points) the n bytes at s hold. */
static size_t chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

/* The bytes of the n at s that fill at most w characters of a column: cut after a space when
 * there is one in the last two thirds, else on a character's end. */
static size_t take(const char *s, size_t n, size_t w)
{
    size_t i = 0, c = 0, space = 0;
    while (i < n && c < w) {
        if (s[i] == ' ' && c >= w / 3)
            space = i + 1;
        i++;
        while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
            i++;
        c++;
    }
    return i < n && space ? space : i;
}

/* The spaces a cell that goes on over several lines starts its next lines with: its own
 * indentation and 4 more, at most half the column. */
static size_t hang(const char *s, size_t n, size_t w)
{
    size_t k = strspn(s, " ");
    k = (k < n ? k : n) + 4;
    return k < w / 2 ? k : w / 2;
}

/* Writes one piece of a cell (`pad` spaces, then the n bytes at s), padded to w characters
 * when `fill`. */
static void piece(strbuf *out, size_t pad, const char *s, size_t n, size_t w, bool fill)
{
    for (size_t c = 0; c < pad; c++)
        sb_putc(out, ' ');
    sb_putn(out, s, n);
    for (size_t c = pad + chars(s, n); fill && c < w; c++)
        sb_putc(out, ' ');
}

/* Writes one row: the left cell (l, ln bytes) in a column of w characters, the mark, the right
 * cell; a cell longer than its column goes on over the next lines, in its column, indented. */
static void row(strbuf *out, const char *l, size_t ln, char mark, const char *r, size_t rn,
                size_t w)
{
    size_t hl = hang(l, ln, w), hr = hang(r, rn, w), pl = 0, pr = 0;
    do {
        size_t a = take(l, ln, w - pl), b = take(r, rn, w - pr);
        sb_puts(out, "  ");
        piece(out, a ? pl : 0, l, a, w, b || mark != ' ');
        if (b || mark != ' ') {
            sb_printf(out, " %c ", mark);
            piece(out, b ? pr : 0, r, b, w, false);
        }
        while (out->len && out->s[out->len - 1] == ' ')
            out->s[--out->len] = '\0';
        sb_putc(out, '\n');
        l += a, ln -= a, r += b, rn -= b;
        for (; ln && *l == ' '; ln--) /* a piece after a cut starts with its word */
            l++;
        for (; rn && *r == ' '; rn--)
            r++;
        pl = hl, pr = hr;
        mark = ' ';
    } while (ln || rn);
}

static bool same_line(const lines *a, size_t i, const lines *b, size_t j)
{
    return a->len[i] == b->len[j] && memcmp(a->at[i], b->at[j], a->len[i]) == 0;
}

/* Writes the two texts side by side in columns of w characters: the lines they share (a
 * longest common subsequence) face each other unmarked, a left line replaced by a right one is
 * marked `|`, a line only on the left `<`, only on the right `>`. */
static void side_by_side(strbuf *out, const char *left, const char *right, size_t w)
{
    lines a = { 0 }, b = { 0 };
    bool ok = lines_of(left, &a) && lines_of(right, &b);
    size_t cells = (a.n + 1) * (b.n + 1);
    uint32_t *lcs = ok && cells <= DIFF_LCS_CELLS ? mem_calloc(cells, sizeof *lcs) : NULL;
    if (!ok)
        sb_fail(out);
    /* lcs[i * (b.n + 1) + j]: the longest common subsequence of a[i..] and b[j..] */
    for (size_t i = a.n; lcs && i-- > 0;)
        for (size_t j = b.n; j-- > 0;) {
            uint32_t down = lcs[(i + 1) * (b.n + 1) + j], across = lcs[i * (b.n + 1) + j + 1];
            lcs[i * (b.n + 1) + j] = same_line(&a, i, &b, j) ? lcs[(i + 1) * (b.n + 1) + j + 1] + 1
                                                             : (down > across ? down : across);
        }
    size_t i = 0, j = 0;
    while (ok && (i < a.n || j < b.n)) {
        if (i < a.n && j < b.n && same_line(&a, i, &b, j)) {
            row(out, a.at[i], a.len[i], ' ', b.at[j], b.len[j], w);
            i++, j++;
            continue;
        }
        /* the lines of each side up to the next shared one, paired as changed */
        size_t i2 = i, j2 = j;
        while (lcs && i2 < a.n &&
               (j2 >= b.n || lcs[(i2 + 1) * (b.n + 1) + j2] == lcs[i2 * (b.n + 1) + j2]))
            i2++;
        while (lcs && j2 < b.n &&
               (i2 >= a.n || lcs[i2 * (b.n + 1) + j2 + 1] == lcs[i2 * (b.n + 1) + j2]))
            j2++;
        if (!lcs)
            i2 = a.n, j2 = b.n;
        for (; i < i2 || j < j2; i += i < i2, j += j < j2) {
            char mark = i < i2 && j < j2 ? '|' : i < i2 ? '<' : '>';
            row(out, i < i2 ? a.at[i] : "", i < i2 ? a.len[i] : 0, mark, j < j2 ? b.at[j] : "",
                j < j2 ? b.len[j] : 0, w);
        }
    }
    mem_free(lcs);
    lines_free(&a);
    lines_free(&b);
}

void diff_show(strbuf *out, const char *const *label, const char *const *answer,
               const char *const *why, size_t width)
{
    size_t col = width > 25 ? (width - 5) / 2 : 10;
    strbuf ha = { 0 }, hb = { 0 };
    sb_printf(&ha, "%s: %s", label[0], answer[0]);
    sb_printf(&hb, "%s: %s", label[1], answer[1]);
    row(out, sb_str(&ha), ha.len, '|', sb_str(&hb), hb.len, col);
    if (ha.oom || hb.oom)
        sb_fail(out);
    sb_free(&ha);
    sb_free(&hb);
    side_by_side(out, why[0], why[1], col);
}

/* ---- printing ---- */

static int cmp_items(const void *x, const void *y)
{
    const diff_item *a = x, *b = y;
    int c = strcmp(a->query, b->query);
    if (!c)
        c = strcmp(a->rules, b->rules);
    return c ? c : a->seq < b->seq ? -1 : a->seq > b->seq;
}

static const char *board_label(const qs_set *s, size_t b)
{
    return s->boards[b].label ? s->boards[b].label : "(no board)";
}

/* The text of the differences: grouped by query, then by the rules that differ. */
static void print_text(const diff_run *r, strbuf *out)
{
    const qs_set *s = &r->s;
    size_t w = r->o && r->o->width ? r->o->width : DIFF_WIDTH, shown = 0;
    size_t limit = r->o && r->o->traces ? r->o->traces : SIZE_MAX;
    sb_printf(out, "diff %s | %s: %zu of %zu question%s differ%s\n", r->label[0], r->label[1], r->n,
              r->total, r->total == 1 ? "" : "s",
              s->capped.len ? " (not every call asked: a query's calls on a board past the cap "
                              "were left out, see `capped:` at the end; --cap N asks more)"
                            : "");
    size_t untraced = 0;
    for (size_t i = 0; i < r->n; i++) {
        const diff_item *d = &r->items[i], *p = i ? &r->items[i - 1] : NULL;
        bool new_query = !p || p->stat != d->stat;
        if (new_query)
            sb_printf(out, "\n== %s: %zu of %zu differ\n", qs_query_name(s, d->stat),
                      r->differ[d->stat], r->asked[d->stat]);
        if (new_query || strcmp(p->rules, d->rules) != 0) {
            sb_printf(out, "-- rules that differ: %s\n",
                      d->rules[0] ? d->rules : "none (the same rules fired)");
            shown = 0;
        }
        sb_printf(out, "%s: %s\n", board_label(s, d->board), d->question);
        if (shown++ >= limit) {
            sb_printf(out, "  %s: %s | %s: %s\n", r->label[0], d->answer[0], r->label[1],
                      d->answer[1]);
            untraced++;
            continue;
        }
        diff_show(out, r->label, (const char *const *)d->answer, (const char *const *)d->why, w);
    }
    sb_puts(out, "\n== questions per query\n");
    size_t others = 0, other_q = 0;
    for (size_t k = 0; k <= s->nstats; k++) {
        if (r->differ[k])
            sb_printf(out, "%s: %zu of %zu differ\n", qs_query_name(s, (uint32_t)k), r->differ[k],
                      r->asked[k]);
        else if (r->asked[k])
            others++, other_q += r->asked[k];
    }
    if (others)
        sb_printf(out, "no difference: %zu other quer%s (%zu question%s)\n", others,
                  others == 1 ? "y" : "ies", other_q, other_q == 1 ? "" : "s");
    qs_notes(s, "", out);
    if (untraced)
        sb_printf(out,
                  "not traced: %zu difference%s past the first %zu of its group (--traces; "
                  "without it every difference shows its traces)\n",
                  untraced, untraced == 1 ? "" : "s", limit);
    sb_printf(out, "%zu difference%s in %zu question%s\n", r->n, r->n == 1 ? "" : "s", r->total,
              r->total == 1 ? "" : "s");
}

/* The differences as one JSON object. */
static void print_json(const diff_run *r, strbuf *out)
{
    const qs_set *s = &r->s;
    sb_puts(out, "{\"a\": ");
    sb_json_str(out, r->label[0]);
    sb_puts(out, ", \"b\": ");
    sb_json_str(out, r->label[1]);
    sb_printf(out, ", \"asked\": %zu, \"differ\": %zu, \"differences\": [", r->total, r->n);
    for (size_t i = 0; i < r->n; i++) {
        const diff_item *d = &r->items[i];
        sb_puts(out, i ? ", {\"query\": " : "{\"query\": ");
        sb_json_str(out, qs_query_name(s, d->stat));
        sb_puts(out, ", \"board\": ");
        sb_json_str(out, s->boards[d->board].label);
        sb_puts(out, ", \"question\": ");
        sb_json_str(out, d->question);
        sb_puts(out, ", \"rules\": [");
        for (const char *c = d->rules; *c;) {
            size_t n = strcspn(c, ",");
            char *name = mem_strndup(c, n);
            sb_puts(out, c == d->rules ? "" : ", ");
            sb_json_str(out, name ? name : "");
            mem_free(name);
            c += n + (c[n] == ',' ? 2 : 0);
        }
        for (int k = 0; k < 2; k++) {
            sb_puts(out, k ? "}, \"b\": {\"answer\": " : "], \"a\": {\"answer\": ");
            sb_json_str(out, d->answer[k]);
            sb_puts(out, ", \"why\": ");
            sb_json_str(out, d->why[k]);
        }
        sb_puts(out, "}}");
    }
    sb_puts(out, "], \"queries\": [");
    bool first = true;
    for (size_t k = 0; k <= s->nstats; k++) {
        if (!r->asked[k])
            continue;
        sb_puts(out, first ? "{\"query\": " : ", {\"query\": ");
        sb_json_str(out, qs_query_name(s, (uint32_t)k));
        sb_printf(out, ", \"asked\": %zu, \"differ\": %zu}", r->asked[k], r->differ[k]);
        first = false;
    }
    strbuf notes = { 0 };
    qs_notes(s, "", &notes);
    sb_puts(out, "], \"notes\": [");
    first = true;
    for (const char *c = notes.s ? notes.s : ""; *c;) {
        size_t n = strcspn(c, "\n");
        char *line = mem_strndup(c, n);
        sb_puts(out, first ? "" : ", ");
        sb_json_str(out, line ? line : "");
        mem_free(line);
        first = false;
        c += n + (c[n] == '\n');
    }
    sb_free(&notes);
    sb_puts(out, "]}\n");
}

hon_status hon_diff(hon_vm *a, const char *label_a, hon_vm *b, const char *label_b,
                    const hon_question_set *qs, const hon_diff_options *o, FILE *out, size_t *ndiff)
{
    if (ndiff)
        *ndiff = 0;
    if (!a || !b || !out)
        return HON_ERR_NOT_FOUND;
    diff_run r = { .label = { label_a ? label_a : "a", label_b ? label_b : "b" }, .o = o };
    hon_vm *vms[2] = { a, b };
    hon_status st = qs_build(&r.s, vms, 2, qs);
    if (st == HON_OK) {
        r.asked = mem_calloc(r.s.nstats + 1, sizeof *r.asked);
        r.differ = mem_calloc(r.s.nstats + 1, sizeof *r.differ);
        if (!r.asked || !r.differ)
            st = HON_ERR_MEMORY;
    }
    for (size_t bd = 0; st == HON_OK && bd < r.s.nboards; bd++)
        if ((st = qs_enter(&r.s, bd)) == HON_OK)
            st = ask_board(&r);
    hon_drop_board(a);
    hon_drop_board(b);
    if (st == HON_OK) {
        strbuf text = { 0 };
        if (r.n)
            qsort(r.items, r.n, sizeof *r.items, cmp_items);
        if (o && o->json)
            print_json(&r, &text);
        else
            print_text(&r, &text);
        if (text.oom)
            st = HON_ERR_MEMORY;
        else if (fwrite(sb_str(&text), 1, text.len, out) != text.len)
            st = HON_ERR_IO;
        sb_free(&text);
    }
    if (ndiff)
        *ndiff = r.n;
    for (size_t i = 0; i < r.n; i++)
        item_free(&r.items[i]);
    mem_free(r.items);
    mem_free(r.asked);
    mem_free(r.differ);
    qs_free(&r.s);
    return st;
}
