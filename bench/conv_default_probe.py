#!/usr/bin/env python3
"""The default compute phase's conv (1x256x64x64, 256 filters 3x3, pad 1) in fp16 and bf16, channels_last:
PyTorch's forward with cudnn.benchmark off (cuDNN's heuristic, torch's default) and on, against gpuscale's
--cudnn-algo heuristic (its default) and find. Is the default bf16 forward's slowness cuDNN's heuristic
(torch's default would share it) or gpuscale's? The calls take ~15 us, less than torch's Python launch,
so torch's side is timed as CUDA graph replays of 20 calls (10 warm-up calls and a second of calls first;
median of 50 replays over 20). Usage: conv_default_probe.py GPUSCALE OUT_DIR"""
import json
import os
import statistics
import subprocess
import sys
import time

import torch

from gpuscale_json import figures

SHAPE = (1, 256, 64, 64)
FLOPS = 2 * 1 * 256 * 64 * 64 * 256 * 9


def torch_fwd(dtype, benchmark):
    torch.backends.cudnn.benchmark = benchmark
    conv = torch.nn.Conv2d(256, 256, 3, padding=1, bias=False).cuda().to(dtype).to(memory_format=torch.channels_last)
    x = (torch.rand(SHAPE, device="cuda") * 2 - 1).to(dtype).to(memory_format=torch.channels_last)
    with torch.no_grad():
        for _ in range(10):
            conv(x)
        torch.cuda.synchronize()
        t0 = time.time()
        while time.time() - t0 < 1.0:
            conv(x)
            torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(20):
                conv(x)
        times = []
        for _ in range(50):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            graph.replay()
            b.record()
            b.synchronize()
            times.append(a.elapsed_time(b) * 1e-3 / 20)
    return FLOPS / statistics.median(times) / 1e12


def gpuscale_fwd(gpuscale, out_dir, mode):
    path = os.path.join(out_dir, f"conv_{mode}.json")
    start = time.time()
    subprocess.run([gpuscale, "compute", "--conv", "1,256,64,64,256,3,3,1,1,1", "--precision", "fp16,bf16",
                    "--cudnn-algo", mode, "--quiet", "--json", path], check=True, stdout=subprocess.DEVNULL)
    wall = time.time() - start
    records = json.load(open(path))["compute"]
    return {f["precision"]: f for f in figures(records) if f["op"] == "conv fwd"}, wall


def main(gpuscale, out_dir):
    rows = []
    for mode in ("heuristic", "find"):
        got, wall = gpuscale_fwd(gpuscale, out_dir, mode)
        for precision, f in sorted(got.items()):
            rows.append((f"gpuscale {mode} ({wall:.1f} s run)", precision, f["tflops"], f["config"]))
    for benchmark in (False, True):
        for name, dtype in (("bf16", torch.bfloat16), ("fp16", torch.float16)):
            rows.append((f"torch benchmark={benchmark}", name, torch_fwd(dtype, benchmark), ""))
    print(f"{'side':<34} {'prec':<5} {'TFLOP/s':>8}  algorithm")
    for side, precision, tflops, config in rows:
        print(f"{side:<34} {precision:<5} {tflops:8.1f}  {config}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
