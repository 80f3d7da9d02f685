#!/usr/bin/env bash
# Builds libFuzzer target TARGET (tests/fuzz) with clang in build-fuzz/ and runs it for SECONDS; crashes land in tests/fuzz/regressions/.
# Usage: scripts/fuzz.sh TARGET SECONDS   e.g. scripts/fuzz.sh matrix_market 300
# TARGETs: matrix_market, graph_dimacs, graph_edge_list, gpu_spec, workload, study, calibration,
# replay_timeline, kineto_trace (docs/testing.md).
# TARGET is the name without "_fuzz"; its seed corpus is tests/fuzz/corpus/TARGET/ and every crash, timeout
# or out-of-memory input it finds is written to tests/fuzz/regressions/TARGET/ (commit them: a doctest
# replays them with g++ in CI). Inputs libFuzzer adds while exploring go to build-fuzz/corpus/TARGET/.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 TARGET SECONDS (e.g. $0 matrix_market 300)" >&2
  exit 2
fi
target=${1%_fuzz}  # "matrix_market" or "matrix_market_fuzz"
seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
if ! command -v clang++ >/dev/null; then
  echo "fuzz: installing clang"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends clang >/dev/null
fi
major=$(clang++ -dumpversion | cut -d. -f1)
if ! find /usr/lib/llvm-"$major" -name 'libclang_rt.fuzzer-*.a' 2>/dev/null | grep -q .; then
  echo "fuzz: installing the libFuzzer runtime (libclang-rt-$major-dev)"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "libclang-rt-$major-dev" >/dev/null
fi
bash "$root/scripts/install-deps.sh"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
      -DGPUSCHED_FUZZ=ON -DGPUSCHED_WERROR=OFF -DGPUSCHED_CUDA=OFF \
      -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF \
      "-DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" >/dev/null
ninja -C "$build" -j"${FUZZ_JOBS:-1}" "${target}_fuzz"

seeds=$root/tests/fuzz/corpus/$target
crashes=$root/tests/fuzz/regressions/$target
work=$build/corpus/$target
mkdir -p "$work" "$crashes"
# -timeout: an input slower than 10 s is a hang; -rss_limit_mb: more than 2 GiB is a memory blow-up.
# Standard input is /dev/null, so that an input naming /dev/stdin as a file cannot wait on the terminal.
"$build/tests/fuzz/${target}_fuzz" "$work" "$seeds" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=4096 -artifact_prefix="$crashes/" -print_final_stats=1 </dev/null
