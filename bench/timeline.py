#!/usr/bin/env python3
"""Where a run's seconds went, from its --json: one row per phase (the seconds before it since the last
phase ended, its start and end from the run's start, its seconds, its share's deadline, the item that
took longest, how many items it dropped), then the run's own time and the budget it stated. Works on
a GPU or a CPU run, whole-job runs only (a phase command keeps no budget, so it has no timeline).

Usage: bench/timeline.py RUN.json [RUN.json ...] [--wall SECONDS ...]
  --wall: each run's wall time from mpirun's start to its exit, as measured outside (bench/preflight.sh
          passes it), shown beside the run's own elapsed time; the difference is MPI's start and exit.
Exit 2 on a file that is not a run with a budget.
"""
import argparse
import json
import sys


def rows(run):
    budget = run.get("budget")
    if not budget or not budget.get("phases"):
        raise ValueError("no budget timeline (a whole-job run writes one; a phase command does not)")
    previous_end = 0.0
    for p in budget["phases"]:
        # started_s: absent in files written before it was kept, where a phase starts as the last ends.
        start = p["started_s"] if "started_s" in p else previous_end
        end = p["ended_s"] or run["elapsed_s"]  # 0: the phase was still running when the file was written
        yield dict(phase=p["phase"], start=start, end=end, seconds=end - start, before=start - previous_end,
                   deadline=p["deadline_s"], longest=p.get("longest") or "", longest_s=p.get("longest_s") or 0.0,
                   dropped=len(p.get("dropped") or []), dropped_first=(p.get("dropped") or [""])[0])
        previous_end = end


def details(run):
    """Figures inside the phases that the timeline's rows do not show: NCCL's start, the burn's length."""
    out = []
    inits = [r["smoke_allreduce"]["init_s"] for r in run.get("ranks", []) if r.get("smoke_allreduce", {}).get("init_s")]
    if inits:
        out.append("env: NCCL communicator and smoke allreduce %.2f s (slowest rank)" % max(inits))
    burns = [b["elapsed_s"] for b in run.get("burn", []) if b.get("elapsed_s")]
    if burns:
        out.append("burn: %.2f s of load (longest rank)" % max(burns))
    return out


def show(path, run, wall, out):
    table = list(rows(run))
    world = run.get("world", {})
    out.write("%s: %s\n" % (path, run.get("command_line", "").split("  #")[0]))
    out.write("%-12s %7s %7s %7s %7s %8s  %s\n" % ("phase", "before", "start", "end", "s", "deadline",
                                                 "longest item (s); dropped"))
    for r in table:
        tail = "%s (%.2f)" % (r["longest"], r["longest_s"]) if r["longest"] else "-"
        if r["dropped"]:
            tail += "; dropped %d, from %s" % (r["dropped"], r["dropped_first"])
        out.write("%-12s %7.2f %7.2f %7.2f %7.2f %8.1f  %s\n" % (r["phase"], r["before"], r["start"], r["end"], r["seconds"],
                                                            r["deadline"], tail))
    boundaries = sum(r["before"] for r in table)
    if boundaries > 0:
        out.write("  between phases (the tenancy look at every GPU, the report written): %.2f s\n" % boundaries)
    for line in details(run):
        out.write("  %s\n" % line)
    elapsed, budget = run["elapsed_s"], run["budget"]["budget_s"]
    line = "run: %.2f s of a %.0f s budget (%.2fx)" % (elapsed, budget, elapsed / budget)
    if wall is not None:
        line += "; mpirun start to exit %.2f s (%.2fx)" % (wall, wall / budget)
    verdict = run.get("verdict", {})
    line += "; verdict %s" % ("PASS" if verdict.get("passed") else "FAIL")
    if world.get("size"):
        line += "; ranks %d, nodes %d" % (world["size"], world.get("nodes", 1))
    out.write(line + "\n")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--wall", nargs="*", type=float, default=[])
    args = parser.parse_args(argv)
    if args.wall and len(args.wall) != len(args.runs):
        print("timeline: --wall needs one figure per run", file=sys.stderr)
        return 2
    for i, path in enumerate(args.runs):
        try:
            run = json.load(open(path))
            show(path, run, args.wall[i] if args.wall else None, sys.stdout)
        except (OSError, ValueError, KeyError, TypeError) as e:
            print("timeline: %s: %s" % (path, e), file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
