#!/usr/bin/env bash
# Tenancy for the whole run on the CPU backend, through the test seam: a foreign compute process that
# appears on rank 1's device when compute starts (GPUSCALE_TEST_FOREIGN_PROCESS=1:compute:PID@compute)
# is not seen by env (no phase is skipped) but at the boundary after compute: gpu-in-use (error) names
# the phase, PID, name and memory; `tenants[]` holds it with its phase; compute and every phase after
# it, beside which it stayed, are in shared_phases; the verdict is FAIL. The same run without the seam
# lists no tenant and no shared phase.
set -euo pipefail
out=$(mktemp -d)
sleep 300 &
foreign=$!
trap 'kill $foreign 2>/dev/null || true; rm -rf "$out"' EXIT

"$MPIEXEC" -n 2 "$GPUSCALE" --device cpu --quick --quiet --json "$out/plain.json" >"$out/plain.txt" 2>&1 || true
python3 - "$out/plain.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert "gpu-in-use" not in [c["id"] for c in d["checks"]], d["checks"]
assert "tenants" not in d and "shared_phases" not in d, (d.get("tenants"), d.get("shared_phases"))
assert d["phases_completed"] == ["env", "links", "compute", "burn", "collectives", "train"], d["phases_completed"]
PY

set +e
"$MPIEXEC" -n 2 -x GPUSCALE_TEST_FOREIGN_PROCESS="1:compute:$foreign@compute" "$GPUSCALE" --device cpu --quick \
  --quiet --json "$out/run.json" >"$out/console.txt" 2>"$out/stderr.txt"
code=$?
set -e
[ "$code" -eq 1 ] || { echo "expected exit 1, got $code"; cat "$out/stderr.txt"; exit 1; }
python3 - "$out/run.json" "$foreign" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pid = int(sys.argv[2])
assert d["phases_completed"] == ["env", "links", "compute", "burn", "collectives", "train"], d["phases_completed"]
assert not d["phases_skipped"], d["phases_skipped"]
assert d["ranks"][1]["tenancy"]["processes"] == [], "env must not see a process that appears later"
tenants = d["tenants"]
assert len(tenants) == 1, tenants
t = tenants[0]
assert (t["phase"], t["rank"], t["pid"], t["name"], t["compute"], t["memory_bytes"]) == \
    ("compute", 1, pid, "sleep", True, 512 << 20), t
assert d["shared_phases"] == ["compute", "burn", "collectives", "train"], d["shared_phases"]
c = [c for c in d["checks"] if c["id"] == "gpu-in-use"]
assert len(c) == 1 and c[0]["severity"] == "error" and c[0]["ranks"] == [1], c
assert f"appeared during compute: PID {pid} (sleep, 512 MiB) computes on it" in c[0]["message"], c[0]["message"]
assert c[0].get("blocks_gpu_work") is None, c[0]
assert d["verdict"]["passed"] is False
PY

set +e
GPUSCALE_TEST_FOREIGN_PROCESS="1:compute:12@" "$GPUSCALE" env --device cpu --quiet >"$out/bad.txt" 2>&1
code=$?
set -e
[ "$code" -eq 2 ] && [ "$(wc -l <"$out/bad.txt")" -eq 1 ] && grep -q "PID\[@PHASE\]" "$out/bad.txt" || {
  echo "malformed @PHASE: exit $code"; cat "$out/bad.txt"; exit 1; }
echo "tenancy_midrun: ok"
