#!/usr/bin/env bash
# Where mlp-bf16 DDP's step goes on 2 GPUs: traced steps (layer passes and bucket allreduces as device
# spans; the ranks start a traced step unsynchronised, so an allreduce span includes waiting for the
# peer), then variants that move the overlap: fp32 against bf16 gradients, bucket size, NCCL's CTA
# count, optimizer overlap, no overlap. Prints one line per variant last.
#   GPUSCALE=build/launch/gpuscale bench/train_overlap_probe.sh      (logs under $OUT when set)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
n=$(nvidia-smi -L | grep -c '^GPU')
echo "profilers: $(command -v nsys ncu || echo none)"
common=(train --model mlp --precision bf16 --strategy single,ddp --gpus "$n" --no-check --iters 20 --warmup 5)
variant() {  # NAME "ENV=V ..." GPUSCALE_ARGS...
  local name=$1 envs=$2; shift 2
  local xs=()
  for e in $envs; do xs+=(-x "$e"); done
  mpirun --allow-run-as-root -np "$n" -x NCCL_NVLS_ENABLE=0 "${xs[@]}" "$GPUSCALE" "${common[@]}" "$@" \
    --json "$out/$name.json" >"$out/$name.txt" 2>&1 || echo "$name failed: $(tail -3 "$out/$name.txt")"
}
variant fp32grads "" --trace "$out/trace_fp32grads.json"
variant bf16grads "" --grad-dtype bf16 --trace "$out/trace_bf16grads.json"
variant bf16_bucket128 "" --grad-dtype bf16 --bucket-mb 128
variant bf16_ctas64 "NCCL_MIN_CTAS=64" --grad-dtype bf16
variant bf16_ctas64_bucket128 "NCCL_MIN_CTAS=64" --grad-dtype bf16 --bucket-mb 128 --trace "$out/trace_tuned.json"
variant bf16_noopt "" --grad-dtype bf16 --no-optimizer-overlap
variant bf16_nooverlap "" --grad-dtype bf16 --no-overlap
for t in "$out"/trace_*.json; do echo "== $t"; python3 "$here/trace_table.py" "$t" 0; done
echo "== variants (config, step ms, eff %, compute ms, comm ms, exposed ms, overlap %)"
for f in "$out"/*.txt; do
  grep -E '^  ddp mlp bf16 x[0-9]+ ' "$f" | head -2 | awk -v v="$(basename "$f" .txt)" \
    '{printf "%-16s %s\n", v, $0}'
done
