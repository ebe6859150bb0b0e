#!/usr/bin/env bash
# Usage: GPUSCALE=build/launch/gpuscale [QUICK_RUNS=5] [OUT=dir] bench/preflight.sh [gpu|cpu]
# The preflight's timeline, each run timed from mpirun's start to its exit against its stated budget:
#   gpu  QUICK_RUNS x `mpirun -np 1 gpuscale --quick`, one default run, and `--quick` on 4 ranks sharing
#        the first GPU on emulated nodes (GPUSCALE_TEST_SHARE_GPU)
#   cpu  the default run on the CPU backend, 8 ranks as 4 emulated nodes of 2, node 2 slowed
#        (GPUSCALE_TEST_SLOW_NODE): the budget held under a slow node, which the run must name
# Prints each run's per-phase timeline (bench/timeline.py) and, last, one line per run: wall seconds,
# budget, the ratio, exit code, what it dropped. Files go to $OUT (or a temp folder).
set -uo pipefail
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
mode=${1:-gpu}
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
mpirun=(mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE)
names=() walls=() rows=()
timed() {  # NAME CMD...: runs CMD writing $out/NAME.json, records its wall seconds and exit code
  local name=$1 start rc wall
  shift
  start=$EPOCHREALTIME
  "$@" --json "$out/$name.json" >"$out/$name.stdout" 2>"$out/$name.stderr"
  rc=$?
  wall=$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.2f", e - s }')
  names+=("$name") walls+=("$wall")
  rows+=("$(python3 - "$here" "$out/$name.json" "$name" "$wall" "$rc" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
import timeline
path, name, wall, rc = sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
try:
    run = json.load(open(path))
    budget = run["budget"]["budget_s"]
    dropped = sum(r["dropped"] for r in timeline.rows(run))
    verdict = "PASS" if run["verdict"]["passed"] else "FAIL"
    suspects = [s["node"] for s in ((run.get("collectives") or {}).get("isolation") or {}).get("suspects", [])][:1]
    named = " named node %d" % suspects[0] if suspects else ""
    print("%-10s %7.2f %6.0f %6.2fx %4s %s dropped %d%s" % (name, wall, budget, wall / budget, rc, verdict, dropped, named))
except (OSError, ValueError, KeyError) as e:
    print("%-10s %7.2f      -       - %4s no timeline (%s)" % (name, wall, rc, e))
PY
)")
}
case $mode in
  gpu)
    for i in $(seq 1 "${QUICK_RUNS:-5}"); do timed "quick-$i" "${mpirun[@]}" -np 1 "$GPUSCALE" --quick; done
    timed default "${mpirun[@]}" -np 1 "$GPUSCALE"
    timed shared4 "${mpirun[@]}" -np 4 -x GPUSCALE_TEST_SHARE_GPU=1 -x GPUSCALE_TEST_RANKS_PER_NODE=1 \
      "$GPUSCALE" --quick ;;
  cpu)
    timed cpu-slow "${mpirun[@]}" -np 8 --oversubscribe -x GPUSCALE_TEST_RANKS_PER_NODE=2 \
      -x GPUSCALE_TEST_SLOW_NODE=2 "$GPUSCALE" --device cpu ;;
  *) echo "preflight: mode gpu or cpu, not '$mode'" >&2; exit 2 ;;
esac
for i in "${!names[@]}"; do
  [ -f "$out/${names[$i]}.json" ] && python3 "$here/timeline.py" "$out/${names[$i]}.json" --wall "${walls[$i]}"
  echo
done
echo "run          wall s budget  ratio   rc verdict"
printf '%s\n' "${rows[@]}"
