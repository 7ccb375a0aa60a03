/* complete.h — Tab completion in the REPL (docs/spec/repl.md §2, the table of what a word
 * completes to): the candidates of the word before the cursor by where it stands, from
 * hon_complete, the file system and repl.c's command table. complete.c implements it; repl.c
 * binds it to Tab in libedit.
 */
#ifndef HON_REPL_COMPLETE_H
#define HON_REPL_COMPLETE_H

#include <histedit.h>
#include <stddef.h>

/* What a command's argument is, for Tab completion. */
typedef enum arg_kind {
    A_UNSET,    /* no kind given: the last kind given repeats */
    A_EXPR,     /* an expression: queries, fns, tables, built-in functions */
    A_NAME,     /* a declaration to show: queries, rules, fns, tables */
    A_FILE,     /* a path on the file system, any file */
    A_RULES,    /* a .hon rule file to load: here, or in the data directory (cli_found) */
    A_SCENARIO, /* a .scn scenario to load as the board: here, or in the data directory */
    A_HON,      /* a .hon rule file (or a directory of them) here */
    A_PICTURE,  /* an .svg picture to write */
    A_PLACE,    /* a unit of the board (`$name` or `name`) or a square (`@C4` or `C4`) */
    A_EDITION,  /* an edition */
    A_VARIANT,  /* a variant */
    A_READING,  /* a reading of the variant named by the argument before */
    A_EVENT,    /* an event */
    A_HELP,     /* a command word (help's topic) */
    A_NONE      /* nothing to complete */
} arg_kind;

/* The kind of argument number n (from 1) of command cmd (the first word of the line, without
 * its ':'; second: the second word), A_EXPR for a line that starts with no command (repl.c). */
arg_kind repl_arg_of(const char *cmd, const char *second, size_t n);
/* Calls f(ud, word) for each command word of the REPL (repl.c). */
void repl_each_command(void (*f)(void *ud, const char *name), void *ud);

/* The longer account of command `word` that `help WORD` prints after its synopses (help.c):
 * lines ending in a newline, static; NULL for a word that is no command. */
const char *repl_help_text(const char *word);

/* args, a file-taking command's arguments, with each word that starts `~/` (at the start, or
 * after white space or an opening quote) read from $HOME, as a shell expands it and as Tab
 * completes it (repl.md §2): a new string the caller frees, or NULL when no word starts so,
 * HOME is not set or memory runs out (the arguments are then read as typed). */
char *repl_with_home(const char *args);

/* libedit's function for Tab (EL_ADDFN; its client data, EL_CLIENTDATA, is the cli_session):
 * completes the word before the cursor. One candidate is inserted; several insert their common
 * prefix, or are listed when there is none to add. Returns a libedit CC_ code. */
unsigned char repl_complete(EditLine *el, int ch);

#endif
