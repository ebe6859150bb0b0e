#!/usr/bin/env bash
# The RDMA adapter checks over emulated nodes (GPUSCALE_TEST_RANKS_PER_NODE), each with its own
# fixture sysfs tree (GPUSCALE_TEST_SYSFS_ROOT/node<k>): mlx5_0 port 1 is active on node 0 and down on
# node 1, so nic-down names node 1's ranks; adapters are recorded per rank in the JSON.
set -euo pipefail
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
port() {  # NODE STATE PHYS
  local p="$root/$1/sys/class/infiniband/mlx5_0/ports/1"
  mkdir -p "$p" "$root/$1/sys/class/infiniband/mlx5_0/device" "$root/$1/sys/module/nvidia_peermem"
  echo "$2" >"$p/state"; echo "$3" >"$p/phys_state"; echo "400 Gb/sec (4X NDR)" >"$p/rate"
  echo "InfiniBand" >"$p/link_layer"; echo 0 >"$root/$1/sys/class/infiniband/mlx5_0/device/numa_node"
}
port node0 "4: ACTIVE" "5: LinkUp"
port node1 "1: DOWN" "2: Polling"
set +e
"$MPIEXEC" -n 4 -x GPUSCALE_TEST_RANKS_PER_NODE=2 -x GPUSCALE_TEST_SYSFS_ROOT="$root" "$GPUSCALE" env --device cpu \
  --quiet --json "$root/env.json" >/dev/null 2>"$root/stderr.txt"
code=$?
set -e
[ "$code" -eq 1 ] || { echo "expected exit 1 (nic-down), got $code"; exit 1; }
python3 - "$root/env.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
down = [c for c in d["checks"] if c["id"] == "nic-down"]
assert len(down) == 1 and down[0]["severity"] == "error" and down[0]["ranks"] == [2, 3], down
assert "mlx5_0/1 is not active on" in down[0]["message"] and "(DOWN, Polling)" in down[0]["message"], down
ports = [r["network"]["adapters"][0]["ports"][0]["state"] for r in d["ranks"]]
assert ports == ["ACTIVE", "ACTIVE", "DOWN", "DOWN"], ports
assert not any(c["id"] == "gdr-unavailable" for c in d["checks"])
PY
echo "adapters_emulated: ok"
