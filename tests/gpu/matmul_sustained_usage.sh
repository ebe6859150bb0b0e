#!/usr/bin/env bash
# bench/matmul_sustained: bad arguments are one line and exit 2, before any CUDA call (no GPU needed).
set -euo pipefail
bin=$1
for bad in "--n 0" "--n 12x" "--calls abc" "--settle-ms -1" "--space -1" "--space-s 0" "--precision fp8" "--bogus 1" "--n"; do
  set +e
  # shellcheck disable=SC2086
  text=$("$bin" $bad 2>&1)
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { echo "FAIL: '$bad' exited $rc, wanted 2: $text"; exit 1; }
  [ "$(grep -c '^matmul_sustained: ' <<<"$text")" -eq 1 ] || { echo "FAIL: '$bad': not one line: $text"; exit 1; }
done
echo "matmul_sustained usage: ok"
