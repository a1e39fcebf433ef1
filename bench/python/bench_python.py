#!/usr/bin/env python3
"""The Python module against the command line on one batch: N random slide4
states (puzzles/slide4.pz, optimal) solved by Puzzle.solve_many with T
threads, then by `pzc solve puzzles/slide4.pz --scrambles FILE --threads T`.
Both are warmed first (plugin and solver compiled, tables cached), so the
times are the solves plus, for the CLI, one process start and table load.
Not a ctest test (minutes of CPU).

    PYTHONPATH=build/python PZC=build/compiler/driver/pzc \\
        python3 bench/python/bench_python.py [--count 2000] [--threads 2]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pzc

ROOT = Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--puzzle", default=str(ROOT / "puzzles" / "slide4.pz"))
    args = ap.parse_args()
    exe = pzc.find_pzc()

    t0 = time.perf_counter()
    puzzle = pzc.Puzzle(args.puzzle, threads=args.threads)
    puzzle.prepare()
    print("module: plugin and tables ready in %.2f s" % (time.perf_counter() - t0))
    states = [puzzle.random_state(seed=s) for s in range(args.count)]

    t0 = time.perf_counter()
    solutions = puzzle.solve_many(states, threads=args.threads)
    module_s = time.perf_counter() - t0

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(" ".join(map(str, s)) + "\n" for s in states))
        batch = f.name
    try:
        warm = [exe, "solve", args.puzzle, "--state", " ".join(map(str, states[0]))]
        subprocess.run(warm, check=True, stdout=subprocess.DEVNULL)
        t0 = time.perf_counter()
        out = subprocess.run([exe, "solve", args.puzzle, "--scrambles", batch, "--threads", str(args.threads)],
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        cli_s = time.perf_counter() - t0
    finally:
        os.unlink(batch)
    cli_lengths = [json.loads(line)["length"] for line in out.splitlines() if line.startswith("{")]
    lengths = [s.length for s in solutions]
    if cli_lengths != lengths:
        sys.exit("the module and the CLI disagree on lengths (%d vs %d answers)" % (len(lengths), len(cli_lengths)))

    print("%d random states, %d threads, mean length %.2f, all optimal: %s"
          % (args.count, args.threads, sum(lengths) / len(lengths), all(s.optimal for s in solutions)))
    print("module solve_many: %8.3f s  (%.3f ms a state)" % (module_s, 1000 * module_s / args.count))
    print("pzc --scrambles:   %8.3f s  (%.3f ms a state)" % (cli_s, 1000 * cli_s / args.count))
    print("ratio module/CLI:  %8.3f" % (module_s / cli_s))


if __name__ == "__main__":
    main()
