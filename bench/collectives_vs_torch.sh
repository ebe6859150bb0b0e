#!/usr/bin/env bash
# gpuscale's allreduce busbw beside torch.distributed.all_reduce's (NCCL backend) at nccl-tests sizes
# (8 B .. 1 GiB, x4), on $NP GPUs (default 2). Also: the wall time of the full seven-op sweep (target
# < 60 s), and the 8-byte allreduce latency with and without CUDA graphs.
#   GPUSCALE=build/launch/gpuscale OUT=/tmp/bench bench/collectives_vs_torch.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
GPUSCALE=${GPUSCALE:-build/launch/gpuscale}
out=${OUT:-$(mktemp -d)}
np=${NP:-2}
mkdir -p "$out"
mpi=(mpirun --allow-run-as-root -np "$np" -x NCCL_NVLS_ENABLE=0)

start=$(date +%s.%N)
"${mpi[@]}" "$GPUSCALE" collectives -b 8 -e 1G -f 4 --json "$out/gpuscale.json" >"$out/gpuscale.txt" 2>"$out/gpuscale.err"
sweep_s=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
"${mpi[@]}" "$GPUSCALE" collectives --ops allreduce -b 8 -e 8 -n 200 -w 20 -G 10 --scaling-sizes none --pair-bytes 0 \
  --json "$out/lat_graph.json" >"$out/lat_graph.txt" 2>&1
"${mpi[@]}" -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29531 python3 "$here/torch_allreduce.py" \
  --min-bytes 8 --max-bytes $((1 << 30)) --factor 4 --json "$out/torch.json" >"$out/torch.txt" 2>&1

python3 - "$out" "$sweep_s" <<'PY'
import json, sys
out, sweep_s = sys.argv[1], sys.argv[2]
g = json.load(open(f"{out}/gpuscale.json"))
t = json.load(open(f"{out}/torch.json"))
ar = next(s for s in g["collectives"]["sweeps"] if s["op"] == "allreduce")
torch_by_size = {r["size_bytes"]: r for r in t["rows"]}
lat = json.load(open(f"{out}/lat_graph.json"))["collectives"]["sweeps"][0]["headline"]
print(f"allreduce float sum, {ar['ranks']} ranks; gpuscale (median of slowest rank) vs torch {t['torch']} "
      f"(NCCL {t['nccl']}, mean of 20 between events)")
print(f"{'size(B)':>12} {'gpuscale busbw':>15} {'torch busbw':>12} {'ratio':>6}")
for r in ar["rows"]:
    tb = torch_by_size.get(r["size_bytes"], {}).get("busbw_gbps")
    gb = r["out_of_place"]["busbw_gbps"]
    ratio = f"{gb / tb:6.3f}" if tb else "     -"
    print(f"{r['size_bytes']:>12} {gb:15.2f} {tb if tb is not None else float('nan'):12.2f} {ratio}")
h = ar["headline"]
print(f"peak busbw {h['peak_busbw_gbps']:.1f} GB/s at {h['peak_size_bytes']} B; link {h['link']} "
      f"{(h['link_gbps'] or 0):.0f} GB/s ({(h['peak_percent_of_link'] or 0):.1f}%)")
print(f"8 B allreduce latency (median of 200, slowest rank): {lat['latency_stream_s'] * 1e6:.2f} us stream, "
      f"{lat['latency_graph_s'] * 1e6:.2f} us CUDA graph")
print(f"full 7-op sweep 8 B..1 GiB x4 (+ env, scaling, pairs): {sweep_s} s wall; verdict "
      f"{g['verdict']['result']}")
PY
