#!/usr/bin/env bash
# Usage: GPUSCALE=build/launch/gpuscale [CEILING=build/bench/nccl_ceiling] [NP=2] [REPEAT=5] [OUT=dir] \
#          bench/collectives_vs_torch.sh      (NP GPUs, PyTorch)
# gpuscale's allreduce busbw beside torch.distributed.all_reduce's (NCCL backend) and beside the NCCL
# ceiling (bench/nccl_ceiling: NCCL with no harness, timed both ways) at nccl-tests sizes (8 B .. 1 GiB,
# x4), on $NP GPUs (default 2). torch and gpuscale's allreduce alternate for $REPEAT rounds (default 5)
# and the table compares median with median, so run-to-run noise cannot decide. Also: the wall time of
# the full seven-op sweep (target < 60 s), and the 8-byte allreduce latency with and without CUDA
# graphs. About 4 minutes on 2 GPUs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
GPUSCALE=${GPUSCALE:-build/launch/gpuscale}
CEILING=${CEILING:-$(dirname "$(dirname "$GPUSCALE")")/bench/nccl_ceiling}
out=${OUT:-$(mktemp -d)}
np=${NP:-2}
repeat=${REPEAT:-5}
mkdir -p "$out"
mpi=(mpirun --allow-run-as-root -np "$np" -x NCCL_NVLS_ENABLE=0)

# The references may fail without losing the rest: the table shows "-" and the acceptance FAIL.
torch_run() {  # torch_run NAME
  "${mpi[@]}" -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29531 python3 "$here/torch_allreduce.py" \
    --min-bytes 8 --max-bytes $((1 << 30)) --factor 4 --iters 20 --warmup 5 --json "$out/$1.json" >"$out/$1.txt" 2>&1 ||
    echo "torch run $1 failed: $out/$1.txt"
}
ceiling_run() {  # ceiling_run NAME MPIRUN_ARGS...
  local name=$1; shift
  "${mpi[@]}" "$@" "$CEILING" -b 8 -e 1G -f 4 -n 20 -w 5 --json "$out/$name.json" >"$out/$name.txt" 2>&1 ||
    echo "$name failed: $out/$name.txt"
}

start=$(date +%s.%N)
"${mpi[@]}" "$GPUSCALE" collectives -b 8 -e 1G -f 4 -n 20 -w 5 --json "$out/gpuscale.json" >"$out/gpuscale.txt" 2>"$out/gpuscale.err"
sweep_s=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
"${mpi[@]}" "$GPUSCALE" collectives --ops allreduce -b 8 -e 8 -n 200 -w 20 -G 10 --scaling-sizes none --pair-bytes 0 \
  --json "$out/lat_graph.json" >"$out/lat_graph.txt" 2>&1
ceiling_run ceiling
# The same ceiling program on torch's own NCCL (the pip wheel's), where there is one: separates the
# NCCL version from the method when gpuscale and torch differ.
torch_nccl=$(python3 -c "import glob, importlib.util, os; \
site = os.path.dirname(os.path.dirname(importlib.util.find_spec('torch').origin)); \
print(next(iter(sorted(glob.glob(site + '/nvidia/**/libnccl.so.2', recursive=True))), ''))" 2>/dev/null || true)
if [ -n "$torch_nccl" ]; then
  ceiling_run ceiling_torch_nccl -x LD_PRELOAD="$torch_nccl"
fi
# The comparison itself: $REPEAT rounds, torch then gpuscale's allreduce alone in each, so drift hits
# both tools alike; the table compares the median of the rounds (one run differs from the next by
# ~0.5% at 128 MiB, more than the tools differ).
for i in $(seq 1 "$repeat"); do
  torch_run "torch_$i"
  "${mpi[@]}" "$GPUSCALE" collectives --ops allreduce -b 8 -e 1G -f 4 -n 20 -w 5 --scaling-sizes none --pair-bytes 0 \
    --json "$out/gs_$i.json" >"$out/gs_$i.txt" 2>&1 || echo "gpuscale allreduce run $i failed: $out/gs_$i.txt"
done

python3 "$here/collectives_table.py" "$out" "$sweep_s" "$repeat"
