/* trace_render.h — what trace.c's text renderers share with trace_json.c's JSON renderer
 * (internal to interp/, not part of the public API): the memo a rendering keeps of what it has
 * written (values, and each rule's JSON citations), a value printed through it, a query's mode
 * by name, and where a table row's revision comes from. trace.c defines them.
 */
#ifndef HON_TRACE_RENDER_H
#define HON_TRACE_RENDER_H

#include "trace.h"

#define TRACE_VALUE_MAX 4096 /* bytes of one printed value in a trace */

/* What a rendering printed last, by identity: a value by its own bits (a record or list by
 * its address: values are not changed once made, and a rendering reads the log of one
 * evaluation whose arena stays put), its width and its form (a put_short level, or
 * MEMO_WHOLE, MEMO_JSON); and per rule, its JSON citations and provenance. A rendering asks
 * for the same values again and again (the shot of every step of a line, the same square in
 * many calls; cutting a record short prints it whole first), and for the same rules. */
#define MEMO_SLOTS 64
enum {
    MEMO_WHOLE = -1,
    MEMO_JSON = -2
};
typedef struct trace_memo {
    struct {
        val v;
        size_t width;
        int level;
        char *text; /* owned; NULL: the slot is free */
        size_t len;
    } e[MEMO_SLOTS];
    char **rule_json; /* per rule id (nrules of them, or NULL): owned, NULL until rendered */
    size_t *rule_json_len;
    size_t nrules;
    uint32_t
        *kept; /* the rules whose rule_json is set: trace_memo_free frees them, not every rule */
    size_t nkept, kept_cap;
} trace_memo;

/* A new memo for one rendering under env (*menv: env with it, borrowing env's program and
 * scene); NULL when memory ran out (the rendering then goes without: *menv is env). Free it
 * with trace_memo_free. */
trace_memo *trace_memo_new(const val_env *env, val_env *menv);

/* Frees m and every text it keeps; m may be NULL. */
void trace_memo_free(trace_memo *m);

/* Appends v whole (text, or JSON when `json`; cut past TRACE_VALUE_MAX bytes: `...` after the
 * text, `null` for JSON) through env->memo when there is one; sets out->oom when memory runs
 * out. */
void trace_put_val(const val_env *env, val v, strbuf *out, bool json);

/* The name of query mode m (language.md §3.5); `first` for an event, which has none. Static. */
const char *trace_mode_name(ast_op m);

/* The module and edition of the revision of row `row` of table t, or (0, -1) when the row is
 * as declared. */
void trace_row_provenance(const res_program *p, const res_table *t, uint32_t row, int32_t *module,
                          int32_t *edition);

/* The row node of lookup entry e of table t (borrowed from the program), or NULL. */
const ast_node *trace_row_node(const res_table *t, const trace_ent *e);

#endif
