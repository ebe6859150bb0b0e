#!/usr/bin/env bash
# The test-only node emulation: 4 ranks as 2 nodes x 2 give node indices 0,0,1,1 and local ranks 0,1,0,1,
# stated once under world.emulated. With GPUSCALE_TEST_SHARE_GPU=1 each emulated node is a host of its
# own for NCCL (NCCL_HOSTID set by gpuscale, no nccl-debug-variable), the console states the layout once;
# the mode without emulated nodes, or with another value than 0 or 1, is bad usage.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$MPIEXEC" -n 4 -x GPUSCALE_TEST_RANKS_PER_NODE=2 "$GPUSCALE" env --device cpu --quiet --json "$out/env.json" >/dev/null
"$MPIEXEC" -n 4 -x GPUSCALE_TEST_RANKS_PER_NODE=2 -x GPUSCALE_TEST_SHARE_GPU=1 "$GPUSCALE" env --device cpu --quiet \
  --json "$out/shared.json" >"$out/shared.txt"
python3 - "$out/env.json" "$out/shared.json" "$out/shared.txt" <<'PY'
import json, sys
d, s, console = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), open(sys.argv[3]).read()
assert d["world"] == {"size": 4, "nodes": 2, "emulated": {"ranks_per_node": 2, "shared_gpu": False}}, d["world"]
assert [(r["node"], r["local_rank"], r["local_size"]) for r in d["ranks"]] == [(0, 0, 2), (0, 1, 2), (1, 0, 2), (1, 1, 2)]
assert "NCCL_HOSTID" not in d["ranks"][0]["variables"], d["ranks"][0]["variables"]
assert s["world"]["emulated"] == {"ranks_per_node": 2, "shared_gpu": True}, s["world"]
hosts = [r["variables"].get("NCCL_HOSTID") for r in s["ranks"]]
assert hosts == ["gpuscale-emulated-node-0"] * 2 + ["gpuscale-emulated-node-1"] * 2, hosts
assert not [c for c in s["checks"] if c["id"] == "nccl-debug-variable"], s["checks"]
assert console.count("Test layout:") == 1 and "GPUSCALE_TEST_SHARE_GPU=1" in console, console[:300]
assert s["verdict"]["passed"], s["verdict"]
PY
for bad in "GPUSCALE_TEST_SHARE_GPU=1" "GPUSCALE_TEST_RANKS_PER_NODE=1 GPUSCALE_TEST_SHARE_GPU=yes"; do
  set +e
  env $bad "$GPUSCALE" env --device cpu --quiet >/dev/null 2>"$out/err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && grep -q "GPUSCALE_TEST_SHARE_GPU" "$out/err" || { echo "FAIL: $bad exited $rc: $(cat "$out/err")"; exit 1; }
done
echo "env_emulated_nodes: ok"
