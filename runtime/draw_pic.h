/* runtime/draw_pic.h — what the two pictures of a board share (draw.c's text, draw_svg.c's SVG):
 * one picture's symbols, unit keys and traced-line marks, built once per drawing. Private to
 * runtime/draw*.c: draw.h is the public interface.
 */
#ifndef HON_DRAW_PIC_H
#define HON_DRAW_PIC_H

#include "draw.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Symbols of the ids of one kind used in a picture. */
typedef struct symtab {
    char sym[BOARD_MAX_ID];
    bool used[BOARD_MAX_ID];
    bool taken[256]; /* symbols already given in this table */
} symtab;

typedef struct picture {
    const board *b;
    const geo_grid *g;
    const draw_options *o;
    symtab *terr, *side, *item;
    int *units; /* unit ids on the board, ascending */
    size_t n_units;
    char *keys; /* n_units: the text key of each unit */
    /* By unit id (up to the last of units): how many units are embarked directly in it,
     * counted in one pass so that drawing U units stays linear (board_units_in is a scan). */
    size_t *aboard;
    char *mark;  /* w*h: ' ', '*' on the traced line, '@' at its ends */
    bool *touch; /* interspaces: a corner touch of the traced line */
    /* SVG: the part of the board shown, columns x0..x1 and rows y0..y1 (draw_picture_init:
     * the whole board), and the pixels a square grew by for stacked feature labels */
    int x0, y0, x1, y1;
    int extra;
} picture;

/* Builds picture p of board b drawn with options o (NULL: none): every used terrain, side
 * feature and interspace item a symbol (the board's, else the first free letter of its name),
 * every unit a key, the traced line's and the caller's marks. GEO_ETOPO on hex boards,
 * GEO_ENOMEM; p is then freed. Borrows b and o. */
geo_status draw_picture_init(picture *p, const board *b, const draw_options *o);
/* Frees what draw_picture_init allocated (not p itself). */
void draw_picture_free(picture *p);
/* The character of square sq's terrain: the map symbol as written while the square still has
 * the terrain it was written for (symbol_terrain), else the symbol of its terrain now, blank
 * when a written map's square is in no element any more ('.' without a written map). */
char draw_terrain_char(const picture *p, int sq);
/* The caller's string for id in a[0..n), or NULL when there is none or it is empty. */
const char *draw_given(const char *const *a, size_t n, int id);

#endif
