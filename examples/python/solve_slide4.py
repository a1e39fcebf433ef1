#!/usr/bin/env python3
"""solve_slide4.py [COUNT [SEED]]: random 4x4 Loopover (slide4) positions
solved optimally in-process through the pzc module (docs/library.md, Python).

Each solution is replayed with Puzzle.apply before it is printed: it must
reach the solved state. The definition is the installed slide4.pz (or
$PZC_PUZZLE_DIR/slide4.pz). The first run builds the 247 MiB pruning table
(about a minute on two cores) and caches it for every later run.
"""
import os
import sys

import pzc


def puzzle_dir():
    if os.environ.get("PZC_PUZZLE_DIR"):
        return os.environ["PZC_PUZZLE_DIR"]
    # <prefix>/share/pzc/puzzles beside the prefix's bin/pzc
    return os.path.join(os.path.dirname(os.path.dirname(pzc.find_pzc())), "share", "pzc", "puzzles")


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    slide4 = pzc.Puzzle(os.path.join(puzzle_dir(), "slide4.pz"), threads=2)
    states = [slide4.random_state(seed=seed + i) for i in range(count)]
    solutions = slide4.solve_many(states, threads=2)
    for state, sol in zip(states, solutions):
        if not slide4.is_solved(slide4.apply(state, " ".join(sol.moves))):
            sys.exit("error: a solution does not replay to solved")
        print(f"{sol.length:2d} moves{' (optimal)' if sol.optimal else ''}: {' '.join(sol.moves)}")
    # A bad scramble is an exception carrying the command line's message.
    try:
        slide4.solve(scramble="R1 Q")
    except pzc.Error as e:
        print(f"error: {e}")


if __name__ == "__main__":
    main()
