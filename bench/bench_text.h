/* bench_text.h — what the hon drivers of bench/ (hon_los.c, real_hon.c) share to write a board
 * as a scenario text (docs/spec/board.md §4): a growing text, square column letters, the map
 * and elevation grids. bench_text.c implements it.
 */
#ifndef BENCH_TEXT_H
#define BENCH_TEXT_H

#include <stddef.h>

#include "bench_board.h"

/* A growing NUL-terminated text; zero-initialise it, free s with free(). */
typedef struct bench_text {
    char *s;
    size_t len, cap;
} bench_text;

/* Appends printf-formatted text to t; exits the program with a message when out of memory
 * (the bench drivers are programs, not library code). */
void bench_put(bench_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The column letters of column x (0-based): A..Z, AA.. into buf (at least 8 bytes). */
void bench_column(int x, char *buf);

/* Appends the scenario's `map` (symbol 'a' + terrain code per square) and `elevation` sections
 * of board b (borrowed), one board row per line, rows numbered from 1. */
void bench_put_grids(bench_text *t, const bench_board *b);

#endif
