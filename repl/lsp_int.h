/* lsp_int.h — what lsp.c (`hon lsp`: messages, documents, hover, definition, symbols) and
 * lsp_complete.c (its completion) share: the server's state and a few helpers of lsp.c. Private
 * to repl/lsp*.c; lsp.h is the interface main.c uses.
 */
#ifndef HON_LSP_INT_H
#define HON_LSP_INT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/* An open document: its URI, the name it is loaded under (the spelling of the loaded file it
 * stands for, or its path), its text, and the program it last built into (NULL: none yet). */
typedef struct doc {
    char *uri;
    char *name;
    char *text;
    size_t len;
    hon_vm *vm;
    bool fresh; /* vm was built from text as it is now: its tree's places are the text's */
    /* the board of the test the cursor was last in (`board "FILE"`, completion after `$` and
     * `@`): its path as found, and a copy of the document's program with it loaded; NULL: none */
    char *test_board;
    hon_vm *test_vm;
    struct doc *next;
} doc;

typedef struct server {
    cli_session *s;
    FILE *out;
    char *inventory; /* the rules inventory's path (lsp_run, initializationOptions), or NULL */
    doc *docs;
    bool initialized, shutdown;
    /* while a document is checked: it, and its diagnostics gathered (on_diag) */
    doc *checking;
    json_object *diags;
} server;

/* Whether c may be part of a name (letters, digits, '_'). */
bool lsp_name_char(char c);
/* The path of a file: URI, percent-decoded (new string); any other URI as it is. NULL on
 * OOM. */
char *lsp_path_of_uri(const char *uri);
/* The program a document's names are looked up in: its own when it built, else the
 * session's. */
const hon_vm *lsp_vm_of(const server *srv, const doc *d);
/* The answer to textDocument/completion at byte `at` of d (lsp_complete.c): a CompletionList
 * (new). May load the board of the test the cursor is in into d (d->test_board, d->test_vm). */
json_object *lsp_completion(const server *srv, doc *d, size_t at);

#endif
