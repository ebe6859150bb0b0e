#!/usr/bin/env bash
# Usage: GPUSCALE=build/launch/gpuscale [NP=2] [OUT=dir] bench/run_budget.sh      (NP GPUs)
# The run budget: the default run and --quick, each timed on NP ranks against its budget (60 s and
# 15 s). The default run also writes JSON, CSV, HTML and a Chrome trace (the trace is checked for
# shape); report rebuilds the outputs from the JSON without MPI; compare passes the run against
# itself. Prints the verdict and one line per command (wall seconds, exit code) last. Files go to $OUT
# (or a temp folder).
set -uo pipefail
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
np=${NP:-2}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
mpirun=(mpirun --allow-run-as-root -np "$np")
export NCCL_NVLS_ENABLE=0
rows=()
timed() {  # NAME CMD...: runs CMD, records wall seconds and exit code
  local name=$1; shift
  local start end rc
  start=$EPOCHREALTIME
  "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"; rc=$?
  end=$EPOCHREALTIME
  rows+=("$(awk -v n="$name" -v s="$start" -v e="$end" -v rc="$rc" 'BEGIN { printf "%-10s %8.1f %4d", n, e - s, rc }')")
}
timed full "${mpirun[@]}" "$GPUSCALE" --json "$out/run.json" --csv "$out/run.csv" --html "$out/run.html" --trace "$out/trace.json"
timed quick "${mpirun[@]}" "$GPUSCALE" --quick --json "$out/quick.json"
timed report "$GPUSCALE" report "$out/run.json" --html "$out/rebuilt.html" --csv "$out/rebuilt.csv"
timed compare "$GPUSCALE" compare "$out/run.json" "$out/run.json"
python3 - "$out/trace.json" >"$out/trace-check.txt" 2>&1 <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
assert isinstance(ev, list)
for e in ev:
    assert {"ph", "pid", "tid", "name"} <= e.keys(), e
    if e["ph"] == "X":
        assert "ts" in e and "dur" in e, e
print("trace ok:", sum(e["ph"] == "X" for e in ev), "spans")
PY
echo "--- verdict (full run) ---"; sed -n '/^== Verdict/,$p' "$out/full.stdout"
echo "--- $(cat "$out/trace-check.txt")"
ls -la "$out" | grep -E "run\.|trace\.json|rebuilt" || true
echo "run        wall s   rc   (budgets: quick 15 s, default 60 s)"
printf '%s\n' "${rows[@]}"
