#!/usr/bin/env bash
# mpiexec -n 3 `compute --device cpu`: every rank measures every shape, precision and pass; rank 0's
# JSON holds all of them with passing reference checks; and a corrupted output (test seam) fails the
# check with exit code 1 and names the rank.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(compute --device cpu --mnk "48,40,32" --conv "2,6,9,9,5,3,3,2,1,1;1,4,7,7,3,3,3,1,2,2" --precision all
      --iters 3 --warmup 1 --timeout 60)
"$MPIEXEC" -n 3 "$GPUSCALE" "${args[@]}" --json "$out/compute.json" >"$out/console.txt"
python3 - "$out/compute.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
recs = d["compute"]
assert d["phases_completed"] == ["env", "compute"], d["phases_completed"]
assert len(recs) == 3 * 3 * 4 * 3, len(recs)  # ranks x shapes x precisions x passes
keys = {}
for r in recs:
    assert r["skipped_reason"] == "", r
    assert r["check"]["ran"] and r["check"]["passed"], r["check"]
    assert r["check"]["relative_error"] <= r["check"]["limit"]
    assert len(r["samples_s"]) == 3 and r["time_s"]["median"] > 0 and r["tflops"] > 0, r
    assert r["gpu"] == "cpu" and r["algorithm"].startswith("cpu")
    keys.setdefault((r["shape"], r["precision"], r["pass"]), set()).add(r["rank"])
assert len(keys) == 36 and all(ranks == {0, 1, 2} for ranks in keys.values()), keys
# Records of one measurement are adjacent, rank order.
assert [r["rank"] for r in recs[:3]] == [0, 1, 2]
assert {r["layer"] for r in recs} == {"linear", "conv2d"}
assert {r["pass"] for r in recs} == {"fwd", "bwd_data", "bwd_weight"}
assert d["verdict"]["passed"], d["verdict"]
PY
grep -q "== Compute: matmul and conv (per rank) ==" "$out/console.txt"
grep -q "Verdict: PASS" "$out/console.txt"

# Fault injection: rank 1's outputs are perturbed before comparing.
set +e
GPUSCALE_TEST_CORRUPT_CHECK_RANK=1 "$MPIEXEC" -x GPUSCALE_TEST_CORRUPT_CHECK_RANK -n 2 "$GPUSCALE" "${args[@]}" \
  --json "$out/bad.json" >"$out/bad.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || { echo "corrupted check: exit $rc, expected 1"; cat "$out/bad.txt"; exit 1; }
python3 - "$out/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = [c for c in d["checks"] if c["id"] == "compute-reference-mismatch"]
assert bad and all(c["ranks"] == [1] for c in bad), d["checks"]
assert all(r["check"]["passed"] == (r["rank"] == 0) for r in d["compute"])
assert not d["verdict"]["passed"]
PY
# --min-time-ms: each pass is timed over more calls than --iters, as many on every rank (the ranks'
# largest count; calls of 256^3 on the cpu take over 100 us, so none is launch-bound), and --tune-window-ms
# is accepted beside it (the cpu backend has no tuner to give it to). The window is long enough that
# even an oversubscribed machine needs more than 3 calls to fill it; where it does not, the calls
# timed must at least have filled it.
"$MPIEXEC" -n 2 "$GPUSCALE" compute --device cpu --mnk "256,256,256" --precision fp32 --iters 3 --warmup 1 --timeout 60 \
  --min-time-ms 400 --tune-window-ms 5 --json "$out/window.json" >"$out/window.txt"
python3 - "$out/window.json" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))["compute"]
assert len(recs) == 2 * 3, len(recs)
for p in ("fwd", "bwd_data", "bwd_weight"):
    counts = {r["rank"]: len(r["samples_s"]) for r in recs if r["pass"] == p}
    assert sorted(counts) == [0, 1] and len(set(counts.values())) == 1, (p, counts)
    filled = sum(sum(r["samples_s"]) for r in recs if r["pass"] == p and r["rank"] == 0)
    assert counts[0] > 3 or filled >= 0.2, (p, counts, filled)
PY
echo "compute_cpu: ok"
