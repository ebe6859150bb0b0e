# Sourced by GPU test scripts (source "$(dirname "$0")/gpus.sh"). `visible_gpus` prints how many
# GPUs nvidia-smi lists (0 without it); `need_gpus N` exits 77 (ctest: skipped) with one line saying
# why when fewer than N are visible, so a one-GPU machine skips what needs two rather than failing it.
visible_gpus() {
  nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true
}
need_gpus() {
  local have
  have=$(visible_gpus)
  if [ "$have" -lt "$1" ]; then
    echo "SKIP: needs $1 GPUs, $have visible"
    exit 77
  fi
}
# `results_dir` prints where a test keeps its logs and JSON: $OUT when set (made if missing), else a
# temp folder of its own.
results_dir() {
  local dir=${OUT:-$(mktemp -d)}
  mkdir -p "$dir"
  echo "$dir"
}
