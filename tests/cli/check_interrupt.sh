#!/usr/bin/env bash
# Ctrl-C (SIGINT) stops a long simulate or sweep cleanly: exit 130, a note of how far it got, the
# existing output file untouched and no temporary file left beside it.
# Usage: check_interrupt.sh GPUSCHED DATA_DIR
set -u
exe=$1 data=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }

# wait_for_temporary NAME OUTPUT PID [FIND TESTS...]: waits until the run's temporary output file
# exists (and passes the extra find tests, e.g. -size +0); fails when the run ends first or after 60 s.
wait_for_temporary() {
    local name=$1 output=$2 pid=$3 waited=0; shift 3
    until [ -n "$(find . -maxdepth 1 -name ".$output.tmp-*" "$@" 2>/dev/null)" ]; do
        sleep 0.1
        waited=$((waited + 1))
        [ "$waited" -lt 600 ] || { kill -9 "$pid"; fail "$name: no temporary output after 60 s"; }
        kill -0 "$pid" 2>/dev/null || fail "$name: ended before it could be interrupted: $(cat "$name.err")"
    done
}

# interrupt NAME OUTPUT ARGS...: runs the command, waits until its temporary output file has
# content (the run is under way: simulate streams blocks, sweep flushes finished rows), sends
# SIGINT and checks the outcome.
interrupt() {
    local name=$1 output=$2; shift 2
    echo "kept" > "$output"
    "$exe" "$@" >"$name.out" 2>"$name.err" &
    local pid=$! waited=0
    wait_for_temporary "$name" "$output" "$pid" -size +0
    kill -INT "$pid"
    while kill -0 "$pid" 2>/dev/null; do
        sleep 0.1
        waited=$((waited + 1))
        [ "$waited" -lt 300 ] || { kill -9 "$pid"; fail "$name: still running 30 s after SIGINT"; }
    done
    wait "$pid"
    local code=$?
    [ "$code" -eq 130 ] || fail "$name: exit code $code, expected 130; stderr: $(cat "$name.err")"
    grep -q "interrupted after .*; no output file written" "$name.err" || fail "$name: no note: $(cat "$name.err")"
    [ "$(cat "$output")" = kept ] || fail "$name: $output was changed"
    [ -z "$(find . -maxdepth 1 -name ".$output.tmp-*")" ] || fail "$name: temporary file left behind"
    echo "ok: $name: $(cat "$name.err")"
}

interrupt simulate timeline.csv simulate --kernel synthetic:blocks=1099511627776,threads=32,duration=1us \
    --timeline timeline.csv
grep -q "of 1.1e+12 blocks" simulate.err || fail "simulate: the note does not give the run's size"
cp "$data/sweep_small.yaml" study.yaml
sed -i 's/blocks: \[50, 300, 700\]/blocks: [50, 300, 700, 1099511627776]/' study.yaml
interrupt sweep results.csv sweep study.yaml -j 1 --out results.csv

# A command that does not poll for Ctrl-C (validate writing an HTML report at the end): the signal
# handler removes the report's temporary file and says so; SIGINT ends with 130, SIGTERM with 143.
# signal_during NAME SIGNAL CODE OUTPUT ARGS...: waits for the temporary file, then signals.
signal_during() {
    local name=$1 signal=$2 expected=$3 output=$4; shift 4
    echo "kept" > "$output"
    "$exe" "$@" >"$name.out" 2>"$name.err" &
    local pid=$!
    wait_for_temporary "$name" "$output" "$pid"
    sleep 0.3
    kill -"$signal" "$pid"
    wait "$pid"
    local code=$?
    [ "$code" -eq "$expected" ] || fail "$name: exit code $code, expected $expected; stderr: $(cat "$name.err")"
    grep -q "interrupted by SIG$signal; removed 1 unfinished output file(s); no output file written" "$name.err" || fail "$name: no note: $(cat "$name.err")"
    [ "$(cat "$output")" = kept ] || fail "$name: $output was changed"
    [ -z "$(find . -maxdepth 1 -name ".$output.tmp-*")" ] || fail "$name: temporary file left behind"
    echo "ok: $name: $(cat "$name.err")"
}
signal_during validate-int INT 130 r.html validate "$data/../../../validation/data/h100" --sections sssp --report r.html
signal_during validate-term TERM 143 r2.html validate "$data/../../../validation/data/h100" --sections sssp --report r2.html
