#!/usr/bin/env bash
# Renders the report of a run with every chart in headless Chromium, checks the charts are in the
# DOM it built, and leaves a screenshot (report.png) in $SHOT_DIR (the build folder) or $OUT. Then
# the same for a real 16-rank run on 4 emulated nodes (collectives --isolate, one node slowed by the
# test seam): the page must open with the verdict and the coverage of the command's plan, name the
# slowed node in the suspect list and carry the sections that follow it (fleet.png).
set -uo pipefail
fail() { echo "FAIL: $*"; exit 1; }
chromium=$(command -v chromium || command -v chromium-browser) || fail "chromium is not installed (launch/install-deps.sh chromium)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$HTML_FIXTURE" "$work/report.html" || fail "html_fixture"
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --user-data-dir="$work/profile")
timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$work/report.html" >"$work/dom.html" 2>"$work/chromium.log" \
  || { cat "$work/chromium.log"; fail "chromium --dump-dom"; }
for id in chart-busbw-size chart-busbw-ranks chart-tflops-0 chart-step-time chart-efficiency chart-overlap-0 chart-pairwise-0; do
  grep -q "<svg[^>]* id=\"$id\"" "$work/dom.html" || fail "no <svg id=\"$id\"> in the rendered DOM"
done
for class in "chart chart-line" "chart chart-bar" "chart chart-stacked" "chart chart-heat" "bar outlier"; do
  grep -q "class=\"$class\"" "$work/dom.html" || fail "nothing of class \"$class\" in the rendered DOM"
done
grep -q 'id="verdict"' "$work/dom.html" || fail "no verdict section"
shots="${OUT:-${SHOT_DIR:-$work}}"
mkdir -p "$shots"
timeout 120 "$chromium" "${flags[@]}" --hide-scrollbars --window-size=1100,3800 --screenshot="$shots/report.png" \
  "file://$work/report.html" >/dev/null 2>>"$work/chromium.log" || { cat "$work/chromium.log"; fail "chromium --screenshot"; }
[ -s "$shots/report.png" ] || fail "no screenshot written"
cp "$work/report.html" "$shots/report.html"

rc=0
"$MPIEXEC" -n 16 --oversubscribe -x GPUSCALE_TEST_RANKS_PER_NODE=4 -x GPUSCALE_TEST_SLOW_NODE=2 "$GPUSCALE" collectives \
  --device cpu --isolate --quiet --timeout 120 -n 4 -w 1 --isolate-bytes 64K --html "$work/fleet.html" \
  >"$work/fleet.txt" 2>&1 || rc=$?
[ "$rc" -le 1 ] || { cat "$work/fleet.txt"; fail "gpuscale collectives --isolate exited $rc"; }
timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$work/fleet.html" >"$work/fleet-dom.html" 2>>"$work/chromium.log" \
  || { cat "$work/chromium.log"; fail "chromium --dump-dom of the fleet run"; }
python3 - "$work/fleet-dom.html" <<'PY' || fail "the fleet run's page"
import re, sys
dom = open(sys.argv[1]).read()
body = dom[dom.index("<body"):]
sections = re.findall(r'<section id="([^"]+)"', body)
assert sections and sections[0] == "verdict", sections
assert body.index('class="verdict') < body.index("<section", body.index("<section") + 1), "the verdict comes first"
for want in ("suspects", "phase-env", "environment", "figures"):
    assert want in sections, (want, sections)
assert sections.index("suspects") < sections.index("phase-env"), sections
# Right after the verdict, every planned item of the command with its result: --isolate plans the
# localisation alone.
assert sections[1] == "coverage", sections
coverage = body[body.index('id="coverage"'):]
coverage = coverage[:coverage.index("</section>")]
items = dict(re.findall(r"<tr class=\"[A-Z]+\"><td>collectives</td><td>([^<]+)</td><td>([A-Z]+)</td>", coverage))
assert items == {"slow-node localisation": "PASS"}, items
suspects = body[body.index('id="suspects"'):]
suspects = suspects[:suspects.index("</section>")]
rows = re.findall(r"<tr><td>(\d+)</td><td>(\d+)</td>", suspects)
assert rows and rows[0] == ("1", "2"), ("the slowed node 2 is named first", rows)
assert "slow-node" in body[:body.index('id="suspects"')], "the slow-node check is listed above the suspects"
assert "layer=" not in body[:body.index('id="figures"')] and "op=allreduce" not in body[:body.index('id="figures"')]
PY
timeout 120 "$chromium" "${flags[@]}" --hide-scrollbars --window-size=1100,2400 --screenshot="$shots/fleet.png" \
  "file://$work/fleet.html" >/dev/null 2>>"$work/chromium.log" || { cat "$work/chromium.log"; fail "chromium --screenshot of the fleet run"; }
[ -s "$shots/fleet.png" ] || fail "no screenshot of the fleet run written"
cp "$work/fleet.html" "$shots/fleet.html"
echo "html_chromium: ok (screenshots $shots/report.png, $shots/fleet.png)"
