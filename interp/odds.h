/* odds.h — exact dice odds: run an expression, or a procedure, under every outcome of the dice
 * it rolls.
 *
 * The dice source (runtime/dice.h) is put in scripted mode and driven as an odometer over
 * variable-length face sequences, depth first: each run asks for the faces it needs (a new
 * one starts at 1, or within one `roll N d6` at the face before it), then the last face that
 * is not a 6 is advanced and the rest dropped. A lone die is a path per face; the dice of one
 * roll are a path per multiset of faces, of probability N!/(c1!...c6!) / 6^N (interp/vm.c
 * sorts a roll's faces, so the order is no outcome). Results are grouped by printed value.
 */
#ifndef HON_ODDS_H
#define HON_ODDS_H

#include "proc.h"
#include "state.h"

#define ODDS_MAX_PATHS 1000000 /* runs (from a fork; multisets once) before giving up with E210 */
/* Different outcomes before giving up with E210: each is kept (up to 2 x ODDS_VALUE_MAX bytes)
 * and printed as a line, so this bounds the memory and the output (issue 13: 29 dice and a long
 * list made 278,256 outcomes, 4.6 GB). */
#define ODDS_MAX_OUTCOMES 10000
/* All paths together: this many times one step budget (2e9 steps, some 7 s, by default),
 * counting the steps actually run, from forks at the rolls: EX.RR.derail-2's train move (12 dice, 213,444 paths of about 6,700 steps,
 * 1.43e9 steps if each were run whole) takes 427,658 steps. */
#define ODDS_BUDGET_FACTOR 200

/* Enumerates ch (a no-argument chunk whose result has type `type`) under s (its budget is one
 * path's), by forking at its rolls and merging equal states as odds_enumerate_procedure does
 * (its state: the VM's frames and stack). On success appends "value: n/d (p%)" lines (no final
 * newline) to text and a JSON object to json, and returns true. On failure returns false with
 * x->err set: the expression's own E2xx error on some path, E207 when all the runs together
 * used more than ODDS_BUDGET_FACTOR step budgets, or E210 (more than ODDS_MAX_PATHS runs, more
 * than ODDS_MAX_OUTCOMES different outcomes, or more than DICE_SCRIPT_MAX dice on one path),
 * E209 when memory runs out. Calls state_begin and state_end itself. */
bool odds_enumerate(vm_ctx *x, const state_setup *s, const chunk *ch, uint32_t type, strbuf *text,
                    strbuf *json);

/* Enumerates every face sequence of the dice procedure ch (a chunk made by comp_procedure) rolls
 * on gm, under s (its budget is one path's), grouping the paths by their outcome (outcome.h:
 * the net change of their effects): appends "OUTCOME: n/d (p%)" lines (sorted by text, no final
 * newline; the items every outcome has first, once: outcome_common) to text and a JSON object
 * (type `what`) to json. gm plays bare (no lines, the first option of every choice: the
 * caller's settings); its board is as before after. By forking (vm.md §11): the procedure
 * runs up to its first roll of its own once, and each of the roll's outcomes goes on from there
 * (proc_resume), and so on at each roll, so each prefix of a path runs once. The same results
 * and limits as odds_enumerate (E207 per path and over ODDS_BUDGET_FACTOR budgets, E209,
 * E210), the enumeration's own errors at chunk ch. Calls state_begin and state_end itself. */
bool odds_enumerate_procedure(vm_ctx *x, proc_game *gm, const state_setup *s, const chunk *ch,
                              const char *what, strbuf *text, strbuf *json);

#endif
