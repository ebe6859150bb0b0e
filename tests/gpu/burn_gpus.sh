#!/usr/bin/env bash
# Every visible GPU gets a rank and runs `gpuscale burn --burn-s 5`: per rank a sustained bf16 figure
# that a healthy H100/H200-class GPU cannot miss by far, windows over the whole burn, NVML samples
# with clocks and throttle shares, and output hashes alike on every GPU of one model.
set -euo pipefail
source "$(dirname "$0")/gpus.sh"
out=$(results_dir)
n=$(visible_gpus)
"$MPIEXEC" -n "$n" -x NCCL_NVLS_ENABLE=0 "$GPUSCALE" burn --burn-s 5 --json "$out/burn_gpus.json" >"$out/burn_gpus.txt"
python3 - "$out/burn_gpus.json" "$n" <<'PY'
import json, sys
d, n = json.load(open(sys.argv[1])), int(sys.argv[2])
recs = d["burn"]
assert len(recs) == n, len(recs)
for r in recs:
    assert r["sustained_tflops"] > 100, r["sustained_tflops"]
    assert 5.0 <= r["elapsed_s"] < 6.0, r["elapsed_s"]
    assert len(r["windows"]) >= 20 and min(w["tflops"] for w in r["windows"]) > 0, r["windows"]
    assert r["telemetry_unavailable"] == "", r["telemetry_unavailable"]
    assert len(r["samples"]) >= 40, len(r["samples"])
    assert r["clock_p50_mhz"] and r["peak_temperature_c"], r
    assert set(r["throttle_share"]) == {"sw_power_cap", "hw_slowdown", "sw_thermal", "hw_thermal", "hw_power_brake"}
    assert len(r["output_hashes"]) == 3 and len(set(r["output_hashes"])) == 1, r["output_hashes"]
    assert r["algorithm"] == "cublasGemmEx default", r["algorithm"]
by_model = {}
for r in recs:
    by_model.setdefault(r["gpu"], set()).add(r["output_hashes"][-1])
assert all(len(h) == 1 for h in by_model.values()), by_model
assert not [c for c in d["checks"] if c["id"] == "gpu-wrong-result"], d["checks"]
PY
sed -n '/^== Burn:/,/^== Checks/p' "$out/burn_gpus.txt"
echo "burn_gpus: ok ($n GPUs)"
