#!/usr/bin/env bash
# Runs adversarial command-line cases (tests/adversarial/*.cases) with a time and memory limit each; docs/testing.md.
#   tests/adversarial/run_cases.sh GPUSCHED SOURCE_DIR WORK_DIR CASES_FILE...
#   Cases named in tests/adversarial/pending.txt (behaviour being fixed elsewhere; one line each:
#   NAME | who | what happens now -> what should) are skipped; ADVERSARIAL_PENDING=1 runs them too,
#   and ADVERSARIAL_PENDING=only runs only them. ADVERSARIAL_LIST=1 lists the cases, running nothing;
#   ADVERSARIAL_TIMES=FILE appends each case's wall time in ms to FILE.
# A .cases file is bash, sourced here. Set up the next case's folder, then state the case:
#   file NAME TEXT        a file NAME holding TEXT (printf %b: \n, \t, \x00 escapes)
#   copy NAME PATH        a copy of PATH ($SRC is the source tree, $DATA tests/cli/data)
#   edited NAME PATH SED  a copy of PATH edited by the sed script SED
#   big NAME BYTES LINE   a file of BYTES bytes: LINE repeated on lines of its own ('' for one line of 'a's)
#   generated NAME CMD    a file NAME holding what the shell command CMD prints
#   link NAME TARGET      a symbolic link NAME -> TARGET
#   folder NAME           an empty folder NAME
#   fifo NAME             a named pipe nobody writes to
#   fifo_endless NAME     a named pipe an endless writer (yes) fills while the case runs
#   fifo_late NAME PATH   a named pipe that PATH is written to one second after the case starts
#   kept NAME             NAME (a file or link set up above) must be byte-identical afterwards
#   expect NAME CODE REGEX ARG...   run `gpusched ARG...` in the folder; exit CODE (0 or 2), stderr
#                                   matching the extended REGEX ('' for any), never a crash or signal;
#                                   CODE `wait`: still waiting (for a pipe's writer) after 3 s, then stopped
# Limits per case: ADVERSARIAL_TIMEOUT seconds (default 20) and ADVERSARIAL_MAX_RSS_MB of peak
# resident memory (default 1024), measured with /usr/bin/time (installed by scripts/install-deps.sh)
# and, under AddressSanitizer, also enforced by its hard_rss_limit_mb (ulimit -v would break ASan).
set -u
if [ $# -lt 4 ]; then
  echo "usage: $0 GPUSCHED SOURCE_DIR WORK_DIR CASES_FILE..." >&2
  exit 2
fi
GPUSCHED=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
DATA=$SRC/tests/cli/data
WORK=$3
shift 3
timeout_s=${ADVERSARIAL_TIMEOUT:-20}
max_rss_mb=${ADVERSARIAL_MAX_RSS_MB:-1024}
# Under AddressSanitizer, freed memory waits in a quarantine (256 MB by default, to catch uses after
# free) that counts in the resident memory the limit measures; 64 MB keeps the check and leaves the
# limit to the program's own memory (the Release build's peaks are in docs/performance.md, "Memory").
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=$max_rss_mb:quarantine_size_mb=64"
time_cmd=()
[ -x /usr/bin/time ] && time_cmd=(/usr/bin/time -q -f %M -o)
[ ${#time_cmd[@]} -gt 0 ] || echo "note: /usr/bin/time is missing; peak memory is not measured (scripts/install-deps.sh installs it)"

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
setup=()      # commands preparing the next case's folder
kept_names=() # files that must be byte-identical afterwards
declare -A pending_cases=()
while IFS='|' read -r pending_name pending_rest; do
  pending_name=${pending_name//[[:space:]]/}
  [ -n "$pending_name" ] && [[ $pending_name != \#* ]] && pending_cases[$pending_name]=$pending_rest
done < "$(dirname "$0")/pending.txt"
ran=0 failed=0 skipped=0 listed=0
failures=""

file() { setup+=("printf '%b' $(printf '%q' "$2") > $(printf '%q' "$1")"); }
copy() { setup+=("cp $(printf '%q' "$2") $(printf '%q' "$1")"); }
edited() { setup+=("sed -e $(printf '%q' "$3") $(printf '%q' "$2") > $(printf '%q' "$1")"); }
big() {
  if [ -n "$3" ]; then setup+=("{ yes -- $(printf '%q' "$3") || true; } | head -c $2 > $(printf '%q' "$1")")
  else setup+=("head -c $2 /dev/zero | tr '\\0' a > $(printf '%q' "$1")"); fi
}
generated() { setup+=("$2 > $(printf '%q' "$1")"); }
link() { setup+=("ln -s $(printf '%q' "$2") $(printf '%q' "$1")"); }
folder() { setup+=("mkdir -p $(printf '%q' "$1")"); }
fifo() { setup+=("mkfifo $(printf '%q' "$1")"); }
fifo_endless() { setup+=("mkfifo $(printf '%q' "$1")" "ENDLESS $1"); }
fifo_late() { setup+=("mkfifo $(printf '%q' "$1")" "LATE $1 $2"); }
kept() { kept_names+=("$1"); }

fail_case() {  # fail_case NAME WHY
  failed=$((failed + 1))
  failures+="FAILED $1: $2"$'\n'
  echo "FAILED $1: $2"
}

expect() {
  local name=${1//[^A-Za-z0-9._+-]/_} code=$2 regex=$3
  shift 3
  local reason=${pending_cases[$name]:-}
  local -a steps=("${setup[@]}") keep=("${kept_names[@]}")
  setup=() kept_names=()
  if [ -n "${ADVERSARIAL_LIST:-}" ]; then
    listed=$((listed + 1))
    echo "$name exit=$code command=$1${reason:+ PENDING:$reason}"
    return
  fi
  if { [ -n "$reason" ] && [ -z "${ADVERSARIAL_PENDING:-}" ]; } ||
     { [ -z "$reason" ] && [ "${ADVERSARIAL_PENDING:-}" = only ]; }; then
    [ -z "$reason" ] || skipped=$((skipped + 1))
    return
  fi
  ran=$((ran + 1))
  local dir=$WORK/$name writers=()
  rm -rf "$dir" && mkdir -p "$dir"
  local step
  for step in "${steps[@]}"; do
    if [[ $step == "ENDLESS "* ]]; then
      (cd "$dir" && exec yes "endless line 0123456789abcdef" > "${step#ENDLESS }") 2>/dev/null &
      writers+=($!)
    elif [[ $step == "LATE "* ]]; then
      local pipe late_source
      read -r _ pipe late_source <<<"$step"
      (cd "$dir" && sleep 1 && exec cat "$late_source" > "$pipe") 2>/dev/null &
      writers+=($!)
    else
      # In this shell (no fork per step): the steps are plain file commands.
      cd "$dir" && eval "$step" && cd "$WORK" || {
        cd "$WORK"
        kill "${writers[@]}" 2>/dev/null
        fail_case "$name" "setup failed: $step"
        return
      }
    fi
  done
  local f sums=()
  for f in "${keep[@]}"; do sums+=("$(cd "$dir" && sha256sum < "$f")"); done
  local rc start=$SECONDS limit=$timeout_s start_ns
  [ -z "${ADVERSARIAL_TIMES:-}" ] || start_ns=$(date +%s%N)
  [ "$code" = wait ] && limit=3
  (cd "$dir" && exec "${time_cmd[@]}" ${time_cmd[@]:+"$WORK/$name.rss"} timeout -k 5 "$limit" \
      "$GPUSCHED" "$@" < /dev/null > "$WORK/$name.out" 2> "$WORK/$name.err")
  rc=$?
  [ -z "${ADVERSARIAL_TIMES:-}" ] || echo "$name $((($(date +%s%N) - start_ns) / 1000000))" >> "$ADVERSARIAL_TIMES"
  # Every writer ends with the case (one still waiting for a reader would hold ctest's output open).
  local w
  for w in "${writers[@]}"; do kill "$w" 2>/dev/null; wait "$w" 2>/dev/null; done
  local err=""
  read -r -d '' -n 4000 err < "$WORK/$name.err"
  if [ "$code" = wait ]; then
    if [ "$rc" -ne 124 ]; then
      fail_case "$name" "exit $rc, expected to be still waiting after ${limit}s: gpusched $* -- stderr: ${err:0:600}"
      return
    fi
    rc=wait
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    fail_case "$name" "no exit within ${timeout_s}s (rc $rc): gpusched $*"
    return
  fi
  if [ "$rc" != "$code" ]; then
    fail_case "$name" "exit $rc, expected $code: gpusched $* -- stderr: ${err:0:600}"
    return
  fi
  if [[ $err =~ AddressSanitizer|LeakSanitizer|runtime\ error:|internal\ error ]]; then
    fail_case "$name" "sanitizer report or internal error: ${err:0:600}"
    return
  fi
  if [ -n "$regex" ] && ! [[ $err =~ $regex ]]; then
    fail_case "$name" "stderr does not match /$regex/: gpusched $* -- stderr: ${err:0:600}"
    return
  fi
  if [ -s "$WORK/$name.rss" ]; then
    local rss_kb
    read -r rss_kb < "$WORK/$name.rss"
    if [[ $rss_kb =~ ^[0-9]+$ ]] && [ "$rss_kb" -gt $((max_rss_mb * 1024)) ]; then
      fail_case "$name" "peak memory $((rss_kb / 1024)) MB over ${max_rss_mb} MB: gpusched $*"
      return
    fi
  fi
  local i
  for i in "${!keep[@]}"; do
    if [ "$(cd "$dir" && sha256sum < "${keep[$i]}")" != "${sums[$i]}" ]; then
      fail_case "$name" "${keep[$i]} changed: gpusched $*"
      return
    fi
  done
  if compgen -G "$dir/.*.tmp-*" >/dev/null; then
    fail_case "$name" "temporary files left behind: gpusched $*"
    return
  fi
  [ $((SECONDS - start)) -le 5 ] || echo "slow: $name took $((SECONDS - start)) s"
  [ -z "$reason" ] || echo "pending case passes now: $name (remove its line from pending.txt)"
  rm -rf "$dir" "$WORK/$name".{out,err,rss}
}

for cases in "$@"; do
  # shellcheck source=/dev/null
  source "$cases"
done
if [ -n "${ADVERSARIAL_LIST:-}" ]; then
  echo "$listed cases"
  exit 0
fi
echo "adversarial: $ran cases run, $failed failed, $skipped pending (not run)"
[ "$failed" -eq 0 ] || { printf '%s' "$failures"; exit 1; }
