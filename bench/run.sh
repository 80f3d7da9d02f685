#!/usr/bin/env bash
# Builds a Release tree and runs the engine benchmarks (results go in docs/performance.md).
#   bench/run.sh [BLOCKS]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh >/dev/null
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSCHED_CUDA=OFF >/dev/null
cmake --build build-bench --target bench_engine >/dev/null
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for blocks in 1000000 "${1:-20000000}"; do
  taskset -c 0 ./build-bench/bench/bench_engine "$blocks" 256
  echo
done
