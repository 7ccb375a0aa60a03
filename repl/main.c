/* main.c — the `hon` program's entry point: global options (getopt_long, stopping at the first
 * non-option), the subcommands (eval, why, odds, do, move, check, fmt, lint, test, rules, show, dis,
 * los, draw, svg, play: usage_text lists them), and the REPL when no subcommand is given. The commands themselves live in cli.c, the REPL in repl.c; the option
 * and exit-code contract is docs/spec/repl.md (0 ok, 1 error in input/rules/tests, 2 usage).
 */
/* sbrk and MADV_HUGEPAGE (heap_prefer_huge_pages) are BSD and Linux, not POSIX. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "lsp.h"
#include "reader.h"

enum {
    EXIT_USAGE = 2
};

enum {
    OPT_EDITION = 256,
    OPT_VARIANT,
    OPT_JSON,
    OPT_SEED,
    OPT_RULES,
    OPT_NO_RULES,
    OPT_LOAD,
    OPT_BOARD,
    OPT_BAIL,
    OPT_MAX_STEPS,
    OPT_MAX_DEPTH,
    OPT_MAX_LIST,
    OPT_MAX_MEMORY,
};

static const char usage_text[] =
    "usage: hon [OPTION]... [COMMAND [ARG]...]\n\n"
    "With no command, hon starts the REPL with the bundled rules loaded\n"
    "(type 'help' there for its commands).\n\nCommands:\n"
    "  eval EXPR...            evaluate each argument as an expression, print its answer\n"
    "  why [--full] EXPR       print the answer and the rules that fired, with citations\n"
    "                          (--full: every rule checked, every call, whole values);\n"
    "                          'why do EVENT(ARGS)' runs a procedure and prints the events\n"
    "                          that ran, the rules that fired, then the effects\n"
    "  why --not EXPR          print the answer and every rule checked: for each rule that\n"
    "                          did not fire, the condition that was false and the values it\n"
    "                          compared; for each that fired, the condition that held\n"
    "  why [--not] move UNIT SQUARE...\n"
    "                          why a Movement Action is refused: the rule that forbids a\n"
    "                          step, its citation, the condition and its values (a legal\n"
    "                          move is said to be legal); nothing changes\n"
    "  odds EXPR               print the exact distribution of the expression's results\n"
    "  do EVENT(ARGS)          run a procedure on the board: one line per effect (choices\n"
    "                          are read from standard input); 'odds do EVENT(ARGS)' prints\n"
    "                          the exact distribution of its outcomes\n"
    "  move UNIT SQUARE...     a Movement Action of a unit of the board along squares\n"
    "                          (each step checked by the rules; an illegal one is refused\n"
    "                          with the rule that forbids it)\n"
    "  play SCRIPT             play a script of actions (do, move, next, undo, choose...)\n"
    "                          on its board with its seed (--board, --seed: others),\n"
    "                          printing each line, effect, roll and choice with citations\n"
    "  reach UNIT [OUT]        the squares a unit can reach in one Movement Action, with\n"
    "                          the cost and a path to each, and the board drawn with them\n"
    "                          (OUT: the picture as SVG)\n"
    "  check PATH...           report the diagnostics of rule files, directories and\n"
    "                          scenarios (checked against the rules given with them)\n"
    "  fmt [--check] [--diff] [--json] FILE|DIR...\n"
    "                          lay out .hon files (a DIR: those under it) in the canonical\n"
    "                          layout, in place; --check: only list the files that would\n"
    "                          change, --diff: print the changes; both exit 1 if any would;\n"
    "                          --json: one JSON object; '-': standard input laid out on\n"
    "                          standard output\n"
    "  lint [FILE|DIR...]      load FILEs and DIRs, report warnings W001-W007 about them\n"
    "                          (about every loaded file without one): exit 1 on any\n"
    "                          warning, 0 when there is none\n"
    "  lsp [--inventory FILE]  serve the Language Server Protocol on stdin and stdout for\n"
    "                          editors: diagnostics, hover, definition, completion,\n"
    "                          document symbols of .hon and .scn files, formatting of\n"
    "                          .hon files (exit 0 after shutdown and exit); --inventory:\n"
    "                          definition on a citation ID goes to its row in that rules\n"
    "                          inventory\n"
    "  test [TOPTION]... [FILE|DIR...]\n"
    "                          load FILEs and run their tests, or run every loaded test\n"
    "                          (-v: a line per test; --filter PATTERN: only the tests\n"
    "                          whose title has PATTERN, a plain substring: no wildcards;\n"
    "                          --json: one JSON object)\n"
    "  rules [WORD]            list the rules (whose name, doc or citation has WORD)\n"
    "  show NAME               print the source of a rule, query, table or fn\n"
    "  dis NAME                print the bytecode of a rule, query or fn\n"
    "  los X Y                 line_of_sight(X, Y) on the board, and the line drawn\n"
    "                          (X, Y: $unit, @C4 or C4); needs --board; 'why los X Y'\n"
    "                          adds the trace\n"
    "  draw [X [Y]]            draw the board (around X; with the line from X to Y), as wide\n"
    "                          as COLUMNS or the terminal\n"
    "  svg OUT [X Y] [WINDOW]  write the board as an SVG picture to OUT (WINDOW: the part\n"
    "                          around a place, or between corners C2..H6)\n"
    "  diff [QOPTION]... A B   ask the same questions under settings A and B (EDITION or\n"
    "                          EDITION,NAME=READING,...; '--variant NAME=READING' after a\n"
    "                          setting adds to it) and list the answers that differ, with\n"
    "                          both traces; exit 0 when none does, 1 when some do\n"
    "  diff --variants [QOPTION]... [SETTING]\n"
    "                          compare SETTING (the default edition) with each other\n"
    "                          reading of each variant: one line per reading, the questions\n"
    "                          that differ, else a witness board, else 'no change found'\n"
    "                          (a search made its boards) or 'never changes an answer' (no\n"
    "                          board query reads it); exit 1 when a reading changes one\n"
    "  snapshot record FILE [QOPTION]... [SETTING]\n"
    "                          write every answer of the question set to FILE\n"
    "  snapshot check FILE     ask FILE's questions again and list the changed answers;\n"
    "                          exit 0 when none changed, 1 when some did\n"
    "  coverage [--inventory FILE] [--tests DIR]...\n"
    "                          the citation IDs the rules declare and cite, by section;\n"
    "                          --tests: and those named by a file under DIR; --inventory:\n"
    "                          only FILE's IDs (its '| ID |' rows), listing those not\n"
    "                          declared, not cited and not tested\n"
    "  help [COMMAND]          print this help, or the lines about a command\n"
    "  version                 print the version, where hon runs from, its data and rules\n\n"
    "Question options (diff, snapshot record):\n"
    "  --board FILE            ask every question the board allows too (repeatable)\n"
    "  --questions FILE        ask FILE's questions, one a line (repeatable)\n"
    "  --no-bundled-boards     not the boards bundled with hon\n"
    "  --no-tests              not the expectations of the loaded tests\n"
    "  --no-finite             not the queries over finite types\n"
    "  --cap N                 calls asked per query and board at most (20000)\n"
    "  --ints LO..HI|none      the values of int parameters (0..6)\n"
    "  --traces N              diff: traces shown per group of differences (all)\n"
    "  --width N               diff: width of the two traces side by side (160)\n"
    "  --json                  diff: one JSON object\n"
    "  --rule NAME             diff, diff --search: only the differences where rule NAME\n"
    "                          (QUERY.RULE) is among the rules that differ (repeatable)\n"
    "  --query NAME            diff, diff --search: ask only this query (repeatable)\n"
    "diff --search [SOPTION]... A B: the smallest board where A and B part, shrunk\n"
    "  --max-size N            boards up to N x N (6; --variants: 5)\n"
    "  --seconds S             the time budget (60; --variants: of the whole command, its\n"
    "                          readings' searches sharing it; none: 8 boards of each size\n"
    "                          for each, 5 s at most)\n"
    "  --seed N                the random boards' seed (0)\n"
    "  --witness FILE          write the witness board (.scn) and its picture (.svg)\n\n"
    "Options (before the command; the long ones also after its arguments, except for\n"
    "diff and snapshot; '--' ends them):\n"
    "  --rules DIR             load DIR's .hon files instead of the bundled rules (repeatable)\n"
    "  --no-rules              load no bundled rules\n"
    "  --load FILE             load FILE after the rules (repeatable)\n"
    "  --board FILE            load the scenario FILE as the board (after the rules)\n"
    "  --edition NAME          select an edition\n"
    "  --variant NAME=READING  select a reading of a variant (repeatable)\n"
    "  --seed N                seed the dice source\n"
    "  --max-steps N           VM steps per evaluation (10000000; odds: 200 times it)\n"
    "  --budget N              the same as --max-steps N\n"
    "  --max-depth N           nested query and fn calls (200; at most 1000)\n"
    "  --max-list N            items of a list built at run time (1000000)\n"
    "  --max-memory N[K|M|G]   memory the session may hold, loading included (1G)\n"
    "  --json                  print answers as JSON objects\n"
    "  --bail                  a script (input that is not a terminal) stops at its\n"
    "                          first failing line\n"
    "  -h, --help              print this help and exit\n"
    "  -V, --version           print the version, where hon runs from, its data and rules,\n"
    "                          and exit\n\n"
    "Rule directories: --rules DIR, else $HON_RULES (colon-separated), else the bundled\n"
    "rules/ and expansions/.\n"
    "Exit status: 0 success; 1 an error in the input or the rules, or a failed test (a\n"
    "script: any failing line);\n"
    "2 a usage error. diff and snapshot check: 0 nothing differs, 1 something does,\n"
    "2 an error.\n";

/* Reports a usage error (as JSON under --json: cli_usage_error) and returns the usage exit
 * status. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL; /* whole: cli_usage_error shortens it */
    if (msg) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    cli_usage_error(msg ? msg : "out of memory");
    free(msg);
    return EXIT_USAGE;
}

/* Whether --json stands anywhere on the command line (main): `--version` and `help` answer as
 * a JSON object. */
static bool json_output;

/* Prints on stdout a JSON array of the words of `list` separated by `sep`, skipping empty ones. */
static void put_json_words(const char *list, char sep)
{
    putchar('[');
    bool first = true;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, (char[]){ sep, '\0' });
        if (n) {
            char *w = strndup(p, n);
            if (w) {
                fputs(first ? "" : ", ", stdout);
                cli_put_json_string(w, stdout);
                first = false;
            }
            free(w);
        }
        p += n + (p[n] != '\0');
    }
    putchar(']');
}

/* `hon --json --version`: print_version's facts as one JSON object on a line (repl.md §1):
 * version, build_tree or install_prefix (the other null), data, data_from_env, data_exists,
 * rules (the directories a session would load) and rules_from ("options", "$HON_RULES",
 * "bundled" or "none"). */
static void print_version_json(const cli_opts *o, const char *data, bool data_from_env,
                               bool data_there)
{
    const char *env_rules = getenv("HON_RULES");
    bool build = hon_runs_from_build_tree();
    fputs("{\"version\": ", stdout);
    cli_put_json_string(hon_version(), stdout);
    fputs(", \"build_tree\": ", stdout);
    if (build)
        cli_put_json_string(hon_build_dir(), stdout);
    else
        fputs("null", stdout);
    fputs(", \"install_prefix\": ", stdout);
    if (!build)
        cli_put_json_string(hon_install_prefix(), stdout);
    else
        fputs("null", stdout);
    fputs(", \"data\": ", stdout);
    cli_put_json_string(data, stdout);
    printf(", \"data_from_env\": %s, \"data_exists\": %s, \"rules\": ",
           data_from_env ? "true" : "false", data_there ? "true" : "false");
    const char *from = "bundled";
    if (o->no_rules) {
        fputs("[]", stdout);
        from = "none";
    } else if (o->n_rule_dirs) {
        putchar('[');
        for (size_t i = 0; i < o->n_rule_dirs; i++) {
            fputs(i ? ", " : "", stdout);
            cli_put_json_string(o->rule_dirs[i], stdout);
        }
        putchar(']');
        from = "options";
    } else if (env_rules && env_rules[0]) {
        put_json_words(env_rules, ':');
        from = "$HON_RULES";
    } else {
        char dir[4096];
        putchar('[');
        snprintf(dir, sizeof dir, "%s/rules", data);
        cli_put_json_string(dir, stdout);
        fputs(", ", stdout);
        snprintf(dir, sizeof dir, "%s/expansions", data);
        cli_put_json_string(dir, stdout);
        putchar(']');
    }
    printf(", \"rules_from\": \"%s\"}\n", from);
}

static int help(const char *topic);

/* `hon --version` (repl.md §1): the version; where this hon runs from, its build tree (whose
 * source tree it then reads) or the install prefix; the data directory in use (hon_bundle_dir,
 * said when $HON_DATADIR chose it); and the rule directories a session would load, as o (the
 * options before --version) and $HON_RULES choose them (cli_session_open's order). */
static void print_version(const cli_opts *o)
{
    const char *data = hon_bundle_dir(), *env_data = getenv("HON_DATADIR");
    const char *env_rules = getenv("HON_RULES");
    bool from_env = env_data && env_data[0];
    struct stat st;
    bool data_there = stat(data, &st) == 0 && S_ISDIR(st.st_mode);
    if (json_output) {
        print_version_json(o, data, from_env, data_there);
        return;
    }
    printf("hon %s\n", hon_version());
    if (hon_runs_from_build_tree())
        printf("running from the build tree %s\n", hon_build_dir());
    else
        printf("installed under %s\n", hon_install_prefix());
    printf("data: %s%s%s\n", data, from_env ? " (from $HON_DATADIR)" : "",
           data_there ? "" : " (no such directory: the bundled rules and boards cannot be read)");
    fputs("rules:", stdout);
    if (o->no_rules)
        fputs(" none (--no-rules)", stdout);
    else if (o->n_rule_dirs)
        for (size_t i = 0; i < o->n_rule_dirs; i++)
            printf(" %s", o->rule_dirs[i]);
    else if (env_rules && env_rules[0])
        printf(" %s (from $HON_RULES)", env_rules);
    else
        printf(" %s/rules %s/expansions", data, data);
    putchar('\n');
}

static const struct option longopts[] = {
    { "edition", required_argument, NULL, OPT_EDITION },
    { "variant", required_argument, NULL, OPT_VARIANT },
    { "json", no_argument, NULL, OPT_JSON },
    { "seed", required_argument, NULL, OPT_SEED },
    { "rules", required_argument, NULL, OPT_RULES },
    { "no-rules", no_argument, NULL, OPT_NO_RULES },
    { "load", required_argument, NULL, OPT_LOAD },
    { "board", required_argument, NULL, OPT_BOARD },
    { "bail", no_argument, NULL, OPT_BAIL },
    { "max-steps", required_argument, NULL, OPT_MAX_STEPS },
    { "budget", required_argument, NULL, OPT_MAX_STEPS },
    { "max-depth", required_argument, NULL, OPT_MAX_DEPTH },
    { "max-list", required_argument, NULL, OPT_MAX_LIST },
    { "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 },
};

/* Applies global option c (an OPT_* value) with its argument arg (borrowed; NULL for an option
 * without one) to o. Returns -1 to go on, or the usage exit status for a malformed value. */
static int apply_option(cli_opts *o, int c, char *arg)
{
    switch (c) {
    case OPT_EDITION: o->edition = arg; break;
    case OPT_VARIANT: {
        char *eq = strchr(arg, '=');
        if (!eq || eq == arg || !eq[1])
            return usage_error("--variant takes NAME=READING, not '%s'", arg);
        *eq = '\0';
        o->variants[o->n_variants].name = arg;
        o->variants[o->n_variants++].reading = eq + 1;
        break;
    }
    case OPT_JSON: o->json = true; break;
    case OPT_SEED:
        if (!cli_parse_seed(arg, &o->seed))
            return usage_error("--seed takes a non-negative integer, not '%s'", arg);
        o->seed_set = true;
        break;
    case OPT_RULES: o->rule_dirs[o->n_rule_dirs++] = arg; break;
    case OPT_NO_RULES: o->no_rules = true; break;
    case OPT_LOAD: o->loads[o->n_loads++] = arg; break;
    case OPT_BOARD: o->board = arg; break;
    case OPT_BAIL: o->bail = true; break;
    default: {
        static const char *const names[] = { "--max-steps (--budget)", "--max-depth", "--max-list",
                                             "--max-memory" };
        hon_cap cap = (hon_cap)(HON_CAP_STEPS + (c - OPT_MAX_STEPS));
        uint64_t v;
        if (!cli_parse_cap(cap, arg, &v) || (cap == HON_CAP_DEPTH && v > 1000) ||
            (cap == HON_CAP_MEMORY && v && v < (1u << 20)))
            return usage_error("%s takes %s, not '%s'", names[c - OPT_MAX_STEPS],
                               cap == HON_CAP_DEPTH    ? "a number from 0 to 1000"
                               : cap == HON_CAP_MEMORY ? "0 or a size of at least 1M"
                                                       : "a non-negative integer",
                               arg);
        if (cap == HON_CAP_STEPS)
            o->step_budget = v;
        else if (cap == HON_CAP_DEPTH)
            o->max_depth = (unsigned)v;
        else if (cap == HON_CAP_LIST)
            o->max_list = v;
        else
            o->max_memory = v;
        break;
    }
    }
    return -1;
}

static const char *command_hint(const char *name, char *buf, size_t cap);

/* A "did you mean" for an unknown option `arg` (`--chek`): the nearest global option (as
 * `--NAME`), else, for a slip of a command word written as an option, that command (" (did you
 * mean the command `check`?)"); "" when none is near. Writes into buf. */
static const char *option_hint(const char *arg, char *buf, size_t cap)
{
    enum {
        N = sizeof longopts / sizeof longopts[0] - 1
    };
    char spelt[N][24];
    const char *names[N];
    for (size_t i = 0; i < N; i++) {
        snprintf(spelt[i], sizeof spelt[i], "--%s", longopts[i].name);
        names[i] = spelt[i];
    }
    const char *eq = strchr(arg, '=');
    char word[128];
    snprintf(word, sizeof word, "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
    if (cli_did_you_mean(word, names, N, buf, cap)[0] || word[0] != '-')
        return buf;
    const char *bare = word + (word[1] == '-' ? 2 : 1);
    char cmd[160];
    if (command_hint(bare, cmd, sizeof cmd)[0]) { /* " (did you mean `check`?)" */
        const char *tick = strchr(cmd, '`');
        snprintf(buf, cap, " (did you mean the command %s", tick ? tick : "");
    }
    return buf;
}

/* Parses the global options before the command into o; *optind_out is the index of the first
 * non-option. Returns -1 to go on, or an exit status (0 for --help/--version, 2 for a usage
 * error). */
static int parse_options(int argc, char **argv, cli_opts *o, int *optind_out)
{
    size_t max = argc > 0 ? (size_t)argc : 1;
    int c, rc;

    o->rule_dirs = calloc(max, sizeof *o->rule_dirs);
    o->loads = calloc(max, sizeof *o->loads);
    o->variants = calloc(max, sizeof *o->variants);
    if (!o->rule_dirs || !o->loads || !o->variants) {
        cli_error_code(CLI_E_MEMORY, "out of memory");
        return 1;
    }
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return help(NULL);
        case 'V': print_version(o); return 0;
        case ':': return usage_error("option '%s' needs an argument", argv[optind - 1]);
        case '?': {
            char hint[160];
            return usage_error("unknown option '%s'%s", argv[optind - 1],
                               option_hint(argv[optind - 1], hint, sizeof hint));
        }
        default:
            if ((rc = apply_option(o, c, optarg)) >= 0)
                return rc;
        }
    }
    *optind_out = optind;
    return -1;
}

/* Takes the global options written after a command's arguments (`hon eval EXPR --board B`):
 * each argument spelt `--NAME` or `--NAME=VALUE` for a global option NAME is applied to o and
 * removed from args (*n shrinks); any other argument stays, so an expression such as `-1` is
 * never an option; `--` ends the options (it is removed, what follows stays as written). `--help`
 * there is left to the caller (*help set); `--version` prints the version (returns 0). Returns
 * -1 to go on, or an exit status. */
static int take_trailing_options(cli_opts *o, char **args, int *n, bool *help)
{
    int kept = 0, i = 0;
    for (; i < *n; i++) {
        char *a = args[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        const struct option *opt = NULL;
        size_t len = strcspn(a + 2, "=");
        if (a[0] == '-' && a[1] == '-')
            for (const struct option *p = longopts; p->name && !opt; p++)
                if (strlen(p->name) == len && strncmp(p->name, a + 2, len) == 0)
                    opt = p;
        if (!opt) {
            args[kept++] = a;
            continue;
        }
        char *val = a[2 + len] == '=' ? a + 3 + len : NULL;
        if (opt->has_arg == no_argument && val)
            return usage_error("option '--%s' takes no value", opt->name);
        if (opt->has_arg == required_argument && !val) {
            if (i + 1 >= *n)
                return usage_error("option '%s' needs an argument", a);
            val = args[++i];
        }
        if (opt->val == 'h') {
            *help = true;
            continue;
        }
        if (opt->val == 'V') {
            print_version(o);
            return 0;
        }
        int rc = apply_option(o, opt->val, val);
        if (rc >= 0)
            return rc;
    }
    while (i < *n)
        args[kept++] = args[i++];
    *n = kept;
    return -1;
}

/* A subcommand: its name, how many arguments it takes (max < 0: any number). */
typedef struct subcommand {
    const char *name;
    int min, max;
} subcommand;

static const subcommand subcommands[] = {
    { "eval", 1, -1 }, { "why", 1, -1 },    { "odds", 1, -1 },     { "check", 1, -1 },
    { "test", 0, -1 }, { "rules", 0, 1 },   { "show", 1, 1 },      { "dis", 1, 1 },
    { "los", 2, 2 },   { "draw", 0, 2 },    { "svg", 1, 4 },       { "do", 1, -1 },
    { "move", 2, -1 }, { "diff", 1, -1 },   { "snapshot", 2, -1 }, { "reach", 1, 2 },
    { "help", 0, 1 },  { "version", 0, 0 }, { "coverage", 0, -1 }, { "lint", 0, -1 },
    { "lsp", 0, 2 },   { "play", 1, 1 },    { "fmt", 1, -1 },
};

/* " (did you mean `NAME`?)" naming the subcommand nearest to name (cli_did_you_mean), written
 * in buf (cap bytes), or "" when none is near. */
static const char *command_hint(const char *name, char *buf, size_t cap)
{
    const char *names[sizeof subcommands / sizeof subcommands[0]];
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        names[i] = subcommands[i].name;
    return cli_did_you_mean(name, names, sizeof names / sizeof names[0], buf, cap);
}

/* `hon help [COMMAND]` as text, written to out: the whole usage, or the lines of usage_text about one command (its
 * lines and the indented lines that continue them; for diff and snapshot, then their question
 * options, and for diff its search's options). Returns the exit status. */
static int help_to(FILE *out, const char *topic)
{
    size_t k = topic ? strlen(topic) : 0;
    const char *p = usage_text;
    bool found = false;
    if (!topic) {
        fputs(usage_text, out);
        return 0;
    }
    while ((p = strstr(p, "\n  ")) != NULL) {
        p += 3;
        if (strncmp(p, topic, k) != 0 || (p[k] != ' ' && p[k] != '\n'))
            continue;
        const char *end = p, *nl;
        while ((nl = strchr(end, '\n')) != NULL) {
            end = nl + 1;
            if (strncmp(end, "        ", 8) != 0)
                break;
        }
        fprintf(out, "  %.*s", (int)(end - p), p);
        found = true;
    }
    /* diff and snapshot: their question options, and diff its search's, which the usage lists
       in blocks of their own */
    bool diff = strcmp(topic, "diff") == 0, snapshot = strcmp(topic, "snapshot") == 0;
    const char *q = found && (diff || snapshot) ? strstr(usage_text, "\nQuestion options") : NULL;
    const char *search = q ? strstr(q, "\ndiff --search [SOPTION]") : NULL;
    const char *end = search ? strstr(search, "\n\n") : NULL;
    if (q && search && end)
        fprintf(out, "%.*s\n", (int)((diff ? end : search) - q), q);
    char hint[160];
    return found ? 0
                 : usage_error("no command named '%s'%s", topic,
                               command_hint(topic, hint, sizeof hint));
}

/* `hon help [COMMAND]` (help_to); under --json, its text as one JSON object on a line:
 * {"topic": COMMAND or null, "text": "..."} (a topic that is no command: the usage error). */
static int help(const char *topic)
{
    if (!json_output)
        return help_to(stdout, topic);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return help_to(stdout, topic);
    int rc = help_to(m, topic);
    fclose(m);
    if (rc == 0) {
        fputs("{\"topic\": ", stdout);
        if (topic)
            cli_put_json_string(topic, stdout);
        else
            fputs("null", stdout);
        fputs(", \"text\": ", stdout);
        cli_put_json_string(text ? text : "", stdout);
        fputs("}\n", stdout);
    }
    free(text);
    return rc;
}

/* Returns a new string: the arguments joined by spaces (`hon why f(a, b)` unquoted). */
static char *join_args(char **args, int n)
{
    size_t len = 1;
    char *s, *p;
    for (int i = 0; i < n; i++)
        len += strlen(args[i]) + 1;
    s = p = malloc(len);
    if (!s)
        return NULL;
    for (int i = 0; i < n; i++) {
        size_t k = strlen(args[i]);
        if (i)
            *p++ = ' ';
        memcpy(p, args[i], k);
        p += k;
    }
    *p = '\0';
    return s;
}

/* `hon why [--full|--not] EXPR`, `hon why [--full|--not] los X Y` and `hon why [--full|--not]
 * do EVENT(ARGS)` (n >= 1 arguments): the answer and the trace the option asks for (repl.md
 * §2b, §2c). Returns the exit status. */
static int run_why(cli_session *s, char **args, int n)
{
    /* `full` and `not` as a word of their own followed by more, as in the REPL (`hon why not
       X` is the reasons, `hon why 'not X'` the expression), or `--full`, `--not`. */
    bool more = n > 1;
    cli_mode mode =
        strcmp(args[0], "--full") == 0 || (more && strcmp(args[0], "full") == 0) ? CLI_WHY_FULL
        : strcmp(args[0], "--not") == 0 || (more && strcmp(args[0], "not") == 0) ? CLI_WHY_NOT
                                                                                 : CLI_WHY;
    int skip = mode != CLI_WHY;
    if (skip && n == 1) {
        fprintf(stderr,
                "hon: 'why %s' needs an expression\n"
                "Try 'hon --help' for more information.\n",
                args[0]);
        return 2;
    }
    const char *what = args[skip];
    if (strcmp(what, "los") == 0) {
        if (n != 3 + skip) {
            fprintf(stderr, "hon: 'why los' takes two arguments: X Y\n"
                            "Try 'hon --help' for more information.\n");
            return 2;
        }
        return cli_los(s, args[skip + 1], args[skip + 2], mode);
    }
    if (strcmp(what, "move") == 0) { /* why a Movement Action is refused */
        if (n < 3 + skip) {
            fprintf(stderr, "hon: 'why move' takes a unit and squares: UNIT SQUARE...\n"
                            "Try 'hon --help' for more information.\n");
            return 2;
        }
        return cli_why_move(s, args[skip + 1], (const char *const *)(args + skip + 2),
                            (size_t)(n - skip - 2));
    }
    bool is_do = strcmp(what, "do") == 0;
    if (is_do && n == 1 + skip) {
        fprintf(stderr, "hon: 'why do' takes a procedure: EVENT(ARGS)\n"
                        "Try 'hon --help' for more information.\n");
        return 2;
    }
    char *text = join_args(args + skip + is_do, n - skip - is_do);
    if (!text) {
        cli_error_code(CLI_E_MEMORY, "out of memory");
        return 1;
    }
    int rc = is_do ? cli_why_do(s, text, "<command-line>", mode)
                   : cli_answer(s, text, "<command-line>", mode);
    free(text);
    return rc;
}

/* `hon coverage [--inventory FILE] [--tests DIR]...`. Returns the exit status. */
static int run_coverage(cli_session *s, char **args, int n)
{
    const char *inventory = NULL;
    int ntests = 0;
    for (int i = 0; i < n; i++) {
        bool inv = strcmp(args[i], "--inventory") == 0;
        if ((!inv && strcmp(args[i], "--tests") != 0) || i + 1 >= n)
            return usage_error("coverage takes --inventory FILE and --tests DIR, not '%s'%s",
                               args[i], i + 1 >= n && args[i][0] == '-' ? " alone" : "");
        if (inv)
            inventory = args[++i];
        else
            args[ntests++] = args[++i]; /* the directories, gathered at the front */
    }
    return cli_coverage(s, inventory, (const char *const *)args, (size_t)ntests);
}

/* `hon play SCRIPT`: the script as given, else the bundled one of that name (cli_bundled).
 * Returns the exit status. */
static int run_play(cli_session *s, const cli_opts *o, const char *script)
{
    char *bundled = cli_bundled(script);
    int rc = repl_play(s, bundled ? bundled : script, o->board != NULL, o->seed_set);
    free(bundled);
    return rc;
}

/* Runs subcommand `name` with its arguments in an open session. Returns the exit status. */
/* Whether the first word of `odds`'s arguments is `do` (alone, or starting the argument, as
 * `hon odds 'do train_moves(...)'`): the odds of a procedure's outcomes. */
static bool odds_of_do(const char *arg)
{
    return strncmp(arg, "do", 2) == 0 &&
           (!arg[2] || arg[2] == ' ' || arg[2] == '\t' || arg[2] == '\n');
}

/* A command of the command line and its arguments, for run_text_subcommand. */
typedef struct subcommand_call {
    cli_session *s;
    const char *name;
    char **args;
    int n;
} subcommand_call;

static int run_text_subcommand(void *ud);

static int run_subcommand(cli_session *s, const char *name, char **args, int n)
{
    int rc = 0;
    if (strcmp(name, "eval") == 0) {
        for (int i = 0; i < n; i++)
            rc |= cli_answer(s, args[i], "<command-line>", CLI_EVAL);
    } else if (strcmp(name, "why") == 0) {
        rc = run_why(s, args, n);
    } else if (strcmp(name, "do") == 0 || (strcmp(name, "odds") == 0 && odds_of_do(args[0]))) {
        bool odds = name[0] == 'o';
        /* `odds do EVENT(ARGS)` as separate words, or as one (`hon odds 'do e(x)'`, as typed
         * in the REPL): the words after `do` */
        char *call = join_args(args, n), *what = call;
        if (what && odds)
            what += 2 + strspn(call + 2, " \t\n");
        if (odds && what && !*what) {
            free(call);
            return usage_error("%s", "'odds do' takes a procedure: EVENT(ARGS)");
        }
        if (!call) {
            cli_error_code(CLI_E_MEMORY, "out of memory");
            return 1;
        }
        rc = cli_do(s, what, "<command-line>", odds);
        free(call);
    } else if (strcmp(name, "move") == 0) {
        rc = cli_move(s, args[0], (const char *const *)(args + 1), (size_t)n - 1);
    } else if (strcmp(name, "reach") == 0) {
        rc = cli_reach(s, args[0], n > 1 ? args[1] : NULL);
    } else if (strcmp(name, "odds") == 0) {
        char *expr = join_args(args, n);
        if (!expr) {
            cli_error_code(CLI_E_MEMORY, "out of memory");
            return 1;
        }
        rc = cli_answer(s, expr, "<command-line>", CLI_ODDS);
        free(expr);
    } else if (strcmp(name, "coverage") == 0) {
        rc = run_coverage(s, args, n);
    } else if (strcmp(name, "check") == 0) {
        rc = cli_check_all(s, (const char *const *)args, (size_t)n);
    } else if (strcmp(name, "lsp") == 0) {
        if (n > 0 && (n != 2 || strcmp(args[0], "--inventory") != 0))
            return usage_error("lsp takes --inventory FILE, not '%s'%s", args[0],
                               n == 1 && strcmp(args[0], "--inventory") == 0 ? " alone" : "");
        rc = lsp_run(s, n == 2 ? args[1] : NULL, stdin, stdout);
    } else if (strcmp(name, "fmt") == 0) {
        rc = cli_fmt(s, (const char *const *)args, (size_t)n);
    } else if (strcmp(name, "lint") == 0) {
        rc = cli_lint(s, (const char *const *)args, (size_t)n, false);
    } else if (strcmp(name, "test") == 0) {
        rc = cli_test(s, (const char *const *)args, (size_t)n, false);
    } else if (strcmp(name, "los") == 0) {
        rc = cli_los(s, args[0], args[1], CLI_EVAL);
    } else {
        /* rules, draw, svg, show, dis: text alone, one JSON object of it under --json */
        subcommand_call sc = { s, name, args, n };
        rc = cli_json_text(s, "command", name, run_text_subcommand, &sc);
    }
    return rc;
}

/* A command that answers in text alone (rules, draw, svg, show, dis; ud: its
 * subcommand_call), for cli_json_text: its status. */
static int run_text_subcommand(void *ud)
{
    const subcommand_call *sc = ud;
    cli_session *s = sc->s;
    const char *name = sc->name;
    char **args = sc->args;
    int n = sc->n, rc;
    if (strcmp(name, "rules") == 0) {
        rc = cli_rules(s, n ? args[0] : NULL);
    } else if (strcmp(name, "draw") == 0 || strcmp(name, "svg") == 0) {
        bool svg = name[0] == 's';
        int k = svg ? 1 : 0;
        /* draw [X [Y]]; svg OUT [X Y] [WINDOW]: one word after OUT is a window, two a line */
        bool line = n - k >= 2;
        const char *from = line ? args[k] : NULL, *to = line ? args[k + 1] : NULL;
        const char *centre = !svg && n == 1 ? args[0] : NULL;
        const char *window = svg && n == 2 ? args[1] : svg && n == 4 ? args[3] : NULL;
        if (centre && cli_place(s, centre) != 0)
            rc = 1; /* not a place: say why (an unknown unit's nearest name) */
        else
            rc = svg ? cli_svg(s, args[0], from, to, window) : cli_draw(s, from, to, centre);
    } else {
        rc = cli_show(s, args[0], strcmp(name, "dis") == 0);
    }
    return rc;
}

/* The heap's first growth and how much of it may come in huge pages (bench.md §9). */
#define HEAP_PAD  ((size_t)16 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)
/* the blocks that make the heap grow (below malloc's mmap threshold, 128 KiB), and how far
 * below a huge page's start the heap's growth begins: room for one block and its headers */
#define GROW_BLOCK ((size_t)64 << 10)
#define HEAP_LEAD  ((uintptr_t)GROW_BLOCK + ((uintptr_t)16 << 10))

/* Asks, once at start, for the C library's heap to grow by HEAP_PAD at a time and for that
 * first stretch to be backed by transparent huge pages (madvise MADV_HUGEPAGE). Loading the
 * bundled rules touched some 11 MB of heap when this was written (3.7 MB in sitting 17): in
 * 4 KiB pages that was 2,700 page faults, which on a virtual machine (each first touch a fault
 * in the host too) cost more than all of start-up's instructions; in 2 MiB pages, a few. The program's own choice, not the
 * library's: the library never tunes the process's allocator. Nothing changes where the
 * kernel has no huge pages for this (THP "never", or none free): the calls then do nothing
 * or fail, and failure is ignored. Not under ASan, whose allocator is not the C library's. */
static void heap_prefer_huge_pages(void)
{
#if !defined(__SANITIZE_ADDRESS__)
    if (mallopt(M_TOP_PAD, (int)HEAP_PAD) != 1)
        return;
    /* The break moved first to LEAD below a huge page's start. The heap grows from where the
     * break is, and the kernel places the break at random (ASLR), so the stretch from there to
     * the next 2 MiB boundary, 0 to 2 MiB (1 MiB on average), was the heap's first and came in
     * 4 KiB pages, a fault each: 120 to 600 minor faults for `hon eval 1`, about 400 the
     * median. Not to the boundary itself: the growth below writes the allocator's headers at
     * the start of the new stretch and after the first block, and a 2 MiB page touched before
     * the madvise is mapped in 4 KiB pages for good; LEAD holds both writes below it. The gap
     * is address space only, never touched; the C library's allocator takes a break moved by
     * another (a "foreign sbrk") as a gap in its heap. */
    char *at = sbrk(0);
    if (at != (char *)-1) {
        uintptr_t to = (((uintptr_t)at + HEAP_LEAD + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1)) - HEAP_LEAD;
        if (to > (uintptr_t)at)
            (void)sbrk((intptr_t)(to - (uintptr_t)at));
    }
    char *lo = sbrk(0);
    /* Blocks below malloc's mmap threshold (128 KiB) until the heap grows, by the pad: the
     * first may fit in what the heap has free at its top (before main, a statically linked
     * C library has already grown it by the default pad, 128 KiB), the second cannot. Freed
     * at once, the pad stays (trimming keeps it). volatile: not elided with the frees. */
    void *volatile grow[4] = { 0 };
    char *hi = lo;
    for (int i = 0; i < 4 && hi == lo; i++) {
        grow[i] = malloc(GROW_BLOCK);
        hi = sbrk(0);
    }
    for (int i = 0; i < 4; i++)
        free(grow[i]);
    if (lo == (char *)-1 || hi == (char *)-1 || hi <= lo)
        return;
    uintptr_t from = ((uintptr_t)lo + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t to = (uintptr_t)hi & ~(HUGE_PAGE - 1);
    if (to > from)
        (void)madvise((void *)from, to - from, MADV_HUGEPAGE);
#endif
}

/* The interpreter session_exit leaves to the exit (still reachable, for leak checkers);
 * volatile, so that a store never read is not elided. */
static hon_vm *volatile kept_at_exit;

/* Ends s as the process is about to exit (bench.md §9). Freeing the loaded program block by
 * block cost about 3.9 M instructions (8 % of `hon eval 1`) to hand back memory the exit hands
 * back anyway, so s's interpreter is kept, reachable from kept_at_exit (a leak checker lists
 * it as still reachable, not lost), and the rest of s is freed. Under ASan (whose leak
 * checker must see every free path run) and when $HON_FREE_AT_EXIT is set and not empty, it
 * is cli_session_close. Only right before main returns. */
static void session_exit(cli_session *s)
{
    const char *env = getenv("HON_FREE_AT_EXIT");
#if defined(__SANITIZE_ADDRESS__)
    bool free_all = true;
    (void)env;
#else
    bool free_all = env && env[0];
#endif
    if (free_all) {
        cli_session_close(s);
        return;
    }
    kept_at_exit = s->vm;
    free(s->answer);
    memset(s, 0, sizeof *s);
}

/* The command's work, main's but for the check of standard output (main, below): its exit
 * status. *errors_are_2 is set for the commands whose status 1 means "something differs" (diff,
 * snapshot), where an error is 2. */
static int run_main(int argc, char **argv, bool *errors_are_2)
{
    heap_prefer_huge_pages();
    cli_opts o = { 0 };
    cli_session s;
    const subcommand *sub = NULL;
    int first = argc, rc, nargs = 0;

    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--json") == 0) { /* usage errors too are JSON, wherever it stands */
            cli_set_json(NULL, true);
            json_output = true; /* and --version, help */
        }
    rc = parse_options(argc, argv, &o, &first);
    if (rc >= 0) {
        cli_opts_free(&o);
        return rc;
    }
    if (first < argc) {
        const char *name = argv[first];
        for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
            if (strcmp(subcommands[i].name, name) == 0)
                sub = &subcommands[i];
        if (!sub) {
            char hint[160];
            cli_opts_free(&o);
            return usage_error("unknown command '%s'%s", name,
                               command_hint(name, hint, sizeof hint));
        }
        nargs = argc - first - 1;
        bool want_help = false;
        /* diff and snapshot read their own options (compare.c), but not --help */
        for (int i = first + 1; i < argc && strcmp(argv[i], "--") != 0; i++)
            if ((strcmp(name, "diff") == 0 || strcmp(name, "snapshot") == 0) &&
                strcmp(argv[i], "--help") == 0)
                want_help = true;
        if (!want_help && strcmp(name, "diff") != 0 && strcmp(name, "snapshot") != 0 &&
            (rc = take_trailing_options(&o, argv + first + 1, &nargs, &want_help)) >= 0) {
            cli_opts_free(&o);
            return rc;
        }
        if (want_help) {
            cli_opts_free(&o);
            return help(name);
        }
        if (nargs < sub->min || (sub->max >= 0 && nargs > sub->max)) {
            cli_opts_free(&o);
            return usage_error(nargs < sub->min ? "'%s' needs more arguments"
                                                : "'%s' takes fewer arguments",
                               name);
        }
    }
    if (o.no_rules && o.n_rule_dirs) {
        cli_opts_free(&o);
        return usage_error("%s", "--no-rules and --rules exclude each other");
    }
    /* fmt only parses (repl.md §1): the global options about the rules and the board do not
     * concern it and are ignored, as --seed is, so that `hon --board B fmt -` (an alias, an
     * editor's filter) lays out the text instead of failing on a board checked against no rules */
    if (sub && strcmp(sub->name, "fmt") == 0) {
        o.no_rules = true;
        o.n_rule_dirs = o.n_loads = o.n_variants = 0;
        o.edition = o.board = NULL;
    }
    if (sub && (strcmp(sub->name, "help") == 0 || strcmp(sub->name, "version") == 0)) {
        if (strcmp(sub->name, "version") == 0)
            print_version(&o);
        cli_opts_free(&o);
        if (strcmp(sub->name, "help") == 0)
            return help(nargs ? argv[first + 1] : NULL);
        return 0;
    }
    cli_question_opts qo = { 0 };
    char **args = argv + first + 1;
    bool record = sub && strcmp(sub->name, "snapshot") == 0 && strcmp(args[0], "record") == 0;
    char err[256];
    if (sub && strcmp(sub->name, "diff") == 0 &&
        !cli_parse_question_opts(args, nargs, 2, &o, &qo, err, sizeof err))
        rc = usage_error("%s", err);
    else if (record && !cli_parse_question_opts(args + 2, nargs - 2, 1, &o, &qo, err, sizeof err))
        rc = usage_error("%s", err);
    else if (sub && strcmp(sub->name, "snapshot") == 0 && args[1][0] == '-' && args[1][1])
        rc = usage_error("snapshot %s takes its FILE first, not '%s'", args[0], args[1]);
    else if (sub && strcmp(sub->name, "snapshot") == 0 && !record &&
             (strcmp(args[0], "check") != 0 || nargs != 2))
        rc = usage_error("snapshot takes 'record FILE [QOPTION]... [SETTING]' or 'check FILE'");
    if (record && rc < 0 && !qo.nsettings &&
        !(qo.settings[qo.nsettings++] = cli_global_setting(&o))) {
        cli_error_code(CLI_E_MEMORY, "out of memory");
        rc = 1;
    }
    /* A command answers once and exits: it compiles only the rules it asks (bench.md §9). The
     * REPL, the language server and play answer many times: they compile all at load, so
     * that no answer pays for it. */
    o.lazy = sub && strcmp(sub->name, "lsp") != 0 && strcmp(sub->name, "play") != 0;
    *errors_are_2 = sub && (strcmp(sub->name, "diff") == 0 || strcmp(sub->name, "snapshot") == 0);
    if (rc < 0)
        rc = cli_session_open(&s, &o);
    else
        memset(&s, 0, sizeof s);
    if (rc == 0 && !(sub && strcmp(sub->name, "lsp") == 0))
        reader_catch_interrupts();
    if (rc == 0 && sub && strcmp(sub->name, "diff") == 0)
        rc = cli_diff(&s, &qo);
    else if (rc == 0 && sub && strcmp(sub->name, "snapshot") == 0)
        rc = record ? cli_snapshot_record(&s, args[1], &qo) : cli_snapshot_check(&s, args[1]);
    else if (rc == 0 && sub && strcmp(sub->name, "play") == 0)
        rc = run_play(&s, &o, args[0]);
    else if (rc == 0)
        rc = sub ? run_subcommand(&s, sub->name, args, nargs) : repl_run(&s);
    session_exit(&s);
    cli_question_opts_free(&qo);
    cli_opts_free(&o);
    return rc;
}

/* Runs the command (run_main), then makes sure what it wrote to standard output got there: a
 * write that failed (a full disk, `> /dev/full`) is an error (E408, naming standard output and
 * the system's reason, cli_stdout_error) and the exit status is the command's error status, 1
 * (2 for diff and snapshot, and for a usage error), whatever the command answered. */
int main(int argc, char **argv)
{
    bool errors_are_2 = false;
    int rc = run_main(argc, argv, &errors_are_2);
    if (cli_stdout_error())
        rc = errors_are_2 || rc == 2 ? 2 : 1;
    return rc;
}
