/* eval.h — what the other files of the session layer use of eval.c: an answer made from a
 * traced evaluation's value, and query handles (struct hon_query_handle, session.h) kept
 * current across reloads.
 */
#ifndef HON_EVAL_H
#define HON_EVAL_H

#include "session.h"

/* The HON_WANT_* that eval_answer's callers pass for hon_diff's answers: the brief trace and
 * the rules that fired (what it shows), not the complete trace nor the JSON's. */
#define EVAL_WANT_DIFF (HON_WANT_WHY | HON_WANT_FIRED)

/* The answer to an evaluation that gave v (of type `type`) on vm->x: its text (cut after
 * SESSION_ANSWER_MAX bytes, saying so), its JSON {"value", "type", "text", "trace"}, and the
 * renderings of the trace `want` (HON_WANT_* of hon.h) asks for, which need the evaluation
 * traced (eval_traces); the others are empty: the complete trace is its setting line, the
 * JSON's "trace" null. Call before state_end. A new answer, or NULL on OOM. */
hon_answer *eval_answer(hon_vm *vm, val v, uint32_t type, unsigned want);
/* Whether an answer asked with `want` (HON_WANT_*) needs its evaluation traced. */
bool eval_traces(unsigned want);
/* session_begin for an answer asked with `want`: traced when eval_traces(want), and the rules
 * run their explained chunks (state_trace_guards) only for the forms that word a guard (the
 * complete trace, the reasons, the JSON): `why` and the rules that fired do not compile them.
 * HON_OK, or session_begin's error. */
hon_status eval_begin(hon_vm *vm, unsigned want);
/* The answer to an evaluation on vm->x that stopped with an error (vm->x.err), traced: its
 * text "error E215: MESSAGE", its JSON {"value": null, "error": 215, "text", "trace"}, the
 * traces as far as it went (those `want` asks for, as eval_answer's). Call before state_end. A
 * new answer, or NULL on OOM. */
hon_answer *eval_error_answer(hon_vm *vm, unsigned want);
/* hon_ask_query, traced, with the renderings `want` asks for (eval_answer). */
hon_status eval_ask_query(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                          unsigned want, hon_answer **out);
/* Writes x's error as an answer's text, "error E215: MESSAGE", into buf (cap bytes). */
void eval_error_text(const vm_ctx *x, char *buf, size_t cap);
/* Writes v, a value of the evaluation running on vm->x, as the language prints it into buf
 * (cap > 0 bytes, cut to fit); false on OOM. */
bool eval_value_text(const hon_vm *vm, val v, char *buf, size_t cap);
/* Looks h's query or fn up again when the program changed since it was; false when the name
 * no longer exists (h is then unchanged). */
bool eval_handle_current(hon_vm *vm, hon_query_handle *h);

#endif
