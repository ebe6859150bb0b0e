#!/usr/bin/env bash
# tools/include_graph.py on the sources: every layer includes only downward, and no rooms include each
# other round a loop beyond the pinned ones, and no phase's folder includes another phase's. First on a
# small tree with one loop, three upward includes (one out of the results base, a layer inside a folder;
# one out of a phase's pure half into the records above it) and two phases including another's file
# (a running half, a pure half), a running half including the driver (launch/Job) and a pure half including
# its own running half (phases/a/run/), which it must name
# (so a checker that finds nothing cannot pass), while a phase including what it faces of launch/
# (PhaseContext), its own folders or the bases passes; then on the real tree.
#   include_graph.sh SOURCE_DIR
set -uo pipefail
src="$1"
tool="$src/tools/include_graph.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/harness" "$tmp/launch/base" "$tmp/results/base" "$tmp/results/schema" "$tmp/phases/a/run" \
  "$tmp/phases/b/run" "$tmp/judge/base"
printf '#pragma once\n' >"$tmp/harness/A.hpp"
printf '#pragma once\n' >"$tmp/harness/B.hpp"
printf '#pragma once\n' >"$tmp/launch/Job.hpp"
printf '#pragma once\n' >"$tmp/launch/base/PhaseContext.hpp"
printf '#include "harness/A.hpp"\n#include "harness/B.hpp"\n' >"$tmp/harness/A.cpp"
printf '#include "harness/B.hpp"\n#include "harness/A.hpp"\n#include "launch/Job.hpp"\n' >"$tmp/harness/B.cpp"
printf '#pragma once\n' >"$tmp/results/schema/Record.hpp"
printf '#include "results/schema/Record.hpp"\n' >"$tmp/results/base/Format.cpp"
printf '#include "results/base/Format.hpp"\n' >"$tmp/results/schema/Record.cpp"
printf '#pragma once\n' >"$tmp/results/base/Format.hpp"
printf '#pragma once\n' >"$tmp/phases/a/run/APlan.hpp"
printf '#pragma once\n' >"$tmp/phases/b/run/BPlan.hpp"
printf '#include "phases/a/run/APlan.hpp"\n#include "launch/base/PhaseContext.hpp"\n' >"$tmp/phases/a/run/APhase.cpp"
printf '#include "phases/a/run/APlan.hpp"\n#include "launch/Job.hpp"\n' >"$tmp/phases/a/run/ASpec.cpp"
printf '#include "phases/b/run/BPlan.hpp"\n#include "phases/a/run/APlan.hpp"\n' >"$tmp/phases/b/run/BPhase.cpp"
printf '#include "phases/a/run/APlan.hpp"\n' >"$tmp/launch/Driver.cpp"
printf '#pragma once\n' >"$tmp/judge/base/Judged.hpp"
printf '#pragma once\n' >"$tmp/phases/a/ARecord.hpp"
printf '#include "phases/a/ARecord.hpp"\n#include "judge/base/Judged.hpp"\n#include "results/base/Format.hpp"\n' >"$tmp/phases/a/AView.cpp"
printf '#include "phases/a/ARecord.hpp"\n#include "results/schema/Record.hpp"\n' >"$tmp/phases/b/BView.cpp"
printf '#include "phases/a/ARecord.hpp"\n' >"$tmp/phases/a/run/ARun.cpp"
printf '#include "phases/a/run/APlan.hpp"\n' >"$tmp/phases/a/ATable.cpp"
python3 "$tool" "$tmp" >"$tmp/out" 2>&1
rc=$?
grep -q "round a loop: harness/A <-> harness/B" "$tmp/out" || { echo "FAIL: the loop A <-> B not named"; cat "$tmp/out"; exit 1; }
grep -q "harness/B includes launch/Job: harness may include only " "$tmp/out" ||
  { echo "FAIL: the upward include not named"; cat "$tmp/out"; exit 1; }
grep -q "results/base/Format includes results/schema/Record: results/base may include only itself" "$tmp/out" ||
  { echo "FAIL: the include out of the results base not named"; cat "$tmp/out"; exit 1; }
[ "$(grep -c "results/schema/Record includes" "$tmp/out")" -eq 0 ] ||
  { echo "FAIL: results including its base named as upward"; cat "$tmp/out"; exit 1; }
grep -q "phases/b/run/BPhase includes phases/a/run/APlan: a phase includes no other phase's files" "$tmp/out" ||
  { echo "FAIL: the phase including another phase's file not named"; cat "$tmp/out"; exit 1; }
grep -q "phases/a/run/ASpec includes launch/Job: a phase's folder includes of launch/ only launch/base/" \
  "$tmp/out" || { echo "FAIL: a running half including the driver not named"; cat "$tmp/out"; exit 1; }
grep -q "phases/b/BView includes results/schema/Record: phases may include only judge/base, results/base" "$tmp/out" ||
  { echo "FAIL: a pure half including the records above it not named"; cat "$tmp/out"; exit 1; }
grep -q "phases/b/BView includes phases/a/ARecord: a phase includes no other phase's files" "$tmp/out" ||
  { echo "FAIL: a pure half including another phase's file not named"; cat "$tmp/out"; exit 1; }
grep -q "phases/a/ATable includes phases/a/run/APlan: phases may include only" "$tmp/out" ||
  { echo "FAIL: a pure half including its own running half not named"; cat "$tmp/out"; exit 1; }
[ "$(grep -c "run/APhase includes\|launch/Driver includes\|BPhase includes phases/b\|AView includes\|run/ARun includes" \
  "$tmp/out")" -eq 0 ] ||
  { echo "FAIL: a phase's own folder or launch/ named as another phase's"; cat "$tmp/out"; exit 1; }
[ "$rc" -eq 1 ] || { echo "FAIL: exit $rc on findings, wanted 1"; exit 1; }
python3 "$tool" "$src"
