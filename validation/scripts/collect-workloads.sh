#!/usr/bin/env bash
# Builds the CUDA runner on a GPU machine and runs the spmv, sssp and streamcluster experiments.
#   validation/scripts/collect-workloads.sh [OUT_ROOT] [TARBALL]
#     OUT_ROOT  default validation/data/h100; results land in OUT_ROOT/{spmv,sssp,streamcluster}/
#     TARBALL   optional .tar.gz of those three directories (to copy results off the machine)
# Environment: RUNNER_ARGS (extra options for every experiment, e.g. "--quick"), SPMV_REPS
# (default 20), SSSP_REPS (default 10), SC_REPS (default 10). Each directory also gets the GPU's
# clocks before and after its run (read-only nvidia-smi queries) in nvidia-smi.csv. Every
# experiment runs even if an earlier one fails; the exit status is 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
out_root=${1:-validation/data/h100}
tarball=${2:-}
build=${BUILD_DIR:-build-runner}
cmake -S validation/runner -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 1
cmake --build "$build" || exit 1
runner="./$build/gpusched-runner"

smi() {  # read-only clock query; an absent or failing nvidia-smi is not an error
  nvidia-smi --query-gpu=timestamp,name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv"$1" 2>/dev/null || true
}

status=0
run_one() {  # NAME REPS
  local dir="$out_root/$1"
  mkdir -p "$dir"
  smi "" >"$dir/nvidia-smi.csv"
  local start=$SECONDS
  # shellcheck disable=SC2086  # RUNNER_ARGS is a list of options
  "$runner" "$1" --out-dir "$dir" --reps "$2" ${RUNNER_ARGS:-} 2>&1 | tee "$dir/log.txt"
  local rc=${PIPESTATUS[0]}
  smi ",noheader" >>"$dir/nvidia-smi.csv"
  echo "collect-workloads.sh: $1 exit $rc in $((SECONDS - start)) s"
  [[ $rc -eq 0 ]] || status=1
}
run_one spmv "${SPMV_REPS:-20}"
run_one sssp "${SSSP_REPS:-10}"
run_one streamcluster "${SC_REPS:-10}"

if [[ -n $tarball ]]; then
  tar -czf "$tarball" -C "$out_root" spmv sssp streamcluster
  echo "collect-workloads.sh: wrote $tarball ($(du -h "$tarball" | cut -f1))"
fi
exit "$status"
