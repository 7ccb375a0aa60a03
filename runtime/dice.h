/* dice.h — the dice source: six-sided dice from a seeded PRNG, or from a script.
 *
 * Seeded mode is what play uses (splitmix64, reproducible from the seed). Scripted mode is what
 * odds enumeration (interp/odds.c) uses: faces come from a script the caller fills, and the
 * source records how many dice were asked so the caller can enumerate every face sequence.
 */
#ifndef HON_DICE_H
#define HON_DICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DICE_SCRIPT_MAX 48   /* longest face sequence one scripted run may ask for */

typedef struct dice_src {
    uint64_t state;          /* splitmix64 state (seeded mode) */
    bool scripted;
    uint8_t script[DICE_SCRIPT_MAX];  /* faces 1..6 handed out in order (scripted mode) */
    size_t script_len;       /* faces available in script */
    size_t asked;            /* dice asked since dice_rewind (scripted mode) */
    bool overflow;           /* a scripted run asked for more than DICE_SCRIPT_MAX dice */
    /* Added (scripted mode): for each die asked, the position just past the last die of the
     * same roll (dice_roll_many), at most DICE_SCRIPT_MAX; a lone die ends at its own + 1. */
    uint8_t roll_end[DICE_SCRIPT_MAX];
    size_t roll_until;       /* the dice of the current roll run up to this position */
} dice_src;

/* Seeded mode with the given seed (0 is replaced by 1). */
void dice_seed(dice_src *d, uint64_t seed);
/* Switches to scripted mode with an empty script. */
void dice_script(dice_src *d);
/* Scripted mode: restarts handing out faces from the first scripted one; clears asked. */
void dice_rewind(dice_src *d);

/* One six-sided die: 1..6. Seeded: uniform, without modulo bias. Scripted: the next face of
 * the script; past its end the script is extended with a 1 (the first face of an odometer
 * digit), so a run asks exactly for the faces it needs. Past DICE_SCRIPT_MAX faces it returns
 * 1 and sets d->overflow. */
int dice_d6(dice_src *d);

/* Added: the next n dice are one roll (`roll N d6`), asked whatever their faces, so every
 * face sequence of them is a separate outcome: scripted mode records it in roll_end (odds use
 * it to see early that an enumeration is too large); seeded mode ignores it. */
void dice_roll_many(dice_src *d, size_t n);

/* Raw 64-bit output of the seeded generator (for tests). */
uint64_t dice_next(dice_src *d);

#endif
