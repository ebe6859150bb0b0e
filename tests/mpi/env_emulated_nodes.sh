#!/usr/bin/env bash
# The test-only node emulation: 4 ranks as 2 nodes x 2 give node indices 0,0,1,1 and local ranks 0,1,0,1.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$MPIEXEC" -n 4 -x GPUSCALE_TEST_RANKS_PER_NODE=2 "$GPUSCALE" env --device cpu --quiet --json "$out/env.json" >/dev/null
python3 - "$out/env.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["world"] == {"size": 4, "nodes": 2}, d["world"]
assert [(r["node"], r["local_rank"], r["local_size"]) for r in d["ranks"]] == [(0, 0, 2), (0, 1, 2), (1, 0, 2), (1, 1, 2)]
PY
echo "env_emulated_nodes: ok"
