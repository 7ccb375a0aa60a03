/* reader.h — where the REPL's lines come from (repl.c): libedit on a terminal, with history
 * in ~/.hon_history, the prompts (`hon> `, `...> ` for an entry that goes on, `answer> `), Tab
 * completion by context (complete.c) and ^C, which abandons the line being typed; getline
 * otherwise (a script: standard input or `hon play`'s file), with no prompt. reader.c
 * implements it. docs/spec/repl.md §2.
 */
#ifndef HON_REPL_READER_H
#define HON_REPL_READER_H

#include <histedit.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

/* Where lines come from: libedit on a terminal, getline otherwise. */
typedef struct reader {
    FILE *in;         /* the script's lines: standard input, or `hon play`'s file */
    const char *name; /* what errors call the script: "<stdin>" or the file's path (borrowed) */
    cli_session *s;   /* whose chooser may hand a line back (s->unread) */
    EditLine *el;
    History *hist;
    char *history_path; /* owned; NULL when $HOME is unknown */
    char *buf;          /* the current line, owned */
    size_t cap;
    char *abuf; /* an answer asked while a line runs (a choice, a step), owned */
    size_t acap;
    unsigned lines; /* lines read so far from input that is not a terminal (answers too) */
    bool bad_line;  /* the last line read was refused (a NUL byte in it) */
    bool pending;   /* an entry goes on (entry.h): a terminal shows the continuation prompt */
    bool abandoned; /* ^C at the continuation prompt: the entry so far is dropped */
    struct sigaction old_int;
} reader;

/* Starts a reader of the script `in` named `name` (borrowed; what errors call it) for session
 * s (s->script says whether it is a script); on a terminal (stdin and stdout), with line
 * editing, history and tab completion by context (candidates): commands, names of s's program
 * and board, files, and a SIGINT handler until reader_close. */
void reader_open(reader *r, cli_session *s, FILE *in, const char *name);

/* Makes ^C (SIGINT) stop the work running rather than kill the program, for a command and for
 * a REPL reading a script or a pipe (repl.md §2; the terminal REPL's reader installs its own
 * handler, which a ^C at the prompt needs): every ^C while a line or command runs stops it
 * (hon_interrupt, E231); one while a script waits for its next line is ignored; a second one
 * before the first was honoured (reader_interrupt_honoured) ends the program by the signal's
 * default action. A SIGINT ignored when hon started (a job a shell without job control started
 * in the background) stays ignored. */
void reader_catch_interrupts(void);

/* Says the line a ^C stopped has ended (its E231 reported) or a new one starts: the next ^C
 * stops again rather than ending the program. */
void reader_interrupt_honoured(void);

/* Saves the history (a terminal), puts the old SIGINT handler back and frees what r owns. */
void reader_close(reader *r);

/* Returns the next line without its newline (owned by r, valid until the next call), or NULL
 * at the end of the input. On a terminal, ^C abandons the line being typed and reads another
 * (at the continuation prompt it drops the entry: r->abandoned). A line holding a NUL byte is
 * reported (E001) and given as "" with r->bad_line set. */
char *reader_next(reader *r);

/* cli_session.ask (ud: the reader): a line answering a choice or a step, read while a command
 * runs, into its own buffer (owned by the reader, valid until the next answer). No prompt when
 * the input is piped. NULL at the end of the input; on a terminal, ^C at the prompt answers
 * NULL with the session's `cancelled` set. */
char *reader_ask(void *ud, const char *why);

#endif
