#!/usr/bin/env bash
# mpiexec `links --device cpu` on 3 ranks as emulated nodes of 2 and 1: every rank reports host
# memory copy bandwidth (the cpu backend's "pinned" and pageable copies are memcpy) alone and, on the
# node of two, with its neighbour at once, and device memory copy and triad figures; nothing about
# PCIe, NVLink or XIDs is judged or said on the cpu backend. Then an --expect floor on host_copy_bw that
# no host meets fails the verdict with exit 1, and bad option values are one line and exit 2.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"

"$MPIEXEC" -n 3 -x GPUSCALE_TEST_RANKS_PER_NODE=2 "$GPUSCALE" links --device cpu --sizes 1M,4M \
  --pageable-size 2M --hbm-size 8M --repeats 3 --quiet --json "$out/links.json" >"$out/console.txt" \
  || fail "links --device cpu exited $?"
python3 - "$out/links.json" <<'PY' || fail "links records"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["phases_completed"] == ["env", "links"], d["phases_completed"]
recs = d["links"]
assert [(r["rank"], r["node"]) for r in recs] == [(0, 0), (1, 0), (2, 1)], recs
for r in recs:
    assert r["gpu"] == "cpu" and r["cpu_affinity"] and r["host"], r
    solo = {(c["direction"], c["memory"], c["bytes"]) for c in r["copies"] if c["mode"] == "solo"}
    assert solo == {(dr, "pinned", b) for dr in ("h2d", "d2h") for b in (1 << 20, 4 << 20)} | \
        {("h2d", "pageable", 2 << 20), ("d2h", "pageable", 2 << 20)}, solo
    conc = [c for c in r["copies"] if c["mode"] == "concurrent"]
    assert len(conc) == 6, conc  # every rank takes part in the round at once, the node of one too
    for c in r["copies"]:
        assert len(c["samples_s"]) == 3 and c["gbps"] > 0, c
    hbm = {h["kernel"]: h for h in r["hbm"]}
    assert set(hbm) == {"copy", "triad"}, hbm
    assert hbm["copy"]["bytes_moved"] == 2 * (8 << 20) and hbm["triad"]["bytes_moved"] == 3 * (4 << 20), hbm
    assert all(h["gbps"] > 0 and len(h["samples_s"]) == 3 for h in hbm.values()), hbm
    assert r["unreadable"] == [] and r["nvlinks"] == [] and r["xids"] == [] and r["pcie"]["samples"] == 0, r
ids = {c["id"] for c in d["checks"]}
assert not ids & {"h2d-slow", "hbm-slow", "pcie-downtrained", "nvlink-down", "nvlink-errors", "gpu-xid",
                  "links-unreadable"}, ids
assert d["verdict"]["passed"], d["verdict"]
PY
grep -q "^Host links and memory" "$out/console.txt" || fail "no links table"

cat >"$out/expect.json" <<'JSON'
{"thresholds": [{"phase": "links", "metric": "host_copy_bw", "labels": {"memory": "pinned", "mode": "solo"},
                 "min": 1e9}]}
JSON
"$MPIEXEC" -n 2 "$GPUSCALE" links --device cpu --sizes 1M --pageable-size 0 --hbm-size 0 --repeats 2 \
  --expect "$out/expect.json" --quiet --json "$out/floor.json" >"$out/floor.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { cat "$out/floor.txt"; fail "an unmet host_copy_bw floor exited $rc, wanted 1"; }
python3 - "$out/floor.json" <<'PY' || fail "floor verdict"
import json, sys
d = json.load(open(sys.argv[1]))
rules = [r for r in d["verdict"]["rules"] if "host_copy_bw" in r["name"]]
assert rules and all(r["result"] == "FAIL" for r in rules), d["verdict"]["rules"]
assert all(not [c for c in r["copies"] if c["memory"] == "pageable"] and r["hbm"] == [] for r in d["links"])
PY

for bad in "--sizes 0" "--sizes 1M,,4M" "--sizes 65G" "--pageable-size 1X" "--hbm-size -1" "--repeats 0" \
           "--repeats 1001" "--straggler-threshold nan"; do
  # shellcheck disable=SC2086
  expect_usage links --device cpu $bad
done
echo "links_cpu: ok"
