#!/usr/bin/env bash
# `gpuscale report` at fleet size. A real 8-rank --quick run (2 emulated nodes of 4) is scaled by
# synthetic_run.py to 128 and 1,024 ranks in nodes of 8, one node's figures lowered 30%. The report of
# each names that node, and only it, as a node-outlier; its console is under 100 lines plus one per
# node; every output (JSON, both CSVs, HTML, Prometheus) grows linearly: bytes per rank at 1,024 ranks at most
# 25% over those at 128; and the report's peak memory stays under $1 MB (0: not judged).
set -euo pipefail
limit_mb=${1:-500}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$MPIEXEC" -n 8 -x GPUSCALE_TEST_RANKS_PER_NODE=4 "$GPUSCALE" --quick --device cpu --quiet --timeout 120 \
  --json "$out/template.json" >/dev/null 2>"$out/err.txt" || [ $? -eq 1 ] || { cat "$out/err.txt"; fail "template run failed"; }
slow=3
for n in 128 1024; do
  python3 "$here/synthetic_run.py" "$out/template.json" "$n" --per-node 8 --slow-node "$slow" >"$out/in-$n.json"
  python3 - "$GPUSCALE" "$out" "$n" "$limit_mb" <<'PY' || fail "report of $n ranks"
import resource, subprocess, sys
gpuscale, out, n, limit_mb = sys.argv[1:]
args = [gpuscale, "report", f"{out}/in-{n}.json"]
for ext in ("json", "csv", "checks-csv", "html", "prom"):
    args += [f"--{ext}", f"{out}/report-{n}.{ext}"]
with open(f"{out}/console-{n}.txt", "w") as console:
    rc = subprocess.call(args, stdout=console)
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"  {n} ranks: exit {rc}, peak {peak_mb:.0f} MB")
assert rc in (0, 1), f"report exited {rc}"
assert int(limit_mb) == 0 or peak_mb < int(limit_mb), f"report of {n} ranks peaked at {peak_mb:.0f} MB"
PY
done
python3 - "$out" "$slow" <<'PY'
import json, os, sys
out, slow = sys.argv[1], int(sys.argv[2])
per_rank = {}
for n in (128, 1024):
    d = json.load(open(f"{out}/report-{n}.json"))
    assert d["world"] == {"size": n, "nodes": n // 8}, d["world"]
    outliers = [c for c in d["checks"] if c["id"] == "node-outlier"]
    assert len(outliers) == 1, f"{n} ranks: node-outlier checks {outliers}"
    assert outliers[0]["nodes"] == [slow], (f"{n} ranks: node-outlier names {outliers[0]['nodes']}, not node {slow}: " +
                                            json.dumps([o for o in d["outliers"] if o["node"] != slow][:3]))
    lines = sum(1 for _ in open(f"{out}/console-{n}.txt"))
    assert lines < 100 + n // 8, f"{n} ranks: {lines} console lines for {n // 8} nodes"
    per_rank[n] = {ext: os.path.getsize(f"{out}/report-{n}.{ext}") / n for ext in ("json", "csv", "checks-csv", "html", "prom")}
    print(f"  {n} ranks: {lines} console lines; bytes per rank " +
          ", ".join(f"{ext} {b:.0f}" for ext, b in per_rank[n].items()))
for ext, small in per_rank[128].items():
    large = per_rank[1024][ext]
    assert large <= 1.25 * small, f"{ext}: {large:.0f} bytes per rank at 1024 ranks, {small:.0f} at 128: not linear"
PY
echo "report_scale: ok"
