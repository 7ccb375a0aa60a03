/* build.h — what the scanner (lexer.l), the parser (parser.y) and the driver (front.c) share.
 *
 * The parse context front_ctx (one per parse: no global state), the error reporter enforcing
 * FRONT_MAX_ERRORS, and the AST builders grammar actions call. The builders live in front.c;
 * they allocate in the file's arena and check shapes, never look names up or do I/O. Node
 * locations follow ast.h: a declaration's name span, an expression's whole span. */
#ifndef HON_GRAMMAR_BUILD_H
#define HON_GRAMMAR_BUILD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "diag.h"

/* How many open brackets the scanner remembers (for E011's note); deeper ones are counted. */
#define FRONT_MAX_OPEN 256

typedef struct front_ctx {
    ast_file *file;
    diag_list *diags;
    uint32_t file_id;
    int start_token; /* TOK_START_FILE / TOK_START_EXPR, sent once, then 0 */
    ast_node *expr;  /* the result of an expression parse */

    size_t errors;              /* errors this parse reported (the cap counts these) */
    bool stop;                  /* E009 was reported, or memory ran out: the scanner says EOF */
    bool oom;                   /* an allocation failed somewhere: the parse returns NULL */
    bool eof_seen;              /* the scanner reached the end of the text */
    bool unclosed_reported;     /* E011 was reported: the parser's own EOF error is redundant */
    bool string_cut;            /* an unterminated string (E002) took the rest of its line;
                                 syntax errors until the next ';' or '}' are its cascade */
    bool bad_last;              /* the last thing scanned was bytes no token starts with (E001):
                                 the parser's error at the end of file after them is their
                                 cascade (the line was nothing but them, say) */
    uint32_t bad_line, bad_col; /* where a builder last rejected a construct (0: never) */

    /* scanner position (next byte) and the last two tokens, for E012's caret */
    uint32_t line, col;
    uint32_t text_line, text_col; /* just after the last byte scanned that ends no line (0: none
                                     yet): where the end of a text without tokens is shown */
    ast_loc last, prev;
    const char *last_text; /* the lookahead token's bytes in the scanned text */
    size_t last_len;

    /* open brackets, innermost last */
    struct {
        char ch;
        ast_loc loc;
    } open[FRONT_MAX_OPEN];
    uint32_t nopen, deep;

    /* the binary nodes of the declaration being parsed that are no left operand yet, innermost
     * last, each with its chain: how many left operands lie along its left side (front_binary
     * bounds it by FRONT_MAX_CHAIN as the nodes are built; front_add_decl empties the list) */
    struct front_chain {
        const ast_node *n;
        uint32_t len;
    } * chains;
    size_t nchains, chains_cap;

    /* flex's setup allocations fall back on this when memory runs out (see lexer.l) */
    bool spare_ok; /* set once the scanner exists (its own allocation may fail) */
    bool spare_used[2];
    _Alignas(max_align_t) unsigned char spare[2][256];
} front_ctx;

/* Reports an error E<code> at loc; counts it against FRONT_MAX_ERRORS and, when the cap is
 * reached, reports E009 instead and sets ctx->stop. Returns the diag (or NULL if dropped). */
diag *front_error(front_ctx *ctx, int code, ast_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Marks the parse as out of memory: it stops, and the driver returns NULL. */
void front_oom(front_ctx *ctx);

/* ---- builders called by grammar actions; all tolerate NULL children (after an OOM) ---- */

/* A node of kind k at loc with the common fields set (name may be NULL). */
ast_node *front_node(front_ctx *ctx, ast_kind k, ast_loc loc, const char *name);
/* Returns v with n appended (OOM: marks the context, returns v unchanged). */
ast_vec front_push(front_ctx *ctx, ast_vec v, ast_node *n);
/* A vector holding just n. */
ast_vec front_vec1(front_ctx *ctx, ast_node *n);
/* Appends a declaration spanning `span` to the file, unless a builder rejected part of it
 * (then it holds a NULL where a node belongs, and later stages must not see it). */
void front_add_decl(front_ctx *ctx, ast_node *decl, ast_loc span);

/* Expressions. */
ast_node *front_int(front_ctx *ctx, ast_loc loc, int64_t v);
ast_node *front_bool(front_ctx *ctx, ast_loc loc, bool v);
ast_node *front_unary(front_ctx *ctx, ast_loc loc, ast_op op, ast_node *a); /* folds -INT */
ast_node *front_binary(front_ctx *ctx, ast_loc loc, ast_op op, ast_node *a, ast_node *b);
/* `( e )`: returns e with one more pair of parentheses counted (each pair is a nesting level). */
ast_node *front_paren(ast_node *e);
ast_node *front_field(front_ctx *ctx, ast_loc loc, ast_node *base, const char *field);
ast_node *front_call(front_ctx *ctx, ast_loc loc, const char *callee, ast_vec args);
ast_node *front_index(front_ctx *ctx, ast_loc loc, ast_node *base, ast_vec keys);
/* `if c then t else e` in an expression; front_if_stmt makes the statement. */
ast_node *front_if(front_ctx *ctx, ast_loc loc, ast_node *c, ast_node *t, ast_node *e);
/* `let NAME = v; body` in an expression; with body NULL, the let of a rule head or a block
 * (op AST_ST_LET), which binds until the end of its rule or block. */
ast_node *front_let(front_ctx *ctx, ast_loc loc, const char *name, ast_node *v, ast_node *body);
/* Two adjacent string literals as one text: a, one space, b, in the file's arena (language.md
 * §1). Returns a when memory runs out (and marks the context). */
const char *front_join(front_ctx *ctx, const char *a, const char *b);
ast_node *front_items(front_ctx *ctx, ast_kind k, ast_loc loc, const char *name, ast_vec items);
/* A node with a name and one child: AST_FIELD_INIT, AST_COUNTER_ENTRY, AST_FIELD. */
ast_node *front_named(front_ctx *ctx, ast_kind k, ast_loc loc, const char *name, ast_node *a);
/* `op(head: body)` where head must be `NAME in LIST` (E014 otherwise). */
ast_node *front_agg(front_ctx *ctx, ast_loc loc, ast_op op, ast_node *head, ast_node *body);
ast_node *front_roll(front_ctx *ctx, ast_loc loc, ast_node *count);
/* `@C4`: text is the coordinate after the `@`; a column of more than 3 letters, a row 0, a
 * row with a leading zero or above 99999 is E019. */
ast_node *front_square(front_ctx *ctx, ast_loc loc, const char *text);

/* Types. */
ast_node *front_type_name(front_ctx *ctx, ast_loc loc, const char *name);
ast_node *front_type_of(front_ctx *ctx, ast_loc loc, ast_kind k, ast_node *elem);
/* `NAME<T>` for a NAME other than set and list: E018 at NAME; returns NULL. */
ast_node *front_bad_generic(front_ctx *ctx, ast_loc loc, const char *name);

/* Declarations. */
ast_node *front_param(front_ctx *ctx, ast_loc loc, const char *name, ast_node *type, bool floor);
/* `kind NAME [: int] ["doc"];` and the other vocabulary declarations (cat: AST_VOCAB_*). */
ast_node *front_vocab(front_ctx *ctx, ast_loc loc, ast_op cat, const char *name, bool carries_int,
                      const char *doc);
/* `terrain NAME "doc" colour "COLOUR";` (language.md §5.1): a vocabulary declaration whose
 * member shows in pictures in COLOUR (kept in the node's name2). `word` (at word_loc) is the
 * name read before COLOUR: anything but `colour` is E010. E017 at colour_loc for a word other
 * than terrain and side_feature, or a COLOUR that is neither `#rrggbb` nor a name of letters
 * (an SVG colour name). Returns NULL on an error. */
ast_node *front_vocab_colour(front_ctx *ctx, ast_loc loc, ast_op cat, const char *name,
                             const char *doc, ast_loc word_loc, const char *word,
                             ast_loc colour_loc, const char *colour);

/* `phase NAME ["doc"] once;`: a phase played once, before turn 1's other phases (name2 "once",
 * language.md §6.5). Another word (word_loc, word), or a word after another vocabulary name,
 * is E010 at word_loc, worded as the parser's own syntax errors; returns NULL then. */
ast_node *front_vocab_once(front_ctx *ctx, ast_loc loc, ast_loc word_loc, ast_op cat,
                           const char *name, const char *doc, const char *word);
/* `face NAME "doc" shows TERRAIN;`: a terrain element turned to this face shows terrain TERRAIN
 * on its squares (language.md §6.1; the resolver checks TERRAIN is a terrain, E100). The node's
 * `a` is an AST_NAME of TERRAIN at terrain_loc. A word other than `shows` (word_loc, word) is
 * E010, `shows` after another vocabulary name than a face E017; returns NULL then. */
ast_node *front_vocab_shows(front_ctx *ctx, ast_loc loc, ast_op cat, const char *name,
                            const char *doc, ast_loc word_loc, const char *word,
                            ast_loc terrain_loc, const char *terrain);
/* `: TYPE` after a vocabulary name, TYPE other than `int`: E017 at loc; returns NULL. */
ast_node *front_vocab_bad_type(front_ctx *ctx, ast_loc loc, ast_op cat, const char *type);
ast_node *front_doc_decl(front_ctx *ctx, ast_kind k, ast_loc loc, const char *name,
                         const char *doc);
ast_node *front_counter(front_ctx *ctx, ast_loc loc, const char *name, const char *title,
                        const char *kind, ast_vec items);
ast_node *front_counter_item(front_ctx *ctx, ast_loc loc, const char *name, ast_node *value);
ast_node *front_counter_list(front_ctx *ctx, ast_loc loc, const char *name, ast_vec entries);
/* `cite "ID" [source "S"] [example "E"]`: S, if written, is kept apart (in ref) for the
 * resolver to compare with the ID's declaration (dsl/cite.c). */
ast_node *front_cite(front_ctx *ctx, ast_loc loc, const char *id, const char *source,
                     const char *example);
/* `source "ID" [= "TEXT"];` (text NULL when not given). */
ast_node *front_source(front_ctx *ctx, ast_loc loc, const char *id, const char *text);
/* A table: result is either a single type (columns empty) or named columns (result NULL). */
ast_node *front_table(front_ctx *ctx, ast_loc loc, const char *name, ast_vec keys, ast_node *result,
                      ast_vec columns, ast_vec cites, ast_vec rows);
ast_node *front_row(front_ctx *ctx, ast_loc loc, ast_vec keys, ast_vec cells, ast_vec cites);
ast_node *front_fn(front_ctx *ctx, ast_loc loc, const char *name, ast_vec params, ast_node *result,
                   ast_node *body);
/* A query combining by op (AST_COMBINE_*); AST_OP_NONE (an unknown mode, already reported)
 * gives NULL. */
ast_node *front_query(front_ctx *ctx, ast_loc loc, const char *name, ast_vec params,
                      ast_node *result, ast_op op, const char *doc, ast_node *dflt);
/* The mode of `combine MODE` (an AST_COMBINE_* of combine_modes.h); for a MODE that is not
 * one, E015 at MODE and AST_OP_NONE. */
ast_op front_combine(front_ctx *ctx, ast_loc loc, const char *mode);
/* The rule's name is QUERY.RULE, given as its two parts; op is AST_EDIT_ADD or _REPLACE. */
ast_node *front_rule(front_ctx *ctx, ast_loc loc, const char *query, const char *rule,
                     int64_t priority, ast_vec cites, const char *doc, ast_vec lets, ast_node *when,
                     ast_node *answer);
ast_node *front_rule_as(ast_node *rule, ast_op edit);
ast_node *front_remove(front_ctx *ctx, ast_loc loc, const char *query, const char *rule);
ast_node *front_variant(front_ctx *ctx, ast_loc loc, const char *name, const char *doc,
                        ast_vec readings);
ast_node *front_reading(front_ctx *ctx, ast_loc loc, const char *name, const char *doc, bool dflt);
/* `edition NAME [extends P, ...] [uses M, ...] ["title"] ...` (parents and uses: AST_NAMEs). */
ast_node *front_edition(front_ctx *ctx, ast_loc loc, const char *name, ast_vec parents,
                        ast_vec uses, const char *title, ast_vec items);
/* `module NAME ["title"];` */
ast_node *front_module(front_ctx *ctx, ast_loc loc, const char *name, const char *title);
/* "QUERY.RULE" in the file's arena, from its two parts; NULL (reported) on OOM. */
const char *front_rule_name(front_ctx *ctx, const char *query, const char *rule);
/* `revise rule Q.R cites [when e] [unless e] [answer e];`: at least one clause (E010 at `end`,
 * the `;`, otherwise). */
ast_node *front_revise_rule(front_ctx *ctx, ast_loc loc, const char *query, const char *rule,
                            ast_vec cites, ast_node *when, ast_node *unless, ast_node *answer,
                            ast_loc end);
/* `revise table T[KEYS] [.COLUMN] = CELLS cites;` */
ast_node *front_revise_table(front_ctx *ctx, ast_loc loc, const char *table, ast_vec keys,
                             const char *column, ast_vec cells, ast_vec cites);
/* `revise fn ...`: fn is the AST_FN front_fn built of the rest. */
ast_node *front_revise_fn(front_ctx *ctx, ast_node *fn);
/* `revise counter C { items }` */
ast_node *front_revise_counter(front_ctx *ctx, ast_loc loc, const char *counter, ast_vec items);
/* `prefer E [for KIND NAME];` (kind NULL: for every conflict); what_loc spans NAME. */
ast_node *front_prefer(front_ctx *ctx, ast_loc loc, const char *edition, const char *kind,
                       const char *name, ast_loc what_loc);
ast_node *front_set_variant(front_ctx *ctx, ast_loc loc, const char *variant, const char *reading);
/* A test; its settings may hold at most one `board` (E020 for a second one), one `dice` and
 * one `choices` (E021). */
ast_node *front_test(front_ctx *ctx, ast_loc loc, const char *title, const char *edition,
                     ast_vec settings, ast_vec expects);
/* `expect e [fails CODE]`: CODE must read E followed by three digits (E016 otherwise). */
ast_node *front_expect(front_ctx *ctx, ast_loc loc, ast_node *e, const char *code,
                       ast_loc code_loc);
/* One `A under E` of `expect X == A under E, ...`: an AST_EXPECT whose a is A (NULL for the
 * first, whose A is in the comparison) and ref E (loc: E's span). */
ast_node *front_under(front_ctx *ctx, ast_loc loc, ast_node *answer, const char *edition);
/* `expect X == A under E, B under F, ...;` appended to the items of a test as one `expect X ==
 * A` per edition, each under its own; `first` is `X == A` (E010 at it when it is not a
 * comparison with `==`), `under` the first edition's item, `rest` the others'. */
ast_vec front_expect_under(front_ctx *ctx, ast_vec items, ast_node *first, ast_node *under,
                           ast_vec rest);

/* ---- events, statements and procedure tests (language.md §6) ---- */

/* `event NAME(params) [on MOMENT] ["doc"];` (moment: the node front_moment made, or NULL). */
ast_node *front_event(front_ctx *ctx, ast_loc loc, const char *name, ast_vec params,
                      ast_node *moment, const char *doc);
/* Makes `rule` (built by front_rule with no answer) a rule of an event, with its `do` block. */
ast_node *front_rule_do(front_ctx *ctx, ast_node *rule, ast_node *block);
/* A statement of kind op (AST_ST_*) with up to three operands (see ast.h). */
ast_node *front_stmt(front_ctx *ctx, ast_loc loc, ast_op op, ast_node *a, ast_node *b, ast_node *c);
/* `place X at P;`, `remove X at P;` and with `near` (near true) instead of `at`; `place X at SQ
 * value N;` gives value (the new element's or the interspace item's value N; NULL without). */
ast_node *front_place(front_ctx *ctx, ast_loc loc, ast_op op, ast_node *what, ast_node *where,
                      ast_node *value, bool near);
/* An identifier where a statement of op wants its word (`flip U to F`, `move U to SQ`,
 * `disembark U to SQ`, `place X at P`, `remove X at P`): E010 at the word, naming the
 * statement's form; returns NULL. */
ast_node *front_bad_word(front_ctx *ctx, ast_op op, const char *word, ast_loc loc);
/* `take U M all;` */
ast_node *front_take_all(front_ctx *ctx, ast_loc loc, ast_node *unit, ast_node *marker);
/* `set U.VALUE = e;`: the target must be a field `x.name` (E010 otherwise). */
ast_node *front_set_stmt(front_ctx *ctx, ast_loc loc, ast_node *target, ast_node *value);
ast_node *front_raise(front_ctx *ctx, ast_loc loc, const char *event, ast_vec args);
/* `let NAME = choose(VAR in LIST, by: SIDE) ["question"];` */
ast_node *front_choose(front_ctx *ctx, ast_loc loc, const char *name, const char *var,
                       ast_node *list, ast_node *side, const char *question);
/* `if c then { ... } [else ...]` in a block: an AST_IF of op AST_ST_IF. */
ast_node *front_if_stmt(front_ctx *ctx, ast_loc loc, ast_node *cond, ast_node *then_block,
                        ast_node *else_part);
ast_node *front_for(front_ctx *ctx, ast_loc loc, const char *var, ast_node *coll, ast_node *block);
/* `cite "ID" ... { ... }` in a block: an AST_STMT of op AST_ST_CITE, cites the cites, b the
 * block whose effects, notes and rolls cite those IDs instead of all of their rule's. */
ast_node *front_cite_stmt(front_ctx *ctx, ast_loc loc, ast_vec cites, ast_node *block);
/* `note "text";` and `fail "text";` */
ast_node *front_text_stmt(front_ctx *ctx, ast_loc loc, ast_op op, const char *text);
/* `[x in L: cond]`: head must read `NAME in LIST` (E014). */
ast_node *front_filter(front_ctx *ctx, ast_loc loc, ast_node *head, ast_node *cond);
/* `[e for x in L]`: an AST_AGG of op AST_AGG_MAP. */
ast_node *front_map(front_ctx *ctx, ast_loc loc, ast_node *e, const char *var, ast_node *coll);
/* `do EVENT(args) [fails CODE];` in a test (CODE as for expect: E016). */
ast_node *front_test_do(front_ctx *ctx, ast_loc loc, ast_node *call, const char *code,
                        ast_loc code_loc);
/* `move U along PATH [fails CODE];` in a test (CODE as for expect: E016). */
ast_node *front_test_move(front_ctx *ctx, ast_loc loc, ast_node *unit, ast_node *path,
                          const char *code, ast_loc code_loc);
/* `require QUERY(args) ["text"];`: an AST_STMT of op AST_ST_REQUIRE (a: the call). */
ast_node *front_require(front_ctx *ctx, ast_loc loc, ast_node *call, const char *text);

#endif
