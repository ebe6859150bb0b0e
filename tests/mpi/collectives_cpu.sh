#!/usr/bin/env bash
# The collectives phase on the cpu backend under mpiexec -n 2, 3 and 4: every op verifies at odd sizes
# and in several types and reductions, CUDA-graph mode replays on the host, -m aggregates, the scaling
# table and the pairwise matrix cover every rank, and a corrupted buffer fails the run with exit 1.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

verify() {  # verify JSON NP [CORRUPTING_RANK]
  python3 - "$@" <<'PY'
import json, sys
path, n = sys.argv[1], int(sys.argv[2])
expect_wrong = len(sys.argv) > 3
corrupting = int(sys.argv[3]) if expect_wrong else None
d = json.load(open(path))
c = d["collectives"]
assert c["transport"] == "mpi", c["transport"]
ops = [s["op"] for s in c["sweeps"]]
wrong = 0
for s in c["sweeps"]:
    assert s["ranks"] == n and not s["skipped_reason"], s
    assert s["rows"], s["op"]
    for r in s["rows"]:
        for place in ("out_of_place", "in_place"):
            t = r[place]
            assert t["measured"] and t["time_s"] > 0 and len(t["samples_s"]) == t["iterations"]["count"], (s["op"], r)
            # One sample per iteration (per graph launch with -G), from the pass with boundary events;
            # the headline is nccl-tests' back-to-back figure of the other pass, the slowest rank's.
            assert len(t["samples_s"]) == (c["graph_launches"] or c["iterations"]), (len(t["samples_s"]), c["iterations"])
            assert t["time_s"] == t["batch_time_s"] == t["rank_max_s"] > 0, t
            assert 0 <= t["slowest_rank"] < n, t  # the rank behind rank_max_s
            assert t["wrong_ranks"] == ([corrupting] if t["wrong"] else []), t
            srt = sorted(t["samples_s"])
            assert srt[0] <= t["iterations"]["median"] <= srt[-1], t["iterations"]
            if place == "in_place" and s["op"] in ("alltoall", "sendrecv"):
                assert t["wrong"] is None, "in-place alltoall/sendrecv has no defined result"
            else:
                assert t["wrong"] is not None, (s["op"], place)
                wrong += t["wrong"]
            assert t["rank_min_s"] <= t["rank_avg_s"] * (1 + 1e-9) <= t["rank_max_s"] * (1 + 1e-9) + 1e-12, t
            if r["size_bytes"]:
                assert abs(t["busbw_gbps"] - t["algbw_gbps"] * s["busbw_factor"]) < 1e-9 * max(1, t["busbw_gbps"])
checks = {ch["id"]: ch for ch in d["checks"]}
if expect_wrong:
    assert wrong > 0, "the corrupted element was not counted"
    assert checks["collective-wrong-data"]["severity"] == "error", checks
    assert checks["collective-wrong-data"]["ranks"] == [corrupting], checks["collective-wrong-data"]
    assert d["verdict"]["passed"] is False
else:
    assert wrong == 0, f"{wrong} wrong elements"
    assert "collective-wrong-data" not in checks
    assert d["verdict"]["passed"] is True, d["verdict"]
print(f"  {path}: {len(ops)} ops, {wrong} wrong")
PY
}

run() {  # run NP NAME ARGS...
  local np=$1 name=$2; shift 2
  "$MPIEXEC" -n "$np" "$GPUSCALE" collectives --device cpu --timeout 60 --quiet --json "$out/$name.json" "$@" \
    >"$out/$name.txt" 2>"$out/$name.err" || { cat "$out/$name.err"; fail "$name exited $?"; }
  verify "$out/$name.json" "$np"
}

for np in 2 3 4; do
  # Odd sizes (7 B .. 61 KiB, x3), so blocks round down and counts are not powers of two.
  run "$np" "sum_$np" -b 7 -e 70000 -f 3 -n 3 -w 1 -c 2 --scaling-sizes 8,4K --pair-bytes 64K
done
run 3 half_prod -d half -o prod -b 6 -e 6000 -f 5 -n 2 -w 1 -r 2 --scaling-sizes none --pair-bytes 0
run 4 int8_max -d int8 -o max -b 3 -e 3000 -f 7 -n 2 -w 1 -r 3 --scaling-sizes none --pair-bytes 0
run 3 bf16_avg -d bfloat16 -o avg -b 2 -e 2000 -f 9 -n 2 -w 1 --scaling-sizes none --pair-bytes 0
run 2 double_min -d double -o min -b 8 -e 8K -f 8 -n 2 -w 1 -r 1 --scaling-sizes none --pair-bytes 0
run 3 graph_agg -G 3 -m 3 -b 8 -e 8K -f 8 -n 2 -w 1 --scaling-sizes none --pair-bytes 0
# One rank (stream and graph launches): the same figures with no peer.
run 1 one_rank -b 8 -e 8K -f 8 -n 7 -w 1 --scaling-sizes none --pair-bytes 0
run 1 one_rank_graph -G 4 -m 2 -b 8 -e 8K -f 8 -n 3 -w 1 --scaling-sizes none --pair-bytes 0

python3 - "$out/sum_4.json" "$out/sum_3.json" "$out/graph_agg.json" <<'PY'
import json, sys
four, three, graph = (json.load(open(p))["collectives"] for p in sys.argv[1:])
assert [s["op"] for s in four["sweeps"]] == ["allreduce", "allgather", "reducescatter", "broadcast", "reduce",
                                             "alltoall", "sendrecv"]
# nccl-tests' size column for odd sizes: allgather of 7 B floats over 3 ranks -> 0 elements per rank.
ag = next(s for s in three["sweeps"] if s["op"] == "allgather")
assert ag["rows"][0]["count"] == 0 and ag["rows"][0]["size_bytes"] == 0, ag["rows"][0]
ag_last = ag["rows"][-1]
assert ag_last["size_bytes"] == ag_last["count"] * 4 * 3, ag_last
groups = [(p["group"], p["ranks"]) for p in four["scaling"]]
assert ("first 2", 2) in groups and ("world", 4) in groups, groups
assert all(p["wrong"] == 0 for p in four["scaling"]), four["scaling"]
pairs = four["pairs"]["pairs"]
assert len(pairs) == 6 and four["pairs"]["rounds"] == 3, four["pairs"]
assert all(p["bandwidth_gbps"] > 0 and p["latency_s"] > 0 for p in pairs), pairs
assert len(three["pairs"]["pairs"]) == 3 and three["pairs"]["rounds"] == 3
assert graph["graph_launches"] == 3 and graph["aggregated"] == 3
assert all(len(r["out_of_place"]["samples_s"]) == 3 for s in graph["sweeps"] for r in s["rows"])
assert all(s["headline"]["latency_graph_s"] and s["headline"]["latency_stream_s"] for s in graph["sweeps"])
print("  sizes, scaling, pairs, graphs: ok")
PY
grep -q "busbw(GB/s)" "$out/sum_2.txt" || fail "no nccl-tests table on the console"
grep -q "== Collectives: scaling ==" "$out/sum_2.txt" || fail "no scaling table on the console"

# The test seam (harness/FaultInjection): rank 1 spoils one element per measurement; the run must
# count it, name rank 1 as the one that received wrong data, and exit 1.
set +e
"$MPIEXEC" -n 3 -x GPUSCALE_TEST_CORRUPT=1:collectives "$GPUSCALE" collectives --device cpu --quiet --timeout 60 \
  --json "$out/corrupt.json" --ops allreduce,reducescatter -b 64 -e 4K -f 4 -n 2 -w 1 --scaling-sizes none \
  --pair-bytes 0 >"$out/corrupt.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat "$out/corrupt.txt"; fail "corrupted run exited $rc, wanted 1"; }
verify "$out/corrupt.json" 3 1
grep -q "Verdict: FAIL" "$out/corrupt.txt" || fail "corrupted run did not print FAIL"
echo "collectives_cpu: ok"
