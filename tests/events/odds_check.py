#!/usr/bin/env python3
"""odds_check.py — checks an exact distribution printed by `hon odds` under chosen options.

Usage: odds_check.py HON [OPTION...] -- EXPR VALUE=P [VALUE=P ...] [every:ITEM ...] [sum:TEXT=P ...]
Runs `HON OPTION... odds EXPR` (bundled rules, e.g. `--variant derail_threshold=higher_than_four`)
and requires exactly the VALUE lines given, each with probability P (a fraction). With sum:
arguments, the VALUE lines given must be among those printed (not all of them), the
probabilities printed must add up to 1, and those of the outcomes whose line contains TEXT must
add up to P: for a distribution with too many outcomes to list by hand. EXPR may be
`do EVENT(ARGS)` (`hon odds do`, the odds of a procedure, with `--load` and `--board` among the
options): then the `in every outcome: ...` line must hold each ITEM of the every: arguments,
and the closing `note: ...` line is not an outcome. Used by tests/events/meson.build for the
derailment dice under each reading of ERR.derail-threshold.

`--before LINE` among the options (any number, in order) plays LINE in the REPL on the board
before the odds are taken (`next`, `do order_numbered($u, 1)`, ...: a Firing Action is taken in
the Activation Phase by the unit being activated); the REPL is then run with those lines and
`odds do EXPR` on its input, and what the lines alone print is cut off the front.
"""
import subprocess, sys
from fractions import Fraction


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    cut = args.index("--")
    hon, opts, expr, pairs = args[0], args[1:cut], args[cut + 1], args[cut + 2:]
    every = [x[len("every:"):] for x in pairs if x.startswith("every:")]
    sums = {v: Fraction(p) for v, p in (x[len("sum:"):].rsplit("=", 1) for x in pairs
                                        if x.startswith("sum:"))}
    want = {v: Fraction(p) for v, p in (x.rsplit("=", 1) for x in pairs
                                        if not x.startswith(("every:", "sum:")))}
    before, rest = [], []
    while opts:
        o = opts.pop(0)
        if o == "--before" and opts:
            before.append(opts.pop(0))
        else:
            rest.append(o)
    opts = rest
    if before:
        lead = subprocess.run([hon, *opts], input="\n".join(before) + "\n",
                              capture_output=True, text=True)
        if lead.returncode != 0:
            print(f"hon failed on the --before lines ({lead.returncode}):\n{lead.stdout}"
                  f"{lead.stderr}", file=sys.stderr)
            return 1
        p = subprocess.run([hon, *opts], input="\n".join(before + ["odds " + expr]) + "\n",
                           capture_output=True, text=True)
        out = p.stdout.splitlines()[len(lead.stdout.splitlines()):]
    else:
        words = ["do", expr[3:]] if expr.startswith("do ") else [expr]
        p = subprocess.run([hon, *opts, "odds", *words], capture_output=True, text=True)
        out = p.stdout.splitlines()
    if p.returncode != 0:
        print(f"hon odds failed ({p.returncode}):\n{p.stdout}{p.stderr}", file=sys.stderr)
        return 1
    got, common = {}, None
    for line in out:
        if line.startswith("in every outcome: "):
            common = line[len("in every outcome: "):].split("; ")
        elif line.strip() and not line.startswith(("note: ", "(under ")):
            value, _, prob = line.rpartition(":")
            got[value.strip()] = Fraction(prob.split()[0])
    if sums:
        bad = {v: p for v, p in want.items() if got.get(v) != p}
        bad.update({f"sum:{t}": p for t, p in sums.items()
                    if sum(q for v, q in got.items() if t in v) != p})
        if bad or sum(got.values()) != 1:
            print(f"odds of {expr} with {opts}: got {got}, expected {bad} (and a total of 1)",
                  file=sys.stderr)
            return 1
    elif got != want:
        print(f"odds of {expr} with {opts}: got {got}, expected {want}", file=sys.stderr)
        return 1
    missing = [i for i in every if i not in (common or [])]
    if missing:
        print(f"odds of {expr}: {missing} not in every outcome ({common})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
