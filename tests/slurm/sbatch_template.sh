#!/usr/bin/env bash
# sbatch --wait of launch/gpuscale.sbatch, shrunk to this node (1 node, 4 tasks, 4 emulated GPUs) and
# run on the CPU backend: the results file is named by the job id and holds that job's 4 srun tasks,
# each given its own GPU. sbatch has no --immediate: on timeout the job is cancelled.
source "$(dirname "$0")/common.sh"
template=$GPUSCALE_SOURCE_DIR/launch/gpuscale.sbatch
rc=0
(cd "$out" && GPUSCALE=$GPUSCALE GPUSCALE_RESULTS=$out/results bounded sbatch --wait --parsable \
  --job-name=gpuscale-ci --nodes=1 --ntasks-per-node=4 --gpus-per-node=4 --cpus-per-task=1 -O \
  --time=00:05:00 --output="$out/job-%j.out" "$template" env --device cpu --quiet --timeout 60 >"$out/sbatch.txt") || rc=$?
job=$(head -1 "$out/sbatch.txt" | cut -d';' -f1)
if [ "$rc" -ne 0 ]; then
  [ -z "$job" ] || scancel "$job" 2>/dev/null || true
  fail "sbatch exited $rc (job '${job}'): $(cat "$out"/job-*.out 2>/dev/null)"
fi
[ -n "$job" ] || fail "sbatch printed no job id"
[ -s "$out/results/gpuscale-$job.json" ] || fail "no results/gpuscale-$job.json; job output: $(cat "$out"/job-*.out)"
check_env "$out/results/gpuscale-$job.json" --ranks 4 --launcher srun --srun-task yes --job-id "$job"
# The template's per-task GPU binding: each task was given its own GPU.
python3 - "$out/results/gpuscale-$job.json" <<'PY' || fail "the template did not give each task its own GPU"
import json, sys
cvd = sorted(r["variables"].get("CUDA_VISIBLE_DEVICES", "-") for r in json.load(open(sys.argv[1]))["ranks"])
assert cvd == ["0", "1", "2", "3"], cvd
PY
echo "slurm_sbatch_template: ok (job $job)"
