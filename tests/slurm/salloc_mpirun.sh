#!/usr/bin/env bash
# salloc -n 4 mpirun: the ranks inherit the allocation's SLURM_* variables (and, inside sbatch, the
# batch script's SLURM_PROCID=0 / SLURM_LOCALID=0). gpuscale must take ranks from MPI, not from them.
source "$(dirname "$0")/common.sh"
bounded salloc --immediate=30 -n 4 -O "$MPIEXEC" -n 4 "$GPUSCALE" env --device cpu --quiet --timeout 60 \
  --json "$out/env.json" >/dev/null
check_env "$out/env.json" --ranks 4 --launcher "mpirun in a Slurm allocation" --srun-task no
echo "slurm_salloc_mpirun: ok"
