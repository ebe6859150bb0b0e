#!/usr/bin/env bash
# bench/timeline.py, the preflight's per-phase timeline: on every saved whole-job run of the tests, one
# row per phase in order, each from its started_s (where the one before ended in files without it) to
# its ended_s, with the seconds between; the dropped items of a run that dropped some counted; the wall time shown
# against the budget; and a file without a timeline refused with exit 2.
#   bench_timeline.sh SOURCE_DIR
set -euo pipefail
src="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=0
for saved in "$src"/tests/expect/runs/*.json.gz; do
  gunzip -c "$saved" >"$tmp/run.json"
  python3 "$src/bench/timeline.py" "$tmp/run.json" --wall 20 >"$tmp/out.txt"
  python3 - "$tmp/run.json" "$tmp/out.txt" <<'PY'
import json, re, sys
run, text = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
phases = run["budget"]["phases"]
rows = [l.split() for l in text.splitlines() if l and l.split()[0] in {p["phase"] for p in phases}]
assert [r[0] for r in rows] == [p["phase"] for p in phases], (rows, phases)
previous_end = 0.0
for r, p in zip(rows, phases):
    before, s, e, secs = float(r[1]), float(r[2]), float(r[3]), float(r[4])
    assert abs(s - p.get("started_s", previous_end)) < 0.006, (r, p)
    assert abs(e - (p["ended_s"] or run["elapsed_s"])) < 0.006, (r, p)
    assert abs(secs - (e - s)) < 0.011 and abs(before - (s - previous_end)) < 0.011, r
    previous_end = e
dropped = sum(len(p.get("dropped") or []) for p in phases)
assert (" dropped " in text) == (dropped > 0), text
budget = run["budget"]["budget_s"]
want = "mpirun start to exit 20.00 s (%.2fx)" % (20 / budget)
assert want in text, (want, text)
PY
  runs=$((runs + 1))
done
[ "$runs" -gt 0 ] || { echo "bench_timeline: no saved run"; exit 1; }
# A run that kept each phase's start: the boundaries (0.25 s before every phase but the first) shown.
python3 - "$tmp/run.json" "$tmp/started.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
end = 0.0
for i, p in enumerate(run["budget"]["phases"]):
    p["started_s"] = end + (0.25 if i else 0.0)
    end = p["ended_s"] = max(p["ended_s"], p["started_s"] + 1)
json.dump(run, open(sys.argv[2], "w"))
PY
python3 "$src/bench/timeline.py" "$tmp/started.json" >"$tmp/out.txt"
n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['budget']['phases']))" "$tmp/started.json")
want=$(awk -v n="$n" 'BEGIN { printf "between phases (the tenancy look at every GPU, the report written): %.2f s", (n - 1) * 0.25 }')
grep -qF "$want" "$tmp/out.txt" && [ "$(grep -c '^[a-z]* *0\.25 ' "$tmp/out.txt")" -eq $((n - 1)) ] \
  || { echo "bench_timeline: want '$want' and $((n - 1)) rows 0.25 s after the last phase:"; cat "$tmp/out.txt"; exit 1; }
echo '{"command_line": "gpuscale env", "elapsed_s": 1}' >"$tmp/env.json"
rc=0
python3 "$src/bench/timeline.py" "$tmp/env.json" >"$tmp/out.txt" 2>"$tmp/err.txt" || rc=$?
[ "$rc" -eq 2 ] && grep -q "no budget timeline" "$tmp/err.txt" || { echo "bench_timeline: want exit 2, got $rc"; cat "$tmp/err.txt"; exit 1; }
echo "bench_timeline: ok ($runs saved runs)"
