#!/usr/bin/env bash
# A deadline that passes mid-training on 3 ranks (`gpuscale train`, the phase alone): the error path
# unwinds the DDP trainer while a bucket allreduce of the comm stream may still be in flight. The job
# must end with a line naming the rank and op (exit 3) or pass (exit 0), never crash: the roll call
# keeps MPI progressing, and a freed bucket that MPI still writes into ended a rank with SIGSEGV
# (exit 139).
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for t in env=60,train=1 env=60,train=0.6; do
  timeout 200 "$MPIEXEC" -n 3 "$GPUSCALE" train --device cpu --quiet --timeout "$t" --json "$out/run.json" \
    >"$out/log" 2>&1
  rc=$?
  if grep -q "Segmentation\|Signal: 11" "$out/log" || { [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; }; then
    echo "FAIL: --timeout $t exited $rc"; grep -v "^\[.*\] \[" "$out/log" | head -20; exit 1
  fi
done
echo "timeout_unwind: ok"
