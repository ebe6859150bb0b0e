#!/usr/bin/env bash
# mpiexec -n 4 `env --device cpu`: the JSON holds 4 distinct ranks, local ranks 0..3 on one node, a
# passing smoke allreduce on every rank, and the gather kept every record intact.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$MPIEXEC" -n 4 "$GPUSCALE" env --device cpu --json "$out/env.json" --timeout 60 >"$out/console.txt"
python3 - "$out/env.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ranks = d["ranks"]
assert d["schema_version"] == 2, d["schema_version"]
assert d["complete"] is True and d["verdict"]["result"] == "PASS", d["verdict"]
assert d["world"] == {"size": 4, "nodes": 1}, d["world"]
assert [r["rank"] for r in ranks] == [0, 1, 2, 3], [r["rank"] for r in ranks]
assert sorted(r["local_rank"] for r in ranks) == [0, 1, 2, 3]
assert len({r["pid"] for r in ranks}) == 4, "gather mixed up records"
for r in ranks:
    assert r["backend"] == "cpu" and r["world_size"] == 4 and r["local_size"] == 4, r
    assert r["smoke_allreduce"]["passed"] and r["smoke_allreduce"]["transport"] == "mpi", r["smoke_allreduce"]
    assert r["versions"]["mpi_library"], "MPI version missing"
assert d["verdict"]["passed"] is True, d["verdict"]
assert d["phases_completed"] == ["env"], d["phases_completed"]
PY
grep -q "Verdict: PASS" "$out/console.txt"
echo "env_4ranks: ok"
