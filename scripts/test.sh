#!/usr/bin/env bash
# Installs dependencies, builds gpusched warning-free and runs the whole test suite with ctest.
#   scripts/test.sh              plain Release build in build/ (CUDA runner too when nvcc is found)
#   scripts/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

build_dir=build
# No link-time optimisation in test builds: it only slows the links (bench/run.sh uses it).
cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSCHED_WERROR=ON -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF)
case "${1:-}" in
  "") ;;
  --sanitize)
    build_dir=build-asan
    cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSCHED_WERROR=ON -DGPUSCHED_SANITIZE=ON
                -DGPUSCHED_CUDA=OFF)
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    ;;
  -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
  *) echo "scripts/test.sh: unknown option '$1' (allowed: --sanitize)" >&2; exit 2 ;;
esac

cmake -S . -B "$build_dir" "${cmake_args[@]}" >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)"
