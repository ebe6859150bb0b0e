#!/usr/bin/env bash
# compare's noise model on the CPU backend (docs/REPORT.md, compare). Two --quick runs of one rank: every
# collective is a local copy, listed as not judged, never a regression. Two healthy runs of two ranks
# compare with exit 0: the same figures, both verdicts passing (at a tolerance that leaves the figures
# aside: on cores the rest of the machine shares, the scheduler moves CPU timings by whole factors
# between runs; the statistic is pinned in tests/unit/judge/RegressionTest.cpp and on real GPU runs). A
# run that measured nothing fails: one whose GPU phases were all skipped (its own verdict failed), and
# a copy stripped of its phases' records (every figure missing), unless --allow-missing. A new run
# whose own verdict failed fails, saying so.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"

quick() {  # quick RANKS NAME [ENV...]
  local ranks=$1 name=$2; shift 2
  "$MPIEXEC" -n "$ranks" "$@" "$GPUSCALE" --device cpu --quick --quiet --json "$out/$name.json" >"$out/$name.txt" 2>&1
}
quick 1 one-a || fail "one-rank run a failed: $(tail -3 "$out/one-a.txt")"
quick 1 one-b || fail "one-rank run b failed: $(tail -3 "$out/one-b.txt")"
quick 2 two-a || fail "two-rank run a failed: $(tail -3 "$out/two-a.txt")"
quick 2 two-b || fail "two-rank run b failed: $(tail -3 "$out/two-b.txt")"
tolerance=1e9  # the figures aside: coverage and verdicts only (see above)

# One rank: the collectives are local copies, listed and not judged, at the default tolerance.
"$GPUSCALE" compare "$out/one-a.json" "$out/one-b.json" >"$out/one.txt" 2>&1
rc=$?
[ "$rc" -le 1 ] || fail "two one-rank runs: exit $rc: $(tail -3 "$out/one.txt")"
python3 - "$out/one.txt" <<'PY' || fail "one-rank comparison"
import re, sys
text = open(sys.argv[1]).read()
rows = [l for l in text.splitlines() if " collectives " in l and re.search(r" (busbw|algbw|time|peak_busbw) ", l)]
assert len(rows) > 50, rows[:3]
judged = [l for l in rows if "not judged: one rank: a local copy" not in l]
assert not judged, judged[:3]
assert not [l for l in rows if "REGRESSION" in l], "a local copy regressed"
m = re.search(r"(\d+) figures compared, (\d+) regressed past the tolerance and the noise, (\d+) not judged", text)
assert m and int(m.group(3)) >= len(rows), text[-600:]
PY

# Two ranks: healthy runs pass.
"$GPUSCALE" compare "$out/two-a.json" "$out/two-b.json" --tolerance "$tolerance" >"$out/two.txt" 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "two healthy two-rank runs: exit $rc: $(grep -E 'REGRESSION|Compare|Missing|verdict' "$out/two.txt" | head)"
grep -q "; 0 missing from the new run" "$out/two.txt" || fail "healthy runs differ in their figures: $(grep "figures compared" "$out/two.txt")"

# Every GPU phase skipped (a foreign process on rank 1's device): its own verdict fails, its figures are missing.
sleep 600 & tenant=$!
trap 'kill "$tenant" 2>/dev/null; rm -rf "$out"' EXIT
quick 2 skipped -x GPUSCALE_TEST_FOREIGN_PROCESS="1:compute:$tenant"
"$GPUSCALE" compare "$out/two-a.json" "$out/skipped.json" --tolerance "$tolerance" >"$out/skipped.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "a run whose phases were skipped compared with exit $rc, wanted 1"
grep -q "^The new run's own verdict failed:" "$out/skipped.txt" || fail "the new run's failure is not named"
grep -Eq "^Compare: FAIL \(.*[0-9]+ missing from the new run; the new run's own verdict failed\)$" "$out/skipped.txt" \
  || fail "the result line: $(tail -1 "$out/skipped.txt")"

# A copy stripped of its phases' records: it measured nothing, every base figure is missing.
python3 - "$out/two-b.json" "$out/stripped.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for key in ("compute", "burn", "links", "trace_spans"):
    d[key] = []
d["train"]["records"] = []
d.pop("collectives", None)
d.pop("projection", None)
d.pop("budget", None)
d["phases_completed"] = ["env"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$GPUSCALE" compare "$out/two-a.json" "$out/stripped.json" --tolerance "$tolerance" >"$out/stripped.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "a stripped copy compared with exit $rc, wanted 1: $(tail -3 "$out/stripped.txt")"
grep -Eq "^Missing from the new run \([0-9]+\):$" "$out/stripped.txt" || fail "no list of missing figures"
grep -Eq "^Compare: FAIL \([0-9]+ missing from the new run\)$" "$out/stripped.txt" \
  || fail "the result line: $(tail -1 "$out/stripped.txt")"
"$GPUSCALE" compare "$out/two-a.json" "$out/stripped.json" --tolerance "$tolerance" --allow-missing \
  >"$out/allowed.txt" 2>&1 || fail "--allow-missing still failed: $(tail -3 "$out/allowed.txt")"
grep -q "allowed by --allow-missing" "$out/allowed.txt" || fail "--allow-missing does not say so"
echo "compare_noise: ok"
