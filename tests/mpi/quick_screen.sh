#!/usr/bin/env bash
# One screen: `--quick` over 8 CPU ranks as 2 emulated nodes of 4 prints at most 60 lines before its
# verdict: the job, a summary line per headline with its values per GPU, the checks; no per-size
# tables (they stay in `gpuscale collectives` and the files, which still hold every size); `report`
# of its JSON prints the same screen.
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$MPIEXEC" -n 8 -x GPUSCALE_TEST_RANKS_PER_NODE=4 "$GPUSCALE" --quick --device cpu --quiet --timeout 120 \
  --json "$out/run.json" >"$out/console.txt" 2>"$out/err.txt"
rc=$?
[ "$rc" -le 1 ] || { cat "$out/err.txt"; fail "the run exited $rc"; }
before=$(awk '/^== Verdict/ { exit } { n++ } END { print n + 0 }' "$out/console.txt")
grep -q "^== Verdict" "$out/console.txt" || { cat "$out/console.txt"; fail "no verdict"; }
[ "$before" -le 60 ] || { cat "$out/console.txt"; fail "$before lines before the verdict, wanted at most 60"; }
grep -q "^== Summary per phase" "$out/console.txt" || { cat "$out/console.txt"; fail "no summary per phase"; }
grep -q "per GPU: rank 0 " "$out/console.txt" || { cat "$out/console.txt"; fail "no per-GPU values"; }
! grep -q "size(B)" "$out/console.txt" || fail "a per-size table is still printed"
python3 - "$out/run.json" <<'PY' || fail "the JSON lost the per-size rows"
import json, sys
d = json.load(open(sys.argv[1]))
sweeps = d["collectives"]["sweeps"]
assert sweeps and all(len(s["rows"]) >= 1 for s in sweeps if not s.get("skipped_reason")), sweeps[0].keys()
PY
# `gpuscale report` of the run prints the same screen (docs/CLI.md, report).
"$GPUSCALE" report "$out/run.json" >"$out/report.txt" 2>"$out/report-err.txt"
[ $? -le 1 ] || { cat "$out/report-err.txt"; fail "report exited past 1"; }
diff "$out/console.txt" "$out/report.txt" >"$out/screen.diff" || { cat "$out/screen.diff"; fail "report's screen is not the run's"; }
echo "quick screen: $before lines before the verdict"
