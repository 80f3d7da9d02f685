#!/usr/bin/env bash
# scripts/test.sh (what CI runs) ends with every README line and --help example run exactly as written on run.sh's Release build/, which run.sh --gpusched-only makes in a fresh clone.
# Usage: check-setup-as-written.sh REPOSITORY
set -u
repo=$1
fail() { echo "FAIL: $*"; exit 1; }
test_sh=$repo/scripts/test.sh
# The check on build/ without --sanitized (so `validate DATA_DIR` runs over every section), after ctest.
line=$(grep -nE '^[[:space:]]*bash tests/examples/check-as-written\.sh build( |$)' "$test_sh") ||
    fail "scripts/test.sh does not run tests/examples/check-as-written.sh on build/"
[[ $line != *--sanitized* ]] || fail "scripts/test.sh runs the check on build/ with --sanitized: not as written"
ctest_line=$(grep -nE '^ctest ' "$test_sh" | head -1 | cut -d: -f1)
[ -n "$ctest_line" ] && [ "${line%%:*}" -gt "$ctest_line" ] || fail "scripts/test.sh runs the check on build/ before ctest"
grep -qE '\[ -f build/CMakeCache\.txt \] \|\| bash scripts/run\.sh --gpusched-only' "$test_sh" ||
    fail "scripts/test.sh does not make build/ with scripts/run.sh --gpusched-only in a fresh clone"
# run.sh's option: accepted, documented, and a wrong one is refused before anything is installed or built.
grep -q -- '--gpusched-only) rest=false' "$repo/scripts/run.sh" || fail "scripts/run.sh has no --gpusched-only"
out=$(bash "$repo/scripts/run.sh" --help) || fail "scripts/run.sh --help exited $?"
[[ $out == *--gpusched-only* ]] || fail "scripts/run.sh --help does not describe --gpusched-only"
err=$(bash "$repo/scripts/run.sh" --bogus 2>&1 >/dev/null); code=$?
[ "$code" -eq 2 ] && [[ $err == *"--bogus"* ]] || fail "scripts/run.sh --bogus: exit $code, '$err' (expected 2 naming it)"
echo "ok: scripts/test.sh runs every README line as written on run.sh's build/ (made by run.sh --gpusched-only when absent)"
