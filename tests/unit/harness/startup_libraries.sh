#!/usr/bin/env bash
# The executable opens no cuBLAS library when it starts (harness/CublasLibrary.hpp): `gpuscale
# --version` under the dynamic loader's trace (LD_DEBUG=files) names every library it opens, and none
# may be libcublas or libcublasLt. Linked again, they cost every process 0.28 s and 150 MB before main.
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
LD_DEBUG=files "$GPUSCALE" --version >"$out/stdout" 2>"$out/trace"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: gpuscale --version exited $rc"; cat "$out/trace" | tail -5; exit 1; }
grep -q "file=" "$out/trace" || { echo "FAIL: the loader traced nothing (LD_DEBUG unsupported?)"; exit 1; }
grep -q "libcudart" "$out/trace" || { echo "FAIL: no libcudart in the trace: not a CUDA build?"; exit 1; }
if grep -E "file=[^ ]*libcublas" "$out/trace" | head -3 | grep .; then
  echo "FAIL: gpuscale opens cuBLAS at start"
  exit 1
fi
echo "startup_libraries: $(grep -c "generating link map" "$out/trace") libraries opened at start, no cuBLAS"
