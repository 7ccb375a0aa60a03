#!/usr/bin/env python3
"""tests/layering/check.py — the house rules of the source tree, checked (TAP output).

1. Components stand on each other in one order: base < runtime < dsl < interp < repl and bench.
   A file may include headers of its own component and of the components below it, never above.
2. repl/ and bench/ see only the public header (include/hon.h) and their own headers: they are
   built against include/ alone (meson's hon_public_dep), and this keeps their sources honest
   about it too.
3. No include cycles between modules. A module is a .c/.h pair (interp/vm.c with interp/vm.h);
   a larger module may span files named after it (runtime/scenario.c, scenario_text.c and
   scenario_place.c, sharing the private header scenario_text.h). Module A depends on B when a
   file of A includes B's header. A cycle (A needs B, B needs A, directly or around a longer
   circle) means the two cannot be understood or tested apart.
4. No source file (.c, .h, .l, .y), tests included, over 1,500 lines.

Usage: check.py SOURCE_ROOT. Exit status 0 when every check passes.
"""
import os
import re
import sys

ORDER = {"base": 0, "runtime": 1, "dsl": 2, "interp": 3, "repl": 4, "bench": 4}
PUBLIC = "include"
MAX_LINES = 1500
# headers generated into the build tree, and which component they belong to
GENERATED = {"parser.h": "dsl", "lexer.h": "dsl", "config.h": "base",
             "repl_config.h": "repl"}
SOURCE_EXT = (".c", ".h", ".l", ".y")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def component(rel):
    top = rel.split("/", 1)[0]
    return top if top in ORDER or top == PUBLIC else None


def sources(root):
    for top in list(ORDER) + [PUBLIC]:
        for base, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith(SOURCE_EXT):
                    yield os.path.relpath(os.path.join(base, f), root)


def tests_sources(root):
    for base, _, files in os.walk(os.path.join(root, "tests")):
        for f in sorted(files):
            if f.endswith(SOURCE_EXT):
                yield os.path.relpath(os.path.join(base, f), root)


def resolve(root, rel, name, headers):
    """The tree path of the header `name` included from `rel`, or None (generated/system)."""
    here = os.path.normpath(os.path.join(os.path.dirname(rel), name))
    if os.path.exists(os.path.join(root, here)):
        return here
    found = headers.get(os.path.basename(name), [])
    return found[0] if len(found) == 1 else None


def module(rel, root):
    """The module of a file: its stem, or MODULE when the stem is MODULE_part and a MODULE.c or
    MODULE.h stands in the same folder."""
    stem = os.path.splitext(rel)[0]
    folder, name = os.path.split(stem)
    while "_" in name:
        name = name.rsplit("_", 1)[0]
        cand = os.path.join(folder, name)
        if any(os.path.exists(os.path.join(root, cand + ext)) for ext in (".c", ".h")):
            return cand
    return stem


def find_cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    files = list(sources(root))
    headers = {}
    for f in files:
        if f.endswith(".h"):
            headers.setdefault(os.path.basename(f), []).append(f)

    layer_errors, public_errors, size_errors = [], [], []
    graph = {}
    for rel in files:
        comp = component(rel)
        text = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read()
        lines = text.count("\n")
        if lines > MAX_LINES:
            size_errors.append(f"{rel}: {lines} lines (at most {MAX_LINES})")
        for name in INCLUDE_RE.findall(text):
            target = resolve(root, rel, name, headers)
            tcomp = component(target) if target else GENERATED.get(os.path.basename(name))
            if tcomp is None:
                continue
            if comp in ("repl", "bench"):
                if tcomp not in (PUBLIC, comp):
                    public_errors.append(f"{rel} includes \"{name}\" ({tcomp}/): "
                                         f"{comp}/ sees only include/")
                continue
            if comp == PUBLIC:
                if tcomp != PUBLIC:
                    public_errors.append(f"{rel} includes \"{name}\": the public header "
                                         "includes nothing of the tree")
                continue
            if tcomp != PUBLIC and ORDER[tcomp] > ORDER[comp]:
                layer_errors.append(f"{rel} includes \"{name}\" from {tcomp}/, which stands "
                                    f"above {comp}/")
            if target and module(target, root) != module(rel, root):
                graph.setdefault(module(rel, root), set()).add(module(target, root))

    for rel in sorted(set(tests_sources(root))):
        lines = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read().count("\n")
        if lines > MAX_LINES:
            size_errors.append(f"{rel}: {lines} lines (at most {MAX_LINES})")

    cycles = find_cycles(graph)
    checks = [
        ("components include only downward (base < runtime < dsl < interp < repl, bench)",
         layer_errors),
        ("repl/ and bench/ include only include/ and their own headers", public_errors),
        ("no include cycles between modules",
         ["cycle: " + " <-> ".join(c) for c in cycles]),
        (f"no source file over {MAX_LINES} lines", size_errors),
    ]
    print(f"1..{len(checks)}")
    status = 0
    for i, (what, errors) in enumerate(checks, 1):
        print(f"{'not ok' if errors else 'ok'} {i} - {what}")
        for e in errors:
            print(f"# {e}")
        if errors:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
