#!/usr/bin/env python3
"""Anima end to end: `pzc solve-dir` on the 23 original levels must find the
optimal lengths of ../shared/reference/facts.md (pzc replays every
solution through its interpreter before printing); `pzc solve --level` style
single-level output must be a replayable solution of that length; the levels
larger than 64 cells in tests/anima/levels must get the same optimal length
from the generated solver as from breadth-first search with the interpreter;
an unsolvable level must be reported with a non-zero exit."""
import argparse
import json
import subprocess
import sys
import tempfile
import os

OPTIMAL = {
    "1.1-line_dance": 2, "1.2-u_turn": 6, "1.3-spiral": 16,
    "2.1-single_file": 16, "2.2-oblique": 10, "2.3-cycle": 13, "2.4-octothorpe": 7,
    "2.5-square_dance": 12, "2.6-centralize": 15,
    "3.1-unwind": 16, "3.2-spinlock": 11, "3.3-gimbal_lock": 6, "3.4-deadlock": 6,
    "3.5-sideswipe": 10, "3.6-untangle": 11, "3.7-traffic_circle": 8, "3.8-close_quarters": 11,
    "3.9-fractal": 13, "3.10-box_step": 15, "3.11-inversion": 14, "3.12-free_radical": 19,
    "3.13-side_channel": 20, "3.14-antiparticle": 22,
}

parser = argparse.ArgumentParser()
parser.add_argument("--pzc", required=True)
args = parser.parse_args()
failures = []


def run(*argv):
    proc = subprocess.run([args.pzc, *argv], capture_output=True, text=True, timeout=500)
    return proc


def solve_json(*argv):
    proc = run("solve-dir", "puzzles/anima.pz", *argv, "--json")
    if proc.returncode != 0:
        failures.append(f"pzc solve-dir {' '.join(argv)} failed:\n{proc.stderr}")
        return {}
    return {row["level"]: row for row in json.loads(proc.stdout)}


# The 23 levels with the generated solver.
rows = solve_json("puzzles/anima/levels")
for name, length in OPTIMAL.items():
    row = rows.get(name)
    if not row:
        failures.append(f"{name}: not solved")
    elif row["outcome"] != "solved" or row["length"] != length:
        failures.append(f"{name}: {row['outcome']} in {row['length']} moves, expected {length}")
if set(rows) - set(OPTIMAL):
    failures.append(f"unexpected levels: {sorted(set(rows) - set(OPTIMAL))}")

# Levels over 64 cells: generated A* against interpreter BFS.
generated = solve_json("tests/anima/levels")
baseline = solve_json("tests/anima/levels", "--interp", "--bfs")
for name, row in baseline.items():
    got = generated.get(name)
    if not got or got["length"] != row["length"] or got["outcome"] != "solved":
        failures.append(f"{name}: generated {got}, interpreter BFS {row}")

# One level as the user's path prints it: names, and JSON.
text = run("solve-dir", "puzzles/anima.pz", "puzzles/anima/levels/3.14-antiparticle.txt")
if text.returncode != 0 or "3.14-antiparticle" not in text.stdout:
    failures.append(f"single-level table failed: {text.stderr}")

# The user's path, once `pzc solve` exists (it hands grid puzzles to the
# grid driver): names on one line, and the JSON form.
help_text = run("--help").stdout
if "\n  solve " in help_text:
    level = "puzzles/anima/levels/3.14-antiparticle.txt"
    plain = run("solve", "puzzles/anima.pz", "--level", level)
    words = plain.stdout.split()
    if plain.returncode != 0 or len(words) != 22 or not set(words) <= {"up", "down", "left", "right"}:
        failures.append(f"pzc solve --level: exit {plain.returncode}, stdout {plain.stdout!r}, stderr {plain.stderr!r}")
    as_json = run("solve", "puzzles/anima.pz", "--level", level, "--json")
    try:
        doc = json.loads(as_json.stdout)
        if doc["length"] != 22 or doc["optimal"] is not True or len(doc["solution"].split()) != 22 \
                or doc["nodes"] <= 0 or doc["seconds"] < 0:
            failures.append(f"pzc solve --json: {doc}")
    except (ValueError, KeyError) as e:
        failures.append(f"pzc solve --json: {e}: {as_json.stdout!r} {as_json.stderr!r}")

# An unsolvable level: a red goal and no red actor can reach it.
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "walled_off.txt")
    with open(path, "w") as f:
        f.write(".. r\n....\n\nB 0 0")
    for extra in ([], ["--interp"]):
        proc = run("solve-dir", "puzzles/anima.pz", path, *extra)
        if proc.returncode == 0 or "has no solution" not in proc.stderr:
            failures.append(f"unsolvable level {extra}: exit {proc.returncode}, stderr {proc.stderr!r}")

for f in failures:
    print("FAIL", f)
print(f"{len(OPTIMAL)} levels checked, {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
