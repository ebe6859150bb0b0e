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
# `launch_ranks N` sets the array `mpi` to mpiexec for N ranks and `shared_gpus` to 0 or 1: one GPU a
# rank where N are visible; where fewer are (one at least), the ranks run on emulated nodes of as many
# ranks as there are GPUs, the nodes sharing them (GPUSCALE_TEST_SHARE_GPU: each node a host of its own
# for NCCL, speed not judged), so that multi-rank GPU code is tested on a one-GPU machine too.
launch_ranks() {
  local n=$1 have
  have=$(visible_gpus)
  if [ "$have" -lt 1 ]; then
    echo "SKIP: needs a GPU, none visible"
    exit 77
  fi
  mpi=("${MPIEXEC:-mpirun}" -n "$n" -x NCCL_NVLS_ENABLE=0)
  shared_gpus=0
  if [ "$have" -lt "$n" ]; then
    shared_gpus=1
    mpi+=(-x GPUSCALE_TEST_SHARE_GPU=1 -x GPUSCALE_TEST_RANKS_PER_NODE="$have")
  fi
}
# `at_least_two` prints the visible GPU count, or 2 where fewer are visible (their ranks then share).
at_least_two() {
  local have
  have=$(visible_gpus)
  echo $((have >= 2 ? have : 2))
}
# `launch_nodes N PER_NODE` sets `mpi` to mpiexec for N ranks on emulated nodes of PER_NODE ranks (no
# more than the GPUs visible), each node a host of its own for NCCL: the shared-GPU test mode, whether
# or not the nodes really share GPUs, since every node sees the same ones.
launch_nodes() {
  local n=$1 per_node=$2 have
  have=$(visible_gpus)
  if [ "$have" -lt 1 ]; then
    echo "SKIP: needs a GPU, none visible"
    exit 77
  fi
  [ "$per_node" -le "$have" ] || per_node=$have
  mpi=("${MPIEXEC:-mpirun}" -n "$n" -x NCCL_NVLS_ENABLE=0 -x GPUSCALE_TEST_SHARE_GPU=1
       -x GPUSCALE_TEST_RANKS_PER_NODE="$per_node")
}
