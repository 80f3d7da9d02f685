#!/usr/bin/env bash
# Peak memory (RSS) and run time of a million launches and of a GPU of 100000 SMs, against issue 18's targets.
#   bench/bench_memory.sh [GPUSCHED [LAUNCHES]]   (default build-bench/apps/gpusched, 1000000; needs GNU time)
# Targets: 10^6 launches under 500 MB (replay, repeat, multi-launch specs), sm_count 100000 one-block run
# under 100 MB. Each row: peak RSS, wall time, target, and whether it is met (LAUNCHES < 10^6 scales the
# launch targets down in proportion). Every run is under `ulimit -v` 8 GB, so an older binary that
# allocates SMs x slots fails fast instead of eating the machine. Results: docs/performance.md.
set -euo pipefail
g=${1:-build-bench/apps/gpusched}
[ -x /usr/bin/time ] || { echo "bench_memory.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=${2:-1000000}
scaled=$((500 * n / 1000000))

printf 'launches:\n  - kernel: synthetic\n    blocks: 1\n    threads: 64\n    duration: 1us\n    repeat: %d\n' $n \
  > "$tmp/repeat.yaml"
awk -v n=$n 'BEGIN { print "kernel,launch,block,sm,start_ns,end_ns";
                     for (i = 0; i < n; i++) printf "k,%d,0,0,%d,%d\n", i, i * 10, i * 10 + 5 }' > "$tmp/replay.csv"
# The H100 preset without its topology (SM order, walk, sweep name SMs 0..131), 100000 SMs, 4096 blocks per SM.
"$g" show gpu h100 | awk '/^topology:/ { skip = 1; next } skip && /^ / { next } { skip = 0 }
                          /^sm_count:/ { $0 = "sm_count: 100000" } /^ +max_blocks_per_sm:/ { sub(/[0-9]+$/, "4096") }
                          { print }' > "$tmp/gpu.yaml"

printf '%-58s %10s %9s %8s\n' case peak_MB time_s target
row() {
  local name=$1 target=$2
  shift 2
  local verdict
  if (ulimit -v 8000000; /usr/bin/time -f '%M %e' -o "$tmp/time" "$g" simulate "$@" > /dev/null 2> "$tmp/err"); then
    verdict=met
  else
    verdict="FAILED: $(grep -v '^Command' "$tmp/err" | tail -1)"
  fi
  read -r kb seconds < <(tail -1 "$tmp/time")
  local mb=$((kb / 1024))
  [ "$verdict" = met ] && [ "$mb" -ge "$target" ] && verdict=OVER
  printf '%-58s %10d %9s %5d MB  %s\n' "$name" "$mb" "$seconds" "$target" "$verdict"
}
row "repeat: $n one-block launches (workload file)" $scaled --workload "$tmp/repeat.yaml"
row "repeat, policy walk (no memoisation: each launch simulated)" $scaled --workload "$tmp/repeat.yaml" --policy walk
row "replay: $n one-block launches" $scaled --replay "$tmp/replay.csv" --threads 64
row "replay, --json" $scaled --replay "$tmp/replay.csv" --threads 64 --json
row "streamcluster calls=$n, copy=none ($n launches)" $scaled \
  --kernel streamcluster:points=1024,dims=4,calls=$n,copy=none
row "streamcluster calls=$n (+ 2 copies each)" $scaled \
  --kernel streamcluster:points=1024,dims=4,calls=$n
row "sm_count 100000, max_blocks_per_sm 4096: one block" 100 \
  --gpu "$tmp/gpu.yaml" --kernel synthetic:blocks=1,threads=32,duration=1us
