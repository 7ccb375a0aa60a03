/* variants.c — every other reading of every variant against a setting (hon.h:
 * hon_diff_variants): for each variant of the rules and each reading other than the setting's,
 * the question set (questions.h) asked under the setting and under the setting with that
 * reading — only the questions that can read the variant (focus.h), the others being sure to
 * agree — and, when none differs and a board query reads the variant, a short search for a
 * witness board (search.h). One line per reading: how many questions differ and one of them,
 * or the witness, or that the reading never changes an answer (and whether a procedure reads
 * it: diff plays none, so play may still differ). docs/spec/repl.md §5.
 */
#include <stdio.h>
#include <string.h>

#include "focus.h"
#include "mem.h"
#include "search.h"

#define VARIANTS_SECONDS 5  /* the default search budget of a reading */
#define VARIANTS_SIZE    5  /* the default largest board of its search */
#define VARIANTS_ANSWER  60 /* characters of an answer shown */

/* A reading's run: the questions asked, how many differ, and the first that does. */
typedef struct reading_run {
    size_t asked, differ;
    strbuf example; /* "BOARD: QUESTION: A | B" */
} reading_run;

/* Writes an answer's text, cut after VARIANTS_ANSWER characters (an error's text is long). */
static void put_answer(strbuf *out, const char *text)
{
    size_t n = strlen(text), k = 0;
    for (size_t c = 0; k < n && c < VARIANTS_ANSWER; c++) /* whole UTF-8 characters */
        for (k++; k < n && ((unsigned char)text[k] & 0xc0) == 0x80; k++)
            ;
    sb_putn(out, text, k);
    if (k < n)
        sb_puts(out, "…");
}

/* Why a query that cannot read the variant is not asked (qs_stat.skip; never printed). */
static const char SKIP_CANNOT[] = "cannot differ";

/* Whether the set's board b has a question that can differ: a call of a query still asked
 * there, or a written question that can read what differs. */
static bool worth_entering(const qs_set *s, const focus *f, size_t b)
{
    const qs_board *bd = &s->boards[b];
    for (size_t i = 0; i < bd->ntexts; i++)
        if (focus_chunk(f, bd->texts[i].ch[0]))
            return true;
    for (size_t k = 0; k < s->nstats; k++)
        if (!s->stats[k].skip &&
            (bd->path ? bd->enumerate && s->stats[k].board : s->o.finite && !s->stats[k].board))
            return true;
    return false;
}

/* Asks, on every board, the questions that can differ under focus f; counts into *rr. */
static hon_status ask_all(qs_set *s, const focus *f, reading_run *rr)
{
    const res_program *p = s->vm[0]->pg->res;
    const char **skip = mem_calloc(s->nstats + 1, sizeof *skip);
    if (!skip)
        return HON_ERR_MEMORY;
    for (size_t k = 0; k < s->nstats; k++) { /* the queries that cannot differ are left out */
        int32_t id = model_find_query(p, s->stats[k].query);
        skip[k] = s->stats[k].skip;
        if (!skip[k] && id >= 0 && !focus_query(f, (uint32_t)id))
            s->stats[k].skip = SKIP_CANNOT;
    }
    hon_status st = HON_OK;
    for (size_t b = 0; st == HON_OK && b < s->nboards; b++) {
        if (!worth_entering(s, f, b) || (st = qs_enter(s, b)) != HON_OK)
            continue;
        qs_iter it = { 0 };
        qs_q q;
        while (st == HON_OK && qs_next(s, &it, &q)) {
            qs_ans x, y;
            if (q.text && !focus_chunk(f, q.text->ch[0]))
                continue;
            if (!qs_ask(s, 0, &q, &x, false) || !qs_ask(s, 1, &q, &y, false)) {
                st = HON_ERR_MEMORY;
                break;
            }
            if ((st = qs_interrupted(s)) != HON_OK) /* the answers may be E231s: no line */
                break;
            rr->asked++;
            if (qs_same(&x, &y) || rr->differ++)
                continue;
            const qs_board *bd = &s->boards[b];
            sb_printf(&rr->example, "%s: ", bd->label ? bd->label : "(no board)");
            qs_question(s, &q, &rr->example);
            for (size_t i = 0; i < 2; i++) { /* again, printed */
                sb_puts(&rr->example, i ? " | " : ": ");
                put_answer(&rr->example, qs_ask(s, i, &q, &x, true) && x.text ? x.text : "?");
            }
        }
    }
    for (size_t k = 0; k < s->nstats; k++)
        s->stats[k].skip = skip[k];
    mem_free(skip);
    return st;
}

/* Writes the line of reading `reading` of variant `var`: the questions that differ (and the
 * first), else the witness of the search, else that it never changes an answer. */
static void put_line(strbuf *out, const char *var, const char *reading, const reading_run *rr,
                     const search_found *found, const hon_search_options *so, bool played)
{
    sb_printf(out, "%s=%s: ", var, reading);
    if (rr->differ) {
        sb_printf(out, "%zu of %zu questions differ, e.g. %s\n", rr->differ, rr->asked,
                  rr->example.s ? rr->example.s : "");
        return;
    }
    if (found->found) {
        sb_printf(out, "a witness of %d x %d: %s: ", found->w, found->h, found->call);
        put_answer(out, found->answer[0]);
        sb_puts(out, " | ");
        put_answer(out, found->answer[1]);
        sb_puts(out, " (");
    } else {
        sb_puts(out, "never changes an answer (");
    }
    if (rr->asked)
        sb_printf(out, "none of the %zu questions that can read it differs", rr->asked);
    else
        sb_puts(out, "no question asked can read it");
    if (found->found)
        sb_puts(out, ")\n");
    else if (found->none_can)
        sb_puts(out, "; no board query reads it");
    else
        sb_printf(out, "; no board up to %u x %u shows one in %g s", so->max_size, so->max_size,
                  so->seconds);
    if (!found->found)
        sb_puts(out, played ? "; but procedures read it, and diff plays none: play may differ)\n"
                            : ")\n");
}

/* Whether a procedure (an event's rule, run by `do` or `play`) can act otherwise under the two
 * settings of f: diff asks queries only, so a reading such a rule reads may change play though
 * no question differs. */
static bool procedures_read(const focus *f)
{
    for (uint32_t q = 0; q < f->p->nqueries; q++)
        if (f->p->queries[q].is_event && focus_query(f, q))
            return true;
    return false;
}

/* Compares, for variant v and its reading m, the setting in a with the setting and that
 * reading in b; writes the line of the reading to out. *changes: whether it changed an
 * answer. */
static hon_status one_reading(qs_set *s, const char *setting, uint32_t v, uint32_t m,
                              const hon_search_options *so, strbuf *out, bool *changes)
{
    hon_vm *a = s->vm[0], *b = s->vm[1];
    const res_program *p = a->pg->res;
    const char *var = p->variants[v].name,
               *reading = p->enums[p->variants[v].enum_id].members[m].name;
    strbuf text = { 0 };
    sb_printf(&text, "%s,%s=%s", setting, var, reading);
    hon_status st = text.oom ? HON_ERR_MEMORY : hon_apply_setting(b, sb_str(&text), "<variants>");
    sb_free(&text);
    focus f = { 0 };
    if (st == HON_OK)
        st = focus_build(&f, a, b, NULL, 0);
    reading_run rr = { 0 };
    if (st == HON_OK)
        st = ask_all(s, &f, &rr);
    const bool played = st == HON_OK && procedures_read(&f);
    focus_free(&f);
    search_found found = { 0 };
    if (st == HON_OK && !rr.differ)
        st = search_quiet(a, b, so, &found);
    if (st == HON_OK)
        put_line(out, var, reading, &rr, &found, so, played);
    *changes = rr.differ || found.found;
    search_found_free(&found);
    sb_free(&rr.example);
    return st == HON_OK && (out->oom || rr.example.oom) ? HON_ERR_MEMORY : st;
}

/* Writes text to out and empties it. */
static hon_status flush(strbuf *text, FILE *out)
{
    if (text->oom)
        return HON_ERR_MEMORY;
    bool ok = fwrite(sb_str(text), 1, text->len, out) == text->len && fflush(out) == 0;
    text->len = 0;
    if (text->s)
        text->s[0] = '\0';
    return ok ? HON_OK : HON_ERR_IO;
}

hon_status hon_diff_variants(hon_vm *a, hon_vm *b, const char *setting, const hon_question_set *qs,
                             const hon_search_options *o, FILE *out, size_t *changing)
{
    if (changing)
        *changing = 0;
    if (!a || !b || !setting || !out)
        return HON_ERR_NOT_FOUND;
    hon_search_options so = o ? *o : (hon_search_options){ 0 };
    so.seconds = so.seconds > 0 ? so.seconds : VARIANTS_SECONDS;
    so.max_size = so.max_size ? so.max_size : VARIANTS_SIZE;
    so.witness = NULL;
    so.rules = NULL;
    so.nrules = 0;
    qs_set s;
    hon_vm *vms[2] = { a, b };
    hon_status st = qs_build(&s, vms, 2, qs);
    const res_program *p = a->pg->res;
    bool oom = false;
    int32_t *base = st == HON_OK ? session_readings(a, session_edition(a), NULL, &oom) : NULL;
    if (oom)
        st = HON_ERR_MEMORY;
    size_t readings = 0, changed = 0;
    for (size_t v = 0; base && v < p->nvariants; v++)
        readings += p->enums[p->variants[v].enum_id].len - 1;
    const char *ed = hon_edition(a);
    strbuf text = { 0 };
    sb_printf(&text,
              "variants under %s: %zu variants, %zu other readings, each compared with the "
              "setting's (answers: setting | reading); when no question differs, a search up to "
              "%u x %u for %g s (seed %llu)\n",
              *setting ? setting
              : ed     ? ed
                       : "no edition",
              p->nvariants, readings, so.max_size, so.max_size, so.seconds,
              (unsigned long long)so.seed);
    for (uint32_t v = 0; st == HON_OK && v < p->nvariants; v++)
        for (uint32_t m = 0; st == HON_OK && m < p->enums[p->variants[v].enum_id].len; m++) {
            bool changes = false;
            if ((int32_t)m != base[v] &&
                (st = one_reading(&s, setting, v, m, &so, &text, &changes)) == HON_OK)
                changed += changes;
            st = st == HON_OK ? flush(&text, out) : st; /* a line as soon as it is known */
        }
    if (st == HON_OK) {
        sb_printf(&text, "%zu of %zu readings change an answer\n", changed, readings);
        st = flush(&text, out);
    }
    hon_drop_board(a);
    hon_drop_board(b);
    if (changing)
        *changing = changed;
    sb_free(&text);
    mem_free(base);
    qs_free(&s);
    return st;
}
