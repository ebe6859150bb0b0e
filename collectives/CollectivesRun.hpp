#pragma once
// The collectives workload across the job, as sweep_op is one op's: the communicator, the buffers,
// every op's sweep over its sizes while the budget lasts, the scaling table over sub-communicators,
// the pairwise send/recv matrix and the localisation of slow nodes (first, under a budget), and
// NCCL's algorithm choices read back from its tuning log. Prints nothing: progress and budget notes
// go to the caller through CollectivesRunSetup.
#include <string>
#include <vector>

#include "collectives/SweepOptions.hpp"
#include "harness/Backend.hpp"
#include "harness/RunHooks.hpp"
#include "harness/World.hpp"
#include "phases/collectives/CollectiveRecords.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::collectives {

// What the run needs from the job around it.
struct CollectivesRunSetup {
  harness::World& world;
  harness::Backend& backend;
  // Rank 0: every rank's environment (hosts, nodes, GPUs name the pairs and the nodes); empty elsewhere.
  const std::vector<results::RankEnv>& ranks;
  bool nccl_algorithm = false;  // NCCL's tuning log was routed to a file (--nccl-algo): read it back
  harness::RunHooks hooks;      // progress and budget
};

// Whether run_collectives measures the pairwise matrix over `ranks` ranks, and the slow-node
// localisation on a job of `ranks` ranks on `nodes` nodes: what the plan promises, so the coverage list
// reads the same rule as the run. Pure.
bool pair_matrix_runs(const SweepOptions& o, int ranks);
bool isolation_runs(const SweepOptions& o, int ranks, int nodes);

// Collective: every rank calls it with the same options. Rank 0 returns the record (the sweeps,
// scaling, pairs and isolation it holds; link expectations not yet applied). timeout_s bounds any
// single wait (the caller's: launch's phase --timeout).
results::CollectivesRecord run_collectives(const SweepOptions& o, CollectivesRunSetup& setup, double timeout_s);

}  // namespace gpuscale::collectives
