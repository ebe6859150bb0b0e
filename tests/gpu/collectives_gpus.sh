#!/usr/bin/env bash
# Every visible GPU gets a rank. All seven ops verify over NCCL (3 check passes) in float and bfloat16,
# CUDA-graph mode verifies and reports its latency, NCCL's algorithm is read from its tuning log, and
# the corruption seam fails the run through the GPU check kernels.
set -euo pipefail
source "$(dirname "$0")/gpus.sh"
out=$(results_dir)
n=$(visible_gpus)
mpi=("$MPIEXEC" -n "$n" -x NCCL_NVLS_ENABLE=0)
"${mpi[@]}" "$GPUSCALE" collectives -b 8 -e 256M -f 8 -c 3 --json "$out/coll_float.json" >"$out/coll_float.txt"
"${mpi[@]}" "$GPUSCALE" collectives -b 6 -e 6M -f 10 -c 3 -d bfloat16 -o avg -r $((n - 1)) --scaling-sizes none \
  --pair-bytes 0 --json "$out/coll_bf16.json" >"$out/coll_bf16.txt"
"${mpi[@]}" "$GPUSCALE" collectives --ops allreduce,sendrecv -b 8 -e 64M -f 8 -G 5 -c 2 --scaling-sizes none \
  --pair-bytes 0 --nccl-algo --json "$out/coll_graph.json" >"$out/coll_graph.txt"
python3 - "$n" "$out/coll_float.json" "$out/coll_bf16.json" "$out/coll_graph.json" <<'PY'
import json, sys
n = int(sys.argv[1])
for path in sys.argv[2:]:
    d = json.load(open(path))
    c = d["collectives"]
    assert c["transport"] == "nccl", c["transport"]
    for s in c["sweeps"]:
        assert not s["skipped_reason"], s
        for r in s["rows"]:
            for place in ("out_of_place", "in_place"):
                w = r[place]["wrong"]
                assert w in (0, None), (path, s["op"], r["size_bytes"], place, w)
                # A sample per iteration (graph launch) from the pass with boundary events; the headline
                # is nccl-tests' back-to-back figure of the other pass, the slowest rank's.
                t = r[place]
                assert len(t["samples_s"]) == (c["graph_launches"] or c["iterations"]), (path, len(t["samples_s"]))
                assert t["time_s"] == t["batch_time_s"] == t["rank_max_s"] > 0, (path, s["op"], t)
    assert d["verdict"]["passed"], (path, d["verdict"])
g = json.load(open(sys.argv[4]))["collectives"]
assert g["graph_launches"] == 5 and all(s["graph"] for s in g["sweeps"])
ar = next(s for s in g["sweeps"] if s["op"] == "allreduce")
if n == 1:  # NCCL copies locally with one rank: no algorithm, and the note says why
    assert not any(r["nccl_algorithm"] for r in ar["rows"]) and "one rank" in g["nccl_algorithm_note"], g
else:
    assert any(r["nccl_algorithm"] for r in ar["rows"]), "no NCCL algorithm in the log: " + g["nccl_algorithm_note"]
f = json.load(open(sys.argv[2]))["collectives"]
for s in f["sweeps"]:
    h = s["headline"]
    print(f"  {s['op']:14s} peak busbw {h['peak_busbw_gbps']:7.1f} GB/s  latency {h['latency_stream_s']*1e6:7.2f} us"
          f"  link {h['link']} {h['peak_percent_of_link'] or 0:.0f}%")
assert ar["headline"]["latency_graph_s"] and ar["headline"]["latency_stream_s"], ar["headline"]
print(f"  allreduce latency {ar['headline']['latency_stream_s']*1e6:.2f} us stream, "
      f"{ar['headline']['latency_graph_s']*1e6:.2f} us graph; algos:",
      sorted({r['nccl_algorithm'] for r in ar['rows'] if r['nccl_algorithm']}))
PY
set +e
"${mpi[@]}" -x GPUSCALE_TEST_CORRUPT=0:collectives "$GPUSCALE" collectives --ops allreduce,allgather -b 1K -e 1M -f 32 \
  --scaling-sizes none --pair-bytes 0 --quiet >"$out/coll_corrupt.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || { tail -5 "$out/coll_corrupt.txt"; echo "FAIL: corrupted GPU run exited $rc, wanted 1"; exit 1; }
echo "collectives_gpus: ok ($n GPUs)"
