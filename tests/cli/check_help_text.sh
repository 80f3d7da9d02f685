#!/usr/bin/env bash
# Every command's --help reads as written for people: no raw CLI11 validator text such as
# "UINT:UINT in [0 - 1099511627776]" or "INT:NONNEGATIVE" beside a flag.
# Usage: check_help_text.sh GPUSCHED
set -u
exe=$1
status=0
while IFS= read -r command; do
    # shellcheck disable=SC2086
    help=$("$exe" $command --help 2>&1) || { echo "FAIL: gpusched $command --help exits non-zero"; status=1; continue; }
    bad=$(grep -nE '[A-Z]+:[A-Z]+( in \[|$| )|in \[[-0-9 ]+\]' <<<"$help" | grep -v 'LO:HI')
    if [ -n "$bad" ]; then
        echo "FAIL: gpusched $command --help shows a validator's raw text:"
        echo "$bad"
        status=1
    fi
done <<'COMMANDS'
simulate
predict
curve
calibrate series
calibrate interval
calibrate key
tune
sweep
merge
plot
validate
import torch
import ncu
list gpus
show gpu
occupancy
lab
COMMANDS
[ "$status" -eq 0 ] && echo "ok: every command's --help is free of raw validator text"
exit "$status"
