#!/usr/bin/env bash
# Runs every command line of README.md's code blocks and every example of every `gpusched ... --help` exactly as written, as a newcomer in a fresh clone would (ctest examples.as_written).
#   tests/examples/check-as-written.sh BUILD_DIR [--sanitized] [--no-lab] [--no-python] [--python-preload LIBS]
#                                      [--readme FILE] [--no-help]
#
# BUILD_DIR is the build under test (its apps/gpusched, python/ and lab/page). A scratch directory
# stands in for the clone after the README's set-up: every tracked file of the repository is copied
# there but validation/'s measurements (48 MB, linked, read only by the lines), `build` links to BUILD_DIR
# (so `G=./build/apps/gpusched` and `export PYTHONPATH=$PWD/build/python` run as written) and
# `gpusched` on PATH is BUILD_DIR's. All lines run in order in one shell, so later lines read the files
# earlier ones wrote and variables persist: README.md's from top to bottom, then the help examples of
# `gpusched --help` and of each command and subcommand in the order --help lists them (a line already
# run by an earlier help page is not run again).
#
# What a command line is: in a ```sh block, every line that is not blank or only a comment (a trailing
# backslash joins the next line); in any other block, a line starting with "$ " (a shell prompt, run
# without it). In --help output: every line of the Examples section that starts with "gpusched ".
#
# Every line must exit 0, except a line meant to fail: it ends with the comment `# fails: FRAGMENT`
# and must exit 2 (bad input) with FRAGMENT in its standard error. A line also fails when it writes
# into a file or folder of the clone but validation/ (e.g. an output named like a source folder).
# The rules below look at the command, not at its trailing comment.
#
# Not run, by rule (each listed with its rule when the check runs):
#   set-up:   lines running scripts/run.sh, scripts/test.sh or scripts/install-deps.sh: the set-up
#             builds and tests, this check included (a user runs them once, before everything else)
#   cuda:     lines that need CUDA or a GPU: naming nvcc, /usr/local/cuda, gpusched-runner or
#             gpusched-record (scripts/test.sh builds and checks those when nvcc is found)
#   no-lab:   with --no-lab only (a build configured without -DGPUSCHED_LAB=ON has no lab page):
#             `gpusched lab` lines; scripts/test.sh builds the lab, so CI runs them
#   no-python: with --no-python only (a build without pybind11 has no Python module): lines running
#             python3; scripts/install-deps.sh installs pybind11, so CI runs them
#
# --python-preload LIBS: LD_PRELOAD for lines that run python3 (a sanitizer build's module needs the
# ASan runtime loaded first). --readme FILE checks another file (the self-test); --no-help runs no
# --help example (the self-test; the sanitizer build's ctest, since scripts/test.sh runs them as written
# on run.sh's Release build/).
# Run cheaper, with --sanitized only (an ASan + UBSan build, CI's): `validate DATA_DIR` over every section
# (no --sections, --timelines or --trace) takes about 13 CPU-minutes there (sssp, trace-only, whatif and
# curves: 400, 200, 130 and 28 s of CPU; about 2 minutes of CPU in all in a Release build), so it runs as
# written plus `--sections FAST_SECTIONS` (the nine others, seconds each) and is listed as "cheaper";
# scripts/test.sh then runs this check on run.sh's Release build/, where it runs exactly as written
# (as does scripts/test.sh --plain's ctest on its Release build).
# Lines listed in tests/examples/as-written-pending.txt (each with its reason) are reported as pending
# while they fail; one that runs, or that nothing prints any more, fails the check (so the list only shrinks).
# A failure names the line (file and line number, or the help page and its line), the exit code and
# the tail of its standard error. Exit 0: every line as expected; 1: some line not; 2: bad usage.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)

usage() { sed -n '3,4p' "$0" | sed 's/^#   //' >&2; exit 2; }
[ $# -ge 1 ] || usage
build=$1; shift
sanitized=false lab=true python=true help=true readme=$repo/README.md preload=""
while [ $# -gt 0 ]; do
    case $1 in
        "") ;;  # an option CMake left empty
        --sanitized) sanitized=true ;;
        --no-lab) lab=false ;;
        --no-python) python=false ;;
        --no-help) help=false ;;
        --readme) [ $# -ge 2 ] || usage; readme=$2; shift ;;
        --python-preload) [ $# -ge 2 ] || usage; preload=$2; shift ;;
        *) echo "check-as-written: unknown option '$1'" >&2; usage ;;
    esac
    shift
done
[ -x "$build/apps/gpusched" ] || { echo "check-as-written: BUILD_DIR '$build' has no apps/gpusched" >&2; exit 2; }
[ -f "$readme" ] || { echo "check-as-written: --readme: no file '$readme'" >&2; exit 2; }
build=$(cd "$build" && pwd)
readme=$(cd "$(dirname "$readme")" && pwd)/$(basename "$readme")
exe=$build/apps/gpusched

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scratch=$work/clone lines=$work/lines
mkdir -p "$scratch" "$lines" "$work/bin"
ln -s "$exe" "$work/bin/gpusched"

# The clone: validation/ linked (read by the lines), copies of the rest (so a write into them is seen).
ln -s "$repo/validation" "$scratch/validation"
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$repo" && git ls-files -z | grep -zvE '^validation/' | xargs -0 cp --parents -t "$scratch")
else
    for e in "$repo"/* "$repo"/.[!.]*; do
        case $(basename "$e") in validation|build*|.git) ;; *) cp -r "$e" "$scratch/" ;; esac
    done
fi
ln -s "$build" "$scratch/build"

# readme_lines FILE: "LINE_NUMBER<TAB>COMMAND" for each command line of FILE's code blocks.
readme_lines() {
    awk '
        function emit(text) {
            if (lang ~ /^(sh|bash|shell|console)$/) {
                if (text ~ /^[ \t]*(#|$)/) return
                print start "\t" text
            } else if (text ~ /^\$ /) print start "\t" substr(text, 3)
        }
        /^```/ && pending == "" { if (inblock) inblock = 0; else { inblock = 1; lang = substr($0, 4) } ; next }
        inblock {
            text = $0
            if (pending != "") { sub(/^[ \t]+/, "", text); text = pending " " text } else start = NR
            if (text ~ /\\$/) { pending = substr(text, 1, length(text) - 1); sub(/[ \t]+$/, "", pending); next }
            pending = ""
            emit(text)
        }' "$1"
}

# help_lines WORDS...: "LINE_NUMBER<TAB>COMMAND" for each example of `gpusched WORDS --help`.
help_lines() {
    "$exe" "$@" --help 2>&1 | awk '
        /^Examples/ { on = 1; next }
        on {
            text = $0
            if (pending != "") { sub(/^[ \t]+/, "", text); text = pending " " text } else start = NR
            if (text ~ /\\$/) { pending = substr(text, 1, length(text) - 1); sub(/[ \t]+$/, "", pending); next }
            pending = ""
            if (text ~ /^ +gpusched /) { sub(/^ +/, "", text); print start "\t" text }
        }'
}

# subcommands WORDS...: the names under "Subcommands:" in `gpusched WORDS --help`.
subcommands() {
    "$exe" "$@" --help 2>&1 | awk '/^Subcommands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'
}

# The validate sections that take seconds under the sanitizers (all but sssp, trace-only, whatif and curves).
fast_sections=placement,concurrency,series,spmv,streamcluster,apsp-timelines,h200,clusters,partitions

# The list of lines to run: N.cmd (the line), N.where (where it is written), N.rule (why it is not run),
# N.expect (the fragment of a line meant to fail), N.run (what runs instead of a heavy line).
count=0
add_line() {
    local where=$1 text=$2 n rule="" command
    command=${text%%[[:space:]]#*}  # the rules read the command, not its comment
    count=$((count + 1))
    n=$(printf '%03d' "$count")
    printf '%s\n' "$text" >"$lines/$n.cmd"
    printf '%s\n' "$where" >"$lines/$n.where"
    if [[ $command =~ scripts/(run|test|install-deps)\.sh ]]; then rule=set-up
    elif [[ $command =~ nvcc|/usr/local/cuda|gpusched-runner|gpusched-record ]]; then rule=cuda
    elif ! $lab && [[ $command =~ (gpusched|\$G)\ lab(\ |$) ]]; then rule=no-lab
    elif ! $python && [[ $command =~ python3 ]]; then rule=no-python
    fi
    [ -z "$rule" ] || printf '%s\n' "$rule" >"$lines/$n.rule"
    if $sanitized && [[ ! $command =~ --sections|--timelines|--trace ]] &&
        [[ $command =~ (gpusched|\$G)\ validate\ +validation/data/[a-z0-9]+ ]]; then
        local whole=${BASH_REMATCH[0]}
        printf '%s\n' "${text/"$whole"/"$whole --sections $fast_sections"}" >"$lines/$n.run"
    fi
    if [[ $text =~ \#[[:space:]]*fails:[[:space:]]*(.*[^[:space:]])[[:space:]]*$ ]]; then
        printf '%s\n' "${BASH_REMATCH[1]}" >"$lines/$n.expect"
    elif [[ $text =~ \#[[:space:]]*fails: ]]; then
        printf '%s\n' "a '# fails:' marker without the message it expects" >"$lines/$n.bad"
    fi
}

readme_name=${readme#"$repo"/}
while IFS=$'\t' read -r number text; do
    add_line "$readme_name:$number" "$text"
done < <(readme_lines "$readme")

if $help; then
    declare -A seen=()
    pages=("")
    while IFS= read -r command; do
        pages+=("$command")
        while IFS= read -r sub; do pages+=("$command $sub"); done < <(subcommands "$command")
    done < <(subcommands)
    for page in "${pages[@]}"; do
        # shellcheck disable=SC2086  # the page's words
        examples=$(help_lines $page)
        [ -n "$examples" ] || { echo "FAIL: gpusched $page --help has no example line (an Examples section with 'gpusched ...' lines)"; exit 1; }
        while IFS=$'\t' read -r number text; do
            [ -z "${seen[$text]:-}" ] || continue
            seen[$text]=1
            add_line "gpusched ${page:+$page }--help, line $number" "$text"
        done <<<"$examples"
    done
fi

# The runner: one shell for every line, in order, in the clone; each line's output, exit code, time and
# any file it wrote into the clone's own files and folders.
clone_entries=()
for e in "$scratch"/* "$scratch"/.[!.]*; do
    case $(basename "$e") in build|validation) ;; *) [ -e "$e" ] && clone_entries+=("$e") ;; esac
done
{
    echo 'cd "$__gs_scratch" || exit 1'
    cat <<'RUNNER'
__gs_run() {
    local __gs_n=$1 __gs_start
    echo "running $__gs_n: $(<"$__gs_lines/$__gs_n.where")"  # where a run cut off by a time limit was
    touch "$__gs_lines/$__gs_n.stamp"
    __gs_start=$(date +%s%N)
    if [ "$2" = python ] && [ -n "$__gs_preload" ]; then
        (export LD_PRELOAD=$__gs_preload ASAN_OPTIONS=detect_leaks=0; eval "$(<"$__gs_lines/$__gs_n.$3")") \
            >"$__gs_lines/$__gs_n.out" 2>"$__gs_lines/$__gs_n.err" </dev/null
    else
        eval "$(<"$__gs_lines/$__gs_n.$3")" >"$__gs_lines/$__gs_n.out" 2>"$__gs_lines/$__gs_n.err" </dev/null
    fi
    echo $? >"$__gs_lines/$__gs_n.rc"
    echo $(( ($(date +%s%N) - __gs_start) / 1000000 )) >"$__gs_lines/$__gs_n.ms"
    find -H "${__gs_entries[@]}" -newer "$__gs_lines/$__gs_n.stamp" -not -type d -print 2>/dev/null | head -5 >"$__gs_lines/$__gs_n.wrote"
}
RUNNER
    for ((i = 1; i <= count; i++)); do
        n=$(printf '%03d' "$i")
        [ -e "$lines/$n.rule" ] && continue
        kind=plain
        grep -q 'python3' "$lines/$n.cmd" && kind=python
        source=cmd
        [ -e "$lines/$n.run" ] && source=run
        echo "__gs_run $n $kind $source"
    done
} >"$work/runner.sh"
__gs_entries=$(printf '%q ' "${clone_entries[@]}")
env __gs_scratch="$scratch" __gs_lines="$lines" __gs_preload="$preload" PATH="$work/bin:$PATH" \
    bash -c "__gs_entries=($__gs_entries); source '$work/runner.sh'"

# The verdict, line by line.
pending_file=$repo/tests/examples/as-written-pending.txt
declare -A pending=() pending_seen=()
if [ -f "$pending_file" ]; then
    while IFS= read -r entry; do
        [[ -z $entry || $entry == \#* ]] || pending[$entry]=1
    done <"$pending_file"
fi
failed=0 ran=0 skipped=0 total_ms=0 waiting=0
for ((i = 1; i <= count; i++)); do
    n=$(printf '%03d' "$i")
    cmd=$(<"$lines/$n.cmd") where=$(<"$lines/$n.where")
    if [ -e "$lines/$n.rule" ]; then
        echo "not run ($(<"$lines/$n.rule")): $where: $cmd"
        skipped=$((skipped + 1))
        continue
    fi
    if [ ! -e "$lines/$n.rc" ]; then
        echo "FAIL: $where: did not run (an earlier line ended the shell): $cmd"
        failed=1
        continue
    fi
    ran=$((ran + 1))
    rc=$(<"$lines/$n.rc") ms=$(<"$lines/$n.ms")
    total_ms=$((total_ms + ms))
    problem=""
    if [ -e "$lines/$n.bad" ]; then
        problem=$(<"$lines/$n.bad")
    elif [ -e "$lines/$n.expect" ]; then
        expect=$(<"$lines/$n.expect")
        if [ "$rc" -ne 2 ]; then problem="exit $rc, but the line is marked to fail with exit 2 ('$expect')"
        elif ! grep -qF -- "$expect" "$lines/$n.err"; then problem="exit 2 as marked, but its standard error lacks '$expect'"
        fi
    elif [ "$rc" -ne 0 ]; then
        problem="exit $rc"
    fi
    if [ -z "$problem" ] && [ -s "$lines/$n.wrote" ]; then
        problem="it wrote into the clone's own files: $(sed "s|^$scratch/||" "$lines/$n.wrote" | tr '\n' ' ')"
    fi
    if [ -n "${pending[$cmd]:-}" ]; then
        pending_seen[$cmd]=1
        if [ -n "$problem" ]; then
            echo "pending ($problem; tests/examples/as-written-pending.txt): $where: $cmd"
            waiting=$((waiting + 1))
        else
            echo "FAIL: $where: runs as written now: remove it from tests/examples/as-written-pending.txt: $cmd"
            failed=1
        fi
        continue
    fi
    if [ -n "$problem" ]; then
        echo "FAIL: $where: $problem: $cmd"
        [ ! -e "$lines/$n.run" ] || echo "  (cheaper, --sanitized: ran $(<"$lines/$n.run"))"
        if [ -s "$lines/$n.err" ]; then
            echo "  standard error (last 15 lines):"
            tail -15 "$lines/$n.err" | sed 's/^/    /'
        fi
        failed=1
    else
        printf 'ok (%d.%03d s): %s: %s\n' $((ms / 1000)) $((ms % 1000)) "$where" "$cmd"
        [ ! -e "$lines/$n.run" ] || echo "  cheaper (--sanitized): ran $(<"$lines/$n.run")"
    fi
done
if $help; then
    for entry in "${!pending[@]}"; do
        [ -n "${pending_seen[$entry]:-}" ] ||
            { echo "FAIL: tests/examples/as-written-pending.txt lists a line nothing prints any more: $entry"; failed=1; }
    done
fi
echo "check-as-written: $ran lines run in $((total_ms / 1000)) s ($waiting of them pending), $skipped not run by rule, $((count - ran - skipped)) not run at all"
[ "$ran" -gt 0 ] || { echo "FAIL: no line ran"; failed=1; }
[ "$failed" -eq 0 ] && echo "ok: every line ran as written and ended as expected"
exit "$failed"
