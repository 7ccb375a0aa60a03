/* lint.c — `hon lint` (hon.h: hon_lint): warnings W001-W007 about a program that loads without
 * error but says what its author likely did not mean: declarations nothing reads, constant
 * guards, rules that never fire, rules that overlap and disagree, inputs no rule answers,
 * reachable `?` cells. Reads the resolver's annotated tree (dsl/model.h) and runs each rule's
 * chunk (vm.h: vm_run) on every input of a query whose parameters have finite domains. The
 * codes are base/diag_codes.h's LINT_* (docs/spec/errors.md, "Warnings of hon lint").
 */
/* realpath() (which files a path names) is XSI: glibc declares it with _XOPEN_SOURCE. */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "session.h"
#include "strbuf.h"
#include "vm.h"

#define LINT_MAX_INPUTS 4096 /* inputs of one query enumerated at most (more: not examined) */
#define LINT_MAX_INTS   8    /* int literals of a query's rules an int parameter is tried around */
#define LINT_MAX_MODS   4    /* `X % M` compared with R in a query's rules, tried (M, R) pairs */
#define LINT_MAX_PARAMS 16   /* parameters (and variants read) of a query examined */

/* The run: the session, what is in scope, what the program reads, the warnings so far. */
typedef struct lint {
    hon_vm *vm;
    const prog *pg;
    const res_program *p;
    diag_list dl;
    bool *flags; /* owned: the one block the arrays below point into */
    bool *scope; /* per diagnostics source: its warnings are reported */
    uint32_t nscope;
    bool *fn_used, *table_used, *enum_used, *marker_used, *variant_read;
    bool *rule_reported;  /* per rule: W004 said already (or, if shadowed_by, to be said) */
    int32_t *shadowed_by; /* owned, per rule: the rule before it that always answers, or -1 */
    char **held_at;       /* owned, per rule: an input its guard holds on (owned text), or NULL */
    bool in_test;         /* walking a test: what it names is not read by the rules */
} lint;

/* A folded constant: known, and its value (a bool as 0/1). */
typedef struct fold_val {
    bool known;
    int64_t v;
} fold_val;

/* Whether diagnostic a comes after b in file and line order: by file (in the order the files
 * were loaded), line and column; one with no place (line 0: E009's "the rest are not shown")
 * after every placed one. */
static bool placed_after(const diag *a, const diag *b)
{
    if ((a->loc.line == 0) != (b->loc.line == 0))
        return a->loc.line == 0;
    if (a->loc.file != b->loc.file)
        return a->loc.file > b->loc.file;
    if (a->loc.line != b->loc.line)
        return a->loc.line > b->loc.line;
    return a->loc.col > b->loc.col;
}

/* Puts the warnings of dl in file and line order (placed_after), as compilers and linters
 * print theirs and editors' lists of places expect; those at one place keep the order they
 * were found in (a stable insertion sort: a list holds at most DIAG_LIST_MAX). */
static void sort_by_place(diag_list *dl)
{
    for (size_t i = 1; i < dl->len; i++) {
        diag d = dl->items[i];
        size_t j = i;
        for (; j > 0 && placed_after(&dl->items[j - 1], &d); j--)
            dl->items[j] = dl->items[j - 1];
        dl->items[j] = d;
    }
}

static bool in_scope(const lint *l, ast_loc loc)
{
    return loc.file < l->nscope && l->scope[loc.file];
}

static diag *warn(lint *l, int code, ast_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static diag *warn(lint *l, int code, ast_loc loc, const char *fmt, ...)
{
    if (!in_scope(l, loc))
        return NULL;
    va_list ap;
    va_start(ap, fmt);
    diag *d = diag_vreport(&l->dl, code, DIAG_WARNING, loc, fmt, ap);
    va_end(ap);
    return d;
}

/* ---- what the program reads (W001, W002) ---- */

static void mark_type(lint *l, uint32_t t, unsigned depth)
{
    if (t == T_NONE || t >= l->p->ntypes || depth > 8)
        return;
    const res_type *ty = &l->p->types[t];
    if (ty->kind == RT_ENUM && ty->arg < l->p->nenums)
        l->enum_used[ty->arg] = true;
    else if (ty->kind == RT_SET || ty->kind == RT_LIST)
        mark_type(l, ty->arg, depth + 1);
    else if (ty->kind == RT_RECORD && ty->arg < l->p->nrecords)
        for (size_t i = 0; i < l->p->records[ty->arg].nfields; i++)
            mark_type(l, l->p->records[ty->arg].fields[i].type, depth + 1);
}

static void mark_fields(lint *l, const res_field *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        mark_type(l, f[i].type, 0);
}

static void walk_vec(lint *l, const ast_vec *v);

/* Marks what node n and everything under it read: fns called, tables indexed, enums whose
 * values it handles, markers named, variants read. */
static void walk(lint *l, const ast_node *n)
{
    if (!n)
        return;
    const res_program *p = l->p;
    mark_type(l, n->an.type, 0);
    uint32_t s = n->an.sym;
    switch (n->an.sym_kind) {
    case SYM_FN:
        if (s < p->nfns)
            l->fn_used[p->fns[s].version_of >= 0 ? (uint32_t)p->fns[s].version_of : s] = true;
        break;
    case SYM_TABLE:
        if (s < p->ntables)
            l->table_used[p->tables[s].version_of >= 0 ? (uint32_t)p->tables[s].version_of : s] =
                true;
        break;
    case SYM_MEMBER:
        if (!l->in_test && n->an.type == p->enums[E_MARKER].type && s < p->enums[E_MARKER].len)
            l->marker_used[s] = true;
        break;
    case SYM_ENUM_TYPE:
        if (s < p->nenums)
            l->enum_used[s] = true;
        break;
    case SYM_VARIANT:
        if (!l->in_test && s < p->nvariants)
            l->variant_read[s] = true;
        break;
    default: break;
    }
    walk(l, n->a);
    walk(l, n->b);
    walk(l, n->c);
    walk_vec(l, &n->list);
    walk_vec(l, &n->list2);
    walk_vec(l, &n->params);
}

static void walk_vec(lint *l, const ast_vec *v)
{
    for (uint32_t i = 0; i < v->len; i++)
        walk(l, v->items[i]);
}

/* Marks what the rules, fns, query defaults, tables, records and the loaded tests read (a fn
 * or table a test asks is a value the rules give their users). Counters and scenarios are not
 * readers: a marker only a counter carries changes no answer. */
static void mark_reads(lint *l)
{
    const res_program *p = l->p;
    for (size_t r = 0; r < p->nrules; r++)
        walk(l, p->rules[r].decl);
    l->in_test = true;
    for (size_t t = 0; t < p->ntests; t++)
        walk(l, p->tests[t].decl);
    l->in_test = false;
    for (size_t f = 0; f < p->nfns; f++) {
        walk(l, p->fns[f].decl->b);
        mark_fields(l, p->fns[f].params, p->fns[f].nparams);
        mark_type(l, p->fns[f].result, 0);
    }
    for (size_t q = 0; q < p->nqueries; q++) {
        walk(l, p->queries[q].dflt);
        mark_fields(l, p->queries[q].params, p->queries[q].nparams);
        mark_type(l, p->queries[q].result, 0);
    }
    for (size_t t = 0; t < p->ntables; t++) {
        const res_table *tb = &p->tables[t];
        for (uint32_t k = 0; k < tb->nkeys; k++)
            mark_type(l, tb->keys[k].type, 0);
        mark_fields(l, tb->cols, tb->ncols);
        for (size_t r = 0; r < tb->nrows; r++)
            for (uint32_t c = 0; c < tb->ncols; c++) {
                const res_const *cell = &tb->rows[r].cells[c];
                if (cell->given && cell->type == p->enums[E_MARKER].type &&
                    cell->v < (int64_t)p->enums[E_MARKER].len)
                    l->marker_used[cell->v] = true;
            }
    }
}

/* The comment of line text[0..n), if any: from its first `#` outside a string to the line's end
 * (*len its length); NULL when the line has none. */
static const char *line_comment(const char *text, size_t n, size_t *len)
{
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        if (in_string && text[i] == '\\')
            i++;
        else if (text[i] == '"')
            in_string = !in_string;
        else if (!in_string && text[i] == '#') {
            *len = n - i;
            return text + i;
        }
    }
    return NULL;
}

/* Whether a comment is the entry-point pragma: `#`, blanks, then `lint: entry` as a word (a
 * reason may follow: `# lint: entry: the points of each army, asked in the REPL`). */
static bool is_entry_pragma(const char *c, size_t n)
{
    static const char word[] = "lint: entry";
    size_t i = 1, k = sizeof word - 1;
    while (i < n && (c[i] == ' ' || c[i] == '\t'))
        i++;
    return n - i >= k && memcmp(c + i, word, k) == 0 &&
           (n - i == k || !(c[i + k] == '_' || (c[i + k] >= 'a' && c[i + k] <= 'z')));
}

/* Whether the declaration at loc is an entry point (docs/spec/errors.md, W001): the pragma
 * `# lint: entry` ends its line, or is one of the comment-only lines directly above it. An
 * entry point is a value the rules give their users to ask (the REPL, tests, a program over
 * hon.h), so nothing reading it is no finding. Reads the source text the diagnostics quote. */
static bool is_entry(const lint *l, ast_loc loc)
{
    const diag_sources *ds = &l->vm->sources;
    if (loc.file >= ds->len || !ds->files[loc.file].text || loc.line == 0)
        return false;
    const char *text = ds->files[loc.file].text;
    size_t len = ds->files[loc.file].len;
    /* the start of each line up to the declaration's, kept for the walk upwards */
    size_t starts[64], nstarts = 0, at = 0;
    for (uint32_t line = 1; line <= loc.line && at <= len; line++) {
        if (line + 64 > loc.line)
            starts[nstarts++] = at;
        const char *nl = memchr(text + at, '\n', len - at);
        at = nl ? (size_t)(nl - text) + 1 : len + 1;
    }
    for (size_t i = nstarts; i-- > 0;) {
        size_t a = starts[i];
        const char *nl = memchr(text + a, '\n', len - a);
        size_t n = (nl ? (size_t)(nl - text) : len) - a, clen = 0;
        const char *c = line_comment(text + a, n, &clen);
        bool comment_only = c && (size_t)(c - (text + a)) == strspn(text + a, " \t");
        if (i + 1 < nstarts && !comment_only)
            return false; /* a line of code (its trailing pragma is its own declaration's) or a
                             blank line ends the comment block above */
        if (c && is_entry_pragma(c, clen))
            return true;
    }
    return false;
}

static void report_unused(lint *l)
{
    const res_program *p = l->p;
    for (size_t f = 0; f < p->nfns; f++)
        if (p->fns[f].version_of < 0 && !l->fn_used[f] && !is_entry(l, p->fns[f].decl->loc))
            warn(l, E_LINT_UNUSED, p->fns[f].decl->loc,
                 "fn `%s` is never called by a rule, a fn or a query's default", p->fns[f].name);
    for (size_t t = 0; t < p->ntables; t++)
        if (p->tables[t].version_of < 0 && !l->table_used[t] &&
            !is_entry(l, p->tables[t].decl->loc))
            warn(l, E_LINT_UNUSED, p->tables[t].decl->loc,
                 "table `%s` is never read by a rule, a fn or a query's default",
                 p->tables[t].name);
    for (size_t e = 0; e < p->nenums; e++)
        if (p->enums[e].decl && p->enums[e].variant < 0 && !l->enum_used[e] &&
            !is_entry(l, p->enums[e].decl->loc))
            warn(l, E_LINT_UNUSED, p->enums[e].decl->loc,
                 "enum `%s`: no rule, fn, table, record or query uses its values",
                 p->enums[e].name);
    const res_enum *m = &p->enums[E_MARKER];
    for (size_t i = 0; i < m->len; i++)
        if (!l->marker_used[i] && !is_entry(l, m->members[i].loc))
            warn(l, E_LINT_UNUSED, m->members[i].loc,
                 "marker `%s` is never named by a rule, a fn, a query's default or a table",
                 m->members[i].name);
    for (size_t v = 0; v < p->nvariants; v++)
        if (!l->variant_read[v])
            warn(l, E_LINT_VARIANT, p->variants[v].decl->loc,
                 "variant `%s` is read by no rule, fn or query default: its readings change "
                 "nothing",
                 p->variants[v].name);
}

/* ---- constant guards (W003) and rules that never fire (W004) ---- */

static bool is_compare(ast_op op)
{
    return op == AST_OP_EQ || op == AST_OP_NE || op == AST_OP_LT || op == AST_OP_LE ||
           op == AST_OP_GT || op == AST_OP_GE;
}

static fold_val fold_binary(ast_op op, fold_val a, fold_val b)
{
    fold_val r = { false, 0 };
    /* `false and X` and `true or X` are known whatever X is; so are `X and false`, `X or true`
       (an error in X aside, which the lint does not count on) */
    if (op == AST_OP_AND && ((a.known && !a.v) || (b.known && !b.v)))
        return (fold_val){ true, 0 };
    if (op == AST_OP_OR && ((a.known && a.v) || (b.known && b.v)))
        return (fold_val){ true, 1 };
    if (!a.known || !b.known)
        return r;
    r.known = true;
    switch (op) {
    case AST_OP_AND: r.v = a.v && b.v; break;
    case AST_OP_OR: r.v = a.v || b.v; break;
    case AST_OP_ADD: r.known = !__builtin_add_overflow(a.v, b.v, &r.v); break;
    case AST_OP_SUB: r.known = !__builtin_sub_overflow(a.v, b.v, &r.v); break;
    case AST_OP_MUL: r.known = !__builtin_mul_overflow(a.v, b.v, &r.v); break;
    case AST_OP_EQ: r.v = a.v == b.v; break;
    case AST_OP_NE: r.v = a.v != b.v; break;
    case AST_OP_LT: r.v = a.v < b.v; break;
    case AST_OP_LE: r.v = a.v <= b.v; break;
    case AST_OP_GT: r.v = a.v > b.v; break;
    case AST_OP_GE: r.v = a.v >= b.v; break;
    default: r.known = false; break;
    }
    return r;
}

/* The value of an expression made of literals (ints, bools) and the operators on them. */
static fold_val fold(const ast_node *n)
{
    fold_val none = { false, 0 };
    if (!n)
        return none;
    switch (n->kind) {
    case AST_INT:
    case AST_BOOL: return (fold_val){ true, n->ival };
    case AST_UNARY: {
        fold_val a = fold(n->a);
        if (!a.known || (n->op == AST_OP_NEG && a.v == INT64_MIN))
            return none;
        return (fold_val){ true, n->op == AST_OP_NOT ? !a.v : -a.v };
    }
    case AST_BINARY:
        if (n->op == AST_OP_AND || n->op == AST_OP_OR || is_compare(n->op) || n->op == AST_OP_ADD ||
            n->op == AST_OP_SUB || n->op == AST_OP_MUL)
            return fold_binary(n->op, fold(n->a), fold(n->b));
        return none;
    default: return none;
    }
}

/* W003 for each operand of the and/or tree of guard g that is a constant, g itself not one. */
static void constant_operands(lint *l, const ast_node *g)
{
    if (!g || g->kind != AST_BINARY || (g->op != AST_OP_AND && g->op != AST_OP_OR))
        return;
    const char *op = g->op == AST_OP_AND ? "and" : "or";
    const ast_node *side[2] = { g->a, g->b };
    for (int i = 0; i < 2; i++) {
        fold_val v = fold(side[i]);
        if (v.known)
            warn(l, E_LINT_CONSTANT, side[i]->loc,
                 "this operand of `%s` is always %s: the guard does not depend on it", op,
                 v.v ? "true" : "false");
        else
            constant_operands(l, side[i]);
    }
}

/* W003 and W004 for each rule's guard. */
static void check_guards(lint *l)
{
    const res_program *p = l->p;
    for (size_t r = 0; r < p->nrules; r++) {
        const ast_node *d = p->rules[r].decl, *g = d->a;
        fold_val v = fold(g);
        if (!g)
            continue;
        if (!v.known) {
            constant_operands(l, g);
            continue;
        }
        warn(l, E_LINT_CONSTANT, g->loc, "this guard is always %s", v.v ? "true" : "false");
        if (!v.v && !l->rule_reported[r]) {
            l->rule_reported[r] = true;
            warn(l, E_LINT_NEVER_FIRES, d->loc, "rule `%s` never fires: its guard is always false",
                 p->rules[r].name);
        }
    }
}

/* Whether rule r always answers: no guard, or one that is always true. */
static bool always_holds(const res_program *p, uint32_t r)
{
    const ast_node *g = p->rules[r].decl->a;
    fold_val v = fold(g);
    return !g || (v.known && v.v);
}

static void rule_here(diag *d, const res_program *p, uint32_t r)
{
    if (d)
        diag_relate(d, p->rules[r].decl->loc, "rule `%s` is here", p->rules[r].name);
}

/* W004: in a `first` query, the rules after one that always answers never fire. */
static void check_shadowed(lint *l, int32_t ed)
{
    const res_program *p = l->p;
    for (uint32_t q = 0; q < p->nqueries; q++) {
        if (p->queries[q].is_event || p->queries[q].mode != AST_COMBINE_FIRST)
            continue;
        const res_ruleset *rs = model_rules_of(p, ed, q);
        size_t k = 0;
        while (k < rs->len && !always_holds(p, rs->rules[k]))
            k++;
        for (size_t j = k + 1; j < rs->len; j++) {
            uint32_t r = rs->rules[j];
            if (l->rule_reported[r])
                continue;
            l->rule_reported[r] = true; /* said by report_shadowed, once the inputs are tried */
            l->shadowed_by[r] = (int32_t)rs->rules[k];
        }
    }
}

/* W004 for the rules check_shadowed found, each with an input its guard holds on (where the
 * rule before it answers first) when the enumeration found one. */
static void report_shadowed(lint *l)
{
    const res_program *p = l->p;
    for (uint32_t r = 0; r < p->nrules; r++) {
        if (l->shadowed_by[r] < 0)
            continue;
        const char *by = p->rules[l->shadowed_by[r]].name;
        diag *d = l->held_at[r]
                      ? warn(l, E_LINT_NEVER_FIRES, p->rules[r].decl->loc,
                             "rule `%s` never fires: `%s` comes before it in rule order and always "
                             "answers (on %s, where it holds, `%s` answers first)",
                             p->rules[r].name, by, l->held_at[r], by)
                      : warn(l, E_LINT_NEVER_FIRES, p->rules[r].decl->loc,
                             "rule `%s` never fires: `%s` comes before it in rule order and always "
                             "answers",
                             p->rules[r].name, by);
        rule_here(d, p, (uint32_t)l->shadowed_by[r]);
    }
}

/* ---- enumerating a query's inputs (W004-W007) ---- */

/* One dimension of a query's inputs: a parameter's values, or a variant's readings. */
typedef struct lint_dim {
    val *vals;
    size_t n;
    int32_t variant; /* -1: parameter */
} lint_dim;

/* Two rules of a query over its inputs: an input where both hold and disagree (its text, with
 * their answers), and whether each holds somewhere the other does not. */
typedef struct lint_pair {
    char *example; /* NULL: they never disagreed */
    bool first_only, second_only;
    uint8_t forbidder; /* in a permission query's example, the rule that forbade: 1 the first,
                          2 the second (0: neither) */
} lint_pair;

/* What the rules of one query were found to do over its inputs. */
typedef struct lint_query {
    uint32_t q;
    const res_ruleset *rs;
    lint_dim dims[LINT_MAX_PARAMS];
    size_t ndims, nparams;
    bool exact;       /* every input tried: no int parameter, no call out of its rules */
    lint_pair *pairs; /* rs->len * rs->len: rules i < j at [i * len + j] */
    bool *held, *decided;
    char **held_at;       /* per rule: the first input its guard held on (owned text), or NULL */
    uint32_t *held_by;    /* per rule: the rule that answered first on that input (its index) */
    bool *by_cell;        /* per rule: held_by stopped the query there on a `?` cell (E201) */
    bool *forbade;        /* per rule of a permission query: it answered forbid on some input */
    bool *forbid_decides; /* ... on some input where no rule permitted (the forbid counted) */
    char *first_input;    /* owned: the text of the first input tried */
    uint64_t ninputs;     /* inputs tried */
    bool gap_said, cell_said;
    val args[LINT_MAX_PARAMS];
    int32_t *readings;
} lint_query;

static void collect_ints(const ast_node *n, int64_t *ints, size_t *nints)
{
    if (!n)
        return;
    if (n->kind == AST_INT) {
        bool seen = false;
        for (size_t i = 0; i < *nints; i++)
            seen |= ints[i] == n->ival;
        if (!seen && *nints < LINT_MAX_INTS)
            ints[(*nints)++] = n->ival;
    }
    const ast_node *kids[3] = { n->a, n->b, n->c };
    const ast_vec *vecs[3] = { &n->list, &n->list2, &n->params };
    for (int i = 0; i < 3; i++)
        collect_ints(kids[i], ints, nints);
    for (int i = 0; i < 3; i++)
        for (uint32_t k = 0; k < vecs[i]->len; k++)
            collect_ints(vecs[i]->items[k], ints, nints);
}

/* Adds to mods (pairs M, R; *nmods of them) each modulus compare written under n, `X % M OP R`
 * or `R OP X % M` with M > 0 and R written ints (OP any compare), each pair once. */
static void collect_mods(const ast_node *n, int64_t (*mods)[2], size_t *nmods)
{
    if (!n)
        return;
    if (n->kind == AST_BINARY && is_compare(n->op) && n->a && n->b) {
        for (int side = 0; side < 2; side++) {
            const ast_node *m = side ? n->b : n->a, *r = side ? n->a : n->b;
            if (m->kind != AST_BINARY || m->op != AST_OP_MOD || !m->b || m->b->kind != AST_INT ||
                m->b->ival <= 0 || r->kind != AST_INT)
                continue;
            bool seen = false;
            for (size_t i = 0; i < *nmods; i++)
                seen |= mods[i][0] == m->b->ival && mods[i][1] == r->ival;
            if (!seen && *nmods < LINT_MAX_MODS) {
                mods[*nmods][0] = m->b->ival;
                mods[(*nmods)++][1] = r->ival;
            }
        }
    }
    const ast_node *kids[3] = { n->a, n->b, n->c };
    const ast_vec *vecs[3] = { &n->list, &n->list2, &n->params };
    for (int i = 0; i < 3; i++)
        collect_mods(kids[i], mods, nmods);
    for (int i = 0; i < 3; i++)
        for (uint32_t k = 0; k < vecs[i]->len; k++)
            collect_mods(vecs[i]->items[k], mods, nmods);
}

/* Whether n calls a fn or a query, or reads a variant, anywhere; *variants gets the variants
 * it reads (at most LINT_MAX_PARAMS, each once). */
static bool calls_out(const ast_node *n, int32_t *variants, size_t *nv)
{
    if (!n)
        return false;
    bool out = n->an.sym_kind == SYM_FN || n->an.sym_kind == SYM_QUERY;
    if (n->an.sym_kind == SYM_VARIANT) {
        bool seen = false;
        for (size_t i = 0; i < *nv; i++)
            seen |= variants[i] == (int32_t)n->an.sym;
        if (!seen && *nv < LINT_MAX_PARAMS)
            variants[(*nv)++] = (int32_t)n->an.sym;
    }
    const ast_node *kids[3] = { n->a, n->b, n->c };
    const ast_vec *vecs[3] = { &n->list, &n->list2, &n->params };
    for (int i = 0; i < 3; i++)
        out |= calls_out(kids[i], variants, nv);
    for (int i = 0; i < 3; i++)
        for (uint32_t k = 0; k < vecs[i]->len; k++)
            out |= calls_out(vecs[i]->items[k], variants, nv);
    return out;
}

/* Adds int v to dim (of capacity cap) unless it holds it already. */
static void add_int(lint_dim *dim, size_t cap, int64_t v)
{
    for (size_t k = 0; k < dim->n; k++)
        if (dim->vals[k].u.i == v)
            return;
    if (dim->n < cap)
        dim->vals[dim->n++] = (val){ .type = T_INT, .u.i = v };
}

/* Fills dim with the values of type t worth trying: every member of an enum, both bools, the
 * ints the rules write and their neighbours, and 0, then the nextra values extra (those a
 * modulus compare implies: plan_query); with sums, also each written int plus and minus each
 * other one (a guard `n / 10 == 5` holds on 50..59, beyond the neighbours of 10, 5 and 55:
 * 55 - 5 and 55 + 5 find them). False when t has no such domain. */
static bool dim_of(lint *l, uint32_t t, const int64_t *ints, size_t nints, const int64_t *extra,
                   size_t nextra, bool sums, lint_dim *dim)
{
    const res_program *p = l->p;
    const res_type *ty = &p->types[t];
    size_t n = ty->kind == RT_BOOL                          ? 2
               : ty->kind == RT_ENUM && ty->arg < p->nenums ? p->enums[ty->arg].len
               : ty->kind == RT_INT ? 3 * nints + 1 + nextra + (sums ? 2 * nints * nints : 0)
                                    : 0;
    if (n == 0)
        return false;
    dim->vals = mem_calloc(n, sizeof *dim->vals);
    if (!dim->vals)
        return false;
    dim->variant = -1;
    dim->n = 0;
    for (size_t i = 0; ty->kind != RT_INT && i < n; i++)
        dim->vals[dim->n++] = (val){ .type = t, .u.i = (int64_t)i };
    for (size_t i = 0; ty->kind == RT_INT && i < 3 * nints + 1; i++) {
        int64_t c = i == 0 ? 0 : ints[(i - 1) / 3], d = (int64_t)((i - 1) % 3) - 1;
        add_int(dim, n, i == 0 ? 0 : (c > INT64_MIN && c < INT64_MAX ? c + d : c));
    }
    for (size_t i = 0; ty->kind == RT_INT && i < nextra; i++)
        add_int(dim, n, extra[i]);
    for (size_t i = 0; ty->kind == RT_INT && sums && i < nints; i++)
        for (size_t k = 0; k < nints; k++) {
            int64_t v;
            if (k == i)
                continue;
            if (!__builtin_add_overflow(ints[i], ints[k], &v))
                add_int(dim, n, v);
            if (!__builtin_sub_overflow(ints[i], ints[k], &v))
                add_int(dim, n, v);
        }
    return true;
}

/* Fills lq->dims (lq->ndims of them) for query qy: its parameters' values (dim_of, with the
 * ints' sums when `sums`), then the readings of the nv variants its rules read (as many as
 * there is room for). Returns 0, 1 when the inputs are more than LINT_MAX_INPUTS, -1 when a
 * parameter has no finite domain (or on OOM). */
static int plan_dims(lint *l, const res_query *qy, const int64_t *ints, size_t nints,
                     const int64_t *extra, size_t nextra, const int32_t *variants, size_t nv,
                     bool sums, lint_query *lq)
{
    const res_program *p = l->p;
    uint64_t total = 1;
    for (uint32_t i = 0; i < qy->nparams; i++) {
        if (p->types[qy->params[i].type].kind == RT_INT)
            lq->exact = false;
        if (!dim_of(l, qy->params[i].type, ints, nints, extra, nextra, sums, &lq->dims[lq->ndims]))
            return -1;
        total *= lq->dims[lq->ndims++].n;
        if (total > LINT_MAX_INPUTS)
            return 1;
    }
    for (size_t v = 0; v < nv && lq->ndims < LINT_MAX_PARAMS; v++) {
        uint32_t e = p->variants[variants[v]].enum_id;
        if (!dim_of(l, p->enums[e].type, NULL, 0, NULL, 0, false, &lq->dims[lq->ndims]))
            return -1;
        lq->dims[lq->ndims].variant = variants[v];
        total *= lq->dims[lq->ndims++].n;
        if (total > LINT_MAX_INPUTS)
            return 1;
    }
    return 0;
}

/* Sets up the dimensions of query q under ruleset rs; false when its inputs are not finite or
 * too many to try. */
static bool plan_query(lint *l, uint32_t q, const res_ruleset *rs, lint_query *lq)
{
    const res_program *p = l->p;
    const res_query *qy = &p->queries[q];
    int64_t ints[LINT_MAX_INTS];
    size_t nints = 0, nv = 0;
    int32_t variants[LINT_MAX_PARAMS];
    bool out = false;
    *lq = (lint_query){ .q = q, .rs = rs, .nparams = qy->nparams, .exact = true };
    if (qy->is_event || qy->nparams > LINT_MAX_PARAMS)
        return false;
    int64_t mods[LINT_MAX_MODS][2], extra[LINT_MAX_MODS * LINT_MAX_INTS * 2];
    size_t nmods = 0, nextra = 0;
    for (size_t i = 0; i < rs->len; i++) {
        collect_ints(p->rules[rs->rules[i]].decl, ints, &nints);
        collect_mods(p->rules[rs->rules[i]].decl, mods, &nmods);
        out |= calls_out(p->rules[rs->rules[i]].decl, variants, &nv);
    }
    lq->exact = !out;
    /* `X % M OP R`: beside each written int c, the values on which X % M is R (% is floor
       modulo, language.md: 0 <= R < M) nearest c from below and above (`n % 7 == 3` against
       `n > 20`: 17 and 24, where both hold) */
    for (size_t i = 0; i < nmods; i++)
        for (size_t k = 0; k < nints; k++) {
            int64_t m = mods[i][0], r = mods[i][1], c = ints[k], lo;
            if (m > INT64_MAX / 4 || r < 0 || r >= m || c <= INT64_MIN + 2 * m ||
                c >= INT64_MAX - 2 * m)
                continue; /* no value gives that remainder, or too near the ends */
            lo = c - (((c - r) % m) + m) % m;
            extra[nextra++] = lo;
            extra[nextra++] = lo + m;
        }
    /* the ints' sums and differences too, while the inputs stay within LINT_MAX_INPUTS */
    int fit = plan_dims(l, qy, ints, nints, extra, nextra, variants, nv, true, lq);
    if (fit > 0) {
        for (size_t i = 0; i < lq->ndims; i++)
            mem_free(lq->dims[i].vals);
        lq->ndims = 0;
        fit = plan_dims(l, qy, ints, nints, extra, nextra, variants, nv, false, lq);
    }
    if (fit != 0)
        return false;
    if (nv > LINT_MAX_PARAMS - qy->nparams)
        lq->exact = false; /* the variants past the cap keep their readings: not every input */
    lq->pairs = mem_calloc(rs->len * rs->len + 1, sizeof *lq->pairs);
    lq->held = mem_calloc(rs->len + 1, sizeof *lq->held);
    lq->decided = mem_calloc(rs->len + 1, sizeof *lq->decided);
    lq->held_at = mem_calloc(rs->len + 1, sizeof *lq->held_at);
    lq->held_by = mem_calloc(rs->len + 1, sizeof *lq->held_by);
    lq->by_cell = mem_calloc(rs->len + 1, sizeof *lq->by_cell);
    lq->forbade = mem_calloc(rs->len + 1, sizeof *lq->forbade);
    lq->forbid_decides = mem_calloc(rs->len + 1, sizeof *lq->forbid_decides);
    return lq->pairs && lq->held && lq->decided && lq->held_at && lq->held_by && lq->by_cell &&
           lq->forbade && lq->forbid_decides;
}

static void free_query(lint_query *lq)
{
    for (size_t i = 0; i < lq->ndims; i++)
        mem_free(lq->dims[i].vals);
    for (size_t i = 0; lq->pairs && i < lq->rs->len * lq->rs->len; i++)
        mem_free(lq->pairs[i].example);
    mem_free(lq->pairs);
    mem_free(lq->held);
    mem_free(lq->decided);
    for (size_t i = 0; lq->held_at && i < lq->rs->len; i++)
        mem_free(lq->held_at[i]);
    mem_free(lq->held_at);
    mem_free(lq->held_by);
    mem_free(lq->by_cell);
    mem_free(lq->forbade);
    mem_free(lq->forbid_decides);
    mem_free(lq->first_input);
}

/* Writes the input: `q(a, b)`, then ` with V = R` for each variant reading tried. */
static void input_text(const lint *l, const lint_query *lq, strbuf *b)
{
    const val_env env = { l->p, NULL, NULL, NULL };
    sb_printf(b, "%s(", l->p->queries[lq->q].name);
    for (size_t i = 0; i < lq->nparams; i++) {
        sb_puts(b, i ? ", " : "");
        val_print(&env, lq->args[i], b);
    }
    sb_putc(b, ')');
    for (size_t i = lq->nparams; i < lq->ndims; i++) {
        int32_t v = lq->dims[i].variant;
        const res_enum *e = &l->p->enums[l->p->variants[v].enum_id];
        sb_printf(b, " with %s = %s", l->p->variants[v].name, e->members[lq->readings[v]].name);
    }
}

static void value_text(const lint *l, val v, strbuf *b)
{
    const val_env env = { l->p, NULL, NULL, NULL };
    val_print(&env, v, b);
}

/* Whether a source is cited for the `?` cells of row `row` of table t: the row's citations or
 * the table's say which book leaves the cell out (the E201 message quotes them). */
static bool gap_cited(const res_program *p, uint32_t t, uint32_t row)
{
    if (t >= p->ntables || row >= p->tables[t].nrows)
        return true;
    const res_table *tb = &p->tables[t];
    const ast_node *d = tb->version_of >= 0 ? p->tables[tb->version_of].decl : tb->decl;
    return (tb->rows[row].node && tb->rows[row].node->cites.len) || d->cites.len;
}

/* W007 for an evaluation that stopped on a `?` cell (E201), at the place that read it. */
static void absent_read(lint *l, lint_query *lq, const vm_error *err)
{
    if (lq->cell_said || gap_cited(l->p, err->cell_table, err->cell_row))
        return;
    strbuf b = { 0 };
    input_text(l, lq, &b);
    if (!in_scope(l, err->loc) && !in_scope(l, l->p->queries[lq->q].decl->loc)) {
        sb_free(&b);
        return;
    }
    lq->cell_said = true;
    diag_report(&l->dl, E_LINT_CELL, DIAG_WARNING, err->loc,
                "%s reads a cell left `?` with no source cited for it (%s)", sb_str(&b), err->msg);
    sb_free(&b);
}

/* Records what rules i < j of the set did on the current input: for W005, which holds without
 * the other, and the first input where both hold and disagree (at the same priority, in a
 * `first` or permission query). */
static void note_pair(lint *l, lint_query *lq, size_t i, size_t j, const bool *answered,
                      const val *ans)
{
    const res_program *p = l->p;
    uint32_t a = lq->rs->rules[i], c = lq->rs->rules[j];
    ast_op mode = p->queries[lq->q].mode;
    lint_pair *pr = &lq->pairs[i * lq->rs->len + j];
    pr->first_only |= answered[i] && !answered[j];
    pr->second_only |= answered[j] && !answered[i];
    if (!answered[i] || !answered[j] || pr->example || (ans[i].flags & VAL_ABSENT) ||
        (ans[j].flags & VAL_ABSENT) || p->rules[a].priority != p->rules[c].priority ||
        (mode != AST_COMBINE_FIRST && mode != AST_COMBINE_PERMISSION))
        return;
    val absent;
    if (val_equal(p, ans[i], ans[j], &absent))
        return;
    strbuf b = { 0 };
    input_text(l, lq, &b);
    sb_puts(&b, " and disagree (");
    value_text(l, ans[i], &b);
    sb_puts(&b, ", ");
    value_text(l, ans[j], &b);
    sb_putc(&b, ')');
    pr->example = mem_strdup(sb_str(&b));
    if (mode == AST_COMBINE_PERMISSION) /* a verdict: 0 forbid, 1 permit (value.h) */
        pr->forbidder = ans[i].u.i == 0 ? 1 : ans[j].u.i == 0 ? 2 : 0;
    sb_free(&b);
}

/* Records, in a permission query, which rules forbade on the current input and whether their
 * forbid counted there: no rule permitted (a permit overrides every forbid). */
static void note_forbids(lint_query *lq, const bool *answered, const val *ans)
{
    bool permitted = false;
    for (size_t i = 0; i < lq->rs->len; i++)
        permitted |= answered[i] && !(ans[i].flags & VAL_ABSENT) && ans[i].u.i != 0;
    for (size_t i = 0; i < lq->rs->len; i++)
        if (answered[i] && !(ans[i].flags & VAL_ABSENT) && ans[i].u.i == 0) {
            lq->forbade[i] = true;
            lq->forbid_decides[i] |= !permitted;
        }
}

/* W005 for each pair that disagreed somewhere while each also holds where the other does not:
 * neither is an exception carved out of the other (a rule whose every input the other also
 * holds on, written before it or winning as a permit), so only their order decides, or an
 * override no one wrote as one. */
static void report_pairs(lint *l, const lint_query *lq)
{
    const res_program *p = l->p;
    size_t n = lq->rs->len;
    bool first = p->queries[lq->q].mode == AST_COMBINE_FIRST;
    bool permission = p->queries[lq->q].mode == AST_COMBINE_PERMISSION;
    bool *said = mem_calloc(n + 1, sizeof *said); /* a forbid said to change nothing */
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const lint_pair *pr = &lq->pairs[i * n + j];
            size_t f = pr->forbidder == 1 ? i : j, other = f == i ? j : i;
            if (pr->example && permission && pr->forbidder && lq->exact && said && lq->forbade[f] &&
                !lq->forbid_decides[f] && !said[f]) {
                /* a forbid that a permit overrides wherever it holds: dead, whatever the
                   order (every input was tried) */
                said[f] = true;
                uint32_t fr = lq->rs->rules[f], o = lq->rs->rules[other];
                diag *d = warn(l, E_LINT_OVERLAP, p->rules[fr].decl->loc,
                               "rules `%s` and `%s` both hold on %s: wherever `%s` forbids, a "
                               "permit holds too and overrides it, so `%s` never changes the "
                               "answer",
                               p->rules[lq->rs->rules[i]].name, p->rules[lq->rs->rules[j]].name,
                               pr->example, p->rules[fr].name, p->rules[fr].name);
                rule_here(d, p, o);
                continue;
            }
            if (!pr->example || !pr->first_only || !pr->second_only)
                continue;
            uint32_t a = lq->rs->rules[i], c = lq->rs->rules[j];
            diag *d = warn(l, E_LINT_OVERLAP, p->rules[c].decl->loc,
                           "rules `%s` and `%s` both hold on %s, and each also holds where the "
                           "other does not: %s",
                           p->rules[a].name, p->rules[c].name, pr->example,
                           first ? "only their order decides" : "the permit overrides the forbid");
            rule_here(d, p, a);
        }
    mem_free(said);
}

/* Keeps, for W004's examples, the text of the first input tried and, per rule, of the first
 * input its guard held on with the rule that answered first there (ans: whether that rule
 * stopped on a `?` cell instead, try_input). */
static void note_inputs(const lint *l, lint_query *lq, const bool *answered, const val *ans)
{
    size_t first = lq->rs->len;
    for (size_t i = 0; i < lq->rs->len && first == lq->rs->len; i++)
        if (answered[i])
            first = i;
    bool want = !lq->first_input;
    for (size_t i = first; i < lq->rs->len; i++)
        want |= answered[i] && !lq->held_at[i];
    if (!want)
        return;
    strbuf b = { 0 };
    input_text(l, lq, &b);
    if (!lq->first_input)
        lq->first_input = mem_strdup(sb_str(&b));
    for (size_t i = first; i < lq->rs->len; i++)
        if (answered[i] && !lq->held_at[i]) {
            lq->held_at[i] = mem_strdup(sb_str(&b));
            lq->held_by[i] = (uint32_t)first;
            lq->by_cell[i] = (ans[first].flags & VAL_ABSENT) != 0;
        }
    sb_free(&b);
}

/* Runs every rule of the set on the current input (args, readings) and checks W005-W007. A
 * rule that reads a `?` cell (E201, W007) counts as holding there with an absent answer: asked,
 * the query stops at it on this input, so the input is still tried and the rules after it are
 * run as on any other (W004 stays exact). Any other error leaves the input out. */
static void try_input(lint *l, lint_query *lq, val *ans, bool *answered)
{
    const res_program *p = l->p;
    const res_query *qy = &p->queries[lq->q];
    hon_vm *vm = l->vm;
    state_setup s = session_setup_with(vm, NULL, session_edition(vm), lq->readings);
    if (session_begin(vm, &s, false) != HON_OK) {
        lq->exact = false;
        return;
    }
    bool any = false;
    const vm_error clean = vm->x.err;
    for (size_t i = 0; i < lq->rs->len; i++) {
        uint32_t r = lq->rs->rules[i];
        if (!vm_run(&vm->x, l->pg->rules[r], lq->args, (uint32_t)lq->nparams, &ans[i],
                    &answered[i])) {
            if (vm->x.err.code != E_NOT_GIVEN_CELL) {
                lq->exact = false; /* an input the rules cannot answer without a board */
                state_end(&vm->x);
                return;
            }
            absent_read(l, lq, &vm->x.err);
            ans[i] = val_absent(0, vm->x.err.cell_table, vm->x.err.cell_row, 0);
            answered[i] = true;
            vm->x.err = clean; /* the run left no frame behind (vm_run): the next one starts */
        }
        if (answered[i] && !any)
            lq->decided[i] = true;
        lq->held[i] |= answered[i];
        any |= answered[i];
    }
    lq->ninputs++;
    note_inputs(l, lq, answered, ans);
    for (size_t j = 0; j < lq->rs->len; j++)
        for (size_t i = 0; i < j; i++)
            note_pair(l, lq, i, j, answered, ans);
    if (qy->mode == AST_COMBINE_PERMISSION)
        note_forbids(lq, answered, ans);
    bool needs_default =
        qy->mode == AST_COMBINE_FIRST || qy->mode == AST_COMBINE_MIN || qy->mode == AST_COMBINE_MAX;
    /* a query whose doc names E203 says which inputs it leaves unanswered */
    const char *doc = qy->decl->doc;
    if (!any && needs_default && !qy->dflt && !lq->gap_said && !(doc && strstr(doc, "E203"))) {
        strbuf b = { 0 };
        input_text(l, lq, &b);
        lq->gap_said = warn(l, E_LINT_GAP, qy->decl->loc,
                            "no rule of `%s` answers %s, and the query has no default (E203 "
                            "when it is asked)",
                            qy->name, sb_str(&b)) != NULL;
        sb_free(&b);
    }
    state_end(&vm->x);
}

/* W004 from the enumeration: over every input (exact), a rule of a `first` query that never
 * answers, or never answers first. */
static void report_never(lint *l, const lint_query *lq)
{
    const res_program *p = l->p;
    if (!lq->exact || p->queries[lq->q].mode != AST_COMBINE_FIRST)
        return;
    for (size_t i = 0; i < lq->rs->len; i++) {
        uint32_t r = lq->rs->rules[i];
        if (lq->decided[i] || l->rule_reported[r])
            continue;
        l->rule_reported[r] = true;
        if (lq->held_at[i] && lq->by_cell[i]) {
            uint32_t by = lq->rs->rules[lq->held_by[i]];
            diag *d = warn(l, E_LINT_NEVER_FIRES, p->rules[r].decl->loc,
                           "rule `%s` never fires: on every input where it holds, a rule before "
                           "it answers first or stops the query on a `?` cell (on %s, `%s` "
                           "reads one)",
                           p->rules[r].name, lq->held_at[i], p->rules[by].name);
            rule_here(d, p, by);
        } else if (lq->held_at[i]) {
            uint32_t by = lq->rs->rules[lq->held_by[i]];
            diag *d = warn(l, E_LINT_NEVER_FIRES, p->rules[r].decl->loc,
                           "rule `%s` never fires: on every input where it holds, a rule before "
                           "it answers first (on %s, `%s`)",
                           p->rules[r].name, lq->held_at[i], p->rules[by].name);
            rule_here(d, p, by);
        } else {
            warn(l, E_LINT_NEVER_FIRES, p->rules[r].decl->loc,
                 "rule `%s` never fires: its guard holds on none of the %llu inputs of `%s` (%s, "
                 "for one, does not satisfy it)",
                 p->rules[r].name, (unsigned long long)lq->ninputs, p->queries[lq->q].name,
                 lq->first_input ? lq->first_input : "?");
        }
    }
}

/* Keeps, for report_shadowed, the inputs the guards of query lq's rules held on. */
static void keep_examples(lint *l, lint_query *lq)
{
    for (size_t i = 0; i < lq->rs->len; i++) {
        uint32_t r = lq->rs->rules[i];
        if (lq->held_at[i] && !l->held_at[r]) {
            l->held_at[r] = lq->held_at[i];
            lq->held_at[i] = NULL;
        }
    }
}

/* Enumerates the inputs of query q (the active edition's rules) and checks them. */
static void enumerate_query(lint *l, uint32_t q, int32_t *readings)
{
    const res_ruleset *rs = model_rules_of(l->p, session_edition(l->vm), q);
    lint_query lq;
    val *ans = NULL;
    bool *answered = NULL;
    if (plan_query(l, q, rs, &lq) && (ans = mem_calloc(rs->len, sizeof *ans)) &&
        (answered = mem_calloc(rs->len, sizeof *answered))) {
        lq.readings = readings;
        size_t at[LINT_MAX_PARAMS] = { 0 };
        int32_t saved[LINT_MAX_PARAMS] = { 0 };
        for (size_t i = lq.nparams; i < lq.ndims; i++)
            saved[i] = readings[lq.dims[i].variant];
        bool more = true;
        while (more) {
            for (size_t i = 0; i < lq.ndims; i++) {
                if (lq.dims[i].variant < 0)
                    lq.args[i] = lq.dims[i].vals[at[i]];
                else
                    readings[lq.dims[i].variant] = (int32_t)lq.dims[i].vals[at[i]].u.i;
            }
            try_input(l, &lq, ans, answered);
            more = false;
            for (size_t i = lq.ndims; i-- > 0 && !more;) {
                more = ++at[i] < lq.dims[i].n;
                if (!more)
                    at[i] = 0;
            }
        }
        report_never(l, &lq);
        report_pairs(l, &lq);
        keep_examples(l, &lq);
        for (size_t i = lq.nparams; i < lq.ndims; i++)
            readings[lq.dims[i].variant] = saved[i];
    }
    free_query(&lq);
    mem_free(ans);
    mem_free(answered);
}

/* ---- the run ---- */

/* Whether the loaded file src is one of the paths (files, or directories holding it). */
static bool named(const session_source *src, const char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *real = realpath(paths[i], NULL);
        const char *want = real ? real : paths[i];
        const char *have = src->real ? src->real : src->path;
        size_t k = strlen(want);
        bool hit = strncmp(have, want, k) == 0 && (have[k] == '\0' || have[k] == '/');
        free(real); /* realpath's, from the C library's allocator */
        if (hit)
            return true;
    }
    return false;
}

static bool lint_open(lint *l, hon_vm *vm, const char *const *paths, size_t n)
{
    const res_program *p = vm->pg->res;
    *l = (lint){ .vm = vm, .pg = vm->pg, .p = p, .nscope = vm->sources.len };
    diag_list_init(&l->dl, &vm->sources);
    bool **arrays[] = { &l->scope,       &l->fn_used,      &l->table_used,   &l->enum_used,
                        &l->marker_used, &l->variant_read, &l->rule_reported };
    const size_t lens[] = { l->nscope,    p->nfns,  p->ntables, p->nenums, p->enums[E_MARKER].len,
                            p->nvariants, p->nrules };
    size_t total = 0;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        total += lens[i];
    if (!(l->flags = mem_calloc(total + 1, sizeof *l->flags)) ||
        !(l->shadowed_by = mem_calloc(p->nrules + 1, sizeof *l->shadowed_by)) ||
        !(l->held_at = mem_calloc(p->nrules + 1, sizeof *l->held_at)))
        return false;
    for (size_t r = 0; r < p->nrules; r++)
        l->shadowed_by[r] = -1;
    total = 0;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        *arrays[i] = l->flags + total;
        total += lens[i];
    }
    for (size_t i = 0; i < vm->nsrcs; i++)
        if (vm->srcs[i].file_id < l->nscope)
            l->scope[vm->srcs[i].file_id] = n == 0 || named(&vm->srcs[i], paths, n);
    return true;
}

static void lint_close(lint *l)
{
    diag_list_clear(&l->dl);
    mem_free(l->flags);
    for (size_t r = 0; l->held_at && r < l->p->nrules; r++)
        mem_free(l->held_at[r]);
    mem_free(l->held_at);
    mem_free(l->shadowed_by);
}

/* Whether the edition (-1: none) uses the module declaring query q: one of a book the edition
 * leaves out has none of its rules there, so its inputs no rule answers are no gap (W006) and
 * its rules are not the edition's to check. */
static bool edition_asks(const res_program *p, int32_t ed, uint32_t q)
{
    if (ed < 0 || (size_t)ed >= p->neditions || !p->editions[ed].uses)
        return true;
    int32_t m = res_module_of(p, p->queries[q].decl->loc.file);
    return m < 0 || (size_t)m >= p->nmodules || p->editions[ed].uses[m];
}

hon_status hon_lint(hon_vm *vm, const char *const *paths, size_t npaths, size_t *warnings)
{
    lint l;
    hon_status st = HON_OK;
    bool oom = false;
    if (warnings)
        *warnings = 0;
    if (!vm)
        return HON_ERR_NOT_FOUND;
    session_cap_begin(vm);
    int32_t *readings = NULL;
    if (!lint_open(&l, vm, paths, npaths) || !prog_ready_all(vm->pg) || /* rules run alone */
        (!(readings = session_readings(vm, session_edition(vm), NULL, &oom)) && oom)) {
        st = HON_ERR_MEMORY;
    } else {
        mark_reads(&l);
        report_unused(&l);
        check_guards(&l);
        check_shadowed(&l, -1);
        for (size_t e = 0; e < l.p->neditions; e++)
            check_shadowed(&l, (int32_t)e);
        for (uint32_t q = 0; q < l.p->nqueries; q++)
            if (edition_asks(l.p, session_edition(vm), q))
                enumerate_query(&l, q, readings);
        report_shadowed(&l);
        if (warnings)
            *warnings = l.dl.len;
        sort_by_place(&l.dl);
        session_emit(vm, &l.dl);
    }
    mem_free(readings);
    lint_close(&l);
    return session_cap_report(vm, st, NULL);
}
