#!/usr/bin/env bash
# Collects, on a GPU machine, PyTorch traces that show how steady the host is between recordings: the four inference
# workloads at K = 132,128,96,64,32,16, the whole sweep three times in one process (the host's own
# speed moves between recordings: the rounds show by how much), without and with shapes/FLOPs.
#
#   validation/scripts/collect-host-rounds.sh OUT_DIR
# Writes OUT_DIR/env.txt, OUT_DIR/torch_rounds.tar.gz and OUT_DIR/torch_rounds_shapes.tar.gz, each
# as soon as its sweep ends. Needs PyTorch with torchvision; changes no GPU setting.
set -u
export PYTHONUNBUFFERED=1
out=${1:?usage: collect-host-rounds.sh OUT_DIR}
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
bash "$here/validation/scripts/write-gpu-env.sh" "$out/env.txt"

prof="$here/validation/torch/profile_workloads.py"
work=$(mktemp -d)

for kind in plain shapes; do
  d="$work/torch_rounds_$kind"; mkdir -p "$d"
  extra=(); [ "$kind" = shapes ] && extra=(--record-shapes)
  timeout 240 python3 "$prof" --out "$d" --rounds 3 --sms 132,128,96,64,32,16 "${extra[@]}" 2>&1 |
    grep -v -e UserWarning -e _warn_once | tee "$d/run.log"
  name=torch_rounds; [ "$kind" = shapes ] && name=torch_rounds_shapes
  tar -C "$work" -czf "$out/$name.tar.gz" "torch_rounds_$kind"
done
ls -la "$out"
