/* runtime/geo.h — geometry of the board: coordinates, neighbours, distance, square sides and
 * interspaces, line tracing (supercover with corner touches, and the classic Bresenham walk).
 *
 * Pure functions of a geo_grid (width, height, topology); nothing here knows a rule or a
 * terrain name. board.h embeds a geo_grid and stores what stands on squares, sides and
 * interspaces by the indexes defined here; draw.c and scenario.c use the same indexes.
 * The conventions (A1 top-left, Chebyshev distance, odd-q hexes, the tracing convention) are
 * documented in docs/spec/board.md; the tests are tests/runtime/test_geo.c.
 */
#ifndef HON_GEO_H
#define HON_GEO_H

#include <stdbool.h>
#include <stddef.h>

/* Status codes shared by geo_ and board_ functions. */
typedef enum geo_status {
    GEO_OK = 0,
    GEO_ESYNTAX, /* a coordinate that is not letters followed by digits */
    GEO_ERANGE,  /* a square, side or interspace outside the board, or a size out of bounds */
    GEO_EINVAL,  /* arguments that make no sense together (e.g. a 2-square unit on far squares) */
    GEO_ETOPO,   /* the operation does not exist on this topology (line tracing on hexes) */
    GEO_ENOMEM,
    GEO_EIO /* writing a picture failed */
} geo_status;

typedef enum geo_topology {
    GEO_SQUARE = 0,
    GEO_HEX = 1
} geo_topology;

/* Largest width or height of a board, in squares. */
#define GEO_MAX_DIM 255

/* The shape of a board. Squares are numbered y * w + x, x the column (0 = A), y the row
 * (0 = row 1, the top row as printed). On hexes the same numbering is an "odd-q" offset layout:
 * flat-topped hexes in columns, odd columns (B, D, ...) shifted half a hex down. */
typedef struct geo_grid {
    int w, h;
    geo_topology topo;
} geo_grid;

/* Directions, clockwise from north (north is toward row 1). Squares use all eight; hexes use
 * N, NE, SE, S, SW, NW (E and W do not exist on flat-topped hexes). */
typedef enum geo_dir {
    GEO_N = 0,
    GEO_NE,
    GEO_E,
    GEO_SE,
    GEO_S,
    GEO_SW,
    GEO_W,
    GEO_NW,
    GEO_NDIRS
} geo_dir;

/* ---- squares and their names ---- */

/* The square at column x, row y (both from 0), or -1 when off the board. */
int geo_square(const geo_grid *g, int x, int y);
/* Column and row (from 0) of square sq; sq must be on the board (else both are set to -1). */
void geo_xy(const geo_grid *g, int sq, int *x, int *y);
/* Number of squares, w * h. */
int geo_square_count(const geo_grid *g);

/* Parses a coordinate a person types: column letters A..Z, AA..AZ, BA.. (spreadsheet style,
 * case-insensitive) then the row number from 1 ("C4" is x 2, y 3). The whole of s[0..len) must
 * be the coordinate. Returns GEO_OK, GEO_ESYNTAX (not letters+digits, leading zero, nothing),
 * or GEO_ERANGE (more than 3 letters or a row above 99999). Does not check a board. */
geo_status geo_parse_xy(const char *s, size_t len, int *x, int *y);
/* Parses a NUL-terminated coordinate ("C4") and returns the square on g, or -1 when the text
 * is not a coordinate or names a square off the board. */
int geo_parse_square(const geo_grid *g, const char *s);
/* Writes the name of column x, row y ("C4") into buf (NUL-terminated, truncated to cap).
 * Returns the length of the full name, like snprintf; x, y >= 0. */
size_t geo_format_xy(int x, int y, char *buf, size_t cap);
/* Same for square sq of g; writes "?" for a square off the board. */
size_t geo_format_square(const geo_grid *g, int sq, char *buf, size_t cap);

/* ---- neighbours and distance ---- */

/* The neighbour of sq in direction d, or -1 when off the board or when d does not exist on
 * the topology. */
int geo_neighbour(const geo_grid *g, int sq, geo_dir d);
/* The on-board neighbours of sq in direction order, written to out; returns how many.
 * Squares: the 4 orthogonal ones, plus the 4 diagonal ones when `diagonals`. Hexes: the 6
 * (diagonals is ignored). */
size_t geo_neighbours(const geo_grid *g, int sq, bool diagonals, int out[8]);
/* Distance in squares. Squares: Chebyshev (a diagonal step costs one square, as when counting
 * range or movement squares on the map). Hexes: hex steps. Both squares must be on g. */
int geo_distance(const geo_grid *g, int a, int b);
/* Every square at distance <= n from sq (sq itself included), in square order, into out;
 * returns the total number even when it exceeds cap (only cap are written). n < 0 gives 0. */
size_t geo_squares_within(const geo_grid *g, int sq, int n, int *out, size_t cap);
/* The direction from a to its neighbour b, or -1 when b is not a neighbour of a. */
int geo_direction(const geo_grid *g, int a, int b);

/* ---- square sides ---- */
/* A side is a segment shared by two squares (or a square and the outside of the board).
 * Squares: sides [0, w*(h+1)) are horizontal, side y*w + x being the top of square (x, y);
 * sides [w*(h+1), w*(h+1) + (w+1)*h) are vertical, w*(h+1) + y*(w+1) + x being the left side of
 * square (x, y). Hexes: 3 * ((y+1)*(w+2) + (x+1)) + k is the N (k 0), NE (1) or SE (2) side of
 * hex (x, y), for x in -1..w and y in -1..h (so border sides exist). */

/* Number of side indexes (some hex indexes along the padding touch no hex). Inline: the board
 * built-ins check a side number against it (builtin.c). */
static inline int geo_side_count(const geo_grid *g)
{
    if (g->topo == GEO_HEX)
        return 3 * (g->w + 2) * (g->h + 2);
    return g->w * (g->h + 1) + (g->w + 1) * g->h;
}
/* The side between square (x0, y0) of square board g and its orthogonal neighbour (x1, y1), both
 * on the board, by the numbering above: the lower of the two squares' shared row line, or the
 * right-hand one's column line. Inline: the line walk (geo_walk_next) asks it at every step. */
static inline int geo_square_side_xy(const geo_grid *g, int x0, int y0, int x1, int y1)
{
    if (x0 == x1)
        return (y0 > y1 ? y0 : y1) * g->w + x0;
    return g->w * (g->h + 1) + y0 * (g->w + 1) + (x0 > x1 ? x0 : x1);
}
/* The side between a and b, or -1 when they do not share one (diagonal squares, far apart,
 * off the board). BRO.1.3.placement: obstacles are only ever placed on such a side. */
int geo_side_between(const geo_grid *g, int a, int b);
/* The side of square sq facing direction d (squares: N, E, S, W; hexes: the six), border sides
 * included; -1 for a diagonal direction on squares, E/W on hexes, or sq off the board. */
int geo_side_of(const geo_grid *g, int sq, geo_dir d);
/* The two squares of a side: squares, horizontal side: *a above, *b below; vertical: *a left,
 * *b right. Hexes: *a the hex whose N/NE/SE side it is, *b the hex across. Either is -1 when
 * off the board. Returns false for an index that is not a side. */
bool geo_side_squares(const geo_grid *g, int side, int *a, int *b);
/* True for a horizontal side of a square board. */
bool geo_side_horizontal(const geo_grid *g, int side);
/* Square boards: the end points of a side in grid-line units (corner (X, Y) is the top-left
 * corner of square (X, Y); X in 0..w, Y in 0..h), first end top/left. False otherwise. */
bool geo_side_ends(const geo_grid *g, int side, int *x0, int *y0, int *x1, int *y1);

/* The sides that meet `side` end to end, into out; returns how many (at most 6). At each of the
 * side's two ends, when every square meeting at that point is on the board, the other sides
 * meeting there: squares, the 3 others of the 4 sides at an interior grid point; hexes, the 2
 * others of the 3 sides at a vertex. A border side (a square off the board) meets none. Squares:
 * horizontal sides list the west end first, vertical ones the south end; hexes, the end
 * counter-clockwise around the side's first square first. The geometry of a red contour line
 * (docs/spec/board.md §3, board_side_runs). */
size_t geo_sides_meeting(const geo_grid *g, int side, int out[6]);

/* ---- interspaces (square boards only) ---- */
/* An interspace is a grid corner point where up to four squares meet: (X, Y) with X in 0..w,
 * Y in 0..h, index Y*(w+1) + X; interspace (X, Y) is the top-left corner of square (X, Y). */

/* (w+1)*(h+1) on squares, 0 on hexes. */
int geo_interspace_count(const geo_grid *g);
/* The corner of square sq in diagonal direction d (GEO_NW, GEO_NE, GEO_SE, GEO_SW), or -1. */
int geo_interspace_of(const geo_grid *g, int sq, geo_dir d);
/* Grid-point coordinates of interspace is; false when it is not one. */
bool geo_interspace_xy(const geo_grid *g, int is, int *X, int *Y);
/* The squares meeting at interspace is, in order NW, NE, SE, SW of the point (-1 off board). */
void geo_interspace_squares(const geo_grid *g, int is, int out[4]);
/* The sides meeting at interspace is, in order N, E, S, W of the point (-1 off the grid). */
void geo_interspace_sides(const geo_grid *g, int is, int out[4]);
/* The squares a template centred on interspace is covers when it reaches n squares out on each
 * side: the 2n x 2n block of squares around the point (n = 1: the four squares meeting there),
 * those on the board, in square order, into out; returns the total even when > cap. 0 for
 * n < 1 or a bad interspace. How far each template reaches is a rules question (.hon). */
size_t geo_interspace_block(const geo_grid *g, int is, int n, int *out, size_t cap);

/* ---- lines ---- */

/* Which side of the line from the centre of a to the centre of b the centre of sq lies on:
 * +1 on the right, -1 on the left (as seen on the printed map walking from a toward b, row 1
 * at the top), 0 exactly on the (infinite) line. Exact integer cross product. Squares only
 * (hex boards give 0). */
int geo_side_of_line(const geo_grid *g, int a, int b, int sq);

/* One crossing of a traced line, between two consecutive squares of the trace. Either the
 * line crosses a side (side >= 0, corner == -1), or it passes exactly through an interspace
 * (a corner touch: side == -1, corner >= 0): then it goes from one square to the diagonal one,
 * and `left` and `right` are the two squares meeting at that corner beside the line (left and
 * right walking from A toward B), sides[] the four sides meeting there: from–left, from–right,
 * left–to, right–to. Whether a corner touch "crosses" left, right, both or neither is a rules
 * question answered in .hon. */
typedef struct geo_cross {
    int side;
    int corner;
    int left, right;
    int sides[4];
} geo_cross;

/* An iterator over the supercover of the segment from the centre of one square to the
 * centre of another: in doubled coordinates the segment runs from (2ax+1, 2ay+1) to
 * (2bx+1, 2by+1) and every crossing of a grid line is found by exact integer comparison.
 * Fields are private. */
typedef struct geo_walk {
    const geo_grid *g;
    int x, y, bx, by, sx, sy, nx, ny, ix, iy;
} geo_walk;

/* Starts a walk from square `from` to square `to` (both on g). GEO_ETOPO on hexes, GEO_ERANGE
 * for squares off the board. */
geo_status geo_walk_init(geo_walk *w, const geo_grid *g, int from, int to);
/* Advances to the next square: fills *c with the crossing into it and *sq with the square.
 * Returns false (touching nothing) once the walk has reached `to`. geo_walk_step (below) is the
 * same step inline, for a caller that walks many lines (interp/builtin.c's line). */
bool geo_walk_next(geo_walk *w, geo_cross *c, int *sq);

/* geo_walk_next's step, inline: a caller that reads only some of *c lets the compiler drop the
 * rest. */
static inline bool geo_walk_step(geo_walk *w, geo_cross *c, int *sq)
{
    if (!w->g || (w->x == w->bx && w->y == w->by))
        return false;
    const geo_grid *g = w->g;
    /* In doubled coordinates the line leaves the centre (2x+1, 2y+1) of the start square; its
     * (ix+1)-th vertical grid line is met at t = (2ix+1) / (2nx) of the way, its (iy+1)-th
     * horizontal one at t = (2iy+1) / (2ny). Compare the two fractions exactly. */
    int cmp;
    if (w->nx == 0)
        cmp = 1;
    else if (w->ny == 0)
        cmp = -1;
    else {
        long l = (long)(2 * w->ix + 1) * w->ny, r = (long)(2 * w->iy + 1) * w->nx;
        cmp = (l > r) - (l < r);
    }
    /* Every side below lies between two orthogonal neighbours on the board (the walk stays
     * within the rectangle of its two ends): geo_square_side_xy, as geo_side_between answers. */
    const int x0 = w->x, y0 = w->y;
    c->corner = -1;
    c->left = c->right = -1;
    c->sides[0] = c->sides[1] = c->sides[2] = c->sides[3] = -1;
    if (cmp < 0) {
        w->x += w->sx;
        w->ix++;
        *sq = w->y * g->w + w->x;
        c->side = geo_square_side_xy(g, x0, y0, w->x, y0);
    } else if (cmp > 0) {
        w->y += w->sy;
        w->iy++;
        *sq = w->y * g->w + w->x;
        c->side = geo_square_side_xy(g, x0, y0, x0, w->y);
    } else {
        /* Exactly through the corner shared by p and the diagonal square q. u is the square
         * reached by the horizontal move, v by the vertical one; u lies left of the line iff
         * sx * sy > 0 (the cross product of the direction with u's offset from the corner is
         * -sx*sy*(nx+ny)/2, negative = left). */
        int u = w->y * g->w + w->x + w->sx;
        int v = (w->y + w->sy) * g->w + w->x;
        int X = w->x + (w->sx > 0), Y = w->y + (w->sy > 0);
        w->x += w->sx;
        w->y += w->sy;
        w->ix++;
        w->iy++;
        int q = w->y * g->w + w->x;
        *sq = q;
        c->side = -1;
        c->corner = Y * (g->w + 1) + X;
        bool u_left = w->sx * w->sy > 0;
        c->left = u_left ? u : v;
        c->right = u_left ? v : u;
        /* p to u and v to q cross a column line, p to v and u to q a row line */
        int pu = geo_square_side_xy(g, x0, y0, w->x, y0),
            pv = geo_square_side_xy(g, x0, y0, x0, w->y);
        int uq = geo_square_side_xy(g, w->x, y0, w->x, w->y);
        int vq = geo_square_side_xy(g, x0, w->y, w->x, w->y);
        c->sides[0] = u_left ? pu : pv;
        c->sides[1] = u_left ? pv : pu;
        c->sides[2] = u_left ? uq : vq;
        c->sides[3] = u_left ? vq : uq;
    }
    return true;
}

/* A traced line, start and end squares included. squares[0] is from, squares[n-1] is to,
 * cross[i] lies between squares[i] and squares[i+1]. Tracing B→A gives the same squares and
 * crossings in reverse order, with left and right swapped. */
typedef struct geo_trace {
    int from, to;
    size_t n;         /* squares, >= 1 */
    int *squares;     /* n, owned */
    geo_cross *cross; /* n - 1, owned (NULL when n == 1) */
    size_t corners;   /* how many crossings are corner touches */
} geo_trace;

/* Traces the line from the centre of `from` to the centre of `to` into *out (allocates; free
 * with geo_trace_free). GEO_ETOPO on hexes, GEO_ERANGE off board, GEO_ENOMEM; on error *out is
 * left empty (safe to free). */
geo_status geo_trace_line(const geo_grid *g, int from, int to, geo_trace *out);
/* Frees what a trace owns and empties it; accepts NULL and empty traces. */
void geo_trace_free(geo_trace *t);

/* The classic integer error-term Bresenham walk (err = dx - dy; e2 = 2*err; step x when
 * e2 >= -dy, step y when e2 <= dx, both steps in one move), as the reference line-of-sight
 * workload defines it (shared bench README). It visits one square per step, never reports sides
 * or corners, and is NOT symmetric; it exists because the benchmark is defined on it. */
typedef struct geo_bres {
    int x, y, x1, y1, dx, dy, sx, sy, err, w;
} geo_bres;
/* Starts a walk from `from` to `to` (square boards; both on the board). */
void geo_bres_init(geo_bres *b, const geo_grid *g, int from, int to);
/* The next square of the walk into *sq; false once `to` has been reached. */
bool geo_bres_next(geo_bres *b, int *sq);

#endif
