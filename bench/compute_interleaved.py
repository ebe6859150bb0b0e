#!/usr/bin/env python3
"""gpuscale's layers against PyTorch, interleaved row by row (ABBA), both sides settled.
Usage: compute_interleaved.py --gpuscale BINARY --out DIR [--rounds N] [--precision LIST] ...  (--help)

Why: under a GPU's power limit the settled clock follows the chip's temperature, and
bench/compute_vs_torch.sh (all of gpuscale's rows, then all of torch's) gives each row a different
thermal history on each side, enough to move a row by more than the gap being measured. Here every
row (one op, size or layout, precision) is measured as gpuscale, torch, torch, gpuscale, ROUNDS times over, each measurement after the same one-second
warm-up, and each side's median over its 2 x ROUNDS runs is compared. The ratio's spread is printed
beside it (each side's min and max). --min-time-ms T times each op for at least T on both sides: the
settled clock saws over about a second, so 50 calls of a 0.2 ms GEMM (10 ms) time one phase of it and
runs of one kernel spread widely.

  python3 bench/compute_interleaved.py --gpuscale build/launch/gpuscale --out /tmp/ab     (GPU)
  python3 bench/compute_interleaved.py --gpuscale build/launch/gpuscale --device cpu --torch none \\
      --matmul 64 --conv 2,8,8,8,8,3,3,1,1,1 --precision fp32 --rounds 1    (the gpuscale side alone)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpuscale_json  # noqa: E402  (beside this file)


def ops_of(row):
    """The figures a row yields, named as gpuscale_json names them."""
    kind, what, _ = row
    return [f"matmul {what}"] if kind == "matmul" else ["conv fwd", "conv fwd+bwd"]


def gpuscale_row(args, row, path):
    """{op: TFLOP/s} for the row's ops_of(row); each layer passed its reference check in the same run
    (else gpuscale_json exits)."""
    kind, what, p = row
    # A matmul row compares the Linear forward alone: its backward passes are neither tuned nor timed.
    shape = (["--mnk", f"{what},{what},{what}", "--passes", "fwd"] if kind == "matmul"
             else ["--conv", args.conv, "--layout", what])
    cmd = [args.gpuscale, "compute", "--device", args.device, "--precision", p, "--cudnn-algo", args.cudnn_algo,
           "--iters", str(args.iters), "--warmup", "10", "--warmup-ms", str(args.gs_warmup_ms),
           "--min-time-ms", str(args.min_time_ms),
           "--json", path] + shape + args.gs_args.split()
    done = subprocess.run(cmd, capture_output=True, text=True)
    with open(path[:-len(".json")] + ".log", "w") as log:  # its progress lines: where a run's seconds went
        log.write(done.stdout + done.stderr)
    if done.returncode != 0:
        sys.exit(f"gpuscale failed ({' '.join(cmd)}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    figures = gpuscale_json.figures(json.load(open(path))["compute"])
    got = {f["op"]: f["tflops"] for f in figures}
    print(f"    gs {' '.join(map(str, row))}: " + "; ".join(f"{f['op']} {f['tflops']:.1f} {f['config']}" for f in figures),
          file=sys.stderr, flush=True)
    if sorted(got) != sorted(ops_of(row)):
        sys.exit(f"gpuscale measured {sorted(got)} for {row}, not {ops_of(row)} (skipped?): {path}")
    return got


def torch_row(bench, row, idle_s):
    kind, what, p = row
    time.sleep(idle_s)  # as long as gpuscale's reference check leaves the GPU idle, where asked
    if kind == "matmul":
        return {f"matmul {what}": bench.torch_matmul(int(what), p, transpose_b=True)}
    fwd, fwd_bwd = bench.torch_conv(p, channels_last=what == "nhwc")
    return {"conv fwd": fwd, "conv fwd+bwd": fwd_bwd}


def measure(args, bench, rows):
    """{row: {"gs": [run, ...], "torch": [...]}}, each run {op: TFLOP/s}."""
    runs = {row: {"gs": [], "torch": []} for row in rows}
    for i, row in enumerate(rows):
        for r in range(args.rounds):
            for side in ("gs", "torch", "torch", "gs"):
                if side == "torch" and bench is None:
                    continue
                path = os.path.join(args.out, f"gs_{i}_{r}_{len(runs[row]['gs'])}.json")
                began = time.strftime("%H:%M:%S")  # beside a clock log (nvidia-smi -lms) of the same call
                got = gpuscale_row(args, row, path) if side == "gs" else torch_row(bench, row, args.torch_idle_s)
                print(f"    {began}-{time.strftime('%H:%M:%S')} {side} round {r + 1}: "
                      + ", ".join(f"{op} {v:.1f}" for op, v in got.items()), file=sys.stderr, flush=True)
                runs[row][side].append(got)
        medians = {side: {op: statistics.median(s[op] for s in samples) for op in samples[0]}
                   for side, samples in runs[row].items() if samples}
        print(f"  row {i + 1}/{len(rows)} {' '.join(map(str, row))}: "
              + "; ".join(f"{side} " + ", ".join(f"{op} {v:.1f}" for op, v in m.items())
                          for side, m in medians.items()), file=sys.stderr, flush=True)
    return runs


def summarize(runs):
    """Per (op, precision): each side's median over its runs, for its better layout (conv: NCHW or
    NHWC, by median), with min and max over the runs."""
    best = {}
    for (_, what, p), sides in runs.items():
        for side, samples in sides.items():
            if not samples:
                continue
            for op in samples[0]:
                values = [s[op] for s in samples]
                entry = (statistics.median(values), min(values), max(values), what)
                key = (op, p, side)
                if key not in best or entry[0] > best[key][0]:
                    best[key] = entry
    return best


def report(best, precisions, out_path):
    rows, wins = [], 0
    names = sorted({k[0] for k in best}, key=lambda n: (n.startswith("matmul"), n))
    print(f"{'op':<14}{'prec':<6}{'gpuscale med [min, max]':>30}{'torch med [min, max]':>30}{'ratio':>8}  layouts")
    for name in names:
        for p in precisions:
            g, t = best.get((name, p, "gs")), best.get((name, p, "torch"))
            if not g:
                continue
            ratio = g[0] / t[0] if t else float("nan")
            wins += bool(t) and ratio >= 1.0
            fmt = lambda e: f"{e[0]:.1f} [{e[1]:.1f}, {e[2]:.1f}]" if e else "-"
            layouts = f"{g[3]} | {t[3]}" if t and name.startswith("conv") else ""
            print(f"{name:<14}{p:<6}{fmt(g):>30}{fmt(t):>30}{ratio:>8.3f}  {layouts}")
            rows.append(dict(op=name, precision=p, gpuscale=g[:3], torch=t[:3] if t else None, ratio=ratio,
                             gpuscale_layout=g[3], torch_layout=t[3] if t else None))
    compared = sum(r["torch"] is not None for r in rows)
    print(f"gpuscale >= torch (median against median) on {wins} of {compared} rows")
    json.dump(rows, open(out_path, "w"), indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpuscale", required=True)
    ap.add_argument("--out", required=True, help="folder for gpuscale's JSON files and the table's JSON")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--torch", default="cuda", choices=["cuda", "none"])
    ap.add_argument("--rounds", type=int, default=2, help="ABBA rounds per row (2 x ROUNDS runs per side)")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--warmup-ms", type=float, default=1000)
    ap.add_argument("--min-time-ms", type=float, default=0,
                    help="both sides time each op at least this long (--iters calls, or as many as span it)")
    ap.add_argument("--gs-warmup-ms", type=float, help="gpuscale's own settle, where it differs from --warmup-ms")
    ap.add_argument("--torch-idle-s", type=float, default=0,
                    help="leave the GPU idle this long before each torch run (gpuscale's check idles it ~2.5 s)")
    ap.add_argument("--precision", default="fp32,tf32,bf16")
    ap.add_argument("--matmul", default="4096,8192", help="square matmul sizes, or none")
    ap.add_argument("--conv", default="32,256,56,56,256,3,3,1,1,1",
                    help="N,C,H,W,K,R,S,stride,pad,dilation, or none")
    ap.add_argument("--layouts", default="nchw,nhwc", help="conv layouts, each its own row")
    ap.add_argument("--cudnn-algo", default="exhaustive", help="gpuscale's conv search: exhaustive, find, graph")
    ap.add_argument("--gs-args", default="", help="more gpuscale compute options, e.g. '--matmul-path gemmex'")
    args = ap.parse_args()
    args.gs_warmup_ms = args.warmup_ms if args.gs_warmup_ms is None else args.gs_warmup_ms
    os.makedirs(args.out, exist_ok=True)
    precisions = args.precision.split(",")
    rows = [("matmul", n, p) for n in args.matmul.split(",") for p in precisions if args.matmul != "none"]
    rows += [("conv", layout, p) for layout in args.layouts.split(",") for p in precisions if args.conv != "none"]
    bench = None
    if args.torch != "none":
        import compute_vs_torch as bench  # torch's side: the same timing, warm-up and inputs
        if args.conv != "none":
            n, c, h, w, k, r, s, stride, pad, _ = (int(v) for v in args.conv.split(","))
            bench.CONV = dict(n=n, c=c, h=h, w=w, k=k, r=r, s=s, stride=stride, pad=pad)
        bench.ITERS, bench.WARMUP_S, bench.MIN_TIME_S = args.iters, args.warmup_ms / 1000, args.min_time_ms / 1000
    report(summarize(measure(args, bench, rows)), precisions, os.path.join(args.out, "compute_interleaved.json"))


if __name__ == "__main__":
    main()
