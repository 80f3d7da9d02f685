#!/usr/bin/env bash
# Runs every example of README.md and examples/ with one gpusched binary, keeping each command's output and files.
#   tests/examples/run-examples.sh GPUSCHED OUT_DIR          run them all into OUT_DIR (must not exist)
#   tests/examples/run-examples.sh --compare OLD NEW        run both binaries, compare byte for byte (exit 1 on a difference)
# Each example runs in one scratch directory (so later examples read what earlier ones wrote, as a user
# following the README would) with the repository's examples/, tests/ and validation/ linked in.
# OUT_DIR gets NNN.cmd, NNN.out, NNN.err, NNN.rc per command and files/ with every file the commands wrote;
# the sweep's progress lines (timing-dependent) are left out of NNN.err.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)

usage() { sed -n '2,4p' "$0" | sed 's/^# //' >&2; exit 2; }

# The README's examples: the `$G ...` lines of its "## Examples" block (continuation lines joined,
# each `;`-separated command kept on its line, trailing comments dropped by the shell).
readme_commands() {
    awk '/^## Examples/{on=1} on && /^```sh/{block=1; next} block && /^```/{exit} block' "$repo/README.md" |
        sed -e ':a' -e '/\\$/N; s/\\\n */ /; ta' | grep -E '^(\$G |for .*\$G )'
}

# The examples/ files, each run as its own header comment says (whatif_study.py with the Python module beside
# the binary, build/python, when it was built).
example_commands() {
    cat <<'CMDS'
$G simulate --workload examples/copy-overlap.yaml --exec fixed --trace overlap.json
$G simulate --workload examples/host-launches.yaml --exec fixed
$G simulate --gpu gtx680 --exec shared --workload examples/sssp-kepler-24k.yaml
$G simulate --calibration examples/h100-binomial-series.calibration.yaml --kernel binomial-series:blocks=528,threads=256
$G simulate --calibration examples/h100-binomial-series-measured.calibration.yaml --kernel binomial-series:blocks=528,threads=256
$G simulate --calibration examples/h100-streamcluster.calibration.yaml --kernel streamcluster:points=65536,dims=256,regs=40
$G simulate --gpu examples/half-h100.yaml --kernel synthetic:blocks=265,threads=1024,duration=50us --json
$G sweep examples/sweep-gpu-file.yaml --out gpu-file.csv
$G sweep examples/sweep-streams.yaml --out streams.csv
[ ! -d "$(dirname "$G")/../python/gpusched" ] || PYTHONPATH=$(dirname "$G")/../python MPLBACKEND=Agg /usr/bin/python3 examples/whatif_study.py --out whatif.png
CMDS
}

run_all() {
    local gpusched=$1 out=$2
    [ -x "$gpusched" ] || { echo "run-examples: '$gpusched' is not an executable" >&2; exit 2; }
    [ ! -e "$out" ] || { echo "run-examples: '$out' exists; give a new directory" >&2; exit 2; }
    gpusched=$(cd "$(dirname "$gpusched")" && pwd)/$(basename "$gpusched")
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    local scratch
    scratch=$(mktemp -d)
    for d in examples tests validation; do ln -s "$repo/$d" "$scratch/$d"; done
    local i=0 failed=0
    # Every examples/*.yaml must be run by some command (a new example file needs a line above).
    local all
    all=$( { readme_commands; example_commands; } )
    for f in "$repo"/examples/*.yaml; do
        grep -q "examples/$(basename "$f")" <<<"$all" || grep -rq "$(basename "$f")" "$repo"/examples/*.yaml ||
            { echo "run-examples: examples/$(basename "$f") is run by no example command" >&2; failed=1; }
    done
    while IFS= read -r line; do
        i=$((i + 1))
        local n
        n=$(printf '%03d' "$i")
        printf '%s\n' "$line" >"$out/$n.cmd"
        local rc=0
        (cd "$scratch" && G=$gpusched && eval "$line") >"$out/$n.out" 2>"$out/$n.err" </dev/null || rc=$?
        echo "$rc" >"$out/$n.rc"
        # The sweep's progress (plain lines off a terminal) shows rates and seconds: keep only its words.
        sed -i -E '/^gpusched sweep: \[/d; s/ points in [0-9.]+ s$/ points in S s/' "$out/$n.err"
        # A line ending in `# fails: MESSAGE` is meant to fail with exit 2 (tests/examples/check-as-written.sh checks the message).
        if [ "$rc" -ne 0 ] && ! { [ "$rc" -eq 2 ] && [[ $line == *"# fails:"* ]]; }; then
            echo "run-examples: exit $rc: $line" >&2
            sed 's/^/  /' "$out/$n.err" >&2
            failed=1
        fi
    done <<<"$all"
    mkdir "$out/files"
    (cd "$scratch" && find . -maxdepth 1 -type f -exec cp {} "$out/files/" \;)
    rm -rf "$scratch"
    echo "run-examples: $i commands, $(find "$out/files" -type f | wc -l) files written, in $out"
    return "$failed"
}

case "${1:-}" in
    --compare)
        [ $# -eq 3 ] || usage
        work=$(mktemp -d)
        run_all "$2" "$work/old" || true
        run_all "$3" "$work/new" || true
        if diff -r "$work/old" "$work/new" >"$work/diff.txt"; then
            echo "run-examples: identical outputs (stdout, stderr, exit codes, files) for both binaries"
            rm -rf "$work"
        else
            head -50 "$work/diff.txt"
            echo "run-examples: outputs differ (full diff and both runs in $work)" >&2
            exit 1
        fi
        ;;
    ""|-h|--help) usage ;;
    *)
        [ $# -eq 2 ] || usage
        run_all "$1" "$2"
        ;;
esac
