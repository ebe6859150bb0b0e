#!/usr/bin/env bash
# The node's 4 emulated GPUs, as Slurm hands them out: --gpus-per-task=1 gives each task its own GPU
# (distinct CUDA_VISIBLE_DEVICES), --gpus-per-node=4 shows all four to every task. gpuscale must record
# exactly what each task was given.
source "$(dirname "$0")/common.sh"
bounded srun --immediate=30 -n 4 -O --gpus-per-task=1 --mpi=pmix "$GPUSCALE" env --device cpu --quiet \
  --timeout 60 --json "$out/per_task.json" >/dev/null
bounded srun --immediate=30 -n 4 -O --gpus-per-node=4 --mpi=pmix "$GPUSCALE" env --device cpu --quiet \
  --timeout 60 --json "$out/per_node.json" >/dev/null
python3 - "$out/per_task.json" "$out/per_node.json" <<'PY'
import json, sys
per_task, per_node = (json.load(open(f))["ranks"] for f in sys.argv[1:3])
cvd = [r["variables"].get("CUDA_VISIBLE_DEVICES") for r in per_task]
assert sorted(cvd) == ["0", "1", "2", "3"], f"--gpus-per-task=1: CUDA_VISIBLE_DEVICES {cvd}"
assert [r["slurm"]["gpus"] for r in per_task] == cvd, "Slurm's per-task GPUs not recorded"
assert all(r["slurm"]["gpus_on_node"] == 4 and r["slurm"]["gpus_per_task"] == "1" for r in per_task), [r["slurm"] for r in per_task]
cvd = {r["variables"].get("CUDA_VISIBLE_DEVICES") for r in per_node}
assert cvd == {"0,1,2,3"}, f"--gpus-per-node=4: CUDA_VISIBLE_DEVICES {cvd}"
assert all(r["slurm"]["gpus_per_task"] == "4" for r in per_node), "every task sees the node's 4 GPUs"
assert sorted(r["local_rank"] for r in per_node) == [0, 1, 2, 3], "local ranks (the GPU choice) are not 0..3"
PY
echo "slurm_srun_gpu_binding: ok"
