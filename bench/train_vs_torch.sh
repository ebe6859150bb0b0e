#!/usr/bin/env bash
# Usage: GPUSCALE=build/launch/gpuscale [ITERS=20] [SETTLE_MS=0] [OUT=dir] bench/train_vs_torch.sh   (GPUs, PyTorch)
# gpuscale's data-parallel training side by side with PyTorch 2.11 on the same presets and per-GPU
# batch (mlp: 8 x Linear 4096, batch 256; cnn: 8 x Conv2d 256 3x3 on 56x56, batch 32), fp32 and bf16
# autocast, over every visible GPU: torch single GPU, nn.DataParallel, DDP
# (default) and DDP (gradient_as_bucket_view + static_graph), against gpuscale single, dp and ddp.
# Prints one table last (step ms, samples/s, peak MiB, gpuscale's overlap %) and the goals.
# SETTLE_MS=1000 times both sides settled: each configuration runs steps for that long first
# (gpuscale --warmup-ms, the script's --warmup-s), past the GPU's power transient after a new load.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
export NCCL_NVLS_ENABLE=0
n=$(nvidia-smi -L | grep -c '^GPU')
iters=${ITERS:-20}
settle_ms=${SETTLE_MS:-0}
gs_warm=(--warmup 5 --warmup-ms "$settle_ms")
torch_warm=(--warmup-s "$(awk "BEGIN{print $settle_ms / 1000}")")
mpirun --allow-run-as-root -np "$n" -x NCCL_NVLS_ENABLE=0 "$GPUSCALE" train --model mlp,cnn --precision fp32,bf16 \
  --iters "$iters" "${gs_warm[@]}" --json "$out/gpuscale_train.json" >"$out/gpuscale_train.txt" 2>"$out/gpuscale_train.err" || {
  echo "gpuscale train failed:"; tail -30 "$out/gpuscale_train.err" "$out/gpuscale_train.txt"; exit 1; }
# The same mlp-bf16 with bf16 gradients on the wire (cast, allreduce, cast back), beside torch DDP with
# its bf16_compress_hook: the comparison at equal bytes on the wire.
mpirun --allow-run-as-root -np "$n" -x NCCL_NVLS_ENABLE=0 "$GPUSCALE" train --model mlp --precision bf16 \
  --grad-dtype bf16 --strategy single,ddp --no-check --iters "$iters" "${gs_warm[@]}" --json "$out/gpuscale_bf16grads.json" \
  >"$out/gpuscale_bf16grads.txt" 2>&1 || { echo "gpuscale train --grad-dtype bf16 failed:"; tail -30 "$out/gpuscale_bf16grads.txt"; exit 1; }
# mlp-bf16 DDP with bf16 gradients tuned for weak scaling: 128 MiB buckets (5 allreduces of 32-96 MiB
# instead of 8 of 32) and 64 NCCL CTAs (it picks 24 channels on NV18; the bf16 buckets alone take
# 0.91 ms with 64 instead of 1.02).
mpirun --allow-run-as-root -np "$n" -x NCCL_NVLS_ENABLE=0 "$GPUSCALE" train --model mlp \
  --precision bf16 --grad-dtype bf16 --bucket-mb 128 --comm-ctas 64 --strategy single,ddp --no-check --iters "$iters" "${gs_warm[@]}" \
  --json "$out/gpuscale_tuned.json" >"$out/gpuscale_tuned.txt" 2>&1 || echo "gpuscale tuned run failed"
python3 -m torch.distributed.run --standalone --nproc_per_node="$n" "$here/train_vs_torch.py" ddp --iters "$iters" "${torch_warm[@]}" \
  --out "$out/torch_ddp.json" >"$out/torch_ddp.txt" 2>&1 || { echo "torch DDP failed:"; tail -30 "$out/torch_ddp.txt"; exit 1; }
# torch DDP again with NCCL_MIN_CTAS=64, the CTAs gpuscale's --comm-ctas auto may pick: printed beside.
NCCL_MIN_CTAS=64 python3 -m torch.distributed.run --standalone --nproc_per_node="$n" "$here/train_vs_torch.py" ddp \
  --iters "$iters" "${torch_warm[@]}" --out "$out/torch_ddp_ctas64.json" >"$out/torch_ddp_ctas64.txt" 2>&1 || echo "torch DDP (64 CTAs) failed"
python3 "$here/train_vs_torch.py" local --iters "$iters" "${torch_warm[@]}" --out "$out/torch_local.json" >"$out/torch_local.txt" 2>&1 || {
  echo "torch single/DataParallel failed:"; tail -30 "$out/torch_local.txt"; exit 1; }
python3 "$here/train_vs_torch.py" table --gpuscale "$out/gpuscale_train.json" "$out/gpuscale_bf16grads.json" --tuned "$out/gpuscale_tuned.json" --torch "$out/torch_ddp.json" \
  "$out/torch_local.json" --torch-ctas64 "$out/torch_ddp_ctas64.json" | tee "$out/train_vs_torch.txt"
