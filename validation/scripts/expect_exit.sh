# Shared by the command-line check scripts (sourced): `expect_exit NAME CODE REGEX COMMAND...` runs
# COMMAND, checks its exit code and that stdout+stderr match REGEX, and counts in `checks` and `failures`.
checks=0
failures=0
expect_exit() {
  local name=$1 code=$2 regex=$3
  shift 3
  local text rc
  text=$("$@" 2>&1)
  rc=$?
  checks=$((checks + 1))
  if [ "$rc" -ne "$code" ] || ! grep -Eq -- "$regex" <<<"$text"; then
    echo "FAIL: $name ${*:2} -> exit $rc (expected $code), output:"
    echo "$text" | head -5
    failures=$((failures + 1))
  fi
}
