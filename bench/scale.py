#!/usr/bin/env python3
"""scale.py — the scale benchmark: is hon linear in the size of what it is given? (bench.md §10)

Each workload writes, in a temporary directory, inputs of two or three sizes (a board of tens of
thousands of units, the largest grid a scenario allows, rule and scenario files with up to
100,000 errors, one very long line), runs the `hon` program on each as a user would (load,
report, draw, line of sight), and counts its instructions under callgrind. The work of a size is
its count minus the count of the workload's base input (the same command on an empty or minimal
input), so start-up and loading the rules cancel out. A workload's closing line,
`scale NAME n=N1 instr=I1 n=N2 instr=I2 ... growth=Gx (size Rx)`, compares the work of the
largest size with the smallest's: linear work grows like the size. The run fails only when
growth is clearly superlinear (more than 2.5 times the size ratio), never on time.
Registered as benchmark 'scale' in bench/meson.build; `--smoke` is the quick test beside it
(small sizes, no callgrind: every command gives the answer expected of it).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# Work may grow at most this many times faster than the input before the run fails.
SUPERLINEAR = 2.5


def column(x):
    """Column letters of 0-based column x: A..Z, AA..AZ, BA... (board.md §1)."""
    s = ""
    x += 1
    while x:
        x, r = divmod(x - 1, 26)
        s = chr(ord("A") + r) + s
    return s


def square(x, y):
    return f"{column(x)}{y + 1}"


def grid_lines(w, h, cell):
    """A map or elevation block's rows: the row number, then one field per column."""
    return [f"{y + 1} " + " ".join(cell(x, y) for x in range(w)) for y in range(h)]


def scenario(w, h, units=(), cell=lambda x, y: ".", elev=None, extra=()):
    """A scenario text on the bundled rules' names (board.md §4): open, woods and field
    squares, an optional elevation block, `units` as (name, counter, army, squares)."""
    out = ["scenario \"scale benchmark\"", f"size {w} x {h}",
           "legend . = open   W = woods   f = field", "map"]
    out += grid_lines(w, h, cell)
    if elev:
        out.append("elevation")
        out += grid_lines(w, h, elev)
    for name, counter, army, where in units:
        out.append(f"unit {name} = {counter} {army} at {where}")
    out += list(extra)
    return "\n".join(out) + "\n"


def units_row_major(n, w):
    """n one-square units, one a square in row order, the armies alternating."""
    return [(f"u{i}", "rifle_squad", "allies" if i % 2 else "axis", square(i % w, i // w))
            for i in range(n)]


def mixed_cell(x, y):
    return ".Wf."[(x * 7 + y * 3) % 4]


def mixed_elev(x, y):
    return str((x // 9 + y // 7) % 3)


def side_of(n):
    """The side of the square board of about n squares (at most 255)."""
    return max(1, min(255, round(n ** 0.5)))


# ---------------------------------------------------------------------------------------------
# The workloads. `gen(n, dir)` writes the inputs of size n and returns the argv after `hon`
# ({out} is a file name in dir); `base` is the size whose work is subtracted; `sizes` and
# `smoke` the sizes of a full run and the one size of --smoke; `expect(status, stdout, stderr, n)` is None
# when the answer is right, else what is wrong.

def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w", encoding="ascii") as f:
        f.write(text)
    return path


def gen_board_units(n, d):
    w = 255
    return ["--board", write(d, "units.scn", scenario(w, 255, units_row_major(n, w))),
            "eval", "1"]


def gen_board_grid(n, d):
    s = side_of(n)
    units = [(f"u{i}", "rifle_squad", "allies", square(x, y))
             for i, (x, y) in enumerate((x, y) for y in range(0, s, 4) for x in range(0, s, 4))]
    return ["--board", write(d, "grid.scn", scenario(s, s, units, mixed_cell, mixed_elev))]


def gen_load_grid(n, d):
    return gen_board_grid(n, d) + ["eval", "1"]


def gen_draw(n, d):
    return gen_board_grid(n, d) + ["draw"]


def gen_svg(n, d):
    return gen_board_grid(n, d) + ["svg", os.path.join(d, "board.svg")]


def gen_draw_units(n, d):
    return gen_board_units(n, d)[:2] + ["draw"]


def gen_svg_units(n, d):
    return gen_board_units(n, d)[:2] + ["svg", os.path.join(d, "units.svg")]


def gen_los(n, d):
    """The line of sight along the diagonal of the largest board, n squares long."""
    board = write(d, "los.scn", scenario(255, 255, cell=lambda x, y: "f" if x == y else "."))
    return ["--board", board, "los", "A1", square(n, n)]


def gen_rule_errors(n, d):
    """n functions, each using an unknown name: n resolver errors (E100), one a line."""
    text = "".join(f"fn f{i}() -> int = zz;\n" for i in range(n))
    return ["--no-rules", "check", write(d, "errors.hon", text)]


def gen_long_line(n, d):
    """The same n errors on one line (the repro of issue 13 defect 4, n times longer)."""
    text = "".join(f"fn f{i}() -> int = zz; " for i in range(n)) + "\n"
    return ["--no-rules", "check", write(d, "oneline.hon", text)]


def gen_scenario_errors(n, d):
    """A small board with n bad lines: unknown directives and units of unknown counters."""
    bad = [f"frobnicate {i}" if i % 2 else f"unit u{i} = nosuch allies at A1" for i in range(n)]
    return ["--board", write(d, "bad.scn", scenario(8, 8, extra=bad)), "eval", "1"]


def gen_scenario_long_line(n, d):
    """A unit line n characters long whose square, at its far end, is off the board (a line
    has at most 256 items and a name 127 characters: the length is blanks)."""
    line = "unit u = rifle_squad allies at" + " " * n + "A99"
    return ["--board", write(d, "longline.scn", scenario(8, 8, extra=[line])), "eval", "1"]


def answers(text):
    def expect(status, out, err, n):
        if status != 0:
            return f"exit status {status}: {(err.strip().splitlines() or [''])[-1]}"
        return None if re.fullmatch(text, out.strip()) else \
            f"printed '{out.strip()[:80]}', expected '{text}'"
    return expect


def drawn(status, out, err, n):
    if status != 0:
        return f"exit status {status}: {(err.strip().splitlines() or [''])[-1]}"
    rows = side_of(n)
    return None if len(out.splitlines()) >= rows else f"{len(out.splitlines())} lines for {rows} rows"


def line_of_sight(status, out, err, n):
    if status != 0:
        return f"exit status {status}: {(err.strip().splitlines() or [''])[-1]}"
    return None if out.strip() else "printed nothing"


def errors(code, cap):
    """Exit status 1, diagnostics with `code`, and at most `cap` of them (then the cap's
    own error): the report is bounded whatever the number of errors."""
    def expect(status, out, err, n):
        text = out + err
        count = len(re.findall(r"error\[E\d+\]", text))
        if status != 1:
            return f"exit status {status}, expected 1"
        if n and code not in text:
            return f"no {code} in the report"
        if count > cap + 1:
            return f"{count} diagnostics, expected at most {cap + 1}"
        if len(text) > (cap + 1) * 1200:
            return f"{len(text)} bytes of report for {count} diagnostics"
        return None
    return expect


def no_errors_or(code, cap):
    """As errors(), but the base input (n = 0) has none: exit 0."""
    bad = errors(code, cap)
    return lambda status, out, err, n: (None if status == 0 else f"exit status {status}") \
        if n == 0 else bad(status, out, err, n)


WORKLOADS = [
    {"name": "board-units", "what": "load a 255 x 255 board with n units (`--board F eval 1`)",
     "gen": gen_board_units, "base": 0, "sizes": [10000, 40000, 65025], "smoke": 400,
     "expect": answers("1")},
    {"name": "board-grid", "what": "load a board of n squares, a unit on every 16th",
     "gen": gen_load_grid, "base": 1, "sizes": [4096, 16384, 65025], "smoke": 256,
     "expect": answers("1")},
    {"name": "draw", "what": "draw that board as text (`draw`)",
     "gen": gen_draw, "base": 1, "sizes": [4096, 16384, 65025], "smoke": 256,
     "expect": drawn},
    {"name": "svg", "what": "draw that board as SVG (`svg OUT`)",
     "gen": gen_svg, "base": 1, "sizes": [4096, 16384, 65025], "smoke": 256,
     "expect": answers(r"wrote .*\.svg")},
    {"name": "draw-units", "what": "draw the 255 x 255 board with n units as text",
     "gen": gen_draw_units, "base": 0, "sizes": [10000, 40000, 65025], "smoke": 400,
     "expect": lambda status, out, err, n: drawn(status, out, err, 65025)},
    {"name": "svg-units", "what": "draw the 255 x 255 board with n units as SVG",
     "gen": gen_svg_units, "base": 0, "sizes": [10000, 40000, 65025], "smoke": 400,
     "expect": answers(r"wrote .*\.svg")},
    {"name": "los", "what": "`los` along a diagonal n squares long on a 255 x 255 board",
     "gen": gen_los, "base": 1, "sizes": [63, 127, 254], "smoke": 32,
     "expect": line_of_sight},
    {"name": "rule-errors", "what": "`check` a rule file with n errors, one a line",
     "gen": gen_rule_errors, "base": 0, "sizes": [10000, 40000, 100000], "smoke": 400,
     "expect": no_errors_or("E100", 200)},
    {"name": "rule-long-line", "what": "`check` a rule file of one line with n errors",
     "gen": gen_long_line, "base": 0, "sizes": [10000, 40000, 100000], "smoke": 400,
     "expect": no_errors_or("E100", 200)},
    {"name": "scenario-errors", "what": "load a scenario with n bad lines",
     "gen": gen_scenario_errors, "base": 0, "sizes": [10000, 40000, 100000], "smoke": 400,
     "expect": no_errors_or("E314", 50)},
    {"name": "scenario-long-line", "what": "load a scenario with a bad line n characters "
     "long", "gen": gen_scenario_long_line, "base": 0,
     "sizes": [100000, 400000, 1000000], "smoke": 4000,
     "expect": errors("E304", 1)},
]
# ---------------------------------------------------------------------------------------------


class Failure(Exception):
    """A command gave a wrong answer, or callgrind gave no count."""


def run(argv, timeout):
    t0 = time.perf_counter()
    try:
        r = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Failure(f"{' '.join(argv)}: {e}") from e
    return r.returncode, r.stdout, r.stderr, time.perf_counter() - t0


def measure(opts, wl, n, d):
    """(instructions or None, best wall seconds) of the workload's command at size n."""
    argv = [opts.hon] + wl["gen"](n, d)
    best = None
    for _ in range(opts.repeat):
        status, out, err, dt = run(argv, opts.timeout)
        wrong = wl["expect"](status, out, err, n)
        if wrong:
            raise Failure(f"{wl['name']} n={n}: {wrong}")
        best = dt if best is None else min(best, dt)
    if not opts.valgrind:
        return None, best
    log = os.path.join(d, "callgrind.log")
    cg = [opts.valgrind, "--tool=callgrind", f"--log-file={log}",
          f"--callgrind-out-file={os.path.join(d, 'callgrind.out')}"]
    status, out, err, _ = run(cg + argv, opts.timeout * 50)
    wrong = wl["expect"](status, out, err, n)
    if wrong:
        raise Failure(f"{wl['name']} n={n} under callgrind: {wrong}")
    with open(log, encoding="utf-8", errors="replace") as f:
        m = re.search(r"refs:\s*([\d,]+)", f.read())
    if not m:
        raise Failure(f"{wl['name']} n={n}: no instruction count from callgrind")
    return int(m.group(1).replace(",", "")), best


def run_workload(opts, wl, root):
    """Measures the base and every size; prints the rows and the closing line; returns
    (closing line, failed)."""
    d = os.path.join(root, wl["name"])
    os.makedirs(d, exist_ok=True)
    if opts.smoke:
        n = wl["smoke"]
        _, t = measure(opts, wl, n, d)
        print(f"workload {wl['name']}: n={n} ok, {t * 1000:.1f} ms wall")
        return f"scale {wl['name']} n={n} ok", False
    sizes = wl["sizes"]
    print(f"workload {wl['name']}: {wl['what']}")
    base_i, base_t = measure(opts, wl, wl["base"], d)
    fields, works = [], []
    for n in sizes:
        instr, t = measure(opts, wl, n, d)
        work_t = max(t - base_t, 0.0)
        if instr is None:
            print(f"  n={n:<7} {t * 1000:9.1f} ms wall ({work_t * 1000:.1f} ms over the base)")
            fields.append(f"n={n} ms={work_t * 1000:.1f}")
            continue
        work = max(instr - base_i, 1)
        works.append(work)
        print(f"  n={n:<7} {instr:>15,} instr  {work:>15,} over the base  "
              f"{work / max(n, 1):>10,.0f} per item  {t * 1000:9.1f} ms wall")
        fields.append(f"n={n} instr={work}")
        sys.stdout.flush()
    line = f"scale {wl['name']} " + " ".join(fields)
    failed = False
    if works:
        growth, size = works[-1] / works[0], sizes[-1] / sizes[0]
        line += f" growth={growth:.1f}x (size {size:.1f}x)"
        if growth > SUPERLINEAR * size:
            failed = True
            line += f" SUPERLINEAR (limit {SUPERLINEAR * size:.1f}x)"
    print(f"  base n={wl['base']}: {'-' if base_i is None else f'{base_i:,}'} instr, "
          f"{base_t * 1000:.1f} ms wall\n")
    return line, failed


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("hon", help="the hon program")
    p.add_argument("--smoke", action="store_true",
                   help="small sizes and no callgrind: only check every command's answer")
    p.add_argument("--workload", action="append", dest="workloads",
                   help="run only this workload (repeatable)")
    p.add_argument("--valgrind", help="valgrind program (default: valgrind on PATH)")
    p.add_argument("--repeat", type=int, default=1, help="timed runs per size, best kept (1)")
    p.add_argument("--timeout", type=float, default=120, help="seconds per plain run (120)")
    p.add_argument("--workdir", help="where the inputs go (default: a temporary directory)")
    opts = p.parse_args(argv)
    known = [w["name"] for w in WORKLOADS]
    for w in opts.workloads or []:
        if w not in known:
            p.error(f"no workload '{w}' (known: {', '.join(known)})")
    opts.valgrind = None if opts.smoke else (opts.valgrind or shutil.which("valgrind"))
    if not opts.smoke:
        print("scale benchmark: instructions (callgrind Ir) of each size minus its base input; "
              f"fails when work grows more than {SUPERLINEAR}x faster than the input")
        if not opts.valgrind:
            print("valgrind not found: wall times only, no growth check")
        print()
    tmp = None
    if not opts.workdir:
        tmp = tempfile.TemporaryDirectory(prefix="hon-scale-")
        opts.workdir = tmp.name
    failed, lines = False, []
    try:
        for wl in WORKLOADS:
            if opts.workloads and wl["name"] not in opts.workloads:
                continue
            try:
                line, bad = run_workload(opts, wl, opts.workdir)
            except (Failure, OSError) as e:
                line, bad = f"scale {wl['name']} FAILED: {e}", True
                print(line + "\n")
            failed |= bad
            lines.append(line)
    finally:
        if tmp:
            tmp.cleanup()
    for line in lines:
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
