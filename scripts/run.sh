#!/usr/bin/env bash
# Installs dependencies, builds gpusched, and runs the main job on the default GPU (H100 preset).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --parallel "$(nproc)"
./build/apps/gpusched list gpus
echo
./build/apps/gpusched occupancy --gpu h100 --threads 256 --regs 32
