#!/usr/bin/env bash
# Installs the Debian packages pzc needs to build and test (idempotent).
set -euo pipefail
pkgs=(build-essential cmake ninja-build antlr4 libantlr4-runtime-dev libyaml-cpp-dev
      catch2 llvm-14-tools clang-14 libclang-rt-14-dev libgmp-dev python3
      pybind11-dev python3-dev python3-pybind11 python3-setuptools python3-pip python3-wheel  # the Python module (python/)
      openmpi-bin libopenmpi-dev  # pzc solve --mpi (docs/distributed.md) and its tests
      dpkg-dev file  # cpack -G DEB: dpkg-deb, dpkg-shlibdeps (and file, which CPack runs)
      chromium nodejs  # the browser tests (ctest -L web; docs/web.md)
      emscripten)  # pzc build --target wasm (docs/web.md) and the page test
# npm: Debian's package, unless npm is already there (NodeSource's nodejs
# bundles it and conflicts with Debian's npm package).
command -v npm >/dev/null || pkgs+=(npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The browser tests' driver, playwright-core (tests/web/package-lock.json),
# into tests/web/node_modules. A stamp (the lockfile it was installed from)
# makes a second run a no-op that needs no network.
web="$(dirname "$0")/../tests/web"
if ! cmp -s "$web/package-lock.json" "$web/node_modules/.pzc-installed-lock" 2>/dev/null; then
  npm ci --prefix "$web" --no-audit --no-fund --loglevel=error
  cp "$web/package-lock.json" "$web/node_modules/.pzc-installed-lock"
fi
