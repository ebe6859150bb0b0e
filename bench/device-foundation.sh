#!/usr/bin/env bash
# Foundation checks on a machine with 2+ GPUs: env on every GPU, forced duplicate GPU, -np 3.
set -uo pipefail
OUT=${OUT:-/tmp/gpuscale-out}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
G=build/launch/gpuscale
n=$(nvidia-smi -L | grep -c '^GPU')
nvidia-smi topo -m > "$OUT/topo.txt" 2>&1; cat "$OUT/topo.txt"
row() { printf '%-44s rc=%-3s %6.2fs  %s\n' "$1" "$2" "$3" "$4" | tee -a "$OUT/summary.txt"; }
run() {  # name, expected rc, command...
  local name=$1 want=$2; shift 2
  local t0 t1 rc
  t0=$(date +%s.%N); "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"; rc=$?; t1=$(date +%s.%N)
  row "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" "$([ "$rc" = "$want" ] && echo OK || echo "UNEXPECTED (wanted $want)")"
}
run env_np${n} 0 mpirun -np "$n" -x NCCL_NVLS_ENABLE $G env --json "$OUT/env.json"
run env_dup_gpu 1 mpirun -np 2 -x NCCL_NVLS_ENABLE -x CUDA_VISIBLE_DEVICES=0 $G env --json "$OUT/env_dup.json"
run env_np3 1 mpirun -np 3 --oversubscribe -x NCCL_NVLS_ENABLE $G env --json "$OUT/env_np3.json"
for f in env_np${n} env_dup_gpu env_np3; do echo "=== $f"; cat "$OUT/$f.out"; tail -5 "$OUT/$f.err"; done
(cd build && ctest -L gpu --output-on-failure > "$OUT/ctest_gpu.log" 2>&1; echo "ctest -L gpu rc=$?" | tee -a "$OUT/summary.txt")
echo; echo "=== summary"; cat "$OUT/summary.txt"
