/* entry.c — entry_unfinished: whether the lines typed so far make a whole REPL entry or need
 * the next line (entry.h). A small scanner of the rules language's surface: brackets, string
 * literals, `#` comments, and the last word of the text.
 */
#include "entry.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The words after which an expression or a declaration cannot end (language.md's operators and
 * keywords that take an operand after them). */
static const char *const wants_more[] = {
    "and", "or", "not", "if", "then", "else", "in", "when", "unless", "answer", "let",
};

/* The operators (and punctuation) after which an entry cannot end; longest first, so that `==`
 * is taken whole. */
static const char *const trailing_ops[] = {
    "==", "!=", "<=", ">=", "->", "=>", "+", "-", "*", "/", "%", "=", "<", ">", ",",
};

/* Whether the word ending at text[end] (exclusive) is one of wants_more. */
static bool ends_with_keyword(const char *text, size_t end)
{
    size_t start = end;
    while (start > 0 && (isalnum((unsigned char)text[start - 1]) || text[start - 1] == '_'))
        start--;
    if (start == end ||
        (start > 0 && (text[start - 1] == '$' || text[start - 1] == '@' || text[start - 1] == '.')))
        return false;
    for (size_t i = 0; i < sizeof wants_more / sizeof wants_more[0]; i++)
        if (strlen(wants_more[i]) == end - start &&
            strncmp(wants_more[i], text + start, end - start) == 0)
            return true;
    return false;
}

/* Whether the text ending at text[end] (exclusive) ends with one of trailing_ops. */
static bool ends_with_operator(const char *text, size_t end)
{
    for (size_t i = 0; i < sizeof trailing_ops / sizeof trailing_ops[0]; i++) {
        size_t n = strlen(trailing_ops[i]);
        if (n <= end && strncmp(text + end - n, trailing_ops[i], n) == 0)
            return true;
    }
    return false;
}

bool entry_unfinished(const char *text, entry_kind kind)
{
    long depth = 0;
    size_t last = 0; /* one past the last character that is code (not blank, not a comment) */
    for (size_t i = 0; text[i]; i++) {
        char c = text[i];
        if (c == '#') { /* a comment, to the end of its line */
            while (text[i + 1] && text[i + 1] != '\n')
                i++;
            continue;
        }
        if (c == '"') { /* a string literal, with its escapes; an unended one ends the line */
            for (i++; text[i] && text[i] != '"' && text[i] != '\n'; i++)
                if (text[i] == '\\' && text[i + 1] && text[i + 1] != '\n')
                    i++;
            if (!text[i])
                i--;
            last = i + 1;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        if (!isspace((unsigned char)c))
            last = i + 1;
    }
    if (depth < 0)
        return false;
    if (depth > 0)
        return true;
    if (last == 0 || kind == ENTRY_BRACKETS)
        return false;
    if (ends_with_operator(text, last) || ends_with_keyword(text, last))
        return true;
    return kind == ENTRY_DECLARATION && text[last - 1] != ';' && text[last - 1] != '}';
}

/* The end of line `line` (of length n) before any `#` comment and the blanks before it, as a
 * 0-based byte offset: where a `;` ending the line would go. Strings are skipped. */
size_t entry_code_end(const char *line, size_t n)
{
    size_t end = n;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        if (line[i] == '"' && (!in_string || line[i - 1] != '\\'))
            in_string = !in_string;
        else if (line[i] == '#' && !in_string) {
            end = i;
            break;
        }
    }
    while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r'))
        end--;
    return end;
}

/* For an entry of several lines (joined by '\n') that starts a declaration: the line (from 1)
 * after which its text was first whole as an expression is (no bracket open, no operator or
 * keyword left wanting more: entry_unfinished), where a `;` most likely belongs; the entry's
 * last line when no earlier one is. Its text and length in *text, *n; the lines in *lines. */
unsigned entry_semicolon_line(const char *entry, const char **text, size_t *n, unsigned *lines)
{
    unsigned k = 0;
    *lines = 1;
    for (const char *c = entry; (c = strchr(c, '\n')) != NULL; c++)
        (*lines)++;
    const char *l = entry;
    for (unsigned i = 1; i <= *lines; i++) {
        const char *nl = strchr(l, '\n');
        *text = l;
        *n = nl ? (size_t)(nl - l) : strlen(l);
        char *prefix = strndup(entry, (size_t)(l - entry) + *n);
        bool whole = prefix && !entry_unfinished(prefix, ENTRY_EXPR);
        free(prefix);
        /* the next line starts at the margin, as a new entry does (a declaration's own
           clauses are indented: `  when ...`, `  answer ...`) */
        bool margin = nl && nl[1] && !isspace((unsigned char)nl[1]) && nl[1] != '#' &&
                      nl[1] != '}' && nl[1] != ')' && nl[1] != ']';
        if ((whole && margin && entry_code_end(l, *n) > 0) || !nl) {
            k = i;
            break;
        }
        l = nl + 1;
    }
    return k;
}
