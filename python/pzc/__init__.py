"""pzc from Python: compile a puzzle definition and solve its positions.

    import pzc
    cube = pzc.Puzzle("puzzles/cube2.pz")
    sol = cube.solve(scramble="R U F'")
    sol.moves, sol.length, sol.optimal     # ['F', "U'", "R'"], 3, True

A Puzzle runs `pzc build FILE --shared` (cached like every pzc build: the
second time it is instant) and loads the solver plugin it prints. States are
lists of ints, the numbers `pzc solve --state` takes. Errors raise pzc.Error
with the message the command line prints and .code / .kind (docs/library.md).
"""

import os
import shutil
import subprocess
import threading
from pathlib import Path

from ._pzc import Error, Plugin, Solution
from . import _pzc

__all__ = ["Puzzle", "Solution", "Error", "find_pzc", "build_plugin"]

# pz::api::ErrorCode's numbers (Error.code).
BAD_INPUT, NOT_PREPARED, OUT_OF_MEMORY, CORRUPT_TABLES, CANCELLED = 1, 2, 3, 4, 5
NO_SOLUTION, UNSUPPORTED, INTERNAL, TABLES_UNWRITABLE, WRONG_PUZZLE = 6, 7, 8, 9, 10


def find_pzc(pzc=None):
    """The pzc executable: `pzc`, else $PZC, else the one of this module's
    install prefix (<prefix>/bin/pzc), else pzc on PATH."""
    if pzc:
        return str(pzc)
    if os.environ.get("PZC"):
        return os.environ["PZC"]
    here = Path(__file__).resolve().parent
    for up in here.parents[:4]:  # <prefix>/lib/python3/dist-packages/pzc
        candidate = up / "bin" / "pzc"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which("pzc")
    if not found:
        raise Error("cannot find pzc: pass pzc=, set $PZC or put pzc on PATH")
    return found


def build_plugin(path, pzc=None, levels=()):
    """Compiles the definition `path` into a solver plugin (cached) and
    returns the plugin's path. `levels`: a grid-actor puzzle's level files."""
    cmd = [find_pzc(pzc), "build", str(path), "--shared"]
    for level in levels:
        cmd += ["--levels" if os.path.isdir(level) else "--level", str(level)]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        message = run.stderr.strip() or "pzc build --shared failed (exit code %d)" % run.returncode
        err = Error(message)
        err.code, err.kind = BAD_INPUT, "bad input"
        raise err
    return run.stdout.strip().splitlines()[-1]


def _bytes(memory):
    """512M, 2G, 1024 (bytes) -> bytes; None -> 0 (the solver's default)."""
    if memory is None:
        return 0
    if isinstance(memory, int):
        return memory
    text = str(memory).strip().upper().rstrip("B")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}.get(text[-1:], 1)
    return int(float(text[:-1] if scale > 1 else text) * scale)


class Puzzle:
    """A compiled puzzle: its solvers, each made and prepared (its tables
    built or loaded) on first use, then kept."""

    def __init__(self, path, solver=None, table_dir=None, threads=0, memory=None, pzc=None,
                 levels=(), verify_tables=False, cache_tables=True, shared_tables=False):
        self.path = str(path)
        self.plugin = Plugin(build_plugin(path, pzc, levels))
        self.default_solver = solver or self.plugin.solvers[0]
        self._options = dict(table_dir=table_dir or "", memory=_bytes(memory), threads=threads,
                             verify_tables=verify_tables, cache_tables=cache_tables, shared_tables=shared_tables)
        self._solvers = {}
        self._lock = threading.Lock()
        self.solver(self.default_solver)  # an unknown name fails here, not at the first solve

    @property
    def name(self):
        return self.plugin.puzzle

    @property
    def solvers(self):
        """The solvers the puzzle declares, its default first."""
        return list(self.plugin.solvers)

    def solver(self, name=None):
        """The _pzc.Solver `name` (None: the puzzle's default), not prepared yet."""
        name = name or self.default_solver
        with self._lock:
            if name not in self._solvers:
                self._solvers[name] = _pzc.Solver(self.plugin, name, **self._options)
            return self._solvers[name]

    def prepare(self, solver=None):
        """Builds or loads the solver's tables now (else the first solve does)."""
        self.solver(solver).prepare()

    @property
    def info(self):
        """name, family, moves, orbits, levels, solver, solvers."""
        return self.solver().info

    @property
    def moves(self):
        return self.info["moves"]

    def _position(self, scramble, state, solver):
        if (scramble is None) == (state is None):
            raise TypeError("give one of scramble= or state=")
        s = self.solver(solver)
        return s.parse_scramble(scramble) if scramble is not None else s.parse_state(state)

    def solve(self, scramble=None, state=None, solver=None, max_length=None, max_nodes=None,
              max_seconds=None, threads=0, goal="default"):
        """A Solution of the position: moves (names), length, optimal,
        nodes, seconds, phases (a phased solver's length per phase)."""
        position = self._position(scramble, state, solver)
        return self.solver(solver).solve(position, **_limits(max_length, max_nodes, max_seconds), threads=threads,
                                         goal=goal)

    def solve_many(self, states, threads=0, solver=None, max_length=None, max_nodes=None, max_seconds=None,
                   goal="default"):
        """Solutions of every state (lists of ints or state text), in order,
        `threads` positions at a time (0: every CPU)."""
        return self.solver(solver).solve_all(list(states), threads=threads,
                                             **_limits(max_length, max_nodes, max_seconds), goal=goal)

    def random_state(self, seed=0):
        """A uniformly random state (the same for the same seed)."""
        return self.solver().random_state(seed)

    def solved_state(self):
        return self.solver().solved()

    def apply(self, state, moves):
        """The state after `moves` ("R U" or a list of names)."""
        if not isinstance(moves, str):
            moves = " ".join(moves)
        return self.solver().apply(state, moves)

    def scramble_state(self, scramble):
        """The state a scramble makes from the solved state."""
        return self.solver().parse_scramble(scramble)

    def is_solved(self, state):
        return self.solver().is_solved(state)

    def inverse(self, state):
        return self.solver().inverse(state)

    def __repr__(self):
        return "Puzzle(%r, solvers=%r)" % (self.path, self.solvers)


def _limits(max_length, max_nodes, max_seconds):
    return dict(max_length=-1 if max_length is None else max_length, max_nodes=max_nodes or 0,
                max_seconds=max_seconds or 0.0)
