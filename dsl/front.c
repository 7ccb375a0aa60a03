/* front.c — the front end's driver and the AST builders the grammar actions call.
 *
 * front_parse_file / front_parse_expr (front.h) run the flex scanner (grammar/lexer.l) and the
 * bison parser (grammar/parser.y) over one text with a fresh front_ctx (grammar/build.h), then
 * bound the depth of what was built (E008) so later stages may recurse. The builders below
 * only allocate in the file's arena, check shapes the grammar cannot (E014, E016, E019-E021)
 * and word the errors of the grammar's error productions (E010, E015, E017, E018).
 */
#include "front.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "colour.h"
#include "geo.h"
#include "grammar/build.h"
#include "lexer.h"
#include "mem.h"
#include "parser.h"
#include "stack.h"

/* ---------------------------------------------------------------- errors */

static diag *front_verror(front_ctx *ctx, int code, ast_loc loc, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

diag *front_error(front_ctx *ctx, int code, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag *d = front_verror(ctx, code, loc, fmt, ap);
    va_end(ap);
    return d;
}

/* front_error's work: the message whole, shortened by the list (diag_shorten). */
static diag *front_verror(front_ctx *ctx, int code, ast_loc loc, const char *fmt, va_list ap)
{
    if (ctx->stop)
        return NULL;
    if (ctx->errors >= FRONT_MAX_ERRORS) {
        ctx->stop = true;
        diag_report(ctx->diags, E_TOO_MANY_ERRORS, DIAG_ERROR, loc,
                    "too many errors (%d); stopping here", FRONT_MAX_ERRORS);
        return NULL;
    }
    ctx->errors++;
    return diag_vreport(ctx->diags, code, DIAG_ERROR, loc, fmt, ap);
}

void front_oom(front_ctx *ctx)
{
    ctx->oom = true;
    ctx->stop = true;
}

/* ---------------------------------------------------------------- generic builders */

ast_node *front_node(front_ctx *ctx, ast_kind k, ast_loc loc, const char *name)
{
    ast_node *n = ast_new(ctx->file, k, loc);
    if (!n) {
        front_oom(ctx);
        return NULL;
    }
    n->name = name;
    return n;
}

ast_vec front_push(front_ctx *ctx, ast_vec v, ast_node *n)
{
    if (!ast_vec_push(ctx->file, &v, n))
        front_oom(ctx);
    return v;
}

ast_vec front_vec1(front_ctx *ctx, ast_node *n)
{
    return front_push(ctx, (ast_vec){ 0 }, n);
}

/* A builder rejects a construct: reports it and remembers where, so the declaration holding
 * it is dropped (see front_add_decl). Returns NULL for the builder to return. */
static ast_node *reject(front_ctx *ctx, int code, ast_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static ast_node *reject(front_ctx *ctx, int code, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    front_verror(ctx, code, loc, fmt, ap);
    va_end(ap);
    ctx->bad_line = loc.line;
    ctx->bad_col = loc.col;
    return NULL;
}

static bool within(uint32_t line, uint32_t col, ast_loc span)
{
    if (line < span.line || (line == span.line && col < span.col))
        return false;
    return line < span.end_line || (line == span.end_line && col <= span.end_col);
}

void front_add_decl(front_ctx *ctx, ast_node *decl, ast_loc span)
{
    if (!decl || (ctx->bad_line && within(ctx->bad_line, ctx->bad_col, span)))
        return;
    if (!ast_vec_push(ctx->file, &ctx->file->decls, decl))
        front_oom(ctx);
    ctx->nchains = 0; /* no chain goes on past its declaration */
}

ast_node *front_named(front_ctx *ctx, ast_kind k, ast_loc loc, const char *name, ast_node *a)
{
    ast_node *n = front_node(ctx, k, loc, name);
    if (n)
        n->a = a;
    return n;
}

/* ---------------------------------------------------------------- expressions */

ast_node *front_int(front_ctx *ctx, ast_loc loc, int64_t v)
{
    ast_node *n = front_node(ctx, AST_INT, loc, NULL);
    if (n)
        n->ival = v;
    return n;
}

ast_node *front_bool(front_ctx *ctx, ast_loc loc, bool v)
{
    ast_node *n = front_node(ctx, AST_BOOL, loc, NULL);
    if (n)
        n->ival = v;
    return n;
}

ast_node *front_unary(front_ctx *ctx, ast_loc loc, ast_op op, ast_node *a)
{
    /* `-5` is the literal -5: table keys and cells stay constants. (INT64_MIN cannot be
     * written: its digits overflow first, E003.) */
    if (op == AST_OP_NEG && a && a->kind == AST_INT && a->ival != INT64_MIN) {
        a->ival = -a->ival;
        a->loc = loc;
        return a;
    }
    ast_node *n = front_node(ctx, AST_UNARY, loc, NULL);
    if (n) {
        n->op = op;
        n->a = a;
    }
    return n;
}

/* The bound on chains (language.md §4, errors.md E008) is checked here, as each operator is
 * reduced, and not only once the tree is whole (bound_depth): a chain of a million operators
 * would take hundreds of megabytes before that check could refuse it. The parser reduces a
 * left operand before it shifts the operator after it, and every binary node built between a
 * left operand and its operator's node lies in the right operand, so ctx->chains is a stack:
 * the left operand, a binary node, is found on it below the right operand's nodes, which are
 * popped with it. Past FRONT_MAX_CHAIN, E008 at the right operand and the parse stops there
 * (the scanner says end of file, as after E009): the declaration is dropped. Chains that pass
 * through other nodes (an argument's chain inside a chain) are left to bound_depth. */
ast_node *front_binary(front_ctx *ctx, ast_loc loc, ast_op op, ast_node *a, ast_node *b)
{
    uint32_t len = 1;
    if (a && a->kind == AST_BINARY) {
        size_t i = ctx->nchains;
        while (i > 0 && ctx->chains[i - 1].n != a)
            i--;
        if (i > 0) {
            len = ctx->chains[i - 1].len + 1;
            ctx->nchains = i - 1;
        }
    }
    if (len > FRONT_MAX_CHAIN) {
        reject(ctx, E_TOO_DEEP, b ? b->loc : loc,
               "operator chain too long (more than %d operators)", FRONT_MAX_CHAIN);
        ctx->stop = true;
        return NULL;
    }
    ast_node *n = front_node(ctx, AST_BINARY, loc, NULL);
    if (n) {
        n->op = op;
        n->a = a;
        n->b = b;
        if (MEM_GROW(ctx->chains, ctx->nchains, ctx->chains_cap))
            ctx->chains[ctx->nchains++] = (struct front_chain){ n, len };
        else
            front_oom(ctx);
    }
    return n;
}

ast_node *front_paren(ast_node *e)
{
    if (e && e->parens < UINT32_MAX)
        e->parens++;
    return e;
}

ast_node *front_field(front_ctx *ctx, ast_loc loc, ast_node *base, const char *field)
{
    return front_named(ctx, AST_FIELD, loc, field, base);
}

ast_node *front_call(front_ctx *ctx, ast_loc loc, const char *callee, ast_vec args)
{
    return front_items(ctx, AST_CALL, loc, callee, args);
}

ast_node *front_index(front_ctx *ctx, ast_loc loc, ast_node *base, ast_vec keys)
{
    ast_node *n = front_items(ctx, AST_INDEX, loc, NULL, keys);
    if (n)
        n->a = base;
    return n;
}

ast_node *front_if(front_ctx *ctx, ast_loc loc, ast_node *c, ast_node *t, ast_node *e)
{
    ast_node *n = front_node(ctx, AST_IF, loc, NULL);
    if (n) {
        n->a = c;
        n->b = t;
        n->c = e;
    }
    return n;
}

ast_node *front_let(front_ctx *ctx, ast_loc loc, const char *name, ast_node *v, ast_node *body)
{
    ast_node *n = front_named(ctx, AST_LET, loc, name, v);
    if (n) {
        n->b = body;
        n->op = body ? AST_OP_NONE : AST_ST_LET;
    }
    return n;
}

const char *front_join(front_ctx *ctx, const char *a, const char *b)
{
    size_t na = a ? strlen(a) : 0, nb = b ? strlen(b) : 0;
    if (!a || !b)
        return a ? a : b;
    char *out = mem_malloc(na + nb + 2);
    if (!out) {
        front_oom(ctx);
        return a;
    }
    memcpy(out, a, na);
    out[na] = ' ';
    memcpy(out + na + 1, b, nb + 1);
    const char *joined = ast_strndup(ctx->file, out, na + nb + 1);
    mem_free(out);
    if (!joined)
        front_oom(ctx);
    return joined ? joined : a;
}

ast_node *front_items(front_ctx *ctx, ast_kind k, ast_loc loc, const char *name, ast_vec items)
{
    ast_node *n = front_node(ctx, k, loc, name);
    if (n)
        n->list = items;
    return n;
}

ast_node *front_agg(front_ctx *ctx, ast_loc loc, ast_op op, ast_node *head, ast_node *body)
{
    /* The grammar reads the head as an expression (so `min(a, b)` and `min(x in L: e)`
     * share a prefix); here it must be exactly `NAME in LIST`. */
    if (head && !(head->kind == AST_BINARY && head->op == AST_OP_IN && head->a &&
                  head->a->kind == AST_NAME)) {
        return reject(ctx, E_AGGREGATE_HEAD, head->loc,
                      "an aggregate reads '%s(NAME in LIST: "
                      "EXPR)': expected a loop variable and 'in' before ':'",
                      op == AST_AGG_SUM     ? "sum"
                      : op == AST_AGG_COUNT ? "count"
                      : op == AST_AGG_ALL   ? "all"
                      : op == AST_AGG_ANY   ? "any"
                      : op == AST_AGG_MIN   ? "min"
                                            : "max");
    }
    ast_node *n = front_node(ctx, AST_AGG, loc, head ? head->a->name : NULL);
    if (n) {
        n->op = op;
        n->a = head ? head->b : NULL;
        n->b = body;
    }
    return n;
}

ast_node *front_roll(front_ctx *ctx, ast_loc loc, ast_node *count)
{
    return front_named(ctx, AST_ROLL, loc, NULL, count);
}

ast_node *front_square(front_ctx *ctx, ast_loc loc, const char *text)
{
    int x, y;
    size_t len = text ? strlen(text) : 0;
    if (!text || geo_parse_xy(text, len, &x, &y) != GEO_OK) {
        return reject(ctx, E_BAD_SQUARE, loc,
                      "'@%s' is not a square: write the column letters "
                      "(at most 3) then the row number from 1, as in @C4",
                      text ? text : "");
    }
    ast_node *n = front_node(ctx, AST_SQUARE, loc, text);
    if (n)
        n->ival = (int64_t)((uint64_t)(uint32_t)y << 32 | (uint32_t)x);
    return n;
}

/* ---------------------------------------------------------------- types */

ast_node *front_type_name(front_ctx *ctx, ast_loc loc, const char *name)
{
    return front_node(ctx, AST_TYPE_NAME, loc, name);
}

ast_node *front_type_of(front_ctx *ctx, ast_loc loc, ast_kind k, ast_node *elem)
{
    return front_named(ctx, k, loc, NULL, elem);
}

ast_node *front_bad_generic(front_ctx *ctx, ast_loc loc, const char *name)
{
    return reject(ctx, E_GENERIC_TYPE, loc,
                  "unknown type constructor '%s<...>' (there are set<T> and list<T>)",
                  name ? name : "");
}

/* ---------------------------------------------------------------- declarations */

ast_node *front_param(front_ctx *ctx, ast_loc loc, const char *name, ast_node *type, bool floor)
{
    ast_node *n = front_named(ctx, AST_PARAM, loc, name, type);
    if (n)
        n->ival = floor;
    return n;
}

ast_node *front_vocab(front_ctx *ctx, ast_loc loc, ast_op cat, const char *name, bool carries_int,
                      const char *doc)
{
    ast_node *n = front_doc_decl(ctx, AST_VOCAB, loc, name, doc);
    if (n) {
        n->op = cat;
        n->ival = carries_int;
    }
    return n;
}

ast_node *front_vocab_colour(front_ctx *ctx, ast_loc loc, ast_op cat, const char *name,
                             const char *doc, ast_loc word_loc, const char *word,
                             ast_loc colour_loc, const char *colour)
{
    if (!word || strcmp(word, "colour") != 0)
        return reject(ctx, E_SYNTAX, word_loc,
                      "unexpected identifier '%.40s': only `colour \"COLOUR\"` may follow a "
                      "vocabulary name's text",
                      word ? word : "");
    if (cat != AST_VOCAB_TERRAIN && cat != AST_VOCAB_SIDE_FEATURE && cat != AST_VOCAB_SIDE)
        return reject(ctx, E_VOCAB_TYPE, colour_loc,
                      "only terrain, side_feature and side names take a colour (pictures fill "
                      "squares, draw sides and fill an army's counters in it)");
    size_t n = colour ? strlen(colour) : 0;
    if (!colour_valid(colour, n)) {
        const char *near = colour_near(colour, n);
        return reject(
            ctx, E_VOCAB_TYPE, colour_loc,
            "a colour is \"#rrggbb\" or an SVG colour name (\"olive\"), not \"%.40s\"%s%s%s",
            colour ? colour : "", near ? " (did you mean `" : "", near ? near : "",
            near ? "`?)" : "");
    }
    ast_node *node = front_vocab(ctx, loc, cat, name, false, doc);
    if (node)
        node->name2 = colour;
    return node;
}

ast_node *front_vocab_once(front_ctx *ctx, ast_loc loc, ast_loc word_loc, ast_op cat,
                           const char *name, const char *doc, const char *word)
{
    /* Worded as the parser words a token it cannot take there (parser.y,
     * yyreport_syntax_error): only a phase may take `once`. */
    if (cat != AST_VOCAB_PHASE)
        return reject(ctx, E_SYNTAX, word_loc, "unexpected identifier '%s', expecting %s",
                      word ? word : "", doc ? "string or ';'" : "string, ';' or ':'");
    if (!word || strcmp(word, "once") != 0)
        return reject(ctx, E_SYNTAX, word_loc, "unexpected identifier '%s', expecting %s'once'",
                      word ? word : "", doc ? "string, ';' or " : "string, ';', ':' or ");
    ast_node *n = front_vocab(ctx, loc, cat, name, false, doc);
    if (n)
        n->name2 = "once";
    return n;
}

ast_node *front_vocab_shows(front_ctx *ctx, ast_loc loc, ast_op cat, const char *name,
                            const char *doc, ast_loc word_loc, const char *word,
                            ast_loc terrain_loc, const char *terrain)
{
    if (!word || strcmp(word, "shows") != 0)
        return reject(ctx, E_SYNTAX, word_loc,
                      "unexpected identifier '%.40s': only `shows TERRAIN` may follow a face's "
                      "text",
                      word ? word : "");
    if (cat != AST_VOCAB_FACE)
        return reject(ctx, E_VOCAB_TYPE, word_loc,
                      "only a face shows a terrain (the terrain an element turned to it shows)");
    ast_node *node = front_vocab(ctx, loc, cat, name, false, doc);
    if (node)
        node->a = front_node(ctx, AST_NAME, terrain_loc, terrain);
    return node;
}

ast_node *front_vocab_bad_type(front_ctx *ctx, ast_loc loc, ast_op cat, const char *type)
{
    static const struct {
        ast_op cat;
        const char *word;
    } words[] = {
        { AST_VOCAB_KIND, "kind" },
        { AST_VOCAB_SIDE, "side" },
        { AST_VOCAB_ABILITY, "ability" },
        { AST_VOCAB_MARKER, "marker" },
        { AST_VOCAB_TOKEN, "token" },
        { AST_VOCAB_TERRAIN, "terrain" },
        { AST_VOCAB_SQUARE_FEATURE, "square_feature" },
        { AST_VOCAB_SIDE_FEATURE, "side_feature" },
        { AST_VOCAB_INTERSPACE_ITEM, "interspace_item" },
        { AST_VOCAB_PHASE, "phase" },
        { AST_VOCAB_FACE, "face" },
    };
    const char *word = "vocabulary";
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (words[i].cat == cat)
            word = words[i].word;
    return reject(ctx, E_VOCAB_TYPE, loc,
                  "only ': int' may follow a %s name (it carries a number), not ': %s'", word,
                  type ? type : "");
}

ast_node *front_doc_decl(front_ctx *ctx, ast_kind k, ast_loc loc, const char *name, const char *doc)
{
    ast_node *n = front_node(ctx, k, loc, name);
    if (n)
        n->doc = doc;
    return n;
}

ast_node *front_counter(front_ctx *ctx, ast_loc loc, const char *name, const char *title,
                        const char *kind, ast_vec items)
{
    ast_node *n = front_items(ctx, AST_COUNTER, loc, name, items);
    if (n) {
        n->title = title;
        n->ref = kind;
    }
    return n;
}

ast_node *front_counter_item(front_ctx *ctx, ast_loc loc, const char *name, ast_node *value)
{
    return front_named(ctx, AST_COUNTER_ITEM, loc, name, value);
}

ast_node *front_counter_list(front_ctx *ctx, ast_loc loc, const char *name, ast_vec entries)
{
    return front_items(ctx, AST_COUNTER_ITEM, loc, name, entries);
}

ast_node *front_cite(front_ctx *ctx, ast_loc loc, const char *id, const char *source,
                     const char *example)
{
    ast_node *n = front_node(ctx, AST_CITE, loc, id);
    if (n) {
        n->ref = source;
        n->doc = example;
    }
    return n;
}

ast_node *front_source(front_ctx *ctx, ast_loc loc, const char *id, const char *text)
{
    ast_node *n = front_node(ctx, AST_SOURCE, loc, id);
    if (n)
        n->title = text;
    return n;
}

ast_node *front_table(front_ctx *ctx, ast_loc loc, const char *name, ast_vec keys, ast_node *result,
                      ast_vec columns, ast_vec cites, ast_vec rows)
{
    ast_node *n = front_items(ctx, AST_TABLE, loc, name, rows);
    if (n) {
        n->params = keys;
        n->a = result;
        n->list2 = columns;
        n->cites = cites;
    }
    return n;
}

ast_node *front_row(front_ctx *ctx, ast_loc loc, ast_vec keys, ast_vec cells, ast_vec cites)
{
    ast_node *n = front_items(ctx, AST_ROW, loc, NULL, cells);
    if (n) {
        n->params = keys;
        n->cites = cites;
    }
    return n;
}

ast_node *front_fn(front_ctx *ctx, ast_loc loc, const char *name, ast_vec params, ast_node *result,
                   ast_node *body)
{
    ast_node *n = front_node(ctx, AST_FN, loc, name);
    if (n) {
        n->params = params;
        n->a = result;
        n->b = body;
    }
    return n;
}

ast_op front_combine(front_ctx *ctx, ast_loc loc, const char *mode)
{
    ast_op m = ast_combine_find(mode);
    if (m == AST_OP_NONE) {
        char names[128];
        ast_combine_names(names, sizeof names);
        reject(ctx, E_UNKNOWN_COMBINE, loc, "unknown combine mode '%s' (%s)", mode ? mode : "",
               names);
    }
    return m;
}

ast_node *front_query(front_ctx *ctx, ast_loc loc, const char *name, ast_vec params,
                      ast_node *result, ast_op op, const char *doc, ast_node *dflt)
{
    if (op == AST_OP_NONE)
        return NULL;
    ast_node *n = front_fn(ctx, loc, name, params, result, dflt);
    if (n) {
        n->kind = AST_QUERY;
        n->op = op;
        n->doc = doc;
    }
    return n;
}

ast_node *front_rule(front_ctx *ctx, ast_loc loc, const char *query, const char *rule,
                     int64_t priority, ast_vec cites, const char *doc, ast_vec lets, ast_node *when,
                     ast_node *answer)
{
    ast_node *n = front_remove(ctx, loc, query, rule);
    if (n) {
        n->kind = AST_RULE;
        n->ival = priority;
        n->cites = cites;
        n->doc = doc;
        n->list = lets;
        n->a = when;
        n->b = answer;
        n->op = AST_EDIT_ADD;
    }
    return n;
}

ast_node *front_rule_as(ast_node *rule, ast_op edit)
{
    if (rule)
        rule->op = edit;
    return rule;
}

const char *front_rule_name(front_ctx *ctx, const char *query, const char *rule)
{
    size_t q = query ? strlen(query) : 0, r = rule ? strlen(rule) : 0;
    char *full = mem_malloc(q + r + 2);
    if (!full) {
        front_oom(ctx);
        return NULL;
    }
    memcpy(full, query ? query : "", q);
    full[q] = '.';
    memcpy(full + q + 1, rule ? rule : "", r);
    full[q + 1 + r] = '\0';
    const char *name = ast_strndup(ctx->file, full, q + r + 1);
    mem_free(full);
    if (!name)
        front_oom(ctx);
    return name;
}

ast_node *front_remove(front_ctx *ctx, ast_loc loc, const char *query, const char *rule)
{
    const char *name = front_rule_name(ctx, query, rule);
    if (!name)
        return NULL;
    ast_node *n = front_node(ctx, AST_REMOVE, loc, name);
    if (n) {
        n->ref = query;
        n->name2 = rule;
    }
    return n;
}

ast_node *front_variant(front_ctx *ctx, ast_loc loc, const char *name, const char *doc,
                        ast_vec readings)
{
    ast_node *n = front_items(ctx, AST_VARIANT, loc, name, readings);
    if (n)
        n->doc = doc;
    return n;
}

ast_node *front_reading(front_ctx *ctx, ast_loc loc, const char *name, const char *doc, bool dflt)
{
    ast_node *n = front_doc_decl(ctx, AST_READING, loc, name, doc);
    if (n)
        n->ival = dflt;
    return n;
}

ast_node *front_edition(front_ctx *ctx, ast_loc loc, const char *name, ast_vec parents,
                        ast_vec uses, const char *title, ast_vec items)
{
    ast_node *n = front_items(ctx, AST_EDITION, loc, name, items);
    if (n) {
        n->params = parents;
        n->list2 = uses;
        n->title = title;
    }
    return n;
}

ast_node *front_module(front_ctx *ctx, ast_loc loc, const char *name, const char *title)
{
    ast_node *n = front_node(ctx, AST_MODULE, loc, name);
    if (n)
        n->title = title;
    return n;
}

/* A new AST_REVISE of kind op (AST_REV_*) named name. */
static ast_node *revise(front_ctx *ctx, ast_loc loc, ast_op op, const char *name)
{
    ast_node *n = front_node(ctx, AST_REVISE, loc, name);
    if (n)
        n->op = op;
    return n;
}

ast_node *front_revise_rule(front_ctx *ctx, ast_loc loc, const char *query, const char *rule,
                            ast_vec cites, ast_node *when, ast_node *unless, ast_node *answer,
                            ast_loc end)
{
    if (!when && !unless && !answer)
        return reject(ctx, E_SYNTAX, end,
                      "unexpected ';': `revise rule` says what it revises: `when EXPR`, "
                      "`unless EXPR` or `answer EXPR`");
    ast_node *n = front_rule(ctx, loc, query, rule, 0, cites, NULL, (ast_vec){ 0 }, when, answer);
    if (n) {
        n->kind = AST_REVISE;
        n->op = AST_REV_RULE;
        n->c = unless;
    }
    return n;
}

ast_node *front_revise_table(front_ctx *ctx, ast_loc loc, const char *table, ast_vec keys,
                             const char *column, ast_vec cells, ast_vec cites)
{
    ast_node *n = revise(ctx, loc, AST_REV_TABLE, table);
    if (n) {
        n->params = keys;
        n->name2 = column;
        n->list = cells;
        n->cites = cites;
    }
    return n;
}

ast_node *front_revise_fn(front_ctx *ctx, ast_node *fn)
{
    (void)ctx;
    if (fn) {
        fn->kind = AST_REVISE;
        fn->op = AST_REV_FN;
    }
    return fn;
}

ast_node *front_revise_counter(front_ctx *ctx, ast_loc loc, const char *counter, ast_vec items)
{
    ast_node *n = revise(ctx, loc, AST_REV_COUNTER, counter);
    if (n)
        n->list = items;
    return n;
}

ast_node *front_prefer(front_ctx *ctx, ast_loc loc, const char *edition, const char *kind,
                       const char *name, ast_loc what_loc)
{
    ast_node *n = front_node(ctx, AST_PREFER, kind ? ast_loc_span(loc, what_loc) : loc, edition);
    if (n) {
        n->ref = kind;
        n->name2 = name;
    }
    return n;
}

ast_node *front_set_variant(front_ctx *ctx, ast_loc loc, const char *variant, const char *reading)
{
    ast_node *n = front_node(ctx, AST_SET_VARIANT, loc, variant);
    if (n)
        n->ref = reading;
    return n;
}

ast_node *front_test(front_ctx *ctx, ast_loc loc, const char *title, const char *edition,
                     ast_vec settings, ast_vec expects)
{
    const ast_node *board = NULL, *dice = NULL, *choices = NULL;
    for (uint32_t i = 0; i < settings.len; i++) {
        const ast_node *s = settings.items[i];
        if (s && (s->kind == AST_TEST_DICE || s->kind == AST_TEST_CHOICES)) {
            const ast_node **seen = s->kind == AST_TEST_DICE ? &dice : &choices;
            if (*seen)
                return reject(ctx, E_TEST_SETTING_TWICE, s->loc, "a test gives its %s once",
                              s->kind == AST_TEST_DICE ? "dice" : "choices");
            *seen = s;
            continue;
        }
        if (!s || s->kind != AST_TEST_BOARD)
            continue;
        if (board)
            return reject(ctx, E_TWO_BOARDS, s->loc,
                          "a test loads one board; this one already names \"%s\"",
                          board->name ? board->name : "");
        /* a board is a scenario file: a test (perhaps an expansion's from anywhere) may not
           have hon read another file as one and show its lines as errors (language.md §6.7) */
        size_t n = s->name ? strlen(s->name) : 0;
        if (n < 5 || strcmp(s->name + n - 4, ".scn") != 0 || s->name[n - 5] == '/')
            return reject(ctx, E_TEST_BOARD_KIND, s->loc,
                          "a test's board is a scenario file, its name ending in .scn (relative "
                          "to the test's file), not \"%s\"",
                          s->name ? s->name : "");
        board = s;
    }
    ast_node *n = front_items(ctx, AST_TEST, loc, NULL, expects);
    if (n) {
        n->title = title;
        n->ref = edition;
        n->params = settings;
        n->name2 = board ? board->name : NULL;
    }
    return n;
}

/* The number of the error code after `fails` (E201 -> 201) into *c, 0 without one; false
 * (reported, E016) when it is no code. */
static bool fails_code(front_ctx *ctx, const char *code, ast_loc code_loc, int64_t *c)
{
    *c = 0;
    if (!code)
        return true;
    bool ok = strlen(code) == 4 && code[0] == 'E';
    for (int i = 1; ok && i < 4; i++)
        ok = code[i] >= '0' && code[i] <= '9';
    if (ok)
        *c = (code[1] - '0') * 100 + (code[2] - '0') * 10 + (code[3] - '0');
    if (!ok || *c == 0)
        return reject(ctx, E_BAD_FAILS_CODE, code_loc,
                      "'fails' takes an error code such as E201, not '%s'", code) != NULL;
    return true;
}

ast_node *front_expect(front_ctx *ctx, ast_loc loc, ast_node *e, const char *code, ast_loc code_loc)
{
    int64_t c;
    if (!fails_code(ctx, code, code_loc, &c))
        return NULL;
    ast_node *n = front_named(ctx, AST_EXPECT, loc, NULL, e);
    if (n)
        n->ival = c;
    return n;
}

ast_node *front_under(front_ctx *ctx, ast_loc loc, ast_node *answer, const char *edition)
{
    ast_node *n = front_named(ctx, AST_EXPECT, loc, NULL, answer);
    if (n) {
        n->ref = edition;
        n->c = front_node(ctx, AST_NAME, loc, edition);
    }
    return n;
}

ast_vec front_expect_under(front_ctx *ctx, ast_vec items, ast_node *first, ast_node *under,
                           ast_vec rest)
{
    if (!first || !under)
        return items;
    if (first->kind != AST_BINARY || first->op != AST_OP_EQ || first->parens) {
        reject(ctx, E_SYNTAX, first->loc,
               "`under` follows a comparison `X == A`: write `expect X == A under E, B under "
               "F;`");
        return items;
    }
    ast_node *x = first->a;
    under->a = first;
    under->loc = first->loc;
    items = front_push(ctx, items, under);
    for (uint32_t i = 0; i < rest.len; i++) {
        ast_node *u = rest.items[i];
        if (!u || !u->a)
            continue;
        ast_node *eq = front_binary(ctx, ast_loc_span(x->loc, u->a->loc), AST_OP_EQ, x, u->a);
        u->a = eq;
        if (eq)
            u->loc = eq->loc;
        items = front_push(ctx, items, u);
    }
    return items;
}

/* ---------------------------------------------------------------- events (§6) */

ast_node *front_event(front_ctx *ctx, ast_loc loc, const char *name, ast_vec params,
                      ast_node *moment, const char *doc)
{
    ast_node *n = front_doc_decl(ctx, AST_EVENT, loc, name, doc);
    if (n) {
        n->params = params;
        n->ref = moment ? moment->name : NULL;
    }
    return n;
}

ast_node *front_rule_do(front_ctx *ctx, ast_node *rule, ast_node *block)
{
    (void)ctx;
    if (rule)
        rule->c = block;
    return rule;
}

ast_node *front_stmt(front_ctx *ctx, ast_loc loc, ast_op op, ast_node *a, ast_node *b, ast_node *c)
{
    ast_node *n = front_node(ctx, AST_STMT, loc, NULL);
    if (n) {
        n->op = op;
        n->a = a;
        n->b = b;
        n->c = c;
    }
    return n;
}

ast_node *front_place(front_ctx *ctx, ast_loc loc, ast_op op, ast_node *what, ast_node *where,
                      ast_node *value, bool near)
{
    ast_node *n = front_stmt(ctx, loc, op, what, where, value);
    if (n)
        n->ival = near;
    return n;
}

ast_node *front_bad_word(front_ctx *ctx, ast_op op, const char *word, ast_loc loc)
{
    const char *form = op == AST_ST_FLIP        ? "flip X to FACE"
                       : op == AST_ST_MOVE      ? "move UNIT to SQUARE"
                       : op == AST_ST_DISEMBARK ? "disembark UNIT to SQUARE"
                       : op == AST_ST_PLACE     ? "place X at PLACE (or near SQUARE)"
                                                : "remove X at PLACE (or near SQUARE)";
    return reject(ctx, E_SYNTAX, loc, "unexpected identifier '%s': write '%s'", word ? word : "",
                  form);
}

ast_node *front_take_all(front_ctx *ctx, ast_loc loc, ast_node *unit, ast_node *marker)
{
    ast_node *n = front_stmt(ctx, loc, AST_ST_TAKE, unit, marker, NULL);
    if (n)
        n->ival = 1;
    return n;
}

ast_node *front_set_stmt(front_ctx *ctx, ast_loc loc, ast_node *target, ast_node *value)
{
    if (target && target->kind != AST_FIELD)
        return reject(ctx, E_SYNTAX, target->loc,
                      "'set' changes a value of a unit: write 'set UNIT.VALUE = EXPR;'");
    return front_stmt(ctx, loc, AST_ST_SET, target, value, NULL);
}

ast_node *front_raise(front_ctx *ctx, ast_loc loc, const char *event, ast_vec args)
{
    ast_node *n = front_items(ctx, AST_STMT, loc, event, args);
    if (n)
        n->op = AST_ST_RAISE;
    return n;
}

ast_node *front_choose(front_ctx *ctx, ast_loc loc, const char *name, const char *var,
                       ast_node *list, ast_node *side, const char *question)
{
    ast_node *n = front_stmt(ctx, loc, AST_ST_CHOOSE, list, side, NULL);
    if (n) {
        n->name = name;
        n->name2 = var;
        n->title = question;
    }
    return n;
}

ast_node *front_if_stmt(front_ctx *ctx, ast_loc loc, ast_node *cond, ast_node *then_block,
                        ast_node *else_part)
{
    ast_node *n = front_if(ctx, loc, cond, then_block, else_part);
    if (n)
        n->op = AST_ST_IF;
    return n;
}

ast_node *front_for(front_ctx *ctx, ast_loc loc, const char *var, ast_node *coll, ast_node *block)
{
    ast_node *n = front_stmt(ctx, loc, AST_ST_FOR, coll, block, NULL);
    if (n)
        n->name = var;
    return n;
}

ast_node *front_cite_stmt(front_ctx *ctx, ast_loc loc, ast_vec cites, ast_node *block)
{
    ast_node *n = front_stmt(ctx, loc, AST_ST_CITE, NULL, block, NULL);
    if (n)
        n->cites = cites;
    return n;
}

ast_node *front_text_stmt(front_ctx *ctx, ast_loc loc, ast_op op, const char *text)
{
    ast_node *n = front_stmt(ctx, loc, op, NULL, NULL, NULL);
    if (n)
        n->title = text;
    return n;
}

ast_node *front_filter(front_ctx *ctx, ast_loc loc, ast_node *head, ast_node *cond)
{
    if (head && !(head->kind == AST_BINARY && head->op == AST_OP_IN && head->a &&
                  head->a->kind == AST_NAME && !head->parens))
        return reject(ctx, E_AGGREGATE_HEAD, head->loc,
                      "a list filter reads '[NAME in LIST: "
                      "CONDITION]': expected a loop variable and 'in' before ':'");
    ast_node *n = front_node(ctx, AST_AGG, loc, head ? head->a->name : NULL);
    if (n) {
        n->op = AST_AGG_FILTER;
        n->a = head ? head->b : NULL;
        n->b = cond;
    }
    return n;
}

ast_node *front_map(front_ctx *ctx, ast_loc loc, ast_node *e, const char *var, ast_node *coll)
{
    ast_node *n = front_node(ctx, AST_AGG, loc, var);
    if (n) {
        n->op = AST_AGG_MAP;
        n->a = coll;
        n->b = e;
    }
    return n;
}

ast_node *front_test_do(front_ctx *ctx, ast_loc loc, ast_node *call, const char *code,
                        ast_loc code_loc)
{
    ast_node *x = front_expect(ctx, loc, call, code, code_loc);
    if (x)
        x->kind = AST_TEST_DO;
    return x;
}

ast_node *front_test_move(front_ctx *ctx, ast_loc loc, ast_node *unit, ast_node *path,
                          const char *code, ast_loc code_loc)
{
    int64_t c;
    if (!fails_code(ctx, code, code_loc, &c))
        return NULL;
    ast_node *n = front_node(ctx, AST_TEST_MOVE, loc, NULL);
    if (n) {
        n->a = unit;
        n->b = path;
        n->ival = c;
    }
    return n;
}

ast_node *front_require(front_ctx *ctx, ast_loc loc, ast_node *call, const char *text)
{
    ast_node *n = front_stmt(ctx, loc, AST_ST_REQUIRE, call, NULL, NULL);
    if (n)
        n->title = text;
    return n;
}

/* ---------------------------------------------------------------- depth bound */

/* The rule (language.md §4, errors.md E008): a child is one level below its parent, or k
 * levels when k >= 1 pairs of parentheses surround it; the left operand of a binary operator is
 * on its parent's level (plus its parentheses), so a chain `a + b + ... + z` of any length is
 * shallow. Such left operands are counted apart along each path: at most FRONT_MAX_CHAIN. The
 * resolver (chain_expr) and the compiler (binary, branch_each) go along chains in loops, so
 * their recursion follows the levels only; tests/repl/run.py (depth_limits) runs 10,000-term
 * chains through the whole pipeline, under ASan with the default stack in the sanitizer build. */
typedef struct walk_item {
    const ast_node *n;
    uint32_t depth, chain;
} walk_item;

typedef enum deep_kind {
    DEEP_NONE,
    DEEP_NESTING,
    DEEP_CHAIN
} deep_kind;

/* The level of child k of a node on level `parent`: one below, or one per pair of its
 * parentheses when it has any; a left operand gains only its parentheses. */
static uint32_t level_of(const ast_node *k, uint32_t parent, bool left_operand)
{
    uint32_t p = k->parens > FRONT_MAX_DEPTH ? FRONT_MAX_DEPTH + 1 : k->parens;
    if (left_operand)
        return parent + p;
    return parent + (p ? p : 1);
}

static bool push_item(walk_item **stack, size_t *len, size_t *cap, walk_item it)
{
    if (!MEM_GROW(*stack, *len, *cap))
        return false;
    (*stack)[(*len)++] = it;
    return true;
}

static void walk_vec(walk_item **stack, size_t *len, size_t *cap, const ast_vec *v,
                     const walk_item *parent, bool *oom)
{
    for (uint32_t i = 0; i < v->len && !*oom; i++) {
        const ast_node *k = v->items[i];
        if (k && !push_item(stack, len, cap,
                            (walk_item){ k, level_of(k, parent->depth, false), parent->chain }))
            *oom = true;
    }
}

uint32_t front_depth_bound(void)
{
    size_t size = stack_size();
    if (!size)
        return FRONT_MAX_DEPTH;
    size_t levels = size > STACK_MARGIN ? (size - STACK_MARGIN) / FRONT_LEVEL_BYTES : 0;
    return levels >= FRONT_MAX_DEPTH ? FRONT_MAX_DEPTH : levels < 16 ? 16 : (uint32_t)levels;
}

/* Finds a node beyond the bound below root (depth 1), without recursion: the tree is untrusted
 * until this passes. Returns that node and sets *why, or NULL when the tree is within bounds.
 * Sets ctx->oom if the work stack cannot grow. */
static const ast_node *too_deep(front_ctx *ctx, const ast_node *root, deep_kind *why)
{
    walk_item *stack = NULL;
    size_t len = 0, cap = 0;
    bool oom = false;
    const ast_node *found = NULL;
    *why = DEEP_NONE;
    if (!root)
        return NULL;
    if (!push_item(&stack, &len, &cap, (walk_item){ root, level_of(root, 0, false), 0 })) {
        front_oom(ctx);
        return NULL;
    }
    const uint32_t bound = front_depth_bound();
    while (len && !oom) {
        walk_item it = stack[--len];
        if (it.depth > bound || it.chain > FRONT_MAX_CHAIN) {
            found = it.n;
            *why = it.depth > bound ? DEEP_NESTING : DEEP_CHAIN;
            break;
        }
        const ast_node *n = it.n;
        const ast_node *kids[3] = { n->a, n->b, n->c };
        for (int i = 0; i < 3 && !oom; i++) {
            const ast_node *k = kids[i];
            if (!k)
                continue;
            bool left = i == 0 && n->kind == AST_BINARY;
            walk_item next = { k, level_of(k, it.depth, left), it.chain + (left ? 1 : 0) };
            if (!push_item(&stack, &len, &cap, next))
                oom = true;
        }
        walk_vec(&stack, &len, &cap, &n->list, &it, &oom);
        walk_vec(&stack, &len, &cap, &n->list2, &it, &oom);
        walk_vec(&stack, &len, &cap, &n->params, &it, &oom);
        walk_vec(&stack, &len, &cap, &n->cites, &it, &oom);
    }
    mem_free(stack);
    if (oom)
        front_oom(ctx);
    return found;
}

static void report_deep(front_ctx *ctx, const ast_node *deep, deep_kind why)
{
    if (why == DEEP_CHAIN)
        front_error(ctx, E_TOO_DEEP, deep->loc, "operator chain too long (more than %d operators)",
                    FRONT_MAX_CHAIN);
    else if (front_depth_bound() == FRONT_MAX_DEPTH)
        front_error(ctx, E_TOO_DEEP, deep->loc, "nesting too deep (more than %d levels)",
                    FRONT_MAX_DEPTH);
    else
        front_error(ctx, E_TOO_DEEP, deep->loc,
                    "nesting too deep (more than %u levels: what the native stack of %zu KiB "
                    "holds; %d with a larger `ulimit -s`)",
                    front_depth_bound(), stack_size() >> 10, FRONT_MAX_DEPTH);
}

/* Drops every declaration beyond the bound, with an E008 for each. */
static void bound_depth(front_ctx *ctx)
{
    ast_vec *decls = &ctx->file->decls;
    uint32_t kept = 0;
    deep_kind why;
    for (uint32_t i = 0; i < decls->len && !ctx->oom; i++) {
        const ast_node *deep = too_deep(ctx, decls->items[i], &why);
        if (deep)
            report_deep(ctx, deep, why);
        else
            decls->items[kept++] = decls->items[i];
    }
    if (!ctx->oom)
        decls->len = kept;
    if (ctx->expr && !ctx->oom) {
        const ast_node *deep = too_deep(ctx, ctx->expr, &why);
        if (deep) {
            report_deep(ctx, deep, why);
            ctx->expr = NULL;
        }
    }
}

/* ---------------------------------------------------------------- driver */

/* The scanner reads the text in place from a copy ending in the two NUL bytes flex wants. */
static ast_file *parse(const char *path, const char *text, size_t len, uint32_t file_id,
                       uint32_t first_line, diag_list *diags, int start, ast_node **expr)
{
    if (expr)
        *expr = NULL;
    if (!text)
        len = 0;
    if (len > FRONT_MAX_SOURCE) {
        diag_report(diags, E_SOURCE_TOO_LARGE, DIAG_ERROR, (ast_loc){ file_id, 1, 1, 1, 0 },
                    "source too large (%zu bytes; the limit is %d)", len, FRONT_MAX_SOURCE);
        return ast_file_new(path, "", 0, file_id);
    }
    ast_file *f = ast_file_new(path, text, len, file_id);
    front_ctx *ctx = mem_calloc(1, sizeof *ctx);
    char *buf = mem_malloc(len + 2);
    yyscan_t scanner = NULL;
    if (!f || !ctx || !buf || lex_yylex_init_extra(ctx, &scanner) != 0)
        goto oom;

    ctx->file = f;
    ctx->diags = diags;
    ctx->file_id = file_id;
    ctx->start_token = start;
    ctx->line = first_line;
    ctx->col = 1;
    ctx->spare_ok = true;
    if (len)
        memcpy(buf, text, len);
    buf[len] = buf[len + 1] = '\0';
    /* a UTF-8 byte-order mark at the very start of a file (editors on Windows write one) is
     * read as blanks: it takes its 3 byte columns of line 1, as any bytes do (language.md §1) */
    if (start == TOK_START_FILE && len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        memset(buf, ' ', 3);
    if (!lex_yy_scan_buffer(buf, len + 2, scanner) || ctx->oom)
        goto oom;

    front_yyparse(scanner, ctx);
    mem_free(ctx->chains);
    ctx->chains = NULL;
    if (!ctx->oom)
        bound_depth(ctx);
    if (ctx->oom)
        goto oom;
    if (expr)
        *expr = ctx->errors ? NULL : ctx->expr;
    lex_yylex_destroy(scanner);
    mem_free(buf);
    mem_free(ctx);
    return f;

oom:
    if (scanner)
        lex_yylex_destroy(scanner);
    mem_free(buf);
    if (ctx)
        mem_free(ctx->chains);
    mem_free(ctx);
    ast_file_free(f);
    return NULL;
}

ast_file *front_parse_file(const char *path, const char *text, size_t len, uint32_t file_id,
                           diag_list *diags)
{
    return parse(path, text, len, file_id, 1, diags, TOK_START_FILE, NULL);
}

ast_file *front_reparse(const ast_file *f)
{
    diag_list dl;
    diag_list_init(&dl, NULL);
    ast_file *g = front_parse_file(f->path, f->text, f->text_len, f->file_id, &dl);
    bool clean = dl.len == 0;
    diag_list_clear(&dl);
    if (g && !clean) {
        ast_file_free(g);
        g = NULL;
    }
    return g;
}

ast_file *front_parse_expr(const char *where, const char *text, size_t len, uint32_t file_id,
                           diag_list *diags, ast_node **expr)
{
    return front_parse_expr_at(where, text, len, file_id, 1, diags, expr);
}

ast_file *front_parse_expr_at(const char *where, const char *text, size_t len, uint32_t file_id,
                              uint32_t line, diag_list *diags, ast_node **expr)
{
    ast_node *e = NULL;
    ast_file *f = parse(where, text, len, file_id, line ? line : 1, diags, TOK_START_EXPR, &e);
    if (expr)
        *expr = f ? e : NULL;
    return f;
}
