/* odds.c — exact dice odds by enumeration (see odds.h). A lone die is enumerated face by face,
 * the dice of one `roll N d6` as multisets (runtime/dice.c hands them out non-decreasing;
 * interp/vm.c sorts them in play too), each weighted by its orderings N!/(c1!...c6!).
 * Probabilities are kept as numerators over the fixed denominator 6^DICE_SCRIPT_MAX in
 * 128-bit integers, so sums are exact; they are reduced only for printing. One odometer
 * (next_path), run from forks at the rolls and merged where the states are equal (explore;
 * vm.md §11), serves both an expression's values and a procedure's outcomes (outcome.c).
 */
#include "odds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "outcome.h"
#include "proc.h"
#include "vm.h"

typedef unsigned __int128 u128;

/* Every weight and every sum of weights is at most 6^DICE_SCRIPT_MAX (a path's weight is its
 * probability times it), which must fit u128: 6^48 < 2^125. More dice on one path are E210. */
_Static_assert(DICE_SCRIPT_MAX <= 48, "6^DICE_SCRIPT_MAX must fit 128 bits with room to add");

#define ODDS_VALUE_MAX 4096 /* bytes of one outcome's printed value */

typedef struct outcome {
    char *text; /* owned: the printed value, the hash key */
    char *json; /* owned */
    bool numeric;
    bool error;  /* the paths ended in this error (its text "error EXXX: message") */
    int64_t key; /* sort key for ints, bools, members and verdicts */
    size_t id;   /* the order the outcomes came in, from 0 */
    u128 num;    /* probability * 6^DICE_SCRIPT_MAX */
    u128 paths;  /* merged, 20 lone dice stand for 6^20 paths: more than 64 bits hold past 24 */
    UT_hash_handle hh;
} outcome;

static u128 pow6(unsigned n)
{
    u128 r = 1;
    while (n--)
        r *= 6;
    return r;
}

static u128 gcd(u128 a, u128 b)
{
    while (b) {
        u128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void put_u128(strbuf *b, u128 v)
{
    char buf[48];
    size_t n = sizeof buf;
    buf[--n] = '\0';
    do {
        buf[--n] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v && n);
    sb_puts(b, buf + n);
}

static int cmp_outcomes(const void *pa, const void *pb)
{
    const outcome *a = *(const outcome *const *)pa, *b = *(const outcome *const *)pb;
    if (a->error != b->error)
        return a->error ? 1 : -1; /* the errors last, by text */
    if (a->numeric && b->numeric && a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return strcmp(a->text, b->text);
}

static void free_outcomes(outcome **table)
{
    outcome *o, *tmp;
    HASH_ITER(hh, *table, o, tmp)
    {
        HASH_DEL(*table, o);
        mem_free(o->text);
        mem_free(o->json);
        mem_free(o);
    }
}

/* An error of the enumeration itself (E210, E209), at the start of chunk ch. */
static bool limit(vm_ctx *x, const chunk *ch, int code, const char *msg)
{
    x->err.code = code;
    x->err.loc = chunk_loc(ch, 0);
    snprintf(x->err.msg, sizeof x->err.msg, "%s", msg);
    return false;
}

/* C(n, k) for small k (k <= 5 here), exact: each partial product is a binomial itself. */
static u128 binom(unsigned n, unsigned k)
{
    u128 r = 1;
    for (unsigned j = 1; j <= k; j++)
        r = r * (n - k + j) / j;
    return r;
}

/* A lower bound on the paths the odometer has still to run after the current one (faces
 * d->script[0..asked)): at each position j, the faces g above the current one are untried, each
 * giving at least one path, and C(k + 6 - g, 6 - g) when k more dice of the same `roll N d6`
 * follow (they are asked whatever the faces, and take the multisets of faces g..6). For a
 * path that starts a roll of 1s this counts every other multiset of the roll, so `roll 40 d6`
 * is refused after its first path. Stops counting past ODDS_MAX_PATHS. */
static u128 paths_ahead(const dice_src *d)
{
    u128 n = 0;
    for (size_t j = 0; j < d->asked && n <= ODDS_MAX_PATHS; j++) {
        size_t end = d->roll_end[j] > j ? d->roll_end[j] : j + 1;
        unsigned k = (unsigned)(end - 1 - j);
        for (unsigned g = d->script[j] + 1u; g <= 6; g++)
            n += binom(k + 6 - g, 6 - g);
    }
    return n;
}

/* The odometer: drop the trailing sixes of the faces the run asked, advance the last face and
 * keep the faces before it (dice_d6 extends the script from there). False when every path was
 * run. */
static bool next_path(dice_src *d, size_t floor)
{
    size_t len = d->asked;
    while (len > floor && d->script[len - 1] == 6)
        len--;
    if (len == floor)
        return false;
    d->script[len - 1]++;
    d->script_len = len;
    return true;
}

/* Adds a new outcome (its text and json filled, or NULL after running out of memory) to the
 * table, which then owns it; on failure frees it and returns false. */
static bool insert_outcome(outcome **table, outcome *o)
{
    if (o->text && o->json) {
        HASH_ADD_KEYPTR(hh, *table, o->text, strlen(o->text), o);
        if (HON_HASH_ADDED(o))
            return true;
    }
    mem_free(o->text);
    mem_free(o->json);
    mem_free(o);
    return false;
}

/* The outcome of value v in the table (its printed text the key), added with no weight yet
 * (its id the order it came in) when new; NULL on OOM. */
static outcome *value_outcome(const val_env *env, outcome **table, val v)
{
    const res_program *p = env->p;
    strbuf t = { .limit = ODDS_VALUE_MAX };
    val_print(env, v, &t);
    if (t.truncated) {
        t.truncated = false;
        t.limit = 0;
        sb_puts(&t, "...");
    }
    if (t.oom) {
        sb_free(&t);
        return NULL;
    }
    outcome *o;
    HASH_FIND_STR(*table, sb_str(&t), o);
    if (o) {
        sb_free(&t);
        return o;
    }
    o = mem_calloc(1, sizeof *o);
    strbuf j = { .limit = ODDS_VALUE_MAX };
    val_json(env, v, &j);
    if (j.truncated) {
        sb_free(&j);
        sb_puts(&j, "null");
    }
    if (!o || j.oom) {
        mem_free(o);
        sb_free(&t);
        sb_free(&j);
        return NULL;
    }
    o->text = sb_take(&t);
    o->json = sb_take(&j);
    res_tkind k = v.type < p->ntypes ? p->types[v.type].kind : RT_NONE;
    o->numeric = !(v.flags & VAL_ABSENT) &&
                 (k == RT_INT || k == RT_BOOL || k == RT_ENUM || k == RT_VERDICT || k == RT_UNIT);
    o->key = v.u.i;
    o->id = HASH_COUNT(*table);
    return insert_outcome(table, o) ? o : NULL;
}

/* After a path ran: E210 when it rolled more dice than can be enumerated, E209 when its result
 * could not be added; else true. */
static bool path_recorded(vm_ctx *x, const chunk *ch, const dice_src *dice, bool added)
{
    char msg[160];
    if (dice->overflow) {
        snprintf(msg, sizeof msg, "an outcome rolls more than %d dice: too many to enumerate",
                 DICE_SCRIPT_MAX);
        return limit(x, ch, E_ODDS, msg);
    }
    return added || limit(x, ch, E_MEMORY, "out of memory while enumerating dice outcomes");
}

/* Appends the table's outcomes, sorted, as "TEXT: n/d (p%)" lines (no final newline) to text
 * and as one JSON object of type `what` to json. grouped (a procedure's outcomes): the items
 * every outcome has come first, once, in a line "in every outcome: ..." and in the JSON's
 * "in_every_outcome". False (E209) on OOM. */
static bool print_outcomes(vm_ctx *x, outcome *table, u128 paths, bool grouped, const char *what,
                           strbuf *text, strbuf *json)
{
    const u128 denom = pow6(DICE_SCRIPT_MAX);
    size_t n = HASH_COUNT(table), i = 0;
    outcome **sorted = mem_calloc(n ? n : 1, sizeof *sorted);
    const char **texts = mem_calloc(n ? n : 1, sizeof *texts);
    if (!sorted || !texts) {
        mem_free(sorted);
        mem_free(texts);
        x->err.code = E_MEMORY;
        snprintf(x->err.msg, sizeof x->err.msg, "out of memory");
        return false;
    }
    for (outcome *o = table; o; o = o->hh.next)
        sorted[i++] = o;
    qsort(sorted, n, sizeof *sorted, cmp_outcomes);
    for (i = 0; i < n; i++)
        texts[i] = sorted[i]->text;
    strbuf common = { 0 };
    if (grouped)
        outcome_common(texts, n, &common);
    if (common.len)
        sb_printf(text, "in every outcome: %s\n", sb_str(&common));
    sb_puts(json, "{\"value\": [");
    for (i = 0; i < n; i++) {
        const outcome *o = sorted[i];
        u128 g = gcd(o->num, denom);
        u128 num = o->num / g, den = denom / g;
        double pct = (double)((long double)o->num / (long double)denom);
        if (i)
            sb_putc(text, '\n');
        if (common.len)
            outcome_rest(o->text, sb_str(&common), text);
        else
            sb_puts(text, o->text);
        sb_puts(text, ": ");
        put_u128(text, num);
        sb_putc(text, '/');
        put_u128(text, den);
        sb_printf(text, " (%.2f%%)", pct * 100.0);
        sb_puts(json, i ? ", {\"value\": " : "{\"value\": ");
        sb_puts(json, o->json);
        sb_puts(json, ", \"text\": ");
        sb_json_str(json, o->text);
        sb_puts(json, ", \"probability\": \"");
        put_u128(json, num);
        sb_putc(json, '/');
        put_u128(json, den);
        sb_printf(json, "\", \"p\": %.17g, \"paths\": ", pct);
        put_u128(json, o->paths);
        sb_putc(json, '}');
    }
    sb_puts(json, "], \"type\": ");
    sb_json_str(json, what);
    if (grouped) {
        sb_puts(json, ", \"in_every_outcome\": ");
        sb_json_str(json, sb_str(&common));
    }
    sb_puts(json, ", \"paths\": ");
    put_u128(json, paths);
    sb_puts(json, ", \"trace\": []}");
    sb_free(&common);
    mem_free(texts);
    mem_free(sorted);
    return true;
}

/* ---- a procedure's outcomes ---- */

/* The outcome of text in the table, added (with no weight yet) when new; NULL on OOM. */
static outcome *outcome_of(outcome **table, const char *text)
{
    outcome *o;
    HASH_FIND_STR(*table, text, o);
    if (o)
        return o;
    o = mem_calloc(1, sizeof *o);
    strbuf j = { 0 };
    sb_json_str(&j, text);
    if (!o || j.oom) {
        mem_free(o);
        sb_free(&j);
        return NULL;
    }
    o->text = mem_strdup(text);
    o->json = sb_take(&j);
    o->id = HASH_COUNT(*table);
    return insert_outcome(table, o) ? o : NULL;
}

/* ---- a procedure's outcomes, by forking at its rolls ---- */

/* What the continuations of a state gave, per outcome: their weight as if the state were
 * reached with certainty and no die rolled before it (a numerator over 6^DICE_SCRIPT_MAX), and
 * how many paths. */
typedef struct merge_part {
    size_t out; /* outcome id */
    u128 q;
    u128 paths;
} merge_part;

/* A state a procedure stopped in at a roll, explored: its key (node_key) and what came of it. */
typedef struct merge_entry {
    char *key; /* owned, klen bytes */
    size_t klen;
    merge_part *parts; /* owned */
    size_t nparts;
    size_t kmax;   /* the most dice a path rolled after it */
    uint64_t smax; /* the most steps a path took after it */
    UT_hash_handle hh;
} merge_entry;

/* A procedure stopped at a roll: the fork, the dice its path asked before it (the positions of
 * the script it may not change) and the steps its path took. Node 0 is the procedure's start.
 * A node being explored collects what its continuations give (q, paths by outcome id; the ids
 * touched listed), to be kept under its key. */
typedef struct fork_node {
    proc_fork f;
    size_t prefix;
    uint64_t steps;
    strbuf key;
    bool collect;
    u128 *q, *paths;
    size_t *touched;
    size_t cap, ntouched, kmax;
    uint64_t smax;
} fork_node;

/* One enumeration: of a procedure's outcomes (gm, the game it plays) or of an expression's
 * values (gm NULL: the chunk is the expression's, and leaf holds the value a path ended with). */
typedef struct forks {
    vm_ctx *x;
    proc_game *gm;
    val leaf;
    const chunk *ch;
    val_env env;
    dice_src dice;
    fork_node nodes[DICE_SCRIPT_MAX + 2]; /* each fork is after one die more at least */
    size_t root_mark;                     /* the effect log's length at the start */
    arena_mark root_arena;
    uint64_t per_path, total, total_left;
    outcome *table;
    vm_error first_error; /* the first error a path ended in (E_NONE: none yet) */
    outcome **byid;       /* the table's outcomes by id */
    size_t nbyid;
    merge_entry *merged;
    u128 paths;
    size_t runs, merges;
    strbuf out;
    u128 pow6[DICE_SCRIPT_MAX + 1]; /* 6^k */
} forks;

/* The orderings of the rolls whose dice are at script positions [from, to) (a fork is always
 * at a roll's first die, so no roll straddles one): the product of their multinomials. */
static u128 rolls_weight(const dice_src *d, size_t from, size_t to)
{
    u128 w = 1;
    for (size_t s = from; s < to;) {
        size_t e = s + 1;
        while (e < to && d->roll_end[e] == d->roll_end[s])
            e++;
        unsigned seen = 0;
        for (size_t i = s; i < e;) {
            size_t r = i;
            while (r < e && d->script[r] == d->script[i])
                r++;
            for (unsigned j = 1; j <= (unsigned)(r - i); j++)
                w = w * (seen + j) / j;
            seen += (unsigned)(r - i);
            i = r;
        }
        s = e;
    }
    return w;
}

/* Credits outcome o with the paths that go on from a point at script position at, reached by
 * the current dice [0, at): their weight q as if from certainty at that point (see
 * merge_part), npaths paths, at most kdice dice and ssteps steps after it, the path having
 * taken steps until then. The table gets q scaled by the dice before; each node 1..depth that
 * collects gets it scaled by the dice between it and the point. False on OOM. */
static bool credit(forks *c, size_t depth, outcome *o, size_t at, u128 q, u128 npaths, size_t kdice,
                   uint64_t steps, uint64_t ssteps)
{
    /* w: the orderings of the rolls from node a's fork to the point, built from the innermost
     * node outward (a fork is at a roll's first die, so the product splits there exactly): one
     * pass over the dice, not one per node (40 lone dice: 40 nodes deep) */
    u128 w = 1;
    size_t to = at;
    o->paths += npaths;
    c->paths += npaths;
    for (size_t a = depth; a >= 1; a--) {
        fork_node *n = &c->nodes[a];
        w *= rolls_weight(&c->dice, n->prefix, to);
        to = n->prefix;
        if (!n->collect)
            continue;
        if (o->id >= n->cap) {
            size_t cap = n->cap ? n->cap : 16;
            while (cap <= o->id)
                cap *= 2;
            u128 *nq = mem_realloc(n->q, cap * sizeof *nq);
            if (nq)
                n->q = nq;
            u128 *np = mem_realloc(n->paths, cap * sizeof *np);
            if (np)
                n->paths = np;
            size_t *nt = mem_realloc(n->touched, cap * sizeof *nt);
            if (nt)
                n->touched = nt;
            if (!nq || !np || !nt)
                return false;
            memset(n->q + n->cap, 0, (cap - n->cap) * sizeof *nq);
            memset(n->paths + n->cap, 0, (cap - n->cap) * sizeof *np);
            n->cap = cap;
        }
        if (!n->paths[o->id])
            n->touched[n->ntouched++] = o->id;
        n->q[o->id] += w * (q / c->pow6[at - n->prefix]);
        n->paths[o->id] += npaths;
        if (at - n->prefix + kdice > n->kmax)
            n->kmax = at - n->prefix + kdice;
        if (steps - n->steps + ssteps > n->smax)
            n->smax = steps - n->steps + ssteps;
    }
    o->num += w * rolls_weight(&c->dice, 0, to) * (q / c->pow6[at]);
    return true;
}

/* An expression has no procedure driver, but its rolls fork only under one (vm.c: ROLL and
 * ROLL_N of the evaluation's own frames while x->fork and x->driver are set). This one shows
 * no dice and has nothing else to do: an expression has no effect, event, choice, note or
 * `require` (the compiler refuses them outside a procedure, E299). */
static bool expr_effect(vm_ctx *x, const chunk *ch, uint32_t kind, const val *args, uint32_t n,
                        uint32_t extra)
{
    (void)ch, (void)kind, (void)args, (void)n, (void)extra;
    return state_fail(x, E_INTERNAL, "an effect in an expression's odds");
}
static bool expr_raise(vm_ctx *x, uint32_t e, const val *args, uint32_t n)
{
    (void)e, (void)args, (void)n;
    return state_fail(x, E_INTERNAL, "an event raised in an expression's odds");
}
static bool expr_choose(vm_ctx *x, const chunk *ch, val from, val side, const char *q, val *out)
{
    (void)ch, (void)from, (void)side, (void)q, (void)out;
    return state_fail(x, E_INTERNAL, "a choice in an expression's odds");
}
static void expr_note(vm_ctx *x, const chunk *ch, const char *text)
{
    (void)x, (void)ch, (void)text;
}
static void expr_dice(vm_ctx *x, const chunk *ch, const val *faces, size_t n, bool many)
{
    (void)x, (void)ch, (void)faces, (void)n, (void)many;
}
static bool expr_refuse(vm_ctx *x, uint32_t q, const val *args, uint32_t n, uint32_t rule,
                        const char *what)
{
    (void)q, (void)args, (void)n, (void)rule, (void)what;
    return state_fail(x, E_INTERNAL, "a require in an expression's odds");
}
static const vm_driver expr_driver = { expr_effect, expr_raise, expr_choose,
                                       expr_note,   expr_dice,  expr_refuse };

/* Runs the expression of c from its start (d == 0) or from node d's fork, the arena put back
 * first, forking into node d + 1 at its next roll of its own: true with c->leaf its value,
 * false with VM_SUSPENDED (node d + 1's fork filled, the arena's mark with it) or an error. */
static bool run_expression(forks *c, size_t d)
{
    vm_ctx *x = c->x;
    const proc_fork *from = &c->nodes[d].f;
    proc_fork *at = &c->nodes[d + 1].f;
    if (d == 0) {
        arena_rewind(&x->arena, c->root_arena);
        x->line_list = NULL;
    } else {
        arena_rewind(&x->arena, from->arena);
        x->line_list = from->line_list; /* a line traced since was in the arena */
        x->line_a = from->line_a;
        x->line_b = from->line_b;
    }
    x->err.code = E_NONE;
    x->fork = &at->vm;
    state_inline_update(x);
    x->fork_resumed = false;
    x->driver = &expr_driver;
    x->driver_state = NULL;
    bool ok, answered = true;
    if (d == 0) {
        ok = vm_eval(x, c->ch, &c->leaf);
    } else {
        x->sp = 0;
        x->nframes = 0;
        x->depth = 0;
        ok = vm_resume(x, &from->vm, &c->leaf, &answered);
        if (ok && !answered)
            ok = state_fail(x, E_INTERNAL, "the expression gave no value");
    }
    if (!ok && x->err.code == VM_SUSPENDED) {
        at->arena = arena_mark_of(&x->arena);
        at->line_list = x->line_list;
        at->line_a = x->line_a;
        at->line_b = x->line_b;
    }
    x->fork = NULL;
    state_inline_update(x);
    x->fork_resumed = false;
    x->driver = NULL;
    return ok;
}

/* Runs node d's continuation for the faces of c->dice from its prefix on: from the start (d ==
 * 0; the board and the arena put back first) or from its fork. */
static bool run_from(forks *c, size_t d, uint64_t *used)
{
    vm_ctx *x = c->x;
    fork_node *n = &c->nodes[d];
    uint64_t left = c->per_path - n->steps;
    if (left > c->total_left)
        left = c->total_left;
    state_reset_steps(x, left);
    dice_rewind_to(&c->dice, n->prefix);
    bool ok;
    if (!c->gm) {
        ok = run_expression(c, d);
    } else if (d == 0) {
        play_revert(&c->gm->g, c->root_mark);
        arena_rewind(&x->arena, c->root_arena);
        x->line_list = NULL;
        ok = proc_run_fork(x, c->gm, c->ch, &c->nodes[1].f);
    } else {
        ok = proc_resume(x, c->gm, &n->f, &c->nodes[d + 1].f);
    }
    *used = left - state_steps(x);
    c->total_left -= *used < c->total_left ? *used : c->total_left;
    return ok;
}

/* The outcome of the path that just ended (the records since the start), credited. */
static bool leaf_reached(forks *c, size_t d, uint64_t steps)
{
    outcome *o;
    if (!c->gm) {
        o = value_outcome(&c->env, &c->table, c->leaf);
    } else {
        sb_free(&c->out);
        c->out.limit = ODDS_VALUE_MAX;
        outcome_text(&c->env, &c->gm->g, c->root_mark, &c->out);
        if (c->out.truncated) {
            c->out.truncated = false;
            c->out.limit = 0;
            sb_puts(&c->out, "...");
        }
        o = c->out.oom ? NULL : outcome_of(&c->table, sb_str(&c->out));
    }
    if (o && o->id >= c->nbyid) {
        outcome **b = mem_realloc(c->byid, (o->id + 1) * 2 * sizeof *b);
        if (!b)
            return false;
        c->byid = b;
        c->nbyid = (o->id + 1) * 2;
    }
    if (o)
        c->byid[o->id] = o;
    return o && credit(c, d, o, c->dice.asked, c->pow6[DICE_SCRIPT_MAX], 1, 0, steps, 0);
}

/* Whether a path that stopped with error `code` ends in an outcome of its own: an error of the
 * rules on that path (E201 a `?` cell, E219 a `fail`, E228 a refusal, E227, E204...), which
 * the dice led to. Not the enumeration's own limits and the session's (E206 depth, E207 steps,
 * E209 memory, E210 odds, E222 cascade, E223, E225, E229 list cap, E230, E231 interrupted,
 * E299): those stop the odds, as before. */
static bool error_is_outcome(int code)
{
    switch (code) {
    case E_DEPTH:
    case E_BUDGET:
    case E_MEMORY:
    case E_ODDS:
    case E_CASCADE:
    case E_DICE_OUT:
    case E_ABANDONED:
    case E_LIST_SIZE:
    case E_MEMORY_CAP:
    case E_INTERRUPTED:
    case E_INTERNAL: return false;
    default: return code > 200 && code < 299;
    }
}

/* The path that just ended in error x->err (error_is_outcome), credited to the outcome "error
 * EXXX: message": every effect of a failed procedure is undone, so it changed nothing else
 * (vm.md §7). False on OOM. */
static bool error_reached(forks *c, size_t d, uint64_t steps)
{
    sb_free(&c->out);
    c->out.limit = ODDS_VALUE_MAX;
    sb_printf(&c->out, "error E%03d: %s", c->x->err.code, c->x->err.msg);
    if (c->out.truncated) {
        c->out.truncated = false;
        c->out.limit = 0;
        sb_puts(&c->out, "...");
    }
    outcome *o = c->out.oom ? NULL : outcome_of(&c->table, sb_str(&c->out));
    if (!o)
        return false;
    o->error = true;
    if (o->id >= c->nbyid) {
        outcome **b = mem_realloc(c->byid, (o->id + 1) * 2 * sizeof *b);
        if (!b)
            return false;
        c->byid = b;
        c->nbyid = (o->id + 1) * 2;
    }
    c->byid[o->id] = o;
    return credit(c, d, o, c->dice.asked, c->pow6[DICE_SCRIPT_MAX], 1, 0, steps, 0);
}

/* ---- the key of a state (what decides everything a procedure does from a roll on) ---- */

#define KEY_MAX   (256u << 10) /* bytes: a larger state is not merged */
#define KEY_DEPTH 64           /* nesting of the values in it: a deeper one is not merged */

static void key_bytes(strbuf *k, const void *p, size_t n)
{
    if (k->len + n > KEY_MAX)
        k->truncated = true;
    else
        sb_putn(k, p, n);
}

#define KEY(k, v) key_bytes((k), &(v), sizeof(v))

/* Value v, whole: its type, flags and payload, a list's length and items, a record's fields. */
static void key_val(strbuf *k, const res_program *p, val v, unsigned depth)
{
    if (depth > KEY_DEPTH || k->truncated) {
        k->truncated = true;
        return;
    }
    KEY(k, v.type);
    KEY(k, v.flags);
    const res_tkind kind =
        v.type < p->ntypes && !(v.flags & VAL_ABSENT) ? p->types[v.type].kind : RT_NONE;
    if (kind == RT_LIST) {
        size_t n = v.u.list ? v.u.list->len : 0;
        KEY(k, n);
        for (size_t i = 0; i < n && !k->truncated; i++)
            key_val(k, p, v.u.list->items[i], depth + 1);
    } else if (kind == RT_RECORD) {
        const res_record *r = &p->records[p->types[v.type].arg];
        for (size_t i = 0; i < r->nfields && !k->truncated; i++)
            key_val(k, p, v.u.rec[i], depth + 1);
    } else {
        KEY(k, v.u.i);
    }
}

/* The key of the state node n stopped in: everything the rest of the procedure reads — where
 * the driver and the VM stand (levels, frames and their pcs), the values on the stack but the
 * locals no way forward reads (chunk_slot_live: a roll's faces kept in a `let` that is done
 * with), the raised events waiting, and the board: every record since the start (what changed,
 * in order, from what) and the outcome so far (to what). Two states with equal keys go on
 * alike, whatever dice led to them. False when it is too large to keep. */
static bool node_key(forks *c, fork_node *n)
{
    const res_program *p = c->x->p;
    strbuf *k = &n->key;
    sb_free(k);
    const proc_fork *f = &n->f;
    const vm_fork *v = &f->vm;
    KEY(k, f->nlevels);
    for (size_t i = 0; i < f->nlevels; i++) {
        const proc_level *l = &f->levels[i];
        uint64_t w[4] = { l->kind, l->in_vm, l->index, l->from };
        KEY(k, w);
    }
    uint64_t head[6] = { v->nframes, v->sp, v->x_sp, v->depth, v->ndice, v->many };
    KEY(k, head);
    for (size_t i = 0; i < v->nframes; i++) {
        KEY(k, v->frames[i].ch);
        KEY(k, v->frames[i].pc);
        KEY(k, v->frames[i].base);
    }
    for (size_t j = 0; j < v->sp && !k->truncated; j++) {
        bool live = true;
        for (size_t i = v->nframes; i-- > 0;) { /* the innermost frame whose local it is */
            const vm_frame *fr = &v->frames[i];
            if (j >= fr->base && j < fr->base + fr->ch->nlocals) {
                live = chunk_slot_live(fr->ch, (size_t)(fr->pc - fr->ch->code),
                                       (uint32_t)(j - fr->base));
                break;
            }
        }
        KEY(k, live);
        if (live)
            key_val(k, p, v->stack[j], 0);
    }
    KEY(k, f->qlen);
    for (size_t i = 0; i < f->qlen && !k->truncated; i++) {
        const proc_event *e = &f->queue[i];
        uint64_t w[5] = { e->event, e->nargs, e->at.file, e->at.line, e->at.col };
        KEY(k, w);
        for (uint32_t a = 0; a < e->nargs; a++)
            key_val(k, p, e->args[a], 0);
    }
    if (!c->gm) /* an expression changes no board: its frames and stack are all */
        return !k->truncated && !k->oom;
    const play *g = &c->gm->g;
    for (size_t i = c->root_mark; i < g->len && !k->truncated; i++) {
        const play_rec *r = &g->log[i];
        int64_t w[11] = { r->kind,          r->target,         r->what,        r->before,
                          r->after,         r->phase_before,   r->phase_after, r->had,
                          r->feature_value, r->feature_facing, r->feature_pos };
        int64_t pos[6] = { r->pos.present, r->pos.sq0,  r->pos.sq1,
                           r->pos.pos0,    r->pos.pos1, r->pos.in };
        KEY(k, w);
        KEY(k, pos);
    }
    strbuf o = { .limit = KEY_MAX };
    outcome_text(&c->env, g, c->root_mark, &o);
    if (o.truncated || o.oom)
        k->truncated = true;
    else
        key_bytes(k, sb_str(&o), o.len + 1);
    sb_free(&o);
    return !k->truncated && !k->oom;
}

/* Node d + 1 was explored (collecting): keeps what came of it under its key. */
static bool keep_merged(forks *c, fork_node *n)
{
    merge_entry *e = mem_calloc(1, sizeof *e);
    if (!e)
        return false;
    e->parts = mem_malloc((n->ntouched ? n->ntouched : 1) * sizeof *e->parts);
    e->key = mem_malloc(n->key.len ? n->key.len : 1);
    if (!e->parts || !e->key) {
        mem_free(e->parts);
        mem_free(e->key);
        mem_free(e);
        return false;
    }
    memcpy(e->key, n->key.s, n->key.len);
    e->klen = n->key.len;
    for (size_t i = 0; i < n->ntouched; i++) {
        size_t id = n->touched[i];
        e->parts[e->nparts++] = (merge_part){ id, n->q[id], n->paths[id] };
        n->q[id] = 0;
        n->paths[id] = 0;
    }
    n->ntouched = 0;
    e->kmax = n->kmax;
    e->smax = n->smax;
    HASH_ADD_KEYPTR(hh, c->merged, e->key, e->klen, e);
    if (HON_HASH_ADDED(e))
        return true;
    mem_free(e->parts);
    mem_free(e->key);
    mem_free(e);
    return false;
}

static void free_merged(forks *c)
{
    merge_entry *e, *tmp;
    HASH_ITER(hh, c->merged, e, tmp)
    {
        HASH_DEL(c->merged, e);
        mem_free(e->parts);
        mem_free(e->key);
        mem_free(e);
    }
}

static bool explore(forks *c, size_t d);

/* The run of node d stopped at a roll: node d + 1, after `asked` dice and `steps` steps. A
 * state explored before with the same key (and room left on this path for the dice and the
 * steps its paths took) is not explored again: its outcomes are credited, scaled; else it is
 * explored, and kept. */
static bool node_reached(forks *c, size_t d, size_t asked, uint64_t steps)
{
    fork_node *n = &c->nodes[d + 1];
    n->prefix = asked;
    n->steps = steps;
    n->collect = false;
    bool keyed = node_key(c, n);
    merge_entry *e = NULL;
    if (keyed)
        HASH_FIND(hh, c->merged, n->key.s, n->key.len, e);
    if (e && asked + e->kmax <= DICE_SCRIPT_MAX && steps + e->smax <= c->per_path) {
        c->merges++;
        for (size_t i = 0; i < e->nparts; i++)
            if (!credit(c, d, c->byid[e->parts[i].out], asked, e->parts[i].q, e->parts[i].paths,
                        e->kmax, steps, e->smax))
                return limit(c->x, c->ch, E_MEMORY,
                             "out of memory while enumerating dice outcomes");
        return true;
    }
    n->collect = keyed && !e;
    n->ntouched = 0;
    n->kmax = 0;
    n->smax = 0;
    if (!explore(c, d + 1))
        return false;
    if (n->collect && !keep_merged(c, n))
        return limit(c->x, c->ch, E_MEMORY, "out of memory while enumerating dice outcomes");
    n->collect = false;
    return true;
}

/* Every continuation of node d, depth first: the odometer of §7 over the dice after its prefix,
 * each face sequence run from the node's fork, until it ends (a path: its outcome credited) or
 * stops at the next roll of the procedure's own (node d + 1: node_reached). Each prefix
 * thus runs once, and each state once. */
static bool explore(forks *c, size_t d)
{
    vm_ctx *x = c->x;
    const size_t prefix = c->nodes[d].prefix;
    char msg[160];
    snprintf(msg, sizeof msg, "more than %d dice outcomes to enumerate", ODDS_MAX_PATHS);
    c->dice.script_len = prefix;
    for (;;) {
        if (state_interrupted())
            return limit(x, c->ch, E_INTERRUPTED, "interrupted");
        if (++c->runs > ODDS_MAX_PATHS)
            return limit(x, c->ch, E_ODDS, msg);
        uint64_t used;
        bool ok = run_from(c, d, &used), failed = false;
        if (!ok && x->err.code != VM_SUSPENDED && error_is_outcome(x->err.code)) {
            failed = true; /* the path ends in the rules' error: an outcome of its own */
            if (c->first_error.code == E_NONE)
                c->first_error = x->err;
        } else if (!ok && x->err.code != VM_SUSPENDED) {
            if (x->err.code == E_BUDGET && c->total_left == 0)
                snprintf(x->err.msg, sizeof x->err.msg,
                         "step budget exhausted: enumerating the "
                         "dice outcomes took more than %llu steps in all" VM_BUDGET_HINT,
                         (unsigned long long)c->total);
            return false;
        }
        if (!path_recorded(x, c->ch, &c->dice, true))
            return false; /* more dice than can be enumerated */
        size_t asked = c->dice.asked;
        if (ok || failed) {
            bool added = failed ? error_reached(c, d, c->nodes[d].steps + used)
                                : leaf_reached(c, d, c->nodes[d].steps + used);
            x->err.code = E_NONE;
            if (!path_recorded(x, c->ch, &c->dice, added))
                return false;
        } else {
            if (d + 2 >= sizeof c->nodes / sizeof *c->nodes) {
                snprintf(msg, sizeof msg,
                         "an outcome rolls more than %d dice: too many to enumerate",
                         DICE_SCRIPT_MAX);
                return limit(x, c->ch, E_ODDS, msg);
            }
            x->err.code = E_NONE;
            if (!node_reached(c, d, asked, c->nodes[d].steps + used))
                return false;
            c->dice.asked = asked; /* the dice this node's run asked, for the odometer */
        }
        if (HASH_COUNT(c->table) > ODDS_MAX_OUTCOMES) {
            snprintf(msg, sizeof msg, "more than %d different outcomes: too many to list",
                     ODDS_MAX_OUTCOMES);
            return limit(x, c->ch, E_ODDS, msg);
        }
        /* Refuse as soon as the runs are known to pass the cap (`roll 40 d6`: at once): each
         * face not yet tried at a position the script holds is one run at least. */
        if ((u128)c->runs + paths_ahead(&c->dice) > ODDS_MAX_PATHS)
            return limit(x, c->ch, E_ODDS, msg);
        if (!next_path(&c->dice, prefix))
            return true;
    }
}

/* Enumerates chunk ch under s: a procedure's outcomes on gm, or an expression's values (gm
 * NULL); prints them as print_outcomes does (grouped for a procedure). */
static bool enumerate_forks(vm_ctx *x, proc_game *gm, const state_setup *s, const chunk *ch,
                            const char *what, strbuf *text, strbuf *json)
{
    forks *c = mem_calloc(1, sizeof *c);
    if (!c)
        return limit(x, ch, E_MEMORY, "out of memory while enumerating dice outcomes");
    c->x = x;
    c->gm = gm;
    c->ch = ch;
    c->env = (val_env){ s->pg->res, s->sc, NULL, NULL };
    c->per_path = s->budget ? s->budget : VM_DEFAULT_BUDGET;
    c->total = c->per_path > UINT64_MAX / ODDS_BUDGET_FACTOR ? UINT64_MAX
                                                             : c->per_path * ODDS_BUDGET_FACTOR;
    c->total_left = c->total;
    for (unsigned k = 0; k <= DICE_SCRIPT_MAX; k++)
        c->pow6[k] = pow6(k);
    dice_seed(&c->dice, 1);
    dice_script(&c->dice);
    state_setup one = *s;
    one.budget = c->per_path;
    state_begin(x, &one, &c->dice, false);
    c->root_mark = gm ? gm->g.len : 0;
    c->root_arena = arena_mark_of(&x->arena);
    c->first_error.code = E_NONE;
    bool ok = explore(c, 0);
    if (gm)
        play_revert(&gm->g, c->root_mark);
    /* Every path ended in an error: the enumeration fails with the first, as the expression or
     * the procedure does without dice (`odds` of what always fails is its error) */
    bool some_value = false;
    for (outcome *o = c->table; o && !some_value; o = o->hh.next)
        some_value = !o->error;
    if (ok && !some_value && c->first_error.code != E_NONE) {
        x->err = c->first_error;
        ok = false;
    }
    if (ok)
        ok = print_outcomes(x, c->table, c->paths, gm != NULL, what, text, json);
    state_end(x);
    for (size_t i = 0; i < sizeof c->nodes / sizeof *c->nodes; i++) {
        fork_node *n = &c->nodes[i];
        proc_fork_free(&n->f);
        sb_free(&n->key);
        mem_free(n->q);
        mem_free(n->paths);
        mem_free(n->touched);
    }
    free_merged(c);
    mem_free(c->byid);
    sb_free(&c->out);
    free_outcomes(&c->table);
    mem_free(c);
    return ok;
}

bool odds_enumerate(vm_ctx *x, const state_setup *s, const chunk *ch, uint32_t type, strbuf *text,
                    strbuf *json)
{
    char tname[160], what[200];
    snprintf(what, sizeof what, "odds of %s", type_name(s->pg->res, type, tname, sizeof tname));
    return enumerate_forks(x, NULL, s, ch, what, text, json);
}

bool odds_enumerate_procedure(vm_ctx *x, proc_game *gm, const state_setup *s, const chunk *ch,
                              const char *what, strbuf *text, strbuf *json)
{
    return enumerate_forks(x, gm, s, ch, what ? what : "odds of a procedure", text, json);
}
