/* dice.c — the dice source (see dice.h): splitmix64 in play, a face script under odds.
 *
 * interp/odds.c drives the scripted mode as an odometer over face sequences; it relies on
 * dice_d6 extending the script with the lowest face a die may show (1, or within one roll the
 * face before it: the dice of a roll are a multiset), and on counting the dice asked.
 */
#include "dice.h"

#include <string.h>

void dice_seed(dice_src *d, uint64_t seed)
{
    memset(d, 0, sizeof *d);
    d->state = seed ? seed : 1;
}

void dice_script(dice_src *d)
{
    d->scripted = true;
    d->script_len = 0;
    d->asked = 0;
    d->overflow = false;
}

void dice_rewind(dice_src *d)
{
    dice_rewind_to(d, 0);
}

void dice_rewind_to(dice_src *d, size_t pos)
{
    d->asked = pos;
    d->overflow = false;
    d->roll_start = d->roll_until = 0;
}

void dice_roll_many(dice_src *d, size_t n)
{
    if (d->scripted) {
        d->roll_start = d->asked;
        d->roll_until = d->asked + n;
    }
}

/* splitmix64 (Steele, Lea, Flood 2014): a full-period 64-bit generator, good enough for dice
 * and trivially seedable. */
uint64_t dice_next(dice_src *d)
{
    uint64_t z = (d->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int dice_d6(dice_src *d)
{
    if (d->scripted) {
        if (d->asked >= DICE_SCRIPT_MAX) {
            d->overflow = true;
            return 1;
        }
        bool in_roll = d->asked < d->roll_until;
        if (d->asked >= d->script_len) /* a new odometer digit: its lowest face */
            d->script[d->script_len++] =
                in_roll && d->asked > d->roll_start ? d->script[d->asked - 1] : 1;
        size_t end = in_roll ? d->roll_until : d->asked + 1;
        d->roll_end[d->asked] = (uint8_t)(end < DICE_SCRIPT_MAX ? end : DICE_SCRIPT_MAX);
        return d->script[d->asked++];
    }
    /* Reject the top sliver of the range so every face has the same chance. */
    const uint64_t limit = UINT64_MAX - UINT64_MAX % 6;
    uint64_t x;
    do
        x = dice_next(d);
    while (x >= limit);
    return (int)(x % 6) + 1;
}
