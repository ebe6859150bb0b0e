#!/usr/bin/env bash
# The start-up line says what runs: under mpiexec -n 2 on the cpu backend, the --quick run's and a
# collectives sweep's line equals what their JSON records (tests/mpi/plan_line_lib.sh). The default
# run is checked the same way in report_commands.sh, which runs it anyway.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
. "$(dirname "$0")/plan_line_lib.sh"

run() {  # run NAME ARGS...
  local name=$1; shift
  "$MPIEXEC" -n 2 "$GPUSCALE" "$@" --device cpu --timeout 60 --json "$out/$name.json" >"$out/$name.txt" \
    2>"$out/$name.err" || { cat "$out/$name.err"; fail "$name exited $?"; }
  check_plan_line "$out/$name.err" "$out/$name.json" || fail "$name: the start-up line is not what ran"
}

run quick --quick
run sweep collectives -b 8 -e 1M
run sweep-quick collectives --quick -n 3 -w 1 --ops allreduce,broadcast
echo "plan_line: ok"
