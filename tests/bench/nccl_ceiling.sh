#!/usr/bin/env bash
# The bench binary nccl_ceiling (bench/nccl_ceiling.cpp: NCCL's allreduce with no harness).
#   nccl_ceiling.sh BINARY usage: bad arguments are one line and exit 2 on every rank (no GPU needed)
#   nccl_ceiling.sh BINARY run:   a short sweep on every visible GPU writes a consistent table and JSON
set -euo pipefail
ceiling=$1 mode=$2
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

if [ "$mode" = usage ]; then
  for bad in "-f 1" "-b 1K -e 8" "-n 0" "-b 8X" "--bogus 1" "-e" "--op alltoall" "--cta-policy none"; do
    set +e
    # shellcheck disable=SC2086
    "$MPIEXEC" -n 2 "$ceiling" $bad >"$out/usage.txt" 2>&1
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || { cat "$out/usage.txt"; fail "'$bad' exited $rc, wanted 2"; }
    [ "$(grep -c '^nccl_ceiling: ' "$out/usage.txt")" -eq 1 ] || { cat "$out/usage.txt"; fail "'$bad': not one line"; }
  done
  echo "nccl_ceiling usage: ok"
  exit 0
fi

here=$(cd "$(dirname "$0")" && pwd)
source "$here/../gpu/gpus.sh"
n=$(visible_gpus)
"$MPIEXEC" -n "$n" -x NCCL_NVLS_ENABLE=0 "$ceiling" -b 8 -e 64M -f 8 -n 10 -w 2 --json "$out/ceiling.json" \
  >"$out/ceiling.txt" 2>"$out/ceiling.err" || { cat "$out/ceiling.err"; fail "nccl_ceiling exited $?"; }
python3 - "$n" "$out/ceiling.json" <<'PY'
import json, sys
n, d = int(sys.argv[1]), json.load(open(sys.argv[2]))
assert d["ranks"] == n and d["iterations"] == 10 and d["nccl_version"] >= 22800, d
sizes = [r["size_bytes"] for r in d["rows"]]
assert sizes == [8 * 8**k for k in range(8)], sizes
for r in d["rows"]:
    assert r["count"] * 4 == r["size_bytes"], r
    assert 0 < r["p10_time_s"] <= r["median_time_s"] <= r["p90_time_s"], r
    assert r["batch_time_s"] > 0 and r["boundary_batch_time_s"] > 0, r
    if n > 1:
        assert r["batch_busbw_gbps"] > 0 and r["median_busbw_gbps"] > 0, r
big = d["rows"][-1]
print(f"  nccl_ceiling on {n} GPUs: {big['size_bytes']} B batch {big['batch_busbw_gbps']:.1f} GB/s, "
      f"median {big['median_busbw_gbps']:.1f} GB/s")
PY
grep -q "busbw(GB/s)" "$out/ceiling.txt" || fail "no table on stdout"
echo "nccl_ceiling run: ok"
