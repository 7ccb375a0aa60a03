/* odds.c — exact dice odds by enumeration (see odds.h). A lone die is enumerated face by face,
 * the dice of one `roll N d6` as multisets (runtime/dice.c hands them out non-decreasing;
 * interp/vm.c sorts them in play too), each weighted by its orderings N!/(c1!...c6!).
 * Probabilities are kept as numerators over the fixed denominator 6^DICE_SCRIPT_MAX in
 * 128-bit integers, so sums are exact; they are reduced only for printing. One odometer loop
 * (enumerate) serves both an expression's values and a procedure's outcomes (outcome.c).
 */
#include "odds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "outcome.h"
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
    int64_t key; /* sort key for ints, bools, members and verdicts */
    u128 num;    /* probability * 6^DICE_SCRIPT_MAX */
    size_t paths;
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

/* The probability of the current path times 6^DICE_SCRIPT_MAX: 6^-1 per lone die, and for the
 * dice of one roll (the positions sharing a roll_end: a non-decreasing run of faces) the
 * multinomial N!/(c1!...c6!) orderings of that multiset over 6^N. Needs d->asked <=
 * DICE_SCRIPT_MAX (no overflow). A roll's multinomial is below 2^112 for 48 dice, so its
 * computation does not overflow; the product stays <= 6^DICE_SCRIPT_MAX. */
static u128 path_weight(const dice_src *d)
{
    u128 w = pow6((unsigned)(DICE_SCRIPT_MAX - d->asked));
    for (size_t s = 0; s < d->asked;) {
        size_t e = s + 1;
        while (e < d->asked && d->roll_end[e] == d->roll_end[s])
            e++;
        /* positions s..e-1: one roll; multinomial as a product of binomials, face by face */
        u128 m = 1;
        unsigned seen = 0;
        for (size_t i = s; i < e;) {
            size_t r = i;
            while (r < e && d->script[r] == d->script[i])
                r++;
            unsigned c = (unsigned)(r - i);
            for (unsigned j = 1; j <= c; j++)
                m = m * (seen + j) / j; /* m *= C(seen + c, c), exactly, step by step */
            seen += c;
            i = r;
        }
        w *= m;
        s = e;
    }
    return w;
}

/* The odometer: drop the trailing sixes of the faces the run asked, advance the last face and
 * keep the faces before it (dice_d6 extends the script from there). False when every path was
 * run. */
static bool next_path(dice_src *d)
{
    size_t len = d->asked;
    while (len > 0 && d->script[len - 1] == 6)
        len--;
    if (len == 0)
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

/* Adds one path's result to the table; false on OOM. */
static bool record(const val_env *env, outcome **table, val v, u128 weight)
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
        return false;
    }
    outcome *o;
    HASH_FIND_STR(*table, sb_str(&t), o);
    if (o) {
        sb_free(&t);
        o->num += weight;
        o->paths++;
        return true;
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
        return false;
    }
    o->text = sb_take(&t);
    o->json = sb_take(&j);
    res_tkind k = v.type < p->ntypes ? p->types[v.type].kind : RT_NONE;
    o->numeric = !(v.flags & VAL_ABSENT) &&
                 (k == RT_INT || k == RT_BOOL || k == RT_ENUM || k == RT_VERDICT || k == RT_UNIT);
    o->key = v.u.i;
    o->num = weight;
    o->paths = 1;
    return insert_outcome(table, o);
}

/* ---- the odometer ---- */

/* Runs one path with dice (scripted) within `budget` steps and adds its result to *table with
 * the path's weight (path_weight, once the run has asked its dice); *used: the steps it took.
 * False with x->err set on an error. */
typedef bool (*path_fn)(vm_ctx *x, void *ud, dice_src *dice, uint64_t budget, uint64_t *used,
                        outcome **table);

/* Runs path under every face sequence its dice can give (the odometer) into *table, counting
 * the paths in *paths. All paths together get ODDS_BUDGET_FACTOR times one budget (0: the
 * default), so nothing can keep the enumeration running for long. Errors are at chunk ch's
 * start (E210, E209) or the run's own (E207 said again for the whole enumeration). */
static bool enumerate(vm_ctx *x, const chunk *ch, uint64_t budget, path_fn path, void *ud,
                      outcome **table, size_t *paths)
{
    char msg[160];
    dice_src dice;
    dice_seed(&dice, 1);
    dice_script(&dice);
    uint64_t per_path = budget ? budget : VM_DEFAULT_BUDGET;
    const uint64_t total =
        per_path > UINT64_MAX / ODDS_BUDGET_FACTOR ? UINT64_MAX : per_path * ODDS_BUDGET_FACTOR;
    uint64_t total_left = total;
    snprintf(msg, sizeof msg, "more than %d dice outcomes to enumerate", ODDS_MAX_PATHS);
    for (*paths = 1;; ++*paths) {
        if (*paths > ODDS_MAX_PATHS)
            return limit(x, ch, E_ODDS, msg);
        if (state_interrupted())
            return limit(x, ch, E_INTERRUPTED, "interrupted");
        dice_rewind(&dice);
        uint64_t used = 0;
        bool ran = path(x, ud, &dice, per_path < total_left ? per_path : total_left, &used, table);
        total_left = used < total_left ? total_left - used : 0;
        if (!ran) {
            if (x->err.code == E_BUDGET && total_left == 0)
                snprintf(x->err.msg, sizeof x->err.msg,
                         "step budget exhausted: enumerating the "
                         "dice outcomes took more than %llu steps in all" VM_BUDGET_HINT,
                         (unsigned long long)total);
            return false;
        }
        if (HASH_COUNT(*table) > ODDS_MAX_OUTCOMES) {
            snprintf(msg, sizeof msg, "more than %d different outcomes: too many to list",
                     ODDS_MAX_OUTCOMES);
            return limit(x, ch, E_ODDS, msg);
        }
        /* Refuse as soon as the paths are known to pass the cap (`roll 40 d6`: at once). */
        if ((u128)*paths + paths_ahead(&dice) > ODDS_MAX_PATHS)
            return limit(x, ch, E_ODDS, msg);
        if (!next_path(&dice))
            return true;
    }
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
static bool print_outcomes(vm_ctx *x, outcome *table, size_t paths, bool grouped, const char *what,
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
        sb_printf(json, "\", \"p\": %.17g, \"paths\": %zu}", pct, o->paths);
    }
    sb_puts(json, "], \"type\": ");
    sb_json_str(json, what);
    if (grouped) {
        sb_puts(json, ", \"in_every_outcome\": ");
        sb_json_str(json, sb_str(&common));
    }
    sb_printf(json, ", \"paths\": %zu, \"trace\": []}", paths);
    sb_free(&common);
    mem_free(texts);
    mem_free(sorted);
    return true;
}

/* ---- an expression's values ---- */

typedef struct value_path {
    const state_setup *setup;
    const chunk *ch;
} value_path;

static bool run_value(vm_ctx *x, void *ud, dice_src *dice, uint64_t budget, uint64_t *used,
                      outcome **table)
{
    const value_path *vp = ud;
    state_setup s = *vp->setup;
    s.budget = budget;
    state_begin(x, &s, dice, false);
    const val_env env = { s.pg->res, s.sc };
    val v;
    bool ok = vm_eval(x, vp->ch, &v);
    *used = x->budget - state_steps(x);
    if (ok)
        ok = path_recorded(x, vp->ch, dice,
                           !dice->overflow && record(&env, table, v, path_weight(dice)));
    state_end(x);
    return ok;
}

bool odds_enumerate(vm_ctx *x, const state_setup *s, const chunk *ch, uint32_t type, strbuf *text,
                    strbuf *json)
{
    outcome *table = NULL;
    size_t paths = 0;
    value_path vp = { s, ch };
    bool ok = enumerate(x, ch, s->budget, run_value, &vp, &table, &paths);
    if (ok) {
        char tname[160], what[200];
        snprintf(what, sizeof what, "odds of %s", type_name(s->pg->res, type, tname, sizeof tname));
        ok = print_outcomes(x, table, paths, false, what, text, json);
    }
    free_outcomes(&table);
    return ok;
}

/* ---- a procedure's outcomes ---- */

/* Adds one path's outcome text to the table; false on OOM. */
static bool record_text(outcome **table, const char *text, u128 weight)
{
    outcome *o;
    HASH_FIND_STR(*table, text, o);
    if (o) {
        o->num += weight;
        o->paths++;
        return true;
    }
    o = mem_calloc(1, sizeof *o);
    strbuf j = { 0 };
    sb_json_str(&j, text);
    if (!o || j.oom) {
        mem_free(o);
        sb_free(&j);
        return false;
    }
    o->text = mem_strdup(text);
    o->json = sb_take(&j);
    o->num = weight;
    o->paths = 1;
    return insert_outcome(table, o);
}

typedef struct text_path {
    const chunk *ch;
    odds_run run;
    void *ud;
    strbuf out;
} text_path;

static bool run_text(vm_ctx *x, void *ud, dice_src *dice, uint64_t budget, uint64_t *used,
                     outcome **table)
{
    text_path *tp = ud;
    sb_free(&tp->out);
    tp->out.limit = ODDS_VALUE_MAX;
    if (!tp->run(tp->ud, dice, budget, used, &tp->out))
        return false;
    if (tp->out.truncated) {
        tp->out.truncated = false;
        tp->out.limit = 0;
        sb_puts(&tp->out, "...");
    }
    return path_recorded(x, tp->ch, dice,
                         !dice->overflow && !tp->out.oom &&
                             record_text(table, sb_str(&tp->out), path_weight(dice)));
}

bool odds_enumerate_runs(vm_ctx *x, const chunk *ch, odds_run run, void *ud, uint64_t budget,
                         const char *what, strbuf *text, strbuf *json)
{
    outcome *table = NULL;
    size_t paths = 0;
    text_path tp = { ch, run, ud, { 0 } };
    bool ok = enumerate(x, ch, budget, run_text, &tp, &table, &paths);
    sb_free(&tp.out);
    if (ok)
        ok = print_outcomes(x, table, paths, true, what ? what : "odds of a procedure", text, json);
    free_outcomes(&table);
    return ok;
}
