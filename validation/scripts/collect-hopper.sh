#!/usr/bin/env bash
# Runs the Hopper experiments on a GPU machine: clusters, green-context partitions, concurrent
# kernels with priorities (gpusched-runner), and the PyTorch workloads on the whole GPU and in
# green contexts. Needs the CUDA toolkit, CMake, Ninja, and PyTorch with torchvision.
#   validation/scripts/collect-hopper.sh OUT_DIR [STEPS]
# STEPS, comma-separated (default runner,torch):
#   runner   clusters, partitions, concurrency experiments
#   torch    the PyTorch workloads on the whole GPU and in green contexts (traces + timings)
#   ncu      Nsight Compute metrics of one iteration of each PyTorch workload (whole GPU)
#   ncu-green  the same in green contexts of K = 132, 96, 64, 16 SMs with the SM clock per kernel
#            (--clock-control none: the GPU's clocks are left as they are; ncu-green/<w>_k<K>.csv)
#   cluster-reps  the clusters experiment run ten more times as separate processes, keeping every
#            run's placement timelines (cluster-reps/rep<N>/timeline_<case>.csv)
#   green    the project's APSP and series kernels in green contexts of 16..128 SMs and on the
#            whole GPU (apsp-timeline, queued APSP curves, series curve)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: collect-hopper.sh OUT_DIR [runner,torch]}
steps=,${2:-runner,torch},  # matched whole: *,name,*
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true
if [[ $steps == *,runner,* || $steps == *,green,* || $steps == *,cluster-reps,* ]]; then
  cmake -S validation/runner -B build-runner -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build-runner >/dev/null
fi
if [[ $steps == *,runner,* ]]; then
  for e in clusters partitions concurrency; do
    mkdir -p "$out/$e"
    ./build-runner/gpusched-runner "$e" --out-dir "$out/$e" 2>&1 | tee "$out/$e/run.log"
  done
fi
if [[ $steps == *,cluster-reps,* ]]; then
  for r in $(seq 1 "${CLUSTER_REPS:-10}"); do
    d="$out/cluster-reps/rep$r"
    mkdir -p "$d"
    ./build-runner/gpusched-runner clusters --reps 1 --out-dir "$d" >"$d/run.log" 2>&1 || echo "cluster rep $r failed"
    rm -f "$d/cluster_occupancy.csv" "$d/gpc_map.csv"
  done
fi
if [[ $steps == *,torch,* ]]; then
  mkdir -p "$out/torch"
  PYTHONUNBUFFERED=1 python3 validation/torch/profile_workloads.py --out "$out/torch" 2>&1 | tee "$out/torch/run.log"
fi
if [[ $steps == *,ncu,* ]]; then
  mkdir -p "$out/ncu"
  metrics=smsp__inst_executed.sum,dram__bytes.sum,lts__t_bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg,gpu__time_duration.sum
  for w in cnn transformer gemm elementwise; do
    timeout 120 ncu --csv --page raw --profile-from-start off --metrics "$metrics" \
      python3 validation/torch/profile_workloads.py --out "$(mktemp -d)" --ncu-iteration --workloads "$w" \
      >"$out/ncu/$w.csv" 2>"$out/ncu/$w.log" || echo "ncu $w failed: see $out/ncu/$w.log"
  done
fi
if [[ $steps == *,ncu-green,* ]]; then
  mkdir -p "$out/ncu-green"
  metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,dram__bytes.sum,lts__t_bytes.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y
  workloads=${NCU_GREEN_WORKLOADS:-cnn,gemm,transformer}
  for w in ${workloads//,/ }; do
    for k in ${NCU_GREEN_SMS:-132 96 64 16}; do
      timeout 240 ncu --csv --page raw --clock-control none --profile-from-start off --metrics "$metrics" \
        python3 validation/torch/profile_workloads.py --out "$(mktemp -d)" --ncu-iteration --workloads "$w" --sms "$k" \
        >"$out/ncu-green/${w}_k$k.csv" 2>"$out/ncu-green/${w}_k$k.log" || echo "ncu $w K=$k failed: see $out/ncu-green/${w}_k$k.log"
    done
  done
fi
if [[ $steps == *,green,* ]]; then
  for k in 132 128 96 64 32 16; do
    g=(); [ "$k" -lt 132 ] && g=(--green-sms "$k")
    d="$out/green/k$k"
    mkdir -p "$d"
    timeout 60 ./build-runner/gpusched-runner "${g[@]}" apsp-timeline --out-dir "$d" >"$d/apsp_timeline.log" 2>&1 || echo "k$k apsp-timeline failed"
    timeout 60 ./build-runner/gpusched-runner "${g[@]}" curves --queued --only apsp --reps 3 --out-dir "$d" >"$d/curves_apsp.log" 2>&1 || echo "k$k apsp curves failed"
    timeout 90 ./build-runner/gpusched-runner "${g[@]}" curves --only series --reps 3 --out-dir "$d" >"$d/curves_series.log" 2>&1 || echo "k$k series failed"
    echo "green k$k: $(ls "$d" | tr '\n' ' ')"
  done
fi
