#!/usr/bin/env bash
# check-as-written.sh catches what it is for: it runs tests/examples/data/as-written-selftest.md (as for a sanitizer build) and must report each planted fault.
# Usage: check-as-written-selftest.sh BUILD_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
readme=$here/data/as-written-selftest.md
report=$(bash "$here/check-as-written.sh" "$1" --readme "$readme" --no-help --sanitized 2>&1)
code=$?
status=0
expect() {
    grep -qF -- "$1" <<<"$report" || { echo "FAIL: the check's report lacks: $1"; status=1; }
}
[ "$code" -eq 1 ] || { echo "FAIL: exit $code, expected 1 (planted faults)"; status=1; }
name=tests/examples/data/as-written-selftest.md
expect "ok ("
expect ": $name:5: \$G list gpus"
expect ": $name:7: \$G occupancy --gpu my-gpu.yaml --threads 256 --regs 32"
expect ": $name:9: \$G simulate --polcy walk"
expect "FAIL: $name:10: exit 2 as marked, but its standard error lacks 'a message it does not print'"
expect "FAIL: $name:11: exit 0, but the line is marked to fail with exit 2 ('unknown (but it succeeds)')"
expect "FAIL: $name:12: exit 2: \$G occupancy --gpu h100 --threads 100000"
expect "    gpusched: --threads 100000: cannot launch on h100"
expect "FAIL: $name:13: it wrote into the clone's own files: docs/h100.yaml"
expect "not run (set-up): $name:14: bash scripts/run.sh"
expect "not run (cuda): $name:15: /usr/local/cuda/bin/nvcc --version"
expect "FAIL: $name:16: a '# fails:' marker without the message it expects"
expect ": $name:17: \$G list workloads "
expect ": $name:18: \$G validate validation/data/h100 --report r.html"
expect "  cheaper (--sanitized): ran \$G validate validation/data/h100 --sections placement,concurrency,series,spmv,streamcluster,apsp-timelines,h200,clusters,partitions --report r.html"
expect ": $name:24: gpusched list workloads"
expect "check-as-written: 13 lines run in "
# Lines that must pass are not reported as failures, and output lines of a sample block are not run.
for line in 4 5 6 7 9 17 18 24; do
    ! grep -q "^FAIL: $name:$line:" <<<"$report" || { echo "FAIL: line $line reported as failing"; status=1; }
done
! grep -q "this line is output" <<<"$report" || { echo "FAIL: a sample's output line was run"; status=1; }
if [ "$status" -ne 0 ]; then
    echo "--- the check's report:"
    echo "$report"
else
    echo "ok: check-as-written.sh reports every planted fault and passes the good lines"
fi
exit "$status"
