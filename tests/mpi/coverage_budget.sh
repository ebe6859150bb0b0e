#!/usr/bin/env bash
# Coverage in the verdict: `gpuscale --quick --require-complete` over 4 CPU ranks of one node whose every
# rank is slowed (GPUSCALE_TEST_SLOW_NODE=0: each sleeps 200 ms after every operation of the cpu
# communicator) spends its budget and drops collective sweeps over 4 ranks. The console's Coverage
# section has a SKIP line naming them (dropped: budget spent), the verdict's `planned work done` FAILs
# and the run exits 1; the JSON's verdict.coverage holds an item per planned one. `gpuscale report`
# rebuilds the same coverage from the saved run; the same run judged without --require-complete
# WARNs and exits 0.
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$MPIEXEC" -n 4 --oversubscribe -x GPUSCALE_TEST_SLOW_NODE=0 "$GPUSCALE" --device cpu --quick --quiet \
  --require-complete --json "$out/run.json" >"$out/console.txt" 2>"$out/err.txt"
rc=$?
[ "$rc" -eq 1 ] || { cat "$out/console.txt" "$out/err.txt"; fail "the run exited $rc, wanted 1 (--require-complete)"; }
grep -q "^== Coverage: " "$out/console.txt" || { cat "$out/console.txt"; fail "no Coverage section"; }
line=$(grep -E "^  collectives +(SKIP|FAIL)  .*dropped: budget spent \(needed: multi-GPU\)" "$out/console.txt")
[ -n "$line" ] || { cat "$out/console.txt"; fail "no line names the sweeps dropped for the budget"; }
echo "  $line"
grep -q "^  FAIL  planned work done  (work the job needed was not measured: collectives " "$out/console.txt" ||
  { cat "$out/console.txt"; fail "the verdict does not fail on the dropped work"; }
awk '/^== Coverage/,/^== Checks/' "$out/console.txt" | awk 'length > 160 { exit 1 }' ||
  fail "a coverage line is longer than 160 characters"
python3 - "$out/run.json" <<'PY' || fail "the JSON's coverage"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["plan"]["require_complete"] is True and d["plan"]["profile"] == "quick-cpu", d["plan"]
cov = d["verdict"]["coverage"]
assert len(cov) == len(d["plan"]["items"]), (len(cov), len(d["plan"]["items"]))
dropped = [c for c in cov if c["needed"]]
assert dropped and all(c["result"] == "FAIL" for c in dropped), dropped
assert any(c["phase"] == "collectives" and "budget spent" in c["reason"] for c in dropped), dropped
assert d["verdict"]["passed"] is False
PY
# Re-judged from the saved run: the same coverage and verdict.
rc=0
"$GPUSCALE" report "$out/run.json" --json "$out/again.json" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "report exited $rc, wanted 1"
python3 - "$out/run.json" "$out/again.json" <<'PY' || fail "report rebuilt another coverage"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["verdict"]["coverage"] == b["verdict"]["coverage"], (a["verdict"]["coverage"], b["verdict"]["coverage"])
assert a["verdict"]["rules"] == b["verdict"]["rules"]
PY
# Without --require-complete the dropped work warns, named, and the run passes.
python3 - "$out/run.json" "$out/lenient.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["plan"]["require_complete"] = False
json.dump(d, open(sys.argv[2], "w"))
PY
rc=0
"$GPUSCALE" report "$out/lenient.json" >"$out/lenient.txt" 2>&1 || rc=$?
grep -q "^  WARN  planned work done  (work the job needed was not measured: " "$out/lenient.txt" ||
  { cat "$out/lenient.txt"; fail "no WARN for the dropped work without --require-complete"; }
grep -qE "^  collectives +SKIP  .*dropped: budget spent \(needed: multi-GPU\)" "$out/lenient.txt" ||
  { cat "$out/lenient.txt"; fail "no SKIP line naming the dropped sweeps"; }
if grep -q "^  FAIL  " "$out/lenient.txt"; then
  [ "$rc" -eq 1 ] || fail "a FAIL line but exit $rc"
  echo "  (without --require-complete the run still fails on: $(grep '^  FAIL  ' "$out/lenient.txt" | head -1))"
else
  [ "$rc" -eq 0 ] || { cat "$out/lenient.txt"; fail "exit $rc without a FAIL line"; }
fi
# --require-complete given to report turns the warning back into a failure.
rc=0
"$GPUSCALE" report "$out/lenient.json" --require-complete >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "report --require-complete exited $rc, wanted 1"
echo "coverage budget: ok"
