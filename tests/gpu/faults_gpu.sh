#!/usr/bin/env bash
# The reliability faults against NCCL on GPUs (2 ranks, one GPU each; on one GPU the ranks share it on
# emulated nodes, GPUSCALE_TEST_SHARE_GPU, which faults.sh's mpiexec passes on): tests/mpi/faults.sh with
# DEVICE=cuda. `faults_gpu.sh SCENARIO [PHASE]` runs one; with no argument it runs all (the env-phase
# set, then a stall and a kill -9 inside the collectives phase, a stall inside train and a hung GPU
# stream inside compute) and prints a
# table with the time from each fault to the last rank's exit. The whole script stays under 150 s.
# Needs $GPUSCALE (the binary) and $MPIEXEC (default mpirun); logs and JSON go under $OUT if set.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/gpus.sh"
# Ranks: FAULT_NP (default 2), never a caller's NP: an NP exported for some other command (one rank for a
# report) would leak into these cases and fail them instead of skipping.
# kill2 names rank 2 of 4.
[ "${1:-}" = kill2 ] && FAULT_NP=${FAULT_NP:-4}
export DEVICE=cuda NP=${FAULT_NP:-2} FAULT_TIMEOUT_S=${FAULT_TIMEOUT_S:-10} MPIEXEC=${MPIEXEC:-mpirun} NCCL_NVLS_ENABLE=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OUT=${OUT:-$(mktemp -d)}/faults
have=$(visible_gpus)
[ "$have" -ge 1 ] || { echo "SKIP: needs a GPU, none visible"; exit 77; }
# NCCL refuses two ranks on one GPU of one host: where the GPUs are fewer, each emulated node is a host.
[ "$have" -ge "$NP" ] || export GPUSCALE_TEST_SHARE_GPU=1 GPUSCALE_TEST_RANKS_PER_NODE=$have
if [ $# -gt 0 ]; then exec bash "$here/../mpi/faults.sh" "$@"; fi
mkdir -p "$OUT"
started=$(date +%s.%N)
failed=0
rows=()
for case in "stall env" "exit env" "kill9 env" "sigterm env" "sigterm_mpirun env" "teardown env" "corrupt env" \
            "stall collectives" "kill9 collectives" "stall train" "hang compute"; do
  read -r scenario phase <<<"$case"
  name=$scenario$([ "$phase" = env ] || echo "_$phase")
  log=$(bash "$here/../mpi/faults.sh" "$scenario" "$phase" 2>&1); rc=$?
  echo "$log" >"$OUT/$name.log" 2>/dev/null || true
  line=$(echo "$log" | grep -E "^$name \(" | tail -1)
  rows+=("$(printf '%-20s %-4s %s' "$name" "$([ $rc -eq 0 ] && echo ok || echo FAIL)" "${line#*: }")")
  [ $rc -eq 0 ] || { failed=1; echo "$log" | tail -20; }
done
total=$(python3 -c "print(f'{$(date +%s.%N) - $started:.1f}')")
python3 -c "import sys; sys.exit(0 if $total < 150 else 1)" || { echo "FAIL: the script took $total s (limit 150)"; failed=1; }
echo
printf '%-20s %-4s %s\n' scenario ok "mpirun exit status, time from fault to last rank exiting"
printf '%s\n' "${rows[@]}"
echo "total ${total} s (limit 150 s), --timeout ${FAULT_TIMEOUT_S} s"
exit $failed
