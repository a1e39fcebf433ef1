#!/usr/bin/env python3
"""Generates Anima levels that are solvable by construction.

A level is built by placing walls and actors at random, then pressing a
random walk of directions under the exact rules (see note [grid rules] in
compiler/interp/grid_interp.hpp); the cells where some of the actors end up
become the goals of their colours. The walk is a solution, so the level is
solvable, and its optimal length is at most the walk's length. Levels whose
start is already solved are rejected.

Output is the original level format (grid rows top first, '.' floor, ' '
wall, r/b goals, an empty line, then "R x y" / "B x y" with y counted up
from the bottom row; no final newline).

    scripts/gen_levels.py --out bench/anima/levels --count 8 --seed 1
    scripts/gen_levels.py --width 12 --height 12 --reds 6 --blues 4 --walk 30 --stdout
    scripts/gen_levels.py --width 9 --height 9 --reds 3 --blues 3 --walk 30 --walls 0.2 --seed 2 --file L.txt
"""
import argparse
import os
import random
import sys

DIRECTIONS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}


def step(floor, width, height, actors, pressed):
    """One press: actors is a list of (colour, x, y); returns the new list."""
    dx, dy = DIRECTIONS[pressed]

    def is_floor(x, y):
        return 0 <= x < width and 0 <= y < height and (x, y) in floor

    targets = []
    for colour, x, y in actors:
        sx, sy = (dx, dy) if colour == "R" else (-dx, -dy)
        tx, ty = x + sx, y + sy
        targets.append((tx, ty) if is_floor(tx, ty) else (x, y))
    changed = True
    while changed:
        changed = False
        claims = {}
        for t in targets:
            claims[t] = claims.get(t, 0) + 1
        for i, (colour, x, y) in enumerate(actors):
            if targets[i] != (x, y) and claims[targets[i]] > 1:
                targets[i] = (x, y)
                changed = True
    return [(c, tx, ty) for (c, _, _), (tx, ty) in zip(actors, targets)]


def connected_floor(width, height, wall_fraction, rng):
    """Random walls, keeping only the largest 4-connected floor region."""
    cells = {(x, y) for x in range(width) for y in range(height) if rng.random() >= wall_fraction}
    best = set()
    seen = set()
    for start in cells:
        if start in seen:
            continue
        region = {start}
        stack = [start]
        seen.add(start)
        while stack:
            x, y = stack.pop()
            for dx, dy in DIRECTIONS.values():
                n = (x + dx, y + dy)
                if n in cells and n not in seen:
                    seen.add(n)
                    region.add(n)
                    stack.append(n)
        if len(region) > len(best):
            best = region
    return best


def generate(width, height, reds, blues, walk, goals, wall_fraction, rng):
    for _ in range(1000):
        floor = connected_floor(width, height, wall_fraction, rng)
        if len(floor) < reds + blues + 4:
            continue
        cells = rng.sample(sorted(floor), reds + blues)
        start = [("R", x, y) for x, y in cells[:reds]] + [("B", x, y) for x, y in cells[reds:]]
        actors = start
        for _ in range(walk):
            actors = step(floor, width, height, actors, rng.choice(list(DIRECTIONS)))
        moved = [i for i, (a, b) in enumerate(zip(start, actors)) if a != b]
        if len(moved) < 1:
            continue
        chosen = rng.sample(moved, min(goals, len(moved)))
        goal_cells = {(actors[i][1], actors[i][2]): actors[i][0].lower() for i in chosen}
        start_cells = {(x, y): c for c, x, y in start}
        if all(start_cells.get(cell, "").lower() == g for cell, g in goal_cells.items()):
            continue  # already solved at the start
        return render(width, height, floor, goal_cells, start)
    raise SystemExit("gen_levels: could not generate a level with these parameters")


def render(width, height, floor, goal_cells, actors):
    rows = []
    for y in range(height - 1, -1, -1):
        row = ""
        for x in range(width):
            row += goal_cells.get((x, y), ".") if (x, y) in floor else " "
        rows.append(row)
    lines = rows + [""] + [f"{c} {x} {y}" for c, x, y in actors]
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--width", type=int)
    p.add_argument("--height", type=int)
    p.add_argument("--reds", type=int)
    p.add_argument("--blues", type=int)
    p.add_argument("--goals", type=int, help="number of goals (default: about half the actors)")
    p.add_argument("--walk", type=int, default=24, help="length of the random walk")
    p.add_argument("--walls", type=float, default=0.15, help="fraction of wall cells")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--out", help="folder for the level files")
    p.add_argument("--stdout", action="store_true")
    p.add_argument("--file", help="write the (single) level to this path")
    args = p.parse_args()
    rng = random.Random(args.seed)
    for i in range(args.count):
        # Unset sizes sweep the scaling range: 8x8 .. 12x12, 4 .. 10 actors.
        size = 8 + (i * 5 // max(1, args.count)) if args.width is None else None
        width = args.width or size
        height = args.height or size
        actors = min(10, 4 + i * 7 // max(1, args.count))
        reds = args.reds if args.reds is not None else (actors + 1) // 2
        blues = args.blues if args.blues is not None else actors - reds
        goals = args.goals or max(2, (reds + blues + 1) // 2)
        text = generate(width, height, reds, blues, args.walk, goals, args.walls, rng)
        if args.file:
            with open(args.file, "w") as f:
                f.write(text)
            continue
        if args.stdout or not args.out:
            sys.stdout.write(text + "\n\n")
            continue
        os.makedirs(args.out, exist_ok=True)
        name = f"gen{i + 1:02d}-{width}x{height}-{reds}r{blues}b.txt"
        with open(os.path.join(args.out, name), "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
