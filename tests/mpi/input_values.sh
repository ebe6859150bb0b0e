#!/usr/bin/env bash
# Option values and environment values: the one size syntax end to end, zero / NaN / huge values
# refused (one line, exit 2, nothing written), a run that measured nothing failing its verdict, a
# non-UTF-8 environment value kept without ending the job, and PMI_SIZE reaching the world-size check.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"

for bad in "-b 0" "-e 0" "-i 0 -b 8 -e 64" "--scaling-sizes 0" "--scaling-sizes 8,0" "-e 9223372036854775808" \
           "-e 8388608T" "--pair-small-bytes 0" "-w -1" "--net-gbps nan" "--link-threshold inf"; do
  # shellcheck disable=SC2086
  expect_usage collectives --device cpu $bad
done
for bad in "--batch 0" "--depth 0" "--width 0" "--dp-devices 0" "--batch 2000000000" "--lr nan" \
           "--first-bucket-mb inf" "--gpus 2x"; do
  # shellcheck disable=SC2086
  expect_usage train --device cpu $bad
done
expect_usage compute --device cpu --workspace-mb 1e300
expect_usage env --device cpu --timeout 1e300
expect_usage env --device cpu --timeout train=604801

# The CLI reads the sizes the README lists, KiB included; "all" mixes with names.
"$MPIEXEC" -n 2 "$GPUSCALE" collectives --device cpu -b 1KiB -e 2KiB -n 1 -w 0 --ops all,allreduce \
  --scaling-sizes 1KiB --pair-bytes 0 --timeout 60 --quiet --json "$out/kib.json" >/dev/null \
  || fail "collectives -b 1KiB -e 2KiB --ops all,allreduce"
python3 - "$out/kib.json" <<'PY' || fail "1KiB..2KiB sweep"
import json, sys
d = json.load(open(sys.argv[1]))
sweeps = d["collectives"]["sweeps"]
assert len(sweeps) == 7, [s["op"] for s in sweeps]
assert [r["size_bytes"] for r in sweeps[0]["rows"]] == [1024, 2048], sweeps[0]["rows"]
PY

# -e 1T: every size skipped for lack of memory. Nothing measured is a failed verdict, with the reason.
"$MPIEXEC" -n 2 "$GPUSCALE" collectives --device cpu -b 1T -e 1T -n 1 -w 0 --ops allreduce \
  --scaling-sizes none --pair-bytes 0 --timeout 60 --quiet --json "$out/1t.json" >"$out/1t.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "-e 1T exited $rc, wanted 1: $(tail -3 "$out/1t.txt")"
python3 - "$out/1t.json" <<'PY' || fail "-e 1T verdict"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"]["passed"] is False, d["verdict"]
rules = [r for r in d["verdict"]["rules"] if r["name"] == "collectives measured something"]
assert rules and rules[0]["result"] == "FAIL" and "allreduce: " in rules[0]["detail"], d["verdict"]["rules"]
PY

# One non-UTF-8 byte in an allow-listed variable is kept, escaped, and the job goes on.
SLURM_JOB_NAME=$'r\xe9sultat' "$MPIEXEC" -n 2 -x SLURM_JOB_NAME "$GPUSCALE" env --device cpu --timeout 60 \
  --quiet --json "$out/utf8.json" >"$out/utf8.txt" 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "non-UTF-8 SLURM_JOB_NAME exited $rc: $(tail -3 "$out/utf8.txt")"
python3 - "$out/utf8.json" <<'PY' || fail "non-UTF-8 SLURM_JOB_NAME in the JSON"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8", errors="strict"))
for r in d["ranks"]:
    assert r["variables"]["SLURM_JOB_NAME"] == "r\\xe9sultat", r["variables"]["SLURM_JOB_NAME"]
PY

# PMI_SIZE says 8 ranks, MPI sees 1: the world-size check fires (it never saw PMI_* before).
PMI_SIZE=8 "$GPUSCALE" env --device cpu --timeout 60 --quiet --json "$out/pmi.json" >"$out/pmi.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "PMI_SIZE=8 exited $rc, wanted 1: $(tail -3 "$out/pmi.txt")"
grep -q '"world-size-mismatch"' "$out/pmi.json" || fail "PMI_SIZE=8 raised no world-size-mismatch"
echo "input_values: ok"
