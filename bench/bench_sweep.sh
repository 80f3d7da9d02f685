#!/usr/bin/env bash
# Sweep benchmark: the 10,000-point APSP Min-plus study (bench/sweep-apsp-10k.yaml) with -j = the
# machine's cores; prints wall and CPU time (target: under 60 s on 2 cores; docs/performance.md).
#   bench/bench_sweep.sh [GPUSCHED] [STUDY.yaml]
set -euo pipefail
cd "$(dirname "$0")/.."
gpusched=${1:-}
study=${2:-bench/sweep-apsp-10k.yaml}
if [ -z "$gpusched" ]; then
  bash scripts/install-deps.sh >/dev/null
  cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSCHED_CUDA=OFF >/dev/null
  cmake --build build-bench --target gpusched >/dev/null
  gpusched=./build-bench/apps/gpusched
fi
cores=$(nproc)
echo "== machine: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
out=$(mktemp /tmp/gpusched-bench-sweep.XXXXXX.csv)
trap 'rm -f "$out"' EXIT
/usr/bin/time -f "== $study: %e s wall, %U s user, %S s system, %M KiB max RSS (-j $cores)" \
  "$gpusched" sweep "$study" -j "$cores" --quiet --out "$out"
echo "== $(($(wc -l < "$out") - 3)) points, $(awk -F, 'NR > 3 && $NF != ""' "$out" | wc -l) with an error"
