#!/usr/bin/env bash
# Checks gpusched-runner's command line without a GPU: usage errors exit 2 naming the flag, --help exits 0.
#   validation/scripts/check-runner-cli.sh build-runner-check/gpusched-runner
set -uo pipefail
runner=${1:?usage: check-runner-cli.sh PATH/TO/gpusched-runner}
# expect CODE REGEX ARGS...: runs the runner, checks the exit code and that stdout+stderr match REGEX.
source "$(dirname "$0")/expect_exit.sh"
expect() { expect_exit gpusched-runner "$1" "$2" "$runner" "${@:3}"; }
expect 2 "Usage"
expect 0 "launch-rate"                               --help
expect 2 "unknown subcommand 'bogus'"                bogus
expect 0 "Usage: gpusched-runner launch-rate"        launch-rate --help
expect 2 "launch-rate: --reps: expected 1..1000"     launch-rate --reps 0 --out-dir x
expect 2 "launch-rate: unknown option '--bogus'"     launch-rate --bogus
expect 2 "series-warps: --out-dir is required"       series-warps
expect 2 "series-warps: --device: expected an integer" series-warps --device -1 --out-dir x
expect 2 "curves: --reps needs an integer in \[1, 1000\], got 'abc'" curves --reps abc --out-dir x
expect 2 "curves: --only needs apsp or series, got 'x'" curves --only x --out-dir x
expect 2 "--green-sms: expected an SM count 1..100000" --green-sms 0 curves --out-dir x
expect 0 "Usage: gpusched-runner partitions"         --green-sms 16 partitions --help
expect 2 "concurrency: --out-dir is required"        concurrency
expect 0 "cudaOccupancyMaxActiveClusters"            clusters --help
expect 2 "curves: --queued takes no value"           curves --queued=1 --out-dir x
expect 2 "curves: missing required option --out-dir" curves --queued
expect 0 "Usage: gpusched-runner walk-state"         walk-state --help
expect 2 "walk-state: --reps: expected 1..1000"      walk-state --reps 0 --out-dir x
expect 2 "walk-state: unknown option '--bogus'"      walk-state --bogus
expect 0 "Usage: gpusched-runner refill-latency"     refill-latency --help
expect 2 "refill-latency: --reps: expected 1..1000"  refill-latency --reps 0 --out-dir x
expect 2 "refill-latency: --out-dir is required"     refill-latency
expect 0 "--rep-counts FILE"                         placement --help
expect 2 "placement: option '--rep-counts' needs a value" placement --out-dir x --rep-counts
expect 2 "placement: --rep-counts needs a non-empty path" placement --out-dir x --rep-counts=
expect 0 "apsp-timeline"                             --help
expect 0 "Usage: gpusched-runner apsp-timeline"      apsp-timeline --help
expect 2 "apsp-timeline: --out-dir is required"      apsp-timeline
expect 2 "apsp-timeline: --reps: expected 1..1000"   apsp-timeline --reps 0 --out-dir x
expect 2 "apsp-timeline: unknown option '--queued'"  apsp-timeline --queued --out-dir x
expect 2 "apsp-timeline: --out-dir needs a value"    apsp-timeline --out-dir
if [ "$failures" -ne 0 ]; then
  echo "gpusched-runner command line: $failures check(s) failed"
  exit 1
fi
echo "gpusched-runner command line: $checks checks passed (no GPU needed)"
