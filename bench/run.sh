#!/usr/bin/env bash
# Builds a Release tree and runs the engine benchmarks, then the memory benchmark (results go in docs/performance.md).
#   bench/run.sh [BLOCKS]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh >/dev/null
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSCHED_CUDA=OFF >/dev/null
cmake --build build-bench --target bench_engine gpusched >/dev/null
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
blocks=${1:-20000000}
taskset -c 0 ./build-bench/bench/bench_engine 1000000 256 random   # memory check: compare max RSS with the next line
for threads in 256 1024; do
  for durations in random constant; do
    echo
    taskset -c 0 ./build-bench/bench/bench_engine "$blocks" "$threads" "$durations"
  done
done
# The measured H100 walk (policy walk: no memo, no refill fast path), once per duration kind.
for durations in random constant; do
  echo
  taskset -c 0 ./build-bench/bench/bench_engine "$blocks" 256 "$durations" walk
done
# Peak memory of a million launches and of 100000 SMs against issue 18's targets.
echo
bash bench/bench_memory.sh build-bench/apps/gpusched
