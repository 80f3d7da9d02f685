#!/usr/bin/env bash
# Installs dependencies, builds gpusched, and runs the main job: `gpusched simulate` with its built-in default.
# The gpusched binary is built first and run at once; the rest of the build (tests, the Python module,
# the CUDA validation runner when nvcc is found) follows, so the first result does not wait for it.
#   scripts/run.sh                  all of it
#   scripts/run.sh --gpusched-only  the gpusched binary and its first result only (scripts/test.sh uses it
#                                   for the build/ the README's examples run)
set -euo pipefail
cd "$(dirname "$0")/.."
rest=true
case "${1:-}" in
  "") ;;
  --gpusched-only) rest=false ;;
  -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
  *) echo "scripts/run.sh: unknown option '$1' (allowed: --gpusched-only)" >&2; exit 2 ;;
esac
bash scripts/install-deps.sh
# Unity batches for the command and the libraries it links: the same code, a shorter build (docs/performance.md).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSCHED_UNITY_COMMAND=ON >/dev/null
cmake --build build --parallel "$(nproc)" --target gpusched
./build/apps/gpusched simulate
$rest || exit 0
echo "== the rest of the build (tests, Python module, CUDA runner): cmake --build build"
cmake --build build --parallel "$(nproc)"
