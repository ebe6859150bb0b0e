#pragma once
// The collectives phase: nccl-tests-style sweeps of every op, the scaling table over
// sub-communicators, the pairwise send/recv matrix, link expectations. The run itself is the
// collectives workload's (collectives/CollectivesRun.hpp).
#include <cxxopts.hpp>

#include "collectives/SweepOptions.hpp"
#include "launch/base/Invocation.hpp"
#include "launch/base/PhaseContext.hpp"
#include "launch/base/Profile.hpp"
#include "phases/collectives/CollectiveRecords.hpp"
#include "phases/collectives/run/CollectivesPlan.hpp"

namespace gpuscale::launch {

// The options of `gpuscale collectives` (nccl-tests' letters where meanings match).
void add_collectives_options(cxxopts::Options& options);

// Values from the command line; options not given keep defaults that suit the backend (cpu: small
// sizes, so CI stays fast) and --quick. Throws UsageError for bad values. Pure: no MPI.
collectives::SweepOptions collectives_options(const cxxopts::ParseResult& result, const CollectivesProfile& profile);

// Before MPI and NCCL start, for a command that runs the phase (PhaseSpec::before_mpi): routes
// NCCL's tuning log to a file when --nccl-algo is given.
void prepare_collectives(const Invocation& invocation);

// Collective over the world: rank 0 returns the record, its sweeps' link expectations applied (from
// env's records); the other ranks' record is not kept.
results::CollectivesRecord run_collectives_phase(PhaseContext& ctx);

}  // namespace gpuscale::launch
