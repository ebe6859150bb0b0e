#!/usr/bin/env bash
# Bad input: one line on stderr, exit 2, nothing written. --help and --version: exit 0.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"

expect_usage env --bogus
expect_usage env --timeout nope
expect_usage env --timeout 0
expect_usage env --device tpu
expect_usage frobnicate
expect_usage env extra-argument
expect_usage train --device cpu --strategy fsdp
expect_usage train --device cpu --grad-dtype int8
expect_usage env --device cpu --csv /nonexistent-dir/x.csv
expect_usage collectives --device cpu -b 1X
expect_usage collectives --device cpu -b 1G -e 1M
expect_usage collectives --device cpu -f 1
expect_usage collectives --device cpu -d float8
expect_usage collectives --device cpu --ops allreduce,bogus
expect_usage collectives --device cpu -n 0
"$GPUSCALE" collectives --help | grep -- "--stepfactor" >/dev/null || fail "collectives --help lacks -f"
expect_usage compute --device cpu --mnk 1,2
expect_usage compute --device cpu --mnk 0,4,4
expect_usage compute --device cpu --conv 1,1,2,2,1,3,3
expect_usage compute --device cpu --precision fp8
expect_usage compute --device cpu --cudnn-algo fastest
expect_usage env --device cpu --html /nonexistent-dir/x.html
expect_usage env --device cpu --csv /
expect_usage env --timeout inf
expect_usage env --timeout nan
expect_usage env --timeout gpu=5
expect_usage train --timeout 60,train=
expect_usage run --timeout env=10,collectives=-1
expect_usage env --seed -1
GPUSCALE_TEST_FAULT=zap:1:env expect_usage env --device cpu
GPUSCALE_TEST_FAULT=stall:x:env expect_usage env --device cpu
GPUSCALE_TEST_FAULT=stall:1 expect_usage env --device cpu
GPUSCALE_TEST_CORRUPT=1 expect_usage env --device cpu
# A deadline that passes at once, without a launcher (an MPI singleton): the message names rank and host.
err=$(env -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u SLURM_PROCID \
  timeout 60 "$GPUSCALE" env --device cpu --timeout 1e-9 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 3 ] || fail "--timeout 1e-9 exited $rc, wanted 3"
grep -q "^\[rank 0 host [^ ?]" <<<"$err" || fail "--timeout 1e-9 does not name rank and host: $err"
"$GPUSCALE" --help >/dev/null || fail "--help"
"$GPUSCALE" env --help | grep "Examples:" >/dev/null || fail "env --help has no examples"
"$GPUSCALE" --version | grep -q "^gpuscale [0-9]" || fail "--version"
echo "cli_exit_codes: ok"
