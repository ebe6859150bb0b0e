#pragma once
// The collectives phase: nccl-tests-style sweeps of every op, the scaling table over
// sub-communicators, the pairwise send/recv matrix, link expectations; the record goes into the report.
// The run itself is the collectives workload's (collectives/CollectivesRun.hpp).
#include <vector>

#include <cxxopts.hpp>

#include "collectives/SweepOptions.hpp"
#include "launch/Invocation.hpp"
#include "launch/Job.hpp"

namespace gpuscale::launch {

// The phase's plan: the sweeps' options and what the phase reads around them, all from the command
// line once (nothing reads the options after planning).
struct CollectivesPlan {
  collectives::SweepOptions sweep;
  bool nccl_algorithm = false;    // --nccl-algo: NCCL's algorithm and protocol per size, from its log
  std::vector<int> project_ranks;  // --project-ranks' targets (ProjectionOptions.hpp), the defaults if absent
};

// The options of `gpuscale collectives` (nccl-tests' letters where meanings match).
void add_collectives_options(cxxopts::Options& options);

// Values from the command line; options not given keep defaults that suit the backend (cpu: small
// sizes, so CI stays fast) and --quick. Throws UsageError for bad values. Pure: no MPI.
collectives::SweepOptions collectives_options(const cxxopts::ParseResult& result, bool cpu_backend, bool quick);

// Before MPI and NCCL start, for a command that runs the phase (PhaseSpec::before_mpi): routes
// NCCL's tuning log to a file when --nccl-algo is given.
void prepare_collectives(const Invocation& invocation);

// Collective over the world.
void run_collectives_phase(Job& job);

}  // namespace gpuscale::launch
