#!/usr/bin/env python3
"""Joins bench/matmul_sustained's table with an nvidia-smi log taken beside it: per candidate, the mean
SM clock and power over the last 40% of its two windows (its timed calls), and TFLOP per joule
(throughput over power), sorted by throughput. Usage: sustained_clocks.py PROBE_OUTPUT CLOCKS_CSV"""
import csv
import datetime
import re
import sys


def samples(path):
    out = []
    with open(path) as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("timestamp"):
                continue
            try:
                t = datetime.datetime.strptime(row[0].strip(), "%Y/%m/%d %H:%M:%S.%f")
                out.append((t.replace(tzinfo=datetime.timezone.utc).timestamp(), float(row[1].split()[0]),
                            float(row[2].split()[0])))
            except (ValueError, IndexError):
                continue
    return out


def main(probe, clocks):
    log = samples(clocks)
    line = re.compile(r"^([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)-([\d.]+)\s+([\d.]+)-([\d.]+)\s+(.*)$")
    rows = []
    for text in open(probe):
        m = line.match(text.strip())
        if not m:
            continue
        tflops = float(m.group(1))
        windows = [(float(m.group(4)), float(m.group(5))), (float(m.group(6)), float(m.group(7)))]
        # The timed calls are each window's last part: use its last 40% (the settle is the first part).
        inside = [s for a, b in windows for s in log if a + 0.6 * (b - a) <= s[0] <= b]
        mhz = sum(s[1] for s in inside) / len(inside) if inside else float("nan")
        watts = sum(s[2] for s in inside) / len(inside) if inside else float("nan")
        rows.append((tflops, mhz, watts, len(inside), m.group(8)))
    rows.sort(key=lambda r: -r[0])
    print(f"{'TFLOP/s':>8} {'MHz':>6} {'W':>6} {'TFLOP/J':>8} {'n':>3}  candidate")
    for tflops, mhz, watts, n, name in rows:
        print(f"{tflops:8.1f} {mhz:6.0f} {watts:6.0f} {tflops / watts if watts == watts and watts else 0:8.3f} {n:3d}  {name}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
