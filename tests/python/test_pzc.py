"""The Python module pzc (docs/library.md, Python), run by ctest (label python)
against the build tree: PYTHONPATH=<build>/python, PZC=<build>/.../pzc and
PZC_CACHE_DIR a fresh folder (tests/python/CMakeLists.txt)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

# A fresh binary and table cache for each run, removed at exit.
if not os.environ.get("PZC_TEST_KEEP_CACHE"):
    _cache = tempfile.TemporaryDirectory(prefix="pzc-python-test-")
    os.environ["PZC_CACHE_DIR"] = _cache.name

import pzc  # noqa: E402  (after the cache is chosen)

ROOT = Path(__file__).resolve().parents[2]
LOOPOVER3 = str(ROOT / "puzzles" / "loopover3.pz")
TWO_SOLVERS = str(ROOT / "tests" / "python" / "loopover3_two.pz")


def cli_solve(definition, state):
    """The command line's answer for `state`: (length, optimal)."""
    out = subprocess.run([os.environ["PZC"], "solve", definition, "--state", " ".join(map(str, state)), "--json"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    answer = json.loads(out.splitlines()[-1])
    return answer["length"], answer["optimal"]


class CubeTest(unittest.TestCase):
    """The README's lines on a cube (the 2x2x2: the 3x3x3's plugin and
    tables take minutes of CI), state by state."""

    def test_readme_lines(self):
        cube = pzc.Puzzle(str(ROOT / "puzzles" / "cube2.pz"))
        sol = cube.solve(scramble="R U F'")
        self.assertEqual(sol.moves, ["F", "U'", "R'"])
        self.assertEqual((sol.length, sol.optimal), (3, True))
        state = cube.random_state(seed=1)
        self.assertEqual(state, cube.random_state(seed=1))
        sol = cube.solve(state=state)
        self.assertTrue(cube.is_solved(cube.apply(state, " ".join(sol.moves))))
        self.assertEqual(sol.length, cli_solve(str(ROOT / "puzzles" / "cube2.pz"), state)[0])
        moved = cube.apply(cube.solved_state(), "R U")
        self.assertNotEqual(moved, cube.solved_state())
        self.assertEqual(cube.solve(state=moved).length, 2)


class BlocksTest(unittest.TestCase):
    """Sliding-block puzzles: the 8-puzzle's positions as cells, Rush Hour's
    as a level's name, then (name, anchors) once a car has moved."""

    def test_eight(self):
        eight = pzc.Puzzle(str(ROOT / "puzzles" / "eight.pz"))
        self.assertEqual(eight.info["family"], "sliding-block")
        self.assertEqual(eight.solvers, ["pdb", "manhattan"])
        for seed in (1, 2, 3):
            state = eight.random_state(seed=seed)
            sol = eight.solve(state=state)
            self.assertEqual((sol.length, sol.optimal), cli_solve(str(ROOT / "puzzles" / "eight.pz"), state))
            self.assertEqual(eight.solve(state=state, solver="manhattan").length, sol.length)
            self.assertTrue(eight.is_solved(eight.apply(state, sol.moves)))
        self.assertEqual(eight.solve(scramble="R D R D L").moves, ["R", "U", "L", "U", "L"])
        self.assertEqual(eight.solve(state="1 2 0 3 4 5 6 7 8").moves, ["L", "L"])
        with self.assertRaises(pzc.Error) as caught:
            eight.solve(state="2 1 0 3 4 5 6 7 8")
        self.assertIn("parity", str(caught.exception))

    def test_rushhour(self):
        rush = pzc.Puzzle(str(ROOT / "puzzles" / "rushhour.pz"))
        levels = rush.info["levels"]
        published = [int(line.split()[0]) for line in open(ROOT / "puzzles" / "rushhour" / "levels.txt")
                     if line.strip() and not line.startswith("#")]
        self.assertEqual(len(levels), len(published))
        sol = rush.solve(state=levels[0])
        self.assertEqual(sol.length, published[0])
        moved = rush.apply(levels[0], sol.moves[:3])
        self.assertIsInstance(moved, tuple)
        self.assertEqual(moved[0], levels[0])
        self.assertFalse(rush.is_solved(moved))
        rest = rush.solve(state=moved)
        self.assertEqual(rest.length, published[0] - 3)
        self.assertTrue(rush.is_solved(rush.apply(moved, rest.moves)))
        with self.assertRaises(pzc.Error):
            rush.apply(levels[0], "A+9")


class PuzzleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.puzzle = pzc.Puzzle(LOOPOVER3)

    def test_solve_scramble_and_replay(self):
        scramble = "R1 C2 R3' C1 R2"
        sol = self.puzzle.solve(scramble=scramble)
        self.assertIsInstance(sol.moves, list)
        self.assertEqual(sol.length, len(sol.moves))
        self.assertTrue(sol.optimal)
        self.assertLessEqual(sol.length, 5)
        state = self.puzzle.scramble_state(scramble)
        self.assertEqual(self.puzzle.apply(state, " ".join(sol.moves)), self.puzzle.solved_state())
        self.assertEqual(self.puzzle.apply(state, sol.moves), self.puzzle.solved_state())
        self.assertTrue(self.puzzle.is_solved(self.puzzle.apply(state, sol.moves)))

    def test_optimal_length_matches_cli(self):
        state = self.puzzle.random_state(seed=7)
        sol = self.puzzle.solve(state=state)
        self.assertTrue(sol.optimal)
        self.assertEqual((sol.length, sol.optimal), cli_solve(LOOPOVER3, state))
        self.assertEqual(self.puzzle.solve(scramble="R1 C1").length, 2)
        self.assertEqual(self.puzzle.solve(scramble="R1 R1'").length, 0)

    def test_bad_scramble(self):
        with self.assertRaises(pzc.Error) as caught:
            self.puzzle.solve(scramble="R1 Q")
        self.assertEqual(str(caught.exception), "bad scramble: unknown move 'Q'")
        self.assertEqual(caught.exception.code, pzc.BAD_INPUT)
        self.assertEqual(caught.exception.kind, "bad input")

    def test_wrong_length_state(self):
        with self.assertRaises(pzc.Error) as caught:
            self.puzzle.solve(state=[0, 1, 2])
        self.assertIn("9 numbers", str(caught.exception))
        with self.assertRaises(pzc.Error):
            self.puzzle.apply([0, 1, 2, 3, 4, 5, 6, 7, 7], "R1")

    def test_random_state_deterministic(self):
        a = self.puzzle.random_state(seed=1)
        self.assertEqual(a, self.puzzle.random_state(seed=1))
        self.assertEqual(sorted(a), list(range(9)))
        self.assertNotEqual(a, self.puzzle.random_state(seed=2))

    def test_solve_many_agrees_with_solve(self):
        states = [self.puzzle.random_state(seed=s) for s in range(20)]
        many = self.puzzle.solve_many(states, threads=2)
        self.assertEqual(len(many), len(states))
        for state, sol in zip(states, many):
            self.assertEqual(sol.length, self.puzzle.solve(state=state).length)
            self.assertTrue(self.puzzle.is_solved(self.puzzle.apply(state, sol.moves)))
        with self.assertRaises(pzc.Error) as caught:
            self.puzzle.solve_many([states[0], [0]])
        self.assertTrue(str(caught.exception).startswith("bad state"))

    def test_limits_and_info(self):
        self.assertEqual(self.puzzle.name, "loopover3")
        self.assertEqual(self.puzzle.solvers, ["optimal"])
        self.assertEqual(len(self.puzzle.moves), 12)
        self.assertEqual(self.puzzle.info["family"], "permutation")
        state = self.puzzle.random_state(seed=7)
        with self.assertRaises(pzc.Error) as caught:
            self.puzzle.solve(state=state, max_length=1)
        self.assertEqual(caught.exception.code, pzc.NO_SOLUTION)

    @unittest.skipUnless(os.path.exists("/proc/self/maps"), "needs Linux's /proc/self/maps")
    def test_shared_tables(self):
        """shared_tables=True: the cached tables stay mapped, one copy in the
        page cache for every process of the machine; by default they are
        copied into the process and the file let go."""
        def mapped(folder):
            with open("/proc/self/maps") as maps:
                return any(folder in line for line in maps)
        with tempfile.TemporaryDirectory() as tables:
            state = self.puzzle.random_state(seed=5)
            want = pzc.Puzzle(LOOPOVER3, table_dir=tables).solve(state=state).length
            self.assertFalse(mapped(tables))
            shared = pzc.Puzzle(LOOPOVER3, table_dir=tables, shared_tables=True)
            sol = shared.solve(state=state)
            self.assertEqual(sol.length, want)
            self.assertTrue(shared.is_solved(shared.apply(state, sol.moves)))
            self.assertTrue(mapped(tables))

    def test_unknown_solver(self):
        with self.assertRaises(pzc.Error) as caught:
            self.puzzle.solve(scramble="R1", solver="nope")
        self.assertIn("no solver 'nope'", str(caught.exception))

    def test_bad_definition(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp) / "bad.pz"
            bad.write_text("puzzle bad { orbit x 2; move M = x (0 9); }\n")
            with self.assertRaises(pzc.Error) as caught:
                pzc.Puzzle(bad)
            self.assertIn("bad.pz", str(caught.exception))


class SeveralSolversTest(unittest.TestCase):
    def test_each_solver(self):
        puzzle = pzc.Puzzle(TWO_SOLVERS)
        self.assertEqual(puzzle.solvers, ["optimal", "top_row"])
        state = puzzle.random_state(seed=3)
        full = puzzle.solve(state=state)
        top = puzzle.solve(state=state, solver="top_row")
        self.assertEqual(full.length, top.length)  # both optimal
        self.assertEqual(puzzle.solver("top_row").info["solver"]["name"], "top_row")
        self.assertEqual(pzc.Puzzle(TWO_SOLVERS, solver="top_row").solve(state=state).length, full.length)


class PipInstallTest(unittest.TestCase):
    """pip install --no-build-isolation --no-deps ./python into a folder, then
    import it: with this interpreter when it has pip, setuptools and wheel,
    else with Debian's python3 (python3-pip, python3-wheel), else skipped."""

    @staticmethod
    def interpreter():
        probe = "import setuptools, wheel, importlib.util as u; assert u.find_spec('pip')"
        for python in [sys.executable, "/usr/bin/python3"]:
            if Path(python).exists() and subprocess.run([python, "-c", probe], stderr=subprocess.DEVNULL).returncode == 0:
                return python
        return None

    def test_pip_install(self):
        python = self.interpreter()
        if not python:
            self.skipTest("no python3 with pip, setuptools and wheel (python3-pip, python3-wheel)")
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "python"
            shutil.copytree(ROOT / "python", src, ignore=shutil.ignore_patterns("build", "*.egg-info"))
            env = dict(os.environ, PZC_RUNTIME_INCLUDE=str(ROOT / "runtime" / "include"))
            env.pop("PYTHONPATH", None)
            target = Path(tmp) / "site"
            run = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
                                  "--target", str(target), str(src)], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
            self.assertEqual(run.returncode, 0, run.stdout[-3000:])
            env["PYTHONPATH"] = str(target)
            code = ("import pzc; p = pzc.Puzzle(%r); s = p.solve(scramble='R1 C1'); "
                    "assert pzc.__file__.startswith(%r), pzc.__file__; print(s.length)" % (LOOPOVER3, str(target)))
            run = subprocess.run([python, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, cwd=tmp)
            self.assertEqual(run.returncode, 0, run.stdout[-3000:])
            self.assertEqual(run.stdout.strip(), "2")


if __name__ == "__main__":
    unittest.main()
