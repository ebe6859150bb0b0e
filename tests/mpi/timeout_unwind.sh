#!/usr/bin/env bash
# A deadline that passes mid-training on 3 ranks (`gpuscale train`, the phase alone): the error path
# unwinds the DDP trainer while a bucket allreduce of the comm stream may still be in flight. The job
# must end with a line naming the rank and op (exit 3) or pass (exit 0), never crash: the roll call
# keeps MPI progressing, and a freed bucket that MPI still writes into ended a rank with SIGSEGV
# (exit 139). A deadline must really fire in at least one of the runs (the CPU backend's training
# takes seconds), else the test proves nothing about the unwind, and fails.
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fired=0
for t in env=60,train=1 env=60,train=0.6; do
  rm -f "$out/run.json"
  timeout 200 "$MPIEXEC" -n 3 "$GPUSCALE" train --device cpu --quiet --timeout "$t" --json "$out/run.json" \
    >"$out/log" 2>&1
  rc=$?
  if grep -q "Segmentation\|Signal: 11" "$out/log" || { [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; }; then
    echo "FAIL: --timeout $t exited $rc"; grep -v "^\[.*\] \[" "$out/log" | head -20; exit 1
  fi
  [ "$rc" -eq 3 ] || continue
  # The failure the JSON keeps names the rank, the deadline and the phase and op it cut.
  python3 - "$out/run.json" "$t" <<'PY' || exit 1
import json, re, sys
failure = json.load(open(sys.argv[1])).get("failure") or {}
message = failure.get("message", "")
if failure.get("exit_code") != 3 or not re.search(r"\[rank \d+ .*timed out.*\(phase train, op \w+", message):
    sys.exit("FAIL: --timeout %s exited 3 without a timeout naming rank, phase and op: %s" % (sys.argv[2], failure))
PY
  fired=$((fired + 1))
done
[ "$fired" -ge 1 ] || { echo "FAIL: no deadline fired in either run: the unwind was not exercised"; exit 1; }
echo "timeout_unwind: ok ($fired of 2 runs ended on their deadline)"
