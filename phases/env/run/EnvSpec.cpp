// The env phase in the phase table: no plan, no options; it runs whatever a later phase finds.
#include <utility>

#include "launch/base/JobShape.hpp"
#include "launch/base/PhaseDriver.hpp"
#include "launch/base/PhaseRun.hpp"
#include "launch/base/PhaseSpec.hpp"
#include "launch/base/RunPlan.hpp"
#include "phases/env/run/EnvPhase.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch::phases::env {
namespace {

using results::plural;

void planned(const RunPlan&, const JobShape& shape, results::RunPlanRecord& out) {
  add_planned(out, "env", results::planned::kEnvChecks, "probes and checks on " + plural(shape.ranks, "rank"), {},
              1, shape.ranks);
  add_planned(out, "env", results::planned::kSmokeAllreduce, "smoke allreduce", {}, 1, shape.ranks);
}

// Every rank: the records the tenancy checks at the phase boundaries start from, and whether the GPU
// phases run; rank 0: every rank's record.
void keep(PhaseDriver& driver, EnvOutcome&& out) {
  driver.watch_tenancy(out.own);
  driver.block_gpu_work(std::move(out.gpu_work_blocked), std::move(out.gpu_work_impossible));
  if (driver.world().rank() == 0) driver.report().ranks = std::move(out.ranks);
}

}  // namespace

extern constinit const PhaseSpec kPhase{
    .name = "env",
    .summary = "environment of every rank, cross-rank checks and a verified smoke allreduce",
    .examples = "mpirun -np 8 gpuscale env\n"
                "mpirun -np 2 gpuscale env --json env.json\n"
                "srun --mpi=pmix -n 4 gpuscale env --device cpu",
    .add_options = nullptr,
    .plan = nullptr,
    .describe = nullptr,
    .misfit = nullptr,
    .planned = planned,
    .before_mpi = nullptr,
    .run = run_phase<run_env_phase, keep>,
    .needs_gpu_work = false,
    .runs_on_shared_gpu = false,
    .budget_weight = 1,  // the checks take little
    // MPI_Init and NCCL init of thousands of ranks, CUDA context creation (~10-60 s); also the bound
    // of start-up and finish, outside the phases.
    .timeout_s = 120,
};

}  // namespace gpuscale::launch::phases::env
