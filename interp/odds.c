/* odds.c — exact dice odds by enumeration (see odds.h). A lone die is enumerated face by face,
 * the dice of one `roll N d6` as multisets (runtime/dice.c hands them out non-decreasing;
 * interp/vm.c sorts them in play too), each weighted by its orderings N!/(c1!...c6!).
 * Probabilities are kept as numerators over the fixed denominator 6^DICE_SCRIPT_MAX in
 * 128-bit integers, so sums are exact; they are reduced only for printing.
 */
#include "odds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"

typedef unsigned __int128 u128;

/* Every weight and every sum of weights is at most 6^DICE_SCRIPT_MAX (a path's weight is its
 * probability times it), which must fit u128: 6^48 < 2^125. More dice on one path are E210. */
_Static_assert(DICE_SCRIPT_MAX <= 48, "6^DICE_SCRIPT_MAX must fit 128 bits with room to add");

#define ODDS_VALUE_MAX 4096     /* bytes of one outcome's printed value */

typedef struct outcome {
    char *text;             /* owned: the printed value, the hash key */
    char *json;             /* owned */
    bool numeric;
    int64_t key;            /* sort key for ints, bools, members and verdicts */
    u128 num;               /* probability * 6^DICE_SCRIPT_MAX */
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
    HASH_ITER(hh, *table, o, tmp) {
        HASH_DEL(*table, o);
        hon_free(o->text);
        hon_free(o->json);
        hon_free(o);
    }
}

static bool limit(vm_ctx *x, const chunk *ch, const char *msg)
{
    x->err.code = 210;
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
                m = m * (seen + j) / j;     /* m *= C(seen + c, c), exactly, step by step */
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
    hon_free(o->text);
    hon_free(o->json);
    hon_free(o);
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
    o = hon_calloc(1, sizeof *o);
    strbuf j = { .limit = ODDS_VALUE_MAX };
    val_json(env, v, &j);
    if (j.truncated) {
        sb_free(&j);
        sb_puts(&j, "null");
    }
    if (!o || j.oom) {
        hon_free(o);
        sb_free(&t);
        sb_free(&j);
        return false;
    }
    o->text = sb_take(&t);
    o->json = sb_take(&j);
    res_tkind k = v.type < p->ntypes ? p->types[v.type].kind : RT_NONE;
    o->numeric = !(v.flags & VAL_ABSENT) && (k == RT_INT || k == RT_BOOL || k == RT_ENUM ||
                                              k == RT_VERDICT || k == RT_UNIT);
    o->key = v.u.i;
    o->num = weight;
    o->paths = 1;
    return insert_outcome(table, o);
}

bool odds_enumerate(vm_ctx *x, const prog *pg, const scene *sc, const chunk *ch, uint32_t type,
                    int32_t edition, const int32_t *readings, uint64_t budget,
                    unsigned max_depth, strbuf *text, strbuf *json)
{
    const res_program *p = pg->res;
    const val_env env = { p, sc };
    const u128 denom = pow6(DICE_SCRIPT_MAX);
    dice_src dice;
    dice_seed(&dice, 1);
    dice_script(&dice);
    outcome *table = NULL;
    size_t paths = 0;
    bool ok = true;
    /* All paths together may use ODDS_BUDGET_FACTOR times one evaluation's budget, so no
     * expression can keep the enumeration running for long. */
    uint64_t per_path = budget ? budget : VM_DEFAULT_BUDGET;
    const uint64_t total = per_path > UINT64_MAX / ODDS_BUDGET_FACTOR
                               ? UINT64_MAX : per_path * ODDS_BUDGET_FACTOR;
    uint64_t total_left = total;
    for (;;) {
        if (++paths > ODDS_MAX_PATHS) {
            char msg[160];
            snprintf(msg, sizeof msg, "more than %d dice outcomes to enumerate", ODDS_MAX_PATHS);
            ok = limit(x, ch, msg);
            break;
        }
        dice_rewind(&dice);
        vm_begin(x, pg, sc, edition, readings, &dice, per_path < total_left ? per_path : total_left,
                 max_depth, false);
        val v;
        bool ran = vm_eval(x, ch, &v);
        uint64_t used = x->budget - x->steps_left;
        total_left = used < total_left ? total_left - used : 0;
        if (!ran) {
            vm_end(x);
            if (x->err.code == 207 && total_left == 0)
                snprintf(x->err.msg, sizeof x->err.msg, "step budget exhausted: enumerating the "
                         "dice outcomes took more than %llu steps in all",
                         (unsigned long long)total);
            ok = false;
            break;
        }
        if (dice.overflow) {
            vm_end(x);
            char msg[160];
            snprintf(msg, sizeof msg, "an outcome rolls more than %d dice: too many to enumerate",
                     DICE_SCRIPT_MAX);
            ok = limit(x, ch, msg);
            break;
        }
        bool added = record(&env, &table, v, path_weight(&dice));
        vm_end(x);
        if (!added) {
            ok = limit(x, ch, "out of memory while enumerating dice outcomes");
            x->err.code = 209;
            break;
        }
        /* Refuse as soon as the paths are known to pass the cap (`roll 40 d6`: at once). */
        if ((u128)paths + paths_ahead(&dice) > ODDS_MAX_PATHS) {
            char msg[160];
            snprintf(msg, sizeof msg, "more than %d dice outcomes to enumerate", ODDS_MAX_PATHS);
            ok = limit(x, ch, msg);
            break;
        }
        if (!next_path(&dice))
            break;
    }
    if (ok) {
        size_t n = HASH_COUNT(table), i = 0;
        outcome **sorted = hon_calloc(n ? n : 1, sizeof *sorted);
        if (!sorted) {
            free_outcomes(&table);
            x->err.code = 209;
            snprintf(x->err.msg, sizeof x->err.msg, "out of memory");
            return false;
        }
        for (outcome *o = table; o; o = o->hh.next)
            sorted[i++] = o;
        qsort(sorted, n, sizeof *sorted, cmp_outcomes);
        char tname[160];
        sb_puts(json, "{\"value\": [");
        for (i = 0; i < n; i++) {
            const outcome *o = sorted[i];
            u128 g = gcd(o->num, denom);
            u128 num = o->num / g, den = denom / g;
            double pct = (double)((long double)o->num / (long double)denom);
            if (i)
                sb_putc(text, '\n');
            sb_printf(text, "%s: ", o->text);
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
        char what[200];
        snprintf(what, sizeof what, "odds of %s", res_type_name(p, type, tname, sizeof tname));
        sb_puts(json, "], \"type\": ");
        sb_json_str(json, what);
        sb_printf(json, ", \"paths\": %zu, \"trace\": []}", paths);
        hon_free(sorted);
    }
    free_outcomes(&table);
    return ok;
}

/* ---- procedures: outcomes given as text (language.md §6.6) ---- */

/* Whether `item` (n bytes) is one of the "; "-separated items of text. */
static bool has_item(const char *text, const char *item, size_t n)
{
    for (const char *s = text; *s;) {
        const char *e = strstr(s, "; ");
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == n && memcmp(s, item, n) == 0)
            return true;
        s += len + (e ? 2 : 0);
    }
    return false;
}

/* Writes the items of text that are not in common (a "; "-separated list of the items every
 * outcome has) into out; "nothing more" when none is left. */
static void rest_of(const char *text, const char *common, strbuf *out)
{
    size_t start = out->len;
    for (const char *s = text; *s;) {
        const char *e = strstr(s, "; ");
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (!has_item(common, s, len)) {
            if (out->len > start)
                sb_puts(out, "; ");
            sb_putn(out, s, len);
        }
        s += len + (e ? 2 : 0);
    }
    if (out->len == start)
        sb_puts(out, "nothing more");
}

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
    o = hon_calloc(1, sizeof *o);
    strbuf j = { 0 };
    sb_json_str(&j, text);
    if (!o || j.oom) {
        hon_free(o);
        sb_free(&j);
        return false;
    }
    o->text = hon_strdup(text);
    o->json = sb_take(&j);
    o->num = weight;
    o->paths = 1;
    return insert_outcome(table, o);
}

bool odds_enumerate_runs(vm_ctx *x, odds_run run, void *ud, uint64_t budget, const char *what,
                         strbuf *text, strbuf *json)
{
    const u128 denom = pow6(DICE_SCRIPT_MAX);
    dice_src dice;
    dice_seed(&dice, 1);
    dice_script(&dice);
    outcome *table = NULL;
    size_t paths = 0;
    bool ok = true;
    uint64_t per_path = budget ? budget : VM_DEFAULT_BUDGET;
    const uint64_t total = per_path > UINT64_MAX / ODDS_BUDGET_FACTOR
                               ? UINT64_MAX : per_path * ODDS_BUDGET_FACTOR;
    uint64_t total_left = total;
    strbuf out = { .limit = ODDS_VALUE_MAX };
    for (;;) {
        if (++paths > ODDS_MAX_PATHS) {
            x->err.code = 210;
            snprintf(x->err.msg, sizeof x->err.msg, "more than %d dice outcomes to enumerate",
                     ODDS_MAX_PATHS);
            ok = false;
            break;
        }
        dice_rewind(&dice);
        uint64_t used = 0;
        sb_free(&out);
        out.limit = ODDS_VALUE_MAX;
        bool ran = run(ud, &dice, per_path < total_left ? per_path : total_left, &used, &out);
        total_left = used < total_left ? total_left - used : 0;
        if (!ran) {
            if (x->err.code == 207 && total_left == 0)
                snprintf(x->err.msg, sizeof x->err.msg, "step budget exhausted: enumerating the "
                         "dice outcomes took more than %llu steps in all",
                         (unsigned long long)total);
            ok = false;
            break;
        }
        if (dice.overflow) {
            x->err.code = 210;
            snprintf(x->err.msg, sizeof x->err.msg, "an outcome rolls more than %d dice: too "
                     "many to enumerate", DICE_SCRIPT_MAX);
            ok = false;
            break;
        }
        if (out.truncated) {
            out.truncated = false;
            out.limit = 0;
            sb_puts(&out, "...");
        }
        if (out.oom || !record_text(&table, sb_str(&out), path_weight(&dice))) {
            x->err.code = 209;
            snprintf(x->err.msg, sizeof x->err.msg, "out of memory while enumerating dice "
                     "outcomes");
            ok = false;
            break;
        }
        if ((u128)paths + paths_ahead(&dice) > ODDS_MAX_PATHS) {
            x->err.code = 210;
            snprintf(x->err.msg, sizeof x->err.msg, "more than %d dice outcomes to enumerate",
                     ODDS_MAX_PATHS);
            ok = false;
            break;
        }
        if (!next_path(&dice))
            break;
    }
    sb_free(&out);
    if (ok) {
        size_t n = HASH_COUNT(table), i = 0;
        outcome **sorted = hon_calloc(n ? n : 1, sizeof *sorted);
        if (!sorted) {
            free_outcomes(&table);
            x->err.code = 209;
            snprintf(x->err.msg, sizeof x->err.msg, "out of memory");
            return false;
        }
        for (outcome *o = table; o; o = o->hh.next)
            sorted[i++] = o;
        qsort(sorted, n, sizeof *sorted, cmp_outcomes);
        /* the items every outcome has are said once, first */
        strbuf common = { 0 };
        for (const char *s = n > 1 ? sorted[0]->text : ""; *s;) {
            const char *e = strstr(s, "; ");
            size_t len = e ? (size_t)(e - s) : strlen(s);
            bool all = true;
            for (size_t k = 1; k < n && all; k++)
                all = has_item(sorted[k]->text, s, len);
            if (all) {
                if (common.len)
                    sb_puts(&common, "; ");
                sb_putn(&common, s, len);
            }
            s += len + (e ? 2 : 0);
        }
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
                rest_of(o->text, sb_str(&common), text);
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
            sb_puts(json, o->json);
            sb_puts(json, ", \"probability\": \"");
            put_u128(json, num);
            sb_putc(json, '/');
            put_u128(json, den);
            sb_printf(json, "\", \"p\": %.17g, \"paths\": %zu}", pct, o->paths);
        }
        sb_puts(json, "], \"type\": ");
        sb_json_str(json, what ? what : "odds of a procedure");
        sb_puts(json, ", \"in_every_outcome\": ");
        sb_json_str(json, sb_str(&common));
        sb_printf(json, ", \"paths\": %zu, \"trace\": []}", paths);
        sb_free(&common);
        hon_free(sorted);
    }
    free_outcomes(&table);
    return ok;
}
