#!/usr/bin/env python3
"""Does the conv weights' distribution move torch's conv time? ncu shows gpuscale's and torch's NHWC bf16
forward running the same cuDNN kernel, yet settled torch reads ~5% faster: torch's nn.Conv2d weights are
its default init (|w| <= 1/sqrt(C R S), 0.02 here), gpuscale's U[-1, 1), and under the H200's power limit
a kernel's clock depends on the data it switches. Times torch's forward and forward+backward with each
weight init, alternately (A B B A, ROUNDS rounds), each after the bench's one-second warm-up.

  python3 bench/conv_weight_probe.py --precision bf16 --layout nhwc --rounds 3     (GPU)
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_vs_torch as bench  # noqa: E402  (beside this file)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--precision", default="bf16")
    ap.add_argument("--layout", default="nhwc", choices=["nchw", "nhwc"])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    runs = {"default": [], "uniform": []}
    for _ in range(args.rounds):
        for init in ("default", "uniform", "uniform", "default"):
            bench.CONV_WEIGHTS = init
            runs[init].append(bench.torch_conv(args.precision, channels_last=args.layout == "nhwc"))
            fwd, fwd_bwd = runs[init][-1]
            print(f"  torch {init:8s} fwd {fwd:6.1f}  fwd+bwd {fwd_bwd:6.1f} TFLOP/s", flush=True)
    print(f"{'weights':<9}{'fwd med [min, max]':>26}{'fwd+bwd med [min, max]':>28}  ({args.precision} {args.layout})")
    for init, values in runs.items():
        cols = [[v[i] for v in values] for i in (0, 1)]
        print(f"{init:<9}" + "".join(f"{statistics.median(c):>12.1f} [{min(c):.1f}, {max(c):.1f}]" for c in cols))


if __name__ == "__main__":
    main()
