#!/usr/bin/env bash
# gpuscale's allreduce busbw beside torch.distributed.all_reduce's (NCCL backend) and beside the NCCL
# ceiling (bench/nccl_ceiling: NCCL with no harness, timed both ways) at nccl-tests sizes (8 B .. 1 GiB,
# x4), on $NP GPUs (default 2). torch runs twice, before and after gpuscale's sweep, and gpuscale's
# allreduce once more at the end, so run-to-run noise shows beside the method (best against best). Also: the wall time of the full seven-op sweep (target < 60 s), and the 8-byte
# allreduce latency with and without CUDA graphs. Under 170 s on 2 H200s.
#   GPUSCALE=build/launch/gpuscale CEILING=build/bench/nccl_ceiling OUT=/tmp/bench bench/collectives_vs_torch.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
GPUSCALE=${GPUSCALE:-build/launch/gpuscale}
CEILING=${CEILING:-$(dirname "$(dirname "$GPUSCALE")")/bench/nccl_ceiling}
out=${OUT:-$(mktemp -d)}
np=${NP:-2}
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

torch_run torch_before
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
torch_run torch_after
# gpuscale's allreduce once more after torch's second run: both tools get two runs, best against best.
"${mpi[@]}" "$GPUSCALE" collectives --ops allreduce -b 8 -e 1G -f 4 -n 20 -w 5 --scaling-sizes none --pair-bytes 0 \
  --json "$out/gpuscale_again.json" >"$out/gpuscale_again.txt" 2>&1 || echo "gpuscale second run failed"

python3 "$here/collectives_table.py" "$out" "$sweep_s"
