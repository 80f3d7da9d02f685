#!/usr/bin/env bash
# Every committed PyTorch trace against its own simulation (gpusched validate --trace): per trace the steps' span and kernel-start errors.
#
# Usage: validation/scripts/trace-reproduction.sh [GPUSCHED] [TRACES...]
#   GPUSCHED  the binary (default build/apps/gpusched)
#   TRACES    default: every *.json.gz under validation/data/*/torch*/
# Prints a Markdown table (trace, steps, max |span error| %, max |kernel start error| % of the step's span) and
# exits 1 when any step misses the targets (2% and 2%).
set -euo pipefail
bin=${1:-build/apps/gpusched}
shift || true
traces=("$@")
[ ${#traces[@]} -gt 0 ] || mapfile -t traces < <(ls validation/data/*/torch*/*.json.gz)
printf "| trace | steps | max |span error| %% | max |start error| %% of span |\n|---|---|---|---|\n"
fail=0
for t in "${traces[@]}"; do
    read -r steps span start < <("$bin" validate --trace "$t" --json |
        python3 -c 'import json, sys; t = json.load(sys.stdin)["trace"]; print(len(t["steps"]), "%.2f" % t["span_max_abs_error_percent"], "%.2f" % t["start_max_abs_error_percent"])')
    printf "| %s | %s | %s | %s |\n" "$t" "$steps" "$span" "$start"
    awk -v a="$span" -v b="$start" 'BEGIN { exit !(a > 2 || b > 2) }' && fail=1
done
exit $fail
