#!/usr/bin/env python3
"""Usage: collectives_table.py OUT_DIR SWEEP_WALL_S REPEAT   (run by collectives_vs_torch.sh)
The last table of bench/collectives_vs_torch.sh: allreduce busbw (GB/s) per size from gpuscale (its
headline: nccl-tests' back-to-back figure, the slowest rank's; and the median of its per-iteration
pass), the NCCL ceiling (bench/nccl_ceiling, both ways), torch, the ratios, and
the acceptance lines:
  gpuscale >= torch at every size >= 32 MiB (median of REPEAT alternating runs against median, in place
  against torch's in-place all_reduce);
  gpuscale within 2% of the ceiling at every size >= 32 MiB (batch against batch, median against median)."""
import json
import os
import sys

BIG = 32 << 20  # sizes from here up are bandwidth-bound: the acceptance applies there
CEILING_SHARE = 0.98


def load(path):
    return json.load(open(path)) if os.path.exists(path) else None


def busbw(size_bytes, seconds, factor):
    return size_bytes / seconds / 1e9 * factor if seconds and seconds > 0 else None


def by_size(doc, key):
    return {r["size_bytes"]: r[key] for r in doc["rows"]} if doc else {}


def nccl_version(doc):
    if not doc:
        return "?"
    v = doc["nccl_version"]  # NCCL_VERSION_CODE: major * 10000 + minor * 100 + patch
    return f"{v // 10000}.{v // 100 % 100}.{v % 100}"


def cell(x, width=9, digits=2):
    return f"{x:{width}.{digits}f}" if x is not None else " " * (width - 1) + "-"


def ratio(a, b):
    return a / b if a is not None and b else None


def median(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    mid = len(xs) // 2
    return xs[mid] if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2


def gs_busbw(doc, place):
    rows = doc["collectives"]["sweeps"][0]["rows"] if doc else []
    return {r["size_bytes"]: r[place]["busbw_gbps"] for r in rows}


def main():
    out, sweep_s, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
    g = json.load(open(f"{out}/gpuscale.json"))
    ar = next(s for s in g["collectives"]["sweeps"] if s["op"] == "allreduce")
    factor = ar["busbw_factor"]
    ceiling = load(f"{out}/ceiling.json")
    ceiling_torch = load(f"{out}/ceiling_torch_nccl.json")
    c_med, c_batch = by_size(ceiling, "median_busbw_gbps"), by_size(ceiling, "batch_busbw_gbps")
    ct_batch = by_size(ceiling_torch, "batch_busbw_gbps")
    torch_docs = [load(f"{out}/torch_{i}.json") for i in range(1, repeat + 1)]
    torch_runs = [by_size(t, "busbw_gbps") for t in torch_docs]
    gs_docs = [load(f"{out}/gs_{i}.json") for i in range(1, repeat + 1)]
    gs_runs = [gs_busbw(d, "in_place") for d in gs_docs]  # torch's all_reduce is in place
    gs_oop = [gs_busbw(d, "out_of_place") for d in gs_docs]  # the ceiling program's is out of place
    t = next((t for t in torch_docs if t), {"torch": "?", "nccl": "?"})

    print(f"allreduce float sum out of place, {ar['ranks']} ranks, busbw GB/s, 20 timed iterations after 5 warm-up")
    print(f"  gs-med/min/max: gpuscale's in-place busbw (20 back to back between one event pair, the slowest rank: "
          f"nccl-tests' figure) over {repeat} runs of allreduce alone, against torch's all_reduce (in place); "
          "gs-oop: the out-of-place median, against the ceiling (out of place); sweep: out of place in the "
          "seven-op sweep; itmed: median of the sweep's per-iteration pass (an event between iterations)")
    print(f"  torch-med/min/max: torch {t['torch']} (NCCL {t['nccl']}), the same method, {repeat} runs alternating "
          "with gpuscale's; gs/torch = median over median")
    print(f"  ceil-*: bench/nccl_ceiling (NCCL {nccl_version(ceiling)}, no harness), both figures"
          + (f"; ceilT-bat: the same program on torch's NCCL {nccl_version(ceiling_torch)}" if ceiling_torch else ""))
    head = ["size(B)", "gs-med", "gs-min", "gs-max", "torch-med", "torch-min", "torch-max", "gs-oop", "sweep", "itmed",
            "ceil-bat", "ceil-med", "ceilT-bat", "gs/torch", "gs/ceil", "itmed/ceil"]
    print(f"{head[0]:>10} " + " ".join(f"{h:>9}" for h in head[1:]))
    vs_torch, vs_ceiling = [], []  # (size, ratio or None) at sizes >= 32 MiB
    for r in ar["rows"]:
        size, o = r["size_bytes"], r["out_of_place"]
        gs = [run.get(size) for run in gs_runs]
        tr = [run.get(size) for run in torch_runs]
        gs_med, t_med, oop_med = median(gs), median(tr), median(run.get(size) for run in gs_oop)
        lo_hi = lambda xs: (min((x for x in xs if x is not None), default=None),
                            max((x for x in xs if x is not None), default=None))
        itmed = busbw(size, o["iterations"]["median"], factor)
        rt, rc, rc_it = ratio(gs_med, t_med), ratio(oop_med, c_batch.get(size)), ratio(itmed, c_med.get(size))
        figures = (gs_med, *lo_hi(gs), t_med, *lo_hi(tr), oop_med, o["busbw_gbps"], itmed, c_batch.get(size), c_med.get(size),
                   ct_batch.get(size))
        print(f"{size:>10} " + " ".join(cell(x) for x in figures) + " " + " ".join(cell(x, 9, 3) for x in (rt, rc, rc_it)))
        if size >= BIG:
            vs_torch.append((size, rt))
            vs_ceiling += [(size, rc), (size, rc_it)]

    def verdict(pairs, share, what):
        fails = sorted({s for s, x in pairs if x is None or x < share})
        known = [x for _, x in pairs if x is not None]
        worst = f"lowest ratio {min(known):.3f}" if known else "no figures"
        failed = fails or not pairs
        print(f"{'FAIL' if failed else 'PASS'}: {what} at every size >= 32 MiB ({worst}"
              f"{'; fails at ' + ', '.join(map(str, fails)) if fails else ''})")

    verdict(vs_torch, 1.0, f"gpuscale busbw >= torch, both in place (median of {repeat} runs each)")
    verdict(vs_ceiling, CEILING_SHARE, f"gpuscale within {100 * (1 - CEILING_SHARE):.0f}% of the NCCL ceiling "
                                       "(out-of-place median of runs against batch; per-iteration median against median)")
    lat = json.load(open(f"{out}/lat_graph.json"))["collectives"]["sweeps"][0]["headline"]
    h = ar["headline"]
    print(f"peak busbw {h['peak_busbw_gbps']:.1f} GB/s at {h['peak_size_bytes']} B; link {h['link']} "
          f"{(h['link_gbps'] or 0):.0f} GB/s ({(h['peak_percent_of_link'] or 0):.1f}%)")
    print(f"8 B allreduce latency (median of 200, slowest rank): {lat['latency_stream_s'] * 1e6:.2f} us stream, "
          f"{lat['latency_graph_s'] * 1e6:.2f} us CUDA graph")
    print(f"full 7-op sweep 8 B..1 GiB x4 (+ env, scaling, pairs): {sweep_s} s wall; verdict {g['verdict']['result']}")


if __name__ == "__main__":
    main()
