#!/usr/bin/env bash
# launch/install-deps.sh decides by what it finds, never by package names, and calls apt-get only for
# what is missing. Hermetic: PATH holds only stubs and the few tools the script uses, and the header
# and library directories are temp folders, so the machine's own installs cannot change the outcome.
#   everything present                          -> exit 0, apt-get never called
#   cmake too old, a header missing, apt fails  -> exit 1 naming both, no install attempted
#   no apt-get at all                           -> exit 1 naming what is missing
#   --tests without GoogleTest                  -> exit 1 naming it
#   a bad argument                              -> exit 2, apt-get never called
set -euo pipefail
script=$(cd "$(dirname "$0")/../../.." && pwd)/launch/install-deps.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/bin inc=$tmp/include lib=$tmp/lib
mkdir -p "$bin" "$inc/nlohmann" "$inc/gtest" "$lib/slurm-wlm"
for tool in sed sort head tr grep id cat; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
stub() { printf '#!/bin/sh\n%s\n' "$2" >"$bin/$1"; chmod +x "$bin/$1"; }
stub cmake 'echo "cmake version ${STUB_CMAKE_VERSION:-3.28.3}"'
for c in make mpicxx mpirun python3 chromium promtool prometheus-node-exporter slurmctld slurmd srun salloc sbatch munged; do stub "$c" 'exit 0'; done
stub c++ 'cat >/dev/null; exit 0'
stub apt-get "echo \"apt-get \$*\" >>'$tmp/apt.log'; exit 100"
touch "$inc/cxxopts.hpp" "$inc/nlohmann/json.hpp" "$inc/gtest/gtest.h" "$lib/libopenblas.so.0" "$lib/libpmix.so" \
  "$lib/slurm-wlm/select_cons_tres.so"
fail() { echo "FAIL: $*"; [ -f "$tmp/err" ] && sed 's/^/  stderr: /' "$tmp/err"; exit 1; }
run() {  # ARGS...: install-deps.sh in the stub world; sets rc, stderr in $tmp/err
  rm -f "$tmp/apt.log"
  set +e
  env -i PATH="$bin" HOME="$tmp" GPUSCALE_DEPS_INCLUDE_DIRS="$inc" GPUSCALE_DEPS_LIB_DIRS="$lib" \
    ${STUB_CMAKE_VERSION:+STUB_CMAKE_VERSION=$STUB_CMAKE_VERSION} "$BASH" "$script" "$@" >/dev/null 2>"$tmp/err"
  rc=$?
  set -e
}

run
[ "$rc" -eq 0 ] || fail "everything present: exit $rc, wanted 0"
[ ! -e "$tmp/apt.log" ] || fail "everything present: apt-get was called: $(cat "$tmp/apt.log")"
run --tests
[ "$rc" -eq 0 ] || fail "everything present (--tests): exit $rc, wanted 0"
[ ! -e "$tmp/apt.log" ] || fail "everything present (--tests): apt-get was called: $(cat "$tmp/apt.log")"

rm "$inc/cxxopts.hpp"
STUB_CMAKE_VERSION=3.20.0 run
[ "$rc" -eq 1 ] || fail "cmake 3.20 and no cxxopts.hpp, apt-get failing: exit $rc, wanted 1"
grep -q 'cmake >= 3.24' "$tmp/err" || fail "the old cmake is not named"
grep -q 'cxxopts.hpp' "$tmp/err" || fail "the missing cxxopts.hpp is not named"
grep -q 'mpicxx\|json.hpp' "$tmp/err" && fail "names something that is present"
grep -q 'apt-get update' "$tmp/apt.log" || fail "apt-get was not tried"
grep -q 'install' "$tmp/apt.log" && fail "apt-get install was tried after update failed"

rm "$bin/apt-get"
run
[ "$rc" -eq 1 ] || fail "no apt-get, cxxopts.hpp missing: exit $rc, wanted 1"
grep -q 'no apt-get' "$tmp/err" && grep -q 'cxxopts.hpp' "$tmp/err" ||
  fail "no apt-get: the message does not say what is missing"
stub apt-get "echo \"apt-get \$*\" >>'$tmp/apt.log'; exit 100"
touch "$inc/cxxopts.hpp"

rm "$inc/gtest/gtest.h"
run
[ "$rc" -eq 0 ] || fail "GoogleTest is needed only with --tests: exit $rc, wanted 0"
run --tests
[ "$rc" -eq 1 ] || fail "--tests without GoogleTest: exit $rc, wanted 1"
grep -q 'GoogleTest' "$tmp/err" || fail "--tests: the missing GoogleTest is not named"

for bad in --bogus 'Not_A_Package'; do
  run "$bad"
  [ "$rc" -eq 2 ] || fail "'$bad': exit $rc, wanted 2"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "'$bad': not a one-line error"
  [ ! -e "$tmp/apt.log" ] || fail "'$bad': apt-get was called"
done
echo "install-deps: ok"
