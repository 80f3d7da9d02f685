#!/usr/bin/env bash
# Installs gpusched's build dependencies from Debian 12 packages; idempotent (skips what is present).
#   --lab: also the browser lab's (docs/lab.md): emscripten, chromium, node and tests/lab's npm packages
set -euo pipefail
lab=false
[ "${1:-}" = --lab ] && lab=true
# zlib1g-dev: gzip-compressed traces (gpusched import). time: /usr/bin/time measures each adversarial case's peak memory (tests/adversarial/run_cases.sh).
# pybind11-dev, python3-dev: the Python module (docs/python.md); pytest, pandas, numpy, matplotlib, distributed: its tests and example.
packages=(g++ cmake ninja-build pkg-config
          libboost-graph-dev libeigen3-dev libyaml-cpp-dev doctest-dev
          libcli11-dev nlohmann-json3-dev zlib1g-dev time
          pybind11-dev python3-dev python3-pytest python3-pandas python3-numpy python3-matplotlib python3-distributed)
if $lab; then
  packages+=(emscripten chromium nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "install-deps: done"
fi
# The lab's browser test drives chromium with playwright-core, pinned by tests/lab/package-lock.json.
if $lab && [ ! -f "$(dirname "$0")/../tests/lab/node_modules/playwright-core/package.json" ]; then
  npm ci --prefix "$(dirname "$0")/../tests/lab" --no-audit --no-fund --loglevel=error
fi
