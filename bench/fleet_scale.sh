#!/usr/bin/env bash
# Usage: GPUSCALE=build/launch/gpuscale [RANKS="8 16 32 64"] [PER_NODE=8] [SYNTHETIC="128 256 512 1024 2048"]
#        [OUT=dir] bench/fleet_scale.sh
# gpuscale's own cost as the job grows, on the CPU backend with emulated nodes of PER_NODE ranks, all on
# this one machine (so read ratios between rank counts, not seconds): `env`, `collectives` (with the
# slow-node localisation, as every run over several nodes has it) and `--quick` at each rank count, with
# wall seconds, rank 0's peak memory, the JSON's bytes per rank, the console's lines and the rounds of
# node pairs. Then the default job (every phase) at 2 x PER_NODE ranks, and `gpuscale report` of
# synthetic fleet runs made from it (tests/mpi/synthetic_run.py) at each SYNTHETIC rank count, writing
# JSON, CSV, HTML and Prometheus files:
# seconds, peak memory and output bytes per rank. `gpuscale --version` gives the memory floor (the
# libraries alone). Prints the tables last; files go to $OUT (or a temp folder).
set -uo pipefail
: "${GPUSCALE:?set GPUSCALE to the gpuscale binary}"
here=$(cd "$(dirname "$0")" && pwd)
synth="$here/../tests/mpi/synthetic_run.py"
per_node=${PER_NODE:-8}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0

# STDOUT_FILE CMD...: runs CMD, its output to STDOUT_FILE; prints "WALL_S PEAK_KB RC", PEAK_KB the
# largest resident set of any process it waited for.
measure() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
with open(sys.argv[1], "w") as stdout:
    rc = subprocess.call(sys.argv[2:], stdout=stdout)
wall = time.monotonic() - start
print(f"{wall:.2f} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss} {rc}")
PY
}

# Rank 0 runs under measure; its figures go to $out/NAME.rank0.
rank0_wrapper() {
  cat >"$out/rank0.sh" <<'EOF'
#!/usr/bin/env bash
figures=$1; shift
rank=${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${SLURM_PROCID:-0}}}
[ "$rank" = 0 ] || exec "$@"
python3 - "$figures" "$@" <<'PY'
import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
open(sys.argv[1], "w").write(f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\n")
sys.exit(rc)
PY
EOF
  chmod +x "$out/rank0.sh"
}
rank0_wrapper

runs=()
steps=()
for n in ${RANKS:-8 16 32 64}; do
  for cmd in env collectives quick; do steps+=("$cmd $n"); done
done
steps+=("run $((2 * per_node))")
for step in "${steps[@]}"; do
  read -r cmd n <<<"$step"
  name="$cmd-$n"
  args=("$cmd")
  [ "$cmd" = quick ] && args=(--quick)
  start=$EPOCHREALTIME
  mpirun --allow-run-as-root --oversubscribe -n "$n" -x GPUSCALE_TEST_RANKS_PER_NODE="$per_node" \
    "$out/rank0.sh" "$out/$name.rank0" "$GPUSCALE" "${args[@]}" --device cpu --quiet --timeout 900 \
    --json "$out/$name.json" >"$out/$name.stdout" 2>"$out/$name.stderr"
  rc=$?
  wall=$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }')
  runs+=("$(python3 - "$name" "$n" "$per_node" "$wall" "$rc" "$out/$name.rank0" "$out/$name.json" "$out/$name.stdout" <<'PY'
import json, os, sys
name, n, per_node, wall, rc, rss, path, console = sys.argv[1:]
n, per_node = int(n), int(per_node)
kb = open(rss).read().strip() if os.path.exists(rss) else "-"
size = os.path.getsize(path) if os.path.exists(path) else 0
lines = sum(1 for _ in open(console))
rounds = "-"
try:
    iso = (json.load(open(path)).get("collectives") or {}).get("isolation")
    if iso:
        rounds = f"{iso['rounds']} ({len(iso['matches'])} matches)"
except (OSError, ValueError):
    pass
print(f"{name:16} {n:5} {n // per_node:5} {wall:>7} {rc:>3} "
      f"{int(kb) // 1024 if kb.isdigit() else '-':>8} {size / n / 1024:9.1f} {lines:6}  {rounds}")
PY
)")
  echo "${runs[-1]}" >>"$out/rows.txt"  # kept as it goes, should the bench be cut short
done

template="$out/run-$((2 * per_node)).json"
reports=()
floor=$(measure /dev/null "$GPUSCALE" --version | awk '{ printf "%d", $2 / 1024 }')
if [ -f "$template" ]; then
  for n in ${SYNTHETIC:-128 256 512 1024 2048}; do
    python3 "$synth" "$template" "$n" --per-node "$per_node" --slow-node 3 >"$out/synthetic-$n.json"
    read -r wall kb rc < <(measure "$out/report-$n.stdout" "$GPUSCALE" report "$out/synthetic-$n.json" \
      --json "$out/report-$n.json" --csv "$out/report-$n.csv" --html "$out/report-$n.html" --prom "$out/report-$n.prom")
    reports+=("$(python3 - "$n" "$wall" "$kb" "$rc" "$out" <<'PY'
import os, sys
n, wall, kb, rc, out = sys.argv[1:]
n = int(n)
per_rank = lambda ext: os.path.getsize(f"{out}/report-{n}.{ext}") / n / 1024
print(f"{n:6} {wall:>7} {rc:>3} {int(kb) // 1024:8} {os.path.getsize(f'{out}/synthetic-{n}.json') / n / 1024:9.1f} "
      f"{per_rank('json'):9.1f} {per_rank('csv'):8.2f} {per_rank('html'):9.2f} {per_rank('prom'):8.3f}")
PY
)")
    echo "${reports[-1]}" >>"$out/rows.txt"
  done
fi

echo "--- gpuscale's own cost, CPU backend, $per_node ranks per emulated node ($(nproc) cores)"
echo "run              ranks nodes  wall s  rc  rank0 MB  JSON KiB/rank  lines  pair rounds"
printf '%s\n' "${runs[@]}"
echo "--- gpuscale report of synthetic runs (memory floor: gpuscale --version, $floor MB)"
echo " ranks  wall s  rc  peak MB  in KiB/rank  JSON KiB/rank  CSV KiB/rank  HTML KiB/rank  prom KiB/rank"
printf '%s\n' "${reports[@]}"
