/* questions.h — a question set (hon.h: hon_question_set) made concrete against one or two
 * sessions of the same rules (diff.c compares two, snapshot.c records one): its boards, each
 * with the questions written as text (the loaded tests' expectations, the lines of question
 * files) and the *plans* of its queries (one query's calls over the values of its parameters:
 * the board's things, the members of finite types), and the queries that cannot be asked and
 * why. Questions are asked fast — through query handles (hon_call_query_text) or chunks
 * compiled once, untraced, compared by value — or traced, to explain a difference.
 */
#ifndef HON_QUESTIONS_H
#define HON_QUESTIONS_H

#include "session.h"

#define QS_VMS      2                 /* sessions a set asks at most */
#define QS_TEXT_CAP ((size_t)1 << 16) /* bytes of an answer's text compared (a longer one is cut) */
#define QS_CAP      20000             /* the default cap of calls per query and board */

/* The values one parameter ranges over, and their names as a question writes them. */
typedef struct qs_dom {
    char *key; /* what it is the domain of: a type name, or "#unit"... for the board's things */
    hon_value *vals;
    char **names;
    size_t n, cap;
} qs_dom;

/* A query of the program: its parameters, its handles in each session, what its answers are
 * compared by, or why it is not asked. */
typedef struct qs_stat {
    char *query;
    size_t nparams;
    hon_type_kind kinds[16];
    char *types[16]; /* owned: the parameters' type names (an enum's is its name) */
    hon_query_handle *h[QS_VMS];
    bool text;        /* its answers are lists, sets or records: compared as text */
    bool board;       /* a parameter is a thing of the board */
    const char *skip; /* why it is not asked (static), or NULL */
} qs_stat;

/* One query's calls on the current board: the cross product of its parameters' domains, at
 * most the set's cap, spread evenly when there are more. */
typedef struct qs_plan {
    uint32_t stat;
    uint32_t dom[16]; /* each parameter's domain: an index in qs_set.doms */
    uint64_t total;   /* combinations */
    uint64_t asked;   /* how many of them are asked: total, or the cap */
} qs_plan;

/* A question written as text, and its chunk in each session (compiled once). */
typedef struct qs_text {
    char *text;
    char *origin;  /* where it was written: "tests/rules/los.hon:22:3" */
    uint32_t stat; /* the query it calls, when it is a call of one; else UINT32_MAX */
    chunk *ch[QS_VMS];
    ast_file *file[QS_VMS];
    uint32_t type[QS_VMS];
} qs_text;

/* A board of the set (or none: the finite queries and the texts asked with no board). */
typedef struct qs_board {
    char *label; /* the name shown: the path as given (a bundled board:
                    examples/boards/NAME.scn); NULL: no board */
    char *path;
    bool enumerate; /* ask every call its things allow (a bundled or given board) */
    char *text;     /* a board made in memory (search.c): its scenario text, or NULL */
    size_t len;
    qs_text *texts;
    size_t ntexts, texts_cap;
} qs_board;

/* The set, built for nvms sessions of the same rules. */
typedef struct qs_set {
    hon_question_set o;
    hon_vm *vm[QS_VMS];
    size_t nvms;
    qs_board *boards;
    size_t nboards, boards_cap;
    qs_stat *stats; /* one per query of vm[0], in declaration order */
    size_t nstats;
    /* the current board (qs_enter): its plans and the domains they borrow */
    size_t board;
    qs_plan *plans;
    size_t nplans, plans_cap;
    qs_dom *doms;
    size_t ndoms, doms_cap;
    bool *written;        /* per query: the current board has a text that calls it (a call that is
                      written as one of its texts is asked once, as the text) */
    strbuf capped;        /* "QUERY on BOARD: N calls, M asked (the cap…)" lines, as boards
                             are entered (qs_enter) */
    size_t skipped_plays; /* expectations of tests that play, not asked */
    size_t skipped_alone; /* expectations that do not compile on their own, not asked */
    size_t same_twice;    /* calls not asked: one thing of the board given twice */
    char *buf[QS_VMS];    /* answer texts (QS_TEXT_CAP bytes each) */
} qs_set;

/* One question: a call of a plan, or a text. */
typedef struct qs_q {
    const qs_plan *plan;
    const qs_text *text;
    uint32_t stat; /* plan->stat, or text->stat */
    hon_value args[16];
    uint32_t at[16]; /* a call's arguments as indexes in their domains */
    size_t nargs;
} qs_q;

/* Where an iteration of the current board's questions stands (zero it to start). */
typedef struct qs_iter {
    size_t text, plan;
    uint64_t k;
} qs_iter;

/* An answer asked fast: the status (HON_OK, HON_ERR_RUNTIME: an error is an answer,
 * HON_ERR_NOT_FOUND: the session has no such query), the value and, for a list, set or record,
 * an error or when asked for, its text (in the set's buffer of that session). */
typedef struct qs_ans {
    hon_status st;
    hon_value v;
    const char *text; /* NULL: a scalar not printed */
} qs_ans;

/* Whether skip, a qs_stat's reason for not asking its query, is one the set cannot ask at all
 * (a list, set or record parameter; an int one with no range; too many parameters), not one
 * left out by --query. */
bool qs_skip_unaskable(const char *skip);

/* Fills q with the defaults of hon_question_defaults. */
void qs_defaults(hon_question_set *q);
/* Builds s from the options o for the n sessions vms (the same rules; borrowed until qs_free):
 * the boards (each loaded once in vms[0] to check it), the expectations of the loaded tests,
 * the lines of the question files (compiled in every session), the queries. HON_OK; on errors
 * (reported, with positions) HON_ERR_COMPILE or HON_ERR_IO, HON_ERR_MEMORY. s is always
 * initialised (qs_free it). */
hon_status qs_build(qs_set *s, hon_vm *const *vms, size_t n, const hon_question_set *o);
void qs_free(qs_set *s);
/* Gives the set a board made in memory from the len bytes of scenario `text` (b SIZE_MAX: a
 * new one, labelled `label`, whose every call is asked), or gives board b (made so) new text.
 * The board's index, or SIZE_MAX on OOM. */
size_t qs_board_text(qs_set *s, size_t b, const char *label, const char *text, size_t len);
/* Makes board b the current one: loads it (or drops the board) in every session and makes its
 * plans. HON_OK, or the load's error (reported). */
hon_status qs_enter(qs_set *s, size_t b);
/* HON_OK, or when hon_interrupt stopped the work (state_interrupted) E231 reported in session
 * 0 and HON_ERR_RUNTIME: the loops asking questions (diff, search) look before each one. */
hon_status qs_interrupted(qs_set *s);
/* The next question of the current board into *q; false when there is none left. */
bool qs_next(qs_set *s, qs_iter *it, qs_q *q);
/* Asks q in session i, untraced; with `text`, a scalar answer is printed too. False when
 * memory ran out. */
bool qs_ask(qs_set *s, size_t i, const qs_q *q, qs_ans *a, bool text);
/* Whether two answers are the same. */
bool qs_same(const qs_ans *a, const qs_ans *b);
/* Asks q in session i again, traced: a new answer (a run-time error is one), or NULL when the
 * session has no such query or memory ran out. */
hon_answer *qs_ask_traced(qs_set *s, size_t i, const qs_q *q);
/* Writes q as its text: "line_of_sight($rifle1, $mg)", or the text it was written as. */
void qs_question(const qs_set *s, const qs_q *q, strbuf *out);
/* The name of query stat k ("(expression)" for a text that calls none). */
const char *qs_query_name(const qs_set *s, uint32_t k);
/* Writes what was not asked, one line each, with `prefix` before each: the queries that cannot
 * be asked (by reason), the calls past a cap, the expectations of tests that play. */
void qs_notes(const qs_set *s, const char *prefix, strbuf *out);
/* Of those, the calls past a cap alone: "PREFIXcapped: QUERY on BOARD: N calls, M asked (the
 * cap; --cap N asks more)", one line per query and board entered so far (qs_enter). */
void qs_capped(const qs_set *s, const char *prefix, strbuf *out);

#endif
