#!/usr/bin/env bash
# Builds the CUDA runner on a GPU machine and regenerates validation/data/<device>/ measurements.
#   validation/scripts/collect-h100.sh [OUT_DIR]   (default: validation/data/h100)
# Needs only the CUDA toolkit, CMake and Ninja. Prints a summary; files land in OUT_DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
out_dir=${1:-validation/data/h100}
mkdir -p "$out_dir"
cmake -S validation/runner -B build-runner -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-runner
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true
./build-runner/gpusched-runner occupancy --out "$out_dir/occupancy.csv"
# Spin-kernel placement timelines (also see collect-placement.sh, which tars them).
./build-runner/gpusched-runner placement --out-dir "$out_dir/placement"
# APSP min-plus / Floyd-Warshall and series-kernel run-time curves (about a minute or two).
./build-runner/gpusched-runner curves --out-dir "$out_dir/curves"
# The same APSP curves with every launch queued behind a gate kernel first (GPU-side time, seconds).
./build-runner/gpusched-runner curves --queued --reps 30 --out-dir "$out_dir/curves"
# Per-block timelines of five whole queued APSP runs, instrumented vs plain times (about a second).
mkdir -p "$out_dir/apsp_timeline"
./build-runner/gpusched-runner apsp-timeline --out-dir "$out_dir/apsp_timeline" | tee "$out_dir/apsp_timeline/run.log"
# Back-to-back launches timed like the curves: the host's launch interval (seconds).
mkdir -p "$out_dir/launch_rate"
./build-runner/gpusched-runner launch-rate --out-dir "$out_dir/launch_rate" | tee "$out_dir/launch_rate/run.log"
# Per-warp SM, warp slot and times of the series kernel (seconds).
mkdir -p "$out_dir/series_warps"
./build-runner/gpusched-runner series-warps --out-dir "$out_dir/series_warps"
# Where each launch's dispatch walk starts, over launch sequences (under a second).
mkdir -p "$out_dir/walk_state"
./build-runner/gpusched-runner walk-state --out-dir "$out_dir/walk_state" --reps 5 | tee "$out_dir/walk_state/run.log"
gzip -9f "$out_dir/walk_state/maps.csv"
# The placement suite once more, keeping only per-SM counts of every repetition: the H100's own
# run-to-run spread, compared with the timelines above by `gpusched validate` (a minute).
mkdir -p "$out_dir/placement_reps"
./build-runner/gpusched-runner placement --out-dir "$(mktemp -d)" --rep-counts "$out_dir/placement_reps/rep_counts.csv"
