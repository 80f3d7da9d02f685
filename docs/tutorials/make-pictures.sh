#!/usr/bin/env bash
# Regenerates every picture of the lessons (docs/tutorials/*.md) with the given gpusched binary.
#
# Usage: docs/tutorials/make-pictures.sh GPUSCHED [OUT_DIR]     (run from anywhere; OUT_DIR
#        defaults to docs/tutorials/img). Takes a few seconds; the SVGs are byte-identical on
#        every run (CI's tutorials test compares them with the committed ones).
set -euo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(realpath -m "${2:-$here/img}")
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$root"
G() { "$bin" "$@" 2> "$scratch/stderr" || { cat "$scratch/stderr" >&2; return 1; }; }

# Lesson 1: waves and tails.
G sweep docs/tutorials/waves-h100.yaml --quiet -j 1 --out "$scratch/waves.csv"
G plot "$scratch/waves.csv" --x blocks --y makespan_ns --title "H100: 50 us blocks of 1024 threads, 264 per wave" \
  --out "$out/waves-h100.svg" > /dev/null
G curve --gpu c2075 --kernel apsp-minplus:block=8 --n 50..100 --models --svg "$out/apsp-c2075-8x8.svg" > /dev/null

# Lesson 2: partial blocks.
G simulate --gpu c2075 --kernel apsp-minplus:n=80,block=8,steps=1 --gantt "$out/partial-n80.svg" > /dev/null
G simulate --gpu c2075 --kernel apsp-minplus:n=81,block=8,steps=1 --gantt "$out/partial-n81.svg" > /dev/null

# Lesson 3: occupancy limits.
G sweep docs/tutorials/occupancy-k20.yaml --quiet -j 1 --out "$scratch/k20.csv"
G plot "$scratch/k20.csv" --heatmap --x threads --y blocks --value makespan_ns --log \
  --title "Tesla K20: sum of binomial series, makespan over blocks x threads" --out "$out/occupancy-k20.svg" > /dev/null

# Lesson 4: concurrent kernels and priorities.
for priority in normal high; do
  G simulate --workload docs/tutorials/streams-$priority.yaml --gantt "$out/streams-$priority.svg" \
    --gantt-colour stream > /dev/null
done

# Lesson 5: SpMV format choice.
G sweep docs/tutorials/spmv-formats.yaml --quiet -j 1 --out "$scratch/spmv.csv"
G plot "$scratch/spmv.csv" --heatmap --x format --y gen --value makespan_ns --log \
  --title "Tesla C2050: SpMV makespan per matrix and format" --out "$out/spmv-formats.svg" > /dev/null

# Lesson 6: the rake size of streamcluster.
rakes=$(seq -s, 1 1 160)
G tune --gpu gtx480 --kernel streamcluster:points=409600,dims=16,threads=512,regs=23 --param "rake=$rakes" \
  --svg "$out/rake-gtx480.svg" > /dev/null
G tune --gpu gtx480 --kernel streamcluster:points=409600,dims=16,threads=512,regs=23,dim_latency_cycles=644 \
  --param "rake=$rakes" --svg "$out/rake-gtx480-644.svg" > /dev/null
