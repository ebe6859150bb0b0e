#!/usr/bin/env bash
# Faults on the CPU backend under mpiexec, through the test seams (GPUSCALE_TEST_FAULT/CORRUPT):
#   faults.sh stall|exit|kill9|sigterm|sigterm_mpirun|corrupt [PHASE]
#   faults.sh stall0 dp
#   faults.sh hang env|compute|collectives|train
#   faults.sh sigterm_64m|sigterm_busy|stop0|kill0|teardown
#   faults.sh kill2 collectives|gradcheck|train
# The second group strikes a real job from outside, without a seam: SIGTERM to rank 0 while a 64 MiB
# allreduce is in flight on every rank; SIGTERM to every rank while they fill buffers, work that does
# not poll; SIGSTOP and kill -9 of rank 0 in the collectives phase, which its deputy (rank 1) names.
# kill2: kill -9 of rank 2 of 4 while it runs (no seam holds it): inside a long allreduce sweep, the
# gradient checks or the DDP steps. The survivors may be stuck in work that never completes (on GPUs a
# kernel waiting for the dead rank), and the launcher kills them a second after its SIGTERM: rank 0
# must name rank 2 in that second.
# teardown: the launcher's kill sequence after a signal (SIGTERM to every rank, then SIGKILL; rank 1
# held by a seam): the processes it kills are not named dead, and the interruption stays the cause.
# PHASE (default env) is where the fault strikes, at its first timed op: env (the smoke allreduce),
# collectives (the allreduce sweep), compute (the first linear layer), train (the first DDP run), or
# init (before MPI_Init; stall only), or dp (rank 0's DP run, which the others wait for; stall0 only).
# A later phase gets its timeout alone (--timeout PHASE=S, the others keep their defaults of minutes),
# so a wait there that reads another phase's timeout, or a fixed one, ends the job too late. Each asserts mpiexec's exact exit status, the one-line messages,
# and a valid partial JSON, and prints the time from the fault to the last rank's exit (must stay under
# --timeout + 5 s; + 7 s on GPUs, where the killed processes' CUDA contexts and NCCL communicators take
# the driver longer to release: on 2 H200s with --timeout 10, a stall in train, the phase with the most
# GPU state, took 15.2 s from the fault to the last exit (timeout + the 2 s roll call + the kill), and
# the whole env and collectives stall tests 15.9 and 16.6 s with the job's start).
# hang: every rank's device work never completes from the op on (GPU events that never fire; on the CPU
# backend its timers, streams, events and communicator operations alike; no rank is left to end the job
# from a barrier), on 2 ranks with --timeout 2 for the phase: the phase's
# own timeout, not the longest of all phases, must end that wait.
# The same script runs against NCCL on GPUs with DEVICE=cuda NP=2 (tests/gpu).
set -uo pipefail
scenario=$1
phase=${2:-env}
device=${DEVICE:-cpu}
np=${NP:-3}
[ "$scenario" = kill2 ] && np=${NP:-4}
timeout_s=${FAULT_TIMEOUT_S:-5}
slack_s=$([ "$device" = cuda ] && echo 7 || echo 5)
# hang: --timeout PHASE=2 must end the job within 2 + 5 s on either backend.
if [ "$scenario" = hang ]; then np=${NP:-2} timeout_s=2 slack_s=5; fi
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
name=$scenario$([ "$phase" = env ] || echo "_$phase")
json="$out/$name.json" err="$out/$name.err"
rm -f "$json"
fail() { echo "FAIL ($name, $device): $*"; echo "--- stderr:"; cat "$err"; exit 1; }
now() { date +%s.%N; }

# The world rank of each child process of mpiexec, from its environment.
rank_pids() {
  for pid in $(pgrep -P "$1"); do
    tr '\0' '\n' </proc/"$pid"/environ 2>/dev/null | grep -q "^OMPI_COMM_WORLD_RANK=$2$" && echo "$pid"
  done
}

# The command that runs the phase, as short as it can be, and the seam's point at its first timed op.
case "$phase" in
  env|init) command=(env) point=env/smoke-allreduce op=smoke-allreduce ;;
  collectives) command=(collectives -b 8 -e 64K -n 2 -w 1 --ops allreduce --scaling-sizes none --pair-bytes 0)
    point=collectives/allreduce op=allreduce ;;
  compute) command=(compute --mnk 64,64,64 --precision fp32 --iters 2 --warmup 1 --no-check)
    point=compute/linear op=linear ;;
  train) command=(train --model mlp --precision fp32 --depth 3 --width 8 --batch 4 --iters 2 --warmup 1)
    point=train/ddp op=ddp ;;
  dp) command=(train --model mlp --precision fp32 --depth 3 --width 8 --batch 4 --iters 2 --warmup 1 --strategy dp)
    point=train/dp op=dp ;;
  gradcheck) command=(train --model mlp --precision fp32 --depth 3 --width 8 --batch 4 --iters 2 --warmup 1)
    point=train/gradient-check op=gradient-check ;;
  *) echo "unknown phase $phase"; exit 2 ;;
esac
case "$scenario" in  # a sweep long enough to be struck in flight
  sigterm_64m|stop0|kill0)
    command=(collectives -b 64M -e 64M -n 100000 -w 0 --ops allreduce --scaling-sizes none --pair-bytes 0) ;;
  sigterm_busy) command=(collectives -b 512M -e 512M -n 1 -w 0 --ops broadcast --scaling-sizes none --pair-bytes 0) ;;
  kill2)  # work that outlasts the kill: many iterations in flight, a model whose checks take a while
    case "$phase" in
      collectives) command=(collectives -b 64M -e 64M -n 100000 -w 0 --ops allreduce --scaling-sizes none --pair-bytes 0) ;;
      gradcheck|train)
        command=(train --model mlp --precision fp32 --iters 100000 --warmup 1 --strategy ddp)
        [ "$device" = cuda ] || command+=(--depth 8 --width 512 --batch 64) ;;
    esac ;;
esac
[ "$phase" = init ] && point=init
# hang in train: DDP over every rank, so that no rank is left out of the hung run (a DDP over fewer
# ranks leaves the others in a barrier whose timeout races the hung rank's own).
if [ "$scenario" = hang ] && [ "$phase" = train ]; then command+=(--gpus "$np"); fi
case "$phase" in
  env|init) timeout_arg=$timeout_s ;;
  dp|gradcheck) timeout_arg=train=$timeout_s ;;
  *) timeout_arg=$phase=$timeout_s ;;
esac

launch() {  # launch FAULT_SPEC [BOUND_S]: starts the job in the background, sets $job; a job still
  # running after BOUND_S is ended (exit 124), so a wait that overstays fails the test, not CI
  local bound=(); [ -n "${2:-}" ] && bound=(timeout -k 5 "$2")
  GPUSCALE_TEST_FAULT=$1 "${bound[@]}" "$MPIEXEC" -n "$np" -x GPUSCALE_TEST_FAULT -x NCCL_NVLS_ENABLE=0 \
    "$GPUSCALE" "${command[@]}" --device "$device" --json "$json" --timeout "$timeout_arg" --quiet \
    >/dev/null 2>"$err" &
  job=$!
}

wait_for_fault_line() {  # wait_for_fault_line [COUNT]: until COUNT ranks (default 1) announced theirs
  for _ in $(seq 1 300); do
    local seen; seen=$(grep -c "gpuscale test fault:" "$err" 2>/dev/null)
    [ "${seen:-0}" -ge "${1:-1}" ] && return 0
    kill -0 "$job" 2>/dev/null || fail "the job ended before the fault fired"
    sleep 0.1
  done
  fail "the fault never fired"
}

wait_for_report() {  # wait_for_report PYTHON_CONDITION WHAT: until rank 0's JSON (d) meets it
  for _ in $(seq 1 600); do
    python3 -c "import json,sys; d = json.load(open('$json')); sys.exit(0 if $1 else 1)" 2>/dev/null && return 0
    kill -0 "$job" 2>/dev/null || fail "the job ended before $2"
    sleep 0.1
  done
  fail "never: $2"
}

# Waits until rank 0 has written the env phase: the collectives phase has begun.
wait_for_env() { wait_for_report "'env' in d['phases_completed']" "the env phase was written"; }

no_crash() { grep -Eq "signal 11|Segmentation|AddressSanitizer|runtime error:" "$err" && fail "a rank crashed"; true; }

fault_time() { sed -n 's/^gpuscale test fault: .*t=\([0-9.]*\)$/\1/p' "$err" | head -1; }

finish() {  # finish EXPECTED_RC[|RC...] FAULT_T: waits for mpiexec, checks its status and the time
  wait "$job"; rc=$?
  end=$(now)
  [[ "$rc" =~ ^($1)$ ]] || fail "mpiexec exited $rc, wanted $1"
  elapsed=$(python3 -c "print(f'{$end - $2:.2f}')")
  local limit=${limit_s:-$timeout_s + $slack_s}
  python3 -c "import sys; sys.exit(0 if $elapsed <= $limit else 1)" ||
    fail "took ${elapsed} s from the fault to the last exit (limit $limit)"
  echo "$name ($device, $np ranks): exit $rc, fault to last rank exiting ${elapsed} s"
}

check_json() {  # check_json PYTHON_ASSERTIONS: d is the report
  [ -s "$json" ] || fail "no JSON written"
  ls -A "$out" | grep -q '^\.gpuscale-.*\.tmp$' && fail "a temporary file was left behind"
  python3 - "$json" "$np" "$scenario" <<PY || fail "JSON: see above"
import json, sys
d = json.load(open(sys.argv[1]))
np = int(sys.argv[2])
assert d["schema_version"] == 2
assert d["verdict"]["passed"] is False, d["verdict"]
# Every scenario but corrupt ends the run early; corrupt runs env to its end and fails its verdict.
assert d["complete"] is (sys.argv[3] == "corrupt"), d["complete"]
$1
PY
}

case "$scenario" in
  stall)
    launch "stall:1:$point"
    wait_for_fault_line; t=$(fault_time)
    finish 3 "$t"
    if [ "$phase" = init ]; then  # no world yet: the watchdog ends the ranks blocked in MPI_Init
      grep -Eq "^\[rank [02] host [^]]+\] MPI_Init_thread \(waiting for every rank of the launch to start MPI\) did not return by its deadline \(phase init\); watchdog ends the process$" "$err" ||
        fail "no one-line message naming MPI_Init_thread and the phase"
      [ ! -e "$json" ] || fail "a JSON was written before the world existed"
      echo "faults $name: ok"; exit 0
    fi
    if [ "$phase" = env ]; then
      grep -Eq "^\[rank [02] host [^]]+\] timed out .*\(phase env, op smoke-allreduce, size 4194304 B, iteration 0\)$" "$err" ||
        fail "no one-line timeout naming rank, host, phase, op, size and iteration"
    fi
    grep -Eq "^\[rank [02] host [^]]+\] timed out .*\(phase $phase, op $op[,)]" "$err" ||
      fail "no one-line timeout naming rank, host, phase $phase and op $op"
    grep -Eq "^\[rank 0 host [^]]+\] ending the job: rank 1 \(host [^)]+\) did not respond within 2 s \(stalled or dead\)$" "$err" ||
      fail "the stalled rank was not named"
    check_json '
f = d["failure"]
assert f["exit_code"] == 3 and f["ranks_not_responding"] == [1], f
assert "timed out" in f["message"] and "phase '$phase', op '$op'" in f["message"], f
assert d["interrupted"] is False
assert len(d["ranks"]) == np, "the env records gathered before the fault are kept"
assert d["phases_completed"] == ([] if "'$phase'" == "env" else ["env"]), d["phases_completed"]'
    ;;
  exit)
    launch "exit:1:$point"
    wait_for_fault_line; t=$(fault_time)
    # Open MPI's own status for a rank that exits without MPI_Finalize, or rank 0's exit 3 when rank 0,
    # naming it, ends before the launcher decides
    finish "1|3" "$t"
    grep -Eq "^\[rank 0 host [^]]+\] ending the job: rank 1 \(host [^)]+\) died \(its process is gone\)$" "$err" ||
      fail "rank 0 did not name rank 1 as dead"
    check_json 'f = d["failure"]
assert f["exit_code"] == 3 and f["rank"] == 1 and "rank 1 (host " in f["message"] and "died" in f["message"], f
assert d["phases_completed"] == ([] if "'$phase'" == "env" else ["env"]), d["phases_completed"]'
    ;;
  stall0)  # rank 0 stalls in work it does alone (DP): the others wait for it no longer than the timeout
    launch "stall:0:$point"
    wait_for_fault_line; t=$(fault_time)
    finish 3 "$t"
    grep -Eq "^\[rank [12] host [^]]+\] timed out in the wait for rank 0's DP run: rank 0 sent no word for $timeout_s s \(stalled or dead\) \(phase train, op dp\)$" "$err" ||
      fail "no one-line timeout naming the wait for rank 0 and the phase's timeout"
    grep -Eq "^\[rank 1 host [^]]+\] ending the job: rank 0 \(host [^)]+\) did not respond within 2 s \(stalled or dead\)$" "$err" ||
      fail "rank 1 did not name rank 0"
    ;;
  hang)  # no device work completes: the phase's timeout, 2 s, ends the wait and the job
    launch "$(seq -s, -f "hang:%g:$point" 0 $((np - 1)))" 15
    wait_for_fault_line; t=$(fault_time)
    finish 3 "$t"
    # The cpu backend's timer is the wait that times out; on a GPU it is the first wait on the stream.
    grep -Eq "^\[rank [0-9]+ host [^]]+\] timed out waiting for [^(]+ \(phase $phase, op $op[,)]" "$err" ||
      fail "no one-line timeout naming the wait, phase $phase and op $op"
    check_json '
f = d["failure"]
assert f["exit_code"] == 3 and f["rank"] in range(np), f
assert "timed out waiting for " in f["message"], f
assert "phase '$phase', op '$op'" in f["message"], f
assert d["interrupted"] is False
assert d["phases_completed"] == ([] if "'$phase'" == "env" else ["env"]), d["phases_completed"]'
    ;;
  kill9)  # mpiexec answers a dead rank with SIGTERM to the others: rank 0 still names the dead one
    launch "stall:1:$point"
    wait_for_fault_line
    pid=$(rank_pids "$job" 1); [ -n "$pid" ] || fail "rank 1 not found"
    t=$(now); kill -9 "$pid"
    finish "137|3" "$t"  # the launcher's status for the kill, or rank 0's exit 3 naming it first
    grep -Eq "^\[rank 0 host [^]]+\] ending the job: rank 1 \(host [^)]+\) died \(its process is gone\)$" "$err" ||
      fail "rank 0 did not name rank 1 as dead"
    check_json '
f = d["failure"]
assert f["exit_code"] == 3 and f["rank"] == 1 and f["ranks_not_responding"] == [1], f
assert "rank 1 (host " in f["message"] and "died" in f["message"] and d["interrupted"] is False, f
assert d["phases_completed"] == ([] if "'$phase'" == "env" else ["env"]), d["phases_completed"]'
    ;;
  sigterm_64m)
    launch ""
    wait_for_env; sleep 1
    pid=$(rank_pids "$job" 0); [ -n "$pid" ] || fail "rank 0 not found"
    t=$(now); kill -TERM "$pid"
    finish 4 "$t"
    no_crash
    grep -Eq "^\[rank 0 host [^]]+\] interrupted by SIGTERM \(phase collectives, op allreduce, size 67108864 B" "$err" ||
      fail "no one-line interruption naming the op and size"
    check_json '
f = d["failure"]
assert d["interrupted"] is True and f["exit_code"] == 4 and f["ranks_not_responding"] == [], f
assert d["phases_completed"] == ["env"], d["phases_completed"]'
    ;;
  sigterm_busy)  # every rank signalled while busy: the watchdog ends them, rank 0 first, and records it
    # Each rank marks the broadcast twice (its op scope, then its size's); the signals follow while it
    # fills its 512 MiB. A fixed wait after env struck before the op on a slow sanitizer build.
    launch "$(seq -s, -f "mark:%g:collectives/broadcast" 0 $((np - 1)))"
    wait_for_fault_line $((2 * np)); sleep 0.2
    t=$(now); for pid in $(pgrep -P "$job"); do kill -TERM "$pid"; done
    limit_s="10 + $slack_s"  # the watchdog's grace after a signal (harness/Watchdog.hpp)
    finish 4 "$t"
    no_crash
    check_json '
f = d["failure"]
assert d["interrupted"] is True and f["exit_code"] == 4, f
assert "interrupted by SIGTERM" in f["message"], f
assert "phase collectives, op broadcast, size 536870912 B" in f["message"], f'
    ;;
  kill2)  # rank 2 killed while it runs: rank 0 names it before the launcher's SIGKILL ends rank 0
    launch "mark:2:$point"
    wait_for_fault_line
    pid=$(rank_pids "$job" 2); [ -n "$pid" ] || fail "rank 2 not found"
    t=$(now); kill -9 "$pid"
    finish "137|3" "$t"
    no_crash
    grep -Eq "^\[rank 0 host [^]]+\] ending the job: rank 2 \(host [^)]+\) died \(its process is gone\)$" "$err" ||
      fail "rank 0 did not name rank 2 as dead"
    check_json '
f = d["failure"]
assert f["exit_code"] == 3 and f["rank"] == 2 and f["ranks_not_responding"] == [2], f
assert "rank 2 (host " in f["message"] and "died" in f["message"] and d["interrupted"] is False, f
assert d["phases_completed"] == ["env"], d["phases_completed"]'
    ;;
  stop0|kill0)  # rank 0 stalls or dies mid-sweep: its deputy names it and ends the job
    launch ""
    wait_for_env; sleep 1
    pid=$(rank_pids "$job" 0); [ -n "$pid" ] || fail "rank 0 not found"
    if [ "$scenario" = stop0 ]; then
      t=$(now); kill -STOP "$pid"
      finish 3 "$t"
      seen="is stopped \(SIGSTOP or a debugger\) and did not respond"
    else
      t=$(now); kill -9 "$pid"
      finish "137|3" "$t"
      seen="died \(its process is gone\)"
    fi
    no_crash
    grep -Eq "^\[rank 1 host [^]]+\] ending the job: rank 0 \(host [^)]+\) $seen$" "$err" ||
      fail "rank 1 did not name rank 0"
    # The deputy, which judged rank 0, records it as the cause in rank 0's JSON.
    check_json '
f = d["failure"]
assert f["exit_code"] == 3 and f["rank"] == 0 and f["ranks_not_responding"] == [0], f
assert f["message"].startswith("[rank 1 host ") and "ending the job: rank 0 (host " in f["message"], f
assert ("is stopped" if sys.argv[3] == "stop0" else "died") in f["message"], f
assert d["interrupted"] is False and d["phases_completed"] == ["env"], d
# The deputy wrote it; rank 0, resumed by the kill sequence, leaves it as it is (a rewrite would race
# the SIGKILL and could leave its temp file behind).
assert d["output_set"].split("-")[-2] != "'"$pid"'", d["output_set"]'
    ;;
  sigterm)  # Slurm's time limit: SIGTERM to every rank
    launch stall:1:env/smoke-allreduce
    wait_for_fault_line
    t=$(now); for pid in $(pgrep -P "$job"); do kill -TERM "$pid"; done
    finish 4 "$t"
    grep -Eq "^\[rank 0 host [^]]+\] interrupted by SIGTERM \(phase env, op smoke-allreduce, size 4194304 B, iteration 0\); writing what finished$" "$err" ||
      fail "no one-line interruption message from rank 0"
    check_json '
f = d["failure"]
assert d["interrupted"] is True and f["exit_code"] == 4, f
assert f["ranks_not_responding"] == [1], f
assert len(d["ranks"]) == np'
    ;;
  sigterm_mpirun)  # Ctrl-C or SIGTERM to mpiexec, which forwards SIGTERM to the ranks
    launch stall:1:env/smoke-allreduce
    wait_for_fault_line
    t=$(now); kill -TERM "$job"
    finish 1 "$t"  # mpiexec's own status after it was signalled
    check_json 'assert d["interrupted"] is True and d["failure"]["exit_code"] == 4, d.get("failure")'
    ;;
  teardown)  # the launcher's kill sequence: SIGTERM to every rank, then SIGKILL (mpirun's a second
    # later, Slurm's after KillWait), here of rank 0 once it recorded the interruption, then the rest
    launch stall:1:env/smoke-allreduce
    wait_for_fault_line
    t=$(now); pids=$(pgrep -P "$job"); for pid in $pids; do kill -TERM "$pid"; done
    wait_for_report "d.get('interrupted')" "rank 0 recorded the interruption"
    sleep 1  # as mpirun waits; the ranks note who is alive within 0.1 s of their signal
    pid=$(rank_pids "$job" 0); [ -n "$pid" ] || fail "rank 0 not found"
    kill -9 "$pid"; sleep 0.5
    for pid in $pids; do kill -9 "$pid" 2>/dev/null; done
    finish "137|1|4" "$t"
    no_crash
    # A rank killed after the signal reached it was torn down by the launcher: it did not die.
    grep -q "died (its process is gone)" "$err" && fail "a rank the launcher killed was named dead"
    check_json 'assert d["interrupted"] is True and d["failure"]["exit_code"] == 4, d.get("failure")'
    ;;
  corrupt)
    t=$(now)
    GPUSCALE_TEST_CORRUPT=1:smoke-allreduce "$MPIEXEC" -n "$np" -x GPUSCALE_TEST_CORRUPT -x NCCL_NVLS_ENABLE=0 \
      "$GPUSCALE" env --device "$device" --json "$json" --timeout "$timeout_s" --quiet >/dev/null 2>"$err" &
    job=$!
    finish 1 "$t"
    check_json '
checks = [c for c in d["checks"] if c["id"] == "smoke-allreduce-failed"]
assert checks and checks[0]["ranks"] == [1] and checks[0]["severity"] == "error", d["checks"]
assert checks[0]["nodes"] == [d["ranks"][1]["node"]], checks[0]
assert d["ranks"][1]["smoke_allreduce"]["wrong"] == 1
assert d["phases_completed"] == ["env"] and "failure" not in d and d["interrupted"] is False'
    ;;
  *) echo "unknown scenario $scenario"; exit 2 ;;
esac
echo "faults $name: ok"
