"""Builds the extension _pzc (pzc_module.cpp) for `pip install ./python`.

The runtime headers come from the source tree this folder belongs to
(../runtime/include) or $PZC_RUNTIME_INCLUDE. pybind11 is pybind11's Python
package when the interpreter has it (Debian: python3-pybind11), else its
headers where Debian's pybind11-dev puts them.
"""
import os
from pathlib import Path

from setuptools import Extension, setup

here = Path(__file__).resolve().parent
runtime = os.environ.get("PZC_RUNTIME_INCLUDE") or str(here.parent / "runtime" / "include")
if not (Path(runtime) / "pz" / "plugin.hpp").is_file():
    raise SystemExit("setup.py: no pz/plugin.hpp under %s: build from the pzc sources or set PZC_RUNTIME_INCLUDE" % runtime)

try:
    import pybind11
    pybind11_include = pybind11.get_include()
except ImportError:
    pybind11_include = "/usr/include"
if not (Path(pybind11_include) / "pybind11" / "pybind11.h").is_file():
    raise SystemExit("setup.py: pybind11's headers not found (Debian: apt-get install pybind11-dev)")

extension = Extension(
    "pzc._pzc",
    sources=["src/pzc_module.cpp"],
    include_dirs=[runtime, pybind11_include],
    language="c++",
    extra_compile_args=["-std=c++20", "-O2", "-fvisibility=hidden", "-pthread"],
    extra_link_args=["-pthread"],
    libraries=["stdc++", "dl"],
)

setup(ext_modules=[extension])
