#!/usr/bin/env bash
# A node slowed from outside by a duty cycle, no test seam: 8 ranks as 4 emulated nodes of 2, and the 2
# ranks of one node stopped 150 ms in every 200 ms (kill -STOP, 150 ms, kill -CONT, 50 ms) by their PIDs
# for the whole of `collectives --isolate --quick` (the preflight's profile: 5 operations after 2 of
# warm-up per measurement, 256 KiB on the CPU backend). Each of RUNS runs (default 5) stops another
# node (1, 2, 3, 0, 1, ...); every one must name that node first in its suspects, with the slow-node check
# carrying it and its ranks and a failed verdict (exit 1). The same isolation without the duty cycle must
# name no node and pass (exit 0). Prints how many runs named the node and the wall time.
#   isolate_duty_cycle.sh [RUNS] [sanitized]
# Under the sanitizers (CI's ASan/UBSan build on two cores) every operation is several times slower and
# the timing of a stopped node no longer stands out: it skips (77), as isolate_stopped.sh does.
set -euo pipefail
runs="${1:-5}"
if [ "${2:-}" = sanitized ]; then
  echo "isolate_duty_cycle: skipped under the sanitizers (timing of a stopped node, see the header)"
  exit 77
fi
readonly rails=2 stopped_s=0.15 running_s=0.05
source "$(dirname "$0")/stop_node_lib.sh"

isolate() {  # NAME: `collectives --isolate` in the background, its JSON in NAME.json
  "$MPIEXEC" -n $((4 * rails)) --oversubscribe -x GPUSCALE_TEST_RANKS_PER_NODE=$rails "$GPUSCALE" collectives \
    --device cpu --isolate --quick --quiet --timeout 120 --json "$out/$1.json" >"$out/$1.txt" 2>&1 &
  mpi_pid=$!
}

finish() {  # NAME WANT_RC
  local rc=0
  wait "$mpi_pid" || rc=$?
  mpi_pid=""
  [ "$rc" -eq "$2" ] || { echo "isolate_duty_cycle: $1 exited $rc, wanted $2"; cat "$out/$1.txt"; exit 1; }
}

named() {  # NAME NODE: whether the run named NODE first, with its slow-node check; prints why not
  python3 - "$out/$1.json" "$2" "$rails" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want, rails = int(sys.argv[2]), int(sys.argv[3])
iso = d["collectives"]["isolation"]
ranks = sorted(r["rank"] for r in d["ranks"] if r["node"] == want)
assert ranks == [rails * want + i for i in range(rails)], ranks
suspects = iso["suspects"]
if not suspects or suspects[0]["node"] != want:
    sys.exit("node %d not named first: suspects %s; node_local %s; matches %s" % (
        want, json.dumps(suspects), json.dumps(iso["node_local"]), json.dumps(iso["matches"])))
slow = [c for c in d["checks"] if c["id"] == "slow-node"]
assert slow and want in slow[0]["nodes"] and set(ranks) <= set(slow[0]["ranks"]), slow
assert not d["verdict"]["passed"], d["verdict"]
PY
}

start=$(date +%s.%N)
hits=0
for run in $(seq "$runs"); do
  node=$((run % 4))
  isolate "duty$run"
  for _ in $(seq 300); do  # up to 30 s for the node's ranks to start (2 busy cores)
    mapfile -t stopped < <(node_pids "$node" "$rails")
    [ "${#stopped[@]}" -eq "$rails" ] && break
    stopped=()
    sleep 0.1
  done
  [ "${#stopped[@]}" -eq "$rails" ] || { echo "isolate_duty_cycle: did not find node $node's ranks"; exit 1; }
  while kill -0 "$mpi_pid" 2>/dev/null; do
    kill -STOP "${stopped[@]}" 2>/dev/null || true
    sleep "$stopped_s"
    kill -CONT "${stopped[@]}" 2>/dev/null || true
    sleep "$running_s"
  done
  stopped=()
  rc=0
  wait "$mpi_pid" || rc=$?
  mpi_pid=""
  if [ "$rc" -eq 1 ] && named "duty$run" "$node"; then
    hits=$((hits + 1))
  else
    echo "run $run (node $node stopped): exit $rc, not named"
    tail -5 "$out/duty$run.txt"
  fi
done
duty_s=$(echo "$(date +%s.%N) - $start" | bc)

isolate healthy
finish healthy 0
python3 - "$out/healthy.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
iso = d["collectives"]["isolation"]
assert iso["suspects"] == [], "a healthy job named %s; matches %s" % (iso["suspects"], json.dumps(iso["matches"]))
assert "slow-node" not in [c["id"] for c in d["checks"]], d["checks"]
assert d["verdict"]["passed"], d["verdict"]
PY
total_s=$(echo "$(date +%s.%N) - $start" | bc)
printf 'isolate_duty_cycle: named the duty-cycled node in %d of %d runs (%.0f s); healthy named none (%.0f s in all)\n' \
  "$hits" "$runs" "$duty_s" "$total_s"
[ "$hits" -eq "$runs" ]
