#!/usr/bin/env bash
# Peak memory (RSS) and run time of a million launches and of a GPU of 100000 SMs, against issue 18's targets.
#   bench/bench_memory.sh [GPUSCHED]      (default: build-bench/apps/gpusched; needs GNU time, /usr/bin/time)
# Targets: 10^6 launches under 500 MB (replay, repeat, multi-launch specs), sm_count 100000 one-block run
# under 100 MB. Each row: peak RSS, wall time, target, and whether it is met. Results: docs/performance.md.
set -euo pipefail
g=${1:-build-bench/apps/gpusched}
[ -x /usr/bin/time ] || { echo "bench_memory.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=1000000

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
  /usr/bin/time -f '%M %e' -o "$tmp/time" "$g" simulate "$@" > /dev/null
  read -r kb seconds < "$tmp/time"
  local mb=$((kb / 1024))
  printf '%-58s %10d %9s %5d MB  %s\n' "$name" "$mb" "$seconds" "$target" "$([ "$mb" -lt "$target" ] && echo met || echo OVER)"
}
row "repeat: 10^6 one-block launches (workload file)" 500 --workload "$tmp/repeat.yaml"
row "repeat, policy walk (no memoisation: each launch simulated)" 500 --workload "$tmp/repeat.yaml" --policy walk
row "replay: 10^6 one-block launches (17 MB CSV)" 500 --replay "$tmp/replay.csv" --threads 64
row "replay, --json" 500 --replay "$tmp/replay.csv" --threads 64 --json
row "streamcluster calls=10^6, copy=none (10^6 launches)" 500 \
  --kernel streamcluster:points=1024,dims=4,calls=$n,copy=none
row "streamcluster calls=10^6 (+ 2 copies each: 3x10^6 operations)" 500 \
  --kernel streamcluster:points=1024,dims=4,calls=$n
row "sm_count 100000, max_blocks_per_sm 4096: one block" 100 \
  --gpu "$tmp/gpu.yaml" --kernel synthetic:blocks=1,threads=32,duration=1us
