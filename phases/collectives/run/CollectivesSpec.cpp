// The collectives phase in the phase table: its plan, its part of the start-up line, its fit to the
// job, its checks before MPI, its policy.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "collectives/CollectivesRun.hpp"
#include "collectives/Op.hpp"
#include "collectives/SweepOptions.hpp"
#include "launch/base/Invocation.hpp"
#include "launch/base/JobShape.hpp"
#include "launch/base/PhaseDriver.hpp"
#include "launch/base/PhaseRun.hpp"
#include "launch/base/PhaseSpec.hpp"
#include "launch/base/PlanText.hpp"
#include "launch/base/RunPlan.hpp"
#include "phases/collectives/run/CollectivesPhase.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch::phases::collectives {
namespace {

using results::plural;

void make_plan(RunPlan& plan, const PlanInputs& in) {
  const auto& options = in.invocation.options;
  auto sweep = collectives_options(options, in.profile.collectives);
  sweep.isolation_seed = static_cast<std::uint64_t>(in.invocation.common.seed);
  plan.set("collectives", CollectivesPlan{std::move(sweep), options.count("nccl-algo") > 0});
}

std::string describe_plan(const RunPlan& plan) {
  const auto& o = plan.get<CollectivesPlan>("collectives").sweep;
  const auto sizes = gpuscale::collectives::size_list(o);
  std::string text = "collectives " + std::to_string(o.ops.size()) + (o.ops.size() == 1 ? " op, " : " ops, ") +
                     std::to_string(sizes.size()) + " sizes " + size_text(sizes.front()) + ".." +
                     size_text(sizes.back()) + ", " + counts_text(o.warmup, o.iterations, "iterations");
  if (o.graph_launches) text += " x " + std::to_string(o.graph_launches) + " graph launches";
  return text;
}

// -r and --isolate name ranks and nodes the job must have.
std::string misfit(const RunPlan& plan, const JobShape& shape) {
  const auto& c = plan.get<CollectivesPlan>("collectives").sweep;
  const std::string ranks = "the job has " + plural(shape.ranks, "rank");
  if (c.root >= shape.ranks)
    return "-r " + std::to_string(c.root) + ": the root must be a rank, and " + ranks + " (0.." +
           std::to_string(shape.ranks - 1) + ")";
  const int least_nodes = gpuscale::collectives::kIsolationAutoNodes;
  if (c.isolation == gpuscale::collectives::IsolationMode::only && shape.nodes < least_nodes)
    return "--isolate compares nodes with each other and needs at least " + std::to_string(least_nodes) +
           " nodes; the job spans " + plural(shape.nodes, "node");
  return "";
}

// Each op's sweep over every rank, the scaling table, the pair matrix and the localisation where the
// options run them (over one rank they are planned and the coverage says why nothing was measured).
void planned(const RunPlan& plan, const JobShape& shape, results::RunPlanRecord& out) {
  using gpuscale::collectives::IsolationMode;
  const auto& o = plan.get<CollectivesPlan>("collectives").sweep;
  const auto sizes = gpuscale::collectives::size_list(o);
  std::vector<std::string> ops, bytes;
  if (o.isolation != IsolationMode::only) {
    for (const auto* op : o.ops) {
      ops.emplace_back(op->name);
      add_planned(out, "collectives", results::planned::kSweep, std::string(op->name), {{"op", std::string(op->name)}},
                  static_cast<int>(sizes.size()), shape.ranks);
    }
    for (const auto s : sizes) bytes.push_back(std::to_string(s));
    if (!o.scaling_sizes.empty()) {
      add_planned(out, "collectives", results::planned::kScaling, "scaling over sub-communicators", {},
                  static_cast<int>(o.scaling_sizes.size()), shape.ranks);
      for (const auto s : o.scaling_sizes) bytes.push_back(std::to_string(s));
    }
  }
  if (gpuscale::collectives::pair_matrix_runs(o, std::max(shape.ranks, 2)))
    add_planned(out, "collectives", results::planned::kPairs, "pairwise send/recv matrix", {}, 1, shape.ranks);
  if (gpuscale::collectives::isolation_runs(o, shape.ranks, shape.nodes))
    add_planned(out, "collectives", results::planned::kIsolation, "slow-node localisation", {}, o.isolation_rounds,
                shape.ranks);
  add_planned_labels(out, "collectives", "op", ops);
  add_planned_labels(out, "collectives", "bytes", bytes);
}

// --nccl-algo routes NCCL's log before NCCL starts.
void before_mpi(const Invocation& invocation) { prepare_collectives(invocation); }

// Rank 0 holds the record.
void keep(PhaseDriver& driver, results::CollectivesRecord&& record) {
  if (driver.world().rank() == 0) driver.report().collectives = std::move(record);
}

}  // namespace

extern constinit const PhaseSpec kPhase{
    .name = "collectives",
    .summary = "NCCL collective sweeps (nccl-tests flags), scaling table, pairwise matrix",
    .examples = "mpirun -np 8 gpuscale collectives -b 8 -e 1G -f 4\n"
                "mpirun -np 2 gpuscale collectives --ops allreduce -G 10 -d bfloat16 --json coll.json\n"
                "mpirun -np 4 gpuscale collectives --device cpu -b 1 -e 64K --scaling-sizes 8,4K",
    .add_options = add_collectives_options,
    .plan = make_plan,
    .describe = describe_plan,
    .misfit = misfit,
    .planned = planned,
    .before_mpi = before_mpi,
    .run = run_phase<run_collectives_phase, keep>,
    .needs_gpu_work = true,
    .runs_on_shared_gpu = false,
    .feeds_projection = true,
    .budget_weight = 3,  // the sweeps take most
    // One wait covers 20 iterations of a 1 GiB allreduce; over NCCL sockets on 10 GbE (~1.2 GB/s,
    // 2 GiB moved per op) that is ~40 s.
    .timeout_s = 180,
};

}  // namespace gpuscale::launch::phases::collectives
