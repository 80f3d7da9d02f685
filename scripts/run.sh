#!/usr/bin/env bash
# Installs dependencies, builds gpusched, and runs the main job: `gpusched simulate` with its built-in default.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --parallel "$(nproc)"
./build/apps/gpusched simulate
