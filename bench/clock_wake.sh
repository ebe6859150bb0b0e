#!/usr/bin/env bash
# Does a short `gpuscale compute` time its calls at the GPU's working clock? After a long idle an H200
# sits at 345 MHz; the default conv's calls (15-80 us) are few and far between in such a run. Runs the
# default conv (fp16, bf16) after 15 s of idle with --warmup-ms 0, 30 and 100, then the graph API's
# first plan (cuDNN's heuristic as PyTorch's default takes it) and the exhaustive search, with
# nvidia-smi sampling the SM clock every 20 ms; prints per run the passes' median us and the clock.
# What it found was not the clock but the launch-bound probe (workloads/ComputeBench.cpp, fixed in
# de992c6): on an H200 every row reads 14-18 us now, 70-100 before (docs/PERFORMANCE.md, eleventh session).
#   GPUSCALE=build/launch/gpuscale OUT=/tmp/wake bench/clock_wake.sh
set -uo pipefail
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
nvidia-smi -i 0 -lms 20 -f "$out/clocks.csv" --format=csv --query-gpu=timestamp,clocks.sm,power.draw & smi=$!
run() {  # NAME IDLE_S ARGS...
  local name=$1 idle=$2; shift 2
  sleep "$idle"
  local t0; t0=$(date +%s.%N)
  "$GPUSCALE" compute --conv 1,256,64,64,256,3,3,1,1,1 --precision fp16,bf16 --quiet --json "$out/$name.json" "$@" \
    >"$out/$name.txt" 2>&1 || echo "$name failed: $(tail -3 "$out/$name.txt")"
  echo "$name $t0 $(date +%s.%N)" >>"$out/windows.txt"
}
run cold-warmup0 15 --warmup-ms 0
run cold-warmup30 15 --warmup-ms 30
run cold-warmup100 15 --warmup-ms 100
run warm-warmup0 0 --warmup-ms 0
run graph1 0 --warmup-ms 100 --cudnn-algo graph --cudnn-plans 1
run exhaustive 0 --warmup-ms 100 --cudnn-algo exhaustive
sleep 0.5; kill $smi
python3 - "$out" "$(dirname "$0")" <<'PY'
import json, sys
out = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from sustained_clocks import samples  # the nvidia-smi log: (unix s, MHz, W)
log = [(t, mhz) for t, mhz, _ in samples(f"{out}/clocks.csv")]
print(f"{'run':<16} {'prec':<5} {'fwd us':>7} {'bwd_d us':>8} {'bwd_w us':>8}  {'MHz min/med':>11}  fwd algorithm")
for line in open(f"{out}/windows.txt"):
    name, a, b = line.split()
    mhz = sorted(c for t, c in log if float(a) <= t <= float(b)) or [0]
    try:
        records = json.load(open(f"{out}/{name}.json"))["compute"]
    except (OSError, ValueError, KeyError):
        continue
    by = {}
    for r in records:
        if r["rank"] == 0 and not r["skipped_reason"]:
            by.setdefault(r["precision"], {})[r["pass"]] = r
    for prec, p in sorted(by.items()):
        us = [p[k]["time_s"]["median"] * 1e6 if k in p else 0 for k in ("fwd", "bwd_data", "bwd_weight")]
        print(f"{name:<16} {prec:<5} {us[0]:7.1f} {us[1]:8.1f} {us[2]:8.1f}  {mhz[0]:5.0f}/{mhz[len(mhz)//2]:<5.0f}  "
              f"{p['fwd']['algorithm']}")
PY
