#!/usr/bin/env bash
# The matmul rows still under torch once settled (8192 tf32: gpuscale's cuBLASLt algo 43 at 0.97 of
# torch in every interleaved run), measured interleaved against torch under gpuscale's three matmul
# paths: cuBLASLt's top 8 (default), cublasGemmEx alone (PyTorch's call), and both with cuBLASLt's
# top 16. One table per path, each from bench/compute_interleaved.py.
#   GPUSCALE=build/launch/gpuscale bench/matmul_paths_ab.sh      (logs under $OUT when set)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
sizes=${SIZES:-8192} precisions=${PRECISIONS:-tf32}
i=0
for args in "" "--matmul-path gemmex" "--matmul-path fastest --matmul-candidates 16"; do
  i=$((i + 1))
  echo "== path: ${args:-lt (default)}"
  python3 "$here/compute_interleaved.py" --gpuscale "$GPUSCALE" --out "$out/path$i" --matmul "$sizes" \
    --conv none --precision "$precisions" --gs-args "$args" 2>&1 | grep -v '^  row'
  PYTHONPATH=$here python3 - "$out/path$i" <<'PY'
import glob, json, sys
import gpuscale_json
for f in sorted(glob.glob(sys.argv[1] + "/gs_*.json")):
    for g in gpuscale_json.figures(json.load(open(f))["compute"]):
        print(f"   {f.rsplit('/', 1)[1]}: {g['op']} {g['precision']}: {g['config']} {g['tflops']:.1f}")
PY
done
