/* view.h — the session's board as the rest of the session layer needs it: loading a scenario
 * against the program (a test's own board too) and rebuilding the board after a reload. view.c
 * also holds the public board calls of include/hon.h (loading, dropping, drawing).
 */
#ifndef HON_VIEW_H
#define HON_VIEW_H

#include "session.h"

/* A line's verdict as a picture shows it (los.c finds it, draw.h draws it): a line of sight's
 * answer, the rule that decided it and where. */
typedef struct view_verdict {
    char *caption; /* new: "line of sight $a to $b: blocked, by rule q.r (ID) at C1" */
    char *past;    /* new: the part of the line past the place ("blocked past C1"); NULL when
                      no place is known */
    int at_kind;   /* 0: no place, 1: a board square, 2: a square side (draw.h's draw_at) */
    int at;        /* the board square or side index */
} view_verdict;

/* Loads a scenario (from text, or from the file `path` when text is NULL) against the current
 * program into *out (a new scene), its counters copied from `units` (an edition's,
 * res_units_of; NULL: the active edition's). On errors (E3xx, reported with file, line and
 * column; E398 when the file cannot be read) *out is NULL and the status says why:
 * HON_ERR_COMPILE, HON_ERR_IO or HON_ERR_MEMORY. */
hon_status view_load_scene(hon_vm *vm, const unit_pool *units, const char *path, const char *text,
                           size_t len, scene **out);
/* After hon_apply_setting selected an edition with other counters (choice.c; a copy of the
 * session for diff or snapshot): the board again, with them; dropped (E317) when it no longer
 * loads. A load of rules does not call it: a board that would not load under them makes the load
 * fail instead (load.c, board_fits). */
void view_rebind(hon_vm *vm);

/* After a change of edition or variant reading (choice.c): the session's board built again from
 * its text under the new setting, set-up checks and all, as loading it would be. HON_OK when
 * there is no board or it fits: a board built with other counters than before (an edition's
 * `revise counter`) then replaces the old and its game restarts, else the old board and its game
 * are kept. Else the status of view_load_scene, the board's diagnostics reported (E320 for a
 * unit the setting forbids where it stands...) and the session's board untouched. */
hon_status view_check_setting(hon_vm *vm);

/* The place a word names on the session's board, as hon_place_of gives it: `$name` or a bare
 * `name` of a board unit (HON_V_UNIT), `@C4` or `C4` a square on the board (HON_V_SQUARE).
 * Reported (path `where`) and HON_ERR_NOT_FOUND otherwise: no board (E212), no such unit
 * (E213), a square off the board (E217), neither (E403). */
hon_status view_place(hon_vm *vm, const char *word, const char *where, hon_value *out);

/* Draws the session's board as text (svg false) or SVG to out (hon_draw_board, hon_board_svg):
 * with the line from `from` to `to` traced when both are given (units or squares), with the
 * verdict said and its place marked when `verdict` is not NULL (los.h), and the
 * squares marked by `marks` (w*h characters, ' ' for none; NULL: none) with marks_key as the
 * marks' key line (NULL: none), both borrowed. HON_ERR_NOT_FOUND (reported) without a board
 * or for an unknown end, HON_ERR_MEMORY, HON_ERR_IO when writing fails. */
hon_status view_draw(hon_vm *vm, FILE *out, const char *from, const char *to, bool svg,
                     const char *marks, const char *marks_key, const view_verdict *verdict);

/* The window of a picture (draw.h). Text: centred on the column of `centre` (a unit or square
 * as view_place reads it, borrowed; NULL: none), and no wider than `columns` characters (0: no
 * limit). SVG: the squares around `centre` (draw.h's DRAW_SVG_AROUND each way), or with
 * `corner` (a place as centre, borrowed) the rectangle of squares from centre to corner. */
typedef struct view_window {
    const char *centre;
    int columns;
    const char *corner;
} view_window;

/* view_draw with the text picture in window `win` (NULL: the whole board, as view_draw). An
 * unknown centre is reported and HON_ERR_NOT_FOUND, like an unknown end. */
hon_status view_draw_in(hon_vm *vm, FILE *out, const char *from, const char *to, bool svg,
                        const char *marks, const char *marks_key, const view_verdict *verdict,
                        const view_window *win);

#endif
