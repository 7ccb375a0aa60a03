#!/usr/bin/env python3
"""tests/fmt/run.py — `hon fmt` as a subprocess (docs/spec/format.md, repl.md §1).

Usage: run.py HON SOURCE_ROOT MODE, MODE one of
  golden     each golden/NAME.hon laid out equals golden/NAME.expected (written by hand from
             format.md's rules, the reasoning in the input's comments); --check and --diff
             write nothing; a file that does not parse is refused and left as it is; `fmt -`
             lays out standard input onto standard output the same way
  bundled    `hon fmt --check` finds nothing to change in rules, expansions, examples,
             tests/rules, tests/events and tests/repl (but its fixture that must not parse)
  idempotent every .hon file of rules/, expansions/ and tests/: laid out once, it keeps its
             tokens and its comments (text and count; read by this script's own scanner, not
             hon's), and laid out again it does not change; one that does not parse is untouched
  meaning    the bundled rules with their whitespace scrambled, then laid out: every rule's
             bytecode (`dis`, positions aside) and the rule tests' results are those of the
             bundled rules
  limits     what is refused and left as it is: a file named that is not a .hon file (a .scn
             scenario), and files whose layout would grow past 16 times their size
Shares its file list with meson.build (tests/fmt).
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HON, ROOT, MODE = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
HERE = os.path.dirname(os.path.abspath(__file__))
failures = []

# The tokens of lexer.l: comments, strings (closed or cut at the line's end), squares, unit
# names, words, integers, the two-character operators, then any other byte.
TOKEN = re.compile(r'#[^\n]*|"(?:[^"\\\n]|\\[^\n])*"?|@[A-Za-z]+[0-9]+|\$[A-Za-z_]\w*'
                   r'|[A-Za-z_]\w*|[0-9]+|->|\+\+|=>|==|!=|<=|>=|[^\s]')


def tokens(text):
    """(code tokens, comments) of a .hon text; comments without their trailing blanks."""
    code, comments = [], []
    for t in TOKEN.findall(text):
        (comments.append(t.rstrip()) if t.startswith("#") else code.append(t))
    return code, comments


def check(cond, what, detail=""):
    if not cond:
        failures.append(what + ("\n" + detail if detail else ""))


def hon(*args, cwd=None, stdin=None):
    return subprocess.run([HON, "--no-rules"] + list(args), capture_output=True, text=True,
                          cwd=cwd, input=stdin)


def hon_bytes(*args, stdin=b""):
    """hon as hon() does, its input and output as bytes: line endings as they are."""
    return subprocess.run([HON, "--no-rules"] + list(args), capture_output=True, input=stdin)


def crlf(text):
    """text (a str with LF line ends) as bytes with CR LF line ends."""
    return text.replace("\n", "\r\n").encode("utf-8", "surrogateescape")


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def hon_files(*dirs):
    for d in dirs:
        for base, subdirs, files in os.walk(d):
            subdirs[:] = sorted(s for s in subdirs if not s.startswith("."))
            for f in sorted(files):
                if f.endswith(".hon"):
                    yield os.path.join(base, f)


def golden(tmp):
    names = sorted(f[:-4] for f in os.listdir(os.path.join(HERE, "golden")) if f.endswith(".hon"))
    check(len(names) >= 2, "no golden inputs found")
    for name in names:
        src = os.path.join(HERE, "golden", name + ".hon")
        want = read(os.path.join(HERE, "golden", name + ".expected"))
        work = os.path.join(tmp, name + ".hon")
        shutil.copy(src, work)
        p = hon("fmt", "--check", work)
        changes = want != read(src)
        check(p.returncode == (1 if changes else 0) and read(work) == read(src),
              f"{name}: --check exits {p.returncode} and must not write", p.stderr)
        p = hon("fmt", "--diff", work)
        check(read(work) == read(src), f"{name}: --diff wrote the file")
        check((p.stdout.startswith(f"--- {work}\n+++ {work}\n@@ ") if changes else p.stdout == ""),
              f"{name}: --diff prints a unified diff", p.stdout)
        p = hon("fmt", work)
        check(p.returncode == 0, f"{name}: fmt failed", p.stderr)
        got = read(work)
        check(got == want, f"{name}: the layout differs from {name}.expected",
              subprocess.run(["diff", "-u", os.path.join(HERE, "golden", name + ".expected"), work],
                             capture_output=True, text=True).stdout)
        check(p.stdout == (work + "\n" if changes else ""), f"{name}: fmt names the file it changed",
              p.stdout)
        p = hon("fmt", "--check", work)
        check(p.returncode == 0 and p.stdout == "", f"{name}: the layout is not stable", p.stdout)
        # `hon fmt -` (rev12c 5): the text of stdin laid out on stdout, the same layout, as an
        # editor's filter; --check lists `<stdin>` when it would change
        p = hon("fmt", "-", stdin=read(src))
        check(p.returncode == 0 and p.stdout == want and p.stderr == "",
              f"{name}: fmt - prints the layout", p.stdout + p.stderr)
        p = hon("fmt", "--check", "-", stdin=read(src))
        check(p.returncode == (1 if changes else 0) and
              p.stdout == ("<stdin>\n" if changes else ""), f"{name}: fmt --check -", p.stdout)
        # The file's line endings are kept (format.md §1, line endings; the second review of
        # issue 12, defect 5: CR LF came back LF, so a Windows file was all changed). The same
        # golden input with CR LF ends: its layout is the .expected with CR LF ends, from
        # stdin, --check (like for like: an input laid out already is unchanged) and in place.
        src_crlf, want_crlf = crlf(read(src)), crlf(want)
        p = hon_bytes("fmt", "-", stdin=src_crlf)
        check(p.returncode == 0 and p.stdout == want_crlf,
              f"{name}: fmt - of the CR LF text keeps CR LF", repr(p.stdout[:200]))
        p = hon_bytes("fmt", "--check", "-", stdin=src_crlf)
        check(p.returncode == (1 if changes else 0),
              f"{name}: fmt --check - of the CR LF text compares like for like", repr(p.stdout))
        with open(work, "wb") as f:
            f.write(src_crlf)
        p = hon_bytes("fmt", work)
        with open(work, "rb") as f:
            check(p.returncode == 0 and f.read() == want_crlf,
                  f"{name}: fmt FILE writes the CR LF file with CR LF", repr(p.stderr))
        # A UTF-8 byte-order mark starting the file (language.md §1) is kept, as the line
        # endings are, and the text after it laid out as without it (it was refused: "the
        # layout would change its tokens").
        bom = b"\xef\xbb\xbf"
        src_bom, want_bom = bom + read(src).encode("utf-8", "surrogateescape"), \
            bom + want.encode("utf-8", "surrogateescape")
        p = hon_bytes("fmt", "-", stdin=src_bom)
        check(p.returncode == 0 and p.stdout == want_bom,
              f"{name}: fmt - of the text after a byte-order mark keeps the mark",
              repr(p.stdout[:200]) + repr(p.stderr[:300]))
        p = hon_bytes("fmt", "--check", "-", stdin=want_bom)
        check(p.returncode == 0, f"{name}: fmt --check - of a laid-out text with a byte-order mark",
              repr(p.stdout) + repr(p.stderr[:300]))
    # A text with both endings takes the one most of its lines have, as clang-format's DeriveLF:
    # two LF lines against one CR LF line give LF throughout, and the other way round CR LF; a
    # tie is LF.
    for text, want in ((b"fn  f() -> int = 1;\r\n# a\n# b\n", b"fn f() -> int = 1;\n# a\n# b\n"),
                       (b"fn  f() -> int = 1;\n# a\r\n# b\r\n",
                        b"fn f() -> int = 1;\r\n# a\r\n# b\r\n"),
                       (b"fn  f() -> int = 1;\r\n# a\n", b"fn f() -> int = 1;\n# a\n")):
        p = hon_bytes("fmt", "-", stdin=text)
        check(p.returncode == 0 and p.stdout == want, f"mixed endings {text!r}", repr(p.stdout))
    # a file that does not parse: its diagnostic, exit 1, the file as it was
    bad = os.path.join(tmp, "broken.hon")
    with open(bad, "w") as f:
        f.write("fn  f( -> int = 1;\n")
    p = hon("fmt", bad)
    check(p.returncode == 1 and "E0" in p.stderr and read(bad) == "fn  f( -> int = 1;\n",
          "a file that does not parse is refused and untouched", p.stderr)
    # from stdin: its errors name <stdin> on stderr, exit 1, and stdout gets the text back as it
    # came: a filter must not replace a buffer with half a file, nor with nothing (rev12d 2:
    # Vim's `:%!hon fmt - 2>/dev/null` emptied the buffer)
    p = hon("fmt", "-", stdin="fn  f( -> int = 1;\n")
    check(p.returncode == 1 and p.stdout == "fn  f( -> int = 1;\n" and "<stdin>:1:" in p.stderr
          and "E0" in p.stderr, "fmt - of a text that does not parse gives it back, exit 1",
          p.stderr)
    p = hon("fmt", "--check", "-", stdin="fn  f( -> int = 1;\n")
    check(p.returncode == 1 and p.stdout == "", "fmt --check - of it prints no path", p.stderr)
    # under --json, the object's entry for <stdin> holds the laid out text
    p = hon("fmt", "--json", "-", stdin="fn  f() -> int = 1;\n")
    check(p.returncode == 0 and p.stdout.strip() and json.loads(p.stdout) ==
          {"files": [{"path": "<stdin>", "changed": True, "text": "fn f() -> int = 1;\n"}],
           "changed": 1, "failed": 0}, "fmt --json -", p.stdout + p.stderr)
    p = hon("fmt", "--frobnicate", bad)
    check(p.returncode == 2, "an unknown option is a usage error", p.stderr)
    # a symbolic link is written through: the link stays, the file it names is laid out (the
    # fresh review of issue 12: the link was replaced by a regular file, the file left as it was)
    real, link = os.path.join(tmp, "real.hon"), os.path.join(tmp, "link.hon")
    with open(real, "w") as f:
        f.write("fn  f() -> int = 1;\n")
    os.symlink("real.hon", link)
    p = hon("fmt", link)
    check(p.returncode == 0 and os.path.islink(link) and os.readlink(link) == "real.hon" and
          read(real) == "fn f() -> int = 1;\n", "fmt LINK lays out the file it names, link kept",
          p.stdout + p.stderr)
    # a file with another hard link is rewritten in place, so that both names see the layout
    # (fresh16 D7: the scratch file renamed over it left the other name with the old text),
    # one file still, two links, its mode kept
    hard = os.path.join(tmp, "hard.hon")
    with open(real, "w") as f:
        f.write("fn  g() -> int = 2;\n")
    os.chmod(real, 0o640)
    os.link(real, hard)
    p = hon("fmt", real)
    check(p.returncode == 0 and read(real) == "fn g() -> int = 2;\n" and
          read(hard) == "fn g() -> int = 2;\n" and os.stat(real).st_nlink == 2 and
          os.path.samefile(real, hard) and (os.stat(real).st_mode & 0o777) == 0o640,
          "fmt FILE of a file with a hard link: both names see the layout", p.stdout + p.stderr)
    # fmt only parses (repl.md §1), so the global options about the rules and the board do not
    # concern it and are ignored, as --seed is (fresh16 D2: `hon --board B fmt -` checked the board
    # against no rules, failed with E303s and printed nothing: an editor's filter emptied its
    # buffer). Each option names something that would fail to load here: a board of the bundled
    # rules, a file of types never declared, an edition and a variant that do not exist, a rules
    # directory that is not there. The text comes back laid out, exit 0, no diagnostic.
    messy, laid = "fn  f() -> int = 1;\n", "fn f() -> int = 1;\n"
    undeclared = os.path.join(tmp, "undeclared.hon")
    with open(undeclared, "w") as f:
        f.write("fn g() -> no_such_type = 1;\n")
    for opts in (["--board", os.path.join(ROOT, "examples", "boards", "hill_contour.scn")],
                 ["--load", undeclared], ["--edition", "no_such_edition"],
                 ["--variant", "no_such_setting=no_reading"],
                 ["--rules", os.path.join(tmp, "no_such_dir")], ["--seed", "7"]):
        for where in ("before", "after"):
            args = (opts + ["fmt", "-"]) if where == "before" else (["fmt", "-"] + opts)
            p = subprocess.run([HON] + args, capture_output=True, text=True, input=messy)
            check(p.returncode == 0 and p.stdout == laid and p.stderr == "",
                  f"hon {' '.join(args)}: the global option is ignored, the text laid out",
                  p.stdout + p.stderr)
        work = os.path.join(tmp, "opts.hon")
        with open(work, "w") as f:
            f.write(laid)
        p = subprocess.run([HON] + opts + ["fmt", "--check", work], capture_output=True,
                           text=True)
        check(p.returncode == 0 and p.stdout == "" and p.stderr == "",
              f"hon {' '.join(opts)} fmt --check of a laid out file: nothing to change, exit 0",
              p.stdout + p.stderr)


# The .hon files of the tree that must not parse (fixtures of error reporting): fmt refuses
# them, so the bundled check leaves them out. Every other .hon file is kept laid out.
UNPARSED = {"tests/repl/fixtures/broken.hon"}


def bundled(tmp):
    # the bundled rules and examples, and every test's rules: tests/rules (issue 12: 12 files
    # were not laid out), tests/events and tests/repl (issue 12: 5 and 2 files were not)
    dirs = ["rules", "expansions", "examples", "tests/rules", "tests/events"]
    fixtures = sorted(os.path.relpath(f, ROOT) for f in hon_files(os.path.join(ROOT, "tests/repl")))
    check(len(fixtures) > 10 and set(UNPARSED) <= set(fixtures),
          "tests/repl's fixtures not found", " ".join(fixtures))
    laid = [f for f in fixtures if f not in UNPARSED]
    p = hon("fmt", "--check", *dirs, *laid, cwd=ROOT)
    check(p.returncode == 0 and p.stdout == "" and p.stderr == "",
          "hon fmt --check: these files are not laid out "
          "(run `hon fmt` on them)",
          p.stdout + p.stderr)
    for f in sorted(UNPARSED):
        p = hon("fmt", "--check", f, cwd=ROOT)
        check(p.returncode == 1 and "error[E0" in p.stderr,
              f"{f} is kept out of the check as a file that does not parse, yet it parses",
              p.stdout + p.stderr)


def idempotent(tmp):
    files = list(hon_files(*(os.path.join(ROOT, d) for d in ("rules", "expansions", "tests"))))
    check(len(files) > 50, "too few .hon files found", str(len(files)))
    copies = []
    for i, path in enumerate(files):
        work = os.path.join(tmp, f"{i:04d}.hon")
        shutil.copy(path, work)
        copies.append((path, work))
    p = hon("fmt", tmp)
    refused = set(re.findall(r"^(/\S+?\.hon):\d+:\d+: error", p.stderr, re.M))
    laid = 0
    for path, work in copies:
        before, after = read(path), read(work)
        if work in refused:
            check(before == after, f"{path}: refused, yet changed")
            continue
        laid += 1
        code0, comments0 = tokens(before)
        code1, comments1 = tokens(after)
        check(code0 == code1, f"{path}: the layout changed its tokens")
        check(comments0 == comments1,
              f"{path}: the layout changed its comments ({len(comments0)} -> {len(comments1)})")
    check(laid > 50, "too few files laid out", str(laid))
    p = hon("fmt", "--check", tmp)
    check(p.stdout == "", "laid out again, these files change: not idempotent", p.stdout)


def limits(tmp):
    # a scenario named on the command line is not parsed as rules: refused, untouched
    scn = os.path.join(tmp, "board.scn")
    with open(scn, "w") as f:
        f.write("board 2 x 2;\n")
    p = hon("fmt", scn)
    check(p.returncode == 1 and "not a .hon rule file" in p.stderr and
          read(scn) == "board 2 x 2;\n", "a .scn file is refused and untouched", p.stderr)
    # 2000 lines each indented under a line that opens 100 brackets: each continuation lines
    # up after the innermost `(` (format.md §3), about 216 columns in, so the layout would be
    # some 2000 * 220 bytes for an input of about 12 KB: far past 16 times it (format.md, "Bounded")
    deep = os.path.join(tmp, "deep.hon")
    text = ("fn g() -> int = " + "f(" * 100 + "1\n" + "  , 2\n" * 2000 + ")" * 100 + ";\n")
    check(len(text) * 16 + 4096 < 2000 * 216, "the deep file would not pass the bound")
    with open(deep, "w") as f:
        f.write(text)
    p = hon("fmt", deep)
    check(p.returncode == 1 and "more than 16 times" in p.stderr and read(deep) == text,
          "a layout past 16 times the input is refused and the file untouched", p.stderr)
    # a table of 40 rows of 40 keys, each row with one key of 400 characters in another
    # column: lined up (format.md §4) every row would pad 40 columns of 400: 40 * 40 * 400
    # bytes for an input of about 21 KB
    table = os.path.join(tmp, "wide.hon")
    rows = []
    for r in range(40):
        cells = ["1"] * 40
        cells[r] = "x" * 400
        rows.append("  " + ", ".join(cells) + " => 1;\n")
    text = ("table t(" + ", ".join(f"k{i}: int" for i in range(40)) + ") -> int {\n" +
            "".join(rows) + "}\n")
    check(len(text) * 16 + 4096 < 40 * 40 * 400, "the wide table would not pass the bound")
    with open(table, "w") as f:
        f.write(text)
    p = hon("fmt", table)
    check(p.returncode == 1 and "more than 16 times" in p.stderr and read(table) == text,
          "a table past 16 times the input is refused and the file untouched", p.stderr)


def scramble(text, rng):
    """The same tokens with other whitespace: random indentation, random runs of blanks
    between tokens, doubled blank lines. Comments and strings are untouched."""
    out = []
    for line in text.split("\n"):
        toks = TOKEN.findall(line)
        if not toks:
            out.append("" if rng.random() < 0.7 else "\n")
            continue
        s = " " * rng.randrange(0, 9)
        pos = 0
        for t in toks:
            at = line.index(t, pos)
            gap = line[pos:at]
            if pos and (gap or rng.random() < 0.3):
                s += " " * rng.randrange(1, 4)
            s += t
            pos = at + len(t)
        out.append(s)
    return "\n".join(out)


def listing(rules_dirs, names):
    args = []
    for d in rules_dirs:
        args += ["--rules", d]
    p = subprocess.run([HON] + args, input="".join(f"dis {n}\n" for n in names),
                       capture_output=True, text=True)
    # positions (line:col) aside: the layout may drop blank lines
    return re.sub(r"^(\d{4})  \S*\s+", r"\1 ", p.stdout, flags=re.M), p.stderr


def meaning(tmp):
    rng = random.Random(12)
    dirs = []
    for d in ("rules", "expansions"):
        dst = os.path.join(tmp, d)
        os.makedirs(dst)
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            if f.endswith(".hon"):
                with open(os.path.join(dst, f), "w") as out:
                    out.write(scramble(read(os.path.join(ROOT, d, f)), rng))
        dirs.append(dst)
    p = hon("fmt", *dirs)
    check(p.returncode == 0, "fmt of the scrambled rules failed", p.stderr)
    orig = [os.path.join(ROOT, "rules"), os.path.join(ROOT, "expansions")]
    names = re.findall(r"^(\S+)  ", subprocess.run([HON, "rules"], capture_output=True,
                                                   text=True).stdout, re.M)
    check(len(names) > 100, "too few rules listed", str(len(names)))
    want, err0 = listing(orig, names)
    got, err1 = listing(dirs, names)
    check(want == got and err0 == err1 and want.count("\nrule ") > 100,
          "the laid-out rules compile to other bytecode", err0 + err1)
    tests = sorted(f for f in os.listdir(os.path.join(ROOT, "tests", "rules")) if f.endswith(".hon"))
    for f in tests:
        path = os.path.join(ROOT, "tests", "rules", f)
        runs = []
        for rd in (orig, dirs):
            args = [HON]
            for d in rd:
                args += ["--rules", d]
            r = subprocess.run(args + ["test", path], capture_output=True, text=True)
            runs.append((r.returncode, r.stdout.strip().splitlines()[-1:]))
        check(runs[0] == runs[1], f"tests/rules/{f}: other results with the laid-out rules",
              str(runs))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        {"golden": golden, "bundled": bundled, "idempotent": idempotent, "meaning": meaning,
         "limits": limits}[MODE](tmp)
    if failures:
        print("\n\n".join(failures))
        sys.exit(1)
    print(f"fmt {MODE}: ok")


main()
