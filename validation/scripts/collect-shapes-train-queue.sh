#!/usr/bin/env bash
# Collects, on a GPU machine, the PyTorch traces with shapes/FLOPs, the ResNet-18 training-step
# traces and the pending-launch-limit microbenchmark (validation/data/h100/{torch_shapes,launch_queue}).
#
#   validation/scripts/collect-shapes-train-queue.sh OUT_DIR
# Writes OUT_DIR/env.txt and, each as soon as its step ends, OUT_DIR/torch_shapes.tar.gz (the four
# inference workloads with --record-shapes at K = 132,128,96,64,32,16), OUT_DIR/train.tar.gz
# (cnn_train on the whole GPU with and without --record-shapes, then in a green context of 64 SMs,
# and if that works at K = 128,96,32,16 too) and OUT_DIR/launch_queue.tar.gz. Needs the CUDA
# toolkit and PyTorch with torchvision; changes no GPU setting.
set -u
out=${1:?usage: collect-shapes-train-queue.sh OUT_DIR}
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
mkdir -p "$out"
prof="$here/validation/torch/profile_workloads.py"
export PYTHONUNBUFFERED=1

bash "$here/validation/scripts/write-gpu-env.sh" "$out/env.txt"

# 1. the four inference workloads with shapes and FLOPs
d="$work/torch_shapes"; mkdir -p "$d"
timeout 400 python3 "$prof" --out "$d" --record-shapes --sms 132,128,96,64,32,16 2>&1 | tee "$d/run.log"
tar -C "$work" -czf "$out/torch_shapes.tar.gz" torch_shapes

# 2. the training step
t="$work/train"; mkdir -p "$t"
timeout 150 python3 "$prof" --out "$t/shapes" --workloads cnn_train --sms 132 --record-shapes 2>&1 | tee "$t/shapes.log"
timeout 150 python3 "$prof" --out "$t/plain" --workloads cnn_train --sms 132 2>&1 | tee "$t/plain.log"
timeout 150 python3 "$prof" --out "$t/green64" --workloads cnn_train --sms 64 --record-shapes >"$t/green64.log" 2>&1
echo "green64 rc=$?" | tee -a "$t/green64.log"; tail -40 "$t/green64.log"
if [ -f "$t/green64/cnn_train_k64.json.gz" ]; then
  timeout 200 python3 "$prof" --out "$t/green" --workloads cnn_train --sms 128,96,32,16 --record-shapes 2>&1 | tee "$t/green.log"
fi
tar -C "$work" -czf "$out/train.tar.gz" train

# 3. the pending-launch limit
q="$work/launch_queue"; mkdir -p "$q"
nvcc -O3 -std=c++17 -arch=sm_90 -o "$work/launch_queue_depth" "$here/validation/microbench/launch_queue_depth.cu" &&
  timeout 240 "$work/launch_queue_depth" 3 "$q/calls.csv" >"$q/summary.csv" 2>"$q/stderr.txt"
echo "launch_queue_depth rc=$?"; cat "$q/summary.csv" "$q/stderr.txt"
gzip -9 "$q/calls.csv"
tar -C "$work" -czf "$out/launch_queue.tar.gz" launch_queue
ls -la "$out"
