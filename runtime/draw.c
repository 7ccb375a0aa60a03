/* runtime/draw.c — the text picture of a board (draw.h), and what both pictures share
 * (draw_pic.h): symbols, unit keys and the traced line's marks. The SVG is draw_svg.c's.
 *
 * Reads the board only through board.h and geo.h. Symbols for ids without one are assigned
 * per picture (first free letter of the name), so two features never share a symbol in one
 * picture. Output is a pure function of the board and the options: the tests compare bytes.
 */
#include "draw.h"

#include <stdlib.h>
#include <string.h>

#include "draw_pic.h"
#include "mem.h"

/* Characters the text picture gives a fixed meaning (the frame, the traced line's marks,
 * several features or units, no terrain, elevations, a key beyond the last): assigned symbols
 * and unit keys avoid them, so that no character means two things in one picture. */
static const char RESERVED[] = " +-|x#*@&.?_^0123456789";
/* A board wider than this many columns (4 + 5 * 24 = 124 characters a line) drawn as text
 * with a traced line shows the columns of the line and this many more on each side. */
#define DRAW_TEXT_COLUMNS  24
#define DRAW_WINDOW_MARGIN 3

/* ---- symbols ---- */

static bool taken(const symtab *t, char c)
{
    return strchr(RESERVED, c) != NULL || t->taken[(unsigned char)c];
}

/* Gives every used id a symbol: the board's, else the first free letter of its name (as
 * written, then upper case), else the first free character of a fixed list. */
static void assign(const board *b, board_name_kind k, symtab *t)
{
    for (int id = 0; id < BOARD_MAX_ID; id++) {
        if (!t->used[id])
            continue;
        t->used[id] = false; /* not yet holding a symbol */
        char c = board_symbol(b, k, id);
        const char *name = board_name(b, k, id);
        if (!c || taken(t, c)) {
            c = 0;
            for (const char *p = name; p && *p && !c; p++)
                if (!taken(t, *p) && *p > ' ' && *p < 127)
                    c = *p;
            for (const char *p = name; p && *p && !c; p++) {
                char u = (*p >= 'a' && *p <= 'z') ? (char)(*p - 'a' + 'A') : *p;
                if (!taken(t, u) && u > ' ' && u < 127)
                    c = u;
            }
            static const char FALLBACK[] =
                "abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWXYZ%$=~!/<>()[]{};:,";
            for (const char *p = FALLBACK; *p && !c; p++)
                if (!taken(t, *p))
                    c = *p;
            if (!c)
                c = '?';
        }
        t->sym[id] = c;
        t->used[id] = true;
        t->taken[(unsigned char)c] = true;
    }
}

/* The character of square sq's terrain: the map symbol as written while the square still has
 * the terrain it was written for (symbol_terrain), else the symbol of its terrain now, blank
 * when a written map's square is in no element any more ('.' without a written map). */
char draw_terrain_char(const picture *p, int sq)
{
    int t = board_terrain(p->b, sq);
    if (p->o->symbols && (!p->o->symbol_terrain || p->o->symbol_terrain[sq] == t)) {
        char c = p->o->symbols[sq];
        return c ? c : ' ';
    }
    if (t >= 0)
        return p->terr->sym[t];
    return p->o->symbols ? ' ' : '.';
}

void draw_picture_free(picture *p)
{
    mem_free(p->terr);
    mem_free(p->side);
    mem_free(p->item);
    mem_free(p->units);
    mem_free(p->keys);
    mem_free(p->aboard);
    mem_free(p->mark);
    mem_free(p->touch);
}

geo_status draw_picture_init(picture *p, const board *b, const draw_options *o)
{
    static const draw_options none = { 0 };
    memset(p, 0, sizeof *p);
    p->b = b;
    p->g = board_grid(b);
    p->o = o ? o : &none;
    if (p->g->topo != GEO_SQUARE)
        return GEO_ETOPO;
    p->x1 = p->g->w - 1;
    p->y1 = p->g->h - 1;
    int n = geo_square_count(p->g), ns = geo_side_count(p->g), ni = geo_interspace_count(p->g);
    p->terr = mem_malloc(sizeof *p->terr);
    p->side = mem_malloc(sizeof *p->side);
    p->item = mem_malloc(sizeof *p->item);
    p->mark = mem_malloc((size_t)n);
    p->touch = mem_malloc((size_t)ni * sizeof *p->touch);
    p->n_units = board_units(b, NULL, 0);
    p->units = mem_malloc((p->n_units ? p->n_units : 1) * sizeof *p->units);
    p->keys = mem_malloc(p->n_units ? p->n_units : 1);
    if (!p->terr || !p->side || !p->item || !p->mark || !p->touch || !p->units || !p->keys) {
        draw_picture_free(p);
        return GEO_ENOMEM;
    }
    board_units(b, p->units, p->n_units);
    size_t ids = p->n_units ? (size_t)p->units[p->n_units - 1] + 1 : 1;
    p->aboard = mem_malloc(ids * sizeof *p->aboard);
    if (!p->aboard) {
        draw_picture_free(p);
        return GEO_ENOMEM;
    }
    memset(p->aboard, 0, ids * sizeof *p->aboard);
    for (size_t i = 0; i < p->n_units; i++) {
        int in = board_unit_embarked_in(b, p->units[i]);
        if (in >= 0 && (size_t)in < ids)
            p->aboard[in]++;
    }
    memset(p->terr, 0, sizeof *p->terr);
    memset(p->side, 0, sizeof *p->side);
    memset(p->item, 0, sizeof *p->item);
    memset(p->mark, ' ', (size_t)n);
    memset(p->touch, 0, (size_t)ni * sizeof *p->touch);
    board_feature f[16];
    for (int sq = 0; sq < n; sq++) {
        int t = board_terrain(b, sq);
        if (t >= 0)
            p->terr->used[t] = true;
    }
    for (int s = 0; s < ns; s++) {
        size_t k = board_features(b, BOARD_AT_SIDE, s, f, 16);
        for (size_t j = 0; j < k && j < 16; j++)
            p->side->used[f[j].id] = true;
    }
    for (int is = 0; is < ni; is++) {
        size_t k = board_features(b, BOARD_AT_INTERSPACE, is, f, 16);
        for (size_t j = 0; j < k && j < 16; j++)
            p->item->used[f[j].id] = true;
    }
    assign(b, BOARD_TERRAIN, p->terr);
    /* Unit keys: letters in order, then punctuation, skipping the symbols the map shows and the
     * reserved characters (a digit would read as an elevation). */
    bool shown[256] = { false };
    for (int sq = 0; sq < n; sq++)
        shown[(unsigned char)draw_terrain_char(p, sq)] = true;
    static const char KEYS[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "%$=~!/<>()[]{};:,";
    const char *k = KEYS;
    for (size_t i = 0; i < p->n_units; i++) {
        while (*k && (shown[(unsigned char)*k] || strchr(RESERVED, *k)))
            k++;
        p->keys[i] = *k ? *k++ : '?';
    }
    /* Every character means one thing in a picture: a side's symbol is none the map shows nor
     * a unit key (a key stands next to it), and an interspace item's none of those nor a
     * side's. */
    for (int c = 0; c < 256; c++)
        if (shown[c])
            p->side->taken[c] = p->item->taken[c] = true;
    for (size_t i = 0; i < p->n_units; i++) {
        p->side->taken[(unsigned char)p->keys[i]] = true;
        p->item->taken[(unsigned char)p->keys[i]] = true;
    }
    assign(b, BOARD_SIDE_FEATURE, p->side);
    for (int id = 0; id < BOARD_MAX_ID; id++)
        if (p->side->used[id])
            p->item->taken[(unsigned char)p->side->sym[id]] = true;
    assign(b, BOARD_INTERSPACE_ITEM, p->item);
    const geo_trace *tr = p->o->trace;
    if (tr && tr->n > 0) {
        for (size_t i = 0; i < tr->n; i++)
            if (tr->squares[i] >= 0 && tr->squares[i] < n)
                p->mark[tr->squares[i]] = '*';
        if (tr->from >= 0 && tr->from < n)
            p->mark[tr->from] = '@';
        if (tr->to >= 0 && tr->to < n)
            p->mark[tr->to] = '@';
        for (size_t i = 0; i + 1 < tr->n; i++)
            if (tr->cross[i].corner >= 0 && tr->cross[i].corner < ni)
                p->touch[tr->cross[i].corner] = true;
    }
    if (p->o->marks) {
        for (int sq = 0; sq < n; sq++)
            if (p->o->marks[sq] != ' ')
                p->mark[sq] = p->o->marks[sq];
    }
    return GEO_OK;
}

/* The caller's string for id in a[0..n), or NULL when there is none or it is empty. */
const char *draw_given(const char *const *a, size_t n, int id)
{
    if (!a || id < 0 || (size_t)id >= n || !a[id] || !a[id][0])
        return NULL;
    return a[id];
}

/* The index of unit in p->units, or -1: a binary search (the ids are ascending), since the
 * text picture asks it for every unit on a drawn square (a scan made U units cost U²). */
static int unit_index(const picture *p, int unit)
{
    size_t lo = 0, hi = p->n_units;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->units[mid] < unit)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->n_units && p->units[lo] == unit ? (int)lo : -1;
}

/* ---- text ---- */

/* An elevation's character: blank for 0, the digit, '^' above 9, '_' below 0 (not '+' nor
 * '-', which the frame draws). */
static char elev_char(int e)
{
    if (e == 0)
        return ' ';
    if (e < 0)
        return '_';
    return e > 9 ? '^' : (char)('0' + e);
}

static char unit_char(const picture *p, int sq)
{
    int u[2];
    size_t n = board_units_at(p->b, sq, u, 2);
    if (n == 0)
        return ' ';
    if (n > 1)
        return '&';
    int i = unit_index(p, u[0]);
    return i >= 0 ? p->keys[i] : '?';
}

static void text_side(const picture *p, int side, bool border, char *seg, int len)
{
    board_feature f[8];
    size_t n = board_features(p->b, BOARD_AT_SIDE, side, f, 8);
    if (n > 8)
        n = 8;
    for (int i = 0; i < len; i++) {
        if (n == 0)
            seg[i] = border ? (len == 1 ? '|' : '-') : ' ';
        else if (len == 1)
            seg[i] = n == 1 ? p->side->sym[f[0].id] : '#';
        else
            seg[i] = p->side->sym[f[(size_t)i % n].id];
    }
}

static char text_corner(const picture *p, int X, int Y)
{
    const geo_grid *g = p->g;
    int is = Y * (g->w + 1) + X;
    if (p->touch[is])
        return 'x';
    board_feature f[2];
    size_t n = board_features(p->b, BOARD_AT_INTERSPACE, is, f, 2);
    if (n == 1)
        return p->item->sym[f[0].id];
    if (n > 1)
        return '#';
    return (X == 0 || Y == 0 || X == g->w || Y == g->h) ? '+' : ' ';
}

static void print_key(const picture *p, const symtab *t, board_name_kind k, const char *title,
                      FILE *out)
{
    bool any = false;
    for (int id = 0; id < BOARD_MAX_ID; id++) {
        if (!t->used[id])
            continue;
        if (!any)
            fprintf(out, "%s:", title);
        any = true;
        const char *name = board_name(p->b, k, id);
        if (name)
            fprintf(out, "  %c %s", t->sym[id], name);
        else
            fprintf(out, "  %c #%d", t->sym[id], id);
    }
    if (any)
        fputc('\n', out);
}

/* The column letters of column x ("AD" for 29). */
static void column_name(int x, char *buf, size_t size)
{
    geo_format_xy(x, 0, buf, size);
    buf[strlen(buf) - 1] = '\0';
}

/* The line under a window of columns x0..x1 of the board: which columns it shows and which it
 * leaves out, and why: "(columns J-S of A-AD, around the line; A-I and T-AD left out)", with
 * "around C4" for a centre square and "to fit 80 characters" when only the width decided. */
static void window_line(const geo_grid *g, int x0, int x1, const char *why, int columns, FILE *out)
{
    char a[16], z[16], last[16], cut[40];
    column_name(x0, a, sizeof a);
    column_name(x1, z, sizeof z);
    column_name(g->w - 1, last, sizeof last);
    fprintf(out, "(columns %s-%s of A-%s, ", a, z, last);
    if (why && strncmp(why, "around", 6) == 0)
        fputs(why, out);
    else if (why)
        fprintf(out, "around %s", why);
    else
        fprintf(out, "to fit %d characters", columns);
    fputs(";", out);
    for (int side = 0; side < 2; side++) {
        int from = side ? x1 + 1 : 0, to = side ? g->w - 1 : x0 - 1;
        if (from > to)
            continue;
        column_name(from, a, sizeof a);
        column_name(to, z, sizeof z);
        if (from == to)
            snprintf(cut, sizeof cut, "%s", a);
        else
            snprintf(cut, sizeof cut, "%s-%s", a, z);
        fprintf(out, "%s %s", side && x0 > 0 ? " and" : "", cut);
    }
    fputs(" left out)\n", out);
}

/* Writes one line of the keys (text[0..len), no newline) in lines of at most `columns`
 * characters, broken at spaces: a continuation is indented past the line's label (`terrain:  `,
 * `line: `), else two more than the line's own indentation. A word longer than the room is
 * written whole. */
static void wrap_line(const char *text, size_t len, int columns, FILE *out)
{
    size_t lead = 0, indent;
    while (lead < len && text[lead] == ' ')
        lead++;
    size_t i = lead;
    while (i < len && ((text[i] >= 'a' && text[i] <= 'z') || (i > lead && text[i] == ' ')))
        i++;
    if (i > lead && i < len && text[i] == ':' && i + 1 < len && text[i + 1] == ' ') {
        for (i++; i < len && text[i] == ' '; i++)
            ;
        indent = i;
    } else {
        indent = lead + 2;
    }
    size_t room = (size_t)columns;
    if (indent > room / 2)
        indent = room / 2;
    size_t at = 0, col = 0;
    while (at < len) {
        /* the longest piece from `at` that fits the room left, ending before a space */
        size_t left = room > col ? room - col : 0, end = at, brk = 0;
        while (end < len && end - at < left)
            end++;
        if (end == len) {
            brk = len;
        } else {
            /* between two entries of a key (two spaces) if there is room, else between words;
             * never in the first line's indentation or label */
            size_t floor = at == 0 ? indent : at;
            for (size_t k = end; k > floor + 1 && !brk; k--)
                if (text[k] == ' ' && text[k - 1] == ' ')
                    brk = k - 1;
            for (size_t k = end; k > floor && !brk; k--)
                if (text[k] == ' ')
                    brk = k;
            if (!brk) /* no space in the room: the whole word */
                for (brk = end; brk < len && text[brk] != ' '; brk++)
                    ;
        }
        size_t stop = brk;
        while (stop > at && text[stop - 1] == ' ')
            stop--;
        fwrite(text + at, 1, stop - at, out);
        fputc('\n', out);
        for (at = brk; at < len && text[at] == ' '; at++)
            ;
        if (at < len) {
            fprintf(out, "%*s", (int)indent, "");
            col = indent;
        }
    }
}

/* The elevation's key, when a square of the board has a level other than 0: what the
 * character after a terrain symbol means, with the first such square's pair as the example
 * (`elevation: the character after a terrain symbol is the square's level (h1: level 1; ^
 * above 9, _ below 0)`). */
static void elevation_key(const picture *p, const board *b, FILE *out)
{
    int n = geo_square_count(p->g);
    for (int sq = 0; sq < n; sq++) {
        int e = board_elevation(b, sq);
        if (e == 0)
            continue;
        fprintf(out,
                "elevation: the character after a terrain symbol is the square's level (%c%c: "
                "level %d; ^ above 9, _ below 0)\n",
                draw_terrain_char(p, sq), elev_char(e), e);
        return;
    }
}

/* The lines under the grid: the window's line, then the keys of units, terrain, elevation,
 * elements, sides and interspace items, the traced line and its verdict (board.md §5). draw_text wraps
 * them to the width the caller gives. */
static void draw_keys(picture *p, const board *b, int x0, int x1, const char *why, FILE *out)
{
    const geo_grid *g = p->g;
    int w = g->w;
    const geo_trace *tr = p->o->trace;
    char name[16];
    if (x0 > 0 || x1 < w - 1)
        window_line(g, x0, x1, why, p->o->columns, out);
    /* keys */
    for (size_t i = 0; i < p->n_units; i++) {
        int u = p->units[i], s0, s1;
        const char *label = board_unit_label(b, u);
        fprintf(out, "%s %c ", i == 0 ? "units:" : "      ", p->keys[i]);
        if (label)
            fputs(label, out);
        else
            fprintf(out, "#%d", u);
        int in = board_unit_embarked_in(b, u);
        if (in >= 0) {
            const char *tl = board_unit_label(b, in);
            if (tl)
                fprintf(out, " in %s", tl);
            else
                fprintf(out, " in #%d", in);
        } else if (board_unit_squares(b, u, &s0, &s1)) {
            geo_format_square(g, s0, name, sizeof name);
            fprintf(out, " %s", name);
            if (s1 >= 0) {
                geo_format_square(g, s1, name, sizeof name);
                fprintf(out, " %s", name);
            }
        }
        const char *m = draw_given(p->o->unit_markers, p->o->n_unit_markers, u);
        const char *fc = draw_given(p->o->unit_faces, p->o->n_unit_faces, u);
        if (m)
            fprintf(out, "  [%s]", m);
        if (fc)
            fprintf(out, "  (%s)", fc);
        fputc('\n', out);
    }
    if (!p->o->symbols)
        print_key(p, p->terr, BOARD_TERRAIN, "terrain", out);
    else {
        /* the symbols as written: list each terrain under the symbols that show it */
        bool any = false;
        bool seen[256] = { false };
        int n = geo_square_count(g);
        for (int sq = 0; sq < n; sq++) {
            unsigned char c = (unsigned char)draw_terrain_char(p, sq);
            if (seen[c] || c == ' ')
                continue;
            seen[c] = true;
            int t = board_terrain(b, sq);
            const char *tn = t >= 0 ? board_name(b, BOARD_TERRAIN, t) : NULL;
            if (!any)
                fputs("terrain:", out);
            any = true;
            board_feature f[4];
            size_t nf = board_features(b, BOARD_AT_SQUARE, sq, f, 4);
            fprintf(out, "  %c %s", c, tn ? tn : "none");
            for (size_t j = 0; j < nf && j < 4; j++) {
                const char *fname = board_name(b, BOARD_SQUARE_FEATURE, f[j].id);
                if (fname)
                    fprintf(out, "+%s", fname);
                else
                    fprintf(out, "+#%d", f[j].id);
            }
        }
        if (any)
            fputc('\n', out);
    }
    elevation_key(p, b, out);
    /* elements carrying markers or values, or showing a face other than the default */
    bool any_face = false;
    for (int e = 0; e < board_element_count(b); e++) {
        const char *fc = draw_given(p->o->element_faces, p->o->n_element_faces, e);
        const char *mk = draw_given(p->o->element_markers, p->o->n_element_markers, e);
        if (!fc && !mk)
            continue;
        if (!any_face)
            fputs("elements:", out);
        any_face = true;
        const char *en = board_element_name(b, e);
        if (en)
            fprintf(out, "  %s", en);
        else
            fprintf(out, "  #%d", e);
        if (mk)
            fprintf(out, " [%s]", mk);
        if (fc)
            fprintf(out, " (%s)", fc);
    }
    if (any_face)
        fputc('\n', out);
    print_key(p, p->side, BOARD_SIDE_FEATURE, "sides", out);
    print_key(p, p->item, BOARD_INTERSPACE_ITEM, "interspaces", out);
    if (tr && tr->n > 0) {
        char a[16], c[16];
        geo_format_square(g, tr->from, a, sizeof a);
        geo_format_square(g, tr->to, c, sizeof c);
        fprintf(out, "line: %s to %s, %zu square%s (@ ends, * crossed), %zu corner touch%s (x)\n",
                a, c, tr->n, tr->n == 1 ? "" : "s", tr->corners, tr->corners == 1 ? "" : "es");
    }
    if (tr && tr->n > 0 && p->o->verdict)
        fprintf(out, "%s\n", p->o->verdict);
    if (p->o->marks_key)
        fprintf(out, "%s\n", p->o->marks_key);
}

geo_status draw_text(const board *b, const draw_options *o, FILE *out)
{
    picture p;
    geo_status st = draw_picture_init(&p, b, o);
    if (st != GEO_OK)
        return st;
    const geo_grid *g = p.g;
    int w = g->w, h = g->h, vb = w * (h + 1);
    char seg[8], name[16];
    /* a wide board shows a window of its columns: around the traced line, around the centre
     * square, and no wider than the caller's columns */
    int x0 = 0, x1 = w - 1;
    const char *why = NULL;
    char around[16];
    const geo_trace *tr = p.o->trace;
    bool line = tr && tr->n > 0 && tr->from >= 0 && tr->to >= 0;
    int lx0 = line ? (tr->from % w < tr->to % w ? tr->from % w : tr->to % w) : 0;
    int lx1 = line ? (tr->from % w > tr->to % w ? tr->from % w : tr->to % w) : 0;
    if (w > DRAW_TEXT_COLUMNS && line) {
        x0 = lx0 - DRAW_WINDOW_MARGIN;
        x1 = lx1 + DRAW_WINDOW_MARGIN;
        x0 = x0 < 0 ? 0 : x0;
        x1 = x1 >= w ? w - 1 : x1;
        why = "around the line";
    }
    /* 4 characters of row number, 5 a square, 1 for the right frame */
    int fit = p.o->columns > 0 ? (p.o->columns - 5) / 5 : w;
    fit = fit < 1 ? 1 : fit;
    bool centred = p.o->centred && p.o->centre >= 0 && p.o->centre < geo_square_count(g);
    if (centred || x1 - x0 + 1 > fit) {
        /* the centre square's column; else a line's middle when it fits whole, else the
         * column where its verdict was decided, else its middle; else column A */
        int mid = centred ? p.o->centre % w : line ? (lx0 + lx1) / 2 : (fit - 1) / 2;
        int sx0, sy0, sx1, sy1;
        bool whole = line && lx1 - lx0 + 1 <= fit;
        if (!centred && line && whole) {
            why = "around the line";
        } else if (!centred && line && p.o->decided_at == DRAW_AT_SQUARE && p.o->decided >= 0 &&
                   p.o->decided < geo_square_count(g)) {
            mid = p.o->decided % w;
            why = "around where the line's verdict was decided";
        } else if (!centred && line && p.o->decided_at == DRAW_AT_SIDE &&
                   geo_side_ends(g, p.o->decided, &sx0, &sy0, &sx1, &sy1)) {
            mid = sx0 < w ? sx0 : w - 1;
            why = "around where the line's verdict was decided";
        } else if (!centred && line) {
            why = "around the middle of the line";
        }
        int span = fit < w ? fit : w;
        x0 = mid - (span - 1) / 2;
        x0 = x0 < 0 ? 0 : x0 + span > w ? w - span : x0;
        x1 = x0 + span - 1;
        if (centred) {
            geo_format_square(g, p.o->centre, around, sizeof around);
            why = around;
        }
    }
    /* column letters above the terrain symbols */
    fputs("    ", out);
    for (int x = x0; x <= x1; x++) {
        geo_format_xy(x, 0, name, sizeof name);
        name[strlen(name) - 1] = '\0';
        fprintf(out, " %-4s", name);
    }
    fputc('\n', out);
    for (int Y = 0; Y <= h; Y++) {
        fputs("    ", out);
        for (int X = x0; X <= x1 + 1; X++) {
            fputc(text_corner(&p, X, Y), out);
            if (X <= x1) {
                text_side(&p, Y * w + X, Y == 0 || Y == h, seg, 4);
                fwrite(seg, 1, 4, out);
            }
        }
        fputc('\n', out);
        if (Y == h)
            break;
        fprintf(out, "%3d ", Y + 1);
        for (int X = x0; X <= x1 + 1; X++) {
            text_side(&p, vb + Y * (w + 1) + X, X == 0 || X == w, seg, 1);
            fputc(seg[0], out);
            if (X <= x1) {
                int sq = Y * w + X;
                fputc(p.mark[sq], out);
                fputc(draw_terrain_char(&p, sq), out);
                fputc(elev_char(board_elevation(b, sq)), out);
                fputc(unit_char(&p, sq), out);
            }
        }
        fputc('\n', out);
    }
    char *keys = NULL;
    size_t n_keys = 0;
    FILE *k = p.o->columns > 0 ? open_memstream(&keys, &n_keys) : NULL;
    draw_keys(&p, b, x0, x1, why, k ? k : out);
    if (k && fclose(k) == 0) {
        for (size_t at = 0, nl; at < n_keys; at = nl + 1) {
            const char *e = memchr(keys + at, '\n', n_keys - at);
            nl = e ? (size_t)(e - keys) : n_keys;
            wrap_line(keys + at, nl - at, p.o->columns, out);
        }
    }
    free(keys);
    draw_picture_free(&p);
    return ferror(out) ? GEO_EIO : GEO_OK;
}
