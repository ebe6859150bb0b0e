#!/usr/bin/env bash
# `train --device cpu` under mpiexec with NP ranks (first argument, default 2; the second lists the
# models, default mlp,cnn): single, DDP over 1..NP ranks and DP over host "devices" all run; every correctness check passes (bitwise-equal DDP gradients,
# DDP = DP = single on the same global batch, accumulation = a K-times batch, bf16 allreduce within
# tolerance); then a corrupted gradient on one rank (test seam) fails the verdict with exit code 1.
set -euo pipefail
np=${1:-2}
models=${2:-mlp,cnn}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
shape=(--depth 3 --width 8 --batch 4 --iters 2 --warmup 1 --scaling both --timeout 60)
args=(train --device cpu --model "$models" --precision fp32 "${shape[@]}")
"$MPIEXEC" -n "$np" "$GPUSCALE" "${args[@]}" --json "$out/train.json" >"$out/console.txt"
python3 - "$out/train.json" "$np" "$models" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); np = int(sys.argv[2]); models = sys.argv[3].split(",")
t = d["train"]
assert d["phases_completed"] == ["env", "train"], d["phases_completed"]
names = {(c["name"], c["config"]) for c in t["checks"]}
for cfg in (m + " fp32" for m in models):
    for n in ("ddp-gradients-bitwise-equal", "ddp-matches-single", "ddp-accum-matches-batch",
              "ddp-compressed-gradients", "dp-matches-single", "ddp-step-updates-every-bucket"):
        assert (n, cfg) in names, (n, cfg, names)
bad = [c for c in t["checks"] if not c["passed"]]
assert not bad, bad
recs = t["records"]
by = {}
for r in recs:
    assert r["skipped_reason"] == "", r
    by.setdefault(r["strategy"], []).append(r)
    assert r["step_s"]["median"] > 0 and r["samples_per_s"] > 0, r
    assert len(r["step_samples_s"]) == 2
sizes = sorted({r["gpus"] for r in by["ddp"]})
assert sizes[-1] == np and sizes[0] == 1, sizes
big = [r for r in by["ddp"] if r["gpus"] == np and r["scaling"] == "weak"][0]
assert len(big["ranks"]) == np and big["comm_s"] is not None and big["compute_s"] is not None, big
assert big["efficiency"] is not None and big["buckets"] >= 1
assert all(len(r["ranks"]) == np for r in by["single"])
dp = [r for r in by["dp"] if r["scaling"] == "weak" and r["model"] == "mlp"]
assert sorted(r["gpus"] for r in dp) == list(range(1, max(2, np) + 1)), [r["gpus"] for r in dp]
assert all(r["dp"] is not None and r["dp"]["broadcast_s"] >= 0 for r in dp)
assert {r["scaling"] for r in by["ddp"]} == {"weak", "strong"}
assert d["verdict"]["passed"], d["verdict"]
PY
grep -q "== Training: correctness ==" "$out/console.txt"
# bf16 compute with fp32 master weights: the cast, ReLU and SGD twins on half-precision data.
"$MPIEXEC" -n "$np" "$GPUSCALE" train --device cpu --model mlp --precision bf16 --depth 3 --width 8 --batch 4 --iters 1 \
  --warmup 0 --strategy ddp --gpus "$np" --accum 2 --grad-dtype bf16 --timeout 60 --json "$out/bf16.json" >/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"]["passed"] and len(d["train"]["checks"]) == 6, d["train"]["checks"]' "$out/bf16.json"
# bf16 on the wire with bf16 compute and one micro-step: the GEMMs write the bf16 buckets, SGD reads them.
# An SM margin for the backward GEMMs (cuBLASLt's; the CPU layers ignore it) reaches every DDP record.
"$MPIEXEC" -n "$np" "$GPUSCALE" train --device cpu --model mlp --precision bf16 --depth 3 --width 8 --batch 4 --iters 2 \
  --warmup 1 --strategy ddp --gpus "$np" --grad-dtype bf16 --comm-sm-margin 8 --timeout 60 \
  --json "$out/bf16_wire.json" >/dev/null
python3 - "$out/bf16_wire.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"]["passed"], d["verdict"]
checks = {c["name"]: c for c in d["train"]["checks"]}
assert checks["ddp-compressed-step-updates-every-bucket"]["passed"], checks
ddp = [r for r in d["train"]["records"] if r["strategy"] == "ddp" and r["grad_dtype"] == "bf16"]
assert ddp and all(r["step_s"]["median"] > 0 for r in ddp), ddp
assert all(r["comm_sm_margin"] == 8 for r in ddp), [r["comm_sm_margin"] for r in ddp]
PY
grep -q "== Training: DP-style phases on device 0 ==" "$out/console.txt"
grep -q "Verdict: PASS" "$out/console.txt"
# The time-based warm-up (--warmup-ms): DDP's ranks agree on one step count before timing (a count
# that differed between ranks would leave one rank's allreduces unmatched: a timeout, not a pass).
"$MPIEXEC" -n "$np" "$GPUSCALE" train --device cpu --model mlp --precision fp32 --depth 3 --width 8 --batch 4 \
  --iters 2 --warmup 0 --warmup-ms 40 --scaling weak --no-check --timeout 60 --json "$out/settled.json" >/dev/null
python3 - "$out/settled.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["train"]["records"]
assert d["verdict"]["passed"], d["verdict"]
assert {x["strategy"] for x in r} == {"single", "dp", "ddp"} and all(x["step_s"]["median"] > 0 for x in r), r
PY

# Fault injection: rank 1's gradients are perturbed before the checks.
set +e
GPUSCALE_TEST_CORRUPT_GRADS_RANK=1 "$MPIEXEC" -x GPUSCALE_TEST_CORRUPT_GRADS_RANK -n "$np" "$GPUSCALE" train --device cpu \
  "${shape[@]}" --model mlp --precision fp32 --strategy ddp --json "$out/bad.json" >"$out/bad.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat "$out/bad.txt"; echo "expected exit 1, got $rc"; exit 1; }
python3 - "$out/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
failed = {c["name"] for c in d["train"]["checks"] if not c["passed"]}
assert {"ddp-gradients-bitwise-equal", "ddp-matches-single"} <= failed, failed
assert any(c["id"] == "train-ddp-gradients-bitwise-equal" and c["severity"] == "error" for c in d["checks"])
assert not d["verdict"]["passed"]
PY
echo "train cpu: ok"
