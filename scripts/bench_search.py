#!/usr/bin/env python3
"""Optimal-search benchmark (issue 11): nodes, nodes/s, search wall time and
process CPU time per solve, for a fixed set of random-move scrambles, with
each --threads value given. Not part of the test run.

  scripts/bench_search.py [--pzc PATH] [--threads 1,2] [--only slide4,cube3,rotate4o]

Each solve is its own solver process (`pzc build` output, run with --json),
as a one-shot `pzc solve` is: CPU time is the process's (every thread, and
the table load and residency copy, see `baseline`). Tables come from the pzc
cache ($PZC_CACHE_DIR/tables): build them once first (a solve does). The
machine may be shared: compare CPU time and nodes, not only wall time.
"""
import argparse, json, os, random, resource, subprocess, sys, tempfile, time

SETS = {
    # name: (definition, move families, powers, scrambles, min length, max length, seed)
    "slide4": ("puzzles/slide4.pz", ["R1", "R2", "R3", "R4", "C1", "C2", "C3", "C4"], ["", "x2", "x3"], 10, 30, 30, 1),
    "cube3": ("puzzles/cube3.pz", ["U", "D", "F", "B", "L", "R"], ["", "2", "'"], 5, 9, 10, 2),
    "rotate4o": ("puzzles/rotate4o.pz", ["UL", "U", "UR", "L", "C", "R", "DL", "D", "DR"], ["", "2", "'"], 5, 10, 11, 3),
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
    return json.loads(p.stdout.strip().splitlines()[-1]), wall, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pzc", default="build/compiler/driver/pzc")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--only", default=",".join(SETS))
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="pz-bench-search-")
    for name in a.only.split(","):
        pz, families, powers, count, lo, hi, seed = SETS[name]
        solver = os.path.join(tmp, name)
        subprocess.run([a.pzc, "build", pz, "-o", solver], check=True, capture_output=True)
        base, _, base_cpu = run(solver, ["--scramble", "", "--threads", "1"])
        print(f"== {name}: {count} scrambles of {lo}-{hi} random moves (seed {seed}); "
              f"baseline process CPU (solved position: start-up, table mapping) {base_cpu:.3f} s")
        for threads in a.threads.split(","):
            tn = tw = tc = 0.0
            for s in scrambles(families, powers, count, lo, hi, seed):
                r, wall, cpu = run(solver, ["--scramble", s, "--threads", threads])
                tn += r["nodes"]; tw += r["seconds"]; tc += cpu
                print(f"  threads {threads}: length {r['length']:2d}  nodes {r['nodes']:>13,}  search {r['seconds']:8.3f} s"
                      f"  process CPU {cpu:8.3f} s  wall {wall:8.3f} s  {r['nodes'] / max(r['seconds'], 1e-9) / 1e6:7.2f} M nodes/s")
            print(f"  threads {threads}: TOTAL nodes {int(tn):,}  search {tw:.3f} s (mean {tw / count:.3f} s)  "
                  f"process CPU {tc:.3f} s  {tn / max(tw, 1e-9) / 1e6:.2f} M nodes/s (search wall)  "
                  f"{tn / max(tc, 1e-9) / 1e6:.2f} M nodes per CPU second")


if __name__ == "__main__":
    main()
