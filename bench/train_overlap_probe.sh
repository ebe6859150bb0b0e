#!/usr/bin/env bash
# Where mlp-bf16 DDP's step goes on 2 GPUs: traced steps (layer passes and bucket allreduces as device
# spans; the ranks start a traced step unsynchronised, so an allreduce span includes waiting for the
# peer), then variants that move the overlap: fp32 against bf16 gradients, bucket size, NCCL's CTA
# count, the buckets' memory (plain or NCCL window). Prints one line per variant last.
# PROBE_SET=efficiency runs instead the variants around the best weak-scaling efficiency so far (bf16
# gradients, 128 MiB buckets, 64 CTAs): stream priority, bucket sizes, optimizer overlap, NCCL's
# staging buffer size, the first bucket, the settled warm-up (--warmup-ms), NCCL's protocol (Simple or
# LL128 forced), SMs left free by the backward GEMMs (--comm-sm-margin), each at 50 steps, the
# baseline first and last (the drift between them).
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
  [[ -n ${PROBE_ONLY:-} && ! $name =~ $PROBE_ONLY ]] && return  # PROBE_ONLY: a regex over variant names
  local xs=() kv
  for kv in $envs; do xs+=(-x "$kv"); done
  mpirun --allow-run-as-root -np "$n" -x NCCL_NVLS_ENABLE=0 "${xs[@]}" "$GPUSCALE" "${common[@]}" "$@" \
    --json "$out/$name.json" >"$out/$name.txt" 2>&1 || echo "$name failed: $(tail -3 "$out/$name.txt")"
}
overlap_variants() {
  # Where the buckets live (plain device memory, or NCCL window memory served by its symmetric kernels)
  # and how many CTAs NCCL may use, with fp32 gradients (torch DDP's) and with bf16 on the wire. Every
  # variant names its CTAs (0: NCCL's choice), so train's default (--comm-ctas auto) does not pick them.
  variant fp32_plain "" --comm-ctas 0 --trace "$out/trace_fp32_plain.json"
  variant fp32_plain_ctas64 "" --comm-ctas 64
  variant fp32_window "" --comm-buffers window --comm-ctas 0
  variant fp32_window_ctas32 "" --comm-buffers window --comm-ctas 32
  variant fp32_window_ctas64 "" --comm-buffers window --comm-ctas 64 --trace "$out/trace_fp32_window_ctas64.json"
  variant bf16_plain_b128_ctas64 "" --grad-dtype bf16 --bucket-mb 128 --comm-ctas 64
  variant bf16_window "" --grad-dtype bf16 --comm-buffers window --comm-ctas 0
  variant bf16_window_ctas32 "" --grad-dtype bf16 --comm-buffers window --comm-ctas 32
  variant bf16_window_ctas64 "" --grad-dtype bf16 --comm-buffers window --comm-ctas 64
  variant bf16_window_b128_ctas32 "" --grad-dtype bf16 --bucket-mb 128 --comm-buffers window --comm-ctas 32
  variant bf16_window_b128_ctas64 "" --grad-dtype bf16 --bucket-mb 128 --comm-buffers window --comm-ctas 64 \
    --trace "$out/trace_bf16_window_b128_ctas64.json"
}
efficiency_variants() {
  local e=(--grad-dtype bf16 --iters 50)  # (variant's locals must not shadow this name)
  variant e01_b128_c64 "" "${e[@]}" --bucket-mb 128 --comm-ctas 64
  variant e02_b128_c64_high "" "${e[@]}" --bucket-mb 128 --comm-ctas 64 --comm-priority high
  variant e03_b64_c64_high "" "${e[@]}" --bucket-mb 64 --comm-ctas 64 --comm-priority high
  variant e04_b256_c64_high "" "${e[@]}" --bucket-mb 256 --comm-ctas 64 --comm-priority high
  variant e05_b512_c64 "" "${e[@]}" --bucket-mb 512 --comm-ctas 64
  variant e06_b128_c64_noopt "" "${e[@]}" --bucket-mb 128 --comm-ctas 64 --no-optimizer-overlap
  variant e07_b128_c32 "" "${e[@]}" --bucket-mb 128 --comm-ctas 32
  variant e08_b128_c64_buf16m "NCCL_BUFFSIZE=16777216" "${e[@]}" --bucket-mb 128 --comm-ctas 64
  variant e09_b128_c64_first32 "" "${e[@]}" --bucket-mb 128 --first-bucket-mb 32 --comm-ctas 64
  # (NCCL_P2P_USE_CUDA_MEMCPY=1, copy engines for NCCL's P2P sends, is left out: its DDP x2 run made no
  # progress in 190 s on 2 H200s with NCCL 2.28.3, fifth session, until the device call ended.)
  variant e12_b128_c64_settled "" "${e[@]}" --bucket-mb 128 --comm-ctas 64 --warmup-ms 1000
  # NCCL picks its protocol per size; forced, the wire's cost in SM cycles beside the GEMMs changes.
  variant e13_b128_c64_simple "NCCL_PROTO=Simple" "${e[@]}" --bucket-mb 128 --comm-ctas 64
  variant e14_b128_c64_ll128 "NCCL_PROTO=LL128" "${e[@]}" --bucket-mb 128 --comm-ctas 64
  # The backward GEMMs sized for fewer SMs (cuBLASLt's SM count target), so that the allreduces, the
  # step's critical path (0.91 ms alone against ~0.7 of backward), are not slowed by the GEMMs beside them.
  variant e15_b128_c64_margin16 "" "${e[@]}" --bucket-mb 128 --comm-ctas 64 --comm-sm-margin 16
  variant e16_b128_c64_margin32 "" "${e[@]}" --bucket-mb 128 --comm-ctas 64 --comm-sm-margin 32
  variant e17_b128_c32_margin32 "" "${e[@]}" --bucket-mb 128 --comm-ctas 32 --comm-sm-margin 32
  variant e18_b128_c64_margin64 "" "${e[@]}" --bucket-mb 128 --comm-ctas 64 --comm-sm-margin 64
  variant e11_b128_c64_again "" "${e[@]}" --bucket-mb 128 --comm-ctas 64
}
if [ "${PROBE_SET:-overlap}" = efficiency ]; then efficiency_variants; else overlap_variants; fi
for t in "$out"/trace_*.json; do [ -e "$t" ] || continue; echo "== $t"; python3 "$here/trace_table.py" "$t" 0; done
echo "== variants (config, step ms, eff %, compute ms, comm ms, exposed ms, overlap %)"
for f in "$out"/*.txt; do
  grep -E '^  ddp mlp bf16 x[0-9]+ ' "$f" | head -2 | awk -v v="$(basename "$f" .txt)" \
    '{printf "%-16s %s\n", v, $0}'
done
