#!/usr/bin/env bash
# Collects, on a GPU machine, the data its power-limited tensor clock is measured from (validation/scripts/tensor-power.py).
#
#   validation/scripts/collect-tensor-clock.sh OUT_DIR [NAME_PART]
#
# - torch/ncu-green/gemm_k<K>.csv.gz: Nsight Compute's SM cycles and durations of one gemm iteration in green
#   contexts of K = 132, 128, 96, 64, 32, 16 SMs (NCU_SMS: others), under the GPU's own clock management (--clock-control none);
# - torch_rounds_shapes/round{1,2,3}/: the four workloads recorded with shapes and FLOPs at every K, the whole
#   sweep three times in one process (each recording's GEMM durations over those cycles give the clock its
#   profiled steps ran at; ROUNDS: another number of sweeps, WORKLOADS: fewer workloads).
# Writes OUT_DIR/env.txt and OUT_DIR/tensor_clock.tar.gz (unpack into validation/data/<gpu>/). With NAME_PART, the
# GPU's name must contain it (e.g. H200), else nothing is collected and the script exits 3. Changes no GPU setting.
set -u
export PYTHONUNBUFFERED=1
out=${1:?usage: collect-tensor-clock.sh OUT_DIR [NAME_PART]}
want=${2:-}
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
bash "$here/validation/scripts/write-gpu-env.sh" "$out/env.txt"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [ -n "$want" ] && [[ $name != *"$want"* ]]; then
  echo "the GPU is '$name', not a '$want': nothing collected"
  exit 3
fi
prof="$here/validation/torch/profile_workloads.py"
work=$(mktemp -d)
mkdir -p "$work/torch" "$work/torch_rounds_shapes"
# collect-hopper.sh's ncu-green step, for the gemm workload only.
NCU_GREEN_WORKLOADS=gemm NCU_GREEN_SMS="${NCU_SMS:-132 128 96 64 32 16}" \
  bash "$here/validation/scripts/collect-hopper.sh" "$work/torch" ncu-green
for f in "$work"/torch/ncu-green/gemm_k*.csv; do
  gzip -9 "$f"
  echo "ncu $(basename "$f"): $(zcat "$f.gz" | grep -c nvjet) nvjet rows"
done
d="$work/torch_rounds_shapes"
timeout 300 python3 "$prof" --out "$d" --rounds "${ROUNDS:-3}" --sms 132,128,96,64,32,16 --workloads "${WORKLOADS:-cnn,transformer,gemm,elementwise}" --record-shapes 2>&1 |
  grep -v -e UserWarning -e _warn_once | tee "$d/run.log"
cp "$out/env.txt" "$d/env.txt"
tar -C "$work" -czf "$out/tensor_clock.tar.gz" torch torch_rounds_shapes
ls -la "$out"
