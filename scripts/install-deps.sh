#!/usr/bin/env bash
# Installs the Debian packages pzc needs to build and test (idempotent).
set -euo pipefail
pkgs=(build-essential cmake ninja-build antlr4 libantlr4-runtime-dev libyaml-cpp-dev
      catch2 llvm-14-tools clang-14 libclang-rt-14-dev libgmp-dev python3
      pybind11-dev python3-dev python3-pybind11 python3-setuptools python3-pip python3-wheel  # the Python module (python/)
      openmpi-bin libopenmpi-dev  # pzc solve --mpi (docs/distributed.md) and its tests
      dpkg-dev file)  # cpack -G DEB: dpkg-deb, dpkg-shlibdeps (and file, which CPack runs)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
