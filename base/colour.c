/* colour.c — colour_valid and colour_near of colour.h: the `#rrggbb` form and SVG 1.1's
 * colour keywords (the CSS3 extended colour list, 147 names). */
#include "colour.h"

#include <ctype.h>
#include <strings.h>

#include "near.h"

/* SVG 1.1 §4.4 "Recognized color keyword names", alphabetically. */
static const char *const KEYWORDS[] = {
    "aliceblue",
    "antiquewhite",
    "aqua",
    "aquamarine",
    "azure",
    "beige",
    "bisque",
    "black",
    "blanchedalmond",
    "blue",
    "blueviolet",
    "brown",
    "burlywood",
    "cadetblue",
    "chartreuse",
    "chocolate",
    "coral",
    "cornflowerblue",
    "cornsilk",
    "crimson",
    "cyan",
    "darkblue",
    "darkcyan",
    "darkgoldenrod",
    "darkgray",
    "darkgreen",
    "darkgrey",
    "darkkhaki",
    "darkmagenta",
    "darkolivegreen",
    "darkorange",
    "darkorchid",
    "darkred",
    "darksalmon",
    "darkseagreen",
    "darkslateblue",
    "darkslategray",
    "darkslategrey",
    "darkturquoise",
    "darkviolet",
    "deeppink",
    "deepskyblue",
    "dimgray",
    "dimgrey",
    "dodgerblue",
    "firebrick",
    "floralwhite",
    "forestgreen",
    "fuchsia",
    "gainsboro",
    "ghostwhite",
    "gold",
    "goldenrod",
    "gray",
    "green",
    "greenyellow",
    "grey",
    "honeydew",
    "hotpink",
    "indianred",
    "indigo",
    "ivory",
    "khaki",
    "lavender",
    "lavenderblush",
    "lawngreen",
    "lemonchiffon",
    "lightblue",
    "lightcoral",
    "lightcyan",
    "lightgoldenrodyellow",
    "lightgray",
    "lightgreen",
    "lightgrey",
    "lightpink",
    "lightsalmon",
    "lightseagreen",
    "lightskyblue",
    "lightslategray",
    "lightslategrey",
    "lightsteelblue",
    "lightyellow",
    "lime",
    "limegreen",
    "linen",
    "magenta",
    "maroon",
    "mediumaquamarine",
    "mediumblue",
    "mediumorchid",
    "mediumpurple",
    "mediumseagreen",
    "mediumslateblue",
    "mediumspringgreen",
    "mediumturquoise",
    "mediumvioletred",
    "midnightblue",
    "mintcream",
    "mistyrose",
    "moccasin",
    "navajowhite",
    "navy",
    "oldlace",
    "olive",
    "olivedrab",
    "orange",
    "orangered",
    "orchid",
    "palegoldenrod",
    "palegreen",
    "paleturquoise",
    "palevioletred",
    "papayawhip",
    "peachpuff",
    "peru",
    "pink",
    "plum",
    "powderblue",
    "purple",
    "red",
    "rosybrown",
    "royalblue",
    "saddlebrown",
    "salmon",
    "sandybrown",
    "seagreen",
    "seashell",
    "sienna",
    "silver",
    "skyblue",
    "slateblue",
    "slategray",
    "slategrey",
    "snow",
    "springgreen",
    "steelblue",
    "tan",
    "teal",
    "thistle",
    "tomato",
    "turquoise",
    "violet",
    "wheat",
    "white",
    "whitesmoke",
    "yellow",
    "yellowgreen",
};

enum {
    N_KEYWORDS = sizeof KEYWORDS / sizeof KEYWORDS[0],
    LONGEST = 32 /* longer than any keyword ("lightgoldenrodyellow", 20) */
};

_Static_assert(N_KEYWORDS == 147, "SVG 1.1 names 147 colour keywords");

bool colour_valid(const char *s, size_t n)
{
    if (!s)
        return false;
    if (n == 7 && s[0] == '#') {
        for (size_t i = 1; i < 7; i++)
            if (!isxdigit((unsigned char)s[i]))
                return false;
        return true;
    }
    if (n == 0 || n > LONGEST)
        return false;
    for (size_t k = 0; k < N_KEYWORDS; k++)
        if (strncasecmp(KEYWORDS[k], s, n) == 0 && KEYWORDS[k][n] == '\0')
            return true;
    return false;
}

const char *colour_near(const char *s, size_t n)
{
    char want[LONGEST + 1];
    if (!s || n == 0 || n > LONGEST)
        return NULL;
    for (size_t i = 0; i < n; i++)
        want[i] = (char)tolower((unsigned char)s[i]);
    want[n] = '\0';
    near_search ns;
    near_begin(&ns, want);
    for (size_t k = 0; k < N_KEYWORDS; k++)
        near_offer(&ns, KEYWORDS[k]);
    return near_result(&ns);
}
