#!/usr/bin/env bash
# On a GPU machine (CUDA toolkit with CUPTI, CMake, Ninja; nothing else): builds the probe example and the
# recorder, runs them, checks what they wrote and leaves it all in OUT_DIR. About a minute, mostly building.
#   validation/scripts/check-probe-recorder.sh OUT_DIR [CUDA_ARCHS]      (CUDA_ARCHS default 90)
# OUT_DIR afterwards:
#   check.log                    this script's whole output (builds, runs, checks, nvidia-smi clocks)
#   probe/{transpose,varying_work,varying_work_wave}.csv   the probe example's block timelines
#                                (commit under validation/data/h100/probe/)
#   recorder/probe/trace.json    gpusched-record of the probe example (its own timelines in recorder/probe/timelines/)
#   recorder/testapp/trace.json  gpusched-record of gpusched-record-testapp (priorities, copies, memset, cluster, events)
#   recorder/testapp-exit3/trace.json, recorder/testapp-abort/trace.json   a program exiting 3 and one that aborts
# Exit status: 0 when every check passed, 1 otherwise (each failure is a FAIL line in check.log).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: check-probe-recorder.sh OUT_DIR [CUDA_ARCHS]}
archs=${2:-90}
mkdir -p "$out/probe" "$out/recorder"
out=$(cd "$out" && pwd)
exec > >(tee "$out/check.log") 2>&1
build=${GPUSCHED_CHECK_BUILD_DIR:-$out/build}
nvcc=/usr/local/cuda/bin/nvcc
[ -x "$nvcc" ] || nvcc=$(command -v nvcc)
failures=0
checks=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect_rc CODE LABEL COMMAND...: runs COMMAND, checks its exit status.
expect_rc() {
  local code=$1 label=$2
  shift 2
  checks=$((checks + 1))
  echo "== $label: $*"
  "$@"
  local rc=$?
  [ "$rc" -eq "$code" ] || fail "$label: exit $rc, expected $code"
}
# expect_in FILE REGEX...: every REGEX is found in FILE.
expect_in() {
  local file=$1
  shift
  for regex in "$@"; do
    checks=$((checks + 1))
    grep -Eq -- "$regex" "$file" 2>/dev/null || fail "$file lacks /$regex/"
  done
}

date -u
nvidia-smi --query-gpu=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem --format=csv 2>/dev/null || true
echo "== build (nvcc $("$nvcc" --version | tail -1), archs $archs) in $build"
start=$(date +%s)
for part in examples/probe:probe:GPUSCHED_PROBE_WERROR validation/recorder:recorder:GPUSCHED_RECORDER_WERROR; do
  IFS=: read -r src dir werror <<<"$part"
  cmake -S "$src" -B "$build/$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$nvcc" \
        -DCMAKE_CUDA_ARCHITECTURES="$archs" -D"$werror"=ON >/dev/null || { fail "configure $src"; continue; }
  cmake --build "$build/$dir" --parallel "$(nproc)" || fail "build $src"
done
echo "== built in $(($(date +%s) - start)) s"
record=$build/recorder/gpusched-record
probe=$build/probe/probe-example
testapp=$build/recorder/gpusched-record-testapp

expect_rc 0 "recorder self-test and command line" bash validation/scripts/check-recorder-cli.sh "$build/recorder"

expect_rc 0 "probe example" "$probe" --out "$out/probe"
for f in transpose varying_work varying_work_wave; do
  expect_in "$out/probe/$f.csv" '^# sm_count=[0-9]+$' '^# threads=[0-9]+$' '^# launches=3$' '^# replay=gpusched simulate' \
            '^kernel,launch,block,sm,dispatch_ns,start_ns,end_ns$' '^(transpose|varying_work),2,'
  echo "$f.csv: $(grep -vc '^#' "$out/probe/$f.csv") lines; $(grep -E '^# (globaltimer_min_step_ns|regs|smem|replay)=' "$out/probe/$f.csv" | tr '\n' ' ')"
done

mkdir -p "$out/recorder/probe/timelines"
expect_rc 0 "recorder on the probe example" "$record" --out "$out/recorder/probe" -- "$probe" --out "$out/recorder/probe/timelines" --warmup-ms 20
expect_in "$out/recorder/probe/trace.json" '"deviceProperties": \[' '"numSms": [0-9]+' '"cat": "kernel", "name": "[^"]*transpose' \
          '"cat": "kernel", "name": "[^"]*varying_work' '"registers per thread": [1-9]' '"static shared memory": 4224' \
          '"cat": "cuda_runtime", "name": "cudaLaunchKernel"' '"cat": "gpu_memcpy", "name": "Memcpy HtoD \(Pageable -> Device\)"' \
          '"gpuschedRecorder": \{"version": 1, "program": "[^"]*probe-example", .*"exit_code": 0'

expect_rc 0 "recorder on the test app" "$record" --out "$out/recorder/testapp" -- "$testapp"
expect_in "$out/recorder/testapp/trace.json" '"name": "[^"]*testapp_dynamic_smem.*"dynamic shared memory": 1024' \
          '"name": "[^"]*testapp_static_smem.*"static shared memory": 2048' \
          '"name": "[^"]*testapp_cluster.*"cluster": \[2, 1, 1\]' '"stream priority": -[1-9]' \
          '"Memcpy HtoD \(Pinned -> Device\)"' '"Memcpy HtoD \(Pageable -> Device\)"' '"Memcpy DtoH \(Device -> Pinned\)"' \
          '"cat": "gpu_memset", "name": "Memset \(Device\)"' '"cat": "cuda_sync"' '"cat": "cuda_runtime", "name": "cudaStreamWaitEvent"' \
          '"cat": "cuda_driver"' '"sharedMemPerBlockOptin": [0-9]+' '"exit_code": 0, "signal": 0, "complete": true'
expect_rc 2 "recorder on a program exiting 3" "$record" --out "$out/recorder/testapp-exit3" -- "$testapp" --exit 3
expect_in "$out/recorder/testapp-exit3/trace.json" '"cat": "kernel"' '"exit_code": 3, "signal": 0, "complete": false'
expect_rc 2 "recorder on a program that aborts" "$record" --out "$out/recorder/testapp-abort" -- "$testapp" --abort
expect_in "$out/recorder/testapp-abort/trace.json" '"exit_code": 134, "signal": 6' '"cat": "cuda_runtime"'
echo "abort trace: $(grep -c '"cat": "kernel"' "$out/recorder/testapp-abort/trace.json") kernel events kept"

nvidia-smi --query-gpu=name,pstate,clocks.sm,clocks.mem --format=csv,noheader 2>/dev/null || true
echo "== $((checks - failures)) of $checks checks passed in $(($(date +%s) - start)) s; outputs in $out"
[ "$failures" -eq 0 ]
