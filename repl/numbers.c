/* numbers.c — the numbers typed on the command line and at the prompt: a seed (`--seed N`,
 * `seed N`) and a cap's value (`--budget N`, `limit NAME VALUE`, memory with a K, M or G
 * suffix), read whole and range-checked (cli.h); and the width a terminal picture must fit
 * (COLUMNS, or the terminal's). Only include/hon.h is used.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"

bool cli_parse_seed(const char *text, uint64_t *out)
{
    unsigned long long v;
    char *end;
    if (!text || text[0] < '0' || text[0] > '9')
        return false;
    errno = 0;
    v = strtoull(text, &end, 10);
    if (errno || *end || v > UINT64_MAX)
        return false;
    *out = (uint64_t)v;
    return true;
}

bool cli_parse_cap(hon_cap which, const char *text, uint64_t *out)
{
    char digits[32];
    size_t n = text ? strlen(text) : 0;
    unsigned shift = 0;
    if (which == HON_CAP_MEMORY && n > 1 && strchr("KkMmGg", text[n - 1])) {
        char u = (char)toupper((unsigned char)text[n - 1]);
        shift = u == 'K' ? 10 : u == 'M' ? 20 : 30;
        n--;
    }
    if (n == 0 || n >= sizeof digits)
        return false;
    memcpy(digits, text, n);
    digits[n] = '\0';
    uint64_t v;
    if (!cli_parse_seed(digits, &v) || v > (UINT64_MAX >> shift))
        return false;
    *out = v << shift;
    return true;
}

int cli_draw_columns(void)
{
    const char *text = getenv("COLUMNS");
    if (text && *text >= '0' && *text <= '9') {
        char *end;
        errno = 0;
        long v = strtol(text, &end, 10);
        if (*end == '\0' && errno == 0 && v > 0 && v <= 100000)
            return (int)v;
    }
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 0;
}
