#!/usr/bin/env python3
"""tests/format/check.py — every C source of the tree is laid out as .clang-format says (TAP).

Runs `clang-format --dry-run -Werror` on each .c and .h file of the components and of tests/
and reports the files it would change; `clang-format -i FILE` fixes one. Exit status 0 when all
conform, 1 when one does not, 77 (meson's "skipped") when no clang-format is installed.
Usage: check.py SOURCE_ROOT
"""
import os
import shutil
import subprocess
import sys

FOLDERS = ["base", "runtime", "dsl", "interp", "repl", "bench", "include", "tests"]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    exe = os.environ.get("CLANG_FORMAT") or shutil.which("clang-format")
    if not exe:
        print("1..0 # SKIP no clang-format")
        return 77
    files = []
    for top in FOLDERS:
        for base, _, names in os.walk(os.path.join(root, top)):
            files += [os.path.join(base, n) for n in sorted(names) if n.endswith((".c", ".h"))]
    files.sort()
    # One clang-format run for all files (one process per file is slow on a loaded machine); its
    # complaints start with the path of the file they are about.
    run = subprocess.run([exe, "--dry-run", "-Werror", f"--style=file:{root}/.clang-format"]
                         + files, capture_output=True, text=True)
    complaints = {}
    for line in run.stderr.splitlines():
        path = line.split(":", 1)[0]
        if path in files:
            complaints.setdefault(path, []).append(line)
    if run.returncode != 0 and not complaints:
        print("1..1")
        print("not ok 1 - clang-format failed: " + (run.stderr.strip().splitlines() or ["?"])[0])
        return 1
    print(f"1..{len(files)}")
    status = 0
    for i, path in enumerate(files, 1):
        rel = os.path.relpath(path, root)
        if path not in complaints:
            print(f"ok {i} - {rel}")
            continue
        status = 1
        print(f"not ok {i} - {rel} (run: clang-format -i {rel})")
        for line in complaints[path][:3]:
            print(f"# {line}")
    return status


if __name__ == "__main__":
    sys.exit(main())
