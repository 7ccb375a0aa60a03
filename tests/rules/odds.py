#!/usr/bin/env python3
"""odds.py — checks an exact distribution printed by `hon odds` against expected fractions.

Usage: odds.py HON FILE.hon EXPR VALUE=P [VALUE=P ...]
Runs `HON --load FILE.hon odds EXPR` (the bundled rules plus FILE) and requires one
`value: probability` line per expected VALUE, with probability P (a fraction such as 1/2; the
program may print a fraction or a decimal). Used by tests/rules/meson.build for the dice rules
whose `roll d6` cannot be checked inside a `test` block (EX.BRO.mines).
"""
import subprocess, sys
from fractions import Fraction


def parse_prob(text):
    # "1/2", "1/2 (50.00%)", "0.5": the first word is the probability.
    text = text.split()[0] if text.split() else text
    if "/" in text:
        return Fraction(text)
    return Fraction(text).limit_denominator(1_000_000)


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    hon, path, expr = sys.argv[1:4]
    want = {}
    for pair in sys.argv[4:]:
        value, prob = pair.split("=", 1)
        want[value] = Fraction(prob)
    p = subprocess.run([hon, "--load", path, "odds", expr], capture_output=True, text=True)
    if p.returncode != 0:
        print(f"hon odds failed ({p.returncode}):\n{p.stdout}{p.stderr}", file=sys.stderr)
        return 1
    got = {}
    for line in p.stdout.splitlines():
        if not line.strip() or line.startswith("(under "):  # the setting, when not the default
            continue
        value, _, prob = line.rpartition(":")
        got[value.strip()] = parse_prob(prob)
    if got != want:
        print(f"odds of {expr}:\n  expected {want}\n  got      {got}\n{p.stdout}", file=sys.stderr)
        return 1
    print(f"ok: {expr}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
