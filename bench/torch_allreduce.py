#!/usr/bin/env python3
"""Usage: mpirun -np N torch_allreduce.py [--min-bytes B] [--max-bytes B] [--factor F] [--iters N]
                                        [--warmup N] [--json FILE]
torch.distributed.all_reduce (NCCL backend) busbw at nccl-tests sizes, as the reference column of
bench/collectives_vs_torch.sh. Launched by mpirun (one process per GPU, env:// initialisation from Open
MPI's variables) or torchrun. Times like nccl-tests: warm-up, then N iterations between two CUDA events,
time per op = elapsed / N, the slowest rank's; busbw = algbw * 2(n-1)/n."""
import argparse
import json
import os

import torch
import torch.distributed as dist


def env_int(*names, default=0):
    for name in names:
        if name in os.environ:
            return int(os.environ[name])
    return default


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--min-bytes", type=int, default=8)
    p.add_argument("--max-bytes", type=int, default=1 << 30)
    p.add_argument("--factor", type=int, default=4)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--json", default="")
    a = p.parse_args()

    rank = env_int("RANK", "OMPI_COMM_WORLD_RANK")
    world = env_int("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", default=1)
    local = env_int("LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29531")
    torch.cuda.set_device(local % torch.cuda.device_count())
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", torch.cuda.current_device()))

    results = []
    size = a.min_bytes
    while size <= a.max_bytes:
        count = max(size // 4, 0)
        x = torch.ones(count, dtype=torch.float32, device="cuda")
        for _ in range(a.warmup):
            dist.all_reduce(x)
        torch.cuda.synchronize()
        dist.barrier()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(a.iters):
            dist.all_reduce(x)
        stop.record()
        stop.synchronize()
        t = torch.tensor([start.elapsed_time(stop) / 1e3 / a.iters], device="cuda", dtype=torch.float64)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        sec = t.item()
        algbw = count * 4 / sec / 1e9 if sec > 0 else 0.0
        results.append({"size_bytes": count * 4, "time_s": sec, "algbw_gbps": algbw,
                        "busbw_gbps": algbw * 2 * (world - 1) / world})
        size *= a.factor
    if rank == 0:
        for r in results:
            print(f"{r['size_bytes']:>12}  {r['time_s'] * 1e6:10.2f} us  {r['busbw_gbps']:8.2f} GB/s")
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"world_size": world, "torch": torch.__version__,
                           "nccl": ".".join(map(str, torch.cuda.nccl.version())), "rows": results}, f, indent=1)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
