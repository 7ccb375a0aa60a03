#!/usr/bin/env python3
"""bench/diff_rate.py — the throughput of `hon diff` and `hon snapshot record` on the bundled
boards, and of `hon diff --search` on the boards it makes (docs/spec/bench.md §7): questions
asked per second of CPU time, which is per core (hon runs on one thread).

    diff_rate.py HON [--repeat N] [--json FILE] [--check-only]

Each workload runs `hon` as a subprocess and is measured by the CPU time (user + system) the
child used (os.wait4), less the CPU time of the same command asking nothing (loading the rules
and copying them into the sessions), over the number of questions the command reports. The
best of N runs (by rate) is kept. `--check-only` runs each workload once, small (a cap of 50 calls per query
and board, a search of 1 s), and only checks that it reports its questions (the meson test of
the `bench` suite); it times nothing.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SETTINGS = ["bloody_omaha", "harbor_hills"]
NOTHING = ["--no-bundled-boards", "--no-tests", "--no-finite"]


def timed(cmd):
    """Runs cmd (reaping it with wait4 for its CPU time): stdout, stderr, status, seconds."""
    with tempfile.TemporaryFile(mode="w+") as out, tempfile.TemporaryFile(mode="w+") as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return out.read(), err.read(), p.returncode, usage.ru_utime + usage.ru_stime


def diff_workload(hon, extra):
    """`hon diff --json` of the two editions: (questions asked, CPU seconds)."""
    out, err, rc, cpu = timed([hon, "diff", "--json"] + extra + SETTINGS)
    if rc not in (0, 1):
        raise RuntimeError(f"hon diff failed ({rc}):\n{err}")
    return json.loads(out)["asked"], cpu


def snapshot_workload(hon, extra):
    """`hon snapshot record` of one edition: (questions asked, CPU seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.snap")
        out, err, rc, cpu = timed([hon, "snapshot", "record", path] + extra + [SETTINGS[1]])
        if rc != 0:
            raise RuntimeError(f"hon snapshot record failed ({rc}):\n{err}")
        return int(out.split(": ")[1].split()[0]), cpu


# The search's two settings: a reading that only a unit's markers can show (an NCO and its own
# Suppressed marker), and the search's boards carry no marker: no board differs, so it asks the
# queries that read the variant until its budget runs out. (An edition against itself asks
# nothing: no query can answer differently.)
SEARCH_SETTINGS = [SETTINGS[0], SETTINGS[0] + ",nco_rally_self=another_unit"]


def search_workload(hon, extra):
    """`hon diff --search` of two settings no board tells apart (it asks until its budget of
    5 s runs out; with --cap, its check-only run, 1 s): (questions, CPU seconds)."""
    budget = "1" if extra and extra[0] == "--cap" else "5"
    if extra == NOTHING:  # nothing to subtract but the load: a search of 0 s is not allowed
        return 0, timed([hon, "diff"] + NOTHING + SEARCH_SETTINGS)[3]
    out, err, rc, cpu = timed([hon, "diff", "--search", "--seconds", budget] + SEARCH_SETTINGS)
    if rc != 0:
        raise RuntimeError(f"hon diff --search failed ({rc}):\n{err}")
    return int(out.split(" boards, ")[1].split()[0]), cpu


WORKLOADS = [("hon diff (2 settings)", diff_workload),
             ("hon snapshot record (1 setting)", snapshot_workload),
             ("hon diff --search (2 settings)", search_workload)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hon")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="write the table as JSON to this file")
    ap.add_argument("--check-only", action="store_true")
    a = ap.parse_args()
    rows = []
    for label, work in WORKLOADS:
        if a.check_only:
            asked, _ = work(a.hon, ["--cap", "50"])
            if asked <= 0:
                print(f"{label}: FAILED (no question asked)")
                return 1
            print(f"{label}: ok ({asked} questions)")
            continue
        base = min(work(a.hon, NOTHING)[1] for _ in range(a.repeat))
        runs = [work(a.hon, []) for _ in range(a.repeat)]
        # the best run: the fastest (a search's count of questions changes from run to run)
        asked, cpu = max(((n, t - base) for n, t in runs), key=lambda r: r[0] / max(r[1], 1e-9))
        rows.append({"workload": label, "questions": asked, "cpu_seconds": round(cpu, 3),
                     "load_seconds": round(base, 3),
                     "questions_per_second_per_core": round(asked / cpu) if cpu > 0 else None})
    if a.check_only:
        return 0
    print(f"{'workload':<34}{'questions':>11}{'CPU s':>9}{'load s':>9}{'questions/s/core':>19}")
    print(f"{'-' * 33:<34}{'-' * 10:>11}{'-' * 8:>9}{'-' * 8:>9}{'-' * 18:>19}")
    for r in rows:
        rate = r["questions_per_second_per_core"]
        print(f"{r['workload']:<34}{r['questions']:>11,}{r['cpu_seconds']:>9.2f}"
              f"{r['load_seconds']:>9.2f}{rate:>19,}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
