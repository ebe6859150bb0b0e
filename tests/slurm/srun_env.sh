#!/usr/bin/env bash
# srun -n 4 --mpi=pmix: one MPI world of 4 srun tasks, launcher srun, the Slurm job and step recorded,
# SLURM_PROCID/SLURM_LOCALID equal to MPI's rank and local rank.
source "$(dirname "$0")/common.sh"
bounded srun --immediate=30 -n 4 -O --mpi=pmix "$GPUSCALE" env --device cpu --quiet --timeout 60 \
  --json "$out/env.json" >"$out/console.txt"
check_env "$out/env.json" --ranks 4 --launcher srun --srun-task yes
grep -q "^  launcher srun | Slurm job [0-9]* step 0" "$out/console.txt" || fail "console has no launch line: $(cat "$out/console.txt")"
echo "slurm_srun_env: 4 srun tasks ok"

# The same step as 2 emulated nodes x 2 (test-only override): MPI's nodes differ from Slurm's on
# purpose, so the layout checks must stay quiet while node and local rank follow the emulation.
bounded srun --immediate=30 -n 4 -O --mpi=pmix --export=ALL,GPUSCALE_TEST_RANKS_PER_NODE=2 "$GPUSCALE" env \
  --device cpu --quiet --timeout 60 --json "$out/emulated.json" >/dev/null
python3 - "$out/emulated.json" <<'PY' || fail "emulated nodes under srun"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["world"] == {"size": 4, "nodes": 2, "emulated": {"ranks_per_node": 2, "shared_gpu": False}}, d["world"]
assert [(r["node"], r["local_rank"]) for r in d["ranks"]] == [(0, 0), (0, 1), (1, 0), (1, 1)]
assert not [c for c in d["checks"] if c["id"] in ("slurm-layout-mismatch", "world-size-mismatch")], d["checks"]
assert d["verdict"]["passed"], d["verdict"]
PY
echo "slurm_srun_env: emulated 2x2 ok"
