#!/usr/bin/env bash
# --device auto takes the CPU backend only on a node without NVIDIA GPUs. A root of the node's device
# files (GPUSCALE_TEST_DEVICE_ROOT) with /dev/nvidia0 mknod'ed as NVIDIA's character device (major
# 195) and the driver's /proc entry stands for a GPU node whose GPUs CUDA cannot see (this machine's
# CUDA sees none, or the build has no CUDA): the run fails with cuda-unusable naming CUDA's error,
# every GPU phase skipped, exit 1, under auto and cuda alike. A regular file or another device named
# nvidiaN is no GPU: auto falls back with its warning; --device cuda on a node without GPUs is exit 3
# (2 in a build without CUDA).
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; cat "$out/err" 2>/dev/null; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: mknod needs root"; exit 77; }
"$GPUSCALE" env --device cuda --json "$out/probe.json" >/dev/null 2>&1
if python3 -c "import json,sys; d=json.load(open('$out/probe.json')); sys.exit(0 if d['ranks'][0]['backend']=='cuda' else 1)" 2>/dev/null; then
  echo "SKIP: CUDA sees a GPU here; tests/gpu/cuda_unusable_gpu.sh is the GPU machine's test"; exit 77
fi
gpu_root=$out/gpu-node
mkdir -p "$gpu_root/dev" "$gpu_root/proc/driver/nvidia/gpus/0000:18:00.0"
mknod "$gpu_root/dev/nvidia0" c 195 0 || { echo "SKIP: mknod not permitted"; exit 77; }

run() {  # run NAME ROOT ARGS...: the job on 2 ranks with that device root; sets rc
  local name=$1 root=$2; shift 2
  GPUSCALE_TEST_DEVICE_ROOT=$root "$MPIEXEC" -n 2 -x GPUSCALE_TEST_DEVICE_ROOT "$GPUSCALE" "$@" \
    --json "$out/$name.json" --timeout 60 >"$out/$name.txt" 2>"$out/err"
  rc=$?
}

for device in auto cuda; do
  run "unusable-$device" "$gpu_root" --quick --device "$device"
  [ "$rc" -eq 1 ] || fail "--device $device on a GPU node CUDA cannot use: exit $rc, wanted 1"
  grep -q "cuda-unusable" "$out/unusable-$device.txt" || fail "the console does not name cuda-unusable"
  grep -q "Verdict: FAIL" "$out/unusable-$device.txt" || fail "the console verdict is not FAIL"
  grep -q "running on the CPU BACKEND" "$out/err" && fail "--device $device warned of a fallback on a GPU node"
  python3 - "$out/unusable-$device.json" <<'PY' || fail "JSON of --device $device: see above"
import json, sys
d = json.load(open(sys.argv[1]))
ids = {c["id"]: c for c in d["checks"]}
c = ids["cuda-unusable"]
assert c["severity"] == "error" and c["ranks"] == [0, 1], c
m = c["message"]
assert m.startswith("CUDA sees no GPU (") and "this node has NVIDIA GPUs (/dev/nvidia0; the driver lists 1 GPU)" in m, m
# CUDA's own error where CUDA is built, else the build says it has none.
assert "cudaGetDeviceCount" in m or "built without the CUDA backend" in m, m
assert "cpu-fallback" not in ids, "a GPU node is not a fallback"
assert all(r["cuda_unusable"] and not r.get("backend_fallback") for r in d["ranks"]), d["ranks"]
assert d["verdict"]["passed"] is False, d["verdict"]
skipped = [p["phase"] for p in d["phases_skipped"]]
assert skipped and "compute" in skipped and "collectives" in skipped, d["phases_skipped"]
assert all("cuda-unusable" in p["reason"] for p in d["phases_skipped"]), d["phases_skipped"]
PY
done

# Not NVIDIA's device, or not a device: no GPU here, so auto falls back and passes with its warning.
plain_root=$out/plain
mkdir -p "$plain_root/dev"
touch "$plain_root/dev/nvidia0"
mknod "$plain_root/dev/nvidia1" c 1 3
run fallback "$plain_root" env --device auto
[ "$rc" -eq 0 ] || fail "auto on a node without NVIDIA GPUs: exit $rc, wanted 0"
grep -q "running on the CPU BACKEND" "$out/err" || fail "no fallback warning"
python3 - "$out/fallback.json" <<'PY' || fail "JSON of the fallback: see above"
import json, sys
d = json.load(open(sys.argv[1]))
ids = {c["id"]: c for c in d["checks"]}
assert ids["cpu-fallback"]["severity"] == "warning" and "cuda-unusable" not in ids, ids.keys()
assert all(r.get("backend_fallback") and not r.get("cuda_unusable") for r in d["ranks"]), d["ranks"]
PY

# A build without CUDA cannot honour --device cuda at all: bad usage (2), saying so.
run nogpu "$plain_root" env --device cuda
if grep -q "built without the CUDA backend" "$out/err"; then
  [ "$rc" -eq 2 ] || fail "--device cuda in a build without CUDA: exit $rc, wanted 2"
else
  [ "$rc" -eq 3 ] || fail "--device cuda on a node without GPUs: exit $rc, wanted 3"
  grep -q "this node has no NVIDIA GPU" "$out/err" || fail "the error does not say the node has no GPU"
fi
echo "cuda_unusable: ok"
