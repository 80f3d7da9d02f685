#!/usr/bin/env bash
# Writes what a GPU recording ran on (date, GPU, driver, clocks, PyTorch/CUDA/cuDNN/torchvision, CPUs, nvcc)
# to FILE and prints it: the env.txt beside the collection scripts' data.
#   validation/scripts/write-gpu-env.sh FILE
set -u
file=${1:?usage: write-gpu-env.sh FILE}
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv
  python3 -c 'import torch, torchvision; print("torch", torch.__version__, "cuda", torch.version.cuda,
"cudnn", torch.backends.cudnn.version(), "torchvision", torchvision.__version__,
"device", torch.cuda.get_device_name(0), "sms", torch.cuda.get_device_properties(0).multi_processor_count)'
  echo "cpus $(nproc)"
  nvcc --version 2>/dev/null | tail -1
} >"$file" 2>&1
cat "$file"
