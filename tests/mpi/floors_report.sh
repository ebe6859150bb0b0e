#!/usr/bin/env bash
# Floors per GPU model, judged without a baseline by `gpuscale report`: a saved one-rank run (links and
# burn on the CPU backend) relabelled as a healthy H200 at its power cap passes with its floors recorded;
# the same run with its burn, pinned copy or device copy edited under the model's floor fails (exit 1)
# with the matching check at error level in the JSON; a model the table does not know says it has no floor.
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$MPIEXEC" -n 1 "$GPUSCALE" links --device cpu --sizes 1M --hbm-size 16M --quiet --json "$out/links.json" >/dev/null \
  || fail "the links run failed"
"$MPIEXEC" -n 1 "$GPUSCALE" burn --device cpu --burn-s 0.5 --quiet --json "$out/burn.json" >/dev/null \
  || fail "the burn run failed"
python3 - "$out" <<'PY' || fail "could not make the edited runs"
import copy, json, sys
out = sys.argv[1]
run = json.load(open(out + "/links.json"))
run["burn"] = json.load(open(out + "/burn.json"))["burn"]
def as_h200(run, gpu="NVIDIA H200", tflops=674.0, h2d=55.2, d2h=55.3, hbm=4270.0):
    r = copy.deepcopy(run)
    b = r["burn"][0]
    b.update(gpu=gpu, precision="bf16", sustained_tflops=tflops)
    l = r["links"][0]
    l["gpu"] = gpu
    l["pcie"].update(gen=5, width=16, gen_max=5, width_max=16)
    # Every timed copy at the figure's rate: the floors are held to the fastest of them.
    for c in l["copies"]:
        if c["memory"] == "pinned":
            c["gbps"] = h2d if c["direction"] == "h2d" else d2h
            c["samples_s"] = [c["bytes"] / c["gbps"] / 1e9] * len(c["samples_s"])
    for h in l["hbm"]:
        h["gbps"] = hbm
        h["samples_s"] = [h["bytes_moved"] / hbm / 1e9] * len(h["samples_s"])
    return r
edits = {"healthy": as_h200(run), "burn": as_h200(run, tflops=372.0), "h2d": as_h200(run, d2h=30.0),
         "hbm": as_h200(run, hbm=3000.0), "unknown": as_h200(run, gpu="NVIDIA GeForce RTX 4090")}
edits["unknown"]["links"][0]["pcie"] = {"gen": None, "width": None, "gen_max": None, "width_max": None, "samples": 0}
for name, r in edits.items():
    json.dump(r, open(out + "/" + name + ".json", "w"))
PY

judge() {  # NAME WANT_RC: report NAME.json, wants exit WANT_RC, leaves the re-judged run in NAME.out.json
  "$GPUSCALE" report "$out/$1.json" --json "$out/$1.out.json" >"$out/$1.txt" 2>&1
  local rc=$?
  [ "$rc" -eq "$2" ] || { cat "$out/$1.txt"; fail "report of the $1 run exited $rc, wanted $2"; }
}
judge healthy 0
judge burn 1
judge h2d 1
judge hbm 1
judge unknown 0
python3 - "$out" <<'PY' || fail "the re-judged runs are not as expected"
import json, sys
out = sys.argv[1]
def checks(name, severity):
    d = json.load(open(out + "/" + name + ".out.json"))
    return d, sorted(c["id"] for c in d["checks"] if c["severity"] == severity)
d, errors = checks("healthy", "error")
assert errors == [], errors
assert abs(d["burn"][0]["floor_tflops"] - 0.56 * 989.4) < 0.01, d["burn"][0]["floor_tflops"]
assert abs(d["links"][0]["h2d_floor_gbps"] - 0.70 * 63.008) < 0.01, d["links"][0]
assert abs(d["links"][0]["hbm_floor_gbps"] - 3600) < 0.01, d["links"][0]
for name, want in (("burn", "gpu-slow-sustained"), ("h2d", "h2d-slow"), ("hbm", "hbm-slow")):
    d, errors = checks(name, "error")
    assert errors == [want], (name, errors)
    assert not d["verdict"]["passed"], name
d, infos = checks("unknown", "info")
assert "gpu-floor-unknown" in infos, infos
assert d["burn"][0]["floor_tflops"] is None
PY
# The console's check line (cut at 160 characters, the rest in the files) names the check; the JSON's
# message names the floor.
grep -q "^  error  gpu-slow-sustained " "$out/burn.txt" || fail "the console does not name the check: $(cat "$out/burn.txt")"
python3 - "$out/burn.out.json" <<'PY' || fail "the JSON's message does not name the floor"
import json, sys
m = [c["message"] for c in json.load(open(sys.argv[1]))["checks"] if c["id"] == "gpu-slow-sustained"]
assert m and "under the model's floor of 554.1 TFLOP/s" in m[0], m
PY
echo "floors judged by report: ok"
