#!/usr/bin/env bash
# Every command over 2 and 4 ranks where the GPUs are fewer: the ranks run on emulated nodes that share
# the GPUs (GPUSCALE_TEST_SHARE_GPU; one GPU a rank where there are enough). Each run must complete every
# phase, pass its verdict (speed is not judged on shared GPUs, correctness is: wrong elements, reference
# and gradient checks) and state the layout once.
#   shared_gpu.sh commands   links, compute, burn and --quick over 2 ranks, then links, compute, burn over 4
#   shared_gpu.sh default    the default run (every phase) over 4 ranks
set -euo pipefail
source "$(dirname "$0")/gpus.sh"
out=$(results_dir)/shared_gpu
mkdir -p "$out"
run() {  # NAME NP PHASES ARGS...: gpuscale ARGS on NP ranks; PHASES: those that must have completed
  local name=$1 np=$2 phases=$3; shift 3
  launch_ranks "$np"
  local started=$SECONDS
  "${mpi[@]}" "$GPUSCALE" "$@" --json "$out/$name.json" >"$out/$name.txt" 2>"$out/$name.err" ||
    { tail -30 "$out/$name.txt" "$out/$name.err"; echo "FAIL: $name exited $?"; exit 1; }
  python3 - "$out/$name.json" "$out/$name.txt" "$shared_gpus" "$phases" "$name" "$((SECONDS - started))" <<'PY'
import json, sys
d, console = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
shared, phases, name, took = sys.argv[3] == "1", sys.argv[4].split(","), sys.argv[5], sys.argv[6]
assert d["phases_completed"] == phases, (name, d["phases_completed"])
if shared:
    assert d["world"]["emulated"]["shared_gpu"], d["world"]
    assert console.count("Test layout:") == 1, (name, console.count("Test layout:"))
errors = [c for c in d["checks"] if c["severity"] == "error"]
assert not errors, (name, errors)
wrong = [r for r in d["verdict"]["rules"] if r["name"] == "no wrong elements" and r["result"] != "PASS"]
assert not wrong, wrong
train = d.get("train") or {}
assert all(c["passed"] for c in train.get("checks", [])), train.get("checks")
assert d["verdict"]["passed"], (name, d["verdict"]["reasons"])
checks = sum(len(r.get("checks", [])) for r in d.get("compute", []))
print(f"{name}: {d['world']['size']} ranks on {d['world']['nodes']} nodes, phases {','.join(phases)}, "
      f"{len(train.get('checks', []))} gradient checks, verdict {d['verdict'].get('result', 'PASS')}, {took} s")
PY
}
case ${1:-commands} in
  commands)
    for np in 2 4; do
      run "links_$np" "$np" env,links links --sizes 64M
      run "compute_$np" "$np" env,compute compute --precision bf16 --iters 5 --warmup 2
      run "burn_$np" "$np" env,burn burn --burn-s 3
    done
    run quick_2 2 env,links,compute,burn,collectives,train --quick ;;
  default)
    run default_4 4 env,links,compute,burn,collectives,train ;;
  *) echo "usage: shared_gpu.sh commands|default"; exit 2 ;;
esac
