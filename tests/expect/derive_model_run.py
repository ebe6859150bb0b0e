#!/usr/bin/env python3
"""Derives a run of another GPU model from a real H200 run by the ratio of the documented peaks.

Usage: derive_model_run.py MODEL RUN.json[.gz] > DERIVED.json      (MODEL: h100-sxm, a100-sxm-80gb)

A derived run is not a measurement: it stands in for a real run of MODEL until one is saved. Every
compute figure is scaled by the model's dense peak for its precision over the H200's (times divided),
the burn's by the bf16 peak, the device memory figures by the HBM bandwidth, the host copies by the
PCIe link (gen4 on the A100), the training figures by the bf16 peak; the GPU's name, memory, SM count,
power limit and PCIe generation become the model's. Peaks: results/base/GpuPeak.cpp; links:
results/base/GpuReference.cpp (the data sheets).
"""
import gzip
import json
import sys

H200 = {"fp32": 67, "tf32": 494.7, "fp16": 989.4, "bf16": 989.4, "hbm": 4800, "pcie_gen": 5}
MODELS = {
    "h100-sxm": {"name": "NVIDIA H100 80GB HBM3", "fp32": 67, "tf32": 494.7, "fp16": 989.4, "bf16": 989.4,
                 "hbm": 3350, "pcie_gen": 5, "memory": 85520809984, "sms": 132, "power": 700.0},
    "a100-sxm-80gb": {"name": "NVIDIA A100-SXM4-80GB", "fp32": 19.5, "tf32": 156, "fp16": 312, "bf16": 312,
                      "hbm": 2039, "pcie_gen": 4, "memory": 85899345920, "sms": 108, "power": 400.0},
}
PCIE_LANE = {4: 1.969, 5: 3.938}


STATS = ("min", "max", "mean", "stddev", "median", "p10", "p90")


def faster(record, factor, rates=(), times=(), lists=(), stats=()):
    """A copy of record with each of `rates` multiplied by factor and each of `times`, the lists of
    times `lists` and the statistics objects of times `stats` divided by it."""
    d = dict(record)
    for k in rates:
        if isinstance(d.get(k), (int, float)):
            d[k] = d[k] * factor
    for k in times:
        if isinstance(d.get(k), (int, float)):
            d[k] = d[k] / factor
    for k in lists:
        if isinstance(d.get(k), list):
            d[k] = [x / factor for x in d[k]]
    for k in stats:
        if isinstance(d.get(k), dict):
            d[k] = {s: (v / factor if s in STATS and isinstance(v, (int, float)) else v) for s, v in d[k].items()}
    return d


def derive(run, key):
    m = MODELS[key]
    for e in run["ranks"]:
        g = e.get("gpu")
        if g:
            g.update({"name": m["name"], "memory_total_bytes": m["memory"], "sm_count": m["sms"],
                      "power_limit_w": m["power"], "pcie_gen_max": m["pcie_gen"]})
            g["pcie_gen"] = min(g.get("pcie_gen") or m["pcie_gen"], m["pcie_gen"])
            g["memory_free_bytes"] = min(g.get("memory_free_bytes") or 0, m["memory"])
            for k in ("power_management_limit_w", "power_default_limit_w"):
                if g.get(k) is not None:
                    g[k] = m["power"]
    compute = []
    for c in run.get("compute", []):
        f = m[c["precision"]] / H200[c["precision"]]
        d = faster(c, f, rates=("tflops",), lists=("samples_s",), stats=("time_s",))
        d.update(gpu=m["name"], peak_tflops=m[c["precision"]])
        compute.append(d)
    run["compute"] = compute
    half = m["bf16"] / H200["bf16"]
    burn = []
    for b in run.get("burn", []):
        d = faster(b, half, rates=("sustained_tflops", "first_tflops"))
        d["windows"] = [faster(w, half, rates=("tflops",)) for w in b.get("windows", [])]
        d["progress"] = [[t, round(f * half)] for t, f in b.get("progress", [])]
        d.update(gpu=m["name"], peak_tflops=m["bf16"], floor_tflops=None)
        burn.append(d)
    run["burn"] = burn
    link = PCIE_LANE[m["pcie_gen"]] / PCIE_LANE[H200["pcie_gen"]]
    links = []
    for l in run.get("links", []):
        d = dict(l, gpu=m["name"], hbm_peak_gbps=m["hbm"], h2d_floor_gbps=None, hbm_floor_gbps=None)
        d["copies"] = [faster(c, link, rates=("gbps",), lists=("samples_s",)) for c in l.get("copies", [])]
        d["hbm"] = [faster(h, m["hbm"] / H200["hbm"], rates=("gbps",), lists=("samples_s",)) for h in l.get("hbm", [])]
        if d.get("pcie"):
            d["pcie"] = dict(d["pcie"], gen=min(d["pcie"].get("gen") or 0, m["pcie_gen"]), gen_max=m["pcie_gen"])
        links.append(d)
    run["links"] = links
    train = run.get("train") or {}
    records = []
    for r in train.get("records", []):
        d = faster(r, half, rates=("samples_per_s",), times=("compute_s",), lists=("step_samples_s",), stats=("step_s",))
        d["ranks"] = [faster(k, half, times=("compute_s",), lists=("step_samples_s",), stats=("step_s",))
                      for k in r.get("ranks", [])]
        records.append(d)
    if train:
        train["records"] = records
    run.pop("checks", None)
    run.pop("verdict", None)
    run["command_line"] += f"  # derived for {m['name']} from an H200 run by tests/expect/derive_model_run.py"
    return run


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MODELS:
        sys.exit("usage: derive_model_run.py {" + ",".join(MODELS) + "} RUN.json[.gz] > DERIVED.json")
    opener = gzip.open if sys.argv[2].endswith(".gz") else open
    with opener(sys.argv[2], "rt") as f:
        run = json.load(f)
    json.dump(derive(run, sys.argv[1]), sys.stdout)


if __name__ == "__main__":
    main()
