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
    print(f"1..{len(files)}")
    status = 0
    for i, path in enumerate(sorted(files), 1):
        rel = os.path.relpath(path, root)
        run = subprocess.run([exe, "--dry-run", "-Werror", f"--style=file:{root}/.clang-format",
                              path], capture_output=True, text=True)
        if run.returncode == 0:
            print(f"ok {i} - {rel}")
        else:
            status = 1
            print(f"not ok {i} - {rel} (run: clang-format -i {rel})")
            for line in run.stderr.splitlines()[:6]:
                print(f"# {line}")
    return status


if __name__ == "__main__":
    sys.exit(main())
