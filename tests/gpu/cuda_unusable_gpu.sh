#!/usr/bin/env bash
# A real GPU node whose GPU CUDA cannot see (CUDA_VISIBLE_DEVICES naming an index past its GPUs): the
# preflight fails (exit 1) with cuda-unusable naming CUDA's error and the variable, instead of passing
# on the CPU backend; the job prolog (launch/gpuscale-prolog.sh, with a stub scontrol) drains the node.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/gpus.sh"
need_gpus 1
out=$(results_dir)/cuda_unusable
mkdir -p "$out/bin" "$out/log"
fail() { echo "FAIL: $*"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
missing=$(( $(visible_gpus) + 7 ))

CUDA_VISIBLE_DEVICES=$missing "${MPIEXEC:-mpirun}" -np 1 -x CUDA_VISIBLE_DEVICES "$GPUSCALE" --quick \
  --json "$out/run.json" >"$out/run.txt" 2>"$out/run.err"
rc=$?
[ "$rc" -eq 1 ] || { cat "$out/run.err"; fail "CUDA_VISIBLE_DEVICES=$missing: exit $rc, wanted 1"; }
python3 - "$out/run.json" "$missing" <<'PY' || fail "JSON: see above"
import json, sys
d = json.load(open(sys.argv[1]))
c = {c["id"]: c for c in d["checks"]}["cuda-unusable"]
assert c["severity"] == "error", c
assert "cudaGetDeviceCount: cudaErrorNoDevice" in c["message"], c["message"]
assert "CUDA_VISIBLE_DEVICES=" + sys.argv[2] in c["message"], c["message"]
assert "NVML lists" in c["message"], c["message"]
assert d["verdict"]["passed"] is False and all(r["backend"] == "cpu" for r in d["ranks"])
PY
echo "quick with CUDA_VISIBLE_DEVICES=$missing: exit 1, $(grep -o 'cudaGetDeviceCount: [A-Za-z]*' "$out/run.json" | head -1)"

printf '#!/bin/sh\necho "scontrol $*" >>"%s"\n' "$out/calls" >"$out/bin/scontrol"
chmod +x "$out/bin/scontrol"
echo '{}' >"$out/expect.json"
PATH="$out/bin:$PATH" GPUSCALE="$GPUSCALE" GPUSCALE_EXPECT="$out/expect.json" GPUSCALE_LOG_DIR="$out/log" \
  SLURM_JOB_ID=42 SLURMD_NODENAME=gpu-node SLURM_JOB_GPUS=$missing bash "$here/../../launch/gpuscale-prolog.sh"
rc=$?
[ "$rc" -eq 1 ] || { cat "$out/log/prolog-42.log"; fail "the prolog exited $rc, wanted 1"; }
grep -q "State=DRAIN Reason=gpuscale prolog job 42: verdict failed" "$out/calls" || fail "the prolog did not drain: $(cat "$out/calls" 2>/dev/null)"
grep -q '"cuda-unusable"' "$out/log/prolog-42.json" || fail "the prolog's JSON lacks cuda-unusable"
echo "prolog: drained ($(cat "$out/calls"))"
echo "cuda_unusable_gpu: ok"
