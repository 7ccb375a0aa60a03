/* eval.h — what the other files of the session layer use of eval.c: an answer made from a
 * traced evaluation's value, and query handles (struct hon_query_handle, session.h) kept
 * current across reloads.
 */
#ifndef HON_EVAL_H
#define HON_EVAL_H

#include "session.h"

/* The answer to an evaluation that gave v (of type `type`) on vm->x, traced: its text (cut
 * after SESSION_ANSWER_MAX bytes, saying so), its JSON {"value", "type", "text", "trace"}, the
 * complete trace and the brief one, the rules that fired. Without `whole` the complete trace
 * is "" and the JSON's "trace" null (what hon_diff shows needs neither). Call before
 * state_end. A new answer, or NULL on OOM. */
hon_answer *eval_answer(hon_vm *vm, val v, uint32_t type, bool whole);
/* The answer to an evaluation on vm->x that stopped with an error (vm->x.err), traced: its
 * text "error E215: MESSAGE", its JSON {"value": null, "error": 215, "text", "trace"}, the
 * traces as far as it went (`whole`: as eval_answer's). Call before state_end. A new answer,
 * or NULL on OOM. */
hon_answer *eval_error_answer(hon_vm *vm, bool whole);
/* hon_ask_query, with the complete trace and the JSON's only when `whole` (eval_answer). */
hon_status eval_ask_query(hon_vm *vm, hon_query_handle *h, const hon_value *args, size_t n,
                          bool whole, hon_answer **out);
/* Writes x's error as an answer's text, "error E215: MESSAGE", into buf (cap bytes). */
void eval_error_text(const vm_ctx *x, char *buf, size_t cap);
/* Writes v, a value of the evaluation running on vm->x, as the language prints it into buf
 * (cap > 0 bytes, cut to fit); false on OOM. */
bool eval_value_text(const hon_vm *vm, val v, char *buf, size_t cap);
/* Looks h's query or fn up again when the program changed since it was; false when the name
 * no longer exists (h is then unchanged). */
bool eval_handle_current(hon_vm *vm, hon_query_handle *h);

#endif
