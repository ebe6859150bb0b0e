#!/usr/bin/env bash
# srun -n 4 --mpi=pmix: one MPI world of 4 srun tasks, launcher srun, the Slurm job and step recorded,
# SLURM_PROCID/SLURM_LOCALID equal to MPI's rank and local rank.
source "$(dirname "$0")/common.sh"
bounded srun --immediate=30 -n 4 -O --mpi=pmix "$GPUSCALE" env --device cpu --quiet --timeout 60 \
  --json "$out/env.json" >"$out/console.txt"
check_env "$out/env.json" --ranks 4 --launcher srun --srun-task yes
grep -q "^Launch: srun | Slurm job [0-9]* step 0" "$out/console.txt" || fail "console has no launch line: $(cat "$out/console.txt")"
echo "slurm_srun_env: ok"
