#!/usr/bin/env bash
# Reference check of the host timeline: measured vs simulated span per profiled step, and the --sms K what-if from the k132 trace.
#
# Usage: validation/scripts/host-timeline-check.sh [GPUSCHED] [DATA] [WORKLOADS] [KS] [STEPS]
#   GPUSCHED   the binary (default build/apps/gpusched)
#   DATA       the traces (default validation/data/h100/torch): <workload>_k<K>.json.gz
#   WORKLOADS  default "cnn transformer gemm elementwise"; KS default "132 128 96 64 32 16"; STEPS default "2 3 4"
#
# Per workload, K and step: the measured span (first host call of the step to the last GPU end
# of its operations, from `import --timeline`), the simulation of the kK trace itself with its
# durations as measured (no --sms: the trace's deviceProperties say 132 SMs, so its kernels keep
# their measured times; the reference check), and the simulation of the k132 trace at `--sms K`
# (the what-if), each with its error; then the span ratios to K = 132 (measured and what-if).
# Imports with the host timeline (default) and, for comparison, `--frozen-gaps` (what-if only);
# the what-if imports join DATA/ncu/<workload>.csv.gz (`import ncu`, the whole GPU's metrics)
# when it exists, as the validate section `whatif` does.
set -euo pipefail
bin=${1:-build/apps/gpusched}
data=${2:-validation/data/h100/torch}
workloads=${3:-cnn transformer gemm elementwise}
ks=${4:-132 128 96 64 32 16}
steps=${5:-2 3 4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

span_measured() {  # the largest end_ns of a measured timeline, in us
    awk -F, '!/^#/ && $1 != "kernel" { if ($5 + 0 > m) m = $5 + 0 } END { printf "%.1f", m / 1000 }' "$1"
}
span_simulated() {  # WORKLOAD K: the makespan in us
    "$bin" simulate --gpu h100 --sms "$2" --workload "$1" --json 2>/dev/null |
        python3 -c 'import json, sys; print("%.1f" % (json.load(sys.stdin)["makespan_ns"] / 1000))'
}
err() { python3 -c "print('%+.1f%%' % (100 * ($2 - $1) / $1))"; }
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }

printf "| workload | K | step | measured us | sim kK trace as measured us | err | what-if k132 us | err | frozen what-if us | err | measured ratio | what-if ratio | frozen ratio |\n"
printf "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
for w in $workloads; do
    for s in $steps; do
        "$bin" import torch "$data/${w}_k132.json.gz" --steps "$s" --out "$tmp/ref.yaml" --timeline "$tmp/ref.csv" >/dev/null 2>&1
        "$bin" import torch "$data/${w}_k132.json.gz" --steps "$s" --frozen-gaps --out "$tmp/frozen.yaml" >/dev/null 2>&1
        if [ -f "$data/ncu/$w.csv.gz" ]; then
            for f in ref frozen; do
                "$bin" import ncu "$data/ncu/$w.csv.gz" --workload "$tmp/$f.yaml" --out "$tmp/$f-ncu.yaml" >/dev/null 2>&1
                mv "$tmp/$f-ncu.yaml" "$tmp/$f.yaml"
            done
        fi
        base=$(span_measured "$tmp/ref.csv")
        base_sim=$(span_simulated "$tmp/ref.yaml" 132)
        base_frozen=$(span_simulated "$tmp/frozen.yaml" 132)
        for k in $ks; do
            "$bin" import torch "$data/${w}_k${k}.json.gz" --steps "$s" --out "$tmp/k.yaml" --timeline "$tmp/k.csv" >/dev/null 2>&1
            m=$(span_measured "$tmp/k.csv")
            own=$(span_simulated "$tmp/k.yaml" 132)
            wi=$(span_simulated "$tmp/ref.yaml" "$k")
            fr=$(span_simulated "$tmp/frozen.yaml" "$k")
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" "$w" "$k" "$s" "$m" "$own" "$(err "$m" "$own")" \
                "$wi" "$(err "$m" "$wi")" "$fr" "$(err "$m" "$fr")" "$(ratio "$m" "$base")" "$(ratio "$wi" "$base_sim")" "$(ratio "$fr" "$base_frozen")"
        done
    done
done
