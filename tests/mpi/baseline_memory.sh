#!/usr/bin/env bash
# --baseline's peak memory stays within 4x of the baseline file's size. A real --quick run of 8 ranks
# (8 emulated nodes of 1) is scaled by synthetic_run.py to a fleet of 2048 one-rank nodes, whose per-node
# figures make a large baseline group; the real run makes a second group, of its own shape. `report` of
# the real run (judged against its group, the fleet's held beside it) with and without --baseline, each
# under /usr/bin/time -v: the difference of their peak resident sets is what the baseline costs, at
# most 4x the file's size. (Read whole, as text and then as one JSON document, a 1.5 MB baseline grew
# the peak by 8.7x its size; streamed, each figure kept as it is read, by 2.7x.)
# 2048 nodes make a baseline of about 1.2 MB, above the 1 MiB the check needs to measure.
# Usage: baseline_memory.sh [NODES (2048)] [FACTOR (4)].
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
nodes=${1:-2048}
factor=${2:-4}
[ -x /usr/bin/time ] || { echo "no /usr/bin/time: skipped"; exit 77; }

"$MPIEXEC" -n 8 -x GPUSCALE_TEST_RANKS_PER_NODE=1 "$GPUSCALE" --quick --device cpu --quiet --timeout 120 \
  --json "$out/template.json" >/dev/null 2>"$out/template.err" || [ $? -eq 1 ] \
  || fail "template run failed: $(tail -3 "$out/template.err")"
python3 "$here/synthetic_run.py" "$out/template.json" "$nodes" --per-node 1 >"$out/fleet.json" \
  || fail "synthetic_run.py failed"
"$GPUSCALE" baseline "$out/fleet.json" "$out/template.json" -o "$out/base.json" >/dev/null 2>"$out/baseline.err" \
  || fail "baseline of the fleet failed: $(cat "$out/baseline.err")"

peak_kb() {  # peak_kb ARGS...: gpuscale ARGS under /usr/bin/time -v; sets $peak, its maximum resident set in KiB
  /usr/bin/time -v "$GPUSCALE" "$@" >"$out/report.txt" 2>"$out/time.txt"
  local rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "'$*' exited $rc: $(grep -v '^\s' "$out/time.txt" | head -3)"
  peak=$(sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$out/time.txt")
  [ -n "$peak" ] || fail "no maximum resident set size from /usr/bin/time"
}
peak_kb report "$out/template.json"
without=$peak
peak_kb report "$out/template.json" --baseline "$out/base.json"
with=$peak
grep -q "baseline-drop" "$out/report.txt" || fail "the run was not judged against its group: $(tail -5 "$out/report.txt")"
size_kb=$(( $(stat -c %s "$out/base.json") / 1024 ))
cost_kb=$((with - without))
echo "baseline $size_kb KiB ($nodes nodes): report peaks at $without KiB without it, $with KiB with it:" \
  "$cost_kb KiB, $(python3 -c "print(f'{$cost_kb / $size_kb:.1f}')")x the file"
[ "$size_kb" -ge 1024 ] || fail "the baseline is too small to measure: $size_kb KiB"
[ "$cost_kb" -le $((factor * size_kb)) ] || fail "--baseline costs $cost_kb KiB, over ${factor}x the file's $size_kb KiB"
echo "baseline_memory: ok"
