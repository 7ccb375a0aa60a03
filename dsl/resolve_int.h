/* resolve_int.h — the resolver's private state, shared by its files in dsl/ and included by
 * nothing outside dsl/: the resolver context (rctx) with its locals, and the functions one
 * resolver file lends another, grouped by the file that defines them (resolve.c gives the pass
 * order). The name tables the passes fill are model_names.h's; the errors reported are the
 * E1xx codes of base/diag_codes.h (E_UNKNOWN_NAME...). */
#ifndef HON_RESOLVE_INT_H
#define HON_RESOLVE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model_names.h"
#include "resolve.h"

/* ---- resolver state ---- */

typedef struct local {
    const char *name;
    uint32_t type;
    int32_t slot;
} local;

typedef struct rctx {
    res_program *p;
    diag_list *d;
    bool oom;
    local *locals;
    size_t nlocals, locals_cap;
    uint32_t next_slot;     /* slots used by the body being resolved */
    uint32_t seq;           /* next rule order number */
    int32_t *edition_state; /* pass 4: 0 todo, 1 in progress, 2 done */
    ast_file *const *files; /* pass 4: the files, whose arenas hold revised rules' copies */
    size_t nfiles;
    size_t declared_tables; /* pass 4: the tables declared, before the editions' versions */
    bool defer;             /* pass 3: rules', fns' and defaults' bodies left for their first use
                   (res_resolve_as; body_rule, body_fn, body_query mark them deferred) */
    const ast_node *rule;   /* the rule whose clauses are being resolved, or NULL: what a cite
                               block's IDs are checked against (E173) */
} rctx;

/* Grows arr by one slot (MEM_GROW); on OOM reports it at loc and is false. */
#define PUSH(c, arr, len, cap, loc) (MEM_GROW(arr, len, cap) ? true : (res_oom(c, loc), false))

/* A type's name for a message, by value: two in one call's arguments do not clash. */
typedef struct tname {
    char s[160];
} tname;

/* A comparison with a context, for table_msort. */
typedef int (*sort_cmp)(const void *a, const void *b, const void *ctx);

/* ---- resolve.c: the context ---- */

/* Reports error `code` (an E1xx of diag_codes.h) at loc, with a printf-style message, into c->d. */
void res_err(rctx *c, int code, ast_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Reports E199 "out of memory while resolving" at loc, once per run, and sets c->oom. */
void res_oom(rctx *c, ast_loc loc);
/* Whether rule d's clauses suit its query (is_event: an event's rule has a `do` block, a
 * query's an answer); E_RULE_KIND reported when not. d's body must be there (res_body_ready). */
bool body_rule_kind(rctx *c, const ast_node *d, bool is_event);
/* Decodes the body of top-level declaration d when its tree left it in its image
 * (ast_body_ready, for the file of d among c->files); true when it is there, false (E199
 * reported) when memory runs out. Called before any read of a rule's or fn's body. */
bool res_body_ready(rctx *c, ast_node *d);

/* ---- scope.c: pass 1, names and scopes ---- */

/* Before pass 1: the modules of the files (p->modules, p->file_modules, p->base_module) from
 * their `module` lines, which come first in a file (E146 otherwise). */
void scope_modules(rctx *c, ast_file *const *files, size_t nfiles);
/* The id of the module called name (a borrowed string), -1 when none is declared. */
int32_t scope_module_named(const res_program *p, const char *name);

/* Pass 1 for one top-level declaration d: enters its name (and an enum's members, a
 * vocabulary declaration's member) into c->p's tables, with an id whose signature pass 2 fills. */
void scope_declare(rctx *c, ast_node *d);
/* After pass 1 for one top-level declaration d: a face's `shows TERRAIN` (language.md §6.1)
 * into its member's `shows`; a TERRAIN that is no terrain member is E100 at its name. */
void scope_face_shows(rctx *c, ast_node *d);
/* Adds name (borrowed from the AST or a static string) to *table as (kind, id) at loc. On a
 * clash reports E110 (`what` names the declaration) and returns NULL; NULL on OOM or a NULL
 * name. */
name_ent *scope_add_name(rctx *c, name_ent **table, const char *name, gkind kind, int32_t id,
                         ast_loc loc, const char *what);
/* Adds member name (borrowed) to enum eid; E111 (E110 for a vocabulary enum) on a duplicate.
 * Returns its index, or -1 after an error or on OOM. */
int32_t scope_add_member(rctx *c, uint32_t eid, const char *name, const char *doc, bool carries,
                         ast_loc loc);
/* Appends a new enum (decl NULL for a built-in) and interns its type; its id, -1 on OOM. */
int32_t scope_new_enum(rctx *c, const char *name, const char *doc, ast_node *decl);
/* The innermost local called name in the body being resolved (borrowed), or NULL. */
local *scope_find_local(rctx *c, const char *name);
/* Binds name (borrowed; NULL binds "") to a new slot of the given type; the slot, -1 on OOM. */
int32_t scope_push_local(rctx *c, const char *name, uint32_t type, ast_loc loc);
/* Starts a body: no locals in scope, slots counted from 0 (c->next_slot). */
void scope_begin_body(rctx *c);

/* ---- type.c: types, and pass 2: signatures ---- */

/* type_interned, reporting OOM at loc (T_ERROR then). */
uint32_t type_intern(rctx *c, res_tkind kind, uint32_t arg, ast_loc loc);
/* The kind of type t (RT_NONE for an id out of range) and its argument (the enum or record id,
 * or a set's or list's element type; 0 out of range). */
res_tkind type_kind(const res_program *p, uint32_t t);
uint32_t type_arg(const res_program *p, uint32_t t);
bool type_is_enum(const res_program *p, uint32_t t);
/* The name of type t (type_name), for a message. */
tname type_text(const res_program *p, uint32_t t);
/* The type set<elem>: E104 unless elem is an enum, E150 beyond RES_SET_MAX members; T_ERROR
 * after an error. */
uint32_t type_set_of(rctx *c, uint32_t elem, ast_loc loc);
/* The type of enum e's name written as a collection (`x in big`, `for x in big`): the set of
 * all its members, walked in declaration order. E150 at loc, saying that an enum named so is
 * limited to RES_SET_MAX members (it is walked as a set), when it has more; T_ERROR then. */
uint32_t type_enum_members(rctx *c, int32_t e, ast_loc loc);
/* The type a type expression (AST_TYPE_*) names; E101 and T_ERROR when none. */
uint32_t type_of(rctx *c, ast_node *t);
/* Resolves a parameter or field list into a new array (caller owns; NULL when empty or after
 * E199); E111 on a repeated name. */
res_field *type_params_of(rctx *c, const ast_vec *v);
/* Pass 2 for one top-level declaration d (records, fns, queries, events, variants; tables
 * through table_signature). */
void type_signature(rctx *c, ast_node *d);

/* ---- expr.c: pass 3, expressions ---- */

/* Resolves expression n (NULL: T_ERROR) expecting want (T_NONE: anything), annotates it and
 * returns its type; T_ERROR after reporting. expr_check also reports E104 on a mismatch. */
uint32_t expr_infer(rctx *c, ast_node *n, uint32_t want);
uint32_t expr_check(rctx *c, ast_node *n, uint32_t want);
/* Resolves the two sides of a comparison to one type (the side that needs context second). */
uint32_t expr_pair(rctx *c, ast_node *a, ast_node *b);
/* True when values of type t can be ordered (ints, members of one enum; T_ERROR too). */
bool expr_orderable(const res_program *p, uint32_t t);
/* If n names an enum (or variant) type and no local hides it, the enum id; else -1. */
int32_t expr_enum_named(rctx *c, const ast_node *n);
/* What a global of kind k is, for "`x` is ..., not a value" messages. */
const char *expr_gkind_text(gkind k);
/* Reports E103 for call n (`what` names the callee's kind, want its parameter count), resolves
 * the arguments anyway; returns T_ERROR. */
uint32_t expr_arity_error(rctx *c, ast_node *n, const char *what, size_t want);
/* Resolves n against want and folds it into *out (a table key or cell, a counter item). `?`
 * is accepted only when allow_absent (else E108). False after reporting, E125 when n is not a
 * constant. */
bool expr_fold(rctx *c, ast_node *n, uint32_t want, bool allow_absent, res_const *out);

/* ---- builtin.c: built-in functions and moments ---- */

/* Declares the names of the built-in functions (before pass 1); false on OOM. */
bool builtin_declare(rctx *c);
/* The index of the built-in function called name (NULL: none), or -1. */
int32_t builtin_find(const char *name);
/* Checks call n of built-in bi (a builtin_find index) and annotates it; returns its type. */
uint32_t builtin_call(rctx *c, ast_node *n, size_t bi);
/* Pass 3 for `event NAME(params) on MOMENT` (E163, E164); records p->moments. */
void builtin_event_body(rctx *c, ast_node *d);

/* ---- body.c: pass 3, bodies ---- */

/* Pass 3 for a counter: kind, side, size, abilities, markers and values into its unit. */
void body_counter(rctx *c, res_counter *rc);
/* Pass 3 for a fn's body; for a query, its result against its combine mode (E113) and its
 * default (E114). With c->defer, the fn's body and the default's expression are only marked
 * deferred (res_fn.deferred, res_query.dflt_deferred): body_default resolves the default. */
void body_fn(rctx *c, res_fn *f);
void body_query(rctx *c, res_query *q);
void body_default(rctx *c, res_query *q);
/* Creates the res_rule of AST_RULE d (edition: the declaring edition's id, -1 top level,
 * INT32_MAX for an edition that failed to declare) and resolves its clauses with the query's
 * parameters in scope (body_rule_clauses: with c->defer, the rule is only marked deferred).
 * Stores the rule id in d->an.sym (UINT32_MAX when the query is unknown). */
void body_rule(rctx *c, ast_node *d, int32_t edition);
void body_rule_clauses(rctx *c, uint32_t id);
/* Checks the arguments of `EVENT(args)` (an AST_CALL or a `raise` statement's list) against
 * the event's parameters and annotates n; returns the event id or -1 after reporting. */
int32_t body_raise_args(rctx *c, ast_node *n, ast_vec *args);

/* ---- table.c: tables ---- */

/* Pass 2 for table t (id): its keys, floor key, columns, and result type (the row record of a
 * multi-column table, appended to the records). */
void table_signature(rctx *c, res_table *t, int32_t id);
/* Pass 3 for table t: its rows (E121 for a wrong shape), sorted by key, duplicates reported
 * (E123), the dense index of an enum-keyed table with every row given (E120). */
void table_body(rctx *c, res_table *t);
/* The index of the row of table t whose keys are keys (t->nkeys of them), or -1. */
int32_t table_find_row(const res_table *t, const res_const *keys);
/* Writes the key members or numbers of a row ("clear", "A, map_b") into buf (cap bytes). */
void table_keys_text(const res_program *p, const res_table *t, const int64_t *keys, char *buf,
                     size_t cap);
/* Sorts n items of size bytes at base, stably, by cmp (given ctx); false on OOM. */
bool table_msort(void *base, size_t n, size_t size, sort_cmp cmp, const void *ctx);

/* ---- edition.c: editions and their views ---- */

/* The id of the edition called name; E141 at loc and -1 when none. */
int32_t edition_named(rctx *c, const char *name, ast_loc loc);
/* Resolves `set variant V = R` (s): the variant id, its reading in *reading; -1 after E100 or
 * E131. */
int32_t edition_set_variant(rctx *c, ast_node *s, int32_t *reading);
/* Pass 3 for edition d: its parents (E141, E110 for one named twice), the modules it uses
 * (E146) and its rules (body_rule). */
void edition_body(rctx *c, ast_node *d);
/* Pass 4: the top-level rule sets (p->base), then each edition's view: its parents' revisions
 * merged (E142, E144), its own items (revise.c), its rule sets and versions. The files (in
 * load order) hold the arenas revised rules are copied into. */
void edition_views(rctx *c, ast_file *const *files, size_t nfiles);
/* Edition e's entry for key (borrowed), or NULL when it leaves the thing as declared. */
res_rev *edition_rev(const res_edition *e, const char *key);
/* Edition ed's entry for key, created or reset as its own (origin ed, no rival), of kind kind
 * made by node. Takes key (a new string; NULL reports E199). The caller fills the version.
 * NULL on OOM. */
res_rev *edition_rev_put(rctx *c, int32_t ed, char *key, size_t decl_len, rev_kind kind,
                         const ast_node *node);

/* ---- revise.c: an edition's own items ---- */

/* Applies item `it` of edition ed to its view (language.md §3.8): a rule added (E110 when it
 * exists), replaced, removed or revised, a table cell, a fn, a counter's values, a variant's
 * reading. Something that does not exist in the edition is E140; a revision that changes
 * nothing is the warning E145. `prefer` items are the merge's (edition.c). */
void revise_item(rctx *c, int32_t ed, ast_node *it);
/* Edition ed's versions of the tables (table_of) and counters (units) it revises. */
void revise_versions(rctx *c, int32_t ed);

/* ---- test.c: tests ---- */

/* Pass 3 for `test` block d: appends its res_test. */
void test_body(rctx *c, ast_node *d);

#endif
