#!/usr/bin/env bash
# Renders the report of a run with every chart in headless Chromium, checks the charts are in the
# DOM it built, and leaves a screenshot (report.png) in $SHOT_DIR (the build folder) or $OUT. Then
# the same for a real 16-rank run on 4 emulated nodes (collectives --isolate, one node slowed by the
# test seam): the page must open with the verdict and the coverage of the command's plan, name the
# slowed node in the suspect list, say how it was named, show its network as the worst in the node
# heat map and carry the sections that follow it (fleet.png). Charts, ticks, heat-map cells and
# tooltips must be in the figure's unit (no "500u" or "4.22k"), each series its own colour, a faster
# bar never outlined red, and a chart of one GPU count drawn as bars.
set -uo pipefail
fail() { echo "FAIL: $*"; exit 1; }
chromium=$(command -v chromium || command -v chromium-browser) || fail "chromium is not installed (launch/install-deps.sh chromium)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$HTML_FIXTURE" "$work/report.html" "$work/one-x.html" || fail "html_fixture"
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
timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$work/one-x.html" >"$work/one-x-dom.html" 2>>"$work/chromium.log" \
  || { cat "$work/chromium.log"; fail "chromium --dump-dom of the one-GPU-count page"; }
# Every chart in the figure's units, a colour per series, one sign convention, bars for one x value.
python3 - "$work/dom.html" "$work/one-x-dom.html" <<'PY' || fail "the charts' units, colours, outlines or bars"
import re, statistics, sys
dom, one_x = (open(p).read() for p in sys.argv[1:3])
si = re.compile(r"\d[munkMGT]\b")  # "500u", "1.5m", "4.22k", "64M": an SI prefix where a unit belongs
def charts(page):
    return dict(re.findall(r'<svg[^>]* id="([^"]+)"[^>]*>(.*?)</svg>', page, re.S))
for cid, svg in charts(dom).items():
    for text in re.findall(r"<(?:text|title)[^>]*>([^<]*)</(?:text|title)>", svg):
        assert not si.search(text), (cid, "SI-prefixed tick, cell or tooltip", text)
    legend = re.search(r'<g class="legend">(.*?)</g>', svg, re.S)
    if legend:
        fills = re.findall(r'fill="([^"]+)"', legend.group(1))
        assert len(fills) == len(set(fills)), (cid, "two series share a colour", fills)
    lines = re.findall(r'<polyline fill="none" stroke="([^"]+)"', svg)
    assert len(lines) == len(set(lines)), (cid, "two lines share a colour", lines)
ticks = re.findall(r"<text[^>]*>([^<]*)</text>", charts(dom)["chart-busbw-size"])
assert "64 MiB" in ticks, ("sizes as the tables write them", ticks)
assert any(t.endswith(" ms") for t in re.findall(r"<text[^>]*>([^<]*)</text>", charts(dom)["chart-step-time"]))
# Only a bar slower than its chart's median is outlined red; a faster one (rank 0's 800) never is.
faster_seen = False
for cid, svg in charts(dom).items():
    if not cid.startswith("chart-tflops-"):
        continue
    bars = [(cls, float(v)) for cls, v in re.findall(
        r'<rect class="(bar[^"]*)"[^>]*><title>[^<]*: ([\d.]+) TFLOP/s</title>', svg)]
    mid = statistics.median(v for _, v in bars)
    for cls, v in bars:
        outlined = "outlier" in cls
        assert not (outlined and v >= mid), (cid, "a bar at or above the median is outlined red", v, mid)
        faster_seen |= v > mid * 1.05 and not outlined
assert faster_seen, "the fixture's faster-than-median bar"
assert "a faster one is not marked" in dom, "the outline's meaning under the chart"
for cid in ("chart-step-time", "chart-efficiency"):
    svg = charts(one_x)[cid]
    head = re.search(r'<svg[^>]* id="%s"[^>]*>' % cid, one_x).group(0)
    assert "chart-bar" in head and "<circle" not in svg, (cid, "one GPU count: bars, not a line of dots")
    assert len(re.findall(r'<rect class="bar', svg)) == 2, (cid, "a bar per series")
PY
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
# The slowed node's network stands out in the heat map: its inter-node busbw is the furthest on the
# worse side; cells in GB/s as the tables write them, signed + for worse.
heat = body[body.index('id="node-heat"'):]
heat = heat[:heat.index("</section>")]
headers = re.findall(r"<th>([^<]*)</th>", heat)
assert "inter-node busbw (GB/s)" in headers, headers
col = headers.index("inter-node busbw (GB/s)")
worse = {}
for row in re.findall(r"<tr>(.*?)</tr>", heat, re.S)[1:]:
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", row)
    tds = re.findall(r"<td([^>]*)>", row)
    node = cells[0]
    assert not re.search(r"\d[munkMGT]\b", " ".join(cells)), ("SI-prefixed heat-map cell", cells)
    worse[node] = float(re.search(r'data-worse="([\d.]+)"', tds[col]).group(1))
assert max(worse, key=worse.get) == "2" and worse["2"] > 0, ("node 2's network is the worst", worse)
assert "+: worse, -: better" in heat, "the sign convention in words"
named = re.search(r"<tr><td>1</td><td>2</td>(.*?)</tr>", suspects, re.S).group(1)
assert "0 of 0" not in named and re.search(r"rounds of pairs|bisection|node-local", named), ("how node 2 was named", named)
PY
timeout 120 "$chromium" "${flags[@]}" --hide-scrollbars --window-size=1100,2400 --screenshot="$shots/fleet.png" \
  "file://$work/fleet.html" >/dev/null 2>>"$work/chromium.log" || { cat "$work/chromium.log"; fail "chromium --screenshot of the fleet run"; }
[ -s "$shots/fleet.png" ] || fail "no screenshot of the fleet run written"
cp "$work/fleet.html" "$shots/fleet.html"
echo "html_chromium: ok (screenshots $shots/report.png, $shots/fleet.png)"
