#!/usr/bin/env python3
"""coverage.py — writes docs/spec/coverage.md: every rules-inventory ID, whether it takes part in
play on a board or is a standalone question (and why), the rule files that cite it and the rule
test files that name it. Shares its judgements with tests/rules/coverage_play.txt.

Usage: tests/rules/coverage.py [--hon PATH] [--inventory PATH | --no-inventory] [--out PATH] [--check]
Paths default to the project's layout: the hon program build/repl/hon, the inventory at
shared/rules-inventory.md in the nearest folder above the work tree, output
docs/spec/coverage.md. The inventory lives beside the rulebooks, outside the repository (its
clause summaries stay there); what this page needs of it, the IDs and their kinds by book and
section, is written to docs/spec/inventory.md when the inventory is found, and read from there
when it is not (or with --no-inventory, as in a clone), so a clone without it still checks and
regenerates the page. With --check
nothing is written: the exit status is 1 when either file differs from what would be written
(the `coverage-current` test), and the command to run is printed.

An ID is "encoded" in a file of rules/ or expansions/ whose code cites it (`cite "ID"` in a
rule, a table or a row, an edition's `replace rule` too; not in a comment), and "tested" in a
file of tests/rules/ or tests/events/ that mentions it. A `source "ID" = "..."` declaration
encodes nothing.

"In play" is computed from the compiled program (the bundled rules under their default
edition, listed with `hon dis`): starting from what play runs — the events the engine raises on
its own (`on walk`, `on walk_end`, the clock's `on phase_*` and `on turn_start`), the queries
the board commands ask and the events a player runs as an action (both listed in
coverage_play.txt) — every event raised (`RAISE`, or an effect's moment: `give`, `take`,
`destroy`, `move`/`disembark` for `on enter`), query asked (`CALL_QUERY`, `REQUIRE`), fn called
and table read is followed. An ID is in play when a rule or table it is cited by is reached. Which
clauses describe something happening on the board is a judgement, kept in coverage_play.txt.
"""
import fnmatch, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ID_RE = re.compile(r"^\| ((?:BRO|HH|GZ6|BFN|RR|EX|ERR)\.[A-Za-z0-9.\-]+) \|([^|]*)\|", re.M)
TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[^"#]+|["#]')
OWNER_RE = re.compile(r'^[ \t]*(?:replace[ \t]+)?(rule|table)[ \t]+([\w.]+)|cite\s+"([^"]+)"', re.M)
EVENT_RE = re.compile(r'\bevent\s+(\w+)\s*\([^)]*\)\s*(?:on\s+(\w+))?')
HEAD_RE = re.compile(r"^(rule|fn|query|event) ([\w.]+):", re.M)
EDGE_RE = re.compile(r"^\d{4}\s+(?:\d+:\d+\s+)?(CALL_FN|CALL_QUERY|RAISE|REQUIRE|TABLE|EFFECT)\b"
                     r'[^;\n]*; ([^"\n]*)', re.M)
# The engine's moments each effect raises (language.md §6.1).
EFFECT_MOMENT = {"give": "give", "take": "take", "take all": "take", "destroy": "destroy",
                 "move": "enter", "disembark": "enter"}
# The moments play itself raises: `move` (walk, walk_end) and the clock's `next`.
PLAY_MOMENTS = ("walk", "walk_end", "phase_end", "phase_start", "turn_start")


def code_of(text):
    """The text with its comments (`#` to the end of the line, outside strings) taken out."""
    return "".join(t for t in TOKEN_RE.findall(text) if not t.startswith("#"))


def mentions(ident, text):
    return re.search(re.escape(ident) + r"(?![A-Za-z0-9\-]|\.[A-Za-z0-9])", text) is not None


def hon_files(*dirs):
    out = []
    for d in dirs:
        full = os.path.join(ROOT, d)
        if os.path.isdir(full):
            out += [os.path.join(d, f) for f in sorted(os.listdir(full)) if f.endswith(".hon")]
    return out


def owners_of(code):
    """{ID: set of rule and table names whose clauses cite it} for one file's code."""
    owner, out = None, {}
    for kind, name, ident in OWNER_RE.findall(code):
        if name:
            owner = name
        elif owner:
            out.setdefault(ident, set()).add(owner)
    return out


def read_judgements(path):
    """The lines of coverage_play.txt: procedures, asked queries, clause groups (in order)."""
    procs, asks, groups = {}, {}, []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, rest = line.split(None, 1)
        if word == "procedure" or word == "asks":
            name, reason = rest.split(None, 1)
            (procs if word == "procedure" else asks)[name] = reason
        elif word in ("board", "not", "standalone", "unplayed", "partly"):
            pattern, reason = rest.split(None, 1)
            groups.append((word, pattern, reason))
        else:
            sys.exit(f"{path}:{n}: unknown word '{word}'")
    return procs, asks, groups


def reached_from(hon, roots, moment_event):
    """Names of the queries, events and fns reached from roots, and the rules and tables."""
    seen, rules, tables, front = set(), set(), set(), sorted(set(roots))
    while front:
        run = subprocess.run([hon], input="".join(f"dis {n}\n" for n in front),
                             capture_output=True, text=True, cwd=ROOT)
        seen |= set(front)
        nxt = set()
        parts = HEAD_RE.split(run.stdout)
        for i in range(1, len(parts), 3):
            kind, name, body = parts[i], parts[i + 1], parts[i + 2]
            if kind == "rule":
                rules.add(name)
            for op, arg in EDGE_RE.findall(body):
                arg = arg.strip()
                if op == "TABLE":
                    tables.add(arg)
                elif op == "EFFECT":
                    if EFFECT_MOMENT.get(arg) in moment_event:
                        nxt.add(moment_event[EFFECT_MOMENT[arg]])
                else:
                    nxt.add(arg)
        front = sorted(nxt - seen)
    return seen, rules, tables


def inventory_path():
    """shared/rules-inventory.md in the nearest folder above the work tree that has it, or None."""
    d = ROOT
    while os.path.dirname(d) != d:
        d = os.path.dirname(d)
        p = os.path.join(d, "shared", "rules-inventory.md")
        if os.path.exists(p):
            return p
    return None


def ids_page(inventory):
    """docs/spec/inventory.md's text from the inventory's: its book and section headings and,
    under each, a table of the IDs with their kinds (an ERR.* row's kind names the clauses it
    is about); the clause summaries are left out."""
    out = ["# Rules inventory: the IDs\n\n",
           "Generated by `tests/rules/coverage.py` from the project's rules inventory, kept beside\n",
           "the rulebooks outside the repository; do not edit by hand (the `coverage-current` test\n",
           "fails when this file is out of date). Every rule clause of the five books has an ID,\n",
           "listed here by book and section with its kind (`geo`, `pass`, `mod`, `trig`, `proc`,\n",
           "`tab`, `lim`, `rec`, `state`; a worked example `EX.*` names its book and section, an\n",
           "erratum `ERR.*` the clauses it is about). The inventory's one-line summaries of the\n",
           "clauses are not copied here; the books are the authority. `docs/spec/coverage.md` is\n",
           "generated from this list when the inventory is not at hand, and `hon coverage\n",
           "--inventory docs/spec/inventory.md` reads it (`repl.md` §1).\n"]
    table = False
    for line in inventory.splitlines():
        if re.match(r"#{2,3} ", line):
            out.append("\n" + line + "\n")
            table = False
            continue
        m = ID_RE.match(line)
        if m:
            if not table:
                out.append("\n| ID | kind |\n|---|---|\n")
                table = True
            out.append(f"| {m.group(1)} | {m.group(2).strip()} |\n")
    return "".join(out)


def group_of(ident, kinds, groups):
    """The first clause group matching the ID and its inventory kind; an ERR.* (whose second
    column names the clauses it is about) follows the first of those clauses."""
    if ident.startswith("ERR."):
        m = re.match(r"\s*((?:BRO|HH|GZ6|BFN|RR)\.[A-Za-z0-9.\-]+)", kinds[ident])
        if m and m.group(1) in kinds:
            ident = m.group(1)
    own = [k.strip() for k in kinds[ident].split(",")]
    for word, pattern, reason in groups:
        if word == "standalone":
            continue
        if fnmatch.fnmatchcase(ident, pattern) or \
                (pattern.startswith("kind:") and pattern[5:] in own):
            return word, reason
    return "board", "describes something happening on the board"


def main():
    args = sys.argv[1:]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    inv = None if "--no-inventory" in args else opt("--inventory", inventory_path())
    ids_out = os.path.join(ROOT, "docs", "spec", "inventory.md")
    ids_text = ids_page(open(inv, encoding="utf-8").read()) if inv else None
    if ids_text is None:
        ids_text = open(ids_out, encoding="utf-8").read()
    out = opt("--out", os.path.join(ROOT, "docs", "spec", "coverage.md"))
    hon = os.path.abspath(opt("--hon", os.path.join(ROOT, "build", "repl", "hon")))
    procs, asks, groups = read_judgements(os.path.join(HERE, "coverage_play.txt"))
    ids = ID_RE.findall(ids_text)
    rules = {f: code_of(open(os.path.join(ROOT, f), encoding="utf-8").read())
             for f in hon_files("rules", "expansions")}
    tests = {f: open(os.path.join(ROOT, f), encoding="utf-8").read()
             for f in hon_files("tests/rules", "tests/events")}
    owners = {}
    for text in rules.values():
        for ident, names in owners_of(text).items():
            owners.setdefault(ident, set()).update(names)
    moment_event = {m: e for e, m in EVENT_RE.findall("\n".join(rules.values())) if m}
    roots = [moment_event[m] for m in PLAY_MOMENTS if m in moment_event]
    roots += list(procs) + list(asks)
    seen, reached_rules, reached_tables = reached_from(hon, roots, moment_event)
    events = {e for e, _ in EVENT_RE.findall("\n".join(rules.values()))}

    kinds = {ident: kind for ident, kind in ids}
    rows, encoded, tested, board, play, why_not = [], 0, 0, 0, 0, {}
    for ident, kind in ids:
        cite_re = re.compile(r'cite\s+"' + re.escape(ident) + '"')
        r = [f for f, t in rules.items() if cite_re.search(t)]
        t = [f for f, s in tests.items() if mentions(ident, s)]
        encoded += bool(r)
        tested += bool(t)
        on_board, why = group_of(ident, kinds, groups)
        names = sorted(owners.get(ident, ()))
        in_play = any(n in reached_rules or n in reached_tables for n in names)
        # A judgement may take back what the reach finds: a clause whose rules are reached only
        # through a query or table that another clause's play asks (`unplayed`), or a clause of
        # which play runs one part (`partly`).
        unplayed = [reason for word, pattern, reason in groups
                    if word == "unplayed" and fnmatch.fnmatchcase(ident, pattern)]
        partly = [reason for word, pattern, reason in groups
                  if word == "partly" and fnmatch.fnmatchcase(ident, pattern)]
        in_play = in_play and not unplayed
        if on_board == "board":
            board += 1
            play += in_play
        note = unplayed + [reason for word, pattern, reason in groups
                           if word == "standalone" and fnmatch.fnmatchcase(ident, pattern)]
        if on_board == "board" and not in_play:
            group = note[0].split(":")[0] if note else "no reason written yet"
            why_not[group] = why_not.get(group, 0) + 1
        if in_play:
            status = "play" + "".join(f", in part: {r}" for r in partly[:1])
        elif unplayed:
            status = "standalone: " + unplayed[0]
        elif not names:
            status = "; ".join(["not encoded"] + note[:1])
        else:
            heads = sorted({n.split(".")[0] for n in names})
            asked = [h for h in heads if h not in events]
            raised = [h for h in heads if h in events]
            parts = []
            if asked:
                parts.append("its rules answer " + ", ".join(f"`{h}`" for h in asked)
                             + ", which nothing in play asks")
            if raised:
                parts.append("its rules run on " + ", ".join(f"`{h}`" for h in raised)
                             + ", which nothing in play raises")
            status = "standalone: " + "; ".join(parts + note[:1])
        rows.append(f"| {ident} | {'yes' if on_board == 'board' else 'no: ' + why} | {status} "
                    f"| {', '.join(r) or '—'} | {', '.join(t) or '—'} |")

    text = []
    w = text.append
    w("# Rule coverage\n\n")
    w("Generated by `tests/rules/coverage.py` from the IDs of the rules inventory\n")
    w("(`inventory.md`), the compiled bundled rules and the judgements of\n")
    w("`tests/rules/coverage_play.txt`; do not edit by hand\n")
    w("(the `coverage-current` test fails when this file is out of date: run\n")
    w("`tests/rules/coverage.py` from the work tree after `ninja -C build`).\n\n")
    w("For each inventory ID: whether its clause describes something happening on the board (a\n")
    w("judgement, with the reason when not), whether it takes part in play, the rule files\n")
    w("(`rules/`, `expansions/`) whose rules cite it, and the rule test files (`tests/rules/`,\n")
    w("`tests/events/`) whose tests name it. A dash means not yet. Worked examples (`EX.*`) are\n")
    w("cited by the rule or table row they check.\n\n")
    w("**In play** means a rule or table citing the ID is reached from what play runs, following\n")
    w("the compiled program's calls (`hon dis`): the events the engine raises itself (`move`'s\n")
    w("`on walk` and `on walk_end`, the clock's `on phase_end`, `on phase_start`, `on turn_start`),\n")
    w("the queries the board commands ask, and the events a player runs as an action with `do`;\n")
    w("then every event raised (`raise`, and the moments of effects: `give`, `take`, `destroy`,\n")
    w("`move`), query asked (`require` too), fn called and table read. **Standalone** means its\n")
    w("rules answer only when asked directly (a query, or `do` of an event nothing raises), or\n")
    w("are reached only through a query or table that another clause's play asks (a judgement of\n")
    w("`coverage_play.txt`, its reason given). **Play, in part** names the part of a clause that\n")
    w("nothing in play runs.\n\n")
    w("The roots of play:\n\n- the events on " + ", ".join(f"`{m}`" for m in PLAY_MOMENTS) + ";\n")
    w("".join(f"- `{q}`, asked by {why};\n" for q, why in asks.items()))
    w("".join(f"- `{e}`: {why};\n" for e, why in procs.items()))
    w("\n")
    share = 100.0 * play / board if board else 0.0
    w(f"{len(ids)} IDs: {encoded} cited by a rule, {tested} named by a test. Of the {board} "
      f"clauses that describe something happening on the board, {play} take part in play: "
      f"**{share:.1f} %**.\n\n")
    w("The board clauses not in play (standalone or not encoded), by why they stay so\n")
    w("(`coverage_play.txt`; each row's own reason is in the table below):\n\n")
    w("| why | clauses |\n|---|---|\n")
    w("".join(f"| {r} | {n} |\n" for r, n in sorted(why_not.items(), key=lambda x: (-x[1], x[0]))))
    w("\n")
    w("| ID | on the board | in play | rule file(s) | test file(s) |\n|---|---|---|---|---|\n")
    w("\n".join(rows) + "\n")
    text = "".join(text)
    if "--check" in args:
        stale = [path for path, want in ((ids_out, ids_text), (out, text))
                 if (open(path, encoding="utf-8").read() if os.path.exists(path) else "") != want]
        if stale:
            print(f"{' and '.join(stale)} out of date: run tests/rules/coverage.py --hon {hon}")
            return 1
        print(f"{out} is current: {share:.1f} % of board clauses in play")
        return 0
    for path, want in ((ids_out, ids_text), (out, text)):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(want)
    print(f"{out}: {len(ids)} IDs, {encoded} encoded, {tested} tested, "
          f"{play}/{board} board clauses in play ({share:.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
