/* tests/runtime/board_show.c — a small tool to look at a scenario file: loads it with an open
 * name table (any name is accepted), prints the board as text, optionally traces a line between
 * two squares and writes the SVG picture. Not a test; used to check pictures by eye.
 *     board_show FILE [FROM TO] [--svg OUT.svg]
 * Shares nothing but the public headers of runtime/ (scenario.h, draw.h, geo.h).
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "geo.h"
#include "scenario.h"

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [FROM TO] [--svg OUT.svg]\n", argv[0]);
        return 2;
    }
    const char *svg = NULL, *from = NULL, *to = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc) svg = argv[++i];
        else if (!from) from = argv[i];
        else to = argv[i];
    }
    scn_names *names = scn_names_new();
    scn_resolver r = scn_names_resolver(names);
    scn_errors errs = {0};
    scenario *s = scn_load_file(argv[1], &r, &errs);
    if (!s) {
        FILE *f = fopen(argv[1], "rb");
        static char text[1 << 20];
        size_t n = f ? fread(text, 1, sizeof text, f) : 0;
        if (f) fclose(f);
        for (size_t i = 0; i < errs.len; i++) scn_error_render(argv[1], text, n, &errs.items[i], stderr);
        scn_errors_free(&errs);
        scn_names_free(names);
        return 1;
    }
    const geo_grid *g = board_grid(s->board);
    geo_trace tr = {0};
    draw_options o = {.symbols = s->symbols, .title = s->title,
                      .terrain_colours = (const char *const *)s->terrain_colours,
                      .n_terrain_colours = s->n_terrain_colours,
                      .side_colours = (const char *const *)s->side_colours,
                      .n_side_colours = s->n_side_colours,
                      .unit_colours = (const char *const *)s->unit_colours,
                      .n_unit_colours = s->n_unit_colours};
    if (from && to) {
        int a = geo_parse_square(g, from), b = geo_parse_square(g, to);
        if (a < 0 || b < 0 || geo_trace_line(g, a, b, &tr) != GEO_OK) {
            fprintf(stderr, "bad squares %s %s\n", from, to);
            return 1;
        }
        o.trace = &tr;
    }
    printf("%s\n", s->title);
    draw_text(s->board, &o, stdout);
    if (svg) {
        FILE *f = fopen(svg, "w");
        if (!f || draw_svg(s->board, &o, f) != GEO_OK) fprintf(stderr, "cannot write %s\n", svg);
        if (f) fclose(f);
    }
    geo_trace_free(&tr);
    scn_free(s);
    scn_names_free(names);
    return 0;
}
