#!/usr/bin/env bash
# The readers of user files (report and compare RUN.json, --expect FILE) against crafted input, without
# MPI: a FIFO, a directory and a device node are refused at once (one line, exit 2, nothing written);
# 1M levels of nesting are refused quickly; a wide, valid 5 MB report is read in time linear in its
# size. Every gpuscale call runs under `timeout`, so a reader that blocks or goes quadratic fails here.
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
refused() {  # SECONDS ARGS...: gpuscale must exit 2 within SECONDS, one line on stderr (left in $err),
  local seconds=$1; shift  # and no --json written
  local rc
  err=$(timeout "$seconds" "$GPUSCALE" "$@" --json "$out/never.json" 2>&1 >/dev/null); rc=$?
  [ "$rc" -ne 124 ] || fail "'$*' still ran after $seconds s"
  [ "$rc" -eq 2 ] || fail "'$*' exited $rc, wanted 2: $err"
  [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] || fail "'$*' printed not one line: $err"
  [ ! -e "$out/never.json" ] || fail "'$*' wrote --json"
}
says() { grep -q -- "$1" <<<"$err" || fail "unclear: $err"; }  # PATTERN: the last refusal's line matches

# A minimal valid run report; N_SPANS trace spans and N_CHECKS checks make it wide.
make_report() {  # PATH N_SPANS N_CHECKS
  python3 - "$@" <<'PY'
import json, sys
path, spans, checks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
run = {"schema_version": 1, "tool_version": "t", "command_line": "gpuscale", "start_time": "2024-01-01T00:00:00Z",
       "elapsed_s": 1.5, "world": {"size": 1, "nodes": 1}, "phases_completed": [], "ranks": [],
       "checks": [{"id": "numa-binding", "severity": "info", "ranks": [0], "message": "m"}] * checks,
       "verdict": {"passed": True, "reasons": []}, "interrupted": False,
       "trace_spans": [{"rank": 0, "config": "ddp mlp fp32 2 GPUs", "lane": "compute", "name": "layer %d fwd" % i,
                        "start_s": i * 1e-3, "duration_s": 1e-3, "args": {"bytes": i}} for i in range(spans)]}
json.dump(run, open(path, "w"))
PY
}
make_report "$out/run.json" 2 1
"$GPUSCALE" report "$out/run.json" >/dev/null || fail "the minimal report is not read"

mkfifo "$out/fifo"
refused 5 report "$out/fifo"; says "fifo: a FIFO, not a regular file"
refused 5 compare "$out/run.json" "$out/fifo"
refused 5 report "$out/run.json" --expect "$out/fifo"; says "^gpuscale: error: --expect .*a FIFO"
mkdir "$out/dir"
refused 5 report "$out"; says "a directory, not a regular file"
refused 5 report "$out/run.json" --expect "$out/dir"; says "^gpuscale: error: --expect .*a directory"
mknod -m 600 "$out/null" c 1 3 2>/dev/null && {
  refused 5 report "$out/null"; says "a character device"
}

# --expect thresholds that no run can meet or that name nothing a run measures.
echo '{"checks_must_pass": ["no-such-check"]}' >"$out/unknown-check.json"
refused 5 report "$out/run.json" --expect "$out/unknown-check.json"; says "unknown check id 'no-such-check'"
echo '{"thresholds": [{"metric": "busbw", "min": 10, "max": 5}]}' >"$out/min-above-max.json"
refused 5 report "$out/run.json" --expect "$out/min-above-max.json"; says "min 10 is above max 5"
echo '{"max_straggler_spread": -0.1}' >"$out/negative-spread.json"
refused 5 report "$out/run.json" --expect "$out/negative-spread.json"; says "never negative"

# 1M nested arrays (2 MB) and 1M nested objects (6 MB): refused at the depth limit, not walked.
python3 -c "import sys; n=1000000; open(sys.argv[1],'w').write('['*n + ']'*n)" "$out/deep-arrays.json"
refused 5 report "$out/deep-arrays.json"; says "nested deeper than"
python3 -c "import sys; n=1000000; open(sys.argv[1],'w').write('{\"a\":'*n + '1' + '}'*n)" "$out/deep-objects.json"
refused 5 compare "$out/run.json" "$out/deep-objects.json"
refused 5 report "$out/run.json" --expect "$out/deep-objects.json"

# Wide and valid: 30k trace spans and 10k checks (about 5 MB) are read; time grows with the size.
make_report "$out/wide.json" 30000 10000
timeout 120 "$GPUSCALE" report "$out/wide.json" --trace "$out/wide-trace.json" >/dev/null; rc=$?
[ "$rc" -eq 0 ] || fail "the wide report exited $rc (124: too slow)"
python3 -c "import json,sys; t=json.load(open(sys.argv[1])); assert len(t['traceEvents']) >= 30000" \
  "$out/wide-trace.json" || fail "the wide report's trace spans were lost"
echo "report_readers: ok"
