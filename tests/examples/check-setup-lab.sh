#!/usr/bin/env bash
# The README's set-up gives the build its examples run a lab page: README.md's `G=./DIR/apps/gpusched` names DIR, scripts/run.sh builds DIR, and scripts/test.sh configures DIR with the lab and builds its page.
# Usage: check-setup-lab.sh REPOSITORY
set -u
repo=$1
fail() { echo "FAIL: $*"; exit 1; }
g=$(grep -m1 -oE '^G=\./[A-Za-z0-9_.-]+/apps/gpusched' "$repo/README.md") || fail "README.md sets no G=./DIR/apps/gpusched"
dir=${g#G=./}
dir=${dir%/apps/gpusched}
grep -qE "cmake -S \. -B $dir( |$)" "$repo/scripts/run.sh" || fail "scripts/run.sh does not configure $dir/, the README's examples' build"
grep -qE "cmake -S \. -B $dir -DGPUSCHED_LAB=ON" "$repo/scripts/test.sh" ||
    fail "scripts/test.sh does not configure $dir/ with -DGPUSCHED_LAB=ON: the README's \$G lab line would find no page"
grep -qE "cmake --build $dir .*--target [^#]*lab_page" "$repo/scripts/test.sh" ||
    fail "scripts/test.sh does not build $dir/'s lab_page"
grep -qE "^\\\$G lab --out " "$repo/README.md" || fail "README.md has no \$G lab line (this check is about it)"
echo "ok: the README's set-up builds $dir/ (scripts/run.sh) and its lab page (scripts/test.sh)"
