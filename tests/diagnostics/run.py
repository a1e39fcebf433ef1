#!/usr/bin/env python3
"""Diagnostics goldens: run pzc on every case and compare its stderr + exit code.

A case is an input file in tests/diagnostics/ (NAME.pz, NAME.yaml, NAME.yml, NAME.tws),
a command file NAME.cmd (one line of pzc arguments, for inputs that cannot be
a file: a missing path, a directory), or a level file levels/NAME.txt (run as
`pzc check puzzles/anima.pz --level FILE`). The expected output is
NAME.expected beside it: pzc's exact stderr, then a final line `exit: N`.
pzc runs from the repository root so paths in messages are relative.

A generated case NAME.gen is a Python script that writes a (large) input to
the path it is given: generated/NAME.pz, or generated/NAME.txt (a level) when
its first line is `# level`. Generated cases must also finish within
GENERATED_SECONDS of CPU time: bad input must cost little (note [diagnostic output
bounds] in dsl/diagnostics.cpp).

The actual output is written beside as NAME.actual. A case without an
expected file is reported as MISSING. `--update` writes the expected files
from the actual output (review the diff before committing).
"""
import argparse
import pathlib
import shlex
import subprocess
import sys
import resource

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
GENERATED_SECONDS = 20


def generate(script):
    """Runs a NAME.gen script; returns the pzc arguments for its output."""
    level = script.read_text().startswith("# level")
    out = HERE / "generated" / (script.stem + (".txt" if level else ".pz"))
    out.parent.mkdir(exist_ok=True)
    subprocess.run([sys.executable, str(script), str(out)], check=True)
    rel = str(out.relative_to(ROOT))
    return ["check", "puzzles/anima.pz", "--level", rel] if level else ["check", rel]


def cases():
    for path in sorted(HERE.iterdir()):
        if path.suffix in (".pz", ".yaml", ".yml", ".tws"):
            yield path, ["check", str(path.relative_to(ROOT))]
        elif path.suffix == ".cmd":
            yield path, shlex.split(path.read_text().strip())
        elif path.suffix == ".gen":
            yield path, None
    levels = HERE / "levels"
    if levels.is_dir():
        for path in sorted(levels.glob("*.txt")):
            yield path, ["check", "puzzles/anima.pz", "--level", str(path.relative_to(ROOT))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pzc", default=str(ROOT / "build/compiler/driver/pzc"), help="the pzc binary")
    parser.add_argument("--update", action="store_true", help="accept the actual output as expected")
    parser.add_argument("filter", nargs="*", help="only cases whose name contains one of these")
    args = parser.parse_args()

    counts = {"PASS": 0, "FAIL": 0, "MISSING": 0, "UPDATED": 0}
    names = set()
    for path, argv in cases():
        name = path.stem
        if args.filter and not any(f in name for f in args.filter):
            continue
        if name in names:
            print(f"FAIL {path}: a second case named {name}")
            counts["FAIL"] += 1
            continue
        names.add(name)
        generated = argv is None
        if generated:
            argv = generate(path)
        # CPU seconds of pzc (user + system): a loaded machine stretches wall time.
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run([args.pzc] + argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              timeout=300)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        actual = proc.stderr.decode("utf-8", "replace") + f"exit: {proc.returncode}\n"
        if generated and seconds > GENERATED_SECONDS:
            counts["FAIL"] += 1
            print(f"FAIL {name}: took {seconds:.1f} s of CPU (at most {GENERATED_SECONDS} s)")
            continue
        expected_path = path.with_suffix(".expected")
        path.with_suffix(".actual").write_text(actual)
        if args.update:
            if not expected_path.exists() or expected_path.read_text() != actual:
                expected_path.write_text(actual)
                counts["UPDATED"] += 1
                print(f"UPDATED {name}")
            continue
        if not expected_path.exists():
            counts["MISSING"] += 1
            print(f"MISSING {name}: no {expected_path.relative_to(ROOT)} (run {sys.argv[0]} --update)")
            continue
        if expected_path.read_text() == actual:
            counts["PASS"] += 1
            continue
        counts["FAIL"] += 1
        print(f"FAIL {name}: stderr differs; compare {expected_path.relative_to(ROOT)} with "
              f"{path.with_suffix('.actual').relative_to(ROOT)}")
        # A short diff helps in CI logs.
        import difflib
        for line in difflib.unified_diff(expected_path.read_text().splitlines(), actual.splitlines(),
                                         "expected", "actual", lineterm="", n=1):
            print("  " + line)
    print(", ".join(f"{v} {k.lower()}" for k, v in counts.items() if v or k == "PASS"))
    return 1 if counts["FAIL"] or counts["MISSING"] else 0


if __name__ == "__main__":
    sys.exit(main())
