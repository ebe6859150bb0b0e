#!/usr/bin/env bash
# What NCCL's allreduce can do beyond its defaults on this machine, at DDP bucket sizes (16 MiB ..
# 512 MiB): bench/nccl_ceiling out of place, in place (DDP's mode), in place with minCTAs 64 (from
# ncclConfig_t), with buffers registered locally (ncclCommRegister) and as symmetric windows
# (ncclCommWindowRegister), each on buffers from ncclMemAlloc. One line per variant and size last.
# SET=halves instead times an allreduce's two halves, reducescatter and allgather, on SMs and, for the
# allgather, on the copy engines (symmetric windows and NCCL_CTA_POLICY_ZERO, NCCL 2.28).
#   CEILING=build/bench/nccl_ceiling bench/nccl_probe.sh      (logs under $OUT when set)
set -uo pipefail
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
: "${CEILING:?set CEILING to the nccl_ceiling binary}"
n=$(nvidia-smi -L | grep -c '^GPU')
variant() {  # NAME CEILING_ARGS...
  local name=$1; shift
  mpirun --allow-run-as-root -np "$n" -x NCCL_NVLS_ENABLE=0 -x NCCL_DEBUG=INFO -x NCCL_DEBUG_SUBSYS=INIT,TUNING,REG \
    "$CEILING" -b ${MIN:-16M} -e ${MAX:-512M} -f 2 -n 20 -w 5 --json "$out/$name.json" "$@" >"$out/$name.txt" 2>&1 ||
    { echo "$name failed:"; grep -v ' INFO ' "$out/$name.txt" | tail -4; }
}
if [ "${SET:-allreduce}" = halves ]; then
  variant ar_in_place_ctas64 --inplace 1 --ctas 64
  variant ar_window_ctas64 --register window --ctas 64
  variant rs_ctas64 --op reducescatter --ctas 64
  variant rs_window_ctas64 --op reducescatter --register window --ctas 64
  variant ag_ctas64 --op allgather --ctas 64
  variant ag_window_ctas64 --op allgather --register window --ctas 64
  variant ag_window_zero --op allgather --register window --cta-policy zero
  variant ag_window_zero_in_place --op allgather --register window --cta-policy zero --inplace 1
  variant rs_window_zero_ctas64 --op reducescatter --register window --cta-policy zero --ctas 64
  variant ar_window_zero_ctas64 --register window --cta-policy zero --ctas 64
else
  variant out_of_place
  variant in_place --inplace 1
  variant in_place_ctas64 --inplace 1 --ctas 64
  variant in_place_local --inplace 1 --register local
  variant in_place_window --inplace 1 --register window
  variant in_place_window_ctas64 --inplace 1 --register window --ctas 64
fi
for f in "$out"/*.txt; do
  echo "== $(basename "$f" .txt): $(grep -ciE 'symmetric|window' "$f") lines on windows; \
algo/proto $(grep -oE '(Algo|algorithm) [A-Z_]+ (proto|protocol) [A-Z0-9_]+' "$f" | sort | uniq -c | sort -rn | head -3 | tr '\n' ' '); \
$(grep -ciE 'copy engine|[^a-z]ce[^a-z]|memcpybatch' "$f") lines on copy engines"
  grep -E '^ +[0-9]+ ' "$f"
done
