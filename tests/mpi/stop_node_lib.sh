# Sourced by the tests that slow an emulated node from outside (isolate_stopped.sh,
# isolate_duty_cycle.sh): a scratch folder, the launch's PID, the ranks kept stopped, a cleanup that
# never leaves a rank stopped, and the PIDs of one emulated node's ranks.
# Set mpi_pid to the launcher's PID once it runs, and stopped to the PIDs the test stops.
out=$(mktemp -d)
mpi_pid=""
stopped=()
cleanup() {  # never leave a rank stopped, whatever ended the script
  [ "${#stopped[@]}" -eq 0 ] || kill -CONT "${stopped[@]}" 2>/dev/null || true
  [ -z "$mpi_pid" ] || kill "$mpi_pid" 2>/dev/null || true
  rm -rf "$out"
}
trap cleanup EXIT

descendants() {  # every process under PID
  local child
  for child in $(pgrep -P "$1"); do
    echo "$child"
    descendants "$child"
  done
}

# node_pids NODE RANKS_PER_NODE: the PIDs of this launch's ranks NODE*K .. NODE*K+K-1, read from each
# rank's own environment.
node_pids() {
  local pid rank
  for pid in $(descendants "$mpi_pid"); do
    rank=$({ tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p') || true
    [ -n "$rank" ] && [ $((rank / $2)) -eq "$1" ] && grep -q gpuscale "/proc/$pid/comm" 2>/dev/null && echo "$pid"
  done
  return 0
}
