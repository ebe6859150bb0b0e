# check_plan_line STDERR JSON: the start-up line ("[gpuscale] plan ...") on stderr states what the
# JSON records: the profile, and per phase the shapes and precisions, the ops, sizes and iterations,
# the models, precisions and steps measured. Sourced by tests that run gpuscale without --quiet.
check_plan_line() {
  python3 - "$1" "$2" <<'PY'
import json, re, sys
err, path = open(sys.argv[1]).read(), sys.argv[2]
d = json.load(open(path))
lines = [l for l in err.splitlines() if l.startswith("[gpuscale] plan ")]
assert len(lines) == 1, f"one plan line expected on stderr, got {lines}"
m = re.match(r"\[gpuscale\] plan (\S+) \(budget (\d+) s\)(?:: (.*?))? \| ", lines[0])
assert m, lines[0]
parts = dict(p.split(" ", 1) for p in m.group(3).split("; ")) if m.group(3) else {}
units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
def size(text):
    n = re.fullmatch(r"(\d+)([KMG]?)", text)
    assert n, text
    return int(n.group(1)) * units[n.group(2)]
phases = {p for p in d["phases_completed"] if p != "env"}
assert set(parts) == phases, (set(parts), phases)
if "compute" in parts:
    c = re.fullmatch(r"(\d+) shapes in (\S+), (\d+)\+(\d+) calls", parts["compute"])
    assert c, parts["compute"]
    precisions = c.group(2).split(",")
    recs = [r for r in d["compute"] if r["rank"] == 0 and r["pass"] == "fwd"]
    assert sorted({r["precision"] for r in recs}) == sorted(precisions), (recs, precisions)
    assert len(recs) == int(c.group(1)) * len(precisions), (len(recs), c.group(1))
    assert all(len(r["samples_s"]) == int(c.group(4)) for r in d["compute"]), "compute calls differ from the line"
if "collectives" in parts:
    c = re.fullmatch(r"(\d+) ops?, (\d+) sizes (\S+)\.\.(\S+), (\d+)\+(\d+) iterations", parts["collectives"])
    assert c, parts["collectives"]
    rec = d["collectives"]
    assert len(rec["sweeps"]) == int(c.group(1)), (len(rec["sweeps"]), c.group(1))
    for s in rec["sweeps"]:
        sizes = [r["size_bytes"] for r in s["rows"]]
        assert (len(sizes), sizes[0], sizes[-1]) == (int(c.group(2)), size(c.group(3)), size(c.group(4))), (s["op"], sizes)
    assert (rec["warmup"], rec["iterations"]) == (int(c.group(5)), int(c.group(6))), (rec["warmup"], rec["iterations"])
if "links" in parts:
    c = re.fullmatch(r"(\S+) pinned, (\S+) pageable, (\S+) device memory, 1\+(\d+) copies", parts["links"])
    assert c, parts["links"]
    recs = d["links"]
    pinned = sorted({size(t) for t in c.group(1).split(",")})
    assert recs, "no links record"
    for r in recs:
        got = sorted({f["bytes"] for f in r["copies"] if f["memory"] == "pinned"})
        assert got == pinned, ("pinned sizes differ from the line", got, pinned)
        assert all(len(f["samples_s"]) == int(c.group(4)) for f in r["copies"]), "copies differ from the line"
if "burn" in parts:
    c = re.fullmatch(r"(\S+) matmul (\d+) for ([\d.]+) s", parts["burn"])
    assert c, parts["burn"]
    recs = d["burn"]
    assert recs and all(r["precision"] == c.group(1) for r in recs), (recs, c.group(1))
    assert all(f"M{c.group(2)} " in r["shape"] for r in recs), [r["shape"] for r in recs]
    assert all(abs(r["requested_s"] - float(c.group(3))) < 1e-9 for r in recs), "burn seconds differ from the line"
if "train" in parts:
    c = re.fullmatch(r"(\S+) in (\S+), (\d+)\+(\d+) steps", parts["train"])
    assert c, parts["train"]
    recs = [r for r in d["train"]["records"] if not r["skipped_reason"]]
    assert recs, "no training record"
    assert {r["model"] for r in recs} == set(c.group(1).split(",")), {r["model"] for r in recs}
    assert {r["precision"] for r in recs} == set(c.group(2).split(",")), {r["precision"] for r in recs}
    assert all(len(r["step_samples_s"]) == int(c.group(4)) for r in recs), "train steps differ from the line"
print(f"  {path}: {lines[0].split(' | ')[0]}")
PY
}
