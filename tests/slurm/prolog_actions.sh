#!/usr/bin/env bash
# launch/gpuscale-prolog.sh acts on gpuscale's exit code: 0 runs the job, 1/3/hang drain the node and
# fail the prolog, 2/4 leave the node in service. gpuscale, mpirun and scontrol are stubs that record
# how they were called.
set -euo pipefail
prolog=${1:?usage: prolog_actions.sh PROLOG}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$out/bin"
cat >"$out/bin/gpuscale" <<'STUB'
#!/bin/sh
echo "gpuscale $*" >>"$STUB_LOG"
[ "$STUB_RC" = hang ] && exec sleep 30
exit "$STUB_RC"
STUB
cat >"$out/bin/mpirun" <<'STUB'
#!/bin/sh
echo "mpirun $* SLURM_JOB_ID=${SLURM_JOB_ID:-unset} CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset}" >>"$STUB_LOG"
while [ $# -gt 0 ] && [ "$1" != "$GPUSCALE" ]; do shift; done
exec "$@"
STUB
cat >"$out/bin/scontrol" <<'STUB'
#!/bin/sh
echo "scontrol $*" >>"$STUB_LOG"
STUB
chmod +x "$out/bin/"*

run_prolog() {  # run_prolog GPUSCALE_RC WANTED_PROLOG_RC WANT_DRAIN(yes|no)
  local rc=0
  : >"$out/calls"
  env PATH="$out/bin:$PATH" STUB_LOG="$out/calls" STUB_RC="$1" GPUSCALE="$out/bin/gpuscale" \
    GPUSCALE_EXPECT=/etc/expect.json GPUSCALE_LOG_DIR="$out/log" GPUSCALE_PROLOG_TIMEOUT=2 \
    SLURM_JOB_ID=77 SLURMD_NODENAME=gpu-node-3 SLURM_JOB_GPUS=0,1 bash "$prolog" || rc=$?
  [ "$rc" -eq "$2" ] || fail "gpuscale exit $1: prolog exited $rc, wanted $2 ($(cat "$out/calls"))"
  grep -q "^mpirun .*-np 2 .*SLURM_JOB_ID=unset CUDA_VISIBLE_DEVICES=0,1" "$out/calls" \
    || fail "mpirun not called with the job's 2 GPUs and without SLURM_*: $(cat "$out/calls")"
  grep -q "^gpuscale --quick --device cuda --quiet --require-complete --expect /etc/expect.json --json $out/log/prolog-77.json" "$out/calls" \
    || fail "gpuscale not called as a quick preflight: $(cat "$out/calls")"
  if [ "$3" = yes ]; then
    grep -q "^scontrol update NodeName=gpu-node-3 State=DRAIN Reason=gpuscale prolog job 77" "$out/calls" \
      || fail "gpuscale exit $1: node not drained: $(cat "$out/calls")"
  elif grep -q "^scontrol" "$out/calls"; then
    fail "gpuscale exit $1: node drained but should stay in service"
  fi
}

run_prolog 0 0 no
run_prolog 1 1 yes
run_prolog 3 1 yes
run_prolog hang 1 yes
run_prolog 2 0 no
run_prolog 4 0 no
echo "prolog_actions: ok"
