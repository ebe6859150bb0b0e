#!/usr/bin/env bash
# A budget that is kept: `gpuscale --quick` on 4 ranks as 4 emulated nodes of 1, with node NODE slowed
# (GPUSCALE_TEST_SLOW_NODE: its ranks sleep 200 ms after every operation of the cpu communicator, which
# without the budget made each collective op take tens of seconds). The run ends within 1.5x its stated
# budget (the JSON's elapsed_s; the wall time is printed), its collectives phase drops what its share
# did not cover with notes in budget.phases[].dropped, the localisation (run first under a budget)
# names the node, and budget-exceeded (error) names the op, its seconds and the node. Every phase keeps
# its start, between the end of the one before and its own.
#   budget_nodes.sh NODE
set -euo pipefail
node=${1:?slowed node}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
rc=0
"$MPIEXEC" -n 4 --oversubscribe -x GPUSCALE_TEST_RANKS_PER_NODE=1 -x "GPUSCALE_TEST_SLOW_NODE=$node" "$GPUSCALE" \
  --device cpu --quick --quiet --json "$out/run.json" >"$out/console.txt" 2>"$out/err.txt" || rc=$?
wall=$(python3 -c "import sys; print(round($(date +%s.%N) - $start, 1))")
[ "$rc" -eq 1 ] || { echo "budget_nodes: exit $rc, wanted 1"; cat "$out/err.txt"; exit 1; }
python3 - "$out/run.json" "$node" "$wall" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
node, wall = int(sys.argv[2]), float(sys.argv[3])
b = d["budget"]
print(f"  budget {b['budget_s']} s: the run took {d['elapsed_s']:.1f} s ({wall} s wall with start-up)")
for p in b["phases"]:
    print(f"    {p['phase']}: share ends {p['deadline_s']:.1f} s, ended {p['ended_s']:.1f} s, longest "
          f"{p['longest'] or '-'} {p['longest_s']:.1f} s, dropped {p['dropped']}")
# Each phase's start is kept, after the one before ended and before its own end (bench/timeline.py).
previous = 0.0
for p in b["phases"]:
    assert previous <= p["started_s"] <= p["ended_s"], (previous, p)
    previous = p["ended_s"]
assert d["elapsed_s"] <= 1.5 * b["budget_s"], "the run took %.1f s of a %g s budget" % (d["elapsed_s"], b["budget_s"])
assert d["phases_completed"] == ["env", "links", "compute", "burn", "collectives", "train"], d["phases_completed"]
coll = next(p for p in b["phases"] if p["phase"] == "collectives")
assert coll["dropped"], coll
iso = d["collectives"]["isolation"]
assert iso["suspects"] and iso["suspects"][0]["node"] == node, (iso["suspects"], iso["bisection"], iso["bisection_note"])
checks = {(c["id"], c["severity"]): c for c in d["checks"]}
over = checks.get(("budget-exceeded", "error"))
assert over, [c["id"] for c in d["checks"]]
assert over["nodes"] == [node] and f"named node {node}" in over["message"], over
assert " took " in over["message"] and "Dropped: " in over["message"], over["message"]
assert f"node {node}" in checks[("slow-node", "error")]["message"], checks.get(("slow-node", "error"))
assert d["verdict"]["passed"] is False
PY
echo "budget_nodes $node: ok"
