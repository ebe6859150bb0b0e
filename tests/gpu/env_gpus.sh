#!/usr/bin/env bash
# Every visible GPU gets a rank: distinct UUIDs, every version present, the NCCL smoke allreduce passes.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
source "$here/gpus.sh"
n=$(visible_gpus)
"$MPIEXEC" -n "$n" -x NCCL_NVLS_ENABLE=0 "$GPUSCALE" env --json "$out/env.json" >"$out/console.txt"
python3 - "$out/env.json" "$n" <<'PY'
import json, sys
d, n = json.load(open(sys.argv[1])), int(sys.argv[2])
ranks = d["ranks"]
assert len(ranks) == n
assert len({r["gpu"]["uuid"] for r in ranks}) == n, "ranks share GPUs"
for r in ranks:
    v = r["versions"]
    assert r["backend"] == "cuda"
    assert all(v[k] for k in ("driver", "cuda_runtime", "cublas", "cudnn_library", "nccl_library", "mpi_library")), v
    assert r["smoke_allreduce"]["passed"] and r["smoke_allreduce"]["transport"] == "nccl", r["smoke_allreduce"]
assert d["verdict"]["passed"], d["verdict"]
PY
echo "env_gpus: ok ($n GPUs)"
