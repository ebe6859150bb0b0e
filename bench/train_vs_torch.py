#!/usr/bin/env python3
"""PyTorch's side of bench/train_vs_torch.sh, and the side-by-side table.
Usage: train_vs_torch.py ddp|local|table [options]   (run by train_vs_torch.sh; --help)

  ddp    (under torch.distributed.run) DistributedDataParallel, default and
         gradient_as_bucket_view=True + static_graph=True
  local  one process: single GPU, and nn.DataParallel over every visible GPU (batch x GPUs)
  table  reads gpuscale's run report and the two JSON files above, prints the comparison

The models are gpuscale's presets: Linear/Conv2d without bias, ReLU between layers, loss = mean of
the last layer's output, SGD (lr 0.01). bf16 = torch.autocast(bfloat16) with fp32 master weights,
channels_last for the convolutions; fp32 has TF32 off; cudnn.benchmark on. A step is zero_grad,
forward, loss, backward, optimizer step, timed with CUDA events around it (median after warm-up),
the same method gpuscale uses; --warmup-s S then runs steps until S seconds have passed (the DDP ranks
agreeing on the largest count), gpuscale's --warmup-ms. Peak memory = torch.cuda.max_memory_allocated from model creation on.
"""
import argparse
import json
import math
import os
import statistics
import time

try:
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
except ImportError:  # `table` needs no torch
    torch = dist = nn = None

PRESETS = {"mlp": 256, "cnn": 32}
PRECISIONS = ["fp32", "bf16"]
WARMUP = 5


def make_model(name):
    layers = []
    for i in range(8):
        layers.append(nn.Linear(4096, 4096, bias=False) if name == "mlp" else nn.Conv2d(256, 256, 3, padding=1, bias=False))
        if i < 7:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def make_input(name, batch, precision, device):
    if name == "mlp":
        return torch.rand(batch, 4096, device=device) * 2 - 1
    x = torch.rand(batch, 256, 56, 56, device=device) * 2 - 1
    return x.contiguous(memory_format=torch.channels_last) if precision == "bf16" else x


def configure(precision):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = True


def settle(step, seconds, device, agree=None):
    """Steps back to back until `seconds` have run (the GPU's clocks and power settled); agree(count)
    returns the count every DDP rank runs."""
    if seconds <= 0:
        return
    torch.cuda.synchronize(device)
    start = time.perf_counter()
    step()
    torch.cuda.synchronize(device)
    count = max(1, math.ceil(seconds / (time.perf_counter() - start)))
    for _ in range(agree(count) if agree else count):
        step()


def time_steps(model, x, precision, iters, device, warmup_s=0.0, agree=None):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def step():
        opt.zero_grad()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=precision == "bf16"):
            loss = model(x).float().mean()
        loss.backward()
        opt.step()

    for _ in range(WARMUP):
        step()
    settle(step, warmup_s, device, agree)
    torch.cuda.synchronize(device)
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    for start, stop in events:
        start.record()
        step()
        stop.record()
    torch.cuda.synchronize(device)
    return [s.elapsed_time(e) * 1e-3 for s, e in events]


def build(name, precision, device):
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats(device)
    model = make_model(name).to(device)
    if name == "cnn" and precision == "bf16":
        model = model.to(memory_format=torch.channels_last)
    return model


def agreed_count(device):
    def agree(count):
        t = torch.tensor([count], device=device)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        return int(t.item())
    return agree


def run_ddp(args):
    local = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local)
    dist.init_process_group("nccl", device_id=torch.device("cuda", local))
    device = torch.device("cuda", local)
    results = []
    for name, batch in PRESETS.items():
        for precision in PRECISIONS:
            configure(precision)
            variants = [("ddp", {}), ("ddp_gbv_static", dict(gradient_as_bucket_view=True, static_graph=True))]
            if precision == "bf16":
                variants.append(("ddp_bf16_hook", {}))
            for variant, kwargs in variants:
                model = nn.parallel.DistributedDataParallel(build(name, precision, device), device_ids=[local], **kwargs)
                if variant == "ddp_bf16_hook":
                    model.register_comm_hook(None, default_hooks.bf16_compress_hook)
                x = make_input(name, batch, precision, device)
                dist.barrier()
                samples = time_steps(model, x, precision, args.iters, device, args.warmup_s, agreed_count(device))
                t = torch.tensor(samples, device=device)
                dist.all_reduce(t, op=dist.ReduceOp.MAX)  # the slowest rank per step, as gpuscale reports
                peak = torch.tensor([torch.cuda.max_memory_allocated(device)], device=device, dtype=torch.float64)
                dist.all_reduce(peak, op=dist.ReduceOp.MAX)
                results.append(dict(model=name, precision=precision, strategy=variant, gpus=dist.get_world_size(),
                                    batch_per_gpu=batch, step_s=statistics.median(t.tolist()), peak_bytes=int(peak.item())))
                del model
    if dist.get_rank() == 0:
        json.dump(results, open(args.out, "w"), indent=1)
    dist.destroy_process_group()


def run_local(args):
    n = torch.cuda.device_count()
    device = torch.device("cuda", 0)
    for d in range(n):  # memory statistics need each device's allocator initialised first
        torch.zeros(1, device=torch.device("cuda", d))
    results = []
    for name, batch in PRESETS.items():
        for precision in PRECISIONS:
            configure(precision)
            runs = [("single", 1, build(name, precision, device))]
            runs.append(("dataparallel", n, nn.DataParallel(build(name, precision, device), device_ids=list(range(n)))))
            for strategy, gpus, model in runs:
                for d in range(n):
                    torch.cuda.reset_peak_memory_stats(d)
                x = make_input(name, batch * gpus, precision, device)
                samples = time_steps(model, x, precision, args.iters, device, args.warmup_s)
                peak = max(torch.cuda.max_memory_allocated(d) for d in range(gpus))
                results.append(dict(model=name, precision=precision, strategy=strategy, gpus=gpus, batch_per_gpu=batch,
                                    step_s=statistics.median(samples), peak_bytes=peak))
            del runs
    json.dump(results, open(args.out, "w"), indent=1)


def gpuscale_rows(paths, grad_dtype="fp32"):
    rows = {}
    for path in paths:
        for r in json.load(open(path))["train"]["records"]:
            if r["skipped_reason"] or r["scaling"] != "weak" or r["accum"] != 1 or r["h2d"]:
                continue
            if r["strategy"] == "ddp" and (r["comm_priority"] != "normal" or r["grad_dtype"] != grad_dtype):
                continue
            if r["strategy"] != "ddp" and path != paths[0]:
                continue  # single and dp: from the main run
            rows[(r["model"], r["precision"], r["strategy"], r["gpus"])] = r
    return rows


def dp_phases(g, n):
    """Where gpuscale's dp step goes (ms per phase), to explain it against nn.DataParallel."""
    for (name, p, strategy, gpus), r in sorted(g.items()):
        if strategy == "dp" and gpus == n and r.get("dp"):
            parts = ", ".join(f"{k[:-2]} {v * 1e3:.2f}" for k, v in r["dp"].items() if k.endswith("_s") and v is not None)
            print(f"  gs dp {name}-{p} x{n}: {parts}")


def tuned(path, n):
    """gpuscale's mlp-bf16 DDP with bf16 gradients, 128 MiB buckets and 64 NCCL CTAs: its efficiency."""
    if not path or not os.path.exists(path):
        return None
    rows = {(r["strategy"], r["gpus"]): r for r in json.load(open(path))["train"]["records"] if r["scaling"] == "weak"}
    ddp, single = rows.get(("ddp", n)), rows.get(("single", 1))
    if not ddp or ddp["efficiency"] is None:
        return None
    print(f"mlp-bf16, bf16 gradients, --bucket-mb 128 --comm-ctas 64: gs ddp x{n} {ddp['step_s']['median'] * 1e3:.2f} "
          f"ms (compute-only {ddp['compute_s'] * 1e3 if ddp.get('compute_s') else float('nan'):.2f}, "
          f"comm-only {ddp['comm_s'] * 1e3 if ddp.get('comm_s') else float('nan'):.2f}, overlap "
          f"{ddp['overlap_pct'] or 0:.0f}%), single {single['step_s']['median'] * 1e3 if single else float('nan'):.2f} "
          f"ms: efficiency {ddp['efficiency'] * 100:.0f}%")
    return ddp["efficiency"]


def compressed_table(args, torch_rows, n):
    g = gpuscale_rows(args.gpuscale, "bf16")
    ddp, single = g.get(("mlp", "bf16", "ddp", n)), g.get(("mlp", "bf16", "single", 1))
    hook = torch_rows.get(("mlp", "bf16", "ddp_bf16_hook"))
    if not ddp or not hook:
        return []
    ratio = ddp["step_s"]["median"] / hook["step_s"]
    eff = ddp["efficiency"]
    print(f"mlp-bf16 with bf16 gradients on the wire: gs ddp {ddp['step_s']['median'] * 1e3:.2f} ms "
          f"(overlap {ddp['overlap_pct'] or 0:.0f}%, efficiency {(eff or 0) * 100:.0f}%, single "
          f"{single['step_s']['median'] * 1e3 if single else float('nan'):.2f} ms) vs torch DDP + bf16_compress_hook "
          f"{hook['step_s'] * 1e3:.2f} ms: ratio {ratio:.2f}")
    return [("mlp-bf16 (bf16 grads) gpuscale DDP <= torch DDP + bf16_compress_hook", ratio <= 1.0),
            ("mlp-bf16 (bf16 grads) DDP weak-scaling efficiency >= 75%", eff is not None and eff >= 0.75)]


def ctas(ddp):
    """The CTAs gpuscale's DDP communicator asked NCCL for: 'nccl' for NCCL's choice, (auto) when timed."""
    if not ddp:
        return "-"
    kept = str(ddp.get("comm_ctas") or "nccl")
    return kept + ("(auto)" if ddp.get("comm_ctas_trials") else "")


def ctas64_torch(path, g, n):
    """torch's best DDP with NCCL_MIN_CTAS=64 in its environment: the comparison at equal NCCL CTAs."""
    if not path or not os.path.exists(path):
        return
    rows = {}
    for r in json.load(open(path)):
        key = (r["model"], r["precision"])
        if r["strategy"] in ("ddp", "ddp_gbv_static") and (key not in rows or r["step_s"] < rows[key]):
            rows[key] = r["step_s"]
    for (name, p), best in sorted(rows.items()):
        ddp = g.get((name, p, "ddp", n))
        if ddp:
            print(f"  torch best DDP {name}-{p} with NCCL_MIN_CTAS=64: {best * 1e3:.2f} ms; gs ddp / that "
                  f"{ddp['step_s']['median'] / best:.2f}")


def table(args):
    g = gpuscale_rows(args.gpuscale)
    torch_rows = {}
    for path in args.torch:
        for r in json.load(open(path)):
            torch_rows[(r["model"], r["precision"], r["strategy"])] = r
    n = max(k[3] for k in g)
    head = ("model", "prec", "torch 1GPU", "torch DP", "torch DDP", "torch DDP gbv+sg", "gs single", "gs dp",
            "gs ddp", "gs ctas", "gs/best DDP", "gs overlap %", "gs eff %", "torch DDP MiB", "gs ddp MiB", "torch DP ms/gs dp")
    lines, goals = [head], []
    for name in PRESETS:
        for p in PRECISIONS:
            t = {s: torch_rows.get((name, p, s)) for s in ("single", "dataparallel", "ddp", "ddp_gbv_static")}
            ddp, dp, single = g.get((name, p, "ddp", n)), g.get((name, p, "dp", n)), g.get((name, p, "single", 1))
            ms = lambda r, key="step_s": f"{r[key] * 1e3:.2f}" if r else "-"
            gms = lambda r: f"{r['step_s']['median'] * 1e3:.2f}" if r else "-"
            best = min((t[s] for s in ("ddp", "ddp_gbv_static") if t[s]), key=lambda r: r["step_s"], default=None)
            ratio = ddp["step_s"]["median"] / best["step_s"] if ddp and best else float("nan")
            mem_t = min((t[s]["peak_bytes"] for s in ("ddp", "ddp_gbv_static") if t[s]), default=None)
            lines.append((name, p, ms(t["single"]), ms(t["dataparallel"]), ms(t["ddp"]), ms(t["ddp_gbv_static"]),
                          gms(single), gms(dp), gms(ddp), ctas(ddp), f"{ratio:.2f}",
                          f"{ddp['overlap_pct']:.0f}" if ddp and ddp["overlap_pct"] is not None else "-",
                          f"{ddp['efficiency'] * 100:.0f}" if ddp and ddp["efficiency"] is not None else "-",
                          f"{mem_t / 2**20:.0f}" if mem_t else "-",
                          f"{ddp['peak_memory_bytes'] / 2**20:.0f}" if ddp else "-",
                          f"{t['dataparallel']['step_s'] / dp['step_s']['median']:.2f}" if dp and t["dataparallel"] else "-"))
            limit = 0.75 if (name, p) == ("mlp", "bf16") else 1.0
            goals.append((f"{name}-{p} gpuscale DDP <= {limit} x best torch DDP", ratio <= limit))
            if dp and t["dataparallel"]:
                goals.append((f"{name}-{p} gpuscale dp faster than nn.DataParallel",
                              dp["step_s"]["median"] < t["dataparallel"]["step_s"]))
            if ddp and mem_t:
                goals.append((f"{name}-{p} gpuscale DDP peak memory <= torch DDP", ddp["peak_memory_bytes"] <= mem_t))
            if (name, p) == ("mlp", "bf16") and ddp and ddp["efficiency"] is not None:
                goals.append(("mlp-bf16 DDP weak-scaling efficiency >= 75%", ddp["efficiency"] >= 0.75))
    widths = [max(len(str(row[i])) for row in lines) for i in range(len(head))]
    print(f"Training step time (ms, median; DDP/DP over {n} GPUs, per-GPU batch mlp 256, cnn 32; gs = gpuscale)")
    for row in lines:
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(row, widths)))
    dp_phases(g, n)
    ctas64_torch(args.torch_ctas64, g, n)
    goals += compressed_table(args, torch_rows, n)
    best = tuned(args.tuned, n)
    if best is not None:
        goals.append(("mlp-bf16 (bf16 grads, 128 MiB buckets, 64 NCCL CTAs) DDP weak-scaling efficiency >= 75%",
                      best >= 0.75))
    print("Goals:")
    for text, ok in goals:
        print(f"  {'PASS' if ok else 'MISS'}  {text}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["ddp", "local", "table"])
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup-s", type=float, default=0.0, help="steps until S seconds have run before timing")
    ap.add_argument("--out")
    ap.add_argument("--gpuscale", nargs="+")
    ap.add_argument("--tuned")
    ap.add_argument("--torch-ctas64", help="torch DDP's file from a run with NCCL_MIN_CTAS=64 (printed beside)")
    ap.add_argument("--torch", nargs="+")
    args = ap.parse_args()
    {"ddp": run_ddp, "local": run_local, "table": table}[args.mode](args)


if __name__ == "__main__":
    main()
