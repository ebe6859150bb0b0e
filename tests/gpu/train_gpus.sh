#!/usr/bin/env bash
# One rank per visible GPU: `gpuscale train` on the defaults (mlp and cnn, fp32 and bf16; single, DDP
# over 1..N ranks, DP over 1..N GPUs of rank 0) with the correctness checks, then the other presets
# and the DDP options (buckets in NCCL window memory, an SM margin for the backward GEMMs among them). Every check passes, every configuration is measured; the tables are printed.
# On one GPU the ranks (two, and four for a last DDP run) share it on emulated nodes (GPUSCALE_TEST_SHARE_GPU):
# the same checks hold, DP runs over the one GPU rank 0 sees.
set -euo pipefail
source "$(dirname "$0")/gpus.sh"
out=$(results_dir)
n=$(at_least_two)
launch_ranks "$n"
run() { "${mpi[@]}" "$GPUSCALE" train "$@"; }
run --iters 5 --warmup 2 --json "$out/train_gpus.json" >"$out/train_gpus.txt"
run --model resnet50,transformer --precision bf16 --strategy single,ddp --iters 5 --warmup 2 \
  --json "$out/train_presets.json" >"$out/train_presets.txt"
run --model mlp --precision bf16 --strategy ddp --gpus "$n" --grad-dtype bf16 --accum 2 --h2d --comm-priority both \
  --comm-sm-margin 32 --iters 10 --json "$out/train_options.json" >"$out/train_options.txt"
run --precision fp32,bf16 --strategy ddp --gpus "$n" --comm-buffers window --comm-ctas 64 --iters 5 --warmup 2 \
  --json "$out/train_window.json" >"$out/train_window.txt"
n4=$(( $(visible_gpus) >= 4 ? $(visible_gpus) : 4 ))
launch_ranks "$n4"
run --model mlp --precision bf16 --strategy single,ddp --iters 5 --warmup 2 --json "$out/train_ddp4.json" \
  >"$out/train_ddp4.txt"
python3 - "$out" "$n" "$n4" <<'PY'
import json, sys
out, n, n4 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ddp4 = json.load(open(f"{out}/train_ddp4.json"))
assert {r["gpus"] for r in ddp4["train"]["records"] if r["strategy"] == "ddp" and not r["skipped_reason"]} >= {2, n4}, \
    [(r["strategy"], r["gpus"], r["skipped_reason"]) for r in ddp4["train"]["records"]]
assert ddp4["train"]["checks"] and all(c["passed"] for c in ddp4["train"]["checks"]), ddp4["train"]["checks"]
print(f"  DDP over {n4} ranks: {len(ddp4['train']['checks'])} gradient checks passed")
window = [r for r in json.load(open(f"{out}/train_window.json"))["train"]["records"] if r["strategy"] == "ddp"]
assert window and all(r["comm_buffers"] == "window" and r["comm_ctas"] == 64 for r in window), window
options = [r for r in json.load(open(f"{out}/train_options.json"))["train"]["records"] if r["strategy"] == "ddp"]
assert options and all(r["comm_sm_margin"] == 32 for r in options), [r["comm_sm_margin"] for r in options]
for name in ("train_gpus", "train_presets", "train_options", "train_window", "train_ddp4"):
    d = json.load(open(f"{out}/{name}.json"))
    t = d["train"]
    bad = [c for c in t["checks"] if not c["passed"]]
    assert not bad, (name, bad)
    assert t["checks"], name
    for r in t["records"]:
        assert r["skipped_reason"] == "" or r["strategy"] == "dp", (name, r["strategy"], r["skipped_reason"])
    assert not [c for c in d["checks"] if c["severity"] == "error"], (name, d["checks"])
d = json.load(open(f"{out}/train_gpus.json"))
strategies = {r["strategy"] for r in d["train"]["records"]}
assert strategies == {"single", "ddp", "dp"}, strategies
# --comm-ctas auto (train's default): every DDP configuration over 2+ ranks timed both candidates.
tuned = [r for r in d["train"]["records"] if r["strategy"] == "ddp" and r["gpus"] > 1]
assert all(sorted(c for c, _ in r["comm_ctas_trials"]) == [0, 64] and r["comm_ctas"] == r["comm_ctas_trials"][0][0]
           for r in tuned), [(r["model"], r["precision"], r["comm_ctas_trials"]) for r in tuned]
PY
cat "$out/train_gpus.txt" "$out/train_options.txt" "$out/train_window.txt"
