#!/usr/bin/env bash
# A private one-node Slurm for the slurm-labelled tests: munged, slurmctld and slurmd from Debian's
# packages, started by hand (no systemd), with every key, socket, state, log and pid file under DIR.
#
#   local_slurm.sh start DIR   # fails loudly when a package is missing or a daemon does not come up
#   local_slurm.sh stop DIR    # stops only the daemons whose pid files are in DIR
#   local_slurm.sh env DIR     # prints the variables that point Slurm's clients at this cluster
#
# The node advertises 8 CPUs (more than CI's 2 cores, so 4-task jobs never wait for CPUs) and 4
# emulated GPUs (gres backed by device nodes of /dev/null and friends: Slurm sets CUDA_VISIBLE_DEVICES as it would for real
# ones), and every job may overcommit.
set -euo pipefail
action=${1:?usage: local_slurm.sh start|stop|env DIR}
dir=${2:?usage: local_slurm.sh start|stop|env DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
conf=$dir/etc/slurm.conf
die() { echo "local_slurm: $*" >&2; exit 1; }

client_env() {
  echo "export SLURM_CONF=$conf"
}

require_packages() {
  local missing=()
  for tool in munged mungekey slurmctld slurmd srun salloc sbatch scontrol sinfo squeue scancel; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  [ -e /usr/lib/x86_64-linux-gnu/libpmix.so ] || [ -n "$(find /usr/lib* -name 'libpmix.so' -print -quit 2>/dev/null)" ] \
    || missing+=("libpmix.so (libpmix-dev)")
  [ ${#missing[@]} -eq 0 ] || die "MISSING: ${missing[*]}. Install: launch/install-deps.sh slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge libpmix-dev"
  [ "$(id -u)" -eq 0 ] || die "the private cluster runs its daemons as root (SlurmUser=root); run the slurm tests as root"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

write_config() {
  local ctld_port slurmd_port
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  [ "$ctld_port" != "$slurmd_port" ] || slurmd_port=$((ctld_port + 1))
  mkdir -p "$dir/etc" "$dir/state" "$dir/spool" "$dir/log" "$dir/run" "$dir/gpu"
  # Slurm wants character devices behind a gres: nodes of harmless memory devices (null, zero, full, urandom).
  local minors=(3 5 7 9)
  for i in 0 1 2 3; do
    rm -f "$dir/gpu/gpu$i"
    mknod -m 600 "$dir/gpu/gpu$i" c 1 "${minors[$i]}" || die "mknod failed: cannot emulate GPUs for Slurm's gres"
  done
  cat >"$conf" <<EOF
ClusterName=gpuscaletest
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
MpiDefault=pmix
ReturnToService=2
SchedulerType=sched/builtin
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
InactiveLimit=0
KillWait=5
MinJobAge=60
GresTypes=gpu
NodeName=localhost NodeAddr=127.0.0.1 CPUs=8 Gres=gpu:4 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=10 OverSubscribe=FORCE:4 State=UP
EOF
  cat >"$dir/etc/gres.conf" <<EOF
AutoDetect=off
NodeName=localhost Name=gpu File=$dir/gpu/gpu[0-3]
EOF
}

start_munge() {
  # munged checks that nobody else can write its directories; it runs as the munge user.
  mkdir -p "$dir/munge"
  chmod 755 "$dir/munge"
  mungekey --create --force --keyfile="$dir/munge/munge.key" >/dev/null
  chown -R munge:munge "$dir/munge"
  chmod 400 "$dir/munge/munge.key"
  runuser -u munge -- munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" \
    || die "munged did not start: $(tail -5 "$dir/munge/munged.log" 2>/dev/null)"
}

wait_for() {
  local what=$1 seconds=$2
  shift 2
  for _ in $(seq $((seconds * 5))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  die "$what not ready after ${seconds}s; logs in $dir/log: $(tail -5 "$dir"/log/*.log 2>/dev/null)"
}

node_idle() { sinfo -h -N -o '%t' | grep -qx 'idle'; }

start() {
  require_packages
  [ ! -e "$dir/run/slurmctld.pid" ] || stop
  write_config
  # Whatever fails from here on leaves no daemon behind.
  trap 'stop >/dev/null 2>&1' EXIT
  start_munge
  export SLURM_CONF=$conf
  slurmctld -f "$conf" || die "slurmctld did not start: $(tail -5 "$dir/log/slurmctld.log" 2>/dev/null)"
  wait_for "slurmctld" 30 bash -c "scontrol ping | grep -q UP"
  slurmd -f "$conf" -N localhost || die "slurmd did not start: $(tail -5 "$dir/log/slurmd.log" 2>/dev/null)"
  wait_for "the node" 30 node_idle
  trap - EXIT
  echo "local_slurm: up in $dir ($(sinfo -h -N -o '%N %t %c CPUs %G'))"
}

# Sends TERM to the daemon whose pid file is given, waits up to 15 s, then KILL.
stop_one() {
  local pidfile=$1 pid
  [ -s "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 75); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

stop() {
  if [ -e "$conf" ]; then
    SLURM_CONF=$conf timeout 10 scancel --full --quiet --user=root 2>/dev/null || true
  fi
  stop_one "$dir/run/slurmd.pid"
  stop_one "$dir/run/slurmctld.pid"
  stop_one "$dir/munge/munged.pid"
  echo "local_slurm: stopped the daemons of $dir"
}

case $action in
  start) start ;;
  stop) stop ;;
  env) client_env ;;
  *) die "unknown action '$action' (start, stop, env)" ;;
esac
