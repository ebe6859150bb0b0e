#!/usr/bin/env bash
# One cause per fault, through the tenancy seam on the CPU backend: 4 ranks of --quick, with a real
# process (sleep) appearing on rank 1's device when compute starts, another on rank 2's when burn
# starts and a third on rank 3's when train starts (GPUSCALE_TEST_FOREIGN_PROCESS=R:compute:PID@PHASE).
#  - the errors are exactly the three gpu-in-use findings, one per process, each naming its PID (one
#    check of that id at error level, count 3, a finding per rank in its details);
#  - the figures measured beside them are marked: beside_tenant on the JSON records (that rank's
#    compute and burn records, the collectives whose group holds such a rank, every training
#    configuration), the judgement beside_tenant in the CSV, a dagger and a note in the HTML's tables
#    (and no efficiency chart), and in Prometheus a gpuscale_beside_tenant sample per GPU and phase
#    while those GPUs' headline samples are left out;
#  - the same run relabelled as H200s with rank 2's burn under the model's floor, judged by `report`:
#    still those three errors, rank 2's naming the burn's shortfall as its consequence, and no
#    gpu-slow-sustained; without the processes the shortfall is a gpu-slow-sustained error of its own.
set -uo pipefail
out=$(mktemp -d)
sleep 300 &
first=$!
sleep 300 &
second=$!
sleep 300 &
third=$!
trap 'kill $first $second $third 2>/dev/null; rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$MPIEXEC" -n 4 -x GPUSCALE_TEST_FOREIGN_PROCESS="1:compute:$first@compute,2:compute:$second@burn,3:compute:$third@train" \
  "$GPUSCALE" --device cpu --quick --quiet --json "$out/run.json" --csv "$out/run.csv" --html "$out/run.html" \
  --prom "$out/run.prom" >"$out/console.txt" 2>"$out/stderr.txt"
rc=$?
[ "$rc" -eq 1 ] || { cat "$out/stderr.txt"; fail "the run exited $rc, wanted 1 (gpu-in-use)"; }

python3 - "$out" "$first" "$second" "$third" <<'PY' || fail "the outputs do not mark what was measured beside the processes"
import csv, json, re, sys
out, pids = sys.argv[1], [int(p) for p in sys.argv[2:5]]
d = json.load(open(out + "/run.json"))
assert d["phases_completed"] == ["env", "links", "compute", "burn", "collectives", "train"], d["phases_completed"]
tenants = {t["rank"]: t for t in d["tenants"]}
assert sorted(tenants) == [1, 2, 3], d["tenants"]
assert tenants[1]["phases"] == ["compute", "burn", "collectives", "train"], tenants[1]
assert tenants[2]["phases"] == ["burn", "collectives", "train"], tenants[2]
assert tenants[3]["phases"] == ["train"], tenants[3]

# One finding per cause: the three gpu-in-use errors and nothing else at error level.
def findings(d):
    errors = [c for c in d["checks"] if c["severity"] == "error"]
    assert [c["id"] for c in errors] == ["gpu-in-use"], [(c["id"], c["message"]) for c in errors]
    c = errors[0]
    assert c["count"] == 3 and c["ranks"] == [1, 2, 3] and len(c["details"]) == 3, c
    return {rank: [m for m in c["details"] if f"rank {rank} " in m][0] for rank in (1, 2, 3)}
found = findings(d)
for rank, pid in zip((1, 2, 3), pids):
    assert f"appeared during {('compute', 'burn', 'train')[rank - 1]}: PID {pid} (sleep" in found[rank], found
for rank in (1, 2):
    assert f"beside it the burn sustained" in found[rank] and "shortfall" not in found[rank], found[rank]
assert "burn" not in found[3], found[3]

# JSON: the records of each rank and phase the processes name.
def marked(records):
    return sorted({r["rank"] for r in records if r.get("beside_tenant")})
assert marked(d["links"]) == [], d["links"]
assert marked(d["compute"]) == [1], marked(d["compute"])
assert marked(d["burn"]) == [1, 2], marked(d["burn"])
sweeps = d["collectives"]["sweeps"]
assert sweeps and all(s.get("beside_tenant") for s in sweeps if s["group"] == "world"), sweeps
pairs = {(p["a"], p["b"]): p.get("beside_tenant", False) for p in d["collectives"]["pairs"]["pairs"]}
assert pairs[(0, 3)] is False and pairs[(0, 1)] is True and pairs[(2, 3)] is True, pairs
train = [r for r in d["train"]["records"] if not r["skipped_reason"]]
assert train and all(r.get("beside_tenant") for r in train), [(r["strategy"], r.get("beside_tenant")) for r in train]

# CSV: the judgement says which figures, rank by rank.
rows = list(csv.DictReader(open(out + "/run.csv")))
beside = lambda r: r["judgement"] == "beside_tenant"
for r in rows:
    if r["phase"] == "compute" and r["metric"] == "tflops":
        assert beside(r) == (r["rank"] == "1"), r
assert any(r["phase"] == "train" and r["metric"] == "step_time" and beside(r) for r in rows), rows
assert not any(beside(r) for r in rows if r["phase"] in ("env", "links")), "env and links ran alone"

# HTML: a dagger in the tables, a note per phase, and no efficiency chart drawn from shared figures.
html = open(out + "/run.html", encoding="utf-8").read()
for phase in ("compute", "burn", "collectives", "train"):
    assert f'id="beside-tenant-{phase}"' in html, phase
assert 'id="beside-tenant-links"' not in html
assert "\u2020" in html.split('id="phase-compute"')[1].split("</section>")[0], "no mark in compute's tables"
assert "chart-efficiency" not in html, "an efficiency chart drawn from figures measured beside a process"

# Prometheus: the shared GPUs' headline samples are left out, and said to be.
prom = open(out + "/run.prom").read()
beside = re.findall(r'^gpuscale_beside_tenant\{Hostname="[^"]*",gpu="[^"]*",UUID="[^"]*",gpu_model="[^"]*",rank="\d+",local_rank="(\d+)",phase="(\w+)"\} 1$', prom, re.M)
assert ("1", "compute") in beside and ("2", "burn") in beside and ("1", "burn") in beside, beside
assert ("0", "compute") not in beside, beside
burn_gpus = re.findall(r'^gpuscale_burn_sustained_flops\{Hostname="[^"]*",gpu="[^"]*",UUID="[^"]*",gpu_model="[^"]*",rank="\d+",local_rank="(\d+)"', prom, re.M)
assert sorted(burn_gpus) == ["0", "3"], burn_gpus
compute_gpus = re.findall(r'^gpuscale_compute_best_flops\{Hostname="[^"]*",gpu="[^"]*",UUID="[^"]*",gpu_model="[^"]*",rank="\d+",local_rank="(\d+)"', prom, re.M)
assert "1" not in compute_gpus and "0" in compute_gpus, compute_gpus

# The same run as H200s, rank 2's burn under the model's floor (554 TFLOP/s bf16), for `report`.
for r in d["burn"]:
    r.update(gpu="NVIDIA H200", precision="bf16", sustained_tflops=372.0 if r["rank"] == 2 else 674.0)
del d["checks"], d["verdict"]
json.dump(d, open(out + "/h200.json", "w"))
for t in ("tenancy_looks", "tenants", "shared_phases"):  # the looks that saw them, and the judgement of them
    d.pop(t)
json.dump(d, open(out + "/alone.json", "w"))
PY

"$GPUSCALE" report "$out/h200.json" --json "$out/h200.out.json" --html "$out/h200.html" >"$out/h200.txt" 2>&1
[ $? -eq 1 ] || { cat "$out/h200.txt"; fail "report of the H200 run did not fail its verdict"; }
"$GPUSCALE" report "$out/alone.json" --json "$out/alone.out.json" --html "$out/alone.html" >"$out/alone.txt" 2>&1
[ $? -eq 1 ] || { cat "$out/alone.txt"; fail "report of the run without its processes did not fail (floor)"; }
python3 - "$out" <<'PY' || fail "the slow burn beside the process is not attributed to it alone"
import json, sys
out = sys.argv[1]
d = json.load(open(out + "/h200.out.json"))
errors = [c for c in d["checks"] if c["severity"] == "error"]
assert [c["id"] for c in errors] == ["gpu-in-use"] and errors[0]["count"] == 3, [(c["id"], c["message"]) for c in errors]
assert not [c for c in d["checks"] if c["id"] == "gpu-slow-sustained"], d["checks"]
two = [m for m in errors[0]["details"] if "rank 2 " in m][0]
assert ("beside it the burn sustained 372.0 TFLOP/s bf16 on rank 2, under the model's floor of 554.1 TFLOP/s: that "
        "shortfall is this process's, not the GPU's power, clocks or cooling") in two, two
alone = json.load(open(out + "/alone.out.json"))
slow = [c for c in alone["checks"] if c["id"] == "gpu-slow-sustained" and c["severity"] == "error"]
assert len(slow) == 1 and slow[0]["ranks"] == [2], alone["checks"]
assert not any(r.get("beside_tenant") for r in alone["burn"] + alone["compute"]), "stale marks kept"
html = open(out + "/alone.html", encoding="utf-8").read()
assert "beside-tenant" not in html and "chart-efficiency" in html, "the run alone draws its efficiency"
PY
echo "tenancy_marks: ok"
