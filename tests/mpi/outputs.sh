#!/usr/bin/env bash
# Output files: only regular files are written (a device node or FIFO is refused and left as it was),
# never one path for two outputs or for an input, an empty name or an unwritable folder is bad input
# (one line, exit 2, nothing written); every file of one write carries the same output set id; and a
# job killed mid-run leaves a JSON that reads not complete and does not pass. Singleton runs, no mpirun.
set -uo pipefail
source "$(dirname "$0")/usage_lib.sh"
job=
trap '[ -n "$job" ] && kill -9 "$job" 2>/dev/null; rm -rf "$out"' EXIT

# One write, four files, one set id and one verdict.
"$GPUSCALE" env --device cpu --quiet --json "$out/run.json" --csv "$out/run.csv" --html "$out/run.html" \
  --trace "$out/run.trace" --checks-csv "$out/checks.csv" >/dev/null || fail "env run failed"
python3 - "$out" <<'PY' || fail "the files of one write disagree"
import csv, json, re, sys
out = sys.argv[1]
d = json.load(open(f"{out}/run.json"))
s = d["output_set"]
assert re.fullmatch(r"\d{8}T\d{6}Z-\d+-\d+", s), s
assert d["complete"] is True and d["verdict"]["result"] == "PASS", d["verdict"]
# The CSVs: every row names the set; the run id is the set's start time and PID, without the write number.
rows = list(csv.DictReader(open(f"{out}/run.csv")))
assert (rows[0]["phase"], rows[0]["metric"], rows[0]["labels"], rows[0]["value"]) == ("run", "verdict", "result=PASS", "1")
assert {r["output_set"] for r in rows} == {s} and {r["start_time"] for r in rows} == {d["start_time"]}, rows[0]
assert {r["run_id"] for r in rows} == {s.rsplit("-", 1)[0]}, rows[0]
checks = list(csv.DictReader(open(f"{out}/checks.csv")))
assert len(checks) >= 1 and {c["output_set"] for c in checks} == {s}, checks
assert f'<meta name="gpuscale-output-set" content="{s}">' in open(f"{out}/run.html").read()
assert json.load(open(f"{out}/run.trace"))["otherData"] == {"gpuscale_output_set": s, "verdict": "PASS"}
PY
# A later write of one of them alone (here: report) shows a different set: the mix is detectable.
"$GPUSCALE" report "$out/run.json" --csv "$out/run.csv" >/dev/null || fail "report failed"
grep -q ",$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['output_set'])" "$out/run.json")," \
  "$out/run.csv" && fail "a rewritten CSV kept the JSON's set id"

# Device nodes and FIFOs are refused, not replaced (a node of our own, never the system's /dev/null).
mknod -m 666 "$out/fakenull" c 1 3 || fail "mknod"
mkfifo "$out/fifo" || fail "mkfifo"
for opt in --json --csv --checks-csv --html --trace --prom; do
  expect_usage_as_given report "$out/run.json" $opt "$out/fakenull"
  expect_usage_as_given env --device cpu $opt "$out/fakenull"
  expect_usage_as_given env --device cpu $opt "$out/fifo"
done
expect_usage_as_given report "$out/run.json" --json "$out/fifo"
[ -c "$out/fakenull" ] || fail "the device node was replaced"
[ -p "$out/fifo" ] || fail "the FIFO was replaced"

# The folder must take a new file (root passes access() on /proc); an empty name is a mistake.
expect_usage_as_given env --device cpu --json /proc/gpuscale-outputs-test.json
expect_usage_as_given env --device cpu --json ""
expect_usage_as_given env --device cpu --csv ""

# One file for two outputs, or an output on an input, is refused by identity, not by spelling.
expect_usage_as_given env --device cpu --json "$out/x.json" --csv "$out/x.json"
expect_usage_as_given env --device cpu --json "$out/x.json" --html "$out/./x.json"
echo '{}' >"$out/expect.json"
expect_usage_as_given env --device cpu --expect "$out/expect.json" --json "$out/expect.json"
cp "$out/run.json" "$out/in.json"
ln "$out/in.json" "$out/in-link.json"
expect_usage_as_given report "$out/in.json" --csv "$out/in.json"
expect_usage_as_given report "$out/in.json" --json "$out/in-link.json"
expect_usage_as_given compare "$out/in.json" "$out/run.json" --json "$out/run.json"
cmp -s "$out/in.json" "$out/run.json" || fail "the input was changed"
[ ! -e "$out/x.json" ] || fail "a refused run wrote a file"

# A legal 250-byte file name: the temp name still fits NAME_MAX.
long="$out/$(printf 'r%.0s' $(seq 1 245)).json"
"$GPUSCALE" env --device cpu --quiet --json "$long" >/dev/null || fail "a 250-byte file name was refused"
[ -s "$long" ] || fail "no JSON under the long name"
[ "$(temps)" -eq 0 ] || fail "a temp file was left behind"

# Names the final rename cannot take pass a create-only check: the pre-check renames a probe onto the
# target as the write will, so they are bad input (exit 2, one line) before any work, not exit 3 after.
toolong="$out/$(printf 'r%.0s' $(seq 1 251)).json"  # 256 bytes: over NAME_MAX
expect_usage_as_given env --device cpu --json "$toolong"
expect_usage_as_given report "$out/run.json" --csv "$toolong"
# As nobody, root's file in a sticky folder (like /tmp) cannot be replaced: EPERM at the rename.
sticky=$(mktemp -d); trap '[ -n "$job" ] && kill -9 "$job" 2>/dev/null; rm -rf "$out" "$sticky"' EXIT
chmod 1777 "$sticky"; echo old >"$sticky/root.json"; cp "$out/run.json" "$sticky/run.json"; chmod 644 "$sticky/run.json"
for args in "env --device cpu --quiet" "report $sticky/run.json"; do
  err=$(cd "$sticky" && runuser -u nobody -- "$GPUSCALE" $args --json "$sticky/root.json" 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq 2 ] || fail "as nobody, $args onto root's file in a sticky folder exited $rc, wanted 2: $err"
  [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] || fail "as nobody, $args printed more than one line: $err"
  grep -q "Operation not permitted" <<<"$err" || fail "as nobody, $args: no reason given: $err"
done
[ "$(cat "$sticky/root.json")" = old ] || fail "root's file was changed"
[ "$(ls -A "$sticky" | grep -c '^\.gpuscale-')" -eq 0 ] || fail "a probe was left in the sticky folder"
# The probe swaps an existing target with itself and back: the target keeps its content.
echo keep >"$out/kept.json"
"$GPUSCALE" report "$out/run.json" --json "$out/kept.json" --csv /proc/x.csv >/dev/null 2>&1
[ "$(cat "$out/kept.json")" = keep ] || fail "a refused run changed an existing output"

# A console report that cannot be written (stdout on a full device) is a runtime error, not exit 0.
for args in "env --device cpu --quiet" "report $out/run.json" "--version"; do
  err=$("$GPUSCALE" $args 2>&1 >/dev/full); rc=$?
  [ "$rc" -eq 3 ] || fail "'$args' with stdout on /dev/full exited $rc, wanted 3"
  grep -q "^gpuscale: error: cannot write to standard output: No space left on device$" <<<"$err" ||
    fail "'$args' with stdout on /dev/full: no one-line reason: $err"
done

# A bad plan is refused before the first output is written.
expect_usage_as_given train --device cpu --batch 2000000000 --json "$out/batch.json"
[ ! -e "$out/batch.json" ] || fail "train --batch 2000000000 wrote the JSON"

# kill -9 mid-run: the file left behind is not complete and does not pass, and report says so.
GPUSCALE_TEST_FAULT=stall:0:collectives/allreduce "$GPUSCALE" collectives --device cpu --quiet -b 8 -e 64K \
  --ops allreduce --timeout 60 --json "$out/killed.json" >/dev/null 2>"$out/killed.err" &
job=$!
for _ in $(seq 1 300); do
  grep -q "gpuscale test fault:" "$out/killed.err" && break
  sleep 0.1
done
grep -q "gpuscale test fault:" "$out/killed.err" || fail "the fault never fired"
kill -9 "$job"; wait "$job" 2>/dev/null; job=
python3 - "$out/killed.json" <<'PY' || fail "the killed job's JSON reads as a pass"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False, d["complete"]
assert d["verdict"]["passed"] is False and d["verdict"]["result"] == "INCOMPLETE", d["verdict"]
assert d["phases_completed"] == ["env"], d["phases_completed"]
PY
"$GPUSCALE" report "$out/killed.json" >"$out/killed.txt"; rc=$?
[ "$rc" -eq 1 ] || fail "report of a killed job exited $rc, wanted 1"
grep -q "^== Verdict: INCOMPLETE ==$" "$out/killed.txt" || fail "report did not show the run as incomplete"
echo "outputs: ok"
