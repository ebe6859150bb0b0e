#!/usr/bin/env bash
# A real 2-rank run of the default job on the CPU backend writes JSON, CSV, HTML and a trace, and its
# start-up line states what it ran (plan_line_lib.sh); then, without MPI:
# `report` rebuilds the outputs, `compare` passes an identical run and flags a planted 10% slowdown,
# other-schema and malformed files exit 2 with one line, and --expect fails a missed threshold naming it.
#   report_commands.sh [sanitized]
# Under the sanitizers the run is --quick (the same phases and outputs on a smaller plan): the default
# job alone took 139 s there, and the main build runs the default job.
set -uo pipefail
profile=() precision=fp32  # the default job trains in fp32, --quick in bf16
[ "${1:-}" = sanitized ] && profile=(--quick) precision=bf16
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
one_line_exit() {  # RC ARGS...: runs gpuscale, wants exit RC and exactly one line on stderr
  local want=$1; shift
  local err rc
  err=$("$GPUSCALE" "$@" 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq "$want" ] || fail "'$*' exited $rc, wanted $want: $err"
  [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] || fail "'$*' printed not one line: $err"
  printf '%s\n' "$err"
}

"$MPIEXEC" -n 2 "$GPUSCALE" "${profile[@]}" --device cpu --json "$out/run.json" --csv "$out/run.csv" --html "$out/run.html" \
  --trace "$out/trace.json" >"$out/console.txt" 2>"$out/progress.txt" || { cat "$out/progress.txt"; fail "the run failed"; }
. "$(dirname "$0")/plan_line_lib.sh"
check_plan_line "$out/progress.txt" "$out/run.json" || fail "the default run's start-up line is not what ran"
for f in run.json run.csv run.html trace.json; do [ -s "$out/$f" ] || fail "$f not written"; done
grep -q "^== Verdict: PASS ==$" "$out/console.txt" || fail "no verdict in the console output"
# host,node,rank 1,local rank,no GPU uuid or model (cpu backend),phase,metric,no other labels
grep -Eq ",[0-9]+,1,[0-9]+,,,env,smoke_allreduce_time,," "$out/run.csv" || fail "CSV lacks rank 1's smoke time"
python3 -c "import json,sys; t=json.load(open(sys.argv[1])); assert isinstance(t['traceEvents'], list)" "$out/trace.json" \
  || fail "trace is not Trace Event JSON"
# The training phase reaches the figures: CSV rows and the HTML's scaling charts.
ddp2="gpus=2;model=mlp;options=opt-overlap;precision=$precision;scaling=weak;strategy=ddp"
grep -q ",train,step_time,$ddp2," "$out/run.csv" || fail "CSV lacks the 2-rank DDP step time"
grep -q ",train,scaling_efficiency," "$out/run.csv" || fail "CSV lacks the scaling efficiency"
for id in chart-step-time chart-efficiency chart-overlap-0; do
  grep -q "id=\"$id\"" "$out/run.html" || fail "HTML lacks $id"
done

# report: no MPI at all (a broken MPI component would stop MPI_Init), same CSV as the run wrote.
OMPI_MCA_pml=no-such-component "$GPUSCALE" report "$out/run.json" --csv "$out/again.csv" --html "$out/again.html" \
  >"$out/report.txt" || fail "report failed (did it initialise MPI?)"
# The same rows, run id included, but for the output_set column: each write's own (docs/REPORT.md).
grep -q ",run,verdict,result=" "$out/again.csv" || fail "report's CSV has no verdict row"
cmp -s <(cut -d, -f1,3- "$out/run.csv") <(cut -d, -f1,3- "$out/again.csv") || fail "report's CSV differs from the run's"
cmp -s <(cut -d, -f2 "$out/run.csv") <(cut -d, -f2 "$out/again.csv") && fail "report's CSV kept the run's output set"
# The verdict list, rebuilt from the JSON, is the run's own (on a loaded machine a WARN may be in both).
verdict() { sed -n '/^== Verdict/,/^$/p' "$1"; }
grep -Eq "^  (PASS|WARN)  no error checks" "$out/report.txt" || fail "report did not print the verdict list"
[ "$(verdict "$out/report.txt")" = "$(verdict "$out/console.txt")" ] \
  || fail "report's verdict differs from the run's: $(verdict "$out/report.txt")"

"$GPUSCALE" compare "$out/run.json" "$out/run.json" >"$out/same.txt" || fail "identical runs did not pass compare"
python3 - "$out/run.json" "$out/slow.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
run["ranks"][1]["smoke_allreduce"]["op_s"] *= 1.10   # a planted 10% slowdown
json.dump(run, open(sys.argv[2], "w"))
run["schema_version"] = 99
json.dump(run, open(sys.argv[2] + ".v99", "w"))
PY
"$GPUSCALE" compare "$out/run.json" "$out/slow.json" >"$out/slow.txt"; rc=$?
[ "$rc" -eq 1 ] || fail "compare exited $rc on a 10% slowdown, wanted 1"
grep -q "REGRESSION.*smoke_allreduce_time.*rank=1.*+10.0%" "$out/slow.txt" || fail "the regression is not named: $(cat "$out/slow.txt")"
"$GPUSCALE" compare "$out/run.json" "$out/slow.json" --tolerance 0.2 >/dev/null || fail "10% within a 20% tolerance failed"

one_line_exit 2 compare "$out/run.json" "$out/slow.json.v99" | grep -q "schema_version 99" || fail "schema error unclear"
echo '{"schema_version": 1, "ranks": [' >"$out/broken.json"
one_line_exit 2 report "$out/broken.json" | grep -q "not valid JSON" || fail "malformed error unclear"
one_line_exit 2 compare "$out/run.json" >/dev/null
one_line_exit 2 compare "$out/run.json" "$out/run.json" --tolerance -1 >/dev/null

# --expect: a missed threshold fails (exit 1) naming it; a malformed file exits 2 before any work.
# The run with --expect is a --quick one: the default job already ran above.
echo '{"thresholds": [{"name": "smoke allreduce under 1 ns", "phase": "env", "metric": "smoke_allreduce_time", "max": 1e-9}]}' \
  >"$out/strict.json"
"$GPUSCALE" report "$out/run.json" --expect "$out/strict.json" >"$out/strict.txt"; rc=$?
[ "$rc" -eq 1 ] || fail "report --expect exited $rc on a missed threshold, wanted 1"
grep -q "FAIL  smoke allreduce under 1 ns  (missed by env smoke_allreduce_time" "$out/strict.txt" || fail "threshold not named"
# A training threshold is judged on the training figures (before they existed, it read "not measured").
echo '{"thresholds": [{"name": "ddp step", "phase": "train", "metric": "step_time", "labels": {"strategy": "ddp"},
  "max": 1e-9}], "min_scaling_efficiency": 0}' >"$out/train.json"
"$GPUSCALE" report "$out/run.json" --expect "$out/train.json" >"$out/train.txt"; rc=$?
[ "$rc" -eq 1 ] || fail "report --expect exited $rc on a missed training threshold, wanted 1"
grep -q "FAIL  ddp step  (missed by train step_time gpus=" "$out/train.txt" || fail "train threshold: $(cat "$out/train.txt")"
grep -q "PASS  min scaling efficiency" "$out/train.txt" || fail "efficiency not judged: $(cat "$out/train.txt")"
"$MPIEXEC" -n 2 "$GPUSCALE" --quick --device cpu --quiet --json "$out/strict-run.json" --expect "$out/strict.json" >"$out/strict-run.txt"
rc=$?
[ "$rc" -eq 1 ] || fail "a run missing its --expect threshold exited $rc, wanted 1"
python3 -c "import json,sys; v=json.load(open(sys.argv[1]))['verdict']; assert v['result']=='FAIL' and any(r['name']=='smoke allreduce under 1 ns' and r['result']=='FAIL' for r in v['rules'])" \
  "$out/strict-run.json" || fail "the JSON verdict does not list the failed threshold"
echo '{"min_tflops": {"bf16": "fast"}}' >"$out/bad-expect.json"
err=$("$MPIEXEC" -n 2 "$GPUSCALE" --device cpu --json "$out/never.json" --expect "$out/bad-expect.json" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] || fail "a malformed --expect file exited $rc, wanted 2"
printf '%s\n' "$err" | grep -q "min_tflops.bf16 must be a number" || fail "malformed --expect not explained: $err"
[ ! -e "$out/never.json" ] || fail "a malformed --expect file still ran the job"
echo "report_commands: ok"
