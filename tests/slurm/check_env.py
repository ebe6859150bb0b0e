"""Asserts what a Slurm-launched `gpuscale env --device cpu --json` must hold.

check_env.py FILE --ranks N --launcher PREFIX [--srun-task yes|no] [--job-id ID]
Fails (exit 1, naming the fact) on the first wrong fact: rank count, distinct ranks and processes,
local ranks 0..N-1 on one node (the binding input), launcher, Slurm job id, the Slurm task ids that
may be trusted, a passing smoke allreduce, no world-size or layout mismatch.
"""
import argparse
import json
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--ranks", type=int, required=True)
    p.add_argument("--launcher", required=True)
    p.add_argument("--srun-task", choices=["yes", "no"], default="yes")
    p.add_argument("--job-id", default="")
    a = p.parse_args()
    d = json.load(open(a.file))
    ranks = d["ranks"]
    n = a.ranks

    def need(ok, what):
        if not ok:
            sys.exit(f"FAIL {a.file}: {what}")

    need(d["world"] == {"size": n, "nodes": 1}, f"world {d['world']}, wanted {n} ranks on 1 node")
    need([r["rank"] for r in ranks] == list(range(n)), "ranks are not 0..n-1")
    need(len({r["pid"] for r in ranks}) == n, "ranks share a process")
    need(sorted(r["local_rank"] for r in ranks) == list(range(n)), f"local ranks {[r['local_rank'] for r in ranks]}")
    need(all(r["local_size"] == n and r["node_count"] == 1 and r["world_size"] == n for r in ranks), "local size / nodes")
    for r in ranks:
        need(r["launcher"].startswith(a.launcher), f"rank {r['rank']} launcher '{r['launcher']}', wanted {a.launcher}")
        s = r.get("slurm")
        need(s is not None and s["job_id"], f"rank {r['rank']} has no Slurm job id")
        need(not a.job_id or s["job_id"] == a.job_id, f"job id {s['job_id']}, wanted {a.job_id}")
        need(s["job_id"] == ranks[0]["slurm"]["job_id"], "ranks disagree on the job id")
        need(s["nodes"] == 1 and s["node_list"] == "localhost", f"Slurm nodes {s['nodes']} {s['node_list']}")
        if a.srun_task == "yes":
            need(s["task_ids_trusted"] and s["step_id"] != "", f"rank {r['rank']} is not an srun task: {s}")
            need(s["procid"] == r["rank"] and s["localid"] == r["local_rank"], f"Slurm ids {s['procid']}/{s['localid']}")
            need(s["tasks"] == n and s["tasks_per_node"] == str(n), f"Slurm tasks {s['tasks']} per node {s['tasks_per_node']}")
        else:
            # mpirun's ranks inherit the batch script's SLURM_PROCID=0 / SLURM_LOCALID=0: never trusted.
            need(not s["task_ids_trusted"] and s["procid"] == -1 and s["localid"] == -1, f"untrusted ids kept: {s}")
        need(r["smoke_allreduce"]["passed"], f"rank {r['rank']} smoke allreduce: {r['smoke_allreduce']}")
    bad = [c for c in d["checks"] if c["id"] in ("world-size-mismatch", "slurm-layout-mismatch")]
    need(not bad, f"launch checks fired: {bad}")
    need(d["verdict"]["passed"], f"verdict {d['verdict']}")
    print(f"{a.file}: {n} ranks, launcher {ranks[0]['launcher']}, Slurm job {ranks[0]['slurm']['job_id']}: ok")


main()
