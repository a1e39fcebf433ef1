"""build_stamp.py FILE: writes FILE.stamp, the build stamp pzc checks before
it runs a cached binary (note [build stamps]: the size and FNV-1a hash of
its bytes). The e2e and mpi tests stamp the scripts they put in place of a
cached solver, so that pzc runs them."""
import sys

data = open(sys.argv[1], "rb").read()
h = 1469598103934665603
for b in data:
    h = ((h ^ b) * 1099511628211) % (1 << 64)
open(sys.argv[1] + ".stamp", "w").write("pzc-build-stamp 1 %d %016x\n" % (len(data), h))
