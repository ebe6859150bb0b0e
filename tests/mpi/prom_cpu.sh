#!/usr/bin/env bash
# --prom FILE from a CPU run: 4 ranks as 2 emulated nodes of 2 run `burn`; the file is the Prometheus
# text format (one HELP and TYPE per metric, samples per GPU labelled by host, local GPU and uuid),
# `gpuscale report RUN.json --prom` rewrites it alike, and an unwritable path is a one-line usage error.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$MPIEXEC" -n 4 -x GPUSCALE_TEST_RANKS_PER_NODE=2 "$GPUSCALE" burn --device cpu --burn-s 0.5 --quiet \
  --json "$out/run.json" --prom "$out/run.prom" >"$out/console.txt"
python3 - "$out/run.prom" "$out/run.json" <<'PY'
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
run = json.load(open(sys.argv[2]))
helps, types, samples = {}, {}, {}
family = None
for line in lines:
    m = re.match(r"# (HELP|TYPE) (\w+) (.*)$", line)
    if m:
        (helps if m[1] == "HELP" else types)[m[2]] = (helps if m[1] == "HELP" else types).get(m[2], 0) + 1
        if m[1] == "TYPE":
            assert m[3] == "gauge", line
            assert m[2] not in samples, "a family opened twice: " + line
            family = m[2]
            samples[family] = []
        continue
    m = re.match(r'(\w+)(\{[^}]*\})? (\S+)$', line)
    assert m and m[1] == family, "not a sample of the open family: " + line
    samples[family].append((m[2] or "", float(m[3])))
assert helps == types and set(types.values()) == {1}, (helps, types)
assert samples["gpuscale_verdict_passed"] == [("", 1.0 if run["verdict"]["passed"] else 0.0)], samples
burn = samples["gpuscale_burn_sustained_tflops"]
# Emulated nodes share the machine's host name: each is named HOST/nNODE, so every GPU's labels differ.
nodes_of = {}
for e in run["ranks"]:
    nodes_of.setdefault(e["host"], set()).add(e["node"])
name = lambda e: "%s/n%d" % (e["host"], e["node"]) if len(nodes_of[e["host"]]) > 1 else e["host"]
assert len({name(e) for e in run["ranks"]}) == 2, run["ranks"]
assert len(burn) == 4 and len({l for l, v in burn}) == 4, burn
by_rank = {r["rank"]: r["sustained_tflops"] for r in run["burn"]}
for e in run["ranks"]:
    l = '{host="%s",gpu="%d",uuid="",precision="%s"}' % (name(e), e["local_rank"], run["burn"][0]["precision"])
    assert dict(burn)[l] > 0 and abs(dict(burn)[l] - by_rank[e["rank"]]) <= 1e-9 * by_rank[e["rank"]], (l, burn)
PY
[ -z "$(find "$out" -name '.gpuscale-*')" ] || { ls -la "$out"; echo "prom_cpu: a temp file was left"; exit 1; }
"$GPUSCALE" report "$out/run.json" --prom "$out/again.prom" >/dev/null || [ $? -eq 1 ]
cmp "$out/run.prom" "$out/again.prom" || { diff "$out/run.prom" "$out/again.prom"; exit 1; }
rc=0
"$GPUSCALE" report "$out/run.json" --prom "$out/missing/dir/x.prom" >"$out/usage.txt" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$out/usage.txt")" -eq 1 ] && grep -q "missing/dir/x.prom" "$out/usage.txt" \
  || { echo "prom_cpu: want one usage line and exit 2, got $rc:"; cat "$out/usage.txt"; exit 1; }
echo "prom_cpu: ok"
