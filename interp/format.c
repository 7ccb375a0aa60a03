/* format.c — `hon fmt` behind hon.h (hon_format, hon_text_free): the canonical layout of a .hon
 * text (dsl/fmt.c, docs/spec/format.md), refused for text that does not parse, and checked
 * before it is handed back: the laid-out text must hold the same tokens and comments as the
 * input and parse again, or it is refused too. A text whose lines end in CR LF gets them back
 * so. Diagnostics go through session.h.
 */
#include <string.h>

#include "fmt.h"
#include "front.h"
#include "mem.h"
#include "session.h"

/* Whether text parses without a syntax error; its errors are reported to the vm when `report`.
 * The text is registered as a diagnostics source for the time of the parse. */
static bool parses(hon_vm *vm, const char *name, const char *text, size_t len, bool report,
                   bool *oom)
{
    diag_list dl;
    diag_list_init(&dl, &vm->sources);
    uint32_t before = vm->sources.len;
    uint32_t id = diag_sources_add(&vm->sources, name, text, len);
    ast_file *f = id == UINT32_MAX ? NULL : front_parse_file(name, text, len, id, &dl);
    bool ok = f && !dl.errors;
    *oom = !f;
    ast_file_free(f);
    if (report)
        session_emit(vm, &dl);
    else
        diag_list_clear(&dl);
    diag_sources_trim(&vm->sources, before);
    return ok;
}

/* Whether the text's lines end in CR LF rather than LF: more of them end so (format.md §1,
 * line endings; clang-format's DeriveLF rule: a tie, or a text with no line, is LF). */
static bool crlf_text(const char *text, size_t len)
{
    size_t crlf = 0, lf = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            *(i > 0 && text[i - 1] == '\r' ? &crlf : &lf) += 1;
    return crlf > lf;
}

/* laid (n bytes, each line ending in LF, no CR: fmt_layout's) with CR LF ending each line, as
 * a new string (*n updated; laid freed), or NULL when out of memory (laid freed too). */
static char *with_crlf(char *laid, size_t *n)
{
    size_t lines = 0;
    for (size_t i = 0; i < *n; i++)
        lines += laid[i] == '\n';
    char *out = mem_malloc(*n + lines + 1);
    if (out) {
        size_t k = 0;
        for (size_t i = 0; i < *n; i++) {
            if (laid[i] == '\n')
                out[k++] = '\r';
            out[k++] = laid[i];
        }
        out[k] = '\0';
        *n = k;
    }
    mem_free(laid);
    return out;
}

hon_status hon_format(hon_vm *vm, const char *name, const char *text, size_t len, char **out,
                      size_t *out_len)
{
    bool oom = false;
    if (out)
        *out = NULL;
    if (!vm || !name || !text || !out)
        return HON_ERR_NOT_FOUND;
    session_cap_begin(vm);
    if (!parses(vm, name, text, len, true, &oom))
        return oom ? HON_ERR_MEMORY : HON_ERR_COMPILE;
    size_t n = 0;
    bool too_long = false;
    char *laid = fmt_layout(text, len, &n, &too_long);
    if (too_long) {
        session_report(vm, E_NONE, name,
                       "'%s': its layout would take more than %d times its %zu bytes (lines "
                       "indented under long runs of brackets, or huge table columns); the file "
                       "is left as it is",
                       name, (int)FMT_MAX_GROWTH, len);
        return HON_ERR_COMPILE;
    }
    if (!laid)
        return HON_ERR_MEMORY;
    if (!fmt_same_tokens(text, len, laid, n) || !parses(vm, name, laid, n, false, &oom)) {
        mem_free(laid);
        if (oom)
            return HON_ERR_MEMORY;
        session_report(vm, E_NONE, name,
                       "'%s': the layout would change its tokens (a bug of hon fmt); the file is "
                       "left as it is",
                       name);
        return HON_ERR_COMPILE;
    }
    /* The file's own line ending is kept (format.md §1): the layout is made with LF. */
    if (crlf_text(text, len) && !(laid = with_crlf(laid, &n)))
        return HON_ERR_MEMORY;
    /* and its byte-order mark, if it starts with one (fmt_layout lays out what follows it) */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        char *b = mem_malloc(n + 4);
        if (!b) {
            mem_free(laid);
            return HON_ERR_MEMORY;
        }
        memcpy(b, "\xEF\xBB\xBF", 3);
        memcpy(b + 3, laid, n + 1);
        mem_free(laid);
        laid = b;
        n += 3;
    }
    *out = laid;
    if (out_len)
        *out_len = n;
    return HON_OK;
}

void hon_text_free(char *s)
{
    mem_free(s);
}
