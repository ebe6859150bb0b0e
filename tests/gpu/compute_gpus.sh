#!/usr/bin/env bash
# Every visible GPU gets a rank and runs `gpuscale compute` on the defaults in every precision with
# the reference checks: every record measured, every check passes, TFLOP/s plausible, no straggler
# error. Figures are printed at the end (the table of rank 0).
set -euo pipefail
source "$(dirname "$0")/gpus.sh"
out=$(results_dir)
n=$(visible_gpus)
"$MPIEXEC" -n "$n" -x NCCL_NVLS_ENABLE=0 "$GPUSCALE" compute --precision all --iters 10 \
  --json "$out/compute_gpus.json" >"$out/compute_gpus.txt"
python3 - "$out/compute_gpus.json" "$n" <<'PY'
import json, sys
d, n = json.load(open(sys.argv[1])), int(sys.argv[2])
recs = d["compute"]
assert len(recs) == n * 2 * 4 * 3, len(recs)
for r in recs:
    assert r["skipped_reason"] == "", r["skipped_reason"]
    assert r["check"]["ran"] and r["check"]["passed"], (r["shape"], r["precision"], r["pass"], r["check"])
    assert r["tflops"] > 1, (r["shape"], r["precision"], r["pass"], r["tflops"])
assert not [c for c in d["checks"] if c["severity"] == "error"], d["checks"]
PY
sed -n '/^== Compute:/,/^== Checks/p' "$out/compute_gpus.txt"
echo "compute_gpus: ok ($n GPUs)"
