#!/usr/bin/env bash
# Builds the CUDA runner on a GPU machine, runs the placement suite into a directory and tars it.
#   validation/scripts/collect-placement.sh [OUT_DIR] [TARBALL] [-- RUNNER_ARGS...]
#     OUT_DIR      default validation/data/h100/placement (one timeline CSV per case + runs.csv)
#     TARBALL      optional .tar.gz of OUT_DIR's contents (for copying results off the machine)
#     RUNNER_ARGS  extra `gpusched-runner placement` options, e.g. -- --reps 20 --only wave132
# Also records the GPU's clocks before and after (read-only nvidia-smi queries) in
# OUT_DIR/nvidia-smi.csv. Exit status: the runner's (1 if a block failed the CPU check).
set -euo pipefail
cd "$(dirname "$0")/../.."
out_dir=validation/data/h100/placement
tarball=
if [[ $# -gt 0 && $1 != -- ]]; then out_dir=$1; shift; fi
if [[ $# -gt 0 && $1 != -- ]]; then tarball=$1; shift; fi
if [[ $# -gt 0 ]]; then
  if [[ $1 != -- ]]; then echo "collect-placement.sh: unexpected argument '$1'" >&2; exit 2; fi
  shift
fi
mkdir -p "$out_dir"
cmake -S validation/runner -B build-runner -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-runner

smi() {  # read-only clock query; an absent or failing nvidia-smi is not an error
  nvidia-smi --query-gpu=timestamp,name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,clocks_event_reasons.active --format=csv"$1" 2>/dev/null ||
    nvidia-smi --query-gpu=timestamp,name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem --format=csv"$1" 2>/dev/null || true
}
{ smi ""; } >"$out_dir/nvidia-smi.csv"

status=0
./build-runner/gpusched-runner placement --out-dir "$out_dir" "$@" || status=$?
{ smi ",noheader"; } >>"$out_dir/nvidia-smi.csv"

if [[ -n $tarball ]]; then
  tar -czf "$tarball" -C "$out_dir" .
  echo "collect-placement.sh: wrote $tarball ($(du -h "$tarball" | cut -f1))"
fi
exit "$status"
