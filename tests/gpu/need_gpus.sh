# Sourced by GPU test scripts: `need_gpus N` exits 77 (ctest: skipped) with one line saying why when
# fewer than N GPUs are visible, so a one-GPU machine skips what needs two rather than failing it.
need_gpus() {
  local have
  have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)  # no nvidia-smi: 0
  if [ "$have" -lt "$1" ]; then
    echo "SKIP: needs $1 GPUs, $have visible"
    exit 77
  fi
}
