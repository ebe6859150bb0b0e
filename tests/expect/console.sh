#!/usr/bin/env bash
# The console a person reads, from the saved runs (tests/expect/runs): `gpuscale report RUN.json` prints
# the screen the run printed (its sections, in order, and its length within two lines: the run's own
# console is saved beside three of them as RUN.console.txt) and `--full` every table; no console,
# summary or full, nor the reporters' golden one, has a wording error (console_wording.py: "1 ranks",
# "(s)", doubled words, check and verdict lines past 160 characters). `gpuscale report` only.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for gz in "$here"/runs/*.json.gz; do
  name=$(basename "$gz" .json.gz)
  gzip -dc "$gz" >"$out/$name.json"
  for view in summary full; do
    "$GPUSCALE" report "$out/$name.json" $([ "$view" = full ] && echo --full) >"$out/$name.$view.txt" 2>"$out/err.txt"
    rc=$?
    [ "$rc" -le 1 ] || fail "report $name ($view) exited $rc: $(cat "$out/err.txt")"
  done
  summary=$(wc -l <"$out/$name.summary.txt")
  full=$(wc -l <"$out/$name.full.txt")
  [ "$full" -gt "$summary" ] || fail "$name: --full printed $full lines, the summary $summary"
  grep -q "^== Env: ranks ==" "$out/$name.full.txt" || fail "$name: --full has no rank table"
  ! grep -q "^== Env: ranks ==" "$out/$name.summary.txt" || fail "$name: the summary has the rank table"
  printed="$here/runs/$name.console.txt"
  [ -f "$printed" ] || continue
  diff <(grep '^==' "$printed") <(grep '^==' "$out/$name.summary.txt") >"$out/diff.txt" \
    || fail "$name: report's sections differ from the run's: $(cat "$out/diff.txt")"
  ran=$(wc -l <"$printed")
  [ "$summary" -ge $((ran - 2)) ] && [ "$summary" -le $((ran + 2)) ] \
    || fail "$name: report printed $summary lines, the run $ran"
  echo "$name: the run printed $ran lines, report $summary, report --full $full"
done
python3 "$here/console_wording.py" "$out"/*.summary.txt "$here/../unit/results/report/ReportersGoldenTest.cpp" \
  || fail "wording errors in the summaries"
# The gradient checks' setup ("1 ranks x 2 samples") is text the saved runs recorded, in their version's words.
python3 "$here/console_wording.py" --tables --recorded ' [0-9]+ (rank|device)s? x [0-9]+ samples?' "$out"/*.full.txt \
  || fail "wording errors in the full consoles"
