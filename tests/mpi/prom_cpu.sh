#!/usr/bin/env bash
# --prom FILE and --prom-dir DIR from a CPU run: 4 ranks as 2 emulated nodes of 2 run `burn`; the file
# is the Prometheus text format (one HELP and TYPE per metric, samples per GPU labelled as
# dcgm-exporter labels its GPUs, in base units), the folder holds one file per node, `gpuscale report
# RUN.json --prom` rewrites it alike, and an unwritable path is a one-line usage error. Then the real
# tools (Debian's prometheus and prometheus-node-exporter; exit 77, skipped, where one is absent):
# `promtool check metrics` on these files and on every saved run's, `promtool test rules` on the alert
# rules and PromQL join of docs/REPORT.md, and node-exporter serving both nodes' files from one folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=$(mktemp -d)
exporter_pid=
cleanup() {
  [ -z "$exporter_pid" ] || kill "$exporter_pid" 2>/dev/null || true
  rm -rf "$out"
}
trap cleanup EXIT
mkdir "$out/nodes"
"$MPIEXEC" -n 4 -x GPUSCALE_TEST_RANKS_PER_NODE=2 "$GPUSCALE" burn --device cpu --burn-s 0.5 --quiet \
  --json "$out/run.json" --prom "$out/run.prom" --prom-dir "$out/nodes" >"$out/console.txt"
python3 - "$out/run.prom" "$out/run.json" "$out/nodes" <<'PY'
import json, os, re, sys
run = json.load(open(sys.argv[2]))

def parse(path):
    """family -> [(labels dict, value)], asserting one HELP and TYPE per family before its samples."""
    helps, types, samples = {}, {}, {}
    family = None
    for line in open(path).read().splitlines():
        m = re.match(r"# (HELP|TYPE) (\w+) (.*)$", line)
        if m:
            seen = helps if m[1] == "HELP" else types
            seen[m[2]] = seen.get(m[2], 0) + 1
            if m[1] == "TYPE":
                assert m[3] == "gauge", line
                assert m[2] not in samples, "a family opened twice: " + line
                family = m[2]
                samples[family] = []
            continue
        m = re.match(r'(\w+)(?:\{([^}]*)\})? (\S+)$', line)
        assert m and m[1] == family, "not a sample of the open family: " + line
        labels = dict(re.findall(r'(\w+)="([^"]*)"', m[2] or ""))
        samples[family].append((labels, float(m[3])))
    assert helps == types and set(types.values()) == {1}, (helps, types)
    return samples

# Emulated nodes share the machine's host name: each is named HOST/nNODE, so every GPU's labels differ.
nodes_of = {}
for e in run["ranks"]:
    nodes_of.setdefault(e["host"], set()).add(e["node"])
name = lambda e: "%s/n%d" % (e["host"], e["node"]) if len(nodes_of[e["host"]]) > 1 else e["host"]
assert len({name(e) for e in run["ranks"]}) == 2, run["ranks"]
by_rank = {r["rank"]: r["sustained_tflops"] for r in run["burn"]}

def check_burn(samples, ranks):
    burn = samples["gpuscale_burn_sustained_flops"]
    assert len(burn) == len(ranks), burn
    for e in ranks:
        want = {"Hostname": name(e), "gpu": "", "UUID": "", "gpu_model": "", "rank": str(e["rank"]),
                "local_rank": str(e["local_rank"]), "precision": run["burn"][0]["precision"]}
        got = [v for l, v in burn if l == want]
        assert len(got) == 1 and got[0] > 0, (want, burn)
        assert abs(got[0] - by_rank[e["rank"]] * 1e12) <= 1e-9 * got[0], (got, by_rank)

whole = parse(sys.argv[1])
host0 = name(run["ranks"][0])
assert whole["gpuscale_verdict_passed"] == [({"Hostname": host0}, 1.0 if run["verdict"]["passed"] else 0.0)], whole
assert whole["gpuscale_run_complete"] == [({"Hostname": host0}, 1.0)], whole
assert whole["gpuscale_build_info"] == [({"Hostname": host0, "version": run["tool_version"],
                                          "schema_version": str(run["schema_version"])}, 1.0)], whole
assert whole["gpuscale_run_start_timestamp_seconds"][0][1] > 1.7e9, whole
check_burn(whole, run["ranks"])
# A 0/1 series per check that ran: 0 for each check the run raised at warning or error, 1 for the rest;
# env's and burn's checks ran, train's did not.
raised = {c["id"] for c in run["checks"] if c["severity"] in ("warning", "error")}
passed = {l["id"]: v for l, v in whole["gpuscale_check_passed"]}
assert len(passed) == len(whole["gpuscale_check_passed"]), "a check twice"
assert {"ecc-uncorrected", "gpu-wrong-result"} <= set(passed) and raised <= set(passed), (raised, passed)
assert not any(i.startswith("train-") for i in passed), passed
assert all(v == (0.0 if i in raised else 1.0) for i, v in passed.items()), (raised, passed)
# One file per node: its own GPUs, and the job's series under its own Hostname.
files = sorted(os.listdir(sys.argv[3]))
assert len(files) == 2 and all(re.fullmatch(r"gpuscale-[\w.-]+\.prom", f) for f in files), files
for f in files:
    samples = parse(os.path.join(sys.argv[3], f))
    host = samples["gpuscale_verdict_passed"][0][0]["Hostname"]
    assert f == "gpuscale-" + re.sub(r"[^\w.-]", "_", host) + ".prom", (f, host)
    check_burn(samples, [e for e in run["ranks"] if name(e) == host])
    hosts = {l.get("Hostname") for family in samples.values() for l, v in family}
    assert hosts == {host}, (f, hosts)
PY
[ -z "$(find "$out" -name '.gpuscale-*')" ] || { ls -la "$out"; echo "prom_cpu: a temp file was left"; exit 1; }
"$GPUSCALE" report "$out/run.json" --prom "$out/again.prom" >/dev/null || [ $? -eq 1 ]
cmp "$out/run.prom" "$out/again.prom" || { diff "$out/run.prom" "$out/again.prom"; exit 1; }
rc=0
"$GPUSCALE" report "$out/run.json" --prom "$out/missing/dir/x.prom" >"$out/usage.txt" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$out/usage.txt")" -eq 1 ] && grep -q "missing/dir/x.prom" "$out/usage.txt" \
  || { echo "prom_cpu: want one usage line and exit 2, got $rc:"; cat "$out/usage.txt"; exit 1; }
# A --prom-dir that is not a folder is a one-line usage error before any work.
rc=0
"$GPUSCALE" report "$out/run.json" --prom-dir "$out/run.json" >"$out/usage.txt" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$out/usage.txt")" -eq 1 ] && grep -q "not an existing folder" "$out/usage.txt" \
  || { echo "prom_cpu: --prom-dir on a file: want one usage line and exit 2, got $rc:"; cat "$out/usage.txt"; exit 1; }

# The real tools, where installed (launch/install-deps.sh --tests installs them).
promtool=$(command -v promtool) || { echo "prom_cpu: promtool is absent (Debian prometheus): skipped"; exit 77; }
exporter=$(command -v prometheus-node-exporter || command -v node_exporter) \
  || { echo "prom_cpu: prometheus-node-exporter is absent: skipped"; exit 77; }
lint() {
  "$promtool" check metrics <"$1" >"$out/lint.txt" 2>&1 || { echo "prom_cpu: promtool check metrics $1:"; cat "$out/lint.txt"; exit 1; }
}
for f in "$out/run.prom" "$out"/nodes/*.prom; do lint "$f"; done
with_gpus=0
# Every saved run of the tests, rewritten by `gpuscale report`: the whole-job file and each node's.
for saved in "$src"/tests/expect/runs/*.json.gz; do
  gunzip -c "$saved" >"$out/saved.json"
  rm -rf "$out/saved" && mkdir "$out/saved"
  "$GPUSCALE" report "$out/saved.json" --prom "$out/saved.prom" --prom-dir "$out/saved" >/dev/null 2>&1 || [ $? -eq 1 ] \
    || { echo "prom_cpu: gpuscale report $saved failed"; exit 1; }
  for f in "$out/saved.prom" "$out"/saved/*.prom; do lint "$f"; done
  grep -q '^gpuscale_compute_best_flops{' "$out/saved.prom" && with_gpus=$((with_gpus + 1))
done
[ "$with_gpus" -gt 0 ] || { echo "prom_cpu: no saved run gave a per-GPU series"; exit 1; }
"$promtool" check rules "$src/docs/prometheus/gpuscale-alerts.yml" >"$out/rules.txt" 2>&1 \
  && "$promtool" test rules "$src/docs/prometheus/gpuscale-alerts.test.yml" >>"$out/rules.txt" 2>&1 \
  || { echo "prom_cpu: promtool rules:"; cat "$out/rules.txt"; exit 1; }

# node-exporter's textfile collector (and nothing else) on the folder of both nodes' files.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$exporter" --collector.disable-defaults --collector.textfile --collector.textfile.directory="$out/nodes" \
  --web.listen-address="127.0.0.1:$port" >"$out/exporter.log" 2>&1 &
exporter_pid=$!
python3 - "$port" "$out/run.json" <<'PY' || { echo "prom_cpu: node-exporter:"; cat "$out/exporter.log"; exit 1; }
import json, re, sys, time, urllib.request
run = json.load(open(sys.argv[2]))
text = None
for _ in range(100):
    try:
        text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=5).read().decode()
        break
    except OSError:
        time.sleep(0.1)
assert text is not None, "node-exporter did not answer"
assert re.search(r"^node_textfile_scrape_error 0$", text, re.M), [l for l in text.splitlines() if "textfile" in l]
hosts = set(re.findall(r'^gpuscale_verdict_passed\{Hostname="([^"]*)"', text, re.M))
assert len(hosts) == 2, hosts
burn = re.findall(r'^gpuscale_burn_sustained_flops\{Hostname="([^"]*)"', text, re.M)
assert sorted(set(burn)) == sorted(hosts) and len(burn) == len(run["ranks"]), burn
PY
echo "prom_cpu: ok"
