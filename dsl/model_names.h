/* model_names.h — the name tables behind res_program.names: what each global name, value slot,
 * edition, rule and enum member stands for, and the interned types. Private to dsl/: the
 * resolver's passes fill them (scope.c, body.c, builtin.c, type.c), model.c looks names up in
 * them and frees them. Everything else reads the program through model.h.
 */
#ifndef HON_MODEL_NAMES_H
#define HON_MODEL_NAMES_H

#include <stdint.h>

#include "arena.h"
#include "hash.h"
#include "model.h"

typedef enum gkind {
    G_TYPE,
    G_ENUM,
    G_RECORD,
    G_VARIANT,
    G_COUNTER,
    G_TABLE,
    G_FN,
    G_QUERY,
    G_BUILTIN,
    G_EVENT, /* id: the event's index in the queries (res_query.is_event) */
    G_OTHER  /* entries of the slot, edition and rule tables */
} gkind;

typedef struct name_ent {
    const char *key; /* borrowed from the AST or a static string */
    gkind kind;
    int32_t id;
    ast_loc loc;
    UT_hash_handle hh;
} name_ent;

typedef struct member_hit {
    uint32_t e, m;
} member_hit;

typedef struct member_ent {
    const char *key;
    member_hit *hits; /* len of them: &one while there is one, else its own block (scope.c) */
    size_t len, cap;
    member_hit one; /* most names are members of one enum: no block of their own */
    UT_hash_handle hh;
} member_ent;

typedef struct type_ent {
    uint64_t key; /* kind << 32 | arg */
    uint32_t id;
    UT_hash_handle hh;
} type_ent;

/* What an edition revises (res_edition.revs), one entry per thing, keyed by its name as
 * messages print it: "rule q.r", "table t[clear].armed_recon" (one cell), "fn f", "counter
 * sherman.defense" (one value), "variant v". An edition holds its parents' entries, merged
 * (edition.c), then its own items' (revise.c). A thing with no entry is as declared. */
typedef enum rev_kind {
    REV_RULE,    /* version: the rule id, or -1 when the edition has no such rule */
    REV_CELL,    /* a: table, b: row, c: column; cell: the cell */
    REV_FN,      /* a: the declared fn; version: the fn id of its version */
    REV_VALUE,   /* a: the counter's unit, b: the value slot; version: the value */
    REV_VARIANT, /* a: the variant; version: the reading */
} rev_kind;

typedef struct res_rev {
    char *key;       /* owned */
    size_t decl_len; /* key[0..decl_len) names the declaration, as `prefer ... for` does */
    rev_kind kind;
    uint32_t a, b, c;
    int64_t version;
    res_const cell;
    int32_t origin;       /* the edition whose item made this version */
    const ast_node *node; /* that item */
    /* while a merge is unsettled (two parents revise it differently): the other version and
     * the two parents; NULL when settled */
    struct res_rev *rival;
    int32_t from, rival_from;
    UT_hash_handle hh;
} res_rev;

struct res_names {
    name_ent *globals, *slots, *editions, *rules;
    member_ent *members;
    type_ent *types;
    /* The entries of these tables (name_ent, member_ent, type_ent; not a member_ent's hits), freed all at once by model_free:
     * one block each was some 300 instructions of `hon eval 1`'s 2,000-odd names (bench.md
     * §9). */
    arena entries;
};

/* A zeroed entry of n bytes in p's name tables' arena (res_names.entries); NULL on OOM. */
void *model_names_entry(res_program *p, size_t n);

/* The entry of name in table (borrowed), or NULL; name may be NULL. */
name_ent *model_find_name(name_ent *table, const char *name);
/* The members called name across all enums (borrowed), or NULL. */
member_ent *model_find_member_ent(const res_program *p, const char *name);
/* Frees every entry of an edition's revisions and empties the table. */
void model_revs_free(res_rev **revs);

#endif
