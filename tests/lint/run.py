#!/usr/bin/env python3
# tests/lint/run.py — `hon lint` driven as a subprocess: the command line and the REPL command on
# tests/golden/lint's files (which pin every warning's text), and the bundled rules with their
# tests, which must give no warning beyond the findings listed in BUNDLED_FINDINGS below.
# Usage: run.py HON SOURCE_ROOT CASE. Exit 0 when the case passes.
import os
import re
import subprocess
import sys
import tempfile

# The warnings the bundled rules give, each a finding reported to the lead (not a lint error):
# (file, code, the name the message starts with). A new warning, or one of these gone with its
# cause, fails the case: the list is kept true. Empty: the bundled rules lint clean.
BUNDLED_FINDINGS = set()

WARNING = re.compile(r"^(\S+?):\d+:\d+: warning\[(W\d{3})\]: (.*)$")


def run(hon, root, args, stdin=None):
    return subprocess.run([hon] + args, cwd=root, input=stdin, capture_output=True, text=True,
                          timeout=300)


def fail(msg, r=None):
    print("FAIL:", msg)
    if r is not None:
        print("exit", r.returncode, "\nstdout:\n" + r.stdout + "\nstderr:\n" + r.stderr)
    return 1


def warnings_of(text):
    return [m.groups() for m in map(WARNING.match, text.splitlines()) if m]


def case_cli(hon, root):
    bad = "tests/golden/lint/bad.hon"
    r = run(hon, root, ["--no-rules", "lint", bad])
    codes = {w[1] for w in warnings_of(r.stderr)}
    # bad.hon holds every code once at least (its .expected file pins the texts)
    if r.returncode != 1 or codes != {"W00%d" % i for i in range(1, 8)}:
        return fail("lint of bad.hon: exit 1 with W001-W007", r)
    # in file and line order (rev12c defect 8): compilers, linters and editors' lists of
    # places read them so; the places bad.hon's warnings name never go back
    places = [tuple(map(int, m.groups())) for m in
              (re.match(r"^\S+?:(\d+):(\d+): warning", l) for l in r.stderr.splitlines()) if m]
    if len(places) != 22 or places != sorted(places):
        return fail("lint of bad.hon: its 22 warnings in line order", r)
    # two files: the first file named (z.hon) first, though its name sorts last, each file in
    # line order: z.hon's constant guard (W003, W004 at line 3) before its unused fn (W001,
    # line 5), then a.hon's unused fn (W001, line 1)
    with tempfile.TemporaryDirectory() as d:
        z, a = os.path.join(d, "z.hon"), os.path.join(d, "a.hon")
        with open(z, "w") as f:
            f.write('source "Z.1";\nquery q() -> int combine first default 0;\n'
                    'rule q.never cite "Z.1" when 1 > 2 answer 1;\n\n'
                    'fn unused_z() -> int = 1;\n')
        with open(a, "w") as f:
            f.write("fn unused_a() -> int = 2;\n")
        r2 = run(hon, root, ["--no-rules", "lint", z, a])
        got = [(w[0], w[1]) for w in warnings_of(r2.stderr)]
        if got != [(z, "W004"), (z, "W003"), (z, "W001"), (a, "W001")]:
            return fail("lint of two files: file and line order", r2)
    r = run(hon, root, ["--no-rules", "lint", "tests/golden/lint/clean.hon"])
    if r.returncode != 0 or r.stderr or r.stdout:
        return fail("lint of clean.hon: exit 0, nothing written", r)
    # the REPL command: the loaded program, then a file named
    r = run(hon, root, ["--no-rules"], "load %s\nlint\n" % bad)
    if len(warnings_of(r.stderr)) != 22:  # bad.expected's count
        return fail("REPL lint after load: bad.hon's 22 warnings", r)
    r = run(hon, root, ["--no-rules"], "lint tests/golden/lint/clean.hon\n")
    if r.returncode != 0 or "warning" in r.stderr:
        return fail("REPL lint FILE: clean.hon gives none", r)
    # a file that does not load: its errors, exit 1, no warning
    r = run(hon, root, ["--no-rules", "lint", "no/such/file.hon"])
    if r.returncode != 1 or "E005" not in r.stderr or warnings_of(r.stderr):
        return fail("lint of a missing file: E005, exit 1", r)
    return 0


def case_bundled(hon, root):
    args = ["--rules", "rules", "--rules", "expansions", "--rules", "tests/rules",
            "--rules", "tests/events", "lint", "rules", "expansions"]
    r = run(hon, root, args)
    if "error" in r.stderr:
        return fail("the bundled rules and their tests load and lint without error", r)
    found = set()
    for path, code, msg in warnings_of(r.stderr):
        key = next((f for f in BUNDLED_FINDINGS
                    if path.endswith(f[0]) and code == f[1] and msg.startswith(f[2])), None)
        if key is None:
            return fail("a warning not among the known findings: %s %s %s" % (path, code, msg), r)
        found.add(key)
    if found != BUNDLED_FINDINGS:
        return fail("known findings no longer given (drop them from BUNDLED_FINDINGS): %s"
                    % sorted(BUNDLED_FINDINGS - found), r)
    if r.returncode != (1 if found else 0):
        return fail("exit status: 1 with warnings, 0 without", r)
    return 0


def case_bundled_alone(hon, root):
    # `hon lint rules expansions` as a rules author types it: the bundled rules without their
    # tests, so a fn or table only a test asks is read by nothing. The book facts kept for the
    # users to ask are marked `# lint: entry` (errors.md, W001); nothing else may warn.
    r = run(hon, root, ["lint", "rules", "expansions"])
    if r.returncode != 0 or r.stderr or r.stdout:
        return fail("hon lint rules expansions: no warning, exit 0", r)
    return 0


def documented_codes(root):
    # the codes of errors.md's table of warnings: rows `| W0NN | ...`
    with open(os.path.join(root, "docs", "spec", "errors.md")) as f:
        return {m.group(1) for m in re.finditer(r"^\| (W\d{3}) \|", f.read(), re.M)}


# An example input as the warnings write one: a query applied to its arguments, `name(...)`.
EXAMPLE_INPUT = re.compile(r"\b[a-z_][a-z0-9_]*\([^()]*\)")


def case_documented(hon, root):
    # Every warning errors.md documents is found in tests/golden/lint/bad.hon, and each warning
    # found by running the rules (W004-W007) names the input that shows it, except W004 for a
    # guard that folds to false: no input matters there (its W003 points at the guard).
    codes = documented_codes(root)
    if codes != {"W00%d" % i for i in range(1, 8)}:
        print("FAIL: errors.md documents", sorted(codes))
        return 1
    r = run(hon, root, ["--no-rules", "lint", "tests/golden/lint/bad.hon"])
    found = warnings_of(r.stderr)
    missing = codes - {w[1] for w in found}
    if missing:
        return fail("bad.hon gives no %s" % sorted(missing), r)
    for path, code, msg in found:
        if code in ("W004", "W005", "W006", "W007") and not msg.endswith("always false") \
                and not EXAMPLE_INPUT.search(msg):
            return fail("%s without an example input: %s" % (code, msg), r)
    return 0


def case_capped(hon, root):
    # A query of 16 parameters (15 of a one-value enum, one bool: 2 inputs) reaches the cap of
    # dimensions lint enumerates (16), so the variant its rule reads is not enumerated: it keeps
    # its default reading `off`, under which the rule never fires. That is not every input, so
    # lint must not say the rule never fires (W004): under `lit` it answers 1.
    import tempfile
    params = ", ".join("a%d: single" % i for i in range(15))
    text = ("enum single { only }\n"
            "source \"T.1\" = \"this test\";\n"
            "variant switch \"a switch\" { reading off \"off\" default; reading lit \"on\"; }\n"
            "query wide(%s, x: bool) -> int combine first default 0;\n"
            "rule wide.lit_only cite \"T.1\" when variant switch == lit answer 1;\n"
            "test \"wide\" variant switch = lit {\n"
            "  expect wide(%s, true) == 1;\n}\n"
            % (params, ", ".join(["only"] * 15)))
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "wide.hon")
        with open(f, "w") as out:
            out.write(text)
        r = run(hon, root, ["--no-rules", "test", f])
        if r.returncode != 0:
            return fail("wide.hon loads and its test passes", r)
        r = run(hon, root, ["--no-rules", "lint", f])
        if any(w[1] == "W004" for w in warnings_of(r.stderr)):
            return fail("a rule whose variant lint could not enumerate is not 'never fires'", r)
    return 0


def case_editions(hon, root):
    # `hon --edition E lint` for every bundled edition (the REPL's `edition` lists them, one a
    # line, the active one marked `*`): the enumeration runs under E, and a query declared by a
    # book E leaves out has none of its rules there, so no W006 gap may be said of it (the fresh
    # review of issue 12: 15 under bloody_omaha, from the expansions' queries).
    r = run(hon, root, [], stdin="edition\n")
    names = [l.lstrip("* ").split()[0] for l in r.stdout.splitlines() if l.strip()]
    if len(names) < 5 or "bloody_omaha" not in names:
        return fail("the REPL's `edition` lists the bundled editions", r)
    for e in names:
        r = run(hon, root, ["--edition", e, "lint"])
        if r.returncode != 0 or r.stderr or r.stdout:
            return fail("hon --edition %s lint: no warning, exit 0" % e, r)
    return 0


CASES = {"lint_cli": case_cli, "lint_bundled": case_bundled, "lint_capped": case_capped,
         "lint_bundled_alone": case_bundled_alone, "lint_documented": case_documented,
         "lint_editions": case_editions}

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[3] not in CASES:
        print("usage: run.py HON SOURCE_ROOT CASE (%s)" % ", ".join(CASES))
        sys.exit(2)
    # meson may name the program relative to the build directory, the cwd of the test
    sys.exit(CASES[sys.argv[3]](os.path.abspath(sys.argv[1]), sys.argv[2]))
