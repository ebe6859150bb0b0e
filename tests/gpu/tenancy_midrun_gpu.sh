#!/usr/bin/env bash
# Tenancy for the whole run, on one real GPU. `gpuscale --quick` alone passes (exit 0, or a failed
# verdict without gpu-in-use) and lists no tenant. Then the same run again, and once its env phase is
# written a small foreign process starts on the GPU (gpu_tenant: 32 MiB beside its context, a spin
# kernel ~30% of the time): the run ends with exit 1, gpu-in-use (error) naming the tenant's PID, name
# and memory (its buffer and CUDA context: NVML counts the context, hundreds of MiB on a Hopper GPU, so
# between 32 MiB and 2 GiB) and the phase in which it appeared (the one running when it started, or
# the next where it started at a boundary), `tenants[]` in the JSON, and that phase in shared_phases.
# One cause, one finding: every error the run alone did not raise is gpu-in-use, no gpu-slow-sustained
# (the burn beside it is the tenant's: its finding names the burn's shortfall), and the figures of the
# phases it names are marked beside_tenant in the JSON, the CSV, the HTML (a note per phase) and
# Prometheus (gpuscale_beside_tenant, the GPU's burn sample left out).
#   tenancy_midrun_gpu.sh PATH_TO_gpu_tenant [BUSY_PERCENT]   (the tenant's share of each 100 ms; 30)
set -euo pipefail
tenant_bin=${1:?path to gpu_tenant}
busy=${2:-30}
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
[ -x "$tenant_bin" ] || { echo "FAIL: $tenant_bin is not executable"; exit 1; }
out=$(mktemp -d)
run_pid="" tenant=""
cleanup() {
  [ -n "$tenant" ] && kill "$tenant" 2>/dev/null
  [ -n "$run_pid" ] && kill "$run_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$out"
}
trap cleanup EXIT
export CUDA_VISIBLE_DEVICES=0
fail() { echo "FAIL: $*"; for f in "$out"/*.txt; do echo "--- $f"; tail -20 "$f"; done; exit 1; }

# 1. Alone.
set +e
timeout 300 "$GPUSCALE" --quick --json "$out/alone.json" >"$out/alone.txt" 2>"$out/alone-err.txt"
code=$?
set -e
[ "$code" -le 1 ] || fail "the run alone exited $code"
python3 - "$out/alone.json" "$code" <<'PY' || fail "the run alone"
import json, sys
d = json.load(open(sys.argv[1]))
ids = [c["id"] for c in d["checks"]]
assert "gpu-in-use" not in ids, [c for c in d["checks"] if c["id"] == "gpu-in-use"]
assert not d.get("tenants") and not d.get("shared_phases"), (d.get("tenants"), d.get("shared_phases"))
assert sys.argv[2] == "0" or not d["verdict"]["passed"], d["verdict"]
PY

# 2. A process that starts after env.
"$GPUSCALE" --quick --json "$out/run.json" --csv "$out/run.csv" --html "$out/run.html" --prom "$out/run.prom" \
  >"$out/run.txt" 2>"$out/run-err.txt" &
run_pid=$!
for _ in $(seq 240); do  # up to 120 s for env to be written
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if "env" in d["phases_completed"] else 1)' \
    "$out/run.json" 2>/dev/null && break
  kill -0 "$run_pid" 2>/dev/null || fail "gpuscale ended before env was written"
  sleep 0.5
done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if "env" in d["phases_completed"] else 1)' \
  "$out/run.json" 2>/dev/null || fail "env was not written within 120 s"
"$tenant_bin" 300 "$busy" >"$out/tenant.txt" 2>&1 &
tenant=$!
for _ in $(seq 100); do  # up to 20 s for its first kernel
  grep -q "^ready" "$out/tenant.txt" && break
  kill -0 "$tenant" 2>/dev/null || fail "gpu_tenant ended"
  sleep 0.2
done
grep -q "^ready" "$out/tenant.txt" || fail "gpu_tenant never ran a kernel"
# The phase running when it started: the last progress line's "i/n PHASE |".
started_in=$(grep -o '[0-9]*/[0-9]* [a-z]* |' "$out/run-err.txt" | tail -1 | awk '{print $2}')
echo "  gpu_tenant (PID $tenant) started during ${started_in:-?}"
set +e
timeout 300 tail --pid="$run_pid" -f /dev/null
wait "$run_pid"
code=$?
set -e
run_pid=""
[ "$code" -eq 1 ] || fail "with a tenant: exit $code, wanted 1"
python3 - "$out/run.json" "$tenant" "${started_in:-}" "$out" <<'PY' || fail "the run with a tenant"
import csv, json, re, sys
d = json.load(open(sys.argv[1]))
pid, started, out = int(sys.argv[2]), sys.argv[3], sys.argv[4]
order = d["phases_completed"]
tenants = [t for t in d.get("tenants", []) if t["pid"] == pid]
assert tenants, ("no tenant with PID %d" % pid, d.get("tenants"))
t = tenants[0]
assert t["phase"] != "env" and t["phase"] in order, (t, order)
if started in order:  # it appeared where it started, or at the next boundary
    assert order.index(t["phase"]) - order.index(started) in (0, 1), (t["phase"], started, order)
assert t["compute"] is True and t["name"] == "gpu_tenant", t
assert t["memory_bytes"] is not None and 32 * 2**20 <= t["memory_bytes"] < 2 * 2**30, t
checks = [c for c in d["checks"] if c["id"] == "gpu-in-use" and c["severity"] == "error"]
assert checks, d["checks"]
text = " ".join([checks[0]["message"]] + checks[0].get("details", []))
assert ("appeared during " + t["phase"]) in text and ("PID %d (gpu_tenant" % pid) in text, text
assert t["phase"] in d["shared_phases"], d["shared_phases"]
assert not d["verdict"]["passed"], d["verdict"]
# One cause, one finding.
alone = {c["id"] for c in json.load(open(out + "/alone.json"))["checks"] if c["severity"] == "error"}
new = sorted({c["id"] for c in d["checks"] if c["severity"] == "error"} - alone)
assert new == ["gpu-in-use"], [(c["id"], c["message"]) for c in d["checks"] if c["id"] in new]
assert not [c for c in d["checks"] if c["id"] == "gpu-slow-sustained"], d["checks"]
phases = t["phases"]
assert phases[0] == t["phase"], phases
print("  measured beside it: " + ", ".join(phases))
if "burn" in phases:
    b = d["burn"][0]
    assert b["beside_tenant"], b.get("beside_tenant")
    assert "beside it the burn sustained" in text, text
    print("  burn beside it: %.1f TFLOP/s (floor %s)" % (b["sustained_tflops"], b["floor_tflops"]))
    prom = open(out + "/run.prom").read()
    assert re.search(r'^gpuscale_beside_tenant\{.*phase="burn"\} 1$', prom, re.M), prom
    assert not re.search(r"^gpuscale_burn_sustained_flops\{", prom, re.M), "the shared burn is a sample"
if "compute" in phases:
    assert all(r.get("beside_tenant") for r in d["compute"] if not r["skipped_reason"]), "compute unmarked"
train = [r for r in d["train"]["records"] if not r["skipped_reason"]]
if "train" in phases:
    assert all(r.get("beside_tenant") for r in train), [(r["strategy"], r.get("beside_tenant")) for r in train]
rows = list(csv.DictReader(open(out + "/run.csv")))
marked = {r["phase"] for r in rows if r["judgement"] == "beside_tenant"}
assert marked and marked <= set(phases), (marked, phases)
html = open(out + "/run.html", encoding="utf-8").read()
for phase in marked:
    assert 'id="beside-tenant-%s"' % phase in html, phase
if "train" in phases:
    assert "chart-efficiency" not in html, "an efficiency chart beside a tenant"
PY
echo "tenancy_midrun_gpu: ok"
