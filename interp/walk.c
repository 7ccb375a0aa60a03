/* walk.c — the loops over `bresenham(a, b)` that walk the squares as they go (walk.h says how
 * the walk is held and why `line` is not walked so; vm.c's WALK_START calls in here, WALK_NEXT
 * and WALK_BACK run walk.h's walk_next, which calls here for a record made whole; peephole.c's
 * peep_walk_fields says which fields a loop reads). The geometry is runtime/geo.h's classic Bresenham walk (geo_bres, inlined as
 * builtin.c's bresenham_steps inlines it); the records made are those of builtin.c's list,
 * field for field (builtin_bres_record). Nothing here knows what a step means.
 */
#include "walk.h"

#include "builtin.h"
#include "combine.h"

_Static_assert(GEO_MAX_DIM < 256, "a walk's squares are packed in 8 bits a coordinate");

/* walk_start's refusals, out of its way (cold, never inline): a built-in other than
 * bresenham (E_INTERNAL), or squares it cannot walk (no board, a hex board, a square off it),
 * which the built-in reports as it does itself. False. */
static __attribute__((noinline, cold)) bool walk_refused(vm_ctx *x, uint32_t bi, const val *args)
{
    if (bi != RES_BI_BRESENHAM)
        return state_fail(x, E_INTERNAL, "only bresenham(a, b) is walked as it goes");
    val r = { .type = T_INT };
    if (!builtin_board(x, bi, args, 2, &r))
        return false;
    return state_fail(x, E_INTERNAL, "bresenham(a, b) answered where it cannot");
}

bool walk_start(vm_ctx *x, uint32_t bi, uint32_t fields, const val *args, val *plan, val *state)
{
    uint64_t ax, ay, bx, by;
    if (bi != RES_BI_BRESENHAM || !builtin_square_pair(x, args[0], args[1], &ax, &ay, &bx, &by))
        return walk_refused(x, bi, args);
    /* the offsets' signs and absolute values (columns and rows are below 256) */
    const int64_t ddx = (int64_t)bx - (int64_t)ax, ddy = (int64_t)by - (int64_t)ay;
    const int64_t sx = (ddx > 0) - (ddx < 0), sy = (ddy > 0) - (ddy < 0);
    const int dx = (int)(ddx * sx), dy = (int)(ddy * sy);
    /* one column and one row at most a move, the longer offset every move */
    size_t cap = (size_t)(dx > dy ? dx : dy);
    /* state_alloc's work, arena_alloc inline: a walk a pair in the benchmark */
    walk_plan *w = arena_alloc(&x->arena, sizeof *w + cap * STEP_NFIELDS * sizeof(val));
    if (!w)
        return state_alloc_failed(x) != NULL;
    *w = (walk_plan){ .g = x->sc->g,
                      .end = RES_SQUARE(bx, by),
                      .step_type = x->p->records[R_STEP].type,
                      /* the record seen whole: traced or forked (inline_depth 0), or a
                       * copied query of the loop's body called through its driver past the
                       * depth limit (walk.h) */
                      .fields = x->depth + COMB_MAX_DEPTH >= x->inline_depth
                                    ? WALK_ALL_FIELDS
                                    : fields & WALK_ALL_FIELDS,
                      /* x by sx (a column: the low field), err by -dy; y by sy, err by dx
                       * (sy times 2^32, not shifted: sy may be -1) */
                      .xmove = sx - (int64_t)dy * 65536,
                      .ymove = sy * 4294967296 + (int64_t)dx * 65536,
                      .dx = dx,
                      .dy = dy,
                      .xfrom = WALK_ERR_BIAS - (uint32_t)dy / 2,
                      .yto = WALK_ERR_BIAS + (uint32_t)dx / 2 };
    *plan = (val){ .type = T_INT, .u.i = (int64_t)(intptr_t)w };
    *state = (val){ .type = T_INT, .u.i = walk_pack((int)ax, (int)ay, 0, dx - dy) };
    return true;
}

bool walk_next_whole(vm_ctx *x, walk_plan *w, uint64_t s, val *state, val *var)
{
    bool both;
    uint64_t t = walk_move(w, s, &both);
    val *f = w->rec + (size_t)walk_made(s) * STEP_NFIELDS;
    builtin_bres_record(w->g, f, (int)RES_SQUARE_X(s & WALK_SQUARE),
                        (int)RES_SQUARE_Y(s & WALK_SQUARE), (int)RES_SQUARE_X(t & WALK_SQUARE),
                        (int)RES_SQUARE_Y(t & WALK_SQUARE), walk_made(t));
    x->steps_made++;
    *var = (val){ .type = w->step_type, .u.rec = f };
    *state = (val){ .type = T_INT, .u.i = (int64_t)t };
    return true;
}
