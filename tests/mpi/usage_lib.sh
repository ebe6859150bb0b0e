# Sourced by the bad-input tests: a temp folder $out (removed at exit), fail, temps, and
#   expect_usage_as_given ARGS...  gpuscale ARGS exits 2 with exactly one line on stderr and leaves no
#                                  temp file in $out (for arguments that name their own outputs);
#   expect_usage ARGS...           the same with --json $out/never.json added, which must not appear;
#   one_line_exit RC ARGS...       gpuscale ARGS exits RC with exactly one line on stderr, printed.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
temps() { ls -A "$out" | grep -c '^\.gpuscale-.*\.tmp$'; }

expect_usage_as_given() {
  local err rc
  err=$("$GPUSCALE" "$@" 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq 2 ] || fail "'$*' exited $rc, wanted 2: $err"
  [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] || fail "'$*' printed more than one line: $err"
  [ "$(temps)" -eq 0 ] || fail "'$*' left a temp file"
}

expect_usage() {
  expect_usage_as_given "$@" --json "$out/never.json"
  [ ! -e "$out/never.json" ] || fail "'$*' wrote a file"
}

one_line_exit() {  # RC ARGS...: runs gpuscale, wants exit RC and exactly one line on stderr
  local want=$1; shift
  local err rc
  err=$("$GPUSCALE" "$@" 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq "$want" ] || fail "'$*' exited $rc, wanted $want: $err"
  [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] || fail "'$*' printed not one line: $err"
  printf '%s\n' "$err"
}
