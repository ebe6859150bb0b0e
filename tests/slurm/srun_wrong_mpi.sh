#!/usr/bin/env bash
# srun --mpi=none: the tasks cannot form one MPI world. gpuscale must say so in one line and exit 2
# before MPI_Init aborts with pages of text.
source "$(dirname "$0")/common.sh"
rc=0
bounded srun --immediate=30 -n 2 -O --mpi=none "$GPUSCALE" env --device cpu --quiet --timeout 30 \
  >"$out/stdout.txt" 2>"$out/stderr.txt" || rc=$?
grep -v '^srun: error:' "$out/stderr.txt" >"$out/ours.txt" || true
[ "$rc" -eq 2 ] || fail "exit code $rc, wanted 2; stderr: $(cat "$out/stderr.txt")"
[ "$(grep -c . "$out/ours.txt")" -eq 1 ] || fail "wanted one line, got: $(cat "$out/ours.txt")"
grep -q -- "--mpi=pmix" "$out/ours.txt" || fail "the message does not name the fix: $(cat "$out/ours.txt")"
echo "slurm_srun_wrong_mpi: ok"
