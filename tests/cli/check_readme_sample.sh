#!/usr/bin/env bash
# The README's sample outputs are what the command prints today: each fenced block that starts with
# "$ gpusched ..." is run (standard output only) and compared line by line with the lines below it.
# Usage: check_readme_sample.sh GPUSCHED README
set -u
exe=$1 readme=$2
status=0 count=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
awk -v dir="$dir" '
    /^```/ { if (inblock) { inblock = 0; close(out) } else { inblock = 1; first = 1 } ; next }
    inblock && first { first = 0; if ($0 ~ /^\$ gpusched /) { n++; out = dir "/sample" n; sub(/^\$ gpusched /, ""); print > (out ".cmd"); out = out ".expected" ; printf "" > out } else out = ""; next }
    inblock && out != "" { print >> out }
' "$readme"
for cmd in "$dir"/sample*.cmd; do
    [ -e "$cmd" ] || break
    count=$((count + 1))
    read -r -a words <"$cmd"
    "$exe" "${words[@]}" >"${cmd%.cmd}.actual" 2>/dev/null
    if diff -u "${cmd%.cmd}.expected" "${cmd%.cmd}.actual" >"${cmd%.cmd}.diff"; then
        echo "ok: gpusched $(cat "$cmd")"
    else
        echo "FAIL: README sample 'gpusched $(cat "$cmd")' differs from the command's output:"
        cat "${cmd%.cmd}.diff"
        status=1
    fi
done
[ "$count" -gt 0 ] || { echo "FAIL: no '\$ gpusched' sample block in $readme"; exit 1; }
exit "$status"
