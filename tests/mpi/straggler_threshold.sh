#!/usr/bin/env bash
# One straggler threshold, a judge input of the common options: a CPU compute run on 2 ranks records the
# default (0.1); that run, relabelled as GPUs' with one rank at half speed, is re-judged by `gpuscale
# report` with another threshold both ways (at 0.2 a compute-straggler and "no stragglers" WARN, at 0.5
# neither, the report's JSON keeping the threshold it judged with); collectives, which had no such
# option, records it; compare refuses it in one line with exit 2.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$MPIEXEC" -n 2 "$GPUSCALE" compute --device cpu --quiet --json "$out/run.json" >"$out/run.txt"
python3 - "$out/run.json" "$out/gpu.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["straggler_threshold"] == 0.1, d["straggler_threshold"]
# The CPU backend is never judged for stragglers: the records are relabelled as a GPU's, and rank 1's
# times set to twice rank 0's, as a GPU at half its peer's speed would show.
key = lambda r: (r["layer"], r["shape"], r["precision"], r["pass"])
rank0 = {key(r): r for r in d["compute"] if r["rank"] == 0}
for r in d["compute"]:
    r["gpu"] = "NVIDIA H200"
    if r["rank"] == 1:
        r["time_s"] = {k: v * 2 if isinstance(v, float) else v for k, v in rank0[key(r)]["time_s"].items()}
json.dump(d, open(sys.argv[2], "w"))
PY
judged() {  # THRESHOLD: "RULE_RESULT STRAGGLER_CHECKS THRESHOLD" of report's judgement at THRESHOLD
  "$GPUSCALE" report "$out/gpu.json" --straggler-threshold "$1" --json "$out/at-$1.json" >/dev/null || true
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
print(*[r['result'] for r in d['verdict']['rules'] if r['name'] == 'no stragglers'], \
len([c for c in d['checks'] if c['id'] == 'compute-straggler']), d['straggler_threshold'])" "$out/at-$1.json"
}
tight=$(judged 0.2) loose=$(judged 0.5)
# Of 2 ranks the median is their mean: rank 1 lies a third above it (2 / 1.5).
[ "$tight" = "WARN 1 0.2" ] || { echo "straggler_threshold: report at 0.2 gave '$tight', wanted 'WARN 1 0.2'"; exit 1; }
[ "$loose" = "PASS 0 0.5" ] || { echo "straggler_threshold: report at 0.5 gave '$loose', wanted 'PASS 0 0.5'"; exit 1; }
"$MPIEXEC" -n 2 "$GPUSCALE" collectives --device cpu --quiet -b 1K -e 4K -n 2 -w 1 --straggler-threshold 0.3 \
  --json "$out/coll.json" >/dev/null
python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['straggler_threshold']; assert t == 0.3, t" "$out/coll.json"
rc=0
"$GPUSCALE" compare "$out/run.json" "$out/run.json" --straggler-threshold 0.2 >"$out/usage.txt" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$out/usage.txt")" -eq 1 ] && grep -q "does not apply here" "$out/usage.txt" \
  || { echo "straggler_threshold: compare: want one usage line and exit 2, got $rc:"; cat "$out/usage.txt"; exit 1; }
echo "straggler_threshold: ok (report at 0.2: $tight; at 0.5: $loose)"
