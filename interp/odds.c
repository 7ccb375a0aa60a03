/* odds.c — exact dice odds by enumeration (see odds.h). Probabilities are kept as numerators
 * over the fixed denominator 6^DICE_SCRIPT_MAX in 128-bit integers, so sums are exact; they
 * are reduced only for printing.
 */
#include "odds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"

typedef unsigned __int128 u128;

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
    if (!o->text || !o->json) {
        hon_free(o->text);
        hon_free(o->json);
        hon_free(o);
        return false;
    }
    HASH_ADD_KEYPTR(hh, *table, o->text, strlen(o->text), o);
    if (!HON_HASH_ADDED(o)) {
        hon_free(o->text);
        hon_free(o->json);
        hon_free(o);
        return false;
    }
    return true;
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
        bool added = record(&env, &table, v, pow6((unsigned)(DICE_SCRIPT_MAX - dice.asked)));
        vm_end(x);
        if (!added) {
            ok = limit(x, ch, "out of memory while enumerating dice outcomes");
            x->err.code = 209;
            break;
        }
        /* Odometer: drop trailing sixes, advance the last face. */
        size_t len = dice.asked;
        while (len > 0 && dice.script[len - 1] == 6)
            len--;
        if (len == 0)
            break;
        dice.script[len - 1]++;
        dice.script_len = len;
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
