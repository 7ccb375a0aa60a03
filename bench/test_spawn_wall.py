#!/usr/bin/env python3
"""bench/test_spawn_wall.py SPAWN_WALL HON: the usage of bench/spawn_wall.py (suite bench).

`--help` prints the usage and exits 0 (it once tried to start a program named --help and died
in a traceback); a bad --runs or an empty command is a usage error (exit 2, the usage line on
standard error, no traceback); a program that cannot be started is said once (exit 1); a short
run prints one line per command and the load average. Never how fast anything is."""
import re
import subprocess
import sys


def run(script, *args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True,
                          timeout=60)


def main(script, hon):
    failures = []

    def expect(what, ok):
        if not ok:
            failures.append(what)

    r = run(script, "--help")
    expect("--help exits 0", r.returncode == 0)
    expect("--help prints the usage", r.stdout.startswith("usage: bench/spawn_wall.py"))
    expect("--help names --runs", "--runs N" in r.stdout)
    for args in (["--runs", "0", "/bin/true"], ["--runs", "x", "/bin/true"], ["--runs"], [],
                 ["/bin/true", "--"], ["/bin/true", "--", "--", "/bin/true"],
                 ["--bogus", "/bin/true"]):
        r = run(script, *args)
        expect(f"{args}: exit 2", r.returncode == 2)
        expect(f"{args}: the usage on stderr", r.stderr.startswith("usage: "))
        expect(f"{args}: no traceback", "Traceback" not in r.stderr)
    r = run(script, "--runs", "2", "/nonexistent/program")
    expect("a missing program: exit 1", r.returncode == 1)
    expect("a missing program: said", "cannot start /nonexistent/program" in r.stderr)
    expect("a missing program: no traceback", "Traceback" not in r.stderr)
    r = run(script, "--runs", "2", hon, "--version", "--", "/bin/true")
    lines = r.stdout.splitlines()
    expect("a run: exit 0", r.returncode == 0)
    expect("a run: one line per command, then the load",
           len(lines) == 3 and lines[0].startswith(f"{hon} --version: best ")
           and lines[1].startswith("/bin/true: best ") and lines[2].startswith("load average"))
    expect("a run: the fewest and the median faults",
           all(re.search(r" \d+ minor faults \(median \d+(\.5)?\) \(best of 2\)$", l)
               for l in lines[:2]))
    r = run(script, "--runs", "1", "/bin/false")
    expect("a failing command: exit 1 and its status", r.returncode == 1
           and "/bin/false: exit status 1" in r.stderr)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
