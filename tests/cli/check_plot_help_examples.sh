#!/usr/bin/env bash
# `gpusched plot --help`'s examples run as written on the CSV that the README's sweep line writes
# (apsp.csv from examples/sweep-apsp.yaml), as a user following the README would run them.
# Usage: check_plot_help_examples.sh GPUSCHED REPOSITORY
set -u
exe=$1 repo=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
ln -s "$repo/examples" examples
"$exe" sweep examples/sweep-apsp.yaml -j 2 --out apsp.csv >/dev/null 2>sweep.err || { echo "FAIL: the README's sweep: $(cat sweep.err)"; exit 1; }
help=$("$exe" plot --help) || { echo "FAIL: plot --help"; exit 1; }
examples=$(sed -n '/^Examples/,$p' <<<"$help" | sed -e ':a' -e '/\\$/N; s/\\\n */ /; ta' | grep -E '^  +gpusched plot apsp.csv')
[ -n "$examples" ] || { echo "FAIL: plot --help has no example on apsp.csv"; exit 1; }
status=0
while IFS= read -r line; do
    read -r -a words <<<"${line%%[[:space:]]#*}"
    if "$exe" "${words[@]:1}" >out.txt 2>err.txt; then
        echo "ok: $line"
    else
        echo "FAIL: $line: $(cat err.txt)"
        status=1
    fi
done <<<"$examples"
exit "$status"
