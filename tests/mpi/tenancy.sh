#!/usr/bin/env bash
# Tenancy on the CPU backend through the test seam (GPUSCALE_TEST_FOREIGN_PROCESS): a foreign compute
# process on rank 1's device is gpu-in-use (error), named by PID and name; the GPU phases after env
# are skipped with that reason but burn, which runs on every rank (its figure is what the sharing
# costs), the verdict is FAIL and the exit code 1. A process that only holds
# memory is a warning. Without the seam the CPU backend says once that nothing was listed.
set -euo pipefail
out=$(mktemp -d)
sleep 300 &
foreign=$!
trap 'kill $foreign 2>/dev/null || true; rm -rf "$out"' EXIT

set +e
"$MPIEXEC" -n 2 -x GPUSCALE_TEST_FOREIGN_PROCESS="1:compute:$foreign" "$GPUSCALE" --device cpu --quick --quiet \
  --json "$out/run.json" >"$out/console.txt" 2>"$out/stderr.txt"
code=$?
set -e
[ "$code" -eq 1 ] || { echo "expected exit 1, got $code"; cat "$out/stderr.txt"; exit 1; }
for line in "Verdict: FAIL" "Skipped compute: env check gpu-in-use on ranks 1"; do
  grep -q "$line" "$out/console.txt" || { echo "console lacks '$line'"; cat "$out/console.txt"; exit 1; }
done
python3 - "$out/run.json" "$foreign" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pid = sys.argv[2]
hits = [c for c in d["checks"] if c["id"] == "gpu-in-use"]
assert len(hits) == 1, d["checks"]
c = hits[0]
assert c["severity"] == "error" and c["ranks"] == [1] and c.get("blocks_gpu_work") == "shared-gpu", c
assert f"PID {pid} (sleep, 512 MiB)" in c["message"], c["message"]
assert d["phases_completed"] == ["env", "burn"], d["phases_completed"]
skipped = d["phases_skipped"]
assert [s["phase"] for s in skipped] == ["links", "compute", "collectives", "train"], skipped
assert sorted(b["rank"] for b in d["burn"]) == [0, 1] and all(b["sustained_tflops"] > 0 for b in d["burn"]), d["burn"]
assert all("gpu-in-use" in s["reason"] for s in skipped), skipped
assert d["verdict"]["passed"] is False
assert all(r["smoke_allreduce"]["ran"] is False and "gpu-in-use" in r["smoke_allreduce"]["skipped_reason"]
           for r in d["ranks"]), [r["smoke_allreduce"] for r in d["ranks"]]
assert d["compute"] == [] and d.get("collectives") is None
procs = d["ranks"][1]["tenancy"]["processes"]
assert [p["pid"] for p in procs] == [int(pid)] and procs[0]["compute"] is True, procs
PY

"$MPIEXEC" -n 2 -x GPUSCALE_TEST_FOREIGN_PROCESS="0:memory:$foreign" "$GPUSCALE" env --device cpu --quiet \
  --json "$out/memory.json" >/dev/null
python3 - "$out/memory.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["checks"] if c["id"] == "gpu-in-use"]
assert len(c) == 1 and c[0]["severity"] == "warning" and c[0]["ranks"] == [0], c
assert d["ranks"][0]["smoke_allreduce"]["ran"] is True
PY

"$MPIEXEC" -n 2 "$GPUSCALE" env --device cpu --quiet --json "$out/plain.json" >/dev/null
python3 - "$out/plain.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ids = [c["id"] for c in d["checks"]]
assert "gpu-in-use" not in ids, ids
info = [c for c in d["checks"] if c["id"] == "gpu-in-use-unchecked"]
assert len(info) == 1 and info[0]["severity"] == "info" and info[0]["ranks"] == [0, 1], info
PY

set +e
GPUSCALE_TEST_FOREIGN_PROCESS="1:busy:12" "$GPUSCALE" env --device cpu --quiet >"$out/bad.txt" 2>&1
code=$?
set -e
[ "$code" -eq 2 ] || { echo "malformed seam: expected exit 2, got $code"; exit 1; }
[ "$(wc -l <"$out/bad.txt")" -eq 1 ] && grep -q "GPUSCALE_TEST_FOREIGN_PROCESS" "$out/bad.txt"
echo "tenancy: ok"
