#!/usr/bin/env python3
"""Seeds one fault into a healthy run, for the expect templates' tests (tests/expect/templates.sh).

Usage: seed_fault.py KIND RUN.json[.gz] > FAULTY.json
  tenant   another process computes on rank 0's GPU (NVML lists it before any work): gpu-in-use
  lower    the compute phase's large GEMM (matmul, default set) at bf16 runs at 45% of what it measured:
           only a template's compute threshold judges it
  corrupt  rank 0's large GEMM gave a wrong result against the reference (a corrupt rank)
The run's stored checks and verdict are dropped: `gpuscale report` judges it afresh.
"""
import gzip
import json
import sys


def large_gemm(c, precision=None):
    return c.get("name") == "matmul" and c.get("set") == "default" and (precision is None or c["precision"] == precision)


def seed(run, kind):
    if kind == "tenant":
        tenancy = run["ranks"][0].setdefault("tenancy", {})
        tenancy["probed"] = True
        tenancy.setdefault("processes", []).append(
            {"pid": 4242424, "name": "python3", "compute": True, "used_memory_bytes": 8589934592})
    elif kind == "lower":
        hits = [c for c in run["compute"] if large_gemm(c, "bf16") and c.get("tflops")]
        assert hits, "no bf16 matmul of the default set in the run"
        for c in hits:
            c["tflops"] *= 0.45
    elif kind == "corrupt":
        hits = [c for c in run["compute"] if large_gemm(c) and c["rank"] == 0 and c.get("check", {}).get("ran")]
        assert hits, "no verified matmul of the default set on rank 0"
        hits[0]["check"].update(passed=False, relative_error=0.5)
    else:
        sys.exit("seed_fault.py: unknown fault '" + kind + "' (tenant, lower, corrupt)")
    run.pop("checks", None)
    run.pop("verdict", None)
    return run


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: seed_fault.py {tenant,lower,corrupt} RUN.json[.gz] > FAULTY.json")
    opener = gzip.open if sys.argv[2].endswith(".gz") else open
    with opener(sys.argv[2], "rt") as f:
        run = json.load(f)
    json.dump(seed(run, sys.argv[1]), sys.stdout)


if __name__ == "__main__":
    main()
