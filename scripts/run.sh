#!/usr/bin/env bash
# Installs dependencies, builds gpusched, and runs the main job: `gpusched simulate` with its built-in default.
# The gpusched binary is built first and run at once; the rest of the build (tests, the Python module,
# the CUDA validation runner when nvcc is found) follows, so the first result does not wait for it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Unity batches for the command and the validation library: the same code, about 30% less build time.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSCHED_UNITY_COMMAND=ON >/dev/null
cmake --build build --parallel "$(nproc)" --target gpusched
./build/apps/gpusched simulate
echo "== the rest of the build (tests, Python module, CUDA runner): cmake --build build"
cmake --build build --parallel "$(nproc)"
