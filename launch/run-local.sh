#!/usr/bin/env bash
# Runs gpuscale on every local GPU, one rank each (or one rank on the CPU backend, with a warning,
# where no GPU is visible). Extra arguments go to gpuscale: launch/run-local.sh env --json env.json
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${GPUSCALE_BINARY:-$here/build/launch/gpuscale}
gpus=0
if command -v nvidia-smi >/dev/null 2>&1; then gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true); fi
ranks=$(( gpus > 0 ? gpus : 1 ))
flags=()
[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
# NVLink SHARP (multicast) stays off unless the caller chose otherwise.
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
exec mpirun "${flags[@]}" -np "$ranks" -x NCCL_NVLS_ENABLE "$binary" "$@"
