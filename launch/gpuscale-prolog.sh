#!/bin/bash
# Example Slurm job prolog (slurm.conf: Prolog=/etc/slurm/gpuscale-prolog.sh; PrologFlags=Alloc runs
# it when the allocation starts). Runs a short gpuscale preflight on this node's GPUs of the job and
# acts on its exit code (--device cuda: a node whose GPUs CUDA cannot use fails, never falls back to
# the CPU):
#   0        ok: the job starts
#   1        verdict failed (a GPU, link or software check, or, with --require-complete, work the job
#            needed that the preflight did not measure): drain the node, fail the prolog (Slurm
#            requeues the job elsewhere)
#   3        runtime error (CUDA, NCCL or MPI broke): the node's GPU stack is broken; drain, fail
#   124/137  the preflight hung past its time limit: drain, fail
#   2        bad usage (this prolog or the expect file is wrong, not the node): log, let the job run
#   4, other interrupted, or gpuscale could not start: log, let the job run
# Settings (environment, or edit the defaults): GPUSCALE (binary), GPUSCALE_EXPECT (thresholds file;
# unset and /etc/gpuscale/expect.json absent: `auto`, the installed template of the node's GPU model
# for --quick), GPUSCALE_LOG_DIR (one JSON and one log per job), GPUSCALE_PROLOG_TIMEOUT (seconds).
set -uo pipefail

gpuscale=${GPUSCALE:-/opt/gpuscale/bin/gpuscale}
expect=${GPUSCALE_EXPECT:-/etc/gpuscale/expect.json}
[ -n "${GPUSCALE_EXPECT:-}" ] || [ -e "$expect" ] || expect=auto
log_dir=${GPUSCALE_LOG_DIR:-/var/log/gpuscale}
limit_s=${GPUSCALE_PROLOG_TIMEOUT:-180}
job=${SLURM_JOB_ID:-unknown}
node=${SLURMD_NODENAME:-$(hostname -s)}
mkdir -p "$log_dir"
log="$log_dir/prolog-$job.log"

# Check only the GPUs Slurm gave this job on this node (all of them where it did not say).
if [ -n "${SLURM_JOB_GPUS:-}" ]; then
  export CUDA_VISIBLE_DEVICES=$SLURM_JOB_GPUS
  gpus=$(tr ',' '\n' <<<"$SLURM_JOB_GPUS" | grep -c .)
else
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
fi
[ "$gpus" -gt 0 ] || gpus=1

# A local run: mpirun must not take the job's SLURM_* variables for an allocation to launch into.
while read -r name; do unset "$name"; done < <(compgen -e | grep '^SLURM_')
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}

timeout -k 10 "$limit_s" mpirun --allow-run-as-root --bind-to none -np "$gpus" -x NCCL_NVLS_ENABLE -x CUDA_VISIBLE_DEVICES \
  "$gpuscale" --quick --device cuda --quiet --require-complete --expect "$expect" --json "$log_dir/prolog-$job.json" >"$log" 2>&1
rc=$?

drain() {
  scontrol update NodeName="$node" State=DRAIN Reason="gpuscale prolog job $job: $1 (see $log)"
  echo "gpuscale prolog: drained $node: $1" >>"$log"
  exit 1
}
case $rc in
  0) exit 0 ;;
  1) drain "verdict failed" ;;
  3) drain "runtime error in CUDA/NCCL/MPI" ;;
  124|137) drain "preflight hung past ${limit_s}s" ;;
  2) echo "gpuscale prolog: bad usage (exit 2): fix the prolog or $expect; node left in service" >>"$log" ;;
  *) echo "gpuscale prolog: gpuscale ended with $rc (interrupted or not started); node left in service" >>"$log" ;;
esac
exit 0
