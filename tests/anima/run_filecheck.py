#!/usr/bin/env python3
"""Runs the RUN: lines of a FileCheck golden (%pzc, %FileCheck, %s substituted)
from the repository root; fails if any of them fails."""
import argparse
import re
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--pzc", required=True)
parser.add_argument("--filecheck", required=True)
parser.add_argument("test")
args = parser.parse_args()

runs = [m.group(1) for m in re.finditer(r"RUN:\s*(.*)", open(args.test).read())]
if not runs:
    sys.exit(f"{args.test}: no RUN: line")
for run in runs:
    command = run.replace("%pzc", args.pzc).replace("%FileCheck", args.filecheck).replace("%s", args.test)
    print("RUN:", command)
    if subprocess.run(command, shell=True).returncode != 0:
        sys.exit(1)
