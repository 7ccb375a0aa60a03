#!/usr/bin/env python3
"""readings_rows.py — every presumed reading is documented (the `docs-readings-rows` test).

A variant whose reading rules cite only PRESUMED.* IDs (no clause of a book) rests on nothing the
inventory lists: it must say which presumption it is, by naming the PRESUMED ID in its own
question text (`variant x "PRESUMED.y: ..."`), or have a row in docs/spec/readings.md that names
it (`x`, in backquotes). s20 F8: two_square_turning (rules/movement.hon, default rear_follows,
its rules citing PRESUMED.two_square_steps only) had neither.

Usage: readings_rows.py ROOT   (exit status 1, with the variants named, when one is missing)
"""
import collections
import glob
import os
import re
import sys

STRING_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    with open(os.path.join(root, "docs", "spec", "readings.md"), encoding="utf-8") as f:
        readings = f.read()
    cites = collections.defaultdict(set)   # variant -> the IDs cited by the rules reading it
    question = {}                          # variant -> its question text
    files = sorted(glob.glob(os.path.join(root, "rules", "*.hon"))
                   + glob.glob(os.path.join(root, "expansions", "*.hon")))
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # Top-level declarations start at column 0; their clauses are indented.
        for block in re.split(r"\n(?=\S)", text):
            m = re.match(r"variant (\w+)([^{]*)\{", block)
            if m:
                question[m.group(1)] = " ".join(STRING_RE.findall(m.group(2)))
                continue
            if not re.match(r"(replace )?rule ", block):
                continue
            ids = set(re.findall(r'cite "([^"]+)"', block))
            for v in set(re.findall(r"variant (\w+)\s*[=!]=", block)):
                cites[v] |= ids
    missing = []
    for v in sorted(question):
        ids = cites.get(v)
        if not ids or not all(i.startswith("PRESUMED.") for i in ids):
            continue
        if any(i in question[v] for i in ids):
            continue
        if not re.search(r"`" + re.escape(v) + r"\b", readings):
            missing.append(f"{v} (its rules cite {', '.join(sorted(ids))})")
    if not question:
        print("readings_rows.py: no variant found under", root)
        return 1
    for m in missing:
        print(f"docs/spec/readings.md: no row for the presumed reading of variant {m}, and its"
              " question names no PRESUMED ID")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
