#!/usr/bin/env bash
# Slow-node isolation on 16 ranks as 4 emulated nodes of 4. With GPUSCALE_TEST_SLOW_NODE the cpu
# communicator of that node's ranks runs at a tenth of its speed: the suspect list must name it first,
# by its rounds and by bisection, and the slow-node check must fire. Without the seam no node is named
# (run twice: the oversubscribed host is noisy, and a healthy node must never be blamed). The slow
# run's CSV has every node's isolation figures and its Prometheus file those and the suspect, per host;
# pandas (Debian's python3-pandas) reads both CSVs and finds the median busbw of each host in one
# group-by, the slow node's the lowest (the test exits 77, skipped, after every other check where no
# python3 has pandas).
#   isolate_nodes.sh slow NODE | healthy
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
case="${1:?slow NODE or healthy}"
seam=()
if [ "$case" = slow ]; then seam=(-x "GPUSCALE_TEST_SLOW_NODE=${2:?node}"); fi

run() {  # run N: one isolation run into $out/N.json; exit 1 (a failed verdict) is expected with a suspect
  local rc=0
  "$MPIEXEC" -n 16 --oversubscribe -x GPUSCALE_TEST_RANKS_PER_NODE=4 "${seam[@]}" "$GPUSCALE" collectives \
    --device cpu --isolate --quiet --timeout 120 --json "$out/$1.json" -n 4 -w 1 --isolate-bytes 64K \
    >"$out/$1.txt" || rc=$?
  [ "$rc" -le 1 ] || { echo "isolate_nodes: gpuscale exited $rc"; cat "$out/$1.txt"; exit 1; }
}

check() {  # check N [NODE]
  python3 - "$out/$1.json" "${2:-}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = int(sys.argv[2]) if sys.argv[2] else None
c = d["collectives"]
iso = c["isolation"]
assert not c["sweeps"] and not c["scaling"] and c.get("pairs") is None, "--isolate runs only the isolation"
assert len(iso["node_local"]) == 4 and iso["rails"] == 4, iso["node_local"]
assert len({m["round"] for m in iso["matches"]}) == iso["rounds"] == 6, iso["matches"]
suspects = iso["suspects"]
ids = [k["id"] for k in d["checks"]]
if want is None:
    assert suspects == [], suspects
    assert "slow-node" not in ids, d["checks"]
else:
    assert suspects, "no suspect named: %s" % json.dumps(iso["matches"])
    first = suspects[0]
    assert first["node"] == want, suspects
    assert first["rounds_failed"] >= 5 and first["rounds_counted"] == 6, first
    assert first["by_bisection"] and iso["bisection_node"] == want, (iso["bisection"], iso["bisection_note"])
    assert len(iso["bisection"]) == 2, iso["bisection"]
    assert [s["node"] for s in suspects] == [want], suspects
    assert "slow-node" in ids, ids
PY
}

if [ "$case" = slow ]; then
  run 1
  check 1 "$2"
  grep -q "SUSPECT node $2" "$out/1.txt" || { cat "$out/1.txt"; exit 1; }
  [ "$(grep -c SUSPECT "$out/1.txt")" -eq 1 ]
  "$GPUSCALE" report "$out/1.json" --csv "$out/1.csv" --checks-csv "$out/1-checks.csv" --prom "$out/1.prom" \
    >/dev/null || [ $? -eq 1 ]
  python3 - "$out/1.json" "$out/1.csv" "$out/1.prom" "$2" <<'PY'
import csv, json, re, sys
d = json.load(open(sys.argv[1]))
want = int(sys.argv[4])
rows = list(csv.DictReader(open(sys.argv[2])))
# Emulated nodes share the host name: each is HOST/nNODE, as in the other samples.
host = lambda node: "%s/n%d" % (d["collectives"]["isolation"]["node_hosts"][node], node)
for metric in ("node_local_busbw", "inter_node_busbw"):
    nodes = sorted((r["node"], r["host"], r["rank"], r["labels"]) for r in rows if r["metric"] == metric)
    assert nodes == [(str(n), host(n), "", "") for n in range(4)], (metric, nodes)
samples = {}
for line in open(sys.argv[3]).read().splitlines():
    m = re.match(r'(gpuscale_(?:node_local_busbw_bytes_per_second|inter_node_busbw_bytes_per_second|suspect_score))\{Hostname="([^"]*)"\} (\S+)$', line)
    if m:
        samples.setdefault(m[1], {})[m[2]] = float(m[3])
for family in ("gpuscale_node_local_busbw_bytes_per_second", "gpuscale_inter_node_busbw_bytes_per_second"):
    assert sorted(samples[family]) == sorted(host(n) for n in range(4)), samples
assert list(samples["gpuscale_suspect_score"]) == [host(want)], samples
assert samples["gpuscale_suspect_score"][host(want)] > 0.5, samples
PY
  pandas_python=
  for p in /usr/bin/python3 python3; do
    if "$p" -c "import pandas" 2>/dev/null; then pandas_python=$p; break; fi
  done
  [ -n "$pandas_python" ] || { echo "isolate_nodes: no python3 with pandas (python3-pandas): CSV group-by skipped"; exit 77; }
  "$pandas_python" - "$out/1.json" "$out/1.csv" "$out/1-checks.csv" "$2" <<'PY'
import json, math, sys
import pandas as pd
d = json.load(open(sys.argv[1]))
want = int(sys.argv[4])
host = lambda node: "%s/n%d" % (d["collectives"]["isolation"]["node_hosts"][node], node)
df = pd.read_csv(sys.argv[2])
assert df["value"].dtype == "float64", df.dtypes
# Which host is slow: one group-by, one row per host.
busbw = df[df.metric.str.endswith("busbw")].groupby("host")["value"].median()
assert sorted(busbw.index) == sorted(host(n) for n in range(4)), busbw
assert all(math.isfinite(v) and v > 0 for v in busbw), busbw
assert busbw.idxmin() == host(want), busbw
# Every rank's env figures carry its host, node and local rank: four hosts of four ranks.
ranks = df[df.metric == "smoke_allreduce_time"]
assert ranks.groupby("host")["rank"].nunique().to_dict() == {host(n): 4 for n in range(4)}, ranks
assert set(ranks.local_rank) == {0, 1, 2, 3} and df.run_id.nunique() == 1, ranks
checks = pd.read_csv(sys.argv[3])
slow = checks[checks.id == "slow-node"]
assert list(slow.host) == [host(want)] and slow["rank"].isna().all(), slow  # one row: every rank of the node
assert (checks.run_id == df.run_id[0]).all() and checks.message.str.len().gt(0).all(), checks
# Every check's category and fix come from the check table: a slow node is a speed finding.
assert list(slow.category) == ["speed"] and slow.fix.str.contains("drain").all(), slow
assert set(checks.category) <= {"speed", "health", "correctness", "config"}, checks.category
assert checks.fix.str.len().gt(0).all(), checks
PY
else
  for i in 1 2; do
    run "$i"
    check "$i"
  done
fi
echo "isolate_nodes $*: ok"
