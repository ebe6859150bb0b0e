#!/usr/bin/env bash
# bench/slurm_hostid.sh as a test: two ranks, one GPU each, so skipped (exit 77) on a one-GPU machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/gpus.sh"
need_gpus 2
exec bash "$here/../../bench/slurm_hostid.sh"
