/* help.c — the REPL's `help TOPIC` (complete.h: repl_help_text): for each command word, what
 * it does in more words than the one line `help` lists, with an example. repl.c prints the
 * command's synopses, then this text; docs/spec/repl.md §2 is the full account.
 */
#include <stddef.h>
#include <string.h>

#include "complete.h"

/* One command's help: its word and its text (lines of at most 96 columns, each ending "\n"). */
typedef struct help_topic {
    const char *word;
    const char *text;
} help_topic;

static const help_topic topics[] = {
    { "why",
      "Evaluates the expression and prints its answer, then the rules that fired with their\n"
      "citations and the queries they asked. `why full` prints every rule checked and every\n"
      "call; `why not` says, for each rule checked, the condition that held or failed and the\n"
      "values it compared. `why do`, `why move` and `why los` do the same for a procedure, a\n"
      "refused move and a line of sight. Example: why line_of_sight($rifle1, @C4)\n" },
    { "odds",
      "Prints the exact distribution of the expression's results over every outcome of its\n"
      "dice (`roll d6`, `roll 2 d6`), as fractions and percentages; `odds do EVENT(ARGS)` the\n"
      "distribution of a procedure's outcomes on the board. Nothing changes.\n"
      "Example: odds roll d6 + roll d6 >= 9\n" },
    { "do", "Runs a procedure on the loaded board: the event and every rule on it, one line per\n"
            "effect with the citation of the rule that made it. All or nothing: on an error every\n"
            "change is undone. Choices are asked at the prompt (in a script: `choose N` lines).\n"
            "Example: do suppress($rifle1)\n" },
    { "move",
      "A Movement Action of a unit of the board along the squares given (`@C4` or `C4`), each\n"
      "step checked by the rules; a refused step names the rule that forbids it, and nothing\n"
      "moves. `why move` explains a refusal without moving. Example: move $jeep C4 C5\n" },
    { "reach",
      "Lists the squares the unit can reach in one Movement Action, with the cost and a path\n"
      "to each, and draws the board with them marked; with FILE the picture is written as SVG.\n"
      "Example: reach $jeep\n" },
    { "next", "Ends the phase: the clock moves to the next phase (or turn) and its events run.\n" },
    { "undo",
      "Reverts the last procedure (do, move or next): the board, its markers, the clock and the\n"
      "dice. Repeated, it walks further back.\n" },
    { "choose",
      "In a script, the answer to the choice the line before asked: X is an option's number\n"
      "(from 1) or the option as printed (`choose 2`, `choose C4`, `choose $rifle1`). Typed\n"
      "alone it is an error.\n" },
    { "turn", "Prints the clock: the turn and the phase (`turn 2, supply phase`).\n" },
    { "step",
      "Step mode: before each effect of a procedure, the effect is shown and Enter applies it\n"
      "(`q` abandons the procedure). `step` alone prints the mode.\n" },
    { "load",
      "Loads a .hon rule file, all or nothing: on any error the session keeps the program it\n"
      "had. A file already loaded is loaded again in place. Declarations typed at the prompt\n"
      "are loaded the same way. Example: load tests/repl/fixtures/base.hon\n" },
    { "board",
      "Loads a scenario (.scn) as the board, all or nothing; its units are then `$name` in\n"
      "expressions and its squares `@C4`. Example: board examples/boards/hill_contour.scn\n" },
    { "draw",
      "Prints the board in the terminal with a legend; with X and Y (units or squares), the\n"
      "line traced between them. Example: draw $rifle1 @C4\n" },
    { "svg",
      "Writes the board as an SVG picture to FILE (never over a file that is not an SVG); with\n"
      "X and Y, the line between them and the verdict; with WINDOW, the part of the board around\n"
      "a place, or between two corners. Examples: svg board.svg $a $b, svg part.svg C2..H6\n" },
    { "los",
      "Line of sight between X and Y (units or squares): the verdict (clear, obscured or\n"
      "blocked) and the rule that decided, then the line drawn. `why los X Y` traces the query.\n"
      "Example: los $rifle1 @C4\n" },
    { "rules",
      "Lists the rules of the active edition with their citations; with WORD, those whose name,\n"
      "description or citation contains it (in any case). Example: rules hedge\n" },
    { "show",
      "Prints the source of a rule, query (with its rules), table or fn as loaded, with its\n"
      "file and line. Example: show line_of_sight\n" },
    { "dis", "Prints the bytecode of a rule, a query's rules or a fn. Example: dis speed\n" },
    { "edition",
      "Lists the editions, the active one marked `*`; `edition NAME` switches to one (the\n"
      "board is loaded again with its counters). Example: edition bloody_omaha\n" },
    { "variant",
      "Lists the variants with their active reading; `variant NAME` shows one; `variant NAME\n"
      "READING` (or NAME=READING) selects a reading, kept across loads.\n"
      "Example: variant woods_cover heavy_cover\n" },
    { "test",
      "Runs the tests of the loaded program, or of FILEs and DIRs (loaded first; a DIR: its\n"
      ".hon files, together): `-v` lists each test, `--filter PATTERN` keeps those whose name\n"
      "contains it (a plain substring: no wildcards), `--json` answers as JSON.\n"
      "Example: test -v --filter hedge\n" },
    { "lint",
      "Warnings W001-W007 about the loaded rules, or about FILEs and DIRs (loaded first):\n"
      "unused declarations, constant guards, rules that never fire, rules that overlap and\n"
      "disagree, inputs no rule answers, reachable `?` cells, each with an input that shows it.\n"
      "A declaration kept for users to ask is marked `# lint: entry`.\n" },
    { "seed", "Reseeds the dice: the same seed gives the same rolls. Example: seed 42\n" },
    { "json", "Answers as JSON (`json on`) or as text (`json off`); alone, prints the state.\n" },
    { "limit",
      "The caps on what rules may use: steps, depth, list, memory (`limit memory 64M`); N 0\n"
      "puts back the default. Alone, prints each cap. Example: limit steps 100000000\n" },
    { "budget",
      "The step budget of one evaluation (`limit steps`): raise it when E207 says it ran out.\n"
      "Example: budget 100000000\n" },
    { "diff",
      "Asks the same questions under two settings (editions, `edition+variant=reading`) and\n"
      "lists the answers that differ; `--variants` compares each other reading of each\n"
      "variant; `--search` looks for a board on which they differ. The session is unchanged.\n"
      "Example: diff bloody_omaha harbor_hills\n" },
    { "snapshot", "`snapshot record FILE` writes every answer of the questions under a setting;\n"
                  "`snapshot check FILE` asks them again and lists the answers that changed.\n" },
    { "help",
      "`help` lists the commands; `help COMMAND` prints one command's forms and this kind of\n"
      "account. Expressions need no command: type `1 + 2` or a query call.\n" },
    { "quit", "Ends the session (so do `exit` and the end of input).\n" },
    { "exit", "Ends the session (so do `quit` and the end of input).\n" },
};

const char *repl_help_text(const char *word)
{
    for (size_t i = 0; word && i < sizeof topics / sizeof topics[0]; i++)
        if (strcmp(topics[i].word, word) == 0)
            return topics[i].text;
    return NULL;
}
