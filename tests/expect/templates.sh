#!/usr/bin/env bash
# The expect templates (launch/expect/, launch/ExpectTemplates.hpp) against saved runs of their model
# (tests/expect/runs/, README.md there): every healthy run passes its template with each of the
# template's thresholds judged (PASS, never SKIP), alone and through --expect auto; a run with a seeded
# fault fails it (tests/expect/seed_fault.py: a tenant on the GPU, the large GEMM 55% slower, a corrupt
# rank), and so does the real H200 run beside another process. A run of a slower model fails the
# template of a faster one. Only `gpuscale report`: no GPU, no MPI.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
checked=0

# judge RUN.json.gz EXPECT NAME: `gpuscale report` of the run with --expect EXPECT into $out/NAME.{json,txt}; prints the exit code.
judge() {
  local run=$1 expect=$2 name=$3 rc=0
  case "$run" in
    *.gz) gunzip -c "$run" >"$out/$name.in.json" ;;
    *) cp "$run" "$out/$name.in.json" ;;
  esac
  "$GPUSCALE" report "$out/$name.in.json" --expect "$expect" --json "$out/$name.json" >"$out/$name.txt" 2>&1 || rc=$?
  echo "$rc"
}

# rules NAME TEMPLATE WANT: every threshold of TEMPLATE has the result WANT (PASS) in run NAME's verdict.
every_threshold() {
  python3 - "$out/$1.json" "$2" "$3" <<'PY'
import json, sys
run, template, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
rules = {r["name"]: r for r in run["verdict"]["rules"]}
for t in template["thresholds"]:
    r = rules.get(t["name"])
    assert r and r["result"] == want, (t["name"], r)
for id in template["checks_must_pass"]:
    assert rules["check " + id + " passes"]["result"] == want, id
PY
}

# one_rule NAME PREFIX RESULT: some rule of run NAME's verdict whose name starts with PREFIX has RESULT.
one_rule() {
  python3 - "$out/$1.json" "$2" "$3" <<'PY'
import json, sys
run, prefix, want = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
hits = [r for r in run["verdict"]["rules"] if r["name"].startswith(prefix)]
assert any(r["result"] == want for r in hits), (prefix, want, run["verdict"]["rules"])
PY
}

for stem in h200-sxm h100-sxm a100-sxm-80gb; do
  for profile in quick default; do
    template="$src/launch/expect/$stem-$profile.json"
    [ -f "$template" ] || fail "no template $template"
    runs=$(ls "$here"/runs/"$stem-$profile"*.json.gz 2>/dev/null | grep -v tenant)
    [ -n "$runs" ] || fail "no saved run of $stem for the $profile template"
    for run in $runs; do
      name=$(basename "$run" .json.gz)
      rc=$(judge "$run" "$template" "$name")
      [ "$rc" -eq 0 ] || { cat "$out/$name.txt"; fail "$name exits $rc with $stem-$profile.json, wanted 0"; }
      every_threshold "$name" "$template" PASS || { cat "$out/$name.txt"; fail "$name: a threshold of $stem-$profile.json not PASS"; }
      rc=$(judge "$run" auto "$name-auto")
      [ "$rc" -eq 0 ] || { cat "$out/$name-auto.txt"; fail "$name exits $rc with --expect auto, wanted 0"; }
      grep -q "PASS  expect template  ($stem-$profile.json for " "$out/$name-auto.txt" ||
        { cat "$out/$name-auto.txt"; fail "$name: --expect auto did not pick $stem-$profile.json"; }
      every_threshold "$name-auto" "$template" PASS || fail "$name: a threshold of the auto template not PASS"
      for fault in tenant lower corrupt; do
        python3 "$here/seed_fault.py" "$fault" "$run" >"$out/$name-$fault.json" || fail "seeding $fault into $name"
        rc=$(judge "$out/$name-$fault.json" "$template" "$name-$fault")
        [ "$rc" -eq 1 ] || { cat "$out/$name-$fault.txt"; fail "$name with a seeded $fault exits $rc, wanted 1"; }
      done
      one_rule "$name-tenant" "check gpu-in-use passes" FAIL || fail "$name-tenant: gpu-in-use not failed"
      one_rule "$name-lower" "compute matmul bf16" FAIL || fail "$name-lower: the template's GEMM threshold did not fail"
      one_rule "$name-corrupt" "no error checks" FAIL || fail "$name-corrupt: the corrupt rank not failed"
      checked=$((checked + 1))
      echo "  $stem-$profile.json: $name passes; seeded tenant, lower, corrupt fail"
    done
  done
done

# The real H200 run beside a PyTorch bf16 matmul loop fails the H200 quick template, on its burn too.
rc=$(judge "$here/runs/h200-sxm-quick-tenant.json.gz" "$src/launch/expect/h200-sxm-quick.json" tenant)
[ "$rc" -eq 1 ] || { cat "$out/tenant.txt"; fail "the run beside another process exits $rc, wanted 1"; }
one_rule tenant "burn bf16 sustained" FAIL || fail "the tenant run's burn passed the template"
# A slower model's run fails a faster model's template: the thresholds are the model's own.
rc=$(judge "$here/runs/a100-sxm-80gb-quick-derived.json.gz" "$src/launch/expect/h200-sxm-quick.json" cross)
[ "$rc" -eq 1 ] || fail "an A100 run passes the H200 template"
[ "$checked" -ge 9 ] || fail "only $checked saved runs checked"
echo "expect templates: $checked saved runs pass their template, every seeded fault fails it"
