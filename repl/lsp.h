/* lsp.h — `hon lsp`: a Language Server Protocol server over stdio for .hon and .scn files
 * (docs/spec/lsp.md). lsp.c implements it over include/hon.h and the session of cli.h, whose
 * bundled rules every open document is loaded over; main.c starts it.
 */
#ifndef HON_LSP_H
#define HON_LSP_H

#include <stdio.h>

#include "cli.h"

/* Serves LSP messages (JSON-RPC 2.0 with Content-Length framing) read from in, answering on
 * out, over session s (borrowed, opened: its program is the rules each document is checked
 * against; its on_diag is taken over while serving). `inventory` (borrowed, NULL: none) is the
 * path of a rules inventory (`hon lsp --inventory FILE`) where definition finds a citation
 * ID's row; the client's initializationOptions `inventory` replaces it. Runs until the `exit`
 * notification or the end of in. Returns the exit status LSP asks for: 0 after `shutdown`
 * then `exit`, 1 when the input ended or `exit` came without `shutdown`. */
int lsp_run(cli_session *s, const char *inventory, FILE *in, FILE *out);

#endif
