#!/usr/bin/env bash
# mpiexec `burn --device cpu --burn-s 1`: every rank reports its sustained figure, windows and output
# hashes, alike across ranks, and the JSON keeps the --straggler-threshold it judged with (report
# judges by it); then the silent-data-corruption seam flips one bit of rank 1's output on 3 ranks, and
# gpu-wrong-result names rank 1 alone with exit code 1.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$MPIEXEC" -n 2 "$GPUSCALE" burn --device cpu --burn-s 1 --straggler-threshold 0.3 --quiet --json "$out/burn.json" \
  >"$out/console.txt"
python3 - "$out/burn.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["phases_completed"] == ["env", "burn"], d["phases_completed"]
assert d["straggler_threshold"] == 0.3, "the report would judge at another threshold: %s" % d["straggler_threshold"]
recs = d["burn"]
assert [r["rank"] for r in recs] == [0, 1], recs
for r in recs:
    assert r["sustained_tflops"] > 0 and r["first_tflops"] > 0, r
    assert r["elapsed_s"] >= 1.0 and r["requested_s"] == 1.0, r
    assert len(r["windows"]) >= 4 and all(w["tflops"] > 0 for w in r["windows"]), r["windows"]
    assert r["calls"] > 0 and len(r["progress"]) > 0, r
    # 3 asked (two during, one at the end); a loaded host's slow batches can step past both marks at once.
    assert len(r["output_hashes"]) in (2, 3) and len(set(r["output_hashes"])) == 1, r["output_hashes"]
    assert r["telemetry_unavailable"], r
assert set(recs[0]["output_hashes"]) == set(recs[1]["output_hashes"])
assert d["verdict"]["passed"], d["verdict"]
assert not [c for c in d["checks"] if c["id"] == "gpu-wrong-result"]
PY
grep -q "^== Burn: sustained load (every GPU at once) ==" "$out/console.txt"

set +e
GPUSCALE_TEST_CORRUPT=1:burn-output "$MPIEXEC" -x GPUSCALE_TEST_CORRUPT -n 3 "$GPUSCALE" burn --device cpu \
  --burn-s 0.5 --quiet --json "$out/bad.json" >"$out/bad.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat "$out/bad.txt"; echo "expected exit 1, got $rc"; exit 1; }
python3 - "$out/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wrong = [c for c in d["checks"] if c["id"] == "gpu-wrong-result"]
assert len(wrong) == 1 and wrong[0]["ranks"] == [1] and wrong[0]["severity"] == "error", wrong
assert [r["wrong_result"] for r in d["burn"]] == [False, True, False]
assert not d["verdict"]["passed"]
PY
