#!/usr/bin/env bash
# The test seams are strict about their places (harness/FaultInjection.hpp, launch/SeamPlaces.cpp): a
# place, buffer or phase that no seam meets is refused (exit 2, one line listing the valid ones), alone
# and under mpiexec; `hang` at finish, after which nothing waits on the device, is refused too. Every
# listed place fires: a mark at each of them, over runs of every phase on the CPU backend, is announced.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"

err=$(GPUSCALE_TEST_FAULT=stall:0:compute/lineer one_line_exit 2 env --device cpu) || fail "$err"
[[ "$err" == *"GPUSCALE_TEST_FAULT: unknown place 'compute/lineer' ("*"compute/linear"* ]] || fail "$err"
places=$(printf '%s\n' "$err" | sed -n "s/.*unknown place 'compute\/lineer' (\(.*\))$/\1/p" | tr -d ' ' | tr ',' '\n')
[ "$(printf '%s\n' "$places" | grep -c .)" -ge 20 ] || fail "the places listed: $places"
err=$(GPUSCALE_TEST_FAULT=hang:0:finish one_line_exit 2 env --device cpu) || fail "$err"
[[ "$err" == *"hang at finish stops nothing"* ]] || fail "$err"
err=$(GPUSCALE_TEST_CORRUPT=1:smoke-allreduse one_line_exit 2 env --device cpu) || fail "$err"
[[ "$err" == *"unknown buffer 'smoke-allreduse' (smoke-allreduce, collectives, burn-output)"* ]] || fail "$err"
err=$(GPUSCALE_TEST_FOREIGN_PROCESS=1:compute:1@comptue one_line_exit 2 env --device cpu) || fail "$err"
[[ "$err" == *"unknown phase 'comptue'"* ]] || fail "$err"

# Under a launcher every rank refuses alike; rank 0 prints the one line.
err=$("$MPIEXEC" -n 2 -x GPUSCALE_TEST_FAULT=mark:1:colectives/allreduce "$GPUSCALE" env --device cpu --quiet 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 2 ] || fail "a misspelt place under mpiexec exited $rc, wanted 2: $err"
[ "$(printf '%s\n' "$err" | grep -c '^gpuscale')" -eq 1 ] || fail "not one gpuscale line: $err"
[[ "$err" == *"unknown place 'colectives/allreduce'"* ]] || fail "$err"

# A mark at every place, on rank 0, over runs that between them open every scope.
marks=$(printf '%s\n' "$places" | sed 's/^/mark:0:/' | paste -sd, -)
run() {  # run ARGS...: the command on 2 ranks with every mark; the places announced are appended
  GPUSCALE_TEST_FAULT=$marks "$MPIEXEC" -n 2 -x GPUSCALE_TEST_FAULT "$GPUSCALE" "$@" --device cpu --quiet \
    >/dev/null 2>>"$out/marks.err" || fail "'$*' failed: $(tail -5 "$out/marks.err")"
}
run env
run links
run compute --mnk 32,32,32 --conv 1,4,8,8,4,3,3 --precision fp32 --iters 1 --warmup 0 --no-check
run burn --burn-s 0.5
run collectives -b 8 -e 64 -n 1 -w 0 --ops all --scaling-sizes none --pair-bytes 0
run train --model mlp --precision fp32 --depth 3 --width 8 --batch 4 --iters 1 --warmup 0 --strategy single,dp,ddp \
  --dp-devices 2
fired=$(sed -n 's/^gpuscale test fault: mark at \([^,]*\), t=.*/\1/p' "$out/marks.err" | sort -u)
never=$(comm -23 <(printf '%s\n' "$places" | sort -u) <(printf '%s\n' "$fired"))
[ -z "$never" ] || fail "listed places that never fired: $(echo $never)"
echo "seam_places: ok ($(printf '%s\n' "$places" | grep -c .) places, each fired)"
