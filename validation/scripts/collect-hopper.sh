#!/usr/bin/env bash
# Runs the Hopper experiments on a GPU machine: clusters, green-context partitions, concurrent
# kernels with priorities (gpusched-runner), and the PyTorch workloads on the whole GPU and in
# green contexts. Needs the CUDA toolkit, CMake, Ninja, and PyTorch with torchvision.
#   validation/scripts/collect-hopper.sh OUT_DIR [STEPS]     STEPS: runner,torch (default both)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: collect-hopper.sh OUT_DIR [runner,torch]}
steps=${2:-runner,torch}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true
if [[ $steps == *runner* ]]; then
  cmake -S validation/runner -B build-runner -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build-runner >/dev/null
  for e in clusters partitions concurrency; do
    mkdir -p "$out/$e"
    ./build-runner/gpusched-runner "$e" --out-dir "$out/$e" 2>&1 | tee "$out/$e/run.log"
  done
fi
if [[ $steps == *torch* ]]; then
  mkdir -p "$out/torch"
  PYTHONUNBUFFERED=1 python3 validation/torch/profile_workloads.py --out "$out/torch" 2>&1 | tee "$out/torch/run.log"
fi
