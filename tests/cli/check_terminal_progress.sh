#!/usr/bin/env bash
# Long commands show their progress on a terminal only: under a pseudo-terminal (script(1)) validate
# and calibrate draw a progress line on stderr and erase it; piped, their stderr has no such line.
# Usage: check_terminal_progress.sh GPUSCHED REPO_DIR CLI_DATA_DIR
set -u
exe=$1 repo=$2 data=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v script >/dev/null || { echo "script(1) not installed: nothing to check"; exit 0; }
cd "$data" || exit 1

# on_terminal EXPECTED ARGS...: the command's output on a pseudo-terminal holds EXPECTED and the
# erasing sequence (carriage return, clear to end of line); piped, stderr holds neither.
on_terminal() {
    local expected=$1; shift
    local tty
    tty=$(script -qefc "$(printf '%q ' "$exe" "$@")" /dev/null) || fail "$* failed on a terminal"
    [[ $tty == *"$expected"* ]] || fail "$*: no '$expected' on a terminal"
    [[ $tty == *$'\r\033[K'* ]] || fail "$*: the progress line is not erased"
    local err
    err=$("$exe" "$@" 2>&1 >/dev/null) || fail "$* failed piped"
    [[ $err != *"$expected"* ]] || fail "$*: progress drawn off a terminal: $err"
}

on_terminal "gpusched validate: section 1 of 2: placement" validate "$repo/validation/data/h100" --sections placement,series
on_terminal "gpusched calibrate series: simulation 1 " calibrate series --data calibrate_series_small.csv
echo "ok"
