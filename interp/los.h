/* los.h — the line of sight a picture of a line explains (los.c): asked of the rules as hon_los
 * asks it, traced, and read back from the trace as a verdict, the rule that decided it and the
 * square or square side where it did. los.c's hon_draw_board and hon_board_svg hand it to
 * view_draw (view.h), which runtime/draw.h draws with.
 */
#ifndef HON_LOS_H
#define HON_LOS_H

#include "view.h"

/* The line of sight between the places `from` and `to` (words as hon_place_of reads them) as
 * hon_los asks it (line_of_sight; or, with a square holding no unit or several,
 * sight_to_square from a unit to it, else line_of_sight_squares between squares), asked again traced, into *out (fields as above; free with los_verdict_free).
 * Reports nothing: false, with *out empty, when the rules ask no line of sight between those
 * places or the question fails; then the line is drawn without a verdict. The rule that
 * decided is the deepest that fired giving the answer on the trace's chain of calls that gave
 * it (or, below a rule whose guard asked a yes-or-no query, the one that answered yes; a
 * query its default answered yes gives only its place, its rule staying the one); its
 * place is the side (one square_side argument), else the square (one square argument) or the
 * side (two adjacent squares) of the deepest such call below the top one. */
bool los_verdict_of(hon_vm *vm, const char *from, const char *to, view_verdict *out);
/* Frees what v holds and empties it; accepts NULL. */
void los_verdict_free(view_verdict *v);

#endif
