/* value.h — run-time values and their text/JSON output.
 *
 * A value is 16 bytes: its resolver type id (dsl/model.h) and a payload (an int, a bool, an
 * enum member index, a set's member bits, a verdict, a unit id, or a pointer to a list or a
 * record allocated in the evaluation's arena, base/arena.h). Values made at run time live
 * until the arena is reset at the end of the top-level evaluation (state_end). A table row
 * read whole may hold `?` cells: such a field is an "absent" value that raises E201 when read.
 */
#ifndef HON_VALUE_H
#define HON_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "model.h"
#include "strbuf.h"

#define VAL_ABSENT 1u /* flags: a `?` table cell (payload: table, row, column) */

typedef struct vlist vlist;

typedef struct val {
    uint32_t type; /* resolver type id */
    uint32_t flags;
    union {
        int64_t i;     /* int, bool (0/1), enum member, verdict (0 forbid/1 permit), unit */
        uint64_t bits; /* set: bit m = member m */
        vlist *list;
        struct val *rec; /* record: one value per field, in declaration order */
    } u;
} val;

struct vlist {
    size_t len;
    val items[];
};

/* Packs and unpacks the position of a `?` cell. */
val val_absent(uint32_t type, uint32_t table, uint32_t row, uint32_t col);
void val_absent_where(val v, uint32_t *table, uint32_t *row, uint32_t *col);

/* The evaluation's arena (base/arena.h). */
typedef arena val_arena;

/* ---- values ---- */

struct scene;

/* What printing needs: the program (member, field and counter names) and the loaded board, if
 * any (scenario units print as `$rifle1`, elements by name, sides as `C4/C5` or `A1:N`). */
typedef struct val_env {
    const res_program *p;
    const struct scene *sc; /* NULL: no board */
    /* trace.c's memo of the values a brief rendering has cut short (each value of a trace is
     * printed once however often it appears); NULL (the default): none */
    struct trace_memo *memo;
    /* the modules of the edition a trace was made under (model_edition_modules): a trace shows
     * only the citations of those books (model_cite_in_play); NULL (the default): every one */
    const bool *in_play;
} val_env;

/* Writes v as the language prints it: 7, true, clear, {map_a, map_b}, [1, 2],
 * order{kind: numbered, number: 3}, forbid, sherman, $rifle1, C4, C4/C5, hill1, ? (a
 * not-given cell). Stops early when out is out of memory or past its limit (shared sublists
 * can make a value's text huge). */
void val_print(const val_env *e, val v, strbuf *out);
/* Writes v as JSON: numbers, booleans, strings for members, verdicts, units, squares, sides
 * and elements, arrays for sets and lists, objects for records, null for a not-given cell. */
void val_json(const val_env *e, val v, strbuf *out);
/* Deep equality of two values of the same type. When a `?` cell takes part, returns false and
 * stores it in *absent (when absent is not NULL). */
bool val_equal(const res_program *p, val a, val b, val *absent);
/* The same, doing at most *work steps (one per value visited) and subtracting what it did;
 * *work == 0 afterwards means it ran out, and the result means nothing. */
bool val_equal_bounded(const res_program *p, val a, val b, val *absent, uint64_t *work);
/* Prints v (text or JSON) into a new string of at most `limit` bytes; sets *cut when it had
 * to stop (for JSON the caller should then not use the text). NULL on OOM. */
char *val_text(const val_env *e, val v, bool json, size_t limit, bool *cut);

#endif
