#!/usr/bin/env bash
# Every visible GPU gets a rank and runs `gpuscale links`: per rank pinned H2D and D2H at 64 MiB and
# 1 GiB alone (and at once where there are several GPUs) at PCIe rates no healthy gen4/gen5 x16 GPU
# misses by far, pageable copies slower than pinned ones, the PCIe link sampled under load, and a
# device copy and triad at more than half the model's HBM peak; no links check above info.
set -euo pipefail
source "$(dirname "$0")/gpus.sh"
out=$(results_dir)
n=$(visible_gpus)
"$MPIEXEC" -n "$n" -x NCCL_NVLS_ENABLE=0 "$GPUSCALE" links --json "$out/links_gpus.json" >"$out/links_gpus.txt"
python3 - "$out/links_gpus.json" "$n" <<'PY'
import json, sys
d, n = json.load(open(sys.argv[1])), int(sys.argv[2])
recs = d["links"]
assert len(recs) == n, len(recs)
for r in recs:
    fig = {(c["direction"], c["memory"], c["mode"], c["bytes"]): c["gbps"] for c in r["copies"]}
    for direction in ("h2d", "d2h"):
        for size in (64 << 20, 1 << 30):
            assert fig[(direction, "pinned", "solo", size)] > 20, (direction, size, fig)
            if n > 1:
                assert (direction, "pinned", "concurrent", size) in fig, fig
        assert fig[(direction, "pageable", "solo", 64 << 20)] < fig[(direction, "pinned", "solo", 1 << 30)], fig
    assert r["pcie"]["samples"] > 0 and r["pcie"]["gen"] and r["pcie"]["width"], r["pcie"]
    hbm = {h["kernel"]: h["gbps"] for h in r["hbm"]}
    peak = r["hbm_peak_gbps"] or 1000
    assert hbm["copy"] > 0.5 * peak and hbm["triad"] > 0.5 * peak, (hbm, peak)
    print(r["rank"], r["gpu"], {k: round(v, 1) for k, v in fig.items()}, {k: round(v) for k, v in hbm.items()})
bad = [c for c in d["checks"] if c["id"] in ("h2d-slow", "hbm-slow", "pcie-downtrained", "nvlink-down",
                                             "nvlink-errors", "gpu-xid")]
assert not bad, bad
PY
grep -q "^Host links and memory" "$out/links_gpus.txt"
