#!/usr/bin/env bash
# An empty value ('') for a flag that names a file or a setting is exit 2 naming the flag, never "not given".
#   tests/cli/check_empty_args.sh GPUSCHED DATA_DIR
set -u
gpusched=$1
data=$2
k=synthetic:blocks=4,threads=32,duration=1us
failed=0
expect() {  # expect REGEX ARG...
  local regex=$1 err rc
  shift
  err=$(cd "$(mktemp -d)" && "$gpusched" "$@" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 2 ] || ! grep -Eq -- "$regex" <<<"$err"; then
    echo "FAILED: gpusched $* -> exit $rc, stderr: $err (expected exit 2 and /$regex/)"
    failed=1
  fi
}
expect "--walk-start: expected ROW or ROW:LEAD.*got ''" simulate --policy walk --walk-start '' --kernel "$k"
expect "--timeline: expected a file name, got ''" simulate --kernel "$k" --timeline ''
expect "--trace: expected a file name, got ''" simulate --kernel "$k" --trace ''
expect "--out: expected a file name, got ''" sweep "$data/sweep_small.yaml" --out ''
expect "--out: expected a file name, got ''" merge "$data/sweep_small_results.csv" --out ''
[ "$failed" -eq 0 ] && echo "empty values: 5 of 5 refused with exit 2"
exit "$failed"
