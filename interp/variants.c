/* variants.c — every other reading of every variant against a setting (hon.h:
 * hon_diff_variants): for each variant of the rules and each reading other than the setting's,
 * the question set (questions.h) asked under the setting and under the setting with that
 * reading — only the questions that can read the variant (focus.h), the others being sure to
 * agree; of those, one whose answer under the setting did not read the variant
 * (vm_ctx.variants_read, noted once and kept across the readings) is sure to agree too and is
 * not asked under the reading — and, when none differs and a board query reads the variant, a
 * short search for a witness board (search.h). One line per reading: how many questions
 * differ and one of them, or the witness, or that the reading never changes an answer (no
 * board query reads it, and no query the set cannot ask can) or that no change was found (a
 * search made its boards and none showed one; or a query that can read it has an int parameter
 * asked over a range, or is not asked at all: a list parameter...), and whether a procedure
 * reads it: diff plays none, so play may still differ. docs/spec/repl.md §5.
 */
#include "variants.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "focus.h"
#include "mem.h"
#include "search.h"
#include "vm.h"

#define VARIANTS_SECONDS 5  /* the most a reading's search takes when no time is given */
#define VARIANTS_SIZE    5  /* the default largest board of its search */
#define VARIANTS_ANSWER  60 /* characters of an answer shown */

/* A reading's run: the questions asked, how many differ, and the first that does; late when
 * the command's time (--seconds) ran out before its questions were all asked. */
typedef struct reading_run {
    size_t asked, differ;
    bool ints;      /* a question that can read it has an int parameter, asked over a range only */
    size_t unasked; /* queries that can read it and that the set cannot ask (qs_skip_unaskable) */
    const char *unasked_query, *unasked_why; /* the first of them, and why (the set's strings) */
    strbuf example;                          /* "BOARD: QUESTION: A | B" */
    bool late;
} reading_run;

/* The whole command's time, when one is given (`--seconds S`): when it began and S. */
typedef struct time_bound {
    bool on;
    struct timespec t0;
    double seconds;
} time_bound;

/* The seconds spent since t's start. */
static double time_spent(const time_bound *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->t0.tv_sec) + (double)(now.tv_nsec - t->t0.tv_nsec) / 1e9;
}

/* Whether t is given and spent. */
static bool time_is_up(const time_bound *t)
{
    return t->on && time_spent(t) >= t->seconds;
}

/* Whether question q is a call with an int parameter: asked over the set's int range only
 * (`--ints`), so that questions outside it (a table from 10 up, a negative speed) go unasked. */
static bool int_call(const qs_set *s, const qs_q *q)
{
    if (q->text)
        return false;
    const qs_stat *st = &s->stats[q->stat];
    for (size_t i = 0; i < st->nparams && i < 16; i++)
        if (st->kinds[i] == HON_T_INT)
            return true;
    return false;
}

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

/* ---- the variants a question read under the setting ---- */

#define READS_UNKNOWN 0          /* not asked under the setting yet */
#define READS_ANY     UINT16_MAX /* too many sets to keep: taken as reading every variant */

/* What each question of the set read when asked under the setting (vm_ctx.variants_read):
 * the setting stays, so what its answers read does too, and is kept across the readings. Each
 * distinct set of variants is kept once; a question holds its number + 1 (READS_*). */
typedef struct reads_memo {
    size_t words;   /* uint64_t words of a set */
    uint64_t *sets; /* nsets sets of `words` words */
    uint64_t *now;  /* the set of the question being asked */
    size_t nsets, cap;
    uint32_t *hash;   /* open addressing over sets: its number + 1, 0 empty */
    size_t hash_cap;  /* a power of two, over twice nsets */
    uint16_t ***plan; /* per board, per query stat: per call of its plan (NULL: none yet) */
    uint16_t **text;  /* per board: per written question (NULL: none yet) */
    size_t nboards, nstats;
    variants_work work;
} reads_memo;

static bool reads_init(reads_memo *m, const qs_set *s, size_t nvariants)
{
    *m = (reads_memo){ .words = nvariants / 64 + 1, .nboards = s->nboards, .nstats = s->nstats };
    m->now = mem_calloc(m->words, sizeof *m->now);
    m->plan = mem_calloc(s->nboards + 1, sizeof *m->plan);
    m->text = mem_calloc(s->nboards + 1, sizeof *m->text);
    return m->now && m->plan && m->text;
}

static void reads_free(reads_memo *m)
{
    for (size_t b = 0; b < m->nboards; b++) {
        for (size_t k = 0; m->plan && m->plan[b] && k < m->nstats; k++)
            mem_free(m->plan[b][k]);
        mem_free(m->plan ? m->plan[b] : NULL);
        mem_free(m->text ? m->text[b] : NULL);
    }
    mem_free(m->plan);
    mem_free(m->text);
    mem_free(m->sets);
    mem_free(m->now);
    mem_free(m->hash);
}

static uint64_t set_hash(const uint64_t *w, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ w[i]) * 0xff51afd7ed558ccdu;
    return h ^ h >> 29;
}

/* The number + 1 of the set m->now (kept when new); READS_ANY past the numbers a slot holds,
 * READS_UNKNOWN when memory ran out. */
static uint16_t reads_intern(reads_memo *m)
{
    size_t bytes = m->words * sizeof *m->now;
    if (m->hash_cap < 2 * (m->nsets + 1)) { /* grow and rehash */
        size_t cap = m->hash_cap ? m->hash_cap * 2 : 64;
        uint32_t *h = mem_calloc(cap, sizeof *h);
        if (!h)
            return READS_UNKNOWN;
        for (size_t i = 0; i < m->nsets; i++) {
            size_t at = set_hash(m->sets + i * m->words, m->words) & (cap - 1);
            while (h[at])
                at = (at + 1) & (cap - 1);
            h[at] = (uint32_t)i + 1;
        }
        mem_free(m->hash);
        m->hash = h;
        m->hash_cap = cap;
    }
    size_t at = set_hash(m->now, m->words) & (m->hash_cap - 1);
    for (; m->hash[at]; at = (at + 1) & (m->hash_cap - 1))
        if (memcmp(m->sets + (m->hash[at] - 1) * m->words, m->now, bytes) == 0)
            return (uint16_t)m->hash[at];
    if (m->nsets + 1 >= READS_ANY)
        return READS_ANY;
    if (m->nsets == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        uint64_t *sets = mem_realloc(m->sets, cap * bytes);
        if (!sets)
            return READS_UNKNOWN;
        m->sets = sets;
        m->cap = cap;
    }
    memcpy(m->sets + m->nsets * m->words, m->now, bytes);
    m->hash[at] = (uint32_t)++m->nsets;
    return (uint16_t)m->nsets;
}

/* The slot of question q of board b (it: where qs_next left the iteration after giving q), or
 * NULL on OOM. */
static uint16_t *reads_slot(reads_memo *m, const qs_set *s, size_t b, const qs_q *q,
                            const qs_iter *it)
{
    if (q->text) {
        if (!m->text[b] && !(m->text[b] = mem_calloc(s->boards[b].ntexts + 1, sizeof **m->text)))
            return NULL;
        return &m->text[b][it->text - 1];
    }
    if (!m->plan[b] && !(m->plan[b] = mem_calloc(m->nstats + 1, sizeof **m->plan)))
        return NULL;
    uint16_t **k = &m->plan[b][q->plan->stat];
    if (!*k && !(*k = mem_calloc((size_t)q->plan->asked + 1, sizeof **k)))
        return NULL;
    return &(*k)[it->k - 1];
}

/* Whether the set of slot value r holds variant v. */
static bool reads_variant(const reads_memo *m, uint16_t r, uint32_t v)
{
    return r == READS_ANY || (m->sets[(r - 1) * m->words + v / 64] >> (v % 64) & 1);
}

/* Asks q under the setting (session 0), watching what it reads into *slot. False on OOM. */
static bool ask_watched(qs_set *s, reads_memo *m, const qs_q *q, qs_ans *x, uint16_t *slot)
{
    vm_ctx *vx = &s->vm[0]->x;
    memset(m->now, 0, m->words * sizeof *m->now);
    vx->variants_read = m->now;
    bool ok = qs_ask(s, 0, q, x, false);
    vx->variants_read = NULL;
    m->work.setting++;
    if (ok && !state_interrupted()) /* an interrupted answer read less than it would have */
        ok = (*slot = reads_intern(m)) != READS_UNKNOWN;
    return ok;
}

/* The questions whose watched reads prove nothing under f (focus_unseen): a tabled answer reads
 * nothing when it is given, so a question that can call a tabled query that can read the
 * variant may read it unseen: it is asked under both. */
typedef struct hidden {
    bool *query, *fn; /* per query, per fn: calls such a query */
} hidden;

static hon_status hidden_build(hidden *h, const focus *f)
{
    h->query = mem_calloc(f->p->nqueries + 1, sizeof *h->query);
    h->fn = mem_calloc(f->p->nfns + 1, sizeof *h->fn);
    if (!h->query || !h->fn)
        return HON_ERR_MEMORY;
    focus_unseen(f, h->query, h->fn);
    return HON_OK;
}

static void hidden_free(hidden *h)
{
    mem_free(h->query);
    mem_free(h->fn);
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

/* Asks, on every board, the questions that can differ under focus f, whose readings differ in
 * variant v alone; counts into *rr. A question whose answer under the setting did not read v
 * (m), and whose reads all show (h), is counted as agreeing without asking it under the
 * reading. */
static hon_status ask_all(qs_set *s, const focus *f, uint32_t v, const hidden *h, reads_memo *m,
                          const time_bound *tb, reading_run *rr)
{
    const res_program *p = s->vm[0]->pg->res;
    const char **skip = mem_calloc(s->nstats + 1, sizeof *skip);
    bool *watched = mem_calloc(s->nstats + 1, sizeof *watched); /* per stat */
    if (!skip || !watched) {
        mem_free(skip);
        mem_free(watched);
        return HON_ERR_MEMORY;
    }
    for (size_t k = 0; k < s->nstats; k++) { /* the queries that cannot differ are left out */
        int32_t id = model_find_query(p, s->stats[k].query);
        skip[k] = s->stats[k].skip;
        if (!skip[k] && id >= 0 && !focus_query(f, (uint32_t)id))
            s->stats[k].skip = SKIP_CANNOT;
        if (skip[k] && qs_skip_unaskable(skip[k]) && id >= 0 && focus_query(f, (uint32_t)id) &&
            !rr->unasked++) {
            rr->unasked_query = s->stats[k].query;
            rr->unasked_why = skip[k];
        }
        watched[k] = id >= 0 && !h->query[id];
    }
    hon_status st = HON_OK;
    for (size_t b = 0; st == HON_OK && !rr->late && b < s->nboards; b++) {
        if (!worth_entering(s, f, b) || (st = qs_enter(s, b)) != HON_OK)
            continue;
        qs_iter it = { 0 };
        qs_q q;
        while (st == HON_OK && qs_next(s, &it, &q)) {
            qs_ans x, y;
            if (q.text && !focus_chunk(f, q.text->ch[0]))
                continue;
            if (time_is_up(tb)) { /* the reading is not checked: its line is not written */
                rr->late = true;
                break;
            }
            bool have_x = false;
            if (q.text ? !focus_chunk_calls(f, h->query, h->fn, q.text->ch[0]) : watched[q.stat]) {
                uint16_t *slot = reads_slot(m, s, b, &q, &it);
                if (!slot ||
                    (*slot == READS_UNKNOWN && !(have_x = ask_watched(s, m, &q, &x, slot)))) {
                    st = HON_ERR_MEMORY;
                    break;
                }
                if ((st = qs_interrupted(s)) != HON_OK)
                    break;
                if (!reads_variant(m, *slot, v)) { /* the reading cannot change it */
                    rr->asked++;
                    rr->ints |= int_call(s, &q); /* its query can: other ints may */
                    continue;
                }
            }
            if ((!have_x && !qs_ask(s, 0, &q, &x, false)) || !qs_ask(s, 1, &q, &y, false)) {
                st = HON_ERR_MEMORY;
                break;
            }
            m->work.setting += !have_x;
            m->work.reading++;
            if ((st = qs_interrupted(s)) != HON_OK) /* the answers may be E231s: no line */
                break;
            rr->asked++;
            rr->ints |= int_call(s, &q);
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
    mem_free(watched);
    return st;
}

/* Writes the line of reading `reading` of variant `var`: the questions that differ (and the
 * first), else the witness of the search, else that it never changes an answer (no board
 * query reads it, no int parameter is asked over a range only and no query that can read it
 * goes unasked) or that no change was found. */
static void put_line(strbuf *out, const char *var, const char *reading, const reading_run *rr,
                     const search_found *found, const hon_search_options *so, bool played,
                     const hon_question_set *qs)
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
    } else if (found->none_can && !rr->ints && !rr->unasked) {
        sb_puts(out, "never changes an answer (");
    } else {
        /* a bounded search is evidence, not proof: a board it did not make may still show
         * one (a marker it never places, a board larger than its bound) */
        sb_puts(out, "no change found (");
    }
    if (rr->asked)
        sb_printf(out, "none of the %zu questions that can read it differs", rr->asked);
    else
        sb_puts(out, "no question asked can read it");
    /* an int parameter asked over LO..HI only: the questions asked are not all there is to
     * ask, so the line says "no change found", never "never changes an answer" */
    if (rr->ints)
        sb_printf(out, ", int parameters asked over %lld..%lld only", (long long)qs->int_lo,
                  (long long)qs->int_hi);
    /* a query that can read it and that diff cannot ask (a list parameter...): nothing asked
     * proves it agrees, so the line says "no change found" and names it */
    if (rr->unasked)
        sb_printf(out, ", but %zu quer%s that can read it %s not asked (%s: %s)", rr->unasked,
                  rr->unasked == 1 ? "y" : "ies", rr->unasked == 1 ? "is" : "are",
                  rr->unasked_query, rr->unasked_why);
    if (found->found)
        sb_puts(out, ")\n");
    else if (found->none_can)
        sb_puts(out, "; no board query reads it");
    else if (found->swept)
        sb_printf(out, "; none of the %zu boards up to %u x %u shows one", found->boards,
                  so->max_size, so->max_size);
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
 * answer. Under a time bound tb, the search has so->seconds or the time left, the less; when
 * the time runs out before the reading's questions are all asked, *late is set and no line
 * is written. */
static hon_status one_reading(qs_set *s, reads_memo *rm, const char *setting, uint32_t v,
                              uint32_t m, const hon_search_options *so, size_t boards,
                              const time_bound *tb, strbuf *out, bool *changes, bool *late)
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
    hidden h = { 0 };
    if (st == HON_OK)
        st = hidden_build(&h, &f);
    if (st == HON_OK)
        st = ask_all(s, &f, v, &h, rm, tb, &rr);
    hidden_free(&h);
    const bool played = st == HON_OK && procedures_read(&f);
    focus_free(&f);
    search_found found = { 0 };
    hon_search_options sq = *so;
    if (tb->on && !rr.late && tb->seconds - time_spent(tb) < sq.seconds)
        sq.seconds = tb->seconds - time_spent(tb); /* the time left */
    if (tb->on && !rr.late && sq.seconds <= 0)
        rr.late = true;
    if (st == HON_OK && !rr.differ && !rr.late)
        st = search_quiet(a, b, &sq, boards, &found);
    if (st == HON_OK && !rr.late)
        put_line(out, var, reading, &rr, &found, &sq, played, &s->o);
    *changes = !rr.late && (rr.differ || found.found);
    *late = rr.late;
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
    return variants_compare(a, b, setting, qs, o, out, changing, NULL);
}

hon_status variants_compare(hon_vm *a, hon_vm *b, const char *setting, const hon_question_set *qs,
                            const hon_search_options *o, FILE *out, size_t *changing,
                            variants_work *work)
{
    if (changing)
        *changing = 0;
    if (work)
        *work = (variants_work){ 0 };
    if (!a || !b || !setting || !out)
        return HON_ERR_NOT_FOUND;
    hon_search_options so = o ? *o : (hon_search_options){ 0 };
    so.max_size = so.max_size ? so.max_size : VARIANTS_SIZE;
    /* no time given: the sizes in order, the same boards on any machine, VARIANTS_SECONDS at
     * most; a time given: it bounds the whole command (questions and searches), each reading's
     * search having an equal share of it (boards until the share, or the time left, runs out) */
    time_bound tb = { .on = so.seconds > 0, .seconds = so.seconds };
    clock_gettime(CLOCK_MONOTONIC, &tb.t0);
    size_t boards = tb.on ? 0 : search_sweep(so.max_size);
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
    reads_memo rm;
    if (!reads_init(&rm, &s, p->nvariants) && st == HON_OK)
        st = HON_ERR_MEMORY;
    size_t readings = 0, changed = 0;
    for (size_t v = 0; base && v < p->nvariants; v++)
        readings += p->enums[p->variants[v].enum_id].len - 1;
    so.seconds = !tb.on ? VARIANTS_SECONDS : readings ? tb.seconds / (double)readings : tb.seconds;
    const char *ed = hon_edition(a);
    strbuf text = { 0 };
    sb_printf(&text,
              "variants under %s: %zu variants, %zu other readings, each compared with the "
              "setting's (answers: setting | reading); when no question differs, a search ",
              *setting ? setting
              : ed     ? ed
                       : "no edition",
              p->nvariants, readings);
    if (boards)
        sb_printf(&text, "of %zu boards up to %u x %u (seed %llu, %g s at most)\n", boards,
                  so.max_size, so.max_size, (unsigned long long)so.seed, so.seconds);
    else
        sb_printf(&text, "up to %u x %u for %g s (seed %llu); all within %g s\n", so.max_size,
                  so.max_size, so.seconds, (unsigned long long)so.seed, tb.seconds);
    strbuf unchecked = { 0 }; /* the readings the time left unchecked, "v=r, v=r" */
    size_t nlate = 0;
    for (uint32_t v = 0; st == HON_OK && v < p->nvariants; v++)
        for (uint32_t m = 0; st == HON_OK && m < p->enums[p->variants[v].enum_id].len; m++) {
            bool changes = false, late = nlate > 0 || time_is_up(&tb);
            if ((int32_t)m != base[v] && !late &&
                (st = one_reading(&s, &rm, setting, v, m, &so, boards, &tb, &text, &changes,
                                  &late)) == HON_OK)
                changed += changes;
            if ((int32_t)m != base[v] && late && st == HON_OK)
                sb_printf(&unchecked, "%s%s=%s", nlate++ ? ", " : "", p->variants[v].name,
                          p->enums[p->variants[v].enum_id].members[m].name);
            st = st == HON_OK ? flush(&text, out) : st; /* a line as soon as it is known */
        }
    if (st == HON_OK && unchecked.oom)
        st = HON_ERR_MEMORY;
    if (st == HON_OK && nlate)
        sb_printf(&text, "time is up (%g s): %zu of %zu readings not checked: %s\n", tb.seconds,
                  nlate, readings, sb_str(&unchecked));
    sb_free(&unchecked);
    if (st == HON_OK) {
        if (nlate == readings)
            sb_puts(&text, "no reading checked\n");
        else if (nlate)
            sb_printf(&text, "%zu of the %zu readings checked change an answer\n", changed,
                      readings - nlate);
        else
            sb_printf(&text, "%zu of %zu readings change an answer\n", changed, readings);
        st = flush(&text, out);
    }
    hon_drop_board(a);
    hon_drop_board(b);
    if (changing)
        *changing = changed;
    if (work)
        *work = rm.work;
    reads_free(&rm);
    sb_free(&text);
    mem_free(base);
    qs_free(&s);
    return st;
}
