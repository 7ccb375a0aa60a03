/* entry.h — when a line typed at the REPL (or read from a script) is not yet a whole entry: the
 * REPL's multi-line input (docs/spec/repl.md §2, "Entries over several lines"). repl.c reads
 * lines into one entry until entry_unfinished says it is whole, then runs the entry. Pure text
 * scanning: no knowledge of the program loaded.
 */
#ifndef HON_REPL_ENTRY_H
#define HON_REPL_ENTRY_H

#include <stdbool.h>
#include <stddef.h>

/* What an entry may go on for: an expression (open brackets, a trailing operator or keyword),
 * a declaration (those, or no `;` or `}` at its end yet), or a command line that may start a
 * block (`test "T" {`: open brackets only). */
typedef enum entry_kind {
    ENTRY_EXPR,
    ENTRY_DECLARATION,
    ENTRY_BRACKETS
} entry_kind;

/* Whether `text` (the lines of an entry so far, joined by '\n'; borrowed), an entry of `kind`,
 * must go on with the next line: a bracket ( [ { opened in it is still open; (not for
 * ENTRY_BRACKETS) its last word is an operator, `=`, `,` or a keyword that needs something
 * after it (`and`, `or`, `not`, `if`, `then`, `else`, `in`, `->`, `=>`...); (ENTRY_DECLARATION)
 * it does not end with `;` or `}`. Comments (`#` to the end of a line) and string literals are
 * skipped. A text closing more brackets than it opened is whole (the parser reports it). */
bool entry_unfinished(const char *text, entry_kind kind);

/* The end of `line` (n bytes, borrowed) before any `#` comment and the blanks before it, as a
 * 0-based byte offset: where a `;` ending the line would go. Strings are skipped. */
size_t entry_code_end(const char *line, size_t n);

/* For an entry of several lines (joined by '\n'; borrowed) that starts a declaration: the line
 * (from 1) after which its text was first whole as an expression (no bracket open, no operator
 * or keyword left wanting more: entry_unfinished) and the next line starts at the margin, as a
 * new entry does (a declaration's clauses are indented), where a `;` most likely belongs; the
 * entry's last line when no earlier one is. That line's text (borrowed from entry) and length go in
 * *text and *n, the entry's count of lines in *lines. */
unsigned entry_semicolon_line(const char *entry, const char **text, size_t *n, unsigned *lines);

#endif
