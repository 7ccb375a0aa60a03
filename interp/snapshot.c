/* snapshot.c — recorded answers (hon.h: hon_snapshot_record, hon_snapshot_check): every answer
 * of a question set (questions.h) under one setting, written as a readable text file — a
 * header saying the setting and how the set was made, then board by board one line per
 * question, `QUESTION = ANSWER` — and checked later by asking the same set again: the answers
 * that changed (with the new brief trace), the questions gone, the new ones. docs/spec/repl.md
 * §5 gives the format.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "hash.h"
#include "mem.h"
#include "questions.h"

#define SNAP_MAGIC "# hon snapshot 1"
/* The largest snapshot file: what snap_read reads, and so what hon_snapshot_record writes (a
 * record hon writes is one it can read back). A check holds the file's text twice (its lines
 * and the diagnostics' copy) and one entry per answer, besides the questions it asks again:
 * checking 66 MB of the bundled rules' answers peaked at 665 MB resident (measured), within
 * the session's default memory cap of 1 GiB, where their whole question set (3.8 million
 * answers, 194 MB) ran out of it (E406). */
#define SNAP_MAX_BYTES ((size_t)64 << 20)

/* ---- recording ---- */

/* The first " = " of text q outside brackets and strings, or NULL. A question whose text holds
 * one is written in parentheses, so that in a snapshot's line the first such " = " always
 * ends the question. */
static const char *top_equals(const char *q)
{
    int depth = 0;
    bool str = false;
    for (const char *c = q; *c; c++) {
        if (*c == '"')
            str = !str;
        else if (!str && (*c == '(' || *c == '[' || *c == '{'))
            depth++;
        else if (!str && (*c == ')' || *c == ']' || *c == '}'))
            depth--;
        else if (!str && depth == 0 && strncmp(c, " = ", 3) == 0)
            return c;
    }
    return NULL;
}

/* Writes question q as a snapshot writes it. */
static void put_question(const qs_set *s, const qs_q *q, strbuf *out)
{
    strbuf t = { 0 };
    qs_question(s, q, &t);
    bool p = top_equals(sb_str(&t)) != NULL;
    sb_printf(out, "%s%s%s", p ? "(" : "", sb_str(&t), p ? ")" : "");
    if (t.oom)
        sb_fail(out);
    sb_free(&t);
}

/* The header: how the question set was made. */
static void put_header(const char *setting, const hon_question_set *q, strbuf *out)
{
    sb_printf(out,
              "%s\n# Answers of the rules, one line each: QUESTION = ANSWER.\n"
              "# `hon snapshot check FILE` asks them again and lists what changed.\n",
              SNAP_MAGIC);
    sb_printf(out, "setting %s\nbundled-boards %s\n", setting, q->bundled_boards ? "yes" : "no");
    for (size_t i = 0; i < q->nboards; i++)
        sb_printf(out, "board %s\n", q->boards[i]);
    for (size_t i = 0; i < q->nfiles; i++)
        sb_printf(out, "questions %s\n", q->files[i]);
    sb_printf(out, "tests %s\nfinite %s\ncap %zu\n", q->tests ? "yes" : "no",
              q->finite ? "yes" : "no", q->cap ? q->cap : (size_t)QS_CAP);
    if (q->int_lo > q->int_hi)
        sb_puts(out, "ints none\n");
    else
        sb_printf(out, "ints %lld..%lld\n", (long long)q->int_lo, (long long)q->int_hi);
}

/* The section line of board b. */
static void put_section(const qs_set *s, size_t b, strbuf *out)
{
    if (s->boards[b].label)
        sb_printf(out, "\n[board %s]\n", s->boards[b].label);
    else
        sb_puts(out, "\n[no board]\n");
}

hon_status hon_snapshot_record(hon_vm *vm, const char *setting, const hon_question_set *qs,
                               FILE *out, size_t *count, FILE *notes)
{
    if (count)
        *count = 0;
    if (!vm || !out)
        return HON_ERR_NOT_FOUND;
    if (!setting)
        setting = "";
    hon_status st = hon_apply_setting(vm, setting, "<setting>");
    qs_set s;
    if (st == HON_OK)
        st = qs_build(&s, &vm, 1, qs);
    else
        memset(&s, 0, sizeof s);
    strbuf text = { 0 };
    if (st == HON_OK)
        put_header(setting, &s.o, &text);
    size_t n = 0;
    for (size_t b = 0; st == HON_OK && b < s.nboards; b++) {
        if ((st = qs_enter(&s, b)) != HON_OK)
            break;
        qs_iter it = { 0 };
        qs_q q;
        for (size_t k = 0; st == HON_OK && qs_next(&s, &it, &q); k++, n++) {
            qs_ans a;
            if (!qs_ask(&s, 0, &q, &a, true)) {
                st = HON_ERR_MEMORY;
                break;
            }
            if (k == 0)
                put_section(&s, b, &text);
            put_question(&s, &q, &text);
            sb_printf(&text, " = %s\n", a.text);
            if (text.len > SNAP_MAX_BYTES) {
                session_report(vm, E_SNAPSHOT_TOO_LARGE, "<snapshot>",
                               "the snapshot would be larger than %zu MiB, the most `snapshot "
                               "check` reads (%zu answers so far, on board %zu of %zu): record "
                               "fewer questions (--no-bundled-boards with --board FILE, a "
                               "smaller --cap N)",
                               SNAP_MAX_BYTES >> 20, n + 1, b + 1, s.nboards);
                st = HON_ERR_NOT_FOUND;
                break;
            }
        }
    }
    hon_drop_board(vm);
    /* what the cap left out, in the file (comments: `check` skips them) and to the caller */
    strbuf capped = { 0 };
    if (st == HON_OK && s.capped.len) {
        sb_puts(&text, "\n");
        qs_capped(&s, "# ", &text);
        qs_capped(&s, "", &capped);
    }
    if (st == HON_OK && (text.oom || capped.oom))
        st = HON_ERR_MEMORY;
    if (st == HON_OK && text.len > SNAP_MAX_BYTES) { /* the answers fit, not their notes */
        session_report(vm, E_SNAPSHOT_TOO_LARGE, "<snapshot>",
                       "the snapshot would be larger than %zu MiB, the most `snapshot check` "
                       "reads: record fewer questions (--no-bundled-boards with --board FILE, a "
                       "smaller --cap N)",
                       SNAP_MAX_BYTES >> 20);
        st = HON_ERR_NOT_FOUND;
    }
    if (st == HON_OK && fwrite(sb_str(&text), 1, text.len, out) != text.len)
        st = HON_ERR_IO;
    if (st == HON_OK && notes && capped.len &&
        fwrite(sb_str(&capped), 1, capped.len, notes) != capped.len)
        st = HON_ERR_IO;
    sb_free(&capped);
    if (count && st == HON_OK)
        *count = n;
    sb_free(&text);
    qs_free(&s);
    return st;
}

/* ---- reading a snapshot ---- */

/* A recorded answer, found by its board's label and its question. */
typedef struct snap_rec {
    char *key; /* "LABEL\nQUESTION" (LABEL "" for no board) */
    const char *answer;
    const char *board; /* the label, "" for no board (borrowed from key) */
    const char *question;
    uint32_t line;
    bool seen;
    UT_hash_handle hh;
} snap_rec;

/* A snapshot file as read. */
typedef struct snap {
    const char *path;
    char *text; /* the file, cut in place into lines */
    uint32_t id;
    snap_rec *recs; /* uthash */
    hon_question_set qs;
    const char **boards, **files; /* the header's, pointing into text */
    uint32_t *board_lines;        /* the line of each of boards */
    char *setting;
    uint32_t setting_line, setting_col;
    uint32_t ints_line, cap_line; /* the header's `ints` and `cap` lines (0: none) */
} snap;

static void snap_free(snap *sn)
{
    snap_rec *r, *tmp;
    HASH_ITER(hh, sn->recs, r, tmp)
    {
        HASH_DEL(sn->recs, r);
        mem_free(r->key);
        mem_free(r);
    }
    mem_free(sn->text);
    mem_free(sn->boards);
    mem_free(sn->board_lines);
    mem_free(sn->files);
}

/* Reports error code at line `line` of the snapshot, the n bytes at column col. */
static void snap_error(hon_vm *vm, const snap *sn, int code, uint32_t line, size_t col, size_t n,
                       const char *msg, const char *what)
{
    uint32_t c = (uint32_t)col;
    session_report_at(vm, code, (ast_loc){ sn->id, line, c, line, c + (n ? (uint32_t)n - 1 : 0) },
                      "%s%s", msg, what ? what : "");
}

/* yes/no into *b. */
static bool yes_no(const char *v, bool *b)
{
    *b = strcmp(v, "yes") == 0;
    return *b || strcmp(v, "no") == 0;
}

/* One header line `KEY VALUE` (VALUE may be empty for `setting`): into sn, cut at the space
 * (l the key, *value the value). NULL when it is read; else what is wrong: "" for a key that is
 * not known, else what the key takes. */
static const char *header_line(snap *sn, char *l, uint32_t line, const char **value)
{
    char *v = strchr(l, ' ');
    if (v)
        *v++ = '\0';
    else
        v = l + strlen(l);
    hon_question_set *q = &sn->qs;
    char *end;
    *value = v;
    const char *want = NULL; /* the value the key takes, when v is not one */
    if (strcmp(l, "setting") == 0) {
        sn->setting = v;
        sn->setting_line = line;
        sn->setting_col = (uint32_t)(v - l) + 1;
        return NULL;
    } else if (strcmp(l, "board") == 0 || strcmp(l, "questions") == 0) {
        if (*v && l[0] == 'b') {
            sn->board_lines[q->nboards] = line;
            sn->boards[q->nboards++] = v;
        } else if (*v)
            sn->files[q->nfiles++] = v;
        else
            want = "a path";
    } else if (strcmp(l, "bundled-boards") == 0) {
        want = yes_no(v, &q->bundled_boards) ? NULL : "yes or no";
    } else if (strcmp(l, "tests") == 0) {
        want = yes_no(v, &q->tests) ? NULL : "yes or no";
    } else if (strcmp(l, "finite") == 0) {
        want = yes_no(v, &q->finite) ? NULL : "yes or no";
    } else if (strcmp(l, "cap") == 0) {
        errno = 0;
        unsigned long long c = strtoull(v, &end, 10);
        q->cap = (size_t)c;
        /* as --cap (repl/compare.c parse_count): a number that does not fit is no cap */
        want = *v >= '1' && *v <= '9' && !*end && errno != ERANGE && c <= SIZE_MAX
                   ? NULL
                   : "a positive integer";
    } else if (strcmp(l, "ints") == 0 && strcmp(v, "none") == 0) {
        q->int_lo = 1;
        q->int_hi = 0;
    } else if (strcmp(l, "ints") == 0) {
        errno = 0;
        long long lo = strtoll(v, &end, 10), hi = 0;
        char *e2 = end;
        if (end != v && strncmp(end, "..", 2) == 0)
            hi = strtoll(end + 2, &e2, 10);
        q->int_lo = lo;
        q->int_hi = hi;
        /* as --ints (repl/compare.c parse_ints): a number out of range is refused, not clamped,
           and the width is taken unsigned, as hi - lo overflows a long long for a range wider
           than half of it (-5e18..5e18 passed as "at most 1000 apart") */
        if (errno == ERANGE || end == v || strncmp(end, "..", 2) != 0 || e2 == end + 2 || *e2 ||
            lo > hi || (unsigned long long)hi - (unsigned long long)lo > 1000)
            want = "LO..HI (LO at most HI, at most 1000 apart) or none";
    } else
        want = "";
    return want;
}

/* A line `QUESTION = ANSWER` of the section of board `section` (its label, "" for no board)
 * into the records. False when it is not one, or on OOM (*oom). A question recorded already
 * for that board is not added: *twice is set to the line that records it (else 0), and l is
 * left cut before ` = `. */
static bool answer_line(snap *sn, const char *section, char *l, uint32_t line, bool *oom,
                        uint32_t *twice)
{
    *twice = 0;
    char *eq = (char *)top_equals(l);
    if (!eq || eq == l || !section)
        return false;
    *eq = '\0';
    size_t bl = strlen(section), ql = strlen(l);
    snap_rec *r = mem_calloc(1, sizeof *r);
    if (r)
        r->key = mem_malloc(bl + ql + 2);
    if (!r || !r->key) {
        mem_free(r);
        *oom = true;
        return false;
    }
    memcpy(r->key, section, bl);
    r->key[bl] = '\n';
    memcpy(r->key + bl + 1, l, ql + 1);
    r->board = section;
    r->question = r->key + bl + 1;
    r->answer = eq + 3;
    r->line = line;
    snap_rec *old;
    HASH_FIND(hh, sn->recs, r->key, bl + ql + 1, old);
    if (!old)
        HASH_ADD_KEYPTR(hh, sn->recs, r->key, bl + ql + 1, r);
    if (old || !HON_HASH_ADDED(r)) {
        *oom = !old;
        if (old)
            *twice = old->line;
        mem_free(r->key);
        mem_free(r);
        return old != NULL;
    }
    return true;
}

/* Reads the snapshot at `path`: its header into sn->qs and sn->setting, its answers into
 * sn->recs. Reported: E498 unreadable, E410 no snapshot or a bad header line, E411 a bad line. */
static hon_status snap_read(hon_vm *vm, const char *path, snap *sn)
{
    size_t len;
    *sn = (snap){ .path = path };
    hon_status st =
        session_read_file_max(vm, path, E_QUESTION_READ, SNAP_MAX_BYTES, &sn->text, &len);
    if (st != HON_OK)
        return st;
    sn->id = diag_sources_add(&vm->sources, path, sn->text, len);
    size_t nlines = 1;
    for (size_t i = 0; i < len; i++)
        nlines += sn->text[i] == '\n';
    sn->boards = mem_calloc(nlines, sizeof *sn->boards);
    sn->board_lines = mem_calloc(nlines, sizeof *sn->board_lines);
    sn->files = mem_calloc(nlines, sizeof *sn->files);
    if (sn->id == UINT32_MAX || !sn->boards || !sn->files || !sn->board_lines)
        return HON_ERR_MEMORY;
    qs_defaults(&sn->qs);
    sn->qs.boards = sn->boards;
    sn->qs.files = sn->files;
    sn->qs.bundled_boards = false;
    bool header = true, oom = false, skipping = false; /* skipping: after a broken section */
    uint32_t twice = 0;
    const char *want, *value;
    size_t bad = 0;
    const char *section = NULL;
    uint32_t line = 1;
    if (len == 0) { /* no first line to underline */
        snap_error(vm, sn, E_SNAPSHOT_HEADER, 1, 1, 0,
                   "not a snapshot: the file is empty (its first line must be '" SNAP_MAGIC "')",
                   NULL);
        return HON_ERR_COMPILE;
    }
    for (char *l = sn->text; !oom && l < sn->text + len; line++) {
        char *nl = strchr(l, '\n'), *next = nl ? nl + 1 : sn->text + len;
        if (nl)
            *nl = '\0';
        size_t n = strlen(l);
        if (n && l[n - 1] == '\r') /* a CRLF line ending: the \r is no part of the line */
            l[--n] = '\0';
        twice = 0;
        if (line == 1 && strcmp(l, SNAP_MAGIC) != 0) {
            snap_error(vm, sn, E_SNAPSHOT_HEADER, 1, 1, n,
                       "not a snapshot: its first line is not '" SNAP_MAGIC "'", NULL);
            return HON_ERR_COMPILE;
        }
        if (header && strncmp(l, "ints ", 5) == 0)
            sn->ints_line = line;
        else if (header && strncmp(l, "cap ", 4) == 0)
            sn->cap_line = line;
        if (line == 1 || l[0] == '#' || (!header && !n)) {
        } else if (header && !n) {
            header = false;
        } else if (header && (want = header_line(sn, l, line, &value))) {
            if (!want[0])
                snap_error(vm, sn, E_SNAPSHOT_HEADER, line, 1, n,
                           "not a header line (setting, bundled-boards, board, questions, tests, "
                           "finite, cap, ints): ",
                           l);
            else { /* a key of the header, its value wrong: said so, at the value */
                uint32_t c = (uint32_t)(value - l) + 1;
                size_t vl = strlen(value);
                session_report_at(
                    vm, E_SNAPSHOT_HEADER,
                    (ast_loc){ sn->id, line, c, line, c + (vl ? (uint32_t)vl - 1 : 0) },
                    "the header's '%s' takes %s, not '%s'", l, want, value);
            }
            bad++;
        } else if (!header && strcmp(l, "[no board]") == 0) {
            section = "";
            skipping = false;
        } else if (!header && strncmp(l, "[board ", 7) == 0 && n > 8 && l[n - 1] == ']') {
            l[n - 1] = '\0';
            section = l + 7;
            skipping = false;
        } else if (!header && l[0] == '[') {
            /* a broken section line: said once, and its answers are not each "before any
               [board] line" */
            snap_error(vm, sn, E_SNAPSHOT_LINE, line, 1, n,
                       "not a section line: '[no board]' or '[board FILE]'", NULL);
            bad++;
            section = NULL;
            skipping = true;
        } else if (!header && skipping && !section) {
        } else if (!header && !answer_line(sn, section, l, line, &oom, &twice) && !oom) {
            snap_error(vm, sn, E_SNAPSHOT_LINE, line, 1, n,
                       section ? "not QUESTION = ANSWER" : "an answer before any [board] line",
                       NULL);
            bad++;
        } else if (twice) {
            /* one answer a question (repl.md §5): a second line for it, as a hand edit or a
               merge keeping both sides leaves, would pin an answer the check never asks */
            char first[96];
            snprintf(first, sizeof first,
                     "line %" PRIu32 " records it already: a snapshot holds one answer a "
                     "question",
                     twice);
            snap_error(vm, sn, E_SNAPSHOT_TWICE, line, 1, strlen(l),
                       "this question is recorded twice for its board; ", first);
            bad++;
        }
        l = next;
    }
    if (oom)
        return HON_ERR_MEMORY;
    if (!sn->setting && !bad) {
        snap_error(vm, sn, E_SNAPSHOT_HEADER, 1, 1, strlen(SNAP_MAGIC),
                   "the header says no setting", NULL);
        bad++;
    }
    return bad ? HON_ERR_COMPILE : HON_OK;
}

/* ---- checking ---- */

/* What a check found. */
typedef struct check_run {
    snap *sn;
    qs_set s;
    strbuf out;
    size_t checked, changed, added, gone;
    size_t text; /* the bytes `record` would write for the answers asked so far */
} check_run;

/* Writes `text` with every line indented by `pad`. */
static void indented(strbuf *out, const char *text, const char *pad)
{
    for (const char *c = text; *c;) {
        size_t n = strcspn(c, "\n");
        sb_printf(out, "%s%.*s\n", pad, (int)n, c);
        c += n + (c[n] == '\n');
    }
}

/* Checks question q of the current board (labelled `label`) against the record. */
static hon_status check_question(check_run *c, const char *label, const qs_q *q)
{
    strbuf key = { 0 };
    sb_printf(&key, "%s\n", label);
    size_t at = key.len;
    put_question(&c->s, q, &key);
    qs_ans a;
    if (key.oom || !qs_ask(&c->s, 0, q, &a, true)) {
        sb_free(&key);
        return HON_ERR_MEMORY;
    }
    /* a record of these answers would be larger than any snapshot (record's E433): a header
     * that asks more than a record holds (a hand-edited cap, say) is refused here, before its
     * questions run the session out of time or memory */
    c->text += key.len - at + strlen(" = \n") + strlen(a.text);
    if (c->text > SNAP_MAX_BYTES) {
        /* said at the header line that sets how many answers there are: `cap` (the calls asked
         * per query and board, the number the message asks to lower; a record always writes
         * it), else `ints`, else the first line, its key underlined */
        const snap *sn = c->sn;
        uint32_t line = sn->cap_line ? sn->cap_line : sn->ints_line ? sn->ints_line : 1;
        uint32_t n = (uint32_t)(sn->cap_line    ? strlen("cap")
                                : sn->ints_line ? strlen("ints")
                                                : strlen(SNAP_MAGIC));
        session_report_at(c->s.vm[0], E_SNAPSHOT_TOO_LARGE, (ast_loc){ sn->id, line, 1, line, n },
                          "the snapshot's questions make more than %zu MiB of answers, more "
                          "than a snapshot holds (%zu answers so far): its header asks more "
                          "questions than `snapshot record` writes (record it again, or give it "
                          "a smaller cap or fewer boards)",
                          SNAP_MAX_BYTES >> 20, c->checked + 1);
        sb_free(&key);
        return HON_ERR_NOT_FOUND;
    }
    snap_rec *r;
    HASH_FIND(hh, c->sn->recs, key.s, key.len, r);
    const char *shown = label[0] ? label : "no board";
    c->checked++;
    if (!r) {
        c->added++;
        sb_printf(&c->out, "new: [%s] %s = %s\n", shown, key.s + at, a.text);
    } else if ((r->seen = true) && strcmp(r->answer, a.text) != 0) {
        c->changed++;
        sb_printf(&c->out, "changed: [%s] %s\n  recorded: %s   (%s:%u)\n  now:      %s\n", shown,
                  key.s + at, r->answer, c->sn->path, r->line, a.text);
        hon_answer *t = qs_ask_traced(&c->s, 0, q);
        if (t)
            indented(&c->out, hon_answer_why(t), "    ");
        hon_answer_free(t);
    }
    sb_free(&key);
    return HON_OK;
}

static int cmp_recs(const void *x, const void *y)
{
    const snap_rec *a = *(snap_rec *const *)x, *b = *(snap_rec *const *)y;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* Lists the recorded questions that were not asked again, in the file's order. */
static bool list_gone(check_run *c)
{
    size_t n = HASH_COUNT(c->sn->recs), k = 0;
    snap_rec **gone = mem_calloc(n ? n : 1, sizeof *gone), *r, *tmp;
    if (!gone)
        return false;
    HASH_ITER(hh, c->sn->recs, r, tmp)
    if (!r->seen)
        gone[k++] = r;
    qsort(gone, k, sizeof *gone, cmp_recs);
    for (size_t i = 0; i < k; i++)
        sb_printf(&c->out, "gone: [%s] %s = %s   (%s:%u)\n",
                  gone[i]->board[0] ? gone[i]->board : "no board", gone[i]->question,
                  gone[i]->answer, c->sn->path, gone[i]->line);
    c->gone = k;
    mem_free(gone);
    return true;
}

/* Each board of the header that cannot be read: E398 at its header line (the board's own load
 * would say it with no place in the snapshot). HON_OK when all can. */
static hon_status boards_readable(hon_vm *vm, const snap *sn)
{
    hon_status st = HON_OK;
    for (size_t i = 0; i < sn->qs.nboards; i++) {
        char *text;
        size_t len;
        int err = file_read(sn->boards[i], SNAP_MAX_BYTES, &text, &len);
        if (err == ENOMEM)
            return HON_ERR_MEMORY;
        if (err) {
            uint32_t line = sn->board_lines[i], c = (uint32_t)strlen("board ") + 1;
            session_report_at(
                vm, E_SCN_READ,
                (ast_loc){ sn->id, line, c, line, c + (uint32_t)strlen(sn->boards[i]) - 1 },
                "cannot read the board '%s': %s", sn->boards[i], file_error(err));
            st = HON_ERR_IO;
        }
        mem_free(text);
    }
    return st;
}

/* Memory ran out answering the questions of snapshot sn (checked of them so far): said at the
 * header line that sets how many there are, `ints` (each int parameter is asked at every value
 * of its range), else `cap`, else the first line; E230 when it is the session's memory cap. */
static void snap_out_of_memory(hon_vm *vm, const snap *sn, size_t checked)
{
    uint32_t line = sn->ints_line ? sn->ints_line : sn->cap_line ? sn->cap_line : 1;
    size_t n = sn->ints_line ? strlen("ints") : sn->cap_line ? strlen("cap") : strlen(SNAP_MAGIC);
    char why[160];
    bool cap = mem_cap_hit();
    if (cap) {
        mem_cap_clear();
        snprintf(why, sizeof why,
                 "the session's memory cap (%zu MiB) was reached: set a larger one with "
                 "--max-memory or `limit memory N`, or ask fewer questions",
                 mem_cap() >> 20);
    } else if (mem_cap()) { /* a value's allocation that failed may have said nothing */
        snprintf(why, sizeof why,
                 "out of memory (the session's memory cap is %zu MiB: --max-memory or `limit "
                 "memory N` sets it)",
                 mem_cap() >> 20);
    } else {
        snprintf(why, sizeof why, "out of memory");
    }
    char msg[128];
    snprintf(msg, sizeof msg, "answering the questions this header asks (%zu checked): ", checked);
    snap_error(vm, sn, cap ? E_MEMORY_CAP : E_PROGRAM_MEMORY, line, 1, n, msg, why);
}

hon_status hon_snapshot_check(hon_vm *vm, const char *path, FILE *out, size_t *changed)
{
    if (changed)
        *changed = 0;
    if (!vm || !path || !out)
        return HON_ERR_NOT_FOUND;
    snap sn;
    check_run c = { .sn = &sn };
    hon_status st = snap_read(vm, path, &sn);
    bool read = st == HON_OK;
    if (st == HON_OK)
        st = boards_readable(vm, &sn);
    if (st == HON_OK)
        st = choice_apply_setting_at(vm, sn.setting, sn.id, sn.setting_line, sn.setting_col);
    if (st == HON_OK)
        st = qs_build(&c.s, &vm, 1, &sn.qs);
    for (size_t b = 0; st == HON_OK && b < c.s.nboards; b++) {
        if ((st = qs_enter(&c.s, b)) != HON_OK)
            break;
        const char *label = c.s.boards[b].label ? c.s.boards[b].label : "";
        qs_iter it = { 0 };
        qs_q q;
        while (st == HON_OK && qs_next(&c.s, &it, &q))
            st = check_question(&c, label, &q);
    }
    hon_drop_board(vm);
    if (st == HON_OK && !list_gone(&c))
        st = HON_ERR_MEMORY;
    if (st == HON_OK) {
        sb_printf(&c.out, "snapshot %s: %zu answer%s checked, %zu changed, %zu new, %zu gone\n",
                  path, c.checked, c.checked == 1 ? "" : "s", c.changed, c.added, c.gone);
        if (c.out.oom)
            st = HON_ERR_MEMORY;
        else if (fwrite(sb_str(&c.out), 1, c.out.len, out) != c.out.len)
            st = HON_ERR_IO;
    }
    if (st == HON_ERR_MEMORY && read)
        snap_out_of_memory(vm, &sn, c.checked);
    if (changed && st == HON_OK)
        *changed = c.changed + c.added + c.gone;
    sb_free(&c.out);
    qs_free(&c.s);
    snap_free(&sn);
    return st;
}
