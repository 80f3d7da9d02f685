#!/usr/bin/env bash
# Simulation time of every committed PyTorch trace at K=132 against the GPU kernel time it records (issue 33: below 1.0).
#   bench/bench_traces.sh [GPUSCHED [RUNS [plain]]]   (default: builds build-bench/ as bench/run.sh does; RUNS 3, the median is printed)
# Each trace validation/data/h100/torch*/*_k132.json.gz is imported once (gpusched import torch, all steps),
# then `simulate --workload` is timed (wall seconds, GNU time) on the h100, on the h100 with --sms 64 and on
# the h200, with the default execution model. Kernel time: the sum of the imported launches' `measured`
# durations (each kernel's duration in the trace). Ratio: simulation seconds / kernel seconds. `plain`:
# the imported workloads without their calibrated_floor and calibration keys, so that every simulate
# calibrates its measured launches again (as before the import wrote them). Results: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
  g=$1
else
  bash scripts/install-deps.sh >/dev/null
  cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSCHED_CUDA=OFF >/dev/null
  cmake --build build-bench --target gpusched >/dev/null
  g=build-bench/apps/gpusched
fi
runs=${2:-3}
plain=${3:-}
[ -x /usr/bin/time ] || { echo "bench_traces.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Median wall seconds of RUNS runs of "$@" (output discarded; a failing run stops the benchmark).
median_seconds() {
  local i
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -f %e -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    cat "$tmp/time"
  done | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# Sum of the `measured: D` keys of a workload file, in seconds (D: a number and ns, us, ms or s).
kernel_seconds() {
  awk '$1 == "measured:" {
         v = $2; unit = v; sub(/^[0-9.eE+-]+/, "", unit); sub(/[a-z]+$/, "", v)
         f = unit == "ns" ? 1e-9 : unit == "us" ? 1e-6 : unit == "ms" ? 1e-3 : unit == "s" ? 1 : -1
         if (f < 0) { print "unknown unit in " $0 > "/dev/stderr"; exit 1 }
         s += v * f
       } END { printf "%.6f\n", s }' "$1"
}

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $g${plain:+ (plain: no calibration keys)}, median of $runs runs, $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '%-34s %8s %6s | %9s %7s | %9s %7s | %9s %7s\n' trace kernel_s launches h100_s ratio sms64_s ratio h200_s ratio
for trace in validation/data/h100/torch*/*_k132.json.gz; do
  name=$(basename "$(dirname "$trace")")/$(basename "$trace" .json.gz)
  yaml="$tmp/$(echo "$name" | tr / _).yaml"
  "$g" import torch "$trace" --out "$yaml" >/dev/null 2>&1
  if [ "$plain" = plain ]; then grep -v -e '^ *calibrated_floor:' -e '^ *calibration:' "$yaml" > "$yaml.plain"; mv "$yaml.plain" "$yaml"; fi
  kernel=$(kernel_seconds "$yaml")
  launches=$(grep -c '^ *measured:' "$yaml")
  row=$(printf '%-34s %8.4f %6d' "$name" "$kernel" "$launches")
  for what in "--gpu h100" "--gpu h100 --sms 64" "--gpu h200"; do
    # shellcheck disable=SC2086
    s=$(median_seconds "$g" simulate $what --workload "$yaml")
    row+=$(awk -v s="$s" -v k="$kernel" 'BEGIN { printf " | %9.3f %7.1f", s, s / k }')
  done
  echo "$row"
done
