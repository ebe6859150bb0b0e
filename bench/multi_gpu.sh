#!/usr/bin/env bash
# Usage: GPUSCALE=build/launch/gpuscale [NG=n] [OUT=dir] bench/multi_gpu.sh      (any GPUs, PyTorch)
# The several-GPU checks in one run, on NG ranks (default: every visible GPU, or 4 where fewer than 2
# are visible). Where the GPUs are fewer than the ranks, the ranks run on emulated nodes that share them
# (GPUSCALE_TEST_SHARE_GPU): every step but the per-GPU loads runs and prints what it prints on NG GPUs,
# with speed not judged. Logs under $OUT; a table last.
#  (a) a torch bf16 matmul loop on the last GPU during `gpuscale burn` and `gpuscale compute`: the
#      checks raised, and on which ranks (expected: the last rank flagged, rank 0 not; one GPU a rank only);
#  (b) `gpuscale links`: each GPU's pinned H2D alone and all GPUs at once;
#  (c) `collectives --isolate` over emulated nodes of NG/4 ranks (no more than the GPUs), each node its
#      own NCCL host: the suspects, none expected (3 nodes or more: NG of 3 or more);
#  (g) `collectives --nccl-algo --project-ranks NG` on NG ranks: NCCL's own cost model of the world
#      communicator beside the fit, at 8 B and 1 GiB.
# With 4 ranks or more:
#  (d) the default run on NG/2 ranks with --project-ranks NG: its fit projected to NG against (e)
#      measured, allreduce time per size >= 32 MiB and each preset's DDP step, with the error;
#  (e) the default run on NG ranks: its scaling tables (collectives over 2..NG, DDP weak scaling);
#  (f) as (c) with the loop on every GPU of the last emulated node: the suspects, that node first (one
#      GPU a rank only).
# ctest -L gpu and bench/collectives_vs_torch.sh, bench/train_vs_torch.sh (NP=NG) run beside it.
# DEVICE=cpu runs the gpuscale steps on the CPU backend without the loops, to try the script.
set -uo pipefail
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
device=${DEVICE:-cuda}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$device" = cuda ] || gpus=${NG:-4}
ng=${NG:-$((gpus >= 2 ? gpus : 4))}
[ "$ng" -ge 2 ] || { echo "bench/multi_gpu.sh: needs NG of 2 or more (got $ng)" >&2; exit 2; }
[ "$gpus" -ge 1 ] || { echo "bench/multi_gpu.sh: no GPU visible (DEVICE=cpu tries the script)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
mpirun=(mpirun --oversubscribe -x NCCL_NVLS_ENABLE)
# Isolation needs 3 nodes or more: nodes of NG/4 ranks (one at least, no more than the GPUs).
per_node=$((ng / 4 < 1 ? 1 : ng / 4))
per_node=$((per_node < gpus ? per_node : gpus))
shared() { [ "$gpus" -lt "$1" ]; }  # NP: whether NP ranks share the GPUs
share=(-x GPUSCALE_TEST_SHARE_GPU=1 -x GPUSCALE_TEST_RANKS_PER_NODE)
loads=()
load_on() {  # GPU indices: a torch matmul loop on each, until unload
  [ "$device" = cuda ] || return 0
  for g in "$@"; do
    CUDA_VISIBLE_DEVICES=$g python3 "$here/health_torch.py" load >"$out/load-$g.txt" 2>&1 &
    loads+=($!)
  done
  sleep 8
}
unload() { [ ${#loads[@]} -eq 0 ] || { kill "${loads[@]}"; wait "${loads[@]}" 2>/dev/null; loads=(); sleep 5; }; }
trap unload EXIT
# NAME ARGS...: gpuscale on NG ranks over emulated nodes of per_node ranks, each node an NCCL host.
on_nodes() {
  local name=$1; shift
  GPUSCALE_TEST_RANKS_PER_NODE=$per_node "${mpirun[@]}" -np "$ng" "${share[@]}" "$GPUSCALE" "$@" --device "$device" \
    --quiet --json "$out/$name.json" >"$out/$name.txt" 2>&1
}
job() {  # NAME NP ARGS...: gpuscale on NP ranks (on emulated nodes sharing the GPUs where they are fewer)
  local name=$1 np=$2; shift 2
  local launch=("${mpirun[@]}" -np "$np")
  if shared "$np"; then launch=(env GPUSCALE_TEST_RANKS_PER_NODE="$gpus" "${launch[@]}" "${share[@]}"); fi
  "${launch[@]}" "$GPUSCALE" "$@" --device "$device" --quiet --json "$out/$name.json" >"$out/$name.txt" 2>&1
}

if ! shared "$ng"; then
  load_on $((ng - 1))
  job a_burn "$ng" burn --burn-s 20
  job a_compute "$ng" compute
  unload
fi
job b_links "$ng" links --sizes 1G
[ $((ng / per_node)) -lt 3 ] || on_nodes c_isolate collectives --isolate
job g_nccl_model "$ng" collectives --nccl-algo --project-ranks "$ng"
if [ "$ng" -ge 4 ]; then
  job d_fit $((ng / 2)) run --project-ranks "$ng"
  job e_default "$ng" run
  if ! shared "$ng"; then
    load_on $(seq $((ng - per_node)) $((ng - 1)))
    on_nodes f_isolate collectives --isolate
    unload
  fi
fi

python3 - "$out" "$ng" "$gpus" <<'PY'
import json, os, statistics, sys
out, ng, gpus = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(name):
    path = f"{out}/{name}.json"
    return json.load(open(path)) if os.path.exists(path) else None
def flagged(name):
    d = load(name)
    if not d:
        return "no report"
    return "; ".join(f"{c['id']} ranks {c.get('ranks') or 'all'}" for c in d["checks"] if c["severity"] != "info") or "none"
per_gpu = "skipped: the ranks share GPUs" if gpus < ng else None
rows = [("(a) burn, loop on the last GPU: checks", per_gpu or flagged("a_burn")),
        ("(a) compute, loop on the last GPU: checks", per_gpu or flagged("a_compute"))]
if gpus < ng:
    rows.insert(0, ("layout", f"{ng} ranks on {gpus} GPU{'s' if gpus > 1 else ''}: emulated nodes sharing them"))
links = load("b_links")
if links:
    for r in links["links"]:
        h2d = {c["mode"]: c["gbps"] for c in r["copies"]
               if c["direction"] == "h2d" and c["memory"] == "pinned" and c["bytes"] == max(x["bytes"] for x in r["copies"])}
        rows.append((f"(b) rank {r['rank']} pinned H2D GB/s alone / all at once",
                     f"{h2d.get('solo', 0):.1f} / {h2d.get('concurrent', 0):.1f}"))
def suspects(name):
    d = load(name)
    iso = d and (d.get("collectives") or {}).get("isolation")
    if not iso:
        return "no isolation record"
    return ", ".join(f"node {s['node']} ({s['rounds_failed']}/{s['rounds_counted']})" for s in iso["suspects"]) or "none"
c = load("c_isolate")
rows.append((f"(c) collectives --isolate, {c['world']['nodes'] if c else '?'} nodes: suspects", suspects("c_isolate")))
fit, measured = load("d_fit"), load("e_default")
if fit and measured and fit.get("projection"):
    sweep = next(s for s in measured["collectives"]["sweeps"] if s["op"] == "allreduce")
    times = {row["size_bytes"]: row["out_of_place"]["time_s"] for row in sweep["rows"]}
    errors = []
    for p in fit["projection"]["collectives"]:
        if p["op"] == "allreduce" and p["ranks"] == ng and p["size_bytes"] >= 32 << 20 and p["size_bytes"] in times:
            errors.append((p["size_bytes"], p["algorithm"], p["time_s"] / times[p["size_bytes"]] - 1))
    for size, algo, err in errors:
        rows.append((f"(d) allreduce {size >> 20} MiB on {ng}: {algo} projected vs measured", f"{err * 100:+.1f}%"))
if fit and measured and fit.get("projection"):
    steps = {(r["model"], r["precision"]): r["step_s"] for r in measured["train"]["records"]
             if r["strategy"] == "ddp" and r["gpus"] == ng and r["scaling"] == "weak" and r.get("step_s")}
    for p in fit["projection"]["ddp"]:
        key = (p["model"], p["precision"])
        if p["ranks"] == ng and key in steps:
            measured_s = steps[key]["median"]
            rows.append((f"(d) DDP {p['model']} {p['precision']} step on {ng}: projected / measured ms",
                         f"{p['step_s'] * 1e3:.2f} / {measured_s * 1e3:.2f} ({(p['step_s'] / measured_s - 1) * 100:+.1f}%)"))
model = load("g_nccl_model")
for f in ((model or {}).get("projection") or {}).get("fits", []):
    for m in f.get("nccl_model", []):
        if m["size_bytes"] in (8, 1 << 30):
            rows.append((f"(g) {f['op']} {f['tier']} {f['ranks']} ranks {m['size_bytes']} B: fit / NCCL us",
                         f"{m['fitted_s'] * 1e6:.1f} / {m['nccl_s'] * 1e6:.1f} ({m['nccl_choice']})"))
if model is not None:
    rows.append(("(g) NCCL cost models read", str(len(model["collectives"].get("nccl_models", [])))))
full = load("e_default")
if full:
    rows.append((f"(e) default run on {ng}: verdict", full["verdict"]["result"]))
    rows.append((f"(f) loop on the last node's GPUs: suspects", per_gpu or suspects("f_isolate")))
width = max(len(r[0]) for r in rows)
for name, value in rows:
    print(f"{name:<{width}}  {value}")
PY
