#!/usr/bin/env bash
# The reliability faults against NCCL on GPUs (2 ranks, one GPU each): tests/mpi/faults.sh with
# DEVICE=cuda. `faults_gpu.sh SCENARIO` runs one; with no argument it runs all and prints a table.
# Needs $GPUSCALE (the binary) and $MPIEXEC (default mpirun); logs and JSON go under $OUT if set.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export DEVICE=cuda NP=${NP:-2} FAULT_TIMEOUT_S=${FAULT_TIMEOUT_S:-10} MPIEXEC=${MPIEXEC:-mpirun} NCCL_NVLS_ENABLE=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OUT=${OUT:-$(mktemp -d)}/faults
if [ $# -gt 0 ]; then exec bash "$here/../mpi/faults.sh" "$1"; fi
failed=0
rows=()
for scenario in stall exit kill9 sigterm sigterm_mpirun corrupt; do
  log=$(bash "$here/../mpi/faults.sh" "$scenario" 2>&1); rc=$?
  echo "$log" >"$OUT/$scenario.log" 2>/dev/null || true
  line=$(echo "$log" | grep -E "^$scenario \(" | tail -1)
  rows+=("$(printf '%-15s %-4s %s' "$scenario" "$([ $rc -eq 0 ] && echo ok || echo FAIL)" "${line#*: }")")
  [ $rc -eq 0 ] || { failed=1; echo "$log" | tail -20; }
done
echo
printf '%-15s %-4s %s\n' scenario ok "mpirun exit status, time from fault to last rank exiting"
printf '%s\n' "${rows[@]}"
exit $failed
