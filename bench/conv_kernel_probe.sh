#!/usr/bin/env bash
# Which kernels gpuscale's conv search and torch's cudnn.benchmark end up running, each timed alone by
# ncu (clocks left alone): does gpuscale trail torch on a conv row because it chose a slower kernel, or
# with the same kernel because of how the GPU's clock sits under each side's load?
#   GPUSCALE=build/launch/gpuscale PREC=bf16 LAYOUT=nhwc bench/conv_kernel_probe.sh    (GPU with ncu)
# Prints, per side, every kernel's name with its ncu duration (mean over its launches, launches).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
command -v ncu >/dev/null || { echo "ncu is not on the PATH"; exit 2; }
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
prec=${PREC:-bf16} layout=${LAYOUT:-nhwc} conv=${CONV:-32,256,56,56,256,3,3,1,1,1}
profile() {  # NAME CMD... : every kernel's name and duration, summed per name
  local name=$1; shift
  timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --print-units base --csv --page raw "$@" \
    >"$out/$name.csv" 2>"$out/$name.err" || { echo "$name: ncu failed"; tail -3 "$out/$name.err"; }
  python3 - "$out/$name.csv" "$name" <<'EOF'
import csv, collections, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))]
times = collections.defaultdict(list)
for r in rows[1:]:  # the first row after the header holds the units
    try:
        times[r["Kernel Name"]].append(float(r["gpu__time_duration.sum"].replace(",", "")))
    except (KeyError, ValueError):
        sys.exit(f"unexpected ncu csv row: {r}")
print(f"== {sys.argv[2]}: {len(rows) - 1} kernels profiled (mean us, launches, name)")
for name, t in sorted(times.items(), key=lambda kv: -sum(kv[1]))[:14]:
    print(f"  {sum(t) / len(t) / 1e3:9.1f} {len(t):4d}  {name[:150]}")
EOF
}
for algo in ${ALGOS:-exhaustive graph find}; do
  profile "gs_$algo" "$GPUSCALE" compute --device cuda --precision "$prec" --conv "$conv" --layout "$layout" \
    --cudnn-algo "$algo" --iters 10 --warmup 2 --warmup-ms 0 --quiet --no-check --json "$out/gs_$algo.json"
  python3 -c "import json,sys; [print(f\"   gs $algo {r['pass']}: {r['algorithm']}\")
 for r in json.load(open(sys.argv[1]))['compute']]" "$out/gs_$algo.json" 2>/dev/null
done
profile torch python3 - "$here" "$prec" "$layout" "$conv" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import compute_vs_torch as c
n, ch, h, w, k, r, s, stride, pad, _ = (int(v) for v in sys.argv[4].split(","))
c.CONV = dict(n=n, c=ch, h=h, w=w, k=k, r=r, s=s, stride=stride, pad=pad)
c.ITERS, c.WARMUP_S = 10, 0  # ncu serialises every launch: no second-long warm-up under it
fwd, fwd_bwd = c.conv_work(sys.argv[2], channels_last=sys.argv[3] == "nhwc")
c.median_s(fwd)
c.median_s(fwd_bwd)
EOF
