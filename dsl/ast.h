/* ast.h — the abstract syntax tree of a .hon file.
 *
 * The parser (dsl/grammar/parser.y) builds it with the ast_new_* constructors below; the
 * resolver (dsl/resolve.c) reads it and annotates nodes (resolved symbol, type); the compiler
 * (interp/compile.c) turns it into chunks. Every node and every string lives in the arena of
 * its ast_file: nothing in the tree is freed on its own, ast_file_free releases it all.
 */
#ifndef HON_AST_H
#define HON_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* A source span (base/diag.h): file, line and column from 1, end inclusive. */
typedef src_loc ast_loc;

typedef struct ast_node ast_node;

/* A growable array of node pointers, allocated in the file's arena. */
typedef struct ast_vec {
    ast_node **items;
    uint32_t len, cap;
} ast_vec;

typedef enum ast_kind {
    /* ---- type expressions ---- */
    AST_TYPE_NAME, /* name: "int" "bool" "unit" "verdict" or an enum/record name */
    AST_TYPE_SET,  /* a: element type */
    AST_TYPE_LIST, /* a: element type */

    /* ---- expressions ---- */
    AST_INT,         /* ival */
    AST_BOOL,        /* ival: 0 or 1 */
    AST_NAME,        /* name: parameter, let, symbol, counter, table, enum... */
    AST_FIELD,       /* a: base expression; name: field (also `level.A`, `u.defense`) */
    AST_CALL,        /* name: callee (query, fn or builtin); list: arguments */
    AST_INDEX,       /* a: base (a table name); list: keys */
    AST_UNARY,       /* op: AST_OP_NEG or AST_OP_NOT; a: operand */
    AST_BINARY,      /* op; a: left; b: right */
    AST_IF,          /* a: condition; b: then; c: else. As a statement of a block (op
                          AST_ST_IF) b is an AST_BLOCK and c an AST_BLOCK, another if
                          statement or NULL */
    AST_LET,         /* name: bound name; a: value; b: the body of `let x = e; body` in an
                          expression, or NULL (op AST_ST_LET) for a let of a rule head or a
                          block, which binds until the end of its rule or block */
    AST_LIST,        /* list: items */
    AST_SET,         /* list: items */
    AST_RECORD,      /* name: record type; list: AST_FIELD_INIT items */
    AST_FIELD_INIT,  /* name: field; a: value */
    AST_AGG,         /* op: AST_AGG_*; name: loop variable; a: list expression; b: body */
    AST_ROLL,        /* a: die count expression, or NULL for a single die (then an int) */
    AST_VARIANT_REF, /* name: variant name; the active reading */
    AST_FORBID,      /* the verdict forbid */
    AST_PERMIT,      /* the verdict permit */
    AST_NOT_GIVEN,   /* `?` — only valid as a table cell */

    /* ---- declarations ---- */
    AST_VOCAB,           /* op: AST_VOCAB_*; name; ival: 1 if it carries an int (`ability x: int`);
                          doc; name2: a terrain or side_feature's `colour` string,
                          "once" for a phase played once before turn 1, or NULL; a: for a
                          face, the AST_NAME of the terrain it shows (`shows T`), or NULL */
    AST_VALUE_DECL,      /* name; doc */
    AST_ENUM,            /* name; list: AST_NAME members */
    AST_RECORD_DECL,     /* name; list: AST_PARAM fields */
    AST_PARAM,           /* name; a: type expression; ival: 1 if `floor` (int table keys only) */
    AST_COUNTER,         /* name; title (may be NULL); kind: name of its unit kind (in `ref`);
                          list: AST_COUNTER_ITEM */
    AST_COUNTER_ITEM,    /* name: "side" | "size" | "abilities" | "markers" | a value name;
                          a: expression (side name, int) — or for abilities/markers, list:
                          AST_COUNTER_ENTRY */
    AST_COUNTER_ENTRY,   /* name: ability or marker; a: int expression or NULL */
    AST_CITE,            /* name: the cited ID; ref: the source text written in the cite itself,
                          or NULL; title: the source text the ID's `source` declaration gives
                          (set by the resolver, dsl/cite.c; NULL before); doc: the
                          example or NULL; ival: 1 + the file id of that declaration (set
                          with title; 0 before, or when none declares it): its module is
                          the book the clause is of (model_cite_in_play) */
    AST_TABLE,           /* name; params: keys (AST_PARAM); list2: result columns (AST_PARAM) —
                          empty when `result` holds a single unnamed result type;
                          a: single result type or NULL; cites; list: AST_ROW */
    AST_ROW,             /* params: key expressions; list: cell expressions (AST_NOT_GIVEN for ?);
                          cites (may be empty) */
    AST_FN,              /* name; params; a: result type; b: body */
    AST_QUERY,           /* name; params; a: result type; op: AST_COMBINE_*; b: default or NULL;
                          doc */
    AST_RULE,            /* name: "query.rule" in full; ref: query part; name2: rule part;
                          ival: priority; cites; doc; list: its AST_LETs in order;
                          a: when (or NULL); b: answer; op: AST_EDIT_*;
                          c: (a rule of an event) its `do` AST_BLOCK, b then NULL */
    AST_VARIANT,         /* name; doc; list: AST_READING */
    AST_READING,         /* name; doc; ival: 1 if default */
    AST_EDITION,         /* name; params: its parents (AST_NAME), list2: the modules it uses
                          (AST_NAME); title; list: items (AST_RULE with op ADD/REPLACE,
                          AST_REMOVE, AST_SET_VARIANT, AST_REVISE, AST_PREFER) */
    AST_REMOVE,          /* name: "query.rule" */
    AST_SET_VARIANT,     /* name: variant; ref: reading */
    AST_DEFAULT_EDITION, /* name */
    AST_TEST,            /* title; ref: edition or NULL; params: AST_SET_VARIANT settings, at
                          most one AST_TEST_BOARD, AST_TEST_DICE and AST_TEST_CHOICES; name2:
                          the board path or NULL; list: AST_EXPECT, AST_TEST_DO, _ADVANCE and
                          _MOVE items, run in order */
    AST_EXPECT,          /* a: expression; ival: expected error code (e.g. 201 for E201) or 0;
                          ref: the edition of `expect X == A under E` (NULL: the test's),
                          c: an AST_NAME of it, where it is written */

    /* ---- the board (language.md §5) ---- */
    AST_SQUARE,     /* `@C4`: name: the coordinate as written ("C4"); ival: its column x
                          (A = 0) in the low 32 bits and its row y (1 = 0) in the high 32 */
    AST_UNIT_REF,   /* `$rifle1`: name: a unit of the loaded scenario (resolved at run time) */
    AST_TEST_BOARD, /* `board "FILE"` setting of a test (in its params): name: the path as
                          written, relative to the test's file */

    /* ---- events, effects, phases (language.md §6) ---- */
    AST_EVENT,        /* `event NAME(params) [on MOMENT] ["doc"];`: name; params; doc;
                          ref: the moment name (`give`, `enter`...) or NULL */
    AST_BLOCK,        /* `{ stmt... }` of an event rule's `do`: list: AST_STMT items */
    AST_STMT,         /* one statement; op: AST_ST_*; see the AST_ST_* comments for fields */
    AST_TEST_DICE,    /* `dice [..]` setting of a test (in its params): list: the faces */
    AST_TEST_CHOICES, /* `choices [..]` setting of a test (in its params): list: the answers */
    AST_TEST_DO,      /* `do EVENT(args) [fails CODE];` in a test: a: the AST_CALL; ival: the
                          expected error code or 0 */
    AST_TEST_ADVANCE, /* `advance to PHASE;` in a test: name: the phase */
    AST_TEST_MOVE,    /* `move U along PATH [fails CODE];` in a test: a: the unit; b: the list of
                         squares; ival: the code expected, 0 for none */

    /* ---- citations (language.md §3.6) ---- */
    AST_SOURCE, /* `source "ID" [= "TEXT"];`: name: the ID; title: its source text or
                          NULL */

    /* ---- modules and revisions (language.md §3.8) ---- */
    AST_MODULE, /* `module NAME ["title"];`: name; title */
    AST_REVISE, /* an edition's revision; op: AST_REV_*:
                      RULE: name "query.rule", ref query, name2 rule; cites; a: `when` or
                        NULL; c: `unless` or NULL; b: `answer` or NULL
                      TABLE: name table; params: keys; name2: column or NULL; list: cells;
                        cites
                      FN: as an AST_FN (name, params, a result type, b body)
                      COUNTER: name counter; list: AST_COUNTER_ITEM values */
    AST_PREFER, /* `prefer E [for KIND NAME];`: name: the edition; ref: the kind word
                      ("rule", "table", "fn", "counter", "variant") or NULL; name2: the name */

    AST_KIND_COUNT
} ast_kind;

typedef enum ast_op {
    AST_OP_NONE = 0,
    AST_OP_ADD,
    AST_OP_SUB,
    AST_OP_MUL,
    AST_OP_DIV,
    AST_OP_MOD,
    AST_OP_EQ,
    AST_OP_NE,
    AST_OP_LT,
    AST_OP_LE,
    AST_OP_GT,
    AST_OP_GE,
    AST_OP_AND,
    AST_OP_OR,
    AST_OP_IN,
    AST_OP_NEG,
    AST_OP_NOT,
    /* aggregates */
    AST_AGG_SUM,
    AST_AGG_COUNT,
    AST_AGG_ALL,
    AST_AGG_ANY,
    AST_AGG_MIN,
    AST_AGG_MAX,
    /* vocabulary categories */
    AST_VOCAB_KIND,
    AST_VOCAB_SIDE,
    AST_VOCAB_ABILITY,
    AST_VOCAB_MARKER,
    AST_VOCAB_TOKEN,
    /* query combination modes: AST_COMBINE_FIRST, _SUM ... _PERMISSION (combine_modes.h) */
#define COMBINE(name, text, need, no_rule, doc) AST_COMBINE_##name,
#include "combine_modes.h"
    /* rule placement */
    AST_EDIT_ADD,
    AST_EDIT_REPLACE,
    /* vocabulary categories of the board (language.md §5.1) */
    AST_VOCAB_TERRAIN,
    AST_VOCAB_SQUARE_FEATURE,
    AST_VOCAB_SIDE_FEATURE,
    AST_VOCAB_INTERSPACE_ITEM,
    /* language.md §6: the vocabulary of turns and counter sides, the list filter
     * `[x in L: cond]` (an AST_AGG), and the statements of a `do` block (AST_STMT.op, and the
     * op of an AST_LET or AST_IF standing in a block):
     *   GIVE/TAKE: a unit, b marker, c count or NULL; TAKE ival 1 for `all`
     *   FLIP: a unit or element, b face;  SET: a the AST_FIELD `u.value`, b the new value
     *   DESTROY: a;  MOVE: a unit, b square, c second square or NULL;  EMBARK: a unit, b carrier
     *   DISEMBARK: a unit, b square;  PLACE/REMOVE: a feature or item, b place; ival 1 `near`
     *   RAISE: name event, list args;  LET (an AST_LET): name, a value
     *   CHOOSE: name bound, name2 loop variable, a list, b side, title question or NULL
     *   IF (an AST_IF): a condition, b then-block, c else-block, else-if or NULL
     *   FOR: name loop variable, a collection, b block;  NOTE/FAIL: title the text */
    AST_VOCAB_PHASE,
    AST_VOCAB_FACE,
    AST_AGG_FILTER,
    AST_OP_CONCAT, /* `a ++ b`: two lists of one type, end to end */
    AST_AGG_MAP,   /* `[e for x in L]` (an AST_AGG: name x, a L, b e) */
    AST_ST_GIVE,
    AST_ST_TAKE,
    AST_ST_FLIP,
    AST_ST_SET,
    AST_ST_DESTROY,
    AST_ST_MOVE,
    AST_ST_EMBARK,
    AST_ST_DISEMBARK,
    AST_ST_PLACE,
    AST_ST_REMOVE,
    AST_ST_RAISE,
    AST_ST_LET,
    AST_ST_CHOOSE,
    AST_ST_IF,
    AST_ST_FOR,
    AST_ST_NOTE,
    AST_ST_FAIL,
    AST_ST_REQUIRE, /* a: the query call, title: what is refused or NULL */
    AST_ST_CITE,    /* cites: AST_CITEs naming some of the rule's own; b: the block they cite */
    /* what an AST_REVISE revises */
    AST_REV_RULE,
    AST_REV_TABLE,
    AST_REV_FN,
    AST_REV_COUNTER
} ast_op;

/* Filled by the resolver; zero from the parser. `type` is an index into the resolver's type
 * table (0 = not yet typed); `sym` identifies what an AST_NAME / AST_CALL / AST_FIELD resolved
 * to (see model.h). */
typedef struct ast_annot {
    uint32_t type;
    uint32_t sym_kind;
    uint32_t sym;
    int32_t slot; /* local slot for params/lets/loop variables, -1 otherwise */
} ast_annot;

struct ast_node {
    ast_kind kind;
    ast_op op;
    ast_loc loc;
    const char *name; /* see ast_kind comments */
    const char *name2;
    const char *ref;
    const char *title;
    const char *doc;
    int64_t ival;
    ast_node *a, *b, *c;
    ast_vec list, list2, params, cites;
    ast_annot an;
    uint32_t parens; /* pairs of grouping parentheses written around this expression
                           (`((x))` is x with 2); only the depth bound (front.c) reads it */
    uint32_t body;   /* a top-level rule's or fn's body not decoded yet: 1 + the word of its
                           file's image where it starts (ast_image.h: ast_body_ready decodes
                           it); 0 when it is there (always, in a tree the parser made) */
};

/* Locations set by the parser: a declaration's loc (and a param's, reading's, counter item's,
 * a rule head's let's, field init's) is its name's span, a rule's spans `query.rule`, a cite's
 * and a source declaration's is its ID string, an expect's is its expression; an expression's
 * loc spans the whole expression. */

/* One parsed file: its declarations in source order and the arena that owns every node and
 * string of the tree. `path` and `text` are owned copies (diagnostics quote the text). */
typedef struct ast_file {
    const char *path;
    const char *text;
    size_t text_len;
    uint32_t file_id; /* index in the diagnostics source table */
    ast_vec decls;
    struct arena *arena;
    /* A tree read from an image with its bodies left in it (ast_image_read_lazily): the
     * image's node words and strings, borrowed as the text is, which ast_body_ready decodes
     * from; NULL otherwise. */
    const unsigned char *image_words;
    size_t image_nwords;
    size_t image_bodies_at;    /* the word where the bodies start */
    uint64_t image_bodies_sum; /* their sum, checked at the first body decoded */
    uint64_t image_key;
    int image_bodies; /* 0: their sum not checked yet, 1: sound, 2: damaged (then parsed) */
    const char *image_strings;
    uint32_t image_strings_len;
    /* A tree read apart (ast_image_read_apart): the image file its bodies are read from when
     * the first is decoded (in the arena), the image's length there, and the image read then
     * (owned: image_words points into it); NULL otherwise. */
    const char *image_path;
    size_t image_len;
    char *image_owned;
    struct ast_file *reparsed; /* the text parsed again when a body was damaged (owned) */
} ast_file;

/* Creates an empty file whose arena will own the tree; copies path and text. Returns NULL only
 * when memory runs out. */
ast_file *ast_file_new(const char *path, const char *text, size_t len, uint32_t file_id);
/* As ast_file_new(path, NULL, 0, file_id), and the arena's first block holds room bytes more
 * (room: a sum of arena_room, base/arena.h), for a reader that knows what it will allocate
 * (ast_image.c: nothing left over, bench.md §9); room 0 is ast_file_new's. NULL when memory
 * runs out. */
ast_file *ast_file_sized(const char *path, uint32_t file_id, size_t room);
/* Frees the file, its arena and every node; accepts NULL. */
void ast_file_free(ast_file *f);

/* Allocates a zeroed node of kind k at loc in f's arena; NULL when memory runs out. */
ast_node *ast_new(ast_file *f, ast_kind k, ast_loc loc);
/* Copies n bytes of s (not NUL-terminated) into the arena as a C string; NULL on OOM. */
const char *ast_strndup(ast_file *f, const char *s, size_t n);
/* Appends n to v (growing it in f's arena); returns false when memory runs out. */
bool ast_vec_push(ast_file *f, ast_vec *v, ast_node *n);

/* A deep copy of n (NULL: NULL) into f's arena: every node below it is new, the strings are
 * shared (they live as long as the files of one program do), and the resolver's annotations
 * are cleared, so the copy can be resolved on its own (an edition's revised rule). NULL when
 * memory runs out, or when n's body is not decoded yet (n->body: ast_body_ready first). */
ast_node *ast_clone(ast_file *f, const ast_node *n);
/* As ast_clone, but the citations below n are copied too, not shared: the copy a build
 * resolves (the resolver writes a cite's title into it), interp/load.c. */
ast_node *ast_clone_all(ast_file *f, const ast_node *n);
/* Whether a and b are the same text as far as running them goes: the same kinds, operators,
 * names, numbers, strings and children, whatever their places, documentation, citations and
 * annotations (a revision that changes nothing, E145). Either may be NULL. */
bool ast_same(const ast_node *a, const ast_node *b);

/* Span covering a through b. */
ast_loc ast_loc_span(ast_loc a, ast_loc b);
/* The combination mode (an AST_COMBINE_*) called name ("sum"), or AST_OP_NONE. */
ast_op ast_combine_find(const char *name);
/* The name of combination mode m ("sum", a static string), or NULL when m is not one. */
const char *ast_combine_name(ast_op m);
/* Writes the names of the modes ("first, sum, ... or permission") into buf (cap bytes). */
void ast_combine_names(char *buf, size_t cap);
/* Human name of a node kind, for debugging dumps ("AST_RULE" -> "rule"). */
const char *ast_kind_name(ast_kind k);
/* Writes an S-expression dump of n (for the parser's unit tests); returns bytes written.
 * (Like snprintf: the return value is the length of the whole dump, without the NUL; the text
 * is cut short when that is >= cap. The format is documented in ast.c.) */
size_t ast_dump(const ast_node *n, char *buf, size_t cap);

#endif
