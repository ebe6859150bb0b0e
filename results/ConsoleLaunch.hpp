#pragma once
// The console report's launch section: the launcher, Slurm's job and step, and each rank's Slurm
// ids and GPUs next to what MPI gave it, and how NCCL connected the ranks.
#include <ostream>

#include "results/RunReport.hpp"

namespace gpuscale::results {

// The launcher line, each rank's Slurm ids and GPUs (inside Slurm), and the transports NCCL chose.
void write_launch(const RunReport& r, std::ostream& out);

// Busbw of the smoke allreduce in GB/s (nccl-tests' allreduce factor 2(n-1)/n); 0 when it did not pass.
double smoke_busbw_gbps(const SmokeTest& smoke, int world_size);

}  // namespace gpuscale::results
