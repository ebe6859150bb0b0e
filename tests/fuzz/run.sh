#!/usr/bin/env bash
# Fuzzes every target for a bounded time from the checked-in seed corpus (CI: 60 s each).
#   tests/fuzz/run.sh BUILD_DIR [SECONDS]
# A crash, a sanitizer finding or a failed property ends the run with status 1 and leaves the input
# as BUILD_DIR/fuzz-artifacts/TARGET-crash-*; add it to tests/fuzz/corpus/TARGET once it is fixed.
set -uo pipefail
build=$1
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
status=0
for target in report_json cli size; do
  work=$(mktemp -d)
  "$build/tests/fuzz/$target" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$target-" "$work" "$here/corpus/$target" >"$artifacts/$target.log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$artifacts/$target.log")
  echo "fuzz $target: ${runs:-?} executions in ${seconds} s, exit $rc"
  if [ $rc -ne 0 ]; then
    status=1
    tail -40 "$artifacts/$target.log"
  fi
  rm -rf "$work"
done
exit $status
