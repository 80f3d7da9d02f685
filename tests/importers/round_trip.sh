#!/usr/bin/env bash
# Import round trip: the golden workload, byte-identical repeats, gzip = plain JSON, and import -> simulate --workload.
#   tests/importers/round_trip.sh GPUSCHED SOURCE_DIR WORK_DIR
set -euo pipefail
gpusched=$1 src=$2 work=$3
data=$src/tests/importers/data
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAILED: $*" >&2; exit 1; }

"$gpusched" import torch "$data/two_streams.json" --out a.yaml --timeline a.csv >/dev/null
"$gpusched" import torch "$data/two_streams.json" --out b.yaml --timeline b.csv >/dev/null
cmp a.yaml b.yaml || fail "two imports of one trace differ"
cmp a.csv b.csv || fail "two measured timelines of one trace differ"
# The golden file was written by this command from tests/importers/data (so its header names two_streams.json).
cmp a.yaml "$data/two_streams.yaml" || { diff a.yaml "$data/two_streams.yaml" >&2; fail "the import differs from tests/importers/data/two_streams.yaml"; }
"$gpusched" import torch "$data/two_streams.json.gz" --out z.yaml >/dev/null
sed -e 's/two_streams\.json\.gz/two_streams.json/g' z.yaml | cmp - a.yaml || fail "the gzip trace imports differently from its JSON"
"$gpusched" import ncu "$data/two_streams_ncu.csv" --workload a.yaml --out n.yaml >/dev/null
"$gpusched" import cupti "$data/cupti_recording.json" --out c.yaml >/dev/null

for w in a n c; do
  "$gpusched" simulate --gpu h100 --workload $w.yaml > sim_$w.txt || fail "simulate --workload of the import $w.yaml failed"
  grep -q makespan sim_$w.txt || fail "no makespan in the simulation of $w.yaml"
done
echo "round trip: golden, deterministic, gzip = JSON, ncu join and cupti import simulate"
