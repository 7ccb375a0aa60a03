/* walk.c — the loops over `bresenham(a, b)` that walk the squares as they go (walk.h says how
 * the walk is held and why `line` is not walked so; vm.c's WALK_START, WALK_NEXT and WALK_BACK
 * call in here). The geometry is runtime/geo.h's classic Bresenham walk (geo_bres, inlined as
 * builtin.c's bresenham_steps inlines it); the records made are those of builtin.c's list,
 * field for field (builtin_bres_record). Nothing here knows what a step means.
 */
#include "walk.h"

#include <stdint.h>

#include "builtin.h"

_Static_assert(GEO_MAX_DIM < 256, "a walk's squares are packed in 8 bits a coordinate");

/* What a walk keeps fixed from its start to its end (the loop's first hidden local points at
 * it, in the evaluation's arena): its end and the room for its steps' records. */
typedef struct walk_plan {
    const geo_grid *g;
    uint32_t step_type;         /* the type of a `step` record */
    int bx, by, sx, sy, dx, dy; /* the end, the direction of each axis and the offsets */
    val rec[];                  /* room for every step's record, STEP_NFIELDS values each */
} walk_plan;

/* The second local: column x, row y of the square reached (the next step's `from`), the
 * steps made n, and the error term err, packed. */
static inline int64_t pack(int px, int py, int n, int err)
{
    return (int64_t)px | (int64_t)py << 8 | (int64_t)n << 16 |
           (int64_t)(uint16_t)(int16_t)err << 32;
}

bool walk_start(vm_ctx *x, uint32_t bi, const val *args, val *plan, val *state)
{
    uint64_t ax, ay, bx, by;
    if (bi != RES_BI_BRESENHAM)
        return state_fail(x, E_INTERNAL, "only bresenham(a, b) is walked as it goes");
    if (!builtin_square_pair(x, args[0], args[1], &ax, &ay, &bx, &by)) {
        /* no board, a hex board, a square off it: the built-in reports it */
        val r = { .type = T_INT };
        if (!builtin_board(x, bi, args, 2, &r))
            return false;
        return state_fail(x, E_INTERNAL, "bresenham(a, b) answered where it cannot");
    }
    int dx = (int)(bx > ax ? bx - ax : ax - bx), dy = (int)(by > ay ? by - ay : ay - by);
    /* one column and one row at most a move, the longer offset every move */
    size_t cap = (size_t)(dx > dy ? dx : dy);
    walk_plan *w = state_alloc(x, sizeof *w + cap * STEP_NFIELDS * sizeof(val));
    if (!w)
        return false;
    *w = (walk_plan){ .g = x->sc->g,
                      .step_type = x->p->records[R_STEP].type,
                      .bx = (int)bx,
                      .by = (int)by,
                      .sx = bx > ax   ? 1
                            : bx < ax ? -1
                                      : 0,
                      .sy = by > ay   ? 1
                            : by < ay ? -1
                                      : 0,
                      .dx = dx,
                      .dy = dy };
    *plan = (val){ .type = T_INT, .u.i = (int64_t)(intptr_t)w };
    *state = (val){ .type = T_INT, .u.i = pack((int)ax, (int)ay, 0, dx - dy) };
    return true;
}

bool walk_next(vm_ctx *x, const val *plan, val *state, val *var)
{
    walk_plan *w = (walk_plan *)(intptr_t)plan->u.i;
    const uint64_t s = (uint64_t)state->u.i;
    int fx = (int)(s & 0xff), fy = (int)(s >> 8 & 0xff), n = (int)(s >> 16 & 0xffff);
    if (fx == w->bx && fy == w->by)
        return false;
    /* err = dx - dy at the start; a move steps x when 2 err >= -dy and y when 2 err <= dx
     * (geo_bres, as builtin.c's bresenham_steps inlines it) */
    int err = (int16_t)(uint16_t)(s >> 32 & 0xffff), e2 = 2 * err, tx = fx, ty = fy;
    if (e2 >= -w->dy) {
        err -= w->dy;
        tx += w->sx;
    }
    if (e2 <= w->dx) {
        err += w->dx;
        ty += w->sy;
    }
    val *f = w->rec + (size_t)n * STEP_NFIELDS;
    builtin_bres_record(w->g, f, fx, fy, tx, ty, (int64_t)n + 1);
    x->steps_made++;
    *var = (val){ .type = w->step_type, .u.rec = f };
    *state = (val){ .type = T_INT, .u.i = pack(tx, ty, n + 1, err) };
    return true;
}
