#pragma once
// The console report's launch section: the launcher, Slurm's job and step, and each rank's Slurm
// ids and GPUs next to what MPI gave it, and how NCCL connected the ranks.
#include <ostream>

#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

// The launcher line, each rank's Slurm ids and GPUs (inside Slurm), and the transports NCCL chose.
void write_launch(const RunReport& r, std::ostream& out);

}  // namespace gpuscale::results
