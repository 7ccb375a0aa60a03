/* compile.c — annotated AST to bytecode (see compile.h, opcodes.h).
 *
 * One recursive walk per expression. `and`/`or` short-circuit with the *_KEEP jumps;
 * aggregates become FOR_NEXT loops over a hidden local holding the collection; a field read
 * of a table lookup (`t[k].col`) becomes one TABLE instruction that reads just that cell, so
 * a `?` elsewhere in the row does not matter. Each emitted instruction records the span of
 * the node it comes from, for run-time errors.
 */
#include "compile.h"

#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "play.h"

typedef struct comp {
    const res_program *p;
    chunk *ch;
    diag_list *d;
    bool failed;
    int depth, max_depth;
    uint32_t nlocals; /* next free slot (hidden locals go after the resolver's) */
} comp;

static void fail(comp *c, ast_loc loc, const char *what)
{
    if (!c->failed)
        diag_report(c->d, E_LIMIT, DIAG_ERROR, loc, "cannot compile this: %s", what);
    c->failed = true;
}

static void set_depth(comp *c, int d)
{
    c->depth = d;
    if (d > c->max_depth)
        c->max_depth = d;
}

/* Emits op with its operands (as many as opcodes.h says) at loc; returns the offset of the
 * opcode word. Tracks the stack depth. */
static size_t emit(comp *c, ast_loc loc, op_code op, uint32_t a, uint32_t b, uint32_t x, uint32_t y)
{
    size_t at = c->ch->len;
    uint32_t ops[4] = { a, b, x, y };
    bool ok = chunk_mark(c->ch, loc) && chunk_emit(c->ch, op);
    for (int i = 0; ok && i < op_operands[op]; i++)
        ok = chunk_emit(c->ch, ops[i]);
    if (!ok)
        fail(c, loc, "out of memory");
    set_depth(c, c->depth + chunk_stack_effect(op, a, b));
    return at;
}

#define EMIT0(c, loc, op)       emit(c, loc, op, 0, 0, 0, 0)
#define EMIT1(c, loc, op, a)    emit(c, loc, op, a, 0, 0, 0)
#define EMIT2(c, loc, op, a, b) emit(c, loc, op, a, b, 0, 0)

/* Points the jump (last operand) of the instruction at `at` to the current end. */
static void patch(comp *c, size_t at)
{
    if (c->failed)
        return;
    size_t last = at + op_operands[c->ch->code[at]];
    c->ch->code[last] = (uint32_t)(int32_t)((int64_t)c->ch->len - (int64_t)(last + 1));
}

/* Points the jump of the instruction at `at` back to `target`. */
static void patch_to(comp *c, size_t at, size_t target)
{
    if (c->failed)
        return;
    size_t last = at + op_operands[c->ch->code[at]];
    c->ch->code[last] = (uint32_t)(int32_t)((int64_t)target - (int64_t)(last + 1));
}

/* The back edge of the loop whose FOR_NEXT (or FOR_NEXT_SET) is at `top`: FOR_BACK (or
 * FOR_BACK_SET) on the same locals, jumping to the body after the FOR_NEXT when an item is left
 * and going on when done, in place of `JUMP top` (one dispatch fewer a step, the same two
 * steps). The jumps to `top` of a filter's skipped items still land on the FOR_NEXT. */
static void back_edge(comp *c, ast_loc loc, size_t top)
{
    if (c->failed)
        return;
    const uint32_t *w = &c->ch->code[top];
    const uint32_t coll = w[1], idx = w[2], var = w[3];
    op_code op = w[0] == OP_FOR_NEXT_SET ? OP_FOR_BACK_SET
                 : w[0] == OP_WALK_NEXT  ? OP_WALK_BACK
                                         : OP_FOR_BACK;
    patch_to(c, emit(c, loc, op, coll, idx, var, 0), top + 5);
}

/* Closes an aggregate's loop: back to its FOR_NEXT at `top` (back_edge), makes the loop's exit
 * (the FOR_NEXT at `loop`) land here, and leaves the accumulator in local `acc` on the stack. */
static void loop_back(comp *c, ast_loc loc, size_t top, size_t loop, uint32_t acc)
{
    back_edge(c, loc, top);
    patch(c, loop);
    EMIT1(c, loc, OP_GET_LOCAL, acc);
}

static void emit_const(comp *c, ast_loc loc, val v)
{
    int32_t k = chunk_const(c->ch, v);
    if (k < 0) {
        fail(c, loc, "out of memory");
        return;
    }
    EMIT1(c, loc, OP_CONST, (uint32_t)k);
}

static void emit_int(comp *c, ast_loc loc, int64_t i)
{
    if (i >= INT32_MIN && i <= INT32_MAX)
        EMIT1(c, loc, OP_INT, (uint32_t)(int32_t)i);
    else
        emit_const(c, loc, (val){ .type = T_INT, .u.i = i });
}

static uint32_t hidden_local(comp *c)
{
    return c->nlocals++;
}

static void expr(comp *c, const ast_node *n);

/* ---- conditions: jumps straight to their targets ---- */

/* The sites of forward jumps waiting for one target. */
typedef struct jumps {
    size_t *at;
    size_t len, cap;
} jumps;

static void jumps_add(comp *c, jumps *j, size_t at, ast_loc loc)
{
    if (!MEM_GROW(j->at, j->len, j->cap)) {
        fail(c, loc, "out of memory");
        return;
    }
    j->at[j->len++] = at;
}

/* Points every jump of j at the current end, and forgets them. */
static void jumps_here(comp *c, jumps *j)
{
    for (size_t i = 0; i < j->len; i++)
        patch(c, j->at[i]);
    mem_free(j->at);
    *j = (jumps){ 0 };
}

/* Points every jump of j back at target, and forgets them. */
static void jumps_to(comp *c, jumps *j, size_t target)
{
    for (size_t i = 0; i < j->len; i++)
        patch_to(c, j->at[i], target);
    mem_free(j->at);
    *j = (jumps){ 0 };
}

static void branch(comp *c, const ast_node *n, bool when, jumps *to);

/* The compare-and-branch instruction that jumps when `a op b` is `when` (for ints and members
 * `not (a < b)` is `a >= b`); OP__COUNT when op is no comparison. */
static op_code compare_jump(ast_op op, bool when)
{
    switch (op) {
    case AST_OP_EQ: return when ? OP_JUMP_IF_EQ : OP_JUMP_IF_NE;
    case AST_OP_NE: return when ? OP_JUMP_IF_NE : OP_JUMP_IF_EQ;
    case AST_OP_LT: return when ? OP_JUMP_IF_LT : OP_JUMP_IF_GE;
    case AST_OP_LE: return when ? OP_JUMP_IF_LE : OP_JUMP_IF_GT;
    case AST_OP_GT: return when ? OP_JUMP_IF_GT : OP_JUMP_IF_LE;
    case AST_OP_GE: return when ? OP_JUMP_IF_GE : OP_JUMP_IF_LT;
    default: return OP__COUNT;
    }
}

/* Every operand of the left spine of `op` operators at n (`a or b or ... or z`), leftmost
 * first, jumps to `to` when it is `when`: a loop, so a chain of FRONT_MAX_CHAIN operators
 * (front.h) costs no recursion. A node that is not such an operator is one operand. */
/* Whether the resolver's type t is a scalar: a value held in one number (an int, a bool, a
 * verdict, a unit, a square, a side, an element, an enum member, a set's bits), which `==`
 * compares without looking deeper; no list or record. */
static bool scalar_type(const comp *c, uint32_t t)
{
    if (t >= c->p->ntypes)
        return false;
    switch (c->p->types[t].kind) {
    case RT_INT:
    case RT_BOOL:
    case RT_VERDICT:
    case RT_UNIT:
    case RT_SQUARE:
    case RT_SIDE:
    case RT_ELEMENT:
    case RT_ENUM:
    case RT_SET: return true;
    default: return false;
    }
}

/* The compare-and-branch instruction cj for operands of types ta and tb: JUMP_IF_EQ and
 * JUMP_IF_NE become their scalar forms when both sides are scalars, which never ask the
 * values' type at run time. */
static op_code typed_jump(const comp *c, op_code cj, uint32_t ta, uint32_t tb)
{
    if ((cj == OP_JUMP_IF_EQ || cj == OP_JUMP_IF_NE) && scalar_type(c, ta) && scalar_type(c, tb))
        return cj == OP_JUMP_IF_EQ ? OP_JUMP_IF_EQ_S : OP_JUMP_IF_NE_S;
    return cj;
}

/* The instruction of operator op (binary_op's) on operands of types ta and tb: `in` over a set
 * is IN_SET, `==` and `!=` between two scalars EQ_S and NE_S, which never ask the values' type
 * at run time (the others as they are). */
static op_code typed_op(const comp *c, op_code op, uint32_t ta, uint32_t tb)
{
    if (op == OP_IN && tb < c->p->ntypes && c->p->types[tb].kind == RT_SET)
        return OP_IN_SET;
    if ((op == OP_EQ || op == OP_NE) && scalar_type(c, ta) && scalar_type(c, tb))
        return op == OP_EQ ? OP_EQ_S : OP_NE_S;
    return op;
}

static void branch_each(comp *c, const ast_node *n, ast_op op, bool when, jumps *to)
{
    const ast_node **spine = NULL;
    size_t len = 0, cap = 0;
    for (const ast_node *m = n; m && m->kind == AST_BINARY && m->op == op; m = m->a) {
        if (!MEM_GROW(spine, len, cap)) {
            mem_free(spine);
            fail(c, n->loc, "out of memory");
            return;
        }
        spine[len++] = m;
    }
    branch(c, len ? spine[len - 1]->a : n, when, to);
    for (size_t i = len; i-- > 0;)
        branch(c, spine[i]->b, when, to);
    mem_free(spine);
}

/* Compiles the bool condition n for control flow: jumps (recorded in *to) when n is `when`,
 * falls through otherwise, and leaves nothing on the stack. `and`, `or` and `not` become
 * jumps, so `when a and b` tests a, then b, each with one JUMP_IF_FALSE to the same target,
 * instead of building the value of `a and b` and testing that. */
static void branch(comp *c, const ast_node *n, bool when, jumps *to)
{
    if (n && n->kind == AST_UNARY && n->op == AST_OP_NOT) {
        branch(c, n->a, !when, to);
        return;
    }
    if (n && n->kind == AST_BINARY && (n->op == AST_OP_AND || n->op == AST_OP_OR)) {
        if ((n->op == AST_OP_AND) != when) {
            /* `a and b` jumping when false, `a or b` jumping when true: either side does */
            branch_each(c, n, n->op, when, to);
        } else {
            /* `a and b` jumping when true: a false skips b; `or` likewise */
            jumps skip = { 0 };
            branch_each(c, n->a, n->op, !when, &skip);
            branch(c, n->b, when, to);
            jumps_here(c, &skip);
        }
        return;
    }
    op_code cj = n && n->kind == AST_BINARY ? compare_jump(n->op, when) : OP__COUNT;
    if (cj != OP__COUNT) { /* a comparison: its operands, then one compare-and-branch */
        expr(c, n->a);
        expr(c, n->b);
        cj = typed_jump(c, cj, n->a->an.type, n->b->an.type);
        jumps_add(c, to, EMIT1(c, n->loc, cj, 0), n->loc);
        return;
    }
    expr(c, n);
    size_t j = EMIT1(c, n ? n->loc : (ast_loc){ 0 }, when ? OP_JUMP_IF_TRUE : OP_JUMP_IF_FALSE, 0);
    jumps_add(c, to, j, n ? n->loc : (ast_loc){ 0 });
}

static void field(comp *c, const ast_node *n)
{
    const res_program *p = c->p;
    switch ((res_sym_kind)n->an.sym_kind) {
    case SYM_MEMBER: emit_const(c, n->loc, (val){ .type = n->an.type, .u.i = n->an.sym }); return;
    case SYM_UNIT_KIND:
        expr(c, n->a);
        EMIT0(c, n->loc, OP_UNIT_KIND);
        return;
    case SYM_UNIT_SIDE:
        expr(c, n->a);
        EMIT0(c, n->loc, OP_UNIT_SIDE);
        return;
    case SYM_UNIT_SIZE:
        expr(c, n->a);
        EMIT0(c, n->loc, OP_UNIT_SIZE);
        return;
    case SYM_UNIT_VALUE:
        expr(c, n->a);
        EMIT1(c, n->loc, OP_UNIT_VALUE, n->an.sym);
        return;
    case SYM_FIELD: {
        const ast_node *b = n->a;
        if (b->kind == AST_INDEX && b->an.sym_kind == SYM_TABLE && b->an.sym < p->ntables &&
            !p->tables[b->an.sym].single) {
            /* t[k].col: read the one cell */
            for (uint32_t i = 0; i < b->list.len; i++)
                expr(c, b->list.items[i]);
            emit(c, n->loc, OP_TABLE, b->an.sym, b->list.len, n->an.sym, 0);
            return;
        }
        if (b->kind == AST_NAME && b->an.sym_kind == SYM_LOCAL) {
            EMIT2(c, n->loc, OP_GET_LOCAL_FIELD, (uint32_t)b->an.slot, n->an.sym);
            return;
        }
        expr(c, b);
        EMIT1(c, n->loc, OP_GET_FIELD, n->an.sym);
        return;
    }
    default: fail(c, n->loc, "unresolved field");
    }
}

/* What a call of each built-in compiles to (builtins.h): its instruction, or BOARD with its id,
 * its argument count and its result type. */
static const op_code builtin_ops[RES_BI_COUNT] = {
#define BUILTIN_OP(id, name, opcode, ...) [RES_BI_##id] = OP_##opcode,
#define BUILTIN_BOARD(id, ...)            [RES_BI_##id] = OP_BOARD,
#include "builtins.h"
};

/* The board built-ins that are one lookup compile to an instruction of their own rather than
 * BOARD (vm.md §4a); OP__COUNT for the others. */
static op_code board_lookup_op(uint32_t bi)
{
    switch (bi) {
    case RES_BI_SIDE_BETWEEN: return OP_SIDE_BETWEEN;
    case RES_BI_SIDE_HAS: return OP_SIDE_HAS;
    case RES_BI_TERRAIN: return OP_TERRAIN;
    case RES_BI_ELEVATION: return OP_ELEVATION;
    case RES_BI_IN_ELEMENT: return OP_IN_ELEMENT;
    case RES_BI_SQUARE_OF: return OP_SQUARE_OF;
    case RES_BI_DISTANCE: return OP_DISTANCE;
    default: return OP__COUNT;
    }
}

/* In an expression chunk (the text a user typed, a test's expectation), records where the
 * arguments of the call n about to be emitted are written (chunk_note_call): an error about a
 * value it passed is placed there (state_blame). A call of more than 32 arguments, or one the
 * memory refused, is not recorded: its errors stay where the rules raised them. */
static void note_call(comp *c, const ast_node *n)
{
    ast_loc args[32];
    if (c->ch->kind != CHUNK_EXPR || n->list.len > sizeof args / sizeof args[0])
        return;
    for (uint32_t i = 0; i < n->list.len; i++)
        args[i] = n->list.items[i]->loc;
    (void)chunk_note_call(c->ch, args, n->list.len);
}

static void call(comp *c, const ast_node *n)
{
    for (uint32_t i = 0; i < n->list.len; i++)
        expr(c, n->list.items[i]);
    switch ((res_sym_kind)n->an.sym_kind) {
    case SYM_FN:
        note_call(c, n);
        EMIT2(c, n->loc, OP_CALL_FN, n->an.sym, n->list.len);
        return;
    case SYM_QUERY:
        note_call(c, n);
        EMIT2(c, n->loc, OP_CALL_QUERY, n->an.sym, n->list.len);
        return;
    case SYM_BUILTIN:
        if (n->an.sym >= RES_BI_COUNT)
            break;
        if (n->an.sym == RES_BI_UNITS_AT)
            EMIT1(c, n->loc, OP_UNITS_AT, n->an.type);
        else if (board_lookup_op(n->an.sym) != OP__COUNT)
            EMIT0(c, n->loc, board_lookup_op(n->an.sym));
        else if (builtin_ops[n->an.sym] == OP_BOARD)
            emit(c, n->loc, OP_BOARD, n->an.sym, n->list.len, n->an.type, 0);
        else
            EMIT0(c, n->loc, builtin_ops[n->an.sym]);
        return;
    default: break;
    }
    fail(c, n->loc, "unresolved call");
}

/* The instruction of binary operator n (not `and`, `or`); OP__COUNT after failing. */
static op_code binary_op(comp *c, const ast_node *n)
{
    switch (n->op) {
    case AST_OP_ADD: return OP_ADD;
    case AST_OP_SUB: return OP_SUB;
    case AST_OP_MUL: return OP_MUL;
    case AST_OP_DIV: return OP_DIV;
    case AST_OP_MOD: return OP_MOD;
    case AST_OP_EQ: return OP_EQ;
    case AST_OP_NE: return OP_NE;
    case AST_OP_LT: return OP_LT;
    case AST_OP_LE: return OP_LE;
    case AST_OP_GT: return OP_GT;
    case AST_OP_GE: return OP_GE;
    case AST_OP_IN: return OP_IN;
    case AST_OP_CONCAT: return OP_CONCAT;
    default: fail(c, n->loc, "unknown operator"); return OP__COUNT;
    }
}

/* The part of `a OP b` after a: the operator and its right operand. */
static void binary_rest(comp *c, const ast_node *n)
{
    if (n->op == AST_OP_AND || n->op == AST_OP_OR) {
        size_t j =
            EMIT1(c, n->loc, n->op == AST_OP_AND ? OP_JUMP_IF_FALSE_KEEP : OP_JUMP_IF_TRUE_KEEP, 0);
        EMIT0(c, n->loc, OP_POP);
        expr(c, n->b);
        patch(c, j);
        return;
    }
    op_code op = binary_op(c, n);
    if (op == OP__COUNT)
        return;
    expr(c, n->b);
    EMIT0(c, n->loc, typed_op(c, op, n->a->an.type, n->b->an.type));
}

/* `a + b + ... + z` is a left spine of operators: compiled in a loop, the leftmost operand
 * first, so a chain of FRONT_MAX_CHAIN operators (front.h) costs no recursion. */
static void binary(comp *c, const ast_node *n)
{
    const ast_node **spine = NULL;
    size_t len = 0, cap = 0;
    for (const ast_node *m = n; m && m->kind == AST_BINARY; m = m->a) {
        if (!MEM_GROW(spine, len, cap)) {
            mem_free(spine);
            fail(c, n->loc, "out of memory");
            return;
        }
        spine[len++] = m;
    }
    expr(c, spine[len - 1]->a);
    for (size_t i = len; i-- > 0;)
        binary_rest(c, spine[i]);
    mem_free(spine);
}

/* The loop instruction over a collection of type t (the resolver's: a list, or a set, which an
 * enum's members are too): FOR_NEXT_SET for a set, FOR_NEXT for a list, so that neither asks the
 * collection's type at every step. */
static op_code for_next_op(const comp *c, uint32_t t)
{
    return t < c->p->ntypes && c->p->types[t].kind == RT_SET ? OP_FOR_NEXT_SET : OP_FOR_NEXT;
}

/* When the collection n of a loop is a call of `bresenham(a, b)`: its two arguments and
 * WALK_START into the loop's locals coll and idx (every field of the step records made: a
 * combined chunk narrows them, peep_walk_fields), and true; the loop then walks the squares as
 * it goes (WALK_NEXT, walk.h), making each step's record when it is reached. False (nothing
 * emitted) for any other collection, `line(a, b)` included (its list is kept: walk.h). */
static bool walk_call(comp *c, const ast_node *n, uint32_t coll, uint32_t idx)
{
    if (n->kind != AST_CALL || n->an.sym_kind != SYM_BUILTIN || n->list.len != 2 ||
        n->an.sym != RES_BI_BRESENHAM)
        return false;
    expr(c, n->list.items[0]);
    expr(c, n->list.items[1]);
    emit(c, n->loc, OP_WALK_START, n->an.sym, coll, idx, (1u << STEP_NFIELDS) - 1);
    return true;
}

/* The start of a loop over collection n (its value already pushed unless walk is set) into
 * locals coll and idx; returns the loop's instruction: WALK_NEXT after walk_call's WALK_START,
 * else FOR_NEXT or FOR_NEXT_SET after `SET_LOCAL coll; INT 0; SET_LOCAL idx` at loc. */
static op_code loop_start(comp *c, ast_loc loc, const ast_node *n, uint32_t coll, uint32_t idx,
                          bool walk)
{
    if (walk)
        return OP_WALK_NEXT;
    EMIT1(c, loc, OP_SET_LOCAL, coll);
    EMIT1(c, loc, OP_INT, 0);
    EMIT1(c, loc, OP_SET_LOCAL, idx);
    return for_next_op(c, n->an.type);
}

/* sum/count/all/any/min/max over a list, a set, or every member of an enum:
 *     <collection>; SET_LOCAL coll; INT 0; SET_LOCAL idx
 * top: FOR_NEXT coll idx var done
 * body: <body and accumulate>; FOR_BACK coll idx var body
 * done: <result> */
static void aggregate(comp *c, const ast_node *n)
{
    const res_program *p = c->p;
    const ast_node *coll_n = n->a;
    uint32_t coll = hidden_local(c), idx = hidden_local(c);
    uint32_t var = n->an.slot < 0 ? hidden_local(c) : (uint32_t)n->an.slot;
    bool walk = false;
    if (coll_n->an.sym_kind == SYM_ENUM_TYPE) {
        size_t len = coll_n->an.sym < p->nenums ? p->enums[coll_n->an.sym].len : 0;
        uint64_t bits = len >= 64 ? ~0ULL : (1ULL << len) - 1;
        emit_const(c, coll_n->loc, (val){ .type = coll_n->an.type, .u.bits = bits });
    } else if (!(walk = walk_call(c, coll_n, coll, idx))) {
        expr(c, coll_n);
    }
    const op_code next = loop_start(c, n->loc, coll_n, coll, idx, walk);
    uint32_t acc = 0, has = 0;
    switch (n->op) {
    case AST_AGG_FILTER:
    case AST_AGG_MAP:
        acc = hidden_local(c);
        EMIT2(c, n->loc, OP_MAKE_LIST, n->an.type, 0);
        EMIT1(c, n->loc, OP_SET_LOCAL, acc);
        break;
    case AST_AGG_SUM:
    case AST_AGG_COUNT:
        acc = hidden_local(c);
        EMIT1(c, n->loc, OP_INT, 0);
        EMIT1(c, n->loc, OP_SET_LOCAL, acc);
        break;
    case AST_AGG_MIN:
    case AST_AGG_MAX:
        acc = hidden_local(c);
        has = hidden_local(c);
        EMIT0(c, n->loc, OP_FALSE);
        EMIT1(c, n->loc, OP_SET_LOCAL, has);
        break;
    default: break;
    }
    int d = c->depth;
    size_t top = c->ch->len;
    size_t loop = emit(c, n->loc, next, coll, idx, var, 0);
    switch (n->op) {
    case AST_AGG_SUM:
        EMIT1(c, n->loc, OP_GET_LOCAL, acc);
        expr(c, n->b);
        EMIT0(c, n->loc, OP_ADD);
        EMIT1(c, n->loc, OP_SET_LOCAL, acc);
        loop_back(c, n->loc, top, loop, acc);
        break;
    case AST_AGG_MAP:
        expr(c, n->b);
        EMIT1(c, n->loc, OP_LIST_PUSH, acc);
        loop_back(c, n->loc, top, loop, acc);
        break;
    case AST_AGG_FILTER: {
        jumps skip = { 0 };
        branch(c, n->b, false, &skip);
        jumps_to(c, &skip, top);
        EMIT1(c, n->loc, OP_GET_LOCAL, var);
        EMIT1(c, n->loc, OP_LIST_PUSH, acc);
        loop_back(c, n->loc, top, loop, acc);
        break;
    }
    case AST_AGG_COUNT: {
        jumps skip = { 0 };
        branch(c, n->b, false, &skip);
        jumps_to(c, &skip, top);
        EMIT1(c, n->loc, OP_GET_LOCAL, acc);
        EMIT1(c, n->loc, OP_INT, 1);
        EMIT0(c, n->loc, OP_ADD);
        EMIT1(c, n->loc, OP_SET_LOCAL, acc);
        loop_back(c, n->loc, top, loop, acc);
        break;
    }
    case AST_AGG_ALL:
    case AST_AGG_ANY: {
        bool all = n->op == AST_AGG_ALL;
        jumps decided = { 0 };
        branch(c, n->b, !all, &decided);
        back_edge(c, n->loc, top);
        patch(c, loop);
        EMIT0(c, n->loc, all ? OP_TRUE : OP_FALSE);
        size_t end = EMIT1(c, n->loc, OP_JUMP, 0);
        set_depth(c, d);
        jumps_here(c, &decided);
        EMIT0(c, n->loc, all ? OP_FALSE : OP_TRUE);
        patch(c, end);
        break;
    }
    case AST_AGG_MIN:
    case AST_AGG_MAX: {
        expr(c, n->b);
        /* the step below in one instruction when it goes on to the next item (AGG_MIN,
         * AGG_MAX: one dispatch for ten or twelve steps); the plain code after it runs the
         * rest (the first item, the member that decides, a `?` cell, the budget's end) */
        const res_type *et = &p->types[n->b->an.type];
        const bool over_enum = et->kind == RT_ENUM && et->arg < p->nenums && p->enums[et->arg].len;
        const int64_t m = !over_enum             ? -1
                          : n->op == AST_AGG_MIN ? 0
                                                 : (int64_t)p->enums[et->arg].len - 1;
        size_t fused = emit(c, n->loc, n->op == AST_AGG_MIN ? OP_AGG_MIN : OP_AGG_MAX, acc, has,
                            (uint32_t)(int32_t)m, 0);
        EMIT1(c, n->loc, OP_GET_LOCAL, has);
        size_t first = EMIT1(c, n->loc, OP_JUMP_IF_FALSE, 0);
        EMIT1(c, n->loc, OP_GET_LOCAL, acc);
        EMIT0(c, n->loc, n->op == AST_AGG_MIN ? OP_MIN : OP_MAX);
        patch(c, first);
        EMIT1(c, n->loc, OP_SET_LOCAL, acc);
        EMIT0(c, n->loc, OP_TRUE);
        EMIT1(c, n->loc, OP_SET_LOCAL, has);
        /* over an enum, the first member decides a min and the last a max (language.md §4):
         * the loop stops there */
        size_t bound = SIZE_MAX;
        if (over_enum) {
            EMIT1(c, n->loc, OP_GET_LOCAL, acc);
            emit_const(c, n->loc, (val){ .type = n->b->an.type, .u.i = m });
            bound = EMIT1(c, n->loc, OP_JUMP_IF_EQ_S, 0); /* two members of the enum */
        }
        patch(c, fused);
        back_edge(c, n->loc, top);
        patch(c, loop);
        EMIT1(c, n->loc, OP_GET_LOCAL, has);
        size_t ok = EMIT1(c, n->loc, OP_JUMP_IF_TRUE, 0);
        EMIT0(c, n->loc, OP_EMPTY_AGG);
        patch(c, ok);
        if (bound != SIZE_MAX)
            patch(c, bound);
        EMIT1(c, n->loc, OP_GET_LOCAL, acc);
        break;
    }
    default: fail(c, n->loc, "unknown aggregate");
    }
}

static void expr(comp *c, const ast_node *n)
{
    if (!n) {
        fail(c, (ast_loc){ 0 }, "missing expression");
        return;
    }
    const res_program *p = c->p;
    switch (n->kind) {
    case AST_INT: emit_int(c, n->loc, n->ival); break;
    case AST_BOOL: EMIT0(c, n->loc, n->ival ? OP_TRUE : OP_FALSE); break;
    case AST_FORBID:
    case AST_PERMIT:
        emit_const(c, n->loc, (val){ .type = T_VERDICT, .u.i = n->kind == AST_PERMIT });
        break;
    case AST_SQUARE: emit_const(c, n->loc, (val){ .type = T_SQUARE, .u.i = n->ival }); break;
    case AST_UNIT_REF: {
        int32_t k = n->name ? chunk_str(c->ch, n->name) : -1;
        if (k < 0)
            fail(c, n->loc, "out of memory");
        else
            EMIT1(c, n->loc, OP_UNIT_NAMED, (uint32_t)k);
        break;
    }
    case AST_NAME:
        switch ((res_sym_kind)n->an.sym_kind) {
        case SYM_LOCAL: EMIT1(c, n->loc, OP_GET_LOCAL, (uint32_t)n->an.slot); break;
        case SYM_MEMBER:
            emit_const(c, n->loc, (val){ .type = n->an.type, .u.i = n->an.sym });
            break;
        case SYM_COUNTER: emit_const(c, n->loc, (val){ .type = T_UNIT, .u.i = n->an.sym }); break;
        default: fail(c, n->loc, "unresolved name");
        }
        break;
    case AST_FIELD: field(c, n); break;
    case AST_CALL: call(c, n); break;
    case AST_INDEX:
        for (uint32_t i = 0; i < n->list.len; i++)
            expr(c, n->list.items[i]);
        emit(c, n->loc, OP_TABLE, n->an.sym, n->list.len, UINT32_MAX, 0);
        break;
    case AST_UNARY:
        expr(c, n->a);
        EMIT0(c, n->loc, n->op == AST_OP_NOT ? OP_NOT : OP_NEG);
        break;
    case AST_BINARY: binary(c, n); break;
    case AST_IF: {
        jumps to_else = { 0 };
        branch(c, n->a, false, &to_else);
        int d = c->depth;
        expr(c, n->b);
        size_t to_end = EMIT1(c, n->loc, OP_JUMP, 0);
        set_depth(c, d);
        jumps_here(c, &to_else);
        expr(c, n->c);
        patch(c, to_end);
        break;
    }
    case AST_LET:
        expr(c, n->a);
        EMIT1(c, n->loc, OP_SET_LOCAL, (uint32_t)n->an.slot);
        expr(c, n->b);
        break;
    case AST_LIST:
        for (uint32_t i = 0; i < n->list.len; i++)
            expr(c, n->list.items[i]);
        EMIT2(c, n->loc, OP_MAKE_LIST, n->an.type, n->list.len);
        break;
    case AST_SET: {
        uint64_t bits = 0;
        bool constant = true;
        for (uint32_t i = 0; i < n->list.len; i++) {
            const ast_node *m = n->list.items[i];
            if (m->an.sym_kind == SYM_MEMBER && m->an.sym < 64)
                bits |= 1ULL << m->an.sym;
            else
                constant = false;
        }
        if (constant) {
            emit_const(c, n->loc, (val){ .type = n->an.type, .u.bits = bits });
            break;
        }
        for (uint32_t i = 0; i < n->list.len; i++)
            expr(c, n->list.items[i]);
        EMIT2(c, n->loc, OP_MAKE_SET, n->an.type, n->list.len);
        break;
    }
    case AST_RECORD: {
        uint32_t t = n->an.type;
        const res_record *r =
            t < p->ntypes && p->types[t].kind == RT_RECORD ? &p->records[p->types[t].arg] : NULL;
        if (!r) {
            fail(c, n->loc, "unresolved record");
            break;
        }
        for (size_t f = 0; f < r->nfields; f++) {
            const ast_node *init = NULL;
            for (uint32_t i = 0; i < n->list.len; i++)
                if (n->list.items[i]->an.sym_kind == SYM_FIELD && n->list.items[i]->an.sym == f)
                    init = n->list.items[i];
            if (!init) {
                fail(c, n->loc, "missing field");
                return;
            }
            expr(c, init->a);
        }
        EMIT2(c, n->loc, OP_MAKE_RECORD, t, (uint32_t)r->nfields);
        break;
    }
    case AST_AGG: aggregate(c, n); break;
    case AST_ROLL:
        if (n->a) {
            expr(c, n->a);
            EMIT1(c, n->loc, OP_ROLL_N, n->an.type);
        } else {
            EMIT0(c, n->loc, OP_ROLL);
        }
        break;
    case AST_VARIANT_REF: EMIT1(c, n->loc, OP_VARIANT, n->an.sym); break;
    default: fail(c, n->loc, "not an expression");
    }
}

/* ---- statements (language.md §6.3) ---- */

static void stmt(comp *c, const ast_node *s);

static void block(comp *c, const ast_node *b)
{
    for (uint32_t i = 0; b && i < b->list.len; i++)
        stmt(c, b->list.items[i]);
}

/* A string operand (NOTE, FAIL, CHOOSE's question); UINT32_MAX for none. */
static uint32_t string_operand(comp *c, const char *text, ast_loc loc)
{
    if (!text)
        return UINT32_MAX;
    int32_t k = chunk_str(c->ch, text);
    if (k < 0) {
        fail(c, loc, "out of memory");
        return 0;
    }
    return (uint32_t)k;
}

/* Pushes the collection of `for` or `choose`: a list, a set, or an enum's members. */
static void collection(comp *c, const ast_node *coll)
{
    const res_program *p = c->p;
    if (coll->an.sym_kind == SYM_ENUM_TYPE) {
        size_t len = coll->an.sym < p->nenums ? p->enums[coll->an.sym].len : 0;
        uint64_t bits = len >= 64 ? ~0ULL : (1ULL << len) - 1;
        emit_const(c, coll->loc, (val){ .type = coll->an.type, .u.bits = bits });
    } else {
        expr(c, coll);
    }
}

/* The operands each effect takes from the stack, fewest and most (effects.h). */
static const struct {
    uint8_t fewest, most;
} fx_operands[FX_COUNT] = {
#define EFFECT(name, text, fewest, most, operands, statement, doc) [FX_##name] = { fewest, most },
#include "effects.h"
};

/* Emits effect fx of statement s, whose operands are on the stack: its fewest, and one more
 * when it takes an optional last operand and s gives it (its c: move's second square). */
static void effect(comp *c, const ast_node *s, play_fx fx, uint32_t extra)
{
    uint32_t n = fx_operands[fx].fewest + (fx_operands[fx].most > fx_operands[fx].fewest && s->c);
    emit(c, s->loc, OP_EFFECT, fx, n, extra, 0);
}

static void stmt(comp *c, const ast_node *s)
{
    if (!s) {
        fail(c, (ast_loc){ 0 }, "missing statement");
        return;
    }
    switch (s->op) {
    case AST_ST_GIVE:
    case AST_ST_TAKE:
        expr(c, s->a);
        expr(c, s->b);
        if (s->op == AST_ST_TAKE && s->ival) {
            effect(c, s, s->an.sym ? FX_TAKE_ALL_ELEMENT : FX_TAKE_ALL, 0);
            break;
        }
        if (s->c)
            expr(c, s->c);
        else
            EMIT1(c, s->loc, OP_INT, 1);
        if (s->an.sym)
            effect(c, s, s->op == AST_ST_GIVE ? FX_GIVE_ELEMENT : FX_TAKE_ELEMENT, 0);
        else
            effect(c, s, s->op == AST_ST_GIVE ? FX_GIVE : FX_TAKE, 0);
        break;
    case AST_ST_FLIP:
        expr(c, s->a);
        expr(c, s->b);
        effect(c, s, s->an.sym ? FX_FLIP_ELEMENT : FX_FLIP_UNIT, 0);
        break;
    case AST_ST_SET:
        expr(c, s->a->a);
        expr(c, s->b);
        effect(c, s, FX_SET, s->a->an.sym);
        break;
    case AST_ST_DESTROY:
        expr(c, s->a);
        effect(c, s, FX_DESTROY, 0);
        break;
    case AST_ST_MOVE:
        expr(c, s->a);
        expr(c, s->b);
        if (s->c)
            expr(c, s->c);
        effect(c, s, FX_MOVE, 0);
        break;
    case AST_ST_EMBARK:
    case AST_ST_DISEMBARK:
        expr(c, s->a);
        expr(c, s->b);
        if (s->c)
            expr(c, s->c); /* a 2-square unit's rear (disembark) */
        effect(c, s, s->op == AST_ST_EMBARK ? FX_EMBARK : FX_DISEMBARK, 0);
        break;
    case AST_ST_PLACE:
    case AST_ST_REMOVE: {
        static const play_fx place[] = { FX_PLACE_SQUARE, FX_PLACE_SIDE,    FX_PLACE_SQUARE,
                                         FX_PLACE_SQUARE, FX_PLACE_TERRAIN, FX_PLACE_INTERSPACE };
        static const play_fx take[] = { FX_REMOVE_SQUARE,  FX_REMOVE_SIDE,   FX_REMOVE_NEAR,
                                        FX_REMOVE_ELEMENT, FX_REMOVE_SQUARE, FX_REMOVE_SQUARE };
        uint32_t k = s->an.sym < 6 ? s->an.sym : 0;
        expr(c, s->a);
        expr(c, s->b);
        if (s->c)
            expr(c, s->c); /* the new element's or the interspace item's value */
        effect(c, s, s->op == AST_ST_PLACE ? place[k] : take[k], 0);
        break;
    }
    case AST_ST_RAISE:
        for (uint32_t i = 0; i < s->list.len; i++)
            expr(c, s->list.items[i]);
        emit(c, s->loc, OP_RAISE, s->an.sym, s->list.len, 0, 0);
        break;
    case AST_ST_LET:
        expr(c, s->a);
        EMIT1(c, s->loc, OP_SET_LOCAL, (uint32_t)s->an.slot);
        break;
    case AST_ST_CHOOSE:
        collection(c, s->a);
        expr(c, s->b);
        EMIT1(c, s->loc, OP_CHOOSE, string_operand(c, s->title, s->loc));
        EMIT1(c, s->loc, OP_SET_LOCAL, (uint32_t)s->an.slot);
        break;
    case AST_ST_IF: {
        jumps to_else = { 0 };
        branch(c, s->a, false, &to_else);
        block(c, s->b);
        if (!s->c) {
            jumps_here(c, &to_else);
            break;
        }
        size_t to_end = EMIT1(c, s->loc, OP_JUMP, 0);
        jumps_here(c, &to_else);
        if (s->c->kind == AST_BLOCK)
            block(c, s->c);
        else
            stmt(c, s->c);
        patch(c, to_end);
        break;
    }
    case AST_ST_FOR: {
        uint32_t coll = hidden_local(c), idx = hidden_local(c);
        bool walk = walk_call(c, s->a, coll, idx);
        if (!walk)
            collection(c, s->a);
        const op_code next = loop_start(c, s->loc, s->a, coll, idx, walk);
        size_t top = c->ch->len;
        size_t loop = emit(c, s->loc, next, coll, idx, (uint32_t)s->an.slot, 0);
        block(c, s->b);
        back_edge(c, s->loc, top);
        patch(c, loop);
        break;
    }
    case AST_ST_CITE: /* its IDs are read where a line is written (interp/proc.c) */
        block(c, s->b);
        break;
    case AST_ST_NOTE:
    case AST_ST_FAIL:
        EMIT1(c, s->loc, s->op == AST_ST_NOTE ? OP_NOTE : OP_FAIL,
              string_operand(c, s->title, s->loc));
        break;
    case AST_ST_REQUIRE: {
        const ast_node *q = s->a;
        for (uint32_t i = 0; i < q->list.len; i++)
            expr(c, q->list.items[i]);
        emit(c, s->loc, OP_REQUIRE, q->an.sym, q->list.len, string_operand(c, s->title, s->loc), 0);
        break;
    }
    default: fail(c, s->loc, "not a statement");
    }
}

static chunk *begin(comp *c, const res_program *p, diag_list *d, const char *name, chunk_kind kind,
                    uint32_t id, uint32_t nparams, uint32_t nlocals)
{
    *c = (comp){ .p = p, .d = d, .nlocals = nlocals };
    c->ch = chunk_new(name, kind, id);
    if (!c->ch) {
        fail(c, (ast_loc){ 0 }, "out of memory");
        return NULL;
    }
    c->ch->nparams = nparams;
    return c->ch;
}

static chunk *finish(comp *c)
{
    if (c->failed) {
        chunk_free(c->ch);
        return NULL;
    }
    c->ch->nlocals = c->nlocals;
    c->ch->max_stack = (uint32_t)(c->max_depth > 0 ? c->max_depth : 0);
    return c->ch;
}

/* ---- the explained guard of a rule (chunk_conj) ---- */

/* Indexes the starts of the lines of file i of s up to line `line` (from 1), or to the end
 * of the file when it has fewer; false on OOM. One memchr per line, from where the last call
 * stopped: a byte-by-byte pass over each whole file cost a traced answer about a million
 * instructions, and a pass over each whole file with memchr 137 K for the JSON trace of
 * bench.md §11, whose rules mostly sit near the top of their files. */
static bool index_lines(comp_source *s, size_t i, uint32_t line)
{
    if (!s->lines && !(s->lines = mem_calloc(s->nfiles, sizeof *s->lines)))
        return false;
    comp_lines *l = &s->lines[i];
    const ast_file *f = s->files[i];
    if (!l->at) {
        l->cap = 64;
        if (!(l->at = mem_malloc(l->cap * sizeof *l->at)))
            return false;
        l->at[0] = 0;
        l->n = 1;
        l->scanned = 0;
    }
    const char *end = f->text + f->text_len;
    while (l->n < line && l->scanned < f->text_len) {
        const char *p = memchr(f->text + l->scanned, '\n', (size_t)(end - f->text) - l->scanned);
        if (!p) {
            l->scanned = f->text_len;
            break;
        }
        if (l->n == l->cap) {
            size_t *more = mem_realloc(l->at, 2 * l->cap * sizeof *l->at);
            if (!more)
                return false;
            l->at = more;
            l->cap *= 2;
        }
        l->scanned = (size_t)(p + 1 - f->text);
        l->at[l->n++] = l->scanned;
    }
    return true;
}

void comp_source_free(comp_source *s)
{
    for (size_t i = 0; s->lines && i < s->nfiles; i++)
        mem_free(s->lines[i].at);
    mem_free(s->lines);
    s->lines = NULL;
}

/* The offset of column col of line `line` (both from 1) in the text of file i of s, or
 * SIZE_MAX. */
static size_t text_at(comp_source *s, size_t i, uint32_t line, uint32_t col)
{
    if (!line || !col)
        return SIZE_MAX;
    if ((!s->lines || s->lines[i].n < line) && !index_lines(s, i, line))
        return SIZE_MAX;
    if (line > s->lines[i].n)
        return SIZE_MAX;
    size_t at = s->lines[i].at[line - 1] + col - 1;
    return at < s->files[i]->text_len ? at : SIZE_MAX;
}

/* Node n as written, in the parentheses written around it, comments dropped and each run of
 * white space one space: a string of the chunk (its index), or UINT32_MAX when its file's
 * text is not at hand. */
static uint32_t quote(comp *c, comp_source *s, const ast_node *n)
{
    size_t fi = 0;
    while (fi < s->nfiles &&
           (!s->files[fi] || s->files[fi]->file_id != n->loc.file || !s->files[fi]->text))
        fi++;
    size_t from = fi < s->nfiles ? text_at(s, fi, n->loc.line, n->loc.col) : SIZE_MAX;
    size_t to = from != SIZE_MAX ? text_at(s, fi, n->loc.end_line, n->loc.end_col) : SIZE_MAX;
    if (to == SIZE_MAX || to < from)
        return UINT32_MAX;
    const ast_file *f = s->files[fi];
    /* written into one buffer of the most it can take (the span, its parentheses, the NUL):
     * a JSON trace quotes every guard operand of every rule it shows */
    size_t cap = to - from + 2 + 2 * (size_t)n->parens, len = 0;
    char *b = mem_malloc(cap);
    if (b) {
        for (uint32_t i = 0; i < n->parens; i++)
            b[len++] = '(';
        bool space = false;
        for (size_t i = from; i <= to; i++) {
            char ch = f->text[i];
            if (ch == '#') { /* a comment, to the end of its line */
                while (i < to && f->text[i + 1] != '\n')
                    i++;
                space = true;
            } else if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
                space = true;
            } else {
                if (space && len > n->parens)
                    b[len++] = ' ';
                space = false;
                b[len++] = ch;
            }
        }
        for (uint32_t i = 0; i < n->parens; i++)
            b[len++] = ')';
        b[len] = '\0';
    }
    int32_t k = b ? chunk_str(c->ch, b) : -1;
    mem_free(b);
    if (k < 0) {
        fail(c, n->loc, "out of memory");
        return UINT32_MAX;
    }
    return (uint32_t)k;
}

/* Whether n is written as a value (a number, a member, a counter, a square, `$unit`, a set or
 * list of them): its text says its value, so a trace need not. */
static bool literal(const ast_node *n)
{
    switch (n->kind) {
    case AST_INT:
    case AST_BOOL:
    case AST_FORBID:
    case AST_PERMIT:
    case AST_SQUARE:
    case AST_UNIT_REF: return true;
    case AST_NAME: return n->an.sym_kind == SYM_MEMBER || n->an.sym_kind == SYM_COUNTER;
    case AST_FIELD: return n->an.sym_kind == SYM_MEMBER;
    case AST_UNARY: return n->op == AST_OP_NEG && literal(n->a);
    case AST_SET:
    case AST_LIST:
        for (uint32_t i = 0; i < n->list.len; i++)
            if (!literal(n->list.items[i]))
                return false;
        return true;
    default: return false;
    }
}

/* Whether n is `==`, `!=`, `<`, `<=`, `>`, `>=` (consecutive in ast_op) or `in`. */
static bool comparison(const ast_node *n)
{
    return n && n->kind == AST_BINARY &&
           (n->op == AST_OP_IN || (n->op >= AST_OP_EQ && n->op <= AST_OP_GE));
}

/* A growable array of nodes. */
typedef struct nodes {
    const ast_node **n;
    size_t len, cap;
} nodes;

static bool nodes_push(nodes *v, const ast_node *n)
{
    if (!MEM_GROW(v->n, v->len, v->cap))
        return false;
    v->n[v->len++] = n;
    return true;
}

/* The operands of the `and`s at the top of guard g, left first, into *out (a loop with its
 * own stack: a chain of FRONT_MAX_CHAIN `and`s costs no recursion); false on OOM. */
static bool guard_operands(const ast_node *g, nodes *out)
{
    nodes todo = { 0 };
    bool ok = nodes_push(&todo, g);
    while (ok && todo.len) {
        const ast_node *n = todo.n[--todo.len];
        if (n && n->kind == AST_BINARY && n->op == AST_OP_AND)
            ok = nodes_push(&todo, n->b) && nodes_push(&todo, n->a);
        else
            ok = nodes_push(out, n);
    }
    mem_free(todo.n);
    return ok;
}

/* Compiles guard operand k, n, of an explained chunk: jumps (into *to) when it is false, as
 * branch does; a comparison under any number of `not`s records its sides first. Describes it
 * in the chunk's conj. */
static void explained_operand(comp *c, comp_source *s, const ast_node *n, uint32_t k, jumps *to)
{
    /* `revise rule ... unless E` made `not E` with E's own span (dsl/revise.c); a `not`
     * written in the rule spans its keyword too */
    chunk_conj d = { .left = UINT32_MAX, .right = UINT32_MAX };
    d.unless = n && n->kind == AST_UNARY && n->op == AST_OP_NOT && n->a &&
               memcmp(&n->loc, &n->a->loc, sizeof n->loc) == 0;
    const ast_node *cmp = n;
    bool negated = false;
    while (cmp && cmp->kind == AST_UNARY && cmp->op == AST_OP_NOT) {
        cmp = cmp->a;
        negated = !negated;
    }
    if (!n || !cmp) {
        fail(c, (ast_loc){ 0 }, "missing expression");
        return;
    }
    d.text = quote(c, s, d.unless ? n->a : n);
    d.compare = comparison(cmp);
    d.negated = negated;
    d.eq_literal = d.compare && cmp->op == AST_OP_EQ && (literal(cmp->a) || literal(cmp->b));
    if (d.compare) {
        if (!literal(cmp->a))
            d.left = quote(c, s, cmp->a);
        if (!literal(cmp->b))
            d.right = quote(c, s, cmp->b);
        expr(c, cmp->a);
        expr(c, cmp->b);
        EMIT1(c, cmp->loc, OP_GUARD_SIDES, k);
        op_code op = binary_op(c, cmp);
        if (op != OP__COUNT)
            EMIT0(c, cmp->loc, op);
        size_t j = EMIT1(c, cmp->loc, negated ? OP_JUMP_IF_TRUE : OP_JUMP_IF_FALSE, 0);
        jumps_add(c, to, j, cmp->loc);
    } else {
        branch(c, n, false, to);
    }
    if (!chunk_add_conj(c->ch, d))
        fail(c, n->loc, "out of memory");
}

/* A rule's chunk: its lets, its guard (explained when src is given: comp_rule_explained),
 * then its answer or its block. */
static chunk *rule_chunk(const res_program *p, uint32_t rule, const chunk *plain, comp_source *src,
                         diag_list *diags)
{
    comp c;
    const res_rule *r = &p->rules[rule];
    const res_query *q = &p->queries[r->query];
    const ast_node *d = r->decl;
    char name[256];
    snprintf(name, sizeof name, "rule %s", r->name);
    if (!begin(&c, p, diags, name, CHUNK_RULE, rule, q->nparams, r->nlocals))
        return NULL;
    nodes ops = { 0 };
    jumps *fails = NULL; /* per guard operand (explained), or one list */
    size_t nfails = 0;
    if (d->a && src && !guard_operands(d->a, &ops))
        fail(&c, d->a->loc, "out of memory");
    /* an explained chunk is its plain one and, per guard operand, a GUARD_SIDES, a
     * GUARD_FAILED, a jump and their spans, and up to three quotes */
    if (plain && src && !c.failed &&
        !chunk_reserve(c.ch, plain->len + 8 * ops.len + 8, plain->nlines + 4 * ops.len + 4,
                       plain->nk + 4, plain->nstrs + 3 * ops.len, ops.len))
        fail(&c, d->loc, "out of memory");
    for (uint32_t i = 0; i < d->list.len; i++) {
        const ast_node *l = d->list.items[i];
        expr(&c, l->a);
        EMIT1(&c, l->loc, OP_SET_LOCAL, (uint32_t)l->an.slot);
    }
    if (d->a) {
        nfails = src ? ops.len : 1;
        fails = mem_calloc(nfails ? nfails : 1, sizeof *fails);
        if (!fails)
            fail(&c, d->a->loc, "out of memory");
    }
    for (size_t k = 0; fails && k < nfails; k++) {
        if (src)
            explained_operand(&c, src, ops.n[k], (uint32_t)k, &fails[k]);
        else
            branch(&c, d->a, false, &fails[k]);
    }
    int depth = c.depth;
    if (d->c) { /* a rule of an event: its `do` block */
        block(&c, d->c);
        EMIT0(&c, d->c->loc, OP_DONE);
    } else {
        expr(&c, d->b);
        EMIT0(&c, d->b ? d->b->loc : d->loc, OP_RETURN);
    }
    for (size_t k = 0; fails && k < nfails; k++) {
        set_depth(&c, depth);
        jumps_here(&c, &fails[k]);
        if (src)
            EMIT1(&c, ops.n[k] ? ops.n[k]->loc : d->a->loc, OP_GUARD_FAILED, (uint32_t)k);
        else
            EMIT0(&c, d->a->loc, OP_NO_ANSWER);
    }
    mem_free(fails);
    mem_free(ops.n);
    return finish(&c);
}

chunk *comp_rule(const res_program *p, uint32_t rule, diag_list *diags)
{
    return rule_chunk(p, rule, NULL, NULL, diags);
}

chunk *comp_rule_explained(const res_program *p, uint32_t rule, const chunk *plain,
                           comp_source *src, diag_list *diags)
{
    return rule_chunk(p, rule, plain, src, diags);
}

/* A chunk that evaluates body and returns its value (fallback: the span of the return when
 * there is no body). */
static chunk *value_chunk(const res_program *p, diag_list *diags, const char *name, chunk_kind kind,
                          uint32_t id, uint32_t nparams, uint32_t nlocals, const ast_node *body,
                          ast_loc fallback)
{
    comp c;
    if (!begin(&c, p, diags, name, kind, id, nparams, nlocals))
        return NULL;
    expr(&c, body);
    EMIT0(&c, body ? body->loc : fallback, OP_RETURN);
    return finish(&c);
}

chunk *comp_fn(const res_program *p, uint32_t fn, diag_list *diags)
{
    const res_fn *f = &p->fns[fn];
    char name[256];
    snprintf(name, sizeof name, "fn %s", f->name);
    return value_chunk(p, diags, name, CHUNK_FN, fn, f->nparams, f->nlocals, f->decl->b,
                       f->decl->loc);
}

chunk *comp_default(const res_program *p, uint32_t q, diag_list *diags)
{
    const res_query *qq = &p->queries[q];
    char name[256];
    snprintf(name, sizeof name, "default of %s", qq->name);
    return value_chunk(p, diags, name, CHUNK_DEFAULT, q, qq->nparams, qq->dflt_nlocals, qq->dflt,
                       qq->decl->loc);
}

chunk *comp_expr(const res_program *p, const ast_node *e, uint32_t nlocals, const char *name,
                 diag_list *diags)
{
    return value_chunk(p, diags, name, CHUNK_EXPR, 0, 0, nlocals, e, (ast_loc){ 0 });
}

chunk *comp_procedure(const res_program *p, const ast_node *call, uint32_t nlocals,
                      const char *name, diag_list *diags)
{
    comp c;
    if (!begin(&c, p, diags, name, CHUNK_EXPR, 0, 0, nlocals))
        return NULL;
    ast_loc loc = call ? call->loc : (ast_loc){ 0 };
    for (uint32_t i = 0; call && i < call->list.len; i++)
        expr(&c, call->list.items[i]);
    emit(&c, loc, OP_RAISE, call ? call->an.sym : 0, call ? call->list.len : 0, 0, 0);
    EMIT0(&c, loc, OP_TRUE);
    EMIT0(&c, loc, OP_RETURN);
    return finish(&c);
}
