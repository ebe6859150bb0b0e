#!/usr/bin/env bash
# Past 4 nodes the console shows nodes, not ranks: 24 ranks as 6 emulated nodes of 4 print one line
# per node in place of the per-rank tables (under 100 lines plus one per node in all), while the JSON
# keeps every rank's records.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
nodes=6
"$MPIEXEC" -n $((nodes * 4)) -x GPUSCALE_TEST_RANKS_PER_NODE=4 "$GPUSCALE" --quick --device cpu --quiet --timeout 120 \
  --json "$out/run.json" >"$out/console.txt" 2>"$out/err.txt" || [ $? -eq 1 ] || { cat "$out/err.txt"; fail "run failed"; }
lines=$(wc -l <"$out/console.txt")
[ "$lines" -lt $((100 + nodes)) ] || { cat "$out/console.txt"; fail "$lines console lines for $nodes nodes"; }
grep -q "^== Nodes (6;" "$out/console.txt" || { cat "$out/console.txt"; fail "no Nodes table"; }
! grep -q "^== Env: ranks" "$out/console.txt" || fail "the per-rank env table is still printed"
python3 - "$out/run.json" "$out/console.txt" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
console = open(sys.argv[2]).read().splitlines()
assert d["world"] == {"size": 24, "nodes": 6, "emulated": {"ranks_per_node": 4, "shared_gpu": False}}, d["world"]
assert len(d["ranks"]) == 24
assert sorted({c["rank"] for c in d["compute"]}) == list(range(24)), "per-rank compute records kept in the JSON"
# The Nodes table: a header line, a note, the column line, then one line per node.
start = next(i for i, l in enumerate(console) if l.startswith("== Nodes"))
rows = [l for l in console[start + 3:start + 3 + 6]]
assert [l.split()[0] for l in rows] == [str(n) for n in range(6)], rows
# One check line per id and severity.
checks = [(c["id"], c["severity"]) for c in d["checks"]]
assert len(checks) == len(set(checks)), checks
print(f"  {len(console)} console lines")
PY
echo "node_view: ok"
