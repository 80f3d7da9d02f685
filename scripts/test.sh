#!/usr/bin/env bash
# Installs dependencies, builds gpusched warning-free and runs the whole test suite with ctest.
#   scripts/test.sh           AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/ (what CI runs),
#                             then every README line and --help example as written on run.sh's build/,
#                             then the CUDA runner (validation/runner) warning-free when nvcc is found,
#                             and its command-line usage errors (validation/scripts/check-runner-cli.sh);
#                             likewise the CUPTI recorder (validation/recorder: its self-test and
#                             validation/scripts/check-recorder-cli.sh) and the probe example (examples/probe)
#   scripts/test.sh --plain   optimised Release build in build/ (as scripts/run.sh builds it)
#   Both build the browser lab (WebAssembly, emscripten) and run its chromium test (tests/lab, docs/lab.md);
#   the default also gives scripts/run.sh's Release build in build/, when there is one, its lab page, so the
#   README's `./build/apps/gpusched lab --out my-lab` works after the README's set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --lab

mode=sanitize
case "${1:-}" in
  "") ;;
  --plain) mode=plain ;;
  -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
  *) echo "scripts/test.sh: unknown option '$1' (allowed: --plain)" >&2; exit 2 ;;
esac

if [ "$mode" = plain ]; then
  build_dir=build
  # No link-time optimisation in test builds: it only slows the links (bench/run.sh uses it).
  cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSCHED_WERROR=ON -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF -DGPUSCHED_LAB=ON)
else
  build_dir=build-asan
  # -O1 -g1: the sanitizers' recommended optimisation, line tables for their reports, and about
  # half the compile time of -O2 -g; the tests' own sources at -O0 and precompiled headers
  # (GPUSCHED_FAST_TEST_BUILD). The CUDA runner is checked on its own below (nvcc only).
  cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
              -DGPUSCHED_WERROR=ON -DGPUSCHED_SANITIZE=ON -DGPUSCHED_CUDA=OFF -DGPUSCHED_LAB=ON
              -DGPUSCHED_FAST_TEST_BUILD=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi

cmake -S . -B "$build_dir" "${cmake_args[@]}" >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)"
# run.sh configures build/ without the lab (its first result must not wait for emscripten); the README's
# examples run build/'s gpusched, so the set-up's second step builds build/'s lab page (its own engine
# build: the page belongs to the binary that writes it). Not in a fresh clone (CI): no build/ there.
if [ "$mode" = sanitize ] && [ -f build/CMakeCache.txt ]; then
  echo "== build/ (scripts/run.sh's Release build): its lab page, for the README's gpusched lab (at ${SECONDS} s)"
  cmake -S . -B build -DGPUSCHED_LAB=ON >/dev/null
  # Its Python module too, where it has one: the README's python3 lines run on build/ (below).
  python_targets=()
  cmake --build build --target help | grep -q '^gpusched_python:' && python_targets=(gpusched_python gpusched_python_files)
  cmake --build build --parallel "$(nproc)" --target gpusched lab_page "${python_targets[@]}"
fi
echo "== ctest in $build_dir (at ${SECONDS} s since the set-up began: dependencies and builds)"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)"

# The README's examples name run.sh's Release build/ (G=./build/apps/gpusched): every README line and
# --help example runs there exactly as written. Under the sanitizers above (examples.as_written), the
# README's lines ran, the whole `validate DATA_DIR` over its fast sections only (its slow ones take
# about 13 CPU-minutes there); here it runs in full. A fresh clone (CI) has no build/ yet:
# run.sh --gpusched-only makes it, and it gets build-asan/'s lab page (the same sources' WebAssembly
# engine, which no host compiler flag changes); it has no Python module, whose README lines ran under
# the sanitizers (no --help example runs python3).
if [ "$mode" = sanitize ]; then
  echo "== the README's lines and --help examples as written on run.sh's build/ (at ${SECONDS} s)"
  [ -f build/CMakeCache.txt ] || bash scripts/run.sh --gpusched-only
  if [ ! -f build/lab/page/index.html ] && [ -f "$build_dir/lab/page/index.html" ]; then
    mkdir -p build/lab && cp -r "$build_dir/lab/page" build/lab/page
  fi
  as_written=()
  [ -f build/lab/page/index.html ] || as_written+=(--no-lab)
  compgen -G 'build/python/gpusched/_core*.so' >/dev/null || as_written+=(--no-python)
  bash tests/examples/check-as-written.sh build "${as_written[@]}"
fi

nvcc=/usr/local/cuda/bin/nvcc
if [ "$mode" = sanitize ] && { command -v nvcc >/dev/null || [ -x "$nvcc" ]; }; then
  echo "== CUDA runner (validation/runner): warning-free build with nvcc (at ${SECONDS} s)"
  [ -x "$nvcc" ] || nvcc=$(command -v nvcc)
  cmake -S validation/runner -B build-runner-check -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_COMPILER="$nvcc" -DGPUSCHED_RUNNER_WERROR=ON >/dev/null
  cmake --build build-runner-check --parallel "$(nproc)"
  bash validation/scripts/check-runner-cli.sh build-runner-check/gpusched-runner
  echo "== CUPTI recorder (validation/recorder) and probe example (examples/probe): warning-free builds with nvcc (at ${SECONDS} s)"
  cmake -S validation/recorder -B build-recorder-check -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_COMPILER="$nvcc" -DGPUSCHED_RECORDER_WERROR=ON >/dev/null
  cmake --build build-recorder-check --parallel "$(nproc)"
  bash validation/scripts/check-recorder-cli.sh build-recorder-check
  cmake -S examples/probe -B build-probe-check -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_COMPILER="$nvcc" -DGPUSCHED_PROBE_WERROR=ON >/dev/null
  cmake --build build-probe-check --parallel "$(nproc)"
fi
echo "== scripts/test.sh done in ${SECONDS} s"
