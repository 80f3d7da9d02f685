#!/usr/bin/env bash
# Checks gpusched-record without a GPU: its self-test (JSON escaping, spool, trace assembly), usage errors
# (exit 2 naming the option), a program that cannot start, and programs that exit non-zero or are killed.
#   validation/scripts/check-recorder-cli.sh build-recorder-check
set -uo pipefail
build=${1:?usage: check-recorder-cli.sh BUILD_DIR (holding gpusched-record and gpusched-record-selftest)}
record=$build/gpusched-record
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# expect CODE REGEX ARGS...: runs gpusched-record, checks the exit code and that stdout+stderr match REGEX.
source "$(dirname "$0")/expect_exit.sh"
expect() { expect_exit gpusched-record "$1" "$2" "$record" "${@:3}"; }
# expect_in_trace REGEX: the last trace written holds REGEX.
expect_in_trace() {
  checks=$((checks + 1))
  if ! grep -Eq -- "$1" "$out/trace.json"; then
    echo "FAIL: $out/trace.json lacks /$1/:"
    head -c 600 "$out/trace.json"
    failures=$((failures + 1))
  fi
}

"$build/gpusched-record-selftest" || failures=$((failures + 1))
expect 2 "gpusched-record: no program to run"
expect 0 "Usage: gpusched-record \[--out DIR\]"                  --help
expect 0 "^gpusched-record 1$"                                   --version
expect 2 "unknown option '--bogus' \(put the program after --\)" --bogus -- true
expect 2 "--out needs a directory"                               --out
expect 2 "--out needs a non-empty directory name"                --out= true
expect 2 "no program to run"                                     --out "$out" --
expect 2 "cannot run '/nonexistent/program': No such file"       --out "$out" -- /nonexistent/program
expect 0 "no CUDA activity was recorded"                         --out "$out" -- true
expect_in_trace '"exit_code": 0, "signal": 0, "complete": true'
expect 2 "'sh' exited with code 3; .*trace.json holds what was recorded" --out "$out" -- sh -c 'exit 3'
expect_in_trace '"program": "sh", "args": \["-c", "exit 3"\], "exit_code": 3'
expect 2 "'sh' was killed by signal 6 \(Aborted\)"               --out "$out" -- sh -c 'kill -ABRT $$'
expect_in_trace '"exit_code": 134, "signal": 6, "complete": false'
expect 2 "cannot create directory"                               --out /dev/null/x -- true
if [ "$failures" -ne 0 ]; then
  echo "gpusched-record: $failures check(s) failed"
  exit 1
fi
echo "gpusched-record command line: $checks checks passed (no GPU needed)"
