// The burn phase in the phase table: its plan, its part of the start-up line, its policy.
#include <utility>
#include <vector>

#include "launch/base/Invocation.hpp"
#include "launch/base/JobShape.hpp"
#include "launch/base/PhaseDriver.hpp"
#include "launch/base/PhaseRun.hpp"
#include "launch/base/PhaseSpec.hpp"
#include "launch/base/RunPlan.hpp"
#include "phases/burn/run/BurnPhase.hpp"
#include "phases/burn/run/BurnPlan.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch::phases::burn {
namespace {

void make_plan(RunPlan& plan, const PlanInputs& in) {
  auto burn = parse_burn_plan(in.invocation.options, in.profile, !in.whole_job);
  burn.burn.seed = in.invocation.common.seed;
  plan.set("burn", std::move(burn));
}

std::string describe_plan(const RunPlan& plan) {
  const auto& b = plan.get<BurnPlan>("burn").burn;
  return "burn " + std::string(workloads::to_string(b.precision)) + " matmul " + std::to_string(b.dim) + " for " +
         results::shortest(b.burn_s) + " s";
}

void planned(const RunPlan& plan, const JobShape&, results::RunPlanRecord& out) {
  const std::string precision(workloads::to_string(plan.get<BurnPlan>("burn").burn.precision));
  add_planned(out, "burn", results::planned::kBurn, "sustained " + precision + " matmul", {{"precision", precision}},
              1, 1);
  add_planned_labels(out, "burn", "precision", {precision});
}

// Rank 0 holds every rank's record.
void keep(PhaseDriver& driver, std::vector<results::BurnRecord>&& all) {
  if (driver.world().rank() == 0) driver.report().burn = std::move(all);
}

}  // namespace

extern constinit const PhaseSpec kPhase{
    .name = "burn",
    .summary = "sustained GEMM load on every GPU at once: throughput over wall time, clocks, power, temperature, "
               "throttle reasons, ECC errors, and the outputs compared across GPUs",
    .examples = "mpirun -np 8 gpuscale burn\n"
                "mpirun -np 8 gpuscale burn --burn-s 300 --precision fp16 --json burn.json\n"
                "mpirun -np 2 gpuscale burn --device cpu --burn-s 1",
    .add_options = add_burn_options,
    .plan = make_plan,
    .describe = describe_plan,
    .misfit = nullptr,
    .planned = planned,
    .before_mpi = nullptr,
    .run = run_phase<run_burn_phase, keep>,
    .needs_gpu_work = true,
    .runs_on_shared_gpu = true,
    .budget_weight = 1,  // the whole-job run's burn is short
    // A wait covers one queue of GEMM batches (a fraction of a second) or the barrier and gather
    // around the burn, whose length --burn-s sets apart.
    .timeout_s = 120,
};

}  // namespace gpuscale::launch::phases::burn
