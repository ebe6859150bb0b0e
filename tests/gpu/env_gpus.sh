#!/usr/bin/env bash
# Every visible GPU gets a rank (two ranks at least: on one GPU they run on emulated nodes that share it,
# GPUSCALE_TEST_SHARE_GPU): every version present, the NCCL smoke allreduce passes, the ranks hold
# distinct GPUs or, sharing them, say so once on the console and in the JSON. Then the last GPU named by
# its UUID in CUDA_VISIBLE_DEVICES (CUDA calls it device 0), burning: the JSON's nvml_index and the Prometheus
# `gpu` label are nvidia-smi's index of that GPU, as dcgm-exporter's `gpu` is.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
source "$here/gpus.sh"
n=$(at_least_two)
launch_ranks "$n"
"${mpi[@]}" "$GPUSCALE" env --json "$out/env.json" >"$out/console.txt"
python3 - "$out/env.json" "$n" "$shared_gpus" "$(visible_gpus)" "$out/console.txt" <<'PY'
import json, sys
d, n, shared, gpus = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4])
console = open(sys.argv[5]).read()
ranks = d["ranks"]
assert len(ranks) == n
assert len({r["gpu"]["uuid"] for r in ranks}) == (gpus if shared else n), "ranks share GPUs"
if shared:
    assert d["world"]["emulated"] == {"ranks_per_node": gpus, "shared_gpu": True}, d["world"]
    assert console.count("Test layout:") == 1 and "GPUSCALE_TEST_SHARE_GPU=1" in console, console[:400]
    assert not [c for c in d["checks"] if c["id"] in ("duplicate-gpu", "nccl-debug-variable", "gpu-in-use")], d["checks"]
else:
    assert "emulated" not in d["world"], d["world"]
for r in ranks:
    v = r["versions"]
    assert r["backend"] == "cuda"
    assert all(v[k] for k in ("driver", "cuda_runtime", "cublas", "cudnn_library", "nccl_library", "mpi_library")), v
    assert r["smoke_allreduce"]["passed"] and r["smoke_allreduce"]["transport"] == "nccl", r["smoke_allreduce"]
assert d["verdict"]["passed"], d["verdict"]
PY
last=$(nvidia-smi --query-gpu=index,uuid --format=csv,noheader | tail -1)
"${MPIEXEC:-mpirun}" -n 1 -x NCCL_NVLS_ENABLE=0 -x CUDA_VISIBLE_DEVICES="${last#*, }" "$GPUSCALE" burn \
  --burn-s 0.5 --json "$out/last.json" --prom "$out/last.prom" >"$out/last.txt" || [ $? -eq 1 ]
python3 - "$out/last.json" "$out/last.prom" "$last" <<'PY'
import json, re, sys
gpu = json.load(open(sys.argv[1]))["ranks"][0]["gpu"]
index, uuid = [f.strip() for f in sys.argv[3].split(",")]
assert gpu["uuid"] == uuid and gpu["cuda_index"] == 0, gpu
assert gpu["nvml_index"] == int(index), (gpu["nvml_index"], index)
labels = re.findall(r'^gpuscale_\w+\{[^}]*gpu="([^"]*)",UUID="' + uuid, open(sys.argv[2]).read(), re.M)
assert labels and set(labels) == {index}, (labels, index)
PY
echo "env_gpus: ok ($n ranks on $(visible_gpus) GPUs; the GPU named by UUID labelled gpu=\"${last%%,*}\")"
