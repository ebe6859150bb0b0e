#!/usr/bin/env python3
"""Scales a real run report to a synthetic fleet run for `gpuscale report`'s scale test and bench.

Usage: synthetic_run.py TEMPLATE.json RANKS [--per-node K] [--slow-node N] [--seed S] > RUN.json

Every per-rank record of TEMPLATE (lists of objects with a "rank", e.g. ranks, compute, burn, links, the
training records' per-rank figures) is copied to RANKS ranks from template rank 0 (whose figures stand
for a healthy GPU: the template's own rank-to-rank spread would repeat in every node; a list on fewer
ranks than the template, such as a training run on fewer GPUs, keeps its ranks with rank 0's figures);
ranks get hosts node0000, node0001, ... of K ranks each and an H200 with its own UUID and PCI bus id,
so the report judges them as one GPU model. Per-rank figures get +-1% noise; --slow-node N lowers its
ranks' figures by 30%. The localisation's per-node records are laid out for the new node count.
"""
import argparse
import copy
import json
import random
import sys

# Figures that the noise and the slow node touch: throughputs (higher is better) and times.
THROUGHPUT_SUFFIXES = ("_gbps", "tflops")
TIME_SUFFIXES = ("_s",)


def gpu_block(rank, local, per_node):
    return {
        "cuda_index": 0, "name": "NVIDIA H200", "uuid": f"GPU-{rank:08x}-5eed-4a11-9a00-{rank:012x}",
        "pci_bus_id": f"00000000:{0x18 + 0x10 * local:02X}:00.0", "cc_major": 9, "cc_minor": 0,
        "memory_total_bytes": 150754820096, "memory_free_bytes": 149000000000, "sm_count": 132,
        "numa_node": local * 2 // per_node, "sm_clock_mhz": 1980, "sm_clock_max_mhz": 1980,
        "memory_clock_mhz": 3201, "temperature_c": 34, "power_draw_w": 120.0, "power_limit_w": 700.0,
        "pcie_gen": 5, "pcie_width": 16, "pcie_gen_max": 5, "pcie_width_max": 16,
    }


def scale_figures(value, factor, rng):
    """Returns `value` with every throughput multiplied and every time divided by factor (with noise)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(v, float) and k.endswith(THROUGHPUT_SUFFIXES):
                out[k] = v * factor * rng.uniform(0.99, 1.01)
            elif isinstance(v, float) and k.endswith(TIME_SUFFIXES) and k != "elapsed_s":
                out[k] = v / factor * rng.uniform(0.99, 1.01)
            else:
                out[k] = scale_figures(v, factor, rng)
        return out
    if isinstance(value, list):
        return [scale_figures(v, factor, rng) for v in value]
    return value


class Fleet:
    def __init__(self, ranks, per_node, slow_node, seed):
        self.ranks, self.per_node, self.slow_node = ranks, per_node, slow_node
        self.nodes = (ranks + per_node - 1) // per_node
        self.rng = random.Random(seed)

    def host(self, node):
        return f"node{node:04d}"

    def relabel(self, record, rank):
        node, local = divmod(rank, self.per_node)
        record = scale_figures(record, 0.7 if node == self.slow_node else 1.0, self.rng)
        record["rank"] = rank
        if "node" in record:
            record["node"] = node
        if "host" in record:
            record["host"] = self.host(node)
        return record

    def per_rank(self, records, template_size):
        """Every rank's records are template rank 0's, relabelled. A list that does not cover every rank
        (a training run on fewer GPUs than the job) keeps its ranks, each with rank 0's figures: the
        template's own spread must not single out a node of the fleet."""
        by_rank = {}
        for rec in records:
            by_rank.setdefault(rec["rank"], []).append(rec)
        ranks = range(self.ranks) if len(by_rank) >= template_size else sorted(by_rank)
        out = []
        for rank in ranks:
            for rec in by_rank[0]:
                out.append(self.relabel(copy.deepcopy(rec), rank))
        return out

    def env(self, template, rank):
        node, local = divmod(rank, self.per_node)
        e = self.relabel(copy.deepcopy(template), rank)
        e.update(world_size=self.ranks, local_rank=local, local_size=self.per_node, node=node,
                 node_count=self.nodes, backend="cuda", pid=100000 + rank, gpu=gpu_block(rank, local, self.per_node))
        return e

    def isolation(self, iso):
        """The localisation laid out for this many nodes: node-local and round records per node."""
        if iso is None:
            return None
        iso = copy.deepcopy(iso)
        iso["node_hosts"] = [self.host(n) for n in range(self.nodes)]
        local = iso.get("node_local") or [{"node": 0, "busbw_gbps": 100.0}]
        iso["node_local"] = [scale_figures(dict(local[n % len(local)], node=n), 0.7 if n == self.slow_node else 1.0,
                                           self.rng) for n in range(self.nodes)]
        rounds = sorted({m["round"] for m in iso.get("matches", [])}) or [0]
        sample = (iso.get("matches") or [{"sendrecv_gbps": 10.0, "allreduce_busbw_gbps": 10.0}])[0]
        matches = []
        for r in rounds:
            order = list(range(self.nodes))
            self.rng.shuffle(order)
            for a, b in zip(order[0::2], order[1::2]):
                factor = 0.7 if self.slow_node in (a, b) else 1.0
                for node, partner in ((a, b), (b, a)):
                    matches.append(scale_figures(dict(sample, round=r, node=node, partner=partner), factor, self.rng))
        iso["matches"] = matches
        iso["bisection"], iso["suspects"], iso["bisection_node"] = [], [], -1
        return iso


def rank_lists(value, fleet, size):
    """Every list of per-rank objects anywhere under `value`, scaled to the fleet."""
    if isinstance(value, dict):
        out = {k: rank_lists(v, fleet, size) for k, v in value.items()}
        if out.get("gpus") == size and len(out.get("ranks") or []) == fleet.ranks:
            out["gpus"] = fleet.ranks  # a training run on every GPU of the job: on every GPU of the fleet
        return out
    if isinstance(value, list):
        if value and all(isinstance(v, dict) and isinstance(v.get("rank"), int) for v in value):
            return fleet.per_rank(value, size)
        return [rank_lists(v, fleet, size) for v in value]
    return value


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("template")
    p.add_argument("ranks", type=int)
    p.add_argument("--per-node", type=int, default=8)
    p.add_argument("--slow-node", type=int, default=-1)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    run = json.load(open(a.template))
    size = run["world"]["size"]
    fleet = Fleet(a.ranks, a.per_node, a.slow_node, a.seed)
    envs = run.pop("ranks")
    checks = run.pop("checks")
    spans = run.pop("trace_spans", [])
    out = rank_lists(run, fleet, size)
    out["ranks"] = [fleet.env(envs[0], r) for r in range(a.ranks)]
    out["checks"], out["trace_spans"] = checks, spans
    out["world"] = {"size": a.ranks, "nodes": fleet.nodes}
    coll = out.get("collectives")
    if coll:
        for sweep in coll.get("sweeps", []):
            if sweep.get("group") == "world":
                sweep["ranks"] = a.ranks
        coll.pop("pairs", None)
        coll["isolation"] = fleet.isolation(coll.get("isolation"))
        if coll["isolation"] is None:
            del coll["isolation"]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
