#!/usr/bin/env python3
"""PyTorch's side of bench/compute_vs_torch.sh, and the side-by-side table.
Usage: compute_vs_torch.py --gpuscale GPUSCALE.json... [--out TABLE.json]   (run by compute_vs_torch.sh)

Times torch.matmul (x @ w.t(), the GEMM of gpuscale's Linear forward) and nn.Conv2d (cudnn.benchmark=True; forward, and forward+backward with both
input and weight gradients) with CUDA events, one pair per call, median of the calls after warm-up
(10 calls, then until WARMUP_S has run, as gpuscale's --warmup-ms): the same method gpuscale uses. Reads gpuscale's JSON files and prints TFLOP/s side by side; for
conv, each framework's better layout (NCHW or NHWC / channels_last) is compared.
"""
import argparse
import json
import math
import statistics
import time

import torch

import gpuscale_json

ITERS, WARMUP = 50, 10
# Then keep warming up until this long has run (gpuscale: --warmup-ms): an H200 at its power limit
# clocks high for the first tens of ms of a new load, then settles; both sides are timed settled.
WARMUP_S = 1.0
# Then time at least this long (gpuscale: --min-time-ms and workloads' timed_calls): ITERS calls, or as
# many as span it, at most MAX_CALLS. Under the power limit the clock saws over about a second, and 50
# calls of a short GEMM time one phase of it.
MIN_TIME_S, MAX_CALLS = 0.0, 20000
MATMULS = [4096, 8192]
CONV = dict(n=32, c=256, h=56, w=56, k=256, r=3, s=3, stride=1, pad=1)
PRECISIONS = ["fp32", "tf32", "bf16"]
# The conv weight torch times with: "default" (nn.Conv2d's own init, |w| <= 1/sqrt(C R S)) or "uniform"
# (U[-1, 1), as gpuscale fills every operand and as x here). Under a power limit a kernel's clock depends
# on the data it switches, so the weights' distribution can move torch's conv time by a few percent.
CONV_WEIGHTS = "default"


def set_precision(p):
    torch.backends.cuda.matmul.allow_tf32 = p == "tf32"
    torch.backends.cudnn.allow_tf32 = p == "tf32"
    torch.backends.cudnn.benchmark = True
    return torch.bfloat16 if p == "bf16" else torch.float32


def timed_calls(call_s):
    """ITERS, or as many calls as span MIN_TIME_S, at most MAX_CALLS (gpuscale's timed_calls)."""
    if MIN_TIME_S <= 0 or call_s <= 0:
        return ITERS
    return max(ITERS, min(MAX_CALLS, math.ceil(MIN_TIME_S / call_s)))


def median_s(fn):
    for _ in range(WARMUP):
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    while time.perf_counter() - start < WARMUP_S:
        for _ in range(10):
            fn()
        torch.cuda.synchronize()
    calls = ITERS
    if MIN_TIME_S > 0:  # one call's time, from a probe of 10 back to back
        probe = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        probe[0].record()
        for _ in range(10):
            fn()
        probe[1].record()
        probe[1].synchronize()
        calls = timed_calls(probe[0].elapsed_time(probe[1]) * 1e-3 / 10)
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(calls)]
    for start, stop in events:
        start.record()
        fn()
        stop.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events) * 1e-3


def uniform(shape, dtype, coarse=False):
    """Uniform in [-1, 1), drawn in float32 and rounded to dtype: every mantissa bit random, as
    gpuscale's inputs. coarse: torch.rand drawn in dtype itself, which in bfloat16 gives multiples of
    1/128 (mostly zero mantissa bits): a bf16 GEMM at the power limit clocks higher on such data, so
    the two are not the same benchmark (printed beside, for reference)."""
    if coarse:
        return torch.rand(*shape, device="cuda", dtype=dtype) * 2 - 1
    return (torch.rand(*shape, device="cuda") * 2 - 1).to(dtype)


def matmul_work(n, p, transpose_b, coarse=False):
    """One n^3 matmul call. transpose_b: torch.matmul(x, w.t()), the GEMM of gpuscale's Linear
    forward (Y = X W^T, as nn.Linear); otherwise the plain torch.matmul(a, b)."""
    dtype = set_precision(p)
    a, b = uniform((n, n), dtype, coarse), uniform((n, n), dtype, coarse)
    bt = b.t() if transpose_b else b
    return lambda: torch.matmul(a, bt)


def torch_matmul(n, p, transpose_b, coarse=False):
    return 2.0 * n ** 3 / median_s(matmul_work(n, p, transpose_b, coarse)) / 1e12


def conv_flops():
    c = CONV
    p = (c["h"] + 2 * c["pad"] - c["r"]) // c["stride"] + 1
    q = (c["w"] + 2 * c["pad"] - c["s"]) // c["stride"] + 1
    return 2.0 * c["n"] * c["k"] * p * q * c["c"] * c["r"] * c["s"]


def conv_work(p, channels_last):
    """(forward call, forward+backward call) of CONV in precision p."""
    dtype = set_precision(p)
    c = CONV
    conv = torch.nn.Conv2d(c["c"], c["k"], (c["r"], c["s"]), stride=c["stride"], padding=c["pad"], bias=False)
    conv = conv.to(device="cuda", dtype=dtype)
    if CONV_WEIGHTS == "uniform":
        with torch.no_grad():
            conv.weight.copy_(uniform(tuple(conv.weight.shape), dtype))
    x = uniform((c["n"], c["c"], c["h"], c["w"]), dtype)
    if channels_last:
        conv = conv.to(memory_format=torch.channels_last)
        x = x.contiguous(memory_format=torch.channels_last)
    x.requires_grad_(True)
    with torch.no_grad():
        y = conv(x)
    grad = uniform(tuple(y.shape), dtype).contiguous(memory_format=torch.channels_last if channels_last else
                                                    torch.contiguous_format)

    def fwd():
        with torch.no_grad():
            conv(x)

    def fwd_bwd():
        conv(x).backward(grad)

    return fwd, fwd_bwd


def torch_conv(p, channels_last):
    fwd, fwd_bwd = conv_work(p, channels_last)
    f = conv_flops()
    return f / median_s(fwd) / 1e12, 3 * f / median_s(fwd_bwd) / 1e12


def gpuscale_figures(paths):
    """{(op, precision): (best TFLOP/s over the files, its config)}."""
    best = {}
    for path in paths:
        for f in gpuscale_json.figures(json.load(open(path))["compute"]):
            key = (f["op"], f["precision"])
            if key not in best or f["tflops"] > best[key][0]:
                best[key] = (f["tflops"], f["config"])
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpuscale", nargs="+", required=True)
    ap.add_argument("--out")
    args = ap.parse_args()
    ours = gpuscale_figures(args.gpuscale)
    theirs = {}
    for p in PRECISIONS:
        for n in MATMULS:
            # gpuscale's figure is its Linear forward, X W^T: compared with the same GEMM in torch.
            # The plain A B is timed too and printed beside it in the config column.
            plain = torch_matmul(n, p, transpose_b=False)
            coarse = torch_matmul(n, p, transpose_b=True, coarse=True)
            theirs[(f"matmul {n}", p)] = (torch_matmul(n, p, transpose_b=True),
                                          f"torch.matmul(x, w.t()); (a, b): {plain:.1f}; "
                                          f"rand in {p}: {coarse:.1f}")
        for cl in (False, True):
            f, fb = torch_conv(p, cl)
            note = "channels_last" if cl else "nchw"
            if theirs.get(("conv fwd", p), (0,))[0] < f:
                theirs[("conv fwd", p)] = (f, note)
            if theirs.get(("conv fwd+bwd", p), (0,))[0] < fb:
                theirs[("conv fwd+bwd", p)] = (fb, note)
    rows = []
    print(f"GPU: {torch.cuda.get_device_name(0)}  torch {torch.__version__}  cuDNN {torch.backends.cudnn.version()}")
    header = f"{'op':<14}{'prec':<6}{'gpuscale TFLOP/s':>18}{'torch TFLOP/s':>15}{'ratio':>8}  gpuscale config | torch config"
    print(header)
    for key in sorted(theirs, key=lambda k: (k[0], PRECISIONS.index(k[1]))):
        mine = ours.get(key, (float("nan"), "missing"))
        ratio = mine[0] / theirs[key][0]
        rows.append(dict(op=key[0], precision=key[1], gpuscale_tflops=mine[0], torch_tflops=theirs[key][0],
                         ratio=ratio, gpuscale_config=mine[1], torch_config=theirs[key][1]))
        print(f"{key[0]:<14}{key[1]:<6}{mine[0]:>18.1f}{theirs[key][0]:>15.1f}{ratio:>8.2f}  {mine[1]} | {theirs[key][1]}")
    wins = sum(r["ratio"] >= 1.0 for r in rows)
    print(f"gpuscale >= torch on {wins} of {len(rows)} rows")
    if args.out:
        json.dump(rows, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
