#!/usr/bin/env bash
# Builds gpuscale on a GPU machine (device runs): Release, all cores, logs under $OUT. TARGETS (default all):
# the targets to build, e.g. "gpuscale" for steps that run nothing else (saves the tests' compile time).
# Prints where CUDA, NCCL and cuDNN were found; on a configure failure, where their headers are.
set -uo pipefail
OUT=${OUT:-/tmp/gpuscale-out}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
if ! cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.log" 2>&1; then
  tail -30 "$OUT/configure.log"
  find / -xdev \( -name nccl.h -o -name cudnn.h -o -name nvml.h -o -name 'libnccl.so*' \) 2>/dev/null | head -20
  exit 1
fi
grep -E "gpuscale|NCCL|CUDNN|CUDA" "$OUT/configure.log" | tail -6
if ! cmake --build build -j "$(nproc)" --target ${TARGETS:-all} >"$OUT/build.log" 2>&1; then
  grep -E "error|Error" "$OUT/build.log" | head -40
  exit 1
fi
echo "build ok"
