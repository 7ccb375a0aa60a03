/* answer.c — the `hon` program's side of playing (language.md §6; docs/spec/repl.md §2a,
 * Choices): the chooser that lists a choice's options and takes the answer — from the
 * command's `choosing` answers, a line of the script or the terminal — and the step mode's
 * pause. Shares the script's state (cli_session.script, unread, answers) with repl.c, whose
 * reader hands back a line that was no answer.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "cli.h"

/* One line from the person: the session's reader, else standard input. NULL at the end of the
 * input, or with s->cancelled set when the reader saw ^C. */
static char *ask_line(cli_session *s, const char *prompt)
{
    ssize_t n;
    cli_flush_stdout();
    s->cancelled = false;
    if (s->ask)
        return s->ask(s->ask_ud, prompt);
    n = getline(&s->answer, &s->answer_cap, stdin);
    if (n < 0)
        return NULL;
    if (n > 0 && s->answer[n - 1] == '\n')
        s->answer[n - 1] = '\0';
    return s->answer;
}

/* The option that answer a (spaces trimmed) names, a number from 1 or an option as printed
 * (`C4` and `@C4`, `$rifle1` and `rifle1` alike, any case); -1 when none. */
static int option_of(const char *a, const char *const *options, size_t n)
{
    char *end;
    long k = strtol(a, &end, 10);
    if (a[0] && *end == '\0' && k >= 1 && (size_t)k <= n)
        return (int)k - 1;
    for (size_t i = 0; a[0] && i < n; i++) {
        const char *o = options[i], *w = a;
        if ((o[0] == '$') != (w[0] == '$'))
            o += o[0] == '$', w += w[0] == '$';
        if (w[0] == '@')
            w++;
        if (strcasecmp(o, w) == 0)
            return (int)i;
    }
    return -1;
}

/* Whether a script line is meant as an answer to a choice: `choose X`, or a word that is a
 * number (`-1` too), a `$unit`, an `@square` or a square (`C4`). Any other line (a command, an
 * expression) is the script going on, never an answer. */
static bool answer_shaped(const char *a, bool choose_word)
{
    if (choose_word)
        return true;
    if (a[0] == '$' || a[0] == '@')
        return a[1] && !strpbrk(a, " \t(");
    if (a[0] == '-' && isdigit((unsigned char)a[1])) /* a number out of range: `-1` as `0` */
        return a[strspn(a + 1, "0123456789") + 1] == '\0';
    size_t i = 0;
    while (isalpha((unsigned char)a[i]))
        i++;
    if (!a[i] || i > 2)
        return false;
    while (isdigit((unsigned char)a[i]))
        i++;
    return a[i] == '\0';
}

/* Trims line in place; sets *choose_word when it was `choose X` (then only X is left). */
static char *answer_text(char *line, bool *choose_word)
{
    while (isspace((unsigned char)*line))
        line++;
    size_t len = strlen(line);
    while (len && isspace((unsigned char)line[len - 1]))
        line[--len] = '\0';
    *choose_word = strncmp(line, "choose", 6) == 0 && isspace((unsigned char)line[6]);
    if (*choose_word)
        for (line += 6; isspace((unsigned char)*line);)
            line++;
    return line;
}

/* Under json (repl.md §4, Choices), the question and its numbered options as one line:
 * {"choice": {"question": Q, "side": S or null, "options": [{"number": 1, "option": O}…]}}. */
static void put_choice_json(const char *question, const char *side, const char *const *options,
                            size_t n)
{
    printf("{\"choice\": {\"question\": ");
    cli_put_json_string(question, stdout);
    printf(", \"side\": ");
    if (side && side[0])
        cli_put_json_string(side, stdout);
    else
        printf("null");
    printf(", \"options\": [");
    for (size_t i = 0; i < n; i++) {
        printf("%s{\"number\": %zu, \"option\": ", i ? ", " : "", i + 1);
        cli_put_json_string(options[i], stdout);
        printf("}");
    }
    printf("]}}\n");
}

/* Says which option was taken, and how: `by` is "answer" (a line read), "choosing" (an answer
 * given with the command), "one option" (not asked) or "end of input"; answer is the answer as
 * given, or NULL. Text: the line repl.md §2a shows; json: {"chosen": {"number", "option", "by",
 * "answer"}}. */
static void put_chosen(const cli_session *s, size_t k, const char *option, const char *by,
                       const char *answer)
{
    if (s->json) {
        printf("{\"chosen\": {\"number\": %zu, \"option\": ", k + 1);
        cli_put_json_string(option, stdout);
        printf(", \"by\": \"%s\", \"answer\": ", by);
        if (answer)
            cli_put_json_string(answer, stdout);
        else
            printf("null");
        printf("}}\n");
    } else if (strcmp(by, "answer") == 0)
        printf("(answer %s: %s)\n", answer, option);
    else if (strcmp(by, "choosing") == 0)
        printf("(choosing %s: %s)\n", answer, option);
    else if (strcmp(by, "one option") == 0 && answer)
        printf("(one option: %s, taken; 'choosing %s' answers it)\n", option, answer);
    else if (strcmp(by, "one option") == 0)
        printf("(one option: %s, taken)\n", option);
    else
        printf("(end of input: the first option, %s, is taken)\n", option);
}

/* A procedure abandoned at a question or a pause by ^C: text, or {"abandoned": {"by": "^C",
 * "at": AT}} under json, AT "choice" or "step". */
static void put_abandoned(const cli_session *s, const char *at)
{
    if (s->json)
        printf("{\"abandoned\": {\"by\": \"^C\", \"at\": \"%s\"}}\n", at);
    else if (strcmp(at, "choice") == 0)
        printf("(^C: no answer; the procedure is abandoned)\n");
    else
        printf("(^C: the procedure is abandoned)\n");
}

int cli_choose(void *ud, const char *question, const char *side, const char *const *options,
               size_t n)
{
    cli_session *s = ud;
    if (s->json)
        put_choice_json(question, side, options, n);
    else {
        printf("choose%s%s%s: %s\n", side && side[0] ? " (" : "", side ? side : "",
               side && side[0] ? ")" : "", question);
        for (size_t i = 0; i < n; i++)
            printf("  %zu) %s\n", i + 1, options[i]);
    }
    if (n == 1) { /* not asked; a `choosing` answer waiting is spent on it, and must name it */
        if (s->answers_used < s->nanswers) {
            const char *a = s->answers[s->answers_used++];
            if (option_of(a, options, n) < 0) {
                cli_flush_stdout();
                cli_error_code(CLI_E_NOT_NOW,
                               "'choosing %s' answers no option of \"%s\": its one option is %s", a,
                               question, options[0]);
                return -1;
            }
            put_chosen(s, 0, options[0], "one option", a);
            return 0;
        }
        put_chosen(s, 0, options[0], "one option", NULL);
        return 0;
    }
    if (s->answers_used < s->nanswers) {
        const char *a = s->answers[s->answers_used++];
        int k = option_of(a, options, n);
        if (k < 0) {
            cli_flush_stdout();
            cli_error_code(
                CLI_E_NOT_NOW,
                "'choosing %s' answers no option of \"%s\": a number from 1 to %zu, or an "
                "option as listed",
                a, question, n);
            return -1;
        }
        put_chosen(s, (size_t)k, options[k], "choosing", a);
        return k;
    }
    for (;;) {
        char *line = ask_line(s, "choice> ");
        if (!line && s->cancelled) {
            put_abandoned(s, "choice");
            return -1;
        }
        if (!line) {
            put_chosen(s, 0, options[0], "end of input", NULL);
            return 0;
        }
        if (s->script) { /* blank and `#` lines are skipped here too, `##` narration printed
                          * (repl.md §2d): a script may annotate the answer it gives */
            const char *t = line + strspn(line, " \t");
            if (!*t || t[0] == '#') {
                if (t[0] == '#' && t[1] == '#')
                    cli_put_narration(s, t);
                continue;
            }
        }
        bool choose_word;
        char *a = answer_text(line, &choose_word);
        int k = option_of(a, options, n);
        if (k >= 0) {
            if (s->echo_choices)
                put_chosen(s, (size_t)k, options[k], "answer", a);
            return k;
        }
        if (s->script && !answer_shaped(a, choose_word)) {
            s->unread = true;
            cli_flush_stdout();
            cli_error_code(CLI_E_NOT_NOW,
                           "\"%s\" has no answer: the next line, '%s', is none (a number from 1 to "
                           "%zu, an option as listed, or 'choose N'; or 'choosing N' after the "
                           "command); it runs as a line of its own",
                           question, a, n);
            return -1;
        }
        if (s->script) { /* an error at the answer's line, counted (repl.md §2a, §2d) */
            cli_flush_stdout();
            s->errors++; /* the command's line fails: exit 1 (cli_error_* count nothing) */
            cli_error_at_line(
                s->answer_line, line, (size_t)(a - line) + 1, strlen(a), CLI_E_NOT_NOW,
                "illegal choice '%s' for \"%s\": a number from 1 to %zu, or an option "
                "as listed; %s",
                a, question, n,
                s->bail ? "the procedure is abandoned (--bail)"
                        : "the next line is read for the answer");
            if (s->bail)
                return -1;
            continue;
        }
        if (s->json) {
            printf("{\"illegal_choice\": {\"answer\": ");
            cli_put_json_string(a, stdout);
            printf(", \"options\": %zu}}\n", n);
        } else
            printf("illegal choice '%s': answer a number from 1 to %zu, or an option as listed\n",
                   a, n);
    }
}

void cli_before_choice(void *ud, const char *lines)
{
    cli_session *s = ud;
    if (!s->live_lines || s->json)
        return;
    fputs(lines, stdout);
    for (const char *l = lines; (l = strchr(l, '\n')) != NULL; l++)
        s->lines_shown++;
}

bool cli_step(void *ud, const char *line)
{
    cli_session *s = ud;
    if (!s->stepping)
        return true;
    if (s->json) {
        printf("{\"next\": ");
        cli_put_json_string(line, stdout);
        printf("}\n");
    } else
        printf("next: %s\n", line);
    char *a = ask_line(s, "[Enter: apply, q: abandon] ");
    if (!a && s->cancelled) {
        put_abandoned(s, "step");
        return false;
    }
    if (a && s->script) { /* a script's line answers the pause only when it is blank or q */
        char *t = a;
        while (isspace((unsigned char)*t))
            t++;
        size_t len = strlen(t);
        while (len && isspace((unsigned char)t[len - 1]))
            len--;
        if (len > 0 && !(len == 1 && (t[0] == 'q' || t[0] == 'Q'))) {
            s->unread = true;
            cli_flush_stdout();
            cli_error_code(
                CLI_E_NOT_NOW,
                "step mode's pause has no answer: the next line, '%.*s', is none (an empty "
                "line applies the effect, 'q' abandons the procedure); the procedure is "
                "abandoned and the line runs as a line of its own",
                (int)len, t);
            return false;
        }
        return len == 0;
    }
    return !(a && (a[0] == 'q' || a[0] == 'Q'));
}

void cli_put_narration(const cli_session *s, const char *text)
{
    if (!s->json) {
        printf("%s\n", text);
        return;
    }
    printf("{\"narration\": ");
    cli_put_json_string(text, stdout);
    printf("}\n");
}

void cli_put_script_line(const cli_session *s, unsigned lineno, const char *text,
                         const char *skipped)
{
    if (!s->json) {
        printf("%u> %s\n", lineno, text);
        if (skipped)
            printf("(skipped: %s was given)\n", skipped);
        return;
    }
    printf("{\"script_line\": {\"line\": %u, \"text\": ", lineno);
    cli_put_json_string(text, stdout);
    if (skipped)
        printf(", \"skipped\": \"%s\"", skipped);
    printf("}}\n");
}
