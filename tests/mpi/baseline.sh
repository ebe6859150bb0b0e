#!/usr/bin/env bash
# Baselines end to end on the CPU backend: three 2-rank runs make a baseline; `report` of each of them
# with --baseline passes; a fourth run whose single-GPU scaling efficiency the test seam lowers by 10%
# (`train` alone) is flagged baseline-drop naming that figure. Then bad input: one line, exit 2, nothing written.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"

for i in 1 2 3; do
  "$MPIEXEC" -n 2 "$GPUSCALE" --device cpu --quick --quiet --json "$out/run$i.json" >"$out/run$i.txt" \
    || fail "run $i failed: $(tail -5 "$out/run$i.txt")"
done
"$GPUSCALE" baseline "$out/run1.json" "$out/run2.json" "$out/run3.json" -o "$out/base.json" >"$out/baseline.txt" \
  || fail "baseline failed: $(cat "$out/baseline.txt")"
grep -q "^  cpu (.*), 2 ranks per node: 3 runs, [0-9]* figures" "$out/baseline.txt" \
  || fail "baseline summary: $(cat "$out/baseline.txt")"
python3 - "$out/base.json" <<'PY' || fail "baseline file content"
import json, sys
b = json.load(open(sys.argv[1]))
assert b["baseline_version"] == 2 and b["label_version"] == 2, (b["baseline_version"], b["label_version"])
(g,) = b["groups"]
assert g["runs"] == 3 and g["ranks_per_node"] == 2, g
eff = [f for f in g["figures"] if f["metric"] == "scaling_efficiency" and f["labels"]["strategy"] == "single"]
assert eff and eff[0]["median"] == 1 and eff[0]["runs"] == 3, eff
# A per-rank figure is pooled over ranks: no rank label, 2 ranks x 3 runs of values.
smoke = [f for f in g["figures"] if f["metric"] == "smoke_allreduce_time"]
assert len(smoke) == 1 and "rank" not in smoke[0]["labels"] and smoke[0]["values"] == 6, smoke
assert "smoke-allreduce-failed" in g["checks_passed"], g["checks_passed"]
PY

for i in 1 2 3; do
  "$GPUSCALE" report "$out/run$i.json" --baseline "$out/base.json" --html "$out/judged$i.html" >"$out/judged$i.txt" \
    || fail "run $i judged against its own baseline: $(grep -E '^  (FAIL|WARN)' "$out/judged$i.txt")"
  grep -q "^  PASS  baseline-drop  (" "$out/judged$i.txt" || fail "run $i: no baseline-drop line"
  grep -q "^  PASS  baseline-missing  (" "$out/judged$i.txt" || fail "run $i: no baseline-missing line"
  grep -q "^  PASS  baseline-new-failure  (" "$out/judged$i.txt" || fail "run $i: no baseline-new-failure line"
done
# The HTML's summary sets each headline beside the baseline's median of its figure.
python3 - "$out/judged1.html" <<'PY' || fail "the HTML summary lacks the baseline"
import re, sys
html = open(sys.argv[1]).read()
summary = html[html.index('<section id="summary">'):]
summary = summary[:summary.index("</section>")]
# figure, then value, unit, GPUs, floor, peak, % of peak, peak from, baseline, against baseline, note
rows = re.findall(r"<tr><td>(Compute: best TFLOP/s[^<]*)</td>((?:<td>[^<]*</td>){10})</tr>", summary)
assert rows, summary
for title, cells in rows:
    baseline, change = re.findall(r"<td>([^<]*)</td>", cells)[-3:-1]
    assert baseline != "-" and change.endswith("%"), (title, cells)
PY

# The fourth run is `train` alone: on a loaded machine hundreds of collective figures can drop too,
# and the check's details keep only its first 100 findings.
GPUSCALE_TEST_LOWER_FIGURE="train/scaling_efficiency/strategy=single" \
  "$MPIEXEC" -n 2 "$GPUSCALE" train --device cpu --quick --quiet --json "$out/run4.json" --baseline "$out/base.json" \
  >"$out/run4.txt"
rc=$?
[ "$rc" -eq 1 ] || fail "the lowered run exited $rc, wanted 1"
# One verdict line for the rule, however many figures dropped (on a loaded machine collectives may too);
# the lowered figure is among the check's findings.
[ "$(grep -c "^  FAIL  baseline-drop" "$out/run4.txt")" -eq 1 ] || fail "not one baseline-drop line: $(grep baseline "$out/run4.txt")"
python3 -c "
import json, re, sys
r = json.load(open(sys.argv[1]))
(drop,) = [c for c in r['checks'] if c['id'] == 'baseline-drop']
texts = drop.get('details') or [drop['message']]
want = re.compile(r'train scaling_efficiency gpus=1;.*strategy=single: measured 0.9 ratio, 10.0% below the baseline median 1 ratio')
assert any(want.search(t) for t in texts), texts
" "$out/run4.json" || fail "the lowered figure is not flagged: $(grep baseline "$out/run4.txt")"

# Bad input: one line, exit 2, nothing written.
expect_usage baseline "$out/run1.json"                                  # no -o
expect_usage baseline -o "$out/b.json"                                  # no runs
expect_usage baseline "$out/run1.json" "$out/run1.json" -o "$out/b.json"
expect_usage baseline "$out/run1.json" -o "$out/run1.json"
mknod "$out/dev" c 1 3
err=$(one_line_exit 2 baseline "$out/run1.json" -o "$out/dev")
python3 -c "
import json, sys
r = json.load(open(sys.argv[1])); r['complete'] = False; json.dump(r, open(sys.argv[2], 'w'))
r = json.load(open(sys.argv[1])); r['ranks'][1]['cpu_model'] = 'another cpu'; json.dump(r, open(sys.argv[3], 'w'))
b = json.load(open(sys.argv[4])); b['baseline_version'] = 99; json.dump(b, open(sys.argv[5], 'w'))
" "$out/run1.json" "$out/incomplete.json" "$out/mixed.json" "$out/base.json" "$out/base99.json"
err=$(one_line_exit 2 baseline "$out/incomplete.json" -o "$out/b.json")
[[ "$err" == *"is not a complete run (complete: false)"* ]] || fail "incomplete run: $err"
err=$(one_line_exit 2 baseline "$out/mixed.json" -o "$out/b.json")
[[ "$err" == *"mixes GPU models"* ]] || fail "mixed models: $err"
[ ! -e "$out/b.json" ] || fail "a refused baseline wrote its file"
err=$(one_line_exit 2 report "$out/run1.json" --baseline "$out/base99.json")
[[ "$err" == *"baseline_version 99 is not supported"* ]] || fail "other version: $err"
expect_usage report "$out/run1.json" --baseline "$out/run1.json"       # a run, not a baseline
expect_usage report "$out/run1.json" --baseline "$out/base.json" --baseline-tolerance tflops
expect_usage report "$out/run1.json" --baseline "$out/base.json" --baseline-tolerance no_such_metric=0.1
expect_usage report "$out/run1.json" --baseline "$out/base.json" --baseline-tolerance tflops=-1
expect_usage report "$out/run1.json" --baseline-tolerance tflops=0.1
expect_usage compare "$out/run1.json" "$out/run2.json" --baseline "$out/base.json"
GPUSCALE_TEST_LOWER_FIGURE=nophase expect_usage report "$out/run1.json" --baseline "$out/base.json"
err=$("$MPIEXEC" -n 2 "$GPUSCALE" env --device cpu --quiet --json "$out/never.json" --baseline "$out/base99.json" 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 2 ] || fail "a live run with a bad baseline exited $rc, wanted 2"
[ ! -e "$out/never.json" ] || fail "a live run with a bad baseline wrote its report"
echo "baseline: ok"
