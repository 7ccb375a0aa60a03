/* runtime/geo.c — coordinates, neighbours, distance, sides, interspaces and line walks.
 *
 * Implements geo.h. The side and interspace numbering defined there is shared with board.c
 * (storage), scenario.c (parsing) and draw.c (pictures); change it in all four or none.
 * Everything is exact integer arithmetic: no floating point decides a geometric question.
 */
#include "geo.h"

#include <string.h>

#include "mem.h"

static int iabs(int v)
{
    return v < 0 ? -v : v;
}
static int imax(int a, int b)
{
    return a > b ? a : b;
}
static int sgn(long v)
{
    return (v > 0) - (v < 0);
}

/* Square offsets of the eight directions. */
static const int SQ_DX[GEO_NDIRS] = { 0, 1, 1, 1, 0, -1, -1, -1 };
static const int SQ_DY[GEO_NDIRS] = { -1, -1, 0, 1, 1, 1, 0, -1 };

/* Hex offsets (odd-q: odd columns shifted down), [parity][dir]; E and W do not exist. */
static const int HX_DX[GEO_NDIRS] = { 0, 1, 0, 1, 0, -1, 0, -1 };
static const int HX_DY[2][GEO_NDIRS] = {
    { -1, -1, 0, 0, 1, 0, 0, -1 }, /* even column */
    { -1, 0, 0, 1, 1, 1, 0, 0 },   /* odd column */
};
static bool hex_dir_ok(geo_dir d)
{
    return d != GEO_E && d != GEO_W && d < GEO_NDIRS;
}

static bool on_board(const geo_grid *g, int x, int y)
{
    return x >= 0 && y >= 0 && x < g->w && y < g->h;
}
static bool valid_sq(const geo_grid *g, int sq)
{
    return sq >= 0 && sq < g->w * g->h;
}

int geo_square(const geo_grid *g, int x, int y)
{
    return on_board(g, x, y) ? y * g->w + x : -1;
}

void geo_xy(const geo_grid *g, int sq, int *x, int *y)
{
    if (!valid_sq(g, sq)) {
        *x = *y = -1;
        return;
    }
    *x = sq % g->w;
    *y = sq / g->w;
}

int geo_square_count(const geo_grid *g)
{
    return g->w * g->h;
}

/* ---- names ---- */

geo_status geo_parse_xy(const char *s, size_t len, int *x, int *y)
{
    size_t i = 0;
    long col = 0, row = 0;
    while (i < len && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z'))) {
        if (i == 3)
            return GEO_ERANGE;
        int c = s[i] >= 'a' ? s[i] - 'a' : s[i] - 'A';
        col = col * 26 + c + 1;
        i++;
    }
    if (i == 0 || i == len)
        return GEO_ESYNTAX;
    if (s[i] == '0')
        return GEO_ESYNTAX; /* no row 0, no leading zeros */
    size_t digits = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
        if (++digits > 5)
            return GEO_ERANGE;
        row = row * 10 + (s[i] - '0');
        i++;
    }
    if (digits == 0 || i != len)
        return GEO_ESYNTAX;
    *x = (int)(col - 1);
    *y = (int)(row - 1);
    return GEO_OK;
}

int geo_parse_square(const geo_grid *g, const char *s)
{
    int x, y;
    if (!s || geo_parse_xy(s, strlen(s), &x, &y) != GEO_OK)
        return -1;
    return geo_square(g, x, y);
}

size_t geo_format_xy(int x, int y, char *buf, size_t cap)
{
    char tmp[32];
    size_t n = 0;
    char letters[8];
    size_t nl = 0;
    long c = (long)x + 1;
    while (c > 0 && nl < sizeof letters) {
        c--;
        letters[nl++] = (char)('A' + c % 26);
        c /= 26;
    }
    while (nl > 0)
        tmp[n++] = letters[--nl];
    char digits[16];
    size_t nd = 0;
    long r = (long)y + 1;
    do {
        digits[nd++] = (char)('0' + r % 10);
        r /= 10;
    } while (r > 0 && nd < sizeof digits);
    while (nd > 0)
        tmp[n++] = digits[--nd];
    if (cap > 0) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(buf, tmp, k);
        buf[k] = '\0';
    }
    return n;
}

size_t geo_format_square(const geo_grid *g, int sq, char *buf, size_t cap)
{
    if (!valid_sq(g, sq)) {
        if (cap > 0) {
            buf[0] = cap > 1 ? '?' : '\0';
            if (cap > 1)
                buf[1] = '\0';
        }
        return 1;
    }
    return geo_format_xy(sq % g->w, sq / g->w, buf, cap);
}

/* ---- neighbours and distance ---- */

/* Neighbour coordinates without a board check (hex padding needs off-board ones). */
static void step_xy(const geo_grid *g, int x, int y, geo_dir d, int *nx, int *ny)
{
    if (g->topo == GEO_HEX) {
        *nx = x + HX_DX[d];
        *ny = y + HX_DY[x & 1][d];
    } else {
        *nx = x + SQ_DX[d];
        *ny = y + SQ_DY[d];
    }
}

int geo_neighbour(const geo_grid *g, int sq, geo_dir d)
{
    if (!valid_sq(g, sq) || (unsigned)d >= GEO_NDIRS)
        return -1;
    if (g->topo == GEO_HEX && !hex_dir_ok(d))
        return -1;
    int x = sq % g->w, y = sq / g->w, nx, ny;
    step_xy(g, x, y, d, &nx, &ny);
    return geo_square(g, nx, ny);
}

size_t geo_neighbours(const geo_grid *g, int sq, bool diagonals, int out[8])
{
    size_t n = 0;
    for (int d = 0; d < GEO_NDIRS; d++) {
        if (g->topo == GEO_SQUARE && !diagonals && (d & 1))
            continue;
        int q = geo_neighbour(g, sq, (geo_dir)d);
        if (q >= 0)
            out[n++] = q;
    }
    return n;
}

/* Cube coordinates of an odd-q hex. */
static void hex_cube(int x, int y, int *q, int *r)
{
    *q = x;
    *r = y - (x - (x & 1)) / 2;
}

int geo_distance(const geo_grid *g, int a, int b)
{
    int ax, ay, bx, by;
    geo_xy(g, a, &ax, &ay);
    geo_xy(g, b, &bx, &by);
    if (g->topo == GEO_HEX) {
        int aq, ar, bq, br;
        hex_cube(ax, ay, &aq, &ar);
        hex_cube(bx, by, &bq, &br);
        int dq = aq - bq, dr = ar - br, ds = -dq - dr;
        return imax(iabs(dq), imax(iabs(dr), iabs(ds)));
    }
    return imax(iabs(ax - bx), iabs(ay - by));
}

size_t geo_squares_within(const geo_grid *g, int sq, int n, int *out, size_t cap)
{
    if (n < 0 || !valid_sq(g, sq))
        return 0;
    int x, y;
    geo_xy(g, sq, &x, &y);
    int r = n + (g->topo == GEO_HEX ? 1 : 0);
    size_t count = 0;
    for (int yy = imax(0, y - r); yy < g->h && yy <= y + r; yy++)
        for (int xx = imax(0, x - r); xx < g->w && xx <= x + r; xx++) {
            int q = yy * g->w + xx;
            if (geo_distance(g, sq, q) > n)
                continue;
            if (count < cap)
                out[count] = q;
            count++;
        }
    return count;
}

/* The direction of the step (dx, dy) on squares, [dy + 1][dx + 1]; -1 for no step. */
static const signed char SQ_STEP_DIR[3][3] = { { GEO_NW, GEO_N, GEO_NE },
                                               { GEO_W, -1, GEO_E },
                                               { GEO_SW, GEO_S, GEO_SE } };

int geo_direction(const geo_grid *g, int a, int b)
{
    if (g->topo == GEO_SQUARE) { /* arithmetic: the offset between the two squares */
        if (!valid_sq(g, a) || !valid_sq(g, b))
            return -1;
        int dx = b % g->w - a % g->w, dy = b / g->w - a / g->w;
        return dx < -1 || dx > 1 || dy < -1 || dy > 1 ? -1 : SQ_STEP_DIR[dy + 1][dx + 1];
    }
    for (int d = 0; d < GEO_NDIRS; d++)
        if (geo_neighbour(g, a, (geo_dir)d) == b && b >= 0)
            return d;
    return -1;
}

/* ---- sides ---- */

static int vbase(const geo_grid *g)
{
    return g->w * (g->h + 1);
}

static int hex_side_raw(const geo_grid *g, int x, int y, int k)
{
    return 3 * ((y + 1) * (g->w + 2) + (x + 1)) + k;
}

int geo_side_of(const geo_grid *g, int sq, geo_dir d)
{
    if (!valid_sq(g, sq) || (unsigned)d >= GEO_NDIRS)
        return -1;
    int x = sq % g->w, y = sq / g->w;
    if (g->topo == GEO_HEX) {
        int nx, ny;
        switch (d) {
        case GEO_N: return hex_side_raw(g, x, y, 0);
        case GEO_NE: return hex_side_raw(g, x, y, 1);
        case GEO_SE: return hex_side_raw(g, x, y, 2);
        case GEO_S: step_xy(g, x, y, d, &nx, &ny); return hex_side_raw(g, nx, ny, 0);
        case GEO_SW: step_xy(g, x, y, d, &nx, &ny); return hex_side_raw(g, nx, ny, 1);
        case GEO_NW: step_xy(g, x, y, d, &nx, &ny); return hex_side_raw(g, nx, ny, 2);
        default: return -1;
        }
    }
    switch (d) {
    case GEO_N: return y * g->w + x;
    case GEO_S: return (y + 1) * g->w + x;
    case GEO_W: return vbase(g) + y * (g->w + 1) + x;
    case GEO_E: return vbase(g) + y * (g->w + 1) + x + 1;
    default: return -1;
    }
}

int geo_side_between(const geo_grid *g, int a, int b)
{
    if (!valid_sq(g, a) || !valid_sq(g, b))
        return -1;
    int d = geo_direction(g, a, b);
    if (d < 0)
        return -1;
    if (g->topo == GEO_SQUARE && (d & 1))
        return -1; /* diagonal: no shared side */
    return geo_side_of(g, a, (geo_dir)d);
}

bool geo_side_squares(const geo_grid *g, int side, int *a, int *b)
{
    *a = *b = -1;
    if (side < 0 || side >= geo_side_count(g))
        return false;
    if (g->topo == GEO_HEX) {
        int cell = side / 3, k = side % 3;
        int x = cell % (g->w + 2) - 1, y = cell / (g->w + 2) - 1;
        static const geo_dir K[3] = { GEO_N, GEO_NE, GEO_SE };
        int nx, ny;
        step_xy(g, x, y, K[k], &nx, &ny);
        *a = geo_square(g, x, y);
        *b = geo_square(g, nx, ny);
        return *a >= 0 || *b >= 0;
    }
    if (side < vbase(g)) {
        int x = side % g->w, y = side / g->w;
        *a = geo_square(g, x, y - 1);
        *b = geo_square(g, x, y);
    } else {
        int v = side - vbase(g);
        int x = v % (g->w + 1), y = v / (g->w + 1);
        *a = geo_square(g, x - 1, y);
        *b = geo_square(g, x, y);
    }
    return true;
}

size_t geo_sides_meeting(const geo_grid *g, int side, int out[6])
{
    int a, b;
    if (!geo_side_squares(g, side, &a, &b) || a < 0 || b < 0)
        return 0;
    size_t n = 0;
    if (g->topo == GEO_HEX) {
        /* b lies in direction ring[k] from a; each end of the side is the vertex a and b share
         * with a's neighbour one step round the ring either way */
        static const geo_dir ring[6] = { GEO_N, GEO_NE, GEO_SE, GEO_S, GEO_SW, GEO_NW };
        int k = side % 3;
        for (int turn = 5; turn <= 7; turn += 2) {
            int c = geo_neighbour(g, a, ring[(k + turn) % 6]);
            if (c >= 0) {
                out[n++] = geo_side_between(g, a, c);
                out[n++] = geo_side_between(g, b, c);
            }
        }
        return n;
    }
    /* b is south of a (horizontal side) or east of it (vertical); the ends lie a quarter turn
     * either way (west then east of a horizontal side, south then north of a vertical one),
     * where a2 and b2 continue a and b: a's side toward a2, b's toward b2, then the side
     * between a2 and b2, by the numbering of geo_side_of */
    const int w = g->w, v = vbase(g);
    const int x = b % w, y = b / w;
    if (geo_side_horizontal(g, side)) { /* a = (x, y - 1), b = (x, y) */
        for (int dx = -1; dx <= 1; dx += 2) {
            if (x + dx < 0 || x + dx >= w)
                continue;
            const int east = dx > 0 ? 1 : 0;
            out[n++] = v + (y - 1) * (w + 1) + x + east;
            out[n++] = v + y * (w + 1) + x + east;
            out[n++] = y * w + x + dx;
        }
        return n;
    }
    for (int dy = 1; dy >= -1; dy -= 2) { /* a = (x - 1, y), b = (x, y) */
        if (y + dy < 0 || y + dy >= g->h)
            continue;
        const int south = dy > 0 ? 1 : 0;
        out[n++] = (y + south) * w + x - 1;
        out[n++] = (y + south) * w + x;
        out[n++] = v + (y + dy) * (w + 1) + x;
    }
    return n;
}

bool geo_side_horizontal(const geo_grid *g, int side)
{
    return g->topo == GEO_SQUARE && side >= 0 && side < vbase(g);
}

bool geo_side_ends(const geo_grid *g, int side, int *x0, int *y0, int *x1, int *y1)
{
    if (g->topo != GEO_SQUARE || side < 0 || side >= geo_side_count(g))
        return false;
    if (side < vbase(g)) {
        *x0 = side % g->w;
        *y0 = side / g->w;
        *x1 = *x0 + 1;
        *y1 = *y0;
    } else {
        int v = side - vbase(g);
        *x0 = v % (g->w + 1);
        *y0 = v / (g->w + 1);
        *x1 = *x0;
        *y1 = *y0 + 1;
    }
    return true;
}

/* ---- interspaces ---- */

int geo_interspace_count(const geo_grid *g)
{
    return g->topo == GEO_SQUARE ? (g->w + 1) * (g->h + 1) : 0;
}

int geo_interspace_of(const geo_grid *g, int sq, geo_dir d)
{
    if (g->topo != GEO_SQUARE || !valid_sq(g, sq))
        return -1;
    int x = sq % g->w, y = sq / g->w;
    switch (d) {
    case GEO_NW: return y * (g->w + 1) + x;
    case GEO_NE: return y * (g->w + 1) + x + 1;
    case GEO_SW: return (y + 1) * (g->w + 1) + x;
    case GEO_SE: return (y + 1) * (g->w + 1) + x + 1;
    default: return -1;
    }
}

size_t geo_interspace_block(const geo_grid *g, int is, int n, int *out, size_t cap)
{
    int X, Y;
    if (n < 1 || !geo_interspace_xy(g, is, &X, &Y))
        return 0;
    if (n > g->w + g->h)
        n = g->w + g->h; /* no block reaches farther than the board */
    size_t k = 0;
    for (int y = Y - n; y < Y + n; y++)
        for (int x = X - n; x < X + n; x++) {
            if (x < 0 || y < 0 || x >= g->w || y >= g->h)
                continue;
            if (k < cap)
                out[k] = y * g->w + x;
            k++;
        }
    return k;
}

bool geo_interspace_xy(const geo_grid *g, int is, int *X, int *Y)
{
    if (is < 0 || is >= geo_interspace_count(g))
        return false;
    *X = is % (g->w + 1);
    *Y = is / (g->w + 1);
    return true;
}

void geo_interspace_squares(const geo_grid *g, int is, int out[4])
{
    int X, Y;
    if (!geo_interspace_xy(g, is, &X, &Y)) {
        out[0] = out[1] = out[2] = out[3] = -1;
        return;
    }
    out[0] = geo_square(g, X - 1, Y - 1);
    out[1] = geo_square(g, X, Y - 1);
    out[2] = geo_square(g, X, Y);
    out[3] = geo_square(g, X - 1, Y);
}

void geo_interspace_sides(const geo_grid *g, int is, int out[4])
{
    int X, Y;
    out[0] = out[1] = out[2] = out[3] = -1;
    if (!geo_interspace_xy(g, is, &X, &Y))
        return;
    if (Y > 0)
        out[0] = vbase(g) + (Y - 1) * (g->w + 1) + X;
    if (X < g->w)
        out[1] = Y * g->w + X;
    if (Y < g->h)
        out[2] = vbase(g) + Y * (g->w + 1) + X;
    if (X > 0)
        out[3] = Y * g->w + X - 1;
}

/* ---- lines ---- */

int geo_side_of_line(const geo_grid *g, int a, int b, int sq)
{
    if (g->topo != GEO_SQUARE || !valid_sq(g, a) || !valid_sq(g, b) || !valid_sq(g, sq))
        return 0;
    int ax, ay, bx, by, px, py;
    geo_xy(g, a, &ax, &ay);
    geo_xy(g, b, &bx, &by);
    geo_xy(g, sq, &px, &py);
    /* Row numbers grow downward, so a positive cross product is clockwise on the printed map:
     * on the right-hand side of someone walking from a to b. */
    long cross = (long)(bx - ax) * (py - ay) - (long)(by - ay) * (px - ax);
    return sgn(cross);
}

geo_status geo_walk_init(geo_walk *w, const geo_grid *g, int from, int to)
{
    memset(w, 0, sizeof *w);
    if (g->topo != GEO_SQUARE)
        return GEO_ETOPO;
    if (!valid_sq(g, from) || !valid_sq(g, to))
        return GEO_ERANGE;
    w->g = g;
    geo_xy(g, from, &w->x, &w->y);
    geo_xy(g, to, &w->bx, &w->by);
    w->sx = sgn(w->bx - w->x);
    w->sy = sgn(w->by - w->y);
    w->nx = iabs(w->bx - w->x);
    w->ny = iabs(w->by - w->y);
    return GEO_OK;
}

bool geo_walk_next(geo_walk *w, geo_cross *c, int *sq)
{
    return geo_walk_step(w, c, sq);
}

geo_status geo_trace_line(const geo_grid *g, int from, int to, geo_trace *out)
{
    memset(out, 0, sizeof *out);
    out->from = from;
    out->to = to;
    geo_walk w;
    geo_status st = geo_walk_init(&w, g, from, to);
    if (st != GEO_OK)
        return st;
    size_t max = (size_t)w.nx + (size_t)w.ny + 1; /* each step moves x, y or both */
    out->squares = mem_malloc(max * sizeof *out->squares);
    out->cross = max > 1 ? mem_malloc((max - 1) * sizeof *out->cross) : NULL;
    if (!out->squares || (max > 1 && !out->cross)) {
        geo_trace_free(out);
        return GEO_ENOMEM;
    }
    out->squares[0] = from;
    out->n = 1;
    geo_cross c;
    int sq;
    while (geo_walk_next(&w, &c, &sq)) {
        out->cross[out->n - 1] = c;
        out->squares[out->n++] = sq;
        if (c.corner >= 0)
            out->corners++;
    }
    return GEO_OK;
}

void geo_trace_free(geo_trace *t)
{
    if (!t)
        return;
    mem_free(t->squares);
    mem_free(t->cross);
    int from = t->from, to = t->to;
    memset(t, 0, sizeof *t);
    t->from = from;
    t->to = to;
}

void geo_bres_init(geo_bres *b, const geo_grid *g, int from, int to)
{
    memset(b, 0, sizeof *b);
    b->w = g->w;
    geo_xy(g, from, &b->x, &b->y);
    geo_xy(g, to, &b->x1, &b->y1);
    if (b->x < 0 || b->x1 < 0) {
        b->x1 = b->x;
        b->y1 = b->y;
        return;
    } /* nothing to walk */
    b->dx = iabs(b->x1 - b->x);
    b->dy = -iabs(b->y1 - b->y);
    b->sx = b->x < b->x1 ? 1 : -1;
    b->sy = b->y < b->y1 ? 1 : -1;
    b->err = b->dx + b->dy;
}

bool geo_bres_next(geo_bres *b, int *sq)
{
    if (b->x == b->x1 && b->y == b->y1)
        return false;
    int e2 = 2 * b->err;
    if (e2 >= b->dy) {
        b->err += b->dy;
        b->x += b->sx;
    }
    if (e2 <= b->dx) {
        b->err += b->dx;
        b->y += b->sy;
    }
    *sq = b->y * b->w + b->x;
    return true;
}
