#!/usr/bin/env bash
# Two nodes on one machine, as NCCL sees them; two ranks.
#   1. mpirun -np 2 gpuscale env, one GPU each: NCCL sees 1 node and connects the GPUs over NVLink
#      (P2P/...). Needs 2 GPUs: on one GPU this case is skipped, saying why.
#   2. The same 2 ranks as two NCCL hosts: NCCL sees 2 nodes and goes through its network transport
#      (NET/Socket where there is no InfiniBand/RoCE); the report names it (nccl-socket-transport). With 2
#      GPUs each rank sets its own NCCL_HOSTID, as a user would; on one GPU the ranks run on two emulated
#      nodes that share it and gpuscale gives NCCL their hosts (GPUSCALE_TEST_SHARE_GPU).
# Asserts both, prints the smoke allreduce's transport and bandwidth as a table last.
# GPUSCALE: the binary (required). OUT: where the JSON and console logs go (default: a temp dir).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/gpus.sh"
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
out=$(results_dir)
mpirun=("${MPIEXEC:-mpirun}")
[ "$(id -u)" -ne 0 ] || mpirun+=(--allow-run-as-root)
export NCCL_NVLS_ENABLE=0
args=(env --quiet --timeout 120)
launch_ranks 2
rm -f "$out/one_host.json"
if [ "$shared_gpus" = 0 ]; then
  "${mpirun[@]}" -np 2 -x NCCL_NVLS_ENABLE "$GPUSCALE" "${args[@]}" --json "$out/one_host.json" \
    >"$out/one_host.txt" 2>&1 || echo "one host: gpuscale exited $? (see $out/one_host.txt)"
  # Each rank its own NCCL_HOSTID (a wrapper, since mpirun's -x gives every rank the same value).
  "${mpirun[@]}" -np 2 -x NCCL_NVLS_ENABLE bash -c 'NCCL_HOSTID=gpuscale-host-$OMPI_COMM_WORLD_RANK exec "$0" "$@"' \
    "$GPUSCALE" "${args[@]}" --json "$out/two_hosts.json" >"$out/two_hosts.txt" 2>&1 || echo "two hosts: gpuscale exited $? (see $out/two_hosts.txt)"
else
  echo "one host over NVLink: skipped, it needs 2 GPUs ($(visible_gpus) visible)"
  launch_nodes 2 1
  "${mpi[@]}" "$GPUSCALE" "${args[@]}" --json "$out/two_hosts.json" >"$out/two_hosts.txt" 2>&1 ||
    echo "two hosts: gpuscale exited $? (see $out/two_hosts.txt)"
fi
grep -E "^NCCL:|nccl-socket-transport|nccl-node-mismatch" "$out"/one_host.txt "$out/two_hosts.txt" 2>/dev/null || true

python3 - "$out/one_host.json" "$out/two_hosts.json" <<'PY'
import json, os, sys
rows, failures = [], []
for name, path in (("one host", sys.argv[1]), ("two NCCL hosts", sys.argv[2])):
    if not os.path.exists(path) and name == "one host":
        continue  # one GPU: no NVLink to see
    d = json.load(open(path))
    r0 = d["ranks"][0]
    s, p = r0["smoke_allreduce"], r0["smoke_allreduce"]["nccl_paths"]
    n = d["world"]["size"]
    busbw = 4 * s["elements"] * 2 * (n - 1) / n / s["op_s"] / 1e9 if s["passed"] and s["op_s"] > 0 else 0
    # On shared GPUs speed findings are kept as info: the id is raised all the same.
    warnings = sorted({c["id"] for c in d["checks"] if c["id"].startswith("nccl-")})
    rows.append((name, str(p["nodes"]), ",".join(p["transports"]) or "-", p["network"] or "-", f"{busbw:.2f}",
                 " ".join(warnings) or "-"))
    if not p["captured"]:
        failures.append(f"{name}: NCCL transport not captured: {p['unavailable_reason']}")
    elif name == "one host":
        if p["nodes"] != 1 or not any(t.startswith("P2P/") for t in p["transports"]):
            failures.append(f"{name}: wanted 1 NCCL node over P2P (NVLink), got {p}")
        if "nccl-socket-transport" in warnings:
            failures.append(f"{name}: socket warning on one host")
    else:
        if p["nodes"] != 2 or not any(t.startswith("NET/") for t in p["transports"]):
            failures.append(f"{name}: wanted 2 NCCL nodes over NET/..., got {p}")
        if "NET/Socket" in p["transports"] and "nccl-socket-transport" not in warnings:
            failures.append(f"{name}: NET/Socket without the nccl-socket-transport warning")
    if not s["passed"]:
        failures.append(f"{name}: smoke allreduce failed: {s}")
head = ("case", "NCCL nodes", "transports", "network", "smoke busbw GB/s (4 MiB)", "checks")
widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
for r in [head] + rows:
    print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
PY
