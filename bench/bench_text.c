/* bench_text.c — the scenario-writing and pair-sampling helpers of the hon drivers of bench/
 * (bench_text.h). Shared by hon_los.c and real_hon.c.
 */
#include "bench_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void bench_put(bench_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        t->s = s;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

void bench_column(int x, char *buf)
{
    char tmp[8];
    int n = 0;
    for (x++; x > 0 && n < 7; x = (x - 1) / 26)
        tmp[n++] = (char)('A' + (x - 1) % 26);
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
}

void bench_put_grids(bench_text *t, const bench_board *b)
{
    bench_put(t, "map\n");
    for (int y = 0; y < b->h; y++) {
        bench_put(t, "%d", y + 1);
        for (int x = 0; x < b->w; x++)
            bench_put(t, " %c", 'a' + b->terr[y * b->w + x]);
        bench_put(t, "\n");
    }
    bench_put(t, "elevation\n");
    for (int y = 0; y < b->h; y++) {
        bench_put(t, "%d", y + 1);
        for (int x = 0; x < b->w; x++)
            bench_put(t, " %d", b->elev[y * b->w + x]);
        bench_put(t, "\n");
    }
}
