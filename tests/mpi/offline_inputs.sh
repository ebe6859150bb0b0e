#!/usr/bin/env bash
# The offline commands check their input before any work: `compare` refuses a run that did not finish
# (unless --allow-incomplete) and every option it does not use; --expect thresholds that cannot be met
# or name nothing, baselines that judge nothing or hold impossible values, and a copy of a run given
# twice to `baseline` are bad input: exit 2, one line, nothing written. One singleton env run, no mpirun.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"

"$GPUSCALE" env --device cpu --quiet --json "$out/run.json" >/dev/null || fail "env run failed"
python3 - "$out/run.json" "$out/unfinished.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); r["complete"] = False
json.dump(r, open(sys.argv[2], "w"))
PY

# A run that did not finish is not compared unless asked; asked, it is compared with a warning.
err=$(one_line_exit 2 compare "$out/run.json" "$out/unfinished.json")
[[ "$err" == *"unfinished.json is not a complete run (complete: false)"* ]] || fail "unfinished NEW: $err"
one_line_exit 2 compare "$out/unfinished.json" "$out/run.json" >/dev/null
"$GPUSCALE" compare "$out/run.json" "$out/unfinished.json" --allow-incomplete >"$out/allowed.txt" 2>"$out/allowed.err" \
  || fail "--allow-incomplete did not compare: $(cat "$out/allowed.txt" "$out/allowed.err")"
grep -q "not a complete run" "$out/allowed.err" || fail "--allow-incomplete gave no warning"

# Options compare does not use are refused, not ignored; nothing is written.
for option in --json --csv --checks-csv --html --trace --prom --expect; do
  err=$(one_line_exit 2 compare "$out/run.json" "$out/run.json" "$option" "$out/o.file")
  [[ "$err" == *"$option does not apply here"* ]] || fail "compare $option: $err"
done
[ ! -e "$out/o.file" ] || fail "a refused compare wrote a file"
expect_usage_as_given compare "$out/run.json" "$out/run.json" --timeout 5
expect_usage_as_given report "$out/run.json" --quick

# Thresholds that cannot be met or name nothing: exit 2 before any work, not 1 at the end.
echo '{"thresholds": [{"metric": "busbw", "max": -1}]}' >"$out/negative.json"
echo '{"min_busbw": [{"op": "allreduc", "gbps": 1}]}' >"$out/op.json"
echo '{"min_tflops": {"bf61": 1}}' >"$out/precision.json"
one_line_exit 2 report "$out/run.json" --expect "$out/negative.json" | grep -q "never negative" || fail "max -1"
one_line_exit 2 report "$out/run.json" --expect "$out/op.json" | grep -q "unknown op 'allreduc' (did you mean allreduce?) (allreduce," \
  || fail "op allreduc"
one_line_exit 2 report "$out/run.json" --expect "$out/precision.json" | grep -q "unknown precision 'bf61'" \
  || fail "precision bf61"

# A copy of a run is the same run: refused, not counted twice.
cp "$out/run.json" "$out/copy.json"
err=$(one_line_exit 2 baseline "$out/run.json" "$out/copy.json" -o "$out/b.json")
[[ "$err" == *"copy.json is the same run as"* ]] || fail "a copy was counted: $err"
[ ! -e "$out/b.json" ] || fail "a refused baseline wrote its file"

# Baselines that judge nothing, or by values no run has, are refused by the reader (exit 2, not 1).
"$GPUSCALE" baseline "$out/run.json" -o "$out/base.json" >/dev/null || fail "baseline of one run failed"
"$GPUSCALE" report "$out/run.json" --baseline "$out/base.json" >/dev/null || fail "the run fails its own baseline"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
variants = {
    "no-groups": lambda b: b.update(groups=[]),
    "no-figures": lambda b: b["groups"][0].update(figures=[]),
    "no-runs": lambda b: b["groups"][0].update(runs=0),
    "per-node": lambda b: b["groups"][0].update(ranks_per_node=-3),
    "check-id": lambda b: b["groups"][0]["checks_passed"].append("no-such-check"),
    "two-groups": lambda b: b["groups"].append(b["groups"][0]),
    "two-figures": lambda b: b["groups"][0]["figures"].append(b["groups"][0]["figures"][0]),
    "negative": lambda b: b["groups"][0]["figures"][0].update(min=-1),
}
for name, change in variants.items():
    b = json.load(open(f"{out}/base.json"))
    change(b)
    json.dump(b, open(f"{out}/bad-{name}.json", "w"))
PY
for f in "$out"/bad-*.json; do
  one_line_exit 2 report "$out/run.json" --baseline "$f" >/dev/null
done
echo "offline_inputs: ok"
