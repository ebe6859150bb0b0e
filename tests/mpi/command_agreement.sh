#!/usr/bin/env bash
# Every rank agrees on the command before any work: ranks started with different commands (MPMD) are
# bad usage, exit 2, one line naming the ranks, nothing written; a usage error found on a rank other
# than 0 is printed once, with that rank, instead of only the launcher's "exit code 2". So are ranks
# started with different node layout variables (GPUSCALE_TEST_RANKS_PER_NODE, GPUSCALE_TEST_SHARE_GPU).
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"
mpi() { timeout 60 "$MPIEXEC" "$@" 2>"$out/err" >/dev/null; }
lines() { grep -c "^gpuscale: " "$out/err"; }

# MPMD: env on rank 0, collectives on rank 1.
mpi -n 1 "$GPUSCALE" env --device cpu --json "$out/mpmd.json" : \
  -n 1 "$GPUSCALE" collectives --device cpu --json "$out/mpmd.json"; rc=$?
[ "$rc" -eq 2 ] || fail "MPMD launch exited $rc, wanted 2: $(cat "$out/err")"
[ "$(lines)" -eq 1 ] || fail "MPMD launch: not one gpuscale line: $(cat "$out/err")"
grep -q "^gpuscale: error: every rank must be started with the same command; rank 0 runs '.*gpuscale env --device cpu --json [^']*', but rank 1 runs '.*gpuscale collectives --device cpu" "$out/err" ||
  fail "MPMD launch: the line does not name the ranks and their commands: $(cat "$out/err")"
[ ! -e "$out/mpmd.json" ] || fail "MPMD launch wrote a JSON"

# The same options in another order and spelling are the same command.
mpi -n 1 "$GPUSCALE" env --device cpu --quiet --seed 3 : -n 1 "$GPUSCALE" env --seed 3 --quiet --device=cpu ||
  fail "one command spelt two ways was refused: $(cat "$out/err")"

# A usage error on rank 1 only: one line from rank 1, naming it.
mpi -n 1 "$GPUSCALE" env --device cpu --json "$out/u.json" : -n 1 "$GPUSCALE" env --device cpu --bogus; rc=$?
[ "$rc" -eq 2 ] || fail "a usage error on rank 1 exited $rc, wanted 2"
[ "$(lines)" -eq 1 ] || fail "a usage error on rank 1: not one gpuscale line: $(cat "$out/err")"
grep -q "^gpuscale: error: \[rank 1 host [^]]*\] gpuscale env: .*bogus" "$out/err" ||
  fail "the usage error of rank 1 was not printed with its rank: $(cat "$out/err")"
[ ! -e "$out/u.json" ] || fail "a usage error on rank 1 let rank 0 write"

# The same error on every rank: one line, as a single process prints it.
mpi -n 3 "$GPUSCALE" env --device cpu --bogus; rc=$?
[ "$rc" -eq 2 ] || fail "a usage error on every rank exited $rc, wanted 2"
[ "$(lines)" -eq 1 ] || fail "a usage error on every rank: not one line: $(cat "$out/err")"
grep -q "^gpuscale: error: gpuscale env: " "$out/err" || fail "rank 0's line changed: $(cat "$out/err")"
# The node layout variables lay out World's nodes from each rank's own value: every rank's must be rank
# 0's (set alike or unset alike), and a malformed one on one rank is that rank's usage error.
mpi -n 1 env GPUSCALE_TEST_RANKS_PER_NODE=1 "$GPUSCALE" env --device cpu --json "$out/layout.json" : \
  -n 1 env GPUSCALE_TEST_RANKS_PER_NODE=2 "$GPUSCALE" env --device cpu --json "$out/layout.json"; rc=$?
[ "$rc" -eq 2 ] || fail "different GPUSCALE_TEST_RANKS_PER_NODE exited $rc, wanted 2: $(cat "$out/err")"
[ "$(lines)" -eq 1 ] || fail "different GPUSCALE_TEST_RANKS_PER_NODE: not one gpuscale line: $(cat "$out/err")"
grep -q "^gpuscale: error: every rank must be started with the same node layout (GPUSCALE_TEST_RANKS_PER_NODE, GPUSCALE_TEST_SHARE_GPU); rank 0 has GPUSCALE_TEST_RANKS_PER_NODE=1 GPUSCALE_TEST_SHARE_GPU unset, but rank 1 has GPUSCALE_TEST_RANKS_PER_NODE=2 GPUSCALE_TEST_SHARE_GPU unset$" "$out/err" ||
  fail "the line does not name the ranks and their values: $(cat "$out/err")"
[ ! -e "$out/layout.json" ] || fail "ranks of different layouts wrote a JSON"
mpi -n 2 env GPUSCALE_TEST_RANKS_PER_NODE=1 GPUSCALE_TEST_SHARE_GPU=1 "$GPUSCALE" env --device cpu : \
  -n 1 env GPUSCALE_TEST_RANKS_PER_NODE=1 "$GPUSCALE" env --device cpu; rc=$?
[ "$rc" -eq 2 ] || fail "GPUSCALE_TEST_SHARE_GPU on some ranks exited $rc, wanted 2: $(cat "$out/err")"
grep -q "but rank 2 has GPUSCALE_TEST_RANKS_PER_NODE=1 GPUSCALE_TEST_SHARE_GPU unset$" "$out/err" ||
  fail "GPUSCALE_TEST_SHARE_GPU on some ranks: $(cat "$out/err")"
mpi -n 1 "$GPUSCALE" env --device cpu : -n 1 env GPUSCALE_TEST_RANKS_PER_NODE=x "$GPUSCALE" env --device cpu; rc=$?
[ "$rc" -eq 2 ] || fail "a malformed GPUSCALE_TEST_RANKS_PER_NODE on rank 1 exited $rc, wanted 2: $(cat "$out/err")"
[ "$(lines)" -eq 1 ] || fail "a malformed variable on rank 1: not one gpuscale line: $(cat "$out/err")"
grep -q "^gpuscale: error: \[rank 1 host [^]]*\] GPUSCALE_TEST_RANKS_PER_NODE must be a positive integer, got 'x'$" \
  "$out/err" || fail "the malformed variable of rank 1: $(cat "$out/err")"
echo "command_agreement: ok"
