#!/usr/bin/env bash
# Node health on a real GPU.
#   health_gpu.sh tenancy: a second process of the project's own (`gpuscale burn`, sustained bf16 GEMMs)
#     computes on GPU 0; `gpuscale env` on that GPU exits 1 with gpu-in-use naming its PID, and the
#     GPU phases of `gpuscale --quick` are skipped but its burn, which runs beside the other process.
#   health_gpu.sh shared: two ranks on one GPU (CUDA_VISIBLE_DEVICES=0): `gpuscale --quick` exits 1 with
#     the verdict FAIL, duplicate-gpu, every later phase skipped, and no NCCL error.
set -euo pipefail
scenario=${1:?tenancy or shared}
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
other=""
trap '[ -n "$other" ] && kill "$other" 2>/dev/null; rm -rf "$out"' EXIT
export CUDA_VISIBLE_DEVICES=0

expect_exit() {  # CODE LOG COMMAND...
  local want=$1 log=$2
  shift 2
  set +e
  "$@" >"$log" 2>&1
  local code=$?
  set -e
  [ "$code" -eq "$want" ] || { echo "FAIL: exit $code, wanted $want: $*"; tail -30 "$log"; exit 1; }
}

case "$scenario" in
  tenancy)
    "$GPUSCALE" burn --burn-s 120 --quiet >"$out/other.txt" 2>&1 &
    other=$!
    for _ in $(seq 60); do  # until its GEMMs run (NVML's utilization of the GPU over 50%)
      busy=$(nvidia-smi -i 0 --query-gpu=utilization.gpu --format=csv,noheader,nounits | tr -dc 0-9)
      [ "${busy:-0}" -gt 50 ] && break
      kill -0 "$other" 2>/dev/null || { echo "FAIL: the second process ended"; cat "$out/other.txt"; exit 1; }
      sleep 1
    done
    [ "${busy:-0}" -gt 50 ] || { echo "FAIL: the GPU never got busy"; cat "$out/other.txt"; exit 1; }
    expect_exit 1 "$out/env.txt" "$GPUSCALE" env --json "$out/env.json"
    python3 - "$out/env.json" "$other" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["checks"] if c["id"] == "gpu-in-use"]
assert c and c[0]["severity"] == "error", d["checks"]
assert f"PID {sys.argv[2]} (gpuscale" in c[0]["message"], c[0]["message"]
t = d["ranks"][0]["tenancy"]
assert t["probed"] and max(t["utilization_pct"]) > 50, t
PY
    expect_exit 1 "$out/quick.txt" "$GPUSCALE" --quick --json "$out/quick.json"
    python3 - "$out/quick.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["phases_completed"] == ["env", "burn"], d["phases_completed"]
assert [s["phase"] for s in d["phases_skipped"]] == ["links", "compute", "collectives", "train"], d["phases_skipped"]
assert d["burn"][0]["sustained_tflops"] > 0, d["burn"]
PY
    ;;
  shared)
    expect_exit 1 "$out/quick.txt" "$MPIEXEC" -n 2 -x CUDA_VISIBLE_DEVICES "$GPUSCALE" --quick --json "$out/quick.json"
    grep -q "Verdict: FAIL" "$out/quick.txt" || { echo "FAIL: no verdict"; tail -30 "$out/quick.txt"; exit 1; }
    if grep -qi "ncclCommInitRank\|NCCL error" "$out/quick.txt"; then echo "FAIL: NCCL ran"; tail -30 "$out/quick.txt"; exit 1; fi
    python3 - "$out/quick.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert any(c["id"] == "duplicate-gpu" and c.get("blocks_gpu_work") == "all" for c in d["checks"]), d["checks"]
assert d["phases_completed"] == ["env"], d["phases_completed"]
assert [s["phase"] for s in d["phases_skipped"]] == ["links", "compute", "burn", "collectives", "train"], d["phases_skipped"]
assert not d["verdict"]["passed"]
assert all(not r["smoke_allreduce"]["ran"] for r in d["ranks"])
PY
    ;;
  *) echo "unknown scenario $scenario"; exit 2 ;;
esac
echo "health_gpu $scenario: ok"
