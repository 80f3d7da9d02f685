#!/usr/bin/env bash
# Side-by-side speed of this tree and an earlier revision: bench_engine rows and the sweep benchmark, alternated.
#   bench/compare.sh BASE_REV [ROUNDS] [BLOCKS]
# Builds both trees the way bench/run.sh does (Release + LTO; the base revision in a git worktree under
# build-bench-base/), then runs every bench/run.sh row and bench/bench_sweep.sh ROUNDS times (default 3),
# old and new alternately, pinned to core 0, and prints the median of each with the change in percent.
# Run it on a quiet machine: other processes move both columns.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/compare.sh BASE_REV [ROUNDS] [BLOCKS]}
rounds=${2:-3}
blocks=${3:-20000000}
git rev-parse --verify -q "$base^{commit}" >/dev/null || { echo "bench/compare.sh: '$base' is no revision" >&2; exit 2; }
[[ "$rounds" =~ ^[1-9][0-9]?$ ]] || { echo "bench/compare.sh: ROUNDS must be 1..99, got '$rounds'" >&2; exit 2; }
[[ "$blocks" =~ ^[1-9][0-9]{0,9}$ ]] || { echo "bench/compare.sh: BLOCKS must be a positive integer, got '$blocks'" >&2; exit 2; }
bash scripts/install-deps.sh >/dev/null

build() {  # build TREE BUILD_DIR
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSCHED_CUDA=OFF >/dev/null
  cmake --build "$2" --target bench_engine gpusched >/dev/null
}
if [ "$(git -C build-bench-base/src rev-parse HEAD 2>/dev/null)" != "$(git rev-parse "$base^{commit}")" ]; then
  rm -rf build-bench-base/src
  git worktree prune
  git worktree add --detach -f build-bench-base/src "$base" >/dev/null 2>&1
fi
build . build-bench
build build-bench-base/src build-bench-base/build
new_engine=./build-bench/bench/bench_engine
old_engine=./build-bench-base/build/bench/bench_engine
new_cli=./build-bench/apps/gpusched
old_cli=./build-bench-base/build/apps/gpusched

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# engine_seconds old|new ARGS...: the engine's seconds in one bench_engine run (pinned to core 0).
engine_seconds() {
  local bin=$new_engine
  [ "$1" = old ] && bin=$old_engine
  shift
  taskset -c 0 "$bin" "$@" | awk '/^gpusched engine/ {print $3}'
}
# sweep_seconds old|new: wall seconds of the 10,000-point sweep benchmark.
sweep_seconds() {
  local out cli=$new_cli
  [ "$1" = old ] && cli=$old_cli
  out=$(mktemp /tmp/gpusched-compare.XXXXXX.csv)
  /usr/bin/time -f "%e" -o "$out.time" "$cli" sweep bench/sweep-apsp-10k.yaml -j "$(nproc)" --quiet --out "$out"
  cat "$out.time"
  rm -f "$out" "$out.time"
}

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== base $(git rev-parse --short "$base") vs this tree $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' + uncommitted changes'); $rounds rounds, old and new alternately"
echo
echo "| benchmark | base (s, median) | this tree (s, median) | change |"
echo "|---|---|---|---|"
# compare LABEL MEASURE ARGS...: MEASURE old ARGS and MEASURE new ARGS, alternately, ROUNDS times; one table row.
compare() {
  local label=$1 measure=$2 old=() new=() r o n
  shift 2
  for ((r = 0; r < rounds; ++r)); do
    old+=("$("$measure" old "$@")")
    new+=("$("$measure" new "$@")")
  done
  o=$(printf '%s\n' "${old[@]}" | median)
  n=$(printf '%s\n' "${new[@]}" | median)
  echo "| $label | $o | $n | $(awk -v o="$o" -v n="$n" 'BEGIN {printf "%+.1f%%", (n - o) / o * 100}') |"
}
for row in "1000000 256 random" "$blocks 256 random" "$blocks 256 constant" "$blocks 1024 random" \
           "$blocks 1024 constant" "$blocks 256 random walk" "$blocks 256 constant walk"; do
  # shellcheck disable=SC2086
  compare "bench_engine $row" engine_seconds $row
done
compare "sweep bench/sweep-apsp-10k.yaml -j $(nproc) (wall)" sweep_seconds
