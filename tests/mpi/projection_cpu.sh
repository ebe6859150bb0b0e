#!/usr/bin/env bash
# --project-ranks end to end on the cpu backend: a 2-rank sweep writes a projection (fits with finite
# alpha and beta, ring and tree rows for every target) to JSON, console and CSV; two emulated nodes
# project through the measured inter-node tier; none disables it; bad lists exit 2 before any work.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"

"$MPIEXEC" -n 2 "$GPUSCALE" collectives --device cpu --quiet --timeout 60 -b 8 -e 1M --project-ranks 64,128 \
  --ops allreduce,allgather,reducescatter -n 5 -w 1 --scaling-sizes none --pair-bytes 0 --json "$out/p.json" --csv "$out/p.csv" >"$out/p.txt" || fail "collectives exited $?"
python3 - "$out/p.json" <<'PY'
import json, math, sys
p = json.load(open(sys.argv[1]))["projection"]
assert p["target_ranks"] == [64, 128] and p["gpus_per_node"] == 2, p["target_ranks"]
fits = {f["op"]: f for f in p["fits"]}
assert set(fits) == {"allreduce", "allgather", "reducescatter"}, fits.keys()
for f in fits.values():
    assert f["tier"] == "intra-node" and f["source"] == "sweep" and f["ranks"] == 2, f
    fit = f["fit"]
    assert fit["points_fitted"] >= 8 and fit["points_held_out"] >= 8, fit
    for key in ("alpha_s", "beta_s_per_byte", "held_out_median_error", "held_out_max_error"):
        assert math.isfinite(fit[key]) and fit[key] >= 0, (key, fit)
    assert fit["alpha_s"] > 0 or fit["beta_s_per_byte"] > 0, fit
rows = p["collectives"]
assert {(r["op"], r["algorithm"]) for r in rows} == {("allreduce", "ring"), ("allreduce", "tree"),
                                                     ("allgather", "ring"), ("reducescatter", "ring")}
assert {r["ranks"] for r in rows} == {64, 128} and {r["nodes"] for r in rows} == {32, 64}
for r in rows:
    assert math.isfinite(r["time_s"]) and r["time_s"] > 0 and math.isfinite(r["busbw_gbps"]), r
    assert "optimistic" in r["bottleneck"], r  # one node: no inter-node link was measured
assert any("optimistic" in n for n in p["notes"]), p["notes"]
PY
[ $? -eq 0 ] || fail "projection section of a one-node run"
grep -q "^Projection to 64,128 ranks" "$out/p.txt" || fail "no projection section in the console report"
grep -q ",projection,projected_time,algorithm=ring;bytes=1073741824;op=allreduce;ranks=128," "$out/p.csv" \
  || fail "no projection rows in the CSV"

# Two emulated nodes of two: the scaling table's inter-node group bounds the multi-node sizes.
"$MPIEXEC" -n 4 -x GPUSCALE_TEST_RANKS_PER_NODE=2 "$GPUSCALE" collectives --device cpu --quiet --timeout 60 \
  --ops allreduce -b 8 -e 64K -f 4 -n 2 -w 1 --scaling-sizes 8,4K,16K --pair-bytes 0 --project-ranks 8 \
  --json "$out/n.json" >/dev/null || fail "two-node collectives exited $?"
python3 - "$out/n.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["projection"]
assert {(f["tier"], f["source"]) for f in p["fits"]} >= {("world", "sweep"), ("inter-node", "scaling")}, p["fits"]
assert p["notes"] == [], p["notes"]
assert all(r["bottleneck"] == "inter-node" and r["nodes"] == 4 for r in p["collectives"]), p["collectives"]
PY
[ $? -eq 0 ] || fail "projection section of a two-node run"

"$MPIEXEC" -n 2 "$GPUSCALE" collectives --device cpu --quiet --timeout 60 --ops allreduce -b 8 -e 64K \
  --scaling-sizes none --pair-bytes 0 --project-ranks none --json "$out/none.json" >/dev/null || fail "--project-ranks none exited $?"
python3 -c 'import json, sys; assert "projection" not in json.load(open(sys.argv[1]))' "$out/none.json" \
  || fail "--project-ranks none still wrote a projection"

for bad in 1 0 -4 8.5 64, abc 99999999999; do
  expect_usage collectives --device cpu --project-ranks "$bad"
  expect_usage --device cpu --project-ranks "$bad"
done
echo "projection_cpu: ok"
