#!/usr/bin/env python3
"""run_bench.py — the line-of-sight benchmark harness (docs/spec/bench.md).

In one run, for each workload (WORKLOADS: the simplified rules of bench/los.hon, then the
bundled rules on three boards): generate the board (bench_gen), then for every implementation
of the workload check its checksum line, count its instructions per pair under callgrind (a run
of K evaluations minus a run of 0, so start-up and board loading cancel out), time it (best of
N wall-clock runs, minus the best 0-evaluation run), and print one table with ratios to plain C
and to Lua 5.4. Every implementation is a program called as `PROGRAM... ITERATIONS BOARD ...`
that prints one checksum line on stdout. The run ends with one line per workload,
`ratio WORKLOAD hon/c=X hon/lua=Y` (instruction ratios). Registered as benchmark
'los-reference' in bench/meson.build; `--check-only` is the quick correctness test beside it.
"""

import argparse
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

# The reference line of the workload definition (../shared/bench/README.md) for seed 12345.
REFERENCE_SEED = 12345
REFERENCE_LINE = "checksum visible=605 sumdef=2746 h=871612827"
CHECKSUM_RE = re.compile(r"^(?:checksum visible=\d+ sumdef=\d+|real checksum blocked=\d+ "
                         r"obscured=\d+ clear=\d+ sumbonus=\d+) h=\d+$", re.M)

# ---------------------------------------------------------------------------------------------
# The implementations, in table order. `argv` is a template: {iters}, {board}, {stride} and
# {rules} are filled per run, the other {names} come from the command-line options of the same
# name; an implementation whose option is unset is reported as `missing` and skipped.
# `callgrind_iters`: evaluations counted under callgrind (more is steadier, slower).
# `base`: the column of ratios this implementation anchors ("c" or "lua"), if any.
SIMPLIFIED = [
    {"name": "c", "label": "{c_label}", "argv": ["{c}", "{iters}", "{board}"],
     "needs": ["c"], "callgrind_iters": 20, "base": "c",
     "missing": "plain C: not built"},
    {"name": "lua", "label": "Lua 5.4", "argv": ["{lua}", "{lua_dir}/los.lua", "{iters}", "{board}"],
     "needs": ["lua"], "callgrind_iters": 3, "base": "lua",
     "missing": "lua5.4: not found"},
    # A driver that loads bench/los.hon (RULES) and the board, evaluates every pair through
    # the VM and prints the same checksum line (bench_hon_los ITERS BOARD RULES).
    {"name": "hon", "label": "hon VM", "argv": ["{hon}", "{hon_args}", "{iters}", "{board}", "{rules}"],
     "needs": ["hon"], "callgrind_iters": 3, "base": None,
     "missing": "hon: not built"},
]
# The bundled line_of_sight and defensive_bonus: hon through include/hon.h, and our ports.
REAL = [
    {"name": "c", "label": "{c_label}, port", "argv": ["{real_c}", "{iters}", "{board}", "{stride}"],
     "needs": ["real_c"], "callgrind_iters": 20, "base": "c",
     "missing": "plain C port: not built"},
    {"name": "lua", "label": "Lua 5.4, port",
     "argv": ["{lua}", "{lua_dir}/real.lua", "{iters}", "{board}", "{stride}"],
     "needs": ["lua"], "callgrind_iters": 3, "base": "lua",
     "missing": "lua5.4: not found"},
    {"name": "hon", "label": "hon, bundled rules",
     "argv": ["{real_hon}", "{iters}", "{board}", "{stride}", "{rules_dir}", "{expansions_dir}"],
     "needs": ["real_hon", "rules_dir", "expansions_dir"], "callgrind_iters": 1, "base": None,
     "missing": "hon (bundled rules): not built"},
]
# The workloads, in order. `size`: bench_gen's W H UNITS (None: the reference 30 x 30, 50);
# `stride`: every stride-th ordered pair is asked (the larger boards are sampled so that hon's
# run stays short; every implementation asks the same pairs), `check_stride` the same for
# --check-only; `expected`: the published checksum line for the reference seed, or None when
# the plain-C implementation's line is the one the others must print.
WORKLOADS = [
    {"name": "simplified", "title": "simplified rules (bench/los.hon)", "impls": SIMPLIFIED,
     "size": None, "stride": 1, "check_stride": 1, "expected": REFERENCE_LINE},
    {"name": "real", "title": "the bundled line_of_sight and defensive_bonus", "impls": REAL,
     "size": None, "stride": 1, "check_stride": 7, "expected": None},
    {"name": "real-60", "title": "the bundled line_of_sight and defensive_bonus", "impls": REAL,
     "size": (60, 60, 100), "stride": 37, "check_stride": 97, "expected": None},
    {"name": "real-120", "title": "the bundled line_of_sight and defensive_bonus", "impls": REAL,
     "size": (120, 120, 200), "stride": 397, "check_stride": 1999, "expected": None},
]
# ---------------------------------------------------------------------------------------------


def parse_args(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build-dir", help="meson build directory to find bench_gen, bench_ref_c and "
                   "bench_hon_los in when --gen/--c/--hon are not given (default: build)")
    p.add_argument("--gen", help="the board generator (bench_gen)")
    p.add_argument("--c", help="the plain-C reference (bench_ref_c)")
    p.add_argument("--c-label", default="plain C (-O2)", help="table label of the C reference")
    p.add_argument("--lua", help="the Lua 5.4 interpreter (default: lua5.4 on PATH)")
    p.add_argument("--lua-dir", default=os.path.join(here, "ref_lua"), help="bench/ref_lua")
    p.add_argument("--hon", help="hon's implementation program (absent: 'hon: not built yet')")
    p.add_argument("--hon-arg", action="append", default=[], dest="hon_args",
                   help="argument put before ITERATIONS, e.g. a subcommand (repeatable)")
    p.add_argument("--rules", default=os.path.join(here, "los.hon"), help="the .hon rules file")
    p.add_argument("--real-c", help="the plain-C port of the bundled rules (bench_real_c)")
    p.add_argument("--real-hon", help="hon on the bundled rules (bench_real_hon)")
    p.add_argument("--rules-dir", default=os.path.join(here, "..", "rules"),
                   help="the bundled rules/ (default: the source tree's)")
    p.add_argument("--expansions-dir", default=os.path.join(here, "..", "expansions"),
                   help="the bundled expansions/ (default: the source tree's)")
    p.add_argument("--hon-cli", help="the hon program, whose start-up (`hon eval 1`: loading the "
                   "bundled rules) is measured at the end of the run")
    p.add_argument("--workload", action="append", dest="workloads",
                   help="run only this workload (repeatable; default: all of WORKLOADS)")
    p.add_argument("--seed", type=int, default=REFERENCE_SEED, help="board seed (default 12345)")
    p.add_argument("--workdir", help="where the board and callgrind files go (default: a temp dir)")
    p.add_argument("--valgrind", help="valgrind program (default: valgrind on PATH)")
    p.add_argument("--repeat", type=int, default=5, help="timed runs per point, best kept (5)")
    p.add_argument("--target-seconds", type=float, default=0.3,
                   help="evaluation time aimed at per timed run (0.3)")
    p.add_argument("--callgrind-scale", type=float, default=1.0,
                   help="multiply every implementation's callgrind evaluation count")
    p.add_argument("--check-only", action="store_true",
                   help="only check each implementation's checksum line (a quick test)")
    p.add_argument("--json", help="also write the results as JSON to this file")
    a = p.parse_args(argv)

    build = a.build_dir or "build"

    def in_build(rel):
        path = os.path.join(build, rel)
        return path if os.access(path, os.X_OK) else None

    a.gen = a.gen or in_build("bench/bench_gen")
    a.c = a.c or in_build("bench/bench_ref_c")
    a.hon = a.hon or in_build("bench/bench_hon_los")
    a.real_c = a.real_c or in_build("bench/bench_real_c")
    a.real_hon = a.real_hon or in_build("bench/bench_real_hon")
    known = [w["name"] for w in WORKLOADS]
    for w in a.workloads or []:
        if w not in known:
            p.error(f"no workload '{w}' (known: {', '.join(known)})")
    a.lua = a.lua or shutil.which("lua5.4")
    a.valgrind = a.valgrind or shutil.which("valgrind")
    if a.repeat < 1 or a.target_seconds <= 0 or a.callgrind_scale <= 0:
        p.error("--repeat, --target-seconds and --callgrind-scale must be positive")
    if not a.gen:
        p.error("no board generator: give --gen or --build-dir")
    return a


class Failure(Exception):
    """An implementation ran but failed (exit status, missing or wrong checksum line)."""


def command(impl, opts, iters, board):
    """The argv of one run of `impl`: the template with its placeholders filled."""
    fill = {"iters": str(iters), "board": board, "rules": opts.rules, "c": opts.c,
            "lua": opts.lua, "lua_dir": opts.lua_dir, "hon": opts.hon, "stride": str(opts.stride),
            "real_c": opts.real_c, "real_hon": opts.real_hon, "rules_dir": opts.rules_dir,
            "expansions_dir": opts.expansions_dir}
    out = []
    for item in impl["argv"]:
        if item == "{hon_args}":
            out.extend(opts.hon_args)
        else:
            out.append(item.format(**fill))
    return out


def run(argv, timeout=3600, env=None):
    """Runs argv (with env's variables added to the environment); returns (stdout, stderr, wall
    seconds). Raises Failure on a bad status."""
    t0 = time.perf_counter()
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                           env=dict(os.environ, **env) if env else None)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Failure(f"{' '.join(argv)}: {e}") from e
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        tail = (r.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise Failure(f"{' '.join(argv)}: exit status {r.returncode}: {tail}")
    return r.stdout, r.stderr, dt


def checksum_line(stdout, argv):
    lines = CHECKSUM_RE.findall(stdout)
    if len(lines) != 1:
        raise Failure(f"{' '.join(argv)}: expected one checksum line on stdout, got {len(lines)}")
    return lines[0]


def callgrind_instructions(impl, opts, iters, board, tag):
    """Total instructions (Ir) of one run under callgrind: the totals lines of its out files
    (one per process: children are traced too, so a wrapper script costs what it runs)."""
    stem = f"callgrind.out.{opts.workload}.{impl['name']}.{tag}"
    for old in os.listdir(opts.workdir):
        if old.startswith(stem + "."):
            os.remove(os.path.join(opts.workdir, old))
    argv = [opts.valgrind, "--tool=callgrind", "--trace-children=yes",
            f"--callgrind-out-file={os.path.join(opts.workdir, stem)}.%p"] + \
        command(impl, opts, iters, board)
    stdout, _, _ = run(argv)
    if iters > 0:
        check(impl, opts, checksum_line(stdout, argv))
    total, found = 0, False
    for name in os.listdir(opts.workdir):
        if not name.startswith(stem + "."):
            continue
        with open(os.path.join(opts.workdir, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"^(?:totals|summary):\s*(\d+)", line)
                if m:
                    total += int(m.group(1))
                    found = True
                    break
    if not found:
        raise Failure(f"{stem}.*: no callgrind totals line")
    return total


def check(impl, opts, line):
    if line != opts.expected:
        raise Failure(f"{impl['name']}: printed '{line}', expected '{opts.expected}'")


def timed(impl, opts, iters, board, repeat):
    """Best wall time, in seconds, of `repeat` runs with `iters` evaluations."""
    best = None
    for _ in range(repeat):
        argv = command(impl, opts, iters, board)
        stdout, _, dt = run(argv)
        if iters > 0:
            check(impl, opts, checksum_line(stdout, argv))
        best = dt if best is None else min(best, dt)
    return best


def time_per_pair(impl, opts, board, pairs):
    """Nanoseconds per pair: calibrates an iteration count lasting about --target-seconds,
    then (best of N with it) minus (best of N with 0 evaluations), over the pairs done."""
    startup = timed(impl, opts, 0, board, opts.repeat)
    iters = 1
    while True:
        work = timed(impl, opts, iters, board, 1) - startup
        if work >= opts.target_seconds / 4 or iters >= 10**7:
            break
        iters *= 4
    iters = max(1, round(iters * opts.target_seconds / max(work, 1e-6)))
    work = timed(impl, opts, iters, board, opts.repeat) - startup
    return max(work, 0.0) * 1e9 / (iters * pairs), iters


def board_units(path):
    """The unit count of a board file (the number after the two grids)."""
    with open(path, encoding="ascii") as f:
        nums = f.read().split()
    w, h = int(nums[0]), int(nums[1])
    return int(nums[2 + 2 * w * h])


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def ratio(x, base):
    if x is None or base is None or base == 0:
        return "-"
    return f"{x / base:#.3g}"


def measure(impl, opts, board, pairs):
    """One table row: {name, label, status, ok, instr, ns, ...}."""
    row = {"name": impl["name"], "label": impl["label"].format(c_label=opts.c_label),
           "ok": False, "instr": None, "ns": None, "note": ""}
    argv = command(impl, opts, 1, board)
    line = checksum_line(run(argv)[0], argv)
    row["checksum"] = line
    check(impl, opts, line)
    row["ok"] = True
    if opts.check_only:
        return row
    if opts.valgrind:
        k = max(1, round(impl["callgrind_iters"] * opts.callgrind_scale))
        try:
            full = callgrind_instructions(impl, opts, k, board, k)
            empty = callgrind_instructions(impl, opts, 0, board, 0)
            row["instr"] = (full - empty) / (k * pairs)
            row["callgrind_iters"] = k
        except Failure as e:
            row["note"] = f"callgrind failed ({e}); sanitizer build?"
    row["ns"], row["timed_iters"] = time_per_pair(impl, opts, board, pairs)
    return row


def print_table(rows, missing):
    base = {r["name"]: r for r in rows}
    c, lua = base.get("c"), base.get("lua")
    head = ["implementation", "checksum", "instr/pair", "ns/pair",
            "instr xC", "time xC", "instr xLua", "time xLua"]
    body = []
    for r in rows:
        body.append([r["label"], "ok" if r["ok"] else "WRONG",
                     "-" if r["instr"] is None else f"{r['instr']:,.0f}",
                     "-" if r["ns"] is None else f"{r['ns']:,.1f}",
                     ratio(r["instr"], c and c["instr"]), ratio(r["ns"], c and c["ns"]),
                     ratio(r["instr"], lua and lua["instr"]), ratio(r["ns"], lua and lua["ns"])])
    widths = [max(len(str(x[i])) for x in [head] + body) for i in range(len(head))]
    fmt = "  ".join(("{:<%d}" if i < 2 else "{:>%d}") % w for i, w in enumerate(widths))
    print(fmt.format(*head))
    print(fmt.format(*("-" * w for w in widths)))
    for b in body:
        print(fmt.format(*b))
    for r in rows:
        if r["note"]:
            print(f"note: {r['label']}: {r['note']}")
    for m in missing:
        print(m)


def main(argv):
    opts = parse_args(argv)
    tmp = None
    if not opts.workdir:
        tmp = tempfile.TemporaryDirectory(prefix="hon-bench-")
        opts.workdir = tmp.name
    os.makedirs(opts.workdir, exist_ok=True)
    try:
        return bench(opts)
    except (Failure, OSError, ValueError, IndexError) as e:
        print(f"run_bench: {e}")
        return 1
    finally:
        if tmp:
            tmp.cleanup()


def sampled_pairs(n, stride):
    """How many of the n*(n-1) ordered pairs, numbered from 0, are multiples of stride."""
    return (n * (n - 1) + stride - 1) // stride


def instruction_ratio(rows, base):
    """hon's instructions per pair over the `base` row's, as the closing line prints it."""
    by = {r["name"]: r for r in rows}
    hon, ref = by.get("hon"), by.get(base)
    if not hon or not ref or hon["instr"] is None or not ref["instr"]:
        return "-"
    return f"{hon['instr'] / ref['instr']:.1f}"


def run_workload(opts, wl):
    """Generates the workload's board, checks and measures its implementations, prints its
    table; returns (rows, failed, summary) with summary the JSON of the workload."""
    size = wl["size"]
    tag = wl["name"]
    board = os.path.join(opts.workdir, f"board-{opts.seed}-{tag}.txt")
    run([opts.gen, str(opts.seed), board] + ([str(v) for v in size] if size else []))
    n = board_units(board)
    opts.stride = wl["check_stride"] if opts.check_only else wl["stride"]
    opts.workload = tag
    pairs = sampled_pairs(n, opts.stride)
    impls = wl["impls"]
    present = [i for i in impls if all(getattr(opts, k) for k in i["needs"])]
    missing = [i["missing"] for i in impls if i not in present]
    opts.expected = wl["expected"] if opts.seed == REFERENCE_SEED else None
    if opts.expected is None:
        # No published line: plain C's answer is the one every implementation must print.
        c = next((i for i in present if i["name"] == "c"), None)
        if c is None:
            print(f"workload {tag}: the plain-C implementation is needed for the expected checksum")
            return [], True, {}
        argv_c = command(c, opts, 1, board)
        opts.expected = checksum_line(run(argv_c)[0], argv_c)

    side = f"{size[0]} x {size[1]}" if size else "30 x 30"
    asked = "every ordered pair" if opts.stride == 1 else f"every {opts.stride}th ordered pair"
    print(f"workload {tag}: {wl['title']}; seed {opts.seed}, {side} board, {n} units, "
          f"{asked}: {pairs} pairs per evaluation")
    print(f"expected: {opts.expected}")
    rows, failed = [], False
    for impl in present:
        sys.stdout.flush()
        try:
            rows.append(measure(impl, opts, board, pairs))
        except Failure as e:
            failed = True
            print(f"{impl['name']}: FAILED: {e}")
            rows.append({"name": impl["name"], "label": impl["label"].format(c_label=opts.c_label),
                         "ok": False, "instr": None, "ns": None, "note": str(e)})
    if opts.check_only:
        for r in rows:
            print(f"{r['label']}: {'ok' if r['ok'] else 'FAILED'}")
        for m in missing:
            print(m)
    else:
        print_table(rows, missing)
    print()
    summary = {"workload": tag, "units": n, "stride": opts.stride, "pairs": pairs,
               "expected": opts.expected, "rows": rows, "missing": missing}
    return rows, failed, summary


def startup_instructions(opts, argv, env, name):
    """The instructions (callgrind) of argv run with env, as text; "-" without valgrind."""
    if not opts.valgrind:
        return "-"
    path = os.path.join(opts.workdir, f"callgrind.out.{name}")
    _, err, _ = run([opts.valgrind, "--tool=callgrind", f"--callgrind-out-file={path}"] + argv,
                    env=env)
    m = re.search(r"refs:\s*([\d,]+)", err)
    if not m:
        raise Failure(f"{' '.join(argv)}: no instruction count from callgrind")
    return f"{int(m.group(1).replace(',', '')):,}"


def startup(opts):
    """The start-up lines: instructions (callgrind) and best wall time of `hon eval 1`, which
    loads rules/ and expansions/ and answers 1, with the parse cache filled (bench.md §9; a
    cache of its own in the work directory, filled by the first run); then its instructions
    without the cache (HON_NO_CACHE), what every run cost before the cache."""
    argv = [opts.hon_cli, "eval", "1"]
    env = {"XDG_CACHE_HOME": os.path.join(opts.workdir, "cache")}
    out, _, _ = run(argv, env=env)
    if out.strip() != "1":
        raise Failure(f"{' '.join(argv)}: printed '{out.strip()}', expected '1'")
    instr = startup_instructions(opts, argv, env, "startup")
    uncached = startup_instructions(opts, argv, dict(env, HON_NO_CACHE="1"), "startup-nocache")
    wall = cpu = None
    for _ in range(opts.repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        dt = run(argv, env=env)[2]
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        wall = dt if wall is None else min(wall, dt)
        cpu = used if cpu is None else min(cpu, used)
    return (f"start-up: hon eval 1: {instr} instructions, {wall * 1000:.1f} ms wall, "
            f"{cpu * 1000:.1f} ms CPU (best of {opts.repeat})\n"
            f"start-up without the parse cache (HON_NO_CACHE): {uncached} instructions\n")


# The answer of §11 (docs/spec/bench.md): a line of sight on an example board, asked through
# `hon eval` as the REPL asks it, plain (no trace recorded), with `why` and with --json.
ANSWER_BOARD = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "examples", "boards", "hill_contour.scn")
ANSWER_CALL = "line_of_sight($rifle1, $pak)"


# glibc gives the top of the heap back to the system when a free leaves enough of it unused
# (sbrk, at a trim threshold that moves with the largest block freed): whether the frees at
# exit trim or not depends on where the last blocks happen to sit, and trimming cost one answer
# about 18,000 instructions that the others did not pay, which moved the ratios of the answer
# line by a sixth (bench.md §11). The answer's runs are measured with trimming off.
NO_TRIM = {"GLIBC_TUNABLES": "glibc.malloc.trim_threshold=4294967295"}


def cli_instructions(opts, args, tag):
    """Instructions (callgrind Ir) of one run of the hon program with args (heap trimming off:
    NO_TRIM)."""
    path = os.path.join(opts.workdir, f"callgrind.out.answer.{tag}")
    _, err, _ = run([opts.valgrind, "--tool=callgrind", f"--callgrind-out-file={path}",
                     opts.hon_cli] + args, env=NO_TRIM)
    m = re.search(r"refs:\s*([\d,]+)", err)
    if not m:
        raise Failure(f"hon {' '.join(args)}: no instruction count from callgrind")
    return int(m.group(1).replace(",", ""))


def answer_cost(opts):
    """The answer line: instructions of ANSWER_CALL through `hon eval` beyond `hon eval 1` on
    the same board, untraced (plain), with the brief trace (`why`) and with the JSON trace."""
    board = ["--board", ANSWER_BOARD]
    out, _, _ = run([opts.hon_cli] + board + ["eval", ANSWER_CALL])
    if out.strip() != "clear":
        raise Failure(f"hon eval {ANSWER_CALL}: printed '{out.strip()}', expected 'clear'")
    base = cli_instructions(opts, board + ["eval", "1"], "base")
    plain = cli_instructions(opts, board + ["eval", ANSWER_CALL], "plain") - base
    why = cli_instructions(opts, board + ["why", ANSWER_CALL], "why") - base
    js = cli_instructions(opts, board + ["--json", "eval", ANSWER_CALL], "json") - base
    return (f"answer: hon eval {ANSWER_CALL} (examples/boards/hill_contour.scn): {plain:,} "
            f"instructions untraced; why {why:,} ({why / plain:.1f}x); --json {js:,} "
            f"({js / plain:.1f}x)\n")


def bench(opts):
    """The whole run once the options are parsed; returns the exit status."""
    print(f"line-of-sight benchmark: seed {opts.seed}")
    if not opts.check_only:
        vg = run([opts.valgrind, "--version"])[0].strip() if opts.valgrind else "valgrind not found"
        print(f"machine: {machine()}; {vg}; best of {opts.repeat} timed runs of ~{opts.target_seconds} s")
        print("instr/pair: callgrind Ir of K evaluations minus 0 evaluations, / (K * pairs); "
              "ns/pair: wall time likewise")
    print()
    failed, ratios, summaries = False, [], []
    for wl in WORKLOADS:
        if opts.workloads and wl["name"] not in opts.workloads:
            continue
        rows, bad, summary = run_workload(opts, wl)
        failed |= bad
        summaries.append(summary)
        ratios.append(f"ratio {wl['name']} hon/c={instruction_ratio(rows, 'c')} "
                      f"hon/lua={instruction_ratio(rows, 'lua')}")
    if opts.hon_cli and not opts.check_only and not opts.workloads:
        try:
            print(startup(opts))
        except Failure as e:
            failed = True
            print(f"start-up: FAILED: {e}")
        if opts.valgrind:
            try:
                print(answer_cost(opts))
            except Failure as e:
                failed = True
                print(f"answer: FAILED: {e}")
    if not opts.check_only:
        for line in ratios:
            print(line)
    if opts.json:
        with open(opts.json, "w", encoding="utf-8") as f:
            json.dump({"seed": opts.seed, "workloads": summaries}, f, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
