#!/usr/bin/env python3
"""bench/spawn_wall.py [--runs N] CMD [ARG...] [-- CMD [ARG...]]...: the wall time of starting
programs, the method of docs/spec/bench.md §9 (session 10's table and since).

Each command is started with posix_spawn (standard output to /dev/null) and waited for with
wait4, N times (30 by default), the commands taking turns run by run so that a change in the
machine's load falls on all of them alike. For each it prints the best and the median wall
time (from just before the spawn to wait4's return), the fewest minor page faults (wait4's
usage) and the load average at the end. A command that exits non-zero is reported and makes
the script exit 1. The best of many runs is the figure to compare on a shared machine: the
median says more about the other work than about the program.
"""
import os
import statistics
import sys
import time


def main(argv):
    runs = 30
    if len(argv) >= 2 and argv[0] == "--runs":
        runs, argv = int(argv[1]), argv[2:]
    commands, cur = [], []
    for a in argv:
        if a == "--":
            commands.append(cur)
            cur = []
        else:
            cur.append(a)
    commands.append(cur)
    if not all(commands) or runs < 1:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    devnull = os.open(os.devnull, os.O_WRONLY)
    walls = [[] for _ in commands]
    faults = [[] for _ in commands]
    failed = False
    for _ in range(runs):
        for i, cmd in enumerate(commands):
            t0 = time.perf_counter()
            pid = os.posix_spawnp(cmd[0], cmd, os.environ,
                                  file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
            _, status, usage = os.wait4(pid, 0)
            walls[i].append((time.perf_counter() - t0) * 1000)
            faults[i].append(usage.ru_minflt)
            if status != 0:
                failed = True
                print(f"{' '.join(cmd)}: exit status {status}", file=sys.stderr)
    for cmd, w, f in zip(commands, walls, faults):
        print(f"{' '.join(cmd)}: best {min(w):.2f} ms, median {statistics.median(w):.2f} ms, "
              f"{min(f)} minor faults (best of {runs})")
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
