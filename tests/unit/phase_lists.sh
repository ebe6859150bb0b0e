#!/usr/bin/env bash
# tools/phase_lists.py on the sources: no file outside the registry and the phase folders lists the
# phases by hand, beyond the pinned ones. First on a small tree with a registry of three phases, a file
# naming all three and one naming two, of which it must name the first alone (so a checker that finds
# nothing, or everything, cannot pass), then on the real tree.
#   phase_lists.sh SOURCE_DIR
set -uo pipefail
src="$1"
tool="$src/tools/phase_lists.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/results/base" "$tmp/results/render" "$tmp/phases/burn/run"
printf 'GPUSCALE_PHASE(env)\nGPUSCALE_PHASE(burn)\nGPUSCALE_PHASE(train)\n' >"$tmp/results/base/PhaseRegistry.def"
printf 'void f(const RunReport& r) {\n  g("env");\n  g(phase::burn);\n  h(r.train);\n}\n' >"$tmp/results/render/Tables.cpp"
printf '// env, burn and train in a comment are no list\nvoid f() { g("env"); g("burn"); }\n' >"$tmp/results/render/Pair.cpp"
printf 'void f() { g("env"); g("burn"); g("train"); }\n' >"$tmp/phases/burn/run/BurnSpec.cpp"
python3 "$tool" "$tmp" >"$tmp/out" 2>&1
rc=$?
grep -q "^results/render/Tables.cpp lists phases by hand (env, burn, train)" "$tmp/out" ||
  { echo "FAIL: the hand list in Tables.cpp not named"; cat "$tmp/out"; exit 1; }
if grep -q "Pair.cpp\|BurnSpec.cpp" "$tmp/out"; then
  echo "FAIL: a pair of phases, or a phase folder, named as a hand list"; cat "$tmp/out"; exit 1
fi
[ "$rc" -eq 1 ] || { echo "FAIL: exit $rc on a finding, wanted 1"; exit 1; }
python3 "$tool" "$src"
