#!/usr/bin/env bash
# Four ranks as two emulated nodes of two: the scaling table has intra-node (two communicators at once)
# and inter-node rows, and the pairwise matrix classes pairs by node and labels every rank uniquely.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$MPIEXEC" -n 4 -x GPUSCALE_TEST_RANKS_PER_NODE=2 "$GPUSCALE" collectives --device cpu --quiet --timeout 60 \
  --json "$out/c.json" --ops allreduce -b 8 -e 64K -f 8 -n 2 -w 1 --scaling-sizes 8,16K --pair-bytes 32K \
  >"$out/console.txt"
python3 - "$out/c.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["collectives"]
rows = {(p["group"], p["size_bytes"]): p for p in c["scaling"]}
assert rows[("intra-node", 16384)]["ranks"] == 2 and rows[("intra-node", 16384)]["communicators"] == 2, rows
assert rows[("inter-node", 16384)]["ranks"] == 2, rows
assert rows[("world", 16384)]["ranks"] == 4, rows
assert all(p["wrong"] == 0 for p in c["scaling"])
pairs = c["pairs"]["pairs"]
same = {(p["a"], p["b"]): p["same_node"] for p in pairs}
assert same[(0, 1)] and same[(2, 3)] and not same[(0, 2)] and not same[(1, 3)], same
# Labels name host and local rank, and the emulated node where the nodes share the host name: unique.
labels = {p["a"]: p["a_label"] for p in pairs} | {p["b"]: p["b_label"] for p in pairs}
assert len(set(labels.values())) == 4, labels
assert labels[1].endswith("/n0#1") and labels[2].endswith("/n1#0"), labels
assert all(p["a_gpu"] == "" and p["b_gpu"] == "" for p in pairs), pairs  # no GPU on the cpu backend
PY
grep -q "inter-node" "$out/console.txt"
echo "collectives_nodes: ok"
