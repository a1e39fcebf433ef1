#!/usr/bin/env python3
"""Optimal-search benchmark (issue 11): nodes, nodes/s, search wall time and
process CPU time per solve, for a fixed set of random-move scrambles, with
each --threads value given. Not part of the test run.

  scripts/bench_search.py [--pzc PATH] [--threads 1,2] [--only slide4,cube3,rotate4o]

A set is solved by one solver process (`pzc build` output, run with --json
and one --scramble per position), so its tables are resident; nodes, wall
and CPU time (every search thread) per solve are the solver's. Tables come from the pzc
cache ($PZC_CACHE_DIR/tables): build them once first (a solve does). The
machine may be shared: compare CPU time and nodes, not only wall time.
"""
import argparse, json, os, random, resource, subprocess, sys, tempfile, time

SETS = {
    # name: (definition, move families, powers, scrambles, min length, max length, seed)
    "slide4": ("puzzles/slide4.pz", ["R1", "R2", "R3", "R4", "C1", "C2", "C3", "C4"], ["", "x2", "x3"], 10, 30, 30, 1),
    "cube3": ("puzzles/cube3.pz", ["U", "D", "F", "B", "L", "R"], ["", "2", "'"], 5, 9, 10, 2),
    "rotate4o": ("puzzles/rotate4o.pz", ["UL", "U", "UR", "L", "C", "R", "DL", "D", "DR"], ["", "2", "'"], 5, 10, 11, 3),
    "cube3_12": ("puzzles/cube3.pz", ["U", "D", "F", "B", "L", "R"], ["", "2", "'"], 5, 12, 12, 4),
}


def scrambles(families, powers, count, lo, hi, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(lo, hi)
        seq, last = [], None
        while len(seq) < n:
            f = rng.choice(families)
            if f == last:
                continue
            last = f
            seq.append(f + rng.choice(powers))
        out.append(" ".join(seq))
    return out


def run(solver, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run([solver, "--json"] + args, capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        sys.exit(f"{solver} {' '.join(args)} failed: {p.stderr}")
    return [json.loads(line) for line in p.stdout.strip().splitlines()], wall, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pzc", default="build/compiler/driver/pzc")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--only", default="slide4,cube3,rotate4o", help="sets: " + ",".join(SETS))
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="pz-bench-search-")
    for name in a.only.split(","):
        pz, families, powers, count, lo, hi, seed = SETS[name]
        solver = os.path.join(tmp, name)
        subprocess.run([a.pzc, "build", pz, "-o", solver], check=True, capture_output=True)
        todo = scrambles(families, powers, count, lo, hi, seed)
        for threads in a.threads.split(","):
            # One process for the set: tables loaded once and made resident,
            # as for any batch; times are the solver's, per solve.
            args = ["--threads", threads]
            for sc in todo:
                args += ["--scramble", sc]
            results, _, _ = run(solver, args)
            tn = sum(r["nodes"] for r in results)
            tw = sum(r["seconds"] for r in results)
            tc = sum(r["cpu-seconds"] for r in results)
            print(f"== {name}: {count} scrambles of {lo}-{hi} random moves (seed {seed}), threads {threads}: "
                  f"lengths {' '.join(str(r['length']) for r in results)}")
            for r in results:
                print(f"    nodes {r['nodes']:>13,}  wall {r['seconds']:8.3f} s  CPU {r['cpu-seconds']:8.3f} s  "
                      f"{r['nodes'] / max(r['cpu-seconds'], 1e-9) / 1e6:7.2f} M nodes per CPU s")
            print(f"  TOTAL nodes {tn:,}  wall {tw:.3f} s (mean {tw / count:.3f} s)  CPU {tc:.3f} s (mean {tc / count:.3f} s)  "
                  f"{tn / max(tw, 1e-9) / 1e6:.2f} M nodes/s wall  {tn / max(tc, 1e-9) / 1e6:.2f} M nodes per CPU s")

if __name__ == "__main__":
    main()
