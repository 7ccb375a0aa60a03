/* reader.c — where the REPL's lines come from (reader.h): libedit on a terminal (history, the
 * prompts, Tab completion by context from complete.c, ^C through a SIGINT handler and a read
 * of one character at a time that sees it), getline otherwise. Split from repl.c, which runs
 * the lines (docs/spec/repl.md §2).
 */
#include "reader.h"

#include <errno.h>
#include <histedit.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "cli.h"
#include "complete.h"

/* Set by SIGINT while a terminal session runs, so that ^C abandons the line being typed instead
 * of ending the program. With the two below, the only mutable statics of the program; signal
 * handlers need them. */
static volatile sig_atomic_t interrupted;

/* Outside the terminal REPL: a ^C was taken and the line or command it stops has not ended yet
 * (reader_interrupt_honoured clears it); a script is waiting for its next line. */
static volatile sig_atomic_t unhonoured, waiting;

/* ^C outside the terminal REPL (a command, or a script read from a file or a pipe): stops the
 * line or command running (hon_interrupt: E231, the session as it was). While a script waits
 * for its next line there is nothing to stop, and it is ignored. A second ^C before the first
 * was honoured (the line still running, something that does not look at the interrupt) takes
 * the default action: the program ends. */
static void on_sigint_piped(int sig)
{
    if (waiting)
        return;
    if (unhonoured) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, NULL);
        raise(sig); /* delivered when this handler returns */
        return;
    }
    unhonoured = 1;
    hon_interrupt();
}

void reader_catch_interrupts(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint_piped;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* a script's read goes on: ^C while it waits is ignored */
    if (sigaction(SIGINT, &sa, &old) == 0 && old.sa_handler == SIG_IGN)
        sigaction(SIGINT, &old, NULL);
}

void reader_interrupt_honoured(void)
{
    unhonoured = 0;
}

/* ^C: abandons the line being typed, or stops the evaluation running (hon_interrupt: it fails
 * with E231 and the session stays as it was). */
static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
    hon_interrupt();
}

/* libedit's reading of one character (EL_GETCFN), in place of its own: the same bytes to wide
 * characters (an invalid byte is dropped, as libedit does), but the wait is poll() in slices of
 * a tenth of a second, and a ^C that came before the wait (libedit prints the prompt, then
 * reads: a SIGINT in between would find no read to interrupt, and be lost until a key) ends the
 * read as one during it does: -1 with errno EINTR. 1 with *wc set, 0 at the end of the input,
 * -1 on an error. */
static int read_char(EditLine *el, wchar_t *wc)
{
    FILE *in = NULL;
    char buf[MB_LEN_MAX];
    size_t n = 0;
    if (el_get(el, EL_GETFP, 0, &in) != 0 || !in)
        return -1;
    int fd = fileno(in);
    for (;;) {
        if (interrupted) {
            errno = EINTR;
            return -1;
        }
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        int ready = poll(&pfd, 1, 100);
        if (ready < 0 && errno != EINTR)
            return -1;
        if (ready <= 0)
            continue; /* a tenth of a second, or a signal: look at `interrupted` again */
        ssize_t got = read(fd, buf + n, 1);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            return got == 0 ? 0 : -1;
        n++;
        mbstate_t st;
        memset(&st, 0, sizeof st);
        size_t k = mbrtowc(wc, buf, n, &st);
        if (k == (size_t)-2 && n < sizeof buf)
            continue; /* a character cut short: its next byte */
        if (k == (size_t)-1 || k == (size_t)-2) {
            n = 0; /* invalid: dropped */
            continue;
        }
        if (k == 0)
            *wc = L'\0';
        return 1;
    }
}

static char prompt_text[] = "hon> ";

static char *prompt(EditLine *el)
{
    (void)el;
    return prompt_text;
}

static char more_prompt_text[] = "...> ";

/* The prompt of a line that goes on with an entry (entry.h). */
static char *more_prompt(EditLine *el)
{
    (void)el;
    return more_prompt_text;
}

static char answer_prompt_text[] = "answer> ";

static char *answer_prompt(EditLine *el)
{
    (void)el;
    return answer_prompt_text;
}

/* cli_session.ask: a line answering a choice or a step, read while a command runs (so into
 * its own buffer: the command's line stays valid). No prompt when the input is piped. On a
 * terminal, ^C at the prompt answers NULL with r->s->cancelled set. */
char *reader_ask(void *ud, const char *why)
{
    reader *r = ud;
    (void)why;
    if (!r->el) {
        ssize_t n = getline(&r->abuf, &r->acap, r->in);
        if (n < 0)
            return NULL;
        r->lines++;
        r->s->answer_line = r->lines;
        if (n > 0 && r->abuf[n - 1] == '\n')
            r->abuf[n - 1] = '\0';
        return r->abuf;
    }
    int count = 0;
    interrupted = 0;
    el_set(r->el, EL_PROMPT, answer_prompt);
    const char *line = el_gets(r->el, &count);
    el_set(r->el, EL_PROMPT, prompt);
    if (!line || count <= 0) {
        if (interrupted || (count < 0 && errno == EINTR)) { /* ^C: no answer, the line ends */
            el_reset(r->el);
            fputc('\n', stdout);
            r->s->cancelled = true;
            hon_interrupt_clear(); /* the chooser abandons the procedure: E225, not E231 */
        }
        return NULL;
    }
    size_t n = (size_t)count;
    if (line[n - 1] == '\n')
        n--;
    char *b = realloc(r->abuf, n + 1);
    if (!b)
        return NULL;
    memcpy(b, line, n);
    b[n] = '\0';
    r->abuf = b;
    r->acap = n + 1;
    return b;
}

/* Starts a reader of the script `in` named `name`; on a terminal (stdin and stdout), with line
 * editing, history and tab completion by context (candidates): commands, names of s's program
 * and board, files. */
void reader_open(reader *r, cli_session *s, FILE *in, const char *name)
{
    const char *home = getenv("HOME");
    HistEvent ev;
    struct sigaction sa;

    memset(r, 0, sizeof *r);
    r->in = in;
    r->name = name;
    r->s = s;
    s->script = true;
    if (in != stdin || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return;
    s->script = false;
    /* libedit reads and shows what is typed in the locale's encoding: in the C locale (the
     * program's until told otherwise) it drops every byte above 127, so typed UTF-8 text (a
     * string, a file name, a comment) would vanish (fresh15 D9). The user's locale, then, and
     * C.UTF-8 when that is the plain C or POSIX one: files and pipes hand strings and comments
 * over as UTF-8, and typing should too.
     * Only the character type: numbers and messages are written as before. */
    const char *loc = setlocale(LC_CTYPE, "");
    if (!loc || strcmp(loc, "C") == 0 || strcmp(loc, "POSIX") == 0)
        setlocale(LC_CTYPE, "C.UTF-8");
    r->el = el_init("hon", stdin, stdout, stderr);
    r->hist = history_init();
    if (!r->el || !r->hist) {
        if (r->el)
            el_end(r->el);
        if (r->hist)
            history_end(r->hist);
        r->el = NULL;
        r->hist = NULL;
        return;
    }
    history(r->hist, &ev, H_SETSIZE, 1000);
    history(r->hist, &ev, H_SETUNIQUE, 1);
    if (home && home[0]) {
        size_t n = strlen(home) + sizeof "/.hon_history";
        r->history_path = malloc(n);
        if (r->history_path) {
            snprintf(r->history_path, n, "%s/.hon_history", home);
            history(r->hist, &ev, H_LOAD, r->history_path); /* a missing file is fine */
        }
    }
    el_set(r->el, EL_EDITOR, "emacs");
    el_set(r->el, EL_SIGNAL, 1);
    el_wset(r->el, EL_GETCFN, read_char);
    el_set(r->el, EL_PROMPT, prompt);
    el_set(r->el, EL_HIST, history, r->hist);
    el_set(r->el, EL_CLIENTDATA, s);
    /* The wide form keeps our static strings; the narrow one leaks its converted copies. */
    el_wset(r->el, EL_ADDFN, L"hon-complete", L"complete a command, a name or a file",
            repl_complete);
    el_set(r->el, EL_BIND, "^I", "hon-complete", NULL);
    el_source(r->el, NULL); /* ~/.editrc, if any */

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &r->old_int); /* no SA_RESTART: ^C interrupts the read */
}

void reader_close(reader *r)
{
    if (r->el) {
        HistEvent ev;
        if (r->history_path)
            history(r->hist, &ev, H_SAVE, r->history_path); /* failure is not an error */
        el_end(r->el);
        history_end(r->hist);
        sigaction(SIGINT, &r->old_int, NULL);
    }
    free(r->history_path);
    free(r->buf);
    free(r->abuf);
    memset(r, 0, sizeof *r);
}

/* Copies n bytes of line into r->buf. Returns r->buf, or NULL on OOM. */
static char *keep(reader *r, const char *line, size_t n)
{
    if (n + 1 > r->cap) {
        char *b = realloc(r->buf, n + 1);
        if (!b)
            return NULL;
        r->buf = b;
        r->cap = n + 1;
    }
    memcpy(r->buf, line, n);
    r->buf[n] = '\0';
    return r->buf;
}

/* Returns the next line without its newline (valid until the next call), or NULL at the end of
 * the input. On a terminal, ^C abandons the line being typed and reads another. */
char *reader_next(reader *r)
{
    if (!r->el && r->s->unread) { /* a choice read this line, and it was no answer */
        r->s->unread = false;
        r->bad_line = false;
        cli_set_script_line(r->name, r->lines);
        return keep(r, r->abuf, strlen(r->abuf));
    }
    if (!r->el) {
        waiting = 1;
        ssize_t n = getline(&r->buf, &r->cap, r->in);
        waiting = 0;
        if (n < 0)
            return NULL;
        r->lines++;
        cli_set_script_line(r->name, r->lines);
        r->bad_line = memchr(r->buf, '\0', (size_t)n) != NULL;
        if (memchr(r->buf, '\0', (size_t)n)) {
            /* the text would end at the NUL: say so rather than answer a cut line (or, with
             * a NUL first, nothing at all) */
            cli_set_script_text(r->name, r->buf); /* the text before the NUL */
            cli_error_col(CLI_E_CHARACTER, strlen(r->buf) + 1, 1,
                          "the input line contains a NUL byte; it is ignored");
            cli_set_script_text(NULL, NULL);
            r->buf[0] = '\0';
            return r->buf;
        }
        if (n > 0 && r->buf[n - 1] == '\n')
            r->buf[n - 1] = '\0';
        return r->buf;
    }
    for (;;) {
        int count = 0;
        const char *line;
        interrupted = 0;
        el_set(r->el, EL_PROMPT, r->pending ? more_prompt : prompt);
        line = el_gets(r->el, &count);
        el_set(r->el, EL_PROMPT, prompt);
        if (!line || count <= 0) {
            if (interrupted || (count < 0 && errno == EINTR)) {
                el_reset(r->el);
                fputc('\n', stdout);
                if (r->pending) { /* ^C drops the unfinished entry, not only this line */
                    r->abandoned = true;
                    return keep(r, "", 0);
                }
                continue;
            }
            fputc('\n', stdout); /* end the prompt line at ^D */
            return NULL;
        }
        size_t n = (size_t)count;
        if (line[n - 1] == '\n')
            n--;
        if (!keep(r, line, n))
            return NULL;
        if (n > 0) {
            HistEvent ev;
            history(r->hist, &ev, H_ENTER, r->buf);
            /* written at once, so a session that dies (a kill, a closed terminal) keeps it;
             * failure is not an error */
            if (r->history_path)
                history(r->hist, &ev, H_SAVE, r->history_path);
        }
        return r->buf;
    }
}
