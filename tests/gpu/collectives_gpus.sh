#!/usr/bin/env bash
# Every visible GPU gets a rank (two at least: on one GPU on emulated nodes that share it). All seven ops
# verify over NCCL (3 check passes) in float and bfloat16, CUDA-graph mode verifies and reports its
# latency, NCCL's algorithm is read from its tuning log, and the corruption seam fails the run through the
# GPU check kernels, naming the rank and its node. Then 4 ranks on 4 emulated nodes: the slow-node
# isolation measures every round, and --nccl-algo reads NCCL's own cost table beside the projection's fit.
set -euo pipefail
source "$(dirname "$0")/gpus.sh"
out=$(results_dir)
n=$(at_least_two)
launch_ranks "$n"
# Ranks that share a GPU talk over NCCL's sockets, a few GB/s: smaller sweeps test the same code.
e=$([ "$shared_gpus" = 1 ] && echo 16M || echo 256M)
"${mpi[@]}" "$GPUSCALE" collectives -b 8 -e "$e" -f 8 -c 3 --json "$out/coll_float.json" >"$out/coll_float.txt"
"${mpi[@]}" "$GPUSCALE" collectives -b 6 -e 6M -f 10 -c 3 -d bfloat16 -o avg -r $((n - 1)) --scaling-sizes none \
  --pair-bytes 0 --json "$out/coll_bf16.json" >"$out/coll_bf16.txt"
"${mpi[@]}" "$GPUSCALE" collectives --ops allreduce,sendrecv -b 8 -e "$e" -f 8 -G 5 -c 2 --scaling-sizes none \
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
"${mpi[@]}" -x GPUSCALE_TEST_CORRUPT=1:collectives "$GPUSCALE" collectives --ops allreduce,allgather -b 1K -e 1M -f 32 \
  --scaling-sizes none --pair-bytes 0 --quiet --json "$out/coll_corrupt.json" >"$out/coll_corrupt.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || { tail -5 "$out/coll_corrupt.txt"; echo "FAIL: corrupted GPU run exited $rc, wanted 1"; exit 1; }
python3 - "$out/coll_corrupt.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wrong = [c for c in d["checks"] if c["id"] == "collective-wrong-data"]
assert wrong and wrong[0]["severity"] == "error" and wrong[0]["ranks"], d["checks"]
node_of = {r["rank"]: r["node"] for r in d["ranks"]}
assert wrong[0]["nodes"] == sorted({node_of[r] for r in wrong[0]["ranks"]}), wrong[0]
print(f"  corrupt: collective-wrong-data ranks {wrong[0]['ranks']} nodes {wrong[0]['nodes']}: {wrong[0]['message'][:120]}")
PY

# 4 ranks, each its own emulated node: isolation rounds and NCCL's cost table of a 4-node communicator.
launch_nodes 4 1
"${mpi[@]}" "$GPUSCALE" collectives --isolate --json "$out/coll_isolate.json" >"$out/coll_isolate.txt"
"${mpi[@]}" "$GPUSCALE" collectives --ops allreduce,allgather,reducescatter -b 8 -e 16M -f 4 --nccl-algo \
  --project-ranks 8 --json "$out/coll_nodes.json" >"$out/coll_nodes.txt"
python3 - "$out/coll_nodes.json" "$out/coll_isolate.json" <<'PY'
import json, sys
d, i = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
c = d["collectives"]
assert d["world"]["nodes"] == 4 and d["world"]["emulated"]["shared_gpu"], d["world"]
for s in c["sweeps"]:
    assert not s["skipped_reason"], s
    assert all(r[p]["wrong"] in (0, None) for r in s["rows"] for p in ("out_of_place", "in_place")), s["op"]
iso = i["collectives"]["isolation"]
assert iso and iso["rounds"] > 0 and iso["matches"], "no isolation rounds measured"
assert i["verdict"]["passed"], i["verdict"]
models = c.get("nccl_models", [])
assert models, "no NCCL cost model read: " + c.get("nccl_algorithm_note", "")
fits = [f for f in d["projection"]["fits"] if f.get("nccl_model")]
assert fits, "no fit has NCCL's prediction beside it"
assert d["verdict"]["passed"], d["verdict"]
print(f"  4 emulated nodes: isolation {iso['rounds']} rounds, {len(iso['matches'])} node-pair figures; NCCL cost models read {len(models)}")
for f in fits:
    for m in f["nccl_model"]:
        if m["size_bytes"] in (8, 1 << 30):
            print(f"  {f['op']} {f['tier']} {f['ranks']} ranks {m['size_bytes']} B: fit {m['fitted_s'] * 1e6:.1f} us, "
                  f"NCCL {m['nccl_s'] * 1e6:.1f} us ({m['nccl_choice']})")
PY
echo "collectives_gpus: ok ($n ranks on $(visible_gpus) GPUs, then 4 emulated nodes)"
