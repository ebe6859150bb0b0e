# Sourced by the bad-input tests: a temp folder $out (removed at exit), fail, and expect_usage ARGS...,
# which runs gpuscale and wants exit 2, exactly one line on stderr, and no file written.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

expect_usage() {
  local err rc
  err=$("$GPUSCALE" "$@" --json "$out/never.json" 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq 2 ] || fail "'$*' exited $rc, wanted 2"
  [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] || fail "'$*' printed more than one line: $err"
  [ ! -e "$out/never.json" ] || fail "'$*' wrote a file"
}
