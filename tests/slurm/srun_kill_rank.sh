#!/usr/bin/env bash
# srun -n 4: rank 2 killed (kill -9) while it runs an allreduce sweep. Whatever srun then does with the
# other tasks, rank 0 names rank 2 dead on stderr and in the JSON's failure, exit 3.
source "$(dirname "$0")/common.sh"
json=$out/kill.json err=$out/kill.err
bounded srun --immediate=30 -n 4 -O --mpi=pmix --export=ALL,GPUSCALE_TEST_FAULT=mark:2:collectives/allreduce \
  "$GPUSCALE" collectives -b 64M -e 64M -n 100000 -w 0 --ops allreduce --scaling-sizes none --pair-bytes 0 \
  --device cpu --quiet --timeout 60 --json "$json" >/dev/null 2>"$err" &
job=$!
pid=
for _ in $(seq 1 600); do
  if grep -q "gpuscale test fault:" "$err" 2>/dev/null; then
    for p in $(pgrep -f "$GPUSCALE collectives"); do
      tr '\0' '\n' </proc/"$p"/environ 2>/dev/null | grep -q "^SLURM_PROCID=2$" && pid=$p
    done
    [ -n "$pid" ] && break
  fi
  kill -0 "$job" 2>/dev/null || fail "the step ended before rank 2 reached the sweep: $(cat "$err")"
  sleep 0.1
done
[ -n "$pid" ] || fail "rank 2's process not found"
kill -9 "$pid"
rc=0; wait "$job" || rc=$?
[ "$rc" -ne 0 ] || fail "srun exited 0 after a rank was killed"
grep -Eq "^\[rank 0 host [^]]+\] ending the job: rank 2 \(host [^)]+\) died \(its process is gone\)$" "$err" ||
  fail "rank 0 did not name rank 2: $(cat "$err")"
python3 - "$json" <<'PY' || fail "JSON: see above"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["failure"]
assert f["exit_code"] == 3 and f["rank"] == 2 and f["ranks_not_responding"] == [2], f
assert d["verdict"]["passed"] is False and d["interrupted"] is False, d["verdict"]
PY
echo "slurm_srun_kill_rank: rank 2 named (srun exit $rc)"
