"""The PyTorch side of bench/health_vs_torch.sh, timed as gpuscale times the same work.

  python3 health_torch.py load                 # bf16 matmul 8192 until killed (the second process)
  python3 health_torch.py matmul SECONDS        # bf16 matmul 8192 loop: JSON with the sustained figure
  python3 health_torch.py copies                # pinned H2D / D2H (64 MiB, 1 GiB), device copy (4 GiB): JSON

The matmul loop records an event after every batch of calls; throughput is work done over wall time
after the first second, interpolated between completions as phases/burn/BurnSummary.cpp does.
"""
import collections
import json
import sys

import torch

N = 8192


def operands():
    g = torch.Generator(device="cuda").manual_seed(1)
    a = torch.rand(N, N, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1
    b = torch.rand(N, N, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1
    return a, b, torch.empty(N, N, device="cuda", dtype=torch.bfloat16)


def work_at(points, t):
    t0, w0 = 0.0, 0.0
    for tp, wp in points:
        if t <= tp:
            return wp if tp <= t0 else w0 + (wp - w0) * (max(t, t0) - t0) / (tp - t0)
        t0, w0 = tp, wp
    return w0


def matmul(seconds, batch=4, depth=32):
    a, b, c = operands()
    torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    start.record()
    pending, points, calls, finishing = collections.deque(), [], 0, False
    while not finishing or pending:
        while not finishing and len(pending) < depth:
            for _ in range(batch):
                torch.matmul(a, b, out=c)
            calls += batch
            e = torch.cuda.Event(enable_timing=True)
            e.record()
            pending.append((e, calls))
        e, k = pending.popleft()
        e.synchronize()
        t = start.elapsed_time(e) / 1e3
        points.append((t, k * 2.0 * N ** 3))
        finishing = finishing or t >= seconds
    end_t, end_w = points[-1]
    settle = min(1.0, end_t / 4)
    sustained = (end_w - work_at(points, settle)) / (end_t - settle) / 1e12
    first = work_at(points, settle) / settle / 1e12
    return {"sustained_tflops": sustained, "first_tflops": first, "elapsed_s": end_t}


def timed_copy(dst, src, reps=10):
    dst.copy_(src, non_blocking=True)  # warm-up
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        dst.copy_(src, non_blocking=True)
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e) / 1e3)
    return sorted(times)[len(times) // 2]


def copies():
    out = {}
    for size, suffix in ((64 << 20, "_64m"), (1 << 30, "")):
        host = torch.randint(0, 255, (size,), dtype=torch.uint8).pin_memory()
        dev = torch.randint(0, 255, (size,), dtype=torch.uint8, device="cuda")
        out["h2d_pinned" + suffix + "_gbps"] = size / timed_copy(dev, host) / 1e9
        out["d2h_pinned" + suffix + "_gbps"] = size / timed_copy(host, dev) / 1e9
    big = 4 << 30
    src = torch.randint(0, 255, (big,), dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    d2d = 2 * big / timed_copy(dst, src) / 1e9  # bytes read + written
    out["d2d_gbps"] = d2d
    return out


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("load", "matmul", "copies"):
        sys.exit(__doc__)
    what = sys.argv[1]
    if what == "load":
        a, b, c = operands()
        while True:
            for _ in range(50):
                torch.matmul(a, b, out=c)
            torch.cuda.synchronize()
    if what == "matmul":
        print(json.dumps(matmul(float(sys.argv[2]))))
    else:
        print(json.dumps(copies()))


if __name__ == "__main__":
    main()
