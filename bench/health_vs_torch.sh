#!/usr/bin/env bash
# Usage: GPUSCALE=build/launch/gpuscale OUT=/tmp/health bench/health_vs_torch.sh   (one GPU, ~5 min)
# Node-health figures against PyTorch on the first visible GPU, in one run:
#  (a) a second process (a torch bf16 matmul loop) computes on the GPU: `gpuscale env` (exit code
#      recorded: 1 expected once the tenancy check exists) and `gpuscale burn --burn-s 10`;
#  (b) `gpuscale burn --burn-s 30` then torch's bf16 matmul 8192 loop timed the same way (work over
#      wall time after the first second);
#  (c) torch's pinned H2D / D2H (1 GiB) and device copy (4 GiB), for gpuscale's host-link figures;
#  (d) `mpirun -np 2 gpuscale --quick` on the one GPU (expect exit 1, FAIL, no NCCL error), then the
#      default run and --quick timed against their 60 s / 15 s budgets.
# Logs under $OUT; a short table last.
set -uo pipefail
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe -x CUDA_VISIBLE_DEVICES -x NCCL_NVLS_ENABLE=0)
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@" 2>/dev/null || echo -; }
timed() {  # log file, then the command; prints its wall seconds
  local log=$1 t0; shift
  t0=$(date +%s.%N)
  "$@" >"$log" 2>&1
  python3 -c "import sys; print(round($(date +%s.%N) - $t0, 1))"
}

# (a) a second process on the GPU.
python3 "$here/health_torch.py" load >"$out/a_load.txt" 2>&1 &
load=$!
sleep 8
"$GPUSCALE" env --json "$out/a_env.json" >"$out/a_env.txt" 2>&1; a_env_rc=$?
"$GPUSCALE" burn --burn-s 10 --json "$out/a_burn.json" >"$out/a_burn.txt" 2>&1; a_burn_rc=$?
kill "$load"; wait "$load" 2>/dev/null
sleep 5

# (b) burn against torch's loop.
"$GPUSCALE" burn --burn-s 30 --json "$out/b_burn.json" >"$out/b_burn.txt" 2>&1; b_burn_rc=$?
python3 "$here/health_torch.py" matmul 30 >"$out/b_torch.json" 2>"$out/b_torch.err"

# (c) host links and device memory: gpuscale links, then torch's side timed the same way.
"$GPUSCALE" links --sizes 64M,1G --hbm-size 4G --repeats 10 --json "$out/c_links.json" >"$out/c_links.txt" 2>&1
python3 "$here/health_torch.py" copies >"$out/c_torch.json" 2>"$out/c_torch.err"

# (d) two ranks on one GPU, then the budgets.
"${mpirun[@]}" -np 2 "$GPUSCALE" --quick --json "$out/d_two.json" >"$out/d_two.txt" 2>&1; d_two_rc=$?
d_nccl=$(grep -c "NCCL error\|ncclCommInitRank" "$out/d_two.txt")
d_default_s=$(timed "$out/d_default.txt" "${mpirun[@]}" -np 1 "$GPUSCALE" --json "$out/d_default.json")
d_quick_s=$(timed "$out/d_quick.txt" "${mpirun[@]}" -np 1 "$GPUSCALE" --quick --json "$out/d_quick.json")

sed -n '/^== Burn:/,/^== Checks/p' "$out/b_burn.txt"
echo
printf '%-48s %s\n' "item" "figure"
printf '%-48s %s\n' "(a) gpuscale env exit, second process running" "$a_env_rc (checks: $(field "$out/a_env.json" "', '.join(c['id'] for c in d['checks'])"))"
printf '%-48s %s\n' "(a) burn 10 s sustained TFLOP/s, shared GPU" "$(field "$out/a_burn.json" "round(d['burn'][0]['sustained_tflops'],1)") (exit $a_burn_rc)"
printf '%-48s %s\n' "(b) burn 30 s sustained TFLOP/s" "$(field "$out/b_burn.json" "round(d['burn'][0]['sustained_tflops'],1)") (exit $b_burn_rc)"
printf '%-48s %s\n' "(b) torch loop 30 s sustained TFLOP/s" "$(field "$out/b_torch.json" "round(d['sustained_tflops'],1)")"
printf '%-48s %s\n' "(b) gpuscale / torch" "$(python3 -c "import json; g=json.load(open('$out/b_burn.json'))['burn'][0]['sustained_tflops']; t=json.load(open('$out/b_torch.json'))['sustained_tflops']; print(round(g/t,3))" 2>/dev/null || echo -)"
printf '%-48s %s\n' "(b) clock p50 MHz, power p50 W, peak C, throttle" "$(field "$out/b_burn.json" "(lambda r: (r['clock_p50_mhz'], r['power_p50_w'], r['peak_temperature_c'], {k: round(v,2) for k,v in r['throttle_share'].items() if v}))(d['burn'][0])")"
printf '%-48s %s\n' "(c) torch pinned H2D / D2H GB/s, 1 GiB" "$(field "$out/c_torch.json" "(round(d['h2d_pinned_gbps'],1), round(d['d2h_pinned_gbps'],1))")"
printf '%-48s %s\n' "(c) torch device copy GB/s (read+write), 4 GiB" "$(field "$out/c_torch.json" "round(d['d2d_gbps'])")"
printf '%-48s %s\n' "(c) torch pinned H2D / D2H GB/s, 64 MiB" "$(field "$out/c_torch.json" "(round(d['h2d_pinned_64m_gbps'],1), round(d['d2h_pinned_64m_gbps'],1))")"
links_fig() {  # direction, bytes: gpuscale's solo pinned figure
  field "$out/c_links.json" "round([c['gbps'] for c in d['links'][0]['copies'] if (c['direction'], c['memory'], c['mode'], c['bytes']) == ('$1', 'pinned', 'solo', $2)][0], 1)"
}
printf '%-48s %s\n' "(c) gpuscale pinned H2D / D2H GB/s, 64 MiB" "($(links_fig h2d 67108864), $(links_fig d2h 67108864))"
printf '%-48s %s\n' "(c) gpuscale pinned H2D / D2H GB/s, 1 GiB" "($(links_fig h2d 1073741824), $(links_fig d2h 1073741824))"
printf '%-48s %s\n' "(c) gpuscale device copy / triad GB/s, 4 GiB" "$(field "$out/c_links.json" "[round(h['gbps']) for h in d['links'][0]['hbm']]")"
printf '%-48s %s\n' "(c) gpuscale PCIe under load / max" "$(field "$out/c_links.json" "(lambda p: (p['gen'], p['width'], p['gen_max'], p['width_max']))(d['links'][0]['pcie'])")"
printf '%-48s %s\n' "(d) mpirun -np 2 --quick on one GPU: exit, verdict" "$d_two_rc, $(field "$out/d_two.json" "'PASS' if d['verdict']['passed'] else 'FAIL'"), NCCL error lines $d_nccl"
printf '%-48s %s\n' "(d) default run s (budget 60)" "$d_default_s"
printf '%-48s %s\n' "(d) --quick s (budget 15)" "$d_quick_s"
