/* model.h — the resolved program: what the resolver (resolve.h) builds from the loaded files
 * and the compiler, VM, board and API (interp/) read: types, enums, records, tables, fns,
 * queries, rules, variants, modules, editions with their rule sets and revisions, tests, and the
 * look-ups by name.
 *
 * The program borrows the files' AST nodes (annotated by the resolver, ast_node.an). Accessors
 * are in model.c; type interning and names in type.c; names of built-ins and moments in
 * builtin.c. The name tables behind the look-ups are private to dsl/ (resolve_int.h). */
#ifndef HON_MODEL_H
#define HON_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "units.h"

/* ---- types ----
 * Types are interned: a type is a uint32_t index into res_program.types, equal types have
 * equal ids. The first ids are fixed. */
enum {
    T_NONE = 0, /* "no type expected" / untyped */
    T_INT,
    T_BOOL,
    T_VERDICT,
    T_UNIT,
    T_ERROR,   /* an expression that already had an error: silences follow-on errors */
    T_SQUARE,  /* a square of the board (language.md §5.2) */
    T_SIDE,    /* `square_side`: a side between two squares, or a square and the edge */
    T_ELEMENT, /* a terrain element of the loaded board */
    T_FIRST_FREE
};

typedef enum res_tkind {
    RT_NONE,
    RT_INT,
    RT_BOOL,
    RT_VERDICT,
    RT_UNIT,
    RT_ERROR,
    RT_SQUARE,
    RT_SIDE,
    RT_ELEMENT,
    RT_ENUM,  /* arg: enum id */
    RT_SET,   /* arg: element type (an enum type) */
    RT_LIST,  /* arg: element type */
    RT_RECORD /* arg: record id */
} res_tkind;

typedef struct res_type {
    res_tkind kind;
    uint32_t arg;
} res_type;

/* The built-in enums have fixed ids, in this order. `direction` has fixed members (north,
 * northeast, east, southeast, south, southwest, west, northwest: the order of geo_dir); the
 * others are filled by vocabulary declarations. */
enum {
    E_KIND,
    E_SIDE,
    E_ABILITY,
    E_MARKER,
    E_TOKEN,
    E_TERRAIN,
    E_SQUARE_FEATURE,
    E_SIDE_FEATURE,
    E_INTERSPACE_ITEM,
    E_DIRECTION,
    E_PHASE, /* filled by `phase` declarations, in turn order (language.md §6.1) */
    E_FACE,  /* `face` declarations, after the built-in member `none` (RES_FACE_NONE) */
    E_FIRST_FREE
};

/* The face every unit and terrain element shows until a rule flips it: member 0 of `face`. */
#define RES_FACE_NONE 0

/* The moments at which the engine itself raises an event (language.md §6.1, `event ... on
 * MOMENT`): the rules say which of their events, if any, is raised at each; C knows no event
 * name. The arguments each moment passes are listed in builtin.c (moment_params). */
typedef enum res_moment {
    RES_ON_GIVE,        /* (unit, marker): once per marker a `give` adds */
    RES_ON_TAKE,        /* (unit, marker): once per marker a `take` removes */
    RES_ON_DESTROY,     /* (unit[, list<square>]): `destroy` took a unit off the board; the
                           squares it stood on (its carrier's when embarked), for the rules
                           that ask where it was */
    RES_ON_ENTER,       /* (unit, square): a unit entered a square (`move`, `disembark`, each
                             square of a walk) */
    RES_ON_WALK_END,    /* (unit, list<square>): a walk (the REPL's `move`) has ended */
    RES_ON_PHASE_START, /* (phase): `next` started a phase */
    RES_ON_PHASE_END,   /* (phase): `next` ended a phase */
    RES_ON_TURN_START,  /* (int): `next` started a turn */
    RES_ON_WALK,        /* (unit, list<square>): the REPL's `move` asks for a Movement Action along
                             the squares (the rules walk the unit: no bare walk) */
    RES_MOMENT_COUNT
} res_moment;

/* The built-in record `step` (one step of a traced line, language.md §5.3) is record 0; its
 * fields, in this order: */
enum {
    R_STEP = 0
};
enum {
    STEP_SQUARE,
    STEP_FROM,
    STEP_CORNER,
    STEP_SIDE,
    STEP_LEFT,
    STEP_RIGHT,
    STEP_INDEX,
    STEP_NFIELDS
};

/* Square values (T_SQUARE) do not depend on a board: the column x (A = 0) in the low 32 bits,
 * the row y (row 1 = 0) in the high 32 bits. Side values are board side indexes (geo.h),
 * elements board element ids. */
#define RES_SQUARE(x, y) ((int64_t)((uint64_t)(uint32_t)(y) << 32 | (uint32_t)(x)))
#define RES_SQUARE_X(v)  ((int64_t)(uint32_t)((uint64_t)(v)&0xffffffffu))
#define RES_SQUARE_Y(v)  ((int64_t)(uint32_t)((uint64_t)(v) >> 32))

#define RES_SET_MAX        64 /* at most this many members in an enum that forms sets */
#define RES_MAX_ITEMS      255 /* parameters, record fields, table keys and columns per declaration */
#define RES_MAX_UNIT_BYTES ((size_t)256 << 20) /* the unit pool: counters x per-unit arrays */

typedef struct res_member {
    const char *name;
    const char *doc;  /* may be NULL */
    bool carries_int; /* `ability x: int` */
    bool once;        /* `phase x once;`: played once, before turn 1's other phases */
    ast_loc loc;
    const char *colour; /* `terrain x "doc" colour "#rrggbb"` (terrain, side_feature): the
                           colour pictures show it in, or NULL */
    int32_t shows;      /* `face x "doc" shows t` (a face): the terrain member t a terrain element
                           turned to it shows on its squares (builtin terrain(sq)); else -1 */
} res_member;

typedef struct res_enum {
    const char *name;
    const char *doc;
    res_member *members;
    size_t len, cap;
    uint32_t type;   /* its type id */
    int32_t variant; /* the variant whose readings these are, or -1 */
    ast_node *decl;  /* NULL for built-ins */
    uint32_t id;     /* its index in the program's enums */
    /* the program's members by name (res_names.members: each name's hits, enum and index),
     * borrowed; model_find_member looks a member up there, not in a table of each enum's
     * own (137 tables made at each start: bench.md §9) */
    struct member_ent *const *by_name;
} res_enum;

typedef struct res_field {
    const char *name;
    uint32_t type;
    ast_loc loc;
} res_field;

typedef struct res_record {
    const char *name;
    res_field *fields;
    size_t nfields;
    uint32_t type;
    int32_t table; /* for the row type of a multi-column table: its id; else -1 */
    ast_node *decl;
} res_record;

/* A `value` declaration: an integer slot of units. */
typedef struct res_slot {
    const char *name;
    const char *doc;
    ast_node *decl;
} res_slot;

typedef struct res_counter {
    const char *name;
    ast_node *decl;
    int32_t unit; /* its id in res_program.units */
} res_counter;

/* A constant: a table key or cell. v holds the int, the bool (0/1), the enum member index,
 * the set bits, or the verdict (0 forbid, 1 permit). given is false for a `?` cell. */
typedef struct res_const {
    uint32_t type;
    bool given;
    int64_t v;
} res_const;

typedef struct res_row {
    res_const *keys;  /* nkeys */
    res_const *cells; /* ncols */
    ast_node *node;   /* the AST_ROW: its span and its own citations */
    /* in an edition's version of a table (res_table.version_of): the `revise table` item that
     * last changed a cell of this row, and its edition; NULL and -1 as declared */
    ast_node *revision;
    int32_t edition;
} res_row;

typedef struct res_key {
    const char *name;
    uint32_t type; /* an enum type or T_INT */
    bool floor;
} res_key;

typedef struct res_table {
    const char *name;
    ast_node *decl;
    res_key *keys;
    uint32_t nkeys;
    res_field *cols; /* ncols columns; one unnamed column when `single` */
    uint32_t ncols;
    bool single;     /* `-> T`: a lookup gives the cell itself */
    uint32_t result; /* type of a whole lookup: the cell type, or the row record type */
    int32_t record;  /* row record id when !single, else -1 */
    res_row *rows;   /* sorted by keys */
    size_t nrows;
    int32_t floor_key; /* index of the `floor` key, or -1 */
    int32_t *dense;    /* all keys enums: row index by mixed-radix key, or NULL */
    size_t ndense;
    int32_t module;     /* the module of the file that declares it */
    int32_t version_of; /* -1 as declared; else an edition's version of that declared table,
                           borrowing its keys and columns (res_edition.table_of) */
} res_table;

typedef struct res_fn {
    const char *name;
    ast_node *decl; /* the AST_FN, or the AST_REVISE of a `revise fn` */
    res_field *params;
    uint32_t nparams;
    uint32_t result;
    uint32_t nlocals;   /* params + lets + loop variables of the body */
    int32_t module;     /* the module of the file its text is in */
    int32_t edition;    /* the edition whose `revise fn` it is, -1 as declared */
    int32_t version_of; /* -1 as declared; else the declared fn it revises (res_edition.fn_of) */
    bool deferred;      /* its body is not resolved yet (res_resolve_as: res_fn_ready does it) */
} res_fn;

typedef struct res_query {
    const char *name;
    ast_node *decl;
    res_field *params;
    uint32_t nparams;
    uint32_t result;
    ast_op mode;    /* AST_COMBINE_* */
    ast_node *dflt; /* default expression, or NULL */
    uint32_t dflt_nlocals;
    bool dflt_deferred; /* dflt is not resolved yet (res_resolve_as: res_default_ready does it) */
    /* An event (language.md §6) is kept with the queries, so that its rules get rule sets,
     * editions, listings and bytecode like theirs; it has no result and no mode. */
    bool is_event;
    int32_t moment; /* the res_moment it is raised at, or -1 */
} res_query;

typedef struct res_rule {
    const char *name;       /* "query.rule" */
    const char *short_name; /* "rule" */
    uint32_t query;
    ast_node *decl; /* the AST_RULE: lets, when, answer, cites, doc */
    int64_t priority;
    uint32_t nlocals; /* query params + lets + loop variables */
    int32_t edition;  /* edition that declares it, -1 for a top-level rule */
    bool replaces;    /* `replace rule` */
    uint32_t seq;     /* position in rule order (a replacement takes the replaced one's) */
    int32_t module;   /* the module of the file its text is in (a revision's: the revision's) */
    /* a `revise rule`'s version: the AST_REVISE item and the rule it revises; NULL and -1 for a
     * rule as written (top level or in an edition) */
    const ast_node *revision;
    int32_t revises;
    bool deferred; /* its lets, guard and answer or block are not resolved yet (res_resolve_as:
                      res_rule_ready does it; nlocals is 0 until then) */
} res_rule;

typedef struct res_variant {
    const char *name;
    const char *doc;
    uint32_t enum_id; /* the enum of its readings */
    uint32_t dflt;    /* the default reading (member index) */
    ast_node *decl;
} res_variant;

/* The rules of one query under one edition, in evaluation order. */
typedef struct res_ruleset {
    uint32_t *rules;
    size_t len, cap;
} res_ruleset;

/* A module: what one book or expansion file contributes (language.md §3.8). Module 0 is the
 * unnamed module of the files without a `module` line; every edition uses it. */
typedef struct res_module {
    const char *name;  /* NULL for the unnamed module */
    const char *title; /* may be NULL */
    ast_node *decl;    /* its first `module` line; NULL for the unnamed module */
} res_module;

/* The module of one loaded file. */
typedef struct res_file_module {
    uint32_t file; /* its diagnostics id (ast_loc.file) */
    int32_t module;
} res_file_module;

struct res_rev; /* an edition's revisions, keyed by what they revise (model_names.h) */

/* An edition: the program as it sees it is every declaration, the rules of the modules it
 * uses, and the revisions of its parents and its own (language.md §3.8). */
typedef struct res_edition {
    const char *name;
    const char *title;
    int32_t parent;   /* its first parent, -1 for a root */
    int32_t *parents; /* nparents, in the order written */
    uint32_t nparents;
    ast_node *decl;
    int32_t module; /* the module of the file that declares it */
    bool *uses;     /* per module (nmodules): whether its rules are in the edition */
    /* per module (nmodules): whether its clauses are in play (model_cite_in_play): those it
     * uses, and the module of the file declaring it or an edition it extends (an errata
     * sheet's edition revises with citations of its own file's module) */
    bool *books;
    bool *ancestors;   /* per edition (neditions): whether it extends it, at any remove */
    res_ruleset *sets; /* one per query (nqueries): its rules in evaluation order */
    /* Owned, not NULL until the sets are first asked: the rule ids the sets are made of, in
     * rule order (nset_rules); model_rules_of then sorts them into the sets and frees them. */
    uint32_t *set_rules;
    size_t nset_rules;
    int32_t *variant_set; /* one per variant: reading set by this edition or an ancestor, -1 */
    /* the version of each declared fn and table it calls and reads (nfn_of, ntable_of ids);
     * NULL when it revises none: every one as declared */
    int32_t *fn_of;
    size_t nfn_of;
    int32_t *table_of;
    size_t ntable_of;
    unit_pool *units;     /* owned: its counters when it revises one, else NULL (the program's) */
    struct res_rev *revs; /* owned: what it and its parents revise, with who revised it */
} res_edition;

typedef struct res_expect {
    ast_node *node; /* the AST_EXPECT */
    uint32_t nlocals;
    int32_t edition; /* `expect X == A under E`: E; -1: the test's */
} res_expect;

typedef struct res_test {
    const char *title;
    const char *board; /* `board "PATH"`: the path as written (relative to the file), or NULL */
    ast_node *decl;
    uint32_t file;        /* ast_loc.file of the test */
    int32_t edition;      /* -1: run under the vm's active edition */
    int32_t *variant_set; /* one per variant: reading to select, or -1 */
    res_expect *expects;  /* its items in order: AST_EXPECT, AST_TEST_DO, _ADVANCE, _MOVE */
    size_t nexpects;
    uint8_t *dice; /* `dice [..]`: the faces, 1..6 (NULL with ndice 0: none given) */
    size_t ndice;
    bool has_dice;            /* a `dice` setting was given (the dice are then scripted) */
    ast_node *choices;        /* the `choices [..]` setting (AST_TEST_CHOICES), or NULL */
    uint32_t choices_nlocals; /* local slots the most demanding choice expression uses */
    bool plays;               /* it has `do`, `advance` or `move` items */
} res_test;

/* What an annotated name, call or field refers to (ast_annot.sym_kind; ast_annot.sym). */
typedef enum res_sym_kind {
    SYM_NONE,
    SYM_LOCAL,     /* an.slot */
    SYM_MEMBER,    /* sym: member index; an.type: its enum type */
    SYM_COUNTER,   /* sym: unit id */
    SYM_ENUM_TYPE, /* an enum named as a collection (aggregates); sym: enum id */
    SYM_FN,        /* sym: fn id */
    SYM_QUERY,     /* sym: query id */
    SYM_BUILTIN,   /* sym: RES_BI_* */
    SYM_TABLE,     /* sym: table id (AST_INDEX) */
    SYM_FIELD,     /* sym: record field index (AST_FIELD) */
    SYM_UNIT_KIND,
    SYM_UNIT_SIDE,
    SYM_UNIT_SIZE,
    SYM_UNIT_VALUE, /* sym: value slot */
    SYM_VARIANT,    /* sym: variant id (AST_VARIANT_REF) */
    SYM_UNIT_REF,   /* `$name`: a scenario unit, looked up when evaluated (AST_UNIT_REF) */
    SYM_EVENT       /* sym: event id (a query id): `raise`, a test's `do` (AST_CALL) */
} res_sym_kind;

/* The built-in functions, RES_BI_MIN ... RES_BI_NTH, in the order of their list builtins.h
 * (which says what each takes, gives and compiles to). */
typedef enum res_builtin {
#define BUILTIN_OP(id, ...)    RES_BI_##id,
#define BUILTIN_BOARD(id, ...) RES_BI_##id,
#include "builtins.h"
    RES_BI_COUNT
} res_builtin;

/* The name of built-in function b (a RES_BI_* id): "square_of", a static string, for
 * listings and completion; "?" for an id that names none. */
const char *builtin_name(uint32_t b);

struct res_names; /* the name tables (uthash), private to dsl/ (resolve_int.h) */

typedef struct res_program {
    res_type *types;
    size_t ntypes, types_cap;
    res_enum *enums;
    size_t nenums, enums_cap;
    res_record *records;
    size_t nrecords, records_cap;
    res_slot *slots;
    size_t nslots, slots_cap;
    res_counter *counters;
    size_t ncounters, counters_cap;
    res_table *tables;
    size_t ntables, tables_cap;
    res_fn *fns;
    size_t nfns, fns_cap;
    res_query *queries;
    size_t nqueries, queries_cap;
    res_rule *rules;
    size_t nrules, rules_cap;
    res_variant *variants;
    size_t nvariants, variants_cap;
    res_edition *editions;
    size_t neditions, editions_cap;
    res_test *tests;
    size_t ntests, tests_cap;
    res_module *modules; /* modules[0] is the unnamed module */
    size_t nmodules, modules_cap;
    res_file_module *file_modules; /* the files that have a `module` line */
    size_t nfile_modules, file_modules_cap;
    int32_t *module_by_file; /* the same by file id, nmodule_by_file of them (NULL: none made) */
    size_t nmodule_by_file;
    int32_t base_module;  /* the module of the first file loaded: the game the others extend */
    res_ruleset *base;    /* per query: the top-level rules (no edition active) */
    uint32_t *base_rules; /* owned: as an edition's set_rules, for base */
    size_t nbase_rules;
    int32_t default_edition;           /* -1 when none */
    int32_t moments[RES_MOMENT_COUNT]; /* the event raised at each moment, or -1 */
    unit_pool *units;                  /* owned: one unit per counter */
    struct res_names *names;           /* owned */
    /* The files resolved (borrowed: they outlive the program), whose images hold the bodies
     * a lazily read tree left undecoded (ast_image.h) until a deferred body is resolved. */
    struct ast_file *const *files;
    size_t nfiles;
    /* Owned; not NULL when the citations are not resolved yet: a set resolved with its bodies
     * deferred (res_resolve_as: its build record says it reported nothing) resolves them
     * when a citation's source is first asked (model_cite_source), not at load. */
    struct res_cites_later *cites_later;
} res_program;

/* Whether the deferred citations of a program have been resolved (model_cite_source). */
typedef struct res_cites_later {
    bool done;
} res_cites_later;

/* Frees p and everything it owns (its arrays, name tables and unit pool; not the files' nodes,
 * which it borrows). NULL is accepted. */
void model_free(res_program *p);

/* The name of moment m ("give", "enter"...), a static string; "?" out of range. */
const char *builtin_moment_name(res_moment m);

/* Look-ups by name (p and name borrowed; p may be NULL): the id, -1 when absent. */
int32_t model_find_query(const res_program *p, const char *name);
int32_t model_find_event(const res_program *p, const char *name); /* an event's query id */
int32_t model_find_fn(const res_program *p, const char *name);
int32_t model_find_table(const res_program *p, const char *name);
int32_t model_find_edition(const res_program *p, const char *name);
int32_t model_find_variant(const res_program *p, const char *name);
int32_t model_find_rule(const res_program *p, const char *full_name); /* first declared */
int32_t model_find_member(const res_enum *e, const char *name);
/* The unit id (in res_program.units) of the counter with that name; -1 when none. */
int32_t model_find_counter(const res_program *p, const char *name);
/* The declaration node of a top-level name (enum, record, variant, counter, table, fn, query,
 * edition), or NULL. Built-in names have none. */
ast_node *model_find_decl(const res_program *p, const char *name);

/* The rule set of query q under edition ed (-1: the top-level rules), borrowed from p; an
 * empty set when q is no query. The first ask of a view sorts its rules into its sets (in p's
 * memory, allocated at load: nothing can fail here; bench.md §9): the program is read-only to
 * its readers but for this, and is never shared between threads. */
const res_ruleset *model_rules_of(const res_program *p, int32_t ed, uint32_t q);
/* The module of the file with diagnostics id `file`: 0 (the unnamed module) when it has no
 * `module` line. */
int32_t res_module_of(const res_program *p, uint32_t file);
/* The name of module m, or NULL for the unnamed module (or an id out of range). */
const char *res_module_name(const res_program *p, int32_t m);
/* The version of declared fn f (table t) that edition ed calls (reads); f (t) itself with no
 * edition or when the edition does not revise it. */
uint32_t res_fn_of(const res_program *p, int32_t ed, uint32_t f);
uint32_t res_table_of(const res_program *p, int32_t ed, uint32_t t);
/* The counters as edition ed gives them: its own unit pool when it revises a counter, else
 * the program's. Borrowed. */
const unit_pool *res_units_of(const res_program *p, int32_t ed);

/* Writes the type's name ("int", "set<map>", "order") into buf (cap bytes, truncated to
 * fit); returns buf. */
const char *type_name(const res_program *p, uint32_t type, char *buf, size_t cap);
/* Interns the type (kind, arg) into p: returns its id (equal types, equal ids), or T_ERROR on
 * OOM. */
uint32_t type_interned(res_program *p, res_tkind kind, uint32_t arg);

/* Citation fields of an AST_CITE node (in one place, so the parser's choice of fields is
 * read in one place). */
const char *model_cite_id(const ast_node *cite);
/* The source text of cite, a cite of p's files (NULL: none): resolves p's citations first when
 * they were deferred (cite.h, cite_resolve, with what it would report dropped: the set of
 * a deferred build reported nothing; memory running out leaves them to the next call). */
const char *model_cite_source(const res_program *p, const ast_node *cite);
const char *model_cite_example(const ast_node *cite);
/* The modules whose clauses are in play under edition ed of p (res_edition.books, one bool
 * per module: those it uses, and those declaring it and its ancestors), for
 * model_cite_in_play; NULL with no edition (ed < 0): every module. Borrowed from p. */
const bool *model_edition_modules(const res_program *p, int32_t ed);
/* Whether cite, a cite of p's files, names a clause of a book in play: its ID's `source`
 * declaration is in a file of a module `uses` marks (model_edition_modules), or of the unnamed
 * module. True when uses is NULL and for an ID no file declares. A rule cites every clause it
 * encodes, whatever the edition; traces show only those in play, so that a player of one book
 * is not sent to another's (language.md §3.6). Resolves deferred citations first, as
 * model_cite_source does. */
bool model_cite_in_play(const res_program *p, const bool *uses, const ast_node *cite);
/* Whether a trace shows each citation of cites (a rule's, a table's) whatever its book: none of
 * them is of a book in play (model_cite_in_play), so that a rule a book not in play alone
 * states (a Harbor & Hills water rule on a board with water, under bloody_omaha) is not shown
 * uncited; the trace then says the books are not in play. False when uses is NULL. */
bool model_cites_none_in_play(const res_program *p, const bool *uses, const ast_vec *cites);
/* What a trace adds after such citations. */
#define MODEL_NOT_IN_PLAY "no book in play says it"

#endif