#!/usr/bin/env bash
# Values that only the job's shape can judge, once MPI runs: a root that is no rank, DDP over more
# ranks than the job's, more DP devices than rank 0 drives, --isolate with fewer than 3 nodes. Each is
# exit 2 before any work: one gpuscale line that names the value, nothing written. And an isolation
# that ran but measured nothing (its message past the memory) fails the verdict with its reason.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"

expect_world_usage() {  # expect_world_usage RANKS WANTED ARGS...: under mpiexec -n RANKS
  local ranks="$1" wanted="$2" err rc lines
  shift 2
  err=$("$MPIEXEC" -n "$ranks" --oversubscribe "$GPUSCALE" "$@" --timeout 60 --json "$out/never.json" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] || fail "'$*' on $ranks ranks exited $rc, wanted 2: $err"
  lines=$(printf '%s\n' "$err" | grep '^gpuscale' || true)
  [ "$(printf '%s\n' "$lines" | grep -c .)" -eq 1 ] || fail "'$*' on $ranks ranks: not one gpuscale line: $err"
  case "$lines" in *"$wanted"*) ;; *) fail "'$*' on $ranks ranks: '$lines' does not say '$wanted'" ;; esac
  [ ! -e "$out/never.json" ] || fail "'$*' on $ranks ranks wrote a file"
  [ "$(temps)" -eq 0 ] || fail "'$*' left a temp file"
}

expect_world_usage 3 "-r 5: the root must be a rank, and the job has 3 ranks" collectives --device cpu -r 5 -e 64
expect_world_usage 3 "--gpus 64: DDP over more ranks than the job's; the job has 3 ranks" \
  train --device cpu --gpus 1,2,64
expect_world_usage 3 "--dp-devices 100: rank 0 can drive 3 devices here" train --device cpu --dp-devices 100
expect_world_usage 2 "--isolate compares nodes with each other and needs at least 3 nodes; the job spans 1 node" \
  collectives --device cpu --isolate
expect_usage collectives --device cpu --isolate  # one rank, no launcher

# Three one-rank nodes, an isolation message no rank can hold: not run, so the verdict fails with why.
"$MPIEXEC" -n 3 -x GPUSCALE_TEST_RANKS_PER_NODE=1 "$GPUSCALE" collectives --device cpu --isolate --isolate-bytes 1T \
  --timeout 60 --quiet --json "$out/1t.json" >"$out/1t.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "--isolate-bytes 1T exited $rc, wanted 1: $(tail -3 "$out/1t.txt")"
grep -q "not run: out of memory" "$out/1t.txt" || fail "the console does not say why: $(cat "$out/1t.txt")"
python3 - "$out/1t.json" <<'PY' || fail "--isolate-bytes 1T in the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
iso = d["collectives"]["isolation"]
assert iso["skipped_reason"].startswith("out of memory"), iso
assert d["verdict"]["passed"] is False, d["verdict"]
nothing = [c for c in d["checks"] if c["id"] == "isolation-measured-nothing"]
assert nothing and nothing[0]["severity"] == "error" and "out of memory" in nothing[0]["message"], d["checks"]
assert any("isolation-measured-nothing" in r for r in d["verdict"]["reasons"]), d["verdict"]["reasons"]
PY
echo "world_values: ok"
