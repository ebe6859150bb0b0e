#!/usr/bin/env bash
# Why gpuscale's bf16 matmul 4096 reads ~2% under torch's: the same shape timed alternately by both
# (ROUNDS rounds, GPU clock/power/temperature read before each; torch after its bench's 10 warm-up calls
# and after LONG_WARMUP calls), then gpuscale with torch's own cuBLAS first on the library path
# (TORCH_CUBLAS=1), then (NCU=1, where ncu exists) both kernels' names, durations and clocks.
#   GPUSCALE=build/launch/gpuscale bench/matmul_probe.sh      (logs under $OUT when set)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
n=${N:-4096} prec=${PREC:-bf16} rounds=${ROUNDS:-3}
torch_lib=$(python3 -c "import glob, os, torch; d=os.path.dirname(torch.__file__); \
c=glob.glob(d+'/../nvidia/**/libcublasLt.so*', recursive=True); print(os.path.realpath(os.path.dirname(c[0])) if c else '')")
python3 - "$torch_lib" <<'EOF'
import ctypes, sys
for name, path in (("system", "libcublasLt.so"), ("torch", sys.argv[1] + "/libcublasLt.so.13")):
    try:
        print(f"cuBLASLt {name}: {ctypes.CDLL(path).cublasLtGetVersion()} ({path})")
    except OSError as e:
        print(f"cuBLASLt {name}: not loadable: {e}")
EOF
gpu() { nvidia-smi -i "${CUDA_VISIBLE_DEVICES%%,*}" --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader; }
ours() {  # LABEL [ENV=V]
  local label=$1; shift
  echo "$label gpu before: $(gpu)"
  env "$@" "$GPUSCALE" compute --device cuda --precision "$prec" --mnk "$n,$n,$n" --iters 200 --warmup 20 --quiet \
    --json "$out/$label.json" >"$out/$label.txt" 2>&1 || { echo "$label failed"; tail -5 "$out/$label.txt"; return; }
  python3 -c "import json,sys; r=[r for r in json.load(open(sys.argv[1]))['compute'] if r['pass']=='fwd'][0]; \
print(f\"$label gpuscale fwd {r['tflops']:.1f} TFLOP/s median {r['time_s']['median']*1e6:.1f} us  {r['algorithm']}\")" "$out/$label.json"
}
theirs() {  # LABEL [WARMUP]
  echo "torch$1 gpu before: $(gpu)"
  python3 - "$here" "$n" "$prec" "$1" "${2:-10}" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import compute_vs_torch as c
c.ITERS, c.WARMUP, c.WARMUP_S = 200, int(sys.argv[5]), 0  # warm-up by count alone: the variable here
n, p = int(sys.argv[2]), sys.argv[3]
t = c.torch_matmul(n, p, transpose_b=True)
print(f"torch{sys.argv[4]} x@w.t() {t:.1f} TFLOP/s median {2.0 * n ** 3 / t / 1e12 * 1e6:.1f} us")
EOF
}
for r in $(seq "$rounds"); do ours "gs$r"; theirs "$r"; theirs "_long$r" "${LONG_WARMUP:-2000}"; done
if [ -n "$torch_lib" ] && [ -n "${TORCH_CUBLAS:-}" ]; then
  for r in $(seq "$rounds"); do ours "gs_torchcublas$r" LD_LIBRARY_PATH="$torch_lib:${LD_LIBRARY_PATH:-}"; theirs "x$r"; done
fi
if [ -n "${NCU:-}" ] && command -v ncu >/dev/null; then
  metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
  timeout 120 ncu --clock-control none -k regex:'gemm|sm90|nvjet' -s 30 -c 5 --metrics "$metrics" \
    "$GPUSCALE" compute --device cuda --precision "$prec" --mnk "$n,$n,$n" --iters 50 --warmup 10 --quiet --no-check \
    >"$out/ncu_gs.txt" 2>&1
  timeout 120 ncu --clock-control none -k regex:'gemm|sm90|nvjet' -s 30 -c 5 --metrics "$metrics" python3 - "$here" "$n" "$prec" \
    >"$out/ncu_torch.txt" 2>&1 <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import compute_vs_torch as c
c.WARMUP_S = 0  # ncu serialises every launch: no second-long warm-up under it
c.torch_matmul(int(sys.argv[2]), sys.argv[3], transpose_b=True)
EOF
  for f in ncu_gs ncu_torch; do echo "== $f"; grep -E '^\s+(void |[a-z_]*gemm|nvjet|sm90)|gpu__time|cycles_elapsed' "$out/$f.txt" | head -12; done
fi
