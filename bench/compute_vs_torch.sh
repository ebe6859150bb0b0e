#!/usr/bin/env bash
# Usage: GPUSCALE=build/launch/gpuscale [OUT=dir] bench/compute_vs_torch.sh      (one GPU, PyTorch)
# gpuscale's layers side by side with PyTorch on one GPU (the first visible): torch.matmul and
# nn.Conv2d (cudnn.benchmark = True, forward and forward+backward) on matmul 4096^3 and 8192^3 and
# conv N32 C256 56x56 K256 3x3 pad 1, in fp32, tf32 and bf16. Prints one table of TFLOP/s last.
# MATMUL_CANDIDATES=N and MATMUL_PATH=lt|fastest|gemmex pass --matmul-candidates / --matmul-path.
# Both sides warm each shape up for a second (WARMUP_MS; torch: WARMUP_S in the .py) before timing:
# a GPU at its power limit clocks high for the first tens of ms of a new load, then settles lower.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
common=(compute --device cuda --precision fp32,tf32,bf16 --cudnn-algo exhaustive --iters 50 --warmup 10 --warmup-ms "${WARMUP_MS:-1000}" --quiet ${MATMUL_CANDIDATES:+--matmul-candidates $MATMUL_CANDIDATES} ${MATMUL_PATH:+--matmul-path $MATMUL_PATH})
run() {  # name, then gpuscale arguments
  local name=$1; shift
  "$GPUSCALE" "${common[@]}" "$@" --json "$out/gpuscale_$name.json" >"$out/gpuscale_$name.txt" 2>&1 || {
    echo "gpuscale ($name) failed:"; tail -20 "$out/gpuscale_$name.txt"; exit 1; }
}
conv="32,256,56,56,256,3,3,1,1,1"
# The matmuls once; the conv in both layouts (the table compares each framework's better layout).
run nchw --mnk "4096,4096,4096;8192,8192,8192" --conv "$conv" --layout nchw
run nhwc --conv "$conv" --layout nhwc
# CUDNN_FROM_TORCH=1: the NHWC convolutions once more with torch's own cuDNN first on the library
# path (the wheel brings a newer one than the system's), printed after the table, not in it.
if [ -n "${CUDNN_FROM_TORCH:-}" ]; then
  torch_cudnn=$(python3 -c "import glob, os, torch; d=os.path.dirname(torch.__file__); \
c=glob.glob(d+'/../nvidia/**/libcudnn.so.9', recursive=True); print(os.path.realpath(os.path.dirname(c[0])) if c else '')")
  [ -n "$torch_cudnn" ] && LD_LIBRARY_PATH="$torch_cudnn:${LD_LIBRARY_PATH:-}" run nhwc_torchcudnn --conv "$conv" --layout nhwc
fi
python3 "$here/compute_vs_torch.py" --gpuscale "$out/gpuscale_nchw.json" "$out/gpuscale_nhwc.json" \
  --out "$out/compute_vs_torch.json" | tee "$out/compute_vs_torch.txt"
if [ -f "$out/gpuscale_nhwc_torchcudnn.json" ]; then
  echo "gpuscale NHWC convolutions with torch's cuDNN ($(LD_LIBRARY_PATH="$torch_cudnn" ldd "$GPUSCALE" | grep -m1 libcudnn.so)):"
  python3 - "$here" "$out/gpuscale_nhwc_torchcudnn.json" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[1])
import gpuscale_json
for f in gpuscale_json.figures(json.load(open(sys.argv[2]))["compute"]):
    print(f"  {f['op']:<13} {f['precision']:<5} {f['tflops']:.1f} TFLOP/s  {f['config']}")
EOF
fi
