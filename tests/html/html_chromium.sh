#!/usr/bin/env bash
# Renders the report of a run with every chart in headless Chromium, checks the charts are in the
# DOM it built, and leaves a screenshot (report.png) in $SHOT_DIR (the build folder) or $OUT.
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
echo "html_chromium: ok (screenshot $shots/report.png)"
