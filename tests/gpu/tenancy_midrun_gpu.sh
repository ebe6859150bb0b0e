#!/usr/bin/env bash
# Tenancy for the whole run, on one real GPU. `gpuscale --quick` alone passes (exit 0, or a failed
# verdict without gpu-in-use) and lists no tenant. Then the same run again, and once its env phase is
# written a small foreign process starts on the GPU (gpu_tenant: 32 MiB beside its context, a spin
# kernel ~30% of the time): the run ends with exit 1, gpu-in-use (error) naming the tenant's PID, name
# and memory (its buffer and CUDA context: NVML counts the context, hundreds of MiB on a Hopper GPU, so
# between 32 MiB and 2 GiB) and the phase in which it appeared (the one running when it started, or
# the next where it started at a boundary), `tenants[]` in the JSON, and that phase in shared_phases.
#   tenancy_midrun_gpu.sh PATH_TO_gpu_tenant
set -euo pipefail
tenant_bin=${1:?path to gpu_tenant}
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
"$GPUSCALE" --quick --json "$out/run.json" >"$out/run.txt" 2>"$out/run-err.txt" &
run_pid=$!
for _ in $(seq 240); do  # up to 120 s for env to be written
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if "env" in d["phases_completed"] else 1)' \
    "$out/run.json" 2>/dev/null && break
  kill -0 "$run_pid" 2>/dev/null || fail "gpuscale ended before env was written"
  sleep 0.5
done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if "env" in d["phases_completed"] else 1)' \
  "$out/run.json" 2>/dev/null || fail "env was not written within 120 s"
"$tenant_bin" 300 30 >"$out/tenant.txt" 2>&1 &
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
python3 - "$out/run.json" "$tenant" "${started_in:-}" <<'PY' || fail "the run with a tenant"
import json, sys
d = json.load(open(sys.argv[1]))
pid, started = int(sys.argv[2]), sys.argv[3]
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
PY
echo "tenancy_midrun_gpu: ok"
