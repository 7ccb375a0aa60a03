/* eval.h — what the other files of the session layer use of eval.c: an answer made from a
 * traced evaluation's value, and query handles (struct hon_query_handle, session.h) kept
 * current across reloads.
 */
#ifndef HON_EVAL_H
#define HON_EVAL_H

#include "session.h"

/* The answer to an evaluation that gave v (of type `type`) on vm->x, traced: its text (cut
 * after SESSION_ANSWER_MAX bytes, saying so), its JSON {"value", "type", "text", "trace"}, the
 * complete trace and the brief one. Call before state_end. A new answer, or NULL on OOM. */
hon_answer *eval_answer(hon_vm *vm, val v, uint32_t type);
/* Looks h's query or fn up again when the program changed since it was; false when the name
 * no longer exists (h is then unchanged). */
bool eval_handle_current(hon_vm *vm, hon_query_handle *h);

#endif
