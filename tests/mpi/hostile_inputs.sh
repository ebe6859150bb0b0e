#!/usr/bin/env bash
# Hostile files, each refused before any work (exit 2, one line naming the problem): a key given twice
# in a run, an --expect file and a baseline; run files whose own fields contradict each other; --expect
# thresholds, --baseline-tolerance keys and baseline entries that name nothing. `baseline` warns, one
# line per run, on a run that failed its own verdict. Every figure of a real run is named by the
# vocabulary (as --expect thresholds and as baseline entries). A sysfs tree with port rates no adapter
# runs at gives a run that exits as usual and that `report` reads, the rates dropped as unknown.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"

"$MPIEXEC" -n 2 "$GPUSCALE" --device cpu --quick --quiet --json "$out/run.json" --csv "$out/run.csv" >/dev/null \
  || fail "the quick run failed"
"$GPUSCALE" baseline "$out/run.json" -o "$out/base.json" >/dev/null || fail "baseline of the run failed"
"$GPUSCALE" report "$out/run.json" --baseline "$out/base.json" >/dev/null \
  || fail "the run fails its own baseline: every entry must name a figure"
refused() {  # refused WANTED ARGS...: gpuscale ARGS exits 2 with one line that says WANTED
  local wanted=$1 err; shift
  err=$(one_line_exit 2 "$@") || fail "$err"
  [[ "$err" == *"$wanted"* ]] || fail "'$*' said '$err', not '$wanted'"
}

# A key twice: parsers keep the first or the last, so the file means two things.
python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
run = open(f"{out}/run.json").read()
assert run.count('"complete": true') == 1, "the run is complete"
open(f"{out}/dup-run.json", "w").write(run.replace('"complete": true', '"complete": false, "complete": true'))
base = open(f"{out}/base.json").read()
open(f"{out}/dup-base.json", "w").write(base.replace('"label_version": 2', '"label_version": 2, "label_version": 1', 1))
open(f"{out}/dup-expect.json", "w").write('{"max_straggler_spread": 0.5, "max_straggler_spread": 9}')
PY
refused "dup-run.json: the key /complete is given twice" report "$out/dup-run.json"
refused "dup-run.json: the key /complete is given twice" compare "$out/run.json" "$out/dup-run.json"
refused "the key /label_version is given twice" report "$out/run.json" --baseline "$out/dup-base.json"
refused "the key /max_straggler_spread is given twice" report "$out/run.json" --expect "$out/dup-expect.json"

# Run files whose own fields contradict each other.
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def edited(name, change):
    d = json.load(open(f"{out}/run.json"))
    change(d)
    json.dump(d, open(f"{out}/bad-{name}.json", "w"))
edited("no-ranks", lambda d: d.update(ranks=[]))
edited("check-rank", lambda d: d["checks"].append({"id": "numa-binding", "severity": "warning", "ranks": [9],
                                                   "message": "m"}))
edited("failure-rank", lambda d: d.update(failure={"exit_code": 3, "message": "m", "rank": 7,
                                                   "ranks_not_responding": []}))
edited("threshold", lambda d: d.update(straggler_threshold=-1))
edited("no-train", lambda d: d["train"].update(records=[]))
PY
refused "contradictory run report: phases_completed lists env, but its records are not in the file" \
  report "$out/bad-no-ranks.json"
refused "names rank 9; world.size is 2" report "$out/bad-check-rank.json"
refused "failure names rank 7; world.size is 2" compare "$out/run.json" "$out/bad-failure-rank.json"
refused "straggler_threshold -1" baseline "$out/bad-threshold.json" -o "$out/never.json"
refused "phases_completed lists train, but its records are not in the file" report "$out/bad-no-train.json"
[ ! -e "$out/never.json" ] || fail "a refused baseline wrote its file"

# Thresholds, tolerance keys and baseline entries that name nothing.
echo '{"thresholds": [{"phase": "compute", "metric": "busbw", "min": 1}]}' >"$out/other-phase.json"
echo '{"thresholds": [{"metric": "busbw", "labels": {"size": 8}, "min": 1}]}' >"$out/label-key.json"
echo '{"thresholds": [{"phase": "warmup", "metric": "busbw", "min": 1}]}' >"$out/phase.json"
refused "busbw is a figure of collectives, not of compute" report "$out/run.json" --expect "$out/other-phase.json"
refused "label 'size' is not one of busbw's" report "$out/run.json" --expect "$out/label-key.json"
refused "unknown phase 'warmup'" report "$out/run.json" --expect "$out/phase.json"
refused "busbw is a figure of collectives, not of compute" report "$out/run.json" --baseline "$out/base.json" \
  --baseline-tolerance compute/busbw=0.1
refused "label 'size' is not one of collectives busbw's" report "$out/run.json" --baseline "$out/base.json" \
  --baseline-tolerance "collectives/busbw/size=8=0.1"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def edited(name, change):
    b = json.load(open(f"{out}/base.json"))
    change(b["groups"][0]["figures"][0])
    json.dump(b, open(f"{out}/base-{name}.json", "w"))
edited("unit", lambda f: f.update(unit="furlongs"))
edited("phase", lambda f: f.update(phase="warmup"))
edited("label", lambda f: f["labels"].update(colour="red"))
PY
refused "unit 'furlongs' is not" report "$out/run.json" --baseline "$out/base-unit.json"
refused "unknown phase 'warmup'" report "$out/run.json" --baseline "$out/base-phase.json"
refused "label 'colour' is not one of" report "$out/run.json" --baseline "$out/base-label.json"

# Every figure of the real run, as a threshold naming its phase, metric and labels, names something.
python3 - "$out" <<'PY'
import csv, json, sys
out = sys.argv[1]
thresholds = []
for row in csv.DictReader(open(f"{out}/run.csv")):
    if row["phase"] in ("checks", "run"):  # a check's own figure; the verdict's row
        continue
    labels = dict(p.split("=", 1) for p in row["labels"].split(";")) if row["labels"] else {}
    if row["rank"]:  # the figure's rank or node is a column of its own
        labels["rank"] = row["rank"]
    elif row["node"]:
        labels["node"] = row["node"]
    thresholds.append({"phase": row["phase"], "metric": row["metric"], "labels": labels, "min": -1e300})
assert len(thresholds) > 100, len(thresholds)
json.dump({"thresholds": thresholds}, open(f"{out}/every-figure.json", "w"))
PY
"$GPUSCALE" report "$out/run.json" --expect "$out/every-figure.json" >/dev/null 2>"$out/every.err"
rc=$?
[ "$rc" -ne 2 ] || fail "a figure of the run names nothing: $(cat "$out/every.err")"

# `baseline` takes a run that failed its own verdict, with one warning line for it.
"$MPIEXEC" -n 2 "$GPUSCALE" env --device cpu --quiet --json "$out/env.json" >/dev/null || fail "env run failed"
"$MPIEXEC" -n 2 -x GPUSCALE_TEST_CORRUPT=1:smoke-allreduce "$GPUSCALE" env --device cpu --quiet \
  --json "$out/corrupt.json" >/dev/null
"$GPUSCALE" baseline "$out/env.json" "$out/corrupt.json" -o "$out/env-base.json" >/dev/null 2>"$out/warn.err" \
  || fail "baseline refused a complete run: $(cat "$out/warn.err")"
[ "$(grep -c . "$out/warn.err")" -eq 1 ] || fail "not one warning line: $(cat "$out/warn.err")"
grep -q "^gpuscale: warning: $out/corrupt.json failed its own verdict (" "$out/warn.err" \
  || fail "the warning does not name the failed run: $(cat "$out/warn.err")"

# Rates no port runs at are dropped as unknown, never written: the run exits as usual and report reads it.
for dev in mlx5_0 mlx5_1; do
  p="$out/sysfs/sys/class/infiniband/$dev/ports/1"
  mkdir -p "$p" "$out/sysfs/sys/class/infiniband/$dev/device"
  echo "4: ACTIVE" >"$p/state"; echo "5: LinkUp" >"$p/phys_state"; echo "InfiniBand" >"$p/link_layer"
done
echo "1e308 Gb/sec (4X NDR)" >"$out/sysfs/sys/class/infiniband/mlx5_0/ports/1/rate"
echo "inf Gb/sec" >"$out/sysfs/sys/class/infiniband/mlx5_1/ports/1/rate"
GPUSCALE_TEST_SYSFS_ROOT="$out/sysfs" "$GPUSCALE" env --device cpu --quiet --json "$out/sysfs.json" >/dev/null \
  2>"$out/sysfs.err"
rc=$?
[ "$rc" -eq 0 ] || fail "env over hostile sysfs rates exited $rc: $(cat "$out/sysfs.err")"
"$GPUSCALE" report "$out/sysfs.json" >/dev/null 2>"$out/sysfs-report.err" \
  || fail "report refused the run: $(cat "$out/sysfs-report.err")"
python3 - "$out/sysfs.json" <<'PY' || fail "hostile rates in the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
ports = [p for a in d["ranks"][0]["network"]["adapters"] for p in a["ports"]]
assert [p["rate_gbps"] for p in ports] == [0, 0], ports
assert "past 100000 Gb/s" in ports[0]["rate_unknown"] and "not a finite rate" in ports[1]["rate_unknown"], ports
PY
echo "hostile_inputs: ok"
