#!/usr/bin/env python3
"""bench/spawn_wall.py [--runs N] CMD [ARG...] [-- CMD [ARG...]]...: the wall time of starting
programs, the method of docs/spec/bench.md §9 (session 10's table and since).

Each command is started with posix_spawn (standard output to /dev/null) and waited for with
wait4, N times (30 by default), the commands taking turns run by run so that a change in the
machine's load falls on all of them alike. For each it prints the best and the median wall
time (from just before the spawn to wait4's return), the fewest and the median minor page
faults (wait4's usage: a median far above the fewest is memory that differs from run to run,
such as a heap placed at random) and the load average at the end. A command that exits non-zero is reported and makes
the script exit 1; a usage error exits 2. The best of many runs is the figure to compare on a
shared machine: the median says more about the other work than about the program.
"""
import argparse
import os
import statistics
import sys
import time


def positive(text):
    """argparse type: an integer of at least 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: '{text}'") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {n}")
    return n


def parse_args(argv):
    """The run count and the commands (each a non-empty list of words) of argv, or a usage
    error (argparse's: the usage on standard error, exit status 2)."""
    parser = argparse.ArgumentParser(
        prog="bench/spawn_wall.py",
        usage="%(prog)s [-h] [--runs N] CMD [ARG...] [-- CMD [ARG...]]...",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example: %(prog)s /bin/true -- build/repl/hon --version -- build/repl/hon eval 1")
    parser.add_argument("--runs", type=positive, default=30, metavar="N",
                        help="how many times to start each command (default 30)")
    # The script's options come before the first command; everything from the first command
    # on (its own options, such as hon's --version, included) is the commands' (REMAINDER).
    parser.add_argument("words", nargs=argparse.REMAINDER, metavar="CMD [ARG...] [-- CMD...]",
                        help="the commands to time, separated by --")
    args = parser.parse_args(argv)
    words = args.words[1:] if args.words[:1] == ["--"] else args.words
    commands, cur = [], []
    for w in words:
        if w == "--":
            commands.append(cur)
            cur = []
        else:
            cur.append(w)
    commands.append(cur)
    if not all(commands):
        parser.error("each command needs a program: nothing before, between or after a '--'")
    return args.runs, commands


def main(argv):
    runs, commands = parse_args(argv)
    devnull = os.open(os.devnull, os.O_WRONLY)
    walls = [[] for _ in commands]
    faults = [[] for _ in commands]
    failed = False
    for _ in range(runs):
        for i, cmd in enumerate(commands):
            t0 = time.perf_counter()
            try:
                pid = os.posix_spawnp(cmd[0], cmd, os.environ,
                                      file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
            except OSError as e:  # no such program, not executable: said once, no traceback
                print(f"bench/spawn_wall.py: cannot start {cmd[0]}: {e.strerror}",
                      file=sys.stderr)
                return 1
            _, status, usage = os.wait4(pid, 0)
            walls[i].append((time.perf_counter() - t0) * 1000)
            faults[i].append(usage.ru_minflt)
            if status != 0:
                failed = True
                print(f"{' '.join(cmd)}: exit status {os.waitstatus_to_exitcode(status)}",
                      file=sys.stderr)
    for cmd, w, f in zip(commands, walls, faults):
        print(f"{' '.join(cmd)}: best {min(w):.2f} ms, median {statistics.median(w):.2f} ms, "
              f"{min(f)} minor faults (median {statistics.median(f):g}) (best of {runs})")
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
