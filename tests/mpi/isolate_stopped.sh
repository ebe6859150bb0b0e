#!/usr/bin/env bash
# A node slowed from outside, no test seam: 16 ranks as 4 emulated nodes of 4, and the 4 ranks of node
# NODE stopped and continued by their PIDs (kill -STOP, 75 ms, kill -CONT, 25 ms) for the whole run
# of `collectives --isolate`. Isolation must name that node, first, in its suspects, and the slow-node
# check must carry the node and its ranks; the verdict fails (exit 1).
#   isolate_stopped.sh NODE [sanitized]
# Under the sanitizers (CI's ASan/UBSan build on two cores) the run is several times slower and the
# duty cycle no longer dominates its timing: it skips (77); isolate_nodes.sh covers the rules there.
set -euo pipefail
node="${1:?NODE}"
if [ "${2:-}" = sanitized ]; then
  echo "isolate_stopped: skipped under the sanitizers (timing of a stopped node, see the header)"
  exit 77
fi
source "$(dirname "$0")/stop_node_lib.sh"

# 4 MiB: each isolation measurement spans several 100 ms stop/continue cycles and so sees their average.
# At 256 KiB one took a few ms and fell in a 25 ms window or not; 1 run in 4 named no node.
"$MPIEXEC" -n 16 --oversubscribe -x GPUSCALE_TEST_RANKS_PER_NODE=4 "$GPUSCALE" collectives --device cpu --isolate \
  --quiet --timeout 120 --json "$out/run.json" -n 8 -w 1 --isolate-bytes 4M >"$out/run.txt" 2>&1 &
mpi_pid=$!
for _ in $(seq 100); do  # up to 10 s for the four ranks to start
  mapfile -t stopped < <(node_pids "$node" 4)
  [ "${#stopped[@]}" -eq 4 ] && break
  stopped=()
  sleep 0.1
done
[ "${#stopped[@]}" -eq 4 ] || { echo "isolate_stopped: did not find node $node's 4 ranks"; exit 1; }
while kill -0 "$mpi_pid" 2>/dev/null; do
  kill -STOP "${stopped[@]}" 2>/dev/null || true
  sleep 0.075
  kill -CONT "${stopped[@]}" 2>/dev/null || true
  sleep 0.025
done
rc=0
wait "$mpi_pid" || rc=$?
mpi_pid=""
[ "$rc" -eq 1 ] || { echo "isolate_stopped: gpuscale exited $rc, not 1 (a failed verdict)"; cat "$out/run.txt"; exit 1; }

python3 - "$out/run.json" "$node" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
iso = d["collectives"]["isolation"]
ranks = sorted(r["rank"] for r in d["ranks"] if r["node"] == want)
assert ranks == [4 * want + i for i in range(4)], ranks
suspects = iso["suspects"]
figures = "node_local %s; matches %s" % (json.dumps(iso["node_local"]), json.dumps(iso["matches"]))
assert suspects and suspects[0]["node"] == want, "node %d not named first: %s; %s" % (want, suspects, figures)
slow = [c for c in d["checks"] if c["id"] == "slow-node"]
assert slow, d["checks"]
assert want in slow[0]["nodes"] and set(ranks) <= set(slow[0]["ranks"]), slow[0]
assert not d["verdict"]["passed"], d["verdict"]
PY
echo "isolate_stopped $node: ok"
