/* diag.h — diagnostics: collected, never printed-and-exited.
 *
 * Every stage (lexer, parser, resolver, compiler, VM) reports through a diag_list. A report
 * carries a stable code (E0xx syntax, E1xx names and types, E2xx run time, E3xx scenarios:
 * the names below, from the one list diag_codes.h; the registry is docs/spec/errors.md), a
 * severity, a span and a message. diag_render turns one into the
 * compiler-style text  `file:line:col: error[E012]: message`, the source line and a caret.
 * The source table maps src_loc.file to the path and text it quotes.
 */
#ifndef HON_DIAG_H
#define HON_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A source span. Lines and columns count from 1; columns count bytes. `file` indexes the
 * diagnostics source table (diag_sources). end_* is the last character of the span,
 * inclusive. A zero line means "no position". */
typedef struct src_loc {
    uint32_t file;
    uint32_t line, col;
    uint32_t end_line, end_col;
} src_loc;

/* The codes, by name: E_SYNTAX is 10 (E010), E_TYPE 104, E_NO_BOARD 212... (diag_codes.h). The
 * warnings of `hon lint` are numbered from DIAG_LINT_BASE and written W: E_LINT_UNUSED is 1001,
 * W001. */
#define DIAG_LINT_BASE 1000
enum diag_code {
    E_NONE = 0, /* a diagnostic with no code: `hon: error: message`, or a note */
#define DIAG_CODE(name, number, summary) E_##name = number,
#include "diag_codes.h"
#undef DIAG_CODE
};

typedef enum diag_severity {
    DIAG_ERROR,
    DIAG_WARNING,
    DIAG_NOTE
} diag_severity;

typedef struct diag {
    int code; /* E_* (12 for E012); E_NONE for notes without a code */
    diag_severity severity;
    src_loc loc;
    char *message;    /* owned */
    bool has_related; /* e.g. where an unclosed '{' was opened */
    src_loc related;
    char *related_message; /* owned, or NULL */
} diag;

/* The files diagnostics may quote, indexed by src_loc.file. Owns copies of the paths; owns a
 * copy of each text, except a text registered with diag_sources_borrow, which the caller keeps
 * alive (or hands over with diag_sources_own) for as long as the entry is there. */
typedef struct diag_sources {
    struct {
        char *path;
        char *text;
        size_t len;
        bool borrowed;      /* text is the caller's, not freed here (diag_sources_borrow) */
        uint32_t seen_line; /* a cache for quoting: line seen_line starts at seen_off */
        size_t seen_off;
    } * files;
    uint32_t len, cap;
} diag_sources;

/* A list keeps at most DIAG_LIST_MAX diagnostics, then one E009 saying the rest are not shown
 * (they are still counted in `errors`). */
#define DIAG_LIST_MAX 200

typedef struct diag_list {
    diag *items;
    size_t len, cap;
    size_t errors;         /* count of DIAG_ERROR reports, kept or not */
    bool full;             /* DIAG_LIST_MAX reached: later reports are counted, not kept */
    diag_sources *sources; /* borrowed; used by diag_render */
} diag_list;

/* Forgets the files registered after the first len (their paths and texts are freed): what a
 * failed load registered, once its diagnostics are rendered. */
void diag_sources_trim(diag_sources *s, uint32_t len);
/* Registers a file (copying path and text) and returns its id for src_loc.file; UINT32_MAX on
 * OOM. Registering the same path again adds a new entry (a reloaded file is a new source). */
uint32_t diag_sources_add(diag_sources *s, const char *path, const char *text, size_t len);
/* As diag_sources_add, but the text is borrowed, not copied: the caller keeps text[0..len) alive
 * and unchanged until the entry is trimmed or freed, or calls diag_sources_own before freeing
 * it (a session's loaded file, whose text lives as long as the program built from it, and is
 * only freed when a reload replaces it). The path is copied. UINT32_MAX on OOM. */
uint32_t diag_sources_borrow(diag_sources *s, const char *path, const char *text, size_t len);
/* Makes entry `id` own its text: a borrowed text is copied, so the caller may free its own
 * (diagnostics naming the old text may outlive it: a reload). An entry that owns its text
 * already, or an id out of range: true, nothing done. false on OOM (then the entry is still
 * borrowed and the caller must keep its text). */
bool diag_sources_own(diag_sources *s, uint32_t id);
void diag_sources_free(diag_sources *s);

void diag_list_init(diag_list *l, diag_sources *sources);
/* Frees every diagnostic; the list may be reused after. */
void diag_list_clear(diag_list *l);
/* Whether the next report will be kept with its message (false once DIAG_LIST_MAX are kept:
 * it is only counted). A caller whose message costs much to build (a "did you mean" search
 * over every name) skips that work when it would be thrown away, so that reporting N errors
 * stays linear in N. */
bool diag_list_keeps(const diag_list *l);

/* Adds a diagnostic with a printf-style message. Never fails visibly: on OOM the message is
 * replaced by a fixed text. Returns the new item (valid until the next report) or NULL. */
diag *diag_report(diag_list *l, int code, diag_severity sev, src_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
diag *diag_vreport(diag_list *l, int code, diag_severity sev, src_loc loc, const char *fmt,
                   va_list ap) __attribute__((format(printf, 5, 0)));
/* Attaches a related span ("the '{' opened here") to d. */
void diag_relate(diag *d, src_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Writes code's label into buf (cap bytes): "E012" for 12, "W001" for DIAG_LINT_BASE + 1;
 * returns buf. */
const char *diag_code_label(int code, char *buf, size_t cap);

/* Renders d as
 *     path:line:col: error[E012]: message
 *        12 | source line
 *           |      ^~~~
 * followed by the related span, if any, as a note. Writes to out. A diagnostic with no
 * position (line 0) renders as `hon: error[E398]: message` alone, with no made-up 0:0. */
void diag_render(const diag_list *l, const diag *d, FILE *out);
/* Renders every item of l in order. */
void diag_render_all(const diag_list *l, FILE *out);

/* Writes a quoted source line and its caret line to out as diag_render does: `LINE | text`
 * (ls, ln bytes, no newline; the gutter at least 5 wide), tabs expanded and control bytes
 * shown as '?', then `^~~~` under bytes first..last (from 0, inclusive; last < first gives a
 * lone caret). A line over 200 bytes is quoted in part: 200 bytes from 60 before `first`,
 * "..." marking each cut (errors.md). */
void diag_quote(FILE *out, uint32_t lineno, const char *ls, size_t ln, size_t first, size_t last);

/* The display columns of the UTF-8 text s[0..n), as the caret under a quoted line counts them:
 * each character its terminal width (a CJK ideograph 2, a combining accent 0; 1 when it is no
 * valid character or the system has no UTF-8 locale), a tab 1 (the text is a part of a line,
 * whose tab stops it cannot know). `hon fmt` lines up columns with it (dsl/fmt.c). */
unsigned diag_text_width(const char *s, size_t n);

/* Shortens message s in place so that no input it quotes runs on (fresh15 D2: a 5 MB name):
 * each word (a run without blanks: a name, a path, a quoted token) over 120 bytes keeps its
 * first 80 and last 24 bytes about an ellipsis "…", and a message over 4000 bytes is cut there
 * with one; on UTF-8 character boundaries. Returns the new length. Every diagnostic's message
 * and note passes through it (errors.md). */
size_t diag_shorten(char *s);

#endif
