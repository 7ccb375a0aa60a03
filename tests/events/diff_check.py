#!/usr/bin/env python3
"""diff_check.py — checks what `hon diff` finds between two settings.

Usage: diff_check.py HON [DIFF-OPTION...] A B -- TOTAL QUERY=N/M [QUERY=N/M ...]
Runs `HON diff DIFF-OPTION... A B` and requires: exit 1 (some answers differ), the summary
"TOTAL questions differ" (e.g. `8 of 16`), and for each QUERY the group line "== QUERY: N of M
differ"; a query not named must show no group of differences. Used by tests/events/meson.build
for the variant that switches Gazette #6's morale rules (morale_rules).
"""
import re, subprocess, sys


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    cut = args.index("--")
    hon, opts, total, groups = args[0], args[1:cut], args[cut + 1], args[cut + 2:]
    want = dict(g.split("=", 1) for g in groups)
    p = subprocess.run([hon, "diff", *opts], capture_output=True, text=True)
    out = p.stdout.splitlines()
    bad = []
    if p.returncode != 1:
        bad.append(f"exit {p.returncode}, expected 1 (answers differ)")
    if not out or not out[0].endswith(f": {total} questions differ"):
        bad.append(f"summary: expected '{total} questions differ'")
    got = {}
    for line in out:
        m = re.fullmatch(r"== (\w+): (\d+ of \d+) differ", line)
        if m:
            got[m.group(1)] = m.group(2).replace(" of ", "/")
    if got != want:
        bad.append(f"groups: expected {want}, got {got}")
    if bad:
        print("\n".join(bad) + "\n---- hon printed:\n" + p.stdout + p.stderr, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
