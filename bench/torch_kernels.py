#!/usr/bin/env python3
"""Which CUDA kernels PyTorch runs for the rows where gpuscale trails it, with their times.

For each row, the bench's own work (compute_vs_torch.py: same inputs, cudnn.benchmark, the same
warm-up) is timed once, so torch has chosen its algorithms and the GPU has settled, then CALLS calls
run under torch.profiler; every CUDA kernel's name, calls and mean time is printed. Compare the names
with gpuscale's algorithm (its JSON) and with ncu on gpuscale's side where needed.

  python3 bench/torch_kernels.py --rows conv:nhwc:bf16,conv:nhwc:fp32,matmul:8192:tf32    (GPU)
"""
import argparse
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_vs_torch as bench  # noqa: E402  (beside this file)


def works(row):
    """[(label, call)] for one row "conv:LAYOUT:PREC" or "matmul:N:PREC"."""
    kind, what, p = row.split(":")
    if kind == "matmul":
        return [(f"matmul {what} {p}", bench.matmul_work(int(what), p, transpose_b=True))]
    if kind == "conv" and what in ("nchw", "nhwc"):
        fwd, fwd_bwd = bench.conv_work(p, channels_last=what == "nhwc")
        return [(f"conv fwd {what} {p}", fwd), (f"conv fwd+bwd {what} {p}", fwd_bwd)]
    sys.exit(f"bad row '{row}': use conv:nchw|nhwc:PREC or matmul:N:PREC")


def kernels(call, calls):
    """[(name, count, mean us)] of the CUDA kernels `calls` calls launch, longest total first."""
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            call()
        torch.cuda.synchronize()
    def device_us(e):  # device_time_total since torch 2.4, cuda_time_total before
        return getattr(e, "device_time_total", None) or getattr(e, "cuda_time_total", 0)

    rows = [(e.key, e.count, device_us(e) / max(1, e.count)) for e in prof.key_averages() if device_us(e) > 0]
    return sorted(rows, key=lambda r: -r[1] * r[2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", default="conv:nhwc:bf16,conv:nhwc:fp32,matmul:8192:tf32")
    ap.add_argument("--calls", type=int, default=5)
    args = ap.parse_args()
    print(f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {torch.cuda.get_device_name()}")
    for row in args.rows.split(","):
        for label, call in works(row):
            seconds = bench.median_s(call)  # torch's choice made, the GPU settled
            print(f"{label}: median {seconds * 1e6:.1f} us per call; kernels over {args.calls} calls:")
            for name, count, mean_us in kernels(call, args.calls):
                print(f"  {count:4d} x {mean_us:9.1f} us  {name[:160]}")


if __name__ == "__main__":
    main()
