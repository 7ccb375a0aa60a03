/* runtime/scenario_text.h — the scenario loader's private state and its text helpers, shared
 * by the files of the loader only: scenario.c (the public API and pass 1: size, legend, map,
 * elevation, title, cites, colours), scenario_place.c (pass 2: elements, sides, interspaces,
 * squares and units on the board) and scenario_text.c (tokens, names, numbers, errors).
 */
#ifndef HON_SCENARIO_TEXT_H
#define HON_SCENARIO_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

#define MAX_ERRORS          50
#define MAX_TOKS            256
#define MAX_NAME            127
#define MAX_LEGEND_FEATURES 8

typedef enum tkind {
    T_WORD,
    T_STR,
    T_PUNCT
} tkind;

/* A token or a whitespace-separated field of one line; s points into the scenario text. */
typedef struct tok {
    tkind k;
    const char *s;
    int len;
    int col;
} tok;

typedef struct line_ref {
    size_t off, len; /* the line without its newline */
    int no;
} line_ref;

static inline bool text_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
static inline bool text_is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
static inline bool text_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

typedef struct legend_entry {
    bool set;
    int line, col;
    int terrain;      /* -1: no terrain */
    const char *name; /* in the text */
    int name_len;
    int nfeat;
    int feat[MAX_LEGEND_FEATURES];
    int fval[MAX_LEGEND_FEATURES];
    const char *fname[MAX_LEGEND_FEATURES];
    int fname_len[MAX_LEGEND_FEATURES];
} legend_entry;

typedef struct ename {
    char *name;
    int elem;
    int line;
} ename;

typedef enum block {
    B_NONE,
    B_LEGEND,
    B_MAP,
    B_ELEV,
    B_SKIP_GRID
} block;

typedef struct loader {
    const char *text;
    size_t len;
    const scn_resolver *r;
    scn_errors *errs;
    size_t first_err;
    int nerr;
    bool stopped, oom;
    bool directive; /* a known directive was read (pass 1): the text is a scenario */
    scenario *s;
    board *b;
    /* size */
    bool have_size, have_topo;
    bool size_line_seen; /* a size line was given, even one with an error */
    int w, h, size_line;
    geo_topology topo;
    /* legend, map, elevation */
    legend_entry legend[128];
    bool have_map, have_elev;
    int map_line, map_col, map_rows;
    int elev_line, elev_col, elev_rows;
    unsigned char *cells; /* w*h symbols, 0 = not given */
    int *cell_line, *cell_col;
    int *elev;
    int *terr; /* w*h terrain from the map, -1 */
    /* deferred lines and explicit elements */
    line_ref *deferred;
    size_t n_def, cap_def;
    ename *enames;
    size_t n_en, cap_en;
    bool *explicit_sq; /* w*h: square in an explicit element */
    /* scratch tokens */
    tok toks[MAX_TOKS];
    int ntok;
} loader;

/* ---- errors: each appended to l->errs, at most MAX_ERRORS, then E314 and no more ---- */

/* Appends one error as it is (no count, no cap): for E399 and E314. */
void text_push_error(loader *l, int code, int line, int col, int len, const char *msg);
/* Appends error E<code> at line:col spanning len bytes, with a printf-formatted message. */
void text_error(loader *l, int code, int line, int col, int len, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* The same, spanning token t. */
void text_tok_error(loader *l, int code, int line, const tok *t, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Notes that memory ran out (reported once, as E399, when the load ends). */
void text_oom(loader *l);

/* ---- lines and tokens ---- */

/* Whether token t is exactly the word w (text_tok_is_ci: ignoring the case of t). */
bool text_tok_is(const tok *t, const char *w);
bool text_tok_is_ci(const tok *t, const char *w);
/* Splits line lr (comment removed) into whitespace-separated fields in l->toks. False after
 * E301 (more than MAX_TOKS fields): the line is then not read further, and only that error is
 * reported for it (it is not tokenized again, here or in pass 2). */
bool text_split_fields(loader *l, const line_ref *lr);
/* Splits line lr into tokens in l->toks: words [A-Za-z0-9_]+ (with a leading '-' before a
 * digit), "strings", "..", and single punctuation characters. False after a lexical error. */
bool text_tokenize(loader *l, const line_ref *lr);

/* ---- values of tokens: each reports its own error and says it failed ---- */

/* Copies name token t into buf (MAX_NAME + 1 bytes). False (E301) when too long. */
bool text_name(loader *l, int line, const tok *t, char *buf);
/* Whether t is an identifier: letters, digits and underscores, not starting with a digit. */
bool text_is_ident(const tok *t);
/* The id of name token t in id space k, through the caller's resolver; -1 after E301 (not a
 * name) or E303 (not declared). Names the id on the board when it has no name yet. */
int text_resolve(loader *l, int line, board_name_kind k, const tok *t);
/* The integer of token t, in [lo, hi]; false after E301 (not a number) or E315 (out of
 * range). */
bool text_int(loader *l, int line, const tok *t, long lo, long hi, long *out);
/* The square named by token t: -2 when t is not a coordinate at all, -1 (after E304) when it
 * is one but off the board, else the square. */
int text_square(loader *l, int line, const tok *t);
/* The compass direction (geo_dir) of token t, or -1 when it is not one. */
int text_dir(const tok *t);
/* The name of direction d ("NE"), "?" when out of range. */
const char *text_dir_name(int d);
/* Whether direction d exists on boards of topology topo (hexes have no east or west side). */
bool text_dir_ok(geo_topology topo, int d);
/* A new NUL-terminated copy of string token t with its escapes (\n, \", \\) undone; NULL
 * on OOM. */
char *text_unescape(const tok *t);
/* Sets (*arr)[id] to a copy of colour token c, growing the array of *n entries. */
void text_set_colour(loader *l, char ***arr, size_t *n, int id, const tok *c);

/* ---- pass 2 (scenario_place.c) ---- */

/* Builds the board from what pass 1 read: the map's terrain and features, then the deferred
 * element, side, interspace, square and unit lines, in that order. */
void place_board(loader *l);

#endif
