#!/usr/bin/env python3
"""The last table of bench/collectives_vs_torch.sh: allreduce busbw (GB/s) per size from gpuscale (its
headline: nccl-tests' back-to-back figure, the slowest rank's; and the median of its per-iteration
pass), the NCCL ceiling (bench/nccl_ceiling, both ways), torch before and after gpuscale, the ratios, and
the acceptance lines of issue 3:
  gpuscale >= torch at every size >= 32 MiB (against the better of the two torch runs);
  gpuscale within 2% of the ceiling at every size >= 32 MiB (batch against batch, median against median).
Usage: collectives_table.py OUT_DIR SWEEP_WALL_S"""
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


def main():
    out, sweep_s = sys.argv[1], sys.argv[2]
    g = json.load(open(f"{out}/gpuscale.json"))
    ar = next(s for s in g["collectives"]["sweeps"] if s["op"] == "allreduce")
    factor = ar["busbw_factor"]
    ceiling = load(f"{out}/ceiling.json")
    ceiling_torch = load(f"{out}/ceiling_torch_nccl.json")
    torch_runs = [load(f"{out}/torch_{w}.json") for w in ("before", "after")]
    c_med, c_batch = by_size(ceiling, "median_busbw_gbps"), by_size(ceiling, "batch_busbw_gbps")
    ct_batch = by_size(ceiling_torch, "batch_busbw_gbps")
    t1, t2 = (by_size(t, "busbw_gbps") for t in torch_runs)
    second = load(f"{out}/gpuscale_again.json")
    again = {r["size_bytes"]: r["out_of_place"]["busbw_gbps"]
             for r in (second["collectives"]["sweeps"][0]["rows"] if second else [])}
    t = next((t for t in torch_runs if t), {"torch": "?", "nccl": "?"})

    print(f"allreduce float sum out of place, {ar['ranks']} ranks, busbw GB/s, 20 timed iterations after 5 warm-up")
    print("  gs: gpuscale's busbw column, 20 back to back between one event pair, the slowest rank (nccl-tests' "
          "figure); gs2: the same, allreduce run again last; gs-itmed: median of its per-iteration pass "
          "(an event between iterations); gs/torch: best of gs, gs2 over best of torch1, torch2")
    print(f"  ceil-*: bench/nccl_ceiling (NCCL {nccl_version(ceiling)}, no harness), the same two figures"
          + (f"; ceilT-bat: the same program on torch's NCCL {nccl_version(ceiling_torch)}" if ceiling_torch else ""))
    print(f"  torch1/torch2: torch {t['torch']} (NCCL {t['nccl']}), 20 between one event pair, run before and after "
          "gpuscale; ratios against the better of the two")
    head = ["size(B)", "gs", "gs2", "gs-itmed", "ceil-bat", "ceil-med", "ceilT-bat", "torch1", "torch2",
            "gs/torch", "gs/ceil", "med/ceil"]
    print(f"{head[0]:>10} " + " ".join(f"{h:>9}" for h in head[1:]))
    vs_torch, vs_ceiling = [], []  # (size, ratio or None) at sizes >= 32 MiB
    for r in ar["rows"]:
        size, o = r["size_bytes"], r["out_of_place"]
        bat, med = o["busbw_gbps"], busbw(size, o["iterations"]["median"], factor)
        best_torch = max((x for x in (t1.get(size), t2.get(size)) if x is not None), default=None)
        best_gs = max((x for x in (bat, again.get(size)) if x is not None), default=None)
        rt_bat = ratio(best_gs, best_torch)
        rc_bat, rc_med = ratio(bat, c_batch.get(size)), ratio(med, c_med.get(size))
        print(f"{size:>10} " + " ".join(cell(x) for x in (bat, again.get(size), med, c_batch.get(size), c_med.get(size),
                                                        ct_batch.get(size), t1.get(size), t2.get(size)))
              + " " + " ".join(cell(x, 9, 3) for x in (rt_bat, rc_bat, rc_med)))
        if size >= BIG:
            vs_torch.append((size, rt_bat))
            vs_ceiling += [(size, rc_bat), (size, rc_med)]

    def verdict(pairs, share, what):
        fails = sorted({s for s, x in pairs if x is None or x < share})
        known = [x for _, x in pairs if x is not None]
        worst = f"lowest ratio {min(known):.3f}" if known else "no figures"
        failed = fails or not pairs
        print(f"{'FAIL' if failed else 'PASS'}: {what} at every size >= 32 MiB ({worst}"
              f"{'; fails at ' + ', '.join(map(str, fails)) if fails else ''})")

    verdict(vs_torch, 1.0, "gpuscale busbw >= torch (best of 2 runs each)")
    verdict(vs_ceiling, CEILING_SHARE, f"gpuscale within {100 * (1 - CEILING_SHARE):.0f}% of the NCCL ceiling "
                                       "(batch and per-iteration median)")
    lat = json.load(open(f"{out}/lat_graph.json"))["collectives"]["sweeps"][0]["headline"]
    h = ar["headline"]
    print(f"peak busbw {h['peak_busbw_gbps']:.1f} GB/s at {h['peak_size_bytes']} B; link {h['link']} "
          f"{(h['link_gbps'] or 0):.0f} GB/s ({(h['peak_percent_of_link'] or 0):.1f}%)")
    print(f"8 B allreduce latency (median of 200, slowest rank): {lat['latency_stream_s'] * 1e6:.2f} us stream, "
          f"{lat['latency_graph_s'] * 1e6:.2f} us CUDA graph")
    print(f"full 7-op sweep 8 B..1 GiB x4 (+ env, scaling, pairs): {sweep_s} s wall; verdict {g['verdict']['result']}")


if __name__ == "__main__":
    main()
