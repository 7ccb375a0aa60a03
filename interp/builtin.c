/* builtin.c — the built-ins of the language that read the board (language.md §5.3), run by the
 * VM's BOARD instruction (vm.c): squares, units on the board, elevation, terrain elements,
 * features of squares, sides and interspaces, runs of a side feature (runtime/board.c keeps
 * them), distance, neighbours, directions, the squares within a distance, and traced lines. One C body per BUILTIN_BOARD entry of dsl/builtins.h,
 * which also builds the dispatch table; the other built-ins (min, max, len, nth...) are
 * instructions of vm.c.
 *
 * Everything here is geometry and storage read from the scene (scene.h) through runtime/board.h
 * and geo.h; what any of it means is written in .hon. Errors are E212-E218 (state_fail). Lists
 * are allocated in the evaluation's arena in one block each, lines included.
 */
#include "builtin.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LIST 4096 /* enough room for any list read from one square (units, items) */

/* ---- errors: out of the way of the built-ins' frames (no buffers there) ---- */

#define COLD static __attribute__((cold, noinline))

/* "$rifle1" or the counter's name, for messages. */
static void unit_text(vm_ctx *x, int64_t id, char *buf, size_t cap)
{
    const char *name = scene_unit_name(x->sc, id);
    const unit *u = unit_get(x->units, (int32_t)id);
    if (name)
        snprintf(buf, cap, "$%s", name);
    else
        snprintf(buf, cap, "%s", u ? u->counter : "?");
}

/* These errors are about a value: when the user's text passed it to the rules, they are placed
 * under it there (state_blame). */
COLD bool fail_off_board(vm_ctx *x, int64_t sqv)
{
    char b[32];
    bool first = !x->err.code;
    scene_square_text(sqv, b, sizeof b);
    state_fail(x, E_OFF_BOARD, "square %s is off the board (%d columns, %d rows)", b, x->sc->g->w,
               x->sc->g->h);
    if (first)
        state_blame(x, (val){ .type = T_SQUARE, .u.i = sqv });
    return false;
}

COLD bool fail_unit(vm_ctx *x, int code, int64_t u)
{
    char b[96];
    bool first = !x->err.code;
    unit_text(x, u, b, sizeof b);
    if (code == E_NOT_EMBARKED)
        state_fail(x, code, "%s is not embarked in a transport", b);
    else
        state_fail(x, code, "%s is not on the board", b);
    if (first)
        state_blame(x, (val){ .type = T_UNIT, .u.i = u });
    return false;
}

/* E215 at a square: it has no `what` (terrain, terrain element, a feature). */
COLD bool fail_square(vm_ctx *x, int64_t sqv, const char *what)
{
    char b[32];
    scene_square_text(sqv, b, sizeof b);
    return state_fail(x, E_NOTHING, "square %s has no %s", b, what);
}

COLD bool fail_no_side(vm_ctx *x, int64_t a, int64_t b)
{
    char na[32], nb[32];
    scene_square_text(a, na, sizeof na);
    scene_square_text(b, nb, sizeof nb);
    return state_fail(x, E_NO_SIDE, "squares %s and %s do not share a side", na, nb);
}

COLD bool fail_side(vm_ctx *x, int side, const char *feature, bool has)
{
    char b[64];
    scene_side_text(x->sc, side, b, sizeof b);
    return state_fail(x, E_NOTHING, "side %s has no %s%s", b, feature,
                      has ? " facing a square" : "");
}

COLD bool fail_no_facing(vm_ctx *x, int e)
{
    char b[96];
    scene_element_text(x->sc, e, b, sizeof b);
    return state_fail(x, E_NOTHING, "element %s has no facing", b);
}

/* E215 for an element whose board gives it no value (BOARD_NO_VALUE): a Defensive Bonus, a
 * stress range, a size read from it would otherwise be 0 silently. */
COLD bool fail_no_value(vm_ctx *x, int e)
{
    char b[96];
    scene_element_text(x->sc, e, b, sizeof b);
    return state_fail(x, E_NOTHING,
                      "element %s has no value (give it one: `element NAME = ... value N`)", b);
}

/* E212 for a built-in called with no board loaded; E299 for an id with no body. */
COLD bool fail_call(vm_ctx *x, uint32_t b)
{
    if (!x->sc)
        return state_fail(x, E_NO_BOARD,
                          "no board is loaded: %s() reads the board (load a scenario first)",
                          builtin_name(b));
    return state_fail(x, E_INTERNAL, "unknown board built-in %" PRIu32, b);
}

COLD bool fail_element(vm_ctx *x, int64_t e)
{
    return state_fail(x, E_NOTHING, "element #%" PRId64 " is not on this board", e);
}

COLD bool fail_side_arg(vm_ctx *x, int64_t side)
{
    return state_fail(x, E_OFF_BOARD, "side #%" PRId64 " is not a side of this board", side);
}

/* Square value v as a board square in *sq; E217 when it is off the board. */
static inline bool square_arg(vm_ctx *x, val v, int *sq)
{
    const geo_grid *g = x->sc->g;
    uint64_t sx = (uint64_t)RES_SQUARE_X(v.u.i), sy = (uint64_t)RES_SQUARE_Y(v.u.i);
    if (sx < (uint64_t)g->w && sy < (uint64_t)g->h) {
        *sq = (int)sy * g->w + (int)sx;
        return true;
    }
    return fail_off_board(x, v.u.i);
}

/* A unit id that the board can hold, else -1 (counters beyond the board's range stand
 * nowhere). */
static int board_id(int64_t u)
{
    return u >= 0 && u < BOARD_MAX_UNITS ? (int)u : -1;
}

static vlist *new_list(vm_ctx *x, size_t n)
{
    vlist *l = state_alloc(x, sizeof *l + n * sizeof(val));
    if (l)
        l->len = n;
    return l;
}

const vlist builtin_empty_list = { .len = 0 };

/* The n board ids as a new list (E209 when the arena is exhausted) of `type`: T_SQUARE (the
 * squares as square values) or T_UNIT; no ids: builtin_empty_list, nothing made (units_at
 * answers it at most squares a line crosses). */
static bool list_of(vm_ctx *x, const int *ids, size_t n, uint32_t type, val *out)
{
    if (n == 0) {
        out->u.list = (vlist *)&builtin_empty_list; /* never written: builtin.h */
        return true;
    }
    vlist *l = new_list(x, n);
    if (!l)
        return false;
    for (size_t i = 0; i < n; i++)
        l->items[i] = (val){ .type = type,
                             .u.i = type == T_SQUARE ? scene_square_value(x->sc, ids[i]) : ids[i] };
    out->u.list = l;
    return true;
}

/* Element value v as a board element in *e; E215 when the board has no such element. */
static inline bool element_arg(vm_ctx *x, val v, int *e)
{
    if (v.u.i >= 0 && v.u.i < board_element_count(x->sc->b)) {
        *e = (int)v.u.i;
        return true;
    }
    return fail_element(x, v.u.i);
}

/* Side value v as a side index of the board in *side; E217 when it is none. */
static inline bool side_arg(vm_ctx *x, val v, int *side)
{
    if (v.u.i >= 0 && v.u.i < geo_side_count(x->sc->g)) {
        *side = (int)v.u.i;
        return true;
    }
    return fail_side_arg(x, v.u.i);
}

/* The square value of board square sq of a w-wide board. */
static inline int64_t sqv(int w, int sq)
{
    return RES_SQUARE(sq % w, sq / w);
}

/* A list of `cap` steps (its length set to n later) whose records follow it in one block. */
static vlist *new_steps(vm_ctx *x, size_t cap, val **records)
{
    vlist *l = state_alloc(x, sizeof *l + cap * sizeof(val) + cap * STEP_NFIELDS * sizeof(val));
    if (!l)
        return NULL;
    l->len = 0;
    *records = l->items + cap;
    return l;
}

/* Whether the corner touch of step record f of a traced line meets side feature `id` on board
 * bd of grid g: one of the four sides meeting at the corner (from-left, left-square,
 * from-right, right-square) carries it. */
static bool corner_meets(const geo_grid *g, const board *bd, const val *f, int id)
{
    int fx = (int)RES_SQUARE_X(f[STEP_FROM].u.i), fy = (int)RES_SQUARE_Y(f[STEP_FROM].u.i);
    int tx = (int)RES_SQUARE_X(f[STEP_SQUARE].u.i), ty = (int)RES_SQUARE_Y(f[STEP_SQUARE].u.i);
    const int64_t beside[2] = { f[STEP_LEFT].u.i, f[STEP_RIGHT].u.i };
    for (int k = 0; k < 2; k++) {
        int sx = (int)RES_SQUARE_X(beside[k]), sy = (int)RES_SQUARE_Y(beside[k]);
        if (board_side_has_id(bd, builtin_side_xy(g, fx, fy, sx, sy), id) ||
            board_side_has_id(bd, builtin_side_xy(g, sx, sy, tx, ty), id))
            return true;
    }
    return false;
}

/* line(a, b): the supercover trace (geo_walk), a excluded, b included. The walk's step
 * (geo_walk_step) written out for the records it fills: the two fractions it compares kept as
 * running products (l = (2 ix + 1) ny, r = (2 iy + 1) nx, each grown by its own step as ix or
 * iy grows), and each side numbered from the square left (geo_square_side_xy's numbering)
 * without the crossing's other fields; the same steps, sides and squares (test_board
 * line_gives_the_walks_crossings). With `meeting` (a constant at each call), also
 * line_meeting's list of the steps that meet side feature id, into *mout, made in the same
 * loop (the side crossed tested as it is numbered; at a corner touch the four sides meeting
 * there): a list of the line's room, allocated after the line's block. */
static inline __attribute__((always_inline)) bool line_trace(vm_ctx *x, int a, int b, val *out,
                                                             bool meeting, int id, val *mout)
{
    const geo_grid *g = x->sc->g;
    geo_walk w;
    geo_status st = geo_walk_init(&w, g, a, b);
    if (st == GEO_ETOPO)
        return state_fail(x, E_TOPOLOGY, "lines are traced on square boards only");
    if (st != GEO_OK)
        return state_fail(x, E_INTERNAL, "cannot trace a line");
    const size_t cap = (size_t)w.nx + (size_t)w.ny;
    val *rec;
    vlist *l = new_steps(x, cap, &rec);
    if (!l)
        return false;
    vlist *m = meeting ? new_list(x, cap) : NULL;
    if (meeting && !m)
        return false;
    const board *bd = x->sc->b;
    size_t k = 0; /* the steps meeting id so far */
    const uint32_t step_type = x->p->records[R_STEP].type;
    const int gw = g->w, vbase = g->w * (g->h + 1), bx = w.bx, by = w.by, sx = w.sx, sy = w.sy;
    /* the side crossed leaving (px, py) along x: the column line on its right when sx > 0,
     * else on its left; along y: the row line below it when sy > 0, else above */
    const int vx = sx > 0, hy = sy > 0;
    const long dl = 2L * w.ny, dr = 2L * w.nx;
    long lx = w.ny, ry = w.nx;
    int px = w.x, py = w.y;
    size_t n = 0; /* the steps so far, in a register: l->len is set once, at the end */
    for (val *f = rec; n < cap && (px != bx || py != by); f += STEP_NFIELDS) {
        const int64_t from = RES_SQUARE(px, py);
        if (lx < ry) { /* through a column line */
            const int side = vbase + py * (gw + 1) + px + vx;
            px += sx;
            lx += dl;
            const int64_t to = RES_SQUARE(px, py);
            builtin_put_step(f, from, to, 0, side, to, to, (int64_t)++n);
            if (meeting && board_side_has_id(bd, side, id))
                m->items[k++] = (val){ .type = step_type, .u.rec = f };
        } else if (lx > ry) { /* through a row line */
            const int side = (py + hy) * gw + px;
            py += sy;
            ry += dr;
            const int64_t to = RES_SQUARE(px, py);
            builtin_put_step(f, from, to, 0, side, to, to, (int64_t)++n);
            if (meeting && board_side_has_id(bd, side, id))
                m->items[k++] = (val){ .type = step_type, .u.rec = f };
        } else {
            /* through the corner: u the square across the column line, v across the row
             * line; u lies left of the line iff sx * sy > 0; the side given is the one
             * between the square left and that one (geo_walk_step's sides[0]) */
            const bool u_left = sx * sy > 0;
            const int64_t u = RES_SQUARE(px + sx, py), v = RES_SQUARE(px, py + sy);
            const int side = u_left ? vbase + py * (gw + 1) + px + vx : (py + hy) * gw + px;
            px += sx;
            py += sy;
            lx += dl;
            ry += dr;
            builtin_put_step(f, from, RES_SQUARE(px, py), 1, side, u_left ? u : v, u_left ? v : u,
                             (int64_t)++n);
            /* the four sides meeting at the corner (corner_meets' four), from the square left,
             * (px - sx, py - sy): the column line's beside it and beside the square across the
             * row line, the row line's beside it and beside the square across the column line */
            if (meeting) {
                const int col = vbase + (py - sy) * (gw + 1) + (px - sx) + vx;
                const int row = (py - sy + hy) * gw + (px - sx);
                if (board_side_has_id(bd, col, id) ||
                    board_side_has_id(bd, col + sy * (gw + 1), id) ||
                    board_side_has_id(bd, row, id) || board_side_has_id(bd, row + sx, id))
                    m->items[k++] = (val){ .type = step_type, .u.rec = f };
            }
        }
        l->items[n - 1] = (val){ .type = step_type, .u.rec = f };
    }
    l->len = n;
    x->steps_made += n;
    out->u.list = l;
    if (meeting) {
        m->len = k;
        mout->u.list = m;
    }
    return true;
}

static bool line_steps(vm_ctx *x, int a, int b, val *out)
{
    return line_trace(x, a, b, out, false, -1, NULL);
}

/* bresenham(a, b): the classic walk (geo_bres), one square per move. A diagonal move is
 * reported as a corner touch whose left and right are the two squares beside it. */
static bool bresenham_steps(vm_ctx *x, int a, int b, val *out)
{
    const geo_grid *g = x->sc->g;
    if (g->topo != GEO_SQUARE)
        return state_fail(x, E_TOPOLOGY, "lines are traced on square boards only");
    int ax, ay, bx, by;
    geo_xy(g, a, &ax, &ay);
    geo_xy(g, b, &bx, &by);
    int dx = bx > ax ? bx - ax : ax - bx, dy = by > ay ? by - ay : ay - by;
    size_t cap = (size_t)(dx > dy ? dx : dy);
    val *rec;
    vlist *l = new_steps(x, cap, &rec);
    if (!l)
        return false;
    const uint32_t step_type = x->p->records[R_STEP].type;
    /* the walk of geo_bres (runtime/geo.h), inlined: err = dx - dy; a move steps x when
     * 2 err >= -dy and y when 2 err <= dx */
    int sx = ax < bx ? 1 : -1, sy = ay < by ? 1 : -1, err = dx - dy, fx = ax, fy = ay;
    while (l->len < cap && (fx != bx || fy != by)) {
        int e2 = 2 * err, tx = fx, ty = fy;
        if (e2 >= -dy) {
            err -= dy;
            tx += sx;
        }
        if (e2 <= dx) {
            err += dx;
            ty += sy;
        }
        val *f = rec + l->len * STEP_NFIELDS;
        builtin_bres_record(g, f, fx, fy, tx, ty, (int64_t)l->len + 1);
        l->items[l->len] = (val){ .type = step_type, .u.rec = f };
        l->len++;
        fx = tx;
        fy = ty;
    }
    x->steps_made += l->len;
    out->u.list = l;
    return true;
}

/* units() (carrier < 0: every unit on the board, placed or embarked, in id order) or
 * passengers(carrier) (the units embarked in it, in id order). */
static bool unit_list(vm_ctx *x, int carrier, val *out)
{
    const board *bd = x->sc->b;
    size_t k = carrier < 0 ? board_units(bd, NULL, 0) : board_units_in(bd, carrier, NULL, 0);
    int *ids = k ? state_alloc(x, k * sizeof *ids) : NULL;
    if (k && !ids)
        return false;
    if (k)
        k = carrier < 0 ? board_units(bd, ids, k) : board_units_in(bd, carrier, ids, k);
    return list_of(x, ids, k, T_UNIT, out);
}

/* items_near(sq), or when `sum` item_value_near(sq, item): the items on the four corners of sq
 * (NW, NE, SE, SW), repeats included. E218 on a hex board, which has no interspaces. */
static bool items_near(vm_ctx *x, int sq, bool sum, int64_t item, val *out)
{
    static const geo_dir corners[4] = { GEO_NW, GEO_NE, GEO_SE, GEO_SW };
    if (x->sc->g->topo != GEO_SQUARE)
        return state_fail(x, E_TOPOLOGY, "interspaces exist on square boards only");
    board_feature fs[4][64];
    size_t nf[4], total = 0;
    int64_t value = 0;
    for (int i = 0; i < 4; i++) {
        int is = geo_interspace_of(x->sc->g, sq, corners[i]);
        nf[i] = is < 0 ? 0 : board_features(x->sc->b, BOARD_AT_INTERSPACE, is, fs[i], 64);
        if (nf[i] > 64)
            nf[i] = 64;
        total += nf[i];
        for (size_t k = 0; k < nf[i]; k++)
            if (fs[i][k].id == item)
                value += fs[i][k].value;
    }
    if (sum) {
        out->u.i = value;
        return true;
    }
    vlist *l = new_list(x, total);
    if (!l)
        return false;
    const uint32_t t = x->p->enums[E_INTERSPACE_ITEM].type;
    size_t at = 0;
    for (int i = 0; i < 4; i++)
        for (size_t k = 0; k < nf[i]; k++)
            l->items[at++] = (val){ .type = t, .u.i = fs[i][k].id };
    out->u.list = l;
    return true;
}

/* direction(a, b) (language.md §5.3): the neighbour's direction when b is next to a, else the
 * compass direction nearest to the straight line from a's centre to b's: diagonal when the
 * smaller of |dx|, |dy| is more than (sqrt 2 - 1) times the larger, i.e. when the line is
 * nearer 45 degrees than the axis (an exact integer test: (lo + hi)^2 > 2 hi^2; no whole
 * vector lies on the 22.5 degree boundary, so there is never a tie). Hexes: neighbours only
 * (E218 otherwise). a == b is E215. */
static bool direction_of(vm_ctx *x, val va, int a, int b, val *out)
{
    const geo_grid *g = x->sc->g;
    if (a == b) {
        char name[32];
        scene_square_text(va.u.i, name, sizeof name);
        return state_fail(x, E_NOTHING, "there is no direction from square %s to itself", name);
    }
    int d = geo_direction(g, a, b);
    if (d >= 0) {
        out->u.i = d;
        return true;
    }
    if (g->topo != GEO_SQUARE)
        return state_fail(x, E_TOPOLOGY,
                          "direction() between hexes that are not neighbours is not defined");
    int ax, ay, bx, by;
    geo_xy(g, a, &ax, &ay);
    geo_xy(g, b, &bx, &by);
    long dx = bx - ax, dn = ay - by; /* east and north (rows grow southward) */
    long adx = dx < 0 ? -dx : dx, adn = dn < 0 ? -dn : dn;
    long lo = adx < adn ? adx : adn, hi = adx < adn ? adn : adx;
    geo_dir dir;
    if ((lo + hi) * (lo + hi) > 2 * hi * hi)
        dir = dn > 0 ? (dx > 0 ? GEO_NE : GEO_NW) : (dx > 0 ? GEO_SE : GEO_SW);
    else if (adx > adn)
        dir = dx > 0 ? GEO_E : GEO_W;
    else
        dir = dn > 0 ? GEO_N : GEO_S;
    out->u.i = dir;
    return true;
}

/* squares_within(sq, n): every square of the board at distance <= n, in square order (row by
 * row); n < 0 gives []. */
/* The squares geometry function f (geo_squares_within, geo_interspace_block) lists for place
 * `at` and reach n, as a new list; n is cut to w + h, past which no two squares are. */
static bool geo_squares(vm_ctx *x, size_t (*f)(const geo_grid *, int, int, int *, size_t), int at,
                        int64_t n, val *out)
{
    const geo_grid *g = x->sc->g;
    if (n < 0)
        return list_of(x, NULL, 0, T_SQUARE, out);
    int r = n > g->w + g->h ? g->w + g->h : (int)n;
    size_t k = f(g, at, r, NULL, 0);
    int *sqs = state_alloc(x, (k ? k : 1) * sizeof *sqs);
    if (!sqs)
        return false;
    k = f(g, at, r, sqs, k);
    return list_of(x, sqs, k, T_SQUARE, out);
}

static bool squares_within(vm_ctx *x, int sq, int64_t n, val *out)
{
    return geo_squares(x, geo_squares_within, sq, n, out);
}

/* ---- the bodies, one per BUILTIN_BOARD of dsl/builtins.h. The resolver has checked the
 * arguments' types; the body's runner (run_BODY, made from the entry below) has checked every
 * square, element and side argument against the board (E217) and passes their board indexes
 * in `at`. out->type holds the result type. ---- */

/* The board index of each argument that names a square, an element or a side: at.a of the
 * first, at.b of the second, at.c of the third (-1 for the others). */
typedef struct board_at {
    int a, b, c;
} board_at;

#define BODY(name) static bool name(vm_ctx *x, const val *args, board_at at, val *out)

BODY(builtin_square_of)
{
    int s0, s1;
    if (!board_unit_squares(x->sc->b, board_id(args[0].u.i), &s0, &s1))
        return fail_unit(x, E_OFF_BOARD, args[0].u.i);
    out->u.i = sqv(x->sc->g->w, s0);
    return true;
}

BODY(builtin_squares_of)
{
    int sqs[2], s0, s1;
    size_t k = 0;
    if (board_unit_squares(x->sc->b, board_id(args[0].u.i), &s0, &s1)) {
        sqs[k++] = s0;
        if (s1 >= 0)
            sqs[k++] = s1;
    }
    return list_of(x, sqs, k, T_SQUARE, out);
}

/* With no board loaded, false: the units one can name then are counters, never on a board. */
BODY(builtin_on_board)
{
    out->u.i = x->sc && board_unit_present(x->sc->b, board_id(args[0].u.i));
    return true;
}

BODY(builtin_embarked)
{
    out->u.i = board_unit_embarked_in(x->sc->b, board_id(args[0].u.i)) >= 0;
    return true;
}

BODY(builtin_carrier)
{
    int t = board_unit_embarked_in(x->sc->b, board_id(args[0].u.i));
    if (t < 0)
        return fail_unit(x, E_NOT_EMBARKED, args[0].u.i);
    out->u.i = t;
    return true;
}

BODY(builtin_units_at)
{
    int ids[MAX_LIST];
    size_t k = board_units_at(x->sc->b, at.a, ids, MAX_LIST);
    return list_of(x, ids, k > MAX_LIST ? MAX_LIST : k, T_UNIT, out);
}

BODY(builtin_elevation)
{
    out->u.i = board_elevation(x->sc->b, at.a);
    return true;
}

/* The terrain square sq shows: the terrain the face of its element declares it shows (`face F
 * "doc" shows T`, language.md §6.1: a building turned to its ruin side), else the board's.
 * While no element was turned (scene.h) the face is not read. */
static int shown_terrain(const vm_ctx *x, int sq)
{
    int t = board_terrain(x->sc->b, sq);
    if (!x->sc->nelements_turned)
        return t;
    int e = board_element_at(x->sc->b, sq);
    if (e < 0 || (size_t)e >= x->sc->nelement_faces)
        return t;
    int32_t f = x->sc->element_faces[e];
    const res_enum *faces = &x->p->enums[E_FACE];
    return f >= 0 && (size_t)f < faces->len && faces->members[f].shows >= 0
               ? faces->members[f].shows
               : t;
}

BODY(builtin_terrain)
{
    out->u.i = shown_terrain(x, at.a);
    if (out->u.i < 0 || (size_t)out->u.i >= x->p->enums[E_TERRAIN].len)
        return fail_square(x, args[0].u.i, "terrain");
    return true;
}

BODY(builtin_element_at)
{
    out->u.i = board_element_at(x->sc->b, at.a);
    if (out->u.i < 0)
        return fail_square(x, args[0].u.i, "terrain element");
    return true;
}

BODY(builtin_in_element)
{
    out->u.i = board_element_at(x->sc->b, at.a) >= 0;
    return true;
}

BODY(builtin_element_terrain)
{
    out->u.i = board_element_type(x->sc->b, at.a);
    return true;
}

BODY(builtin_element_value)
{
    int v, f;
    board_element_attr(x->sc->b, at.a, &v, &f);
    if (v == BOARD_NO_VALUE)
        return fail_no_value(x, at.a);
    out->u.i = v;
    return true;
}

/* A named value or a marker count of element at.a (0 when it has none). */
static bool element_item(vm_ctx *x, board_place where, int elem, int64_t id, val *out)
{
    board_feature f;
    out->u.i =
        id >= 0 && id < BOARD_MAX_ID && board_has(x->sc->b, where, elem, (int)id, &f) ? f.value : 0;
    return true;
}

BODY(builtin_element_number)
{
    return element_item(x, BOARD_AT_ELEMENT_VALUE, at.a, args[1].u.i, out);
}

/* The named value id of the scenario's `mine_counter n` line into *f; false when it gives none
 * (or n is not a counter number the board keeps, or no board is loaded). */
static bool mine_counter_item(vm_ctx *x, const val *args, board_feature *f)
{
    int64_t n = args[0].u.i, id = args[1].u.i;
    return x->sc && n >= 0 && n < BOARD_MAX_NUMBER && id >= 0 && id < BOARD_MAX_ID &&
           board_has(x->sc->b, BOARD_AT_NUMBERED, (int)n, (int)id, f);
}

BODY(builtin_mine_counter_has)
{
    board_feature f;
    out->u.i = mine_counter_item(x, args, &f);
    return true;
}

BODY(builtin_mine_counter_value)
{
    board_feature f;
    out->u.i = mine_counter_item(x, args, &f) ? f.value : 0;
    return true;
}

BODY(builtin_element_markers)
{
    return element_item(x, BOARD_AT_ELEMENT_MARKER, at.a, args[1].u.i, out);
}

BODY(builtin_element_facing)
{
    int v, f;
    board_element_attr(x->sc->b, at.a, &v, &f);
    if (f < 0 || f >= GEO_NDIRS)
        return fail_no_facing(x, at.a);
    out->u.i = f;
    return true;
}

BODY(builtin_element_squares)
{
    size_t k = board_element_squares(x->sc->b, at.a, NULL, 0);
    int *sqs = state_alloc(x, (k ? k : 1) * sizeof *sqs);
    if (!sqs)
        return false;
    board_element_squares(x->sc->b, at.a, sqs, k);
    return list_of(x, sqs, k, T_SQUARE, out);
}

BODY(builtin_corner_square)
{
    int e = board_element_at(x->sc->b, at.a);
    out->u.i = e >= 0 && board_element_corner(x->sc->b, e, at.a);
    return true;
}

BODY(builtin_has_feature)
{
    out->u.i = board_has(x->sc->b, BOARD_AT_SQUARE, at.a, (int)args[1].u.i, NULL);
    return true;
}

BODY(builtin_feature_value)
{
    board_feature f;
    if (!board_has(x->sc->b, BOARD_AT_SQUARE, at.a, (int)args[1].u.i, &f))
        return fail_square(x, args[0].u.i, x->p->enums[E_SQUARE_FEATURE].members[args[1].u.i].name);
    out->u.i = f.value;
    return true;
}

BODY(builtin_side_between)
{
    int side = geo_side_between(x->sc->g, at.a, at.b);
    if (side < 0)
        return fail_no_side(x, args[0].u.i, args[1].u.i);
    out->u.i = side;
    return true;
}

BODY(builtin_side_has)
{
    out->u.i = board_side_has(x->sc->b, at.a, (int)args[1].u.i, NULL);
    return true;
}

/* side_value(s, f) or, when `facing`, side_facing(s, f). */
static bool side_feature(vm_ctx *x, const val *args, int side, bool facing, val *out)
{
    board_feature f;
    bool has = board_side_has(x->sc->b, side, (int)args[1].u.i, &f);
    if (!has || (facing && f.facing < 0))
        return fail_side(x, side, x->p->enums[E_SIDE_FEATURE].members[args[1].u.i].name, has);
    out->u.i = facing ? scene_square_value(x->sc, f.facing) : f.value;
    return true;
}

BODY(builtin_side_value)
{
    return side_feature(x, args, at.a, false, out);
}

BODY(builtin_side_facing)
{
    return side_feature(x, args, at.a, true, out);
}

BODY(builtin_sides_of)
{
    static const geo_dir nesw[4] = { GEO_N, GEO_E, GEO_S, GEO_W };
    const geo_grid *g = x->sc->g;
    if (g->topo != GEO_SQUARE)
        return state_fail(x, E_TOPOLOGY, "sides_of() is for square boards");
    vlist *l = new_list(x, 4);
    if (!l)
        return false;
    for (int i = 0; i < 4; i++)
        l->items[i] = (val){ .type = T_SIDE, .u.i = geo_side_of(g, at.a, nesw[i]) };
    out->u.list = l;
    return true;
}

BODY(builtin_joined_sides)
{
    const vlist *given = args[0].u.list;
    size_t n = given ? given->len : 0;
    int *sides = state_alloc(x, (n ? n : 1) * sizeof *sides);
    if (!sides)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!side_arg(x, given->items[i], &sides[i]))
            return false;
    const board *bd = x->sc->b;
    int id = (int)args[1].u.i;
    size_t k = board_side_runs(bd, id, sides, n, NULL, 0);
    int *run = k == BOARD_NOMEM ? NULL : state_alloc(x, (k ? k : 1) * sizeof *run);
    if (k == BOARD_NOMEM)
        return state_fail(x, E_MEMORY, "out of memory following the runs of a side feature");
    if (!run)
        return false;
    board_side_runs(bd, id, sides, n, run, k);
    return list_of(x, run, k, T_SIDE, out);
}

/* sides_with(sq, f): sides_of(sq)'s sides that carry f, as [sd in sides_of(sq): side_has(sd, f)]
 * answers (E218 on a hex board, as sides_of); none: the shared empty list. The four sides are
 * numbered from the square's column and row as geo_side_of numbers them (board.md §1: the
 * horizontal sides row by row, then the vertical ones), the feature's bit read in place. */
BODY(builtin_sides_with)
{
    const geo_grid *g = x->sc->g;
    if (g->topo != GEO_SQUARE)
        return state_fail(x, E_TOPOLOGY, "sides_with() is for square boards");
    const board *bd = x->sc->b;
    int id = (int)args[1].u.i;
    int sx = (int)RES_SQUARE_X(args[0].u.i), sy = (int)RES_SQUARE_Y(args[0].u.i), w = g->w;
    int west = w * (g->h + 1) + sy * (w + 1) + sx;
    const int nesw[4] = { sy * w + sx, west + 1, (sy + 1) * w + sx, west };
    int sides[4];
    size_t k = 0;
    for (int i = 0; i < 4; i++)
        if (board_side_has_id(bd, nesw[i], id))
            sides[k++] = nesw[i];
    if (k == 0) {
        out->u.list = (vlist *)&builtin_empty_list; /* never written: builtin.h */
        return true;
    }
    vlist *l = new_list(x, k);
    if (!l)
        return false;
    for (size_t i = 0; i < k; i++)
        l->items[i] = (val){ .type = T_SIDE, .u.i = sides[i] };
    out->u.list = l;
    return true;
}

/* sides_joined(a, b, f): both sides on one run of f (board_side_run); E209 when the runs could
 * not be computed, as joined_sides. */
BODY(builtin_sides_joined)
{
    const board *bd = x->sc->b;
    int id = (int)args[2].u.i;
    int ra = board_side_run(bd, id, at.a);
    int rb = ra >= 0 ? board_side_run(bd, id, at.b) : -1;
    if (ra == BOARD_RUN_NOMEM)
        return state_fail(x, E_MEMORY, "out of memory following the runs of a side feature");
    out->u.i = ra >= 0 && ra == rb;
    return true;
}

BODY(builtin_side_squares)
{
    int s0, s1, sqs[2];
    size_t k = 0;
    geo_side_squares(x->sc->g, at.a, &s0, &s1);
    if (s0 >= 0)
        sqs[k++] = s0;
    if (s1 >= 0)
        sqs[k++] = s1;
    return list_of(x, sqs, k, T_SQUARE, out);
}

BODY(builtin_items_near)
{
    return items_near(x, at.a, false, 0, out);
}

BODY(builtin_item_value_near)
{
    return items_near(x, at.a, true, args[1].u.i, out);
}

BODY(builtin_distance)
{
    out->u.i = geo_distance(x->sc->g, at.a, at.b);
    return true;
}

BODY(builtin_adjacent)
{
    out->u.i = geo_distance(x->sc->g, at.a, at.b) == 1;
    return true;
}

BODY(builtin_neighbours)
{
    int sqs[8];
    size_t k = geo_neighbours(x->sc->g, at.a, true, sqs);
    return list_of(x, sqs, k, T_SQUARE, out);
}

/* The rules trace one shot's line many times (each rule of sight_along walks it, and
 * range_limit_along, and defensive_bonus): the last line traced is kept for the evaluation. A
 * list is never changed once made (LIST_PUSH grows only a loop's own list), so it is shared. */
BODY(builtin_line)
{
    if (x->line_list && x->line_a == at.a && x->line_b == at.b) {
        out->u.list = x->line_list;
        return true;
    }
    if (!line_steps(x, at.a, at.b, out))
        return false;
    x->line_list = out->u.list;
    x->line_a = at.a;
    x->line_b = at.b;
    return true;
}

/* line_meeting(a, b, f): the steps of line(a, b) (the list kept for the evaluation, traced
 * if need be, as builtin_line does, with its errors) that meet side feature f: the side a step
 * crosses carries it, or at a corner touch one of the four sides meeting there does
 * (corner_meets); in order, as a new list of the same records (its room that of the whole
 * line, in the arena). A rule that asks something of every step crossing f loops over these
 * few instead of the whole line. A line not yet kept is traced with its meeting steps listed
 * in the same loop (line_trace), then kept as builtin_line keeps it. */
BODY(builtin_line_meeting)
{
    int id = (int)args[2].u.i;
    if (!x->line_list || x->line_a != at.a || x->line_b != at.b) {
        val whole = { 0 };
        if (!line_trace(x, at.a, at.b, &whole, true, id, out))
            return false;
        x->line_list = whole.u.list;
        x->line_a = at.a;
        x->line_b = at.b;
        return true;
    }
    const vlist *l = x->line_list;
    vlist *m = new_list(x, l->len);
    if (!m)
        return false;
    const geo_grid *g = x->sc->g;
    const board *bd = x->sc->b;
    /* the side's bit (board_side_has_id) read from the board's view, for the features that
     * have one (every bundled one), its test out of the loop */
    const uint64_t *bits =
        (unsigned)id < BOARD_SIDE_BITS ? ((const board_view *)(const void *)bd)->side_bits : NULL;
    size_t k = 0;
    for (size_t i = 0; i < l->len; i++) {
        const val *f = l->items[i].u.rec;
        bool meets = f[STEP_CORNER].u.i ? corner_meets(g, bd, f, id)
                     : bits             ? (bits[f[STEP_SIDE].u.i] >> id) & 1
                                        : board_side_has_id(bd, (int)f[STEP_SIDE].u.i, id);
        if (meets)
            m->items[k++] = l->items[i];
    }
    m->len = k;
    out->u.list = m;
    return true;
}

BODY(builtin_bresenham)
{
    return bresenham_steps(x, at.a, at.b, out);
}

BODY(builtin_side_of_line)
{
    out->u.i = geo_side_of_line(x->sc->g, at.a, at.b, at.c);
    return true;
}

BODY(builtin_face)
{
    const scene *sc = x->sc;
    out->u.i = args[0].u.i >= 0 && (size_t)args[0].u.i < sc->nunit_faces
                   ? sc->unit_faces[args[0].u.i]
                   : RES_FACE_NONE;
    return true;
}

BODY(builtin_element_face)
{
    out->u.i = (size_t)at.a < x->sc->nelement_faces ? x->sc->element_faces[at.a] : RES_FACE_NONE;
    return true;
}

BODY(builtin_units)
{
    return unit_list(x, -1, out);
}

BODY(builtin_all_units)
{
    const scene *sc = x->sc;
    size_t n = sc->units->len - (size_t)sc->first_unit;
    int *ids = n ? state_alloc(x, n * sizeof *ids) : NULL;
    if (n && !ids)
        return false;
    for (size_t k = 0; k < n; k++)
        ids[k] = sc->first_unit + (int)k;
    return list_of(x, ids, n, T_UNIT, out);
}

BODY(builtin_passengers)
{
    return unit_list(x, board_id(args[0].u.i), out);
}

BODY(builtin_direction)
{
    return direction_of(x, args[0], at.a, at.b, out);
}

BODY(builtin_template_squares)
{
    const geo_grid *g = x->sc->g;
    int64_t d = args[1].u.i, n = args[2].u.i;
    bool corner = d == GEO_NW || d == GEO_NE || d == GEO_SE || d == GEO_SW;
    if (g->topo != GEO_SQUARE || !corner)
        return state_fail(x, E_TOPOLOGY,
                          "a template is centred on an interspace: a square board's corner "
                          "(northwest, northeast, southeast or southwest of a square)");
    return geo_squares(x, geo_interspace_block, geo_interspace_of(g, at.a, (geo_dir)d), n, out);
}

static int cmp_ids(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The units on l's squares from each square's own list of units (board_units_at: the board keeps
 * one a square, kept by every placement, move, removal and undo, runtime/board.h), so the work
 * is the units on those squares, not every unit of the board: the set-up checks of a board ask
 * this once a unit, and a scan of all units made a 20,000-unit board's load quadratic (sitting
 * 20, bench.md §10). Sorted into pool order (ids ascending), each unit once: a 2-square unit is
 * on two lists, and l may name a square twice. */
BODY(builtin_units_on)
{
    const vlist *l = args[0].u.list;
    const board *bd = x->sc->b;
    size_t total = 0;
    for (size_t j = 0; l && j < l->len; j++) {
        int q = scene_square(x->sc, l->items[j].u.i);
        if (q >= 0)
            total += board_units_at(bd, q, NULL, 0);
    }
    int *ids = state_alloc(x, (total ? total : 1) * sizeof *ids);
    if (!ids)
        return false;
    size_t n = 0;
    for (size_t j = 0; l && j < l->len && n < total; j++) {
        int q = scene_square(x->sc, l->items[j].u.i);
        if (q >= 0)
            n += board_units_at(bd, q, ids + n, total - n);
    }
    if (n > total)
        n = total;
    qsort(ids, n, sizeof *ids, cmp_ids);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if ((k == 0 || ids[k - 1] != ids[i]) && board_unit_embarked_in(bd, ids[i]) < 0)
            ids[k++] = ids[i];
    return list_of(x, ids, k, T_UNIT, out);
}

/* Counter identity, not a rule: two units are of one counter when the pool copied both from the
 * same `counter` declaration (its name, unit.counter). */
BODY(builtin_same_counter)
{
    const unit *a = unit_get(x->units, (int32_t)args[0].u.i);
    const unit *b = unit_get(x->units, (int32_t)args[1].u.i);
    out->u.i = a && b && a->counter && b->counter && strcmp(a->counter, b->counter) == 0;
    return true;
}

/* Whether unit args[0] has the value of slot args[1] (its counter's or one a rule set). */
BODY(builtin_gives_value)
{
    int64_t v;
    (void)at;
    out->u.i = args[1].u.i >= 0 && args[1].u.i <= UINT32_MAX &&
               unit_get_value(x->units, (int32_t)args[0].u.i, (uint32_t)args[1].u.i, &v);
    return true;
}

BODY(builtin_squares_within)
{
    return squares_within(x, at.a, args[1].u.i, out);
}

#undef BODY

/* ---- dispatch ---- */

enum {
#define BTYPE(code, text, own) B_##code,
#include "builtins.h"
};

/* Argument i of a built-in, whose type code is `code` (a constant where it is inlined):
 * a square, an element or a side is checked against the board and its board index put in
 * *at; anything else is taken as it is. */
static inline bool check_arg(vm_ctx *x, int code, const val *args, int i, int *at)
{
    switch (code) {
    case B_SQUARE: return square_arg(x, args[i], at);
    case B_ELEMENT: return element_arg(x, args[i], at);
    case B_SIDE: return side_arg(x, args[i], at);
    default: return true;
    }
}

/* For each board built-in, run_BODY: checks its arguments by their codes, then runs BODY. */
#define BUILTIN_BOARD(id, name, body, p1, p2, p3, ...)                                        \
    static bool run_##body(vm_ctx *x, const val *args, val *out)                              \
    {                                                                                         \
        board_at at = { -1, -1, -1 };                                                         \
        if (!check_arg(x, B_##p1, args, 0, &at.a) || !check_arg(x, B_##p2, args, 1, &at.b) || \
            !check_arg(x, B_##p3, args, 2, &at.c))                                            \
            return false;                                                                     \
        return body(x, args, at, out);                                                        \
    }
#include "builtins.h"

/* The runner of each board built-in, by id (NULL for the built-ins compiled to instructions). */
static bool (*const runners[RES_BI_COUNT])(vm_ctx *x, const val *args, val *out) = {
#define BUILTIN_BOARD(id, name, body, ...) [RES_BI_##id] = run_##body,
#include "builtins.h"
};

bool builtin_board(vm_ctx *x, uint32_t b, const val *args, uint32_t n, val *out)
{
    (void)n;
    /* With no board there is no mine_counter line: the rule files' counters answer; gives_value
     * and same_counter read the unit pool only; on_board answers false (a counter is never on
     * the board, and with none loaded a counter is all a rule can name). */
    bool boardless = b == RES_BI_MINE_COUNTER_HAS || b == RES_BI_MINE_COUNTER_VALUE ||
                     b == RES_BI_GIVES_VALUE || b == RES_BI_SAME_COUNTER || b == RES_BI_ON_BOARD;
    if ((!x->sc && !boardless) || b >= RES_BI_COUNT || !runners[b])
        return fail_call(x, b);
    return runners[b](x, args, out);
}
