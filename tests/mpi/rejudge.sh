#!/usr/bin/env bash
# `gpuscale report` judges a saved run from its records alone: a run's JSON with its checks and verdict
# removed, given to report, yields the same checks (id, severity, ranks, nodes, pairs, message,
# details, GPU policy) and the same verdict (result and every rule line) as the run wrote.
# Two CPU runs of 4 ranks as 2 emulated nodes, with test seams so that every family has something to
# say: (a) --quick with a corrupted compute reference on rank 1, DDP gradients perturbed on rank 1, a
# wrong burn output on rank 2 and a foreign process that appears on rank 1's device during compute;
# (b) --quick with that process there from the start, so env stops the GPU phases.
# The records keep measurements; the judge's output in them (tenants, shared_phases, pairs' slow,
# isolation's suspects) is stripped with the checks, and report derives it again. Then each
# threshold of those judgements, changed through --expect, changes them both ways: the tenants of a
# look that read 30% busy (busy_utilization_pct 20 or 50), the slow pairs of a run with a slowed node
# (pair_threshold 0.8 on a run taken with --pair-threshold 0, then 0), and its isolation's suspects
# (isolate_threshold 0.5 on a run taken with 0.000001, then 0.000001).
# compare and baseline judge their runs by today's rules too: the bare run compares with the run as
# written without a change, and makes the same baseline (no check the run raised counts as passing).
set -uo pipefail
out=$(mktemp -d)
sleep 300 &
foreign=$!
trap 'kill $foreign 2>/dev/null; rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

run() {  # NAME SEAM_ARGS...: a --quick run of 4 ranks that must fail its verdict, saved as NAME.json
  local name=$1
  shift
  "$MPIEXEC" -n 4 -x GPUSCALE_TEST_RANKS_PER_NODE=2 "$@" "$GPUSCALE" --device cpu --quick --quiet \
    --json "$out/$name.json" >"$out/$name.txt" 2>&1
  local rc=$?
  [ "$rc" -eq 1 ] || { tail -20 "$out/$name.txt"; fail "run $name exited $rc, wanted 1"; }
}

rejudge() {  # NAME: NAME.json without checks and verdict, re-judged by report into NAME.rejudged.json
  python3 - "$out/$1.json" "$out/$1.bare.json" <<'PY' || fail "could not strip $1"
import json, sys
d = json.load(open(sys.argv[1]))
del d["checks"], d["verdict"]
# The judge's output in the records goes too: report decides it again from the measurements.
d.pop("tenants", None), d.pop("shared_phases", None)
c = d.get("collectives") or {}
for p in (c.get("pairs") or {}).get("pairs", []):
    p.pop("slow", None)
if c.get("isolation"):
    c["isolation"].pop("suspects", None)
json.dump(d, open(sys.argv[2], "w"))
PY
  "$GPUSCALE" report "$out/$1.bare.json" --json "$out/$1.rejudged.json" >"$out/$1.report.txt" 2>&1
  local rc=$?
  [ "$rc" -eq 1 ] || { cat "$out/$1.report.txt"; fail "report of $1 exited $rc, wanted 1 (the run's)"; }
  python3 - "$out/$1.json" "$out/$1.rejudged.json" "$@" <<'PY' || fail "report of $1 judged otherwise"
import json, sys
run, again = (json.load(open(p)) for p in sys.argv[1:3])
want = set(sys.argv[4:])
keys = ("id", "severity", "ranks", "nodes", "pairs", "message", "details", "count", "blocks_gpu_work")
def checks(d):
    return [{k: c.get(k) for k in keys} for c in d["checks"]]
def verdict(d):
    v = d["verdict"]
    return v["passed"], v.get("incomplete"), v.get("reasons"), v["rules"]
ids = {c["id"] for c in run["checks"]}
assert want <= ids, f"the run lacks {sorted(want - ids)}: {sorted(ids)}"
assert checks(again) == checks(run), "\n" + json.dumps(checks(run), indent=1) + "\n---\n" + json.dumps(checks(again), indent=1)
assert verdict(again) == verdict(run), (verdict(run), verdict(again))
assert run["verdict"]["passed"] is False
PY
}

run midrun -x GPUSCALE_TEST_CORRUPT_CHECK_RANK=1 -x GPUSCALE_TEST_CORRUPT_GRADS_RANK=1 \
  -x GPUSCALE_TEST_CORRUPT=2:burn-output -x GPUSCALE_TEST_FOREIGN_PROCESS="1:compute:$foreign@compute"
rejudge midrun compute-reference-mismatch gpu-wrong-result train-ddp-gradients-bitwise-equal gpu-in-use \
  burn-telemetry-unavailable no-rdma-adapter
# NAME: compare NAME.json with NAME.bare.json (every figure in both, none changed; exit 1 only because
# the bare copy, judged afresh, fails its own verdict as the run did), then one baseline of each: the
# same checks passing and the same figures.
offline_commands_rejudge() {
  "$GPUSCALE" compare "$out/$1.json" "$out/$1.bare.json" --tolerance 0 >"$out/$1.compare.txt" 2>&1
  local rc=$?
  [ "$rc" -eq 1 ] || { cat "$out/$1.compare.txt"; fail "compare of $1 with its bare copy exited $rc, wanted 1"; }
  [ "$(tail -1 "$out/$1.compare.txt")" = "Compare: FAIL (the new run's own verdict failed)" ] \
    || fail "compare of $1 with its bare copy: $(tail -1 "$out/$1.compare.txt")"
  grep -q "; 0 missing from the new run, 0 only in the new run$" "$out/$1.compare.txt" \
    || fail "compare of $1 with its bare copy: a figure only in one of them: $(grep "figures compared" "$out/$1.compare.txt")"
  grep -q "^REGRESSION\|^  *REGRESSION" "$out/$1.compare.txt" && fail "compare of $1 with its bare copy regressed"
  for f in "$1" "$1.bare"; do
    "$GPUSCALE" baseline "$out/$f.json" -o "$out/$f.base.json" >"$out/$f.baseline.txt" 2>&1 \
      || fail "baseline of $f: $(cat "$out/$f.baseline.txt")"
  done
  python3 - "$out/$1.json" "$out/$1.base.json" "$out/$1.bare.base.json" <<'PY' || fail "baseline of the bare $1 differs"
import json, sys
run, base, bare = (json.load(open(p)) for p in sys.argv[1:4])
raised = {c["id"] for c in run["checks"] if c["severity"] != "info"}
(g,), (h,) = base["groups"], bare["groups"]
assert raised and not raised & set(h["checks_passed"]), (sorted(raised), h["checks_passed"])
assert g["checks_passed"] == h["checks_passed"], (g["checks_passed"], h["checks_passed"])
key = lambda f: (f["phase"], f["metric"], sorted(f["labels"].items()), f["median"])
assert sorted(map(key, g["figures"])) == sorted(map(key, h["figures"])), "the figures differ"
PY
}
offline_commands_rejudge midrun
run blocked -x GPUSCALE_TEST_FOREIGN_PROCESS="1:compute:$foreign"
rejudge blocked gpu-in-use

expect() {  # NAME JSON: an --expect file $out/NAME.expect.json
  echo "$2" >"$out/$1.expect.json"
}
# report IN OUT [EXPECT]: the judgement of IN into OUT.json, exit 0 or 1
report() {
  local args=("$GPUSCALE" report "$out/$1.json" --json "$out/$2.json")
  [ -z "${3:-}" ] || args+=(--expect "$out/$3.expect.json")
  "${args[@]}" >"$out/$2.txt" 2>&1
  local rc=$?
  [ "$rc" -le 1 ] || { cat "$out/$2.txt"; fail "report of $1 into $2 exited $rc"; }
}
# judged NAME PYTHON: asserts PYTHON over d, NAME.json's document
judged() {
  python3 - "$out/$1.json" "$2" <<'PY' || fail "$1: $2"
import json, sys
d = json.load(open(sys.argv[1]))
ids = [c["id"] for c in d["checks"]]
in_use = sorted({r for c in d["checks"] if c["id"] == "gpu-in-use" for r in c["ranks"]})
c = d.get("collectives") or {}
slow = [(p["a"], p["b"]) for p in (c.get("pairs") or {}).get("pairs", []) if p.get("slow")]
suspects = [s["node"] for s in (c.get("isolation") or {}).get("suspects", [])]
busy = [t["rank"] for t in d.get("tenants", []) if t["pid"] == 0]
assert eval(sys.argv[2]), dict(ids=ids, in_use=in_use, slow=slow, suspects=suspects, busy=busy,
                              tenants=d.get("tenants"))
PY
}

# Tenancy: rank 2's GPU read 30% busy at the end of compute (the cpu backend samples none: the look is
# added to the saved run, as NVML would have taken it).
python3 - "$out/midrun.bare.json" "$out/busy.json" <<'PY' || fail "could not add a busy look"
import json, sys
d = json.load(open(sys.argv[1]))
assert not d.get("tenants") and d["tenancy_looks"], "the bare run keeps its looks, not its tenants"
d["tenancy_looks"].append({"phase": "compute", "rank": 2, "utilization_pct": [30, 30, 30]})
json.dump(d, open(sys.argv[2], "w"))
PY
judged midrun.rejudged 'busy == [] and in_use == [1]'
report busy busy.default
judged busy.default 'busy == [2] and in_use == [1, 2]'
expect idle '{"busy_utilization_pct": 50}'
report busy busy.idle idle
judged busy.idle 'busy == [] and in_use == [1] and d["busy_utilization_pct"] == 50'
expect busy '{"busy_utilization_pct": 25}'
report busy.idle busy.again busy
judged busy.again 'busy == [2] and in_use == [1, 2]'

# Pairs: 4 ranks as 2 nodes, node 1's ranks slowed; run with --pair-threshold 0, so it names no pair.
"$MPIEXEC" -n 4 -x GPUSCALE_TEST_RANKS_PER_NODE=2 -x GPUSCALE_TEST_SLOW_NODE=1 "$GPUSCALE" collectives \
  --device cpu --quiet --timeout 120 -b 8 -e 8 -n 2 -w 1 --scaling-sizes none --pairs all --pair-bytes 64K \
  --pair-threshold 0 --json "$out/pairs.json" >"$out/pairs.txt" 2>&1 || [ $? -eq 1 ] \
  || { cat "$out/pairs.txt"; fail "the pairs run"; }
judged pairs 'slow == [] and "slow-pair" not in ids and c["pairs"]["threshold"] == 0'
expect pairs '{"pair_threshold": 0.8}'
report pairs pairs.slow pairs
judged pairs.slow 'slow == [(2, 3)] and "slow-pair" in ids and c["pairs"]["threshold"] == 0.8'
report pairs.slow pairs.kept
judged pairs.kept 'slow == [(2, 3)]'  # the threshold that judged it is the file's now
expect nopairs '{"pair_threshold": 0}'
report pairs.slow pairs.none nopairs
judged pairs.none 'slow == [] and "slow-pair" not in ids'

# Suspects: 8 ranks as 4 nodes, node 2 slowed; run with an isolation threshold that names no one.
"$MPIEXEC" -n 8 --oversubscribe -x GPUSCALE_TEST_RANKS_PER_NODE=2 -x GPUSCALE_TEST_SLOW_NODE=2 "$GPUSCALE" \
  collectives --device cpu --isolate --quiet --timeout 120 -n 2 -w 1 --isolate-bytes 64K --isolate-rounds 4 \
  --isolate-threshold 0.000001 --json "$out/isolate.json" >"$out/isolate.txt" 2>&1 || [ $? -eq 1 ] \
  || { cat "$out/isolate.txt"; fail "the isolation run"; }
judged isolate 'suspects == [] and "slow-node" not in ids'
expect isolate '{"isolate_threshold": 0.5}'
report isolate isolate.slow isolate
judged isolate.slow 'suspects == [2] and "slow-node" in ids'
expect noisolate '{"isolate_threshold": 0.000001}'
report isolate.slow isolate.none noisolate
judged isolate.none 'suspects == [] and "slow-node" not in ids'
echo "rejudge: ok"
