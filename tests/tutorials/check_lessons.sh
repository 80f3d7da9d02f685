#!/usr/bin/env bash
# Runs every lesson's checked commands and verifies each quoted number, then regenerates the pictures.
#
# Usage: check_lessons.sh GPUSCHED SOURCE_DIR WORK_DIR
#
# A lesson (docs/tutorials/*.md, README.md excepted) marks each number it quotes with
#   <!-- check: ARGS ==> REGEX -->
# ARGS is a gpusched command line (split on blanks, no quoting, run in SOURCE_DIR, stdout only);
# REGEX is an extended regular expression that some line of that output must match. The number the
# text quotes right before the comment (on the same line) must appear in REGEX (backslashes removed).
# The test fails when a lesson has no check, when a command exits non-zero, when a regex matches no
# line, when a quoted number is not the checked one, or when docs/tutorials/make-pictures.sh does not
# reproduce the committed pictures byte for byte.
set -u
bin=$1
src=$2
work=$3
lessons_dir="$src/docs/tutorials"
failures=0
checks=0
declare -A output_of

rm -rf "$work"
mkdir -p "$work"

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

commands_run=0
run_cached() {  # sets out_file to the stdout of `gpusched ARGS`, running each distinct command once
  local args=$1
  if [[ -z ${output_of[$args]+set} ]]; then
    commands_run=$((commands_run + 1))
    out_file="$work/out.$commands_run"
    local -a words
    read -r -a words <<< "$args"
    if ! (cd "$src" && "$bin" "${words[@]}" > "$out_file" 2> "$out_file.err"); then
      fail "gpusched $args exited non-zero: $(tail -n 3 "$out_file.err")"
    fi
    output_of[$args]=$out_file
  fi
  out_file=${output_of[$args]}
}

for lesson in "$lessons_dir"/*.md; do
  [[ $(basename "$lesson") == README.md ]] && continue
  lesson_checks=0
  while IFS= read -r line; do
    prose=${line%%<!-- check: *}
    spec=${line#*<!-- check: }
    spec=${spec%% -->*}
    args=${spec%% ==> *}
    regex=${spec#* ==> }
    if [[ $args == "$spec" ]]; then
      fail "$(basename "$lesson"): check without ' ==> ': $spec"
      continue
    fi
    case " $args " in
      *" --out "*|*" --svg "*|*" --csv "*|*" --gantt "*|*" --trace "*|*" --timeline "*)
        fail "$(basename "$lesson"): a check must not write files: $args"; continue ;;
    esac
    quoted=$(grep -oE '[0-9]+(\.[0-9]+)?' <<< "$prose" | tail -n 1)
    if [[ -n $quoted && ${regex//\\/} != *"$quoted"* ]]; then
      fail "$(basename "$lesson"): the number $quoted before a check is not in its regex /$regex/"
    fi
    checks=$((checks + 1))
    lesson_checks=$((lesson_checks + 1))
    run_cached "$args"
    if ! grep -Eq -- "$regex" "$out_file"; then
      fail "$(basename "$lesson"): no line of 'gpusched $args' matches /$regex/"
    fi
  done < <(sed 's/-->/-->\n/g' "$lesson" | grep '<!-- check: .* -->')
  if (( lesson_checks == 0 )); then
    fail "$(basename "$lesson") quotes no checked number"
  fi
  echo "$(basename "$lesson"): $lesson_checks checks"
done

# The pictures: regenerated from the script, they must equal the committed ones.
if ! bash "$lessons_dir/make-pictures.sh" "$bin" "$work/img" > "$work/pictures.log" 2>&1; then
  fail "make-pictures.sh failed: $(tail -n 5 "$work/pictures.log")"
elif ! diff -r -q "$lessons_dir/img" "$work/img"; then
  fail "docs/tutorials/img differs from what make-pictures.sh draws (rerun it and commit)"
fi

echo "$checks checked numbers from $commands_run commands, $failures failures"
(( failures == 0 ))
