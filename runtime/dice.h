/* dice.h — the dice source: six-sided dice from a seeded PRNG, or from a script.
 *
 * Seeded mode is what play uses (splitmix64, reproducible from the seed). Scripted mode is what
 * odds enumeration (interp/odds.c) uses: faces come from a script the caller fills, and the
 * source records how many dice were asked and which of them form one roll, so the caller can
 * enumerate every outcome: a lone die's 6 faces, a roll's multisets of faces (interp/vm.c
 * sorts the faces of `roll N d6` ascending, so its order carries no information).
 */
#ifndef HON_DICE_H
#define HON_DICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DICE_SCRIPT_MAX 48 /* longest face sequence one scripted run may ask for */

typedef struct dice_src {
    uint64_t state; /* splitmix64 state (seeded mode) */
    bool scripted;
    uint8_t script[DICE_SCRIPT_MAX]; /* faces 1..6 handed out in order (scripted mode) */
    size_t script_len;               /* faces available in script */
    size_t asked;                    /* dice asked since dice_rewind (scripted mode) */
    bool overflow;                   /* a scripted run asked for more than DICE_SCRIPT_MAX dice */
    /* Scripted mode: for each die asked, the position just past the last die of the
     * same roll (dice_roll_many), at most DICE_SCRIPT_MAX; a lone die ends at its own + 1. The
     * dice of one roll are the positions sharing one roll_end. */
    uint8_t roll_end[DICE_SCRIPT_MAX];
    size_t roll_start; /* the dice of the current roll start at this position... */
    size_t roll_until; /* ...and run up to this one */
} dice_src;

/* Seeded mode with the given seed (0 is replaced by 1). */
void dice_seed(dice_src *d, uint64_t seed);
/* Switches to scripted mode with an empty script. */
void dice_script(dice_src *d);
/* Scripted mode: restarts handing out faces from the first scripted one; clears asked. */
void dice_rewind(dice_src *d);

/* Scripted mode: goes on handing out faces from position pos of the script, as after pos dice
 * (odds by forking resume a procedure after the dice of its path so far); clears overflow. */
void dice_rewind_to(dice_src *d, size_t pos);

/* One six-sided die: 1..6. Seeded: uniform, without modulo bias. Scripted: the next face of
 * the script; past its end the script is extended with the lowest face the die may show (the
 * first face of an odometer digit): 1, or for a die after the first of a roll the face of the
 * die before it, so the faces of one roll never decrease and the odometer visits each
 * multiset of them once. A run thus asks exactly for the faces it needs. Past DICE_SCRIPT_MAX
 * faces it returns 1 and sets d->overflow. */
int dice_d6(dice_src *d);

/* The next n dice are one roll (`roll N d6`), asked whatever their faces, with no order
 * among them: scripted mode hands them out as a non-decreasing run (see dice_d6) and records
 * the roll in roll_end (odds weigh each multiset by its orderings and see early that an
 * enumeration is too large); seeded mode ignores it. */
void dice_roll_many(dice_src *d, size_t n);

/* Raw 64-bit output of the seeded generator (for tests). */
uint64_t dice_next(dice_src *d);

#endif
